; uniform-loop-exits: a grid-stride loop over a `uint` index stepped by a size_t
; (instcombine's form: an i64 phi tested truncated, stepped from its low 32
; bits) runs in step: the first work-item's index, tested and stepped the
; same way, decides the exit; each work-item's own test guards the body.
;   kernel void k(global const uchar *in, global uint *out, uint n)
;   { uint s = 0; for (uint i = get_global_id(0); i < n; i += get_global_size(0)) s += in[i];
;     out[get_global_id(0)] = s; }
; RUN: mosaic-opt --stop-after=uniform-loop-exits --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: in_step
; CHECK-LABEL: ;; after uniform-loop-exits
; CHECK-LABEL: define internal void @k.body(
; CHECK: %in_step.distance = sub i64
; CHECK: %in_step.first = phi i64
; CHECK: %[[OWN:[0-9]+]] = icmp ult i32 %{{.*}}, %2
; CHECK: %[[F:[0-9]+]] = trunc i64 %in_step.first to i32
; CHECK: %[[C0:[0-9]+]] = icmp ult i32 %[[F]], %2
; CHECK: br i1 %[[C0]], label %in_step.guard,
; CHECK: in_step.guard:
; CHECK-NEXT: br i1 %[[OWN]],
; CHECK: in_step.latch:
; CHECK: %[[LOW:[0-9]+]] = and i64 %in_step.first, 4294967295
; CHECK: add i64 %[[LOW]],

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %7) #3
  store i32 0, ptr %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 4, ptr %8) #3
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %10 = trunc i64 %9 to i32
  store i32 %10, ptr %8, align 4, !tbaa !13
  br label %11

11:                                               ; preds = %25, %3
  %12 = load i32, ptr %8, align 4, !tbaa !13
  %13 = load i32, ptr %6, align 4, !tbaa !13
  %14 = icmp ult i32 %12, %13
  br i1 %14, label %16, label %15

15:                                               ; preds = %11
  call void @llvm.lifetime.end.p0(i64 4, ptr %8) #3
  br label %31

16:                                               ; preds = %11
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %18 = load i32, ptr %8, align 4, !tbaa !13
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds i8, ptr addrspace(1) %17, i64 %19
  %21 = load i8, ptr addrspace(1) %20, align 1, !tbaa !15
  %22 = zext i8 %21 to i32
  %23 = load i32, ptr %7, align 4, !tbaa !13
  %24 = add i32 %23, %22
  store i32 %24, ptr %7, align 4, !tbaa !13
  br label %25

25:                                               ; preds = %16
  %26 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #4
  %27 = load i32, ptr %8, align 4, !tbaa !13
  %28 = zext i32 %27 to i64
  %29 = add i64 %28, %26
  %30 = trunc i64 %29 to i32
  store i32 %30, ptr %8, align 4, !tbaa !13
  br label %11

31:                                               ; preds = %15
  %32 = load i32, ptr %7, align 4, !tbaa !13
  %33 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %34 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %35 = getelementptr inbounds i32, ptr addrspace(1) %33, i64 %34
  store i32 %32, ptr addrspace(1) %35, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %7) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
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
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"uchar*", !"uint*", !"uint"}
!7 = !{!"const", !"", !""}
!8 = !{!"in", !"out", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
