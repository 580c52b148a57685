/*
 * Internal interfaces of the compiler pipeline (src/compiler).  Nothing here
 * is seen by the runtime: compiler.h is the whole contract.
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
#ifndef MOSAIC_COMPILER_INTERNAL_H
#define MOSAIC_COMPILER_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <llvm-c/blake3.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>

#include "base/assert.h"
#include "base/settings.h"
#include "base/strbuf.h" /* logs, option lists, clang's arguments */
#include "compiler/compiler.h"

/* ---- logs ------------------------------------------------------------------- */
/* Appends "error: out of memory" to log; returns CL_OUT_OF_HOST_MEMORY. */
cl_int mc_out_of_memory(mosaic_strbuf *log);
/* How an entry point of compiler.h ends: gives the log to the caller (*out,
 * when out is not NULL; echoed on stderr when MOSAIC_DEBUG is set) and
 * returns result, or CL_OUT_OF_HOST_MEMORY for a success whose log ran out
 * of memory. */
cl_int mc_finish_log(mosaic_strbuf *log, cl_int result, char **out, const char *stage);

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
    bool opt_disable;
    bool create_library;
    bool enable_link_options;
    bool fast_relaxed_math, unsafe_math, finite_math_only, no_signed_zeros, mad_enable;
    bool denorms_are_zero;
    bool debug_info;
} mc_options;

/* Checks and translates options for mode.  An invalid option is
 * CL_INVALID_COMPILER_OPTIONS, CL_INVALID_LINKER_OPTIONS or
 * CL_INVALID_BUILD_OPTIONS (compile, link, build mode); *out is empty then. */
cl_int mc_parse_options(const char *text, mc_option_mode mode, mc_options *out, mosaic_strbuf *log);
void mc_free_options(mc_options *opts);
/* Splits text into words like a POSIX shell (quotes, backslashes): *words
 * gets a NULL-terminated array of *count words (NULL and 0 for NULL text).
 * Unbalanced quotes are the caller's `malformed` code, logged as being in
 * `what` ("options"). */
cl_int mc_split_words(const char *text, const char *what, cl_int malformed, char ***words, size_t *count,
                      mosaic_strbuf *log);
void mc_free_words(char **words, size_t count);

/* ---- child processes (child.c) ---------------------------------------------- */
typedef struct mc_child {
    const char *dir;     /* working directory, or NULL */
    int stdin_fd;        /* -1: /dev/null */
    int timeout_ms;      /* then it is killed; 0: no limit */
    uint64_t max_memory; /* its address space limit in bytes (and no core file); 0: none */
    size_t max_output;   /* bytes of its output kept (a line says how much more there was); 0: MC_CHILD_MAX_OUTPUT */
    enum { MC_CHILD_UNKNOWN, MC_CHILD_EXITED, MC_CHILD_SIGNALED, MC_CHILD_TIMED_OUT, MC_CHILD_NOT_STARTED } end;
    int code;            /* the exit status, the signal, or (not started) the errno */
} mc_child;
#define MC_CHILD_MAX_OUTPUT ((size_t)1 << 20)
/* The environment every compiler child runs with, whatever this process's
 * is (child.c): NULL-terminated, never freed. */
char *const *mc_child_environment(void);
/* Runs argv (argv[0] looked up in PATH) with mc_child_environment(), its
 * stdout and stderr appended to output.  The child dies with this process
 * (SIGKILL); a time-out kills its process group, and so does its end (what
 * it started and left running).  Nothing to fail here: what became of the
 * child, that it could not start included, is in c->end and c->code
 * (MC_CHILD_UNKNOWN when the application ignores SIGCHLD and the exit
 * status is lost). */
void mc_run_child(const char *const *argv, mc_child *c, mosaic_strbuf *output);
/* Reads a child's output from fd into output (as mc_run_child keeps it)
 * until the child has ended: end_fd is readable then (a pidfd, a socket its
 * status comes on), and what the pipe holds is taken without waiting for
 * its end, which a fork() of the application may hold off; with end_fd -1,
 * until every copy of the pipe is closed.  When c->timeout_ms runs out
 * first, calls stop(stop_arg), waits up to a second more, and returns true. */
bool mc_collect_output(int fd, int end_fd, const mc_child *c, mosaic_strbuf *output, void (*stop)(void *),
                       void *stop_arg);
/* c->end and c->code from how the child ended: timed out, or its wait status
 * (when known). */
void mc_child_ended(mc_child *c, bool timed_out, bool status_known, int status);
/* Starts argv in / with envp, its output discarded, and descriptor pass
 * (-1: none) as its MC_PASSED_FD; it outlives the calling thread (no death
 * signal) and leads a process group.  Its pid, or -1 with the errno in
 * *err; *pidfd, readable once it has ended, or -1 where the kernel gives
 * none (the caller closes it). */
