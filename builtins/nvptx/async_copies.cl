/* What libclc's NVPTX library leaves out of async_work_group_copy,
 * async_work_group_strided_copy and prefetch (OpenCL C 3.0 section
 * 6.15.13): the 3-element vectors char3 .. double3, and half in every
 * width.  As libclc's own: the
 * work-items of the group share the elements, the event is the one given
 * (wait_group_events is a barrier), and prefetch is a hint the GPU's caches
 * do without. */
#include "../builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static size_t group_items(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

/* element i of the group's copy: to[TO] = from[FROM] */
#define COPY(TO, FROM)                                                                              \
    {                                                                                               \
        for (size_t i = get_local_linear_id(); i < n; i += group_items())                           \
            to[TO] = from[FROM];                                                                    \
        return e;                                                                                   \
    }
#define COPIES(T)                                                                                   \
    OVLD event_t async_work_group_copy(__local T *to, const __global T *from, size_t n, event_t e)  \
    COPY(i, i)                                                                                      \
    OVLD event_t async_work_group_copy(__global T *to, const __local T *from, size_t n, event_t e)  \
    COPY(i, i)                                                                                      \
    OVLD event_t async_work_group_strided_copy(__local T *to, const __global T *from, size_t n,     \
                                               size_t stride, event_t e)                            \
    COPY(i, i * stride)                                                                             \
    OVLD event_t async_work_group_strided_copy(__global T *to, const __local T *from, size_t n,     \
                                               size_t stride, event_t e)                            \
    COPY(i * stride, i)                                                                             \
    OVLD void prefetch(const __global T *p, size_t n) {}

COPIES(char3)
COPIES(uchar3)
COPIES(short3)
COPIES(ushort3)
COPIES(int3)
COPIES(uint3)
COPIES(long3)
COPIES(ulong3)
COPIES(float3)
COPIES(double3)
COPIES(half)
COPIES(half2)
COPIES(half3)
COPIES(half4)
COPIES(half8)
COPIES(half16)
