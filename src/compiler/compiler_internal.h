/*
 * Internal interfaces of the compiler pipeline (src/compiler).  Nothing here
 * is seen by the runtime: compiler.h is the whole contract.
 */
#ifndef MOSAIC_COMPILER_INTERNAL_H
#define MOSAIC_COMPILER_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>

#include "base/assert.h"
#include "base/settings.h"
#include "base/strbuf.h" /* logs, option lists, clang's arguments */
#include "compiler/compiler.h"

/* Stores the log for the caller (and echoes it to stderr when MOSAIC_DEBUG is set). */
void mc_finish_log(mosaic_strbuf *log, char **out, const char *stage);

/* ---- options ---------------------------------------------------------------- */
typedef enum mc_option_mode {
    MC_OPTIONS_COMPILE, /* clCompileProgram, and the source part of clBuildProgram */
    MC_OPTIONS_LINK,    /* clLinkProgram */
    MC_OPTIONS_BUILD,   /* mosaic_finalize: clBuildProgram's options, or the link options */
} mc_option_mode;

typedef struct mc_options {
    char **clang_args; /* what is passed to clang (compile mode) */
    size_t num_clang_args;
    int cl_std;        /* 100, 110, 120, 200, 300; 0 when not given */
    int opt_disable;
    int create_library;
    int enable_link_options;
    int fast_relaxed_math, unsafe_math, finite_math_only, no_signed_zeros, mad_enable;
    int denorms_are_zero;
    int debug_info;
} mc_options;

/* Returns 0, or -1 with a message in log (the option is invalid). */
int mc_parse_options(const char *text, mc_option_mode mode, mc_options *out, mosaic_strbuf *log);
void mc_free_options(mc_options *opts);
/* Splits text into words like a POSIX shell (quotes, backslashes).  Returns the
 * number of words or -1 (unbalanced quote, out of memory). */
int mc_split_words(const char *text, char ***words);
void mc_free_words(char **words, int n);

/* ---- child processes (child.c) ---------------------------------------------- */
typedef struct mc_child {
    const char *dir;     /* working directory, or NULL */
    int stdin_fd;        /* -1: /dev/null */
    int timeout_ms;      /* then it is killed; 0: no limit */
    uint64_t max_memory; /* its address space limit in bytes (and no core file); 0: none */
    enum { MC_CHILD_UNKNOWN, MC_CHILD_EXITED, MC_CHILD_SIGNALED, MC_CHILD_TIMED_OUT } end;
    int code;            /* the exit status or signal */
} mc_child;
/* Runs argv (argv[0] looked up in PATH), its stdout and stderr appended to
 * output.  Returns 0 with c->end and c->code set (MC_CHILD_UNKNOWN when the
 * application ignores SIGCHLD), or an errno when it could not start. */
int mc_run_child(const char *const *argv, mc_child *c, mosaic_strbuf *output);

/* ---- binaries ---------------------------------------------------------------- */
/* A blob is a 32-byte header and LLVM bitcode: "MOSAIC\0\0", format version,
 * binary type, bitcode size, checksum (binary.c). */
#define MC_BLOB_MAGIC "MOSAIC\0\0"
#define MC_BLOB_VERSION 2u
#define MC_BLOB_HEADER_SIZE 32u

cl_int mc_blob_wrap(cl_program_binary_type type, const void *bitcode, size_t size, mosaic_bitcode *out);
/* Checks the header and the checksum; sets the bitcode pointer and size. */
cl_int mc_blob_unwrap(const void *data, size_t size, cl_program_binary_type *type,
                      const void **bitcode, size_t *bitcode_size);
/* Parses a blob's bitcode into ctx. */
cl_int mc_blob_load(LLVMContextRef ctx, const mosaic_bitcode *blob, LLVMModuleRef *out, mosaic_strbuf *log);
cl_int mc_module_to_blob(LLVMModuleRef m, cl_program_binary_type type, mosaic_bitcode *out);
/* How long the bitcode checker (opt-16, a child process) may take on a binary: 60 s (tests shorten it). */
extern int mc_bitcode_check_timeout_ms;

/* ---- LLVM helpers -------------------------------------------------------------- */
/* Initialises LLVM's native target once; returns 0 on success. */
int mc_llvm_init(void);
/* A context whose diagnostics go to log (which must outlive the context). */
LLVMContextRef mc_context_create(mosaic_strbuf *log);
/* The host target machine (or the one the device names); NULL + log on error. */
LLVMTargetMachineRef mc_target_machine(const mosaic_compiler_target *target, int opt_disable, mosaic_strbuf *log);
/* The host CPU name, features and normalised triple (valid after mc_llvm_init). */
const char *mc_host_cpu(void);
const char *mc_host_features(void);
/* Copies and disposes an LLVM message / error into the log. */
void mc_log_llvm_error(mosaic_strbuf *log, const char *what, LLVMErrorRef err);
/* The builtin library is several bitcode files (one per .cl file of builtins/). */
size_t mc_builtin_file_count(void);
/* File `index`, loaded lazily (function bodies read on demand) into ctx. */
LLVMModuleRef mc_load_builtin_file(LLVMContextRef ctx, size_t index, mosaic_strbuf *log);
/* The file defining builtin function `symbol` (a mangled name), or -1. */
int mc_builtin_file_of(const char *symbol);
/* The name a mangled OpenCL C function had in the source: "_Z5fractfPf" -> "fract". */
void mc_source_name(const char *symbol, char *buf, size_t size);
/* Handle of the C math library, for symbol checks (never NULL after init). */
void *mc_libm_handle(void);

