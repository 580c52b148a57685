/*
 * Folds of a sub-group's active slots, after optimisation, as one vector
 * reduction (docs/subgroups.md, "Non-uniform functions").
 *
 * A non-uniform reduction (builtins/subgroups.cl, NU_OP) has every work-item
 * fold its sub-group's 8 slots in sub-group local id order, each slot's value
 * or, for a work-item that is not active, the operation's start value:
 *     acc = OP(... OP(OP(s0, s1), s2) ..., s7),  sj = bit j of M ? slot j : K
 * In a masked copy of an active set (regions.c) the vectoriser makes that one
 * vector chain per sub-group whose lanes are all alike: each slot a scalar
 * load (boscc's one-address loads, masked_ops.c) splatted across the lanes, a
 * select of two vectors on a bit of the active mask M (which x86 makes a
 * branch), then OP on vectors.  Here such a chain becomes one vector load of
 * the 8 slots (consecutive 4-byte words), one select on M's bits as a vector
 * condition, and one reduction, splatted:
 *  - fadd and fmul: the ordered llvm.vector.reduce.fadd/fmul (no reassoc
 *    flag: the same operations in the same order, so the same float sum);
 *  - the integer operations (add, mul, and, or, xor, min, max): their
 *    reductions, in whatever order, since the result is the same.
 * Chains of other shapes (scans, whose condition differs per lane; fmin and
 * fmax, whose first active value is taken as it is; 8-byte values, split in
 * two words) are left as they are, as are the uniform copies' chains, which
 * select nothing.  The 8 loads read the same words as before, all of them
 * (nothing between them writes memory), so one load in place of the first
 * reads what each read.
 */
#include <string.h>

#include "base/assert.h"
#include "compiler/compiler.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

#define SLOTS MOSAIC_SUB_GROUP_SIZE /* a sub-group's slots, each work-item's */

/* A chain's operation, and its reduction intrinsic. */
typedef struct {
    LLVMOpcode opcode;     /* a binary operator's, or LLVMCall for an intrinsic */
    const char *intrinsic; /* the called intrinsic's name without its type ("llvm.umax"), or NULL */
    const char *reduction; /* llvm.vector.reduce.* */
    bool ordered;          /* a float operation: the chain must go in slot order */
} fold_op;

static const fold_op fold_ops[] = {
    {LLVMFAdd, NULL, "llvm.vector.reduce.fadd", true},
    {LLVMFMul, NULL, "llvm.vector.reduce.fmul", true},
    {LLVMAdd, NULL, "llvm.vector.reduce.add", false},
    {LLVMMul, NULL, "llvm.vector.reduce.mul", false},
    {LLVMAnd, NULL, "llvm.vector.reduce.and", false},
    {LLVMOr, NULL, "llvm.vector.reduce.or", false},
    {LLVMXor, NULL, "llvm.vector.reduce.xor", false},
    {LLVMCall, "llvm.smin", "llvm.vector.reduce.smin", false},
    {LLVMCall, "llvm.smax", "llvm.vector.reduce.smax", false},
    {LLVMCall, "llvm.umin", "llvm.vector.reduce.umin", false},
    {LLVMCall, "llvm.umax", "llvm.vector.reduce.umax", false},
};

/* The operation inst applies to two vectors, or NULL. */
static const fold_op *op_of(LLVMValueRef inst)
{
    if (!inst || !LLVMIsAInstruction(inst) || LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMVectorTypeKind)
        return NULL;
    LLVMOpcode opc = LLVMGetInstructionOpcode(inst);
    const char *callee = NULL;
    if (opc == LLVMCall) {
        LLVMValueRef f = mc_called_function(inst);
        if (!f || LLVMCountParams(f) != 2)
            return NULL;
        callee = LLVMGetValueName(f);
    }
    for (size_t i = 0; i < sizeof fold_ops / sizeof fold_ops[0]; i++) {
        const fold_op *op = &fold_ops[i];
        if (op->opcode != opc)
            continue;
        if (!op->intrinsic)
            return op;
        size_t n = strlen(op->intrinsic);
        if (!strncmp(callee, op->intrinsic, n) && callee[n] == '.')
            return op;
    }
    return NULL;
}

/* v splatted across a vector of n elements. */
static LLVMValueRef splat(LLVMBuilderRef b, LLVMValueRef v, unsigned n, const char *name)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(v));
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), n), i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef one = LLVMBuildInsertElement(b, LLVMGetPoison(vt), v, LLVMConstInt(i32, 0, 0), "");
    return LLVMBuildShuffleVector(b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(i32, n)), name);
}

