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
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "compiler/compiler.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/local_size.h"

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

int mc_local_size_field(int64_t off)
{
    const int64_t enqueued = offsetof(mosaic_wg_ctx, enqueued_local_size), actual = offsetof(mosaic_wg_ctx, local_size);
    int64_t field = off >= actual ? off - actual : off - enqueued;
    return off < enqueued || field >= 24 || field % 8 ? -1 : (int)(field / 8);
}

unsigned mc_fix_local_size(LLVMValueRef wg, LLVMTargetDataRef td, const size_t size[3])
{
    LLVMValueRef ctx = LLVMGetParam(wg, 1);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
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
            int d = mc_local_size_field(mc_offset_from(LLVMGetOperand(inst, 0), ctx, td));
            if (d < 0)
                continue;
            LLVMReplaceAllUsesWith(inst, LLVMConstInt(i64, size[d], 0));
            LLVMInstructionEraseFromParent(inst);
            fixed++;
        }
    return fixed;
}