#define MC_PASSED_FD 3
pid_t mc_start_detached(const char *const *argv, char *const *envp, int pass, int *pidfd, int *err);

/* ---- the compiler's fork server (fork_server.c) ------------------------------- */
/* Runs argv as mc_run_child does, through a fork server started from the same
 * argv (docs/compiler.md, "The compiler process").  False when the build did
 * not run there, with c->stdin_fd's offset and output as they were: no
 * server can serve it, the server did not answer in time (it is replaced),
 * or it or the build's watcher died before the build's end.  Then run it
 * with mc_run_child.  c->dir must be an absolute path. */
bool mc_fork_server_run(const char *const *argv, mc_child *c, mosaic_strbuf *output);

/* ---- binaries ---------------------------------------------------------------- */
/* A blob is a 32-byte header and LLVM bitcode: "MOSAIC\0\0", format version,
 * binary type, bitcode size, checksum (binary.c). */
#define MC_BLOB_MAGIC "MOSAIC\0\0"
#define MC_BLOB_VERSION 2u
#define MC_BLOB_HEADER_SIZE 32u

cl_int mc_blob_wrap(cl_program_binary_type type, const void *bitcode, size_t size, mosaic_bitcode *out,
                    mosaic_strbuf *log);
/* Checks the header and the checksum (CL_INVALID_BINARY); sets what is asked
 * for: the type, the bitcode and its size, the blob's BLAKE3 digest. */
cl_int mc_blob_unwrap(const void *data, size_t size, cl_program_binary_type *type, const void **bitcode,
                      size_t *bitcode_size, uint8_t digest[32], mosaic_strbuf *log);
/* Parses a blob's bitcode into ctx. */
cl_int mc_blob_load(LLVMContextRef ctx, const mosaic_bitcode *blob, LLVMModuleRef *out, mosaic_strbuf *log);
cl_int mc_module_to_blob(LLVMModuleRef m, cl_program_binary_type type, mosaic_bitcode *out, mosaic_strbuf *log);
/* How long the bitcode checker (opt-16, a child process) may take on a binary: 60 s (tests shorten it). */
extern int mc_bitcode_check_timeout_ms;

/* ---- LLVM helpers -------------------------------------------------------------- */
/* Initialises LLVM's native target once: CL_BUILD_PROGRAM_FAILURE when
 * this machine has none. */
cl_int mc_llvm_init(mosaic_strbuf *log);
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
/* The builtin library is several bitcode files (one per .cl file of builtins/). */
size_t mc_builtin_file_count(void);
/* File `index`, loaded lazily (function bodies read on demand) into ctx;
 * CL_BUILD_PROGRAM_FAILURE when it cannot be read. */
cl_int mc_load_builtin_file(LLVMContextRef ctx, size_t index, LLVMModuleRef *out, mosaic_strbuf *log);
/* The file defining builtin function `symbol` (a mangled name), or -1. */
int mc_builtin_file_of(const char *symbol);
/* The name a mangled OpenCL C function had in the source: "_Z5fractfPf" -> "fract". */
void mc_source_name(const char *symbol, char *buf, size_t size);
/* The host functions kernel code may reach (host_functions.def): every one,
 * with its address, for the JIT; and whether a program's module may call
 * `name` itself (the math functions; not what only generated code calls). */
size_t mc_host_functions(const struct mosaic_runtime_symbol **functions);
bool mc_host_function_callable(const char *name);
/* Does the device give generated code the runtime symbol `name`? */
bool mc_target_has_symbol(const mosaic_compiler_target *target, const char *name);
/* Does the device have the OpenCL C extension or optional feature `name`
 * ("cl_khr_fp16", "__opencl_c_images"): is it switched on by the -cl-ext=...
 * words of its clang_features (frontend.c)? */
bool mc_target_has_extension(const mosaic_compiler_target *target, const char *name);
/* Is `feature` ("+avx512f") among the target machine's features? */
bool mc_target_has_feature(LLVMTargetMachineRef tm, const char *feature);
/* How many vector registers the target machine's code has (16 or 32). */
unsigned mc_vector_registers(LLVMTargetMachineRef tm);
/* The function call instruction `inst` calls directly, or NULL. */
LLVMValueRef mc_called_function(LLVMValueRef inst);

/* Reports, in log, every external function or variable of m that nothing will
 * define: not an LLVM intrinsic, not a runtime symbol of target, not in the
 * builtin library (when with_builtins), not a math function the host gives
 * kernels (mc_host_function_callable), not printf on a device that does not
 * lower it.  Any such symbol is `failure` (the stage's *_PROGRAM_FAILURE). */
cl_int mc_report_undefined(LLVMModuleRef m, bool with_builtins, const mosaic_compiler_target *target, cl_int failure,
                           mosaic_strbuf *log);

/* The passes of the finalize path and the statistics they keep, by index
 * (passes.def; pipeline.h has the records). */
