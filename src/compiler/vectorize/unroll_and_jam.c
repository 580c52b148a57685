/*
 * The rows of a widened region, interleaved.
 *
 * In a barrier kernel built with K.row (wfv.c, regions.c), a region runs
 * a row's work-items as the lanes of vectors, one row after another: the y
 * loop.  After optimisation a tiled SGEMM's row is one block, a chain of 16
 * dependent multiply-adds.  Rows are independent, but an out-of-order core
 * overlaps only as many of them as its scheduler holds: a model of that
 * region on the lent Xeon (two FMA units of 4 cycles' latency) ran at 47
 * GFLOP/s a core one row at a time and at 85 with four rows' chains
 * interleaved (docs/history/performance-journal.md).
 *
 * So after optimisation a y loop that regions.c marked (mc_row_loop_md)
 * and that is one block, counts from a constant by a constant step (1, or
 * the rows K.row runs at once) to a constant, R steps dividing the way,
 * carries nothing but its counter,
 * and holds a chain of at least MIN_CHAIN floating-point operations, runs R
 * rows an iteration.  R is 8 on a target of 32 vector registers (8 chains
 * fill two FMA units of 4 cycles), when the rows' chains and the vectors
 * they all read fit in them; else 4, or 2 where 4 does not divide the
 * count.  Each instruction is followed by its copies for rows
 * y+1..y+R-1, so the R chains interleave instruction by instruction.  The
 * rows are different work-items between barriers: what one writes another
 * may not read there (a data race in OpenCL), and a row's own instructions
 * keep their order, so reordering across rows is allowed.  (K.wg turns
 * atomics on __local memory into plain accesses, which rows would then
 * interleave; but the widener refuses kernels with atomics, so K.row has
 * none.)  Loops with calls other than pure intrinsics and masked memory
 * operations, atomics, fences or volatile accesses are left alone.
 */
#include <limits.h>
#include <stdlib.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>

#include "base/assert.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

enum {
    MIN_CHAIN = 8,     /* floating-point operations in a row of one dependent chain */
    MAX_BODY = 1024,   /* instructions in the interleaved body */
    MAX_ROWS = 8,
    /* vector registers that R chains and the vectors the row reads from
     * outside the loop (an SGEMM's 16 rows of B) may fill on a target of 32 */
    REGISTERS_FOR_ROWS = 28,
};

static bool is_fp_arith(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg: return true;
    case LLVMCall: {
        static const char *const names[] = {"llvm.fmuladd.", "llvm.fma."};
        return mc_intrinsic_named(mc_called_function(i), names, 2);
    }
    default: return false;
    }
}

/* May copies of i for other rows run between i and what follows it? */
static bool reorderable(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMLoad: case LLVMStore:
        return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
    case LLVMCall: {
        static const char *const masked[] = {"llvm.masked."};
        LLVMValueRef f = mc_called_function(i);
        return mc_pure_intrinsic(f) || mc_intrinsic_named(f, masked, 1);
    }
    case LLVMFence: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMVAArg: case LLVMAlloca:
    case LLVMPHI: case LLVMInvoke: case LLVMCallBr: case LLVMLandingPad:
        return false;
    default:
        return true;
    }
}

typedef struct row_loop {
    LLVMBasicBlockRef block;
    LLVMValueRef iv, next, cmp; /* the counter, its step, the exit test (of next, or of iv) */
    long long step;             /* what next adds */
    size_t size;                /* instructions of the block, its counter included */
    unsigned rows;              /* R */
} row_loop;

/* The vector values defined outside bb that its instructions use: values
 * every row reads, live in registers through the loop.  UINT_MAX when
 * memory ran out (then they do not fit). */
static unsigned outside_vectors(LLVMBasicBlockRef bb)
{
    size_t size = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        size += (size_t)LLVMGetNumOperands(i);
    pmap seen;
    if (!pmap_init(&seen, size + 1))
        return pmap_free(&seen), UINT_MAX;
    unsigned n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        for (int k = 0; k < LLVMGetNumOperands(i); k++) {
            LLVMValueRef v = LLVMGetOperand(i, k);
            if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind || LLVMIsConstant(v) ||
                (LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb) || pmap_get(&seen, v) >= 0)
                continue;
            pmap_put(&seen, v, 1);
            n++;
        }
    pmap_free(&seen);
    return n;
}

