; scalarize-short-vectors: float4 arithmetic in K.body is split into its
; four elements (the work-item loop's vectoriser then widens the elements).
;   kernel void k(global float4 *o, global const float4 *a, float s)
;   { size_t i = get_global_id(0); o[i] = a[i] * s + (float4)(1.0f); }
; RUN: mosaic-opt --stop-after=scalarize-short-vectors --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: load <4 x float>
; CHECK: call <4 x float> @llvm.fmuladd.v4f32(
; CHECK: store <4 x float>
; CHECK-LABEL: ;; after scalarize-short-vectors
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: load <4 x float>
; CHECK: load float
; CHECK: call float @llvm.fmuladd.f32(
; CHECK: call float @llvm.fmuladd.f32(
; CHECK: call float @llvm.fmuladd.f32(
; CHECK: call float @llvm.fmuladd.f32(
; CHECK: store float
; CHECK-NOT: {{load|store|call}} <4 x float>
; CHECK: ret void

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 16 %1, float noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca float, align 4
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !10
  store float %2, ptr %6, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  store i64 %8, ptr %7, align 8, !tbaa !16
  %9 = load ptr addrspace(1), ptr %5, align 8, !tbaa !10
  %10 = load i64, ptr %7, align 8, !tbaa !16
  %11 = getelementptr inbounds <4 x float>, ptr addrspace(1) %9, i64 %10
  %12 = load <4 x float>, ptr addrspace(1) %11, align 16, !tbaa !18
  %13 = load float, ptr %6, align 4, !tbaa !14
  %14 = insertelement <4 x float> poison, float %13, i64 0
  %15 = shufflevector <4 x float> %14, <4 x float> poison, <4 x i32> zeroinitializer
  %16 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %12, <4 x float> %15, <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>)
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %18 = load i64, ptr %7, align 8, !tbaa !16
  %19 = getelementptr inbounds <4 x float>, ptr addrspace(1) %17, i64 %18
  store <4 x float> %16, ptr addrspace(1) %19, align 16, !tbaa !18
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float4*", !"float4*", !"float"}
!7 = !{!"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float"}
!8 = !{!"", !"const", !""}
!9 = !{!"o", !"a", !"s"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"float", !12, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"long", !12, i64 0}
!18 = !{!12, !12, i64 0}
