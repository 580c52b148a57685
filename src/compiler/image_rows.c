/*
 * Rows of a work-group whose image accesses cannot leave the image.
 *
 * builtins/images.cl computes a clamp-to-edge read's x index as
 * __mosaic_edge_clamp_x(i, n) and the in-image test of a write or a
 * sampler-less read as __mosaic_inside(i, n).  With clamped indices every
 * channel of every work-item is a gather, so the loop vectoriser declines the
 * work-item loop.  Here, for K.wg of an image kernel, each x loop where such
 * an index is the loop's x plus something invariant in the loop gets a second
 * version, run for a row when every such index stays in [0, n) over the whole
 * row: there the clamp is the identity and the test true, addresses are affine
 * in x, and the loop vectorises with consecutive (interleaved) accesses.  The
 * vector loads and stores of pixels in that version become scalar ones and
 * the function's vector values are scalarised, since LLVM's loop vectoriser
 * does not widen instructions of vector type.  Then every remaining marker
 * becomes the clamp and the test (docs/image_builtins.md, "Speed").
 *
 * Only K.wg functions of kernels with specialised image nests are touched; the
 * pre-passes run on them alone (every other function is optnone meanwhile),
 * so other kernels get the code they got before.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler_internal.h"

#define CLAMP_X "__mosaic_edge_clamp_x"
#define INSIDE "__mosaic_inside"
#define FAIL 1000

typedef struct {
    LLVMBasicBlockRef *blocks;
    unsigned n, cap;
} block_set;

static bool in_set(const block_set *s, LLVMBasicBlockRef b)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->blocks[i] == b)
            return true;
    return false;
}

static bool add_block(block_set *s, LLVMBasicBlockRef b)
{
    if (s->n == s->cap) {
        unsigned cap = s->cap ? 2 * s->cap : 16;
        LLVMBasicBlockRef *p = realloc(s->blocks, cap * sizeof *p);
        if (!p)
            return false;
        s->blocks = p;
        s->cap = cap;
    }
    s->blocks[s->n++] = b;
    return true;
}

static bool in_loop(const block_set *s, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && in_set(s, LLVMGetInstructionParent(v));
}

static bool is_call_to(LLVMValueRef i, const char *name)
{
    LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
    return f && !strcmp(LLVMGetValueName(f), name);
}

/* The slope of v in the loop's x (phi x): 0 invariant, 1 x plus invariant... */
static int slope(const block_set *s, LLVMValueRef x, LLVMValueRef v, int depth)
{
    if (v == x)
        return 1;
    if (!in_loop(s, v))
        return 0;
    if (depth > 24 || LLVMIsAPHINode(v))
        return FAIL;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    int a, b;
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
        a = slope(s, x, LLVMGetOperand(v, 0), depth + 1);
        b = slope(s, x, LLVMGetOperand(v, 1), depth + 1);
        return a == FAIL || b == FAIL ? FAIL : op == LLVMAdd ? a + b : a - b;
    case LLVMTrunc:
    case LLVMSExt:
    case LLVMZExt:
        return slope(s, x, LLVMGetOperand(v, 0), depth + 1);
    case LLVMAddrSpaceCast:
    case LLVMBitCast:
        return slope(s, x, LLVMGetOperand(v, 0), depth + 1) == 0 ? 0 : FAIL;
    case LLVMMul:
    case LLVMShl:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMGetElementPtr:
    case LLVMICmp:
    case LLVMSelect:
        for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
            if (slope(s, x, LLVMGetOperand(v, k), depth + 1) != 0)
                return FAIL;
        return 0;
    case LLVMLoad:
        if (!LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "invariant.load", 14)) ||
            LLVMGetVolatile(v))
            return FAIL;
        return slope(s, x, LLVMGetOperand(v, 0), depth + 1) == 0 ? 0 : FAIL;
    default:
        return FAIL;
    }
}

/* v at x = 0, built before the builder's position (v's chain passed slope()). */
static LLVMValueRef at_zero(LLVMBuilderRef b, const block_set *s, LLVMValueRef x, LLVMValueRef v)
{
    if (v == x)
        return LLVMConstInt(LLVMTypeOf(x), 0, 0);
    if (!in_loop(s, v))
        return v;
    LLVMValueRef c = LLVMInstructionClone(v);
    for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(v); k++)
        LLVMSetOperand(c, k, at_zero(b, s, x, LLVMGetOperand(v, k)));
    LLVMInsertIntoBuilder(b, c);
    return c;
}

