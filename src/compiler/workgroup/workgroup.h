/*
 * The work-item and work-group functions of a kernel: K.body and K.wi
 * (workgroup.c), K.wg for kernels without barriers (workgroup.c) and, by
 * cutting K.body at its barriers, for those with them (regions.c, implicit_barriers.c,
 * group_prefetch.c).
 */
#ifndef MOSAIC_COMPILER_WORKGROUP_WORKGROUP_H
#define MOSAIC_COMPILER_WORKGROUP_WORKGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"

/* Builds K.body from K (moving K's blocks), replacing the magic declarations
 * and static __local variables, and K.wi around it.  CL_BUILD_PROGRAM_FAILURE
 * for what it cannot translate (a __local variable in a constant aggregate). */
cl_int mc_build_wi(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
void mc_kernel_build_free(mc_kernel_build *kb);
/* Builds K.wg around K.body (kernels without barriers). */
cl_int mc_build_wg(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
/* Starts K.wg(args, ctx): adds the function and its entry block, unpacks the
 * arguments there into vals[0..num_args) and leaves b at the end of that
 * block.  NULL when out of memory. */
LLVMValueRef mc_wg_begin(LLVMModuleRef m, mc_kernel_build *kb, LLVMBuilderRef b, LLVMValueRef *vals,
                         mosaic_strbuf *log);
/* After K.body was inlined into K.wg: marks the work-item loop's memory
 * accesses as parallel (llvm.access.group) where they do not touch private
 * memory. */
void mc_annotate_wg(LLVMModuleRef m, mc_kernel_build *kb);
/* Replaces __mosaic_get_sub_group_first() and __mosaic_keep(x) in K.body, after K.wg is built. */
void mc_lower_sub_group_first(LLVMModuleRef m, mc_kernel_build *kb);
/* Numbers f's calls of __mosaic_sub_group_active 1, 2, ... in its block order
 * (their site argument); returns how many. */
unsigned mc_number_non_uniform_sites(LLVMValueRef f);
/* Builds K.wg for a kernel with barriers by cutting K.body into regions
 * between barriers, each a loop over the work-group (regions.c).  A kernel
 * with something the transformation does not handle is no failure: K.wg
 * stays NULL and the device runs K.wi as fibers.  What K.wg keeps per
 * work-item between regions (kb->item_bytes a work-item) is one allocation
 * a group: on the stack up to MC_STORAGE_ON_STACK bytes, else on the heap.
 * The graph and uniformity of K.body come from an (the pipeline's
 * analyses), where K.body's are invalidated once it is cut. */
#define MC_STORAGE_ON_STACK ((size_t)2 << 20)
/* Has K.body a loop of more than a few iterations?  K.wg is then built by
 * mc_build_wg_regions even without barriers: the loop's control runs
 * between loops over the work-items (once for the group when all leave the
 * loop together, else for those still in it), its body inside them. */
bool mc_has_loop_for_implicit_barrier(const mc_kernel_build *kb, mc_analyses *an);
cl_int mc_build_wg_regions(LLVMModuleRef m, mc_kernel_build *kb, const mosaic_compiler_target *target,
                           mc_analyses *an, mosaic_strbuf *log);
/* In K.wg's entry (regions.c; args: the kernel's arguments there, ctx its
 * context, group_width the group's size in x): prefetches of the lines that
 * K.body's reads before its first barrier, at addresses that do not depend
 * on the row, cover in the group two ahead in x; returns how many reads
 * (group_prefetch.c). */
unsigned mc_prefetch_groups_ahead(LLVMModuleRef m, const mc_kernel_build *kb, LLVMBuilderRef b,
                                  const LLVMValueRef *args, LLVMValueRef ctx, LLVMValueRef group_width);
/* In fn (K.row: a barrier kernel's widened rows), each read of global or
 * constant memory in a loop with barriers whose address moves with the
 * loop's counter also prefetches what it reads in the next iteration;
 * returns how many reads (tile_prefetch.c). */
unsigned mc_prefetch_next_tiles(LLVMModuleRef m, LLVMValueRef fn, mc_analyses *an);

#endif
