/* Device-side enqueue (OpenCL C 3.0 section 6.15.16): ndrange_t builders,
 * and the functions clang's enqueue_kernel and block queries call, which
 * hand everything to the device's runtime functions (below) with the
 * work-group context, so the device knows which launch and work-group asks.
 *
 * clang turns enqueue_kernel(queue, flags, ndrange, [events,] block, [local
 * sizes...]) into __enqueue_kernel_basic / _basic_events / _varargs /
 * _events_varargs with the block's kernel (a handle after finalize:
 * MOSAIC_BLOCK_HANDLE in compiler.h) and the block literal: {int size, int
 * align, invoke, captured values...}. */
#include "builtins.h"

#define CTX __mosaic_get_ctx()

/* Provided by the device (src/devices/cpu/cpu_enqueue.c). */
int __mosaic_enqueue_kernel(const __mosaic_wg_ctx *ctx, queue_t queue, int flags, const ndrange_t *ndrange,
                            uint num_events, const clk_event_t *wait_list, clk_event_t *event_ret,
                            const void *block_kernel, const void *block, uint num_locals, const size_t *local_sizes);
int __mosaic_enqueue_marker(const __mosaic_wg_ctx *ctx, queue_t queue, uint num_events,
                            const clk_event_t *wait_list, clk_event_t *event_ret);
queue_t __mosaic_get_default_queue(const __mosaic_wg_ctx *ctx);
void __mosaic_retain_event(clk_event_t event);
void __mosaic_release_event(clk_event_t event);
clk_event_t __mosaic_create_user_event(const __mosaic_wg_ctx *ctx);
void __mosaic_set_user_event_status(clk_event_t event, int status);
int __mosaic_is_valid_event(clk_event_t event);
void __mosaic_capture_event_profiling_info(clk_event_t event, int name, __global void *value);
uint __mosaic_kernel_work_group_size(const __mosaic_wg_ctx *ctx, const void *block_kernel);
uint __mosaic_kernel_preferred_multiple(const __mosaic_wg_ctx *ctx, const void *block_kernel);
uint __mosaic_kernel_sub_group_count(const __mosaic_wg_ctx *ctx, const ndrange_t *ndrange, const void *block_kernel);
uint __mosaic_kernel_max_sub_group_size(const __mosaic_wg_ctx *ctx, const ndrange_t *ndrange, const void *block_kernel);

/* ---- what clang's enqueue_kernel calls ---- */

int __enqueue_kernel_basic(queue_t queue, int flags, ndrange_t ndrange, const void *block_kernel, const void *block)
{
    return __mosaic_enqueue_kernel(CTX, queue, flags, &ndrange, 0, 0, 0, block_kernel, block, 0, 0);
}

int __enqueue_kernel_basic_events(queue_t queue, int flags, __private const ndrange_t *ndrange, uint num_events,
                                  const clk_event_t *wait_list, clk_event_t *event_ret, const void *block_kernel,
                                  const void *block)
{
    return __mosaic_enqueue_kernel(CTX, queue, flags, ndrange, num_events, wait_list, event_ret, block_kernel, block, 0,
                                   0);
}

int __enqueue_kernel_varargs(queue_t queue, int flags, __private const ndrange_t *ndrange, const void *block_kernel,
                             const void *block, uint num_locals, __private const size_t *local_sizes)
{
    return __mosaic_enqueue_kernel(CTX, queue, flags, ndrange, 0, 0, 0, block_kernel, block, num_locals, local_sizes);
}

int __enqueue_kernel_events_varargs(queue_t queue, int flags, __private const ndrange_t *ndrange, uint num_events,
                                    const clk_event_t *wait_list, clk_event_t *event_ret, const void *block_kernel,
                                    const void *block, uint num_locals, __private const size_t *local_sizes)
{
    return __mosaic_enqueue_kernel(CTX, queue, flags, ndrange, num_events, wait_list, event_ret, block_kernel, block,
                                   num_locals, local_sizes);
}

