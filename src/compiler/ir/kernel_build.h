/*
 * The record of one kernel through finalize: the functions made from it
 * (K.body, K.wi, K.wg, K.vec, K.tail, K.row), what they use, and what the
 * passes found (docs/compiler.md, "Finalize").  Every stage after the front
 * end reads or fills it, so it sits below them all; workgroup.c makes and
 * frees it (workgroup/workgroup.h).
 */
#ifndef MOSAIC_COMPILER_IR_KERNEL_BUILD_H
#define MOSAIC_COMPILER_IR_KERNEL_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "compiler/compiler.h"

/* The statistics the passes keep, by index (ir/statistics.def). */
enum mc_statistic_id {
#define MC_STATISTIC(ID, ...) MC_STAT_##ID,
#include "compiler/ir/statistics.def"
    MC_NUM_STATISTICS
};

typedef struct mc_kernel_build {
    LLVMValueRef kernel;  /* the kernel as clang made it (emptied by mc_build_wi) */
    LLVMValueRef body;    /* K.body(kernel params..., ctx, lx, ly, lz): K's code, internal */
    LLVMValueRef wi;      /* K.wi: unpacks args, calls K.body */
    LLVMValueRef wg;      /* K.wg or NULL: unpacks args once, loops over K.body */
    unsigned num_args;
    LLVMTypeRef *arg_types;   /* the kernel's parameter types (+ body's extra ones) */
    LLVMTypeRef *byval_types; /* per parameter: the struct passed by value, or NULL */
    size_t static_local_size;
    bool uses_barriers;
    bool uses_sub_groups; /* calls __mosaic_sub_group_barrier (then uses_barriers too) */
    bool uses_non_uniform; /* calls __mosaic_sub_group_active (then uses_sub_groups too): active sets */
    bool may_spin;        /* mc_may_spin: reads shared memory a loop could wait on */
    bool spins;           /* a loop waits for other work-items (spin_loops.c): runs as fibers */
    char group_observer[80]; /* why the kernel can observe how its NDRange is split into work-groups
                                ("it calls get_local_id"; calls.c), "" when it cannot */
    LLVMMetadataRef access_group; /* of K.wg's work-item loop */
    LLVMValueRef vec;     /* K.vec or NULL: K.body for vec_lanes work-items of a row at once (wfv.c) */
    unsigned vec_lanes;
    LLVMValueRef tail;    /* K.tail: the same, one machine vector (tail_lanes), its first `count` lanes
                             (an extra parameter) only: the rest of the row */
    unsigned tail_lanes;
    LLVMValueRef rows_vec;  /* K.vec of K.rows, K.body for vec_rows consecutive rows (row_coarsening.c), or
                               NULL; rows_vec_lanes work-items of each row a call */
    unsigned rows_vec_lanes;
    LLVMValueRef rows_tail; /* K.tail of K.rows: the rest of those rows, rows_tail_lanes a call */
    unsigned rows_tail_lanes;
    unsigned vec_rows;      /* rows K.rows runs at once; 1 without it */
    LLVMValueRef rows_agree; /* K.rows.agree or NULL: do the rows from ly take the same way at K.rows's
                                branches on the row (row_coarsening.c) */
    LLVMValueRef row;     /* K.row or NULL: a barrier kernel's K.body for row_lanes work-items of a row at
                             once (wfv.c), which regions.c cuts instead of K.body (a one-size build) */
    unsigned row_lanes;
    unsigned row_rows;    /* rows of the group K.row runs at once (row_lanes work-items in all), 1 but for
                             rows narrower than a machine vector */
    const mosaic_kernel_arg *arg_info; /* the kernel's arguments (kinds), or NULL */
    bool specialise_images; /* K.wg gets a loop nest per common image format (image_formats.c) */
    unsigned stats[MC_NUM_STATISTICS]; /* the statistics the passes keep of it (ir/statistics.def), by MC_STAT_* */
    size_t item_bytes;         /* what K.wg keeps per work-item between its regions (regions.c); 0: none */
    bool prefetch_ahead;       /* K.wg's entry may prefetch what the group two ahead reads first (group_prefetch.c) */
} mc_kernel_build;

#endif
