/*
 * The executable the runtime holds (compiler.h): the program's kernels as
 * one finalize made them (jit.c), and the builds of its barrier kernels for
 * one local size that launches will ask for (one_size.c).  This file is
 * the only one that calls both; one_size.c builds through jit.c, and jit.c
 * calls neither (one_size.h, the layers).
 */
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
