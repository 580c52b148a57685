; check-calls: a call whose arguments are not its callee's parameters is
; valid IR that OpenCL C never makes (a binary made by hand: a mutated
; barrier call became one); refused with a message, as the kernel it calls
; would otherwise be left a call of an emptied shell once K.body is made.
;   int helper(global int *a) { return a[1]; }
;   kernel void k(global int *a) { a[0] = 1; }
;   kernel void c(global int *a) { k(a); a[2] = helper(a); }
; with the calls edited to k(i32 1) and helper(i64 7, i64 8).  LLVM's
; inliner pipeline mends the helper's call (it casts the arguments), so
; only -cl-opt-disable leaves it for check-calls to refuse.
; RUN: not mosaic-opt --stop-after=check-calls %s 2>&1 | FileCheck %s
; RUN: not mosaic-opt --options=-cl-opt-disable --stop-after=check-calls %s 2>&1 | FileCheck %s --check-prefix=O0
; CHECK: error: 'c' calls 'k' in a way it cannot be inlined (a kernel must be)
; CHECK: mosaic-opt: failed (-11)
; O0: error: 'c' calls 'k' in a way it cannot be inlined (a kernel must be)
; O0: error: 'c' calls 'helper' with arguments that are not its parameters
; O0: mosaic-opt: failed (-11)

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_func i32 @helper(ptr addrspace(1) noundef %0) #0 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !4
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !4
  %4 = getelementptr inbounds i32, ptr addrspace(1) %3, i64 1
  %5 = load i32, ptr addrspace(1) %4, align 4, !tbaa !8
  ret i32 %5
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #1 !kernel_arg_addr_space !10 !kernel_arg_access_qual !11 !kernel_arg_type !12 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !kernel_arg_name !14 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !4
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !4
  %4 = getelementptr inbounds i32, ptr addrspace(1) %3, i64 0
  store i32 1, ptr addrspace(1) %4, align 4, !tbaa !8
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @c(ptr addrspace(1) noundef align 4 %0) #1 !kernel_arg_addr_space !10 !kernel_arg_access_qual !11 !kernel_arg_type !12 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !kernel_arg_name !14 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !4
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !4
  call spir_kernel void @k(i32 1) #2
  %4 = load ptr addrspace(1), ptr %2, align 8, !tbaa !4
  %5 = call spir_func i32 @helper(i64 7, i64 8) #3
  %6 = load ptr addrspace(1), ptr %2, align 8, !tbaa !4
  %7 = getelementptr inbounds i32, ptr addrspace(1) %6, i64 2
  store i32 %5, ptr addrspace(1) %7, align 4, !tbaa !8
  ret void
}

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #2 = { convergent nounwind "uniform-work-group-size"="true" }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"any pointer", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !6, i64 0}
!10 = !{i32 1}
!11 = !{!"none"}
!12 = !{!"int*"}
!13 = !{!""}
!14 = !{!"a"}