enum mc_pass_id {
#define MC_PASS(ID, ...) MC_PASS_##ID,
#include "compiler/passes.def"
    MC_NUM_PASSES
};
enum mc_statistic_id {
#define MC_STATISTIC(ID, ...) MC_STAT_##ID,
#include "compiler/passes.def"
    MC_NUM_STATISTICS
};

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
    bool uses_barriers;
    bool uses_sub_groups; /* calls __mosaic_sub_group_barrier (then uses_barriers too) */
    bool uses_non_uniform; /* calls __mosaic_sub_group_active (then uses_sub_groups too): runs as fibers */
    bool may_spin;        /* mc_may_spin: reads shared memory a loop could wait on */
    bool spins;           /* a loop waits for other work-items (spin_loops.c): runs as fibers */
    LLVMMetadataRef access_group; /* of K.wg's work-item loop */
    LLVMValueRef vec;     /* K.vec or NULL: K.body for vec_lanes work-items of a row at once (widen.c) */
    unsigned vec_lanes;
    LLVMValueRef tail;    /* K.tail: the same, one machine vector (tail_lanes), its first `count` lanes
                             (an extra parameter) only: the rest of the row */
    unsigned tail_lanes;
    LLVMValueRef row;     /* K.row or NULL: a barrier kernel's K.body for row_lanes work-items of a row at
                             once (widen.c), which regions.c cuts instead of K.body (a one-size build) */
    unsigned row_lanes;
    const mosaic_kernel_arg *arg_info; /* the kernel's arguments (kinds), or NULL */
    bool specialise_images; /* K.wg gets a loop nest per common image format (image_formats.c) */
    unsigned stats[MC_NUM_STATISTICS]; /* the statistics the passes keep of it (passes.def), by MC_STAT_* */
    size_t item_bytes;         /* what K.wg keeps per work-item between its regions (regions.c); 0: none */
    bool prefetch_ahead;       /* K.wg's entry may prefetch what the group two ahead reads first (group_prefetch.c) */
} mc_kernel_build;

/* A builtin kept out of line (never inlined: "__mosaic_outlined_*"): the
 * rare paths of the image functions (builtins/images.cl), so the loop
 * around a common-format read stays small enough to unswitch and vectorise.
 * It calls nothing that needs the work-group context. */
bool mc_is_outlined_builtin(LLVMValueRef f);
/* The predicate of !(x p y), and the one of (y q x) == (x p y) (the C API has neither). */
LLVMIntPredicate mc_inverse_predicate(LLVMIntPredicate p);
LLVMIntPredicate mc_swapped_predicate(LLVMIntPredicate p);
/* Is f an intrinsic whose name starts with one of the n prefixes ("llvm.fma.")? */
bool mc_intrinsic_named(LLVMValueRef f, const char *const *prefixes, size_t n);
/* Is f an intrinsic that computes from its operands only (llvm.smax., llvm.fma., ...)? */
bool mc_pure_intrinsic(LLVMValueRef f);
/* Integer facts the C API does not give (util.c):
 *   mc_splat_scalar: the scalar a vector splats, or NULL;
 *   mc_known_trailing_zeros: low bits of v known zero (in every lane);
 *   mc_or_is_add: `or x, c` adds c, its bits below x's known zeros. */
LLVMValueRef mc_splat_scalar(LLVMValueRef v);
unsigned mc_known_trailing_zeros(LLVMValueRef v);
bool mc_or_is_add(LLVMValueRef inst);
/* Instructions in blocks, for the passes that move code after optimisation
 * (masked_ops.c, stream_stores.c):
 *   mc_computes_only: inst computes from its operands only (no memory, no
 *     trap), so it may move, or run on one way of a branch;
 *   mc_in_range: v is one of the instructions first..last of one block;
 *   mc_used_outside: v has a user that is not one of first..last;
 *   mc_move_before: inst moves to just before `where`;
 *   mc_replace_uses_outside: uses of v outside block `in` become uses of `to`;
 *   mc_move_to_end: the instructions from `first` up to `until` (not
 *     included; NULL: the end of the block) move to the end of block `to`. */
bool mc_computes_only(LLVMValueRef inst);
/* copy, an LLVMInstructionClone of inst (or a new phi of its type), made
 * to use counterpart(arg, v) for each operand, incoming value and block,
 * and successor v of inst (the passes that copy blocks: row_versions.c,
 * fused_groups.c). */
void mc_remap_copy(LLVMValueRef inst, LLVMValueRef copy, LLVMValueRef (*counterpart)(const void *, LLVMValueRef),
                   const void *arg);
