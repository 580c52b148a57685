/*
 * The control-flow graph, dominators, post-dominators and natural loops of
 * a function (cfg.h); analyses.c keeps them per function.
 *
 * Dominators and post-dominators come from the iterative algorithm of
 * Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
 * nodes in reverse post-order, each one's immediate dominator the nearest
 * common ancestor of its processed predecessors' in the tree so far, until
 * nothing changes.  Post-dominators run the same algorithm on the reversed
 * graph from a virtual exit whose predecessors are the blocks that `ret`.
 *
 * A natural loop is found from its back edges (edges whose target dominates
 * their source) by walking predecessors from the latches up to the header.
 * A retreating edge that is no back edge (a cycle entered in two places,
 * which only goto makes) closes no natural loop.
 */
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/ir/cfg.h"

/* ---- the graph ------------------------------------------------------------------------ */

static bool number_blocks(mc_cfg *g)
{
    size_t n = (size_t)(unsigned)g->n + 1;
    g->blocks = calloc(n, sizeof *g->blocks);
    g->succ = calloc(n, sizeof *g->succ);
    g->pred = calloc(n, sizeof *g->pred);
    g->nsucc = calloc(n, sizeof *g->nsucc);
    g->npred = calloc(n, sizeof *g->npred);
    if (!g->blocks || !g->succ || !g->pred || !g->nsucc || !g->npred || !pmap_init(&g->index, n))
        return false;
    LLVMGetBasicBlocks(g->fn, g->blocks);
    for (int b = 0; b < g->n; b++)
        pmap_put(&g->index, g->blocks[b], b);
    for (int b = 0; b < g->n; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if (!(g->succ[b] = calloc(ns ? ns : 1, sizeof **g->succ)))
            return false;
        for (unsigned k = 0; k < ns; k++) {
            int s = pmap_get(&g->index, LLVMGetSuccessor(term, k));
            MOSAIC_ASSERT(s >= 0); /* a branch to a block of another function */
            g->succ[b][g->nsucc[b]++] = s;
            g->npred[s]++;
        }
    }
    for (int b = 0; b < g->n; b++) {
        if (!(g->pred[b] = calloc(g->npred[b] ? (size_t)g->npred[b] : 1, sizeof **g->pred)))
            return false;
        g->npred[b] = 0;
    }
    for (int b = 0; b < g->n; b++)
        for (int k = 0; k < g->nsucc[b]; k++) {
            int s = g->succ[b][k];
            g->pred[s][g->npred[s]++] = b;
        }
    return true;
}

/* A depth-first walk from the entry, successors in terminator order: the
 * reverse post-order and the retreating edges, in the order found. */
static bool walk_from_entry(mc_cfg *g)
{
    enum { NEW, ON_PATH, DONE };
    size_t n = (unsigned)g->n;
    unsigned char *state = calloc(n, 1);
    int *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next), *post = malloc(n * sizeof *post);
    size_t edges = 1;
    for (int b = 0; b < g->n; b++)
        edges += (size_t)g->nsucc[b];
    g->retreating = calloc(edges, sizeof *g->retreating);
    g->rpo = malloc(n * sizeof *g->rpo);
    g->rpo_number = malloc(n * sizeof *g->rpo_number);
    bool ok = state && stack && next && post && g->retreating && g->rpo && g->rpo_number;
    int sp = 0, np = 0;
    if (ok)
        stack[sp++] = 0, state[0] = ON_PATH;
    while (ok && sp) {
        int b = stack[sp - 1];
        if (next[b] == g->nsucc[b]) {
            state[b] = DONE, post[np++] = b, sp--;
            continue;
        }
        unsigned k = (unsigned)next[b]++;
        int s = g->succ[b][k];
        if (state[s] == ON_PATH)
            g->retreating[g->nretreating++] = (mc_cfg_edge){b, s, k, false};
        else if (state[s] == NEW)
            state[s] = ON_PATH, stack[sp++] = s;
    }
    if (ok) {
        g->nreach = np;
        for (int b = 0; b < g->n; b++)
            g->rpo_number[b] = -1;
        for (int i = 0; i < np; i++) {
            g->rpo[i] = post[np - 1 - i];
            g->rpo_number[g->rpo[i]] = i;
        }
    }
    free(state), free(stack), free(next), free(post);
    return ok;
}

/* ---- dominators ----------------------------------------------------------------------- */

/* A direction of the graph: forward from the entry (dominators) or backward
 * from the virtual exit, node n, whose successors are the blocks that `ret`
 * (post-dominators). */
