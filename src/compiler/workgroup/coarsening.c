/*
 * Work-groups of one column run together (docs/compiler.md, "Groups of a
 * column run together").
 *
 * A 16x16 tiled SGEMM's work-group reads, at each step of its k loop, a
 * tile of B that every group of its column (the same group x, any group y)
 * reads at the same step.  Run one after another, the groups of a column
 * each fetch B's column strip again: at n = 1024 its 1024 lines fall into
 * 32 of the L2's 2048 sets and do not stay.  Run F at a time as one deeper
 * work-group, each region runs for all F groups before the next, so the
 * first group's read of a tile brings its lines in and the others find
 * them in the cache.
 *
 * K.fbody(params..., ctx, lx, ly, lz') is a copy of K.body for the groups
 * (x, y + i, z), i < F, of a launch with groups of size (T0, T1, T2): the
 * deep group's work-item (lx, ly, lz') is work-item (lx, ly, lz' mod T2) of
 * group i = lz' / T2.  The runtime passes the F contexts one after another
 * from ctx, their arenas equally spaced; K.fbody reads the first one only:
 * the group's y id is the first's plus i, its arena, scratch and __local
 * arguments lie i arenas further, its size is the constant (T0, T1, T2),
 * and every other field is the same for all F.  So what depends on the
 * group is arithmetic on lz' that regions.c computes again where needed.
 * regions.c cuts K.fbody as it cuts K.body, into K.fused, and
 * mc_fix_local_size builds K.fused for groups of (T0, T1, F T2): its
 * outermost loop, over z, runs a region for each group in turn.  A barrier
 * makes the F groups wait for each other, which OpenCL allows: groups may
 * run in any order, and in step is one.
 *
 * Only when it cannot change what a group does (mc_coarsen_work_groups):
 *  - a barrier kernel cut into regions, without sub-group functions or
 *    loops that may wait for other work-items, whose context is only read
 *    (whole fields at known offsets) or given to barriers: no device-side
 *    enqueue, no function left as a call;
 *  - no branch that decides which barrier comes next depends on the
 *    group's y (its group id, or anything read from memory): the F groups
 *    reach the same barriers, as the work-items of one group must;
 *  - and it pays: some read of __global or __constant memory inside a loop
 *    with a barrier has an address that does not depend on the group's y
 *    and steps by rows as the loop goes round (a product of the loop's
 *    counter and a pitch known only at run time).  A read that goes on
 *    along a row is left to the hardware prefetcher and to the groups of a
 *    row, which one worker runs in turn: a register-tiled SGEMM whose
 *    groups of a column share only such a read of A ran 7-15% slower
 *    together;
 *  - and, where its work-items run loops of their own between barriers (a
 *    k loop over a tile) and carry more values round a loop through
 *    barriers than a set of the L1 cache holds lines, only when its rows
 *    are widened (wfv.c; finalize checks, after widening).  Otherwise each
 *    region walks the work-items one at a time, each reading and writing
 *    those values (a register tile's accumulators) in per-work-item arrays
 *    of F times as many elements: for 16x16 groups F x 256 floats apart,
 *    4 KiB, so all of one work-item's values fall in one set of the L1 and
 *    evict each other while the next work-items read the same lines.  The
 *    runner's gemm_indirect (16 accumulators a work-item), when a private
 *    array kept its rows from being widened, ran 4-6 times slower together.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/assert.h"
#include "base/strbuf.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/coarsening.h"
#include "compiler/workgroup/local_size.h"

#define GROUP_Y_OFFSET (offsetof(mosaic_wg_ctx, group_id) + sizeof(uint64_t))

typedef struct fuse_scan {
    LLVMValueRef body, ctx;
    LLVMTargetDataRef td;
    const mc_cfg *g; /* K.body's graph */
    int nb, ni;      /* g->n blocks; instructions */
    pmap iidx;
    LLVMValueRef *insts;
    int *iblock;
    unsigned char *tainted;  /* [inst]: may differ between groups of one column */
    unsigned char *barrier;  /* [block]: calls __mosaic_barrier */
    bool tile_loops;         /* loops of the work-items' own, and many values round barriers (tile_loops) */
} fuse_scan;

