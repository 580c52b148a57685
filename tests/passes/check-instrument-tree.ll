; check-instrument: a tree reduction's accesses of its __local array,
; `if (l < s) t[l] += t[l + s]` between barriers (docs/check.md, "__local
; accesses that cannot race"): the work-items that write are those below s,
; each at its own element; the element l + s is read by a work-item below
; s, so it is not one a work-item below s writes.  With s the same for the
; whole group (a phi of quotients of the group's size) and a barrier on
; every way round the loop, no access of the loop can race: reads and write
; are marked MOSAIC_CHECK_LOCAL_OWN_SLOT (bit 61, window 11: 3 * 3
; arguments, then the array's second).  The read of t[0] after the loop, by
; work-item 0 only, is not an own slot: it keeps its call (window 10).  In
; past the test is l <= s: work-item s writes t[s], which work-item 0 reads
; as t[0 + s]: neither is marked (only the read of t[l] is: every write
; stays at its own slot).
;   kernel void reduce(global const float *x, global float *partial, local float *scratch) {
;     size_t l = get_local_id(0), n = get_local_size(0);
;     scratch[l] = x[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     for (size_t s = n / 2; s > 0; s /= 2) {
;       if (l < s)
;         scratch[l] += scratch[l + s];
;       barrier(CLK_LOCAL_MEM_FENCE);
;     }
;     if (l == 0)
;       partial[get_group_id(0)] = scratch[0];
;   }
;   kernel void past(global float *partial, local float *t) { ... if (l <= s) t[l] += t[l + s]; ... }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; CHECK-LABEL: define {{.*}} @reduce(
; scratch[l] = (before the loop): own slot, a write
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2318227908189094146, ptr
; scratch[l + s], scratch[l]: own slots, reads; scratch[l] =: a write
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2318227908189094145, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2318227908189094145, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2318227908189094146, ptr
; scratch[0] after the loop: not marked
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 11258999068557569, ptr
; CHECK-LABEL: define {{.*}} @past(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2314850208468500738, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 7881299347964161, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2314850208468500737, ptr
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 7881299347964162, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @reduce(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  %9 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %10, ptr %7, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %8) #4
  %11 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  store i64 %11, ptr %8, align 8, !tbaa !13
  %12 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %14 = getelementptr inbounds float, ptr addrspace(1) %12, i64 %13
  %15 = load float, ptr addrspace(1) %14, align 4, !tbaa !15
  %16 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %17 = load i64, ptr %7, align 8, !tbaa !13
  %18 = getelementptr inbounds float, ptr addrspace(3) %16, i64 %17
  store float %15, ptr addrspace(3) %18, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 8, ptr %9) #4
  %19 = load i64, ptr %8, align 8, !tbaa !13
  %20 = udiv i64 %19, 2
  store i64 %20, ptr %9, align 8, !tbaa !13
  br label %21

21:                                               ; preds = %42, %3
  %22 = load i64, ptr %9, align 8, !tbaa !13
  %23 = icmp ugt i64 %22, 0
  br i1 %23, label %25, label %24

24:                                               ; preds = %21
  call void @llvm.lifetime.end.p0(i64 8, ptr %9) #4
  br label %45

25:                                               ; preds = %21
  %26 = load i64, ptr %7, align 8, !tbaa !13
  %27 = load i64, ptr %9, align 8, !tbaa !13
  %28 = icmp ult i64 %26, %27
  br i1 %28, label %29, label %41

29:                                               ; preds = %25
  %30 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %31 = load i64, ptr %7, align 8, !tbaa !13
  %32 = load i64, ptr %9, align 8, !tbaa !13
  %33 = add i64 %31, %32
  %34 = getelementptr inbounds float, ptr addrspace(3) %30, i64 %33
  %35 = load float, ptr addrspace(3) %34, align 4, !tbaa !15
  %36 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %37 = load i64, ptr %7, align 8, !tbaa !13
  %38 = getelementptr inbounds float, ptr addrspace(3) %36, i64 %37
  %39 = load float, ptr addrspace(3) %38, align 4, !tbaa !15
  %40 = fadd float %39, %35
  store float %40, ptr addrspace(3) %38, align 4, !tbaa !15
  br label %41

41:                                               ; preds = %29, %25
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  br label %42

42:                                               ; preds = %41
  %43 = load i64, ptr %9, align 8, !tbaa !13
  %44 = udiv i64 %43, 2
  store i64 %44, ptr %9, align 8, !tbaa !13
  br label %21

45:                                               ; preds = %24
  %46 = load i64, ptr %7, align 8, !tbaa !13
  %47 = icmp eq i64 %46, 0
  br i1 %47, label %48, label %55

48:                                               ; preds = %45
  %49 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %50 = getelementptr inbounds float, ptr addrspace(3) %49, i64 0
  %51 = load float, ptr addrspace(3) %50, align 4, !tbaa !15
  %52 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %53 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %54 = getelementptr inbounds float, ptr addrspace(1) %52, i64 %53
  store float %51, ptr addrspace(1) %54, align 4, !tbaa !15
  br label %55

55:                                               ; preds = %48, %45
  call void @llvm.lifetime.end.p0(i64 8, ptr %8) #4
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @past(ptr addrspace(1) noundef align 4 %0, ptr addrspace(3) noundef align 4 %1) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(3), align 8
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(3) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %5) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %8, ptr %5, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %6) #4
  %9 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  store i64 %9, ptr %6, align 8, !tbaa !13
  %10 = load i64, ptr %5, align 8, !tbaa !13
  %11 = uitofp i64 %10 to float
  %12 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %13 = load i64, ptr %5, align 8, !tbaa !13
  %14 = getelementptr inbounds float, ptr addrspace(3) %12, i64 %13
  store float %11, ptr addrspace(3) %14, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %15 = load i64, ptr %6, align 8, !tbaa !13
  %16 = udiv i64 %15, 2
  store i64 %16, ptr %7, align 8, !tbaa !13
  br label %17

17:                                               ; preds = %38, %2
  %18 = load i64, ptr %7, align 8, !tbaa !13
  %19 = icmp ugt i64 %18, 0
  br i1 %19, label %21, label %20

20:                                               ; preds = %17
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  br label %41

21:                                               ; preds = %17
  %22 = load i64, ptr %5, align 8, !tbaa !13
  %23 = load i64, ptr %7, align 8, !tbaa !13
  %24 = icmp ule i64 %22, %23
  br i1 %24, label %25, label %37

25:                                               ; preds = %21
  %26 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %27 = load i64, ptr %5, align 8, !tbaa !13
  %28 = load i64, ptr %7, align 8, !tbaa !13
  %29 = add i64 %27, %28
  %30 = getelementptr inbounds float, ptr addrspace(3) %26, i64 %29
  %31 = load float, ptr addrspace(3) %30, align 4, !tbaa !15
  %32 = load ptr addrspace(3), ptr %4, align 8, !tbaa !9
  %33 = load i64, ptr %5, align 8, !tbaa !13
  %34 = getelementptr inbounds float, ptr addrspace(3) %32, i64 %33
  %35 = load float, ptr addrspace(3) %34, align 4, !tbaa !15
  %36 = fadd float %35, %31
  store float %36, ptr addrspace(3) %34, align 4, !tbaa !15
  br label %37

37:                                               ; preds = %25, %21
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  br label %38

38:                                               ; preds = %37
  %39 = load i64, ptr %7, align 8, !tbaa !13
  %40 = udiv i64 %39, 2
  store i64 %40, ptr %7, align 8, !tbaa !13
  br label %17

41:                                               ; preds = %20
  call void @llvm.lifetime.end.p0(i64 8, ptr %6) #4
  call void @llvm.lifetime.end.p0(i64 8, ptr %5) #4
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
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"", !""}
!8 = !{!"x", !"partial", !"scratch"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{i32 1, i32 3}
!18 = !{!"none", !"none"}
!19 = !{!"float*", !"float*"}
!20 = !{!"", !""}
!21 = !{!"partial", !"t"}
