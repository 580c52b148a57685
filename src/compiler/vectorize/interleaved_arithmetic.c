/*
 * A float4's arithmetic done in memory's layout, its components side by
 * side, not transposed.
 *
 * Widened, a work-item's float4 is four vectors, one per component (lane l
 * of vector c is work-item l's component c).  Where the work-items of a
 * row read their float4s from consecutive places (`vload4(j, B + k * n)`,
 * j the work-item), interleaved_access.c reads the row as one wide vector
 * and takes every fourth element for each component; a float4 stored the
 * same way is its components interleaved again by shuffles.  An ML
 * compiler's matmul does nothing else with them: `c0 + a0.x * b0 + ...`
 * multiplies every component of b0 by one scalar and adds it to the same
 * component of c0.  The transposes then cost more than the arithmetic:
 * each step of its k loop (four rows of B, four of C's tile) took 64
 * two-source permutes and 16 more shuffles beside its 64 multiply-adds on
 * AVX-512, on the port that also runs one of the two FMA units.
 *
 * So, after interleaved_access.c, from each value that interleaves F
 * vectors of L lanes (a shuffle, or a tree of them, whose element F l + c
 * is lane l of vector c: what a float4 store takes) the pass looks for a
 * computation of those F vectors that does the same to each, a *group* of
 * F values, component c's at place c:
 *   - F instructions of one kind in one block that compute each lane from
 *     the same lane of their operands (arithmetic, comparisons, selects,
 *     conversions, intrinsics such as llvm.fmuladd), whose operands at
 *     each place make a group again;
 *   - F phis of one block whose incoming values from each block do;
 *   - and as leaves: the F shuffles that take every F-th element of one
 *     vector of F L lanes from element c (the interleaved load), one value
 *     for every component (the splat of a0.x, a constant), or constants.
 * Each group of instructions or phis becomes one instruction or phi on F L
 * lanes in the interleaved layout, whose lane F l + c is lane l of
 * component c's; the first leaf kind is then the wide vector itself, the
 * second repeats each lane F times (a splat stays a splat), and the value
 * interleaved becomes the wide one.  The group's instructions go, and with
 * them the deinterleaving and interleaving shuffles.
 *
 * Only where nothing else uses what goes: every user of a group's
 * instruction is another group's or a shuffle that only leads to the
 * values interleaved, and a value repeated for every component is a
 * scalar, a splat or a constant, and no group's.  A value interleaved
 * whose computation breaks this is left as it is (and with it what it
 * shares with others).  Nothing costs more after: the instructions on F L
 * lanes are as many machine instructions as the F on L lanes were, and no
 * shuffle is added.
 */
#include <stdlib.h>

#include "base/assert.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

#define MAX_COMPONENTS 16
#define MAX_WIDE 256 /* lanes of a wide value */
#define MAX_OPERANDS 3
#define MAX_GROUPS 512
#define MAX_ROOTS 256
#define MAX_SHUFFLE_DEPTH 8 /* shuffles through which an element is traced */
#define MAX_CHAIN 512       /* groups in one chain of operands (recursion depth) */

typedef enum {
    GROUP_OP,       /* F instructions of one kind in one block */
    GROUP_PHI,      /* F phis of one block */
    GROUP_SOURCE,   /* every F-th element of one wide vector, component c's from element c */
    GROUP_SAME,     /* one value for every component */
    GROUP_CONSTANT, /* F constant vectors */
} group_kind;

typedef struct {
    group_kind kind;
    unsigned f;                        /* components */
    LLVMValueRef part[MAX_COMPONENTS]; /* component c's value */
    LLVMValueRef source;               /* GROUP_SOURCE: the wide vector */
    unsigned first_operand, operands;  /* its operand groups, in plan.operand (phis: per incoming) */
    unsigned root;                     /* the value interleaved whose search made it */
    LLVMValueRef wide;                 /* built: the value on F L lanes */
} group;

typedef struct {
    LLVMModuleRef m;
    LLVMBuilderRef b;
    group *g;
    unsigned n, cap;
    unsigned *operand;
    unsigned no, ocap;
    LLVMValueRef root[MAX_ROOTS]; /* the values interleaved */
    unsigned root_group[MAX_ROOTS];
    bool root_dropped[MAX_ROOTS];
    unsigned nroots;
} plan;

