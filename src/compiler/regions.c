/*
 * Work-group functions for kernels with barriers: K.wg built from K.body by
 * cutting it into regions at the barriers.
 *
 * K.body (one work-item's code, everything inlined) is first split so each
 * __mosaic_barrier call ends its block ("barrier block" B_i, i = 1..n) and the
 * code after it starts a new one (E_i).  A region is what a work-item runs
 * between two barriers: region 0 starts at K.body's entry, region i at E_i,
 * and each holds every block reachable from its start without crossing a
 * barrier (a block may belong to several regions: it is then copied into
 * each).  K.wg is a state machine over the regions:
 *
 *   entry:   unpack the arguments; per-work-item storage; region 0
 *   region r: for z, y, x over ctx->local_size (x innermost, a loop marked
 *            parallel): run the region's copy of the code for work-item
 *            (x, y, z) until it reaches barrier i (next state i) or returns
 *            (next state 0)
 *   then:    every work-item must have reached the same barrier (OpenCL
 *            requires it); the next state picks the next region, or returns.
 *
 * Sub-group barriers (__mosaic_sub_group_barrier: sub-group functions, see
 * builtins/subgroups.cl) cut regions too, but only the work-items of one
 * sub-group (MOSAIC_SUB_GROUP_SIZE consecutive local linear ids) must reach
 * the same one.  A kernel with any gets two copies of each region
 * ("sub-group mode"):
 *
 *   uniform: (x size a multiple of S) region r for the whole group: z, y,
 *            the row's sub-groups, then S work-items (a loop of constant
 *            trip count, one vector iteration); when all reach the same
 *            barrier (of either kind), on with its uniform copy; else each
 *            work-item's state is kept and a phase of the fallback starts
 *   fallback phase: for each sub-group in order, run it from the phase's
 *            region (or from its work-items' kept state): region r for the
 *            sub-group's work-items (rows of x, the x loop parallel and
 *            vectorised S wide), and while they all reach the same
 *            sub-group barrier, on with its region; stop at a work-group
 *            barrier or the end
 *   then:    every sub-group must have stopped at the same one; the next
 *            phase starts at that barrier's region (uniform when it can),
 *            or K.wg returns.
 *
 * What must survive a barrier lives in per-work-item storage, one array per
 * value indexed by the local linear id (so the vectoriser sees consecutive
 * accesses):
 *  - an SSA value live at the start of some E_i (liveness on K.body's CFG) is
 *    computed again where the region's copy of its definition does not
 *    dominate the use when it is a short pure function of what a work-item
 *    keeps for the whole kernel (arguments, local id, entry values: indices,
 *    addresses, invariant loads of the context); otherwise it is stored
 *    after its definition and reloaded there;
 *  - a private variable (alloca) used both before and after some barrier gets
 *    one copy per work-item; other allocas stay single and shared by the
 *    work-items of a region, which run one after another.
 * Pure computations of K.body's entry block that do not depend on the local id
 * (argument casts, ctx fields, __local addresses) are done once in K.wg's
 * entry.  The storage is a stack allocation (a heap one when it would exceed
 * MC_STORAGE_ON_STACK bytes), so private memory stays on the worker's stack.
 *
 * Anything this does not handle (an alloca outside the entry block, a token
 * value, a region with no way out...) leaves K.wg undefined: the device runs
 * K.wi as fibers.  The steps below return CL_BUILD_PROGRAM_FAILURE for it
 * (give_up records why) and CL_OUT_OF_HOST_MEMORY when memory ran out;
 * mc_build_wg_regions turns the first into CL_SUCCESS without K.wg.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>

#include "compiler/compiler_internal.h"
#include "compiler/ptr_map.h"
#include "compiler/uniformity.h"
#include "compiler/cuts.h"

#define PHASE_DISPATCH 0xffffffffu /* sub-group mode's phase: each sub-group from its work-items' kept state */
#define MAX_COPIED_INSTRUCTIONS 200000

/* ---- the analysis and the builder's state ------------------------------------------ */
enum {
    K_NORMAL, /* copied into each region that holds its block */
    K_SKIP,   /* not copied: barriers, debug and lifetime intrinsics, unreachable code */
    K_HOIST,  /* computed once in K.wg's entry */
    K_SHARED, /* an alloca: one for the whole work-group */
    K_PERWI,  /* an alloca: one per work-item */
};

typedef struct rf_phi {
    int inst, block;
    LLVMValueRef clone;
} rf_phi;

typedef struct rf_exit {
    LLVMBasicBlockRef block;
    int state;
    LLVMValueRef value; /* the state when it is only known as the code runs (masked regions), else NULL */
} rf_exit;

typedef struct region_fn {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    mc_kernel_build *kb;
    mosaic_strbuf *log;
    const char *why; /* set when the transformation gives up */
    bool oom;        /* ... because memory ran out */
    LLVMValueRef body;
    unsigned nparams; /* K.body's: the kernel's, then ctx, lx, ly, lz */
    /* work-items a pass of a region's x loop: 1, or kb->row_lanes when body
     * is K.row (widen.c), whose lx is its first lane's and whose values are
     * vectors of a lane per work-item (stored at their first lane's place) */
    unsigned lanes;
    pmap aidx;        /* K.body's parameters */
    LLVMTypeRef i1, i8, i32, i64, ptr;

    /* blocks of K.body, in order; block 0 is the entry */
    int nb;
    LLVMBasicBlockRef *bbs;
    pmap bidx;
    int *npred, **pred, *nsucc, **succ;
    unsigned char *reach;  /* reachable from the entry */
    int *bar_of_block;     /* i when the block is B_i, else 0 */
    int nbar;              /* barriers 1..nbar */
    int *bar_block, *bar_entry;
    int nreg;              /* regions 0..nbar: region 0 starts at block 0, region i at bar_entry[i] */
    unsigned char **inreg; /* [region][block] */
    unsigned char **from_e, **to_b; /* [barrier]: blocks reachable from E_i / reaching B_i */

    /* instructions of K.body */
    int ni;
    LLVMValueRef *insts;
    int *iblock;
    pmap iidx;
    unsigned char *kind;
    unsigned char *demote; /* live across a barrier */
    int *slot;             /* per-work-item array of a demoted value or K_PERWI alloca, else -1 */
    /* values live across a barrier: kept in a slot (demote) or computed again (remat) */
    int nlive;
    int *live_index, *live_inst;
    unsigned char *remat;
    unsigned char *remat_state; /* 0 not yet known, 1 can be computed again, 2 cannot, 3 being decided */
    int *remat_cost;
    unsigned char **avoid; /* [live index * nreg + region]: blocks the region reaches without the definition */

    /* uniformity (uniformity.c) of K.body once cut */
    mc_uniformity *ua;
    unsigned char *uniform_def;   /* [inst]: uniform, defined under uniform control */
    unsigned char *all_slots;     /* [inst]: uniform, but some region reloads it per work-item */
    unsigned char *scalar_reg;    /* [region]: runs once for the group (scalar_region) */
    unsigned char **def_reach;    /* [live index * nreg + region]: blocks the region reaches from the definition */
    LLVMValueRef *hoisted;        /* [inst]: the current region's one load of a uniform value */
    LLVMBasicBlockRef cur_pre;    /* the current region's block before its loops */
    bool scalar;                  /* building a region that runs once */
    /* masked mode (some cut is divergent: work-items leave a loop in different iterations) */
    bool masked;
    unsigned char *bar_div;       /* [barrier]: 2 a divergent cut, 1 a uniform one, 0 a barrier */
    int *prio, nprio;             /* the cuts' states, the one to run first first */

    unsigned long long *soa;      /* [inst]: a K_PERWI array stored element-major (soa_element), its element's size */
    int vector_rows;              /* regions with copies for rows of row_widths[] work-items (build_vector_rows) */
    LLVMValueRef n64;             /* the group's size rounded up to 64 (K.wg's entry) */

    /* per-work-item storage: array s holds n64 elements of stride[s] bytes at offset n64 * off[s] */
    int nslots;
    int shared_phis;        /* phis in the array of the value that comes round their loop (share_phi_slots) */
    int *slot_inst;
    LLVMTypeRef *slot_type; /* NULL for an alloca's bytes */
    unsigned long long *slot_stride, *slot_off, slot_total;

    /* K.wg under construction */
    LLVMValueRef wg, ctx, *vals, *gmap, *slot_base, nxyz[3];
    LLVMValueRef *vmap;         /* the current region's copies */
    LLVMBasicBlockRef *bmap;    /* the current region's blocks */
    LLVMBasicBlockRef *pre;     /* [region]: where it starts */
    LLVMBasicBlockRef exit;
    LLVMValueRef lid[3], wi;
    rf_phi *phis;
    int nphis;
    rf_exit *exits;
    int nexits;
    int *order;                 /* room for nb block indices (build_region) */
    unsigned ag_kind;
    LLVMValueRef ag;
    /* alias scopes: Mosaic's per-work-item storage (storage_scope), which no
     * __global, __constant or __local access of the kernel's can reach */
    unsigned scope_kind, noalias_kind;
    LLVMValueRef storage_scope;
    LLVMValueRef report_fn, kernel_name;

    /* sub-group mode (some barrier is a sub-group barrier) */
    bool sg_mode;
    unsigned char *bar_sub;     /* [barrier]: a sub-group barrier */
    LLVMValueRef sg_var, phase_var, pmask_var, pnext_var; /* allocas: sub-group, phase's state, stops, last stop */
    LLVMValueRef sgxyz_var[3];  /* alloca: the local id of the sub-group's first work-item (no division) */
    LLVMValueRef nitems, nsg;   /* work-items and sub-groups in the group */
    LLVMBasicBlockRef sg_start, sg_end;
    LLVMValueRef sg_lo;         /* the current region's sub-group's first linear id */
    /* ... and its uniform copies: every sub-group of the group at the same state */
    bool uni;                   /* building a region's uniform copy */
    LLVMBasicBlockRef *upre;    /* [region]: where its uniform copy starts */
    LLVMValueRef uni_ok;        /* the group's rows are whole sub-groups (x size a multiple of S) */
    LLVMValueRef state_base;    /* per-work-item i32: the state a uniform copy left it in */
    LLVMBasicBlockRef fallback, sg_dispatch;
} region_fn;

/* The kernel has something this does not handle: the first reason is kept. */
static cl_int give_up(region_fn *rf, const char *why)
{
    if (!rf->why)
        rf->why = why;
    return CL_BUILD_PROGRAM_FAILURE;
}

static cl_int out_of_memory(region_fn *rf)
{
    rf->oom = true;
    give_up(rf, "out of memory");
    return CL_OUT_OF_HOST_MEMORY;
}

/* What the steps so far come to (after those that record a failure in rf
 * without returning it: copying values, allocating several arrays). */
static cl_int rf_status(const region_fn *rf)
{
    return !rf->why ? CL_SUCCESS : rf->oom ? CL_OUT_OF_HOST_MEMORY : CL_BUILD_PROGRAM_FAILURE;
}

static void *rf_calloc(region_fn *rf, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        out_of_memory(rf);
    return p;
}

static bool is_sub_group_barrier(LLVMValueRef inst)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && !strcmp(LLVMGetValueName(f), "__mosaic_sub_group_barrier");
}

/* __mosaic_get_sub_group_first(): a pure function of the local id, computed
 * again in each region (copy_inst) */
static bool is_sub_group_first(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && !strcmp(LLVMGetValueName(f), "__mosaic_get_sub_group_first");
}

static bool intrinsic_prefix(LLVMValueRef inst, const char *prefix)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && LLVMGetIntrinsicID(f) && !strncmp(LLVMGetValueName(f), prefix, strlen(prefix));
}

/* ---- step 1: every barrier ends its block ------------------------------------------- */

/* Is `after` (what follows a barrier) a branch to a block entered from the
 * barrier's block only, with no phis: split before (split_at_barriers runs
 * again after mc_cut_loops, cuts.c)? */
static bool ends_region_already(LLVMValueRef after)
{
    if (!after || !LLVMIsABranchInst(after) || LLVMIsConditional(after))
        return false;
    LLVMBasicBlockRef next = LLVMGetSuccessor(after, 0);
    LLVMValueRef first = LLVMGetFirstInstruction(next);
    if (first && LLVMIsAPHINode(first))
        return false;
    LLVMBasicBlockRef self = LLVMGetInstructionParent(after);
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(next)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) != self)
            return false;
    }
    return true;
}

static void split_at_barriers(region_fn *rf, LLVMBuilderRef b)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(rf->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
            if (!mc_ends_region(inst))
                continue;
            LLVMValueRef after = LLVMGetNextInstruction(inst);
            if (ends_region_already(after))
                break;
            LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(rf->c, rf->body, "after.barrier");
            LLVMMoveBasicBlockAfter(nb, bb);
            LLVMPositionBuilderAtEnd(b, nb);
            while (after) {
                LLVMValueRef next = LLVMGetNextInstruction(after);
                size_t len;
                const char *name = LLVMGetValueName2(after, &len);
                char *copy = len ? strndup(name, len) : NULL;
                LLVMInstructionRemoveFromParent(after);
                LLVMInsertIntoBuilderWithName(b, after, copy ? copy : "");
                free(copy);
                after = next;
            }
            LLVMValueRef term = LLVMGetBasicBlockTerminator(nb);
            unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
            for (unsigned s = 0; s < ns; s++) {
                LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
                int seen = 0;
                for (unsigned t = 0; t < s; t++)
                    seen |= LLVMGetSuccessor(term, t) == succ;
                if (!seen)
                    mc_retarget_phis(b, succ, bb, nb);
            }
            LLVMPositionBuilderAtEnd(b, bb);
            LLVMBuildBr(b, nb);
            break; /* the rest of the block is nb, the next one visited */
        }
}

/* ---- step 2: the CFG, regions and reachability ---------------------------------------- */

static int block_of(region_fn *rf, LLVMBasicBlockRef bb) { return pmap_get(&rf->bidx, bb); }

static cl_int number_blocks(region_fn *rf)
{
    rf->nb = (int)LLVMCountBasicBlocks(rf->body);
    rf->bbs = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->bbs);
    rf->npred = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->npred);
    rf->nsucc = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->nsucc);
    rf->pred = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->pred);
    rf->succ = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->succ);
    rf->reach = rf_calloc(rf, (size_t)rf->nb, 1);
    rf->bar_of_block = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->bar_of_block);
    if (rf->oom || !pmap_init(&rf->bidx, (size_t)rf->nb))
        return out_of_memory(rf);
    LLVMGetBasicBlocks(rf->body, rf->bbs);
    for (int i = 0; i < rf->nb; i++)
        pmap_put(&rf->bidx, rf->bbs[i], i);
    for (int i = 0; i < rf->nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->bbs[i]);
        if (!term)
            return give_up(rf, "a block without a terminator");
        LLVMOpcode op = LLVMGetInstructionOpcode(term);
        if (op != LLVMBr && op != LLVMSwitch && op != LLVMRet && op != LLVMUnreachable)
            return give_up(rf, "a terminator other than br, switch, ret, unreachable");
        unsigned n = LLVMGetNumSuccessors(term);
        rf->succ[i] = rf_calloc(rf, n, sizeof **rf->succ);
        if (rf->oom)
            return CL_OUT_OF_HOST_MEMORY;
        for (unsigned s = 0; s < n; s++) {
            int t = block_of(rf, LLVMGetSuccessor(term, s));
            rf->succ[i][rf->nsucc[i]++] = t;
            rf->npred[t]++;
        }
    }
    for (int i = 0; i < rf->nb; i++) {
        rf->pred[i] = rf_calloc(rf, (size_t)rf->npred[i], sizeof **rf->pred);
        rf->npred[i] = 0;
    }
    if (rf->oom)
        return CL_OUT_OF_HOST_MEMORY;
    for (int i = 0; i < rf->nb; i++)
        for (int s = 0; s < rf->nsucc[i]; s++) {
            int t = rf->succ[i][s];
            rf->pred[t][rf->npred[t]++] = i;
        }
    return CL_SUCCESS;
}

/* Marks in `set` the blocks reachable from `start` (forward) or reaching it
 * (backward); in a region walk, barrier blocks have no successors. */
static void walk(region_fn *rf, int start, unsigned char *set, bool backward, bool region_walk, int *stack)
{
    int sp = 0;
    if (set[start])
        return;
    set[start] = 1;
    stack[sp++] = start;
    while (sp) {
        int x = stack[--sp];
        if (!backward && region_walk && rf->bar_of_block[x])
            continue;
        int n = backward ? rf->npred[x] : rf->nsucc[x];
        int *next = backward ? rf->pred[x] : rf->succ[x];
        for (int k = 0; k < n; k++) {
            int y = next[k];
            if (!set[y] && rf->reach[y]) {
                set[y] = 1;
                stack[sp++] = y;
            }
        }
    }
}

