; work-group-function, in a build for one local size: rows of 16 bytes (a
; 16x16 group, a median of 3x3 by a sorting network) widen 4 rows at once
; (wfv_rows.c): each row's ly; the window's loads from the __local tile a
; row at a time, joined into 64 bytes; the network on 64-byte vectors; the
; tile's lines loaded in step (uniform-loop-exits: `if (first + ly < ny + 2)`
; around the x loop) run when any row takes them, under the mask of those
; rows (a row if); the regions' y loop steps by 4.
; RUN: MOSAIC_DEBUG=build mosaic-opt --one-size=median9:16,16,1 --stop-after=work-group-function %s -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SAYS
; RUN: FileCheck %s < %t.ll
; SAYS: mosaic: kernel median9.wi: rows of 16 widened, 4 rows (64 work-items) at once between barriers
; SAYS: mosaic: kernel median9.wi: 2 regions, {{.*}}, cut from the widened rows
; CHECK-LABEL: define internal void @median9.wi.row(
; CHECK: %ly.row2 = add nuw i64 %{{[0-9]+}}, 3
; CHECK: call void @__mosaic_barrier(
; CHECK: load <16 x i8>, ptr addrspace(3)
; CHECK: %rows{{[0-9]*}} = shufflevector <16 x i8> %{{[0-9]+}}, <16 x i8> %{{[0-9]+}}, <32 x i32>
; CHECK: shufflevector <32 x i8> %rows{{[0-9]*}}, <32 x i8> %rows{{[0-9]*}}, <64 x i32>
; CHECK: call <64 x i8> @llvm.umin.v64i8(
; CHECK: [[ROWS:%[0-9]+]] = shufflevector <4 x i1> %{{[0-9]+}}, <4 x i1> poison, <64 x i32>
; CHECK-NEXT: [[ANY:%[0-9]+]] = call i1 @llvm.vector.reduce.or.v64i1(<64 x i1> [[ROWS]])
; CHECK-NEXT: br i1 [[ANY]], label
; CHECK-LABEL: define void @median9.wg(
; CHECK: add nuw i64 %ly{{[0-9]*}}, 4
;   #define CE(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }
;   #define EVEN CE(p0, p1) CE(p2, p3) CE(p4, p5) CE(p6, p7)
;   #define ODD CE(p1, p2) CE(p3, p4) CE(p5, p6) CE(p7, p8)
;   kernel void median9(global const uchar *src, global uchar *dst, int w, int h)
;   {
;       local uchar t[18][18];
;       int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);
;       int x0 = get_group_id(0) * nx - 1, y0 = get_group_id(1) * ny - 1;
;       for (int ty = ly; ty < ny + 2; ty += ny)
;           for (int tx = lx; tx < nx + 2; tx += nx)
;               t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       int x = get_global_id(0), y = get_global_id(1);
;       if (x >= w || y >= h)
;           return;
;       uchar p0 = t[ly][lx], p1 = t[ly][lx + 1], p2 = t[ly][lx + 2];
;       uchar p3 = t[ly + 1][lx], p4 = t[ly + 1][lx + 1], p5 = t[ly + 1][lx + 2];
;       uchar p6 = t[ly + 2][lx], p7 = t[ly + 2][lx + 1], p8 = t[ly + 2][lx + 2];
;       EVEN ODD EVEN ODD EVEN ODD EVEN ODD EVEN
;       dst[y * w + x] = p4;
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@median9.t = internal addrspace(3) global [18 x [18 x i8]] undef, align 1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @median9(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i8, align 1
  %21 = alloca i8, align 1
  %22 = alloca i8, align 1
  %23 = alloca i8, align 1
  %24 = alloca i8, align 1
  %25 = alloca i8, align 1
  %26 = alloca i8, align 1
  %27 = alloca i8, align 1
  %28 = alloca i8, align 1
  %29 = alloca i8, align 1
  %30 = alloca i8, align 1
  %31 = alloca i8, align 1
  %32 = alloca i8, align 1
  %33 = alloca i8, align 1
  %34 = alloca i8, align 1
  %35 = alloca i8, align 1
  %36 = alloca i8, align 1
  %37 = alloca i8, align 1
  %38 = alloca i8, align 1
  %39 = alloca i8, align 1
  %40 = alloca i8, align 1
  %41 = alloca i8, align 1
  %42 = alloca i8, align 1
  %43 = alloca i8, align 1
  %44 = alloca i8, align 1
  %45 = alloca i8, align 1
  %46 = alloca i8, align 1
  %47 = alloca i8, align 1
  %48 = alloca i8, align 1
  %49 = alloca i8, align 1
  %50 = alloca i8, align 1
  %51 = alloca i8, align 1
  %52 = alloca i8, align 1
  %53 = alloca i8, align 1
  %54 = alloca i8, align 1
  %55 = alloca i8, align 1
  %56 = alloca i8, align 1
  %57 = alloca i8, align 1
  %58 = alloca i8, align 1
  %59 = alloca i8, align 1
  %60 = alloca i8, align 1
  %61 = alloca i8, align 1
  %62 = alloca i8, align 1
  %63 = alloca i8, align 1
  %64 = alloca i8, align 1
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  %65 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %66 = trunc i64 %65 to i32
  store i32 %66, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #4
  %67 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #5
  %68 = trunc i64 %67 to i32
  store i32 %68, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #4
  %69 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  %70 = trunc i64 %69 to i32
  store i32 %70, ptr %11, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #4
  %71 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 1) #5
  %72 = trunc i64 %71 to i32
  store i32 %72, ptr %12, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #4
  %73 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %74 = load i32, ptr %11, align 4, !tbaa !13
  %75 = sext i32 %74 to i64
  %76 = mul i64 %73, %75
  %77 = sub i64 %76, 1
  %78 = trunc i64 %77 to i32
  store i32 %78, ptr %13, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #4
  %79 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #5
  %80 = load i32, ptr %12, align 4, !tbaa !13
  %81 = sext i32 %80 to i64
  %82 = mul i64 %79, %81
  %83 = sub i64 %82, 1
  %84 = trunc i64 %83 to i32
  store i32 %84, ptr %14, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #4
  %85 = load i32, ptr %10, align 4, !tbaa !13
  store i32 %85, ptr %15, align 4, !tbaa !13
  br label %86

86:                                               ; preds = %131, %4
  %87 = load i32, ptr %15, align 4, !tbaa !13
  %88 = load i32, ptr %12, align 4, !tbaa !13
  %89 = add nsw i32 %88, 2
  %90 = icmp slt i32 %87, %89
  br i1 %90, label %92, label %91

91:                                               ; preds = %86
  store i32 2, ptr %16, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #4
  br label %135

92:                                               ; preds = %86
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #4
  %93 = load i32, ptr %9, align 4, !tbaa !13
  store i32 %93, ptr %17, align 4, !tbaa !13
  br label %94

94:                                               ; preds = %126, %92
  %95 = load i32, ptr %17, align 4, !tbaa !13
  %96 = load i32, ptr %11, align 4, !tbaa !13
  %97 = add nsw i32 %96, 2
  %98 = icmp slt i32 %95, %97
  br i1 %98, label %100, label %99

99:                                               ; preds = %94
  store i32 5, ptr %16, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #4
  br label %130

100:                                              ; preds = %94
  %101 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %102 = load i32, ptr %14, align 4, !tbaa !13
  %103 = load i32, ptr %15, align 4, !tbaa !13
  %104 = add nsw i32 %102, %103
  %105 = load i32, ptr %8, align 4, !tbaa !13
  %106 = sub nsw i32 %105, 1
  %107 = call spir_func i32 @_Z5clampiii(i32 noundef %104, i32 noundef 0, i32 noundef %106) #5
  %108 = load i32, ptr %7, align 4, !tbaa !13
  %109 = mul nsw i32 %107, %108
  %110 = load i32, ptr %13, align 4, !tbaa !13
  %111 = load i32, ptr %17, align 4, !tbaa !13
  %112 = add nsw i32 %110, %111
  %113 = load i32, ptr %7, align 4, !tbaa !13
  %114 = sub nsw i32 %113, 1
  %115 = call spir_func i32 @_Z5clampiii(i32 noundef %112, i32 noundef 0, i32 noundef %114) #5
  %116 = add nsw i32 %109, %115
  %117 = sext i32 %116 to i64
  %118 = getelementptr inbounds i8, ptr addrspace(1) %101, i64 %117
  %119 = load i8, ptr addrspace(1) %118, align 1, !tbaa !15
  %120 = load i32, ptr %15, align 4, !tbaa !13
  %121 = sext i32 %120 to i64
  %122 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %121
  %123 = load i32, ptr %17, align 4, !tbaa !13
  %124 = sext i32 %123 to i64
  %125 = getelementptr inbounds [18 x i8], ptr addrspace(3) %122, i64 0, i64 %124
  store i8 %119, ptr addrspace(3) %125, align 1, !tbaa !15
  br label %126

126:                                              ; preds = %100
  %127 = load i32, ptr %11, align 4, !tbaa !13
  %128 = load i32, ptr %17, align 4, !tbaa !13
  %129 = add nsw i32 %128, %127
  store i32 %129, ptr %17, align 4, !tbaa !13
  br label %94

130:                                              ; preds = %99
  br label %131

131:                                              ; preds = %130
  %132 = load i32, ptr %12, align 4, !tbaa !13
  %133 = load i32, ptr %15, align 4, !tbaa !13
  %134 = add nsw i32 %133, %132
  store i32 %134, ptr %15, align 4, !tbaa !13
  br label %86

135:                                              ; preds = %91
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %18) #4
  %136 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %137 = trunc i64 %136 to i32
  store i32 %137, ptr %18, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #4
  %138 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #5
  %139 = trunc i64 %138 to i32
  store i32 %139, ptr %19, align 4, !tbaa !13
  %140 = load i32, ptr %18, align 4, !tbaa !13
  %141 = load i32, ptr %7, align 4, !tbaa !13
  %142 = icmp sge i32 %140, %141
  br i1 %142, label %147, label %143

143:                                              ; preds = %135
  %144 = load i32, ptr %19, align 4, !tbaa !13
  %145 = load i32, ptr %8, align 4, !tbaa !13
  %146 = icmp sge i32 %144, %145
  br i1 %146, label %147, label %148

147:                                              ; preds = %143, %135
  store i32 1, ptr %16, align 4
  br label %485

148:                                              ; preds = %143
  call void @llvm.lifetime.start.p0(i64 1, ptr %20) #4
  %149 = load i32, ptr %10, align 4, !tbaa !13
  %150 = sext i32 %149 to i64
  %151 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %150
  %152 = load i32, ptr %9, align 4, !tbaa !13
  %153 = sext i32 %152 to i64
  %154 = getelementptr inbounds [18 x i8], ptr addrspace(3) %151, i64 0, i64 %153
  %155 = load i8, ptr addrspace(3) %154, align 1, !tbaa !15
  store i8 %155, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %21) #4
  %156 = load i32, ptr %10, align 4, !tbaa !13
  %157 = sext i32 %156 to i64
  %158 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %157
  %159 = load i32, ptr %9, align 4, !tbaa !13
  %160 = add nsw i32 %159, 1
  %161 = sext i32 %160 to i64
  %162 = getelementptr inbounds [18 x i8], ptr addrspace(3) %158, i64 0, i64 %161
  %163 = load i8, ptr addrspace(3) %162, align 1, !tbaa !15
  store i8 %163, ptr %21, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %22) #4
  %164 = load i32, ptr %10, align 4, !tbaa !13
  %165 = sext i32 %164 to i64
  %166 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %165
  %167 = load i32, ptr %9, align 4, !tbaa !13
  %168 = add nsw i32 %167, 2
  %169 = sext i32 %168 to i64
  %170 = getelementptr inbounds [18 x i8], ptr addrspace(3) %166, i64 0, i64 %169
  %171 = load i8, ptr addrspace(3) %170, align 1, !tbaa !15
  store i8 %171, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %23) #4
  %172 = load i32, ptr %10, align 4, !tbaa !13
  %173 = add nsw i32 %172, 1
  %174 = sext i32 %173 to i64
  %175 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %174
  %176 = load i32, ptr %9, align 4, !tbaa !13
  %177 = sext i32 %176 to i64
  %178 = getelementptr inbounds [18 x i8], ptr addrspace(3) %175, i64 0, i64 %177
  %179 = load i8, ptr addrspace(3) %178, align 1, !tbaa !15
  store i8 %179, ptr %23, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %24) #4
  %180 = load i32, ptr %10, align 4, !tbaa !13
  %181 = add nsw i32 %180, 1
  %182 = sext i32 %181 to i64
  %183 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %182
  %184 = load i32, ptr %9, align 4, !tbaa !13
  %185 = add nsw i32 %184, 1
  %186 = sext i32 %185 to i64
  %187 = getelementptr inbounds [18 x i8], ptr addrspace(3) %183, i64 0, i64 %186
  %188 = load i8, ptr addrspace(3) %187, align 1, !tbaa !15
  store i8 %188, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %25) #4
  %189 = load i32, ptr %10, align 4, !tbaa !13
  %190 = add nsw i32 %189, 1
  %191 = sext i32 %190 to i64
  %192 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %191
  %193 = load i32, ptr %9, align 4, !tbaa !13
  %194 = add nsw i32 %193, 2
  %195 = sext i32 %194 to i64
  %196 = getelementptr inbounds [18 x i8], ptr addrspace(3) %192, i64 0, i64 %195
  %197 = load i8, ptr addrspace(3) %196, align 1, !tbaa !15
  store i8 %197, ptr %25, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %26) #4
  %198 = load i32, ptr %10, align 4, !tbaa !13
  %199 = add nsw i32 %198, 2
  %200 = sext i32 %199 to i64
  %201 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %200
  %202 = load i32, ptr %9, align 4, !tbaa !13
  %203 = sext i32 %202 to i64
  %204 = getelementptr inbounds [18 x i8], ptr addrspace(3) %201, i64 0, i64 %203
  %205 = load i8, ptr addrspace(3) %204, align 1, !tbaa !15
  store i8 %205, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %27) #4
  %206 = load i32, ptr %10, align 4, !tbaa !13
  %207 = add nsw i32 %206, 2
  %208 = sext i32 %207 to i64
  %209 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %208
  %210 = load i32, ptr %9, align 4, !tbaa !13
  %211 = add nsw i32 %210, 1
  %212 = sext i32 %211 to i64
  %213 = getelementptr inbounds [18 x i8], ptr addrspace(3) %209, i64 0, i64 %212
  %214 = load i8, ptr addrspace(3) %213, align 1, !tbaa !15
  store i8 %214, ptr %27, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %28) #4
  %215 = load i32, ptr %10, align 4, !tbaa !13
  %216 = add nsw i32 %215, 2
  %217 = sext i32 %216 to i64
  %218 = getelementptr inbounds [18 x [18 x i8]], ptr addrspace(3) @median9.t, i64 0, i64 %217
  %219 = load i32, ptr %9, align 4, !tbaa !13
  %220 = add nsw i32 %219, 2
  %221 = sext i32 %220 to i64
  %222 = getelementptr inbounds [18 x i8], ptr addrspace(3) %218, i64 0, i64 %221
  %223 = load i8, ptr addrspace(3) %222, align 1, !tbaa !15
  store i8 %223, ptr %28, align 1, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 1, ptr %29) #4
  %224 = load i8, ptr %20, align 1, !tbaa !15
  %225 = load i8, ptr %21, align 1, !tbaa !15
  %226 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %224, i8 noundef zeroext %225) #5
  store i8 %226, ptr %29, align 1, !tbaa !15
  %227 = load i8, ptr %20, align 1, !tbaa !15
  %228 = load i8, ptr %21, align 1, !tbaa !15
  %229 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %227, i8 noundef zeroext %228) #5
  store i8 %229, ptr %21, align 1, !tbaa !15
  %230 = load i8, ptr %29, align 1, !tbaa !15
  store i8 %230, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %29) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %30) #4
  %231 = load i8, ptr %22, align 1, !tbaa !15
  %232 = load i8, ptr %23, align 1, !tbaa !15
  %233 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %231, i8 noundef zeroext %232) #5
  store i8 %233, ptr %30, align 1, !tbaa !15
  %234 = load i8, ptr %22, align 1, !tbaa !15
  %235 = load i8, ptr %23, align 1, !tbaa !15
  %236 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %234, i8 noundef zeroext %235) #5
  store i8 %236, ptr %23, align 1, !tbaa !15
  %237 = load i8, ptr %30, align 1, !tbaa !15
  store i8 %237, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %30) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %31) #4
  %238 = load i8, ptr %24, align 1, !tbaa !15
  %239 = load i8, ptr %25, align 1, !tbaa !15
  %240 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %238, i8 noundef zeroext %239) #5
  store i8 %240, ptr %31, align 1, !tbaa !15
  %241 = load i8, ptr %24, align 1, !tbaa !15
  %242 = load i8, ptr %25, align 1, !tbaa !15
  %243 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %241, i8 noundef zeroext %242) #5
  store i8 %243, ptr %25, align 1, !tbaa !15
  %244 = load i8, ptr %31, align 1, !tbaa !15
  store i8 %244, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %31) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %32) #4
  %245 = load i8, ptr %26, align 1, !tbaa !15
  %246 = load i8, ptr %27, align 1, !tbaa !15
  %247 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %245, i8 noundef zeroext %246) #5
  store i8 %247, ptr %32, align 1, !tbaa !15
  %248 = load i8, ptr %26, align 1, !tbaa !15
  %249 = load i8, ptr %27, align 1, !tbaa !15
  %250 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %248, i8 noundef zeroext %249) #5
  store i8 %250, ptr %27, align 1, !tbaa !15
  %251 = load i8, ptr %32, align 1, !tbaa !15
  store i8 %251, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %32) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %33) #4
  %252 = load i8, ptr %21, align 1, !tbaa !15
  %253 = load i8, ptr %22, align 1, !tbaa !15
  %254 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %252, i8 noundef zeroext %253) #5
  store i8 %254, ptr %33, align 1, !tbaa !15
  %255 = load i8, ptr %21, align 1, !tbaa !15
  %256 = load i8, ptr %22, align 1, !tbaa !15
  %257 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %255, i8 noundef zeroext %256) #5
  store i8 %257, ptr %22, align 1, !tbaa !15
  %258 = load i8, ptr %33, align 1, !tbaa !15
  store i8 %258, ptr %21, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %33) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %34) #4
  %259 = load i8, ptr %23, align 1, !tbaa !15
  %260 = load i8, ptr %24, align 1, !tbaa !15
  %261 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %259, i8 noundef zeroext %260) #5
  store i8 %261, ptr %34, align 1, !tbaa !15
  %262 = load i8, ptr %23, align 1, !tbaa !15
  %263 = load i8, ptr %24, align 1, !tbaa !15
  %264 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %262, i8 noundef zeroext %263) #5
  store i8 %264, ptr %24, align 1, !tbaa !15
  %265 = load i8, ptr %34, align 1, !tbaa !15
  store i8 %265, ptr %23, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %34) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %35) #4
  %266 = load i8, ptr %25, align 1, !tbaa !15
  %267 = load i8, ptr %26, align 1, !tbaa !15
  %268 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %266, i8 noundef zeroext %267) #5
  store i8 %268, ptr %35, align 1, !tbaa !15
  %269 = load i8, ptr %25, align 1, !tbaa !15
  %270 = load i8, ptr %26, align 1, !tbaa !15
  %271 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %269, i8 noundef zeroext %270) #5
  store i8 %271, ptr %26, align 1, !tbaa !15
  %272 = load i8, ptr %35, align 1, !tbaa !15
  store i8 %272, ptr %25, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %35) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %36) #4
  %273 = load i8, ptr %27, align 1, !tbaa !15
  %274 = load i8, ptr %28, align 1, !tbaa !15
  %275 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %273, i8 noundef zeroext %274) #5
  store i8 %275, ptr %36, align 1, !tbaa !15
  %276 = load i8, ptr %27, align 1, !tbaa !15
  %277 = load i8, ptr %28, align 1, !tbaa !15
  %278 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %276, i8 noundef zeroext %277) #5
  store i8 %278, ptr %28, align 1, !tbaa !15
  %279 = load i8, ptr %36, align 1, !tbaa !15
  store i8 %279, ptr %27, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %36) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %37) #4
  %280 = load i8, ptr %20, align 1, !tbaa !15
  %281 = load i8, ptr %21, align 1, !tbaa !15
  %282 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %280, i8 noundef zeroext %281) #5
  store i8 %282, ptr %37, align 1, !tbaa !15
  %283 = load i8, ptr %20, align 1, !tbaa !15
  %284 = load i8, ptr %21, align 1, !tbaa !15
  %285 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %283, i8 noundef zeroext %284) #5
  store i8 %285, ptr %21, align 1, !tbaa !15
  %286 = load i8, ptr %37, align 1, !tbaa !15
  store i8 %286, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %37) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %38) #4
  %287 = load i8, ptr %22, align 1, !tbaa !15
  %288 = load i8, ptr %23, align 1, !tbaa !15
  %289 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %287, i8 noundef zeroext %288) #5
  store i8 %289, ptr %38, align 1, !tbaa !15
  %290 = load i8, ptr %22, align 1, !tbaa !15
  %291 = load i8, ptr %23, align 1, !tbaa !15
  %292 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %290, i8 noundef zeroext %291) #5
  store i8 %292, ptr %23, align 1, !tbaa !15
  %293 = load i8, ptr %38, align 1, !tbaa !15
  store i8 %293, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %38) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %39) #4
  %294 = load i8, ptr %24, align 1, !tbaa !15
  %295 = load i8, ptr %25, align 1, !tbaa !15
  %296 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %294, i8 noundef zeroext %295) #5
  store i8 %296, ptr %39, align 1, !tbaa !15
  %297 = load i8, ptr %24, align 1, !tbaa !15
  %298 = load i8, ptr %25, align 1, !tbaa !15
  %299 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %297, i8 noundef zeroext %298) #5
  store i8 %299, ptr %25, align 1, !tbaa !15
  %300 = load i8, ptr %39, align 1, !tbaa !15
  store i8 %300, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %39) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %40) #4
  %301 = load i8, ptr %26, align 1, !tbaa !15
  %302 = load i8, ptr %27, align 1, !tbaa !15
  %303 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %301, i8 noundef zeroext %302) #5
  store i8 %303, ptr %40, align 1, !tbaa !15
  %304 = load i8, ptr %26, align 1, !tbaa !15
  %305 = load i8, ptr %27, align 1, !tbaa !15
  %306 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %304, i8 noundef zeroext %305) #5
  store i8 %306, ptr %27, align 1, !tbaa !15
  %307 = load i8, ptr %40, align 1, !tbaa !15
  store i8 %307, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %40) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %41) #4
  %308 = load i8, ptr %21, align 1, !tbaa !15
  %309 = load i8, ptr %22, align 1, !tbaa !15
  %310 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %308, i8 noundef zeroext %309) #5
  store i8 %310, ptr %41, align 1, !tbaa !15
  %311 = load i8, ptr %21, align 1, !tbaa !15
  %312 = load i8, ptr %22, align 1, !tbaa !15
  %313 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %311, i8 noundef zeroext %312) #5
  store i8 %313, ptr %22, align 1, !tbaa !15
  %314 = load i8, ptr %41, align 1, !tbaa !15
  store i8 %314, ptr %21, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %41) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %42) #4
  %315 = load i8, ptr %23, align 1, !tbaa !15
  %316 = load i8, ptr %24, align 1, !tbaa !15
  %317 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %315, i8 noundef zeroext %316) #5
  store i8 %317, ptr %42, align 1, !tbaa !15
  %318 = load i8, ptr %23, align 1, !tbaa !15
  %319 = load i8, ptr %24, align 1, !tbaa !15
  %320 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %318, i8 noundef zeroext %319) #5
  store i8 %320, ptr %24, align 1, !tbaa !15
  %321 = load i8, ptr %42, align 1, !tbaa !15
  store i8 %321, ptr %23, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %42) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %43) #4
  %322 = load i8, ptr %25, align 1, !tbaa !15
  %323 = load i8, ptr %26, align 1, !tbaa !15
  %324 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %322, i8 noundef zeroext %323) #5
  store i8 %324, ptr %43, align 1, !tbaa !15
  %325 = load i8, ptr %25, align 1, !tbaa !15
  %326 = load i8, ptr %26, align 1, !tbaa !15
  %327 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %325, i8 noundef zeroext %326) #5
  store i8 %327, ptr %26, align 1, !tbaa !15
  %328 = load i8, ptr %43, align 1, !tbaa !15
  store i8 %328, ptr %25, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %43) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %44) #4
  %329 = load i8, ptr %27, align 1, !tbaa !15
  %330 = load i8, ptr %28, align 1, !tbaa !15
  %331 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %329, i8 noundef zeroext %330) #5
  store i8 %331, ptr %44, align 1, !tbaa !15
  %332 = load i8, ptr %27, align 1, !tbaa !15
  %333 = load i8, ptr %28, align 1, !tbaa !15
  %334 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %332, i8 noundef zeroext %333) #5
  store i8 %334, ptr %28, align 1, !tbaa !15
  %335 = load i8, ptr %44, align 1, !tbaa !15
  store i8 %335, ptr %27, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %44) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %45) #4
  %336 = load i8, ptr %20, align 1, !tbaa !15
  %337 = load i8, ptr %21, align 1, !tbaa !15
  %338 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %336, i8 noundef zeroext %337) #5
  store i8 %338, ptr %45, align 1, !tbaa !15
  %339 = load i8, ptr %20, align 1, !tbaa !15
  %340 = load i8, ptr %21, align 1, !tbaa !15
  %341 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %339, i8 noundef zeroext %340) #5
  store i8 %341, ptr %21, align 1, !tbaa !15
  %342 = load i8, ptr %45, align 1, !tbaa !15
  store i8 %342, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %45) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %46) #4
  %343 = load i8, ptr %22, align 1, !tbaa !15
  %344 = load i8, ptr %23, align 1, !tbaa !15
  %345 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %343, i8 noundef zeroext %344) #5
  store i8 %345, ptr %46, align 1, !tbaa !15
  %346 = load i8, ptr %22, align 1, !tbaa !15
  %347 = load i8, ptr %23, align 1, !tbaa !15
  %348 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %346, i8 noundef zeroext %347) #5
  store i8 %348, ptr %23, align 1, !tbaa !15
  %349 = load i8, ptr %46, align 1, !tbaa !15
  store i8 %349, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %46) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %47) #4
  %350 = load i8, ptr %24, align 1, !tbaa !15
  %351 = load i8, ptr %25, align 1, !tbaa !15
  %352 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %350, i8 noundef zeroext %351) #5
  store i8 %352, ptr %47, align 1, !tbaa !15
  %353 = load i8, ptr %24, align 1, !tbaa !15
  %354 = load i8, ptr %25, align 1, !tbaa !15
  %355 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %353, i8 noundef zeroext %354) #5
  store i8 %355, ptr %25, align 1, !tbaa !15
  %356 = load i8, ptr %47, align 1, !tbaa !15
  store i8 %356, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %47) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %48) #4
  %357 = load i8, ptr %26, align 1, !tbaa !15
  %358 = load i8, ptr %27, align 1, !tbaa !15
  %359 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %357, i8 noundef zeroext %358) #5
  store i8 %359, ptr %48, align 1, !tbaa !15
  %360 = load i8, ptr %26, align 1, !tbaa !15
  %361 = load i8, ptr %27, align 1, !tbaa !15
  %362 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %360, i8 noundef zeroext %361) #5
  store i8 %362, ptr %27, align 1, !tbaa !15
  %363 = load i8, ptr %48, align 1, !tbaa !15
  store i8 %363, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %48) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %49) #4
  %364 = load i8, ptr %21, align 1, !tbaa !15
  %365 = load i8, ptr %22, align 1, !tbaa !15
  %366 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %364, i8 noundef zeroext %365) #5
  store i8 %366, ptr %49, align 1, !tbaa !15
  %367 = load i8, ptr %21, align 1, !tbaa !15
  %368 = load i8, ptr %22, align 1, !tbaa !15
  %369 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %367, i8 noundef zeroext %368) #5
  store i8 %369, ptr %22, align 1, !tbaa !15
  %370 = load i8, ptr %49, align 1, !tbaa !15
  store i8 %370, ptr %21, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %49) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %50) #4
  %371 = load i8, ptr %23, align 1, !tbaa !15
  %372 = load i8, ptr %24, align 1, !tbaa !15
  %373 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %371, i8 noundef zeroext %372) #5
  store i8 %373, ptr %50, align 1, !tbaa !15
  %374 = load i8, ptr %23, align 1, !tbaa !15
  %375 = load i8, ptr %24, align 1, !tbaa !15
  %376 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %374, i8 noundef zeroext %375) #5
  store i8 %376, ptr %24, align 1, !tbaa !15
  %377 = load i8, ptr %50, align 1, !tbaa !15
  store i8 %377, ptr %23, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %50) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %51) #4
  %378 = load i8, ptr %25, align 1, !tbaa !15
  %379 = load i8, ptr %26, align 1, !tbaa !15
  %380 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %378, i8 noundef zeroext %379) #5
  store i8 %380, ptr %51, align 1, !tbaa !15
  %381 = load i8, ptr %25, align 1, !tbaa !15
  %382 = load i8, ptr %26, align 1, !tbaa !15
  %383 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %381, i8 noundef zeroext %382) #5
  store i8 %383, ptr %26, align 1, !tbaa !15
  %384 = load i8, ptr %51, align 1, !tbaa !15
  store i8 %384, ptr %25, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %51) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %52) #4
  %385 = load i8, ptr %27, align 1, !tbaa !15
  %386 = load i8, ptr %28, align 1, !tbaa !15
  %387 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %385, i8 noundef zeroext %386) #5
  store i8 %387, ptr %52, align 1, !tbaa !15
  %388 = load i8, ptr %27, align 1, !tbaa !15
  %389 = load i8, ptr %28, align 1, !tbaa !15
  %390 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %388, i8 noundef zeroext %389) #5
  store i8 %390, ptr %28, align 1, !tbaa !15
  %391 = load i8, ptr %52, align 1, !tbaa !15
  store i8 %391, ptr %27, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %52) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %53) #4
  %392 = load i8, ptr %20, align 1, !tbaa !15
  %393 = load i8, ptr %21, align 1, !tbaa !15
  %394 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %392, i8 noundef zeroext %393) #5
  store i8 %394, ptr %53, align 1, !tbaa !15
  %395 = load i8, ptr %20, align 1, !tbaa !15
  %396 = load i8, ptr %21, align 1, !tbaa !15
  %397 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %395, i8 noundef zeroext %396) #5
  store i8 %397, ptr %21, align 1, !tbaa !15
  %398 = load i8, ptr %53, align 1, !tbaa !15
  store i8 %398, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %53) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %54) #4
  %399 = load i8, ptr %22, align 1, !tbaa !15
  %400 = load i8, ptr %23, align 1, !tbaa !15
  %401 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %399, i8 noundef zeroext %400) #5
  store i8 %401, ptr %54, align 1, !tbaa !15
  %402 = load i8, ptr %22, align 1, !tbaa !15
  %403 = load i8, ptr %23, align 1, !tbaa !15
  %404 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %402, i8 noundef zeroext %403) #5
  store i8 %404, ptr %23, align 1, !tbaa !15
  %405 = load i8, ptr %54, align 1, !tbaa !15
  store i8 %405, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %54) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %55) #4
  %406 = load i8, ptr %24, align 1, !tbaa !15
  %407 = load i8, ptr %25, align 1, !tbaa !15
  %408 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %406, i8 noundef zeroext %407) #5
  store i8 %408, ptr %55, align 1, !tbaa !15
  %409 = load i8, ptr %24, align 1, !tbaa !15
  %410 = load i8, ptr %25, align 1, !tbaa !15
  %411 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %409, i8 noundef zeroext %410) #5
  store i8 %411, ptr %25, align 1, !tbaa !15
  %412 = load i8, ptr %55, align 1, !tbaa !15
  store i8 %412, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %55) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %56) #4
  %413 = load i8, ptr %26, align 1, !tbaa !15
  %414 = load i8, ptr %27, align 1, !tbaa !15
  %415 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %413, i8 noundef zeroext %414) #5
  store i8 %415, ptr %56, align 1, !tbaa !15
  %416 = load i8, ptr %26, align 1, !tbaa !15
  %417 = load i8, ptr %27, align 1, !tbaa !15
  %418 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %416, i8 noundef zeroext %417) #5
  store i8 %418, ptr %27, align 1, !tbaa !15
  %419 = load i8, ptr %56, align 1, !tbaa !15
  store i8 %419, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %56) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %57) #4
  %420 = load i8, ptr %21, align 1, !tbaa !15
  %421 = load i8, ptr %22, align 1, !tbaa !15
  %422 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %420, i8 noundef zeroext %421) #5
  store i8 %422, ptr %57, align 1, !tbaa !15
  %423 = load i8, ptr %21, align 1, !tbaa !15
  %424 = load i8, ptr %22, align 1, !tbaa !15
  %425 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %423, i8 noundef zeroext %424) #5
  store i8 %425, ptr %22, align 1, !tbaa !15
  %426 = load i8, ptr %57, align 1, !tbaa !15
  store i8 %426, ptr %21, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %57) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %58) #4
  %427 = load i8, ptr %23, align 1, !tbaa !15
  %428 = load i8, ptr %24, align 1, !tbaa !15
  %429 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %427, i8 noundef zeroext %428) #5
  store i8 %429, ptr %58, align 1, !tbaa !15
  %430 = load i8, ptr %23, align 1, !tbaa !15
  %431 = load i8, ptr %24, align 1, !tbaa !15
  %432 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %430, i8 noundef zeroext %431) #5
  store i8 %432, ptr %24, align 1, !tbaa !15
  %433 = load i8, ptr %58, align 1, !tbaa !15
  store i8 %433, ptr %23, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %58) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %59) #4
  %434 = load i8, ptr %25, align 1, !tbaa !15
  %435 = load i8, ptr %26, align 1, !tbaa !15
  %436 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %434, i8 noundef zeroext %435) #5
  store i8 %436, ptr %59, align 1, !tbaa !15
  %437 = load i8, ptr %25, align 1, !tbaa !15
  %438 = load i8, ptr %26, align 1, !tbaa !15
  %439 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %437, i8 noundef zeroext %438) #5
  store i8 %439, ptr %26, align 1, !tbaa !15
  %440 = load i8, ptr %59, align 1, !tbaa !15
  store i8 %440, ptr %25, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %59) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %60) #4
  %441 = load i8, ptr %27, align 1, !tbaa !15
  %442 = load i8, ptr %28, align 1, !tbaa !15
  %443 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %441, i8 noundef zeroext %442) #5
  store i8 %443, ptr %60, align 1, !tbaa !15
  %444 = load i8, ptr %27, align 1, !tbaa !15
  %445 = load i8, ptr %28, align 1, !tbaa !15
  %446 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %444, i8 noundef zeroext %445) #5
  store i8 %446, ptr %28, align 1, !tbaa !15
  %447 = load i8, ptr %60, align 1, !tbaa !15
  store i8 %447, ptr %27, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %60) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %61) #4
  %448 = load i8, ptr %20, align 1, !tbaa !15
  %449 = load i8, ptr %21, align 1, !tbaa !15
  %450 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %448, i8 noundef zeroext %449) #5
  store i8 %450, ptr %61, align 1, !tbaa !15
  %451 = load i8, ptr %20, align 1, !tbaa !15
  %452 = load i8, ptr %21, align 1, !tbaa !15
  %453 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %451, i8 noundef zeroext %452) #5
  store i8 %453, ptr %21, align 1, !tbaa !15
  %454 = load i8, ptr %61, align 1, !tbaa !15
  store i8 %454, ptr %20, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %61) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %62) #4
  %455 = load i8, ptr %22, align 1, !tbaa !15
  %456 = load i8, ptr %23, align 1, !tbaa !15
  %457 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %455, i8 noundef zeroext %456) #5
  store i8 %457, ptr %62, align 1, !tbaa !15
  %458 = load i8, ptr %22, align 1, !tbaa !15
  %459 = load i8, ptr %23, align 1, !tbaa !15
  %460 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %458, i8 noundef zeroext %459) #5
  store i8 %460, ptr %23, align 1, !tbaa !15
  %461 = load i8, ptr %62, align 1, !tbaa !15
  store i8 %461, ptr %22, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %62) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %63) #4
  %462 = load i8, ptr %24, align 1, !tbaa !15
  %463 = load i8, ptr %25, align 1, !tbaa !15
  %464 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %462, i8 noundef zeroext %463) #5
  store i8 %464, ptr %63, align 1, !tbaa !15
  %465 = load i8, ptr %24, align 1, !tbaa !15
  %466 = load i8, ptr %25, align 1, !tbaa !15
  %467 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %465, i8 noundef zeroext %466) #5
  store i8 %467, ptr %25, align 1, !tbaa !15
  %468 = load i8, ptr %63, align 1, !tbaa !15
  store i8 %468, ptr %24, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %63) #4
  call void @llvm.lifetime.start.p0(i64 1, ptr %64) #4
  %469 = load i8, ptr %26, align 1, !tbaa !15
  %470 = load i8, ptr %27, align 1, !tbaa !15
  %471 = call spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext %469, i8 noundef zeroext %470) #5
  store i8 %471, ptr %64, align 1, !tbaa !15
  %472 = load i8, ptr %26, align 1, !tbaa !15
  %473 = load i8, ptr %27, align 1, !tbaa !15
  %474 = call spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext %472, i8 noundef zeroext %473) #5
  store i8 %474, ptr %27, align 1, !tbaa !15
  %475 = load i8, ptr %64, align 1, !tbaa !15
  store i8 %475, ptr %26, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %64) #4
  %476 = load i8, ptr %24, align 1, !tbaa !15
  %477 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %478 = load i32, ptr %19, align 4, !tbaa !13
  %479 = load i32, ptr %7, align 4, !tbaa !13
  %480 = mul nsw i32 %478, %479
  %481 = load i32, ptr %18, align 4, !tbaa !13
  %482 = add nsw i32 %480, %481
  %483 = sext i32 %482 to i64
  %484 = getelementptr inbounds i8, ptr addrspace(1) %477, i64 %483
  store i8 %476, ptr addrspace(1) %484, align 1, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 1, ptr %28) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %27) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %26) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %25) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %24) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %23) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %22) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %21) #4
  call void @llvm.lifetime.end.p0(i64 1, ptr %20) #4
  store i32 0, ptr %16, align 4
  br label %485

485:                                              ; preds = %148, %147
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %18) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  %486 = load i32, ptr %16, align 4
  switch i32 %486, label %488 [
    i32 0, label %487
    i32 1, label %487
  ]

487:                                              ; preds = %485, %485
  ret void

488:                                              ; preds = %485
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z5clampiii(i32 noundef, i32 noundef, i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func zeroext i8 @_Z3minhh(i8 noundef zeroext, i8 noundef zeroext) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func zeroext i8 @_Z3maxhh(i8 noundef zeroext, i8 noundef zeroext) #2

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
!4 = !{i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"uchar*", !"uchar*", !"int", !"int"}
!7 = !{!"const", !"", !"", !""}
!8 = !{!"src", !"dst", !"w", !"h"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
