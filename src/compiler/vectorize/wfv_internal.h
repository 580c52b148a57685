/*
 * The widener's state and what its two halves share (wfv.c: shapes and
 * vector code; linearize.c: control flow that differs between
 * work-items, run under lane masks).  docs/compiler.md, "Kernels widened
 * whole".
 */
#ifndef MOSAIC_COMPILER_WFV_INTERNAL_H
#define MOSAIC_COMPILER_WFV_INTERNAL_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compiler/ir/analyses.h"
#include "compiler/ir/ptr_map.h"

/* A value's shape across the lanes (wfv.c's header comment). */
enum shape { UNIFORM, CONSECUTIVE, VARYING };

/* Guards whose accesses get an unmasked way (the others keep their masks). */
#define WD_MAX_GUARDS 4

typedef struct widener {
    LLVMModuleRef m;
    LLVMContextRef c;
    mc_analyses *an;       /* the pipeline's: K.body's graph and uniformity */
    const mc_cfg *g;       /* K.body's graph (its blocks numbered as bbs) */
    LLVMValueRef body, vec;
    LLVMBuilderRef b;
    LLVMTypeRef i64, i32;
    unsigned lanes;
    LLVMValueRef check_addresses, check_running; /* wfv_check.c's arrays, once made */
    unsigned row;          /* mc_wfv_rows: the group's row length (a barrier kernel's K.row), else 0 */
    int n;                 /* instructions of K.body */
    LLVMValueRef *insts;
    unsigned char *shape;  /* per instruction */
    long long *stride;     /* CONSECUTIVE: lane i = lane 0 + i * stride (bytes for pointers) */
    LLVMValueRef *scalar;  /* UNIFORM: the value; CONSECUTIVE: lane 0 */
    LLVMValueRef *vector;  /* VARYING: the vector */
    pmap iidx, bidx;
    LLVMBasicBlockRef *blocks; /* K.vec's block for each of K.body's */
    LLVMBasicBlockRef *order;  /* K.body's blocks reached, reverse post-order */
    int nb;                    /* how many are reached */
    int nall;                  /* K.body's blocks */
    LLVMBasicBlockRef *bbs;    /* K.body's blocks, by index */
    int *rpo;                  /* per block: its place in order, -1 if never reached */
    /* loops that work-items leave in different iterations (masked_loop) */
    int *loop_of;              /* per block of K.body: its innermost masked loop's header, or -1 */
    int *parent_loop;          /* per header: the header of the masked loop around it, or -1 */
    LLVMBasicBlockRef *latch;  /* per header: the block that goes round again */
    LLVMValueRef *go_on;       /* per header (K.vec): the lanes still in the loop this iteration */
    LLVMValueRef *mask_phi;    /* per header (K.vec): the lanes that entered this iteration */
    int *loop_entry;           /* per header of a loop inside an if (below): the block that enters it, or -1 */
    /* ifs that work-items take different ways through (divergent_region):
     * the blocks between the branch and where the ways meet run one after
     * the other, each under the mask of the lanes that reach it */
    int *region_of;            /* per block inside such an if: its branch's block, or -1 */
    int *join_of;              /* per block where the ways meet: the branch's block, or -1 */
    int *next_block;           /* per branch block and block inside: the block K.vec runs next */
    LLVMValueRef **edge;       /* per branch block and block inside (K.vec): the lanes taking each way out */
    LLVMValueRef *region_mask; /* per block inside (K.vec): the lanes that reach it */
    /* guards: a branch outside loops whose one way is the block that only
     * returns ("if (i >= n) return;"): the lanes that stay run the rest */
    int *guarded;              /* per guard's block: the block the lanes that stay go on to, or -1 */
    /* (K.vec) the lanes each guard built so far keeps, and whether that is
     * every lane: an access under such a mask is a plain vector one in rows
     * whose lanes all stay (wd_strided_load, wd_strided_store) */
    LLVMValueRef guard_mask[WD_MAX_GUARDS], guard_full[WD_MAX_GUARDS];
    int nguards;
    bool building_ways;        /* building those two ways of an access */
    unsigned char *in_loop;    /* per block: in some loop */
    LLVMValueRef *block_mask;  /* per block outside masked loops and arms (K.vec): its lanes, NULL: all */
    /* K.row: branches on a varying value that barriers decide (every lane
     * takes lane 0's way; a row whose lanes disagree is reported) */
    unsigned char *decided;    /* per block: its branch is one */
    LLVMBasicBlockRef *out_block; /* per such block (K.vec): the block its branch ends up in */
    LLVMValueRef report_fn, kernel_name; /* __mosaic_barrier_divergence and its argument, or NULL */
    const char *why;       /* why not, when it cannot */
    /* a tail: K.tail(args, ctx, lx0, ly, lz, count) runs the first count lanes only */
    bool tail;
    LLVMValueRef tail_mask;    /* (K.vec) lanes below count, or NULL */
    LLVMValueRef last;         /* (K.vec) the last lane's number, i32 */
    /* clamped indices (wfv_clamps.c): the shapes values would have if
     * every clamp left its operand alone, NULL when none would change */
    unsigned char *ushape;
    long long *ustride;
    bool unclamped;            /* wd_infer takes clamps as leaving their operand alone */
    /* K.row of several rows at once (wfv_rows.c): lane i is work-item
     * (lx0 + i % chunk, ly + i / chunk); else rows 1, chunk the lanes.  A
     * consecutive value's stride is along each row, from that row's first
     * lane; a uniform or consecutive value that depends on ly (by_row) has
     * a first lane per row. */
    unsigned rows, chunk;
    unsigned char *by_row;     /* per instruction: depends on ly (rows > 1) */
    LLVMValueRef *row_scalar;  /* (K.vec) [k * rows + r]: row r's first lane of a by_row instruction k */
    LLVMValueRef *ly_row;      /* (K.vec) row r's ly */
    /* ifs on a value each row shares whose way holds loops (row ifs): the
     * way runs under the mask of its rows when any row takes it (K.vec:
     * edge[branch block][0]) */
    int *row_if_join;          /* per branch block of a row if: where its ways meet, else -1 */
    int *row_if_of;            /* per block in the way of a row if: the branch's block, else -1 */
} widener;