static cl_int find_regions(region_fn *rf)
{
    int *stack = rf_calloc(rf, (size_t)rf->nb, sizeof *stack);
    if (!stack)
        return CL_OUT_OF_HOST_MEMORY;
    rf->reach[0] = 0;
    /* reachability from the entry (walk() only enters reachable blocks: seed it by hand) */
    {
        int sp = 0;
        rf->reach[0] = 1;
        stack[sp++] = 0;
        while (sp) {
            int x = stack[--sp];
            for (int k = 0; k < rf->nsucc[x]; k++)
                if (!rf->reach[rf->succ[x][k]]) {
                    rf->reach[rf->succ[x][k]] = 1;
                    stack[sp++] = rf->succ[x][k];
                }
        }
    }
    rf->nbar = 0;
    for (int i = 0; i < rf->nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->bbs[i]);
        LLVMValueRef before = LLVMGetPreviousInstruction(term);
        if (rf->reach[i] && before && mc_ends_region(before))
            rf->bar_of_block[i] = ++rf->nbar;
    }
    rf->nreg = rf->nbar + 1;
    rf->bar_sub = rf_calloc(rf, (size_t)rf->nreg, 1);
    rf->bar_div = rf_calloc(rf, (size_t)rf->nreg, 1);
    rf->bar_block = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->bar_block);
    rf->bar_entry = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->bar_entry);
    rf->inreg = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->inreg);
    rf->from_e = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->from_e);
    rf->to_b = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->to_b);
    if (rf->oom) {
        free(stack);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (int i = 0; i < rf->nb; i++) {
        int k = rf->bar_of_block[i];
        if (k) {
            rf->bar_block[k] = i;
            rf->bar_entry[k] = rf->succ[i][0];
            LLVMValueRef call = LLVMGetPreviousInstruction(LLVMGetBasicBlockTerminator(rf->bbs[i]));
            rf->bar_sub[k] = is_sub_group_barrier(call);
            rf->bar_div[k] = mc_is_divergent_cut(call) ? 2 : mc_is_cut(call) ? 1 : 0;
            rf->masked |= rf->bar_div[k] == 2;
            rf->sg_mode |= rf->bar_sub[k];
        }
    }
    for (int r = 0; r < rf->nreg && !rf->oom; r++) {
        rf->inreg[r] = rf_calloc(rf, (size_t)rf->nb, 1);
        if (r) {
            rf->from_e[r] = rf_calloc(rf, (size_t)rf->nb, 1);
            rf->to_b[r] = rf_calloc(rf, (size_t)rf->nb, 1);
        }
        if (rf->oom)
            break;
        walk(rf, r ? rf->bar_entry[r] : 0, rf->inreg[r], false, true, stack);
        if (r) {
            walk(rf, rf->bar_entry[r], rf->from_e[r], false, false, stack);
            walk(rf, rf->bar_block[r], rf->to_b[r], true, false, stack);
        }
    }
    free(stack);
    return rf_status(rf);
}

/* ---- step 3: what each instruction becomes ---------------------------------------------- */

static int param_index(region_fn *rf, LLVMValueRef v) { return LLVMIsAArgument(v) ? pmap_get(&rf->aidx, v) : -1; }

/* Can entry-block instruction inst be computed once for the work-group? */
static bool hoistable(region_fn *rf, LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    switch (op) {
    case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub:
    case LLVMMul: case LLVMFMul: case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem:
    case LLVMFRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMExtractElement: case LLVMInsertElement:
    case LLVMShuffleVector: case LLVMExtractValue: case LLVMInsertValue: case LLVMFNeg: case LLVMFreeze:
        break;
    case LLVMLoad:
        /* the work-group context and argument bytes: never written while the kernel runs */
        if (LLVMGetVolatile(inst) || LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic ||
            !LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(rf->c, "invariant.load", 14)))
            return false;
        break;
    default:
        return false;
    }
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i);
        if (LLVMIsAInstruction(o)) {
            int k = pmap_get(&rf->iidx, o);
            if (k < 0 || rf->kind[k] != K_HOIST)
                return false;
        } else if (LLVMIsAArgument(o)) {
            int p = param_index(rf, o);
            if (p < 0 || (unsigned)p > rf->nparams - 4) /* the local id is not uniform */
                return false;
        } else if (LLVMIsABlockAddress(o) || LLVMValueIsBasicBlock(o)) {
            return false;
        }
    }
    return true;
}

static cl_int number_instructions(region_fn *rf)
{
    int n = 0;
    for (int b = 0; b < rf->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->bbs[b]); i; i = LLVMGetNextInstruction(i))
            n++;
    rf->ni = n;
    rf->insts = rf_calloc(rf, (size_t)n, sizeof *rf->insts);
    rf->iblock = rf_calloc(rf, (size_t)n, sizeof *rf->iblock);
    rf->kind = rf_calloc(rf, (size_t)n, 1);
    rf->demote = rf_calloc(rf, (size_t)n, 1);
    rf->slot = rf_calloc(rf, (size_t)n, sizeof *rf->slot);
    if (rf->oom || !pmap_init(&rf->iidx, (size_t)n))
        return out_of_memory(rf);
    n = 0;
    for (int b = 0; b < rf->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->bbs[b]); i; i = LLVMGetNextInstruction(i)) {
            rf->insts[n] = i;
            rf->iblock[n] = b;
            rf->slot[n] = -1;
            pmap_put(&rf->iidx, i, n);
            n++;
        }
    for (int k = 0; k < rf->ni; k++) {
        LLVMValueRef i = rf->insts[k];
        int b = rf->iblock[k];
        if (!rf->reach[b] || mc_ends_region(i) || intrinsic_prefix(i, "llvm.dbg.") ||
            intrinsic_prefix(i, "llvm.lifetime."))
            rf->kind[k] = K_SKIP;
        else if (LLVMIsAAllocaInst(i)) {
            if (b != 0 || !LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
                return give_up(rf, "a variable-sized alloca or one outside the entry block");
            rf->kind[k] = K_SHARED; /* for now */
        } else if (b == 0 && hoistable(rf, i))
            rf->kind[k] = K_HOIST;
        else
            rf->kind[k] = K_NORMAL;
        if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTokenTypeKind)
            return give_up(rf, "a token value");
    }
    return CL_SUCCESS;
}

/* Must this alloca have one copy per work-item?  Yes when it is used (through
 * any pointer derived from it) both before some barrier and after it, or when
 * a pointer to it escapes where this cannot follow it. */
static bool needs_copies(region_fn *rf, LLVMValueRef a, unsigned char *used, unsigned char *seen, int *work)
{
    memset(used, 0, (size_t)rf->nb);
    memset(seen, 0, (size_t)rf->ni);
    int sp = 0;
    work[sp++] = pmap_get(&rf->iidx, a);
    seen[work[0]] = 1;
    while (sp) {
        LLVMValueRef p = rf->insts[work[--sp]];
        for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            int k = pmap_get(&rf->iidx, user);
            if (k < 0)
                return true;
            if (rf->kind[k] == K_SKIP)
                continue;
            used[rf->iblock[k]] = 1;
            LLVMOpcode op = LLVMGetInstructionOpcode(user);
            switch (op) {
            case LLVMGetElementPtr:
            case LLVMBitCast:
            case LLVMAddrSpaceCast:
            case LLVMPHI:
            case LLVMSelect:
            case LLVMFreeze:
                if (op == LLVMGetElementPtr && LLVMGetOperand(user, 0) != p)
                    return true;
                if (!seen[k]) {
                    seen[k] = 1;
                    work[sp++] = k;
                }
                break;
            case LLVMLoad:
                break;
            case LLVMStore:
                if (LLVMGetOperand(user, 0) == p)
                    return true; /* the address itself is stored */
                break;
            case LLVMAtomicRMW:
            case LLVMAtomicCmpXchg:
                if (LLVMGetOperand(user, 0) != p)
                    return true;
                break;
            case LLVMCall:
                if (!intrinsic_prefix(user, "llvm.memcpy") && !intrinsic_prefix(user, "llvm.memmove") &&
                    !intrinsic_prefix(user, "llvm.memset"))
                    return true;
                break;
            default:
                return true;
            }
        }
    }
    for (int i = 1; i < rf->nreg; i++) {
        bool before = false, after = false;
        for (int b = 0; b < rf->nb; b++)
            if (used[b]) {
                before |= rf->to_b[i][b];
                after |= rf->from_e[i][b];
            }
        if (before && after)
            return true;
    }
    return false;
}

/* Is `user` of address p a load or store of one whole element of type elem
 * through it (or something the regions skip)? */
static bool whole_element_access(region_fn *rf, LLVMValueRef user, LLVMValueRef p, LLVMTypeRef elem)
{
    int k = pmap_get(&rf->iidx, user);
    if (k >= 0 && rf->kind[k] == K_SKIP)
        return true;
    if (LLVMIsALoadInst(user))
        return LLVMTypeOf(user) == elem;
    return LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p &&
           LLVMTypeOf(LLVMGetOperand(user, 0)) == elem;
}

/* Can private array `a` (one copy per work-item) be stored element-major,
 * element i of every work-item's copy side by side, so work-items reading
 * the same element read consecutive addresses?  Yes when it is only read and
 * written whole elements at a time: directly, or through a GEP that indexes
 * it as an array.  Returns the element's size, or 0. */
static unsigned long long soa_element(region_fn *rf, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMGetAllocatedType(a);
    LLVMTypeRef elem = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetElementType(t) : t;
    LLVMTypeKind ek = LLVMGetTypeKind(elem);
    if ((ek != LLVMIntegerTypeKind && ek != LLVMFloatTypeKind && ek != LLVMDoubleTypeKind &&
         ek != LLVMHalfTypeKind && ek != LLVMPointerTypeKind) ||
        LLVMConstIntGetZExtValue(LLVMGetOperand(a, 0)) != 1)
        return 0;
    unsigned long long e = LLVMABISizeOfType(rf->td, elem);
    if (e != LLVMStoreSizeOfType(rf->td, elem))
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (whole_element_access(rf, user, a, elem))
            continue;
        if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != a || LLVMGetNumOperands(user) != 3 ||
            LLVMGetGEPSourceElementType(user) != t || LLVMGetTypeKind(t) != LLVMArrayTypeKind ||
            !LLVMIsAConstantInt(LLVMGetOperand(user, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(user, 1)))
            return 0;
        for (LLVMUseRef g = LLVMGetFirstUse(user); g; g = LLVMGetNextUse(g))
            if (!whole_element_access(rf, LLVMGetUser(g), user, elem))
                return 0;
    }
    return e;
}

/* A value of K.row with a lane per work-item (its element is the work-item's). */
static bool lane_vector(const region_fn *rf, LLVMTypeRef t)
{
    return rf->lanes > 1 && LLVMGetTypeKind(t) == LLVMVectorTypeKind;
}

/* Gives instruction k a per-work-item array of stride-byte elements. */
static void add_slot(region_fn *rf, int k, LLVMTypeRef ty, unsigned long long stride)
{
    int s = rf->nslots++;
    rf->slot_inst[s] = k;
    rf->slot_type[s] = ty;
    rf->slot_stride[s] = stride;
    rf->slot_off[s] = rf->slot_total;
    rf->slot_total += stride;
    rf->slot[k] = s;
}

/* Is instruction k's value needed at the start of some E_i?  Walks back from
 * its uses to its definition. */
static bool live_across(region_fn *rf, int k, unsigned char *live, int *work)
{
    LLVMValueRef v = rf->insts[k];
    int def = rf->iblock[k], sp = 0;
    memset(live, 0, (size_t)rf->nb);
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->iidx, user);
        if (ku < 0 || rf->kind[ku] == K_SKIP)
            continue;
        if (LLVMIsAPHINode(user)) {
            unsigned n = LLVMCountIncoming(user);
            for (unsigned j = 0; j < n; j++) {
                if (LLVMGetIncomingValue(user, j) != v)
                    continue;
                int p = block_of(rf, LLVMGetIncomingBlock(user, j));
                if (p != def && rf->reach[p] && !live[p]) {
                    live[p] = 1;
                    work[sp++] = p;
                }
            }
        } else {
            int b = rf->iblock[ku];
            if (b != def && !live[b]) {
                live[b] = 1;
                work[sp++] = b;
            }
        }
    }
    while (sp) {
        int x = work[--sp];
        for (int j = 0; j < rf->npred[x]; j++) {
            int y = rf->pred[x][j];
            if (y != def && rf->reach[y] && !live[y]) {
                live[y] = 1;
                work[sp++] = y;
            }
        }
    }
    for (int i = 1; i < rf->nreg; i++)
        if (live[rf->bar_entry[i]])
            return true;
    return false;
}

/* Can instruction k be computed again anywhere from what every work-item
 * keeps for the whole kernel (arguments, its local id, values of the entry,
 * private variables' addresses)?  Pure, non-trapping operations only; the
 * cost is the number of instructions to copy. */
#define REMAT_MAX_COST 12
static bool rematerializable(region_fn *rf, int k, int depth)
{
    if (rf->remat_state[k] == 1 || rf->remat_state[k] == 2)
        return rf->remat_state[k] == 1;
    if (rf->remat_state[k] == 3 || depth > 32)
        return false;
    LLVMValueRef inst = rf->insts[k];
    bool ok = rf->kind[k] == K_NORMAL;
    switch (ok ? LLVMGetInstructionOpcode(inst) : LLVMUnreachable) {
    case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub:
    case LLVMMul: case LLVMFMul: case LLVMFDiv: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd:
    case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMExtractElement:
    case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue: case LLVMInsertValue: case LLVMFNeg:
        break;
    case LLVMCall:
        ok = is_sub_group_first(inst);
        break;
    case LLVMLoad: /* a field of a work-group context (fused_groups.c: one per group of a column) */
        ok = !LLVMGetVolatile(inst) && LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic &&
             LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(rf->c, "invariant.load", 14));
        break;
    default:
        ok = false;
    }
    int cost = 1;
    rf->remat_state[k] = 3;
    int n = ok ? LLVMGetNumOperands(inst) : 0;
    for (int i = 0; i < n && ok; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i);
        if (LLVMIsAInstruction(o)) {
            int ko = pmap_get(&rf->iidx, o);
            if (ko < 0)
                ok = false;
            else if (rf->kind[ko] == K_NORMAL) {
                ok = rematerializable(rf, ko, depth + 1);
                cost += ok ? rf->remat_cost[ko] : 0;
            } else if (rf->kind[ko] == K_SKIP) {
                ok = false;
            }
        } else if (LLVMIsABlockAddress(o) || LLVMValueIsBasicBlock(o)) {
            ok = false;
        }
    }
    if (cost > REMAT_MAX_COST)
        ok = false;
    rf->remat_cost[k] = cost;
    rf->remat_state[k] = ok ? 1 : 2;
    return ok;
}

/* Which allocas need a copy per work-item, which values live across a
 * barrier and whether each is kept in an array or computed again. */
static cl_int classify(region_fn *rf)
{
    unsigned char *used = rf_calloc(rf, (size_t)rf->nb, 1), *seen = rf_calloc(rf, (size_t)rf->ni, 1);
    int *work = rf_calloc(rf, (size_t)(rf->ni > rf->nb ? rf->ni : rf->nb) + 1, sizeof *work);
    rf->slot_inst = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->slot_inst);
    rf->slot_type = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->slot_type);
    rf->slot_stride = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->slot_stride);
    rf->slot_off = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->slot_off);
    rf->live_index = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->live_index);
    rf->live_inst = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->live_inst);
    rf->remat = rf_calloc(rf, (size_t)rf->ni, 1);
    rf->remat_state = rf_calloc(rf, (size_t)rf->ni, 1);
    rf->remat_cost = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->remat_cost);
    rf->soa = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->soa);
    cl_int r = CL_OUT_OF_HOST_MEMORY;
    if (rf->oom)
        goto done;
    for (int k = 0; k < rf->ni; k++) {
        LLVMValueRef i = rf->insts[k];
        if (rf->kind[k] == K_SHARED && needs_copies(rf, i, used, seen, work)) {
            LLVMTypeRef t = LLVMGetAllocatedType(i);
            unsigned long long size = LLVMABISizeOfType(rf->td, t) * LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
            unsigned long long align = LLVMGetAlignment(i);
            if (align < 1)
                align = 1;
            if (align > 64) {
                r = give_up(rf, "a private variable aligned to more than 64 bytes");
                goto done;
            }
            rf->kind[k] = K_PERWI;
            add_slot(rf, k, NULL, (size + align - 1) / align * align);
            if ((rf->soa[k] = soa_element(rf, i)))
                rf->slot_stride[rf->slot[k]] = size; /* the same bytes in all, element-major */
        } else if (rf->kind[k] == K_NORMAL && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind &&
                   live_across(rf, k, used, work)) {
            rf->live_inst[rf->nlive] = k;
            rf->live_index[k] = rf->nlive++;
            if (rematerializable(rf, k, 0)) {
                rf->remat[k] = 1;
                continue;
            }
            LLVMTypeRef t = LLVMTypeOf(i);
            if (!LLVMTypeIsSized(t) || (!lane_vector(rf, t) && LLVMABIAlignmentOfType(rf->td, t) > 64)) {
                r = give_up(rf, "a value that cannot be kept in memory");
                goto done;
            }
            rf->demote[k] = 1;
            add_slot(rf, k, t, LLVMABISizeOfType(rf->td, lane_vector(rf, t) ? LLVMGetElementType(t) : t));
        }
    }
    rf->avoid = rf_calloc(rf, (size_t)(rf->nlive * rf->nreg), sizeof *rf->avoid);
    r = rf_status(rf);
done:
    free(used);
    free(seen);
    free(work);
    return r;
}

/* Adds to `set` the blocks a region reaches from the sp blocks on the stack
 * (marked already), not going past barrier blocks nor into block `avoid`. */
