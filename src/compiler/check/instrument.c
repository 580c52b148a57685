/*
 * Checking mode's instrumentation (MOSAIC_CHECK, docs/check.md).
 *
 * Before each access of memory that work-items may share or overrun, a
 * kernel built for checking calls the device's __mosaic_check_access with
 * the address, the bytes, what the access does and where the pointer comes
 * from (compiler.h, "Checking mode"); before each work-group barrier it
 * calls __mosaic_check_barrier, before each sub-group barrier (sub-group
 * functions' too) __mosaic_check_sub_group_barrier.  Each call site has a
 * constant mosaic_check_site: the kernel and the source line and column
 * (clang's line tables: the front end adds -gline-tables-only under
 * checking).
 *
 * It runs on the program's functions once the builtins are inlined into
 * them, and the program's own functions where the pass `inline` will
 * inline them (finalize.c), before the calls left get the work-item
 * context: the work-item's context and local id come from
 * __mosaic_get_ctx() and __mosaic_get_local_id(d), which become K.body's
 * parameters (mc_build_wi), or those a function left as a call is then
 * given (calls.c, mc_pass_context), like the builtins' own.
 * What the builtins read of the context (the group's sizes, its scratch,
 * image descriptors) is Mosaic's, not the program's: accesses whose
 * pointer comes from a call are left alone.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "base/settings.h"
#include "compiler/check/check.h"
#include "compiler/ir/cfg.h"
#include "compiler/compiler.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"

/* What own_element found of a parameter: kind 0 (no), 1 (p[get_global_id(0)]),
 * 2 + w (p[y * w + get_global_id(0)]: y get_global_id(1), rows 1, or a row
 * of a loop over rows R * get_global_id(1) to R * get_global_id(1) + R - 1,
 * rows R). */
typedef struct own {
    unsigned kind;
    uint64_t rows;
    bool mirrored; /* the row's elements backwards: y * w + w - 1 - get_global_id(0) */
    bool guarded;  /* every access under get_global_id(0) < w */
} own;

typedef struct instrumenter {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    LLVMBuilderRef b;
    unsigned kinds; /* MOSAIC_CHECK_* */
    LLVMTypeRef i32, i64, ptr, site_type, access_type, barrier_type;
    LLVMValueRef access_fn, barrier_fn, sub_group_barrier_fn, get_ctx, get_local_id;
    LLVMValueRef kernel_name; /* of the function being instrumented */
    LLVMMetadataRef file;     /* the source file of the last site, and */
    LLVMValueRef file_name;   /* its name's string (one per file, not per site) */
    bool kernel;              /* it is a kernel: its parameters are the launch's arguments */
    bool unknown_writes;      /* the program may write through a pointer of unknown origin */
    bool *read_only;          /* per parameter of the kernel: nothing writes through it (only_reads) */
    own *own_element;         /* per parameter: every access through it at its work-item's own element */
    LLVMValueRef *own_block;  /* per parameter: its blocks (own_blocks.c), a constant mosaic_check_block, or NULL */
    LLVMTypeRef block_type;
    mc_cfg *cfg;              /* the function's graph, while it is instrumented */
    LLVMValueRef scratch;     /* the function's slot for private accesses out of bounds (keep_inside), once made */
    unsigned count;           /* call sites added */
    mc_local_objects *locals; /* a kernel's __local objects only it reaches (local_objects.c), or NULL */
} instrumenter;

static unsigned address_space(LLVMValueRef p) { return LLVMGetPointerAddressSpace(LLVMTypeOf(p)); }

/* A private constant C string in the module. */
static LLVMValueRef string(instrumenter *in, const char *text, size_t len)
{
    LLVMValueRef s = LLVMConstStringInContext(in->c, text, (unsigned)len, 0);
    LLVMValueRef g = LLVMAddGlobal(in->m, LLVMTypeOf(s), "__mosaic_check_text");
    LLVMSetInitializer(g, s);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(g, 1);
    return g;
}

/* The constant mosaic_check_site of inst (object: what its pointer comes
 * from, NULL when nothing to name; size: its bytes, 0 when not known;
 * slot: the __local object's slot, or NULL). */
