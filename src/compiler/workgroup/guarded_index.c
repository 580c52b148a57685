/*
 * Indices `a - b` that a condition keeps from wrapping, widened.
 *
 * OpenCL C indexes with 32-bit unsigned values, and a kernel guards an index
 * that would wrap ("if (l >= off) x += s[l - off]").  The 64-bit address is
 * then zext(a - b), which the loop vectoriser can only call consecutive
 * across work-items under a run-time check that a - b never wraps in the
 * loop: false for the work-items the guard leaves out, so the check sends
 * every pass over the group to the scalar loop.  Where the block computing
 * the subtraction is only reached through an edge on which a >= b, the
 * subtraction cannot wrap, and zext(a - b) is zext(a) - zext(b), whose
 * addresses the vectoriser follows (the masked-out work-items' addresses
 * are then never used).
 */
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

/* Does the edge from `from` (a conditional branch) to `to` hold a >= b (unsigned)? */
static bool edge_implies_uge(LLVMBasicBlockRef from, LLVMBasicBlockRef to, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(from);
    if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term) ||
        LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1))
        return false;
    LLVMValueRef cond = LLVMGetCondition(term);
    if (!LLVMIsAICmpInst(cond))
        return false;
    bool taken = LLVMGetSuccessor(term, 0) == to;
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    LLVMValueRef x = LLVMGetOperand(cond, 0), y = LLVMGetOperand(cond, 1);
    if (!taken) /* the false edge: the opposite predicate */
        p = mc_inverse_predicate(p);
    if ((p == LLVMIntUGE || p == LLVMIntUGT) && x == a && y == b)
        return true;
    if ((p == LLVMIntULE || p == LLVMIntULT) && x == b && y == a)
        return true;
    return false;
}

/* Is block bb only entered, through a chain of single predecessors, by an
 * edge that holds a >= b? */
static bool guarded_uge(LLVMBasicBlockRef bb, LLVMValueRef a, LLVMValueRef b)
{
    for (int depth = 0; depth < 8; depth++) {
        LLVMBasicBlockRef pred = NULL;
        int preds = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsATerminatorInst(user))
                return false;
            LLVMBasicBlockRef p = LLVMGetInstructionParent(user);
            if (p != pred)
                preds++, pred = p;
        }
        if (preds != 1)
            return false;
        if (edge_implies_uge(pred, bb, a, b))
            return true;
        if (LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(pred)) != 1)
            return false;
        bb = pred;
    }
    return false;
}

unsigned mc_widen_guarded_indices(LLVMValueRef fn)
{
    unsigned n = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef z = LLVMGetFirstInstruction(bb), next; z; z = next) {
            next = LLVMGetNextInstruction(z);
            if (!LLVMIsAZExtInst(z))
                continue;
            LLVMValueRef sub = LLVMGetOperand(z, 0);
            if (!LLVMIsABinaryOperator(sub) || LLVMGetInstructionOpcode(sub) != LLVMSub)
                continue;
            LLVMValueRef x = LLVMGetOperand(sub, 0), y = LLVMGetOperand(sub, 1);
            if (!guarded_uge(LLVMGetInstructionParent(sub), x, y))
                continue;
            LLVMPositionBuilderBefore(b, z);
            LLVMTypeRef wide = LLVMTypeOf(z);
            LLVMValueRef w = LLVMBuildNUWSub(b, LLVMBuildZExt(b, x, wide, ""), LLVMBuildZExt(b, y, wide, ""), "");
            LLVMReplaceAllUsesWith(z, w);
            LLVMInstructionEraseFromParent(z);
            n++;
        }
    LLVMDisposeBuilder(b);
    return n;
}
