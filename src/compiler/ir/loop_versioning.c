/*
 * A second version of a work-item x loop of K.wg (loop_versioning.h).
 *
 * The loop is the one workgroup.c or regions.c built: a header whose phi x
 * starts at 0 and steps by 1, a latch that goes round while x + 1 < bound,
 * one exit, and nothing of it used after it.  Its copy goes before the
 * exit, and the loop's entry chooses between the two once a row.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "base/assert.h"
#include "compiler/compiler.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/loop_versioning.h"
#include "compiler/ir/util.h"

static bool is_parallel_latch(LLVMValueRef br, LLVMValueRef agv)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(agv));
    LLVMValueRef md = br && LLVMIsABranchInst(br) && LLVMIsConditional(br)
                          ? LLVMGetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9))
                          : NULL;
    if (!md)
        return false;
    unsigned n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef ops[8];
    if (n > 8)
        return false;
    LLVMGetMDNodeOperands(md, ops);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef pair[2];
        if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) != 2)
            continue;
        LLVMGetMDNodeOperands(ops[i], pair);
        unsigned len = 0;
        const char *name = pair[0] ? LLVMGetMDString(pair[0], &len) : NULL;
        if (name && len == 27 && !memcmp(name, "llvm.loop.parallel_accesses", 27) && pair[1] == agv)
            return true;
    }
    return false;
}

unsigned mc_row_latches(LLVMValueRef wg, LLVMMetadataRef ag, LLVMBasicBlockRef **latches)
{
    *latches = NULL;
    if (!ag)
        return 0;
    LLVMValueRef agv = LLVMMetadataAsValue(LLVMGetModuleContext(LLVMGetGlobalParent(wg)), ag);
    unsigned n = 0, cap = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!is_parallel_latch(LLVMGetBasicBlockTerminator(bb), agv))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            LLVMBasicBlockRef *p = realloc(*latches, cap * sizeof *p);
            if (!p)
                break;
            *latches = p;
        }
        (*latches)[n++] = bb;
    }
    return n;
}

void mc_each_row_loop(mc_kernel_build *kbs, size_t nk, mc_row_visit visit, void *data)
{
    for (size_t k = 0; k < nk; k++) {
        mc_kernel_build *kb = &kbs[k];
        if (!kb->wg || !kb->access_group)
            continue;
        LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(kb->wg)));
        LLVMBasicBlockRef *latches;
        unsigned nl = mc_row_latches(kb->wg, kb->access_group, &latches);
        for (unsigned i = 0; i < nl; i++)
            visit(kb, b, latches[i], i, data);
        free(latches);
        LLVMDisposeBuilder(b);
    }
}

/* The x phi of the loop with this header and latch: 0, then x + 1 from the latch. */
static LLVMValueRef x_phi(LLVMBasicBlockRef header, LLVMBasicBlockRef latch)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(header); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
        if (LLVMCountIncoming(i) != 2)
            continue;
        unsigned from_latch = LLVMGetIncomingBlock(i, 0) == latch ? 0 : 1;
        LLVMValueRef next = LLVMGetIncomingValue(i, from_latch), init = LLVMGetIncomingValue(i, 1 - from_latch);
        if (LLVMIsAConstantInt(init) && !LLVMConstIntGetZExtValue(init) && LLVMGetInstructionOpcode(next) == LLVMAdd &&
            LLVMGetOperand(next, 0) == i && LLVMIsAConstantInt(LLVMGetOperand(next, 1)) &&
            LLVMConstIntGetZExtValue(LLVMGetOperand(next, 1)) == 1)
            return i;
    }
    return NULL;
}

static bool in_blocks(const mc_row_loop *rl, LLVMBasicBlockRef bb)
{
    int k = pmap_get(&rl->index, bb);
    return k >= 0 && (unsigned)k < rl->nblocks;
}

static bool add_block(mc_row_loop *rl, LLVMBasicBlockRef bb)
{
    if (rl->nblocks == rl->cap) {
        unsigned cap = rl->cap ? 2 * rl->cap : 16;
        LLVMBasicBlockRef *p = realloc(rl->blocks, cap * sizeof *p);
        if (!p)
            return false;
        rl->blocks = p;
        rl->cap = cap;
    }
    pmap_put(&rl->index, bb, (int)rl->nblocks);
    rl->blocks[rl->nblocks++] = bb;
    return true;
}