/* Kernels with more blocks are not looked at: the reachability below
 * takes blocks^2 bytes. */
#define MAX_BLOCKS 2048
/* Lines one set of the L1 data cache holds on the x86 cores Mosaic runs on
 * (8 on AMD's Zen and older Intel cores, 12 on the newest Intel ones). */
#define L1_WAYS 8

/* Is every use of v (the context, or an address in it) an address in it,
 * a load through it, or a barrier? */
static bool only_loaded(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == v)
            continue;
        if (mc_is_barrier_call(user)) /* the barrier itself: cut by regions.c */
            continue;
        if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) &&
            LLVMGetOperand(user, 0) == v && only_loaded(user))
            continue;
        return false;
    }
    return true;
}

/* Does this load read the group's y id, or memory (whose contents may differ by group)? */
static bool load_taints(fuse_scan *s, LLVMValueRef load)
{
    LLVMValueRef p = LLVMGetOperand(load, 0);
    int64_t off = mc_offset_from(p, s->ctx, s->td);
    if (off < 0)
        return true; /* memory, or the context at an offset only known as it runs */
    unsigned long long size = LLVMABISizeOfType(s->td, LLVMTypeOf(load));
    return (unsigned long long)off <= GROUP_Y_OFFSET && GROUP_Y_OFFSET < (unsigned long long)off + size;
}

/* The instructions of K.body numbered, in the order of its blocks (the
 * graph's, from the pipeline's analyses). */
static bool scan_init(fuse_scan *s, mc_analyses *an)
{
    if (!(s->g = mc_analyses_cfg(an, s->body)))
        return false;
    s->nb = s->g->n;
    for (int b = 0; b < s->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(s->g->blocks[b]); i; i = LLVMGetNextInstruction(i))
            s->ni++;
    s->insts = calloc((size_t)s->ni + 1, sizeof *s->insts);
    s->iblock = calloc((size_t)s->ni + 1, sizeof *s->iblock);
    s->tainted = calloc((size_t)s->ni + 1, 1);
    s->barrier = calloc((size_t)s->nb, 1);
    if (!s->insts || !s->iblock || !s->tainted || !s->barrier || !pmap_init(&s->iidx, (size_t)s->ni))
        return false;
    int k = 0;
    for (int b = 0; b < s->nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(s->g->blocks[b]); i; i = LLVMGetNextInstruction(i), k++) {
            s->insts[k] = i;
            s->iblock[k] = b;
            pmap_put(&s->iidx, i, k);
            if (mc_is_barrier_call(i))
                s->barrier[b] = 1;
        }
    return true;
}

static void scan_free(fuse_scan *s)
{
    free(s->insts), free(s->iblock), free(s->tainted), free(s->barrier);
    pmap_free(&s->iidx);
}

static int inst_index(const fuse_scan *s, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) ? pmap_get(&s->iidx, v) : -1;
}

static bool marked(const fuse_scan *s, const unsigned char *mark, LLVMValueRef v)
{
    int j = inst_index(s, v);
    return j >= 0 && mark[j];
}

/* mark[] spread from the instructions marked to those that use them, to
 * a fixed point (loops). */
static void spread(const fuse_scan *s, unsigned char *mark)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < s->ni; k++) {
            int n = mark[k] ? 0 : LLVMGetNumOperands(s->insts[k]);
            for (int o = 0; o < n && !mark[k]; o++)
                if (marked(s, mark, LLVMGetOperand(s->insts[k], o)))
                    mark[k] = changed = true;
        }
    }
}

/* What may differ between the groups of a column: the group's y id, what
 * memory holds, what calls return, and what is computed from them. */
