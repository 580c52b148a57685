/*
 * Whole-function vectorisation: K.body for a row of work-items at once.
 *
 * LLVM's loop vectoriser widens innermost loops only.  The loop over
 * work-items in K.wg is innermost when the kernel has no loop of its own;
 * when it has one (a chain of multiply-adds, a k loop, a loop over bodies),
 * implicit_barriers.c interchanges them, but then every iteration is a pass over the
 * group that loads and stores each work-item's values.  Here K.body itself
 * is widened instead: K.vec(args, ctx, lx0, ly, lz) runs work-items lx0 ..
 * lx0 + lanes - 1 of a row, each varying value a vector of one lane per
 * work-item, so the kernel's loops run once for all of them and their values
 * stay in registers.  Several machine vectors per value (lanes is 4 to 8 of
 * them) give the FMA units independent chains.  K.wg calls K.vec while a
 * whole row block fits, then K.tail, one machine vector with only its
 * first `count` lanes on, for the rest (workgroup.c).
 *
 * A barrier kernel built for one local size gets K.row the same way
 * (mc_wfv_rows): the row's work-items, or a power-of-two part of them, as
 * lanes, with its barriers where every lane is; regions.c then cuts K.row
 * instead of K.body.  A branch that barriers decide (uniformity.c) takes
 * lane 0's way there, and a row whose lanes disagree is reported.  A row
 * narrower than a machine vector is widened with the next rows of the
 * group (wfv_rows.c).
 *
 * What it takes: no barriers (but in K.row), no private arrays (the small
 * ones are values by then: workgroup/private_arrays.c), atomics other than
 * tickets (an add at an address the row shares: widen_ticket), calls other
 * than intrinsics with vector forms, or vector-typed values; control flow
 * that depends on values the row shares, or on others in the ways
 * linearize.c runs under lane masks (guards, ifs whose ways meet again,
 * loops with one exit, also inside such ifs).  In K.row, a row's lanes in
 * one block make more values the row's (wfv_blocks.c).
 * Each value has a shape:
 *   UNIFORM       the same for every work-item of the row: kept scalar;
 *   CONSECUTIVE   lane i is the first lane's value plus i * stride (a local
 *                 id, an address indexed by it): kept as its first lane, so
 *                 a load or store whose stride is its size is one vector
 *                 access;
 *   VARYING       a vector; loads and stores at varying addresses are
 *                 gathers and scatters.
 * Assumed, as elsewhere (strided_loops.c): the local ids, and the sums and
 * multiples that make indices from them, do not wrap within a row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

#include "base/settings.h"
#include "compiler/images/images.h"
#include "base/assert.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/ir/wg_context.h"
#include "compiler/vectorize/vectorize.h"
#include "compiler/vectorize/wfv_internal.h"
#include "compiler/workgroup/passes.h"

/* Lanes: this many bits of the widest varying value make a machine vector
 * (AVX-512); a value is 8 of them (8 independent chains keep two FMA units
 * of latency 4 busy) when few values live across the kernel's loops, 4 when
 * more do, and one when so many do that one vector each fills the registers
 * (a float16 chain split into its 16 elements: as many chains), one of the
 * widest of those live values then (widest_live). */
#define VECTOR_BITS 512
#define MAX_VECTORS_PER_VALUE 8
#define FEW_LIVE_VALUES 4
#define MANY_LIVE_VALUES 12

/* ---- which kernels ----------------------------------------------------------------- */

/* Intrinsics with vector forms that code generation keeps as vector
 * instructions (transcendental ones would become a call per lane). */
bool wd_widenable_intrinsic(LLVMValueRef f)
{
    static const char *const names[] = {
        "llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.sqrt.", "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.",
        "llvm.maximum.", "llvm.copysign.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.rint.",
        "llvm.nearbyint.", "llvm.round.", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.",
        "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.fshl.", "llvm.fshr.", "llvm.bswap.", "llvm.bitreverse.",
        "llvm.sadd.sat.", "llvm.uadd.sat.", "llvm.ssub.sat.", "llvm.usub.sat.",
    };
    return mc_intrinsic_named(f, names, sizeof names / sizeof *names);
}

/* Intrinsics that K.vec leaves out (hints, debug information). */
static bool dropped_intrinsic(LLVMValueRef f)
{
    static const char *const names[] = {"llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
                                        "llvm.lifetime.", "llvm.invariant."};
    return mc_intrinsic_named(f, names, sizeof names / sizeof *names);
}

static bool scalar_type(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) <= 64;
    case LLVMFloatTypeKind: case LLVMDoubleTypeKind: case LLVMHalfTypeKind: case LLVMPointerTypeKind:
    case LLVMVoidTypeKind: case LLVMLabelTypeKind:
        return true;
    default:
        return false;
    }
}

/* An element of a vector argument at a constant index (a uchar4 bound
 * passed by value): the same for every lane, copied as it is. */
static bool argument_element(LLVMValueRef inst)
{
    return LLVMIsAExtractElementInst(inst) && LLVMIsAArgument(LLVMGetOperand(inst, 0)) &&
           LLVMIsAConstantInt(LLVMGetOperand(inst, 1)) && scalar_type(LLVMTypeOf(inst));
}

/* Can inst be part of K.vec (before knowing shapes)?  Sets w->why if not. */
static bool allowed(widener *w, LLVMValueRef inst)
{
    if (argument_element(inst))
        return true;
    if (!scalar_type(LLVMTypeOf(inst)))
        return w->why = "a vector or aggregate value", false;
    for (int k = 0, n = LLVMGetNumOperands(inst); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(inst, (unsigned)k);
        if (!LLVMIsABasicBlock(op) && !LLVMIsAFunction(op) && LLVMGetValueKind(op) != LLVMMetadataAsValueValueKind &&
            !scalar_type(LLVMTypeOf(op)))
            return w->why = "a vector or aggregate value", false;
    }
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMAlloca: return w->why = "a private variable in memory", false;
    case LLVMAtomicRMW: /* an add or subtract may be a ticket (widen_ticket) */
        if (LLVMGetAtomicRMWBinOp(inst) == LLVMAtomicRMWBinOpAdd || LLVMGetAtomicRMWBinOp(inst) == LLVMAtomicRMWBinOpSub)
            return true;
        return w->why = "atomics", false;
    case LLVMAtomicCmpXchg: case LLVMFence: return w->why = "atomics", false;
    case LLVMInvoke: case LLVMCallBr: case LLVMIndirectBr: case LLVMVAArg: case LLVMLandingPad:
    case LLVMExtractValue: case LLVMInsertValue: case LLVMExtractElement: case LLVMInsertElement:
    case LLVMShuffleVector: case LLVMFreeze:
        return w->why = "an instruction it does not widen", false;
    case LLVMLoad: case LLVMStore:
        if (LLVMGetVolatile(inst) || LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic)
            return w->why = "a volatile or atomic access", false;
        return true;
    case LLVMCall: {
        LLVMValueRef f = mc_called_function(inst);
        if (dropped_intrinsic(f) || wd_widenable_intrinsic(f) || wd_is_check_access(inst) ||
            (w->row && (mc_is_barrier_call(inst) || wd_is_check_barrier(inst))))
            return true;
        return w->why = "a call", false;
    }
    default:
        return true;
    }
}

/* ---- shapes ------------------------------------------------------------------------- */

int wd_inst_index(const widener *w, LLVMValueRef v) { return LLVMIsAInstruction(v) ? pmap_get(&w->iidx, v) : -1; }

enum shape wd_shape_of(const widener *w, LLVMValueRef v, long long *stride)
{
    unsigned np = LLVMCountParams(w->body);
    if (LLVMIsAArgument(v) && v == LLVMGetParam(w->body, np - 3)) { /* lx */
        *stride = 1;
        return CONSECUTIVE;
    }
    int k = wd_inst_index(w, v);
    if (k < 0)
        return UNIFORM; /* arguments (ly, lz: one row), constants, globals */
    *stride = w->stride[k];
    return (enum shape)w->shape[k];
}

static long long type_bytes(widener *w, LLVMTypeRef t)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(w->m);
    return (long long)LLVMABISizeOfType(td, t);
}