/* wfv.c */
int wd_inst_index(const widener *w, LLVMValueRef v);
/* v's shape (*stride: a consecutive value's stride, bytes for pointers). */
enum shape wd_shape_of(const widener *w, LLVMValueRef v, long long *stride);
LLVMValueRef wd_splat(widener *w, LLVMValueRef v);
/* v as a vector / its first lane (uniform or consecutive v), at the builder's place. */
LLVMValueRef wd_vector_value(widener *w, LLVMValueRef v);
LLVMValueRef wd_scalar_of(widener *w, LLVMValueRef v);
LLVMValueRef wd_all_lanes(widener *w);
LLVMValueRef wd_call_intrinsic(widener *w, const char *name, LLVMTypeRef *types, unsigned ntypes, LLVMValueRef *args,
                               unsigned nargs);
enum shape wd_infer(widener *w, LLVMValueRef inst, long long *stride);
/* Loads of lanes st bytes apart from one first address (a vector load, one
 * mirrored, or an interleaved one) where wd_vector_load_stride; a gather. */
bool wd_vector_load_stride(long long st, long long size);
LLVMValueRef wd_strided_load(widener *w, LLVMValueRef inst, LLVMValueRef first, long long st, LLVMValueRef mask);
/* (addresses: the lanes' own, NULL: the address operand's vector) */
LLVMValueRef wd_gather(widener *w, LLVMValueRef inst, LLVMValueRef addresses, LLVMValueRef mask);
/* Stores of lanes st bytes apart (st plus or minus the value's size) from
 * one first address; a scatter. */
bool wd_strided_store(widener *w, LLVMValueRef inst, LLVMValueRef first, long long st, LLVMValueRef mask);
void wd_scatter(widener *w, LLVMValueRef inst, LLVMValueRef addresses, LLVMValueRef mask);
bool wd_widenable_intrinsic(LLVMValueRef f);

/* wfv_check.c: checking mode's calls */
/* Does inst call __mosaic_check_access (compiler/check/instrument.c)? */
bool wd_is_check_access(LLVMValueRef inst);
/* The call inst of __mosaic_check_access as one call of __mosaic_check_row
 * for the running lanes; false (and why) when it cannot be. */
bool wd_widen_check_access(widener *w, LLVMValueRef inst);
/* Does inst call __mosaic_check_barrier, a work-item's arrival at a
 * work-group barrier? */
bool wd_is_check_barrier(LLVMValueRef inst);
/* In a barrier kernel's row, the call inst of __mosaic_check_barrier as one
 * call of __mosaic_check_barrier_row for the row's lanes, all running;
 * false (and why) when they may not all be. */
bool wd_widen_check_barrier(widener *w, LLVMValueRef inst);

/* linearize.c: finding them (before K.vec is built) */
bool wd_find_loops(widener *w);
bool wd_guard(widener *w, int g);
bool wd_divergent_region(widener *w, int a);
bool wd_masked_loop(widener *w, int h);
/* Is block b in the masked loop of header h (in it or in a loop inside)? */
bool wd_in_masked_loop(const widener *w, int b, int h);
/* ... and building them */
LLVMValueRef wd_lanes_running(widener *w, LLVMValueRef inst);
bool wd_build_region_branch(widener *w, LLVMValueRef term, int b);
LLVMValueRef wd_select_by_way(widener *w, LLVMValueRef p);
/* The lanes that go from block p to block b of an if (p's edges into b). */
LLVMValueRef wd_edge_into(widener *w, int p, int b);
bool wd_build_masked_exit(widener *w, LLVMValueRef term, int h);
/* The lanes that enter masked loop h inside an if (from w->loop_entry[h]). */
LLVMValueRef wd_lanes_entering(widener *w, int h);
void wd_build_guard(widener *w, LLVMValueRef term, int g);
void wd_pass_lanes_on(widener *w, int b);

