/*
 * Integer division that cannot trap.  OpenCL C leaves x / 0 and x % 0
 * undefined, but a kernel must never take the host program down, and x86's
 * division instruction raises SIGFPE on a zero divisor and on INT_MIN / -1.
 * Every integer division and remainder gets a divisor of 1 in those cases:
 * the result is unspecified, as OpenCL allows, and nothing traps.  Done before
 * the optimiser, so it cannot treat those cases as impossible.
 */
#include "compiler/workgroup/passes.h"

#include <llvm-c/Core.h>

/* A constant of `type` (integer or vector of integers) with every element `value`. */
static LLVMValueRef splat(LLVMTypeRef type, unsigned long long value)
{
    if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
        return LLVMConstInt(type, value, 0);
    unsigned n = LLVMGetVectorSize(type);
    LLVMValueRef element = LLVMConstInt(LLVMGetElementType(type), value, 0);
    LLVMValueRef elements[64];
    if (n > 64)
        return NULL;
    for (unsigned i = 0; i < n; i++)
        elements[i] = element;
    return LLVMConstVector(elements, n);
}

/* A constant divisor that can never trap needs no guard. */
static bool safe_constant(LLVMValueRef divisor, bool is_signed)
{
    if (!LLVMIsAConstantInt(divisor))
        return false;
    if (LLVMConstIntGetZExtValue(divisor) == 0)
        return false;
    return !is_signed || LLVMConstIntGetSExtValue(divisor) != -1;
}

void mc_guard_integer_division(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMOpcode op = LLVMGetInstructionOpcode(i);
                if (op != LLVMSDiv && op != LLVMUDiv && op != LLVMSRem && op != LLVMURem)
                    continue;
                bool is_signed = op == LLVMSDiv || op == LLVMSRem;
                LLVMValueRef x = LLVMGetOperand(i, 0), d = LLVMGetOperand(i, 1);
                if (safe_constant(d, is_signed))
                    continue;
                LLVMTypeRef type = LLVMTypeOf(d);
                LLVMTypeRef scalar = LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetElementType(type) : type;
                unsigned bits = LLVMGetIntTypeWidth(scalar);
                LLVMValueRef one = splat(type, 1);
                if (!one)
                    continue;
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstNull(type), "div.zero");
                if (is_signed) {
                    LLVMValueRef min = splat(type, 1ull << (bits - 1));
                    LLVMValueRef overflow =
                        LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, x, min, "div.min"),
                                     LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstAllOnes(type), "div.minus1"), "div.ovf");
                    bad = LLVMBuildOr(b, bad, overflow, "div.bad");
                }
                LLVMSetOperand(i, 1, LLVMBuildSelect(b, bad, one, d, "div.safe"));
            }
    LLVMDisposeBuilder(b);
}
