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
 * Post-dominators and dominators are computed with the iterative algorithm
 * of Cooper, Harvey and Kennedy.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ptr_map.h"
#include "compiler/ir/uniformity.h"
#include "compiler/ir/util.h"

struct mc_uniformity {
    unsigned first_varying; /* parameters from here on (the local id) vary */
    pmap aidx;
    int nb;
    LLVMBasicBlockRef *bbs;
    pmap bidx;
    int **succ, *nsucc, **pred, *npred;
    unsigned char *reach;        /* [block] reachable from the entry */
    unsigned char *returns;      /* [block] ends in `ret` (a block ending in `unreachable` is never left) */
    int *ipdom;                  /* [block] immediate post-dominator; nb: the virtual exit */
    int *idom;                   /* [block] immediate dominator (the entry: itself) */
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

static bool number_blocks(mc_uniformity *u, LLVMValueRef fn)
{
    u->nb = (int)LLVMCountBasicBlocks(fn);
    size_t n = (size_t)u->nb + 1;
    u->bbs = calloc(n, sizeof *u->bbs);
    u->succ = calloc(n, sizeof *u->succ);
    u->pred = calloc(n, sizeof *u->pred);
    u->nsucc = calloc(n, sizeof *u->nsucc);
    u->npred = calloc(n, sizeof *u->npred);
    u->reach = calloc(n, 1);
    u->returns = calloc(n, 1);
    u->ipdom = calloc(n, sizeof *u->ipdom);
    u->idom = calloc(n, sizeof *u->idom);
    u->loop_exit = calloc(n, 1);
    u->depth = calloc(n, sizeof *u->depth);
    u->parted = calloc(n, 1);
    u->split_done = calloc(n, 1);
    u->barrier = calloc(n, 1);
    u->convergent = calloc(n, 1);
    if (!u->bbs || !u->succ || !u->pred || !u->nsucc || !u->npred || !u->reach || !u->returns || !u->ipdom || !u->idom ||
        !u->loop_exit || !u->depth || !u->parted || !u->split_done || !u->barrier || !u->convergent || !pmap_init(&u->bidx, n))
        return false;
    LLVMGetBasicBlocks(fn, u->bbs);
    for (int i = 0; i < u->nb; i++)
        pmap_put(&u->bidx, u->bbs[i], i);
    for (int i = 0; i < u->nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(u->bbs[i]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        u->returns[i] = term && LLVMGetInstructionOpcode(term) == LLVMRet;
        u->succ[i] = calloc(ns ? ns : 1, sizeof **u->succ);
        if (!u->succ[i])
            return false;
        for (unsigned s = 0; s < ns; s++) {
            int t = pmap_get(&u->bidx, LLVMGetSuccessor(term, s));
            if (t >= 0) {
                u->succ[i][u->nsucc[i]++] = t;
                u->npred[t]++;
            }
        }
    }
    for (int i = 0; i < u->nb; i++) {
        u->pred[i] = calloc(u->npred[i] ? (size_t)u->npred[i] : 1, sizeof **u->pred);
        if (!u->pred[i])
            return false;
        u->npred[i] = 0;
    }
    for (int i = 0; i < u->nb; i++)
        for (int s = 0; s < u->nsucc[i]; s++) {
            int t = u->succ[i][s];
            u->pred[t][u->npred[t]++] = i;
        }
    return true;
}

/* A direction of the graph: the dominators' (forward from the entry) or the
 * post-dominators' (backward from the virtual exit, node nb, whose
 * successors are the blocks that leave the function). */
typedef struct direction {
    const mc_uniformity *u;
    bool backward;
} direction;

static int out_degree(direction d, int x)
{
    const mc_uniformity *u = d.u;
    if (!d.backward)
        return u->nsucc[x];
    if (x == u->nb) {
        int n = 0;
        for (int i = 0; i < u->nb; i++)
            n += u->reach[i] && u->returns[i];
        return n;
    }
    return u->npred[x];
}

/* The k-th successor of x in direction d (the virtual exit's are found by scanning). */
static int out_edge(direction d, int x, int k)
{
    const mc_uniformity *u = d.u;
    if (!d.backward)
        return u->succ[x][k];
    if (x == u->nb) {
        for (int i = 0; i < u->nb; i++)
            if (u->reach[i] && u->returns[i] && !k--)
                return i;
        return -1;
    }
    return u->pred[x][k];
}

/* The predecessors of x in direction d, into buf; how many. */
static int in_edges(direction d, int x, int *buf)
{
    const mc_uniformity *u = d.u;
    if (!d.backward) {
        memcpy(buf, u->pred[x], (size_t)u->npred[x] * sizeof *buf);
        return u->npred[x];
    }
    memcpy(buf, u->succ[x], (size_t)u->nsucc[x] * sizeof *buf);
    int n = u->nsucc[x];
    if (u->returns[x])
        buf[n++] = u->nb;
    return n;
}

static int intersect(const int *dom, const int *rpo_num, int a, int b)
{
    while (a != b) {
        while (rpo_num[a] > rpo_num[b])
            a = dom[a];
        while (rpo_num[b] > rpo_num[a])
            b = dom[b];
    }
    return a;
}

/* Immediate (post-)dominators into dom[]: -1 for a node the root does not reach. */
static bool dominators(direction d, int root, int n, int *dom)
{
    int *post = malloc((size_t)n * sizeof *post), *rpo_num = malloc((size_t)n * sizeof *rpo_num);
    int *stack = malloc((size_t)n * sizeof *stack), *pos = calloc((size_t)n, sizeof *pos);
    size_t edges = 1;
    for (int i = 0; i < d.u->nb; i++)
        edges += (size_t)d.u->nsucc[i] + 1;
    int *buf = malloc(edges * sizeof *buf);
    unsigned char *seen = calloc((size_t)n, 1);
    bool ok = post && rpo_num && stack && pos && buf && seen;
    int np = 0;
    if (ok) {
        int sp = 0;
        stack[sp++] = root;
        seen[root] = 1;
        while (sp) {
            int x = stack[sp - 1];
            if (pos[x] < out_degree(d, x)) {
                int y = out_edge(d, x, pos[x]++);
                if (y >= 0 && !seen[y]) {
                    seen[y] = 1;
                    stack[sp++] = y;
                }
            } else {
                post[np++] = x;
                sp--;
            }
        }
        for (int i = 0; i < n; i++)
            dom[i] = -1, rpo_num[i] = -1;
        for (int i = 0; i < np; i++)
            rpo_num[post[i]] = np - 1 - i;
        dom[root] = root;
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = np - 2; i >= 0; i--) { /* reverse post-order, the root skipped */
                int x = post[i], nin = in_edges(d, x, buf), nd = -1;
                for (int k = 0; k < nin; k++) {
                    int p = buf[k];
                    if (p < 0 || p >= n || dom[p] < 0)
                        continue;
                    nd = nd < 0 ? p : intersect(dom, rpo_num, p, nd);
                }
                if (nd != dom[x]) {
                    dom[x] = nd;
                    changed = true;
                }
            }
        }
    }
    free(post), free(rpo_num), free(stack), free(pos), free(buf), free(seen);
    return ok;
}

