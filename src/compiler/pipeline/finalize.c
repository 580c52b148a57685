/*
 * Building one object: the passes of the finalize path (executable bitcode
 * -> object code), each a step of its own here, and their run functions,
 * which passes.def lists in the CPU device's order and pipeline.c runs:
 *
 *   check, link the builtin library, retarget to the host, inline ->
 *   kernel metadata -> K.wi -> K.wg (work-group functions) -> versions of
 *   row loops, vector math, alignment, safe division -> optimise ->
 *   post-optimiser passes -> object code
 *
 * docs/compiler.md describes them.  jit.c loads the object code (or a
 * cached copy of it, object_cache.c) into an ORC LLJIT.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/check/check.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/options.h"
#include "compiler/frontend/printf.h"
#include "compiler/images/images.h"
#include "compiler/ir/host_functions.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/remarks.h"
#include "compiler/ir/util.h"
#include "compiler/pipeline/one_size.h"
#include "compiler/vectorize/vecmath.h"
#include "compiler/vectorize/vectorize.h"
#include "compiler/workgroup/calls.h"
#include "compiler/workgroup/coarsening.h"
#include "compiler/workgroup/local_size.h"
#include "compiler/workgroup/passes.h"
#include "compiler/workgroup/workgroup.h"
#include "compiler/pipeline/pipeline.h"

/* Links in the builtin library files the program calls into (and those they
 * call into): only the functions used are read and linked. */
static cl_int link_builtins(LLVMContextRef ctx, LLVMModuleRef m, mosaic_strbuf *log)
{
    size_t nfiles = mc_builtin_file_count();
    unsigned char *needed = calloc(nfiles ? nfiles : 1, 1);
    if (!needed)
        return mc_out_of_memory(log);
    cl_int r = CL_SUCCESS;
    for (;;) {
        /* which files define a function that is still only declared? */
        bool any = false;
        memset(needed, 0, nfiles);
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
            if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f))
                continue;
            int k = mc_builtin_file_of(LLVMGetValueName(f));
            if (k >= 0)
                needed[k] = any = true;
        }
        if (!any)
            break;
        for (size_t k = 0; k < nfiles && r == CL_SUCCESS; k++) {
            if (!needed[k])
                continue;
            LLVMModuleRef b;
            r = mc_load_builtin_file(ctx, k, &b, log);
            if (r != CL_SUCCESS)
                break;
            /* linkonce_odr: the linker takes only what is referenced */
            for (LLVMValueRef g = LLVMGetFirstFunction(b); g; g = LLVMGetNextFunction(g))
                if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
                    LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
            for (LLVMValueRef g = LLVMGetFirstGlobal(b); g; g = LLVMGetNextGlobal(g))
                if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
                    LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
            LLVMSetTarget(b, LLVMGetTarget(m));
            LLVMSetDataLayout(b, LLVMGetDataLayoutStr(m));
            if (LLVMLinkModules2(m, b)) { /* consumes b */
                mosaic_strbuf_puts(log, "error: cannot link the builtin library into the program\n");
                r = CL_BUILD_PROGRAM_FAILURE;
            }
        }
        if (r != CL_SUCCESS)
            break;
    }
    free(needed);
    return r;
}

static size_t global_variables_size(LLVMModuleRef m, LLVMTargetDataRef td)
{
    size_t total = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 1)
            total += (size_t)LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    return total;
}

/* The alignment a scalar of type t needs: vectors, arrays and structs need
 * only their elements'. */
static unsigned scalar_alignment(LLVMTargetDataRef td, LLVMTypeRef t, int depth)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVectorTypeKind:
    case LLVMArrayTypeKind:
        return depth > 8 ? 1 : scalar_alignment(td, LLVMGetElementType(t), depth + 1);
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t), a = 1;
        for (unsigned i = 0; i < n && depth <= 8; i++) {
            unsigned e = scalar_alignment(td, LLVMStructGetTypeAtIndex(t, i), depth + 1);
            a = e > a ? e : a;
        }
        return a;
    }
    default:
        return LLVMABIAlignmentOfType(td, t);
    }
}

static bool may_be_user_memory(LLVMValueRef p)
{
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
    return as == 1 || as == 2 || as == 4;
}

/* Global, constant and generic memory may be a CL_MEM_USE_HOST_PTR buffer
 * around memory the application aligned only to 16 bytes (malloc), while
 * OpenCL C gives a float16 an alignment of 64: loads, stores and memory
 * intrinsics through such pointers keep only their elements' alignment, so
 * code generation never uses aligned vector moves on them (unaligned ones
 * are as fast on aligned data). */
static void clamp_alignment(LLVMModuleRef m, LLVMTargetDataRef td)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) {
                    LLVMValueRef p = LLVMGetOperand(i, LLVMIsALoadInst(i) ? 0 : 1);
                    if (!may_be_user_memory(p))
                        continue;
                    LLVMTypeRef t = LLVMIsALoadInst(i) ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 0));
                    unsigned want = scalar_alignment(td, t, 0);
                    if (LLVMGetAlignment(i) > want)
                        LLVMSetAlignment(i, want);
                    continue;
                }
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
                    continue;
                const char *name = LLVMGetValueName(callee);
                if (strncmp(name, "llvm.memcpy", 11) && strncmp(name, "llvm.memmove", 12) &&
                    strncmp(name, "llvm.memset", 11))
                    continue;
                for (unsigned a = 0; a < 2; a++) { /* destination, source */
                    if (a == 1 && !strncmp(name, "llvm.memset", 11))
                        break;
                    LLVMValueRef p = LLVMGetOperand(i, a);
                    LLVMAttributeRef attr = LLVMGetCallSiteEnumAttribute(i, a + 1, align_kind);
                    if (!may_be_user_memory(p) || !attr || LLVMGetEnumAttributeValue(attr) <= 8)
                        continue;
                    LLVMRemoveCallSiteEnumAttribute(i, a + 1, align_kind);
                    LLVMAddCallSiteAttribute(i, a + 1, LLVMCreateEnumAttribute(c, align_kind, 8));
                }
            }
}

/* ---- the steps --------------------------------------------------------------------------------- */
/* a + b, or UINT64_MAX when it does not fit */
static uint64_t add_saturating(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The program's variables of program scope against the device's limits
 * (compiler.h), on the program's own module (before the builtins') and
 * before any code is made: an initialised array costs code generation time
 * and object code in proportion to its size, a zero-initialised one the
 * JIT's memory, so one beyond the limits must be refused first. */
static cl_int check_program_variables(mc_pass_state *s)
{
    const mosaic_compiler_target *t = s->target;
    if (!t || (!t->max_global_variable_size && !t->max_global_variables_total && !t->max_constant_variables))
        return CL_SUCCESS;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(s->m);
    uint64_t globals = 0, constants = 0, largest_constant = 0;
    const char *largest_name = "";
    bool bad = false;
    for (LLVMValueRef g = LLVMGetFirstGlobal(s->m); g; g = LLVMGetNextGlobal(g)) {
        unsigned space = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if (LLVMIsDeclaration(g) || (space != 1 && space != 2)) /* __global, __constant */
            continue;
        uint64_t size = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        if (space == 2) {
            constants = add_saturating(constants, size);
            if (size >= largest_constant)
                largest_constant = size, largest_name = name;
            continue;
        }
        globals = add_saturating(globals, size);
        if (t->max_global_variable_size && size > t->max_global_variable_size) {
            mosaic_strbuf_printf(s->log, "error: the __global variable '%.*s' takes %llu bytes; the device "
                                 "allows at most %zu (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)\n", (int)len, name,
                                 (unsigned long long)size, t->max_global_variable_size);
            bad = true;
        }
    }
    if (!bad && t->max_global_variables_total && globals > t->max_global_variables_total) {
        mosaic_strbuf_printf(s->log, "error: the program's __global variables take %llu bytes in all; the device "
                             "allows at most %zu (CL_DEVICE_MAX_MEM_ALLOC_SIZE)\n", (unsigned long long)globals,
                             t->max_global_variables_total);
        bad = true;
    }
    if (t->max_constant_variables && constants > t->max_constant_variables) {
        mosaic_strbuf_printf(s->log, "error: the program's __constant variables take %llu bytes in all (the "
                             "largest, '%s', %llu); the device allows at most %zu (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)\n",
                             (unsigned long long)constants, largest_name, (unsigned long long)largest_constant,
                             t->max_constant_variables);
        bad = true;
    }
    return bad ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
}