/* Is 0 <= i(x) < n for every x < nx?  (i has slope 1, n slope 0.)  *start
 * gets i(0), widened to 64 bits. */
static LLVMValueRef row_inside(LLVMBuilderRef b, const block_set *s, LLVMValueRef x, LLVMValueRef i, LLVMValueRef n,
                               LLVMValueRef nx, LLVMValueRef *start)
{
    LLVMTypeRef i64 = LLVMTypeOf(nx);
    LLVMValueRef i0 = *start = LLVMBuildSExt(b, at_zero(b, s, x, i), i64, "");
    LLVMValueRef n0 = LLVMBuildSExt(b, at_zero(b, s, x, n), i64, "");
    LLVMValueRef lo = LLVMBuildICmp(b, LLVMIntSGE, i0, LLVMConstInt(i64, 0, 0), "");
    LLVMValueRef hi = LLVMBuildICmp(b, LLVMIntSLE, LLVMBuildAdd(b, i0, nx, ""), n0, "");
    return LLVMBuildAnd(b, lo, hi, "");
}

typedef struct {
    LLVMValueRef *from, *to;
    unsigned n, cap;
} value_map;

static LLVMValueRef mapped(const value_map *m, LLVMValueRef v)
{
    for (unsigned i = 0; i < m->n; i++)
        if (m->from[i] == v)
            return m->to[i];
    return v;
}

static bool map_add(value_map *m, LLVMValueRef from, LLVMValueRef to)
{
    if (m->n == m->cap) {
        unsigned cap = m->cap ? 2 * m->cap : 64;
        LLVMValueRef *f = realloc(m->from, cap * sizeof *f);
        if (!f)
            return false;
        m->from = f;
        LLVMValueRef *t = realloc(m->to, cap * sizeof *t);
        if (!t)
            return false;
        m->to = t;
        m->cap = cap;
    }
    m->from[m->n] = from;
    m->to[m->n++] = to;
    return true;
}

/* A vector load or store of small integers (an RGBA UNORM_INT8 pixel) as one
 * integer access: the lanes are shifts of it (the target is little-endian),
 * so across work-items the vectoriser loads whole words instead of bytes it
 * must then shuffle apart. */
static void pack_integer_access(LLVMBuilderRef b, LLVMValueRef i, bool load, LLVMTypeRef vt, LLVMValueRef group,
                                unsigned ag)
{
    LLVMContextRef c = LLVMGetTypeContext(vt);
    LLVMTypeRef et = LLVMGetElementType(vt);
    unsigned lanes = LLVMGetVectorSize(vt), bits = LLVMGetIntTypeWidth(et);
    LLVMTypeRef wt = LLVMIntTypeInContext(c, lanes * bits), i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef ptr = LLVMGetOperand(i, load ? 0 : 1), e;
    if (load) {
        LLVMValueRef w = e = LLVMBuildLoad2(b, wt, ptr, ""), v = LLVMGetUndef(vt);
        for (unsigned k = 0; k < lanes; k++) {
            LLVMValueRef lane = LLVMBuildTrunc(b, LLVMBuildLShr(b, w, LLVMConstInt(wt, k * bits, 0), ""), et, "");
            v = LLVMBuildInsertElement(b, v, lane, LLVMConstInt(i32, k, 0), "");
        }
        LLVMReplaceAllUsesWith(i, v);
    } else {
        LLVMValueRef v = LLVMGetOperand(i, 0), w = LLVMConstInt(wt, 0, 0);
        for (unsigned k = 0; k < lanes; k++) {
            LLVMValueRef lane = LLVMBuildZExt(b, LLVMBuildExtractElement(b, v, LLVMConstInt(i32, k, 0), ""), wt, "");
            w = LLVMBuildOr(b, w, LLVMBuildShl(b, lane, LLVMConstInt(wt, k * bits, 0), ""), "");
        }
        e = LLVMBuildStore(b, w, ptr);
    }
    LLVMSetAlignment(e, LLVMGetAlignment(i));
    if (group)
        LLVMSetMetadata(e, ag, group);
}

