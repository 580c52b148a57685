/*
 * Stores that stream past the caches.
 *
 * A plain store to a line that is not in the cache first reads the line
 * from memory (read for ownership), then writes it back when it is evicted:
 * STREAM's triad moves 4 bytes for every 3 it counts.  A non-temporal
 * store writes a whole line to memory without reading it.  In a C model on
 * the lent Xeon, 16 threads, a triad went from 82-109 to 105-140 GB/s with
 * them and a copy from 70-96 to 118-137 GB/s (docs/performance.md).  But the
 * line is then not in the cache: a kernel whose output fits in the cache
 * and is read next would lose.  So the choice is the launch's: the device
 * sets ctx->stream_stores for launches larger than its caches, and the code
 * has both versions.
 *
 * After optimisation, in K.wg, each block's vector stores to global memory
 * that together write whole 64-byte lines (a widened row of 16 floats; the
 * loop vectoriser's 256-bit stores of one iteration, as LLVM vectorises for
 * Intel server cores), first..last, become
 *   head:  ...; streams = ctx->stream_stores != 0 && every line aligned
 *          br streams, nt, plain
 *   plain: first..last as they were; br join
 *   nt:    a copy of first..last, those stores non-temporal; br join
 *   join:  phis of what first..last compute and later code uses; the rest
 * A non-temporal store of a vector must be aligned to its size (vmovntps),
 * hence the test of the addresses.  At most MAX_SPAN instructions go under
 * one test; the rest of the block gets its own.
 *
 * Non-temporal stores are weakly ordered: another thread may see a later
 * store first.  The device fences after a group (compiler.h), which covers
 * everything that waits for a group's end; a kernel that synchronises with
 * other work-groups while it runs (atomics, fences, calls that may hold
 * them) gets no streaming version.
 */
#include <stddef.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>

#include "base/assert.h"
#include "compiler/compiler.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

enum {
    LINE = 64,      /* bytes of a cache line, and the widest non-temporal store */
    MAX_SPAN = 128, /* instructions from the first store under one test to the last */
};

/* No instruction that could tell another thread that this one's stores are
 * done: atomics, fences, calls but to intrinsics without atomics, to
 * glibc's vector math (_ZGV...) and to functions of the module whose own
 * bodies have none (the image built-ins' rare paths, `__mosaic_outlined_*`,
 * which only decode and encode pixels), looked into MAX_CALL_DEPTH deep. */
enum { MAX_CALL_DEPTH = 3 };

static bool may_stream(LLVMValueRef f, int depth)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            switch (LLVMGetInstructionOpcode(i)) {
            case LLVMFence: case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
                return false;
            case LLVMLoad: case LLVMStore:
                if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
                    return false;
                break;
            case LLVMCall: {
                LLVMValueRef callee = mc_called_function(i);
                const char *name = callee ? LLVMGetValueName(callee) : "";
                bool intrinsic = callee && LLVMGetIntrinsicID(callee) != 0 && !strstr(name, "atomic");
                bool defined = callee && !intrinsic && !LLVMIsDeclaration(callee) && callee != f;
                if (defined ? depth >= MAX_CALL_DEPTH || !may_stream(callee, depth + 1)
                            : !intrinsic && strncmp(name, "_ZGV", 4) != 0)
                    return false;
                break;
            }
            case LLVMInvoke: case LLVMCallBr:
                return false;
            default:
                break;
            }
        }
    return true;
}

/* A plain store to global memory of a vector of 16, 32, 64 or a multiple
 * of 64 bytes: its size in bytes, else 0. */
static unsigned long long vector_bytes(LLVMTargetDataRef td, LLVMValueRef i)
{
    if (!i || !LLVMIsAStoreInst(i) || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        return 0;
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(i, 1))) != 1)
        return 0;
    unsigned long long bits = LLVMSizeOfTypeInBits(td, t), bytes = bits / 8;
    if (bits % 8 || LLVMStoreSizeOfType(td, t) != bytes)
        return 0;
    return bytes == 16 || bytes == 32 || (bytes && bytes % LINE == 0) ? bytes : 0;
}

/* Can v be computed before `first` (moving what it needs of first..last
 * there)?  Moves it if so. */
static bool hoist(LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef first, LLVMValueRef last, int depth)
{
    if (!mc_in_range(v, first, last))
        return true;
    if (depth > 8 || !mc_computes_only(v))
        return false;
    for (int k = 0; k < LLVMGetNumOperands(v); k++)
        if (!hoist(b, LLVMGetOperand(v, k), first, last, depth + 1))
            return false;
    mc_move_before(b, v, first);
    return true;
}

/* A store's address as base + offset bytes, through element addresses of
 * one constant index. */
typedef struct address {
    LLVMValueRef base;
    long long offset, bytes;
} address;

