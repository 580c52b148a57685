; check-instrument: an access through an argument every access of which is
; p[y * w + get_global_id(0)], w an integer argument, y get_global_id(1)
; or the row of a loop over R rows from R * get_global_id(1) (the loop runs
; while y < min(that + R, ...)), is marked an own element of a row
; (MOSAIC_CHECK_ARG_OWN_ELEMENT, bit 49, and OWN_ROW w + 1 at bit 11: w is
; argument 2, so 3 << 11) with its site's last field, own_rows, R (docs/check.md,
; "Accesses that cannot race"): the device takes it where the launch is at
; most w wide.  rows4_wrong's loop runs 5 rows from 4 * get_global_id(1):
; neighbours' rows overlap, and its write is not marked.  back writes each
; row backwards, y * w + w - 1 - get_global_id(0): marked the same.
;   kernel void rows4(global const uchar *src, global uchar *dst, int w, int h) {
;     int x = get_global_id(0), y0 = get_global_id(1) * 4;
;     if (x >= w)
;       return;
;     for (int y = y0; y < min(y0 + 4, h); y++)
;       dst[y * w + x] = src[y * w + x];
;   }
;   kernel void rows4_wrong(global uchar *dst, int w, int h) {
;     int x = get_global_id(0), y0 = get_global_id(1) * 4;
;     for (int y = y0; y < min(y0 + 5, h); y++)
;       dst[y * w + x] = 1;
;   }
;   kernel void back(global const uchar *src, global uchar *dst, int w, int h) {
;     int x = get_global_id(0), y0 = get_global_id(1) * 4;
;     if (x >= w)
;       return;
;     for (int y = y0; y < min(y0 + 4, h); y++)
;       dst[y * w + w - 1 - x] = src[y * w + x];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; the sites: rows4's two with own_rows 4, under x < w (MOSAIC_CHECK_OWN_ROWS_GUARDED,
; bit 63), rows4_wrong's with none, back's read the same and its write with 4 (a row
; backwards: not taken as guarded)
; CHECK: @__mosaic_check_site = private constant %mosaic_check_site {{.*}}, [3 x i64] zeroinitializer, i64 0, i64 -9223372036854775804, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: @__mosaic_check_site{{[.0-9]+}} = private constant %mosaic_check_site {{.*}}, [3 x i64] zeroinitializer, i64 0, i64 -9223372036854775804, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: @__mosaic_check_site{{[.0-9]+}} = private constant %mosaic_check_site {{.*}}, [3 x i64] zeroinitializer, i64 0, i64 0, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: @__mosaic_check_site{{[.0-9]+}} = private constant %mosaic_check_site {{.*}}, [3 x i64] zeroinitializer, i64 0, i64 -9223372036854775804, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: @__mosaic_check_site{{[.0-9]+}} = private constant %mosaic_check_site {{.*}}, [3 x i64] zeroinitializer, i64 0, i64 4, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK-LABEL: define {{.*}} @rows4(
; src[...]: READ_ONLY (1 << 48), OWN_ELEMENT, OWN_ROW 3, argument 0, a read
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 844424930138113, ptr @__mosaic_check_site)
; dst[...] =: OWN_ELEMENT, OWN_ROW 3, argument 1, a write
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 562949953492994, ptr @__mosaic_check_site
; CHECK-LABEL: define {{.*}} @rows4_wrong(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 2, ptr @__mosaic_check_site
; CHECK-LABEL: define {{.*}} @back(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 844424930138113, ptr @__mosaic_check_site
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 562949953492994, ptr @__mosaic_check_site
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @rows4(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %16 = mul i64 %15, 4
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %10, align 4, !tbaa !13
  %18 = load i32, ptr %9, align 4, !tbaa !13
  %19 = load i32, ptr %7, align 4, !tbaa !13
  %20 = icmp sge i32 %18, %19
  br i1 %20, label %21, label %22

21:                                               ; preds = %4
  store i32 1, ptr %11, align 4
  br label %54

22:                                               ; preds = %4
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #3
  %23 = load i32, ptr %10, align 4, !tbaa !13
  store i32 %23, ptr %12, align 4, !tbaa !13
  br label %24

24:                                               ; preds = %50, %22
  %25 = load i32, ptr %12, align 4, !tbaa !13
  %26 = load i32, ptr %10, align 4, !tbaa !13
  %27 = add nsw i32 %26, 4
  %28 = load i32, ptr %8, align 4, !tbaa !13
  %29 = call spir_func i32 @_Z3minii(i32 noundef %27, i32 noundef %28) #4
  %30 = icmp slt i32 %25, %29
  br i1 %30, label %32, label %31

31:                                               ; preds = %24
  store i32 2, ptr %11, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #3
  br label %53

32:                                               ; preds = %24
  %33 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %34 = load i32, ptr %12, align 4, !tbaa !13
  %35 = load i32, ptr %7, align 4, !tbaa !13
  %36 = mul nsw i32 %34, %35
  %37 = load i32, ptr %9, align 4, !tbaa !13
  %38 = add nsw i32 %36, %37
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds i8, ptr addrspace(1) %33, i64 %39
  %41 = load i8, ptr addrspace(1) %40, align 1, !tbaa !15
  %42 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %43 = load i32, ptr %12, align 4, !tbaa !13
  %44 = load i32, ptr %7, align 4, !tbaa !13
  %45 = mul nsw i32 %43, %44
  %46 = load i32, ptr %9, align 4, !tbaa !13
  %47 = add nsw i32 %45, %46
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds i8, ptr addrspace(1) %42, i64 %48
  store i8 %41, ptr addrspace(1) %49, align 1, !tbaa !15
  br label %50

50:                                               ; preds = %32
  %51 = load i32, ptr %12, align 4, !tbaa !13
  %52 = add nsw i32 %51, 1
  store i32 %52, ptr %12, align 4, !tbaa !13
  br label %24

53:                                               ; preds = %31
  store i32 0, ptr %11, align 4
  br label %54

54:                                               ; preds = %53, %21
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  %55 = load i32, ptr %11, align 4
  switch i32 %55, label %57 [
    i32 0, label %56
    i32 1, label %56
  ]

56:                                               ; preds = %54, %54
  ret void

57:                                               ; preds = %54
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z3minii(i32 noundef, i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @rows4_wrong(ptr addrspace(1) noundef align 1 %0, i32 noundef %1, i32 noundef %2) #0 !kernel_arg_addr_space !16 !kernel_arg_access_qual !17 !kernel_arg_type !18 !kernel_arg_base_type !18 !kernel_arg_type_qual !19 !kernel_arg_name !20 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store i32 %1, ptr %5, align 4, !tbaa !13
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #3
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %13 = mul i64 %12, 4
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %15 = load i32, ptr %8, align 4, !tbaa !13
  store i32 %15, ptr %9, align 4, !tbaa !13
  br label %16

16:                                               ; preds = %33, %3
  %17 = load i32, ptr %9, align 4, !tbaa !13
  %18 = load i32, ptr %8, align 4, !tbaa !13
  %19 = add nsw i32 %18, 5
  %20 = load i32, ptr %6, align 4, !tbaa !13
  %21 = call spir_func i32 @_Z3minii(i32 noundef %19, i32 noundef %20) #4
  %22 = icmp slt i32 %17, %21
  br i1 %22, label %24, label %23

23:                                               ; preds = %16
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  br label %36

24:                                               ; preds = %16
  %25 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %26 = load i32, ptr %9, align 4, !tbaa !13
  %27 = load i32, ptr %5, align 4, !tbaa !13
  %28 = mul nsw i32 %26, %27
  %29 = load i32, ptr %7, align 4, !tbaa !13
  %30 = add nsw i32 %28, %29
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds i8, ptr addrspace(1) %25, i64 %31
  store i8 1, ptr addrspace(1) %32, align 1, !tbaa !15
  br label %33

33:                                               ; preds = %24
  %34 = load i32, ptr %9, align 4, !tbaa !13
  %35 = add nsw i32 %34, 1
  store i32 %35, ptr %9, align 4, !tbaa !13
  br label %16

36:                                               ; preds = %23
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @back(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %16 = mul i64 %15, 4
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %10, align 4, !tbaa !13
  %18 = load i32, ptr %9, align 4, !tbaa !13
  %19 = load i32, ptr %7, align 4, !tbaa !13
  %20 = icmp sge i32 %18, %19
  br i1 %20, label %21, label %22

21:                                               ; preds = %4
  store i32 1, ptr %11, align 4
  br label %57

22:                                               ; preds = %4
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #3
  %23 = load i32, ptr %10, align 4, !tbaa !13
  store i32 %23, ptr %12, align 4, !tbaa !13
  br label %24

24:                                               ; preds = %53, %22
  %25 = load i32, ptr %12, align 4, !tbaa !13
  %26 = load i32, ptr %10, align 4, !tbaa !13
  %27 = add nsw i32 %26, 4
  %28 = load i32, ptr %8, align 4, !tbaa !13
  %29 = call spir_func i32 @_Z3minii(i32 noundef %27, i32 noundef %28) #4
  %30 = icmp slt i32 %25, %29
  br i1 %30, label %32, label %31

31:                                               ; preds = %24
  store i32 2, ptr %11, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #3
  br label %56

32:                                               ; preds = %24
  %33 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %34 = load i32, ptr %12, align 4, !tbaa !13
  %35 = load i32, ptr %7, align 4, !tbaa !13
  %36 = mul nsw i32 %34, %35
  %37 = load i32, ptr %9, align 4, !tbaa !13
  %38 = add nsw i32 %36, %37
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds i8, ptr addrspace(1) %33, i64 %39
  %41 = load i8, ptr addrspace(1) %40, align 1, !tbaa !15
  %42 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %43 = load i32, ptr %12, align 4, !tbaa !13
  %44 = load i32, ptr %7, align 4, !tbaa !13
  %45 = mul nsw i32 %43, %44
  %46 = load i32, ptr %7, align 4, !tbaa !13
  %47 = add nsw i32 %45, %46
  %48 = sub nsw i32 %47, 1
  %49 = load i32, ptr %9, align 4, !tbaa !13
  %50 = sub nsw i32 %48, %49
  %51 = sext i32 %50 to i64
  %52 = getelementptr inbounds i8, ptr addrspace(1) %42, i64 %51
  store i8 %41, ptr addrspace(1) %52, align 1, !tbaa !15
  br label %53

53:                                               ; preds = %32
  %54 = load i32, ptr %12, align 4, !tbaa !13
  %55 = add nsw i32 %54, 1
  store i32 %55, ptr %12, align 4, !tbaa !13
  br label %24

56:                                               ; preds = %31
  store i32 0, ptr %11, align 4
  br label %57

57:                                               ; preds = %56, %21
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  %58 = load i32, ptr %11, align 4
  switch i32 %58, label %60 [
    i32 0, label %59
    i32 1, label %59
  ]

59:                                               ; preds = %57, %57
  ret void

60:                                               ; preds = %57
  unreachable
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
!4 = !{i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"uchar*", !"uchar*", !"int", !"int"}
!7 = !{!"const", !"", !"", !""}
!8 = !{!"src", !"dst", !"w", !"h"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
!16 = !{i32 1, i32 0, i32 0}
!17 = !{!"none", !"none", !"none"}
!18 = !{!"uchar*", !"int", !"int"}
!19 = !{!"", !"", !""}
!20 = !{!"dst", !"w", !"h"}
