/*
 * Checking mode: the accesses of a kernel's __local objects that cannot
 * race (compiler.h: MOSAIC_CHECK_LOCAL_WINDOW, _NO_WRITER, _OWN_SLOT).
 *
 * The work-items of a group all run the code between two work-group
 * barriers before any runs on past the second: two accesses can race only
 * when they can run between the same two barriers, in the same interval.
 * An interval is named by what starts it, the kernel's entry or a barrier
 * call; each instruction gets the set of those from which it is reached
 * without passing another barrier (a fixed point over the blocks).  A
 * barrier inside a function the kernel calls is not seen: intervals only
 * grow.  A barrier that only part of a group reaches is reported as such,
 * and then these sets may be wrong.
 *
 * That is used for an object only this kernel reaches, through GEPs and
 * casts of it that end in loads, stores, atomics and memcpy/memset: a
 * __local variable, or a __local argument, no pointer to which is stored,
 * selected, passed or made an integer.  Three kinds of its accesses cannot
 * race:
 *   - a read in no interval that holds a write of the object (NO_WRITER:
 *     the device need not record it);
 *   - an atomic whose neighbours in its intervals, itself included, are
 *     all atomics of work-group scope or wider (ATOMICS_ONLY: a
 *     histogram's increments; the device need not record it);
 *   - an access whose neighbours in its intervals are all at the same
 *     slot, start + c + sum(stride[d] * get_local_id(d)), of the same
 *     bytes, where the launch's local size keeps the work-items' slots
 *     apart (OWN_SLOT: the device checks that from the site's slot; each
 *     object has one, or none of its accesses is marked), or apart from
 *     it otherwise (apart(): a tree reduction's; planes_apart(): a double
 *     buffer's).
 * Once every byte of the object is written, either needs no call at all
 * (its window, windows.c).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/check/check.h"
#include "compiler/ir/cfg.h"
#include "compiler/ir/util.h"

enum { MAX_BARRIERS = 63 };                             /* bit 0 of an interval set: the kernel's entry */
enum { MAX_OBJECTS = MOSAIC_CHECK_LOCAL_WINDOWS / 2 }; /* two windows an object */

/* A test every run of an access passed: get_local_id(0) < g (LT, g a
 * value the same for the whole group, not below 0), >= g (GE), or == k
 * (EQ). */
typedef struct guard {
    enum { NO_GUARD, LT, GE, EQ } kind;
    LLVMValueRef g;
    int64_t k;
} guard;

typedef struct access {
    LLVMValueRef inst, pointer;
    int object;
    uint64_t here;    /* its intervals */
    bool writes, plain_read;
    bool wide_atomic; /* an atomic of work-group scope or wider */
    bool slotted;     /* at start + c + sum(s[d] * local id d) + k * u + the loops' */
    int64_t c, s[3];
    LLVMValueRef u;   /* a value the same for the whole group, NULL: none (k 0) */
    int64_t k;
    LLVMValueRef v;   /* a second one, an index of its own (`s[cur][l - off]`), NULL: none */
    int64_t kv;
    LLVMValueRef counter[MOSAIC_CHECK_SLOT_LOOPS]; /* loop counters, each loop[i].stride bytes a step */
    mosaic_check_slot_loop loop[MOSAIC_CHECK_SLOT_LOOPS];
    guard guard;      /* a condition on its local id that every run of it passed */
    uint64_t bytes;
    uint64_t marks;
    int pair;         /* its pair of windows (lo->pairs) */
} access;

struct mc_local_objects {
    LLVMTargetDataRef td;
    unsigned first_window; /* MOSAIC_CHECK_ARG_WINDOWS * the kernel's parameters */
    struct object {
        LLVMValueRef root;
        uint64_t writes;   /* the intervals with a write of it */
        int64_t plane;     /* the planes' bytes that OWN_SLOT relies on (planes_apart), -1: more than one */
        int first_pair;    /* its accesses' pair of windows, but for OWN_SLOT's of another shape */
    } objects[MAX_OBJECTS];
    unsigned num_objects;
    /* a pair of windows (an object's, or one more for another shape of its
     * OWN_SLOT accesses, `exclusive` of the others) and its accesses' slot */
    struct pair {
        int object;
        mc_slot slot;
    } pairs[MAX_OBJECTS];
    unsigned num_pairs;
    LLVMValueRef barriers[MAX_BARRIERS];
    unsigned num_barriers;
    LLVMBasicBlockRef *blocks; /* the kernel's blocks, and the intervals at each one's start */
    uint64_t *block_in;
    unsigned num_blocks;
    access *accesses;
    size_t num_accesses;
    const mc_cfg *cfg; /* the kernel's graph, while the accesses are found */
};

static bool is_barrier(LLVMValueRef i) { return LLVMIsACallInst(i) && mc_calls_named(i, "__mosaic_barrier"); }

/* Do the uses of v (a __local object, or what GEPs and casts made of it)
 * all reach memory in f, by address? */
static bool stays_in(LLVMValueRef v, LLVMValueRef f, int depth)
{
    if (depth > 16)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAConstantExpr(user)) {
            LLVMOpcode op = LLVMGetConstOpcode(user);
            if ((op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast) ||
                LLVMGetOperand(user, 0) != v || !stays_in(user, f, depth + 1))
                return false;
            continue;
        }
        if (!LLVMIsAInstruction(user) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) != f)
            return false;
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMLoad:
            continue;
        case LLVMStore:
            if (LLVMGetOperand(user, 0) == v)
                return false; /* the pointer itself stored */
            continue;
        case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
            if (LLVMGetOperand(user, 0) != v)
                return false;
            continue;
        case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
            if (LLVMGetOperand(user, 0) != v || !stays_in(user, f, depth + 1))
                return false;
            continue;
        case LLVMPtrToInt: /* only to be made a pointer again (the builtins' atomics) */
            for (LLVMUseRef w = LLVMGetFirstUse(user); w; w = LLVMGetNextUse(w))
                if (!LLVMIsAIntToPtrInst(LLVMGetUser(w)) || !stays_in(LLVMGetUser(w), f, depth + 1))
                    return false;
            continue;
        case LLVMCall: {
            LLVMValueRef callee = mc_called_function(user);
            const char *name = callee ? LLVMGetValueName(callee) : "";
            if (!strncmp(name, "llvm.lifetime.", 14) || (mc_fills(name) && LLVMGetOperand(user, 0) == v) ||
                (mc_copies(name) && (LLVMGetOperand(user, 0) == v || LLVMGetOperand(user, 1) == v)))
                continue;
            return false;
        }
        default:
            return false;
        }
    }
    return true;
}

