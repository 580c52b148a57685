/*
 * Work-item loops (the field's term, pocl's too: the loops over the local
 * ids in which a work-group function runs a region for every work-item).
 * For each region: z, y and x loops around its copy (x innermost, marked
 * parallel for the vectoriser), the latch that gathers each work-item's next
 * state (the barrier it reached, or the end), and the branch to the next
 * region: K.wg is a state machine over the regions.  A mask with a bit per
 * state reached detects barrier divergence.  A region that runs once for
 * the group gets no loops (rg_build_scalar_region).  Sub-group mode's loops
 * are in region_sub_groups.c, the specialised copies in
 * region_versioning.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/workgroup/regions_internal.h"

/* Reverse post-order of region r's blocks (definitions before their uses).
 * (Of the region from its start, barrier blocks its ends: not the
 * function's order, which cfg.h has.) */
static cl_int order_region_blocks(region_fn *rf, region_loop *rl)
{
    int start = rl->r ? rf->cut.bar_entry[rl->r] : 0, n = 0, sp = 0;
    int *order = rl->order;
    unsigned char *state = rf_calloc(rf, (size_t)rf->cut.nb, 1);
    int *stack = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *stack);
    int *pos = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *pos);
    if (rf->oom) {
        free(state), free(stack), free(pos);
        return CL_OUT_OF_HOST_MEMORY;
    }
    stack[sp++] = start;
    state[start] = 1;
    while (sp) {
        int x = stack[sp - 1];
        int ns = rf->cut.bar_of_block[x] ? 0 : rf->cut.nsucc[x];
        if (pos[x] < ns) {
            int y = rf->cut.succ[x][pos[x]++];
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
    rl->states = rf_calloc(rf, (size_t)rf->cut.nreg, 1);
    if (!rl->states)
        return CL_OUT_OF_HOST_MEMORY;
    rl->only = -1;
    for (int i = 0; i < rl->n; i++) {
        int x = rl->order[i], st = -1;
        if (rf->cut.bar_of_block[x])
            st = rf->cut.bar_of_block[x];
        else if (LLVMGetInstructionOpcode(LLVMGetBasicBlockTerminator(rf->cut.bbs[x])) == LLVMRet)
            st = 0;
        if (st >= 0 && !rl->states[st]) {
            rl->states[st] = 1;
            rl->nstates++;
            rl->only = st;
        }
    }
    if (!rl->nstates)
        return give_up(rf, "a region that never reaches a barrier or the end");
    /* masked, guarded: the waiting work-items' states join the mask */
    rl->multi = rl->nstates > 1 || rf->cut.masked || rg_guarded(rf, rl->r);
    return CL_SUCCESS;
}

/* The region's blocks in K.wg: loop headers, a copy of each of its blocks of
 * K.body, the latches, and where it ends. */
static void add_region_blocks(region_fn *rf, region_loop *rl)
{
    char name[48];
    memset(rf->copy.hoisted, 0, (size_t)rf->ins.ni * sizeof *rf->copy.hoisted);
    if (!rl->pre) /* (a chained copy's is its own) */
        rl->pre = rf->sg.masked ? rf->sg.mpre[rl->r] : rf->sg.uni ? rf->sg.upre[rl->r] : rf->frame.pre[rl->r];
    rf->copy.cur_pre = rl->pre;
    const char *fmt = rf->sg.chained ? "c%d.%s" : rf->sg.masked ? "m%d.%s" : rf->sg.uni ? "u%d.%s" : "r%d.%s";
    int id = rl->r;
    if (rl->outer) { /* a chained copy's second region: its x loop only, named after the first */
        id = rl->outer->r;
        snprintf(name, sizeof name, "c%d.%d.x", id, rl->r);
        rl->xb = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        snprintf(name, sizeof name, "c%d.%d", id, rl->r);
        rg_new_region_copy(rf, rl, name);
        snprintf(name, sizeof name, "c%d.%d.latch", id, rl->r);
        rl->latch = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        return;
    }
#define BLOCK(var, what)                                                        \
    snprintf(name, sizeof name, fmt, id, what);                                 \
    rl->var = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name)
    BLOCK(zb, "z");
    BLOCK(yb, "y");
    if (rf->sg.uni) {
        BLOCK(sb, "sg");
    }
    BLOCK(xb, "x");
    snprintf(name, sizeof name, rf->sg.chained ? "c%d" : rf->sg.masked ? "m%d" : rf->sg.uni ? "u%d" : "r%d", rl->r);
    rg_new_region_copy(rf, rl, name);
    BLOCK(latch, "latch");
    if (rf->sg.uni) {
        BLOCK(slatch, "sg.latch");
    }
    BLOCK(ylatch, "y.latch");
    BLOCK(zlatch, "z.latch");
    BLOCK(done, "done");
#undef BLOCK
}

