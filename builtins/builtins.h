/* Shared declarations for the builtin library sources (OpenCL C). */
#ifndef MOSAIC_BUILTINS_H
#define MOSAIC_BUILTINS_H

/* Mirror of mosaic_wg_ctx in src/compiler/compiler.h: keep the two in step
 * (tests/compiler/test_wg_ctx_layout.c checks every field). */
typedef struct {
    ulong work_dim;
    ulong global_offset[3];
    ulong global_size[3];
    ulong enqueued_local_size[3];
    ulong local_size[3];
    ulong num_groups[3];
    ulong group_id[3];
    char *local_mem;
    void *device_private;
    ulong local_mem_size;
    char *private_lo[2];
    char *private_hi[2];
    char *wg_scratch;
    ulong stream_stores;
    const void *check_windows;
    ulong *check_local_written;
} __mosaic_wg_ctx;

/* Replaced by the compiler, after inlining, with the work-group context and
 * the work-item's local id (see src/compiler). Never defined. */
const __mosaic_wg_ctx *__mosaic_get_ctx(void);
ulong __mosaic_get_local_id(uint dim);
/* Replaced by the compiler: the local linear id of the first work-item of
 * the caller's sub-group (a value the work-group function's loop over one
 * sub-group keeps uniform, so the vectoriser sees it as one). */
ulong __mosaic_get_sub_group_first(void);
/* Provided by the device: returns once every work-item of the group has called
 * it (called as __mosaic_barrier(__mosaic_get_ctx())). */
void __mosaic_barrier(const __mosaic_wg_ctx *ctx);
/* Provided by the device: returns once every work-item of the caller's
 * sub-group has called it (builtins/subgroups.cl). */
void __mosaic_sub_group_barrier(const __mosaic_wg_ctx *ctx);
/* Provided by the device: a non-uniform sub-group barrier (the non-uniform
 * sub-group functions, builtins/subgroups.cl).  Returns once the work-items
 * of the caller's sub-group that reach this call together (the active ones)
 * have called it, with their mask (bit i: sub-group local id i).  site: 0
 * here; the compiler numbers the calls of each kernel in the order of its
 * code once it is optimised (the device runs the lowest first).  nomerge:
 * the calls of two branches must stay two calls (their active work-items
 * differ), which convergent alone does not keep LLVM from merging. */
__attribute__((nomerge)) uint __mosaic_sub_group_active(const __mosaic_wg_ctx *ctx, uint site);
/* x itself: the compiler drops the call once the work-group function is built.
 * A non-uniform function's result goes through it before the function's
 * last barrier, so the result is computed there: convergent, the call is not
 * sunk (LLVM's clean-up would sink the fold into the block that uses its
 * result, past the barriers, where each of the values it folds would be
 * kept for every work-item instead of the one result). */
__attribute__((convergent, const)) ulong __mosaic_keep(ulong x);
/* The same for values of 4 bytes or less: kept as 4 bytes, not 8. */
__attribute__((convergent, const)) uint __mosaic_keep32(uint x);

/* Mirror of mosaic_image_desc in src/compiler/compiler.h (the ABI of image
 * arguments: a kernel receives a pointer to one of these for each image;
 * tests/compiler/test_wg_ctx_layout.c checks every field). */
typedef struct {
    __global uchar *data;
    ulong width;
    ulong height;
    ulong depth;
    ulong array_size;
    ulong row_pitch;
    ulong slice_pitch;
    uint image_type;
    uint channel_order;
    uint channel_data_type;
    uint pixel_size;
    uint num_channels;
    uint reserved[3];
} __mosaic_image_desc;

/* Replaced by the compiler with its argument (an image, which is a pointer
 * to its descriptor), marking the loads through it invariant: the runtime
 * fills the descriptor before the kernel starts and nothing writes it, so
 * the optimiser may hoist its fields out of the work-item loop (and unswitch
 * the loop on the image's format).  Never defined. */
const __global __mosaic_image_desc *__mosaic_image(const __global void *image);

