/* SPIR-V programs for the GPU (spirv_nvptx.c): the SPIR-V translator's
 * module, spir64's, made the module clang makes of OpenCL C for nvptx64. */
#ifndef MOSAIC_COMPILER_FRONTEND_SPIRV_NVPTX_H
#define MOSAIC_COMPILER_FRONTEND_SPIRV_NVPTX_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Types.h>

#include "base/strbuf.h"

/* The translator's module `m` as the module clang makes of OpenCL C for
 * `triple` (an nvptx64 one): NVPTX's address spaces, calling conventions,
 * kernel annotations and built-ins' mangled names, and single-precision
 * divisions marked as allowed 2.5 ulp, as clang marks `/` (unless
 * `exact_division`: -cl-fp32-correctly-rounded-divide-sqrt).  Takes `m`;
 * the new module, or NULL (logged). */
LLVMModuleRef mc_nvptx_from_spir(LLVMContextRef c, LLVMModuleRef m, const char *triple, bool exact_division,
                                 mosaic_strbuf *log);

/* A built-in's Itanium name as spir64 spells it (`_Z5fractfPU3AS4f`), as
 * nvptx64 does (`_Z5fractfPf`), into out (of cap bytes); false when the
 * name is not one of a function of parameter types it knows. */
bool mc_nvptx_name(const char *spir_name, char *out, size_t cap);

#endif
