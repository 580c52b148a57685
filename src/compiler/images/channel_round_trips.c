/*
 * A small integer through float arithmetic and back, folded.
 *
 * read_imagef of an RGBA UNORM_INT8 pixel makes each byte c a float,
 * c * (1/255); write_imagef to such an image takes it back,
 * rint(clamp(v * 255, 0, 255)).  An image copy thus converts every channel
 * there and back: about ten vector operations a channel where a load and a
 * store would do.  LLVM does not fold it: in floats, c * (1/255) * 255 is
 * not c for every float c.  It is for every byte, though, and a byte has
 * only 256 values.
 *
 * So, for each conversion of a float to an integer (fptoui, fptosi) whose
 * value is computed, through float arithmetic and the rounding, min and max
 * intrinsics, from one integer x known to be small (an `and` with a
 * constant, a right shift, a zero extension: at most MAX_VALUES values),
 * the computation is evaluated here for every value x can take, with the
 * IR's float semantics (each operation rounded to its type; the
 * contractible ones, fmuladd, fused).  When it gives x back every time, the
 * conversion becomes x; when it gives one constant, that constant.  What
 * the arithmetic may do otherwise (reassociation the flags allow) is one
 * of the results the IR permits, so choosing this one is right.
 *
 * InstCombine then folds the channels' shifts and masks back into the
 * pixel's word: the copy's inside rows become a load and a store.
 */
#include <math.h>
#include <string.h>

#include "compiler/images/images.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"

enum {
    MAX_NODES = 32,      /* operations in one conversion's computation */
    MAX_VALUES = 1 << 16 /* values of x tried */
};

typedef enum { LEAF, CONSTANT, MUL, ADD, SUB, DIV, NEG, MIN, MAX, RINT, FLOOR, CEIL, TRUNC, ROUND, FABS, FMA } op;

typedef struct {
    op op;
    bool single;    /* float (else double) */
    bool is_signed; /* a LEAF's conversion: sitofp */
    double constant;
    int a, b, c; /* operand nodes */
} node;

typedef struct {
    const pmap *reached; /* the blocks that run (reachable_blocks), or NULL: phis end the walk */
    node n[MAX_NODES];
    int count;
    LLVMValueRef x;  /* the one integer every LEAF converts */
    bool any_signed; /* some LEAF is sitofp */
} tree;

/* Can the branch at the end of `from` go to `to`?  Not one way of a
 * branch on a constant that goes the other. */
static bool edge_runs(LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(from);
    if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term) || !LLVMIsAConstantInt(LLVMGetCondition(term)))
        return true;
    return LLVMGetSuccessor(term, LLVMConstIntGetZExtValue(LLVMGetCondition(term)) ? 0 : 1) == to;
}

static op intrinsic_op(LLVMValueRef callee, int *args)
{
    static const struct {
        const char *prefix;
        op op;
        int args;
    } table[] = {
        {"llvm.minnum.", MIN, 2}, {"llvm.maxnum.", MAX, 2},   {"llvm.rint.", RINT, 1},  {"llvm.nearbyint.", RINT, 1},
        {"llvm.floor.", FLOOR, 1}, {"llvm.ceil.", CEIL, 1},   {"llvm.trunc.", TRUNC, 1}, {"llvm.round.", ROUND, 1},
        {"llvm.fabs.", FABS, 1},  {"llvm.fma.", FMA, 3},      {"llvm.fmuladd.", FMA, 3},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        const char *prefix = table[k].prefix;
        if (mc_intrinsic_named(callee, &prefix, 1)) {
            *args = table[k].args;
            return table[k].op;
        }
    }
    return LEAF; /* not one of them */
}

/* Adds v's computation to t; its node, or -1 when it is not one this
 * evaluates. */
