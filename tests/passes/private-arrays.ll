; private-arrays: a private array read or written at a run-time index becomes
; one value an element: a store at index r writes each element r may name
; (the stored value where r is its index, its own value elsewhere), a load
; picks its element with a chain of selects on the index.  float4 v[4]'s
; index counts float4s, so r is compared with 0..3, not each float with
; 4r + lane.
;   kernel void k(global const float4 *a, global float *c, int n, int m)
;   { int i = get_global_id(0); float4 v[4];
;     for (int r = 0; r < 4; r++) v[r] = a[i * 4 + r] * 2.0f;
;     float s = 0.0f;
;     for (int r = 0; r < 4 && r < m; r++) s += v[r].y;
;     float e[4] = { s, v[1].x, v[2].z, v[3].w };
;     for (int q = 0; q < 4 && q < n; q++) c[i * 4 + q] = e[q]; }
; RUN: mosaic-opt --stop-after=private-arrays --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: alloca [4 x <4 x float>]
; CHECK: alloca [4 x float]
; CHECK-LABEL: ;; after private-arrays
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: alloca
; v[r] = ...: the first float of each float4 where r is its index
; CHECK: [[V:%[0-9]+]] = fmul <4 x float>
; CHECK: [[R:%[0-9]+]] = zext i32 %{{.*}} to i64
; CHECK: [[X:%[0-9]+]] = extractelement <4 x float> [[V]], i32 0
; CHECK-NEXT: [[R0:%at[0-9]*]] = icmp eq i64 [[R]], 0
; CHECK-NEXT: select i1 [[R0]], float [[X]], float
; CHECK-NEXT: [[R1:%at[0-9]*]] = icmp eq i64 [[R]], 1
; CHECK-NEXT: select i1 [[R1]], float [[X]], float
; CHECK-NEXT: [[R2:%at[0-9]*]] = icmp eq i64 [[R]], 2
; CHECK-NEXT: select i1 [[R2]], float [[X]], float
; CHECK-NEXT: [[R3:%at[0-9]*]] = icmp eq i64 [[R]], 3
; CHECK-NEXT: select i1 [[R3]], float [[X]], float
; v[r] read under a run-time bound: row 0 unless r names another
; CHECK: [[S:%[0-9]+]] = zext i32 %{{.*}} to i64
; CHECK-NEXT: [[S1:%at[0-9]*]] = icmp eq i64 [[S]], 1
; CHECK-NEXT: [[P1:%[0-9]+]] = select i1 [[S1]], float %{{.*}}, float
; CHECK-NEXT: [[S2:%at[0-9]*]] = icmp eq i64 [[S]], 2
; CHECK-NEXT: [[P2:%[0-9]+]] = select i1 [[S2]], float %{{.*}}, float [[P1]]
; CHECK-NEXT: [[S3:%at[0-9]*]] = icmp eq i64 [[S]], 3
; CHECK-NEXT: select i1 [[S3]], float %{{.*}}, float [[P2]]
; e[q]: e[0] (s) unless q names another
; CHECK: [[Q:%[0-9]+]] = zext i32 %{{.*}} to i64
; CHECK-NEXT: [[Q1:%at[0-9]*]] = icmp eq i64 [[Q]], 1
; CHECK-NEXT: select i1 [[Q1]], float
; CHECK: store float
; CHECK-NOT: alloca
; CHECK: ret void

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca [4 x <4 x float>], align 16
  %11 = alloca i32, align 4
  %12 = alloca float, align 4
  %13 = alloca i32, align 4
  %14 = alloca [4 x float], align 4
  %15 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8, !tbaa !10
  store ptr addrspace(1) %1, ptr %6, align 8, !tbaa !10
  store i32 %2, ptr %7, align 4, !tbaa !14
  store i32 %3, ptr %8, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #3
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %9, align 4, !tbaa !14
  call void @llvm.lifetime.start.p0(i64 64, ptr %10) #3
  call void @llvm.lifetime.start.p0(i64 4, ptr %11) #3
  store i32 0, ptr %11, align 4, !tbaa !14
  br label %18

18:                                               ; preds = %35, %4
  %19 = load i32, ptr %11, align 4, !tbaa !14
  %20 = icmp slt i32 %19, 4
  br i1 %20, label %22, label %21

21:                                               ; preds = %18
  call void @llvm.lifetime.end.p0(i64 4, ptr %11) #3
  br label %38

22:                                               ; preds = %18
  %23 = load ptr addrspace(1), ptr %5, align 8, !tbaa !10
  %24 = load i32, ptr %9, align 4, !tbaa !14
  %25 = mul nsw i32 %24, 4
  %26 = load i32, ptr %11, align 4, !tbaa !14
  %27 = add nsw i32 %25, %26
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds <4 x float>, ptr addrspace(1) %23, i64 %28
  %30 = load <4 x float>, ptr addrspace(1) %29, align 16, !tbaa !16
  %31 = fmul <4 x float> %30, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %32 = load i32, ptr %11, align 4, !tbaa !14
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [4 x <4 x float>], ptr %10, i64 0, i64 %33
  store <4 x float> %31, ptr %34, align 16, !tbaa !16
  br label %35

35:                                               ; preds = %22
  %36 = load i32, ptr %11, align 4, !tbaa !14
  %37 = add nsw i32 %36, 1
  store i32 %37, ptr %11, align 4, !tbaa !14
  br label %18

