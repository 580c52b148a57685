/*
 * The CPU device's executor: for each device (the root device and every
 * sub-device), a persistent pool of worker threads (one per compute unit,
 * started at the device's first command) and a FIFO of jobs.  A job is either
 * a simple command (a copy, a fill, a native kernel: one worker runs it) or a
 * kernel launch, whose work-groups every worker of the pool claims from an
 * atomic counter.  The worker that finishes the last work-group completes the
 * command.  A sub-device's workers are pinned to its compute units' CPUs; the
 * root device's float over every CPU the process could use at start-up.
 *
 * A kernel runs through the compiler's work-group function: a loop over the
 * work-items, cut into regions at its barriers (src/compiler/workgroup/regions.c).
 * Kernels the cutting does not handle (and every barrier kernel under
 * MOSAIC_BARRIER_FIBERS=1) run each work-item as a fiber on the worker's
 * thread (fiber.h); __mosaic_barrier switches to the next work-item.
 *
 * Kernel code runs under the worker's guard (cpu_faults.h): a fault in it,
 * or a run past MOSAIC_KERNEL_TIMEOUT_MS, jumps back to run_claim, which
 * fails the command (docs/faults.md).
 */
#define _GNU_SOURCE
#include "devices/cpu/cpu.h"
#include "devices/cpu/fiber.h"
#include "devices/cpu/cpu_runtime.h"
#include "devices/cpu/cpu_pipe.h"
#include "devices/cpu/cpu_exec.h"
#include "devices/cpu/cpu_check.h"
#include "devices/cpu/cpu_counters.h"
#include "devices/cpu/cpu_faults.h"
#include "core/engine.h"
#include "core/ndrange.h"
#include "core/recycle.h"
#include "core/trace.h"
#include "core/util.h"
#include "base/assert.h"
#include "base/settings.h"

#include <errno.h>
#include <fenv.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef cpu_job job; /* cpu_exec.h */

/* Orders this thread's non-temporal stores (ctx->stream_stores) before its
 * later stores, one of which will say that the group ended. */
static inline void store_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* Per-worker state for running work-items as fibers. */
typedef struct fiber_set {
    char *stacks;        /* count stacks of stack_size bytes, each after a guard page */
    size_t count, stack_size;
    void **sp;           /* saved stack pointer of each fiber */
    unsigned char *state;
    unsigned *site;      /* which call of a non-uniform sub-group barrier a fiber waits at */
} fiber_set;

/* A worker's stack for work-group functions whose frame its own stack
 * cannot hold (mosaic_cpu_wg_stack): size bytes after a guard page. */
typedef struct wg_stack {
    char *base;          /* the guard page, then the stack; NULL: none yet */
    size_t size;
} wg_stack;

enum { FIBER_RUNNING, FIBER_AT_BARRIER, FIBER_AT_SUB_GROUP_BARRIER, FIBER_AT_NON_UNIFORM, FIBER_YIELDED, FIBER_DONE };

struct cpu_pool;

/* What a worker is running right now (reached from __mosaic_barrier through
 * ctx->device_private). */
typedef struct worker {
    unsigned index;
    struct cpu_pool *pool;
    pthread_t thread;
    char *local_mem;
    size_t local_mem_size;
    fiber_set fibers;
    wg_stack big_stack;
    void *scheduler_sp;
    size_t current;      /* running fiber */
    const mosaic_kernel_info *kernel;
    void *const *args;
    mosaic_wg_ctx *ctx;
    bool divergence_reported;
    unsigned yields;     /* cpu_yield's calls since it last let the other fibers run */
    unsigned active;     /* the mask a non-uniform sub-group barrier returns to the fibers it releases */
    cpu_running running; /* the job, for device-side enqueue (cpu_enqueue.c) */
    cpu_counters counters; /* private copies of a launch's counter arguments (cpu_counters.c) */
    /* A launch handed to this worker when it came to an empty list, with a
     * hold of its own: the worker joins it without the pool's lock
     * (cpu_submit, worker_main).  Written by the submitting thread and
     * taken by the worker: a line of its own. */
    _Alignas(64) _Atomic(job *) mailbox;
    struct {             /* the K.wg call run_wg makes on big_stack */
        mosaic_wg_fn fn;
        void *const *args;
        mosaic_wg_ctx *ctx;
    } kernel_call;
    unsigned together;   /* groups K.fused runs now (run_unit), else 1: for a fault's report */
    uint64_t sub_group_order[2]; /* MOSAIC_CHECK_SHUFFLE: the group's sub-groups run (a * i + b) % n;
                                    {0, 0}: in order */
    uint64_t item_seed;  /* MOSAIC_CHECK_SHUFFLE: the seed of the orders of a sub-group's work-items, 0: in order */
    uint64_t item_turns; /* the sub-groups' turns so far (each turn its own order) */
    cpu_guard guard;     /* where a fault in kernel code jumps back to (cpu_faults.h) */
    fenv_t fenv;         /* the thread's floating-point environment, set again after such a jump */
} worker;

/* One device's executor (device->impl). */
typedef struct cpu_pool {
    pthread_mutex_t lock;    /* what it guards: docs/architecture.md, "Locks" */
    job *head, *tail;
    atomic_size_t queued;    /* jobs in the list (changed under lock; a worker done with a job reads it
                                without, wait_lock_free) */
    atomic_uint searching;   /* workers done with a job that will look at the list before sleeping */
    atomic_uint submitted;   /* jobs put on the list so far, and the pool's closing: an idle worker
                                spins on it, then sleeps on it (a futex) */
    atomic_uint children_pushed; /* jobs kernels enqueued put in front so far: a worker leaves a
                                    kernel's work-groups for them (work_on_kernel) */
    atomic_bool started;     /* the workers run (set under lock, read without) */
    unsigned num_workers;
    worker *workers;
    job *orphans;            /* jobs queued when this process was forked: its parent's (under lock) */
    /* What the device is made of (fixed at creation). */
    unsigned num_units;      /* compute units: one worker each */
    unsigned *unit_cpus;     /* the CPU of each compute unit */
    cpu_set_t cpus;          /* where the workers may run */
    /* Lifetime: a sub-device's pool outlives its device until its workers exit. */
    bool closing;            /* the device is gone: idle workers exit (under lock) */
    unsigned alive;          /* worker threads not exited yet (under lock) */
    struct cpu_pool *next, *prev; /* in all_pools (under pools_lock) */
    unsigned number;         /* in the order pools were made: 0 is the root device's (MOSAIC_TRACE's names) */
} cpu_pool;

/* Every pool of the process, for fork(): pools_lock, then a pool's lock. */
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_pool *all_pools;

