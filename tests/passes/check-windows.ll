; check-windows: with MOSAIC_CHECK, each call of __mosaic_check_access left
; in the code of a work-item (here a barrier kernel's, run a work-item at a
; time between barriers) whose access has a window (docs/check.md,
; "Windows") is put behind the test of its bytes against its window in
; ctx->check_windows (at byte 224), so that it is made only when they are
; not inside.  x[get_global_id(0)] is such a read (window 0, both bits of
; `how`), its window the launch's (its bounds loaded as invariant); so are
; the reads of the __local scratch after the barrier, where nothing writes
; it (window 9: 3 per argument, then 2 per __local object), and the write
; scratch[l] = at each work-item's own slot (window 10), whose windows may
; open at a barrier (loaded at each test).  partial[...] = has none.
;   kernel void sum(global const float *x, global float *partial, local float *scratch) {
;     size_t l = get_local_id(0);
;     scratch[l] = x[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     if (l == 0) partial[get_group_id(0)] = scratch[0] + scratch[1];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-windows %s | FileCheck %s
; RUN: env MOSAIC_CHECK= mosaic-opt --stop-after=check-windows %s | FileCheck %s --check-prefix=OFF
; CHECK-LABEL: define void @sum.wg(
; CHECK: %check.windows{{[0-9]*}} = load ptr, ptr %{{.*}}, align 8, !invariant.load
; CHECK-NEXT: icmp eq ptr %check.windows{{[0-9]*}}, null
; CHECK-NEXT: br i1 %{{.*}}, label %check.call{{[0-9]*}}, label %check.window{{[0-9]*}}
; scratch[1]: window 9, at byte 144 of the windows
; CHECK: getelementptr i8, ptr %{{[0-9a-z.]+}}, i64 144
; CHECK-NEXT: %window.lo{{[0-9]*}} = load ptr, ptr %{{[0-9]+}}, align 8{{$}}
; CHECK: br i1 %check.inside{{[0-9]*}}, label %check.done{{[0-9]*}}, label %check.call
; where its window is shut, the read tests its set window (window 9 + 32,
; at byte 656): inside it, it needs no call where its bytes' bits are set
; CHECK: getelementptr i8, ptr %check.windows{{[0-9]*}}, i64 656
; CHECK: br i1 %check.sets{{[0-9]*}}, label %check.bits{{[0-9]*}}, label %check.call
; partial[...] = : the call as it was
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 65538, ptr
; CHECK: check.bits{{[0-9]*}}:
; CHECK: %check.written{{[0-9]*}} = icmp eq i64
; CHECK-NEXT: br i1 %check.written{{[0-9]*}}, label %check.done{{[0-9]*}}, label %check.call
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 1164180503675404545, ptr
; CHECK-NEXT: br label %check.done
; scratch[l] = : window 10, at byte 160
; CHECK: getelementptr i8, ptr %{{[0-9a-z.]+}}, i64 160
; CHECK-NEXT: %window.lo{{[0-9]*}} = load ptr, ptr %{{[0-9]+}}, align 8{{$}}
; where its window is shut, the write tests its set window (window 10 + 32,
; at byte 672): inside it, and in one word of the group's written bits
; (ctx->check_local_written, at byte 232), it sets its 4 bits itself
; CHECK: getelementptr i8, ptr %check.windows{{[0-9]*}}, i64 672
; CHECK: %set.lo{{[0-9]*}} = load ptr
; CHECK: br i1 %check.sets{{[0-9]*}}, label %check.bits{{[0-9]*}}, label %check.call
; CHECK: check.bits{{[0-9]*}}:
; CHECK-NEXT: getelementptr i8, ptr %ctx, i64 232
; CHECK-NEXT: %written{{[0-9]*}} = load ptr
; CHECK: shl i64 15,
; CHECK: store i64
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 2318227908189094146, ptr
; x[...]: window 0
; CHECK: getelementptr i8, ptr %check.windows{{[0-9]*}}, i64 0
; CHECK-NEXT: %window.lo{{[0-9]*}} = load ptr, ptr %{{[0-9]+}}, align 8, !invariant.load
; CHECK: call void @__mosaic_check_access({{.*}}, i64 4, i64 844424930131969, ptr
; OFF-NOT: check.window
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @sum(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %8 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %8, ptr %7, align 8, !tbaa !13
  %9 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !15
  %13 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %14 = load i64, ptr %7, align 8, !tbaa !13
  %15 = getelementptr inbounds float, ptr addrspace(3) %13, i64 %14
  store float %12, ptr addrspace(3) %15, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %16 = load i64, ptr %7, align 8, !tbaa !13
  %17 = icmp eq i64 %16, 0
  br i1 %17, label %18, label %29

18:                                               ; preds = %3
  %19 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %20 = getelementptr inbounds float, ptr addrspace(3) %19, i64 0
  %21 = load float, ptr addrspace(3) %20, align 4, !tbaa !15
  %22 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %23 = getelementptr inbounds float, ptr addrspace(3) %22, i64 1
  %24 = load float, ptr addrspace(3) %23, align 4, !tbaa !15
  %25 = fadd float %21, %24
  %26 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %27 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %28 = getelementptr inbounds float, ptr addrspace(1) %26, i64 %27
  store float %25, ptr addrspace(1) %28, align 4, !tbaa !15
  br label %29

29:                                               ; preds = %18, %3
  call void @llvm.lifetime.end.p0(i64 8, ptr %7) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

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
!7 = !{!"const", !"", !""}
!8 = !{!"x", !"partial", !"scratch"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
