; check-row-versioning: with MOSAIC_CHECK, each x loop of K.wg whose
; checker calls are all behind window tests (check-windows) or are the
; work-item's barrier call gets a copy without them (docs/check.md,
; "Speed"), taken for a row when the bytes every work-item of the row may
; reach there lie inside the windows, tested once before the row at the
; corners of x and of the loops of constant trip count inside; after the
; copy one call of __mosaic_check_barrier_row stands for the row's barrier
; calls.  An access of __local memory that runs once an iteration at an
; address moving with x alone is checked for the row at once before the
; copy, by one call of __mosaic_check_row, where its window test fails
; (its lanes 0 where it holds).  blur's first region (x[...] read, window 0; t[l] = at the own
; slot, window 10 at byte 160, checked for the row; the barrier) and
; its second (t[k] for k < 4, read where nothing writes t, window 9 at byte
; 144, its last element at k = 3; y[...] = at the own element, window 4 at
; byte 64) are versioned; last's second region writes y[get_group_id(0)]
; behind `if (l & 1)`, which has no window and is not a row, so it has no
; copy, but its barrier calls are still one call for the row, after the
; loop: a work-item's accesses are recorded with the epoch it had before
; its barrier, whichever barrier call comes first.
;   kernel void blur(global const float *x, global float *y, local float *t) {
;     size_t l = get_local_id(0);
;     t[l] = x[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     float s = 0.0f;
;     for (int k = 0; k < 4; k++)
;       s += t[k];
;     y[get_global_id(0)] = s;
;   }
;   kernel void last(global const float *x, global float *y, local float *t) {
;     size_t l = get_local_id(0);
;     t[l] = x[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     if (l & 1)
;       y[get_group_id(0)] = t[l];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     y[get_global_id(0)] = t[l];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-row-versioning %s | FileCheck %s
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-row-versioning %s | FileCheck %s --check-prefix=ONE
; RUN: env MOSAIC_CHECK= mosaic-opt --stop-after=check-row-versioning %s | FileCheck %s --check-prefix=OFF
; CHECK-LABEL: define void @blur.wg(
; the first region's test: ctx->check_windows (byte 224) not NULL, x's and t's windows
; CHECK: %row.windows{{[0-9]*}} = load ptr, ptr %{{[0-9]+}}, align 8
; CHECK-NEXT: icmp eq ptr %row.windows{{[0-9]*}}, null
; CHECK-NEXT: getelementptr i8, ptr %row.windows{{[0-9]*}}, i64 0
; CHECK: getelementptr i8, ptr %row.windows{{[0-9]*}}, i64 160
; CHECK: %row.count{{[0-9]*}} = add i64 %row.last{{[0-9]*}}, 1
; t's write (__local), checked for the row at once where its window fails;
; x's read (a buffer's, whose window is the launch's) only tested
; CHECK: %row.lanes{{[0-9]*}} = select i1 %{{[0-9]+}}, i64 %row.count{{[0-9]*}}, i64 0
; CHECK-NOT: ptr @__mosaic_check_site)
; CHECK: call void @__mosaic_check_row(ptr %ctx, i64 0, i64 %ly, i64 %lz, i64 %row.lanes{{[0-9]*}}, ptr null, ptr %{{[0-9]+}}, i64 %row.stride{{[0-9]*}}, ptr null, ptr null, i64 4, i64 {{[0-9]+}}, ptr @__mosaic_check_site.9)
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %[[COPY:x.version[0-9]+]], label %r0.x
; the copy: no checker call left, one for the row's barrier after it
; CHECK: [[COPY]]:
; CHECK-NOT: call void @__mosaic_check
; CHECK: row.barriers{{[0-9]*}}:
; CHECK-NEXT: call void @__mosaic_check_barrier_row(ptr %ctx, i64 0, i64 %ly, i64 %lz, i64 %row.count{{[0-9]*}}, ptr @__mosaic_check_site
; the second region's test: t from its element 0 to its element 3, y at window 4
; CHECK: getelementptr i8, ptr %row.windows{{[0-9]*}}, i64 144
; CHECK: %[[FIRST:[0-9]+]] = zext i32 0 to i64
; CHECK-NEXT: getelementptr float, ptr addrspace(3) %{{[0-9]+}}, i64 %[[FIRST]]
; CHECK: %[[LAST:[0-9]+]] = zext i32 3 to i64
; CHECK-NEXT: getelementptr float, ptr addrspace(3) %{{[0-9]+}}, i64 %[[LAST]]
; CHECK: getelementptr i8, ptr %row.windows{{[0-9]*}}, i64 64
; CHECK: br i1 %{{[0-9]+}}, label %[[COPY2:x.version[0-9]+]], label %{{r1.x|x.version[0-9]+}}
; CHECK: [[COPY2]]:
; CHECK-NOT: call void @__mosaic_check
; CHECK: br i1 %{{[0-9]+}}, label %[[COPY2]], label %r1.y.latch
; ONE-LABEL: define void @last.wg(
; ONE-NOT: call void @__mosaic_check_barrier(
; ONE: br i1 %{{[0-9]+}}, label %x.version{{[0-9]+}}, label %r0.x
; ONE-NOT: label %x.version{{[0-9]+}}, label %r1.x
; ONE: r1.latch:
; ONE: br i1 %{{[0-9]+}}, label %r1.x, label %[[AFTER:row.barriers[0-9]*]]
; ONE: [[AFTER]]:
; ONE-NEXT: call void @__mosaic_check_barrier_row(ptr %ctx, i64 0, i64 %ly{{[0-9]*}}, i64 %lz{{[0-9]*}}, i64 %row.count
; ONE-NOT: call void @__mosaic_check_barrier(
; ONE: {{^}}}
; OFF-NOT: row.windows
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @blur(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca float, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %10, ptr %7, align 8, !tbaa !13
  %11 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %13 = getelementptr inbounds float, ptr addrspace(1) %11, i64 %12
  %14 = load float, ptr addrspace(1) %13, align 4, !tbaa !15
  %15 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %16 = load i64, ptr %7, align 8, !tbaa !13
  %17 = getelementptr inbounds float, ptr addrspace(3) %15, i64 %16
  store float %14, ptr addrspace(3) %17, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  store float 0.000000e+00, ptr %8, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  store i32 0, ptr %9, align 4, !tbaa !17
  br label %18

18:                                               ; preds = %30, %3
  %19 = load i32, ptr %9, align 4, !tbaa !17
  %20 = icmp slt i32 %19, 4
  br i1 %20, label %22, label %21

21:                                               ; preds = %18
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  br label %33

22:                                               ; preds = %18
  %23 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %24 = load i32, ptr %9, align 4, !tbaa !17
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds float, ptr addrspace(3) %23, i64 %25
  %27 = load float, ptr addrspace(3) %26, align 4, !tbaa !15
  %28 = load float, ptr %8, align 4, !tbaa !15
  %29 = fadd float %28, %27
  store float %29, ptr %8, align 4, !tbaa !15
  br label %30

30:                                               ; preds = %22
  %31 = load i32, ptr %9, align 4, !tbaa !17
  %32 = add nsw i32 %31, 1
  store i32 %32, ptr %9, align 4, !tbaa !17
  br label %18

33:                                               ; preds = %21
  %34 = load float, ptr %8, align 4, !tbaa !15
  %35 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %36 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %37 = getelementptr inbounds float, ptr addrspace(1) %35, i64 %36
  store float %34, ptr addrspace(1) %37, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @last(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %8, ptr %7, align 8, !tbaa !13
  %9 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !15
  %13 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %14 = load i64, ptr %7, align 8, !tbaa !13
  %15 = getelementptr inbounds float, ptr addrspace(3) %13, i64 %14
  store float %12, ptr addrspace(3) %15, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %16 = load i64, ptr %7, align 8, !tbaa !13
  %17 = and i64 %16, 1
  %18 = icmp ne i64 %17, 0
  br i1 %18, label %19, label %27

19:                                               ; preds = %3
  %20 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %21 = load i64, ptr %7, align 8, !tbaa !13
  %22 = getelementptr inbounds float, ptr addrspace(3) %20, i64 %21
  %23 = load float, ptr addrspace(3) %22, align 4, !tbaa !15
  %24 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %25 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %26 = getelementptr inbounds float, ptr addrspace(1) %24, i64 %25
  store float %23, ptr addrspace(1) %26, align 4, !tbaa !15
  br label %27

27:                                               ; preds = %19, %3
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %28 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %29 = load i64, ptr %7, align 8, !tbaa !13
  %30 = getelementptr inbounds float, ptr addrspace(3) %28, i64 %29
  %31 = load float, ptr addrspace(3) %30, align 4, !tbaa !15
  %32 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %33 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %34 = getelementptr inbounds float, ptr addrspace(1) %32, i64 %33
  store float %31, ptr addrspace(1) %34, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"", !""}
!8 = !{!"x", !"y", !"t"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"int", !11, i64 0}
