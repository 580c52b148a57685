; work-group-function, active sets: a non-uniform reduction whose branch
; every work-item may take, then sub_group_elect.
;  - the first region's uniform copy has two next states (the reduction's
;    barrier, the return): its mask of them comes from the array of states
;    in a loop of its own (u0.states), not gathered across its loops;
;    (at most 32 states: the bits are OR-ed as 32-bit words);
;  - the masked copies m1 and m2 each leave for one state only (elect's
;    barrier, the return): their masks of states come from the mask before
;    them (kept in states.mask.var), without a loop over the states;
;  - m1's is elect's barrier, and no other active set can go first: m1 is
;    the chained copy c1, which runs elect's region (c1.2) for each
;    sub-group right after the fold's, its x loop entered from c1's
;    (c1.then) and left for c1's next sub-group; after it neither barrier
;    is waited at (-7), all are at the return (1);
;  - the reduction's last barrier and elect's follow each other with
;    nothing between: the first goes (two non-uniform barriers, so masked
;    copies m1 and m2 only);
;  - the slots' address after the barrier is computed again from the
;    sub-group's first work-item and the scratch (a field of the context
;    the branch read, hoisted into K.wg's entry), not loaded per work-item;
;  - the fold is computed in the region after the first barrier (the
;    builtins pass it through __mosaic_keep32 before their last barrier) and
;    its result is the one value kept for each work-item, 4 bytes.
;   __attribute__((overloadable)) int sub_group_elect(void); __attribute__((overloadable)) float sub_group_non_uniform_reduce_add(float);
;   kernel void k(global const float *x, global float *out)
;   { float v = x[get_global_id(0)];
;     if (v > -2.0f) {
;       float s = sub_group_non_uniform_reduce_add(v);
;       if (sub_group_elect())
;         out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
;     } }
; RUN: mosaic-opt --options=-cl-std=CL3.0 --stop-after=work-group-function %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: m1:
; CHECK-NEXT: br label %c1.z
; CHECK: m2:
; CHECK-NOT: {{^}}m3:
; CHECK: u0.done:
; CHECK-NEXT: br label %u0.states
; CHECK: u0.states:
; CHECK: %states.mask = or i32
; CHECK: u0.states.done:
; CHECK-NEXT: %states.mask.all = zext i32 %states.mask to i64
; CHECK-NEXT: store i64 %states.mask.all, ptr %states.mask.var
; CHECK-LABEL: u1.b2:
; CHECK-NOT: load ptr
; CHECK: shl i64 %sg.lo{{[0-9]+}}, 3
; CHECK: load float
; CHECK: fadd float
; CHECK: store i32
; CHECK-NEXT: br label %u1.latch
; CHECK-LABEL: u1.latch:
; CHECK-LABEL: {{^}}c1.then:
; CHECK: %active{{[0-9]*}} = zext i8
; CHECK-NEXT: br label %c1.2.x
; CHECK-LABEL: {{^}}c1.latch:
; CHECK: br i1 %{{[0-9]+}}, label %c1.x, label %c1.then
; CHECK-LABEL: {{^}}c1.done:
; CHECK-NEXT: %states.before = load i64, ptr %states.mask.var
; CHECK-NEXT: [[KEPT1:%[0-9]+]] = and i64 %states.before, -7
; CHECK-NEXT: [[MASK1:%states.mask[0-9]+]] = or i64 [[KEPT1]], 1
; CHECK-NEXT: store i64 [[MASK1]], ptr %states.mask.var
; CHECK-LABEL: {{^}}c1.2.latch:
; CHECK: br i1 %{{[0-9]+}}, label %c1.2.x, label %c1.sg.latch
; CHECK-LABEL: {{^}}m2.done:
; CHECK-NEXT: %states.before{{[0-9]+}} = load i64, ptr %states.mask.var
; CHECK-NEXT: [[KEPT2:%[0-9]+]] = and i64 %states.before{{[0-9]+}}, -5
; CHECK-NEXT: [[MASK2:%states.mask[0-9]+]] = or i64 [[KEPT2]], 1

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca float, align 4
  %6 = alloca float, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %7 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %9 = getelementptr inbounds float, ptr addrspace(1) %7, i64 %8
  %10 = load float, ptr addrspace(1) %9, align 4, !tbaa !13
  store float %10, ptr %5, align 4, !tbaa !13
  %11 = load float, ptr %5, align 4, !tbaa !13
  %12 = fcmp ogt float %11, -2.000000e+00
  br i1 %12, label %13, label %30

13:                                               ; preds = %2
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %14 = load float, ptr %5, align 4, !tbaa !13
  %15 = call spir_func float @_Z32sub_group_non_uniform_reduce_addf(float noundef %14) #6
  store float %15, ptr %6, align 4, !tbaa !13
  %16 = call spir_func i32 @_Z15sub_group_electv() #6
  %17 = icmp ne i32 %16, 0
  br i1 %17, label %18, label %29

18:                                               ; preds = %13
  %19 = load float, ptr %6, align 4, !tbaa !13
  %20 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %21 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %22 = call spir_func i32 @_Z18get_num_sub_groupsv() #6
  %23 = zext i32 %22 to i64
  %24 = mul i64 %21, %23
  %25 = call spir_func i32 @_Z16get_sub_group_idv() #6
  %26 = zext i32 %25 to i64
  %27 = add i64 %24, %26
  %28 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %27
  store float %19, ptr addrspace(1) %28, align 4, !tbaa !13
  br label %29

29:                                               ; preds = %18, %13
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %30

30:                                               ; preds = %29, %2
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func float @_Z32sub_group_non_uniform_reduce_addf(float noundef) #3

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z15sub_group_electv() #3

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z18get_num_sub_groupsv() #3

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z16get_sub_group_idv() #3

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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"float*", !"float*"}
!7 = !{!"const", !""}
!8 = !{!"x", !"out"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !11, i64 0}