/* ---- elements through shuffles ----------------------------------------------------- */

static bool is_vector(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind; }

static unsigned lanes_of(LLVMValueRef v) { return LLVMGetVectorSize(LLVMTypeOf(v)); }

/* Where element e of vector v comes from, through shuffles: *from (not a
 * shuffle, or one too deep) and its element *at; false for an undefined
 * element. */
static bool trace_element(LLVMValueRef v, unsigned e, LLVMValueRef *from, unsigned *at)
{
    for (int d = 0; d < MAX_SHUFFLE_DEPTH && LLVMIsAShuffleVectorInst(v); d++) {
        int m = LLVMGetMaskValue(v, e);
        if (m == LLVMGetUndefMaskElem())
            return false;
        LLVMValueRef a = LLVMGetOperand(v, 0);
        unsigned na = lanes_of(a);
        if ((unsigned)m < na)
            v = a, e = (unsigned)m;
        else
            v = LLVMGetOperand(v, 1), e = (unsigned)m - na;
    }
    *from = v;
    *at = e;
    return true;
}

/* The number F of vectors whose lanes shuffle v interleaves (element F l +
 * c is lane l of part[c]; F at least 2, the parts of one type and not all
 * the same), or 0. */
static unsigned interleaved_parts(LLVMValueRef v, LLVMValueRef *part)
{
    LLVMValueRef first;
    unsigned at;
    if (!LLVMIsAShuffleVectorInst(v) || !trace_element(v, 0, &first, &at) || at || !is_vector(first) ||
        LLVMIsAShuffleVectorInst(first))
        return 0;
    unsigned n = lanes_of(v), lanes = lanes_of(first);
    if (lanes < 2 || n > MAX_WIDE || n % lanes || n / lanes < 2 || n / lanes > MAX_COMPONENTS)
        return 0;
    unsigned f = n / lanes;
    for (unsigned c = 0; c < f; c++)
        part[c] = NULL;
    for (unsigned e = 0; e < n; e++) {
        LLVMValueRef from;
        if (!trace_element(v, e, &from, &at) || at != e / f || LLVMTypeOf(from) != LLVMTypeOf(first) ||
            LLVMIsAShuffleVectorInst(from) || (part[e % f] && part[e % f] != from))
            return 0;
        part[e % f] = from;
    }
    for (unsigned c = 1; c < f; c++)
        if (part[c] != part[0])
            return f;
    return 0; /* one value repeated */
}

/* The vector of F L lanes whose every F-th element, from element c, part[c]
 * is, or NULL. */
static LLVMValueRef deinterleaved_source(LLVMValueRef *part, unsigned f)
{
    LLVMValueRef w = NULL;
    unsigned lanes = lanes_of(part[0]);
    for (unsigned c = 0; c < f; c++) {
        if (!LLVMIsAShuffleVectorInst(part[c]))
            return NULL;
        for (unsigned l = 0; l < lanes; l++) {
            LLVMValueRef from;
            unsigned at;
            if (!trace_element(part[c], l, &from, &at) || at != f * l + c || (w && from != w))
                return NULL;
            w = from;
        }
    }
    return is_vector(w) && lanes_of(w) == f * lanes ? w : NULL;
}

/* ---- groups ------------------------------------------------------------------------ */

/* Does inst compute each lane from the same lane of its operands, as one
 * instruction on more lanes would? */
static bool lane_wise(LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    switch (op) {
    case LLVMFNeg: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv:
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMICmp: case LLVMFCmp: case LLVMSelect:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPTrunc: case LLVMFPExt:
    case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP:
        return true;
    case LLVMCall: { /* an intrinsic the target has as instructions, on its return type alone */
        LLVMValueRef f = mc_called_function(inst);
        if (!f || !mc_pure_intrinsic(f) || !LLVMIntrinsicIsOverloaded(LLVMGetIntrinsicID(f)))
            return false;
        for (unsigned k = 0, n = (unsigned)LLVMGetNumArgOperands(inst); k < n; k++)
            if (LLVMTypeOf(LLVMGetOperand(inst, k)) != LLVMTypeOf(inst))
                return false;
        return true;
    }
    default:
        return false; /* bitcasts change which element is which lane */
    }
}

