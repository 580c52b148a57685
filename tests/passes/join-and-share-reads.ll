; join-and-share-reads: in a build of a CLBlast-shaped product (XgemmDirectTN)
; for 8x8 groups (K.row of 2 rows at once: the y loop steps by 2), after
; optimisation: two gathers of floats one element apart become one gather
; of pairs (<16 x i64>), and what every row of the region reads alike is
; read by the first rows for all rows (a loop rows.shared taken by the
; others).  The kernel is test_regions.c's `tn` with L=2, WG=16, W=4,
; VT=float4.
; RUN: mosaic-opt --mcpu=haswell --mattr=+sse4.2,+avx,+avx2,+fma --options=-cl-std=CL2.0 \
; RUN:   --one-size=tn:8,8,1 --stop-after=join-and-share-reads --print-before %s | FileCheck %s
; CHECK-LABEL: define void @tn.wg(
; CHECK-NOT: rows.shared
; CHECK: call <16 x float> @llvm.masked.gather.v16f32.v16p3(
; CHECK-NOT: rows.shared
; CHECK-LABEL: ;; after join-and-share-reads
; CHECK-LABEL: define void @tn.wg(
; CHECK: br i1 %row0{{[0-9]*}}, label %r1.b{{[0-9]+}}, label %rows.shared
; CHECK: rows.shared:
; CHECK-NEXT: %iter = phi i64
; CHECK: call <16 x i64> @llvm.masked.gather.v16i64.v16p3(
;   #define L 2
;   #define WG 16
;   #define W 4
;   #define VT float4
;   kernel void tn(int n, global const VT *a, global const VT *b, global float *c) {
;     local float at[WG][WG + 1], bt[WG][WG + 1];
;     int lx = get_local_id(0), ly = get_local_id(1), v = WG / L; /* values a work-item, each way */
;     float acc[WG / L][WG / L];
;     #pragma unroll
;     for (int i = 0; i < WG / L; i++)
;       #pragma unroll
;       for (int j = 0; j < WG / L; j++)
;         acc[i][j] = 0.0f;
;     for (int kw = 0; kw < n; kw += WG) {
;       #pragma unroll
;       for (int r = 0; r < WG / L; r++) {
;         int kk = ly * v + r;
;         VT x = a[(get_group_id(0) * WG + kk) * (n / W) + kw / W + lx];
;         VT y = b[(kw + kk) * (n / W) + get_group_id(1) * (WG / W) + lx];
;         at[kk][lx * W + 0] = x.s0; at[kk][lx * W + 1] = x.s1;
;         bt[kk][lx * W + 0] = y.s0; bt[kk][lx * W + 1] = y.s1;
;   #if W == 4
;         at[kk][lx * W + 2] = x.s2; at[kk][lx * W + 3] = x.s3;
;         bt[kk][lx * W + 2] = y.s2; bt[kk][lx * W + 3] = y.s3;
;   #endif
;       }
;       barrier(CLK_LOCAL_MEM_FENCE);
;       for (int k = 0; k < WG; k += 2) {
;         #pragma unroll
;         for (int p = 0; p < 2; p++) {
;           float ap[WG / L], bp[WG / L];
;           #pragma unroll
;           for (int i = 0; i < WG / L; i++) {
;             ap[i] = at[lx * v + i][k + p];
;             bp[i] = bt[k + p][ly * v + i];
;           }
;           #pragma unroll
;           for (int j = 0; j < WG / L; j++)
;             #pragma unroll
;             for (int i = 0; i < WG / L; i++)
;               acc[j][i] += ap[i] * bp[j];
;         }
;       }
;       barrier(CLK_LOCAL_MEM_FENCE);
;     }
;     #pragma unroll
;     for (int j = 0; j < WG / L; j++)
;       #pragma unroll
;       for (int i = 0; i < WG / L; i++)
;         c[(get_group_id(1) * WG + ly * v + j) * n + get_group_id(0) * WG + lx * v + i] = acc[j][i];
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@tn.at = internal addrspace(3) global [16 x [17 x float]] undef, align 4
@tn.bt = internal addrspace(3) global [16 x [17 x float]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tn(i32 noundef %0, ptr addrspace(1) noundef align 16 %1, ptr addrspace(1) noundef align 16 %2, ptr addrspace(1) noundef align 4 %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %5 = alloca i32, align 4
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca [8 x [8 x float]], align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca <4 x float>, align 16
  %20 = alloca <4 x float>, align 16
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  %23 = alloca [8 x float], align 4
  %24 = alloca [8 x float], align 4
  %25 = alloca i32, align 4
  %26 = alloca i32, align 4
  %27 = alloca i32, align 4
  %28 = alloca i32, align 4
  %29 = alloca i32, align 4
  store i32 %0, ptr %5, align 4, !tbaa !10
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !14
  store ptr addrspace(1) %2, ptr %7, align 8, !tbaa !14
  store ptr addrspace(1) %3, ptr %8, align 8, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #5
  %30 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %31 = trunc i64 %30 to i32
  store i32 %31, ptr %9, align 4, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #5
  %32 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %33 = trunc i64 %32 to i32
  store i32 %33, ptr %10, align 4, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #5
  store i32 8, ptr %11, align 4, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 256, ptr %12) #5
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #5
  store i32 0, ptr %13, align 4, !tbaa !10
  br label %34

34:                                               ; preds = %54, %4
  %35 = load i32, ptr %13, align 4, !tbaa !10
  %36 = icmp slt i32 %35, 8
  br i1 %36, label %38, label %37

37:                                               ; preds = %34
  store i32 2, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #5
  br label %57

38:                                               ; preds = %34
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #5
  store i32 0, ptr %15, align 4, !tbaa !10
  br label %39

39:                                               ; preds = %50, %38
  %40 = load i32, ptr %15, align 4, !tbaa !10
  %41 = icmp slt i32 %40, 8
  br i1 %41, label %43, label %42

42:                                               ; preds = %39
  store i32 5, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #5
  br label %53

43:                                               ; preds = %39
  %44 = load i32, ptr %13, align 4, !tbaa !10
  %45 = sext i32 %44 to i64
  %46 = getelementptr inbounds [8 x [8 x float]], ptr %12, i64 0, i64 %45
  %47 = load i32, ptr %15, align 4, !tbaa !10
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds [8 x float], ptr %46, i64 0, i64 %48
  store float 0.000000e+00, ptr %49, align 4, !tbaa !16
  br label %50

50:                                               ; preds = %43
  %51 = load i32, ptr %15, align 4, !tbaa !10
  %52 = add nsw i32 %51, 1
  store i32 %52, ptr %15, align 4, !tbaa !10
  br label %39, !llvm.loop !18

53:                                               ; preds = %42
  br label %54

54:                                               ; preds = %53
  %55 = load i32, ptr %13, align 4, !tbaa !10
  %56 = add nsw i32 %55, 1
  store i32 %56, ptr %13, align 4, !tbaa !10
  br label %34, !llvm.loop !20

57:                                               ; preds = %37
  call void @llvm.lifetime.start.p0(i64 4, ptr %16) #5
  store i32 0, ptr %16, align 4, !tbaa !10
  br label %58

58:                                               ; preds = %286, %57
  %59 = load i32, ptr %16, align 4, !tbaa !10
  %60 = load i32, ptr %5, align 4, !tbaa !10
  %61 = icmp slt i32 %59, %60
  br i1 %61, label %63, label %62

62:                                               ; preds = %58
  store i32 8, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %16) #5
  br label %289

63:                                               ; preds = %58
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #5
  store i32 0, ptr %17, align 4, !tbaa !10
  br label %64

64:                                               ; preds = %189, %63
  %65 = load i32, ptr %17, align 4, !tbaa !10
  %66 = icmp slt i32 %65, 8
  br i1 %66, label %68, label %67

67:                                               ; preds = %64
  store i32 11, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #5
  br label %192

68:                                               ; preds = %64
  call void @llvm.lifetime.start.p0(i64 4, ptr %18) #5
  %69 = load i32, ptr %10, align 4, !tbaa !10
  %70 = load i32, ptr %11, align 4, !tbaa !10
  %71 = mul nsw i32 %69, %70
  %72 = load i32, ptr %17, align 4, !tbaa !10
  %73 = add nsw i32 %71, %72
  store i32 %73, ptr %18, align 4, !tbaa !10
  call void @llvm.lifetime.start.p0(i64 16, ptr %19) #5
  %74 = load ptr addrspace(1), ptr %6, align 8, !tbaa !14
  %75 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %76 = mul i64 %75, 16
  %77 = load i32, ptr %18, align 4, !tbaa !10
  %78 = sext i32 %77 to i64
  %79 = add i64 %76, %78
  %80 = load i32, ptr %5, align 4, !tbaa !10
  %81 = sdiv i32 %80, 4
  %82 = sext i32 %81 to i64
  %83 = mul i64 %79, %82
  %84 = load i32, ptr %16, align 4, !tbaa !10
  %85 = sdiv i32 %84, 4
  %86 = sext i32 %85 to i64
  %87 = add i64 %83, %86
  %88 = load i32, ptr %9, align 4, !tbaa !10
  %89 = sext i32 %88 to i64
  %90 = add i64 %87, %89
  %91 = getelementptr inbounds <4 x float>, ptr addrspace(1) %74, i64 %90
  %92 = load <4 x float>, ptr addrspace(1) %91, align 16, !tbaa !21
  store <4 x float> %92, ptr %19, align 16, !tbaa !21
  call void @llvm.lifetime.start.p0(i64 16, ptr %20) #5
  %93 = load ptr addrspace(1), ptr %7, align 8, !tbaa !14
  %94 = load i32, ptr %16, align 4, !tbaa !10
  %95 = load i32, ptr %18, align 4, !tbaa !10
  %96 = add nsw i32 %94, %95
  %97 = load i32, ptr %5, align 4, !tbaa !10
  %98 = sdiv i32 %97, 4
  %99 = mul nsw i32 %96, %98
  %100 = sext i32 %99 to i64
  %101 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %102 = mul i64 %101, 4
  %103 = add i64 %100, %102
  %104 = load i32, ptr %9, align 4, !tbaa !10
  %105 = sext i32 %104 to i64
  %106 = add i64 %103, %105
  %107 = getelementptr inbounds <4 x float>, ptr addrspace(1) %93, i64 %106
  %108 = load <4 x float>, ptr addrspace(1) %107, align 16, !tbaa !21
  store <4 x float> %108, ptr %20, align 16, !tbaa !21
  %109 = load <4 x float>, ptr %19, align 16
  %110 = extractelement <4 x float> %109, i64 0
  %111 = load i32, ptr %18, align 4, !tbaa !10
  %112 = sext i32 %111 to i64
  %113 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.at, i64 0, i64 %112
  %114 = load i32, ptr %9, align 4, !tbaa !10
  %115 = mul nsw i32 %114, 4
  %116 = add nsw i32 %115, 0
  %117 = sext i32 %116 to i64
  %118 = getelementptr inbounds [17 x float], ptr addrspace(3) %113, i64 0, i64 %117
  store float %110, ptr addrspace(3) %118, align 4, !tbaa !16
  %119 = load <4 x float>, ptr %19, align 16
  %120 = extractelement <4 x float> %119, i64 1
  %121 = load i32, ptr %18, align 4, !tbaa !10
  %122 = sext i32 %121 to i64
  %123 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.at, i64 0, i64 %122
  %124 = load i32, ptr %9, align 4, !tbaa !10
  %125 = mul nsw i32 %124, 4
  %126 = add nsw i32 %125, 1
  %127 = sext i32 %126 to i64
  %128 = getelementptr inbounds [17 x float], ptr addrspace(3) %123, i64 0, i64 %127
  store float %120, ptr addrspace(3) %128, align 4, !tbaa !16
  %129 = load <4 x float>, ptr %20, align 16
  %130 = extractelement <4 x float> %129, i64 0
  %131 = load i32, ptr %18, align 4, !tbaa !10
  %132 = sext i32 %131 to i64
  %133 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.bt, i64 0, i64 %132
  %134 = load i32, ptr %9, align 4, !tbaa !10
  %135 = mul nsw i32 %134, 4
  %136 = add nsw i32 %135, 0
  %137 = sext i32 %136 to i64
  %138 = getelementptr inbounds [17 x float], ptr addrspace(3) %133, i64 0, i64 %137
  store float %130, ptr addrspace(3) %138, align 4, !tbaa !16
  %139 = load <4 x float>, ptr %20, align 16
  %140 = extractelement <4 x float> %139, i64 1
  %141 = load i32, ptr %18, align 4, !tbaa !10
  %142 = sext i32 %141 to i64
  %143 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.bt, i64 0, i64 %142
  %144 = load i32, ptr %9, align 4, !tbaa !10
  %145 = mul nsw i32 %144, 4
  %146 = add nsw i32 %145, 1
  %147 = sext i32 %146 to i64
  %148 = getelementptr inbounds [17 x float], ptr addrspace(3) %143, i64 0, i64 %147
  store float %140, ptr addrspace(3) %148, align 4, !tbaa !16
  %149 = load <4 x float>, ptr %19, align 16
  %150 = extractelement <4 x float> %149, i64 2
  %151 = load i32, ptr %18, align 4, !tbaa !10
  %152 = sext i32 %151 to i64
  %153 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.at, i64 0, i64 %152
  %154 = load i32, ptr %9, align 4, !tbaa !10
  %155 = mul nsw i32 %154, 4
  %156 = add nsw i32 %155, 2
  %157 = sext i32 %156 to i64
  %158 = getelementptr inbounds [17 x float], ptr addrspace(3) %153, i64 0, i64 %157
  store float %150, ptr addrspace(3) %158, align 4, !tbaa !16
  %159 = load <4 x float>, ptr %19, align 16
  %160 = extractelement <4 x float> %159, i64 3
  %161 = load i32, ptr %18, align 4, !tbaa !10
  %162 = sext i32 %161 to i64
  %163 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.at, i64 0, i64 %162
  %164 = load i32, ptr %9, align 4, !tbaa !10
  %165 = mul nsw i32 %164, 4
  %166 = add nsw i32 %165, 3
  %167 = sext i32 %166 to i64
  %168 = getelementptr inbounds [17 x float], ptr addrspace(3) %163, i64 0, i64 %167
  store float %160, ptr addrspace(3) %168, align 4, !tbaa !16
  %169 = load <4 x float>, ptr %20, align 16
  %170 = extractelement <4 x float> %169, i64 2
  %171 = load i32, ptr %18, align 4, !tbaa !10
  %172 = sext i32 %171 to i64
  %173 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.bt, i64 0, i64 %172
  %174 = load i32, ptr %9, align 4, !tbaa !10
  %175 = mul nsw i32 %174, 4
  %176 = add nsw i32 %175, 2
  %177 = sext i32 %176 to i64
  %178 = getelementptr inbounds [17 x float], ptr addrspace(3) %173, i64 0, i64 %177
  store float %170, ptr addrspace(3) %178, align 4, !tbaa !16
  %179 = load <4 x float>, ptr %20, align 16
  %180 = extractelement <4 x float> %179, i64 3
  %181 = load i32, ptr %18, align 4, !tbaa !10
  %182 = sext i32 %181 to i64
  %183 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.bt, i64 0, i64 %182
  %184 = load i32, ptr %9, align 4, !tbaa !10
  %185 = mul nsw i32 %184, 4
  %186 = add nsw i32 %185, 3
  %187 = sext i32 %186 to i64
  %188 = getelementptr inbounds [17 x float], ptr addrspace(3) %183, i64 0, i64 %187
  store float %180, ptr addrspace(3) %188, align 4, !tbaa !16
  call void @llvm.lifetime.end.p0(i64 16, ptr %20) #5
  call void @llvm.lifetime.end.p0(i64 16, ptr %19) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %18) #5
  br label %189

189:                                              ; preds = %68
  %190 = load i32, ptr %17, align 4, !tbaa !10
  %191 = add nsw i32 %190, 1
  store i32 %191, ptr %17, align 4, !tbaa !10
  br label %64, !llvm.loop !22

192:                                              ; preds = %67
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #5
  store i32 0, ptr %21, align 4, !tbaa !10
  br label %193

193:                                              ; preds = %282, %192
  %194 = load i32, ptr %21, align 4, !tbaa !10
  %195 = icmp slt i32 %194, 16
  br i1 %195, label %197, label %196

196:                                              ; preds = %193
  store i32 14, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #5
  br label %285

197:                                              ; preds = %193
  call void @llvm.lifetime.start.p0(i64 4, ptr %22) #5
  store i32 0, ptr %22, align 4, !tbaa !10
  br label %198

198:                                              ; preds = %278, %197
  %199 = load i32, ptr %22, align 4, !tbaa !10
  %200 = icmp slt i32 %199, 2
  br i1 %200, label %202, label %201

201:                                              ; preds = %198
  store i32 17, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %22) #5
  br label %281

202:                                              ; preds = %198
  call void @llvm.lifetime.start.p0(i64 32, ptr %23) #5
  call void @llvm.lifetime.start.p0(i64 32, ptr %24) #5
  call void @llvm.lifetime.start.p0(i64 4, ptr %25) #5
  store i32 0, ptr %25, align 4, !tbaa !10
  br label %203

203:                                              ; preds = %240, %202
  %204 = load i32, ptr %25, align 4, !tbaa !10
  %205 = icmp slt i32 %204, 8
  br i1 %205, label %207, label %206

206:                                              ; preds = %203
  store i32 20, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %25) #5
  br label %243

207:                                              ; preds = %203
  %208 = load i32, ptr %9, align 4, !tbaa !10
  %209 = load i32, ptr %11, align 4, !tbaa !10
  %210 = mul nsw i32 %208, %209
  %211 = load i32, ptr %25, align 4, !tbaa !10
  %212 = add nsw i32 %210, %211
  %213 = sext i32 %212 to i64
  %214 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.at, i64 0, i64 %213
  %215 = load i32, ptr %21, align 4, !tbaa !10
  %216 = load i32, ptr %22, align 4, !tbaa !10
  %217 = add nsw i32 %215, %216
  %218 = sext i32 %217 to i64
  %219 = getelementptr inbounds [17 x float], ptr addrspace(3) %214, i64 0, i64 %218
  %220 = load float, ptr addrspace(3) %219, align 4, !tbaa !16
  %221 = load i32, ptr %25, align 4, !tbaa !10
  %222 = sext i32 %221 to i64
  %223 = getelementptr inbounds [8 x float], ptr %23, i64 0, i64 %222
  store float %220, ptr %223, align 4, !tbaa !16
  %224 = load i32, ptr %21, align 4, !tbaa !10
  %225 = load i32, ptr %22, align 4, !tbaa !10
  %226 = add nsw i32 %224, %225
  %227 = sext i32 %226 to i64
  %228 = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @tn.bt, i64 0, i64 %227
  %229 = load i32, ptr %10, align 4, !tbaa !10
  %230 = load i32, ptr %11, align 4, !tbaa !10
  %231 = mul nsw i32 %229, %230
  %232 = load i32, ptr %25, align 4, !tbaa !10
  %233 = add nsw i32 %231, %232
  %234 = sext i32 %233 to i64
  %235 = getelementptr inbounds [17 x float], ptr addrspace(3) %228, i64 0, i64 %234
  %236 = load float, ptr addrspace(3) %235, align 4, !tbaa !16
  %237 = load i32, ptr %25, align 4, !tbaa !10
  %238 = sext i32 %237 to i64
  %239 = getelementptr inbounds [8 x float], ptr %24, i64 0, i64 %238
  store float %236, ptr %239, align 4, !tbaa !16
  br label %240

240:                                              ; preds = %207
  %241 = load i32, ptr %25, align 4, !tbaa !10
  %242 = add nsw i32 %241, 1
  store i32 %242, ptr %25, align 4, !tbaa !10
  br label %203, !llvm.loop !23

243:                                              ; preds = %206
  call void @llvm.lifetime.start.p0(i64 4, ptr %26) #5
  store i32 0, ptr %26, align 4, !tbaa !10
  br label %244

244:                                              ; preds = %274, %243
  %245 = load i32, ptr %26, align 4, !tbaa !10
  %246 = icmp slt i32 %245, 8
  br i1 %246, label %248, label %247

247:                                              ; preds = %244
  store i32 23, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %26) #5
  br label %277

248:                                              ; preds = %244
  call void @llvm.lifetime.start.p0(i64 4, ptr %27) #5
  store i32 0, ptr %27, align 4, !tbaa !10
  br label %249

249:                                              ; preds = %270, %248
  %250 = load i32, ptr %27, align 4, !tbaa !10
  %251 = icmp slt i32 %250, 8
  br i1 %251, label %253, label %252

252:                                              ; preds = %249
  store i32 26, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %27) #5
  br label %273