/* The z and y loops of a region's copy (from rl->pre), entering `inner` with
 * the linear id of the row's first work-item, which it returns. */
LLVMValueRef rg_open_z_y_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMBasicBlockRef inner)
{
    LLVMPositionBuilderAtEnd(b, rl->pre);
    LLVMBuildBr(b, rl->zb);
    LLVMPositionBuilderAtEnd(b, rl->zb);
    rl->z = LLVMBuildPhi(b, rf->i64, "lz");
    rl->mz = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    LLVMBuildBr(b, rl->yb);
    LLVMPositionBuilderAtEnd(b, rl->yb);
    rl->y = LLVMBuildPhi(b, rf->i64, "ly");
    rl->my = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    const LLVMValueRef *n = rf->frame.nxyz;
    LLVMValueRef zy = LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, rl->z, n[1], ""), rl->y, ""), n[0], "");
    LLVMBuildBr(b, inner);
    return zy;
}

/* The loop headers z, y, x (with the mask of next states when there are
 * several), the work-item's linear id and its copies of private variables;
 * then into the region's first block. */
static void open_work_item_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (rf->cut.sg_mode) {
        if (rl->outer)
            rg_open_chained_loop(rf, b, rl);
        else if (rf->sg.uni)
            rg_open_uniform_loops(rf, b, rl);
        else
            rg_open_sub_group_loops(rf, b, rl);
        return;
    }
    LLVMValueRef zy = rg_open_z_y_loops(rf, b, rl, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->x = LLVMBuildPhi(b, rf->i64, "lx");
    rl->mx = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->copy.lid[0] = rl->x, rf->copy.lid[1] = rl->y, rf->copy.lid[2] = rl->z;
    rf->copy.wi = LLVMBuildNUWAdd(b, zy, rl->x, "wi");
    rg_enter_region_code(rf, b, rl);
}

/* The work-item's copies of private variables, then into the region's first block. */
void rg_enter_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    for (int s = 0; s < rf->store.nslots; s++)
        if (!rf->store.slot_type[s]) {
            unsigned long long e = rf->store.soa[rf->store.slot_inst[s]];
            LLVMValueRef off = LLVMBuildNUWMul(b, rf->copy.wi, const64(rf, e ? e : rf->store.slot_stride[s]), "");
            rf->copy.vmap[rf->store.slot_inst[s]] =
                LLVMBuildInBoundsGEP2(b, rf->i8, rf->frame.slot_base[s], &off, 1, "");
        }
    if ((rf->cut.masked && rl->r && !rf->cut.sg_mode) || rg_guarded(rf, rl->r)) {
        /* the work-items waiting at another cut (or barrier: an active set's
         * copy) go through with their state */
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &rf->copy.wi, 1, "");
        LLVMValueRef st = LLVMBuildLoad2(b, rf->i32, p, "state");
        mark_parallel(rf, st);
        char name[32];
        snprintf(name, sizeof name, "r%d.waits", rl->r);
        LLVMBasicBlockRef waits = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st, LLVMConstInt(rf->i32, (unsigned)rl->r, 0), ""),
                        rf->copy.bmap[rl->order[0]], waits);
        LLVMPositionBuilderAtEnd(b, waits);
        LLVMBuildBr(b, rl->latch);
        MOSAIC_ASSERT(rf->copy.nexits == 0); /* the copy's first exit */
        rf->copy.exits[rf->copy.nexits++] = (rf_exit){waits, 0, st};
        return;
    }
    LLVMBuildBr(b, rf->copy.bmap[rl->order[0]]);
}

