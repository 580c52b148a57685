/*
 * Sub-group mode (regions.c's top comment): a kernel with sub-group
 * barriers.  Each region has a uniform copy, the whole group in work-item
 * loops whose innermost loop runs one sub-group (a constant trip count the
 * vectoriser makes one vector iteration: a sub-group is a SIMD vector of
 * work-items), and a fallback copy that runs one sub-group at a time, in
 * phases: a state machine per sub-group inside the group's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/workgroup/regions_internal.h"

/* Sub-group mode: the work-items of sub-group rf->sg.sg_var, linear ids [lo, hi),
 * as rows of consecutive x (a row loop, then the x loop). */
void rg_open_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMPositionBuilderAtEnd(b, rl->pre);
    LLVMValueRef sg = LLVMBuildLoad2(b, rf->i64, rf->sg.sg_var, "sg");
    LLVMValueRef first[3];
    for (int d = 0; d < 3; d++)
        first[d] = LLVMBuildLoad2(b, rf->i64, rf->sg.sgxyz_var[d], "");
    LLVMValueRef lo = rf->sg.sg_lo = LLVMBuildNUWMul(b, sg, const64(rf, MOSAIC_SUB_GROUP_SIZE), "sg.lo");
    LLVMValueRef end = LLVMBuildNUWAdd(b, lo, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    rl->hi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, end, rf->sg.nitems, ""), end, rf->sg.nitems, "sg.hi");
    /* after a non-uniform barrier: those of its members waiting at it */
    rf->copy.active = rf->cut.nu && rf->cut.bar_nu[rl->r]
                          ? rg_active_mask(rf, b, lo, LLVMBuildNUWSub(b, rl->hi, lo, ""), rl->r)
                          : NULL;
    LLVMBuildBr(b, rl->zb);
    LLVMPositionBuilderAtEnd(b, rl->zb);
    rl->l = LLVMBuildPhi(b, rf->i64, "row");
    rl->mz = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    /* the row's first (x, y, z): the sub-group's first work-item's, then the next rows' */
    LLVMValueRef zero = const64(rf, 0);
    LLVMValueRef x0 = rl->x0 = LLVMBuildPhi(b, rf->i64, "row.x");
    rl->y = LLVMBuildPhi(b, rf->i64, "ly");
    rl->z = LLVMBuildPhi(b, rf->i64, "lz");
    LLVMValueRef want = LLVMBuildNUWAdd(b, x0, LLVMBuildNUWSub(b, rl->hi, rl->l, ""), "");
    LLVMValueRef nx = rf->frame.nxyz[0];
    rl->xe = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, want, nx, ""), want, nx, "row.end");
    rl->base = LLVMBuildNUWSub(b, rl->l, x0, "");
    LLVMBuildBr(b, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->x = LLVMBuildPhi(b, rf->i64, "lx");
    rl->mx = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->copy.lid[0] = rl->x, rf->copy.lid[1] = rl->y, rf->copy.lid[2] = rl->z;
    rf->copy.wi = LLVMBuildNUWAdd(b, rl->base, rl->x, "wi");
    LLVMValueRef in2[2] = {x0, NULL};
    LLVMBasicBlockRef from2[2] = {rl->zb, NULL};
    LLVMAddIncoming(rl->x, in2, from2, 1);
    if (gathers_mask(rf, rl))
        LLVMAddIncoming(rl->mx, &rl->mz, &rl->zb, 1);
    in2[0] = lo;
    from2[0] = rl->pre;
    LLVMAddIncoming(rl->l, in2, from2, 1);
    LLVMAddIncoming(rl->x0, &first[0], &rl->pre, 1);
    LLVMAddIncoming(rl->y, &first[1], &rl->pre, 1);
    LLVMAddIncoming(rl->z, &first[2], &rl->pre, 1);
    if (gathers_mask(rf, rl))
        LLVMAddIncoming(rl->mz, &zero, &rl->pre, 1);
    LLVMPositionBuilderAtEnd(b, rl->yb); /* unused in this mode */
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rg_enter_region_code(rf, b, rl);
}

