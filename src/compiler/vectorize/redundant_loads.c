/*
 * What every row of a widened region reads alike, read by its first row.
 *
 * A region of K.row (wfv.c, regions.c) runs the rows of a group one after
 * another, the y loop.  An inner loop whose loads do not depend on the row
 * reads the same values in every row: CLBlast's XgemmDirectTN gathers its
 * A tile (stored transposed) by column and k only, so each of its 8 rows
 * ran the k loop's 64 gathers of pairs (interleaved_access.c) again.  LLVM
 * cannot hoist them out of the y loop: they vary with the inner loop.
 *
 * So after optimisation, in a y loop that regions.c marked (mc_row_loop_md)
 * whose counter starts at 0 on every entry, an inner loop of one block that
 * the y loop's header enters on every row, whose counter runs a constant
 * number of times, and that writes no memory: the values it computes from
 * its counter, from memory, and from values fixed while the rows run
 * (defined in blocks that dominate the header) are stored by row 0 into
 * arrays, one element an iteration, and rows 1 and on run a copy of the
 * loop that loads them from there.  Only values that read memory are kept
 * (the arithmetic that feeds a load is cheaper than a load).  Row 0 reads
 * what every row would: the addresses are the same, and a row that wrote
 * there in the region would race with the others' reads.  Reads of private
 * memory are not shared: the regions keep their own values there.
 */
#include <stdlib.h>

#include <llvm-c/Analysis.h>

#include "base/assert.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

enum { MAX_TRIPS = 1024, MAX_INSTS = 4096 };

static bool is_block_user(LLVMValueRef user) { return LLVMIsATerminatorInst(user) != NULL; }

/* How many terminators name bb as a successor (each once per use). */
static unsigned predecessors(LLVMBasicBlockRef bb)
{
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u))
        n += is_block_user(LLVMGetUser(u));
    return n;
}

/* Is `phi`, in the y loop's header, a row counter: 0 from every way in but
 * the latch, and from the latch phi + a constant step (1, or the rows K.row
 * runs at once; or 0 where the latch is entered from a new sweep)? */
static bool counts_rows(LLVMValueRef phi, LLVMBasicBlockRef latch)
{
    bool stepped = false;
    for (unsigned k = 0, n = LLVMCountIncoming(phi); k < n; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, k);
        if (LLVMGetIncomingBlock(phi, k) != latch) {
            if (!LLVMIsAConstantInt(v) || LLVMConstIntGetZExtValue(v) != 0)
                return false;
            continue;
        }
        LLVMValueRef ways[16] = {v};
        unsigned nw = 1;
        if (LLVMIsAPHINode(v) && LLVMGetInstructionParent(v) == latch && LLVMCountIncoming(v) <= 16) {
            nw = LLVMCountIncoming(v);
            for (unsigned j = 0; j < nw; j++)
                ways[j] = LLVMGetIncomingValue(v, j);
        }
        for (unsigned j = 0; j < nw; j++) {
            LLVMValueRef w = ways[j];
            if (LLVMIsAConstantInt(w) && LLVMConstIntGetZExtValue(w) == 0)
                continue;
            if (!LLVMIsAInstruction(w) || LLVMGetInstructionOpcode(w) != LLVMAdd || LLVMGetOperand(w, 0) != phi ||
                !LLVMIsAConstantInt(LLVMGetOperand(w, 1)) || LLVMConstIntGetSExtValue(LLVMGetOperand(w, 1)) <= 0)
                return false;
            stepped = true;
        }
    }
    return stepped;
}

typedef struct {
    LLVMValueRef f;
    mc_analyses *an; /* f's graph, for dominance */
    LLVMBasicBlockRef header, loop, exit;
    LLVMValueRef row, iv;
    unsigned trips;
    pmap place;     /* instruction of the loop -> its index */
    LLVMValueRef *insts;
    unsigned char *fixed, *reads; /* per index: the same in every row; reads memory (or depends on a read) */
    int n;
} row_loop;