/* A state's bit in a mask of states: bit 0 returned, bits 1..63 barriers
 * (modulo 63 beyond that). */
LLVMValueRef rg_state_bit(region_fn *rf, LLVMBuilderRef b, LLVMValueRef state)
{
    LLVMValueRef pos = state;
    if (rf->cut.nbar >= 64) {
        LLVMValueRef m1 = LLVMBuildURem(b, LLVMBuildSub(b, state, LLVMConstInt(rf->i32, 1, 0), ""),
                                        LLVMConstInt(rf->i32, 63, 0), "");
        pos = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, state, LLVMConstInt(rf->i32, 0, 0), ""), state,
                              LLVMBuildAdd(b, m1, LLVMConstInt(rf->i32, 1, 0), ""), "");
    }
    return LLVMBuildShl(b, const64(rf, 1), LLVMBuildZExt(b, pos, rf->i64, ""), "");
}

/* The lowest state set in a mask of states, as an i32 (llvm.cttz.i64; a
 * mask known not to be 0 may say so, and 0 then gives poison). */
LLVMValueRef rg_lowest_state(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, bool never_zero, const char *name)
{
    LLVMTypeRef params[2] = {rf->i64, rf->i1};
    LLVMTypeRef ty = LLVMFunctionType(rf->i64, params, 2, 0);
    LLVMValueRef cttz = LLVMGetNamedFunction(rf->m, "llvm.cttz.i64");
    if (!cttz)
        cttz = LLVMAddFunction(rf->m, "llvm.cttz.i64", ty);
    LLVMValueRef args[2] = {mask, LLVMConstInt(rf->i1, never_zero, 0)};
    return LLVMBuildTrunc(b, LLVMBuildCall2(b, ty, cttz, args, 2, ""), rf->i32, name);
}

/* !llvm.loop of an x loop that runs one vector of `lanes` work-items (a
 * sub-group, or a row of region_versioning.c's copies): parallel, not
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
LLVMValueRef rg_one_vector_loop_md(region_fn *rf, unsigned lanes)
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

/* After a row: the y and z latches, and the incoming values of the z and y
 * loops' phis (and of their state masks when there are several states);
 * the row's own loops are the caller's. */
