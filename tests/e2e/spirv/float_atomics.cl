/* cl_ext_float_atomics through SPIR-V: llvm-spirv-15 (with
 * SPV_EXT_shader_atomic_float_add and SPV_EXT_shader_atomic_float_min_max)
 * writes these as OpAtomicFAddEXT, OpAtomicFMinEXT and OpAtomicFMaxEXT
 * (test_float_atomics.c, case spirv). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void float_atomics(global atomic_float *total, global atomic_double *dtotal, global atomic_float *lowest,
                          global atomic_float *highest, global const float *vals, global float *group_sums)
{
    local atomic_float lsum;
    size_t i = get_global_id(0);
    if (get_local_id(0) == 0)
        atomic_store_explicit(&lsum, 0.0f, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = vals[i];
    atomic_fetch_add(total, v);
    atomic_fetch_sub_explicit(dtotal, (double)v, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_min(lowest, v);
    atomic_fetch_max_explicit(highest, v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&lsum, v, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        group_sums[get_group_id(0)] = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
}