bool mc_in_range(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last);
bool mc_used_outside(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last);
void mc_move_before(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef where);
void mc_replace_uses_outside(LLVMValueRef v, LLVMBasicBlockRef in, LLVMValueRef to);
/* The one use u (an operand of its user) becomes a use of `to`; its user's
 * other operands stay.  A walk of a value's uses replaces them with this:
 * setting every operand of a user that equals the value would also move
 * the walk's next use, when the same user holds it (`x * x`), to `to`'s
 * list, and the walk would go on there (util.c). */
void mc_replace_use(LLVMUseRef u, LLVMValueRef to);
void mc_move_to_end(LLVMBuilderRef b, LLVMValueRef first, LLVMValueRef until, LLVMBasicBlockRef to);
/* Work-item loops of f (after the optimiser) that the loop vectoriser
 * widened: parallel loops whose induction steps by more than one. */
unsigned mc_count_vector_loops(LLVMValueRef f);
/* With MOSAIC_DEBUG (remarks.c): LLVM's loop vectoriser says why it left a
 * loop alone (the options that ask it, stored in argv: how many, at LLVM's
 * set-up); K.wg's instructions get a location
 * naming the kernel (before the optimiser); a remark about a K.wg's loop is
 * printed on stderr (from the diagnostic handler: true when it was one). */
int mc_vectoriser_remark_options(const char **argv);
void mc_locate_work_group_functions(LLVMModuleRef m, const mc_kernel_build *kbs, size_t nk);
bool mc_print_vectoriser_remark(const char *text);
/* Appends the bytes of the file at path to out (nothing when it cannot be opened). */
void mc_read_whole_file(const char *path, mosaic_strbuf *out);
/* calls.c: which calls finalize inlines, and the work-item context for the
 * functions left as calls (docs/compiler.md, "Finalize"). */
/* Marks the program's own functions (before the builtins are linked). */
void mc_mark_program_functions(LLVMModuleRef m);
/* Builtins and kernels always inlined, non-kernels internal; recursion refused. */
cl_int mc_prepare_calls(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, mosaic_strbuf *log);
/* Functions the kernel's own code must see always inlined (barriers, sub-group
 * functions, static __local variables, spin loops when spin_matters);
 * any_must: some were marked (or are dead); any_left: some program function may stay a call. */
cl_int mc_mark_must_inline(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, bool spin_matters, bool *any_must,
                           bool *any_left, mosaic_strbuf *log);
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


/* Builds K.body from K (moving K's blocks), replacing the magic declarations
 * and static __local variables, and K.wi around it.  CL_BUILD_PROGRAM_FAILURE
 * for what it cannot translate (a __local variable in a constant aggregate). */
