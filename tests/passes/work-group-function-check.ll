; work-group-function, checking mode (docs/check.md): a kernel built with
; MOSAIC_CHECK is still widened whole (compiler/vectorize/wfv_check.c), each
; __mosaic_check_access of K.body becoming one __mosaic_check_row for the
; row's lanes: lane 0's local id, the lanes (64 here), the running lanes (ptr
; null: all; the tail's: an array), then one address and the bytes between
; lanes (uniform: 0, consecutive: 4) or the lanes' addresses in an array.
; An access the device may skip (bit 48 or 49 of `how`) is first tested
; against the launch's window for it, ctx->check_windows (at byte 224), 16
; bytes per window, 3 per argument: a[n] a read of argument 0 (window 0), c[i] =
; an access at its own element of argument 1 (window 4, at byte 64).  The
; gather a[(i * 7) % n] is tested from its least lane's address to its
; greatest (vector.reduce.umin and umax).
;   kernel void gather(global const float *a, global float *c, int n)
;   { size_t i = get_global_id(0); c[i] = a[(i * 7) % n] + a[n]; }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=work-group-function %s | FileCheck %s
; RUN: env MOSAIC_CHECK= mosaic-opt --stop-after=work-group-function %s | FileCheck %s --check-prefix=OFF
; CHECK-LABEL: define internal void @gather.wi.vec(
; CHECK: %check.lanes = alloca [64 x ptr], align 8
; CHECK: store <64 x ptr> %{{.*}}, ptr %check.lanes, align 8
; CHECK: call i64 @llvm.vector.reduce.umin.v64i64(
; CHECK: call i64 @llvm.vector.reduce.umax.v64i64(
; CHECK: %check.windows = load ptr, ptr %{{.*}}, align 8, !invariant.load
; CHECK: br i1 %{{.*}}, label %check.call, label %check.window
; CHECK: check.window:
; CHECK: getelementptr i8, ptr %check.windows, i64 0
; CHECK: br i1 %check.inside, label %check.done, label %check.call
; CHECK: check.call:
; CHECK-NEXT: call void @__mosaic_check_row(ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 64, ptr null, ptr null, i64 0, ptr %check.lanes, ptr null, i64 4, i64 281474976710657, ptr @__mosaic_check_site)
; CHECK: %check.windows{{[0-9]+}} = load ptr, ptr %{{.*}}, align 8, !invariant.load
; CHECK: call void @__mosaic_check_row({{.*}}, i64 64, ptr null, ptr %{{.*}}, i64 0, ptr null, ptr null, i64 4, i64 281474976710657
; CHECK: getelementptr i8, ptr %check.windows{{[0-9]*}}, i64 64
; CHECK: call void @__mosaic_check_row({{.*}}, i64 64, ptr null, ptr %{{.*}}, i64 4, ptr null, ptr null, i64 4, i64 562949953486850
; CHECK-LABEL: define internal void @gather.wi.tail(
; CHECK: call void @__mosaic_check_row({{.*}}, i64 8, ptr %check.lanes{{[0-9]*}}, ptr null, i64 0, ptr %check.lanes{{[0-9]*}},
; OFF-NOT: __mosaic_check
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @gather(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store i32 %2, ptr %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #3
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %8, ptr %7, align 8, !tbaa !15
  %9 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %10 = load i64, ptr %7, align 8, !tbaa !15
  %11 = mul i64 %10, 7
  %12 = load i32, ptr %6, align 4, !tbaa !13
  %13 = sext i32 %12 to i64
  %14 = urem i64 %11, %13
  %15 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %14
  %16 = load float, ptr addrspace(1) %15, align 4, !tbaa !17
  %17 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %18 = load i32, ptr %6, align 4, !tbaa !13
  %19 = sext i32 %18 to i64
  %20 = getelementptr inbounds float, ptr addrspace(1) %17, i64 %19
  %21 = load float, ptr addrspace(1) %20, align 4, !tbaa !17
  %22 = fadd float %16, %21
  %23 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %24 = load i64, ptr %7, align 8, !tbaa !15
  %25 = getelementptr inbounds float, ptr addrspace(1) %23, i64 %24
  store float %22, ptr addrspace(1) %25, align 4, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #3
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
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"int"}
!7 = !{!"const", !"", !""}
!8 = !{!"a", !"c", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !11, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"float", !11, i64 0}
