; join-and-share-reads: what joining leaves of a widened row's gathers and
; scatters with every lane on is done a lane at a time (masked_ops.c).  The
; GEMM of work-group-function-library-gemm.ll stores A's slice into its
; __local tile transposed (`al[p + c][v / 4] = x.c`): four scatters of 8
; lanes a row of work-items.  The lanes' addresses differ by constants (v /
; 4 and v % 4 * 4 are a shift and a mask of a v whose part the row shares is
; a multiple of 8; al's rows are 80 bytes: lanes 1-3 four rows on, lanes 4-7
; one column on), so lane i + 4 stores just after lane i: each scatter
; becomes one of 4 pairs (the value's halves interleaved, 8-byte elements),
; then 4 stores of 8 bytes, lane 0's address taken from the vector and the
; others it plus their distance.
; RUN: mosaic-opt --one-size=mm:8,8,1 --stop-after=join-and-share-reads --print-before %s | FileCheck %s
; CHECK-LABEL: define void @mm.wg(
; CHECK: call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %{{[0-9]+}}, <8 x ptr addrspace(3)> %{{[0-9]+}}, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !mosaic.row.access
; CHECK-LABEL: ;; after join-and-share-reads
; CHECK-LABEL: define void @mm.wg(
; CHECK-NOT: call void @llvm.masked.scatter.v8f32.v8p3({{.*}}<i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
; CHECK: [[V:%[0-9]+]] = shufflevector <8 x float> %{{[0-9]+}}, <8 x float> poison, <8 x i32> <i32 0, i32 4, i32 1, i32 5, i32 2, i32 6, i32 3, i32 7>
; CHECK-NEXT: [[PAIRS:%[0-9]+]] = bitcast <8 x float> [[V]] to <4 x i64>
; CHECK-NEXT: [[P:%lane.ptr[0-9]*]] = extractelement <8 x ptr addrspace(3)> %{{[0-9]+}}, i64 0
; CHECK-NEXT: [[P1:%lane.ptr[0-9]+]] = getelementptr i8, ptr addrspace(3) [[P]], i64 320
; CHECK-NEXT: getelementptr i8, ptr addrspace(3) [[P]], i64 640
; CHECK-NEXT: [[P3:%lane.ptr[0-9]+]] = getelementptr i8, ptr addrspace(3) [[P]], i64 960
; CHECK-NEXT: [[L0:%lane[0-9]*]] = extractelement <4 x i64> [[PAIRS]], i64 0
; CHECK-NEXT: store i64 [[L0]], ptr addrspace(3) [[P]], align 4
; CHECK-NEXT: [[L1:%lane[0-9]*]] = extractelement <4 x i64> [[PAIRS]], i64 1
; CHECK-NEXT: store i64 [[L1]], ptr addrspace(3) [[P1]], align 4
; CHECK: [[L3:%lane[0-9]*]] = extractelement <4 x i64> [[PAIRS]], i64 3
; CHECK-NEXT: store i64 [[L3]], ptr addrspace(3) [[P3]], align 4
; CHECK-NOT: store float %lane{{[0-9]*}}, ptr addrspace(3)
; CHECK-NOT: call void @llvm.masked.scatter.v8f32.v8p3({{.*}}<i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
; CHECK: ret void

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@mm.al = internal addrspace(3) global [16 x [20 x float]] undef, align 4
@mm.bl = internal addrspace(3) global [16 x [36 x float]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @mm(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3, i32 noundef %4, i32 noundef %5, i32 noundef %6, i32 noundef %7) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 !reqd_work_group_size !9 {
  %9 = alloca ptr addrspace(1), align 8
  %10 = alloca ptr addrspace(1), align 8
  %11 = alloca ptr addrspace(1), align 8
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca [2 x <4 x float>], align 16
  %23 = alloca i32, align 4
  %24 = alloca i32, align 4
  %25 = alloca i32, align 4
  %26 = alloca i32, align 4
  %27 = alloca i32, align 4
  %28 = alloca i32, align 4
  %29 = alloca <4 x float>, align 16
  %30 = alloca i32, align 4
  %31 = alloca i32, align 4
  %32 = alloca i32, align 4
  %33 = alloca i32, align 4
  %34 = alloca <4 x float>, align 16
  %35 = alloca i32, align 4
  %36 = alloca i32, align 4
  %37 = alloca i32, align 4
  %38 = alloca [4 x float], align 4
  %39 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %9, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %10, align 8, !tbaa !10
  store ptr addrspace(1) %2, ptr %11, align 8, !tbaa !10
  store i32 %3, ptr %12, align 4, !tbaa !14
  store i32 %4, ptr %13, align 4, !tbaa !14
  store i32 %5, ptr %14, align 4, !tbaa !14
  store i32 %6, ptr %15, align 4, !tbaa !14
  store i32 %7, ptr %16, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #6
  %40 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #7
  %41 = trunc i64 %40 to i32
  store i32 %41, ptr %17, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %18) #6
  %42 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #7
  %43 = trunc i64 %42 to i32
  store i32 %43, ptr %18, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #6
  %44 = load i32, ptr %18, align 4, !tbaa !14
  %45 = mul nsw i32 %44, 8
  %46 = load i32, ptr %17, align 4, !tbaa !14
  %47 = add nsw i32 %45, %46
  store i32 %47, ptr %19, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %20) #6
  %48 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #7
  %49 = mul i64 %48, 16
  %50 = trunc i64 %49 to i32
  store i32 %50, ptr %20, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #6
  %51 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #7
  %52 = mul i64 %51, 32
  %53 = trunc i64 %52 to i32
  store i32 %53, ptr %21, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 32, ptr %22) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %23) #6
  store i32 0, ptr %23, align 4, !tbaa !14
  br label %54

54:                                               ; preds = %62, %8
  %55 = load i32, ptr %23, align 4, !tbaa !14
  %56 = icmp slt i32 %55, 2
  br i1 %56, label %58, label %57

57:                                               ; preds = %54
  call void @llvm.lifetime.end.p0(i64 4, ptr %23) #6
  br label %65

58:                                               ; preds = %54
  %59 = load i32, ptr %23, align 4, !tbaa !14
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %60
  store <4 x float> zeroinitializer, ptr %61, align 16, !tbaa !16
  br label %62

62:                                               ; preds = %58
  %63 = load i32, ptr %23, align 4, !tbaa !14
  %64 = add nsw i32 %63, 1
  store i32 %64, ptr %23, align 4, !tbaa !14
  br label %54

65:                                               ; preds = %57
  call void @llvm.lifetime.start.p0(i64 4, ptr %24) #6
  store i32 0, ptr %24, align 4, !tbaa !14
  br label %66

66:                                               ; preds = %219, %65
  %67 = load i32, ptr %24, align 4, !tbaa !14
  %68 = load i32, ptr %12, align 4, !tbaa !14
  %69 = icmp slt i32 %67, %68
  br i1 %69, label %71, label %70

70:                                               ; preds = %66
  store i32 5, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %24) #6
  br label %222

71:                                               ; preds = %66
  call void @llvm.lifetime.start.p0(i64 4, ptr %26) #6
  %72 = load i32, ptr %19, align 4, !tbaa !14
  store i32 %72, ptr %26, align 4, !tbaa !14
  br label %73

73:                                               ; preds = %133, %71
  %74 = load i32, ptr %26, align 4, !tbaa !14
  %75 = icmp slt i32 %74, 64
  br i1 %75, label %77, label %76

76:                                               ; preds = %73
  store i32 8, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %26) #6
  br label %136

77:                                               ; preds = %73
  call void @llvm.lifetime.start.p0(i64 4, ptr %27) #6
  %78 = load i32, ptr %26, align 4, !tbaa !14
  %79 = sdiv i32 %78, 4
  store i32 %79, ptr %27, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %28) #6
  %80 = load i32, ptr %26, align 4, !tbaa !14
  %81 = srem i32 %80, 4
  %82 = mul nsw i32 %81, 4
  store i32 %82, ptr %28, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 16, ptr %29) #6
  %83 = load ptr addrspace(1), ptr %9, align 8, !tbaa !10
  %84 = load i32, ptr %20, align 4, !tbaa !14
  %85 = load i32, ptr %27, align 4, !tbaa !14
  %86 = add nsw i32 %84, %85
  %87 = load i32, ptr %13, align 4, !tbaa !14
  %88 = mul nsw i32 %86, %87
  %89 = sext i32 %88 to i64
  %90 = getelementptr inbounds float, ptr addrspace(1) %83, i64 %89
  %91 = load i32, ptr %24, align 4, !tbaa !14
  %92 = sext i32 %91 to i64
  %93 = getelementptr inbounds float, ptr addrspace(1) %90, i64 %92
  %94 = load i32, ptr %28, align 4, !tbaa !14
  %95 = sext i32 %94 to i64
  %96 = getelementptr inbounds float, ptr addrspace(1) %93, i64 %95
  %97 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %96) #8
  store <4 x float> %97, ptr %29, align 16, !tbaa !16
  %98 = load <4 x float>, ptr %29, align 16
  %99 = extractelement <4 x float> %98, i64 0
  %100 = load i32, ptr %28, align 4, !tbaa !14
  %101 = sext i32 %100 to i64
  %102 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %101
  %103 = load i32, ptr %27, align 4, !tbaa !14
  %104 = sext i32 %103 to i64
  %105 = getelementptr inbounds [20 x float], ptr addrspace(3) %102, i64 0, i64 %104
  store float %99, ptr addrspace(3) %105, align 4, !tbaa !17
  %106 = load <4 x float>, ptr %29, align 16
  %107 = extractelement <4 x float> %106, i64 1
  %108 = load i32, ptr %28, align 4, !tbaa !14
  %109 = add nsw i32 %108, 1
  %110 = sext i32 %109 to i64
  %111 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %110
  %112 = load i32, ptr %27, align 4, !tbaa !14
  %113 = sext i32 %112 to i64
  %114 = getelementptr inbounds [20 x float], ptr addrspace(3) %111, i64 0, i64 %113
  store float %107, ptr addrspace(3) %114, align 4, !tbaa !17
  %115 = load <4 x float>, ptr %29, align 16
  %116 = extractelement <4 x float> %115, i64 2
  %117 = load i32, ptr %28, align 4, !tbaa !14
  %118 = add nsw i32 %117, 2
  %119 = sext i32 %118 to i64
  %120 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %119
  %121 = load i32, ptr %27, align 4, !tbaa !14
  %122 = sext i32 %121 to i64
  %123 = getelementptr inbounds [20 x float], ptr addrspace(3) %120, i64 0, i64 %122
  store float %116, ptr addrspace(3) %123, align 4, !tbaa !17
  %124 = load <4 x float>, ptr %29, align 16
  %125 = extractelement <4 x float> %124, i64 3
  %126 = load i32, ptr %28, align 4, !tbaa !14
  %127 = add nsw i32 %126, 3
  %128 = sext i32 %127 to i64
  %129 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %128
  %130 = load i32, ptr %27, align 4, !tbaa !14
  %131 = sext i32 %130 to i64
  %132 = getelementptr inbounds [20 x float], ptr addrspace(3) %129, i64 0, i64 %131
  store float %125, ptr addrspace(3) %132, align 4, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 16, ptr %29) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %28) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %27) #6
  br label %133