cl_int mc_build_wi(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
void mc_kernel_build_free(mc_kernel_build *kb);
/* `to` gets `from`'s name (util.c). */
void mc_copy_name(LLVMValueRef to, LLVMValueRef from);
/* K.wg's load of the group's size in dimension d from ctx (its parameter),
 * invariant and in [1, MOSAIC_MAX_LOCAL_SIZE]. */
LLVMValueRef mc_load_local_size(LLVMBuilderRef b, LLVMValueRef ctx, int d);
/* In K.wg's entry (regions.c; args: the kernel's arguments there, ctx its
 * context, group_width the group's size in x): prefetches of the lines that
 * K.body's reads before its first barrier, at addresses that do not depend
 * on the row, cover in the group two ahead in x; returns how many reads
 * (group_prefetch.c). */
unsigned mc_prefetch_groups_ahead(LLVMModuleRef m, const mc_kernel_build *kb, LLVMBuilderRef b,
                                  const LLVMValueRef *args, LLVMValueRef ctx, LLVMValueRef group_width);
/* The byte offset of p from base, when p is base seen through casts and
 * GEPs with constant indices; -1 otherwise (util.c). */
int64_t mc_offset_from(LLVMValueRef p, LLVMValueRef base, LLVMTargetDataRef td);
/* The variable or buffer p points into: through casts (the generic address
 * space comes and goes as ptrtoint/inttoptr pairs) and element addresses
 * (util.c). */
LLVMValueRef mc_base_of(LLVMValueRef p);
/* Phis of succ that came from `from` now come from `to`: the C API cannot
 * change an incoming block, so such a phi is rebuilt (util.c). */
void mc_retarget_phis(LLVMBuilderRef b, LLVMBasicBlockRef succ, LLVMBasicBlockRef from, LLVMBasicBlockRef to);
/* The device's __mosaic_barrier_divergence(ctx, kernel name), declared in m,
 * and in *name a private constant string of K's name (wi is K.wi): what a
 * work-group function calls when work-items disagree about a barrier. */
LLVMValueRef mc_divergence_report(LLVMModuleRef m, LLVMValueRef wi, LLVMValueRef *name);
/* Replaces __mosaic_get_sub_group_first() in K.body, after K.wg is built. */
void mc_lower_sub_group_first(LLVMModuleRef m, mc_kernel_build *kb);
/* Might K.body wait for another work-item: does it read shared memory in a
 * way a loop could wait on (an atomic read, a volatile load, a pipe built-in)?
 * A quick test before mc_mark_spin_loops needs the IR cleaned up. */
bool mc_may_spin(LLVMValueRef body);
/* Finds K.body's spin loops (spin_loops.c), makes each iteration that goes
 * round again call __mosaic_yield(ctx), and sets kb->spins if it found any.
 * any_read (for IR not cleaned up): every loop that reads shared memory. */
cl_int mc_mark_spin_loops(LLVMModuleRef m, mc_kernel_build *kb, bool any_read, mosaic_strbuf *log);
/* Each loop of a barrier kernel's K.body that contains a barrier gets one on
 * its back edges where the code around them touches memory, so no work-item
 * starts an iteration before the whole group has finished the previous one
 * (barrier_loops.c); with MOSAIC_DEBUG it says how many. */
cl_int mc_step_barrier_loops(mc_kernel_build *kbs, size_t nk, mosaic_strbuf *log);
/* Builds K.wg around K.body (kernels without barriers). */
/* K.vec and K.tail: K.body for a row of work-items at once, each varying
 * value a vector (widen.c); false, and MOSAIC_DEBUG says why, for kernels it
 * does not take: barriers, control flow that differs between work-items,
 * private arrays, atomics, calls, no loop of the kernel's own. */
bool mc_widen_kernel(LLVMModuleRef m, mc_kernel_build *kb);
/* Would K.body's float8 and float16 values, split into their elements, let
 * mc_widen_kernel take it: a loop of the kernel's own, and no calls but
 * intrinsics with vector forms (a split vector math call would be one call
 * per element).  Whatever else the widener needs, it still checks. */
bool mc_widening_takes_wide_vectors(LLVMValueRef body);
/* A barrier kernel built for groups whose rows are `row` work-items:
 * kb->row, K.body for kb->row_lanes of them at once (a power of two that
 * divides the row), when every barrier is where all of them are. */
bool mc_widen_rows(LLVMModuleRef m, mc_kernel_build *kb, size_t row, bool report_divergence);
cl_int mc_build_wg(LLVMModuleRef m, mc_kernel_build *kb, mosaic_strbuf *log);
/* Starts K.wg(args, ctx): adds the function and its entry block, unpacks the
 * arguments there into vals[0..num_args) and leaves b at the end of that
 * block.  NULL when out of memory. */
LLVMValueRef mc_wg_begin(LLVMModuleRef m, mc_kernel_build *kb, LLVMBuilderRef b, LLVMValueRef *vals,
                         mosaic_strbuf *log);
/* A new access group (a distinct empty node); NULL when LLVM made none (the
 * loop then has no parallel-access annotation, nothing fails). */
LLVMMetadataRef mc_distinct_empty_node(LLVMContextRef c);
/* A new loop ID saying the accesses in access group ag are parallel, and,
 * unless interleave is 0, that the vectoriser interleaves that many
 * vectors per iteration (its own choice otherwise). */
LLVMValueRef mc_parallel_loop_md(LLVMContextRef c, LLVMMetadataRef ag, unsigned interleave);
/* ... and already vectors (K.wg's loop over rows of K.vec): not vectorised again. */
LLVMValueRef mc_vectorised_loop_md(LLVMContextRef c, LLVMMetadataRef ag);
/* Does loop ID md have a property named name (true, to be safe, for an ID
 * of more than 16 properties)? */
bool mc_loop_md_has(LLVMValueRef md, const char *name);
/* A new loop ID: old's properties (none when old is NULL) and n more. */
LLVMValueRef mc_loop_md_plus(LLVMContextRef c, LLVMValueRef old, const LLVMMetadataRef *more, unsigned n);
/* Builds K.wg for a kernel with barriers by cutting K.body into regions
 * between barriers, each a loop over the work-group (regions.c).  A kernel
 * with something the transformation does not handle is no failure: K.wg
 * stays NULL and the device runs K.wi as fibers.  What K.wg keeps per
 * work-item between regions (kb->item_bytes a work-item) is one allocation
 * a group: on the stack up to MC_STORAGE_ON_STACK bytes, else on the heap. */
#define MC_STORAGE_ON_STACK ((size_t)2 << 20)
/* Has K.body a loop of more than a few iterations?  K.wg is then built by
 * mc_build_wg_regions even without barriers: the loop's control runs
 * between loops over the work-items (once for the group when all leave the
 * loop together, else for those still in it), its body inside them. */
bool mc_has_loop_to_cut(const mc_kernel_build *kb);
cl_int mc_build_wg_regions(LLVMModuleRef m, mc_kernel_build *kb, const mosaic_compiler_target *target,
                           mosaic_strbuf *log);
/* ---- Work-groups of one column run together (fused_groups.c) --------------------- */
/* Groups run at a time by K.fused. */
#define MC_FUSED_GROUPS MOSAIC_MAX_FUSED_GROUPS
/* How many groups of one column K.fused may run at a time for kernel kb
 * (K.body as finalize has it before widening and regions) built for groups
 * of size[]: MC_FUSED_GROUPS, or 0 with *why saying why not. */
unsigned mc_fused_groups(const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3], const char **why);
/* K.fbody: a copy of K.body for groups of size[], whose work-item
 * (lx, ly, lz) is work-item (lx, ly, lz % size[2]) of group lz / size[2]
 * of the column (the contexts one after another from ctx); NULL when memory
 * ran out. */
