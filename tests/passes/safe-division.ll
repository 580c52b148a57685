; safe-division: integer division and remainder never trap.  Before the pass
; K.wg divides by the loaded divisor; after it, by a divisor replaced with 1
; where it would trap (zero, or -1 under INT_MIN).
;   kernel void k(global int *o, global const int *a, global const int *b)
;   { size_t i = get_global_id(0); o[i] = a[i] / b[i] + a[i] % b[i]; }
; RUN: mosaic-opt --stop-after=safe-division --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: sdiv i32 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-LABEL: ;; after safe-division
; CHECK-LABEL: define void @k.wg(
; CHECK: %div.safe = select i1 %div.bad, i32 1, i32 [[B:%[0-9]+]]
; CHECK-NEXT: sdiv i32 %{{[0-9]+}}, %div.safe
; CHECK: [[SAFE:%div.safe[0-9]+]] = select i1 %div.bad{{[0-9]+}}, i32 1, i32 [[B]]
; CHECK-NEXT: srem i32 %{{[0-9]+}}, [[SAFE]]

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %8, ptr %7, align 8, !tbaa !13
  %9 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %10 = load i64, ptr %7, align 8, !tbaa !13
  %11 = getelementptr inbounds i32, ptr addrspace(1) %9, i64 %10
  %12 = load i32, ptr addrspace(1) %11, align 4, !tbaa !15
  %13 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %14 = load i64, ptr %7, align 8, !tbaa !13
  %15 = getelementptr inbounds i32, ptr addrspace(1) %13, i64 %14
  %16 = load i32, ptr addrspace(1) %15, align 4, !tbaa !15
  %17 = sdiv i32 %12, %16
  %18 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %19 = load i64, ptr %7, align 8, !tbaa !13
  %20 = getelementptr inbounds i32, ptr addrspace(1) %18, i64 %19
  %21 = load i32, ptr addrspace(1) %20, align 4, !tbaa !15
  %22 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %23 = load i64, ptr %7, align 8, !tbaa !13
  %24 = getelementptr inbounds i32, ptr addrspace(1) %22, i64 %23
  %25 = load i32, ptr addrspace(1) %24, align 4, !tbaa !15
  %26 = srem i32 %21, %25
  %27 = add nsw i32 %17, %26
  %28 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %29 = load i64, ptr %7, align 8, !tbaa !13
  %30 = getelementptr inbounds i32, ptr addrspace(1) %28, i64 %29
  store i32 %27, ptr addrspace(1) %30, align 4, !tbaa !15
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
!6 = !{!"int*", !"int*", !"int*"}
!7 = !{!"", !"const", !"const"}
!8 = !{!"o", !"a", !"b"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"int", !11, i64 0}
