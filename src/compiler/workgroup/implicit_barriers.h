/*
 * Cuts at a kernel's loops (implicit_barriers.c), for regions.c.
 */
#ifndef MOSAIC_COMPILER_IMPLICIT_BARRIERS_H
#define MOSAIC_COMPILER_IMPLICIT_BARRIERS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compiler/ir/uniformity.h"

/* A cut (either kind), a divergent one (masked mode). */
bool mc_is_implicit_barrier(LLVMValueRef inst);
bool mc_is_divergent_implicit_barrier(LLVMValueRef inst);
/* The device hook of the non-uniform sub-group functions (builtins/subgroups.cl):
 * a sub-group barrier of the work-items that reach it together, which returns
 * their mask (docs/subgroups.md). */
#define MC_NON_UNIFORM_BARRIER "__mosaic_sub_group_active"

/* Where a region ends: a work-group barrier, a sub-group barrier (uniform or
 * non-uniform) or a cut. */
bool mc_ends_region(LLVMValueRef inst);
/* Can inst run once for the whole group, for every work-item: uniform, and
 * without effects on memory? */
bool mc_group_once(const mc_uniformity *ua, LLVMValueRef inst);
/* Puts cuts at the loops of body worth it (ua: body's uniformity); whether it
 * put any.  Blocks are split; split_at_barriers must run again. */
bool mc_insert_implicit_barriers(LLVMModuleRef m, LLVMValueRef body, LLVMBuilderRef b, const mc_uniformity *ua);
/* Takes the cuts out of body again (K.wi runs the kernel's own code). */
void mc_remove_implicit_barriers(LLVMModuleRef m, LLVMValueRef body);

#endif
