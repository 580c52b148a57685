/*
 * Checking mode's calls in a widened kernel (MOSAIC_CHECK, docs/check.md).
 *
 * A kernel built for checking calls __mosaic_check_access before each
 * access (compiler/check/instrument.c).  Left as a call per work-item, it
 * kept the whole kernel from being widened, so a checked kernel ran a
 * work-item at a time.  Here each such call of K.body becomes one call of
 * __mosaic_check_row for the row's running lanes (compiler.h): the first
 * lane's local id, where the lanes' addresses are (one address and the
 * bytes between lanes, when the address is uniform or consecutive; else
 * the addresses stored in an array) and which lanes run (NULL: all).  The
 * device checks the lanes one after another, in lane order, as the
 * unwidened kernel would have; where it can tell a row's accesses need no
 * tracking (a read of a buffer nothing in the launch writes) it checks
 * the row's bounds at once.
 */
#include <stddef.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

bool wd_is_check_access(LLVMValueRef f)
{
    size_t len = 0;
    const char *name = f ? LLVMGetValueName2(f, &len) : "";
    return len == sizeof "__mosaic_check_access" - 1 && !memcmp(name, "__mosaic_check_access", len);
}

/* A private array of n elements of t at the start of the function being
 * built (the builder stays where it was). */
static LLVMValueRef entry_array(widener *w, LLVMTypeRef t, unsigned n)
{
    LLVMBasicBlockRef here = LLVMGetInsertBlock(w->b);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(here));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(w->c);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef a = LLVMBuildAlloca(b, LLVMArrayType(t, n), "check.lanes");
    LLVMDisposeBuilder(b);
    return a;
}

/* What the device does not change while the kernel runs: a load LLVM may
 * hoist out of the kernel's loops. */
static void invariant(widener *w, LLVMValueRef load)
{
    LLVMSetMetadata(load, LLVMGetMDKindIDInContext(w->c, "invariant.load", 14), LLVMMDNodeInContext(w->c, NULL, 0));
}

static bool addresses_varying(LLVMValueRef addresses, LLVMValueRef null) { return addresses != null; }

/* Where the row's accesses (from `first`, lanes `stride` bytes apart,
 * `bytes` each) need no call, by `how` (a read through an argument the
 * program only reads, or an access at get_global_id(0)): a test of the
 * row's bytes against the launch's window for it (compiler.h), which the
 * device leaves empty unless such accesses there are safe to skip.  The
 * builder is left in the block that calls (the test failed); what comes
 * after goes in the block returned.  NULL (nothing added) when `how` has
 * no window. */
static LLVMBasicBlockRef window_test(widener *w, LLVMValueRef inst, LLVMValueRef ctx, LLVMValueRef first,
                                     long long stride, LLVMValueRef bytes, LLVMValueRef how)
{
    if (!LLVMIsAConstantInt(how) || !LLVMIsAConstantInt(bytes))
        return NULL;
    uint64_t h = LLVMConstIntGetZExtValue(how);
    uint32_t from = MOSAIC_CHECK_HOW_FROM(h);
    int which = h & MOSAIC_CHECK_ARG_READ_ONLY ? 0 : h & MOSAIC_CHECK_ARG_OWN_ELEMENT ? 1 : -1;
    if (which < 0 || from >= MOSAIC_CHECK_FROM_OBJECT)
        return NULL;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(w->c), ptr = LLVMPointerTypeInContext(w->c, 0);
    LLVMValueRef fn = w->vec;
    LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(w->c, fn, "check.window");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(w->c, fn, "check.call");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(w->c, fn, "check.done");
    /* ctx->check_windows, NULL when the device gave none */
    LLVMValueRef at = LLVMConstInt(w->i64, offsetof(mosaic_wg_ctx, check_windows), 0);
    LLVMValueRef windows = LLVMBuildLoad2(w->b, ptr, LLVMBuildGEP2(w->b, i8, ctx, &at, 1, ""), "check.windows");
    invariant(w, windows);
    LLVMBuildCondBr(w->b, LLVMBuildIsNull(w->b, windows, ""), call, test);
    LLVMPositionBuilderAtEnd(w->b, test);
    at = LLVMConstInt(w->i64, (2 * (uint64_t)from + (uint64_t)which) * sizeof(mosaic_check_window), 0);
    LLVMValueRef window = LLVMBuildGEP2(w->b, i8, windows, &at, 1, "");
    at = LLVMConstInt(w->i64, offsetof(mosaic_check_window, hi), 0);
    LLVMValueRef lo = LLVMBuildLoad2(w->b, ptr, window, "window.lo");
    LLVMValueRef hi = LLVMBuildLoad2(w->b, ptr, LLVMBuildGEP2(w->b, i8, window, &at, 1, ""), "window.hi");
    invariant(w, lo);
    invariant(w, hi);
    /* the row's lowest byte and the end of its highest access */
    at = LLVMConstInt(w->i64, (unsigned long long)((long long)(w->lanes - 1) * stride), 1);
    LLVMValueRef last = stride ? LLVMBuildGEP2(w->b, i8, first, &at, 1, "") : first;
    LLVMValueRef low = stride < 0 ? last : first, high = stride < 0 ? first : last;
    LLVMValueRef end = LLVMBuildGEP2(w->b, i8, high, &bytes, 1, "");
    LLVMValueRef inside = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntUGE, low, lo, ""),
                                       LLVMBuildICmp(w->b, LLVMIntULE, end, hi, ""), "");
    inside = LLVMBuildAnd(w->b, inside, LLVMBuildICmp(w->b, LLVMIntULE, low, end, ""), "check.inside");
    LLVMBuildCondBr(w->b, inside, join, call);
    LLVMPositionBuilderAtEnd(w->b, call);
    (void)inst;
    return join;
}

