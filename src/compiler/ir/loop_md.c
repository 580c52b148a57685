/*
 * Loop IDs and access groups.  The C API makes neither distinct nodes nor
 * self-referencing ones directly: a loop ID is built around a temporary
 * node that it then replaces, and an access group is parsed from text.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>

#include "compiler/ir/loop_md.h"

/* A distinct empty node (an access group): the C API cannot make distinct
 * nodes, so one is parsed from text into the module's context. */
LLVMMetadataRef mc_distinct_empty_node(LLVMContextRef c)
{
    static const char text[] = "define void @f(ptr %p) {\n  store i8 0, ptr %p, !llvm.access.group !0\n"
                               "  ret void\n}\n!0 = distinct !{}\n";
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, sizeof text - 1, "ag");
    LLVMModuleRef tmp;
    char *msg = NULL;
    if (LLVMParseIRInContext(c, buf, &tmp, &msg)) {
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMValueRef f = LLVMGetNamedFunction(tmp, "f");
    LLVMValueRef store = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(f));
    LLVMValueRef md = LLVMGetMetadata(store, LLVMGetMDKindIDInContext(c, "llvm.access.group", 17));
    LLVMMetadataRef node = md ? LLVMValueAsMetadata(md) : NULL;
    LLVMDisposeModule(tmp); /* metadata nodes belong to the context */
    return node;
}

LLVMValueRef mc_vectorised_loop_md(LLVMContextRef c, LLVMMetadataRef ag)
{
    /* !llvm.loop !{self, !{"llvm.loop.parallel_accesses", group}, !{"llvm.loop.isvectorized", i32 1}} */
    LLVMMetadataRef pa[2] = {LLVMMDStringInContext2(c, "llvm.loop.parallel_accesses", 27), ag};
    LLVMMetadataRef done[2] = {LLVMMDStringInContext2(c, "llvm.loop.isvectorized", 22),
                               LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0))};
    LLVMMetadataRef temp = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef loop_ops[3] = {temp, LLVMMDNodeInContext2(c, pa, 2), LLVMMDNodeInContext2(c, done, 2)};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, loop_ops, 3);
    LLVMMetadataReplaceAllUsesWith(temp, loop);
    return LLVMMetadataAsValue(c, loop);
}

bool mc_loop_md_has(LLVMValueRef md, const char *name)
{
    unsigned n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef ops[16];
    if (n > 16)
        return true; /* not one of ours: leave it */
    LLVMGetMDNodeOperands(md, ops);
    for (unsigned i = 1; i < n; i++) {
        if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) < 1 ||
            LLVMGetMDNodeNumOperands(ops[i]) > 4)
            continue;
        LLVMValueRef first[4];
        LLVMGetMDNodeOperands(ops[i], first);
        unsigned len;
        const char *s = first[0] ? LLVMGetMDString(first[0], &len) : NULL;
        if (s && len == strlen(name) && !memcmp(s, name, len))
            return true;
    }
    return false;
}

LLVMValueRef mc_loop_md_plus(LLVMContextRef c, LLVMValueRef old, const LLVMMetadataRef *more, unsigned n)
{
    unsigned k = old ? LLVMGetMDNodeNumOperands(old) : 1;
    LLVMValueRef *was = calloc(k, sizeof *was);
    LLVMMetadataRef *ops = calloc(k + n, sizeof *ops);
    if (!was || !ops) {
        free(was), free(ops);
        return old;
    }
    if (old)
        LLVMGetMDNodeOperands(old, was);
    LLVMMetadataRef temp = LLVMTemporaryMDNode(c, NULL, 0);
    ops[0] = temp;
    for (unsigned i = 1; i < k; i++)
        ops[i] = LLVMValueAsMetadata(was[i]);
    for (unsigned i = 0; i < n; i++)
        ops[k + i] = more[i];
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, ops, k + n);
    LLVMMetadataReplaceAllUsesWith(temp, loop); /* self reference: the node becomes distinct */
    free(was), free(ops);
    return LLVMMetadataAsValue(c, loop);
}

LLVMValueRef mc_parallel_loop_md(LLVMContextRef c, LLVMMetadataRef ag, unsigned interleave)
{
    /* !llvm.loop !{self, !{"llvm.loop.parallel_accesses", group}[, !{"llvm.loop.interleave.count", i32 n}]} */
    LLVMMetadataRef pa[2] = {LLVMMDStringInContext2(c, "llvm.loop.parallel_accesses", 27), ag};
    LLVMMetadataRef ic[2] = {LLVMMDStringInContext2(c, "llvm.loop.interleave.count", 26),
                             LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), interleave, 0))};
    LLVMMetadataRef temp = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef loop_ops[3] = {temp, LLVMMDNodeInContext2(c, pa, 2), LLVMMDNodeInContext2(c, ic, 2)};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, loop_ops, interleave ? 3 : 2);
    LLVMMetadataReplaceAllUsesWith(temp, loop); /* self reference: the node becomes distinct */
    return LLVMMetadataAsValue(c, loop);
}

static const char ROWS[] = "mosaic.rows";

bool mc_is_row_loop_md(LLVMValueRef md) { return md && mc_loop_md_has(md, ROWS); }

LLVMValueRef mc_row_loop_md(LLVMContextRef c)
{
    LLVMMetadataRef name = LLVMMDStringInContext2(c, ROWS, sizeof ROWS - 1);
    LLVMMetadataRef temp = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef ops[2] = {temp, LLVMMDNodeInContext2(c, &name, 1)};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, ops, 2);
    LLVMMetadataReplaceAllUsesWith(temp, loop);
    return LLVMMetadataAsValue(c, loop);
}
