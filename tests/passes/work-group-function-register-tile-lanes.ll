; work-group-function, in a build for one local size: a BLAS library's
; indirect SGEMM (the runner's gemm_indirect): 16x16 groups, a register tile
; of 4x4 floats a work-item (four float4 accumulators, 16 values carried
; round the k loop), and an epilogue whose edge loop indexes C with a 64-bit
; offset that differs between work-items.  So many live values get one
; machine vector each (wfv.c, vectors_per_value), sized by the widest of the
; live values, the floats: 16 lanes of AVX-512, a whole row.  By the widest
; varying value, the 64-bit offset, they were 8 lanes, half a register of
; floats, and every row ran twice.
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=gemm_indirect:16,16,1 --mcpu=skylake-avx512 --stop-after=work-group-function %s -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SAYS
; RUN: FileCheck %s < %t.ll
; SAYS: mosaic: kernel gemm_indirect.wi: rows of 16 widened, 16 work-items at once between barriers
; CHECK-LABEL: define internal void @gemm_indirect.wi.row(
; CHECK: call void @__mosaic_barrier(
; CHECK: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-LABEL: define void @gemm_indirect.wg(
;   #define MWGI 64 /* the block of C a work-group computes: MWGI x NWGI */
;   #define NWGI 64
;   #define KWGI 16
;   #define DIMI 16 /* work-items along each dimension; 4x4 results each */
;
;   /* C = alpha at^T bt on padded sizes: at is kp x mp (op(A) k-major), bt kp x np; mp, np multiples of 64,
;      kp of 16.  Only C's store has a bound (C is m x n). */
;   __kernel __attribute__((reqd_work_group_size(DIMI, DIMI, 1)))
;   void gemm_indirect(int m, int n, int mp, int np, int kp, float alpha, __global const float4 *at,
;                      __global const float4 *bt, __global float *c, int ldc)
;   {
;       __local float4 al[KWGI][MWGI / 4], bl[KWGI][NWGI / 4];
;       int tx = get_local_id(0), ty = get_local_id(1);
;       int i4 = get_group_id(1) * (MWGI / 4), j4 = get_group_id(0) * (NWGI / 4); /* in float4 */
;       float4 acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
;       for (int p0 = 0; p0 < kp; p0 += KWGI) {
;           al[ty][tx] = at[(size_t)(p0 + ty) * (mp / 4) + i4 + tx];
;           bl[ty][tx] = bt[(size_t)(p0 + ty) * (np / 4) + j4 + tx];
;           barrier(CLK_LOCAL_MEM_FENCE);
;           #pragma unroll 4
;           for (int p = 0; p < KWGI; p++) {
;               float4 av = al[p][ty], bv = bl[p][tx];
;               acc0 += av.x * bv; acc1 += av.y * bv; acc2 += av.z * bv; acc3 += av.w * bv;
;           }
;           barrier(CLK_LOCAL_MEM_FENCE);
;       }
;       int row = (i4 + ty) * 4, col = (j4 + tx) * 4;
;       float4 v[4] = { alpha * acc0, alpha * acc1, alpha * acc2, alpha * acc3 };
;       for (int r = 0; r < 4 && row + r < m; r++) {
;           if (col + 4 <= n) {
;               vstore4(v[r], 0, c + (size_t)(row + r) * ldc + col);
;           } else {
;               float e[4] = { v[r].x, v[r].y, v[r].z, v[r].w };
;               for (int q = 0; q < 4 && col + q < n; q++)
;                   c[(size_t)(row + r) * ldc + col + q] = e[q];
;           }
;       }
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@gemm_indirect.al = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16
@gemm_indirect.bl = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @gemm_indirect(i32 noundef %0, i32 noundef %1, i32 noundef %2, i32 noundef %3, i32 noundef %4, float noundef %5, ptr addrspace(1) noundef align 16 %6, ptr addrspace(1) noundef align 16 %7, ptr addrspace(1) noundef align 4 %8, i32 noundef %9) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 !reqd_work_group_size !10 {
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca float, align 4
  %17 = alloca ptr addrspace(1), align 8
  %18 = alloca ptr addrspace(1), align 8
  %19 = alloca ptr addrspace(1), align 8
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  %23 = alloca i32, align 4
  %24 = alloca i32, align 4
  %25 = alloca <4 x float>, align 16
  %26 = alloca <4 x float>, align 16
  %27 = alloca <4 x float>, align 16
  %28 = alloca <4 x float>, align 16
  %29 = alloca i32, align 4
  %30 = alloca i32, align 4
  %31 = alloca i32, align 4
  %32 = alloca <4 x float>, align 16
  %33 = alloca <4 x float>, align 16
  %34 = alloca i32, align 4
  %35 = alloca i32, align 4
  %36 = alloca [4 x <4 x float>], align 16
  %37 = alloca i32, align 4
  %38 = alloca [4 x float], align 4
  %39 = alloca i32, align 4
  store i32 %0, ptr %11, align 4, !tbaa !11
  store i32 %1, ptr %12, align 4, !tbaa !11
  store i32 %2, ptr %13, align 4, !tbaa !11
  store i32 %3, ptr %14, align 4, !tbaa !11
  store i32 %4, ptr %15, align 4, !tbaa !11
  store float %5, ptr %16, align 4, !tbaa !15
  store ptr addrspace(1) %6, ptr %17, align 8, !tbaa !17
  store ptr addrspace(1) %7, ptr %18, align 8, !tbaa !17
  store ptr addrspace(1) %8, ptr %19, align 8, !tbaa !17
  store i32 %9, ptr %20, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #5
  %40 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %41 = trunc i64 %40 to i32
  store i32 %41, ptr %21, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 4, ptr %22) #5
  %42 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %43 = trunc i64 %42 to i32
  store i32 %43, ptr %22, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 4, ptr %23) #5
  %44 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %45 = mul i64 %44, 16
  %46 = trunc i64 %45 to i32
  store i32 %46, ptr %23, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 4, ptr %24) #5
  %47 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %48 = mul i64 %47, 16
  %49 = trunc i64 %48 to i32
  store i32 %49, ptr %24, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 16, ptr %25) #5
  store <4 x float> zeroinitializer, ptr %25, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 16, ptr %26) #5
  store <4 x float> zeroinitializer, ptr %26, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 16, ptr %27) #5
  store <4 x float> zeroinitializer, ptr %27, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 16, ptr %28) #5
  store <4 x float> zeroinitializer, ptr %28, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 4, ptr %29) #5
  store i32 0, ptr %29, align 4, !tbaa !11
  br label %50

