/* SPIR-V 1.4's instructions that llvm-spirv-15 aborts on, rewritten into
 * SPIR-V 1.3 before translation (spirv_lower.c, docs/spirv.md "Versions"). */
#ifndef MOSAIC_COMPILER_FRONTEND_SPIRV_LOWER_H
#define MOSAIC_COMPILER_FRONTEND_SPIRV_LOWER_H

#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* Rewrites the module (*module: *nwords little-endian words, malloc'd, which
 * passed spirv-val) in place or into a new allocation that replaces it.
 * CL_SUCCESS (unchanged when nothing needed it), CL_COMPILE_PROGRAM_FAILURE
 * with a line in log for what cannot be rewritten, or CL_OUT_OF_HOST_MEMORY. */
cl_int mc_spirv_lower(uint32_t **module, size_t *nwords, mosaic_strbuf *log);

#endif