/* wfv_rows.c: several rows at once */
/* Is v the same in every lane (uniform, and the same in every row)? */
bool wd_uniform(const widener *w, LLVMValueRef v);
/* Does v depend on ly, with rows > 1 (a uniform or consecutive v: a first lane per row)? */
bool wd_by_row(const widener *w, LLVMValueRef v);
/* Which instructions depend on ly (before the shapes); false when memory ran out. */
bool wd_find_by_row(widener *w);
/* Loads at an address each row shares where some rows may be off become
 * gathers under the mask; true when one did. */
bool wd_rows_mask_loads(widener *w);
/* How many rows at once (at most w->rows): a machine vector of vector_bits
 * of the widest varying value; false (and why) when fewer than 2. */
bool wd_rows_lanes(widener *w, unsigned vector_bits);
/* K.vec's entry: each row's ly, room for the rows' values. */
bool wd_rows_begin(widener *w);
/* Row r's first lane of a uniform or consecutive v. */
LLVMValueRef wd_row_scalar(widener *w, LLVMValueRef v, unsigned r);
/* Uniform or consecutive v as a vector of every row's lanes. */
LLVMValueRef wd_rows_vector(widener *w, LLVMValueRef v, long long stride);
/* The first lane's address: a scalar; with rows > 1 a vector of each row's
 * first lane (what wd_strided_load and wd_strided_store take). */
LLVMValueRef wd_first_lanes(widener *w, LLVMValueRef p);
/* A by_row instruction k's copies for rows 1.. (row 0's is w->scalar[k]). */
void wd_copy_rows(widener *w, LLVMValueRef inst, int k);
/* ... and a by_row phi's incoming value v from block `from` (the builder at its end). */
void wd_rows_add_incoming(widener *w, int k, LLVMValueRef v, LLVMBasicBlockRef from);
/* A load or store of lanes st bytes apart a row at a time (rows > 1),
 * from each row's first lane (wd_first_lanes); NULL, false when memory ran out. */
LLVMValueRef wd_rows_strided_load(widener *w, LLVMValueRef inst, LLVMValueRef firsts, long long st, LLVMValueRef mask);
bool wd_rows_strided_store(widener *w, LLVMValueRef inst, LLVMValueRef firsts, long long st, LLVMValueRef mask);
/* A store at an address uniform in each row (rows > 1). */
void wd_rows_store_one_place(widener *w, LLVMValueRef inst, LLVMValueRef mask);
/* Does the branch that ends block a (on a value each row shares) start a row if? */
bool wd_row_if(widener *w, int a);
bool wd_build_row_if(widener *w, LLVMValueRef term, int a);
/* A row if's join's phi p, its vector value v from block `from`: from the
 * way, the lanes that did not take it keep what they had at the branch
 * (the builder at the end of from). */
LLVMValueRef wd_rows_join_incoming(widener *w, LLVMValueRef p, int from, LLVMValueRef v);
/* Does block b pass its lanes on to successor s (not out of a row if's way)? */
bool wd_rows_pass_lanes(const widener *w, int b, int s);

/* wfv_blocks.c */
/* In K.row, the shape of integer inst (x / 2^k, x % 2^k, x & mask, a
 * comparison with a bound) when a consecutive operand's lanes lie in one
 * aligned block of values over the row: UNIFORM, or CONSECUTIVE (*stride);
 * VARYING when not. */
enum shape wd_row_block_shape(const widener *w, LLVMValueRef inst, long long *stride);
/* In K.row, k when inst is x / 2^k or x % 2^k (k >= 1, signed) of a
 * consecutive x that is not negative in any lane (its shared part not
 * negative, its stride above 0), so an lshr or an `and` gives each lane's
 * answer; else -1. */
int wd_row_unsigned_pow2(const widener *w, LLVMValueRef inst);

/* wfv_clamps.c */
/* Which operand of inst is the bound of a clamp (a min or max of integers,
 * the other operand varying): 0 or 1, else -1. */
int wd_clamp_bound(const widener *w, LLVMValueRef inst);
/* Is inst x & (2^k - 1) for k >= 32 (*k, when not NULL, gets k)? */
bool wd_low_bits(LLVMValueRef inst, unsigned *k);
void wd_find_unclamped_shapes(widener *w);
/* Load (value NULL) or store inst as a vector access where a test on the
 * row's lanes says its address is consecutive (every clamp on the way
 * leaves them alone; with some lanes off, no zero extension or mask of low
 * bits sees them wrap), a gather or scatter where not; NULL when the
 * address needs no test or has no such form. */
LLVMValueRef wd_versioned_access(widener *w, LLVMValueRef inst, LLVMValueRef value, LLVMValueRef mask);
/* K.vec's block where block b's code ends (b's own, or one its code split off). */
LLVMBasicBlockRef wd_end_block(const widener *w, int b);

#endif
