/*
 * A region's copy of K.body's code in K.wg (region cloning, with value
 * and block maps as LLVM's CloneFunction keeps them: rf->copy.vmap, bmap).
 * Blocks are copied in reverse post-order (definitions before uses); a
 * value of K.body from before a barrier is reloaded from its slot or
 * rematerialised where the copy's own definition does not dominate the
 * use; a barrier or a return ends the work-item's pass at the work-item
 * loop's latch (the region's exits, with the state each leaves for).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/workgroup/regions_internal.h"

static LLVMValueRef recompute(region_fn *rf, int r, int k, int b, LLVMBuilderRef bld);
static LLVMValueRef soa_index(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld);

/* The value operand v of K.body stands for in region r, used in block b (for a
 * phi: at the end of incoming block b), with b's copy the builder's block. */
static LLVMValueRef map_value(region_fn *rf, int r, LLVMValueRef v, int b, LLVMBuilderRef bld)
{
    if (LLVMIsAInstruction(v)) {
        int k = pmap_get(&rf->ins.iidx, v);
        if (k < 0)
            return give_up(rf, "an instruction of another function"), v;
        switch (rf->ins.kind[k]) {
        case K_HOIST:
        case K_SHARED:
            return rf->frame.gmap[k];
        case K_PERWI:
            return rf->copy.vmap[k];
        case K_SKIP:
            return give_up(rf, "a use of a barrier or debug intrinsic"), v;
        default:
            break;
        }
        int li = rf->live.live_index[k];
        if ((rf->live.demote[k] || rf->live.remat[k]) && rg_reached_without_def(rf, li, r, b)) {
            if (rf->live.demote[k] && rf->unif.uniform_def[k] && !rf->copy.scalar && !rg_def_reaches(rf, li, r, b))
                return rg_reload_uniform(rf, k);
            return rf->live.demote[k] ? rg_reload(rf, bld, k) : recompute(rf, r, k, b, bld);
        }
        if (!rf->copy.vmap[k])
            return give_up(rf, "a value that does not dominate its use in a region"), v;
        return rf->copy.vmap[k];
    }
    if (LLVMIsAArgument(v)) {
        int p = param_index(rf, v);
        if (p < 0)
            return give_up(rf, "an argument of another function"), v;
        if ((unsigned)p < rf->nparams - 4)
            return rf->frame.vals[p];
        if ((unsigned)p == rf->nparams - 4)
            return rf->frame.ctx;
        return rf->copy.lid[p - (int)(rf->nparams - 3)];
    }
    if (LLVMValueIsBasicBlock(v)) {
        int t = block_of(rf, LLVMValueAsBasicBlock(v));
        if (t < 0 || !rf->cut.inreg[r][t] || !rf->copy.bmap[t])
            return give_up(rf, "a branch out of a region"), v;
        return LLVMBasicBlockAsValue(rf->copy.bmap[t]);
    }
    if (LLVMIsABlockAddress(v))
        return give_up(rf, "a block address"), v;
    return v;
}

/* Computes rematerializable instruction k again at the builder's position,
 * its operands too (their definitions need not dominate it either). */
static LLVMValueRef recompute(region_fn *rf, int r, int k, int b, LLVMBuilderRef bld)
{
    LLVMValueRef inst = rf->ins.insts[k];
    if (is_sub_group_first(inst))
        return rg_copy_inst(rf, r, inst, b, bld);
    /* an element of an element-major private array: its place, not the
     * array type's (which would be the next work-item's element) */
    LLVMValueRef element = soa_index(rf, r, inst, b, bld);
    if (element)
        return element;
    LLVMValueRef clone = LLVMInstructionClone(inst);
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i), m;
        int ko = LLVMIsAInstruction(o) ? pmap_get(&rf->ins.iidx, o) : -1;
        if (ko >= 0 && rf->ins.kind[ko] == K_NORMAL)
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
LLVMValueRef rg_copy_inst(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld)
{
    if (is_active_mask(inst)) { /* first in the region after its non-uniform barrier */
        MOSAIC_ASSERT(rf->copy.active);
        return rf->copy.active;
    }
    if (is_keep(inst))
        return map_value(rf, r, LLVMGetOperand(inst, 0), b, bld);
    if (is_sub_group_first(inst) && rf->copy.wi) {
        /* the region's sub-group's first work-item: the loop's, or from the linear id */
        if (rf->cut.sg_mode)
            return rf->sg.sg_lo;
        LLVMValueRef mask = const64(rf, ~(unsigned long long)(MOSAIC_SUB_GROUP_SIZE - 1));
        return LLVMBuildAnd(bld, rf->copy.wi, mask, "sg.first");
    }
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

/* An element of a private array stored element-major (region_liveness.c): element
 * i of this work-item's copy is i * n64 elements after element 0 (the
 * region's vmap of the array).  NULL for any other instruction. */
static LLVMValueRef soa_index(region_fn *rf, int r, LLVMValueRef inst, int b, LLVMBuilderRef bld)
{
    if (!LLVMIsAGetElementPtrInst(inst))
        return NULL;
    int ka = pmap_get(&rf->ins.iidx, LLVMGetOperand(inst, 0));
    if (ka < 0 || rf->ins.kind[ka] != K_PERWI || !rf->store.soa[ka])
        return NULL;
    LLVMValueRef idx = map_value(rf, r, LLVMGetOperand(inst, 2), b, bld);
    idx = LLVMBuildSExtOrBitCast(bld, idx, rf->i64, "");
    LLVMValueRef row = LLVMBuildNUWMul(bld, rf->frame.n64, const64(rf, rf->store.soa[ka]), "");
    LLVMValueRef off = LLVMBuildMul(bld, idx, row, "");
    return LLVMBuildInBoundsGEP2(bld, rf->i8, rf->copy.vmap[ka], &off, 1, "");
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
            int k = pmap_get(&rf->ins.iidx, p);
            return k >= 0 && rf->ins.kind[k] == K_PERWI;
        }
        return false;
    }
    return false;
}

