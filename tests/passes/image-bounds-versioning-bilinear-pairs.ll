; image-bounds-versioning, a bilinear read (clamp-to-edge, normalized
; coordinates) in a row's version that stays inside: the two texels along x,
; clamp(i) and clamp(i + 1), are read together as pixels k and k + 1,
; k = clamp(i, 0, n - 2) (images.cl, edge_lerp_x): the second word's address
; is the first's plus one, so across work-items the two loads become one
; gather of 8-byte words.  The test of n >= 2, __mosaic_inside(1, n), is
; true in the version; for RGBA UNORM_INT8 the weight goes to 0 left of the
; image and to 1 right of it instead of choosing texels.
;   constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
;   kernel void k(read_only image2d_t src, write_only image2d_t dst)
;   { int2 p = (int2)(get_global_id(0), get_global_id(1));
;     float2 s = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(dst));
;     write_imagef(dst, p, read_imagef(src, bilinear, s)); }
; RUN: mosaic-opt --stop-after=image-bounds-versioning %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: x.version:
; CHECK: [[I:%[0-9]+]] = fptosi float %{{[0-9]+}} to i32
; CHECK: br i1 false,
; CHECK: [[NM2:%[0-9]+]] = add nsw i32 [[N:%[0-9]+]], -2
; CHECK-NEXT: [[LOW:%[0-9]+]] = call i32 @llvm.smax.i32(i32 [[I]], i32 0)
; CHECK-NEXT: [[K:%[0-9]+]] = call i32 @llvm.smin.i32(i32 [[LOW]], i32 [[NM2]])
; CHECK: [[KX:%[0-9]+]] = sext i32 [[K]] to i64
; CHECK-NEXT: [[OFF:%[0-9]+]] = shl nsw i64 [[KX]], 2
; CHECK-NEXT: [[P:%[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %{{[0-9]+}}, i64 [[OFF]]
; CHECK-NEXT: load i32, ptr addrspace(1) [[P]], align 4
; CHECK: [[P1:%[0-9]+]] = getelementptr inbounds <2 x i32>, ptr addrspace(1) [[P]], i64 0, i64 1
; CHECK-NEXT: load i32, ptr addrspace(1) [[P1]], align 4
; CHECK: [[LEFT:%[0-9]+]] = icmp slt i32 [[I]], 0
; CHECK-NEXT: [[RIGHT:%[0-9]+]] = icmp slt i32 [[NM2]], [[I]]
; CHECK-NEXT: [[W:%[0-9]+]] = select i1 [[RIGHT]], float 1.000000e+00, float %{{[0-9]+}}
; CHECK-NEXT: select i1 [[LEFT]], float 0.000000e+00, float [[W]]
; CHECK: row.inside.done:

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) %0, ptr addrspace(1) %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca <2 x i32>, align 8
  %6 = alloca <2 x i32>, align 8
  %7 = alloca <2 x float>, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #5
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %9 = trunc i64 %8 to i32
  %10 = insertelement <2 x i32> undef, i32 %9, i32 0
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %12 = trunc i64 %11 to i32
  %13 = insertelement <2 x i32> %10, i32 %12, i32 1
  store <2 x i32> %13, ptr %6, align 8, !tbaa !15
  %14 = load <2 x i32>, ptr %6, align 8, !tbaa !15
  store <2 x i32> %14, ptr %5, align 8, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #5
  %15 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  %16 = call spir_func <2 x float> @_Z14convert_float2Dv2_i(<2 x i32> noundef %15) #6
  %17 = fadd <2 x float> %16, <float 5.000000e-01, float 5.000000e-01>
  %18 = load ptr addrspace(1), ptr %4, align 8, !tbaa !13
  %19 = call spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_wo(ptr addrspace(1) %18) #6
  %20 = call spir_func <2 x float> @_Z14convert_float2Dv2_i(<2 x i32> noundef %19) #6
  %21 = fdiv <2 x float> %17, %20, !fpmath !16
  store <2 x float> %21, ptr %7, align 8, !tbaa !15
  %22 = load ptr addrspace(1), ptr %4, align 8, !tbaa !13
  %23 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  %24 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %25 = call spir_func ptr addrspace(2) @__translate_sampler_initializer(i32 35)
  %26 = load <2 x float>, ptr %7, align 8, !tbaa !15
  %27 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1) %24, ptr addrspace(2) %25, <2 x float> noundef %26) #7
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %22, <2 x i32> noundef %23, <4 x float> noundef %27) #8
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #5
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func <2 x float> @_Z14convert_float2Dv2_i(<2 x i32> noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_wo(ptr addrspace(1)) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1), <2 x i32> noundef, <4 x float> noundef) #3

; Function Attrs: convergent nounwind willreturn memory(read)
declare dso_local spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1), ptr addrspace(2), <2 x float> noundef) #4

declare dso_local spir_func ptr addrspace(2) @__translate_sampler_initializer(i32)

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
!4 = !{i32 1, i32 1}
!5 = !{!"read_only", !"write_only"}
!6 = !{!"image2d_t", !"image2d_t"}
!7 = !{!"", !""}
!8 = !{!"src", !"dst"}
!9 = !{!10, !10, i64 0}
!10 = !{!"__read_only image2d_t", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"__write_only image2d_t", !11, i64 0}
!15 = !{!11, !11, i64 0}
!16 = !{float 2.500000e+00}
