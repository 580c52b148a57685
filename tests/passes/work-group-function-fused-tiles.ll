; work-group-function, in a build for one local size: groups of a column
; run together (K.fused, coarsening.c) only where that cannot make a
; register-tiled kernel slower.  Both kernels read a strip of b down the
; column at each step of a k loop through barriers, and keep 16 accumulators
; a work-item round it (more than a set of the L1 holds lines).  `tiles`
; stores them through a private array, so its rows are not widened: its
; regions would walk the work-items one at a time, each one's accumulators
; 4 KiB apart in the four groups' arrays, so it gets no K.fused.  `widened`
; stores them directly, its rows are widened, and it keeps K.fused.
;   kernel __attribute__((reqd_work_group_size(16, 16, 1)))
;   void tiles(global const float4 *a, global const float4 *b, global float *c, int n, int m)
;   { local float4 al[16][16], bl[16][16];
;     int tx = get_local_id(0), ty = get_local_id(1), i4 = get_group_id(1) * 16, j4 = get_group_id(0) * 16;
;     float4 acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
;     for (int p0 = 0; p0 < n; p0 += 16) {
;       al[ty][tx] = a[(p0 + ty) * (n / 4) + i4 + tx]; bl[ty][tx] = b[(p0 + ty) * (n / 4) + j4 + tx];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       for (int p = 0; p < 16; p++) {
;         float4 av = al[p][ty], bv = bl[p][tx];
;         acc0 += av.x * bv; acc1 += av.y * bv; acc2 += av.z * bv; acc3 += av.w * bv; }
;       barrier(CLK_LOCAL_MEM_FENCE); }
;     float4 v[17]; v[0] = acc0; v[1] = acc1; v[2] = acc2; v[3] = acc3;
;     int row = (i4 + ty) * 4, col = (j4 + tx) * 4;
;     for (int r = 0; r < 4 && row + r < m; r++) vstore4(v[r], 0, c + (row + r) * n + col); }
;   kernel ... void widened(...): the same but its end:
;   { ... int row = (i4 + ty) * 4, col = (j4 + tx) * 4;
;     vstore4(acc0 + acc1 + acc2 + acc3, 0, c + row * n + col); }
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=tiles:16,16,1 --stop-after=work-group-function %s -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TILES-SAYS
; RUN: FileCheck %s --check-prefix=TILES < %t.ll
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=widened:16,16,1 --stop-after=work-group-function %s -o %t2.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WIDENED-SAYS
; RUN: FileCheck %s --check-prefix=WIDENED < %t2.ll
; TILES-SAYS: mosaic: kernel tiles.wi: rows of 16 not widened: a private variable in memory
; TILES-SAYS: mosaic: kernel tiles: groups of a column not run together: its work-items run loops of their own and keep many values across barriers, and its rows are not widened
; TILES-NOT: {{@tiles.*fused}}
; TILES: define void @tiles.wg(
; TILES-NOT: {{@tiles.*fused}}
; WIDENED-SAYS: mosaic: kernel widened.wi: rows of 16 widened, 16 work-items at once between barriers
; WIDENED-SAYS-NOT: groups of a column not run together
; WIDENED: define internal void @widened.body.fused(
; WIDENED: define void @widened.fused(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@tiles.al = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16
@tiles.bl = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16
@widened.al = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16
@widened.bl = internal addrspace(3) global [16 x [16 x <4 x float>]] undef, align 16

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tiles(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 16 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3, i32 noundef %4) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 !reqd_work_group_size !10 {
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca <4 x float>, align 16
  %16 = alloca <4 x float>, align 16
  %17 = alloca <4 x float>, align 16
  %18 = alloca <4 x float>, align 16
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca <4 x float>, align 16
  %23 = alloca <4 x float>, align 16
  %24 = alloca [17 x <4 x float>], align 16
  %25 = alloca i32, align 4
  %26 = alloca i32, align 4
  %27 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %6, align 8, !tbaa !11
  store ptr addrspace(1) %1, ptr %7, align 8, !tbaa !11
  store ptr addrspace(1) %2, ptr %8, align 8, !tbaa !11
  store i32 %3, ptr %9, align 4, !tbaa !15
  store i32 %4, ptr %10, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #5
  %28 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %29 = trunc i64 %28 to i32
  store i32 %29, ptr %11, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #5
  %30 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %31 = trunc i64 %30 to i32
  store i32 %31, ptr %12, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #5
  %32 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %33 = mul i64 %32, 16
  %34 = trunc i64 %33 to i32
  store i32 %34, ptr %13, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #5
  %35 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %36 = mul i64 %35, 16
  %37 = trunc i64 %36 to i32
  store i32 %37, ptr %14, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %15) #5
  store <4 x float> zeroinitializer, ptr %15, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %16) #5
  store <4 x float> zeroinitializer, ptr %16, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %17) #5
  store <4 x float> zeroinitializer, ptr %17, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %18) #5
  store <4 x float> zeroinitializer, ptr %18, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #5
  store i32 0, ptr %19, align 4, !tbaa !15
  br label %38

