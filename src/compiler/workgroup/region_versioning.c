/*
 * Loop versioning of a region's work-item loops: specialised copies that
 * K.wg chooses between at run time by the group's shape.
 *  - Rows of 8 and 16 work-items: another copy of the region whose x loop
 *    has that constant trip count (versioning on the row length).
 *  - A narrowed x range: a region that starts with "if (lx < u)" runs its
 *    x loop to min(size, u) only (specialising the loop's bound, as
 *    index-set splitting does).
 * K.row (wfv.c: a kernel's widened rows, rf->lanes work-items per pass of
 * the x loop) is the other per-row variant; its regions are built by the
 * same steps (lane_vector, regions_internal.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/workgroup/regions_internal.h"

/* Is block x of K.body nothing but what a work-item leaving the region does:
 * its barrier (or return), no other code? */
static bool only_leaves(region_fn *rf, int x)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(rf->cut.bbs[x]); i; i = LLVMGetNextInstruction(i)) {
        int k = pmap_get(&rf->ins.iidx, i);
        if (rf->ins.kind[k] == K_SKIP)
            continue;
        if (!LLVMIsATerminatorInst(i))
            return false;
        return rf->cut.bar_of_block[x] || LLVMGetInstructionOpcode(i) == LLVMRet;
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
        return (unsigned)p < rf->nparams - 4 ? rf->frame.vals[p] : NULL;
    int k = LLVMIsAInstruction(v) ? pmap_get(&rf->ins.iidx, v) : -1;
    if (k < 0)
        return NULL;
    if (rf->ins.kind[k] == K_HOIST)
        return rf->frame.gmap[k];
    if (rf->live.demote[k] && rf->unif.uniform_def[k] && rg_reached_without_def(rf, rf->live.live_index[k], r, b) &&
        !rg_def_reaches(rf, rf->live.live_index[k], r, b))
        return rg_reload_uniform(rf, k);
    return NULL;
}

/* A region whose code starts with "if (get_local_id(0) < u)", u uniform and
 * known before the loops, where the other work-items only leave the region
 * (a tree reduction's "if (l < s)"; "== 0" is "< 1"): its x loops stop at
 * min(size, u), and
 * the region is skipped when that is 0.  Single-state regions only (the
 * skipped work-items' state is the one the others reach), not in masked or
 * sub-group mode (every work-item's state is kept there). */
void rg_narrow_x_range(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (rl->multi || rf->cut.masked || rf->cut.sg_mode || rf->lanes > 1)
        return;
    int x = rl->order[0];
    for (int hops = 0; hops < 4; hops++) { /* through blocks of nothing but a branch */
        LLVMValueRef first = NULL;
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->cut.bbs[x]); i && !first; i = LLVMGetNextInstruction(i))
            if (rf->ins.kind[pmap_get(&rf->ins.iidx, i)] != K_SKIP)
                first = i;
        if (!first || !LLVMIsABranchInst(first) || LLVMIsConditional(first) || rf->cut.bar_of_block[x] ||
            rf->cut.nsucc[x] != 1)
            break;
        x = rf->cut.succ[x][0];
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(rf->cut.bbs[x]);
    if (!rf->cut.inreg[rl->r][x] || rf->cut.bar_of_block[x] || !LLVMIsABranchInst(term) || !LLVMIsConditional(term))
        return;
    LLVMValueRef cond = LLVMGetCondition(term);
    if (!LLVMIsAICmpInst(cond) || LLVMGetInstructionParent(cond) != rf->cut.bbs[x])
        return;
    for (LLVMValueRef i = LLVMGetFirstInstruction(rf->cut.bbs[x]); i != term; i = LLVMGetNextInstruction(i))
        if (i != cond && rf->ins.kind[pmap_get(&rf->ins.iidx, i)] != K_SKIP)
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
    LLVMValueRef nx = rf->frame.nxyz[0];
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

/* Does region rl have a loop (a back edge among its blocks, in the
 * region's order: not cfg.h's loops, as a region may start inside one of
 * K.body's) with a floating-point phi at its header? */
