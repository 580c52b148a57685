/*
 * Barrier splitting, the first step of K.wg (regions.c): K.body's blocks
 * split so that every barrier ends its block, K.body's CFG, and the
 * regions between barriers with what each reaches.
 *
 * In the field's terms: a region is a "parallel region" (pocl) or barrier
 * region, the code a work-item runs between two barriers; B_i and E_i are
 * the blocks before and after barrier i.  A cut (implicit_barriers.c) is a barrier
 * Mosaic adds itself at a loop so that the loop's body becomes a region of
 * its own (like pocl's implicit loop barriers); here it is one more
 * barrier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/workgroup/regions_internal.h"

/* A sub-group barrier: a uniform one, or a non-uniform one (the hook of the
 * non-uniform functions, which only the active work-items reach). */
static bool is_sub_group_barrier(LLVMValueRef inst)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && (!strcmp(LLVMGetValueName(f), "__mosaic_sub_group_barrier") ||
                 !strcmp(LLVMGetValueName(f), MC_NON_UNIFORM_BARRIER));
}

static bool is_non_uniform_barrier(LLVMValueRef inst)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && !strcmp(LLVMGetValueName(f), MC_NON_UNIFORM_BARRIER);
}

/* Is `after` (what follows a barrier) a branch to a block entered from the
 * barrier's block only, with no phis: split before (split_at_barriers runs
 * again after mc_insert_implicit_barriers, implicit_barriers.c)? */
static bool ends_region_already(LLVMValueRef after)
{
    if (!after || !LLVMIsABranchInst(after) || LLVMIsConditional(after))
        return false;
    LLVMBasicBlockRef next = LLVMGetSuccessor(after, 0);
    LLVMValueRef first = LLVMGetFirstInstruction(next);
    if (first && LLVMIsAPHINode(first))
        return false;
    LLVMBasicBlockRef self = LLVMGetInstructionParent(after);
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(next)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) != self)
            return false;
    }
    return true;
}

bool rg_split_at_barriers(region_fn *rf, LLVMBuilderRef b)
{
    bool split = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(rf->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
            if (!mc_ends_region(inst))
                continue;
            LLVMValueRef after = LLVMGetNextInstruction(inst);
            if (ends_region_already(after))
                break;
            LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(rf->c, rf->body, "after.barrier");
            LLVMMoveBasicBlockAfter(nb, bb);
            LLVMPositionBuilderAtEnd(b, nb);
            while (after) {
                LLVMValueRef next = LLVMGetNextInstruction(after);
                size_t len;
                const char *name = LLVMGetValueName2(after, &len);
                char *copy = len ? strndup(name, len) : NULL;
                LLVMInstructionRemoveFromParent(after);
                LLVMInsertIntoBuilderWithName(b, after, copy ? copy : "");
                free(copy);
                after = next;
            }
            LLVMValueRef term = LLVMGetBasicBlockTerminator(nb);
            unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
            for (unsigned s = 0; s < ns; s++) {
                LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
                int seen = 0;
                for (unsigned t = 0; t < s; t++)
                    seen |= LLVMGetSuccessor(term, t) == succ;
                if (!seen)
                    mc_retarget_phis(b, succ, bb, nb);
            }
            LLVMPositionBuilderAtEnd(b, bb);
            LLVMBuildBr(b, nb);
            split = true;
            break; /* the rest of the block is nb, the next one visited */
        }
    return split;
}

cl_int rg_number_blocks(region_fn *rf)
{
    const mc_cfg *g = rf->cut.g = mc_uniformity_cfg(rf->unif.ua);
    MOSAIC_ASSERT(g->fn == rf->body);
    rf->cut.nb = g->n;
    rf->cut.bbs = g->blocks;
    rf->cut.npred = g->npred, rf->cut.pred = g->pred;
    rf->cut.nsucc = g->nsucc, rf->cut.succ = g->succ;
    rf->cut.reach = rf_calloc(rf, (size_t)rf->cut.nb, 1);
    rf->cut.bar_of_block = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *rf->cut.bar_of_block);
    if (rf->oom)
        return out_of_memory(rf);
    for (int i = 0; i < rf->cut.nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->cut.bbs[i]);
        if (!term)
            return give_up(rf, "a block without a terminator");
        LLVMOpcode op = LLVMGetInstructionOpcode(term);
        if (op != LLVMBr && op != LLVMSwitch && op != LLVMRet && op != LLVMUnreachable)
            return give_up(rf, "a terminator other than br, switch, ret, unreachable");
    }
    return CL_SUCCESS;
}

