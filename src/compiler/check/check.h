/*
 * Checking mode in the compiler (MOSAIC_CHECK, docs/check.md): the calls a
 * kernel built for checking makes (compiler.h, "Checking mode").
 */
#ifndef MOSAIC_COMPILER_CHECK_CHECK_H
#define MOSAIC_COMPILER_CHECK_CHECK_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* Adds the calls of __mosaic_check_access and __mosaic_check_barrier to
 * the program's functions (the builtins inlined into them; kernels: the
 * nk of `kernels`), for the checks in `kinds` (MOSAIC_CHECK_RACES...);
 * *sites: how many calls. */
cl_int mc_instrument_for_checking(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *kernels, size_t nk,
                                  unsigned kinds, unsigned *sites, mosaic_strbuf *log);

#endif