/* Is every way into the loop's blocks from the preheader, or from the loop itself? */
static bool single_entry(const mc_row_loop *rl)
{
    for (unsigned k = 0; k < rl->nblocks; k++)
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(rl->blocks[k])); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsATerminatorInst(user))
                return false;
            LLVMBasicBlockRef from = LLVMGetInstructionParent(user);
            if (!in_blocks(rl, from) && !(k == 0 && from == rl->pre))
                return false;
        }
    return true;
}

bool mc_row_loop_open(mc_row_loop *rl, LLVMValueRef wg, LLVMBasicBlockRef latch)
{
    memset(rl, 0, sizeof *rl);
    rl->wg = wg;
    rl->latch = latch;
    LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
    LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
    rl->header = x_phi(s0, latch) ? s0 : s1;
    rl->exit = rl->header == s0 ? s1 : s0;
    rl->x = x_phi(rl->header, latch);
    rl->vars[0] = rl->x;
    rl->nvars = 1;
    if (!rl->x || LLVMIsAPHINode(LLVMGetFirstInstruction(rl->exit)))
        return false;
    unsigned from_latch = LLVMGetIncomingBlock(rl->x, 0) == latch ? 0 : 1;
    rl->pre = LLVMGetIncomingBlock(rl->x, 1 - from_latch);
    LLVMValueRef pbr = LLVMGetBasicBlockTerminator(rl->pre);
    if (!pbr || LLVMGetNumSuccessors(pbr) != 1)
        return false;
    /* the latch: x + 1 < bound, round to the header */
    LLVMValueRef cond = LLVMGetCondition(br);
    if (LLVMIsAICmpInst(cond) && LLVMGetICmpPredicate(cond) == LLVMIntULT &&
        LLVMGetOperand(cond, 0) == LLVMGetIncomingValue(rl->x, from_latch) && LLVMGetSuccessor(br, 0) == rl->header)
        rl->bound = LLVMGetOperand(cond, 1);

    size_t size = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
        size++;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            size++;
    }
    if (!pmap_init(&rl->index, size) || !add_block(rl, rl->header))
        return false;
    for (unsigned k = 0; k < rl->nblocks; k++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(rl->blocks[k]);
        for (unsigned j = 0; t && j < LLVMGetNumSuccessors(t); j++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(t, j);
            if (succ != rl->exit && !in_blocks(rl, succ) && !add_block(rl, succ))
                return false;
        }
    }
    if (rl->bound && mc_row_in_loop(rl, rl->bound))
        rl->bound = NULL;
    if (!single_entry(rl))
        return false;
    /* instructions numbered after the blocks; none used after the loop, no outlined call */
    rl->ncopy = rl->nblocks;
    for (unsigned k = 0; k < rl->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            pmap_put(&rl->index, i, (int)rl->ncopy++);
            LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            if (f && mc_is_outlined_builtin(f))
                return false;
        }
    for (unsigned k = 0; k < rl->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i; i = LLVMGetNextInstruction(i))
            for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
                if (!mc_row_in_loop(rl, LLVMGetUser(u)))
                    return false;
    return true;
}

void mc_row_loop_close(mc_row_loop *rl)
{
    free(rl->blocks);
    free(rl->copy);
    pmap_free(&rl->index);
    memset(rl, 0, sizeof *rl);
}

bool mc_row_in_loop(const mc_row_loop *rl, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && in_blocks(rl, LLVMGetInstructionParent(v));
}

/* A cast's integer types: both at least 32 bits, wider than what x's steps
 * add over a row (bounds_check_versioning.c tells a wrap by the order of the ends). */
static bool wide_cast(LLVMValueRef v)
{
    LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(v, 0)), to = LLVMTypeOf(v);
    return LLVMGetTypeKind(from) == LLVMIntegerTypeKind && LLVMGetTypeKind(to) == LLVMIntegerTypeKind &&
           LLVMGetIntTypeWidth(from) >= 32 && LLVMGetIntTypeWidth(to) >= 32;
}

