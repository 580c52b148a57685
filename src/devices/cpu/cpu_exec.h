/* What the CPU device's executor (cpu_device.c) and its device-side enqueue
 * (cpu_enqueue.c) share: the job a worker pool runs, and what a worker is
 * running.  docs/events.md ("Device-side enqueue") describes the scheme. */
#ifndef MOSAIC_CPU_EXEC_H
#define MOSAIC_CPU_EXEC_H

#include "base/assert.h"
#include "core/ndrange.h"
#include "core/objects.h"

#include <stdatomic.h>

struct cpu_event;

/* A kernel's work-groups are dealt out in ranges, one per worker (its
 * "home"), that each worker claims from first and others only once theirs
 * is done.  So a worker runs the same groups at every launch of the same
 * NDRange and finds their data in its own caches: the runner's tree sum
 * over 16 MiB that fits in the 16 cores' L2 caches, run from one shared
 * counter, took 2.8 times its OpenMP twin's time (whose static schedule
 * gives each thread the same part every time) where one thread alone was
 * as fast as the twin.  Pools of more workers than MOSAIC_CPU_HOMES share
 * homes.  Each counter has a cache line of its own. */
#define MOSAIC_CPU_HOMES 16
typedef struct cpu_home {
    atomic_size_t next;          /* the range's next group to claim */
    size_t end;                  /* one past its last */
    char pad[64 - sizeof(atomic_size_t) - sizeof(size_t)];
} cpu_home;

/* A waiter: a job that waits for a device event (one per event of its wait list). */
typedef struct cpu_waiter {
    struct cpu_waiter *next;
    struct cpu_job *job;
} cpu_waiter;

/* One command a pool runs: a host command (`command`), or a command a
 * kernel enqueued (`parent` set): a kernel launch, or a marker (no ndrange).
 * A kernel's work-groups, or a large transfer's parts (`run_part`), are
 * claimed by any worker; other commands run once, on one. */
typedef struct cpu_job {
    struct cpu_job *next;        /* in the pool's list */
    cl_event command;            /* the host command; NULL for one a kernel enqueued */
    mosaic_ndrange *ndrange;     /* NULL for a simple command or a marker; freed at completion */
    cl_int (*run_part)(cl_event command, size_t part, size_t parts); /* a host command in parts, or NULL */
    size_t total_groups;         /* work-groups, units of fused_groups, or parts; copied: readable after
                                    the command completed */
    unsigned fused_groups;       /* >1: its groups are claimed by units of this many groups of one
                                    column, run by ndrange->sized.fused when whole (cpu_device.c) */
    size_t chunk;                /* work-groups claimed at a time while many are left */
    size_t split;                /* a claim takes at most what is left of its range / split */
    unsigned workers;            /* of the pool: worker i's home is i * homes / workers */
    unsigned homes;              /* ranges the groups are dealt out in, 1 to MOSAIC_CPU_HOMES */
    cpu_home home[MOSAIC_CPU_HOMES];
    atomic_bool started;         /* some group (or part) was claimed: the command is running */
    atomic_bool claimed_out;     /* a worker found none left to claim: the job may leave the list */
    atomic_size_t groups_done;
    atomic_int holds;            /* the list's + one per worker inside + one until complete */
    unsigned children_at_hand;   /* the pool's children_pushed when it went to the mailboxes (cpu_device.c) */
    atomic_int status;           /* first failure, or CL_COMPLETE */
    atomic_bool failed;          /* a group faulted or ran past the deadline: the groups left are
                                    skipped (cpu_device.c, run_claim; docs/faults.md) */
    _Atomic uint64_t deadline;   /* mosaic_now_ns() past which it has run too long (MOSAIC_KERNEL_TIMEOUT_MS,
                                    from its first claim); 0: not set */
    bool recycled;               /* a host command's (core/recycle.h); one a kernel enqueued is aligned_alloc's */
    bool stream_stores;          /* its groups' ctx->stream_stores (compiler.h): fence after them */
    struct cpu_check_launch *check; /* checking mode: the launch's shadow (cpu_check.h), or NULL */
    uint64_t shuffle[3];         /* MOSAIC_CHECK_SHUFFLE: the group run as the i-th is group
                                    (shuffle[0] * i + shuffle[1]) % total_groups ({0, 0}: the i-th);
                                    shuffle[2]: the seed of each group's order of sub-groups (0: none;
                                    its work-items then run as fibers) */
    /* Device-side enqueue (cpu_enqueue.c). */
    cl_context context;          /* where get_default_queue looks */
    cl_device_id device;
    atomic_size_t outstanding;   /* 1 until every work-group ran, + 1 per child not complete */
    struct cpu_job *kernel_waiters; /* children started with WAIT_KERNEL, waiting for the work-groups
                                       (under the enqueue lock; linked by next_waiter) */
    /* A launch whose program enqueues kernels (`orders_groups`) counts its
     * groups' ends in order: a child started with WAIT_WORK_GROUP waits,
     * besides its group, for every group below it (cpu_enqueue.c). */
    bool orders_groups;          /* every group's end goes to mosaic_cpu_group_end */
    unsigned char *groups_ended; /* a bit per group (atomic ORs), or NULL: no memory for them */
    atomic_size_t ended_below;   /* every group below it ended */
    _Atomic(struct cpu_job *) held; /* children whose group ended, waiting for the groups below it
                                       (changed under the enqueue lock; linked by next_waiter) */
    size_t parent_group;         /* a child in its parent's `held`: the group that enqueued it */
    /* A command a kernel enqueued: */
    struct cpu_job *parent;      /* its parent's job: completes after this one */
    cl_command_queue queue;      /* the device queue (internal reference) */
    size_t queue_bytes;          /* of queue->size, given back at completion */
    atomic_int unmet;            /* start conditions not met yet (flag, events), +1 while enqueuing */
    atomic_bool dependency_failed; /* an event it waited for failed: it does not run */
    struct cpu_job *next_waiter; /* in kernel_waiters or a worker's group_waiters */
    struct cpu_event *event;     /* its event (held until completion), or NULL */
    cpu_waiter *waiters;         /* one per event of its wait list */
    cl_uint num_waiters;
} cpu_job;