/* Which of the objects p's root is, or -1. */
static int object_of(const mc_local_objects *lo, LLVMValueRef p)
{
    bool unused = true;
    LLVMValueRef root = mc_pointer_root(p, &unused);
    for (unsigned k = 0; k < lo->num_objects; k++)
        if (lo->objects[k].root == root)
            return (int)k;
    return -1;
}

static int block_index(const mc_local_objects *lo, LLVMBasicBlockRef bb)
{
    for (unsigned k = 0; k < lo->num_blocks; k++)
        if (lo->blocks[k] == bb)
            return (int)k;
    return -1;
}

/* The intervals after instruction i, `here` before it. */
static uint64_t past(const mc_local_objects *lo, LLVMValueRef i, uint64_t here)
{
    for (unsigned b = 0; b < lo->num_barriers; b++)
        if (lo->barriers[b] == i)
            return 2ull << b;
    return here;
}

/* ---- slots: affine in the local ids ---- */

enum { TERMS = 2 * MOSAIC_CHECK_SLOT_LOOPS }; /* a loop's counter is one term, or its quotient and remainder */

typedef struct affine {
    int64_t c, s[3];
    LLVMValueRef u; /* uniform(): NULL, or k * u is a term */
    int64_t k;
    LLVMValueRef v; /* offset_of: a second uniform term kv * v, of an index of its own */
    int64_t kv;
    /* terms of loop counters (mc_counted()), each with its factor (> 0): the
     * counter itself (w 0), or its quotient (!rem) or remainder (rem) by w */
    LLVMValueRef counter[TERMS];
    int64_t per[TERMS], w_of[TERMS];
    bool rem[TERMS];
    /* offset_of: an index i / w of elements of w * per bytes, whose i % w
     * of elements of per bytes is to come (then i * per: the two make i) */
    LLVMValueRef quotient;
    int64_t w, quotient_per;
} affine;

/* Is v i / w (*rem false) or i % w (*rem true), w a constant above 0,
 * division signed or not (*is_signed)? */
static bool divides(LLVMValueRef v, LLVMValueRef *i, int64_t *w, bool *rem, bool *is_signed)
{
    if (!LLVMIsABinaryOperator(v) || !LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op != LLVMSDiv && op != LLVMUDiv && op != LLVMSRem && op != LLVMURem)
        return false;
    *i = LLVMGetOperand(v, 0);
    *w = LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
    *rem = op == LLVMSRem || op == LLVMURem;
    *is_signed = op == LLVMSDiv || op == LLVMSRem;
    return *w > 0;
}

/* a's loop terms plus k times b's; false where they are more than a slot
 * holds, or a factor is not above 0 */
static bool add_counters(affine *a, const affine *b, int64_t k)
{
    for (int j = 0; j < TERMS && b->counter[j]; j++) {
        int i = 0;
        while (i < TERMS && a->counter[i] &&
               (a->counter[i] != b->counter[j] || a->w_of[i] != b->w_of[j] || a->rem[i] != b->rem[j]))
            i++;
        int64_t term, sum;
        if (i == TERMS || __builtin_mul_overflow(b->per[j], k, &term) ||
            __builtin_add_overflow(a->counter[i] ? a->per[i] : 0, term, &sum) || sum <= 0)
            return false;
        a->counter[i] = b->counter[j], a->per[i] = sum, a->w_of[i] = b->w_of[j], a->rem[i] = b->rem[j];
    }
    return true;
}

/* Is v the same for every work-item of the group, at every point where
 * they all compute it: constants, the kernel's arguments, loads of the
 * work-group's context, and arithmetic and (with `phis`) phis of those (a
 * phi only where every way into its block is a branch on such a value, or
 * none)?  Without phis: the same for the group's whole run.  (`seen`: the
 * phis on the way, taken as the same.) */
static bool same_for_group(LLVMValueRef v, LLVMValueRef *seen, int depth, bool phis)
{
    if (LLVMIsAConstantInt(v) || LLVMIsAArgument(v))
        return true;
    if (!LLVMIsAInstruction(v) || depth > 12)
        return false;
    for (int i = 0; i < depth; i++)
        if (seen[i] == v)
            return true;
    seen[depth] = NULL; /* (a phi's below: only the phis on the way count) */
    if (LLVMIsALoadInst(v))
        return !LLVMGetVolatile(v) && mc_context_root(v);
    if (LLVMIsAPHINode(v)) {
        seen[depth] = v;
        for (unsigned i = 0; phis && i < LLVMCountIncoming(v); i++) {
            LLVMValueRef br = LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(v, i));
            if (!same_for_group(LLVMGetIncomingValue(v, i), seen, depth + 1, phis) || !br ||
                !LLVMIsABranchInst(br) ||
                (LLVMIsConditional(br) && !same_for_group(LLVMGetCondition(br), seen, depth + 1, phis)))
                return false;
        }
        return phis;
    }
    if (!LLVMIsABinaryOperator(v) && !LLVMIsACastInst(v) && !LLVMIsAICmpInst(v) && !LLVMIsASelectInst(v))
        return false;
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        if (!same_for_group(LLVMGetOperand(v, i), seen, depth + 1, phis))
            return false;
    return true;
}

static bool uniform(LLVMValueRef v, LLVMValueRef *seen, int depth) { return same_for_group(v, seen, depth, true); }

/* Integer v as c + sum(s[d] * get_local_id(d)) + k * u, u uniform(),
 * where it is one. */