133:                                              ; preds = %77
  %134 = load i32, ptr %26, align 4, !tbaa !14
  %135 = add nsw i32 %134, 64
  store i32 %135, ptr %26, align 4, !tbaa !14
  br label %73

136:                                              ; preds = %76
  call void @llvm.lifetime.start.p0(i64 4, ptr %30) #6
  %137 = load i32, ptr %19, align 4, !tbaa !14
  store i32 %137, ptr %30, align 4, !tbaa !14
  br label %138

138:                                              ; preds = %169, %136
  %139 = load i32, ptr %30, align 4, !tbaa !14
  %140 = icmp slt i32 %139, 128
  br i1 %140, label %142, label %141

141:                                              ; preds = %138
  store i32 11, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %30) #6
  br label %172

142:                                              ; preds = %138
  call void @llvm.lifetime.start.p0(i64 4, ptr %31) #6
  %143 = load i32, ptr %30, align 4, !tbaa !14
  %144 = sdiv i32 %143, 8
  store i32 %144, ptr %31, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %32) #6
  %145 = load i32, ptr %30, align 4, !tbaa !14
  %146 = srem i32 %145, 8
  %147 = mul nsw i32 %146, 4
  store i32 %147, ptr %32, align 4, !tbaa !14
  %148 = load ptr addrspace(1), ptr %10, align 8, !tbaa !10
  %149 = load i32, ptr %24, align 4, !tbaa !14
  %150 = load i32, ptr %31, align 4, !tbaa !14
  %151 = add nsw i32 %149, %150
  %152 = load i32, ptr %14, align 4, !tbaa !14
  %153 = mul nsw i32 %151, %152
  %154 = sext i32 %153 to i64
  %155 = getelementptr inbounds float, ptr addrspace(1) %148, i64 %154
  %156 = load i32, ptr %21, align 4, !tbaa !14
  %157 = sext i32 %156 to i64
  %158 = getelementptr inbounds float, ptr addrspace(1) %155, i64 %157
  %159 = load i32, ptr %32, align 4, !tbaa !14
  %160 = sext i32 %159 to i64
  %161 = getelementptr inbounds float, ptr addrspace(1) %158, i64 %160
  %162 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef 0, ptr addrspace(1) noundef %161) #8
  %163 = load i32, ptr %31, align 4, !tbaa !14
  %164 = sext i32 %163 to i64
  %165 = getelementptr inbounds [16 x [36 x float]], ptr addrspace(3) @mm.bl, i64 0, i64 %164
  %166 = load i32, ptr %32, align 4, !tbaa !14
  %167 = sext i32 %166 to i64
  %168 = getelementptr inbounds [36 x float], ptr addrspace(3) %165, i64 0, i64 %167
  call spir_func void @_Z7vstore4Dv4_fmPU3AS3f(<4 x float> noundef %162, i64 noundef 0, ptr addrspace(3) noundef %168) #9
  call void @llvm.lifetime.end.p0(i64 4, ptr %32) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %31) #6
  br label %169

