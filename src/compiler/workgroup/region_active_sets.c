/*
 * Active sets: the non-uniform sub-group functions in sub-group mode
 * (region_sub_groups.c; docs/subgroups.md, "Non-uniform functions").
 *
 * Each non-uniform function waits at a non-uniform sub-group barrier
 * (MC_NON_UNIFORM_BARRIER), which returns the mask of the sub-group's
 * *active* work-items: those that reach that call together.  Here it is a
 * sub-group barrier like the others (a cut), and the work-items waiting at
 * it are an active set:
 *  - when every work-item of the group reached it, the region after it runs
 *    as the uniform copy, with the whole sub-group active (a constant mask);
 *  - when they stopped at different places and some wait at a non-uniform
 *    barrier, the one of lowest number (the earliest in K.body's layout, the
 *    fibers' rule: the lowest call site) runs first, in its *masked* uniform
 *    copy: each work-item runs the region only when its kept state is that
 *    barrier's (the others keep theirs), and the active mask of each
 *    sub-group is its members with that state, read from the states as one
 *    vector; then the same choice again, until none waits at one;
 *  - the fallback (one sub-group at a time) does the same per sub-group:
 *    every region after the first runs for the work-items whose state is its
 *    own, each stores its next state, and the sub-group's dispatch chooses
 *    again after each region.
 * Work-items waiting at a uniform barrier, or finished, wait for the active
 * sets to drain, so `if (c) x = f();` gives f the members with c, and the
 * others join the next call they all reach, as with fibers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/workgroup/regions_internal.h"

/* ---- K.body: the hook's result as a call of its own ----------------------------------------- */

static bool is_hook(LLVMValueRef i)
{
    return i && LLVMIsACallInst(i) && mc_called_function(i) &&
           !strcmp(LLVMGetValueName(mc_called_function(i)), MC_NON_UNIFORM_BARRIER);
}

/* A non-uniform barrier whose mask nothing uses, followed at once by
 * another (a reduction's last barrier, then sub_group_elect's): the
 * work-items it releases reach the second with nothing done between, and
 * no other way leads there, so the second alone gives them the same set
 * (the lower barrier goes first, so any that would have joined them at the
 * first join them at the second).  The first goes: one masked region pass
 * less.  (K.wi loses it too, to the same effect.) */
static void drop_back_to_back_barriers(region_fn *rf)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(rf->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if (is_hook(i) && is_hook(next) && !LLVMGetFirstUse(i)) {
                LLVMInstructionEraseFromParent(i);
                mc_analyses_invalidate(rf->an, rf->body);
            }
        }
}

cl_int rg_mark_active_masks(region_fn *rf, LLVMBuilderRef b)
{
    drop_back_to_back_barriers(rf);
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(rf->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n += is_hook(i);
    if (!n)
        return CL_SUCCESS;
    mc_analyses_invalidate(rf->an, rf->body);
    rf->sg.nu_pairs = rf_calloc(rf, 2 * (size_t)n, sizeof *rf->sg.nu_pairs);
    if (!rf->sg.nu_pairs)
        return CL_OUT_OF_HOST_MEMORY;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(rf->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!is_hook(i))
                continue;
            LLVMTypeRef ty = LLVMFunctionType(LLVMTypeOf(i), NULL, 0, 0);
            LLVMValueRef mask_fn = LLVMGetNamedFunction(rf->m, NU_MASK_NAME);
            if (!mask_fn)
                mask_fn = LLVMAddFunction(rf->m, NU_MASK_NAME, ty);
            LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(i));
            LLVMValueRef mask = LLVMBuildCall2(b, ty, mask_fn, NULL, 0, "active");
            LLVMReplaceAllUsesWith(i, mask);
            rf->sg.nu_pairs[2 * rf->sg.nnu_pairs] = i;
            rf->sg.nu_pairs[2 * rf->sg.nnu_pairs + 1] = mask;
            rf->sg.nnu_pairs++;
            i = mask;
        }
    return CL_SUCCESS;
}

void rg_restore_active_masks(region_fn *rf)
{
    for (int k = 0; k < rf->sg.nnu_pairs; k++) {
        LLVMValueRef hook = rf->sg.nu_pairs[2 * k], mask = rf->sg.nu_pairs[2 * k + 1];
        LLVMReplaceAllUsesWith(mask, hook);
        LLVMInstructionEraseFromParent(mask);
    }
    LLVMValueRef mask_fn = LLVMGetNamedFunction(rf->m, NU_MASK_NAME);
    if (mask_fn && !LLVMGetFirstUse(mask_fn))
        LLVMDeleteFunction(mask_fn);
    free(rf->sg.nu_pairs);
    rf->sg.nu_pairs = NULL;
    rf->sg.nnu_pairs = 0;
}

/* ---- the masks --------------------------------------------------------------------------- */

bool rg_guarded(const region_fn *rf, int r)
{
    return rf->cut.nu && r && (!rf->sg.uni || rf->sg.masked);
}

/* The members of the sub-group starting at linear id lo (n of them, or all
 * S when n is NULL) whose kept state is r: bit i for sub-group local id i.
 * (The states are n64 long, a multiple of S: the vector stays inside.) */
