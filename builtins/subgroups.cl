/* Sub-group functions (OpenCL C 3.0 section 6.15.17, feature __opencl_c_subgroups
 * and cl_khr_subgroups) and cl_khr_subgroup_extended_types: work-item
 * functions, sub_group_barrier, sub_group_all/any, sub_group_broadcast,
 * sub_group_reduce_<op>, sub_group_scan_inclusive_<op> and
 * sub_group_scan_exclusive_<op> for op = add, min, max.
 *
 * A sub-group is MOSAIC_SUB_GROUP_SIZE (S) work-items consecutive in local
 * linear id: work-item l is in sub-group l / S with sub-group local id l % S;
 * the last sub-group of a group whose size is not a multiple of S is partial
 * (docs/subgroups.md).  Work-items of a sub-group exchange values through
 * ctx->wg_scratch (__mosaic_sg_values, __mosaic_sg_area) between sub-group
 * barriers (__mosaic_sub_group_barrier, which the compiler cuts into regions
 * run one sub-group at a time, or the device runs as a fiber switch):
 *   1. every work-item stores its value at its sub-group's values[sub-group
 *      local id]; barrier
 *   2. every work-item folds the values it needs in order of sub-group local
 *      id (so all work-items of the sub-group get the same float sum), in a
 *      loop of S steps that skips what it does not need (no trip count of
 *      its own: unrolled, and vectorised across the sub-group's work-items);
 *      barrier (so the next sub-group function may write the area again)
 * All work-items of the sub-group must reach the call (the OpenCL rule for
 * these functions). */
#include "builtins.h"

#define CTX __mosaic_get_ctx()
#define S MOSAIC_SUB_GROUP_SIZE
#define SG_BARRIER() __mosaic_sub_group_barrier(CTX)

static size_t __mosaic_linear(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return (__mosaic_get_local_id(2) * c->local_size[1] + __mosaic_get_local_id(1)) * c->local_size[0] +
           __mosaic_get_local_id(0);
}

static size_t __mosaic_group_items(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return c->local_size[0] * c->local_size[1] * c->local_size[2];
}

static size_t __mosaic_enqueued_items(void)
{
    const __mosaic_wg_ctx *c = CTX;
    return c->enqueued_local_size[0] * c->enqueued_local_size[1] * c->enqueued_local_size[2];
}

/* ---- work-item functions ---------------------------------------------------- */
#define FIRST() __mosaic_get_sub_group_first()
OVLD uint get_sub_group_local_id(void) { return (uint)(__mosaic_linear() - FIRST()); }
OVLD uint get_sub_group_id(void) { return (uint)(FIRST() / S); }
OVLD uint get_num_sub_groups(void) { return (uint)((__mosaic_group_items() + S - 1) / S); }
OVLD uint get_enqueued_num_sub_groups(void) { return (uint)((__mosaic_enqueued_items() + S - 1) / S); }

OVLD uint get_sub_group_size(void)
{
    size_t first = FIRST(), n = __mosaic_group_items();
    return (uint)(n - first < S ? n - first : S);
}

/* Invariant for the dispatch: the enqueued group's (its first sub-group's) size. */
OVLD uint get_max_sub_group_size(void)
{
    size_t n = __mosaic_enqueued_items();
    return (uint)(n < S ? n : S);
}

/* ---- barriers ------------------------------------------------------------------
 * The work-items of a sub-group run on one thread, one after another: the
 * call orders memory as the work-group barrier does. */
OVLD void sub_group_barrier(cl_mem_fence_flags flags) { SG_BARRIER(); }
OVLD void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { SG_BARRIER(); }

/* The scratch after the work-group collectives' 8 bytes per work-item:
 * 8 bytes per work-item for reductions and scans (T values indexed by local
 * linear id: a sub-group's are consecutive, so are the stores of a vectorised
 * loop over its work-items), then MOSAIC_SUB_GROUP_SCRATCH bytes per
 * sub-group for broadcasts. */
static char *__mosaic_sg_values(void) { return CTX->wg_scratch + 8 * __mosaic_enqueued_items(); }

