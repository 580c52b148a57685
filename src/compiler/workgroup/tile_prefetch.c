/*
 * The next tile prefetched (docs/compiler.md, "The next tile prefetched").
 *
 * A tiled kernel copies a slice of its matrices into __local memory at the
 * top of a loop with barriers, then computes on it: `for (p0 = 0; p0 < k;
 * p0 += 16) { copy A's and B's slices at p0; barrier; multiply; barrier; }`.
 * The slices' lines are a few bytes of many rows far apart (a 64x16 slice of
 * a row-major 2048x2048 A: 64 rows of 64 bytes, 8 KiB apart), which the
 * hardware prefetcher does not follow, so each copy waits for memory: a
 * third of a library-shaped SGEMM's time on one core (the runner's
 * `gemm_direct` at n = 2048, a profile on the 2-core Zen 4 here), while the
 * multiply that follows asks memory for nothing.
 *
 * So in K.row (a barrier kernel's widened rows, wfv.c), each read of global
 * or constant memory inside a loop with barriers whose address moves by
 * rows with one of that loop's counters (a phi of its header that its one
 * latch steps by an amount fixed in the loop: `p0 + 16`, a pointer advanced
 * by a constant; multiplied on its way to the address by a row stride,
 * `(p0 + p) * ldb`) also prefetches the lines it will read in the next
 * iteration.  A read the counter only moves along a row goes on where it
 * ended, which the hardware prefetcher follows: prefetched too, the tiled
 * SGEMMs of the runner whose slices are in the caches ran up to a fifth
 * slower on one thread of the lent Xeon.  The prefetch's address is the
 * read's computed again, just before it, with the counter's next value.
 * The next iteration's copy then finds its lines in the cache, and
 * the current multiply hides their latency.  Reads at constant distances
 * from one another in a block (a float4's components) share their
 * prefetches.  Only instructions that compute are rebuilt (arithmetic,
 * divisions by constants other than 0 and -1, casts, GEPs, selects,
 * comparisons, vector element moves, intrinsics that only compute); an
 * address that comes from memory read in the loop or through another phi
 * that moves with the counter is left alone.  The address is frozen before
 * it is prefetched: the last iteration's next slice lies past the matrix,
 * and a prefetch never faults.
 *
 * Only K.row: a prefetch call would keep LLVM's loop vectoriser from the x
 * loops of regions cut from K.body.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/workgroup.h"

enum {
    LINE = 64,         /* bytes of a cache line */
    MAX_COUNTERS = 8,  /* per loop */
    MAX_NODES = 64,    /* instructions rebuilt for one address */
    MAX_READS = 256,   /* reads looked at per loop */
    NEAR = 256,        /* bytes: reads within this of a block's earlier read share its prefetches */
    SHORT_SPAN = 16,   /* a read of at most this many bytes gets one prefetch (its first byte) */
    NEAR_FACTOR = 64,  /* a counter multiplied by less moves a read along its row (moves_far) */
    NEAR_SHIFT = 6,
};

typedef struct next_tile {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMTargetDataRef td;
    LLVMBuilderRef b;
    const mc_cfg *g;
    int loop;                          /* the loop with barriers */
    bool *in_loop;                     /* [g->n] its blocks */
    int ncounters;
    LLVMValueRef counter[MAX_COUNTERS]; /* header phis */
    LLVMValueRef step[MAX_COUNTERS];    /* what the latch gives each: counter + invariant */
    pmap dep;                          /* value -> 0 independent, 1 moves with a counter, 2 cannot be rebuilt */
    pmap far;                          /* value -> moves_far's answer */
    LLVMValueRef from[MAX_NODES], to[MAX_NODES];
    int built;
} next_tile;

/* One read to prefetch: its address, and the bytes [0, span) from it that
 * it and the reads near it in its block cover. */
typedef struct tile_read {
    LLVMValueRef inst, ptr;
    int64_t span;
    bool lanes; /* ptr is a vector of addresses (a gather): its first and last lanes */
} tile_read;

static bool in_loop(const next_tile *t, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    int b = mc_cfg_block(t->g, LLVMGetInstructionParent(v));
    return b >= 0 && t->in_loop[b];
}

static int counter_index(const next_tile *t, LLVMValueRef v)
{
    for (int i = 0; i < t->ncounters; i++)
        if (t->counter[i] == v)
            return i;
    return -1;
}

/* The header's phis that its one latch steps by what the loop does not
 * change: `phi + s`, `phi - s`, a GEP of phi by such indices. */
