/*
 * Loops in which each work-item strides from a start of its own, run in step.
 *
 * "for (i = lid; i < n; i += size)" (a group loading a tile, a grid-stride
 * loop) leaves the work-items in different iterations: each starts from its
 * own index, so the loop's exit is divergent and the loop stays inside the
 * loop over work-items, where it runs scalar.  Yet every work-item's index
 * is the first work-item's (local id 0, the smallest start) plus a fixed
 * distance, so each can go round as often as the first one does and run the
 * body only while its own test holds.  The loop's exit then tests the first
 * work-item's index, a uniform value: the loop is uniform, and implicit_barriers.c cuts
 * it into regions like any other (or, with a constant trip count, LLVM
 * unrolls it inside a loop over work-items that is now innermost).
 *
 *     H: i = phi [s, P], [i', L]          H: i = phi [s, P], [i2, L2]
 *        c = i < n                           f = phi [s0, P], [f', L2]
 *        br c, B, X                          c = i < n; c0 = f < n
 *     B..L: ...  i' = i + step               br c0, G, X
 *        br H                    ==>      G: br c, B, L2
 *                                         B..L: ...  br L2
 *                                         L2: i2 = phi [i', L], [i, G]
 *                                             f' = f + step; br H
 *
 * The test may read the index truncated, and the step add to it its low
 * bits (`and i, 0xffffffff`): instcombine's form of a `uint` index
 * stepped by a `size_t` (`i += get_global_size(0)`); f is then tested and
 * stepped the same way.
 *
 * s0 is s with the local ids 0.  A work-item whose own test failed keeps
 * every value the loop carries (the phis of L2), and H computes c from those
 * alone, so the test stays false and after the loop the work-item sees what
 * it saw when it left.  Assumed, as kernels that index with them do: the
 * local ids and the sums and products that make s from them do not wrap.
 */
#include <stdlib.h>

#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/implicit_barriers.h"
#include "compiler/workgroup/passes.h"

typedef struct stride_loop {
    LLVMBasicBlockRef header, preheader, latch, inside; /* H, P, L, B */
    LLVMValueRef index, step_inst, cond; /* i, i', c */
    LLVMValueRef tested, stepped;        /* what c compares and i' adds to: i, trunc i, or i's low bits */
    unsigned inside_way;                 /* the successor of H's branch that stays in the loop */
    bool index_inside_only;              /* no use of i after the loop: i = f + (s - s0) */
    LLVMValueRef step;
} stride_loop;

typedef struct stepper {
    LLVMValueRef fn, ctx, lid[3];
    const mc_uniformity *ua;
} stepper;

static bool is_local_id(const stepper *st, LLVMValueRef v)
{
    return v == st->lid[0] || v == st->lid[1] || v == st->lid[2];
}

/* Is uniform value v at least 0: a constant, a zero extension, or a size or
 * id the work-group context holds? */
static bool nonnegative(const stepper *st, LLVMValueRef v)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetSExtValue(v) >= 0;
    if (LLVMIsAZExtInst(v))
        return true;
    if (LLVMIsATruncInst(v))
        return nonnegative(st, LLVMGetOperand(v, 0));
    if (!LLVMIsALoadInst(v))
        return false;
    LLVMValueRef p = LLVMGetOperand(v, 0);
    while (LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p))
        p = LLVMGetOperand(p, 0);
    return p == st->ctx;
}

/* v with the local ids 0, built with b (only checked when b is NULL): NULL
 * where v is not known to be smallest there, as it is for sums and
 * non-negative multiples of the ids and uniform values. */
