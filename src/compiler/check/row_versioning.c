/*
 * Rows that pass checking mode's window tests whole (the pass
 * check-row-versioning).
 *
 * In a barrier kernel's regions a checked access of a work-item is behind
 * the test of its bytes against its window (windows.c), and each work-item
 * calls the checker at each barrier: calls, taken or not, that keep LLVM
 * from vectorising K.wg's loops over a row's work-items.  Each such x loop
 * whose every checker call of an access is behind a window test gets a
 * copy without those calls (loop_versioning.c), run for a row when the bytes
 * every work-item of the row may access there, in every iteration of the
 * loops of constant trip count inside (row_ranges.h), lie inside the
 * windows.  An address whose GEP indices never shrink along x and those
 * counters is lowest at the box's low corner and highest at its high one,
 * so two tests made once before the row cover all of them.  A group's
 * windows only open while it runs (devices/cpu/cpu_check.c), so what holds
 * before the row holds through it.
 *
 * The barrier call of each work-item (one an iteration, its lx stepping
 * with x) becomes one call for the row after the loop,
 * __mosaic_check_barrier_row, in the copy and in the loop itself, also
 * where the loop has no copy (a tree reduction's, whose accesses all call):
 * a work-item's accesses are recorded with the epoch it had before its
 * barrier, whichever work-item's barrier call comes first.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/check/check.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/row_ranges.h"
#include "compiler/ir/util.h"

/* What the loop's copy leaves out: the blocks of its access checks (each
 * the call and a branch on) and its barrier calls. */
#define MAX_CALLS 64

typedef struct row_checks {
    mc_row_loop rl;
    mc_row_counters counters;
    LLVMValueRef access[MAX_CALLS], barrier[MAX_CALLS];
    unsigned naccess, nbarrier;
    bool untested; /* an access call behind no window test: no copy */
} row_checks;

/* Is block bb a block of loop rl other than its header? */
static bool inside_below_header(LLVMBasicBlockRef bb, const void *data)
{
    const mc_row_loop *rl = data;
    return bb != rl->header && mc_row_in_loop(rl, LLVMGetBasicBlockTerminator(bb));
}

/* Is block bb of the loop on a cycle that does not pass the loop's header
 * (inside an inner loop)? */
static bool in_inner_cycle(const mc_row_loop *rl, LLVMBasicBlockRef bb)
{
    return mc_cycles_back(bb, inside_below_header, rl);
}

/* Is call inst the whole of its block, before a branch on (windows.c's
 * check.call), with a window or a private array to be tested against? */
static bool behind_window_test(LLVMValueRef inst)
{
    LLVMValueRef br = LLVMGetNextInstruction(inst), how = LLVMGetOperand(inst, 7), bytes = LLVMGetOperand(inst, 6);
    return LLVMGetFirstInstruction(LLVMGetInstructionParent(inst)) == inst && br && LLVMIsABranchInst(br) &&
           !LLVMIsConditional(br) && LLVMIsAConstantInt(how) && LLVMIsAConstantInt(bytes) &&
           (mc_check_window_of(LLVMConstIntGetZExtValue(how)) >= 0 || mc_check_private_array_size(inst));
}

/* Is barrier call inst run once an iteration, for work-item (lx + x, ly, lz)
 * with lx, ly and lz invariant? */
static bool once_a_work_item(const row_checks *rc, LLVMValueRef inst)
{
    const mc_row_loop *rl = &rc->rl;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
    if (!mc_row_passes_through(rl, rl->latch, bb) || in_inner_cycle(rl, bb) ||
        mc_row_slope(rl, LLVMGetOperand(inst, 1)) != 1)
        return false;
    for (unsigned i = 1; i < rl->nvars; i++)
        if (mc_row_slope_in(rl, LLVMGetOperand(inst, 1), rl->vars[i]) != 0)
            return false;
    return mc_row_invariant(rl, LLVMGetOperand(inst, 2)) && mc_row_invariant(rl, LLVMGetOperand(inst, 3)) &&
           mc_row_invariant(rl, LLVMGetOperand(inst, 4));
}