static bool carries_fp_chain(region_fn *rf, region_loop *rl)
{
    int *pos = rg_region_positions(rf, rl);
    if (!pos)
        return false;
    bool found = false;
    for (int i = 0; i < rl->n && !found; i++) {
        LLVMBasicBlockRef bb = rf->cut.bbs[rl->order[i]];
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
    return !rl->multi && !rf->cut.masked && !rf->cut.sg_mode && !rf->sg.uni && !rl->xend && !rf->copy.scalar &&
           rf->lanes == 1 && carries_fp_chain(rf, rl);
}

/* A test of the group's row length and, when it is `w`, a y loop of its
 * own whose x loop runs w work-items (another copy of the region's code),
 * going on to the next z; `otherwise` where the test sends other lengths.
 * Returns the test's block. */
static LLVMBasicBlockRef build_vector_rows(region_fn *rf, LLVMBuilderRef b, region_loop *rl, unsigned w,
                                           LLVMBasicBlockRef otherwise)
{
    char name[48];
#define BLOCK(what)                                                     \
    (snprintf(name, sizeof name, "r%d.rows%u.%s", rl->r, w, what), \
     LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name))
    LLVMBasicBlockRef test = BLOCK("test"), yb = BLOCK("y"), xb = BLOCK("x"), latch = BLOCK("latch"),
                      ylatch = BLOCK("next");
#undef BLOCK
    LLVMValueRef zero = const64(rf, 0), one = const64(rf, 1), width = const64(rf, w);
    LLVMPositionBuilderAtEnd(b, test);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, rf->frame.nxyz[0], width, ""), yb, otherwise);

    LLVMPositionBuilderAtEnd(b, yb);
    LLVMValueRef y = LLVMBuildPhi(b, rf->i64, "rows.y");
    LLVMValueRef zy = LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, rl->z, rf->frame.nxyz[1], ""), y, ""),
                                      width, "");
    LLVMBuildBr(b, xb);
    LLVMPositionBuilderAtEnd(b, xb);
    LLVMValueRef x = LLVMBuildPhi(b, rf->i64, "rows.x");
    /* the region's code once more, for work-item (x, y, z) */
    snprintf(name, sizeof name, "r%d.rows%u", rl->r, w);
    rg_new_region_copy(rf, rl, name);
    rf->copy.lid[0] = x, rf->copy.lid[1] = y, rf->copy.lid[2] = rl->z;
    rf->copy.wi = LLVMBuildNUWAdd(b, zy, x, "wi");
    rg_enter_region_code(rf, b, rl);
    LLVMBasicBlockRef region_latch = rl->latch;
    rl->latch = latch;
    rg_copy_region_code(rf, b, rl);
    rl->latch = region_latch;
    rg_fill_region_phis(rf, b, rl);

    LLVMPositionBuilderAtEnd(b, latch);
    LLVMValueRef xn = LLVMBuildNUWAdd(b, x, one, "");
    LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xn, width, ""), xb, ylatch);
    if (rf->kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(rf->c, "llvm.loop", 9), rg_one_vector_loop_md(rf, w));
    LLVMPositionBuilderAtEnd(b, ylatch);
    LLVMValueRef yn = LLVMBuildNUWAdd(b, y, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, yn, rf->frame.nxyz[1], ""), yb, rl->zlatch);

    LLVMValueRef in2[2] = {zero, yn};
    LLVMBasicBlockRef from2[2] = {test, ylatch};
    LLVMAddIncoming(y, in2, from2, 2);
    in2[1] = xn, from2[0] = yb, from2[1] = latch;
    LLVMAddIncoming(x, in2, from2, 2);
    return test;
}

/* Region rl's copies for rows of row_widths[] work-items, when it is worth
 * them (runs_vector_rows): z goes on to the tests of the row's length, then
 * the ordinary y loop. */
cl_int rg_add_vector_rows(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    if (!runs_vector_rows(rf, rl))
        return CL_SUCCESS;
    LLVMBasicBlockRef first = rl->yb;
    for (size_t w = 0; w < sizeof row_widths / sizeof *row_widths; w++) {
        first = build_vector_rows(rf, b, rl, row_widths[w], first);
        if (!w)
            rl->y_entry = first;
    }
    LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(rl->zb));
    LLVMPositionBuilderAtEnd(b, rl->zb);
    LLVMBuildBr(b, first);
    rf->frame.vector_rows++;
    return rf_status(rf);
}
