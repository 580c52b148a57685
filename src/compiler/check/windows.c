/*
 * Checking mode's windows (compiler.h, mosaic_check_window): where a call
 * of the checker may be skipped.  An access through kernel argument i that
 * the compiler found cannot race where the launch allows it
 * (instrument.c: MOSAIC_CHECK_ARG_READ_ONLY, _OWN_ELEMENT) needs no call
 * when all its bytes are inside the launch's window for it, which the
 * device makes empty unless such an access there can neither race, nor
 * read bytes nothing wrote, nor need its write counted.  The test is a
 * few instructions and loads LLVM may hoist; the call it saves walks the
 * device's records.
 *
 * Widened kernels test a row at once (compiler/vectorize/wfv_check.c);
 * the pass `check-windows` tests each call left, of work-items run one at
 * a time (a barrier kernel's regions, a kernel that is not widened).
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

int mc_check_window_of(uint64_t how)
{
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    if (from >= MOSAIC_CHECK_FROM_OBJECT)
        return -1;
    if (how & MOSAIC_CHECK_ARG_READ_ONLY)
        return (int)(2 * from);
    if (how & MOSAIC_CHECK_ARG_OWN_ELEMENT)
        return (int)(2 * from + 1);
    return -1;
}

LLVMBasicBlockRef mc_check_window_test(LLVMBuilderRef b, LLVMValueRef ctx, int window, LLVMValueRef low,
                                       LLVMValueRef end)
{
    LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
    LLVMValueRef fn = LLVMGetBasicBlockParent(here);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(c, fn, "check.window");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c, fn, "check.call");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, fn, "check.done");
    /* ctx->check_windows, NULL when the device gave none */
    LLVMValueRef at = LLVMConstInt(i64, offsetof(mosaic_wg_ctx, check_windows), 0);
    LLVMValueRef windows = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i8, ctx, &at, 1, ""), "check.windows");
    invariant(c, windows);
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, windows, ""), call, test);
    LLVMPositionBuilderAtEnd(b, test);
    at = LLVMConstInt(i64, (uint64_t)window * sizeof(mosaic_check_window), 0);
    LLVMValueRef w = LLVMBuildGEP2(b, i8, windows, &at, 1, "");
    at = LLVMConstInt(i64, offsetof(mosaic_check_window, hi), 0);
    LLVMValueRef lo = LLVMBuildLoad2(b, ptr, w, "window.lo");
    LLVMValueRef hi = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i8, w, &at, 1, ""), "window.hi");
    invariant(c, lo);
    invariant(c, hi);
    LLVMValueRef inside = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, low, lo, ""),
                                       LLVMBuildICmp(b, LLVMIntULE, end, hi, ""), "");
    inside = LLVMBuildAnd(b, inside, LLVMBuildICmp(b, LLVMIntULE, low, end, ""), "check.inside");
    LLVMBuildCondBr(b, inside, join, call);
    LLVMPositionBuilderAtEnd(b, call);
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
        if (!LLVMIsAConstantInt(how) || !LLVMIsAConstantInt(bytes) || mc_check_window_of(LLVMConstIntGetZExtValue(how)) < 0)
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
        LLVMBasicBlockRef join = mc_check_window_test(
            b, LLVMGetOperand(call, 0), mc_check_window_of(LLVMConstIntGetZExtValue(LLVMGetOperand(call, 7))),
            address, end);
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
