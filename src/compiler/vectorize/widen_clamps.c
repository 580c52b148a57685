/*
 * Clamped indices in widened code: loads whose address is consecutive
 * across the lanes wherever a row's clamps leave their operands alone.
 *
 * An image filter that replicates the image's edges clamps its coordinates,
 * `src[clamp(y, 0, h - 1) * w + clamp(x0 + lx, 0, w - 1)]`: the address of
 * such a load varies between the lanes in a way the shapes (widen.c) cannot
 * name, so the load becomes a gather, one element a lane (a tile of bytes
 * loaded byte by byte).  Yet in every row that lies inside the image the
 * clamp gives its operand back, and the address is consecutive.
 *
 * So the shapes are found a second time with each clamp (a min or max of
 * integers with a bound the row shares) taken as its operand
 * (wd_find_unclamped_shapes); a load whose address is consecutive in those
 * shapes becomes
 *
 *       ok = every clamp of the address leaves the row's lanes alone
 *       br ok, fast, slow
 *   fast: a vector load from lane 0's address (mirrored or interleaved as
 *         for any consecutive address)
 *   slow: the gather
 *   join: phi
 *
 * A clamp max(x, lo) leaves its lanes alone when x's smallest lane is at
 * least lo, min(x, hi) when x's largest is at most hi; x is consecutive in
 * the second shapes, so those are its first and last lanes (the running
 * lanes' values are read from x itself, which is right whatever x's own
 * clamps did: the test is of every clamp on the way, all at once).  With
 * every clamp leaving its lanes alone the address is what the second shapes
 * say, lane 0's plus the lane's number times the stride.  Assumed, as for
 * the shapes themselves: the sums that make indices do not wrap in a row.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/util.h"
#include "compiler/vectorize/widen_internal.h"

/* Instructions the walk from an address to its clamps visits at most. */
#define MAX_WALK 64

int wd_clamp_bound(const widener *w, LLVMValueRef inst)
{
    static const char *const names[] = {"llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin."};
    if (!LLVMIsACallInst(inst) || LLVMGetNumArgOperands(inst) != 2 ||
        LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind ||
        !mc_intrinsic_named(mc_called_function(inst), names, sizeof names / sizeof *names))
        return -1;
    long long st;
    bool u0 = wd_shape_of(w, LLVMGetOperand(inst, 0), &st) == UNIFORM;
    bool u1 = wd_shape_of(w, LLVMGetOperand(inst, 1), &st) == UNIFORM;
    return u0 == u1 ? -1 : u0 ? 0 : 1;
}

/* The second shapes: those of the instructions that vary only through
 * clamps become what they would be with the clamps left out.  Phis and
 * loads keep theirs (control flow may have made them vary). */
void wd_find_unclamped_shapes(widener *w)
{
    size_t n = (size_t)w->n + 1;
    bool any = false;
    for (int k = 0; k < w->n && !any; k++)
        any = w->shape[k] == VARYING && wd_clamp_bound(w, w->insts[k]) >= 0;
    if (!any || !(w->ushape = malloc(n)) || !(w->ustride = malloc(n * sizeof *w->ustride))) {
        free(w->ushape);
        w->ushape = NULL; /* out of memory: gathers, as without it */
        return;
    }
    memcpy(w->ushape, w->shape, n);
    memcpy(w->ustride, w->stride, n * sizeof *w->stride);
    /* wd_infer reads and writes w->shape: give it the second shapes */
    unsigned char *shape = w->shape;
    long long *stride = w->stride;
    w->shape = w->ushape, w->stride = w->ustride, w->unclamped = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < w->n; k++) {
            LLVMValueRef i = w->insts[k];
            long long st = 0;
            if (w->shape[k] != VARYING || LLVMIsAPHINode(i) || LLVMIsALoadInst(i) || LLVMIsAStoreInst(i) ||
                LLVMIsATerminatorInst(i))
                continue;
            enum shape s = wd_infer(w, i, &st);
            if (s != VARYING) {
                w->shape[k] = (unsigned char)s, w->stride[k] = st;
                changed = true;
            }
        }
    }
    w->shape = shape, w->stride = stride, w->unclamped = false;
}

/* v's shape and stride in the second shapes. */
static enum shape unclamped_shape(const widener *w, LLVMValueRef v, long long *stride)
{
    int k = wd_inst_index(w, v);
    if (k < 0 || !w->ushape)
        return wd_shape_of(w, v, stride);
    *stride = w->ustride[k];
    return (enum shape)w->ushape[k];
}