bool mc_row_truncating_mask(LLVMValueRef v, unsigned *width, unsigned *zeros)
{
    LLVMValueRef m = LLVMGetOperand(v, 1);
    if (LLVMGetInstructionOpcode(v) != LLVMAnd || !LLVMIsAConstantInt(m) ||
        LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return false;
    unsigned long long bits = LLVMConstIntGetZExtValue(m);
    unsigned z = 0, w;
    while (z < 16 && !(bits >> z & 1))
        z++;
    for (w = z; w < 64 && (bits >> w & 1); w++)
        ;
    if (w < 32 || w >= LLVMGetIntTypeWidth(LLVMTypeOf(v)) || (w < 64 && bits >> w) || (z < 64 && !(bits >> z & 1)))
        return false;
    *width = w;
    *zeros = z;
    return true;
}

LLVMValueRef mc_row_low_bits_of(LLVMValueRef v)
{
    LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
    if (op != LLVMAShr && op != LLVMLShr)
        return NULL;
    LLVMValueRef shl = LLVMGetOperand(v, 0), k = LLVMGetOperand(v, 1), c = NULL;
    if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) + 32 > LLVMGetIntTypeWidth(LLVMTypeOf(v)))
        return NULL;
    unsigned long long bits = LLVMConstIntGetZExtValue(k);
    /* (a << k) + (c << k): a + c, its low bits (sext(trunc(a) + c)) */
    if (LLVMIsAInstruction(shl) && LLVMGetInstructionOpcode(shl) == LLVMAdd &&
        LLVMIsAConstantInt(c = LLVMGetOperand(shl, 1)) && !(LLVMConstIntGetZExtValue(c) & ((1ull << bits) - 1)))
        shl = LLVMGetOperand(shl, 0);
    return LLVMIsAInstruction(shl) && LLVMGetInstructionOpcode(shl) == LLVMShl && LLVMGetOperand(shl, 1) == k
               ? LLVMGetOperand(shl, 0) : NULL;
}

bool mc_row_low_bits_cast(LLVMValueRef v) { return mc_row_low_bits_of(v) != NULL; }

/* Steps beyond this are not worth the bookkeeping: with at most 4096
 * work-items a row, a row then adds less than 2^31 to any value. */
#define MAX_SLOPE (1ll << 16)
_Static_assert(MAX_SLOPE * MOSAIC_MAX_LOCAL_SIZE < (1ll << 31), "a row's steps stay under 2^31");

/* budget: how many more values the walk may visit (a chain may share values). */
static int var_index(const mc_row_loop *rl, LLVMValueRef v)
{
    for (unsigned i = 0; i < rl->nvars; i++)
        if (rl->vars[i] == v)
            return (int)i;
    return -1;
}

/* v's slope in var (the other variables invariant); budget: how many more
 * values the walk may visit (a chain may share values). */
