; work-group-function: kernels widened whole on bytes.  Elements of a
; vector argument (uchar4 bounds passed by value) are the row's, and the
; ifs on each channel run under lane masks; a row read and written
; mirrored (w - 1 - x, ~x after instcombine) is one vector access from the
; last lane's element, its lanes reversed, not a gather or a scatter; a read
; at a clamped coordinate is a vector load where the row's clamps leave it
; alone, a gather where not.
;   kernel void in_range(global const uchar4 *src, global uchar *dst, int w, uchar4 lo, uchar4 hi)
;   { int x = get_global_id(0); if (x >= w) return;
;     for (int y = 0; y < 4; y++) { uchar4 p = src[y * w + x]; uchar m = 255;
;       if (p.x < lo.x || p.x > hi.x) m = 0; else if (p.y < lo.y || p.y > hi.y) m = 0; dst[y * w + x] = m; } }
;   kernel void mirror(global const uchar *src, global uchar *dst, int w)
;   { int x = get_global_id(0);
;     for (int y = 0; y < 4; y++) dst[y * w + w - 1 - x] = src[y * w + x] ^ src[y * w + w - 1 - x]; }
;   kernel void taps(global const uchar *src, global uint *dst, int w)
;   { int x = get_global_id(0); uint s = 0;
;     for (int k = -2; k <= 2; k++) s += src[clamp(x + k, 0, w - 1)]; dst[x] = s; }
; RUN: MOSAIC_DEBUG=build mosaic-opt --stop-after=work-group-function %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=SAYS
; RUN: FileCheck %s < %t.ll
; SAYS-DAG: mosaic: kernel in_range.wi: widened whole, 128 work-items of a row at once
; SAYS-DAG: mosaic: kernel mirror.wi: widened whole, 128 work-items of a row at once
; SAYS-DAG: mosaic: kernel taps.wi: widened whole, 64 work-items of a row at once
; CHECK-LABEL: define internal void @in_range.wi.vec(
; CHECK: extractelement <4 x i8> %{{[0-9]+}}, i64 1
; CHECK: call <512 x i8> @llvm.masked.load.v512i8.p1(
; CHECK: call void @llvm.masked.store.v128i8.p1(
; CHECK-LABEL: define internal void @mirror.wi.vec(
; CHECK-NOT: scatter
; CHECK-NOT: gather
; CHECK: %mirrored = getelementptr i8, ptr addrspace(1) %{{[0-9]+}}, i64 -127
; CHECK-NEXT: load <128 x i8>, ptr addrspace(1) %mirrored
; CHECK-NEXT: %reversed = shufflevector <128 x i8>
; CHECK: %reversed2 = shufflevector <128 x i8>
; CHECK-NEXT: store <128 x i8> %reversed2, ptr addrspace(1) %mirrored1
; CHECK-LABEL: define internal void @taps.wi.vec(
; CHECK: %clamp.holds = icmp sle i32
; CHECK: %clamp.holds1 = icmp sge i32
; CHECK: br i1 %{{[0-9]+}}, label %lanes.follow, label %lanes.apart
; CHECK: lanes.follow:
; CHECK-NEXT: extractelement <64 x ptr addrspace(1)>
; CHECK-NEXT: load <64 x i8>, ptr addrspace(1)
; CHECK: lanes.apart:
; CHECK-NEXT: call <64 x i8> @llvm.masked.gather.v64i8.v64p1(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @in_range(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, <4 x i8> noundef %3, <4 x i8> noundef %4) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca <4 x i8>, align 4
  %10 = alloca <4 x i8>, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca <4 x i8>, align 4
  %15 = alloca i8, align 1
  store ptr addrspace(1) %0, ptr %6, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %7, align 8, !tbaa !10
  store i32 %2, ptr %8, align 4, !tbaa !14
  store <4 x i8> %3, ptr %9, align 4, !tbaa !16
  store <4 x i8> %4, ptr %10, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #3
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %11, align 4, !tbaa !14
  %18 = load i32, ptr %11, align 4, !tbaa !14
  %19 = load i32, ptr %8, align 4, !tbaa !14
  %20 = icmp sge i32 %18, %19
  br i1 %20, label %21, label %22

21:                                               ; preds = %5
  store i32 1, ptr %12, align 4
  br label %85

22:                                               ; preds = %5
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #3
  store i32 0, ptr %13, align 4, !tbaa !14
  br label %23

23:                                               ; preds = %81, %22
  %24 = load i32, ptr %13, align 4, !tbaa !14
  %25 = icmp slt i32 %24, 4
  br i1 %25, label %27, label %26

26:                                               ; preds = %23
  store i32 2, ptr %12, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #3
  br label %84

27:                                               ; preds = %23
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #3
  %28 = load ptr addrspace(1), ptr %6, align 8, !tbaa !10
  %29 = load i32, ptr %13, align 4, !tbaa !14
  %30 = load i32, ptr %8, align 4, !tbaa !14
  %31 = mul nsw i32 %29, %30
  %32 = load i32, ptr %11, align 4, !tbaa !14
  %33 = add nsw i32 %31, %32
  %34 = sext i32 %33 to i64
  %35 = getelementptr inbounds <4 x i8>, ptr addrspace(1) %28, i64 %34
  %36 = load <4 x i8>, ptr addrspace(1) %35, align 4, !tbaa !16
  store <4 x i8> %36, ptr %14, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 1, ptr %15) #3
  store i8 -1, ptr %15, align 1, !tbaa !16
  %37 = load <4 x i8>, ptr %14, align 4
  %38 = extractelement <4 x i8> %37, i64 0
  %39 = zext i8 %38 to i32
  %40 = load <4 x i8>, ptr %9, align 4
  %41 = extractelement <4 x i8> %40, i64 0
  %42 = zext i8 %41 to i32
  %43 = icmp slt i32 %39, %42
  br i1 %43, label %52, label %44

44:                                               ; preds = %27
  %45 = load <4 x i8>, ptr %14, align 4
  %46 = extractelement <4 x i8> %45, i64 0
  %47 = zext i8 %46 to i32
  %48 = load <4 x i8>, ptr %10, align 4
  %49 = extractelement <4 x i8> %48, i64 0
  %50 = zext i8 %49 to i32
  %51 = icmp sgt i32 %47, %50
  br i1 %51, label %52, label %53

52:                                               ; preds = %44, %27
  store i8 0, ptr %15, align 1, !tbaa !16
  br label %71

53:                                               ; preds = %44
  %54 = load <4 x i8>, ptr %14, align 4
  %55 = extractelement <4 x i8> %54, i64 1
  %56 = zext i8 %55 to i32
  %57 = load <4 x i8>, ptr %9, align 4
  %58 = extractelement <4 x i8> %57, i64 1
  %59 = zext i8 %58 to i32
  %60 = icmp slt i32 %56, %59
  br i1 %60, label %69, label %61

61:                                               ; preds = %53
  %62 = load <4 x i8>, ptr %14, align 4
  %63 = extractelement <4 x i8> %62, i64 1
  %64 = zext i8 %63 to i32
  %65 = load <4 x i8>, ptr %10, align 4
  %66 = extractelement <4 x i8> %65, i64 1
  %67 = zext i8 %66 to i32
  %68 = icmp sgt i32 %64, %67
  br i1 %68, label %69, label %70

69:                                               ; preds = %61, %53
  store i8 0, ptr %15, align 1, !tbaa !16
  br label %70

70:                                               ; preds = %69, %61
  br label %71

71:                                               ; preds = %70, %52
  %72 = load i8, ptr %15, align 1, !tbaa !16
  %73 = load ptr addrspace(1), ptr %7, align 8, !tbaa !10
  %74 = load i32, ptr %13, align 4, !tbaa !14
  %75 = load i32, ptr %8, align 4, !tbaa !14
  %76 = mul nsw i32 %74, %75
  %77 = load i32, ptr %11, align 4, !tbaa !14
  %78 = add nsw i32 %76, %77
  %79 = sext i32 %78 to i64
  %80 = getelementptr inbounds i8, ptr addrspace(1) %73, i64 %79
  store i8 %72, ptr addrspace(1) %80, align 1, !tbaa !16
  call void @llvm.lifetime.end.p0(i64 1, ptr %15) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #3
  br label %81

81:                                               ; preds = %71
  %82 = load i32, ptr %13, align 4, !tbaa !14
  %83 = add nsw i32 %82, 1
  store i32 %83, ptr %13, align 4, !tbaa !14
  br label %23

84:                                               ; preds = %26
  store i32 0, ptr %12, align 4
  br label %85

85:                                               ; preds = %84, %21
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #3
  %86 = load i32, ptr %12, align 4
  switch i32 %86, label %88 [
    i32 0, label %87
    i32 1, label %87
  ]

87:                                               ; preds = %85, %85
  ret void

88:                                               ; preds = %85
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @mirror(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !10
  store i32 %2, ptr %6, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %10 = trunc i64 %9 to i32
  store i32 %10, ptr %7, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #3
  store i32 0, ptr %8, align 4, !tbaa !14
  br label %11

11:                                               ; preds = %52, %3
  %12 = load i32, ptr %8, align 4, !tbaa !14
  %13 = icmp slt i32 %12, 4
  br i1 %13, label %15, label %14

14:                                               ; preds = %11
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #3
  br label %55

15:                                               ; preds = %11
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %17 = load i32, ptr %8, align 4, !tbaa !14
  %18 = load i32, ptr %6, align 4, !tbaa !14
  %19 = mul nsw i32 %17, %18
  %20 = load i32, ptr %7, align 4, !tbaa !14
  %21 = add nsw i32 %19, %20
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds i8, ptr addrspace(1) %16, i64 %22
  %24 = load i8, ptr addrspace(1) %23, align 1, !tbaa !16
  %25 = zext i8 %24 to i32
  %26 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %27 = load i32, ptr %8, align 4, !tbaa !14
  %28 = load i32, ptr %6, align 4, !tbaa !14
  %29 = mul nsw i32 %27, %28
  %30 = load i32, ptr %6, align 4, !tbaa !14
  %31 = add nsw i32 %29, %30
  %32 = sub nsw i32 %31, 1
  %33 = load i32, ptr %7, align 4, !tbaa !14
  %34 = sub nsw i32 %32, %33
  %35 = sext i32 %34 to i64
  %36 = getelementptr inbounds i8, ptr addrspace(1) %26, i64 %35
  %37 = load i8, ptr addrspace(1) %36, align 1, !tbaa !16
  %38 = zext i8 %37 to i32
  %39 = xor i32 %25, %38
  %40 = trunc i32 %39 to i8
  %41 = load ptr addrspace(1), ptr %5, align 8, !tbaa !10
  %42 = load i32, ptr %8, align 4, !tbaa !14
  %43 = load i32, ptr %6, align 4, !tbaa !14
  %44 = mul nsw i32 %42, %43
  %45 = load i32, ptr %6, align 4, !tbaa !14
  %46 = add nsw i32 %44, %45
  %47 = sub nsw i32 %46, 1
  %48 = load i32, ptr %7, align 4, !tbaa !14
  %49 = sub nsw i32 %47, %48
  %50 = sext i32 %49 to i64
  %51 = getelementptr inbounds i8, ptr addrspace(1) %41, i64 %50
  store i8 %40, ptr addrspace(1) %51, align 1, !tbaa !16
  br label %52

52:                                               ; preds = %15
  %53 = load i32, ptr %8, align 4, !tbaa !14
  %54 = add nsw i32 %53, 1
  store i32 %54, ptr %8, align 4, !tbaa !14
  br label %11

55:                                               ; preds = %14
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @taps(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !22 !kernel_arg_base_type !22 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !10
  store i32 %2, ptr %6, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %7, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #3
  store i32 0, ptr %8, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  store i32 -2, ptr %9, align 4, !tbaa !14
  br label %12

12:                                               ; preds = %30, %3
  %13 = load i32, ptr %9, align 4, !tbaa !14
  %14 = icmp sle i32 %13, 2
  br i1 %14, label %16, label %15

15:                                               ; preds = %12
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  br label %33

16:                                               ; preds = %12
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !10
  %18 = load i32, ptr %7, align 4, !tbaa !14
  %19 = load i32, ptr %9, align 4, !tbaa !14
  %20 = add nsw i32 %18, %19
  %21 = load i32, ptr %6, align 4, !tbaa !14
  %22 = sub nsw i32 %21, 1
  %23 = call spir_func i32 @_Z5clampiii(i32 noundef %20, i32 noundef 0, i32 noundef %22) #4
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds i8, ptr addrspace(1) %17, i64 %24
  %26 = load i8, ptr addrspace(1) %25, align 1, !tbaa !16
  %27 = zext i8 %26 to i32
  %28 = load i32, ptr %8, align 4, !tbaa !14
  %29 = add i32 %28, %27
  store i32 %29, ptr %8, align 4, !tbaa !14
  br label %30

30:                                               ; preds = %16
  %31 = load i32, ptr %9, align 4, !tbaa !14
  %32 = add nsw i32 %31, 1
  store i32 %32, ptr %9, align 4, !tbaa !14
  br label %12

33:                                               ; preds = %15
  %34 = load i32, ptr %8, align 4, !tbaa !14
  %35 = load ptr addrspace(1), ptr %5, align 8, !tbaa !10
  %36 = load i32, ptr %7, align 4, !tbaa !14
  %37 = sext i32 %36 to i64
  %38 = getelementptr inbounds i32, ptr addrspace(1) %35, i64 %37
  store i32 %34, ptr addrspace(1) %38, align 4, !tbaa !14
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z5clampiii(i32 noundef, i32 noundef, i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 0, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none"}
!6 = !{!"uchar4*", !"uchar*", !"int", !"uchar4", !"uchar4"}
!7 = !{!"uchar __attribute__((ext_vector_type(4)))*", !"uchar*", !"int", !"uchar __attribute__((ext_vector_type(4)))", !"uchar __attribute__((ext_vector_type(4)))"}
!8 = !{!"const", !"", !"", !"", !""}
!9 = !{!"src", !"dst", !"w", !"lo", !"hi"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"int", !12, i64 0}
!16 = !{!12, !12, i64 0}
!17 = !{i32 1, i32 1, i32 0}
!18 = !{!"none", !"none", !"none"}
!19 = !{!"uchar*", !"uchar*", !"int"}
!20 = !{!"const", !"", !""}
!21 = !{!"src", !"dst", !"w"}
!22 = !{!"uchar*", !"uint*", !"int"}
