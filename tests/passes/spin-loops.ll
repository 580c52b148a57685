; spin-loops: a loop that waits for another work-item (here on a volatile
; flag) yields to the other work-items on each iteration.
;   kernel void k(global volatile int *flag, global int *o)
;   { if (get_global_id(0) == 0) *flag = 1; while (*flag == 0); o[get_global_id(0)] = 1; }
; RUN: mosaic-opt --stop-after=spin-loops --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: @__mosaic_yield
; CHECK-LABEL: ;; after spin-loops
; CHECK-LABEL: define internal void @k.body(
; CHECK: [[LOOP:[0-9]+]]:{{.*}}preds = %[[LOOP]]
; CHECK-NEXT: load volatile i32
; CHECK-NEXT: icmp eq i32
; CHECK-NEXT: call void @__mosaic_yield(ptr %ctx)
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %[[LOOP]],

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  %5 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %6 = icmp eq i64 %5, 0
  br i1 %6, label %7, label %9

7:                                                ; preds = %2
  %8 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  store volatile i32 1, ptr addrspace(1) %8, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %7, %2
  br label %10

10:                                               ; preds = %14, %9
  %11 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %12 = load volatile i32, ptr addrspace(1) %11, align 4, !tbaa !13
  %13 = icmp eq i32 %12, 0
  br i1 %13, label %14, label %15

14:                                               ; preds = %10
  br label %10

15:                                               ; preds = %10
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %18 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %17
  store i32 1, ptr addrspace(1) %18, align 4, !tbaa !13
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int*"}
!7 = !{!"volatile", !""}
!8 = !{!"flag", !"o"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