169:                                              ; preds = %142
  %170 = load i32, ptr %30, align 4, !tbaa !14
  %171 = add nsw i32 %170, 64
  store i32 %171, ptr %30, align 4, !tbaa !14
  br label %138

172:                                              ; preds = %141
  call spir_func void @_Z7barrierj(i32 noundef 1) #9
  call void @llvm.lifetime.start.p0(i64 4, ptr %33) #6
  store i32 0, ptr %33, align 4, !tbaa !14
  br label %173

173:                                              ; preds = %215, %172
  %174 = load i32, ptr %33, align 4, !tbaa !14
  %175 = icmp slt i32 %174, 16
  br i1 %175, label %177, label %176

176:                                              ; preds = %173
  store i32 14, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %33) #6
  br label %218

177:                                              ; preds = %173
  call void @llvm.lifetime.start.p0(i64 16, ptr %34) #6
  %178 = load i32, ptr %33, align 4, !tbaa !14
  %179 = sext i32 %178 to i64
  %180 = getelementptr inbounds [16 x [36 x float]], ptr addrspace(3) @mm.bl, i64 0, i64 %179
  %181 = load i32, ptr %17, align 4, !tbaa !14
  %182 = mul nsw i32 %181, 4
  %183 = sext i32 %182 to i64
  %184 = getelementptr inbounds [36 x float], ptr addrspace(3) %180, i64 0, i64 %183
  %185 = call spir_func <4 x float> @_Z6vload4mPU3AS3Kf(i64 noundef 0, ptr addrspace(3) noundef %184) #8
  store <4 x float> %185, ptr %34, align 16, !tbaa !16
  %186 = load i32, ptr %33, align 4, !tbaa !14
  %187 = sext i32 %186 to i64
  %188 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %187
  %189 = load i32, ptr %18, align 4, !tbaa !14
  %190 = mul nsw i32 %189, 2
  %191 = sext i32 %190 to i64
  %192 = getelementptr inbounds [20 x float], ptr addrspace(3) %188, i64 0, i64 %191
  %193 = load float, ptr addrspace(3) %192, align 4, !tbaa !17
  %194 = insertelement <4 x float> poison, float %193, i64 0
  %195 = shufflevector <4 x float> %194, <4 x float> poison, <4 x i32> zeroinitializer
  %196 = load <4 x float>, ptr %34, align 16, !tbaa !16
  %197 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 0
  %198 = load <4 x float>, ptr %197, align 16, !tbaa !16
  %199 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %195, <4 x float> %196, <4 x float> %198)
  store <4 x float> %199, ptr %197, align 16, !tbaa !16
  %200 = load i32, ptr %33, align 4, !tbaa !14
  %201 = sext i32 %200 to i64
  %202 = getelementptr inbounds [16 x [20 x float]], ptr addrspace(3) @mm.al, i64 0, i64 %201
  %203 = load i32, ptr %18, align 4, !tbaa !14
  %204 = mul nsw i32 %203, 2
  %205 = add nsw i32 %204, 1
  %206 = sext i32 %205 to i64
  %207 = getelementptr inbounds [20 x float], ptr addrspace(3) %202, i64 0, i64 %206
  %208 = load float, ptr addrspace(3) %207, align 4, !tbaa !17
  %209 = insertelement <4 x float> poison, float %208, i64 0
  %210 = shufflevector <4 x float> %209, <4 x float> poison, <4 x i32> zeroinitializer
  %211 = load <4 x float>, ptr %34, align 16, !tbaa !16
  %212 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 1
  %213 = load <4 x float>, ptr %212, align 16, !tbaa !16
  %214 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %210, <4 x float> %211, <4 x float> %213)
  store <4 x float> %214, ptr %212, align 16, !tbaa !16
  call void @llvm.lifetime.end.p0(i64 16, ptr %34) #6
  br label %215