static void find_taint(fuse_scan *s)
{
    for (int k = 0; k < s->ni; k++) {
        LLVMValueRef i = s->insts[k];
        s->tainted[k] = LLVMIsALoadInst(i)   ? load_taints(s, i)
                        : LLVMIsACallInst(i) ? !mc_pure_intrinsic(mc_called_function(i))
                                             : false;
    }
    spread(s, s->tainted);
}

/* seen[] := the blocks reachable from block `from`'s successors; with
 * !through_barriers, on paths that enter no block with a barrier. */
static void reach_from(const fuse_scan *s, int from, unsigned char *seen, int *stack, bool through_barriers)
{
    memset(seen, 0, (size_t)s->nb);
    const mc_cfg *g = s->g;
    int sp = 0;
    stack[sp++] = from; /* not marked: seen only where a path comes back to it */
    while (sp) {
        int b = stack[--sp];
        for (int j = 0; j < g->nsucc[b]; j++) {
            int c = g->succ[b][j];
            if (!seen[c] && (through_barriers || !s->barrier[c]))
                seen[c] = 1, stack[sp++] = c;
        }
    }
}

/* own[b] := block b is in a loop a work-item runs on its own inside a
 * region (a cycle that meets no barrier).  row[]: nb bytes of scratch. */
static void find_own_loops(const fuse_scan *s, unsigned char *own, unsigned char *row, int *stack)
{
    for (int b = 0; b < s->nb; b++) {
        reach_from(s, b, row, stack, false);
        own[b] = !s->barrier[b] && row[b];
    }
}

/* reach[b * nb + c]: block c comes after block b (reach_from). */
static bool after(const fuse_scan *s, const unsigned char *reach, int b, int c)
{
    return reach[(size_t)b * (size_t)s->nb + (size_t)c];
}

/* Is block b in a loop through a barrier (a barrier block after it that it comes after)? */
static bool in_barrier_loop(const fuse_scan *s, const unsigned char *reach, int b)
{
    for (int c = 0; c < s->nb; c++)
        if (s->barrier[c] && after(s, reach, b, c) && after(s, reach, c, b))
            return true;
    return false;
}

/* Does a work-item run a loop of its own inside a region while it carries
 * more values round a loop through barriers than a set of the L1 cache
 * holds lines (a register tile's accumulators round a k loop)?  The phis
 * of blocks in a loop through a barrier but in none of its own (own[]). */
static bool tile_loops(const fuse_scan *s, const unsigned char *reach, const unsigned char *own)
{
    bool any_own = false;
    int carried = 0;
    for (int b = 0; b < s->nb; b++)
        any_own |= own[b];
    for (int k = 0; k < s->ni && any_own; k++)
        carried += LLVMIsAPHINode(s->insts[k]) && !own[s->iblock[k]] && in_barrier_loop(s, reach, s->iblock[k]);
    return any_own && carried > L1_WAYS;
}

/* varies[k] := instruction k depends on a phi of a loop through a barrier
 * (a tile loop's counter). */
static void find_varying(const fuse_scan *s, const unsigned char *reach, unsigned char *varies)
{
    for (int k = 0; k < s->ni; k++)
        varies[k] = LLVMIsAPHINode(s->insts[k]) && in_barrier_loop(s, reach, s->iblock[k]);
    spread(s, varies);
}

/* Does address or index v step, with such a loop, by a stride known only
 * as the kernel runs (a row pitch): a product of something that varies
 * and something that neither varies nor is a constant?  A tiled SGEMM's
 * b[(t + ly) * n + col] does; its a[row * n + t + lx] reads on along a row. */
