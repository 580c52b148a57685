/* What the two front ends (OpenCL C: frontend.c, SPIR-V: spirv.c) share. */
#ifndef MOSAIC_COMPILER_FRONTEND_FRONTEND_H
#define MOSAIC_COMPILER_FRONTEND_FRONTEND_H

#include <stdbool.h>

#include "compiler/compiler.h"

/* Does the device have the OpenCL C extension or optional feature `name`
 * ("cl_khr_fp16", "__opencl_c_images"): is it switched on by the -cl-ext=...
 * words of its clang_features (frontend.c)? */
bool mc_target_has_extension(const mosaic_compiler_target *target, const char *name);

/* Is the target the GPU's (an nvptx64 triple): programs made as clang makes
 * OpenCL C for NVPTX (its address spaces, names, declarations)? */
bool mc_target_is_nvptx(const mosaic_compiler_target *target);

#endif