215:                                              ; preds = %177
  %216 = load i32, ptr %33, align 4, !tbaa !14
  %217 = add nsw i32 %216, 1
  store i32 %217, ptr %33, align 4, !tbaa !14
  br label %173

218:                                              ; preds = %176
  call spir_func void @_Z7barrierj(i32 noundef 1) #9
  br label %219

219:                                              ; preds = %218
  %220 = load i32, ptr %24, align 4, !tbaa !14
  %221 = add nsw i32 %220, 16
  store i32 %221, ptr %24, align 4, !tbaa !14
  br label %66

222:                                              ; preds = %70
  call void @llvm.lifetime.start.p0(i64 4, ptr %35) #6
  %223 = load i32, ptr %21, align 4, !tbaa !14
  %224 = load i32, ptr %17, align 4, !tbaa !14
  %225 = mul nsw i32 %224, 4
  %226 = add nsw i32 %223, %225
  store i32 %226, ptr %35, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %36) #6
  store i32 0, ptr %36, align 4, !tbaa !14
  br label %227

227:                                              ; preds = %322, %222
  %228 = load i32, ptr %36, align 4, !tbaa !14
  %229 = icmp slt i32 %228, 2
  br i1 %229, label %231, label %230

230:                                              ; preds = %227
  store i32 17, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %36) #6
  br label %325