/* Mirror of MOSAIC_SUB_GROUP_SIZE and MOSAIC_SUB_GROUP_SCRATCH in
 * src/compiler/compiler.h (docs/subgroups.md). */
#define MOSAIC_SUB_GROUP_SIZE 8
#define MOSAIC_SUB_GROUP_SCRATCH 128

#define OVLD __attribute__((overloadable))
#define CONST_FN __attribute__((overloadable, const))

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* ---- element-wise vector variants of scalar functions ------------------------
 * VEC1(R, F, A)          R##n F(A##n)
 * VEC2(R, F, A, B)       R##n F(A##n, B##n)
 * VEC2S(R, F, A, B)      R##n F(A##n, B)        (scalar second operand)
 * VEC3(R, F, A, B, C)    R##n F(A##n, B##n, C##n)
 * Wide vectors split into halves, so a 16-wide call is 16 scalar calls after
 * inlining (which the vectoriser may merge again). */
#define VEC1(R, F, A)                                                                               \
    CONST_FN R##2 F(A##2 x) { return (R##2)(F(x.s0), F(x.s1)); }                                   \
    CONST_FN R##3 F(A##3 x) { return (R##3)(F(x.s0), F(x.s1), F(x.s2)); }                          \
    CONST_FN R##4 F(A##4 x) { return (R##4)(F(x.lo), F(x.hi)); }                                   \
    CONST_FN R##8 F(A##8 x) { return (R##8)(F(x.lo), F(x.hi)); }                                   \
    CONST_FN R##16 F(A##16 x) { return (R##16)(F(x.lo), F(x.hi)); }

#define VEC2(R, F, A, B)                                                                            \
    CONST_FN R##2 F(A##2 x, B##2 y) { return (R##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }               \
    CONST_FN R##3 F(A##3 x, B##3 y) { return (R##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); } \
    CONST_FN R##4 F(A##4 x, B##4 y) { return (R##4)(F(x.lo, y.lo), F(x.hi, y.hi)); }               \
    CONST_FN R##8 F(A##8 x, B##8 y) { return (R##8)(F(x.lo, y.lo), F(x.hi, y.hi)); }               \
    CONST_FN R##16 F(A##16 x, B##16 y) { return (R##16)(F(x.lo, y.lo), F(x.hi, y.hi)); }

#define VEC2S(R, F, A, B)                                                                           \
    CONST_FN R##2 F(A##2 x, B y) { return (R##2)(F(x.s0, y), F(x.s1, y)); }                        \
    CONST_FN R##3 F(A##3 x, B y) { return (R##3)(F(x.s0, y), F(x.s1, y), F(x.s2, y)); }            \
    CONST_FN R##4 F(A##4 x, B y) { return (R##4)(F(x.lo, y), F(x.hi, y)); }                        \
    CONST_FN R##8 F(A##8 x, B y) { return (R##8)(F(x.lo, y), F(x.hi, y)); }                        \
    CONST_FN R##16 F(A##16 x, B y) { return (R##16)(F(x.lo, y), F(x.hi, y)); }