static int build(tree *t, LLVMValueRef v)
{
    LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(v));
    if ((kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind) || t->count == MAX_NODES)
        return -1;
    node n = {.single = kind == LLVMFloatTypeKind, .a = -1, .b = -1, .c = -1};
    if (LLVMIsAConstantFP(v)) {
        LLVMBool lost;
        n.op = CONSTANT, n.constant = LLVMConstRealGetDouble(v, &lost);
    } else if (LLVMIsAInstruction(v)) {
        LLVMOpcode code = LLVMGetInstructionOpcode(v);
        int args = 0;
        switch (code) {
        case LLVMUIToFP: case LLVMSIToFP: {
            LLVMValueRef x = LLVMGetOperand(v, 0);
            if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind || (t->x && t->x != x))
                return -1;
            t->x = x;
            n.op = LEAF, n.is_signed = code == LLVMSIToFP;
            t->any_signed = t->any_signed || n.is_signed;
            break;
        }
        case LLVMPHI: { /* one value on every way that runs (finding only) */
            LLVMValueRef only = NULL;
            if (!t->reached)
                return -1;
            for (unsigned k = 0, nk = LLVMCountIncoming(v); k < nk; k++) {
                LLVMValueRef in = LLVMGetIncomingValue(v, k);
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(v, k);
                if (pmap_get(t->reached, from) < 0 || !edge_runs(from, LLVMGetInstructionParent(v)) || in == only)
                    continue;
                if (only || in == v)
                    return -1;
                only = in;
            }
            return only ? build(t, only) : -1;
        }
        case LLVMFMul: n.op = MUL, args = 2; break;
        case LLVMFAdd: n.op = ADD, args = 2; break;
        case LLVMFSub: n.op = SUB, args = 2; break;
        case LLVMFDiv: n.op = DIV, args = 2; break;
        case LLVMFNeg: n.op = NEG, args = 1; break;
        case LLVMCall: {
            LLVMValueRef callee = mc_called_function(v);
            if (!callee || (n.op = intrinsic_op(callee, &args)) == LEAF)
                return -1;
            break;
        }
        default:
            return -1;
        }
        int *operand[3] = {&n.a, &n.b, &n.c};
        for (int k = 0; k < args; k++)
            if ((*operand[k] = build(t, LLVMGetOperand(v, (unsigned)k))) < 0)
                return -1;
    } else {
        return -1;
    }
    if (t->count == MAX_NODES)
        return -1;
    t->n[t->count] = n;
    return t->count++;
}

/* Node k of t for x (its nodes before it already evaluated into val). */
static double eval_single(const node *n, const double *val, uint64_t x)
{
    float a = n->a >= 0 ? (float)val[n->a] : 0, b = n->b >= 0 ? (float)val[n->b] : 0;
    float c = n->c >= 0 ? (float)val[n->c] : 0;
    switch (n->op) {
    case LEAF: return n->is_signed ? (float)(int64_t)x : (float)x;
    case CONSTANT: return (float)n->constant;
    case MUL: return a * b;
    case ADD: return a + b;
    case SUB: return a - b;
    case DIV: return a / b;
    case NEG: return -a;
    case MIN: return fminf(a, b);
    case MAX: return fmaxf(a, b);
    case RINT: return rintf(a);
    case FLOOR: return floorf(a);
    case CEIL: return ceilf(a);
    case TRUNC: return truncf(a);
    case ROUND: return roundf(a);
    case FABS: return fabsf(a);
    case FMA: return fmaf(a, b, c);
    }
    return NAN;
}

static double eval_double(const node *n, const double *val, uint64_t x)
{
    double a = n->a >= 0 ? val[n->a] : 0, b = n->b >= 0 ? val[n->b] : 0, c = n->c >= 0 ? val[n->c] : 0;
    switch (n->op) {
    case LEAF: return n->is_signed ? (double)(int64_t)x : (double)x;
    case CONSTANT: return n->constant;
    case MUL: return a * b;
    case ADD: return a + b;
    case SUB: return a - b;
    case DIV: return a / b;
    case NEG: return -a;
    case MIN: return fmin(a, b);
    case MAX: return fmax(a, b);
    case RINT: return rint(a);
    case FLOOR: return floor(a);
    case CEIL: return ceil(a);
    case TRUNC: return trunc(a);
    case ROUND: return round(a);
    case FABS: return fabs(a);
    case FMA: return fma(a, b, c);
    }
    return NAN;
}

/* The values an integer is known to lie in, [0, *most], from how it is
 * made; false when not known or more than MAX_VALUES. */
static bool small_range(LLVMValueRef x, uint64_t *most)
{
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(x));
    uint64_t m = 0;
    if (bits > 64)
        return false;
    if (LLVMIsAZExtInst(x)) {
        unsigned from = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(x, 0)));
        m = from >= 64 ? UINT64_MAX : (UINT64_C(1) << from) - 1;
    } else if (LLVMIsABinaryOperator(x) && LLVMIsAConstantInt(LLVMGetOperand(x, 1)) && bits <= 64) {
        uint64_t c = LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1));
        if (LLVMGetInstructionOpcode(x) == LLVMAnd)
            m = c;
        else if (LLVMGetInstructionOpcode(x) == LLVMLShr && c > 0 && c < bits)
            m = (bits - c >= 64) ? UINT64_MAX : (UINT64_C(1) << (bits - c)) - 1;
        else
            return false;
    } else {
        return false;
    }
    *most = m;
    return m < MAX_VALUES;
}