231:                                              ; preds = %227
  call void @llvm.lifetime.start.p0(i64 4, ptr %37) #6
  %232 = load i32, ptr %20, align 4, !tbaa !14
  %233 = load i32, ptr %18, align 4, !tbaa !14
  %234 = mul nsw i32 %233, 2
  %235 = add nsw i32 %232, %234
  %236 = load i32, ptr %36, align 4, !tbaa !14
  %237 = add nsw i32 %235, %236
  store i32 %237, ptr %37, align 4, !tbaa !14
  %238 = load i32, ptr %37, align 4, !tbaa !14
  %239 = load i32, ptr %15, align 4, !tbaa !14
  %240 = icmp slt i32 %238, %239
  br i1 %240, label %241, label %260

241:                                              ; preds = %231
  %242 = load i32, ptr %35, align 4, !tbaa !14
  %243 = add nsw i32 %242, 4
  %244 = load i32, ptr %16, align 4, !tbaa !14
  %245 = icmp sle i32 %243, %244
  br i1 %245, label %246, label %260

246:                                              ; preds = %241
  %247 = load i32, ptr %36, align 4, !tbaa !14
  %248 = sext i32 %247 to i64
  %249 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %248
  %250 = load <4 x float>, ptr %249, align 16, !tbaa !16
  %251 = load ptr addrspace(1), ptr %11, align 8, !tbaa !10
  %252 = load i32, ptr %37, align 4, !tbaa !14
  %253 = load i32, ptr %16, align 4, !tbaa !14
  %254 = mul nsw i32 %252, %253
  %255 = sext i32 %254 to i64
  %256 = getelementptr inbounds float, ptr addrspace(1) %251, i64 %255
  %257 = load i32, ptr %35, align 4, !tbaa !14
  %258 = sext i32 %257 to i64
  %259 = getelementptr inbounds float, ptr addrspace(1) %256, i64 %258
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %250, i64 noundef 0, ptr addrspace(1) noundef %259) #9
  br label %321

