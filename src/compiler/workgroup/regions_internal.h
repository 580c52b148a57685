/*
 * What the steps of K.wg's construction share (regions.c and region_*.c;
 * regions.c's top comment describes K.wg).  Private to those files.
 *
 * The steps, in the order mc_build_wg_regions runs them, and the part of
 * the state each fills (the later steps only read it):
 *
 *   region_cut.c        barrier splitting: every barrier ends its block;
 *                       the CFG, the barriers, the regions       -> rf->cut
 *   region_liveness.c   what each instruction becomes            -> rf->ins
 *                       values live across barriers: kept in an
 *                       array or rematerialised                  -> rf->live
 *   region_storage.c    the arrays' layout (pocl's "context
 *                       arrays"), loads and stores of them        -> rf->store
 *   region_uniform.c    uniform values, regions run once for the
 *                       group, the order of masked mode's states -> rf->unif
 *   regions.c           K.wg's entry: arguments, values computed
 *                       once, the storage, a block per region    -> rf->frame
 *   region_loops.c      each region: its work-item loops around a
 *   region_copy.c       copy of its code                          -> rf->copy
 *   region_sub_groups.c sub-group mode's loops and phases         -> rf->sg
 *   region_active_sets.c  ... with non-uniform sub-group functions
 *   region_versioning.c a region's specialised copies: rows of 8
 *                       and 16, a narrowed x range
 *
 * Each step returns CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE (the kernel has
 * something it does not handle: give_up records why; the device runs K.wi
 * as fibers) or CL_OUT_OF_HOST_MEMORY.  The hand-offs between steps are
 * checked with MOSAIC_ASSERT in regions.c (check_cut, check_live,
 * check_uniform, check_frame).
 *
 * Names: K.body is one work-item's code (the kernel's, everything
 * inlined), K.row its widened rows (wfv.c), K.wg the work-group function
 * built here.  A "slot" is a per-work-item array (one element per
 * work-item, indexed by the local linear id); "demote" a value kept in one
 * across a barrier, "remat" one computed again instead.
 */
#ifndef MOSAIC_COMPILER_REGIONS_INTERNAL_H
#define MOSAIC_COMPILER_REGIONS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/uniformity.h"
#include "compiler/ir/util.h"
#include "compiler/ir/wg_context.h"
#include "compiler/workgroup/implicit_barriers.h"
#include "compiler/workgroup/workgroup.h"

#define PHASE_DISPATCH 0xffffffffu /* sub-group mode's phase: each sub-group from its work-items' kept state */
#define MAX_COPIED_INSTRUCTIONS 200000

/* What an instruction of K.body becomes in K.wg (region_ins.kind). */
enum {
    K_NORMAL, /* copied into each region that holds its block */
    K_SKIP,   /* not copied: barriers, debug and lifetime intrinsics, unreachable code */
    K_HOIST,  /* computed once in K.wg's entry */
    K_SHARED, /* an alloca: one for the whole work-group */
    K_PERWI,  /* an alloca: one per work-item */
};

/* ---- barrier splitting (region_cut.c) ---------------------------------------------------
 * K.body's CFG once every barrier ends its block ("barrier block" B_i,
 * i = 1..nbar, followed by E_i = bar_entry[i]), and its regions: region 0
 * starts at block 0, region i at E_i. */
typedef struct region_cut {
    /* K.body's graph once cut (cfg.h: the one its uniformity was made on,
     * from the pipeline's analyses), and its arrays: the blocks in layout
     * order (block 0 the entry), predecessors and successors */
    const mc_cfg *g;
    int nb;
    LLVMBasicBlockRef *bbs;
    int *npred, **pred, *nsucc, **succ;
    unsigned char *reach;  /* reachable from the entry */
    int *bar_of_block;     /* i when the block is B_i, else 0 */
    int nbar;              /* barriers 1..nbar */
    int *bar_block, *bar_entry;
    int nreg;              /* regions 0..nbar: region 0 starts at block 0, region i at bar_entry[i] */
    unsigned char **inreg; /* [region][block] */
    unsigned char **from_e, **to_b; /* [barrier]: blocks reachable from E_i / reaching B_i */
    unsigned char *bar_sub; /* [barrier]: a sub-group barrier */
    unsigned char *bar_div; /* [barrier]: 2 a divergent cut, 1 a uniform one, 0 a barrier */
    /* masked mode: some cut is divergent (work-items leave a loop in different iterations) */
    bool masked;
    /* sub-group mode: some barrier is a sub-group barrier */
    bool sg_mode;
    /* [barrier]: a non-uniform sub-group barrier (MC_NON_UNIFORM_BARRIER);
     * nu: some barrier is (then sg_mode too: active sets, region_sub_groups.c) */
    unsigned char *bar_nu;
    bool nu;
} region_cut;

