/*
 * Work-item and work-group functions.
 *
 * A kernel K, once what must be inlined is (calls.c), has its blocks moved into
 *   internal void K.body(K's parameters..., mosaic_wg_ctx *ctx, u64 lx, u64 ly, u64 lz)
 * where the magic declarations of builtins/builtins.h become ctx and the local
 * id, and each static __local variable becomes ctx->local_mem + offset.  Then
 *   void K.wi(void *const *args, mosaic_wg_ctx *ctx, u64 lx, u64 ly, u64 lz)
 * reads the arguments from args and calls K.body, and, for kernels without
 * barriers,
 *   void K.wg(void *const *args, mosaic_wg_ctx *ctx)
 * reads them once and loops over the work-group calling K.body, innermost x,
 * a loop marked parallel so the vectoriser needs no dependence checks.
 * K.body is inlined into both.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>

#include "compiler/images/images.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/log.h"
#include "compiler/ir/loop_md.h"
#include "compiler/ir/util.h"
#include "compiler/ir/wg_context.h"
#include "compiler/workgroup/implicit_barriers.h"
#include "compiler/workgroup/workgroup.h"

typedef struct wi_env {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    LLVMValueRef body, ctx, lid[3]; /* K.body and its parameters */
    LLVMValueRef local_mem; /* ctx->local_mem, loaded in the entry block */
    LLVMTypeRef i8, i32, i64, ptr;
    unsigned invariant_kind;
    LLVMValueRef empty_md;
    /* static __local variables used by the kernel */
    LLVMValueRef *locals, *repl;
    size_t num_locals, cap_locals;
    mosaic_strbuf *log;
    cl_int err; /* the first failure */
} wi_env;

/* Records a failure of the translation (the first one is returned). */
static void fail(wi_env *e, cl_int err)
{
    if (e->err == CL_SUCCESS)
        e->err = err;
}

static void set_invariant(wi_env *e, LLVMValueRef load)
{
    LLVMSetMetadata(load, e->invariant_kind, e->empty_md);
}

/* The pointer a load produces can be read (`bytes` of it) without a fault, so
 * the loads through it may be hoisted out of conditions and loops. */
static void set_dereferenceable(LLVMContextRef c, LLVMValueRef load, unsigned long long bytes)
{
    LLVMMetadataRef n = LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(c), bytes, 0));
    LLVMSetMetadata(load, LLVMGetMDKindIDInContext(c, "dereferenceable", 15),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &n, 1)));
}

static void set_args_attributes(LLVMContextRef c, LLVMValueRef f, unsigned nargs)
{
    /* args: a read-only array of nargs pointers that nothing else writes */
    LLVMAddAttributeAtIndex(f, 1, LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
    if (nargs)
        LLVMAddAttributeAtIndex(f, 1, LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("dereferenceable", 15),
                                                              8ull * nargs));
    unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
    LLVMAddAttributeAtIndex(f, 1, LLVMCreateEnumAttribute(c, align, 8));
    LLVMAddAttributeAtIndex(f, 2, LLVMCreateEnumAttribute(c, align, 8));
    /* ctx: the whole mosaic_wg_ctx */
    LLVMAddAttributeAtIndex(f, 2, LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("dereferenceable", 15),
                                                          sizeof(mosaic_wg_ctx)));
}

static LLVMValueRef ctx_field(wi_env *e, LLVMBuilderRef b, LLVMValueRef ctx, size_t offset, LLVMTypeRef ty,
                              const char *name)
{
    LLVMValueRef off = LLVMConstInt(e->i64, offset, 0);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, e->i8, ctx, &off, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(b, ty, p, name);
    LLVMSetAlignment(v, 8);
    set_invariant(e, v);
    return v;
}

static bool is_local_global(LLVMValueRef v)
{
    return LLVMIsAGlobalVariable(v) && !LLVMIsDeclaration(v) &&
           LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3;
}

/* Does constant c mention a static __local variable? */
static bool refs_local(LLVMValueRef c, int depth)
{
    if (is_local_global(c))
        return true;
    if (depth > 64 || !(LLVMIsAConstantExpr(c) || LLVMIsAConstantStruct(c) || LLVMIsAConstantArray(c) ||
                        LLVMIsAConstantVector(c)))
        return false;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (refs_local(LLVMGetOperand(c, i), depth + 1))
            return true;
    return false;
}

static void note_local(wi_env *e, LLVMValueRef g)
{
    for (size_t i = 0; i < e->num_locals; i++)
        if (e->locals[i] == g)
            return;
    if (e->num_locals == e->cap_locals) {
        size_t cap = e->cap_locals ? 2 * e->cap_locals : 8;
        LLVMValueRef *l = realloc(e->locals, cap * sizeof *l);
        LLVMValueRef *r = l ? realloc(e->repl, cap * sizeof *r) : NULL;
        if (!l || !r) {
            if (l)
                e->locals = l;
            fail(e, mc_out_of_memory(e->log));
            return;
        }
        e->locals = l;
        e->repl = r;
        e->cap_locals = cap;
    }
    e->locals[e->num_locals] = g;
    e->repl[e->num_locals++] = NULL;
}