static bool strided(const fuse_scan *s, const unsigned char *varies, LLVMValueRef v, int depth)
{
    if (!marked(s, varies, v) || depth > 12)
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMMul) {
        for (int o = 0; o < 2; o++) {
            LLVMValueRef a = LLVMGetOperand(v, (unsigned)o), m = LLVMGetOperand(v, (unsigned)(1 - o));
            if (marked(s, varies, a) && !LLVMIsAConstant(m) && !marked(s, varies, m))
                return true;
        }
    }
    switch (op) {
    case LLVMMul: case LLVMShl: case LLVMAdd: case LLVMSub: case LLVMOr: case LLVMSExt: case LLVMZExt:
    case LLVMTrunc: case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
        break;
    default:
        return false;
    }
    int n = LLVMGetNumOperands(v);
    for (int o = 0; o < n; o++)
        if (strided(s, varies, LLVMGetOperand(v, (unsigned)o), depth + 1))
            return true;
    return false;
}

static bool reads_shared_memory(LLVMValueRef load)
{
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(load, 0));
    unsigned as = LLVMGetPointerAddressSpace(pt);
    return as == 1 || as == 2; /* __global, __constant */
}

/* A load of the context that context_field (below) can copy: at a known
 * offset, and of a whole field where the field differs by group or is the
 * group's size. */
static bool copyable_context_load(fuse_scan *s, LLVMValueRef load)
{
    int64_t off = mc_offset_from(LLVMGetOperand(load, 0), s->ctx, s->td);
    if (off < 0)
        return false;
    static const size_t special[] = {
        offsetof(mosaic_wg_ctx, enqueued_local_size), offsetof(mosaic_wg_ctx, enqueued_local_size) + 8,
        offsetof(mosaic_wg_ctx, enqueued_local_size) + 16, offsetof(mosaic_wg_ctx, local_size),
        offsetof(mosaic_wg_ctx, local_size) + 8, offsetof(mosaic_wg_ctx, local_size) + 16, GROUP_Y_OFFSET,
        offsetof(mosaic_wg_ctx, local_mem), offsetof(mosaic_wg_ctx, wg_scratch)};
    unsigned long long size = LLVMABISizeOfType(s->td, LLVMTypeOf(load));
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        if ((unsigned long long)off < special[i] + 8 && special[i] < (unsigned long long)off + size &&
            ((unsigned long long)off != special[i] || size != 8))
            return false;
    return true;
}

/* The checks of the file's comment, on K.body; NULL when they pass. */
static const char *check(fuse_scan *s)
{
    if (!only_loaded(s->ctx))
        return "the work-group's context is passed to a call";
    for (int k = 0; k < s->ni; k++)
        if (LLVMIsALoadInst(s->insts[k]) && mc_base_of(LLVMGetOperand(s->insts[k], 0)) == s->ctx &&
            !copyable_context_load(s, s->insts[k]))
            return "it reads the work-group's context in a way this does not follow";
    find_taint(s);
    if (s->nb > MAX_BLOCKS)
        return "it has too many blocks to look at";
    unsigned char *reach = calloc((size_t)s->nb * (size_t)s->nb, 1); /* [b * nb + c]: c after b */
    int *stack = calloc((size_t)s->nb + 1, sizeof *stack); /* (each block goes on it once a walk) */
    if (!reach || !stack) {
        free(reach), free(stack);
        return "out of memory";
    }
    for (int b = 0; b < s->nb; b++)
        reach_from(s, b, reach + (size_t)b * (size_t)s->nb, stack, true);
    unsigned char *varies = calloc((size_t)s->ni + 1, 1), *row = calloc((size_t)s->nb, 1);
    unsigned char *own = calloc((size_t)s->nb, 1);
    if (!varies || !row || !own) {
        free(reach), free(stack), free(varies), free(row), free(own);
        return "out of memory";
    }
    find_own_loops(s, own, row, stack);
    s->tile_loops = tile_loops(s, reach, own);
    free(row), free(own);
    find_varying(s, reach, varies);
    const char *why = NULL;
    bool shared_read = false;
    for (int k = 0; k < s->ni && !why; k++) {
        LLVMValueRef i = s->insts[k];
        int b = s->iblock[k];
        if (LLVMIsATerminatorInst(i) && LLVMGetNumSuccessors(i) > 1) {
            bool to_barrier = false;
            for (int c = 0; c < s->nb && !to_barrier; c++)
                to_barrier = s->barrier[c] && after(s, reach, b, c);
            int n = LLVMGetNumOperands(i);
            for (int o = 0; o < n && to_barrier && !why; o++)
                if (marked(s, s->tainted, LLVMGetOperand(i, o)))
                    why = "which barrier comes next depends on the group's y or on memory";
        }
        if (LLVMIsALoadInst(i) && reads_shared_memory(i) && !shared_read) {
            LLVMValueRef p = LLVMGetOperand(i, 0);
            shared_read = !marked(s, s->tainted, p) && strided(s, varies, p, 0) && in_barrier_loop(s, reach, b);
        }
    }
    free(reach), free(stack), free(varies);
    if (!why && !shared_read)
        why = "no read in a loop with a barrier that steps by rows is the same for the groups of a column";
    return why;
}