50:                                               ; preds = %153, %10
  %51 = load i32, ptr %29, align 4, !tbaa !11
  %52 = load i32, ptr %15, align 4, !tbaa !11
  %53 = icmp slt i32 %51, %52
  br i1 %53, label %55, label %54

54:                                               ; preds = %50
  store i32 2, ptr %30, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %29) #5
  br label %156

55:                                               ; preds = %50
  %56 = load ptr addrspace(1), ptr %17, align 8, !tbaa !17
  %57 = load i32, ptr %29, align 4, !tbaa !11
  %58 = load i32, ptr %22, align 4, !tbaa !11
  %59 = add nsw i32 %57, %58
  %60 = sext i32 %59 to i64
  %61 = load i32, ptr %13, align 4, !tbaa !11
  %62 = sdiv i32 %61, 4
  %63 = sext i32 %62 to i64
  %64 = mul i64 %60, %63
  %65 = load i32, ptr %23, align 4, !tbaa !11
  %66 = sext i32 %65 to i64
  %67 = add i64 %64, %66
  %68 = load i32, ptr %21, align 4, !tbaa !11
  %69 = sext i32 %68 to i64
  %70 = add i64 %67, %69
  %71 = getelementptr inbounds <4 x float>, ptr addrspace(1) %56, i64 %70
  %72 = load <4 x float>, ptr addrspace(1) %71, align 16, !tbaa !19
  %73 = load i32, ptr %22, align 4, !tbaa !11
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @gemm_indirect.al, i64 0, i64 %74
  %76 = load i32, ptr %21, align 4, !tbaa !11
  %77 = sext i32 %76 to i64
  %78 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %75, i64 0, i64 %77
  store <4 x float> %72, ptr addrspace(3) %78, align 16, !tbaa !19
  %79 = load ptr addrspace(1), ptr %18, align 8, !tbaa !17
  %80 = load i32, ptr %29, align 4, !tbaa !11
  %81 = load i32, ptr %22, align 4, !tbaa !11
  %82 = add nsw i32 %80, %81
  %83 = sext i32 %82 to i64
  %84 = load i32, ptr %14, align 4, !tbaa !11
  %85 = sdiv i32 %84, 4
  %86 = sext i32 %85 to i64
  %87 = mul i64 %83, %86
  %88 = load i32, ptr %24, align 4, !tbaa !11
  %89 = sext i32 %88 to i64
  %90 = add i64 %87, %89
  %91 = load i32, ptr %21, align 4, !tbaa !11
  %92 = sext i32 %91 to i64
  %93 = add i64 %90, %92
  %94 = getelementptr inbounds <4 x float>, ptr addrspace(1) %79, i64 %93
  %95 = load <4 x float>, ptr addrspace(1) %94, align 16, !tbaa !19
  %96 = load i32, ptr %22, align 4, !tbaa !11
  %97 = sext i32 %96 to i64
  %98 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @gemm_indirect.bl, i64 0, i64 %97
  %99 = load i32, ptr %21, align 4, !tbaa !11
  %100 = sext i32 %99 to i64
  %101 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %98, i64 0, i64 %100
  store <4 x float> %95, ptr addrspace(3) %101, align 16, !tbaa !19
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %31) #5
  store i32 0, ptr %31, align 4, !tbaa !11
  br label %102

