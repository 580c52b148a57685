/*
 * Loops under `#pragma unroll`, unrolled before the loops over work-items
 * are built (docs/compiler.md, "Finalize").
 *
 * A tuned kernel keeps its per-work-item tile in a private array indexed by
 * the counters of loops it asks to be unrolled (CLBlast's GEMMs:
 * `#pragma unroll` over `cpd[_ni * MWID + _mi]`).  LLVM unrolls those loops
 * in its -O3 pipeline, after Mosaic has built K.wg, so widening and regions
 * saw an array in memory: widening gave up ("a private variable in
 * memory"), and a barrier kernel kept the array in per-work-item storage,
 * its region's loop over the work-items scalar around the kernel's k loop.
 * Unrolled first, with sroa after, the array is values: the k loop carries
 * them as floating-point phis, and the region gets its copies for rows of
 * one vector (regions.c).  Loops without the pragma wait: they are marked
 * with unrolling disabled for the pass, so a tiled product's k loop is still
 * a loop when regions.c looks for one.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/analyses.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/workgroup/passes.h"

/* The property that says a loop waits: LLVM ignores what it does not know. */
#define WAITS "mosaic.unroll.later"

int mc_back_edges(const mc_cfg *g, LLVMValueRef **out)
{
    *out = NULL;
    LLVMValueRef *found = g ? malloc((size_t)g->n * sizeof *found) : NULL;
    unsigned char *recorded = g ? calloc((size_t)g->n, 1) : NULL;
    int nb = found && recorded ? 0 : -1;
    /* each block's branch once, in the order the walk found its first retreating edge */
    for (int e = 0; nb >= 0 && e < g->nretreating; e++) {
        int b = g->retreating[e].from;
        if (!recorded[b])
            recorded[b] = 1, found[nb++] = LLVMGetBasicBlockTerminator(g->blocks[b]);
    }
    free(recorded);
    if (nb < 0)
        free(found), found = NULL;
    *out = found;
    return nb;
}

/* Does loop ID md ask for unrolling (`#pragma unroll`, with or without a count)? */
static bool asks_unrolling(LLVMValueRef md)
{
    return md && (mc_loop_md_has(md, "llvm.loop.unroll.enable") || mc_loop_md_has(md, "llvm.loop.unroll.full") ||
                  mc_loop_md_has(md, "llvm.loop.unroll.count"));
}

/* When some loop of fn asks for unrolling, marks each loop without an
 * unroll pragma (`#pragma unroll 1` is one) to wait: unrolling disabled,
 * and WAITS.  How many loops ask, -1 when memory runs out. */
static int mark_waiting(LLVMValueRef fn, unsigned kind, mc_analyses *an)
{
    LLVMValueRef *latches;
    int nb = mc_back_edges(mc_analyses_cfg(an, fn), &latches), asking = 0;
    if (nb < 0)
        return -1;
    for (int i = 0; i < nb; i++)
        asking += asks_unrolling(LLVMGetMetadata(latches[i], kind));
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMMetadataRef more[2] = {
        LLVMMDNodeInContext2(c, (LLVMMetadataRef[]){LLVMMDStringInContext2(c, "llvm.loop.unroll.disable", 24)}, 1),
        LLVMMDNodeInContext2(c, (LLVMMetadataRef[]){LLVMMDStringInContext2(c, WAITS, strlen(WAITS))}, 1)};
    for (int i = 0; i < nb && asking; i++) {
        LLVMValueRef md = LLVMGetMetadata(latches[i], kind);
        if (!asks_unrolling(md) && !(md && mc_loop_md_has(md, "llvm.loop.unroll.disable")))
            LLVMSetMetadata(latches[i], kind, mc_loop_md_plus(c, md, more, 2));
    }
    free(latches);
    return asking;
}

/* Takes the two properties mark_waiting added off every branch of fn
 * (unrolling copies them: the branches are found again). */
static void unmark_waiting(LLVMValueRef fn, unsigned kind)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        LLVMValueRef md = t ? LLVMGetMetadata(t, kind) : NULL;
        if (!md || !mc_loop_md_has(md, WAITS))
            continue;
        /* the loop ID before: its properties up to the two added last */
        unsigned n = LLVMGetMDNodeNumOperands(md);
        LLVMValueRef *ops = malloc(n * sizeof *ops);
        LLVMMetadataRef *keep = malloc(n * sizeof *keep);
        if (!ops || !keep) { /* the marks stay: the loop is not unrolled, nothing worse */
            free(ops), free(keep);
            continue;
        }
        LLVMGetMDNodeOperands(md, ops);
        for (unsigned i = 1; i + 2 < n; i++)
            keep[i - 1] = LLVMValueAsMetadata(ops[i]);
        LLVMSetMetadata(t, kind, n > 3 ? mc_loop_md_plus(c, NULL, keep, n - 3) : NULL);
        free(ops), free(keep);
    }
}

cl_int mc_unroll_pragma_loops(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, mc_analyses *an,
                              mosaic_strbuf *log)
{
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "llvm.loop", 9);
    size_t asking = 0; /* the functions with a loop that asks, first in fs */
    for (size_t i = 0; i < n; i++) {
        int a = mark_waiting(fs[i], kind, an);
        if (a < 0) {
            for (size_t j = 0; j < asking; j++)
                unmark_waiting(fs[j], kind);
            return mc_out_of_memory(log);
        }
        if (a > 0) {
            LLVMValueRef f = fs[asking];
            fs[asking++] = fs[i], fs[i] = f;
        }
    }
    /* sroa again after instcombine: the unrolled copies' indices into a
     * private array fold to constants only then (with one sroa, CLBlast's
     * accumulators stayed an array in per-work-item storage) */
    cl_int r = asking ? mc_run_passes_on(m, tm, fs, asking,
                                         "function(loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-peeling;"
                                         "no-profile-peeling>),function(sroa,early-cse,simplifycfg,instcombine,sroa)",
                                         log)
                      : CL_SUCCESS;
    for (size_t i = 0; i < asking; i++)
        unmark_waiting(fs[i], kind);
    return r;
}

