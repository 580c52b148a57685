; locate-work-groups: with MOSAIC_DEBUG=build, a copy of the module whose K.wg
; instructions have a location naming the kernel (a DISubprogram "k.wg") goes
; through the optimiser, so that the vectoriser's remarks can say which
; kernel they are about; the module itself is unchanged (the code built and
; cached is the same with MOSAIC_DEBUG or without).
;   kernel void k(global int *a) { int i = get_global_id(0); printf("%d\n", a[i]); }
; RUN: env MOSAIC_DEBUG=build mosaic-opt --stop-after=locate-work-groups --print-before %s 2>%t.err \
; RUN:   | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: env -u MOSAIC_DEBUG mosaic-opt --stop-after=locate-work-groups %s 2>%t.quiet | FileCheck %s --check-prefix=QUIET
; RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.quiet
; CHECK-NOT: !dbg
; CHECK-LABEL: ;; after locate-work-groups
; CHECK: define void @k.wg(
; CHECK-NOT: !dbg
; CHECK-NOT: DISubprogram
; REMARK: mosaic: kernel k: a loop of its work-group function: loop not vectorized: call instruction cannot be vectorized
; QUIET-NOT: !dbg
; QUIET-NOT: loop not vectorized

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [4 x i8] c"%d\0A\00", align 1
@printf.desc = private unnamed_addr addrspace(2) constant [1 x i32] [i32 66561], align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  %printf.args = alloca [8 x i8], align 16
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #3
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %5 = trunc i64 %4 to i32
  store i32 %5, ptr %3, align 4, !tbaa !13
  %6 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %7 = load i32, ptr %3, align 4, !tbaa !13
  %8 = sext i32 %7 to i64
  %9 = getelementptr inbounds i32, ptr addrspace(1) %6, i64 %8
  %10 = load i32, ptr addrspace(1) %9, align 4, !tbaa !13
  %11 = getelementptr inbounds i8, ptr %printf.args, i64 0
  store i32 %10, ptr %11, align 8
  %12 = call spir_func i32 @__mosaic_printf(ptr addrspace(2) @.str, ptr %printf.args, ptr addrspace(2) @printf.desc, i32 1)
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

declare spir_func i32 @__mosaic_printf(ptr addrspace(2), ptr, ptr addrspace(2), i32)

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
