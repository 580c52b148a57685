; inline: what a kernel calls is inlined into it; a function left a call
; (noinline) gets the work-item context as parameters (offset.ctx), so it no
; longer asks the runtime for it.
;   int twice(int x) { return 2 * x; }
;   __attribute__((noinline)) int offset(global int *o) { return o[get_global_id(0)] + (int)get_local_id(0); }
;   kernel void k(global int *o) { size_t i = get_global_id(0); o[i] = twice(o[i]) + offset(o); }
; RUN: mosaic-opt --stop-after=inline --print-before %s | FileCheck %s
; CHECK-LABEL: define dso_local void @k(
; CHECK: call i32 @twice(
; CHECK: call i32 @offset(
; CHECK-LABEL: ;; after inline
; CHECK-LABEL: define dso_local void @k(
; CHECK-NOT: call i32 @twice(
; CHECK: shl nsw i32 %{{[0-9]+}}, 1
; CHECK: call i32 @offset.ctx(ptr addrspace(1) noundef %0, ptr %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK: define {{.*}}i32 @offset.ctx(ptr addrspace(1) {{.*}}, ptr {{.*}}, i64 {{.*}}, i64 {{.*}}, i64 {{.*}})

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_func i32 @twice(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4, !tbaa !4
  %3 = load i32, ptr %2, align 4, !tbaa !4
  %4 = mul nsw i32 2, %3
  ret i32 %4
}

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func i32 @offset(ptr addrspace(1) noundef %0) #1 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !8
  %3 = load ptr addrspace(1), ptr %2, align 8, !tbaa !8
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %5 = getelementptr inbounds i32, ptr addrspace(1) %3, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4, !tbaa !4
  %7 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #5
  %8 = trunc i64 %7 to i32
  %9 = add nsw i32 %6, %8
  ret i32 %9
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #2

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #3 !kernel_arg_addr_space !10 !kernel_arg_access_qual !11 !kernel_arg_type !12 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !kernel_arg_name !14 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !8
  call void @llvm.lifetime.start.p0(i64 8, ptr %3) #6
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  store i64 %4, ptr %3, align 8, !tbaa !15
  %5 = load ptr addrspace(1), ptr %2, align 8, !tbaa !8
  %6 = load i64, ptr %3, align 8, !tbaa !15
  %7 = getelementptr inbounds i32, ptr addrspace(1) %5, i64 %6
  %8 = load i32, ptr addrspace(1) %7, align 4, !tbaa !4
  %9 = call spir_func i32 @twice(i32 noundef %8) #7
  %10 = load ptr addrspace(1), ptr %2, align 8, !tbaa !8
  %11 = call spir_func i32 @offset(ptr addrspace(1) noundef %10) #7
  %12 = add nsw i32 %9, %11
  %13 = load ptr addrspace(1), ptr %2, align 8, !tbaa !8
  %14 = load i64, ptr %3, align 8, !tbaa !15
  %15 = getelementptr inbounds i32, ptr addrspace(1) %13, i64 %14
  store i32 %12, ptr addrspace(1) %15, align 4, !tbaa !4
  call void @llvm.lifetime.end.p0(i64 8, ptr %3) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #4

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { convergent nounwind willreturn memory(none) }
attributes #6 = { nounwind }
attributes #7 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{!9, !9, i64 0}
!9 = !{!"any pointer", !6, i64 0}
!10 = !{i32 1}
!11 = !{!"none"}
!12 = !{!"int*"}
!13 = !{!""}
!14 = !{!"o"}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !6, i64 0}
