/*
 * Executables and kernels built for one local size, in three layers that
 * call downward only:
 *   executable.c  mosaic_finalize and mosaic_executable_free (compiler.h):
 *                 an executable with its builds for one local size; the
 *                 GPU's, mosaic_finalize_ptx (gpu/ptx.c's PTX);
 *   one_size.c    the builds an executable keeps, made on request
 *                 (mosaic_executable_wg_for_size);
 *   jit.c         one finalize: the pipeline's object (or the cache's)
 *                 loaded into the JIT, the kernel table.
 */
#ifndef MOSAIC_COMPILER_PIPELINE_ONE_SIZE_H
#define MOSAIC_COMPILER_PIPELINE_ONE_SIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/compiler.h"

typedef struct mc_one_size {
    const char *kernel; /* the kernel built (the others are dropped) */
    size_t size[3];     /* the local size its K.wg is built for */
} mc_one_size;
typedef struct mc_one_size_builds mc_one_size_builds;

/* ---- jit.c ---- */
/* One finalize (jit.c): every kernel of the program (one_size NULL: what
 * mosaic_finalize builds), or that kernel alone for that local size
 * (cached under its own key); an executable without builds for one size. */
cl_int mc_finalize_one_size(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                            const char *options, const mc_one_size *one_size, mosaic_executable **out, char **log);
/* Was exe built without -cl-opt-disable? */
bool mc_executable_optimised(const mosaic_executable *exe);
/* The builds executable.c attached to exe (NULL: none); attaching them
 * (once), or NULL once they are freed.  jit.c never frees them. */
mc_one_size_builds *mc_executable_one_size_builds(const mosaic_executable *exe);
void mc_executable_keep_one_size_builds(mosaic_executable *exe, mc_one_size_builds *builds);
/* Frees what mc_finalize_one_size made (its builds freed before). */
void mc_executable_unload(mosaic_executable *exe);
/* The GPU's executable (mosaic_finalize_ptx): its PTX and kernel table,
 * both taken, and no JIT; NULL when out of memory (nothing taken). */
mosaic_executable *mc_executable_of_ptx(char *ptx, size_t ptx_size, mosaic_kernel_info *kernels, size_t num_kernels,
                                        size_t global_variables_size);

/* ---- one_size.c ---- */
/* What an executable keeps to build its kernels again (a copy of the
 * bitcode and options), or NULL when none of them would gain or may be
 * built apart from the others. */
mc_one_size_builds *mc_one_size_builds_new(const mosaic_compiler_target *target, const mosaic_bitcode *blob,
                                           const char *options, const mosaic_executable *exe);
void mc_one_size_builds_free(mc_one_size_builds *b);
/* Starts the build of each kernel of exe whose reqd_work_group_size fixes
 * its local size, for that size, without waiting for its launches. */
void mc_one_size_build_required(mosaic_executable *exe);

#endif