/* Stores of `value` store NULL instead. */
static void null_stores_of(LLVMValueRef value)
{
    for (LLVMUseRef u = LLVMGetFirstUse(value), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAStoreInst(user) && LLVMGetOperandUse(user, 0) == u) /* (its address stays) */
            LLVMSetOperand(user, 0, LLVMConstNull(LLVMTypeOf(value)));
    }
}

/* Block kernel i becomes launchable like any kernel, but is not one of the
 * program's: where the code takes its address, it now passes the handle
 * MOSAIC_BLOCK_HANDLE(i), which the device's enqueue functions turn back
 * into the kernel (mosaic_executable_block_kernel).  The block's invoke
 * function, whose address clang also stores in the block literal, is
 * called only directly (by the block kernel, and where the block is called
 * as a function): the stored address becomes NULL, so the function does
 * not outlive inlining with work-item builtins no kernel context replaces. */
static cl_int replace_block_addresses(mc_pass_state *s, LLVMValueRef f, size_t i)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(s->ctx);
    LLVMReplaceAllUsesWith(f, LLVMConstIntToPtr(LLVMConstInt(i64, MOSAIC_BLOCK_HANDLE(i), false), LLVMTypeOf(f)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
            if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee) || mc_is_kernel(callee))
                continue;
            null_stores_of(callee);
            size_t n = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(callee); u; u = LLVMGetNextUse(u))
                n += LLVMIsAConstantExpr(LLVMGetUser(u)) != NULL;
            LLVMValueRef *casts = calloc(n ? n : 1, sizeof *casts);
            if (!casts)
                return mc_out_of_memory(s->log);
            n = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(callee); u; u = LLVMGetNextUse(u))
                if (LLVMIsAConstantExpr(LLVMGetUser(u)))
                    casts[n++] = LLVMGetUser(u);
            for (size_t c = 0; c < n; c++)
                null_stores_of(casts[c]);
            free(casts);
        }
    return CL_SUCCESS;
}

/* A build for one local size makes only its kernel (and the kernels it
 * calls): the others go before anything is done with them. */
static void drop_other_kernels(mc_pass_state *s)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (mc_is_kernel(f) && !LLVMGetFirstUse(f) &&
            (len != strlen(s->one_size->kernel) || memcmp(name, s->one_size->kernel, len)))
            LLVMDeleteFunction(f);
    }
}

/* The kernels (the program's first, then the block kernels), and room for
 * what is made of each. */
static cl_int find_kernels(mc_pass_state *s)
{
    if (s->one_size)
        drop_other_kernels(s);
    mc_object *obj = &s->obj;
    size_t nk = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f))
        nk += mc_is_kernel(f);
    s->kernels = calloc(nk ? nk : 1, sizeof *s->kernels);
    s->kb = calloc(2 * nk + 1, sizeof *s->kb); /* the kernels', then their K.fused */
    obj->kernels = calloc(nk ? nk : 1, sizeof *obj->kernels);
    obj->has_wg = calloc(nk ? nk : 1, 1);
    obj->fused_groups = calloc(nk ? nk : 1, 1);
    if (!s->kernels || !s->kb || !obj->kernels || !obj->has_wg || !obj->fused_groups)
        return mc_out_of_memory(s->log);
    s->fused = s->kb + nk;
    for (int block = 0; block < 2; block++)
        for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f))
            if (mc_is_kernel(f) && mc_is_block_kernel(f) == block)
                s->kernels[s->nk++] = f;
    for (size_t k = 0; k < s->nk; k++)
        if (mc_is_block_kernel(s->kernels[k]))
            obj->num_block_kernels++;
    cl_int r = CL_SUCCESS;
    for (size_t i = 0; i < obj->num_block_kernels && r == CL_SUCCESS; i++)
        r = replace_block_addresses(s, s->kernels[s->nk - obj->num_block_kernels + i], i);
    return r;
}

/* Host triple and data layout (the same sizes and alignments as spir64), the
 * C calling convention everywhere. */
static void retarget(mc_pass_state *s)
{
    LLVMModuleRef m = s->m;
    s->td = LLVMCreateTargetDataLayout(s->tm);
    char *dl = LLVMCopyStringRepOfTargetData(s->td);
    LLVMSetDataLayout(m, dl);
    LLVMDisposeMessage(dl);
    char *triple = LLVMGetTargetMachineTriple(s->tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    s->obj.global_variables_size = global_variables_size(m, s->td);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMSetFunctionCallConv(f, LLVMCCallConv);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i))
                    LLVMSetInstructionCallConv(i, LLVMCCallConv);
    }
}

/* Is this a build for checking mode (MOSAIC_CHECK, docs/check.md)?  Not
 * for a device without its runtime (the GPU's). */
static bool checking(const mc_pass_state *s)
{
    return mosaic_settings()->check && mosaic_target_has_symbol(s->target, "__mosaic_check_access");
}

/* Builtins (and kernels other kernels call) are always inlined, their
 * atomic library calls then made instructions, and every non-kernel
 * becomes internal (inline-builtins). */
static cl_int inline_builtins(mc_pass_state *s)
{
    cl_int r = mc_prepare_calls(s->m, s->kernels, s->nk, s->log);
    if (r == CL_SUCCESS)
        r = mc_run_passes(s->m, s->tm, "always-inline", s->log);
    if (r == CL_SUCCESS)
        r = mc_lower_atomic_calls(s->m, s->log);
    return r;
}

/* Whatever the kernel's own code must see (barriers, sub-group functions,
 * static __local variables, spin loops) is inlined too; the program's
 * other functions are optimised callees first and inlined where LLVM's
 * cost model says it pays, and those left as calls get the work-item
 * context as parameters (calls.c) (inline). */
static cl_int inline_program_calls(mc_pass_state *s, bool *any_must, bool *any_left)
{
    *any_must = *any_left = false;
    cl_int r = mc_mark_must_inline(s->m, s->kernels, s->nk, mosaic_target_has_symbol(s->target, "__mosaic_yield"),
                                   any_must, any_left, s->log);
    /* (a program of kernels and builtins alone skips the rest) */
    if (r == CL_SUCCESS && *any_left && !s->opts->opt_disable)
        r = mc_run_passes(s->m, s->tm, MC_INLINE_PIPELINE, s->log);
    else if (r == CL_SUCCESS && *any_must)
        r = mc_run_passes(s->m, s->tm, "always-inline", s->log);
    mc_end_inlining(s->m);
    return r;
}

static cl_int inline_calls(mc_pass_state *s)
{
    bool any_must, any_left;
    cl_int r = inline_program_calls(s, &any_must, &any_left);
    if (r == CL_SUCCESS && any_left)
        r = mc_pass_context(s->m, s->kernels, s->nk, s->log);
    if (r == CL_SUCCESS && (any_must || any_left))
        r = mc_run_passes(s->m, s->tm, "globaldce", s->log);
    return r;
}