/* ---- what each instruction becomes (region_liveness.c) ----------------------------------- */
typedef struct region_ins {
    int ni;
    LLVMValueRef *insts;
    int *iblock;
    pmap iidx;
    unsigned char *kind; /* K_*: rg_classify_instructions; rg_find_live_values turns K_SHARED into K_PERWI */
} region_ins;

/* ---- live values across barriers (region_liveness.c) ------------------------------------- */
typedef struct region_live {
    unsigned char *demote; /* [inst]: live across a barrier, kept in a slot */
    /* values live across a barrier: kept in a slot (demote) or computed again (remat) */
    int nlive;
    int *live_index, *live_inst;
    unsigned char *remat;
    unsigned char *remat_state; /* 0 not yet known, 1 can be computed again, 2 cannot, 3 being decided */
    int *remat_cost;
    /* answers of rg_reached_without_def and rg_def_reaches, computed when first asked */
    unsigned char **avoid;     /* [live index * nreg + region]: blocks the region reaches without the definition */
    unsigned char **def_reach; /* [live index * nreg + region]: blocks the region reaches from the definition */
} region_live;

/* ---- the per-work-item storage (region_storage.c) ------------------------------------------
 * Array s holds n64 elements of stride[s] bytes at offset n64 * off[s]. */
typedef struct region_storage {
    int *slot;              /* [inst]: the array of a demoted value or K_PERWI alloca, else -1 */
    int nslots;
    int *slot_inst;
    LLVMTypeRef *slot_type; /* NULL for an alloca's bytes */
    unsigned long long *slot_stride, *slot_off, slot_total;
    unsigned long long *soa; /* [inst]: a K_PERWI array stored element-major (region_liveness.c), its element's size */
    int shared_phis;        /* phis in the array of the value that comes round their loop (rg_share_phi_slots) */
} region_storage;

/* ---- uniformity (region_uniform.c) ----------------------------------------------------- */
typedef struct region_uniformity {
    const mc_uniformity *ua;    /* uniformity.c, of K.body once cut (the pipeline's analyses') */
    unsigned char *uniform_def; /* [inst]: uniform, defined under uniform control */
    unsigned char *all_slots;   /* [inst]: uniform, but some region reloads it per work-item */
    unsigned char *scalar_reg;  /* [region]: runs once for the group (rg_build_scalar_region) */
    int *prio, nprio;           /* masked mode: the cuts' states, the one to run first first */
} region_uniformity;

/* ---- K.wg and its entry block (regions.c, rg_allocate_storage) ---------------------------- */
typedef struct region_frame {
    LLVMValueRef wg, ctx;
    LLVMValueRef *vals;       /* the kernel's arguments in K.wg (mc_wg_begin) */
    LLVMValueRef *gmap;       /* [inst]: a K_HOIST or K_SHARED instruction's one copy in K.wg's entry */
    LLVMValueRef *slot_base;  /* [slot]: where the array starts */
    LLVMValueRef nxyz[3];     /* the group's size */
    LLVMValueRef n64;         /* the group's size rounded up to 64 */
    LLVMValueRef state_base;  /* per-work-item i32: the state a uniform copy (or masked region) left it in */
    LLVMBasicBlockRef *pre;   /* [region]: where it starts */
    LLVMBasicBlockRef exit;
    unsigned ag_kind;
    LLVMValueRef ag;
    /* alias scopes: Mosaic's per-work-item storage (storage_scope), which no
     * __global, __constant or __local access of the kernel's can reach */
    unsigned scope_kind, noalias_kind;
    LLVMValueRef storage_scope;
    LLVMValueRef report_fn, kernel_name;
    int vector_rows; /* regions with copies for rows of row_widths[] work-items (region_versioning.c) */
} region_frame;