38:                                               ; preds = %135, %5
  %39 = load i32, ptr %19, align 4, !tbaa !15
  %40 = load i32, ptr %9, align 4, !tbaa !15
  %41 = icmp slt i32 %39, %40
  br i1 %41, label %43, label %42

42:                                               ; preds = %38
  store i32 2, ptr %20, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #5
  br label %138

43:                                               ; preds = %38
  %44 = load ptr addrspace(1), ptr %6, align 8, !tbaa !11
  %45 = load i32, ptr %19, align 4, !tbaa !15
  %46 = load i32, ptr %12, align 4, !tbaa !15
  %47 = add nsw i32 %45, %46
  %48 = load i32, ptr %9, align 4, !tbaa !15
  %49 = sdiv i32 %48, 4
  %50 = mul nsw i32 %47, %49
  %51 = load i32, ptr %13, align 4, !tbaa !15
  %52 = add nsw i32 %50, %51
  %53 = load i32, ptr %11, align 4, !tbaa !15
  %54 = add nsw i32 %52, %53
  %55 = sext i32 %54 to i64
  %56 = getelementptr inbounds <4 x float>, ptr addrspace(1) %44, i64 %55
  %57 = load <4 x float>, ptr addrspace(1) %56, align 16, !tbaa !17
  %58 = load i32, ptr %12, align 4, !tbaa !15
  %59 = sext i32 %58 to i64
  %60 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @tiles.al, i64 0, i64 %59
  %61 = load i32, ptr %11, align 4, !tbaa !15
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %60, i64 0, i64 %62
  store <4 x float> %57, ptr addrspace(3) %63, align 16, !tbaa !17
  %64 = load ptr addrspace(1), ptr %7, align 8, !tbaa !11
  %65 = load i32, ptr %19, align 4, !tbaa !15
  %66 = load i32, ptr %12, align 4, !tbaa !15
  %67 = add nsw i32 %65, %66
  %68 = load i32, ptr %9, align 4, !tbaa !15
  %69 = sdiv i32 %68, 4
  %70 = mul nsw i32 %67, %69
  %71 = load i32, ptr %14, align 4, !tbaa !15
  %72 = add nsw i32 %70, %71
  %73 = load i32, ptr %11, align 4, !tbaa !15
  %74 = add nsw i32 %72, %73
  %75 = sext i32 %74 to i64
  %76 = getelementptr inbounds <4 x float>, ptr addrspace(1) %64, i64 %75
  %77 = load <4 x float>, ptr addrspace(1) %76, align 16, !tbaa !17
  %78 = load i32, ptr %12, align 4, !tbaa !15
  %79 = sext i32 %78 to i64
  %80 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @tiles.bl, i64 0, i64 %79
  %81 = load i32, ptr %11, align 4, !tbaa !15
  %82 = sext i32 %81 to i64
  %83 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %80, i64 0, i64 %82
  store <4 x float> %77, ptr addrspace(3) %83, align 16, !tbaa !17
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #5
  store i32 0, ptr %21, align 4, !tbaa !15
  br label %84