static void find_counters(next_tile *t)
{
    const mc_loop *l = &t->g->loops[t->loop];
    t->ncounters = 0;
    if (l->nlatches != 1)
        return;
    LLVMBasicBlockRef latch = t->g->blocks[l->latches[0]];
    for (LLVMValueRef phi = LLVMGetFirstInstruction(t->g->blocks[l->header]); phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi)) {
        LLVMValueRef next = NULL;
        for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
            if (LLVMGetIncomingBlock(phi, i) == latch)
                next = LLVMGetIncomingValue(phi, i);
        if (!next || !LLVMIsAInstruction(next) || t->ncounters == MAX_COUNTERS)
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(next);
        if (op != LLVMAdd && op != LLVMSub && op != LLVMGetElementPtr)
            continue;
        int uses_phi = 0;
        bool invariant = true;
        for (int k = 0, n = LLVMGetNumOperands(next); k < n; k++) {
            LLVMValueRef o = LLVMGetOperand(next, (unsigned)k);
            if (o == phi && (k == 0 || op == LLVMAdd))
                uses_phi++;
            else if (in_loop(t, o))
                invariant = false;
        }
        if (uses_phi == 1 && invariant) {
            t->counter[t->ncounters] = phi;
            t->step[t->ncounters++] = next;
        }
    }
}

/* Can inst be computed again elsewhere from its operands alone? */
static bool rebuildable(LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    switch (op) {
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
        return mc_division_by_safe_constant(inst);
    case LLVMCall:
        return mc_pure_intrinsic(mc_called_function(inst));
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMSelect: case LLVMGetElementPtr:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMFreeze:
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
        return true;
    default:
        return false;
    }
}

/* 0: v is the same in the next iteration; 1: it moves with a counter and
 * can be rebuilt for the next; 2: it moves and cannot (memory the loop
 * reads, a phi that moves, a call). */
static int depends(next_tile *t, LLVMValueRef v, int *nodes)
{
    if (counter_index(t, v) >= 0)
        return 1;
    if (!in_loop(t, v))
        return 0;
    int known = pmap_get(&t->dep, v);
    if (known >= 0)
        return known;
    if (++*nodes > 4 * MAX_NODES)
        return 2;
    pmap_put(&t->dep, v, 0); /* (a cycle through a phi: independent until shown otherwise) */
    int d = 0;
    bool phi = LLVMIsAPHINode(v);
    unsigned n = phi ? LLVMCountIncoming(v)
                 : LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v)
                                      : (unsigned)LLVMGetNumOperands(v);
    for (unsigned k = 0; k < n && d < 2; k++) {
        LLVMValueRef o = phi ? LLVMGetIncomingValue(v, k) : LLVMGetOperand(v, k);
        if (!LLVMValueIsBasicBlock(o)) {
            int od = depends(t, o, nodes);
            d = od > d ? od : d;
        }
    }
    if (d == 1 && (phi || !rebuildable(v)))
        d = 2;
    pmap_put(&t->dep, v, d);
    return d;
}

static bool moves_far_through(next_tile *t, LLVMValueRef v, int depth);

/* Does v, which moves with a counter (depends: 1), move by a row or more
 * with it: does the counter reach v through a multiplication by a value
 * that is not a constant, or by a constant of at least NEAR_FACTOR (a row
 * stride, `(p0 + p) * ldb`)?  A read that only adds the counter (`p0 + p`
 * along a row) goes on, in the next iteration, where this one ends, which
 * the hardware prefetcher follows. */
static bool moves_far(next_tile *t, LLVMValueRef v, int depth)
{
    if (counter_index(t, v) >= 0 || !LLVMIsAInstruction(v) || depth > MAX_NODES)
        return false;
    int known = pmap_get(&t->far, v); /* (each value once: a kernel's sums may share operands) */
    if (known >= 0)
        return known;
    pmap_put(&t->far, v, 0);
    bool far = moves_far_through(t, v, depth);
    pmap_put(&t->far, v, far);
    return far;
}

/* moves_far for v, looking at its operands. */
static bool moves_far_through(next_tile *t, LLVMValueRef v, int depth)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    unsigned n = LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v) : (unsigned)LLVMGetNumOperands(v);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef o = LLVMGetOperand(v, k);
        int nodes = 0;
        if (LLVMValueIsBasicBlock(o) || depends(t, o, &nodes) != 1)
            continue;
        if (op == LLVMMul || op == LLVMShl) {
            LLVMValueRef by = LLVMGetOperand(v, 1 - k);
            LLVMValueRef c = mc_splat_scalar(by);
            if (!c && (LLVMIsAConstantDataVector(by) || LLVMIsAConstantVector(by)))
                c = LLVMGetAggregateElement(by, 0); /* (a constant splat: its lanes alike) */
            c = c ? c : by;
            if (!LLVMIsAConstantInt(c))
                return true;
            unsigned long long f = LLVMConstIntGetZExtValue(c);
            if (op == LLVMShl ? f >= NEAR_SHIFT : f >= NEAR_FACTOR)
                return true;
        }
        if (moves_far(t, o, depth + 1))
            return true;
    }
    return false;
}

