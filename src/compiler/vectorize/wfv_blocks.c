/*
 * Values a row's lanes share because its local ids lie in one aligned block
 * (K.row only: wfv.c's mc_wfv_rows).
 *
 * A barrier kernel loads its __local tiles in steps of the group, each
 * work-item at its linear id: `for (v = lid; v < 256; v += 64) { p = v /
 * 8; j = v % 8 * 4; ... }` with lid = ly * 8 + lx.  The shapes see v as
 * consecutive and stop there: v / 8 and v % 8 vary, so every access of
 * the tile is a gather or a scatter, and `v < 256` puts them under a mask.
 * Yet in a row of K.row, lx runs over 0 .. row - 1 only, so when the row
 * fits in the divisor (row <= 8 here) every lane has the same v / 8 (the
 * row's ly plus the step's), v % 8 is lx (consecutive), and v < 256 is the
 * same for every lane: the tile's loads and stores are vectors.
 *
 * The argument: a consecutive x is u + lx * st, u the part every lane
 * shares.  When u's low z bits are zero (found through the sums, multiples
 * and casts that make x: lane_free_zeros) and (row - 1) * st < 2^z, adding
 * lx * st carries nothing into bit z and up, so x's bits from z up are u's
 * (the row's) and its low z bits are lx * st (each lane's own).  A signed
 * division or remainder is a shift or a mask only where x is not negative:
 * u is then known not to be (built from constants that are not negative,
 * local ids, and sums, products and loop phis of such; as wfv.c assumes,
 * sums that make indices from local ids do not wrap).
 *
 * Where the lanes of x / 2^k and x % 2^k still differ (a row of 8 over
 * `v / 4`: a tile stored transposed), the same knowledge makes them a
 * shift and a mask when x is not negative: lshr and `and` keep the lanes'
 * offsets from the first lane constants that masked_ops.c can read, where
 * the sdiv and srem that a negative x would need do not.
 */
#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

/* How deep the walks below go (they follow operands and phis). */
#define MAX_DEPTH 16

static LLVMValueRef local_id(const widener *w, unsigned d)
{
    return LLVMGetParam(w->body, LLVMCountParams(w->body) - 3 + d);
}

/* Known trailing zeros of the part of consecutive integer v that every lane
 * shares (v = that + lx * stride); 0 when unknown.  Consecutive values are
 * no phis, so the walk ends. */
static unsigned lane_free_zeros(const widener *w, LLVMValueRef v, int depth)
{
    long long st;
    enum shape s = wd_shape_of(w, v, &st);
    if (s == UNIFORM)
        return mc_known_trailing_zeros(v);
    if (v == local_id(w, 0))
        return 64; /* lx: nothing shared */
    if (s != CONSECUTIVE || !LLVMIsAInstruction(v) || depth > MAX_DEPTH)
        return 0;
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    unsigned za = lane_free_zeros(w, a, depth + 1), zb = b ? lane_free_zeros(w, b, depth + 1) : 0, z;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd: case LLVMSub: case LLVMOr: /* (an `or` that is consecutive is a sum: wd_infer) */
        z = za < zb ? za : zb;
        break;
    case LLVMMul:
        z = za + zb;
        break;
    case LLVMShl:
        z = za + (unsigned)LLVMConstIntGetZExtValue(b); /* (consecutive: a constant shift) */
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt:
        z = za;
        break;
    case LLVMAnd: /* x & 0xffffffff, a cast */
        z = wd_low_bits(v, NULL) ? za : 0;
        break;
    default:
        z = 0;
    }
    return z < 64 ? z : 64;
}

/* Is uniform v not negative?  phis[0..nphis) are the phis the walk is in:
 * met again, they are taken as not negative (what comes round is then
 * checked from the values that enter). */