/* The caller's sub-group's 8 bytes per work-item, as T values in order of
 * sub-group local id (whatever T's size: sub-groups at different calls, of
 * different types, each keep to their own bytes). */
#define SLOTS(T) ((T *)(__mosaic_sg_values() + 8 * FIRST()))

static char *__mosaic_sg_area(void)
{
    return CTX->wg_scratch + 16 * __mosaic_enqueued_items() + MOSAIC_SUB_GROUP_SCRATCH * (FIRST() / S);
}


/* T's reduce and scans for one operation (OP) with its identity (ID). */
#define COLLECTIVE(T, NAME, OP, ID)                                                                \
    OVLD T sub_group_reduce_##NAME(T x)                                                            \
    {                                                                                              \
        T *s = SLOTS(T);                                                                           \
        s[get_sub_group_local_id()] = x;                                                           \
        SG_BARRIER();                                                                              \
        uint n = get_sub_group_size();                                                             \
        T acc = s[0];                                                                              \
        for (uint j = 1; j < S; j++)                                                               \
            acc = j < n ? OP(acc, s[j]) : acc;                                                     \
        SG_BARRIER();                                                                              \
        return acc;                                                                                \
    }                                                                                              \
    OVLD T sub_group_scan_inclusive_##NAME(T x)                                                    \
    {                                                                                              \
        T *s = SLOTS(T);                                                                           \
        uint i = get_sub_group_local_id();                                                         \
        s[i] = x;                                                                                  \
        SG_BARRIER();                                                                              \
        T acc = s[0];                                                                              \
        for (uint j = 1; j < S; j++)                                                               \
            acc = j <= i ? OP(acc, s[j]) : acc;                                                    \
        SG_BARRIER();                                                                              \
        return acc;                                                                                \
    }                                                                                              \
    OVLD T sub_group_scan_exclusive_##NAME(T x)                                                    \
    {                                                                                              \
        T *s = SLOTS(T);                                                                           \
        uint i = get_sub_group_local_id();                                                         \
        s[i] = x;                                                                                  \
        SG_BARRIER();                                                                              \
        T acc = i ? s[0] : (T)(ID);                                                                \
        for (uint j = 1; j < S; j++)                                                               \
            acc = j < i ? OP(acc, s[j]) : acc;                                                     \
        SG_BARRIER();                                                                              \
        return acc;                                                                                \
    }

/* sub_group_broadcast from the work-item with sub-group local id `id`
 * (the same for every work-item: the OpenCL rule). */
#define BROADCAST(T)                                                                               \
    OVLD T sub_group_broadcast(T x, uint id)                                                       \
    {                                                                                              \
        T *s = (T *)__mosaic_sg_area();                                                            \
        if (get_sub_group_local_id() == id)                                                        \
            *s = x;                                                                                \
        SG_BARRIER();                                                                              \
        T r = *s;                                                                                  \
        SG_BARRIER();                                                                              \
        return r;                                                                                  \
    }

#define INTEGER_TYPE(T, TMIN, TMAX) COLLECTIVE_INTEGER_OPS(COLLECTIVE, T, TMIN, TMAX) BROADCAST(T)
#define FLOAT_TYPE(T) COLLECTIVE_FLOAT_OPS(COLLECTIVE, T) BROADCAST(T)
COLLECTIVE_TYPES(INTEGER_TYPE, FLOAT_TYPE)

OVLD int sub_group_all(int predicate) { return sub_group_reduce_min(predicate != 0); }
OVLD int sub_group_any(int predicate) { return sub_group_reduce_max(predicate != 0); }

/* ---- cl_khr_subgroup_extended_types ----------------------------------------------
 * reduce and scans for the 8- and 16-bit integers, broadcast for them and for
 * every vector type (up to a double16: MOSAIC_SUB_GROUP_SCRATCH bytes). */
INTEGER_TYPE(char, CHAR_MIN, CHAR_MAX)
INTEGER_TYPE(uchar, 0, UCHAR_MAX)
INTEGER_TYPE(short, SHRT_MIN, SHRT_MAX)
INTEGER_TYPE(ushort, 0, USHRT_MAX)

