/*
 * Checking mode: kernel arguments whose every access is inside a block of
 * the buffer that its work-item alone reaches (compiler.h:
 * MOSAIC_CHECK_ARG_OWN_BLOCK, mosaic_check_block).
 *
 * scan's `out[get_group_id(0) * 1024 + get_local_id(0) * 4 + k]` (k < 4),
 * a GEMM's four rows of C `c[(i + r) * n + j]` (i = 4 * get_global_id(1),
 * r < 4), transpose's `dst[(bx + j) * h + by + lx]` (j from ly up by 8
 * below 32): each byte offset is a sum of factors times a work-item's
 * coordinates (local and group ids; get_global_id is the group's id times
 * the local size plus the local id plus the global offset), times the
 * steps of loops, and a constant.  The factors may be constants, or times
 * one integer argument w (a row's width).  A loop's counter `for (j = f;
 * j < B; j += s)` is f (a sum of the same kind) plus s times its steps,
 * fewer than (B - f's constant) / s rounded up.
 *
 * Every access of the argument must have the same terms of a work-item's
 * coordinates; its loops' steps may differ (the block has each kind as
 * often as the access with most of it: an access without one is at its
 * step 0), and so may their constants, which make one more term each (c's
 * and w's parts): their least, then steps of their greatest common
 * divisor.  The device takes the mark
 * where the launch's sizes make the sum nested (cpu_check.c, block_holds):
 * then two work-items' bytes never meet.
 *
 * Every term and constant is at least 0, and the device checks that the
 * whole sum fits an int: so are all the sums on the way, and int casts
 * between them keep their values.  (A subtraction is not taken.)
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/check/check.h"
#include "compiler/ir/cfg.h"
#include "compiler/ir/util.h"

enum { COUNTER = 100 }; /* a term of a loop's counter, until resolve() makes it steps */
enum { MAX_TERMS = MOSAIC_CHECK_BLOCK_TERMS };

typedef struct term {
    uint32_t kind, flags; /* MOSAIC_CHECK_TERM_*, or COUNTER */
    int64_t factor, extent;
    LLVMValueRef counter;
} term;

typedef struct sum {
    term t[MAX_TERMS];
    int n;
    int64_t c, cw;  /* c + cw * w */
    LLVMValueRef w; /* the integer parameter, NULL: none yet */
} sum;

typedef struct finder {
    LLVMTargetDataRef td;
    const mc_cfg *cfg;
} finder;

/* (Steps are each their own loop's, or the constants': never one term.) */
static bool same_term(const term *a, const term *b)
{
    return a->kind != MOSAIC_CHECK_TERM_STEPS && a->kind == b->kind && a->flags == b->flags && a->counter == b->counter && a->extent == b->extent;
}

/* s += k * x's term */
static bool add_term(sum *s, const term *x, int64_t k)
{
    int64_t f;
    if (__builtin_mul_overflow(x->factor, k, &f))
        return false;
    for (int i = 0; i < s->n; i++)
        if (same_term(&s->t[i], x))
            return !__builtin_add_overflow(s->t[i].factor, f, &s->t[i].factor);
    if (s->n == MAX_TERMS)
        return false;
    s->t[s->n] = *x;
    s->t[s->n++].factor = f;
    return true;
}

/* s += k * x (k > 0) */
static bool add_sum(sum *s, const sum *x, int64_t k)
{
    int64_t c, cw;
    if ((x->w && s->w && x->w != s->w) || __builtin_mul_overflow(x->c, k, &c) ||
        __builtin_mul_overflow(x->cw, k, &cw) || __builtin_add_overflow(s->c, c, &s->c) ||
        __builtin_add_overflow(s->cw, cw, &s->cw))
        return false;
    if (x->w)
        s->w = x->w;
    for (int i = 0; i < x->n; i++)
        if (!add_term(s, &x->t[i], k))
            return false;
    return true;
}

/* s times integer parameter w */
static bool times_width(sum *s, LLVMValueRef w)
{
    if (s->cw || (s->w && s->w != w))
        return false;
    for (int i = 0; i < s->n; i++) {
        if (s->t[i].flags & MOSAIC_CHECK_TERM_BY_WIDTH)
            return false;
        s->t[i].flags |= MOSAIC_CHECK_TERM_BY_WIDTH;
    }
    s->cw = s->c, s->c = 0, s->w = w;
    return true;
}

