; check-instrument: a tile loaded in loops that step from each work-item's
; own coordinate (a filter's halo; docs/check.md, "__local accesses that
; cannot race").  In strided, t[ty][tx] for ty = ly, ly + 2... below 6
; and tx = lx, lx + 8... below 20 is the store's only neighbour before the
; barrier, so it is marked MOSAIC_CHECK_LOCAL_OWN_SLOT (bit 61, window 3:
; 3 * 1 argument, then the array's second) and its site gives the slot's
; two loop coordinates (mosaic_check_slot_loop: stride, the local ids'
; factors, first, step, bound, split, split stride): ty, 80 bytes a step
; of 1, from ly, by 2,
; below 6; tx, 4 bytes, from lx, by 8, below 20.  The device takes the mark
; where each step is at least the group's size in its dimension (groups 8
; x 2 here).  In counter, t[ly][lx + 8 * c] over c = 0, 1: the loop's
; counter is a coordinate (32 bytes, no local id, by 1, below 2) beside lx
; and ly (4 and 128 bytes): apart in groups 8 wide, not 16.  In unbounded
; the loop's test is against an argument: no bound (0), which the device
; takes only for the outermost coordinate.  In divided, t[i / 20][i % 20]
; of rows of 20 is i: one coordinate, from ly * 8 + lx.  In split, rows of
; 24 ints are written at v % 8 * 2 and the next, v / 8: the counter's
; remainder by 8 moves the access 8 bytes, its quotient 96 (split), and
; the two stores' constants 0 and 4 bytes are one more coordinate (4 bytes,
; 2 values).
;   kernel void strided(global int *a) {
;     local int t[6][20];
;     int lx = get_local_id(0), ly = get_local_id(1);
;     for (int ty = ly; ty < 6; ty += 2)
;       for (int tx = lx; tx < 20; tx += 8)
;         t[ty][tx] = tx;
;     barrier(CLK_LOCAL_MEM_FENCE);
;     a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx];
;   }
;   kernel void counter(global int *a) { local int t[2][32]; ... for (int c = 0; c < 2; c++) t[ly][lx + 8 * c] = c; ... }
;   kernel void unbounded(global int *a, int n) { local int t[6][20]; ... for (int tx = lx; tx < n; tx += 8) t[ly][tx] = tx; ... }
;   kernel void divided(global int *a) { local int t[6][20]; ... for (int i = ly * 8 + lx; i < 6 * 20; i += 16) t[i / 20][i % 20] = i; ... }
;   kernel void split(global int *a) { local int t[8][24]; ...
;     for (int v = ly * 8 + lx; v < 64; v += 16) { t[v / 8][v % 8 * 2] = v; t[v / 8][v % 8 * 2 + 1] = -v; } ... }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; CHECK: [[S:@__mosaic_check_site]] = private constant %mosaic_check_site {{.*}}, i64 480, [3 x i64] zeroinitializer, i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 80, i64 0, i64 1, i64 0, i64 0, i64 2, i64 6, i64 0, i64 0], [9 x i64] [i64 4, i64 1, i64 0, i64 0, i64 0, i64 8, i64 20, i64 0, i64 0]], i64 0, ptr null }
; CHECK: [[C:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 256, [3 x i64] [i64 4, i64 128, i64 0], i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 32, i64 0, i64 0, i64 0, i64 0, i64 1, i64 2, i64 0, i64 0], [9 x i64] zeroinitializer], i64 0, ptr null }
; CHECK: [[U:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 480, [3 x i64] [i64 0, i64 80, i64 0], i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 4, i64 1, i64 0, i64 0, i64 0, i64 8, i64 0, i64 0, i64 0], [9 x i64] zeroinitializer], i64 0, ptr null }
; CHECK: [[D:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 480, [3 x i64] zeroinitializer, i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 4, i64 1, i64 8, i64 0, i64 0, i64 16, i64 120, i64 0, i64 0], [9 x i64] zeroinitializer], i64 0, ptr null }
; CHECK: [[P:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 768, [3 x i64] zeroinitializer, i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 8, i64 1, i64 8, i64 0, i64 0, i64 16, i64 64, i64 8, i64 96], [9 x i64] [i64 4, i64 0, i64 0, i64 0, i64 0, i64 1, i64 2, i64 0, i64 0]], i64 0, ptr null }
; CHECK-LABEL: define {{.*}} @strided(
; the store: own slot, a write
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[S]])
; the read after the barrier: no writer
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 1157706579210797313, ptr
; CHECK-LABEL: define {{.*}} @counter(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[C]])
; CHECK-LABEL: define {{.*}} @unbounded(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2315131683445014786, ptr [[U]])
; CHECK-LABEL: define {{.*}} @divided(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[D]])
; CHECK-LABEL: define {{.*}} @split(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[P]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr @__mosaic_check_site
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@strided.t = internal addrspace(3) global [6 x [20 x i32]] undef, align 4
@counter.t = internal addrspace(3) global [2 x [32 x i32]] undef, align 4
@unbounded.t = internal addrspace(3) global [6 x [20 x i32]] undef, align 4
@divided.t = internal addrspace(3) global [6 x [20 x i32]] undef, align 4
@split.t = internal addrspace(3) global [8 x [24 x i32]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @strided(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %12 = load i32, ptr %4, align 4, !tbaa !13
  store i32 %12, ptr %5, align 4, !tbaa !13
  br label %13

13:                                               ; preds = %35, %1
  %14 = load i32, ptr %5, align 4, !tbaa !13
  %15 = icmp slt i32 %14, 6
  br i1 %15, label %17, label %16

16:                                               ; preds = %13
  store i32 2, ptr %6, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %38

17:                                               ; preds = %13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  %18 = load i32, ptr %3, align 4, !tbaa !13
  store i32 %18, ptr %7, align 4, !tbaa !13
  br label %19

19:                                               ; preds = %31, %17
  %20 = load i32, ptr %7, align 4, !tbaa !13
  %21 = icmp slt i32 %20, 20
  br i1 %21, label %23, label %22

22:                                               ; preds = %19
  store i32 5, ptr %6, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  br label %34

23:                                               ; preds = %19
  %24 = load i32, ptr %7, align 4, !tbaa !13
  %25 = load i32, ptr %5, align 4, !tbaa !13
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @strided.t, i64 0, i64 %26
  %28 = load i32, ptr %7, align 4, !tbaa !13
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds [20 x i32], ptr addrspace(3) %27, i64 0, i64 %29
  store i32 %24, ptr addrspace(3) %30, align 4, !tbaa !13
  br label %31

31:                                               ; preds = %23
  %32 = load i32, ptr %7, align 4, !tbaa !13
  %33 = add nsw i32 %32, 8
  store i32 %33, ptr %7, align 4, !tbaa !13
  br label %19

34:                                               ; preds = %22
  br label %35

35:                                               ; preds = %34
  %36 = load i32, ptr %5, align 4, !tbaa !13
  %37 = add nsw i32 %36, 2
  store i32 %37, ptr %5, align 4, !tbaa !13
  br label %13

38:                                               ; preds = %16
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %39 = load i32, ptr %4, align 4, !tbaa !13
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @strided.t, i64 0, i64 %40
  %42 = load i32, ptr %3, align 4, !tbaa !13
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds [20 x i32], ptr addrspace(3) %41, i64 0, i64 %43
  %45 = load i32, ptr addrspace(3) %44, align 4, !tbaa !13
  %46 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %47 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %48 = mul i64 %47, 16
  %49 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %50 = add i64 %48, %49
  %51 = getelementptr inbounds i32, ptr addrspace(1) %46, i64 %50
  store i32 %45, ptr addrspace(1) %51, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @counter(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  store i32 0, ptr %5, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %25, %1
  %11 = load i32, ptr %5, align 4, !tbaa !13
  %12 = icmp slt i32 %11, 2
  br i1 %12, label %14, label %13

13:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %28

14:                                               ; preds = %10
  %15 = load i32, ptr %5, align 4, !tbaa !13
  %16 = load i32, ptr %4, align 4, !tbaa !13
  %17 = sext i32 %16 to i64
  %18 = getelementptr inbounds [2 x [32 x i32]], ptr addrspace(3) @counter.t, i64 0, i64 %17
  %19 = load i32, ptr %3, align 4, !tbaa !13
  %20 = load i32, ptr %5, align 4, !tbaa !13
  %21 = mul nsw i32 8, %20
  %22 = add nsw i32 %19, %21
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds [32 x i32], ptr addrspace(3) %18, i64 0, i64 %23
  store i32 %15, ptr addrspace(3) %24, align 4, !tbaa !13
  br label %25

25:                                               ; preds = %14
  %26 = load i32, ptr %5, align 4, !tbaa !13
  %27 = add nsw i32 %26, 1
  store i32 %27, ptr %5, align 4, !tbaa !13
  br label %10

28:                                               ; preds = %13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %29 = load i32, ptr %4, align 4, !tbaa !13
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds [2 x [32 x i32]], ptr addrspace(3) @counter.t, i64 0, i64 %30
  %32 = load i32, ptr %3, align 4, !tbaa !13
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [32 x i32], ptr addrspace(3) %31, i64 0, i64 %33
  %35 = load i32, ptr addrspace(3) %34, align 4, !tbaa !13
  %36 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %37 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %38 = mul i64 %37, 16
  %39 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %40 = add i64 %38, %39
  %41 = getelementptr inbounds i32, ptr addrspace(1) %36, i64 %40
  store i32 %35, ptr addrspace(1) %41, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @unbounded(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !15 !kernel_arg_access_qual !16 !kernel_arg_type !17 !kernel_arg_base_type !17 !kernel_arg_type_qual !18 !kernel_arg_name !19 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  %12 = load i32, ptr %5, align 4, !tbaa !13
  store i32 %12, ptr %7, align 4, !tbaa !13
  br label %13

13:                                               ; preds = %26, %2
  %14 = load i32, ptr %7, align 4, !tbaa !13
  %15 = load i32, ptr %4, align 4, !tbaa !13
  %16 = icmp slt i32 %14, %15
  br i1 %16, label %18, label %17

17:                                               ; preds = %13
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  br label %29

18:                                               ; preds = %13
  %19 = load i32, ptr %7, align 4, !tbaa !13
  %20 = load i32, ptr %6, align 4, !tbaa !13
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @unbounded.t, i64 0, i64 %21
  %23 = load i32, ptr %7, align 4, !tbaa !13
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds [20 x i32], ptr addrspace(3) %22, i64 0, i64 %24
  store i32 %19, ptr addrspace(3) %25, align 4, !tbaa !13
  br label %26

26:                                               ; preds = %18
  %27 = load i32, ptr %7, align 4, !tbaa !13
  %28 = add nsw i32 %27, 8
  store i32 %28, ptr %7, align 4, !tbaa !13
  br label %13

29:                                               ; preds = %17
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %30 = load i32, ptr %6, align 4, !tbaa !13
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @unbounded.t, i64 0, i64 %31
  %33 = load i32, ptr %5, align 4, !tbaa !13
  %34 = sext i32 %33 to i64
  %35 = getelementptr inbounds [20 x i32], ptr addrspace(3) %32, i64 0, i64 %34
  %36 = load i32, ptr addrspace(3) %35, align 4, !tbaa !13
  %37 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %38 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %39 = mul i64 %38, 16
  %40 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %41 = add i64 %39, %40
  %42 = getelementptr inbounds i32, ptr addrspace(1) %37, i64 %41
  store i32 %36, ptr addrspace(1) %42, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @divided(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %10 = load i32, ptr %4, align 4, !tbaa !13
  %11 = mul nsw i32 %10, 8
  %12 = load i32, ptr %3, align 4, !tbaa !13
  %13 = add nsw i32 %11, %12
  store i32 %13, ptr %5, align 4, !tbaa !13
  br label %14

14:                                               ; preds = %28, %1
  %15 = load i32, ptr %5, align 4, !tbaa !13
  %16 = icmp slt i32 %15, 120
  br i1 %16, label %18, label %17

17:                                               ; preds = %14
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %31

18:                                               ; preds = %14
  %19 = load i32, ptr %5, align 4, !tbaa !13
  %20 = load i32, ptr %5, align 4, !tbaa !13
  %21 = sdiv i32 %20, 20
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @divided.t, i64 0, i64 %22
  %24 = load i32, ptr %5, align 4, !tbaa !13
  %25 = srem i32 %24, 20
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds [20 x i32], ptr addrspace(3) %23, i64 0, i64 %26
  store i32 %19, ptr addrspace(3) %27, align 4, !tbaa !13
  br label %28

28:                                               ; preds = %18
  %29 = load i32, ptr %5, align 4, !tbaa !13
  %30 = add nsw i32 %29, 16
  store i32 %30, ptr %5, align 4, !tbaa !13
  br label %14

31:                                               ; preds = %17
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %32 = load i32, ptr %4, align 4, !tbaa !13
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [6 x [20 x i32]], ptr addrspace(3) @divided.t, i64 0, i64 %33
  %35 = load i32, ptr %3, align 4, !tbaa !13
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds [20 x i32], ptr addrspace(3) %34, i64 0, i64 %36
  %38 = load i32, ptr addrspace(3) %37, align 4, !tbaa !13
  %39 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %40 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %41 = mul i64 %40, 16
  %42 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %43 = add i64 %41, %42
  %44 = getelementptr inbounds i32, ptr addrspace(1) %39, i64 %43
  store i32 %38, ptr addrspace(1) %44, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @split(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %10 = load i32, ptr %4, align 4, !tbaa !13
  %11 = mul nsw i32 %10, 8
  %12 = load i32, ptr %3, align 4, !tbaa !13
  %13 = add nsw i32 %11, %12
  store i32 %13, ptr %5, align 4, !tbaa !13
  br label %14

14:                                               ; preds = %41, %1
  %15 = load i32, ptr %5, align 4, !tbaa !13
  %16 = icmp slt i32 %15, 64
  br i1 %16, label %18, label %17

17:                                               ; preds = %14
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %44

18:                                               ; preds = %14
  %19 = load i32, ptr %5, align 4, !tbaa !13
  %20 = load i32, ptr %5, align 4, !tbaa !13
  %21 = sdiv i32 %20, 8
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds [8 x [24 x i32]], ptr addrspace(3) @split.t, i64 0, i64 %22
  %24 = load i32, ptr %5, align 4, !tbaa !13
  %25 = srem i32 %24, 8
  %26 = mul nsw i32 %25, 2
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds [24 x i32], ptr addrspace(3) %23, i64 0, i64 %27
  store i32 %19, ptr addrspace(3) %28, align 4, !tbaa !13
  %29 = load i32, ptr %5, align 4, !tbaa !13
  %30 = sub nsw i32 0, %29
  %31 = load i32, ptr %5, align 4, !tbaa !13
  %32 = sdiv i32 %31, 8
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [8 x [24 x i32]], ptr addrspace(3) @split.t, i64 0, i64 %33
  %35 = load i32, ptr %5, align 4, !tbaa !13
  %36 = srem i32 %35, 8
  %37 = mul nsw i32 %36, 2
  %38 = add nsw i32 %37, 1
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds [24 x i32], ptr addrspace(3) %34, i64 0, i64 %39
  store i32 %30, ptr addrspace(3) %40, align 4, !tbaa !13
  br label %41

41:                                               ; preds = %18
  %42 = load i32, ptr %5, align 4, !tbaa !13
  %43 = add nsw i32 %42, 16
  store i32 %43, ptr %5, align 4, !tbaa !13
  br label %14

44:                                               ; preds = %17
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %45 = load i32, ptr %4, align 4, !tbaa !13
  %46 = sext i32 %45 to i64
  %47 = getelementptr inbounds [8 x [24 x i32]], ptr addrspace(3) @split.t, i64 0, i64 %46
  %48 = load i32, ptr %3, align 4, !tbaa !13
  %49 = sext i32 %48 to i64
  %50 = getelementptr inbounds [24 x i32], ptr addrspace(3) %47, i64 0, i64 %49
  %51 = load i32, ptr addrspace(3) %50, align 4, !tbaa !13
  %52 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %53 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %54 = mul i64 %53, 16
  %55 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %56 = add i64 %54, %55
  %57 = getelementptr inbounds i32, ptr addrspace(1) %52, i64 %56
  store i32 %51, ptr addrspace(1) %57, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind willreturn memory(none) }
attributes #6 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"a"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{i32 1, i32 0}
!16 = !{!"none", !"none"}
!17 = !{!"int*", !"int"}
!18 = !{!"", !""}
!19 = !{!"a", !"n"}