static LLVMValueRef at_first_item(const stepper *st, LLVMBuilderRef b, LLVMValueRef v, int depth)
{
    if (is_local_id(st, v))
        return LLVMConstNull(LLVMTypeOf(v));
    if (mc_uniform_value(st->ua, v))
        return v;
    if (!LLVMIsAInstruction(v) || depth > 8)
        return NULL;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    LLVMValueRef x = NULL, y = NULL;
    switch (op) {
    case LLVMTrunc: case LLVMZExt: case LLVMSExt:
        if (!(x = at_first_item(st, b, LLVMGetOperand(v, 0), depth + 1)))
            return NULL;
        return b ? LLVMBuildCast(b, op, x, LLVMTypeOf(v), "") : v;
    case LLVMAdd:
        x = at_first_item(st, b, LLVMGetOperand(v, 0), depth + 1);
        y = at_first_item(st, b, LLVMGetOperand(v, 1), depth + 1);
        break;
    case LLVMSub: /* minus a uniform value only */
        x = at_first_item(st, b, LLVMGetOperand(v, 0), depth + 1);
        y = mc_uniform_value(st->ua, LLVMGetOperand(v, 1)) ? LLVMGetOperand(v, 1) : NULL;
        break;
    case LLVMMul:
        for (unsigned k = 0; k < 2 && !x; k++) {
            LLVMValueRef f = LLVMGetOperand(v, 1 - k);
            if (mc_uniform_value(st->ua, f) && nonnegative(st, f) &&
                (x = at_first_item(st, b, LLVMGetOperand(v, k), depth + 1)))
                y = f;
        }
        break;
    case LLVMShl:
        y = LLVMGetOperand(v, 1);
        x = LLVMIsAConstantInt(y) ? at_first_item(st, b, LLVMGetOperand(v, 0), depth + 1) : NULL;
        break;
    default:
        return NULL;
    }
    if (!x || !y)
        return NULL;
    return b ? LLVMBuildBinOp(b, op, x, y, "") : v;
}

/* The predecessors of bb, through the uses of the block (terminators only);
 * how many edges, at most max stored. */
static int predecessors(LLVMBasicBlockRef bb, LLVMBasicBlockRef *out, int max)
{
    int n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(user))
            return -1;
        if (n < max)
            out[n] = LLVMGetInstructionParent(user);
        n++;
    }
    return n;
}

/* The blocks of the loop of back edge latch -> header (in[]: by index),
 * the edge's natural loop in the shared analysis; false when memory ran out. */
static bool loop_blocks(const mc_cfg *g, LLVMBasicBlockRef header, LLVMBasicBlockRef latch, bool *in)
{
    return mc_edge_loop(g, mc_cfg_block(g, latch), mc_cfg_block(g, header), in) > 0;
}

/* Can v, uniform, be computed before the loop (in[]: its blocks): defined
 * outside it, or computed inside from such values by instructions that cannot
 * fault (the group's sizes, read in the body, are the usual step)? */
static bool hoistable(const stepper *st, const pmap *idx, const bool *in, LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v) || !in[pmap_get(idx, LLVMGetInstructionParent(v))])
        return true;
    if (depth > 6 || LLVMIsAPHINode(v))
        return false;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMLoad: /* the work-group context's, as nonnegative() knows them */
        if (!LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "invariant.load", 14)) ||
            !nonnegative(st, v))
            return false;
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
    case LLVMGetElementPtr: case LLVMAddrSpaceCast: case LLVMBitCast:
        break;
    default:
        return false;
    }
    for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
        if (!hoistable(st, idx, in, LLVMGetOperand(v, (unsigned)k), depth + 1))
            return false;
    return true;
}

/* Moves v (hoistable) and what it needs from inside the loop before `before`. */
static void hoist(const pmap *idx, const bool *in, LLVMBuilderRef b, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || !in[pmap_get(idx, LLVMGetInstructionParent(v))])
        return;
    for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
        hoist(idx, in, b, LLVMGetOperand(v, (unsigned)k));
    if (LLVMGetInstructionParent(v) == LLVMGetInsertBlock(b))
        return; /* moved already (a value two operands share) */
    LLVMInstructionRemoveFromParent(v);
    LLVMInsertIntoBuilder(b, v);
}

/* The predicate under which the loop goes on, with the index on its left. */
static LLVMIntPredicate going_on(LLVMValueRef cond, LLVMValueRef tested, unsigned inside_way)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    if (inside_way == 1) /* the loop goes on when cond is false */
        p = mc_inverse_predicate(p);
    if (LLVMGetOperand(cond, 1) == tested) /* n > i is i < n */
        p = mc_swapped_predicate(p);
    return p;
}