/* Is bb a marked y loop of the shape above?  Fills *rl.  max_rows: 8 on
 * a target of 32 vector registers, else 4. */
static bool interleavable(LLVMBasicBlockRef bb, unsigned md_kind, unsigned max_rows, row_loop *rl)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    LLVMValueRef md = br ? LLVMGetMetadata(br, md_kind) : NULL;
    if (!mc_is_row_loop_md(md) || !LLVMIsConditional(br) ||
        (LLVMGetSuccessor(br, 0) != bb && LLVMGetSuccessor(br, 1) != bb))
        return false;
    LLVMValueRef iv = LLVMGetFirstInstruction(bb);
    if (!LLVMIsAPHINode(iv) || LLVMIsAPHINode(LLVMGetNextInstruction(iv)) || LLVMCountIncoming(iv) != 2)
        return false;
    int from_self = LLVMGetIncomingBlock(iv, 0) == bb ? 0 : 1;
    LLVMValueRef next = LLVMGetIncomingValue(iv, (unsigned)from_self);
    LLVMValueRef start = LLVMGetIncomingValue(iv, (unsigned)!from_self);
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (LLVMGetIncomingBlock(iv, (unsigned)from_self) != bb || !LLVMIsAConstantInt(start) ||
        !LLVMIsAInstruction(next) || LLVMGetInstructionOpcode(next) != LLVMAdd || LLVMGetOperand(next, 0) != iv ||
        !LLVMIsAConstantInt(LLVMGetOperand(next, 1)) || LLVMConstIntGetSExtValue(LLVMGetOperand(next, 1)) <= 0 ||
        !LLVMIsAICmpInst(cmp) || (LLVMGetOperand(cmp, 0) != next && LLVMGetOperand(cmp, 0) != iv) ||
        !LLVMIsAConstantInt(LLVMGetOperand(cmp, 1)))
        return false;
    long long step = LLVMConstIntGetSExtValue(LLVMGetOperand(next, 1));
    LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
    bool stays = LLVMGetSuccessor(br, 0) == bb; /* the loop goes on when the test holds */
    if (!((stays && (p == LLVMIntULT || p == LLVMIntNE)) || (!stays && p == LLVMIntEQ)))
        return false;
    /* (a test of iv, as LLVM leaves a loop stepping by more than one, is next's one step further) */
    long long first = LLVMConstIntGetSExtValue(start), end = LLVMConstIntGetSExtValue(LLVMGetOperand(cmp, 1));
    if (LLVMGetOperand(cmp, 0) == iv)
        end += step;
    if ((end - first) % step)
        return false;
    long long trips = (end - first) / step;
    rl->rows = 0;
    for (unsigned r = max_rows; r >= 2 && !rl->rows; r /= 2)
        if (trips > 0 && trips % r == 0)
            rl->rows = r;
    if (!rl->rows)
        return false;
    /* the step and the test are used by the loop's control only */
    for (LLVMUseRef u = LLVMGetFirstUse(next); u; u = LLVMGetNextUse(u))
        if (LLVMGetUser(u) != iv && LLVMGetUser(u) != cmp)
            return false;
    if (LLVMGetNextUse(LLVMGetFirstUse(cmp)))
        return false;

    /* nothing that rows must not reorder, nothing used after the loop, and a chain */
    size_t n = 0;
    for (LLVMValueRef i = iv; i; i = LLVMGetNextInstruction(i))
        n++;
    if (rl->rows == 8 && outside_vectors(bb) > REGISTERS_FOR_ROWS - 8)
        rl->rows = 4;
    while (rl->rows > 2 && n * rl->rows > MAX_BODY)
        rl->rows /= 2;
    if (n * rl->rows > MAX_BODY || trips % rl->rows)
        return false;
    pmap depth;
    if (!pmap_init(&depth, n))
        return pmap_free(&depth), false;
    int longest = 0;
    bool ok = true;
    for (LLVMValueRef i = LLVMGetNextInstruction(iv); i && ok && i != br; i = LLVMGetNextInstruction(i)) {
        ok = reorderable(i);
        for (LLVMUseRef u = LLVMGetFirstUse(i); u && ok; u = LLVMGetNextUse(u))
            ok = LLVMGetInstructionParent(LLVMGetUser(u)) == bb;
        int d = 0;
        for (int k = 0; k < LLVMGetNumOperands(i); k++) {
            int od = pmap_get(&depth, LLVMGetOperand(i, k));
            d = od > d ? od : d;
        }
        d += is_fp_arith(i);
        pmap_put(&depth, i, d);
        longest = d > longest ? d : longest;
    }
    pmap_free(&depth);
    if (!ok || longest < MIN_CHAIN)
        return false;
    rl->block = bb, rl->iv = iv, rl->next = next, rl->cmp = cmp, rl->size = n, rl->step = step;
    return true;
}

