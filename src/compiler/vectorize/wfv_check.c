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
 * unwidened kernel would have, or the row's bounds at once where its
 * accesses need no tracking.  A row of accesses the compiler found cannot
 * race (compiler/check/windows.c) calls only when it is not inside the
 * launch's window for it.
 */
#include <stddef.h>

#include "compiler/check/check.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

bool wd_is_check_access(LLVMValueRef inst) { return mc_calls_named(inst, "__mosaic_check_access"); }

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

/* The row's accesses (from `first`, lanes `stride` bytes apart, `bytes`
 * each) behind the test of their bytes, [*low, *end), against the launch's
 * window for `how` (compiler/check/windows.c); NULL (nothing added) when
 * it has none. */
static LLVMBasicBlockRef window_test(widener *w, LLVMValueRef ctx, LLVMValueRef first, long long stride,
                                     LLVMValueRef bytes, LLVMValueRef how, LLVMValueRef *low, LLVMValueRef *end)
{
    int window = LLVMIsAConstantInt(how) && LLVMIsAConstantInt(bytes) ? mc_check_window_of(LLVMConstIntGetZExtValue(how))
                                                                       : -1;
    if (window < 0)
        return NULL;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(w->c);
    LLVMValueRef at = LLVMConstInt(w->i64, (unsigned long long)((long long)(w->lanes - 1) * stride), 1);
    LLVMValueRef last = stride ? LLVMBuildGEP2(w->b, i8, first, &at, 1, "") : first;
    LLVMValueRef high = stride < 0 ? first : last;
    *low = stride < 0 ? last : first;
    *end = LLVMBuildGEP2(w->b, i8, high, &bytes, 1, "");
    return mc_check_window_test(w->b, ctx, LLVMConstIntGetZExtValue(how), *low, *end);
}

/* The same for lanes at any addresses (a gather's, `offsets[i / 1024]`):
 * from the least address of the lanes running (mask, NULL: all) to the
 * greatest.  (With no lane running the test passes: the call would check
 * nothing.) */
static LLVMBasicBlockRef gather_window_test(widener *w, LLVMValueRef ctx, LLVMValueRef addresses, LLVMValueRef mask,
                                            LLVMValueRef bytes, LLVMValueRef how, LLVMValueRef *low_at,
                                            LLVMValueRef *end)
{
    if (!LLVMIsAConstantInt(how) || !LLVMIsAConstantInt(bytes) || mc_check_window_of(LLVMConstIntGetZExtValue(how)) < 0)
        return NULL;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(w->c), ptr = LLVMPointerTypeInContext(w->c, 0);
    LLVMTypeRef v64 = LLVMVectorType(w->i64, w->lanes);
    LLVMValueRef at = LLVMBuildPtrToInt(w->b, addresses, v64, "");
    LLVMValueRef low = at, high = at;
    if (mask) { /* (the lanes not running: the greatest address for the least, and 0 for the greatest) */
        low = LLVMBuildSelect(w->b, mask, at, LLVMConstAllOnes(v64), "");
        high = LLVMBuildSelect(w->b, mask, at, LLVMConstNull(v64), "");
    }
    LLVMValueRef least = wd_call_intrinsic(w, "llvm.vector.reduce.umin", &v64, 1, &low, 1);
    LLVMValueRef greatest = wd_call_intrinsic(w, "llvm.vector.reduce.umax", &v64, 1, &high, 1);
    LLVMValueRef first = LLVMBuildIntToPtr(w->b, least, ptr, ""), last = LLVMBuildIntToPtr(w->b, greatest, ptr, "");
    *low_at = first;
    *end = LLVMBuildGEP2(w->b, i8, last, &bytes, 1, "");
    return mc_check_window_test(w->b, ctx, LLVMConstIntGetZExtValue(how), first, *end);
}

/* After the window test (join) of a row's accesses of `bytes` at `address`
 * (lanes `stride` bytes apart, or at lanes_at: a gather's), [low, end),
 * where the access's set window may do instead (windows.c): their bits
 * tested or set, bytes one after the other from low where all lanes run
 * and touch, else lane by lane (mask: the lanes running, NULL: all). */
