/*
 * Loops with barriers run in step (docs/compiler.md, "Kernels with barriers").
 *
 * No work-item starts iteration i+1 of a loop that contains a work-group
 * barrier before every work-item of its group has finished iteration i: as
 * if the loop's back edge held a barrier.  OpenCL C does not promise this
 * (code after a loop's last barrier and code before its first barrier of
 * the next iteration are strictly a data race when they touch the same
 * memory), but GPUs, which run a group in lockstep, and PoCL give it, and
 * programs written for them rely on it:
 *
 *     for (...) {
 *         if (lid == 0) count = 0;   // iteration i+1
 *         barrier(...);
 *         ...
 *         barrier(...);
 *         n = count;                 // iteration i
 *     }
 *
 * Cut into regions at its barriers (regions.c), or run as fibers that
 * switch only at barriers, a group runs work-item 0 from the last barrier
 * of iteration i through the reset of iteration i+1 before work-item 1
 * reads: it reads 0.  A loop containing a barrier is run as often by every
 * work-item of the group (OpenCL requires each to reach each barrier), so a
 * barrier on its back edge is legal; each build (regions, widened rows,
 * fused groups, one size, fibers) then sees an ordinary barrier.
 *
 * Only where it changes something: a back edge gets none when every path to
 * it from a barrier of the loop (in the same iteration) is free of memory
 * accesses and side effects (the tiled product and the tree reduction end
 * their iterations with a barrier, and only the counter's update follows),
 * and a loop gets none when every path from its header to a barrier is (an
 * iteration that starts with a barrier).  Private memory (allocas),
 * constant memory and invariant loads (the group's context) do not count.
 *
 * Loops are the shared analysis's natural loops (cfg.h): each header's loop
 * the blocks that reach one of its latches without passing it; inner loops
 * first, so an outer loop sees their barriers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/log.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

/* The shared graph (cfg.h, from the pipeline's analyses) and what this pass
 * keeps beside it. */
typedef struct loop_cfg {
    const mc_cfg *cfg;
    LLVMValueRef fn;
    int n;                    /* blocks, in layout order; 0 is the entry */
    LLVMBasicBlockRef *blocks;
    int **preds, *npreds;     /* preds[b]: the blocks that branch to b */
    int nedges, *latch, *header; /* retreating edges latch[e] -> header[e], each pair once */
    bool *in_loop, *seen;     /* scratch, per block */
    int *stack;               /* scratch, n deep */
} loop_cfg;

static void cfg_free(loop_cfg *g)
{
    free(g->latch), free(g->header), free(g->in_loop), free(g->seen), free(g->stack);
    memset(g, 0, sizeof *g);
}

static int block_index(const loop_cfg *g, LLVMBasicBlockRef bb) { return mc_cfg_block(g->cfg, bb); }

static LLVMValueRef successor_term(const loop_cfg *g, int b, unsigned *count)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->blocks[b]);
    *count = t ? LLVMGetNumSuccessors(t) : 0;
    return t;
}

static bool cfg_build(loop_cfg *g, LLVMValueRef fn, mc_analyses *an)
{
    memset(g, 0, sizeof *g);
    if (!(g->cfg = mc_analyses_cfg(an, fn)))
        return false;
    g->fn = fn;
    g->n = g->cfg->n;
    g->blocks = g->cfg->blocks;
    g->preds = g->cfg->pred;
    g->npreds = g->cfg->npred;
    size_t n = (size_t)g->n, edges = (size_t)g->cfg->nretreating + 1;
    g->in_loop = calloc(n, sizeof *g->in_loop);
    g->seen = calloc(n, sizeof *g->seen);
    g->stack = calloc(n, sizeof *g->stack);
    g->latch = calloc(edges, sizeof *g->latch);
    g->header = calloc(edges, sizeof *g->header);
    if (!g->in_loop || !g->seen || !g->stack || !g->latch || !g->header)
        return false;
    /* in the order the walk found them (a switch may go to the header from several cases: once) */
    for (int r = 0; r < g->cfg->nretreating; r++) {
        int b = g->cfg->retreating[r].from, s = g->cfg->retreating[r].to;
        bool again = false;
        for (int e = 0; e < g->nedges && !again; e++)
            again = g->latch[e] == b && g->header[e] == s;
        if (!again)
            g->latch[g->nedges] = b, g->header[g->nedges++] = s;
    }
    return true;
}