/* Is v the index i itself, or its low bits (i & (2^k - 1))? */
static bool low_bits_of(LLVMValueRef v, LLVMValueRef index)
{
    if (v == index)
        return true;
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAnd || LLVMGetOperand(v, 0) != index ||
        !LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return false;
    unsigned long long m = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1));
    return m && (m & (m + 1)) == 0;
}

/* Does header head a loop of the shape above: its only exit, a test of an
 * index against a uniform bound, a start that varies with the local ids and
 * is smallest for the first work-item, a uniform step, and nothing in the
 * header that reads or writes memory?  Fills l. */
static bool find_stride_loop(const stepper *st, const pmap *idx, bool *in,
                             LLVMBasicBlockRef header, stride_loop *l)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(header);
    if (!mc_divergent_loop_exit(st->ua, header) || !LLVMIsAICmpInst(LLVMGetCondition(term)))
        return false;
    LLVMBasicBlockRef preds[2];
    if (predecessors(header, preds, 2) != 2)
        return false;
    l->header = header;
    l->cond = LLVMGetCondition(term);
    if (LLVMGetInstructionParent(l->cond) != header)
        return false;
    /* the index: the phi the test compares (perhaps truncated, in the
     * header) with a uniform bound */
    l->index = l->tested = l->stepped = NULL;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef a = LLVMGetOperand(l->cond, k), phi = a;
        if (LLVMIsATruncInst(a) && LLVMGetInstructionParent(a) == header)
            phi = LLVMGetOperand(a, 0);
        if (LLVMIsAPHINode(phi) && LLVMGetInstructionParent(phi) == header && LLVMCountIncoming(phi) == 2 &&
            mc_uniform_value(st->ua, LLVMGetOperand(l->cond, 1 - k)))
            l->index = phi, l->tested = a;
    }
    if (!l->index)
        return false;
    /* the latch: the incoming block inside the loop */
    l->latch = l->preheader = NULL;
    l->step_inst = NULL;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(l->index, k), x = NULL;
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(l->index, k);
        for (unsigned j = 0; j < 2 && LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAdd && !x; j++)
            if (low_bits_of(LLVMGetOperand(v, j), l->index))
                x = LLVMGetOperand(v, j);
        if (x)
            l->latch = from, l->step_inst = v, l->stepped = x;
        else
            l->preheader = from;
    }
    if (!l->latch || !l->preheader || l->latch == l->preheader)
        return false;
    LLVMValueRef step = LLVMGetOperand(l->step_inst, LLVMGetOperand(l->step_inst, 0) == l->stepped ? 1 : 0);
    if (!mc_uniform_value(st->ua, step) || !nonnegative(st, step))
        return false;
    /* the start: varies, and is smallest for the first work-item */
    LLVMValueRef start = LLVMGetIncomingValue(l->index, LLVMGetIncomingBlock(l->index, 0) == l->preheader ? 0 : 1);
    if (mc_uniform_value(st->ua, start) || !at_first_item(st, NULL, start, 0))
        return false;
    /* one loop, one exit (H's), no barriers; blocks ending in unreachable may stay */
    if (!loop_blocks(mc_uniformity_cfg(st->ua), header, l->latch, in) || in[pmap_get(idx, l->preheader)])
        return false;
    l->inside_way = 2;
    for (unsigned s = 0; s < 2; s++)
        if (in[pmap_get(idx, LLVMGetSuccessor(term, s))])
            l->inside_way = s;
    if (l->inside_way == 2 || in[pmap_get(idx, LLVMGetSuccessor(term, 1 - l->inside_way))])
        return false;
    l->inside = LLVMGetSuccessor(term, l->inside_way);
    if (!hoistable(st, idx, in, step, 0))
        return false;
    l->step = step;
    LLVMIntPredicate p = going_on(l->cond, l->tested, l->inside_way);
    if (p != LLVMIntSLT && p != LLVMIntSLE && p != LLVMIntULT && p != LLVMIntULE)
        return false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(st->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!in[pmap_get(idx, bb)])
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || LLVMIsAReturnInst(t))
            return false;
        for (unsigned s = 0, ns = LLVMGetNumSuccessors(t); s < ns; s++)
            if (bb != header && !in[pmap_get(idx, LLVMGetSuccessor(t, s))])
                return false;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if ((LLVMIsACallInst(i) && mc_ends_region(i)) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
                return false; /* atomics keep the body scalar: as cheap inside the loop over work-items */
            if (bb == header && (LLVMIsACallInst(i) || LLVMIsALoadInst(i) || LLVMIsAStoreInst(i) ||
                                 LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
                                 LLVMIsAAllocaInst(i)))
                return false;
        }
    }
    l->index_inside_only = true;
    for (LLVMUseRef u = LLVMGetFirstUse(l->index); u; u = LLVMGetNextUse(u))
        l->index_inside_only &= in[pmap_get(idx, LLVMGetInstructionParent(LLVMGetUser(u)))] != 0;
    return true;
}