static void collect_locals(wi_env *e, LLVMValueRef c, int depth)
{
    if (is_local_global(c)) {
        note_local(e, c);
        return;
    }
    if (depth > 64 || !LLVMIsAConstant(c) || LLVMIsAGlobalValue(c))
        return;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        collect_locals(e, LLVMGetOperand(c, i), depth + 1);
}

static LLVMValueRef replacement_of(wi_env *e, LLVMValueRef g)
{
    for (size_t i = 0; i < e->num_locals; i++)
        if (e->locals[i] == g)
            return e->repl[i];
    return NULL;
}

/* Rebuilds constant c, which mentions static __local variables, as instructions
 * at the builder's position. */
static LLVMValueRef materialize(wi_env *e, LLVMBuilderRef b, LLVMValueRef c, int depth)
{
    if (is_local_global(c))
        return replacement_of(e, c);
    if (!refs_local(c, 0))
        return c;
    if (!LLVMIsAConstantExpr(c) || depth > 64) {
        mosaic_strbuf_puts(e->log, "error: a __local variable is used inside a constant aggregate, which Mosaic "
                                   "does not support yet\n");
        fail(e, CL_BUILD_PROGRAM_FAILURE);
        return c;
    }
    int n = LLVMGetNumOperands(c);
    LLVMValueRef ops[16];
    if (n > 16) {
        mosaic_strbuf_puts(e->log, "error: constant expression too large around a __local variable\n");
        fail(e, CL_BUILD_PROGRAM_FAILURE);
        return c;
    }
    for (int i = 0; i < n; i++)
        ops[i] = materialize(e, b, LLVMGetOperand(c, i), depth + 1);
    LLVMOpcode op = LLVMGetConstOpcode(c);
    LLVMTypeRef ty = LLVMTypeOf(c);
    switch (op) {
    case LLVMGetElementPtr: {
        LLVMTypeRef src = LLVMGetGEPSourceElementType(c);
        return LLVMIsInBounds(c) ? LLVMBuildInBoundsGEP2(b, src, ops[0], ops + 1, (unsigned)n - 1, "")
                                 : LLVMBuildGEP2(b, src, ops[0], ops + 1, (unsigned)n - 1, "");
    }
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast:
        return LLVMBuildCast(b, op, ops[0], ty, "");
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor:
        return LLVMBuildBinOp(b, op, ops[0], ops[1], "");
    case LLVMICmp:
        return LLVMBuildICmp(b, LLVMGetICmpPredicate(c), ops[0], ops[1], "");
    case LLVMSelect:
        return LLVMBuildSelect(b, ops[0], ops[1], ops[2], "");
    case LLVMExtractElement:
        return LLVMBuildExtractElement(b, ops[0], ops[1], "");
    default:
        mosaic_strbuf_printf(e->log, "error: unsupported constant expression (opcode %d) around a __local variable\n",
                             (int)op);
        fail(e, CL_BUILD_PROGRAM_FAILURE);
        return c;
    }
}

static void mark_ctx_loads(wi_env *e, LLVMValueRef v, int depth)
{
    if (depth > 8)
        return;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            set_invariant(e, user);
        else if (LLVMIsAGetElementPtrInst(user) || LLVMIsAAddrSpaceCastInst(user) || LLVMIsABitCastInst(user))
            mark_ctx_loads(e, user, depth + 1);
    }
}

/* Replaces __mosaic_get_ctx(), __mosaic_image(image) and
 * __mosaic_get_local_id(d); finds barriers. */
static void replace_magic_calls(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(e->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef inst = LLVMGetFirstInstruction(bb);
        while (inst) {
            LLVMValueRef next = LLVMGetNextInstruction(inst);
            if (LLVMIsACallInst(inst)) {
                if (mc_calls_named(inst, "__mosaic_get_ctx")) {
                    LLVMPositionBuilderBefore(b, inst);
                    LLVMValueRef v = e->ctx;
                    if (LLVMTypeOf(inst) != LLVMTypeOf(v))
                        v = LLVMBuildAddrSpaceCast(b, v, LLVMTypeOf(inst), "ctx");
                    LLVMReplaceAllUsesWith(inst, v);
                    LLVMInstructionEraseFromParent(inst);
                    mark_ctx_loads(e, v, 0);
                } else if (mc_calls_named(inst, "__mosaic_image")) {
                    /* an image is a pointer to its descriptor, which no work-item writes */
                    LLVMValueRef v = LLVMGetOperand(inst, 0);
                    LLVMReplaceAllUsesWith(inst, v);
                    LLVMInstructionEraseFromParent(inst);
                    mark_ctx_loads(e, v, 0);
                } else if (mc_calls_named(inst, "__mosaic_get_local_id")) {
                    LLVMPositionBuilderBefore(b, inst);
                    LLVMValueRef d = LLVMGetOperand(inst, 0);
                    LLVMValueRef v;
                    if (LLVMIsAConstantInt(d)) {
                        unsigned long long k = LLVMConstIntGetZExtValue(d);
                        v = k < 3 ? e->lid[k] : LLVMConstInt(e->i64, 0, 0);
                    } else {
                        v = LLVMConstInt(e->i64, 0, 0);
                        for (int k = 2; k >= 0; k--) {
                            LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstInt(LLVMTypeOf(d), (unsigned)k, 0), "");
                            v = LLVMBuildSelect(b, is, e->lid[k], v, "");
                        }
                    }
                    if (LLVMTypeOf(v) != LLVMTypeOf(inst))
                        v = LLVMBuildIntCast2(b, v, LLVMTypeOf(inst), 0, "");
                    LLVMReplaceAllUsesWith(inst, v);
                    LLVMInstructionEraseFromParent(inst);
                } else if (mc_calls_named(inst, "__mosaic_barrier")) {
                    kb->uses_barriers = true;
                } else if (mc_calls_named(inst, "__mosaic_sub_group_barrier")) {
                    kb->uses_barriers = kb->uses_sub_groups = true; /* cut into regions like a barrier */
                } else if (mc_calls_named(inst, "__mosaic_sub_group_active")) {
                    kb->uses_barriers = kb->uses_sub_groups = kb->uses_non_uniform = true;
                }
            }
            inst = next;
        }
    }
}