/* The loop of header h into g->in_loop (the natural loop of its back
 * edges).  false when a retreating edge to h is no back edge (h does not
 * dominate the cycle: an irreducible one, left alone) or h heads no loop. */
static bool loop_blocks(loop_cfg *g, int h, int *size)
{
    const mc_cfg *cfg = g->cfg;
    for (int e = 0; e < cfg->nretreating; e++)
        if (cfg->retreating[e].to == h && !cfg->retreating[e].back)
            return false;
    int l = cfg->loop_of[h];
    if (l < 0 || cfg->loops[l].header != h)
        return false;
    memset(g->in_loop, 0, (size_t)g->n * sizeof *g->in_loop);
    for (int k = 0; k < cfg->loops[l].nblocks; k++)
        g->in_loop[cfg->loops[l].blocks[k]] = true;
    *size = cfg->loops[l].nblocks;
    return true;
}

/* Does p point into memory no other work-item sees or writes: a private
 * variable, constant memory, a constant global? */
static bool private_or_constant(LLVMValueRef p)
{
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 2)
        return true;
    LLVMValueRef base = mc_base_of(p);
    return LLVMIsAAllocaInst(base) || (LLVMIsAGlobalVariable(base) && LLVMIsGlobalConstant(base));
}

/* Might inst touch memory another work-item of the group touches, or have
 * another effect the order of work-items could change (a call)? */
static bool has_effect(LLVMValueRef inst, unsigned invariant_kind)
{
    static const char *const harmless[] = {"llvm.dbg.", "llvm.lifetime.", "llvm.assume",
                                           "llvm.experimental.noalias.scope.decl"};
    static const char *const memory_intrinsics[] = {"llvm.memcpy.", "llvm.memmove.", "llvm.memset."};
    if (LLVMIsALoadInst(inst))
        return !LLVMGetMetadata(inst, invariant_kind) && !private_or_constant(LLVMGetOperand(inst, 0));
    if (LLVMIsAStoreInst(inst))
        return !LLVMIsAAllocaInst(mc_base_of(LLVMGetOperand(inst, 1)));
    if (LLVMIsACallInst(inst)) {
        LLVMValueRef f = mc_called_function(inst);
        if (f && (mc_pure_intrinsic(f) || mc_intrinsic_named(f, harmless, sizeof harmless / sizeof *harmless)))
            return false;
        if (f && mc_intrinsic_named(f, memory_intrinsics, 3)) { /* a copy between private variables */
            bool set = !strncmp(LLVMGetValueName(f), "llvm.memset.", 12);
            return !LLVMIsAAllocaInst(mc_base_of(LLVMGetOperand(inst, 0))) ||
                   (!set && !private_or_constant(LLVMGetOperand(inst, 1)));
        }
        return true;
    }
    return LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) || LLVMIsAFenceInst(inst) ||
           LLVMIsAVAArgInst(inst) || LLVMIsAInvokeInst(inst);
}

/* Does every path from loop h's header reach a barrier of the loop (or leave
 * it, or come round) with no effect on the way?  Then the iteration's code
 * before its first barrier cannot meet the previous iteration's. */
static bool head_clean(loop_cfg *g, int h, unsigned invariant_kind)
{
    memset(g->seen, 0, (size_t)g->n * sizeof *g->seen);
    int top = 0;
    g->stack[top++] = h, g->seen[h] = true;
    while (top) {
        int b = g->stack[--top];
        LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[b]);
        for (; i && !mc_is_barrier_call(i); i = LLVMGetNextInstruction(i))
            if (has_effect(i, invariant_kind))
                return false;
        if (i)
            continue; /* a barrier: this path is done */
        unsigned ns;
        LLVMValueRef t = successor_term(g, b, &ns);
        for (unsigned k = 0; k < ns; k++) {
            int s = block_index(g, LLVMGetSuccessor(t, k));
            if (s >= 0 && g->in_loop[s] && !g->seen[s]) /* (h itself is seen: no way round) */
                g->seen[s] = true, g->stack[top++] = s;
        }
    }
    return true;
}