static bool affine_of(LLVMValueRef v, affine *a, int depth)
{
    memset(a, 0, sizeof *a);
    if (depth > 16)
        return false;
    if (LLVMIsAConstantInt(v)) {
        a->c = LLVMConstIntGetSExtValue(v);
        return true;
    }
    if (LLVMIsACallInst(v) && mc_calls_named(v, "__mosaic_get_local_id") && LLVMIsAConstantInt(LLVMGetOperand(v, 0))) {
        uint64_t d = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 0));
        if (d > 2)
            return false;
        a->s[d] = 1;
        return true;
    }
    if (mc_without_int_casts(v) != v) /* (local ids and indices of __local arrays are small) */
        return affine_of(mc_without_int_casts(v), a, depth + 1);
    if (LLVMIsATruncInst(v))
        return affine_of(LLVMGetOperand(v, 0), a, depth + 1);
    LLVMValueRef first;
    int64_t step;
    if (mc_counted(v, &first, &step)) { /* (before uniform(): a loop's counter is not one value) */
        a->counter[0] = v, a->per[0] = 1;
        return true;
    }
    LLVMValueRef i;
    int64_t w;
    bool rem, is_signed; /* (a counter is never below 0: signed or not, the same) */
    if (divides(v, &i, &w, &rem, &is_signed) && mc_counted(mc_without_int_casts(i), &first, &step)) {
        a->counter[0] = mc_without_int_casts(i), a->per[0] = 1, a->w_of[0] = w, a->rem[0] = rem;
        return true;
    }
    LLVMValueRef seen[16];
    bool same = uniform(v, seen, 0);
    if (!LLVMIsABinaryOperator(v) || (same && LLVMGetInstructionOpcode(v) != LLVMAdd &&
                                      LLVMGetInstructionOpcode(v) != LLVMSub && LLVMGetInstructionOpcode(v) != LLVMMul &&
                                      LLVMGetInstructionOpcode(v) != LLVMShl)) {
        if (!same)
            return false;
        a->u = v, a->k = 1;
        return true;
    }
    affine x, y;
    LLVMValueRef l = LLVMGetOperand(v, 0), r = LLVMGetOperand(v, 1);
    if (LLVMGetInstructionOpcode(v) == LLVMOr) { /* l | k, l's terms multiples of a power of 2 above k: l + k */
        int64_t k = LLVMIsAConstantInt(r) ? LLVMConstIntGetSExtValue(r) : -1;
        if (k < 0 || !affine_of(l, a, depth + 1))
            return false;
        uint64_t low = (uint64_t)(a->c | a->s[0] | a->s[1] | a->s[2] | a->k | a->kv);
        for (int j = 0; j < TERMS && a->counter[j]; j++)
            low |= (uint64_t)a->per[j];
        if (low & (((uint64_t)1 << (64 - __builtin_clzll((uint64_t)k | 1))) - 1))
            return false;
        a->c += k;
        return true;
    }
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd: case LLVMSub: {
        int64_t sign = LLVMGetInstructionOpcode(v) == LLVMAdd ? 1 : -1;
        if (!affine_of(l, &x, depth + 1) || !affine_of(r, &y, depth + 1) || (x.u && y.u && x.u != y.u))
            return false;
        a->c = x.c + sign * y.c;
        for (int d = 0; d < 3; d++)
            a->s[d] = x.s[d] + sign * y.s[d];
        a->u = x.u ? x.u : y.u;
        a->k = x.k + sign * y.k;
        return add_counters(a, &x, 1) && add_counters(a, &y, sign);
    }
    case LLVMMul: case LLVMShl: {
        if (LLVMIsAConstantInt(l) && LLVMGetInstructionOpcode(v) == LLVMMul) {
            LLVMValueRef t = l;
            l = r, r = t;
        }
        if (!LLVMIsAConstantInt(r) || !affine_of(l, &x, depth + 1))
            return false;
        int64_t k = LLVMConstIntGetSExtValue(r);
        if (LLVMGetInstructionOpcode(v) == LLVMShl) {
            if (k < 0 || k > 30)
                return false;
            k = (int64_t)1 << k;
        }
        a->c = x.c * k;
        for (int d = 0; d < 3; d++)
            a->s[d] = x.s[d] * k;
        a->u = x.u, a->k = x.k * k;
        return add_counters(a, &x, k);
    }
    default:
        return false;
    }
}

/* The byte offset of p from root (GEPs and casts of it), affine in the
 * local ids.  An index i / w of rows of w elements, then i % w of elements
 * (`tile[i / W][i % W]`), is i elements: (i / w) * w + i % w = i. */
static bool offset_of(const mc_local_objects *lo, LLVMValueRef p, LLVMValueRef root, affine *a, int depth)
{
    memset(a, 0, sizeof *a);
    if (p == root)
        return true;
    if (depth > 16)
        return false;
    bool gep = LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
    bool cast = LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p) ||
                (LLVMIsAConstantExpr(p) && (LLVMGetConstOpcode(p) == LLVMBitCast || LLVMGetConstOpcode(p) == LLVMAddrSpaceCast));
    LLVMValueRef from = LLVMGetNumOperands(p) ? LLVMGetOperand(p, 0) : NULL;
    if (LLVMIsAIntToPtrInst(p) && LLVMIsAPtrToIntInst(from)) /* (made an integer and back) */
        cast = true, from = LLVMGetOperand(from, 0);
    if ((!gep && !cast) || !offset_of(lo, from, root, a, depth + 1))
        return false;
    if (cast)
        return true;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    for (int i = 1, n = LLVMGetNumOperands(p); i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(p, i);
        int64_t size;
        int step = mc_gep_step(lo->td, index, i, &t, &size);
        if (!step)
            return false;
        if (step == 1) { /* (a struct's field: size its offset) */
            a->c += size;
            continue;
        }
        affine x;
        LLVMValueRef i_of;
        int64_t w;
        bool rem, is_signed;
        if (divides(mc_without_int_casts(index), &i_of, &w, &rem, &is_signed)) {
            LLVMValueRef q = a->quotient;
            if (!rem && !q && size % w == 0) { /* (its remainder to come) */
                a->quotient = mc_without_int_casts(index), a->w = w, a->quotient_per = size / w;
                continue;
            }
            if (rem && q && w == a->w && size == a->quotient_per && LLVMGetOperand(q, 0) == i_of &&
                (LLVMGetInstructionOpcode(q) == LLVMSDiv) == is_signed) {
                a->quotient = NULL;
                index = i_of; /* the two indices together */
            } /* (else a loop counter's quotient or remainder, affine_of's terms) */
        }
        if (!affine_of(index, &x, 0))
            return false;
        a->c += x.c * size;
        for (int d = 0; d < 3; d++)
            a->s[d] += x.s[d] * size;
        if (x.u && a->u && x.u != a->u) { /* (a plane's, then an index's: `s[cur][l - off]`) */
            if (a->v && a->v != x.u)
                return false;
            a->v = x.u, a->kv += x.k * size;
        } else if (x.u) {
            a->u = x.u, a->k += x.k * size;
        }
        if (!add_counters(a, &x, size))
            return false;
    }
    return true;
}

