/*
 * The ranges of an x loop's values (row_ranges.c): the loops of constant
 * trip count inside the x loop as variables besides x, the corners of the
 * box the variables range over, and the tests, made once before the loop,
 * that a value affine in them does not wrap between the corners.  Users:
 * bounds_check_versioning.c (bounds checks a whole row passes) and
 * check/row_versioning.c (checking mode's window tests a whole row passes).
 */
#ifndef MOSAIC_COMPILER_ROW_RANGES_H
#define MOSAIC_COMPILER_ROW_RANGES_H

#include "compiler/ir/loop_versioning.h"

/* The counted loops inside rl's x loop: a phi from 0 by 1 whose loop runs
 * its body (from a block entered only from the phi's) while phi < limit, a
 * constant.  Each becomes a variable of rl, vars[i] (i >= 1), ranging over
 * [0, limit[i - 1]) where its body's block dominates. */
typedef struct mc_row_counters {
    unsigned long long limit[MC_ROW_MAX_VARS - 1];
    LLVMBasicBlockRef body[MC_ROW_MAX_VARS - 1];
} mc_row_counters;
void mc_row_find_counters(mc_row_loop *rl, mc_row_counters *c);

/* Is v invariant in the x loop and its counters? */
bool mc_row_invariant(const mc_row_loop *rl, LLVMValueRef v);
/* Is every way from the x loop's header to block `to` through block `via`? */
bool mc_row_passes_through(const mc_row_loop *rl, LLVMBasicBlockRef to, LLVMBasicBlockRef via);
/* Is v affine in the variables with no slope below 0, and is block `at`
 * inside the body of each counter v grows with (where its range is known)? */
bool mc_row_never_shrinks(const mc_row_loop *rl, const mc_row_counters *c, LLVMValueRef v, LLVMBasicBlockRef at);

/* The variables at the corners of their box, built at b: all 0 (low), and
 * all at their last values (high; x at the row's last). */
typedef struct mc_row_corners {
    LLVMValueRef low[MC_ROW_MAX_VARS], high[MC_ROW_MAX_VARS];
} mc_row_corners;
void mc_row_corners_at(LLVMBuilderRef b, const mc_row_loop *rl, const mc_row_counters *c, mc_row_corners *at);
/* Is v's value at the high corner not below its value at the low one, read
 * signed or not? */
LLVMValueRef mc_row_ends_in_order(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, bool is_signed,
                                  const mc_row_corners *at);
/* a && c, built at b; a NULL stands for true (a test being put together). */
LLVMValueRef mc_row_and(LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef c);
/* ok (NULL: true) and that no zext, sext or truncating mask in v's chain
 * (mc_row_low_bits_cast) sees its operand wrap between the corners; for a v that never shrinks,
 * every value between the corners is then in order too. */
LLVMValueRef mc_row_casts_in_order(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, const mc_row_corners *at,
                                   LLVMValueRef ok);

#endif
