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
#include "compiler/ir/llvm.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"

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

/*
 * __local kernel arguments as offsets into the block's dynamic shared memory.
 * A kernel's `local float *t` is memory the launch sizes (clSetKernelArg
 * with a size and NULL); the host cannot know where shared memory is in the
 * GPU's shared window, so the kernel takes the argument's byte offset
 * instead (a 32-bit integer where the pointer was) and adds it to
 * MC_PTX_DYNAMIC_SHARED, the block's dynamic shared memory; the launch
 * passes the offsets and their total as the shared bytes.  Each kernel is
 * made again with the new parameters, its blocks moved into it, and takes
 * the old one's name, metadata and place in nvvm.annotations.
 */
static LLVMValueRef dynamic_shared(LLVMModuleRef m)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, MC_PTX_DYNAMIC_SHARED);
    if (g)
        return g;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef bytes = LLVMArrayType(LLVMInt8TypeInContext(c), 0);
    g = LLVMAddGlobalInAddressSpace(m, bytes, MC_PTX_DYNAMIC_SHARED, 3);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetAlignment(g, 128); /* as CL_DEVICE_MEM_BASE_ADDR_ALIGN will say: a long16 */
    return g;
}

static bool is_local_pointer(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 3;
}

/* false: out of memory, the kernel as it was */
static bool local_arguments_as_offsets(LLVMModuleRef m, LLVMValueRef kernel)
{
    unsigned n = LLVMCountParams(kernel);
    bool any = false;
    for (unsigned i = 0; i < n; i++)
        any |= is_local_pointer(LLVMTypeOf(LLVMGetParam(kernel, i)));
    if (!any || LLVMIsDeclaration(kernel))
        return true;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
    LLVMTypeRef old_type = LLVMGlobalGetValueType(kernel);
    LLVMTypeRef *params = malloc(n * sizeof *params);
    size_t len = 0;
    const char *name = LLVMGetValueName2(kernel, &len);
    char *copy = strndup(name, len); /* the name is free only once the old kernel is gone */
    if (!params || !copy) {
        free(params), free(copy);
        return false;
    }
    LLVMGetParamTypes(old_type, params);
    for (unsigned i = 0; i < n; i++)
        if (is_local_pointer(params[i]))
            params[i] = i32;
    LLVMValueRef made = LLVMAddFunction(m, "", LLVMFunctionType(LLVMGetReturnType(old_type), params, n, 0));
    free(params);
    LLVMSetFunctionCallConv(made, LLVMGetFunctionCallConv(kernel));
    mc_copy_attributes_at(kernel, made, LLVMAttributeFunctionIndex);
    for (unsigned i = 0; i < n; i++)
        if (!is_local_pointer(LLVMTypeOf(LLVMGetParam(kernel, i))))
            mc_copy_attributes_at(kernel, made, i + 1);
    size_t count = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(kernel, &count);
    for (size_t k = 0; k < count; k++)
        LLVMGlobalSetMetadata(made, LLVMValueMetadataEntriesGetKind(md, (unsigned)k),
                              LLVMValueMetadataEntriesGetMetadata(md, (unsigned)k));
    if (md)
        LLVMDisposeValueMetadataEntries(md);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel), next; bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(made, bb);
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(made)));
    LLVMValueRef shared = dynamic_shared(m);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef old = LLVMGetParam(kernel, i), now = LLVMGetParam(made, i);
        if (is_local_pointer(LLVMTypeOf(old)))
            now = LLVMBuildInBoundsGEP2(b, i8, shared, &now, 1, "local.argument");
        LLVMReplaceAllUsesWith(old, now);
    }
    LLVMDisposeBuilder(b);
    /* every use of the kernel (nvvm.annotations, a block's reference) is
     * the new one's: all functions are of one pointer type */
    LLVMReplaceAllUsesWith(kernel, made);
    LLVMDeleteFunction(kernel);
    LLVMSetValueName2(made, copy, len);
    free(copy);
    return true;
}

/* The program's module with libclc linked in and everything but the kernels
 * internal; NULL (logged, *r set) on failure. */
static LLVMModuleRef linked_program(LLVMContextRef c, const mosaic_bitcode *program, mosaic_strbuf *log, cl_int *r)
{
    *r = CL_BUILD_PROGRAM_FAILURE;
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
    /* The GPU's compute capability and PTX version are the code generator's
     * (mc_ptx_from_program's `sm`), not what clang wrote into each function:
     * "+ptx42,+sm_20" where it found no CUDA installation, the installed
     * CUDA's PTX version where it did; libclc's are its own. */
    LLVMValueRef *kernels = NULL;
    size_t nk = 0;
    bool fine = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15);
        if (LLVMIsDeclaration(f))
            continue;
        if (!is_kernel(f)) {
            LLVMSetLinkage(f, LLVMInternalLinkage);
        } else if (fine) {
            LLVMValueRef *more = realloc(kernels, (nk + 1) * sizeof *kernels);
            fine = more != NULL;
            if (fine)
                kernels = more, kernels[nk++] = f;
        }
    }
    for (size_t k = 0; k < nk && fine; k++) /* each remade: not while walking the list */
        fine = local_arguments_as_offsets(m, kernels[k]);
    free(kernels);
    if (!fine) {
        *r = mc_out_of_memory(log);
        LLVMDisposeModule(m);
        return NULL;
    }
    *r = CL_SUCCESS;
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
    LLVMContextRef c = mc_context_create(log); /* an error diagnostic goes to the log, not exit() */
    cl_int r = CL_BUILD_PROGRAM_FAILURE;
    LLVMModuleRef m = tm && c ? linked_program(c, program, log, &r) : NULL;
    if (!tm)
        mosaic_strbuf_printf(log, "error: no NVPTX code generator for %s\n", sm);
    else if (!c)
        r = mc_out_of_memory(log);
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
    if (c)
        LLVMContextDispose(c);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    return r;
}
