/*
 * A second version of a work-item x loop of K.wg, taken for a row when a
 * test made once before the loop holds for every work-item of the row
 * (loop_versioning.c).  Its users decide what the test is and what the copy may
 * then assume: image_bounds_versioning.c (image indices that stay inside the image),
 * bounds_check_versioning.c (bounds checks the whole row passes).
 */
#ifndef MOSAIC_COMPILER_LOOP_VERSIONING_H
#define MOSAIC_COMPILER_LOOP_VERSIONING_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compiler/ir/ptr_map.h"

/* mc_row_slope's answer for a value that is not x times a constant plus
 * something invariant in the loop (or is, through a negative step). */
#define MC_ROW_NOT_AFFINE 1000000

#define MC_ROW_MAX_VARS 4

typedef struct mc_row_loop {
    LLVMValueRef wg;
    LLVMValueRef x;            /* the x phi: 0, then x + 1 from the latch */
    LLVMBasicBlockRef header, latch, exit, pre;
    LLVMValueRef bound;        /* the latch goes round while x + 1 < bound; NULL unless invariant */
    LLVMBasicBlockRef *blocks; /* the loop's blocks, header first */
    unsigned nblocks, cap;
    pmap index;                /* the loop's blocks and instructions -> index into copy */
    LLVMValueRef *copy;        /* after mc_row_copy: each one's copy (a block as a value) */
    unsigned ncopy;
    /* Other variables of the loop a value may be affine in (mc_row_add_var):
     * vars[0] is x. */
    LLVMValueRef vars[MC_ROW_MAX_VARS];
    unsigned nvars;
} mc_row_loop;

/* The latches of K.wg's work-item x loops: workgroup.c and regions.c mark
 * those alone parallel on the kernel's access group ag.  A malloc'd array
 * in *latches (NULL when there are none); how many. */
unsigned mc_row_latches(LLVMValueRef wg, LLVMMetadataRef ag, LLVMBasicBlockRef **latches);
/* visit(kb, b, latch, index, data) for each x loop of the nk kernel
 * builds' K.wg (the index-th of its kernel's, by its latch), with a
 * builder of their context. */
struct mc_kernel_build;
typedef void (*mc_row_visit)(struct mc_kernel_build *kb, LLVMBuilderRef b, LLVMBasicBlockRef latch, unsigned index,
                             void *data);
void mc_each_row_loop(struct mc_kernel_build *kbs, size_t nk, mc_row_visit visit, void *data);
/* The x loop whose latch is latch: false when it is not one these
 * functions handle (another shape, a value used after it, an outlined
 * builtin called in it) or memory ran out.  mc_row_loop_close frees it
 * either way. */
bool mc_row_loop_open(mc_row_loop *rl, LLVMValueRef wg, LLVMBasicBlockRef latch);
void mc_row_loop_close(mc_row_loop *rl);
bool mc_row_in_loop(const mc_row_loop *rl, LLVMValueRef v);
/* How much v grows per step of x: 0 for a value invariant in the loop, s
 * for x * s plus something invariant (sums, constant multiples, integer
 * casts of at least 32 bits, truncating masks (mc_row_truncating_mask) and
 * shifts that cast (mc_row_low_bits_cast) of x and invariant values, freezes, loads marked invariant),
 * MC_ROW_NOT_AFFINE otherwise. */
long long mc_row_slope(const mc_row_loop *rl, LLVMValueRef v);
/* The same per step of variable var (x or one mc_row_add_var gave), the
 * other variables taken as invariant. */
long long mc_row_slope_in(const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef var);
/* Is v `a & m` with m's ones bits zeros .. width - 1 (width at least 32,
 * below v's width; zeros at most 16)?  That is zext(trunc(a)) when a's low
 * zeros bits are 0. */
bool mc_row_truncating_mask(LLVMValueRef v, unsigned *width, unsigned *zeros);
/* Is v `(a << k) >> k` (ashr: a sext, lshr: a zext of a's low bits, at
 * least 32 of them), or `((a << k) + (c << k)) >> k`, the low bits of a +
 * c (instcombine's sext(trunc(a) + c))?  mc_row_low_bits_of: that a, or NULL. */
bool mc_row_low_bits_cast(LLVMValueRef v);
LLVMValueRef mc_row_low_bits_of(LLVMValueRef v);
/* Phi p of the loop counts as a variable too; false when there are too many. */
bool mc_row_add_var(mc_row_loop *rl, LLVMValueRef p);
/* Is v one of the variables (x, or one mc_row_add_var gave)? */
bool mc_row_is_var(const mc_row_loop *rl, LLVMValueRef v);
/* v (affine in the variables) with x replaced by xv, computed at the
 * builder's position (before the loop); v must not depend on other variables. */
LLVMValueRef mc_row_at(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef xv);
/* v with every variable vars[i] replaced by vals[i]. */
LLVMValueRef mc_row_at_all(LLVMBuilderRef b, const mc_row_loop *rl, LLVMValueRef v, LLVMValueRef const *vals);
/* The last x the loop runs, computed at the builder's position. */
LLVMValueRef mc_row_last_x(LLVMBuilderRef b, const mc_row_loop *rl);
/* Copies the loop's blocks (before the loop's exit); false when memory ran out. */
bool mc_row_copy(mc_row_loop *rl, LLVMBuilderRef b);
/* The copy of a block or instruction of the loop; v itself for anything else. */
LLVMValueRef mc_row_copy_of(const mc_row_loop *rl, LLVMValueRef v);
LLVMBasicBlockRef mc_row_copy_of_block(const mc_row_loop *rl, LLVMBasicBlockRef bb);
/* The loop's entry becomes a branch to the copy when use_copy (computed
 * before the loop's entry branch) holds, to the loop otherwise. */
void mc_row_choose(mc_row_loop *rl, LLVMBuilderRef b, LLVMValueRef use_copy);
/* Can the row's x range be split between the loop and the copy: an
 * invariant bound, and x the header's only phi? */
bool mc_row_can_split(const mc_row_loop *rl);
/* After mc_row_copy, instead of mc_row_choose: the loop runs x in [0, lo),
 * then the copy x in [lo, hi), then the loop again x in [hi, bound) (index-set
 * splitting); lo and hi are computed before the loop's entry branch, with
 * 0 <= lo <= hi <= bound.  Needs mc_row_can_split; the last change to the
 * loop (mc_row_copy_of no longer knows x's new phi). */
void mc_row_split(mc_row_loop *rl, LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi);
/* Positions b before the branch into the loop, where the tests go. */
void mc_row_before_loop(const mc_row_loop *rl, LLVMBuilderRef b);

#endif