253:                                              ; preds = %249
  %254 = load i32, ptr %27, align 4, !tbaa !10
  %255 = sext i32 %254 to i64
  %256 = getelementptr inbounds [8 x float], ptr %23, i64 0, i64 %255
  %257 = load float, ptr %256, align 4, !tbaa !16
  %258 = load i32, ptr %26, align 4, !tbaa !10
  %259 = sext i32 %258 to i64
  %260 = getelementptr inbounds [8 x float], ptr %24, i64 0, i64 %259
  %261 = load float, ptr %260, align 4, !tbaa !16
  %262 = load i32, ptr %26, align 4, !tbaa !10
  %263 = sext i32 %262 to i64
  %264 = getelementptr inbounds [8 x [8 x float]], ptr %12, i64 0, i64 %263
  %265 = load i32, ptr %27, align 4, !tbaa !10
  %266 = sext i32 %265 to i64
  %267 = getelementptr inbounds [8 x float], ptr %264, i64 0, i64 %266
  %268 = load float, ptr %267, align 4, !tbaa !16
  %269 = call float @llvm.fmuladd.f32(float %257, float %261, float %268)
  store float %269, ptr %267, align 4, !tbaa !16
  br label %270

270:                                              ; preds = %253
  %271 = load i32, ptr %27, align 4, !tbaa !10
  %272 = add nsw i32 %271, 1
  store i32 %272, ptr %27, align 4, !tbaa !10
  br label %249, !llvm.loop !24

