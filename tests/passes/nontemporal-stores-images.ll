; nontemporal-stores, an image kernel: its work-group function calls the
; image built-ins' rare paths (__mosaic_outlined_decode_f and _encode_f, kept
; out of line for the formats without a nest of their own), whose bodies
; hold no atomics or fences, so the copy's rows (RGBA UNORM_INT8 words,
; RGBA FLOAT pixels) still get their streaming stores.
;   kernel void k(read_only image2d_t src, write_only image2d_t dst)
;   { int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(dst, p, read_imagef(src, p)); }
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --stop-after=nontemporal-stores %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: %streaming = icmp ne i64 %stream_stores, 0
; CHECK: stores.streaming:
; CHECK-NEXT: store <8 x i32> {{.*}}, align 32, {{.*}}!nontemporal
; CHECK: stores.streaming{{[0-9]+}}:
; CHECK-NEXT: store <32 x float> {{.*}}, align 64, {{.*}}!nontemporal
; CHECK: call fastcc <4 x float> @__mosaic_outlined_decode_f(
; CHECK: call fastcc void @__mosaic_outlined_encode_f(

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
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #5
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %8 = trunc i64 %7 to i32
  %9 = insertelement <2 x i32> undef, i32 %8, i32 0
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %11 = trunc i64 %10 to i32
  %12 = insertelement <2 x i32> %9, i32 %11, i32 1
  store <2 x i32> %12, ptr %6, align 8, !tbaa !15
  %13 = load <2 x i32>, ptr %6, align 8, !tbaa !15
  store <2 x i32> %13, ptr %5, align 8, !tbaa !15
  %14 = load ptr addrspace(1), ptr %4, align 8, !tbaa !13
  %15 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  %16 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %17 = load <2 x i32>, ptr %5, align 8, !tbaa !15
  %18 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(1) %16, <2 x i32> noundef %17) #7
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %14, <2 x i32> noundef %15, <4 x float> noundef %18) #8
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
declare dso_local spir_func <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(1), <2 x i32> noundef) #4

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