/* Uniform copy: z, y, then the row's sub-groups (x size a multiple of S, so
 * a sub-group is S consecutive x of one row), then its S work-items: a loop
 * with a constant trip count, which the vectoriser turns into one vector
 * iteration, with the sub-group's first linear id invariant in it. */
void rg_open_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zy = rg_open_z_y_loops(rf, b, rl, rl->sb);
    LLVMPositionBuilderAtEnd(b, rl->sb);
    rl->xs = LLVMBuildPhi(b, rf->i64, "sg.x");
    rl->ms = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rf->sg.sg_lo = LLVMBuildNUWAdd(b, zy, rl->xs, "sg.lo");
    /* every sub-group is whole here: tells the optimiser get_sub_group_size()
     * (the builtin's min(S, items - first)) is S */
    LLVMTypeRef assume_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), &rf->i1, 1, 0);
    LLVMValueRef assume = LLVMGetNamedFunction(rf->m, "llvm.assume");
    if (!assume)
        assume = LLVMAddFunction(rf->m, "llvm.assume", assume_ty);
    LLVMValueRef whole = LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, rf->sg.nitems, rf->sg.sg_lo, ""),
                                       const64(rf, MOSAIC_SUB_GROUP_SIZE), "sg.whole");
    LLVMBuildCall2(b, assume_ty, assume, &whole, 1, "");
    /* after a non-uniform barrier: the whole sub-group, or in the masked
     * copy those of its members waiting at it */
    rf->copy.active = NULL;
    if (rf->cut.nu && rf->cut.bar_nu[rl->r])
        rf->copy.active = rf->sg.masked ? rg_active_mask(rf, b, rf->sg.sg_lo, NULL, rl->r)
                                        : LLVMConstInt(rf->i32, (1u << MOSAIC_SUB_GROUP_SIZE) - 1, 0);
    LLVMBuildBr(b, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->i = LLVMBuildPhi(b, rf->i64, "sg.lid");
    rl->mx = gathers_mask(rf, rl) ? LLVMBuildPhi(b, rf->i64, "") : NULL;
    rl->x = LLVMBuildNUWAdd(b, rl->xs, rl->i, "lx");
    rf->copy.lid[0] = rl->x, rf->copy.lid[1] = rl->y, rf->copy.lid[2] = rl->z;
    rf->copy.wi = LLVMBuildNUWAdd(b, rf->sg.sg_lo, rl->i, "wi");
    rg_enter_region_code(rf, b, rl);
}

/* A chained masked copy's second region (region_active_sets.c): an x loop
 * of S work-items, of the sub-group the first region's loop just ran (its
 * row, its first linear id), its active mask from the states that loop
 * left. */
void rg_open_chained_loop(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    const region_loop *outer = rl->outer;
    LLVMPositionBuilderAtEnd(b, rl->pre);
    rf->copy.active = rf->cut.bar_nu[rl->r] ? rg_active_mask(rf, b, rf->sg.sg_lo, NULL, rl->r) : NULL;
    LLVMBuildBr(b, rl->xb);
    LLVMPositionBuilderAtEnd(b, rl->xb);
    rl->xs = outer->xs, rl->y = outer->y, rl->z = outer->z;
    rl->i = LLVMBuildPhi(b, rf->i64, "sg.lid");
    rl->x = LLVMBuildNUWAdd(b, rl->xs, rl->i, "lx");
    rf->copy.lid[0] = rl->x, rf->copy.lid[1] = rl->y, rf->copy.lid[2] = rl->z;
    rf->copy.wi = LLVMBuildNUWAdd(b, rf->sg.sg_lo, rl->i, "wi");
    rg_enter_region_code(rf, b, rl);
}

/* ... its latch: the work-item's state kept, the next work-item, then the
 * first region's next sub-group. */
