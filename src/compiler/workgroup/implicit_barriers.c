/*
 * Cuts: barriers of Mosaic's own, where a kernel's loop decides whether to go
 * round again (docs/compiler.md, "Loops of the kernel's own").
 *
 * regions.c cuts K.body at barriers into regions that run as loops over the
 * work-items.  A cut ends a region as a barrier does, so a loop's control
 * can run between those loops: once for the group when every work-item
 * stays in the loop or leaves it with the others (the loop interchanged:
 * the kernel's loop outside, the work-items inside, where the vectoriser
 * wants them), or, when work-items leave it in different iterations, for
 * those still in it (masked mode).  This file decides which loops get cuts
 * and puts them in; regions.c builds the regions; the cuts leave K.body once
 * K.wg is built.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/kernel_build.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/implicit_barriers.h"
#include "compiler/workgroup/workgroup.h"

/* A cut: where uniform control leaves the loops over work-items for a while
 * (mc_insert_implicit_barriers), ending a region as a barrier does; removed from
 * K.body once K.wg is built. */
#define CUT_NAME "__mosaic_region_cut"
/* ... where work-items may arrive in different iterations of a loop
 * (masked mode: each region runs the work-items waiting for it). */
#define DIVERGENT_CUT_NAME "__mosaic_region_cut_divergent"

bool mc_is_divergent_implicit_barrier(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && !strcmp(LLVMGetValueName(f), DIVERGENT_CUT_NAME);
}

bool mc_is_implicit_barrier(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && (!strcmp(LLVMGetValueName(f), CUT_NAME) || mc_is_divergent_implicit_barrier(inst));
}

bool mc_ends_region(LLVMValueRef inst)
{
    LLVMValueRef f = mc_called_function(inst);
    if (!f)
        return false;
    const char *name = LLVMGetValueName(f);
    return !strcmp(name, "__mosaic_barrier") || !strcmp(name, "__mosaic_sub_group_barrier") ||
           !strcmp(name, MC_NON_UNIFORM_BARRIER) || mc_is_implicit_barrier(inst);
}

/* Can inst run once for the whole group, in place of every work-item running
 * it: uniform, and without effects on memory? */
bool mc_group_once(const mc_uniformity *ua, LLVMValueRef inst)
{
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMStore: case LLVMFence: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMAlloca:
    case LLVMInvoke: case LLVMCallBr: case LLVMVAArg:
        return false;
    case LLVMCall: /* the uniformity analysis knows pure intrinsics only */
    default:
        return mc_uniform_value(ua, inst);
    }
}

/* Does block bb start with a barrier or a cut (a region ends on entering it)? */
static bool starts_with_barrier(LLVMBasicBlockRef bb)
{
    LLVMValueRef first = LLVMGetFirstInstruction(bb);
    return first && LLVMIsACallInst(first) && mc_ends_region(first);
}

static void build_cut(LLVMModuleRef m, LLVMBuilderRef b, bool divergent)
{
    const char *name = divergent ? DIVERGENT_CUT_NAME : CUT_NAME;
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetModuleContext(m)), NULL, 0, 0));
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

/* Cuts on both edges out of x (a loop's exit branch), except into a block
 * that starts with a barrier or a cut already. */
static void cut_edges_out(LLVMModuleRef m, LLVMBuilderRef b, LLVMBasicBlockRef x, bool divergent)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    for (unsigned s = 0; s < 2; s++) {
        LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
        if (starts_with_barrier(succ))
            continue;
        LLVMBasicBlockRef edge = LLVMInsertBasicBlockInContext(LLVMGetModuleContext(m), succ, "cut");
        LLVMPositionBuilderAtEnd(b, edge);
        build_cut(m, b, divergent);
        LLVMBuildBr(b, succ);
        mc_retarget_phis(b, succ, x, edge);
        LLVMSetSuccessor(term, s, edge);
    }
}