static void set_window_test(widener *w, LLVMValueRef ctx, uint64_t how, uint64_t bytes, LLVMValueRef address,
                            long long stride, LLVMValueRef lanes_at, LLVMValueRef mask, LLVMValueRef low,
                            LLVMValueRef end, LLVMBasicBlockRef join)
{
    char use = mc_check_set_window_use(how, bytes);
    if (!use)
        return;
    if (!lanes_at && !mask && (stride == 0 || stride == (long long)bytes || stride == -(long long)bytes)) {
        mc_check_set_window_row_test(w->b, ctx, how, use, low, end, stride ? w->lanes * bytes : bytes, NULL, NULL,
                                     bytes, join);
        return;
    }
    mc_check_set_window_row_test(w->b, ctx, how, use, low, end, 0, lanes_at ? lanes_at : wd_vector_value(w, address),
                                 mask, bytes, join);
}

/* A call of the device's void function `name` (declared where the module
 * has none) with n arguments of types params, at the builder. */
static void call_device(widener *w, const char *name, LLVMTypeRef *params, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(w->c), params, n, 0);
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(w->b)));
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, type);
    LLVMBuildCall2(w->b, type, f, args, n, "");
}

bool wd_widen_check_access(widener *w, LLVMValueRef inst)
{
    if (w->rows > 1)
        return w->why = "a checking call in several rows at once", false;
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
    LLVMValueRef lanes_at = NULL; /* a gather's addresses, a vector */
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
        lanes_at = wd_vector_value(w, op[4]);
        LLVMSetAlignment(LLVMBuildStore(w->b, lanes_at, w->check_addresses), 8);
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
    LLVMValueRef low = NULL, end = NULL;
    LLVMBasicBlockRef join = addresses == null ? window_test(w, args[0], first, st, op[6], op[7], &low, &end)
                                               : gather_window_test(w, args[0], lanes_at, mask, op[6], op[7], &low, &end);
    if (join)
        set_window_test(w, args[0], LLVMConstIntGetZExtValue(op[7]), LLVMConstIntGetZExtValue(op[6]), op[4], st,
                        lanes_at, mask, low, end, join);
    LLVMTypeRef params[13] = {ptr, i64, i64, i64, i64, ptr, ptr, i64, ptr, ptr, i64, i64, ptr};
    call_device(w, "__mosaic_check_row", params, args, 13);
    if (join) {
        LLVMBuildBr(w->b, join);
        LLVMPositionBuilderAtEnd(w->b, join);
        w->out_block[pmap_get(&w->bidx, LLVMGetInstructionParent(inst))] = join;
    }
    return true;
}

bool wd_is_check_barrier(LLVMValueRef inst) { return mc_calls_named(inst, "__mosaic_check_barrier"); }

bool wd_widen_check_barrier(widener *w, LLVMValueRef inst)
{
    /* (ctx, lx, ly, lz, site) */
    long long lx_stride = 0;
    if (!w->row || w->rows > 1 || wd_lanes_running(w, inst))
        return w->why = "a barrier's check that not every lane of one row may reach", false;
    if (wd_shape_of(w, LLVMGetOperand(inst, 1), &lx_stride) != CONSECUTIVE || lx_stride != 1)
        return w->why = "a barrier's check whose lanes are not consecutive work-items", false;
    for (unsigned k = 0; k < 5; k++)
        if (k != 1 && !wd_uniform(w, LLVMGetOperand(inst, k)))
            return w->why = "a barrier's check of varying work-groups", false;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(w->c), ptr = LLVMPointerTypeInContext(w->c, 0);
    LLVMValueRef args[6] = {
        wd_scalar_of(w, LLVMGetOperand(inst, 0)), wd_scalar_of(w, LLVMGetOperand(inst, 1)),
        wd_scalar_of(w, LLVMGetOperand(inst, 2)), wd_scalar_of(w, LLVMGetOperand(inst, 3)),
        LLVMConstInt(i64, w->lanes, 0), wd_scalar_of(w, LLVMGetOperand(inst, 4)),
    };
    LLVMTypeRef params[6] = {ptr, i64, i64, i64, i64, ptr};
    call_device(w, "__mosaic_check_barrier_row", params, args, 6);
    return true;
}