static unsigned value_operands(LLVMValueRef inst)
{
    return LLVMIsACallInst(inst) ? (unsigned)LLVMGetNumArgOperands(inst) : (unsigned)LLVMGetNumOperands(inst);
}

/* Do a and b do the same thing, in the same block? */
static bool same_kind(LLVMValueRef a, LLVMValueRef b)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(a);
    if (op != LLVMGetInstructionOpcode(b) || LLVMTypeOf(a) != LLVMTypeOf(b) ||
        LLVMGetInstructionParent(a) != LLVMGetInstructionParent(b) || value_operands(a) != value_operands(b))
        return false;
    if (op == LLVMICmp)
        return LLVMGetICmpPredicate(a) == LLVMGetICmpPredicate(b);
    if (op == LLVMFCmp)
        return LLVMGetFCmpPredicate(a) == LLVMGetFCmpPredicate(b);
    if (op == LLVMCall && mc_called_function(a) != mc_called_function(b))
        return false;
    return op == LLVMPHI || lane_wise(a); /* (a call: an intrinsic; libmvec's are calls of one width) */
}

/* The group of instructions or phis holding v, and v's component; -1. */
static int member_of(const plan *p, LLVMValueRef v, unsigned *c)
{
    if (!LLVMIsAInstruction(v))
        return -1;
    for (unsigned i = 0; i < p->n; i++) {
        const group *g = &p->g[i];
        if (g->kind != GROUP_OP && g->kind != GROUP_PHI)
            continue;
        for (unsigned k = 0; k < g->f; k++)
            if (g->part[k] == v) {
                *c = k;
                return (int)i;
            }
    }
    return -1;
}

static int add_group(plan *p, group_kind kind, LLVMValueRef *part, unsigned f)
{
    if (p->n == MAX_GROUPS)
        return -1;
    if (p->n == p->cap) {
        unsigned cap = p->cap ? 2 * p->cap : 64;
        group *bigger = realloc(p->g, cap * sizeof *bigger);
        if (!bigger)
            return -1;
        p->g = bigger, p->cap = cap;
    }
    group *g = &p->g[p->n];
    *g = (group){.kind = kind, .f = f, .root = p->nroots};
    for (unsigned c = 0; c < f; c++)
        g->part[c] = part[c];
    return (int)p->n++;
}

/* Room for group g's operand groups, set to 0 (filled as they are found). */
static bool reserve_operands(plan *p, unsigned g, unsigned count)
{
    if (p->no + count > p->ocap) {
        unsigned cap = p->ocap ? 2 * p->ocap : 256;
        while (cap < p->no + count)
            cap *= 2;
        unsigned *bigger = realloc(p->operand, cap * sizeof *bigger);
        if (!bigger)
            return false;
        p->operand = bigger, p->ocap = cap;
    }
    p->g[g].first_operand = p->no, p->g[g].operands = count;
    for (unsigned k = 0; k < count; k++)
        p->operand[p->no++] = 0;
    return true;
}

/* Is v a scalar, a splat or a constant: repeated for every component at no cost? */
static bool cheap_to_repeat(LLVMValueRef v)
{
    return !is_vector(v) || LLVMIsAConstant(v) || mc_splat_scalar(v);
}

static int group_of(plan *p, LLVMValueRef *part, unsigned f, unsigned depth);

/* The group of F instructions of one kind, their operands' groups found. */
static int op_group(plan *p, LLVMValueRef *part, unsigned f, unsigned depth)
{
    int g = add_group(p, GROUP_OP, part, f);
    unsigned n = value_operands(part[0]);
    if (g < 0 || n > MAX_OPERANDS || !reserve_operands(p, (unsigned)g, n))
        return -1;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef ops[MAX_COMPONENTS];
        for (unsigned c = 0; c < f; c++)
            ops[c] = LLVMGetOperand(part[c], k);
        int h = group_of(p, ops, f, depth + 1);
        if (h < 0)
            return -1;
        p->operand[p->g[g].first_operand + k] = (unsigned)h;
    }
    return g;
}

/* The group of F phis of one block: its incoming values from each block of
 * the first phi's list. */