/* The field at `offset` of the work-group's context that v loads, or -1. */
static int64_t context_field(const finder *fd, LLVMValueRef v)
{
    LLVMValueRef root = mc_context_root(v);
    return root && !LLVMGetVolatile(v) ? mc_offset_from(LLVMGetOperand(v, 0), root, fd->td) : -1;
}

/* Is v the context's size_t array field at `field`, element d (*d)? */
static bool context_array(const finder *fd, LLVMValueRef v, size_t field, unsigned *d)
{
    int64_t at = context_field(fd, v);
    if (at < (int64_t)field || at >= (int64_t)(field + 3 * sizeof(size_t)) || (at - (int64_t)field) % sizeof(size_t))
        return false;
    *d = (unsigned)((at - (int64_t)field) / sizeof(size_t));
    return true;
}

static bool sum_of(const finder *fd, LLVMValueRef v, sum *s, int depth);

/* A kernel's integer parameter, or NULL. */
static LLVMValueRef int_parameter(LLVMValueRef v)
{
    v = mc_without_int_casts(v);
    return LLVMIsAArgument(v) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind ? v : NULL;
}

/* v = a * b: a constant times a sum, a sum times w, or the group's id times its size */
static bool product_of(const finder *fd, LLVMValueRef a, LLVMValueRef b, sum *s, int depth)
{
    for (int k = 0; k < 2; k++) {
        LLVMValueRef x = k ? b : a, y = k ? a : b, w;
        unsigned d, e;
        if (LLVMIsAConstantInt(y)) {
            int64_t f = LLVMConstIntGetSExtValue(y);
            sum inner;
            if (f <= 0 || !sum_of(fd, x, &inner, depth + 1))
                return false;
            return add_sum(s, &inner, f);
        }
        if ((w = int_parameter(y))) {
            if (!sum_of(fd, x, s, depth + 1))
                return false;
            return times_width(s, w);
        }
        if (context_array(fd, mc_without_int_casts(x), offsetof(mosaic_wg_ctx, group_id), &d) &&
            context_array(fd, mc_without_int_casts(y), offsetof(mosaic_wg_ctx, enqueued_local_size), &e) && d == e) {
            term t = {.kind = MOSAIC_CHECK_TERM_GROUP_ID, .flags = d | MOSAIC_CHECK_TERM_BY_LOCAL_SIZE, .factor = 1};
            return add_term(s, &t, 1);
        }
    }
    return false;
}

/* Integer v as a sum of terms (the top of this file), where it is one. */
static bool sum_of(const finder *fd, LLVMValueRef v, sum *s, int depth)
{
    memset(s, 0, sizeof *s);
    if (depth > 24)
        return false;
    v = mc_without_int_casts(v);
    unsigned d;
    if (LLVMIsAConstantInt(v)) {
        s->c = LLVMConstIntGetSExtValue(v);
        return s->c >= 0;
    }
    if (LLVMIsACallInst(v) && mc_calls_named(v, "__mosaic_get_local_id") && LLVMIsAConstantInt(LLVMGetOperand(v, 0))) {
        term t = {.kind = MOSAIC_CHECK_TERM_LOCAL_ID, .flags = (uint32_t)LLVMConstIntGetZExtValue(LLVMGetOperand(v, 0)),
                  .factor = 1};
        return t.flags < 3 && add_term(s, &t, 1);
    }
    if (context_array(fd, v, offsetof(mosaic_wg_ctx, group_id), &d) ||
        context_array(fd, v, offsetof(mosaic_wg_ctx, global_offset), &d)) {
        term t = {.kind = context_array(fd, v, offsetof(mosaic_wg_ctx, group_id), &d) ? MOSAIC_CHECK_TERM_GROUP_ID
                                                                                    : MOSAIC_CHECK_TERM_GLOBAL_OFFSET,
                  .flags = d, .factor = 1};
        return add_term(s, &t, 1);
    }
    if (int_parameter(v)) {
        s->cw = 1, s->w = v;
        return true;
    }
    LLVMValueRef first;
    int64_t step;
    if (mc_counted(v, &first, &step)) {
        term t = {.kind = COUNTER, .factor = 1, .counter = v};
        return add_term(s, &t, 1);
    }
    if (!LLVMIsABinaryOperator(v))
        return false;
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    sum x;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
        return sum_of(fd, a, s, depth + 1) && sum_of(fd, b, &x, depth + 1) && add_sum(s, &x, 1);
    case LLVMOr: { /* a | k where a's terms and constant are multiples of a power of 2 above k: a + k */
        int64_t k = LLVMIsAConstantInt(b) ? LLVMConstIntGetSExtValue(b) : -1;
        if (k < 0 || !sum_of(fd, a, s, depth + 1))
            return false;
        uint64_t low = (uint64_t)s->c | (uint64_t)s->cw;
        for (int i = 0; i < s->n; i++)
            low |= (uint64_t)s->t[i].factor;
        if (low & (((uint64_t)1 << (64 - __builtin_clzll((uint64_t)k | 1))) - 1))
            return false;
        return !__builtin_add_overflow(s->c, k, &s->c);
    }
    case LLVMShl: {
        int64_t k = LLVMIsAConstantInt(b) ? LLVMConstIntGetSExtValue(b) : -1;
        return k >= 0 && k < 31 && product_of(fd, a, LLVMConstInt(LLVMTypeOf(b), (uint64_t)1 << k, 0), s, depth);
    }
    case LLVMMul:
        return product_of(fd, a, b, s, depth);
    default:
        return false;
    }
}