/* The loop's checker calls: false when one is neither an access nor a
 * barrier call once an iteration. */
static bool find_calls(row_checks *rc)
{
    for (unsigned k = 0; k < rc->rl.nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rc->rl.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            size_t len = 0;
            const char *name = f ? LLVMGetValueName2(f, &len) : "";
            if (strncmp(name, "__mosaic_check_", 15))
                continue;
            if (!strcmp(name, "__mosaic_check_access")) {
                if (behind_window_test(i) && rc->naccess < MAX_CALLS)
                    rc->access[rc->naccess++] = i;
                else
                    rc->untested = true;
            } else if (!strcmp(name, "__mosaic_check_barrier") && once_a_work_item(rc, i) &&
                       rc->nbarrier < MAX_CALLS) {
                rc->barrier[rc->nbarrier++] = i;
            } else {
                return false;
            }
        }
    return true;
}

/* Does every address p may be in the box lie between p at its low corner
 * and p at its high one: GEPs (from something invariant) whose indices
 * never shrink (their chains checked not to wrap: *ok)?  *x_alone: whether
 * no index moves with the counters inside, only with x. */
static bool ordered_address(LLVMBuilderRef b, const row_checks *rc, LLVMValueRef p, LLVMBasicBlockRef at,
                            const mc_row_corners *corners, LLVMValueRef *ok, bool *x_alone)
{
    *x_alone = true;
    for (int depth = 0; depth < 16; depth++) {
        if (mc_row_invariant(&rc->rl, p))
            return true;
        if (!mc_row_in_loop(&rc->rl, p))
            return false;
        if (LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p)) {
            p = LLVMGetOperand(p, 0);
            continue;
        }
        if (!LLVMIsAGetElementPtrInst(p))
            return false;
        for (unsigned k = 1; k < (unsigned)LLVMGetNumOperands(p); k++) {
            LLVMValueRef index = LLVMGetOperand(p, k);
            if (mc_row_invariant(&rc->rl, index))
                continue;
            if (!mc_row_never_shrinks(&rc->rl, &rc->counters, index, at))
                return false;
            for (unsigned i = 1; i < rc->rl.nvars; i++)
                *x_alone &= mc_row_slope_in(&rc->rl, index, rc->rl.vars[i]) == 0;
            *ok = mc_row_and(b, *ok, mc_row_ends_in_order(b, &rc->rl, index, true, corners));
            *ok = mc_row_casts_in_order(b, &rc->rl, index, corners, *ok);
        }
        p = LLVMGetOperand(p, 0);
    }
    return false;
}

/* The window [lo, hi) an access call is tested against, loaded before the
 * loop (ctx->check_windows may be NULL: then *ok is false, and what is
 * loaded, from ctx, is not used); false when it has none here. */
static bool window_of(LLVMBuilderRef b, const row_checks *rc, LLVMValueRef call, LLVMValueRef *lo, LLVMValueRef *hi,
                      LLVMValueRef *ok)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rc->rl.wg));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    uint64_t size = mc_check_private_array_size(call);
    if (size) {
        LLVMValueRef base = LLVMGetOperand(call, 5), bytes = LLVMConstInt(i64, size, 0);
        if (!mc_row_invariant(&rc->rl, base) || mc_row_in_loop(&rc->rl, base))
            return false;
        *lo = base;
        *hi = LLVMBuildGEP2(b, i8, base, &bytes, 1, "");
        return true;
    }
    LLVMValueRef ctx = LLVMGetOperand(call, 0);
    if (mc_row_in_loop(&rc->rl, ctx))
        return false;
    LLVMValueRef windows = mc_check_windows_load(b, ctx, "row.windows"), none = LLVMBuildIsNull(b, windows, "");
    int window = mc_check_window_of(LLVMConstIntGetZExtValue(LLVMGetOperand(call, 7)));
    LLVMValueRef w = LLVMBuildSelect(b, none, ctx, mc_check_window_at(b, windows, window), "");
    mc_check_window_bounds(b, w, "row.window.lo", "row.window.hi", lo, hi);
    *ok = mc_row_and(b, *ok, LLVMBuildNot(b, none, ""));
    return true;
}

