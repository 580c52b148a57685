; join-and-share-reads, a float4 a work-item from addresses apart
; (a[idx[i]]): the loop vectoriser's four gathers, one per component, become
; each lane's float4 loaded whole and the loads transposed, four lanes at a
; time (lanes j and j + 4 in one vector, then unpacks within 128-bit lanes):
; a load a lane instead of a load an element.
;   kernel void k(global float4 *o, global const float4 *a, global const int *idx)
;   { size_t i = get_global_id(0); o[i] = a[idx[i]] * 2.0f; }
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --stop-after=join-and-share-reads --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: vector.body:
; CHECK-COUNT-4: call <8 x float> @llvm.masked.gather.v8f32.v8p1(
; CHECK-LABEL: ;; after join-and-share-reads
; CHECK-LABEL: define void @k.wg(
; CHECK: vector.body:
; CHECK-NOT: @llvm.masked.gather
; CHECK: [[PTRS:%[0-9]+]] = getelementptr inbounds <4 x float>, ptr addrspace(1) %{{[0-9]+}}, <8 x i64>
; CHECK-NEXT: [[P0:%[0-9]+]] = extractelement <8 x ptr addrspace(1)> [[PTRS]], i64 0
; CHECK-NEXT: [[L0:%[0-9]+]] = load <4 x float>, ptr addrspace(1) [[P0]], align 4
; CHECK-NEXT: [[P4:%[0-9]+]] = extractelement <8 x ptr addrspace(1)> [[PTRS]], i64 4
; CHECK-NEXT: [[L4:%[0-9]+]] = load <4 x float>, ptr addrspace(1) [[P4]], align 4
; CHECK-NEXT: [[Z0:%[0-9]+]] = shufflevector <4 x float> [[L0]], <4 x float> [[L4]], <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
; CHECK: [[Z1:%[0-9]+]] = shufflevector <4 x float> %{{[0-9]+}}, <4 x float> %{{[0-9]+}}, <8 x i32>
; CHECK: [[Z2:%[0-9]+]] = shufflevector <4 x float> %{{[0-9]+}}, <4 x float> %{{[0-9]+}}, <8 x i32>
; CHECK: [[Z3:%[0-9]+]] = shufflevector <4 x float> %{{[0-9]+}}, <4 x float> %{{[0-9]+}}, <8 x i32>
; CHECK-NEXT: [[T0:%[0-9]+]] = shufflevector <8 x float> [[Z0]], <8 x float> [[Z1]], <8 x i32> <i32 0, i32 8, i32 1, i32 9, i32 4, i32 12, i32 5, i32 13>
; CHECK-NEXT: [[T1:%[0-9]+]] = shufflevector <8 x float> [[Z0]], <8 x float> [[Z1]], <8 x i32> <i32 2, i32 10, i32 3, i32 11, i32 6, i32 14, i32 7, i32 15>
; CHECK-NEXT: [[T2:%[0-9]+]] = shufflevector <8 x float> [[Z2]], <8 x float> [[Z3]], <8 x i32> <i32 0, i32 8, i32 1, i32 9, i32 4, i32 12, i32 5, i32 13>
; CHECK-NEXT: [[T3:%[0-9]+]] = shufflevector <8 x float> [[Z2]], <8 x float> [[Z3]], <8 x i32> <i32 2, i32 10, i32 3, i32 11, i32 6, i32 14, i32 7, i32 15>
; CHECK-NEXT: [[C0:%[0-9]+]] = shufflevector <8 x float> [[T0]], <8 x float> [[T2]], <8 x i32> <i32 0, i32 1, i32 8, i32 9, i32 4, i32 5, i32 12, i32 13>
; CHECK-NEXT: [[C1:%[0-9]+]] = shufflevector <8 x float> [[T0]], <8 x float> [[T2]], <8 x i32> <i32 2, i32 3, i32 10, i32 11, i32 6, i32 7, i32 14, i32 15>
; CHECK-NEXT: [[C2:%[0-9]+]] = shufflevector <8 x float> [[T1]], <8 x float> [[T3]], <8 x i32> <i32 0, i32 1, i32 8, i32 9, i32 4, i32 5, i32 12, i32 13>
; CHECK-NEXT: [[C3:%[0-9]+]] = shufflevector <8 x float> [[T1]], <8 x float> [[T3]], <8 x i32> <i32 2, i32 3, i32 10, i32 11, i32 6, i32 7, i32 14, i32 15>
; CHECK-NEXT: fmul <8 x float> [[C0]],
; CHECK-NEXT: fmul <8 x float> [[C1]],
; CHECK-NEXT: fmul <8 x float> [[C2]],
; CHECK-NEXT: fmul <8 x float> [[C3]],
; CHECK-NOT: @llvm.masked.gather
; CHECK: middle.block:

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 16 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !10
  store ptr addrspace(1) %2, ptr %6, align 8, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %8, ptr %7, align 8, !tbaa !14
  %9 = load ptr addrspace(1), ptr %5, align 8, !tbaa !10
  %10 = load ptr addrspace(1), ptr %6, align 8, !tbaa !10
  %11 = load i64, ptr %7, align 8, !tbaa !14
  %12 = getelementptr inbounds i32, ptr addrspace(1) %10, i64 %11
  %13 = load i32, ptr addrspace(1) %12, align 4, !tbaa !16
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds <4 x float>, ptr addrspace(1) %9, i64 %14
  %16 = load <4 x float>, ptr addrspace(1) %15, align 16, !tbaa !18
  %17 = fmul <4 x float> %16, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %18 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %19 = load i64, ptr %7, align 8, !tbaa !14
  %20 = getelementptr inbounds <4 x float>, ptr addrspace(1) %18, i64 %19
  store <4 x float> %17, ptr addrspace(1) %20, align 16, !tbaa !18
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 1}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float4*", !"float4*", !"int*"}
!7 = !{!"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"int*"}
!8 = !{!"", !"const", !"const"}
!9 = !{!"o", !"a", !"idx"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"long", !12, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"int", !12, i64 0}
!18 = !{!12, !12, i64 0}