unsigned mosaic_cpu_num_workers(void)
{
    long n = mosaic_settings()->num_threads;
    if (n > 0)
        return (unsigned)(n > 1024 ? 1024 : n);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* ---- fibers --------------------------------------------------------------- */

size_t mosaic_cpu_page_size(void)
{
    static size_t size;
    if (!size)
        size = (size_t)sysconf(_SC_PAGESIZE);
    return size;
}

/* Makes room for `count` fibers of `stack` bytes (a multiple of the page)
 * each, every stack above a guard page, so a work-item that overflows its
 * stack faults instead of corrupting another.  Stacks are mapped, not
 * committed: only the pages a work-item touches take memory. */
static bool fibers_reserve(fiber_set *f, size_t count, size_t stack)
{
    MOSAIC_ASSERT(stack % mosaic_cpu_page_size() == 0);
    if (f->count >= count && f->stack_size >= stack)
        return true;
    size_t slot = stack + mosaic_cpu_page_size();
    if (count > SIZE_MAX / slot)
        return false;
    if (f->stacks)
        munmap(f->stacks, f->count * (f->stack_size + mosaic_cpu_page_size()));
    free(f->sp);
    free(f->state);
    free(f->site);
    memset(f, 0, sizeof *f);
    char *mem = mmap(NULL, count * slot, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        return false;
    for (size_t i = 0; i < count; i++)
        mprotect(mem + i * slot, mosaic_cpu_page_size(), PROT_NONE);
    f->sp = calloc(count, sizeof *f->sp);
    f->state = calloc(count, 1);
    f->site = calloc(count, sizeof *f->site);
    if (!f->sp || !f->state || !f->site) {
        munmap(mem, count * slot);
        free(f->sp);
        free(f->state);
        free(f->site);
        memset(f, 0, sizeof *f);
        return false;
    }
    f->stacks = mem;
    f->count = count;
    f->stack_size = stack;
    return true;
}

static __thread worker *current_worker;

static void fiber_main(void *arg)
{
    worker *w = current_worker;
    size_t i = (size_t)(uintptr_t)arg;
    mosaic_wg_ctx *ctx = w->ctx;
    size_t lx = ctx->local_size[0], ly = ctx->local_size[1];
    w->kernel->wi_fn(w->args, ctx, i % lx, (i / lx) % ly, i / (lx * ly));
    w->fibers.state[i] = FIBER_DONE;
    mosaic_fiber_switch(&w->fibers.sp[i], w->scheduler_sp);
}

/* The running fiber stops in `state` (a FIBER_AT_*) until the scheduler
 * sets it running again. */
static void fiber_wait(worker *w, int state)
{
    size_t i = w->current;
    w->fibers.state[i] = state;
    mosaic_fiber_switch(&w->fibers.sp[i], w->scheduler_sp);
}

/* Called by kernels at every work-group barrier. */
static void cpu_barrier(const mosaic_wg_ctx *ctx) { fiber_wait(ctx->device_private, FIBER_AT_BARRIER); }

/* Called by kernels at every sub-group barrier (sub-group functions,
 * builtins/subgroups.cl): waits for the work-items of the caller's sub-group only. */
static void cpu_sub_group_barrier(const mosaic_wg_ctx *ctx)
{
    fiber_wait(ctx->device_private, FIBER_AT_SUB_GROUP_BARRIER);
}

/* Called by kernels at every non-uniform sub-group barrier (the non-uniform
 * sub-group functions, builtins/subgroups.cl): waits until the scheduler
 * releases the fibers of the caller's sub-group at this call (`site`: the
 * compiler numbers the calls of a kernel in the order of its code, each
 * call of a builtin one of its own after inlining), and returns their mask. */
static unsigned cpu_sub_group_active(const mosaic_wg_ctx *ctx, unsigned site)
{
    worker *w = ctx->device_private;
    w->fibers.site[w->current] = site;
    fiber_wait(w, FIBER_AT_NON_UNIFORM);
    return w->active;
}

/* Called by kernels on every iteration of a loop that waits for other
 * work-items (src/compiler/workgroup/spin_loops.c): every YIELD_EVERY-th call
 * the fiber lets the rest of its group run before it tests again (the
 * sub-groups' independent forward progress).  Not every call: such a loop is
 * often a compare-exchange retried until it wins, which wins at once while
 * one fiber runs, and a switch to each of the group's fibers on each of its
 * iterations cost more than the loop (the CTS's c11_atomics compare-exchange
 * kernels, 1024 work-items of 10000 iterations: 40 ns an iteration, most of
 * it the switches).  A fiber that does wait spins at most YIELD_EVERY - 1
 * more iterations first. */
enum { YIELD_EVERY = 32 };
static void cpu_yield(const mosaic_wg_ctx *ctx)
{
    worker *w = ctx->device_private;
    if (++w->yields < YIELD_EVERY)
        return; /* the loop tests again at once: a switch costs more than a few of its iterations */
    w->yields = 0;
    fiber_wait(w, FIBER_YIELDED);
}

/* cl_khr_kernel_clock (builtins/kernel_clock.cl): CLOCK_MONOTONIC in
 * nanoseconds, one clock every core reads alike, so it serves the device,
 * work-group and sub-group scopes at once. */
static uint64_t cpu_kernel_clock(void) { return mosaic_now_ns(); }

/* Called by a barrier kernel's work-group function (regions between
 * barriers, src/compiler/workgroup/regions.c), and after a group run as
 * fibers, when the group's work-items did not all reach the same barrier:
 * undefined behaviour in OpenCL, reported once per worker (under checking,
 * the checker reports it). */
static void cpu_barrier_divergence(const mosaic_wg_ctx *ctx, const char *kernel)
{
    worker *w = ctx->device_private;
    if (w->divergence_reported || (mosaic_settings()->check & MOSAIC_CHECK_BARRIERS)) /* (its report is the checker's) */
        return;
    w->divergence_reported = true;
    fprintf(stderr, "mosaic: kernel %s: a barrier was reached by only part of work-group (%zu,%zu,%zu); "
            "this is undefined behaviour in OpenCL\n", kernel, (size_t)ctx->group_id[0], (size_t)ctx->group_id[1],
            (size_t)ctx->group_id[2]);
}

/* Releases the fibers of [lo, hi) waiting at a non-uniform sub-group barrier
 * with the lowest call site (in straight-line code without loops back to it,
 * the earliest in the kernel: the others may yet join the work-items that
 * reach it later); they are the active work-items.  False when none waits. */
static bool release_non_uniform(worker *w, size_t lo, size_t hi)
{
    fiber_set *f = &w->fibers;
    bool waiting = false;
    unsigned site = 0;
    for (size_t i = lo; i < hi; i++)
        if (f->state[i] == FIBER_AT_NON_UNIFORM && (!waiting || f->site[i] < site)) {
            site = f->site[i];
            waiting = true;
        }
    if (!waiting)
        return false;
    unsigned active = 0;
    for (size_t i = lo; i < hi; i++)
        if (f->state[i] == FIBER_AT_NON_UNIFORM && f->site[i] == site) {
            active |= 1u << (i - lo);
            f->state[i] = FIBER_RUNNING;
        }
    w->active = active;
    return true;
}

/* Runs fibers [lo, hi), one sub-group (under MOSAIC_CHECK_SHUFFLE in a
 * seeded order, another at each turn), until each has finished, waits at a
 * work-group barrier or yielded (cpu_yield: then the sub-group lets the
 * others run, and *yielded says so), releasing them from their sub-group
 * barriers when all have reached one.  While they do not all wait at the
 * same kind of barrier, those at a non-uniform one go first
 * (release_non_uniform).  Returns false when some reached a sub-group
 * barrier that others of the sub-group did not (undefined behaviour; they
 * go on). */
static bool run_sub_group_as_fibers(worker *w, size_t lo, size_t hi, bool *yielded)
{
    fiber_set *f = &w->fibers;
    bool uniform = true;
    for (;;) {
        size_t at_sub_group_barrier = 0;
        uint64_t order[2] = {0, 0}; /* MOSAIC_CHECK_SHUFFLE: the k-th to run is lo + (a * k + b) % (hi - lo) */
        if (w->item_seed)
            mosaic_cpu_check_shuffle_items(w->item_seed, w->item_turns++, hi - lo, order);
        for (size_t k = 0; k < hi - lo; k++) {
            size_t i = lo + (order[0] ? (order[0] * k + order[1]) % (hi - lo) : k);
            if (f->state[i] != FIBER_RUNNING)
                continue;
            w->current = i;
            mosaic_fiber_switch(&w->scheduler_sp, f->sp[i]);
        }
        for (size_t i = lo; i < hi; i++)
            if (f->state[i] == FIBER_YIELDED) {
                *yielded = true; /* the others wait for it where they are */
                return uniform;
            }
        if (release_non_uniform(w, lo, hi))
            continue;
        for (size_t i = lo; i < hi; i++)
            at_sub_group_barrier += f->state[i] == FIBER_AT_SUB_GROUP_BARRIER;
        if (!at_sub_group_barrier)
            return uniform;
        if (at_sub_group_barrier != hi - lo)
            uniform = false;
        for (size_t i = lo; i < hi; i++)
            if (f->state[i] == FIBER_AT_SUB_GROUP_BARRIER)
                f->state[i] = FIBER_RUNNING;
    }
}

/* Runs every work-item of the group until all finish, one barrier phase at
 * a time, each phase one sub-group after another (a sub-group may pass its
 * sub-group barriers while the others have not started).  While fibers
 * yield (a loop waiting for another work-item) the sub-groups take turns
 * until none does: each progresses whatever the others wait for.  Returns false when
 * the group's work-items disagreed about a barrier (some finished while
 * others waited): undefined behaviour in OpenCL, reported rather than left to
 * hang. */
static bool run_group_as_fibers(worker *w, size_t count)
{
    fiber_set *f = &w->fibers;
    for (size_t i = 0; i < count; i++) {
        char *top = f->stacks + (i + 1) * (f->stack_size + mosaic_cpu_page_size());
        f->sp[i] = mosaic_fiber_prepare(top, fiber_main, (void *)(uintptr_t)i);
        f->state[i] = FIBER_RUNNING;
    }
    bool uniform = true;
    for (;;) {
        size_t done = 0, waiting = 0;
        bool yielded = false;
        size_t sub_groups = (count + MOSAIC_SUB_GROUP_SIZE - 1) / MOSAIC_SUB_GROUP_SIZE;
        for (size_t s = 0; s < sub_groups; s++) {
            size_t lo = (w->sub_group_order[0] ? (w->sub_group_order[0] * s + w->sub_group_order[1]) % sub_groups
                                               : s) * MOSAIC_SUB_GROUP_SIZE;
            uniform &= run_sub_group_as_fibers(w, lo, count - lo < MOSAIC_SUB_GROUP_SIZE ? count
                                                                                           : lo + MOSAIC_SUB_GROUP_SIZE,
                                               &yielded);
        }
        if (yielded) { /* another turn before any barrier is released */
            for (size_t i = 0; i < count; i++)
                if (f->state[i] == FIBER_YIELDED)
                    f->state[i] = FIBER_RUNNING;
            continue;
        }
        for (size_t i = 0; i < count; i++) {
            if (f->state[i] == FIBER_DONE) {
                done++;
            } else {
                waiting++;
                f->state[i] = FIBER_RUNNING;
            }
        }
        if (waiting == 0)
            return uniform;
        if (done > 0)
            uniform = false; /* the waiting ones are released to finish anyway */
    }
}

/* ---- running work-groups ---------------------------------------------------- */

static bool ensure_local_mem(worker *w, size_t size)
{
    if (w->local_mem_size >= size)
        return true;
    free(w->local_mem);
    w->local_mem = aligned_alloc(128, (size + 127) & ~(size_t)127);
    w->local_mem_size = w->local_mem ? size : 0;
    return w->local_mem != NULL;
}

/* What a worker's groups of one launch have in common: the context's
 * launch fields and its arena, set up once for all the groups it claims (a
 * launch of many small groups paid three divisions and some thirty stores
 * a group).  A job whose groups run `count` at a time (fused_groups) gets
 * `count` contexts, one after another, each with an arena of its own.
 * False if the arenas cannot be had. */
static bool group_ctx_init(worker *w, const job *j, mosaic_wg_ctx *ctx, unsigned count)
{
    MOSAIC_ASSERT(count >= 1 && count <= MOSAIC_MAX_FUSED_GROUPS);
    const mosaic_ndrange *nd = j->ndrange;
    /* An arena holds the group's __local bytes, then the scratch of the
     * work-group and sub-group collective functions. */
    size_t scratch_at = (nd->local_mem_size + 127) & ~(size_t)127;
    size_t arena = (scratch_at + MOSAIC_WG_SCRATCH_SIZE(nd->local_size[0] * nd->local_size[1] * nd->local_size[2]) +
                    127) & ~(size_t)127;
    if (!ensure_local_mem(w, count * arena))
        return false;
    for (unsigned i = 0; i < count; i++) {
        mosaic_wg_ctx *c = &ctx[i];
        c->work_dim = nd->work_dim;
        c->stream_stores = j->stream_stores;
        for (int d = 0; d < 3; d++) {
            c->global_offset[d] = nd->global_offset[d];
            c->global_size[d] = nd->global_size[d];
            c->enqueued_local_size[d] = nd->local_size[d];
            c->num_groups[d] = nd->num_groups[d];
        }
        c->local_mem = w->local_mem + i * arena;
        c->device_private = w;
        c->local_mem_size = nd->local_mem_size;
        c->wg_scratch = c->local_mem + scratch_at;
        /* Private memory (builtins/address.cl): this thread's stack, and the fiber stacks. */
        mosaic_cpu_thread_stack(&c->private_lo[0], &c->private_hi[0]);
        c->private_lo[1] = c->private_hi[1] = NULL;
    }
    return true;
}

/* The coordinates of the group with linear index `linear` (x fastest). */
static void group_coords(const mosaic_ndrange *nd, size_t linear, size_t g[3])
{
    g[0] = linear % nd->num_groups[0];
    g[1] = (linear / nd->num_groups[0]) % nd->num_groups[1];
    g[2] = linear / (nd->num_groups[0] * nd->num_groups[1]);
}

/* g moved on to the next group in linear order. */
static void next_group_coords(const mosaic_ndrange *nd, size_t g[3])
{
    if (++g[0] < nd->num_groups[0])
        return;
    g[0] = 0;
    if (++g[1] < nd->num_groups[1])
        return;
    g[1] = 0;
    g[2]++;
}

/* ---- work-group functions with large frames -------------------------------- */

/* Makes the worker's own stack for work-group functions at least `size`
 * bytes (a multiple of the page), above a guard page. */
static bool big_stack_reserve(wg_stack *s, size_t size)
{
    MOSAIC_ASSERT(size % mosaic_cpu_page_size() == 0);
    if (s->base && s->size >= size)
        return true;
    if (s->base)
        munmap(s->base, s->size + mosaic_cpu_page_size());
    s->base = NULL;
    s->size = 0;
    char *mem = mmap(NULL, size + mosaic_cpu_page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (mem == MAP_FAILED)
        return false;
    mprotect(mem, mosaic_cpu_page_size(), PROT_NONE);
    s->base = mem;
    s->size = size;
    return true;
}

/* What the worker runs on its own stack for work-group functions: one
 * call, then back to the worker's stack (it never returns). */
static void big_stack_main(void *arg)
{
    worker *w = arg;
    w->kernel_call.fn(w->kernel_call.args, w->kernel_call.ctx);
    void *unused;
    mosaic_fiber_switch(&unused, w->scheduler_sp);
}

/* Calls fn (kernel k's K.wg, or a K.wg built for its size) for the group
 * of ctx: on the worker's stack, or on a stack of its own when the frame
 * needs more (a large private array); that stack is then where the
 * group's private memory is (ctx->private_lo[1], builtins/address.cl). */
static cl_int run_wg(worker *w, const mosaic_kernel_info *k, mosaic_wg_fn fn, void *const *args, mosaic_wg_ctx *ctx)
{
    size_t stack = mosaic_cpu_wg_stack(k);
    if (!stack) {
        fn(args, ctx);
        return CL_COMPLETE;
    }
    if (!big_stack_reserve(&w->big_stack, stack))
        return CL_OUT_OF_RESOURCES;
    char *lo = w->big_stack.base + mosaic_cpu_page_size(), *top = lo + w->big_stack.size;
    ctx->private_lo[1] = lo;
    ctx->private_hi[1] = top;
    w->kernel_call.fn = fn;
    w->kernel_call.args = args;
    w->kernel_call.ctx = ctx;
    mosaic_fiber_switch(&w->scheduler_sp, mosaic_fiber_prepare(top, big_stack_main, w));
    ctx->private_lo[1] = ctx->private_hi[1] = NULL;
    return CL_COMPLETE;
}

/* Runs the code of the group at g (count work-items) of j, ctx set up for
 * it: a K.wg, or the work-items as fibers. */
static cl_int run_group_code(worker *w, const job *j, mosaic_wg_ctx *ctx, const size_t g[3], void *const *args,
                             size_t count)
{
    const mosaic_ndrange *nd = j->ndrange;
    const mosaic_kernel_info *k = nd->info;
    /* a whole group (each ctx->local_size[d] is at most local_size[d]) may run
     * the K.wg built for the launch's local size, also once its build, still
     * running when the launch began, is ready: a long launch of a kernel whose
     * general K.wg is much slower (a register-tiled GEMM's, ten times) need
     * not run all its groups with it */
    mosaic_wg_fn sized = mosaic_sized_wg_whole(&nd->sized);
    if (sized && count == nd->local_size[0] * nd->local_size[1] * nd->local_size[2] && !j->shuffle[2])
        return run_wg(w, k, sized, args, ctx);
    if (k->wg_fn && !j->shuffle[2])
        return run_wg(w, k, k->wg_fn, args, ctx);
    /* MOSAIC_CHECK_SHUFFLE: the work-items as fibers, their sub-groups in an order of the group's own */
    w->sub_group_order[0] = w->sub_group_order[1] = 0;
    size_t group = (g[2] * nd->num_groups[1] + g[1]) * nd->num_groups[0] + g[0];
    if (j->shuffle[2])
        mosaic_cpu_check_shuffle_items(j->shuffle[2], group, (count + MOSAIC_SUB_GROUP_SIZE - 1) / MOSAIC_SUB_GROUP_SIZE,
                                       w->sub_group_order);
    /* (and each sub-group's work-items, turn by turn, in orders of their own) */
    w->item_seed = j->shuffle[2] ? (j->shuffle[2] ^ (group + 1) * 0xbf58476d1ce4e5b9ull) | 1 : 0;
    w->item_turns = 0;
    if (!fibers_reserve(&w->fibers, count, mosaic_cpu_fiber_stack(k)))
        return CL_OUT_OF_RESOURCES;
    ctx->private_lo[1] = w->fibers.stacks;
    ctx->private_hi[1] = w->fibers.stacks + w->fibers.count * (w->fibers.stack_size + mosaic_cpu_page_size());
    w->kernel = k;
    w->args = args;
    w->ctx = ctx;
    if (!run_group_as_fibers(w, count))
        cpu_barrier_divergence(ctx, k->name);
    return CL_COMPLETE;
}

/* Runs the group at g of j with a context group_ctx_init set up for j, and
 * args: the launch's, or the worker's with its copies of the counters
 * (under checking, between the checker's begin and end of the group). */
static cl_int run_group(worker *w, const job *j, mosaic_wg_ctx *ctx, const size_t g[3], void *const *args)
{
    MOSAIC_ASSERT(ctx->device_private == w && ctx->local_mem == w->local_mem);
    const mosaic_ndrange *nd = j->ndrange;
    size_t count = 1;
    for (int d = 0; d < 3; d++) {
        ctx->group_id[d] = g[d];
        size_t remaining = nd->global_size[d] - g[d] * nd->local_size[d];
        ctx->local_size[d] = remaining < nd->local_size[d] ? remaining : nd->local_size[d];
        count *= ctx->local_size[d];
    }
    ctx->private_lo[1] = ctx->private_hi[1] = NULL;
    ctx->check_windows = NULL;
    ctx->check_local_written = NULL;
    if (j->check && mosaic_cpu_check_group_begin(&w->running.check, j->check, ctx, count)) {
        ctx->check_windows = mosaic_cpu_check_group_windows(w->running.check);
        ctx->check_local_written = mosaic_cpu_check_group_written(w->running.check);
        cl_int status = run_group_code(w, j, ctx, g, args, count);
        mosaic_cpu_check_group_end(w->running.check);
        return status;
    }
    return run_group_code(w, j, ctx, g, args, count);
}


/* The coordinates of the first group of unit u of a job whose groups run
 * fused_groups at a time: (x, y .. y + F - 1, z) of one column. */
static void unit_coords(const job *j, size_t u, size_t g[3])
{
    const mosaic_ndrange *nd = j->ndrange;
    size_t rows = (nd->num_groups[1] + j->fused_groups - 1) / j->fused_groups;
    g[0] = u % nd->num_groups[0];
    g[1] = (u / nd->num_groups[0]) % rows * j->fused_groups;
    g[2] = u / (nd->num_groups[0] * rows);
}

/* Runs unit u of a job whose groups run fused_groups at a time: the
 * groups (x, y .. y + F - 1, z) of one column, through K.fused when they
 * are all there and whole and `together` (ctx: F contexts from
 * group_ctx_init), else one by one (ctx: at least one). */
static cl_int run_unit(worker *w, const job *j, mosaic_wg_ctx *ctx, size_t u, bool together, void *const *args)
{
    const mosaic_ndrange *nd = j->ndrange;
    unsigned f = j->fused_groups;
    size_t g[3];
    unit_coords(j, u, g);
    size_t count = nd->num_groups[1] - g[1] < f ? nd->num_groups[1] - g[1] : f;
    bool whole = together && count == f;
    for (int d = 0; d < 3; d++)
        whole &= (g[d] + (d == 1 ? f : 1)) * nd->local_size[d] <= nd->global_size[d];
    if (whole) {
        for (unsigned i = 0; i < f; i++) {
            ctx[i].group_id[0] = g[0], ctx[i].group_id[1] = g[1] + i, ctx[i].group_id[2] = g[2];
            for (int d = 0; d < 3; d++)
                ctx[i].local_size[d] = nd->local_size[d];
        }
        /* a build for one size has a small frame (one_size.c): K.fused runs on
         * the worker's stack, its contexts' private ranges as group_ctx_init set them */
        MOSAIC_ASSERT(!mosaic_cpu_wg_stack(nd->info));
        w->together = f;
        nd->sized.fused(args, ctx);
        w->together = 1;
        return CL_COMPLETE;
    }
    for (size_t i = 0; i < count; i++) {
        size_t gi[3] = {g[0], g[1] + i, g[2]};
        cl_int status = run_group(w, j, ctx, gi, args);
        if (status != CL_COMPLETE)
            return status;
    }
    return CL_COMPLETE;
}

static void job_free(job *j)
{
    MOSAIC_ASSERT(!atomic_load_explicit(&j->held, memory_order_relaxed));
    free(j->groups_ended);
    mosaic_cpu_check_launch_free(j->check);
    if (j->recycled)
        mosaic_recycle(j);
    else
        free(j);
}

static void job_release(job *j)
{
    if (atomic_fetch_sub(&j->holds, 1) == 1)
        job_free(j);
}

void mosaic_cpu_job_release(cpu_job *j) { job_release(j); }

cpu_running *mosaic_cpu_running(const mosaic_wg_ctx *ctx) { return &((worker *)ctx->device_private)->running; }

/* Takes j, whose groups (or parts) are all claimed, off p's list if it is
 * still there, with the list's hold: once a launch, by the worker that
 * found none left, so that the others, done with it, find the list as it
 * is (empty, when the host waits for each launch) without the pool's lock
 * (wait_lock_free), where sixteen took it one after another. */
static void take_off_list(cpu_pool *p, job *j)
{
    pthread_mutex_lock(&p->lock);
    job *prev = NULL, *at = p->head;
    while (at && at != j)
        prev = at, at = at->next;
    if (at) {
        if (prev)
            prev->next = j->next;
        else
            p->head = j->next;
        if (p->tail == j)
            p->tail = prev;
        atomic_fetch_sub(&p->queued, 1);
    }
    pthread_mutex_unlock(&p->lock);
    if (at)
        job_release(j); /* the list's (the caller holds one of its own) */
}

/* A launch whose groups one worker has run with the general K.wg for this
 * long starts the build for its local size (mosaic_sized_wg_hurry) without
 * waiting for the launches that would start it (MOSAIC_SPECIALISE_AFTER):
 * a register-tiled GEMM's general K.wg, ten times slower than its build
 * for 8x8 groups, took seconds a launch on one thread, longer than the build. */
#define HURRY_AFTER_NS (50 * 1000 * 1000)

/* After a claim of nd's groups: when this worker began running them with
 * the general K.wg HURRY_AFTER_NS before, hurries the build for their size.
 * Returns since, or UINT64_MAX once there is nothing more to do. */
static uint64_t hurry_size_build(const mosaic_ndrange *nd, uint64_t since)
{
    if (mosaic_sized_wg_whole(&nd->sized))
        return UINT64_MAX;
    if (mosaic_now_ns() - since < HURRY_AFTER_NS)
        return since;
    mosaic_sized_wg_hurry(&nd->sized, nd->info->name);
    return UINT64_MAX;
}

/* The command's first failure is its status. */
static void fail_job(job *j, cl_int status)
{
    if (status == CL_COMPLETE)
        return;
    int expected = CL_COMPLETE;
    atomic_compare_exchange_strong(&j->status, &expected, status);
}

/* The groups (or units of fused_groups) of one claim of a launch, kept in
 * memory: after a jump back to run_claim, what the fault left. */
typedef struct claim {
    mosaic_wg_ctx *ctx;      /* the contexts of group_ctx_init */
    int ctx_state;           /* as in work_on_kernel */
    void *const *args;
    size_t coords[3];        /* group `next`'s (groups not run in units) */
    size_t next;             /* the group (or unit) running */
} claim;

/* When j's groups run for too long (MOSAIC_KERNEL_TIMEOUT_MS after its
 * first claim); 0: never. */
static uint64_t job_deadline(job *j)
{
    uint64_t timeout = mosaic_cpu_kernel_timeout_ns();
    if (!timeout)
        return 0;
    uint64_t deadline = atomic_load_explicit(&j->deadline, memory_order_relaxed);
    if (!deadline) {
        uint64_t mine = mosaic_now_ns() + timeout;
        deadline = atomic_compare_exchange_strong(&j->deadline, &deadline, mine) ? mine : deadline;
    }
    return deadline;
}

/* Group (or unit) c->next of j stopped, w->guard.stop says why: at `group`
 * (with w->together groups run at once).  The command fails and its groups
 * left are skipped; the first worker to stop it says why. */
static void stop_job(worker *w, job *j, const claim *c, const uint64_t group[3])
{
    const mosaic_ndrange *nd = j->ndrange;
    bool first = !atomic_exchange(&j->failed, true);
    char *stack_lo, *stack_hi;
    mosaic_cpu_thread_stack(&stack_lo, &stack_hi);
    cpu_fault_stacks stacks = {
        .thread_lo = stack_lo,
        .thread_hi = stack_hi,
        .fibers = w->fibers.stacks,
        .fiber_slot = w->fibers.stack_size + mosaic_cpu_page_size(),
        .fiber_count = w->fibers.count,
        .big = w->big_stack.base,
        .big_size = w->big_stack.size,
    };
    fail_job(j, mosaic_cpu_fault_report(&w->guard, first, j->context, j->device, nd, group, w->together, &stacks));
    w->together = 1;
}

/* After group (or unit) c->next ran, stopped or was skipped: the next. */
static void group_ended(worker *w, job *j, claim *c)
{
    if (!j->fused_groups)
        next_group_coords(j->ndrange, c->coords);
    if (j->orders_groups) {
        if (j->stream_stores) /* the children may read what the group wrote */
            store_fence();
        mosaic_cpu_group_end(&w->running, c->next);
    }
    c->next++;
}

/* Runs the groups (or units) [first, end) of j's launch with the worker's
 * guard armed (cpu_faults.h).  A fault in kernel code, or the watchdog's
 * signal once the command has run too long, jumps back to the sigsetjmp
 * below, on this worker's stack, from a fiber's or the big stack too: the
 * group counts as ended, the command fails, and every worker skips what
 * is left of it.  What a jump leaves behind: the fibers' stacks, prepared
 * afresh for each group anyway; the floating-point environment, which
 * the handler ran with its default.  deadline: job_deadline's.  Not
 * inlined: the locals a jump back finds are this frame's, set before it. */
__attribute__((noinline)) static void run_claim(worker *w, job *j, claim *c, size_t first, size_t end,
                                                uint64_t deadline)
{
    cpu_guard *guard = &w->guard;
    bool late = deadline && mosaic_now_ns() >= deadline;
    c->next = first;
    if (sigsetjmp(guard->env, 0)) {
        fesetenv(&w->fenv);
        if (w->fibers.state)
            memset(w->fibers.state, FIBER_DONE, w->fibers.count);
        c->ctx[0].private_lo[1] = c->ctx[0].private_hi[1] = NULL; /* run_wg's, left set */
        stop_job(w, j, c, c->ctx[0].group_id);
        group_ended(w, j, c);
    }
    mosaic_cpu_guard_arm(guard, deadline);
    while (c->next < end) {
        if (atomic_load_explicit(&j->failed, memory_order_relaxed)) {
            /* skipped */
        } else if (late || (deadline && mosaic_cpu_guard_expired(guard))) {
            size_t g[3] = {c->coords[0], c->coords[1], c->coords[2]};
            if (j->fused_groups)
                unit_coords(j, c->next, g);
            uint64_t group[3] = {g[0], g[1], g[2]};
            guard->stop = CPU_STOP_TIMEOUT; /* (no jump: between groups) */
            stop_job(w, j, c, group);
        } else if (c->ctx_state <= 0) {
            fail_job(j, CL_OUT_OF_RESOURCES);
        } else if (j->fused_groups) {
            fail_job(j, run_unit(w, j, c->ctx, c->next, c->ctx_state == 1, c->args));
        } else if (j->shuffle[0]) {
            size_t g[3];
            group_coords(j->ndrange, (size_t)(((unsigned __int128)j->shuffle[0] * c->next + j->shuffle[1]) %
                                              j->total_groups), g);
            fail_job(j, run_group(w, j, c->ctx, g, c->args));
        } else {
            fail_job(j, run_group(w, j, c->ctx, c->coords, c->args));
        }
        group_ended(w, j, c);
    }
    mosaic_cpu_guard_disarm(guard);
}

/* Claims and runs work-groups (or parts) of `j` until none are left.  Once none are,
 * the worker counts itself in its pool's `searching` (it goes back to the list). */
static void work_on_kernel(worker *w, job *j, bool *searching)
{
    mosaic_ndrange *nd = j->ndrange;
    size_t done_here = 0;
    unsigned pushed = atomic_load_explicit(&w->pool->children_pushed, memory_order_relaxed);
    w->running.job = j;
    bool tracing = mosaic_tracing();
    mosaic_wg_ctx ctx[MOSAIC_MAX_FUSED_GROUPS];
    /* 0: not set up yet (nd is only sure to live while a claim holds groups), 1: ready, 2: ready for
     * one group at a time only (no memory for the arenas of a unit's groups), -1: no arena */
    int ctx_state = 0;
    void *const *args = NULL; /* set with the contexts */
    bool copies = false;      /* args point at this worker's copies of the counters */
    unsigned home = mosaic_cpu_home_of(j, w->index);
    uint64_t general_since = 0; /* when this worker began running the launch's groups with the general K.wg */
    for (;;) {
        /* MOSAIC_TRACE: read before the claim, this is the command's START
         * if the claim is the first; any other chunk's begin is read after
         * its claim and the flag that says so, so no chunk seems to begin
         * before its command. */
        uint64_t began = tracing ? mosaic_now_ns() : 0;
        /* Groups are claimed several at a time: with one claim per group,
         * small groups on many cores spend their time fighting over the
         * counter's cache line. */
        size_t first, claimed = mosaic_cpu_claim(j, home, &first);
        if (!claimed) {
            if (!atomic_load_explicit(&j->claimed_out, memory_order_relaxed) && !atomic_exchange(&j->claimed_out, true))
                take_off_list(w->pool, j);
            break; /* nd may be gone already: the command can complete any time now */
        }
        size_t end = first + claimed;
        if (!general_since)
            general_since = mosaic_now_ns();
        /* The first claim marks the command running, before its groups end
         * (the command cannot complete first).  Read before the exchange, so
         * the later claims (some 32 a worker and launch) do not each take
         * the job's line from the other workers. */
        if (!atomic_load_explicit(&j->started, memory_order_relaxed) && !atomic_exchange(&j->started, true)) {
            if (j->command)
                mosaic_command_running_at(j->command, began);
            else
                mosaic_cpu_job_running(j);
        } else if (tracing) {
            began = mosaic_now_ns();
        }
        if (j->run_part) {
            for (size_t g = first; g < end; g++)
                fail_job(j, j->run_part(j->command, g, j->total_groups));
        } else {
            if (ctx_state == 0) {
                ctx_state = group_ctx_init(w, j, ctx, j->fused_groups ? j->fused_groups : 1) ? 1
                            : j->fused_groups && group_ctx_init(w, j, ctx, 1)               ? 2
                                                                                             : -1;
                copies = mosaic_cpu_counters_pay(nd, w->pool->num_workers) &&
                         mosaic_cpu_counters_begin(&w->counters, nd);
                args = copies ? w->counters.args : nd->args;
            }
            claim c = {.ctx = ctx, .ctx_state = ctx_state, .args = args};
            group_coords(nd, first, c.coords);
            run_claim(w, j, &c, first, end, job_deadline(j));
        }
        if (tracing) /* before the groups count as done: the command is not complete yet */
            mosaic_trace_work(j->command ? j->command->trace_id : 0,
                              j->run_part ? j->command->command_type : CL_COMMAND_NDRANGE_KERNEL,
                              j->run_part ? NULL : nd->info->name, first, end, began, mosaic_now_ns());
        done_here += end - first;
        if (!j->run_part && nd->sized.pending && general_since != UINT64_MAX)
            general_since = hurry_size_build(nd, general_since);
        /* Children a kernel enqueued were put in front of the list: go to
         * them now (this job stays on the list while it has groups left),
         * so a child waiting for its work-group runs while the rest of
         * its parent does (docs/events.md, rule 13). */
        if (atomic_load_explicit(&w->pool->children_pushed, memory_order_relaxed) != pushed)
            break;
    }
    w->running.job = NULL;
    if (copies) /* nd lives: the groups this worker ran are not counted yet */
        mosaic_cpu_counters_fold(&w->counters, nd);
    if (j->stream_stores) /* before the groups count as done */
        store_fence();
    mosaic_cpu_printf_flush(); /* the groups' printf output, out before they count as done */
    atomic_fetch_add(&w->pool->searching, 1);
    *searching = true;
    /* The release order makes every work-group's writes visible to whoever
     * sees the final count: the completion edge of seed 001, rule 9. */
    if (done_here && atomic_fetch_add_explicit(&j->groups_done, done_here, memory_order_acq_rel) + done_here ==
                         j->total_groups)
        mosaic_cpu_job_groups_done(j); /* completes it, once its children have */
}

static void pool_free(cpu_pool *p);

/* A worker leaving its closed pool: its arena and fiber stacks go; the last
 * one out frees the pool. */
static void worker_exit(worker *w)
{
    cpu_pool *p = w->pool;
    job *handed = atomic_exchange(&w->mailbox, NULL);
    if (handed)
        job_release(handed);
    mosaic_cpu_guard_end(&w->guard);
    free(w->local_mem);
    mosaic_cpu_counters_free(&w->counters);
    mosaic_cpu_check_group_free(w->running.check);
    if (w->fibers.stacks)
        munmap(w->fibers.stacks, w->fibers.count * (w->fibers.stack_size + mosaic_cpu_page_size()));
    if (w->big_stack.base)
        munmap(w->big_stack.base, w->big_stack.size + mosaic_cpu_page_size());
    free(w->fibers.sp);
    free(w->fibers.state);
    free(w->fibers.site);
    pthread_mutex_lock(&p->lock);
    bool last = --p->alive == 0;
    pthread_mutex_unlock(&p->lock);
    if (last)
        pool_free(p);
}

/* What an idle worker spins on: the pool's count of submissions, and what
 * it was; and its mailbox. */
typedef struct spin_target {
    atomic_uint *count;
    unsigned seen;
    _Atomic(job *) *mailbox;
} spin_target;

static bool submitted_since(const void *arg)
{
    const spin_target *t = arg;
    return atomic_load_explicit(t->count, memory_order_relaxed) != t->seen ||
           atomic_load_explicit(t->mailbox, memory_order_relaxed) != NULL;
}

static bool locked(const void *arg) { return pthread_mutex_trylock((pthread_mutex_t *)arg) == 0; }

/* A worker done with a job, its mailbox empty: while the list is empty it
 * waits for its mailbox or a submission without the pool's lock, spinning
 * (MOSAIC_SPIN_US).  The sixteen workers of a launch that each took the
 * lock as they ended, one after another, held up the host's next
 * submission behind them (a 1M-float tree sum on the lent 16-core Xeon
 * took 62 us a launch on 16 workers and 39 on 8).  True: its mailbox holds
 * a job; false: look at the list. */
static bool wait_lock_free(cpu_pool *p, worker *w)
{
    /* A submission adds to queued, then to submitted: either the list's
     * count read here has it, or the count of submissions changes after
     * `seen` was read. */
    spin_target t = {&p->submitted, atomic_load(&p->submitted), &w->mailbox};
    if (atomic_load(&p->queued) != 0)
        return false;
    mosaic_spin_until(submitted_since, &t);
    return atomic_load_explicit(&w->mailbox, memory_order_relaxed) != NULL;
}

/* Idle workers sleep on the pool's count of submissions, not on a
 * condition variable: a worker woken from one takes the pool's lock before
 * it returns, so sixteen woken for a launch came back one after another
 * (20-60 us after the first, in a trace of a 1M-float reduce on the lent
 * machine); woken from the count, each goes to its mailbox at once.
 * Returns when the count is not `seen` (at once if it is not already). */
static void sleep_until_submitted(cpu_pool *p, unsigned seen)
{
    syscall(SYS_futex, (unsigned *)&p->submitted, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

/* After the count changed: wakes `count` sleeping workers (INT_MAX: all). */
static void wake_workers(cpu_pool *p, int count)
{
    syscall(SYS_futex, (unsigned *)&p->submitted, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

/* The pool's lock, for a worker that has just seen a command come or ended
 * one: tried while the worker would spin (MOSAIC_SPIN_US) before it sleeps
 * on it.  When a launch comes, every idle worker wants the lock at once;
 * the adaptive mutex lets each spin briefly and then sleep, and each unlock
 * wakes one sleeper.  On the lent Xeon's 16 workers the last joined a warm
 * launch of stream_triad a median 35 us after the first, 18 us with this
 * (`MOSAIC_TRACE`, ten launches each): 1% of that 2.8 ms launch, more of a
 * shorter one. */
static void lock_pool_soon(cpu_pool *p)
{
    if (!mosaic_spin_until(locked, &p->lock))
        pthread_mutex_lock(&p->lock);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    cpu_pool *p = w->pool;
    current_worker = w;
    w->together = 1;
    fegetenv(&w->fenv);
    mosaic_cpu_guard_start(&w->guard);
    /* A worker that finished a job is counted in p->searching from just
     * before it completes the command (which may submit the next one) until
     * it holds the list's lock again: cpu_submit wakes no sleeping worker for
     * a job that a searching one is bound to find. */
    bool searching = false;
    bool spun = false; /* since its last job: no second spin before it sleeps */
    if (mosaic_tracing()) {
        char name[64];
        if (p->number == 0)
            snprintf(name, sizeof name, "CPU worker %u", w->index);
        else
            snprintf(name, sizeof name, "CPU sub-device %u, worker %u", p->number, w->index);
        mosaic_trace_thread_name(name, (int)(1u << 24) + (int)(p->number % 4096) * 1024 + (int)(w->index % 1024));
    }
    for (;;) {
        /* A launch handed over: straight to its groups, without the lock
         * that sixteen workers would otherwise take one after another
         * (each 2-4 us under contention: the last joined some 50 us after
         * the first, and the early ones took the late ones' groups, whose
         * data was in the late ones' caches). */
        job *handed = atomic_exchange_explicit(&w->mailbox, NULL, memory_order_acquire);
        if (!handed && searching && !spun) { /* just done with a job */
            spun = true;
            if (wait_lock_free(p, w))
                continue;
        }
        /* Not when kernels have enqueued children since: they wait in
         * front of the list, which keeps its order (the job is on it too). */
        if (handed && atomic_load_explicit(&p->children_pushed, memory_order_relaxed) != handed->children_at_hand) {
            job_release(handed);
            handed = NULL;
        }
        if (handed) {
            if (searching) {
                atomic_fetch_sub(&p->searching, 1);
                searching = false;
            }
            spun = false;
            work_on_kernel(w, handed, &searching);
            job_release(handed);
            continue;
        }
        lock_pool_soon(p);
        if (searching) {
            atomic_fetch_sub(&p->searching, 1);
            searching = false;
        }
        if (!p->head && !p->closing && !spun) {
            /* Spin a little first: the next command of a host that enqueues
             * one after another comes within microseconds.  Meanwhile this
             * worker counts as searching (it looks at the list again before
             * it sleeps), so that command wakes no sleeping worker. */
            spin_target t = {&p->submitted, atomic_load(&p->submitted), &w->mailbox};
            atomic_fetch_add(&p->searching, 1);
            pthread_mutex_unlock(&p->lock);
            mosaic_spin_until(submitted_since, &t);
            if (atomic_load_explicit(&w->mailbox, memory_order_relaxed)) {
                atomic_fetch_sub(&p->searching, 1);
                continue;
            }
            lock_pool_soon(p);
            atomic_fetch_sub(&p->searching, 1);
        }
        bool handed_over = false;
        while (!p->head && !p->closing && !handed_over) {
            unsigned seen = atomic_load(&p->submitted); /* (a submission changes it under the lock) */
            pthread_mutex_unlock(&p->lock);
            sleep_until_submitted(p, seen);
            handed_over = atomic_load_explicit(&w->mailbox, memory_order_relaxed) != NULL;
            if (!handed_over)
                pthread_mutex_lock(&p->lock);
        }
        if (handed_over)
            continue;
        if (!p->head) { /* the device is gone, and its last command done */
            pthread_mutex_unlock(&p->lock);
            worker_exit(w);
            return NULL;
        }
        job *j = p->head;
        bool shared = j->ndrange || j->run_part; /* several workers claim its groups or parts */
        /* Whether its groups are all claimed is the flag the first worker to
         * find none sets, one line: sixteen workers joining a launch take this
         * lock one after another, and one that read every range's counter
         * here (cache lines the workers already running were writing) held
         * it 2-4 us, so the last joined some 50 us after the first. */
        bool exhausted = !shared || atomic_load_explicit(&j->claimed_out, memory_order_relaxed);
        /* A single-group launch is this worker's alone: off the list at
         * once, so it is not counted as waiting work (cpu_submit would wake
         * a worker for nothing). */
        bool last = !exhausted && j->total_groups <= 1;
        if (exhausted || last) { /* nothing more for others to claim: take it off the list */
            p->head = j->next;
            if (!p->head)
                p->tail = NULL;
            atomic_fetch_sub(&p->queued, 1);
        } else {
            atomic_fetch_add(&j->holds, 1);
        }
        /* what the mailbox holds is on the list too: taken from there, or
         * left for the list's order (a stale one would jump kernels' children) */
        job *stale = atomic_exchange_explicit(&w->mailbox, NULL, memory_order_relaxed);
        pthread_mutex_unlock(&p->lock);
        if (stale)
            job_release(stale);
        spun = false;

        if (!shared) {
            cl_event cmd = j->command;
            uint64_t began = cmd->trace_id ? mosaic_now_ns() : 0;
            mosaic_command_running_at(cmd, began);
            cl_int status = cmd->run(cmd);
            if (cmd->trace_id)
                mosaic_trace_work(cmd->trace_id, cmd->command_type, NULL, 0, 0, began, mosaic_now_ns());
            atomic_fetch_add(&p->searching, 1);
            searching = true;
            mosaic_command_complete(cmd, status);
            job_release(j);
        } else if (exhausted) {
            job_release(j); /* the list's hold */
        } else {
            work_on_kernel(w, j, &searching);
            job_release(j); /* this worker's hold, or the list's when it took the job off */
        }
    }
    return NULL;
}

/* ---- pools: creation and end ---------------------------------------------------- */

/* A pool over `count` compute units on the given CPUs (copied), whose
 * workers run on `cpus` (NULL: on the units' CPUs); not started. */
static cpu_pool *pool_new(const unsigned *unit_cpus, unsigned count, const cpu_set_t *cpus_or_null)
{
    cpu_pool *p = calloc(1, sizeof *p);
    unsigned *cpus = malloc((count ? count : 1) * sizeof *cpus);
    if (!p || !cpus) {
        free(p);
        free(cpus);
        return NULL;
    }
    static atomic_uint pools_made;
    p->number = atomic_fetch_add(&pools_made, 1);
    mosaic_mutex_init_spinning(&p->lock);
    memcpy(cpus, unit_cpus, count * sizeof *cpus);
    p->unit_cpus = cpus;
    p->num_units = count;
    CPU_ZERO(&p->cpus);
    if (cpus_or_null)
        p->cpus = *cpus_or_null;
    else
        for (unsigned i = 0; i < count; i++)
            if (cpus[i] < CPU_SETSIZE)
                CPU_SET(cpus[i], &p->cpus);
    pthread_mutex_lock(&pools_lock);
    p->next = all_pools;
    if (all_pools)
        all_pools->prev = p;
    all_pools = p;
    pthread_mutex_unlock(&pools_lock);
    return p;
}

/* Takes p off the list of all pools (pools_lock held, or in a forked child). */
static void pool_unlink(cpu_pool *p)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        all_pools = p->next;
    if (p->next)
        p->next->prev = p->prev;
}

static void pool_free(cpu_pool *p)
{
    pthread_mutex_lock(&pools_lock);
    pool_unlink(p);
    pthread_mutex_unlock(&pools_lock);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p->unit_cpus);
    free(p);
}

/* The device is gone, so no command of it is pending: its workers exit (one
 * of them may be the caller, completing the command that dropped the last
 * reference), and the last one out frees the pool. */
static void pool_close(cpu_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->closing = true;
    bool unused = p->alive == 0;
    atomic_fetch_add(&p->submitted, 1);
    wake_workers(p, INT_MAX);
    pthread_mutex_unlock(&p->lock);
    if (unused)
        pool_free(p);
}

/* ---- fork() ------------------------------------------------------------------
 * A child of fork() has only the thread that forked: none of the workers of
 * any pool.  Every pool's lock is held across the fork (after pools_lock), so
 * the child's copies are consistent, and the child starts a pool of its own at
 * each device's first command there.  Jobs queued at the fork were the
 * parent's to run: the child fails them (a command a worker was running at
 * that moment completes in the parent only, so the child must not wait for
 * it).  The pools of devices already gone are freed in the child. */
static void pool_before_fork(void)
{
    pthread_mutex_lock(&pools_lock);
    for (cpu_pool *p = all_pools; p; p = p->next)
        pthread_mutex_lock(&p->lock);
}

static void pool_after_fork_in_parent(void)
{
    for (cpu_pool *p = all_pools; p; p = p->next)
        pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&pools_lock);
}

static void pool_after_fork_in_child(void)
{
    pthread_mutex_init(&pools_lock, NULL);
    for (cpu_pool *p = all_pools, *next; p; p = next) {
        next = p->next;
        mosaic_mutex_init_spinning(&p->lock);
        if (p->head) { /* after the orphans of an earlier fork not yet failed */
            p->tail->next = p->orphans;
            p->orphans = p->head;
        }
        p->head = p->tail = NULL;
        atomic_store(&p->queued, 0);
        atomic_store(&p->searching, 0);
        atomic_store(&p->started, false);
        /* the old workers' arenas and stacks stay mapped: the child cannot tell which are in use */
        p->workers = NULL;
        p->num_workers = 0;
        p->alive = 0;
        if (p->closing && !p->orphans) {
            pool_unlink(p);
            free(p->unit_cpus);
            free(p);
        }
    }
}

static void register_fork_handlers(void)
{
    pthread_atfork(pool_before_fork, pool_after_fork_in_parent, pool_after_fork_in_child);
}

/* Under p->lock: starts the workers on the pool's CPUs (set before a thread
 * starts, so a worker never runs elsewhere, whatever the mask of the thread
 * that starts it; should the system refuse that mask, the worker gets the
 * starting thread's). */
static void start_pool(cpu_pool *p)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&p->lock));
    p->num_workers = p->num_units;
    /* (a worker's mailbox is a line of its own) */
    p->workers = aligned_alloc(_Alignof(worker), p->num_workers * sizeof *p->workers);
    if (p->workers)
        memset(p->workers, 0, p->num_workers * sizeof *p->workers);
    if (!p->workers) {
        p->num_workers = 0;
        return;
    }
    for (unsigned i = 0; i < p->num_workers; i++) {
        worker *w = &p->workers[i];
        w->index = i;
        w->pool = p;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, MOSAIC_CPU_WORKER_STACK);
        int err = EINVAL;
        if (CPU_COUNT(&p->cpus) > 0 && pthread_attr_setaffinity_np(&attr, sizeof p->cpus, &p->cpus) == 0) {
            err = pthread_create(&w->thread, &attr, worker_main, w);
            if (err != 0) {
                mosaic_debug(__func__, "cannot run a worker on its device's CPUs (error %d)", err);
                pthread_attr_destroy(&attr);
                pthread_attr_init(&attr);
                pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
                pthread_attr_setstacksize(&attr, MOSAIC_CPU_WORKER_STACK);
            }
        }
        if (err != 0)
            err = pthread_create(&w->thread, &attr, worker_main, w);
        pthread_attr_destroy(&attr);
        if (err != 0) {
            p->num_workers = i;
            break;
        }
        p->alive++;
    }
}

