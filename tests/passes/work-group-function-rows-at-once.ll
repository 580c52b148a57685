; work-group-function: a kernel widened whole whose rows share a load in a
; loop (a matrix product, one work-item an element) also runs 8 rows at once
; on a target of 32 vector registers (row_coarsening.c): what depends on
; the row 8 times (A's element, the accumulator, C's store), B's vector once
; a step for the 8 multiply-adds; K.wg takes 8 rows a step while 8 are
; left, else one.  A guard on the row and the column (mm_guarded) takes
; row 0's way in K.rows, and K.wg runs the 8 rows at once only where
; K.rows.agree finds them all on one side of the row's part.  Rows that branch on what they read
; (mm_skips), and kernels with nothing that depends on the row (chain), run
; one row at a time.
; RUN: MOSAIC_DEBUG=build mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --stop-after=work-group-function %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=SAYS
; RUN: FileCheck %s < %t.ll
; SAYS: mosaic: kernel mm.wi: 8 rows at once, 32 work-items of each (the rest 16 at a time)
; SAYS: mosaic: kernel mm_guarded.wi: 8 rows at once, 32 work-items of each (the rest 16 at a time)
; SAYS: mosaic: kernel mm_skips.wi: rows not run together: rows that may take different ways, on values other than the ids and arguments
; SAYS: mosaic: kernel chain.wi: rows not run together: no value that depends on the row
; CHECK-LABEL: define internal void @mm.wi.rows.vec(
; CHECK: add nuw i64 %{{[0-9]+}}, 7
; CHECK-COUNT-8: phi <32 x float>
; CHECK-COUNT-8: load float, ptr addrspace(1)
; CHECK: [[B:%[0-9]+]] = load <32 x float>, ptr addrspace(1)
; CHECK-NOT: load
; CHECK-COUNT-8: call <32 x float> @llvm.fmuladd.v32f32(<32 x float> %{{[0-9]+}}, <32 x float> [[B]],
; CHECK-LABEL: define internal void @mm.wi.rows.tail(
; CHECK-LABEL: define void @mm.wg(
; CHECK: [[LEFT:%[0-9]+]] = sub i64 %ny, %ly
; CHECK-NEXT: [[MANY:%[0-9]+]] = icmp uge i64 [[LEFT]], 8
; CHECK-NEXT: br i1 [[MANY]], label %y.rows, label %y.row
; CHECK: %ly.step = phi i64 [ 8, %{{.*}} ], [ 1, %{{.*}} ]
; CHECK: call void @mm.wi.rows.vec(
; CHECK: call void @mm.wi.rows.tail(
; CHECK: call void @mm.wi.vec(
; CHECK-LABEL: define internal i1 @mm_guarded.body.rows.agree(
; CHECK: [[FIRST:%[0-9]+]] = icmp sge i32 %{{[0-9]+}}, %4
; CHECK: %ly.row{{[0-9]*}} = add nuw i64 %{{[0-9]+}}, 7
; CHECK: [[LAST:%[0-9]+]] = icmp sge i32 %{{[0-9]+}}, %4
; CHECK-NEXT: [[SAME:%[0-9]+]] = icmp eq i1 [[LAST]], [[FIRST]]
; CHECK-NEXT: %rows.agree{{[0-9]*}} = and i1 %rows.agree{{[0-9]*}}, [[SAME]]
; CHECK-NEXT: ret i1
; CHECK-LABEL: define internal void @mm_guarded.wi.rows.vec(
; CHECK-LABEL: define void @mm_guarded.wg(
; CHECK: y.rows:
; CHECK-NEXT: %rows.agree = call i1 @mm_guarded.body.rows.agree(
; CHECK-NEXT: br i1 %rows.agree, label %y.rows.agree, label %y.row
; CHECK-NOT: define internal void @mm_skips.wi.rows
; CHECK-NOT: define internal void @chain.wi.rows
;   kernel void mm(global const float *a, global const float *b, global float *c, int n)
;   {
;       int col = get_global_id(0), row = get_global_id(1);
;       float s = 0.0f;
;       for (int k = 0; k < n; k++)
;           s += a[row * n + k] * b[k * n + col];
;       c[row * n + col] = s;
;   }
;   kernel void mm_guarded(global const float *a, global const float *b, global float *c, int n, int m)
;   {
;       int col = get_global_id(0), row = get_global_id(1);
;       if (row >= m || col >= n)
;           return;
;       float s = 0.0f;
;       for (int k = 0; k < n; k++)
;           s += a[row * n + k] * b[k * n + col];
;       c[row * n + col] = s;
;   }
;   kernel void mm_skips(global const float *a, global const float *b, global float *c, int n)
;   {
;       int col = get_global_id(0), row = get_global_id(1);
;       if (a[row * n] > 3.0f)
;           return;
;       float s = 0.0f;
;       for (int k = 0; k < n; k++)
;           s += a[row * n + k] * b[k * n + col];
;       c[row * n + col] = s;
;   }
;   kernel void chain(global float *x, int n)
;   {
;       float v = x[get_global_id(0)];
;       for (int i = 0; i < n; i++)
;           v = v * 0.5f + 1.0f;
;       x[get_global_id(0)] = v;
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @mm(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca float, align 4
  %12 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %7, align 8, !tbaa !9
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #4
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %16 = trunc i64 %15 to i32
  store i32 %16, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #4
  store float 0.000000e+00, ptr %11, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #4
  store i32 0, ptr %12, align 4, !tbaa !13
  br label %17

17:                                               ; preds = %43, %4
  %18 = load i32, ptr %12, align 4, !tbaa !13
  %19 = load i32, ptr %8, align 4, !tbaa !13
  %20 = icmp slt i32 %18, %19
  br i1 %20, label %22, label %21

21:                                               ; preds = %17
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #4
  br label %46

22:                                               ; preds = %17
  %23 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %24 = load i32, ptr %10, align 4, !tbaa !13
  %25 = load i32, ptr %8, align 4, !tbaa !13
  %26 = mul nsw i32 %24, %25
  %27 = load i32, ptr %12, align 4, !tbaa !13
  %28 = add nsw i32 %26, %27
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds float, ptr addrspace(1) %23, i64 %29
  %31 = load float, ptr addrspace(1) %30, align 4, !tbaa !15
  %32 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %33 = load i32, ptr %12, align 4, !tbaa !13
  %34 = load i32, ptr %8, align 4, !tbaa !13
  %35 = mul nsw i32 %33, %34
  %36 = load i32, ptr %9, align 4, !tbaa !13
  %37 = add nsw i32 %35, %36
  %38 = sext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr addrspace(1) %32, i64 %38
  %40 = load float, ptr addrspace(1) %39, align 4, !tbaa !15
  %41 = load float, ptr %11, align 4, !tbaa !15
  %42 = call float @llvm.fmuladd.f32(float %31, float %40, float %41)
  store float %42, ptr %11, align 4, !tbaa !15
  br label %43

43:                                               ; preds = %22
  %44 = load i32, ptr %12, align 4, !tbaa !13
  %45 = add nsw i32 %44, 1
  store i32 %45, ptr %12, align 4, !tbaa !13
  br label %17

46:                                               ; preds = %21
  %47 = load float, ptr %11, align 4, !tbaa !15
  %48 = load ptr addrspace(1), ptr %7, align 8, !tbaa !9
  %49 = load i32, ptr %10, align 4, !tbaa !13
  %50 = load i32, ptr %8, align 4, !tbaa !13
  %51 = mul nsw i32 %49, %50
  %52 = load i32, ptr %9, align 4, !tbaa !13
  %53 = add nsw i32 %51, %52
  %54 = sext i32 %53 to i64
  %55 = getelementptr inbounds float, ptr addrspace(1) %48, i64 %54
  store float %47, ptr addrspace(1) %55, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @mm_guarded(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3, i32 noundef %4) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca float, align 4
  %15 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %6, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %7, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %8, align 8, !tbaa !9
  store i32 %3, ptr %9, align 4, !tbaa !13
  store i32 %4, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #4
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %11, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #4
  %18 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %19 = trunc i64 %18 to i32
  store i32 %19, ptr %12, align 4, !tbaa !13
  %20 = load i32, ptr %12, align 4, !tbaa !13
  %21 = load i32, ptr %10, align 4, !tbaa !13
  %22 = icmp sge i32 %20, %21
  br i1 %22, label %27, label %23

23:                                               ; preds = %5
  %24 = load i32, ptr %11, align 4, !tbaa !13
  %25 = load i32, ptr %9, align 4, !tbaa !13
  %26 = icmp sge i32 %24, %25
  br i1 %26, label %27, label %28

27:                                               ; preds = %23, %5
  store i32 1, ptr %13, align 4
  br label %68

28:                                               ; preds = %23
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #4
  store float 0.000000e+00, ptr %14, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #4
  store i32 0, ptr %15, align 4, !tbaa !13
  br label %29

29:                                               ; preds = %55, %28
  %30 = load i32, ptr %15, align 4, !tbaa !13
  %31 = load i32, ptr %9, align 4, !tbaa !13
  %32 = icmp slt i32 %30, %31
  br i1 %32, label %34, label %33

33:                                               ; preds = %29
  store i32 2, ptr %13, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #4
  br label %58

34:                                               ; preds = %29
  %35 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %36 = load i32, ptr %12, align 4, !tbaa !13
  %37 = load i32, ptr %9, align 4, !tbaa !13
  %38 = mul nsw i32 %36, %37
  %39 = load i32, ptr %15, align 4, !tbaa !13
  %40 = add nsw i32 %38, %39
  %41 = sext i32 %40 to i64
  %42 = getelementptr inbounds float, ptr addrspace(1) %35, i64 %41
  %43 = load float, ptr addrspace(1) %42, align 4, !tbaa !15
  %44 = load ptr addrspace(1), ptr %7, align 8, !tbaa !9
  %45 = load i32, ptr %15, align 4, !tbaa !13
  %46 = load i32, ptr %9, align 4, !tbaa !13
  %47 = mul nsw i32 %45, %46
  %48 = load i32, ptr %11, align 4, !tbaa !13
  %49 = add nsw i32 %47, %48
  %50 = sext i32 %49 to i64
  %51 = getelementptr inbounds float, ptr addrspace(1) %44, i64 %50
  %52 = load float, ptr addrspace(1) %51, align 4, !tbaa !15
  %53 = load float, ptr %14, align 4, !tbaa !15
  %54 = call float @llvm.fmuladd.f32(float %43, float %52, float %53)
  store float %54, ptr %14, align 4, !tbaa !15
  br label %55

55:                                               ; preds = %34
  %56 = load i32, ptr %15, align 4, !tbaa !13
  %57 = add nsw i32 %56, 1
  store i32 %57, ptr %15, align 4, !tbaa !13
  br label %29

58:                                               ; preds = %33
  %59 = load float, ptr %14, align 4, !tbaa !15
  %60 = load ptr addrspace(1), ptr %8, align 8, !tbaa !9
  %61 = load i32, ptr %12, align 4, !tbaa !13
  %62 = load i32, ptr %9, align 4, !tbaa !13
  %63 = mul nsw i32 %61, %62
  %64 = load i32, ptr %11, align 4, !tbaa !13
  %65 = add nsw i32 %63, %64
  %66 = sext i32 %65 to i64
  %67 = getelementptr inbounds float, ptr addrspace(1) %60, i64 %66
  store float %59, ptr addrspace(1) %67, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #4
  store i32 0, ptr %13, align 4
  br label %68

68:                                               ; preds = %58, %27
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #4
  %69 = load i32, ptr %13, align 4
  switch i32 %69, label %71 [
    i32 0, label %70
    i32 1, label %70
  ]

70:                                               ; preds = %68, %68
  ret void

71:                                               ; preds = %68
  unreachable
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @mm_skips(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca float, align 4
  %13 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %7, align 8, !tbaa !9
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #4
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %10, align 4, !tbaa !13
  %18 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %19 = load i32, ptr %10, align 4, !tbaa !13
  %20 = load i32, ptr %8, align 4, !tbaa !13
  %21 = mul nsw i32 %19, %20
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr addrspace(1) %18, i64 %22
  %24 = load float, ptr addrspace(1) %23, align 4, !tbaa !15
  %25 = fcmp ogt float %24, 3.000000e+00
  br i1 %25, label %26, label %27

26:                                               ; preds = %4
  store i32 1, ptr %11, align 4
  br label %67

27:                                               ; preds = %4
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #4
  store float 0.000000e+00, ptr %12, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #4
  store i32 0, ptr %13, align 4, !tbaa !13
  br label %28

28:                                               ; preds = %54, %27
  %29 = load i32, ptr %13, align 4, !tbaa !13
  %30 = load i32, ptr %8, align 4, !tbaa !13
  %31 = icmp slt i32 %29, %30
  br i1 %31, label %33, label %32

32:                                               ; preds = %28
  store i32 2, ptr %11, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #4
  br label %57

33:                                               ; preds = %28
  %34 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %35 = load i32, ptr %10, align 4, !tbaa !13
  %36 = load i32, ptr %8, align 4, !tbaa !13
  %37 = mul nsw i32 %35, %36
  %38 = load i32, ptr %13, align 4, !tbaa !13
  %39 = add nsw i32 %37, %38
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds float, ptr addrspace(1) %34, i64 %40
  %42 = load float, ptr addrspace(1) %41, align 4, !tbaa !15
  %43 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %44 = load i32, ptr %13, align 4, !tbaa !13
  %45 = load i32, ptr %8, align 4, !tbaa !13
  %46 = mul nsw i32 %44, %45
  %47 = load i32, ptr %9, align 4, !tbaa !13
  %48 = add nsw i32 %46, %47
  %49 = sext i32 %48 to i64
  %50 = getelementptr inbounds float, ptr addrspace(1) %43, i64 %49
  %51 = load float, ptr addrspace(1) %50, align 4, !tbaa !15
  %52 = load float, ptr %12, align 4, !tbaa !15
  %53 = call float @llvm.fmuladd.f32(float %42, float %51, float %52)
  store float %53, ptr %12, align 4, !tbaa !15
  br label %54

54:                                               ; preds = %33
  %55 = load i32, ptr %13, align 4, !tbaa !13
  %56 = add nsw i32 %55, 1
  store i32 %56, ptr %13, align 4, !tbaa !13
  br label %28

57:                                               ; preds = %32
  %58 = load float, ptr %12, align 4, !tbaa !15
  %59 = load ptr addrspace(1), ptr %7, align 8, !tbaa !9
  %60 = load i32, ptr %10, align 4, !tbaa !13
  %61 = load i32, ptr %8, align 4, !tbaa !13
  %62 = mul nsw i32 %60, %61
  %63 = load i32, ptr %9, align 4, !tbaa !13
  %64 = add nsw i32 %62, %63
  %65 = sext i32 %64 to i64
  %66 = getelementptr inbounds float, ptr addrspace(1) %59, i64 %65
  store float %58, ptr addrspace(1) %66, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #4
  store i32 0, ptr %11, align 4
  br label %67

67:                                               ; preds = %57, %26
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  %68 = load i32, ptr %11, align 4
  switch i32 %68, label %70 [
    i32 0, label %69
    i32 1, label %69
  ]

69:                                               ; preds = %67, %67
  ret void

70:                                               ; preds = %67
  unreachable
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @chain(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !22 !kernel_arg_access_qual !23 !kernel_arg_type !24 !kernel_arg_base_type !24 !kernel_arg_type_qual !25 !kernel_arg_name !26 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca float, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %9 = getelementptr inbounds float, ptr addrspace(1) %7, i64 %8
  %10 = load float, ptr addrspace(1) %9, align 4, !tbaa !15
  store float %10, ptr %5, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  store i32 0, ptr %6, align 4, !tbaa !13
  br label %11

11:                                               ; preds = %19, %2
  %12 = load i32, ptr %6, align 4, !tbaa !13
  %13 = load i32, ptr %4, align 4, !tbaa !13
  %14 = icmp slt i32 %12, %13
  br i1 %14, label %16, label %15

15:                                               ; preds = %11
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %22

16:                                               ; preds = %11
  %17 = load float, ptr %5, align 4, !tbaa !15
  %18 = call float @llvm.fmuladd.f32(float %17, float 5.000000e-01, float 1.000000e+00)
  store float %18, ptr %5, align 4, !tbaa !15
  br label %19

19:                                               ; preds = %16
  %20 = load i32, ptr %6, align 4, !tbaa !13
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %6, align 4, !tbaa !13
  br label %11

22:                                               ; preds = %15
  %23 = load float, ptr %5, align 4, !tbaa !15
  %24 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %25 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %26 = getelementptr inbounds float, ptr addrspace(1) %24, i64 %25
  store float %23, ptr addrspace(1) %26, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
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
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"int"}
!7 = !{!"const", !"const", !"", !""}
!8 = !{!"a", !"b", !"c", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{i32 1, i32 1, i32 1, i32 0, i32 0}
!18 = !{!"none", !"none", !"none", !"none", !"none"}
!19 = !{!"float*", !"float*", !"float*", !"int", !"int"}
!20 = !{!"const", !"const", !"", !"", !""}
!21 = !{!"a", !"b", !"c", !"n", !"m"}
!22 = !{i32 1, i32 0}
!23 = !{!"none", !"none"}
!24 = !{!"float*", !"int"}
!25 = !{!"", !""}
!26 = !{!"x", !"n"}
