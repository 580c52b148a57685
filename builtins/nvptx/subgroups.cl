/* Sub-groups on the GPU: a sub-group is a warp (OpenCL C 3.0 section
 * 6.15.17, cl_khr_subgroups, and the cl_khr_subgroup_* extensions the GPU
 * reports: docs/gpu.md, "Sub-groups").
 *
 * A work-group is a thread block of exactly its size, and a block's warps are
 * its threads taken 32 at a time in linear id order (x fastest), which is
 * OpenCL's order of local linear ids.  So sub-group s holds the work-items of
 * local linear ids 32s .. 32s+31, a work-item's sub-group local id is its
 * lane (%laneid), and the last warp of a block whose size is not a multiple
 * of 32 is a partial sub-group.
 *
 * Work-items exchange values with shfl.sync, always by source lane (idx), so
 * one primitive per type serves broadcasts, shuffles, rotations, reductions
 * and scans.  The functions every work-item of the sub-group must reach take
 * the sub-group's lanes as their member mask (so they also reconverge a warp
 * that independent thread scheduling split); the non-uniform ones take the
 * lanes active at the call (activemask). */

#include "../builtins.h"

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define WARP 32u

static uint lane(void) { return __nvvm_read_ptx_sreg_laneid(); }

/* (get_local_linear_id is workitem.cl's: the block's thread in x-fastest order) */
static uint local_linear(void) { return (uint)get_local_linear_id(); }

static uint block_items(void)
{
    return (uint)__nvvm_read_ptx_sreg_ntid_x() * (uint)__nvvm_read_ptx_sreg_ntid_y() *
           (uint)__nvvm_read_ptx_sreg_ntid_z();
}

/* The enqueued work-group's size (a partial last group is a block of its own,
 * smaller: workitem.cl). */
static uint enqueued_items(void)
{
    return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) * get_enqueued_local_size(2));
}

static uint size_of_sub_group(void)
{
    uint rest = block_items() - (local_linear() & ~(WARP - 1));
    return rest < WARP ? rest : WARP;
}

/* The lanes 0 .. n-1 (n <= 32). */
static uint low_lanes(uint n) { return n >= WARP ? ~0u : (1u << n) - 1; }

/* The sub-group's lanes, for the functions all of them reach. */
static uint members(void) { return low_lanes(size_of_sub_group()); }

/* The functions whose result depends on which lanes are active are not
 * inlined: LLVM merges two identical calls in the two arms of an if into
 * one that every lane reaches (the front end declares their calls nomerge,
 * compiler/frontend/frontend.c, which holds for calls but not for the
 * instructions of an inlined body). */
#define SET_DEPENDENT __attribute__((noinline))

/* The lanes that reach a non-uniform function together. */
static uint active(void)
{
    uint mask;
    __asm__ volatile("activemask.b32 %0;" : "=r"(mask)); /* clang 16 has no builtin for it */
    return mask;
}

/* ---- work-item functions ---------------------------------------------------- */
OVLD uint get_sub_group_size(void) { return size_of_sub_group(); }
OVLD uint get_max_sub_group_size(void)
{
    uint n = enqueued_items();
    return n < WARP ? n : WARP;
}
OVLD uint get_num_sub_groups(void) { return (block_items() + WARP - 1) / WARP; }
OVLD uint get_enqueued_num_sub_groups(void) { return (enqueued_items() + WARP - 1) / WARP; }
OVLD uint get_sub_group_id(void) { return local_linear() / WARP; }
OVLD uint get_sub_group_local_id(void) { return lane(); }

/* ---- barriers -----------------------------------------------------------------
 * bar.warp.sync orders memory among the lanes it joins; a fence at the
 * work-group's scope (or the device's) makes what they wrote to __local or
 * __global memory visible as the flags ask. */
static void fence(cl_mem_fence_flags flags, memory_scope scope)
{
    if (!(flags & (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE)))
        return;
    if (scope == memory_scope_work_group || scope == memory_scope_sub_group)
        __nvvm_membar_cta();
    else
        __nvvm_membar_gl();
}
OVLD void sub_group_barrier(cl_mem_fence_flags flags)
{
    fence(flags, memory_scope_sub_group);
    __nvvm_bar_warp_sync(members());
    fence(flags, memory_scope_sub_group);
}
OVLD void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope)
{
    fence(flags, scope);
    __nvvm_bar_warp_sync(members());
    fence(flags, scope);
}