/* How many work-groups (or parts) one claim of a range takes when `left`
 * (at least 1) are left in it: `chunk` while many are, then a `split`th of
 * what is left, but never fewer than an eighth of a chunk (nor more than
 * are left).  So the last claims shrink and the workers run out within a
 * small claim of one another, not a whole chunk: with chunks to the end, a
 * STREAM row's 16 workers on the lent Xeon ended 45-100 us apart.  The
 * floor keeps a launch of many tiny groups (the runner's tree sum: 131,072
 * groups of 0.2 us) from ending in a storm of one-group claims on one
 * counter.  mosaic_cpu_set_claims picks chunk and split. */
static inline size_t mosaic_cpu_claim_size(size_t left, size_t chunk, size_t split)
{
    MOSAIC_ASSERT(left > 0 && chunk > 0 && split > 0);
    size_t least = chunk / 8 ? chunk / 8 : 1, n = left / split;
    if (n > chunk)
        n = chunk;
    if (n < least)
        n = least;
    return n < left ? n : left;
}

/* How j's groups (j->total_groups set) are claimed by `workers`: a range
 * each (cpu_home), at most `most_homes` ranges, in chunks of about a 32nd of
 * it, few enough claims to keep the counters cold, enough to balance groups
 * of uneven cost; the last claims of a range smaller (mosaic_cpu_claim_size).
 * With one range the groups start in their linear order. */
static inline void mosaic_cpu_set_claims(cpu_job *j, unsigned workers, unsigned most_homes)
{
    MOSAIC_ASSERT(most_homes >= 1 && most_homes <= MOSAIC_CPU_HOMES);
    size_t w = workers ? workers : 1, g = j->total_groups;
    j->workers = (unsigned)w;
    j->homes = (unsigned)(w < most_homes ? w : most_homes);
    if (j->homes > g)
        j->homes = g ? (unsigned)g : 1;
    for (unsigned h = 0; h < j->homes; h++) {
        atomic_init(&j->home[h].next, g * h / j->homes);
        j->home[h].end = g * (h + 1) / j->homes;
    }
    atomic_init(&j->started, false);
    atomic_init(&j->claimed_out, false);
    j->chunk = g / (w * 32);
    if (j->chunk == 0)
        j->chunk = 1;
    j->split = 4;
}

/* Claims the next work-groups (or parts) of j from the range of `home`,
 * or once it has none, from the others' in turn; as many as
 * mosaic_cpu_claim_size allows for what is left of the range.  Returns how
 * many, from *first; 0 when none are left. */