/* A copy of inst at the builder's place, with operand `from` replaced by `to`. */
static LLVMValueRef copy_with(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef from, LLVMValueRef to)
{
    LLVMValueRef c = LLVMInstructionClone(inst);
    for (int k = 0, n = LLVMGetNumOperands(c); k < n; k++)
        if (LLVMGetOperand(c, (unsigned)k) == from)
            LLVMSetOperand(c, (unsigned)k, to);
    LLVMInsertIntoBuilder(b, c);
    return c;
}

/* Rewrites loop l as the header comment draws it. */
static void run_in_step(const stepper *st, const pmap *idx, const bool *in, LLVMBuilderRef b,
                        const stride_loop *l)
{
    LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(st->fn));
    LLVMValueRef term = LLVMGetBasicBlockTerminator(l->header);
    LLVMBasicBlockRef guard = LLVMInsertBasicBlockInContext(cx, l->inside, "in_step.guard");
    LLVMBasicBlockRef latch2 = LLVMAppendBasicBlockInContext(cx, st->fn, "in_step.latch");

    /* s0 (and the distance s - s0) in P; f and c0 in H; f' = f + step, with i''s flags */
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(l->preheader));
    hoist(idx, in, b, l->step);
    unsigned from_p = LLVMGetIncomingBlock(l->index, 0) == l->preheader ? 0 : 1;
    LLVMValueRef start = LLVMGetIncomingValue(l->index, from_p);
    LLVMValueRef s0 = at_first_item(st, b, start, 0);
    LLVMValueRef distance = l->index_inside_only ? LLVMBuildSub(b, start, s0, "in_step.distance") : NULL;
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(l->header));
    LLVMValueRef first = LLVMBuildPhi(b, LLVMTypeOf(l->index), "in_step.first");
    /* f' = f + step, f's low bits where i' takes i's (inserted in L2 below) */
    LLVMValueRef first_stepped = l->stepped == l->index ? first : LLVMInstructionClone(l->stepped);
    if (first_stepped != first)
        LLVMSetOperand(first_stepped, 0, first);
    LLVMValueRef next_first = LLVMInstructionClone(l->step_inst);
    for (unsigned k = 0; k < 2; k++)
        if (LLVMGetOperand(next_first, k) == l->stepped)
            LLVMSetOperand(next_first, k, first_stepped);
    LLVMPositionBuilderBefore(b, term);
    LLVMValueRef first_tested = l->tested == l->index ? first : copy_with(b, l->tested, l->index, first);
    LLVMValueRef c0 = copy_with(b, l->cond, l->tested, first_tested);
    LLVMSetCondition(term, c0);
    LLVMSetSuccessor(term, l->inside_way, guard);
    if (distance) { /* i = f + (s - s0): no index of its own per work-item */
        LLVMValueRef at = LLVMGetFirstInstruction(l->header);
        while (LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        LLVMPositionBuilderBefore(b, at);
        LLVMValueRef i = LLVMBuildAdd(b, first, distance, "");
        mc_copy_name(i, l->index);
        LLVMReplaceAllUsesWith(l->index, i);
        LLVMInstructionEraseFromParent(l->index);
    }

    /* G: the work-item's own test */
    LLVMPositionBuilderAtEnd(b, guard);
    LLVMBuildCondBr(b, l->cond, l->inside_way == 0 ? l->inside : latch2, l->inside_way == 0 ? latch2 : l->inside);
    mc_retarget_phis(b, l->inside, l->header, guard);

    /* L now ends in L2, which keeps a stopped work-item's values */
    LLVMValueRef lt = LLVMGetBasicBlockTerminator(l->latch);
    for (unsigned s = 0, ns = LLVMGetNumSuccessors(lt); s < ns; s++)
        if (LLVMGetSuccessor(lt, s) == l->header)
            LLVMSetSuccessor(lt, s, latch2);
    LLVMPositionBuilderAtEnd(b, latch2);
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->header), next; p && LLVMIsAPHINode(p); p = next) {
        next = LLVMGetNextInstruction(p);
        if (p == first)
            continue;
        LLVMValueRef kept = LLVMBuildPhi(b, LLVMTypeOf(p), "");
        LLVMValueRef vals[2] = {NULL, p};
        LLVMBasicBlockRef from[2] = {l->latch, guard};
        for (unsigned k = 0, n = LLVMCountIncoming(p); k < n; k++)
            if (LLVMGetIncomingBlock(p, k) == l->latch)
                vals[0] = LLVMGetIncomingValue(p, k);
        LLVMAddIncoming(kept, vals, from, 2);
        /* p's value from L now comes from L2 (the C API cannot change an
         * incoming block: p is rebuilt) */
        LLVMPositionBuilderBefore(b, p);
        LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(p), "");
        for (unsigned k = 0, n = LLVMCountIncoming(p); k < n; k++) {
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(p, k);
            LLVMValueRef v = bb == l->latch ? kept : LLVMGetIncomingValue(p, k);
            bb = bb == l->latch ? latch2 : bb;
            LLVMAddIncoming(np, &v, &bb, 1);
        }
        mc_copy_name(np, p);
        LLVMReplaceAllUsesWith(p, np);
        LLVMInstructionEraseFromParent(p);
        LLVMPositionBuilderAtEnd(b, latch2);
    }
    if (first_stepped != first)
        LLVMInsertIntoBuilder(b, first_stepped);
    LLVMInsertIntoBuilder(b, next_first);
    LLVMBuildBr(b, l->header);
    LLVMValueRef vals[2] = {s0, next_first};
    LLVMBasicBlockRef from[2] = {l->preheader, latch2};
    LLVMAddIncoming(first, vals, from, 2);
}

