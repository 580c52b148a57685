/*
 * The compiler's logs, and how its functions say they failed.  The headers
 * in the folders of src/compiler are the compiler's own (each declares one
 * concern of its folder); nothing in them is seen by the runtime: compiler.h
 * is the whole contract.
 *
 * How a function of the compiler says it failed (one convention, every file):
 *
 *  - A function that can fail returns cl_int: CL_SUCCESS, or the OpenCL
 *    error the API call must return (CL_COMPILE_PROGRAM_FAILURE,
 *    CL_LINK_PROGRAM_FAILURE, CL_BUILD_PROGRAM_FAILURE,
 *    CL_INVALID_{COMPILER,LINKER,BUILD}_OPTIONS, CL_INVALID_BINARY,
 *    CL_OUT_OF_HOST_MEMORY), having appended the reason to its log (a
 *    mosaic_strbuf: "error: ...\n" lines the user reads).  Callers pass the
 *    code on as it is; nothing translates codes on the way up.  A helper that
 *    serves several stages takes the code of its failure as a parameter
 *    (mc_split_words, mc_report_undefined).  What it makes goes out through
 *    a pointer parameter.
 *  - Running out of memory is CL_OUT_OF_HOST_MEMORY, logged by
 *    mc_out_of_memory(log).  A log that itself ran out of memory turns a
 *    success into CL_OUT_OF_HOST_MEMORY where the entry point ends
 *    (mc_finish_log).
 *  - A function that can fail only for want of memory may return what it
 *    makes, NULL meaning CL_OUT_OF_HOST_MEMORY, as malloc does
 *    (mc_context_create, mc_wg_begin).
 *  - bool is for predicates and flags (has_*, is_*, *_enabled, an option
 *    given), never for "it worked".  A lookup that finds nothing returns NULL
 *    or -1 (not found is no failure), a count is a count, and what cannot
 *    fail returns void.
 *  - Where a failure has a fallback, the caller that knows the fallback takes
 *    it: a step of regions.c that meets what it cannot cut returns
 *    CL_BUILD_PROGRAM_FAILURE, and mc_build_wg_regions answers CL_SUCCESS
 *    with K.wg NULL (the device runs the kernel as fibers); a damaged cache
 *    entry is a miss (mc_cache_load is a lookup).
 */
#ifndef MOSAIC_COMPILER_IR_LOG_H
#define MOSAIC_COMPILER_IR_LOG_H

#include <CL/cl.h>

#include "base/strbuf.h"

/* Appends "error: out of memory" to log; returns CL_OUT_OF_HOST_MEMORY. */
cl_int mc_out_of_memory(mosaic_strbuf *log);
/* How an entry point of compiler.h ends: gives the log to the caller (*out,
 * when out is not NULL; echoed on stderr when MOSAIC_DEBUG is set) and
 * returns result, or CL_OUT_OF_HOST_MEMORY for a success whose log ran out
 * of memory. */
cl_int mc_finish_log(mosaic_strbuf *log, cl_int result, char **out, const char *stage);

#endif
