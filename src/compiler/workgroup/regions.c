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
 * entry, and so are those of other blocks that cannot trap (the ctx fields
 * a branch reads, and what is computed from them).  The storage is a stack allocation (a heap one when it would exceed
 * MC_STORAGE_ON_STACK bytes), so private memory stays on the worker's stack.
 *
 * Anything this does not handle (an alloca outside the entry block, a token
 * value, a region with no way out...) leaves K.wg undefined: the device runs
 * K.wi as fibers.  The steps return CL_BUILD_PROGRAM_FAILURE for it
 * (give_up records why) and CL_OUT_OF_HOST_MEMORY when memory ran out;
 * mc_build_wg_regions turns the first into CL_SUCCESS without K.wg.  K.wg
 * that is not valid IR is no such case but a bug of these files: with
 * assertions (MOSAIC_ASSERTIONS) it aborts with the verifier's message.
 *
 * The steps are in region_*.c (regions_internal.h lists them and the part
 * of the state each fills); this file runs them, checks what each hands on
 * to the next (check_*), and builds K.wg's entry block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

#include "base/settings.h"
#include "compiler/workgroup/regions_internal.h"

void (*mc_regions_test_hook)(LLVMValueRef wg);

/* ---- the state ------------------------------------------------------------------------- */

static void rf_init(region_fn *rf, LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, mosaic_strbuf *log)
{
    memset(rf, 0, sizeof *rf);
    rf->an = an;
    rf->m = m;
    rf->c = LLVMGetModuleContext(m);
    rf->td = LLVMGetModuleDataLayout(m);
    rf->kb = kb;
    rf->log = log;
    rf->body = kb->row ? kb->row : kb->body;
    rf->lanes = kb->row ? kb->row_lanes : 1;
    rf->rows = kb->row ? kb->row_rows : 1;
    rf->nparams = LLVMCountParams(rf->body);
    rf->i1 = LLVMInt1TypeInContext(rf->c);
    rf->i8 = LLVMInt8TypeInContext(rf->c);
    rf->i32 = LLVMInt32TypeInContext(rf->c);
    rf->i64 = LLVMInt64TypeInContext(rf->c);
    rf->ptr = LLVMPointerTypeInContext(rf->c, 0);
}

/* (the graph's arrays are the analyses': not freed here) */
static void free_cut(region_cut *cut)
{
    for (int r = 0; r < cut->nreg; r++) {
        if (cut->inreg)
            free(cut->inreg[r]);
        if (cut->from_e)
            free(cut->from_e[r]);
        if (cut->to_b)
            free(cut->to_b[r]);
    }
    free(cut->reach);
    free(cut->bar_of_block), free(cut->bar_block), free(cut->bar_entry), free(cut->inreg), free(cut->from_e);
    free(cut->to_b), free(cut->bar_sub), free(cut->bar_div), free(cut->bar_nu);
}

static void free_live(region_live *live, int nreg)
{
    for (int i = 0; live->avoid && i < live->nlive * nreg; i++)
        free(live->avoid[i]);
    for (int i = 0; live->def_reach && i < live->nlive * nreg; i++)
        free(live->def_reach[i]);
    free(live->demote), free(live->live_index), free(live->live_inst), free(live->remat), free(live->remat_state);
    free(live->remat_cost), free(live->avoid), free(live->def_reach);
}

static void rf_free(region_fn *rf)
{
    free_live(&rf->live, rf->cut.nreg);
    free_cut(&rf->cut);
    free(rf->ins.insts), free(rf->ins.iblock), free(rf->ins.kind);
    pmap_free(&rf->ins.iidx);
    region_storage *st = &rf->store;
    free(st->slot), free(st->slot_inst), free(st->slot_type), free(st->slot_stride), free(st->slot_off), free(st->soa);
    free(rf->unif.uniform_def), free(rf->unif.all_slots), free(rf->unif.scalar_reg), free(rf->unif.prio);
    free(rf->frame.vals), free(rf->frame.gmap), free(rf->frame.slot_base), free(rf->frame.pre);
    free(rf->copy.vmap), free(rf->copy.bmap), free(rf->copy.phis), free(rf->copy.exits), free(rf->copy.order);
    free(rf->copy.hoisted);
    free(rf->sg.upre), free(rf->sg.mpre);
    pmap_free(&rf->aidx);
}

/* ---- the hand-offs between steps --------------------------------------------------------
 * What each step leaves for the next ones to rely on (without assertions
 * these loops do nothing and the compiler drops them). */