273:                                              ; preds = %252
  br label %274

274:                                              ; preds = %273
  %275 = load i32, ptr %26, align 4, !tbaa !10
  %276 = add nsw i32 %275, 1
  store i32 %276, ptr %26, align 4, !tbaa !10
  br label %244, !llvm.loop !25

277:                                              ; preds = %247
  call void @llvm.lifetime.end.p0(i64 32, ptr %24) #5
  call void @llvm.lifetime.end.p0(i64 32, ptr %23) #5
  br label %278

278:                                              ; preds = %277
  %279 = load i32, ptr %22, align 4, !tbaa !10
  %280 = add nsw i32 %279, 1
  store i32 %280, ptr %22, align 4, !tbaa !10
  br label %198, !llvm.loop !26

281:                                              ; preds = %201
  br label %282

282:                                              ; preds = %281
  %283 = load i32, ptr %21, align 4, !tbaa !10
  %284 = add nsw i32 %283, 2
  store i32 %284, ptr %21, align 4, !tbaa !10
  br label %193

285:                                              ; preds = %196
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  br label %286

286:                                              ; preds = %285
  %287 = load i32, ptr %16, align 4, !tbaa !10
  %288 = add nsw i32 %287, 16
  store i32 %288, ptr %16, align 4, !tbaa !10
  br label %58

