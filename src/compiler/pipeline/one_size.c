/*
 * Barrier kernels built again for the local size they are launched with
 * (docs/compiler.md, "Work-groups of one size").
 *
 * An executable keeps, per kernel, the local sizes it was asked for (at most
 * MAX_SIZES) and how often; at the `after`-th request for one size the
 * program's bitcode is finalized again for that kernel alone with its K.wg
 * specialised (local_size.c), and the new executable is kept beside the
 * first.  The build runs on the background thread (background.c), or on
 * the thread that asked when it would wait; until it ends every request
 * gets NULL and runs the general K.wg.  The builds are counted references:
 * a job holds one, so a program released during its build is freed when
 * the build ends, without waiting for it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/pipeline/background.h"
#include "compiler/ir/llvm.h"
#include "compiler/pipeline/one_size.h"
#include "compiler/workgroup/workgroup.h"

enum { MAX_SIZES = 4 };
#define ONE_SIZE_MAX_PRIVATE ((size_t)64 << 10) /* a kernel's private memory, at most, for a build */

typedef struct one_size_entry {
    mc_one_size_builds *builds; /* its executable's */
    size_t size[3];
    unsigned asks;            /* requests so far (stops counting at `after`) */
    bool building, failed;
    mosaic_executable *exe;   /* the kernel built for this size */
    mosaic_sized_wg fns;      /* its K.wg and K.fused */
    _Atomic(mosaic_wg_fn) ready; /* fns.whole, published for the launches that began before it */
} one_size_entry;

struct mc_one_size_builds {
    pthread_mutex_t lock; /* guards entries, refs and released */
    pthread_cond_t built; /* broadcast when a build ends */
    unsigned refs;        /* the executable's, and one per build queued or running */
    bool released;        /* the executable let go: builds not started are skipped */
    const mosaic_compiler_target *target;
    mosaic_bitcode blob;  /* a copy of the program's executable bitcode */
    char *options;
    size_t num_kernels;
    one_size_entry (*entries)[MAX_SIZES]; /* per kernel; size[0] == 0: unused */
};

/* Only kernels cut into regions at their barriers gain, and only programs
 * whose kernels share nothing but their arguments: a second build has its
 * own copy of program-scope variables, and block kernels are numbered per
 * executable (device-side enqueue looks them up in the first).  A build
 * with -cl-opt-disable would gain nothing. */
mc_one_size_builds *mc_one_size_builds_new(const mosaic_compiler_target *target, const mosaic_bitcode *blob,
                                           const char *options, const mosaic_executable *exe)
{
    if (!mc_executable_optimised(exe))
        return NULL;
    size_t n = mosaic_executable_num_kernels(exe);
    bool any = false;
    for (size_t k = 0; k < n; k++) {
        const mosaic_kernel_info *info = mosaic_executable_kernel(exe, k);
        any |= info->uses_barriers && info->wg_fn;
    }
    if (!any || mosaic_executable_global_variables_size(exe) ||
        mosaic_executable_block_kernel(exe, MOSAIC_BLOCK_HANDLE(0)))
        return NULL;
    /* before any build in the background, on the thread that builds the
     * program (ir/util.c, warm_up_code_generator) */
    mc_llvm_warm_up();
    mc_background_prepare();
    mc_one_size_builds *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->target = target;
    b->num_kernels = n;
    b->entries = calloc(n, sizeof *b->entries);
    b->blob.type = blob->type;
    b->blob.size = blob->size;
    b->blob.data = malloc(blob->size ? blob->size : 1);
    b->options = strdup(options ? options : "");
    if (!b->entries || !b->blob.data || !b->options) {
        free(b->entries), free(b->blob.data), free(b->options), free(b);
        return NULL;
    }
    memcpy(b->blob.data, blob->data, blob->size);
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->built, NULL);
    b->refs = 1;
    return b;
}

static void destroy(mc_one_size_builds *b)
{
    for (size_t k = 0; k < b->num_kernels; k++)
        for (int i = 0; i < MAX_SIZES; i++)
            mc_executable_unload(b->entries[k][i].exe);
    pthread_mutex_destroy(&b->lock);
    pthread_cond_destroy(&b->built);
    free(b->entries);
    free(b->blob.data);
    free(b->options);
    free(b);
}