/* The guard of block bb in the loop, if it has one: a branch on a < g (or g > a; a
 * growing with x by 1, g invariant) whose way taken is the only way into
 * a block that every way from the header to bb passes.  Before the loop,
 * *last gets the last x for which a < g holds, at most the row's last,
 * and *none whether none does; false: no guard. */
static bool guard_of(LLVMBuilderRef b, const row_checks *rc, LLVMBasicBlockRef bb, LLVMValueRef row_last,
                     LLVMValueRef *last, LLVMValueRef *none)
{
    const mc_row_loop *rl = &rc->rl;
    for (unsigned k = 0; k < rl->nblocks; k++) {
        LLVMValueRef br = LLVMGetBasicBlockTerminator(rl->blocks[k]), cond;
        if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) || !LLVMIsAICmpInst(cond = LLVMGetCondition(br)))
            continue;
        LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
        LLVMValueRef a = LLVMGetOperand(cond, 0), g = LLVMGetOperand(cond, 1);
        if (p == LLVMIntUGT || p == LLVMIntSGT) { /* g > a */
            LLVMValueRef t = a;
            a = g, g = t;
            p = p == LLVMIntUGT ? LLVMIntULT : LLVMIntSLT;
        }
        LLVMBasicBlockRef taken = LLVMGetSuccessor(br, 0);
        if ((p != LLVMIntULT && p != LLVMIntSLT) || taken == LLVMGetSuccessor(br, 1) ||
            LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMIntegerTypeKind || mc_row_slope(rl, a) != 1 ||
            !mc_row_invariant(rl, g) || mc_row_in_loop(rl, g))
            continue;
        bool counters = false;
        for (unsigned i = 1; i < rl->nvars; i++)
            counters |= mc_row_slope_in(rl, a, rl->vars[i]) != 0;
        unsigned preds = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(taken)); u; u = LLVMGetNextUse(u))
            preds++;
        if (counters || preds != 1 || !mc_row_passes_through(rl, bb, taken))
            continue;
        /* a = a0 + x: a < g for x < g - a0 */
        LLVMTypeRef t = LLVMTypeOf(a), tx = LLVMTypeOf(row_last);
        LLVMValueRef a0 = mc_row_at(b, rl, a, LLVMConstInt(tx, 0, 0));
        *none = LLVMBuildICmp(b, p == LLVMIntULT ? LLVMIntULE : LLVMIntSLE, g, a0, "");
        LLVMValueRef gap = LLVMBuildSub(b, LLVMBuildSub(b, g, a0, ""), LLVMConstInt(t, 1, 0), ""); /* (unless none) */
        LLVMValueRef span = LLVMGetIntTypeWidth(t) < LLVMGetIntTypeWidth(tx) ? LLVMBuildZExt(b, gap, tx, "")
                                                                              : LLVMBuildTrunc(b, gap, tx, "");
        LLVMValueRef wide = LLVMGetIntTypeWidth(t) > LLVMGetIntTypeWidth(tx)
                                ? LLVMBuildICmp(b, LLVMIntUGT, gap, LLVMBuildZExt(b, row_last, t, ""), "")
                                : LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(t)), 0, 0);
        LLVMValueRef below = LLVMBuildOr(b, wide, LLVMBuildICmp(b, LLVMIntUGE, span, row_last, ""), "");
        *last = LLVMBuildSelect(b, below, row_last, span, "row.guarded.last");
        return true;
    }
    return false;
}

