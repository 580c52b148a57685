; image-bounds-versioning, a row whose reads overhang both edges: the taps
; at x - 1 and x + 1 of a row as wide as the image leave it at either end,
; so the row is split (index-set splitting): the loop runs [0, lo) and
; [hi, nx) with the edge clamps, the version (clamps gone) runs [lo, hi),
; where every x index is inside.  The y test is invariant: where it fails
; the middle is empty (lo = hi = nx).
;   constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
;   kernel void k(read_only image2d_t src, write_only image2d_t dst)
;   { int2 p = (int2)(get_global_id(0), get_global_id(1));
;     write_imagef(dst, p, read_imagef(src, edge, p - (int2)(1, 0)) + read_imagef(src, edge, p + (int2)(1, 0))); }
; RUN: mosaic-opt --stop-after=image-bounds-versioning --print-before %s | FileCheck %s
; CHECK: call i32 @__mosaic_edge_clamp_x(
; CHECK-LABEL: ;; after image-bounds-versioning
; CHECK-LABEL: define void @k.wg(
; CHECK: [[LO:%[0-9]+]] = select i1 [[YIN:%[0-9]+]], i64 %{{[0-9]+}}, i64 %nx
; CHECK-NEXT: [[HI:%[0-9]+]] = select i1 [[YIN]], i64 %{{[0-9]+}}, i64 %nx
; CHECK-NEXT: br label %row.segment
; CHECK: row.segment:
; CHECK-NEXT: %row.second = phi i1 [ false, %y ], [ true, %row.inside.done ]
; CHECK-NEXT: %row.start = phi i64 [ 0, %y ], [ [[HI]], %row.inside.done ]
; CHECK-NEXT: %row.end = phi i64 [ [[LO]], %y ], [ %nx, %row.inside.done ]
; CHECK-NEXT: [[ANY:%[0-9]+]] = icmp ult i64 %row.start, %row.end
; CHECK-NEXT: br i1 [[ANY]], label %x, label %row.segment.done
; CHECK: x:
; CHECK-NEXT: phi i64 [ %row.start, %row.segment ]
; CHECK: icmp ult i64 %lx.next, %row.end
; CHECK: row.segment.done:
; CHECK-NEXT: br i1 %row.second, label %y.latch, label %row.inside
; CHECK: row.inside:
; CHECK-NEXT: [[MID:%[0-9]+]] = icmp ult i64 [[LO]], [[HI]]
; CHECK-NEXT: br i1 [[MID]], label %x.version, label %row.inside.done
; CHECK: x.version:
; CHECK-NEXT: phi i64 [ [[LO]], %row.inside ]
; CHECK: icmp ult i64 %{{[0-9]+}}, [[HI]]
; CHECK: row.inside.done:
; CHECK-NEXT: br label %row.segment
; CHECK-NOT: call i32 @__mosaic_edge_clamp_x(

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
  %7 = alloca <2 x i32>, align 8
  %8 = alloca <2 x i32>, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #5
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %10 = trunc i64 %9 to i32
  %11 = insertelement <2 x i32> undef, i32 %10, i32 0
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %13 = trunc i64 %12 to i32
  %14 = insertelement <2 x i32> %11, i32 %13, i32 1
  store <2 x i32> %14, ptr %6, align 8, !tbaa !15
  %15 = load <2 x i32>, ptr %6, align 8, !tbaa !15
  store <2 x i32> %15, ptr %5, align 8, !tbaa !15
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !13
  %17 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  %18 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %19 = call spir_func ptr addrspace(2) @__translate_sampler_initializer(i32 18)
  %20 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  store <2 x i32> <i32 1, i32 0>, ptr %7, align 8, !tbaa !15
  %21 = load <2 x i32>, ptr %7, align 8, !tbaa !15
  %22 = sub <2 x i32> %20, %21
  %23 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %18, ptr addrspace(2) %19, <2 x i32> noundef %22) #7
  %24 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %25 = call spir_func ptr addrspace(2) @__translate_sampler_initializer(i32 18)
  %26 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  store <2 x i32> <i32 1, i32 0>, ptr %8, align 8, !tbaa !15
  %27 = load <2 x i32>, ptr %8, align 8, !tbaa !15
  %28 = add <2 x i32> %26, %27
  %29 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %24, ptr addrspace(2) %25, <2 x i32> noundef %28) #7
  %30 = fadd <4 x float> %23, %29
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %16, <2 x i32> noundef %17, <4 x float> noundef %30) #8
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #5
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
