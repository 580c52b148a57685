/* A small host for compiler tests: builds programs through the contract of
 * src/compiler/compiler.h and runs kernels over an NDRange on host memory. */
#ifndef MOSAIC_TEST_COMPILER_HOST_H
#define MOSAIC_TEST_COMPILER_HOST_H

#include <stddef.h>
#include <stdio.h>

#include "compiler/compiler.h"
#include "test.h"

/* The device description the tests compile for (barriers through pthreads). */
extern const mosaic_compiler_target test_target;

/* compile + link + finalize; NULL (and the log printed) on failure. */
mosaic_executable *build_program(const char *source, const char *options);
/* Same, returning the error of the first failing stage and its log. */
cl_int build_program_status(const char *source, const char *options, mosaic_executable **exe, char **log);

typedef struct ndrange {
    unsigned dim;
    size_t global[3], local[3], offset[3];
    size_t local_arg_bytes; /* after the static __local variables */
    int threads;            /* >1: work-groups spread over this many threads */
    int per_item;           /* run one thread per work-item (wi_fn) even when there is a wg_fn */
    mosaic_wg_fn whole;     /* when set, runs the groups of exactly local[] (a K.wg built for that
                               size, mosaic_executable_wg_for_size) instead of wg_fn */
} ndrange;

/* Runs kernel `name` over r: wg_fn when the kernel has one (and not
 * r->per_item), otherwise one thread per work-item through wi_fn. args[i] points at argument i's bytes. */
int run_kernel(const mosaic_executable *exe, const char *name, void **args, const ndrange *r);


#endif