/* s with its counters' terms made their firsts' terms and steps (the top of
 * this file), where inst runs inside their loops' bounds. */
static bool resolve(const finder *fd, LLVMValueRef inst, sum *s)
{
    for (int i = 0; i < s->n; i++) {
        if (s->t[i].kind != COUNTER)
            continue;
        term t = s->t[i];
        s->t[i--] = s->t[--s->n];
        LLVMValueRef first;
        int64_t step, bound = 0, steps, per;
        sum f;
        if (!mc_counted(t.counter, &first, &step) || step >= (1 << 30) ||
            (bound = mc_counter_bound(fd->cfg, inst, t.counter)) <= 0 || !sum_of(fd, first, &f, 0) || f.cw ||
            f.c >= bound)
            return false;
        for (int j = 0; j < f.n; j++)
            if (f.t[j].kind == COUNTER)
                return false; /* (a loop whose first is another's counter) */
        steps = (bound - f.c + step - 1) / step;
        if ((t.flags & MOSAIC_CHECK_TERM_BY_WIDTH) && !times_width(&f, s->w))
            return false;
        term made = {.kind = MOSAIC_CHECK_TERM_STEPS, .flags = t.flags, .factor = 1, .extent = steps};
        if (__builtin_mul_overflow(t.factor, step, &per) || !add_sum(s, &f, t.factor) || !add_term(s, &made, per))
            return false;
    }
    return true;
}

/* The byte offset of p from root (GEPs and casts of it) as a sum. */
static bool offset_of(const finder *fd, LLVMValueRef p, LLVMValueRef root, sum *s, int depth)
{
    memset(s, 0, sizeof *s);
    if (p == root)
        return true;
    if (depth > 16 || !LLVMIsAInstruction(p))
        return false;
    if (LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
        return offset_of(fd, LLVMGetOperand(p, 0), root, s, depth + 1);
    if (!LLVMIsAGetElementPtrInst(p) || !offset_of(fd, LLVMGetOperand(p, 0), root, s, depth + 1))
        return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    for (int i = 1, n = LLVMGetNumOperands(p); i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(p, i);
        int64_t bytes;
        int step = mc_gep_step(fd->td, index, i, &t, &bytes);
        sum x;
        if (!step || (step == 1 && __builtin_add_overflow(s->c, bytes, &s->c)) ||
            (step == 2 && (!sum_of(fd, index, &x, 0) || !add_sum(s, &x, bytes))))
            return false;
    }
    return true;
}

static int by_term(const void *a, const void *b)
{
    const term *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->flags != y->flags)
        return x->flags < y->flags ? -1 : 1;
    if (x->extent != y->extent)
        return x->extent < y->extent ? -1 : 1;
    return x->factor < y->factor ? -1 : x->factor > y->factor;
}

/* How many of sorted s's terms come before its steps (by_term: steps last). */
static int fixed_terms(const sum *s)
{
    int n = 0;
    while (n < s->n && s->t[n].kind != MOSAIC_CHECK_TERM_STEPS)
        n++;
    return n;
}