/* Starts the pool at the device's first command (of this process: a forked
 * child starts its own), and fails the jobs a fork left behind. */
static void ensure_pool(cpu_pool *p)
{
    if (atomic_load_explicit(&p->started, memory_order_acquire))
        return;
    /* with no lock held: fork() holds glibc's handler list lock while it takes ours */
    static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
    pthread_once(&fork_handlers_once, register_fork_handlers);
    mosaic_cpu_faults_start(); /* the handlers and the watchdog, before any worker runs a kernel */
    pthread_mutex_lock(&p->lock);
    job *orphans = p->orphans;
    p->orphans = NULL;
    if (!atomic_load_explicit(&p->started, memory_order_relaxed)) {
        start_pool(p);
        atomic_store_explicit(&p->started, true, memory_order_release);
    }
    pthread_mutex_unlock(&p->lock);
    while (orphans) { /* outside the lock: completion may submit more */
        job *j = orphans;
        orphans = j->next;
        if (j->command) /* a child a kernel enqueued: its host command was the parent process's */
            mosaic_command_complete(j->command, CL_OUT_OF_RESOURCES);
        job_free(j); /* no worker of this process holds it */
    }
}

/* Do the launch's stores of whole lines stream past the cache (compiler.h,
 * stream_stores)?  When its memory objects together are large
 * (mosaic_cpu_streams): what it writes would mostly not be in the cache
 * for the next command anyway, and reading each line before writing it
 * costs a quarter of a triad's bandwidth. */
