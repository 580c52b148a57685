; check-instrument: an argument whose every access is inside its
; work-item's block (own_blocks.c) is marked MOSAIC_CHECK_ARG_OWN_BLOCK (bit
; 63; `how` prints signed), and its sites point to the block's terms
; (mosaic_check_block: terms, w's parameter + 1, the constants' least, the
; widest access, the most an access reaches through its FOLDED steps; each
; term its factor, steps, kind, flags: dimension, BY_WIDTH 4, BY_LOCAL_SIZE
; 8, FOLDED 16), which the device checks against the launch's sizes.
; scan_out writes four elements from group * 1024 + local id * 4: the local
; id 16 bytes a step, the group 4096, a loop's 4 steps of 4 bytes (FOLDED:
; the four reach 16 bytes).  rows writes two rows of w from 2 * get_global_id(1): each
; get_global_id is its local id, its group's id times the local size and
; the global offset; the two rows' constants 0 and w are 2 steps of 4 * w
; bytes.  group_one's partial[get_group_id(0)] has a group's id but no
; local id: no block (a group's one element).  In private_loops the first
; loop's writes of p[4] are inside its bounds by the loop's (no call), the
; second steps to p[4] and the third to p[n - 1]: their reads and writes
; keep their calls.
;   kernel void scan_out(global uint *out, uint n) {
;     size_t base = get_group_id(0) * 1024 + get_local_id(0) * 4;
;     for (int k = 0; k < 4; k++)
;       if (base + k < n)
;         out[base + k] = k;
;   }
;   kernel void rows(global float *c, int w) {
;     int j = get_global_id(0), i = get_global_id(1) * 2;
;     c[i * w + j] = 0.0f;
;     c[(i + 1) * w + j] = 1.0f;
;   }
;   kernel void group_one(global float *partial) {
;     if (get_local_id(0) == 0)
;       partial[get_group_id(0)] = 1.0f;
;   }
;   kernel void private_loops(global int *a, int n) {
;     int p[4] = {0, 0, 0, 0};
;     for (int k = 0; k < 4; k++)
;       p[k] = k;
;     for (int k = 0; k < 6; k += 2)
;       p[k] += k;
;     for (int k = 0; k < n; k++)
;       p[k] += 1;
;     a[get_global_id(0)] = p[0] + p[1] + p[2] + p[3];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; T: a term's type
; CHECK: [[SCAN:@__mosaic_check_block]] = private constant %mosaic_check_block { i32 3, i32 0, i64 0, i64 0, i64 4, i64 16, [12 x [[T:{ i64, i64, i32, i32 }]]] [[[T]] { i64 16, i64 0, i32 0, i32 0 }, [[T]] { i64 4096, i64 0, i32 1, i32 0 }, [[T]] { i64 4, i64 4, i32 3, i32 16 }, [[T]] zeroinitializer,
; CHECK: [[S1:@__mosaic_check_site[.0-9]*]] = private constant %mosaic_check_site {{.*}}, ptr [[SCAN]] }
; CHECK: [[ROWS:@__mosaic_check_block[.0-9]+]] = private constant %mosaic_check_block { i32 7, i32 2, i64 0, i64 0, i64 4, i64 4, [12 x [[T]]] [[[T]] { i64 4, i64 0, i32 0, i32 0 }, [[T]] { i64 8, i64 0, i32 0, i32 5 }, [[T]] { i64 4, i64 0, i32 1, i32 8 }, [[T]] { i64 8, i64 0, i32 1, i32 13 }, [[T]] { i64 4, i64 0, i32 2, i32 0 }, [[T]] { i64 8, i64 0, i32 2, i32 5 }, [[T]] { i64 4, i64 2, i32 3, i32 4 }, [[T]] zeroinitializer,
; CHECK: [[R1:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, ptr [[ROWS]] }
; CHECK: [[R2:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, ptr [[ROWS]] }
; CHECK-NOT: @__mosaic_check_block
; CHECK-LABEL: define {{.*}} @scan_out(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 -9223372036854775806, ptr [[S1]])
; CHECK-LABEL: define {{.*}} @rows(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 -9223372036854775806, ptr [[R1]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 -9223372036854775806, ptr [[R2]])
; group_one: a plain write of argument 0
; CHECK-LABEL: define {{.*}} @group_one(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2, ptr
; private_loops: the second loop's read and write, the third's, then a[...] =
; CHECK-LABEL: define {{.*}} @private_loops(
; CHECK-COUNT-4: call void @__mosaic_check_access({{.*}}, ptr %{{[0-9]+}}, i64 4, i64 28147497658035{{[34]}}, ptr
; CHECK-NOT: i64 28147497658035{{[34]}}
; CHECK: call void @__mosaic_check_access({{.*}}, ptr null, i64 4, i64 562949953421314, ptr
; CHECK-NOT: call void @__mosaic_check_access
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @scan_out(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #4
  %7 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %8 = mul i64 %7, 1024
  %9 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %10 = mul i64 %9, 4
  %11 = add i64 %8, %10
  store i64 %11, ptr %5, align 8, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  store i32 0, ptr %6, align 4, !tbaa !13
  br label %12

12:                                               ; preds = %33, %2
  %13 = load i32, ptr %6, align 4, !tbaa !13
  %14 = icmp slt i32 %13, 4
  br i1 %14, label %16, label %15

15:                                               ; preds = %12
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %36

16:                                               ; preds = %12
  %17 = load i64, ptr %5, align 8, !tbaa !15
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = add i64 %17, %19
  %21 = load i32, ptr %4, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = icmp ult i64 %20, %22
  br i1 %23, label %24, label %32

24:                                               ; preds = %16
  %25 = load i32, ptr %6, align 4, !tbaa !13
  %26 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %27 = load i64, ptr %5, align 8, !tbaa !15
  %28 = load i32, ptr %6, align 4, !tbaa !13
  %29 = sext i32 %28 to i64
  %30 = add i64 %27, %29
  %31 = getelementptr inbounds i32, ptr addrspace(1) %26, i64 %30
  store i32 %25, ptr addrspace(1) %31, align 4, !tbaa !13
  br label %32

32:                                               ; preds = %24, %16
  br label %33

33:                                               ; preds = %32
  %34 = load i32, ptr %6, align 4, !tbaa !13
  %35 = add nsw i32 %34, 1
  store i32 %35, ptr %6, align 4, !tbaa !13
  br label %12

36:                                               ; preds = %15
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @rows(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !17 !kernel_arg_base_type !17 !kernel_arg_type_qual !7 !kernel_arg_name !18 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %10 = mul i64 %9, 2
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %6, align 4, !tbaa !13
  %12 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %13 = load i32, ptr %6, align 4, !tbaa !13
  %14 = load i32, ptr %4, align 4, !tbaa !13
  %15 = mul nsw i32 %13, %14
  %16 = load i32, ptr %5, align 4, !tbaa !13
  %17 = add nsw i32 %15, %16
  %18 = sext i32 %17 to i64
  %19 = getelementptr inbounds float, ptr addrspace(1) %12, i64 %18
  store float 0.000000e+00, ptr addrspace(1) %19, align 4, !tbaa !19
  %20 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %21 = load i32, ptr %6, align 4, !tbaa !13
  %22 = add nsw i32 %21, 1
  %23 = load i32, ptr %4, align 4, !tbaa !13
  %24 = mul nsw i32 %22, %23
  %25 = load i32, ptr %5, align 4, !tbaa !13
  %26 = add nsw i32 %24, %25
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %27
  store float 1.000000e+00, ptr addrspace(1) %28, align 4, !tbaa !19
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @group_one(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !21 !kernel_arg_access_qual !22 !kernel_arg_type !23 !kernel_arg_base_type !23 !kernel_arg_type_qual !24 !kernel_arg_name !25 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  %3 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %4 = icmp eq i64 %3, 0
  br i1 %4, label %5, label %9

5:                                                ; preds = %1
  %6 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %7 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %8 = getelementptr inbounds float, ptr addrspace(1) %6, i64 %7
  store float 1.000000e+00, ptr addrspace(1) %8, align 4, !tbaa !19
  br label %9

9:                                                ; preds = %5, %1
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @private_loops(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !26 !kernel_arg_base_type !26 !kernel_arg_type_qual !7 !kernel_arg_name !27 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca [4 x i32], align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 16, ptr %5) #4
  call void @llvm.memset.p0.i64(ptr align 4 %5, i8 0, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  store i32 0, ptr %6, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %18, %2
  %10 = load i32, ptr %6, align 4, !tbaa !13
  %11 = icmp slt i32 %10, 4
  br i1 %11, label %13, label %12

12:                                               ; preds = %9
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %21

13:                                               ; preds = %9
  %14 = load i32, ptr %6, align 4, !tbaa !13
  %15 = load i32, ptr %6, align 4, !tbaa !13
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 %16
  store i32 %14, ptr %17, align 4, !tbaa !13
  br label %18

18:                                               ; preds = %13
  %19 = load i32, ptr %6, align 4, !tbaa !13
  %20 = add nsw i32 %19, 1
  store i32 %20, ptr %6, align 4, !tbaa !13
  br label %9

21:                                               ; preds = %12
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  store i32 0, ptr %7, align 4, !tbaa !13
  br label %22

22:                                               ; preds = %33, %21
  %23 = load i32, ptr %7, align 4, !tbaa !13
  %24 = icmp slt i32 %23, 6
  br i1 %24, label %26, label %25

25:                                               ; preds = %22
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  br label %36

26:                                               ; preds = %22
  %27 = load i32, ptr %7, align 4, !tbaa !13
  %28 = load i32, ptr %7, align 4, !tbaa !13
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 %29
  %31 = load i32, ptr %30, align 4, !tbaa !13
  %32 = add nsw i32 %31, %27
  store i32 %32, ptr %30, align 4, !tbaa !13
  br label %33

33:                                               ; preds = %26
  %34 = load i32, ptr %7, align 4, !tbaa !13
  %35 = add nsw i32 %34, 2
  store i32 %35, ptr %7, align 4, !tbaa !13
  br label %22

36:                                               ; preds = %25
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  store i32 0, ptr %8, align 4, !tbaa !13
  br label %37

37:                                               ; preds = %48, %36
  %38 = load i32, ptr %8, align 4, !tbaa !13
  %39 = load i32, ptr %4, align 4, !tbaa !13
  %40 = icmp slt i32 %38, %39
  br i1 %40, label %42, label %41

41:                                               ; preds = %37
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  br label %51

42:                                               ; preds = %37
  %43 = load i32, ptr %8, align 4, !tbaa !13
  %44 = sext i32 %43 to i64
  %45 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 %44
  %46 = load i32, ptr %45, align 4, !tbaa !13
  %47 = add nsw i32 %46, 1
  store i32 %47, ptr %45, align 4, !tbaa !13
  br label %48

48:                                               ; preds = %42
  %49 = load i32, ptr %8, align 4, !tbaa !13
  %50 = add nsw i32 %49, 1
  store i32 %50, ptr %8, align 4, !tbaa !13
  br label %37

51:                                               ; preds = %41
  %52 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 0
  %53 = load i32, ptr %52, align 4, !tbaa !13
  %54 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 1
  %55 = load i32, ptr %54, align 4, !tbaa !13
  %56 = add nsw i32 %53, %55
  %57 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 2
  %58 = load i32, ptr %57, align 4, !tbaa !13
  %59 = add nsw i32 %56, %58
  %60 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 3
  %61 = load i32, ptr %60, align 4, !tbaa !13
  %62 = add nsw i32 %59, %61
  %63 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %64 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %65 = getelementptr inbounds i32, ptr addrspace(1) %63, i64 %64
  store i32 %62, ptr addrspace(1) %65, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 16, ptr %5) #4
  ret void
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #3

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 0}
!5 = !{!"none", !"none"}
!6 = !{!"uint*", !"uint"}
!7 = !{!"", !""}
!8 = !{!"out", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !11, i64 0}
!17 = !{!"float*", !"int"}
!18 = !{!"c", !"w"}
!19 = !{!20, !20, i64 0}
!20 = !{!"float", !11, i64 0}
!21 = !{i32 1}
!22 = !{!"none"}
!23 = !{!"float*"}
!24 = !{!""}
!25 = !{!"partial"}
!26 = !{!"int*", !"int"}
!27 = !{!"a", !"n"}
