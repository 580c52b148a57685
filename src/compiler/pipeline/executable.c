/*
 * The executable the runtime holds (compiler.h): the program's kernels as
 * one finalize made them (jit.c), and the builds of its barrier kernels for
 * one local size that launches will ask for (one_size.c).  This file is
 * the only one that calls both; one_size.c builds through jit.c, and jit.c
 * calls neither (one_size.h, the layers).  The GPU's executable is its PTX
 * and kernel table (gpu/ptx.c), held as jit.c holds the CPU's.
 */
#include <string.h>

#include "compiler/frontend/options.h"
#include "compiler/gpu/ptx.h"
#include "compiler/ir/log.h"
#include "compiler/pipeline/one_size.h"

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

/* The build options are checked as the CPU's finalize checks them; none
 * changes the PTX yet (it is always LLVM's O2, libclc's accuracy). */
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
    r = mc_ptx_build(executable, sm, &p, &log);
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