typedef struct direction {
    const mc_cfg *g;
    bool backward;
    const unsigned char *returns; /* [n] the block ends in `ret` */
} direction;

static int out_degree(direction d, int x)
{
    const mc_cfg *g = d.g;
    if (!d.backward)
        return g->nsucc[x];
    if (x == g->n) {
        int k = 0;
        for (int b = 0; b < g->n; b++)
            k += d.returns[b];
        return k;
    }
    return g->npred[x];
}

/* The k-th successor of x in direction d (the virtual exit's found by scanning). */
static int out_edge(direction d, int x, int k)
{
    const mc_cfg *g = d.g;
    if (!d.backward)
        return g->succ[x][k];
    if (x == g->n) {
        for (int b = 0; b < g->n; b++)
            if (d.returns[b] && !k--)
                return b;
        return -1;
    }
    return g->pred[x][k];
}

/* The predecessors of x in direction d, into buf; how many. */
static int in_edges(direction d, int x, int *buf)
{
    const mc_cfg *g = d.g;
    if (!d.backward) {
        memcpy(buf, g->pred[x], (size_t)g->npred[x] * sizeof *buf);
        return g->npred[x];
    }
    memcpy(buf, g->succ[x], (size_t)g->nsucc[x] * sizeof *buf);
    int k = g->nsucc[x];
    if (d.returns[x])
        buf[k++] = g->n;
    return k;
}

/* The nearest common dominator of a and b in the tree built so far. */
static int intersect(const int *dom, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] > order[b])
            a = dom[a];
        while (order[b] > order[a])
            b = dom[b];
    }
    return a;
}

/* Immediate (post-)dominators of the nn nodes into dom[]: -1 for a node the
 * root does not reach, the root's itself. */
static bool dominators(direction d, int root, int nn, int *dom)
{
    int *post = malloc((size_t)nn * sizeof *post), *order = malloc((size_t)nn * sizeof *order);
    int *stack = malloc((size_t)nn * sizeof *stack), *pos = calloc((size_t)nn, sizeof *pos);
    size_t edges = 2;
    for (int b = 0; b < d.g->n; b++)
        edges += (size_t)d.g->nsucc[b] + 1;
    int *buf = malloc(edges * sizeof *buf);
    unsigned char *seen = calloc((size_t)nn, 1);
    bool ok = post && order && stack && pos && buf && seen;
    int np = 0, sp = 0;
    if (ok)
        stack[sp++] = root, seen[root] = 1;
    while (ok && sp) {
        int x = stack[sp - 1];
        if (pos[x] < out_degree(d, x)) {
            int y = out_edge(d, x, pos[x]++);
            if (y >= 0 && !seen[y])
                seen[y] = 1, stack[sp++] = y;
        } else {
            post[np++] = x, sp--;
        }
    }
    for (int i = 0; ok && i < nn; i++)
        dom[i] = -1, order[i] = -1;
    for (int i = 0; ok && i < np; i++)
        order[post[i]] = np - 1 - i;
    if (ok)
        dom[root] = root;
    for (bool changed = ok; changed;) {
        changed = false;
        for (int i = np - 2; i >= 0; i--) { /* reverse post-order, the root (last) skipped */
            int x = post[i], nin = in_edges(d, x, buf), nd = -1;
            for (int k = 0; k < nin; k++) {
                int p = buf[k];
                if (dom[p] >= 0)
                    nd = nd < 0 ? p : intersect(dom, order, p, nd);
            }
            if (nd != dom[x])
                dom[x] = nd, changed = true;
        }
    }
    free(post), free(order), free(stack), free(pos), free(buf), free(seen);
    return ok;
}

static bool find_dominators(mc_cfg *g)
{
    size_t n = (unsigned)g->n;
    unsigned char *returns = calloc(n, 1);
    int *ipdom = malloc((n + 1) * sizeof *ipdom);
    g->idom = malloc(n * sizeof *g->idom);
    g->ipdom = malloc(n * sizeof *g->ipdom);
    bool ok = returns && ipdom && g->idom && g->ipdom;
    for (int b = 0; ok && b < g->n; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
        returns[b] = term && LLVMGetInstructionOpcode(term) == LLVMRet;
    }
    ok = ok && dominators((direction){g, false, returns}, 0, g->n, g->idom) &&
         dominators((direction){g, true, returns}, g->n, g->n + 1, ipdom);
    if (ok)
        memcpy(g->ipdom, ipdom, n * sizeof *ipdom);
    free(returns), free(ipdom);
    return ok;
}