uint __get_kernel_work_group_size_impl(const void *block_kernel, const void *block)
{
    return __mosaic_kernel_work_group_size(CTX, block_kernel);
}

uint __get_kernel_preferred_work_group_size_multiple_impl(const void *block_kernel, const void *block)
{
    return __mosaic_kernel_preferred_multiple(CTX, block_kernel);
}

/* With sub-groups (clang declares these only then): for the group size a
 * launch over `ndrange` would get. */
uint __get_kernel_sub_group_count_for_ndrange_impl(__private const ndrange_t *ndrange, const void *block_kernel,
                                                  const void *block)
{
    return __mosaic_kernel_sub_group_count(CTX, ndrange, block_kernel);
}

uint __get_kernel_max_sub_group_size_for_ndrange_impl(__private const ndrange_t *ndrange, const void *block_kernel,
                                                     const void *block)
{
    return __mosaic_kernel_max_sub_group_size(CTX, ndrange, block_kernel);
}

/* ---- ndrange_t: a local size of 0 lets the device choose ---- */

static ndrange_t make_ndrange(uint dims, const size_t *offset, const size_t *sizes, const size_t *local_sizes)
{
    ndrange_t r;
    r.workDimension = dims;
    for (uint d = 0; d < 3; d++) {
        r.globalWorkOffset[d] = offset && d < dims ? offset[d] : 0;
        r.globalWorkSize[d] = d < dims ? sizes[d] : 1;
        r.localWorkSize[d] = local_sizes && d < dims ? local_sizes[d] : 0;
    }
    return r;
}

OVLD ndrange_t ndrange_1D(size_t global_size) { return make_ndrange(1, 0, &global_size, 0); }
OVLD ndrange_t ndrange_1D(size_t global_size, size_t local_size) { return make_ndrange(1, 0, &global_size, &local_size); }
OVLD ndrange_t ndrange_1D(size_t offset, size_t global_size, size_t local_size)
{
    return make_ndrange(1, &offset, &global_size, &local_size);
}
OVLD ndrange_t ndrange_2D(const size_t global_size[2]) { return make_ndrange(2, 0, global_size, 0); }
OVLD ndrange_t ndrange_2D(const size_t global_size[2], const size_t local_size[2]) { return make_ndrange(2, 0, global_size, local_size); }
OVLD ndrange_t ndrange_2D(const size_t offset[2], const size_t global_size[2], const size_t local_size[2])
{
    return make_ndrange(2, offset, global_size, local_size);
}
OVLD ndrange_t ndrange_3D(const size_t global_size[3]) { return make_ndrange(3, 0, global_size, 0); }
OVLD ndrange_t ndrange_3D(const size_t global_size[3], const size_t local_size[3]) { return make_ndrange(3, 0, global_size, local_size); }
OVLD ndrange_t ndrange_3D(const size_t offset[3], const size_t global_size[3], const size_t local_size[3])
{
    return make_ndrange(3, offset, global_size, local_size);
}

/* ---- queues, markers and events ---- */

OVLD queue_t get_default_queue(void) { return __mosaic_get_default_queue(CTX); }

OVLD int enqueue_marker(queue_t queue, uint num_events, const clk_event_t *wait_list, clk_event_t *event_ret)
{
    return __mosaic_enqueue_marker(CTX, queue, num_events, wait_list, event_ret);
}

OVLD void retain_event(clk_event_t event) { __mosaic_retain_event(event); }
OVLD void release_event(clk_event_t event) { __mosaic_release_event(event); }
OVLD clk_event_t create_user_event(void) { return __mosaic_create_user_event(CTX); }
OVLD void set_user_event_status(clk_event_t event, int status) { __mosaic_set_user_event_status(event, status); }
OVLD bool is_valid_event(clk_event_t event) { return __mosaic_is_valid_event(event) != 0; }
OVLD void capture_event_profiling_info(clk_event_t event, clk_profiling_info name, __global void *value)
{
    __mosaic_capture_event_profiling_info(event, name, value);
}
