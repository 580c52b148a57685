/*
 * mosaic_finalize: executable bitcode -> JIT'd work-group functions.
 *
 *   link the builtin library -> retarget to the host -> inline everything ->
 *   atomic calls become instructions -> check what is called -> kernel
 *   metadata -> K.wi -> K.wg -> vector math, alignment, safe division ->
 *   optimise -> object code -> ORC LLJIT
 *
 * (build_object does all but the last, one static function per step;
 * docs/compiler.md describes them.)  The object code and the kernel table can
 * be kept in the on-disk cache (cache.c), so a cache hit skips everything but
 * the last step.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
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
#include "compiler/workgroup/fused_groups.h"
#include "compiler/workgroup/local_size.h"
#include "compiler/workgroup/passes.h"
#include "compiler/workgroup/workgroup.h"

struct mosaic_executable {
    LLVMOrcLLJITRef jit;
    size_t num_kernels;        /* the program's kernels, then its block kernels */
    size_t num_block_kernels;
    mosaic_kernel_info *kernels;
    size_t global_variables_size;
    mosaic_strbuf *log; /* where JIT session errors go while finalizing */
    mc_one_size_builds *one_size; /* its barrier kernels built for one local size, or NULL (one_size.c) */
};

/* What code generation produces, before it is loaded into a JIT. */
typedef struct mc_object {
    void *code;
    size_t code_size;
    size_t num_kernels;
    size_t num_block_kernels;    /* the last ones of kernels[] */
    mosaic_kernel_info *kernels; /* wg_fn/wi_fn not set yet */
    unsigned char *has_wg;       /* per kernel: K.wg exists */
    unsigned char *fused_groups; /* per kernel: K.fused exists and runs this many groups (fused_groups.c), or 0 */
    size_t global_variables_size;
} mc_object;

static void object_clear(mc_object *o)
{
    free(o->code);
    for (size_t i = 0; i < o->num_kernels; i++)
        mc_kernel_info_clear(&o->kernels[i]);
    free(o->kernels);
    free(o->has_wg);
    free(o->fused_groups);
    memset(o, 0, sizeof *o);
}

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

/* ---- from bitcode to object code --------------------------------------------------------- */
/* What build_object works on. */
typedef struct finalize_job {
    const mosaic_compiler_target *target;
    const mc_options *opts;
    mosaic_strbuf *log;
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMTargetMachineRef tm;
    LLVMTargetDataRef td;
    size_t nk;               /* kernels: */
    LLVMValueRef *kernels;   /* the spir_kernel functions with a body (NULL once K.wi is built) */
    mc_kernel_build *kb;     /* K.body, K.wi and K.wg of each */
    mc_kernel_build *fused;  /* kb + nk, per kernel: K.fused as .wg (NULL when none), K.fbody as .body */
    bool any_barrier;        /* some kernel calls __mosaic_barrier */
    bool any_sub_group;      /* some kernel calls __mosaic_sub_group_barrier */
    bool any_non_uniform;    /* some kernel calls __mosaic_sub_group_active */
    const mc_one_size *one_size; /* a build of one kernel for one local size, or NULL */
    mc_object *obj;          /* what it makes */
} finalize_job;

static void finalize_job_free(finalize_job *job)
{
    for (size_t k = 0; job->kb && k < job->nk; k++)
        mc_kernel_build_free(&job->kb[k]);
    free(job->kernels);
    free(job->kb); /* (and job->fused, whose arrays are the kernels') */
    if (job->td)
        LLVMDisposeTargetData(job->td);
    if (job->m)
        LLVMDisposeModule(job->m);
    if (job->tm)
        LLVMDisposeTargetMachine(job->tm);
    if (job->ctx)
        LLVMContextDispose(job->ctx);
}

/* The program's module, in a context of its own, and the machine to build for. */
static cl_int load_program(finalize_job *job, const mosaic_bitcode *blob)
{
    job->ctx = mc_context_create(job->log);
    if (!job->ctx)
        return mc_out_of_memory(job->log);
    cl_int r = mc_blob_load(job->ctx, blob, &job->m, job->log);
    if (r == CL_SUCCESS)
        r = mc_target_machine(job->target, job->opts->opt_disable, &job->tm, job->log);
    return r;
}

/* a + b, or UINT64_MAX when it does not fit */
static uint64_t add_saturating(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The program's variables of program scope against the device's limits
 * (compiler.h), on the program's own module (before the builtins') and
 * before any code is made: an initialised array costs code generation time
 * and object code in proportion to its size, a zero-initialised one the
 * JIT's memory, so one beyond the limits must be refused first. */
static cl_int check_program_variables(finalize_job *job)
{
    const mosaic_compiler_target *t = job->target;
    if (!t || (!t->max_global_variable_size && !t->max_global_variables_total && !t->max_constant_variables))
        return CL_SUCCESS;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(job->m);
    uint64_t globals = 0, constants = 0, largest_constant = 0;
    const char *largest_name = "";
    bool bad = false;
    for (LLVMValueRef g = LLVMGetFirstGlobal(job->m); g; g = LLVMGetNextGlobal(g)) {
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
            mosaic_strbuf_printf(job->log, "error: the __global variable '%.*s' takes %llu bytes; the device "
                                 "allows at most %zu (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)\n", (int)len, name,
                                 (unsigned long long)size, t->max_global_variable_size);
            bad = true;
        }
    }
    if (!bad && t->max_global_variables_total && globals > t->max_global_variables_total) {
        mosaic_strbuf_printf(job->log, "error: the program's __global variables take %llu bytes in all; the device "
                             "allows at most %zu (CL_DEVICE_MAX_MEM_ALLOC_SIZE)\n", (unsigned long long)globals,
                             t->max_global_variables_total);
        bad = true;
    }
    if (t->max_constant_variables && constants > t->max_constant_variables) {
        mosaic_strbuf_printf(job->log, "error: the program's __constant variables take %llu bytes in all (the "
                             "largest, '%s', %llu); the device allows at most %zu (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)\n",
                             (unsigned long long)constants, largest_name, (unsigned long long)largest_constant,
                             t->max_constant_variables);
        bad = true;
    }
    return bad ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
}