unsigned mc_coarsen_work_groups(const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3], mc_analyses *an,
                         const char **why, bool *needs_rows)
{
    *why = NULL;
    *needs_rows = false;
    if (!kb->uses_barriers)
        *why = "it has no barrier";
    else if (kb->uses_sub_groups)
        *why = "it uses sub-groups";
    else if (kb->spins)
        *why = "a loop of it waits for other work-items";
    else if (kb->may_spin) /* groups run together would see each other's writes at other times */
        *why = "it uses atomics, volatile loads of shared memory or pipes";
    else if (size[0] * size[1] * size[2] * MC_FUSED_GROUPS > MOSAIC_MAX_LOCAL_SIZE)
        *why = "its groups are too large";
    if (*why)
        return 0;
    fuse_scan s = {.body = kb->body, .ctx = LLVMGetParam(kb->body, kb->num_args), .td = td};
    *why = scan_init(&s, an) ? check(&s) : "out of memory";
    *needs_rows = s.tile_loops;
    scan_free(&s);
    return *why ? 0 : MC_FUSED_GROUPS;
}

/* ---- K.fbody: K.body for the work-items of F groups of one column ---------------------- */
typedef struct fuse_copy {
    pmap index;          /* K.body's parameters, blocks and instructions -> map[] */
    LLVMValueRef *map;   /* their counterparts in K.fbody */
    unsigned char *replaced; /* [index]: a load of the context that became another value */
    LLVMValueRef ctx;    /* K.body's */
    LLVMTargetDataRef td;
    const size_t *size;  /* the groups' */
    LLVMValueRef group;  /* which of the column's groups the work-item is in, 0 .. F - 1 */
    LLVMValueRef arena;  /* how far that group's arena is from the first's */
} fuse_copy;

static LLVMValueRef copy_of(const fuse_copy *fc, LLVMValueRef v)
{
    int k = pmap_get(&fc->index, v);
    return k >= 0 ? fc->map[k] : v;
}

static LLVMBasicBlockRef copy_of_block(const fuse_copy *fc, LLVMBasicBlockRef bb)
{
    return LLVMValueAsBasicBlock(copy_of(fc, LLVMBasicBlockAsValue(bb)));
}

static LLVMValueRef counterpart(const void *fc, LLVMValueRef v) { return copy_of(fc, v); }

static bool is_debug_intrinsic(LLVMValueRef inst)
{
    LLVMValueRef f = LLVMIsACallInst(inst) ? mc_called_function(inst) : NULL;
    return f && !strncmp(LLVMGetValueName(f), "llvm.dbg.", 9);
}

static LLVMValueRef invariant_load(LLVMBuilderRef b, LLVMTypeRef ty, LLVMValueRef base, size_t offset,
                                   const char *name)
{
    LLVMContextRef c = LLVMGetTypeContext(ty);
    LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), offset, 0);
    LLVMValueRef v = LLVMBuildLoad2(b, ty, LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), base, &at, 1, ""), name);
    LLVMSetAlignment(v, 8);
    /* the contexts are never written while the kernel runs */
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c, "invariant.load", 14),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
    return v;
}