/* After barrier splitting (region_cut.c), for everything after: a barrier
 * (or cut) is always the last instruction before its block's terminator, an
 * unconditional branch to the block its region starts at; that block is
 * entered from the barrier's block only and has no phis (a region's copy
 * starts there from its loops, with no incoming values to give); each
 * region holds its start. */
static void check_cut(const region_fn *rf)
{
    const region_cut *cut = &rf->cut;
    MOSAIC_ASSERT(cut->nreg == cut->nbar + 1);
    for (int i = 0; i < cut->nb; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(cut->bbs[i]);
        for (LLVMValueRef inst = LLVMGetFirstInstruction(cut->bbs[i]); inst && cut->reach[i];
             inst = LLVMGetNextInstruction(inst))
            MOSAIC_ASSERT(!mc_ends_region(inst) || LLVMGetNextInstruction(inst) == term);
    }
    for (int k = 1; k <= cut->nbar; k++) {
        int bb = cut->bar_block[k], e = cut->bar_entry[k];
        MOSAIC_ASSERT(cut->bar_of_block[bb] == k && cut->nsucc[bb] == 1 && cut->succ[bb][0] == e);
        MOSAIC_ASSERT(cut->npred[e] == 1 && !LLVMIsAPHINode(LLVMGetFirstInstruction(cut->bbs[e])));
    }
    for (int r = 0; r < cut->nreg; r++)
        MOSAIC_ASSERT(cut->inreg[r][r ? cut->bar_entry[r] : 0]);
}

/* After the liveness (region_liveness.c; region_storage.c lays out the
 * arrays), for the copies: a value live across a barrier is an instruction
 * copied into regions (K_NORMAL), kept in a slot or computed again, never
 * both; every kept value and every per-work-item alloca has a slot (an
 * alloca's bytes: no type), nothing else has one; the arrays do not
 * overlap. */
static void check_live(const region_fn *rf)
{
    const region_live *live = &rf->live;
    const region_storage *st = &rf->store;
    for (int li = 0; li < live->nlive; li++) {
        int k = live->live_inst[li];
        MOSAIC_ASSERT(live->live_index[k] == li && rf->ins.kind[k] == K_NORMAL);
        MOSAIC_ASSERT(live->remat[k] != live->demote[k]);
    }
    for (int k = 0; k < rf->ins.ni; k++) {
        bool kept = live->demote[k] || rf->ins.kind[k] == K_PERWI;
        MOSAIC_ASSERT(kept == (st->slot[k] >= 0) && st->slot[k] < st->nslots);
        MOSAIC_ASSERT(!kept || !st->slot_type[st->slot[k]] == (rf->ins.kind[k] == K_PERWI));
    }
    unsigned long long end = 0;
    for (int s = 0; s < st->nslots; s++) {
        MOSAIC_ASSERT(st->slot_off[s] >= end);
        end = st->slot_off[s] + st->slot_stride[s];
    }
    MOSAIC_ASSERT(end <= st->slot_total);
}

/* After the uniformity (region_uniform.c), for the loops: a region runs
 * once for the group only outside masked and sub-group mode (it goes
 * straight on to the next region: no work-item's state is kept); masked
 * mode has a schedule and at most 63 regions (a mask of 64 states); a
 * uniform value read per work-item is a kept one. */
static void check_uniform(const region_fn *rf)
{
    const region_uniformity *u = &rf->unif;
    for (int r = 0; r < rf->cut.nreg; r++)
        MOSAIC_ASSERT(!u->scalar_reg[r] || (!rf->cut.masked && !rf->cut.sg_mode));
    MOSAIC_ASSERT(!rf->cut.masked || (!rf->cut.sg_mode && rf->cut.nreg <= 63 && u->nprio > 0));
    for (int k = 0; k < rf->ins.ni; k++)
        MOSAIC_ASSERT(!u->all_slots[k] || (rf->live.demote[k] && u->uniform_def[k]));
}

/* After K.wg's entry (begin_wg, build_entry), for the regions: each region
 * has the block it starts at (and its uniform copy's, in sub-group mode),
 * the group's size is loaded, every array has its place when there is
 * storage, and the modes that keep each work-item's state (masked,
 * sub-group) have the array of states. */
static void check_frame(const region_fn *rf)
{
    const region_frame *f = &rf->frame;
    for (int r = 0; r < rf->cut.nreg; r++)
        MOSAIC_ASSERT(f->pre[r] && (!rf->cut.sg_mode || rf->sg.upre[r]));
    for (int s = 0; s < rf->store.nslots; s++)
        MOSAIC_ASSERT(f->slot_base[s] || !rf->store.slot_total);
    MOSAIC_ASSERT(f->exit && f->nxyz[0] && f->nxyz[1] && f->nxyz[2]);
    MOSAIC_ASSERT(!(rf->cut.masked || rf->cut.sg_mode) || f->state_base);
}