/* A fresh copy of region rl's code: nothing of it mapped yet, and a new
 * block for each of its blocks of K.body, named PREFIX.bN. */
void rg_new_region_copy(region_fn *rf, const region_loop *rl, const char *prefix)
{
    char name[64];
    memset(rf->copy.vmap, 0, (size_t)rf->ins.ni * sizeof *rf->copy.vmap);
    memset(rf->copy.bmap, 0, (size_t)rf->cut.nb * sizeof *rf->copy.bmap);
    rf->copy.nphis = rf->copy.nexits = 0;
    for (int i = 0; i < rl->n; i++) {
        snprintf(name, sizeof name, "%s.b%d", prefix, rl->order[i]);
        rf->copy.bmap[rl->order[i]] = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, name);
    }
}

/* Each block's place in region rl's order (reverse post-order), -1 for
 * blocks outside it; NULL when memory ran out. */
int *rg_region_positions(region_fn *rf, const region_loop *rl)
{
    int *pos = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *pos);
    if (!pos)
        return NULL;
    for (int i = 0; i < rf->cut.nb; i++)
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
 * do (with the copies for rows, region_versioning.c, it gave up on two).
 * Such a phi is stored once instead, at the start of each block the loop exits
 * to, when only the loop leads there: the slot ends up with the last
 * iteration's value either way.  Fills targets[] with those blocks and
 * returns how many, or 0 when the phi must be stored where it is.  pos[]:
 * each block's place in the region's order (region_positions).  (A loop of
 * the region's order, not one of cfg.h's: a region may start inside a loop
 * of K.body, at a barrier.) */
static int loop_exit_targets(region_fn *rf, region_loop *rl, const int *pos, int h, int *targets)
{
    if (rf->cut.bar_of_block[h])
        return 0;
    unsigned char *in = rf_calloc(rf, (size_t)rf->cut.nb, 1);
    int *stack = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *stack), sp = 0, n = 0;
    bool ok = in && stack;
    if (ok) {
        in[h] = 1;
        for (int j = 0; j < rf->cut.npred[h]; j++) {
            int p = rf->cut.pred[h][j];
            if (pos[p] >= pos[h] && !in[p])
                in[p] = 1, stack[sp++] = p;
        }
        ok = sp > 0;
    }
    while (ok && sp) { /* the loop's blocks: back from its latches to the header */
        int x = stack[--sp];
        if (rf->cut.bar_of_block[x] || x == rl->order[0])
            ok = false; /* a barrier on the way round, or entered from the region's start */
        for (int j = 0; ok && j < rf->cut.npred[x]; j++) {
            int p = rf->cut.pred[x][j];
            if (pos[p] >= 0 && !in[p])
                in[p] = 1, stack[sp++] = p;
        }
    }
    for (int x = 0; ok && x < rf->cut.nb; x++) {
        if (!in[x])
            continue;
        for (int j = 0; ok && j < rf->cut.nsucc[x]; j++) {
            int y = rf->cut.succ[x][j];
            if (in[y] || pos[y] < 0)
                continue;
            bool seen = false;
            for (int t = 0; t < n; t++)
                seen |= targets[t] == y;
            if (seen)
                continue;
            for (int k = 0; ok && k < rf->cut.npred[y]; k++) /* only the loop leads there */
                ok = pos[rf->cut.pred[y][k]] < 0 || in[rf->cut.pred[y][k]];
            targets[n++] = y;
        }
    }
    free(in), free(stack);
    return ok ? n : 0;
}

/* Copies the region's blocks of K.body, definitions first: a barrier or a
 * return goes to the latch instead, values live across a barrier are stored
 * in their arrays.  Phis get their incoming values later (fill_region_phis). */
