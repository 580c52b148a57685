/* Work-group collective functions (OpenCL C 3.0 section 6.15.16, feature
 * __opencl_c_work_group_collective_functions): work_group_all/any,
 * work_group_broadcast, work_group_reduce_<op>, work_group_scan_exclusive_<op>
 * and work_group_scan_inclusive_<op> for op = add, min, max and the types int,
 * uint, long, ulong, float, double; and cl_khr_work_group_uniform_arithmetic's
 * ops (below): and, or, xor of int, uint, long, ulong; mul of those, float,
 * double and half; logical_and, logical_or, logical_xor of an int predicate.
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

#ifdef __NVPTX__
/* The GPU (built for it too): the scratch is the block's, in shared memory,
 * 8 bytes for each work-item of the largest block (compiler/gpu/ptx.c
 * defines __mosaic_wg_scratch where a program calls a collective), and the
 * barrier is the block's. */
void *__mosaic_wg_scratch(void);
#define SCRATCH __mosaic_wg_scratch()
#define WG_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)

static size_t __mosaic_wg_items(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }
#else
#define CTX __mosaic_get_ctx()
#define SCRATCH (CTX->wg_scratch)
#define WG_BARRIER() __mosaic_barrier(CTX)

static size_t __mosaic_wg_items(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return c->local_size[0] * c->local_size[1] * c->local_size[2];
}
#endif


/* T's reduce/scan for one operation (OP), with its identity ID. */
#define COLLECTIVE(T, NAME, OP, ID)                                                                \
    OVLD T work_group_reduce_##NAME(T x)                                                           \
    {                                                                                              \
        T *s = (T *)SCRATCH;                                                               \
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
        T *s = (T *)SCRATCH;                                                               \
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
        T *s = (T *)SCRATCH;                                                               \
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
        T *s = (T *)SCRATCH;                                                               \
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

/* cl_khr_work_group_uniform_arithmetic.  A logical result is any non-zero
 * value for true (the extension's rule), so a predicate is folded as given. */
#define BIT_AND(a, b) ((a) & (b))
#define BIT_OR(a, b) ((a) | (b))
#define BIT_XOR(a, b) ((a) ^ (b))
#define MUL(a, b) ((a) * (b))
#define LOGICAL_AND(a, b) ((a) != 0 && (b) != 0)
#define LOGICAL_OR(a, b) ((a) != 0 || (b) != 0)
#define LOGICAL_XOR(a, b) (((a) != 0) != ((b) != 0))
COLLECTIVE(int, logical_and, LOGICAL_AND, 1)
COLLECTIVE(int, logical_or, LOGICAL_OR, 0)
COLLECTIVE(int, logical_xor, LOGICAL_XOR, 0)
/* llvm-spirv-15 writes SPIR-V's OpGroupBitwise*KHR as calls of a draft's
 * names, work_group_<kind>_bitwise_<op>, with the signed types' mangling */
#define TRANSLATOR_NAME(T, KIND, OP)                                                                   OVLD T work_group_##KIND##_bitwise_##OP(T x) { return work_group_##KIND##_##OP(x); }
#define TRANSLATOR_NAMES(T, OP)                                                                        TRANSLATOR_NAME(T, reduce, OP) TRANSLATOR_NAME(T, scan_inclusive, OP) TRANSLATOR_NAME(T, scan_exclusive, OP)
#define UNIFORM_INTEGER(T)                                                                             COLLECTIVE(T, and, BIT_AND, ~(T)0) COLLECTIVE(T, or, BIT_OR, 0) COLLECTIVE(T, xor, BIT_XOR, 0)      COLLECTIVE(T, mul, MUL, 1)
UNIFORM_INTEGER(int)
UNIFORM_INTEGER(uint)
UNIFORM_INTEGER(long)
UNIFORM_INTEGER(ulong)
TRANSLATOR_NAMES(int, and) TRANSLATOR_NAMES(int, or) TRANSLATOR_NAMES(int, xor)
TRANSLATOR_NAMES(long, and) TRANSLATOR_NAMES(long, or) TRANSLATOR_NAMES(long, xor)
COLLECTIVE(float, mul, MUL, 1)
COLLECTIVE(double, mul, MUL, 1)

/* half (cl_khr_fp16): folded in half, as the spec's types say */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CONST_FN half fmin(half x, half y);
CONST_FN half fmax(half x, half y);
FLOAT_TYPE(half)
COLLECTIVE(half, mul, MUL, 1)
