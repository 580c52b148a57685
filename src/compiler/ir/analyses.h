/*
 * The analyses passes share, per function, computed when first asked for
 * and kept until a pass changes what they describe (analyses.c).
 *
 * The pipeline's runner owns one cache for a run (pipeline.h) and hands it
 * to every pass: a pass asks it instead of computing its own, and the
 * runner forgets, after each pass that changed code, what the pass does not
 * declare it keeps (passes.def's KEEPS).  Inside a pass, a step that changes
 * the blocks or instructions of a function it (or a step after it) will ask
 * about again invalidates the function first.
 *
 * Keys are functions (LLVMValueRef): a pass that deletes a function it asked
 * about invalidates it before (a function made later may get its address).
 */
#ifndef MOSAIC_COMPILER_IR_ANALYSES_H
#define MOSAIC_COMPILER_IR_ANALYSES_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "compiler/ir/cfg.h"
#include "compiler/ir/uniformity.h"

/* The analyses a pass needs, and those it keeps valid (a bitmask). */
enum mc_analysis {
    MC_ANALYSIS_CFG = 1u << 0,            /* blocks, predecessors, successors */
    MC_ANALYSIS_DOMINATORS = 1u << 1,
    MC_ANALYSIS_POSTDOMINATORS = 1u << 2,
    MC_ANALYSIS_LOOPS = 1u << 3,          /* back edges, headers, latches, exits */
    MC_ANALYSIS_UNIFORMITY = 1u << 4,     /* which values all work-items of a group share */
};
#define MC_ANALYSES_NONE 0u
/* The graph and what cfg.c derives from it: computed together, so kept
 * together (a pass that keeps some of them but not all keeps none). */
#define MC_ANALYSES_CFG_SHAPE                                                                            \
    (MC_ANALYSIS_CFG | MC_ANALYSIS_DOMINATORS | MC_ANALYSIS_POSTDOMINATORS | MC_ANALYSIS_LOOPS)
#define MC_ANALYSES_ALL (MC_ANALYSES_CFG_SHAPE | MC_ANALYSIS_UNIFORMITY)

typedef struct mc_analyses mc_analyses;

mc_analyses *mc_analyses_new(void);
void mc_analyses_free(mc_analyses *a);

/* fn's graph (cfg.h), computed now or earlier; NULL when memory ran out.
 * Owned by the cache: valid until fn's graph is forgotten. */
const mc_cfg *mc_analyses_cfg(mc_analyses *a, LLVMValueRef fn);
/* fn's uniformity (uniformity.h; its parameters from first_varying on
 * differ between work-items, the same for every ask of one function), on
 * fn's graph; NULL when memory ran out.  Owned by the cache, as the graph. */
const mc_uniformity *mc_analyses_uniformity(mc_analyses *a, LLVMValueRef fn, unsigned first_varying);
/* What the cache holds of fn now (enum mc_analysis bits; 0: nothing). */
unsigned mc_analyses_cached(const mc_analyses *a, LLVMValueRef fn);
/* What was asked for since the last call (MC_ANALYSIS_CFG for a graph,
 * MC_ANALYSIS_UNIFORMITY), and a fresh start: the runner checks a pass's
 * asks against its NEEDS. */
unsigned mc_analyses_asked(mc_analyses *a);

/* Forgets what is known of fn (after a step changed its blocks or code). */
void mc_analyses_invalidate(mc_analyses *a, LLVMValueRef fn);
/* Forgets everything. */
void mc_analyses_invalidate_all(mc_analyses *a);
/* Forgets, of every function but the nspare of spare[], what `keep` (enum
 * mc_analysis bits) does not name: the runner after a pass that changed
 * code. */
void mc_analyses_keep(mc_analyses *a, unsigned keep, const LLVMValueRef *spare, size_t nspare);

/* Does every graph the cache holds still describe its function (the same
 * blocks, each with the same successors)?  NULL when so, else the first
 * function whose graph is stale (a check for builds with assertions: it
 * computes each graph again). */
LLVMValueRef mc_analyses_stale(const mc_analyses *a);

#endif