static long long slope_at(const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef var, int *budget)
{
    if (v == var)
        return 1;
    if (!mc_row_in_loop(rl, v) || var_index(rl, v) >= 0)
        return 0;
    if (--*budget < 0 || LLVMIsAPHINode(v))
        return MC_ROW_NOT_AFFINE;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    long long a, b;
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
        a = slope_at(rl, LLVMGetOperand(v, 0), var, budget);
        b = slope_at(rl, LLVMGetOperand(v, 1), var, budget);
        if (a == MC_ROW_NOT_AFFINE || b == MC_ROW_NOT_AFFINE || (op == LLVMSub && b != 0))
            return MC_ROW_NOT_AFFINE;
        return a + b > MAX_SLOPE ? MC_ROW_NOT_AFFINE : a + b;
    case LLVMMul:
    case LLVMShl: {
        LLVMValueRef k = LLVMGetOperand(v, 1);
        a = slope_at(rl, LLVMGetOperand(v, 0), var, budget);
        if (op == LLVMMul && LLVMIsAConstantInt(LLVMGetOperand(v, 0)))
            k = LLVMGetOperand(v, 0), a = slope_at(rl, LLVMGetOperand(v, 1), var, budget);
        if (a == MC_ROW_NOT_AFFINE)
            return a;
        if (!LLVMIsAConstantInt(k))
            return a == 0 && slope_at(rl, k, var, budget) == 0 ? 0 : MC_ROW_NOT_AFFINE;
        long long f = LLVMConstIntGetSExtValue(k);
        if (op == LLVMShl)
            f = f >= 0 && f <= 16 ? 1ll << f : -1;
        return f < 0 || a * f > MAX_SLOPE ? MC_ROW_NOT_AFFINE : a * f;
    }
    case LLVMTrunc:
    case LLVMSExt:
    case LLVMZExt:
        a = slope_at(rl, LLVMGetOperand(v, 0), var, budget);
        return a == 0 || wide_cast(v) ? a : MC_ROW_NOT_AFFINE;
    case LLVMAddrSpaceCast:
    case LLVMBitCast:
        return slope_at(rl, LLVMGetOperand(v, 0), var, budget) == 0 ? 0 : MC_ROW_NOT_AFFINE;
    case LLVMFreeze: /* instcombine's, around a divided index: the index is never poison */
        return slope_at(rl, LLVMGetOperand(v, 0), var, budget);
    case LLVMAnd: { /* zext(trunc(a)) as instcombine writes it, a's low zero bits cleared too */
        unsigned width, zeros;
        a = slope_at(rl, LLVMGetOperand(v, 0), var, budget);
        if (mc_row_truncating_mask(v, &width, &zeros) && a != 0)
            return a != MC_ROW_NOT_AFFINE && a % (1ll << zeros) == 0 ? a : MC_ROW_NOT_AFFINE;
        if (a != 0)
            return MC_ROW_NOT_AFFINE;
        return slope_at(rl, LLVMGetOperand(v, 1), var, budget) == 0 ? 0 : MC_ROW_NOT_AFFINE;
    }
    case LLVMAShr:
    case LLVMLShr: /* a sext or zext of a's low bits, as instcombine writes it: (a << k) >> k */
        if (mc_row_low_bits_cast(v))
            return slope_at(rl, mc_row_low_bits_of(v), var, budget);
        for (unsigned k = 0; k < 2; k++)
            if (slope_at(rl, LLVMGetOperand(v, k), var, budget) != 0)
                return MC_ROW_NOT_AFFINE;
        return 0;
    case LLVMOr:
    case LLVMXor:
    case LLVMGetElementPtr:
    case LLVMICmp:
    case LLVMSelect:
        for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
            if (slope_at(rl, LLVMGetOperand(v, k), var, budget) != 0)
                return MC_ROW_NOT_AFFINE;
        return 0;
    case LLVMLoad: /* workgroup.c marks the context's and the arguments' loads invariant */
        if (!LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "invariant.load", 14)) ||
            LLVMGetVolatile(v))
            return MC_ROW_NOT_AFFINE;
        return slope_at(rl, LLVMGetOperand(v, 0), var, budget) == 0 ? 0 : MC_ROW_NOT_AFFINE;
    default:
        return MC_ROW_NOT_AFFINE;
    }
}

long long mc_row_slope_in(const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef var)
{
    int budget = 64;
    return slope_at(rl, v, var, &budget);
}

long long mc_row_slope(const mc_row_loop *rl, LLVMValueRef v) { return mc_row_slope_in(rl, v, rl->x); }

bool mc_row_is_var(const mc_row_loop *rl, LLVMValueRef v) { return var_index(rl, v) >= 0; }

bool mc_row_add_var(mc_row_loop *rl, LLVMValueRef p)
{
    if (var_index(rl, p) >= 0)
        return true;
    if (rl->nvars == MC_ROW_MAX_VARS)
        return false;
    rl->vars[rl->nvars++] = p;
    return true;
}

LLVMValueRef mc_row_at_all(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef const *vals)
{
    int i = var_index(rl, v);
    if (i >= 0)
        return vals[i];
    if (!mc_row_in_loop(rl, v))
        return v;
    /* without nsw, nuw, exact or inbounds: v's value at a corner the loop
     * may never reach (a guarded access) must not be poison */
    if (LLVMIsABinaryOperator(v))
        return LLVMBuildBinOp(b, LLVMGetInstructionOpcode(v), mc_row_at_all(b, rl, LLVMGetOperand(v, 0), vals),
                              mc_row_at_all(b, rl, LLVMGetOperand(v, 1), vals), "");
    LLVMValueRef c = LLVMInstructionClone(v);
    for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
        LLVMSetOperand(c, k, mc_row_at_all(b, rl, LLVMGetOperand(v, k), vals));
    if (LLVMIsAGetElementPtrInst(c))
        LLVMSetIsInBounds(c, 0);
    LLVMInsertIntoBuilder(b, c);
    return c;
}