/* Vector loads and stores of the block become one per element, or one
 * integer access for small integer lanes. */
static void scalarise_memory(LLVMBuilderRef b, LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        bool load = LLVMIsALoadInst(i) != NULL;
        if ((!load && !LLVMIsAStoreInst(i)) || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
            continue;
        LLVMTypeRef vt = LLVMTypeOf(load ? i : LLVMGetOperand(i, 0));
        if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind || LLVMGetVectorSize(vt) > 4)
            continue;
        LLVMTypeRef et = LLVMGetElementType(vt);
        unsigned lanes = LLVMGetVectorSize(vt), align = LLVMGetAlignment(i);
        LLVMContextRef c = LLVMGetTypeContext(vt);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
        LLVMValueRef ptr = LLVMGetOperand(i, load ? 0 : 1);
        unsigned ag = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
        LLVMValueRef group = LLVMGetMetadata(i, ag);
        LLVMPositionBuilderBefore(b, i);
        if (LLVMGetTypeKind(et) == LLVMIntegerTypeKind && lanes * LLVMGetIntTypeWidth(et) <= 64) {
            pack_integer_access(b, i, load, vt, group, ag);
            LLVMInstructionEraseFromParent(i);
            continue;
        }
        LLVMValueRef v = load ? LLVMGetUndef(vt) : LLVMGetOperand(i, 0);
        for (unsigned k = 0; k < lanes; k++) {
            LLVMValueRef idx = LLVMConstInt(i32, k, 0);
            LLVMValueRef p = LLVMBuildInBoundsGEP2(b, et, ptr, &idx, 1, "");
            LLVMValueRef e;
            if (load) {
                e = LLVMBuildLoad2(b, et, p, "");
                v = LLVMBuildInsertElement(b, v, e, idx, "");
            } else {
                e = LLVMBuildStore(b, LLVMBuildExtractElement(b, v, idx, ""), p);
            }
            LLVMSetAlignment(e, k ? 1 : align);
            if (group)
                LLVMSetMetadata(e, ag, group);
        }
        if (load)
            LLVMReplaceAllUsesWith(i, v);
        LLVMInstructionEraseFromParent(i);
    }
}

/* How the copy of a row that stays inside treats marker call i: ROW_INDEX,
 * an index x + invariant whose range the guard checks (the clamp is the
 * identity, the test true); ROW_TEST, an in-image test of an index invariant
 * in the loop (y or z: the guard checks it, the copy takes it as true);
 * NOT_GUARDED otherwise. */
enum { NOT_GUARDED, ROW_INDEX, ROW_TEST };

static int guarded_marker(const block_set *s, LLVMValueRef x, LLVMValueRef i)
{
    bool clamp = is_call_to(i, CLAMP_X);
    if (!clamp && !is_call_to(i, INSIDE))
        return NOT_GUARDED;
    if (slope(s, x, LLVMGetOperand(i, 1), 0) != 0)
        return NOT_GUARDED;
    int di = slope(s, x, LLVMGetOperand(i, 0), 0);
    return di == 1 ? ROW_INDEX : di == 0 && !clamp ? ROW_TEST : NOT_GUARDED;
}

/* The widened index w of a guarded 32-bit index, if v is one (in the copy):
 * sext(i), or what instcombine makes of sext(i) << k when i = trunc(g):
 * ashr exact (shl g, 32), 32 - k.  Returns k, or -1. */