/* Does a cycle through block x (without leaving the function) hold a
 * barrier?  The cycle's blocks: those x reaches that reach x back (on g,
 * the graph the uniformity analysis was made on). */
static bool barrier_in_cycle(const mc_cfg *g, LLVMBasicBlockRef x)
{
    int n = g->n, sp = 0, bx = mc_cfg_block(g, x);
    int *stack = malloc((size_t)n * sizeof *stack);
    unsigned char *fwd = calloc((size_t)n, 1), *back = calloc((size_t)n, 1);
    bool found = true; /* when memory runs out: no cut */
    if (stack && fwd && back) {
        /* forward from x (x included), then backward from x's predecessors (x only on a cycle) */
        fwd[bx] = 1, stack[sp++] = bx;
        while (sp) {
            int b = stack[--sp];
            for (int k = 0; k < g->nsucc[b]; k++)
                if (!fwd[g->succ[b][k]])
                    fwd[g->succ[b][k]] = 1, stack[sp++] = g->succ[b][k];
        }
        for (int k = 0; k < g->npred[bx]; k++)
            if (!back[g->pred[bx][k]])
                back[g->pred[bx][k]] = 1, stack[sp++] = g->pred[bx][k];
        while (sp) {
            int b = stack[--sp];
            for (int k = 0; k < g->npred[b]; k++)
                if (!back[g->pred[b][k]])
                    back[g->pred[b][k]] = 1, stack[sp++] = g->pred[b][k];
        }
        found = false;
        for (int b = 0; b < n && !found; b++)
            for (LLVMValueRef inst = fwd[b] && back[b] ? LLVMGetFirstInstruction(g->blocks[b]) : NULL; inst && !found;
                 inst = LLVMGetNextInstruction(inst))
                found = LLVMIsACallInst(inst) && mc_ends_region(inst) && !mc_is_implicit_barrier(inst);
    }
    free(stack), free(fwd), free(back);
    return found;
}

/* At most this many regions with the cuts (masks of states hold 63): a
 * kernel of many loops (a hash's byte loops) would otherwise take seconds to
 * build for little gain; it keeps its loops inside the work-item loops. */
#define MAX_CUT_REGIONS 32

/* Does branch condition cond count a loop's induction variable to a constant
 * in a few steps (at most SMALL_TRIP_COUNT)?  Such a loop is left to LLVM,
 * which unrolls it whole inside the loop over work-items. */
#define SMALL_TRIP_COUNT 32
static bool small_constant_trip_count(LLVMValueRef cond)
{
    if (!LLVMIsAICmpInst(cond))
        return false;
    LLVMValueRef a = LLVMGetOperand(cond, 0), limit = LLVMGetOperand(cond, 1);
    if (!LLVMIsAConstantInt(limit)) {
        LLVMValueRef t = a;
        a = limit, limit = t;
    }
    if (!LLVMIsAConstantInt(limit) || LLVMGetIntTypeWidth(LLVMTypeOf(limit)) > 64)
        return false;
    /* a: the phi, or the phi plus its step */
    LLVMValueRef phi = a;
    if (LLVMIsABinaryOperator(a) && LLVMGetInstructionOpcode(a) == LLVMAdd)
        phi = LLVMGetOperand(a, 0);
    if (!LLVMIsAPHINode(phi) || LLVMCountIncoming(phi) != 2)
        return false;
    long long start = 0, step = 0;
    bool has_start = false, has_step = false;
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, i);
        if (LLVMIsAConstantInt(v)) {
            start = LLVMConstIntGetSExtValue(v);
            has_start = true;
        } else if (LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAdd &&
                   LLVMGetOperand(v, 0) == phi && LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
            step = LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
            has_step = true;
        }
    }
    if (!has_start || !has_step || !step)
        return false;
    long long distance = LLVMConstIntGetSExtValue(limit) - start;
    long long trips = distance / step;
    return trips >= 0 && trips <= SMALL_TRIP_COUNT;
}