static int phi_group(plan *p, LLVMValueRef *part, unsigned f, unsigned depth)
{
    int g = add_group(p, GROUP_PHI, part, f);
    unsigned n = LLVMCountIncoming(part[0]);
    if (g < 0 || !reserve_operands(p, (unsigned)g, n))
        return -1;
    for (unsigned j = 0; j < n; j++) {
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(part[0], j);
        LLVMValueRef in[MAX_COMPONENTS];
        for (unsigned c = 0; c < f; c++) {
            in[c] = NULL;
            for (unsigned i = 0, m = LLVMCountIncoming(part[c]); i < m && !in[c]; i++)
                if (LLVMGetIncomingBlock(part[c], i) == from)
                    in[c] = LLVMGetIncomingValue(part[c], i);
            if (!in[c])
                return -1;
        }
        int h = group_of(p, in, f, depth + 1);
        if (h < 0)
            return -1;
        p->operand[p->g[g].first_operand + j] = (unsigned)h;
    }
    return g;
}

/* The group of part[0..f) (component c's value at c), found or added; -1
 * when they make none. */
static int group_of(plan *p, LLVMValueRef *part, unsigned f, unsigned depth)
{
    if (depth > MAX_CHAIN)
        return -1;
    unsigned c0;
    int g = member_of(p, part[0], &c0);
    if (g >= 0) { /* found again (a phi's value round the loop): the same group, or none */
        if (c0 || p->g[g].f != f)
            return -1;
        for (unsigned c = 1; c < f; c++)
            if (p->g[g].part[c] != part[c])
                return -1;
        return g;
    }
    bool same = true, constant = true;
    for (unsigned c = 0; c < f; c++) {
        unsigned k;
        if (member_of(p, part[c], &k) >= 0)
            return -1; /* one of them in another group */
        same = same && part[c] == part[0];
        constant = constant && LLVMIsAConstant(part[c]) && !LLVMIsAGlobalValue(part[c]);
    }
    if (same)
        return cheap_to_repeat(part[0]) ? add_group(p, GROUP_SAME, part, f) : -1;
    if (constant) {
        if (!is_vector(part[0]))
            return -1;
        for (unsigned c = 0; c < f; c++)
            for (unsigned l = 0, n = lanes_of(part[c]); l < n; l++)
                if (!LLVMGetAggregateElement(part[c], l))
                    return -1;
        return add_group(p, GROUP_CONSTANT, part, f);
    }
    LLVMValueRef w = deinterleaved_source(part, f);
    if (w) {
        g = add_group(p, GROUP_SOURCE, part, f);
        if (g >= 0)
            p->g[g].source = w;
        return g;
    }
    for (unsigned c = 0; c < f; c++) {
        if (!LLVMIsAInstruction(part[c]) || LLVMIsAShuffleVectorInst(part[c]) || !same_kind(part[0], part[c]))
            return -1;
        for (unsigned k = 0; k < c; k++)
            if (part[k] == part[c])
                return -1; /* one instruction in two places (x, x, y, z): a lane of it would be two */
    }
    return LLVMIsAPHINode(part[0]) ? phi_group(p, part, f, depth) : op_group(p, part, f, depth);
}

/* ---- what may go ------------------------------------------------------------------- */

static bool is_root(const plan *p, LLVMValueRef v)
{
    for (unsigned r = 0; r < p->nroots; r++)
        if (!p->root_dropped[r] && p->root[r] == v)
            return true;
    return false;
}

/* Does shuffle v lead only to values interleaved (a tree of shuffles that
 * goes with them)? */
static bool leads_to_roots(const plan *p, LLVMValueRef v, int depth)
{
    if (is_root(p, v))
        return true;
    if (!LLVMIsAShuffleVectorInst(v) || depth > MAX_SHUFFLE_DEPTH || !LLVMGetFirstUse(v))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        if (!leads_to_roots(p, LLVMGetUser(u), depth + 1))
            return false;
    return true;
}

/* Does group g keep its root's plan from being built: one of its
 * instructions used outside the groups and the shuffles to the values
 * interleaved, or a value repeated for every component that is a group's? */
static bool blocks(const plan *p, const group *g)
{
    unsigned c;
    if (g->kind == GROUP_SAME)
        return member_of(p, g->part[0], &c) >= 0;
    if (g->kind != GROUP_OP && g->kind != GROUP_PHI)
        return false;
    for (unsigned k = 0; k < g->f; k++)
        for (LLVMUseRef u = LLVMGetFirstUse(g->part[k]); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (member_of(p, user, &c) < 0 && !leads_to_roots(p, user, 0))
                return true;
        }
    return false;
}