void rg_close_chained_loop(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &rf->copy.wi, 1, "");
    mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    LLVMValueRef in = LLVMBuildNUWAdd(b, rl->i, const64(rf, 1), "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, in, const64(rf, MOSAIC_SUB_GROUP_SIZE), ""),
                                      rl->xb, rl->outer->slatch);
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        rg_one_vector_loop_md(rf, MOSAIC_SUB_GROUP_SIZE));
    LLVMValueRef in2[2] = {const64(rf, 0), in};
    LLVMBasicBlockRef from2[2] = {rl->pre, rl->latch};
    LLVMAddIncoming(rl->i, in2, from2, 2);
}

/* Sub-group mode's latches: the next x in the row, then the next row. */
void rg_close_sub_group_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (rf->cut.nu) { /* the sub-group's dispatch chooses its next active set from them */
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &rf->copy.wi, 1, "");
        mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    }
    rl->xn = LLVMBuildNUWAdd(b, rl->x, const64(rf, 1), "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, rl->xn, rl->xe, ""), rl->xb, rl->ylatch);
    if (rf->kb->access_group) /* not interleaved: it runs at most one sub-group */
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        mc_parallel_loop_md(rf->c, rf->kb->access_group, 1));
    LLVMAddIncoming(rl->x, &rl->xn, &rl->latch, 1);
    if (gathers_mask(rf, rl))
        LLVMAddIncoming(rl->mx, &rl->mask, &rl->latch, 1);
    LLVMPositionBuilderAtEnd(b, rl->ylatch);
    LLVMValueRef ln = LLVMBuildNUWAdd(b, rl->base, rl->xe, "");
    LLVMValueRef yn = LLVMBuildNUWAdd(b, rl->y, const64(rf, 1), "");
    LLVMValueRef wrap = LLVMBuildICmp(b, LLVMIntEQ, yn, rf->frame.nxyz[1], "");
    LLVMValueRef zero = const64(rf, 0);
    LLVMValueRef y2 = LLVMBuildSelect(b, wrap, zero, yn, "");
    LLVMValueRef z2 = LLVMBuildSelect(b, wrap, LLVMBuildNUWAdd(b, rl->z, const64(rf, 1), ""), rl->z, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, ln, rl->hi, ""), rl->zb, rl->done);
    LLVMAddIncoming(rl->l, &ln, &rl->ylatch, 1);
    LLVMAddIncoming(rl->x0, &zero, &rl->ylatch, 1);
    LLVMAddIncoming(rl->y, &y2, &rl->ylatch, 1);
    LLVMAddIncoming(rl->z, &z2, &rl->ylatch, 1);
    if (gathers_mask(rf, rl))
        LLVMAddIncoming(rl->mz, &rl->mask, &rl->ylatch, 1);
    LLVMPositionBuilderAtEnd(b, rl->zlatch); /* unused in this mode */
    LLVMBuildUnreachable(b);
}

/* Uniform copy's latches: the next work-item of the sub-group (S of them),
 * the next sub-group of the row, the next y and z.  With several next
 * states, each work-item's is kept (the fallback reads it). */
void rg_close_uniform_loops(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    if (rl->multi) {
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &rf->copy.wi, 1, "");
        mark_parallel(rf, LLVMBuildStore(b, rl->next, p));
    }
    LLVMValueRef in = LLVMBuildNUWAdd(b, rl->i, one, "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, in, const64(rf, MOSAIC_SUB_GROUP_SIZE), ""),
                                      rl->xb, rl->xexit ? rl->xexit : rl->slatch);
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9),
                        rg_one_vector_loop_md(rf, MOSAIC_SUB_GROUP_SIZE));
    LLVMPositionBuilderAtEnd(b, rl->slatch);
    LLVMValueRef xsn = LLVMBuildNUWAdd(b, rl->xs, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xsn, rf->frame.nxyz[0], ""), rl->sb, rl->ylatch);
    rg_close_y_z_loops(rf, b, rl);
    LLVMValueRef in2[2];
    LLVMBasicBlockRef from2[2];
    in2[0] = zero, in2[1] = xsn, from2[0] = rl->yb, from2[1] = rl->slatch;
    LLVMAddIncoming(rl->xs, in2, from2, 2);
    in2[0] = zero, in2[1] = in, from2[0] = rl->sb, from2[1] = rl->latch;
    LLVMAddIncoming(rl->i, in2, from2, 2);
    if (gathers_mask(rf, rl)) {
        in2[0] = rl->my, in2[1] = rl->mask, from2[0] = rl->yb, from2[1] = rl->slatch;
        LLVMAddIncoming(rl->ms, in2, from2, 2);
        in2[0] = rl->ms, in2[1] = rl->mask, from2[0] = rl->sb, from2[1] = rl->latch;
        LLVMAddIncoming(rl->mx, in2, from2, 2);
    }
}