static LLVMValueRef site_of(instrumenter *in, LLVMValueRef inst, const char *object, uint64_t size,
                            const mc_slot *slot, uint64_t own_rows, LLVMValueRef block)
{
    LLVMValueRef null = LLVMConstNull(in->ptr), file = null;
    unsigned line = 0, column = 0;
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
    if (loc && LLVMGetMetadataKind(loc) == LLVMDILocationMetadataKind) {
        line = LLVMDILocationGetLine(loc);
        column = LLVMDILocationGetColumn(loc);
        LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
        LLVMMetadataRef f = scope ? LLVMDIScopeGetFile(scope) : NULL;
        if (f && f != in->file) { /* (DIFiles are uniqued: one node per file) */
            unsigned len = 0;
            const char *name = LLVMDIFileGetFilename(f, &len);
            in->file = f;
            in->file_name = name && len ? string(in, name, len) : NULL;
        }
        if (f && in->file_name)
            file = in->file_name;
    }
    LLVMValueRef stride[3], loops[MOSAIC_CHECK_SLOT_LOOPS];
    for (int d = 0; d < 3; d++)
        stride[d] = LLVMConstInt(in->i64, slot ? (uint64_t)slot->stride[d] : 0, 1);
    for (int j = 0; j < MOSAIC_CHECK_SLOT_LOOPS; j++) {
        const mosaic_check_slot_loop *l = slot ? &slot->loop[j] : &(mosaic_check_slot_loop){0};
        int64_t words[9] = {l->stride, l->lid[0], l->lid[1], l->lid[2], l->first,
                            l->step,   l->bound,  l->split,  l->split_stride};
        LLVMValueRef w[9];
        for (int i = 0; i < 9; i++)
            w[i] = LLVMConstInt(in->i64, (uint64_t)words[i], 1);
        loops[j] = LLVMConstArray(in->i64, w, 9);
    }
    LLVMValueRef fields[12] = {
        in->kernel_name,
        file,
        LLVMConstInt(in->i32, line, 0),
        LLVMConstInt(in->i32, column, 0),
        object ? string(in, object, strlen(object)) : null,
        LLVMConstInt(in->i64, size, 0),
        LLVMConstArray(in->i64, stride, 3),
        LLVMConstInt(in->i64, slot ? slot->bytes : 0, 0),
        LLVMConstInt(in->i64, own_rows, 0),
        LLVMConstArray(LLVMArrayType(in->i64, 9), loops, MOSAIC_CHECK_SLOT_LOOPS),
        LLVMConstInt(in->i64, slot ? (uint64_t)slot->plane : 0, 1),
        block ? block : null,
    };
    LLVMValueRef v = LLVMConstNamedStruct(in->site_type, fields, 12);
    LLVMValueRef g = LLVMAddGlobal(in->m, in->site_type, "__mosaic_check_site");
    LLVMSetInitializer(g, v);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* The builder before inst, with inst's source location. */
static void at(instrumenter *in, LLVMValueRef inst)
{
    LLVMPositionBuilderBefore(in->b, inst);
    LLVMSetCurrentDebugLocation2(in->b, LLVMInstructionGetDebugLoc(inst));
}

/* ctx, lx, ly, lz at the builder's position. */
static void work_item(instrumenter *in, LLVMValueRef *args)
{
    LLVMValueRef ctx = LLVMBuildCall2(in->b, LLVMGlobalGetValueType(in->get_ctx), in->get_ctx, NULL, 0, "");
    if (LLVMTypeOf(ctx) != in->ptr)
        ctx = LLVMBuildAddrSpaceCast(in->b, ctx, in->ptr, "");
    args[0] = ctx;
    LLVMTypeRef lid_type = LLVMGlobalGetValueType(in->get_local_id);
    LLVMTypeRef dim_type = LLVMCountParamTypes(lid_type) ? NULL : in->i32;
    if (!dim_type) {
        LLVMTypeRef params[1];
        LLVMGetParamTypes(lid_type, params);
        dim_type = params[0];
    }
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef dim = LLVMConstInt(dim_type, d, 0);
        LLVMValueRef l = LLVMBuildCall2(in->b, lid_type, in->get_local_id, &dim, 1, "");
        args[1 + d] = LLVMTypeOf(l) == in->i64 ? l : LLVMBuildZExt(in->b, l, in->i64, "");
    }
}

/* ---- which kernel arguments only read -------------------------------------------------------------------
 * A read through a kernel argument that nothing in the launch writes cannot
 * race, so the device need not track it (MOSAIC_CHECK_ARG_READ_ONLY).  An
 * argument only reads when each use of it, through GEPs, casts, phis and
 * selects, is a load's address, a comparison or a memcpy's source; and when
 * the program writes through no pointer whose origin is unknown (loaded from
 * memory, made from an integer, returned by a call of the program's): such a
 * pointer might point anywhere.  Pointers that reach a helper function's
 * parameter count where the helper is called. */

/* Is p's root (root_of) one whose writes the per-argument walk sees: a
 * kernel's or function's parameter, a private or program-scope variable? */
static bool origin_known(LLVMValueRef p)
{
    bool unused = true;
    LLVMValueRef root = mc_pointer_root(p, &unused);
    if (LLVMIsAArgument(root) || LLVMIsAAllocaInst(root) || LLVMIsAGlobalVariable(root) || LLVMIsAConstant(root))
        return true;
    if (LLVMIsACallInst(root)) /* Mosaic's context, an image's descriptor: a declaration's result */
        return !mc_called_function(root) || LLVMIsDeclaration(mc_called_function(root));
    return false;
}

static uint64_t store_size(instrumenter *in, LLVMTypeRef t) { return LLVMStoreSizeOfType(in->td, t); }

static bool is_pointer(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind; }

/* Does the program write through, or pass to a function, a pointer to
 * global or generic memory of unknown origin? */
static bool writes_unknown(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || mc_is_outlined_builtin(f))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef p[8];
                int n = 0;
                switch (LLVMGetInstructionOpcode(i)) {
                case LLVMStore: p[n++] = LLVMGetOperand(i, 1); break;
                case LLVMAtomicRMW: case LLVMAtomicCmpXchg: p[n++] = LLVMGetOperand(i, 0); break;
                case LLVMCall: {
                    LLVMValueRef callee = mc_called_function(i);
                    const char *name = callee ? LLVMGetValueName(callee) : "";
                    if (mc_copies(name) || mc_fills(name)) {
                        p[n++] = LLVMGetOperand(i, 0);
                        break;
                    }
                    if (!strncmp(name, "llvm.", 5))
                        break;
                    for (int a = 0, na = LLVMGetNumArgOperands(i); a < na && n < 8; a++)
                        if (is_pointer(LLVMGetOperand(i, (unsigned)a)))
                            p[n++] = LLVMGetOperand(i, (unsigned)a);
                    if (LLVMGetNumArgOperands(i) > 8)
                        return true;
                    break;
                }
                default: break;
                }
                for (int k = 0; k < n; k++) {
                    unsigned as = address_space(p[k]);
                    if ((as == AS_GLOBAL || as == AS_GENERIC) && !origin_known(p[k]))
                        return true;
                }
            }
    }
    return false;
}

