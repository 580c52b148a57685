/*
 * Checking mode's windows (compiler.h, mosaic_check_window): where a call
 * of the checker may be skipped.  An access through kernel argument i that
 * the compiler found cannot race where the launch allows it
 * (instrument.c: MOSAIC_CHECK_ARG_READ_ONLY, _OWN_ELEMENT), or an access
 * of a __local object that cannot race (local_objects.c:
 * MOSAIC_CHECK_LOCAL_NO_WRITER, _OWN_SLOT), needs no call when all its bytes are
 * inside the window for it, which the device makes empty unless such an
 * access there can neither race, nor read bytes nothing wrote, nor need
 * its write counted.  The test is a few instructions and loads LLVM may
 * hoist (a __local object's window: not past a barrier, where it may
 * open); the call it saves walks the device's records.
 *
 * Widened kernels test a row at once (compiler/vectorize/wfv_check.c);
 * the pass `check-windows` tests each call left, of work-items run one at
 * a time (a barrier kernel's regions, a kernel that is not widened).  It
 * also puts an access of a private array, which calls for its bounds
 * only, behind the test of its bytes against the array's: once loops are
 * unrolled most indices are constants, and the test folds away.
 */
#include <stddef.h>
#include <stdlib.h>

#include "compiler/check/check.h"
#include "compiler/ir/util.h"

/* What the device does not change while the kernel runs: a load LLVM may
 * hoist out of the kernel's loops. */
static void invariant(LLVMContextRef c, LLVMValueRef load)
{
    LLVMSetMetadata(load, LLVMGetMDKindIDInContext(c, "invariant.load", 14), LLVMMDNodeInContext(c, NULL, 0));
}

/* At b: to `join` when [low, end) is inside [lo, hi), else to `call`,
 * where b is left. */
static void branch_unless_inside(LLVMBuilderRef b, LLVMValueRef low, LLVMValueRef end, LLVMValueRef lo,
                                 LLVMValueRef hi, LLVMBasicBlockRef join, LLVMBasicBlockRef call)
{
    LLVMValueRef inside = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, low, lo, ""),
                                       LLVMBuildICmp(b, LLVMIntULE, end, hi, ""), "");
    inside = LLVMBuildAnd(b, inside, LLVMBuildICmp(b, LLVMIntULE, low, end, ""), "check.inside");
    LLVMBuildCondBr(b, inside, join, call);
    LLVMPositionBuilderAtEnd(b, call);
}

int mc_check_window_of(uint64_t how)
{
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    if (MOSAIC_CHECK_HOW_LOCAL_WINDOW(how))
        return how & (MOSAIC_CHECK_LOCAL_NO_WRITER | MOSAIC_CHECK_LOCAL_OWN_SLOT | MOSAIC_CHECK_LOCAL_ATOMICS_ONLY)
                   ? (int)MOSAIC_CHECK_HOW_LOCAL_WINDOW(how) - 1
                   : -1;
    if (from >= MOSAIC_CHECK_FROM_OBJECT)
        return -1;
    if (how & MOSAIC_CHECK_ARG_READ_ONLY)
        return (int)(MOSAIC_CHECK_ARG_WINDOWS * from);
    if (how & MOSAIC_CHECK_ARG_OWN_BLOCK)
        return (int)(MOSAIC_CHECK_ARG_WINDOWS * from + 2);
    if (how & MOSAIC_CHECK_ARG_OWN_ELEMENT)
        return (int)(MOSAIC_CHECK_ARG_WINDOWS * from + (MOSAIC_CHECK_HOW_OWN_ROW(how) ? 2 : 1));
    return -1;
}

/* The pointer at byte `offset` of the work-group's context ctx, loaded at b. */
static LLVMValueRef ctx_pointer(LLVMBuilderRef b, LLVMValueRef ctx, size_t offset, const char *name)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(ctx));
    LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), offset, 0);
    return LLVMBuildLoad2(b, LLVMPointerTypeInContext(c, 0),
                          LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), ctx, &at, 1, ""), name);
}

