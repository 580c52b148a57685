/*
 * Which values of a work-item function are the same for every work-item of a
 * group ("uniform"), and which blocks every work-item runs or none does.
 *
 * regions.c uses it on K.body: a uniform value that lives across a barrier
 * is read once per region instead of once per work-item, and the control of
 * a uniform loop runs once for the group between loops over the work-items.
 *
 * A value varies between work-items when it depends on the local id (the
 * last three parameters), on memory other work-items may write (any load
 * but an !invariant.load one of a uniform address: the work-group context,
 * the argument block), on a private variable's address, on an atomic or on a
 * call other than a pure intrinsic.  A branch on a varying condition makes
 * the work-items part: the blocks it reaches before its immediate
 * post-dominator run for some of them only, every phi there and at the
 * post-dominator varies (work-items may arrive from different sides), and so
 * does every value defined there and used after (a loop that work-items
 * leave in different iterations).  All of that is iterated to a fixed point.
 * A block that ends in `unreachable` is never left: no work-item goes there,
 * so a branch into it parts none (post-dominators ignore such paths).
 * Post-dominators and loops come from the shared analysis (cfg.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/uniformity.h"
#include "compiler/ir/util.h"

struct mc_uniformity {
    unsigned first_varying; /* parameters from here on (the local id) vary */
    pmap aidx;
    const mc_cfg *g;             /* the blocks, in layout order, and their dominators and loops */
    mc_cfg *owned;               /* g, when mc_uniformity_new made it (else the caller's) */
    int nb;                      /* g->n */
    int *ipdom;                  /* [block] immediate post-dominator; nb (the virtual exit) when it never leaves */
    unsigned char *loop_exit;    /* [block] leaves a natural loop it is in */
    int *depth;                  /* [block] how many natural loops hold it */
    unsigned char *parted;       /* [block] runs for some work-items only */
    unsigned char *split_done;   /* [block] its varying branch was accounted for */
    unsigned char *barrier;      /* [block] calls __mosaic_barrier */
    unsigned char *convergent;   /* [block] a branch on a varying value that barriers make uniform */
    int ni;
    LLVMValueRef *insts;
    int *iblock;
    pmap iidx;
    unsigned char *varying;      /* [instruction] */
};

/* ---- the graph --------------------------------------------------------------------- */

static bool reachable(const mc_uniformity *u, int b)
{
    return mc_cfg_reachable(u->g, b);
}

/* Does loop l count here?  A loop whose only latch is its header (one block
 * that branches to itself) does not: this analysis has always left those
 * out, and the cuts and regions built on its answers (implicit_barriers.c, regions.c)
 * are what the generated code is today. */
static bool counted_loop(const mc_loop *l)
{
    return !(l->nlatches == 1 && l->latches[0] == l->header);
}

/* The per-block state, and what it takes from the shared analysis: the join
 * of each branch (its immediate post-dominator), the blocks that leave a
 * natural loop and how many loops hold each block. */
static bool number_blocks(mc_uniformity *u)
{
    u->nb = u->g->n;
    size_t n = (size_t)u->nb + 1;
    u->ipdom = calloc(n, sizeof *u->ipdom);
    u->loop_exit = calloc(n, 1);
    u->parted = calloc(n, 1);
    u->split_done = calloc(n, 1);
    u->barrier = calloc(n, 1);
    u->convergent = calloc(n, 1);
    u->depth = calloc(n, sizeof *u->depth);
    if (!u->ipdom || !u->loop_exit || !u->depth || !u->parted || !u->split_done || !u->barrier || !u->convergent)
        return false;
    for (int b = 0; b < u->nb; b++)
        u->ipdom[b] = u->g->ipdom[b] < 0 ? u->nb : u->g->ipdom[b];
    for (int l = 0; l < u->g->nloops; l++) {
        const mc_loop *loop = &u->g->loops[l];
        if (!counted_loop(loop))
            continue;
        for (int k = 0; k < loop->nexiting; k++)
            u->loop_exit[loop->exiting[k]] = 1;
        for (int k = 0; k < loop->nblocks; k++)
            u->depth[loop->blocks[k]]++;
    }
    return true;
}

/* ---- the values ---------------------------------------------------------------------- */