/* Is `callee` inline assembly with instructions in it?  (An empty asm
 * statement, a compiler barrier, has none.  The C API of LLVM 16 has no
 * accessor for the text: it is the first string of the value as printed.) */
static bool assembles_instructions(LLVMValueRef callee)
{
    char *text = LLVMPrintValueToString(callee);
    const char *quote = strchr(text, '"');
    bool empty = quote && quote[1] == '"';
    LLVMDisposeMessage(text);
    return !empty;
}

/* What is left to call must be an intrinsic, a function of the program or
 * an external symbol: no indirect call (recursion was refused before
 * inlining), no assembly (kernel code reaches nothing of the host but what
 * host_functions.c lists, and LLVM here has no assembler: its code generator
 * would end the process), nothing undefined. */
static cl_int check_calls(mc_pass_state *s)
{
    bool bad = false;
    size_t asm_size;
    LLVMGetModuleInlineAsm(s->m, &asm_size);
    if (asm_size) {
        mosaic_strbuf_puts(s->log, "error: the program has assembly at file scope, which Mosaic does not run\n");
        bad = true;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (LLVMIsAFunction(callee)) {
                    /* valid IR, but only from a binary made by hand: a call whose arguments are not
                     * the callee's parameters (the inliner leaves it, and a kernel it calls would be
                     * left a call of an emptied shell once K.body is made) */
                    bool kernel = false;
                    for (size_t k = 0; k < s->nk; k++)
                        kernel |= s->kernels[k] == callee;
                    if (LLVMGetCalledFunctionType(i) != LLVMGlobalGetValueType(callee) || kernel) {
                        char name[256], called[256];
                        mc_source_name(LLVMGetValueName(f), name, sizeof name);
                        mc_source_name(LLVMGetValueName(callee), called, sizeof called);
                        mosaic_strbuf_printf(s->log, "error: '%s' calls '%s' %s\n", name, called,
                                             kernel ? "in a way it cannot be inlined (a kernel must be)"
                                                    : "with arguments that are not its parameters");
                        bad = true;
                    }
                    continue;
                }
                bool is_asm = LLVMIsAInlineAsm(LLVMGetCalledValue(i));
                if (is_asm && !assembles_instructions(LLVMGetCalledValue(i)))
                    continue;
                char name[256];
                mc_source_name(LLVMGetValueName(f), name, sizeof name);
                mosaic_strbuf_printf(s->log, "error: '%s' %s\n", name,
                                     is_asm ? "has inline assembly, which Mosaic does not run"
                                            : "makes an indirect call, which OpenCL C does not allow");
                bad = true;
            }
    if (bad)
        return CL_BUILD_PROGRAM_FAILURE;
    return mc_report_undefined(s->m, false, s->target, CL_BUILD_PROGRAM_FAILURE, s->log);
}

/* What clGetKernelInfo and clGetKernelArgInfo say, from clang's metadata. */
static cl_int read_kernel_info(mc_pass_state *s)
{
    for (size_t k = 0; k < s->nk; k++) {
        cl_int r = mc_kernel_info_from_ir(s->td, s->kernels[k], &s->obj.kernels[k], s->log);
        if (r != CL_SUCCESS)
            return r;
        s->obj.num_kernels = k + 1;
    }
    return CL_SUCCESS;
}

/* K.body and K.wi of each kernel (workgroup.c); the kernels' emptied shells
 * and the __local variables nothing uses any more go. */
static cl_int build_work_item_functions(mc_pass_state *s)
{
    for (size_t k = 0; k < s->nk; k++) {
        s->kb[k].kernel = s->kernels[k];
        cl_int r = mc_build_wi(s->m, &s->kb[k], s->log);
        if (r != CL_SUCCESS)
            return r;
        s->any_barrier |= s->kb[k].uses_barriers;
        s->any_sub_group |= s->kb[k].uses_sub_groups;
        s->any_non_uniform |= s->kb[k].uses_non_uniform;
    }
    if (s->any_barrier && !mosaic_target_has_symbol(s->target, "__mosaic_barrier")) {
        mosaic_strbuf_puts(s->log, "error: a kernel uses barriers, but the device did not give the compiler its "
                                     "__mosaic_barrier function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (s->any_sub_group && !mosaic_target_has_symbol(s->target, "__mosaic_sub_group_barrier")) {
        mosaic_strbuf_puts(s->log, "error: a kernel uses sub-group functions, but the device did not give the "
                                     "compiler its __mosaic_sub_group_barrier function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (s->any_non_uniform && !mosaic_target_has_symbol(s->target, "__mosaic_sub_group_active")) {
        mosaic_strbuf_puts(s->log, "error: a kernel uses non-uniform sub-group functions, but the device did not "
                                     "give the compiler its __mosaic_sub_group_active function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    for (size_t k = 0; k < s->nk; k++) {
        LLVMDeleteFunction(s->kernels[k]); /* now an empty shell */
        s->kernels[k] = s->kb[k].kernel = NULL;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(s->m), next; g; g = next) {
        next = LLVMGetNextGlobal(g);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && !LLVMGetFirstUse(g))
            LLVMDeleteGlobal(g);
    }
    return CL_SUCCESS;
}

/* The widest vector (elements) function f computes with; 0 for none. */
static unsigned widest_vector(LLVMValueRef f)
{
    unsigned widest = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMTypeRef t = LLVMTypeOf(i);
            if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) > widest)
                widest = LLVMGetVectorSize(t);
        }
    return widest;
}

/* A kernel computing on float2..float4 (and the like) gets its vectors split
 * into their elements: the loop vectoriser widens scalar code across
 * work-items but gives up on vector-typed values (N-body on float4 runs about
 * 8 times faster).  Wider vectors (float8, float16) already fill the
 * machine's registers per work-item and stay, except in a kernel the widener
 * may then take whole (a loop of its own, no calls): one work-item's float16
 * chain is one dependent chain at a time, its 16 elements over a row's
 * work-items are 16 (the runner's chain_float16 at 24% of the FMA roof on a
 * Zen 4 core before, 80% after). */
static cl_int scalarize_short_vectors(mc_pass_state *s)
{
    LLVMValueRef *fs = calloc(s->nk ? s->nk : 1, sizeof *fs);
    size_t n = 0;
    if (!fs)
        return mc_out_of_memory(s->log);
    for (size_t k = 0; k < s->nk; k++) {
        unsigned w = widest_vector(s->kb[k].body);
        if (w > 0 && (w <= 4 || (w <= 16 && !s->kb[k].uses_barriers && !mosaic_settings()->no_widen &&
                                 mc_wfv_takes_wide_vectors(s->kb[k].body, s->an))))
            fs[n++] = s->kb[k].body;
    }
    cl_int r = n ? mc_run_passes_on(s->m, s->tm, fs, n, "function(scalarizer,instcombine)", s->log) : CL_SUCCESS;
    free(fs);
    if (!n)
        s->skipped = "no kernel computes on short vectors";
    return r;
}

/* The kernels' loops under `#pragma unroll` (pragma_unroll.c). */
static cl_int unroll_pragma_loops(mc_pass_state *s)
{
    LLVMValueRef *fs = calloc(s->nk ? s->nk : 1, sizeof *fs);
    if (!fs)
        return mc_out_of_memory(s->log);
    for (size_t k = 0; k < s->nk; k++)
        fs[k] = s->kb[k].body;
    cl_int r = s->nk ? mc_unroll_pragma_loops(s->m, s->tm, fs, s->nk, s->an, s->log) : CL_SUCCESS;
    free(fs);
    return r;
}