LLVMValueRef rg_active_mask(region_fn *rf, LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef n, int r)
{
    LLVMTypeRef vty = LLVMVectorType(rf->i32, MOSAIC_SUB_GROUP_SIZE);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &lo, 1, "");
    LLVMValueRef states = LLVMBuildLoad2(b, vty, p, "sg.states");
    LLVMSetAlignment(states, 4);
    LLVMValueRef elems[MOSAIC_SUB_GROUP_SIZE];
    for (int i = 0; i < MOSAIC_SUB_GROUP_SIZE; i++)
        elems[i] = LLVMConstInt(rf->i32, (unsigned)r, 0);
    LLVMValueRef want = LLVMConstVector(elems, MOSAIC_SUB_GROUP_SIZE);
    LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, states, want, "");
    LLVMTypeRef bits_ty = LLVMIntTypeInContext(rf->c, MOSAIC_SUB_GROUP_SIZE);
    LLVMValueRef mask = LLVMBuildZExt(b, LLVMBuildBitCast(b, eq, bits_ty, ""), rf->i32, "");
    if (n) { /* a partial sub-group: the states beyond it are another's or none */
        LLVMValueRef n32 = LLVMBuildTrunc(b, n, rf->i32, "");
        LLVMValueRef members = LLVMBuildSub(b, LLVMBuildShl(b, LLVMConstInt(rf->i32, 1, 0), n32, ""),
                                            LLVMConstInt(rf->i32, 1, 0), "");
        mask = LLVMBuildAnd(b, mask, members, "");
    }
    LLVMSetValueName2(mask, "active", 6);
    return mask;
}

/* Where the mask of states (bit s for state s) has a non-uniform barrier's
 * states, on to starts[] of the lowest; else on from the builder's place in
 * a block of its own (PREFIX.rest), where the builder is left. */
/* The states of the non-uniform barriers that can be reached, a bit each. */
static unsigned long long nu_states(const region_fn *rf)
{
    MOSAIC_ASSERT(rf->cut.nbar < 64); /* a bit per state (analyse gives up beyond) */
    unsigned long long bits = 0;
    for (int s = 1; s < rf->cut.nreg; s++)
        if (rf->cut.bar_nu[s] && rf->cut.reach[rf->cut.bar_block[s]])
            bits |= 1ull << s;
    return bits;
}

void rg_active_sets_first(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, LLVMBasicBlockRef *starts,
                          const char *prefix)
{
    unsigned long long nu_bits = nu_states(rf);
    char name[48];
    snprintf(name, sizeof name, "%s.active", prefix);
    LLVMBasicBlockRef active = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    snprintf(name, sizeof name, "%s.rest", prefix);
    LLVMBasicBlockRef rest = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    LLVMValueRef waiting = LLVMBuildAnd(b, mask, const64(rf, nu_bits), "nu.waiting");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, waiting, const64(rf, 0), ""), active, rest);
    LLVMPositionBuilderAtEnd(b, active);
    LLVMValueRef lowest = rg_lowest_state(rf, b, waiting, true, "nu.first");
    snprintf(name, sizeof name, "%s.none", prefix);
    LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    LLVMValueRef sw = LLVMBuildSwitch(b, lowest, none, (unsigned)rf->cut.nreg);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (nu_bits >> s & 1)
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), starts[s]);
    LLVMPositionBuilderAtEnd(b, none);
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, rest);
}

/* ---- chained masked copies ------------------------------------------------------------------
 * A masked copy of region r whose work-items can only end at one place t,
 * a non-uniform barrier, leaves its active set waiting there; the next
 * choice is t whenever no work-item waits at a non-uniform barrier below t
 * (r's are all at t now).  Sub-groups are independent (the choice of the
 * lowest barrier of the group picks, for each sub-group, the lowest of its
 * own or one where it has none), so then each sub-group may run t's masked
 * code right after r's, as the fallback runs a sub-group on through its
 * barriers: one pass over the sub-groups and the states instead of two,
 * and what r keeps for t (a reduction's sum for sub_group_elect's branch)
 * is read back while it is in the cache. */

int rg_chain_target(const region_fn *rf, const region_loop *rl, bool *always)
{
    int t = rl->only;
    if (!rf->sg.masked || rf->sg.chained || rl->nstates != 1 || t <= 0 || t == rl->r || !rf->cut.bar_nu[t] ||
        !rf->cut.reach[rf->cut.bar_block[t]])
        return 0;
    *always = !(nu_states(rf) & ((1ull << t) - 1) & ~(1ull << rl->r));
    return t;
}

void rg_choose_chained_copy(region_fn *rf, LLVMBuilderRef b, const region_loop *rl, LLVMBasicBlockRef plain)
{
    unsigned long long below = nu_states(rf) & ((1ull << rl->chain) - 1) & ~(1ull << rl->r);
    LLVMPositionBuilderAtEnd(b, rf->sg.mpre[rl->r]);
    LLVMValueRef before = LLVMBuildLoad2(b, rf->i64, rf->sg.smask_var, "states.before");
    LLVMValueRef first = LLVMBuildAnd(b, before, const64(rf, below), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, first, const64(rf, 0), "chain"), rf->sg.chain_pre, plain);
}