/* The mask of the states (rg_state_bit) the group's work-items were left in:
 * a loop of its own over the states array, which the vectoriser makes a
 * vector OR reduction (gathered in the region's loops, the OR is reduced
 * across the vector after each sub-group, a chain of shuffles every
 * sub-group waits for).  With at most 32 states the bits are OR-ed as
 * 32-bit words, twice the states a vector of 64-bit ones holds. */
static LLVMValueRef states_mask(region_fn *rf, LLVMBuilderRef b, const char *prefix)
{
    char name[48];
    LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
    snprintf(name, sizeof name, "%.32s.states", prefix);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    snprintf(name, sizeof name, "%.32s.states.done", prefix);
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    bool narrow = rf->cut.nreg <= 32;
    LLVMTypeRef word = narrow ? rf->i32 : rf->i64;
    LLVMValueRef i = LLVMBuildPhi(b, rf->i64, ""), m = LLVMBuildPhi(b, word, "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &i, 1, "");
    LLVMValueRef st = LLVMBuildLoad2(b, rf->i32, p, "");
    LLVMValueRef bit = narrow ? LLVMBuildShl(b, LLVMConstInt(rf->i32, 1, 0), st, "") : rg_state_bit(rf, b, st);
    LLVMValueRef m2 = LLVMBuildOr(b, m, bit, "states.mask");
    LLVMValueRef i2 = LLVMBuildNUWAdd(b, i, const64(rf, 1), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i2, rf->sg.nitems, ""), loop, done);
    LLVMValueRef iv[2] = {const64(rf, 0), i2}, mv[2] = {LLVMConstInt(word, 0, 0), m2};
    LLVMBasicBlockRef bb[2] = {from, loop};
    LLVMAddIncoming(i, iv, bb, 2);
    LLVMAddIncoming(m, mv, bb, 2);
    LLVMPositionBuilderAtEnd(b, done);
    return narrow ? LLVMBuildZExt(b, m2, rf->i64, "states.mask.all") : m2;
}

/* After a masked copy of region r that leaves for one state only: the mask
 * of states without a loop.  Its work-items were those waiting at r (some
 * were: r was chosen from the mask), all of them now at rl->only, and the
 * others kept their states, so the mask is the one before without r, with
 * rl->only.  (A chained copy: without r and rl->chain, whose work-items,
 * with r's, all went on to rl->only.) */
static LLVMValueRef masked_copy_states_mask(region_fn *rf, LLVMBuilderRef b, const region_loop *rl)
{
    MOSAIC_ASSERT(rf->sg.masked && rl->nstates == 1 && rl->only >= 0);
    LLVMValueRef before = LLVMBuildLoad2(b, rf->i64, rf->sg.smask_var, "states.before");
    LLVMValueRef left = rg_state_bit(rf, b, LLVMConstInt(rf->i32, (unsigned)rl->r, 0));
    if (rl->chain)
        left = LLVMBuildOr(b, left, rg_state_bit(rf, b, LLVMConstInt(rf->i32, (unsigned)rl->chain, 0)), "");
    LLVMValueRef reached = rg_state_bit(rf, b, LLVMConstInt(rf->i32, (unsigned)rl->only, 0));
    LLVMValueRef kept = LLVMBuildAnd(b, before, LLVMBuildNot(b, left, ""), "");
    return LLVMBuildOr(b, kept, reached, "states.mask");
}

/* Uniform copy, after the group ran it: when every work-item reached the
 * same barrier (of either kind), on to its region's uniform copy, as without
 * sub-groups; else the fallback runs each sub-group from where its
 * work-items stopped (their states were kept), one at a time. */
