/*
 * What the group two ahead reads first, prefetched (docs/compiler.md,
 * "Prefetching the groups ahead").
 *
 * A barrier kernel reads its inputs at its start (a tree sum's element per
 * work-item, a scan's block, a tile), then works between barriers without
 * asking memory for more.  Run as regions, a worker asks for a group's
 * lines only when it starts the group, and the hardware prefetcher, which
 * follows the addresses a core asks for, falls idle while the group
 * computes: the core waits for memory at the start of every group.  In a C
 * model of the runner's tree sum on the lent Xeon (groups of 256 floats),
 * prefetching the lines of the group two ahead took 16 threads from 111 to
 * 189 GB/s and one thread from 8.7 to 12.2 GB/s.
 *
 * So K.wg's entry prefetches, for each read of global or constant memory
 * that K.body makes before its first barrier and whose address comes from
 * the kernel's arguments, the context and the local ids only (through
 * arithmetic, divisions by constants, casts, GEPs, selects, intrinsics that
 * only compute and invariant loads of the context; a short loop's counter
 * at its first iteration), and not on the row or the plane, the lines it
 * covers in group (x + AHEAD, y, z): from its address for the first
 * work-item to the one for the last.  Reads of one buffer share one range;
 * a range of more than MAX_LINES lines (the work-items do not read side by
 * side) gets its two ends only.  Not a read whose address depends on the
 * row: each row of a 2D group is a run of addresses that continues in the
 * next group, which the hardware prefetcher follows, and prefetching them
 * made a kernel that copies 16x16 tiles through __local memory 13-34%
 * slower on one thread of a 2-core Xeon (a stencil's tile copy, 1.6 times
 * on the lent one).
 *
 * A worker takes a launch's groups in runs of consecutive x (cpu_device.c),
 * so the group AHEAD on is usually its own next but one; where it is not,
 * or lies past the end of the range, the prefetch is wasted but harmless: a
 * prefetch never faults.  The arithmetic is rebuilt without wrap flags or
 * `inbounds`, and the ends of a range are frozen, so no branch depends on
 * poison.
 */
#include <stddef.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/implicit_barriers.h"
#include "compiler/workgroup/workgroup.h"

enum {
    AHEAD = 2,      /* groups: 1 left the cores waiting, 4 and 8 were no better (the C model) */
    LINE = 64,      /* bytes of a cache line */
    MAX_LINES = 64, /* per buffer: 4 KiB */
    MAX_NODES = 64, /* instructions behind one address */
    MAX_READS = 32, /* reads prefetched per kernel */
    MAX_TRIPS = 8,  /* of a loop whose counter an address may use */
};

/* Bits of what an address depends on: lx, ly, lz. */
enum { ON_X = 1, ON_Y = 2, ON_Z = 4 };

typedef struct ahead {
    LLVMContextRef c;
    LLVMTargetDataRef td;
    LLVMModuleRef m;
    LLVMValueRef body;         /* K.body(kernel params..., ctx, lx, ly, lz) */
    unsigned num_args;         /* the kernel's parameters */
    const LLVMValueRef *args;  /* their values in K.wg */
    LLVMValueRef ctx;          /* K.wg's context */
    LLVMValueRef lid[3];       /* what lx, ly, lz stand for in the address being built */
    LLVMTypeRef i64;
    LLVMValueRef from[MAX_NODES], to[MAX_NODES]; /* K.body's values rebuilt for this address */
    int built;
} ahead;

static unsigned param_number(const ahead *a, LLVMValueRef v)
{
    unsigned n = LLVMCountParams(a->body);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetParam(a->body, i) == v)
            return i;
    return n;
}

static bool invariant_load(const ahead *a, LLVMValueRef v)
{
    return LLVMGetMetadata(v, LLVMGetMDKindIDInContext(a->c, "invariant.load", 14)) != NULL;
}

/* Is v a read of the group's id in x (ctx->group_id[0])? */
static bool group_x(const ahead *a, LLVMValueRef load)
{
    LLVMValueRef ctx = LLVMGetParam(a->body, a->num_args);
    return mc_offset_from(LLVMGetOperand(load, 0), ctx, a->td) == (int64_t)offsetof(mosaic_wg_ctx, group_id);
}

/* The first value of a short loop's counter: a phi that starts at a
 * constant and steps by one, compared with a constant at most MAX_TRIPS
 * steps on (a scan's `for (k = 0; k < 4; k++)` over a work-item's
 * elements, which the optimiser unrolls later); NULL for other phis.  Not a
 * tile loop's counter, whose bound is an argument: prefetching a tiled
 * SGEMM's first tile made it no faster on the lent Xeon. */
