/*
 * Rows that pass a kernel's bounds checks whole, and rows inside one
 * multiple of a divisor.
 *
 * A kernel launched over more work-items than it has data checks its index:
 * `if (i < n) out[i] = ...`, or returns when i >= n.  In K.wg's loop over a
 * row the loop vectoriser then runs every access under a mask of 64-bit
 * compares, and an access at i * 4 + k becomes a masked gather: on one AMD
 * Zen 4 core a checked `out[i] += 1` ran about 3 times slower than an
 * unchecked one.  Here each x loop holding such a check gets a second
 * version (loop_versioning.c) in which the check is a constant, run for a row
 * when the check gives that constant at the row's first and last work-item
 * and the index grows without wrapping between them: then every work-item
 * between gives it too.  Only a launch's last, partial rows keep the masks.
 *
 * A check: an integer compare (<, <=, >, >=, signed or not) of an index that
 * grows with x (mc_row_slope above 0) and starts somewhere a constant cannot
 * say (a global id does, a local id does not: `l < s` in a tree reduction is
 * true for part of a row only) against a value invariant in the loop.  The
 * copy takes the answer for an index below the bound (i < n true, i >= n
 * false); a row with the other answer runs the original loop.
 *
 * Why the ends are enough: along the row each value of the index's chain
 * grows by its slope times x modulo 2^bits (sums, constant multiples and
 * truncations keep that); a zext or sext keeps it unless its operand wraps,
 * read unsigned or signed, which over less than 2^31 (loop_versioning.c) shows
 * as its last value below its first.  So with the ends of each such operand,
 * and of the index itself in the compare's reading, in order, the index is
 * its first value plus slope times x at every x, and the compare's answer
 * changes at most once along the row.
 *
 * The same copy takes quotients of a growing index by something invariant
 * (`g / w`, `g % w`, `i >> 4`, `i & 15`: a flattened 2D index, a block's
 * offset): for a row whose first and last index have one quotient, every
 * index between has it, so the quotient is that value, computed once, and
 * the remainder the index minus it times the divisor, affine in x.
 */
#include <stdlib.h>

#include "compiler/images/images.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/loop_versioning.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

/* A counter of a loop inside the row's loop: phi from 0 by 1, whose loop
 * runs its body (from block body on) while phi < limit, a constant. */
typedef struct counter {
    LLVMValueRef phi;
    LLVMBasicBlockRef body;
    unsigned long long limit;
} counter;

typedef struct checks {
    mc_row_loop rl;
    counter counters[MC_ROW_MAX_VARS]; /* counters[i] is variable i + 1 */
    unsigned ncounters;
} checks;

/* Is every way into block bb from block from? */
static bool only_from(LLVMBasicBlockRef bb, LLVMBasicBlockRef from)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(user) || LLVMGetInstructionParent(user) != from)
            return false;
    }
    return true;
}

/* Is v (phi of block bb) such a counter (its body entered only while
 * v < limit, so v is below limit wherever the body's block dominates)?
 * Adds it. */
static void note_counter(checks *ck, LLVMBasicBlockRef bb, LLVMValueRef v)
{
    if (LLVMCountIncoming(v) != 2 || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return;
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef init = LLVMGetIncomingValue(v, i), next = LLVMGetIncomingValue(v, 1 - i);
        if (!LLVMIsAConstantInt(init) || LLVMConstIntGetZExtValue(init) || LLVMGetInstructionOpcode(next) != LLVMAdd ||
            LLVMGetOperand(next, 0) != v || !LLVMIsAConstantInt(LLVMGetOperand(next, 1)) ||
            LLVMConstIntGetZExtValue(LLVMGetOperand(next, 1)) != 1)
            continue;
        LLVMValueRef br = LLVMGetBasicBlockTerminator(bb), cond = br && LLVMIsABranchInst(br) && LLVMIsConditional(br)
                                                                   ? LLVMGetCondition(br)
                                                                   : NULL;
        if (!cond || !LLVMIsAICmpInst(cond) || LLVMGetICmpPredicate(cond) != LLVMIntULT ||
            LLVMGetOperand(cond, 0) != v || !LLVMIsAConstantInt(LLVMGetOperand(cond, 1)))
            return;
        unsigned long long limit = LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1));
        LLVMBasicBlockRef body = LLVMGetSuccessor(br, 0);
        if (limit == 0 || limit > MOSAIC_MAX_LOCAL_SIZE || body == LLVMGetSuccessor(br, 1) ||
            !only_from(body, bb) || ck->ncounters + 1 == MC_ROW_MAX_VARS || !mc_row_add_var(&ck->rl, v))
            return;
        ck->counters[ck->ncounters++] = (counter){v, body, limit};
        return;
    }
}

