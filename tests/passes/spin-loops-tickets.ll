; spin-loops: a loop that takes a ticket on each iteration (an atomic add of
; a constant other than zero) moves on by itself and waits for no one: no
; yield, the kernel keeps its work-group function (persistent threads).  A
; loop that gives its ticket back (a semaphore's wait) may wait: it yields.
;   kernel void persistent(global int *out, global int *next, int n)
;   { int i; while ((i = atomic_inc(next)) < n) out[i] = 2 * i + 1; }
;   kernel void give_back(global int *sem, global int *out)
;   { while (1) { if (atomic_dec(sem) > 0) break; atomic_inc(sem); } out[get_global_id(0)] = 1; }
; RUN: mosaic-opt --stop-after=spin-loops %s | FileCheck %s
; CHECK-LABEL: define internal void @persistent.body(
; CHECK: atomicrmw add ptr addrspace(4) %{{[0-9]+}}, i32 1
; CHECK-NOT: @__mosaic_yield
; CHECK-LABEL: define internal void @give_back.body(
; CHECK: atomicrmw sub ptr addrspace(4) [[SEM:%[0-9]+]], i32 1
; CHECK: atomicrmw add ptr addrspace(4) [[SEM]], i32 1
; CHECK-NEXT: call void @__mosaic_yield(ptr %ctx)

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @persistent(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  br label %8

8:                                                ; preds = %13, %3
  %9 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %10 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef %9) #5
  store i32 %10, ptr %7, align 4, !tbaa !13
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %10, %11
  br i1 %12, label %13, label %21

13:                                               ; preds = %8
  %14 = load i32, ptr %7, align 4, !tbaa !13
  %15 = mul nsw i32 2, %14
  %16 = add nsw i32 %15, 1
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %18 = load i32, ptr %7, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = getelementptr inbounds i32, ptr addrspace(1) %17, i64 %19
  store i32 %16, ptr addrspace(1) %20, align 4, !tbaa !13
  br label %8

21:                                               ; preds = %8
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @give_back(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !15 !kernel_arg_access_qual !16 !kernel_arg_type !17 !kernel_arg_base_type !17 !kernel_arg_type_qual !18 !kernel_arg_name !19 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  br label %5

5:                                                ; preds = %10, %2
  %6 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %7 = call spir_func i32 @_Z10atomic_decPU3AS1Vi(ptr addrspace(1) noundef %6) #5
  %8 = icmp sgt i32 %7, 0
  br i1 %8, label %9, label %10

9:                                                ; preds = %5
  br label %13

10:                                               ; preds = %5
  %11 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %12 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef %11) #5
  br label %5

13:                                               ; preds = %9
  %14 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %16 = getelementptr inbounds i32, ptr addrspace(1) %14, i64 %15
  store i32 1, ptr addrspace(1) %16, align 4, !tbaa !13
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_decPU3AS1Vi(ptr addrspace(1) noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #3

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind }
attributes #6 = { convergent nounwind willreturn memory(none) }

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
!6 = !{!"int*", !"int*", !"int"}
!7 = !{!"", !"", !""}
!8 = !{!"out", !"next", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{i32 1, i32 1}
!16 = !{!"none", !"none"}
!17 = !{!"int*", !"int*"}
!18 = !{!"", !""}
!19 = !{!"sem", !"out"}