void rg_close_y_z_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rl->ylatch);
    /* (K.row of several rows at once: they divide the group's) */
    rl->yn = LLVMBuildNUWAdd(b, rl->y, const64(rf, rf->rows), "");
    LLVMValueRef ybr =
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->yn, rf->frame.nxyz[1], ""), rl->yb, rl->zlatch);
    if (rf->lanes > 1) /* rows of K.row: interleaved after optimisation (unroll_and_jam.c) */
        LLVMSetMetadata(ybr, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9), mc_row_loop_md(rf->c));
    LLVMPositionBuilderAtEnd(b, rl->zlatch);
    rl->zn = LLVMBuildNUWAdd(b, rl->z, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->zn, rf->frame.nxyz[2], ""), rl->zb, rl->done);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = rl->zn, from2[0] = rl->pre, from2[1] = rl->zlatch;
    LLVMAddIncoming(rl->z, in2, from2, 2);
    in2[0] = zero, in2[1] = rl->yn, from2[0] = rl->y_entry ? rl->y_entry : rl->zb, from2[1] = rl->ylatch;
    LLVMAddIncoming(rl->y, in2, from2, 2);
    if (gathers_mask(rf, rl)) {
        in2[0] = zero, in2[1] = rl->mask, from2[0] = rl->pre, from2[1] = rl->zlatch;
        LLVMAddIncoming(rl->mz, in2, from2, 2);
        in2[0] = rl->mz, in2[1] = rl->mask, from2[0] = rl->zb, from2[1] = rl->ylatch;
        LLVMAddIncoming(rl->my, in2, from2, 2);
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
        for (int e = 0; e < rf->copy.nexits; e++) {
            rf_exit *x = &rf->copy.exits[e];
            LLVMValueRef v = x->value ? x->value : LLVMConstInt(rf->i32, (unsigned)x->state, 0);
            LLVMAddIncoming(rl->next, &v, &x->block, 1);
        }
        if (gathers_mask(rf, rl))
            rl->mask = LLVMBuildOr(b, rl->mx, rg_state_bit(rf, b, rl->next), "");
    }
    if (rf->cut.sg_mode) {
        if (rl->outer)
            rg_close_chained_loop(rf, b, rl);
        else if (rf->sg.uni)
            rg_close_uniform_loops(rf, b, rl);
        else
            rg_close_sub_group_loops(rf, b, rl);
        return;
    }
    if (rf->cut.masked) {
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &rf->copy.wi, 1, "");
        mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    }
    rl->xn = LLVMBuildNUWAdd(b, rl->x, const64(rf, rf->lanes), "");
    LLVMValueRef xend = rl->xend ? rl->xend : rf->frame.nxyz[0];
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->xn, xend, ""), rl->xb, rl->ylatch);
    /* Not interleaved: a row of a group with barriers is usually 8 to 256
     * work-items, and the vectoriser's own choice (4 vectors of 16 floats a
     * pass) leaves a row under 64 to its narrower epilogue loop; one vector a
     * pass runs a 16-wide tile row in one (tiled SGEMM: 57 -> 47 ms, reduce
     * 12 -> 8 ms on one AMD core). */
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        rf->lanes > 1 ? mc_vectorised_loop_md(rf->c, rf->kb->access_group)
                                      : mc_parallel_loop_md(rf->c, rf->kb->access_group, 1));
    rg_close_y_z_loops(rf, b, rl);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = rl->xn, from2[0] = rl->yb, from2[1] = rl->latch;
    LLVMAddIncoming(rl->x, in2, from2, 2);
    if (gathers_mask(rf, rl)) {
        in2[0] = rl->my, in2[1] = rl->mask, from2[0] = rl->yb, from2[1] = rl->latch;
        LLVMAddIncoming(rl->mx, in2, from2, 2);
    }
}

/* `mask` holds a bit per state the work-items reached: two or more bits set
 * means they disagreed about a barrier, which the device is told of (when it
 * has __mosaic_barrier_divergence) in block PREFIX.diverged; the code goes
 * on in PREFIX.next. */
void rg_report_if_diverged(region_fn *rf, LLVMBuilderRef b, LLVMValueRef mask, const char *prefix)
{
    if (!rf->frame.report_fn)
        return;
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMValueRef split =
        LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mask, LLVMBuildSub(b, mask, one, ""), ""), zero, "diverged");
    char name[48];
    snprintf(name, sizeof name, "%s.diverged", prefix);
    LLVMBasicBlockRef rep = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    snprintf(name, sizeof name, "%s.next", prefix);
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    LLVMBuildCondBr(b, split, rep, cont);
    LLVMPositionBuilderAtEnd(b, rep);
    LLVMValueRef args[2] = {rf->frame.ctx, rf->frame.kernel_name};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(rf->frame.report_fn), rf->frame.report_fn, args, 2, "");
    LLVMBuildBr(b, cont);
    LLVMPositionBuilderAtEnd(b, cont);
}

/* Masked mode, after a region: the work-items waiting at divergent cuts go
 * first, in the schedule's order (region_uniform.c); then, as without cuts, all
 * must be at the same barrier or cut (else the divergence is reported, and
 * the group ends if any returned), or all returned. */