#define VEC3(R, F, A, B, C)                                                                         \
    CONST_FN R##2 F(A##2 x, B##2 y, C##2 z) { return (R##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1)); } \
    CONST_FN R##3 F(A##3 x, B##3 y, C##3 z)                                                        \
    {                                                                                              \
        return (R##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));              \
    }                                                                                              \
    CONST_FN R##4 F(A##4 x, B##4 y, C##4 z) { return (R##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
    CONST_FN R##8 F(A##8 x, B##8 y, C##8 z) { return (R##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
    CONST_FN R##16 F(A##16 x, B##16 y, C##16 z) { return (R##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }

/* F(A##n x, B y, C z): scalar second and third operands */
#define VEC3SS(R, F, A, B, C)                                                                       \
    CONST_FN R##2 F(A##2 x, B y, C z) { return (R##2)(F(x.s0, y, z), F(x.s1, y, z)); }             \
    CONST_FN R##3 F(A##3 x, B y, C z) { return (R##3)(F(x.s0, y, z), F(x.s1, y, z), F(x.s2, y, z)); } \
    CONST_FN R##4 F(A##4 x, B y, C z) { return (R##4)(F(x.lo, y, z), F(x.hi, y, z)); }             \
    CONST_FN R##8 F(A##8 x, B y, C z) { return (R##8)(F(x.lo, y, z), F(x.hi, y, z)); }             \
    CONST_FN R##16 F(A##16 x, B y, C z) { return (R##16)(F(x.lo, y, z), F(x.hi, y, z)); }

/* One output through a pointer: R##n F(A##n x, AS P##n *out), from the
 * scalar R F(A x, __private P *out). */
#define VEC_OUT(R, F, A, P, AS)                                                                     \
    OVLD R##2 F(A##2 x, AS P##2 *o)                                                                \
    {                                                                                              \
        P a, b;                                                                                    \
        R##2 r = (R##2)(F(x.s0, &a), F(x.s1, &b));                                                 \
        *o = (P##2)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##3 F(A##3 x, AS P##3 *o)                                                                \
    {                                                                                              \
        P a, b, c;                                                                                 \
        R##3 r = (R##3)(F(x.s0, &a), F(x.s1, &b), F(x.s2, &c));                                    \
        *o = (P##3)(a, b, c);                                                                      \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##4 F(A##4 x, AS P##4 *o)                                                                \
    {                                                                                              \
        P##2 a, b;                                                                                 \
        R##4 r = (R##4)(F(x.lo, &a), F(x.hi, &b));                                                 \
        *o = (P##4)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##8 F(A##8 x, AS P##8 *o)                                                                \
    {                                                                                              \
        P##4 a, b;                                                                                 \
        R##8 r = (R##8)(F(x.lo, &a), F(x.hi, &b));                                                 \
        *o = (P##8)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##16 F(A##16 x, AS P##16 *o)                                                             \
    {                                                                                              \
        P##8 a, b;                                                                                 \
        R##16 r = (R##16)(F(x.lo, &a), F(x.hi, &b));                                               \
        *o = (P##16)(a, b);                                                                        \
        return r;                                                                                  \
    }

/* Same with a second value operand: R##n F(A##n x, B##n y, AS P##n *out). */
#define VEC_OUT2(R, F, A, B, P, AS)                                                                 \
    OVLD R##2 F(A##2 x, B##2 y, AS P##2 *o)                                                        \
    {                                                                                              \
        P a, b;                                                                                    \
        R##2 r = (R##2)(F(x.s0, y.s0, &a), F(x.s1, y.s1, &b));                                     \
        *o = (P##2)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##3 F(A##3 x, B##3 y, AS P##3 *o)                                                        \
    {                                                                                              \
        P a, b, c;                                                                                 \
        R##3 r = (R##3)(F(x.s0, y.s0, &a), F(x.s1, y.s1, &b), F(x.s2, y.s2, &c));                  \
        *o = (P##3)(a, b, c);                                                                      \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##4 F(A##4 x, B##4 y, AS P##4 *o)                                                        \
    {                                                                                              \
        P##2 a, b;                                                                                 \
        R##4 r = (R##4)(F(x.lo, y.lo, &a), F(x.hi, y.hi, &b));                                     \
        *o = (P##4)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##8 F(A##8 x, B##8 y, AS P##8 *o)                                                        \
    {                                                                                              \
        P##4 a, b;                                                                                 \
        R##8 r = (R##8)(F(x.lo, y.lo, &a), F(x.hi, y.hi, &b));                                     \
        *o = (P##8)(a, b);                                                                         \
        return r;                                                                                  \
    }                                                                                              \
    OVLD R##16 F(A##16 x, B##16 y, AS P##16 *o)                                                    \
    {                                                                                              \
        P##8 a, b;                                                                                 \
        R##16 r = (R##16)(F(x.lo, y.lo, &a), F(x.hi, y.hi, &b));                                   \
        *o = (P##16)(a, b);                                                                        \
        return r;                                                                                  \
    }

/* The other address spaces of an output pointer, through a private temporary:
 * R F(A x, AS P *out) for AS = __global, __local and the generic space.  On
 * the GPU (NVPTX) a private pointer is a generic one, one mangled name: the
 * private function serves both. */
#ifdef __NVPTX__
#define OUT_AS_GENERIC(...)
#else
#define OUT_AS_GENERIC(M, ...) M(__VA_ARGS__, )
#endif
#define OUT_AS_1(R, F, A, P, AS)                                                                    \
    OVLD R F(A x, AS P *o)                                                                         \
    {                                                                                              \
        P t;                                                                                       \
        R r = F(x, &t);                                                                            \
        *o = t;                                                                                    \
        return r;                                                                                  \
    }
#define OUT_AS(R, F, A, P)                                                                          \
    OUT_AS_1(R, F, A, P, __global) OUT_AS_1(R, F, A, P, __local) OUT_AS_GENERIC(OUT_AS_1, R, F, A, P)
#define OUT2_AS_1(R, F, A, B, P, AS)                                                                \
    OVLD R F(A x, B y, AS P *o)                                                                    \
    {                                                                                              \
        P t;                                                                                       \
        R r = F(x, y, &t);                                                                         \
        *o = t;                                                                                    \
        return r;                                                                                  \
    }
#define OUT2_AS(R, F, A, B, P)                                                                      \
    OUT2_AS_1(R, F, A, B, P, __global) OUT2_AS_1(R, F, A, B, P, __local) OUT_AS_GENERIC(OUT2_AS_1, R, F, A, B, P)

/* ---- the operations of the collective functions ------------------------------
 * work_group_ and sub_group_ reduce/scan and their non-uniform forms share
 * them: COLLECTIVE_INTEGER_OPS(X, T, TMIN, TMAX) and COLLECTIVE_FLOAT_OPS(X, T)
 * expand X(T, name, operation, identity) for add, min and max;
 * COLLECTIVE_TYPES(I, F) applies I(T, TMIN, TMAX) to int, uint, long, ulong
 * and F(T) to float, double (the types of the OpenCL 3.0 core functions). */
#define ADD(a, b) ((a) + (b))
#define MIN_I(a, b) ((a) < (b) ? (a) : (b))
#define MAX_I(a, b) ((a) > (b) ? (a) : (b))
#define MIN_F(a, b) fmin(a, b)
#define MAX_F(a, b) fmax(a, b)
#define COLLECTIVE_INTEGER_OPS(X, T, TMIN, TMAX) X(T, add, ADD, 0) X(T, min, MIN_I, TMAX) X(T, max, MAX_I, TMIN)
#define COLLECTIVE_FLOAT_OPS(X, T) X(T, add, ADD, 0) X(T, min, MIN_F, INFINITY) X(T, max, MAX_F, -INFINITY)
#define COLLECTIVE_TYPES(I, F)                                                                      \
    I(int, INT_MIN, INT_MAX) I(uint, 0, UINT_MAX) I(long, LONG_MIN, LONG_MAX) I(ulong, 0, ULONG_MAX) F(float) F(double)

/* Scalar + every vector width: X(T) applied to T, T2, T3, T4, T8, T16. */
#define ALL_WIDTHS(X, T) X(T) X(T##2) X(T##3) X(T##4) X(T##8) X(T##16)

/* A value of W lanes (none: a scalar) as float: TOF_##W(x) (half.cl, half_convert.cl). */
#define TOF_(x) ((float)(x))
#define TOF_2(x) __builtin_convertvector((x), float2)
#define TOF_3(x) __builtin_convertvector((x), float3)
#define TOF_4(x) __builtin_convertvector((x), float4)
#define TOF_8(x) __builtin_convertvector((x), float8)
#define TOF_16(x) __builtin_convertvector((x), float16)

#endif
