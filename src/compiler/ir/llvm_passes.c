/*
 * LLVM's new pass manager, run by name: over a module, or over some of its
 * functions while the others are left alone.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "compiler/ir/llvm.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"

cl_int mc_run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, mosaic_strbuf *log)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(o, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(o, 1);
    LLVMPassBuilderOptionsSetLoopInterleaving(o, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(o, 1);
    LLVMErrorRef err = LLVMRunPasses(m, passes, tm, o);
    LLVMDisposePassBuilderOptions(o);
    if (err) {
        mc_log_llvm_error(log, "optimiser", err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* Runs passes on the functions fs only: every other definition is optnone meanwhile. */
cl_int mc_run_passes_on(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, const char *passes,
                        mosaic_strbuf *log)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    size_t cap = 0, k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        cap++;
    LLVMValueRef *marked = calloc(cap ? cap : 1, sizeof *marked);
    bool *had_noinline = calloc(cap ? cap : 1, sizeof *had_noinline);
    if (!marked || !had_noinline) {
        free(marked);
        free(had_noinline);
        return mc_out_of_memory(log);
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        bool chosen = false;
        for (size_t i = 0; i < n; i++)
            chosen |= fs[i] == f;
        if (chosen || LLVMIsDeclaration(f) || LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone))
            continue;
        had_noinline[k] = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline) != NULL;
        marked[k++] = f;
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, optnone, 0));
        if (!had_noinline[k - 1])
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, noinline, 0));
    }
    cl_int r = mc_run_passes(m, tm, passes, log);
    for (size_t i = 0; i < k; i++) {
        LLVMRemoveEnumAttributeAtIndex(marked[i], LLVMAttributeFunctionIndex, optnone);
        if (!had_noinline[i])
            LLVMRemoveEnumAttributeAtIndex(marked[i], LLVMAttributeFunctionIndex, noinline);
    }
    free(marked);
    free(had_noinline);
    return r;
}
