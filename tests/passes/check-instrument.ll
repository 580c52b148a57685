; check-instrument: with MOSAIC_CHECK, a call of the checker before each
; access of memory and each barrier (docs/check.md): `how` (the second i64
; after the address) packs the access (1 read, 2 write, 4 atomic), an
; atomic's scope << 4, the memory << 8 (0 global, 1 local, 3 private) and
; where the pointer comes from << 16 (the kernel argument's index;
; 0xfffffffe a variable or private array, given as `base` with its size in
; the site; 0xffffffff not known: a helper's parameter).  An access of a
; __local object only the kernel reaches (t, l) has its window's index + 1
; << 50 (2 per kernel argument first, then 2 per object: t's are 4 and 5,
; l's 6 and 7); a read of one where no write of it runs between the same
; two barriers bit 60 (t[15 - i], after the barrier; l[i], never written;
; the first window), and an access whose neighbours between the same
; barriers are all at the work-item's own slot bit 61 (t[i] =, at 4 bytes
; times get_local_id(0), which its site gives; the second window).  Without
; MOSAIC_CHECK the pass does nothing; with MOSAIC_CHECK=bounds no barrier
; is checked.
;   __attribute__((noinline)) int get(global int *p, int i) { return p[i]; }
;   kernel void k(global int *a, local int *l) {
;     local int t[16];
;     int p[4] = {1, 2, 3, 4};
;     int i = get_local_id(0);
;     t[i] = a[i];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     p[a[i] & 3] = t[15 - i];
;     atomic_fetch_add_explicit((volatile global atomic_int *)a, p[0], memory_order_relaxed, memory_scope_work_group);
;     a[i] = get(a, i + 1) + l[i];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; RUN: env MOSAIC_CHECK= mosaic-opt --stop-after=check-instrument %s | FileCheck %s --check-prefix=OFF
; RUN: env MOSAIC_CHECK=bounds mosaic-opt --stop-after=check-instrument %s | FileCheck %s --check-prefix=BOUNDS
; the sites of t[i] = (the first of t's) and of p[...] = (a private array of 16 bytes)
; CHECK: [[T:@__mosaic_check_site[.0-9]*]] = private constant %mosaic_check_site { ptr @{{.*}}, ptr null, i32 0, i32 0, ptr @{{.*}}, i64 64, [3 x i64] [i64 4, i64 0, i64 0], i64 4, i64 0, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK: [[P:@__mosaic_check_site[.0-9]*]] = private constant %mosaic_check_site { ptr @{{.*}}, ptr null, i32 0, i32 0, ptr null, i64 16, [3 x i64] zeroinitializer, i64 0, i64 0, [2 x [9 x i64]] zeroinitializer, i64 0, ptr null }
; CHECK-LABEL: define internal i32 @get(
; CHECK: call void @__mosaic_check_access({{.*}}, ptr null, i64 4, i64 281474976645121, ptr @__mosaic_check_site)
; CHECK-LABEL: define dso_local void @k(
; CHECK: %check.scratch = alloca [128 x i8], align 64
; a[i]: a read of argument 0
; CHECK: call void @__mosaic_check_access({{.*}}, ptr null, i64 4, i64 1, ptr
; t[i] = : a write of the __local variable t, 64 bytes, at its own slot (0x2018fffffffe0102)
; CHECK: call void @__mosaic_check_access({{.*}}, ptr addrspacecast (ptr addrspace(3) @k.t to ptr), i64 4, i64 2315131683445014786, ptr [[T]])
; CHECK: call void @__mosaic_check_barrier(
; CHECK-NEXT: call void @__mosaic_barrier(
; t[15 - i]: a read of t with no write beside it (0x1014fffffffe0101)
; CHECK: i64 1161084278931325185, ptr
; p[a[i] & 3] = : a write of a private array of 16 bytes, which goes to a
; scratch slot when out of bounds (once reported) instead of the worker's stack
; CHECK: i64 4, i64 281474976580354, ptr [[P]])
; CHECK: %check.inside = select i1 %{{.*}}, ptr %{{.*}}, ptr %check.scratch
; CHECK-NEXT: store i32 %{{.*}}, ptr %check.inside
; the atomic: read, write, atomic, work-group scope, argument 0
; CHECK: call void @__mosaic_check_access({{.*}}, ptr null, i64 4, i64 23, ptr
; CHECK-NEXT: atomicrmw add
; l[i]: a read of argument 1, __local, that nothing writes (0x101c000000010101)
; CHECK: call void @__mosaic_check_access({{.*}}, ptr null, i64 4, i64 1163054603768496385, ptr
; OFF-NOT: __mosaic_check
; BOUNDS-NOT: call void @__mosaic_check_barrier
; BOUNDS: call void @__mosaic_check_access(
; BOUNDS-NOT: call void @__mosaic_check_barrier

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@k.t = internal addrspace(3) global [16 x i32] undef, align 4
@__const.k.p = private unnamed_addr addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func i32 @get(ptr addrspace(1) noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !4
  store i32 %1, ptr %4, align 4, !tbaa !8
  %5 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %6 = load i32, ptr %4, align 4, !tbaa !8
  %7 = sext i32 %6 to i64
  %8 = getelementptr inbounds i32, ptr addrspace(1) %5, i64 %7
  %9 = load i32, ptr addrspace(1) %8, align 4, !tbaa !8
  ret i32 %9
}

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(3) noundef align 4 %1) #1 !kernel_arg_addr_space !10 !kernel_arg_access_qual !11 !kernel_arg_type !12 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !kernel_arg_name !14 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(3), align 8
  %5 = alloca [4 x i32], align 4
  %6 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !4
  store ptr addrspace(3) %1, ptr %4, align 8, !tbaa !4
  call void @llvm.lifetime.start.p0(i64 16, ptr %5) #6
  call void @llvm.memcpy.p0.p2.i64(ptr align 4 %5, ptr addrspace(2) align 4 @__const.k.p, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #6
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #7
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr %6, align 4, !tbaa !8
  %9 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %10 = load i32, ptr %6, align 4, !tbaa !8
  %11 = sext i32 %10 to i64
  %12 = getelementptr inbounds i32, ptr addrspace(1) %9, i64 %11
  %13 = load i32, ptr addrspace(1) %12, align 4, !tbaa !8
  %14 = load i32, ptr %6, align 4, !tbaa !8
  %15 = sext i32 %14 to i64
  %16 = getelementptr inbounds [16 x i32], ptr addrspace(3) @k.t, i64 0, i64 %15
  store i32 %13, ptr addrspace(3) %16, align 4, !tbaa !8
  call spir_func void @_Z7barrierj(i32 noundef 1) #8
  %17 = load i32, ptr %6, align 4, !tbaa !8
  %18 = sub nsw i32 15, %17
  %19 = sext i32 %18 to i64
  %20 = getelementptr inbounds [16 x i32], ptr addrspace(3) @k.t, i64 0, i64 %19
  %21 = load i32, ptr addrspace(3) %20, align 4, !tbaa !8
  %22 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %23 = load i32, ptr %6, align 4, !tbaa !8
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds i32, ptr addrspace(1) %22, i64 %24
  %26 = load i32, ptr addrspace(1) %25, align 4, !tbaa !8
  %27 = and i32 %26, 3
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 %28
  store i32 %21, ptr %29, align 4, !tbaa !8
  %30 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %31 = addrspacecast ptr addrspace(1) %30 to ptr addrspace(4)
  %32 = getelementptr inbounds [4 x i32], ptr %5, i64 0, i64 0
  %33 = load i32, ptr %32, align 4, !tbaa !8
  %34 = call spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4) noundef %31, i32 noundef %33, i32 noundef 0, i32 noundef 1) #8
  %35 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %36 = load i32, ptr %6, align 4, !tbaa !8
  %37 = add nsw i32 %36, 1
  %38 = call spir_func i32 @get(ptr addrspace(1) noundef %35, i32 noundef %37) #8
  %39 = load ptr addrspace(3), ptr %4, align 8, !tbaa !4
  %40 = load i32, ptr %6, align 4, !tbaa !8
  %41 = sext i32 %40 to i64
  %42 = getelementptr inbounds i32, ptr addrspace(3) %39, i64 %41
  %43 = load i32, ptr addrspace(3) %42, align 4, !tbaa !8
  %44 = add nsw i32 %38, %43
  %45 = load ptr addrspace(1), ptr %3, align 8, !tbaa !4
  %46 = load i32, ptr %6, align 4, !tbaa !8
  %47 = sext i32 %46 to i64
  %48 = getelementptr inbounds i32, ptr addrspace(1) %45, i64 %47
  store i32 %44, ptr addrspace(1) %48, align 4, !tbaa !8
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %5) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p2.i64(ptr noalias nocapture writeonly, ptr addrspace(2) noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #4

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #5

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4) noundef, i32 noundef, i32 noundef, i32 noundef) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #5 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #6 = { nounwind }
attributes #7 = { convergent nounwind willreturn memory(none) }
attributes #8 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"any pointer", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !6, i64 0}
!10 = !{i32 1, i32 3}
!11 = !{!"none", !"none"}
!12 = !{!"int*", !"int*"}
!13 = !{!"", !""}
!14 = !{!"a", !"l"}