static address address_of(LLVMTargetDataRef td, LLVMValueRef store)
{
    address a = {LLVMGetOperand(store, 1), 0, (long long)vector_bytes(td, store)};
    while (LLVMIsAGetElementPtrInst(a.base) && LLVMGetNumOperands(a.base) == 2 &&
           LLVMIsAConstantInt(LLVMGetOperand(a.base, 1))) {
        long long step, offset, index = LLVMConstIntGetSExtValue(LLVMGetOperand(a.base, 1));
        /* an offset past what a long long holds (a made-up index) is no
         * address to compare: the GEP itself stays the base */
        if (__builtin_mul_overflow(index, (long long)LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(a.base)),
                                   &step) ||
            __builtin_add_overflow(a.offset, step, &offset))
            break;
        a.offset = offset;
        a.base = LLVMGetOperand(a.base, 0);
    }
    return a;
}

static long long line_of(long long offset) { return offset >= 0 ? offset / LINE : -((-offset + LINE - 1) / LINE); }

/* Do the stores a[0..n) write every byte of the lines that a[k] touches
 * (relative to its base), with a[k] at a multiple of its size?  A
 * non-temporal store of part of a line costs more than a plain one. */
static bool at_its_size(const address *a) { return a->offset % (a->bytes < LINE ? a->bytes : LINE) == 0; }

static bool fills_its_lines(const address *a, unsigned n, unsigned k)
{
    if (!at_its_size(&a[k]))
        return false;
    for (long long line = line_of(a[k].offset); line * LINE < a[k].offset + a[k].bytes; line++) {
        unsigned chunks = 0; /* the line's 16-byte chunks written */
        for (unsigned j = 0; j < n; j++)
            if (a[j].base == a[k].base && at_its_size(&a[j]))
                for (long long at = a[j].offset; at < a[j].offset + a[j].bytes; at += 16)
                    if (line_of(at) == line)
                        chunks |= 1u << (at - line * LINE) / 16;
        if (chunks != 0xf)
            return false;
    }
    return true;
}

typedef struct span {
    LLVMValueRef first, last; /* the instructions under the test */
    LLVMValueRef *stores;     /* those that stream in nt, in order */
    address *where;           /* their addresses */
    unsigned count;
} span;

/* The stores of `first`'s block from `first` on, up to MAX_SPAN
 * instructions, whose addresses can be known before `first` and that fill
 * whole lines together. */
static void find_span(LLVMBuilderRef b, LLVMTargetDataRef td, LLVMValueRef first, span *s)
{
    s->first = s->last = first;
    s->count = 0;
    int seen = 0;
    for (LLVMValueRef i = first; i && !LLVMIsATerminatorInst(i) && seen++ < MAX_SPAN; i = LLVMGetNextInstruction(i))
        if (vector_bytes(td, i)) {
            if (hoist(b, LLVMGetOperand(i, 1), first, i, 0))
                s->where[s->count] = address_of(td, i), s->stores[s->count++] = i;
            s->last = i;
        }
    unsigned kept = 0;
    for (unsigned k = 0; k < s->count; k++)
        if (fills_its_lines(s->where, s->count, k))
            s->stores[kept] = s->stores[k], s->where[kept++] = s->where[k];
    s->count = kept;
}

/* head: ..., first..last, rest  becomes head, plain, nt and join (above);
 * returns join. */