static void walk_in_region(region_fn *rf, unsigned char *set, int *stack, int sp, int avoid)
{
    while (sp) {
        int x = stack[--sp];
        if (rf->bar_of_block[x])
            continue;
        for (int j = 0; j < rf->nsucc[x]; j++) {
            int y = rf->succ[x][j];
            if (y != avoid && !set[y]) {
                set[y] = 1;
                stack[sp++] = y;
            }
        }
    }
}

/* Is block b reached in region r, from its start, without passing the block
 * that defines live value li? (Then a use there must reload or recompute it.) */
static bool reached_without_def(region_fn *rf, int li, int r, int b)
{
    unsigned char **set = &rf->avoid[li * rf->nreg + r];
    if (!*set) {
        int def = rf->iblock[rf->live_inst[li]];
        int start = r ? rf->bar_entry[r] : 0;
        *set = rf_calloc(rf, (size_t)rf->nb, 1);
        int *stack = rf_calloc(rf, (size_t)rf->nb, sizeof *stack);
        if (rf->oom) {
            free(stack);
            return true;
        }
        if (start != def) {
            (*set)[start] = 1;
            stack[0] = start;
            walk_in_region(rf, *set, stack, 1, def);
        }
        free(stack);
    }
    return (*set)[b];
}

/* Is block b reached in region r from the definition of live value li
 * (after it, without crossing a barrier)?  Where it is, and also reached
 * without the definition, a work-item's value there is the region's or the
 * one it had before, so it is read from that work-item's own storage. */
static bool def_reaches(region_fn *rf, int li, int r, int b)
{
    unsigned char **set = &rf->def_reach[li * rf->nreg + r];
    if (!*set) {
        int def = rf->iblock[rf->live_inst[li]];
        *set = rf_calloc(rf, (size_t)rf->nb, 1);
        int *stack = rf_calloc(rf, (size_t)rf->nb, sizeof *stack), sp = 0;
        if (rf->oom) {
            free(stack);
            return true;
        }
        if (rf->inreg[r][def] && !rf->bar_of_block[def])
            for (int j = 0; j < rf->nsucc[def]; j++)
                if (!(*set)[rf->succ[def][j]])
                    (*set)[rf->succ[def][j]] = 1, stack[sp++] = rf->succ[def][j];
        walk_in_region(rf, *set, stack, sp, -1);
        free(stack);
    }
    return (*set)[b];
}

/* Can instruction k of a region run once for the whole group? */
static bool runs_once(region_fn *rf, int k)
{
    LLVMValueRef i = rf->insts[k];
    if (rf->kind[k] != K_NORMAL)
        return true; /* skipped, or computed in K.wg's entry */
    if (!mc_uniform_control(rf->ua, rf->bbs[rf->iblock[k]]))
        return false;
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMRet:
    case LLVMUnreachable:
        return true;
    case LLVMBr:
        return !LLVMIsConditional(i) || mc_uniform_value(rf->ua, LLVMGetCondition(i));
    case LLVMSwitch:
        return mc_uniform_value(rf->ua, LLVMGetOperand(i, 0));
    default:
        return mc_group_once(rf->ua, i);
    }
}

/* Might some work-item of a region that loops over them read uniform value
 * k from its own storage (def_reaches)?  Then every work-item's copy must be
 * written, which a region run once does not do. */
static bool read_per_item(region_fn *rf, int k)
{
    int li = rf->live_index[k], def = rf->iblock[k];
    for (int r = 0; r < rf->nreg; r++) {
        if (rf->scalar_reg[r] || !rf->inreg[r][def])
            continue;
        for (int b = 0; b < rf->nb; b++)
            if (rf->inreg[r][b] && reached_without_def(rf, li, r, b) && def_reaches(rf, li, r, b))
                return true;
    }
    return false;
}

/* Masked mode: which region to run next when the work-items wait at several
 * cuts: a state that no other waiting one leads to before it is led back to
 * it (so the work-items still in a loop finish it before those that left it
 * go on), the deeper loop first where they lead to each other.  Any order is
 * correct (work-items are independent between barriers); this one lets them
 * meet again soonest.  No uniform reads or regions run once in this mode:
 * work-item 0 may be ahead of the others. */
static cl_int find_schedule(region_fn *rf)
{
    uint64_t *reach = rf_calloc(rf, (size_t)rf->nreg, sizeof *reach);
    int *key = rf_calloc(rf, (size_t)rf->nreg, sizeof *key);
    rf->prio = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->prio);
    if (rf->oom) {
        free(reach), free(key);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (int r = 0; r < rf->nreg; r++) /* the states region r leads to */
        for (int x = 0; x < rf->nb; x++)
            if (rf->inreg[r][x] && rf->bar_of_block[x])
                reach[r] |= 1ull << rf->bar_of_block[x];
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < rf->nreg; r++)
            for (int t = 1; t < rf->nreg; t++)
                if ((reach[r] >> t & 1) && (reach[r] | reach[t]) != reach[r])
                    reach[r] |= reach[t], changed = true;
    }
    for (int st = 1; st < rf->nreg; st++) {
        if (!rf->bar_div[st])
            continue;
        int before = 0; /* states that lead to st but not back */
        for (int t = 1; t < rf->nreg; t++)
            before += t != st && (reach[t] >> st & 1) && !(reach[st] >> t & 1);
        key[st] = before * 64 - mc_loop_depth(rf->ua, rf->bbs[rf->bar_block[st]]);
        int i = rf->nprio++;
        while (i > 0 && key[rf->prio[i - 1]] > key[st]) {
            rf->prio[i] = rf->prio[i - 1];
            i--;
        }
        rf->prio[i] = st;
    }
    free(reach), free(key);
    return rf_status(rf);
}

/* Which values are uniform (uniformity.c), and which regions run once for
 * the group: those whose every instruction can (the control of a uniform
 * loop, cuts.c).  Not in sub-group mode. */
static cl_int find_scalar_regions(region_fn *rf)
{
    rf->uniform_def = rf_calloc(rf, (size_t)rf->ni, 1);
    rf->all_slots = rf_calloc(rf, (size_t)rf->ni, 1);
    rf->scalar_reg = rf_calloc(rf, (size_t)rf->nreg, 1);
    rf->hoisted = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->hoisted);
    rf->def_reach = rf_calloc(rf, (size_t)(rf->nlive * rf->nreg), sizeof *rf->def_reach);
    if (rf->masked && !rf->sg_mode && rf->nreg <= 63)
        return find_schedule(rf);
    if (rf->masked)
        return give_up(rf, "internal error: divergent cuts in sub-group mode or beyond 63 regions");
    if (rf->oom || rf->sg_mode)
        return rf_status(rf);
    for (int k = 0; k < rf->ni; k++)
        rf->uniform_def[k] = rf->kind[k] == K_NORMAL && mc_uniform_value(rf->ua, rf->insts[k]) &&
                             mc_uniform_control(rf->ua, rf->bbs[rf->iblock[k]]);
    for (int r = 0; r < rf->nreg; r++) {
        bool once = r == 0 || rf->reach[rf->bar_block[r]];
        for (int k = 0; k < rf->ni && once; k++)
            if (rf->inreg[r][rf->iblock[k]])
                once = runs_once(rf, k);
        rf->scalar_reg[r] = once;
    }
    for (bool changed = true; changed && !rf->oom;) {
        changed = false;
        for (int k = 0; k < rf->ni; k++)
            if (rf->demote[k] && rf->uniform_def[k] && !rf->all_slots[k] && read_per_item(rf, k))
                rf->all_slots[k] = 1, changed = true;
        for (int r = 0; r < rf->nreg; r++)
            for (int k = 0; k < rf->ni && rf->scalar_reg[r]; k++)
                if (rf->all_slots[k] && rf->inreg[r][rf->iblock[k]])
                    rf->scalar_reg[r] = 0, changed = true;
    }
    return rf_status(rf);
}

/* ---- step 4: K.wg ----------------------------------------------------------------------- */

static void mark_parallel(region_fn *rf, LLVMValueRef inst)
{
    if (rf->ag)
        LLVMSetMetadata(inst, rf->ag_kind, rf->ag);
}

/* A node !{self, ops...} (an alias scope or its domain): the cycle makes it
 * one of its kind. */
static LLVMMetadataRef self_node(LLVMContextRef c, LLVMMetadataRef *ops, unsigned n)
{
    LLVMMetadataRef all[3], temp = LLVMTemporaryMDNode(c, NULL, 0);
    all[0] = temp;
    for (unsigned i = 0; i < n && i < 2; i++)
        all[i + 1] = ops[i];
    LLVMMetadataRef node = LLVMMDNodeInContext2(c, all, n + 1);
    LLVMMetadataReplaceAllUsesWith(temp, node);
    return node;
}

/* The storage's alias scope: with it LLVM knows that a spill to the storage
 * does not change a tile in __local memory, so a tiled product's loads of a
 * tile row stay in registers across the rows of the group (LICM, GVN). */
static void make_storage_scope(region_fn *rf)
{
    LLVMContextRef c = rf->c;
    LLVMMetadataRef name = LLVMMDStringInContext2(c, "mosaic.storage", 14);
    LLVMMetadataRef domain = self_node(c, &name, 1);
    LLVMMetadataRef ops[2] = {domain, name};
    LLVMMetadataRef scope = self_node(c, ops, 2);
    rf->storage_scope = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &scope, 1));
    rf->scope_kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    rf->noalias_kind = LLVMGetMDKindIDInContext(c, "noalias", 7);
}

/* A load or store of the per-work-item storage. */
static void in_storage(region_fn *rf, LLVMValueRef inst)
{
    LLVMSetMetadata(inst, rf->scope_kind, rf->storage_scope);
}

/* A copied load or store of the kernel's that cannot reach the storage: its
 * address is __global, __constant or __local (address spaces 1 to 3), and
 * the storage is private memory. */
static void beside_storage(region_fn *rf, LLVMValueRef inst)
{
    LLVMValueRef p = LLVMIsALoadInst(inst)    ? LLVMGetOperand(inst, 0)
                     : LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1)
                                              : NULL;
    unsigned as = p ? LLVMGetPointerAddressSpace(LLVMTypeOf(p)) : 0;
    if (as >= 1 && as <= 3)
        LLVMSetMetadata(inst, rf->noalias_kind, rf->storage_scope);
}

static LLVMValueRef slot_ptr(region_fn *rf, LLVMBuilderRef b, int s)
{
    LLVMTypeRef t = rf->slot_type[s];
    return LLVMBuildInBoundsGEP2(b, lane_vector(rf, t) ? LLVMGetElementType(t) : t, rf->slot_base[s], &rf->wi, 1, "");
}

/* A K.row vector is stored at its first lane's element: a multiple of the
 * lanes in a 64-byte aligned array. */
static unsigned slot_align(region_fn *rf, int s)
{
    LLVMTypeRef t = rf->slot_type[s];
    if (!lane_vector(rf, t))
        return LLVMABIAlignmentOfType(rf->td, t);
    unsigned long long a = rf->slot_stride[s] * rf->lanes;
    return a < 64 ? (unsigned)a : 64;
}

static LLVMValueRef reload(region_fn *rf, LLVMBuilderRef b, int k)
{
    int s = rf->slot[k];
    LLVMValueRef v = LLVMBuildLoad2(b, rf->slot_type[s], slot_ptr(rf, b, s), "");
    LLVMSetAlignment(v, slot_align(rf, s));
    mark_parallel(rf, v);
    in_storage(rf, v);
    return v;
}

/* A uniform value at the region's start: every work-item's copy is the
 * same, so work-item 0's is read once, before the loops over them. */
static LLVMValueRef reload_uniform(region_fn *rf, int k)
{
    if (!rf->hoisted[k]) {
        LLVMBuilderRef h = LLVMCreateBuilderInContext(rf->c);
        LLVMPositionBuilderBefore(h, LLVMGetBasicBlockTerminator(rf->cur_pre));
        int s = rf->slot[k];
        LLVMValueRef v = LLVMBuildLoad2(h, rf->slot_type[s], rf->slot_base[s], "uniform");
        LLVMSetAlignment(v, slot_align(rf, s));
        in_storage(rf, v);
        mc_copy_name(v, rf->insts[k]);
        rf->hoisted[k] = v;
        LLVMDisposeBuilder(h);
    }
    return rf->hoisted[k];
}

static void spill(region_fn *rf, LLVMBuilderRef b, int k, LLVMValueRef v)
{
    int s = rf->slot[k];
    /* a uniform value nothing reads per work-item: work-item 0's copy is
     * the one read (reload_uniform), and every work-item stores the same */
    bool first_only = rf->uniform_def[k] && !rf->all_slots[k];
    LLVMValueRef st = LLVMBuildStore(b, v, first_only ? rf->slot_base[s] : slot_ptr(rf, b, s));
    LLVMSetAlignment(st, slot_align(rf, s));
    mark_parallel(rf, st);
    in_storage(rf, st);
}

static LLVMValueRef recompute(region_fn *rf, int r, int k, int b, LLVMBuilderRef bld);
static LLVMValueRef soa_index(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld);
static LLVMValueRef copy_inst(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld);

/* The value operand v of K.body stands for in region r, used in block b (for a
 * phi: at the end of incoming block b), with b's copy the builder's block. */
static LLVMValueRef map_value(region_fn *rf, int r, LLVMValueRef v, int b, LLVMBuilderRef bld)
{
    if (LLVMIsAInstruction(v)) {
        int k = pmap_get(&rf->iidx, v);
        if (k < 0)
            return give_up(rf, "an instruction of another function"), v;
        switch (rf->kind[k]) {
        case K_HOIST:
        case K_SHARED:
            return rf->gmap[k];
        case K_PERWI:
            return rf->vmap[k];
        case K_SKIP:
            return give_up(rf, "a use of a barrier or debug intrinsic"), v;
        default:
            break;
        }
        if ((rf->demote[k] || rf->remat[k]) && reached_without_def(rf, rf->live_index[k], r, b)) {
            if (rf->demote[k] && rf->uniform_def[k] && !rf->scalar && !def_reaches(rf, rf->live_index[k], r, b))
                return reload_uniform(rf, k);
            return rf->demote[k] ? reload(rf, bld, k) : recompute(rf, r, k, b, bld);
        }
        if (!rf->vmap[k])
            return give_up(rf, "a value that does not dominate its use in a region"), v;
        return rf->vmap[k];
    }
    if (LLVMIsAArgument(v)) {
        int p = param_index(rf, v);
        if (p < 0)
            return give_up(rf, "an argument of another function"), v;
        if ((unsigned)p < rf->nparams - 4)
            return rf->vals[p];
        if ((unsigned)p == rf->nparams - 4)
            return rf->ctx;
        return rf->lid[p - (int)(rf->nparams - 3)];
    }
    if (LLVMValueIsBasicBlock(v)) {
        int t = block_of(rf, LLVMValueAsBasicBlock(v));
        if (t < 0 || !rf->inreg[r][t] || !rf->bmap[t])
            return give_up(rf, "a branch out of a region"), v;
        return LLVMBasicBlockAsValue(rf->bmap[t]);
    }
    if (LLVMIsABlockAddress(v))
        return give_up(rf, "a block address"), v;
    return v;
}

/* Computes rematerializable instruction k again at the builder's position,
 * its operands too (their definitions need not dominate it either). */
static LLVMValueRef recompute(region_fn *rf, int r, int k, int b, LLVMBuilderRef bld)
{
    LLVMValueRef inst = rf->insts[k];
    if (is_sub_group_first(inst))
        return copy_inst(rf, r, inst, b, bld);
    /* an element of an element-major private array: its place, not the
     * array type's (which would be the next work-item's element) */
    LLVMValueRef element = soa_index(rf, r, inst, b, bld);
    if (element)
        return element;
    LLVMValueRef clone = LLVMInstructionClone(inst);
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i), m;
        int ko = LLVMIsAInstruction(o) ? pmap_get(&rf->iidx, o) : -1;
        if (ko >= 0 && rf->kind[ko] == K_NORMAL)
            m = recompute(rf, r, ko, b, bld);
        else
            m = map_value(rf, r, o, b, bld);
        if (m != o)
            LLVMSetOperand(clone, (unsigned)i, m);
    }
    LLVMInsertIntoBuilderWithName(bld, clone, "");
    return clone;
}

/* Copies instruction `inst` of K.body to the builder's position. */
static LLVMValueRef copy_inst(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld)
{
    if (is_sub_group_first(inst) && rf->wi)
        /* the region's sub-group's first work-item: the loop's, or from the linear id */
        return rf->sg_mode ? rf->sg_lo
                           : LLVMBuildAnd(bld, rf->wi, LLVMConstInt(rf->i64, ~(unsigned long long)(MOSAIC_SUB_GROUP_SIZE - 1), 0),
                                          "sg.first");
    LLVMValueRef clone = LLVMInstructionClone(inst);
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i);
        LLVMValueRef m = map_value(rf, r, o, b, bld);
        if (m != o)
            LLVMSetOperand(clone, (unsigned)i, m);
    }
    size_t len;
    const char *name = LLVMGetValueName2(inst, &len);
    char *copy = len ? strndup(name, len) : NULL;
    LLVMInsertIntoBuilderWithName(bld, clone, copy ? copy : "");
    free(copy);
    return clone;
}

static LLVMValueRef const64(region_fn *rf, unsigned long long v) { return LLVMConstInt(rf->i64, v, 0); }

