; unroll-and-jam: in a build of the tiled product for its 16x16 groups, the
; y loop of the widened region between the barriers (r1.y: one row of 16
; work-items a block, a chain of 16 dependent multiply-adds) runs 4 rows an
; iteration with AVX2's 16 vector registers, interleaved: rows ly, ly+1,
; ly+2, ly+3, four times the multiply-adds, the counter stepping by 4.
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --options=-cl-std=CL2.0 \
; RUN:   --one-size=tiled:16,16,1 --stop-after=unroll-and-jam --print-before %s | FileCheck %s
; CHECK-LABEL: define void @tiled.wg(
; CHECK: r1.y:
; CHECK-NEXT: %ly5 = phi i64 [ 0, %r1 ], [ [[NEXT:%[0-9]+]], %r1.y ]
; CHECK-COUNT-16: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK: [[NEXT]] = add nuw nsw i64 %ly5, 1
; CHECK-LABEL: ;; after unroll-and-jam
; CHECK-LABEL: define void @tiled.wg(
; CHECK: r1.y:
; CHECK-NEXT: %ly5 = phi i64 [ 0, %r1 ], [ [[NEXT:%[0-9]+]], %r1.y ]
; CHECK: %row = add nuw i64 %ly5, 1
; CHECK: %row{{[0-9]+}} = add nuw i64 %ly5, 2
; CHECK: %row{{[0-9]+}} = add nuw i64 %ly5, 3
; CHECK-COUNT-64: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK: [[NEXT]] = add nuw nsw i64 %ly5, 4
; CHECK-NEXT: exitcond
; The front end's module of:
;   #define TX 16
;   #define TY 16
;   kernel void tiled(global const float *a, global const float *b, global float *c, int n) {
;     local float ta[TY][TX], tb[TX][TX];
;     int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);
;     float s = 0.0f;
;     for (int t = 0; t < n; t += TX) {
;       ta[ly][lx] = a[row * n + t + lx];
;       for (int r = ly; r < TX; r += TY)
;         tb[r][lx] = b[(t + r) * n + col];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       for (int k = 0; k < TX; k++)
;         s += ta[ly][k] * tb[k][lx];
;       barrier(CLK_LOCAL_MEM_FENCE);
;     }
;     c[row * n + col] = s;
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@tiled.ta = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@tiled.tb = internal addrspace(3) global [16 x [16 x float]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tiled(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %7, align 8, !tbaa !9
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #5
  %18 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %19 = trunc i64 %18 to i32
  store i32 %19, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #5
  %20 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %21 = trunc i64 %20 to i32
  store i32 %21, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #5
  %22 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %23 = trunc i64 %22 to i32
  store i32 %23, ptr %11, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #5
  %24 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %25 = trunc i64 %24 to i32
  store i32 %25, ptr %12, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #5
  store float 0.000000e+00, ptr %13, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #5
  store i32 0, ptr %14, align 4, !tbaa !13
  br label %26

26:                                               ; preds = %101, %4
  %27 = load i32, ptr %14, align 4, !tbaa !13
  %28 = load i32, ptr %8, align 4, !tbaa !13
  %29 = icmp slt i32 %27, %28
  br i1 %29, label %31, label %30

30:                                               ; preds = %26
  store i32 2, ptr %15, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #5
  br label %104

31:                                               ; preds = %26
  %32 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %33 = load i32, ptr %12, align 4, !tbaa !13
  %34 = load i32, ptr %8, align 4, !tbaa !13
  %35 = mul nsw i32 %33, %34
  %36 = load i32, ptr %14, align 4, !tbaa !13
  %37 = add nsw i32 %35, %36
  %38 = load i32, ptr %9, align 4, !tbaa !13
  %39 = add nsw i32 %37, %38
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds float, ptr addrspace(1) %32, i64 %40
  %42 = load float, ptr addrspace(1) %41, align 4, !tbaa !15
  %43 = load i32, ptr %10, align 4, !tbaa !13
  %44 = sext i32 %43 to i64
  %45 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tiled.ta, i64 0, i64 %44
  %46 = load i32, ptr %9, align 4, !tbaa !13
  %47 = sext i32 %46 to i64
  %48 = getelementptr inbounds [16 x float], ptr addrspace(3) %45, i64 0, i64 %47
  store float %42, ptr addrspace(3) %48, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %16) #5
  %49 = load i32, ptr %10, align 4, !tbaa !13
  store i32 %49, ptr %16, align 4, !tbaa !13
  br label %50

50:                                               ; preds = %72, %31
  %51 = load i32, ptr %16, align 4, !tbaa !13
  %52 = icmp slt i32 %51, 16
  br i1 %52, label %54, label %53

53:                                               ; preds = %50
  store i32 5, ptr %15, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %16) #5
  br label %75

54:                                               ; preds = %50
  %55 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %56 = load i32, ptr %14, align 4, !tbaa !13
  %57 = load i32, ptr %16, align 4, !tbaa !13
  %58 = add nsw i32 %56, %57
  %59 = load i32, ptr %8, align 4, !tbaa !13
  %60 = mul nsw i32 %58, %59
  %61 = load i32, ptr %11, align 4, !tbaa !13
  %62 = add nsw i32 %60, %61
  %63 = sext i32 %62 to i64
  %64 = getelementptr inbounds float, ptr addrspace(1) %55, i64 %63
  %65 = load float, ptr addrspace(1) %64, align 4, !tbaa !15
  %66 = load i32, ptr %16, align 4, !tbaa !13
  %67 = sext i32 %66 to i64
  %68 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tiled.tb, i64 0, i64 %67
  %69 = load i32, ptr %9, align 4, !tbaa !13
  %70 = sext i32 %69 to i64
  %71 = getelementptr inbounds [16 x float], ptr addrspace(3) %68, i64 0, i64 %70
  store float %65, ptr addrspace(3) %71, align 4, !tbaa !15
  br label %72

72:                                               ; preds = %54
  %73 = load i32, ptr %16, align 4, !tbaa !13
  %74 = add nsw i32 %73, 16
  store i32 %74, ptr %16, align 4, !tbaa !13
  br label %50

75:                                               ; preds = %53
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #5
  store i32 0, ptr %17, align 4, !tbaa !13
  br label %76

76:                                               ; preds = %97, %75
  %77 = load i32, ptr %17, align 4, !tbaa !13
  %78 = icmp slt i32 %77, 16
  br i1 %78, label %80, label %79

79:                                               ; preds = %76
  store i32 8, ptr %15, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #5
  br label %100

80:                                               ; preds = %76
  %81 = load i32, ptr %10, align 4, !tbaa !13
  %82 = sext i32 %81 to i64
  %83 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tiled.ta, i64 0, i64 %82
  %84 = load i32, ptr %17, align 4, !tbaa !13
  %85 = sext i32 %84 to i64
  %86 = getelementptr inbounds [16 x float], ptr addrspace(3) %83, i64 0, i64 %85
  %87 = load float, ptr addrspace(3) %86, align 4, !tbaa !15
  %88 = load i32, ptr %17, align 4, !tbaa !13
  %89 = sext i32 %88 to i64
  %90 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tiled.tb, i64 0, i64 %89
  %91 = load i32, ptr %9, align 4, !tbaa !13
  %92 = sext i32 %91 to i64
  %93 = getelementptr inbounds [16 x float], ptr addrspace(3) %90, i64 0, i64 %92
  %94 = load float, ptr addrspace(3) %93, align 4, !tbaa !15
  %95 = load float, ptr %13, align 4, !tbaa !15
  %96 = call float @llvm.fmuladd.f32(float %87, float %94, float %95)
  store float %96, ptr %13, align 4, !tbaa !15
  br label %97

97:                                               ; preds = %80
  %98 = load i32, ptr %17, align 4, !tbaa !13
  %99 = add nsw i32 %98, 1
  store i32 %99, ptr %17, align 4, !tbaa !13
  br label %76

100:                                              ; preds = %79
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  br label %101

101:                                              ; preds = %100
  %102 = load i32, ptr %14, align 4, !tbaa !13
  %103 = add nsw i32 %102, 16
  store i32 %103, ptr %14, align 4, !tbaa !13
  br label %26

104:                                              ; preds = %30
  %105 = load float, ptr %13, align 4, !tbaa !15
  %106 = load ptr addrspace(1), ptr %7, align 8, !tbaa !9
  %107 = load i32, ptr %12, align 4, !tbaa !13
  %108 = load i32, ptr %8, align 4, !tbaa !13
  %109 = mul nsw i32 %107, %108
  %110 = load i32, ptr %11, align 4, !tbaa !13
  %111 = add nsw i32 %109, %110
  %112 = sext i32 %111 to i64
  %113 = getelementptr inbounds float, ptr addrspace(1) %106, i64 %112
  store float %105, ptr addrspace(1) %113, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #4

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
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
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"int"}
!7 = !{!"const", !"const", !"", !""}
!8 = !{!"a", !"b", !"c", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