102:                                              ; preds = %149, %55
  %103 = load i32, ptr %31, align 4, !tbaa !11
  %104 = icmp slt i32 %103, 16
  br i1 %104, label %106, label %105

105:                                              ; preds = %102
  store i32 5, ptr %30, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %31) #5
  br label %152

106:                                              ; preds = %102
  call void @llvm.lifetime.start.p0(i64 16, ptr %32) #5
  %107 = load i32, ptr %31, align 4, !tbaa !11
  %108 = sext i32 %107 to i64
  %109 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @gemm_indirect.al, i64 0, i64 %108
  %110 = load i32, ptr %22, align 4, !tbaa !11
  %111 = sext i32 %110 to i64
  %112 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %109, i64 0, i64 %111
  %113 = load <4 x float>, ptr addrspace(3) %112, align 16, !tbaa !19
  store <4 x float> %113, ptr %32, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 16, ptr %33) #5
  %114 = load i32, ptr %31, align 4, !tbaa !11
  %115 = sext i32 %114 to i64
  %116 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @gemm_indirect.bl, i64 0, i64 %115
  %117 = load i32, ptr %21, align 4, !tbaa !11
  %118 = sext i32 %117 to i64
  %119 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %116, i64 0, i64 %118
  %120 = load <4 x float>, ptr addrspace(3) %119, align 16, !tbaa !19
  store <4 x float> %120, ptr %33, align 16, !tbaa !19
  %121 = load <4 x float>, ptr %32, align 16
  %122 = extractelement <4 x float> %121, i64 0
  %123 = insertelement <4 x float> poison, float %122, i64 0
  %124 = shufflevector <4 x float> %123, <4 x float> poison, <4 x i32> zeroinitializer
  %125 = load <4 x float>, ptr %33, align 16, !tbaa !19
  %126 = load <4 x float>, ptr %25, align 16, !tbaa !19
  %127 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %124, <4 x float> %125, <4 x float> %126)
  store <4 x float> %127, ptr %25, align 16, !tbaa !19
  %128 = load <4 x float>, ptr %32, align 16
  %129 = extractelement <4 x float> %128, i64 1
  %130 = insertelement <4 x float> poison, float %129, i64 0
  %131 = shufflevector <4 x float> %130, <4 x float> poison, <4 x i32> zeroinitializer
  %132 = load <4 x float>, ptr %33, align 16, !tbaa !19
  %133 = load <4 x float>, ptr %26, align 16, !tbaa !19
  %134 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %131, <4 x float> %132, <4 x float> %133)
  store <4 x float> %134, ptr %26, align 16, !tbaa !19
  %135 = load <4 x float>, ptr %32, align 16
  %136 = extractelement <4 x float> %135, i64 2
  %137 = insertelement <4 x float> poison, float %136, i64 0
  %138 = shufflevector <4 x float> %137, <4 x float> poison, <4 x i32> zeroinitializer
  %139 = load <4 x float>, ptr %33, align 16, !tbaa !19
  %140 = load <4 x float>, ptr %27, align 16, !tbaa !19
  %141 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %138, <4 x float> %139, <4 x float> %140)
  store <4 x float> %141, ptr %27, align 16, !tbaa !19
  %142 = load <4 x float>, ptr %32, align 16
  %143 = extractelement <4 x float> %142, i64 3
  %144 = insertelement <4 x float> poison, float %143, i64 0
  %145 = shufflevector <4 x float> %144, <4 x float> poison, <4 x i32> zeroinitializer
  %146 = load <4 x float>, ptr %33, align 16, !tbaa !19
  %147 = load <4 x float>, ptr %28, align 16, !tbaa !19
  %148 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %145, <4 x float> %146, <4 x float> %147)
  store <4 x float> %148, ptr %28, align 16, !tbaa !19
  call void @llvm.lifetime.end.p0(i64 16, ptr %33) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %32) #5
  br label %149

