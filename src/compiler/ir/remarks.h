/* The loop vectoriser's remarks about work-group functions (remarks.c). */
#ifndef MOSAIC_COMPILER_IR_REMARKS_H
#define MOSAIC_COMPILER_IR_REMARKS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <CL/cl.h>

#include "base/strbuf.h"
#include "compiler/ir/kernel_build.h"

/* With MOSAIC_DEBUG=build: LLVM's loop vectoriser says why it left a
 * loop alone (the options that ask it, stored in argv: how many, at LLVM's
 * set-up); before the optimiser, a copy of m whose K.wg's instructions have
 * a location naming the kernel goes through the optimiser,
 * run_passes(copy, tm, passes, log), and a remark about a K.wg's loop is
 * printed on stderr (mc_print_vectoriser_remark, from a diagnostic handler:
 * true when it was one).  m itself is not changed.  The caller gives
 * run_passes (mc_run_passes, llvm_passes.h): that file is above this one,
 * whose printing the context's diagnostic handler (util.c) calls. */
typedef cl_int mc_run_passes_fn(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, mosaic_strbuf *log);
int mc_vectoriser_remark_options(const char **argv);
void mc_vectoriser_remarks(LLVMModuleRef m, mc_run_passes_fn *run_passes, LLVMTargetMachineRef tm, const char *passes,
                           const mc_kernel_build *kbs, size_t nk);
bool mc_print_vectoriser_remark(const char *text);

#endif
