; boscc, one address: in the masked copies of the active sets (AVX-512),
; each work-item reads its sub-group's slots at addresses the same for all
; of them, under the mask of the work-items the copy runs: gathers of a
; splat.  Under the branch on some lane active each is one scalar load;
; elect's store of the sum to one address, a scatter of a splat, is a
; store of its highest active lane's value, which was loaded (the sum kept
; for each work-item) under the same mask: that lane alone is loaded, under
; the branch, not the vector and an extraction from it.
;   __attribute__((overloadable)) int sub_group_elect(void); __attribute__((overloadable)) float sub_group_non_uniform_reduce_add(float);
;   kernel void k(global const float *x, global float *out)
;   { float v = x[get_global_id(0)];
;     if (get_global_id(0) & 1) {
;       float s = sub_group_non_uniform_reduce_add(v);
;       if (sub_group_elect())
;         out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
;     } }
; RUN: mosaic-opt --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd \
; RUN:   --options=-cl-std=CL3.0 --stop-after=boscc --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wg(
; CHECK: c1.sg:
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p4(<8 x ptr addrspace(4)> %broadcast.splat
; CHECK: m2.sg:
; CHECK: call <8 x i32> @llvm.masked.load.v8i32.p0(
; CHECK: call void @llvm.masked.scatter.v8i32.v8p1(<8 x i32> %{{.*}}, <8 x ptr addrspace(1)> %broadcast.splat
; CHECK-LABEL: ;; after boscc
; CHECK-LABEL: define void @k.wg(
; CHECK: c1.sg:
; CHECK: br i1 %any.lane{{[0-9]+}}, label %[[ANY:any.lane[0-9]+]], label
; CHECK: [[ANY]]:
; CHECK-NOT: @llvm.masked.gather
; CHECK: %one.address{{[0-9]*}} = load float, ptr addrspace(4)
; CHECK-NOT: @llvm.masked.gather
; CHECK: m2.sg:
; CHECK-NOT: @llvm.masked.{{scatter|load}}
; CHECK: br i1 %any.lane{{[0-9]+}}, label %[[ANY2:any.lane[0-9]+]], label
; CHECK: [[ANY2]]:
; CHECK-NOT: @llvm.masked.{{scatter|load}}
; CHECK: [[LEAD:%[0-9]+]] = call i8 @llvm.ctlz.i8(i8 %{{[0-9]+}}, i1 true)
; CHECK-NEXT: %last.lane{{[0-9]*}} = sub i8 7, [[LEAD]]
; CHECK-NEXT: %last.lane.ptr{{[0-9]*}} = getelementptr i32, ptr %{{[0-9]+}}, i8 %last.lane
; CHECK-NEXT: %last.lane.value{{[0-9]*}} = load i32, ptr %last.lane.ptr
; CHECK-NEXT: store i32 %last.lane.value{{[0-9]*}}, ptr addrspace(1)
; CHECK-NOT: @llvm.masked.{{scatter|load}}
; CHECK: br label %any.lane.done

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
