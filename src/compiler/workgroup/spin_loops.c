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
 * such a loop would spin forever.  This pass finds the loops that can wait
 * for another work-item: a loop whose exit depends on a value the loop
 * reads with an atomic operation, a volatile load or a pipe built-in, and
 * makes each iteration that goes round again call the device's
 * `__mosaic_yield(ctx)` hook.  A kernel with such a loop runs as fibers
 * (regions.c gives up on it), and the hook lets the other fibers of the
 * group run before the loop tests again (cpu_device.c, docs/subgroups.md).
 *
 * The loops are found on the CFG: a depth-first search's back edges (latch
 * -> header; OpenCL C from clang is reducible) and each one's natural loop
 * (the blocks that reach the latch without passing the header).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/kernel_build.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

typedef struct block_ref {
    LLVMBasicBlockRef bb;
    size_t index;
} block_ref;

typedef struct cfg {
    LLVMBasicBlockRef *blocks;
    size_t n;
    block_ref *by_address; /* the blocks sorted by address, for block_index */
    size_t **preds;        /* preds[i]: indices of i's predecessors, npreds[i] of them */
    size_t *npreds;
} cfg;

static int compare_block_refs(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const block_ref *)a)->bb, y = (uintptr_t)((const block_ref *)b)->bb;
    return x < y ? -1 : x > y;
}

/* bb's index in g->blocks (g->n when it is not there). */
static size_t block_index(const cfg *g, LLVMBasicBlockRef bb)
{
    block_ref key = {bb, 0};
    block_ref *found = bsearch(&key, g->by_address, g->n, sizeof key, compare_block_refs);
    return found ? found->index : g->n;
}

static void cfg_free(cfg *g)
{
    for (size_t i = 0; g->preds && i < g->n; i++)
        free(g->preds[i]);
    free(g->preds);
    free(g->npreds);
    free(g->by_address);
    free(g->blocks);
}

static bool cfg_build(cfg *g, LLVMValueRef f)
{
    memset(g, 0, sizeof *g);
    g->n = LLVMCountBasicBlocks(f);
    g->blocks = calloc(g->n ? g->n : 1, sizeof *g->blocks);
    g->preds = calloc(g->n ? g->n : 1, sizeof *g->preds);
    g->npreds = calloc(g->n ? g->n : 1, sizeof *g->npreds);
    g->by_address = calloc(g->n ? g->n : 1, sizeof *g->by_address);
    if (!g->blocks || !g->preds || !g->npreds || !g->by_address)
        return false;
    LLVMGetBasicBlocks(f, g->blocks);
    for (size_t i = 0; i < g->n; i++)
        g->by_address[i] = (block_ref){g->blocks[i], i};
    qsort(g->by_address, g->n, sizeof *g->by_address, compare_block_refs);
    for (size_t i = 0; i < g->n; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[i]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned s = 0; s < ns; s++) {
            size_t j = block_index(g, LLVMGetSuccessor(term, s));
            if (j == g->n)
                continue;
            size_t *p = realloc(g->preds[j], (g->npreds[j] + 1) * sizeof *p);
            if (!p)
                return false;
            g->preds[j] = p;
            p[g->npreds[j]++] = i;
        }
    }
    return true;
}

/* Is v read from memory another work-item may write, in a way the loop
 * must see change: an atomic read, a volatile load, a runtime call? */
static bool reads_shared(LLVMValueRef v)
{
    if (LLVMIsAAtomicRMWInst(v) || LLVMIsAAtomicCmpXchgInst(v))
        return true;
    if (LLVMIsALoadInst(v))
        return LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic || LLVMGetVolatile(v);
    if (LLVMIsACallInst(v)) {
        /* the pipe built-ins (__read_pipe_2, __reserve_write_pipe, ...): a
         * packet or a reservation another work-item makes; the device's other
         * runtime calls answer at once or concern no work-item of the group */
        LLVMValueRef callee = mc_called_function(v);
        return callee && LLVMIsDeclaration(callee) && strstr(LLVMGetValueName(callee), "_pipe");
    }
    return false;
}

typedef struct walk {
    const cfg *g;
    const bool *in_loop;
    LLVMValueRef *seen;
    size_t nseen, max_seen;
} walk;

static bool depends_on_shared_read(walk *w, LLVMValueRef v);

/* A load of a private variable depends on what the loop stores there (an
 * atomic compare-exchange's old value reaches the kernel through one). */