static bool dominates(const mc_uniformity *u, int a, int b)
{
    for (int depth = 0; b >= 0 && depth <= u->nb; depth++) {
        if (a == b)
            return true;
        if (u->idom[b] == b)
            return false;
        b = u->idom[b];
    }
    return false;
}

/* Marks the blocks that leave a natural loop they belong to. */
static bool find_loop_exits(mc_uniformity *u)
{
    unsigned char *body = malloc((size_t)u->nb);
    int *stack = malloc((size_t)u->nb * sizeof *stack);
    bool ok = body && stack;
    for (int h = 0; ok && h < u->nb; h++) {
        if (!u->reach[h])
            continue;
        int sp = 0;
        memset(body, 0, (size_t)u->nb);
        body[h] = 1;
        for (int k = 0; k < u->npred[h]; k++) {
            int t = u->pred[h][k];
            if (u->reach[t] && dominates(u, h, t) && !body[t]) {
                body[t] = 1;
                stack[sp++] = t;
            }
        }
        if (!sp)
            continue; /* no back edge: not a loop header */
        while (sp) {
            int x = stack[--sp];
            for (int k = 0; k < u->npred[x]; k++) {
                int y = u->pred[x][k];
                if (u->reach[y] && !body[y]) {
                    body[y] = 1;
                    stack[sp++] = y;
                }
            }
        }
        for (int x = 0; x < u->nb; x++)
            u->depth[x] += body[x];
        for (int x = 0; x < u->nb; x++)
            if (body[x])
                for (int k = 0; k < u->nsucc[x]; k++)
                    if (!body[u->succ[x][k]])
                        u->loop_exit[x] = 1;
    }
    free(body), free(stack);
    return ok;
}

/* ---- the values ---------------------------------------------------------------------- */

