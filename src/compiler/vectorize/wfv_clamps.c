/*
 * Accesses whose lanes follow each other only where a test on the row says
 * so: clamped coordinates, and indices that wrap in lanes that are off.
 *
 * An image filter that replicates the image's edges clamps its coordinates,
 * `src[clamp(y, 0, h - 1) * w + clamp(x0 + lx, 0, w - 1)]`: the address of
 * such a load varies between the lanes in a way the shapes (wfv.c) cannot
 * name, so the load becomes a gather, one element a lane (a tile of bytes
 * loaded byte by byte).  Yet in every row that lies inside the image the
 * clamp gives its operand back, and the address is consecutive.  So the
 * shapes are found a second time with each clamp (a min or max of integers
 * whose bound the row shares) taken as its operand
 * (wd_find_unclamped_shapes).  A clamp max(x, lo) leaves its lanes alone
 * when x's smallest lane is at least lo, min(x, hi) when x's largest is at
 * most hi; x is consecutive in the second shapes, so those are its end
 * lanes, read from x itself (right whatever x's own clamps did: every clamp
 * on the way is tested, all at once).
 *
 * A zero extension of what varies (or `x & 0xffffffff`, instcombine's
 * zext(trunc(x))) keeps its operand's shape, as the row's indices are
 * assumed not to wrap; but a lane that is off may have: `l ? s[l - 1] : 0`
 * with a `uint l` gives 0xffffffff at l = 0, and lane 0's address is then
 * not where the others follow from.  A masked access through one tests
 * that the operand's end lanes, read unsigned, are in order (for a mask:
 * have the same bits above it).
 *
 * Such an access becomes
 *
 *       ok = every test holds
 *       br ok, lanes.follow, lanes.apart
 *   lanes.follow: a vector access from lane 0's address (mirrored or
 *         interleaved as for any consecutive address)
 *   lanes.apart: a gather or scatter at each lane's own address (the
 *         extensions applied lane by lane)
 *   lanes.join: (a load's phi)
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

/* Instructions the walk from an address to its tests visits at most. */
#define MAX_WALK 64

bool wd_low_bits(LLVMValueRef inst, unsigned *k)
{
    if (!LLVMIsAInstruction(inst) || LLVMGetInstructionOpcode(inst) != LLVMAnd ||
        !LLVMIsAConstantInt(LLVMGetOperand(inst, 1)) || LLVMIsAConstant(LLVMGetOperand(inst, 0)))
        return false;
    unsigned long long m = LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 1));
    if (m < 0xffffffffull || (m & (m + 1)))
        return false;
    unsigned bits = 0;
    for (; m; m >>= 1)
        bits++;
    if (k)
        *k = bits;
    return true;
}