/* The shape of inst from its operands' (phis: joined over their incomings). */
enum shape wd_infer(widener *w, LLVMValueRef inst, long long *stride)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    int n = LLVMGetNumOperands(inst);
    enum shape s[3] = {UNIFORM, UNIFORM, UNIFORM};
    long long st[3] = {0, 0, 0};
    bool all_uniform = true;
    for (int k = 0; k < n; k++) {
        LLVMValueRef o = LLVMGetOperand(inst, (unsigned)k);
        long long t = 0;
        enum shape x = LLVMIsABasicBlock(o) ? UNIFORM : wd_shape_of(w, o, &t);
        if (k < 3)
            s[k] = x, st[k] = t;
        all_uniform &= x == UNIFORM;
    }
    *stride = 0;
    switch (op) {
    case LLVMPHI:
        return all_uniform ? UNIFORM : VARYING;
    case LLVMLoad:
        return s[0] == UNIFORM ? UNIFORM : VARYING;
    case LLVMStore: case LLVMBr: case LLVMSwitch: case LLVMRet: case LLVMUnreachable:
        return UNIFORM; /* no value */
    case LLVMAtomicRMW:
        return VARYING; /* each lane its own ticket */
    case LLVMICmp: case LLVMSDiv: case LLVMSRem: /* in K.row, maybe the row's (wfv_blocks.c) */
        return all_uniform ? UNIFORM : wd_row_block_shape(w, inst, stride);
    case LLVMAdd: case LLVMSub:
        if (all_uniform)
            return UNIFORM;
        if (s[0] != VARYING && s[1] == UNIFORM) {
            *stride = st[0];
            return CONSECUTIVE;
        }
        if (op == LLVMAdd && s[0] == UNIFORM && s[1] == CONSECUTIVE) {
            *stride = st[1];
            return CONSECUTIVE;
        }
        if (op == LLVMAdd && s[0] == CONSECUTIVE && s[1] == CONSECUTIVE) {
            *stride = st[0] + st[1];
            return CONSECUTIVE;
        }
        if (op == LLVMSub && s[0] == UNIFORM && s[1] == CONSECUTIVE) { /* w - 1 - x: mirrored */
            *stride = -st[1];
            return CONSECUTIVE;
        }
        return VARYING;
    case LLVMAnd: /* x & 0xffffffff, instcombine's form of zext(trunc(x)): a cast, as those */
        if (all_uniform)
            return UNIFORM;
        if (s[0] == CONSECUTIVE && wd_low_bits(inst, NULL)) {
            *stride = st[0];
            return CONSECUTIVE;
        }
        return wd_row_block_shape(w, inst, stride); /* x % 2^k in K.row */
    case LLVMXor: /* ~x, instcombine's form of -1 - x */
        if (all_uniform)
            return UNIFORM;
        if (s[0] == CONSECUTIVE && LLVMIsAConstantInt(LLVMGetOperand(inst, 1)) &&
            LLVMConstIntGetSExtValue(LLVMGetOperand(inst, 1)) == -1) {
            *stride = -st[0];
            return CONSECUTIVE;
        }
        return VARYING;
    case LLVMOr: /* mg * 4 | 1, instcombine's form of mg * 4 + 1, is a sum */
        if (all_uniform)
            return UNIFORM;
        if (s[0] == CONSECUTIVE && LLVMIsAConstantInt(LLVMGetOperand(inst, 1)) && mc_or_is_add(inst)) {
            *stride = st[0];
            return CONSECUTIVE;
        }
        return VARYING;
    case LLVMMul: case LLVMShl: case LLVMAShr: case LLVMLShr:
        if (all_uniform)
            return UNIFORM;
        if (s[0] == CONSECUTIVE && LLVMIsAConstantInt(LLVMGetOperand(inst, 1)) &&
            LLVMGetIntTypeWidth(LLVMTypeOf(inst)) <= 64) {
            long long c = LLVMConstIntGetSExtValue(LLVMGetOperand(inst, 1)), a = st[0] < 0 ? -st[0] : st[0];
            if (op == LLVMMul && (c > (1 << 20) || c < -(1 << 20) || a > (1LL << 40)))
                return VARYING;
            if (op != LLVMMul && (c < 0 || c > 62))
                return VARYING;
            if (op == LLVMShl && a >= (1LL << (62 - c)))
                return VARYING;
            /* a shift right keeps lanes apart only when the stride's low bits
             * are zero (sext(trunc(x)) is ashr(shl(x, 32), 32)) */
            if (op != LLVMMul && op != LLVMShl && (a & ((1LL << c) - 1))) /* x / 2^c in K.row: maybe the row's */
                return op == LLVMLShr ? wd_row_block_shape(w, inst, stride) : VARYING;
            *stride = op == LLVMMul ? st[0] * c : op == LLVMShl ? st[0] * (1LL << c) : st[0] / (1LL << c);
            return CONSECUTIVE;
        }
        return VARYING;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMAddrSpaceCast: case LLVMBitCast:
        *stride = st[0];
        if (s[0] == CONSECUTIVE && op == LLVMBitCast &&
            LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, 0))))
            return VARYING;
        return s[0];
    case LLVMGetElementPtr: {
        if (all_uniform)
            return UNIFORM;
        /* a consecutive base and uniform indices, or a uniform base and one
         * consecutive index (its element's size times its stride) */
        long long total = s[0] == CONSECUTIVE ? st[0] : 0;
        if (s[0] == VARYING)
            return VARYING;
        LLVMTypeRef t = LLVMGetGEPSourceElementType(inst);
        for (int k = 1; k < n; k++) {
            LLVMValueRef idx = LLVMGetOperand(inst, (unsigned)k);
            long long ist = 0;
            enum shape x = wd_shape_of(w, idx, &ist);
            if (x == VARYING)
                return VARYING;
            LLVMTypeRef elem = k == 1 ? t : NULL;
            if (k > 1) { /* into an array or struct */
                if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                    if (x != UNIFORM)
                        return VARYING;
                    t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
                    continue;
                }
                if (LLVMGetTypeKind(t) != LLVMArrayTypeKind)
                    return VARYING;
                t = LLVMGetElementType(t);
                elem = t;
            }
            if (x == CONSECUTIVE)
                total += ist * type_bytes(w, elem);
        }
        *stride = total;
        return total ? CONSECUTIVE : VARYING;
    }
    case LLVMCall: { /* with clamps taken as leaving their operand alone (wfv_clamps.c) */
        int bound = w->unclamped ? wd_clamp_bound(w, inst) : -1;
        if (bound >= 0 && s[1 - bound] == CONSECUTIVE) {
            *stride = st[1 - bound];
            return CONSECUTIVE;
        }
        return all_uniform ? UNIFORM : VARYING;
    }
    default:
        return all_uniform ? UNIFORM : VARYING;
    }
}

/* Shapes until nothing changes (loops' phis see their back edges). */
static void find_shapes(widener *w)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < w->n; k++) {
            long long st = 0;
            enum shape s = wd_infer(w, w->insts[k], &st);
            if (s < (enum shape)w->shape[k])
                s = (enum shape)w->shape[k]; /* shapes only rise */
            if (s == CONSECUTIVE && w->shape[k] == CONSECUTIVE && st != w->stride[k])
                s = VARYING;
            if (s != w->shape[k] || (s == CONSECUTIVE && st != w->stride[k])) {
                w->shape[k] = (unsigned char)s;
                w->stride[k] = st;
                changed = true;
            }
        }
    }
}

/* ---- building K.vec --------------------------------------------------------------- */

static LLVMTypeRef vector_of(widener *w, LLVMTypeRef t) { return LLVMVectorType(t, w->lanes); }

LLVMValueRef wd_splat(widener *w, LLVMValueRef v)
{
    LLVMTypeRef vt = vector_of(w, LLVMTypeOf(v));
    LLVMValueRef one = LLVMBuildInsertElement(w->b, LLVMGetPoison(vt), v, LLVMConstInt(w->i32, 0, 0), "");
    return LLVMBuildShuffleVector(w->b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(w->i32, w->lanes)), "");
}

/* <0, s, 2s, ...> of integer type t. */
static LLVMValueRef steps(widener *w, LLVMTypeRef t, long long s)
{
    LLVMValueRef *e = malloc(w->lanes * sizeof *e), v;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < w->lanes; i++)
        e[i] = LLVMConstInt(t, (unsigned long long)(s * (long long)i), 1);
    v = LLVMConstVector(e, w->lanes);
    free(e);
    return v;
}

/* v as a vector, at the builder's place. */
LLVMValueRef wd_vector_value(widener *w, LLVMValueRef v)
{
    long long st = 0;
    enum shape s = wd_shape_of(w, v, &st);
    if (s == VARYING)
        return w->vector[wd_inst_index(w, v)];
    if (w->rows > 1)
        return wd_rows_vector(w, v, s == UNIFORM ? 0 : st);
    LLVMValueRef first = wd_scalar_of(w, v), all = wd_splat(w, first);
    if (s == UNIFORM)
        return all;
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(w->c);
        LLVMValueRef idx = steps(w, w->i64, st);
        return LLVMBuildGEP2(w->b, i8, all, &idx, 1, "");
    }
    return LLVMBuildAdd(w->b, all, steps(w, LLVMTypeOf(v), st), "");
}

/* v's first lane (uniform or consecutive v). */
LLVMValueRef wd_scalar_of(widener *w, LLVMValueRef v)
{
    if (LLVMIsAArgument(v)) {
        for (unsigned i = 0, np = LLVMCountParams(w->body); i < np; i++)
            if (LLVMGetParam(w->body, i) == v)
                return LLVMGetParam(w->vec, i);
    }
    if (LLVMIsABasicBlock(v))
        return LLVMBasicBlockAsValue(w->blocks[pmap_get(&w->bidx, LLVMValueAsBasicBlock(v))]);
    int k = wd_inst_index(w, v);
    return k < 0 ? v : w->scalar[k];
}

/* v's last lane (for a store to one address: the last work-item's wins). */
static LLVMValueRef last_lane(widener *w, LLVMValueRef v)
{
    long long st = 0;
    enum shape s = wd_shape_of(w, v, &st);
    if (s == VARYING)
        return LLVMBuildExtractElement(w->b, w->vector[wd_inst_index(w, v)], w->last, "");
    LLVMValueRef first = wd_scalar_of(w, v);
    if (s == UNIFORM)
        return first;
    LLVMTypeRef t = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind ? w->i64 : LLVMTypeOf(v);
    LLVMValueRef off = LLVMBuildMul(w->b, LLVMBuildZExt(w->b, w->last, t, ""), LLVMConstInt(t, (unsigned long long)st, 1), "");
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind)
        return LLVMBuildGEP2(w->b, LLVMInt8TypeInContext(w->c), first, &off, 1, "");
    return LLVMBuildAdd(w->b, first, off, "");
}