/* Gives every static __local variable of the kernel its offset in the
 * kernel's local area and rewrites its uses (constant expressions included). */
static void replace_static_locals(wi_env *e, LLVMBuilderRef b, LLVMValueRef entry_point, mc_kernel_build *kb)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(e->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
            int n = LLVMGetNumOperands(inst);
            for (int i = 0; i < n; i++)
                collect_locals(e, LLVMGetOperand(inst, i), 0);
        }
    if (e->err != CL_SUCCESS || !e->num_locals)
        return;

    /* Layout, in order of first use. */
    size_t offset = 0;
    LLVMPositionBuilderBefore(b, entry_point);
    for (size_t i = 0; i < e->num_locals; i++) {
        LLVMValueRef g = e->locals[i];
        LLVMTypeRef vt = LLVMGlobalGetValueType(g);
        size_t size = (size_t)LLVMABISizeOfType(e->td, vt);
        size_t align = LLVMABIAlignmentOfType(e->td, vt);
        if (LLVMGetAlignment(g) > align)
            align = LLVMGetAlignment(g);
        if (align > MOSAIC_LOCAL_MEM_ALIGNMENT)
            align = MOSAIC_LOCAL_MEM_ALIGNMENT;
        offset = (offset + align - 1) / align * align;
        LLVMValueRef off = LLVMConstInt(e->i64, offset, 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, e->i8, e->local_mem, &off, 1, "");
        e->repl[i] = LLVMBuildAddrSpaceCast(b, p, LLVMTypeOf(g), LLVMGetValueName(g));
        offset += size;
    }
    kb->static_local_size = offset;

    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(e->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
            int n = LLVMGetNumOperands(inst);
            for (int i = 0; i < n; i++) {
                LLVMValueRef op = LLVMGetOperand(inst, i);
                if (!op || !refs_local(op, 0))
                    continue;
                if (LLVMIsAPHINode(inst))
                    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(inst, (unsigned)i)));
                else
                    LLVMPositionBuilderBefore(b, inst);
                LLVMSetOperand(inst, (unsigned)i, materialize(e, b, op, 0));
            }
        }
}

static void copy_fn_attributes(LLVMValueRef from, LLVMValueRef to)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, LLVMAttributeFunctionIndex);
    if (!n)
        return;
    LLVMAttributeRef *attrs = malloc(n * sizeof *attrs);
    if (!attrs)
        return;
    LLVMGetAttributesAtIndex(from, LLVMAttributeFunctionIndex, attrs);
    for (unsigned i = 0; i < n; i++) {
        if (!LLVMIsStringAttribute(attrs[i])) {
            /* Only semantic enum attributes that still hold for the new function. */
            unsigned kind = LLVMGetEnumAttributeKind(attrs[i]);
            if (kind != LLVMGetEnumAttributeKindForName("nounwind", 8) &&
                kind != LLVMGetEnumAttributeKindForName("mustprogress", 12))
                continue;
        }
        LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attrs[i]);
    }
    free(attrs);
}

static void add_enum_attr(LLVMContextRef c, LLVMValueRef f, LLVMAttributeIndex idx, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(f, idx, LLVMCreateEnumAttribute(c, kind, 0));
}

static char *suffixed_name(LLVMValueRef f, const char *suffix)
{
    mosaic_strbuf s = {0};
    mosaic_strbuf_puts(&s, LLVMGetValueName(f));
    mosaic_strbuf_puts(&s, suffix);
    return s.oom ? (mosaic_strbuf_free(&s), NULL) : mosaic_strbuf_take(&s);
}

/* Loads the kernel's arguments from args (in the builder's block): what the
 * body takes as its first parameters. */