/* v's value in lane `lane` (an i32), at the builder's place. */
static LLVMValueRef lane_of(widener *w, LLVMValueRef v, LLVMValueRef lane)
{
    long long st = 0;
    enum shape s = wd_shape_of(w, v, &st);
    if (s == VARYING)
        return LLVMBuildExtractElement(w->b, w->vector[wd_inst_index(w, v)], lane, "");
    LLVMValueRef first = wd_scalar_of(w, v);
    if (s == UNIFORM)
        return first;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef i = LLVMBuildZExt(w->b, lane, t, "");
    return LLVMBuildAdd(w->b, first, LLVMBuildMul(w->b, i, LLVMConstInt(t, (unsigned long long)st, 1), ""), "");
}

/* Does clamp c leave the row's lanes alone? */
static LLVMValueRef clamp_holds(widener *w, LLVMValueRef c, int bound)
{
    LLVMValueRef x = LLVMGetOperand(c, (unsigned)(1 - bound)), b = wd_scalar_of(w, LLVMGetOperand(c, (unsigned)bound));
    long long st = 0;
    unclamped_shape(w, x, &st);
    LLVMValueRef first = lane_of(w, x, LLVMConstInt(w->i32, 0, 0)), last = lane_of(w, x, w->last);
    LLVMValueRef low = st > 0 ? first : last, high = st > 0 ? last : first;
    const char *name = LLVMGetValueName(mc_called_function(c));
    bool is_max = strstr(name, "max") != NULL, is_signed = strncmp(name, "llvm.s", 6) == 0;
    if (is_max) /* x's smallest lane at or above the bound */
        return LLVMBuildICmp(w->b, is_signed ? LLVMIntSGE : LLVMIntUGE, low, b, "clamp.holds");
    return LLVMBuildICmp(w->b, is_signed ? LLVMIntSLE : LLVMIntULE, high, b, "clamp.holds");
}

/* ANDs into *ok the test of every clamp that v's value passes through
 * (the instructions that vary but are consecutive in the second shapes);
 * false when the walk is longer than MAX_WALK. */
static bool clamps_hold(widener *w, LLVMValueRef v, LLVMValueRef *ok, int *budget)
{
    long long st;
    int k = wd_inst_index(w, v);
    if (k < 0 || w->shape[k] != VARYING)
        return true;
    if (--*budget < 0)
        return false;
    int bound = wd_clamp_bound(w, v);
    if (bound >= 0) {
        LLVMValueRef holds = clamp_holds(w, v, bound);
        *ok = *ok ? LLVMBuildAnd(w->b, *ok, holds, "") : holds;
        return clamps_hold(w, LLVMGetOperand(v, (unsigned)(1 - bound)), ok, budget);
    }
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(v, (unsigned)i);
        if (!LLVMIsABasicBlock(o) && !LLVMIsAFunction(o) && unclamped_shape(w, o, &st) != VARYING &&
            !clamps_hold(w, o, ok, budget))
            return false;
    }
    return true;
}

LLVMBasicBlockRef wd_end_block(const widener *w, int b) { return w->out_block[b] ? w->out_block[b] : w->blocks[b]; }

LLVMValueRef wd_clamped_load(widener *w, LLVMValueRef inst, LLVMValueRef mask)
{
    LLVMValueRef p = LLVMGetOperand(inst, 0), ok = NULL;
    long long st = 0, size = (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(w->m), LLVMTypeOf(inst));
    int budget = MAX_WALK;
    if (!w->ushape || wd_shape_of(w, p, &st) != VARYING || unclamped_shape(w, p, &st) != CONSECUTIVE ||
        !wd_vector_load_stride(st, size) || !clamps_hold(w, p, &ok, &budget) || !ok)
        return NULL;
    int self = pmap_get(&w->bidx, LLVMGetInstructionParent(inst));
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(w->c, w->vec, "clamps.hold");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(w->c, w->vec, "clamped");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(w->c, w->vec, "clamps.join");
    LLVMValueRef addresses = wd_vector_value(w, p);
    LLVMBuildCondBr(w->b, ok, fast, slow);
    LLVMPositionBuilderAtEnd(w->b, fast);
    LLVMValueRef first = LLVMBuildExtractElement(w->b, addresses, LLVMConstInt(w->i32, 0, 0), "");
    LLVMValueRef v[2] = {wd_strided_load(w, inst, first, st, mask), NULL};
    LLVMBasicBlockRef from[2] = {LLVMGetInsertBlock(w->b), slow};
    LLVMBuildBr(w->b, v[0] ? join : slow); /* out of memory on the way: the gather for every row */
    LLVMPositionBuilderAtEnd(w->b, slow);
    v[1] = wd_gather(w, inst, mask);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    w->out_block[self] = join;
    if (!v[0])
        return v[1];
    LLVMValueRef r = LLVMBuildPhi(w->b, LLVMTypeOf(v[1]), "");
    LLVMAddIncoming(r, v, from, 2);
    return r;
}
