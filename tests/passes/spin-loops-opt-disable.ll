; spin-loops under -cl-opt-disable (IR not cleaned up, values in private
; variables): a loop that reads a volatile __local array as data, its exit
; on a counter of its own, waits for no one (no yield: the kernel is cut
; into regions); a loop that leaves on a volatile flag waits, through the
; pointer it loads from a private variable on each iteration.
;   kernel void sums(global const float *in, global float *out, local volatile float *t)
;   { int l = get_local_id(0), n = get_local_size(0); t[l] = in[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE); float s = 0.0f; for (int k = 0; k < n; k++) s += t[k];
;     out[get_global_id(0)] = s; }
;   kernel void wait_flag(volatile global int *flag, global int *o)
;   { if (get_global_id(0) == 0) *flag = 1; while (*flag == 0); o[get_global_id(0)] = 1; }
; RUN: mosaic-opt --options=-cl-opt-disable --stop-after=spin-loops %s | FileCheck %s
; CHECK-LABEL: define internal void @sums.body(
; CHECK: load volatile float
; CHECK-NOT: @__mosaic_yield
; CHECK-LABEL: define internal void @wait_flag.body(
; CHECK: load volatile i32
; CHECK: call void @__mosaic_yield(ptr %ctx)

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @sums(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca float, align 4
  %10 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #4
  %11 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %12 = trunc i64 %11 to i32
  store i32 %12, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #4
  %13 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %8, align 4, !tbaa !13
  %15 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %17 = getelementptr inbounds float, ptr addrspace(1) %15, i64 %16
  %18 = load float, ptr addrspace(1) %17, align 4, !tbaa !15
  %19 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %20 = load i32, ptr %7, align 4, !tbaa !13
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds float, ptr addrspace(3) %19, i64 %21
  store volatile float %18, ptr addrspace(3) %22, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 4, ptr %9) #4
  store float 0.000000e+00, ptr %9, align 4, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 4, ptr %10) #4
  store i32 0, ptr %10, align 4, !tbaa !13
  br label %23

23:                                               ; preds = %36, %3
  %24 = load i32, ptr %10, align 4, !tbaa !13
  %25 = load i32, ptr %8, align 4, !tbaa !13
  %26 = icmp slt i32 %24, %25
  br i1 %26, label %28, label %27

27:                                               ; preds = %23
  call void @llvm.lifetime.end.p0(i64 4, ptr %10) #4
  br label %39

28:                                               ; preds = %23
  %29 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %30 = load i32, ptr %10, align 4, !tbaa !13
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds float, ptr addrspace(3) %29, i64 %31
  %33 = load volatile float, ptr addrspace(3) %32, align 4, !tbaa !15
  %34 = load float, ptr %9, align 4, !tbaa !15
  %35 = fadd float %34, %33
  store float %35, ptr %9, align 4, !tbaa !15
  br label %36

36:                                               ; preds = %28
  %37 = load i32, ptr %10, align 4, !tbaa !13
  %38 = add nsw i32 %37, 1
  store i32 %38, ptr %10, align 4, !tbaa !13
  br label %23

39:                                               ; preds = %27
  %40 = load float, ptr %9, align 4, !tbaa !15
  %41 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %42 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %43 = getelementptr inbounds float, ptr addrspace(1) %41, i64 %42
  store float %40, ptr addrspace(1) %43, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(i64 4, ptr %9) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #4
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @wait_flag(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !17 !kernel_arg_access_qual !18 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  %5 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %6 = icmp eq i64 %5, 0
  br i1 %6, label %7, label %9

7:                                                ; preds = %2
  %8 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  store volatile i32 1, ptr addrspace(1) %8, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %7, %2
  br label %10

10:                                               ; preds = %14, %9
  %11 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %12 = load volatile i32, ptr addrspace(1) %11, align 4, !tbaa !13
  %13 = icmp eq i32 %12, 0
  br i1 %13, label %14, label %15

14:                                               ; preds = %10
  br label %10

15:                                               ; preds = %10
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %18 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %17
  store i32 1, ptr addrspace(1) %18, align 4, !tbaa !13
  ret void
}

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
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"", !"volatile"}
!8 = !{!"in", !"out", !"t"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{i32 1, i32 1}
!18 = !{!"none", !"none"}
!19 = !{!"int*", !"int*"}
!20 = !{!"volatile", !""}
!21 = !{!"flag", !"o"}