/* (A term k * u is the same for two work-items only at the same moment:
 * where u keeps its value between two barriers.  A loop's counter, which
 * does not, is one of the slot's coordinates instead.) */
static bool stable(LLVMValueRef v);

/* The same slot but for the constant c: two accesses of one work-item
 * (an object whose slot spans the constants, span_constants). */
static bool same_slot_but_c(const access *x, const access *y)
{
    return x->slotted && y->slotted && x->bytes == y->bytes && !memcmp(x->s, y->s, sizeof x->s) && x->u == y->u &&
           x->k == y->k && (!x->u || stable(x->u)) && x->v == y->v && x->kv == y->kv && (!x->v || stable(x->v)) &&
           !memcmp(x->counter, y->counter, sizeof x->counter) &&
           !memcmp(x->loop, y->loop, sizeof x->loop);
}

static bool same_slot(const access *x, const access *y) { return x->c == y->c && same_slot_but_c(x, y); }

/* The same slot's shape, what a site tells the device of it: its bytes,
 * the local ids' strides, the loops' coordinates. */
static bool same_shape(const access *x, const access *y)
{
    return x->bytes == y->bytes && !memcmp(x->s, y->s, sizeof x->s) && !memcmp(x->loop, y->loop, sizeof x->loop);
}

/* ---- guards: a tree reduction's `if (l < s) t[l] += t[l + s]` ---- */

/* Is v at least 0 read signed (a quotient or shift of something, a phi of
 * such)?  (`seen`: the phis on the way.) */
/* Is v at most a group's size in a dimension (MOSAIC_MAX_LOCAL_SIZE): its
 * local size loaded from the work-group's context, or a quotient or shift
 * of one? */
static bool group_sized(LLVMTargetDataRef td, LLVMValueRef v)
{
    LLVMOpcode op = LLVMIsABinaryOperator(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
    if ((op == LLVMUDiv || op == LLVMLShr) && LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return group_sized(td, LLVMGetOperand(v, 0));
    LLVMValueRef p = LLVMIsALoadInst(v) ? LLVMGetOperand(v, 0) : NULL, field;
    if (!p || !LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) < 3 ||
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(p)) != LLVMStructTypeKind ||
        !LLVMIsAConstantInt(LLVMGetOperand(p, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(p, 1)) != 0 ||
        !LLVMIsAConstantInt(field = LLVMGetOperand(p, 2)) || !LLVMIsACallInst(LLVMGetOperand(p, 0)) ||
        !mc_calls_named(LLVMGetOperand(p, 0), "__mosaic_get_ctx"))
        return false;
    unsigned long long at = LLVMOffsetOfElement(td, LLVMGetGEPSourceElementType(p),
                                                (unsigned)LLVMConstIntGetZExtValue(field));
    return at == offsetof(mosaic_wg_ctx, local_size) || at == offsetof(mosaic_wg_ctx, enqueued_local_size);
}

static bool non_negative(LLVMTargetDataRef td, LLVMValueRef v, LLVMValueRef *seen, int depth)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetSExtValue(v) >= 0;
    if (!LLVMIsAInstruction(v) || depth > 12)
        return false;
    for (int i = 0; i < depth; i++)
        if (seen[i] == v)
            return true;
    seen[depth] = NULL; /* (a phi's below: only the phis on the way count) */
    LLVMValueRef r = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMUDiv:
        return LLVMIsAConstantInt(r) && LLVMConstIntGetZExtValue(r) >= 2;
    case LLVMLShr:
        return LLVMIsAConstantInt(r) && LLVMConstIntGetZExtValue(r) >= 1;
    case LLVMZExt:
        return true;
    case LLVMTrunc: /* (of a group's size: it fits) */
        return group_sized(td, LLVMGetOperand(v, 0));
    case LLVMPHI:
        seen[depth] = v;
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            if (!non_negative(td, LLVMGetIncomingValue(v, i), seen, depth + 1))
                return false;
        return true;
    default:
        return false;
    }
}

static bool calls_barrier(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_barrier(i))
            return true;
    return false;
}

static bool no_barrier(LLVMBasicBlockRef bb, const void *data)
{
    (void)data;
    return !calls_barrier(bb);
}

/* Does v keep one value between two barriers: no way from its block back
 * to it that passes no barrier (where it is a loop's, every iteration
 * passes one)? */
static bool stable(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return true;
    LLVMBasicBlockRef home = LLVMGetInstructionParent(v);
    return calls_barrier(home) || !mc_cycles_back(home, no_barrier, NULL);
}

/* The test every run of inst passed, if any: a two-way branch, on
 * get_local_id(0) < g, >= g or == k, whose way taken leads alone into a
 * block that holds inst or dominates it. */
static guard guard_of(const mc_local_objects *lo, LLVMValueRef inst)
{
    guard none = {NO_GUARD, NULL, 0};
    const mc_cfg *g = lo->cfg;
    int ways[64], n = g ? mc_cfg_deciding_ways(g, mc_cfg_block(g, LLVMGetInstructionParent(inst)), ways, 64) : 0;
    for (int i = 0; i < n; i++) {
        LLVMValueRef c = LLVMGetCondition(LLVMGetBasicBlockTerminator(g->blocks[ways[i] / 2]));
        if (!LLVMIsAICmpInst(c))
            continue;
        affine id;
        LLVMValueRef rhs = LLVMGetOperand(c, 1), seen[16];
        LLVMIntPredicate p = LLVMGetICmpPredicate(c);
        if (ways[i] & 1) /* (the test failed) */
            p = mc_inverse_predicate(p);
        if (affine_of(LLVMGetOperand(c, 0), &id, 0) && !id.c && !id.u && !id.counter[0] && id.s[0] == 1 && !id.s[1] &&
            !id.s[2]) {
            if ((p == LLVMIntSLT || (p == LLVMIntULT && non_negative(lo->td, rhs, seen, 0))) && uniform(rhs, seen, 0))
                return (guard){LT, rhs, 0};
            if ((p == LLVMIntUGE || (p == LLVMIntSGE && non_negative(lo->td, rhs, seen, 0))) && uniform(rhs, seen, 0))
                return (guard){GE, rhs, 0};
            if (p == LLVMIntEQ && LLVMIsAConstantInt(rhs))
                return (guard){EQ, NULL, LLVMConstIntGetSExtValue(rhs)};
        }
    }
    return none;
}