/* ---- the region being copied (region_copy.c, region_loops.c) ------------------------------ */
typedef struct rf_phi {
    int inst, block;
    LLVMValueRef clone;
} rf_phi;

typedef struct rf_exit {
    LLVMBasicBlockRef block;
    int state;
    LLVMValueRef value; /* the state when it is only known as the code runs (masked regions), else NULL */
} rf_exit;

typedef struct region_copy {
    LLVMValueRef *vmap;         /* [inst]: the current region's copies */
    LLVMBasicBlockRef *bmap;    /* [block]: the current region's blocks */
    rf_phi *phis;
    int nphis;
    rf_exit *exits;
    int nexits;
    int *order;                 /* room for nb block indices (rg_build_region) */
    LLVMValueRef *hoisted;      /* [inst]: the current region's one load of a uniform value */
    LLVMBasicBlockRef cur_pre;  /* the current region's block before its loops */
    bool scalar;                /* building a region that runs once */
    LLVMValueRef active;        /* the region's active mask (rg_active_mask), the value of its NU_MASK_NAME */
    LLVMValueRef lid[3], wi;    /* the current work-item's local id and linear id */
} region_copy;

/* ---- sub-group mode (region_sub_groups.c) ------------------------------------------------- */
typedef struct region_sub_groups {
    LLVMValueRef sg_var, phase_var, pmask_var, pnext_var; /* allocas: sub-group, phase's state, stops, last stop */
    LLVMValueRef sgxyz_var[3];  /* alloca: the local id of the sub-group's first work-item (no division) */
    LLVMValueRef nitems, nsg;   /* work-items and sub-groups in the group */
    LLVMBasicBlockRef sg_start, sg_end;
    LLVMValueRef sg_lo;         /* the current region's sub-group's first linear id */
    /* ... and its uniform copies: every sub-group of the group at the same state */
    bool uni;                   /* building a region's uniform copy */
    LLVMBasicBlockRef *upre;    /* [region]: where its uniform copy starts */
    /* active sets (rf->cut.nu): the masked uniform copies of the regions after
     * non-uniform barriers, for the work-items waiting at that barrier only */
    bool masked;                /* building one (rf->sg.uni is set too) */
    LLVMBasicBlockRef *mpre;    /* [region]: where it starts (NULL but after non-uniform barriers) */
    /* a chained masked copy (region_active_sets.c): region r, then in the same
     * pass over the sub-groups the one barrier's region it leads to */
    bool chained;               /* building one (rf->sg.masked is set too) */
    LLVMBasicBlockRef chain_pre; /* where the one being built starts */
    LLVMValueRef *nu_pairs;     /* [2 i]: a call of the hook and the NU_MASK_NAME call that stands for its result */
    LLVMValueRef smask_var;     /* alloca: the mask of states a uniform or masked copy left the group in */
    int nnu_pairs;
    LLVMValueRef uni_ok;        /* the group's rows are whole sub-groups (x size a multiple of S) */
    LLVMBasicBlockRef fallback, sg_dispatch;
} region_sub_groups;

/* ---- the whole state ------------------------------------------------------------------- */
typedef struct region_fn {
    /* the kernel (rf_init): read by every step */
    mc_analyses *an; /* the pipeline's: K.body's graph and uniformity */
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    mc_kernel_build *kb;
    mosaic_strbuf *log;
    LLVMValueRef body;
    unsigned nparams; /* K.body's: the kernel's, then ctx, lx, ly, lz */
    /* work-items a pass of a region's x loop: 1, or kb->row_lanes when body
     * is K.row (wfv.c), whose lx is its first lane's and whose values are
     * vectors of a lane per work-item (stored at their first lane's place) */
    unsigned lanes;
    unsigned rows; /* rows a pass of the y loop: 1, or kb->row_rows (K.row of several rows at once) */
    pmap aidx; /* K.body's parameters */
    LLVMTypeRef i1, i8, i32, i64, ptr;
    /* the outcome so far */
    const char *why; /* set when the transformation gives up */
    bool oom;        /* ... because memory ran out */

    region_cut cut;
    region_ins ins;
    region_live live;
    region_storage store;
    region_uniformity unif;
    region_frame frame;
    region_copy copy;
    region_sub_groups sg;
} region_fn;