#define BROADCAST_VECTORS(T) BROADCAST(T##2) BROADCAST(T##3) BROADCAST(T##4) BROADCAST(T##8) BROADCAST(T##16)
BROADCAST_VECTORS(char)
BROADCAST_VECTORS(uchar)
BROADCAST_VECTORS(short)
BROADCAST_VECTORS(ushort)
BROADCAST_VECTORS(int)
BROADCAST_VECTORS(uint)
BROADCAST_VECTORS(long)
BROADCAST_VECTORS(ulong)
BROADCAST_VECTORS(float)
BROADCAST_VECTORS(double)

/* ---- non-uniform functions: cl_khr_subgroup_non_uniform_vote ----------------------
 * They need not be reached by every work-item of the sub-group: they act on
 * the active ones, those that reach the call together.  A non-uniform
 * sub-group barrier (__mosaic_sub_group_active) waits for them and returns
 * their mask; values go through the work-items' own 8-byte slots (never the
 * sub-group's broadcast area, which a uniform broadcast of inactive
 * work-items may be holding), and a second such barrier keeps the slots
 * until every active work-item has read them. */
#define NU_BARRIER() __mosaic_sub_group_active(CTX, 0)

/* Each work-item's own 8 bytes, whatever T: work-items of one sub-group that
 * wait at different calls, of different types, keep to their own bytes.  A
 * sub-group of n work-items has 8 n bytes from 8 * FIRST(), as 4-byte words:
 * work-item i's low word is word i and its high word word n + i, so the
 * sub-group's low words are consecutive and a value of 4 bytes or less (kept
 * widened to a word) is one vector store across a sub-group's work-items
 * (a stride of 8 bytes would be a scatter). */
#define NU_SLOTS() ((uint *)(__mosaic_sg_values() + 8 * FIRST()))
#define NU_SET(T, w, i, x) __mosaic_nu_set_##T(w, i, x)
#define NU_AT(T, w, i) __mosaic_nu_at_##T(w, i)
#define NU_KEEP(T, x) __mosaic_nu_keep_##T(x)
#define NU_WORDS_OF(T)                                                                             \
    static void __mosaic_nu_set_##T(uint *w, uint i, T x)                                          \
    {                                                                                              \
        union { T v; uint u[2]; } p;                                                               \
        p.u[0] = p.u[1] = 0;                                                                       \
        p.v = x;                                                                                   \
        w[i] = p.u[0];                                                                             \
        if (sizeof(T) > 4)                                                                         \
            w[get_sub_group_size() + i] = p.u[1];                                                  \
    }                                                                                              \
    static T __mosaic_nu_at_##T(const uint *w, uint i)                                             \
    {                                                                                              \
        union { T v; uint u[2]; } p;                                                               \
        p.u[0] = w[i];                                                                             \
        p.u[1] = sizeof(T) > 4 ? w[get_sub_group_size() + i] : 0;                                  \
        return p.v;                                                                                \
    }                                                                                              \
    /* x, computed before the call's last barrier (__mosaic_keep) */                               \
    static T __mosaic_nu_keep_##T(T x)                                                             \
    {                                                                                              \
        union { T v; ulong u; uint w; } p;                                                         \
        p.u = 0;                                                                                   \
        p.v = x;                                                                                   \
        if (sizeof(T) > 4)                                                                         \
            p.u = __mosaic_keep(p.u);                                                              \
        else                                                                                       \
            p.w = __mosaic_keep32(p.w);                                                            \
        return p.v;                                                                                \
    }
NU_WORDS_OF(char)
NU_WORDS_OF(uchar)
NU_WORDS_OF(short)
NU_WORDS_OF(ushort)
NU_WORDS_OF(int)
NU_WORDS_OF(uint)
NU_WORDS_OF(long)
NU_WORDS_OF(ulong)
NU_WORDS_OF(float)
NU_WORDS_OF(double)