static void copy_tbaa(widener *w, LLVMValueRef from, LLVMValueRef to)
{
    unsigned kind = LLVMGetMDKindIDInContext(w->c, "tbaa", 4);
    LLVMValueRef md = LLVMGetMetadata(from, kind);
    if (md)
        LLVMSetMetadata(to, kind, md);
}

LLVMValueRef wd_all_lanes(widener *w)
{
    LLVMValueRef t = LLVMConstInt(LLVMInt1TypeInContext(w->c), 1, 0);
    LLVMValueRef *e = malloc(w->lanes * sizeof *e), v = NULL;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < w->lanes; i++)
        e[i] = t;
    v = LLVMConstVector(e, w->lanes);
    free(e);
    return v;
}

LLVMValueRef wd_call_intrinsic(widener *w, const char *name, LLVMTypeRef *types, unsigned ntypes,
                                   LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(w->m, id, types, ntypes);
    return LLVMBuildCall2(w->b, LLVMGlobalGetValueType(f), f, args, nargs, "");
}

/* Lanes k elements apart (a float4 per work-item, scalarised: its .x of
 * each lane 16 bytes from the last) are read as one masked load of k times
 * the lanes, element j on for j a multiple of k whose lane runs (so nothing
 * past the last lane's element is touched), and every k-th element taken:
 * wide loads and permutes, not a gather (CLBlast's Xgemm reads A as float4). */
#define MAX_INTERLEAVE 4
static LLVMValueRef interleaved_load(widener *w, LLVMValueRef inst, LLVMValueRef first, unsigned k,
                                     LLVMValueRef lanes_on)
{
    LLVMTypeRef t = LLVMTypeOf(inst), wide = LLVMVectorType(t, w->lanes * k);
    unsigned n = w->lanes * k;
    LLVMValueRef *e = malloc(n * sizeof *e), *pick = malloc(w->lanes * sizeof *pick);
    if (!e || !pick) { /* out of memory: a gather */
        free(e), free(pick);
        return NULL;
    }
    LLVMTypeRef i1 = LLVMInt1TypeInContext(w->c);
    LLVMValueRef mask;
    if (lanes_on) { /* lane j / k's bit, where j is a multiple of k */
        for (unsigned j = 0; j < n; j++)
            e[j] = LLVMConstInt(w->i32, j % k == 0 ? j / k : w->lanes, 0);
        mask = LLVMBuildShuffleVector(w->b, lanes_on, LLVMConstNull(LLVMTypeOf(lanes_on)), LLVMConstVector(e, n), "");
    } else {
        for (unsigned j = 0; j < n; j++)
            e[j] = LLVMConstInt(i1, j % k == 0, 0);
        mask = LLVMConstVector(e, n);
    }
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(LLVMGetOperand(inst, 0))};
    LLVMValueRef args[4] = {first, LLVMConstInt(w->i32, LLVMGetAlignment(inst), 0), mask, LLVMGetPoison(wide)};
    LLVMValueRef all = wd_call_intrinsic(w, "llvm.masked.load", types, 2, args, 4);
    for (unsigned i = 0; i < w->lanes; i++)
        pick[i] = LLVMConstInt(w->i32, i * k, 0);
    LLVMValueRef r = LLVMBuildShuffleVector(w->b, all, LLVMGetPoison(wide), LLVMConstVector(pick, w->lanes), "");
    free(e), free(pick);
    return r;
}

/* v's lanes in the opposite order. */
static LLVMValueRef reversed(widener *w, LLVMValueRef v)
{
    LLVMValueRef *e = malloc(w->lanes * sizeof *e), r;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < w->lanes; i++)
        e[i] = LLVMConstInt(w->i32, w->lanes - 1 - i, 0);
    r = LLVMBuildShuffleVector(w->b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(e, w->lanes), "reversed");
    free(e);
    return r;
}

/* Lanes one element apart downwards (a row read or written mirrored,
 * w - 1 - x): one vector access from the last lane's element, its lanes
 * (and mask) reversed; NULL when memory ran out (then a gather or scatter). */
static LLVMValueRef mirrored_access(widener *w, LLVMValueRef inst, LLVMValueRef first, LLVMValueRef value,
                                    LLVMValueRef mask)
{
    LLVMValueRef p = LLVMGetOperand(inst, value ? 1 : 0);
    LLVMTypeRef t = value ? LLVMTypeOf(value) : LLVMTypeOf(inst), vt = vector_of(w, t);
    long long size = type_bytes(w, t);
    unsigned align = LLVMGetAlignment(inst);
    /* lane lanes - 1's address: every lane below it is above it in memory */
    LLVMValueRef back = LLVMConstInt(w->i64, (unsigned long long)(-(long long)(w->lanes - 1) * size), 1);
    LLVMValueRef at = LLVMBuildGEP2(w->b, LLVMInt8TypeInContext(w->c), first, &back, 1, "mirrored");
    LLVMValueRef on = mask ? reversed(w, mask) : NULL, v = value ? reversed(w, wd_vector_value(w, value)) : NULL, r;
    if ((mask && !on) || (value && !v))
        return NULL;
    if (on) {
        LLVMTypeRef types[2] = {vt, LLVMTypeOf(p)};
        LLVMValueRef load_args[4] = {at, LLVMConstInt(w->i32, align, 0), on, LLVMGetPoison(vt)};
        LLVMValueRef store_args[4] = {v, at, LLVMConstInt(w->i32, align, 0), on};
        r = value ? wd_call_intrinsic(w, "llvm.masked.store", types, 2, store_args, 4)
                  : wd_call_intrinsic(w, "llvm.masked.load", types, 2, load_args, 4);
    } else {
        r = value ? LLVMBuildStore(w->b, v, at) : LLVMBuildLoad2(w->b, vt, at, "");
        LLVMSetAlignment(r, align);
        copy_tbaa(w, inst, r);
    }
    return value ? r : reversed(w, r);
}

/* Can lanes st bytes apart, from one first address, be read without a
 * gather (elements of `size` bytes)? */
bool wd_vector_load_stride(long long st, long long size)
{
    return st == size || st == -size || (st > 0 && st % size == 0 && st / size <= MAX_INTERLEAVE);
}

/* Whether every lane of a guard's mask stayed (an i1), or NULL when mask
 * is no guard's. */
static LLVMValueRef guard_full(const widener *w, LLVMValueRef mask)
{
    for (int k = 0; mask && k < w->nguards; k++)
        if (w->guard_mask[k] == mask)
            return w->guard_full[k];
    return NULL;
}

/* An access under a guard's mask (`if (x >= w) return;`): the plain vector
 * access in rows whose lanes all stay, the masked one in the others.  A
 * masked store costs more than a plain one, and a mirrored access reverses
 * its mask too (the runner's flip on one core of the 2-core Zen 4: about
 * 2.5 times the time of the same kernel without its guard).
 *
 *       br full, lanes.all, lanes.some
 *   lanes.all: the access, no mask       lanes.some: the access, masked
 *   lanes.joined: (a load's phi)
 *
 * Returns false (nothing built) when mask is no guard's, else true with a
 * load's value in *loaded (a way that runs out of memory gathers or
 * scatters). */
static bool unmasked_in_full_rows(widener *w, LLVMValueRef inst, LLVMValueRef first, long long st, LLVMValueRef mask,
                                  LLVMValueRef *loaded)
{
    LLVMValueRef full = w->building_ways ? NULL : guard_full(w, mask), v[2];
    if (!full)
        return false;
    w->building_ways = true; /* (the ways' own accesses are built as they are) */
    bool store = LLVMIsAStoreInst(inst);
    int self = pmap_get(&w->bidx, LLVMGetInstructionParent(inst));
    /* (placed after the access's block, so the function reads in order) */
    LLVMBasicBlockRef next = LLVMGetNextBasicBlock(LLVMGetInsertBlock(w->b));
    LLVMBasicBlockRef join = next ? LLVMInsertBasicBlockInContext(w->c, next, "lanes.joined")
                                  : LLVMAppendBasicBlockInContext(w->c, w->vec, "lanes.joined");
    LLVMBasicBlockRef some = LLVMInsertBasicBlockInContext(w->c, join, "lanes.some");
    LLVMBasicBlockRef all = LLVMInsertBasicBlockInContext(w->c, some, "lanes.all");
    LLVMBasicBlockRef from[2], way[2] = {all, some};
    LLVMBuildCondBr(w->b, full, all, some);
    for (int k = 0; k < 2; k++) { /* out of memory on the way: a gather or scatter */
        LLVMValueRef on = k ? mask : NULL;
        LLVMPositionBuilderAtEnd(w->b, way[k]);
        if (store && !wd_strided_store(w, inst, first, st, on))
            wd_scatter(w, inst, NULL, on);
        if (!store && !(v[k] = wd_strided_load(w, inst, first, st, on)))
            v[k] = wd_gather(w, inst, NULL, on);
        from[k] = LLVMGetInsertBlock(w->b);
        LLVMBuildBr(w->b, join);
    }
    w->building_ways = false;
    LLVMPositionBuilderAtEnd(w->b, join);
    w->out_block[self] = join;
    *loaded = NULL;
    if (!store) {
        *loaded = LLVMBuildPhi(w->b, LLVMTypeOf(v[0]), "");
        LLVMAddIncoming(*loaded, v, from, 2);
    }
    return true;
}

/* The load inst of lanes st bytes apart (wd_vector_load_stride), lane 0's
 * address first (only the running lanes'); NULL when memory ran out. */
