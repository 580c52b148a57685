/*
 * Atomics on __local memory in a work-group function become plain loads and
 * stores.
 *
 * K.wg runs a whole work-group on one thread, one work-item after another
 * (between barriers: regions.c; without: the loop of workgroup.c), and
 * __local memory belongs to that group alone, so no other thread can see an
 * atomic operation on it half done.  A `lock`ed instruction costs some 20
 * cycles where the plain ones cost one or two: a local histogram is made of
 * them.  K.wi keeps its atomics (fibers, and tests that run work-items as
 * threads).
 *
 * This runs after mc_annotate_wg: the plain accesses carry no access group,
 * so the vectoriser still sees that two work-items may update one counter.
 */
#include <string.h>

#include "compiler/workgroup/passes.h"

/* Is p an address in __local memory on every path this can follow? */
static bool local_address(LLVMValueRef p, int depth)
{
    if (depth > 16)
        return false;
    LLVMTypeRef t = LLVMTypeOf(p);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 3)
        return true;
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
        return local_address(LLVMGetOperand(p, 0), depth + 1);
    if (LLVMIsAConstantExpr(p)) {
        LLVMOpcode op = LLVMGetConstOpcode(p);
        return (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast) &&
               local_address(LLVMGetOperand(p, 0), depth + 1);
    }
    if (LLVMIsAIntToPtrInst(p) && LLVMIsAPtrToIntInst(LLVMGetOperand(p, 0))) /* the builtins' generic casts */
        return local_address(LLVMGetOperand(LLVMGetOperand(p, 0), 0), depth + 1);
    if (LLVMIsASelectInst(p))
        return local_address(LLVMGetOperand(p, 1), depth + 1) && local_address(LLVMGetOperand(p, 2), depth + 1);
    if (LLVMIsAPHINode(p)) {
        unsigned n = LLVMCountIncoming(p);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef v = LLVMGetIncomingValue(p, i);
            if (v != p && !local_address(v, depth + 1))
                return false;
        }
        return n > 0;
    }
    return false;
}

static LLVMValueRef plain_load(LLVMBuilderRef b, LLVMValueRef inst, LLVMTypeRef t, LLVMValueRef p)
{
    LLVMValueRef v = LLVMBuildLoad2(b, t, p, "");
    LLVMSetAlignment(v, LLVMGetAlignment(inst));
    LLVMSetVolatile(v, LLVMGetVolatile(inst));
    return v;
}

static void plain_store(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef v, LLVMValueRef p)
{
    LLVMValueRef s = LLVMBuildStore(b, v, p);
    LLVMSetAlignment(s, LLVMGetAlignment(inst));
    LLVMSetVolatile(s, LLVMGetVolatile(inst));
}

/* inst's plain replacement (its value, or inst itself when it has none), or NULL to keep it. */
static LLVMValueRef make_plain(LLVMBuilderRef b, LLVMValueRef inst)
{
    if (LLVMIsAAtomicRMWInst(inst)) {
        LLVMValueRef p = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 1);
        if (!local_address(p, 0))
            return NULL;
        LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
        if (op != LLVMAtomicRMWBinOpXchg && op != LLVMAtomicRMWBinOpFAdd && op != LLVMAtomicRMWBinOpFSub &&
            LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
            return NULL;
        LLVMPositionBuilderBefore(b, inst);
        LLVMValueRef old = plain_load(b, inst, LLVMTypeOf(inst), p);
        LLVMValueRef nv = mc_rmw_result(b, op, old, v);
        if (!nv) {
            LLVMInstructionEraseFromParent(old);
            return NULL;
        }
        plain_store(b, inst, nv, p);
        return old;
    }
    if (LLVMIsAAtomicCmpXchgInst(inst)) {
        LLVMValueRef p = LLVMGetOperand(inst, 0), cmp = LLVMGetOperand(inst, 1), nv = LLVMGetOperand(inst, 2);
        LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(cmp));
        if (!local_address(p, 0) || (k != LLVMIntegerTypeKind && k != LLVMPointerTypeKind))
            return NULL;
        LLVMPositionBuilderBefore(b, inst);
        LLVMValueRef old = plain_load(b, inst, LLVMTypeOf(cmp), p);
        LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, old, cmp, "");
        plain_store(b, inst, LLVMBuildSelect(b, eq, nv, old, ""), p);
        LLVMValueRef r = LLVMBuildInsertValue(b, LLVMGetUndef(LLVMTypeOf(inst)), old, 0, "");
        return LLVMBuildInsertValue(b, r, eq, 1, "");
    }
    if (LLVMIsALoadInst(inst) && LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic &&
        local_address(LLVMGetOperand(inst, 0), 0)) {
        LLVMSetOrdering(inst, LLVMAtomicOrderingNotAtomic);
        return inst;
    }
    if (LLVMIsAStoreInst(inst) && LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic &&
        local_address(LLVMGetOperand(inst, 1), 0)) {
        LLVMSetOrdering(inst, LLVMAtomicOrderingNotAtomic);
        return inst;
    }
    return NULL;
}

unsigned mc_demote_local_atomics(LLVMValueRef wg)
{
    if (!wg)
        return 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            LLVMValueRef plain = make_plain(b, inst);
            if (!plain || plain == inst) {
                n += plain == inst;
                continue;
            }
            LLVMReplaceAllUsesWith(inst, plain);
            LLVMInstructionEraseFromParent(inst);
            n++;
        }
    LLVMDisposeBuilder(b);
    return n;
}