static LLVMValueRef short_loop_start(LLVMValueRef phi)
{
    if (LLVMCountIncoming(phi) != 2)
        return NULL;
    for (unsigned s = 0; s < 2; s++) {
        LLVMValueRef start = LLVMGetIncomingValue(phi, s), step = LLVMGetIncomingValue(phi, 1 - s);
        if (!LLVMIsAConstantInt(start) || !LLVMIsAInstruction(step) || LLVMGetInstructionOpcode(step) != LLVMAdd ||
            LLVMGetOperand(step, 0) != phi || !LLVMIsAConstantInt(LLVMGetOperand(step, 1)) ||
            LLVMConstIntGetSExtValue(LLVMGetOperand(step, 1)) != 1)
            continue;
        /* a compare of the counter or the next one with a constant near the start */
        LLVMValueRef counted[2] = {phi, step};
        for (int c = 0; c < 2; c++)
            for (LLVMUseRef u = LLVMGetFirstUse(counted[c]); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef cmp = LLVMGetUser(u);
                if (!LLVMIsAICmpInst(cmp))
                    continue;
                LLVMValueRef bound = LLVMGetOperand(cmp, LLVMGetOperand(cmp, 0) == counted[c] ? 1 : 0);
                long long trips = LLVMIsAConstantInt(bound)
                                      ? LLVMConstIntGetSExtValue(bound) - LLVMConstIntGetSExtValue(start) : -1;
                if (trips > 0 && trips <= MAX_TRIPS)
                    return start;
            }
    }
    return NULL;
}

/* A division by a constant that cannot trap (not 0, and not -1, whose
 * signed quotient of the least number overflows). */
/* What v depends on (ON_X...), or -1 when it cannot be computed ahead:
 * other memory, calls but to intrinsics that only compute, divisions that
 * may trap, phis but a short loop's counter (a stencil's tile copy, whose
 * loop starts at the work-item's index, ran 1.6 times slower on the lent
 * Xeon with its first iteration's rows prefetched), too many
 * instructions. */
static int depends(const ahead *a, LLVMValueRef v, int *nodes)
{
    if (LLVMIsAArgument(v)) {
        unsigned i = param_number(a, v);
        return i <= a->num_args ? 0 : 1 << (i - a->num_args - 1); /* a parameter or ctx; lx, ly, lz */
    }
    if (LLVMIsAConstantInt(v) || LLVMIsAConstantPointerNull(v) || LLVMIsAGlobalValue(v) || LLVMIsAUndefValue(v))
        return 0;
    if (!LLVMIsAInstruction(v) || ++*nodes > MAX_NODES)
        return -1;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMLoad: /* the context's fields and the arguments' slots, read again */
        return invariant_load(a, v) && !LLVMGetVolatile(v) && depends(a, LLVMGetOperand(v, 0), nodes) == 0 ? 0 : -1;
    case LLVMPHI:
        return short_loop_start(v) ? 0 : -1;
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
        if (!mc_division_by_safe_constant(v))
            return -1;
        /* fall through */
    case LLVMCall:
        if (op == LLVMCall && !mc_pure_intrinsic(mc_called_function(v)))
            return -1;
        /* fall through */
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMSelect: case LLVMGetElementPtr:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: {
        int all = 0;
        for (int k = 0, n = op == LLVMCall ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v); k < n; k++) {
            int d = depends(a, LLVMGetOperand(v, (unsigned)k), nodes);
            if (d < 0)
                return -1;
            all |= d;
        }
        return all;
    }
    default:
        return -1;
    }
}

