/*
 * Loops whose accumulators do not fit the registers, run in groups.
 *
 * A widened register tile carries one vector per accumulator round its k
 * loop: a BLAS library's direct SGEMM (8x4 floats a work-item, rows of 8
 * work-items) carries 32, and each step also reads four columns of B's tile
 * and a broadcast of A: more than AVX-512's 32 registers.  Code generation
 * then spilled 6 accumulators a step and moved most of the others from
 * register to register (the runner's gemm_direct: 113 instructions a step
 * for 32 multiply-adds; llvm-mca, Cooper Lake: 28 cycles a step against 16
 * for the multiply-adds alone).
 *
 * The accumulators are independent chains: each reads the loop's counter
 * and what the loop loads, and no other chain.  So after optimisation a
 * loop that is one block and carries more vector values of floating point
 * than three quarters of the registers runs as several loops, one after
 * another, each carrying a group of at most half the registers of them and
 * computing again what its chains read (loads, shuffles, broadcasts: cheap
 * beside the spills).  The chains are grouped by what they read of each
 * other (a chain that reads another's value goes with it).  Taken only
 * where that is the same loop run again: its other phis (counters) and its
 * exit test depend on no chain; it makes no calls but pure intrinsics, no
 * atomic or volatile access; it stores only values no chain computes, to
 * private arrays none of its loads reads (the first row's copies of what
 * every row reads, redundant_loads.c), and those stores stay in the first
 * loop only.
 */
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

enum { MAX_BODY = 4096 };

typedef struct split {
    LLVMBasicBlockRef b, exit; /* the loop's block, where it exits to */
    LLVMValueRef *insts;       /* the block's instructions, in order */
    int n;
    pmap idx;                  /* instruction -> its index */
    int *comp;                 /* per instruction: the set of chains it depends on, -1 none */
    int *parent;               /* union-find of those sets, over the chains' phis' indices */
    int *group;                /* per set: its loop (0 the original) */
} split;

static int find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static int join(int *parent, int a, int b)
{
    if (a < 0 || b < 0)
        return a < 0 ? b : a;
    a = find(parent, a), b = find(parent, b);
    if (a != b)
        parent[b] = a;
    return a;
}

static int index_in(const split *s, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == s->b ? pmap_get(&s->idx, v) : -1;
}

static bool fp_vector(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return false;
    LLVMTypeKind k = LLVMGetTypeKind(LLVMGetElementType(t));
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind;
}

static LLVMValueRef underlying(LLVMValueRef p)
{
    while (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
        p = LLVMGetOperand(p, 0);
    return p;
}

/* An alloca whose address reaches only the addresses of loads and stores
 * (through GEPs): nothing else can read it. */
static bool private_array(LLVMValueRef p, int depth)
{
    if (depth == 0 && !LLVMIsAAllocaInst(p))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != p))
            continue;
        if (!LLVMIsAGetElementPtrInst(user) || depth > 4 || !private_array(user, depth + 1))
            return false;
    }
    return true;
}

static bool pure_call(LLVMValueRef i)
{
    static const char *const names[] = {"llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.minnum.", "llvm.maxnum.",
                                        "llvm.sqrt.", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax."};
    return mc_intrinsic_named(mc_called_function(i), names, sizeof names / sizeof *names);
}

/* Numbers the block's instructions and finds which chains each depends on;
 * false where the loop is not one that can run again for each group. */
static bool analyse(split *s)
{
    for (int k = 0; k < s->n; k++)
        s->parent[k] = k, s->comp[k] = -1;
    for (int k = 0; k < s->n; k++) {
        LLVMValueRef i = s->insts[k];
        if (LLVMIsAPHINode(i)) {
            if (LLVMCountIncoming(i) != 2)
                return false;
            s->comp[k] = fp_vector(LLVMTypeOf(i)) ? k : -1;
            continue;
        }
        if ((LLVMIsACallInst(i) && !pure_call(i)) || LLVMIsAFenceInst(i) || LLVMIsAAtomicRMWInst(i) ||
            LLVMIsAAtomicCmpXchgInst(i) || ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && (LLVMGetVolatile(i) ||
            LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)))
            return false;
        int c = -1;
        for (int o = 0, no = LLVMGetNumOperands(i); o < no; o++) {
            int d = index_in(s, LLVMGetOperand(i, o));
            if (d >= 0)
                c = join(s->parent, c, s->comp[d]);
        }
        s->comp[k] = c;
        if ((LLVMIsAStoreInst(i) || LLVMIsATerminatorInst(i)) && c >= 0)
            return false; /* a chain's value stored, or the exit test on one */
    }
    /* a chain that reads another's value (its back edge) goes with it; a
     * counter must not read any */
    for (int k = 0; k < s->n && LLVMIsAPHINode(s->insts[k]); k++) {
        LLVMValueRef p = s->insts[k];
        LLVMValueRef v = LLVMGetIncomingBlock(p, 0) == s->b ? LLVMGetIncomingValue(p, 0) : LLVMGetIncomingValue(p, 1);
        int d = index_in(s, v);
        int c = d >= 0 ? s->comp[d] : -1;
        if (s->comp[k] < 0 && c >= 0)
            return false;
        if (s->comp[k] >= 0)
            join(s->parent, s->comp[k], c);
    }
    for (int k = 0; k < s->n; k++)
        s->comp[k] = s->comp[k] >= 0 ? find(s->parent, s->comp[k]) : -1;
    /* stores only to private arrays no load of the loop reads */
    for (int k = 0; k < s->n; k++) {
        LLVMValueRef i = s->insts[k];
        if (!LLVMIsAStoreInst(i))
            continue;
        LLVMValueRef a = underlying(LLVMGetOperand(i, 1));
        if (!private_array(a, 0))
            return false;
        for (int l = 0; l < s->n; l++)
            if (LLVMIsALoadInst(s->insts[l]) && underlying(LLVMGetOperand(s->insts[l], 0)) == a)
                return false;
    }
    return true;
}

