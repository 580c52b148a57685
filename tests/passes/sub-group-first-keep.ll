; sub-group-first, __mosaic_keep32: a non-uniform reduction of a 4-byte
; type passes its result through __mosaic_keep32(x) before its last
; barrier, so LLVM's clean-up does not sink the fold past the barriers;
; once K.wg is built, what K.body still holds of it becomes x.
;   __attribute__((overloadable)) int sub_group_non_uniform_reduce_add(int);
;   kernel void k(global int *o) { int x = o[get_global_id(0)]; if (x & 1) o[get_global_id(0)] = sub_group_non_uniform_reduce_add(x); }
; RUN: mosaic-opt --options=-cl-std=CL3.0 --stop-after=sub-group-first --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: [[K:%[0-9]+]] = call i32 @__mosaic_keep32(i32 noundef %{{[0-9]+}})
; CHECK-NEXT: call i32 @__mosaic_sub_group_active(
; CHECK: store i32 [[K]], ptr addrspace(1)
; CHECK-LABEL: ;; after sub-group-first
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: call i32 @__mosaic_keep32
; CHECK: call i32 @__mosaic_sub_group_active(
; CHECK-NEXT: br label %after.barrier
; CHECK-NOT: call i32 @__mosaic_keep32
; CHECK: store i32 %{{[0-9]+}}, ptr addrspace(1)
; CHECK-NOT: call i32 @__mosaic_keep32
; CHECK-LABEL: define void @k.wi(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %4 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %5 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %6 = getelementptr inbounds i32, ptr addrspace(1) %4, i64 %5
  %7 = load i32, ptr addrspace(1) %6, align 4, !tbaa !13
  store i32 %7, ptr %3, align 4, !tbaa !13
  %8 = load i32, ptr %3, align 4, !tbaa !13
  %9 = and i32 %8, 1
  %10 = icmp ne i32 %9, 0
  br i1 %10, label %11, label %17

11:                                               ; preds = %1
  %12 = load i32, ptr %3, align 4, !tbaa !13
  %13 = call spir_func i32 @_Z32sub_group_non_uniform_reduce_addi(i32 noundef %12) #6
  %14 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %16 = getelementptr inbounds i32, ptr addrspace(1) %14, i64 %15
  store i32 %13, ptr addrspace(1) %16, align 4, !tbaa !13
  br label %17

17:                                               ; preds = %11, %1
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z32sub_group_non_uniform_reduce_addi(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
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
!2 = !{i32 3, i32 0}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"o"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
