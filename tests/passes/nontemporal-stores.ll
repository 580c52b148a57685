; nontemporal-stores: the vectorised loop's stores of whole cache lines (4 x 8
; floats with AVX2) get a non-temporal copy, taken when the launch asks for
; streaming (the context's stream_stores) and the line is aligned.
;   kernel void k(global float *o, global const float *a, float s) { size_t i = get_global_id(0); o[i] = a[i] * s; }
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --stop-after=nontemporal-stores --print-before %s \
; RUN:   | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK-NOT: !nontemporal
; CHECK-LABEL: ;; after nontemporal-stores
; CHECK-LABEL: define void @k.wg(
; CHECK: %streaming = icmp ne i64 %stream_stores, 0
; CHECK: vector.body:
; CHECK: %streams = and i1 %streaming, %aligned
; CHECK-NEXT: br i1 %streams, label %stores.streaming, label %stores
; CHECK: stores:
; CHECK-NOT: !nontemporal
; CHECK: stores.streaming:
; CHECK-NEXT: store <8 x float> {{.*}}, align 32, {{.*}}!nontemporal
; CHECK-NEXT: store <8 x float> {{.*}}, align 32, {{.*}}!nontemporal
; CHECK-NEXT: store <8 x float> {{.*}}, align 32, {{.*}}!nontemporal
; CHECK-NEXT: store <8 x float> {{.*}}, align 32, {{.*}}!nontemporal
; CHECK: stores.done:

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, float noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca float, align 4
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store float %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %8, ptr %7, align 8, !tbaa !15
  %9 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %10 = load i64, ptr %7, align 8, !tbaa !15
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !13
  %13 = load float, ptr %6, align 4, !tbaa !13
  %14 = fmul float %12, %13
  %15 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %16 = load i64, ptr %7, align 8, !tbaa !15
  %17 = getelementptr inbounds float, ptr addrspace(1) %15, i64 %16
  store float %14, ptr addrspace(1) %17, align 4, !tbaa !13
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
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float"}
!7 = !{!"", !"const", !""}
!8 = !{!"o", !"a", !"s"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !11, i64 0}