/* One region's loops over the work-group while rg_build_region makes them. */
typedef struct region_loop {
    int r;                          /* the region */
    int *order, n;                  /* its blocks, reverse post-order (definitions before uses) */
    unsigned char *states;          /* [state]: some work-item may leave the region for it */
    int nstates, only;              /* how many such states; the last one found */
    bool multi;                     /* more than one: the work-items' choices are gathered (gathers_mask) or kept */
    LLVMBasicBlockRef pre;          /* where the region starts (rf->frame.pre[r]) */
    LLVMBasicBlockRef zb, yb, xb;   /* the loop headers, z outermost (sub-group mode: row, -, x) */
    LLVMBasicBlockRef latch, ylatch, zlatch, done; /* (sub-group mode: x latch, row latch, -, done) */
    LLVMBasicBlockRef sb, slatch;   /* uniform copy: the loop over a row's sub-groups (between y and x) */
    LLVMValueRef xs, i, ms;         /* uniform copy: the sub-group's first x, the sub-group local id, the mask */
    /* sub-group mode: the row's first linear id, the sub-group's end, the row's end, its linear base */
    LLVMValueRef l, hi, xe, base;
    LLVMValueRef x0;                /* sub-group mode: the row's first x */
    LLVMValueRef x, y, z;           /* the local id */
    LLVMValueRef mx, my, mz;        /* the mask so far, per loop (gathers_mask) */
    LLVMValueRef next;              /* at the latch: the work-item's next state */
    LLVMValueRef mask;              /* at the latch: the mask with that state (after a uniform copy: states_mask) */
    LLVMValueRef xn, yn, zn;        /* the next local id */
    LLVMValueRef xend;              /* the x loop's end when narrower than the group (rg_narrow_x_range), else NULL */
    LLVMValueRef narrowed_test;     /* the test that narrowed it (of K.body): true in the region's copy */
    LLVMBasicBlockRef y_entry;      /* where the y loop is entered from: zb, or the last test of region_versioning.c */
    /* a chained masked copy (region_active_sets.c): the region run for each
     * sub-group after this one's x loop (0: none), and where that x loop
     * leaves for it; in the second region's loop, the first's */
    int chain;
    LLVMBasicBlockRef xexit;
    const struct region_loop *outer;
} region_loop;

/* Do region rl's loops gather the work-items' next states in rl->mask (a
 * phi per loop)?  With several states, but not in a uniform copy: that one
 * reads them from the array of states after its loops (region_sub_groups.c). */
static inline bool gathers_mask(const region_fn *rf, const region_loop *rl) { return rl->multi && !rf->sg.uni; }

/* ---- helpers of every step ----------------------------------------------------------------- */

/* The kernel has something this does not handle: the first reason is kept. */
static inline cl_int give_up(region_fn *rf, const char *why)
{
    if (!rf->why)
        rf->why = why;
    return CL_BUILD_PROGRAM_FAILURE;
}

static inline cl_int out_of_memory(region_fn *rf)
{
    rf->oom = true;
    give_up(rf, "out of memory");
    return CL_OUT_OF_HOST_MEMORY;
}

/* What the steps so far come to (after those that record a failure in rf
 * without returning it: copying values, allocating several arrays). */
static inline cl_int rf_status(const region_fn *rf)
{
    return !rf->why ? CL_SUCCESS : rf->oom ? CL_OUT_OF_HOST_MEMORY : CL_BUILD_PROGRAM_FAILURE;
}

static inline void *rf_calloc(region_fn *rf, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        out_of_memory(rf);
    return p;
}

/* __mosaic_get_sub_group_first(): a pure function of the local id, computed
 * again in each region (rg_copy_inst) */
static inline bool is_sub_group_first(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && !strcmp(LLVMGetValueName(f), "__mosaic_get_sub_group_first");
}

/* __mosaic_keep(x) or __mosaic_keep32(x): x, where the builtins want it
 * computed (builtins.h); each region's copy is its operand's. */
static inline bool is_keep(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && (!strcmp(LLVMGetValueName(f), "__mosaic_keep") || !strcmp(LLVMGetValueName(f), "__mosaic_keep32"));
}

/* In K.body while K.wg is built, the result of a non-uniform sub-group barrier
 * (MC_NON_UNIFORM_BARRIER: a cut, whose own result no region may use) is
 * this call's, first in the block after it: each region's copy maps it to
 * its active mask (rg_copy_inst), and K.body gets the hook's result back. */