LLVMValueRef mc_check_windows_load(LLVMBuilderRef b, LLVMValueRef ctx, const char *name)
{
    return ctx_pointer(b, ctx, offsetof(mosaic_wg_ctx, check_windows), name);
}

LLVMValueRef mc_check_window_at(LLVMBuilderRef b, LLVMValueRef windows, int window)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(windows));
    LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), (uint64_t)window * sizeof(mosaic_check_window), 0);
    return LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), windows, &at, 1, "");
}

void mc_check_window_bounds(LLVMBuilderRef b, LLVMValueRef w, const char *lo_name, const char *hi_name,
                            LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(w));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), offsetof(mosaic_check_window, hi), 0);
    *lo = LLVMBuildLoad2(b, ptr, w, lo_name);
    *hi = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), w, &at, 1, ""), hi_name);
}

LLVMBasicBlockRef mc_check_window_test(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, LLVMValueRef low,
                                       LLVMValueRef end)
{
    int window = mc_check_window_of(how);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
    LLVMValueRef fn = LLVMGetBasicBlockParent(here);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(c, fn, "check.window");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c, fn, "check.call");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, fn, "check.done");
    LLVMValueRef windows = mc_check_windows_load(b, ctx, "check.windows"), lo, hi;
    invariant(c, windows);
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, windows, ""), call, test);
    LLVMPositionBuilderAtEnd(b, test);
    mc_check_window_bounds(b, mc_check_window_at(b, windows, window), "window.lo", "window.hi", &lo, &hi);
    if (!MOSAIC_CHECK_HOW_LOCAL_WINDOW(how)) { /* (a __local object's may open at a barrier) */
        invariant(c, lo);
        invariant(c, hi);
    }
    branch_unless_inside(b, low, end, lo, hi, join, call);
    return join;
}

/* (check.h: a plain store at its own slot sets, a plain read tests) */
char mc_check_set_window_use(uint64_t how, uint64_t bytes)
{
    if (MOSAIC_CHECK_HOW_SPACE(how) != MOSAIC_CHECK_LOCAL || (how & MOSAIC_CHECK_ATOMIC) || !bytes || bytes >= 64)
        return 0;
    if ((how & MOSAIC_CHECK_LOCAL_OWN_SLOT) && (how & MOSAIC_CHECK_WRITE) && !(how & MOSAIC_CHECK_READ))
        return 'w';
    if ((how & (MOSAIC_CHECK_LOCAL_NO_WRITER | MOSAIC_CHECK_LOCAL_OWN_SLOT)) && (how & MOSAIC_CHECK_READ) &&
        !(how & MOSAIC_CHECK_WRITE))
        return 'r';
    return 0;
}

/* The bounds of the set window of an access of `how` (*lo, *hi) and the
 * group's __local memory (*local), loaded at b; whether the device gave no
 * windows (then the bounds are read from ctx: a test against them fails). */
static LLVMValueRef set_window_bounds(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, LLVMValueRef *lo,
                                      LLVMValueRef *hi, LLVMValueRef *local)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(ctx));
    LLVMValueRef windows = mc_check_windows_load(b, ctx, "check.windows");
    invariant(c, windows);
    LLVMValueRef none = LLVMBuildIsNull(b, windows, "");
    LLVMValueRef set = mc_check_window_at(b, windows, MOSAIC_CHECK_SET_WINDOW(mc_check_window_of(how)));
    mc_check_window_bounds(b, LLVMBuildSelect(b, none, ctx, set, ""), "set.lo", "set.hi", lo, hi);
    *local = ctx_pointer(b, ctx, offsetof(mosaic_wg_ctx, local_mem), "local");
    invariant(c, *local);
    return none;
}

/* At b (where the window test left it, the call to come): to `bits` when
 * [low, end) is inside its set window and in one word of
 * ctx->check_local_written, which `bits` sets (use 'w') or tests (use 'r':
 * all set), then on to join; else to a new block, where b is left for the
 * call. */