static bool streams_stores(cl_device_id device, const mosaic_ndrange *nd)
{
    size_t bytes = 0;
    for (cl_uint i = 0; i < nd->num_mems; i++)
        bytes += nd->mems[i]->size;
    return mosaic_cpu_streams(device, bytes);
}

/* Whether nd's program enqueues kernels from kernels (it has block
 * kernels).  Its launches start their groups in linear order, from one
 * range: a group's children (CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP) may start
 * as soon as it ends, and with a range a worker, the second worker's first
 * group (group 8 of 16 on 2 workers) and a chain of its children could all
 * end before the first worker began group 0, which programs written for GPUs
 * (the CTS's device_execution enqueue_flags) take for granted. */
static bool enqueues_kernels(const mosaic_ndrange *nd)
{
    return mosaic_executable_block_kernel(nd->executable, MOSAIC_BLOCK_HANDLE(0)) != NULL;
}

/* Under p->lock: a launch (or a command in parts) that found the list
 * empty goes to every worker's mailbox too, with a hold for each, so the
 * idle ones spinning join it at once (worker_main).  Only then: a job
 * behind others, or a kernel's child (in front), keeps the list's order.
 * A job a mailbox still holds was already on the list, so replacing it
 * loses nothing. */
static void hand_to_workers(cpu_pool *p, job *j)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&p->lock) && (j->ndrange || j->run_part));
    atomic_fetch_add(&j->holds, (int)p->num_workers);
    j->children_at_hand = atomic_load_explicit(&p->children_pushed, memory_order_relaxed);
    for (unsigned i = 0; i < p->num_workers; i++) {
        job *old = atomic_exchange_explicit(&p->workers[i].mailbox, j, memory_order_release);
        if (old)
            job_release(old);
    }
}

