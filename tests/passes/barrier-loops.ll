; barrier-loops: a loop with barriers whose iteration ends with memory
; accesses after its last barrier (n += count) gets a barrier on its back
; edge, so no work-item starts the next iteration (count = 0) before every
; work-item has finished this one.
;   kernel void k(global int *o, global const int *a, int steps)
;   { local int count; int n = 0;
;     for (int s = 0; s < steps; s++) {
;       if (get_local_id(0) == 0) count = 0;
;       barrier(CLK_LOCAL_MEM_FENCE);
;       atomic_add(&count, a[get_global_id(0) + s]);
;       barrier(CLK_LOCAL_MEM_FENCE);
;       n += count; }
;     o[get_global_id(0)] = n; }
; RUN: mosaic-opt --stop-after=barrier-loops --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: [[HEAD:[0-9]+]]:{{.*}}preds =
; CHECK: call void @__mosaic_barrier(
; CHECK: call void @__mosaic_barrier(
; CHECK-NOT: call void @__mosaic_barrier(
; CHECK: br label %[[HEAD]]
; CHECK-LABEL: ;; after barrier-loops
; CHECK-LABEL: define internal void @k.body(
; CHECK: [[HEAD:[0-9]+]]:{{.*}}preds =
; CHECK: call void @__mosaic_barrier(
; CHECK: call void @__mosaic_barrier(
; CHECK: load i32, ptr addrspace(3)
; CHECK: call void @__mosaic_barrier(
; CHECK-NEXT: br label %[[HEAD]]

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@k.count = internal addrspace(3) global i32 undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  store i32 0, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  store i32 0, ptr %8, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %30, %3
  %10 = load i32, ptr %8, align 4, !tbaa !13
  %11 = load i32, ptr %6, align 4, !tbaa !13
  %12 = icmp slt i32 %10, %11
  br i1 %12, label %14, label %13

13:                                               ; preds = %9
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  br label %33

14:                                               ; preds = %9
  %15 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %16 = icmp eq i64 %15, 0
  br i1 %16, label %17, label %18

17:                                               ; preds = %14
  store i32 0, ptr addrspace(3) @k.count, align 4, !tbaa !13
  br label %18

18:                                               ; preds = %17, %14
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %19 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %20 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %21 = load i32, ptr %8, align 4, !tbaa !13
  %22 = sext i32 %21 to i64
  %23 = add i64 %20, %22
  %24 = getelementptr inbounds i32, ptr addrspace(1) %19, i64 %23
  %25 = load i32, ptr addrspace(1) %24, align 4, !tbaa !13
  %26 = call spir_func i32 @_Z10atomic_addPU3AS3Vii(ptr addrspace(3) noundef @k.count, i32 noundef %25) #6
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %27 = load i32, ptr addrspace(3) @k.count, align 4, !tbaa !13
  %28 = load i32, ptr %7, align 4, !tbaa !13
  %29 = add nsw i32 %28, %27
  store i32 %29, ptr %7, align 4, !tbaa !13
  br label %30

30:                                               ; preds = %18
  %31 = load i32, ptr %8, align 4, !tbaa !13
  %32 = add nsw i32 %31, 1
  store i32 %32, ptr %8, align 4, !tbaa !13
  br label %9

33:                                               ; preds = %13
  %34 = load i32, ptr %7, align 4, !tbaa !13
  %35 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %36 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %37 = getelementptr inbounds i32, ptr addrspace(1) %35, i64 %36
  store i32 %34, ptr addrspace(1) %37, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_addPU3AS3Vii(ptr addrspace(3) noundef, i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

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
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"int*", !"int*", !"int"}
!7 = !{!"", !"const", !""}
!8 = !{!"o", !"a", !"steps"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
