; check-instrument: a double buffer (docs/check.md, "__local accesses that
; cannot race").  In planes, each pass of a Hillis-Steele scan reads plane
; cur of s, at the work-item's own slot and, for l >= off, off elements
; below it, and writes its own slot of plane cur ^ 1: two planes that
; always differ (cur and cur ^ 1 differ in their lowest bit), so every
; access is marked MOSAIC_CHECK_LOCAL_OWN_SLOT (bit 61, window 5: 3 * 1
; argument, then the array's second, + 1), and the sites give the plane's
; bytes, 1024 (mosaic_check_site's last field, slot_plane), which the
; device checks the group's slots fit in.  In planes_same the pass writes
; plane cur itself before the flip: the read off elements below (work-item
; l - off's slot, which l - off writes) and the write are left unmarked
; (window 4, no mark).
;   #define SCAN(name, WRITE) kernel void name(global int *a) {
;     local int s[2][256]; uint l = get_local_id(0); int cur = 0;
;     s[0][l] = l; barrier(CLK_LOCAL_MEM_FENCE);
;     for (uint off = 1; off < 256; off *= 2) {
;       int x = s[cur][l]; if (l >= off) x += s[cur][l - off];
;       s[WRITE][l] = x; cur ^= 1; barrier(CLK_LOCAL_MEM_FENCE);
;     }
;     a[get_global_id(0)] = s[cur][l]; }
;   SCAN(planes, cur ^ 1)  SCAN(planes_same, cur)
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; CHECK: [[S:@__mosaic_check_site]] = private constant %mosaic_check_site {{.*}}, i64 2048, [3 x i64] [i64 4, i64 0, i64 0], i64 4, i64 0, [2 x [9 x i64]] zeroinitializer, i64 1024, ptr null }
; CHECK-LABEL: define {{.*}} @planes(
; the first write, the pass's two reads and its write, the last read
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[S]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486913, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486913, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486913, ptr
; CHECK-LABEL: define {{.*}} @planes_same(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr [[F:@__mosaic_check_site[.0-9]+]])
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486913, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 4785074603950337, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 4785074603950338, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486913, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@planes.s = internal addrspace(3) global [2 x [256 x i32]] undef, align 4
@planes_same.s = internal addrspace(3) global [2 x [256 x i32]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @planes(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  store i32 0, ptr %4, align 4, !tbaa !13
  %9 = load i32, ptr %3, align 4, !tbaa !13
  %10 = load i32, ptr %3, align 4, !tbaa !13
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds [256 x i32], ptr addrspace(3) @planes.s, i64 0, i64 %11
  store i32 %9, ptr addrspace(3) %12, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  store i32 1, ptr %5, align 4, !tbaa !13
  br label %13

13:                                               ; preds = %51, %1
  %14 = load i32, ptr %5, align 4, !tbaa !13
  %15 = icmp ult i32 %14, 256
  br i1 %15, label %17, label %16

16:                                               ; preds = %13
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %54

17:                                               ; preds = %13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %18 = load i32, ptr %4, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes.s, i64 0, i64 %19
  %21 = load i32, ptr %3, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds [256 x i32], ptr addrspace(3) %20, i64 0, i64 %22
  %24 = load i32, ptr addrspace(3) %23, align 4, !tbaa !13
  store i32 %24, ptr %6, align 4, !tbaa !13
  %25 = load i32, ptr %3, align 4, !tbaa !13
  %26 = load i32, ptr %5, align 4, !tbaa !13
  %27 = icmp uge i32 %25, %26
  br i1 %27, label %28, label %40

28:                                               ; preds = %17
  %29 = load i32, ptr %4, align 4, !tbaa !13
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes.s, i64 0, i64 %30
  %32 = load i32, ptr %3, align 4, !tbaa !13
  %33 = load i32, ptr %5, align 4, !tbaa !13
  %34 = sub i32 %32, %33
  %35 = zext i32 %34 to i64
  %36 = getelementptr inbounds [256 x i32], ptr addrspace(3) %31, i64 0, i64 %35
  %37 = load i32, ptr addrspace(3) %36, align 4, !tbaa !13
  %38 = load i32, ptr %6, align 4, !tbaa !13
  %39 = add nsw i32 %38, %37
  store i32 %39, ptr %6, align 4, !tbaa !13
  br label %40

40:                                               ; preds = %28, %17
  %41 = load i32, ptr %6, align 4, !tbaa !13
  %42 = load i32, ptr %4, align 4, !tbaa !13
  %43 = xor i32 %42, 1
  %44 = sext i32 %43 to i64
  %45 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes.s, i64 0, i64 %44
  %46 = load i32, ptr %3, align 4, !tbaa !13
  %47 = zext i32 %46 to i64
  %48 = getelementptr inbounds [256 x i32], ptr addrspace(3) %45, i64 0, i64 %47
  store i32 %41, ptr addrspace(3) %48, align 4, !tbaa !13
  %49 = load i32, ptr %4, align 4, !tbaa !13
  %50 = xor i32 %49, 1
  store i32 %50, ptr %4, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %51

51:                                               ; preds = %40
  %52 = load i32, ptr %5, align 4, !tbaa !13
  %53 = mul i32 %52, 2
  store i32 %53, ptr %5, align 4, !tbaa !13
  br label %13

54:                                               ; preds = %16
  %55 = load i32, ptr %4, align 4, !tbaa !13
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes.s, i64 0, i64 %56
  %58 = load i32, ptr %3, align 4, !tbaa !13
  %59 = zext i32 %58 to i64
  %60 = getelementptr inbounds [256 x i32], ptr addrspace(3) %57, i64 0, i64 %59
  %61 = load i32, ptr addrspace(3) %60, align 4, !tbaa !13
  %62 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %63 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %64 = getelementptr inbounds i32, ptr addrspace(1) %62, i64 %63
  store i32 %61, ptr addrspace(1) %64, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @planes_same(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %4) #4
  store i32 0, ptr %4, align 4, !tbaa !13
  %9 = load i32, ptr %3, align 4, !tbaa !13
  %10 = load i32, ptr %3, align 4, !tbaa !13
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds [256 x i32], ptr addrspace(3) @planes_same.s, i64 0, i64 %11
  store i32 %9, ptr addrspace(3) %12, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  store i32 1, ptr %5, align 4, !tbaa !13
  br label %13

13:                                               ; preds = %50, %1
  %14 = load i32, ptr %5, align 4, !tbaa !13
  %15 = icmp ult i32 %14, 256
  br i1 %15, label %17, label %16

16:                                               ; preds = %13
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %53

17:                                               ; preds = %13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %18 = load i32, ptr %4, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes_same.s, i64 0, i64 %19
  %21 = load i32, ptr %3, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds [256 x i32], ptr addrspace(3) %20, i64 0, i64 %22
  %24 = load i32, ptr addrspace(3) %23, align 4, !tbaa !13
  store i32 %24, ptr %6, align 4, !tbaa !13
  %25 = load i32, ptr %3, align 4, !tbaa !13
  %26 = load i32, ptr %5, align 4, !tbaa !13
  %27 = icmp uge i32 %25, %26
  br i1 %27, label %28, label %40

28:                                               ; preds = %17
  %29 = load i32, ptr %4, align 4, !tbaa !13
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes_same.s, i64 0, i64 %30
  %32 = load i32, ptr %3, align 4, !tbaa !13
  %33 = load i32, ptr %5, align 4, !tbaa !13
  %34 = sub i32 %32, %33
  %35 = zext i32 %34 to i64
  %36 = getelementptr inbounds [256 x i32], ptr addrspace(3) %31, i64 0, i64 %35
  %37 = load i32, ptr addrspace(3) %36, align 4, !tbaa !13
  %38 = load i32, ptr %6, align 4, !tbaa !13
  %39 = add nsw i32 %38, %37
  store i32 %39, ptr %6, align 4, !tbaa !13
  br label %40

40:                                               ; preds = %28, %17
  %41 = load i32, ptr %6, align 4, !tbaa !13
  %42 = load i32, ptr %4, align 4, !tbaa !13
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes_same.s, i64 0, i64 %43
  %45 = load i32, ptr %3, align 4, !tbaa !13
  %46 = zext i32 %45 to i64
  %47 = getelementptr inbounds [256 x i32], ptr addrspace(3) %44, i64 0, i64 %46
  store i32 %41, ptr addrspace(3) %47, align 4, !tbaa !13
  %48 = load i32, ptr %4, align 4, !tbaa !13
  %49 = xor i32 %48, 1
  store i32 %49, ptr %4, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %50

50:                                               ; preds = %40
  %51 = load i32, ptr %5, align 4, !tbaa !13
  %52 = mul i32 %51, 2
  store i32 %52, ptr %5, align 4, !tbaa !13
  br label %13

53:                                               ; preds = %16
  %54 = load i32, ptr %4, align 4, !tbaa !13
  %55 = sext i32 %54 to i64
  %56 = getelementptr inbounds [2 x [256 x i32]], ptr addrspace(3) @planes_same.s, i64 0, i64 %55
  %57 = load i32, ptr %3, align 4, !tbaa !13
  %58 = zext i32 %57 to i64
  %59 = getelementptr inbounds [256 x i32], ptr addrspace(3) %56, i64 0, i64 %58
  %60 = load i32, ptr addrspace(3) %59, align 4, !tbaa !13
  %61 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %62 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %63 = getelementptr inbounds i32, ptr addrspace(1) %61, i64 %62
  store i32 %60, ptr addrspace(1) %63, align 4, !tbaa !13
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
