/* Work-groups of one column run together: K.fused (coarsening.c). */
#ifndef MOSAIC_COMPILER_WORKGROUP_FUSED_GROUPS_H
#define MOSAIC_COMPILER_WORKGROUP_FUSED_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "compiler/compiler.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"

/* Groups run at a time by K.fused. */
#define MC_FUSED_GROUPS MOSAIC_MAX_FUSED_GROUPS
/* How many groups of one column K.fused may run at a time for kernel kb
 * (K.body as finalize has it before widening and regions) built for groups
 * of size[]: MC_FUSED_GROUPS, or 0 with *why saying why not.  *needs_rows:
 * its work-items run loops of their own between barriers and carry many
 * values round barriers, so K.fused pays only where its rows are widened
 * (coarsening.c). */
unsigned mc_coarsen_work_groups(const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3], mc_analyses *an,
                         const char **why, bool *needs_rows);
/* K.fbody: a copy of K.body for groups of size[], whose work-item
 * (lx, ly, lz) is work-item (lx, ly, lz % size[2]) of group lz / size[2]
 * of the column (the contexts one after another from ctx); NULL when memory
 * ran out. */
LLVMValueRef mc_fused_body(LLVMModuleRef m, const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3]);

#endif