/* v for the next iteration, built at the builder's place. */
static LLVMValueRef rebuild(next_tile *t, LLVMValueRef v)
{
    int nodes = 0;
    int c = counter_index(t, v);
    if (c < 0 && depends(t, v, &nodes) == 0)
        return v;
    for (int k = 0; k < t->built; k++)
        if (t->from[k] == v)
            return t->to[k];
    if (t->built == MAX_NODES)
        return NULL;
    /* the counter's next value is its step; anything else a copy on the
     * rebuilt operands (built first, so they come before it) */
    LLVMValueRef ops[8];
    unsigned n = c >= 0 ? 0 : LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v) : (unsigned)LLVMGetNumOperands(v);
    if (n > 8)
        return NULL;
    for (unsigned k = 0; k < n; k++)
        if (!(ops[k] = rebuild(t, LLVMGetOperand(v, k))))
            return NULL;
    LLVMValueRef copy = LLVMInstructionClone(c >= 0 ? t->step[c] : v);
    for (unsigned k = 0; k < n; k++)
        LLVMSetOperand(copy, k, ops[k]);
    LLVMInsertIntoBuilder(t->b, copy);
    if (t->built < MAX_NODES) {
        t->from[t->built] = v;
        t->to[t->built++] = copy;
    }
    return copy;
}

/* The address inst reads and how many bytes from it; NULL for what is not
 * a read of global or constant memory. */
static LLVMValueRef read_address(const next_tile *t, LLVMValueRef inst, int64_t *span, bool *lanes)
{
    LLVMValueRef p = NULL;
    LLVMTypeRef ty = NULL;
    *lanes = false;
    if (LLVMIsALoadInst(inst) && !LLVMGetVolatile(inst) && LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic) {
        p = LLVMGetOperand(inst, 0);
        ty = LLVMTypeOf(inst);
    } else if (mc_calls_intrinsic(inst, "llvm.masked.load.")) {
        p = LLVMGetOperand(inst, 0);
        ty = LLVMTypeOf(inst);
    } else if (mc_calls_intrinsic(inst, "llvm.masked.gather.")) {
        p = LLVMGetOperand(inst, 0);
        ty = LLVMGetElementType(LLVMTypeOf(inst));
        *lanes = true;
    }
    if (!p)
        return NULL;
    LLVMTypeRef pt = LLVMTypeOf(p);
    if (LLVMGetTypeKind(pt) == LLVMVectorTypeKind)
        pt = LLVMGetElementType(pt);
    unsigned as = LLVMGetPointerAddressSpace(pt);
    if (as != 1 && as != 2) /* global, constant */
        return NULL;
    *span = (int64_t)LLVMStoreSizeOfType(t->td, ty);
    return p;
}

/* The innermost loop with barriers around block b, -1 for none. */
static int barrier_loop_of(const mc_cfg *g, const bool *has_barrier, int b)
{
    int l = g->loop_of[b];
    while (l >= 0 && !has_barrier[l])
        l = g->loops[l].parent;
    return l;
}

/* A prefetch of the line at address (an i64) + offset. */
static void prefetch_at(next_tile *t, LLVMValueRef address, int64_t offset)
{
    LLVMValueRef at = LLVMBuildAdd(t->b, address, LLVMConstInt(LLVMInt64TypeInContext(t->c), (uint64_t)offset, 1), "");
    mc_build_prefetch(t->m, t->b, at);
}

/* The lines of bytes [0, span) from address: one prefetch for a short read,
 * else one a line and the last byte's. */
static void prefetch_span(next_tile *t, LLVMValueRef address, int64_t span)
{
    prefetch_at(t, address, 0);
    if (span <= SHORT_SPAN)
        return;
    for (int64_t o = LINE; o < span - 1; o += LINE)
        prefetch_at(t, address, o);
    prefetch_at(t, address, span - 1);
}

/* Read r's lines in the next iteration prefetched just before it; false
 * when its address could not be rebuilt. */
static bool prefetch_next(next_tile *t, const tile_read *r)
{
    LLVMPositionBuilderBefore(t->b, r->inst);
    t->built = 0;
    LLVMValueRef p = rebuild(t, r->ptr);
    if (!p)
        return false;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(t->c);
    if (!r->lanes) {
        prefetch_span(t, LLVMBuildFreeze(t->b, LLVMBuildPtrToInt(t->b, p, i64, ""), ""), r->span);
        return true;
    }
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(p));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(t->c);
    LLVMValueRef first = LLVMBuildExtractElement(t->b, p, LLVMConstInt(i32, 0, 0), "");
    LLVMValueRef last = LLVMBuildExtractElement(t->b, p, LLVMConstInt(i32, n - 1, 0), "");
    prefetch_span(t, LLVMBuildFreeze(t->b, LLVMBuildPtrToInt(t->b, first, i64, ""), ""), r->span);
    prefetch_span(t, LLVMBuildFreeze(t->b, LLVMBuildPtrToInt(t->b, last, i64, ""), ""), r->span);
    return true;
}

