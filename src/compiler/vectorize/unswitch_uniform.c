/*
 * A version of a row's loop for each answer of its uniform branches.
 *
 * Kernels branch on their arguments: CLBlast's direct GEMM stores
 * `alpha * c` when `beta == 0` and reads C first otherwise, and loads its
 * tiles with vectors when `a_ld % VWMD == 0 && a_offset % VWMD == 0`; other
 * kernels take a flag for a transpose or a mode.  In K.wg's loop over a row
 * such a branch goes the same way for every work-item, but the loop
 * vectoriser cannot know it: it runs both sides under masks (their accesses
 * masked gathers and scatters), or gives up on the loop.  LLVM's own
 * unswitching weighs the whole loop against a small size and leaves such
 * loops alone.
 *
 * Here each x loop with a branch on a condition the same for the whole
 * group (arguments, group ids, constants and what is computed from them,
 * group_invariant), or a select of an index or address on one, gets a
 * version for each answer of its first such condition, each branch and
 * select on it a constant in each version, and each version the same
 * again for its next condition, up to MAX_CONDITIONS; the loop's entry
 * computes a condition once a row and takes the version for its answer.
 * The optimiser then drops each version's dead side.  Each version is
 * entered through a block of its own, so bounds_check_versioning.c (which runs after)
 * can version it again.
 *
 * Conditions the same along a row only (on the local y id: a tile's bounds
 * check in y) are left alone: on CLBlast's GEMM program they made the cold
 * build half as long again and the kernels no faster.
 */
#include <stdlib.h>

#include "compiler/ir/kernel_build.h"
#include "compiler/ir/loop_versioning.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

/* Conditions a loop is versioned on at most: 2^MAX_CONDITIONS versions. */
#define MAX_CONDITIONS 2
/* Blocks and instructions of a loop beyond which it is not copied, and
 * what the copies may add to one kernel in all: the build's time grows with
 * the code (CLBlast's XgemmDirectTN adds about 1900). */
#define MAX_LOOP_SIZE 6000
#define MAX_KERNEL_COPIES 24000

static bool in_loop_block(const mc_row_loop *rl, LLVMBasicBlockRef bb)
{
    return mc_row_in_loop(rl, LLVMGetFirstInstruction(bb));
}

/* Is v the same for every work-item of the group: computed from constants,
 * the work-group function's parameters and loads marked invariant (the
 * arguments, the group's ids and sizes), never from a phi (the loops over
 * y and z, the region's state)?  budget: values the walk may still visit. */
static bool group_invariant(LLVMValueRef v, int *budget)
{
    if (LLVMIsAConstant(v) || LLVMIsAArgument(v))
        return true;
    if (!LLVMIsAInstruction(v) || --*budget < 0 || LLVMIsAPHINode(v) || LLVMIsACallInst(v) ||
        LLVMIsAAllocaInst(v))
        return false;
    if (LLVMIsALoadInst(v) &&
        (LLVMGetVolatile(v) ||
         !LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "invariant.load", 14))))
        return false;
    for (int k = 0; k < LLVMGetNumOperands(v); k++)
        if (!group_invariant(LLVMGetOperand(v, (unsigned)k), budget))
            return false;
    return true;
}

/* Is condition c worth a version: not a constant, invariant in the loop,
 * and the same for the whole group? */
static bool group_wide(const mc_row_loop *rl, LLVMValueRef c)
{
    int budget = 64;
    return !LLVMIsAConstant(c) && mc_row_slope(rl, c) == 0 && group_invariant(c, &budget);
}

/* The condition of t when t is a branch between two blocks of the loop on
 * something the same for every work-item of the group (not a constant).
 * Conditions the same along a row only (`ly < s`, a bounds check of y) are
 * left alone: versions for them cost more build time than they save. */
static LLVMValueRef uniform_condition(const mc_row_loop *rl, LLVMValueRef t)
{
    if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t))
        return NULL;
    LLVMValueRef c = LLVMGetCondition(t);
    if (!in_loop_block(rl, LLVMGetSuccessor(t, 0)) || !in_loop_block(rl, LLVMGetSuccessor(t, 1)))
        return NULL;
    return group_wide(rl, c) ? c : NULL;
}

/* The condition of select s when it picks between two integers or pointers
 * (an index, an address: `t ? i * ld + k : k * ld + i`) on something the
 * same for every work-item of the group: a version per answer turns a
 * gather into a vector access.  A select of floats is a blend, cheap, and
 * one of i1 a logical and or or (its condition's branch is versioned). */
static LLVMValueRef uniform_select_condition(const mc_row_loop *rl, LLVMValueRef s)
{
    if (!LLVMIsASelectInst(s))
        return NULL;
    LLVMValueRef c = LLVMGetOperand(s, 0);
    LLVMTypeRef t = LLVMTypeOf(s);
    if (LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind ||
        !(LLVMGetTypeKind(t) == LLVMPointerTypeKind ||
          (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) >= 8)))
        return NULL;
    return group_wide(rl, c) ? c : NULL;
}

/* The first uniform condition of a block the loop can reach from its
 * header, not through the side a constant branch leaves (a side an earlier
 * version took away); NULL if none or memory ran out. */