/* The entry of K.fbody, before the copy of K.body's entry: which group of
 * the column the work-item is in (its z in the deep group, over the
 * groups' z size), its z in that group, and how far that group's arena is
 * from the first's (the runtime spaces them equally); __local arguments
 * moved by as much.  Every value here is a shift, mask or product of the
 * work-item's z and of loads of the first context, which regions.c
 * computes again in each region rather than keep per work-item. */
static void map_parameters(fuse_copy *fc, LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef fb)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fb));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    unsigned n = kb->num_args;
    size_t depth = fc->size[2];
    LLVMValueRef ctx = LLVMGetParam(fb, n), deep_z = LLVMGetParam(fb, n + 3), lz;
    if (!(depth & (depth - 1))) {
        unsigned shift = 0;
        while ((size_t)1 << shift < depth)
            shift++;
        fc->group = LLVMBuildLShr(b, deep_z, LLVMConstInt(i64, shift, 0), "column.group");
        lz = LLVMBuildAnd(b, deep_z, LLVMConstInt(i64, depth - 1, 0), "lz");
    } else {
        fc->group = LLVMBuildUDiv(b, deep_z, LLVMConstInt(i64, depth, 0), "column.group");
        lz = LLVMBuildURem(b, deep_z, LLVMConstInt(i64, depth, 0), "lz");
    }
    LLVMValueRef first = invariant_load(b, ptr, ctx, offsetof(mosaic_wg_ctx, local_mem), "local_mem");
    LLVMValueRef second =
        invariant_load(b, ptr, ctx, sizeof(mosaic_wg_ctx) + offsetof(mosaic_wg_ctx, local_mem), "local_mem.next");
    LLVMValueRef stride =
        LLVMBuildSub(b, LLVMBuildPtrToInt(b, second, i64, ""), LLVMBuildPtrToInt(b, first, i64, ""), "arena.size");
    fc->arena = LLVMBuildMul(b, fc->group, stride, "arena.offset");
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef p = LLVMGetParam(fb, i);
        LLVMTypeRef ty = LLVMTypeOf(p);
        if (!kb->byval_types[i] && LLVMGetTypeKind(ty) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(ty) == 3)
            p = LLVMBuildGEP2(b, i8, p, &fc->arena, 1, "local.group");
        fc->map[pmap_get(&fc->index, LLVMGetParam(kb->body, i))] = p;
    }
    for (unsigned i = 0; i < 3; i++) /* ctx (the first group's), lx, ly */
        fc->map[pmap_get(&fc->index, LLVMGetParam(kb->body, n + i))] = LLVMGetParam(fb, n + i);
    fc->map[pmap_get(&fc->index, LLVMGetParam(kb->body, n + 3))] = lz;
}

/* A load of K.body's context at `off`, for the work-item's group: its size
 * a constant (K.fused's own loads of the size are the deep group's); its
 * y id the first group's plus its place in the column; its arena and
 * scratch moved to its own; anything else the first group's (the same for
 * all).  NULL: an ordinary copy will do. */
static LLVMValueRef context_field(fuse_copy *fc, LLVMBuilderRef b, LLVMValueRef load, int64_t off)
{
    LLVMTypeRef ty = LLVMTypeOf(load);
    int d = mc_local_size_field(off);
    if (d >= 0)
        return LLVMConstInt(ty, fc->size[d], 0);
    if (off == (int64_t)GROUP_Y_OFFSET)
        return LLVMBuildAdd(b, invariant_load(b, ty, copy_of(fc, fc->ctx), (size_t)off, "group_y"), fc->group,
                            "group_y.column");
    if (off == (int64_t)offsetof(mosaic_wg_ctx, local_mem) || off == (int64_t)offsetof(mosaic_wg_ctx, wg_scratch)) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetTypeContext(ty));
        return LLVMBuildGEP2(b, i8, invariant_load(b, ty, copy_of(fc, fc->ctx), (size_t)off, ""), &fc->arena, 1,
                             "arena.group");
    }
    return NULL;
}

