; check-instrument: a __local array written in two shapes (docs/check.md,
; "__local accesses that cannot race").  In shapes a group writes its tile
; by columns or by rows as its argument says: a branch on a value the same
; for the group's whole run, so no work-item of the group runs the other
; way (local_objects.c's exclusive).  Each store is marked
; MOSAIC_CHECK_LOCAL_OWN_SLOT (bit 61) with a pair of windows of its own
; shape (the window field, window + 1: 8 for the second window of the
; array's own pair, from 3 * 2 arguments on; 10 for the second of one more
; pair), whose slot its site gives the device: a loop's counter split by
; 16, 64 bytes a step of its remainder and 4 of its quotient; or the
; counter itself, 4 bytes a step.  The read after the barrier, where
; nothing writes, is NO_WRITER (bit 60) in the array's first window (7).  In shapes_race the way is the local id's: the stores
; are not marked (work-items 1 and 2 meet at t[1][2]).
;   #define SHAPES(name, COND) kernel void name(global int *a, int flip) {
;     local int t[16][16];
;     int l = get_local_id(0);
;     for (int v = l; v < 256; v += 16) {
;       if (COND) t[v % 16][v / 16] = v; else t[v / 16][v % 16] = -v;
;     }
;     barrier(CLK_LOCAL_MEM_FENCE);
;     a[get_global_id(0)] = t[l][l];
;   }
;   SHAPES(shapes, flip)
;   SHAPES(shapes_race, l < 8)
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; CHECK: [[A:@__mosaic_check_site]] = private constant %mosaic_check_site {{.*}}, i64 1024, [3 x i64] zeroinitializer, i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 64, i64 1, i64 0, i64 0, i64 0, i64 16, i64 256, i64 16, i64 4],
; CHECK: [[B:@__mosaic_check_site[.0-9]+]] = private constant %mosaic_check_site {{.*}}, i64 1024, [3 x i64] zeroinitializer, i64 4, i64 0, [2 x [9 x i64]] {{\[}}[9 x i64] [i64 4, i64 1, i64 0, i64 0, i64 0, i64 16, i64 256, i64 0, i64 0],
; CHECK-LABEL: define {{.*}} @shapes(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2315131683445014786, ptr [[A]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2317383483258700034, ptr [[B]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 1161084278931325185, ptr
; CHECK-LABEL: define {{.*}} @shapes_race(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 8162774324478210, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 8162774324478210, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@shapes.t = internal addrspace(3) global [16 x [16 x i32]] undef, align 4
@shapes_race.t = internal addrspace(3) global [16 x [16 x i32]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @shapes(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %9 = load i32, ptr %5, align 4, !tbaa !13
  store i32 %9, ptr %6, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %39, %2
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %11, 256
  br i1 %12, label %14, label %13

13:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %42

14:                                               ; preds = %10
  %15 = load i32, ptr %4, align 4, !tbaa !13
  %16 = icmp ne i32 %15, 0
  br i1 %16, label %17, label %27

17:                                               ; preds = %14
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = load i32, ptr %6, align 4, !tbaa !13
  %20 = srem i32 %19, 16
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes.t, i64 0, i64 %21
  %23 = load i32, ptr %6, align 4, !tbaa !13
  %24 = sdiv i32 %23, 16
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds [16 x i32], ptr addrspace(3) %22, i64 0, i64 %25
  store i32 %18, ptr addrspace(3) %26, align 4, !tbaa !13
  br label %38

27:                                               ; preds = %14
  %28 = load i32, ptr %6, align 4, !tbaa !13
  %29 = sub nsw i32 0, %28
  %30 = load i32, ptr %6, align 4, !tbaa !13
  %31 = sdiv i32 %30, 16
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes.t, i64 0, i64 %32
  %34 = load i32, ptr %6, align 4, !tbaa !13
  %35 = srem i32 %34, 16
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds [16 x i32], ptr addrspace(3) %33, i64 0, i64 %36
  store i32 %29, ptr addrspace(3) %37, align 4, !tbaa !13
  br label %38

38:                                               ; preds = %27, %17
  br label %39

39:                                               ; preds = %38
  %40 = load i32, ptr %6, align 4, !tbaa !13
  %41 = add nsw i32 %40, 16
  store i32 %41, ptr %6, align 4, !tbaa !13
  br label %10

42:                                               ; preds = %13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %43 = load i32, ptr %5, align 4, !tbaa !13
  %44 = sext i32 %43 to i64
  %45 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes.t, i64 0, i64 %44
  %46 = load i32, ptr %5, align 4, !tbaa !13
  %47 = sext i32 %46 to i64
  %48 = getelementptr inbounds [16 x i32], ptr addrspace(3) %45, i64 0, i64 %47
  %49 = load i32, ptr addrspace(3) %48, align 4, !tbaa !13
  %50 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %51 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %52 = getelementptr inbounds i32, ptr addrspace(1) %50, i64 %51
  store i32 %49, ptr addrspace(1) %52, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
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
define dso_local spir_kernel void @shapes_race(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store i32 %1, ptr %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %9 = load i32, ptr %5, align 4, !tbaa !13
  store i32 %9, ptr %6, align 4, !tbaa !13
  br label %10

10:                                               ; preds = %39, %2
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %11, 256
  br i1 %12, label %14, label %13

13:                                               ; preds = %10
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %42

14:                                               ; preds = %10
  %15 = load i32, ptr %5, align 4, !tbaa !13
  %16 = icmp slt i32 %15, 8
  br i1 %16, label %17, label %27

17:                                               ; preds = %14
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = load i32, ptr %6, align 4, !tbaa !13
  %20 = srem i32 %19, 16
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes_race.t, i64 0, i64 %21
  %23 = load i32, ptr %6, align 4, !tbaa !13
  %24 = sdiv i32 %23, 16
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds [16 x i32], ptr addrspace(3) %22, i64 0, i64 %25
  store i32 %18, ptr addrspace(3) %26, align 4, !tbaa !13
  br label %38

27:                                               ; preds = %14
  %28 = load i32, ptr %6, align 4, !tbaa !13
  %29 = sub nsw i32 0, %28
  %30 = load i32, ptr %6, align 4, !tbaa !13
  %31 = sdiv i32 %30, 16
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes_race.t, i64 0, i64 %32
  %34 = load i32, ptr %6, align 4, !tbaa !13
  %35 = srem i32 %34, 16
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds [16 x i32], ptr addrspace(3) %33, i64 0, i64 %36
  store i32 %29, ptr addrspace(3) %37, align 4, !tbaa !13
  br label %38

38:                                               ; preds = %27, %17
  br label %39

39:                                               ; preds = %38
  %40 = load i32, ptr %6, align 4, !tbaa !13
  %41 = add nsw i32 %40, 16
  store i32 %41, ptr %6, align 4, !tbaa !13
  br label %10

42:                                               ; preds = %13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %43 = load i32, ptr %5, align 4, !tbaa !13
  %44 = sext i32 %43 to i64
  %45 = getelementptr inbounds [16 x [16 x i32]], ptr addrspace(3) @shapes_race.t, i64 0, i64 %44
  %46 = load i32, ptr %5, align 4, !tbaa !13
  %47 = sext i32 %46 to i64
  %48 = getelementptr inbounds [16 x i32], ptr addrspace(3) %45, i64 0, i64 %47
  %49 = load i32, ptr addrspace(3) %48, align 4, !tbaa !13
  %50 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %51 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %52 = getelementptr inbounds i32, ptr addrspace(1) %50, i64 %51
  store i32 %49, ptr addrspace(1) %52, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
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
!4 = !{i32 1, i32 0}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int"}
!7 = !{!"", !""}
!8 = !{!"a", !"flip"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