static void unpack_args(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb, LLVMValueRef args, LLVMValueRef ctx,
                        LLVMValueRef *vals)
{
    LLVMValueRef local_mem = NULL;
    for (unsigned i = 0; i < kb->num_args; i++) {
        LLVMTypeRef ty = kb->arg_types[i];
        LLVMValueRef idx = LLVMConstInt(e->i64, i, 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(b, e->ptr, args, &idx, 1, "");
        LLVMValueRef argp = LLVMBuildLoad2(b, e->ptr, slot, "");
        LLVMSetAlignment(argp, 8);
        set_invariant(e, argp);
        LLVMTypeRef bytes = kb->byval_types[i] ? kb->byval_types[i] : ty;
        set_dereferenceable(e->c, argp, LLVMABISizeOfType(e->td, bytes));
        LLVMValueRef v;
        if (kb->byval_types[i]) {
            v = argp; /* the body copies it */
        } else if (LLVMGetTypeKind(ty) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(ty) == 3) {
            if (!local_mem)
                local_mem = ctx_field(e, b, ctx, offsetof(mosaic_wg_ctx, local_mem), e->ptr, "local_mem");
            LLVMValueRef off = LLVMBuildLoad2(b, e->i64, argp, "");
            LLVMSetAlignment(off, 1);
            set_invariant(e, off);
            v = LLVMBuildInBoundsGEP2(b, e->i8, local_mem, &off, 1, "");
            v = LLVMBuildAddrSpaceCast(b, v, ty, "");
        } else if (LLVMGetTypeKind(ty) == LLVMPointerTypeKind) {
            v = LLVMBuildLoad2(b, e->ptr, argp, "");
            LLVMSetAlignment(v, 1);
            set_invariant(e, v);
            /* an image's descriptor is always there: its fields can be read
             * ahead of the code that needs them (hoisted out of the loop) */
            if (kb->arg_info && kb->arg_info[i].kind == MOSAIC_ARG_IMAGE) {
                set_dereferenceable(e->c, v, sizeof(mosaic_image_desc));
                LLVMMetadataRef a = LLVMValueAsMetadata(LLVMConstInt(e->i64, _Alignof(mosaic_image_desc), 0));
                LLVMSetMetadata(v, LLVMGetMDKindIDInContext(e->c, "align", 5),
                                LLVMMetadataAsValue(e->c, LLVMMDNodeInContext2(e->c, &a, 1)));
            }
            if (LLVMGetPointerAddressSpace(ty) != 0)
                v = LLVMBuildAddrSpaceCast(b, v, ty, "");
        } else {
            v = LLVMBuildLoad2(b, ty, argp, "");
            LLVMSetAlignment(v, 1);
            set_invariant(e, v);
        }
        vals[i] = v;
    }
}

static void env_init(wi_env *e, LLVMModuleRef m, mosaic_strbuf *log)
{
    memset(e, 0, sizeof *e);
    e->m = m;
    e->c = LLVMGetModuleContext(m);
    e->td = LLVMGetModuleDataLayout(m);
    e->log = log;
    e->i8 = LLVMInt8TypeInContext(e->c);
    e->i32 = LLVMInt32TypeInContext(e->c);
    e->i64 = LLVMInt64TypeInContext(e->c);
    e->ptr = LLVMPointerTypeInContext(e->c, 0);
    e->invariant_kind = LLVMGetMDKindIDInContext(e->c, "invariant.load", 14);
    e->empty_md = LLVMMetadataAsValue(e->c, LLVMMDNodeInContext2(e->c, NULL, 0));
}

/* Calls K.body with the unpacked arguments. */
static void call_body(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb, LLVMValueRef *vals, LLVMValueRef ctx,
                      LLVMValueRef lx, LLVMValueRef ly, LLVMValueRef lz)
{
    unsigned n = kb->num_args;
    vals[n] = ctx;
    vals[n + 1] = lx;
    vals[n + 2] = ly;
    vals[n + 3] = lz;
    LLVMBuildCall2(b, LLVMGlobalGetValueType(kb->body), kb->body, vals, n + 4, "");
}

void mc_kernel_build_free(mc_kernel_build *kb)
{
    free(kb->arg_types);
    free(kb->byval_types);
    kb->arg_types = kb->byval_types = NULL;
}

cl_int mc_build_wi(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log)
{
    wi_env e;
    env_init(&e, m, log);
    LLVMValueRef k = kb->kernel;
    unsigned n = LLVMCountParams(k);
    kb->num_args = n;
    kb->arg_types = calloc(n + 4, sizeof *kb->arg_types);
    kb->byval_types = calloc(n + 1, sizeof *kb->byval_types);
    LLVMValueRef *vals = calloc(n + 4, sizeof *vals);
    char *body_name = suffixed_name(k, ".body"), *wi_name = suffixed_name(k, ".wi");
    if (!kb->arg_types || !kb->byval_types || !vals || !body_name || !wi_name) {
        free(vals), free(body_name), free(wi_name);
        return mc_out_of_memory(log);
    }
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    LLVMGetParamTypes(LLVMGlobalGetValueType(k), kb->arg_types);
    for (unsigned i = 0; i < n; i++) {
        LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(k, i + 1, byval_kind);
        kb->byval_types[i] = byval ? LLVMGetTypeAttributeValue(byval) : NULL;
    }

    /* K.body(kernel params..., ctx, lx, ly, lz): K's blocks, moved. */
    kb->arg_types[n] = e.ptr;
    kb->arg_types[n + 1] = kb->arg_types[n + 2] = kb->arg_types[n + 3] = e.i64;
    LLVMTypeRef void_ty = LLVMVoidTypeInContext(e.c);
    e.body = LLVMAddFunction(m, body_name, LLVMFunctionType(void_ty, kb->arg_types, n + 4, 0));
    kb->body = e.body;
    LLVMSetLinkage(e.body, LLVMInternalLinkage);
    copy_fn_attributes(k, e.body);
    add_enum_attr(e.c, e.body, LLVMAttributeFunctionIndex, "nounwind");
    add_enum_attr(e.c, e.body, LLVMAttributeFunctionIndex, "alwaysinline");
    e.ctx = LLVMGetParam(e.body, n);
    static const char *const names[4] = {"ctx", "lx", "ly", "lz"};
    for (unsigned i = 0; i < 4; i++)
        LLVMSetValueName2(LLVMGetParam(e.body, n + i), names[i], strlen(names[i]));
    for (int i = 0; i < 3; i++)
        e.lid[i] = LLVMGetParam(e.body, n + 1 + (unsigned)i);
    LLVMBasicBlockRef bb;
    while ((bb = LLVMGetFirstBasicBlock(k))) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(e.body, bb);
    }
    LLVMBasicBlockRef entry = LLVMGetFirstBasicBlock(e.body);
    if (!entry) {
        mosaic_strbuf_printf(log, "error: kernel '%s' has no body\n", LLVMGetValueName(k));
        free(vals), free(body_name), free(wi_name);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(e.c);
    LLVMPositionBuilderBefore(b, first);
    e.local_mem = ctx_field(&e, b, e.ctx, offsetof(mosaic_wg_ctx, local_mem), e.ptr, "local_mem");
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef p = LLVMGetParam(k, i), q = LLVMGetParam(e.body, i);
        size_t len;
        const char *pname = LLVMGetValueName2(p, &len);
        LLVMSetValueName2(q, pname, len);
        if (kb->byval_types[i]) {
            /* Each work-item gets its own copy: it may write it, and args is shared. */
            LLVMTypeRef st = kb->byval_types[i];
            LLVMValueRef copy = LLVMBuildAlloca(b, st, "");
            unsigned align = LLVMABIAlignmentOfType(e.td, st);
            LLVMSetAlignment(copy, align);
            LLVMBuildMemCpy(b, copy, align, q, 1, LLVMConstInt(e.i64, LLVMABISizeOfType(e.td, st), 0));
            LLVMReplaceAllUsesWith(p, copy);
        } else {
            LLVMReplaceAllUsesWith(p, q);
        }
    }
    replace_magic_calls(&e, b, kb);
    mark_ctx_loads(&e, e.ctx, 0);
    /* not before `first`: replace_magic_calls may have erased it (the
     * SPIR-V translator's kernels begin with get_global_id calls) */
    replace_static_locals(&e, b, LLVMGetNextInstruction(e.local_mem), kb);

    /* K.wi(args, ctx, lx, ly, lz) */
    LLVMTypeRef wi_params[5] = {e.ptr, e.ptr, e.i64, e.i64, e.i64};
    LLVMValueRef wi = LLVMAddFunction(m, wi_name, LLVMFunctionType(void_ty, wi_params, 5, 0));
    kb->wi = wi;
    copy_fn_attributes(k, wi);
    add_enum_attr(e.c, wi, LLVMAttributeFunctionIndex, "nounwind");
    set_args_attributes(e.c, wi, n);
    static const char *const wi_names[5] = {"args", "ctx", "lx", "ly", "lz"};
    for (unsigned i = 0; i < 5; i++)
        LLVMSetValueName2(LLVMGetParam(wi, i), wi_names[i], strlen(wi_names[i]));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(e.c, wi, "entry"));
    unpack_args(&e, b, kb, LLVMGetParam(wi, 0), LLVMGetParam(wi, 1), vals);
    call_body(&e, b, kb, vals, LLVMGetParam(wi, 1), LLVMGetParam(wi, 2), LLVMGetParam(wi, 3), LLVMGetParam(wi, 4));
    LLVMBuildRetVoid(b);

    LLVMDisposeBuilder(b);
    free(vals), free(body_name), free(wi_name);
    free(e.locals);
    free(e.repl);
    return e.err;
}

