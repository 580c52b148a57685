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

/* windows.c: the window (compiler.h, mosaic_check_window) an access of
 * `how` may be tested against, its index in ctx->check_windows; -1: none. */
int mc_check_window_of(uint64_t how);
/* Builds, at b, the test of [low, end) against window `window` of
 * ctx->check_windows: b is left in a new block, where the checker is to be
 * called, which must branch to the block returned, where the code goes on
 * (the window holds the bytes: straight there). */
LLVMBasicBlockRef mc_check_window_test(LLVMBuilderRef b, LLVMValueRef ctx, int window, LLVMValueRef low,
                                       LLVMValueRef end);
/* The pass check-windows: each call of __mosaic_check_access left in m
 * whose access has a window, behind its test; how many. */
unsigned mc_check_windows(LLVMModuleRef m);

#endif
