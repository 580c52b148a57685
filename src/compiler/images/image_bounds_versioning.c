/*
 * Rows of a work-group whose image accesses cannot leave the image.
 *
 * builtins/images.cl computes a clamp-to-edge read's x index as
 * __mosaic_edge_clamp_x(i, n) and the in-image test of a write or a
 * sampler-less read as __mosaic_inside(i, n).  With clamped indices every
 * channel of every work-item is a gather, so the loop vectoriser declines the
 * work-item loop.  Here, for K.wg of an image kernel, each x loop where such
 * an index is the loop's x plus something invariant in the loop gets a second
 * version, run for the part [lo, hi) of a row where every such index stays in
 * [0, n), the first running the ends (mc_row_split; a loop that cannot be
 * split runs the second for whole rows inside): there the clamp is the
 * identity and the test true, addresses are affine
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

#include "compiler/images/images.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/loop_versioning.h"
#include "compiler/ir/util.h"
#include "compiler/ir/wg_context.h"

#define CLAMP_X "__mosaic_edge_clamp_x"
#define INSIDE "__mosaic_inside"

static bool is_call_to(LLVMValueRef i, const char *name)
{
    LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
    return f && !strcmp(LLVMGetValueName(f), name);
}

static LLVMValueRef smax(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, x, y, ""), x, y, "");
}
static LLVMValueRef smin(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, x, y, ""), x, y, "");
}

/* Where along the row index i (slope 1, n slope 0) is inside the image:
 * 0 <= i(0) + x < n for -i(0) <= x < n - i(0).  Narrows [*lo, *hi) (x's
 * type, 64 bits) to that; *start gets i(0), widened. */
static void narrow_to_inside(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef i, LLVMValueRef n,
                             LLVMValueRef *lo, LLVMValueRef *hi, LLVMValueRef *start)
{
    LLVMTypeRef t = LLVMTypeOf(rl->x);
    LLVMValueRef zero = LLVMConstInt(t, 0, 0);
    LLVMValueRef i0 = *start = LLVMBuildSExt(b, mc_row_at(b, rl, i, zero), t, "");
    LLVMValueRef n0 = LLVMBuildSExt(b, mc_row_at(b, rl, n, zero), t, "");
    *lo = smax(b, *lo, LLVMBuildNeg(b, i0, ""));
    *hi = smin(b, *hi, LLVMBuildSub(b, n0, i0, ""));
}

typedef struct {
    LLVMValueRef *from, *to;
    unsigned n, cap;
} value_map;

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