/* ---- the analysis: cut, liveness, uniformity ---------------------------------------------- */

/* K.body cut at its barriers (and at the loops implicit_barriers.c cuts), its regions,
 * what each instruction becomes, the values live across barriers and
 * which regions run once. */
static cl_int analyse(region_fn *rf, LLVMBuilderRef b)
{
    if (!pmap_init(&rf->aidx, rf->nparams))
        return out_of_memory(rf);
    for (unsigned p = 0; p < rf->nparams; p++)
        pmap_put(&rf->aidx, LLVMGetParam(rf->body, p), (int)p);
    /* (the analyses of K.body forgotten whenever its blocks change) */
    if (rg_split_at_barriers(rf, b))
        mc_analyses_invalidate(rf->an, rf->body);
    unsigned first_lid = rf->nparams - 3;
    if (!rf->kb->uses_sub_groups && rf->lanes == 1) { /* K.row's loops run for a row already */
        const mc_uniformity *before_cuts = mc_analyses_uniformity(rf->an, rf->body, first_lid);
        if (!before_cuts)
            return out_of_memory(rf);
        if (mc_insert_implicit_barriers(rf->m, rf->body, b, before_cuts)) {
            mc_analyses_invalidate(rf->an, rf->body);
            rg_split_at_barriers(rf, b);
        }
    }
    if (!(rf->unif.ua = mc_analyses_uniformity(rf->an, rf->body, first_lid)))
        return out_of_memory(rf);
    cl_int err = rg_number_blocks(rf);
    if (err == CL_SUCCESS)
        err = rg_find_regions(rf);
    if (err != CL_SUCCESS)
        return err;
    check_cut(rf);
    if (rf->cut.nu && rf->cut.nbar >= 64) /* the active sets are chosen from a mask with a bit per state */
        return give_up(rf, "it calls non-uniform sub-group functions at more than 63 places");
    MOSAIC_ASSERT(!rf->cut.nu || rf->lanes == 1); /* (wfv.c widens no rows of sub-group kernels) */
    err = rg_classify_instructions(rf);
    if (err == CL_SUCCESS)
        err = rg_check_copied_size(rf);
    if (err == CL_SUCCESS)
        err = rg_find_live_values(rf);
    if (err == CL_SUCCESS)
        err = rg_find_scalar_regions(rf);
    if (err == CL_SUCCESS)
        err = rg_share_phi_slots(rf);
    if (err != CL_SUCCESS)
        return err;
    check_live(rf);
    check_uniform(rf);
    return CL_SUCCESS;
}

/* ---- K.wg's entry ----------------------------------------------------------------------- */

/* The maps from K.body to K.wg, K.wg with its arguments unpacked
 * (mc_wg_begin), its access group, the block where each region starts and
 * the exit. */
static cl_int begin_wg(region_fn *rf, LLVMBuilderRef b, const mosaic_compiler_target *target)
{
    region_frame *f = &rf->frame;
    f->vals = rf_calloc(rf, rf->kb->num_args + 4, sizeof *f->vals);
    f->gmap = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *f->gmap);
    rf->copy.vmap = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->copy.vmap);
    rf->copy.bmap = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *rf->copy.bmap);
    f->slot_base = rf_calloc(rf, (size_t)rf->store.nslots, sizeof *f->slot_base);
    f->pre = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *f->pre);
    if (rf->cut.sg_mode)
        rf->sg.upre = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->sg.upre);
    if (rf->cut.nu)
        rf->sg.mpre = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->sg.mpre);
    rf->copy.phis = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->copy.phis);
    rf->copy.exits = rf_calloc(rf, (size_t)rf->cut.nb + 1, sizeof *rf->copy.exits);
    rf->copy.order = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *rf->copy.order);
    rf->copy.hoisted = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->copy.hoisted);
    if (rf->oom)
        return CL_OUT_OF_HOST_MEMORY;
    f->wg = mc_wg_begin(rf->m, rf->kb, b, f->vals, rf->log);
    if (!f->wg)
        return out_of_memory(rf);
    f->ctx = LLVMGetParam(f->wg, 1);
    f->ag_kind = LLVMGetMDKindIDInContext(rf->c, "llvm.access.group", 17);
    rf->kb->access_group = mc_distinct_empty_node(rf->c);
    f->ag = rf->kb->access_group ? LLVMMetadataAsValue(rf->c, rf->kb->access_group) : NULL;
    rg_make_storage_scope(rf);
    if (mosaic_target_has_symbol(target, "__mosaic_barrier_divergence")) /* for rg_report_if_diverged */
        f->report_fn = mc_divergence_report(rf->m, rf->kb->wi, &f->kernel_name);
    for (int r = 0; r < rf->cut.nreg; r++) {
        char name[32];
        snprintf(name, sizeof name, "r%d", r);
        f->pre[r] = LLVMAppendBasicBlockInContext(rf->c, f->wg, name);
        if (rf->cut.sg_mode) {
            snprintf(name, sizeof name, "u%d", r);
            rf->sg.upre[r] = LLVMAppendBasicBlockInContext(rf->c, f->wg, name);
        }
        if (rf->cut.nu && rf->cut.bar_nu[r]) {
            snprintf(name, sizeof name, "m%d", r);
            rf->sg.mpre[r] = LLVMAppendBasicBlockInContext(rf->c, f->wg, name);
        }
    }
    f->exit = LLVMAppendBasicBlockInContext(rf->c, f->wg, "exit");
    return CL_SUCCESS;
}

