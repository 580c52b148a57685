; interleaved-arithmetic: an ML compiler's matmul (4x4 of C a work-item in
; float4s, B read as float4 rows, bench/runner/ml.c's at n = 64), widened 16
; work-items at once.  Before, each row of B is one load of 64 floats and four
; shuffles taking every fourth element (a component each), and each float4
; multiply-add four of 16 lanes, its result interleaved again for the store.
; After, the multiply-adds run on the 64 floats as loaded (lane 4 l + c is
; work-item l's component c): no shuffle of B in the loop, one phi of 64
; floats per row of C's tile, and the store takes the sum as it is.
;   #define MM_N 64
;   __kernel void ml_matmul(__global const float *restrict A, __global const float *restrict B,
;                           __global float *restrict C)
;   {
;       const int j4 = get_global_id(0), i = get_global_id(1) * 4;
;       float4 c0 = (float4)(0.0f), c1 = (float4)(0.0f), c2 = (float4)(0.0f), c3 = (float4)(0.0f);
;       for (int k = 0; k < MM_N; k += 4) {
;           const float4 a0 = vload4(0, A + (i + 0) * MM_N + k), a1 = vload4(0, A + (i + 1) * MM_N + k);
;           const float4 a2 = vload4(0, A + (i + 2) * MM_N + k), a3 = vload4(0, A + (i + 3) * MM_N + k);
;           const float4 b0 = vload4(j4, B + (k + 0) * MM_N), b1 = vload4(j4, B + (k + 1) * MM_N);
;           const float4 b2 = vload4(j4, B + (k + 2) * MM_N), b3 = vload4(j4, B + (k + 3) * MM_N);
;           c0 = c0 + a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
;           c1 = c1 + a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
;           c2 = c2 + a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
;           c3 = c3 + a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
;       }
;       vstore4(c0, j4, C + (i + 0) * MM_N);
;       vstore4(c1, j4, C + (i + 1) * MM_N);
;       vstore4(c2, j4, C + (i + 2) * MM_N);
;       vstore4(c3, j4, C + (i + 3) * MM_N);
;   }
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --stop-after=interleaved-arithmetic --print-before %s | FileCheck %s
; CHECK-LABEL: define void @ml_matmul.wg(
; CHECK: [[B0:%[0-9]+]] = load <64 x float>, ptr addrspace(1)
; CHECK-NEXT: shufflevector <64 x float> [[B0]], <64 x float> poison, <16 x i32> <i32 0, i32 4, i32 8,
; CHECK-NEXT: shufflevector <64 x float> [[B0]], <64 x float> poison, <16 x i32> <i32 1, i32 5, i32 9,
; CHECK: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK: shufflevector <32 x float> %{{[0-9]+}}, <32 x float> %{{[0-9]+}}, <64 x i32> <i32 0, i32 16, i32 32, i32 48,
; CHECK-LABEL: ;; after interleaved-arithmetic
; CHECK-LABEL: define void @ml_matmul.wg(
; CHECK: [[C3:%[0-9]+]] = phi <64 x float> [ zeroinitializer, %row.block ], [ [[C3_NEXT:%[0-9]+]], %[[LOOP:[0-9]+]] ]
; CHECK-NEXT: [[C2:%[0-9]+]] = phi <64 x float> [ zeroinitializer, %row.block ], [ [[C2_NEXT:%[0-9]+]], %[[LOOP]] ]
; CHECK-NEXT: [[C1:%[0-9]+]] = phi <64 x float> [ zeroinitializer, %row.block ], [ [[C1_NEXT:%[0-9]+]], %[[LOOP]] ]
; CHECK-NEXT: [[C0:%[0-9]+]] = phi <64 x float> [ zeroinitializer, %row.block ], [ [[C0_NEXT:%[0-9]+]], %[[LOOP]] ]
; CHECK-NOT: <16 x i32> <i32 0, i32 4, i32 8,
; CHECK: [[B0:%[0-9]+]] = load <64 x float>, ptr addrspace(1)
; CHECK-NOT: shufflevector
; CHECK: load <64 x float>, ptr addrspace(1)
; CHECK-NOT: shufflevector
; CHECK: load <64 x float>, ptr addrspace(1)
; CHECK-NOT: shufflevector
; CHECK: [[B3:%[0-9]+]] = load <64 x float>, ptr addrspace(1)
; CHECK-NEXT: [[A00:%[0-9]+]] = insertelement <16 x float> poison, float %{{[0-9]+}}, i64 0
; CHECK-NEXT: [[S00:%[0-9]+]] = shufflevector <16 x float> [[A00]], <16 x float> poison, <64 x i32> zeroinitializer
; CHECK-NEXT: [[P:%[0-9]+]] = call <64 x float> @llvm.fmuladd.v64f32(<64 x float> [[S00]], <64 x float> [[B0]], <64 x float> [[C0]])
; CHECK-NOT: <16 x i32> <i32 0, i32 4, i32 8,
; CHECK: [[C0_NEXT]] = call <64 x float> @llvm.fmuladd.v64f32(<64 x float> %{{[0-9]+}}, <64 x float> [[B3]], <64 x float> %{{[0-9]+}})
; CHECK-NOT: <16 x i32> <i32 0, i32 4, i32 8,
; CHECK: [[C3_NEXT]] = call <64 x float> @llvm.fmuladd.v64f32(<64 x float> %{{[0-9]+}}, <64 x float> [[B3]], <64 x float> %{{[0-9]+}})
; CHECK-NEXT: %indvars.iv.next =
; CHECK: store <64 x float> [[C0_NEXT]], ptr addrspace(1)
; CHECK: store <64 x float> [[C3_NEXT]], ptr addrspace(1)

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @ml_matmul(ptr addrspace(1) noalias noundef align 4 %0, ptr addrspace(1) noalias noundef align 4 %1, ptr addrspace(1) noalias noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca <4 x float>, align 16
  %10 = alloca <4 x float>, align 16
  %11 = alloca <4 x float>, align 16
  %12 = alloca <4 x float>, align 16
  %13 = alloca i32, align 4
  %14 = alloca <4 x float>, align 16
  %15 = alloca <4 x float>, align 16
  %16 = alloca <4 x float>, align 16
  %17 = alloca <4 x float>, align 16
  %18 = alloca <4 x float>, align 16
  %19 = alloca <4 x float>, align 16
  %20 = alloca <4 x float>, align 16
  %21 = alloca <4 x float>, align 16
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #6
  %22 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #7
  %23 = trunc i64 %22 to i32
  store i32 %23, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #6
  %24 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #7
  %25 = mul i64 %24, 4
  %26 = trunc i64 %25 to i32
  store i32 %26, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 16, ptr %9) #6
  store <4 x float> zeroinitializer, ptr %9, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %10) #6
  store <4 x float> zeroinitializer, ptr %10, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %11) #6
  store <4 x float> zeroinitializer, ptr %11, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %12) #6
  store <4 x float> zeroinitializer, ptr %12, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #6
  store i32 0, ptr %13, align 4, !tbaa !13
  br label %27