/* A barrier kernel built for one local size is cut into regions from K.row,
 * its code for a row's work-items at once (wfv.c), when it can be. */
static bool widens_rows(const mc_pass_state *s, size_t k)
{
    return s->one_size && !s->opts->opt_disable && !mosaic_settings()->no_widen && s->kb[k].uses_barriers &&
           !strcmp(s->obj.kernels[k].name, s->one_size->kernel);
}

/* kb's K.wg (kernel k's, or its K.fused) cut into regions: from its widened
 * rows when it is built for one size and they can be, else from its body. */
static cl_int cut_into_regions(mc_pass_state *s, size_t k, mc_kernel_build *kb)
{
    if (widens_rows(s, k))
        mc_wfv_rows(s->m, kb, s->one_size->size[0], s->one_size->size[1],
                    mosaic_target_has_symbol(s->target, "__mosaic_barrier_divergence"), s->an);
    if (kb->row && kb->prefetch_ahead)
        kb->stats[MC_STAT_prefetched_tiles] = mc_prefetch_next_tiles(s->m, kb->row, s->an);
    cl_int r = mc_build_wg_regions(s->m, kb, s->target, s->an, s->log);
    if (r == CL_SUCCESS && kb->row && !kb->wg) { /* the regions of K.body, then */
        kb->stats[MC_STAT_prefetched_tiles] = 0;
        mc_analyses_invalidate(s->an, kb->row);
        LLVMDeleteFunction(kb->row);
        kb->row = NULL;
        r = mc_build_wg_regions(s->m, kb, s->target, s->an, s->log);
    }
    return r;
}

/* The kernel built for one size, when K.fused may run groups of a column
 * together (coarsening.c): K.fbody, copied from K.body before widening
 * and regions change it; NULL otherwise. */
static LLVMValueRef fused_body(mc_pass_state *s, size_t k, unsigned *groups, bool *needs_rows)
{
    mc_kernel_build *kb = &s->kb[k];
    *groups = 0;
    *needs_rows = false;
    if (!s->one_size || s->opts->opt_disable || mosaic_settings()->no_fuse ||
        strcmp(s->obj.kernels[k].name, s->one_size->kernel))
        return NULL;
    const char *why = NULL;
    *groups = mc_coarsen_work_groups(kb, s->td, s->one_size->size, s->an, &why, needs_rows);
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD) && !*groups)
        fprintf(stderr, "mosaic: kernel %s: groups of a column not run together: %s\n", s->obj.kernels[k].name, why);
    return *groups ? mc_fused_body(s->m, kb, s->td, s->one_size->size) : NULL;
}

/* Kernel k's groups of a column not run together after all: its
 * work-items run loops of their own between barriers, carry many values
 * round barriers, and its rows were not widened (coarsening.c says why
 * that is slower).  fns[] (K.fbody, or K.fused: nothing calls them yet)
 * deleted. */
static void drop_fused(mc_pass_state *s, size_t k, LLVMValueRef *fns, size_t n)
{
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: kernel %s: groups of a column not run together: its work-items run loops of their "
                "own and keep many values across barriers, and its rows are not widened\n", s->obj.kernels[k].name);
    for (size_t i = 0; i < n; i++)
        if (fns[i]) {
            mc_analyses_invalidate(s->an, fns[i]);
            LLVMDeleteFunction(fns[i]);
        }
}

/* K.fused from K.fbody, as K.wg is built from K.body: its rows widened,
 * then cut into regions.  None when that fails, or when needs_rows and the
 * rows of K.wg or K.fused were not widened: K.wg runs every group. */
static cl_int build_fused(mc_pass_state *s, size_t k, LLVMValueRef fbody, unsigned groups, bool needs_rows)
{
    mc_kernel_build *kb = &s->kb[k], *fk = &s->fused[k];
    if (needs_rows && !kb->row) {
        drop_fused(s, k, &fbody, 1);
        return CL_SUCCESS;
    }
    *fk = *kb;
    fk->body = fbody;
    fk->wg = fk->row = fk->vec = fk->tail = NULL;
    fk->access_group = NULL;
    fk->prefetch_ahead = false; /* its addresses come from the groups' contexts, which it reads per row */
    memset(fk->stats, 0, sizeof fk->stats);
    cl_int r = cut_into_regions(s, k, fk);
    if (r != CL_SUCCESS || !fk->wg)
        return r;
    if (needs_rows && !fk->row) { /* (K.fbody's rows, unlike K.body's): as when no K.fused is made */
        drop_fused(s, k, &fk->wg, 1);
        fk->wg = NULL;
        return CL_SUCCESS;
    }
    mosaic_strbuf name = {0};
    mosaic_strbuf_printf(&name, "%s.fused", s->obj.kernels[k].name);
    if (name.oom)
        return mc_out_of_memory(s->log);
    LLVMSetValueName2(fk->wg, name.data, strlen(name.data));
    mosaic_strbuf_free(&name);
    s->obj.fused_groups[k] = (unsigned char)groups;
    return CL_SUCCESS;
}

/* K.wg of each kernel: a loop over the work-items, or for a barrier kernel
 * one loop per region between barriers (regions.c; none when it cannot be
 * cut, or when a loop waits for other work-items (spin_loops.c): fibers). */
/* K.wg of kernel k: a loop over the work-items, or for a barrier kernel one
 * loop per region between barriers (regions.c; none when it cannot be cut,
 * or when a loop waits for other work-items (spin_loops.c): fibers).  The
 * choice: regions for barrier kernels and spinning ones (from widened rows
 * in a one-size build, with K.fused when groups of a column may run
 * together); else the kernel widened whole (wfv.c); else, for a kernel with
 * a loop to cut out of the work-item loop, regions without barriers; else
 * one loop over the work-items. */
static cl_int build_work_group_function(mc_pass_state *s, size_t k)
{
    mc_kernel_build *kb = &s->kb[k];
    cl_int r;
    if (kb->uses_barriers || kb->spins) {
        unsigned groups;
        bool needs_rows;
        LLVMValueRef fbody = fused_body(s, k, &groups, &needs_rows);
        r = cut_into_regions(s, k, kb);
        if (r == CL_SUCCESS && fbody && kb->wg)
            r = build_fused(s, k, fbody, groups, needs_rows);
    } else if (!s->opts->opt_disable && !mosaic_settings()->no_widen && mc_wfv_kernel(s->m, kb, s->an)) {
        mc_wfv_kernel_rows(s->m, kb, s->an, mc_vector_registers(s->tm));
        r = mc_build_wg(s->m, kb, s->log); /* rows of K.vec, then K.tail for the rest (of K.rows first) */
    } else if (!s->opts->opt_disable && !mc_has_image_args(kb) && mc_has_loop_for_implicit_barrier(kb, s->an)) {
        /* loops outside the loops over work-items; else as usual */
        r = mc_build_wg_regions(s->m, kb, s->target, s->an, s->log);
        s->obj.kernels[k].keeps_item_state = kb->wg != NULL;
        if (r == CL_SUCCESS && !kb->wg)
            r = mc_build_wg(s->m, kb, s->log);
    } else {
        r = mc_build_wg(s->m, kb, s->log);
    }
    s->obj.has_wg[k] = kb->wg != NULL;
    s->obj.kernels[k].static_local_mem_size = kb->static_local_size;
    s->obj.kernels[k].uses_barriers = kb->uses_barriers;
    s->obj.kernels[k].keeps_item_state |= kb->uses_barriers || kb->spins;
    s->obj.kernels[k].widened_lanes = kb->vec ? kb->vec_lanes : 0;
    s->obj.kernels[k].widened_rows = kb->rows_vec ? kb->vec_rows : 1;
    /* a kernel that may wait for another work-item relies on who shares its group, and one that
     * takes tickets (a persistent-threads loop) on how many groups there are */
    /* (under checking, reports name the application's groups, cpu_check.c's report(); a
     * scope narrower than the device's would be found by the groups it runs in) */
    s->obj.kernels[k].regroupable = !kb->group_observer[0] && !kb->uses_barriers && !kb->may_spin && !kb->spins &&
                                    !(checking(s) && mc_check_narrow_atomics(s->m));
    return r;
}

