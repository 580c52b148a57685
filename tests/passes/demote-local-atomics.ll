; demote-local-atomics: in K.wg one thread runs the whole group, so an atomic on
; __local memory becomes a plain load, add and store.
;   kernel void k(global int *o, global const int *a)
;   { local int count; if (get_local_id(0) == 0) count = 0; barrier(CLK_LOCAL_MEM_FENCE);
;     if (a[get_global_id(0)] > 0) atomic_inc(&count); barrier(CLK_LOCAL_MEM_FENCE);
;     if (get_local_id(0) == 0) o[get_group_id(0)] = count; }
; RUN: mosaic-opt --stop-after=demote-local-atomics --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: atomicrmw add ptr addrspace(4) %{{[0-9]+}}, i32 1 seq_cst
; CHECK-LABEL: ;; after demote-local-atomics
; CHECK-LABEL: define void @k.wg(
; CHECK-NOT: atomicrmw
; CHECK: [[OLD:%[0-9]+]] = load i32, ptr addrspace(4) [[P:%[0-9]+]], align 4
; CHECK-NEXT: [[NEW:%[0-9]+]] = add i32 [[OLD]], 1
; CHECK-NEXT: store i32 [[NEW]], ptr addrspace(4) [[P]], align 4
; CHECK-NOT: atomicrmw
; CHECK-LABEL: declare void @__mosaic_barrier_divergence(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@k.count = internal addrspace(3) global i32 undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  %5 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  %6 = icmp eq i64 %5, 0
  br i1 %6, label %7, label %8

7:                                                ; preds = %2
  store i32 0, ptr addrspace(3) @k.count, align 4, !tbaa !13
  br label %8

8:                                                ; preds = %7, %2
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %9 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %11 = getelementptr inbounds i32, ptr addrspace(1) %9, i64 %10
  %12 = load i32, ptr addrspace(1) %11, align 4, !tbaa !13
  %13 = icmp sgt i32 %12, 0
  br i1 %13, label %14, label %16

14:                                               ; preds = %8
  %15 = call spir_func i32 @_Z10atomic_incPU3AS3Vi(ptr addrspace(3) noundef @k.count) #4
  br label %16

16:                                               ; preds = %14, %8
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %17 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  %18 = icmp eq i64 %17, 0
  br i1 %18, label %19, label %24

19:                                               ; preds = %16
  %20 = load i32, ptr addrspace(3) @k.count, align 4, !tbaa !13
  %21 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %22 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #3
  %23 = getelementptr inbounds i32, ptr addrspace(1) %21, i64 %22
  store i32 %20, ptr addrspace(1) %23, align 4, !tbaa !13
  br label %24

24:                                               ; preds = %19, %16
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_incPU3AS3Vi(ptr addrspace(3) noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(none) }
attributes #4 = { convergent nounwind }

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
!7 = !{!"", !"const"}
!8 = !{!"o", !"a"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
