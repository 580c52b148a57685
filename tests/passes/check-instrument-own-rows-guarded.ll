; check-instrument: own rows under a guard (docs/check.md, "Accesses that
; cannot race").  In guarded every access through dst (and src) runs only
; where get_global_id(0) < w, the side of an `||` that returns: its sites'
; own_rows carry MOSAIC_CHECK_OWN_ROWS_GUARDED (bit 63) beside the one row,
; so the device takes the mark also where the launch is wider than w (a
; library's whole 16x16 groups over a 1000-pixel row).  unguarded tests y
; alone: own_rows is 1, and the launch must be at most w wide.
;   kernel void guarded(global const uchar *src, global uchar *dst, int w, int h) {
;     int x = get_global_id(0), y = get_global_id(1);
;     if (x >= w || y >= h)
;       return;
;     dst[y * w + x] = src[y * w + x];
;   }
;   kernel void unguarded(...) { the same under if (y >= h) return; }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; the reads of src, then the writes of dst: their sites
; CHECK: [[GS:@__mosaic_check_site[.0-9]*]] = private constant %mosaic_check_site {{.*}}, i64 0, i64 -9223372036854775807, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: [[G:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 0, i64 -9223372036854775807, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: [[US:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 0, i64 1, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: [[U:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 0, i64 1, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK-LABEL: define {{.*}} @guarded(
; the write of dst: an own element of rows of w (argument 2: 3 << 11)
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 562949953492994, ptr [[G]])
; CHECK-LABEL: define {{.*}} @unguarded(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 1, i64 562949953492994, ptr [[U]])
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @guarded(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %10, align 4, !tbaa !13
  %16 = load i32, ptr %9, align 4, !tbaa !13
  %17 = load i32, ptr %7, align 4, !tbaa !13
  %18 = icmp sge i32 %16, %17
  br i1 %18, label %23, label %19

19:                                               ; preds = %4
  %20 = load i32, ptr %10, align 4, !tbaa !13
  %21 = load i32, ptr %8, align 4, !tbaa !13
  %22 = icmp sge i32 %20, %21
  br i1 %22, label %23, label %24

23:                                               ; preds = %19, %4
  store i32 1, ptr %11, align 4
  br label %42

24:                                               ; preds = %19
  %25 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %26 = load i32, ptr %10, align 4, !tbaa !13
  %27 = load i32, ptr %7, align 4, !tbaa !13
  %28 = mul nsw i32 %26, %27
  %29 = load i32, ptr %9, align 4, !tbaa !13
  %30 = add nsw i32 %28, %29
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds i8, ptr addrspace(1) %25, i64 %31
  %33 = load i8, ptr addrspace(1) %32, align 1, !tbaa !15
  %34 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %35 = load i32, ptr %10, align 4, !tbaa !13
  %36 = load i32, ptr %7, align 4, !tbaa !13
  %37 = mul nsw i32 %35, %36
  %38 = load i32, ptr %9, align 4, !tbaa !13
  %39 = add nsw i32 %37, %38
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds i8, ptr addrspace(1) %34, i64 %40
  store i8 %33, ptr addrspace(1) %41, align 1, !tbaa !15
  store i32 0, ptr %11, align 4
  br label %42

42:                                               ; preds = %24, %23
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  %43 = load i32, ptr %11, align 4
  switch i32 %43, label %45 [
    i32 0, label %44
    i32 1, label %44
  ]

44:                                               ; preds = %42, %42
  ret void

45:                                               ; preds = %42
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @unguarded(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %10, align 4, !tbaa !13
  %16 = load i32, ptr %10, align 4, !tbaa !13
  %17 = load i32, ptr %8, align 4, !tbaa !13
  %18 = icmp sge i32 %16, %17
  br i1 %18, label %19, label %20

19:                                               ; preds = %4
  store i32 1, ptr %11, align 4
  br label %38

20:                                               ; preds = %4
  %21 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %22 = load i32, ptr %10, align 4, !tbaa !13
  %23 = load i32, ptr %7, align 4, !tbaa !13
  %24 = mul nsw i32 %22, %23
  %25 = load i32, ptr %9, align 4, !tbaa !13
  %26 = add nsw i32 %24, %25
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds i8, ptr addrspace(1) %21, i64 %27
  %29 = load i8, ptr addrspace(1) %28, align 1, !tbaa !15
  %30 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %31 = load i32, ptr %10, align 4, !tbaa !13
  %32 = load i32, ptr %7, align 4, !tbaa !13
  %33 = mul nsw i32 %31, %32
  %34 = load i32, ptr %9, align 4, !tbaa !13
  %35 = add nsw i32 %33, %34
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds i8, ptr addrspace(1) %30, i64 %36
  store i8 %29, ptr addrspace(1) %37, align 1, !tbaa !15
  store i32 0, ptr %11, align 4
  br label %38

38:                                               ; preds = %20, %19
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  %39 = load i32, ptr %11, align 4
  switch i32 %39, label %41 [
    i32 0, label %40
    i32 1, label %40
  ]

40:                                               ; preds = %38, %38
  ret void

41:                                               ; preds = %38
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