/* Is every way from the row loop's header to block to through block via? */
static bool passes_through(const mc_row_loop *rl, LLVMBasicBlockRef to, LLVMBasicBlockRef via)
{
    LLVMBasicBlockRef *stack = malloc(rl->nblocks * sizeof *stack);
    unsigned char *seen = calloc(rl->nblocks, 1);
    int start = pmap_get(&rl->index, to);
    bool through = stack && seen && start >= 0;
    unsigned sp = 0;
    if (through)
        seen[start] = 1, stack[sp++] = to;
    while (through && sp) {
        LLVMBasicBlockRef bb = stack[--sp];
        if (bb == via)
            continue;
        if (bb == rl->header) {
            through = false;
            break;
        }
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            LLVMBasicBlockRef from = LLVMIsATerminatorInst(user) ? LLVMGetInstructionParent(user) : NULL;
            int k = from ? pmap_get(&rl->index, from) : -1;
            if (k >= 0 && (unsigned)k < rl->nblocks && !seen[k])
                seen[k] = 1, stack[sp++] = from;
        }
    }
    free(stack);
    free(seen);
    return through;
}

/* Is v invariant in the row's loop and its counters? */
static bool invariant(const checks *ck, LLVMValueRef v)
{
    for (unsigned i = 0; i < ck->rl.nvars; i++)
        if (mc_row_slope_in(&ck->rl, v, ck->rl.vars[i]) != 0)
            return false;
    return true;
}

/* Does v grow with x, and not shrink with any counter whose body does not
 * hold block `at` (where the counter's range is known)? */
static bool grows(const checks *ck, LLVMValueRef v, LLVMBasicBlockRef at)
{
    long long s = mc_row_slope(&ck->rl, v);
    if (s <= 0 || s == MC_ROW_NOT_AFFINE)
        return false;
    for (unsigned i = 0; i < ck->ncounters; i++) {
        s = mc_row_slope_in(&ck->rl, v, ck->counters[i].phi);
        if (s < 0 || s == MC_ROW_NOT_AFFINE || (s > 0 && !passes_through(&ck->rl, at, ck->counters[i].body)))
            return false;
    }
    return true;
}

/* Which operand of inst is a checked index (0 or 1), or -1: inst is not a check. */
static int index_side(const checks *ck, LLVMValueRef inst)
{
    if (!LLVMIsAICmpInst(inst))
        return -1;
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(inst, 0));
    if (p == LLVMIntEQ || p == LLVMIntNE || LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) < 32)
        return -1;
    for (int side = 0; side < 2; side++)
        if (grows(ck, LLVMGetOperand(inst, (unsigned)side), LLVMGetInstructionParent(inst)) &&
            invariant(ck, LLVMGetOperand(inst, (unsigned)!side)))
            return side;
    return -1;
}

/* Does v's value at x = 0 depend on something other than constants (v's
 * chain passed mc_row_slope, so the walk is short)? */
static bool starts_anywhere(const mc_row_loop *rl, LLVMValueRef v)
{
    if (mc_row_is_var(rl, v))
        return false;
    if (!mc_row_in_loop(rl, v))
        return !LLVMIsAConstant(v);
    for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
        if (starts_anywhere(rl, LLVMGetOperand(v, k)))
            return true;
    return false;
}

/* The answer of check inst (its index operand `side`) for an index below its bound. */
static bool below_answer(LLVMValueRef inst, int side)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    if (side == 1)
        p = mc_swapped_predicate(p);
    return p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntSLT || p == LLVMIntSLE;
}

static bool signed_predicate(LLVMIntPredicate p)
{
    return p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
}

static LLVMValueRef both(LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef c)
{
    return a ? LLVMBuildAnd(b, a, c, "") : c;
}

/* The variables at the corners of their ranges: all at 0, or all at their
 * last values (x at last). */
typedef struct corners {
    LLVMValueRef low[MC_ROW_MAX_VARS], high[MC_ROW_MAX_VARS];
} corners;