LLVMValueRef mc_row_at(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef xv)
{
    LLVMValueRef vals[MC_ROW_MAX_VARS] = {xv};
    return mc_row_at_all(b, rl, v, vals);
}

LLVMValueRef mc_row_last_x(LLVMBuilderRef b, const mc_row_loop *rl)
{
    /* the loop runs x = 0 before it tests x + 1 < bound: max(bound, 1) - 1 */
    LLVMTypeRef t = LLVMTypeOf(rl->x);
    LLVMValueRef some = LLVMBuildICmp(b, LLVMIntNE, rl->bound, LLVMConstInt(t, 0, 0), "");
    return LLVMBuildSub(b, rl->bound, LLVMBuildZExt(b, some, t, ""), "row.last");
}

void mc_row_before_loop(const mc_row_loop *rl, LLVMBuilderRef b)
{
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(rl->pre));
}

LLVMValueRef mc_row_copy_of(const mc_row_loop *rl, LLVMValueRef v)
{
    int k = rl->copy ? pmap_get(&rl->index, v) : -1;
    return k >= 0 ? rl->copy[k] : v;
}

LLVMBasicBlockRef mc_row_copy_of_block(const mc_row_loop *rl, LLVMBasicBlockRef bb)
{
    return LLVMValueAsBasicBlock(mc_row_copy_of(rl, LLVMBasicBlockAsValue(bb)));
}

static LLVMValueRef row_counterpart(const void *rl, LLVMValueRef v) { return mc_row_copy_of(rl, v); }

bool mc_row_copy(mc_row_loop *rl, LLVMBuilderRef b)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rl->wg));
    if (!(rl->copy = calloc(rl->ncopy ? rl->ncopy : 1, sizeof *rl->copy)))
        return false;
    /* blocks, then instructions, then operands, phis and successors */
    for (unsigned k = 0; k < rl->nblocks; k++)
        rl->copy[k] = LLVMBasicBlockAsValue(LLVMInsertBasicBlockInContext(c, rl->exit, "x.version"));
    for (unsigned k = 0; k < rl->nblocks; k++) {
        LLVMPositionBuilderAtEnd(b, mc_row_copy_of_block(rl, rl->blocks[k]));
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef ni;
            if (LLVMIsAPHINode(i)) {
                ni = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            } else {
                ni = LLVMInstructionClone(i);
                LLVMInsertIntoBuilder(b, ni);
            }
            rl->copy[pmap_get(&rl->index, i)] = ni;
        }
    }
    for (unsigned k = 0; k < rl->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl->blocks[k]); i; i = LLVMGetNextInstruction(i))
            mc_remap_copy(i, mc_row_copy_of(rl, i), row_counterpart, rl);
    return true;
}

void mc_row_choose(mc_row_loop *rl, LLVMBuilderRef b, LLVMValueRef use_copy)
{
    LLVMValueRef pbr = LLVMGetBasicBlockTerminator(rl->pre);
    LLVMPositionBuilderBefore(b, pbr);
    LLVMBuildCondBr(b, use_copy, mc_row_copy_of_block(rl, rl->header), rl->header);
    LLVMInstructionEraseFromParent(pbr);
}

bool mc_row_can_split(const mc_row_loop *rl)
{
    LLVMValueRef first = LLVMGetFirstInstruction(rl->header);
    return rl->bound && first == rl->x && !LLVMIsAPHINode(LLVMGetNextInstruction(first));
}

/* A new x phi for x (its header's only phi), entered from `from` at start;
 * from_latch: the incoming value's index of the latch's edge.  Returns the new phi. */