/* What the conversion `conv` gives for each x: 1 every time x, 2 every time
 * one constant (*same), 0 otherwise or when some x gives a result the
 * conversion leaves undefined. */
static int evaluate(LLVMValueRef conv, const tree *t, uint64_t most, uint64_t *same)
{
    bool to_signed = LLVMGetInstructionOpcode(conv) == LLVMFPToSI;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(conv));
    double lo = to_signed ? -ldexp(1, (int)bits - 1) : 0, hi = ldexp(1, to_signed ? (int)bits - 1 : (int)bits);
    bool identity = true, constant = true;
    uint64_t first = 0;
    double val[MAX_NODES];
    for (uint64_t x = 0; x <= most && (identity || constant); x++) {
        for (int k = 0; k < t->count; k++)
            val[k] = t->n[k].single ? eval_single(&t->n[k], val, x) : eval_double(&t->n[k], val, x);
        double r = trunc(val[t->count - 1]);
        if (!(r >= lo && r < hi)) /* NaN or out of range: poison */
            return 0;
        uint64_t got = to_signed ? (uint64_t)(int64_t)r : (uint64_t)r;
        identity = identity && got == x;
        if (x == 0)
            first = got;
        constant = constant && got == first;
    }
    *same = first;
    return identity ? 1 : constant ? 2 : 0;
}

/* The blocks of f that can run: from the entry, through branches but the
 * ways a constant condition never takes.  A version of a loop whose tests
 * became constants (image_bounds_versioning.c) still has those ways, and a
 * pixel's value reaches the write through a phi with their zeros. */
static bool reachable_blocks(LLVMValueRef f, pmap *reached)
{
    unsigned n = LLVMCountBasicBlocks(f);
    LLVMBasicBlockRef *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!stack || !pmap_init(reached, n)) {
        free(stack);
        pmap_free(reached);
        return false;
    }
    unsigned top = 0;
    stack[top++] = LLVMGetEntryBasicBlock(f);
    pmap_put(reached, stack[0], 1);
    while (top) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--top]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned k = 0; k < ns; k++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, k);
            if (!edge_runs(LLVMGetInstructionParent(term), to) || pmap_get(reached, to) >= 0)
                continue;
            pmap_put(reached, to, 1);
            stack[top++] = to; /* each block once: at most n */
        }
    }
    free(stack);
    return true;
}

unsigned mc_fold_channel_round_trips(LLVMValueRef f, bool fold)
{
    unsigned found = 0;
    pmap reached = {0};
    if (!fold && !reachable_blocks(f, &reached))
        return 0; /* out of memory: nothing to fold, which is right */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode code = LLVMGetInstructionOpcode(i);
            if ((code != LLVMFPToUI && code != LLVMFPToSI) || LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind ||
                LLVMGetIntTypeWidth(LLVMTypeOf(i)) > 64)
                continue;
            tree t = {.reached = fold ? NULL : &reached, .count = 0};
            uint64_t most, same;
            if (build(&t, LLVMGetOperand(i, 0)) < 0 || !t.x || !small_range(t.x, &most) ||
                (t.any_signed && most >> (LLVMGetIntTypeWidth(LLVMTypeOf(t.x)) - 1)))
                continue; /* (sitofp would read the largest values as negative) */
            int how = evaluate(i, &t, most, &same);
            if (!how)
                continue;
            found++;
            if (!fold)
                continue;
            LLVMTypeRef to = LLVMTypeOf(i);
            LLVMValueRef v = LLVMConstInt(to, same, 0);
            if (how == 1) {
                LLVMPositionBuilderBefore(b, i);
                unsigned from = LLVMGetIntTypeWidth(LLVMTypeOf(t.x)), bits = LLVMGetIntTypeWidth(to);
                /* x is non-negative and fits: widened with zeros, or narrowed */
                v = from < bits ? LLVMBuildZExt(b, t.x, to, "") : from > bits ? LLVMBuildTrunc(b, t.x, to, "") : t.x;
            }
            LLVMReplaceAllUsesWith(i, v);
        }
    LLVMDisposeBuilder(b);
    pmap_free(&reached);
    return found;
}