149:                                              ; preds = %106
  %150 = load i32, ptr %31, align 4, !tbaa !11
  %151 = add nsw i32 %150, 1
  store i32 %151, ptr %31, align 4, !tbaa !11
  br label %102, !llvm.loop !20

152:                                              ; preds = %105
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  br label %153

153:                                              ; preds = %152
  %154 = load i32, ptr %29, align 4, !tbaa !11
  %155 = add nsw i32 %154, 16
  store i32 %155, ptr %29, align 4, !tbaa !11
  br label %50

156:                                              ; preds = %54
  call void @llvm.lifetime.start.p0(i64 4, ptr %34) #5
  %157 = load i32, ptr %23, align 4, !tbaa !11
  %158 = load i32, ptr %22, align 4, !tbaa !11
  %159 = add nsw i32 %157, %158
  %160 = mul nsw i32 %159, 4
  store i32 %160, ptr %34, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 4, ptr %35) #5
  %161 = load i32, ptr %24, align 4, !tbaa !11
  %162 = load i32, ptr %21, align 4, !tbaa !11
  %163 = add nsw i32 %161, %162
  %164 = mul nsw i32 %163, 4
  store i32 %164, ptr %35, align 4, !tbaa !11
  call void @llvm.lifetime.start.p0(i64 64, ptr %36) #5
  %165 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 0
  %166 = load float, ptr %16, align 4, !tbaa !15
  %167 = insertelement <4 x float> poison, float %166, i64 0
  %168 = shufflevector <4 x float> %167, <4 x float> poison, <4 x i32> zeroinitializer
  %169 = load <4 x float>, ptr %25, align 16, !tbaa !19
  %170 = fmul <4 x float> %168, %169
  store <4 x float> %170, ptr %165, align 16, !tbaa !19
  %171 = getelementptr inbounds <4 x float>, ptr %165, i64 1
  %172 = load float, ptr %16, align 4, !tbaa !15
  %173 = insertelement <4 x float> poison, float %172, i64 0
  %174 = shufflevector <4 x float> %173, <4 x float> poison, <4 x i32> zeroinitializer
  %175 = load <4 x float>, ptr %26, align 16, !tbaa !19
  %176 = fmul <4 x float> %174, %175
  store <4 x float> %176, ptr %171, align 16, !tbaa !19
  %177 = getelementptr inbounds <4 x float>, ptr %171, i64 1
  %178 = load float, ptr %16, align 4, !tbaa !15
  %179 = insertelement <4 x float> poison, float %178, i64 0
  %180 = shufflevector <4 x float> %179, <4 x float> poison, <4 x i32> zeroinitializer
  %181 = load <4 x float>, ptr %27, align 16, !tbaa !19
  %182 = fmul <4 x float> %180, %181
  store <4 x float> %182, ptr %177, align 16, !tbaa !19
  %183 = getelementptr inbounds <4 x float>, ptr %177, i64 1
  %184 = load float, ptr %16, align 4, !tbaa !15
  %185 = insertelement <4 x float> poison, float %184, i64 0
  %186 = shufflevector <4 x float> %185, <4 x float> poison, <4 x i32> zeroinitializer
  %187 = load <4 x float>, ptr %28, align 16, !tbaa !19
  %188 = fmul <4 x float> %186, %187
  store <4 x float> %188, ptr %183, align 16, !tbaa !19
  call void @llvm.lifetime.start.p0(i64 4, ptr %37) #5
  store i32 0, ptr %37, align 4, !tbaa !11
  br label %189

