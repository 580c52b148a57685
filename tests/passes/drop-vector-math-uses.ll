; drop-vector-math-uses: once the vectoriser has chosen its calls, what kept
; libmvec's declarations alive for it (llvm.compiler.used) goes; the
; variants called stay declared.
;   kernel void k(global float *o, global const float *a) { size_t i = get_global_id(0); o[i] = sin(a[i]) + exp(a[i]); }
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --stop-after=drop-vector-math-uses --print-before %s \
; RUN:   | FileCheck %s
; CHECK: @llvm.compiler.used = appending global {{.*}}@_ZGVdN8v_sinf
; CHECK-LABEL: ;; after drop-vector-math-uses
; CHECK-NOT: @llvm.compiler.used
; CHECK: call <8 x float> @_ZGVdN8v_sinf(
; CHECK-NOT: @llvm.compiler.used
; CHECK: declare <8 x float> @_ZGVdN8v_sinf(<8 x float>)
; CHECK-NOT: @llvm.compiler.used

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #3
  %6 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %6, ptr %5, align 8, !tbaa !13
  %7 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %8 = load i64, ptr %5, align 8, !tbaa !13
  %9 = getelementptr inbounds float, ptr addrspace(1) %7, i64 %8
  %10 = load float, ptr addrspace(1) %9, align 4, !tbaa !15
  %11 = call spir_func float @_Z3sinf(float noundef %10) #4
  %12 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %13 = load i64, ptr %5, align 8, !tbaa !13
  %14 = getelementptr inbounds float, ptr addrspace(1) %12, i64 %13
  %15 = load float, ptr addrspace(1) %14, align 4, !tbaa !15
  %16 = call spir_func float @_Z3expf(float noundef %15) #4
  %17 = fadd float %11, %16
  %18 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %19 = load i64, ptr %5, align 8, !tbaa !13
  %20 = getelementptr inbounds float, ptr addrspace(1) %18, i64 %19
  store float %17, ptr addrspace(1) %20, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func float @_Z3sinf(float noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func float @_Z3expf(float noundef) #2

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
!6 = !{!"float*", !"float*"}
!7 = !{!"", !"const"}
!8 = !{!"o", !"a"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