bool wd_widen_check_access(widener *w, LLVMValueRef inst)
{
    if (w->row || w->rows > 1)
        return w->why = "a checking call in a row of several rows", false;
    /* (ctx, lx, ly, lz, address, base, bytes, how, site) */
    LLVMValueRef op[9];
    for (unsigned k = 0; k < 9; k++)
        op[k] = LLVMGetOperand(inst, k);
    long long lx_stride = 0, st = 0;
    if (wd_shape_of(w, op[1], &lx_stride) != CONSECUTIVE || lx_stride != 1)
        return w->why = "a checking call whose lanes are not consecutive work-items", false;
    for (unsigned k = 0; k < 9; k++)
        if (k != 1 && k != 4 && !wd_uniform(w, op[k]))
            return w->why = "a checking call of varying work-groups or sizes", false;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(w->c), ptr = LLVMPointerTypeInContext(w->c, 0);
    LLVMValueRef null = LLVMConstNull(ptr), first = null, addresses = null, stride = LLVMConstInt(i64, 0, 0);
    switch (wd_shape_of(w, op[4], &st)) {
    case UNIFORM:
        first = wd_scalar_of(w, op[4]);
        break;
    case CONSECUTIVE:
        first = wd_first_lanes(w, op[4]);
        stride = LLVMConstInt(i64, (unsigned long long)st, 1);
        break;
    default:
        if (!w->check_addresses)
            w->check_addresses = entry_array(w, ptr, w->lanes);
        LLVMSetAlignment(LLVMBuildStore(w->b, wd_vector_value(w, op[4]), w->check_addresses), 8);
        addresses = w->check_addresses;
        break;
    }
    LLVMValueRef mask = wd_lanes_running(w, inst), running = null;
    if (mask) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(w->c);
        if (!w->check_running)
            w->check_running = entry_array(w, i8, w->lanes);
        LLVMSetAlignment(LLVMBuildStore(w->b, LLVMBuildZExt(w->b, mask, LLVMVectorType(i8, w->lanes), ""),
                                        w->check_running), 1);
        running = w->check_running;
    }
    LLVMValueRef args[13] = {
        wd_scalar_of(w, op[0]), wd_scalar_of(w, op[1]), wd_scalar_of(w, op[2]), wd_scalar_of(w, op[3]),
        LLVMConstInt(i64, w->lanes, 0), running, first, stride, addresses,
        wd_scalar_of(w, op[5]), wd_scalar_of(w, op[6]), wd_scalar_of(w, op[7]), wd_scalar_of(w, op[8]),
    };
    LLVMBasicBlockRef join = NULL;
    if (!addresses_varying(addresses, null))
        join = window_test(w, inst, args[0], first, st, op[6], op[7]);
    LLVMTypeRef params[13] = {ptr, i64, i64, i64, i64, ptr, ptr, i64, ptr, ptr, i64, i64, ptr};
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(w->c), params, 13, 0);
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(w->b)));
    LLVMValueRef f = LLVMGetNamedFunction(m, "__mosaic_check_row");
    if (!f)
        f = LLVMAddFunction(m, "__mosaic_check_row", type);
    LLVMBuildCall2(w->b, type, f, args, 13, "");
    if (join) {
        LLVMBuildBr(w->b, join);
        LLVMPositionBuilderAtEnd(w->b, join);
        w->out_block[pmap_get(&w->bidx, LLVMGetInstructionParent(inst))] = join;
    }
    return true;
}