84:                                               ; preds = %131, %43
  %85 = load i32, ptr %21, align 4, !tbaa !15
  %86 = icmp slt i32 %85, 16
  br i1 %86, label %88, label %87

87:                                               ; preds = %84
  store i32 5, ptr %20, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #5
  br label %134

88:                                               ; preds = %84
  call void @llvm.lifetime.start.p0(i64 16, ptr %22) #5
  %89 = load i32, ptr %21, align 4, !tbaa !15
  %90 = sext i32 %89 to i64
  %91 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @tiles.al, i64 0, i64 %90
  %92 = load i32, ptr %12, align 4, !tbaa !15
  %93 = sext i32 %92 to i64
  %94 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %91, i64 0, i64 %93
  %95 = load <4 x float>, ptr addrspace(3) %94, align 16, !tbaa !17
  store <4 x float> %95, ptr %22, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %23) #5
  %96 = load i32, ptr %21, align 4, !tbaa !15
  %97 = sext i32 %96 to i64
  %98 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @tiles.bl, i64 0, i64 %97
  %99 = load i32, ptr %11, align 4, !tbaa !15
  %100 = sext i32 %99 to i64
  %101 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %98, i64 0, i64 %100
  %102 = load <4 x float>, ptr addrspace(3) %101, align 16, !tbaa !17
  store <4 x float> %102, ptr %23, align 16, !tbaa !17
  %103 = load <4 x float>, ptr %22, align 16
  %104 = extractelement <4 x float> %103, i64 0
  %105 = insertelement <4 x float> poison, float %104, i64 0
  %106 = shufflevector <4 x float> %105, <4 x float> poison, <4 x i32> zeroinitializer
  %107 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %108 = load <4 x float>, ptr %15, align 16, !tbaa !17
  %109 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %106, <4 x float> %107, <4 x float> %108)
  store <4 x float> %109, ptr %15, align 16, !tbaa !17
  %110 = load <4 x float>, ptr %22, align 16
  %111 = extractelement <4 x float> %110, i64 1
  %112 = insertelement <4 x float> poison, float %111, i64 0
  %113 = shufflevector <4 x float> %112, <4 x float> poison, <4 x i32> zeroinitializer
  %114 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %115 = load <4 x float>, ptr %16, align 16, !tbaa !17
  %116 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %113, <4 x float> %114, <4 x float> %115)
  store <4 x float> %116, ptr %16, align 16, !tbaa !17
  %117 = load <4 x float>, ptr %22, align 16
  %118 = extractelement <4 x float> %117, i64 2
  %119 = insertelement <4 x float> poison, float %118, i64 0
  %120 = shufflevector <4 x float> %119, <4 x float> poison, <4 x i32> zeroinitializer
  %121 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %122 = load <4 x float>, ptr %17, align 16, !tbaa !17
  %123 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %120, <4 x float> %121, <4 x float> %122)
  store <4 x float> %123, ptr %17, align 16, !tbaa !17
  %124 = load <4 x float>, ptr %22, align 16
  %125 = extractelement <4 x float> %124, i64 3
  %126 = insertelement <4 x float> poison, float %125, i64 0
  %127 = shufflevector <4 x float> %126, <4 x float> poison, <4 x i32> zeroinitializer
  %128 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %129 = load <4 x float>, ptr %18, align 16, !tbaa !17
  %130 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %127, <4 x float> %128, <4 x float> %129)
  store <4 x float> %130, ptr %18, align 16, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 16, ptr %23) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %22) #5
  br label %131

131:                                              ; preds = %88
  %132 = load i32, ptr %21, align 4, !tbaa !15
  %133 = add nsw i32 %132, 1
  store i32 %133, ptr %21, align 4, !tbaa !15
  br label %84

134:                                              ; preds = %87
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  br label %135

