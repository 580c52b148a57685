; printf: a call of printf (in bitcode the front end did not make: Mosaic's
; own front end already calls __mosaic_printf) becomes a call of the
; device's __mosaic_printf with the arguments packed in a buffer and a
; descriptor of their kinds.  The module is written by hand.
; RUN: mosaic-opt --stop-after=printf --print-before %s | FileCheck %s
; CHECK: call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) noundef @.str, i32 noundef [[X:%[0-9]+]])
; CHECK-LABEL: ;; after printf
; CHECK: @printf.desc = private unnamed_addr addrspace(2) constant [1 x i32]
; CHECK: %printf.args = alloca [8 x i8]
; CHECK: [[SLOT:%[0-9]+]] = getelementptr inbounds i8, ptr %printf.args, i64 0
; CHECK-NEXT: store i32 [[X:%[0-9]+]], ptr [[SLOT]]
; CHECK-NEXT: call spir_func i32 @__mosaic_printf(ptr addrspace(2) @.str, ptr %printf.args, ptr addrspace(2) @printf.desc, i32 1)
; CHECK-NOT: @printf(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [4 x i8] c"%d\0A\00", align 1

define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %3 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %2
  %4 = load i32, ptr addrspace(1) %3, align 4
  %5 = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) noundef @.str, i32 noundef %4) #2
  ret void
}

declare dso_local spir_func i32 @printf(ptr addrspace(2) noundef, ...) #1

declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

attributes #0 = { convergent norecurse nounwind "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind }
attributes #2 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"o"}