#define NU_MASK_NAME "__mosaic_active_mask"
static inline bool is_active_mask(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && !strcmp(LLVMGetValueName(f), NU_MASK_NAME);
}

static inline int block_of(region_fn *rf, LLVMBasicBlockRef bb) { return mc_cfg_block(rf->cut.g, bb); }

static inline int param_index(region_fn *rf, LLVMValueRef v)
{
    return LLVMIsAArgument(v) ? pmap_get(&rf->aidx, v) : -1;
}

/* A value of K.row with a lane per work-item (its element is the work-item's). */
static inline bool lane_vector(const region_fn *rf, LLVMTypeRef t)
{
    return rf->lanes > 1 && LLVMGetTypeKind(t) == LLVMVectorTypeKind;
}

/* An access every work-item of a region's loops makes on its own: marked
 * parallel for the vectoriser (the loops' access group). */
static inline void mark_parallel(region_fn *rf, LLVMValueRef inst)
{
    if (rf->frame.ag)
        LLVMSetMetadata(inst, rf->frame.ag_kind, rf->frame.ag);
}

static inline LLVMValueRef const64(region_fn *rf, unsigned long long v) { return LLVMConstInt(rf->i64, v, 0); }

/* ---- region_cut.c: barrier splitting ---------------------------------------------------- */

/* Splits K.body's blocks so that every barrier (or cut) ends its block;
 * whether it split any. */
bool rg_split_at_barriers(region_fn *rf, LLVMBuilderRef b);
/* K.body's CFG (rf->cut: g, nb, bbs, pred, succ), the graph its uniformity
 * was made on; gives up on a terminator the steps do not know. */
cl_int rg_number_blocks(region_fn *rf);
/* The barriers, the regions between them and what each reaches (rf->cut). */
cl_int rg_find_regions(region_fn *rf);

/* ---- region_liveness.c: what each instruction becomes, live values across barriers ------- */

/* Numbers K.body's instructions and gives each its kind (rf->ins). */
cl_int rg_classify_instructions(region_fn *rf);
/* Refuses a kernel whose regions would copy too much code. */
cl_int rg_check_copied_size(region_fn *rf);
/* Which allocas need a copy per work-item, which values live across a
 * barrier and whether each is kept in an array or computed again (rf->live,
 * the arrays in rf->store). */
cl_int rg_find_live_values(region_fn *rf);
/* Is block b reached in region r without passing live value li's definition? */
bool rg_reached_without_def(region_fn *rf, int li, int r, int b);
/* Is block b reached in region r from live value li's definition? */
bool rg_def_reaches(region_fn *rf, int li, int r, int b);

/* ---- region_storage.c: the per-work-item arrays ---------------------------------------- */

/* Gives instruction k a per-work-item array of stride-byte elements. */
void rg_add_slot(region_fn *rf, int k, LLVMTypeRef ty, unsigned long long stride);
/* A loop's phi shares the array of the value that comes round to it, where it can. */
cl_int rg_share_phi_slots(region_fn *rf);
/* The storage's alias scope (rf->frame). */
void rg_make_storage_scope(region_fn *rf);
/* Marks a copied access of the kernel's that cannot reach the storage. */
void rg_beside_storage(region_fn *rf, LLVMValueRef inst);
/* Instruction k's value: loaded from the current work-item's element; a
 * uniform one's from work-item 0's, once before the region's loops. */
LLVMValueRef rg_reload(region_fn *rf, LLVMBuilderRef b, int k);
LLVMValueRef rg_reload_uniform(region_fn *rf, int k);
/* Stores v, instruction k's value, in the current work-item's element. */
void rg_spill(region_fn *rf, LLVMBuilderRef b, int k, LLVMValueRef v);
/* In K.wg's entry: the arrays (stack or heap); *exit_free: the block that
 * returns after freeing heap storage, or NULL. */
void rg_allocate_storage(region_fn *rf, LLVMBuilderRef b, LLVMBasicBlockRef *exit_free);

/* ---- region_uniform.c: uniform values, regions run once ---------------------------------- */

cl_int rg_find_scalar_regions(region_fn *rf);

/* ---- region_copy.c: a region's copy of K.body's code ----------------------------------- */