/* Blocks, then instructions (the entry's after map_parameters' code), then
 * operands, phis and successors. */
static void copy_body(fuse_copy *fc, LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef fb)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fb));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb))
        fc->map[pmap_get(&fc->index, LLVMBasicBlockAsValue(bb))] =
            LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(c, fb, ""));
    LLVMPositionBuilderAtEnd(b, copy_of_block(fc, LLVMGetFirstBasicBlock(kb->body)));
    map_parameters(fc, b, kb, fb);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMPositionBuilderAtEnd(b, copy_of_block(fc, bb));
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (is_debug_intrinsic(i))
                continue; /* its metadata names K.body's values */
            int k = pmap_get(&fc->index, i);
            int64_t off = LLVMIsALoadInst(i) ? mc_offset_from(LLVMGetOperand(i, 0), fc->ctx, fc->td) : -1;
            LLVMValueRef ni = off >= 0 ? context_field(fc, b, i, off) : NULL;
            if (ni) {
                fc->replaced[k] = 1;
            } else if (LLVMIsAPHINode(i)) {
                ni = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            } else {
                ni = LLVMInstructionClone(i);
                LLVMInsertIntoBuilder(b, ni);
            }
            fc->map[k] = ni;
        }
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (is_debug_intrinsic(i) || fc->replaced[pmap_get(&fc->index, i)])
                continue;
            mc_remap_copy(i, copy_of(fc, i), counterpart, fc);
        }
}

LLVMValueRef mc_fused_body(LLVMModuleRef m, const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3])
{
    MOSAIC_ASSERT(size[0] && size[1] && size[2] && kb->body);
    size_t count = (size_t)kb->num_args + 4;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        count++;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            count++;
    }
    fuse_copy fc = {.map = calloc(count, sizeof *fc.map), .replaced = calloc(count, 1),
                    .ctx = LLVMGetParam(kb->body, kb->num_args), .td = td, .size = size};
    if (!fc.map || !fc.replaced || !pmap_init(&fc.index, count)) {
        free(fc.map), free(fc.replaced);
        pmap_free(&fc.index);
        return NULL;
    }
    int k = 0;
    for (unsigned p = 0; p < kb->num_args + 4; p++)
        pmap_put(&fc.index, LLVMGetParam(kb->body, p), k++);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        pmap_put(&fc.index, LLVMBasicBlockAsValue(bb), k++);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            pmap_put(&fc.index, i, k++);
    }
    size_t len;
    const char *name = LLVMGetValueName2(kb->body, &len);
    mosaic_strbuf fname = {0};
    mosaic_strbuf_printf(&fname, "%.*s.fused", (int)len, name);
    LLVMValueRef fb = fname.oom ? NULL : LLVMAddFunction(m, fname.data, LLVMGlobalGetValueType(kb->body));
    mosaic_strbuf_free(&fname);
    if (fb) {
        LLVMSetLinkage(fb, LLVMInternalLinkage);
        unsigned na = LLVMGetAttributeCountAtIndex(kb->body, LLVMAttributeFunctionIndex);
        LLVMAttributeRef *attrs = calloc(na ? na : 1, sizeof *attrs);
        if (attrs) {
            LLVMGetAttributesAtIndex(kb->body, LLVMAttributeFunctionIndex, attrs);
            for (unsigned i = 0; i < na; i++)
                LLVMAddAttributeAtIndex(fb, LLVMAttributeFunctionIndex, attrs[i]);
        }
        free(attrs);
        for (unsigned p = 0; p < kb->num_args + 4; p++) {
            size_t pl;
            const char *pn = LLVMGetValueName2(LLVMGetParam(kb->body, p), &pl);
            LLVMSetValueName2(LLVMGetParam(fb, p), pn, pl);
        }
        LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
        copy_body(&fc, b, kb, fb);
        LLVMDisposeBuilder(b);
    }
    free(fc.map), free(fc.replaced);
    pmap_free(&fc.index);
    return fb;
}