260:                                              ; preds = %241, %231
  %261 = load i32, ptr %37, align 4, !tbaa !14
  %262 = load i32, ptr %15, align 4, !tbaa !14
  %263 = icmp slt i32 %261, %262
  br i1 %263, label %264, label %320

264:                                              ; preds = %260
  call void @llvm.lifetime.start.p0(i64 16, ptr %38) #6
  %265 = getelementptr inbounds [4 x float], ptr %38, i64 0, i64 0
  %266 = load i32, ptr %36, align 4, !tbaa !14
  %267 = sext i32 %266 to i64
  %268 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %267
  %269 = load <4 x float>, ptr %268, align 16
  %270 = extractelement <4 x float> %269, i64 0
  store float %270, ptr %265, align 4, !tbaa !17
  %271 = getelementptr inbounds float, ptr %265, i64 1
  %272 = load i32, ptr %36, align 4, !tbaa !14
  %273 = sext i32 %272 to i64
  %274 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %273
  %275 = load <4 x float>, ptr %274, align 16
  %276 = extractelement <4 x float> %275, i64 1
  store float %276, ptr %271, align 4, !tbaa !17
  %277 = getelementptr inbounds float, ptr %271, i64 1
  %278 = load i32, ptr %36, align 4, !tbaa !14
  %279 = sext i32 %278 to i64
  %280 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %279
  %281 = load <4 x float>, ptr %280, align 16
  %282 = extractelement <4 x float> %281, i64 2
  store float %282, ptr %277, align 4, !tbaa !17
  %283 = getelementptr inbounds float, ptr %277, i64 1
  %284 = load i32, ptr %36, align 4, !tbaa !14
  %285 = sext i32 %284 to i64
  %286 = getelementptr inbounds [2 x <4 x float>], ptr %22, i64 0, i64 %285
  %287 = load <4 x float>, ptr %286, align 16
  %288 = extractelement <4 x float> %287, i64 3
  store float %288, ptr %283, align 4, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %39) #6
  store i32 0, ptr %39, align 4, !tbaa !14
  br label %289