/* Chains into groups of at most `most` phis, in their order; the number of
 * groups. */
static int make_groups(split *s, int most)
{
    int groups = 0, in_group = 0;
    for (int k = 0; k < s->n; k++)
        s->group[k] = -1;
    for (int k = 0; k < s->n && LLVMIsAPHINode(s->insts[k]); k++) {
        int c = s->comp[k];
        if (c < 0 || s->group[c] >= 0)
            continue;
        int size = 0;
        for (int l = 0; l < s->n && LLVMIsAPHINode(s->insts[l]); l++)
            size += s->comp[l] == c;
        if (groups == 0 || in_group + size > most)
            groups++, in_group = 0;
        s->group[c] = groups - 1;
        in_group += size;
    }
    return groups;
}

static int group_of(const split *s, int k) { return s->comp[k] >= 0 ? s->group[s->comp[k]] : -1; }

/* The block copied for group g, after `prev` (its phis start from the
 * original's starting values). */
static LLVMBasicBlockRef copy_loop(split *s, LLVMValueRef *map, LLVMBasicBlockRef prev, LLVMBuilderRef b)
{
    LLVMBasicBlockRef nb = LLVMInsertBasicBlockInContext(LLVMGetTypeContext(LLVMTypeOf(s->insts[0])), s->exit,
                                                         "split");
    LLVMPositionBuilderAtEnd(b, nb);
    for (int k = 0; k < s->n; k++) {
        LLVMValueRef i = s->insts[k];
        if (LLVMIsAPHINode(i)) {
            map[k] = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            continue;
        }
        map[k] = LLVMInstructionClone(i);
        LLVMInsertIntoBuilder(b, map[k]);
        for (int o = 0, no = LLVMGetNumOperands(i); o < no; o++) {
            int d = index_in(s, LLVMGetOperand(i, o));
            if (d >= 0)
                LLVMSetOperand(map[k], (unsigned)o, map[d]);
        }
    }
    for (int k = 0; k < s->n && LLVMIsAPHINode(s->insts[k]); k++) {
        LLVMValueRef p = s->insts[k];
        int back = LLVMGetIncomingBlock(p, 0) == s->b ? 0 : 1;
        LLVMValueRef v = LLVMGetIncomingValue(p, (unsigned)back);
        int d = index_in(s, v);
        LLVMValueRef vals[2] = {LLVMGetIncomingValue(p, (unsigned)(1 - back)), d >= 0 ? map[d] : v};
        LLVMBasicBlockRef from[2] = {prev, nb};
        LLVMAddIncoming(map[k], vals, from, 2);
    }
    /* (the original's exit edge already leads to the first copy) */
    LLVMValueRef term = map[s->n - 1];
    for (unsigned e = 0; e < 2; e++)
        LLVMSetSuccessor(term, e, LLVMGetSuccessor(term, e) == s->b ? nb : s->exit);
    LLVMValueRef prev_term = LLVMGetBasicBlockTerminator(prev);
    for (unsigned e = 0; e < 2; e++)
        if (LLVMGetSuccessor(prev_term, e) == s->exit)
            LLVMSetSuccessor(prev_term, e, nb);
    return nb;
}

/* In loop g's block (copy: its instructions), what belongs to other groups
 * goes, and in the copies the stores (the first loop made them). */
static void prune(split *s, LLVMValueRef *copy, int g)
{
    for (int k = 0; k < s->n; k++)
        if (group_of(s, k) >= 0 && group_of(s, k) != g)
            LLVMReplaceAllUsesWith(copy[k], LLVMGetPoison(LLVMTypeOf(copy[k])));
    for (int k = s->n - 1; k >= 0; k--) {
        LLVMValueRef i = copy[k];
        bool other = group_of(s, k) >= 0 && group_of(s, k) != g;
        bool dead = !LLVMGetFirstUse(i) && !LLVMIsATerminatorInst(i) && !LLVMIsAStoreInst(i);
        if (other || dead || (g > 0 && LLVMIsAStoreInst(i)))
            LLVMInstructionEraseFromParent(i);
    }
}

