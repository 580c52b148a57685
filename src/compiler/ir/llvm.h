/*
 * LLVM set-up and the target (util.c): the native target, contexts whose
 * diagnostics go to a log, the target machine, the builtin library's
 * files, and what the device gives generated code.
 */
#ifndef MOSAIC_COMPILER_IR_LLVM_H
#define MOSAIC_COMPILER_IR_LLVM_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* Initialises LLVM's native target once: CL_BUILD_PROGRAM_FAILURE when
 * this machine has none. */
cl_int mc_llvm_init(mosaic_strbuf *log);
/* LLVM's lazily made statics made now, once a process, on this thread: before
 * builds on another thread that exit would race (util.c). */
void mc_llvm_warm_up(void);
/* A context whose diagnostics go to log (which must outlive the context);
 * NULL: out of memory. */
LLVMContextRef mc_context_create(mosaic_strbuf *log);
/* The host's target machine (or the one the device names). */
cl_int mc_target_machine(const mosaic_compiler_target *target, bool opt_disable, LLVMTargetMachineRef *out,
                         mosaic_strbuf *log);
/* The host CPU name, features and normalised triple (valid after mc_llvm_init). */
const char *mc_host_cpu(void);
const char *mc_host_features(void);
/* Copies and disposes an LLVM message / error into the log. */
void mc_log_llvm_error(mosaic_strbuf *log, const char *what, LLVMErrorRef err);

/* Runs fn(arg) so that an LLVM fatal error in it (report_fatal_error: a
 * back end that cannot select an instruction, a cast it cannot make)
 * returns false, with the reason in the log, instead of ending the process.
 * LLVM's objects fn was using are then in no known state: the caller
 * leaves them (a leak) rather than dispose them. */
bool mc_guard_fatal(void (*fn)(void *), void *arg, mosaic_strbuf *log);
/* The builtin library is several bitcode files (one per .cl file of builtins/). */
size_t mc_builtin_file_count(void);
/* File `index`, loaded lazily (function bodies read on demand) into ctx;
 * CL_BUILD_PROGRAM_FAILURE when it cannot be read. */
cl_int mc_load_builtin_file(LLVMContextRef ctx, size_t index, LLVMModuleRef *out, mosaic_strbuf *log);
/* The file defining builtin function `symbol` (a mangled name), or -1. */
int mc_builtin_file_of(const char *symbol);
/* The GPU's own built-ins (builtins/nvptx/NAME.cl), in a table of their own
 * that the index above never reads: file `name` ("workitem") loaded lazily
 * into ctx; CL_BUILD_PROGRAM_FAILURE when it is missing or unreadable. */
cl_int mc_load_gpu_builtin_file(LLVMContextRef ctx, const char *name, LLVMModuleRef *out, mosaic_strbuf *log);
/* The bytes of that file as embedded (for a cache key: gpu/ptx.c), or NULL
 * when there is none of that name. */
const void *mc_gpu_builtin_file_bytes(const char *name, size_t *size);
/* The name a mangled OpenCL C function had in the source: "_Z5fractfPf" -> "fract". */
void mc_source_name(const char *symbol, char *buf, size_t size);
/* Is `feature` ("+avx512f") among the target machine's features? */
bool mc_target_has_feature(LLVMTargetMachineRef tm, const char *feature);
/* How many vector registers the target machine's code has (16 or 32). */
unsigned mc_vector_registers(LLVMTargetMachineRef tm);
/* Reports, in log, every external function or variable of m that nothing will
 * define: not an LLVM intrinsic, not a runtime symbol of target, not in the
 * builtin library (when with_builtins), not a math function the host gives
 * kernels (mc_host_function_callable), not printf on a device that does not
 * lower it.  Any such symbol is `failure` (the stage's *_PROGRAM_FAILURE). */
cl_int mc_report_undefined(LLVMModuleRef m, bool with_builtins, const mosaic_compiler_target *target, cl_int failure,
                           mosaic_strbuf *log);
/* The same for variables alone: what a GPU program's link can check, its
 * functions being built-ins that only finalize links in (gpu/ptx.c). */
cl_int mc_report_undefined_variables(LLVMModuleRef m, const mosaic_compiler_target *target, cl_int failure,
                                     mosaic_strbuf *log);
/* Appends the bytes of the file at path to out (nothing when it cannot be opened). */
void mc_read_whole_file(const char *path, mosaic_strbuf *out);

/* Module m as text, edited in place by `edit` (which may shorten the text,
 * never lengthen it), read back into c: the new module (m disposed), or
 * NULL with "error: <what>: <the parser's message>" in log.  For changes
 * the C API cannot make, such as a pointer's address space everywhere it
 * is written (compiler/gpu/ptx.c, compiler/frontend/spirv_nvptx.c). */
LLVMModuleRef mc_module_rewritten(LLVMContextRef c, LLVMModuleRef m, void (*edit)(char *text), const char *what,
                                  mosaic_strbuf *log);
/* For such an edit: every `from` in text replaced by `to`, which is no
 * longer than `from`, in place. */
void mc_text_replace(char *text, const char *from, const char *to);

#endif
