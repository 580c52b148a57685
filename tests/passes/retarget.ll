; retarget: the host's triple and data layout, and the C calling convention
; in place of SPIR's (spir_kernel, spir_func) on every function and call.
;   kernel void k(global int *o) { size_t i = get_global_id(0); o[i] = clamp(o[i], 0, 9); }
; RUN: mosaic-opt --stop-after=retarget --print-before %s | FileCheck %s
; CHECK: target triple = "spir64-unknown-unknown"
; CHECK: define dso_local spir_kernel void @k(
; CHECK: call spir_func i32 @_Z5clampiii(
; CHECK-LABEL: ;; after retarget
; CHECK-NOT: spir_func
; CHECK: target triple = "x86_64-
; CHECK-NOT: spir_func
; CHECK: define dso_local void @k(
; CHECK-NOT: spir_func
; CHECK: call i32 @_Z5clampiii(
; CHECK-NOT: spir_func
; CHECK-NOT: spir_kernel

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %3) #3
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %4, ptr %3, align 8, !tbaa !13
  %5 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %6 = load i64, ptr %3, align 8, !tbaa !13
  %7 = getelementptr inbounds i32, ptr addrspace(1) %5, i64 %6
  %8 = load i32, ptr addrspace(1) %7, align 4, !tbaa !15
  %9 = call spir_func i32 @_Z5clampiii(i32 noundef %8, i32 noundef 0, i32 noundef 9) #4
  %10 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %11 = load i64, ptr %3, align 8, !tbaa !13
  %12 = getelementptr inbounds i32, ptr addrspace(1) %10, i64 %11
  store i32 %9, ptr addrspace(1) %12, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 8, ptr %3) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z5clampiii(i32 noundef, i32 noundef, i32 noundef) #2

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
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"o"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"int", !11, i64 0}
