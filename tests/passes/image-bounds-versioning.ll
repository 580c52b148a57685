; image-bounds-versioning: the markers of the image built-ins' bounds checks
; (__mosaic_inside) are resolved: each x loop of K.wg gets a version for
; rows whose accesses stay inside the image, where the checks are true,
; and none of the markers is left.
;   kernel void k(read_only image2d_t src, write_only image2d_t dst, sampler_t s)
;   { int2 p = (int2)(get_global_id(0), get_global_id(1));
;     write_imagef(dst, p, read_imagef(src, s, p) * 0.5f); }
; RUN: mosaic-opt --stop-after=image-bounds-versioning --print-before %s | FileCheck %s
; CHECK: call i32 @__mosaic_inside(
; CHECK-LABEL: ;; after image-bounds-versioning
; CHECK-NOT: call i32 @__mosaic_inside(
; CHECK: define void @k.wg(
; CHECK-NOT: call i32 @__mosaic_inside(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(2) %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(2), align 8
  %7 = alloca <2 x i32>, align 8
  %8 = alloca <2 x i32>, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !13
  store ptr addrspace(2) %2, ptr %6, align 8, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #5
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %10 = trunc i64 %9 to i32
  %11 = insertelement <2 x i32> undef, i32 %10, i32 0
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %13 = trunc i64 %12 to i32
  %14 = insertelement <2 x i32> %11, i32 %13, i32 1
  store <2 x i32> %14, ptr %8, align 8, !tbaa !17
  %15 = load <2 x i32>, ptr %8, align 8, !tbaa !17
  store <2 x i32> %15, ptr %7, align 8, !tbaa !17
  %16 = load ptr addrspace(1), ptr %5, align 8, !tbaa !13
  %17 = load <2 x i32>, ptr %7, align 8, !tbaa !17
  %18 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %19 = load ptr addrspace(2), ptr %6, align 8, !tbaa !15
  %20 = load <2 x i32>, ptr %7, align 8, !tbaa !17
  %21 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %18, ptr addrspace(2) %19, <2 x i32> noundef %20) #7
  %22 = fmul <4 x float> %21, <float 5.000000e-01, float 5.000000e-01, float 5.000000e-01, float 5.000000e-01>
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %16, <2 x i32> noundef %17, <4 x float> noundef %22) #8
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1), <2 x i32> noundef, <4 x float> noundef) #3

; Function Attrs: convergent nounwind willreturn memory(read)
declare dso_local spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1), ptr addrspace(2), <2 x i32> noundef) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nounwind willreturn memory(read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #5 = { nounwind }
attributes #6 = { convergent nounwind willreturn memory(none) }
attributes #7 = { convergent nounwind willreturn memory(read) }
attributes #8 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"read_only", !"write_only", !"none"}
!6 = !{!"image2d_t", !"image2d_t", !"sampler_t"}
!7 = !{!"", !"", !""}
!8 = !{!"src", !"dst", !"s"}
!9 = !{!10, !10, i64 0}
!10 = !{!"__read_only image2d_t", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"__write_only image2d_t", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"sampler_t", !11, i64 0}
!17 = !{!11, !11, i64 0}