/* The first loop of body of the shape above, rewritten; false when there is
 * none (or memory ran out).  The analyses are made afresh for each loop, as
 * a rewrite changes the blocks and phis that the next loop may share. */
static bool run_one_loop_in_step(LLVMValueRef body, LLVMBuilderRef b, mc_analyses *an)
{
    unsigned nparams = LLVMCountParams(body);
    const mc_uniformity *ua = mc_analyses_uniformity(an, body, nparams - 3);
    /* the blocks as the uniformity analysis numbered them (cfg.h) */
    const mc_cfg *g = ua ? mc_uniformity_cfg(ua) : NULL;
    bool *in = g ? malloc((size_t)g->n * sizeof *in) : NULL;
    bool found = false;
    if (in) {
        stepper st = {body, LLVMGetParam(body, nparams - 4),
                      {LLVMGetParam(body, nparams - 3), LLVMGetParam(body, nparams - 2),
                       LLVMGetParam(body, nparams - 1)},
                      ua};
        stride_loop l;
        for (int k = 0; k < g->n && !found; k++)
            if ((found = find_stride_loop(&st, &g->index, in, g->blocks[k], &l)))
                run_in_step(&st, &g->index, in, b, &l);
    }
    free(in);
    if (found)
        mc_analyses_invalidate(an, body); /* (the analyses answered about the code before, to the end) */
    return found;
}

/* At most this many loops a kernel (each costs an analysis of the kernel). */
#define MAX_STRIDE_LOOPS 16

unsigned mc_uniform_loop_exits(LLVMValueRef body, mc_analyses *an)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(body)));
    unsigned done = 0;
    while (done < MAX_STRIDE_LOOPS && run_one_loop_in_step(body, b, an))
        done++;
    LLVMDisposeBuilder(b);
    return done;
}