static LLVMValueRef restart_x(LLVMBuilderRef b, LLVMValueRef x, LLVMBasicBlockRef from, LLVMValueRef start,
                              unsigned from_latch)
{
    LLVMPositionBuilderBefore(b, x);
    LLVMValueRef nx = LLVMBuildPhi(b, LLVMTypeOf(x), "x");
    LLVMValueRef vals[2] = {start, LLVMGetIncomingValue(x, from_latch)};
    LLVMBasicBlockRef bbs[2] = {from, LLVMGetIncomingBlock(x, from_latch)};
    LLVMAddIncoming(nx, vals, bbs, 2);
    LLVMReplaceAllUsesWith(x, nx);
    LLVMInstructionEraseFromParent(x);
    return nx;
}

/* The latch's branch (of the loop or of its copy) goes round while x + 1 < end
 * and leaves to out. */
static void set_row_end(LLVMBasicBlockRef latch, LLVMValueRef end, LLVMBasicBlockRef out)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
    LLVMSetOperand(LLVMGetCondition(br), 1, end);
    LLVMSetSuccessor(br, 1, out);
}

void mc_row_split(mc_row_loop *rl, LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi)
{
    MOSAIC_ASSERT(mc_row_can_split(rl) && rl->copy);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(rl->wg));
    LLVMTypeRef t = LLVMTypeOf(rl->x), i1 = LLVMInt1TypeInContext(c);
    LLVMBasicBlockRef copy_header = mc_row_copy_of_block(rl, rl->header);
    LLVMBasicBlockRef copy_latch = mc_row_copy_of_block(rl, rl->latch);
    /* seg: the loop over [s, e) when it is not empty; first [0, lo), then [hi, bound) */
    LLVMBasicBlockRef seg = LLVMInsertBasicBlockInContext(c, rl->header, "row.segment");
    LLVMBasicBlockRef seg_done = LLVMInsertBasicBlockInContext(c, copy_header, "row.segment.done");
    LLVMBasicBlockRef inside = LLVMInsertBasicBlockInContext(c, copy_header, "row.inside");
    LLVMBasicBlockRef inside_done = LLVMInsertBasicBlockInContext(c, rl->exit, "row.inside.done");
    LLVMPositionBuilderAtEnd(b, seg);
    LLVMValueRef second = LLVMBuildPhi(b, i1, "row.second"), s = LLVMBuildPhi(b, t, "row.start");
    LLVMValueRef e = LLVMBuildPhi(b, t, "row.end");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, s, e, ""), rl->header, seg_done);
    LLVMPositionBuilderAtEnd(b, seg_done);
    LLVMBuildCondBr(b, second, rl->exit, inside);
    LLVMPositionBuilderAtEnd(b, inside);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, lo, hi, ""), copy_header, inside_done);
    LLVMPositionBuilderAtEnd(b, inside_done);
    LLVMBuildBr(b, seg);
    LLVMValueRef v_second[2] = {LLVMConstInt(i1, 0, 0), LLVMConstInt(i1, 1, 0)};
    LLVMValueRef v_s[2] = {LLVMConstInt(t, 0, 0), hi}, v_e[2] = {lo, rl->bound};
    LLVMBasicBlockRef from[2] = {rl->pre, inside_done};
    LLVMAddIncoming(second, v_second, from, 2);
    LLVMAddIncoming(s, v_s, from, 2);
    LLVMAddIncoming(e, v_e, from, 2);
    /* the loop starts at s and ends at e, the copy starts at lo and ends at hi */
    unsigned from_latch = LLVMGetIncomingBlock(rl->x, 0) == rl->latch ? 0 : 1;
    LLVMValueRef copy_x = mc_row_copy_of(rl, rl->x);
    rl->copy[pmap_get(&rl->index, rl->x)] = restart_x(b, copy_x, inside, lo, from_latch);
    /* (rl->index keeps the old phi: nothing may ask for the copy of the new one) */
    rl->x = rl->vars[0] = restart_x(b, rl->x, seg, s, from_latch);
    set_row_end(rl->latch, e, seg_done);
    set_row_end(copy_latch, hi, inside_done);
    LLVMValueRef pbr = LLVMGetBasicBlockTerminator(rl->pre);
    LLVMPositionBuilderBefore(b, pbr);
    LLVMBuildBr(b, seg);
    LLVMInstructionEraseFromParent(pbr);
}