/* The roots of groups that block, dropped; how many. */
static unsigned drop_blocked_roots(plan *p)
{
    unsigned dropped = 0;
    for (unsigned i = 0; i < p->n; i++)
        if (!p->root_dropped[p->g[i].root] && blocks(p, &p->g[i]))
            p->root_dropped[p->g[i].root] = true, dropped++;
    return dropped;
}

/* ---- building ---------------------------------------------------------------------- */

static LLVMTypeRef wide_type(LLVMValueRef part, unsigned f)
{
    return LLVMVectorType(LLVMGetElementType(LLVMTypeOf(part)), f * lanes_of(part));
}

/* Lane F l + c of the result is lane l of component c's constant. */
static LLVMValueRef interleaved_constant(const group *g)
{
    unsigned n = g->f * lanes_of(g->part[0]);
    LLVMValueRef e[MAX_WIDE];
    for (unsigned i = 0; i < n; i++)
        e[i] = LLVMGetAggregateElement(g->part[i % g->f], i / g->f); /* group_of saw each is there */
    return LLVMConstVector(e, n);
}

/* g's value on F L lanes, built at the builder's place where it is a leaf. */
static LLVMValueRef wide_value(plan *p, group *g)
{
    if (g->kind == GROUP_OP || g->kind == GROUP_PHI) {
        MOSAIC_ASSERT(g->wide);
        return g->wide;
    }
    if (g->kind == GROUP_SOURCE)
        return g->source;
    if (g->kind == GROUP_CONSTANT)
        return interleaved_constant(g);
    LLVMValueRef v = g->part[0];
    if (!is_vector(v))
        return v; /* a select's scalar condition */
    unsigned n = g->f * lanes_of(v); /* each lane repeated F times */
    LLVMValueRef mask[MAX_WIDE];
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
    for (unsigned i = 0; i < n; i++)
        mask[i] = LLVMConstInt(i32, i / g->f, 0);
    return LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, n), "");
}

/* The last of g's instructions in their block. */
static LLVMValueRef last_part(const group *g)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(g->part[0]);
    LLVMValueRef last = NULL;
    unsigned seen = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && seen < g->f; i = LLVMGetNextInstruction(i))
        for (unsigned c = 0; c < g->f; c++)
            if (g->part[c] == i) {
                last = i, seen++;
                break;
            }
    return last;
}

/* One instruction on F L lanes for group g (its operand groups built
 * first), just before the last of its instructions: every operand is
 * defined there. */
static void build_op(plan *p, group *g)
{
    if (g->wide)
        return;
    LLVMValueRef ops[MAX_OPERANDS];
    unsigned n = g->operands;
    MOSAIC_ASSERT(n <= MAX_OPERANDS);
    for (unsigned k = 0; k < n; k++) {
        group *h = &p->g[p->operand[g->first_operand + k]];
        if (h->kind == GROUP_OP)
            build_op(p, h);
    }
    LLVMValueRef inst = g->part[0];
    LLVMPositionBuilderBefore(p->b, last_part(g));
    for (unsigned k = 0; k < n; k++)
        ops[k] = wide_value(p, &p->g[p->operand[g->first_operand + k]]);
    LLVMTypeRef t = wide_type(inst, g->f);
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (op == LLVMCall) {
        LLVMValueRef f = LLVMGetIntrinsicDeclaration(p->m, LLVMGetIntrinsicID(mc_called_function(inst)), &t, 1);
        g->wide = LLVMBuildCall2(p->b, LLVMGlobalGetValueType(f), f, ops, n, "");
    } else if (op == LLVMICmp)
        g->wide = LLVMBuildICmp(p->b, LLVMGetICmpPredicate(inst), ops[0], ops[1], "");
    else if (op == LLVMFCmp)
        g->wide = LLVMBuildFCmp(p->b, LLVMGetFCmpPredicate(inst), ops[0], ops[1], "");
    else if (op == LLVMSelect)
        g->wide = LLVMBuildSelect(p->b, ops[0], ops[1], ops[2], "");
    else if (op == LLVMFNeg)
        g->wide = LLVMBuildFNeg(p->b, ops[0], "");
    else if (LLVMIsACastInst(inst))
        g->wide = LLVMBuildCast(p->b, op, ops[0], t, "");
    else
        g->wide = LLVMBuildBinOp(p->b, op, ops[0], ops[1], "");
}

