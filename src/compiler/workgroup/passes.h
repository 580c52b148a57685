/*
 * The work-group stage's passes over K.body and K.wg, one or two entry
 * points each: spin loops, barriers in loops, loops in step, `#pragma
 * unroll`, private arrays, guarded indices, atomics, safe division.  Those that need a
 * control-flow graph or uniformity take the pipeline's analyses (`an`,
 * ir/analyses.h) and invalidate there what they change.
 */
#ifndef MOSAIC_COMPILER_WORKGROUP_PASSES_H
#define MOSAIC_COMPILER_WORKGROUP_PASSES_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "base/strbuf.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"

/* Might K.body wait for another work-item: does it read shared memory in a
 * way a loop could wait on (an atomic read, a volatile load, a pipe built-in)?
 * A quick test before mc_mark_spin_loops needs the IR cleaned up. */
bool mc_may_spin(LLVMValueRef body);
/* Finds K.body's spin loops (spin_loops.c: loops that leave on memory
 * another work-item writes and they do not move on themselves), makes each
 * iteration that goes round again call __mosaic_yield(ctx), and sets
 * kb->spins if it found any.  On cleaned-up IR or not (-cl-opt-disable). */
cl_int mc_mark_spin_loops(LLVMModuleRef m, mc_kernel_build *kb, mc_analyses *an, mosaic_strbuf *log);
/* Each loop of a barrier kernel's K.body that contains a barrier gets one on
 * its back edges where the code around them touches memory, so no work-item
 * starts an iteration before the whole group has finished the previous one
 * (barrier_loops.c); with MOSAIC_DEBUG it says how many. */
cl_int mc_step_barrier_loops(mc_kernel_build *kbs, size_t nk, mc_analyses *an, mosaic_strbuf *log);
/* zext(a - b) where a >= b is known becomes zext(a) - zext(b), so the
 * vectoriser sees consecutive addresses (guarded_index.c).  How many. */
unsigned mc_widen_guarded_indices(LLVMValueRef fn);
/* Loops in which each work-item strides from its own start ("for (i = lid;
 * i < n; i += size)") go round as often as the first work-item's, each
 * work-item running the body while its own test holds, so their exits are
 * uniform (strided_loops.c).  How many. */
unsigned mc_uniform_loop_exits(LLVMValueRef body, mc_analyses *an);
/* Unrolls the loops of fs[0..n) that carry `#pragma unroll` (a count known,
 * LLVM's limit on size for pragmas), then promotes what they made
 * promotable (a private array indexed by their counters) to values: before
 * the loops over work-items are built, so that widening and regions see
 * registers, not memory (pragma_unroll.c).  Only the functions with such a
 * loop go through the passes; fs is reordered. */
cl_int mc_unroll_pragma_loops(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, mc_analyses *an,
                              mosaic_strbuf *log);
/* The small private arrays of each kernel's K.body that are read or written
 * at run-time indices become one variable a scalar, accessed through
 * selects on the index, then values (mem2reg): before the loops over
 * work-items are built, so widening sees no memory (private_arrays.c).
 * arrays[k]: how many of kernel k's. */
cl_int mc_private_arrays_to_values(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                                   unsigned *arrays, mosaic_strbuf *log);
/* Each branch of g's function that closes a cycle (a retreating edge of the
 * depth-first walk from the entry), once, in *out (malloc'd); how many, -1
 * when memory runs out (g NULL: the graph could not be made). */
int mc_back_edges(const mc_cfg *g, LLVMValueRef **out);
/* Atomics on __local memory in K.wg (one thread runs the group) become plain
 * loads and stores (atomics_demotion.c); after mc_annotate_wg.  How many. */
unsigned mc_demote_local_atomics(LLVMValueRef wg);
/* What atomic operation op stores, from the old value and its operand
 * (atomics.c); NULL for the operations it does not know (fmax, fmin...). */
LLVMValueRef mc_rmw_result(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old, LLVMValueRef v);
/* The kernel's counter arguments (counter_args.c): __global buffers whose
 * every use is an atomic add or subtract of one integer width whose old
 * value nothing reads; sets info->counter_args and counter_args_wide.  On
 * cleaned-up IR (kb->body's parameters used directly). */
void mc_find_counter_args(const mc_kernel_build *kb, mosaic_kernel_info *info);
/* Integer division and remainder never trap (safe_division.c). */
void mc_guard_integer_division(LLVMModuleRef m);
/* Turns the atomic library calls clang emits for spir64 (__atomic_fetch_add_4,
 * __opencl_atomic_load_8, ...) into atomic instructions (atomics.c); a call
 * it does not understand is CL_BUILD_PROGRAM_FAILURE. */
cl_int mc_lower_atomic_calls(LLVMModuleRef m, mosaic_strbuf *log);
/* The same for a target that has relaxed atomics only (the GPU): each
 * becomes a relaxed instruction, with fence(b, scope) emitted before it
 * when its order releases and after it when it acquires (scope: OpenCL's
 * number, 0 work-item .. 4 sub-group; 3, all devices, when unknown). */
typedef void (*mc_atomic_fence_fn)(LLVMBuilderRef b, unsigned scope);
cl_int mc_lower_atomic_calls_fenced(LLVMModuleRef m, mc_atomic_fence_fn fence, mosaic_strbuf *log);

#endif