/* The kernel whose K.wg or K.fused f is, or NULL. */
static mc_kernel_build *build_of(mc_pass_state *s, LLVMValueRef f)
{
    for (size_t k = 0; k < 2 * s->nk; k++)
        if (s->kb[k].wg == f)
            return &s->kb[k];
    return NULL;
}

/* The functions a pass changed, for the clean-up after it. */
typedef struct changed_functions {
    LLVMValueRef *list;
    size_t n, cap;
} changed_functions;

/* Adds f to the list; false when memory runs out. */
static bool note_changed(changed_functions *c, LLVMValueRef f)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        LLVMValueRef *bigger = realloc(c->list, cap * sizeof *bigger);
        if (!bigger)
            return false;
        c->list = bigger;
        c->cap = cap;
    }
    c->list[c->n++] = f;
    return true;
}

/* InstCombine and DCE on the changed functions (when the list is whole:
 * complete), the list freed: a shuffle or splat a pass left without users goes. */
static cl_int clean_up_changed(mc_pass_state *s, changed_functions *c, bool complete)
{
    cl_int r = !complete ? mc_out_of_memory(s->log)
               : c->n    ? mc_run_passes_on(s->m, s->tm, c->list, c->n, "function(instcombine,dce)", s->log)
                         : CL_SUCCESS;
    free(c->list);
    return r;
}

/* Neighbouring gathers joined and what rows read alike shared, then
 * InstCombine on the functions that had some: a tile copy's deinterleaving
 * and interleaving shuffles cancel, the rows' copies drop what they no
 * longer use. */
static cl_int join_and_share_reads(mc_pass_state *s)
{
    changed_functions changed = { 0 };
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        unsigned joined = mc_group_interleaved_accesses(f), shared = mc_eliminate_redundant_row_loads(f, s->an);
        unsigned by_lane = mc_row_accesses_by_lane(f); /* what joining left of a row's gathers */
        mc_kernel_build *kb = build_of(s, f);
        if (kb)
            kb->stats[MC_STAT_joined_accesses] = joined, kb->stats[MC_STAT_shared_row_loads] = shared,
            kb->stats[MC_STAT_row_accesses_by_lane] = by_lane;
        if ((joined || shared || by_lane) && !note_changed(&changed, f))
            return clean_up_changed(s, &changed, false);
    }
    return clean_up_changed(s, &changed, true);
}

/* A float4's arithmetic on its components interleaved, then InstCombine
 * on the functions that had some: a splat repeated per component becomes
 * a wide splat, the shuffles left without users go. */
static cl_int interleaved_arithmetic(mc_pass_state *s)
{
    changed_functions changed = { 0 };
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        unsigned values = mc_interleaved_arithmetic(f);
        mc_kernel_build *kb = build_of(s, f);
        if (kb)
            kb->stats[MC_STAT_interleaved_values] = values;
        if (values && !note_changed(&changed, f))
            return clean_up_changed(s, &changed, false);
    }
    return clean_up_changed(s, &changed, true);
}

/* After the optimiser, on each function (a statistic of K.wg's and
 * K.fused's): row loops interleaved first (a guard makes a row more than one
 * block), then empty gathers skipped, then stores streamed (last: it splits
 * blocks). */
static cl_int unroll_and_jam(mc_pass_state *s)
{
    unsigned registers = mc_vector_registers(s->tm);
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        unsigned rows = mc_unroll_and_jam(f, registers);
        /* after: interleaved rows carry their chains together */
        unsigned split = mc_split_accumulator_loops(f, registers);
        mc_kernel_build *kb = build_of(s, f);
        if (kb)
            kb->stats[MC_STAT_interleaved_rows] = rows, kb->stats[MC_STAT_split_loops] = split;
    }
    return CL_SUCCESS;
}

static cl_int boscc(mc_pass_state *s)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        unsigned n = mc_skip_empty_gathers(f);
        mc_kernel_build *kb = build_of(s, f);
        if (kb)
            kb->stats[MC_STAT_skipped_gathers] = n;
    }
    return CL_SUCCESS;
}

static cl_int nontemporal_stores(mc_pass_state *s)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        mc_kernel_build *kb = build_of(s, f);
        if (kb)
            kb->stats[MC_STAT_streamed_stores] = mc_nontemporal_stores(f);
    }
    return CL_SUCCESS;
}

/* With MOSAIC_DEBUG=build: how kernel k was built, from its statistics. */
static void say_how_built(const mc_pass_state *s, size_t k)
{
    const mosaic_kernel_info *info = &s->obj.kernels[k];
    const unsigned *st = s->kb[k].stats;
    char checked[96] = "", uniform[96] = "", skipped[96] = "", rows[96] = "", streamed[96] = "", joined[96] = "",
         shared[96] = "", by_lane[96] = "", ahead[96] = "", tiles[96] = "", interleaved[96] = "";
    if (st[MC_STAT_checked_rows])
        snprintf(checked, sizeof checked, ", %u with a copy for rows that pass their bounds checks",
                 st[MC_STAT_checked_rows]);
    if (st[MC_STAT_uniform_rows])
        snprintf(uniform, sizeof uniform, ", %u with a version per answer of their uniform branches",
                 st[MC_STAT_uniform_rows]);
    if (st[MC_STAT_skipped_gathers])
        snprintf(skipped, sizeof skipped, ", %u gather%s or scatter%s skipped when no lane is active",
                 st[MC_STAT_skipped_gathers], st[MC_STAT_skipped_gathers] == 1 ? "" : "s",
                 st[MC_STAT_skipped_gathers] == 1 ? "" : "s");
    if (st[MC_STAT_interleaved_rows])
        snprintf(rows, sizeof rows, ", %u row loop%s interleaved", st[MC_STAT_interleaved_rows],
                 st[MC_STAT_interleaved_rows] == 1 ? "" : "s");
    if (st[MC_STAT_joined_accesses])
        snprintf(joined, sizeof joined, ", %u gathers, scatters or strided loads joined with their neighbours",
                 st[MC_STAT_joined_accesses]);
    if (st[MC_STAT_interleaved_values])
        snprintf(interleaved, sizeof interleaved, ", %u value%s computed on their components interleaved",
                 st[MC_STAT_interleaved_values], st[MC_STAT_interleaved_values] == 1 ? "" : "s");
    if (st[MC_STAT_shared_row_loads])
        snprintf(shared, sizeof shared, ", %u value%s that every row reads alike read by the first row",
                 st[MC_STAT_shared_row_loads], st[MC_STAT_shared_row_loads] == 1 ? "" : "s");
    if (st[MC_STAT_row_accesses_by_lane])
        snprintf(by_lane, sizeof by_lane, ", %u gather%s or scatter%s of a row done a lane at a time",
                 st[MC_STAT_row_accesses_by_lane], st[MC_STAT_row_accesses_by_lane] == 1 ? "" : "s",
                 st[MC_STAT_row_accesses_by_lane] == 1 ? "" : "s");
    if (st[MC_STAT_streamed_stores])
        snprintf(streamed, sizeof streamed, ", %u store%s of whole lines that may stream past the cache",
                 st[MC_STAT_streamed_stores], st[MC_STAT_streamed_stores] == 1 ? "" : "s");
    if (st[MC_STAT_prefetched_reads] && s->kb[k].wg)
        snprintf(ahead, sizeof ahead, ", %u read%s before the first barrier prefetched two groups ahead",
                 st[MC_STAT_prefetched_reads], st[MC_STAT_prefetched_reads] == 1 ? "" : "s");
    if (st[MC_STAT_prefetched_tiles] && s->kb[k].wg)
        snprintf(tiles, sizeof tiles, ", %u read%s in a loop with barriers prefetched an iteration ahead",
                 st[MC_STAT_prefetched_tiles], st[MC_STAT_prefetched_tiles] == 1 ? "" : "s");
    if (s->obj.fused_groups[k])
        fprintf(stderr, "mosaic: kernel %s: groups of a column run %u at a time (K.fused: %u loops over "
                "work-items vectorised, %u row loops interleaved)\n", info->name, s->obj.fused_groups[k],
                mc_count_vector_loops(s->fused[k].wg), s->fused[k].stats[MC_STAT_interleaved_rows]);
    if (info->regroupable)
        fprintf(stderr, "mosaic: kernel %s: cannot observe its work-groups: launches run in groups the device "
                "chooses\n", info->name);
    else
        fprintf(stderr, "mosaic: kernel %s: keeps the application's work-groups: %s\n", info->name,
                s->kb[k].group_observer[0] ? s->kb[k].group_observer
                                              : "it has atomics or volatile reads (a loop could wait on them)");
    fprintf(stderr, "mosaic: kernel %s: %s, %u loop%s over work-items vectorised%s%s%s%s%s%s%s%s%s%s%s\n", info->name,
            !s->kb[k].wg ? "fibers (one work-item function per work-item)"
            : info->uses_barriers ? "work-group function in regions between barriers"
                                  : "work-group function",
            info->vectorised_loops, info->vectorised_loops == 1 ? "" : "s", uniform, checked, joined, shared,
            by_lane, interleaved, skipped, rows, streamed, ahead, tiles);
}