135:                                              ; preds = %134
  %136 = load i32, ptr %19, align 4, !tbaa !15
  %137 = add nsw i32 %136, 16
  store i32 %137, ptr %19, align 4, !tbaa !15
  br label %38

138:                                              ; preds = %42
  call void @llvm.lifetime.start.p0(i64 272, ptr %24) #5
  %139 = getelementptr inbounds [17 x <4 x float>], ptr %24, i64 0, i64 0
  %140 = load <4 x float>, ptr %15, align 16, !tbaa !17
  store <4 x float> %140, ptr %139, align 16, !tbaa !17
  %141 = getelementptr inbounds <4 x float>, ptr %139, i64 1
  %142 = load <4 x float>, ptr %16, align 16, !tbaa !17
  store <4 x float> %142, ptr %141, align 16, !tbaa !17
  %143 = getelementptr inbounds <4 x float>, ptr %141, i64 1
  %144 = load <4 x float>, ptr %17, align 16, !tbaa !17
  store <4 x float> %144, ptr %143, align 16, !tbaa !17
  %145 = getelementptr inbounds <4 x float>, ptr %143, i64 1
  %146 = load <4 x float>, ptr %18, align 16, !tbaa !17
  store <4 x float> %146, ptr %145, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %25) #5
  %147 = load i32, ptr %13, align 4, !tbaa !15
  %148 = load i32, ptr %12, align 4, !tbaa !15
  %149 = add nsw i32 %147, %148
  %150 = mul nsw i32 %149, 4
  store i32 %150, ptr %25, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %26) #5
  %151 = load i32, ptr %14, align 4, !tbaa !15
  %152 = load i32, ptr %11, align 4, !tbaa !15
  %153 = add nsw i32 %151, %152
  %154 = mul nsw i32 %153, 4
  store i32 %154, ptr %26, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %27) #5
  store i32 0, ptr %27, align 4, !tbaa !15
  br label %155

155:                                              ; preds = %183, %138
  %156 = load i32, ptr %27, align 4, !tbaa !15
  %157 = icmp slt i32 %156, 4
  br i1 %157, label %158, label %164

158:                                              ; preds = %155
  %159 = load i32, ptr %25, align 4, !tbaa !15
  %160 = load i32, ptr %27, align 4, !tbaa !15
  %161 = add nsw i32 %159, %160
  %162 = load i32, ptr %10, align 4, !tbaa !15
  %163 = icmp slt i32 %161, %162
  br label %164

164:                                              ; preds = %158, %155
  %165 = phi i1 [ false, %155 ], [ %163, %158 ]
  br i1 %165, label %167, label %166

166:                                              ; preds = %164
  store i32 8, ptr %20, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %27) #5
  br label %186

167:                                              ; preds = %164
  %168 = load i32, ptr %27, align 4, !tbaa !15
  %169 = sext i32 %168 to i64
  %170 = getelementptr inbounds [17 x <4 x float>], ptr %24, i64 0, i64 %169
  %171 = load <4 x float>, ptr %170, align 16, !tbaa !17
  %172 = load ptr addrspace(1), ptr %8, align 8, !tbaa !11
  %173 = load i32, ptr %25, align 4, !tbaa !15
  %174 = load i32, ptr %27, align 4, !tbaa !15
  %175 = add nsw i32 %173, %174
  %176 = load i32, ptr %9, align 4, !tbaa !15
  %177 = mul nsw i32 %175, %176
  %178 = sext i32 %177 to i64
  %179 = getelementptr inbounds float, ptr addrspace(1) %172, i64 %178
  %180 = load i32, ptr %26, align 4, !tbaa !15
  %181 = sext i32 %180 to i64
  %182 = getelementptr inbounds float, ptr addrspace(1) %179, i64 %181
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %171, i64 noundef 0, ptr addrspace(1) noundef %182) #7
  br label %183

183:                                              ; preds = %167
  %184 = load i32, ptr %27, align 4, !tbaa !15
  %185 = add nsw i32 %184, 1
  store i32 %185, ptr %27, align 4, !tbaa !15
  br label %155

