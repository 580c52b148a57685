; uniform-loop-exits: a loop each work-item starts at its own global id and
; strides by the global size goes round in step with the other work-items:
; the loop runs from the first work-item's start (a uniform exit), each
; work-item at its distance from it, guarded.
;   kernel void k(global float *o, global const float *a, int n)
;   { for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) o[i] = a[i] + 1.0f; }
; RUN: mosaic-opt --stop-after=uniform-loop-exits --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: in_step
; CHECK-LABEL: ;; after uniform-loop-exits
; CHECK-LABEL: define internal void @k.body(
; CHECK: %in_step.distance = sub i32
; CHECK: %in_step.first = phi i32
; CHECK: add i32 %in_step.first, %in_step.distance
; CHECK: icmp slt i32 %in_step.first, %2
; CHECK: in_step.guard:
; CHECK: in_step.latch:
; CHECK-NEXT: add nsw i32 %in_step.first,

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %7, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %26, %3
  %11 = load i32, ptr %7, align 4, !tbaa !13
  %12 = load i32, ptr %6, align 4, !tbaa !13
  %13 = icmp slt i32 %11, %12
  br i1 %13, label %15, label %14

14:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  br label %31

15:                                               ; preds = %10
  %16 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %17 = load i32, ptr %7, align 4, !tbaa !13
  %18 = sext i32 %17 to i64
  %19 = getelementptr inbounds float, ptr addrspace(1) %16, i64 %18
  %20 = load float, ptr addrspace(1) %19, align 4, !tbaa !15
  %21 = fadd float %20, 1.000000e+00
  %22 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %23 = load i32, ptr %7, align 4, !tbaa !13
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds float, ptr addrspace(1) %22, i64 %24
  store float %21, ptr addrspace(1) %25, align 4, !tbaa !15
  br label %26

26:                                               ; preds = %15
  %27 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #4
  %28 = trunc i64 %27 to i32
  %29 = load i32, ptr %7, align 4, !tbaa !13
  %30 = add nsw i32 %29, %28
  store i32 %30, ptr %7, align 4, !tbaa !13
  br label %10

31:                                               ; preds = %14
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nounwind }
attributes #4 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"int"}
!7 = !{!"", !"const", !""}
!8 = !{!"o", !"a", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
