/*
 * Loop IDs (!llvm.loop) and access groups the passes give the loops they
 * build (loop_md.c): parallel work-item loops, loops already vectorised, and
 * Mosaic's own mark on the y loops of K.row's regions.
 */
#ifndef MOSAIC_COMPILER_IR_LOOP_MD_H
#define MOSAIC_COMPILER_IR_LOOP_MD_H

#include <stdbool.h>

#include <llvm-c/Core.h>

/* A new access group (a distinct empty node); NULL when LLVM made none (the
 * loop then has no parallel-access annotation, nothing fails). */
LLVMMetadataRef mc_distinct_empty_node(LLVMContextRef c);
/* A new loop ID saying the accesses in access group ag are parallel, and,
 * unless interleave is 0, that the vectoriser interleaves that many
 * vectors per iteration (its own choice otherwise). */
LLVMValueRef mc_parallel_loop_md(LLVMContextRef c, LLVMMetadataRef ag, unsigned interleave);
/* ... and already vectors (K.wg's loop over rows of K.vec): not vectorised again. */
LLVMValueRef mc_vectorised_loop_md(LLVMContextRef c, LLVMMetadataRef ag);
/* Does loop ID md have a property named name (true, to be safe, for an ID
 * of more than 16 properties)? */
bool mc_loop_md_has(LLVMValueRef md, const char *name);
/* A new loop ID: old's properties (none when old is NULL) and n more. */
LLVMValueRef mc_loop_md_plus(LLVMContextRef c, LLVMValueRef old, const LLVMMetadataRef *more, unsigned n);
/* The loop ID regions.c gives the y loops of K.row's regions, which
 * mc_unroll_and_jam (unroll_and_jam.c) runs several rows at a time. */
LLVMValueRef mc_row_loop_md(LLVMContextRef c);
/* Is md (a branch's llvm.loop) that mark? */
bool mc_is_row_loop_md(LLVMValueRef md);

#endif
