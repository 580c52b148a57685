; check-windows: an access of a private array, which calls the checker for
; its bounds only (docs/check.md, "How it works"), is put behind the test
; of its bytes against the array's own (the site gives its size): the call
; is made only when they are not inside.  Where the index is a constant
; once loops are unrolled, the test folds away.
;   kernel void k(global int *a) {
;     int p[4] = {1, 2, 3, 4};
;     a[get_global_id(0)] = p[a[0] & 7];
;   }
; RUN: env MOSAIC_CHECK=all mosaic-opt --stop-after=check-windows %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: [[P:%[0-9]+]] = alloca [4 x i32]
; CHECK: [[AT:%[0-9]+]] = getelementptr inbounds [4 x i32], ptr [[P]], i64 0, i64 %{{[0-9]+}}
; CHECK: [[END:%[0-9]+]] = getelementptr i8, ptr [[AT]], i64 4
; CHECK-NEXT: [[HI:%[0-9]+]] = getelementptr i8, ptr [[P]], i64 16
; CHECK-NEXT: icmp ule ptr [[END]], [[HI]]
; CHECK-NEXT: icmp uge ptr [[AT]], [[P]]
; CHECK: br i1 %check.inside, label %check.done, label %check.call
; CHECK: check.call:
; the read of p: private memory (3 << 8), a variable or private array
; CHECK-NEXT: call void @__mosaic_check_access({{.*}}, ptr nonnull [[AT]], ptr nonnull [[P]], i64 4, i64 281474976580353, ptr
; CHECK-NEXT: br label %check.done
; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@__const.k.p = private unnamed_addr addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca [4 x i32], align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 16, ptr %3) #4
  call void @llvm.memcpy.p0.p2.i64(ptr align 4 %3, ptr addrspace(2) align 4 @__const.k.p, i64 16, i1 false)
  %4 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %5 = getelementptr inbounds i32, ptr addrspace(1) %4, i64 0
  %6 = load i32, ptr addrspace(1) %5, align 4, !tbaa !13
  %7 = and i32 %6, 7
  %8 = sext i32 %7 to i64
  %9 = getelementptr inbounds [4 x i32], ptr %3, i64 0, i64 %8
  %10 = load i32, ptr %9, align 4, !tbaa !13
  %11 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %13 = getelementptr inbounds i32, ptr addrspace(1) %11, i64 %12
  store i32 %10, ptr addrspace(1) %13, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 16, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p2.i64(ptr noalias nocapture writeonly, ptr addrspace(2) noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind willreturn memory(none) }

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