static void masked_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    for (int i = 0; i < rf->unif.nprio; i++) {
        int st = rf->unif.prio[i];
        char name[48];
        snprintf(name, sizeof name, "r%d.not%d", rl->r, st);
        LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        LLVMValueRef waiting = LLVMBuildAnd(b, rl->mask, const64(rf, 1ull << st), "");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, waiting, zero, ""), rf->frame.pre[st], no);
        LLVMPositionBuilderAtEnd(b, no);
    }
    char prefix[16];
    snprintf(prefix, sizeof prefix, "r%d", rl->r);
    rg_report_if_diverged(rf, b, rl->mask, prefix);
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, one, ""), zero, "");
    /* the lowest state waited at: the mask's lowest bit */
    LLVMValueRef lowest = rg_lowest_state(rf, b, rl->mask, false, "");
    LLVMValueRef next = LLVMBuildSelect(b, ended, LLVMConstInt(rf->i32, 0, 0), lowest, "");
    LLVMValueRef sw = LLVMBuildSwitch(b, next, rf->frame.exit, (unsigned)rf->cut.nreg);
    for (int st = 1; st < rf->cut.nreg; st++)
        if (rf->cut.reach[rf->cut.bar_block[st]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)st, 0), rf->frame.pre[st]);
}

/* After the loops: the next region (or K.wg's exit).  With several possible
 * states, two bits in the mask mean the work-items disagreed about the
 * barrier: undefined in OpenCL; reported, and the group ends if any
 * work-item returned. */
static void branch_to_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    LLVMPositionBuilderAtEnd(b, rl->done);
    if (rf->sg.uni) {
        rg_uniform_next_region(rf, b, rl);
        return;
    }
    if (rf->cut.nu) { /* the sub-group's work-items stored their states: it chooses again */
        LLVMBuildBr(b, rf->sg.sg_dispatch);
        return;
    }
    if (!rl->multi) {
        if (rf->cut.sg_mode)
            rg_sub_group_next_region(rf, b, rl, LLVMConstInt(rf->i32, (unsigned)rl->only, 0));
        else
            LLVMBuildBr(b, rl->only ? rf->frame.pre[rl->only] : rf->frame.exit);
        return;
    }
    if (rf->cut.masked) {
        masked_next_region(rf, b, rl);
        return;
    }
    char prefix[16];
    snprintf(prefix, sizeof prefix, "r%d", rl->r);
    rg_report_if_diverged(rf, b, rl->mask, prefix);
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, one, ""), zero, "");
    LLVMValueRef next = LLVMBuildSelect(b, ended, LLVMConstInt(rf->i32, 0, 0), rl->next, "");
    if (rf->cut.sg_mode) {
        rg_sub_group_next_region(rf, b, rl, next);
        return;
    }
    LLVMValueRef sw = LLVMBuildSwitch(b, next, rf->frame.exit, (unsigned)rl->nstates);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (rl->states[s])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->frame.pre[s]);
}

/* Region rl->r's blocks in order, and the states it may leave for. */
static cl_int plan_region(region_fn *rf, region_loop *rl)
{
    cl_int err = order_region_blocks(rf, rl);
    return err == CL_SUCCESS ? find_next_states(rf, rl) : err;
}

/* A region that runs once for the group (find_scalar_regions): its code,
 * as work-item 0's, straight from its start to the next region. */
cl_int rg_build_scalar_region(region_fn *rf, int r, LLVMBuilderRef b)
{
    region_loop rl = {.r = r, .order = rf->copy.order};
    cl_int err = plan_region(rf, &rl);
    if (err == CL_SUCCESS) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, "s%d", r);
        rg_new_region_copy(rf, &rl, prefix);
        rl.pre = rf->copy.cur_pre = rf->frame.pre[r];
        rf->copy.scalar = true;
        rf->copy.wi = rf->copy.lid[0] = rf->copy.lid[1] = rf->copy.lid[2] = const64(rf, 0);
        LLVMPositionBuilderAtEnd(b, rl.pre);
        LLVMBuildBr(b, rf->copy.bmap[rl.order[0]]);
        rg_copy_region_code(rf, b, &rl);
        rg_fill_region_phis(rf, b, &rl);
        rf->copy.scalar = false;
        err = rf_status(rf);
    }
    free(rl.states);
    return err;
}