/* Is every byte access call may touch in the row inside its window, given
 * ok (NULL: true; ordered_address's test of the address)?  NULL when that
 * cannot be told before the loop.  Where a guard holds the access to the
 * first x of the row (`if (l < s)`), its high corner is the guard's last
 * x, and an access no x of the row reaches is inside. */
static LLVMValueRef row_inside(LLVMBuilderRef b, const row_checks *rc, LLVMValueRef call, const mc_row_corners *at,
                               LLVMValueRef ok)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rc->rl.wg));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
    LLVMValueRef address = LLVMGetOperand(call, 4), bytes = LLVMGetOperand(call, 6), lo, hi;
    LLVMValueRef none = NULL, guarded;
    if (!window_of(b, rc, call, &lo, &hi, &ok))
        return NULL;
    mc_row_corners box = *at;
    if (guard_of(b, rc, LLVMGetInstructionParent(call), at->high[0], &guarded, &none))
        box.high[0] = guarded;
    LLVMValueRef low = mc_row_at_all(b, &rc->rl, address, box.low);
    LLVMValueRef end = LLVMBuildGEP2(b, i8, mc_row_at_all(b, &rc->rl, address, box.high), &bytes, 1, "");
    ok = mc_row_and(b, ok, LLVMBuildICmp(b, LLVMIntULE, lo, low, ""));
    ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULE, end, hi, ""), "");
    ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULE, low, end, ""), "");
    return none ? LLVMBuildOr(b, none, ok, "") : ok;
}

/* Can access call, whose address moves with x alone (ordered_address's
 * x_alone), be checked for the whole row at once, one call of
 * __mosaic_check_row before it: does its access run once an iteration
 * (the block after the call's is on every way round, in no inner cycle),
 * for work-item (lx + x, ly, lz)? */
static bool row_form(const row_checks *rc, LLVMValueRef call)
{
    const mc_row_loop *rl = &rc->rl;
    LLVMBasicBlockRef on = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(call)), 0);
    if (!mc_row_in_loop(rl, LLVMGetBasicBlockTerminator(on)) || !mc_row_passes_through(rl, rl->latch, on) ||
        in_inner_cycle(rl, on) || mc_row_slope(rl, LLVMGetOperand(call, 1)) != 1 ||
        mc_row_in_loop(rl, LLVMGetOperand(call, 0)) || mc_row_in_loop(rl, LLVMGetOperand(call, 5)))
        return false;
    for (unsigned i = 1; i < rl->nvars; i++)
        if (mc_row_slope_in(rl, LLVMGetOperand(call, 1), rl->vars[i]) != 0)
            return false;
    return mc_row_invariant(rl, LLVMGetOperand(call, 2)) && mc_row_invariant(rl, LLVMGetOperand(call, 3));
}

/* Before the loop: access call checked for lanes of the row at once
 * (lanes 0: nothing), its lanes' addresses the first one's plus the step
 * from x = 0 to x = 1. */