static inline size_t mosaic_cpu_claim(cpu_job *j, unsigned home, size_t *first)
{
    MOSAIC_ASSERT(home < j->homes);
    for (unsigned t = 0; t < j->homes; t++) {
        cpu_home *h = &j->home[(home + t) % j->homes];
        size_t next = atomic_load_explicit(&h->next, memory_order_relaxed);
        while (next < h->end) {
            size_t n = mosaic_cpu_claim_size(h->end - next, j->chunk, j->split);
            if (atomic_compare_exchange_weak_explicit(&h->next, &next, next + n, memory_order_relaxed,
                                                      memory_order_relaxed)) {
                *first = next;
                return n;
            }
        }
    }
    return 0;
}

/* The home of worker `index` of the pool. */
static inline unsigned mosaic_cpu_home_of(const cpu_job *j, unsigned index)
{
    return (unsigned)((size_t)index * j->homes / j->workers);
}

/* What a worker is running (reached from ctx->device_private). */
typedef struct cpu_running {
    cpu_job *job;
    struct cpu_check_group *check; /* checking mode: the worker's group state (cpu_check.h) */
    cpu_job *group_waiters;      /* children started with WAIT_WORK_GROUP by the group now running */
} cpu_running;

/* ---- cpu_device.c ---- */
cpu_running *mosaic_cpu_running(const mosaic_wg_ctx *ctx);
/* Queues a ready job that a kernel enqueued on `device`'s pool, in front of
 * the host's jobs: a worker that ends a work-group turns to it first. */
void mosaic_cpu_push_child(cl_device_id device, cpu_job *j);
void mosaic_cpu_job_release(cpu_job *j);
unsigned mosaic_cpu_pool_workers(cl_device_id device);

/* ---- cpu_enqueue.c ---- */
/* j will run its groups in order of their children (orders_groups): its
 * bits, made before any group runs. */
void mosaic_cpu_order_groups(cpu_job *j);
/* Work-group `group` of r->job (one whose orders_groups is set) ended: the
 * children it enqueued with WAIT_WORK_GROUP may start once every group
 * below it has ended too. */
void mosaic_cpu_group_end(cpu_running *r, size_t group);
/* The first work-group of a job started. */
void mosaic_cpu_job_running(cpu_job *j);
/* Every work-group of a job ran (its status is final): WAIT_KERNEL children
 * may start, and the job completes once its children have. */
void mosaic_cpu_job_groups_done(cpu_job *j);

/* The runtime functions builtins/enqueue.cl calls (named there __mosaic_*). */
int mosaic_cpu_enqueue_kernel(const mosaic_wg_ctx *ctx, cl_command_queue queue, int flags, const void *ndrange,
                              cl_uint num_events, void *const *wait_list, void **event_ret, const void *kernel,
                              const void *block, cl_uint num_locals, const size_t *local_sizes);
int mosaic_cpu_enqueue_marker(const mosaic_wg_ctx *ctx, cl_command_queue queue, cl_uint num_events,
                              void *const *wait_list, void **event_ret);
cl_command_queue mosaic_cpu_get_default_queue(const mosaic_wg_ctx *ctx);
void mosaic_cpu_retain_event(void *event);
void mosaic_cpu_release_event(void *event);
void *mosaic_cpu_create_user_event(const mosaic_wg_ctx *ctx);
void mosaic_cpu_set_user_event_status(void *event, int status);
int mosaic_cpu_is_valid_event(void *event);
void mosaic_cpu_capture_event_profiling_info(void *event, int name, void *value);
cl_uint mosaic_cpu_kernel_work_group_size(const mosaic_wg_ctx *ctx, const void *kernel);
cl_uint mosaic_cpu_kernel_preferred_multiple(const mosaic_wg_ctx *ctx, const void *kernel);
/* get_kernel_sub_group_count_for_ndrange, get_kernel_max_sub_group_size_for_ndrange:
 * 0 for an ndrange the block could not be launched over. */
cl_uint mosaic_cpu_kernel_sub_group_count(const mosaic_wg_ctx *ctx, const void *ndrange, const void *kernel);
cl_uint mosaic_cpu_kernel_max_sub_group_size(const mosaic_wg_ctx *ctx, const void *ndrange, const void *kernel);

#endif
