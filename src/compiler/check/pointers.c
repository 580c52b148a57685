/*
 * Checking mode: where an access's pointer comes from (check.h), what
 * instrument.c and local_objects.c both ask.
 */
#include <string.h>

#include "compiler/check/check.h"

/* An instruction's or constant expression's opcode, else 0. */
static LLVMOpcode opcode_of(LLVMValueRef v)
{
    return LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMIsAConstantExpr(v) ? LLVMGetConstOpcode(v) : 0;
}

LLVMValueRef mc_pointer_root(LLVMValueRef p, bool *constant_offset)
{
    for (int depth = 0; depth < 64; depth++) {
        if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) {
            int n = LLVMGetNumOperands(p);
            for (int i = 1; i < n; i++)
                if (!LLVMIsAConstant(LLVMGetOperand(p, i)))
                    *constant_offset = false;
            p = LLVMGetOperand(p, 0);
        } else if (LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p) ||
                   (LLVMIsAConstantExpr(p) &&
                    (LLVMGetConstOpcode(p) == LLVMBitCast || LLVMGetConstOpcode(p) == LLVMAddrSpaceCast))) {
            p = LLVMGetOperand(p, 0);
        } else if (opcode_of(p) == LLVMIntToPtr && opcode_of(LLVMGetOperand(p, 0)) == LLVMPtrToInt) {
            p = LLVMGetOperand(LLVMGetOperand(p, 0), 0); /* made an integer and back (the builtins' atomics) */
        } else {
            return p;
        }
    }
    *constant_offset = false;
    return p;
}

bool mc_copies(const char *name) { return !strncmp(name, "llvm.memcpy.", 12) || !strncmp(name, "llvm.memmove.", 13); }

bool mc_fills(const char *name) { return !strncmp(name, "llvm.memset.", 12); }