static LLVMBasicBlockRef split(LLVMBuilderRef b, const span *s, LLVMValueRef streaming)
{
    LLVMBasicBlockRef head = LLVMGetInstructionParent(s->first);
    LLVMValueRef f = LLVMGetBasicBlockParent(head);
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);

    /* the test, before first: every base aligned to a line (each once) */
    LLVMPositionBuilderBefore(b, s->first);
    LLVMValueRef bits = NULL;
    for (unsigned k = 0; k < s->count; k++) {
        bool seen = false;
        for (unsigned j = 0; j < k && !seen; j++)
            seen = s->where[j].base == s->where[k].base;
        if (seen)
            continue;
        LLVMValueRef a = LLVMBuildPtrToInt(b, s->where[k].base, i64, "line");
        bits = bits ? LLVMBuildOr(b, bits, a, "lines") : a;
    }
    LLVMValueRef low = LLVMBuildAnd(b, bits, LLVMConstInt(i64, LINE - 1, 0), "");
    LLVMValueRef aligned = LLVMBuildICmp(b, LLVMIntEQ, low, LLVMConstInt(i64, 0, 0), "aligned");
    LLVMValueRef go = LLVMBuildAnd(b, streaming, aligned, "streams");

    LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(c, f, "stores");
    LLVMBasicBlockRef nt = LLVMAppendBasicBlockInContext(c, f, "stores.streaming");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, f, "stores.done");
    LLVMMoveBasicBlockAfter(plain, head);
    LLVMMoveBasicBlockAfter(nt, plain);
    LLVMMoveBasicBlockAfter(join, nt);
    LLVMValueRef after = LLVMGetNextInstruction(s->last);
    mc_move_to_end(b, s->first, after, plain);
    mc_move_to_end(b, after, NULL, join);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMBuildCondBr(b, go, nt, plain);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(join);
    for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++)
        mc_retarget_phis(b, LLVMGetSuccessor(term, k), head, join);

    /* nt: plain's instructions again, operands of plain's own mapped to
     * theirs (find_span keeps first..last within MAX_SPAN instructions) */
    LLVMValueRef orig[MAX_SPAN], copy[MAX_SPAN];
    unsigned md_kind = LLVMGetMDKindIDInContext(c, "nontemporal", 11);
    LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0);
    LLVMValueRef nontemporal = LLVMMDNodeInContext(c, &one, 1);
    size_t at = 0;
    unsigned next_store = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(plain); i; i = LLVMGetNextInstruction(i), at++) {
        MOSAIC_ASSERT(at < MAX_SPAN);
        LLVMValueRef k = LLVMInstructionClone(i);
        for (int op = 0; op < LLVMGetNumOperands(k); op++)
            for (size_t j = 0; j < at; j++)
                if (LLVMGetOperand(k, op) == orig[j]) {
                    LLVMSetOperand(k, (unsigned)op, copy[j]);
                    break;
                }
        if (next_store < s->count && i == s->stores[next_store]) {
            LLVMSetMetadata(k, md_kind, nontemporal);
            long long bytes = s->where[next_store].bytes;
            LLVMSetAlignment(k, (unsigned)(bytes < LINE ? bytes : LINE));
            next_store++;
        }
        LLVMPositionBuilderAtEnd(b, nt);
        LLVMInsertIntoBuilder(b, k);
        mc_copy_name(k, i);
        orig[at] = i, copy[at] = k;
    }
    LLVMPositionBuilderAtEnd(b, plain);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, nt);
    LLVMBuildBr(b, join);

    /* what later code uses of plain's values: a phi of both versions */
    LLVMValueRef first_after = LLVMGetFirstInstruction(join);
    for (size_t j = 0; j < at; j++) {
        bool outside = false;
        for (LLVMUseRef u = LLVMGetFirstUse(orig[j]); u && !outside; u = LLVMGetNextUse(u))
            outside = LLVMGetInstructionParent(LLVMGetUser(u)) != plain;
        if (!outside)
            continue;
        LLVMPositionBuilderBefore(b, first_after);
        LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(orig[j]), "");
        LLVMValueRef values[2] = {orig[j], copy[j]};
        LLVMBasicBlockRef from[2] = {plain, nt};
        LLVMAddIncoming(phi, values, from, 2);
        mc_replace_uses_outside(orig[j], plain, phi);
    }
    return join;
}

/* ctx->stream_stores != 0, read at the top of the entry block. */
static LLVMValueRef streaming_flag(LLVMBuilderRef b, LLVMValueRef wg)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(wg));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
    LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(wg));
    while (LLVMIsAAllocaInst(top) || LLVMIsAPHINode(top))
        top = LLVMGetNextInstruction(top);
    LLVMPositionBuilderBefore(b, top);
    LLVMValueRef off = LLVMConstInt(i64, offsetof(mosaic_wg_ctx, stream_stores), 0);
    LLVMValueRef field = LLVMBuildInBoundsGEP2(b, i8, LLVMGetParam(wg, 1), &off, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(b, i64, field, "stream_stores");
    LLVMSetAlignment(v, 8);
    return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(i64, 0, 0), "streaming");
}

unsigned mc_nontemporal_stores(LLVMValueRef wg)
{
    LLVMModuleRef m = LLVMGetGlobalParent(wg);
    if (strncmp(LLVMGetTarget(m), "x86_64", 6) != 0 || LLVMCountParams(wg) != 2 || !may_stream(wg, 0))
        return 0;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMValueRef stores[MAX_SPAN];
    address where[MAX_SPAN];
    span s = {.stores = stores, .where = where};
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMValueRef streaming = NULL;
    unsigned streamed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef i = LLVMGetFirstInstruction(bb);
        while (i) {
            if (!vector_bytes(td, i)) {
                i = LLVMGetNextInstruction(i);
                continue;
            }
            find_span(b, td, i, &s);
            if (!s.count) { /* nothing there fills its lines: look on after them */
                i = LLVMGetNextInstruction(s.last);
                continue;
            }
            if (!streaming)
                streaming = streaming_flag(b, wg);
            bb = split(b, &s, streaming); /* then on in join */
            i = LLVMGetFirstInstruction(bb);
            streamed += s.count;
        }
    }
    LLVMDisposeBuilder(b);
    MOSAIC_ASSERT(!streamed || !LLVMVerifyFunction(wg, LLVMReturnStatusAction));
    return streamed;
}
