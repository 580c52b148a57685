/*
 * The ranges of an x loop's values (row_ranges.h).
 *
 * Why the corners are enough: along each variable every value of an index's
 * chain grows by its slope times the variable modulo 2^bits (sums, constant
 * multiples and truncations keep that); a zext or sext keeps it unless its
 * operand wraps, read unsigned or signed, which over less than 2^31
 * (loop_versioning.c's MAX_SLOPE) shows as its value at the high corner
 * below its value at the low one.  So for a value whose slopes are all at
 * least 0, with the corners of each such operand in order, every value in
 * the box lies between its values at the two corners.
 */
#include <stdlib.h>

#include "compiler/compiler.h"
#include "compiler/ir/row_ranges.h"

/* Is every way into block bb from block from, but for ways back from
 * blocks bb dominates (an inner loop's, where bb is its header)? */
static bool entered_from(const mc_row_loop *rl, LLVMBasicBlockRef bb, LLVMBasicBlockRef from)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(user))
            return false;
        LLVMBasicBlockRef pred = LLVMGetInstructionParent(user);
        if (pred != from && !mc_row_passes_through(rl, pred, bb))
            return false;
    }
    return true;
}

/* Is v (a phi of block bb) such a counter?  Adds it. */
static void note_counter(mc_row_loop *rl, mc_row_counters *c, LLVMBasicBlockRef bb, LLVMValueRef v)
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
        if (limit == 0 || limit > MOSAIC_MAX_LOCAL_SIZE || body == LLVMGetSuccessor(br, 1) || !entered_from(rl, body, bb) ||
            rl->nvars == MC_ROW_MAX_VARS || !mc_row_add_var(rl, v))
            return;
        c->limit[rl->nvars - 2] = limit;
        c->body[rl->nvars - 2] = body;
        return;
    }
}

void mc_row_find_counters(mc_row_loop *rl, mc_row_counters *c)
{
    for (unsigned k = 1; k < rl->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i && LLVMIsAPHINode(i);
             i = LLVMGetNextInstruction(i))
            note_counter(rl, c, rl->blocks[k], i);
}

bool mc_row_invariant(const mc_row_loop *rl, LLVMValueRef v)
{
    for (unsigned i = 0; i < rl->nvars; i++)
        if (mc_row_slope_in(rl, v, rl->vars[i]) != 0)
            return false;
    return true;
}

bool mc_row_passes_through(const mc_row_loop *rl, LLVMBasicBlockRef to, LLVMBasicBlockRef via)
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

bool mc_row_never_shrinks(const mc_row_loop *rl, const mc_row_counters *c, LLVMValueRef v, LLVMBasicBlockRef at)
{
    for (unsigned i = 0; i < rl->nvars; i++) {
        long long s = mc_row_slope_in(rl, v, rl->vars[i]);
        if (s < 0 || s == MC_ROW_NOT_AFFINE || (s > 0 && i > 0 && !mc_row_passes_through(rl, at, c->body[i - 1])))
            return false;
    }
    return true;
}

void mc_row_corners_at(LLVMBuilderRef b, const mc_row_loop *rl, const mc_row_counters *c, mc_row_corners *at)
{
    for (unsigned i = 0; i < rl->nvars; i++) {
        LLVMTypeRef t = LLVMTypeOf(rl->vars[i]);
        at->low[i] = LLVMConstInt(t, 0, 0);
        at->high[i] = i ? LLVMConstInt(t, c->limit[i - 1] - 1, 0) : mc_row_last_x(b, rl);
    }
}

LLVMValueRef mc_row_ends_in_order(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, bool is_signed,
                                  const mc_row_corners *at)
{
    LLVMValueRef first = mc_row_at_all(b, rl, v, at->low);
    return LLVMBuildICmp(b, is_signed ? LLVMIntSLE : LLVMIntULE, first, mc_row_at_all(b, rl, v, at->high), "");
}

LLVMValueRef mc_row_and(LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef c) { return a ? LLVMBuildAnd(b, a, c, "") : c; }

/* For `a & m` (mc_row_truncating_mask): a's low zeros bits are 0 (its
 * slopes are multiples of 2^zeros, so at the low corner is enough), and its
 * low width bits, read unsigned, do not wrap between the corners. */
static LLVMValueRef masked_in_order(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef a, unsigned width,
                                    unsigned zeros, const mc_row_corners *at)
{
    LLVMTypeRef t = LLVMTypeOf(a), tw = LLVMIntTypeInContext(LLVMGetTypeContext(t), width);
    LLVMValueRef low = mc_row_at_all(b, rl, a, at->low), high = mc_row_at_all(b, rl, a, at->high);
    LLVMValueRef aligned = LLVMBuildICmp(
        b, LLVMIntEQ, LLVMBuildAnd(b, low, LLVMConstInt(t, (1ull << zeros) - 1, 0), ""), LLVMConstInt(t, 0, 0), "");
    LLVMValueRef order =
        LLVMBuildICmp(b, LLVMIntULE, LLVMBuildTrunc(b, low, tw, ""), LLVMBuildTrunc(b, high, tw, ""), "");
    return LLVMBuildAnd(b, aligned, order, "");
}

LLVMValueRef mc_row_casts_in_order(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, const mc_row_corners *at,
                                   LLVMValueRef ok)
{
    if (!mc_row_in_loop(rl, v) || mc_row_invariant(rl, v) || mc_row_is_var(rl, v))
        return ok;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    unsigned width, zeros;
    if (op == LLVMZExt || op == LLVMSExt)
        ok = mc_row_and(b, ok, mc_row_ends_in_order(b, rl, LLVMGetOperand(v, 0), op == LLVMSExt, at));
    else if (mc_row_low_bits_cast(v)) /* a << k in order is a's low bits in order */
        ok = mc_row_and(b, ok, mc_row_ends_in_order(b, rl, LLVMGetOperand(v, 0), op == LLVMAShr, at));
    else if (op == LLVMAnd && mc_row_truncating_mask(v, &width, &zeros))
        ok = mc_row_and(b, ok, masked_in_order(b, rl, LLVMGetOperand(v, 0), width, zeros, at));
    for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
        ok = mc_row_casts_in_order(b, rl, LLVMGetOperand(v, k), at, ok);
    return ok;
}