/* An element of a private array stored element-major (soa_element): element
 * i of this work-item's copy is i * n64 elements after element 0 (the
 * region's vmap of the array).  NULL for any other instruction. */
static LLVMValueRef soa_index(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld)
{
    if (!LLVMIsAGetElementPtrInst(inst))
        return NULL;
    int ka = pmap_get(&rf->iidx, LLVMGetOperand(inst, 0));
    if (ka < 0 || rf->kind[ka] != K_PERWI || !rf->soa[ka])
        return NULL;
    LLVMValueRef idx = map_value(rf, r, LLVMGetOperand(inst, 2), b, bld);
    idx = LLVMBuildSExtOrBitCast(bld, idx, rf->i64, "");
    LLVMValueRef row = LLVMBuildNUWMul(bld, rf->n64, const64(rf, rf->soa[ka]), "");
    LLVMValueRef off = LLVMBuildMul(bld, idx, row, "");
    return LLVMBuildInBoundsGEP2(bld, rf->i8, rf->vmap[ka], &off, 1, "");
}

/* Does pointer p (of K.body) address a per-work-item copy of a private variable? */
static bool perwi_address(region_fn *rf, LLVMValueRef p)
{
    for (int depth = 0; depth < 32; depth++) {
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p)) {
            p = LLVMGetOperand(p, 0);
            continue;
        }
        if (LLVMIsAAllocaInst(p)) {
            int k = pmap_get(&rf->iidx, p);
            return k >= 0 && rf->kind[k] == K_PERWI;
        }
        return false;
    }
    return false;
}

/* One region's loops over the work-group while build_region makes them. */
typedef struct region_loop {
    int r;                          /* the region */
    int *order, n;                  /* its blocks, reverse post-order (definitions before uses) */
    unsigned char *states;          /* [state]: some work-item may leave the region for it */
    int nstates, only;              /* how many such states; the last one found */
    bool multi;                     /* more than one: the work-items' choices are gathered in a mask */
    LLVMBasicBlockRef pre;          /* where the region starts (rf->pre[r]) */
    LLVMBasicBlockRef zb, yb, xb;   /* the loop headers, z outermost (sub-group mode: row, -, x) */
    LLVMBasicBlockRef latch, ylatch, zlatch, done; /* (sub-group mode: x latch, row latch, -, done) */
    LLVMBasicBlockRef sb, slatch;   /* uniform copy: the loop over a row's sub-groups (between y and x) */
    LLVMValueRef xs, i, ms;         /* uniform copy: the sub-group's first x, the sub-group local id, the mask */
    LLVMValueRef l, hi, xe, base;   /* sub-group mode: the row's first linear id, the sub-group's end, the row's end, its linear base */
    LLVMValueRef x0;                /* sub-group mode: the row's first x */
    LLVMValueRef x, y, z;           /* the local id */
    LLVMValueRef mx, my, mz;        /* the mask so far, per loop (multi) */
    LLVMValueRef next;              /* at the latch: the work-item's next state */
    LLVMValueRef mask;              /* at the latch: the mask with that state */
    LLVMValueRef xn, yn, zn;        /* the next local id */
    LLVMValueRef xend;              /* the x loop's end when narrower than the group (narrow_x_range), else NULL */
    LLVMValueRef narrowed_test;     /* the test that narrowed it (of K.body): true in the region's copy */
    LLVMBasicBlockRef y_entry;      /* where the y loop is entered from: zb, or the last test of build_vector_rows */
} region_loop;


/* Reverse post-order of region r's blocks (definitions before their uses). */
static cl_int order_region_blocks(region_fn *rf, region_loop *rl)
{
    int start = rl->r ? rf->bar_entry[rl->r] : 0, n = 0, sp = 0;
    int *order = rl->order;
    unsigned char *state = rf_calloc(rf, (size_t)rf->nb, 1);
    int *stack = rf_calloc(rf, (size_t)rf->nb, sizeof *stack), *pos = rf_calloc(rf, (size_t)rf->nb, sizeof *pos);
    if (rf->oom) {
        free(state), free(stack), free(pos);
        return CL_OUT_OF_HOST_MEMORY;
    }
    stack[sp++] = start;
    state[start] = 1;
    while (sp) {
        int x = stack[sp - 1];
        int ns = rf->bar_of_block[x] ? 0 : rf->nsucc[x];
        if (pos[x] < ns) {
            int y = rf->succ[x][pos[x]++];
            if (!state[y]) {
                state[y] = 1;
                stack[sp++] = y;
            }
        } else {
            order[n++] = x;
            sp--;
        }
    }
    for (int i = 0; i < n / 2; i++) {
        int t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
    }
    free(state), free(stack), free(pos);
    rl->n = n;
    return CL_SUCCESS;
}

/* The states a work-item may leave the region for: barrier i's region, or 0
 * when it returns. */
static cl_int find_next_states(region_fn *rf, region_loop *rl)
{
    rl->states = rf_calloc(rf, (size_t)rf->nreg, 1);
    if (!rl->states)
        return CL_OUT_OF_HOST_MEMORY;
    rl->only = -1;
    for (int i = 0; i < rl->n; i++) {
        int x = rl->order[i], st = -1;
        if (rf->bar_of_block[x])
            st = rf->bar_of_block[x];
        else if (LLVMGetInstructionOpcode(LLVMGetBasicBlockTerminator(rf->bbs[x])) == LLVMRet)
            st = 0;
        if (st >= 0 && !rl->states[st]) {
            rl->states[st] = 1;
            rl->nstates++;
            rl->only = st;
        }
    }
    if (!rl->nstates)
        return give_up(rf, "a region that never reaches a barrier or the end");
    rl->multi = rl->nstates > 1 || rf->masked; /* masked: the waiting work-items' states join the mask */
    return CL_SUCCESS;
}

/* A fresh copy of region rl's code: nothing of it mapped yet, and a new
 * block for each of its blocks of K.body, named PREFIX.bN. */
static void new_region_copy(region_fn *rf, const region_loop *rl, const char *prefix)
{
    char name[64];
    memset(rf->vmap, 0, (size_t)rf->ni * sizeof *rf->vmap);
    memset(rf->bmap, 0, (size_t)rf->nb * sizeof *rf->bmap);
    rf->nphis = rf->nexits = 0;
    for (int i = 0; i < rl->n; i++) {
        snprintf(name, sizeof name, "%s.b%d", prefix, rl->order[i]);
        rf->bmap[rl->order[i]] = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
    }
}

/* The region's blocks in K.wg: loop headers, a copy of each of its blocks of
 * K.body, the latches, and where it ends. */
static void add_region_blocks(region_fn *rf, region_loop *rl)
{
    char name[48];
    memset(rf->hoisted, 0, (size_t)rf->ni * sizeof *rf->hoisted);
    rl->pre = rf->uni ? rf->upre[rl->r] : rf->pre[rl->r];
    rf->cur_pre = rl->pre;
    const char *fmt = rf->uni ? "u%d.%s" : "r%d.%s";
#define BLOCK(var, what)                                                        \
    snprintf(name, sizeof name, fmt, rl->r, what);                              \
    rl->var = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name)
    BLOCK(zb, "z");
    BLOCK(yb, "y");
    if (rf->uni) {
        BLOCK(sb, "sg");
    }
    BLOCK(xb, "x");
    snprintf(name, sizeof name, rf->uni ? "u%d" : "r%d", rl->r);
    new_region_copy(rf, rl, name);
    BLOCK(latch, "latch");
    if (rf->uni) {
        BLOCK(slatch, "sg.latch");
    }
    BLOCK(ylatch, "y.latch");
    BLOCK(zlatch, "z.latch");
    BLOCK(done, "done");
#undef BLOCK
}

/* The z and y loops of a region's copy (from rl->pre), entering `inner` with
 * the linear id of the row's first work-item, which it returns. */
static LLVMValueRef open_z_y_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMBasicBlockRef inner)
{
    LLVMPositionBuilderAtEnd(b, rl->pre);
    LLVMBuildBr(b, rl->zb);
    LLVMPositionBuilderAtEnd(b, rl->zb);
    rl->z = LLVMBuildPhi(b, rf->i64, "lz");
    rl->mz = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    LLVMBuildBr(b, rl->yb);
    LLVMPositionBuilderAtEnd(b, rl->yb);
    rl->y = LLVMBuildPhi(b, rf->i64, "ly");
    rl->my = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    LLVMValueRef zy = LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, rl->z, rf->nxyz[1], ""), rl->y, ""),
                                      rf->nxyz[0], "");
    LLVMBuildBr(b, inner);
    return zy;
}

/* The loop headers z, y, x (with the mask of next states when there are
 * several), the work-item's linear id and its copies of private variables;
 * then into the region's first block. */
static void open_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
static void open_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl);
static void enter_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl);

static void open_work_item_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (rf->sg_mode) {
        if (rf->uni)
            open_uniform_loops(rf, b, rl);
        else
            open_sub_group_loops(rf, b, rl);
        return;
    }
    LLVMValueRef zy = open_z_y_loops(rf, b, rl, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->x = LLVMBuildPhi(b, rf->i64, "lx");
    rl->mx = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->lid[0] = rl->x, rf->lid[1] = rl->y, rf->lid[2] = rl->z;
    rf->wi = LLVMBuildNUWAdd(b, zy, rl->x, "wi");
    enter_region_code(rf, b, rl);
}

/* The work-item's copies of private variables, then into the region's first block. */
static void enter_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    for (int s = 0; s < rf->nslots; s++)
        if (!rf->slot_type[s]) {
            unsigned long long e = rf->soa[rf->slot_inst[s]];
            LLVMValueRef off = LLVMBuildNUWMul(b, rf->wi, const64(rf, e ? e : rf->slot_stride[s]), "");
            rf->vmap[rf->slot_inst[s]] = LLVMBuildInBoundsGEP2(b, rf->i8, rf->slot_base[s], &off, 1, "");
        }
    if (rf->masked && rl->r && !rf->sg_mode) {
        /* the work-items waiting at another cut go through with their state */
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->state_base, &rf->wi, 1, "");
        LLVMValueRef st = LLVMBuildLoad2(b, rf->i32, p, "state");
        mark_parallel(rf, st);
        char name[32];
        snprintf(name, sizeof name, "r%d.waits", rl->r);
        LLVMBasicBlockRef waits = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st, LLVMConstInt(rf->i32, (unsigned)rl->r, 0), ""),
                        rf->bmap[rl->order[0]], waits);
        LLVMPositionBuilderAtEnd(b, waits);
        LLVMBuildBr(b, rl->latch);
        rf->exits[rf->nexits++] = (rf_exit){waits, 0, st};
        return;
    }
    LLVMBuildBr(b, rf->bmap[rl->order[0]]);
}

/* Sub-group mode: the work-items of sub-group rf->sg_var, linear ids [lo, hi),
 * as rows of consecutive x (a row loop, then the x loop). */
static void open_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMPositionBuilderAtEnd(b, rl->pre);
    LLVMValueRef sg = LLVMBuildLoad2(b, rf->i64, rf->sg_var, "sg");
    LLVMValueRef first[3];
    for (int d = 0; d < 3; d++)
        first[d] = LLVMBuildLoad2(b, rf->i64, rf->sgxyz_var[d], "");
    LLVMValueRef lo = rf->sg_lo = LLVMBuildNUWMul(b, sg, const64(rf, MOSAIC_SUB_GROUP_SIZE), "sg.lo");
    LLVMValueRef end = LLVMBuildNUWAdd(b, lo, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    rl->hi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, end, rf->nitems, ""), end, rf->nitems, "sg.hi");
    LLVMBuildBr(b, rl->zb);
    LLVMPositionBuilderAtEnd(b, rl->zb);
    rl->l = LLVMBuildPhi(b, rf->i64, "row");
    rl->mz = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    /* the row's first (x, y, z): the sub-group's first work-item's, then the next rows' */
    LLVMValueRef zero = const64(rf, 0);
    LLVMValueRef x0 = rl->x0 = LLVMBuildPhi(b, rf->i64, "row.x");
    rl->y = LLVMBuildPhi(b, rf->i64, "ly");
    rl->z = LLVMBuildPhi(b, rf->i64, "lz");
    LLVMValueRef want = LLVMBuildNUWAdd(b, x0, LLVMBuildNUWSub(b, rl->hi, rl->l, ""), "");
    rl->xe = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, want, rf->nxyz[0], ""), want, rf->nxyz[0], "row.end");
    rl->base = LLVMBuildNUWSub(b, rl->l, x0, "");
    LLVMBuildBr(b, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->x = LLVMBuildPhi(b, rf->i64, "lx");
    rl->mx = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->lid[0] = rl->x, rf->lid[1] = rl->y, rf->lid[2] = rl->z;
    rf->wi = LLVMBuildNUWAdd(b, rl->base, rl->x, "wi");
    LLVMValueRef in2[2] = {x0, NULL};
    LLVMBasicBlockRef from2[2] = {rl->zb, NULL};
    LLVMAddIncoming(rl->x, in2, from2, 1);
    if (rl->multi)
        LLVMAddIncoming(rl->mx, &rl->mz, &rl->zb, 1);
    in2[0] = lo;
    from2[0] = rl->pre;
    LLVMAddIncoming(rl->l, in2, from2, 1);
    LLVMAddIncoming(rl->x0, &first[0], &rl->pre, 1);
    LLVMAddIncoming(rl->y, &first[1], &rl->pre, 1);
    LLVMAddIncoming(rl->z, &first[2], &rl->pre, 1);
    if (rl->multi)
        LLVMAddIncoming(rl->mz, &zero, &rl->pre, 1);
    LLVMPositionBuilderAtEnd(b, rl->yb); /* unused in this mode */
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    enter_region_code(rf, b, rl);
}

/* Uniform copy: z, y, then the row's sub-groups (x size a multiple of S, so
 * a sub-group is S consecutive x of one row), then its S work-items: a loop
 * with a constant trip count, which the vectoriser turns into one vector
 * iteration, with the sub-group's first linear id invariant in it. */
static void open_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zy = open_z_y_loops(rf, b, rl, rl->sb);
    LLVMPositionBuilderAtEnd(b, rl->sb);
    rl->xs = LLVMBuildPhi(b, rf->i64, "sg.x");
    rl->ms = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->sg_lo = LLVMBuildNUWAdd(b, zy, rl->xs, "sg.lo");
    /* every sub-group is whole here: tells the optimiser get_sub_group_size()
     * (the builtin's min(S, items - first)) is S */
    LLVMTypeRef assume_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), &rf->i1, 1, 0);
    LLVMValueRef assume = LLVMGetNamedFunction(rf->m, "llvm.assume");
    if (!assume)
        assume = LLVMAddFunction(rf->m, "llvm.assume", assume_ty);
    LLVMValueRef whole = LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, rf->nitems, rf->sg_lo, ""),
                                       const64(rf, MOSAIC_SUB_GROUP_SIZE), "sg.whole");
    LLVMBuildCall2(b, assume_ty, assume, &whole, 1, "");
    LLVMBuildBr(b, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->i = LLVMBuildPhi(b, rf->i64, "sg.lid");
    rl->mx = rl->multi ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rl->x = LLVMBuildNUWAdd(b, rl->xs, rl->i, "lx");
    rf->lid[0] = rl->x, rf->lid[1] = rl->y, rf->lid[2] = rl->z;
    rf->wi = LLVMBuildNUWAdd(b, rf->sg_lo, rl->i, "wi");
    enter_region_code(rf, b, rl);
}

/* Each block's place in region rl's order (reverse post-order), -1 for
 * blocks outside it; NULL when memory ran out. */
static int *region_positions(region_fn *rf, const region_loop *rl)
{
    int *pos = rf_calloc(rf, (size_t)rf->nb, sizeof *pos);
    if (!pos)
        return NULL;
    for (int i = 0; i < rf->nb; i++)
        pos[i] = -1;
    for (int i = 0; i < rl->n; i++)
        pos[rl->order[i]] = i;
    return pos;
}

/* A phi at the header of a loop inside the region (an edge comes back to
 * it from a block after it in the region's order, and no barrier is on the
 * way) changes every iteration.  Spilled where it is, each iteration's
 * value is stored; LLVM's LICM turns those stores into one after the loop,
 * which has lost the loop's parallel-access marks, and the vectoriser then
 * has to check the x loop's accesses at run time, which it cannot always
 * do (with build_vector_rows's copies it gave up on two of them).  Such a
 * phi is stored once instead, at the start of each block the loop exits
 * to, when only the loop leads there: the slot ends up with the last
 * iteration's value either way.  Fills targets[] with those blocks and
 * returns how many, or 0 when the phi must be stored where it is.  pos[]:
 * each block's place in the region's order (region_positions). */