189:                                              ; preds = %285, %156
  %190 = load i32, ptr %37, align 4, !tbaa !11
  %191 = icmp slt i32 %190, 4
  br i1 %191, label %192, label %198

192:                                              ; preds = %189
  %193 = load i32, ptr %34, align 4, !tbaa !11
  %194 = load i32, ptr %37, align 4, !tbaa !11
  %195 = add nsw i32 %193, %194
  %196 = load i32, ptr %11, align 4, !tbaa !11
  %197 = icmp slt i32 %195, %196
  br label %198

198:                                              ; preds = %192, %189
  %199 = phi i1 [ false, %189 ], [ %197, %192 ]
  br i1 %199, label %201, label %200

200:                                              ; preds = %198
  store i32 8, ptr %30, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %37) #5
  br label %288

201:                                              ; preds = %198
  %202 = load i32, ptr %35, align 4, !tbaa !11
  %203 = add nsw i32 %202, 4
  %204 = load i32, ptr %12, align 4, !tbaa !11
  %205 = icmp sle i32 %203, %204
  br i1 %205, label %206, label %223

206:                                              ; preds = %201
  %207 = load i32, ptr %37, align 4, !tbaa !11
  %208 = sext i32 %207 to i64
  %209 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 %208
  %210 = load <4 x float>, ptr %209, align 16, !tbaa !19
  %211 = load ptr addrspace(1), ptr %19, align 8, !tbaa !17
  %212 = load i32, ptr %34, align 4, !tbaa !11
  %213 = load i32, ptr %37, align 4, !tbaa !11
  %214 = add nsw i32 %212, %213
  %215 = sext i32 %214 to i64
  %216 = load i32, ptr %20, align 4, !tbaa !11
  %217 = sext i32 %216 to i64
  %218 = mul i64 %215, %217
  %219 = getelementptr inbounds float, ptr addrspace(1) %211, i64 %218
  %220 = load i32, ptr %35, align 4, !tbaa !11
  %221 = sext i32 %220 to i64
  %222 = getelementptr inbounds float, ptr addrspace(1) %219, i64 %221
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %210, i64 noundef 0, ptr addrspace(1) noundef %222) #7
  br label %284

223:                                              ; preds = %201
  call void @llvm.lifetime.start.p0(i64 16, ptr %38) #5
  %224 = getelementptr inbounds [4 x float], ptr %38, i64 0, i64 0
  %225 = load i32, ptr %37, align 4, !tbaa !11
  %226 = sext i32 %225 to i64
  %227 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 %226
  %228 = load <4 x float>, ptr %227, align 16
  %229 = extractelement <4 x float> %228, i64 0
  store float %229, ptr %224, align 4, !tbaa !15
  %230 = getelementptr inbounds float, ptr %224, i64 1
  %231 = load i32, ptr %37, align 4, !tbaa !11
  %232 = sext i32 %231 to i64
  %233 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 %232
  %234 = load <4 x float>, ptr %233, align 16
  %235 = extractelement <4 x float> %234, i64 1
  store float %235, ptr %230, align 4, !tbaa !15
  %236 = getelementptr inbounds float, ptr %230, i64 1
  %237 = load i32, ptr %37, align 4, !tbaa !11
  %238 = sext i32 %237 to i64
  %239 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 %238
  %240 = load <4 x float>, ptr %239, align 16
  %241 = extractelement <4 x float> %240, i64 2
  store float %241, ptr %236, align 4, !tbaa !15
  %242 = getelementptr inbounds float, ptr %236, i64 1
  %243 = load i32, ptr %37, align 4, !tbaa !11
  %244 = sext i32 %243 to i64
  %245 = getelementptr inbounds [4 x <4 x float>], ptr %36, i64 0, i64 %244
  %246 = load <4 x float>, ptr %245, align 16
  %247 = extractelement <4 x float> %246, i64 3
  store float %247, ptr %242, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %39) #5
  store i32 0, ptr %39, align 4, !tbaa !11
  br label %248