/* Reports, in log, every external function or variable of m that nothing will
 * define: not an LLVM intrinsic, not a runtime symbol of target, not in the
 * builtin library (when with_builtins), not in the C math library, not
 * printf.  Returns the number of such symbols. */
int mc_report_undefined(LLVMModuleRef m, int with_builtins, const mosaic_compiler_target *target, mosaic_strbuf *log,
                        const char *prefix);

/* ---- work-group functions (workgroup.c) ---------------------------------------- */
typedef struct mc_kernel_build {
    LLVMValueRef kernel;  /* the kernel as clang made it (emptied by mc_build_wi) */
    LLVMValueRef body;    /* K.body(kernel params..., ctx, lx, ly, lz): K's code, internal */
    LLVMValueRef wi;      /* K.wi: unpacks args, calls K.body */
    LLVMValueRef wg;      /* K.wg or NULL: unpacks args once, loops over K.body */
    unsigned num_args;
    LLVMTypeRef *arg_types;   /* the kernel's parameter types (+ body's extra ones) */
    LLVMTypeRef *byval_types; /* per parameter: the struct passed by value, or NULL */
    size_t static_local_size;
    int uses_barriers;
    LLVMMetadataRef access_group; /* of K.wg's work-item loop */
} mc_kernel_build;

/* Builds K.body from K (moving K's blocks), replacing the magic declarations
 * and static __local variables, and K.wi around it.  Returns 0 or -1 + log. */
/* Integer division and remainder never trap (safe_division.c). */
void mc_guard_integer_division(LLVMModuleRef m);

int mc_build_wi(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
void mc_kernel_build_free(mc_kernel_build *kb);
/* Builds K.wg around K.body (kernels without barriers). */
int mc_build_wg(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
/* Starts K.wg(args, ctx): adds the function and its entry block, unpacks the
 * arguments there into vals[0..num_args) and leaves b at the end of that
 * block.  NULL when out of memory. */
LLVMValueRef mc_wg_begin(LLVMModuleRef m, mc_kernel_build *kb, LLVMBuilderRef b, LLVMValueRef *vals, mosaic_strbuf *log);
/* A new access group (a distinct empty node). */
LLVMMetadataRef mc_distinct_empty_node(LLVMContextRef c);
/* A new loop ID saying the accesses in access group ag are parallel. */
LLVMValueRef mc_parallel_loop_md(LLVMContextRef c, LLVMMetadataRef ag);
/* Builds K.wg for a kernel with barriers by cutting K.body into regions
 * between barriers, each a loop over the work-group (regions.c).  Returns 0
 * when built, 1 when the kernel has something the transformation does not
 * handle (K.wg stays NULL: the device runs K.wi as fibers), -1 on error. */
int mc_build_wg_regions(LLVMModuleRef m, mc_kernel_build *kb, const mosaic_compiler_target *target, mosaic_strbuf *log);
/* After K.wi was inlined into K.wg: marks the work-item loop's memory accesses
 * as parallel (llvm.access.group) where they do not touch private memory. */
void mc_annotate_wg(LLVMModuleRef m, mc_kernel_build *kb);

/* Turns OpenCL C printf calls into calls to the device's __mosaic_printf
 * with the arguments in a buffer (printf.c, compiler.h).  Does nothing when
 * the module has no printf; -1 + log for an argument it cannot pass. */
int mc_lower_printf(LLVMModuleRef m, mosaic_strbuf *log);

/* Vector math (vecmath.c): names libmvec's vector variants on the module's
 * math calls the target can use (vector-function-abi-variant) for the loop
 * vectoriser; returns how many calls got them.  After optimisation,
 * mc_drop_vector_math_uses removes what kept the variants' declarations
 * alive.  mc_libmvec_available: vector math is on (MOSAIC_NO_LIBMVEC unset). */
int mc_add_vector_math(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* After optimisation: vector-typed math intrinsic calls (llvm.log.v4f32...)
 * become calls of libmvec variants; returns how many. */
int mc_lower_vector_math_calls(LLVMModuleRef m, LLVMTargetMachineRef tm);
void mc_drop_vector_math_uses(LLVMModuleRef m);
int mc_libmvec_available(void);
/* libmvec's variants (name, address) for the JIT. */
size_t mc_libmvec_symbols(const struct mosaic_runtime_symbol **symbols);

/* Turns the atomic library calls clang emits for spir64 (__atomic_fetch_add_4,
 * __opencl_atomic_load_8, ...) into atomic instructions (atomics.c). */
int mc_lower_atomic_calls(LLVMModuleRef m, mosaic_strbuf *log);

/* ---- kernel metadata (kernel_info.c) --------------------------------------------- */
int mc_kernel_info_from_ir(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef kernel,
                           mosaic_kernel_info *info, mosaic_strbuf *log);
void mc_kernel_info_clear(mosaic_kernel_info *info);

/* ---- the on-disk cache (cache.c) ---------------------------------------------------- */
typedef struct mc_cache_key { uint8_t bytes[32]; } mc_cache_key;
void mc_cache_key_compute(mc_cache_key *key, const void *bitcode, size_t size, const char *options,
                          const char *cpu, const char *features, const mosaic_compiler_target *target);
int mc_cache_enabled(void);
/* On a hit, returns 0 and a malloc'd entry (object code + kernel table). */
int mc_cache_load(const mc_cache_key *key, void **data, size_t *size);
void mc_cache_store(const mc_cache_key *key, const void *data, size_t size);

#endif