static LLVMValueRef first_uniform_condition(const mc_row_loop *rl)
{
    unsigned char *seen = calloc(rl->nblocks, 1);
    unsigned *stack = malloc(rl->nblocks * sizeof *stack), sp = 0;
    LLVMValueRef cond = NULL;
    if (!seen || !stack)
        goto out;
    seen[0] = 1;
    stack[sp++] = 0;
    while (sp && !cond) {
        LLVMBasicBlockRef bb = rl->blocks[stack[--sp]];
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !cond; i = LLVMGetNextInstruction(i))
            cond = uniform_select_condition(rl, i);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (cond || (cond = uniform_condition(rl, t)))
            break;
        unsigned n = LLVMGetNumSuccessors(t);
        for (unsigned j = 0; j < n; j++) {
            if (LLVMIsABranchInst(t) && n == 2 && LLVMIsAConstantInt(LLVMGetCondition(t)) &&
                j == (LLVMConstIntGetZExtValue(LLVMGetCondition(t)) ? 1u : 0u))
                continue; /* the side not taken */
            int k = pmap_get(&rl->index, LLVMGetSuccessor(t, j));
            if (k >= 0 && (unsigned)k < rl->nblocks && !seen[k]) {
                seen[k] = 1;
                stack[sp++] = (unsigned)k;
            }
        }
    }
out:
    free(seen);
    free(stack);
    return cond;
}

/* Is c cond, or the same compare of the same operands (inlining leaves one
 * per call: CLBlast's `beta == 0` for each element a work-item stores)? */
static bool same_condition(LLVMValueRef c, LLVMValueRef cond)
{
    return c == cond || (LLVMIsAICmpInst(c) && LLVMIsAICmpInst(cond) &&
                         LLVMGetICmpPredicate(c) == LLVMGetICmpPredicate(cond) &&
                         LLVMGetOperand(c, 0) == LLVMGetOperand(cond, 0) &&
                         LLVMGetOperand(c, 1) == LLVMGetOperand(cond, 1));
}

/* Every branch and select of the loop (copy: of its copy) on cond takes answer. */
static void fix_condition(const mc_row_loop *rl, bool copy, LLVMValueRef cond, bool answer)
{
    LLVMValueRef constant = LLVMConstInt(LLVMTypeOf(cond), answer, 0);
    for (unsigned k = 0; k < rl->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef mine = copy ? mc_row_copy_of(rl, i) : i;
            if (LLVMIsASelectInst(i) && same_condition(LLVMGetOperand(i, 0), cond))
                LLVMSetOperand(mine, 0, constant);
            else if (LLVMIsABranchInst(i) && LLVMIsConditional(i) && same_condition(LLVMGetCondition(i), cond))
                LLVMSetCondition(mine, constant);
        }
}

/* A block of its own before header, entered instead of it from rl's preheader. */
static LLVMBasicBlockRef entry_block(LLVMBuilderRef b, const mc_row_loop *rl, LLVMBasicBlockRef header)
{
    LLVMBasicBlockRef entry =
        LLVMInsertBasicBlockInContext(LLVMGetModuleContext(LLVMGetGlobalParent(rl->wg)), header, "uniform.entry");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, header);
    mc_retarget_phis(b, header, rl->pre, entry);
    return entry;
}

/* Versions the x loop whose latch is latch on its first uniform condition,
 * then each version on its next one, depth conditions in all, while the
 * copies fit in *budget (blocks and instructions); how many versions it
 * made beyond the loop. */
static unsigned version_loop(LLVMBuilderRef b, LLVMValueRef wg, LLVMBasicBlockRef latch, unsigned depth,
                             unsigned *budget)
{
    mc_row_loop rl;
    LLVMValueRef cond = NULL;
    if (mc_row_loop_open(&rl, wg, latch) && rl.ncopy <= MAX_LOOP_SIZE && rl.ncopy <= *budget)
        cond = first_uniform_condition(&rl);
    if (!cond || !mc_row_copy(&rl, b)) {
        mc_row_loop_close(&rl);
        return 0;
    }
    *budget -= rl.ncopy;
    /* the copy for rows where cond holds, the loop for the others; the
     * condition computed once, before the loop */
    fix_condition(&rl, true, cond, true);
    fix_condition(&rl, false, cond, false);
    mc_row_before_loop(&rl, b);
    LLVMValueRef now = mc_row_at(b, &rl, cond, LLVMConstNull(LLVMTypeOf(rl.x)));
    LLVMBasicBlockRef copy_latch = mc_row_copy_of_block(&rl, latch);
    LLVMBasicBlockRef holds = entry_block(b, &rl, mc_row_copy_of_block(&rl, rl.header));
    LLVMBasicBlockRef fails = entry_block(b, &rl, rl.header);
    LLVMValueRef old = LLVMGetBasicBlockTerminator(rl.pre);
    LLVMPositionBuilderBefore(b, old);
    LLVMBuildCondBr(b, now, holds, fails);
    LLVMInstructionEraseFromParent(old);
    mc_row_loop_close(&rl);
    unsigned made = 1;
    if (depth > 1)
        made += version_loop(b, wg, latch, depth - 1, budget) + version_loop(b, wg, copy_latch, depth - 1, budget);
    return made;
}

static void visit(mc_kernel_build *kb, LLVMBuilderRef b, LLVMBasicBlockRef latch, unsigned index, void *data)
{
    unsigned *budget = data;
    if (index == 0) /* a kernel's first loop */
        *budget = MAX_KERNEL_COPIES;
    kb->stats[MC_STAT_uniform_rows] += version_loop(b, kb->wg, latch, MAX_CONDITIONS, budget) > 0;
}

void mc_unswitch_uniform_branches(mc_kernel_build *kbs, size_t nk)
{
    unsigned budget = MAX_KERNEL_COPIES;
    mc_each_row_loop(kbs, nk, visit, &budget);
}