void rg_uniform_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (!rl->multi) {
        LLVMBuildBr(b, rl->only ? rf->sg.upre[rl->only] : rf->frame.exit);
        return;
    }
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1);
    char prefix[16], name[48];
    snprintf(prefix, sizeof prefix, rf->sg.chained ? "c%d" : rf->sg.masked ? "m%d" : "u%d", rl->r);
    rl->mask = rf->sg.masked && rl->nstates == 1 ? masked_copy_states_mask(rf, b, rl) : states_mask(rf, b, prefix);
    if (rf->cut.nu) /* for the masked copies this may lead to */
        LLVMBuildStore(b, rl->mask, rf->sg.smask_var);
    LLVMValueRef split = LLVMBuildICmp(
        b, LLVMIntNE, LLVMBuildAnd(b, rl->mask, LLVMBuildSub(b, rl->mask, one, ""), ""), zero, "split");
    snprintf(name, sizeof name, "%s.next", prefix);
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    snprintf(name, sizeof name, "%s.split", prefix);
    LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    LLVMBuildCondBr(b, split, other, cont);
    LLVMPositionBuilderAtEnd(b, other);
    if (rf->cut.nu) /* an active set waiting at a non-uniform barrier goes first */
        rg_active_sets_first(rf, b, rl->mask, rf->sg.mpre, prefix);
    LLVMBuildBr(b, rf->sg.fallback);
    LLVMPositionBuilderAtEnd(b, cont);
    LLVMValueRef sw = LLVMBuildSwitch(b, rl->next, rf->frame.exit, (unsigned)rl->nstates);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (rl->states[s])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->sg.upre[s]);
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
    LLVMValueRef sw = LLVMBuildSwitch(b, next, stop, (unsigned)rf->cut.nreg);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (rf->cut.bar_sub[s] && (rl ? rl->states[s] != 0 : rf->cut.reach[rf->cut.bar_block[s]] != 0))
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->frame.pre[s]);
    LLVMPositionBuilderAtEnd(b, stop);
    LLVMValueRef mask = LLVMBuildLoad2(b, rf->i64, rf->sg.pmask_var, "");
    LLVMBuildStore(b, LLVMBuildOr(b, mask, rg_state_bit(rf, b, next), ""), rf->sg.pmask_var);
    LLVMBuildStore(b, next, rf->sg.pnext_var);
    LLVMBuildBr(b, rf->sg.sg_end);
}

