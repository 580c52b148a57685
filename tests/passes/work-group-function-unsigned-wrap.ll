; work-group-function: a uint index one below an id, read only where the
; id is not 0 (`l ? s[l - 1] : ...`): its zero extension, or instcombine's
; `& 0xffffffff`, is 0xffffffff in the lane that is off, so the lanes'
; addresses follow lane 0's only where its operand's end lanes, read
; unsigned, are in order (the same bits above bit 32 for a mask).  A
; masked access through one tests that: a vector access where they do, a
; gather where not, at the lanes' own addresses (the mask or extension
; applied lane by lane), in a row widened between barriers and in a kernel
; widened whole.
;   kernel void left_sums(global const uint *in, global uint *out, local uint *s) {
;     uint l = get_local_id(0), base = get_global_id(0) * 4, t = 0;
;     for (int k = 0; k < 4; k++) t += in[base + k];
;     s[l] = t; barrier(CLK_LOCAL_MEM_FENCE);
;     out[get_global_id(0)] = l ? s[l - 1] : 1000000u; }
;   kernel void before(global const uchar *in, global uint *out) {
;     uint x = get_global_id(0), s = 0;
;     for (uint k = 0; k < 3; k++) s += x ? in[x - 1 + k] : 7u;
;     out[x] = s; }
; RUN: mosaic-opt --one-size=left_sums:64,1,1 --stop-after=work-group-function %s | FileCheck %s --check-prefix=ROW
; RUN: mosaic-opt --stop-after=work-group-function %s | FileCheck %s --check-prefix=WHOLE
; ROW-LABEL: define internal void @left_sums.wi.row(
; ROW: %no.wrap = icmp eq i64
; ROW-NEXT: br i1 %no.wrap, label %lanes.follow, label %lanes.apart
; ROW: lanes.follow:
; ROW-NEXT: call <64 x i32> @llvm.masked.load.v64i32.p3(
; ROW: lanes.apart:
; ROW: and <64 x i64> %{{[0-9]+}}, <i64 4294967295,
; ROW: call <64 x i32> @llvm.masked.gather.v64i32.v64p3(
; WHOLE-LABEL: define internal void @before.wi.vec(
; WHOLE: %no.wrap = icmp ule i32
; WHOLE-NEXT: br i1 %no.wrap, label %lanes.follow, label %lanes.apart
; WHOLE: lanes.follow:
; WHOLE-NEXT: call <128 x i8> @llvm.masked.load.v128i8.p1(
; WHOLE: lanes.apart:
; WHOLE: zext <128 x i32> %{{[0-9]+}} to <128 x i64>
; WHOLE: call <128 x i8> @llvm.masked.gather.v128i8.v128p1(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @left_sums(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  %11 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %12 = trunc i64 %11 to i32
  store i32 %12, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %14 = mul i64 %13, 4
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  store i32 0, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #4
  store i32 0, ptr %10, align 4, !tbaa !13
  br label %16

16:                                               ; preds = %30, %3
  %17 = load i32, ptr %10, align 4, !tbaa !13
  %18 = icmp slt i32 %17, 4
  br i1 %18, label %20, label %19

19:                                               ; preds = %16
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #4
  br label %33

20:                                               ; preds = %16
  %21 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %22 = load i32, ptr %8, align 4, !tbaa !13
  %23 = load i32, ptr %10, align 4, !tbaa !13
  %24 = add i32 %22, %23
  %25 = zext i32 %24 to i64
  %26 = getelementptr inbounds i32, ptr addrspace(1) %21, i64 %25
  %27 = load i32, ptr addrspace(1) %26, align 4, !tbaa !13
  %28 = load i32, ptr %9, align 4, !tbaa !13
  %29 = add i32 %28, %27
  store i32 %29, ptr %9, align 4, !tbaa !13
  br label %30

30:                                               ; preds = %20
  %31 = load i32, ptr %10, align 4, !tbaa !13
  %32 = add nsw i32 %31, 1
  store i32 %32, ptr %10, align 4, !tbaa !13
  br label %16

33:                                               ; preds = %19
  %34 = load i32, ptr %9, align 4, !tbaa !13
  %35 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %36 = load i32, ptr %7, align 4, !tbaa !13
  %37 = zext i32 %36 to i64
  %38 = getelementptr inbounds i32, ptr addrspace(3) %35, i64 %37
  store i32 %34, ptr addrspace(3) %38, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %39 = load i32, ptr %7, align 4, !tbaa !13
  %40 = icmp ne i32 %39, 0
  br i1 %40, label %41, label %48

41:                                               ; preds = %33
  %42 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %43 = load i32, ptr %7, align 4, !tbaa !13
  %44 = sub i32 %43, 1
  %45 = zext i32 %44 to i64
  %46 = getelementptr inbounds i32, ptr addrspace(3) %42, i64 %45
  %47 = load i32, ptr addrspace(3) %46, align 4, !tbaa !13
  br label %49

48:                                               ; preds = %33
  br label %49

49:                                               ; preds = %48, %41
  %50 = phi i32 [ %47, %41 ], [ 1000000, %48 ]
  %51 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %52 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %53 = getelementptr inbounds i32, ptr addrspace(1) %51, i64 %52
  store i32 %50, ptr addrspace(1) %53, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @before(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !15 !kernel_arg_access_qual !16 !kernel_arg_type !17 !kernel_arg_base_type !17 !kernel_arg_type_qual !18 !kernel_arg_name !19 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %9 = trunc i64 %8 to i32
  store i32 %9, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  store i32 0, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  store i32 0, ptr %7, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %32, %2
  %11 = load i32, ptr %7, align 4, !tbaa !13
  %12 = icmp ult i32 %11, 3
  br i1 %12, label %14, label %13

13:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  br label %35

14:                                               ; preds = %10
  %15 = load i32, ptr %5, align 4, !tbaa !13
  %16 = icmp ne i32 %15, 0
  br i1 %16, label %17, label %27

17:                                               ; preds = %14
  %18 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %19 = load i32, ptr %5, align 4, !tbaa !13
  %20 = sub i32 %19, 1
  %21 = load i32, ptr %7, align 4, !tbaa !13
  %22 = add i32 %20, %21
  %23 = zext i32 %22 to i64
  %24 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 %23
  %25 = load i8, ptr addrspace(1) %24, align 1, !tbaa !20
  %26 = zext i8 %25 to i32
  br label %28

27:                                               ; preds = %14
  br label %28

28:                                               ; preds = %27, %17
  %29 = phi i32 [ %26, %17 ], [ 7, %27 ]
  %30 = load i32, ptr %6, align 4, !tbaa !13
  %31 = add i32 %30, %29
  store i32 %31, ptr %6, align 4, !tbaa !13
  br label %32

32:                                               ; preds = %28
  %33 = load i32, ptr %7, align 4, !tbaa !13
  %34 = add i32 %33, 1
  store i32 %34, ptr %7, align 4, !tbaa !13
  br label %10

35:                                               ; preds = %13
  %36 = load i32, ptr %6, align 4, !tbaa !13
  %37 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %38 = load i32, ptr %5, align 4, !tbaa !13
  %39 = zext i32 %38 to i64
  %40 = getelementptr inbounds i32, ptr addrspace(1) %37, i64 %39
  store i32 %36, ptr addrspace(1) %40, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
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
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"uint*", !"uint*", !"uint*"}
!7 = !{!"const", !"", !""}
!8 = !{!"in", !"out", !"s"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{i32 1, i32 1}
!16 = !{!"none", !"none"}
!17 = !{!"uchar*", !"uint*"}
!18 = !{!"const", !""}
!19 = !{!"in", !"out"}
!20 = !{!11, !11, i64 0}