OVLD int sub_group_elect(void)
{
    uint active = NU_BARRIER();
    return get_sub_group_local_id() == (uint)ctz(active);
}

/* T's value from each active work-item, folded with OP (whose identity is
 * ID) in sub-group local id order (as NU_OP: every slot read). */
#define NU_FOLD(T, x, OP, ID, result)                                                              \
    do {                                                                                           \
        uint *s_ = NU_SLOTS();                                                                     \
        NU_SET(T, s_, get_sub_group_local_id(), (x));                                              \
        uint active_ = NU_BARRIER();                                                               \
        T acc_ = (ID);                                                                             \
        for (uint j_ = 0; j_ < S; j_++) {                                                          \
            T v_ = NU_AT(T, s_, j_);                                                               \
            acc_ = OP(acc_, (active_ >> j_) & 1 ? v_ : (T)(ID));                                   \
        }                                                                                          \
        acc_ = NU_KEEP(T, acc_);                                                                   \
        NU_BARRIER();                                                                              \
        result = acc_;                                                                             \
    } while (0)

#define AND_I(a, b) ((a) & (b))
#define OR_I(a, b) ((a) | (b))

OVLD int sub_group_non_uniform_all(int predicate)
{
    int r;
    NU_FOLD(int, predicate != 0, AND_I, 1, r);
    return r;
}

OVLD int sub_group_non_uniform_any(int predicate)
{
    int r;
    NU_FOLD(int, predicate != 0, OR_I, 0, r);
    return r;
}

/* Whether every active work-item's value equals the first active one's. */
#define ALL_EQUAL(T)                                                                               \
    OVLD int sub_group_non_uniform_all_equal(T value)                                              \
    {                                                                                              \
        uint *s = NU_SLOTS();                                                                      \
        NU_SET(T, s, get_sub_group_local_id(), value);                                             \
        uint active = NU_BARRIER();                                                                \
        T first = NU_AT(T, s, ctz(active));                                                        \
        int equal = 1;                                                                             \
        for (uint j = 0; j < S; j++) {                                                             \
            T v = NU_AT(T, s, j); /* (read whether active or not: as NU_OP) */                     \
            equal &= !((active >> j) & 1) || v == first;                                           \
        }                                                                                          \
        equal = NU_KEEP(int, equal);                                                               \
        NU_BARRIER();                                                                              \
        return equal;                                                                              \
    }

ALL_EQUAL(char)
ALL_EQUAL(uchar)
ALL_EQUAL(short)
ALL_EQUAL(ushort)
ALL_EQUAL(int)
ALL_EQUAL(uint)
ALL_EQUAL(long)
ALL_EQUAL(ulong)
ALL_EQUAL(float)
ALL_EQUAL(double)

/* ---- cl_khr_subgroup_ballot ---------------------------------------------------------
 * Ballots are uint4 with bit i of .x for sub-group local id i (S <= 32). */

/* 8 bytes from the active work-item with sub-group local id `id`. */
static ulong __mosaic_nu_exchange(ulong x, uint id)
{
    uint *s = NU_SLOTS();
    NU_SET(ulong, s, get_sub_group_local_id(), x);
    NU_BARRIER();
    ulong r = NU_AT(ulong, s, id < S ? id : 0);
    NU_BARRIER();
    return r;
}

/* Any type, 8 bytes at a time through the work-items' own slots. */
#define NU_BROADCAST(T)                                                                            \
    OVLD T sub_group_non_uniform_broadcast(T x, uint id)                                           \
    {                                                                                              \
        union { T v; ulong u[(sizeof(T) + 7) / 8]; } in, out;                                      \
        in.v = x;                                                                                  \
        for (uint k = 0; k < (sizeof(T) + 7) / 8; k++)                                             \
            out.u[k] = __mosaic_nu_exchange(in.u[k], id);                                          \
        return out.v;                                                                              \
    }

