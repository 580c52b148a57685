; work-group-function: a persistent-threads loop (a ticket each iteration,
; spin_loops.c) around a work-item's loop of its own is widened whole
; (wfv.c): one atomic add of the running lanes' count for the row, each
; lane the old value plus the running lanes below it (a prefix sum of the
; mask), and the inner loop masked within the lanes still in the outer one.
; Seen in K.tail (8 lanes of the widest value, an i64 index).
;   kernel void tickets(global const int *cnt, global int *out, global int *next, int n)
;   { int i; while ((i = atomic_inc(next)) < n) { int k = 0, c = cnt[i];
;       while (k < c) k += 3; out[i] = k; } }
; RUN: mosaic-opt --stop-after=work-group-function %s | FileCheck %s
; CHECK-LABEL: define internal void @tickets.wi.tail(
; CHECK: %lanes.tail = icmp ult <8 x i64>
; CHECK: %lanes.in = phi <8 x i1> [ %lanes.go_on, %{{[0-9]+}} ], [ %lanes.tail, %{{[0-9]+}} ]
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: [[NEXT:%[0-9]+]] = inttoptr
; CHECK-NEXT: [[ONES:%[0-9]+]] = zext <8 x i1> %lanes.in to <8 x i32>
; CHECK-NEXT: shufflevector <8 x i32> zeroinitializer, <8 x i32> [[ONES]], <8 x i32> <i32 0, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14>
; CHECK: shufflevector <8 x i32> zeroinitializer, <8 x i32> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
; CHECK-NEXT: [[SUM:%[0-9]+]] = add <8 x i32>
; CHECK-NEXT: %running = extractelement <8 x i32> [[SUM]], i32 7
; CHECK-NEXT: %below = sub <8 x i32> [[SUM]], [[ONES]]
; CHECK-NEXT: [[TOTAL:%[0-9]+]] = mul i32 %running, 1
; CHECK-NEXT: [[OLD:%[0-9]+]] = atomicrmw add ptr addrspace(4) [[NEXT]], i32 [[TOTAL]] seq_cst
; CHECK-NOT: atomicrmw
; CHECK: %ticket = add <8 x i32>
; CHECK: icmp slt <8 x i32> %ticket
; CHECK: %lanes.in1 = phi <8 x i1> [ %lanes.go_on2, %{{[0-9]+}} ], [ %lanes.go_on, %{{[0-9]+}} ]
; CHECK-LABEL: define void @tickets.wg(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tickets(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %7, align 8, !tbaa !9
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  br label %12

12:                                               ; preds = %30, %4
  %13 = load ptr addrspace(1), ptr %7, align 8, !tbaa !9
  %14 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef %13) #4
  store i32 %14, ptr %9, align 4, !tbaa !13
  %15 = load i32, ptr %8, align 4, !tbaa !13
  %16 = icmp slt i32 %14, %15
  br i1 %16, label %17, label %36

17:                                               ; preds = %12
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  store i32 0, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #3
  %18 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %19 = load i32, ptr %9, align 4, !tbaa !13
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr addrspace(1) %18, i64 %20
  %22 = load i32, ptr addrspace(1) %21, align 4, !tbaa !13
  store i32 %22, ptr %11, align 4, !tbaa !13
  br label %23

23:                                               ; preds = %27, %17
  %24 = load i32, ptr %10, align 4, !tbaa !13
  %25 = load i32, ptr %11, align 4, !tbaa !13
  %26 = icmp slt i32 %24, %25
  br i1 %26, label %27, label %30

27:                                               ; preds = %23
  %28 = load i32, ptr %10, align 4, !tbaa !13
  %29 = add nsw i32 %28, 3
  store i32 %29, ptr %10, align 4, !tbaa !13
  br label %23

30:                                               ; preds = %23
  %31 = load i32, ptr %10, align 4, !tbaa !13
  %32 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %33 = load i32, ptr %9, align 4, !tbaa !13
  %34 = sext i32 %33 to i64
  %35 = getelementptr inbounds i32, ptr addrspace(1) %32, i64 %34
  store i32 %31, ptr addrspace(1) %35, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  br label %12

36:                                               ; preds = %12
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nounwind }
attributes #4 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"int*", !"int*", !"int*", !"int"}
!7 = !{!"const", !"", !"", !""}
!8 = !{!"cnt", !"out", !"next", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
