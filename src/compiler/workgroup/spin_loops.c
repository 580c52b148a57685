/*
 * Spin loops: forward progress for work-items that wait for each other.
 *
 * A device that reports CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS
 * (and cl_khr_subgroups, which requires it) promises that a sub-group
 * waiting in a loop for something another sub-group of its work-group does
 * makes no other sub-group wait forever:
 *
 *     while (atomic_load(&flag) != 1)  // sub-group 0
 *         ;
 *     atomic_store(&flag, 1);          // sub-group 1, later in the group
 *
 * The CPU device runs a work-group's work-items one after another on one
 * thread (a loop over them, or fibers that switch only at barriers), so
 * such a loop would spin forever.  This pass finds the loops that wait for
 * another work-item: a loop leaves on a value it reads from memory another
 * work-item writes and that the loop itself does not move on (an atomic or
 * volatile load, a compare-exchange, an exchange, a pipe built-in), and
 * makes each iteration that goes round again call the device's
 * `__mosaic_yield(ctx)` hook.  A kernel with such a loop runs as fibers
 * (regions.c gives up on it), and the hook lets the other fibers of the
 * group run before the loop tests again (cpu_device.c, docs/subgroups.md).
 *
 * Two kinds of loop read such memory and do not wait:
 *   - a loop that takes a ticket on each iteration, an atomic add or
 *     subtract of a constant other than zero (a persistent-threads loop,
 *     `while ((i = atomic_inc(next)) < n)`): the counter moves on by the
 *     loop's own work, so it ends without anyone's help, unless the loop
 *     also writes the counter another way (a semaphore's give-back);
 *   - a loop that reads volatile or atomic data only as values, its exit on
 *     a counter of its own (`for (k = 0; k < n; k++) s += vt[k]`).
 * The test follows the exit branch's condition back through the loop's
 * values and, for IR that was not cleaned up (-cl-opt-disable), through
 * the private variables it stores and loads.
 *
 * The loops are found on the CFG (cfg.h): a depth-first walk's retreating
 * edges (latch -> header; OpenCL C from clang is reducible, so each is a
 * back edge) and each one's natural loop (the blocks that reach the latch
 * without passing the header).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

/* The variable a pointer points into, seen through casts and offsets; for
 * IR that was not cleaned up, where each use loads the pointer again from a
 * private variable, that variable. */
static LLVMValueRef location(LLVMValueRef p)
{
    LLVMValueRef base = mc_base_of(p);
    if (LLVMIsALoadInst(base) && LLVMIsAAllocaInst(mc_base_of(LLVMGetOperand(base, 0))))
        return mc_base_of(LLVMGetOperand(base, 0));
    return base;
}

/* Is v read from memory another work-item may write, in a way the loop
 * must see change: an atomic read, a volatile load (not of a private
 * variable), a runtime call? */
static bool reads_shared(LLVMValueRef v)
{
    if (LLVMIsAAtomicRMWInst(v) || LLVMIsAAtomicCmpXchgInst(v))
        return true;
    if (LLVMIsALoadInst(v))
        return LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic ||
               (LLVMGetVolatile(v) && !LLVMIsAAllocaInst(mc_base_of(LLVMGetOperand(v, 0))));
    if (LLVMIsACallInst(v)) {
        /* the pipe built-ins (__read_pipe_2, __reserve_write_pipe, ...): a
         * packet or a reservation another work-item makes; the device's other
         * runtime calls answer at once or concern no work-item of the group */
        LLVMValueRef callee = mc_called_function(v);
        return callee && LLVMIsDeclaration(callee) && strstr(LLVMGetValueName(callee), "_pipe");
    }
    return false;
}

/* Which way an atomic add or subtract of a constant other than zero moves
 * its counter (+1 up, -1 down); 0 for any other operation. */
static int ticket_direction(LLVMValueRef v)
{
    if (!LLVMIsAAtomicRMWInst(v))
        return 0;
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(v);
    LLVMValueRef amount = LLVMGetOperand(v, 1);
    if ((op != LLVMAtomicRMWBinOpAdd && op != LLVMAtomicRMWBinOpSub) || !LLVMIsAConstantInt(amount) ||
        LLVMIsNull(amount))
        return 0;
    int sign = LLVMConstIntGetSExtValue(amount) > 0 ? 1 : -1;
    return op == LLVMAtomicRMWBinOpAdd ? sign : -sign;
}

typedef struct walk {
    const mc_cfg *g;
    const bool *in_loop;
    LLVMValueRef *seen;
    size_t nseen, max_seen;
} walk;

/* Is rmw a ticket the loop takes: an add or subtract of a constant other
 * than zero, its counter written in the loop by nothing but tickets that
 * move it the same way?  Then each iteration gets a new value by the loop's
 * own work (a persistent-threads loop), and a loop that leaves on it waits
 * for no one. */