/* Do the uses of v (a kernel's parameter, or what it became) only read? */
static bool only_reads(LLVMValueRef v, int depth)
{
    if (depth > 32)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            return false;
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMLoad: case LLVMICmp:
            continue;
        case LLVMGetElementPtr:
            if (LLVMGetOperand(user, 0) != v)
                return false;
            /* fall through */
        case LLVMBitCast: case LLVMAddrSpaceCast:
            if (!only_reads(user, depth + 1))
                return false;
            continue;
        case LLVMPHI: case LLVMSelect: /* (a phi of a loop sees itself: depth ends that) */
            if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == v)
                return false;
            if (!only_reads(user, depth + 4))
                return false;
            continue;
        case LLVMCall: {
            LLVMValueRef callee = mc_called_function(user);
            const char *name = callee ? LLVMGetValueName(callee) : "";
            if (mc_copies(name) && LLVMGetOperand(user, 0) != v)
                continue;
            if (!strncmp(name, "llvm.prefetch", 13) || !strncmp(name, "llvm.lifetime.", 14))
                continue;
            return false;
        }
        default:
            return false;
        }
    }
    return true;
}

/* ---- which kernel arguments each work-item reaches at its own element -----------------------------------
 * A kernel argument every access of which is p[get_global_id(0)], loads and
 * stores of p's element type, gives each work-item of a one-dimensional
 * launch bytes no other work-item reaches through it: such accesses cannot
 * race (MOSAIC_CHECK_ARG_OWN_ELEMENT, the device checks the launch's shape).
 * So does p[y * w + get_global_id(0)] (or the row backwards), w an integer
 * argument and y get_global_id(1) or the row of a loop over that
 * work-item's own rows (own_row), in a two-dimensional launch no wider
 * than w.
 * At this point get_global_id(0) is the builtin inlined:
 * ctx->group_id[0] * ctx->enqueued_local_size[0] + __mosaic_get_local_id(0)
 * + ctx->global_offset[0], perhaps made an int and back. */

/* Is v a load of the context's field at byte `offset`? */
static bool context_field(instrumenter *in, LLVMValueRef v, size_t offset)
{
    LLVMValueRef root = mc_context_root(v);
    return root && mc_offset_from(LLVMGetOperand(v, 0), root, in->td) == (int64_t)offset;
}

/* Is v get_global_id(d), as the builtin inlined makes it? */
static bool global_id(instrumenter *in, LLVMValueRef v, unsigned d)
{
    LLVMValueRef terms[4];
    int n = 0;
    LLVMValueRef pending[4] = {mc_without_int_casts(v)};
    int np = 1;
    while (np) { /* the terms of a sum */
        LLVMValueRef t = pending[--np];
        if (LLVMIsABinaryOperator(t) && LLVMGetInstructionOpcode(t) == LLVMAdd) {
            if (np + 2 > 4)
                return false;
            pending[np++] = LLVMGetOperand(t, 0);
            pending[np++] = LLVMGetOperand(t, 1);
        } else if (n < 4) {
            terms[n++] = t;
        } else {
            return false;
        }
    }
    bool lid = false, group = false, offset = false;
    size_t at = d * sizeof(size_t);
    for (int k = 0; k < n; k++) {
        LLVMValueRef t = terms[k];
        if (LLVMIsACallInst(t) && mc_called_function(t) == in->get_local_id && LLVMIsAConstantInt(LLVMGetOperand(t, 0)) &&
            LLVMConstIntGetZExtValue(LLVMGetOperand(t, 0)) == d && !lid) {
            lid = true;
        } else if (LLVMIsABinaryOperator(t) && LLVMGetInstructionOpcode(t) == LLVMMul && !group) {
            LLVMValueRef a = LLVMGetOperand(t, 0), b = LLVMGetOperand(t, 1);
            group = (context_field(in, a, offsetof(mosaic_wg_ctx, group_id) + at) &&
                     context_field(in, b, offsetof(mosaic_wg_ctx, enqueued_local_size) + at)) ||
                    (context_field(in, b, offsetof(mosaic_wg_ctx, group_id) + at) &&
                     context_field(in, a, offsetof(mosaic_wg_ctx, enqueued_local_size) + at));
            if (!group)
                return false;
        } else if (context_field(in, t, offsetof(mosaic_wg_ctx, global_offset) + at) && !offset) {
            offset = true;
        } else {
            return false;
        }
    }
    return lid && group && offset;
}

/* v, or a constant multiple of it (*r the constant, at least 1). */
static LLVMValueRef multiple_of(LLVMValueRef v, uint64_t *r)
{
    v = mc_without_int_casts(v);
    *r = 1;
    if (!LLVMIsABinaryOperator(v))
        return v;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    for (unsigned k = 0; k < 2 && (op == LLVMMul || (op == LLVMShl && k == 0)); k++) {
        LLVMValueRef c = LLVMGetOperand(v, !k);
        if (!LLVMIsAConstantInt(c))
            continue;
        int64_t f = LLVMConstIntGetSExtValue(c);
        if (op == LLVMShl)
            f = f >= 0 && f < 16 ? (int64_t)1 << f : 0;
        if (f < 1 || f > (1 << 16))
            return NULL;
        *r = (uint64_t)f;
        return mc_without_int_casts(LLVMGetOperand(v, k));
    }
    return v;
}

/* Is v get_global_id(1) (*rows 1), or the row y of a loop over rows
 * y = R * get_global_id(1) on, by 1, while y < min(that + R, ...) (*rows
 * R), where block `at` is inside the loop's body? */