static void cpu_submit(cl_device_id device, cl_event command)
{
    cpu_pool *p = device->impl;
    if (p)
        ensure_pool(p);
    mosaic_ndrange *nd = command->run ? NULL : command->payload;
    if (!p || p->num_workers == 0) {
        mosaic_command_complete(command, CL_OUT_OF_RESOURCES);
        return;
    }
    if (nd && nd->total_groups == 0) { /* an empty NDRange: nothing to run */
        mosaic_command_running(command);
        mosaic_command_complete(command, CL_COMPLETE);
        return;
    }
    job *j = mosaic_recycled_calloc(sizeof *j);
    if (!j) {
        mosaic_command_complete(command, CL_OUT_OF_HOST_MEMORY);
        return;
    }
    j->recycled = true;
    j->command = command;
    j->ndrange = nd;
    j->stream_stores = nd && streams_stores(device, nd);
    j->check = nd ? mosaic_cpu_check_launch(device, nd) : NULL;
    j->total_groups = nd ? nd->total_groups : 0;
    /* groups of a column run together (src/compiler/workgroup/coarsening.c) when a
     * column has enough of them: claims are then of units of that many (not
     * under checking: the checker follows one group of a worker at a time) */
    if (nd && nd->sized.fused && nd->num_groups[1] >= nd->sized.fused_groups && !j->check) {
        MOSAIC_ASSERT(nd->sized.fused_groups > 1);
        j->fused_groups = nd->sized.fused_groups;
        j->total_groups = nd->num_groups[0] * ((nd->num_groups[1] + j->fused_groups - 1) / j->fused_groups) *
                          nd->num_groups[2];
    }
    if (!nd)
        j->run_part = mosaic_cpu_command_parts(command, p->num_workers, &j->total_groups);
    if (nd && mosaic_settings()->check_shuffle && !j->fused_groups && !enqueues_kernels(nd))
        mosaic_cpu_check_shuffle(mosaic_settings()->check_shuffle, j->total_groups, j->shuffle);
    j->context = command->queue->context;
    j->device = device;
    atomic_init(&j->outstanding, 1);
    if (nd && enqueues_kernels(nd))
        mosaic_cpu_order_groups(j);
    mosaic_cpu_set_claims(j, p->num_workers, j->orders_groups ? 1 : MOSAIC_CPU_HOMES);
    /* a kernel's job lives until it completes (its children), as one in parts does */
    atomic_init(&j->holds, nd || j->run_part ? 2 : 1);
    atomic_init(&j->status, CL_COMPLETE);
    pthread_mutex_lock(&p->lock);
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    atomic_fetch_add(&p->queued, 1);
    if (p->head == j && j->total_groups > 1)
        hand_to_workers(p, j);
    atomic_fetch_add(&p->submitted, 1); /* after queued: wait_lock_free */
    if (j->total_groups > 1)
        wake_workers(p, INT_MAX); /* work-groups or parts for everyone */
    else if (atomic_load(&p->searching) < atomic_load_explicit(&p->queued, memory_order_relaxed))
        wake_workers(p, 1); /* the searching workers cannot take them all */
    pthread_mutex_unlock(&p->lock);
}