static void call_for_row(LLVMBuilderRef b, const row_checks *rc, LLVMValueRef call, const mc_row_corners *at,
                         LLVMValueRef lanes)
{
    const mc_row_loop *rl = &rc->rl;
    LLVMModuleRef m = LLVMGetGlobalParent(rl->wg);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef params[13] = {ptr, i64, i64, i64, i64, ptr, ptr, i64, ptr, ptr, i64, i64, ptr};
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 13, 0);
    LLVMValueRef f = LLVMGetNamedFunction(m, "__mosaic_check_row");
    if (!f)
        f = LLVMAddFunction(m, "__mosaic_check_row", type);
    LLVMValueRef next[MC_ROW_MAX_VARS];
    for (unsigned i = 0; i < rl->nvars; i++)
        next[i] = at->low[i];
    next[0] = LLVMConstInt(LLVMTypeOf(rl->x), 1, 0);
    LLVMValueRef address = LLVMGetOperand(call, 4);
    LLVMValueRef first = mc_row_at_all(b, rl, address, at->low), second = mc_row_at_all(b, rl, address, next);
    LLVMValueRef stride = LLVMBuildSub(b, LLVMBuildPtrToInt(b, second, i64, ""), LLVMBuildPtrToInt(b, first, i64, ""),
                                       "row.stride");
    LLVMValueRef none = LLVMConstPointerNull(ptr);
    LLVMValueRef args[13] = {LLVMGetOperand(call, 0),
                             mc_row_at_all(b, rl, LLVMGetOperand(call, 1), at->low),
                             mc_row_at_all(b, rl, LLVMGetOperand(call, 2), at->low),
                             mc_row_at_all(b, rl, LLVMGetOperand(call, 3), at->low),
                             lanes, none, LLVMBuildAddrSpaceCast(b, first, ptr, ""), stride, none,
                             LLVMGetOperand(call, 5), LLVMGetOperand(call, 6), LLVMGetOperand(call, 7),
                             LLVMGetOperand(call, 8)};
    LLVMValueRef row = LLVMBuildCall2(b, type, f, args, 13, "");
    LLVMInstructionSetDebugLoc(row, LLVMInstructionGetDebugLoc(call));
}

/* In the loop's copy, every way into block `copy` goes on to `on`
 * instead, and the block, left unreachable, goes. */
static void go_past(LLVMBasicBlockRef copy, LLVMBasicBlockRef on)
{
    LLVMValueRef *users = NULL;
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(copy)); u; u = LLVMGetNextUse(u))
        n++;
    if (n && !(users = malloc(n * sizeof *users)))
        return; /* (the copy then calls: slower, not wrong) */
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(copy)); u; u = LLVMGetNextUse(u))
        users[n++] = LLVMGetUser(u);
    for (unsigned k = 0; k < n; k++)
        for (unsigned j = 0; LLVMIsATerminatorInst(users[k]) && j < LLVMGetNumSuccessors(users[k]); j++)
            if (LLVMGetSuccessor(users[k], j) == copy)
                LLVMSetSuccessor(users[k], j, on);
    free(users);
    if (!LLVMGetFirstUse(LLVMBasicBlockAsValue(copy)))
        LLVMDeleteBasicBlock(copy);
}

/* The copy of call's block, and of the set window's test and bits before
 * it (windows.c), left out: their ways in go on to the call's join. */
static void skip_call(const row_checks *rc, LLVMValueRef call)
{
    LLVMBasicBlockRef set = mc_check_set_block_of(call);
    LLVMBasicBlockRef copy = mc_row_copy_of_block(&rc->rl, LLVMGetInstructionParent(call));
    LLVMBasicBlockRef on = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(copy), 0);
    if (set) { /* (its test's two ways were the only ones into the bits and the call) */
        LLVMBasicBlockRef set_copy = mc_row_copy_of_block(&rc->rl, set);
        LLVMValueRef test = LLVMGetBasicBlockTerminator(set_copy);
        LLVMBasicBlockRef bits_copy = LLVMGetSuccessor(test, 0);
        LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(test)));
        LLVMPositionBuilderBefore(b, test);
        LLVMBuildBr(b, on);
        LLVMDisposeBuilder(b);
        LLVMInstructionEraseFromParent(test);
        LLVMDeleteBasicBlock(bits_copy);
    }
    go_past(copy, on);
}

/* The barrier calls of the loop (or of its copy), one for the row after
 * it.  Each work-item's call comes after its accesses of the iteration
 * (regions end at barriers): the records they make carry the epoch they
 * had, whether the next work-item's accesses come before the call or
 * after, and a group's windows open only when its last work-item arrives. */