LLVMValueRef wd_strided_load(widener *w, LLVMValueRef inst, LLVMValueRef first, long long st, LLVMValueRef mask)
{
    LLVMTypeRef t = LLVMTypeOf(inst);
    long long size = type_bytes(w, t);
    LLVMValueRef loaded;
    if (unmasked_in_full_rows(w, inst, first, st, mask, &loaded))
        return loaded;
    if (w->rows > 1)
        return wd_rows_strided_load(w, inst, first, st, mask);
    if (st == -size)
        return mirrored_access(w, inst, first, NULL, mask);
    if (st != size)
        return interleaved_load(w, inst, first, (unsigned)(st / size), mask);
    if (mask) {
        LLVMTypeRef types[2] = {vector_of(w, t), LLVMTypeOf(first)};
        LLVMValueRef args[4] = {first, LLVMConstInt(w->i32, LLVMGetAlignment(inst), 0), mask,
                                LLVMGetPoison(vector_of(w, t))};
        return wd_call_intrinsic(w, "llvm.masked.load", types, 2, args, 4);
    }
    LLVMValueRef r = LLVMBuildLoad2(w->b, vector_of(w, t), first, "");
    LLVMSetAlignment(r, LLVMGetAlignment(inst));
    copy_tbaa(w, inst, r);
    return r;
}

LLVMValueRef wd_gather(widener *w, LLVMValueRef inst, LLVMValueRef addresses, LLVMValueRef mask)
{
    LLVMTypeRef t = LLVMTypeOf(inst);
    LLVMValueRef p = LLVMGetOperand(inst, 0);
    LLVMTypeRef types[2] = {vector_of(w, t), LLVMVectorType(LLVMTypeOf(p), w->lanes)};
    LLVMValueRef args[4] = {addresses ? addresses : wd_vector_value(w, p), LLVMConstInt(w->i32, LLVMGetAlignment(inst), 0),
                            mask ? mask : wd_all_lanes(w), LLVMGetPoison(vector_of(w, t))};
    LLVMValueRef g = wd_call_intrinsic(w, "llvm.masked.gather", types, 2, args, 4);
    if (g && w->row)
        mc_mark_row_access(g); /* done a lane at a time where every lane is on (masked_ops.c) */
    return g;
}

/* A load at a varying or consecutive address (only the running lanes'). */
static LLVMValueRef widen_load(widener *w, LLVMValueRef inst)
{
    LLVMValueRef p = LLVMGetOperand(inst, 0), r, mask = wd_lanes_running(w, inst);
    long long st = 0;
    if ((r = wd_versioned_access(w, inst, NULL, mask)))
        return r;
    if (wd_shape_of(w, p, &st) == CONSECUTIVE && wd_vector_load_stride(st, type_bytes(w, LLVMTypeOf(inst))) &&
        (r = wd_strided_load(w, inst, wd_first_lanes(w, p), st, mask)))
        return r;
    return wd_gather(w, inst, NULL, mask);
}

/* The store inst of lanes st bytes apart (plus or minus its size), lane 0's
 * address first (only the running lanes'); false when memory ran out. */
bool wd_strided_store(widener *w, LLVMValueRef inst, LLVMValueRef first, long long st, LLVMValueRef mask)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), r;
    LLVMTypeRef t = LLVMTypeOf(v);
    unsigned align = LLVMGetAlignment(inst);
    if (unmasked_in_full_rows(w, inst, first, st, mask, &r))
        return true;
    if (w->rows > 1)
        return wd_rows_strided_store(w, inst, first, st, mask);
    if (st == -type_bytes(w, t))
        return mirrored_access(w, inst, first, v, mask) != NULL;
    if (mask) {
        LLVMTypeRef types[2] = {vector_of(w, t), LLVMTypeOf(first)};
        LLVMValueRef args[4] = {wd_vector_value(w, v), first, LLVMConstInt(w->i32, align, 0), mask};
        wd_call_intrinsic(w, "llvm.masked.store", types, 2, args, 4);
        return true;
    }
    r = LLVMBuildStore(w->b, wd_vector_value(w, v), first);
    LLVMSetAlignment(r, align);
    copy_tbaa(w, inst, r);
    return true;
}

void wd_scatter(widener *w, LLVMValueRef inst, LLVMValueRef addresses, LLVMValueRef mask)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMTypeRef types[2] = {vector_of(w, t), LLVMVectorType(LLVMTypeOf(p), w->lanes)};
    LLVMValueRef args[4] = {wd_vector_value(w, v), addresses ? addresses : wd_vector_value(w, p),
                            LLVMConstInt(w->i32, LLVMGetAlignment(inst), 0),
                            mask ? mask : wd_all_lanes(w)};
    LLVMValueRef sc = wd_call_intrinsic(w, "llvm.masked.scatter", types, 2, args, 4);
    if (sc && w->row)
        mc_mark_row_access(sc);
}

static void widen_store(widener *w, LLVMValueRef inst)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1), r, mask = wd_lanes_running(w, inst);
    long long st = 0, size = type_bytes(w, LLVMTypeOf(v));
    enum shape ps = wd_shape_of(w, p, &st);
    if (ps == UNIFORM && w->rows > 1) {
        wd_rows_store_one_place(w, inst, mask);
    } else if (ps == UNIFORM) { /* not in a masked loop (analyse) */
        r = LLVMBuildStore(w->b, last_lane(w, v), wd_scalar_of(w, p));
        LLVMSetAlignment(r, LLVMGetAlignment(inst));
        copy_tbaa(w, inst, r);
    } else if (!wd_versioned_access(w, inst, v, mask) &&
               !(ps == CONSECUTIVE && (st == size || st == -size) &&
                 wd_strided_store(w, inst, wd_first_lanes(w, p), st, mask))) {
        wd_scatter(w, inst, NULL, mask);
    }
}

/* The running lanes below each lane, in a vector of t: an exclusive prefix
 * sum of the mask (log2(lanes) adds of the sum shifted up a power of two of
 * lanes); *count: how many run. */
static LLVMValueRef lanes_below(widener *w, LLVMValueRef running, LLVMTypeRef t, LLVMValueRef *count)
{
    LLVMTypeRef vt = vector_of(w, t);
    LLVMValueRef ones = LLVMBuildZExt(w->b, running, vt, ""), sum = ones, zero = LLVMConstNull(vt);
    LLVMValueRef *from = malloc(w->lanes * sizeof *from);
    if (!from)
        return NULL;
    for (unsigned shift = 1; shift < w->lanes; shift *= 2) {
        /* lane i gets lane i - shift of the sum, or a zero */
        for (unsigned i = 0; i < w->lanes; i++)
            from[i] = LLVMConstInt(w->i32, i < shift ? i : w->lanes + i - shift, 0);
        LLVMValueRef up = LLVMBuildShuffleVector(w->b, zero, sum, LLVMConstVector(from, w->lanes), "");
        sum = LLVMBuildAdd(w->b, sum, up, "");
    }
    free(from);
    *count = LLVMBuildExtractElement(w->b, sum, LLVMConstInt(w->i32, w->lanes - 1, 0), "running");
    return LLVMBuildSub(w->b, sum, ones, "below");
}

/* A ticket (spin_loops.c), an atomic add or subtract of an amount the row
 * shares at an address it shares (persistent threads' atomic_inc(next)), for
 * the running lanes at once: one atomic operation of the amount times their
 * number, and each lane the old value moved on by the amount times the
 * running lanes below it, as if they had taken their tickets one after
 * another in lane order.  NULL for any other read-modify-write. */
static LLVMValueRef widen_ticket(widener *w, LLVMValueRef inst)
{
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
    LLVMValueRef p = LLVMGetOperand(inst, 0), amount = LLVMGetOperand(inst, 1);
    if ((op != LLVMAtomicRMWBinOpAdd && op != LLVMAtomicRMWBinOpSub) || !wd_uniform(w, p) || !wd_uniform(w, amount))
        return NULL;
    LLVMTypeRef t = LLVMTypeOf(inst);
    /* in a masked loop's header: the lanes that enter this iteration */
    int b = pmap_get(&w->bidx, LLVMGetInstructionParent(inst));
    LLVMValueRef running = w->loop_of[b] == b ? w->mask_phi[b] : wd_lanes_running(w, inst), count;
    if (!running)
        running = w->tail_mask ? w->tail_mask : wd_all_lanes(w);
    LLVMValueRef below = running ? lanes_below(w, running, t, &count) : NULL;
    if (!below)
        return NULL;
    LLVMValueRef a = wd_scalar_of(w, amount);
    LLVMValueRef old = LLVMBuildAtomicRMW(w->b, op, wd_scalar_of(w, p), LLVMBuildMul(w->b, count, a, ""),
                                          LLVMGetOrdering(inst), LLVMIsAtomicSingleThread(inst));
    LLVMSetAlignment(old, LLVMGetAlignment(inst));
    LLVMValueRef moved = LLVMBuildMul(w->b, below, wd_splat(w, a), "");
    return LLVMBuildBinOp(w->b, op == LLVMAtomicRMWBinOpAdd ? LLVMAdd : LLVMSub, wd_splat(w, old), moved, "ticket");
}