/* Is v (not an instruction of the loop) the same in every row? */
static bool fixed_outside(row_loop *rl, LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v))
        return true; /* constants, arguments, globals */
    LLVMBasicBlockRef b = LLVMGetInstructionParent(v);
    if (b == rl->header && depth < 8 && !LLVMIsAPHINode(v) && mc_computes_only(v)) {
        for (int k = 0; k < LLVMGetNumOperands(v); k++)
            if (!fixed_outside(rl, LLVMGetOperand(v, k), depth + 1))
                return false;
        return true;
    }
    /* defined in a block that strictly dominates the header (false when memory ran out) */
    const mc_cfg *g = mc_analyses_cfg(rl->an, rl->f);
    int x = g ? mc_cfg_block(g, b) : -1, h = g ? mc_cfg_block(g, rl->header) : -1;
    return x >= 0 && h >= 0 && x != h && mc_dominates(g, x, h);
}

static bool reads_memory(LLVMValueRef i)
{
    if (LLVMIsALoadInst(i))
        return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
    static const char *const loads[] = {"llvm.masked.gather.", "llvm.masked.load."};
    return LLVMIsACallInst(i) && mc_intrinsic_named(mc_called_function(i), loads, 2);
}

/* Does read i take OpenCL memory (global, constant, __local), not private
 * memory, where the regions keep values of their own that rows may rewrite? */
static bool reads_kernel_memory(LLVMValueRef i)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    unsigned as = LLVMGetPointerAddressSpace(t);
    return as == 1 || as == 2 || as == 3;
}

/* The inner loop's counter: a phi from a constant, stepped by a constant,
 * tested against a constant; how many times the loop runs (0: not such). */
static unsigned count_trips(row_loop *rl)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(rl->loop), test = LLVMGetCondition(br);
    bool stays = LLVMGetSuccessor(br, 0) == rl->loop;
    if (!LLVMIsAICmpInst(test) || !LLVMIsAConstantInt(LLVMGetOperand(test, 1)))
        return 0;
    for (LLVMValueRef p = LLVMGetFirstInstruction(rl->loop); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
        if (LLVMCountIncoming(p) != 2 || LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMIntegerTypeKind)
            continue;
        int self = LLVMGetIncomingBlock(p, 0) == rl->loop ? 0 : 1;
        LLVMValueRef start = LLVMGetIncomingValue(p, (unsigned)!self), next = LLVMGetIncomingValue(p, (unsigned)self);
        if (!LLVMIsAConstantInt(start) || !LLVMIsAInstruction(next) || LLVMGetInstructionOpcode(next) != LLVMAdd ||
            LLVMGetOperand(next, 0) != p || !LLVMIsAConstantInt(LLVMGetOperand(next, 1)))
            continue;
        LLVMValueRef tested = LLVMGetOperand(test, 0);
        if (tested != p && tested != next)
            continue;
        long long v = LLVMConstIntGetSExtValue(start), step = LLVMConstIntGetSExtValue(LLVMGetOperand(next, 1));
        long long limit = LLVMConstIntGetSExtValue(LLVMGetOperand(test, 1));
        for (unsigned trips = 1; trips <= MAX_TRIPS; trips++, v += step) {
            long long t = tested == p ? v : v + step;
            bool holds;
            switch (LLVMGetICmpPredicate(test)) {
            case LLVMIntEQ: holds = t == limit; break;
            case LLVMIntNE: holds = t != limit; break;
            case LLVMIntSLT: holds = t < limit; break;
            case LLVMIntULT: holds = t >= 0 && t < limit; break;
            case LLVMIntSLE: holds = t <= limit; break;
            case LLVMIntULE: holds = t >= 0 && t <= limit; break;
            case LLVMIntSGT: holds = t > limit; break;
            case LLVMIntSGE: holds = t >= limit; break;
            default: return 0;
            }
            if (holds != stays) {
                rl->iv = p;
                return trips;
            }
        }
        return 0;
    }
    return 0;
}

/* Is latch (a block whose branch carries the row loop mark) the latch of
 * such a y loop, around such an inner loop?  Fills rl. */
