; check-row-versioning: an index int lx + 4 reaches the x loops as
; instcombine writes sext(trunc(lx) + 4), ((lx << 32) + (4 << 32)) >> 32:
; the low bits of lx + 4 (mc_row_low_bits_of), which grow with x by 1 as
; long as they do not wrap between the row's corners.  So both regions'
; loops get a copy without their checker calls (before, the index was not
; affine in x, and no loop had one), and each copy is vectorised 16 lanes
; wide (a row of a 16x16 group, which the vectoriser's own width, 64 lanes
; of bytes, would leave all to its scalar remainder).
;   kernel void shifted(global int *a) {
;     local int t[260];
;     int lx = get_local_id(0);
;     t[lx + 4] = lx;
;     barrier(CLK_LOCAL_MEM_FENCE);
;     a[get_global_id(0)] = t[lx + 4];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-row-versioning %s | FileCheck %s
; CHECK-LABEL: define void @shifted.wg(
; the first region's copy: the store's address
; CHECK: x.version{{[0-9]*}}:
; CHECK: %[[A:[0-9]+]] = add i64 %{{[0-9]+}}, 17179869184
; CHECK-NEXT: ashr exact i64 %[[A]], 32
; CHECK: br i1 %{{[0-9]+}}, label %x.version{{[0-9]+}}, label %row.barriers{{[0-9]*}}, !llvm.loop
; the second region's loop in its four versions (unswitch-uniform's), then its copies
; CHECK: label %r1.x, label %r1.y.latch, !llvm.loop [[LOOP:![0-9]+]]
; CHECK-COUNT-3: label %r1.y.latch, !llvm.loop [[LOOP]]
; CHECK: br i1 %{{[0-9]+}}, label %x.version{{[0-9]+}}, label %r1.y.latch, !llvm.loop [[COPY:![0-9]+]]
; CHECK: [[W:![0-9]+]] = !{!"llvm.loop.vectorize.width", i32 16}
; CHECK: [[COPY]] = distinct !{[[COPY]], !{{[0-9]+}}, !{{[0-9]+}}, [[W]]}
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@shifted.t = internal addrspace(3) global [260 x i32] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @shifted(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  %4 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %5 = trunc i64 %4 to i32
  store i32 %5, ptr %3, align 4, !tbaa !13
  %6 = load i32, ptr %3, align 4, !tbaa !13
  %7 = load i32, ptr %3, align 4, !tbaa !13
  %8 = add nsw i32 %7, 4
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds [260 x i32], ptr addrspace(3) @shifted.t, i64 0, i64 %9
  store i32 %6, ptr addrspace(3) %10, align 4, !tbaa !13
  call spir_func void @_Z7barrierj(i32 noundef 1) #6
  %11 = load i32, ptr %3, align 4, !tbaa !13
  %12 = add nsw i32 %11, 4
  %13 = sext i32 %12 to i64
  %14 = getelementptr inbounds [260 x i32], ptr addrspace(3) @shifted.t, i64 0, i64 %13
  %15 = load i32, ptr addrspace(3) %14, align 4, !tbaa !13
  %16 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %18 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %17
  store i32 %15, ptr addrspace(1) %18, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

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
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"a"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
