; unswitch-uniform (loop versioning): the x loop of K.wg gets a version per
; answer of its uniform branch (mode == 1 is the same for every work-item),
; chosen once per row; in each version the branch is a constant.
;   kernel void k(global float *o, global const float *a, int mode)
;   { size_t i = get_global_id(0); if (mode == 1) o[i] = a[i] * 2.0f; else o[i] = a[i] + 3.0f; }
; RUN: mosaic-opt --stop-after=unswitch-uniform --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK-NOT: uniform.entry
; CHECK-LABEL: ;; after unswitch-uniform
; CHECK-LABEL: define void @k.wg(
; CHECK: y:
; CHECK: [[C:%[0-9]+]] = icmp eq i32 %{{[0-9]+}}, 1
; CHECK-NEXT: br i1 [[C]], label %uniform.entry, label %[[OTHER:uniform.entry[0-9]+]]
; CHECK: [[OTHER]]:
; CHECK: x:
; CHECK: br i1 false,
; CHECK: uniform.entry:
; CHECK: x.version:
; CHECK: br i1 true,
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
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %8, ptr %7, align 8, !tbaa !15
  %9 = load i32, ptr %6, align 4, !tbaa !13
  %10 = icmp eq i32 %9, 1
  br i1 %10, label %11, label %20

11:                                               ; preds = %3
  %12 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %13 = load i64, ptr %7, align 8, !tbaa !15
  %14 = getelementptr inbounds float, ptr addrspace(1) %12, i64 %13
  %15 = load float, ptr addrspace(1) %14, align 4, !tbaa !17
  %16 = fmul float %15, 2.000000e+00
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %18 = load i64, ptr %7, align 8, !tbaa !15
  %19 = getelementptr inbounds float, ptr addrspace(1) %17, i64 %18
  store float %16, ptr addrspace(1) %19, align 4, !tbaa !17
  br label %29

20:                                               ; preds = %3
  %21 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %22 = load i64, ptr %7, align 8, !tbaa !15
  %23 = getelementptr inbounds float, ptr addrspace(1) %21, i64 %22
  %24 = load float, ptr addrspace(1) %23, align 4, !tbaa !17
  %25 = fadd float %24, 3.000000e+00
  %26 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %27 = load i64, ptr %7, align 8, !tbaa !15
  %28 = getelementptr inbounds float, ptr addrspace(1) %26, i64 %27
  store float %25, ptr addrspace(1) %28, align 4, !tbaa !17
  br label %29

29:                                               ; preds = %20, %11
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
!6 = !{!"float*", !"float*", !"int"}
!7 = !{!"", !"const", !""}
!8 = !{!"o", !"a", !"mode"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !11, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"float", !11, i64 0}