int wd_clamp_bound(const widener *w, LLVMValueRef inst)
{
    static const char *const names[] = {"llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin."};
    if (!LLVMIsACallInst(inst) || LLVMGetNumArgOperands(inst) != 2 ||
        LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind ||
        !mc_intrinsic_named(mc_called_function(inst), names, sizeof names / sizeof *names))
        return -1;
    bool u0 = wd_uniform(w, LLVMGetOperand(inst, 0)), u1 = wd_uniform(w, LLVMGetOperand(inst, 1));
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

/* v's value in lane `lane` (an i32; a constant with several rows at
 * once), at the builder's place. */
static LLVMValueRef lane_of(widener *w, LLVMValueRef v, LLVMValueRef lane)
{
    long long st = 0;
    enum shape s = wd_shape_of(w, v, &st);
    if (s == VARYING)
        return LLVMBuildExtractElement(w->b, w->vector[wd_inst_index(w, v)], lane, "");
    LLVMValueRef first = wd_scalar_of(w, v);
    if (w->rows > 1) { /* the lane's row's first lane, and its place in the row */
        unsigned long long i = LLVMConstIntGetZExtValue(lane);
        first = wd_row_scalar(w, v, (unsigned)(i / w->chunk));
        lane = LLVMConstInt(w->i32, i % w->chunk, 0);
    }
    if (s == UNIFORM)
        return first;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef i = LLVMBuildIntCast2(w->b, lane, t, 0, "");
    return LLVMBuildAdd(w->b, first, LLVMBuildMul(w->b, i, LLVMConstInt(t, (unsigned long long)st, 1), ""), "");
}

/* x's stride: in the shapes, or where it varies, in the second shapes. */
static long long stride_of(const widener *w, LLVMValueRef x)
{
    long long st = 0;
    if (wd_shape_of(w, x, &st) == VARYING)
        unclamped_shape(w, x, &st);
    return st;
}

static void both(widener *w, LLVMValueRef *ok, LLVMValueRef test)
{
    *ok = *ok ? LLVMBuildAnd(w->b, *ok, test, "") : test;
}

/* x's end lanes in row r (the first and the last, read from x as its
 * lanes run): *low the one that should be the smallest. */
static void row_ends(widener *w, LLVMValueRef x, unsigned r, LLVMValueRef *low, LLVMValueRef *high)
{
    long long st = stride_of(w, x);
    LLVMValueRef last = w->rows > 1 ? LLVMConstInt(w->i32, r * w->chunk + w->chunk - 1, 0) : w->last;
    LLVMValueRef first = lane_of(w, x, LLVMConstInt(w->i32, r * w->chunk, 0)), end = lane_of(w, x, last);
    *low = st > 0 ? first : end, *high = st > 0 ? end : first;
}

/* Does clamp c leave the row's lanes alone (each row's, several at once)? */
static LLVMValueRef clamp_holds(widener *w, LLVMValueRef c, int bound)
{
    LLVMValueRef x = LLVMGetOperand(c, (unsigned)(1 - bound)), b = wd_scalar_of(w, LLVMGetOperand(c, (unsigned)bound));
    const char *name = LLVMGetValueName(mc_called_function(c));
    bool is_max = strstr(name, "max") != NULL, is_signed = strncmp(name, "llvm.s", 6) == 0;
    LLVMValueRef ok = NULL, low, high;
    for (unsigned r = 0; r < w->rows; r++) {
        row_ends(w, x, r, &low, &high);
        if (is_max) /* x's smallest lane at or above the bound */
            both(w, &ok, LLVMBuildICmp(w->b, is_signed ? LLVMIntSGE : LLVMIntUGE, low, b, "clamp.holds"));
        else
            both(w, &ok, LLVMBuildICmp(w->b, is_signed ? LLVMIntSLE : LLVMIntULE, high, b, "clamp.holds"));
    }
    return ok;
}

/* Does zero extension or low-bits mask z see its operand's lanes go on
 * without wrapping (read unsigned, the lane that should be the smallest
 * is)?  NULL when z is neither. */
static LLVMValueRef no_wrap(widener *w, LLVMValueRef z)
{
    unsigned bits;
    bool mask = wd_low_bits(z, &bits);
    if (!mask && !LLVMIsAZExtInst(z))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(z, 0), ok = NULL, low, high;
    for (unsigned r = 0; r < w->rows; r++) {
        row_ends(w, x, r, &low, &high);
        if (mask) { /* no multiple of 2^bits between: the same bits above them */
            LLVMValueRef k = LLVMConstInt(LLVMTypeOf(x), bits, 0);
            both(w, &ok, LLVMBuildICmp(w->b, LLVMIntEQ, LLVMBuildLShr(w->b, low, k, ""),
                                       LLVMBuildLShr(w->b, high, k, ""), "no.wrap"));
        } else {
            both(w, &ok, LLVMBuildICmp(w->b, LLVMIntULE, low, high, "no.wrap"));
        }
    }
    return ok;
}

/* ANDs into *ok the test of every clamp that v's value passes through
 * (the instructions that vary but are consecutive in the second shapes),
 * and with `wraps` of every zero extension and low-bits mask of what
 * varies; false when the walk is longer than MAX_WALK. */
static bool tests_of(widener *w, LLVMValueRef v, bool wraps, LLVMValueRef *ok, int *budget)
{
    long long st;
    int k = wd_inst_index(w, v);
    if (k < 0 || w->shape[k] == UNIFORM || LLVMIsAPHINode(v) || LLVMIsALoadInst(v))
        return true;
    if (--*budget < 0)
        return false;
    LLVMValueRef test = wraps ? no_wrap(w, v) : NULL;
    int bound = w->shape[k] == VARYING ? wd_clamp_bound(w, v) : -1;
    if (bound >= 0)
        test = clamp_holds(w, v, bound);
    if (test)
        both(w, ok, test);
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(v, (unsigned)i);
        if (i != bound && !LLVMIsABasicBlock(o) && !LLVMIsAFunction(o) && unclamped_shape(w, o, &st) != VARYING &&
            !tests_of(w, o, wraps, ok, budget))
            return false;
    }
    return true;
}

/* v's value in every lane, each computed as the lane computes it: where a
 * zero extension or low-bits mask on the way sees its operand wrap, the
 * lanes' addresses do not follow lane 0's as v's shape says. */
