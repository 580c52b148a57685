/* Work-item functions, barriers and fences (OpenCL C 3.0 sections 6.15.1, 6.15.8, 6.15.12). */
#include "builtins.h"

#define CTX __mosaic_get_ctx()

/* Dimensions at or above work_dim are filled by the device with the values the
 * spec asks for (sizes 1, ids and offsets 0), so only d < 3 needs a check. */
OVLD uint get_work_dim(void) { return (uint)CTX->work_dim; }
OVLD size_t get_global_size(uint d) { return d < 3 ? CTX->global_size[d] : 1; }
OVLD size_t get_local_size(uint d) { return d < 3 ? CTX->local_size[d] : 1; }
OVLD size_t get_enqueued_local_size(uint d) { return d < 3 ? CTX->enqueued_local_size[d] : 1; }
OVLD size_t get_num_groups(uint d) { return d < 3 ? CTX->num_groups[d] : 1; }
OVLD size_t get_group_id(uint d) { return d < 3 ? CTX->group_id[d] : 0; }
OVLD size_t get_global_offset(uint d) { return d < 3 ? CTX->global_offset[d] : 0; }
OVLD size_t get_local_id(uint d) { return d < 3 ? __mosaic_get_local_id(d) : 0; }

OVLD size_t get_global_id(uint d)
{
    if (d >= 3)
        return 0;
    const __mosaic_wg_ctx *c = CTX;
    return c->group_id[d] * c->enqueued_local_size[d] + __mosaic_get_local_id(d) + c->global_offset[d];
}

OVLD size_t get_global_linear_id(void)
{
    const __mosaic_wg_ctx *c = CTX;
    size_t g0 = get_global_id(0) - c->global_offset[0];
    size_t g1 = get_global_id(1) - c->global_offset[1];
    size_t g2 = get_global_id(2) - c->global_offset[2];
    return (g2 * c->global_size[1] + g1) * c->global_size[0] + g0;
}

OVLD size_t get_local_linear_id(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return (__mosaic_get_local_id(2) * c->local_size[1] + __mosaic_get_local_id(1)) * c->local_size[0] +
           __mosaic_get_local_id(0);
}

/* ---- barriers ----------------------------------------------------------------
 * All work-items of a group run on one thread (a loop, or fibers that switch
 * inside __mosaic_barrier), so the call itself orders memory: the optimiser
 * cannot move loads and stores across an unknown function. */
OVLD void barrier(cl_mem_fence_flags flags) { __mosaic_barrier(CTX); }
OVLD void work_group_barrier(cl_mem_fence_flags flags) { __mosaic_barrier(CTX); }
OVLD void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { __mosaic_barrier(CTX); }

/* ---- fences ------------------------------------------------------------------
 * Between the work-items of one group (one thread) a compiler fence is enough;
 * wider scopes need a real fence. */
OVLD void mem_fence(cl_mem_fence_flags flags) { __c11_atomic_signal_fence(__ATOMIC_SEQ_CST); }
OVLD void read_mem_fence(cl_mem_fence_flags flags) { __c11_atomic_signal_fence(__ATOMIC_ACQUIRE); }
OVLD void write_mem_fence(cl_mem_fence_flags flags) { __c11_atomic_signal_fence(__ATOMIC_RELEASE); }

OVLD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
    if (order == memory_order_relaxed || scope == memory_scope_work_item)
        return;
    if (scope == memory_scope_work_group || scope == memory_scope_sub_group) {
        __c11_atomic_signal_fence(__ATOMIC_SEQ_CST);
        return;
    }
    switch (order) {
    case memory_order_acquire: __c11_atomic_thread_fence(__ATOMIC_ACQUIRE); break;
    case memory_order_release: __c11_atomic_thread_fence(__ATOMIC_RELEASE); break;
    case memory_order_acq_rel: __c11_atomic_thread_fence(__ATOMIC_ACQ_REL); break;
    default: __c11_atomic_thread_fence(__ATOMIC_SEQ_CST); break;
    }
}

/* ---- async copies and prefetch (section 6.15.13) --------------------------------
 * Every work-item copies its share (strided by its local linear id), and
 * wait_group_events is a work-group barrier, after which the whole copy is
 * visible to the group.  The event is the one passed in (or 0). */
#define ASYNC_COPY(T)                                                                              \
    OVLD event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n,    \
                                               size_t stride, event_t e)                           \
    {                                                                                              \
        size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);                   \
        for (size_t i = get_local_linear_id(); i < n; i += step)                                   \
            dst[i] = src[i * stride];                                                              \
        return e;                                                                                  \
    }                                                                                              \
    OVLD event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n,    \
                                               size_t stride, event_t e)                           \
    {                                                                                              \
        size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);                   \
        for (size_t i = get_local_linear_id(); i < n; i += step)                                   \
            dst[i * stride] = src[i];                                                              \
        return e;                                                                                  \
    }                                                                                              \
    OVLD event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n, event_t e) \
    {                                                                                              \
        return async_work_group_strided_copy(dst, src, n, 1, e);                                   \
    }                                                                                              \
    OVLD event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n, event_t e) \
    {                                                                                              \
        return async_work_group_strided_copy(dst, src, n, 1, e);                                   \
    }                                                                                              \
    OVLD void prefetch(const __global T *p, size_t n) {}
#define ASYNC_ALL(T) ASYNC_COPY(T) ASYNC_COPY(T##2) ASYNC_COPY(T##3) ASYNC_COPY(T##4) ASYNC_COPY(T##8) ASYNC_COPY(T##16)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
ASYNC_ALL(char) ASYNC_ALL(uchar) ASYNC_ALL(short) ASYNC_ALL(ushort) ASYNC_ALL(int) ASYNC_ALL(uint)
ASYNC_ALL(long) ASYNC_ALL(ulong) ASYNC_ALL(float) ASYNC_ALL(double) ASYNC_ALL(half)

OVLD void wait_group_events(int n, event_t *events) { __mosaic_barrier(CTX); }
OVLD void wait_group_events(int n, __private event_t *events) { __mosaic_barrier(CTX); }