289:                                              ; preds = %62
  call void @llvm.lifetime.start.p0(i64 4, ptr %28) #5
  store i32 0, ptr %28, align 4, !tbaa !10
  br label %290

290:                                              ; preds = %337, %289
  %291 = load i32, ptr %28, align 4, !tbaa !10
  %292 = icmp slt i32 %291, 8
  br i1 %292, label %294, label %293

293:                                              ; preds = %290
  store i32 29, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %28) #5
  br label %340

294:                                              ; preds = %290
  call void @llvm.lifetime.start.p0(i64 4, ptr %29) #5
  store i32 0, ptr %29, align 4, !tbaa !10
  br label %295

295:                                              ; preds = %333, %294
  %296 = load i32, ptr %29, align 4, !tbaa !10
  %297 = icmp slt i32 %296, 8
  br i1 %297, label %299, label %298

298:                                              ; preds = %295
  store i32 32, ptr %14, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %29) #5
  br label %336

299:                                              ; preds = %295
  %300 = load i32, ptr %28, align 4, !tbaa !10
  %301 = sext i32 %300 to i64
  %302 = getelementptr inbounds [8 x [8 x float]], ptr %12, i64 0, i64 %301
  %303 = load i32, ptr %29, align 4, !tbaa !10
  %304 = sext i32 %303 to i64
  %305 = getelementptr inbounds [8 x float], ptr %302, i64 0, i64 %304
  %306 = load float, ptr %305, align 4, !tbaa !16
  %307 = load ptr addrspace(1), ptr %8, align 8, !tbaa !14
  %308 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %309 = mul i64 %308, 16
  %310 = load i32, ptr %10, align 4, !tbaa !10
  %311 = load i32, ptr %11, align 4, !tbaa !10
  %312 = mul nsw i32 %310, %311
  %313 = sext i32 %312 to i64
  %314 = add i64 %309, %313
  %315 = load i32, ptr %28, align 4, !tbaa !10
  %316 = sext i32 %315 to i64
  %317 = add i64 %314, %316
  %318 = load i32, ptr %5, align 4, !tbaa !10
  %319 = sext i32 %318 to i64
  %320 = mul i64 %317, %319
  %321 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %322 = mul i64 %321, 16
  %323 = add i64 %320, %322
  %324 = load i32, ptr %9, align 4, !tbaa !10
  %325 = load i32, ptr %11, align 4, !tbaa !10
  %326 = mul nsw i32 %324, %325
  %327 = sext i32 %326 to i64
  %328 = add i64 %323, %327
  %329 = load i32, ptr %29, align 4, !tbaa !10
  %330 = sext i32 %329 to i64
  %331 = add i64 %328, %330
  %332 = getelementptr inbounds float, ptr addrspace(1) %307, i64 %331
  store float %306, ptr addrspace(1) %332, align 4, !tbaa !16
  br label %333