/* Does branch condition cond end a loop in which each work-item strides over
 * a range from its own start ("for (i = lid; i < n; i += size)")?  Each then
 * runs a few iterations, one more or less than the others: cheaper inside
 * the loop over work-items than with a pass over the group per iteration. */
static bool strided_over_items(const mc_uniformity *ua, LLVMValueRef cond)
{
    if (!LLVMIsAICmpInst(cond))
        return false;
    for (int side = 0; side < 2; side++) {
        LLVMValueRef a = LLVMGetOperand(cond, (unsigned)side), phi = a;
        if (LLVMIsABinaryOperator(a) && LLVMGetInstructionOpcode(a) == LLVMAdd)
            phi = LLVMGetOperand(a, 0);
        if (!LLVMIsAPHINode(phi) || LLVMCountIncoming(phi) != 2 ||
            !mc_uniform_value(ua, LLVMGetOperand(cond, (unsigned)!side)))
            continue;
        bool varying_start = false, uniform_step = false;
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, i);
            if (LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAdd && LLVMGetOperand(v, 0) == phi)
                uniform_step |= mc_uniform_value(ua, LLVMGetOperand(v, 1));
            else
                varying_start |= !mc_uniform_value(ua, v);
        }
        if (varying_start && uniform_step)
            return true;
    }
    return false;
}

/* Is the loop that exit block bb leaves entered only where a work-item's
 * value equals one the group shares (`if (y % stride == get_global_id(0))`,
 * `if (lid == 0)`)?  The nearest branch on a varying value that the loop's
 * header depends on, outside the loop, compares for equality and the loop
 * is on its equal side.  Few work-items (one, often) then run the loop: cut,
 * each of its iterations would be a pass over the whole group for them
 * (the CTS's image allocation kernel, 16384 iterations a row, ran for
 * hours); inside the loop over work-items it costs their iterations alone. */
static bool entered_by_few(const mc_uniformity *ua, LLVMBasicBlockRef bb)
{
    const mc_cfg *g = mc_uniformity_cfg(ua);
    int b = mc_cfg_block(g, bb), l = b >= 0 ? g->loop_of[b] : -1;
    if (l < 0)
        return false;
    int h = g->loops[l].header;
    for (int d = g->idom[h], below = h; d >= 0; below = d, d = g->idom[d]) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[d]);
        if (term && LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
            !mc_uniform_value(ua, LLVMGetCondition(term))) {
            LLVMValueRef cond = LLVMGetCondition(term);
            if (!LLVMIsAICmpInst(cond))
                return false;
            LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
            int equal_side = p == LLVMIntEQ ? 0 : p == LLVMIntNE ? 1 : -1;
            bool one_shared =
                mc_uniform_value(ua, LLVMGetOperand(cond, 0)) != mc_uniform_value(ua, LLVMGetOperand(cond, 1));
            int to = equal_side >= 0 ? mc_cfg_block(g, LLVMGetSuccessor(term, (unsigned)equal_side)) : -1;
            return one_shared && to >= 0 && mc_dominates(g, to, below) &&
                   LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1);
        }
        if (d == g->idom[d]) /* the entry */
            return false;
    }
    return false;
}

/* The exit branches of fn's loops that get cuts (cut_uniform_loops), in
 * exits (divergent[i]: work-items leave that loop in different iterations);
 * how many.  None when the cuts would make more than MAX_CUT_REGIONS regions. */