/* inst with some varying operand, as vector code. */
static LLVMValueRef widen_varying(widener *w, LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    LLVMTypeRef t = LLVMTypeOf(inst);
    switch (op) {
    case LLVMAtomicRMW:
        return widen_ticket(w, inst);
    case LLVMPHI:
        return LLVMBuildPhi(w->b, vector_of(w, t), ""); /* incomings once every block is built */
    case LLVMLoad:
        return widen_load(w, inst);
    case LLVMICmp:
        return LLVMBuildICmp(w->b, LLVMGetICmpPredicate(inst), wd_vector_value(w, LLVMGetOperand(inst, 0)),
                             wd_vector_value(w, LLVMGetOperand(inst, 1)), "");
    case LLVMFCmp:
        return LLVMBuildFCmp(w->b, LLVMGetFCmpPredicate(inst), wd_vector_value(w, LLVMGetOperand(inst, 0)),
                             wd_vector_value(w, LLVMGetOperand(inst, 1)), "");
    case LLVMSelect: {
        LLVMValueRef cond = LLVMGetOperand(inst, 0);
        cond = wd_uniform(w, cond) ? wd_scalar_of(w, cond) : wd_vector_value(w, cond);
        return LLVMBuildSelect(w->b, cond, wd_vector_value(w, LLVMGetOperand(inst, 1)),
                               wd_vector_value(w, LLVMGetOperand(inst, 2)), "");
    }
    case LLVMGetElementPtr: {
        int n = LLVMGetNumOperands(inst);
        LLVMValueRef *idx = malloc((size_t)n * sizeof *idx), r;
        if (!idx)
            return NULL;
        for (int k = 1; k < n; k++) {
            LLVMValueRef o = LLVMGetOperand(inst, (unsigned)k);
            /* struct field numbers stay constants */
            idx[k - 1] = wd_uniform(w, o) ? wd_scalar_of(w, o) : wd_vector_value(w, o);
        }
        LLVMValueRef base = LLVMGetOperand(inst, 0);
        base = wd_uniform(w, base) ? wd_scalar_of(w, base) : wd_vector_value(w, base);
        if (LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMVectorTypeKind)
            base = wd_splat(w, base); /* a vector of addresses from the start */
        r = LLVMBuildGEP2(w->b, LLVMGetGEPSourceElementType(inst), base, idx, (unsigned)n - 1, "");
        free(idx);
        return r;
    }
    case LLVMCall: {
        LLVMValueRef f = mc_called_function(inst);
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        int n = LLVMGetNumArgOperands(inst);
        LLVMValueRef args[4];
        if (n > 4)
            return NULL;
        /* operands of the overloaded type widen; flags (abs's i1) stay */
        for (int k = 0; k < n; k++) {
            LLVMValueRef o = LLVMGetOperand(inst, (unsigned)k);
            args[k] = LLVMTypeOf(o) == t ? wd_vector_value(w, o) : wd_scalar_of(w, o);
        }
        char base[64];
        const char *dot = strrchr(name, '.');
        if (!dot || (size_t)(dot - name) >= sizeof base)
            return NULL;
        memcpy(base, name, (size_t)(dot - name));
        base[dot - name] = 0;
        LLVMTypeRef vt = vector_of(w, t);
        return wd_call_intrinsic(w, base, &vt, 1, args, (unsigned)n);
    }
    default:
        break;
    }
    if (LLVMIsACastInst(inst))
        return LLVMBuildCast(w->b, op, wd_vector_value(w, LLVMGetOperand(inst, 0)), vector_of(w, t), "");
    int k = wd_row_unsigned_pow2(w, inst);
    if (k > 0) { /* x / 2^k, x % 2^k of an x never negative (wfv_blocks.c) */
        unsigned long long c = op == LLVMSDiv ? (unsigned long long)k : (1ULL << k) - 1;
        return LLVMBuildBinOp(w->b, op == LLVMSDiv ? LLVMLShr : LLVMAnd, wd_vector_value(w, LLVMGetOperand(inst, 0)),
                              wd_splat(w, LLVMConstInt(t, c, 0)), "");
    }
    if (LLVMIsABinaryOperator(inst))
        return LLVMBuildBinOp(w->b, op, wd_vector_value(w, LLVMGetOperand(inst, 0)),
                              wd_vector_value(w, LLVMGetOperand(inst, 1)), "");
    if (op == LLVMFNeg)
        return LLVMBuildFNeg(w->b, wd_vector_value(w, LLVMGetOperand(inst, 0)), "");
    return NULL;
}

/* inst computed once for the row (uniform), or its first lane (consecutive). */
static LLVMValueRef copy_scalar(widener *w, LLVMValueRef inst)
{
    if (LLVMIsAPHINode(inst))
        return LLVMBuildPhi(w->b, LLVMTypeOf(inst), "");
    LLVMValueRef c = LLVMInstructionClone(inst);
    for (int k = 0, n = LLVMGetNumOperands(c); k < n; k++) {
        LLVMValueRef o = LLVMGetOperand(c, (unsigned)k);
        if (!LLVMIsAFunction(o) && LLVMGetValueKind(o) != LLVMMetadataAsValueValueKind)
            LLVMSetOperand(c, (unsigned)k, wd_scalar_of(w, o));
    }
    LLVMInsertIntoBuilder(w->b, c);
    return c;
}

/* A branch that barriers decide: lane 0's way for the row; when the lanes
 * disagree (undefined in OpenCL) the device is told, as regions.c does. */
static void build_decided_branch(widener *w, LLVMValueRef term, int self)
{
    LLVMValueRef cond = wd_vector_value(w, LLVMGetCondition(term));
    if (w->report_fn) {
        LLVMTypeRef bits = LLVMIntTypeInContext(w->c, w->lanes);
        LLVMValueRef all = LLVMBuildBitCast(w->b, cond, bits, "");
        LLVMValueRef split = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, all, LLVMConstNull(bits), ""),
                                          LLVMBuildICmp(w->b, LLVMIntNE, all, LLVMConstAllOnes(bits), ""), "diverged");
        LLVMBasicBlockRef rep = LLVMAppendBasicBlockInContext(w->c, w->vec, "diverged");
        LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(w->c, w->vec, "decided");
        LLVMBuildCondBr(w->b, split, rep, on);
        LLVMPositionBuilderAtEnd(w->b, rep);
        LLVMValueRef args[2] = {LLVMGetParam(w->vec, LLVMCountParams(w->vec) - 4), w->kernel_name};
        LLVMBuildCall2(w->b, LLVMGlobalGetValueType(w->report_fn), w->report_fn, args, 2, "");
        LLVMBuildBr(w->b, on);
        LLVMPositionBuilderAtEnd(w->b, on);
        w->out_block[self] = on;
    }
    LLVMBuildCondBr(w->b, LLVMBuildExtractElement(w->b, cond, LLVMConstInt(w->i32, 0, 0), ""),
                    w->blocks[pmap_get(&w->bidx, LLVMGetSuccessor(term, 0))],
                    w->blocks[pmap_get(&w->bidx, LLVMGetSuccessor(term, 1))]);
}

static bool build_block(widener *w, LLVMBasicBlockRef bb)
{
    int self = pmap_get(&w->bidx, bb);
    LLVMPositionBuilderAtEnd(w->b, w->blocks[self]);
    bool header = w->loop_of[self] == self;
    if (header)
        w->mask_phi[self] = LLVMBuildPhi(w->b, LLVMVectorType(LLVMInt1TypeInContext(w->c), w->lanes), "lanes.in");
    if (w->region_of[self] >= 0) { /* the lanes that reach it, from the blocks before it */
        /* (in the order of bb's uses, not the graph's predecessors: the order of the ors made) */
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
            int from = pmap_get(&w->bidx, LLVMGetInstructionParent(LLVMGetUser(u)));
            LLVMValueRef m = wd_edge_into(w, from, self);
            w->region_mask[self] = w->region_mask[self] ? LLVMBuildOr(w->b, w->region_mask[self], m, "") : m;
        }
    }
    bool merges = w->region_of[self] >= 0 || w->join_of[self] >= 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        int k = wd_inst_index(w, i);
        if (LLVMIsACallInst(i) && dropped_intrinsic(mc_called_function(i)))
            continue;
        if (merges && LLVMIsAPHINode(i)) {
            w->vector[k] = wd_select_by_way(w, i);
            continue;
        }
        if (header && i == LLVMGetBasicBlockTerminator(bb)) {
            if (!wd_build_masked_exit(w, i, self))
                return false;
            continue;
        }
        if (w->next_block[self] >= 0 && i == LLVMGetBasicBlockTerminator(bb)) {
            if (!wd_build_region_branch(w, i, self))
                return false;
            continue;
        }
        if (w->guarded[self] >= 0 && i == LLVMGetBasicBlockTerminator(bb)) {
            wd_build_guard(w, i, self);
            continue;
        }
        if (w->row_if_join && w->row_if_join[self] >= 0 && i == LLVMGetBasicBlockTerminator(bb)) {
            if (!wd_build_row_if(w, i, self))
                return false;
            continue;
        }
        if (w->decided[self] && i == LLVMGetBasicBlockTerminator(bb) && !wd_uniform(w, LLVMGetCondition(i))) {
            build_decided_branch(w, i, self);
            continue;
        }
        if (LLVMIsAStoreInst(i)) {
            if (wd_uniform(w, LLVMGetOperand(i, 1)) && wd_uniform(w, LLVMGetOperand(i, 0)))
                copy_scalar(w, i);
            else
                widen_store(w, i);
            continue;
        }
        if (LLVMIsAReturnInst(i)) {
            LLVMBuildRetVoid(w->b);
            continue;
        }
        if (LLVMIsACallInst(i) && wd_is_check_access(i)) {
            if (!wd_widen_check_access(w, i))
                return false;
            continue;
        }
        if (LLVMIsACallInst(i) && wd_is_check_barrier(i)) {
            if (!wd_widen_check_barrier(w, i))
                return false;
            continue;
        }
        if (w->shape[k] == VARYING) {
            if (!(w->vector[k] = widen_varying(w, i)))
                return w->why = "an instruction it does not widen", false;
        } else {
            w->scalar[k] = copy_scalar(w, i);
            if (wd_by_row(w, i))
                wd_copy_rows(w, i, k);
        }
    }
    wd_pass_lanes_on(w, self);
    return true;
}

