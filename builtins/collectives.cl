/* Work-group collective functions (OpenCL C 3.0 section 6.15.16, feature
 * __opencl_c_work_group_collective_functions): work_group_all/any,
 * work_group_broadcast, work_group_reduce_<op>, work_group_scan_exclusive_<op>
 * and work_group_scan_inclusive_<op> for op = add, min, max and the types int,
 * uint, long, ulong, float, double.
 *
 * Work-items exchange values through ctx->wg_scratch (8 bytes per work-item,
 * the work-group's own while it runs) between work-group barriers
 * (__mosaic_barrier), so they work whatever runs the barriers: fibers, threads
 * or loops over the regions between barriers.  A reduction or a scan is
 *   1. every work-item stores its value at scratch[local linear id]; barrier
 *   2. work-item 0 folds the values in order of local linear id, in place
 *      (a scan leaves every prefix, a reduction its result in scratch[0]); barrier
 *   3. every work-item reads its answer; barrier (so the next collective may
 *      write the scratch again)
 * which is O(work-group size) work in all.  Floating-point sums are added in
 * order of local linear id.  All work-items of the group must reach the call
 * (the OpenCL rule for any work-group function). */
#include "builtins.h"

#define CTX __mosaic_get_ctx()
#define WG_BARRIER() __mosaic_barrier(CTX)

static size_t __mosaic_wg_items(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return c->local_size[0] * c->local_size[1] * c->local_size[2];
}


/* T's reduce/scan for one operation (OP), with its identity ID. */
#define COLLECTIVE(T, NAME, OP, ID)                                                                \
    OVLD T work_group_reduce_##NAME(T x)                                                           \
    {                                                                                              \
        T *s = (T *)CTX->wg_scratch;                                                               \
        size_t i = get_local_linear_id();                                                          \
        s[i] = x;                                                                                  \
        WG_BARRIER();                                                                              \
        if (i == 0) {                                                                              \
            size_t n = __mosaic_wg_items();                                                        \
            T acc = s[0];                                                                          \
            for (size_t j = 1; j < n; j++)                                                         \
                acc = OP(acc, s[j]);                                                               \
            s[0] = acc;                                                                            \
        }                                                                                          \
        WG_BARRIER();                                                                              \
        T r = s[0];                                                                                \
        WG_BARRIER();                                                                              \
        return r;                                                                                  \
    }                                                                                              \
    /* in place: s[j] becomes x_0 OP ... OP x_j */                                                 \
    static void __mosaic_wg_prefix_##NAME##_##T(T *s)                                              \
    {                                                                                              \
        size_t n = __mosaic_wg_items();                                                            \
        T acc = s[0];                                                                              \
        for (size_t j = 1; j < n; j++)                                                             \
            s[j] = acc = OP(acc, s[j]);                                                            \
    }                                                                                              \
    OVLD T work_group_scan_inclusive_##NAME(T x)                                                   \
    {                                                                                              \
        T *s = (T *)CTX->wg_scratch;                                                               \
        size_t i = get_local_linear_id();                                                          \
        s[i] = x;                                                                                  \
        WG_BARRIER();                                                                              \
        if (i == 0)                                                                                \
            __mosaic_wg_prefix_##NAME##_##T(s);                                                    \
        WG_BARRIER();                                                                              \
        T r = s[i];                                                                                \
        WG_BARRIER();                                                                              \
        return r;                                                                                  \
    }                                                                                              \
    OVLD T work_group_scan_exclusive_##NAME(T x)                                                   \
    {                                                                                              \
        T *s = (T *)CTX->wg_scratch;                                                               \
        size_t i = get_local_linear_id();                                                          \
        s[i] = x;                                                                                  \
        WG_BARRIER();                                                                              \
        if (i == 0)                                                                                \
            __mosaic_wg_prefix_##NAME##_##T(s);                                                    \
        WG_BARRIER();                                                                              \
        T r = i ? s[i - 1] : (T)(ID);                                                              \
        WG_BARRIER();                                                                              \
        return r;                                                                                  \
    }

/* work_group_broadcast from the work-item with the given local id. */
#define BROADCAST(T)                                                                               \
    static T __mosaic_wg_broadcast_##T(T x, bool mine)                                             \
    {                                                                                              \
        T *s = (T *)CTX->wg_scratch;                                                               \
        if (mine)                                                                                  \
            *s = x;                                                                                \
        WG_BARRIER();                                                                              \
        T r = *s;                                                                                  \
        WG_BARRIER();                                                                              \
        return r;                                                                                  \
    }                                                                                              \
    OVLD T work_group_broadcast(T x, size_t lx)                                                    \
    {                                                                                              \
        return __mosaic_wg_broadcast_##T(x, get_local_linear_id() == lx);                          \
    }                                                                                              \
    OVLD T work_group_broadcast(T x, size_t lx, size_t ly)                                         \
    {                                                                                              \
        return __mosaic_wg_broadcast_##T(x, get_local_id(0) == lx && get_local_id(1) == ly);       \
    }                                                                                              \
    OVLD T work_group_broadcast(T x, size_t lx, size_t ly, size_t lz)                              \
    {                                                                                              \
        return __mosaic_wg_broadcast_##T(                                                          \
            x, get_local_id(0) == lx && get_local_id(1) == ly && get_local_id(2) == lz);           \
    }

#define INTEGER_TYPE(T, TMIN, TMAX) COLLECTIVE_INTEGER_OPS(COLLECTIVE, T, TMIN, TMAX) BROADCAST(T)
#define FLOAT_TYPE(T) COLLECTIVE_FLOAT_OPS(COLLECTIVE, T) BROADCAST(T)
COLLECTIVE_TYPES(INTEGER_TYPE, FLOAT_TYPE)

OVLD int work_group_all(int predicate) { return work_group_reduce_min(predicate != 0); }
OVLD int work_group_any(int predicate) { return work_group_reduce_max(predicate != 0); }

/* half (cl_khr_fp16): folded in half, as the spec's types say */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CONST_FN half fmin(half x, half y);
CONST_FN half fmax(half x, half y);
FLOAT_TYPE(half)