static int loops_to_cut(LLVMValueRef fn, const mc_uniformity *ua, LLVMBasicBlockRef *exits, unsigned char *divergent)
{
    int nx = 0, barriers = 0, cuts = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            barriers += LLVMIsACallInst(i) && mc_ends_region(i);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term) ||
            small_constant_trip_count(LLVMGetCondition(term)))
            continue;
        if (mc_uniform_loop_exit(ua, bb)) {
            divergent[nx] = 0;
            exits[nx++] = bb;
            cuts += 3; /* before the branch and on both ways out */
        } else if (mc_divergent_loop_exit(ua, bb) && !strided_over_items(ua, LLVMGetCondition(term)) &&
                   !entered_by_few(ua, bb) && !barrier_in_cycle(mc_uniformity_cfg(ua), bb)) {
            divergent[nx] = 1;
            exits[nx++] = bb;
            cuts += 2;
        }
    }
    return barriers + cuts + 1 > MAX_CUT_REGIONS ? 0 : nx;
}

/* A loop whose work-items all stay or all leave together (a uniform exit
 * branch under uniform control) decides that once for the group: a cut goes
 * before the uniform end of the deciding block (the branch and what only it
 * needs), and on both edges out of it.  The deciding code becomes a region of
 * its own that runs once (scalar_region), and the loop's body runs as loops
 * over the work-items between cuts: the uniform loop outside, the work-items
 * inside, where the vectoriser wants them.  Returns whether it cut. */
bool mc_insert_implicit_barriers(LLVMModuleRef m, LLVMValueRef body, LLVMBuilderRef b, const mc_uniformity *ua)
{
    int n = (int)LLVMCountBasicBlocks(body), nx = 0;
    LLVMBasicBlockRef *exits = malloc((size_t)(n ? n : 1) * sizeof *exits);
    if (!exits)
        return false;
    unsigned char *divergent = calloc((size_t)(n ? n : 1), 1);
    if (!divergent) {
        free(exits);
        return false;
    }
    nx = loops_to_cut(body, ua, exits, divergent);
    for (int i = 0; i < nx; i++) {
        LLVMBasicBlockRef x = exits[i];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
        if (divergent[i]) { /* each work-item's own way: cuts after the branch only */
            cut_edges_out(m, b, x, true);
            continue;
        }
        /* the cut before the block's uniform end */
        LLVMValueRef at = term;
        for (LLVMValueRef p = LLVMGetPreviousInstruction(term); p && !LLVMIsAPHINode(p) && mc_group_once(ua, p);
             p = LLVMGetPreviousInstruction(p))
            at = p;
        LLVMValueRef before = LLVMGetPreviousInstruction(at);
        if (!(before && LLVMIsACallInst(before) && mc_ends_region(before))) {
            LLVMPositionBuilderBefore(b, at);
            build_cut(m, b, false);
        }
        cut_edges_out(m, b, x, false); /* and on each way out */
    }
    free(exits);
    free(divergent);
    return nx > 0;
}

/* The cuts go once K.wg is built: K.body stays what the kernel says. */
void mc_remove_implicit_barriers(LLVMModuleRef m, LLVMValueRef body)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, CUT_NAME), fd = LLVMGetNamedFunction(m, DIVERGENT_CUT_NAME);
    if (!f && !fd)
        return;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if (mc_is_implicit_barrier(i))
                LLVMInstructionEraseFromParent(i);
        }
    if (f && !LLVMGetFirstUse(f))
        LLVMDeleteFunction(f);
    if (fd && !LLVMGetFirstUse(fd))
        LLVMDeleteFunction(fd);
}

bool mc_has_loop_for_implicit_barrier(const mc_kernel_build *kb, mc_analyses *an)
{
    const mc_uniformity *ua = mc_analyses_uniformity(an, kb->body, LLVMCountParams(kb->body) - 3);
    int n = (int)LLVMCountBasicBlocks(kb->body);
    LLVMBasicBlockRef *exits = malloc((size_t)(n ? n : 1) * sizeof *exits);
    unsigned char *divergent = malloc((size_t)(n ? n : 1));
    bool any = ua && exits && divergent && loops_to_cut(kb->body, ua, exits, divergent) > 0;
    free(exits), free(divergent);
    return any;
}