/* A job a kernel enqueued, ready to run: in front of the list (depth
 * first: its work-groups before more of its parent's). */
void mosaic_cpu_push_child(cl_device_id device, cpu_job *j)
{
    cpu_pool *p = device->impl;
    ensure_pool(p);
    mosaic_cpu_order_groups(j); /* (its program enqueues kernels) */
    mosaic_cpu_set_claims(j, p->num_workers, 1);
    pthread_mutex_lock(&p->lock);
    j->next = p->head;
    p->head = j;
    if (!p->tail)
        p->tail = j;
    atomic_fetch_add(&p->queued, 1);
    atomic_fetch_add(&p->submitted, 1); /* after queued: wait_lock_free */
    atomic_fetch_add_explicit(&p->children_pushed, 1, memory_order_relaxed);
    if (j->total_groups > 1)
        wake_workers(p, INT_MAX);
    else if (atomic_load(&p->searching) < atomic_load_explicit(&p->queued, memory_order_relaxed))
        wake_workers(p, 1);
    pthread_mutex_unlock(&p->lock);
}

unsigned mosaic_cpu_pool_workers(cl_device_id device)
{
    const cpu_pool *p = device->impl;
    return p && p->num_workers ? p->num_workers : 1;
}

/* ---- devices (cpu.h) ------------------------------------------------------------ */

