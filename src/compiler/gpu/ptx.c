/*
 * The PTX back end (ptx.h): bitcode of nvptx64 -> libclc linked in ->
 * non-kernels internal -> O2 -> PTX for one compute capability.
 *
 * libclc's NVPTX library (nvptx64--nvidiacl.bc) defines OpenCL C's built-ins
 * in the names and address spaces clang gives a program of the same triple
 * (fract's private pointer is `float *`, a __global one
 * `__attribute__((address_space(1)))`), and calls nothing outside itself;
 * its functions are linkonce_odr, so the optimiser drops those no kernel
 * calls.  A call left to a function with no body after that is a built-in
 * the GPU lacks: the build fails naming it, rather than the driver's JIT.
 */
#include "compiler/gpu/ptx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "compiler/frontend/binary.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"

#ifndef MOSAIC_LIBCLC_NVPTX_PATH
#define MOSAIC_LIBCLC_NVPTX_PATH ""
#endif

/* The triple the NVPTX back end is asked for: CUDA's driver, 64-bit. */
static const char code_triple[] = "nvptx64-nvidia-cuda";

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void initialise_nvptx(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

bool mc_ptx_available(void)
{
    return MOSAIC_LIBCLC_NVPTX_PATH[0] && access(MOSAIC_LIBCLC_NVPTX_PATH, R_OK) == 0;
}

/* Parses the bitcode file `path`. */
static LLVMModuleRef parse_file(LLVMContextRef c, const char *path, mosaic_strbuf *log)
{
    char *message = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &message)) {
        mosaic_strbuf_printf(log, "error: cannot read the GPU's built-ins %s: %s\n", path, message ? message : "");
        LLVMDisposeMessage(message);
        return NULL;
    }
    LLVMModuleRef m = NULL;
    if (LLVMParseBitcodeInContext2(c, buf, &m))
        mosaic_strbuf_printf(log, "error: the GPU's built-ins %s are not LLVM bitcode\n", path);
    LLVMDisposeMemoryBuffer(buf);
    return m;
}

/* A kernel: what clang marks spir_kernel (OpenCL's kernels on every target). */
static bool is_kernel(LLVMValueRef f)
{
    return LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

/* The program's module with libclc linked in and everything but the kernels
 * internal; NULL (logged) on failure. */
static LLVMModuleRef linked_program(LLVMContextRef c, const mosaic_bitcode *program, mosaic_strbuf *log)
{
    LLVMModuleRef m = NULL;
    if (mc_blob_load(c, program, &m, log) != CL_SUCCESS)
        return NULL;
    if (strncmp(LLVMGetTarget(m), "nvptx64", 7) != 0) {
        mosaic_strbuf_printf(log, "error: the program was compiled for %s, not for the GPU (%s)\n", LLVMGetTarget(m),
                             MC_PTX_TRIPLE);
        LLVMDisposeModule(m);
        return NULL;
    }
    LLVMModuleRef clc = parse_file(c, MOSAIC_LIBCLC_NVPTX_PATH, log);
    if (!clc) {
        LLVMDisposeModule(m);
        return NULL;
    }
    LLVMSetTarget(clc, LLVMGetTarget(m)); /* the library's own spelling of the same triple */
    if (LLVMLinkModules2(m, clc)) {       /* takes clc */
        mosaic_strbuf_printf(log, "error: cannot link the GPU's built-ins into the program\n");
        LLVMDisposeModule(m);
        return NULL;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && !is_kernel(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    return m;
}

/* A function the optimised program still calls without a body (an
 * intrinsic aside), or NULL. */
static const char *missing_function(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && LLVMGetFirstUse(f))
            return LLVMGetValueName(f);
    return NULL;
}

cl_int mc_ptx_from_program(const mosaic_bitcode *program, const char *sm, char **ptx, size_t *size, mosaic_strbuf *log)
{
    *ptx = NULL;
    *size = 0;
    if (!mc_ptx_available()) {
        mosaic_strbuf_printf(log, "error: no built-ins for the GPU: libclc's NVPTX library (Debian's libclc-16) "
                                  "was not found when Mosaic was built, or is gone (%s)\n",
                             MOSAIC_LIBCLC_NVPTX_PATH[0] ? MOSAIC_LIBCLC_NVPTX_PATH : "no path");
        return CL_COMPILER_NOT_AVAILABLE;
    }
    pthread_once(&nvptx_once, initialise_nvptx);
    LLVMTargetRef target = NULL;
    char *message = NULL;
    if (LLVMGetTargetFromTriple(code_triple, &target, &message)) {
        mosaic_strbuf_printf(log, "error: this LLVM has no NVPTX back end: %s\n", message ? message : "");
        LLVMDisposeMessage(message);
        return CL_COMPILER_NOT_AVAILABLE;
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, code_triple, sm, "", LLVMCodeGenLevelAggressive,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = tm ? linked_program(c, program, log) : NULL;
    cl_int r = m ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
    if (!tm)
        mosaic_strbuf_printf(log, "error: no NVPTX code generator for %s\n", sm);
    if (r == CL_SUCCESS) {
        LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
        char *layout = LLVMCopyStringRepOfTargetData(td);
        LLVMSetDataLayout(m, layout);
        LLVMDisposeMessage(layout);
        LLVMDisposeTargetData(td);
        LLVMSetTarget(m, code_triple);
        r = mc_run_passes(m, tm, "default<O2>", log);
    }
    const char *missing = r == CL_SUCCESS ? missing_function(m) : NULL;
    if (missing) {
        mosaic_strbuf_printf(log, "error: the GPU has no built-in '%s'\n", missing);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMMemoryBufferRef text = NULL;
    if (r == CL_SUCCESS && LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &message, &text)) {
        mosaic_strbuf_printf(log, "error: PTX generation failed: %s\n", message ? message : "");
        LLVMDisposeMessage(message);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    if (text) {
        size_t n = LLVMGetBufferSize(text);
        *ptx = malloc(n + 1);
        if (*ptx) {
            memcpy(*ptx, LLVMGetBufferStart(text), n);
            (*ptx)[n] = 0;
            *size = n;
        } else {
            r = mc_out_of_memory(log);
        }
        LLVMDisposeMemoryBuffer(text);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(c);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    return r;
}
