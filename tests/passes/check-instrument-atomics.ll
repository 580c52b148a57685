; check-instrument: __local atomics with nothing else of their array
; between the same two barriers (docs/check.md, "__local accesses that
; cannot race"): a histogram's increments.  Atomics of work-group scope or
; wider cannot race with each other nor break a scope, so in counts the
; increment is marked MOSAIC_CHECK_LOCAL_ATOMICS_ONLY (bit 62) with the
; array's first window (7: 3 * 2 arguments, + 1); in beside a plain read of
; the array runs between the same barriers: neither is marked.  The atomic
; reaches the array through an integer and back (the builtin's cast to a
; generic pointer), which still counts as the array's.
;   kernel void counts(global const uchar *data, global uint *hist) {
;     local uint h[256];
;     uint l = get_local_id(0);
;     h[l] = 0;
;     barrier(CLK_LOCAL_MEM_FENCE);
;     atomic_inc(&h[data[get_global_id(0)]]);
;     barrier(CLK_LOCAL_MEM_FENCE);
;     hist[get_global_id(0)] = h[l];
;   }
;   kernel void beside(...) { the same without the second barrier }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-instrument %s | FileCheck %s
; CHECK-LABEL: define {{.*}} @counts(
; h[l] = 0: own slot
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2315131683445014786, ptr
; the increment: ATOMICS_ONLY, window 7
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 4619848792751866167, ptr
; CHECK-NEXT: atomicrmw add
; h[l] read after the second barrier: NO_WRITER
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 1161084278931325185, ptr
; CHECK-LABEL: define {{.*}} @beside(
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2315131683445014786, ptr
; the increment and the read: not marked
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 8162774324478263, ptr
; CHECK-NEXT: atomicrmw add
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 8162774324478209, ptr
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@counts.h = internal addrspace(3) global [256 x i32] undef, align 4
@beside.h = internal addrspace(3) global [256 x i32] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @counts(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %5, align 4, !tbaa !13
  %8 = load i32, ptr %5, align 4, !tbaa !13
  %9 = zext i32 %8 to i64
  %10 = getelementptr inbounds [256 x i32], ptr addrspace(3) @counts.h, i64 0, i64 %9
  store i32 0, ptr addrspace(3) %10, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %11 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %13 = getelementptr inbounds i8, ptr addrspace(1) %11, i64 %12
  %14 = load i8, ptr addrspace(1) %13, align 1, !tbaa !15
  %15 = zext i8 %14 to i64
  %16 = getelementptr inbounds [256 x i32], ptr addrspace(3) @counts.h, i64 0, i64 %15
  %17 = call spir_func i32 @_Z10atomic_incPU3AS3Vj(ptr addrspace(3) noundef %16) #6
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %18 = load i32, ptr %5, align 4, !tbaa !13
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds [256 x i32], ptr addrspace(3) @counts.h, i64 0, i64 %19
  %21 = load i32, ptr addrspace(3) %20, align 4, !tbaa !13
  %22 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %23 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %24 = getelementptr inbounds i32, ptr addrspace(1) %22, i64 %23
  store i32 %21, ptr addrspace(1) %24, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_incPU3AS3Vj(ptr addrspace(3) noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @beside(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %7 = trunc i64 %6 to i32
  store i32 %7, ptr %5, align 4, !tbaa !13
  %8 = load i32, ptr %5, align 4, !tbaa !13
  %9 = zext i32 %8 to i64
  %10 = getelementptr inbounds [256 x i32], ptr addrspace(3) @beside.h, i64 0, i64 %9
  store i32 0, ptr addrspace(3) %10, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %11 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %13 = getelementptr inbounds i8, ptr addrspace(1) %11, i64 %12
  %14 = load i8, ptr addrspace(1) %13, align 1, !tbaa !15
  %15 = zext i8 %14 to i64
  %16 = getelementptr inbounds [256 x i32], ptr addrspace(3) @beside.h, i64 0, i64 %15
  %17 = call spir_func i32 @_Z10atomic_incPU3AS3Vj(ptr addrspace(3) noundef %16) #6
  %18 = load i32, ptr %5, align 4, !tbaa !13
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds [256 x i32], ptr addrspace(3) @beside.h, i64 0, i64 %19
  %21 = load i32, ptr addrspace(3) %20, align 4, !tbaa !13
  %22 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %23 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %24 = getelementptr inbounds i32, ptr addrspace(1) %22, i64 %23
  store i32 %21, ptr addrspace(1) %24, align 4, !tbaa !13
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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"uchar*", !"uint*"}
!7 = !{!"const", !""}
!8 = !{!"data", !"hist"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
