/* LLVM's own passes, run by name (llvm_passes.c). */
#ifndef MOSAIC_COMPILER_IR_LLVM_PASSES_H
#define MOSAIC_COMPILER_IR_LLVM_PASSES_H

#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <CL/cl.h>

#include "base/strbuf.h"

/* Runs the pass pipeline `passes` (opt's -passes syntax) over m;
 * CL_BUILD_PROGRAM_FAILURE, logged, when LLVM refuses it. */
cl_int mc_run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, mosaic_strbuf *log);
/* The same on functions fs only (the others marked optnone while it runs). */
cl_int mc_run_passes_on(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, const char *passes,
                        mosaic_strbuf *log);

#endif