static int loop_exit_targets(region_fn *rf, region_loop *rl, const int *pos, int h, int *targets)
{
    if (rf->bar_of_block[h])
        return 0;
    unsigned char *in = rf_calloc(rf, (size_t)rf->nb, 1);
    int *stack = rf_calloc(rf, (size_t)rf->nb, sizeof *stack), sp = 0, n = 0;
    bool ok = in && stack;
    if (ok) {
        in[h] = 1;
        for (int j = 0; j < rf->npred[h]; j++) {
            int p = rf->pred[h][j];
            if (pos[p] >= pos[h] && !in[p])
                in[p] = 1, stack[sp++] = p;
        }
        ok = sp > 0;
    }
    while (ok && sp) { /* the loop's blocks: back from its latches to the header */
        int x = stack[--sp];
        if (rf->bar_of_block[x] || x == rl->order[0])
            ok = false; /* a barrier on the way round, or entered from the region's start */
        for (int j = 0; ok && j < rf->npred[x]; j++) {
            int p = rf->pred[x][j];
            if (pos[p] >= 0 && !in[p])
                in[p] = 1, stack[sp++] = p;
        }
    }
    for (int x = 0; ok && x < rf->nb; x++) {
        if (!in[x])
            continue;
        for (int j = 0; ok && j < rf->nsucc[x]; j++) {
            int y = rf->succ[x][j];
            if (in[y] || pos[y] < 0)
                continue;
            bool seen = false;
            for (int t = 0; t < n; t++)
                seen |= targets[t] == y;
            if (seen)
                continue;
            for (int k = 0; ok && k < rf->npred[y]; k++) /* only the loop leads there */
                ok = pos[rf->pred[y][k]] < 0 || in[rf->pred[y][k]];
            targets[n++] = y;
        }
    }
    free(in), free(stack);
    return ok ? n : 0;
}

/* Copies the region's blocks of K.body, definitions first: a barrier or a
 * return goes to the latch instead, values live across a barrier are stored
 * in their arrays.  Phis get their incoming values later (fill_region_phis). */
static void copy_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    /* where each block is in the region's order; phis stored on the way out of their loops */
    int *pos = region_positions(rf, rl), *targets = rf_calloc(rf, (size_t)rf->nb, sizeof *targets);
    int *later_inst = rf_calloc(rf, (size_t)rf->ni, sizeof *later_inst);
    int *later_block = rf_calloc(rf, (size_t)rf->ni, sizeof *later_block), nlater = 0;
    if (!pos || !targets || !later_inst || !later_block) {
        free(pos), free(targets), free(later_inst), free(later_block);
        return;
    }
    for (int oi = 0; oi < rl->n && !rf->why; oi++) {
        int bi = rl->order[oi];
        LLVMPositionBuilderAtEnd(b, rf->bmap[bi]);
        int first_pending = rf->nphis;
        bool flushed = false;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(rf->bbs[bi]); inst && !rf->why;
             inst = LLVMGetNextInstruction(inst)) {
            int k = pmap_get(&rf->iidx, inst);
            if (rf->kind[k] != K_NORMAL)
                continue;
            if (LLVMIsAPHINode(inst)) {
                LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(inst), "");
                mc_copy_name(np, inst);
                rf->vmap[k] = np;
                rf->phis[rf->nphis++] = (rf_phi){k, bi, np};
                continue;
            }
            if (!flushed) { /* phis' values go to their slots after the last phi */
                for (int p = first_pending; p < rf->nphis; p++) {
                    int k = rf->phis[p].inst;
                    if (!rf->demote[k])
                        continue;
                    int nt = loop_exit_targets(rf, rl, pos, bi, targets);
                    if (nt > 0 && nlater + nt <= rf->ni) {
                        for (int t = 0; t < nt; t++)
                            later_inst[nlater] = k, later_block[nlater++] = targets[t];
                        continue;
                    }
                    spill(rf, b, k, rf->phis[p].clone);
                }
                flushed = true;
            }
            if (LLVMIsATerminatorInst(inst) &&
                (rf->bar_of_block[bi] || LLVMGetInstructionOpcode(inst) == LLVMRet)) {
                if (rf->scalar) { /* straight on to the next region */
                    int st = rf->bar_of_block[bi];
                    LLVMBuildBr(b, st ? rf->pre[st] : rf->exit);
                    continue;
                }
                LLVMBuildBr(b, rl->latch);
                rf->exits[rf->nexits++] = (rf_exit){rf->bmap[bi], rf->bar_of_block[bi], NULL};
                continue;
            }
            LLVMValueRef clone = soa_index(rf, rl->r, inst, bi, b);
            if (!clone)
                clone = copy_inst(rf, rl->r, inst, bi, b);
            rf->vmap[k] = clone;
            beside_storage(rf, clone);
            if ((LLVMIsALoadInst(inst) && perwi_address(rf, LLVMGetOperand(inst, 0))) ||
                (LLVMIsAStoreInst(inst) && perwi_address(rf, LLVMGetOperand(inst, 1))))
                if (!LLVMGetVolatile(inst) && LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic)
                    mark_parallel(rf, clone);
            if (rf->demote[k])
                spill(rf, b, k, clone);
        }
    }
    for (int l = 0; l < nlater && !rf->why; l++) { /* at the start of the blocks the loops exit to */
        LLVMValueRef at = LLVMGetFirstInstruction(rf->bmap[later_block[l]]);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        if (at)
            LLVMPositionBuilderBefore(b, at);
        else
            LLVMPositionBuilderAtEnd(b, rf->bmap[later_block[l]]);
        spill(rf, b, later_inst[l], rf->vmap[later_inst[l]]);
    }
    free(pos), free(targets), free(later_inst), free(later_block);
}

/* The copied phis' incoming values, at the end of each incoming block of the region. */
static void fill_region_phis(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    for (int p = 0; p < rf->nphis && !rf->why; p++) {
        LLVMValueRef orig = rf->insts[rf->phis[p].inst];
        unsigned cnt = LLVMCountIncoming(orig);
        for (unsigned j = 0; j < cnt; j++) {
            int from = block_of(rf, LLVMGetIncomingBlock(orig, j));
            if (!rf->inreg[rl->r][from])
                continue;
            LLVMBasicBlockRef fb = rf->bmap[from];
            LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(fb));
            LLVMValueRef v = map_value(rf, rl->r, LLVMGetIncomingValue(orig, j), from, b);
            LLVMAddIncoming(rf->phis[p].clone, &v, &fb, 1);
        }
    }
}

/* A state's bit in a mask of states: bit 0 returned, bits 1..63 barriers
 * (modulo 63 beyond that). */
static LLVMValueRef state_bit(region_fn *rf, LLVMBuilderRef b, LLVMValueRef state)
{
    LLVMValueRef pos = state;
    if (rf->nbar >= 64) {
        LLVMValueRef m1 = LLVMBuildURem(b, LLVMBuildSub(b, state, LLVMConstInt(rf->i32, 1, 0), ""),
                                        LLVMConstInt(rf->i32, 63, 0), "");
        pos = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, state, LLVMConstInt(rf->i32, 0, 0), ""), state,
                              LLVMBuildAdd(b, m1, LLVMConstInt(rf->i32, 1, 0), ""), "");
    }
    return LLVMBuildShl(b, const64(rf, 1), LLVMBuildZExt(b, pos, rf->i64, ""), "");
}

/* !llvm.loop of an x loop that runs one vector of `lanes` work-items (a
 * sub-group, or a row of build_vector_rows's copies): parallel, not
 * interleaved (an interleaved vector body would never run), the vector
 * width forced, and not unrolled before the vectoriser sees it.
 *  - Sub-groups: left to its cost model, LLVM picks 4 lanes where 64-bit
 *    values are live on a CPU that prefers 256-bit vectors (Sapphire
 *    Rapids), and two iterations with a mask computed per iteration keep
 *    lane-0-only code as masked scatters (masked_ops.c makes scalar
 *    accesses only of constant one-lane masks).
 *  - Rows: LLVM leaves a loop of fewer than 16 iterations scalar, and fully
 *    unrolled, 8 work-items became straight code and the vectoriser took
 *    the y loop instead. */
static LLVMValueRef one_vector_loop_md(region_fn *rf, unsigned lanes)
{
    LLVMContextRef c = rf->c;
    LLVMMetadataRef pa[2] = {LLVMMDStringInContext2(c, "llvm.loop.parallel_accesses", 27), rf->kb->access_group};
    LLVMMetadataRef ic[2] = {LLVMMDStringInContext2(c, "llvm.loop.interleave.count", 26),
                             LLVMValueAsMetadata(LLVMConstInt(rf->i32, 1, 0))};
    LLVMMetadataRef ud = LLVMMDStringInContext2(c, "llvm.loop.unroll.disable", 24);
    LLVMMetadataRef vw[2] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.width", 25),
                             LLVMValueAsMetadata(LLVMConstInt(rf->i32, lanes, 0))};
    LLVMMetadataRef ve[2] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.enable", 26),
                             LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0))};
    LLVMMetadataRef temp = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef ops[6] = {temp, LLVMMDNodeInContext2(c, pa, 2), LLVMMDNodeInContext2(c, ic, 2),
                              LLVMMDNodeInContext2(c, &ud, 1), LLVMMDNodeInContext2(c, vw, 2),
                              LLVMMDNodeInContext2(c, ve, 2)};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, ops, 6);
    LLVMMetadataReplaceAllUsesWith(temp, loop); /* self reference: the node becomes distinct */
    return LLVMMetadataAsValue(c, loop);
}

/* Sub-group mode's latches: the next x in the row, then the next row. */
static void close_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    rl->xn = LLVMBuildNUWAdd(b, rl->x, const64(rf, 1), "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->xn, rl->xe, ""), rl->xb, rl->ylatch);
    if (rf->kb->access_group) /* not interleaved: it runs at most one sub-group */
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        mc_parallel_loop_md(rf->c, rf->kb->access_group, 1));
    LLVMAddIncoming(rl->x, &rl->xn, &rl->latch, 1);
    if (rl->multi)
        LLVMAddIncoming(rl->mx, &rl->mask, &rl->latch, 1);
    LLVMPositionBuilderAtEnd(b, rl->ylatch);
    LLVMValueRef ln = LLVMBuildNUWAdd(b, rl->base, rl->xe, "");
    LLVMValueRef yn = LLVMBuildNUWAdd(b, rl->y, const64(rf, 1), "");
    LLVMValueRef wrap = LLVMBuildICmp(b, LLVMIntEQ, yn, rf->nxyz[1], "");
    LLVMValueRef zero = const64(rf, 0);
    LLVMValueRef y2 = LLVMBuildSelect(b, wrap, zero, yn, "");
    LLVMValueRef z2 = LLVMBuildSelect(b, wrap, LLVMBuildNUWAdd(b, rl->z, const64(rf, 1), ""), rl->z, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, ln, rl->hi, ""), rl->zb, rl->done);
    LLVMAddIncoming(rl->l, &ln, &rl->ylatch, 1);
    LLVMAddIncoming(rl->x0, &zero, &rl->ylatch, 1);
    LLVMAddIncoming(rl->y, &y2, &rl->ylatch, 1);
    LLVMAddIncoming(rl->z, &z2, &rl->ylatch, 1);
    if (rl->multi)
        LLVMAddIncoming(rl->mz, &rl->mask, &rl->ylatch, 1);
    LLVMPositionBuilderAtEnd(b, rl->zlatch); /* unused in this mode */
    LLVMBuildUnreachable(b);
}

/* After a row: the y and z latches, and the incoming values of the z and y
 * loops' phis (and of their state masks when there are several states);
 * the row's own loops are the caller's. */
static void close_y_z_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rl->ylatch);
    rl->yn = LLVMBuildNUWAdd(b, rl->y, one, "");
    LLVMValueRef ybr = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->yn, rf->nxyz[1], ""), rl->yb, rl->zlatch);
    if (rf->lanes > 1) /* rows of K.row: interleaved after optimisation (interleave_rows.c) */
        LLVMSetMetadata(ybr, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9), mc_row_loop_md(rf->c));
    LLVMPositionBuilderAtEnd(b, rl->zlatch);
    rl->zn = LLVMBuildNUWAdd(b, rl->z, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->zn, rf->nxyz[2], ""), rl->zb, rl->done);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = rl->zn, from2[0] = rl->pre, from2[1] = rl->zlatch;
    LLVMAddIncoming(rl->z, in2, from2, 2);
    in2[0] = zero, in2[1] = rl->yn, from2[0] = rl->y_entry ? rl->y_entry : rl->zb, from2[1] = rl->ylatch;
    LLVMAddIncoming(rl->y, in2, from2, 2);
    if (rl->multi) {
        in2[0] = zero, in2[1] = rl->mask, from2[0] = rl->pre, from2[1] = rl->zlatch;
        LLVMAddIncoming(rl->mz, in2, from2, 2);
        in2[0] = rl->mz, in2[1] = rl->mask, from2[0] = rl->zb, from2[1] = rl->ylatch;
        LLVMAddIncoming(rl->my, in2, from2, 2);
    }
}

/* Uniform copy's latches: the next work-item of the sub-group (S of them),
 * the next sub-group of the row, the next y and z.  With several next
 * states, each work-item's is kept (the fallback reads it). */
static void close_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    if (rl->multi) {
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->state_base, &rf->wi, 1, "");
        mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    }
    LLVMValueRef in = LLVMBuildNUWAdd(b, rl->i, one, "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, in, const64(rf, MOSAIC_SUB_GROUP_SIZE), ""),
                                      rl->xb, rl->slatch);
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        one_vector_loop_md(rf, MOSAIC_SUB_GROUP_SIZE));
    LLVMPositionBuilderAtEnd(b, rl->slatch);
    LLVMValueRef xsn = LLVMBuildNUWAdd(b, rl->xs, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xsn, rf->nxyz[0], ""), rl->sb, rl->ylatch);
    close_y_z_loops(rf, b, rl);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = xsn, from2[0] = rl->yb, from2[1] = rl->slatch;
    LLVMAddIncoming(rl->xs, in2, from2, 2);
    in2[0] = zero, in2[1] = in, from2[0] = rl->sb, from2[1] = rl->latch;
    LLVMAddIncoming(rl->i, in2, from2, 2);
    if (rl->multi) {
        in2[0] = rl->my, in2[1] = rl->mask, from2[0] = rl->yb, from2[1] = rl->slatch;
        LLVMAddIncoming(rl->ms, in2, from2, 2);
        in2[0] = rl->ms, in2[1] = rl->mask, from2[0] = rl->sb, from2[1] = rl->latch;
        LLVMAddIncoming(rl->mx, in2, from2, 2);
    }
}

/* The latch: the work-item's next state (OR-ed into the mask when there are
 * several), then the next x, y and z (the x loop marked parallel). */
static void close_work_item_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0);
    LLVMPositionBuilderAtEnd(b, rl->latch);
    rl->next = LLVMConstInt(rf->i32, (unsigned)rl->only, 0);
    rl->mask = NULL;
    if (rl->multi) {
        rl->next = LLVMBuildPhi(b, rf->i32, "next");
        for (int e = 0; e < rf->nexits; e++) {
            LLVMValueRef v = rf->exits[e].value ? rf->exits[e].value
                                                : LLVMConstInt(rf->i32, (unsigned)rf->exits[e].state, 0);
            LLVMAddIncoming(rl->next, &v, &rf->exits[e].block, 1);
        }
        rl->mask = LLVMBuildOr(b, rl->mx, state_bit(rf, b, rl->next), "");
    }
    if (rf->sg_mode) {
        if (rf->uni)
            close_uniform_loops(rf, b, rl);
        else
            close_sub_group_loops(rf, b, rl);
        return;
    }
    if (rf->masked) {
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->state_base, &rf->wi, 1, "");
        mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    }
    rl->xn = LLVMBuildNUWAdd(b, rl->x, const64(rf, rf->lanes), "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->xn, rl->xend ? rl->xend : rf->nxyz[0], ""),
                                      rl->xb, rl->ylatch);
    /* Not interleaved: a row of a group with barriers is usually 8 to 256
     * work-items, and the vectoriser's own choice (4 vectors of 16 floats a
     * pass) leaves a row under 64 to its narrower epilogue loop; one vector a
     * pass runs a 16-wide tile row in one (tiled SGEMM: 57 -> 47 ms, reduce
     * 12 -> 8 ms on one AMD core). */
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        rf->lanes > 1 ? mc_vectorised_loop_md(rf->c, rf->kb->access_group)
                                      : mc_parallel_loop_md(rf->c, rf->kb->access_group, 1));
    close_y_z_loops(rf, b, rl);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = rl->xn, from2[0] = rl->yb, from2[1] = rl->latch;
    LLVMAddIncoming(rl->x, in2, from2, 2);
    if (rl->multi) {
        in2[0] = rl->my, in2[1] = rl->mask, from2[0] = rl->yb, from2[1] = rl->latch;
        LLVMAddIncoming(rl->mx, in2, from2, 2);
    }
}

/* `mask` holds a bit per state the work-items reached: two or more bits set
 * means they disagreed about a barrier, which the device is told of (when it
 * has __mosaic_barrier_divergence) in block PREFIX.diverged; the code goes
 * on in PREFIX.next. */
static void report_if_diverged(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, const char *prefix)
{
    if (!rf->report_fn)
        return;
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMValueRef split =
        LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mask, LLVMBuildSub(b, mask, one, ""), ""), zero, "diverged");
    char name[48];
    snprintf(name, sizeof name, "%s.diverged", prefix);
    LLVMBasicBlockRef rep = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
    snprintf(name, sizeof name, "%s.next", prefix);
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
    LLVMBuildCondBr(b, split, rep, cont);
    LLVMPositionBuilderAtEnd(b, rep);
    LLVMValueRef args[2] = {rf->ctx, rf->kernel_name};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(rf->report_fn), rf->report_fn, args, 2, "");
    LLVMBuildBr(b, cont);
    LLVMPositionBuilderAtEnd(b, cont);
}