/* What is computed once for the group (hoisted values) and the private
 * variables the work-items share. */
static cl_int copy_group_values(region_fn *rf, LLVMBuilderRef b)
{
    for (int k = 0; k < rf->ins.ni && !rf->why; k++)
        if (rf->ins.kind[k] == K_SHARED || rf->ins.kind[k] == K_HOIST)
            rf->frame.gmap[k] = rg_copy_inst(rf, 0, rf->ins.insts[k], 0, b);
    return rf_status(rf);
}

/* K.wg's entry block (after the arguments): the group's size
 * (ctx->local_size), the values computed once, the per-work-item storage,
 * then region 0; and the return. */
static cl_int build_entry(region_fn *rf, LLVMBuilderRef b)
{
    region_frame *f = &rf->frame;
    if (rf->cut.sg_mode)
        rg_sub_group_allocas(rf, b);
    for (int d = 0; d < 3; d++)
        f->nxyz[d] = mc_load_local_size(b, f->ctx, d);
    cl_int err = copy_group_values(rf, b);
    if (err != CL_SUCCESS)
        return err;
    LLVMBasicBlockRef ret_bb;
    rg_allocate_storage(rf, b, &ret_bb);
    if (rf->kb->prefetch_ahead && rf->kb->uses_barriers)
        rf->kb->stats[MC_STAT_prefetched_reads] = mc_prefetch_groups_ahead(rf->m, rf->kb, b, f->vals, f->ctx, f->nxyz[0]);
    if (rf->cut.sg_mode)
        rg_start_sub_groups(rf, b);
    else
        LLVMBuildBr(b, f->pre[0]);
    LLVMPositionBuilderAtEnd(b, ret_bb ? ret_bb : f->exit);
    LLVMBuildRetVoid(b);
    return CL_SUCCESS;
}

/* ---- the regions ---------------------------------------------------------------------- */

/* Each region; in sub-group mode, its uniform copy too, and with
 * non-uniform functions the masked uniform copies of the regions after
 * non-uniform barriers (region_active_sets.c). */
static cl_int build_regions(region_fn *rf, LLVMBuilderRef b)
{
    cl_int err = CL_SUCCESS;
    for (int copy = 0; copy < (rf->cut.nu ? 3 : rf->cut.sg_mode ? 2 : 1); copy++) {
        rf->sg.uni = copy >= 1;
        rf->sg.masked = copy == 2;
        for (int r = 0; r < rf->cut.nreg && err == CL_SUCCESS; r++) {
            if (rf->sg.masked && !rf->cut.bar_nu[r])
                continue;
            /* a region whose barrier cannot be reached is never entered */
            if (r && !rf->cut.reach[rf->cut.bar_block[r]]) {
                LLVMPositionBuilderAtEnd(b, rf->sg.masked ? rf->sg.mpre[r] : rf->sg.uni ? rf->sg.upre[r] : rf->frame.pre[r]);
                LLVMBuildUnreachable(b);
                continue;
            }
            err = rf->unif.scalar_reg[r] ? rg_build_scalar_region(rf, r, b) : rg_build_region(rf, r, b);
        }
    }
    rf->sg.uni = rf->sg.masked = false;
    return err;
}