static LLVMValueRef own_lanes(widener *w, LLVMValueRef v, int depth)
{
    long long st;
    int k = wd_inst_index(w, v);
    if (k < 0 || wd_shape_of(w, v, &st) != CONSECUTIVE || depth > MAX_WALK)
        return wd_vector_value(w, v); /* uniform, varying, the local id: as they are */
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), w->lanes);
    if (LLVMIsACastInst(v))
        return LLVMBuildCast(w->b, op, own_lanes(w, LLVMGetOperand(v, 0), depth + 1), vt, "");
    if (LLVMIsABinaryOperator(v))
        return LLVMBuildBinOp(w->b, op, own_lanes(w, LLVMGetOperand(v, 0), depth + 1),
                              own_lanes(w, LLVMGetOperand(v, 1), depth + 1), "");
    if (LLVMIsAGetElementPtrInst(v)) {
        int n = LLVMGetNumOperands(v);
        LLVMValueRef idx[8], base = LLVMGetOperand(v, 0);
        if (n > 9)
            return wd_vector_value(w, v);
        for (int i = 1; i < n; i++) { /* struct field numbers stay constants */
            LLVMValueRef o = LLVMGetOperand(v, (unsigned)i);
            idx[i - 1] = wd_uniform(w, o) ? wd_scalar_of(w, o) : own_lanes(w, o, depth + 1);
        }
        base = wd_uniform(w, base) ? wd_splat(w, wd_scalar_of(w, base)) : own_lanes(w, base, depth + 1);
        return LLVMBuildGEP2(w->b, LLVMGetGEPSourceElementType(v), base, idx, (unsigned)n - 1, "");
    }
    return wd_vector_value(w, v);
}

LLVMBasicBlockRef wd_end_block(const widener *w, int b) { return w->out_block[b] ? w->out_block[b] : w->blocks[b]; }

LLVMValueRef wd_versioned_access(widener *w, LLVMValueRef inst, LLVMValueRef value, LLVMValueRef mask)
{
    LLVMValueRef p = LLVMGetOperand(inst, value ? 1 : 0), ok = NULL;
    LLVMTypeRef t = value ? LLVMTypeOf(value) : LLVMTypeOf(inst);
    long long st = 0, size = (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(w->m), t);
    int budget = MAX_WALK;
    enum shape real = wd_shape_of(w, p, &st);
    if (real == UNIFORM || (real == VARYING && unclamped_shape(w, p, &st) != CONSECUTIVE) ||
        !(value ? st == size || st == -size : wd_vector_load_stride(st, size)))
        return NULL;
    /* lanes off may wrap (l - 1 at l = 0): their addresses then do not follow lane 0's */
    if (!tests_of(w, p, mask != NULL || real == VARYING, &ok, &budget) || !ok)
        return NULL;
    int self = pmap_get(&w->bidx, LLVMGetInstructionParent(inst));
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(w->c, w->vec, "lanes.follow");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(w->c, w->vec, "lanes.apart");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(w->c, w->vec, "lanes.join");
    LLVMValueRef addresses = real == VARYING ? wd_vector_value(w, p) : NULL;
    LLVMBuildCondBr(w->b, ok, fast, slow);
    LLVMPositionBuilderAtEnd(w->b, fast);
    LLVMValueRef first = addresses && w->rows < 2
                             ? LLVMBuildExtractElement(w->b, addresses, LLVMConstInt(w->i32, 0, 0), "")
                             : wd_first_lanes(w, p);
    LLVMValueRef v[2] = {value ? NULL : wd_strided_load(w, inst, first, st, mask), NULL};
    bool done = value ? wd_strided_store(w, inst, first, st, mask) : v[0] != NULL;
    LLVMBasicBlockRef from[2] = {LLVMGetInsertBlock(w->b), slow};
    LLVMBuildBr(w->b, done ? join : slow); /* out of memory on the way: the gather or scatter for every row */
    LLVMPositionBuilderAtEnd(w->b, slow);
    if (!addresses)
        addresses = own_lanes(w, p, 0);
    if (value)
        wd_scatter(w, inst, addresses, mask);
    else
        v[1] = wd_gather(w, inst, addresses, mask);
    LLVMValueRef r = LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    w->out_block[self] = join;
    if (value || !done)
        return value ? r : v[1];
    r = LLVMBuildPhi(w->b, LLVMTypeOf(v[1]), "");
    LLVMAddIncoming(r, v, from, 2);
    return r;
}
