/*
 * The declared pipeline of the finalize path: what makes object code of a
 * program's executable bitcode, as a list of passes.
 *
 * A pass is a record (mc_pass): its name, one line of purpose, the analyses
 * it needs and keeps, the setting that switches it (if any), whether it
 * changes code, whether it is an optimisation or required, whether it runs
 * once per module or once per kernel, its statistics, and a `run` entry
 * with one signature for all.  passes.def
 * lists them, one row each, in the CPU device's order; mc_passes[] is made
 * of its rows.  A device kind's pipeline (mc_pipeline) is an array of
 * references into mc_passes[]: the CPU's is every row of passes.def in
 * order; another device kind lists its own.
 *
 * One runner (mc_pipeline_run, pipeline.c) runs a pipeline on a pass state
 * (mc_pass_state: the module, the target machine, the kernels and what is
 * built of them).  It runs consecutive per-kernel passes kernel by kernel
 * (kernel 0 through all of them, then kernel 1...), as LLVM's function pass
 * adaptor does.  It skips the optimisations under -cl-opt-disable.  It owns
 * the run's analyses (analyses.h, s->an), which the passes ask for what
 * they need; after a pass that changed code (and did not say it had
 * nothing to do) it forgets what the pass does not keep: of every function
 * after a module pass, of all but the other kernels' functions after a
 * kernel pass.  In builds with assertions it verifies the module after each
 * pass that changes code and that the graphs still cached describe their
 * functions, and aborts, naming the pass, when not.  It times each pass;
 * with MOSAIC_DEBUG=passes it prints the pipeline as it ran (name, time,
 * statistics, why a pass was skipped).
 *
 * A driver that runs passes on a module from a file (mosaic-opt):
 *
 *     LLVMContextRef ctx = mc_context_create(&log);
 *     LLVMModuleRef m = ...;                      // parsed in ctx
 *     mc_pass_state s;
 *     mc_options opts;                            // mc_parse_options("", MC_OPTIONS_BUILD, ...)
 *     cl_int r = mc_pass_state_init(&s, target, &opts, NULL, ctx, m, &log);  // takes ctx and m
 *     if (r == CL_SUCCESS)
 *         r = mc_pipeline_run(&mc_cpu_pipeline, &s, "unswitch-uniform");          // the prefix up to it
 *     LLVMDumpModule(s.m);
 *     mc_pass_state_free(&s);
 *
 * The module is what the front end produced (the bitcode of a program
 * binary: OpenCL C through clang, builtins not linked yet).  A single pass
 * runs with mc_pipeline_run_from(p, s, name, name) on a state that the
 * passes before it prepared (mc_pipeline_run(p, s, <the pass before>)):
 * the kernel builds (K.body, K.wg...) live in the state, not in the IR.
 * `target` is the device's (its runtime symbols: a kernel with barriers
 * needs __mosaic_barrier); NULL builds for the host CPU without any.
 */
#ifndef MOSAIC_COMPILER_PIPELINE_H
#define MOSAIC_COMPILER_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/cache/cache.h"
#include "compiler/frontend/options.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"
#include "compiler/pipeline/one_size.h"

/* The passes of the finalize path, by index (passes.def). */
enum mc_pass_id {
#define MC_PASS(ID, ...) MC_PASS_##ID,
#include "compiler/pipeline/passes.def"
    MC_NUM_PASSES
};

/* What code generation produces, before it is loaded into a JIT (or kept in
 * the cache, object_cache.c). */
typedef struct mc_object {
    void *code;
    size_t code_size;
    size_t num_kernels;
    size_t num_block_kernels;    /* the last ones of kernels[] */
    mosaic_kernel_info *kernels; /* wg_fn/wi_fn not set yet */
    unsigned char *has_wg;       /* per kernel: K.wg exists */
    unsigned char *fused_groups; /* per kernel: K.fused exists and runs this many groups (coarsening.c), or 0 */
    size_t global_variables_size;
} mc_object;