/* After the loops: the next region (or K.wg's exit).  With several possible
 * states, two bits in the mask mean the work-items disagreed about the
 * barrier: undefined in OpenCL; reported, and the group ends if any
 * work-item returned. */
static void sub_group_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMValueRef next);
static void uniform_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl);

/* Masked mode, after a region: the work-items waiting at divergent cuts go
 * first, in the schedule's order (find_schedule); then, as without cuts, all
 * must be at the same barrier or cut (else the divergence is reported, and
 * the group ends if any returned), or all returned. */
static void masked_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    for (int i = 0; i < rf->nprio; i++) {
        int st = rf->prio[i];
        char name[48];
        snprintf(name, sizeof name, "r%d.not%d", rl->r, st);
        LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
        LLVMValueRef waiting = LLVMBuildAnd(b, rl->mask, const64(rf, 1ull << st), "");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, waiting, zero, ""), rf->pre[st], no);
        LLVMPositionBuilderAtEnd(b, no);
    }
    char prefix[16];
    snprintf(prefix, sizeof prefix, "r%d", rl->r);
    report_if_diverged(rf, b, rl->mask, prefix);
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, one, ""), zero, "");
    /* the lowest state waited at: the mask's lowest bit */
    LLVMTypeRef cttz_args[2] = {rf->i64, rf->i1};
    LLVMTypeRef cttz_ty = LLVMFunctionType(rf->i64, cttz_args, 2, 0);
    LLVMValueRef cttz = LLVMGetNamedFunction(rf->m, "llvm.cttz.i64");
    if (!cttz)
        cttz = LLVMAddFunction(rf->m, "llvm.cttz.i64", cttz_ty);
    LLVMValueRef args[2] = {rl->mask, LLVMConstInt(rf->i1, 0, 0)};
    LLVMValueRef lowest = LLVMBuildTrunc(b, LLVMBuildCall2(b, cttz_ty, cttz, args, 2, ""), rf->i32, "");
    LLVMValueRef next = LLVMBuildSelect(b, ended, LLVMConstInt(rf->i32, 0, 0), lowest, "");
    LLVMValueRef sw = LLVMBuildSwitch(b, next, rf->exit, (unsigned)rf->nreg);
    for (int st = 1; st < rf->nreg; st++)
        if (rf->reach[rf->bar_block[st]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)st, 0), rf->pre[st]);
}

static void branch_to_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rl->done);
    if (rf->uni) {
        uniform_next_region(rf, b, rl);
        return;
    }
    if (!rl->multi) {
        if (rf->sg_mode)
            sub_group_next_region(rf, b, rl, LLVMConstInt(rf->i32, (unsigned)rl->only, 0));
        else
            LLVMBuildBr(b, rl->only ? rf->pre[rl->only] : rf->exit);
        return;
    }
    if (rf->masked) {
        masked_next_region(rf, b, rl);
        return;
    }
    char prefix[16];
    snprintf(prefix, sizeof prefix, "r%d", rl->r);
    report_if_diverged(rf, b, rl->mask, prefix);
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, one, ""), zero, "");
    LLVMValueRef next = LLVMBuildSelect(b, ended, LLVMConstInt(rf->i32, 0, 0), rl->next, "");
    if (rf->sg_mode) {
        sub_group_next_region(rf, b, rl, next);
        return;
    }
    LLVMValueRef sw = LLVMBuildSwitch(b, next, rf->exit, (unsigned)rl->nstates);
    for (int s = 1; s < rf->nreg; s++)
        if (rl->states[s])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->pre[s]);
}

/* Uniform copy, after the group ran it: when every work-item reached the
 * same barrier (of either kind), on to its region's uniform copy, as without
 * sub-groups; else the fallback runs each sub-group from where its
 * work-items stopped (their states were kept), one at a time. */
static void uniform_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (!rl->multi) {
        LLVMBuildBr(b, rl->only ? rf->upre[rl->only] : rf->exit);
        return;
    }
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMValueRef split = LLVMBuildICmp(
        b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, LLVMBuildSub(b, rl->mask, one, ""), ""), zero, "split");
    char name[48];
    snprintf(name, sizeof name, "u%d.next", rl->r);
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
    LLVMBuildCondBr(b, split, rf->fallback, cont);
    LLVMPositionBuilderAtEnd(b, cont);
    LLVMValueRef sw = LLVMBuildSwitch(b, rl->next, rf->exit, (unsigned)rl->nstates);
    for (int s = 1; s < rf->nreg; s++)
        if (rl->states[s])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->upre[s]);
}

/* Sub-group mode, after a sub-group ran a region: on to the region of the
 * sub-group barrier it reached, else it stops for this phase (its state's bit
 * in the phase's mask) and the next sub-group starts (sg_end). */
/* Goes on with the region of sub-group barrier `next` where that barrier can
 * be the state (one of rl's states; without rl, any reachable one); else
 * `stop`: the sub-group stops for this phase, its state joins the phase's
 * mask, and the next sub-group starts (sg_end). */
static void continue_or_stop(region_fn *rf, LLVMBuilderRef b, const region_loop *rl, LLVMValueRef next,
                             LLVMBasicBlockRef stop)
{
    LLVMValueRef sw = LLVMBuildSwitch(b, next, stop, (unsigned)rf->nreg);
    for (int s = 1; s < rf->nreg; s++)
        if (rf->bar_sub[s] && (rl ? rl->states[s] != 0 : rf->reach[rf->bar_block[s]] != 0))
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->pre[s]);
    LLVMPositionBuilderAtEnd(b, stop);
    LLVMValueRef mask = LLVMBuildLoad2(b, rf->i64, rf->pmask_var, "");
    LLVMBuildStore(b, LLVMBuildOr(b, mask, state_bit(rf, b, next), ""), rf->pmask_var);
    LLVMBuildStore(b, next, rf->pnext_var);
    LLVMBuildBr(b, rf->sg_end);
}

static void sub_group_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMValueRef next)
{
    char name[48];
    snprintf(name, sizeof name, "r%d.stop", rl->r);
    continue_or_stop(rf, b, rl, next, LLVMAppendBasicBlockInContext(rf->c, rf->wg, name));
}

/* Sub-group mode, after a uniform copy whose work-items stopped at different
 * places: the fallback runs the phase one sub-group at a time (sg_start with
 * phase PHASE_DISPATCH), each from the state its work-items were left in:
 * they must agree (else the divergence is reported and any that returned
 * ends the sub-group); a sub-group barrier's region goes on, anything else
 * stops the sub-group for this phase. */
static void build_fallback(region_fn *rf, LLVMBuilderRef b)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rf->fallback);
    LLVMBuildStore(b, LLVMConstInt(rf->i32, PHASE_DISPATCH, 0), rf->phase_var);
    LLVMBuildStore(b, zero, rf->sg_var);
    LLVMBuildStore(b, zero, rf->pmask_var);
    for (int d = 0; d < 3; d++)
        LLVMBuildStore(b, zero, rf->sgxyz_var[d]);
    LLVMBuildBr(b, rf->sg_start);

    LLVMPositionBuilderAtEnd(b, rf->sg_dispatch);
    LLVMValueRef lo = LLVMBuildNUWMul(b, LLVMBuildLoad2(b, rf->i64, rf->sg_var, ""),
                                      const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMValueRef end = LLVMBuildNUWAdd(b, lo, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMValueRef hi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, end, rf->nitems, ""), end, rf->nitems, "");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.dispatch.loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.dispatch.done");
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.dispatch.stop");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, rf->i64, ""), m = LLVMBuildPhi(b, rf->i64, "");
    LLVMValueRef st = LLVMBuildLoad2(b, rf->i32, LLVMBuildInBoundsGEP2(b, rf->i32, rf->state_base, &i, 1, ""), "");
    LLVMValueRef m2 = LLVMBuildOr(b, m, state_bit(rf, b, st), "");
    LLVMValueRef i2 = LLVMBuildNUWAdd(b, i, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i2, hi, ""), loop, done);
    LLVMBasicBlockRef from[2] = {rf->sg_dispatch, loop};
    LLVMValueRef iv[2] = {lo, i2}, mv[2] = {zero, m2};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(m, mv, from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    report_if_diverged(rf, b, m2, "sg.dispatch");
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, m2, one, ""), zero, "");
    LLVMValueRef next = LLVMBuildSelect(b, ended, LLVMConstInt(rf->i32, 0, 0), st, "");
    continue_or_stop(rf, b, NULL, next, stop);
}

/* Sub-group mode: the blocks around the regions.  sg_start enters the
 * phase's region for the current sub-group; sg_end moves to the next
 * sub-group, or, after the last, checks that all stopped at the same
 * work-group barrier (else reports the divergence; any that returned ends the
 * group) and starts the next phase there. */
static void build_sub_group_phases(region_fn *rf, LLVMBuilderRef b)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rf->sg_start);
    LLVMValueRef phase = LLVMBuildLoad2(b, rf->i32, rf->phase_var, "phase");
    LLVMValueRef sw = LLVMBuildSwitch(b, phase, rf->pre[0], (unsigned)rf->nreg);
    for (int s = 1; s < rf->nreg; s++)
        if (!rf->bar_sub[s] && rf->reach[rf->bar_block[s]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->pre[s]);
    LLVMAddCase(sw, LLVMConstInt(rf->i32, PHASE_DISPATCH, 0), rf->sg_dispatch);
    build_fallback(rf, b);

    LLVMPositionBuilderAtEnd(b, rf->sg_end);
    LLVMValueRef sg = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sg_var, ""), one, "sg.next");
    LLVMBuildStore(b, sg, rf->sg_var);
    LLVMBasicBlockRef phase_end = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "phase.end");
    LLVMBasicBlockRef advance = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.advance");
    LLVMBasicBlockRef wrap = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.wrap");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, sg, rf->nsg, ""), advance, phase_end);
    /* the next sub-group's first work-item: x + S, carried into y and z (a loop
     * only when a row is shorter than a sub-group) */
    LLVMPositionBuilderAtEnd(b, advance);
    LLVMValueRef x = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sgxyz_var[0], ""),
                                     const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMBuildStore(b, x, rf->sgxyz_var[0]);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, x, rf->nxyz[0], ""), wrap, rf->sg_start);
    LLVMPositionBuilderAtEnd(b, wrap);
    LLVMValueRef wx = LLVMBuildLoad2(b, rf->i64, rf->sgxyz_var[0], "");
    LLVMValueRef wy = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sgxyz_var[1], ""), one, "");
    LLVMValueRef wz = LLVMBuildLoad2(b, rf->i64, rf->sgxyz_var[2], "");
    LLVMValueRef yw = LLVMBuildICmp(b, LLVMIntEQ, wy, rf->nxyz[1], "");
    wx = LLVMBuildNUWSub(b, wx, rf->nxyz[0], "");
    LLVMBuildStore(b, wx, rf->sgxyz_var[0]);
    LLVMBuildStore(b, LLVMBuildSelect(b, yw, zero, wy, ""), rf->sgxyz_var[1]);
    LLVMBuildStore(b, LLVMBuildSelect(b, yw, LLVMBuildNUWAdd(b, wz, one, ""), wz, ""), rf->sgxyz_var[2]);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, wx, rf->nxyz[0], ""), wrap, rf->sg_start);
    LLVMPositionBuilderAtEnd(b, phase_end);
    LLVMValueRef mask = LLVMBuildLoad2(b, rf->i64, rf->pmask_var, "phase.mask");
    report_if_diverged(rf, b, mask, "phase");
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mask, one, ""), zero, "");
    LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "phase.again");
    LLVMBuildCondBr(b, ended, rf->exit, again);
    LLVMPositionBuilderAtEnd(b, again);
    LLVMValueRef pnext = LLVMBuildLoad2(b, rf->i32, rf->pnext_var, "");
    LLVMBuildStore(b, pnext, rf->phase_var);
    LLVMBuildStore(b, zero, rf->sg_var);
    LLVMBuildStore(b, zero, rf->pmask_var);
    for (int d = 0; d < 3; d++)
        LLVMBuildStore(b, zero, rf->sgxyz_var[d]);
    /* the next phase: uniform again when it can be */
    LLVMBasicBlockRef uni = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "phase.uniform");
    LLVMBuildCondBr(b, rf->uni_ok, uni, rf->sg_start);
    LLVMPositionBuilderAtEnd(b, uni);
    sw = LLVMBuildSwitch(b, pnext, rf->upre[0], (unsigned)rf->nreg);
    for (int s = 1; s < rf->nreg; s++)
        if (!rf->bar_sub[s] && rf->reach[rf->bar_block[s]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->upre[s]);
}

/* Region rl->r's blocks in order, and the states it may leave for. */
static cl_int plan_region(region_fn *rf, region_loop *rl)
{
    cl_int err = order_region_blocks(rf, rl);
    return err == CL_SUCCESS ? find_next_states(rf, rl) : err;
}

/* A region that runs once for the group (find_scalar_regions): its code,
 * as work-item 0's, straight from its start to the next region. */
static cl_int build_scalar_region(region_fn *rf, int r, LLVMBuilderRef b)
{
    region_loop rl = {.r = r, .order = rf->order};
    cl_int err = plan_region(rf, &rl);
    if (err == CL_SUCCESS) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, "s%d", r);
        new_region_copy(rf, &rl, prefix);
        rl.pre = rf->cur_pre = rf->pre[r];
        rf->scalar = true;
        rf->wi = rf->lid[0] = rf->lid[1] = rf->lid[2] = const64(rf, 0);
        LLVMPositionBuilderAtEnd(b, rl.pre);
        LLVMBuildBr(b, rf->bmap[rl.order[0]]);
        copy_region_code(rf, b, &rl);
        fill_region_phis(rf, b, &rl);
        rf->scalar = false;
        err = rf_status(rf);
    }
    free(rl.states);
    return err;
}

/* Is block x of K.body nothing but what a work-item leaving the region does:
 * its barrier (or return), no other code? */
static bool only_leaves(region_fn *rf, int x)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(rf->bbs[x]); i; i = LLVMGetNextInstruction(i)) {
        int k = pmap_get(&rf->iidx, i);
        if (rf->kind[k] == K_SKIP)
            continue;
        if (!LLVMIsATerminatorInst(i))
            return false;
        return rf->bar_of_block[x] || LLVMGetInstructionOpcode(i) == LLVMRet;
    }
    return false;
}

/* `v` of K.body as a value known before the region's loops (in rl->pre), or NULL. */
static LLVMValueRef value_before_loops(region_fn *rf, int r, LLVMValueRef v, int b)
{
    if (LLVMIsAConstantInt(v))
        return v;
    int p = param_index(rf, v);
    if (p >= 0)
        return (unsigned)p < rf->nparams - 4 ? rf->vals[p] : NULL;
    int k = LLVMIsAInstruction(v) ? pmap_get(&rf->iidx, v) : -1;
    if (k < 0)
        return NULL;
    if (rf->kind[k] == K_HOIST)
        return rf->gmap[k];
    if (rf->demote[k] && rf->uniform_def[k] && reached_without_def(rf, rf->live_index[k], r, b) &&
        !def_reaches(rf, rf->live_index[k], r, b))
        return reload_uniform(rf, k);
    return NULL;
}

/* A region whose code starts with "if (get_local_id(0) < u)", u uniform and
 * known before the loops, where the other work-items only leave the region
 * (a tree reduction's "if (l < s)"; "== 0" is "< 1"): its x loops stop at
 * min(size, u), and
 * the region is skipped when that is 0.  Single-state regions only (the
 * skipped work-items' state is the one the others reach), not in masked or
 * sub-group mode (every work-item's state is kept there). */
static void narrow_x_range(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (rl->multi || rf->masked || rf->sg_mode || rf->lanes > 1)
        return;
    int x = rl->order[0];
    for (int hops = 0; hops < 4; hops++) { /* through blocks of nothing but a branch */
        LLVMValueRef first = NULL;
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->bbs[x]); i && !first; i = LLVMGetNextInstruction(i))
            if (rf->kind[pmap_get(&rf->iidx, i)] != K_SKIP)
                first = i;
        if (!first || !LLVMIsABranchInst(first) || LLVMIsConditional(first) || rf->bar_of_block[x] ||
            rf->nsucc[x] != 1)
            break;
        x = rf->succ[x][0];
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->bbs[x]);
    if (!rf->inreg[rl->r][x] || rf->bar_of_block[x] || !LLVMIsABranchInst(term) || !LLVMIsConditional(term))
        return;
    LLVMValueRef cond = LLVMGetCondition(term);
    if (!LLVMIsAICmpInst(cond) || LLVMGetInstructionParent(cond) != rf->bbs[x])
        return;
    for (LLVMValueRef i = LLVMGetFirstInstruction(rf->bbs[x]); i != term; i = LLVMGetNextInstruction(i))
        if (i != cond && rf->kind[pmap_get(&rf->iidx, i)] != K_SKIP)
            return; /* the test must be all the block does: the skipped work-items run none of it */
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
    LLVMValueRef a = LLVMGetOperand(cond, 0), u = LLVMGetOperand(cond, 1);
    if (pred == LLVMIntUGT || (pred == LLVMIntEQ && LLVMIsAConstantInt(a))) { /* u > lx, 0 == lx */
        LLVMValueRef t = a;
        a = u, u = t;
        pred = pred == LLVMIntEQ ? LLVMIntEQ : LLVMIntULT;
    }
    if (pred == LLVMIntEQ && LLVMIsAConstantInt(u) && !LLVMConstIntGetZExtValue(u)) /* lx == 0: lx < 1 */
        u = LLVMConstInt(LLVMTypeOf(u), 1, 0), pred = LLVMIntULT;
    if (pred != LLVMIntULT)
        return;
    LLVMValueRef lx = LLVMGetParam(rf->body, rf->nparams - 3);
    if (LLVMIsATruncInst(a) && LLVMGetOperand(a, 0) == lx)
        a = lx;
    int out = block_of(rf, LLVMGetSuccessor(term, 1));
    if (a != lx || !only_leaves(rf, out))
        return;
    LLVMValueRef pre_term = LLVMGetBasicBlockTerminator(rl->pre);
    LLVMValueRef bound = value_before_loops(rf, rl->r, u, x);
    if (!bound)
        return;
    LLVMPositionBuilderBefore(b, pre_term);
    if (LLVMTypeOf(bound) != rf->i64)
        bound = LLVMBuildZExt(b, bound, rf->i64, "");
    LLVMValueRef nx = rf->nxyz[0];
    rl->xend = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, bound, nx, ""), bound, nx, "x.end");
    rl->narrowed_test = cond;
    LLVMInstructionEraseFromParent(pre_term);
    LLVMPositionBuilderAtEnd(b, rl->pre);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, rl->xend, const64(rf, 0), ""), rl->done, rl->zb);
}