333:                                              ; preds = %299
  %334 = load i32, ptr %29, align 4, !tbaa !10
  %335 = add nsw i32 %334, 1
  store i32 %335, ptr %29, align 4, !tbaa !10
  br label %295, !llvm.loop !27

336:                                              ; preds = %298
  br label %337

337:                                              ; preds = %336
  %338 = load i32, ptr %28, align 4, !tbaa !10
  %339 = add nsw i32 %338, 1
  store i32 %339, ptr %28, align 4, !tbaa !10
  br label %290, !llvm.loop !28

340:                                              ; preds = %293
  call void @llvm.lifetime.end.p0(i64 256, ptr %12) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #5
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #4

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
!4 = !{i32 0, i32 1, i32 1, i32 1}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"int", !"float4*", !"float4*", !"float*"}
!7 = !{!"int", !"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float*"}
!8 = !{!"", !"const", !"const", !""}
!9 = !{!"n", !"a", !"b", !"c"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"any pointer", !12, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"float", !12, i64 0}
!18 = distinct !{!18, !19}
!19 = !{!"llvm.loop.unroll.enable"}
!20 = distinct !{!20, !19}
!21 = !{!12, !12, i64 0}
!22 = distinct !{!22, !19}
!23 = distinct !{!23, !19}
!24 = distinct !{!24, !19}
!25 = distinct !{!25, !19}
!26 = distinct !{!26, !19}
!27 = distinct !{!27, !19}
!28 = distinct !{!28, !19}