/* Adds inst's read to reads[] (n of them, those of earlier blocks first),
 * or widens the span of an earlier read of its block at a constant
 * distance before it. */
static int add_read(next_tile *t, tile_read *reads, int n, int block_start, LLVMValueRef inst, LLVMValueRef p,
                    int64_t span, bool lanes)
{
    for (int i = block_start; i < n; i++) {
        if (reads[i].lanes != lanes)
            continue;
        int64_t off = mc_offset_from(p, reads[i].ptr, t->td);
        if (off >= 0 && off + span <= NEAR) {
            if (off + span > reads[i].span)
                reads[i].span = off + span;
            return n;
        }
    }
    if (n == MAX_READS)
        return n;
    reads[n] = (tile_read){.inst = inst, .ptr = p, .span = span, .lanes = lanes};
    return n + 1;
}

/* The reads of loop t->loop (those of loops with barriers inside it are
 * theirs) whose addresses move with its counters, prefetched. */
static unsigned prefetch_loop(next_tile *t, const bool *has_barrier)
{
    const mc_loop *l = &t->g->loops[t->loop];
    memset(t->in_loop, 0, (size_t)t->g->n * sizeof *t->in_loop);
    for (int i = 0; i < l->nblocks; i++)
        t->in_loop[l->blocks[i]] = true;
    find_counters(t);
    if (!t->ncounters)
        return 0;
    size_t insts = 0; /* the keys t->dep may get */
    for (int i = 0; i < l->nblocks; i++)
        for (LLVMValueRef inst = LLVMGetFirstInstruction(t->g->blocks[l->blocks[i]]); inst;
             inst = LLVMGetNextInstruction(inst))
            insts++;
    tile_read *reads = malloc(MAX_READS * sizeof *reads);
    if (!reads || !pmap_init(&t->dep, insts) || !pmap_init(&t->far, insts)) {
        free(reads);
        pmap_free(&t->dep);
        pmap_free(&t->far);
        return 0;
    }
    int n = 0;
    for (int i = 0; i < l->nblocks; i++) {
        int b = l->blocks[i];
        if (barrier_loop_of(t->g, has_barrier, b) != t->loop)
            continue;
        int block_start = n;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(t->g->blocks[b]); inst;
             inst = LLVMGetNextInstruction(inst)) {
            int64_t span;
            bool lanes;
            LLVMValueRef p = read_address(t, inst, &span, &lanes);
            int nodes = 0;
            if (p && depends(t, p, &nodes) == 1 && moves_far(t, p, 0))
                n = add_read(t, reads, n, block_start, inst, p, span, lanes);
        }
    }
    unsigned done = 0;
    for (int i = 0; i < n; i++)
        done += prefetch_next(t, &reads[i]);
    free(reads);
    pmap_free(&t->dep);
    pmap_free(&t->far);
    return done;
}

unsigned mc_prefetch_next_tiles(LLVMModuleRef m, LLVMValueRef fn, mc_analyses *an)
{
    const mc_cfg *g = mc_analyses_cfg(an, fn);
    if (!g || !g->nloops)
        return 0;
    next_tile t = {.c = LLVMGetModuleContext(m), .m = m, .td = LLVMGetModuleDataLayout(m), .g = g};
    bool *has_barrier = calloc((size_t)g->nloops, sizeof *has_barrier);
    t.in_loop = calloc((size_t)g->n, sizeof *t.in_loop);
    t.b = LLVMCreateBuilderInContext(t.c);
    unsigned done = 0;
    if (!has_barrier || !t.in_loop)
        goto out;
    for (int b = 0; b < g->n; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[b]); i; i = LLVMGetNextInstruction(i))
            if (mc_is_barrier_call(i))
                for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
                    has_barrier[l] = true;
    /* (every read is found on the graph before any is prefetched: a loop's
     * prefetches add instructions to blocks, never blocks) */
    for (int l = 0; l < g->nloops; l++)
        if (has_barrier[l]) {
            t.loop = l;
            done += prefetch_loop(&t, has_barrier);
        }
out:
    LLVMDisposeBuilder(t.b);
    free(t.in_loop);
    free(has_barrier);
    if (done)
        mc_analyses_invalidate(an, fn);
    return done;
}
