; bounds-check-versioning: the x loop of K.wg gets a copy without its bounds check
; (i < n) for rows whose every work-item passes it, taken when the row's
; last work-item passes (the check is then true in the copy).
;   kernel void k(global float *o, global const float *a, int n)
;   { int i = (int)get_global_id(0); if (i < n) o[i] = a[i] * 2.0f; }
; RUN: mosaic-opt --stop-after=bounds-check-versioning --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK-NOT: x.version
; CHECK-LABEL: ;; after bounds-check-versioning
; CHECK-LABEL: define void @k.wg(
; CHECK: y:
; CHECK: %row.last = sub i64 %nx,
; CHECK: add i64 %{{[0-9]+}}, %row.last
; CHECK: br i1 %{{[0-9]+}}, label %x.version, label %x
; CHECK: x:
; CHECK: x.version:
; CHECK: br i1 true, label %x.version1, label %x.version2
; CHECK: y.latch:

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %7, align 4, !tbaa !13
  %10 = load i32, ptr %7, align 4, !tbaa !13
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %10, %11
  br i1 %12, label %13, label %24

13:                                               ; preds = %3
  %14 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %15 = load i32, ptr %7, align 4, !tbaa !13
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds float, ptr addrspace(1) %14, i64 %16
  %18 = load float, ptr addrspace(1) %17, align 4, !tbaa !15
  %19 = fmul float %18, 2.000000e+00
  %20 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %21 = load i32, ptr %7, align 4, !tbaa !13
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %22
  store float %19, ptr addrspace(1) %23, align 4, !tbaa !15
  br label %24

24:                                               ; preds = %13, %3
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
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
!6 = !{!"float*", !"float*", !"int"}
!7 = !{!"", !"const", !""}
!8 = !{!"o", !"a", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
