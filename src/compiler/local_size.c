/*
 * A work-group function built for one local size (docs/compiler.md,
 * "Work-groups of one size").
 *
 * K.wg reads the group's size from its context: its loops over the
 * work-items, a tree reduction's `for (s = get_local_size(0) / 2; ...)`, the
 * per-work-item storage of what lives across a barrier.  When the runtime
 * knows it will call K.wg only for groups of one size (whole groups of a
 * launch, whose enqueued size is that size too), those reads can be
 * constants, and LLVM then unrolls, folds and sizes what depended on them.
 */
#include <string.h>

#include "compiler/compiler_internal.h"

/* The byte offset of p from base, when p is base seen through casts and
 * GEPs with constant indices; -1 otherwise. */
static int64_t offset_from(LLVMValueRef p, LLVMValueRef base, LLVMTargetDataRef td, int depth)
{
    if (p == base)
        return 0;
    if (depth > 8)
        return -1;
    LLVMOpcode op = LLVMIsAInstruction(p) ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : (LLVMOpcode)0;
    if (op == LLVMAddrSpaceCast || op == LLVMBitCast)
        return offset_from(LLVMGetOperand(p, 0), base, td, depth + 1);
    if (op != LLVMGetElementPtr)
        return -1;
    int64_t inner = offset_from(LLVMGetOperand(p, 0), base, td, depth + 1);
    if (inner < 0)
        return -1;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    int64_t off = inner;
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(index))
            return -1;
        long long k = LLVMConstIntGetSExtValue(index);
        if (i == 1) {
            off += k * (int64_t)LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            off += (int64_t)LLVMOffsetOfElement(td, t, (unsigned)k);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
            t = LLVMGetElementType(t);
            off += k * (int64_t)LLVMABISizeOfType(td, t);
        } else {
            return -1;
        }
    }
    return off;
}

/* A loop over a row of work-items: its trip count is now a constant, and
 * LLVM unrolls a short loop fully before the vectoriser sees it (tiled
 * SGEMM's 16 work-items became straight code, its loops stayed scalar).  It
 * is kept a loop, vectorised `lanes` wide. */
static void keep_row_loop(LLVMContextRef c, LLVMValueRef br, unsigned kind, unsigned lanes)
{
    LLVMValueRef md = LLVMGetMetadata(br, kind);
    if (!md || !mc_loop_md_has(md, "llvm.loop.parallel_accesses") || mc_loop_md_has(md, "llvm.loop.unroll.disable") ||
        mc_loop_md_has(md, "llvm.loop.isvectorized"))
        return;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMMetadataRef more[3];
    unsigned k = 0;
    more[k++] = LLVMMDNodeInContext2(c, (LLVMMetadataRef[]){LLVMMDStringInContext2(c, "llvm.loop.unroll.disable", 24)}, 1);
    if (lanes > 1) {
        LLVMMetadataRef vw[2] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.width", 25),
                                 LLVMValueAsMetadata(LLVMConstInt(i32, lanes, 0))};
        LLVMMetadataRef ve[2] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.enable", 26),
                                 LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0))};
        more[k++] = LLVMMDNodeInContext2(c, vw, 2);
        more[k++] = LLVMMDNodeInContext2(c, ve, 2);
    }
    LLVMSetMetadata(br, kind, mc_loop_md_plus(c, md, more, k));
}

unsigned mc_fix_local_size(LLVMValueRef wg, LLVMTargetDataRef td, const size_t size[3])
{
    LLVMValueRef ctx = LLVMGetParam(wg, 1);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
    const int64_t enqueued = offsetof(mosaic_wg_ctx, enqueued_local_size), actual = offsetof(mosaic_wg_ctx, local_size);
    unsigned fixed = 0;
    LLVMContextRef c = LLVMGetTypeContext(i64);
    unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
    unsigned lanes = 1; /* the widest power of two in a row, at most 16 */
    while (lanes < 16 && lanes * 2 <= size[0])
        lanes *= 2;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (LLVMIsABranchInst(inst) && size[0] <= 32) {
                keep_row_loop(c, inst, kind, lanes);
                continue;
            }
            if (!LLVMIsALoadInst(inst) || LLVMTypeOf(inst) != i64 || LLVMGetVolatile(inst))
                continue;
            int64_t off = offset_from(LLVMGetOperand(inst, 0), ctx, td, 0);
            int64_t field = off >= actual ? off - actual : off - enqueued;
            if (off < enqueued || field >= 24 || field % 8)
                continue;
            LLVMReplaceAllUsesWith(inst, LLVMConstInt(i64, size[field / 8], 0));
            LLVMInstructionEraseFromParent(inst);
            fixed++;
        }
    return fixed;
}