LLVMValueRef mc_fused_body(LLVMModuleRef m, const mc_kernel_build *kb, LLVMTargetDataRef td, const size_t size[3]);
/* ---- K.wg specialised on image formats (image_formats.c) ------------------------- */
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
/* Rows whose image accesses stay inside: a version of each x loop (image_rows.c). */
cl_int mc_version_image_rows(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                             bool specialised, mosaic_strbuf *log);
/* Rows that pass a kernel's bounds checks whole: a version of each x loop
 * holding such checks, without them (guarded_rows.c). */
void mc_version_guarded_rows(mc_kernel_build *kbs, size_t nk);
/* Branches the same for a whole row: a version of each x loop holding
 * them per answer, the branches constants in it (uniform_rows.c). */
void mc_version_uniform_rows(mc_kernel_build *kbs, size_t nk);
cl_int mc_run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, mosaic_strbuf *log);
/* The same on functions fs only (the others marked optnone while it runs). */
cl_int mc_run_passes_on(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, const char *passes,
                        mosaic_strbuf *log);

/* After K.body was inlined into K.wg: marks the work-item loop's memory
 * accesses as parallel (llvm.access.group) where they do not touch private
 * memory. */
void mc_annotate_wg(LLVMModuleRef m, mc_kernel_build *kb);
/* zext(a - b) where a >= b is known becomes zext(a) - zext(b), so the
 * vectoriser sees consecutive addresses (guarded_index.c).  How many. */
unsigned mc_widen_guarded_indices(LLVMValueRef fn);
/* Loops in which each work-item strides from its own start ("for (i = lid;
 * i < n; i += size)") go round as often as the first work-item's, each
 * work-item running the body while its own test holds, so their exits are
 * uniform (strided_loops.c).  How many. */
unsigned mc_run_strided_loops_in_step(LLVMValueRef body);
/* Unrolls the loops of fs[0..n) that carry `#pragma unroll` (a count known,
 * LLVM's limit on size for pragmas), then promotes what they made
 * promotable (a private array indexed by their counters) to values: before
 * the loops over work-items are built, so that widening and regions see
 * registers, not memory (pragma_unroll.c).  Only the functions with such a
 * loop go through the passes; fs is reordered. */
cl_int mc_unroll_pragma_loops(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMValueRef *fs, size_t n, mosaic_strbuf *log);
/* Each branch of fn that closes a cycle (a back edge of a depth-first walk
 * from the entry) in *out (malloc'd); how many, -1 when memory runs out. */
int mc_back_edges(LLVMValueRef fn, LLVMValueRef **out);

/* ---- kernels built for one local size (one_size.c, local_size.c) ------------ */
/* K.wg (after K.body was inlined) for groups of exactly size[]: its loads
 * of the group's size and enqueued size from the context become constants,
 * and for rows of at most 32 work-items its loops over a row stay loops,
 * vectorised.  How many loads. */
unsigned mc_fix_local_size(LLVMValueRef wg, LLVMTargetDataRef td, const size_t size[3]);
/* The dimension d when byte offset off into a mosaic_wg_ctx is that of
 * local_size[d] or enqueued_local_size[d], else -1. */
int mc_local_size_field(int64_t off);
typedef struct mc_one_size {
    const char *kernel; /* the kernel built (the others are dropped) */
    size_t size[3];     /* the local size its K.wg is built for */
} mc_one_size;
/* mosaic_finalize (which also makes the executable's mc_one_size_builds
 * unless -cl-opt-disable), or with one_size a build of that kernel alone
 * for that local size (cached under its own key). */
cl_int mc_finalize_one_size(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                            const char *options, const mc_one_size *one_size, mosaic_executable **out, char **log);
/* What an executable keeps to build its kernels again (a copy of the
 * bitcode and options), or NULL when none of them would gain or may be
 * built apart from the others. */
typedef struct mc_one_size_builds mc_one_size_builds;
mc_one_size_builds *mc_one_size_builds_new(const mosaic_compiler_target *target, const mosaic_bitcode *blob,
                                           const char *options, const mosaic_executable *exe);