/* ---- rows of one vector ----------------------------------------------------------------
 * A region whose code has a loop carrying a floating-point value (a tiled
 * GEMM's "s += a[ly][k] * b[k][lx]" over k) gets a copy for groups whose
 * rows are 8 work-items and one for rows of 16 (8x8 and 16x16 tiles; 16
 * floats are one AVX-512 vector): its x loop has that constant trip count,
 * so the vectoriser makes it one vector pass with no loop around it (no
 * run-time checks, no epilogue, nothing hoisted out of a loop that runs
 * once and spilled), and what a row reads from __local memory stays where
 * it is used (a broadcast load folded into each multiply-add).  Tiled
 * SGEMM on one core: 46 -> 33 ms with 16x16 tiles, 122 -> 104 ms with 8x8.
 * Single-state regions in the plain mode only (not narrowed, masked or in
 * sub-group mode).  Other regions keep one copy: copies of every region
 * made the tile loads of the same kernel slower. */
static const unsigned row_widths[] = {8, 16};

/* Does region rl have a loop (a back edge among its blocks) with a
 * floating-point phi at its header? */
static bool carries_fp_chain(region_fn *rf, region_loop *rl)
{
    int *pos = region_positions(rf, rl);
    if (!pos)
        return false;
    bool found = false;
    for (int i = 0; i < rl->n && !found; i++) {
        LLVMBasicBlockRef bb = rf->bbs[rl->order[i]];
        for (LLVMValueRef phi = LLVMGetFirstInstruction(bb); phi && LLVMIsAPHINode(phi) && !found;
             phi = LLVMGetNextInstruction(phi)) {
            LLVMTypeRef t = LLVMTypeOf(phi);
            if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
                t = LLVMGetElementType(t);
            LLVMTypeKind kind = LLVMGetTypeKind(t);
            if (kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind && kind != LLVMHalfTypeKind)
                continue;
            for (unsigned j = 0; j < LLVMCountIncoming(phi) && !found; j++) {
                int from = block_of(rf, LLVMGetIncomingBlock(phi, j));
                found = from >= 0 && pos[from] >= i; /* a back edge, from within the region */
            }
        }
    }
    free(pos);
    return found;
}

static bool runs_vector_rows(region_fn *rf, region_loop *rl)
{
    return !rl->multi && !rf->masked && !rf->sg_mode && !rf->uni && !rl->xend && !rf->scalar && rf->lanes == 1 &&
           carries_fp_chain(rf, rl);
}

/* A test of the group's row length and, when it is `w`, a y loop of its
 * own whose x loop runs w work-items (another copy of the region's code),
 * going on to the next z; `otherwise` where the test sends other lengths.
 * Returns the test's block. */
static LLVMBasicBlockRef build_vector_rows(region_fn *rf, LLVMBuilderRef b, region_loop *rl, unsigned w,
                                           LLVMBasicBlockRef otherwise)
{
    char name[48];
#define BLOCK(what) (snprintf(name, sizeof name, "r%d.rows%u.%s", rl->r, w, what), LLVMAppendBasicBlockInContext(rf->c, rf->wg, name))
    LLVMBasicBlockRef test = BLOCK("test"), yb = BLOCK("y"), xb = BLOCK("x"), latch = BLOCK("latch"),
                      ylatch = BLOCK("next");
#undef BLOCK
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1), width = const64(rf, w);
    LLVMPositionBuilderAtEnd(b, test);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, rf->nxyz[0], width, ""), yb, otherwise);

    LLVMPositionBuilderAtEnd(b, yb);
    LLVMValueRef y = LLVMBuildPhi(b, rf->i64, "rows.y");
    LLVMValueRef zy = LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, rl->z, rf->nxyz[1], ""), y, ""),
                                      width, "");
    LLVMBuildBr(b, xb);
    LLVMPositionBuilderAtEnd(b, xb);
    LLVMValueRef x = LLVMBuildPhi(b, rf->i64, "rows.x");
    /* the region's code once more, for work-item (x, y, z) */
    snprintf(name, sizeof name, "r%d.rows%u", rl->r, w);
    new_region_copy(rf, rl, name);
    rf->lid[0] = x, rf->lid[1] = y, rf->lid[2] = rl->z;
    rf->wi = LLVMBuildNUWAdd(b, zy, x, "wi");
    enter_region_code(rf, b, rl);
    LLVMBasicBlockRef region_latch = rl->latch;
    rl->latch = latch;
    copy_region_code(rf, b, rl);
    rl->latch = region_latch;
    fill_region_phis(rf, b, rl);

    LLVMPositionBuilderAtEnd(b, latch);
    LLVMValueRef xn = LLVMBuildNUWAdd(b, x, one, "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xn, width, ""), xb, ylatch);
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9), one_vector_loop_md(rf, w));
    LLVMPositionBuilderAtEnd(b, ylatch);
    LLVMValueRef yn = LLVMBuildNUWAdd(b, y, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, yn, rf->nxyz[1], ""), yb, rl->zlatch);

    LLVMValueRef in2[2] = {zero, yn};
    LLVMBasicBlockRef from2[2] = {test, ylatch};
    LLVMAddIncoming(y, in2, from2, 2);
    in2[1] = xn, from2[0] = yb, from2[1] = latch;
    LLVMAddIncoming(x, in2, from2, 2);
    return test;
}

/* Region r in K.wg: its code copied between the z, y, x loops over the
 * work-group, then the next region. */
static cl_int build_region(region_fn *rf, int r, LLVMBuilderRef b)
{
    region_loop rl = {.r = r, .order = rf->order};
    cl_int err = plan_region(rf, &rl);
    if (err == CL_SUCCESS) {
        add_region_blocks(rf, &rl);
        open_work_item_loops(rf, b, &rl);
        narrow_x_range(rf, b, &rl);
        copy_region_code(rf, b, &rl);
        if (rl.narrowed_test) { /* every work-item the narrowed loop runs passes it: no masks */
            LLVMValueRef copy = rf->vmap[pmap_get(&rf->iidx, rl.narrowed_test)];
            if (copy && LLVMIsAInstruction(copy))
                LLVMReplaceAllUsesWith(copy, LLVMConstInt(LLVMInt1TypeInContext(rf->c), 1, 0));
        }
        fill_region_phis(rf, b, &rl);
        err = rf_status(rf); /* copying gives up on what it cannot map */
    }
    if (err == CL_SUCCESS && runs_vector_rows(rf, &rl)) {
        /* z goes on to the tests of the row's length, then the ordinary y loop */
        LLVMBasicBlockRef first = rl.yb;
        for (size_t w = 0; w < sizeof row_widths / sizeof *row_widths; w++) {
            first = build_vector_rows(rf, b, &rl, row_widths[w], first);
            if (!w)
                rl.y_entry = first;
        }
        LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(rl.zb));
        LLVMPositionBuilderAtEnd(b, rl.zb);
        LLVMBuildBr(b, first);
        rf->vector_rows++;
        err = rf_status(rf);
    }
    if (err == CL_SUCCESS) {
        close_work_item_loops(rf, b, &rl);
        branch_to_next_region(rf, b, &rl);
    }
    free(rl.states);
    return err;
}

/* K.wg's entry, first: the group's size (ctx->local_size). */
static void load_group_size(region_fn *rf, LLVMBuilderRef b)
{
    for (int d = 0; d < 3; d++)
        rf->nxyz[d] = mc_load_local_size(b, rf->ctx, d);
}

/* K.wg's entry, then: what is computed once for the group (hoisted values)
 * and the private variables the work-items share. */
static cl_int copy_group_values(region_fn *rf, LLVMBuilderRef b)
{
    for (int k = 0; k < rf->ni && !rf->why; k++)
        if (rf->kind[k] == K_SHARED || rf->kind[k] == K_HOIST)
            rf->gmap[k] = copy_inst(rf, 0, rf->insts[k], 0, b);
    return rf_status(rf);
}

/* K.wg's entry, last: the per-work-item arrays, on the stack up to
 * MC_STORAGE_ON_STACK bytes, else on the heap (freed at the exit:
 * *exit_free is then the block that returns, after the free). */
static void allocate_storage(region_fn *rf, LLVMBuilderRef b, LLVMBasicBlockRef *exit_free)
{
    *exit_free = NULL;
    /* sub-group mode: 4 more bytes per work-item, the states uniform copies leave */
    unsigned long long per_item = rf->slot_total + (rf->sg_mode || rf->masked ? 4 : 0);
    rf->kb->item_bytes = (size_t)per_item;
    if (!per_item)
        return;
    /* n64 elements per array (the group's size rounded up to 64), so every array starts 64-byte aligned */
    LLVMValueRef n = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, rf->nxyz[0], rf->nxyz[1], ""), rf->nxyz[2], "");
    LLVMValueRef n64 = LLVMBuildAnd(b, LLVMBuildNUWAdd(b, n, const64(rf, 63), ""), const64(rf, ~63ull), "n64");
    rf->n64 = n64;
    LLVMValueRef total = LLVMBuildNUWMul(b, n64, const64(rf, per_item), "storage.size");
    LLVMBasicBlockRef stack = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "storage.stack");
    LLVMBasicBlockRef heap = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "storage.heap");
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "storage.none");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "storage");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, total, const64(rf, MC_STORAGE_ON_STACK), ""), stack, heap);
    LLVMPositionBuilderAtEnd(b, stack);
    LLVMValueRef on_stack = LLVMBuildArrayAlloca(b, rf->i8, total, "storage.stack");
    LLVMSetAlignment(on_stack, 64);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, heap);
    LLVMTypeRef aa_params[2] = {rf->i64, rf->i64};
    LLVMTypeRef aa_ty = LLVMFunctionType(rf->ptr, aa_params, 2, 0);
    LLVMValueRef aa = LLVMGetNamedFunction(rf->m, "aligned_alloc");
    if (!aa)
        aa = LLVMAddFunction(rf->m, "aligned_alloc", aa_ty);
    LLVMValueRef aa_args[2] = {const64(rf, 64), total};
    LLVMValueRef on_heap = LLVMBuildCall2(b, aa_ty, aa, aa_args, 2, "storage.heap");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, on_heap, ""), fail, join);
    LLVMPositionBuilderAtEnd(b, fail);
    LLVMTypeRef trap_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), NULL, 0, 0);
    LLVMValueRef trap = LLVMGetNamedFunction(rf->m, "llvm.trap");
    if (!trap)
        trap = LLVMAddFunction(rf->m, "llvm.trap", trap_ty);
    LLVMBuildCall2(b, trap_ty, trap, NULL, 0, "");
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef base = LLVMBuildPhi(b, rf->ptr, "storage");
    LLVMAddIncoming(base, &on_stack, &stack, 1);
    LLVMAddIncoming(base, &on_heap, &heap, 1);
    LLVMValueRef is_heap = LLVMBuildPhi(b, rf->i1, "");
    LLVMValueRef f = LLVMConstInt(rf->i1, 0, 0), t = LLVMConstInt(rf->i1, 1, 0);
    LLVMAddIncoming(is_heap, &f, &stack, 1);
    LLVMAddIncoming(is_heap, &t, &heap, 1);
    for (int s = 0; s < rf->nslots; s++) {
        LLVMValueRef off = LLVMBuildNUWMul(b, n64, const64(rf, rf->slot_off[s]), "");
        rf->slot_base[s] = LLVMBuildInBoundsGEP2(b, rf->i8, base, &off, 1, "");
    }
    if (rf->sg_mode || rf->masked) {
        LLVMValueRef off = LLVMBuildNUWMul(b, n64, const64(rf, rf->slot_total), "");
        rf->state_base = LLVMBuildInBoundsGEP2(b, rf->i8, base, &off, 1, "states");
    }
    /* the exit frees heap storage */
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
    LLVMPositionBuilderAtEnd(b, rf->exit);
    LLVMBasicBlockRef free_bb = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "storage.free");
    LLVMBasicBlockRef ret_bb = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "return");
    LLVMBuildCondBr(b, is_heap, free_bb, ret_bb);
    LLVMPositionBuilderAtEnd(b, free_bb);
    LLVMTypeRef free_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), &rf->ptr, 1, 0);
    LLVMValueRef free_fn = LLVMGetNamedFunction(rf->m, "free");
    if (!free_fn)
        free_fn = LLVMAddFunction(rf->m, "free", free_ty);
    LLVMBuildCall2(b, free_ty, free_fn, &base, 1, "");
    LLVMBuildBr(b, ret_bb);
    *exit_free = ret_bb;
    LLVMPositionBuilderAtEnd(b, cur);
}

static void rf_free(region_fn *rf)
{
    for (int i = 0; rf->pred && i < rf->nb; i++)
        free(rf->pred[i]);
    for (int i = 0; rf->succ && i < rf->nb; i++)
        free(rf->succ[i]);
    for (int r = 0; r < rf->nreg; r++) {
        if (rf->inreg)
            free(rf->inreg[r]);
        if (rf->from_e)
            free(rf->from_e[r]);
        if (rf->to_b)
            free(rf->to_b[r]);
    }
    for (int i = 0; rf->avoid && i < rf->nlive * rf->nreg; i++)
        free(rf->avoid[i]);
    for (int i = 0; rf->def_reach && i < rf->nlive * rf->nreg; i++)
        free(rf->def_reach[i]);
    free(rf->bar_div), free(rf->prio), free(rf->soa);
    free(rf->def_reach), free(rf->uniform_def), free(rf->all_slots), free(rf->scalar_reg), free(rf->hoisted);
    mc_uniformity_free(rf->ua);
    free(rf->pred), free(rf->succ), free(rf->npred), free(rf->nsucc), free(rf->bbs), free(rf->reach);
    free(rf->bar_of_block), free(rf->bar_block), free(rf->bar_entry), free(rf->inreg), free(rf->from_e);
    free(rf->to_b), free(rf->insts), free(rf->iblock), free(rf->kind), free(rf->demote), free(rf->slot);
    free(rf->live_index), free(rf->live_inst), free(rf->remat), free(rf->remat_state), free(rf->remat_cost);
    free(rf->avoid), free(rf->slot_inst), free(rf->slot_type), free(rf->slot_stride), free(rf->slot_off);
    free(rf->vals), free(rf->gmap), free(rf->slot_base), free(rf->vmap), free(rf->bmap), free(rf->pre);
    free(rf->phis), free(rf->exits), free(rf->order), free(rf->bar_sub);
    free(rf->upre);
    pmap_free(&rf->bidx);
    pmap_free(&rf->iidx);
    pmap_free(&rf->aidx);
}

static void rf_init(region_fn *rf, LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log)
{
    memset(rf, 0, sizeof *rf);
    rf->m = m;
    rf->c = LLVMGetModuleContext(m);
    rf->td = LLVMGetModuleDataLayout(m);
    rf->kb = kb;
    rf->log = log;
    rf->body = kb->row ? kb->row : kb->body;
    rf->lanes = kb->row ? kb->row_lanes : 1;
    rf->nparams = LLVMCountParams(rf->body);
    rf->i1 = LLVMInt1TypeInContext(rf->c);
    rf->i8 = LLVMInt8TypeInContext(rf->c);
    rf->i32 = LLVMInt32TypeInContext(rf->c);
    rf->i64 = LLVMInt64TypeInContext(rf->c);
    rf->ptr = LLVMPointerTypeInContext(rf->c, 0);
}

/* Each region copies its blocks: refuse what would grow too much. */
static cl_int check_copied_size(region_fn *rf)
{
    long copied = 0;
    for (int k = 0; k < rf->ni; k++)
        for (int r = 0; r < rf->nreg; r++)
            copied += rf->inreg[r][rf->iblock[k]];
    return copied > MAX_COPIED_INSTRUCTIONS ? give_up(rf, "too much code to copy into each region") : CL_SUCCESS;
}

/* ---- a loop's sum and its next value in one array ---------------------- */

/* Does a way from block `from` reach block `to` without entering block
 * `avoid` (nor, with stop_at_barriers, a barrier's block)?  With from ==
 * to: a way round, back to it.  seen[]: room for nb; stack[]: for as many
 * entries as there are edges. */