static bool number_instructions(mc_uniformity *u)
{
    int n = 0;
    for (int b = 0; b < u->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(u->g->blocks[b]); i; i = LLVMGetNextInstruction(i))
            n++;
    u->ni = n;
    u->insts = calloc((size_t)n + 1, sizeof *u->insts);
    u->iblock = calloc((size_t)n + 1, sizeof *u->iblock);
    u->varying = calloc((size_t)n + 1, 1);
    if (!u->insts || !u->iblock || !u->varying || !pmap_init(&u->iidx, (size_t)n))
        return false;
    n = 0;
    for (int b = 0; b < u->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(u->g->blocks[b]); i; i = LLVMGetNextInstruction(i)) {
            u->insts[n] = i;
            u->iblock[n] = b;
            pmap_put(&u->iidx, i, n++);
            LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            if (f && !strcmp(LLVMGetValueName(f), "__mosaic_barrier"))
                u->barrier[b] = 1;
        }
    return true;
}

static bool value_varies(const mc_uniformity *u, LLVMValueRef v)
{
    if (LLVMIsAInstruction(v)) {
        int k = pmap_get(&u->iidx, v);
        return k < 0 || u->varying[k];
    }
    if (LLVMIsAArgument(v)) {
        int p = pmap_get(&u->aidx, v);
        return p < 0 || (unsigned)p >= u->first_varying;
    }
    return false; /* constants, globals, blocks, metadata */
}

/* Does instruction k vary, given what is known of its operands? */
static bool computes_varying(const mc_uniformity *u, int k)
{
    LLVMValueRef i = u->insts[k];
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    unsigned ops = (unsigned)LLVMGetNumOperands(i);
    switch (op) {
    case LLVMLoad:
        if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
            !LLVMGetMetadata(i, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(i)), "invariant.load", 14)))
            return true;
        break;
    case LLVMAlloca: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMVAArg: case LLVMLandingPad:
    case LLVMInvoke: case LLVMCallBr:
        return true;
    case LLVMCall:
        if (!mc_pure_intrinsic(mc_called_function(i)))
            return true;
        ops--; /* the callee */
        break;
    case LLVMBr: case LLVMSwitch: case LLVMRet: case LLVMStore: case LLVMFence: case LLVMUnreachable:
        return false; /* no value */
    default:
        break;
    }
    if (op == LLVMPHI) {
        unsigned n = LLVMCountIncoming(i);
        for (unsigned j = 0; j < n; j++)
            if (value_varies(u, LLVMGetIncomingValue(i, j)))
                return true;
        return false;
    }
    for (unsigned j = 0; j < ops; j++)
        if (value_varies(u, LLVMGetOperand(i, j)))
            return true;
    return false;
}

/* The condition block b branches on, or NULL (no branch, or an unconditional one). */
static LLVMValueRef branch_condition(LLVMBasicBlockRef bb)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (!term)
        return NULL;
    if (LLVMIsABranchInst(term))
        return LLVMIsConditional(term) ? LLVMGetCondition(term) : NULL;
    if (LLVMIsASwitchInst(term))
        return LLVMGetOperand(term, 0);
    return NULL;
}

/* Block b branches on a varying condition: the blocks before its immediate
 * post-dominator run for some work-items only; phis there and at the
 * post-dominator, and values defined there and used after, vary. */
/* Does every way out of block b meet a work-group barrier before join
 * (reached again, or the end)?  Then OpenCL's rule that all work-items of a
 * group reach the same barriers says they all take the same way: the branch
 * is treated as uniform, whatever its condition looks like (a kernel that
 * chooses between two barrier loops on a test of the local id). */
static bool barrier_on_every_way(const mc_uniformity *u, int b, unsigned char *seen, int *stack)
{
    int join = u->ipdom[b];
    for (int k = 0; k < u->g->nsucc[b]; k++) {
        int s = u->g->succ[b][k], sp = 0;
        bool met = false;
        if (s == join)
            return false;
        memset(seen, 0, (size_t)u->nb);
        seen[s] = 1;
        stack[sp++] = s;
        while (sp && !met) {
            int x = stack[--sp];
            met = u->barrier[x];
            for (int j = 0; j < u->g->nsucc[x] && !met; j++) {
                int y = u->g->succ[x][j];
                if (y != join && y != b && !seen[y])
                    seen[y] = 1, stack[sp++] = y;
            }
        }
        if (!met)
            return false;
    }
    return u->g->nsucc[b] > 0;
}