/* Does every path to the end of latch l, from the last barrier before it in
 * the same iteration, have no effect?  false when some path from the
 * header's start has none (an iteration without a barrier: the code before
 * it belongs to the previous iteration's). */
static bool tail_clean(loop_cfg *g, int h, int l, unsigned invariant_kind)
{
    memset(g->seen, 0, (size_t)g->n * sizeof *g->seen);
    int top = 0;
    g->stack[top++] = l, g->seen[l] = true;
    while (top) {
        int b = g->stack[--top];
        LLVMValueRef i = LLVMGetLastInstruction(g->blocks[b]);
        for (; i && !mc_is_barrier_call(i); i = LLVMGetPreviousInstruction(i))
            if (has_effect(i, invariant_kind))
                return false;
        if (i)
            continue;
        if (b == h)
            return false;
        for (int p = 0; p < g->npreds[b]; p++) {
            int q = g->preds[b][p];
            if (g->in_loop[q] && !g->seen[q])
                g->seen[q] = true, g->stack[top++] = q;
        }
    }
    return true;
}

static bool has_barrier(const loop_cfg *g)
{
    for (int b = 0; b < g->n; b++)
        for (LLVMValueRef i = g->in_loop[b] ? LLVMGetFirstInstruction(g->blocks[b]) : NULL; i;
             i = LLVMGetNextInstruction(i))
            if (mc_is_barrier_call(i))
                return true;
    return false;
}

/* A copy of `barrier` (one of the kernel's barrier calls: its callee,
 * attributes and location) before `where`, called with K.body's ctx. */
static void add_barrier(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef barrier, LLVMValueRef where)
{
    LLVMPositionBuilderBefore(b, where);
    LLVMValueRef ctx = LLVMGetParam(fn, LLVMCountParams(fn) - 4);
    LLVMTypeRef want = LLVMTypeOf(LLVMGetOperand(barrier, 0));
    if (LLVMTypeOf(ctx) != want)
        ctx = LLVMBuildAddrSpaceCast(b, ctx, want, "");
    LLVMValueRef call = LLVMInstructionClone(barrier);
    LLVMSetOperand(call, 0, ctx);
    LLVMInsertIntoBuilder(b, call);
}

/* A barrier on the back edge latch -> header: before the latch's branch when
 * it can go nowhere else, else in a block of its own on that edge (which
 * takes the loop's properties, !llvm.loop: it is the latch now). */
static void barrier_on_edge(LLVMBuilderRef b, loop_cfg *g, int latch, int header, LLVMValueRef barrier,
                            unsigned loop_kind)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g->fn));
    LLVMBasicBlockRef from = g->blocks[latch], to = g->blocks[header];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(from);
    if (LLVMGetNumSuccessors(t) == 1) {
        add_barrier(b, g->fn, barrier, t);
        return;
    }
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(c, g->fn, "back.edge.barrier");
    LLVMMoveBasicBlockAfter(edge, from);
    LLVMPositionBuilderAtEnd(b, edge);
    LLVMValueRef br = LLVMBuildBr(b, to);
    add_barrier(b, g->fn, barrier, br);
    LLVMValueRef md = LLVMGetMetadata(t, loop_kind);
    if (md) {
        LLVMSetMetadata(br, loop_kind, md);
        LLVMSetMetadata(t, loop_kind, NULL);
    }
    unsigned edges = 0;
    for (unsigned k = 0; k < LLVMGetNumSuccessors(t); k++)
        if (LLVMGetSuccessor(t, k) == to)
            LLVMSetSuccessor(t, k, edge), edges++;
    /* the header's phis: one entry from the new block, however many edges
     * the latch had to it (a switch's cases; their values are the same) */
    for (LLVMValueRef phi = LLVMGetFirstInstruction(to); phi && LLVMIsAPHINode(phi);) {
        LLVMValueRef next = LLVMGetNextInstruction(phi);
        unsigned n = LLVMCountIncoming(phi);
        LLVMPositionBuilderBefore(b, phi);
        LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
        bool added = false;
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, k);
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, k);
            if (bb == from) {
                if (added)
                    continue;
                bb = edge, added = true;
            }
            LLVMAddIncoming(np, &v, &bb, 1);
        }
        mc_copy_name(np, phi);
        LLVMReplaceAllUsesWith(phi, np);
        LLVMInstructionEraseFromParent(phi);
        phi = next;
    }
    MOSAIC_ASSERT(edges > 0);
}

