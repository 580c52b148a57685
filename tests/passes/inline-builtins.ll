; inline-builtins: the builtins a kernel calls are inlined into it (their
; magic calls, __mosaic_get_ctx and __mosaic_get_local_id, stay for K.body),
; and the atomic library calls they make become atomic instructions that
; keep the OpenCL memory scope they were called with (!mosaic.scope; OpenCL
; 1.x's atomic_inc: all devices, 3).
;   kernel void k(global int *a) {
;     atomic_inc(&a[get_global_id(0) % 4]);
;     atomic_fetch_add_explicit((volatile global atomic_int *)a, 1, memory_order_relaxed, memory_scope_work_group);
;   }
; RUN: mosaic-opt --stop-after=inline-builtins --print-before %s | FileCheck %s
; CHECK-LABEL: define dso_local void @k(
; CHECK: call i64 @_Z13get_global_idj(
; CHECK: call i32 @_Z10atomic_incPU3AS1Vi(
; CHECK-LABEL: ;; after inline-builtins
; CHECK-LABEL: define dso_local void @k(
; CHECK-NOT: call i64 @_Z13get_global_idj(
; CHECK: call i64 @__mosaic_get_local_id(i32 noundef 0)
; CHECK: atomicrmw add ptr addrspace(4) %{{[0-9]+}}, i32 1 seq_cst, align 4, !mosaic.scope ![[ALL:[0-9]+]]
; CHECK: atomicrmw add ptr addrspace(4) %{{[0-9]+}}, i32 1 monotonic, align 4, !mosaic.scope ![[GROUP:[0-9]+]]
; CHECK-NOT: @__atomic_fetch_add_4
; CHECK-DAG: ![[ALL]] = !{i32 3}
; CHECK-DAG: ![[GROUP]] = !{i32 1}

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %5 = urem i64 %4, 4
  %6 = getelementptr inbounds i32, ptr addrspace(1) %3, i64 %5
  %7 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef %6) #4
  %8 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %9 = addrspacecast ptr addrspace(1) %8 to ptr addrspace(4)
  %10 = call spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4) noundef %9, i32 noundef 1, i32 noundef 0, i32 noundef 1) #4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4) noundef, i32 noundef, i32 noundef, i32 noundef) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(none) }
attributes #4 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"a"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