/* Can access a of one work-item and access x of another, of the same
 * object between the same two barriers, not touch the same bytes?  Where
 * both are at the same slot; where a is at get_local_id(0) + e and x at
 * + e + u elements, u under the barrier's u (stable, the same for all:
 * uniform), and a runs only for get_local_id(0) < u (so x's work-item
 * would be at least u); the same the other way; or where x reaches one
 * element, only for get_local_id(0) == k, which is a's for k's work-item. */
static bool apart(const mc_local_objects *lo, const access *a, const access *x)
{
    if (same_slot(a, x))
        return true;
    int64_t size = (int64_t)a->bytes;
    if (!a->slotted || !x->slotted || a->bytes != x->bytes || a->s[0] != size || a->s[1] || a->s[2] || size <= 0 ||
        a->counter[0] || x->counter[0] || a->v || x->v)
        return false;
    if (!x->s[0] && !x->s[1] && !x->s[2]) /* x at one element */
        return !x->u && !a->u && x->guard.kind == EQ && (x->c - a->c) % size == 0 &&
               (x->c - a->c) / size == x->guard.k;
    LLVMValueRef u = a->u ? a->u : x->u;
    if (memcmp(a->s, x->s, sizeof a->s) || x->c != a->c || !u || (a->u && a->u != u) || (x->u && x->u != u) ||
        !stable(u))
        return false;
    if (x->k - a->k == size) /* x is u elements past a: a's work-items are below u */
        return a->guard.kind == LT && a->guard.g == u;
    if (a->k - x->k == size)
        return x->guard.kind == LT && x->guard.g == u;
    return false;
}

/* ---- double buffers: `s[cur ^ 1][l] = s[cur][l] + s[cur][l - off]` ---- */

/* The plane a uniform value u picks: u itself, or b ^ k for a constant k
 * (*k 0 for u itself), casts of b aside. */
static LLVMValueRef plane_base(LLVMValueRef u, int64_t *k)
{
    LLVMValueRef b = mc_without_int_casts(u), r;
    *k = 0;
    if (LLVMIsABinaryOperator(b) && LLVMGetInstructionOpcode(b) == LLVMXor) {
        for (int i = 0; i < 2; i++)
            if (LLVMIsAConstantInt(r = LLVMGetOperand(b, 1 - i))) {
                *k = LLVMConstIntGetSExtValue(r);
                return mc_without_int_casts(LLVMGetOperand(b, i));
            }
    }
    return b;
}

/* Is access a inside its plane: at k * u plus its own slot, or, where it
 * runs only for get_local_id(0) >= g, g elements below it (`l - off`), so
 * between the plane's start and its own slot?  (The device then checks that
 * the group's slots, from 0 up, fit in k bytes: mosaic_check_site's
 * slot_plane.) */
static bool in_plane(const access *a)
{
    if (!a->slotted || !a->u || a->k <= 0 || a->c || a->counter[0] || a->s[0] < 0 || a->s[1] < 0 || a->s[2] < 0)
        return false;
    return !a->v || (a->guard.kind == GE && mc_without_int_casts(a->guard.g) == mc_without_int_casts(a->v) &&
                     a->s[0] > 0 && a->kv == -a->s[0] && !a->s[1] && !a->s[2]);
}

/* Can accesses a and x of two work-items not touch the same bytes because
 * each is inside its plane and the planes differ?  Their planes are picked
 * by b and b ^ k (k odd: the two differ in their lowest bit, casts or
 * not), b the same for the group between the two barriers (stable).  A use
 * of b ^ k always sees b's latest value: b ^ k is computed after b, and
 * where b is computed again, so is b ^ k before its next use (it dominates
 * it).  So at the two accesses the planes are b's value and its flip. */
static bool planes_apart(const access *a, const access *x)
{
    int64_t ka, kx;
    if (!in_plane(a) || !in_plane(x) || a->k != x->k || a->bytes != x->bytes || memcmp(a->s, x->s, sizeof a->s))
        return false;
    LLVMValueRef b = plane_base(a->u, &ka);
    return b == plane_base(x->u, &kx) && ((ka ^ kx) & 1) && stable(b);
}

/* ---- exclusive sides of branches the same for the whole group ---- */

/* Is v the same for the whole group where they all compute it (uniform)? */
static bool uniform_value(LLVMValueRef v)
{
    LLVMValueRef seen[16];
    return uniform(v, seen, 0);
}

/* Is v the same for the group's whole run (no phi)? */
static bool invariant_value(LLVMValueRef v)
{
    LLVMValueRef seen[16];
    return same_for_group(v, seen, 0, false);
}

/* The two-way branches on a value `same` says of whose one way alone leads
 * to inst (mc_cfg_deciding_ways): each branch's block * 2 + the way's
 * index, up to n of them; how many. */
static int ways_to(const mc_local_objects *lo, LLVMValueRef inst, bool (*same)(LLVMValueRef), int *ways, int n)
{
    const mc_cfg *g = lo->cfg;
    int all[64], found = 0, m = mc_cfg_deciding_ways(g, mc_cfg_block(g, LLVMGetInstructionParent(inst)), all, 64);
    for (int i = 0; i < m && found < n; i++)
        if (same(LLVMGetCondition(LLVMGetBasicBlockTerminator(g->blocks[all[i] / 2]))))
            ways[found++] = all[i];
    return found;
}

/* Do a and x lie on the two ways of one branch on a value `same` says of? */
static bool two_ways(const mc_local_objects *lo, const access *a, const access *x, bool (*same)(LLVMValueRef))
{
    int a_ways[16], x_ways[16], na = ways_to(lo, a->inst, same, a_ways, 16), nx = ways_to(lo, x->inst, same, x_ways, 16);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nx; j++)
            if (a_ways[i] / 2 == x_ways[j] / 2 && a_ways[i] != x_ways[j])
                return true;
    return false;
}

/* The blocks from whose start inst runs next without a barrier between
 * (lo->cfg's n blocks); false where memory ran out. */