/* K.wg must be valid IR.  What the steps cannot cut they give up on
 * before; invalid IR built is a bug of theirs, not the kernel's: with
 * assertions it aborts with the verifier's message, without them the
 * kernel runs as fibers and MOSAIC_DEBUG says so. */
static cl_int verify_wg(region_fn *rf)
{
    if (mc_regions_test_hook)
        mc_regions_test_hook(rf->frame.wg);
    bool valid = !LLVMVerifyFunction(rf->frame.wg, LLVMReturnStatusAction);
#if MOSAIC_ASSERTIONS
    const bool say = true;
#else
    const bool say = mosaic_debugging(MOSAIC_DEBUG_BUILD);
#endif
    if (!valid && say) {
        fprintf(stderr, "mosaic: kernel %s: the work-group function built from its regions is invalid IR:\n",
                LLVMGetValueName(rf->kb->wi));
        LLVMVerifyFunction(rf->frame.wg, LLVMPrintMessageAction); /* the verifier's message, on stderr */
    }
    MOSAIC_ASSERT(valid);
    return valid ? CL_SUCCESS : give_up(rf, "internal error: invalid work-group function");
}

/* MOSAIC_DEBUG: what became of the kernel. */
static void report(const region_fn *rf, cl_int err)
{
    const mc_kernel_build *kb = rf->kb;
    if (err == CL_SUCCESS) {
        int once = 0;
        for (int r = 0; r < rf->cut.nreg; r++)
            once += rf->unif.scalar_reg[r];
        fprintf(stderr, "mosaic: kernel %s: %d regions, %d of them run once for the group (uniform control), "
                "%d with copies for rows of 8 and 16%s%s%s, %d loop phi%s in the array of the value that comes round\n",
                LLVMGetValueName(kb->wi), rf->cut.nreg, once, rf->frame.vector_rows,
                rf->cut.masked ? ", masked (work-items leave a loop in different iterations)" : "",
                rf->cut.nu ? ", masked copies for the active sets of non-uniform sub-group functions" : "",
                rf->lanes > 1 ? ", cut from the widened rows" : "", rf->store.shared_phis,
                rf->store.shared_phis == 1 ? "" : "s");
    } else if (err == CL_BUILD_PROGRAM_FAILURE) {
        fprintf(stderr, "mosaic: kernel %s %s: %s\n", LLVMGetValueName(kb->wi),
                kb->row              ? "is not cut from its widened rows (its regions come from K.body)"
                : kb->uses_barriers ? "runs its work-items as fibers"
                                    : "keeps its loops inside the work-item loop",
                rf->why ? rf->why : "?");
    }
}

cl_int mc_build_wg_regions(LLVMModuleRef m, mc_kernel_build *kb, const mosaic_compiler_target *target,
                           mc_analyses *an, mosaic_strbuf *log)
{
    region_fn rf;
    rf_init(&rf, m, kb, an, log);
    kb->item_bytes = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(rf.c);
    cl_int err;
    if (mosaic_settings()->barrier_fibers) {
        err = give_up(&rf, "MOSAIC_BARRIER_FIBERS is set");
    } else if (kb->spins) {
        /* each iteration lets the other fibers run (spin_loops.c) */
        err = give_up(&rf, "a loop waits for other work-items");
    } else {
        err = rg_mark_active_masks(&rf, b);
        if (err == CL_SUCCESS)
            err = analyse(&rf, b);
        if (err == CL_SUCCESS)
            err = begin_wg(&rf, b, target);
        if (err == CL_SUCCESS)
            err = build_entry(&rf, b);
        if (err == CL_SUCCESS) {
            check_frame(&rf);
            err = build_regions(&rf, b);
        }
        if (err == CL_SUCCESS)
            err = rf_status(&rf); /* a copy that gave up may have left K.wg unfinished */
        if (err == CL_SUCCESS)
            err = verify_wg(&rf);
    }
    rg_restore_active_masks(&rf);
    mc_remove_implicit_barriers(rf.m, rf.body);
    kb->wg = err == CL_SUCCESS ? rf.frame.wg : NULL;
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
        report(&rf, err);
    if (err != CL_SUCCESS && rf.frame.wg)
        LLVMDeleteFunction(rf.frame.wg);
    LLVMDisposeBuilder(b);
    LLVMValueRef body = rf.body;
    rf_free(&rf);
    mc_analyses_invalidate(an, body); /* split, and cut (its cuts' blocks stay) */
    /* a kernel this does not cut is no failure: the device runs it as fibers */
    return err == CL_OUT_OF_HOST_MEMORY ? mc_out_of_memory(log) : CL_SUCCESS;
}