/* Region rl->r's copy (planned) between its work-item loops; with
 * rl->chain, the x loop goes on to that region's for the same sub-group
 * (build_chained_region). */
static cl_int build_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    add_region_blocks(rf, rl);
    open_work_item_loops(rf, b, rl);
    rg_narrow_x_range(rf, b, rl);
    rg_copy_region_code(rf, b, rl);
    if (rl->narrowed_test) { /* every work-item the narrowed loop runs passes it: no masks */
        LLVMValueRef copy = rf->copy.vmap[pmap_get(&rf->ins.iidx, rl->narrowed_test)];
        if (copy && LLVMIsAInstruction(copy))
            LLVMReplaceAllUsesWith(copy, LLVMConstInt(LLVMInt1TypeInContext(rf->c), 1, 0));
    }
    rg_fill_region_phis(rf, b, rl);
    cl_int err = rf_status(rf); /* copying gives up on what it cannot map */
    if (err == CL_SUCCESS && !rl->outer)
        err = rg_add_vector_rows(rf, b, rl);
    if (err == CL_SUCCESS)
        close_work_item_loops(rf, b, rl);
    return err;
}

/* Active sets: the chained masked copy of region r (region_active_sets.c),
 * from rf->sg.chain_pre: r's masked code for a sub-group, then region t's
 * for it, then the next sub-group; then on from where t's work-items went,
 * as after t's own masked copy (without r's and t's states). */
static cl_int build_chained_region(region_fn *rf, LLVMBuilderRef b, int r, int t)
{
    region_loop rl = {.r = r, .order = rf->copy.order, .chain = t, .pre = rf->sg.chain_pre};
    region_loop then = {.r = t, .order = rf->copy.order, .outer = &rl};
    cl_int err = plan_region(rf, &rl);
    if (err == CL_SUCCESS) {
        char name[32];
        snprintf(name, sizeof name, "c%d.then", r);
        then.pre = rl.xexit = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        err = build_loops(rf, b, &rl);
    }
    if (err == CL_SUCCESS)
        err = plan_region(rf, &then);
    if (err == CL_SUCCESS)
        err = build_loops(rf, b, &then);
    if (err == CL_SUCCESS) {
        /* (t's latch runs for every sub-group: its next state reaches the end) */
        unsigned char *states = rl.states;
        rl.states = then.states, then.states = states;
        rl.nstates = then.nstates, rl.only = then.only, rl.next = then.next;
        branch_to_next_region(rf, b, &rl);
    }
    free(rl.states);
    free(then.states);
    return err;
}

/* Region r in K.wg: its code copied between the z, y, x loops over the
 * work-group, then the next region.  A masked copy that can run the next
 * active set in the same pass gets a chained copy too, which replaces it
 * where no other active set can ever go first. */
cl_int rg_build_region(region_fn *rf, int r, LLVMBuilderRef b)
{
    region_loop rl = {.r = r, .order = rf->copy.order};
    cl_int err = plan_region(rf, &rl);
    bool always = false;
    int t = err == CL_SUCCESS ? rg_chain_target(rf, &rl, &always) : 0;
    if (t && always) {
        rf->sg.chain_pre = rf->sg.mpre[r];
    } else if (t) {
        char name[32];
        snprintf(name, sizeof name, "c%d", r);
        rf->sg.chain_pre = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        snprintf(name, sizeof name, "m%d.plain", r);
        rl.pre = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
        rl.chain = t;
        rg_choose_chained_copy(rf, b, &rl, rl.pre);
        rl.chain = 0;
    }
    if (err == CL_SUCCESS && !(t && always)) {
        err = build_loops(rf, b, &rl);
        if (err == CL_SUCCESS)
            branch_to_next_region(rf, b, &rl);
    }
    free(rl.states);
    if (err == CL_SUCCESS && t) {
        rf->sg.chained = true;
        err = build_chained_region(rf, b, r, t);
        rf->sg.chained = false;
    }
    return err;
}