static bool takes_ticket(const walk *w, LLVMValueRef rmw)
{
    int direction = ticket_direction(rmw);
    if (!direction)
        return false;
    LLVMValueRef counter = location(LLVMGetOperand(rmw, 0));
    for (int b = 0; b < w->g->n; b++) {
        if (!w->in_loop[b])
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(w->g->blocks[b]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef p = LLVMIsAStoreInst(i)                                          ? LLVMGetOperand(i, 1)
                             : LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ? LLVMGetOperand(i, 0)
                                                                                      : NULL;
            if (p && location(p) == counter && ticket_direction(i) != direction)
                return false; /* a give-back, an exchange or a store: the loop may wait for it */
        }
    }
    return true;
}

static bool depends_on_shared_read(walk *w, LLVMValueRef v);

/* A load of a private variable depends on what the loop stores there (an
 * atomic compare-exchange's old value reaches the kernel through one). */
static bool stored_value_depends(walk *w, LLVMValueRef variable)
{
    for (int b = 0; b < w->g->n; b++) {
        if (!w->in_loop[b])
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(w->g->blocks[b]); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsAStoreInst(i) && mc_base_of(LLVMGetOperand(i, 1)) == variable &&
                depends_on_shared_read(w, LLVMGetOperand(i, 0)))
                return true;
    }
    return false;
}

/* Does v, computed in the loop (in_loop[] by block index), depend on a
 * shared read made in the loop that the loop does not move on itself?
 * `seen` keeps phis from going round. */
static bool depends_on_shared_read(walk *w, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    int b = mc_cfg_block(w->g, LLVMGetInstructionParent(v));
    if (b < 0 || !w->in_loop[b])
        return false; /* the same on every iteration */
    if (reads_shared(v))
        return !takes_ticket(w, v);
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i] == v)
            return false;
    if (w->nseen == w->max_seen)
        return true; /* too far to follow: as if it waited (fibers are always right) */
    w->seen[w->nseen++] = v;
    if (LLVMIsALoadInst(v)) {
        LLVMValueRef variable = mc_base_of(LLVMGetOperand(v, 0));
        return LLVMIsAAllocaInst(variable) && stored_value_depends(w, variable);
    }
    if (LLVMIsACallInst(v))
        return false; /* an ordinary call: the loop may not see a change (a data race) */
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
        if (depends_on_shared_read(w, LLVMGetOperand(v, i)))
            return true;
    return false;
}

/* Does a branch that leaves the loop test a value read from shared memory
 * that the loop does not move on itself? */
static bool is_spin_loop(const mc_cfg *g, const bool *in_loop, LLVMValueRef *seen, size_t max_seen)
{
    for (int b = 0; b < g->n; b++) {
        if (!in_loop[b])
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
        if (!term || (!LLVMIsABranchInst(term) && !LLVMIsASwitchInst(term)))
            continue;
        if (LLVMIsABranchInst(term) && !LLVMIsConditional(term))
            continue;
        bool exits = false;
        for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++)
            exits |= !in_loop[mc_cfg_block(g, LLVMGetSuccessor(term, s))];
        walk w = {g, in_loop, seen, 0, max_seen};
        if (exits && depends_on_shared_read(&w, LLVMGetOperand(term, 0)))
            return true;
    }
    return false;
}

bool mc_may_spin(LLVMValueRef body)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (reads_shared(i))
                return true;
    return false;
}

cl_int mc_mark_spin_loops(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, mosaic_strbuf *log)
{
    LLVMValueRef f = kb->body;
    enum { MAX_SEEN = 4096 };
    const mc_cfg *g = mc_analyses_cfg(an, f); /* (the calls added leave the blocks as they are) */
    LLVMValueRef *seen = calloc(MAX_SEEN, sizeof *seen);
    bool *in_loop = g ? calloc((size_t)g->n, sizeof *in_loop) : NULL;
    bool ok = g && seen && in_loop;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    /* every retreating edge, a switch's cases to one header each (clang's
     * OpenCL C is reducible: each is a back edge) */
    for (int e = 0; ok && e < g->nretreating; e++) {
        const mc_cfg_edge *edge = &g->retreating[e];
        ok = mc_edge_loop(g, edge->from, edge->to, in_loop) > 0;
        if (!ok || !is_spin_loop(g, in_loop, seen, MAX_SEEN))
            continue;
        kb->spins = true; /* regions.c says so with MOSAIC_DEBUG */
        /* Every iteration that goes round again lets the others run first. */
        LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
        LLVMTypeRef fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0);
        LLVMValueRef yield = LLVMGetNamedFunction(m, "__mosaic_yield");
        if (!yield)
            yield = LLVMAddFunction(m, "__mosaic_yield", fn_ty);
        LLVMValueRef ctx = LLVMGetParam(f, LLVMCountParams(f) - 4);
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(g->blocks[edge->from]));
        LLVMBuildCall2(b, fn_ty, yield, &ctx, 1, "");
    }
    LLVMDisposeBuilder(b);
    free(seen), free(in_loop);
    return ok ? CL_SUCCESS : mc_out_of_memory(log);
}
