/* K.wg built for one local size (local_size.c). */
#ifndef MOSAIC_COMPILER_WORKGROUP_LOCAL_SIZE_H
#define MOSAIC_COMPILER_WORKGROUP_LOCAL_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

/* K.wg (after K.body was inlined) for groups of exactly size[]: its loads
 * of the group's size and enqueued size from the context become constants,
 * and for rows of at most 32 work-items its loops over a row stay loops,
 * vectorised.  How many loads. */
unsigned mc_fix_local_size(LLVMValueRef wg, LLVMTargetDataRef td, const size_t size[3]);
/* The dimension d when byte offset off into a mosaic_wg_ctx is that of
 * local_size[d] or enqueued_local_size[d], else -1. */
int mc_local_size_field(int64_t off);

#endif