/* Marks in `set` the blocks reachable from `start` (forward) or reaching it
 * (backward); in a region walk, barrier blocks have no successors.  (A walk
 * of the graph cut at barriers: no analysis of the function's answers it.) */
static void walk(region_fn *rf, int start, unsigned char *set, bool backward, bool region_walk, int *stack)
{
    int sp = 0;
    if (set[start])
        return;
    set[start] = 1;
    stack[sp++] = start;
    while (sp) {
        int x = stack[--sp];
        if (!backward && region_walk && rf->cut.bar_of_block[x])
            continue;
        int n = backward ? rf->cut.npred[x] : rf->cut.nsucc[x];
        int *next = backward ? rf->cut.pred[x] : rf->cut.succ[x];
        for (int k = 0; k < n; k++) {
            int y = next[k];
            if (!set[y] && rf->cut.reach[y]) {
                set[y] = 1;
                stack[sp++] = y;
            }
        }
    }
}

cl_int rg_find_regions(region_fn *rf)
{
    int *stack = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *stack);
    if (!stack)
        return CL_OUT_OF_HOST_MEMORY;
    for (int i = 0; i < rf->cut.nb; i++) /* (walk() only enters blocks the entry reaches) */
        rf->cut.reach[i] = mc_cfg_reachable(rf->cut.g, i);
    rf->cut.nbar = 0;
    for (int i = 0; i < rf->cut.nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->cut.bbs[i]);
        LLVMValueRef before = LLVMGetPreviousInstruction(term);
        if (rf->cut.reach[i] && before && mc_ends_region(before))
            rf->cut.bar_of_block[i] = ++rf->cut.nbar;
    }
    rf->cut.nreg = rf->cut.nbar + 1;
    rf->cut.bar_sub = rf_calloc(rf, (size_t)rf->cut.nreg, 1);
    rf->cut.bar_div = rf_calloc(rf, (size_t)rf->cut.nreg, 1);
    rf->cut.bar_nu = rf_calloc(rf, (size_t)rf->cut.nreg, 1);
    rf->cut.bar_block = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->cut.bar_block);
    rf->cut.bar_entry = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->cut.bar_entry);
    rf->cut.inreg = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->cut.inreg);
    rf->cut.from_e = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->cut.from_e);
    rf->cut.to_b = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->cut.to_b);
    if (rf->oom) {
        free(stack);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (int i = 0; i < rf->cut.nb; i++) {
        int k = rf->cut.bar_of_block[i];
        if (k) {
            rf->cut.bar_block[k] = i;
            rf->cut.bar_entry[k] = rf->cut.succ[i][0];
            LLVMValueRef call = LLVMGetPreviousInstruction(LLVMGetBasicBlockTerminator(rf->cut.bbs[i]));
            rf->cut.bar_sub[k] = is_sub_group_barrier(call);
            rf->cut.bar_div[k] = mc_is_divergent_implicit_barrier(call) ? 2 : mc_is_implicit_barrier(call) ? 1 : 0;
            rf->cut.masked |= rf->cut.bar_div[k] == 2;
            rf->cut.sg_mode |= rf->cut.bar_sub[k];
            rf->cut.bar_nu[k] = is_non_uniform_barrier(call);
            rf->cut.nu |= rf->cut.bar_nu[k];
        }
    }
    for (int r = 0; r < rf->cut.nreg && !rf->oom; r++) {
        rf->cut.inreg[r] = rf_calloc(rf, (size_t)rf->cut.nb, 1);
        if (r) {
            rf->cut.from_e[r] = rf_calloc(rf, (size_t)rf->cut.nb, 1);
            rf->cut.to_b[r] = rf_calloc(rf, (size_t)rf->cut.nb, 1);
        }
        if (rf->oom)
            break;
        walk(rf, r ? rf->cut.bar_entry[r] : 0, rf->cut.inreg[r], false, true, stack);
        if (r) {
            walk(rf, rf->cut.bar_entry[r], rf->cut.from_e[r], false, false, stack);
            walk(rf, rf->cut.bar_block[r], rf->cut.to_b[r], true, false, stack);
        }
    }
    free(stack);
    return rf_status(rf);
}