/* A vector constant whose elements are all alike. */
static bool constant_splat(LLVMValueRef v)
{
    if (LLVMIsAConstantAggregateZero(v))
        return true;
    if (!LLVMIsAConstantDataVector(v) && !LLVMIsAConstantVector(v))
        return false;
    LLVMValueRef first = LLVMGetAggregateElement(v, 0);
    for (unsigned i = 1; i < LLVMGetVectorSize(LLVMTypeOf(v)); i++)
        if (LLVMGetAggregateElement(v, i) != first)
            return false;
    return true;
}

static LLVMValueRef strip_zext(LLVMValueRef v)
{
    while (LLVMIsAZExtInst(v))
        v = LLVMGetOperand(v, 0);
    return v;
}

/* Are v's bits from the n-th up known zero (a zero extension of n bits or
 * fewer, or an `and` with one)? */
static bool fits_bits(LLVMValueRef v, unsigned n)
{
    if (LLVMIsAZExtInst(v))
        return LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) <= n;
    if (LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAnd)
        return fits_bits(LLVMGetOperand(v, 0), n) || fits_bits(LLVMGetOperand(v, 1), n);
    return false;
}

/* c tests one bit of an integer: *mask (its zero extensions stripped), the
 * bit's number, and whether c is true when the bit is set.  The forms
 * InstCombine leaves: (x & 2^k) ==/!= 0, x > -1 and x < 0 (the top bit),
 * and x < 2^k, x > 2^k - 1 where x has no bit above k. */
static bool bit_test(LLVMValueRef c, LLVMValueRef *mask, unsigned *bit, bool *when_set)
{
    if (!LLVMIsAICmpInst(c))
        return false;
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    LLVMValueRef x = LLVMGetOperand(c, 0), y = LLVMGetOperand(c, 1);
    if (!LLVMIsAConstantInt(y) || LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind)
        return false;
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(x));
    if ((p == LLVMIntEQ || p == LLVMIntNE) && LLVMConstIntGetZExtValue(y) == 0 && LLVMIsABinaryOperator(x) &&
        LLVMGetInstructionOpcode(x) == LLVMAnd && LLVMIsAConstantInt(LLVMGetOperand(x, 1))) {
        unsigned long long k = LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1));
        if (!k || (k & (k - 1)))
            return false;
        *bit = (unsigned)__builtin_ctzll(k);
        *when_set = p == LLVMIntNE;
        *mask = strip_zext(LLVMGetOperand(x, 0));
        return true;
    }
    unsigned long long u = LLVMConstIntGetZExtValue(y);
    if ((p == LLVMIntULT && u && !(u & (u - 1))) || (p == LLVMIntUGT && !(u & (u + 1)) && u + 1)) {
        unsigned k = (unsigned)__builtin_ctzll(p == LLVMIntULT ? u : u + 1);
        if (!fits_bits(x, k + 1))
            return false;
        *bit = k;
        *when_set = p == LLVMIntUGT;
        *mask = strip_zext(x);
        return true;
    }
    long long v = LLVMConstIntGetSExtValue(y);
    if ((p == LLVMIntSGT && v == -1) || (p == LLVMIntSLT && v == 0)) {
        *bit = width - 1;
        *when_set = p == LLVMIntSLT;
        *mask = x;
        return true;
    }
    return false;
}

/* One step's value: select(bit j of M, splat(load of slot j), K) in either
 * arm order, K a splat constant.  What it reads and selects on. */
typedef struct {
    LLVMValueRef select, load, mask, start;
    unsigned bit;
} slot_pick;

static bool slot_pick_of(LLVMValueRef v, LLVMTypeRef elem, slot_pick *s)
{
    if (!LLVMIsASelectInst(v) || LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) != LLVMIntegerTypeKind)
        return false;
    bool when_set;
    if (!bit_test(LLVMGetOperand(v, 0), &s->mask, &s->bit, &when_set))
        return false;
    /* the loaded value where the bit says active */
    LLVMValueRef active = LLVMGetOperand(v, when_set ? 1 : 2), other = LLVMGetOperand(v, when_set ? 2 : 1);
    LLVMValueRef ld = mc_splat_scalar(active);
    if (!ld || !LLVMIsALoadInst(ld) || LLVMGetVolatile(ld) || LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        LLVMTypeOf(ld) != elem || !constant_splat(other))
        return false;
    s->select = v;
    s->load = ld;
    s->start = other;
    return true;
}