cl_int mosaic_cpu_init_root(cl_device_id device)
{
    /* the CPUs this process may use, ascending */
    unsigned allowed[CPU_SETSIZE], ncpus = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (unsigned c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                allowed[ncpus++] = c;
    if (ncpus == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (ncpus = 0; ncpus < (n > 0 ? (unsigned)n : 1) && ncpus < CPU_SETSIZE; ncpus++) {
            allowed[ncpus] = ncpus;
            CPU_SET(ncpus, &set);
        }
    }
    /* one unit per CPU; when MOSAIC_NUM_THREADS asks for another count, the
     * units spread evenly over the CPUs (neighbours share a CPU) */
    unsigned n = device->compute_units ? device->compute_units : 1;
    unsigned *units = malloc(n * sizeof *units);
    if (!units)
        return CL_OUT_OF_HOST_MEMORY;
    for (unsigned i = 0; i < n; i++)
        units[i] = allowed[(size_t)i * ncpus / n];
    cpu_pool *p = pool_new(units, n, &set);
    free(units);
    if (!p)
        return CL_OUT_OF_HOST_MEMORY;
    device->compute_units = n;
    device->impl = p;
    return CL_SUCCESS;
}

cl_int mosaic_cpu_init_sub_device(cl_device_id sub, cl_device_id parent, const cl_uint *units, cl_uint count)
{
    const cpu_pool *parent_pool = parent->impl;
    unsigned *cpus = malloc((count ? count : 1) * sizeof *cpus);
    if (!cpus || !parent_pool) {
        free(cpus);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (cl_uint i = 0; i < count; i++)
        cpus[i] = parent_pool->unit_cpus[units[i]];
    cpu_pool *p = pool_new(cpus, count, NULL);
    free(cpus);
    if (!p)
        return CL_OUT_OF_HOST_MEMORY;
    sub->compute_units = count;
    sub->impl = p;
    return CL_SUCCESS;
}

void mosaic_cpu_release_executor(cl_device_id device)
{
    if (device->impl)
        pool_close(device->impl);
    device->impl = NULL;
}

const unsigned *mosaic_cpu_unit_cpus(cl_device_id device)
{
    const cpu_pool *p = device->impl;
    return p ? p->unit_cpus : NULL; /* NULL: the root's executor could not be made */
}

long mosaic_cpu_unit_domain_key(cl_device_id device, cl_uint unit, cl_device_affinity_domain domain)
{
    const unsigned *cpus = mosaic_cpu_unit_cpus(device);
    return cpus && unit < device->compute_units ? mosaic_cpu_domain_key(cpus[unit], domain) : -1;
}

/* Every op of core/device.h; memory ops in cpu_memory.c.  Maps, unmaps and
 * migrations (of buffers and of SVM) move nothing on the CPU: their ops are
 * NULL, so those commands are synchronisation points only. */
/* (the executable does not matter: a kernel's private memory is in its info) */
static size_t cpu_work_group_limit(cl_device_id device, const mosaic_executable *exe, const mosaic_kernel_info *kernel)
{
    (void)exe;
    return mosaic_cpu_kernel_work_group_limit(device, kernel);
}

const mosaic_device_ops mosaic_cpu_ops = {
    .describe = mosaic_cpu_describe,
    .compile = mosaic_target_compile,
    .link = mosaic_target_link,
    .check_binary = mosaic_target_check_binary,
    .check_il = mosaic_target_check_il,
    .finalize = mosaic_cpu_finalize,
    .kernel_work_group_limit = cpu_work_group_limit,
    .kernel_preferred_multiple = mosaic_cpu_preferred_work_group_multiple,
    .choose_local_size = mosaic_cpu_choose_local_size,
    .prepare_launch = mosaic_cpu_prepare_launch,
    .mem_alloc = mosaic_cpu_mem_alloc,
    .mem_free = mosaic_cpu_mem_free,
    .map_address = mosaic_cpu_map_address,
    .svm_alloc = mosaic_cpu_svm_alloc,
    .svm_free = mosaic_cpu_svm_free,
    .unit_domain_key = mosaic_cpu_unit_domain_key,
    .init_sub_device = mosaic_cpu_init_sub_device,
    .release_sub_device = mosaic_cpu_release_executor,
    .submit = cpu_submit,
    .read = mosaic_cpu_transfer,
    .write = mosaic_cpu_transfer,
    .copy = mosaic_cpu_transfer,
    .fill = mosaic_cpu_fill,
    .fill_rect = mosaic_cpu_fill_rect,
    .native_kernel = mosaic_cpu_native_kernel,
    .svm_copy = mosaic_host_svm_copy,
    .svm_fill = mosaic_host_svm_fill,
};

const struct mosaic_runtime_symbol mosaic_cpu_runtime_symbols[] = {
    { "__mosaic_barrier", (void *)cpu_barrier },
    { "__mosaic_sub_group_barrier", (void *)cpu_sub_group_barrier },
    { "__mosaic_sub_group_active", (void *)cpu_sub_group_active },
    { "__mosaic_barrier_divergence", (void *)cpu_barrier_divergence },
    { "__mosaic_yield", (void *)cpu_yield },
    { "__mosaic_kernel_clock", (void *)cpu_kernel_clock },
    { "__mosaic_printf", (void *)mosaic_cpu_printf },
    /* checking mode (cpu_check.c) */
    { "__mosaic_check_access", (void *)mosaic_cpu_check_access },
    { "__mosaic_check_row", (void *)mosaic_cpu_check_row },
    { "__mosaic_check_barrier", (void *)mosaic_cpu_check_barrier },
    { "__mosaic_check_barrier_row", (void *)mosaic_cpu_check_barrier_row },
    { "__mosaic_check_sub_group_barrier", (void *)mosaic_cpu_check_sub_group_barrier },
    /* half conversions the code generator calls by libgcc's names (cpu_half.c) */
    { "__truncdfhf2", (void *)mosaic_cpu_truncdfhf2 },
    { "__truncsfhf2", (void *)mosaic_cpu_truncsfhf2 },
    { "__extendhfsf2", (void *)mosaic_cpu_extendhfsf2 },
    { "__extendhfdf2", (void *)mosaic_cpu_extendhfdf2 },
    /* pipes (cpu_pipe.c): what clang calls for the pipe built-ins */
    { "__read_pipe_2", (void *)mosaic_cpu_pipe_read },
    { "__write_pipe_2", (void *)mosaic_cpu_pipe_write },
    { "__read_pipe_4", (void *)mosaic_cpu_pipe_read_reserved },
    { "__write_pipe_4", (void *)mosaic_cpu_pipe_write_reserved },
    { "__reserve_read_pipe", (void *)mosaic_cpu_pipe_reserve_read },
    { "__reserve_write_pipe", (void *)mosaic_cpu_pipe_reserve_write },
    { "__commit_read_pipe", (void *)mosaic_cpu_pipe_commit_read },
    { "__commit_write_pipe", (void *)mosaic_cpu_pipe_commit_write },
    { "__get_pipe_num_packets_ro", (void *)mosaic_cpu_pipe_num_packets },
    { "__get_pipe_num_packets_wo", (void *)mosaic_cpu_pipe_num_packets },
    { "__get_pipe_max_packets_ro", (void *)mosaic_cpu_pipe_max_packets },
    { "__get_pipe_max_packets_wo", (void *)mosaic_cpu_pipe_max_packets },
    /* device-side enqueue (cpu_enqueue.c, builtins/enqueue.cl) */
    { "__mosaic_enqueue_kernel", (void *)mosaic_cpu_enqueue_kernel },
    { "__mosaic_enqueue_marker", (void *)mosaic_cpu_enqueue_marker },
    { "__mosaic_get_default_queue", (void *)mosaic_cpu_get_default_queue },
    { "__mosaic_retain_event", (void *)mosaic_cpu_retain_event },
    { "__mosaic_release_event", (void *)mosaic_cpu_release_event },
    { "__mosaic_create_user_event", (void *)mosaic_cpu_create_user_event },
    { "__mosaic_set_user_event_status", (void *)mosaic_cpu_set_user_event_status },
    { "__mosaic_is_valid_event", (void *)mosaic_cpu_is_valid_event },
    { "__mosaic_capture_event_profiling_info", (void *)mosaic_cpu_capture_event_profiling_info },
    { "__mosaic_kernel_work_group_size", (void *)mosaic_cpu_kernel_work_group_size },
    { "__mosaic_kernel_preferred_multiple", (void *)mosaic_cpu_kernel_preferred_multiple },
    { "__mosaic_kernel_sub_group_count", (void *)mosaic_cpu_kernel_sub_group_count },
    { "__mosaic_kernel_max_sub_group_size", (void *)mosaic_cpu_kernel_max_sub_group_size },
};
const size_t mosaic_cpu_num_runtime_symbols = sizeof mosaic_cpu_runtime_symbols / sizeof mosaic_cpu_runtime_symbols[0];