/* The largest stack frame x86-64 code generation handles: its offsets are
 * 32-bit (beyond, LLVM warns and the code would address the wrong bytes). */
#define MAX_FRAME ((size_t)UINT32_MAX)

/* The kernels' private memory is what allocas are left: those of K.wi,
 * K.wg and K.fused, and those of the deepest chain of calls each makes: what
 * a work-item keeps (a fiber's stack), and K.wg's frame on the worker's
 * stack.  A frame code generation cannot address fails the build. */
static cl_int private_sizes(mc_pass_state *s)
{
    size_t n = 3 * s->nk;
    LLVMValueRef *fns = calloc(n ? n : 1, sizeof *fns);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes);
    if (!fns || !sizes) {
        free(fns), free(sizes);
        return mc_out_of_memory(s->log);
    }
    for (size_t k = 0; k < s->nk; k++) {
        fns[k] = s->kb[k].wi;
        fns[s->nk + k] = s->kb[k].wg;
        fns[2 * s->nk + k] = s->fused[k].wg;
    }
    mc_private_sizes(s->m, s->td, fns, n, sizes);
    cl_int r = CL_SUCCESS;
    for (size_t k = 0; k < s->nk; k++) {
        mosaic_kernel_info *info = &s->obj.kernels[k];
        size_t wg = sizes[s->nk + k], fused = sizes[2 * s->nk + k];
        info->private_mem_size = sizes[k];
        info->wg_stack_size = wg > fused ? wg : fused;
        info->item_state_size = s->kb[k].item_bytes > s->fused[k].item_bytes ? s->kb[k].item_bytes
                                                                             : s->fused[k].item_bytes;
        if (info->private_mem_size > MAX_FRAME || info->wg_stack_size > MAX_FRAME) {
            mosaic_strbuf_printf(s->log, "error: kernel '%s' has %zu bytes of private memory; the code generator "
                                 "addresses at most %llu in one function's frame\n", info->name,
                                 info->private_mem_size, (unsigned long long)MAX_FRAME);
            r = CL_BUILD_PROGRAM_FAILURE;
        }
        info->vectorised_loops = s->kb[k].wg ? mc_count_vector_loops(s->kb[k].wg) : 0;
        if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
            say_how_built(s, k);
    }
    free(fns), free(sizes);
    return r;
}

/* Divisions are divisions.  Under -cl-fast-relaxed-math a float division
 * carries `arcp`, and x86's code generator then replaces it with the
 * reciprocal estimate (rcpps: 12 bits; rcp14ps: 14) and one Newton step
 * without a fused multiply-add, which can be more than the 2.5 ulp OpenCL
 * allows (the CTS's relaxed `divide` found 3 by its measure;
 * test_cts_regressions relaxed_divide).  The division instructions are
 * correctly rounded. */
static void divisions_without_estimates(LLVMModuleRef m)
{
    static const char key[] = "reciprocal-estimates", value[] = "!divf,!vec-divf";
    LLVMContextRef c = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(c, key, sizeof key - 1, value, sizeof value - 1));
}

/* Code generation, into s->obj.code. */
static cl_int emit_object_code(mc_pass_state *s)
{
    char *err = NULL;
    LLVMMemoryBufferRef code;
    divisions_without_estimates(s->m);
    if (LLVMTargetMachineEmitToMemoryBuffer(s->tm, s->m, LLVMObjectFile, &err, &code)) {
        mosaic_strbuf_printf(s->log, "error: code generation failed: %s\n", err ? err : "");
        LLVMDisposeMessage(err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    mc_object *obj = &s->obj;
    obj->code_size = LLVMGetBufferSize(code);
    obj->code = malloc(obj->code_size ? obj->code_size : 1);
    if (obj->code)
        memcpy(obj->code, LLVMGetBufferStart(code), obj->code_size);
    LLVMDisposeMemoryBuffer(code);
    return obj->code ? CL_SUCCESS : mc_out_of_memory(s->log);
}

/* ---- the passes' run functions (passes.def): adapters of the steps above ---------------------- */
/* A pass that has nothing to do in this build says why (MOSAIC_DEBUG=passes). */
static cl_int skip(mc_pass_state *s, const char *why)
{
    s->skipped = why;
    return CL_SUCCESS;
}

cl_int mc_run_check_program_variables(mc_pass_state *s, size_t k) { (void)k; return check_program_variables(s); }
cl_int mc_run_find_kernels(mc_pass_state *s, size_t k) { (void)k; return find_kernels(s); }

cl_int mc_run_printf(mc_pass_state *s, size_t k)
{
    (void)k; /* a binary's bitcode made elsewhere may still call printf itself */
    if (!mosaic_target_has_symbol(s->target, "__mosaic_printf"))
        return skip(s, "the device has no __mosaic_printf");
    return mc_lower_printf(s->m, s->log);
}

cl_int mc_run_link_builtins(mc_pass_state *s, size_t k)
{
    (void)k;
    mc_mark_program_functions(s->m); /* (not the builtins) */
    return link_builtins(s->ctx, s->m, s->log);
}

/* Before inlining: get_global_id is still a call, which the walk knows
 * (calls.c); inlined, it reads the group's id and size like any other code. */
cl_int mc_run_group_use(mc_pass_state *s, size_t k)
{
    (void)k;
    for (size_t i = 0; i < s->nk; i++)
        mc_observes_groups(s->kernels[i], s->kb[i].group_observer, sizeof s->kb[i].group_observer);
    return CL_SUCCESS;
}

cl_int mc_run_retarget(mc_pass_state *s, size_t k)
{
    (void)k;
    retarget(s);
    return CL_SUCCESS;
}

cl_int mc_run_inline_builtins(mc_pass_state *s, size_t k) { (void)k; return inline_builtins(s); }
cl_int mc_run_inline_calls(mc_pass_state *s, size_t k) { (void)k; return inline_calls(s); }
cl_int mc_run_check_calls(mc_pass_state *s, size_t k) { (void)k; return check_calls(s); }
cl_int mc_run_kernel_info(mc_pass_state *s, size_t k) { (void)k; return read_kernel_info(s); }
cl_int mc_run_work_item_functions(mc_pass_state *s, size_t k) { (void)k; return build_work_item_functions(s); }

cl_int mc_run_check_instrument(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!checking(s))
        return skip(s, "checking mode is off");
    /* the program's own functions inlined where `inline` will inline them,
     * so that an access in a helper names the argument or __local array it
     * reaches (the calls left get the context later, as without checking);
     * the arguments out of the front end's stack slots, so an access names
     * the one it reaches; the builtins' bodies, all inlined, go; the code
     * cleaned up as the inliner's pipeline does, also where it had nothing
     * to inline (a loop's `r < 4 && row + r < m`, left as a phi of the
     * front end's, bounds no private array's index) */
    bool any_must, any_left;
    cl_int r = inline_program_calls(s, &any_must, &any_left);
    if (r == CL_SUCCESS)
        r = mc_run_passes(s->m, s->tm,
                          s->opts->opt_disable ? "function(sroa),globaldce"
                                               : "function(sroa,simplifycfg),globaldce",
                          s->log);
    if (r != CL_SUCCESS)
        return r;
    return mc_instrument_for_checking(s->m, s->td, s->kernels, s->nk, mosaic_settings()->check,
                                      &s->stats[MC_STAT_check_sites], s->log);
}

/* Spin loops are found on the IR the clean-up leaves; whether a kernel may
 * have any is asked before. */
cl_int mc_run_may_spin(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!mosaic_target_has_symbol(s->target, "__mosaic_yield"))
        return skip(s, "the device has no __mosaic_yield");
    for (size_t i = 0; i < s->nk; i++)
        s->kb[i].may_spin = mc_may_spin(s->kb[i].body);
    return CL_SUCCESS;
}