/* v of K.body, computed in K.wg for group x + AHEAD and the local ids a->lid. */
static LLVMValueRef rebuild(ahead *a, LLVMBuilderRef b, LLVMValueRef v)
{
    if (LLVMIsAArgument(v)) {
        unsigned i = param_number(a, v);
        return i < a->num_args ? a->args[i] : i == a->num_args ? a->ctx : a->lid[i - a->num_args - 1];
    }
    if (!LLVMIsAInstruction(v))
        return v;
    for (int k = 0; k < a->built; k++)
        if (a->from[k] == v)
            return a->to[k];
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMPHI)
        return short_loop_start(v); /* the first iteration's */
    LLVMValueRef ops[4] = {NULL, NULL, NULL, NULL}, r;
    int n = op == LLVMCall ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v);
    if (op != LLVMGetElementPtr)
        for (int k = 0; k < n && k < 4; k++)
            if (!(ops[k] = rebuild(a, b, LLVMGetOperand(v, (unsigned)k))))
                return NULL;
    switch (op) {
    case LLVMCall: { /* an intrinsic that only computes (abs, smax...) */
        LLVMValueRef f = mc_called_function(v);
        if (n > 4)
            return NULL;
        r = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, ops, (unsigned)n, "");
        break;
    }
    case LLVMLoad:
        r = LLVMBuildLoad2(b, LLVMTypeOf(v), ops[0], "");
        LLVMSetAlignment(r, LLVMGetAlignment(v));
        if (group_x(a, v))
            r = LLVMBuildAdd(b, r, LLVMConstInt(LLVMTypeOf(r), AHEAD, 0), "group.ahead");
        break;
    case LLVMICmp:
        r = LLVMBuildICmp(b, LLVMGetICmpPredicate(v), ops[0], ops[1], "");
        break;
    case LLVMSelect:
        r = LLVMBuildSelect(b, ops[0], ops[1], ops[2], "");
        break;
    case LLVMGetElementPtr: { /* without inbounds: group x + AHEAD may lie past the buffer */
        LLVMValueRef idx[8];
        if (n - 1 > 8)
            return NULL;
        LLVMValueRef base = rebuild(a, b, LLVMGetOperand(v, 0));
        for (int k = 1; k < n; k++)
            idx[k - 1] = rebuild(a, b, LLVMGetOperand(v, (unsigned)k));
        for (int k = 0; k < n; k++)
            if (!(k ? idx[k - 1] : base))
                return NULL;
        r = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(v), base, idx, (unsigned)n - 1, "");
        break;
    }
    default:
        if (LLVMIsACastInst(v))
            r = ops[0] ? LLVMBuildCast(b, op, ops[0], LLVMTypeOf(v), "") : NULL;
        else /* a binary operator, without nuw, nsw or exact */
            r = ops[0] && ops[1] ? LLVMBuildBinOp(b, op, ops[0], ops[1], "") : NULL;
        break;
    }
    if (r && a->built < MAX_NODES) {
        a->from[a->built] = v;
        a->to[a->built++] = r;
    }
    return r;
}

/* The address `read` makes for group x + AHEAD and work-item (lx, 0, 0),
 * as a frozen integer. */
static LLVMValueRef address_ahead(ahead *a, LLVMBuilderRef b, LLVMValueRef read, LLVMValueRef lx)
{
    a->lid[0] = lx, a->lid[1] = a->lid[2] = LLVMConstInt(a->i64, 0, 0);
    a->built = 0;
    LLVMValueRef p = rebuild(a, b, LLVMGetOperand(read, 0));
    return p ? LLVMBuildFreeze(b, LLVMBuildPtrToInt(b, p, a->i64, ""), "") : NULL;
}

static LLVMValueRef min_max(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool max)
{
    LLVMValueRef less = LLVMBuildICmp(b, LLVMIntULT, x, y, "");
    return max ? LLVMBuildSelect(b, less, y, x, "") : LLVMBuildSelect(b, less, x, y, "");
}

/* Prefetches of the lines from lo to hi, or of the lines of lo and hi
 * only when there are more than MAX_LINES: a loop. */
static void prefetch_lines(ahead *a, LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMValueRef six = LLVMConstInt(a->i64, 6, 0), one = LLVMConstInt(a->i64, 1, 0);
    LLVMValueRef first = LLVMBuildAnd(b, lo, LLVMConstInt(a->i64, ~(unsigned long long)(LINE - 1), 0), "");
    LLVMValueRef lines = LLVMBuildAdd(b, LLVMBuildLShr(b, LLVMBuildSub(b, hi, first, ""), six, ""), one, "lines");
    LLVMValueRef few = LLVMBuildICmp(b, LLVMIntULE, lines, LLVMConstInt(a->i64, MAX_LINES, 0), "");
    /* line i at first + step * i: every line, or the two ends */
    LLVMValueRef step = LLVMBuildSelect(b, few, LLVMConstInt(a->i64, LINE, 0), LLVMBuildSub(b, hi, first, ""), "");
    lines = LLVMBuildSelect(b, few, lines, LLVMConstInt(a->i64, 2, 0), "");
    LLVMBasicBlockRef before = LLVMGetInsertBlock(b);
    LLVMValueRef wg = LLVMGetBasicBlockParent(before);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(a->c, wg, "prefetch.lines");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(a->c, wg, "prefetch.done");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, a->i64, "line");
    LLVMValueRef at = LLVMBuildAdd(b, first, LLVMBuildMul(b, i, step, ""), "");
    mc_build_prefetch(a->m, b, at);
    LLVMValueRef next = LLVMBuildAdd(b, i, one, "");
    LLVMValueRef zero = LLVMConstInt(a->i64, 0, 0);
    LLVMAddIncoming(i, &zero, &before, 1);
    LLVMAddIncoming(i, &next, &loop, 1);
    LLVMValueRef back = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, lines, ""), loop, done);
    /* not for the vectoriser, which would report that it cannot widen the call
     * (MOSAIC_DEBUG's reasons are for the work-group function's own loops) */
    LLVMMetadataRef no[2] = {LLVMMDStringInContext2(a->c, "llvm.loop.isvectorized", 22),
                             LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(a->c), 1, 0))};
    LLVMMetadataRef prop = LLVMMDNodeInContext2(a->c, no, 2);
    LLVMSetMetadata(back, LLVMGetMDKindIDInContext(a->c, "llvm.loop", 9), mc_loop_md_plus(a->c, NULL, &prop, 1));
    LLVMPositionBuilderAtEnd(b, done);
}

