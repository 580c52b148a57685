; check-instrument: the intervals between work-group barriers (docs/check.md,
; "How it works"; compiler/check/local_objects.c).  A read of a __local
; array only the kernel reaches gets bit 60 of `how` when no write of the
; array can run between the same two barriers (its window 3, 4 << 50); an
; access whose neighbours between the same barriers are all at the
; work-item's own slot bit 61 (window 4, 5 << 50); other accesses of the
; array window 3 (no bit: the device learns where the array is from
; them).  In loop_race the read of the neighbour's slot runs, once the loop
; comes round, after the write t[l] = v with no barrier between: neither
; has a bit, and only the first t[l] = l is alone in its interval.  In
; loop_twin a barrier follows t[l] = v: bit 60 for the read, bit 61 for
; both writes.  In escapes a pointer to t or u is chosen at run time:
; neither array is only reached through itself, no bits.
;   kernel void loop_race(global int *a) {
;     local int t[64];
;     int l = get_local_id(0), v = 0;
;     t[l] = l;
;     barrier(CLK_LOCAL_MEM_FENCE);
;     for (int i = 0; i < 3; i++) {
;       v += t[(l + 1) % 64];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       t[l] = v;
;     }
;     a[get_global_id(0)] = v;
;   }
;   kernel void loop_twin(global int *a) { (the same, with a barrier after t[l] = v) }
;   kernel void escapes(global int *a) {
;     local int t[64], u[64];
;     int l = get_local_id(0);
;     t[l] = l;
;     u[l] = l;
;     barrier(CLK_LOCAL_MEM_FENCE);
;     local int *p = a[0] ? t : u;
;     a[get_global_id(0)] = p[63 - l] + t[63 - l];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; t[l] = l at its own slot (0x2010fffffffe0102), t[(l + 1) % 64] (0xcfffffffe0101), t[l] = v (0xcfffffffe0102)
; CHECK-LABEL: define dso_local void @loop_race(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 4785074603950337, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 4785074603950338, ptr
; the read with bit 60 (0x100cfffffffe0101), both writes with bit 61
; CHECK-LABEL: define dso_local void @loop_twin(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 1157706579210797313, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2311753983724486914, ptr
; t[l] =, u[l] =, and the reads of p[...] (not known: the device looks it up) and t[...]
; CHECK-LABEL: define dso_local void @escapes(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 281474976579842, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 281474976579842, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 281474976645377, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 281474976579841, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@loop_race.t = internal addrspace(3) global [64 x i32] undef, align 4
@loop_twin.t = internal addrspace(3) global [64 x i32] undef, align 4
@escapes.t = internal addrspace(3) global [64 x i32] undef, align 4
@escapes.u = internal addrspace(3) global [64 x i32] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @loop_race(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
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
  store i32 0, ptr %4, align 4, !tbaa !13
  %8 = load i32, ptr %3, align 4, !tbaa !13
  %9 = load i32, ptr %3, align 4, !tbaa !13
  %10 = sext i32 %9 to i64
  %11 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_race.t, i64 0, i64 %10
  store i32 %8, ptr addrspace(3) %11, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  store i32 0, ptr %5, align 4, !tbaa !13
  br label %12

12:                                               ; preds = %29, %1
  %13 = load i32, ptr %5, align 4, !tbaa !13
  %14 = icmp slt i32 %13, 3
  br i1 %14, label %16, label %15

15:                                               ; preds = %12
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %32

16:                                               ; preds = %12
  %17 = load i32, ptr %3, align 4, !tbaa !13
  %18 = add nsw i32 %17, 1
  %19 = srem i32 %18, 64
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_race.t, i64 0, i64 %20
  %22 = load i32, ptr addrspace(3) %21, align 4, !tbaa !13
  %23 = load i32, ptr %4, align 4, !tbaa !13
  %24 = add nsw i32 %23, %22
  store i32 %24, ptr %4, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %25 = load i32, ptr %4, align 4, !tbaa !13
  %26 = load i32, ptr %3, align 4, !tbaa !13
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_race.t, i64 0, i64 %27
  store i32 %25, ptr addrspace(3) %28, align 4, !tbaa !13
  br label %29

29:                                               ; preds = %16
  %30 = load i32, ptr %5, align 4, !tbaa !13
  %31 = add nsw i32 %30, 1
  store i32 %31, ptr %5, align 4, !tbaa !13
  br label %12

32:                                               ; preds = %15
  %33 = load i32, ptr %4, align 4, !tbaa !13
  %34 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %35 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %36 = getelementptr inbounds i32, ptr addrspace(1) %34, i64 %35
  store i32 %33, ptr addrspace(1) %36, align 4, !tbaa !13
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
define dso_local spir_kernel void @loop_twin(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
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
  store i32 0, ptr %4, align 4, !tbaa !13
  %8 = load i32, ptr %3, align 4, !tbaa !13
  %9 = load i32, ptr %3, align 4, !tbaa !13
  %10 = sext i32 %9 to i64
  %11 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_twin.t, i64 0, i64 %10
  store i32 %8, ptr addrspace(3) %11, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  store i32 0, ptr %5, align 4, !tbaa !13
  br label %12

12:                                               ; preds = %29, %1
  %13 = load i32, ptr %5, align 4, !tbaa !13
  %14 = icmp slt i32 %13, 3
  br i1 %14, label %16, label %15

15:                                               ; preds = %12
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  br label %32

16:                                               ; preds = %12
  %17 = load i32, ptr %3, align 4, !tbaa !13
  %18 = add nsw i32 %17, 1
  %19 = srem i32 %18, 64
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_twin.t, i64 0, i64 %20
  %22 = load i32, ptr addrspace(3) %21, align 4, !tbaa !13
  %23 = load i32, ptr %4, align 4, !tbaa !13
  %24 = add nsw i32 %23, %22
  store i32 %24, ptr %4, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %25 = load i32, ptr %4, align 4, !tbaa !13
  %26 = load i32, ptr %3, align 4, !tbaa !13
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds [64 x i32], ptr addrspace(3) @loop_twin.t, i64 0, i64 %27
  store i32 %25, ptr addrspace(3) %28, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  br label %29

29:                                               ; preds = %16
  %30 = load i32, ptr %5, align 4, !tbaa !13
  %31 = add nsw i32 %30, 1
  store i32 %31, ptr %5, align 4, !tbaa !13
  br label %12

32:                                               ; preds = %15
  %33 = load i32, ptr %4, align 4, !tbaa !13
  %34 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %35 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %36 = getelementptr inbounds i32, ptr addrspace(1) %34, i64 %35
  store i32 %33, ptr addrspace(1) %36, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %4) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @escapes(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %4 = alloca ptr addrspace(3), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %5 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %6 = trunc i64 %5 to i32
  store i32 %6, ptr %3, align 4, !tbaa !13
  %7 = load i32, ptr %3, align 4, !tbaa !13
  %8 = load i32, ptr %3, align 4, !tbaa !13
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds [64 x i32], ptr addrspace(3) @escapes.t, i64 0, i64 %9
  store i32 %7, ptr addrspace(3) %10, align 4, !tbaa !13
  %11 = load i32, ptr %3, align 4, !tbaa !13
  %12 = load i32, ptr %3, align 4, !tbaa !13
  %13 = sext i32 %12 to i64
  %14 = getelementptr inbounds [64 x i32], ptr addrspace(3) @escapes.u, i64 0, i64 %13
  store i32 %11, ptr addrspace(3) %14, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 8, ptr %4) #4
  %15 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %16 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 0
  %17 = load i32, ptr addrspace(1) %16, align 4, !tbaa !13
  %18 = icmp ne i32 %17, 0
  br i1 %18, label %19, label %20

19:                                               ; preds = %1
  br label %21

20:                                               ; preds = %1
  br label %21

21:                                               ; preds = %20, %19
  %22 = phi ptr addrspace(3) [ @escapes.t, %19 ], [ @escapes.u, %20 ]
  store ptr addrspace(3) %22, ptr %4, align 8, !tbaa !9
  %23 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %24 = load i32, ptr %3, align 4, !tbaa !13
  %25 = sub nsw i32 63, %24
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds i32, ptr addrspace(3) %23, i64 %26
  %28 = load i32, ptr addrspace(3) %27, align 4, !tbaa !13
  %29 = load i32, ptr %3, align 4, !tbaa !13
  %30 = sub nsw i32 63, %29
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds [64 x i32], ptr addrspace(3) @escapes.t, i64 0, i64 %31
  %33 = load i32, ptr addrspace(3) %32, align 4, !tbaa !13
  %34 = add nsw i32 %28, %33
  %35 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %36 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %37 = getelementptr inbounds i32, ptr addrspace(1) %35, i64 %36
  store i32 %34, ptr addrspace(1) %37, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 8, ptr %4) #4
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