/* ---- natural loops -------------------------------------------------------------------- */

/* The body of the loop headed by h (whose latches are marked in body[]) into
 * l: the reachable blocks that reach a latch without passing h. */
static bool loop_body(mc_cfg *g, int h, unsigned char *body, int *stack, mc_loop *l)
{
    int sp = 0;
    for (int b = 0; b < g->n; b++)
        if (body[b] && b != h)
            stack[sp++] = b;
    body[h] = 1;
    while (sp) {
        int x = stack[--sp];
        for (int k = 0; k < g->npred[x]; k++) {
            int y = g->pred[x][k];
            if (g->rpo_number[y] >= 0 && !body[y])
                body[y] = 1, stack[sp++] = y;
        }
    }
    int nb = 0, nx = 0;
    for (int b = 0; b < g->n; b++) {
        nb += body[b];
        bool leaves = false;
        for (int k = 0; body[b] && k < g->nsucc[b]; k++)
            leaves |= !body[g->succ[b][k]];
        nx += leaves;
    }
    l->blocks = malloc((size_t)nb * sizeof *l->blocks);
    l->exiting = malloc((size_t)(nx ? nx : 1) * sizeof *l->exiting);
    if (!l->blocks || !l->exiting)
        return false;
    for (int b = 0; b < g->n; b++) {
        if (!body[b])
            continue;
        l->blocks[l->nblocks++] = b;
        bool leaves = false;
        for (int k = 0; k < g->nsucc[b]; k++)
            leaves |= !body[g->succ[b][k]];
        if (leaves)
            l->exiting[l->nexiting++] = b;
    }
    return true;
}

/* Marks the retreating edges that are back edges and builds a loop for each
 * header that has one, outer loops first. */
static bool find_loops(mc_cfg *g)
{
    size_t n = (unsigned)g->n;
    unsigned char *body = malloc(n);
    int *stack = malloc(n * sizeof *stack);
    g->loops = calloc(n, sizeof *g->loops);
    g->loop_of = malloc(n * sizeof *g->loop_of);
    bool ok = body && stack && g->loops && g->loop_of;
    for (int b = 0; ok && b < g->n; b++)
        g->loop_of[b] = -1;
    for (int e = 0; ok && e < g->nretreating; e++)
        g->retreating[e].back = mc_dominates(g, g->retreating[e].to, g->retreating[e].from);
    for (int i = 0; ok && i < g->nreach; i++) {
        int h = g->rpo[i], nl = 0;
        memset(body, 0, n);
        for (int k = 0; k < g->npred[h]; k++) {
            int t = g->pred[h][k];
            if (g->rpo_number[t] >= 0 && mc_dominates(g, h, t) && !body[t])
                body[t] = 1, nl++;
        }
        if (!nl)
            continue;
        mc_loop *l = &g->loops[g->nloops];
        l->header = h;
        l->latches = malloc((size_t)nl * sizeof *l->latches);
        ok = l->latches != NULL;
        for (int b = 0; ok && b < g->n; b++)
            if (body[b])
                l->latches[l->nlatches++] = b;
        ok = ok && loop_body(g, h, body, stack, l);
        if (!ok)
            break;
        /* the loops found so far that hold h hold this one: the last of them is its parent */
        l->parent = g->loop_of[h];
        l->depth = l->parent < 0 ? 1 : g->loops[l->parent].depth + 1;
        for (int k = 0; k < l->nblocks; k++)
            g->loop_of[l->blocks[k]] = g->nloops;
        g->nloops++;
    }
    free(body), free(stack);
    return ok;
}

/* ---- the interface -------------------------------------------------------------------- */

void mc_cfg_free(mc_cfg *g)
{
    if (!g)
        return;
    for (int b = 0; b < g->n; b++) {
        if (g->succ)
            free(g->succ[b]);
        if (g->pred)
            free(g->pred[b]);
    }
    for (int l = 0; g->loops && l < g->nloops; l++)
        free(g->loops[l].blocks), free(g->loops[l].latches), free(g->loops[l].exiting);
    free(g->blocks), free(g->succ), free(g->pred), free(g->nsucc), free(g->npred);
    free(g->rpo), free(g->rpo_number), free(g->idom), free(g->ipdom), free(g->retreating);
    free(g->loops), free(g->loop_of);
    pmap_free(&g->index);
    free(g);
}