186:                                              ; preds = %166
  call void @llvm.lifetime.end.p0(i64 4, ptr %26) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %25) #5
  call void @llvm.lifetime.end.p0(i64 272, ptr %24) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %18) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %17) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %16) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %15) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #5
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

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @widened(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 16 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3, i32 noundef %4) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 !reqd_work_group_size !10 {
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca <4 x float>, align 16
  %16 = alloca <4 x float>, align 16
  %17 = alloca <4 x float>, align 16
  %18 = alloca <4 x float>, align 16
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca <4 x float>, align 16
  %23 = alloca <4 x float>, align 16
  %24 = alloca i32, align 4
  %25 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %6, align 8, !tbaa !11
  store ptr addrspace(1) %1, ptr %7, align 8, !tbaa !11
  store ptr addrspace(1) %2, ptr %8, align 8, !tbaa !11
  store i32 %3, ptr %9, align 4, !tbaa !15
  store i32 %4, ptr %10, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #5
  %26 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %27 = trunc i64 %26 to i32
  store i32 %27, ptr %11, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #5
  %28 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %29 = trunc i64 %28 to i32
  store i32 %29, ptr %12, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #5
  %30 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %31 = mul i64 %30, 16
  %32 = trunc i64 %31 to i32
  store i32 %32, ptr %13, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #5
  %33 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %34 = mul i64 %33, 16
  %35 = trunc i64 %34 to i32
  store i32 %35, ptr %14, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %15) #5
  store <4 x float> zeroinitializer, ptr %15, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %16) #5
  store <4 x float> zeroinitializer, ptr %16, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %17) #5
  store <4 x float> zeroinitializer, ptr %17, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %18) #5
  store <4 x float> zeroinitializer, ptr %18, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #5
  store i32 0, ptr %19, align 4, !tbaa !15
  br label %36

36:                                               ; preds = %133, %5
  %37 = load i32, ptr %19, align 4, !tbaa !15
  %38 = load i32, ptr %9, align 4, !tbaa !15
  %39 = icmp slt i32 %37, %38
  br i1 %39, label %41, label %40

40:                                               ; preds = %36
  store i32 2, ptr %20, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #5
  br label %136

41:                                               ; preds = %36
  %42 = load ptr addrspace(1), ptr %6, align 8, !tbaa !11
  %43 = load i32, ptr %19, align 4, !tbaa !15
  %44 = load i32, ptr %12, align 4, !tbaa !15
  %45 = add nsw i32 %43, %44
  %46 = load i32, ptr %9, align 4, !tbaa !15
  %47 = sdiv i32 %46, 4
  %48 = mul nsw i32 %45, %47
  %49 = load i32, ptr %13, align 4, !tbaa !15
  %50 = add nsw i32 %48, %49
  %51 = load i32, ptr %11, align 4, !tbaa !15
  %52 = add nsw i32 %50, %51
  %53 = sext i32 %52 to i64
  %54 = getelementptr inbounds <4 x float>, ptr addrspace(1) %42, i64 %53
  %55 = load <4 x float>, ptr addrspace(1) %54, align 16, !tbaa !17
  %56 = load i32, ptr %12, align 4, !tbaa !15
  %57 = sext i32 %56 to i64
  %58 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @widened.al, i64 0, i64 %57
  %59 = load i32, ptr %11, align 4, !tbaa !15
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %58, i64 0, i64 %60
  store <4 x float> %55, ptr addrspace(3) %61, align 16, !tbaa !17
  %62 = load ptr addrspace(1), ptr %7, align 8, !tbaa !11
  %63 = load i32, ptr %19, align 4, !tbaa !15
  %64 = load i32, ptr %12, align 4, !tbaa !15
  %65 = add nsw i32 %63, %64
  %66 = load i32, ptr %9, align 4, !tbaa !15
  %67 = sdiv i32 %66, 4
  %68 = mul nsw i32 %65, %67
  %69 = load i32, ptr %14, align 4, !tbaa !15
  %70 = add nsw i32 %68, %69
  %71 = load i32, ptr %11, align 4, !tbaa !15
  %72 = add nsw i32 %70, %71
  %73 = sext i32 %72 to i64
  %74 = getelementptr inbounds <4 x float>, ptr addrspace(1) %62, i64 %73
  %75 = load <4 x float>, ptr addrspace(1) %74, align 16, !tbaa !17
  %76 = load i32, ptr %12, align 4, !tbaa !15
  %77 = sext i32 %76 to i64
  %78 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @widened.bl, i64 0, i64 %77
  %79 = load i32, ptr %11, align 4, !tbaa !15
  %80 = sext i32 %79 to i64
  %81 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %78, i64 0, i64 %80
  store <4 x float> %75, ptr addrspace(3) %81, align 16, !tbaa !17
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #5
  store i32 0, ptr %21, align 4, !tbaa !15
  br label %82