static bool number_instructions(mc_uniformity *u)
{
    int n = 0;
    for (int b = 0; b < u->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(u->bbs[b]); i; i = LLVMGetNextInstruction(i))
            n++;
    u->ni = n;
    u->insts = calloc((size_t)n + 1, sizeof *u->insts);
    u->iblock = calloc((size_t)n + 1, sizeof *u->iblock);
    u->varying = calloc((size_t)n + 1, 1);
    if (!u->insts || !u->iblock || !u->varying || !pmap_init(&u->iidx, (size_t)n))
        return false;
    n = 0;
    for (int b = 0; b < u->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(u->bbs[b]); i; i = LLVMGetNextInstruction(i)) {
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
    for (int k = 0; k < u->nsucc[b]; k++) {
        int s = u->succ[b][k], sp = 0;
        bool met = false;
        if (s == join)
            return false;
        memset(seen, 0, (size_t)u->nb);
        seen[s] = 1;
        stack[sp++] = s;
        while (sp && !met) {
            int x = stack[--sp];
            met = u->barrier[x];
            for (int j = 0; j < u->nsucc[x] && !met; j++) {
                int y = u->succ[x][j];
                if (y != join && y != b && !seen[y])
                    seen[y] = 1, stack[sp++] = y;
            }
        }
        if (!met)
            return false;
    }
    return u->nsucc[b] > 0;
}

static bool account_for_split(mc_uniformity *u, int b, unsigned char *inside, int *stack)
{
    if (barrier_on_every_way(u, b, inside, stack)) {
        u->convergent[b] = 1;
        return false;
    }
    int join = u->ipdom[b], sp = 0;
    memset(inside, 0, (size_t)u->nb);
    for (int k = 0; k < u->nsucc[b]; k++) {
        int s = u->succ[b][k];
        if (s != join && !inside[s]) {
            inside[s] = 1;
            stack[sp++] = s;
        }
    }
    while (sp) {
        int x = stack[--sp];
        for (int k = 0; k < u->nsucc[x]; k++) {
            int y = u->succ[x][k];
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
            if (!u->varying[k] && u->reach[u->iblock[k]] && computes_varying(u, k))
                u->varying[k] = 1, changed = true;
        for (int b = 0; b < u->nb; b++) {
            LLVMValueRef cond = branch_condition(u->bbs[b]);
            if (u->reach[b] && !u->split_done[b] && cond && value_varies(u, cond)) {
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
    for (int i = 0; i < u->nb; i++) {
        if (u->succ)
            free(u->succ[i]);
        if (u->pred)
            free(u->pred[i]);
    }
    free(u->bbs), free(u->succ), free(u->pred), free(u->nsucc), free(u->npred), free(u->reach), free(u->returns);
    free(u->ipdom), free(u->idom), free(u->loop_exit), free(u->depth), free(u->parted), free(u->split_done);
    free(u->barrier), free(u->convergent);
    free(u->insts), free(u->iblock), free(u->varying);
    pmap_free(&u->aidx), pmap_free(&u->bidx), pmap_free(&u->iidx);
    free(u);
}

mc_uniformity *mc_uniformity_new(LLVMValueRef fn, unsigned first_varying)
{
    mc_uniformity *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->first_varying = first_varying;
    unsigned np = LLVMCountParams(fn);
    bool ok = pmap_init(&u->aidx, np) && number_blocks(u, fn) && number_instructions(u);
    if (ok) {
        for (unsigned p = 0; p < np; p++)
            pmap_put(&u->aidx, LLVMGetParam(fn, p), (int)p);
        /* reachability from the entry */
        int *stack = malloc(((size_t)u->nb + 1) * sizeof *stack), sp = 0;
        ok = stack != NULL;
        if (ok && u->nb) {
            u->reach[0] = 1;
            stack[sp++] = 0;
            while (sp) {
                int x = stack[--sp];
                for (int k = 0; k < u->nsucc[x]; k++)
                    if (!u->reach[u->succ[x][k]])
                        u->reach[u->succ[x][k]] = 1, stack[sp++] = u->succ[x][k];
            }
        }
        free(stack);
    }
    ok = ok && u->nb && dominators((direction){u, false}, 0, u->nb, u->idom) &&
         dominators((direction){u, true}, u->nb, u->nb + 1, u->ipdom);
    if (ok) {
        for (int b = 0; b < u->nb; b++)
            if (u->ipdom[b] < 0) /* it never leaves the function: no join */
                u->ipdom[b] = u->nb;
        ok = find_loop_exits(u) && propagate(u);
    }
    if (!ok) {
        mc_uniformity_free(u);
        return NULL;
    }
    return u;
}

bool mc_uniform_value(const mc_uniformity *u, LLVMValueRef v)
{
    return !value_varies(u, v);
}

bool mc_uniform_control(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = pmap_get(&u->bidx, bb);
    return b >= 0 && u->reach[b] && !u->parted[b];
}

bool mc_uniform_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = pmap_get(&u->bidx, bb);
    if (b < 0 || !u->loop_exit[b] || !mc_uniform_control(u, bb))
        return false;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    return LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
           (u->convergent[b] || mc_uniform_value(u, LLVMGetCondition(term))) &&
           LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1);
}

bool mc_barriers_decide(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = pmap_get(&u->bidx, bb);
    return b >= 0 && u->reach[b] && u->convergent[b];
}

bool mc_divergent_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = pmap_get(&u->bidx, bb);
    if (b < 0 || !u->reach[b] || !u->loop_exit[b])
        return false;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    return LLVMIsABranchInst(term) && LLVMIsConditional(term) && !u->convergent[b] &&
           !mc_uniform_value(u, LLVMGetCondition(term)) && LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1);
}

int mc_loop_depth(const mc_uniformity *u, LLVMBasicBlockRef bb)
{
    int b = pmap_get(&u->bidx, bb);
    return b < 0 ? 0 : u->depth[b];
}
