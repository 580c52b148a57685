/* What a device takes in SPIR-V, from the target's -cl-ext list (spirv_support.c). */
#ifndef MOSAIC_COMPILER_FRONTEND_SPIRV_SUPPORT_H
#define MOSAIC_COMPILER_FRONTEND_SPIRV_SUPPORT_H

#include "base/strbuf.h"
#include "compiler/compiler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* (mosaic_spirv_capabilities and its two siblings: compiler.h) */
bool mc_spirv_has_capability(const mosaic_compiler_target *target, uint32_t capability);
bool mc_spirv_has_extension(const mosaic_compiler_target *target, const char *name);
bool mc_spirv_has_extended_instruction_set(const mosaic_compiler_target *target, const char *name);

/* CL_SUCCESS when every OpCapability, OpExtension and OpExtInstImport of
 * the module (little-endian words, header included) is one the target
 * takes; else CL_COMPILE_PROGRAM_FAILURE, each one it does not take named
 * in log. */
cl_int mc_spirv_check_support(const mosaic_compiler_target *target, const uint32_t *w, size_t nwords,
                              mosaic_strbuf *log);

#endif