static bool own_row(instrumenter *in, LLVMValueRef v, LLVMBasicBlockRef at, uint64_t *rows)
{
    v = mc_without_int_casts(v);
    *rows = 1;
    if (global_id(in, v, 1))
        return true;
    if (!LLVMIsAPHINode(v) || LLVMCountIncoming(v) != 2 || !in->cfg)
        return false;
    LLVMBasicBlockRef header = LLVMGetInstructionParent(v);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(header);
    LLVMValueRef cond = br && LLVMIsABranchInst(br) && LLVMIsConditional(br) ? LLVMGetCondition(br) : NULL;
    if (!cond || !LLVMIsAICmpInst(cond) || LLVMGetOperand(cond, 0) != v ||
        (LLVMGetICmpPredicate(cond) != LLVMIntSLT && LLVMGetICmpPredicate(cond) != LLVMIntULT))
        return false;
    int body = mc_cfg_block(in->cfg, LLVMGetSuccessor(br, 0)), here = mc_cfg_block(in->cfg, at);
    if (body < 0 || here < 0 || LLVMGetSuccessor(br, 0) == header || !mc_dominates(in->cfg, body, here))
        return false;
    /* the start, R * get_global_id(1), and the step, y + 1 */
    LLVMValueRef start = NULL;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef next = LLVMGetIncomingValue(v, !k);
        if (LLVMIsABinaryOperator(next) && LLVMGetInstructionOpcode(next) == LLVMAdd && LLVMGetOperand(next, 0) == v &&
            LLVMIsAConstantInt(LLVMGetOperand(next, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(next, 1)) == 1)
            start = LLVMGetIncomingValue(v, k);
    }
    uint64_t r;
    LLVMValueRef id = start ? multiple_of(start, &r) : NULL;
    if (!id || !global_id(in, id, 1))
        return false;
    /* the bound: start + R, or the min of it and something */
    LLVMValueRef bound = LLVMGetOperand(cond, 1);
    if (LLVMIsACallInst(bound)) {
        LLVMValueRef f = mc_called_function(bound);
        const char *name = f ? LLVMGetValueName(f) : "";
        if (strncmp(name, "llvm.smin.", 10) && strncmp(name, "llvm.umin.", 10))
            return false;
        LLVMValueRef a = LLVMGetOperand(bound, 0), b = LLVMGetOperand(bound, 1);
        bound = LLVMIsABinaryOperator(a) && LLVMGetOperand(a, 0) == start ? a : b;
    }
    if (!LLVMIsABinaryOperator(bound) || LLVMGetInstructionOpcode(bound) != LLVMAdd ||
        LLVMGetOperand(bound, 0) != start || !LLVMIsAConstantInt(LLVMGetOperand(bound, 1)) ||
        LLVMConstIntGetSExtValue(LLVMGetOperand(bound, 1)) != (int64_t)r)
        return false;
    *rows = r;
    return true;
}

/* The parameter's index + 1 (1 .. MOSAIC_CHECK_OWN_ROW_MAX) of w, an
 * integer parameter of the kernel, else 0. */
static unsigned width_parameter(LLVMValueRef w)
{
    w = mc_without_int_casts(w);
    if (!LLVMIsAArgument(w) || LLVMGetTypeKind(LLVMTypeOf(w)) != LLVMIntegerTypeKind)
        return 0;
    LLVMValueRef fn = LLVMGetParamParent(w);
    for (unsigned i = 0; i < LLVMCountParams(fn) && i < MOSAIC_CHECK_OWN_ROW_MAX; i++)
        if (LLVMGetParam(fn, i) == w)
            return i + 1;
    return 0;
}

/* Is row y * w, w an integer parameter of the kernel (a row's width) and
 * y own_row's?  w's index + 1, else 0; *rows: own_row's. */
static unsigned row_start(instrumenter *in, LLVMValueRef row, LLVMBasicBlockRef at, uint64_t *rows)
{
    row = mc_without_int_casts(row);
    if (!LLVMIsABinaryOperator(row) || LLVMGetInstructionOpcode(row) != LLVMMul)
        return 0;
    for (unsigned k = 0; k < 2; k++) {
        unsigned w = width_parameter(LLVMGetOperand(row, k));
        if (w && own_row(in, LLVMGetOperand(row, !k), at, rows))
            return w;
    }
    return 0;
}

/* The operands of binary operation v of opcode op (after int casts), or false. */
static bool operands(LLVMValueRef v, LLVMOpcode op, LLVMValueRef *a, LLVMValueRef *b)
{
    v = mc_without_int_casts(v);
    if (!LLVMIsABinaryOperator(v) || LLVMGetInstructionOpcode(v) != op)
        return false;
    *a = LLVMGetOperand(v, 0), *b = LLVMGetOperand(v, 1);
    return true;
}

/* Is v y * w + get_global_id(0), or y * w + w - 1 - get_global_id(0) (a
 * row read backwards: *mirrored), w an integer parameter of the kernel and
 * y own_row's?  w's index + 1, else 0; *rows: own_row's. */
static unsigned row_and_column(instrumenter *in, LLVMValueRef v, LLVMBasicBlockRef at, uint64_t *rows, bool *mirrored)
{
    LLVMValueRef a, b, c, d;
    *mirrored = false;
    if (operands(v, LLVMAdd, &a, &b))
        for (unsigned side = 0; side < 2; side++)
            if (global_id(in, side ? a : b, 0)) {
                unsigned w = row_start(in, side ? b : a, at, rows);
                if (w)
                    return w;
            }
    /* (y * w + w) - 1 - x */
    if (!operands(v, LLVMSub, &a, &b) || !global_id(in, b, 0) || !operands(a, LLVMSub, &a, &c) ||
        !LLVMIsAConstantInt(c) || LLVMConstIntGetSExtValue(c) != 1 || !operands(a, LLVMAdd, &c, &d))
        return 0;
    for (unsigned side = 0; side < 2; side++) {
        unsigned w = width_parameter(side ? c : d), row = row_start(in, side ? d : c, at, rows);
        if (w && w == row) {
            *mirrored = true;
            return w;
        }
    }
    return 0;
}

/* Does condition c, `holds` or not, say get_global_id(0) < w (w: the
 * parameter whose index + 1 is `width`)?  `x < w`, `w > x`, not `x >= w`,
 * and either side of an `&&` that holds or of an `||` that does not. */