/* The block of K.vec that enters masked loop h, when h is inside an if: its
 * one way in runs after the blocks before it in K.vec's order, whichever
 * of them K.body enters it from (linearize.c). */
static LLVMBasicBlockRef entered_from(widener *w, int h)
{
    LLVMBasicBlockRef latch = wd_end_block(w, pmap_get(&w->bidx, w->latch[h]));
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(w->blocks[h])); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsATerminatorInst(user) && LLVMGetInstructionParent(user) != latch)
            return LLVMGetInstructionParent(user);
    }
    return NULL;
}

static void fill_phis(widener *w)
{
    for (int k = 0; k < w->n; k++) {
        LLVMValueRef p = w->insts[k];
        if (!LLVMIsAPHINode(p))
            continue;
        int self = pmap_get(&w->bidx, LLVMGetInstructionParent(p));
        if (!w->blocks[self])
            continue; /* in a block never reached */
        LLVMValueRef np = w->shape[k] == VARYING ? w->vector[k] : w->scalar[k];
        bool header = w->loop_of[self] == self;
        if (w->region_of[self] >= 0 || w->join_of[self] >= 0)
            continue; /* selects already (select_by_way) */
        for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++) {
            int fi = pmap_get(&w->bidx, LLVMGetIncomingBlock(p, i));
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, i), nfrom = wd_end_block(w, fi);
            LLVMValueRef v = LLVMGetIncomingValue(p, i);
            if (header && w->loop_entry[self] >= 0 && from != w->latch[self])
                nfrom = entered_from(w, self);
            if (!nfrom)
                continue; /* from a block never reached */
            /* a vector built at the end of the incoming block */
            LLVMPositionBuilderBefore(w->b, LLVMGetBasicBlockTerminator(nfrom));
            LLVMValueRef nv = w->shape[k] == VARYING ? wd_vector_value(w, v) : wd_scalar_of(w, v);
            if (header && from == w->latch[self]) /* lanes that left the loop keep their values */
                nv = LLVMBuildSelect(w->b, w->go_on[self], nv, np, "");
            if (w->shape[k] == VARYING && w->rows > 1)
                nv = wd_rows_join_incoming(w, p, fi, nv);
            LLVMAddIncoming(np, &nv, &nfrom, 1);
            if (w->shape[k] != VARYING && wd_by_row(w, p))
                wd_rows_add_incoming(w, k, v, nfrom);
        }
    }
    /* the lanes entering a masked loop: all from outside it, from its latch those that went on */
    for (int h = 0; h < w->nall; h++) {
        if (!w->mask_phi[h])
            continue;
        LLVMBasicBlockRef head = w->blocks[h];
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(head)); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsATerminatorInst(user))
                continue;
            LLVMBasicBlockRef from = LLVMGetInstructionParent(user);
            int around = w->parent_loop[h];
            LLVMValueRef v = from == wd_end_block(w, pmap_get(&w->bidx, w->latch[h])) ? w->go_on[h]
                             : w->loop_entry[h] >= 0 ? wd_lanes_entering(w, h) /* a loop in an if */
                             : around >= 0      ? w->go_on[around] /* those still in the loop around */
                             : w->block_mask[h] ? w->block_mask[h]
                                                : wd_all_lanes(w);
            LLVMAddIncoming(w->mask_phi[h], &v, &from, 1);
        }
    }
}

/* K.body's graph (cfg.h, from the pipeline's analyses) and its blocks in
 * reverse post-order (definitions before uses but phis'); how many the
 * entry reaches (unreachable blocks are not copied), -1 when memory ran
 * out. */
static int reverse_post_order(widener *w)
{
    const mc_cfg *g = w->g = mc_analyses_cfg(w->an, w->body);
    if (!g)
        return -1;
    MOSAIC_ASSERT(g->n == w->nall); /* both number the blocks in layout order */
    for (int i = 0; i < g->nreach; i++)
        w->order[i] = g->blocks[g->rpo[i]];
    return g->nreach;
}

static void widener_free(widener *w)
{
    free(w->insts), free(w->shape), free(w->stride), free(w->scalar), free(w->vector);
    free(w->blocks), free(w->order), free(w->bbs), free(w->rpo);
    free(w->loop_of), free(w->parent_loop), free(w->latch), free(w->go_on), free(w->mask_phi), free(w->loop_entry);
    free(w->guarded), free(w->in_loop), free(w->block_mask), free(w->decided), free(w->out_block);
    free(w->ushape), free(w->ustride);
    free(w->by_row), free(w->row_scalar), free(w->ly_row), free(w->row_if_join), free(w->row_if_of);
    for (int b = 0; w->edge && b < w->nall; b++)
        free(w->edge[b]);
    free(w->region_of), free(w->join_of), free(w->next_block), free(w->edge), free(w->region_mask);
    pmap_free(&w->iidx);
    pmap_free(&w->bidx);
    if (w->b)
        LLVMDisposeBuilder(w->b);
}

/* Does body have a loop (a retreating edge into a block with a phi), with
 * varying_only one that carries a value that differs between work-items
 * (shapes known)? */
static bool has_loop(widener *w, bool varying_only)
{
    for (int i = 0; i < w->n; i++) {
        LLVMValueRef p = w->insts[i];
        if (!LLVMIsAPHINode(p) || (varying_only && w->shape[i] != VARYING))
            continue;
        int b = mc_cfg_block(w->g, LLVMGetInstructionParent(p));
        for (int e = 0; e < w->g->nretreating; e++)
            if (w->g->retreating[e].to == b)
                return true;
    }
    return false;
}

/* Does K.body call checking mode's __mosaic_check_access (wfv_check.c)? */
static bool has_check_calls(widener *w)
{
    for (int i = 0; i < w->n; i++)
        if (LLVMIsACallInst(w->insts[i]) && wd_is_check_access(w->insts[i]))
            return true;
    return false;
}

/* The widest varying value's bits, 0 when there is none. */
static unsigned widest_varying(widener *w)
{
    unsigned bits = 0;
    for (int k = 0; k < w->n; k++) {
        LLVMTypeRef t = LLVMTypeOf(w->insts[k]);
        if (w->shape[k] != VARYING || LLVMGetTypeKind(t) == LLVMVoidTypeKind)
            continue;
        if ((LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1) ||
            LLVMGetTypeKind(t) == LLVMPointerTypeKind)
            continue; /* masks, and the addresses of gathers: as wide as what they serve */
        unsigned b = (unsigned)type_bytes(w, t) * 8;
        bits = b > bits ? b : bits;
    }
    return bits;
}

/* The widest varying value that lives across the kernel's loops (a phi)
 * or comes from memory (a load), 0 when there is none: what fills the
 * registers, where an index computed on the way (a 64-bit offset) is
 * short-lived. */
static unsigned widest_live(widener *w)
{
    unsigned bits = 0;
    for (int k = 0; k < w->n; k++) {
        LLVMValueRef v = w->insts[k];
        LLVMTypeRef t = LLVMTypeOf(v);
        if (w->shape[k] != VARYING || !(LLVMIsAPHINode(v) || LLVMIsALoadInst(v)) ||
            LLVMGetTypeKind(t) == LLVMPointerTypeKind ||
            (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1))
            continue;
        unsigned b = (unsigned)type_bytes(w, t) * 8;
        bits = b > bits ? b : bits;
    }
    return bits;
}

/* Machine vectors per value, from the values that vary and live across
 * the kernel's loops (its phis) or come from memory (its loads). */
static unsigned vectors_per_value(widener *w)
{
    int live = 0;
    for (int k = 0; k < w->n; k++)
        live += w->shape[k] == VARYING && (LLVMIsAPHINode(w->insts[k]) || LLVMIsALoadInst(w->insts[k]));
    return live <= FEW_LIVE_VALUES ? MAX_VECTORS_PER_VALUE : live <= MANY_LIVE_VALUES ? MAX_VECTORS_PER_VALUE / 2 : 1;
}

static bool has_barrier(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (mc_is_barrier_call(i))
            return true;
    return false;
}

/* Is a barrier reachable from the end of block b?  (One in b itself before
 * its branch, as a guard after the kernel's last barrier has it, is not;
 * it is when a loop leads back to b.) */
static bool barrier_after(widener *w, int b)
{
    unsigned char *seen = calloc((size_t)w->nall, 1);
    int *stack = malloc(((size_t)w->nall + 1) * sizeof *stack), sp = 0;
    bool found = !seen || !stack; /* out of memory: as if there were one */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bbs[b]);
    for (unsigned k = 0, n = term && !found ? LLVMGetNumSuccessors(term) : 0; k < n; k++) {
        int x = pmap_get(&w->bidx, LLVMGetSuccessor(term, k));
        if (!seen[x])
            seen[x] = 1, stack[sp++] = x;
    }
    while (sp && !found) {
        int x = stack[--sp];
        found = has_barrier(w->bbs[x]);
        for (int k = 0; k < w->g->nsucc[x] && !found; k++) {
            int y = w->g->succ[x][k];
            if (!seen[y])
                seen[y] = 1, stack[sp++] = y;
        }
    }
    free(seen), free(stack);
    return found;
}