/* p as base + a constant number of bytes (a GEP of constant indices over
 * 1- or 4-byte elements, the form of the slots' addresses). */
static LLVMValueRef base_offset(LLVMValueRef p, long long *bytes)
{
    *bytes = 0;
    if (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 && LLVMIsAConstantInt(LLVMGetOperand(p, 1))) {
        LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
        unsigned size = LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) / 8
                        : LLVMGetTypeKind(t) == LLVMFloatTypeKind ? 4
                                                                   : 0;
        if (size == 1 || size == 4) {
            *bytes = LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1)) * size;
            return LLVMGetOperand(p, 0);
        }
    }
    return p;
}

/* Whether inst may write memory (a call whose callee says it only reads does not). */
static bool may_write(LLVMValueRef inst)
{
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMStore: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence:
        return true;
    case LLVMCall: {
        LLVMValueRef f = mc_called_function(inst);
        unsigned kind = LLVMGetEnumAttributeKindForName("memory", 6);
        LLVMAttributeRef a = f ? LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind) : NULL;
        /* LLVM's memory effects: 2 bits per location, the second "may write" */
        return !a || (LLVMGetEnumAttributeValue(a) & 0x2a);
    }
    default:
        return false;
    }
}

/* Is top (an operation of op, not itself an operand of another step) the
 * last step of a fold of SLOTS slot picks?  picks[j] for slot j. */
static bool fold_chain(LLVMValueRef top, const fold_op *op, slot_pick *picks)
{
    LLVMTypeRef elem = LLVMGetElementType(LLVMTypeOf(top));
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(top);
    LLVMValueRef leaves[SLOTS], steps[SLOTS], at = top;
    int nleaves = 0, nsteps = 0;
    bool first_step = false;
    /* down the chain: each step is OP(earlier steps, one pick), the first OP(pick, pick) */
    while (nsteps < SLOTS - 1) {
        steps[nsteps++] = at;
        LLVMValueRef a = LLVMGetOperand(at, 0), b = LLVMGetOperand(at, 1);
        bool a_step = op_of(a) == op && LLVMGetInstructionParent(a) == bb;
        bool b_step = op_of(b) == op && LLVMGetInstructionParent(b) == bb;
        if (a_step && b_step)
            return false;
        if (!a_step && !b_step) { /* the first step: two picks, the earlier slot first in a float chain */
            leaves[nleaves++] = b;
            leaves[nleaves++] = a;
            first_step = true;
            break;
        }
        leaves[nleaves++] = a_step ? b : a;
        at = a_step ? a : b;
    }
    if (!first_step || nleaves != SLOTS) /* a chain of exactly SLOTS picks, none left below */
        return false;
    /* the steps below top are used by their next step only */
    for (int k = 1; k < nsteps; k++)
        if (!LLVMGetFirstUse(steps[k]) || LLVMGetNextUse(LLVMGetFirstUse(steps[k])))
            return false;
    bool seen[SLOTS] = {false};
    for (int k = 0; k < SLOTS; k++) {
        slot_pick s;
        if (!slot_pick_of(leaves[k], elem, &s) || LLVMGetInstructionParent(s.load) != bb || s.bit >= SLOTS ||
            seen[s.bit])
            return false;
        seen[s.bit] = true;
        picks[s.bit] = s;
    }
    if (op->ordered) { /* leaves[] runs from the last slot down; the first step's two either way round */
        for (int k = 0; k < SLOTS - 2; k++)
            if (picks[SLOTS - 1 - k].select != leaves[k])
                return false;
    }
    /* one mask, one start value, slot j at 4 j bytes from slot 0 */
    long long base_bytes;
    LLVMValueRef base = base_offset(LLVMGetOperand(picks[0].load, 0), &base_bytes);
    for (int j = 0; j < SLOTS; j++) {
        long long bytes;
        if (picks[j].mask != picks[0].mask || picks[j].start != picks[0].start ||
            base_offset(LLVMGetOperand(picks[j].load, 0), &bytes) != base || bytes != base_bytes + 4 * j)
            return false;
    }
    return true;
}

/* The first of the picks' loads in their block, or NULL when something
 * between it and the last may write memory. */