static bool says_x_below(instrumenter *in, LLVMValueRef c, bool holds, unsigned width, int depth)
{
    if (depth > 4)
        return false;
    if (LLVMIsAICmpInst(c)) {
        LLVMIntPredicate p = LLVMGetICmpPredicate(c);
        if (!holds)
            p = mc_inverse_predicate(p);
        LLVMValueRef x = LLVMGetOperand(c, 0), w = LLVMGetOperand(c, 1);
        if (p == LLVMIntSGT || p == LLVMIntUGT) /* (w > x) */
            x = LLVMGetOperand(c, 1), w = LLVMGetOperand(c, 0), p = LLVMIntSLT;
        return (p == LLVMIntSLT || p == LLVMIntULT) && width_parameter(w) == width && global_id(in, x, 0);
    }
    LLVMValueRef side[2];
    return mc_both_sides(c, holds, side) &&
           (says_x_below(in, side[0], holds, width, depth + 1) || says_x_below(in, side[1], holds, width, depth + 1));
}

/* Does every run of block bb pass a test that says get_global_id(0) < w? */
static bool under_x_below(instrumenter *in, LLVMBasicBlockRef bb, unsigned width)
{
    int ways[64], n = in->cfg ? mc_cfg_deciding_ways(in->cfg, mc_cfg_block(in->cfg, bb), ways, 64) : 0;
    for (int i = 0; i < n; i++)
        if (says_x_below(in, LLVMGetCondition(LLVMGetBasicBlockTerminator(in->cfg->blocks[ways[i] / 2])), !(ways[i] & 1),
                         width, 0))
            return true;
    return false;
}

/* Is every use of kernel parameter v p[get_global_id(0)], or every one
 * p[y * w + get_global_id(0)] (or every one the row backwards) with the
 * same parameter w and the same rows (own_row), loaded or stored as p's
 * element type (or a narrower one)? */
static own own_element(instrumenter *in, LLVMValueRef v)
{
    own none = {0, 0, false, false}, found = {0, 0, false, false};
    if (!is_pointer(v) || address_space(v) != AS_GLOBAL || !LLVMGetFirstUse(v))
        return none;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef gep = LLVMGetUser(u);
        if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetNumOperands(gep) != 2 || LLVMGetOperand(gep, 0) != v)
            return none;
        LLVMValueRef index = LLVMGetOperand(gep, 1);
        own this = {global_id(in, index, 0) ? 1 : 0, 0, false, false};
        if (!this.kind) {
            unsigned width = row_and_column(in, index, LLVMGetInstructionParent(gep), &this.rows, &this.mirrored);
            this.kind = width ? width + 1 : 0;
            this.guarded = width && !this.mirrored && under_x_below(in, LLVMGetInstructionParent(gep), width);
        }
        if (!this.kind ||
            (found.kind && (this.kind != found.kind || this.rows != found.rows || this.mirrored != found.mirrored)))
            return none;
        this.guarded &= !found.kind || found.guarded;
        found = this;
        uint64_t element = LLVMABISizeOfType(in->td, LLVMGetGEPSourceElementType(gep));
        for (LLVMUseRef e = LLVMGetFirstUse(gep); e; e = LLVMGetNextUse(e)) {
            LLVMValueRef access = LLVMGetUser(e);
            if (LLVMIsALoadInst(access) && !LLVMGetVolatile(access) &&
                LLVMGetOrdering(access) == LLVMAtomicOrderingNotAtomic &&
                store_size(in, LLVMTypeOf(access)) <= element)
                continue;
            if (LLVMIsAStoreInst(access) && LLVMGetOperand(access, 1) == gep && !LLVMGetVolatile(access) &&
                LLVMGetOrdering(access) == LLVMAtomicOrderingNotAtomic &&
                store_size(in, LLVMTypeOf(LLVMGetOperand(access, 0))) <= element)
                continue;
            return none;
        }
    }
    return found;
}

/* The blocks of kernel parameter v (own_blocks.c), a constant of the
 * module, or NULL where its accesses are not inside them. */