LLVMValueRef mc_wg_begin(LLVMModuleRef m, mc_kernel_build *kb, LLVMBuilderRef b, LLVMValueRef *vals,
                         mosaic_strbuf *log)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    /* "K.wi" -> "K.wg" */
    char *name = suffixed_name(kb->wi, "");
    if (!name)
        return NULL;
    size_t len = strlen(name);
    if (len >= 3 && !strcmp(name + len - 3, ".wi"))
        name[len - 1] = 'g';
    LLVMTypeRef params[2] = {ptr, ptr};
    LLVMValueRef wg = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0));
    free(name);
    copy_fn_attributes(kb->wi, wg);
    add_enum_attr(c, wg, LLVMAttributeFunctionIndex, "nounwind");
    add_enum_attr(c, wg, 2, "noalias");
    set_args_attributes(c, wg, kb->num_args);
    LLVMValueRef args = LLVMGetParam(wg, 0), ctx = LLVMGetParam(wg, 1);
    LLVMSetValueName2(args, "args", 4);
    LLVMSetValueName2(ctx, "ctx", 3);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, wg, "entry"));
    wi_env e;
    env_init(&e, m, log);
    unpack_args(&e, b, kb, args, ctx, vals);
    return wg;
}

/* What is left of __mosaic_get_sub_group_first() in K.body (K.wi, the loop of
 * K.wg without barriers; regions.c maps its own copies) becomes the local
 * linear id rounded down to a multiple of MOSAIC_SUB_GROUP_SIZE, and
 * __mosaic_keep(x) (and __mosaic_keep32) becomes x. */