typedef struct found {
    sum terms;             /* the first access's, sorted */
    int64_t c_lo, c_hi, c_gcd, w_lo, w_hi, w_gcd;
    uint64_t bytes;
    int64_t folded_hi;     /* the most of an access's c + bytes + its FOLDED steps' reach */
    size_t accesses;
} found;

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* One more access, at p (a GEP or cast of root), of `bytes`, by inst. */
static bool add_access(const finder *fd, found *fo, LLVMValueRef inst, LLVMValueRef p, LLVMValueRef root, uint64_t bytes)
{
    sum s;
    if (!offset_of(fd, p, root, &s, 0) || !resolve(fd, inst, &s))
        return false;
    int64_t reach = s.c, move;
    if (__builtin_add_overflow(reach, (int64_t)bytes, &reach))
        return false;
    for (int i = 0; i < s.n; i++) {
        if (s.t[i].factor <= 0)
            return false;
        if (s.t[i].kind == MOSAIC_CHECK_TERM_STEPS && !s.t[i].flags) { /* (constant factors: foldable) */
            s.t[i].flags = MOSAIC_CHECK_TERM_FOLDED;
            if (__builtin_mul_overflow(s.t[i].factor, s.t[i].extent - 1, &move) ||
                __builtin_add_overflow(reach, move, &reach))
                return false;
        }
    }
    fo->folded_hi = !fo->accesses || reach > fo->folded_hi ? reach : fo->folded_hi;
    qsort(s.t, (size_t)s.n, sizeof *s.t, by_term);
    if (!fo->accesses++) {
        fo->terms = s;
        fo->c_lo = fo->c_hi = s.c, fo->w_lo = fo->w_hi = s.cw;
    } else {
        /* the same work-item's coordinates; steps of loops: each kind as
         * often as the access with most of it (where an access has fewer,
         * it is at their step 0) */
        int fixed = fixed_terms(&s);
        if (fixed != fixed_terms(&fo->terms) || (s.w && fo->terms.w && s.w != fo->terms.w))
            return false;
        for (int i = 0; i < fixed; i++)
            if (by_term(&s.t[i], &fo->terms.t[i]))
                return false;
        for (int i = fixed, j; i < s.n; i = j) {
            int have = 0;
            for (j = i; j < s.n && !by_term(&s.t[j], &s.t[i]); j++)
                ;
            for (int k = fixed; k < fo->terms.n; k++)
                have += !by_term(&fo->terms.t[k], &s.t[i]);
            for (; have < j - i; have++) {
                if (fo->terms.n == MAX_TERMS)
                    return false;
                fo->terms.t[fo->terms.n++] = s.t[i];
            }
        }
        qsort(fo->terms.t, (size_t)fo->terms.n, sizeof *fo->terms.t, by_term);
        if (s.w)
            fo->terms.w = s.w;
    }
    fo->c_gcd = gcd(fo->c_gcd, s.c > fo->c_lo ? s.c - fo->c_lo : fo->c_lo - s.c);
    fo->w_gcd = gcd(fo->w_gcd, s.cw > fo->w_lo ? s.cw - fo->w_lo : fo->w_lo - s.cw);
    fo->c_lo = s.c < fo->c_lo ? s.c : fo->c_lo, fo->c_hi = s.c > fo->c_hi ? s.c : fo->c_hi;
    fo->w_lo = s.cw < fo->w_lo ? s.cw : fo->w_lo, fo->w_hi = s.cw > fo->w_hi ? s.cw : fo->w_hi;
    fo->bytes = bytes > fo->bytes ? bytes : fo->bytes;
    return true;
}

/* Do the uses of v (root, or what GEPs and casts made of it) all reach
 * memory by plain loads and stores at offsets of the block's kind? */
static bool walk(const finder *fd, found *fo, LLVMValueRef v, LLVMValueRef root, int depth)
{
    if (depth > 16)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            return false;
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMLoad:
            if (LLVMGetVolatile(user) || LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic ||
                !add_access(fd, fo, user, v, root, LLVMStoreSizeOfType(fd->td, LLVMTypeOf(user))))
                return false;
            continue;
        case LLVMStore:
            if (LLVMGetOperand(user, 1) != v || LLVMGetOperand(user, 0) == v || LLVMGetVolatile(user) ||
                LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic ||
                !add_access(fd, fo, user, v, root, LLVMStoreSizeOfType(fd->td, LLVMTypeOf(LLVMGetOperand(user, 0)))))
                return false;
            continue;
        case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
            if (LLVMGetOperand(user, 0) != v || !walk(fd, fo, user, root, depth + 1))
                return false;
            continue;
        default:
            return false;
        }
    }
    return true;
}