/* Drops one reference (the executable's when it lets go). */
static void release(mc_one_size_builds *b, bool by_executable)
{
    pthread_mutex_lock(&b->lock);
    MOSAIC_ASSERT(b->refs > 0 && !(by_executable && b->released));
    b->released |= by_executable;
    bool last = --b->refs == 0;
    pthread_mutex_unlock(&b->lock);
    if (last)
        destroy(b);
}

void mc_one_size_builds_free(mc_one_size_builds *b)
{
    if (b)
        release(b, true);
}

/* The entry of `size` for kernel k, a new one when there is room, or NULL. */
static one_size_entry *find_entry(mc_one_size_builds *b, size_t k, const size_t size[3])
{
    MOSAIC_ASSERT(mosaic_mutex_held(&b->lock));
    MOSAIC_ASSERT(k < b->num_kernels);
    for (int i = 0; i < MAX_SIZES; i++) {
        one_size_entry *e = &b->entries[k][i];
        if (!e->size[0]) {
            memcpy(e->size, size, sizeof e->size);
            e->builds = b;
            return e;
        }
        if (!memcmp(e->size, size, sizeof e->size))
            return e;
    }
    return NULL;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Builds kernel `name` for groups of e->size (b->lock not held: other
 * kernels' launches go on meanwhile). */
static void build(mc_one_size_builds *b, const char *name, one_size_entry *e)
{
    MOSAIC_ASSERT(!mosaic_mutex_held(&b->lock) && e->building);
    mc_one_size one = {.kernel = name, .size = {e->size[0], e->size[1], e->size[2]}};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    double t0 = seconds();
    cl_int r = mc_finalize_one_size(b->target, &b->blob, b->options, &one, &exe, &log);
    const mosaic_kernel_info *built = r == CL_SUCCESS ? mosaic_executable_find_kernel(exe, name) : NULL;
    mosaic_wg_fn fn = built && built->uses_barriers ? built->wg_fn : NULL;
    mosaic_sized_wg fns = {fn, fn ? built->fused_fn : NULL, fn ? built->fused_groups : 0};
    if (mosaic_debugging(MOSAIC_DEBUG_LAUNCH)) {
        if (fn)
            fprintf(stderr, "mosaic: kernel %s: built for work-groups of %zux%zux%zu (%.0f ms)\n", name, e->size[0],
                    e->size[1], e->size[2], 1e3 * (seconds() - t0));
        else
            fprintf(stderr, "mosaic: kernel %s: no build for work-groups of %zux%zux%zu (error %d)%s%s\n",
                    name, e->size[0], e->size[1], e->size[2], r, log && *log ? ":\n" : "", log ? log : "");
    }
    free(log);
    if (!fn) {
        mc_executable_unload(exe);
        exe = NULL;
    }
    pthread_mutex_lock(&b->lock);
    e->exe = exe;
    e->fns = fns;
    e->failed = !fn;
    e->building = false;
    atomic_store_explicit(&e->ready, fn, memory_order_release);
    pthread_cond_broadcast(&b->built);
    pthread_mutex_unlock(&b->lock);
}

mosaic_wg_fn mosaic_sized_wg_whole(const mosaic_sized_wg *s)
{
    if (s->whole || !s->pending)
        return s->whole;
    return atomic_load_explicit(&((one_size_entry *)s->pending)->ready, memory_order_acquire);
}

/* A build queued for the background thread; it holds a reference. */
typedef struct one_size_job {
    mc_one_size_builds *builds;
    one_size_entry *entry;
    char name[];
} one_size_job;

/* A build that will not run: its entry is not building any more (one
 * who waits for it stops waiting, with the general K.wg); failed: not
 * to be tried again. */
static void not_built(mc_one_size_builds *b, one_size_entry *e, bool failed)
{
    pthread_mutex_lock(&b->lock);
    e->building = false;
    e->failed = failed;
    pthread_cond_broadcast(&b->built);
    pthread_mutex_unlock(&b->lock);
}

static void run_job(void *arg)
{
    one_size_job *job = arg;
    mc_one_size_builds *b = job->builds;
    pthread_mutex_lock(&b->lock);
    bool wanted = !b->released;
    pthread_mutex_unlock(&b->lock);
    if (wanted)
        build(b, job->name, job->entry);
    else
        not_built(b, job->entry, true);
    release(b, false);
    free(job);
}

static void drop_job(void *arg)
{
    one_size_job *job = arg;
    not_built(job->builds, job->entry, true);
    release(job->builds, false);
    free(job);
}

/* Queues the build of entry e (marked building); false: not queued. */
static bool build_in_background(mc_one_size_builds *b, const char *name, one_size_entry *e)
{
    size_t n = strlen(name) + 1;
    one_size_job *job = malloc(sizeof *job + n);
    if (!job)
        return false;
    *job = (one_size_job){b, e};
    memcpy(job->name, name, n);
    pthread_mutex_lock(&b->lock);
    b->refs++;
    pthread_mutex_unlock(&b->lock);
    if (mc_background_run(run_job, drop_job, job))
        return true;
    free(job);
    release(b, false);
    return false;
}

void mosaic_sized_wg_hurry(const mosaic_sized_wg *s, const char *kernel_name)
{
    one_size_entry *e = (one_size_entry *)s->pending;
    if (s->whole || !e)
        return;
    mc_one_size_builds *b = e->builds;
    pthread_mutex_lock(&b->lock);
    bool start = !e->exe && !e->building && !e->failed && !b->released;
    if (start)
        e->building = true;
    pthread_mutex_unlock(&b->lock);
    if (start && !build_in_background(b, kernel_name, e))
        not_built(b, e, false); /* (no memory: a later launch asks again) */
}

/* Every launch of a kernel with reqd_work_group_size has that local size
 * (but a remainder group, which runs the general K.wg), so its build for
 * it need not wait for MOSAIC_SPECIALISE_AFTER launches: a library's
 * register-tiled GEMM (the runner's gemm_direct) ran its first launches,
 * seconds each on one thread, with a general K.wg ten times slower. */
void mc_one_size_build_required(mosaic_executable *exe)
{
    const struct mosaic_settings *settings = mosaic_settings();
    if (!mc_executable_one_size_builds(exe) || !settings->specialise_after)
        return;
    size_t n = mosaic_executable_num_kernels(exe);
    for (size_t k = 0; k < n; k++) {
        const mosaic_kernel_info *info = mosaic_executable_kernel(exe, k);
        if (info->reqd_work_group_size[0])
            (void)mosaic_executable_wg_for_size(exe, info, info->reqd_work_group_size, 1, settings->specialise_wait);
    }
}

mosaic_sized_wg mosaic_executable_wg_for_size(mosaic_executable *exe, const mosaic_kernel_info *kernel,
                                              const size_t local_size[3], unsigned after, bool wait)
{
    mc_one_size_builds *b = mc_executable_one_size_builds(exe);
    mosaic_sized_wg none = {NULL, NULL, 0, NULL};
    if (!b || !after || !kernel || !kernel->uses_barriers || !kernel->wg_fn || !local_size[0])
        return none;
    /* No build for a kernel with large private arrays, or whose work-items
     * keep more between barriers than goes on the stack: its time goes to
     * memory, not to its loops, and its frames stay those of the K.wg the
     * device sized its work-groups by (mosaic_kernel_info's wg_stack_size). */
    size_t items = local_size[0] * local_size[1] * local_size[2];
    if (kernel->private_mem_size > ONE_SIZE_MAX_PRIVATE || kernel->item_state_size > MC_STORAGE_ON_STACK / items)
        return none;
    const mosaic_kernel_info *first = mosaic_executable_kernel(exe, 0);
    MOSAIC_ASSERT(first && kernel >= first && (size_t)(kernel - first) < b->num_kernels);
    pthread_mutex_lock(&b->lock);
    one_size_entry *e = find_entry(b, (size_t)(kernel - first), local_size);
    mosaic_sized_wg fns = e ? e->fns : none;
    bool start = e && !fns.whole && !e->building && !e->failed && ++e->asks >= after;
    if (start)
        e->building = true;
    if (wait && e && !start && e->building) { /* started before (a required size, a long launch) */
        while (e->building)
            pthread_cond_wait(&b->built, &b->lock);
        fns = e->fns;
    }
    if (e && !fns.whole && !e->failed)
        fns.pending = e; /* a launch may take it once ready, or start it (mosaic_sized_wg_hurry) */
    pthread_mutex_unlock(&b->lock);
    if (!start)
        return fns;
    if (!wait && build_in_background(b, kernel->name, e))
        return fns;
    build(b, kernel->name, e);
    return e->fns; /* written by this thread; an entry is never reused */
}