static LLVMValueRef first_load(const slot_pick *picks)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(picks[0].load);
    LLVMValueRef first = NULL;
    int left = SLOTS;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && left; i = LLVMGetNextInstruction(i)) {
        bool is_pick = false;
        for (int j = 0; j < SLOTS; j++)
            is_pick |= picks[j].load == i;
        if (is_pick) {
            first = first ? first : i;
            left--;
        } else if (first && may_write(i)) {
            return NULL;
        }
    }
    return left ? NULL : first;
}

/* The active mask's bits as a vector condition: the <SLOTS x i1> it was
 * made from when it is one, else its bits tested lane by lane. */
static LLVMValueRef lane_condition(LLVMBuilderRef b, LLVMValueRef mask)
{
    LLVMValueRef v = LLVMIsABitCastInst(mask) ? LLVMGetOperand(mask, 0) : NULL;
    LLVMTypeRef vt = v ? LLVMTypeOf(v) : NULL;
    LLVMTypeRef et = vt && LLVMGetTypeKind(vt) == LLVMVectorTypeKind ? LLVMGetElementType(vt) : NULL;
    if (et && LLVMGetVectorSize(vt) == SLOTS && LLVMGetTypeKind(et) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(et) == 1)
        return v;
    LLVMTypeRef t = LLVMTypeOf(mask);
    LLVMValueRef bits[SLOTS];
    for (int j = 0; j < SLOTS; j++)
        bits[j] = LLVMConstInt(t, 1ull << j, 0);
    LLVMValueRef set = LLVMBuildAnd(b, splat(b, mask, SLOTS, "active.splat"), LLVMConstVector(bits, SLOTS), "");
    return LLVMBuildICmp(b, LLVMIntNE, set, LLVMConstNull(LLVMTypeOf(set)), "active.lanes");
}

static void rewrite(LLVMModuleRef m, LLVMValueRef top, const fold_op *op, const slot_pick *picks, LLVMValueRef first)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef elem = LLVMGetElementType(LLVMTypeOf(top)), vt = LLVMVectorType(elem, SLOTS);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderBefore(b, first);
    LLVMValueRef slots = LLVMBuildLoad2(b, vt, LLVMGetOperand(picks[0].load, 0), "slots");
    LLVMSetAlignment(slots, LLVMGetAlignment(picks[0].load));
    LLVMPositionBuilderBefore(b, top);
    LLVMValueRef inactive[SLOTS]; /* the start value, as the chain's vectors have it */
    for (int j = 0; j < SLOTS; j++)
        inactive[j] = LLVMGetAggregateElement(picks[0].start, 0);
    LLVMValueRef picked = LLVMBuildSelect(b, lane_condition(b, picks[0].mask), slots, LLVMConstVector(inactive, SLOTS),
                                          "slots.active");
    unsigned id = LLVMLookupIntrinsicID(op->reduction, strlen(op->reduction));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &vt, 1);
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    LLVMValueRef sum;
    if (op->ordered) { /* from the identity, so the first step is the first slot as it is */
        LLVMValueRef start = LLVMConstReal(elem, op->opcode == LLVMFAdd ? -0.0 : 1.0);
        LLVMValueRef args[2] = {start, picked};
        sum = LLVMBuildCall2(b, fty, f, args, 2, "slots.fold");
    } else {
        sum = LLVMBuildCall2(b, fty, f, &picked, 1, "slots.fold");
    }
    LLVMReplaceAllUsesWith(top, splat(b, sum, LLVMGetVectorSize(LLVMTypeOf(top)), "slots.fold.splat"));
    LLVMDisposeBuilder(b);
}

/* v, when an instruction nothing uses that only computes or loads, and
 * then what only it used: the chain the reduction replaced (here, not by a
 * pass over the module, so other kernels' code stays as it was). */
static void erase_dead(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || LLVMGetFirstUse(v) ||
        !(mc_computes_only(v) || (LLVMIsALoadInst(v) && !LLVMGetVolatile(v))))
        return;
    int n = LLVMGetNumOperands(v);
    LLVMValueRef ops[8];
    MOSAIC_ASSERT(n <= 8); /* the chain's instructions: at most a call of two and its callee */
    for (int k = 0; k < n; k++)
        ops[k] = LLVMGetOperand(v, (unsigned)k);
    LLVMInstructionEraseFromParent(v);
    for (int k = 0; k < n; k++)
        erase_dead(ops[k]);
}