void mc_one_size_builds_free(mc_one_size_builds *b);
mc_one_size_builds *mc_executable_one_size_builds(const mosaic_executable *exe);
/* Atomics on __local memory in K.wg (one thread runs the group) become plain
 * loads and stores (local_atomics.c); after mc_annotate_wg.  How many. */
unsigned mc_plain_local_atomics(LLVMValueRef wg);
/* What atomic operation op stores, from the old value and its operand
 * (atomics.c); NULL for the operations it does not know (fmax, fmin...). */
LLVMValueRef mc_rmw_result(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old, LLVMValueRef v);
/* Integer division and remainder never trap (safe_division.c). */
void mc_guard_integer_division(LLVMModuleRef m);

/* Turns OpenCL C printf calls into calls to the device's __mosaic_printf
 * with the arguments in a buffer (printf.c, compiler.h).  Does nothing when
 * the module has no printf; an argument it cannot pass is
 * CL_COMPILE_PROGRAM_FAILURE (it runs in the front end). */
cl_int mc_lower_printf(LLVMModuleRef m, mosaic_strbuf *log);

/* Vector math (vecmath.c): names libmvec's vector variants on the module's
 * math calls the target can use (vector-function-abi-variant) for the loop
 * vectoriser; returns how many calls got them.  After optimisation,
 * mc_drop_vector_math_uses removes what kept the variants' declarations
 * alive.  mc_libmvec_available: vector math is on (MOSAIC_NO_LIBMVEC unset,
 * empty or 0). */
