/* The environment, read once (settings.h). */
#define _GNU_SOURCE
#include "base/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MOSAIC_CLANG_PATH
#define MOSAIC_CLANG_PATH "clang-16"
#endif
#ifndef MOSAIC_OPT_PATH
#define MOSAIC_OPT_PATH "opt-16"
#endif
#ifndef MOSAIC_LLVM_SPIRV_PATH
#define MOSAIC_LLVM_SPIRV_PATH "llvm-spirv-15"
#endif
#ifndef MOSAIC_SPIRV_VAL_PATH
#define MOSAIC_SPIRV_VAL_PATH "spirv-val"
#endif

static struct mosaic_settings current;
static char *owned_clang, *owned_opt, *owned_cache_dir, *owned_tmpdir; /* what `current` points at */
static char *owned_llvm_spirv, *owned_spirv_val, *owned_trace;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static const char *value(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static bool flag(const char *name)
{
    const char *v = value(name);
    return v && strcmp(v, "0") != 0;
}

static long number(const char *name, long fallback)
{
    const char *v = value(name);
    if (!v)
        return fallback;
    char *end;
    long n = strtol(v, &end, 0);
    return *end ? fallback : n;
}

static char *joined(const char *a, const char *b)
{
    char *s;
    return asprintf(&s, "%s%s", a, b) < 0 ? NULL : s;
}

static void load(void)
{
    struct mosaic_settings s = { 0 };
    s.debug = flag("MOSAIC_DEBUG");
    long threads = number("MOSAIC_NUM_THREADS", 0);
    s.num_threads = threads <= 0 ? 0 : threads > 1024 ? 1024 : (unsigned)threads;
    long spin = number("MOSAIC_SPIN_US", 50);
    s.spin_us = spin < 0 ? 50 : spin > 100000 ? 100000 : (unsigned)spin;
    long kib = number("MOSAIC_FIBER_STACK_KIB", 256);
    s.fiber_stack_kib = kib < 16 ? 16 : kib > (1l << 30) ? (1ul << 30) : (unsigned long)kib;
    s.barrier_fibers = flag("MOSAIC_BARRIER_FIBERS");
    long after = number("MOSAIC_SPECIALISE_AFTER", 3);
    s.specialise_after = after < 0 ? 3 : after > 1000000 ? 1000000 : (unsigned)after;
    s.no_widen = flag("MOSAIC_NO_WIDEN");
    s.no_prefetch = flag("MOSAIC_NO_PREFETCH");
    s.no_fuse = flag("MOSAIC_NO_FUSE");
    s.stream_stores = value("MOSAIC_STREAM_STORES") ? flag("MOSAIC_STREAM_STORES") : -1;
    s.no_libmvec = flag("MOSAIC_NO_LIBMVEC");
    s.dump_ir = flag("MOSAIC_DUMP_IR");
    s.no_fork_server = flag("MOSAIC_NO_FORK_SERVER");

    const char *clang = value("MOSAIC_CLANG");
    owned_clang = clang ? strdup(clang) : NULL;
    s.clang = owned_clang ? owned_clang : MOSAIC_CLANG_PATH;
    const char *opt = value("MOSAIC_OPT");
    owned_opt = opt ? strdup(opt) : NULL;
    s.opt = owned_opt ? owned_opt : MOSAIC_OPT_PATH;
    const char *llvm_spirv = value("MOSAIC_LLVM_SPIRV");
    owned_llvm_spirv = llvm_spirv ? strdup(llvm_spirv) : NULL;
    s.llvm_spirv = owned_llvm_spirv ? owned_llvm_spirv : MOSAIC_LLVM_SPIRV_PATH;
    const char *spirv_val = value("MOSAIC_SPIRV_VAL");
    owned_spirv_val = spirv_val ? strdup(spirv_val) : NULL;
    s.spirv_val = owned_spirv_val ? owned_spirv_val : MOSAIC_SPIRV_VAL_PATH;

    const char *trace = value("MOSAIC_TRACE");
    owned_trace = trace ? strdup(trace) : NULL;
    s.trace = owned_trace;

    const char *tmp = value("TMPDIR");
    owned_tmpdir = tmp ? strdup(tmp) : NULL;
    s.tmpdir = owned_tmpdir ? owned_tmpdir : "/tmp";

    const char *off = getenv("MOSAIC_CACHE"), *dir = getenv("MOSAIC_CACHE_DIR");
    const char *xdg = value("XDG_CACHE_HOME"), *home = value("HOME");
    owned_cache_dir = NULL;
    if (off && !strcmp(off, "0"))
        ; /* no cache */
    else if (dir) /* set but empty: no cache */
        owned_cache_dir = *dir ? strdup(dir) : NULL;
    else if (xdg)
        owned_cache_dir = joined(xdg, "/mosaic");
    else if (home)
        owned_cache_dir = joined(home, "/.cache/mosaic");
    s.cache_dir = owned_cache_dir;
    long mb = number("MOSAIC_CACHE_MAX_MB", 1024);
    s.cache_max_mb = mb < 0 ? 1024 : mb > (1l << 40) ? (1ul << 40) : (unsigned long)mb;
    long seconds = number("MOSAIC_BUILD_TIMEOUT_S", 120);
    s.build_timeout_s = seconds < 0 ? 120 : seconds > 1000000 ? 1000000 : (unsigned long)seconds;
    current = s;
}

const struct mosaic_settings *mosaic_settings(void)
{
    pthread_once(&loaded, load);
    return &current;
}

void mosaic_settings_reload(void)
{
    pthread_once(&loaded, load);
    free(owned_clang);
    free(owned_opt);
    free(owned_cache_dir);
    free(owned_tmpdir);
    free(owned_llvm_spirv);
    free(owned_spirv_val);
    free(owned_trace);
    owned_llvm_spirv = owned_spirv_val = owned_trace = NULL;
    owned_clang = owned_opt = owned_cache_dir = owned_tmpdir = NULL;
    load();
}