unsigned mc_fold_active_slots(LLVMModuleRef m, LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            const fold_op *op = op_of(i);
            slot_pick picks[SLOTS];
            if (!op || !fold_chain(i, op, picks))
                continue;
            LLVMValueRef first = first_load(picks);
            if (!first)
                continue;
            rewrite(m, i, op, picks, first);
            erase_dead(i);
            n++;
        }
    return n;
}

/* ---- masked stores read back -------------------------------------------------------------------
 * A chained masked copy (region_active_sets.c) keeps what the first region
 * keeps for its active work-items (a reduction's sum) with a masked store
 * into Mosaic's storage, and the second region reads it back a few
 * instructions later, in the same pass over the sub-groups.  x86 forwards
 * no masked store to a load: the load waits until the store has reached the
 * cache (nu_half of bench/subgroups: 2.9 ms, against 1.9 with a plain
 * store).  The storage is Mosaic's own, no other thread's while the group
 * runs, and each lane of a vector loop's store is a work-item of the loop
 * with its element (the vectoriser folds no tails here), so such a store
 * may become a load of the vector, a select on the mask and a plain store,
 * which forwards.  Only stores whose element some load reads at the same
 * index (the same loop's): the others gain nothing. */

/* Is inst an access of Mosaic's storage (its alias scope, region_storage.c)? */
static bool in_storage(LLVMValueRef inst)
{
    LLVMValueRef md = LLVMGetMetadata(inst, LLVMGetMDKindID("alias.scope", 11)), scope, ops[3];
    if (!md || LLVMGetMDNodeNumOperands(md) != 1)
        return false;
    LLVMGetMDNodeOperands(md, &scope);
    if (!scope || !LLVMIsAMDNode(scope) || LLVMGetMDNodeNumOperands(scope) != 3)
        return false;
    LLVMGetMDNodeOperands(scope, ops);
    unsigned len = 0;
    const char *name = ops[2] ? LLVMGetMDString(ops[2], &len) : NULL;
    return name && len == 14 && !memcmp(name, "mosaic.storage", 14);
}

/* Does a load read from address p, or from an element after it? */
static bool loaded_from(LLVMValueRef p, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            return true;
        if (depth && LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p && loaded_from(user, depth - 1))
            return true;
    }
    return false;
}

/* Does a load read the element the store at p (base[idx]) writes, through
 * another address of the same base and index? */
static bool read_back(LLVMValueRef p)
{
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
        return false;
    LLVMValueRef base = LLVMGetOperand(p, 0), idx = LLVMGetOperand(p, 1);
    for (LLVMUseRef u = LLVMGetFirstUse(base); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef g = LLVMGetUser(u);
        if (g != p && LLVMIsAGetElementPtrInst(g) && LLVMGetNumOperands(g) == 2 && LLVMGetOperand(g, 0) == base &&
            LLVMGetOperand(g, 1) == idx && LLVMGetGEPSourceElementType(g) == LLVMGetGEPSourceElementType(p) &&
            loaded_from(g, 1))
            return true;
    }
    return false;
}

static void copy_metadata(LLVMValueRef to, LLVMValueRef from)
{
    static const char *const kinds[] = {"alias.scope", "noalias", "llvm.access.group"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        unsigned id = LLVMGetMDKindID(kinds[k], (unsigned)strlen(kinds[k]));
        LLVMValueRef md = LLVMGetMetadata(from, id);
        if (md)
            LLVMSetMetadata(to, id, md);
    }
}

unsigned mc_blend_read_back_stores(LLVMModuleRef m, LLVMValueRef f)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            LLVMValueRef callee = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            if (!callee || strncmp(LLVMGetValueName(callee), "llvm.masked.store.", 18) || !in_storage(i) ||
                !read_back(LLVMGetOperand(i, 1)))
                continue;
            LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1), mask = LLVMGetOperand(i, 3);
            unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2));
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef old = LLVMBuildLoad2(b, LLVMTypeOf(v), p, "kept");
            LLVMSetAlignment(old, align);
            copy_metadata(old, i);
            LLVMValueRef store = LLVMBuildStore(b, LLVMBuildSelect(b, mask, v, old, "kept.blend"), p);
            LLVMSetAlignment(store, align);
            copy_metadata(store, i);
            LLVMInstructionEraseFromParent(i);
            n++;
        }
    LLVMDisposeBuilder(b);
    return n;
}