248:                                              ; preds = %280, %223
  %249 = load i32, ptr %39, align 4, !tbaa !11
  %250 = icmp slt i32 %249, 4
  br i1 %250, label %251, label %257

251:                                              ; preds = %248
  %252 = load i32, ptr %35, align 4, !tbaa !11
  %253 = load i32, ptr %39, align 4, !tbaa !11
  %254 = add nsw i32 %252, %253
  %255 = load i32, ptr %12, align 4, !tbaa !11
  %256 = icmp slt i32 %254, %255
  br label %257

257:                                              ; preds = %251, %248
  %258 = phi i1 [ false, %248 ], [ %256, %251 ]
  br i1 %258, label %260, label %259

259:                                              ; preds = %257
  store i32 11, ptr %30, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %39) #5
  br label %283

260:                                              ; preds = %257
  %261 = load i32, ptr %39, align 4, !tbaa !11
  %262 = sext i32 %261 to i64
  %263 = getelementptr inbounds [4 x float], ptr %38, i64 0, i64 %262
  %264 = load float, ptr %263, align 4, !tbaa !15
  %265 = load ptr addrspace(1), ptr %19, align 8, !tbaa !17
  %266 = load i32, ptr %34, align 4, !tbaa !11
  %267 = load i32, ptr %37, align 4, !tbaa !11
  %268 = add nsw i32 %266, %267
  %269 = sext i32 %268 to i64
  %270 = load i32, ptr %20, align 4, !tbaa !11
  %271 = sext i32 %270 to i64
  %272 = mul i64 %269, %271
  %273 = load i32, ptr %35, align 4, !tbaa !11
  %274 = sext i32 %273 to i64
  %275 = add i64 %272, %274
  %276 = load i32, ptr %39, align 4, !tbaa !11
  %277 = sext i32 %276 to i64
  %278 = add i64 %275, %277
  %279 = getelementptr inbounds float, ptr addrspace(1) %265, i64 %278
  store float %264, ptr addrspace(1) %279, align 4, !tbaa !15
  br label %280

280:                                              ; preds = %260
  %281 = load i32, ptr %39, align 4, !tbaa !11
  %282 = add nsw i32 %281, 1
  store i32 %282, ptr %39, align 4, !tbaa !11
  br label %248

283:                                              ; preds = %259
  call void @llvm.lifetime.end.p0(i64 16, ptr %38) #5
  br label %284

284:                                              ; preds = %283, %206
  br label %285

285:                                              ; preds = %284
  %286 = load i32, ptr %37, align 4, !tbaa !11
  %287 = add nsw i32 %286, 1
  store i32 %287, ptr %37, align 4, !tbaa !11
  br label %189

288:                                              ; preds = %200
  call void @llvm.lifetime.end.p0(i64 64, ptr %36) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %35) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %34) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %28) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %27) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %26) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %25) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %24) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %23) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %22) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef, i64 noundef, ptr addrspace(1) noundef) #3

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
!4 = !{i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!6 = !{!"int", !"int", !"int", !"int", !"int", !"float", !"float4*", !"float4*", !"float*", !"int"}
!7 = !{!"int", !"int", !"int", !"int", !"int", !"float", !"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float*", !"int"}
!8 = !{!"", !"", !"", !"", !"", !"", !"const", !"const", !"", !""}
!9 = !{!"m", !"n", !"mp", !"np", !"kp", !"alpha", !"at", !"bt", !"c", !"ldc"}
!10 = !{i32 16, i32 16, i32 1}
!11 = !{!12, !12, i64 0}
!12 = !{!"int", !13, i64 0}
!13 = !{!"omnipotent char", !14, i64 0}
!14 = !{!"Simple C/C++ TBAA"}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !13, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"any pointer", !13, i64 0}
!19 = !{!13, !13, i64 0}
!20 = distinct !{!20, !21}
!21 = !{!"llvm.loop.unroll.count", i32 4}
