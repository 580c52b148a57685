/*
 * Which calls finalize inlines, and the work-item context for the functions
 * left as calls (calls.c; docs/compiler.md, "Finalize").
 */
#ifndef MOSAIC_COMPILER_WORKGROUP_CALLS_H
#define MOSAIC_COMPILER_WORKGROUP_CALLS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* Marks the program's own functions (before the builtins are linked). */
void mc_mark_program_functions(LLVMModuleRef m);
/* Builtins and kernels always inlined, non-kernels internal; recursion refused. */
cl_int mc_prepare_calls(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, mosaic_strbuf *log);
/* Functions the kernel's own code must see always inlined (barriers, sub-group
 * functions, static __local variables, spin loops when spin_matters);
 * any_must: some were marked (or are dead); any_left: some program function may stay a call. */
cl_int mc_mark_must_inline(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, bool spin_matters, bool *any_must,
                           bool *any_left, mosaic_strbuf *log);
/* Can the kernel observe how its NDRange is split into work-groups?  True,
 * with why in why[0..size) ("it calls get_local_id"), when it or a function
 * it calls reads the group's sizes, ids or local ids, uses __local memory,
 * a barrier, a sub-group or work-group function or device-side enqueue, or
 * makes a call the walk cannot follow; get_global_id and the other global
 * work-item functions do not count.  After the builtins are linked, before
 * inlining (the program's functions are still marked). */
bool mc_observes_groups(LLVMValueRef kernel, char *why, size_t size);
/* The inliner finalize runs over the program's functions (callees first,
 * each simplified before its callers decide). */
#define MC_INLINE_PIPELINE "always-inline,cgscc(inline,function(sroa,early-cse,simplifycfg,instcombine))"
/* After the inliner: functions mc_mark_must_inline kept external while it
 * ran (called once, from a function that runs from several places) are
 * internal again. */
void mc_end_inlining(LLVMModuleRef m);
/* Functions left as calls that read the work-item context get it as four
 * more parameters (ctx, lx, ly, lz); __mosaic_image(x) becomes x in them. */
cl_int mc_pass_context(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, mosaic_strbuf *log);
/* Private memory of each of fns: its allocas and its deepest chain of calls'
 * (an alloca of a count known only at run time is K.wg's per-work-item
 * storage: counted as MC_STORAGE_ON_STACK, the most of it on the stack). */
void mc_private_sizes(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *fns, size_t n, size_t *sizes);

#endif