void rg_sub_group_next_region(region_fn *rf, LLVMBuilderRef b, region_loop *rl, LLVMValueRef next)
{
    char name[48];
    snprintf(name, sizeof name, "r%d.stop", rl->r);
    continue_or_stop(rf, b, rl, next, LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name));
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
    LLVMPositionBuilderAtEnd(b, rf->sg.fallback);
    LLVMBuildStore(b, LLVMConstInt(rf->i32, PHASE_DISPATCH, 0), rf->sg.phase_var);
    LLVMBuildStore(b, zero, rf->sg.sg_var);
    LLVMBuildStore(b, zero, rf->sg.pmask_var);
    for (int d = 0; d < 3; d++)
        LLVMBuildStore(b, zero, rf->sg.sgxyz_var[d]);
    LLVMBuildBr(b, rf->sg.sg_start);

    LLVMPositionBuilderAtEnd(b, rf->sg.sg_dispatch);
    LLVMValueRef lo = LLVMBuildNUWMul(b, LLVMBuildLoad2(b, rf->i64, rf->sg.sg_var, ""),
                                      const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMValueRef end = LLVMBuildNUWAdd(b, lo, const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMValueRef hi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, end, rf->sg.nitems, ""), end, rf->sg.nitems, "");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.dispatch.loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.dispatch.done");
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.dispatch.stop");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, rf->i64, ""), m = LLVMBuildPhi(b, rf->i64, "");
    LLVMValueRef st_ptr = LLVMBuildInBoundsGEP2(b, rf->i32, rf->frame.state_base, &i, 1, "");
    LLVMValueRef st = LLVMBuildLoad2(b, rf->i32, st_ptr, "");
    LLVMValueRef m2 = LLVMBuildOr(b, m, rg_state_bit(rf, b, st), "");
    LLVMValueRef i2 = LLVMBuildNUWAdd(b, i, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i2, hi, ""), loop, done);
    LLVMBasicBlockRef from[2] = {rf->sg.sg_dispatch, loop};
    LLVMValueRef iv[2] = {lo, i2}, mv[2] = {zero, m2};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(m, mv, from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    if (rf->cut.nu) /* an active set waiting at a non-uniform barrier goes first */
        rg_active_sets_first(rf, b, m2, rf->frame.pre, "sg.dispatch");
    rg_report_if_diverged(rf, b, m2, "sg.dispatch");
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
    LLVMPositionBuilderAtEnd(b, rf->sg.sg_start);
    LLVMValueRef phase = LLVMBuildLoad2(b, rf->i32, rf->sg.phase_var, "phase");
    LLVMValueRef sw = LLVMBuildSwitch(b, phase, rf->frame.pre[0], (unsigned)rf->cut.nreg);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (!rf->cut.bar_sub[s] && rf->cut.reach[rf->cut.bar_block[s]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->frame.pre[s]);
    LLVMAddCase(sw, LLVMConstInt(rf->i32, PHASE_DISPATCH, 0), rf->sg.sg_dispatch);
    build_fallback(rf, b);

    LLVMPositionBuilderAtEnd(b, rf->sg.sg_end);
    LLVMValueRef sg = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sg.sg_var, ""), one, "sg.next");
    LLVMBuildStore(b, sg, rf->sg.sg_var);
    LLVMBasicBlockRef phase_end = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "phase.end");
    LLVMBasicBlockRef advance = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.advance");
    LLVMBasicBlockRef wrap = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.wrap");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, sg, rf->sg.nsg, ""), advance, phase_end);
    /* the next sub-group's first work-item: x + S, carried into y and z (a loop
     * only when a row is shorter than a sub-group) */
    LLVMPositionBuilderAtEnd(b, advance);
    LLVMValueRef x = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sg.sgxyz_var[0], ""),
                                     const64(rf, MOSAIC_SUB_GROUP_SIZE), "");
    LLVMBuildStore(b, x, rf->sg.sgxyz_var[0]);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, x, rf->frame.nxyz[0], ""), wrap, rf->sg.sg_start);
    LLVMPositionBuilderAtEnd(b, wrap);
    LLVMValueRef wx = LLVMBuildLoad2(b, rf->i64, rf->sg.sgxyz_var[0], "");
    LLVMValueRef wy = LLVMBuildNUWAdd(b, LLVMBuildLoad2(b, rf->i64, rf->sg.sgxyz_var[1], ""), one, "");
    LLVMValueRef wz = LLVMBuildLoad2(b, rf->i64, rf->sg.sgxyz_var[2], "");
    LLVMValueRef yw = LLVMBuildICmp(b, LLVMIntEQ, wy, rf->frame.nxyz[1], "");
    wx = LLVMBuildNUWSub(b, wx, rf->frame.nxyz[0], "");
    LLVMBuildStore(b, wx, rf->sg.sgxyz_var[0]);
    LLVMBuildStore(b, LLVMBuildSelect(b, yw, zero, wy, ""), rf->sg.sgxyz_var[1]);
    LLVMBuildStore(b, LLVMBuildSelect(b, yw, LLVMBuildNUWAdd(b, wz, one, ""), wz, ""), rf->sg.sgxyz_var[2]);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, wx, rf->frame.nxyz[0], ""), wrap, rf->sg.sg_start);
    LLVMPositionBuilderAtEnd(b, phase_end);
    LLVMValueRef mask = LLVMBuildLoad2(b, rf->i64, rf->sg.pmask_var, "phase.mask");
    rg_report_if_diverged(rf, b, mask, "phase");
    LLVMValueRef ended = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mask, one, ""), zero, "");
    LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "phase.again");
    LLVMBuildCondBr(b, ended, rf->frame.exit, again);
    LLVMPositionBuilderAtEnd(b, again);
    LLVMValueRef pnext = LLVMBuildLoad2(b, rf->i32, rf->sg.pnext_var, "");
    LLVMBuildStore(b, pnext, rf->sg.phase_var);
    LLVMBuildStore(b, zero, rf->sg.sg_var);
    LLVMBuildStore(b, zero, rf->sg.pmask_var);
    for (int d = 0; d < 3; d++)
        LLVMBuildStore(b, zero, rf->sg.sgxyz_var[d]);
    /* the next phase: uniform again when it can be */
    LLVMBasicBlockRef uni = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "phase.uniform");
    LLVMBuildCondBr(b, rf->sg.uni_ok, uni, rf->sg.sg_start);
    LLVMPositionBuilderAtEnd(b, uni);
    sw = LLVMBuildSwitch(b, pnext, rf->sg.upre[0], (unsigned)rf->cut.nreg);
    for (int s = 1; s < rf->cut.nreg; s++)
        if (!rf->cut.bar_sub[s] && rf->cut.reach[rf->cut.bar_block[s]])
            LLVMAddCase(sw, LLVMConstInt(rf->i32, (unsigned)s, 0), rf->sg.upre[s]);
}

