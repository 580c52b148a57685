; boscc: in a build of a halo-tile load for 4x4 groups (AVX-512,
; where the vectoriser makes masked gathers: rows not widened, which would
; run them 2 at once), a masked gather whose mask is
; not a constant runs under a test that some lane is active (any.lane), so
; the second round of the tile's load, whose lanes are mostly inactive,
; costs a test.  The kernel is test_regions.c's `halo` with TX=TY=4.
; RUN: MOSAIC_NO_WIDEN=1 mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --options=-cl-std=CL2.0 --one-size=halo:4,4,1 --stop-after=boscc --print-before %s | FileCheck %s
; CHECK-LABEL: define void @halo.wg(
; CHECK-NOT: any.lane
; CHECK: call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %{{[0-9]+}}, i32 4, <4 x i1> %{{[0-9]+}},
; CHECK-LABEL: ;; after boscc
; CHECK-LABEL: define void @halo.wg(
; CHECK: %mask.bits = bitcast <4 x i1> [[MASK:%[0-9]+]] to i4
; CHECK-NEXT: [[ANY:%any.lane[0-9]*]] = icmp ne i4 %mask.bits, 0
; CHECK-NEXT: br i1 [[ANY]], label %any.lane, label %any.lane.done
; CHECK: any.lane:
; CHECK: call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %{{[0-9]+}}, i32 4, <4 x i1> [[MASK]],
; CHECK: br label %any.lane.done
; CHECK: any.lane.done:
;   #define TX 4
;   #define TY 4
;   kernel void halo(global const float *in, global float *out, int w, int h) {
;     local float t[TY + 2][TX + 2];
;     int lx = get_local_id(0), ly = get_local_id(1);
;     int x0 = get_group_id(0) * TX - 1, y0 = get_group_id(1) * TY - 1;
;     for (int i = ly * TX + lx; i < (TX + 2) * (TY + 2); i += TX * TY) {
;       int x = clamp(x0 + i % (TX + 2), 0, w - 1), y = clamp(y0 + i / (TX + 2), 0, h - 1);
;       t[i / (TX + 2)][i % (TX + 2)] = in[y * w + x];
;     }
;     barrier(CLK_LOCAL_MEM_FENCE);
;     out[get_global_id(1) * w + get_global_id(0)] = 4.0f * t[ly + 1][lx + 1] + t[ly][lx + 1] +
;                                                   t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2];
;   }

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@halo.t = internal addrspace(3) global [6 x [6 x float]] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @halo(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
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
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !9
  store i32 %2, ptr %7, align 4, !tbaa !13
  store i32 %3, ptr %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #5
  %16 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #6
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #5
  %18 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #6
  %19 = trunc i64 %18 to i32
  store i32 %19, ptr %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #5
  %20 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #6
  %21 = mul i64 %20, 4
  %22 = sub i64 %21, 1
  %23 = trunc i64 %22 to i32
  store i32 %23, ptr %11, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #5
  %24 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #6
  %25 = mul i64 %24, 4
  %26 = sub i64 %25, 1
  %27 = trunc i64 %26 to i32
  store i32 %27, ptr %12, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #5
  %28 = load i32, ptr %10, align 4, !tbaa !13
  %29 = mul nsw i32 %28, 4
  %30 = load i32, ptr %9, align 4, !tbaa !13
  %31 = add nsw i32 %29, %30
  store i32 %31, ptr %13, align 4, !tbaa !13
  br label %32

32:                                               ; preds = %68, %4
  %33 = load i32, ptr %13, align 4, !tbaa !13
  %34 = icmp slt i32 %33, 36
  br i1 %34, label %36, label %35

35:                                               ; preds = %32
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #5
  br label %71

36:                                               ; preds = %32
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #5
  %37 = load i32, ptr %11, align 4, !tbaa !13
  %38 = load i32, ptr %13, align 4, !tbaa !13
  %39 = srem i32 %38, 6
  %40 = add nsw i32 %37, %39
  %41 = load i32, ptr %7, align 4, !tbaa !13
  %42 = sub nsw i32 %41, 1
  %43 = call spir_func i32 @_Z5clampiii(i32 noundef %40, i32 noundef 0, i32 noundef %42) #6
  store i32 %43, ptr %14, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #5
  %44 = load i32, ptr %12, align 4, !tbaa !13
  %45 = load i32, ptr %13, align 4, !tbaa !13
  %46 = sdiv i32 %45, 6
  %47 = add nsw i32 %44, %46
  %48 = load i32, ptr %8, align 4, !tbaa !13
  %49 = sub nsw i32 %48, 1
  %50 = call spir_func i32 @_Z5clampiii(i32 noundef %47, i32 noundef 0, i32 noundef %49) #6
  store i32 %50, ptr %15, align 4, !tbaa !13
  %51 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %52 = load i32, ptr %15, align 4, !tbaa !13
  %53 = load i32, ptr %7, align 4, !tbaa !13
  %54 = mul nsw i32 %52, %53
  %55 = load i32, ptr %14, align 4, !tbaa !13
  %56 = add nsw i32 %54, %55
  %57 = sext i32 %56 to i64
  %58 = getelementptr inbounds float, ptr addrspace(1) %51, i64 %57
  %59 = load float, ptr addrspace(1) %58, align 4, !tbaa !15
  %60 = load i32, ptr %13, align 4, !tbaa !13
  %61 = sdiv i32 %60, 6
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %62
  %64 = load i32, ptr %13, align 4, !tbaa !13
  %65 = srem i32 %64, 6
  %66 = sext i32 %65 to i64
  %67 = getelementptr inbounds [6 x float], ptr addrspace(3) %63, i64 0, i64 %66
  store float %59, ptr addrspace(3) %67, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #5
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #5
  br label %68

68:                                               ; preds = %36
  %69 = load i32, ptr %13, align 4, !tbaa !13
  %70 = add nsw i32 %69, 16
  store i32 %70, ptr %13, align 4, !tbaa !13
  br label %32

71:                                               ; preds = %35
  call spir_func void @_Z7barrierj(i32 noundef 1) #7
  %72 = load i32, ptr %10, align 4, !tbaa !13
  %73 = add nsw i32 %72, 1
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %74
  %76 = load i32, ptr %9, align 4, !tbaa !13
  %77 = add nsw i32 %76, 1
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds [6 x float], ptr addrspace(3) %75, i64 0, i64 %78
  %80 = load float, ptr addrspace(3) %79, align 4, !tbaa !15
  %81 = load i32, ptr %10, align 4, !tbaa !13
  %82 = sext i32 %81 to i64
  %83 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %82
  %84 = load i32, ptr %9, align 4, !tbaa !13
  %85 = add nsw i32 %84, 1
  %86 = sext i32 %85 to i64
  %87 = getelementptr inbounds [6 x float], ptr addrspace(3) %83, i64 0, i64 %86
  %88 = load float, ptr addrspace(3) %87, align 4, !tbaa !15
  %89 = call float @llvm.fmuladd.f32(float 4.000000e+00, float %80, float %88)
  %90 = load i32, ptr %10, align 4, !tbaa !13
  %91 = add nsw i32 %90, 2
  %92 = sext i32 %91 to i64
  %93 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %92
  %94 = load i32, ptr %9, align 4, !tbaa !13
  %95 = add nsw i32 %94, 1
  %96 = sext i32 %95 to i64
  %97 = getelementptr inbounds [6 x float], ptr addrspace(3) %93, i64 0, i64 %96
  %98 = load float, ptr addrspace(3) %97, align 4, !tbaa !15
  %99 = fadd float %89, %98
  %100 = load i32, ptr %10, align 4, !tbaa !13
  %101 = add nsw i32 %100, 1
  %102 = sext i32 %101 to i64
  %103 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %102
  %104 = load i32, ptr %9, align 4, !tbaa !13
  %105 = sext i32 %104 to i64
  %106 = getelementptr inbounds [6 x float], ptr addrspace(3) %103, i64 0, i64 %105
  %107 = load float, ptr addrspace(3) %106, align 4, !tbaa !15
  %108 = fadd float %99, %107
  %109 = load i32, ptr %10, align 4, !tbaa !13
  %110 = add nsw i32 %109, 1
  %111 = sext i32 %110 to i64
  %112 = getelementptr inbounds [6 x [6 x float]], ptr addrspace(3) @halo.t, i64 0, i64 %111
  %113 = load i32, ptr %9, align 4, !tbaa !13
  %114 = add nsw i32 %113, 2
  %115 = sext i32 %114 to i64
  %116 = getelementptr inbounds [6 x float], ptr addrspace(3) %112, i64 0, i64 %115
  %117 = load float, ptr addrspace(3) %116, align 4, !tbaa !15
  %118 = fadd float %108, %117
  %119 = load ptr addrspace(1), ptr %6, align 8, !tbaa !9
  %120 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #6
  %121 = load i32, ptr %7, align 4, !tbaa !13
  %122 = sext i32 %121 to i64
  %123 = mul i64 %120, %122
  %124 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %125 = add i64 %123, %124
  %126 = getelementptr inbounds float, ptr addrspace(1) %119, i64 %125
  store float %118, ptr addrspace(1) %126, align 4, !tbaa !15
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
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z5clampiii(i32 noundef, i32 noundef, i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #4

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"int", !"int"}
!7 = !{!"const", !"", !"", !""}
!8 = !{!"in", !"out", !"w", !"h"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