/* Is v's value at the high corner not below its value at the low one, read
 * signed or not? */
static LLVMValueRef ends_in_order(LLVMBuilderRef b, const checks *ck, LLVMValueRef v, bool is_signed,
                                  const corners *at)
{
    LLVMValueRef first = mc_row_at_all(b, &ck->rl, v, at->low);
    return LLVMBuildICmp(b, is_signed ? LLVMIntSLE : LLVMIntULE, first, mc_row_at_all(b, &ck->rl, v, at->high), "");
}

/* For `a & m` (mc_row_truncating_mask): a's low zeros bits are 0 (its
 * slopes are multiples of 2^zeros, so at the low corner is enough), and its
 * low width bits, read unsigned, do not wrap over the row. */
static LLVMValueRef masked_in_order(LLVMBuilderRef b, const checks *ck, LLVMValueRef a, unsigned width,
                                    unsigned zeros, const corners *at)
{
    LLVMTypeRef t = LLVMTypeOf(a), tw = LLVMIntTypeInContext(LLVMGetTypeContext(t), width);
    LLVMValueRef low = mc_row_at_all(b, &ck->rl, a, at->low), high = mc_row_at_all(b, &ck->rl, a, at->high);
    LLVMValueRef aligned = LLVMBuildICmp(
        b, LLVMIntEQ, LLVMBuildAnd(b, low, LLVMConstInt(t, (1ull << zeros) - 1, 0), ""), LLVMConstInt(t, 0, 0), "");
    LLVMValueRef order =
        LLVMBuildICmp(b, LLVMIntULE, LLVMBuildTrunc(b, low, tw, ""), LLVMBuildTrunc(b, high, tw, ""), "");
    return LLVMBuildAnd(b, aligned, order, "");
}

/* ok, and that no zext or sext in v's chain sees its operand wrap over the row. */
static LLVMValueRef casts_in_order(LLVMBuilderRef b, const checks *ck, LLVMValueRef v, const corners *at,
                                   LLVMValueRef ok)
{
    if (!mc_row_in_loop(&ck->rl, v) || invariant(ck, v) || mc_row_is_var(&ck->rl, v))
        return ok;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    unsigned width, zeros;
    if (op == LLVMZExt || op == LLVMSExt)
        ok = both(b, ok, ends_in_order(b, ck, LLVMGetOperand(v, 0), op == LLVMSExt, at));
    else if (op == LLVMAnd && mc_row_truncating_mask(v, &width, &zeros))
        ok = both(b, ok, masked_in_order(b, ck, LLVMGetOperand(v, 0), width, zeros, at));
    for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
        ok = casts_in_order(b, ck, LLVMGetOperand(v, k), at, ok);
    return ok;
}

/* Does check inst (its index operand `side`) give its below-the-bound
 * answer over the whole row? */
static LLVMValueRef row_passes(LLVMBuilderRef b, const checks *ck, LLVMValueRef inst, int side, const corners *at)
{
    LLVMValueRef index = LLVMGetOperand(inst, (unsigned)side), bound = LLVMGetOperand(inst, (unsigned)!side);
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    LLVMValueRef n = mc_row_at_all(b, &ck->rl, bound, at->low);
    LLVMValueRef ends[2] = {mc_row_at_all(b, &ck->rl, index, at->low), mc_row_at_all(b, &ck->rl, index, at->high)};
    LLVMValueRef ok = ends_in_order(b, ck, index, signed_predicate(p), at);
    ok = casts_in_order(b, ck, index, at, ok);
    bool want = below_answer(inst, side);
    for (int e = 0; e < 2; e++) {
        LLVMValueRef c = side ? LLVMBuildICmp(b, p, n, ends[e], "") : LLVMBuildICmp(b, p, ends[e], n, "");
        ok = LLVMBuildAnd(b, ok, want ? c : LLVMBuildNot(b, c, ""), "");
    }
    return ok;
}

/* Is inst a check: its index operand (0 or 1), else -1. */
static int check_side(const checks *ck, LLVMValueRef inst)
{
    int side = index_side(ck, inst);
    return side >= 0 && starts_anywhere(&ck->rl, LLVMGetOperand(inst, (unsigned)side)) ? side : -1;
}

