/*
 * Kernels built for one local size: a second finalize for one kernel
 * (finalize.c), and the builds an executable keeps (one_size.c).
 */
#ifndef MOSAIC_COMPILER_PIPELINE_ONE_SIZE_H
#define MOSAIC_COMPILER_PIPELINE_ONE_SIZE_H

#include <stddef.h>

#include "compiler/compiler.h"

typedef struct mc_one_size {
    const char *kernel; /* the kernel built (the others are dropped) */
    size_t size[3];     /* the local size its K.wg is built for */
} mc_one_size;
/* mosaic_finalize (which also makes the executable's mc_one_size_builds
 * unless -cl-opt-disable), or with one_size a build of that kernel alone
 * for that local size (cached under its own key). */
cl_int mc_finalize_one_size(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                            const char *options, const mc_one_size *one_size, mosaic_executable **out, char **log);
/* What an executable keeps to build its kernels again (a copy of the
 * bitcode and options), or NULL when none of them would gain or may be
 * built apart from the others. */
typedef struct mc_one_size_builds mc_one_size_builds;
mc_one_size_builds *mc_one_size_builds_new(const mosaic_compiler_target *target, const mosaic_bitcode *blob,
                                           const char *options, const mosaic_executable *exe);
void mc_one_size_builds_free(mc_one_size_builds *b);
mc_one_size_builds *mc_executable_one_size_builds(const mosaic_executable *exe);

#endif