static bool uniform_not_negative(const widener *w, LLVMValueRef v, LLVMValueRef *phis, int nphis)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetSExtValue(v) >= 0;
    if (v == local_id(w, 1) || v == local_id(w, 2))
        return true;
    if (!LLVMIsAInstruction(v) || nphis >= MAX_DEPTH)
        return false;
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMZExt: case LLVMUDiv: case LLVMURem:
        return true; /* (an unsigned result of the same width is at most the dividend) */
    case LLVMLShr:
        return (LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) > 0) ||
               uniform_not_negative(w, a, phis, nphis);
    case LLVMAnd:
        return uniform_not_negative(w, a, phis, nphis) || uniform_not_negative(w, b, phis, nphis);
    case LLVMAdd: case LLVMOr: case LLVMMul:
        return uniform_not_negative(w, a, phis, nphis) && uniform_not_negative(w, b, phis, nphis);
    case LLVMShl: case LLVMTrunc: case LLVMSExt:
        return uniform_not_negative(w, a, phis, nphis);
    case LLVMSub:
        return LLVMIsAConstantInt(b) && LLVMConstIntGetSExtValue(b) <= 0 && uniform_not_negative(w, a, phis, nphis);
    case LLVMSelect:
        return uniform_not_negative(w, b, phis, nphis) &&
               uniform_not_negative(w, LLVMGetOperand(v, 2), phis, nphis);
    case LLVMPHI: {
        for (int i = 0; i < nphis; i++)
            if (phis[i] == v)
                return true;
        phis[nphis] = v;
        for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
            if (!uniform_not_negative(w, LLVMGetIncomingValue(v, i), phis, nphis + 1))
                return false;
        return true;
    }
    default:
        return false;
    }
}

/* Is the part of consecutive integer v that every lane shares not negative
 * (so v, u + lx * st with st > 0, is not either)? */
static bool shared_not_negative(const widener *w, LLVMValueRef v, int depth)
{
    long long st;
    enum shape s = wd_shape_of(w, v, &st);
    LLVMValueRef phis[MAX_DEPTH];
    if (s == UNIFORM)
        return uniform_not_negative(w, v, phis, 0);
    if (v == local_id(w, 0))
        return true;
    if (s != CONSECUTIVE || !LLVMIsAInstruction(v) || depth > MAX_DEPTH)
        return false;
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd: case LLVMOr: case LLVMMul: case LLVMShl:
        return shared_not_negative(w, a, depth + 1) && shared_not_negative(w, b, depth + 1);
    case LLVMSub: /* x - c, c <= 0 */
        return LLVMIsAConstantInt(b) && LLVMConstIntGetSExtValue(b) <= 0 && shared_not_negative(w, a, depth + 1);
    case LLVMTrunc: case LLVMSExt:
        return shared_not_negative(w, a, depth + 1);
    case LLVMZExt:
        return true;
    case LLVMAnd:
        return wd_low_bits(v, NULL);
    default:
        return false;
    }
}

/* Are the lanes of consecutive integer x (stride st) one block that keeps
 * x's bits from `bits` up the same: x = u + lx * st, u's low bits zero up
 * to `bits` or further, and (row - 1) * st below both? */
static bool row_in_one_block(const widener *w, LLVMValueRef x, long long st, unsigned bits)
{
    unsigned z = lane_free_zeros(w, x, 0);
    z = z < bits ? z : bits;
    return st > 0 && z < 62 && st < (1LL << 40) && (long long)(w->row - 1) * st < (1LL << z);
}

/* Is comparison cmp of a consecutive x with a value c the row shares the
 * same for every lane: the bound (c, or c + 1 for <= and >) a multiple of
 * 2^z as u is, and the row's lx * st below 2^z? */
