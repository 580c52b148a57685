/*
 * Checking mode: loops' counters, as the analyses of which accesses cannot
 * race read them (local_objects.c's slots, own_blocks.c's blocks).
 */
#include "compiler/check/check.h"
#include "compiler/ir/cfg.h"
#include "compiler/ir/util.h"

bool mc_counted(LLVMValueRef v, LLVMValueRef *first, int64_t *step)
{
    if (!LLVMIsAPHINode(v) || LLVMCountIncoming(v) != 2)
        return false;
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef next = LLVMGetIncomingValue(v, i), by;
        if (LLVMIsABinaryOperator(next) && LLVMGetInstructionOpcode(next) == LLVMAdd && LLVMGetOperand(next, 0) == v &&
            LLVMIsAConstantInt(by = LLVMGetOperand(next, 1)) && LLVMConstIntGetSExtValue(by) > 0 &&
            LLVMGetIncomingValue(v, 1 - i) != v && LLVMGetIncomingValue(v, 1 - i) != next) {
            *first = LLVMGetIncomingValue(v, 1 - i);
            *step = LLVMConstIntGetSExtValue(by);
            return true;
        }
    }
    return false;
}

/* The bound on counter that test c (an icmp), true where `holds`, sets:
 * counter < k (k), counter <= k (k + 1); 0: none. */
static int64_t bound_by(LLVMValueRef c, bool holds, LLVMValueRef counter)
{
    if (!LLVMIsAICmpInst(c))
        return 0;
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    LLVMValueRef l = mc_without_int_casts(LLVMGetOperand(c, 0)), r = LLVMGetOperand(c, 1);
    if (l != counter) { /* (22 > i) */
        l = mc_without_int_casts(r), r = LLVMGetOperand(c, 0);
        p = mc_swapped_predicate(p);
    }
    if (!holds)
        p = mc_inverse_predicate(p);
    int64_t k = LLVMIsAConstantInt(r) ? LLVMConstIntGetSExtValue(r) : 0;
    if (l != counter || k <= 0 || k >= (1 << 30))
        return 0;
    return p == LLVMIntSLT || p == LLVMIntULT ? k : p == LLVMIntSLE || p == LLVMIntULE ? k + 1 : 0;
}

int64_t mc_counter_bound(const mc_cfg *g, LLVMValueRef inst, LLVMValueRef counter)
{
    int ways[64], n = g ? mc_cfg_deciding_ways(g, mc_cfg_block(g, LLVMGetInstructionParent(inst)), ways, 64) : 0;
    for (int i = 0; i < n; i++) {
        LLVMValueRef c = LLVMGetCondition(LLVMGetBasicBlockTerminator(g->blocks[ways[i] / 2]));
        bool holds = !(ways[i] & 1);
        int64_t k = bound_by(c, holds, counter);
        /* (both of `a && b` hold on its true way: `q < 4 && col + q < n`) */
        LLVMValueRef side[2];
        bool both = holds && mc_both_sides(c, true, side);
        for (int j = 0; both && !k && j < 2; j++)
            k = bound_by(side[j], true, counter);
        if (k)
            return k;
    }
    return 0;
}
