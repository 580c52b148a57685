/*
 * Facts about IR values the C API does not give, and small edits it lacks
 * (util.c): what a call calls, predicates, intrinsics, known bits,
 * addresses, moving and copying instructions.
 */
#ifndef MOSAIC_COMPILER_IR_UTIL_H
#define MOSAIC_COMPILER_IR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

/* The function call instruction `inst` calls directly, or NULL. */
LLVMValueRef mc_called_function(LLVMValueRef inst);
/* Does inst call the function `name` directly?  mc_is_barrier_call: the
 * work-group barrier, __mosaic_barrier (compiler.h). */
bool mc_calls_named(LLVMValueRef inst, const char *name);
/* The metadata workgroup/atomics.c gives an atomic instruction: the OpenCL
 * memory scope of the library call it was made of (compiler.h,
 * MOSAIC_CHECK_SCOPE_*) as !{i32 scope}, which checking mode reports. */
#define MOSAIC_SCOPE_MD "mosaic.scope"
bool mc_is_barrier_call(LLVMValueRef inst);
/* A builtin kept out of line (never inlined: "__mosaic_outlined_*"): the
 * rare paths of the image functions (builtins/images.cl), so the loop
 * around a common-format read stays small enough to unswitch and vectorise.
 * It calls nothing that needs the work-group context. */
bool mc_is_outlined_builtin(LLVMValueRef f);
/* A kernel: a function with a body that clang marks spir_kernel (OpenCL's
 * kernels on every target, nvptx64 too). */
bool mc_is_kernel(LLVMValueRef f);
/* A block kernel: the kernel clang makes of a block given to enqueue_kernel
 * or get_kernel_* ("__<caller>_block_invoke[_N]_kernel"), whose address the
 * caller passes.  A kernel the program only calls, or nothing uses, is not. */
bool mc_is_block_kernel(LLVMValueRef f);
/* The predicate of !(x p y), and the one of (y q x) == (x p y) (the C API has neither). */
LLVMIntPredicate mc_inverse_predicate(LLVMIntPredicate p);
LLVMIntPredicate mc_swapped_predicate(LLVMIntPredicate p);
/* Is branch condition c, where it holds (or not: `holds`), both of two
 * conditions (side[0], side[1]) holding (or both failing)?  `a && b` that
 * holds, `a || b` that fails: an and / or, or the select clang makes of
 * the short circuit. */
bool mc_both_sides(LLVMValueRef c, bool holds, LLVMValueRef side[2]);
/* Is f an intrinsic whose name starts with one of the n prefixes ("llvm.fma.")?
 * mc_calls_intrinsic: does inst call one whose name starts with prefix? */
bool mc_intrinsic_named(LLVMValueRef f, const char *const *prefixes, size_t n);
bool mc_calls_intrinsic(LLVMValueRef inst, const char *prefix);
/* Is f an intrinsic that computes from its operands only (llvm.smax., llvm.fma., ...)? */
bool mc_pure_intrinsic(LLVMValueRef f);
/* Integer facts the C API does not give (util.c):
 *   mc_splat_scalar: the scalar a vector splats, or NULL;
 *   mc_known_trailing_zeros: low bits of v known zero (in every lane);
 *   mc_or_is_add: `or x, c` adds c, its bits below x's known zeros. */
LLVMValueRef mc_splat_scalar(LLVMValueRef v);
unsigned mc_known_trailing_zeros(LLVMValueRef v);
bool mc_or_is_add(LLVMValueRef inst);
/* Is mask a constant vector with every lane on (a masked access that is a plain one)? */
bool mc_mask_all_on(LLVMValueRef mask);
/* Is v, an integer division or remainder, one by a constant other than 0
 * and -1 (it cannot trap, whatever its dividend)? */
bool mc_division_by_safe_constant(LLVMValueRef v);
/* A prefetch, at b, of the line at `address` (an i64): a read, kept in
 * every level of the cache, of data (group_prefetch.c, tile_prefetch.c). */
void mc_build_prefetch(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef address);
/* Instructions in blocks, for the passes that move code after optimisation
 * (masked_ops.c, nontemporal_stores.c):
 *   mc_computes_only: inst computes from its operands only (no memory, no
 *     trap), so it may move, or run on one way of a branch;
 *   mc_in_range: v is one of the instructions first..last of one block;
 *   mc_used_outside: v has a user that is not one of first..last;
 *   mc_move_before: inst moves to just before `where`;
 *   mc_replace_uses_outside: uses of v outside block `in` become uses of `to`;
 *   mc_move_to_end: the instructions from `first` up to `until` (not
 *     included; NULL: the end of the block) move to the end of block `to`. */
bool mc_computes_only(LLVMValueRef inst);
/* copy, an LLVMInstructionClone of inst (or a new phi of its type), made
 * to use counterpart(arg, v) for each operand, incoming value and block,
 * and successor v of inst (the passes that copy blocks: loop_versioning.c,
 * coarsening.c). */
void mc_remap_copy(LLVMValueRef inst, LLVMValueRef copy, LLVMValueRef (*counterpart)(const void *, LLVMValueRef),
                   const void *arg);
bool mc_in_range(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last);
bool mc_used_outside(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last);
void mc_move_before(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef where);
void mc_replace_uses_outside(LLVMValueRef v, LLVMBasicBlockRef in, LLVMValueRef to);
/* The one use u (an operand of its user) becomes a use of `to`; its user's
 * other operands stay.  A walk of a value's uses replaces them with this:
 * setting every operand of a user that equals the value would also move
 * the walk's next use, when the same user holds it (`x * x`), to `to`'s
 * list, and the walk would go on there (util.c). */
void mc_replace_use(LLVMUseRef u, LLVMValueRef to);
void mc_move_to_end(LLVMBuilderRef b, LLVMValueRef first, LLVMValueRef until, LLVMBasicBlockRef to);
/* `to` gets `from`'s name. */
void mc_copy_name(LLVMValueRef to, LLVMValueRef from);
/* Function `to` (of from's parameters, perhaps more) gets function `from`'s
 * attributes and its parameters' (alwaysinline, nounwind, noalias...). */
void mc_copy_function_attributes(LLVMValueRef from, LLVMValueRef to);
/* The attributes of `from` at `idx` (LLVMAttributeFunctionIndex, or a parameter's 1 + its number) given to `to`. */
void mc_copy_attributes_at(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx);
/* The byte offset of p from base, when p is base seen through casts and
 * GEPs with constant indices; -1 otherwise (util.c). */
int64_t mc_offset_from(LLVMValueRef p, LLVMValueRef base, LLVMTargetDataRef td);
/* The variable or buffer p points into: through casts (the generic address
 * space comes and goes as ptrtoint/inttoptr pairs) and element addresses
 * (util.c). */
LLVMValueRef mc_base_of(LLVMValueRef p);
/* Phis of succ that came from `from` now come from `to`: the C API cannot
 * change an incoming block, so such a phi is rebuilt (util.c). */
void mc_retarget_phis(LLVMBuilderRef b, LLVMBasicBlockRef succ, LLVMBasicBlockRef from, LLVMBasicBlockRef to);
/* Work-item loops of f (after the optimiser) that the loop vectoriser
 * widened: parallel loops whose induction steps by more than one. */
unsigned mc_count_vector_loops(LLVMValueRef f);

/* Does a way from block bb lead back to it through blocks `through` lets
 * pass (bb itself need not)?  True when memory ran out. */
bool mc_cycles_back(LLVMBasicBlockRef bb, bool (*through)(LLVMBasicBlockRef, const void *), const void *data);

#endif