/* K.wg's entry, first: the state of the phases, in allocas of the entry
 * block (promoted to registers by the optimiser), and the blocks around
 * the regions. */
void rg_sub_group_allocas(region_fn *rf, LLVMBuilderRef b)
{
    rf->sg.sg_var = LLVMBuildAlloca(b, rf->i64, "sg.var");
    rf->sg.pmask_var = LLVMBuildAlloca(b, rf->i64, "phase.mask.var");
    rf->sg.phase_var = LLVMBuildAlloca(b, rf->i32, "phase.var");
    rf->sg.pnext_var = LLVMBuildAlloca(b, rf->i32, "phase.next.var");
    rf->sg.smask_var = rf->cut.nu ? LLVMBuildAlloca(b, rf->i64, "states.mask.var") : NULL;
    for (int d = 0; d < 3; d++)
        rf->sg.sgxyz_var[d] = LLVMBuildAlloca(b, rf->i64, "sg.first.var");
    rf->sg.sg_start = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.start");
    rf->sg.sg_end = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.end");
    rf->sg.fallback = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.fallback");
    rf->sg.sg_dispatch = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "sg.dispatch");
}

/* K.wg's entry, last: the group's work-items and sub-groups, phase 0 from
 * the first sub-group, and into region 0's uniform copy when the group's
 * rows are whole sub-groups, else into the fallback. */
void rg_start_sub_groups(region_fn *rf, LLVMBuilderRef b)
{
    const region_frame *f = &rf->frame;
    LLVMValueRef zero = const64(rf, 0);
    rf->sg.nitems = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, f->nxyz[0], f->nxyz[1], ""), f->nxyz[2], "items");
    rf->sg.nsg = LLVMBuildUDiv(b, LLVMBuildNUWAdd(b, rf->sg.nitems, const64(rf, MOSAIC_SUB_GROUP_SIZE - 1), ""),
                               const64(rf, MOSAIC_SUB_GROUP_SIZE), "sub_groups");
    LLVMBuildStore(b, zero, rf->sg.sg_var);
    LLVMBuildStore(b, zero, rf->sg.pmask_var);
    for (int d = 0; d < 3; d++)
        LLVMBuildStore(b, zero, rf->sg.sgxyz_var[d]);
    LLVMBuildStore(b, LLVMConstInt(rf->i32, 0, 0), rf->sg.phase_var);
    LLVMBuildStore(b, LLVMConstInt(rf->i32, 0, 0), rf->sg.pnext_var);
    /* uniform copies when a row is whole sub-groups, else one sub-group at a time */
    rf->sg.uni_ok = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, f->nxyz[0], const64(rf, MOSAIC_SUB_GROUP_SIZE - 1), ""),
                                  const64(rf, 0), "uniform");
    LLVMBuildCondBr(b, rf->sg.uni_ok, rf->sg.upre[0], rf->sg.sg_start);
    build_sub_group_phases(rf, b);
}
