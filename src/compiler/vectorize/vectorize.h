/*
 * Vectorisation: K.body for a row of work-items at once (wfv.c,
 * linearize.c), x loops versioned for what a whole row has in common
 * (bounds_check_versioning.c, unswitch_uniform.c), and the passes after LLVM's optimiser
 * that finish its vector code.  `an` is the pipeline's analyses
 * (ir/analyses.h), which they ask for graphs and uniformity.
 */
#ifndef MOSAIC_COMPILER_VECTORIZE_VECTORIZE_H
#define MOSAIC_COMPILER_VECTORIZE_VECTORIZE_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"

/* K.vec and K.tail: K.body for a row of work-items at once, each varying
 * value a vector (wfv.c); false, and MOSAIC_DEBUG says why, for kernels it
 * does not take: barriers, control flow that differs between work-items,
 * private arrays, atomics, calls, no loop of the kernel's own. */
bool mc_wfv_kernel(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an);
/* After mc_wfv_kernel: kb->rows_vec and kb->rows_tail, K.vec and K.tail
 * of K.rows, K.body for kb->vec_rows consecutive rows at once, when the
 * rows share loads in a loop (row_coarsening.c); false, and MOSAIC_DEBUG
 * says why, when not. */
bool mc_wfv_kernel_rows(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, unsigned vector_registers);
/* row_coarsening.c: K.rows, body for *rows (8, 4 or 2) consecutive rows at
 * once, what depends on the row made once a row and the rest once, and in
 * *vectors the machine vectors a value its widening should take; where it
 * branches on the row (a guard's `row < m`), it takes row 0's way, and
 * *agree is K.rows.agree(body's parameters), whether the rows from ly take
 * the same way at each such branch (NULL when there is none).  NULL and
 * *why when the rows may take different ways on other values, share no
 * load in a loop, or carry too many values round their loops. */
LLVMValueRef mc_coarsen_rows(LLVMModuleRef m, LLVMValueRef body, mc_analyses *an, unsigned vector_registers,
                             unsigned *rows, unsigned *vectors, LLVMValueRef *agree, const char **why);
/* Would K.body's float8 and float16 values, split into their elements, let
 * mc_wfv_kernel take it: a loop of the kernel's own, and no calls but
 * intrinsics with vector forms (a split vector math call would be one call
 * per element).  Whatever else the widener needs, it still checks. */
bool mc_wfv_takes_wide_vectors(LLVMValueRef body, mc_analyses *an);
/* A barrier kernel built for groups whose rows are `row` work-items, and
 * `group_rows` rows (y): kb->row, K.body for kb->row_lanes of them at once
 * (a power of two that divides the row; or, for a row narrower than a
 * machine vector, kb->row_rows whole rows), when every barrier is where
 * all of them are. */
bool mc_wfv_rows(LLVMModuleRef m, mc_kernel_build *kb, size_t row, size_t group_rows, bool report_divergence,
                 mc_analyses *an);
/* Rows that pass a kernel's bounds checks whole: a version of each x loop
 * holding such checks, without them (bounds_check_versioning.c). */
void mc_version_for_bounds_checks(mc_kernel_build *kbs, size_t nk);
/* Branches the same for a whole row: a version of each x loop holding
 * them per answer, the branches constants in it (unswitch_uniform.c). */
void mc_unswitch_uniform_branches(mc_kernel_build *kbs, size_t nk);
/* After optimisation: gathers, scatters and strided loads of one block
 * whose lanes touch neighbouring elements become wide loads and stores or
 * gathers of twice the width (interleaved_access.c).  How many went. */
unsigned mc_group_interleaved_accesses(LLVMValueRef f);
/* After mc_group_interleaved_accesses: component-wise arithmetic on F
 * vectors (a float4's components) that are deinterleaved from one wide
 * vector and interleaved again becomes arithmetic on F times the lanes in
 * the interleaved layout (interleaved_arithmetic.c).  How many values. */
unsigned mc_interleaved_arithmetic(LLVMValueRef f);
/* After optimisation: in a row loop of a widened region, what an inner
 * loop reads alike in every row is read by row 0 into arrays, and the
 * other rows run a copy of the loop that loads it (redundant_loads.c).
 * How many values; f's analyses invalidated when any. */
unsigned mc_eliminate_redundant_row_loads(LLVMValueRef f, mc_analyses *an);
/* masked_ops.c: masked loads, stores, gathers and scatters whose mask is a
 * constant with one true lane become scalar accesses; true if any did. */
bool mc_scalarize_one_lane_masked_ops(LLVMModuleRef m);
/* active_slot_folds.c: after optimisation, the folds of a sub-group's
 * active slots that a masked copy of an active set makes a chain of
 * selects and operations on splats become one vector load, select and
 * reduction (the float ones in order); how many. */
unsigned mc_fold_active_slots(LLVMModuleRef m, LLVMValueRef f);
/* active_slot_folds.c: masked stores into Mosaic's storage that a load of
 * the same loop reads back become a load, a select and a store (x86
 * forwards no masked store); how many. */
unsigned mc_blend_read_back_stores(LLVMModuleRef m, LLVMValueRef f);
/* masked_ops.c: the widener marks the gathers and scatters of a row
 * (K.row) it makes; mc_row_access says whether call has the mark. */
void mc_mark_row_access(LLVMValueRef call);
bool mc_row_access(LLVMValueRef call);
/* masked_ops.c: each marked scatter of f, and gather from memory other
 * than __local, with every lane on (a constant mask) becomes a load or
 * store a lane; how many. */
unsigned mc_row_accesses_by_lane(LLVMValueRef f);
/* masked_ops.c: where the lanes of vector of pointers ptrs (at most 16)
 * lie at distances from lane 0 that are constants or constant multiples of
 * one scalar (a float4 a work-item into a transposed tile; rows of a
 * matrix), out[l] = lane l's address, built at b (lane 0's taken from the
 * vector, the others it plus their distance), and true; else false and
 * nothing built. */
bool mc_lane_addresses(LLVMBuilderRef b, LLVMTargetDataRef td, LLVMValueRef ptrs, LLVMValueRef *out);
/* masked_ops.c: each gather and scatter of f whose mask is not a constant
 * runs under a branch on "any lane active", with the operations of the same
 * mask after it; returns how many. */
unsigned mc_skip_empty_gathers(LLVMValueRef f);
/* unroll_and_jam.c: after optimisation, runs 2, 4 or (with 32 vector
 * registers) 8 rows of a y loop marked mc_row_loop_md an iteration, their
 * instructions interleaved, where a row is one block with a long
 * floating-point chain; returns how many loops. */
unsigned mc_unroll_and_jam(LLVMValueRef f, unsigned vector_registers);
/* accumulator_split.c: after optimisation (and unroll_and_jam), a loop of
 * one block that carries more vectors of floating point than three quarters
 * of the vector registers, in independent chains, runs as several loops one
 * after another, each carrying at most half the registers of them; returns
 * how many loops were split. */
unsigned mc_split_accumulator_loops(LLVMValueRef f, unsigned vector_registers);
/* nontemporal_stores.c: after optimisation, the stores of whole 64-byte lines to
 * global memory in K.wg (wg) get a second version, non-temporal, that runs
 * when ctx->stream_stores is set and the lines are aligned; returns how
 * many stores.  Nothing on targets other than x86, nor in a function with
 * atomics, fences or calls that may synchronise. */
unsigned mc_nontemporal_stores(LLVMValueRef wg);

#endif