static void set_window_test(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, LLVMValueRef low, LLVMValueRef end,
                            uint64_t bytes, char use, LLVMBasicBlockRef join)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMBasicBlockRef bits = LLVMAppendBasicBlockInContext(c, fn, "check.bits");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c, fn, "check.call");
    LLVMValueRef lo, hi, local, none = set_window_bounds(b, ctx, how, &lo, &hi, &local);
    LLVMValueRef off = LLVMBuildSub(b, LLVMBuildPtrToInt(b, low, i64, ""), LLVMBuildPtrToInt(b, local, i64, ""), "");
    LLVMValueRef bit = LLVMBuildAnd(b, off, LLVMConstInt(i64, 63, 0), "");
    LLVMValueRef one_word = LLVMBuildICmp(b, LLVMIntULE, bit, LLVMConstInt(i64, 64 - bytes, 0), "");
    LLVMBasicBlockRef test = LLVMGetInsertBlock(b);
    branch_unless_inside(b, low, end, lo, hi, bits, call);
    /* (and in one word) */
    LLVMValueRef br = LLVMGetBasicBlockTerminator(test);
    LLVMPositionBuilderBefore(b, br);
    LLVMSetCondition(br, LLVMBuildAnd(b, LLVMBuildAnd(b, LLVMGetCondition(br), one_word, ""), LLVMBuildNot(b, none, ""),
                                      "check.sets"));
    LLVMPositionBuilderAtEnd(b, bits);
    LLVMValueRef words = ctx_pointer(b, ctx, offsetof(mosaic_wg_ctx, check_local_written), "written");
    invariant(c, words);
    LLVMValueRef index = LLVMBuildLShr(b, off, LLVMConstInt(i64, 6, 0), "");
    LLVMValueRef word = LLVMBuildGEP2(b, i64, words, &index, 1, "");
    LLVMValueRef mask = LLVMBuildShl(b, LLVMConstInt(i64, (1ull << bytes) - 1, 0), bit, "");
    LLVMValueRef was = LLVMBuildLoad2(b, i64, word, "");
    if (use == 'w') {
        LLVMBuildStore(b, LLVMBuildOr(b, was, mask, ""), word);
        LLVMBuildBr(b, join);
    } else { /* (a byte unwritten: the call reports it) */
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, was, mask, ""), mask, "check.written"), join,
                        call);
    }
    LLVMPositionBuilderAtEnd(b, call);
}

/* The bits [from, to) of a word (i64 values, from <= to <= 64), at b. */
static LLVMValueRef bits_between(LLVMBuilderRef b, LLVMValueRef from, LLVMValueRef to)
{
    LLVMTypeRef i64 = LLVMTypeOf(from);
    LLVMValueRef all = LLVMConstAllOnes(i64), n64 = LLVMConstInt(i64, 64, 0), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef ones[2];
    for (int k = 0; k < 2; k++) { /* (below n: 1 << n - 1, all at 64) */
        LLVMValueRef n = k ? to : from;
        LLVMValueRef low = LLVMBuildSub(b, LLVMBuildShl(b, one, LLVMBuildAnd(b, n, LLVMConstInt(i64, 63, 0), ""), ""),
                                        one, "");
        ones[k] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, n, n64, ""), all, low, "");
    }
    return LLVMBuildAnd(b, ones[1], LLVMBuildNot(b, ones[0], ""), "");
}

/* v in each of n lanes, at b. */
static LLVMValueRef splat(LLVMBuilderRef b, unsigned n, LLVMValueRef v)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
    LLVMValueRef one = LLVMBuildInsertElement(b, LLVMGetPoison(LLVMVectorType(LLVMTypeOf(v), n)), v,
                                              LLVMConstInt(i32, 0, 0), "");
    return LLVMBuildShuffleVector(b, one, LLVMGetPoison(LLVMTypeOf(one)), LLVMConstNull(LLVMVectorType(i32, n)), "");
}

/* For word `index` of ctx->check_local_written at b, its bits of `mask`:
 * set (use 'w'), or *all (use 'r') and-ed with whether they all are. */