void rg_copy_region_code(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    /* where each block is in the region's order; phis stored on the way out of their loops */
    int *pos = rg_region_positions(rf, rl), *targets = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *targets);
    int *later_inst = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *later_inst);
    int *later_block = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *later_block), nlater = 0;
    if (!pos || !targets || !later_inst || !later_block) {
        free(pos), free(targets), free(later_inst), free(later_block);
        return;
    }
    for (int oi = 0; oi < rl->n && !rf->why; oi++) {
        int bi = rl->order[oi];
        LLVMPositionBuilderAtEnd(b, rf->copy.bmap[bi]);
        int first_pending = rf->copy.nphis;
        bool flushed = false;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(rf->cut.bbs[bi]); inst && !rf->why;
             inst = LLVMGetNextInstruction(inst)) {
            int k = pmap_get(&rf->ins.iidx, inst);
            if (rf->ins.kind[k] != K_NORMAL)
                continue;
            if (LLVMIsAPHINode(inst)) {
                LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(inst), "");
                mc_copy_name(np, inst);
                rf->copy.vmap[k] = np;
                MOSAIC_ASSERT(rf->copy.nphis < rf->ins.ni); /* room for every instruction */
                rf->copy.phis[rf->copy.nphis++] = (rf_phi){k, bi, np};
                continue;
            }
            if (!flushed) { /* phis' values go to their slots after the last phi */
                for (int p = first_pending; p < rf->copy.nphis; p++) {
                    int k = rf->copy.phis[p].inst;
                    if (!rf->live.demote[k])
                        continue;
                    int nt = loop_exit_targets(rf, rl, pos, bi, targets);
                    if (nt > 0 && nlater + nt <= rf->ins.ni) {
                        for (int t = 0; t < nt; t++)
                            later_inst[nlater] = k, later_block[nlater++] = targets[t];
                        continue;
                    }
                    rg_spill(rf, b, k, rf->copy.phis[p].clone);
                }
                flushed = true;
            }
            if (LLVMIsATerminatorInst(inst) &&
                (rf->cut.bar_of_block[bi] || LLVMGetInstructionOpcode(inst) == LLVMRet)) {
                if (rf->copy.scalar) { /* straight on to the next region */
                    int st = rf->cut.bar_of_block[bi];
                    LLVMBuildBr(b, st ? rf->frame.pre[st] : rf->frame.exit);
                    continue;
                }
                LLVMBuildBr(b, rl->latch);
                MOSAIC_ASSERT(rf->copy.nexits <= rf->cut.nb); /* room for a block each, and the waits */
                rf->copy.exits[rf->copy.nexits++] = (rf_exit){rf->copy.bmap[bi], rf->cut.bar_of_block[bi], NULL};
                continue;
            }
            LLVMValueRef clone = soa_index(rf, rl->r, inst, bi, b);
            if (!clone)
                clone = rg_copy_inst(rf, rl->r, inst, bi, b);
            rf->copy.vmap[k] = clone;
            rg_beside_storage(rf, clone);
            if ((LLVMIsALoadInst(inst) && perwi_address(rf, LLVMGetOperand(inst, 0))) ||
                (LLVMIsAStoreInst(inst) && perwi_address(rf, LLVMGetOperand(inst, 1))))
                if (!LLVMGetVolatile(inst) && LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic)
                    mark_parallel(rf, clone);
            if (rf->live.demote[k])
                rg_spill(rf, b, k, clone);
        }
    }
    for (int l = 0; l < nlater && !rf->why; l++) { /* at the start of the blocks the loops exit to */
        LLVMValueRef at = LLVMGetFirstInstruction(rf->copy.bmap[later_block[l]]);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        if (at)
            LLVMPositionBuilderBefore(b, at);
        else
            LLVMPositionBuilderAtEnd(b, rf->copy.bmap[later_block[l]]);
        rg_spill(rf, b, later_inst[l], rf->copy.vmap[later_inst[l]]);
    }
    free(pos), free(targets), free(later_inst), free(later_block);
}

/* The copied phis' incoming values, at the end of each incoming block of the region. */
void rg_fill_region_phis(region_fn *rf, LLVMBuilderRef b, region_loop *rl)
{
    for (int p = 0; p < rf->copy.nphis && !rf->why; p++) {
        LLVMValueRef orig = rf->ins.insts[rf->copy.phis[p].inst];
        unsigned cnt = LLVMCountIncoming(orig);
        for (unsigned j = 0; j < cnt; j++) {
            int from = block_of(rf, LLVMGetIncomingBlock(orig, j));
            if (!rf->cut.inreg[rl->r][from])
                continue;
            LLVMBasicBlockRef fb = rf->copy.bmap[from];
            LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(fb));
            LLVMValueRef v = map_value(rf, rl->r, LLVMGetIncomingValue(orig, j), from, b);
            LLVMAddIncoming(rf->copy.phis[p].clone, &v, &fb, 1);
        }
    }
}