/* The kernels are the spir_kernel functions with a body. */
static bool is_spir_kernel(LLVMValueRef f)
{
    return !LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

/* A block kernel: the kernel clang makes of a block given to enqueue_kernel
 * or get_kernel_* ("__<caller>_block_invoke[_N]_kernel"), whose address the
 * caller passes.  A kernel the program only calls, or nothing uses, is not. */
static bool is_block_kernel(LLVMValueRef f)
{
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f)
            return true;
    }
    return false;
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
static cl_int replace_block_addresses(finalize_job *job, LLVMValueRef f, size_t i)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(job->ctx);
    LLVMReplaceAllUsesWith(f, LLVMConstIntToPtr(LLVMConstInt(i64, MOSAIC_BLOCK_HANDLE(i), false), LLVMTypeOf(f)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
            if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee) || is_spir_kernel(callee))
                continue;
            null_stores_of(callee);
            size_t n = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(callee); u; u = LLVMGetNextUse(u))
                n += LLVMIsAConstantExpr(LLVMGetUser(u)) != NULL;
            LLVMValueRef *casts = calloc(n ? n : 1, sizeof *casts);
            if (!casts)
                return mc_out_of_memory(job->log);
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
static void drop_other_kernels(finalize_job *job)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(job->m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (is_spir_kernel(f) && !LLVMGetFirstUse(f) &&
            (len != strlen(job->one_size->kernel) || memcmp(name, job->one_size->kernel, len)))
            LLVMDeleteFunction(f);
    }
}

/* The kernels (the program's first, then the block kernels), and room for
 * what is made of each. */
static cl_int find_kernels(finalize_job *job)
{
    if (job->one_size)
        drop_other_kernels(job);
    mc_object *obj = job->obj;
    size_t nk = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(job->m); f; f = LLVMGetNextFunction(f))
        nk += is_spir_kernel(f);
    job->kernels = calloc(nk ? nk : 1, sizeof *job->kernels);
    job->kb = calloc(2 * nk + 1, sizeof *job->kb); /* the kernels', then their K.fused */
    obj->kernels = calloc(nk ? nk : 1, sizeof *obj->kernels);
    obj->has_wg = calloc(nk ? nk : 1, 1);
    obj->fused_groups = calloc(nk ? nk : 1, 1);
    if (!job->kernels || !job->kb || !obj->kernels || !obj->has_wg || !obj->fused_groups)
        return mc_out_of_memory(job->log);
    job->fused = job->kb + nk;
    for (int block = 0; block < 2; block++)
        for (LLVMValueRef f = LLVMGetFirstFunction(job->m); f; f = LLVMGetNextFunction(f))
            if (is_spir_kernel(f) && is_block_kernel(f) == block)
                job->kernels[job->nk++] = f;
    for (size_t k = 0; k < job->nk; k++)
        if (is_block_kernel(job->kernels[k]))
            obj->num_block_kernels++;
    cl_int r = CL_SUCCESS;
    for (size_t i = 0; i < obj->num_block_kernels && r == CL_SUCCESS; i++)
        r = replace_block_addresses(job, job->kernels[job->nk - obj->num_block_kernels + i], i);
    return r;
}

/* Host triple and data layout (the same sizes and alignments as spir64), the
 * C calling convention everywhere. */
static void retarget(finalize_job *job)
{
    LLVMModuleRef m = job->m;
    job->td = LLVMCreateTargetDataLayout(job->tm);
    char *dl = LLVMCopyStringRepOfTargetData(job->td);
    LLVMSetDataLayout(m, dl);
    LLVMDisposeMessage(dl);
    char *triple = LLVMGetTargetMachineTriple(job->tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    job->obj->global_variables_size = global_variables_size(m, job->td);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMSetFunctionCallConv(f, LLVMCCallConv);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i))
                    LLVMSetInstructionCallConv(i, LLVMCCallConv);
    }
}

/* Builtins (and kernels other kernels call) are always inlined, and so is
 * whatever the kernel's own code must see (barriers, sub-group functions,
 * static __local variables, spin loops); the program's other functions are
 * optimised callees first and inlined where LLVM's cost model says it pays,
 * and those left as calls get the work-item context as parameters (calls.c).
 * Every non-kernel becomes internal. */
static cl_int inline_calls(finalize_job *job)
{
    cl_int r = mc_prepare_calls(job->m, job->kernels, job->nk, job->log);
    if (r == CL_SUCCESS)
        r = mc_run_passes(job->m, job->tm, "always-inline", job->log);
    if (r == CL_SUCCESS)
        r = mc_lower_atomic_calls(job->m, job->log);
    bool any_must = false, any_left = false;
    if (r == CL_SUCCESS)
        r = mc_mark_must_inline(job->m, job->kernels, job->nk, mc_target_has_symbol(job->target, "__mosaic_yield"),
                                &any_must, &any_left, job->log);
    /* (a program of kernels and builtins alone skips the rest) */
    if (r == CL_SUCCESS && any_left && !job->opts->opt_disable)
        r = mc_run_passes(job->m, job->tm, MC_INLINE_PIPELINE, job->log);
    else if (r == CL_SUCCESS && any_must)
        r = mc_run_passes(job->m, job->tm, "always-inline", job->log);
    mc_end_inlining(job->m);
    if (r == CL_SUCCESS && any_left)
        r = mc_pass_context(job->m, job->kernels, job->nk, job->log);
    if (r == CL_SUCCESS && (any_must || any_left))
        r = mc_run_passes(job->m, job->tm, "globaldce", job->log);
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
static cl_int check_calls(finalize_job *job)
{
    bool bad = false;
    size_t asm_size;
    LLVMGetModuleInlineAsm(job->m, &asm_size);
    if (asm_size) {
        mosaic_strbuf_puts(job->log, "error: the program has assembly at file scope, which Mosaic does not run\n");
        bad = true;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(job->m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i) || LLVMIsAFunction(LLVMGetCalledValue(i)))
                    continue;
                bool is_asm = LLVMIsAInlineAsm(LLVMGetCalledValue(i));
                if (is_asm && !assembles_instructions(LLVMGetCalledValue(i)))
                    continue;
                char name[256];
                mc_source_name(LLVMGetValueName(f), name, sizeof name);
                mosaic_strbuf_printf(job->log, "error: '%s' %s\n", name,
                                     is_asm ? "has inline assembly, which Mosaic does not run"
                                            : "makes an indirect call, which OpenCL C does not allow");
                bad = true;
            }
    if (bad)
        return CL_BUILD_PROGRAM_FAILURE;
    return mc_report_undefined(job->m, false, job->target, CL_BUILD_PROGRAM_FAILURE, job->log);
}

/* What clGetKernelInfo and clGetKernelArgInfo say, from clang's metadata. */
static cl_int read_kernel_info(finalize_job *job)
{
    for (size_t k = 0; k < job->nk; k++) {
        cl_int r = mc_kernel_info_from_ir(job->td, job->kernels[k], &job->obj->kernels[k], job->log);
        if (r != CL_SUCCESS)
            return r;
        job->obj->num_kernels = k + 1;
    }
    return CL_SUCCESS;
}

/* K.body and K.wi of each kernel (workgroup.c); the kernels' emptied shells
 * and the __local variables nothing uses any more go. */