/* Barrier kernels, and kernels with uniform loops, are cut into regions:
 * scalars first promoted to registers, so only what lives across a barrier
 * goes to memory, and the uniformity analysis sees values. */
cl_int mc_run_clean_up(mc_pass_state *s, size_t k)
{
    (void)k;
    return mc_run_passes(s->m, s->tm, "function(sroa,early-cse,simplifycfg,instcombine)", s->log);
}

/* before anything unrolls a loop or cuts at barriers */
cl_int mc_run_barrier_loops(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!s->any_barrier)
        return skip(s, "no kernel has barriers");
    return mc_step_barrier_loops(s->kb, s->nk, s->an, s->log);
}

cl_int mc_run_pragma_unroll(mc_pass_state *s, size_t k)
{
    (void)k;
    return unroll_pragma_loops(s);
}

cl_int mc_run_private_arrays(mc_pass_state *s, size_t k)
{
    (void)k;
    unsigned *arrays = calloc(s->nk ? s->nk : 1, sizeof *arrays), any = 0;
    if (!arrays)
        return mc_out_of_memory(s->log);
    cl_int r = mc_private_arrays_to_values(s->m, s->tm, s->kb, s->nk, arrays, s->log);
    for (size_t i = 0; i < s->nk; i++)
        s->kb[i].stats[MC_STAT_private_arrays] += arrays[i], any += arrays[i];
    free(arrays);
    return r == CL_SUCCESS && !any ? skip(s, "no small private array read or written at a run-time index") : r;
}

cl_int mc_run_scalarize_short_vectors(mc_pass_state *s, size_t k)
{
    (void)k;
    return scalarize_short_vectors(s);
}

cl_int mc_run_kernel_options(mc_pass_state *s, size_t k)
{
    mc_kernel_build *kb = &s->kb[k];
    kb->arg_info = s->obj.kernels[k].args;
    kb->specialise_images = !s->opts->opt_disable;
    kb->prefetch_ahead = !s->opts->opt_disable && !mosaic_settings()->no_prefetch;
    return CL_SUCCESS;
}

cl_int mc_run_counter_args(mc_pass_state *s, size_t k)
{
    mosaic_kernel_info *info = &s->obj.kernels[k];
    if (checking(s)) /* a copy per worker would hide the buffer's accesses */
        return skip(s, "checking mode");
    mc_find_counter_args(&s->kb[k], info);
    return info->counter_args ? CL_SUCCESS : skip(s, "no buffer the kernel only adds to");
}

cl_int mc_run_guarded_index(mc_pass_state *s, size_t k)
{
    unsigned n = mc_widen_guarded_indices(s->kb[k].body);
    s->kb[k].stats[MC_STAT_guarded_indices] += n;
    return n ? CL_SUCCESS : skip(s, "no index that a guard keeps from wrapping");
}

cl_int mc_run_uniform_loop_exits(mc_pass_state *s, size_t k)
{
    unsigned n = mc_uniform_loop_exits(s->kb[k].body, s->an);
    s->kb[k].stats[MC_STAT_strided_loops] += n;
    return n ? CL_SUCCESS : skip(s, "no loop strided from each work-item's own start");
}

cl_int mc_run_spin_loops(mc_pass_state *s, size_t k)
{
    mc_kernel_build *kb = &s->kb[k];
    if (!kb->may_spin)
        return skip(s, "no loop may wait for other work-items");
    cl_int r = mc_mark_spin_loops(s->m, kb, s->an, s->log);
    return r == CL_SUCCESS && !kb->spins ? skip(s, "no loop waits for other work-items") : r;
}

cl_int mc_run_work_group_function(mc_pass_state *s, size_t k) { return build_work_group_function(s, k); }

cl_int mc_run_check_windows(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!checking(s))
        return skip(s, "checking mode is off");
    s->stats[MC_STAT_check_windows] += mc_check_windows(s->m);
    return CL_SUCCESS;
}

cl_int mc_run_sub_group_first(mc_pass_state *s, size_t k)
{
    mc_lower_sub_group_first(s->m, &s->kb[k]);
    return CL_SUCCESS;
}

cl_int mc_run_inline_bodies(mc_pass_state *s, size_t k)
{
    (void)k;
    return mc_run_passes(s->m, s->tm, "always-inline", s->log);
}

cl_int mc_run_image_classes(mc_pass_state *s, size_t k)
{
    (void)k;
    s->images_specialised = mc_fold_image_classes(s->m);
    return CL_SUCCESS;
}

cl_int mc_run_image_bounds_versioning(mc_pass_state *s, size_t k)
{
    (void)k;
    return mc_version_for_image_bounds(s->m, s->tm, s->kb, s->nk, s->images_specialised, s->log);
}

cl_int mc_run_unswitch_uniform(mc_pass_state *s, size_t k)
{
    (void)k;
    mc_unswitch_uniform_branches(s->kb, 2 * s->nk); /* K.wg and K.fused */
    return CL_SUCCESS;
}

cl_int mc_run_check_row_versioning(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!checking(s))
        return skip(s, "checking mode is off");
    mc_check_row_versioning(s->kb, 2 * s->nk); /* K.wg and K.fused */
    return CL_SUCCESS;
}

cl_int mc_run_bounds_check_versioning(mc_pass_state *s, size_t k)
{
    (void)k;
    mc_version_for_bounds_checks(s->kb, 2 * s->nk);
    return CL_SUCCESS;
}