static bool reaches_without(region_fn *rf, int from, int to, int avoid, bool stop_at_barriers, unsigned char *seen,
                            int *stack)
{
    memset(seen, 0, (size_t)rf->nb);
    int sp = 0;
    for (int j = 0; j < rf->nsucc[from]; j++)
        stack[sp++] = rf->succ[from][j];
    while (sp) {
        int x = stack[--sp];
        if (x == to)
            return true;
        if (seen[x] || x == avoid || (stop_at_barriers && rf->bar_of_block[x]))
            continue;
        seen[x] = 1;
        for (int j = 0; j < rf->nsucc[x]; j++)
            stack[sp++] = rf->succ[x][j];
    }
    return false;
}

/* Where instruction `user` uses value `val`: its block, for a phi the
 * incoming blocks that bring val (at their ends).  Fills at[] (room for
 * the phi's incoming count) and returns how many. */
static unsigned use_blocks(region_fn *rf, LLVMValueRef user, LLVMValueRef val, int ku, int *at)
{
    if (!LLVMIsAPHINode(user))
        return at[0] = rf->iblock[ku], 1;
    unsigned n = 0;
    for (unsigned j = 0; j < LLVMCountIncoming(user); j++)
        if (LLVMGetIncomingValue(user, j) == val)
            at[n++] = block_of(rf, LLVMGetIncomingBlock(user, j));
    return n;
}

/* The value of phi p that comes round its loop, when that value (v) and p
 * may share one array, or -1.  v is stored once defined (a phi of an inner
 * loop: at that loop's exits), p where it is defined, and either is
 * reloaded where used, so they may share when neither is live where the
 * other is stored:
 *  - no use of p is reached from v's block without passing p's block (a
 *    use in v's block itself comes before v, v not being a phi);
 *  - v is not live in p's block: v dominates its uses, so a way from p's
 *    block to one passes v's block, unless the use is another phi of p's
 *    block (refused);
 *  - no way comes round to p's block without a barrier (a region would
 *    store p at its loop's exits instead, loop_exit_targets);
 *  - neither is uniform (work-item 0's copy stands for all).
 * use_at[]: room for the largest phi's incoming count. */
static int phi_partner(region_fn *rf, int p, unsigned char *seen, int *stack, int *use_at)
{
    LLVMValueRef phi = rf->insts[p];
    int h = rf->iblock[p], v = -1;
    for (unsigned j = 0; j < LLVMCountIncoming(phi); j++) {
        int k = pmap_get(&rf->iidx, LLVMGetIncomingValue(phi, j));
        if (k < 0 || !rf->demote[k])
            continue;
        if (v >= 0 && v != k)
            return -1; /* two values come round */
        v = k;
    }
    if (v < 0 || v == p || rf->uniform_def[v] || rf->uniform_def[p] || rf->kind[v] != K_NORMAL ||
        rf->slot_type[rf->slot[v]] != rf->slot_type[rf->slot[p]])
        return -1;
    int b = rf->iblock[v];
    bool v_phi = LLVMIsAPHINode(rf->insts[v]);
    if (reaches_without(rf, h, h, -1, true, seen, stack))
        return -1;
    for (LLVMUseRef u = LLVMGetFirstUse(phi); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->iidx, user);
        if (ku < 0 || rf->kind[ku] == K_SKIP)
            continue;
        unsigned n = use_blocks(rf, user, phi, ku, use_at);
        for (unsigned j = 0; j < n; j++) {
            if (use_at[j] < 0)
                return -1;
            if (use_at[j] == b && (LLVMIsAPHINode(user) || v_phi || ku > v))
                return -1;
            if (reaches_without(rf, b, use_at[j], h, false, seen, stack))
                return -1;
        }
    }
    for (LLVMUseRef u = LLVMGetFirstUse(rf->insts[v]); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->iidx, user);
        if (ku < 0 || ku == p || rf->kind[ku] == K_SKIP)
            continue;
        unsigned n = use_blocks(rf, user, rf->insts[v], ku, use_at);
        for (unsigned j = 0; j < n; j++)
            if (use_at[j] < 0 || use_at[j] == h)
                return -1;
    }
    return v;
}

/* A value that crosses a barrier is stored after its definition and
 * reloaded where a region uses it.  A loop's phi and the value that comes
 * round to it (a sum, s += ...) each had an array, so the region with the
 * loop's back edge copied one into the other every iteration: a load and a
 * store a work-item.  Where they may share one (phi_partner), the phi's
 * store stores what was just loaded there, which LLVM drops.  The arrays
 * are then laid out again without those no value uses.  Not in masked or
 * sub-group mode. */
static cl_int share_phi_slots(region_fn *rf)
{
    if (rf->masked || rf->sg_mode || !rf->nslots)
        return CL_SUCCESS;
    size_t edges = 1;
    for (int x = 0; x < rf->nb; x++)
        edges += (size_t)rf->nsucc[x];
    unsigned char *seen = rf_calloc(rf, (size_t)rf->nb, 1), *taken = rf_calloc(rf, (size_t)rf->nslots, 1);
    unsigned most = 1; /* incoming values of the largest phi */
    for (int k = 0; k < rf->ni; k++)
        if (LLVMIsAPHINode(rf->insts[k]) && LLVMCountIncoming(rf->insts[k]) > most)
            most = LLVMCountIncoming(rf->insts[k]);
    int *stack = rf_calloc(rf, edges, sizeof *stack), *use_at = rf_calloc(rf, most, sizeof *use_at);
    bool changed = false;
    for (int p = 0; p < rf->ni && !rf->oom; p++) {
        if (!rf->demote[p] || rf->kind[p] != K_NORMAL || !LLVMIsAPHINode(rf->insts[p]))
            continue;
        int v = phi_partner(rf, p, seen, stack, use_at);
        if (v >= 0 && !taken[rf->slot[v]]) {
            taken[rf->slot[v]] = 1;
            rf->slot[p] = rf->slot[v];
            rf->shared_phis++;
            changed = true;
        }
    }
    if (changed && !rf->oom) {
        memset(taken, 0, (size_t)rf->nslots);
        for (int k = 0; k < rf->ni; k++)
            if (rf->slot[k] >= 0)
                taken[rf->slot[k]] = 1;
        rf->slot_total = 0;
        for (int t = 0; t < rf->nslots; t++) {
            if (!taken[t])
                rf->slot_stride[t] = 0; /* the phi's own array, now unused */
            rf->slot_off[t] = rf->slot_total;
            rf->slot_total += rf->slot_stride[t];
        }
    }
    free(seen), free(taken), free(stack), free(use_at);
    return rf_status(rf);
}

/* Steps 1 to 3: K.body cut at its barriers, its regions, and what each
 * instruction becomes. */
static cl_int analyse(region_fn *rf, LLVMBuilderRef b)
{
    if (!pmap_init(&rf->aidx, rf->nparams))
        return out_of_memory(rf);
    for (unsigned p = 0; p < rf->nparams; p++)
        pmap_put(&rf->aidx, LLVMGetParam(rf->body, p), (int)p);
    split_at_barriers(rf, b);
    unsigned first_lid = rf->nparams - 3;
    if (!rf->kb->uses_sub_groups && rf->lanes == 1) { /* K.row's loops run for a row already */
        mc_uniformity *before_cuts = mc_uniformity_new(rf->body, first_lid);
        if (!before_cuts)
            return out_of_memory(rf);
        if (mc_cut_loops(rf->m, rf->body, b, before_cuts))
            split_at_barriers(rf, b);
        mc_uniformity_free(before_cuts);
    }
    if (!(rf->ua = mc_uniformity_new(rf->body, first_lid)))
        return out_of_memory(rf);
    cl_int err = number_blocks(rf);
    if (err == CL_SUCCESS)
        err = find_regions(rf);
    if (err == CL_SUCCESS)
        err = number_instructions(rf);
    if (err == CL_SUCCESS)
        err = check_copied_size(rf);
    if (err == CL_SUCCESS)
        err = classify(rf);
    if (err == CL_SUCCESS)
        err = find_scalar_regions(rf);
    if (err == CL_SUCCESS)
        err = share_phi_slots(rf);
    return err;
}

/* Step 4 begins: the maps from K.body to K.wg, K.wg with its arguments
 * unpacked (mc_wg_begin), its access group, the block where each region
 * starts and the exit. */
static cl_int begin_wg(region_fn *rf, LLVMBuilderRef b, const mosaic_compiler_target *target)
{
    rf->vals = rf_calloc(rf, rf->kb->num_args + 4, sizeof *rf->vals);
    rf->gmap = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->gmap);
    rf->vmap = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->vmap);
    rf->bmap = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->bmap);
    rf->slot_base = rf_calloc(rf, (size_t)rf->nslots, sizeof *rf->slot_base);
    rf->pre = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->pre);
    if (rf->sg_mode)
        rf->upre = rf_calloc(rf, (size_t)rf->nreg, sizeof *rf->upre);
    rf->phis = rf_calloc(rf, (size_t)rf->ni, sizeof *rf->phis);
    rf->exits = rf_calloc(rf, (size_t)rf->nb + 1, sizeof *rf->exits);
    rf->order = rf_calloc(rf, (size_t)rf->nb, sizeof *rf->order);
    if (rf->oom)
        return CL_OUT_OF_HOST_MEMORY;
    rf->wg = mc_wg_begin(rf->m, rf->kb, b, rf->vals, rf->log);
    if (!rf->wg)
        return out_of_memory(rf);
    rf->ctx = LLVMGetParam(rf->wg, 1);
    rf->ag_kind = LLVMGetMDKindIDInContext(rf->c, "llvm.access.group", 17);
    rf->kb->access_group = mc_distinct_empty_node(rf->c);
    rf->ag = rf->kb->access_group ? LLVMMetadataAsValue(rf->c, rf->kb->access_group) : NULL;
    make_storage_scope(rf);
    if (mc_target_has_symbol(target, "__mosaic_barrier_divergence")) /* for branch_to_next_region */
        rf->report_fn = mc_divergence_report(rf->m, rf->kb->wi, &rf->kernel_name);
    for (int r = 0; r < rf->nreg; r++) {
        char name[32];
        snprintf(name, sizeof name, "r%d", r);
        rf->pre[r] = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
        if (rf->sg_mode) {
            snprintf(name, sizeof name, "u%d", r);
            rf->upre[r] = LLVMAppendBasicBlockInContext(rf->c, rf->wg, name);
        }
    }
    rf->exit = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "exit");
    return CL_SUCCESS;
}

/* K.wg's entry block (after the arguments): the group's size, the values
 * computed once, the per-work-item storage, then region 0; and the return. */
static cl_int build_entry(region_fn *rf, LLVMBuilderRef b)
{
    if (rf->sg_mode) { /* in the entry block: promoted to registers by the optimiser */
        rf->sg_var = LLVMBuildAlloca(b, rf->i64, "sg.var");
        rf->pmask_var = LLVMBuildAlloca(b, rf->i64, "phase.mask.var");
        rf->phase_var = LLVMBuildAlloca(b, rf->i32, "phase.var");
        rf->pnext_var = LLVMBuildAlloca(b, rf->i32, "phase.next.var");
        for (int d = 0; d < 3; d++)
            rf->sgxyz_var[d] = LLVMBuildAlloca(b, rf->i64, "sg.first.var");
        rf->sg_start = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.start");
        rf->sg_end = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.end");
        rf->fallback = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.fallback");
        rf->sg_dispatch = LLVMAppendBasicBlockInContext(rf->c, rf->wg, "sg.dispatch");
    }
    load_group_size(rf, b);
    cl_int err = copy_group_values(rf, b);
    if (err != CL_SUCCESS)
        return err;
    LLVMBasicBlockRef ret_bb;
    allocate_storage(rf, b, &ret_bb);
    if (rf->kb->prefetch_ahead && rf->kb->uses_barriers)
        rf->kb->stats[MC_STAT_prefetched_reads] = mc_prefetch_groups_ahead(rf->m, rf->kb, b, rf->vals, rf->ctx, rf->nxyz[0]);
    if (rf->sg_mode) {
        LLVMValueRef zero = const64(rf, 0);
        rf->nitems = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, rf->nxyz[0], rf->nxyz[1], ""), rf->nxyz[2], "items");
        rf->nsg = LLVMBuildUDiv(b, LLVMBuildNUWAdd(b, rf->nitems, const64(rf, MOSAIC_SUB_GROUP_SIZE - 1), ""),
                                const64(rf, MOSAIC_SUB_GROUP_SIZE), "sub_groups");
        LLVMBuildStore(b, zero, rf->sg_var);
        LLVMBuildStore(b, zero, rf->pmask_var);
        for (int d = 0; d < 3; d++)
            LLVMBuildStore(b, zero, rf->sgxyz_var[d]);
        LLVMBuildStore(b, LLVMConstInt(rf->i32, 0, 0), rf->phase_var);
        LLVMBuildStore(b, LLVMConstInt(rf->i32, 0, 0), rf->pnext_var);
        /* uniform copies when a row is whole sub-groups, else one sub-group at a time */
        rf->uni_ok = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, rf->nxyz[0], const64(rf, MOSAIC_SUB_GROUP_SIZE - 1), ""),
                                   const64(rf, 0), "uniform");
        LLVMBuildCondBr(b, rf->uni_ok, rf->upre[0], rf->sg_start);
        build_sub_group_phases(rf, b);
    } else {
        LLVMBuildBr(b, rf->pre[0]);
    }
    LLVMPositionBuilderAtEnd(b, ret_bb ? ret_bb : rf->exit);
    LLVMBuildRetVoid(b);
    return CL_SUCCESS;
}

/* Each region; in sub-group mode, its uniform copy too. */
static cl_int build_regions(region_fn *rf, LLVMBuilderRef b)
{
    cl_int err = CL_SUCCESS;
    for (int copy = 0; copy < (rf->sg_mode ? 2 : 1); copy++) {
        rf->uni = copy == 1;
        for (int r = 0; r < rf->nreg && err == CL_SUCCESS; r++) {
            /* a region whose barrier cannot be reached is never entered */
            if (r && !rf->reach[rf->bar_block[r]]) {
                LLVMPositionBuilderAtEnd(b, rf->uni ? rf->upre[r] : rf->pre[r]);
                LLVMBuildUnreachable(b);
                continue;
            }
            err = rf->scalar_reg[r] ? build_scalar_region(rf, r, b) : build_region(rf, r, b);
        }
    }
    rf->uni = false;
    return err;
}

cl_int mc_build_wg_regions(LLVMModuleRef m, mc_kernel_build *kb, const mosaic_compiler_target *target,
                           mosaic_strbuf *log)
{
    region_fn rf;
    rf_init(&rf, m, kb, log);
    kb->item_bytes = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(rf.c);
    cl_int err;
    if (mosaic_settings()->barrier_fibers) {
        err = give_up(&rf, "MOSAIC_BARRIER_FIBERS is set");
    } else if (kb->spins) {
        /* each iteration lets the other fibers run (spin_loops.c) */
        err = give_up(&rf, "a loop waits for other work-items");
    } else if (kb->uses_non_uniform) {
        /* the fibers' scheduler finds the active work-items (docs/subgroups.md) */
        err = give_up(&rf, "it calls non-uniform sub-group functions");
    } else {
        err = analyse(&rf, b);
        if (err == CL_SUCCESS)
            err = begin_wg(&rf, b, target);
        if (err == CL_SUCCESS)
            err = build_entry(&rf, b);
        if (err == CL_SUCCESS)
            err = build_regions(&rf, b);
        if (err == CL_SUCCESS && LLVMVerifyFunction(rf.wg, LLVMReturnStatusAction))
            err = give_up(&rf, "internal error: invalid work-group function");
        if (err == CL_SUCCESS)
            err = rf_status(&rf);
    }
    mc_remove_cuts(rf.m, rf.body);
    kb->wg = err == CL_SUCCESS ? rf.wg : NULL;
    if (err == CL_SUCCESS && mosaic_debugging(MOSAIC_DEBUG_BUILD)) {
        int once = 0;
        for (int r = 0; r < rf.nreg; r++)
            once += rf.scalar_reg[r];
        fprintf(stderr, "mosaic: kernel %s: %d regions, %d of them run once for the group (uniform control), "
                "%d with copies for rows of 8 and 16%s%s, %d loop phi%s in the array of the value that comes round\n",
                LLVMGetValueName(kb->wi), rf.nreg, once, rf.vector_rows,
                rf.masked ? ", masked (work-items leave a loop in different iterations)" : "",
                rf.lanes > 1 ? ", cut from the widened rows" : "", rf.shared_phis, rf.shared_phis == 1 ? "" : "s");
    }
    if (err != CL_SUCCESS && rf.wg)
        LLVMDeleteFunction(rf.wg);
    if (err == CL_BUILD_PROGRAM_FAILURE && mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: kernel %s %s: %s\n", LLVMGetValueName(kb->wi),
                kb->row              ? "is not cut from its widened rows (its regions come from K.body)"
                : kb->uses_barriers ? "runs its work-items as fibers"
                                    : "keeps its loops inside the work-item loop",
                rf.why ? rf.why : "?");
    LLVMDisposeBuilder(b);
    rf_free(&rf);
    /* a kernel this does not cut is no failure: the device runs it as fibers */
    return err == CL_OUT_OF_HOST_MEMORY ? mc_out_of_memory(log) : CL_SUCCESS;
}