static bool reaching(const mc_local_objects *lo, LLVMValueRef inst, bool *start)
{
    const mc_cfg *g = lo->cfg;
    int n = g->n, *stack = malloc((size_t)n * sizeof *stack), top = 0;
    int t = mc_cfg_block(g, LLVMGetInstructionParent(inst));
    memset(start, 0, (size_t)n * sizeof *start);
    if (!stack || t < 0) {
        free(stack);
        return false;
    }
    start[t] = true;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[t]); i && i != inst; i = LLVMGetNextInstruction(i))
        start[t] &= !is_barrier(i);
    if (start[t])
        stack[top++] = t;
    while (top) {
        int b = stack[--top];
        for (int k = 0; k < g->npred[b]; k++) {
            int p = g->pred[b][k];
            if (p == t || start[p] || calls_barrier(g->blocks[p]))
                continue; /* (t's start known above; p's ways in followed already, or through a barrier) */
            start[p] = true;
            stack[top++] = p;
        }
    }
    free(stack);
    return true;
}

/* Does `to` (whose blocks are `start`) run after inst without a barrier
 * between? */
static bool runs_on_to(const mc_local_objects *lo, LLVMValueRef inst, LLVMValueRef to, const bool *start)
{
    const mc_cfg *g = lo->cfg;
    for (LLVMValueRef i = LLVMGetNextInstruction(inst); i; i = LLVMGetNextInstruction(i)) {
        if (i == to)
            return true;
        if (is_barrier(i))
            return false;
    }
    int b = mc_cfg_block(g, LLVMGetInstructionParent(inst));
    for (int k = 0; b >= 0 && k < g->nsucc[b]; k++)
        if (start[g->succ[b][k]])
            return true;
    return b < 0;
}

/* Can access a of one work-item and access x of another of its group never
 * run between the same two barriers?  Where they lie on the two ways of a
 * branch on a value the same for the group's whole run (no work-item of
 * the group runs the other: gemm's `if (a_trans)`); or of a branch on a
 * value the same for the whole group where they all compute it (uniform:
 * they all take the same way), where neither runs after the other without
 * a barrier between (which a loop around the branch would allow): gemm's
 * whole tiles and its edge's, loaded by two loops on the two ways of `if
 * (i0 + 64 <= m && p0 + 16 <= k)`. */
static bool exclusive(const mc_local_objects *lo, const access *a, const access *x)
{
    if (!lo->cfg)
        return false;
    if (two_ways(lo, a, x, invariant_value))
        return true;
    if (!two_ways(lo, a, x, uniform_value))
        return false;
    size_t n = (size_t)lo->cfg->n;
    bool *sets = malloc(2 * n * sizeof *sets), ok = sets && reaching(lo, a->inst, sets) &&
                                                       reaching(lo, x->inst, sets + n);
    ok = ok && !runs_on_to(lo, a->inst, x->inst, sets + n) && !runs_on_to(lo, x->inst, a->inst, sets);
    free(sets);
    return ok;
}

/* ---- loops' counters as a slot's coordinates ---- */

/* The coordinate of a slot that counter makes at inst, moving it per bytes
 * a step of 1 (w 0), or per a step of its remainder by w and split_per a
 * step of its quotient: its first value must be affine in the local ids
 * alone, at least 0 (then every value is). */
static bool loop_coordinate(const mc_local_objects *lo, LLVMValueRef inst, LLVMValueRef counter, int64_t per,
                            int64_t w, int64_t split_per, mosaic_check_slot_loop *out)
{
    LLVMValueRef first;
    int64_t step;
    affine f;
    if (!mc_counted(counter, &first, &step) || step >= (1 << 30) || !affine_of(first, &f, 0) || f.u || f.counter[0] ||
        f.c < 0 || f.s[0] < 0 || f.s[1] < 0 || f.s[2] < 0)
        return false;
    *out = (mosaic_check_slot_loop){.stride = per, .lid = {f.s[0], f.s[1], f.s[2]}, .first = f.c, .step = step,
                                    .bound = mc_counter_bound(lo->cfg, inst, counter), .split = w, .split_stride = split_per};
    return true;
}

/* a's loop coordinates from the terms of off: each counter alone, or its
 * quotient and remainder by the same w (`t[v / 8][v % 8 * 4]`) */
static bool loop_coordinates(const mc_local_objects *lo, access *a, const affine *off)
{
    int n = 0;
    for (int j = 0; j < TERMS && off->counter[j]; j++) {
        LLVMValueRef v = off->counter[j];
        int k = 0, q = -1, r = -1, alone = -1;
        while (k < n && a->counter[k] != v)
            k++;
        if (k < n)
            continue; /* (its coordinate made) */
        for (int i = j; i < TERMS && off->counter[i]; i++) {
            if (off->counter[i] != v)
                continue;
            int *at = !off->w_of[i] ? &alone : off->rem[i] ? &r : &q;
            if (*at >= 0)
                return false;
            *at = i;
        }
        if (n == MOSAIC_CHECK_SLOT_LOOPS ||
            (alone >= 0 ? q >= 0 || r >= 0 : q < 0 || r < 0 || off->w_of[q] != off->w_of[r]))
            return false;
        a->counter[n] = v;
        if (!(alone >= 0 ? loop_coordinate(lo, a->inst, v, off->per[alone], 0, 0, &a->loop[n])
                         : loop_coordinate(lo, a->inst, v, off->per[r], off->w_of[r], off->per[q], &a->loop[n])))
            return false;
        n++;
    }
    return true;
}

/* off with the quotient that offset_of held for a remainder that did not
 * come as one index (`t[v / 8][v % 8 * 2]`) as a loop counter's term, if
 * it is one; false where it is not. */
static bool held_quotient(affine *off)
{
    LLVMValueRef first, i = off->quotient ? mc_without_int_casts(LLVMGetOperand(off->quotient, 0)) : NULL;
    int64_t step;
    if (!i)
        return true;
    if (!mc_counted(i, &first, &step))
        return false;
    affine q = {.counter = {i}, .per = {off->quotient_per * off->w}, .w_of = {off->w}};
    off->quotient = NULL;
    return add_counters(off, &q, 1);
}

/* ---- finding them ---- */