/* What one run of a pipeline has done, for MOSAIC_DEBUG=passes. */
typedef struct mc_pass_record {
    uint64_t ns;         /* time in the pass (all kernels, for a per-kernel pass) */
    const char *skipped; /* why the pass did nothing (set by the pass), or NULL */
    bool ran;
    bool disabled;       /* an optimisation the runner did not run (-cl-opt-disable) */
} mc_pass_record;

/* What the passes work on: the module, the machine it is built for, and
 * the kernels and what is built of each. */
typedef struct mc_pass_state {
    const mosaic_compiler_target *target; /* the device's, or NULL: the host, no runtime symbols */
    const mc_options *opts;  /* a field a pass reads must be in the cache key (object_cache.c) */
    mosaic_strbuf *log;
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMTargetMachineRef tm;
    LLVMTargetDataRef td;    /* the data layout (set by the pass retarget) */
    size_t nk;               /* kernels: */
    LLVMValueRef *kernels;   /* the spir_kernel functions with a body (NULL once K.wi is built) */
    mc_kernel_build *kb;     /* K.body, K.wi and K.wg of each */
    mc_kernel_build *fused;  /* kb + nk, per kernel: K.fused as .wg (NULL when none), K.fbody as .body */
    bool any_barrier;        /* some kernel calls __mosaic_barrier */
    bool any_sub_group;      /* some kernel calls __mosaic_sub_group_barrier */
    bool any_non_uniform;    /* some kernel calls __mosaic_sub_group_active */
    bool images_specialised; /* image-format classes were folded (image-classes) */
    const mc_one_size *one_size; /* a build of one kernel for one local size, or NULL */
    mc_object obj;           /* what it makes: the kernel table, then the object code */
    unsigned stats[MC_NUM_STATISTICS]; /* the module's statistics (a kernel's are in its kb) */
    bool verify_each;        /* verify after each pass that changes code (on in builds with assertions) */
    mc_analyses *an;         /* the run's analyses (analyses.h), the runner's: a pass asks them */
    mc_pass_record ran[MC_NUM_PASSES]; /* per pass of mc_passes[] */
    const char *skipped;     /* set by a pass that had nothing to do: why */
} mc_pass_state;

/* A pass's scope: the runner calls a module pass once (kernel 0, unused),
 * a kernel pass once per kernel, with the kernel's index. */
typedef enum mc_pass_scope { MC_SCOPE_MODULE, MC_SCOPE_KERNEL } mc_pass_scope;

/* Whether the code needs a pass: an optimisation does not run with
 * -cl-opt-disable (the runner skips it), a required pass always runs. */
typedef enum mc_pass_kind { MC_KIND_REQUIRED, MC_KIND_OPTIMISATION } mc_pass_kind;

typedef struct mc_pass {
    enum mc_pass_id id;      /* its index in mc_passes[] */
    const char *name;        /* as printed and as --stop-after names it: "barrier-loops" */
    const char *purpose;     /* one line */
    mc_pass_scope scope;
    mc_pass_kind kind;
    bool changes_code;       /* false: it checks or reads the module only */
    unsigned needs, keeps;   /* enum mc_analysis bits */
    const char *setting;     /* the settings.def field(s) that switch it or change what it does, or NULL */
    cl_int (*run)(mc_pass_state *s, size_t kernel);
} mc_pass;

/* Every pass, indexed by enum mc_pass_id (passes.def's order). */
extern const mc_pass mc_passes[MC_NUM_PASSES];

/* One statistic: the pass that keeps it, its short name and what it counts. */
typedef struct mc_statistic_info {
    enum mc_pass_id pass;
    const char *name;
    const char *counts;
} mc_statistic_info;
extern const mc_statistic_info mc_statistics[MC_NUM_STATISTICS];