38:                                               ; preds = %21
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #3
  store float 0.000000e+00, ptr %12, align 4, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %13) #3
  store i32 0, ptr %13, align 4, !tbaa !14
  br label %39

39:                                               ; preds = %57, %38
  %40 = load i32, ptr %13, align 4, !tbaa !14
  %41 = icmp slt i32 %40, 4
  br i1 %41, label %42, label %46

42:                                               ; preds = %39
  %43 = load i32, ptr %13, align 4, !tbaa !14
  %44 = load i32, ptr %8, align 4, !tbaa !14
  %45 = icmp slt i32 %43, %44
  br label %46

46:                                               ; preds = %42, %39
  %47 = phi i1 [ false, %39 ], [ %45, %42 ]
  br i1 %47, label %49, label %48

48:                                               ; preds = %46
  call void @llvm.lifetime.end.p0(i64 4, ptr %13) #3
  br label %60

49:                                               ; preds = %46
  %50 = load i32, ptr %13, align 4, !tbaa !14
  %51 = sext i32 %50 to i64
  %52 = getelementptr inbounds [4 x <4 x float>], ptr %10, i64 0, i64 %51
  %53 = load <4 x float>, ptr %52, align 16
  %54 = extractelement <4 x float> %53, i64 1
  %55 = load float, ptr %12, align 4, !tbaa !17
  %56 = fadd float %55, %54
  store float %56, ptr %12, align 4, !tbaa !17
  br label %57

57:                                               ; preds = %49
  %58 = load i32, ptr %13, align 4, !tbaa !14
  %59 = add nsw i32 %58, 1
  store i32 %59, ptr %13, align 4, !tbaa !14
  br label %39

60:                                               ; preds = %48
  call void @llvm.lifetime.start.p0(i64 16, ptr %14) #3
  %61 = getelementptr inbounds [4 x float], ptr %14, i64 0, i64 0
  %62 = load float, ptr %12, align 4, !tbaa !17
  store float %62, ptr %61, align 4, !tbaa !17
  %63 = getelementptr inbounds float, ptr %61, i64 1
  %64 = getelementptr inbounds [4 x <4 x float>], ptr %10, i64 0, i64 1
  %65 = load <4 x float>, ptr %64, align 16
  %66 = extractelement <4 x float> %65, i64 0
  store float %66, ptr %63, align 4, !tbaa !17
  %67 = getelementptr inbounds float, ptr %63, i64 1
  %68 = getelementptr inbounds [4 x <4 x float>], ptr %10, i64 0, i64 2
  %69 = load <4 x float>, ptr %68, align 16
  %70 = extractelement <4 x float> %69, i64 2
  store float %70, ptr %67, align 4, !tbaa !17
  %71 = getelementptr inbounds float, ptr %67, i64 1
  %72 = getelementptr inbounds [4 x <4 x float>], ptr %10, i64 0, i64 3
  %73 = load <4 x float>, ptr %72, align 16
  %74 = extractelement <4 x float> %73, i64 3
  store float %74, ptr %71, align 4, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #3
  store i32 0, ptr %15, align 4, !tbaa !14
  br label %75

75:                                               ; preds = %97, %60
  %76 = load i32, ptr %15, align 4, !tbaa !14
  %77 = icmp slt i32 %76, 4
  br i1 %77, label %78, label %82

78:                                               ; preds = %75
  %79 = load i32, ptr %15, align 4, !tbaa !14
  %80 = load i32, ptr %7, align 4, !tbaa !14
  %81 = icmp slt i32 %79, %80
  br label %82

82:                                               ; preds = %78, %75
  %83 = phi i1 [ false, %75 ], [ %81, %78 ]
  br i1 %83, label %85, label %84

84:                                               ; preds = %82
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #3
  br label %100

85:                                               ; preds = %82
  %86 = load i32, ptr %15, align 4, !tbaa !14
  %87 = sext i32 %86 to i64
  %88 = getelementptr inbounds [4 x float], ptr %14, i64 0, i64 %87
  %89 = load float, ptr %88, align 4, !tbaa !17
  %90 = load ptr addrspace(1), ptr %6, align 8, !tbaa !10
  %91 = load i32, ptr %9, align 4, !tbaa !14
  %92 = mul nsw i32 %91, 4
  %93 = load i32, ptr %15, align 4, !tbaa !14
  %94 = add nsw i32 %92, %93
  %95 = sext i32 %94 to i64
  %96 = getelementptr inbounds float, ptr addrspace(1) %90, i64 %95
  store float %89, ptr addrspace(1) %96, align 4, !tbaa !17
  br label %97

97:                                               ; preds = %85
  %98 = load i32, ptr %15, align 4, !tbaa !14
  %99 = add nsw i32 %98, 1
  store i32 %99, ptr %15, align 4, !tbaa !14
  br label %75

100:                                              ; preds = %84
  call void @llvm.lifetime.end.p0(i64 16, ptr %14) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #3
  call void @llvm.lifetime.end.p0(i64 64, ptr %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

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
!4 = !{i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float4*", !"float*", !"int", !"int"}
!7 = !{!"float __attribute__((ext_vector_type(4)))*", !"float*", !"int", !"int"}
!8 = !{!"const", !"", !"", !""}
!9 = !{!"a", !"c", !"n", !"m"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"int", !12, i64 0}
!16 = !{!12, !12, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"float", !12, i64 0}