static bool add_access(mc_local_objects *lo, LLVMValueRef inst, LLVMValueRef p, uint64_t here, bool writes,
                       bool plain_read, uint64_t bytes, size_t *room)
{
    int o = object_of(lo, p);
    if (o < 0)
        return true;
    if (lo->num_accesses == *room) {
        *room = *room ? 2 * *room : 64;
        access *more = realloc(lo->accesses, *room * sizeof *more);
        if (!more)
            return false;
        lo->accesses = more;
    }
    access *a = &lo->accesses[lo->num_accesses++];
    *a = (access){.inst = inst, .pointer = p, .object = o, .here = here, .writes = writes, .plain_read = plain_read,
                  .bytes = bytes};
    bool atomic = LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) ||
                  ((LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) &&
                   LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic);
    unsigned scope = atomic ? mc_check_scope_of(inst) : MOSAIC_CHECK_SCOPE_WORK_ITEM;
    a->wide_atomic = scope == MOSAIC_CHECK_SCOPE_WORK_GROUP || scope == MOSAIC_CHECK_SCOPE_DEVICE ||
                     scope == MOSAIC_CHECK_SCOPE_ALL;
    affine off;
    if (bytes && offset_of(lo, p, lo->objects[o].root, &off, 0) && held_quotient(&off)) {
        a->slotted = true;
        a->c = off.c;
        memcpy(a->s, off.s, sizeof a->s);
        a->u = off.k ? off.u : NULL;
        a->k = off.k;
        a->v = off.kv ? off.v : NULL;
        a->kv = off.kv;
        a->slotted = loop_coordinates(lo, a, &off);
    }
    a->guard = guard_of(lo, inst);
    if (writes)
        lo->objects[o].writes |= here;
    return true;
}