static bool stored_value_depends(walk *w, LLVMValueRef variable)
{
    for (size_t b = 0; b < w->g->n; b++) {
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
 * shared read made in the loop?  `seen` keeps phis from going round. */
static bool depends_on_shared_read(walk *w, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    size_t b = block_index(w->g, LLVMGetInstructionParent(v));
    if (b == w->g->n || !w->in_loop[b])
        return false; /* the same on every iteration */
    if (reads_shared(v))
        return true;
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i] == v)
            return false;
    if (w->nseen == w->max_seen)
        return false;
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

/* The natural loop of the back edge latch -> header, into in_loop. */
static void natural_loop(const cfg *g, size_t header, size_t latch, bool *in_loop, size_t *stack)
{
    memset(in_loop, 0, g->n * sizeof *in_loop);
    in_loop[header] = true;
    size_t top = 0;
    if (!in_loop[latch]) {
        in_loop[latch] = true;
        stack[top++] = latch;
    }
    while (top) {
        size_t b = stack[--top];
        for (size_t p = 0; p < g->npreds[b]; p++)
            if (!in_loop[g->preds[b][p]]) {
                in_loop[g->preds[b][p]] = true;
                stack[top++] = g->preds[b][p];
            }
    }
}

/* Does a branch that leaves the loop test a value read from shared memory?
 * (`any_read`: does the loop read shared memory at all; for IR that was not
 * cleaned up, where values go through private variables in memory.) */
static bool is_spin_loop(const cfg *g, const bool *in_loop, bool any_read, LLVMValueRef *seen, size_t max_seen)
{
    for (size_t b = 0; b < g->n; b++) {
        if (!in_loop[b])
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[b]); any_read && i; i = LLVMGetNextInstruction(i))
            if (reads_shared(i))
                return true;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
        if (!term || (!LLVMIsABranchInst(term) && !LLVMIsASwitchInst(term)))
            continue;
        if (LLVMIsABranchInst(term) && !LLVMIsConditional(term))
            continue;
        bool exits = false;
        for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++)
            exits |= !in_loop[block_index(g, LLVMGetSuccessor(term, s))];
        walk w = {g, in_loop, seen, 0, max_seen};
        if (exits && depends_on_shared_read(&w, LLVMGetOperand(term, 0)))
            return true;
    }
    return false;
}

/* The back edges of a depth-first search from the entry block: latch[i] ->
 * header[i], *count of them. */
static bool back_edges(const cfg *g, size_t *latch, size_t *header, size_t *count)
{
    enum { NEW, ON_STACK, DONE };
    unsigned char *state = calloc(g->n, 1);
    size_t *stack = calloc(g->n, sizeof *stack), *next_succ = calloc(g->n, sizeof *next_succ);
    bool ok = state && stack && next_succ;
    size_t top = 0;
    *count = 0;
    if (ok && g->n) {
        stack[top++] = 0;
        state[0] = ON_STACK;
    }
    while (ok && top) {
        size_t b = stack[top - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if (next_succ[b] == ns) {
            state[b] = DONE;
            top--;
            continue;
        }
        size_t s = block_index(g, LLVMGetSuccessor(term, (unsigned)next_succ[b]++));
        if (state[s] == ON_STACK) {
            latch[*count] = b;
            header[(*count)++] = s;
        } else if (state[s] == NEW) {
            state[s] = ON_STACK;
            stack[top++] = s;
        }
    }
    free(state), free(stack), free(next_succ);
    return ok;
}

bool mc_may_spin(LLVMValueRef body)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (reads_shared(i))
                return true;
    return false;
}

cl_int mc_mark_spin_loops(LLVMModuleRef m, mc_kernel_build *kb, bool any_read, mosaic_strbuf *log)
{
    LLVMValueRef f = kb->body;
    cfg g;
    size_t edges_max = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        edges_max += term ? LLVMGetNumSuccessors(term) : 0;
    }
    enum { MAX_SEEN = 4096 };
    size_t *latch = calloc(edges_max + 1, sizeof *latch), *header = calloc(edges_max + 1, sizeof *header);
    LLVMValueRef *seen = calloc(MAX_SEEN, sizeof *seen);
    bool ok = cfg_build(&g, f) && latch && header && seen;
    bool *in_loop = ok ? calloc(g.n, sizeof *in_loop) : NULL;
    size_t *stack = ok ? calloc(g.n, sizeof *stack) : NULL, count = 0;
    ok = ok && in_loop && stack && back_edges(&g, latch, header, &count);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (size_t e = 0; ok && e < count; e++) {
        natural_loop(&g, header[e], latch[e], in_loop, stack);
        if (!is_spin_loop(&g, in_loop, any_read, seen, MAX_SEEN))
            continue;
        kb->spins = true; /* regions.c says so with MOSAIC_DEBUG */
        /* Every iteration that goes round again lets the others run first. */
        LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
        LLVMTypeRef fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0);
        LLVMValueRef yield = LLVMGetNamedFunction(m, "__mosaic_yield");
        if (!yield)
            yield = LLVMAddFunction(m, "__mosaic_yield", fn_ty);
        LLVMValueRef ctx = LLVMGetParam(f, LLVMCountParams(f) - 4);
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(g.blocks[latch[e]]));
        LLVMBuildCall2(b, fn_ty, yield, &ctx, 1, "");
    }
    LLVMDisposeBuilder(b);
    cfg_free(&g);
    free(latch), free(header), free(seen), free(in_loop), free(stack);
    return ok ? CL_SUCCESS : mc_out_of_memory(log);
}