static int widened_index(LLVMValueRef v, LLVMValueRef i)
{
    if (LLVMIsASExtInst(v))
        return LLVMGetOperand(v, 0) == i ? 0 : -1;
    if (!LLVMIsATruncInst(i) || LLVMGetInstructionOpcode(v) != LLVMAShr || !LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return -1;
    LLVMValueRef shl = LLVMGetOperand(v, 0);
    if (LLVMGetInstructionOpcode(shl) != LLVMShl || LLVMGetOperand(shl, 0) != LLVMGetOperand(i, 0) ||
        !LLVMIsAConstantInt(LLVMGetOperand(shl, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(shl, 1)) != 32)
        return -1;
    long long right = LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
    return right >= 0 && right <= 32 ? (int)(32 - right) : -1;
}

/* In the copy (blocks s mapped by map), each widening of a guarded index
 * becomes (i(0) + x) << k, from starts (index -> i(0) in 64 bits). */
static void widen_guarded_indices(LLVMBuilderRef b, const value_map *map, const value_map *starts, const block_set *s,
                                  LLVMValueRef x)
{
    for (unsigned k = 0; k < s->n; k++) {
        LLVMBasicBlockRef nb = LLVMValueAsBasicBlock(mapped(map, LLVMBasicBlockAsValue(s->blocks[k])));
        for (LLVMValueRef v = LLVMGetFirstInstruction(nb), next; v; v = next) {
            next = LLVMGetNextInstruction(v);
            if (LLVMTypeOf(v) != LLVMTypeOf(x))
                continue;
            for (unsigned j = 0; j < starts->n; j++) {
                int shift = widened_index(v, mapped(map, starts->from[j]));
                if (shift < 0)
                    continue;
                LLVMPositionBuilderBefore(b, v);
                LLVMValueRef w = LLVMBuildNSWAdd(b, starts->to[j], x, "");
                if (shift)
                    w = LLVMBuildNSWMul(b, w, LLVMConstInt(LLVMTypeOf(x), 1ull << shift, 0), "");
                LLVMReplaceAllUsesWith(v, w);
                LLVMInstructionEraseFromParent(v);
                break;
            }
        }
    }
}

/* Is br the latch of a work-item x loop?  workgroup.c marks those alone
 * parallel on the kernel's access group (agv). */
static bool is_x_latch(LLVMValueRef br, LLVMValueRef agv)
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

/* Versions the x loop whose latch is latch (branch to header or exit). */
static void version_loop(LLVMBuilderRef b, LLVMValueRef wg, LLVMBasicBlockRef latch)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
    LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
    LLVMBasicBlockRef header = x_phi(s0, latch) ? s0 : s1;
    LLVMBasicBlockRef exit = header == s0 ? s1 : s0;
    LLVMValueRef x = x_phi(header, latch);
    if (!x || LLVMIsAPHINode(LLVMGetFirstInstruction(exit)))
        return;
    LLVMBasicBlockRef pre = LLVMGetIncomingBlock(x, 0) == latch ? LLVMGetIncomingBlock(x, 1) : LLVMGetIncomingBlock(x, 0);
    LLVMValueRef pbr = LLVMGetBasicBlockTerminator(pre);
    if (!pbr || LLVMGetNumSuccessors(pbr) != 1)
        return;

    block_set s = {0};
    value_map map = {0};
    value_map starts = {0}; /* guarded index -> its value at x = 0, 64 bits */
    if (!add_block(&s, header))
        goto out;
    for (unsigned k = 0; k < s.n; k++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(s.blocks[k]);
        for (unsigned j = 0; t && j < LLVMGetNumSuccessors(t); j++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(t, j);
            if (succ != exit && !in_set(&s, succ) && !add_block(&s, succ))
                goto out;
        }
    }
    /* the markers of this loop that are x + invariant; nothing used outside, no outlined call */
    LLVMValueRef guard = NULL;
    LLVMValueRef nx = NULL;
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(wg));
    LLVMPositionBuilderBefore(b, pbr);
    for (unsigned k = 0; k < s.n; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(s.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
                if (!in_loop(&s, LLVMGetUser(u)))
                    goto out;
            LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            if (f && mc_is_outlined_builtin(f))
                goto out;
            int kind = guarded_marker(&s, x, i);
            if (kind == NOT_GUARDED)
                continue;
            LLVMValueRef iv = LLVMGetOperand(i, 0), n = LLVMGetOperand(i, 1);
            if (kind == ROW_TEST) {
                LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, at_zero(b, &s, x, iv), at_zero(b, &s, x, n), "");
                guard = guard ? LLVMBuildAnd(b, guard, in, "") : in;
                continue;
            }
            if (!nx)
                nx = mc_load_local_size(b, LLVMGetParam(wg, 1), 0);
            LLVMValueRef start;
            LLVMValueRef in = row_inside(b, &s, x, iv, n, nx, &start);
            guard = guard ? LLVMBuildAnd(b, guard, in, "") : in;
            if (!map_add(&starts, iv, start))
                goto out;
        }
    if (!guard)
        goto out;

    /* the copy: blocks, then instructions, then operands, phis and successors */
    for (unsigned k = 0; k < s.n; k++) {
        LLVMBasicBlockRef nb = LLVMInsertBasicBlockInContext(c, exit, "x.inside");
        if (!map_add(&map, LLVMBasicBlockAsValue(s.blocks[k]), LLVMBasicBlockAsValue(nb)))
            goto out;
    }
    for (unsigned k = 0; k < s.n; k++) {
        LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(mapped(&map, LLVMBasicBlockAsValue(s.blocks[k]))));
        for (LLVMValueRef i = LLVMGetFirstInstruction(s.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef ni;
            if (LLVMIsAPHINode(i)) {
                ni = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            } else {
                ni = LLVMInstructionClone(i);
                LLVMInsertIntoBuilder(b, ni);
            }
            if (!map_add(&map, i, ni))
                goto out;
        }
    }
    for (unsigned k = 0; k < s.n; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(s.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef ni = mapped(&map, i);
            if (LLVMIsAPHINode(i)) {
                for (unsigned j = 0; j < LLVMCountIncoming(i); j++) {
                    LLVMValueRef v = mapped(&map, LLVMGetIncomingValue(i, j));
                    LLVMBasicBlockRef from = LLVMGetIncomingBlock(i, j);
                    LLVMBasicBlockRef nf = LLVMValueAsBasicBlock(mapped(&map, LLVMBasicBlockAsValue(from)));
                    LLVMAddIncoming(ni, &v, &nf, 1);
                }
                continue;
            }
            if (LLVMIsATerminatorInst(i)) {
                for (unsigned j = 0; j < LLVMGetNumSuccessors(i); j++)
                    LLVMSetSuccessor(ni, j, LLVMValueAsBasicBlock(
                                                mapped(&map, LLVMBasicBlockAsValue(LLVMGetSuccessor(i, j)))));
                if (LLVMIsABranchInst(i) && LLVMIsConditional(i))
                    LLVMSetCondition(ni, mapped(&map, LLVMGetCondition(i)));
                else if (!LLVMIsABranchInst(i))
                    for (unsigned j = 0; j < (unsigned)LLVMGetNumOperands(i); j++)
                        if (!LLVMValueIsBasicBlock(LLVMGetOperand(i, j)))
                            LLVMSetOperand(ni, j, mapped(&map, LLVMGetOperand(i, j)));
                continue;
            }
            unsigned nops = (unsigned)LLVMGetNumOperands(i);
            for (unsigned j = 0; j < nops; j++)
                LLVMSetOperand(ni, j, mapped(&map, LLVMGetOperand(i, j)));
        }
    /* in the copy the x markers with slope 1 are the identity and true */
    for (unsigned k = 0; k < s.n; k++) {
        LLVMBasicBlockRef nb = LLVMValueAsBasicBlock(mapped(&map, LLVMBasicBlockAsValue(s.blocks[k])));
        for (LLVMValueRef i = LLVMGetFirstInstruction(s.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            bool clamp = is_call_to(i, CLAMP_X);
            if (guarded_marker(&s, x, i) == NOT_GUARDED)
                continue;
            LLVMValueRef ni = mapped(&map, i);
            LLVMReplaceAllUsesWith(ni, clamp ? LLVMGetOperand(ni, 0) : LLVMConstInt(LLVMTypeOf(ni), 1, 0));
        }
        scalarise_memory(b, nb);
    }
    /* A guarded index i(x) is i(0) + x without overflow in the copy, so its
     * widening, the pixel address's index, becomes that 64-bit sum: an
     * affine address the vectoriser sees as consecutive, where
     * sext(trunc(x + c)) was not. */
    widen_guarded_indices(b, &map, &starts, &s, mapped(&map, x));
    for (unsigned k = 0; k < s.n; k++) {
        LLVMBasicBlockRef nb = LLVMValueAsBasicBlock(mapped(&map, LLVMBasicBlockAsValue(s.blocks[k])));
        for (LLVMValueRef i = LLVMGetFirstInstruction(nb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if ((is_call_to(i, CLAMP_X) || is_call_to(i, INSIDE)) && !LLVMGetFirstUse(i))
                LLVMInstructionEraseFromParent(i);
        }
    }
    /* the row goes to the copy when every such index stays inside */
    LLVMPositionBuilderBefore(b, pbr);
    LLVMBuildCondBr(b, guard, LLVMValueAsBasicBlock(mapped(&map, LLVMBasicBlockAsValue(header))), header);
    LLVMInstructionEraseFromParent(pbr);
out:
    free(starts.from);
    free(starts.to);
    free(s.blocks);
    free(map.from);
    free(map.to);
}


/* The markers left: clamp(i, 0, n - 1) and (uint)i < (uint)n. */
static void lower_markers(LLVMModuleRef m, LLVMBuilderRef b)
{
    const char *names[2] = {CLAMP_X, INSIDE};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
        if (!f)
            continue;
        LLVMUseRef u = LLVMGetFirstUse(f);
        while (u) {
            LLVMUseRef next = LLVMGetNextUse(u);
            LLVMValueRef call = LLVMGetUser(u);
            if (LLVMIsACallInst(call) && mc_called_function(call) == f) {
                LLVMPositionBuilderBefore(b, call);
                LLVMValueRef i = LLVMGetOperand(call, 0), n = LLVMGetOperand(call, 1), v;
                LLVMTypeRef t = LLVMTypeOf(i);
                if (k == 0) {
                    LLVMValueRef hi = LLVMBuildSub(b, n, LLVMConstInt(t, 1, 0), "");
                    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, i, LLVMConstInt(t, 0, 0), ""), i,
                                        LLVMConstInt(t, 0, 0), "");
                    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, hi, ""), v, hi, "");
                } else {
                    v = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, i, n, ""), LLVMTypeOf(call), "");
                }
                LLVMReplaceAllUsesWith(call, v);
                LLVMInstructionEraseFromParent(call);
            }
            u = next;
        }
        if (!LLVMGetFirstUse(f))
            LLVMDeleteFunction(f);
    }
}