/* A device kind's pipeline: the passes in the order they run. */
typedef struct mc_pipeline {
    const char *device;           /* "cpu" */
    const mc_pass *const *passes;
    size_t num_passes;
} mc_pipeline;

/* The CPU device's: every row of passes.def, in order. */
extern const mc_pipeline mc_cpu_pipeline;

/* The pass of mc_passes[] named `name`, or NULL. */
const mc_pass *mc_pass_named(const char *name);

/* A state for the pipeline over module m (in context ctx, both now the
 * state's: mc_pass_state_free disposes of them, also on failure), built for
 * target (NULL: the host CPU) with opts (kept by pointer: they must outlive
 * the state), for one local size when one_size is not NULL.  Makes the
 * target machine. */
cl_int mc_pass_state_init(mc_pass_state *s, const mosaic_compiler_target *target, const mc_options *opts,
                          const mc_one_size *one_size, LLVMContextRef ctx, LLVMModuleRef m, mosaic_strbuf *log);
void mc_pass_state_free(mc_pass_state *s);

/* Runs pipeline p on s: every pass, or with stop_after the passes up to and
 * including the one named so (unknown: CL_INVALID_VALUE, said in s->log).
 * Stops at the first pass that fails (its result).  With MOSAIC_DEBUG=passes
 * prints on stderr what ran. */
cl_int mc_pipeline_run(const mc_pipeline *p, mc_pass_state *s, const char *stop_after);
/* The same from the pass named start_at (NULL: the first) on. */
cl_int mc_pipeline_run_from(const mc_pipeline *p, mc_pass_state *s, const char *start_at, const char *stop_after);

/* Appends to key what of the pipeline decides the code it makes: each
 * pass's name in p's order, and the value of every setting that changes
 * generated code (settings.def's MOSAIC_CHANGES_CODE rows). */
void mc_pipeline_key(const mc_pipeline *p, mosaic_strbuf *key);

/* ---- object code: what the pipeline makes, cached and loaded --------------------------------- */
/* Everything from a program binary's bitcode to object code (finalize.c):
 * the CPU pipeline over its module; obj gets the object code and the kernel
 * table. */
cl_int mc_build_object(const mosaic_compiler_target *target, const mosaic_bitcode *blob, const mc_options *opts,
                       const mc_one_size *one_size, mc_object *obj, mosaic_strbuf *log);
void mc_object_clear(mc_object *o);
/* A cache entry (object_cache.c): o appended to s (s->oom when memory ran
 * out); an entry read back into o (false: not a whole entry, o empty). */
void mc_object_serialize(const mc_object *o, mosaic_strbuf *s);
bool mc_object_deserialize(const void *data, size_t size, mc_object *o);
/* The key of the object code of bitcode bc built with opts (and for one
 * size) for target: of the options only those the passes read, so a binary
 * built again with other build options keeps its key; also the CPU, the
 * pipeline and the settings that change code (mc_pipeline_key). */
void mc_object_cache_key(mc_cache_key *key, const mosaic_compiler_target *target, const void *bc, size_t bc_size,
                         const mc_options *opts, const mc_one_size *one_size);

/* The GPU's finalized program (mosaic_finalize_ptx, gpu/ptx.h) as a cache
 * entry of kind MC_CACHE_PTX, in the object's format (object_cache.c): p
 * appended to s; an entry read back into p (false: not a whole entry of
 * the GPU's, p empty). */
struct mc_ptx_program;
void mc_ptx_serialize(const struct mc_ptx_program *p, mosaic_strbuf *s);
bool mc_ptx_deserialize(const void *data, size_t size, struct mc_ptx_program *p);
/* Its key: a tag of its own, the build id (mc_cache_hasher_start), the
 * executable's bitcode bc, the compute capability sm and what else decides
 * the PTX (mc_ptx_key_inputs: LLVM, the work-item functions, libclc). */
void mc_ptx_cache_key(mc_cache_key *key, const void *bc, size_t bc_size, const char *sm, const char *inputs);

#endif