void mc_lower_sub_group_first(LLVMModuleRef m, mc_kernel_build *kb)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    unsigned n = LLVMCountParams(kb->body) - 4;
    LLVMValueRef ctx = LLVMGetParam(kb->body, n);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (mc_calls_named(inst, "__mosaic_keep") || mc_calls_named(inst, "__mosaic_keep32")) {
                LLVMReplaceAllUsesWith(inst, LLVMGetOperand(inst, 0));
                LLVMInstructionEraseFromParent(inst);
                continue;
            }
            if (!mc_calls_named(inst, "__mosaic_get_sub_group_first"))
                continue;
            LLVMPositionBuilderBefore(b, inst);
            LLVMValueRef size[2];
            for (int d = 0; d < 2; d++) {
                LLVMValueRef off = LLVMConstInt(i64, offsetof(mosaic_wg_ctx, local_size) + 8 * (size_t)d, 0);
                size[d] = LLVMBuildLoad2(b, i64, LLVMBuildInBoundsGEP2(b, i8, ctx, &off, 1, ""), "");
            }
            LLVMValueRef lin = LLVMBuildAdd(
                b, LLVMBuildMul(b, LLVMBuildAdd(b, LLVMBuildMul(b, LLVMGetParam(kb->body, n + 3), size[1], ""),
                                                 LLVMGetParam(kb->body, n + 2), ""), size[0], ""),
                LLVMGetParam(kb->body, n + 1), "");
            LLVMValueRef v = LLVMBuildAnd(b, lin, LLVMConstInt(i64, ~(unsigned long long)(MOSAIC_SUB_GROUP_SIZE - 1), 0),
                                          "sg.first");
            LLVMReplaceAllUsesWith(inst, v);
            LLVMInstructionEraseFromParent(inst);
        }
    LLVMDisposeBuilder(b);
}

/* The fibers' scheduler releases, of the work-items of a sub-group waiting at
 * non-uniform barriers, those at the lowest site first (cpu_device.c): so the
 * sites follow the code's order once it is optimised (what LLVM unrolled
 * is numbered copy by copy), the order the regions' active sets take too
 * (region_active_sets.c: the barriers in K.body's block order), which the
 * machine code's layout need not keep. */
unsigned mc_number_non_uniform_sites(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
            if (mc_calls_named(inst, MC_NON_UNIFORM_BARRIER) && LLVMGetNumArgOperands(inst) == 2) {
                LLVMValueRef site = LLVMGetOperand(inst, 1);
                LLVMSetOperand(inst, 1, LLVMConstInt(LLVMTypeOf(site), ++n, 0));
            }
    return n;
}

#define GENERAL_NEST UINT_MAX /* the nest for any formats */

/* One z, y, x loop nest over the work-group calling K.body with vals, from
 * the end of block pre (no terminator yet) to exit; image arguments marked
 * with their format classes in nest, unless nest is GENERAL_NEST.  Every nest's x
 * loop is parallel with the same access group. */
/* fn (K.vec or K.tail: `lanes` work-items a call) over the row y, z of a
 * group nx wide, from *x while whole blocks fit, or for K.tail (tail) while
 * any work-item is left, passing how many (from the builder's place); *x
 * becomes where they end, and the builder is left after the loop. */
static void build_row_blocks(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb, LLVMValueRef *vals, LLVMValueRef ctx,
                             LLVMValueRef nx, LLVMValueRef y, LLVMValueRef z, LLVMValueRef fn, unsigned lanes,
                             bool tail, LLVMValueRef *x)
{
    LLVMContextRef c = e->c;
    LLVMValueRef wg = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(c, wg, "row.test");
    LLVMBasicBlockRef block = LLVMAppendBasicBlockInContext(c, wg, "row.block");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(c, wg, "row.after");
    LLVMValueRef n_lanes = LLVMConstInt(e->i64, lanes, 0);
    LLVMBuildBr(b, test);
    LLVMPositionBuilderAtEnd(b, test);
    LLVMValueRef x0 = LLVMBuildPhi(b, e->i64, "row.x");
    LLVMValueRef room = LLVMBuildSub(b, nx, x0, ""); /* x0 <= nx */
    LLVMValueRef go = tail ? LLVMBuildICmp(b, LLVMIntNE, room, LLVMConstInt(e->i64, 0, 0), "")
                           : LLVMBuildICmp(b, LLVMIntUGE, room, n_lanes, "");
    LLVMBuildCondBr(b, go, block, after);
    LLVMPositionBuilderAtEnd(b, block);
    unsigned n = kb->num_args;
    vals[n] = ctx, vals[n + 1] = x0, vals[n + 2] = y, vals[n + 3] = z;
    vals[n + 4] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, room, n_lanes, ""), room, n_lanes, "");
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, vals, n + 4 + tail, "");
    LLVMValueRef x1 = LLVMBuildAdd(b, x0, tail ? vals[n + 4] : n_lanes, "row.x.next");
    LLVMValueRef br = LLVMBuildBr(b, test);
    /* parallel like the work-item loop, and already vectors: not again */
    if (kb->access_group)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), mc_vectorised_loop_md(c, kb->access_group));
    LLVMValueRef in[2] = {*x, x1};
    LLVMBasicBlockRef in_from[2] = {from, block};
    LLVMAddIncoming(x0, in, in_from, 2);
    LLVMPositionBuilderAtEnd(b, after);
    *x = x0;
}