cl_int mc_version_image_rows(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                             bool specialised, mosaic_strbuf *log)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMValueRef *fs = calloc(nk ? nk : 1, sizeof *fs);
    LLVMMetadataRef *groups = calloc(nk ? nk : 1, sizeof *groups);
    size_t n = 0;
    cl_int r = CL_SUCCESS;
    if (!fs || !groups) {
        free(fs);
        free(groups);
        LLVMDisposeBuilder(b);
        return mc_out_of_memory(log);
    }
    if (specialised && (LLVMGetNamedFunction(m, CLAMP_X) || LLVMGetNamedFunction(m, INSIDE)))
        for (size_t k = 0; k < nk; k++)
            if (kbs[k].wg && kbs[k].access_group && kbs[k].specialise_images && !kbs[k].uses_barriers &&
                !kbs[k].spins && mc_has_image_args(&kbs[k])) {
                groups[n] = kbs[k].access_group;
                fs[n++] = kbs[k].wg;
            }
    if (n)
        r = mc_run_passes_on(m, tm, fs, n, "function(sroa,early-cse,simplifycfg,instcombine,scalarizer,instcombine,loop(loop-rotate),loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-peeling;no-profile-peeling>,simplifycfg,instcombine)", log);
    for (size_t k = 0; k < n && r == CL_SUCCESS; k++) {
        LLVMValueRef agv = LLVMMetadataAsValue(LLVMGetModuleContext(m), groups[k]);
        LLVMBasicBlockRef latches[16];
        unsigned nl = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fs[k]); bb && nl < 16; bb = LLVMGetNextBasicBlock(bb))
            if (is_x_latch(LLVMGetBasicBlockTerminator(bb), agv))
                latches[nl++] = bb;
        for (unsigned i = 0; i < nl; i++)
            version_loop(b, fs[k], latches[i]);
    }
    lower_markers(m, b);
    if (n && r == CL_SUCCESS)
        r = mc_run_passes_on(m, tm, fs, n, "function(instcombine)", log);
    free(fs);
    free(groups);
    LLVMDisposeBuilder(b);
    return r;
}
