; sub-group-first: once K.wg is built, what K.body still asks of
; __mosaic_get_sub_group_first() (get_sub_group_id and
; get_sub_group_local_id, in the builtin library) becomes the first
; work-item of its sub-group: the linear local id rounded down to the
; sub-group's size.
;   kernel void k(global uint *o) { o[get_global_id(0)] = get_sub_group_id() * 100 + get_sub_group_local_id(); }
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --options=-cl-std=CL3.0 --stop-after=sub-group-first --print-before %s | FileCheck %s
; CHECK-LABEL: define internal void @k.body(
; CHECK: call i64 @__mosaic_get_sub_group_first()
; CHECK-LABEL: ;; after sub-group-first
; CHECK-LABEL: define internal void @k.body(
; CHECK-NOT: call i64 @__mosaic_get_sub_group_first()
; CHECK: [[LINEAR:%[0-9]+]] = add i64 %{{[0-9]+}}, %lx
; CHECK-NEXT: %sg.first = and i64 [[LINEAR]], -{{[0-9]+}}
; CHECK-NOT: call i64 @__mosaic_get_sub_group_first()
; CHECK: ret void

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  %3 = call spir_func i32 @_Z16get_sub_group_idv() #3
  %4 = mul i32 %3, 100
  %5 = call spir_func i32 @_Z22get_sub_group_local_idv() #3
  %6 = add i32 %4, %5
  %7 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %9 = getelementptr inbounds i32, ptr addrspace(1) %7, i64 %8
  store i32 %6, ptr addrspace(1) %9, align 4, !tbaa !13
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z16get_sub_group_idv() #1

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z22get_sub_group_local_idv() #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind }
attributes #4 = { convergent nounwind willreturn memory(none) }

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
!6 = !{!"uint*"}
!7 = !{!""}
!8 = !{!"o"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