/* K.wg of the kernel built for one size, and its K.fused: one group F times deeper */
cl_int mc_run_fix_local_size(mc_pass_state *s, size_t k)
{
    if (s->one_size && s->kb[k].wg && !strcmp(s->obj.kernels[k].name, s->one_size->kernel))
        s->kb[k].stats[MC_STAT_fixed_sizes] += mc_fix_local_size(s->kb[k].wg, s->td, s->one_size->size);
    if (s->fused[k].wg) {
        const size_t *size = s->one_size->size;
        size_t tall[3] = {size[0], size[1], size[2] * s->obj.fused_groups[k]};
        s->fused[k].stats[MC_STAT_fixed_sizes] += mc_fix_local_size(s->fused[k].wg, s->td, tall);
    }
    return CL_SUCCESS;
}

cl_int mc_run_parallel_loops(mc_pass_state *s, size_t k)
{
    mc_annotate_wg(s->m, &s->kb[k]);
    if (s->fused[k].wg)
        mc_annotate_wg(s->m, &s->fused[k]);
    return CL_SUCCESS;
}

cl_int mc_run_demote_local_atomics(mc_pass_state *s, size_t k)
{
    s->kb[k].stats[MC_STAT_plain_atomics] += mc_demote_local_atomics(s->kb[k].wg);
    if (s->fused[k].wg)
        s->fused[k].stats[MC_STAT_plain_atomics] += mc_demote_local_atomics(s->fused[k].wg);
    return CL_SUCCESS;
}

cl_int mc_run_vector_math(mc_pass_state *s, size_t k)
{
    (void)k;
    s->stats[MC_STAT_vector_math_calls] += mc_add_vector_math(s->m, s->tm);
    return CL_SUCCESS;
}

cl_int mc_run_clamp_alignment(mc_pass_state *s, size_t k)
{
    (void)k;
    clamp_alignment(s->m, s->td);
    return CL_SUCCESS;
}

cl_int mc_run_safe_division(mc_pass_state *s, size_t k)
{
    (void)k;
    mc_guard_integer_division(s->m);
    return CL_SUCCESS;
}

/* (on a copy: the module is unchanged; nothing to hear with -cl-opt-disable, whose O0 has no vectoriser) */
cl_int mc_run_locate_work_groups(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!s->opts->opt_disable)
        mc_vectoriser_remarks(s->m, mc_run_passes, s->tm, "default<O3>", s->kb, 2 * s->nk);
    return CL_SUCCESS;
}

/* (also without assertions: invalid IR fails the build instead of crashing the optimiser) */
cl_int mc_run_verify(mc_pass_state *s, size_t k)
{
    (void)k;
    char *msg = NULL;
    cl_int r = CL_SUCCESS;
    if (LLVMVerifyModule(s->m, LLVMReturnStatusAction, &msg)) {
        mosaic_strbuf_printf(s->log, "error: internal compiler error (invalid IR after work-group generation):"
                                     "\n%s\n", msg);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMDisposeMessage(msg);
    return r;
}

cl_int mc_run_print_unoptimised(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!mosaic_settings()->dump_ir)
        return skip(s, "MOSAIC_DUMP_IR unset");
    LLVMDumpModule(s->m);
    return CL_SUCCESS;
}

cl_int mc_run_optimise(mc_pass_state *s, size_t k)
{
    (void)k;
    return mc_run_passes(s->m, s->tm, s->opts->opt_disable ? "default<O0>" : "default<O3>", s->log);
}

cl_int mc_run_vector_math_calls(mc_pass_state *s, size_t k)
{
    (void)k;
    s->stats[MC_STAT_libmvec_calls] += mc_lower_vector_math_calls(s->m, s->tm);
    return CL_SUCCESS;
}

cl_int mc_run_join_and_share_reads(mc_pass_state *s, size_t k)
{
    (void)k;
    return join_and_share_reads(s);
}

cl_int mc_run_interleaved_arithmetic(mc_pass_state *s, size_t k)
{
    (void)k;
    return interleaved_arithmetic(s);
}

cl_int mc_run_unroll_and_jam(mc_pass_state *s, size_t k)
{
    (void)k;
    return unroll_and_jam(s);
}

cl_int mc_run_boscc(mc_pass_state *s, size_t k)
{
    (void)k;
    return boscc(s);
}

cl_int mc_run_nontemporal_stores(mc_pass_state *s, size_t k)
{
    (void)k;
    return nontemporal_stores(s);
}

/* lane-0-only code of sub-group loops; InstCombine then narrows what fed the lane */
cl_int mc_run_one_lane_masked_ops(mc_pass_state *s, size_t k)
{
    (void)k;
    if (!mc_scalarize_one_lane_masked_ops(s->m))
        return skip(s, "no masked access with one active lane");
    return mc_run_passes(s->m, s->tm, "function(instcombine,dce)", s->log);
}

/* the non-uniform reductions' folds in K.wg's copies of the kernels that have
 * them (the others' code stays as it was) */
cl_int mc_run_active_slot_folds(mc_pass_state *s, size_t k)
{
    (void)k;
    unsigned total = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f)) {
        mc_kernel_build *kb = build_of(s, f);
        if (!kb || !kb->uses_non_uniform)
            continue;
        unsigned n = mc_fold_active_slots(s->m, f);
        kb->stats[MC_STAT_active_slot_folds] += n;
        total += n + mc_blend_read_back_stores(s->m, f);
    }
    if (!total)
        return skip(s, "no fold of active slots or masked store read back");
    /* the active mask and the vector loop's guard load the same states (a masked copy's,
     * and a chained copy's second region's): one load and compare, and the guard then
     * knows the mask is not empty */
    return mc_run_passes(s->m, s->tm, "function(early-cse<memssa>,instcombine)", s->log);
}

cl_int mc_run_drop_vector_math_uses(mc_pass_state *s, size_t k)
{
    (void)k;
    mc_drop_vector_math_uses(s->m);
    return CL_SUCCESS;
}

cl_int mc_run_non_uniform_sites(mc_pass_state *s, size_t k)
{
    (void)k;
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f))
        n += mc_number_non_uniform_sites(f);
    return n ? CL_SUCCESS : skip(s, "no non-uniform sub-group function");
}

cl_int mc_run_print_optimised(mc_pass_state *s, size_t k) { return mc_run_print_unoptimised(s, k); }
cl_int mc_run_private_sizes(mc_pass_state *s, size_t k) { (void)k; return private_sizes(s); }
cl_int mc_run_emit_object(mc_pass_state *s, size_t k) { (void)k; return emit_object_code(s); }

/* ---- the pipeline over a program binary's bitcode ---------------------------------------------- */
cl_int mc_build_object(const mosaic_compiler_target *target, const mosaic_bitcode *blob, const mc_options *opts,
                       const mc_one_size *one_size, mc_object *obj, mosaic_strbuf *log)
{
    /* the program's module, in a context of its own */
    LLVMContextRef ctx = mc_context_create(log);
    if (!ctx)
        return mc_out_of_memory(log);
    LLVMModuleRef m;
    cl_int r = mc_blob_load(ctx, blob, &m, log);
    if (r != CL_SUCCESS) {
        LLVMContextDispose(ctx);
        return r;
    }
    mc_pass_state s;
    r = mc_pass_state_init(&s, target, opts, one_size, ctx, m, log);
    if (r == CL_SUCCESS)
        r = mc_pipeline_run(&mc_cpu_pipeline, &s, NULL);
    if (r == CL_SUCCESS) { /* what it made is the caller's */
        *obj = s.obj;
        memset(&s.obj, 0, sizeof s.obj);
    }
    mc_pass_state_free(&s);
    return r;
}