static bool row_one_side(const widener *w, LLVMValueRef cmp)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
    LLVMValueRef x = LLVMGetOperand(cmp, 0), c = LLVMGetOperand(cmp, 1);
    long long st, sc;
    if (wd_shape_of(w, x, &st) != CONSECUTIVE) { /* c < x is x > c */
        static const LLVMIntPredicate swapped[][2] = {{LLVMIntULT, LLVMIntUGT}, {LLVMIntULE, LLVMIntUGE},
                                                      {LLVMIntSLT, LLVMIntSGT}, {LLVMIntSLE, LLVMIntSGE}};
        for (unsigned i = 0; i < 4; i++)
            if (p == swapped[i][0] || p == swapped[i][1]) {
                p = p == swapped[i][0] ? swapped[i][1] : swapped[i][0];
                break;
            }
        LLVMValueRef t = x;
        x = c, c = t;
    }
    if (p == LLVMIntEQ || p == LLVMIntNE || wd_shape_of(w, x, &st) != CONSECUTIVE ||
        wd_shape_of(w, c, &sc) != UNIFORM)
        return false;
    if (p == LLVMIntULT || p == LLVMIntSLT || p == LLVMIntUGE || p == LLVMIntSGE)
        return row_in_one_block(w, x, st, mc_known_trailing_zeros(c));
    if (!LLVMIsAConstantInt(c)) /* x <= c, x > c: c + 1 a multiple */
        return false;
    unsigned long long next = LLVMConstIntGetZExtValue(c) + 1;
    unsigned z = 0;
    while (z < 62 && next && !(next & (1ULL << z)))
        z++;
    return next && row_in_one_block(w, x, st, z);
}

/* k when constant v is 2^k (k < 62), else -1. */
static int log2_of(LLVMValueRef v)
{
    if (!LLVMIsAConstantInt(v))
        return -1;
    long long c = LLVMConstIntGetSExtValue(v);
    for (int k = 0; k < 62; k++)
        if (c == 1LL << k)
            return k;
    return -1;
}

enum shape wd_row_block_shape(const widener *w, LLVMValueRef inst, long long *stride)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (!w->row)
        return VARYING;
    if (op == LLVMICmp)
        return row_one_side(w, inst) ? UNIFORM : VARYING;
    LLVMValueRef x = LLVMGetOperand(inst, 0), c = LLVMGetOperand(inst, 1);
    long long st;
    int k = log2_of(c);
    if (wd_shape_of(w, x, &st) != CONSECUTIVE || !LLVMIsAConstantInt(c))
        return VARYING;
    switch (op) {
    case LLVMLShr: case LLVMSDiv: /* x / 2^k: the row's */
        if (op == LLVMLShr)
            k = (int)LLVMConstIntGetZExtValue(c) < 62 ? (int)LLVMConstIntGetZExtValue(c) : -1;
        return k >= 0 && row_in_one_block(w, x, st, (unsigned)k) &&
                       (op == LLVMLShr || shared_not_negative(w, x, 0))
                   ? UNIFORM
                   : VARYING;
    case LLVMAnd: case LLVMSRem: { /* x & m, x % 2^k: each lane's lx * st, when m covers it */
        if (op == LLVMSRem && (k < 0 || !shared_not_negative(w, x, 0)))
            return VARYING;
        unsigned long long m = op == LLVMAnd ? LLVMConstIntGetZExtValue(c) : (1ULL << k) - 1;
        if (!row_in_one_block(w, x, st, 62))
            return VARYING;
        for (unsigned long long l = 0; l < w->row; l++)
            if (((l * (unsigned long long)st) & m) != l * (unsigned long long)st)
                return VARYING;
        *stride = st;
        return CONSECUTIVE;
    }
    default:
        return VARYING;
    }
}

int wd_row_unsigned_pow2(const widener *w, LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (!w->row || (op != LLVMSDiv && op != LLVMSRem))
        return -1;
    LLVMValueRef x = LLVMGetOperand(inst, 0);
    long long st;
    int k = log2_of(LLVMGetOperand(inst, 1));
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(inst));
    if (k < 1 || (unsigned)k >= bits - 1 || wd_shape_of(w, x, &st) != CONSECUTIVE || st <= 0 ||
        !shared_not_negative(w, x, 0))
        return -1;
    return k;
}
