; non-uniform-sites: once the code is optimised, each call of the
; non-uniform sub-group barrier (__mosaic_sub_group_active, site 0 in the
; builtin library) gets its place in its function's order, 1, 2, ...: the
; fibers release the work-items waiting at the lowest site first, whatever
; order the machine code's blocks end up in.
;   __attribute__((overloadable)) int sub_group_elect(void);
;   kernel void k(global int *o) { int e = 0; if (get_sub_group_local_id() & 1) e = sub_group_elect(); o[get_global_id(0)] = e + 2 * sub_group_elect(); }
; RUN: mosaic-opt --options=-cl-std=CL3.0 --stop-after=non-uniform-sites --print-before %s | FileCheck %s
; CHECK-LABEL: define void @k.wi(
; CHECK: call i32 @__mosaic_sub_group_active(ptr addrspace(4) noundef %{{.*}}, i32 noundef 0)
; CHECK: call i32 @__mosaic_sub_group_active(ptr addrspace(4) noundef %{{.*}}, i32 noundef 0)
; CHECK-LABEL: ;; after non-uniform-sites
; CHECK-LABEL: define void @k.wi(
; CHECK: call i32 @__mosaic_sub_group_active(ptr addrspace(4) noundef %{{.*}}, i32 noundef 1)
; CHECK: call i32 @__mosaic_sub_group_active(ptr addrspace(4) noundef %{{.*}}, i32 noundef 2)
; CHECK-LABEL: define void @k.wg(

; ModuleID = 'program'
source_filename = "-"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 4, ptr %3) #4
  store i32 0, ptr %3, align 4, !tbaa !13
  %4 = call spir_func i32 @_Z22get_sub_group_local_idv() #5
  %5 = and i32 %4, 1
  %6 = icmp ne i32 %5, 0
  br i1 %6, label %7, label %9

7:                                                ; preds = %1
  %8 = call spir_func i32 @_Z15sub_group_electv() #5
  store i32 %8, ptr %3, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %7, %1
  %10 = load i32, ptr %3, align 4, !tbaa !13
  %11 = call spir_func i32 @_Z15sub_group_electv() #5
  %12 = mul nsw i32 2, %11
  %13 = add nsw i32 %10, %12
  %14 = load ptr addrspace(1), ptr %2, align 8, !tbaa !9
  %15 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #6
  %16 = getelementptr inbounds i32, ptr addrspace(1) %14, i64 %15
  store i32 %13, ptr addrspace(1) %16, align 4, !tbaa !13
  call void @llvm.lifetime.end.p0(i64 4, ptr %3) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z22get_sub_group_local_idv() #2

; Function Attrs: convergent nounwind
declare dso_local spir_func i32 @_Z15sub_group_electv() #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind }
attributes #6 = { convergent nounwind willreturn memory(none) }

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
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"o"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