289:                                              ; preds = %316, %264
  %290 = load i32, ptr %39, align 4, !tbaa !14
  %291 = icmp slt i32 %290, 4
  br i1 %291, label %292, label %298

292:                                              ; preds = %289
  %293 = load i32, ptr %35, align 4, !tbaa !14
  %294 = load i32, ptr %39, align 4, !tbaa !14
  %295 = add nsw i32 %293, %294
  %296 = load i32, ptr %16, align 4, !tbaa !14
  %297 = icmp slt i32 %295, %296
  br label %298

298:                                              ; preds = %292, %289
  %299 = phi i1 [ false, %289 ], [ %297, %292 ]
  br i1 %299, label %301, label %300

300:                                              ; preds = %298
  store i32 20, ptr %25, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %39) #6
  br label %319

301:                                              ; preds = %298
  %302 = load i32, ptr %39, align 4, !tbaa !14
  %303 = sext i32 %302 to i64
  %304 = getelementptr inbounds [4 x float], ptr %38, i64 0, i64 %303
  %305 = load float, ptr %304, align 4, !tbaa !17
  %306 = load ptr addrspace(1), ptr %11, align 8, !tbaa !10
  %307 = load i32, ptr %37, align 4, !tbaa !14
  %308 = load i32, ptr %16, align 4, !tbaa !14
  %309 = mul nsw i32 %307, %308
  %310 = load i32, ptr %35, align 4, !tbaa !14
  %311 = add nsw i32 %309, %310
  %312 = load i32, ptr %39, align 4, !tbaa !14
  %313 = add nsw i32 %311, %312
  %314 = sext i32 %313 to i64
  %315 = getelementptr inbounds float, ptr addrspace(1) %306, i64 %314
  store float %305, ptr addrspace(1) %315, align 4, !tbaa !17
  br label %316

316:                                              ; preds = %301
  %317 = load i32, ptr %39, align 4, !tbaa !14
  %318 = add nsw i32 %317, 1
  store i32 %318, ptr %39, align 4, !tbaa !14
  br label %289

319:                                              ; preds = %300
  call void @llvm.lifetime.end.p0(i64 16, ptr %38) #6
  br label %320

320:                                              ; preds = %319, %260
  br label %321

321:                                              ; preds = %320, %246
  call void @llvm.lifetime.end.p0(i64 4, ptr %37) #6
  br label %322

322:                                              ; preds = %321
  %323 = load i32, ptr %36, align 4, !tbaa !14
  %324 = add nsw i32 %323, 1
  store i32 %324, ptr %36, align 4, !tbaa !14
  br label %227

325:                                              ; preds = %230
  call void @llvm.lifetime.end.p0(i64 4, ptr %35) #6
  call void @llvm.lifetime.end.p0(i64 32, ptr %22) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %20) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %18) #6
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(read)
declare dso_local spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef, ptr addrspace(1) noundef) #3

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7vstore4Dv4_fmPU3AS3f(<4 x float> noundef, i64 noundef, ptr addrspace(3) noundef) #4

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #4

; Function Attrs: convergent nounwind willreturn memory(read)
declare dso_local spir_func <4 x float> @_Z6vload4mPU3AS3Kf(i64 noundef, ptr addrspace(3) noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #5

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef, i64 noundef, ptr addrspace(1) noundef) #4

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #5 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
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
!4 = !{i32 1, i32 1, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"int", !"int", !"int", !"int", !"int"}
!7 = !{!"const", !"const", !"", !"", !"", !"", !"", !""}
!8 = !{!"a", !"b", !"c", !"kk", !"lda", !"ldb", !"m", !"nn"}
!9 = !{i32 8, i32 8, i32 1}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"int", !12, i64 0}
!16 = !{!12, !12, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"float", !12, i64 0}
