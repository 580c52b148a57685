/*
 * Images: K.wg specialised on the common image formats (image_formats.c),
 * x loops versioned for rows whose image accesses stay inside
 * (image_bounds_versioning.c), and a channel's conversions there and back
 * folded (channel_round_trips.c).
 */
#ifndef MOSAIC_COMPILER_IMAGES_IMAGES_H
#define MOSAIC_COMPILER_IMAGES_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "base/strbuf.h"
#include "compiler/ir/kernel_build.h"

#define MC_IMAGE_CLASSES 2 /* RGBA UNORM_INT8, RGBA FLOAT */
/* Has the kernel an image argument (kb->arg_info set)? */
bool mc_has_image_args(const mc_kernel_build *kb);
/* How many specialised nests: with one or two image arguments one per
 * combination of their classes (so a copy from RGBA UNORM_INT8 to RGBA FLOAT
 * has one), with more one per class that every image has. */
unsigned mc_image_nests(const mc_kernel_build *kb);
/* At b: are the image arguments (vals[i], their descriptors) of nest's classes? */
LLVMValueRef mc_images_have_class(LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef *vals, unsigned nest);
/* At b: replaces each image argument in vals by a marker saying its class in nest. */
void mc_mark_image_class(LLVMModuleRef m, LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef *vals,
                         unsigned nest);
/* Once K.body is inlined: the format fields read through a marker become
 * the class's constants, and the markers go. */
/* Folds the format fields in the class nests; true if there were any. */
bool mc_fold_image_classes(LLVMModuleRef m);
/* Conversions of a small integer (a channel) to float and back that give
 * it back, or one constant (channel_round_trips.c): with fold, replaced by
 * it; without, only counted, seeing through the phis of ways that branches
 * on constants never take (simplifycfg removes them before the folding);
 * how many. */
unsigned mc_fold_channel_round_trips(LLVMValueRef f, bool fold);
/* Rows whose image accesses stay inside: a version of each x loop (image_bounds_versioning.c). */
cl_int mc_version_for_image_bounds(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                             bool specialised, mosaic_strbuf *log);

#endif