/* The accesses of the objects in the kernel's blocks, with their intervals. */
static bool find_accesses(mc_local_objects *lo)
{
    size_t room = 0;
    for (unsigned k = 0; k < lo->num_blocks; k++) {
        uint64_t here = lo->block_in[k];
        for (LLVMValueRef i = LLVMGetFirstInstruction(lo->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            bool ok = true;
            switch (LLVMGetInstructionOpcode(i)) {
            case LLVMLoad:
                ok = add_access(lo, i, LLVMGetOperand(i, 0), here, false,
                                LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic && !LLVMGetVolatile(i),
                                LLVMStoreSizeOfType(lo->td, LLVMTypeOf(i)), &room);
                break;
            case LLVMStore:
                ok = add_access(lo, i, LLVMGetOperand(i, 1), here, true, false,
                                LLVMStoreSizeOfType(lo->td, LLVMTypeOf(LLVMGetOperand(i, 0))), &room);
                break;
            case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
                ok = add_access(lo, i, LLVMGetOperand(i, 0), here, true, false, 0, &room);
                break;
            case LLVMCall: {
                LLVMValueRef callee = mc_called_function(i);
                const char *name = callee ? LLVMGetValueName(callee) : "";
                if (mc_copies(name))
                    ok = add_access(lo, i, LLVMGetOperand(i, 1), here, false, true, 0, &room);
                if (ok && (mc_copies(name) || mc_fills(name)))
                    ok = add_access(lo, i, LLVMGetOperand(i, 0), here, true, false, 0, &room);
                break;
            }
            default:
                break;
            }
            if (!ok)
                return false;
            here = past(lo, i, here);
        }
    }
    return true;
}

/* Its own slot's constant offsets (`al[p][i]`, `al[p + 1][i]`... of a
 * work-item) as one more coordinate of a pair's slot: base + j * D, j
 * below their count (D the greatest common divisor of their distances).
 * False where the slot has no room for it. */
static bool span_constants(const mc_local_objects *lo, unsigned pair, mc_slot *slot)
{
    int64_t base = INT64_MAX, top = INT64_MIN, d = 0;
    for (size_t i = 0; i < lo->num_accesses; i++) {
        const access *a = &lo->accesses[i];
        if (a->pair == (int)pair && (a->marks & MOSAIC_CHECK_LOCAL_OWN_SLOT))
            base = a->c < base ? a->c : base, top = a->c > top ? a->c : top;
    }
    for (size_t i = 0; i < lo->num_accesses; i++) {
        const access *a = &lo->accesses[i];
        if (a->pair == (int)pair && (a->marks & MOSAIC_CHECK_LOCAL_OWN_SLOT))
            for (int64_t x = a->c - base; x;) { /* (d = gcd(d, x)) */
                int64_t t = d % x;
                d = x, x = t;
            }
    }
    if (base == top)
        return true;
    int j = 0;
    while (j < MOSAIC_CHECK_SLOT_LOOPS && slot->loop[j].stride)
        j++;
    if (j == MOSAIC_CHECK_SLOT_LOOPS)
        return false;
    slot->loop[j] = (mosaic_check_slot_loop){.stride = d, .step = 1, .bound = (top - base) / d + 1};
    return true;
}

/* Each access's marks (the top of this file). */
static void mark(mc_local_objects *lo)
{
    for (size_t i = 0; i < lo->num_accesses; i++) {
        access *a = &lo->accesses[i];
        if (a->plain_read && !(a->here & lo->objects[a->object].writes)) {
            a->marks = MOSAIC_CHECK_LOCAL_NO_WRITER;
            continue;
        }
        bool atomics_only = a->wide_atomic;
        for (size_t j = 0; atomics_only && j < lo->num_accesses; j++) {
            const access *x = &lo->accesses[j];
            atomics_only = x->object != a->object || !(x->here & a->here) || x->wide_atomic;
        }
        if (atomics_only) {
            a->marks = MOSAIC_CHECK_LOCAL_ATOMICS_ONLY;
            continue;
        }
        /* (a slot that no local id moves is no work-item's own in a group of several) */
        bool moves = a->s[0] || a->s[1] || a->s[2];
        for (int j = 0; j < MOSAIC_CHECK_SLOT_LOOPS; j++)
            moves |= a->loop[j].stride && (a->loop[j].lid[0] || a->loop[j].lid[1] || a->loop[j].lid[2]);
        bool own = a->slotted && moves, planes = false;
        for (size_t j = 0; own && j < lo->num_accesses; j++) {
            const access *x = &lo->accesses[j];
            own = x->object != a->object || !(x->here & a->here) || (!x->writes && !a->writes) || apart(lo, a, x) ||
                  same_slot_but_c(a, x) || /* (the object's slot then spans the c's: below) */
                  exclusive(lo, a, x);     /* (another shape: a pair of windows of its own, below) */
            if (!own && planes_apart(a, x))
                own = planes = true;
        }
        if (own)
            a->marks = MOSAIC_CHECK_LOCAL_OWN_SLOT;
        int64_t *plane = &lo->objects[a->object].plane;
        if (own && planes)
            *plane = !*plane || *plane == a->k ? a->k : -1;
    }
    /* a pair of windows for each shape of an object's OWN_SLOT accesses,
     * whose slot its sites tell the device (which checks each shape's slots
     * apart): the object's own pair for its first shape and its other
     * accesses, one more for each other shape while there is room; else no
     * OWN_SLOT for that shape */
    const access *shape[MAX_OBJECTS] = {NULL};
    lo->num_pairs = lo->num_objects;
    for (unsigned o = 0; o < lo->num_objects; o++)
        lo->objects[o].first_pair = (int)o, lo->pairs[o].object = (int)o;
    for (size_t i = 0; i < lo->num_accesses; i++) {
        access *a = &lo->accesses[i];
        a->pair = lo->objects[a->object].first_pair;
        if (!(a->marks & MOSAIC_CHECK_LOCAL_OWN_SLOT))
            continue;
        int p = -1; /* (the object's own pair first) */
        for (unsigned q = 0; q < lo->num_pairs && p < 0; q++)
            if (lo->pairs[q].object == a->object && (!shape[q] || same_shape(shape[q], a)))
                p = (int)q;
        if (p < 0 && lo->num_pairs < MAX_OBJECTS)
            p = (int)lo->num_pairs++, lo->pairs[p].object = a->object;
        if (p < 0) {
            a->marks &= ~MOSAIC_CHECK_LOCAL_OWN_SLOT;
            continue;
        }
        shape[p] = shape[p] ? shape[p] : a;
        a->pair = p;
    }
    for (unsigned p = 0; p < lo->num_pairs; p++) {
        mc_slot *slot = &lo->pairs[p].slot;
        const struct object *ob = &lo->objects[lo->pairs[p].object];
        if (!shape[p])
            continue;
        memcpy(slot->stride, shape[p]->s, sizeof shape[p]->s);
        slot->bytes = shape[p]->bytes;
        memcpy(slot->loop, shape[p]->loop, sizeof shape[p]->loop);
        /* (planes: a slot from 0 up, of the local ids alone, that the device fits in one) */
        slot->plane = ob->plane;
        if (span_constants(lo, p, slot) && (!ob->plane || (ob->plane > 0 && !slot->loop[0].stride)))
            continue;
        for (size_t i = 0; i < lo->num_accesses; i++)
            if (lo->accesses[i].pair == (int)p)
                lo->accesses[i].marks &= ~MOSAIC_CHECK_LOCAL_OWN_SLOT;
    }
    for (size_t i = 0; i < lo->num_accesses; i++) {
        access *a = &lo->accesses[i];
        unsigned window = lo->first_window + 2 * (unsigned)a->pair + (a->marks & MOSAIC_CHECK_LOCAL_OWN_SLOT ? 1 : 0);
        a->marks |= (uint64_t)(window + 1) << MOSAIC_CHECK_LOCAL_WINDOW_SHIFT;
    }
}

mc_local_objects *mc_find_local_objects(LLVMValueRef f, LLVMTargetDataRef td, const mc_cfg *cfg)
{
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (LLVMIsACallInst(LLVMGetUser(u)))
            return NULL; /* a kernel another calls: the windows would be the caller's */
    if (MOSAIC_CHECK_ARG_WINDOWS * LLVMCountParams(f) + MOSAIC_CHECK_LOCAL_WINDOWS > 0x3ff)
        return NULL; /* (LOCAL_WINDOW's 10 bits) */
    mc_local_objects *lo = calloc(1, sizeof *lo);
    if (!lo)
        return NULL;
    lo->td = td;
    lo->first_window = MOSAIC_CHECK_ARG_WINDOWS * LLVMCountParams(f);
    LLVMModuleRef m = LLVMGetGlobalParent(f);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && lo->num_objects < MAX_OBJECTS; g = LLVMGetNextGlobal(g))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == AS_LOCAL && LLVMGetFirstUse(g) && stays_in(g, f, 0))
            lo->objects[lo->num_objects++].root = g;
    for (unsigned p = 0; p < LLVMCountParams(f) && lo->num_objects < MAX_OBJECTS; p++) {
        LLVMValueRef v = LLVMGetParam(f, p);
        if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == AS_LOCAL &&
            stays_in(v, f, 0))
            lo->objects[lo->num_objects++].root = v;
    }
    unsigned n = LLVMCountBasicBlocks(f);
    lo->blocks = malloc(n * sizeof *lo->blocks);
    lo->block_in = calloc(n, sizeof *lo->block_in);
    if (!lo->num_objects || !n || !lo->blocks || !lo->block_in) {
        mc_local_objects_free(lo);
        return NULL;
    }
    lo->num_blocks = n;
    LLVMGetBasicBlocks(f, lo->blocks);
    for (unsigned k = 0; k < n; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(lo->blocks[k]); i; i = LLVMGetNextInstruction(i))
            if (is_barrier(i)) {
                if (lo->num_barriers == MAX_BARRIERS) {
                    mc_local_objects_free(lo);
                    return NULL;
                }
                lo->barriers[lo->num_barriers++] = i;
            }
    lo->block_in[0] = 1; /* the entry */
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned k = 0; k < n; k++) {
            uint64_t here = lo->block_in[k];
            for (LLVMValueRef i = LLVMGetFirstInstruction(lo->blocks[k]); i; i = LLVMGetNextInstruction(i))
                here = past(lo, i, here);
            LLVMValueRef term = LLVMGetBasicBlockTerminator(lo->blocks[k]);
            for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
                int to = block_index(lo, LLVMGetSuccessor(term, s));
                if (to >= 0 && (lo->block_in[to] | here) != lo->block_in[to]) {
                    lo->block_in[to] |= here;
                    changed = true;
                }
            }
        }
    }
    lo->cfg = cfg;
    bool found = find_accesses(lo);
    if (found)
        mark(lo);
    lo->cfg = NULL;
    if (!found) {
        mc_local_objects_free(lo);
        return NULL;
    }
    return lo;
}

uint64_t mc_local_marks(const mc_local_objects *lo, LLVMValueRef inst, LLVMValueRef p, mc_slot *slot)
{
    for (size_t i = 0; lo && i < lo->num_accesses; i++) {
        const access *a = &lo->accesses[i];
        if (a->inst == inst && a->pointer == p) {
            *slot = lo->pairs[a->pair].slot;
            return a->marks;
        }
    }
    return 0;
}

void mc_local_objects_free(mc_local_objects *lo)
{
    if (!lo)
        return;
    free(lo->blocks);
    free(lo->block_in);
    free(lo->accesses);
    free(lo);
}
