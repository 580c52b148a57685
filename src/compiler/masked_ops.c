/*
 * Masked vector memory operations with one active lane become scalar ones.
 *
 * In a vectorised loop of exactly one vector iteration (the uniform copies of
 * a sub-group region, regions.c), `if (get_sub_group_local_id() == 0) ...`
 * gives the loop vectoriser a constant mask with one true lane, and it still
 * emits llvm.masked.load/store/gather/scatter: on x86 a scatter with one
 * active lane costs a dozen micro-operations where a scalar store costs one.
 * LLVM 16's InstCombine folds only all-true and all-false masks, so this
 * rewrites the one-lane case after optimisation: the lane's address (the
 * vector pointer plus the lane's offset, or the lane's pointer) is loaded or
 * stored as a scalar, and a load's result is the pass-through vector with
 * that lane inserted.  The rewrite is exact, so it runs on every kernel; a
 * module without such operations is left untouched.
 */
#include <string.h>

#include "compiler/compiler_internal.h"

typedef enum { M_LOAD, M_STORE, M_GATHER, M_SCATTER } masked_kind;

/* The kind of a masked memory intrinsic call, and where its operands are. */
static bool masked_call(LLVMValueRef inst, masked_kind *kind)
{
    LLVMValueRef f = mc_called_function(inst);
    if (!f)
        return false;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    static const struct { const char *prefix; masked_kind kind; } kinds[] = {
        { "llvm.masked.load.", M_LOAD },
        { "llvm.masked.store.", M_STORE },
        { "llvm.masked.gather.", M_GATHER },
        { "llvm.masked.scatter.", M_SCATTER },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix))) {
            *kind = kinds[i].kind;
            return true;
        }
    return false;
}

/* The one true lane of a constant mask, or -1 (not constant, none or several). */
static int one_true_lane(LLVMValueRef mask)
{
    if (!LLVMIsConstant(mask) || LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind)
        return -1;
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask));
    int lane = -1;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(mask, i);
        if (!e || !LLVMIsAConstantInt(e))
            return -1; /* undef or poison lanes: leave the call alone */
        if (LLVMConstIntGetZExtValue(e)) {
            if (lane >= 0)
                return -1;
            lane = (int)i;
        }
    }
    return lane;
}

/* The alignment of byte `offset` from an address aligned to `align`. */
static unsigned offset_alignment(unsigned align, unsigned long long offset)
{
    while (align > 1 && offset % align)
        align /= 2;
    return align ? align : 1;
}

static void scalarize(LLVMBuilderRef b, LLVMTargetDataRef td, LLVMValueRef call, masked_kind kind, int lane)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
    LLVMValueRef k = LLVMConstInt(LLVMInt32TypeInContext(c), (unsigned long long)lane, 0);
    LLVMPositionBuilderBefore(b, call);
    /* operands: load (ptr, align, mask, passthru), store (value, ptr, align, mask),
     * gather (ptrs, align, mask, passthru), scatter (values, ptrs, align, mask) */
    bool loads = kind == M_LOAD || kind == M_GATHER;
    LLVMValueRef value = loads ? NULL : LLVMGetOperand(call, 0);
    LLVMValueRef where = LLVMGetOperand(call, loads ? 0 : 1);
    unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, loads ? 1 : 2));
    LLVMTypeRef vec = LLVMTypeOf(loads ? call : value), elem = LLVMGetElementType(vec);
    LLVMValueRef ptr;
    if (kind == M_GATHER || kind == M_SCATTER) {
        ptr = LLVMBuildExtractElement(b, where, k, "lane.ptr");
    } else {
        ptr = LLVMBuildGEP2(b, elem, where, &k, 1, "lane.ptr");
        align = offset_alignment(align, (unsigned long long)lane * LLVMABISizeOfType(td, elem));
    }
    if (loads) {
        LLVMValueRef v = LLVMBuildLoad2(b, elem, ptr, "lane");
        LLVMSetAlignment(v, align);
        LLVMValueRef r = LLVMBuildInsertElement(b, LLVMGetOperand(call, 3), v, k, "");
        LLVMReplaceAllUsesWith(call, r);
    } else {
        LLVMValueRef s = LLVMBuildStore(b, LLVMBuildExtractElement(b, value, k, "lane"), ptr);
        LLVMSetAlignment(s, align);
    }
    LLVMInstructionEraseFromParent(call);
}

bool mc_scalarize_one_lane_masked_ops(LLVMModuleRef m)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    bool changed = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
                next = LLVMGetNextInstruction(inst);
                masked_kind kind;
                if (!LLVMIsACallInst(inst) || !masked_call(inst, &kind))
                    continue;
                int lane = one_true_lane(LLVMGetOperand(inst, kind == M_LOAD || kind == M_GATHER ? 2 : 3));
                if (lane < 0)
                    continue;
                scalarize(b, td, inst, kind, lane);
                changed = true;
            }
    LLVMDisposeBuilder(b);
    return changed;
}
