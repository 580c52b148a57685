/*
 * The control-flow graph of a function and what is derived from it
 * (cfg.c): reverse post-order, dominators, post-dominators and natural
 * loops.  LLVM's C API reaches neither DominatorTree nor LoopInfo, so the
 * passes share this one.
 *
 * Blocks are numbered in the function's layout order (0 is the entry), so a
 * pass that walks them by number walks them as LLVMGetFirstBasicBlock /
 * LLVMGetNextBasicBlock would; `rpo` lists the blocks the entry reaches in
 * reverse post-order of a depth-first walk that takes each terminator's
 * successors in order.
 *
 * An mc_cfg describes the function as it was when it was computed: a pass
 * that adds, removes or retargets blocks computes a new one (or invalidates
 * it in the runner's cache, analyses.h).
 */
#ifndef MOSAIC_COMPILER_CFG_H
#define MOSAIC_COMPILER_CFG_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compiler/ir/ptr_map.h"

/* An edge of the walk that goes to a block still on the walk's path: a
 * retreating edge.  In a reducible graph (all OpenCL C without goto) each
 * one is a back edge (its target dominates its source). */
typedef struct mc_cfg_edge {
    int from, to;  /* the latch and the header */
    unsigned succ; /* which successor of from's terminator */
    bool back;     /* to dominates from: it closes a natural loop */
} mc_cfg_edge;

/* A natural loop: its header and every block that reaches one of its back
 * edges without passing the header (the back edges to one header make one
 * loop, as LLVM's LoopInfo has it). */
typedef struct mc_loop {
    int header;
    int parent;         /* the innermost loop around this one, -1 for none */
    int depth;          /* 1 for an outermost loop */
    int nblocks;        /* the body, header included, in layout order */
    int *blocks;
    int nlatches;       /* the sources of its back edges, in layout order */
    int *latches;
    int nexiting;       /* blocks of the body with a successor outside it */
    int *exiting;
} mc_loop;

typedef struct mc_cfg {
    LLVMValueRef fn;
    int n;                     /* blocks, in layout order; 0 is the entry */
    LLVMBasicBlockRef *blocks; /* [n] */
    pmap index;                /* block -> its number */
    int **succ, *nsucc;        /* in terminator order; a block twice when two cases go there */
    int **pred, *npred;        /* every predecessor, reachable or not, in layout order */
    int nreach;                /* how many blocks the entry reaches */
    int *rpo;                  /* [nreach] the blocks the entry reaches, in reverse post-order */
    int *rpo_number;           /* [n] place in rpo, -1 for a block the entry does not reach */
    int *idom;                 /* [n] immediate dominator; the entry's is itself, -1 when unreachable */
    int *ipdom;                /* [n] immediate post-dominator; n is the virtual exit after every `ret`, -1
                                  when no path leads to a `ret` (an endless loop, `unreachable`) */
    int nretreating;           /* retreating edges, in the order the walk found them */
    mc_cfg_edge *retreating;
    int nloops;                /* natural loops, by their header's place in rpo (outer before inner) */
    mc_loop *loops;
    int *loop_of;              /* [n] the innermost loop holding the block, -1 for none */
} mc_cfg;

/* The graph of fn (a function with a body); NULL when memory ran out. */
mc_cfg *mc_cfg_new(LLVMValueRef fn);
void mc_cfg_free(mc_cfg *g);

/* bb's number, -1 for a block not in the function (or added since). */
int mc_cfg_block(const mc_cfg *g, LLVMBasicBlockRef bb);
/* Is block b reachable from the entry? */
bool mc_cfg_reachable(const mc_cfg *g, int b);
/* Does a dominate b (every path from the entry to b passes a)?  A block
 * dominates itself; every block dominates a block the entry does not reach. */
bool mc_dominates(const mc_cfg *g, int a, int b);
/* The two-way branches every run of block b passed on one of their ways:
 * walking up b's dominators, each one `up` that ends in a conditional
 * branch to two different blocks, whose edge to the block below it is the
 * only way into that block from outside what that block dominates (a
 * loop's back edges aside).  Up to `most` (and 64 dominators up), nearest
 * first, each as up * 2 + the way (0: the condition held); how many. */
int mc_cfg_deciding_ways(const mc_cfg *g, int b, int *ways, int most);
/* Does a post-dominate b (every path from b to a `ret` passes a)?  Blocks
 * with no way to a `ret` are post-dominated by nothing but themselves. */
bool mc_post_dominates(const mc_cfg *g, int a, int b);
/* The natural loop of the one edge latch -> header into in[] (by block
 * number; cleared first): the header and the reachable blocks that reach
 * the latch without passing the header.  How many blocks; -1 when memory
 * ran out.  (A pass that treats each back edge on its own uses it; `loops`
 * merges the back edges to one header.) */
int mc_edge_loop(const mc_cfg *g, int latch, int header, bool *in);
/* Is block b in loop l (a loop nested in l counts)? */
bool mc_loop_contains(const mc_cfg *g, int l, int b);
/* How many natural loops hold block b. */
int mc_cfg_loop_depth(const mc_cfg *g, int b);
/* Is every retreating edge a back edge (the graph reducible)? */
bool mc_cfg_reducible(const mc_cfg *g);
/* Does g still describe its function: the same blocks in the same order,
 * each with the same successors?  (Cheaper than a new graph: a check.) */
bool mc_cfg_current(const mc_cfg *g);

#endif