mc_cfg *mc_cfg_new(LLVMValueRef fn)
{
    MOSAIC_ASSERT(fn && LLVMIsAFunction(fn) && LLVMCountBasicBlocks(fn) > 0);
    mc_cfg *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->fn = fn;
    g->n = (int)LLVMCountBasicBlocks(fn);
    if (!number_blocks(g) || !walk_from_entry(g) || !find_dominators(g) || !find_loops(g)) {
        mc_cfg_free(g);
        return NULL;
    }
    return g;
}

int mc_cfg_block(const mc_cfg *g, LLVMBasicBlockRef bb)
{
    return pmap_get(&g->index, bb);
}

bool mc_cfg_reachable(const mc_cfg *g, int b)
{
    MOSAIC_ASSERT(b >= 0 && b < g->n);
    return g->rpo_number[b] >= 0;
}

bool mc_dominates(const mc_cfg *g, int a, int b)
{
    MOSAIC_ASSERT(a >= 0 && a < g->n && b >= 0 && b < g->n);
    if (g->idom[b] < 0)
        return true;
    if (g->idom[a] < 0)
        return false;
    /* up the tree from b while it is still below a in reverse post-order */
    while (g->rpo_number[b] > g->rpo_number[a])
        b = g->idom[b];
    return a == b;
}

int mc_cfg_deciding_ways(const mc_cfg *g, int b, int *ways, int most)
{
    int found = 0;
    for (int depth = 0; b >= 0 && depth < 64 && found < most; depth++) {
        int up = g->idom[b];
        if (up < 0 || up == b)
            break;
        LLVMValueRef br = LLVMGetBasicBlockTerminator(g->blocks[up]);
        bool alone = br && LLVMIsABranchInst(br) && LLVMIsConditional(br) &&
                     LLVMGetSuccessor(br, 0) != LLVMGetSuccessor(br, 1);
        /* (every other way into b comes from what b dominates: a loop's back edge) */
        for (int k = 0; alone && k < g->npred[b]; k++)
            alone = g->pred[b][k] == up || mc_dominates(g, b, g->pred[b][k]);
        if (alone)
            ways[found++] = 2 * up + (LLVMGetSuccessor(br, 1) == g->blocks[b]);
        b = up;
    }
    return found;
}

bool mc_post_dominates(const mc_cfg *g, int a, int b)
{
    MOSAIC_ASSERT(a >= 0 && a < g->n && b >= 0 && b < g->n);
    for (int depth = 0; b >= 0 && b < g->n && depth <= g->n; depth++) {
        if (a == b)
            return true;
        b = g->ipdom[b];
    }
    return false;
}

int mc_edge_loop(const mc_cfg *g, int latch, int header, bool *in)
{
    MOSAIC_ASSERT(latch >= 0 && latch < g->n && header >= 0 && header < g->n);
    int *stack = malloc((size_t)g->n * sizeof *stack), sp = 0, count = 1;
    if (!stack)
        return -1;
    memset(in, 0, (size_t)g->n * sizeof *in);
    in[header] = true;
    if (!in[latch])
        in[latch] = true, stack[sp++] = latch, count++;
    while (sp) {
        int x = stack[--sp];
        for (int k = 0; k < g->npred[x]; k++) {
            int y = g->pred[x][k];
            if (g->rpo_number[y] >= 0 && !in[y])
                in[y] = true, stack[sp++] = y, count++;
        }
    }
    free(stack);
    return count;
}

bool mc_loop_contains(const mc_cfg *g, int l, int b)
{
    MOSAIC_ASSERT(l >= 0 && l < g->nloops && b >= 0 && b < g->n);
    for (int k = g->loop_of[b]; k >= 0; k = g->loops[k].parent)
        if (k == l)
            return true;
    return false;
}

int mc_cfg_loop_depth(const mc_cfg *g, int b)
{
    MOSAIC_ASSERT(b >= 0 && b < g->n);
    return g->loop_of[b] < 0 ? 0 : g->loops[g->loop_of[b]].depth;
}

bool mc_cfg_reducible(const mc_cfg *g)
{
    for (int e = 0; e < g->nretreating; e++)
        if (!g->retreating[e].back)
            return false;
    return true;
}

bool mc_cfg_current(const mc_cfg *g)
{
    int b = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb), b++) {
        if (b >= g->n || g->blocks[b] != bb)
            return false;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if ((int)ns != g->nsucc[b])
            return false;
        for (unsigned k = 0; k < ns; k++)
            if (LLVMGetSuccessor(term, k) != g->blocks[g->succ[b][k]])
                return false;
    }
    return b == g->n;
}