static int guarded_marker(const mc_row_loop *rl, LLVMValueRef i)
{
    bool clamp = is_call_to(i, CLAMP_X);
    if (!clamp && !is_call_to(i, INSIDE))
        return NOT_GUARDED;
    if (mc_row_slope(rl, LLVMGetOperand(i, 1)) != 0)
        return NOT_GUARDED;
    long long di = mc_row_slope(rl, LLVMGetOperand(i, 0));
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

/* In the copy, each widening of a guarded index becomes (i(0) + x) << k,
 * from starts (index -> i(0) in 64 bits). */
static void widen_guarded_indices(LLVMBuilderRef b, const mc_row_loop *rl, const value_map *starts)
{
    LLVMValueRef x = mc_row_copy_of(rl, rl->x);
    for (unsigned k = 0; k < rl->nblocks; k++) {
        LLVMBasicBlockRef nb = mc_row_copy_of_block(rl, rl->blocks[k]);
        for (LLVMValueRef v = LLVMGetFirstInstruction(nb), next; v; v = next) {
            next = LLVMGetNextInstruction(v);
            if (LLVMTypeOf(v) != LLVMTypeOf(x))
                continue;
            for (unsigned j = 0; j < starts->n; j++) {
                int shift = widened_index(v, mc_row_copy_of(rl, starts->from[j]));
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

/* Versions the x loop whose latch is latch.  The copy runs the part of the
 * row where every guarded index is inside, [lo, hi); the loop the rest, on
 * either side (a row as wide as the image, whose filter taps overhang both
 * edges, then runs its middle as vectors).  A loop that cannot be split
 * runs the copy for whole rows that stay inside. */
static void version_loop(LLVMBuilderRef b, LLVMValueRef wg, LLVMBasicBlockRef latch)
{
    mc_row_loop rl;
    value_map starts = {0}; /* guarded index -> its value at x = 0, 64 bits */
    if (!mc_row_loop_open(&rl, wg, latch))
        goto out;
    bool split = mc_row_can_split(&rl);
    mc_row_before_loop(&rl, b);
    LLVMTypeRef t = LLVMTypeOf(rl.x);
    LLVMValueRef end = split ? rl.bound : mc_load_local_size(b, LLVMGetParam(wg, 1), 0);
    LLVMValueRef lo = LLVMConstInt(t, 0, 0), hi = end;
    LLVMValueRef tests = NULL; /* the in-image tests of y and z */
    for (unsigned k = 0; k < rl.nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            int kind = guarded_marker(&rl, i);
            if (kind == NOT_GUARDED)
                continue;
            LLVMValueRef iv = LLVMGetOperand(i, 0), n = LLVMGetOperand(i, 1);
            if (kind == ROW_TEST) {
                LLVMValueRef zero = LLVMConstInt(t, 0, 0);
                LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, mc_row_at(b, &rl, iv, zero), mc_row_at(b, &rl, n, zero), "");
                tests = tests ? LLVMBuildAnd(b, tests, in, "") : in;
                continue;
            }
            LLVMValueRef start;
            narrow_to_inside(b, &rl, iv, n, &lo, &hi, &start);
            if (!map_add(&starts, iv, start))
                goto out;
        }
    if ((!tests && !starts.n) || !mc_row_copy(&rl, b))
        goto out;
    /* in the copy the x markers with slope 1 are the identity and true */
    for (unsigned k = 0; k < rl.nblocks; k++) {
        LLVMBasicBlockRef nb = mc_row_copy_of_block(&rl, rl.blocks[k]);
        for (LLVMValueRef i = LLVMGetFirstInstruction(rl.blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            bool clamp = is_call_to(i, CLAMP_X);
            if (guarded_marker(&rl, i) == NOT_GUARDED)
                continue;
            LLVMValueRef ni = mc_row_copy_of(&rl, i);
            LLVMReplaceAllUsesWith(ni, clamp ? LLVMGetOperand(ni, 0) : LLVMConstInt(LLVMTypeOf(ni), 1, 0));
        }
        scalarise_memory(b, nb);
    }
    /* A guarded index i(x) is i(0) + x without overflow in the copy, so its
     * widening, the pixel address's index, becomes that 64-bit sum: an
     * affine address the vectoriser sees as consecutive, where
     * sext(trunc(x + c)) was not. */
    widen_guarded_indices(b, &rl, &starts);
    for (unsigned k = 0; k < rl.nblocks; k++) {
        LLVMBasicBlockRef nb = mc_row_copy_of_block(&rl, rl.blocks[k]);
        for (LLVMValueRef i = LLVMGetFirstInstruction(nb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if ((is_call_to(i, CLAMP_X) || is_call_to(i, INSIDE)) && !LLVMGetFirstUse(i))
                LLVMInstructionEraseFromParent(i);
        }
    }
    mc_row_before_loop(&rl, b);
    if (split) {
        /* 0 <= lo <= hi <= end, and an empty middle where a y or z test fails */
        LLVMValueRef zero = LLVMConstInt(t, 0, 0);
        hi = smax(b, hi, zero);
        lo = smin(b, lo, hi);
        if (tests) {
            lo = LLVMBuildSelect(b, tests, lo, end, "");
            hi = LLVMBuildSelect(b, tests, hi, end, "");
        }
        mc_row_split(&rl, b, lo, hi);
    } else {
        /* the row goes to the copy when every index stays inside all along it */
        LLVMValueRef all = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, lo, LLVMConstInt(t, 0, 0), ""),
                                        LLVMBuildICmp(b, LLVMIntEQ, hi, end, ""), "");
        mc_row_choose(&rl, b, tests ? LLVMBuildAnd(b, tests, all, "") : all);
    }
out:
    free(starts.from);
    free(starts.to);
    mc_row_loop_close(&rl);
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

cl_int mc_version_for_image_bounds(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                             bool specialised, mosaic_strbuf *log)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMValueRef *fs = calloc(nk ? nk : 1, sizeof *fs);
    LLVMMetadataRef *groups = calloc(nk ? nk : 1, sizeof *groups);
    mc_kernel_build **builds = calloc(nk ? nk : 1, sizeof *builds);
    size_t n = 0;
    cl_int r = CL_SUCCESS;
    if (!fs || !groups || !builds) {
        free(fs);
        free(groups);
        free(builds);
        LLVMDisposeBuilder(b);
        return mc_out_of_memory(log);
    }
    if (specialised && (LLVMGetNamedFunction(m, CLAMP_X) || LLVMGetNamedFunction(m, INSIDE)))
        for (size_t k = 0; k < nk; k++)
            if (kbs[k].wg && kbs[k].access_group && kbs[k].specialise_images && !kbs[k].uses_barriers &&
                !kbs[k].spins && mc_has_image_args(&kbs[k])) {
                groups[n] = kbs[k].access_group;
                builds[n] = &kbs[k];
                fs[n++] = kbs[k].wg;
            }
    if (n)
        r = mc_run_passes_on(m, tm, fs, n, "function(sroa,early-cse,simplifycfg,instcombine,scalarizer,instcombine,loop(loop-rotate),loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-peeling;no-profile-peeling>,simplifycfg,instcombine)", log);
    for (size_t k = 0; k < n && r == CL_SUCCESS; k++) {
        LLVMBasicBlockRef *latches;
        unsigned nl = mc_row_latches(fs[k], groups[k], &latches);
        for (unsigned i = 0; i < nl; i++)
            version_loop(b, fs[k], latches[i]);
        free(latches);
    }
    lower_markers(m, b);
    if (n && r == CL_SUCCESS)
        r = mc_run_passes_on(m, tm, fs, n, "function(instcombine)", log);
    /* A copy's channels, converted to float and back, are the pixel again.
     * Its functions' dead ways go first (the versions' branches on
     * constants: a value reaches the write through a phi with their zeros);
     * the others keep their shape.  InstCombine then joins the channels
     * into the pixel's word. */
    size_t nc = 0;
    for (size_t k = 0; k < n && r == CL_SUCCESS; k++)
        if (mc_fold_channel_round_trips(fs[k], false))
            fs[nc] = fs[k], builds[nc++] = builds[k];
    if (nc && r == CL_SUCCESS)
        r = mc_run_passes_on(m, tm, fs, nc, "function(simplifycfg,instcombine)", log);
    for (size_t k = 0; k < nc && r == CL_SUCCESS; k++)
        builds[k]->stats[MC_STAT_round_trips] = mc_fold_channel_round_trips(fs[k], true);
    if (nc && r == CL_SUCCESS)
        r = mc_run_passes_on(m, tm, fs, nc, "function(instcombine)", log);
    free(fs);
    free(groups);
    free(builds);
    LLVMDisposeBuilder(b);
    return r;
}