27:                                               ; preds = %208, %3
  %28 = load i32, ptr %13, align 4, !tbaa !13
  %29 = icmp slt i32 %28, 64
  br i1 %29, label %31, label %30

30:                                               ; preds = %27
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #6
  br label %211

31:                                               ; preds = %27
  call void @llvm.lifetime.start.p0(i64 16, ptr %14) #6
  %32 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %33 = load i32, ptr %8, align 4, !tbaa !13
  %34 = add nsw i32 %33, 0
  %35 = mul nsw i32 %34, 64
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds float, ptr addrspace(1) %32, i64 %36
  %38 = load i32, ptr %13, align 4, !tbaa !13
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds float, ptr addrspace(1) %37, i64 %39
  %41 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %40) #8
  store <4 x float> %41, ptr %14, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %15) #6
  %42 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %43 = load i32, ptr %8, align 4, !tbaa !13
  %44 = add nsw i32 %43, 1
  %45 = mul nsw i32 %44, 64
  %46 = sext i32 %45 to i64
  %47 = getelementptr inbounds float, ptr addrspace(1) %42, i64 %46
  %48 = load i32, ptr %13, align 4, !tbaa !13
  %49 = sext i32 %48 to i64
  %50 = getelementptr inbounds float, ptr addrspace(1) %47, i64 %49
  %51 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %50) #8
  store <4 x float> %51, ptr %15, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %16) #6
  %52 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %53 = load i32, ptr %8, align 4, !tbaa !13
  %54 = add nsw i32 %53, 2
  %55 = mul nsw i32 %54, 64
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds float, ptr addrspace(1) %52, i64 %56
  %58 = load i32, ptr %13, align 4, !tbaa !13
  %59 = sext i32 %58 to i64
  %60 = getelementptr inbounds float, ptr addrspace(1) %57, i64 %59
  %61 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %60) #8
  store <4 x float> %61, ptr %16, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %17) #6
  %62 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %63 = load i32, ptr %8, align 4, !tbaa !13
  %64 = add nsw i32 %63, 3
  %65 = mul nsw i32 %64, 64
  %66 = sext i32 %65 to i64
  %67 = getelementptr inbounds float, ptr addrspace(1) %62, i64 %66
  %68 = load i32, ptr %13, align 4, !tbaa !13
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds float, ptr addrspace(1) %67, i64 %69
  %71 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %70) #8
  store <4 x float> %71, ptr %17, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %18) #6
  %72 = load i32, ptr %7, align 4, !tbaa !13
  %73 = sext i32 %72 to i64
  %74 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %75 = load i32, ptr %13, align 4, !tbaa !13
  %76 = add nsw i32 %75, 0
  %77 = mul nsw i32 %76, 64
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds float, ptr addrspace(1) %74, i64 %78
  %80 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef %73, ptr addrspace(1) noundef %79) #8
  store <4 x float> %80, ptr %18, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %19) #6
  %81 = load i32, ptr %7, align 4, !tbaa !13
  %82 = sext i32 %81 to i64
  %83 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %84 = load i32, ptr %13, align 4, !tbaa !13
  %85 = add nsw i32 %84, 1
  %86 = mul nsw i32 %85, 64
  %87 = sext i32 %86 to i64
  %88 = getelementptr inbounds float, ptr addrspace(1) %83, i64 %87
  %89 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef %82, ptr addrspace(1) noundef %88) #8
  store <4 x float> %89, ptr %19, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %20) #6
  %90 = load i32, ptr %7, align 4, !tbaa !13
  %91 = sext i32 %90 to i64
  %92 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %93 = load i32, ptr %13, align 4, !tbaa !13
  %94 = add nsw i32 %93, 2
  %95 = mul nsw i32 %94, 64
  %96 = sext i32 %95 to i64
  %97 = getelementptr inbounds float, ptr addrspace(1) %92, i64 %96
  %98 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef %91, ptr addrspace(1) noundef %97) #8
  store <4 x float> %98, ptr %20, align 16, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %21) #6
  %99 = load i32, ptr %7, align 4, !tbaa !13
  %100 = sext i32 %99 to i64
  %101 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %102 = load i32, ptr %13, align 4, !tbaa !13
  %103 = add nsw i32 %102, 3
  %104 = mul nsw i32 %103, 64
  %105 = sext i32 %104 to i64
  %106 = getelementptr inbounds float, ptr addrspace(1) %101, i64 %105
  %107 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef %100, ptr addrspace(1) noundef %106) #8
  store <4 x float> %107, ptr %21, align 16, !tbaa !15
  %108 = load <4 x float>, ptr %9, align 16, !tbaa !15
  %109 = load <4 x float>, ptr %14, align 16
  %110 = extractelement <4 x float> %109, i64 0
  %111 = insertelement <4 x float> poison, float %110, i64 0
  %112 = shufflevector <4 x float> %111, <4 x float> poison, <4 x i32> zeroinitializer
  %113 = load <4 x float>, ptr %18, align 16, !tbaa !15
  %114 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %112, <4 x float> %113, <4 x float> %108)
  %115 = load <4 x float>, ptr %14, align 16
  %116 = extractelement <4 x float> %115, i64 1
  %117 = insertelement <4 x float> poison, float %116, i64 0
  %118 = shufflevector <4 x float> %117, <4 x float> poison, <4 x i32> zeroinitializer
  %119 = load <4 x float>, ptr %19, align 16, !tbaa !15
  %120 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %118, <4 x float> %119, <4 x float> %114)
  %121 = load <4 x float>, ptr %14, align 16
  %122 = extractelement <4 x float> %121, i64 2
  %123 = insertelement <4 x float> poison, float %122, i64 0
  %124 = shufflevector <4 x float> %123, <4 x float> poison, <4 x i32> zeroinitializer
  %125 = load <4 x float>, ptr %20, align 16, !tbaa !15
  %126 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %124, <4 x float> %125, <4 x float> %120)
  %127 = load <4 x float>, ptr %14, align 16
  %128 = extractelement <4 x float> %127, i64 3
  %129 = insertelement <4 x float> poison, float %128, i64 0
  %130 = shufflevector <4 x float> %129, <4 x float> poison, <4 x i32> zeroinitializer
  %131 = load <4 x float>, ptr %21, align 16, !tbaa !15
  %132 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %130, <4 x float> %131, <4 x float> %126)
  store <4 x float> %132, ptr %9, align 16, !tbaa !15
  %133 = load <4 x float>, ptr %10, align 16, !tbaa !15
  %134 = load <4 x float>, ptr %15, align 16
  %135 = extractelement <4 x float> %134, i64 0
  %136 = insertelement <4 x float> poison, float %135, i64 0
  %137 = shufflevector <4 x float> %136, <4 x float> poison, <4 x i32> zeroinitializer
  %138 = load <4 x float>, ptr %18, align 16, !tbaa !15
  %139 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %137, <4 x float> %138, <4 x float> %133)
  %140 = load <4 x float>, ptr %15, align 16
  %141 = extractelement <4 x float> %140, i64 1
  %142 = insertelement <4 x float> poison, float %141, i64 0
  %143 = shufflevector <4 x float> %142, <4 x float> poison, <4 x i32> zeroinitializer
  %144 = load <4 x float>, ptr %19, align 16, !tbaa !15
  %145 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %143, <4 x float> %144, <4 x float> %139)
  %146 = load <4 x float>, ptr %15, align 16
  %147 = extractelement <4 x float> %146, i64 2
  %148 = insertelement <4 x float> poison, float %147, i64 0
  %149 = shufflevector <4 x float> %148, <4 x float> poison, <4 x i32> zeroinitializer
  %150 = load <4 x float>, ptr %20, align 16, !tbaa !15
  %151 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %149, <4 x float> %150, <4 x float> %145)
  %152 = load <4 x float>, ptr %15, align 16
  %153 = extractelement <4 x float> %152, i64 3
  %154 = insertelement <4 x float> poison, float %153, i64 0
  %155 = shufflevector <4 x float> %154, <4 x float> poison, <4 x i32> zeroinitializer
  %156 = load <4 x float>, ptr %21, align 16, !tbaa !15
  %157 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %155, <4 x float> %156, <4 x float> %151)
  store <4 x float> %157, ptr %10, align 16, !tbaa !15
  %158 = load <4 x float>, ptr %11, align 16, !tbaa !15
  %159 = load <4 x float>, ptr %16, align 16
  %160 = extractelement <4 x float> %159, i64 0
  %161 = insertelement <4 x float> poison, float %160, i64 0
  %162 = shufflevector <4 x float> %161, <4 x float> poison, <4 x i32> zeroinitializer
  %163 = load <4 x float>, ptr %18, align 16, !tbaa !15
  %164 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %162, <4 x float> %163, <4 x float> %158)
  %165 = load <4 x float>, ptr %16, align 16
  %166 = extractelement <4 x float> %165, i64 1
  %167 = insertelement <4 x float> poison, float %166, i64 0
  %168 = shufflevector <4 x float> %167, <4 x float> poison, <4 x i32> zeroinitializer
  %169 = load <4 x float>, ptr %19, align 16, !tbaa !15
  %170 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %168, <4 x float> %169, <4 x float> %164)
  %171 = load <4 x float>, ptr %16, align 16
  %172 = extractelement <4 x float> %171, i64 2
  %173 = insertelement <4 x float> poison, float %172, i64 0
  %174 = shufflevector <4 x float> %173, <4 x float> poison, <4 x i32> zeroinitializer
  %175 = load <4 x float>, ptr %20, align 16, !tbaa !15
  %176 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %174, <4 x float> %175, <4 x float> %170)
  %177 = load <4 x float>, ptr %16, align 16
  %178 = extractelement <4 x float> %177, i64 3
  %179 = insertelement <4 x float> poison, float %178, i64 0
  %180 = shufflevector <4 x float> %179, <4 x float> poison, <4 x i32> zeroinitializer
  %181 = load <4 x float>, ptr %21, align 16, !tbaa !15
  %182 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %180, <4 x float> %181, <4 x float> %176)
  store <4 x float> %182, ptr %11, align 16, !tbaa !15
  %183 = load <4 x float>, ptr %12, align 16, !tbaa !15
  %184 = load <4 x float>, ptr %17, align 16
  %185 = extractelement <4 x float> %184, i64 0
  %186 = insertelement <4 x float> poison, float %185, i64 0
  %187 = shufflevector <4 x float> %186, <4 x float> poison, <4 x i32> zeroinitializer
  %188 = load <4 x float>, ptr %18, align 16, !tbaa !15
  %189 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %187, <4 x float> %188, <4 x float> %183)
  %190 = load <4 x float>, ptr %17, align 16
  %191 = extractelement <4 x float> %190, i64 1
  %192 = insertelement <4 x float> poison, float %191, i64 0
  %193 = shufflevector <4 x float> %192, <4 x float> poison, <4 x i32> zeroinitializer
  %194 = load <4 x float>, ptr %19, align 16, !tbaa !15
  %195 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %193, <4 x float> %194, <4 x float> %189)
  %196 = load <4 x float>, ptr %17, align 16
  %197 = extractelement <4 x float> %196, i64 2
  %198 = insertelement <4 x float> poison, float %197, i64 0
  %199 = shufflevector <4 x float> %198, <4 x float> poison, <4 x i32> zeroinitializer
  %200 = load <4 x float>, ptr %20, align 16, !tbaa !15
  %201 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %199, <4 x float> %200, <4 x float> %195)
  %202 = load <4 x float>, ptr %17, align 16
  %203 = extractelement <4 x float> %202, i64 3
  %204 = insertelement <4 x float> poison, float %203, i64 0
  %205 = shufflevector <4 x float> %204, <4 x float> poison, <4 x i32> zeroinitializer
  %206 = load <4 x float>, ptr %21, align 16, !tbaa !15
  %207 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %205, <4 x float> %206, <4 x float> %201)
  store <4 x float> %207, ptr %12, align 16, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 16, ptr %21) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %20) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %19) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %18) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %17) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %16) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %15) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %14) #6
  br label %208