82:                                               ; preds = %129, %41
  %83 = load i32, ptr %21, align 4, !tbaa !15
  %84 = icmp slt i32 %83, 16
  br i1 %84, label %86, label %85

85:                                               ; preds = %82
  store i32 5, ptr %20, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #5
  br label %132

86:                                               ; preds = %82
  call void @llvm.lifetime.start.p0(i64 16, ptr %22) #5
  %87 = load i32, ptr %21, align 4, !tbaa !15
  %88 = sext i32 %87 to i64
  %89 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @widened.al, i64 0, i64 %88
  %90 = load i32, ptr %12, align 4, !tbaa !15
  %91 = sext i32 %90 to i64
  %92 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %89, i64 0, i64 %91
  %93 = load <4 x float>, ptr addrspace(3) %92, align 16, !tbaa !17
  store <4 x float> %93, ptr %22, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 16, ptr %23) #5
  %94 = load i32, ptr %21, align 4, !tbaa !15
  %95 = sext i32 %94 to i64
  %96 = getelementptr inbounds [16 x [16 x <4 x float>]], ptr addrspace(3) @widened.bl, i64 0, i64 %95
  %97 = load i32, ptr %11, align 4, !tbaa !15
  %98 = sext i32 %97 to i64
  %99 = getelementptr inbounds [16 x <4 x float>], ptr addrspace(3) %96, i64 0, i64 %98
  %100 = load <4 x float>, ptr addrspace(3) %99, align 16, !tbaa !17
  store <4 x float> %100, ptr %23, align 16, !tbaa !17
  %101 = load <4 x float>, ptr %22, align 16
  %102 = extractelement <4 x float> %101, i64 0
  %103 = insertelement <4 x float> poison, float %102, i64 0
  %104 = shufflevector <4 x float> %103, <4 x float> poison, <4 x i32> zeroinitializer
  %105 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %106 = load <4 x float>, ptr %15, align 16, !tbaa !17
  %107 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %104, <4 x float> %105, <4 x float> %106)
  store <4 x float> %107, ptr %15, align 16, !tbaa !17
  %108 = load <4 x float>, ptr %22, align 16
  %109 = extractelement <4 x float> %108, i64 1
  %110 = insertelement <4 x float> poison, float %109, i64 0
  %111 = shufflevector <4 x float> %110, <4 x float> poison, <4 x i32> zeroinitializer
  %112 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %113 = load <4 x float>, ptr %16, align 16, !tbaa !17
  %114 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %111, <4 x float> %112, <4 x float> %113)
  store <4 x float> %114, ptr %16, align 16, !tbaa !17
  %115 = load <4 x float>, ptr %22, align 16
  %116 = extractelement <4 x float> %115, i64 2
  %117 = insertelement <4 x float> poison, float %116, i64 0
  %118 = shufflevector <4 x float> %117, <4 x float> poison, <4 x i32> zeroinitializer
  %119 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %120 = load <4 x float>, ptr %17, align 16, !tbaa !17
  %121 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %118, <4 x float> %119, <4 x float> %120)
  store <4 x float> %121, ptr %17, align 16, !tbaa !17
  %122 = load <4 x float>, ptr %22, align 16
  %123 = extractelement <4 x float> %122, i64 3
  %124 = insertelement <4 x float> poison, float %123, i64 0
  %125 = shufflevector <4 x float> %124, <4 x float> poison, <4 x i32> zeroinitializer
  %126 = load <4 x float>, ptr %23, align 16, !tbaa !17
  %127 = load <4 x float>, ptr %18, align 16, !tbaa !17
  %128 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %125, <4 x float> %126, <4 x float> %127)
  store <4 x float> %128, ptr %18, align 16, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 16, ptr %23) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %22) #5
  br label %129