/* A row (or K.rows's rows) from x = 0: fn while `lanes` work-items are
 * left, then tail for the rest; then a branch to latch from the block
 * returned. */
static LLVMBasicBlockRef build_row(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb, LLVMValueRef *vals,
                                   LLVMValueRef ctx, LLVMValueRef nx, LLVMValueRef y, LLVMValueRef z, LLVMValueRef fn,
                                   unsigned lanes, LLVMValueRef tail, unsigned tail_lanes, LLVMBasicBlockRef latch)
{
    LLVMValueRef x0 = LLVMConstInt(e->i64, 0, 0);
    build_row_blocks(e, b, kb, vals, ctx, nx, y, z, fn, lanes, false, &x0);
    build_row_blocks(e, b, kb, vals, ctx, nx, y, z, tail, tail_lanes, true, &x0);
    LLVMBuildBr(b, latch);
    return LLVMGetInsertBlock(b);
}

static void build_loop_nest(wi_env *e, LLVMBuilderRef b, mc_kernel_build *kb, LLVMValueRef *vals, LLVMValueRef ctx,
                            LLVMValueRef *n, LLVMBasicBlockRef pre, LLVMBasicBlockRef exit, unsigned nest)
{
    LLVMContextRef c = e->c;
    LLVMTypeRef i64 = e->i64;
    LLVMBasicBlockRef zb = LLVMInsertBasicBlockInContext(c, exit, "z");
    LLVMBasicBlockRef yb = LLVMInsertBasicBlockInContext(c, exit, "y");
    LLVMBasicBlockRef xb = LLVMInsertBasicBlockInContext(c, exit, "x");
    LLVMBasicBlockRef ylatch = LLVMInsertBasicBlockInContext(c, exit, "y.latch");
    LLVMBasicBlockRef zlatch = LLVMInsertBasicBlockInContext(c, exit, "z.latch");
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);

    LLVMPositionBuilderAtEnd(b, pre);
    LLVMValueRef *args = vals;
    LLVMValueRef *marked = NULL;
    if (nest != GENERAL_NEST) {
        marked = malloc((kb->num_args + 4) * sizeof *marked);
        if (marked) {
            memcpy(marked, vals, kb->num_args * sizeof *marked);
            mc_mark_image_class(e->m, b, kb, marked, nest);
            args = marked;
        }
    }
    LLVMBuildBr(b, zb);
    LLVMPositionBuilderAtEnd(b, zb);
    LLVMValueRef z = LLVMBuildPhi(b, i64, "lz");
    LLVMBuildBr(b, yb);
    LLVMPositionBuilderAtEnd(b, yb);
    LLVMValueRef y = LLVMBuildPhi(b, i64, "ly");
    LLVMValueRef ystep = one;
    if (kb->vec && nest == GENERAL_NEST) {
        /* rows of K.vec, then K.tail for what is left: no loop of K.body;
         * with K.rows, vec_rows rows at once while that many are left */
        LLVMBasicBlockRef rows_end = NULL, row_end;
        LLVMValueRef rows = NULL;
        if (kb->rows_vec) {
            rows = LLVMConstInt(i64, kb->vec_rows, 0);
            LLVMBasicBlockRef many = LLVMInsertBasicBlockInContext(c, ylatch, "y.rows");
            LLVMBasicBlockRef single = LLVMInsertBasicBlockInContext(c, ylatch, "y.row");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, n[1], y, ""), rows, ""), many, single);
            LLVMPositionBuilderAtEnd(b, many);
            if (kb->rows_agree) { /* rows that branch alike on the row (a guard's `row < m`), else one by one */
                LLVMBasicBlockRef agree = LLVMInsertBasicBlockInContext(c, ylatch, "y.rows.agree");
                unsigned n_args = kb->num_args;
                args[n_args] = ctx, args[n_args + 1] = zero, args[n_args + 2] = y, args[n_args + 3] = z;
                LLVMValueRef same = LLVMBuildCall2(b, LLVMGlobalGetValueType(kb->rows_agree), kb->rows_agree, args,
                                                   n_args + 4, "rows.agree");
                LLVMBuildCondBr(b, same, agree, single);
                LLVMPositionBuilderAtEnd(b, agree);
            }
            rows_end = build_row(e, b, kb, args, ctx, n[0], y, z, kb->rows_vec, kb->rows_vec_lanes, kb->rows_tail,
                                 kb->rows_tail_lanes, ylatch);
            LLVMPositionBuilderAtEnd(b, single);
        }
        row_end = build_row(e, b, kb, args, ctx, n[0], y, z, kb->vec, kb->vec_lanes, kb->tail, kb->tail_lanes, ylatch);
        LLVMDeleteBasicBlock(xb);
        if (rows) {
            LLVMPositionBuilderAtEnd(b, ylatch);
            ystep = LLVMBuildPhi(b, i64, "ly.step");
            LLVMValueRef in[2] = {rows, one};
            LLVMBasicBlockRef from[2] = {rows_end, row_end};
            LLVMAddIncoming(ystep, in, from, 2);
        }
    } else {
        LLVMBuildBr(b, xb);
        LLVMPositionBuilderAtEnd(b, xb);
        LLVMValueRef x = LLVMBuildPhi(b, i64, "lx");
        call_body(e, b, kb, args, ctx, x, y, z);
        LLVMValueRef xn = LLVMBuildNUWAdd(b, x, one, "lx.next");
        LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xn, n[0], ""), xb, ylatch);
        /* The work-item loop is parallel: !llvm.loop !{self, !{"llvm.loop.parallel_accesses", group}}. */
        if (kb->access_group)
            LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), mc_parallel_loop_md(c, kb->access_group, 0));
        LLVMValueRef xin[2] = {zero, xn};
        LLVMBasicBlockRef xfrom[2] = {yb, xb};
        LLVMAddIncoming(x, xin, xfrom, 2);
    }
    free(marked);

    LLVMPositionBuilderAtEnd(b, ylatch);
    LLVMValueRef yn = LLVMBuildNUWAdd(b, y, ystep, "ly.next");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, yn, n[1], ""), yb, zlatch);
    LLVMPositionBuilderAtEnd(b, zlatch);
    LLVMValueRef zn = LLVMBuildNUWAdd(b, z, one, "lz.next");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, zn, n[2], ""), zb, exit);

    LLVMValueRef zin[2] = {zero, zn}, yin[2] = {zero, yn};
    LLVMBasicBlockRef zfrom[2] = {pre, zlatch}, yfrom[2] = {zb, ylatch};
    LLVMAddIncoming(z, zin, zfrom, 2);
    LLVMAddIncoming(y, yin, yfrom, 2);
}