bool mc_own_block(LLVMValueRef param, LLVMTargetDataRef td, const mc_cfg *cfg, mosaic_check_block *block)
{
    finder fd = {.td = td, .cfg = cfg};
    found fo = {0};
    if (!cfg || !walk(&fd, &fo, param, param, 0) || !fo.accesses || fo.c_lo < 0 || fo.w_lo < 0)
        return false;
    sum *s = &fo.terms;
    /* each dimension's group id and local id together, or neither (a
     * group's one element, `partial[get_group_id(0)]`, is a block only in
     * groups of one work-item: not worth the window test) */
    unsigned ids[2] = {0, 0};
    for (int i = 0; i < s->n; i++)
        if (s->t[i].kind == MOSAIC_CHECK_TERM_LOCAL_ID || s->t[i].kind == MOSAIC_CHECK_TERM_GROUP_ID)
            ids[s->t[i].kind == MOSAIC_CHECK_TERM_GROUP_ID] |= 1u << MOSAIC_CHECK_TERM_DIM(s->t[i].flags);
    if (ids[0] != ids[1] || !ids[0])
        return false;
    /* the constants' steps */
    term c = {.kind = MOSAIC_CHECK_TERM_STEPS, .flags = MOSAIC_CHECK_TERM_FOLDED, .factor = fo.c_gcd,
              .extent = fo.c_gcd ? (fo.c_hi - fo.c_lo) / fo.c_gcd + 1 : 1};
    term w = {.kind = MOSAIC_CHECK_TERM_STEPS, .flags = MOSAIC_CHECK_TERM_BY_WIDTH, .factor = fo.w_gcd,
              .extent = fo.w_gcd ? (fo.w_hi - fo.w_lo) / fo.w_gcd + 1 : 1};
    if ((c.extent > 1 && !add_term(s, &c, 1)) || (w.extent > 1 && !add_term(s, &w, 1)))
        return false;
    bool by_width = fo.w_hi > 0;
    for (int i = 0; i < s->n; i++)
        by_width |= (s->t[i].flags & MOSAIC_CHECK_TERM_BY_WIDTH) != 0;
    memset(block, 0, sizeof *block);
    if (by_width) {
        if (!s->w)
            return false;
        LLVMValueRef fn = LLVMGetParamParent(s->w);
        for (unsigned i = 0; i < LLVMCountParams(fn); i++)
            if (LLVMGetParam(fn, i) == s->w)
                block->width = i + 1;
        if (!block->width)
            return false;
    }
    block->num_terms = (uint32_t)s->n;
    block->base = fo.c_lo, block->base_w = fo.w_lo;
    block->bytes = fo.bytes;
    block->folded_bytes = (uint64_t)(fo.folded_hi - fo.c_lo);
    for (int i = 0; i < s->n; i++)
        block->term[i] = (mosaic_check_block_term){.factor = s->t[i].factor, .extent = s->t[i].extent,
                                                   .kind = s->t[i].kind, .flags = s->t[i].flags};
    return true;
}

bool mc_offset_inside(LLVMValueRef p, LLVMValueRef root, LLVMValueRef inst, LLVMTargetDataRef td, const mc_cfg *cfg,
                      uint64_t bytes, uint64_t size)
{
    finder fd = {.td = td, .cfg = cfg};
    sum s;
    if (!cfg || !offset_of(&fd, p, root, &s, 0) || !resolve(&fd, inst, &s) || s.cw || s.c < 0)
        return false;
    uint64_t top = (uint64_t)s.c, reach;
    for (int i = 0; i < s.n; i++)
        if (s.t[i].kind != MOSAIC_CHECK_TERM_STEPS || s.t[i].flags || s.t[i].factor <= 0 ||
            __builtin_mul_overflow((uint64_t)s.t[i].factor, (uint64_t)(s.t[i].extent - 1), &reach) ||
            __builtin_add_overflow(top, reach, &top))
            return false;
    return !__builtin_add_overflow(top, bytes, &top) && top <= size;
}