/* ---- the one exchange: value of lane `src` among the lanes of `mask` ---------- */
#define SHFL32(mask, bits, src) __nvvm_shfl_sync_idx_i32((mask), (int)(bits), (int)(src), 0x1f)

#define SHFL_NARROW(T)                                                                              \
    static OVLD T shfl(uint mask, T v, uint src) { return (T)SHFL32(mask, v, src); }
#define SHFL_WORD(T, AS)                                                                            \
    static OVLD T shfl(uint mask, T v, uint src) { return AS(SHFL32(mask, as_int(v), src)); }
#define SHFL_WIDE(T, AS)                                                                            \
    static OVLD T shfl(uint mask, T v, uint src)                                                    \
    {                                                                                               \
        int2 w = as_int2(v);                                                                        \
        w.x = SHFL32(mask, w.x, src);                                                               \
        w.y = SHFL32(mask, w.y, src);                                                               \
        return AS(w);                                                                               \
    }
SHFL_NARROW(char)
SHFL_NARROW(uchar)
SHFL_NARROW(short)
SHFL_NARROW(ushort)
SHFL_WORD(int, as_int)
SHFL_WORD(uint, as_uint)
SHFL_WORD(float, as_float)
SHFL_WIDE(long, as_long)
SHFL_WIDE(ulong, as_ulong)
SHFL_WIDE(double, as_double)
#ifdef cl_khr_fp16
static OVLD half shfl(uint mask, half v, uint src) { return as_half((ushort)SHFL32(mask, as_ushort(v), src)); }
#endif

/* vectors, element by element (clang's subscript of a vector) */
#define SHFL_VECTOR(T, N)                                                                           \
    static OVLD T##N shfl(uint mask, T##N v, uint src)                                              \
    {                                                                                               \
        for (int i = 0; i < N; i++)                                                                 \
            v[i] = shfl(mask, v[i], src);                                                           \
        return v;                                                                                   \
    }
#define SHFL_VECTORS(T) SHFL_VECTOR(T, 2) SHFL_VECTOR(T, 3) SHFL_VECTOR(T, 4) SHFL_VECTOR(T, 8) SHFL_VECTOR(T, 16)

/* ---- type lists ------------------------------------------------------------------
 * X(type, largest value, least value) */
#define INTEGER_TYPES(X, ...)                                                                       \
    X(char, CHAR_MAX, CHAR_MIN, __VA_ARGS__)                                                        \
    X(uchar, UCHAR_MAX, 0, __VA_ARGS__)                                                             \
    X(short, SHRT_MAX, SHRT_MIN, __VA_ARGS__)                                                       \
    X(ushort, USHRT_MAX, 0, __VA_ARGS__)                                                            \
    X(int, INT_MAX, INT_MIN, __VA_ARGS__)                                                           \
    X(uint, UINT_MAX, 0, __VA_ARGS__)                                                               \
    X(long, LONG_MAX, LONG_MIN, __VA_ARGS__)                                                        \
    X(ulong, ULONG_MAX, 0, __VA_ARGS__)
#ifdef cl_khr_fp16
#define HALF_TYPE(X, ...) X(half, (half)INFINITY, -(half)INFINITY, __VA_ARGS__)
#else
#define HALF_TYPE(X, ...)
#endif
#define FLOAT_TYPES(X, ...)                                                                         \
    X(float, INFINITY, -INFINITY, __VA_ARGS__)                                                      \
    X(double, (double)INFINITY, -(double)INFINITY, __VA_ARGS__)                                     \
    HALF_TYPE(X, __VA_ARGS__)
#define SCALAR_TYPES(X, ...) INTEGER_TYPES(X, __VA_ARGS__) FLOAT_TYPES(X, __VA_ARGS__)

#define VECTORS_OF(T, MAX, MIN, _) SHFL_VECTORS(T)
SCALAR_TYPES(VECTORS_OF, _)

