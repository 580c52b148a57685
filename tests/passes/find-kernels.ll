; find-kernels: a build of one kernel for one local size (as a launch asks
; the CPU device for) drops the program's other kernels.
;   kernel void k(global float *o, local float *t)
;   { size_t l = get_local_id(0), n = get_local_size(0);
;     t[l] = o[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = t[n - 1 - l]; }
;   kernel void other(global float *o) { o[get_global_id(0)] = 1.0f; }
; RUN: mosaic-opt --one-size=k:16,1,1 --stop-after=find-kernels --print-before %s | FileCheck %s
; RUN: mosaic-opt --stop-after=find-kernels %s | FileCheck %s --check-prefix=BOTH
; CHECK: define dso_local spir_kernel void @k(
; CHECK: define dso_local spir_kernel void @other(
; CHECK-LABEL: ;; after find-kernels
; CHECK-NOT: @other(
; CHECK: define dso_local spir_kernel void @k(
; CHECK-NOT: @other(
; BOTH: define dso_local spir_kernel void @k(
; BOTH: define dso_local spir_kernel void @other(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(3) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(3), align 8
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(3) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %7, ptr %5, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %6) #4
  %8 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  store i64 %8, ptr %6, align 8, !tbaa !13
  %9 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !15
  %13 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %14 = load i64, ptr %5, align 8, !tbaa !13
  %15 = getelementptr inbounds float, ptr addrspace(3) %13, i64 %14
  store float %12, ptr addrspace(3) %15, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %16 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %17 = load i64, ptr %6, align 8, !tbaa !13
  %18 = sub i64 %17, 1
  %19 = load i64, ptr %5, align 8, !tbaa !13
  %20 = sub i64 %18, %19
  %21 = getelementptr inbounds float, ptr addrspace(3) %16, i64 %20
  %22 = load float, ptr addrspace(3) %21, align 4, !tbaa !15
  %23 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %24 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %25 = getelementptr inbounds float, ptr addrspace(1) %23, i64 %24
  store float %22, ptr addrspace(1) %25, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 8, ptr %6) #4
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @other(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %5 = getelementptr inbounds float, ptr addrspace(1) %3, i64 %4
  store float 1.000000e+00, ptr addrspace(1) %5, align 4, !tbaa !15
  ret void
}

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind willreturn memory(none) }
attributes #6 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 3}
!5 = !{!"none", !"none"}
!6 = !{!"float*", !"float*"}
!7 = !{!"", !""}
!8 = !{!"o", !"t"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{i32 1}
!18 = !{!"none"}
!19 = !{!"float*"}
!20 = !{!""}
!21 = !{!"o"}
