; check-instrument: which accesses the device need not track for races
; (docs/check.md, "How it works").  `how` gets bit 48 (0x1 << 48) on a
; read through a kernel argument that nothing in the program writes
; through or copies elsewhere, and bit 49 on an access through an argument
; every access of which is at its own element, get_global_id(0), as the
; argument's element type.  In `add` every argument is reached only at
; get_global_id(0), a and b only read; in `shifted`, c is reached at i + 1
; and i (no bit), a and d at i (an int, made from get_global_id(0)).
;   kernel void add(global const float *a, global const float *b, global float *c)
;   { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }
;   kernel void shifted(global const float *a, global float *c, global float *d)
;   { int i = get_global_id(0); c[i + 1] = a[i]; d[i] = c[i]; }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; a[i], b[i]: reads of arguments 0 and 1, both bits (0x3000000000001, 0x3000000010001);
; c[i] = : a write of argument 2, bit 49 (0x2000000020002)
; CHECK-LABEL: define dso_local void @add(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 844424930131969, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 844424930197505, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 562949953552386, ptr
; a[i]: both bits; c[i + 1] = and c[i]: bit 63 alone (0x8000000000010002,
; 0x8000000000010001, printed signed), c's blocks: elements i and i + 1,
; which the device finds not apart (the local id's 4 bytes a step are
; below the two constants' 8); d[i] = : bit 49
; CHECK-LABEL: define dso_local void @shifted(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 844424930131969, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 -9223372036854710270, ptr [[C:@__mosaic_check_site[.0-9]*]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 -9223372036854710271, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 562949953552386, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @add(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
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
  %9 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %10 = load i64, ptr %7, align 8, !tbaa !13
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !15
  %13 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %14 = load i64, ptr %7, align 8, !tbaa !13
  %15 = getelementptr inbounds float, ptr addrspace(1) %13, i64 %14
  %16 = load float, ptr addrspace(1) %15, align 4, !tbaa !15
  %17 = fadd float %12, %16
  %18 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %19 = load i64, ptr %7, align 8, !tbaa !13
  %20 = getelementptr inbounds float, ptr addrspace(1) %18, i64 %19
  store float %17, ptr addrspace(1) %20, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @shifted(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !17 !kernel_arg_name !18 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %7, align 4, !tbaa !19
  %10 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %11 = load i32, ptr %7, align 4, !tbaa !19
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds float, ptr addrspace(1) %10, i64 %12
  %14 = load float, ptr addrspace(1) %13, align 4, !tbaa !15
  %15 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %16 = load i32, ptr %7, align 4, !tbaa !19
  %17 = add nsw i32 %16, 1
  %18 = sext i32 %17 to i64
  %19 = getelementptr inbounds float, ptr addrspace(1) %15, i64 %18
  store float %14, ptr addrspace(1) %19, align 4, !tbaa !15
  %20 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %21 = load i32, ptr %7, align 4, !tbaa !19
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %22
  %24 = load float, ptr addrspace(1) %23, align 4, !tbaa !15
  %25 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %26 = load i32, ptr %7, align 4, !tbaa !19
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds float, ptr addrspace(1) %25, i64 %27
  store float %24, ptr addrspace(1) %28, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  ret void
}

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
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"const", !""}
!8 = !{!"a", !"b", !"c"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{!"const", !"", !""}
!18 = !{!"a", !"c", !"d"}
!19 = !{!20, !20, i64 0}
!20 = !{!"int", !11, i64 0}
