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
#include "compiler/ir/row_ranges.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

typedef struct checks {
    mc_row_loop rl;
    mc_row_counters counters;
} checks;

/* Is v invariant in the row's loop and its counters? */
static bool invariant(const checks *ck, LLVMValueRef v) { return mc_row_invariant(&ck->rl, v); }

/* Does v grow with x, and not shrink with any counter whose body does not
 * hold block `at` (where the counter's range is known)? */
static bool grows(const checks *ck, LLVMValueRef v, LLVMBasicBlockRef at)
{
    long long s = mc_row_slope(&ck->rl, v);
    return s > 0 && s != MC_ROW_NOT_AFFINE && mc_row_never_shrinks(&ck->rl, &ck->counters, v, at);
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

/* Does check inst (its index operand `side`) give its below-the-bound
 * answer over the whole row? */
static LLVMValueRef row_passes(LLVMBuilderRef b, const checks *ck, LLVMValueRef inst, int side, const mc_row_corners *at)
{
    LLVMValueRef index = LLVMGetOperand(inst, (unsigned)side), bound = LLVMGetOperand(inst, (unsigned)!side);
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    LLVMValueRef n = mc_row_at_all(b, &ck->rl, bound, at->low);
    LLVMValueRef ends[2] = {mc_row_at_all(b, &ck->rl, index, at->low), mc_row_at_all(b, &ck->rl, index, at->high)};
    LLVMValueRef ok = mc_row_ends_in_order(b, &ck->rl, index, signed_predicate(p), at);
    ok = mc_row_casts_in_order(b, &ck->rl, index, at, ok);
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
    for (unsigned i = 1; i < ck->rl.nvars; i++)
        if (mc_row_slope_in(&ck->rl, x, ck->rl.vars[i]) != 0)
            return false;
    return true;
}

/* The divisor of quotient inst as a number to divide by (2^k for a shift or
 * a mask), built before the loop. */
static LLVMValueRef divisor(LLVMBuilderRef b, const checks *ck, LLVMValueRef inst, const mc_row_corners *at)
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
                                        const mc_row_corners *at, LLVMValueRef *q0)
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
    ok = mc_row_and(b, ok, LLVMBuildICmp(b, sgn ? LLVMIntSGT : LLVMIntNE, d, zero, ""));
    LLVMValueRef lo = mc_row_at_all(b, &ck->rl, index, at->low), hi = mc_row_at_all(b, &ck->rl, index, at->high);
    if (sgn)
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntSGE, lo, zero, ""), "");
    ok = LLVMBuildAnd(b, ok, mc_row_ends_in_order(b, &ck->rl, index, sgn, at), "");
    ok = mc_row_casts_in_order(b, &ck->rl, index, at, ok);
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
    mc_row_corners at;
    fact facts[MAX_FACTS];
    unsigned nf = 0;
    if (!mc_row_loop_open(&ck.rl, wg, latch) || !ck.rl.bound)
        goto out;
    mc_row_find_counters(&ck.rl, &ck.counters);
    for (unsigned k = 0; k < ck.rl.nblocks && nf < MAX_FACTS; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(ck.rl.blocks[k]); i && nf < MAX_FACTS;
             i = LLVMGetNextInstruction(i)) {
            int side = check_side(&ck, i);
            if (side < 0 && !is_quotient(&ck, i))
                continue;
            if (!nf) {
                mc_row_before_loop(&ck.rl, b);
                mc_row_corners_at(b, &ck.rl, &ck.counters, &at);
            }
            fact *f = &facts[nf++];
            f->inst = i;
            if (side >= 0) {
                f->value = LLVMConstInt(LLVMTypeOf(i), below_answer(i, side), 0);
                f->divisor = NULL;
                pass = mc_row_and(b, pass, row_passes(b, &ck, i, side, &at));
            } else {
                f->divisor = divisor(b, &ck, i, &at);
                pass = mc_row_and(b, pass, row_in_one_multiple(b, &ck, i, f->divisor, &at, &f->value));
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

static void visit(mc_kernel_build *kb, LLVMBuilderRef b, LLVMBasicBlockRef latch, unsigned index, void *data)
{
    (void)index, (void)data;
    if (!mc_has_image_args(kb)) /* image rows: image_bounds_versioning.c */
        kb->stats[MC_STAT_checked_rows] += version_loop(b, kb->wg, latch);
}

void mc_version_for_bounds_checks(mc_kernel_build *kbs, size_t nk) { mc_each_row_loop(kbs, nk, visit, NULL); }