static void word_bits(LLVMBuilderRef b, LLVMValueRef words, LLVMValueRef index, LLVMValueRef mask, char use,
                      LLVMValueRef *all)
{
    LLVMTypeRef i64 = LLVMTypeOf(mask);
    LLVMValueRef word = LLVMBuildGEP2(b, i64, words, &index, 1, "");
    LLVMValueRef was = LLVMBuildLoad2(b, i64, word, "");
    if (use == 'w')
        LLVMBuildStore(b, LLVMBuildOr(b, was, mask, ""), word);
    else
        *all = LLVMBuildAnd(b, *all, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, was, mask, ""), mask, ""), "");
}

void mc_check_set_window_row_test(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, char use, LLVMValueRef low,
                                  LLVMValueRef end, uint64_t span, LLVMValueRef lanes_at, LLVMValueRef running,
                                  uint64_t bytes, LLVMBasicBlockRef join)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i1 = LLVMInt1TypeInContext(c);
    LLVMBasicBlockRef bits = LLVMAppendBasicBlockInContext(c, fn, "check.bits");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c, fn, "check.call");
    LLVMValueRef lo, hi, local, none = set_window_bounds(b, ctx, how, &lo, &hi, &local);
    LLVMValueRef base = LLVMBuildPtrToInt(b, local, i64, "");
    LLVMValueRef sets = LLVMBuildNot(b, none, ""), offsets = NULL, zero = LLVMConstInt(i64, 0, 0);
    unsigned lanes = 0;
    if (lanes_at) { /* each running lane's bytes in one word of the bits */
        LLVMTypeRef v = LLVMTypeOf(lanes_at);
        lanes = LLVMGetVectorSize(v);
        LLVMTypeRef v64 = LLVMVectorType(i64, lanes);
        if (LLVMGetTypeKind(LLVMGetElementType(v)) == LLVMPointerTypeKind)
            lanes_at = LLVMBuildPtrToInt(b, lanes_at, v64, "");
        offsets = LLVMBuildSub(b, lanes_at, splat(b, lanes, base), "");
        LLVMValueRef in_word = LLVMBuildICmp(b, LLVMIntULE,
                                             LLVMBuildAnd(b, offsets, splat(b, lanes, LLVMConstInt(i64, 63, 0)), ""),
                                             splat(b, lanes, LLVMConstInt(i64, 64 - bytes, 0)), "");
        if (running)
            in_word = LLVMBuildOr(b, in_word, LLVMBuildNot(b, running, ""), "");
        LLVMValueRef all_in = LLVMBuildExtractElement(b, in_word, zero, "");
        for (unsigned i = 1; i < lanes; i++)
            all_in = LLVMBuildAnd(b, all_in, LLVMBuildExtractElement(b, in_word, LLVMConstInt(i64, i, 0), ""), "");
        sets = LLVMBuildAnd(b, sets, all_in, "");
    }
    LLVMBasicBlockRef test = LLVMGetInsertBlock(b);
    branch_unless_inside(b, low, end, lo, hi, bits, call);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(test);
    LLVMPositionBuilderBefore(b, br);
    LLVMSetCondition(br, LLVMBuildAnd(b, LLVMGetCondition(br), sets, "check.sets"));
    LLVMPositionBuilderAtEnd(b, bits);
    LLVMValueRef words = ctx_pointer(b, ctx, offsetof(mosaic_wg_ctx, check_local_written), "written");
    invariant(c, words);
    LLVMValueRef all = LLVMConstInt(i1, 1, 0), six = LLVMConstInt(i64, 6, 0), n64 = LLVMConstInt(i64, 64, 0);
    if (!lanes_at) { /* [low, low + span): the words it meets, each its part */
        LLVMValueRef off = LLVMBuildSub(b, LLVMBuildPtrToInt(b, low, i64, ""), base, "");
        LLVMValueRef first = LLVMBuildLShr(b, off, six, ""), bit = LLVMBuildAnd(b, off, LLVMConstInt(i64, 63, 0), "");
        LLVMValueRef top = LLVMBuildAdd(b, bit, LLVMConstInt(i64, span, 0), ""); /* (bit's end, from the first word) */
        for (uint64_t k = 0; k <= span / 64 + 1; k++) {
            LLVMValueRef at = LLVMConstInt(i64, 64 * k, 0);
            LLVMValueRef from = k ? zero : bit;
            LLVMValueRef to = LLVMBuildSub(b, top, at, ""); /* (may pass 64, or be at or below 0) */
            LLVMValueRef meets = LLVMBuildICmp(b, LLVMIntSGT, to, zero, "");
            to = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, to, n64, ""), n64, to, "");
            LLVMValueRef mask = LLVMBuildSelect(b, meets, bits_between(b, from, to), zero, "");
            LLVMValueRef index = LLVMBuildSelect(b, meets, LLVMBuildAdd(b, first, LLVMConstInt(i64, k, 0), ""), first, "");
            word_bits(b, words, index, mask, use, &all);
        }
    } else { /* a loop over the lanes */
        LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, fn, "check.lanes");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "check.lanes.done");
        LLVMBuildBr(b, loop);
        LLVMPositionBuilderAtEnd(b, loop);
        LLVMValueRef lane = LLVMBuildPhi(b, i64, "lane"), so_far = LLVMBuildPhi(b, i1, "");
        LLVMValueRef off = LLVMBuildExtractElement(b, offsets, lane, "");
        LLVMValueRef bit = LLVMBuildAnd(b, off, LLVMConstInt(i64, 63, 0), "");
        LLVMValueRef mask = bits_between(b, bit, LLVMBuildAdd(b, bit, LLVMConstInt(i64, bytes, 0), ""));
        LLVMValueRef index = LLVMBuildLShr(b, off, six, "");
        if (running) { /* (a lane that does not run: no bits, word 0) */
            LLVMValueRef runs = LLVMBuildExtractElement(b, running, lane, "");
            mask = LLVMBuildSelect(b, runs, mask, zero, "");
            index = LLVMBuildSelect(b, runs, index, zero, "");
        }
        LLVMValueRef now = so_far;
        word_bits(b, words, index, mask, use, &now);
        LLVMValueRef next = LLVMBuildAdd(b, lane, LLVMConstInt(i64, 1, 0), "");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, LLVMConstInt(i64, lanes, 0), ""), loop, done);
        LLVMValueRef lane_in[2] = {zero, next}, all_in[2] = {all, now};
        LLVMBasicBlockRef from[2] = {bits, loop};
        LLVMAddIncoming(lane, lane_in, from, 2);
        LLVMAddIncoming(so_far, all_in, from, 2);
        LLVMPositionBuilderAtEnd(b, done);
        all = now;
    }
    if (use == 'w') /* (a byte unwritten: the call reports it) */
        LLVMBuildBr(b, join);
    else
        LLVMBuildCondBr(b, all, join, call);
    LLVMPositionBuilderAtEnd(b, call);
}

