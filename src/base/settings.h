/*
 * Every setting of Mosaic: the environment variables it reads, read once, at
 * the first call of mosaic_settings() (thread-safe), and nowhere else.
 * README.md ("Settings") lists them for users; keep the two in step.
 *
 * A flag is on when the variable is set, not empty and not "0".  A number is
 * read like strtol(s, NULL, 0) (so 0x10 is 16); anything else, or an empty
 * value, gives the default.
 *
 * src/base depends on the C library alone, so every layer (api, core,
 * devices, compiler) may include this header (docs/architecture.md, "Layers").
 */
#ifndef MOSAIC_BASE_SETTINGS_H
#define MOSAIC_BASE_SETTINGS_H

#include <stdbool.h>

struct mosaic_settings {
    /* MOSAIC_DEBUG (flag, off): print on stderr why an API call failed,
     * build logs, kernel cache hits and misses, why a barrier kernel runs
     * as fibers. */
    bool debug;
    /* MOSAIC_NUM_THREADS (number, 0): worker threads of the CPU device; 0
     * (or not a positive number): one per core this process may use.  At
     * most 1024. */
    unsigned num_threads;
    /* MOSAIC_SPIN_US (number, 50): microseconds an idle CPU worker, and a
     * thread waiting for an event, spin before they sleep; 0: they sleep at
     * once.  At most 100000. */
    unsigned spin_us;
    /* MOSAIC_FIBER_STACK_KIB (number, 256): stack of each work-item of a
     * kernel run as fibers, in KiB; at least 16. */
    unsigned long fiber_stack_kib;
    /* MOSAIC_BARRIER_FIBERS (flag, off): kernels with barriers run as fibers
     * (one work-item at a time) instead of loops cut at the barriers. */
    bool barrier_fibers;
    /* MOSAIC_SPECIALISE_AFTER (number, 3): a kernel with barriers launched
     * this many times with one local size gets a work-group function built
     * for that size (docs/compiler.md, "Work-groups of one size"); 0: never.
     * At most 1000000. */
    unsigned specialise_after;
    /* MOSAIC_NO_WIDEN (flag, off): kernels with loops of their own are not
     * widened whole (src/compiler/widen.c); their loops get cuts instead */
    bool no_widen;
    /* MOSAIC_NO_PREFETCH (flag, off): barrier kernels do not prefetch what
     * the group two ahead reads before its first barrier
     * (src/compiler/group_prefetch.c) */
    bool no_prefetch;
    /* MOSAIC_NO_FUSE (flag, off): barrier kernels built for their local size
     * do not run groups of one column together (src/compiler/fused_groups.c) */
    bool no_fuse;
    /* MOSAIC_STREAM_STORES (unset, 0 or 1): whether a kernel's stores of
     * whole cache lines to global memory may bypass the caches
     * (non-temporal stores, src/compiler/stream_stores.c), and large
     * buffer copies too.  Unset or empty: for launches whose memory objects
     * together are at least half the last-level cache or 4 MiB a compute
     * unit, whichever is less (a copy: twice its size); 0: never; any other
     * value: always.  -1 here when unset. */
    int stream_stores;
    /* MOSAIC_NO_LIBMVEC (flag, off): vectorised kernels do not call glibc's
     * vector math (libmvec). */
    bool no_libmvec;
    /* MOSAIC_DUMP_IR (flag, off): print each program's LLVM IR before and
     * after optimisation on stderr. */
    bool dump_ir;
    /* MOSAIC_CLANG (path, the clang-16 found at build time): the clang that
     * compiles OpenCL C. */
    const char *clang;
    /* MOSAIC_NO_FORK_SERVER (flag, off): start clang afresh for every build
     * instead of forking it from one started once per process
     * (docs/compiler.md, "The compiler process"). */
    bool no_fork_server;
    /* MOSAIC_OPT (path, the opt-16 found at build time): the opt that checks
     * the bitcode of program binaries from the application, in a child
     * process. */
    const char *opt;
    /* MOSAIC_LLVM_SPIRV (path, the llvm-spirv-15 found at build time): the
     * translator from SPIR-V to LLVM bitcode (docs/spirv.md). */
    const char *llvm_spirv;
    /* MOSAIC_SPIRV_VAL (path, the spirv-val found at build time): the
     * SPIR-V validator that checks modules given to clCreateProgramWithIL. */
    const char *spirv_val;
    /* Where built kernels are cached, NULL for no cache:
     *   MOSAIC_CACHE=0                 no cache
     *   MOSAIC_CACHE_DIR=path          there; set but empty: no cache
     *   else $XDG_CACHE_HOME/mosaic (when set and not empty),
     *   else $HOME/.cache/mosaic (when set and not empty), else no cache. */
    const char *cache_dir;
    /* MOSAIC_CACHE_MAX_MB (number, 1024): the cache's size limit in MiB;
     * the least recently used entries go beyond it.  0: no limit. */
    unsigned long cache_max_mb;
    /* MOSAIC_BUILD_TIMEOUT_S (number, 120): seconds the OpenCL C compiler
     * (a child process) may take on one program before it is killed and
     * the build fails.  0: no limit. */
    unsigned long build_timeout_s;
    /* TMPDIR (path, /tmp): where the front end makes its temporary
     * directories. */
    const char *tmpdir;
    /* MOSAIC_TRACE (path, none): write a timeline of every command and of
     * the CPU workers' work-group chunks there, in the Chrome trace event
     * format (docs/trace.md).  Unset or empty: no trace. */
    const char *trace;
};

/* The settings, read from the environment at the first call. */
const struct mosaic_settings *mosaic_settings(void);

/* For tests only: reads the environment again.  No other thread may be
 * using the settings (the strings of the previous reading are freed). */
void mosaic_settings_reload(void);

#endif