/* K.row: every barrier where all the row's lanes are (not under a lane
 * mask), and no lane returning early before one (it would miss it). */
static bool barriers_row_wide(widener *w)
{
    for (int b = 0; b < w->nall; b++)
        if (w->guarded[b] >= 0 && barrier_after(w, b))
            return w->why = "a work-item may return before a barrier", false;
    for (int j = 0; j < w->n; j++) {
        LLVMValueRef i = w->insts[j];
        int bb = pmap_get(&w->bidx, LLVMGetInstructionParent(i));
        if (mc_is_barrier_call(i) && (w->loop_of[bb] >= 0 || w->region_of[bb] >= 0))
            return w->why = "a barrier under control flow that differs between work-items", false;
    }
    return true;
}

/* K.row: the two-way branches that barriers decide (uniformity.c). */
static bool find_decided_branches(widener *w)
{
    const mc_uniformity *ua = mc_analyses_uniformity(w->an, w->body, LLVMCountParams(w->body) - 3);
    if (!ua)
        return false;
    for (int b = 0; b < w->nall; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bbs[b]);
        w->decided[b] = term && LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
                        mc_barriers_decide(ua, w->bbs[b]);
    }
    return true;
}

/* K.row's lanes: the largest power of two that divides the row, at most
 * `most`; 0 when that is under MIN_ROW_LANES. */
#define MIN_ROW_LANES 4
static unsigned row_lanes(unsigned row, unsigned most)
{
    unsigned lanes = 1;
    while (lanes * 2 <= most && row % (lanes * 2) == 0)
        lanes *= 2;
    return lanes >= MIN_ROW_LANES ? lanes : 0;
}

static bool analyse(widener *w, const mc_kernel_build *kb, unsigned vectors)
{
    if (w->row ? kb->spins || kb->uses_sub_groups || mc_has_image_args(kb)
               : kb->uses_barriers || kb->spins || mc_has_image_args(kb))
        return w->why = w->row ? "sub-groups, images or loops that wait" : "barriers, images or loops that wait", false;
    w->nb = (int)LLVMCountBasicBlocks(w->body);
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(w->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n++;
    w->n = n;
    w->insts = calloc((size_t)n + 1, sizeof *w->insts);
    w->shape = calloc((size_t)n + 1, 1);
    w->stride = calloc((size_t)n + 1, sizeof *w->stride);
    w->scalar = calloc((size_t)n + 1, sizeof *w->scalar);
    w->vector = calloc((size_t)n + 1, sizeof *w->vector);
    w->nall = w->nb;
    w->blocks = calloc((size_t)w->nb + 1, sizeof *w->blocks);
    w->order = calloc((size_t)w->nb + 1, sizeof *w->order);
    w->bbs = calloc((size_t)w->nb + 1, sizeof *w->bbs);
    w->rpo = malloc(((size_t)w->nb + 1) * sizeof *w->rpo);
    w->loop_of = malloc(((size_t)w->nb + 1) * sizeof *w->loop_of);
    w->parent_loop = malloc(((size_t)w->nb + 1) * sizeof *w->parent_loop);
    w->latch = calloc((size_t)w->nb + 1, sizeof *w->latch);
    w->go_on = calloc((size_t)w->nb + 1, sizeof *w->go_on);
    w->mask_phi = calloc((size_t)w->nb + 1, sizeof *w->mask_phi);
    w->loop_entry = malloc(((size_t)w->nb + 1) * sizeof *w->loop_entry);
    w->region_of = malloc(((size_t)w->nb + 1) * sizeof *w->region_of);
    w->join_of = malloc(((size_t)w->nb + 1) * sizeof *w->join_of);
    w->next_block = malloc(((size_t)w->nb + 1) * sizeof *w->next_block);
    w->edge = calloc((size_t)w->nb + 1, sizeof *w->edge);
    w->region_mask = calloc((size_t)w->nb + 1, sizeof *w->region_mask);
    w->guarded = malloc(((size_t)w->nb + 1) * sizeof *w->guarded);
    w->in_loop = calloc((size_t)w->nb + 1, 1);
    w->block_mask = calloc((size_t)w->nb + 1, sizeof *w->block_mask);
    w->decided = calloc((size_t)w->nb + 1, 1);
    w->out_block = calloc((size_t)w->nb + 1, sizeof *w->out_block);
    if (!w->decided || !w->out_block || !w->guarded || !w->in_loop || !w->block_mask ||!w->insts || !w->shape || !w->stride || !w->scalar || !w->vector || !w->blocks || !w->order || !w->bbs ||
        !w->rpo || !w->loop_of || !w->parent_loop || !w->latch || !w->go_on || !w->mask_phi || !w->loop_entry || !w->region_of || !w->join_of ||
        !w->next_block || !w->edge || !w->region_mask ||
        !pmap_init(&w->iidx, (size_t)n) || !pmap_init(&w->bidx, (size_t)w->nb))
        return w->why = "out of memory", false;
    int k = 0, b = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(w->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        w->bbs[b] = bb;
        w->rpo[b] = -1;
        w->loop_of[b] = w->parent_loop[b] = w->loop_entry[b] = -1;
        w->region_of[b] = w->join_of[b] = w->next_block[b] = w->guarded[b] = -1;
        pmap_put(&w->bidx, bb, b++);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!allowed(w, i))
                return false;
            w->insts[k] = i;
            pmap_put(&w->iidx, i, k++);
        }
    }
    int reached = reverse_post_order(w);
    if (reached < 0)
        return w->why = "out of memory", false;
    w->nb = reached;
    for (int i = 0; i < reached; i++)
        w->rpo[pmap_get(&w->bidx, w->order[i])] = i;
    if (!wd_find_loops(w) || !wd_find_by_row(w))
        return w->why = "out of memory", false;
    /* (an x loop is as wide as its row: several rows at once are wider; a
     * checked kernel's x loop has calls, which LLVM's vectoriser leaves) */
    if (!has_loop(w, false) && w->rows < 2 && !has_check_calls(w))
        return w->why = "no loop of its own (the loop over work-items is innermost)", false;
    find_shapes(w);
    /* a barrier kernel's regions whose loops carry only what the row shares
     * (a tile's loads in step) are vectorised well as they are (their x
     * loops are innermost), and K.row would lose bounds_check_versioning.c's versions
     * of them (a stencil's tile loads: 3.6 -> 5.2 ms on 2 cores) */
    if (w->row && !has_loop(w, true) && w->rows < 2)
        return w->why = "no loop carrying a value that differs between work-items", false;
    if (w->row && !find_decided_branches(w))
        return w->why = "out of memory", false;
    /* branches on varying values: guards, ifs whose ways meet again, exits
     * of masked loops; each makes some values vary (phis where ways meet,
     * values carried round a loop the lanes leave in different iterations):
     * shapes again, until no new branch on a varying value turns up.  A
     * branch that cannot be placed yet may be once others are (an if
     * around a masked loop, which comes later in the code) */
    for (bool found = true, refused = false; found || refused;) { /* until every varying branch is placed */
        if (refused && !found)
            return w->why = "control flow that differs between work-items, other than early returns, ifs "
                            "without returns inside, and loops with one exit",
                   false;
        found = refused = false;
        for (int j = 0; j < w->n; j++) {
            LLVMValueRef i = w->insts[j];
            int bb = pmap_get(&w->bidx, LLVMGetInstructionParent(i));
            bool branch = LLVMIsABranchInst(i) && LLVMIsConditional(i), sw = LLVMIsASwitchInst(i);
            if ((!branch && !sw) || wd_uniform(w, LLVMGetOperand(i, 0)) || w->loop_of[bb] == bb ||
                w->next_block[bb] >= 0 || w->region_of[bb] >= 0 || w->guarded[bb] >= 0 || w->decided[bb] ||
                (w->row_if_join && w->row_if_join[bb] >= 0))
                continue;
            if (sw ? !wd_divergent_region(w, bb)
                   : (!wd_guard(w, bb) && !wd_divergent_region(w, bb) && !wd_masked_loop(w, bb) && !wd_row_if(w, bb)))
                refused = true;
            else
                found = true;
        }
        found |= wd_rows_mask_loads(w);
        if (found)
            find_shapes(w);
    }
    bool any_guard = false;
    for (int b = 0; b < w->nall; b++)
        any_guard |= w->guarded[b] >= 0;
    for (int j = 0; j < w->n; j++) {
        LLVMValueRef i = w->insts[j];
        long long st;
        int bb = pmap_get(&w->bidx, LLVMGetInstructionParent(i));
        /* (several rows at once: such a store is a scatter under the mask, wd_rows_store_one_place) */
        if (LLVMIsAStoreInst(i) && (w->loop_of[bb] >= 0 || any_guard) && w->rows < 2 &&
            wd_shape_of(w, LLVMGetOperand(i, 1), &st) == UNIFORM && wd_shape_of(w, LLVMGetOperand(i, 0), &st) != UNIFORM)
            return w->why = "a store of differing values to one place in a masked loop or a kernel with a guard",
                   false;

    }
    if (w->row && !barriers_row_wide(w))
        return false;
    unsigned bits = widest_varying(w);
    if (!bits)
        return w->why = "no value that differs between work-items", false;
    if (!vectors && (vectors = vectors_per_value(w)) == 1) {
        /* so many live values that one machine vector each fills the
         * registers: one vector of the live ones (the float accumulators of
         * a register tile, 16 lanes on AVX-512), not of a wider index */
        unsigned live = widest_live(w);
        bits = live ? live : bits;
    }
    w->lanes = VECTOR_BITS * vectors / (bits < 32 ? 32 : bits);
    if (w->row && w->rows < 2 && !(w->lanes = row_lanes(w->row, w->lanes)))
        return w->why = "rows shorter than 4 work-items, or not a multiple of 4", false;
    wd_find_unclamped_shapes(w);
    return w->rows < 2 || wd_rows_lanes(w, VECTOR_BITS);
}

