; work-group-function: a kernel widened whole with a guard ("if (x >= w)
; return;") reads and writes its row unmasked where every lane of the row
; stayed, and under the guard's mask only in the rows it cuts: each access
; under the guard's mask branches on whether all its lanes are on (a
; masked store, and a mirrored access's reversed mask, cost more than a
; plain vector access).  The mirrored store is one vector store from the
; last lane's element either way, never a scatter.
;   kernel void flip(global const uchar *src, global uchar *dst, int w)
;   { int x = get_global_id(0); if (x >= w) return;
;     for (int y = 0; y < 4; y++) dst[y * w + w - 1 - x] = src[y * w + x]; }
; RUN: MOSAIC_DEBUG=build mosaic-opt --stop-after=work-group-function %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=SAYS
; RUN: FileCheck %s < %t.ll
; SAYS: mosaic: kernel flip.wi: widened whole, 128 work-items of a row at once
; CHECK-LABEL: define internal void @flip.wi.vec(
; CHECK-NOT: scatter
; CHECK-NOT: gather
; CHECK: [[STAY:%[0-9]+]] = icmp slt <128 x i32>
; CHECK-NEXT: call i1 @llvm.vector.reduce.or.v128i1(<128 x i1> [[STAY]])
; CHECK-NEXT: [[ALL:%[0-9]+]] = call i1 @llvm.vector.reduce.and.v128i1(<128 x i1> [[STAY]])
; CHECK: br i1 [[ALL]], label %lanes.all, label %lanes.some
; CHECK: lanes.all:
; CHECK-NEXT: [[PLAIN:%[0-9]+]] = load <128 x i8>, ptr addrspace(1) [[SRC:%[0-9]+]], align 1
; CHECK-NEXT: br label %lanes.joined
; CHECK: lanes.some:
; CHECK-NEXT: [[MASKED:%[0-9]+]] = call <128 x i8> @llvm.masked.load.v128i8.p1(ptr addrspace(1) [[SRC]], i32 1, <128 x i1> [[STAY]],
; CHECK: lanes.joined:
; CHECK-NEXT: [[ROW:%[0-9]+]] = phi <128 x i8> [ [[PLAIN]], %lanes.all ], [ [[MASKED]], %lanes.some ]
; CHECK: br i1 [[ALL]], label %[[ALL_ST:lanes.all[0-9]+]], label %[[SOME_ST:lanes.some[0-9]+]]
; CHECK: [[ALL_ST]]:
; CHECK-NEXT: %mirrored = getelementptr i8, ptr addrspace(1) %{{[0-9]+}}, i64 -127
; CHECK-NEXT: %reversed = shufflevector <128 x i8> [[ROW]]
; CHECK-NEXT: store <128 x i8> %reversed, ptr addrspace(1) %mirrored, align 1
; CHECK: [[SOME_ST]]:
; CHECK: call void @llvm.masked.store.v128i8.p1(
; CHECK-LABEL: define internal void @flip.wi.tail(
; CHECK: call i1 @llvm.vector.reduce.and.v16i1(
; CHECK: lanes.all:
; CHECK-NEXT: load <16 x i8>

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @flip(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %7, align 4, !tbaa !13
  %12 = load i32, ptr %7, align 4, !tbaa !13
  %13 = load i32, ptr %6, align 4, !tbaa !13
  %14 = icmp sge i32 %12, %13
  br i1 %14, label %15, label %16

15:                                               ; preds = %3
  store i32 1, ptr %8, align 4
  br label %46

16:                                               ; preds = %3
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  store i32 0, ptr %9, align 4, !tbaa !13
  br label %17

17:                                               ; preds = %42, %16
  %18 = load i32, ptr %9, align 4, !tbaa !13
  %19 = icmp slt i32 %18, 4
  br i1 %19, label %21, label %20

20:                                               ; preds = %17
  store i32 2, ptr %8, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  br label %45

21:                                               ; preds = %17
  %22 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %23 = load i32, ptr %9, align 4, !tbaa !13
  %24 = load i32, ptr %6, align 4, !tbaa !13
  %25 = mul nsw i32 %23, %24
  %26 = load i32, ptr %7, align 4, !tbaa !13
  %27 = add nsw i32 %25, %26
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds i8, ptr addrspace(1) %22, i64 %28
  %30 = load i8, ptr addrspace(1) %29, align 1, !tbaa !15
  %31 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %32 = load i32, ptr %9, align 4, !tbaa !13
  %33 = load i32, ptr %6, align 4, !tbaa !13
  %34 = mul nsw i32 %32, %33
  %35 = load i32, ptr %6, align 4, !tbaa !13
  %36 = add nsw i32 %34, %35
  %37 = sub nsw i32 %36, 1
  %38 = load i32, ptr %7, align 4, !tbaa !13
  %39 = sub nsw i32 %37, %38
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds i8, ptr addrspace(1) %31, i64 %40
  store i8 %30, ptr addrspace(1) %41, align 1, !tbaa !15
  br label %42

42:                                               ; preds = %21
  %43 = load i32, ptr %9, align 4, !tbaa !13
  %44 = add nsw i32 %43, 1
  store i32 %44, ptr %9, align 4, !tbaa !13
  br label %17

45:                                               ; preds = %20
  store i32 0, ptr %8, align 4
  br label %46

46:                                               ; preds = %45, %15
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  %47 = load i32, ptr %8, align 4
  switch i32 %47, label %49 [
    i32 0, label %48
    i32 1, label %48
  ]

48:                                               ; preds = %46, %46
  ret void

49:                                               ; preds = %46
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nounwind }
attributes #4 = { convergent nounwind willreturn memory(none) }

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
