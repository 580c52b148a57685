/*
 * The executable: object code (built by the pipeline, finalize.c, or read
 * from the cache, object_cache.c) loaded into an ORC LLJIT, and the kernel
 * table the runtime asks about; for the GPU, its PTX and table instead
 * (mc_executable_of_ptx, no JIT).  The builds for one local size it keeps
 * (one_size.c) are attached and freed by executable.c: this file calls
 * neither, so one_size.c can build through it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/frontend/binary.h"
#include "compiler/ir/host_functions.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler/vectorize/vecmath.h"

struct mosaic_executable {
    LLVMOrcLLJITRef jit;
    size_t num_kernels;        /* the program's kernels, then its block kernels */
    size_t num_block_kernels;
    mosaic_kernel_info *kernels;
    size_t global_variables_size;
    mosaic_strbuf *log; /* where JIT session errors go while finalizing */
    bool optimised;     /* built without -cl-opt-disable */
    /* its barrier kernels built for one local size, or NULL: one_size.c's,
     * attached and freed by executable.c */
    mc_one_size_builds *one_size;
    char *ptx;          /* the GPU's (jit NULL), or NULL */
    size_t ptx_size;
    void *attached;     /* the device's (mosaic_executable_attach) */
    void (*release)(void *attached);
};

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
    /* The cache first: an entry holds what mc_build_object would produce. */
    mc_cache_key key;
    bool cached = false, use_cache = mc_cache_enabled();
    if (use_cache) {
        mc_object_cache_key(&key, target, bc, bc_size, &opts, one_size);
        void *entry;
        size_t entry_size;
        if (mc_cache_load(MC_CACHE_OBJECT, &key, &entry, &entry_size)) {
            cached = mc_object_deserialize(entry, entry_size, &obj);
            free(entry);
        }
        if (mosaic_debugging(MOSAIC_DEBUG_CACHE))
            fprintf(stderr, "mosaic: kernel cache %s\n", cached ? "hit" : "miss");
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!cached) {
            r = mc_build_object(target, executable, &opts, one_size, &obj, &log);
            if (r != CL_SUCCESS)
                goto done;
            if (use_cache) {
                mosaic_strbuf entry = {0};
                mc_object_serialize(&obj, &entry);
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
        mc_executable_unload(exe);
        exe = NULL;
        if (!cached)
            goto done;
        /* a cache entry that does not load: build from the bitcode instead */
        mc_object_clear(&obj);
        cached = false;
    }
    exe->optimised = !opts.opt_disable;
    *out = exe;
done:
    mc_object_clear(&obj);
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

bool mc_executable_optimised(const mosaic_executable *exe)
{
    return exe->optimised;
}

mc_one_size_builds *mc_executable_one_size_builds(const mosaic_executable *exe)
{
    return exe ? exe->one_size : NULL;
}

void mc_executable_keep_one_size_builds(mosaic_executable *exe, mc_one_size_builds *builds)
{
    MOSAIC_ASSERT(!exe->one_size || !builds);
    exe->one_size = builds;
}

mosaic_executable *mc_executable_of_ptx(char *ptx, size_t ptx_size, mosaic_kernel_info *kernels, size_t num_kernels,
                                        size_t global_variables_size)
{
    mosaic_executable *exe = calloc(1, sizeof *exe);
    if (!exe)
        return NULL;
    exe->ptx = ptx;
    exe->ptx_size = ptx_size;
    exe->kernels = kernels;
    exe->num_kernels = num_kernels;
    exe->global_variables_size = global_variables_size;
    exe->optimised = true;
    return exe;
}

const char *mosaic_executable_ptx(const mosaic_executable *exe, size_t *size)
{
    if (size)
        *size = exe && exe->ptx ? exe->ptx_size : 0;
    return exe ? exe->ptx : NULL;
}

void mosaic_executable_attach(mosaic_executable *exe, void *data, void (*release)(void *data))
{
    MOSAIC_ASSERT(!exe->attached);
    exe->attached = data;
    exe->release = release;
}

void *mosaic_executable_attached(const mosaic_executable *exe)
{
    return exe ? exe->attached : NULL;
}

size_t mosaic_executable_global_variables_size(const mosaic_executable *exe)
{
    return exe ? exe->global_variables_size : 0;
}

void mc_executable_unload(mosaic_executable *exe)
{
    if (!exe)
        return;
    MOSAIC_ASSERT(!exe->one_size); /* executable.c freed them */
    if (exe->attached && exe->release)
        exe->release(exe->attached);
    if (exe->jit) {
        LLVMErrorRef err = LLVMOrcDisposeLLJIT(exe->jit);
        if (err)
            LLVMConsumeError(err);
    }
    for (size_t i = 0; i < exe->num_kernels; i++)
        mc_kernel_info_clear(&exe->kernels[i]);
    free(exe->kernels);
    free(exe->ptx);
    free(exe);
}
