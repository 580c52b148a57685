; check-row-versioning: an access behind a guard `if (l < s)` (a value
; growing with x by 1 against one the same for the row) runs only for the
; row's first x, up to the guard's last: its high corner is there, not at
; the row's end (docs/check.md, "Rows inside their windows").  The tree
; reduction's loop over s reads t[l + s] only where l < s, all inside t, so
; its rows get a copy without calls, tested with the guard's last x; the
; first region's t[l] = at the own slot (__local) runs once an iteration at
; an address moving with x: it is checked for the row by one call of
; __mosaic_check_row where its window fails.
;   kernel void tree(global const float *x, global float *partial, local float *t) {
;     size_t l = get_local_id(0);
;     t[l] = x[get_global_id(0)];
;     barrier(CLK_LOCAL_MEM_FENCE);
;     for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
;       if (l < s)
;         t[l] += t[l + s];
;       barrier(CLK_LOCAL_MEM_FENCE);
;     }
;     if (l == 0)
;       partial[get_group_id(0)] = t[0];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --one-size=tree:64,1,1 --stop-after=check-row-versioning %s | FileCheck %s
; CHECK-LABEL: define void @tree.wg(
; CHECK: %row.lanes = select i1 %{{[0-9]+}}, i64 %row.count, i64 0
; CHECK: call void @__mosaic_check_row(ptr %ctx, i64 0, i64 %ly, i64 %lz, i64 %row.lanes, ptr null, ptr %{{[0-9]+}}, i64 %row.stride, ptr null, ptr null, i64 4, i64 {{[0-9]+}}, ptr @__mosaic_check_site.11)
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %x.version{{[0-9]+}}, label %r0.x
; the tree's rows: t[l + s] up to the guard's last x
; CHECK: r3.y:
; CHECK: %[[LAST:row.guarded.last[0-9]*]] = select i1 %{{[0-9]+}}, i64 %row.last{{[0-9]*}}, i64 %{{[0-9]+}}
; CHECK: add i64 %{{.*}}, %[[LAST]]
; CHECK: br i1 %{{[0-9]+}}, label %x.version{{[0-9]+}}, label %r3.x
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @tree(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %5, align 8, !tbaa !9
  store ptr addrspace(3) %2, ptr %6, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %7) #4
  %9 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  store i64 %9, ptr %7, align 8, !tbaa !13
  %10 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %12 = getelementptr inbounds float, ptr addrspace(1) %10, i64 %11
  %13 = load float, ptr addrspace(1) %12, align 4, !tbaa !15
  %14 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %15 = load i64, ptr %7, align 8, !tbaa !13
  %16 = getelementptr inbounds float, ptr addrspace(3) %14, i64 %15
  store float %13, ptr addrspace(3) %16, align 4, !tbaa !15
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  call void @llvm.lifetime.start.p0(i64 8, ptr %8) #4
  %17 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #5
  %18 = udiv i64 %17, 2
  store i64 %18, ptr %8, align 8, !tbaa !13
  br label %19

19:                                               ; preds = %40, %3
  %20 = load i64, ptr %8, align 8, !tbaa !13
  %21 = icmp ugt i64 %20, 0
  br i1 %21, label %23, label %22

22:                                               ; preds = %19
  call void @llvm.lifetime.end.p0(i64 8, ptr %8) #4
  br label %43

23:                                               ; preds = %19
  %24 = load i64, ptr %7, align 8, !tbaa !13
  %25 = load i64, ptr %8, align 8, !tbaa !13
  %26 = icmp ult i64 %24, %25
  br i1 %26, label %27, label %39

27:                                               ; preds = %23
  %28 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %29 = load i64, ptr %7, align 8, !tbaa !13
  %30 = load i64, ptr %8, align 8, !tbaa !13
  %31 = add i64 %29, %30
  %32 = getelementptr inbounds float, ptr addrspace(3) %28, i64 %31
  %33 = load float, ptr addrspace(3) %32, align 4, !tbaa !15
  %34 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %35 = load i64, ptr %7, align 8, !tbaa !13
  %36 = getelementptr inbounds float, ptr addrspace(3) %34, i64 %35
  %37 = load float, ptr addrspace(3) %36, align 4, !tbaa !15
  %38 = fadd float %37, %33
  store float %38, ptr addrspace(3) %36, align 4, !tbaa !15
  br label %39

39:                                               ; preds = %27, %23
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  br label %40

40:                                               ; preds = %39
  %41 = load i64, ptr %8, align 8, !tbaa !13
  %42 = udiv i64 %41, 2
  store i64 %42, ptr %8, align 8, !tbaa !13
  br label %19

43:                                               ; preds = %22
  %44 = load i64, ptr %7, align 8, !tbaa !13
  %45 = icmp eq i64 %44, 0
  br i1 %45, label %46, label %53

46:                                               ; preds = %43
  %47 = load ptr addrspace(3), ptr %6, align 8, !tbaa !9
  %48 = getelementptr inbounds float, ptr addrspace(3) %47, i64 0
  %49 = load float, ptr addrspace(3) %48, align 4, !tbaa !15
  %50 = load ptr addrspace(1), ptr %5, align 8, !tbaa !9
  %51 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %52 = getelementptr inbounds float, ptr addrspace(1) %50, i64 %51
  store float %49, ptr addrspace(1) %52, align 4, !tbaa !15
  br label %53

53:                                               ; preds = %46, %43
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
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

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
!8 = !{!"x", !"partial", !"t"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