static bool find(LLVMBasicBlockRef latch, unsigned md_kind, row_loop *rl)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
    LLVMValueRef md = br ? LLVMGetMetadata(br, md_kind) : NULL;
    if (!mc_is_row_loop_md(md))
        return false;
    rl->row = NULL; /* the header: the successor with the row counter */
    for (unsigned s = 0; s < LLVMGetNumSuccessors(br) && !rl->row; s++) {
        rl->header = LLVMGetSuccessor(br, s);
        for (LLVMValueRef p = LLVMGetFirstInstruction(rl->header); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            if (!rl->row && counts_rows(p, latch))
                rl->row = p;
    }
    LLVMValueRef hbr = LLVMGetBasicBlockTerminator(rl->header);
    if (!rl->row || !hbr || LLVMIsConditional(hbr) || LLVMGetNumSuccessors(hbr) != 1)
        return false;
    rl->loop = LLVMGetSuccessor(hbr, 0);
    LLVMValueRef lbr = LLVMGetBasicBlockTerminator(rl->loop);
    if (rl->loop == rl->header || !lbr || !LLVMIsConditional(lbr) || predecessors(rl->loop) != 2)
        return false;
    int self = LLVMGetSuccessor(lbr, 0) == rl->loop ? 0 : LLVMGetSuccessor(lbr, 1) == rl->loop ? 1 : -1;
    if (self < 0)
        return false;
    rl->exit = LLVMGetSuccessor(lbr, (unsigned)!self);
    if (rl->exit == rl->loop || predecessors(rl->exit) != 1)
        return false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(rl->loop); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAPHINode(i))
            for (unsigned k = 0; k < LLVMCountIncoming(i); k++)
                if (LLVMGetIncomingBlock(i, k) != rl->header && LLVMGetIncomingBlock(i, k) != rl->loop)
                    return false;
        if (!LLVMIsAPHINode(i) && i != lbr && !mc_computes_only(i) && !reads_memory(i))
            return false; /* stores, calls, atomics, fences */
    }
    return (rl->trips = count_trips(rl)) > 0;
}

/* Which of the loop's values are the same in every row, and which of them
 * read memory; the number of values to keep (fixed, reading, used by
 * something that is not). */
static unsigned classify(row_loop *rl)
{
    int n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(rl->loop); i; i = LLVMGetNextInstruction(i))
        n++;
    if (n > MAX_INSTS)
        return 0;
    rl->n = n;
    rl->insts = malloc((size_t)n * sizeof *rl->insts);
    rl->fixed = calloc((size_t)n, 1), rl->reads = calloc((size_t)n, 1);
    if (!rl->insts || !rl->fixed || !rl->reads || !pmap_init(&rl->place, (size_t)n))
        return 0;
    int k = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(rl->loop); i; i = LLVMGetNextInstruction(i), k++) {
        rl->insts[k] = i;
        pmap_put(&rl->place, i, k);
        if (LLVMIsAPHINode(i)) {
            rl->fixed[k] = i == rl->iv;
            continue;
        }
        if (LLVMIsATerminatorInst(i) || !(mc_computes_only(i) || reads_memory(i)))
            continue;
        bool fixed = !reads_memory(i) || reads_kernel_memory(i), reads = reads_memory(i);
        for (int o = 0; o < LLVMGetNumOperands(i) && fixed; o++) {
            LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
            int at = pmap_get(&rl->place, v);
            if (at >= 0)
                fixed = rl->fixed[at], reads |= rl->reads[at];
            else if (LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == rl->loop)
                fixed = false; /* a phi's value from the last iteration */
            else
                fixed = fixed_outside(rl, v, 0);
        }
        rl->fixed[k] = fixed, rl->reads[k] = fixed && reads;
    }
    unsigned kept = 0;
    for (k = 0; k < n; k++) {
        if (!rl->reads[k])
            continue;
        bool needed = false;
        for (LLVMUseRef u = LLVMGetFirstUse(rl->insts[k]); u && !needed; u = LLVMGetNextUse(u)) {
            int at = pmap_get(&rl->place, LLVMGetUser(u));
            needed = at < 0 || !rl->fixed[at];
        }
        rl->reads[k] = needed; /* from here on: kept */
        kept += needed;
    }
    return kept;
}