/* K.body widened to `vectors` machine vectors a value (0: as its live values
 * allow), named K.wi + suffix; for K.row (row: the row's length), up to
 * `rows` rows at once (*rows: how many); NULL and *why when it cannot be. */
static LLVMValueRef widen(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, unsigned vectors, bool tail,
                          unsigned row, unsigned *rows, bool report, const char *suffix, unsigned *lanes,
                          const char **why)
{
    widener w = {.m = m, .c = LLVMGetModuleContext(m), .an = an, .body = kb->body, .tail = tail, .row = row,
                 .rows = rows ? *rows : 1, .chunk = row};
    w.i64 = LLVMInt64TypeInContext(w.c);
    w.i32 = LLVMInt32TypeInContext(w.c);
    LLVMValueRef vec = NULL;
    if (analyse(&w, kb, vectors)) {
        if (row && report) /* for a row whose lanes disagree about a branch that barriers decide */
            w.report_fn = mc_divergence_report(m, kb->wi, &w.kernel_name);
        char name[256];
        snprintf(name, sizeof name, "%s%s", LLVMGetValueName(kb->wi), suffix);
        /* K.body's parameters, and for a tail the number of lanes to run */
        unsigned np = LLVMCountParams(kb->body);
        LLVMTypeRef *params = malloc((np + 1) * sizeof *params);
        if (!params) {
            *lanes = 0, *why = "out of memory";
            widener_free(&w);
            return NULL;
        }
        LLVMGetParamTypes(LLVMGlobalGetValueType(kb->body), params);
        params[np] = w.i64;
        vec = w.vec = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(w.c), params, np + tail, 0));
        free(params);
        LLVMSetLinkage(vec, LLVMInternalLinkage);
        mc_copy_function_attributes(kb->body, vec); /* alwaysinline, nounwind, its parameters' noalias... */
        w.b = LLVMCreateBuilderInContext(w.c);
        for (int i = 0; i < w.nb; i++)
            w.blocks[pmap_get(&w.bidx, w.order[i])] = LLVMAppendBasicBlockInContext(w.c, vec, "");
        LLVMPositionBuilderAtEnd(w.b, w.blocks[pmap_get(&w.bidx, w.order[0])]);
        if (tail) { /* lanes 0 .. count - 1 run */
            LLVMValueRef count = LLVMGetParam(vec, np);
            LLVMValueRef *lane = malloc(w.lanes * sizeof *lane);
            if (lane) {
                for (unsigned i = 0; i < w.lanes; i++)
                    lane[i] = LLVMConstInt(w.i64, i, 0);
                w.tail_mask = LLVMBuildICmp(w.b, LLVMIntULT, LLVMConstVector(lane, w.lanes), wd_splat(&w, count),
                                            "lanes.tail");
                free(lane);
            }
            w.last = LLVMBuildTrunc(w.b, LLVMBuildSub(w.b, count, LLVMConstInt(w.i64, 1, 0), ""), w.i32, "");
        } else {
            w.last = LLVMConstInt(w.i32, w.lanes - 1, 0);
        }
        w.block_mask[pmap_get(&w.bidx, w.order[0])] = w.tail_mask;
        bool ok = (!tail || w.tail_mask) && wd_rows_begin(&w);
        for (int i = 0; i < w.nb && ok; i++)
            ok = build_block(&w, w.order[i]);
        if (ok) {
            fill_phis(&w);
            ok = !LLVMVerifyFunction(vec, LLVMReturnStatusAction);
            if (!ok)
                w.why = "internal error: invalid vector function";
        }
        if (!ok) {
            LLVMDeleteFunction(vec);
            vec = NULL;
        }
    }
    *lanes = vec ? w.lanes : 0;
    if (rows)
        *rows = vec ? w.rows : 0;
    *why = w.why;
    widener_free(&w);
    return vec;
}

bool mc_wfv_takes_wide_vectors(LLVMValueRef body, mc_analyses *an)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
            if (LLVMIsACallInst(i) && !(f && (dropped_intrinsic(f) || wd_widenable_intrinsic(f))))
                return false; /* barriers, builtins, math the widener leaves as calls */
        }
    LLVMValueRef *latches = NULL;
    int loops = mc_back_edges(mc_analyses_cfg(an, body), &latches); /* -1, out of memory: as if there were one */
    free(latches);
    return loops != 0;
}

bool mc_wfv_kernel(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an)
{
    const char *why = NULL;
    kb->vec = widen(m, kb, an, 0, false, 0, NULL, false, ".vec", &kb->vec_lanes, &why);
    /* rows shorter than that, or what is left of them, a machine vector at a
     * time, the last one masked */
    if (kb->vec)
        kb->tail = widen(m, kb, an, 1, true, 0, NULL, false, ".tail", &kb->tail_lanes, &why);
    if (kb->vec && !kb->tail) { /* no tail: nothing widened */
        LLVMDeleteFunction(kb->vec);
        kb->vec = NULL, kb->vec_lanes = 0;
    }
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && kb->vec)
        fprintf(stderr, "mosaic: kernel %s: widened whole, %u work-items of a row at once (the rest %u at a time)\n",
                LLVMGetValueName(kb->wi), kb->vec_lanes, kb->tail_lanes);
    else if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: kernel %s: not widened whole: %s\n", LLVMGetValueName(kb->wi), why);
    return kb->vec != NULL;
}

bool mc_wfv_kernel_rows(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, unsigned vector_registers)
{
    const char *why = NULL;
    unsigned rows = 0, vectors = 0;
    kb->vec_rows = 1;
    LLVMValueRef agree = NULL, body = kb->body;
    LLVMValueRef coarse = mc_coarsen_rows(m, body, an, vector_registers, &rows, &vectors, &agree, &why);
    if (coarse) {
        kb->body = coarse; /* (widen reads K.body, names after K.wi) */
        kb->rows_vec = widen(m, kb, an, vectors, false, 0, NULL, false, ".rows.vec", &kb->rows_vec_lanes, &why);
        if (kb->rows_vec)
            kb->rows_tail = widen(m, kb, an, 1, true, 0, NULL, false, ".rows.tail", &kb->rows_tail_lanes, &why);
        if (kb->rows_vec && !kb->rows_tail) {
            LLVMDeleteFunction(kb->rows_vec);
            kb->rows_vec = NULL, kb->rows_vec_lanes = 0;
        }
        kb->body = body;
        mc_analyses_invalidate(an, coarse);
        LLVMDeleteFunction(coarse); /* its widened copies are what K.wg calls */
    }
    if (kb->rows_vec)
        kb->vec_rows = rows, kb->rows_agree = agree;
    else if (agree)
        LLVMDeleteFunction(agree);
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && kb->rows_vec)
        fprintf(stderr, "mosaic: kernel %s: %u rows at once, %u work-items of each (the rest %u at a time)\n",
                LLVMGetValueName(kb->wi), rows, kb->rows_vec_lanes, kb->rows_tail_lanes);
    else if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: kernel %s: rows not run together: %s\n", LLVMGetValueName(kb->wi), why);
    return kb->rows_vec != NULL;
}

bool mc_wfv_rows(LLVMModuleRef m, mc_kernel_build *kb, size_t row, size_t group_rows, bool report_divergence,
                 mc_analyses *an)
{
    const char *why = "rows longer than 4096 work-items";
    /* a row narrower than a machine vector of bytes, whole in a power-of-two
     * of lanes: with as many of the group's next rows as divide its rows */
    unsigned most = 1;
    while (row >= MIN_ROW_LANES && !(row & (row - 1)) && row * most * 2 * 8 <= VECTOR_BITS &&
           group_rows % (most * 2) == 0)
        most *= 2;
    kb->row = NULL, kb->row_rows = 1;
    if (most > 1) {
        unsigned rows = most;
        kb->row = widen(m, kb, an, 0, false, (unsigned)row, &rows, report_divergence, ".row", &kb->row_lanes, &why);
        kb->row_rows = kb->row ? rows : 1;
        if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && !kb->row)
            fprintf(stderr, "mosaic: kernel %s: rows of %zu not widened several at once: %s\n",
                    LLVMGetValueName(kb->wi), row, why);
    }
    if (!kb->row && row <= 4096)
        kb->row = widen(m, kb, an, 0, false, (unsigned)row, NULL, report_divergence, ".row", &kb->row_lanes, &why);
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && kb->row && kb->row_rows > 1)
        fprintf(stderr, "mosaic: kernel %s: rows of %zu widened, %u rows (%u work-items) at once between barriers\n",
                LLVMGetValueName(kb->wi), row, kb->row_rows, kb->row_lanes);
    else if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && kb->row)
        fprintf(stderr, "mosaic: kernel %s: rows of %zu widened, %u work-items at once between barriers\n",
                LLVMGetValueName(kb->wi), row, kb->row_lanes);
    else if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: kernel %s: rows of %zu not widened: %s\n", LLVMGetValueName(kb->wi), row, why);
    return kb->row != NULL;
}
