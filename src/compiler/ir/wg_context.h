/*
 * What generated code reads from the work-group context (mosaic_wg_ctx) and
 * calls on the device, for the passes that build or copy K.wg (util.c).
 */
#ifndef MOSAIC_COMPILER_IR_WG_CONTEXT_H
#define MOSAIC_COMPILER_IR_WG_CONTEXT_H

#include <llvm-c/Core.h>

/* K.wg's load of the group's size in dimension d from ctx (its parameter),
 * invariant and in [1, MOSAIC_MAX_LOCAL_SIZE]. */
LLVMValueRef mc_load_local_size(LLVMBuilderRef b, LLVMValueRef ctx, int d);
/* The device's __mosaic_barrier_divergence(ctx, kernel name), declared in m,
 * and in *name a private constant string of K's name (wi is K.wi): what a
 * work-group function calls when work-items disagree about a barrier. */
LLVMValueRef mc_divergence_report(LLVMModuleRef m, LLVMValueRef wi, LLVMValueRef *name);

#endif