static void barriers_after_row(LLVMBuilderRef b, row_checks *rc, bool copy, LLVMValueRef count,
                               LLVMValueRef const *first_lx)
{
    mc_row_loop *rl = &rc->rl;
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rl->wg));
    LLVMModuleRef m = LLVMGetGlobalParent(rl->wg);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef params[6] = {ptr, i64, i64, i64, i64, ptr};
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 6, 0);
    LLVMValueRef f = LLVMGetNamedFunction(m, "__mosaic_check_barrier_row");
    if (!f)
        f = LLVMAddFunction(m, "__mosaic_check_barrier_row", type);
    LLVMBasicBlockRef after = LLVMInsertBasicBlockInContext(c, rl->exit, "row.barriers");
    LLVMValueRef br = LLVMGetBasicBlockTerminator(copy ? mc_row_copy_of_block(rl, rl->latch) : rl->latch);
    for (unsigned j = 0; j < LLVMGetNumSuccessors(br); j++)
        if (LLVMGetSuccessor(br, j) == rl->exit)
            LLVMSetSuccessor(br, j, after);
    LLVMPositionBuilderAtEnd(b, after);
    for (unsigned k = 0; k < rc->nbarrier; k++) {
        LLVMValueRef call = rc->barrier[k];
        LLVMValueRef args[6] = {LLVMGetOperand(call, 0), first_lx[k], LLVMGetOperand(call, 2),
                                LLVMGetOperand(call, 3), count, LLVMGetOperand(call, 4)};
        LLVMValueRef row = LLVMBuildCall2(b, type, f, args, 6, "");
        LLVMInstructionSetDebugLoc(row, LLVMInstructionGetDebugLoc(call));
        LLVMInstructionEraseFromParent(copy ? mc_row_copy_of(rl, call) : call);
    }
    LLVMBuildBr(b, rl->exit);
}

/* The copy's loop is a group's row: a row of 16 work-items (16x16
 * groups), run at the vectoriser's own width (64 lanes of bytes), would
 * all go to its scalar remainder.  So it is vectorised 16 wide, one vector
 * an iteration. */
enum { COPY_LANES = 16 };

static void vectorise_copy(const row_checks *rc)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rc->rl.wg));
    LLVMValueRef br = LLVMGetBasicBlockTerminator(mc_row_copy_of_block(&rc->rl, rc->rl.latch));
    unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
    LLVMValueRef md = br ? LLVMGetMetadata(br, kind) : NULL;
    if (!md || mc_loop_md_has(md, "llvm.loop.vectorize.width"))
        return;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMMetadataRef vw[2] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.width", 25),
                             LLVMValueAsMetadata(LLVMConstInt(i32, COPY_LANES, 0))};
    LLVMMetadataRef ic[2] = {LLVMMDStringInContext2(c, "llvm.loop.interleave.count", 26),
                             LLVMValueAsMetadata(LLVMConstInt(i32, 1, 0))};
    LLVMMetadataRef more[2] = {LLVMMDNodeInContext2(c, vw, 2), LLVMMDNodeInContext2(c, ic, 2)};
    LLVMSetMetadata(br, kind, mc_loop_md_plus(c, md, more, mc_loop_md_has(md, "llvm.loop.interleave.count") ? 1 : 2));
}

/* Versions the x loop whose latch is latch (its barrier calls made one
 * call for the row, in both versions); whether it did.  A loop that cannot
 * have a copy still gets its barrier calls made one; *hoisted: whether
 * they were. */
