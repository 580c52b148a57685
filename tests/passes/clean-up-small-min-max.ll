; clean-up: min, max and clamp of scalar chars and shorts (the builtin
; library's compare and select) stay at their width: llvm.umin.i8, not a
; 32-bit min of zero-extended bytes, which widened code would run at a
; quarter of the lanes a vector holds.
;   kernel void k(global uchar *a, global short *b)
;   { int i = get_global_id(0); a[i] = max(min(a[i], a[i + 1]), (uchar)7);
;     b[i] = clamp(b[i], (short)-3, b[i + 1]); }
; RUN: mosaic-opt --stop-after=clean-up %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: i32 @llvm.{{[su]}}m{{in|ax}}.i32
; CHECK: call i8 @llvm.umin.i8(
; CHECK-NEXT: call i8 @llvm.umax.i8(i8 %{{[0-9]+}}, i8 7)
; CHECK: call i16 @llvm.smax.i16(i16 %{{[0-9]+}}, i16 -3)
; CHECK-NEXT: call i16 @llvm.smin.i16(
; CHECK-LABEL: define void @k.wi(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 2 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #3
  %6 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %5, align 4, !tbaa !13
  %8 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %9 = load i32, ptr %5, align 4, !tbaa !13
  %10 = sext i32 %9 to i64
  %11 = getelementptr inbounds i8, ptr addrspace(1) %8, i64 %10
  %12 = load i8, ptr addrspace(1) %11, align 1, !tbaa !15
  %13 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %14 = load i32, ptr %5, align 4, !tbaa !13
  %15 = add nsw i32 %14, 1
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds i8, ptr addrspace(1) %13, i64 %16
  %18 = load i8, ptr addrspace(1) %17, align 1, !tbaa !15
  %19 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %12, i8 noundef zeroext %18) #4
  %20 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %19, i8 noundef zeroext 7) #4
  %21 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %22 = load i32, ptr %5, align 4, !tbaa !13
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds i8, ptr addrspace(1) %21, i64 %23
  store i8 %20, ptr addrspace(1) %24, align 1, !tbaa !15
  %25 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %26 = load i32, ptr %5, align 4, !tbaa !13
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds i16, ptr addrspace(1) %25, i64 %27
  %29 = load i16, ptr addrspace(1) %28, align 2, !tbaa !16
  %30 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %31 = load i32, ptr %5, align 4, !tbaa !13
  %32 = add nsw i32 %31, 1
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds i16, ptr addrspace(1) %30, i64 %33
  %35 = load i16, ptr addrspace(1) %34, align 2, !tbaa !16
  %36 = call spir_func signext i16 @_Z5clampsss(i16 noundef signext %29, i16 noundef signext -3, i16 noundef signext %35) #4
  %37 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %38 = load i32, ptr %5, align 4, !tbaa !13
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds i16, ptr addrspace(1) %37, i64 %39
  store i16 %36, ptr addrspace(1) %40, align 2, !tbaa !16
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext, i8 noundef zeroext) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext, i8 noundef zeroext) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func signext i16 @_Z5clampsss(i16 noundef signext, i16 noundef signext, i16 noundef signext) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
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
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"uchar*", !"short*"}
!7 = !{!"", !""}
!8 = !{!"a", !"b"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"short", !11, i64 0}