#define BROADCAST_FIRST(T)                                                                         \
    OVLD T sub_group_broadcast_first(T x)                                                          \
    {                                                                                              \
        uint *s = NU_SLOTS();                                                                      \
        NU_SET(T, s, get_sub_group_local_id(), x);                                                 \
        uint active = NU_BARRIER();                                                                \
        T r = NU_AT(T, s, ctz(active));                                                            \
        NU_BARRIER();                                                                              \
        return r;                                                                                  \
    }

#define NU_BROADCAST_ALL(T)                                                                        \
    NU_BROADCAST(T) NU_BROADCAST(T##2) NU_BROADCAST(T##3) NU_BROADCAST(T##4) NU_BROADCAST(T##8)    \
    NU_BROADCAST(T##16) BROADCAST_FIRST(T)
NU_BROADCAST_ALL(char)
NU_BROADCAST_ALL(uchar)
NU_BROADCAST_ALL(short)
NU_BROADCAST_ALL(ushort)
NU_BROADCAST_ALL(int)
NU_BROADCAST_ALL(uint)
NU_BROADCAST_ALL(long)
NU_BROADCAST_ALL(ulong)
NU_BROADCAST_ALL(float)
NU_BROADCAST_ALL(double)

OVLD uint4 sub_group_ballot(int predicate)
{
    uint bits;
    NU_FOLD(uint, (uint)(predicate != 0) << get_sub_group_local_id(), OR_I, 0, bits);
    return (uint4)(bits, 0, 0, 0);
}

/* The bits of sub-group local ids below get_max_sub_group_size(). */
static uint __mosaic_max_mask(void) { return (1u << get_max_sub_group_size()) - 1; }

OVLD int sub_group_inverse_ballot(uint4 value) { return (value.x >> get_sub_group_local_id()) & 1; }

OVLD int sub_group_ballot_bit_extract(uint4 value, uint index)
{
    uint w = (index >> 5) & 3, word = w == 0 ? value.x : w == 1 ? value.y : w == 2 ? value.z : value.w;
    return (word >> (index & 31)) & 1;
}

OVLD uint sub_group_ballot_bit_count(uint4 value) { return popcount(value.x & __mosaic_max_mask()); }

OVLD uint sub_group_ballot_inclusive_scan(uint4 value)
{
    return popcount(value.x & ((2u << get_sub_group_local_id()) - 1));
}

OVLD uint sub_group_ballot_exclusive_scan(uint4 value)
{
    return popcount(value.x & ((1u << get_sub_group_local_id()) - 1));
}

OVLD uint sub_group_ballot_find_lsb(uint4 value) { return ctz(value.x & __mosaic_max_mask()); }
OVLD uint sub_group_ballot_find_msb(uint4 value) { return 31 - clz(value.x & __mosaic_max_mask()); }

OVLD uint4 get_sub_group_eq_mask(void) { return (uint4)(1u << get_sub_group_local_id(), 0, 0, 0); }
OVLD uint4 get_sub_group_ge_mask(void)
{
    return (uint4)(__mosaic_max_mask() & ~((1u << get_sub_group_local_id()) - 1), 0, 0, 0);
}
OVLD uint4 get_sub_group_gt_mask(void)
{
    return (uint4)(__mosaic_max_mask() & ~((2u << get_sub_group_local_id()) - 1), 0, 0, 0);
}
OVLD uint4 get_sub_group_le_mask(void) { return (uint4)((2u << get_sub_group_local_id()) - 1, 0, 0, 0); }
OVLD uint4 get_sub_group_lt_mask(void) { return (uint4)((1u << get_sub_group_local_id()) - 1, 0, 0, 0); }

/* ---- cl_khr_subgroup_shuffle, _shuffle_relative, _rotate ------------------------------
 * The value of the work-item with sub-group local id `src` (an index beyond
 * the sub-group gives an undefined value: the spec's rule; masked so it
 * stays in the sub-group's slots). */
#define NU_READ(T, x, src)                                                                         \
    {                                                                                              \
        uint *s = NU_SLOTS();                                                                      \
        NU_SET(T, s, get_sub_group_local_id(), x);                                                 \
        NU_BARRIER();                                                                              \
        T r = NU_AT(T, s, (src) & (S - 1));                                                        \
        NU_BARRIER();                                                                              \
        return r;                                                                                  \
    }

/* a mod b for b > 0, whatever a's sign */
static uint __mosaic_mod(long a, uint b)
{
    long r = a % (long)b;
    return (uint)(r < 0 ? r + (long)b : r);
}

#define SHUFFLES(T)                                                                                \
    OVLD T sub_group_shuffle(T x, uint index) NU_READ(T, x, index)                                 \
    OVLD T sub_group_shuffle_xor(T x, uint mask) NU_READ(T, x, get_sub_group_local_id() ^ mask)    \
    OVLD T sub_group_shuffle_up(T x, uint delta) NU_READ(T, x, get_sub_group_local_id() - delta)   \
    OVLD T sub_group_shuffle_down(T x, uint delta) NU_READ(T, x, get_sub_group_local_id() + delta) \
    OVLD T sub_group_rotate(T x, int delta)                                                        \
        NU_READ(T, x, __mosaic_mod((long)get_sub_group_local_id() + delta, get_max_sub_group_size())) \
    OVLD T sub_group_clustered_rotate(T x, int delta, uint clustersize)                            \
        NU_READ(T, x, (get_sub_group_local_id() & ~(clustersize - 1)) +                            \
                          __mosaic_mod((long)(get_sub_group_local_id() & (clustersize - 1)) + delta, \
                                       clustersize))

SHUFFLES(char)
SHUFFLES(uchar)
SHUFFLES(short)
SHUFFLES(ushort)
SHUFFLES(int)
SHUFFLES(uint)
SHUFFLES(long)
SHUFFLES(ulong)
SHUFFLES(float)
SHUFFLES(double)

/* ---- cl_khr_subgroup_non_uniform_arithmetic, _clustered_reduce ---------------------------
 * OP folded over the active work-items j for which IN(j) holds, in order of
 * sub-group local id; ID when there is none (an exclusive scan's first).
 * Every slot is read, the others' values unused: no branch on the mask, so
 * the reads are the same for every work-item (not gathers in a region that
 * runs only some of them).  STEP folds slot j's value v in:
 *  - STEP_ID where OP(a, START) is a for every a (the integers' operations,
 *    a float sum from -0, a product from 1): the work-items left out give
 *    START, and the chain from one step to the next is OP alone;
 *  - STEP_FIRST otherwise (fmin and fmax: fmin(NaN, inf) is inf): the first
 *    value folded in is taken as it is. */
#define STEP_ID(OP, START, acc, v, in, have) OP(acc, (in) ? (v) : (START))
#define STEP_FIRST(OP, START, acc, v, in, have) ((in) ? ((have) ? OP(acc, v) : (v)) : (acc))

#define NU_OP(T, x, OP, ID, STEP, START, IN)                                                       \
    {                                                                                              \
        uint *s = NU_SLOTS();                                                                      \
        uint me = get_sub_group_local_id();                                                        \
        NU_SET(T, s, me, x);                                                                       \
        uint active = NU_BARRIER();                                                                \
        T acc = (T)(START);                                                                        \
        bool have = false;                                                                         \
        for (uint j = 0; j < S; j++) {                                                             \
            T v = NU_AT(T, s, j);                                                                  \
            bool in = ((active >> j) & 1) && (IN);                                                 \
            acc = STEP(OP, (T)(START), acc, v, in, have);                                          \
            have |= in;                                                                            \
        }                                                                                          \
        acc = NU_KEEP(T, have ? acc : (T)(ID));                                                    \
        NU_BARRIER();                                                                              \
        return acc;                                                                                \
    }

#define MUL(a, b) ((a) * (b))
#define XOR_I(a, b) ((a) ^ (b))
#define LAND(a, b) ((a) && (b))
#define LOR(a, b) ((a) || (b))
#define LXOR(a, b) (!(a) != !(b))

#define NU_ARITH(T, NAME, OP, ID, STEP, START)                                                     \
    OVLD T sub_group_non_uniform_reduce_##NAME(T x) NU_OP(T, x, OP, ID, STEP, START, true)         \
    OVLD T sub_group_non_uniform_scan_inclusive_##NAME(T x) NU_OP(T, x, OP, ID, STEP, START, j <= me) \
    OVLD T sub_group_non_uniform_scan_exclusive_##NAME(T x) NU_OP(T, x, OP, ID, STEP, START, j < me) \
    OVLD T sub_group_clustered_reduce_##NAME(T x, uint clustersize)                                \
        NU_OP(T, x, OP, ID, STEP, START, (j & ~(clustersize - 1)) == (me & ~(clustersize - 1)))

#define NU_INTEGER(T, TMIN, TMAX)                                                                  \
    NU_ARITH(T, add, ADD, 0, STEP_ID, 0)                                                           \
    NU_ARITH(T, mul, MUL, 1, STEP_ID, 1)                                                           \
    NU_ARITH(T, min, MIN_I, TMAX, STEP_ID, TMAX)                                                   \
    NU_ARITH(T, max, MAX_I, TMIN, STEP_ID, TMIN)                                                   \
    NU_ARITH(T, and, AND_I, ~(T)0, STEP_ID, ~(T)0)                                                 \
    NU_ARITH(T, or, OR_I, 0, STEP_ID, 0)                                                           \
    NU_ARITH(T, xor, XOR_I, 0, STEP_ID, 0)

#define NU_FLOAT(T)                                                                                \
    NU_ARITH(T, add, ADD, 0, STEP_ID, -0.0)                                                        \
    NU_ARITH(T, mul, MUL, 1, STEP_ID, 1)                                                           \
    NU_ARITH(T, min, MIN_F, INFINITY, STEP_FIRST, INFINITY)                                        \
    NU_ARITH(T, max, MAX_F, -INFINITY, STEP_FIRST, -INFINITY)

NU_INTEGER(char, CHAR_MIN, CHAR_MAX)
NU_INTEGER(uchar, 0, UCHAR_MAX)
NU_INTEGER(short, SHRT_MIN, SHRT_MAX)
NU_INTEGER(ushort, 0, USHRT_MAX)
NU_INTEGER(int, INT_MIN, INT_MAX)
NU_INTEGER(uint, 0, UINT_MAX)
NU_INTEGER(long, LONG_MIN, LONG_MAX)
NU_INTEGER(ulong, 0, ULONG_MAX)
NU_FLOAT(float)
NU_FLOAT(double)

/* the logical operations: on predicates (0 or not), giving 0 or 1 */
#define NU_LOGICAL(NAME, OP, ID)                                                                   \
    OVLD int sub_group_non_uniform_reduce_logical_##NAME(int p) NU_OP(int, p != 0, OP, ID, STEP_ID, ID, true) \
    OVLD int sub_group_non_uniform_scan_inclusive_logical_##NAME(int p)                            \
        NU_OP(int, p != 0, OP, ID, STEP_ID, ID, j <= me)                                           \
    OVLD int sub_group_non_uniform_scan_exclusive_logical_##NAME(int p)                            \
        NU_OP(int, p != 0, OP, ID, STEP_ID, ID, j < me)                                            \
    OVLD int sub_group_clustered_reduce_logical_##NAME(int p, uint clustersize)                    \
        NU_OP(int, p != 0, OP, ID, STEP_ID, ID, (j & ~(clustersize - 1)) == (me & ~(clustersize - 1)))
NU_LOGICAL(and, LAND, 1)
NU_LOGICAL(or, LOR, 0)
NU_LOGICAL(xor, LXOR, 0)

/* ---- half (cl_khr_fp16): the float functions' forms ------------------------------------ */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CONST_FN half fmin(half x, half y);
CONST_FN half fmax(half x, half y);
NU_WORDS_OF(half)
FLOAT_TYPE(half)
BROADCAST_VECTORS(half)
ALL_EQUAL(half)
NU_BROADCAST_ALL(half)
SHUFFLES(half)
NU_FLOAT(half)
