; vector-math-calls: a vector math intrinsic the optimiser made
; (llvm.sin.v2f32 of a float8's halves) becomes a call of libmvec's
; variant (_ZGVbN4v_sinf: 4 lanes with SSE), its argument widened to fit.
;   kernel void k(global float8 *o, global const float8 *a) { size_t i = get_global_id(0); o[i] = sin(a[i]); }
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --stop-after=vector-math-calls --print-before %s \
; RUN:   | FileCheck %s
; CHECK: call <2 x float> @llvm.sin.v2f32(
; CHECK-LABEL: ;; after vector-math-calls
; CHECK-NOT: call <2 x float> @llvm.sin.v2f32(
; CHECK: [[ARG:%[0-9]+]] = shufflevector <2 x float> %{{[0-9]+}}, <2 x float> poison, <4 x i32>
; CHECK-NEXT: [[R:%[0-9]+]] = call <4 x float> @_ZGVbN4v_sinf(<4 x float> [[ARG]])
; CHECK-NEXT: shufflevector <4 x float> [[R]], <4 x float> poison, <2 x i32> <i32 0, i32 1>
; CHECK-NOT: call <2 x float> @llvm.sin.v2f32(
; CHECK: declare <4 x float> @_ZGVbN4v_sinf(<4 x float>)

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 32 %0, ptr addrspace(1) noundef align 32 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #3
  %6 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %6, ptr %5, align 8, !tbaa !14
  %7 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %8 = load i64, ptr %5, align 8, !tbaa !14
  %9 = getelementptr inbounds <8 x float>, ptr addrspace(1) %7, i64 %8
  %10 = load <8 x float>, ptr addrspace(1) %9, align 32, !tbaa !16
  %11 = call spir_func <8 x float> @_Z3sinDv8_f(<8 x float> noundef %10) #4
  %12 = load ptr addrspace(1), ptr %3, align 8, !tbaa !10
  %13 = load i64, ptr %5, align 8, !tbaa !14
  %14 = getelementptr inbounds <8 x float>, ptr addrspace(1) %12, i64 %13
  store <8 x float> %11, ptr addrspace(1) %14, align 32, !tbaa !16
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func <8 x float> @_Z3sinDv8_f(<8 x float> noundef) #2

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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"float8*", !"float8*"}
!7 = !{!"float __attribute__((ext_vector_type(8)))*", !"float __attribute__((ext_vector_type(8)))*"}
!8 = !{!"", !"const"}
!9 = !{!"o", !"a"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"long", !12, i64 0}
!16 = !{!12, !12, i64 0}