/* size[h]: how many blocks header h's loop has; 0 for a block that heads
 * none (or an irreducible cycle's). */
static void loop_sizes(loop_cfg *g, int *size)
{
    memset(size, 0, (size_t)g->n * sizeof *size);
    for (int e = 0; e < g->nedges; e++)
        size[g->header[e]] = 1;
    for (int h = 0; h < g->n; h++)
        if (size[h] && !loop_blocks(g, h, &size[h]))
            size[h] = 0;
}

/* Kernel body's loops with barriers in step; how many back edges got a
 * barrier (-1: memory ran out), and in *with_barriers how many loops have
 * barriers. */
static int step_loops(LLVMValueRef body, mc_analyses *an, unsigned *with_barriers)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(body));
    unsigned invariant_kind = LLVMGetMDKindIDInContext(c, "invariant.load", 14);
    unsigned loop_kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
    LLVMValueRef barrier = NULL; /* one of the kernel's barrier calls, to copy */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb && !barrier; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !barrier; i = LLVMGetNextInstruction(i))
            if (mc_is_barrier_call(i))
                barrier = i;
    *with_barriers = 0;
    if (!barrier)
        return 0;
    loop_cfg g = {0};
    int *size = NULL, added = 0;
    /* the headers of the loops done (a header stays one as blocks are added on back edges) */
    LLVMBasicBlockRef *done = NULL;
    size_t ndone = 0, cap = LLVMCountBasicBlocks(body);
    bool ok = true, rebuild = true;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    while (ok) {
        if (rebuild) {
            cfg_free(&g);
            free(size);
            size = NULL;
            if (added)
                mc_analyses_invalidate(an, body); /* blocks were added on back edges */
            ok = cfg_build(&g, body, an) && (size = calloc((size_t)g.n, sizeof *size)) &&
                 (done || (done = calloc(cap, sizeof *done)));
            if (!ok)
                break;
            loop_sizes(&g, size);
            for (size_t d = 0; d < ndone; d++)
                size[block_index(&g, done[d])] = 0;
            rebuild = false;
        }
        /* the smallest loop not done yet: inner loops before outer ones */
        int best = -1, n;
        for (int h = 0; h < g.n; h++)
            if (size[h] && (best < 0 || size[h] < size[best]))
                best = h;
        if (best < 0 || ndone == cap)
            break;
        done[ndone++] = g.blocks[best];
        size[best] = 0;
        loop_blocks(&g, best, &n);
        if (!has_barrier(&g))
            continue;
        ++*with_barriers;
        if (head_clean(&g, best, invariant_kind))
            continue;
        for (int e = 0; e < g.nedges; e++)
            if (g.header[e] == best && !tail_clean(&g, best, g.latch[e], invariant_kind)) {
                barrier_on_edge(b, &g, g.latch[e], best, barrier, loop_kind);
                added++, rebuild = true;
            }
    }
    LLVMDisposeBuilder(b);
    cfg_free(&g);
    if (added)
        mc_analyses_invalidate(an, body);
    free(size), free(done);
    return ok ? added : -1;
}

cl_int mc_step_barrier_loops(mc_kernel_build *kbs, size_t nk, mc_analyses *an, mosaic_strbuf *log)
{
    for (size_t k = 0; k < nk; k++) {
        if (!kbs[k].uses_barriers)
            continue;
        unsigned loops;
        int added = step_loops(kbs[k].body, an, &loops);
        if (added < 0)
            return mc_out_of_memory(log);
        if (loops && mosaic_debugging(MOSAIC_DEBUG_BUILD))
            fprintf(stderr, "mosaic: kernel %s: %u loop%s with barriers, %d back edge%s given a barrier (each "
                    "iteration ends for the whole group before the next starts)\n",
                    LLVMGetValueName(kbs[k].wi), loops, loops == 1 ? "" : "s", added, added == 1 ? "" : "s");
    }
    return CL_SUCCESS;
}