LLVMBasicBlockRef mc_check_set_block_of(LLVMValueRef call)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (!br || LLVMGetNumSuccessors(br) != 1)
        return NULL;
    /* the set window's test, then its bits: ways into the call's block */
    LLVMBasicBlockRef join = LLVMGetSuccessor(br, 0), from = NULL, bits = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef t = LLVMGetUser(u);
        if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t))
            return NULL;
        LLVMBasicBlockRef on = LLVMGetSuccessor(t, 0);
        if (LLVMGetSuccessor(t, 1) == bb && on != join && !from)
            from = LLVMGetInstructionParent(t), bits = on;
    }
    LLVMValueRef last = bits ? LLVMGetBasicBlockTerminator(bits) : NULL;
    if (!last || !LLVMIsABranchInst(last) || LLVMGetSuccessor(last, 0) != join ||
        (LLVMIsConditional(last) && LLVMGetSuccessor(last, 1) != bb))
        return NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMBasicBlockRef p = LLVMGetInstructionParent(LLVMGetUser(u));
        if (p != from && p != bits)
            return NULL;
    }
    return from;
}

/* A private array's bytes are the window of an access of it (a call for
 * bounds only, which the device makes when its bytes are not inside). */
uint64_t mc_check_private_array_size(LLVMValueRef call)
{
    uint64_t how = LLVMConstIntGetZExtValue(LLVMGetOperand(call, 7));
    LLVMValueRef site = LLVMGetOperand(call, 8);
    if (MOSAIC_CHECK_HOW_SPACE(how) != MOSAIC_CHECK_PRIVATE || MOSAIC_CHECK_HOW_FROM(how) != MOSAIC_CHECK_FROM_OBJECT ||
        !LLVMIsAGlobalVariable(site) || !LLVMGetInitializer(site))
        return 0;
    LLVMValueRef size = LLVMGetOperand(LLVMGetInitializer(site), 5); /* mosaic_check_site.object_size */
    return size && LLVMIsAConstantInt(size) ? LLVMConstIntGetZExtValue(size) : 0;
}