/* false (nothing changed) when memory ran out */
static bool interleave(LLVMBuilderRef b, const row_loop *rl)
{
    unsigned R = rl->rows;
    LLVMTypeRef t = LLVMTypeOf(rl->iv);
    LLVMValueRef first = LLVMGetNextInstruction(rl->iv);
    size_t n = rl->size;
    pmap index = {0};                                       /* original instruction -> its place */
    LLVMValueRef *copies = calloc(n * R, sizeof *copies);  /* [place * R + r] */
    if (!copies || !pmap_init(&index, n)) {
        free(copies);
        pmap_free(&index);
        return false;
    }
    /* the counters of rows y+1 .. y+R-1 */
    LLVMValueRef ivs[MAX_ROWS] = {rl->iv};
    LLVMPositionBuilderBefore(b, first);
    for (unsigned r = 1; r < R; r++)
        ivs[r] = LLVMBuildNUWAdd(b, rl->iv, LLVMConstInt(t, (unsigned long long)(rl->step * r), 0), "row");
    LLVMValueRef br = LLVMGetBasicBlockTerminator(rl->block);
    int place = 0;
    for (LLVMValueRef i = first, next; i != br; i = next, place++) {
        next = LLVMGetNextInstruction(i);
        if (i == rl->next || i == rl->cmp)
            continue;
        pmap_put(&index, i, place);
        for (unsigned r = 1; r < R; r++) {
            LLVMValueRef c = LLVMInstructionClone(i);
            for (int k = 0; k < LLVMGetNumOperands(c); k++) {
                LLVMValueRef v = LLVMGetOperand(c, k);
                int at = v == rl->iv ? -2 : pmap_get(&index, v);
                if (at == -2)
                    LLVMSetOperand(c, (unsigned)k, ivs[r]);
                else if (at >= 0)
                    LLVMSetOperand(c, (unsigned)k, copies[(size_t)at * R + r]);
            }
            LLVMPositionBuilderBefore(b, next);
            LLVMInsertIntoBuilder(b, c);
            copies[(size_t)place * R + r] = c;
        }
    }
    LLVMSetOperand(rl->next, 1, LLVMConstInt(t, (unsigned long long)(rl->step * R), 0));
    if (LLVMGetOperand(rl->cmp, 0) == rl->iv) { /* the last iteration's first row: R - 1 rows earlier */
        long long end = LLVMConstIntGetSExtValue(LLVMGetOperand(rl->cmp, 1));
        LLVMSetOperand(rl->cmp, 1, LLVMConstInt(t, (unsigned long long)(end - rl->step * (R - 1)), 1));
    }
    pmap_free(&index);
    free(copies);
    return true;
}

unsigned mc_unroll_and_jam(LLVMValueRef f, unsigned vector_registers)
{
    unsigned max_rows = vector_registers >= 32 ? 8 : 4;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
    unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9), done = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        row_loop rl;
        if (interleavable(bb, kind, max_rows, &rl) && interleave(b, &rl))
            done++;
    }
    LLVMDisposeBuilder(b);
    MOSAIC_ASSERT(!done || !LLVMVerifyFunction(f, LLVMReturnStatusAction));
    return done;
}