static void corners_init(LLVMBuilderRef b, const checks *ck, corners *at)
{
    for (unsigned i = 0; i < ck->rl.nvars; i++) {
        LLVMTypeRef t = LLVMTypeOf(ck->rl.vars[i]);
        at->low[i] = LLVMConstInt(t, 0, 0);
        at->high[i] = i ? LLVMConstInt(t, ck->counters[i - 1].limit - 1, 0) : mc_row_last_x(b, &ck->rl);
    }
}

/* ---- quotients ---------------------------------------------------------------------- */

/* Is inst a quotient or remainder of a growing index by something
 * invariant (X / d, X % d, X >> k, X & (2^k - 1))?  Those are the same over
 * a row that stays inside one multiple of d: the quotient is its value at
 * x = 0, the remainder X minus that times d.  Not inside counted loops (the
 * index must not depend on their counters). */
static bool is_quotient(const checks *ck, LLVMValueRef inst)
{
    if (!LLVMIsABinaryOperator(inst))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    LLVMValueRef x = LLVMGetOperand(inst, 0), d = LLVMGetOperand(inst, 1);
    LLVMTypeRef t = LLVMTypeOf(inst);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) < 32)
        return false;
    switch (op) {
    case LLVMUDiv: case LLVMURem: case LLVMSDiv: case LLVMSRem: case LLVMLShr:
        break;
    case LLVMAnd: { /* X & (2^k - 1) */
        if (!LLVMIsAConstantInt(d))
            return false;
        unsigned long long m = LLVMConstIntGetZExtValue(d);
        if (m == 0 || (m & (m + 1)) || m > (1ull << 40))
            return false;
        break;
    }
    default:
        return false;
    }
    long long s = mc_row_slope(&ck->rl, x);
    if (s <= 0 || s == MC_ROW_NOT_AFFINE || !invariant(ck, d))
        return false;
    for (unsigned i = 0; i < ck->ncounters; i++)
        if (mc_row_slope_in(&ck->rl, x, ck->counters[i].phi) != 0)
            return false;
    return true;
}

/* The divisor of quotient inst as a number to divide by (2^k for a shift or
 * a mask), built before the loop. */
static LLVMValueRef divisor(LLVMBuilderRef b, const checks *ck, LLVMValueRef inst, const corners *at)
{
    LLVMValueRef d = mc_row_at_all(b, &ck->rl, LLVMGetOperand(inst, 1), at->low);
    LLVMTypeRef t = LLVMTypeOf(inst);
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMLShr:
        return LLVMBuildShl(b, LLVMConstInt(t, 1, 0), d, "");
    case LLVMAnd:
        return LLVMBuildAdd(b, d, LLVMConstInt(t, 1, 0), "");
    default:
        return d;
    }
}

static bool signed_quotient(LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    return op == LLVMSDiv || op == LLVMSRem;
}

/* Does quotient inst (divisor d, built before the loop) keep one value over
 * the whole row?  *q0 gets it. */
static LLVMValueRef row_in_one_multiple(LLVMBuilderRef b, const checks *ck, LLVMValueRef inst, LLVMValueRef d,
                                        const corners *at, LLVMValueRef *q0)
{
    LLVMValueRef index = LLVMGetOperand(inst, 0);
    LLVMTypeRef t = LLVMTypeOf(inst);
    LLVMValueRef zero = LLVMConstInt(t, 0, 0), one = LLVMConstInt(t, 1, 0);
    bool sgn = signed_quotient(inst);
    LLVMOpcode sh = LLVMGetInstructionOpcode(inst);
    /* a shift by its width or more gives poison: the row takes the original loop */
    LLVMValueRef ok = sh == LLVMLShr ? LLVMBuildICmp(b, LLVMIntULT, mc_row_at_all(b, &ck->rl, LLVMGetOperand(inst, 1), at->low),
                                                     LLVMConstInt(t, LLVMGetIntTypeWidth(t), 0), "")
                                     : NULL;
    /* a divisor above 0, and for a signed one an index at or above 0: then signed is unsigned */
    ok = both(b, ok, LLVMBuildICmp(b, sgn ? LLVMIntSGT : LLVMIntNE, d, zero, ""));
    LLVMValueRef lo = mc_row_at_all(b, &ck->rl, index, at->low), hi = mc_row_at_all(b, &ck->rl, index, at->high);
    if (sgn)
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntSGE, lo, zero, ""), "");
    ok = LLVMBuildAnd(b, ok, ends_in_order(b, ck, index, sgn, at), "");
    ok = casts_in_order(b, ck, index, at, ok);
    LLVMValueRef safe = LLVMBuildSelect(b, ok, d, one, ""); /* no division by 0 before the test */
    *q0 = LLVMBuildUDiv(b, lo, safe, "row.quotient");
    return LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntEQ, *q0, LLVMBuildUDiv(b, hi, safe, ""), ""), "");
}