/* Builds, at b, the test of [low, end) against [base, base + size): b is
 * left where the checker is to be called, which must branch to the block
 * returned. */
static LLVMBasicBlockRef private_array_test(LLVMBuilderRef b, LLVMValueRef base, uint64_t size, LLVMValueRef low,
                                            LLVMValueRef end)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c, fn, "check.call");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, fn, "check.done");
    LLVMValueRef bytes = LLVMConstInt(LLVMInt64TypeInContext(c), size, 0);
    branch_unless_inside(b, low, end, base, LLVMBuildGEP2(b, i8, base, &bytes, 1, ""), join, call);
    return join;
}

unsigned mc_check_windows(LLVMModuleRef m)
{
    LLVMValueRef check = LLVMGetNamedFunction(m, "__mosaic_check_access");
    if (!check)
        return 0;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    unsigned tested = 0;
    /* the calls first (the test splits their blocks) */
    size_t n = 0, room = 0;
    LLVMValueRef *calls = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(check); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || !mc_calls_named(call, "__mosaic_check_access"))
            continue;
        LLVMValueRef how = LLVMGetOperand(call, 7), bytes = LLVMGetOperand(call, 6);
        if (!LLVMIsAConstantInt(how) || !LLVMIsAConstantInt(bytes) ||
            (mc_check_window_of(LLVMConstIntGetZExtValue(how)) < 0 && !mc_check_private_array_size(call)))
            continue;
        if (n == room) {
            room = room ? 2 * room : 16;
            LLVMValueRef *more = realloc(calls, room * sizeof *more);
            if (!more)
                break;
            calls = more;
        }
        calls[n++] = call;
    }
    for (size_t k = 0; k < n; k++) {
        LLVMValueRef call = calls[k];
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
        /* bb: ... call, rest  ->  bb: ... test; check.call: call; check.done: rest */
        LLVMValueRef next = LLVMGetNextInstruction(call);
        LLVMPositionBuilderBefore(b, call);
        LLVMValueRef address = LLVMGetOperand(call, 4), bytes = LLVMGetOperand(call, 6);
        LLVMValueRef end = LLVMBuildGEP2(b, i8, address, &bytes, 1, "");
        uint64_t how = LLVMConstIntGetZExtValue(LLVMGetOperand(call, 7)), size = mc_check_private_array_size(call);
        LLVMBasicBlockRef join = size ? private_array_test(b, LLVMGetOperand(call, 5), size, address, end)
                                      : mc_check_window_test(b, LLVMGetOperand(call, 0), how, address, end);
        char use = size ? 0 : mc_check_set_window_use(how, LLVMConstIntGetZExtValue(bytes));
        if (use)
            set_window_test(b, LLVMGetOperand(call, 0), how, address, end, LLVMConstIntGetZExtValue(bytes), use,
                            join);
        /* the call and what follows it move: the call to check.call, the rest to check.done */
        LLVMInstructionRemoveFromParent(call);
        LLVMInsertIntoBuilder(b, call);
        LLVMBuildBr(b, join);
        LLVMPositionBuilderAtEnd(b, join);
        while (next) {
            LLVMValueRef after = LLVMGetNextInstruction(next);
            LLVMInstructionRemoveFromParent(next);
            LLVMInsertIntoBuilder(b, next);
            next = after;
        }
        /* phis of bb's successors now come from check.done */
        LLVMValueRef term = LLVMGetBasicBlockTerminator(join);
        for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++)
            mc_retarget_phis(b, LLVMGetSuccessor(term, s), bb, join);
        tested++;
    }
    free(calls);
    LLVMDisposeBuilder(b);
    return tested;
}
