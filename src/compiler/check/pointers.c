/*
 * Checking mode: where an access's pointer comes from, what an index is
 * made of, and an atomic's scope (check.h), what instrument.c and
 * local_objects.c both ask.
 */
#include <string.h>

#include "compiler/check/check.h"
#include "compiler/ir/util.h"

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

/* A constant shift amount of v (a shl, ashr or lshr), or -1. */
static long long shift_of(LLVMValueRef v, LLVMOpcode op)
{
    if (opcode_of(v) != op || !LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return -1;
    return LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
}

LLVMValueRef mc_without_int_casts(LLVMValueRef v)
{
    for (;;) {
        if (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) ||
            (LLVMIsATruncInst(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) >= 32)) {
            v = LLVMGetOperand(v, 0);
            continue;
        }
        /* x & (2^k - 1), k >= 32, instcombine's zext(trunc(x)): x, for values that fit */
        LLVMValueRef mask = opcode_of(v) == LLVMAnd ? LLVMGetOperand(v, 1) : NULL;
        if (mask && LLVMIsAConstantInt(mask) && LLVMGetIntTypeWidth(LLVMTypeOf(mask)) <= 64) {
            uint64_t m = LLVMConstIntGetZExtValue(mask);
            if (m >= 0xffffffffu && !(m & (m + 1))) {
                v = LLVMGetOperand(v, 0);
                continue;
            }
        }
        /* (x << k) >> k, instcombine's sext(trunc(x)): x, for values that fit */
        long long k = shift_of(v, LLVMAShr);
        if (k < 0)
            k = shift_of(v, LLVMLShr);
        if (k > 0 && k <= 32 && shift_of(LLVMGetOperand(v, 0), LLVMShl) == k) {
            v = LLVMGetOperand(LLVMGetOperand(v, 0), 0);
            continue;
        }
        return v;
    }
}

unsigned mc_check_scope_of(LLVMValueRef inst)
{
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(inst)), MOSAIC_SCOPE_MD,
                                             sizeof MOSAIC_SCOPE_MD - 1);
    LLVMValueRef md = LLVMGetMetadata(inst, kind);
    if (md && LLVMGetMDNodeNumOperands(md) == 1) {
        LLVMValueRef v;
        LLVMGetMDNodeOperands(md, &v);
        if (v && LLVMIsAConstantInt(v))
            return (unsigned)LLVMConstIntGetZExtValue(v);
    }
    return MOSAIC_CHECK_SCOPE_ALL;
}

bool mc_check_narrow_atomics(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                bool atomic = LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ||
                              ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) &&
                               LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic);
                unsigned scope = atomic ? mc_check_scope_of(i) : MOSAIC_CHECK_SCOPE_ALL;
                if (scope == MOSAIC_CHECK_SCOPE_WORK_GROUP || scope == MOSAIC_CHECK_SCOPE_SUB_GROUP)
                    return true;
            }
    return false;
}

int mc_gep_step(LLVMTargetDataRef td, LLVMValueRef index, int i, LLVMTypeRef *t, int64_t *bytes)
{
    if (i > 1 && LLVMGetTypeKind(*t) == LLVMStructTypeKind) {
        if (!LLVMIsAConstantInt(index))
            return 0;
        unsigned field = (unsigned)LLVMConstIntGetZExtValue(index);
        *bytes = (int64_t)LLVMOffsetOfElement(td, *t, field);
        *t = LLVMStructGetTypeAtIndex(*t, field);
        return 1;
    }
    if (i > 1) {
        if (LLVMGetTypeKind(*t) != LLVMArrayTypeKind && LLVMGetTypeKind(*t) != LLVMVectorTypeKind)
            return 0;
        *t = LLVMGetElementType(*t);
    }
    *bytes = (int64_t)LLVMABISizeOfType(td, *t);
    return 2;
}

LLVMValueRef mc_context_root(LLVMValueRef v)
{
    if (!LLVMIsALoadInst(v))
        return NULL;
    bool unused = true;
    LLVMValueRef root = mc_pointer_root(LLVMGetOperand(v, 0), &unused);
    return LLVMIsACallInst(root) && mc_calls_named(root, "__mosaic_get_ctx") ? root : NULL;
}
