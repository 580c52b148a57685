/*
 * Uniformity of a work-item function's values and blocks (uniformity.c).
 */
#ifndef MOSAIC_COMPILER_UNIFORMITY_H
#define MOSAIC_COMPILER_UNIFORMITY_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "compiler/ir/cfg.h"

typedef struct mc_uniformity mc_uniformity;

/* Analyses fn, whose parameters from first_varying on differ between
 * work-items (K.body: the local id).  NULL when memory ran out.  The answers
 * are about fn as it was: blocks and instructions added later are unknown
 * (varying, not uniform control). */
mc_uniformity *mc_uniformity_new(LLVMValueRef fn, unsigned first_varying);
/* The same on g, fn's graph, which the caller keeps until it frees u (a
 * pass asks analyses.h's cache, which makes it so). */
mc_uniformity *mc_uniformity_on(const mc_cfg *g, unsigned first_varying);
void mc_uniformity_free(mc_uniformity *u);

/* Is v the same for every work-item of a group, whenever they compute it? */
bool mc_uniform_value(const mc_uniformity *u, LLVMValueRef v);
/* Does every work-item run bb as often as the others (all of them or none)? */
bool mc_uniform_control(const mc_uniformity *u, LLVMBasicBlockRef bb);
/* Does bb leave a loop by a two-way branch on a uniform condition, under
 * uniform control (so all work-items stay in the loop, or all leave)? */
bool mc_uniform_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb);

/* Does bb branch on a varying condition that OpenCL's barrier rule makes
 * the same for every work-item of a valid kernel (a barrier on every way
 * out before the ways meet)? */
bool mc_barriers_decide(const mc_uniformity *u, LLVMBasicBlockRef bb);
/* Does bb leave a loop by a two-way branch on a varying condition (the
 * work-items leave it in different iterations)? */
bool mc_divergent_loop_exit(const mc_uniformity *u, LLVMBasicBlockRef bb);
/* The graph the analysis was made on (its blocks, dominators and loops,
 * cfg.h). */
const mc_cfg *mc_uniformity_cfg(const mc_uniformity *u);
/* How many natural loops hold bb (0 for a block that is not known). */
int mc_loop_depth(const mc_uniformity *u, LLVMBasicBlockRef bb);

#endif