129:                                              ; preds = %86
  %130 = load i32, ptr %21, align 4, !tbaa !15
  %131 = add nsw i32 %130, 1
  store i32 %131, ptr %21, align 4, !tbaa !15
  br label %82

132:                                              ; preds = %85
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  br label %133

133:                                              ; preds = %132
  %134 = load i32, ptr %19, align 4, !tbaa !15
  %135 = add nsw i32 %134, 16
  store i32 %135, ptr %19, align 4, !tbaa !15
  br label %36

136:                                              ; preds = %40
  call void @llvm.lifetime.start.p0(i64 4, ptr %24) #5
  %137 = load i32, ptr %13, align 4, !tbaa !15
  %138 = load i32, ptr %12, align 4, !tbaa !15
  %139 = add nsw i32 %137, %138
  %140 = mul nsw i32 %139, 4
  store i32 %140, ptr %24, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %25) #5
  %141 = load i32, ptr %14, align 4, !tbaa !15
  %142 = load i32, ptr %11, align 4, !tbaa !15
  %143 = add nsw i32 %141, %142
  %144 = mul nsw i32 %143, 4
  store i32 %144, ptr %25, align 4, !tbaa !15
  %145 = load <4 x float>, ptr %15, align 16, !tbaa !17
  %146 = load <4 x float>, ptr %16, align 16, !tbaa !17
  %147 = fadd <4 x float> %145, %146
  %148 = load <4 x float>, ptr %17, align 16, !tbaa !17
  %149 = fadd <4 x float> %147, %148
  %150 = load <4 x float>, ptr %18, align 16, !tbaa !17
  %151 = fadd <4 x float> %149, %150
  %152 = load ptr addrspace(1), ptr %8, align 8, !tbaa !11
  %153 = load i32, ptr %24, align 4, !tbaa !15
  %154 = load i32, ptr %9, align 4, !tbaa !15
  %155 = mul nsw i32 %153, %154
  %156 = sext i32 %155 to i64
  %157 = getelementptr inbounds float, ptr addrspace(1) %152, i64 %156
  %158 = load i32, ptr %25, align 4, !tbaa !15
  %159 = sext i32 %158 to i64
  %160 = getelementptr inbounds float, ptr addrspace(1) %157, i64 %159
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %151, i64 noundef 0, ptr addrspace(1) noundef %160) #7
  call void @llvm.lifetime.end.p0(i64 4, ptr %25) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %24) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %18) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %17) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %16) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %15) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #5
  ret void
}

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
!4 = !{i32 1, i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none"}
!6 = !{!"float4*", !"float4*", !"float*", !"int", !"int"}
!7 = !{!"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float*", !"int", !"int"}
!8 = !{!"const", !"const", !"", !"", !""}
!9 = !{!"a", !"b", !"c", !"n", !"m"}
!10 = !{i32 16, i32 16, i32 1}
!11 = !{!12, !12, i64 0}
!12 = !{!"any pointer", !13, i64 0}
!13 = !{!"omnipotent char", !14, i64 0}
!14 = !{!"Simple C/C++ TBAA"}
!15 = !{!16, !16, i64 0}
!16 = !{!"int", !13, i64 0}
!17 = !{!13, !13, i64 0}