/* ---- the operations: OP(a, b) and its identity ID(MAX, MIN) ------------------- */
#define OP_add(a, b) ((a) + (b))
#define OP_mul(a, b) ((a) * (b))
#define OP_min(a, b) ((b) < (a) ? (b) : (a))
#define OP_max(a, b) ((b) > (a) ? (b) : (a))
#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))
#define OP_logical_and(a, b) ((a) && (b))
#define OP_logical_or(a, b) ((a) || (b))
#define OP_logical_xor(a, b) (!(a) != !(b))
#define ID_add(MAX, MIN) 0
#define ID_mul(MAX, MIN) 1
#define ID_min(MAX, MIN) (MAX)
#define ID_max(MAX, MIN) (MIN)
#define ID_and(MAX, MIN) (~0)
#define ID_or(MAX, MIN) 0
#define ID_xor(MAX, MIN) 0
#define ID_logical_and(MAX, MIN) 1
#define ID_logical_or(MAX, MIN) 0
#define ID_logical_xor(MAX, MIN) 0

/* ---- the functions every work-item of the sub-group reaches --------------------
 * A tree over lanes 0 .. n-1 in log2(n) exchanges: reduce to lane 0 and
 * broadcast, or Hillis and Steele's inclusive scan (each lane takes what lies
 * `step` below it).  The exclusive scan is the inclusive one of the lane
 * below. */
#define UNIFORM_ARITHMETIC(T, MAX, MIN, op)                                                         \
    OVLD T sub_group_reduce_##op(T x)                                                               \
    {                                                                                               \
        uint n = size_of_sub_group(), mask = low_lanes(n), l = lane();                              \
        T r = x;                                                                                    \
        for (uint step = 1; step < n; step <<= 1) {                                                 \
            bool in = l + step < n;                                                                 \
            T other = shfl(mask, r, in ? l + step : l);                                             \
            if (in)                                                                                 \
                r = OP_##op(r, other);                                                              \
        }                                                                                           \
        return shfl(mask, r, 0);                                                                    \
    }                                                                                               \
    OVLD T sub_group_scan_inclusive_##op(T x)                                                       \
    {                                                                                               \
        uint n = size_of_sub_group(), mask = low_lanes(n), l = lane();                              \
        T r = x;                                                                                    \
        for (uint step = 1; step < n; step <<= 1) {                                                 \
            T other = shfl(mask, r, l >= step ? l - step : l);                                      \
            if (l >= step)                                                                          \
                r = OP_##op(other, r);                                                              \
        }                                                                                           \
        return r;                                                                                   \
    }                                                                                               \
    OVLD T sub_group_scan_exclusive_##op(T x)                                                       \
    {                                                                                               \
        T inclusive = sub_group_scan_inclusive_##op(x);                                             \
        uint l = lane();                                                                            \
        T below = shfl(members(), inclusive, l ? l - 1 : 0);                                        \
        return l ? below : (T)ID_##op(MAX, MIN);                                                    \
    }

#define UNIFORM_FUNCTIONS(T, MAX, MIN, _)                                                           \
    OVLD T sub_group_broadcast(T x, uint id) { return shfl(members(), x, id); }                     \
    UNIFORM_ARITHMETIC(T, MAX, MIN, add)                                                            \
    UNIFORM_ARITHMETIC(T, MAX, MIN, min)                                                            \
    UNIFORM_ARITHMETIC(T, MAX, MIN, max)
SCALAR_TYPES(UNIFORM_FUNCTIONS, _)

/* cl_khr_subgroup_extended_types: broadcasts of vectors */
#define BROADCAST_VECTOR(T, N)                                                                      \
    OVLD T##N sub_group_broadcast(T##N x, uint id) { return shfl(members(), x, id); }
#define BROADCAST_VECTORS(T, MAX, MIN, _)                                                           \
    BROADCAST_VECTOR(T, 2) BROADCAST_VECTOR(T, 3) BROADCAST_VECTOR(T, 4) BROADCAST_VECTOR(T, 8)     \
    BROADCAST_VECTOR(T, 16)
