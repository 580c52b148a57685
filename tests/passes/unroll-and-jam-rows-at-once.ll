; unroll-and-jam: in a build for 8x32 groups, rows of 8 floats widened 2
; rows at once (wfv_rows.c: the y loop of the region after the barrier
; steps by 2, and LLVM tests the counter itself, not its next value), a
; chain of 15 multiply-adds a row: 8 rows an iteration, interleaved (rows
; ly+2 .. ly+14), the counter stepping by 16 and its test moved back by
; the 7 rows it now runs ahead.
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --one-size=poly:8,32,1 --stop-after=unroll-and-jam --print-before %s | FileCheck %s
; CHECK-LABEL: define void @poly.wg(
; CHECK: r1.y:
; CHECK-NEXT: %ly2 = phi i64 [ [[NEXT:%[0-9]+]], %r1.y ], [ 0, %entry ]
; CHECK-COUNT-15: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK: [[NEXT]] = add nuw nsw i64 %ly2, 2
; CHECK-NEXT: icmp ult i64 %ly2, 30
; CHECK-LABEL: ;; after unroll-and-jam
; CHECK-LABEL: define void @poly.wg(
; CHECK: r1.y:
; CHECK-NEXT: %ly2 = phi i64 [ [[NEXT:%[0-9]+]], %r1.y ], [ 0, %entry ]
; CHECK: %row = add nuw i64 %ly2, 2
; CHECK: %row{{[0-9]+}} = add nuw i64 %ly2, 14
; CHECK-COUNT-120: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK: [[NEXT]] = add nuw nsw i64 %ly2, 16
; CHECK-NEXT: icmp ult i64 %ly2, 16
; The front end's module of:
;   kernel void poly(global const float *a, global float *c) {
;     local float t[32][8];
;     int lx = get_local_id(0), ly = get_local_id(1);
;     t[ly][lx] = a[get_global_id(1) * get_global_size(0) + get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     float v = t[31 - ly][lx], s = 1.0f;
;     #pragma unroll
;     for (int k = 0; k < 16; k++)
;       s = s * v + (float)k;
;     c[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s;
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@poly.t = internal addrspace(3) global [32 x [8 x float]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @poly(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca float, align 4
  %8 = alloca float, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #5
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #5
  %12 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %6, align 4, !tbaa !13
  %14 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %16 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #6
  %17 = mul i64 %15, %16
  %18 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %19 = add i64 %17, %18
  %20 = getelementptr inbounds float, ptr addrspace(1) %14, i64 %19
  %21 = load float, ptr addrspace(1) %20, align 4, !tbaa !15
  %22 = load i32, ptr %6, align 4, !tbaa !13
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds [32 x [8 x float]], ptr addrspace(3) @poly.t, i64 0, i64 %23
  %25 = load i32, ptr %5, align 4, !tbaa !13
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds [8 x float], ptr addrspace(3) %24, i64 0, i64 %26
  store float %21, ptr addrspace(3) %27, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #5
  %28 = load i32, ptr %6, align 4, !tbaa !13
  %29 = sub nsw i32 31, %28
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds [32 x [8 x float]], ptr addrspace(3) @poly.t, i64 0, i64 %30
  %32 = load i32, ptr %5, align 4, !tbaa !13
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [8 x float], ptr addrspace(3) %31, i64 0, i64 %33
  %35 = load float, ptr addrspace(3) %34, align 4, !tbaa !15
  store float %35, ptr %7, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #5
  store float 1.000000e+00, ptr %8, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #5
  store i32 0, ptr %9, align 4, !tbaa !13
  br label %36

36:                                               ; preds = %46, %2
  %37 = load i32, ptr %9, align 4, !tbaa !13
  %38 = icmp slt i32 %37, 16
  br i1 %38, label %40, label %39

39:                                               ; preds = %36
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #5
  br label %49

40:                                               ; preds = %36
  %41 = load float, ptr %8, align 4, !tbaa !15
  %42 = load float, ptr %7, align 4, !tbaa !15
  %43 = load i32, ptr %9, align 4, !tbaa !13
  %44 = sitofp i32 %43 to float
  %45 = call float @llvm.fmuladd.f32(float %41, float %42, float %44)
  store float %45, ptr %8, align 4, !tbaa !15
  br label %46

46:                                               ; preds = %40
  %47 = load i32, ptr %9, align 4, !tbaa !13
  %48 = add nsw i32 %47, 1
  store i32 %48, ptr %9, align 4, !tbaa !13
  br label %36, !llvm.loop !17

49:                                               ; preds = %39
  %50 = load float, ptr %8, align 4, !tbaa !15
  %51 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %52 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %53 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #6
  %54 = mul i64 %52, %53
  %55 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %56 = add i64 %54, %55
  %57 = getelementptr inbounds float, ptr addrspace(1) %51, i64 %56
  store float %50, ptr addrspace(1) %57, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nounwind }
attributes #6 = { convergent nounwind willreturn memory(none) }
attributes #7 = { convergent nounwind }

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
!6 = !{!"float*", !"float*"}
!7 = !{!"const", !""}
!8 = !{!"a", !"c"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = distinct !{!17, !18}
!18 = !{!"llvm.loop.unroll.enable"}
