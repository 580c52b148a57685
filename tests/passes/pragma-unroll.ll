; pragma-unroll: loops under #pragma unroll are unrolled, so the private
; array they index (acc) becomes four values in registers.
;   kernel void k(global float *o, global const float *a)
;   { float acc[4];
;     #pragma unroll
;     for (int j = 0; j < 4; j++) acc[j] = 0.0f;
;     for (int k = 0; k < 64; k++) {
;       #pragma unroll
;       for (int j = 0; j < 4; j++) acc[j] += a[k * 4 + j]; }
;     #pragma unroll
;     for (int j = 0; j < 4; j++) o[get_global_id(0) * 4 + j] = acc[j]; }
; RUN: mosaic-opt --stop-after=pragma-unroll --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: alloca [4 x float]
; CHECK-LABEL: ;; after pragma-unroll
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: alloca
; CHECK: phi float [ 0.000000e+00
; CHECK: phi float [ 0.000000e+00
; CHECK: phi float [ 0.000000e+00
; CHECK: phi float [ 0.000000e+00
; CHECK: icmp ult i32 %{{.*}}, 64
; CHECK-COUNT-4: fadd float
; CHECK-NOT: alloca
; CHECK: ret void

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca [4 x float], align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 16, ptr %5) #3
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #3
  store i32 0, ptr %6, align 4, !tbaa !13
  br label %11

11:                                               ; preds = %19, %2
  %12 = load i32, ptr %6, align 4, !tbaa !13
  %13 = icmp slt i32 %12, 4
  br i1 %13, label %15, label %14

14:                                               ; preds = %11
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #3
  br label %22

15:                                               ; preds = %11
  %16 = load i32, ptr %6, align 4, !tbaa !13
  %17 = sext i32 %16 to i64
  %18 = getelementptr inbounds [4 x float], ptr %5, i64 0, i64 %17
  store float 0.000000e+00, ptr %18, align 4, !tbaa !15
  br label %19

19:                                               ; preds = %15
  %20 = load i32, ptr %6, align 4, !tbaa !13
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %6, align 4, !tbaa !13
  br label %11, !llvm.loop !17

22:                                               ; preds = %14
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  store i32 0, ptr %7, align 4, !tbaa !13
  br label %23

23:                                               ; preds = %50, %22
  %24 = load i32, ptr %7, align 4, !tbaa !13
  %25 = icmp slt i32 %24, 64
  br i1 %25, label %27, label %26

26:                                               ; preds = %23
  store i32 5, ptr %8, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  br label %53

27:                                               ; preds = %23
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  store i32 0, ptr %9, align 4, !tbaa !13
  br label %28

28:                                               ; preds = %46, %27
  %29 = load i32, ptr %9, align 4, !tbaa !13
  %30 = icmp slt i32 %29, 4
  br i1 %30, label %32, label %31

31:                                               ; preds = %28
  store i32 8, ptr %8, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  br label %49

32:                                               ; preds = %28
  %33 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %34 = load i32, ptr %7, align 4, !tbaa !13
  %35 = mul nsw i32 %34, 4
  %36 = load i32, ptr %9, align 4, !tbaa !13
  %37 = add nsw i32 %35, %36
  %38 = sext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr addrspace(1) %33, i64 %38
  %40 = load float, ptr addrspace(1) %39, align 4, !tbaa !15
  %41 = load i32, ptr %9, align 4, !tbaa !13
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds [4 x float], ptr %5, i64 0, i64 %42
  %44 = load float, ptr %43, align 4, !tbaa !15
  %45 = fadd float %44, %40
  store float %45, ptr %43, align 4, !tbaa !15
  br label %46

46:                                               ; preds = %32
  %47 = load i32, ptr %9, align 4, !tbaa !13
  %48 = add nsw i32 %47, 1
  store i32 %48, ptr %9, align 4, !tbaa !13
  br label %28, !llvm.loop !19

49:                                               ; preds = %31
  br label %50

50:                                               ; preds = %49
  %51 = load i32, ptr %7, align 4, !tbaa !13
  %52 = add nsw i32 %51, 1
  store i32 %52, ptr %7, align 4, !tbaa !13
  br label %23

53:                                               ; preds = %26
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #3
  store i32 0, ptr %10, align 4, !tbaa !13
  br label %54

54:                                               ; preds = %70, %53
  %55 = load i32, ptr %10, align 4, !tbaa !13
  %56 = icmp slt i32 %55, 4
  br i1 %56, label %58, label %57

57:                                               ; preds = %54
  store i32 11, ptr %8, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #3
  br label %73

58:                                               ; preds = %54
  %59 = load i32, ptr %10, align 4, !tbaa !13
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds [4 x float], ptr %5, i64 0, i64 %60
  %62 = load float, ptr %61, align 4, !tbaa !15
  %63 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %64 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %65 = mul i64 %64, 4
  %66 = load i32, ptr %10, align 4, !tbaa !13
  %67 = sext i32 %66 to i64
  %68 = add i64 %65, %67
  %69 = getelementptr inbounds float, ptr addrspace(1) %63, i64 %68
  store float %62, ptr addrspace(1) %69, align 4, !tbaa !15
  br label %70

70:                                               ; preds = %58
  %71 = load i32, ptr %10, align 4, !tbaa !13
  %72 = add nsw i32 %71, 1
  store i32 %72, ptr %10, align 4, !tbaa !13
  br label %54, !llvm.loop !20

73:                                               ; preds = %57
  call void @llvm.lifetime.end.p0(i64 16, ptr %5) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"float*", !"float*"}
!7 = !{!"", !"const"}
!8 = !{!"o", !"a"}
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
!19 = distinct !{!19, !18}
!20 = distinct !{!20, !18}