static cl_int build_work_item_functions(finalize_job *job)
{
    for (size_t k = 0; k < job->nk; k++) {
        job->kb[k].kernel = job->kernels[k];
        cl_int r = mc_build_wi(job->m, &job->kb[k], job->log);
        if (r != CL_SUCCESS)
            return r;
        job->any_barrier |= job->kb[k].uses_barriers;
        job->any_sub_group |= job->kb[k].uses_sub_groups;
        job->any_non_uniform |= job->kb[k].uses_non_uniform;
    }
    if (job->any_barrier && !mc_target_has_symbol(job->target, "__mosaic_barrier")) {
        mosaic_strbuf_puts(job->log, "error: a kernel uses barriers, but the device did not give the compiler its "
                                     "__mosaic_barrier function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (job->any_sub_group && !mc_target_has_symbol(job->target, "__mosaic_sub_group_barrier")) {
        mosaic_strbuf_puts(job->log, "error: a kernel uses sub-group functions, but the device did not give the "
                                     "compiler its __mosaic_sub_group_barrier function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (job->any_non_uniform && !mc_target_has_symbol(job->target, "__mosaic_sub_group_active")) {
        mosaic_strbuf_puts(job->log, "error: a kernel uses non-uniform sub-group functions, but the device did not "
                                     "give the compiler its __mosaic_sub_group_active function\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    for (size_t k = 0; k < job->nk; k++) {
        LLVMDeleteFunction(job->kernels[k]); /* now an empty shell */
        job->kernels[k] = job->kb[k].kernel = NULL;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(job->m), next; g; g = next) {
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
static cl_int scalarize_short_vectors(finalize_job *job)
{
    LLVMValueRef *fs = calloc(job->nk ? job->nk : 1, sizeof *fs);
    size_t n = 0;
    if (!fs)
        return mc_out_of_memory(job->log);
    for (size_t k = 0; k < job->nk; k++) {
        unsigned w = widest_vector(job->kb[k].body);
        if (w > 0 && (w <= 4 || (w <= 16 && !job->kb[k].uses_barriers && !mosaic_settings()->no_widen &&
                                 mc_widening_takes_wide_vectors(job->kb[k].body))))
            fs[n++] = job->kb[k].body;
    }
    cl_int r = n ? mc_run_passes_on(job->m, job->tm, fs, n, "function(scalarizer,instcombine)", job->log) : CL_SUCCESS;
    free(fs);
    return r;
}

/* The kernels' loops under `#pragma unroll` (pragma_unroll.c). */
static cl_int unroll_pragma_loops(finalize_job *job)
{
    LLVMValueRef *fs = calloc(job->nk ? job->nk : 1, sizeof *fs);
    if (!fs)
        return mc_out_of_memory(job->log);
    for (size_t k = 0; k < job->nk; k++)
        fs[k] = job->kb[k].body;
    cl_int r = job->nk ? mc_unroll_pragma_loops(job->m, job->tm, fs, job->nk, job->log) : CL_SUCCESS;
    free(fs);
    return r;
}

/* A barrier kernel built for one local size is cut into regions from K.row,
 * its code for a row's work-items at once (widen.c), when it can be. */
static bool widens_rows(const finalize_job *job, size_t k)
{
    return job->one_size && !job->opts->opt_disable && !mosaic_settings()->no_widen && job->kb[k].uses_barriers &&
           !strcmp(job->obj->kernels[k].name, job->one_size->kernel);
}

/* kb's K.wg (kernel k's, or its K.fused) cut into regions: from its widened
 * rows when it is built for one size and they can be, else from its body. */
static cl_int cut_into_regions(finalize_job *job, size_t k, mc_kernel_build *kb)
{
    if (widens_rows(job, k))
        mc_widen_rows(job->m, kb, job->one_size->size[0],
                      mc_target_has_symbol(job->target, "__mosaic_barrier_divergence"));
    cl_int r = mc_build_wg_regions(job->m, kb, job->target, job->log);
    if (r == CL_SUCCESS && kb->row && !kb->wg) { /* the regions of K.body, then */
        LLVMDeleteFunction(kb->row);
        kb->row = NULL;
        r = mc_build_wg_regions(job->m, kb, job->target, job->log);
    }
    return r;
}

/* The kernel built for one size, when K.fused may run groups of a column
 * together (fused_groups.c): K.fbody, copied from K.body before widening
 * and regions change it; NULL otherwise. */
static LLVMValueRef fused_body(finalize_job *job, size_t k, unsigned *groups)
{
    mc_kernel_build *kb = &job->kb[k];
    *groups = 0;
    if (!job->one_size || job->opts->opt_disable || mosaic_settings()->no_fuse ||
        strcmp(job->obj->kernels[k].name, job->one_size->kernel))
        return NULL;
    const char *why = NULL;
    *groups = mc_fused_groups(kb, job->td, job->one_size->size, &why);
    if (mosaic_settings()->debug && !*groups)
        fprintf(stderr, "mosaic: kernel %s: groups of a column not run together: %s\n", job->obj->kernels[k].name, why);
    return *groups ? mc_fused_body(job->m, kb, job->td, job->one_size->size) : NULL;
}

/* K.fused from K.fbody, as K.wg is built from K.body: its rows widened,
 * then cut into regions.  None when that fails: K.wg runs every group. */
static cl_int build_fused(finalize_job *job, size_t k, LLVMValueRef fbody, unsigned groups)
{
    mc_kernel_build *kb = &job->kb[k], *fk = &job->fused[k];
    *fk = *kb;
    fk->body = fbody;
    fk->wg = fk->row = fk->vec = fk->tail = NULL;
    fk->access_group = NULL;
    fk->prefetch_ahead = false; /* its addresses come from the groups' contexts, which it reads per row */
    fk->checked_rows = fk->uniform_rows = fk->skipped_gathers = fk->interleaved_rows = 0;
    fk->streamed_stores = fk->joined_accesses = fk->shared_row_loads = fk->prefetched_reads = 0;
    cl_int r = cut_into_regions(job, k, fk);
    if (r != CL_SUCCESS || !fk->wg)
        return r;
    mosaic_strbuf name = {0};
    mosaic_strbuf_printf(&name, "%s.fused", job->obj->kernels[k].name);
    if (name.oom)
        return mc_out_of_memory(job->log);
    LLVMSetValueName2(fk->wg, name.data, strlen(name.data));
    mosaic_strbuf_free(&name);
    job->obj->fused_groups[k] = (unsigned char)groups;
    return CL_SUCCESS;
}

/* K.wg of each kernel: a loop over the work-items, or for a barrier kernel
 * one loop per region between barriers (regions.c; none when it cannot be
 * cut, or when a loop waits for other work-items (spin_loops.c): fibers). */
static cl_int build_work_group_functions(finalize_job *job)
{
    /* Barrier kernels, and kernels with uniform loops, are cut into regions:
     * scalars first promoted to registers, so only what lives across a
     * barrier goes to memory, and the uniformity analysis sees values. */
    cl_int r = CL_SUCCESS;
    bool may_spin = false; /* spin loops are found on the same cleaned-up IR */
    if (mc_target_has_symbol(job->target, "__mosaic_yield"))
        for (size_t k = 0; k < job->nk; k++)
            may_spin |= job->kb[k].may_spin = mc_may_spin(job->kb[k].body);
    if (!job->opts->opt_disable)
        r = mc_run_passes(job->m, job->tm, "function(sroa,early-cse,simplifycfg,instcombine)", job->log);
    if (r == CL_SUCCESS) /* before anything unrolls a loop or cuts at barriers */
        r = mc_step_barrier_loops(job->kb, job->nk, job->log);
    if (r == CL_SUCCESS && !job->opts->opt_disable) {
        r = unroll_pragma_loops(job);
        if (r == CL_SUCCESS)
            r = scalarize_short_vectors(job);
    }
    for (size_t k = 0; k < job->nk && r == CL_SUCCESS; k++) {
        mc_kernel_build *kb = &job->kb[k];
        kb->arg_info = job->obj->kernels[k].args;
        kb->specialise_images = !job->opts->opt_disable;
        kb->prefetch_ahead = !job->opts->opt_disable && !mosaic_settings()->no_prefetch;
        if (!job->opts->opt_disable) {
            mc_widen_guarded_indices(kb->body);
            mc_run_strided_loops_in_step(kb->body);
        }
        if (kb->may_spin)
            r = mc_mark_spin_loops(job->m, kb, job->opts->opt_disable, job->log);
        if (r != CL_SUCCESS)
            break;
        if (kb->uses_barriers || kb->spins) {
            unsigned groups;
            LLVMValueRef fbody = fused_body(job, k, &groups);
            r = cut_into_regions(job, k, kb);
            if (r == CL_SUCCESS && fbody && kb->wg)
                r = build_fused(job, k, fbody, groups);
        } else if (!job->opts->opt_disable && !mosaic_settings()->no_widen &&
                   mc_widen_kernel(job->m, kb)) {
            r = mc_build_wg(job->m, kb, job->log); /* rows of K.vec, then K.tail for the rest */
        } else if (!job->opts->opt_disable && !mc_has_image_args(kb) && mc_has_loop_to_cut(kb)) {
            /* loops outside the loops over work-items; else as usual */
            r = mc_build_wg_regions(job->m, kb, job->target, job->log);
            job->obj->kernels[k].keeps_item_state = kb->wg != NULL;
            if (r == CL_SUCCESS && !kb->wg)
                r = mc_build_wg(job->m, kb, job->log);
        } else {
            r = mc_build_wg(job->m, kb, job->log);
        }
        mc_lower_sub_group_first(job->m, kb);
        job->obj->has_wg[k] = kb->wg != NULL;
        job->obj->kernels[k].static_local_mem_size = kb->static_local_size;
        job->obj->kernels[k].uses_barriers = kb->uses_barriers;
        job->obj->kernels[k].keeps_item_state |= kb->uses_barriers || kb->spins;
        job->obj->kernels[k].widened_lanes = kb->vec ? kb->vec_lanes : 0;
    }
    return r;
}

/* Before the optimiser: K.body inlined into K.wi and K.wg, K.wg's work-item
 * loops marked parallel, libmvec's variants named, alignments clamped,
 * divisions guarded; the module verified. */
static cl_int prepare_for_optimiser(finalize_job *job)
{
    cl_int r = mc_run_passes(job->m, job->tm, "always-inline", job->log);
    if (r != CL_SUCCESS)
        return r;
    bool specialised = mc_fold_image_classes(job->m);
    if ((r = mc_version_image_rows(job->m, job->tm, job->kb, job->nk, specialised, job->log)) != CL_SUCCESS)
        return r;
    if (!job->opts->opt_disable) {
        mc_version_uniform_rows(job->kb, 2 * job->nk); /* K.wg and K.fused */
        mc_version_guarded_rows(job->kb, 2 * job->nk);
    }
    for (size_t k = 0; k < job->nk; k++) {
        if (job->one_size && job->kb[k].wg && !strcmp(job->obj->kernels[k].name, job->one_size->kernel))
            mc_fix_local_size(job->kb[k].wg, job->td, job->one_size->size);
        mc_annotate_wg(job->m, &job->kb[k]);
        mc_plain_local_atomics(job->kb[k].wg);
        if (job->fused[k].wg) { /* one group F times deeper */
            const size_t *size = job->one_size->size;
            size_t tall[3] = {size[0], size[1], size[2] * job->obj->fused_groups[k]};
            mc_fix_local_size(job->fused[k].wg, job->td, tall);
            mc_annotate_wg(job->m, &job->fused[k]);
            mc_plain_local_atomics(job->fused[k].wg);
        }
    }
    if (!job->opts->opt_disable)
        mc_add_vector_math(job->m, job->tm);
    clamp_alignment(job->m, job->td);
    mc_guard_integer_division(job->m);
    mc_locate_work_group_functions(job->m, job->kb, 2 * job->nk);

    char *msg = NULL;
    if (LLVMVerifyModule(job->m, LLVMReturnStatusAction, &msg)) {
        mosaic_strbuf_printf(job->log, "error: internal compiler error (invalid IR after work-group generation):"
                                       "\n%s\n", msg);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMDisposeMessage(msg);
    return r;
}

/* The kernel whose K.wg or K.fused f is, or NULL. */
static mc_kernel_build *build_of(finalize_job *job, LLVMValueRef f)
{
    for (size_t k = 0; k < 2 * job->nk; k++)
        if (job->kb[k].wg == f)
            return &job->kb[k];
    return NULL;
}

/* Neighbouring gathers joined and what rows read alike shared, then
 * InstCombine on the functions that had some: a tile copy's deinterleaving
 * and interleaving shuffles cancel, the rows' copies drop what they no
 * longer use. */
static cl_int join_and_share_reads(finalize_job *job)
{
    size_t n = 0, cap = 8;
    LLVMValueRef *changed = malloc(cap * sizeof *changed);
    if (!changed)
        return mc_out_of_memory(job->log);
    for (LLVMValueRef f = LLVMGetFirstFunction(job->m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        unsigned joined = mc_join_neighbour_gathers(f), shared = mc_share_row_loads(f);
        mc_kernel_build *kb = build_of(job, f);
        if (kb)
            kb->joined_accesses = joined, kb->shared_row_loads = shared;
        if (!joined && !shared)
            continue;
        if (n == cap) {
            LLVMValueRef *bigger = realloc(changed, (cap *= 2) * sizeof *changed);
            if (!bigger) {
                free(changed);
                return mc_out_of_memory(job->log);
            }
            changed = bigger;
        }
        changed[n++] = f;
    }
    cl_int r = n ? mc_run_passes_on(job->m, job->tm, changed, n, "function(instcombine,dce)", job->log) : CL_SUCCESS;
    free(changed);
    return r;
}

/* The largest stack frame x86-64 code generation handles: its offsets are
 * 32-bit (beyond, LLVM warns and the code would address the wrong bytes). */
#define MAX_FRAME ((size_t)UINT32_MAX)

/* default<O3> (default<O0> with -cl-opt-disable), then vector math calls
 * the vectoriser made become libmvec calls and one-lane masked accesses
 * scalar ones; the kernels' private memory is what allocas are left (a
 * frame code generation cannot address fails the build). */
static cl_int optimise(finalize_job *job)
{
    LLVMModuleRef m = job->m;
    if (mosaic_settings()->dump_ir)
        LLVMDumpModule(m);
    cl_int r = mc_run_passes(m, job->tm, job->opts->opt_disable ? "default<O0>" : "default<O3>", job->log);
    if (r != CL_SUCCESS)
        return r;
    if (!job->opts->opt_disable) {
        mc_lower_vector_math_calls(m, job->tm);
        if ((r = join_and_share_reads(job)) != CL_SUCCESS)
            return r;
        unsigned registers = mc_vector_registers(job->tm);
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
            unsigned rows = mc_interleave_rows(f, registers); /* first: a guard makes a row more than one block */
            unsigned n = mc_skip_empty_gathers(f);
            mc_kernel_build *kb = build_of(job, f);
            if (kb) {
                kb->skipped_gathers = n, kb->interleaved_rows = rows;
                kb->streamed_stores = mc_stream_stores(f); /* last: it splits blocks */
            }
        }
        /* lane-0-only code of sub-group loops; instcombine then narrows what fed the lane */
        if (mc_scalarize_one_lane_masked_ops(m) &&
            (r = mc_run_passes(m, job->tm, "function(instcombine,dce)", job->log)) != CL_SUCCESS)
            return r;
    }
    mc_drop_vector_math_uses(m);
    if (mosaic_settings()->dump_ir)
        LLVMDumpModule(m);
    /* The allocas of K.wi, K.wg and K.fused, and those of the deepest
     * chain of calls each makes: what a work-item keeps (a fiber's stack),
     * and K.wg's frame on the worker's stack */
    size_t n = 3 * job->nk;
    LLVMValueRef *fns = calloc(n ? n : 1, sizeof *fns);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes);
    if (!fns || !sizes) {
        free(fns), free(sizes);
        return mc_out_of_memory(job->log);
    }
    for (size_t k = 0; k < job->nk; k++) {
        fns[k] = job->kb[k].wi;
        fns[job->nk + k] = job->kb[k].wg;
        fns[2 * job->nk + k] = job->fused[k].wg;
    }
    mc_private_sizes(m, job->td, fns, n, sizes);
    for (size_t k = 0; k < job->nk; k++) {
        mosaic_kernel_info *info = &job->obj->kernels[k];
        size_t wg = sizes[job->nk + k], fused = sizes[2 * job->nk + k];
        info->private_mem_size = sizes[k];
        info->wg_stack_size = wg > fused ? wg : fused;
        info->item_state_size = job->kb[k].item_bytes > job->fused[k].item_bytes ? job->kb[k].item_bytes
                                                                                   : job->fused[k].item_bytes;
        if (info->private_mem_size > MAX_FRAME || info->wg_stack_size > MAX_FRAME) {
            mosaic_strbuf_printf(job->log, "error: kernel '%s' has %zu bytes of private memory; the code generator "
                                 "addresses at most %llu in one function's frame\n", info->name,
                                 info->private_mem_size, (unsigned long long)MAX_FRAME);
            r = CL_BUILD_PROGRAM_FAILURE;
        }
        info->vectorised_loops = job->kb[k].wg ? mc_count_vector_loops(job->kb[k].wg) : 0;
        if (mosaic_settings()->debug) {
            char checked[96] = "", uniform[96] = "", skipped[96] = "", rows[96] = "", streamed[96] = "",
                 joined[96] = "", shared[96] = "", ahead[96] = "";
            if (job->kb[k].checked_rows)
                snprintf(checked, sizeof checked, ", %u with a copy for rows that pass their bounds checks",
                         job->kb[k].checked_rows);
            if (job->kb[k].uniform_rows)
                snprintf(uniform, sizeof uniform, ", %u with a version per answer of their uniform branches",
                         job->kb[k].uniform_rows);
            if (job->kb[k].skipped_gathers)
                snprintf(skipped, sizeof skipped, ", %u gather%s or scatter%s skipped when no lane is active",
                         job->kb[k].skipped_gathers, job->kb[k].skipped_gathers == 1 ? "" : "s",
                         job->kb[k].skipped_gathers == 1 ? "" : "s");
            if (job->kb[k].interleaved_rows)
                snprintf(rows, sizeof rows, ", %u row loop%s interleaved", job->kb[k].interleaved_rows,
                         job->kb[k].interleaved_rows == 1 ? "" : "s");
            if (job->kb[k].joined_accesses)
                snprintf(joined, sizeof joined, ", %u gathers, scatters or strided loads joined with their neighbours",
                         job->kb[k].joined_accesses);
            if (job->kb[k].shared_row_loads)
                snprintf(shared, sizeof shared, ", %u value%s that every row reads alike read by the first row",
                         job->kb[k].shared_row_loads, job->kb[k].shared_row_loads == 1 ? "" : "s");
            if (job->kb[k].streamed_stores)
                snprintf(streamed, sizeof streamed, ", %u store%s of whole lines that may stream past the cache",
                         job->kb[k].streamed_stores, job->kb[k].streamed_stores == 1 ? "" : "s");
            if (job->kb[k].prefetched_reads && job->kb[k].wg)
                snprintf(ahead, sizeof ahead, ", %u read%s before the first barrier prefetched two groups ahead",
                         job->kb[k].prefetched_reads, job->kb[k].prefetched_reads == 1 ? "" : "s");
            if (job->obj->fused_groups[k])
                fprintf(stderr, "mosaic: kernel %s: groups of a column run %u at a time (K.fused: %u loops over "
                        "work-items vectorised, %u row loops interleaved)\n", info->name, job->obj->fused_groups[k],
                        mc_count_vector_loops(job->fused[k].wg), job->fused[k].interleaved_rows);
            fprintf(stderr, "mosaic: kernel %s: %s, %u loop%s over work-items vectorised%s%s%s%s%s%s%s%s\n", info->name,
                    !job->kb[k].wg ? "fibers (one work-item function per work-item)"
                    : info->uses_barriers ? "work-group function in regions between barriers"
                                          : "work-group function",
                    info->vectorised_loops, info->vectorised_loops == 1 ? "" : "s", uniform, checked, joined, shared,
                    skipped, rows, streamed, ahead);
        }
    }
    free(fns), free(sizes);
    return r;
}

/* Code generation, into obj->code. */
static cl_int emit_object_code(finalize_job *job)
{
    char *err = NULL;
    LLVMMemoryBufferRef code;
    if (LLVMTargetMachineEmitToMemoryBuffer(job->tm, job->m, LLVMObjectFile, &err, &code)) {
        mosaic_strbuf_printf(job->log, "error: code generation failed: %s\n", err ? err : "");
        LLVMDisposeMessage(err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    mc_object *obj = job->obj;
    obj->code_size = LLVMGetBufferSize(code);
    obj->code = malloc(obj->code_size ? obj->code_size : 1);
    if (obj->code)
        memcpy(obj->code, LLVMGetBufferStart(code), obj->code_size);
    LLVMDisposeMemoryBuffer(code);
    return obj->code ? CL_SUCCESS : mc_out_of_memory(job->log);
}

/* Everything from bitcode to object code (what a cache entry keeps). */
static cl_int build_object(const mosaic_compiler_target *target, const mosaic_bitcode *blob, const mc_options *opts,
                           const mc_one_size *one_size, mc_object *obj, mosaic_strbuf *log)
{
    finalize_job job = {.target = target, .opts = opts, .log = log, .one_size = one_size, .obj = obj};
    cl_int r = load_program(&job, blob);
    if (r == CL_SUCCESS)
        r = check_program_variables(&job);
    if (r == CL_SUCCESS)
        r = find_kernels(&job);
    /* a binary's bitcode made elsewhere may still call printf itself */
    if (r == CL_SUCCESS && mc_target_has_symbol(target, "__mosaic_printf"))
        r = mc_lower_printf(job.m, log);
    if (r == CL_SUCCESS) {
        mc_mark_program_functions(job.m); /* (not the builtins) */
        r = link_builtins(job.ctx, job.m, log);
    }
    if (r == CL_SUCCESS) {
        retarget(&job);
        r = inline_calls(&job);
    }
    if (r == CL_SUCCESS)
        r = check_calls(&job);
    if (r == CL_SUCCESS)
        r = read_kernel_info(&job);
    if (r == CL_SUCCESS)
        r = build_work_item_functions(&job);
    if (r == CL_SUCCESS)
        r = build_work_group_functions(&job);
    if (r == CL_SUCCESS)
        r = prepare_for_optimiser(&job);
    if (r == CL_SUCCESS)
        r = optimise(&job);
    if (r == CL_SUCCESS)
        r = emit_object_code(&job);
    finalize_job_free(&job);
    return r;
}

/* ---- cache entries: the object code and the kernel table ---------------------------- */
#define ENTRY_MAGIC "MOSAICO6"

static void put_u64(mosaic_strbuf *s, uint64_t v) { mosaic_strbuf_append(s, (const char *)&v, sizeof v); }
static void put_str(mosaic_strbuf *s, const char *t)
{
    size_t n = t ? strlen(t) : 0;
    put_u64(s, n);
    mosaic_strbuf_append(s, t ? t : "", n);
}

/* Appends o as a cache entry to s (s->oom when memory ran out). */
static void object_serialize(const mc_object *o, mosaic_strbuf *s)
{
    mosaic_strbuf_append(s, ENTRY_MAGIC, 8);
    put_u64(s, o->code_size);
    mosaic_strbuf_append(s, o->code, o->code_size);
    put_u64(s, o->global_variables_size);
    put_u64(s, o->num_kernels);
    put_u64(s, o->num_block_kernels);
    for (size_t k = 0; k < o->num_kernels; k++) {
        const mosaic_kernel_info *i = &o->kernels[k];
        put_str(s, i->name);
        put_str(s, i->attributes);
        put_u64(s, i->num_args);
        for (cl_uint a = 0; a < i->num_args; a++) {
            const mosaic_kernel_arg *g = &i->args[a];
            put_u64(s, (uint64_t)g->kind);
            put_u64(s, g->size);
            put_u64(s, g->alignment);
            put_u64(s, g->address_qualifier);
            put_u64(s, g->access_qualifier);
            put_u64(s, g->type_qualifier);
            put_str(s, g->type_name);
            put_str(s, g->name);
        }
        for (int d = 0; d < 3; d++)
            put_u64(s, i->reqd_work_group_size[d]);
        for (int d = 0; d < 3; d++)
            put_u64(s, i->work_group_size_hint[d]);
        put_u64(s, i->static_local_mem_size);
        put_u64(s, i->private_mem_size);
        put_u64(s, i->wg_stack_size);
        put_u64(s, i->item_state_size);
        put_u64(s, (uint64_t)i->uses_barriers);
        put_u64(s, i->vectorised_loops);
        put_u64(s, i->widened_lanes);
        put_u64(s, (uint64_t)i->keeps_item_state);
        put_u64(s, o->has_wg[k]);
        put_u64(s, o->fused_groups[k]);
    }
}

typedef struct reader {
    const char *p, *end;
    bool bad;
} reader;

static uint64_t get_u64(reader *r)
{
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < sizeof v) {
        r->bad = true;
        return 0;
    }
    memcpy(&v, r->p, sizeof v);
    r->p += sizeof v;
    return v;
}

static char *get_str(reader *r)
{
    uint64_t n = get_u64(r);
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    char *t = strndup(r->p, (size_t)n);
    r->p += n;
    if (!t)
        r->bad = true;
    return t;
}

/* Part of a cache lookup: is data a whole cache entry?  Then o holds it.
 * (A damaged entry, or one memory is lacking for, is a miss.) */
static bool object_deserialize(const void *data, size_t size, mc_object *o)
{
    reader r = {data, (const char *)data + size, false};
    memset(o, 0, sizeof *o);
    if (size < 8 || memcmp(data, ENTRY_MAGIC, 8))
        return false;
    r.p += 8;
    uint64_t n = get_u64(&r);
    if (r.bad || n > (uint64_t)(r.end - r.p) || !n)
        return false;
    o->code = malloc((size_t)n);
    if (!o->code)
        return false;
    memcpy(o->code, r.p, (size_t)n);
    o->code_size = (size_t)n;
    r.p += n;
    o->global_variables_size = (size_t)get_u64(&r);
    uint64_t nk = get_u64(&r);
    uint64_t nb = get_u64(&r);
    if (r.bad || nk > 100000 || nb > nk) {
        object_clear(o);
        return false;
    }
    o->num_block_kernels = (size_t)nb;
    o->kernels = calloc(nk ? (size_t)nk : 1, sizeof *o->kernels);
    o->has_wg = calloc(nk ? (size_t)nk : 1, 1);
    o->fused_groups = calloc(nk ? (size_t)nk : 1, 1);
    if (!o->kernels || !o->has_wg || !o->fused_groups) {
        object_clear(o);
        return false;
    }
    for (uint64_t k = 0; k < nk && !r.bad; k++) {
        mosaic_kernel_info *i = &o->kernels[k];
        o->num_kernels = (size_t)k + 1;
        i->name = get_str(&r);
        i->attributes = get_str(&r);
        uint64_t na = get_u64(&r);
        if (r.bad || na > 4096) {
            r.bad = true;
            break;
        }
        i->args = na ? calloc((size_t)na, sizeof *i->args) : NULL;
        if (na && !i->args) {
            r.bad = true;
            break;
        }
        i->num_args = (cl_uint)na;
        for (uint64_t a = 0; a < na && !r.bad; a++) {
            mosaic_kernel_arg *g = &i->args[a];
            g->kind = (mosaic_arg_kind)get_u64(&r);
            g->size = (size_t)get_u64(&r);
            g->alignment = (size_t)get_u64(&r);
            g->address_qualifier = (cl_kernel_arg_address_qualifier)get_u64(&r);
            g->access_qualifier = (cl_kernel_arg_access_qualifier)get_u64(&r);
            g->type_qualifier = (cl_kernel_arg_type_qualifier)get_u64(&r);
            g->type_name = get_str(&r);
            g->name = get_str(&r);
        }
        for (int d = 0; d < 3; d++)
            i->reqd_work_group_size[d] = (size_t)get_u64(&r);
        for (int d = 0; d < 3; d++)
            i->work_group_size_hint[d] = (size_t)get_u64(&r);
        i->static_local_mem_size = (size_t)get_u64(&r);
        i->private_mem_size = (size_t)get_u64(&r);
        i->wg_stack_size = (size_t)get_u64(&r);
        i->item_state_size = (size_t)get_u64(&r);
        i->uses_barriers = get_u64(&r) != 0;
        i->vectorised_loops = (unsigned)get_u64(&r);
        i->widened_lanes = (unsigned)get_u64(&r);
        i->keeps_item_state = get_u64(&r) != 0;
        o->has_wg[k] = get_u64(&r) != 0;
        uint64_t fused = get_u64(&r);
        o->fused_groups[k] = fused <= MC_FUSED_GROUPS ? (unsigned char)fused : 0;
    }
    if (r.bad || r.p != r.end) {
        object_clear(o);
        return false;
    }
    return true;
}

static void session_error(void *user, LLVMErrorRef err)
{
    mosaic_executable *exe = user;
    if (exe->log)
        mc_log_llvm_error(exe->log, "JIT", err);
    else
        LLVMConsumeError(err);
}

/* Defines symbols (those with a name) in jd at their addresses. */
static cl_int define_symbols(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd, const struct mosaic_runtime_symbol *symbols,
                             size_t n, mosaic_strbuf *log)
{
    LLVMOrcCSymbolMapPair *pairs = calloc(n, sizeof *pairs);
    if (!pairs)
        return mc_out_of_memory(log);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!symbols[i].name)
            continue;
        pairs[k].Name = LLVMOrcLLJITMangleAndIntern(jit, symbols[i].name);
        pairs[k].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)symbols[i].address;
        pairs[k].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        k++;
    }
    LLVMErrorRef err = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(pairs, k));
    free(pairs);
    if (err) {
        mc_log_llvm_error(log, "cannot define the symbols kernels call", err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* Loads object code into a fresh LLJIT and looks every kernel up. */
static cl_int load_object(const mosaic_compiler_target *target, mc_object *obj, mosaic_executable *exe,
                          mosaic_strbuf *log)
{
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&exe->jit, NULL);
    if (err) {
        exe->jit = NULL;
        mc_log_llvm_error(log, "cannot create the JIT", err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    exe->log = log;
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(exe->jit), session_error, exe);
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(exe->jit);

    /* Every symbol the code may bind to, by address: the device's runtime
     * functions, libmvec's vector math (vecmath.c) and the host functions of
     * host_functions.def.  Nothing is searched in the process. */
    const struct mosaic_runtime_symbol *vs = NULL, *hs;
    size_t nv = mc_libmvec_available() ? mc_libmvec_symbols(&vs) : 0;
    size_t nh = mc_host_functions(&hs);
    size_t nr = target ? target->num_runtime_symbols : 0;
    if ((nr && define_symbols(exe->jit, jd, target->runtime_symbols, nr, log) != CL_SUCCESS) ||
        (nv && define_symbols(exe->jit, jd, vs, nv, log) != CL_SUCCESS) ||
        define_symbols(exe->jit, jd, hs, nh, log) != CL_SUCCESS)
        return CL_BUILD_PROGRAM_FAILURE;

    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(obj->code, obj->code_size, "mosaic-kernels");
    if (!buf)
        return mc_out_of_memory(log);
    err = LLVMOrcLLJITAddObjectFile(exe->jit, jd, buf); /* takes the buffer */
    if (err) {
        mc_log_llvm_error(log, "cannot load the kernels' object code", err);
        return CL_BUILD_PROGRAM_FAILURE;
    }

    exe->kernels = obj->kernels;
    exe->num_kernels = obj->num_kernels;
    exe->num_block_kernels = obj->num_block_kernels;
    exe->global_variables_size = obj->global_variables_size;
    obj->kernels = NULL;
    obj->num_kernels = 0;
    cl_int r = CL_SUCCESS;
    for (size_t k = 0; k < exe->num_kernels && r == CL_SUCCESS; k++) {
        mosaic_kernel_info *info = &exe->kernels[k];
        for (int wg = 0; wg < 3; wg++) {
            if ((wg == 1 && !obj->has_wg[k]) || (wg == 2 && !obj->fused_groups[k]))
                continue;
            static const char *const suffix[3] = {"wi", "wg", "fused"};
            mosaic_strbuf name = {0};
            mosaic_strbuf_printf(&name, "%s.%s", info->name, suffix[wg]);
            if (name.oom) {
                mosaic_strbuf_free(&name);
                return mc_out_of_memory(log);
            }
            LLVMOrcExecutorAddress addr = 0;
            err = LLVMOrcLLJITLookup(exe->jit, &addr, name.data);
            mosaic_strbuf_free(&name);
            if (err || !addr) {
                if (err)
                    mc_log_llvm_error(log, "cannot link the kernels", err);
                r = CL_BUILD_PROGRAM_FAILURE;
                break;
            }
            if (wg == 2) {
                info->fused_fn = (mosaic_wg_fn)(uintptr_t)addr;
                info->fused_groups = obj->fused_groups[k];
            } else if (wg) {
                info->wg_fn = (mosaic_wg_fn)(uintptr_t)addr;
            } else {
                info->wi_fn = (mosaic_wi_fn)(uintptr_t)addr;
            }
        }
    }
    exe->log = NULL;
    return r;
}

cl_int mosaic_finalize(const mosaic_compiler_target *target, const mosaic_bitcode *executable, const char *options,
                       mosaic_executable **out, char **log_out)
{
    return mc_finalize_one_size(target, executable, options, NULL, out, log_out);
}

cl_int mc_finalize_one_size(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                            const char *options, const mc_one_size *one_size, mosaic_executable **out, char **log_out)
{
    mosaic_strbuf log = {0};
    mc_options opts;
    mc_object obj;
    memset(&obj, 0, sizeof obj);
    mosaic_executable *exe = NULL;
    const void *bc = NULL;
    size_t bc_size = 0;
    if (out)
        *out = NULL;
    cl_int r = mc_parse_options(options, MC_OPTIONS_BUILD, &opts, &log);
    if (r != CL_SUCCESS)
        goto done;
    if (!executable || !out) {
        mosaic_strbuf_puts(&log, "error: not a Mosaic program binary\n");
        r = CL_INVALID_BINARY;
        goto done;
    }
    r = mc_blob_unwrap(executable->data, executable->size, NULL, &bc, &bc_size, NULL, &log);
    if (r == CL_SUCCESS)
        r = mc_llvm_init(&log);
    if (r != CL_SUCCESS)
        goto done;
    /* The cache first: an entry holds what build_object would produce. */
    mc_cache_key key;
    bool cached = false, use_cache = mc_cache_enabled();
    if (use_cache) {
        const char *cpu = target && target->cpu_name ? target->cpu_name : mc_host_cpu();
        const char *features = target && target->cpu_features ? target->cpu_features
                               : target && target->cpu_name ? "" : mc_host_features();
        /* settings that change the code are part of the key */
        mosaic_strbuf key_options = {0};
        mosaic_strbuf_printf(&key_options, "%s\n%s%s%s%s%s", options ? options : "",
                             mosaic_settings()->barrier_fibers ? "barrier-fibers " : "",
                             mosaic_settings()->no_widen ? "no-widen " : "",
                             mosaic_settings()->no_prefetch ? "no-prefetch " : "",
                             mosaic_settings()->no_fuse ? "no-fuse " : "",
                             mc_libmvec_available() ? "libmvec" : "");
        if (one_size)
            mosaic_strbuf_printf(&key_options, "\nkernel %s for groups of %zux%zux%zu", one_size->kernel,
                                 one_size->size[0], one_size->size[1], one_size->size[2]);
        mc_cache_key_compute(&key, bc, bc_size, key_options.data ? key_options.data : "", cpu, features, target);
        mosaic_strbuf_free(&key_options);
        void *entry;
        size_t entry_size;
        if (mc_cache_load(MC_CACHE_OBJECT, &key, &entry, &entry_size)) {
            cached = object_deserialize(entry, entry_size, &obj);
            free(entry);
        }
        if (mosaic_settings()->debug)
            fprintf(stderr, "mosaic: kernel cache %s\n", cached ? "hit" : "miss");
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!cached) {
            r = build_object(target, executable, &opts, one_size, &obj, &log);
            if (r != CL_SUCCESS)
                goto done;
            if (use_cache) {
                mosaic_strbuf entry = {0};
                object_serialize(&obj, &entry);
                if (!entry.oom)
                    mc_cache_store(MC_CACHE_OBJECT, &key, entry.data, entry.len);
                mosaic_strbuf_free(&entry);
            }
        }
        exe = calloc(1, sizeof *exe);
        if (!exe) {
            r = mc_out_of_memory(&log);
            goto done;
        }
        mosaic_strbuf jit_log = {0};
        r = load_object(target, &obj, exe, cached ? &jit_log : &log);
        mosaic_strbuf_free(&jit_log);
        if (r == CL_SUCCESS)
            break;
        mosaic_executable_free(exe);
        exe = NULL;
        if (!cached)
            goto done;
        /* a cache entry that does not load: build from the bitcode instead */
        object_clear(&obj);
        cached = false;
    }
    *out = exe;
    if (!one_size && !opts.opt_disable) /* (an optimised build for one size could gain) */
        exe->one_size = mc_one_size_builds_new(target, executable, options, exe);
done:
    object_clear(&obj);
    mc_free_options(&opts);
    return mc_finish_log(&log, r, log_out, "build");
}

size_t mosaic_executable_num_kernels(const mosaic_executable *exe)
{
    return exe ? exe->num_kernels - exe->num_block_kernels : 0;
}

const mosaic_kernel_info *mosaic_executable_kernel(const mosaic_executable *exe, size_t index)
{
    return index < mosaic_executable_num_kernels(exe) ? &exe->kernels[index] : NULL;
}

const mosaic_kernel_info *mosaic_executable_block_kernel(const mosaic_executable *exe, uint64_t handle)
{
    if (!exe || handle < MOSAIC_BLOCK_HANDLE(0) || handle - MOSAIC_BLOCK_HANDLE(0) >= exe->num_block_kernels)
        return NULL;
    return &exe->kernels[mosaic_executable_num_kernels(exe) + (handle - MOSAIC_BLOCK_HANDLE(0))];
}

const mosaic_kernel_info *mosaic_executable_find_kernel(const mosaic_executable *exe, const char *name)
{
    for (size_t i = 0; name && i < mosaic_executable_num_kernels(exe); i++)
        if (!strcmp(exe->kernels[i].name, name))
            return &exe->kernels[i];
    return NULL;
}

mc_one_size_builds *mc_executable_one_size_builds(const mosaic_executable *exe)
{
    return exe ? exe->one_size : NULL;
}

size_t mosaic_executable_global_variables_size(const mosaic_executable *exe)
{
    return exe ? exe->global_variables_size : 0;
}

void mosaic_executable_free(mosaic_executable *exe)
{
    if (!exe)
        return;
    mc_one_size_builds_free(exe->one_size);
    if (exe->jit) {
        LLVMErrorRef err = LLVMOrcDisposeLLJIT(exe->jit);
        if (err)
            LLVMConsumeError(err);
    }
    for (size_t i = 0; i < exe->num_kernels; i++)
        mc_kernel_info_clear(&exe->kernels[i]);
    free(exe->kernels);
    free(exe);
}