static LLVMValueRef own_block(instrumenter *in, LLVMValueRef v)
{
    mosaic_check_block b;
    if (!is_pointer(v) || address_space(v) != AS_GLOBAL || !mc_own_block(v, in->td, in->cfg, &b))
        return NULL;
    LLVMTypeRef term_type = LLVMGetElementType(LLVMStructGetTypeAtIndex(in->block_type, 6));
    LLVMValueRef terms[MOSAIC_CHECK_BLOCK_TERMS];
    for (int i = 0; i < MOSAIC_CHECK_BLOCK_TERMS; i++) {
        LLVMValueRef f[4] = {LLVMConstInt(in->i64, (uint64_t)b.term[i].factor, 1),
                             LLVMConstInt(in->i64, (uint64_t)b.term[i].extent, 1),
                             LLVMConstInt(in->i32, b.term[i].kind, 0), LLVMConstInt(in->i32, b.term[i].flags, 0)};
        terms[i] = LLVMConstStructInContext(in->c, f, 4, 0);
    }
    LLVMValueRef fields[7] = {LLVMConstInt(in->i32, b.num_terms, 0), LLVMConstInt(in->i32, b.width, 0),
                              LLVMConstInt(in->i64, (uint64_t)b.base, 1), LLVMConstInt(in->i64, (uint64_t)b.base_w, 1),
                              LLVMConstInt(in->i64, b.bytes, 0), LLVMConstInt(in->i64, b.folded_bytes, 0),
                              LLVMConstArray(term_type, terms, MOSAIC_CHECK_BLOCK_TERMS)};
    LLVMValueRef g = LLVMAddGlobal(in->m, in->block_type, "__mosaic_check_block");
    LLVMSetInitializer(g, LLVMConstNamedStruct(in->block_type, fields, 7));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* A private array's access out of its bounds, once reported, goes to a
 * scratch slot instead: it would overwrite the worker's stack (the
 * context's address kept there, say) and take the process down, where the
 * report is all a checked run should give.  Loads and stores (others are
 * left as they are). */
enum { SCRATCH_BYTES = 128 };

static void keep_inside(instrumenter *in, LLVMValueRef inst, LLVMValueRef p, LLVMValueRef base, LLVMValueRef bytes,
                        uint64_t size)
{
    unsigned op = LLVMIsALoadInst(inst) ? 0 : LLVMIsAStoreInst(inst) ? 1 : 2;
    if (op == 2 || !LLVMIsAConstantInt(bytes) || LLVMConstIntGetZExtValue(bytes) > SCRATCH_BYTES ||
        LLVMGetOperand(inst, op) != p)
        return;
    if (!in->scratch) {
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
        LLVMBuilderRef b = LLVMCreateBuilderInContext(in->c);
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        in->scratch = LLVMBuildAlloca(b, LLVMArrayType(LLVMInt8TypeInContext(in->c), SCRATCH_BYTES), "check.scratch");
        LLVMSetAlignment(in->scratch, 64);
        LLVMDisposeBuilder(b);
    }
    LLVMValueRef lo = LLVMBuildPtrToInt(in->b, base, in->i64, "");
    LLVMValueRef at = LLVMBuildPtrToInt(in->b, p, in->i64, "");
    LLVMValueRef end = LLVMBuildAdd(in->b, at, bytes, "");
    LLVMValueRef inside = LLVMBuildAnd(in->b, LLVMBuildICmp(in->b, LLVMIntUGE, at, lo, ""),
                                       LLVMBuildICmp(in->b, LLVMIntULE, end, LLVMBuildAdd(in->b, lo,
                                                     LLVMConstInt(in->i64, size, 0), ""), ""), "");
    LLVMValueRef scratch = in->scratch;
    if (LLVMTypeOf(scratch) != LLVMTypeOf(p))
        scratch = LLVMBuildAddrSpaceCast(in->b, scratch, LLVMTypeOf(p), "");
    LLVMSetOperand(inst, op, LLVMBuildSelect(in->b, inside, p, scratch, "check.inside"));
}

/* Adds the call that checks an access of `bytes` (an i64 value) at p by
 * inst, `what` its MOSAIC_CHECK_READ/WRITE/ATOMIC bits. */
static void check_access(instrumenter *in, LLVMValueRef inst, LLVMValueRef p, LLVMValueRef bytes, uint64_t what)
{
    bool constant_offset = true;
    LLVMValueRef root = mc_pointer_root(p, &constant_offset);
    unsigned as = address_space(p);
    uint64_t space, from = MOSAIC_CHECK_FROM_UNKNOWN;
    const char *object = NULL;
    char name[256];
    uint64_t size = 0, own_rows = 0;
    LLVMValueRef base = LLVMConstNull(in->ptr), block = NULL;
    if (LLVMIsACallInst(root) || LLVMIsAInvokeInst(root))
        return; /* the context, an image's descriptor: Mosaic's */
    if (LLVMIsALoadInst(root)) {
        bool unused = true;
        LLVMValueRef from_ptr = mc_pointer_root(LLVMGetOperand(root, 0), &unused);
        if (LLVMIsACallInst(from_ptr))
            return; /* a pointer the context holds (the group's scratch) */
    }
    if (LLVMIsAAllocaInst(root)) {
        /* a private array: its bounds only, and only at indices not known when compiling */
        LLVMTypeRef t = LLVMGetAllocatedType(root);
        if (!(in->kinds & MOSAIC_CHECK_BOUNDS) || constant_offset ||
            (LLVMGetTypeKind(t) != LLVMArrayTypeKind && LLVMGetTypeKind(t) != LLVMStructTypeKind) ||
            !LLVMIsAConstant(LLVMGetOperand(root, 0)))
            return;
        space = MOSAIC_CHECK_PRIVATE;
        from = MOSAIC_CHECK_FROM_OBJECT;
        size = LLVMABISizeOfType(in->td, t) * LLVMConstIntGetZExtValue(LLVMGetOperand(root, 0));
        base = root;
        /* (inside by its loops' bounds: no call, which would keep the array in memory) */
        if (LLVMIsAConstantInt(bytes) &&
            mc_offset_inside(p, root, inst, in->td, in->cfg, LLVMConstIntGetZExtValue(bytes), size))
            return;
    } else if (LLVMIsAGlobalVariable(root)) {
        unsigned gas = address_space(root);
        if (gas != AS_LOCAL && (constant_offset || !(in->kinds & MOSAIC_CHECK_BOUNDS)))
            return; /* a program-scope variable: its bounds, where the index is not known */
        space = gas == AS_LOCAL ? MOSAIC_CHECK_LOCAL : gas == AS_CONSTANT ? MOSAIC_CHECK_CONSTANT : MOSAIC_CHECK_GLOBAL;
        from = MOSAIC_CHECK_FROM_OBJECT;
        size = LLVMABISizeOfType(in->td, LLVMGlobalGetValueType(root));
        size_t len;
        const char *g = LLVMGetValueName2(root, &len);
        /* clang names a kernel's __local variable KERNEL.NAME */
        const char *dot = memchr(g, '.', len);
        snprintf(name, sizeof name, "%.*s", (int)(dot ? len - (size_t)(dot + 1 - g) : len), dot ? dot + 1 : g);
        object = name;
        base = root;
    } else if (LLVMIsAArgument(root) && in->kernel) {
        unsigned ras = address_space(root);
        space = ras == AS_LOCAL ? MOSAIC_CHECK_LOCAL : ras == AS_CONSTANT ? MOSAIC_CHECK_CONSTANT : MOSAIC_CHECK_GLOBAL;
        if (ras == AS_PRIVATE)
            return;
        LLVMValueRef fn = LLVMGetParamParent(root);
        for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
            if (LLVMGetParam(fn, i) == root)
                from = i;
        if (in->read_only && from < LLVMCountParams(fn) && in->read_only[from] && what == MOSAIC_CHECK_READ &&
            space != MOSAIC_CHECK_LOCAL)
            what |= MOSAIC_CHECK_ARG_READ_ONLY;
        if (in->own_element && from < LLVMCountParams(fn) && in->own_element[from].kind) {
            what |= MOSAIC_CHECK_ARG_OWN_ELEMENT | (uint64_t)(in->own_element[from].kind - 1) << MOSAIC_CHECK_OWN_ROW_SHIFT;
            own_rows = in->own_element[from].rows | (in->own_element[from].guarded ? MOSAIC_CHECK_OWN_ROWS_GUARDED : 0);
        } else if (in->own_block && from < LLVMCountParams(fn) && in->own_block[from]) {
            what |= MOSAIC_CHECK_ARG_OWN_BLOCK;
            block = in->own_block[from];
        }
    } else {
        /* a pointer loaded from memory, chosen by a select or phi, made
         * from an integer, a helper function's parameter: the device finds
         * what it points into */
        if (as == AS_PRIVATE)
            return;
        space = as == AS_LOCAL ? MOSAIC_CHECK_LOCAL : as == AS_CONSTANT ? MOSAIC_CHECK_CONSTANT
                : as == AS_GENERIC ? MOSAIC_CHECK_GENERIC : MOSAIC_CHECK_GLOBAL;
    }
    if (space != MOSAIC_CHECK_PRIVATE && !(in->kinds & (MOSAIC_CHECK_RACES | MOSAIC_CHECK_BOUNDS | MOSAIC_CHECK_UNINIT |
                                                          MOSAIC_CHECK_SCOPES)))
        return;
    if (what & MOSAIC_CHECK_ATOMIC)
        what |= (uint64_t)mc_check_scope_of(inst) << MOSAIC_CHECK_SCOPE_SHIFT;
    mc_slot slot = {0};
    if (space == MOSAIC_CHECK_LOCAL && in->locals)
        what |= mc_local_marks(in->locals, inst, p, &slot);
    uint64_t how = what | space << MOSAIC_CHECK_SPACE_SHIFT | from << MOSAIC_CHECK_FROM_SHIFT;
    at(in, inst);
    LLVMValueRef args[9];
    work_item(in, args);
    args[4] = address_space(p) == 0 ? p : LLVMBuildAddrSpaceCast(in->b, p, in->ptr, "");
    args[5] = address_space(base) == 0 ? base : LLVMBuildAddrSpaceCast(in->b, base, in->ptr, "");
    args[6] = bytes;
    args[7] = LLVMConstInt(in->i64, how, 0);
    args[8] = site_of(in, inst, object, size, slot.bytes ? &slot : NULL, own_rows, block);
    LLVMBuildCall2(in->b, in->access_type, in->access_fn, args, 9, "");
    in->count++;
    if (space == MOSAIC_CHECK_PRIVATE)
        keep_inside(in, inst, p, base, bytes, size);
}

static void instrument_instruction(instrumenter *in, LLVMValueRef inst)
{
    LLVMValueRef i64 = NULL;
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMLoad: {
        bool atomic = LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic;
        i64 = LLVMConstInt(in->i64, store_size(in, LLVMTypeOf(inst)), 0);
        check_access(in, inst, LLVMGetOperand(inst, 0), i64, MOSAIC_CHECK_READ | (atomic ? MOSAIC_CHECK_ATOMIC : 0));
        return;
    }
    case LLVMStore: {
        bool atomic = LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic;
        i64 = LLVMConstInt(in->i64, store_size(in, LLVMTypeOf(LLVMGetOperand(inst, 0))), 0);
        check_access(in, inst, LLVMGetOperand(inst, 1), i64, MOSAIC_CHECK_WRITE | (atomic ? MOSAIC_CHECK_ATOMIC : 0));
        return;
    }
    case LLVMAtomicRMW:
        i64 = LLVMConstInt(in->i64, store_size(in, LLVMTypeOf(inst)), 0);
        check_access(in, inst, LLVMGetOperand(inst, 0), i64, MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE | MOSAIC_CHECK_ATOMIC);
        return;
    case LLVMAtomicCmpXchg:
        i64 = LLVMConstInt(in->i64, store_size(in, LLVMTypeOf(LLVMGetOperand(inst, 1))), 0);
        check_access(in, inst, LLVMGetOperand(inst, 0), i64, MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE | MOSAIC_CHECK_ATOMIC);
        return;
    case LLVMCall: {
        LLVMValueRef callee = mc_called_function(inst);
        size_t len = 0;
        const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
        bool group = !strcmp(name, "__mosaic_barrier"), sub_group = !strcmp(name, "__mosaic_sub_group_barrier");
        if ((group || sub_group) && (in->kinds & (MOSAIC_CHECK_BARRIERS | MOSAIC_CHECK_RACES))) {
            at(in, inst);
            LLVMValueRef args[5];
            work_item(in, args);
            args[4] = site_of(in, inst, NULL, 0, NULL, 0, NULL);
            LLVMBuildCall2(in->b, in->barrier_type, group ? in->barrier_fn : in->sub_group_barrier_fn, args, 5, "");
            in->count++;
        } else if (mc_copies(name) || mc_fills(name)) { /* (dest, source or value, length) */
            LLVMValueRef n = LLVMGetOperand(inst, 2);
            if (LLVMTypeOf(n) != in->i64) {
                at(in, inst);
                n = LLVMBuildZExt(in->b, n, in->i64, "");
            }
            if (mc_copies(name))
                check_access(in, inst, LLVMGetOperand(inst, 1), n, MOSAIC_CHECK_READ);
            check_access(in, inst, LLVMGetOperand(inst, 0), n, MOSAIC_CHECK_WRITE);
        }
        return;
    }
    default:
        return;
    }
}