/* Uses after the loop of a group's value take it from that group's loop;
 * the exit's phis come from the last loop. */
static void redirect_uses(split *s, LLVMValueRef **copies, int groups, LLVMBuilderRef b)
{
    LLVMBasicBlockRef last = LLVMGetInstructionParent(copies[groups - 1][s->n - 1]);
    for (LLVMValueRef p = LLVMGetFirstInstruction(s->exit); p && LLVMIsAPHINode(p);) {
        LLVMValueRef next = LLVMGetNextInstruction(p);
        unsigned n = LLVMCountIncoming(p);
        LLVMValueRef *vals = malloc(n * sizeof *vals);
        LLVMBasicBlockRef *from = malloc(n * sizeof *from);
        if (vals && from) {
            for (unsigned e = 0; e < n; e++) {
                vals[e] = LLVMGetIncomingValue(p, e), from[e] = LLVMGetIncomingBlock(p, e);
                if (from[e] != s->b)
                    continue;
                int d = index_in(s, vals[e]);
                int g = d >= 0 ? group_of(s, d) : -1;
                vals[e] = g > 0 ? copies[g][d] : vals[e];
                from[e] = last;
            }
            LLVMPositionBuilderBefore(b, p);
            LLVMValueRef q = LLVMBuildPhi(b, LLVMTypeOf(p), "");
            LLVMAddIncoming(q, vals, from, n);
            size_t len;
            const char *name = LLVMGetValueName2(p, &len);
            char *kept = len ? strndup(name, len) : NULL;
            LLVMReplaceAllUsesWith(p, q);
            LLVMInstructionEraseFromParent(p);
            if (kept)
                LLVMSetValueName2(q, kept, len);
            free(kept);
        }
        free(vals), free(from);
        p = next;
    }
    for (int k = 0; k < s->n; k++) {
        int g = group_of(s, k);
        if (g <= 0)
            continue;
        LLVMValueRef v = s->insts[k];
        for (LLVMUseRef u = LLVMGetFirstUse(v); u;) {
            LLVMUseRef next = LLVMGetNextUse(u);
            LLVMValueRef user = LLVMGetUser(u);
            if (LLVMGetInstructionParent(user) != s->b)
                for (int o = 0, no = LLVMGetNumOperands(user); o < no; o++)
                    if (LLVMGetOperand(user, (unsigned)o) == v)
                        LLVMSetOperand(user, (unsigned)o, copies[g][k]);
            u = next;
        }
    }
}

static bool split_loop(LLVMBasicBlockRef bb, unsigned registers)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term))
        return false;
    split s = {.b = bb};
    s.exit = LLVMGetSuccessor(term, 0) == bb ? LLVMGetSuccessor(term, 1) : LLVMGetSuccessor(term, 0);
    if (s.exit == bb || (LLVMGetSuccessor(term, 0) != bb && LLVMGetSuccessor(term, 1) != bb))
        return false;
    int chains = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        s.n++, chains += LLVMIsAPHINode(i) && fp_vector(LLVMTypeOf(i));
    if ((unsigned)chains * 4 <= registers * 3 || s.n > MAX_BODY)
        return false;
    bool done = false;
    s.insts = malloc((size_t)s.n * sizeof *s.insts);
    s.comp = malloc((size_t)s.n * sizeof *s.comp);
    s.parent = malloc((size_t)s.n * sizeof *s.parent);
    s.group = malloc((size_t)s.n * sizeof *s.group);
    LLVMValueRef **copies = NULL;
    int groups = 0;
    if (!s.insts || !s.comp || !s.parent || !s.group || !pmap_init(&s.idx, (size_t)s.n))
        goto out;
    int k = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i), k++)
        s.insts[k] = i, pmap_put(&s.idx, i, k);
    if (!analyse(&s) || (groups = make_groups(&s, (int)registers / 2)) < 2)
        goto out;
    copies = calloc((size_t)groups, sizeof *copies);
    for (int g = 0; copies && g < groups; g++)
        if (!(copies[g] = malloc((size_t)s.n * sizeof **copies)))
            goto out;
    if (!copies)
        goto out;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(term)));
    for (k = 0; k < s.n; k++)
        copies[0][k] = s.insts[k];
    LLVMBasicBlockRef prev = bb;
    for (int g = 1; g < groups; g++)
        prev = copy_loop(&s, copies[g], prev, b);
    redirect_uses(&s, copies, groups, b);
    for (int g = 0; g < groups; g++)
        prune(&s, copies[g], g);
    LLVMDisposeBuilder(b);
    done = true;
out:
    for (int g = 0; copies && g < groups; g++)
        free(copies[g]);
    free(copies);
    pmap_free(&s.idx);
    free(s.insts), free(s.comp), free(s.parent), free(s.group);
    return done;
}

unsigned mc_split_accumulator_loops(LLVMValueRef f, unsigned vector_registers)
{
    MOSAIC_ASSERT(vector_registers >= 16);
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        n += split_loop(bb, vector_registers);
    return n;
}
