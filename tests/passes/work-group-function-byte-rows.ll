; work-group-function, in a build for one local size: rows widen between
; barriers on a loop that carries a byte (a window's minimum over a __local
; tile), not only a floating-point value; the tile's loads at clamped
; coordinates are a vector load where the row's clamps leave it alone, a
; gather where not; the guard after the barrier (in the barrier's block)
; returns no work-item before a barrier.  A kernel whose loop carries only
; what the row shares (a tile loaded in step) keeps the scalar regions.
;   kernel void window(global const uchar *src, global uchar *dst, int w)
;   { local uchar t[20]; int lx = get_local_id(0), x = get_global_id(0);
;     t[lx] = src[clamp(x, 0, w - 1)]; if (lx < 4) t[16 + lx] = src[clamp(x + 16, 0, w - 1)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     if (x >= w) return;
;     uchar m = 255; for (int d = 0; d < 5; d++) m = min(m, t[lx + d]); dst[x] = m; }
;   kernel void tile(global const uchar *src, global uchar *dst)
;   { local uchar t[64]; int lx = get_local_id(0);
;     for (int i = lx; i < 64; i += 16) t[i] = src[get_group_id(0) * 64 + i];
;     barrier(CLK_LOCAL_MEM_FENCE); dst[get_global_id(0)] = t[63 - lx]; }
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=window:16,1,1 --stop-after=work-group-function %s -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WINDOW-SAYS
; RUN: FileCheck %s --check-prefix=WINDOW < %t.ll
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=tile:16,1,1 --stop-after=work-group-function %s -o %t2.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TILE-SAYS
; RUN: FileCheck %s --check-prefix=TILE < %t2.ll
; WINDOW-SAYS: mosaic: kernel window.wi: rows of 16 widened, 16 work-items at once between barriers
; WINDOW-SAYS: mosaic: kernel window.wi: 2 regions, {{.*}}, cut from the widened rows
; WINDOW-LABEL: define internal void @window.wi.row(
; WINDOW: %clamp.holds = icmp sle i32
; WINDOW: %clamp.holds1 = icmp sge i32
; WINDOW: br i1 %{{[0-9]+}}, label %lanes.follow, label %lanes.apart
; WINDOW: call void @__mosaic_barrier(
; WINDOW: phi <16 x i8>
; WINDOW: call <16 x i8> @llvm.masked.load.v16i8.p3(
; WINDOW: call <16 x i8> @llvm.umin.v16i8(
; WINDOW: lanes.follow:
; WINDOW-NEXT: extractelement <16 x ptr addrspace(1)>
; WINDOW-NEXT: load <16 x i8>, ptr addrspace(1)
; WINDOW: lanes.apart:
; WINDOW-NEXT: call <16 x i8> @llvm.masked.gather.v16i8.v16p1(
; WINDOW: lanes.join:
; WINDOW-NEXT: phi <16 x i8>
; TILE-SAYS: mosaic: kernel tile.wi: rows of 16 not widened: no loop carrying a value that differs between work-items
; TILE-NOT: define internal void @tile.wi.row(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@window.t = internal addrspace(3) global [20 x i8] undef, align 1
@tile.t = internal addrspace(3) global [64 x i8] undef, align 1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @window(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i8, align 1
  %11 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  %12 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %8, align 4, !tbaa !13
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %17 = load i32, ptr %8, align 4, !tbaa !13
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = sub nsw i32 %18, 1
  %20 = call spir_func i32 @_Z5clampiii(i32 noundef %17, i32 noundef 0, i32 noundef %19) #5
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds i8, ptr addrspace(1) %16, i64 %21
  %23 = load i8, ptr addrspace(1) %22, align 1, !tbaa !15
  %24 = load i32, ptr %7, align 4, !tbaa !13
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds [20 x i8], ptr addrspace(3) @window.t, i64 0, i64 %25
  store i8 %23, ptr addrspace(3) %26, align 1, !tbaa !15
  %27 = load i32, ptr %7, align 4, !tbaa !13
  %28 = icmp slt i32 %27, 4
  br i1 %28, label %29, label %43

29:                                               ; preds = %3
  %30 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %31 = load i32, ptr %8, align 4, !tbaa !13
  %32 = add nsw i32 %31, 16
  %33 = load i32, ptr %6, align 4, !tbaa !13
  %34 = sub nsw i32 %33, 1
  %35 = call spir_func i32 @_Z5clampiii(i32 noundef %32, i32 noundef 0, i32 noundef %34) #5
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds i8, ptr addrspace(1) %30, i64 %36
  %38 = load i8, ptr addrspace(1) %37, align 1, !tbaa !15
  %39 = load i32, ptr %7, align 4, !tbaa !13
  %40 = add nsw i32 16, %39
  %41 = sext i32 %40 to i64
  %42 = getelementptr inbounds [20 x i8], ptr addrspace(3) @window.t, i64 0, i64 %41
  store i8 %38, ptr addrspace(3) %42, align 1, !tbaa !15
  br label %43

43:                                               ; preds = %29, %3
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %44 = load i32, ptr %8, align 4, !tbaa !13
  %45 = load i32, ptr %6, align 4, !tbaa !13
  %46 = icmp sge i32 %44, %45
  br i1 %46, label %47, label %48

47:                                               ; preds = %43
  store i32 1, ptr %9, align 4
  br label %71

48:                                               ; preds = %43
  call void @llvm.lifetime.start.p0(i64 1, ptr %10) #4
  store i8 -1, ptr %10, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #4
  store i32 0, ptr %11, align 4, !tbaa !13
  br label %49

49:                                               ; preds = %62, %48
  %50 = load i32, ptr %11, align 4, !tbaa !13
  %51 = icmp slt i32 %50, 5
  br i1 %51, label %53, label %52

52:                                               ; preds = %49
  store i32 2, ptr %9, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #4
  br label %65

53:                                               ; preds = %49
  %54 = load i8, ptr %10, align 1, !tbaa !15
  %55 = load i32, ptr %7, align 4, !tbaa !13
  %56 = load i32, ptr %11, align 4, !tbaa !13
  %57 = add nsw i32 %55, %56
  %58 = sext i32 %57 to i64
  %59 = getelementptr inbounds [20 x i8], ptr addrspace(3) @window.t, i64 0, i64 %58
  %60 = load i8, ptr addrspace(3) %59, align 1, !tbaa !15
  %61 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %54, i8 noundef zeroext %60) #5
  store i8 %61, ptr %10, align 1, !tbaa !15
  br label %62

62:                                               ; preds = %53
  %63 = load i32, ptr %11, align 4, !tbaa !13
  %64 = add nsw i32 %63, 1
  store i32 %64, ptr %11, align 4, !tbaa !13
  br label %49

65:                                               ; preds = %52
  %66 = load i8, ptr %10, align 1, !tbaa !15
  %67 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %68 = load i32, ptr %8, align 4, !tbaa !13
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds i8, ptr addrspace(1) %67, i64 %69
  store i8 %66, ptr addrspace(1) %70, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %10) #4
  store i32 0, ptr %9, align 4
  br label %71

71:                                               ; preds = %65, %47
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  %72 = load i32, ptr %9, align 4
  switch i32 %72, label %74 [
    i32 0, label %73
    i32 1, label %73
  ]

73:                                               ; preds = %71, %71
  ret void

74:                                               ; preds = %71
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z5clampiii(i32 noundef, i32 noundef, i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext, i8 noundef zeroext) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tile(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1) #0 !kernel_arg_addr_space !16 !kernel_arg_access_qual !17 !kernel_arg_type !18 !kernel_arg_base_type !18 !kernel_arg_type_qual !19 !kernel_arg_name !20 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %9 = load i32, ptr %5, align 4, !tbaa !13
  store i32 %9, ptr %6, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %26, %2
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %11, 64
  br i1 %12, label %14, label %13

13:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %29

14:                                               ; preds = %10
  %15 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %16 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %17 = mul i64 %16, 64
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = add i64 %17, %19
  %21 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 %20
  %22 = load i8, ptr addrspace(1) %21, align 1, !tbaa !15
  %23 = load i32, ptr %6, align 4, !tbaa !13
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds [64 x i8], ptr addrspace(3) @tile.t, i64 0, i64 %24
  store i8 %22, ptr addrspace(3) %25, align 1, !tbaa !15
  br label %26

26:                                               ; preds = %14
  %27 = load i32, ptr %6, align 4, !tbaa !13
  %28 = add nsw i32 %27, 16
  store i32 %28, ptr %6, align 4, !tbaa !13
  br label %10

29:                                               ; preds = %13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %30 = load i32, ptr %5, align 4, !tbaa !13
  %31 = sub nsw i32 63, %30
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds [64 x i8], ptr addrspace(3) @tile.t, i64 0, i64 %32
  %34 = load i8, ptr addrspace(3) %33, align 1, !tbaa !15
  %35 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %36 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %37 = getelementptr inbounds i8, ptr addrspace(1) %35, i64 %36
  store i8 %34, ptr addrspace(1) %37, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"uchar*", !"uchar*", !"int"}
!7 = !{!"const", !"", !""}
!8 = !{!"src", !"dst", !"w"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
!16 = !{i32 1, i32 1}
!17 = !{!"none", !"none"}
!18 = !{!"uchar*", !"uchar*"}
!19 = !{!"const", !""}
!20 = !{!"src", !"dst"}