/* The range [*lo, *hi] that the reads of one buffer, reads[first] and the
 * later ones into the same buffer not yet taken, cover in group x + AHEAD;
 * marks them taken. */
static void buffer_range(ahead *a, LLVMBuilderRef b, LLVMValueRef *reads, const int *deps, int n, int first,
                         bool *taken, LLVMValueRef last_x, LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef zero = LLVMConstInt(a->i64, 0, 0), root = mc_base_of(LLVMGetOperand(reads[first], 0));
    *lo = *hi = NULL;
    for (int j = first; j < n; j++) {
        if (taken[j] || mc_base_of(LLVMGetOperand(reads[j], 0)) != root)
            continue;
        taken[j] = true;
        LLVMValueRef p0 = address_ahead(a, b, reads[j], zero);
        LLVMValueRef p1 = deps[j] & ON_X ? address_ahead(a, b, reads[j], last_x) : p0;
        if (!p0 || !p1)
            continue;
        LLVMValueRef l = min_max(b, p0, p1, false), h = min_max(b, p0, p1, true);
        *lo = *lo ? min_max(b, *lo, l, false) : l;
        *hi = *hi ? min_max(b, *hi, h, true) : h;
    }
}

/* K.body's reads of global and constant memory before its first barrier
 * whose addresses can be computed ahead; their dependences in deps. */
static int find_reads(ahead *a, LLVMValueRef *reads, int *deps)
{
    unsigned nb = LLVMCountBasicBlocks(a->body);
    LLVMBasicBlockRef *stack = malloc((nb + 1) * sizeof *stack), *seen = malloc((nb + 1) * sizeof *seen);
    int n = 0, sp = 0, ns = 0;
    if (!stack || !seen) {
        free(stack), free(seen);
        return 0;
    }
    stack[sp++] = seen[ns++] = LLVMGetEntryBasicBlock(a->body);
    while (sp && n < MAX_READS) {
        LLVMBasicBlockRef bb = stack[--sp];
        bool stopped = false;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && n < MAX_READS; i = LLVMGetNextInstruction(i)) {
            if (LLVMIsACallInst(i) && mc_ends_region(i)) {
                stopped = true;
                break;
            }
            if (!LLVMIsALoadInst(i) || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
                continue;
            unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(i, 0)));
            int nodes = 0, d;
            if ((as == 1 || as == 2) && (d = depends(a, LLVMGetOperand(i, 0), &nodes)) >= 0 && !(d & (ON_Y | ON_Z)))
                deps[n] = d, reads[n++] = i;
        }
        if (stopped)
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (unsigned s = 0, ns_ = term ? LLVMGetNumSuccessors(term) : 0; s < ns_; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            bool known = false;
            for (int k = 0; k < ns && !known; k++)
                known = seen[k] == succ;
            if (!known && (unsigned)ns < nb)
                stack[sp++] = seen[ns++] = succ;
        }
    }
    free(stack), free(seen);
    return n;
}

unsigned mc_prefetch_groups_ahead(LLVMModuleRef m, const mc_kernel_build *kb, LLVMBuilderRef b,
                                  const LLVMValueRef *args, LLVMValueRef ctx, LLVMValueRef group_width)
{
    if (!kb->body || LLVMCountParams(kb->body) != kb->num_args + 4) /* not K.body(params..., ctx, lx, ly, lz) */
        return 0;
    ahead a = {.c = LLVMGetModuleContext(m), .td = LLVMGetModuleDataLayout(m), .m = m, .body = kb->body,
               .num_args = kb->num_args, .args = args, .ctx = ctx};
    a.i64 = LLVMInt64TypeInContext(a.c);
    LLVMValueRef reads[MAX_READS];
    int deps[MAX_READS];
    int n = find_reads(&a, reads, deps);
    if (!n)
        return 0;
    LLVMValueRef last_x = LLVMBuildSub(b, group_width, LLVMConstInt(a.i64, 1, 0), "x.last");
    bool taken[MAX_READS] = {false};
    for (int i = 0; i < n; i++) {
        LLVMValueRef lo, hi;
        if (!taken[i] && (buffer_range(&a, b, reads, deps, n, i, taken, last_x, &lo, &hi), lo))
            prefetch_lines(&a, b, lo, hi);
    }
    return (unsigned)n;
}
