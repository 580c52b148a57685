; active-slot-folds: a non-uniform reduction in a branch of some work-items
; runs in the masked copy of its active set (and the fallback, one
; sub-group at a time), where the vectoriser made each work-item's fold of
; the sub-group's 8 slots one chain of vectors whose lanes are all alike:
; per slot a load splatted, a select on one bit of the active mask (a
; branch on x86) and the operation.  It becomes one load of the 8 slots, one
; select on the mask as a vector condition and one reduction: the float sum
; the ordered one (no fast-math flags, from -0, so the same additions in
; sub-group local id order), the integer maximum an unordered one.  A scan,
; whose selects differ per lane, keeps its chain.
;   __attribute__((overloadable)) int sub_group_elect(void);
;   __attribute__((overloadable)) float sub_group_non_uniform_reduce_add(float);
;   __attribute__((overloadable)) uint sub_group_non_uniform_reduce_max(uint);
;   __attribute__((overloadable)) float sub_group_non_uniform_scan_inclusive_add(float);
;   kernel void half_sum(global const float *x, global float *out)
;   { float v = x[get_global_id(0)];
;     if (get_global_id(0) & 1) {
;       float s = sub_group_non_uniform_reduce_add(v);
;       if (sub_group_elect())
;         out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
;     } }
;   kernel void half_max(global const uint *x, global uint *out)
;   { uint v = x[get_global_id(0)];
;     if (get_global_id(0) & 1)
;       out[get_global_id(0)] = sub_group_non_uniform_reduce_max(v); }
;   kernel void half_scan(global const float *x, global float *out)
;   { float v = x[get_global_id(0)];
;     if (get_global_id(0) & 1)
;       out[get_global_id(0)] = sub_group_non_uniform_scan_inclusive_add(v); }
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --options=-cl-std=CL3.0 --stop-after=active-slot-folds --print-before %s | FileCheck %s
; Before: the masked copy's chain of selects on the mask's bits and fadds
; (half_sum's is chained with sub_group_elect's, region_active_sets.c).
; CHECK-LABEL: define void @half_sum.wg(
; CHECK: c1.sg:
; CHECK: %one.address{{[0-9]+}} = load float, ptr addrspace(4)
; CHECK: select i1 %{{[0-9]+}}, <8 x float> <float -0.000000e+00,
; CHECK: fadd <8 x float>
; CHECK-LABEL: ;; after active-slot-folds
; The fallback (rows of 8 work-items here): the mask is an integer, tested bit by bit.
; CHECK-LABEL: define void @half_sum.wg(
; CHECK: %slots = load <8 x float>, ptr addrspace(4) %{{[0-9]+}}, align 4
; CHECK: %active.splat = shufflevector <8 x i32>
; CHECK-NEXT: [[BITS:%[0-9]+]] = and <8 x i32> %active.splat, <i32 1, i32 2, i32 4, i32 8, i32 16, i32 32, i32 64, i32 128>
; CHECK-NEXT: %active.lanes.not = icmp eq <8 x i32> [[BITS]], zeroinitializer
; CHECK-NEXT: %slots.active = select <8 x i1> %active.lanes.not, <8 x float> <float -0.000000e+00,
; CHECK-NEXT: %slots.fold = call float @llvm.vector.reduce.fadd.v8f32(float -0.000000e+00, <8 x float> %slots.active)
; CHECK-NEXT: insertelement <8 x float> poison, float %slots.fold
; The chained masked copy: the mask is the sub-group's states compared, a
; vector already, one load of them (early CSE: the active mask's and the
; guard's were two), and the sum kept for sub_group_elect's region, which
; reads it back in the same pass, is stored whole (a masked store does not
; forward to that load).
; CHECK: c1.sg:
; CHECK: [[STATES:%wide.load[0-9]+]] = load <8 x i32>, ptr [[STATES_AT:%[0-9]+]]
; CHECK-NEXT: [[ACTIVE:%[0-9]+]] = icmp eq <8 x i32> [[STATES]], <i32 1,
; CHECK: any.lane{{[0-9]+}}:
; CHECK-NOT: fadd
; CHECK-NOT: load <8 x i32>
; CHECK: %slots{{[0-9]+}} = load <8 x float>
; CHECK-NEXT: %slots.active{{[0-9]+}} = select <8 x i1> [[ACTIVE]], <8 x float> %slots{{[0-9]+}}, <8 x float> <float -0.000000e+00,
; CHECK-NEXT: %slots.fold{{[0-9]+}} = call float @llvm.vector.reduce.fadd.v8f32(float -0.000000e+00,
; CHECK-NOT: fadd
; CHECK-NOT: @llvm.masked.store
; CHECK: %kept = load <8 x i32>
; CHECK-NEXT: %kept.blend = select <8 x i1> [[ACTIVE]], <8 x i32> %{{[0-9]+}}, <8 x i32> %kept
; CHECK-NEXT: store <8 x i32> %kept.blend
; CHECK: any.lane.done{{[0-9]+}}:
; CHECK-NEXT: [[NEXT:%[0-9]+]] = select <8 x i1> [[ACTIVE]], <8 x i32> <i32 2,
; CHECK-NEXT: store <8 x i32> [[NEXT]], ptr [[STATES_AT]]
; CHECK-NEXT: icmp eq <8 x i32> [[NEXT]], <i32 2,
; CHECK-LABEL: define void @half_max.wg(
; CHECK: c1.sg:
; CHECK: %slots = load <8 x i32>
; CHECK-NEXT: %slots.active = select <8 x i1> %{{[0-9]+}}, <8 x i32> %slots, <8 x i32> zeroinitializer
; CHECK-NEXT: %slots.fold = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %slots.active)
; CHECK-NOT: @llvm.umax.v8i32
; CHECK: call void @llvm.masked.store.v8i32
; CHECK-LABEL: define void @half_scan.wg(
; CHECK-NOT: %slots
; CHECK: fadd <8 x float>
; CHECK-NOT: %slots
; CHECK-LABEL: declare

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @half_sum(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
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
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %12 = and i64 %11, 1
  %13 = icmp ne i64 %12, 0
  br i1 %13, label %14, label %31

14:                                               ; preds = %2
  call void @llvm.lifetime.start.p0(i64 4, ptr %6) #4
  %15 = load float, ptr %5, align 4, !tbaa !13
  %16 = call spir_func float @_Z32sub_group_non_uniform_reduce_addf(float noundef %15) #6
  store float %16, ptr %6, align 4, !tbaa !13
  %17 = call spir_func i32 @_Z15sub_group_electv() #6
  %18 = icmp ne i32 %17, 0
  br i1 %18, label %19, label %30

19:                                               ; preds = %14
  %20 = load float, ptr %6, align 4, !tbaa !13
  %21 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %22 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #5
  %23 = call spir_func i32 @_Z18get_num_sub_groupsv() #6
  %24 = zext i32 %23 to i64
  %25 = mul i64 %22, %24
  %26 = call spir_func i32 @_Z16get_sub_group_idv() #6
  %27 = zext i32 %26 to i64
  %28 = add i64 %25, %27
  %29 = getelementptr inbounds float, ptr addrspace(1) %21, i64 %28
  store float %20, ptr addrspace(1) %29, align 4, !tbaa !13
  br label %30

30:                                               ; preds = %19, %14
  call void @llvm.lifetime.end.p0(i64 4, ptr %6) #4
  br label %31

31:                                               ; preds = %30, %2
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

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @half_max(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !15 !kernel_arg_base_type !15 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %6 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %8 = getelementptr inbounds i32, ptr addrspace(1) %6, i64 %7
  %9 = load i32, ptr addrspace(1) %8, align 4, !tbaa !16
  store i32 %9, ptr %5, align 4, !tbaa !16
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %11 = and i64 %10, 1
  %12 = icmp ne i64 %11, 0
  br i1 %12, label %13, label %19

13:                                               ; preds = %2
  %14 = load i32, ptr %5, align 4, !tbaa !16
  %15 = call spir_func i32 @_Z32sub_group_non_uniform_reduce_maxj(i32 noundef %14) #6
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %18 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %17
  store i32 %15, ptr addrspace(1) %18, align 4, !tbaa !16
  br label %19

19:                                               ; preds = %13, %2
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z32sub_group_non_uniform_reduce_maxj(i32 noundef) #3

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @half_scan(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca float, align 4
  store ptr addrspace(1) %0, ptr %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %5) #4
  %6 = load ptr addrspace(1), ptr %3, align 8, !tbaa !9
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %8 = getelementptr inbounds float, ptr addrspace(1) %6, i64 %7
  %9 = load float, ptr addrspace(1) %8, align 4, !tbaa !13
  store float %9, ptr %5, align 4, !tbaa !13
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %11 = and i64 %10, 1
  %12 = icmp ne i64 %11, 0
  br i1 %12, label %13, label %19

13:                                               ; preds = %2
  %14 = load float, ptr %5, align 4, !tbaa !13
  %15 = call spir_func float @_Z40sub_group_non_uniform_scan_inclusive_addf(float noundef %14) #6
  %16 = load ptr addrspace(1), ptr %4, align 8, !tbaa !9
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  %18 = getelementptr inbounds float, ptr addrspace(1) %16, i64 %17
  store float %15, ptr addrspace(1) %18, align 4, !tbaa !13
  br label %19

19:                                               ; preds = %13, %2
  call void @llvm.lifetime.end.p0(i64 4, ptr %5) #4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func float @_Z40sub_group_non_uniform_scan_inclusive_addf(float noundef) #3

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
!15 = !{!"uint*", !"uint*"}
!16 = !{!17, !17, i64 0}
!17 = !{!"int", !11, i64 0}