static void forget(row_loop *rl)
{
    free(rl->insts), free(rl->fixed), free(rl->reads);
    pmap_free(&rl->place);
}

/* Row 0 runs the loop storing what it keeps; the other rows a copy that
 * loads it. */
static void share(row_loop *rl, LLVMBuilderRef b)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(rl->f));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef *copy = calloc((size_t)rl->n, sizeof *copy), *array = calloc((size_t)rl->n, sizeof *array);
    if (!copy || !array) {
        free(copy), free(array);
        return;
    }
    /* arrays in the entry block, one element an iteration */
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(rl->f);
    for (int k = 0; k < rl->n; k++)
        if (rl->reads[k]) {
            LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
            array[k] = LLVMBuildAlloca(b, LLVMArrayType(LLVMTypeOf(rl->insts[k]), rl->trips), "row0");
        }

    /* the copy for rows 1..: its counter, loads for what is kept, the rest cloned */
    LLVMBasicBlockRef other = LLVMInsertBasicBlockInContext(c, rl->exit, "rows.shared");
    LLVMPositionBuilderAtEnd(b, other);
    LLVMValueRef n_other = LLVMBuildPhi(b, i64, "iter");
    LLVMValueRef br = LLVMGetBasicBlockTerminator(rl->loop);
    for (int k = 0; k < rl->n; k++) {
        LLVMValueRef i = rl->insts[k];
        if (LLVMIsAPHINode(i)) {
            copy[k] = LLVMBuildPhi(b, LLVMTypeOf(i), "");
        } else if (rl->reads[k]) {
            LLVMTypeRef at = LLVMArrayType(LLVMTypeOf(i), rl->trips);
            LLVMValueRef idx[2] = {zero, n_other};
            copy[k] = LLVMBuildLoad2(b, LLVMTypeOf(i), LLVMBuildInBoundsGEP2(b, at, array[k], idx, 2, ""), "");
        } else if (i == br) {
            LLVMValueRef next = LLVMBuildNUWAdd(b, n_other, one, "");
            int cond = pmap_get(&rl->place, LLVMGetCondition(br));
            bool self_first = LLVMGetSuccessor(br, 0) == rl->loop;
            LLVMValueRef test = cond >= 0 ? copy[cond] : LLVMGetCondition(br);
            copy[k] = LLVMBuildCondBr(b, test, self_first ? other : rl->exit, self_first ? rl->exit : other);
            LLVMValueRef in[2] = {zero, next};
            LLVMBasicBlockRef from[2] = {rl->header, other};
            LLVMAddIncoming(n_other, in, from, 2);
        } else {
            copy[k] = LLVMInstructionClone(i);
            for (int o = 0; o < LLVMGetNumOperands(copy[k]); o++) {
                int at = pmap_get(&rl->place, LLVMGetOperand(copy[k], (unsigned)o));
                if (at >= 0)
                    LLVMSetOperand(copy[k], (unsigned)o, copy[at]);
            }
            LLVMInsertIntoBuilder(b, copy[k]);
        }
    }
    for (int k = 0; k < rl->n && LLVMIsAPHINode(rl->insts[k]); k++)
        for (unsigned j = 0; j < LLVMCountIncoming(rl->insts[k]); j++) {
            LLVMValueRef v = LLVMGetIncomingValue(rl->insts[k], j);
            bool back = LLVMGetIncomingBlock(rl->insts[k], j) == rl->loop;
            int at = pmap_get(&rl->place, v);
            LLVMValueRef in = back && at >= 0 ? copy[at] : v;
            LLVMBasicBlockRef from = back ? other : rl->header;
            LLVMAddIncoming(copy[k], &in, &from, 1);
        }

    /* row 0's loop stores what it keeps */
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(rl->loop));
    LLVMValueRef n_first = LLVMBuildPhi(b, i64, "iter");
    LLVMPositionBuilderBefore(b, br);
    LLVMValueRef n_next = LLVMBuildNUWAdd(b, n_first, one, "");
    LLVMValueRef in[2] = {zero, n_next};
    LLVMBasicBlockRef from[2] = {rl->header, rl->loop};
    LLVMAddIncoming(n_first, in, from, 2);
    for (int k = 0; k < rl->n; k++)
        if (rl->reads[k]) {
            LLVMValueRef idx[2] = {zero, n_first};
            LLVMTypeRef at = LLVMArrayType(LLVMTypeOf(rl->insts[k]), rl->trips);
            LLVMBuildStore(b, rl->insts[k], LLVMBuildInBoundsGEP2(b, at, array[k], idx, 2, ""));
        }

    /* after the loop: both ways in (its phis, and values used there) */
    for (LLVMValueRef p = LLVMGetFirstInstruction(rl->exit); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p))
        for (unsigned j = 0, n = LLVMCountIncoming(p); j < n; j++)
            if (LLVMGetIncomingBlock(p, j) == rl->loop) {
                int at = pmap_get(&rl->place, LLVMGetIncomingValue(p, j));
                LLVMValueRef v = at >= 0 ? copy[at] : LLVMGetIncomingValue(p, j);
                LLVMAddIncoming(p, &v, &other, 1);
                break;
            }
    LLVMValueRef first_non_phi = LLVMGetFirstInstruction(rl->exit);
    while (first_non_phi && LLVMIsAPHINode(first_non_phi))
        first_non_phi = LLVMGetNextInstruction(first_non_phi);
    for (int k = 0; k < rl->n; k++) {
        LLVMValueRef i = rl->insts[k];
        if (LLVMIsATerminatorInst(i) || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
            continue;
        LLVMValueRef joined = NULL;
        for (LLVMUseRef u = LLVMGetFirstUse(i), next; u; u = next) {
            next = LLVMGetNextUse(u);
            LLVMValueRef user = LLVMGetUser(u);
            LLVMBasicBlockRef ub = LLVMIsAInstruction(user) ? LLVMGetInstructionParent(user) : NULL;
            if (ub == rl->loop || ub == other || (LLVMIsAPHINode(user) && ub == rl->exit) || user == joined)
                continue;
            if (!joined) {
                LLVMPositionBuilderBefore(b, first_non_phi);
                joined = LLVMBuildPhi(b, LLVMTypeOf(i), "");
                LLVMValueRef vals[2] = {i, copy[k]};
                LLVMBasicBlockRef froms[2] = {rl->loop, other};
                LLVMAddIncoming(joined, vals, froms, 2);
            }
            mc_replace_use(u, joined);
        }
    }

    /* the header chooses: row 0 the loop, the others the copy */
    LLVMValueRef hbr = LLVMGetBasicBlockTerminator(rl->header);
    LLVMPositionBuilderBefore(b, hbr);
    LLVMValueRef first_row = LLVMBuildICmp(b, LLVMIntEQ, rl->row, LLVMConstInt(LLVMTypeOf(rl->row), 0, 0), "row0");
    LLVMBuildCondBr(b, first_row, rl->loop, other);
    LLVMInstructionEraseFromParent(hbr);
    free(copy), free(array);
}

unsigned mc_eliminate_redundant_row_loads(LLVMValueRef f, mc_analyses *an)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
    unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9), kept = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        row_loop rl = {.f = f, .an = an};
        if (!find(bb, kind, &rl))
            continue;
        unsigned k = classify(&rl);
        if (k) {
            share(&rl, b);
            mc_analyses_invalidate(an, f); /* it added blocks */
        }
        kept += k;
        forget(&rl);
    }
    LLVMDisposeBuilder(b);
    MOSAIC_ASSERT(!kept || !LLVMVerifyFunction(f, LLVMReturnStatusAction));
    return kept;
}