static bool version_loop(LLVMBuilderRef b, LLVMValueRef wg, LLVMBasicBlockRef latch, bool *hoisted)
{
    bool versioned = false;
    row_checks *rc = calloc(1, sizeof *rc);
    if (!rc)
        return false;
    if (!mc_row_loop_open(&rc->rl, wg, latch) || !rc->rl.bound)
        goto out;
    mc_row_find_counters(&rc->rl, &rc->counters);
    if (!find_calls(rc) || (!rc->nbarrier && (rc->untested || !rc->naccess)))
        goto out;
    mc_row_before_loop(&rc->rl, b);
    mc_row_corners at;
    mc_row_corners_at(b, &rc->rl, &rc->counters, &at);
    /* The copy runs when every access's row is inside its window, or is
     * one that a call for the row checks before it (row_form) */
    LLVMValueRef pass = NULL, first_lx[MAX_CALLS], inside[MAX_CALLS];
    bool copy = !rc->untested, by_row[MAX_CALLS];
    for (unsigned k = 0; copy && k < rc->naccess; k++) {
        LLVMValueRef call = rc->access[k], ordered = NULL;
        bool x_alone, in_order = ordered_address(b, rc, LLVMGetOperand(call, 4), LLVMGetInstructionParent(call),
                                                 &at, &ordered, &x_alone);
        inside[k] = in_order ? row_inside(b, rc, call, &at, ordered) : NULL;
        /* (a buffer's window is the launch's: where it is shut, it stays so,
         * and a call for each row would mostly be one for no lanes) */
        by_row[k] = in_order && x_alone && row_form(rc, call) &&
                    MOSAIC_CHECK_HOW_SPACE(LLVMConstIntGetZExtValue(LLVMGetOperand(call, 7))) == MOSAIC_CHECK_LOCAL;
        copy = inside[k] || by_row[k]; /* (what was built before the loop is left for LLVM to delete) */
        if (by_row[k] && ordered)
            pass = mc_row_and(b, pass, ordered);
        else if (!by_row[k] && copy)
            pass = mc_row_and(b, pass, inside[k]);
    }
    if (!copy && !rc->nbarrier)
        goto out;
    for (unsigned k = 0; k < rc->nbarrier; k++)
        first_lx[k] = mc_row_at_all(b, &rc->rl, LLVMGetOperand(rc->barrier[k], 1), at.low);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(wg));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMValueRef count = LLVMBuildAdd(b, at.high[0], LLVMConstInt(LLVMTypeOf(at.high[0]), 1, 0), "row.count");
    count = LLVMBuildZExtOrBitCast(b, count, i64, "");
    if (copy && !pass)
        pass = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
    for (unsigned k = 0; copy && k < rc->naccess; k++) {
        if (!by_row[k])
            continue;
        LLVMValueRef want = inside[k] ? LLVMBuildAnd(b, pass, LLVMBuildNot(b, inside[k], ""), "") : pass;
        call_for_row(b, rc, rc->access[k], &at, LLVMBuildSelect(b, want, count, LLVMConstInt(i64, 0, 0), "row.lanes"));
    }
    if (copy && mc_row_copy(&rc->rl, b)) {
        for (unsigned k = 0; k < rc->naccess; k++)
            skip_call(rc, rc->access[k]);
        if (rc->nbarrier)
            barriers_after_row(b, rc, true, count, first_lx);
        vectorise_copy(rc);
        versioned = true;
    }
    if (rc->nbarrier) {
        barriers_after_row(b, rc, false, count, first_lx);
        *hoisted = true;
    }
    if (versioned)
        mc_row_choose(&rc->rl, b, pass);
out:
    mc_row_loop_close(&rc->rl);
    free(rc);
    return versioned;
}

static void visit(mc_kernel_build *kb, LLVMBuilderRef b, LLVMBasicBlockRef latch, unsigned index, void *data)
{
    (void)index;
    bool hoisted = false;
    unsigned made = version_loop(b, kb->wg, latch, &hoisted);
    kb->stats[MC_STAT_check_rows] += made;
    kb->stats[MC_STAT_check_barrier_rows] += hoisted;
    *(unsigned *)data += made;
}

unsigned mc_check_row_versioning(mc_kernel_build *kbs, size_t nk)
{
    unsigned versioned = 0;
    mc_each_row_loop(kbs, nk, visit, &versioned);
    return versioned;
}
