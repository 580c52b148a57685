/*
 * The executable the runtime holds (compiler.h): the program's kernels as
 * one finalize made them (jit.c), and the builds of its barrier kernels for
 * one local size that launches will ask for (one_size.c).  This file is
 * the only one that calls both; one_size.c builds through jit.c, and jit.c
 * calls neither (one_size.h, the layers).  The GPU's executable is its PTX
 * and kernel table (gpu/ptx.c), held as jit.c holds the CPU's, and kept in
 * the kernel cache as the CPU's object code is (object_cache.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/options.h"
#include "compiler/gpu/ptx.h"
#include "compiler/ir/log.h"
#include "compiler/pipeline/one_size.h"
#include "compiler/pipeline/pipeline.h"

cl_int mosaic_finalize(const mosaic_compiler_target *target, const mosaic_bitcode *executable, const char *options,
                       mosaic_executable **out, char **log)
{
    cl_int r = mc_finalize_one_size(target, executable, options, NULL, out, log);
    if (r == CL_SUCCESS) {
        mc_executable_keep_one_size_builds(*out, mc_one_size_builds_new(target, executable, options, *out));
        mc_one_size_build_required(*out);
    }
    return r;
}

void mosaic_executable_free(mosaic_executable *exe)
{
    if (!exe)
        return;
    mc_one_size_builds_free(mc_executable_one_size_builds(exe));
    mc_executable_keep_one_size_builds(exe, NULL);
    mc_executable_unload(exe);
}

mosaic_executable *mosaic_executable_of_table(mosaic_kernel_info *kernels, size_t num_kernels)
{
    return mc_executable_of_ptx(NULL, 0, kernels, num_kernels, 0); /* (no PTX: a table, as the GPU's has) */
}

/* The build options are checked as the CPU's finalize checks them; none
 * changes the PTX yet (it is always LLVM's O2, libclc's accuracy), so the
 * cache's key leaves them out, as the CPU's leaves out those its passes do
 * not read.  The cache first (object_cache.c): an entry holds what
 * mc_ptx_build made of the same bitcode for the same sm, with the same
 * LLVM, libclc and work-item functions (mc_ptx_key_inputs). */
cl_int mosaic_finalize_ptx(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                           const char *options, const char *sm, mosaic_executable **out, char **log_out)
{
    (void)target;
    mosaic_strbuf log = {0};
    mc_options opts;
    if (out)
        *out = NULL;
    cl_int r = mc_parse_options(options, MC_OPTIONS_BUILD, &opts, &log);
    mc_free_options(&opts);
    if (r != CL_SUCCESS)
        return mc_finish_log(&log, r, log_out, "build");
    if (!executable || !out || !sm) {
        mosaic_strbuf_puts(&log, !sm ? "error: no compute capability for the GPU\n"
                                     : "error: not a Mosaic program binary\n");
        return mc_finish_log(&log, !sm ? CL_BUILD_PROGRAM_FAILURE : CL_INVALID_BINARY, log_out, "build");
    }
    mc_ptx_program p;
    memset(&p, 0, sizeof p);
    mc_cache_key key;
    const void *bc = NULL;
    size_t bc_size = 0;
    mosaic_strbuf inputs = {0}, ignored = {0};
    /* a binary that does not unwrap, or no libclc: no cache, and the build says why */
    bool use_cache = mc_cache_enabled() &&
                     mc_blob_unwrap(executable->data, executable->size, NULL, &bc, &bc_size, NULL, &ignored) ==
                         CL_SUCCESS &&
                     mc_ptx_key_inputs(&inputs) && !inputs.oom;
    mosaic_strbuf_free(&ignored);
    bool cached = false;
    if (use_cache) {
        mc_ptx_cache_key(&key, bc, bc_size, sm, inputs.data);
        void *entry;
        size_t entry_size;
        if (mc_cache_load(MC_CACHE_PTX, &key, &entry, &entry_size)) {
            cached = mc_ptx_deserialize(entry, entry_size, &p); /* a damaged one is a miss */
            free(entry);
        }
        if (mosaic_debugging(MOSAIC_DEBUG_CACHE))
            fprintf(stderr, "mosaic: PTX cache %s\n", cached ? "hit" : "miss");
    }
    if (!cached) {
        size_t logged = log.len;
        r = mc_ptx_build(executable, sm, &p, &log);
        /* Stored only when the build printed nothing (a hit has no log to
         * give) and libclc is the file the key named (not replaced while
         * the build read it). */
        if (r == CL_SUCCESS && use_cache && log.len == logged && !log.oom) {
            mosaic_strbuf now = {0}, entry = {0};
            if (mc_ptx_key_inputs(&now) && !now.oom && !strcmp(now.data, inputs.data)) {
                mc_ptx_serialize(&p, &entry);
                if (!entry.oom)
                    mc_cache_store(MC_CACHE_PTX, &key, entry.data, entry.len);
            }
            mosaic_strbuf_free(&now);
            mosaic_strbuf_free(&entry);
        }
    }
    mosaic_strbuf_free(&inputs);
    if (r == CL_SUCCESS) {
        *out = mc_executable_of_ptx(p.ptx, p.ptx_size, p.kernels, p.num_kernels, p.global_variables_size);
        if (*out)
            memset(&p, 0, sizeof p); /* taken */
        else
            r = mc_out_of_memory(&log);
    }
    mc_ptx_program_clear(&p);
    return mc_finish_log(&log, r, log_out, "build");
}