208:                                              ; preds = %31
  %209 = load i32, ptr %13, align 4, !tbaa !13
  %210 = add nsw i32 %209, 4
  store i32 %210, ptr %13, align 4, !tbaa !13
  br label %27

211:                                              ; preds = %30
  %212 = load <4 x float>, ptr %9, align 16, !tbaa !15
  %213 = load i32, ptr %7, align 4, !tbaa !13
  %214 = sext i32 %213 to i64
  %215 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %216 = load i32, ptr %8, align 4, !tbaa !13
  %217 = add nsw i32 %216, 0
  %218 = mul nsw i32 %217, 64
  %219 = sext i32 %218 to i64
  %220 = getelementptr inbounds float, ptr addrspace(1) %215, i64 %219
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %212, i64 noundef %214, ptr addrspace(1) noundef %220) #9
  %221 = load <4 x float>, ptr %10, align 16, !tbaa !15
  %222 = load i32, ptr %7, align 4, !tbaa !13
  %223 = sext i32 %222 to i64
  %224 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %225 = load i32, ptr %8, align 4, !tbaa !13
  %226 = add nsw i32 %225, 1
  %227 = mul nsw i32 %226, 64
  %228 = sext i32 %227 to i64
  %229 = getelementptr inbounds float, ptr addrspace(1) %224, i64 %228
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %221, i64 noundef %223, ptr addrspace(1) noundef %229) #9
  %230 = load <4 x float>, ptr %11, align 16, !tbaa !15
  %231 = load i32, ptr %7, align 4, !tbaa !13
  %232 = sext i32 %231 to i64
  %233 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %234 = load i32, ptr %8, align 4, !tbaa !13
  %235 = add nsw i32 %234, 2
  %236 = mul nsw i32 %235, 64
  %237 = sext i32 %236 to i64
  %238 = getelementptr inbounds float, ptr addrspace(1) %233, i64 %237
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %230, i64 noundef %232, ptr addrspace(1) noundef %238) #9
  %239 = load <4 x float>, ptr %12, align 16, !tbaa !15
  %240 = load i32, ptr %7, align 4, !tbaa !13
  %241 = sext i32 %240 to i64
  %242 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %243 = load i32, ptr %8, align 4, !tbaa !13
  %244 = add nsw i32 %243, 3
  %245 = mul nsw i32 %244, 64
  %246 = sext i32 %245 to i64
  %247 = getelementptr inbounds float, ptr addrspace(1) %242, i64 %246
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %239, i64 noundef %241, ptr addrspace(1) noundef %247) #9
  call void @llvm.lifetime.end.p0(i64 16, ptr %12) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %11) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %10) #6
  call void @llvm.lifetime.end.p0(i64 16, ptr %9) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(read)
declare dso_local spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef, ptr addrspace(1) noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef, i64 noundef, ptr addrspace(1) noundef) #5

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #6 = { nounwind }
attributes #7 = { convergent nounwind willreturn memory(none) }
attributes #8 = { convergent nounwind willreturn memory(read) }
attributes #9 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 1}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"restrict const", !"restrict const", !"restrict"}
!8 = !{!"A", !"B", !"C"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