static bool account_for_split(mc_uniformity *u, int b, unsigned char *inside, int *stack)
{
    if (barrier_on_every_way(u, b, inside, stack)) {
        u->convergent[b] = 1;
        return false;
    }
    int join = u->ipdom[b], sp = 0;
    memset(inside, 0, (size_t)u->nb);
    for (int k = 0; k < u->g->nsucc[b]; k++) {
        int s = u->g->succ[b][k];
        if (s != join && !inside[s]) {
            inside[s] = 1;
            stack[sp++] = s;
        }
    }
    while (sp) {
        int x = stack[--sp];
        for (int k = 0; k < u->g->nsucc[x]; k++) {
            int y = u->g->succ[x][k];
            if (y != join && !inside[y]) {
                inside[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    bool changed = false;
    for (int x = 0; x < u->nb; x++)
        if (inside[x] && !u->parted[x])
            u->parted[x] = 1, changed = true;
    for (int k = 0; k < u->ni; k++) {
        if (u->varying[k])
            continue;
        LLVMValueRef i = u->insts[k];
        int blk = u->iblock[k];
        bool varies = LLVMIsAPHINode(i) && (inside[blk] || blk == join);
        if (!varies && inside[blk])
            for (LLVMUseRef use = LLVMGetFirstUse(i); use && !varies; use = LLVMGetNextUse(use)) {
                int ku = pmap_get(&u->iidx, LLVMGetUser(use));
                varies = ku < 0 || !inside[u->iblock[ku]];
            }
        if (varies)
            u->varying[k] = 1, changed = true;
    }
    return changed;
}

static bool propagate(mc_uniformity *u)
{
    unsigned char *inside = malloc((size_t)u->nb + 1);
    int *stack = malloc(((size_t)u->nb + 1) * sizeof *stack);
    if (!inside || !stack) {
        free(inside), free(stack);
        return false;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < u->ni; k++)
            if (!u->varying[k] && reachable(u, u->iblock[k]) && computes_varying(u, k))
                u->varying[k] = 1, changed = true;
        for (int b = 0; b < u->nb; b++) {
            LLVMValueRef cond = branch_condition(u->g->blocks[b]);
            if (reachable(u, b) && !u->split_done[b] && cond && value_varies(u, cond)) {
                u->split_done[b] = 1;
                changed |= account_for_split(u, b, inside, stack);
            }
        }
    }
    free(inside), free(stack);
    return true;
}

/* ---- the interface ----------------------------------------------------------------- */

void mc_uniformity_free(mc_uniformity *u)
{
    if (!u)
        return;
    mc_cfg_free(u->owned);
    free(u->ipdom), free(u->loop_exit), free(u->depth), free(u->parted), free(u->split_done);
    free(u->barrier), free(u->convergent);
    free(u->insts), free(u->iblock), free(u->varying);
    pmap_free(&u->aidx), pmap_free(&u->iidx);
    free(u);
}

mc_uniformity *mc_uniformity_on(const mc_cfg *g, unsigned first_varying)
{
    MOSAIC_ASSERT(g);
    mc_uniformity *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->first_varying = first_varying;
    u->g = g;
    unsigned np = LLVMCountParams(g->fn);
    bool ok = pmap_init(&u->aidx, np) && number_blocks(u) && number_instructions(u);
    if (ok) {
        for (unsigned p = 0; p < np; p++)
            pmap_put(&u->aidx, LLVMGetParam(g->fn, p), (int)p);
        ok = propagate(u);
    }
    if (!ok) {
        mc_uniformity_free(u);
        return NULL;
    }
    return u;
}

mc_uniformity *mc_uniformity_new(LLVMValueRef fn, unsigned first_varying)
{
    if (!LLVMCountBasicBlocks(fn))
        return NULL;
    mc_cfg *g = mc_cfg_new(fn);
    mc_uniformity *u = g ? mc_uniformity_on(g, first_varying) : NULL;
    if (u)
        u->owned = g;
    else
        mc_cfg_free(g);
    return u;
}

bool mc_uniform_value(const mc_uniformity *u, LLVMValueRef v)
{
    return !value_varies(u, v);
}

bool mc_uniform_control(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = mc_cfg_block(u->g, bb);
    return b >= 0 && reachable(u, b) && !u->parted[b];
}

bool mc_uniform_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = mc_cfg_block(u->g, bb);
    if (b < 0 || !u->loop_exit[b] || !mc_uniform_control(u, bb))
        return false;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    return LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
           (u->convergent[b] || mc_uniform_value(u, LLVMGetCondition(term))) &&
           LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1);
}

bool mc_barriers_decide(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = mc_cfg_block(u->g, bb);
    return b >= 0 && reachable(u, b) && u->convergent[b];
}

bool mc_divergent_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = mc_cfg_block(u->g, bb);
    if (b < 0 || !reachable(u, b) || !u->loop_exit[b])
        return false;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    return LLVMIsABranchInst(term) && LLVMIsConditional(term) && !u->convergent[b] &&
           !mc_uniform_value(u, LLVMGetCondition(term)) && LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1);
}

int mc_loop_depth(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = mc_cfg_block(u->g, bb);
    return b < 0 ? 0 : u->depth[b];
}

const mc_cfg *mc_uniformity_cfg(const mc_uniformity *u)
{
    return u->g;
}