cl_int mc_build_wg(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMValueRef *vals = calloc(kb->num_args + 5, sizeof *vals);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef wg = vals ? mc_wg_begin(m, kb, b, vals, log) : NULL;
    if (!wg) {
        free(vals);
        LLVMDisposeBuilder(b);
        return mc_out_of_memory(log);
    }
    kb->wg = wg;
    LLVMValueRef ctx = LLVMGetParam(wg, 1);
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(c, wg, "exit");

    LLVMValueRef n[3];
    for (int d = 0; d < 3; d++)
        n[d] = mc_load_local_size(b, ctx, d);
    wi_env e;
    env_init(&e, m, log);
    kb->access_group = mc_distinct_empty_node(c);

    if (kb->specialise_images && mc_has_image_args(kb)) {
        /* a nest per common image format, tested once per work-group (image_formats.c) */
        LLVMBasicBlockRef test = entry;
        for (unsigned nest = 0; nest < mc_image_nests(kb); nest++) {
            LLVMPositionBuilderAtEnd(b, test);
            LLVMValueRef is = mc_images_have_class(b, kb, vals, nest);
            LLVMBasicBlockRef nest_bb = LLVMInsertBasicBlockInContext(c, exit, "format.nest");
            LLVMBasicBlockRef next = LLVMInsertBasicBlockInContext(c, exit, "format.test");
            LLVMBuildCondBr(b, is, nest_bb, next);
            build_loop_nest(&e, b, kb, vals, ctx, n, nest_bb, exit, nest);
            test = next;
        }
        build_loop_nest(&e, b, kb, vals, ctx, n, test, exit, GENERAL_NEST);
    } else {
        build_loop_nest(&e, b, kb, vals, ctx, n, entry, exit, GENERAL_NEST);
    }
    LLVMPositionBuilderAtEnd(b, exit);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    free(vals);
    return CL_SUCCESS;
}

/* Is p (perhaps) an address in private memory (an alloca)? */
static bool maybe_private(LLVMValueRef p, int depth)
{
    if (depth > 16)
        return true;
    if (LLVMIsAAllocaInst(p))
        return true;
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
        return maybe_private(LLVMGetOperand(p, 0), depth + 1);
    if (LLVMIsAConstantExpr(p)) {
        LLVMOpcode op = LLVMGetConstOpcode(p);
        if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
            return maybe_private(LLVMGetOperand(p, 0), depth + 1);
        return false;
    }
    if (LLVMIsAPHINode(p)) {
        unsigned n = LLVMCountIncoming(p);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef v = LLVMGetIncomingValue(p, i);
            if (v != p && maybe_private(v, depth + 1))
                return true;
        }
        return false;
    }
    if (LLVMIsASelectInst(p))
        return maybe_private(LLVMGetOperand(p, 1), depth + 1) || maybe_private(LLVMGetOperand(p, 2), depth + 1);
    if (LLVMIsAIntToPtrInst(p))
        return true;
    /* arguments, globals, loaded pointers, calls: not a private variable */
    return false;
}

void mc_annotate_wg(LLVMModuleRef m, mc_kernel_build *kb)
{
    if (!kb->wg)
        return;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMMetadataRef ag = kb->access_group;
    if (!ag)
        return;
    unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
    LLVMValueRef agv = LLVMMetadataAsValue(c, ag);
    /* Work-items share nothing between barriers except through atomics (which
     * the vectoriser leaves alone anyway) and memory they must not race on; a
     * private variable, though, is one alloca for the whole loop after
     * inlining, so its accesses stay unmarked. */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kb->wg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef p = NULL;
            if (LLVMIsALoadInst(i))
                p = LLVMGetOperand(i, 0);
            else if (LLVMIsAStoreInst(i))
                p = LLVMGetOperand(i, 1);
            else
                continue;
            if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic || maybe_private(p, 0))
                continue;
            if (LLVMGetMetadata(i, kind))
                continue; /* keep the user's own access groups */
            LLVMSetMetadata(i, kind, agv);
        }
}
