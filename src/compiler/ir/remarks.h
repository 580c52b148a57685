/* The loop vectoriser's remarks about work-group functions (remarks.c). */
#ifndef MOSAIC_COMPILER_IR_REMARKS_H
#define MOSAIC_COMPILER_IR_REMARKS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "compiler/ir/kernel_build.h"

/* With MOSAIC_DEBUG: LLVM's loop vectoriser says why it left a
 * loop alone (the options that ask it, stored in argv: how many, at LLVM's
 * set-up); K.wg's instructions get a location
 * naming the kernel (before the optimiser); a remark about a K.wg's loop is
 * printed on stderr (from the diagnostic handler: true when it was one). */
int mc_vectoriser_remark_options(const char **argv);
void mc_locate_work_group_functions(LLVMModuleRef m, const mc_kernel_build *kbs, size_t nk);
bool mc_print_vectoriser_remark(const char *text);

#endif