static LLVMValueRef function(instrumenter *in, const char *name, LLVMTypeRef type)
{
    LLVMValueRef f = LLVMGetNamedFunction(in->m, name);
    return f ? f : LLVMAddFunction(in->m, name, type);
}

cl_int mc_instrument_for_checking(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *kernels, size_t nk,
                                  unsigned kinds, unsigned *sites, mosaic_strbuf *log)
{
    instrumenter in = {.m = m, .c = LLVMGetModuleContext(m), .td = td, .kinds = kinds};
    in.i32 = LLVMInt32TypeInContext(in.c);
    in.i64 = LLVMInt64TypeInContext(in.c);
    in.ptr = LLVMPointerTypeInContext(in.c, 0);
    /* (mosaic_check_site: a slot loop is 9 int64_t, as [9 x i64]) */
    _Static_assert(sizeof(mosaic_check_slot_loop) == 9 * sizeof(int64_t), "mosaic_check_slot_loop: 9 words");
    LLVMTypeRef site_fields[12] = {in.ptr, in.ptr, in.i32, in.i32, in.ptr, in.i64, LLVMArrayType(in.i64, 3),
                                   in.i64, in.i64,
                                   LLVMArrayType(LLVMArrayType(in.i64, 9), MOSAIC_CHECK_SLOT_LOOPS), in.i64, in.ptr};
    in.site_type = LLVMStructCreateNamed(in.c, "mosaic_check_site");
    LLVMStructSetBody(in.site_type, site_fields, 12, 0);
    /* (mosaic_check_block: two i32, four i64, its terms of two i64 and two i32) */
    _Static_assert(offsetof(mosaic_check_block, term) == 40 && sizeof(mosaic_check_block_term) == 24,
                   "mosaic_check_block's layout");
    LLVMTypeRef term_fields[4] = {in.i64, in.i64, in.i32, in.i32};
    LLVMTypeRef term_type = LLVMStructTypeInContext(in.c, term_fields, 4, 0);
    LLVMTypeRef block_fields[7] = {in.i32, in.i32, in.i64, in.i64, in.i64, in.i64,
                                   LLVMArrayType(term_type, MOSAIC_CHECK_BLOCK_TERMS)};
    in.block_type = LLVMStructCreateNamed(in.c, "mosaic_check_block");
    LLVMStructSetBody(in.block_type, block_fields, 7, 0);
    LLVMTypeRef access_params[9] = {in.ptr, in.i64, in.i64, in.i64, in.ptr, in.ptr, in.i64, in.i64, in.ptr};
    in.access_type = LLVMFunctionType(LLVMVoidTypeInContext(in.c), access_params, 9, 0);
    in.barrier_type = LLVMFunctionType(LLVMVoidTypeInContext(in.c), access_params, 5, 0);
    in.access_fn = function(&in, "__mosaic_check_access", in.access_type);
    in.barrier_fn = function(&in, "__mosaic_check_barrier", in.barrier_type);
    in.sub_group_barrier_fn = function(&in, "__mosaic_check_sub_group_barrier", in.barrier_type);
    in.get_ctx = function(&in, "__mosaic_get_ctx", LLVMFunctionType(in.ptr, NULL, 0, 0));
    in.get_local_id = function(&in, "__mosaic_get_local_id", LLVMFunctionType(in.i64, &in.i32, 1, 0));
    in.b = LLVMCreateBuilderInContext(in.c);
    in.unknown_writes = writes_unknown(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || mc_is_outlined_builtin(f))
            continue;
        in.kernel = false;
        for (size_t k = 0; k < nk; k++)
            in.kernel |= kernels[k] == f;
        free(in.read_only);
        in.read_only = in.kernel && !in.unknown_writes ? calloc(LLVMCountParams(f) + 1, sizeof *in.read_only) : NULL;
        free(in.own_element);
        in.own_element = in.read_only ? calloc(LLVMCountParams(f) + 1, sizeof *in.own_element) : NULL;
        for (unsigned p = 0; in.read_only && p < LLVMCountParams(f); p++)
            in.read_only[p] = only_reads(LLVMGetParam(f, p), 0);
        /* (the kernel's graph, and the marks, are found before any call is added) */
        bool locals = in.kernel && (kinds & (MOSAIC_CHECK_RACES | MOSAIC_CHECK_SCOPES));
        in.cfg = in.own_element || locals || (kinds & MOSAIC_CHECK_BOUNDS) ? mc_cfg_new(f) : NULL;
        for (unsigned p = 0; in.own_element && p < LLVMCountParams(f); p++)
            in.own_element[p] = own_element(&in, LLVMGetParam(f, p));
        free(in.own_block);
        in.own_block = in.own_element ? calloc(LLVMCountParams(f) + 1, sizeof *in.own_block) : NULL;
        for (unsigned p = 0; in.own_block && p < LLVMCountParams(f); p++)
            if (!in.own_element[p].kind && !in.read_only[p])
                in.own_block[p] = own_block(&in, LLVMGetParam(f, p));
        char name[256];
        mc_source_name(LLVMGetValueName(f), name, sizeof name);
        in.kernel_name = string(&in, name, strlen(name));
        in.scratch = NULL;
        in.locals = locals ? mc_find_local_objects(f, td, in.cfg) : NULL;
        /* (what the walk adds is before the instruction it checks: it sees each once; it
         * adds no block, so the graph stays right) */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
                instrument_instruction(&in, inst);
        mc_cfg_free(in.cfg);
        in.cfg = NULL;
        mc_local_objects_free(in.locals);
    }
    LLVMDisposeBuilder(in.b);
    free(in.read_only);
    free(in.own_element);
    free(in.own_block);
    *sites = in.count;
    (void)log;
    return CL_SUCCESS;
}