unsigned mc_add_vector_math(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* After optimisation: gathers, scatters and strided loads of one block
 * whose lanes touch neighbouring elements become wide loads and stores or
 * gathers of twice the width (neighbour_gathers.c).  How many went. */
unsigned mc_join_neighbour_gathers(LLVMValueRef f);
/* After optimisation: in a row loop of a widened region, what an inner
 * loop reads alike in every row is read by row 0 into arrays, and the
 * other rows run a copy of the loop that loads it (shared_row_loads.c).
 * How many values. */
unsigned mc_share_row_loads(LLVMValueRef f);
/* After optimisation: vector-typed math intrinsic calls (llvm.log.v4f32...)
 * become calls of libmvec variants; returns how many. */
unsigned mc_lower_vector_math_calls(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* masked_ops.c: masked loads, stores, gathers and scatters whose mask is a
 * constant with one true lane become scalar accesses; true if any did. */
bool mc_scalarize_one_lane_masked_ops(LLVMModuleRef m);
/* masked_ops.c: each gather and scatter of f whose mask is not a constant
 * runs under a branch on "any lane active", with the operations of the same
 * mask after it; returns how many. */
unsigned mc_skip_empty_gathers(LLVMValueRef f);
/* interleave_rows.c: the loop ID regions.c gives the y loops of K.row's
 * regions; after optimisation, mc_interleave_rows runs 2, 4 or (with 32
 * vector registers) 8 rows of such a loop an iteration, their instructions
 * interleaved, where a row is one block with a long floating-point chain;
 * returns how many loops. */
LLVMValueRef mc_row_loop_md(LLVMContextRef c);
/* Is md (a branch's llvm.loop) that mark? */
bool mc_is_row_loop_md(LLVMValueRef md);
unsigned mc_interleave_rows(LLVMValueRef f, unsigned vector_registers);
/* stream_stores.c: after optimisation, the stores of whole 64-byte lines to
 * global memory in K.wg (wg) get a second version, non-temporal, that runs
 * when ctx->stream_stores is set and the lines are aligned; returns how
 * many stores.  Nothing on targets other than x86, nor in a function with
 * atomics, fences or calls that may synchronise. */
unsigned mc_stream_stores(LLVMValueRef wg);
void mc_drop_vector_math_uses(LLVMModuleRef m);
bool mc_libmvec_available(void);
/* libmvec's variants (name, address) for the JIT. */
size_t mc_libmvec_symbols(const struct mosaic_runtime_symbol **symbols);

/* Turns the atomic library calls clang emits for spir64 (__atomic_fetch_add_4,
 * __opencl_atomic_load_8, ...) into atomic instructions (atomics.c); a call
 * it does not understand is CL_BUILD_PROGRAM_FAILURE. */
cl_int mc_lower_atomic_calls(LLVMModuleRef m, mosaic_strbuf *log);

/* ---- kernel metadata (kernel_info.c) --------------------------------------------- */
cl_int mc_kernel_info_from_ir(LLVMTargetDataRef td, LLVMValueRef kernel, mosaic_kernel_info *info,
                              mosaic_strbuf *log);
void mc_kernel_info_clear(mosaic_kernel_info *info);

/* ---- the on-disk cache (cache.c) ---------------------------------------------------- */
typedef struct mc_cache_key { uint8_t bytes[32]; } mc_cache_key;
/* What an entry holds: finalized code (finalize.c), the front end's result
 * (direct_cache.c), a marker of a checked binary or validated SPIR-V module,
 * a link's result (binary.c), a SPIR-V module's translation (spirv_cache.c). */
typedef enum mc_cache_kind {
    MC_CACHE_OBJECT, MC_CACHE_SOURCE, MC_CACHE_CHECKED, MC_CACHE_LINKED, MC_CACHE_SPIRV
} mc_cache_kind;
void mc_cache_key_compute(mc_cache_key *key, const void *bitcode, size_t size, const char *options,
                          const char *cpu, const char *features, const mosaic_compiler_target *target);
/* Starts h for a cache key of one kind: the kind's tag, then the GNU build id
 * of the Mosaic binary, so a rebuilt Mosaic never reads an old entry. */
void mc_cache_hasher_start(llvm_blake3_hasher *h, const char *tag);
/* Is there a cache (set, and a directory that is safe to use)? */
bool mc_cache_enabled(void);
/* A lookup: true on a hit, with the malloc'd payload in *data and *size.
 * A missing, damaged, unreadable or foreign entry (stored under another key
 * or kind) is a miss. */
bool mc_cache_load(mc_cache_kind kind, const mc_cache_key *key, void **data, size_t *size);
/* Best effort: an entry that cannot be written is a miss next time.  May
 * evict the least recently used entries (MOSAIC_CACHE_MAX_MB). */
void mc_cache_store(mc_cache_kind kind, const mc_cache_key *key, const void *data, size_t size);

/* ---- the front end's cache (direct_cache.c) ---------------------------------------------- */
typedef struct mc_direct_inputs {
    const char *args;             /* clang's arguments, as the response file has them */
    size_t args_len;
    const char *prelude;          /* the feature prelude's text */
    size_t prelude_len;
    const char *source;
    size_t num_headers;           /* the embedded headers */
    const mosaic_header *headers;
    bool lower_printf;            /* printf calls become __mosaic_printf calls */
} mc_direct_inputs;
/* The key of a compilation; false when it cannot be cached (the source asks for the time). */
bool mc_direct_key(const mc_direct_inputs *in, mc_cache_key *key);
/* A lookup: true on a hit, with the compiled object in *out (owned) and the
 * messages clang printed then appended to log. */
bool mc_direct_lookup(const mc_cache_key *key, mosaic_bitcode *out, mosaic_strbuf *log);
/* Stores the compiled object of a successful build with the files clang read
 * (deps_text: its make-style dependency file; names relative to
 * work_dir/include are the work directory's own).  started: when the build
 * began (a file changed since is not trusted). */
void mc_direct_store(const mc_cache_key *key, const char *work_dir, const char *deps_text,
                     const struct timespec *started, const mosaic_bitcode *obj, const char *messages,
                     size_t messages_len);

/* ---- the tools' files (tool_files.c) and SPIR-V in the cache (spirv_cache.c) ------------------- */
/* Appends the records of the files tool (a path, or a name PATH finds) is
 * made of: its executable and the libraries the dynamic loader gives it,
 * each with its stat identity; how many (0, nothing appended: it cannot be
 * found, nothing may be cached for it). */
size_t mc_tool_files(const char *tool, mosaic_strbuf *records);
/* Reads records at p: where they end when every file is as recorded; NULL
 * when one changed, is gone, or the records are damaged. */
const char *mc_tool_files_unchanged(const char *p, const char *end);
/* Has the module (little-endian words) passed this validator before? */
bool mc_spirv_validated(const uint32_t *w, size_t size);
/* It passed the validator whose records (mc_tool_files, taken before it ran) are given. */
void mc_spirv_store_validated(const uint32_t *w, size_t size, const mosaic_strbuf *validator);
/* The key of a translation: the words to translate (specialization constants
 * written in), printf lowering, the device. */
void mc_spirv_object_key(const mosaic_compiler_target *target, const uint32_t *w, size_t size, bool lower_printf,
                         mc_cache_key *key);
/* A lookup: true on a hit, with the compiled object in *out (owned). */
bool mc_spirv_cached_object(const mc_cache_key *key, mosaic_bitcode *out);
/* Stores a translation's compiled object with the translator's records. */
void mc_spirv_store_object(const mc_cache_key *key, const mosaic_strbuf *translator, const mosaic_bitcode *obj);

/* ---- the front end's work directories (work_dir.c) ------------------------------------------ */
/* A new private directory TMPDIR/mosaic-<pid>-XXXXXX (TMPDIR from
 * mosaic_settings, else /tmp) in dir, and the descriptor that holds its lock
 * (to close with mc_work_dir_remove); -1 with errno if none can be made.
 * The first call of a process removes the work directories of this user's
 * processes that no longer run (killed mid-build). */
int mc_work_dir_create(char *dir, size_t size);
/* Removes a work directory and everything in it, then closes lock (if not -1). */
void mc_work_dir_remove(const char *dir, int lock);

#endif