/* Phis first (their incoming values may come round from the groups built
 * after), then the instructions, then the phis' incoming values (a value
 * repeated is built at the end of its block); the values interleaved
 * become the wide ones, and the groups' instructions go. */
static void build(plan *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        group *g = &p->g[i];
        if (g->kind != GROUP_PHI || p->root_dropped[g->root])
            continue;
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(g->part[0]);
        LLVMPositionBuilder(p->b, bb, LLVMGetFirstInstruction(bb));
        g->wide = LLVMBuildPhi(p->b, wide_type(g->part[0], g->f), "");
    }
    for (unsigned i = 0; i < p->n; i++)
        if (p->g[i].kind == GROUP_OP && !p->root_dropped[p->g[i].root])
            build_op(p, &p->g[i]);
    for (unsigned i = 0; i < p->n; i++) {
        group *g = &p->g[i];
        if (g->kind != GROUP_PHI || p->root_dropped[g->root])
            continue;
        for (unsigned j = 0; j < g->operands; j++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(g->part[0], j);
            LLVMPositionBuilderBefore(p->b, LLVMGetBasicBlockTerminator(from));
            LLVMValueRef v = wide_value(p, &p->g[p->operand[g->first_operand + j]]);
            LLVMAddIncoming(g->wide, &v, &from, 1);
        }
    }
    for (unsigned r = 0; r < p->nroots; r++)
        if (!p->root_dropped[r])
            LLVMReplaceAllUsesWith(p->root[r], p->g[p->root_group[r]].wide);
    for (unsigned i = 0; i < p->n; i++) { /* what is left of their uses: each other, dead shuffles */
        group *g = &p->g[i];
        if ((g->kind == GROUP_OP || g->kind == GROUP_PHI) && !p->root_dropped[g->root])
            for (unsigned c = 0; c < g->f; c++)
                LLVMReplaceAllUsesWith(g->part[c], LLVMGetPoison(LLVMTypeOf(g->part[c])));
    }
    for (unsigned i = 0; i < p->n; i++) {
        group *g = &p->g[i];
        if ((g->kind == GROUP_OP || g->kind == GROUP_PHI) && !p->root_dropped[g->root])
            for (unsigned c = 0; c < g->f; c++)
                LLVMInstructionEraseFromParent(g->part[c]);
    }
}

/* ---- the pass ---------------------------------------------------------------------- */

/* The groups of every value interleaved not dropped, searched again from
 * nothing (a dropped value's groups may have been found first). */
static void search(plan *p)
{
    p->n = p->no = 0;
    for (unsigned r = 0; r < p->nroots; r++) {
        if (p->root_dropped[r])
            continue;
        LLVMValueRef part[MAX_COMPONENTS];
        unsigned f = interleaved_parts(p->root[r], part), n = p->n, no = p->no;
        int g = f ? group_of(p, part, f, 0) : -1;
        for (unsigned i = n; i < p->n; i++)
            p->g[i].root = r;
        if (g < 0 || (p->g[g].kind != GROUP_OP && p->g[g].kind != GROUP_PHI)) {
            p->n = n, p->no = no; /* nothing of it stays */
            p->root_dropped[r] = true;
            continue;
        }
        p->root_group[r] = (unsigned)g;
    }
}

unsigned mc_interleaved_arithmetic(LLVMValueRef f)
{
    plan p = {.m = LLVMGetGlobalParent(f)};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && p.nroots < MAX_ROOTS; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef part[MAX_COMPONENTS];
            if (interleaved_parts(i, part))
                p.root[p.nroots++] = i;
        }
    if (!p.nroots)
        return 0;
    search(&p);
    while (drop_blocked_roots(&p))
        search(&p); /* what the dropped roots shared with the others goes too */
    unsigned built = 0;
    for (unsigned i = 0; i < p.n; i++)
        built += !p.root_dropped[p.g[i].root] && (p.g[i].kind == GROUP_OP || p.g[i].kind == GROUP_PHI);
    if (built) {
        p.b = LLVMCreateBuilderInContext(LLVMGetModuleContext(p.m));
        build(&p);
        LLVMDisposeBuilder(p.b);
    }
    free(p.g);
    free(p.operand);
    return built;
}