/* Starts a fresh copy of region rl's code: a block per block of K.body, named PREFIX.bN. */
void rg_new_region_copy(region_fn *rf, const region_loop *rl, const char *prefix);
/* Copies instruction inst (of block b, region r) to the builder's position. */
LLVMValueRef rg_copy_inst(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld);
/* Copies the region's blocks; the copied phis' incoming values after. */
void rg_copy_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_fill_region_phis(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
/* Each block's place in region rl's order, -1 outside it; NULL when memory ran out. */
int *rg_region_positions(region_fn *rf, const region_loop *rl);

/* ---- region_loops.c: work-item loops ------------------------------------------------------ */

cl_int rg_build_region(region_fn *rf, int r, LLVMBuilderRef b);
cl_int rg_build_scalar_region(region_fn *rf, int r, LLVMBuilderRef b);
/* The z and y loops of a region's copy, entering `inner`; returns the row's first linear id. */
LLVMValueRef rg_open_z_y_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMBasicBlockRef inner);
/* The work-item's copies of private variables, then into the region's first block. */
void rg_enter_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
/* After a row: the y and z latches and the incoming values of their phis. */
void rg_close_y_z_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
/* A state's bit in a mask of states. */
LLVMValueRef rg_state_bit(region_fn *rf, LLVMBuilderRef b, LLVMValueRef state);
/* The lowest state in a mask of states (never_zero: the mask is not 0). */
LLVMValueRef rg_lowest_state(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, bool never_zero, const char *name);
/* !llvm.loop of an x loop that runs one vector of `lanes` work-items. */
LLVMValueRef rg_one_vector_loop_md(region_fn *rf, unsigned lanes);
/* Reports a mask of two or more states (work-items that disagreed about a barrier). */
void rg_report_if_diverged(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, const char *prefix);

/* ---- region_sub_groups.c: sub-group mode ------------------------------------------------- */

void rg_open_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_open_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_open_chained_loop(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_close_chained_loop(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_close_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_close_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_uniform_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
void rg_sub_group_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMValueRef next);
/* K.wg's entry in sub-group mode: the allocas and blocks of the phases. */
void rg_sub_group_allocas(region_fn *rf, LLVMBuilderRef b);
/* ... and, after the storage, the first phase and the blocks around the regions. */
void rg_start_sub_groups(region_fn *rf, LLVMBuilderRef b);

/* ---- region_active_sets.c: the non-uniform functions' active sets ------------------------ */

/* Before the cut: each hook's result becomes a NU_MASK_NAME call (rf->sg.nu_pairs)... */
cl_int rg_mark_active_masks(region_fn *rf, LLVMBuilderRef b);
/* ... and after K.wg, the hook's result again. */
void rg_restore_active_masks(region_fn *rf);
/* Does the copy of region r being built run only the work-items whose state is r? */
bool rg_guarded(const region_fn *rf, int r);
/* The sub-group's members (from linear id lo; n of them, NULL: all) whose state is r. */
LLVMValueRef rg_active_mask(region_fn *rf, LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef n, int r);
/* Branches to starts[] of the lowest non-uniform barrier in a mask of states,
 * when there is one; else leaves the builder in a new block to go on. */
void rg_active_sets_first(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, LLVMBasicBlockRef *starts,
                          const char *prefix);
/* The region a masked copy of rl->r may run in the same pass (its one next
 * state, a non-uniform barrier), else 0; with *always, whether no other
 * active set can ever go first. */
int rg_chain_target(const region_fn *rf, const region_loop *rl, bool *always);
/* In a masked copy's first block: on to the chained copy (rf->sg.chain_pre)
 * when no other active set goes first, else to `plain`. */
void rg_choose_chained_copy(region_fn *rf, LLVMBuilderRef b, const region_loop *rl, LLVMBasicBlockRef plain);

/* ---- region_versioning.c: specialised copies of a region's loops --------------------------- */

void rg_narrow_x_range(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
/* Copies of the region for rows of 8 and 16 work-items, where worth it. */
cl_int rg_add_vector_rows(region_fn *rf, LLVMBuilderRef b, region_loop *rl);

/* ---- tests --------------------------------------------------------------------------------- */

/* For tests only (tests/compiler/test_regions.c): when set, called with K.wg
 * just before it is verified, so a test can make it invalid IR. */
extern void (*mc_regions_test_hook)(LLVMValueRef wg);

#endif