/* What a row's copy takes as known: a check's answer, or a quotient's value
 * (computed before the loop) and its divisor. */
typedef struct fact {
    LLVMValueRef inst, value, divisor;
} fact;

/* Checks and quotients a loop's copy takes at most. */
#define MAX_FACTS 16

/* In the copy: fact f's instruction (its copy) becomes its value, a
 * remainder X - q0 d. */
static void replace_fact(LLVMBuilderRef b, const checks *ck, const fact *f)
{
    LLVMValueRef copy = mc_row_copy_of(&ck->rl, f->inst), v = f->value;
    LLVMOpcode op = LLVMGetInstructionOpcode(f->inst);
    if (f->divisor && (op == LLVMURem || op == LLVMSRem || op == LLVMAnd)) {
        LLVMPositionBuilderBefore(b, copy);
        v = LLVMBuildSub(b, LLVMGetOperand(copy, 0), LLVMBuildMul(b, f->value, f->divisor, ""), "");
    }
    LLVMReplaceAllUsesWith(copy, v);
}

/* Versions the x loop whose latch is latch when it holds checks or quotients;
 * whether it did. */
static bool version_loop(LLVMBuilderRef b, LLVMValueRef wg, LLVMBasicBlockRef latch)
{
    bool versioned = false;
    checks ck = {0};
    LLVMValueRef pass = NULL;
    corners at;
    fact facts[MAX_FACTS];
    unsigned nf = 0;
    if (!mc_row_loop_open(&ck.rl, wg, latch) || !ck.rl.bound)
        goto out;
    for (unsigned k = 1; k < ck.rl.nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(ck.rl.blocks[k]); i && LLVMIsAPHINode(i);
             i = LLVMGetNextInstruction(i))
            note_counter(&ck, ck.rl.blocks[k], i);
    for (unsigned k = 0; k < ck.rl.nblocks && nf < MAX_FACTS; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(ck.rl.blocks[k]); i && nf < MAX_FACTS;
             i = LLVMGetNextInstruction(i)) {
            int side = check_side(&ck, i);
            if (side < 0 && !is_quotient(&ck, i))
                continue;
            if (!nf) {
                mc_row_before_loop(&ck.rl, b);
                corners_init(b, &ck, &at);
            }
            fact *f = &facts[nf++];
            f->inst = i;
            if (side >= 0) {
                f->value = LLVMConstInt(LLVMTypeOf(i), below_answer(i, side), 0);
                f->divisor = NULL;
                pass = both(b, pass, row_passes(b, &ck, i, side, &at));
            } else {
                f->divisor = divisor(b, &ck, i, &at);
                pass = both(b, pass, row_in_one_multiple(b, &ck, i, f->divisor, &at, &f->value));
            }
        }
    if (!pass || !mc_row_copy(&ck.rl, b))
        goto out;
    for (unsigned j = 0; j < nf; j++)
        replace_fact(b, &ck, &facts[j]);
    mc_row_choose(&ck.rl, b, pass);
    versioned = true;
out:
    mc_row_loop_close(&ck.rl);
    return versioned;
}

void mc_version_for_bounds_checks(mc_kernel_build *kbs, size_t nk)
{
    for (size_t k = 0; k < nk; k++) {
        mc_kernel_build *kb = &kbs[k];
        if (!kb->wg || !kb->access_group || mc_has_image_args(kb)) /* image rows: image_bounds_versioning.c */
            continue;
        LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(kb->wg)));
        LLVMBasicBlockRef *latches;
        unsigned nl = mc_row_latches(kb->wg, kb->access_group, &latches);
        for (unsigned i = 0; i < nl; i++)
            kb->stats[MC_STAT_checked_rows] += version_loop(b, kb->wg, latches[i]);
        free(latches);
        LLVMDisposeBuilder(b);
    }
}