SCALAR_TYPES(BROADCAST_VECTORS, _)

OVLD int sub_group_all(int predicate) { return __nvvm_vote_all_sync(members(), predicate != 0); }
OVLD int sub_group_any(int predicate) { return __nvvm_vote_any_sync(members(), predicate != 0); }

/* ---- cl_khr_subgroup_non_uniform_vote ------------------------------------------- */
OVLD SET_DEPENDENT int sub_group_elect(void) { return lane() == (uint)__builtin_ctz(active()); }
OVLD SET_DEPENDENT int sub_group_non_uniform_all(int predicate)
{
    return __nvvm_vote_all_sync(active(), predicate != 0);
}
OVLD SET_DEPENDENT int sub_group_non_uniform_any(int predicate)
{
    return __nvvm_vote_any_sync(active(), predicate != 0);
}

/* ---- cl_khr_subgroup_ballot ------------------------------------------------------ */
#define NON_UNIFORM_BROADCASTS(T)                                                                   \
    OVLD T sub_group_non_uniform_broadcast(T x, uint id) { return shfl(active(), x, id); }
#define BROADCAST_FIRST(T, MAX, MIN, _)                                                             \
    NON_UNIFORM_BROADCASTS(T)                                                                       \
    NON_UNIFORM_BROADCASTS(T##2)                                                                    \
    NON_UNIFORM_BROADCASTS(T##3)                                                                    \
    NON_UNIFORM_BROADCASTS(T##4)                                                                    \
    NON_UNIFORM_BROADCASTS(T##8)                                                                    \
    NON_UNIFORM_BROADCASTS(T##16)                                                                   \
    OVLD SET_DEPENDENT T sub_group_broadcast_first(T x)                                             \
    {                                                                                               \
        uint mask = active();                                                                       \
        return shfl(mask, x, (uint)__builtin_ctz(mask));                                            \
    }                                                                                               \
    OVLD SET_DEPENDENT int sub_group_non_uniform_all_equal(T x)                                    \
    {                                                                                               \
        return sub_group_non_uniform_all(sub_group_broadcast_first(x) == x);                       \
    }
SCALAR_TYPES(BROADCAST_FIRST, _)

/* A ballot's bits are sub-group local ids; a warp's fit in .x. */
OVLD SET_DEPENDENT uint4 sub_group_ballot(int predicate)
{
    return (uint4)(__nvvm_vote_ballot_sync(active(), predicate != 0), 0, 0, 0);
}
OVLD int sub_group_inverse_ballot(uint4 value) { return (value.x >> lane()) & 1; }
OVLD int sub_group_ballot_bit_extract(uint4 value, uint index) { return (value[(index >> 5) & 3] >> (index & 31)) & 1; }
/* only the bits of sub-group local ids count: those of the dispatch's
 * largest sub-group */
static uint id_bits(void) { return low_lanes(get_max_sub_group_size()); }
OVLD uint sub_group_ballot_bit_count(uint4 value) { return (uint)popcount(value.x & id_bits()); }
OVLD uint sub_group_ballot_inclusive_scan(uint4 value) { return (uint)popcount(value.x & low_lanes(lane() + 1)); }
OVLD uint sub_group_ballot_exclusive_scan(uint4 value) { return (uint)popcount(value.x & low_lanes(lane())); }
OVLD uint sub_group_ballot_find_lsb(uint4 value) { return (uint)__builtin_ctz(value.x & id_bits()); }
OVLD uint sub_group_ballot_find_msb(uint4 value) { return 31u - (uint)__builtin_clz(value.x & id_bits()); }

/* the masks' bits run up to the largest sub-group of the dispatch */
OVLD uint4 get_sub_group_eq_mask(void) { return (uint4)(1u << lane(), 0, 0, 0); }
OVLD uint4 get_sub_group_ge_mask(void) { return (uint4)(id_bits() & ~low_lanes(lane()), 0, 0, 0); }
OVLD uint4 get_sub_group_gt_mask(void) { return (uint4)(id_bits() & ~low_lanes(lane() + 1), 0, 0, 0); }
OVLD uint4 get_sub_group_le_mask(void) { return (uint4)(low_lanes(lane() + 1), 0, 0, 0); }
OVLD uint4 get_sub_group_lt_mask(void) { return (uint4)(low_lanes(lane()), 0, 0, 0); }

/* ---- cl_khr_subgroup_shuffle, _shuffle_relative, _rotate ---------------------------- */
#define SHUFFLES(T, MAX, MIN, _)                                                                    \
    OVLD T sub_group_shuffle(T x, uint id) { return shfl(active(), x, id); }                        \
    OVLD T sub_group_shuffle_xor(T x, uint mask) { return shfl(active(), x, lane() ^ mask); }       \
    OVLD T sub_group_shuffle_up(T x, uint delta) { return shfl(active(), x, lane() - delta); }      \
    OVLD T sub_group_shuffle_down(T x, uint delta) { return shfl(active(), x, lane() + delta); }    \
    OVLD T sub_group_rotate(T x, int delta)                                                         \
    {                                                                                               \
        uint n = size_of_sub_group();                                                               \
        return shfl(members(), x, (lane() + (uint)delta % n) % n);                                  \
    }                                                                                               \
    OVLD T sub_group_clustered_rotate(T x, int delta, uint clustersize)                             \
    {                                                                                               \
        uint l = lane(), base = l & ~(clustersize - 1);                                             \
        return shfl(members(), x, base + (l - base + (uint)delta % clustersize) % clustersize);     \
    }
SCALAR_TYPES(SHUFFLES, _)

/* ---- cl_khr_subgroup_non_uniform_arithmetic, _clustered_reduce -----------------------
 * Any lanes may be active, so each lane folds the active lanes' values one by
 * one in lane order, over a loop every active lane runs alike. */
#define FOLD_ACTIVE(T, MAX, MIN, op, x, take)                                                       \
    uint mask = active(), l = lane();                                                               \
    (void)l;                                                                                        \
    T acc = (T)ID_##op(MAX, MIN);                                                                   \
    for (uint rest = mask; rest; rest &= rest - 1) {                                                \
        uint j = (uint)__builtin_ctz(rest);                                                         \
        T other = shfl(mask, x, j);                                                                 \
        if (take)                                                                                   \
            acc = OP_##op(acc, other);                                                              \
    }                                                                                               \
    return acc;

#define NON_UNIFORM_ARITHMETIC(T, MAX, MIN, op)                                                     \
    OVLD SET_DEPENDENT T sub_group_non_uniform_reduce_##op(T x) { FOLD_ACTIVE(T, MAX, MIN, op, x, true) }         \
    OVLD SET_DEPENDENT T sub_group_non_uniform_scan_inclusive_##op(T x) { FOLD_ACTIVE(T, MAX, MIN, op, x, j <= l) } \
    OVLD SET_DEPENDENT T sub_group_non_uniform_scan_exclusive_##op(T x) { FOLD_ACTIVE(T, MAX, MIN, op, x, j < l) } \
    /* the lanes of l's cluster: clustersize is a power of two, the same everywhere */              \
    OVLD SET_DEPENDENT T sub_group_clustered_reduce_##op(T x, uint clustersize)                                   \
    {                                                                                               \
        FOLD_ACTIVE(T, MAX, MIN, op, x, (j & ~(clustersize - 1)) == (l & ~(clustersize - 1)))      \
    }

#define ARITHMETIC(T, MAX, MIN, _)                                                                  \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, add)                                                        \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, mul)                                                        \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, min)                                                        \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, max)
#define BITWISE(T, MAX, MIN, _)                                                                     \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, and)                                                        \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, or)                                                         \
    NON_UNIFORM_ARITHMETIC(T, MAX, MIN, xor)
SCALAR_TYPES(ARITHMETIC, _)
INTEGER_TYPES(BITWISE, _)
NON_UNIFORM_ARITHMETIC(int, INT_MAX, INT_MIN, logical_and)
NON_UNIFORM_ARITHMETIC(int, INT_MAX, INT_MIN, logical_or)
NON_UNIFORM_ARITHMETIC(int, INT_MAX, INT_MIN, logical_xor)
