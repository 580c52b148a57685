/*
 * Device-side enqueue on the CPU device: the runtime functions behind
 * enqueue_kernel, enqueue_marker, get_default_queue and the device events
 * (clk_event_t) of OpenCL C, called by builtins/enqueue.cl.
 *
 * A command a kernel enqueues (a child) is a cpu_job like a host kernel's,
 * with a parent.  Every job counts its outstanding work (`outstanding`: 1
 * until its last work-group ends, plus one per child not complete), and
 * completes when that reaches 0: a host command then completes to the
 * engine, a child completes its event, gives back its bytes of the device
 * queue and counts itself done in its parent.  So a parent completes only
 * after its children, and theirs.
 *
 * A child starts when its conditions are met (`unmet` reaches 0): the flag
 * (WAIT_KERNEL: its parent's last work-group ended; WAIT_WORK_GROUP: the
 * work-group that enqueued it ended; NO_WAIT: none) and each event of its
 * wait list.  Then it goes in front of its pool's list; no worker ever waits
 * for a condition.  docs/events.md, "Device-side enqueue", says more.
 */
#include "devices/cpu/cpu_exec.h"
#include "devices/cpu/cpu.h"
#include "core/engine.h"
#include "core/util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* OpenCL C's codes and flags (opencl-c-base.h) */
#define CLK_SUCCESS 0
#define CLK_ENQUEUE_FAILURE (-101)
#define CLK_INVALID_QUEUE (-102)
#define CLK_INVALID_NDRANGE (-160)
#define CLK_INVALID_EVENT_WAIT_LIST (-57)
#define CLK_DEVICE_QUEUE_FULL (-161)
#define CLK_INVALID_ARG_SIZE (-51)
#define CLK_EVENT_ALLOCATION_FAILURE (-100)
#define CLK_OUT_OF_RESOURCES (-5)
#define CLK_NULL_EVENT ((void *)SIZE_MAX)
#define CLK_ENQUEUE_FLAGS_WAIT_KERNEL 1
#define CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP 2
#define CLK_PROFILING_COMMAND_EXEC_TIME 1

/* What each command takes of its device queue's CL_QUEUE_SIZE, besides its
 * block literal. */
#define QUEUE_ENTRY_BYTES 128

/* ndrange_t as OpenCL C lays it out */
typedef struct cl_ndrange {
    uint32_t dims;
    size_t offset[3], global[3], local[3];
} cl_ndrange;

/* A profiling capture waiting for its event (capture_event_profiling_info
 * before the command completed). */
typedef struct capture {
    struct capture *next;
    uint64_t *value;
} capture;

/* A clk_event_t. */
typedef struct cpu_event {
    bool user;                 /* create_user_event */
    /* under enqueue_lock: */
    unsigned refs;             /* the kernels' (retain_event, release_event) + its command's until complete */
    uint64_t handle;           /* what kernels hold for it (below) */
    int status;                /* CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or negative */
    cpu_waiter *waiters;
    capture *captures;
    uint64_t start, end, complete; /* profiling, mosaic_now_ns() */
} cpu_event;

/* Guards every event's refs, status, waiters and captures, the event
 * table, and every job's kernel_waiters: a leaf (docs/architecture.md,
 * "Locks"). */
static pthread_mutex_t enqueue_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- events ----------------------------------------------------------------------
 * A kernel's clk_event_t is a handle, never a pointer: kernels pass events in
 * their own memory, and a wrong one (an uninitialised variable, a value read
 * from a buffer, NULL) must give CLK_INVALID_EVENT_WAIT_LIST rather than be
 * read.  A handle names a slot of one table and the slot's generation, which
 * changes when its event goes, so a released event's handle is no longer
 * valid; a fixed tag in the top bits keeps pointers, small integers and
 * fill patterns from ever naming a slot.  Handles are looked up under
 * enqueue_lock, and an event leaves the table under it before it is freed. */

#define HANDLE_TAG 0xc1e7000000000000ull      /* bits 48..63 */
#define HANDLE_TAG_MASK 0xffff000000000000ull
#define HANDLE_GENERATION_SHIFT 16            /* bits 16..47: the slot's generation */
#define HANDLE_SLOT_MASK 0xffffull             /* bits 0..15: the slot + 1 */
_Static_assert(MOSAIC_CPU_MAX_DEVICE_EVENTS < HANDLE_SLOT_MASK, "a slot's number fits its bits");

static struct event_slot {
    cpu_event *event; /* NULL: free */
    uint32_t generation;
} slots[MOSAIC_CPU_MAX_DEVICE_EVENTS];
static uint32_t free_slots[MOSAIC_CPU_MAX_DEVICE_EVENTS]; /* a stack of the freed slots */
static uint32_t num_free, num_fresh, live_events;          /* num_fresh: slots never used yet */

/* The event `handle` names, or NULL.  enqueue_lock held. */
static cpu_event *event_of(const void *handle)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&enqueue_lock));
    uint64_t h = (uint64_t)(uintptr_t)handle, slot = (h & HANDLE_SLOT_MASK) - 1;
    if ((h & HANDLE_TAG_MASK) != HANDLE_TAG || slot >= num_fresh)
        return NULL;
    const struct event_slot *s = &slots[slot];
    return s->event && s->event->handle == h ? s->event : NULL;
}

static void *handle_of(const cpu_event *ev)
{
    return (void *)(uintptr_t)ev->handle;
}

/* A new event with one reference, in a slot of the table; NULL when the
 * device has max_on_device_events or memory ran out. */
static cpu_event *event_new(cl_device_id device, bool user)
{
    cpu_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->user = user;
    ev->refs = 1;
    ev->status = CL_SUBMITTED;
    pthread_mutex_lock(&enqueue_lock);
    uint32_t slot = UINT32_MAX;
    if (live_events < device->max_on_device_events) {
        if (num_free)
            slot = free_slots[--num_free];
        else if (num_fresh < MOSAIC_CPU_MAX_DEVICE_EVENTS)
            slot = num_fresh++;
    }
    if (slot != UINT32_MAX) {
        live_events++;
        slots[slot].event = ev;
        ev->handle = HANDLE_TAG | (uint64_t)slots[slot].generation << HANDLE_GENERATION_SHIFT | (slot + 1);
    }
    pthread_mutex_unlock(&enqueue_lock);
    if (slot == UINT32_MAX) {
        free(ev);
        return NULL;
    }
    return ev;
}

/* Drops a reference (enqueue_lock held); the last takes the event out of
 * the table, so that its handle names nothing, and returns true: the
 * caller then frees it (event_free) without the lock. */
static bool event_unref(cpu_event *ev)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&enqueue_lock));
    MOSAIC_ASSERT(ev->refs > 0);
    if (--ev->refs)
        return false;
    uint32_t slot = (uint32_t)(ev->handle & HANDLE_SLOT_MASK) - 1;
    slots[slot].event = NULL;
    slots[slot].generation++;
    free_slots[num_free++] = slot;
    live_events--;
    return true;
}

static void event_free(cpu_event *ev)
{
    while (ev->captures) { /* never completed: nothing to write */
        capture *c = ev->captures;
        ev->captures = c->next;
        free(c);
    }
    free(ev);
}

/* Drops a reference the caller holds. */
static void event_release(cpu_event *ev)
{
    pthread_mutex_lock(&enqueue_lock);
    bool last = event_unref(ev);
    pthread_mutex_unlock(&enqueue_lock);
    if (last)
        event_free(ev);
}

/* The event `handle` names with a reference taken (event_release drops
 * it), or NULL. */
static cpu_event *event_get(const void *handle)
{
    pthread_mutex_lock(&enqueue_lock);
    cpu_event *ev = event_of(handle);
    if (ev)
        ev->refs++;
    pthread_mutex_unlock(&enqueue_lock);
    return ev;
}

static void job_unmet_done(cpu_job *j);

static void write_profile(const cpu_event *ev, uint64_t *value)
{
    value[0] = ev->end - ev->start;      /* CL_PROFILING_COMMAND_END - _START */
    value[1] = ev->complete - ev->start; /* CL_PROFILING_COMMAND_COMPLETE - _START (children included) */
}

/* The event's command completed (status CL_COMPLETE) or failed: what waits
 * for it may start. */
static void event_complete(cpu_event *ev, int status)
{
    pthread_mutex_lock(&enqueue_lock);
    if (ev->status <= CL_COMPLETE) { /* a user event is set once */
        pthread_mutex_unlock(&enqueue_lock);
        return;
    }
    ev->status = status < 0 ? status : CL_COMPLETE;
    cpu_waiter *w = ev->waiters;
    capture *c = ev->captures;
    ev->waiters = NULL;
    ev->captures = NULL;
    pthread_mutex_unlock(&enqueue_lock);
    while (c) {
        capture *next = c->next;
        if (status == CL_COMPLETE)
            write_profile(ev, c->value);
        free(c);
        c = next;
    }
    while (w) {
        cpu_waiter *next = w->next; /* w lives in its job, which may start and end now */
        if (status < 0)
            atomic_store(&w->job->dependency_failed, true);
        job_unmet_done(w->job);
        w = next;
    }
}

/* ---- jobs a kernel enqueued ---------------------------------------------------------- */

static void job_outstanding_done(cpu_job *j);

/* A child's end: its event, its bytes of the queue, its parent's count. */
static void job_finish(cpu_job *j, int status)
{
    cpu_job *parent = j->parent;
    if (j->event) {
        j->event->complete = mosaic_now_ns();
        if (!j->event->end)
            j->event->end = j->event->complete;
        if (!j->event->start)
            j->event->start = j->event->end;
        event_complete(j->event, status);
        event_release(j->event);
    }
    atomic_fetch_sub(&j->queue->device_queue_used, j->queue_bytes);
    mosaic_release_internal(j->queue);
    if (j->ndrange)
        mosaic_release_internal(j->ndrange->kernel);
    /* A child that could not run fails its parent; one whose wait list
     * failed did not run by the rules, and its parent goes on. */
    if (status < 0 && !atomic_load(&j->dependency_failed)) {
        int expected = CL_COMPLETE;
        atomic_compare_exchange_strong(&parent->status, &expected, status);
    }
    mosaic_cpu_job_release(j); /* the hold until completion */
    job_outstanding_done(parent);
}

static void job_outstanding_done(cpu_job *j)
{
    if (atomic_fetch_sub_explicit(&j->outstanding, 1, memory_order_acq_rel) != 1)
        return;
    if (j->command) {
        mosaic_command_complete(j->command, atomic_load(&j->status));
        mosaic_cpu_job_release(j);
    } else {
        job_finish(j, atomic_load(&j->status));
    }
}

/* Its conditions are met: a marker is done, a kernel goes to the workers. */
static void job_start(cpu_job *j)
{
    if (atomic_load(&j->dependency_failed)) {
        job_finish(j, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else if (!j->ndrange) {
        job_finish(j, CL_COMPLETE);
    } else {
        atomic_fetch_add(&j->holds, 1); /* the pool list's, dropped when it leaves the list */
        mosaic_cpu_push_child(j->queue->device, j);
    }
}

static void job_unmet_done(cpu_job *j)
{
    if (atomic_fetch_sub_explicit(&j->unmet, 1, memory_order_acq_rel) == 1)
        job_start(j);
}

/* WAIT_WORK_GROUP asks only for the enqueuing group's end, but programs
 * (the CTS's enqueue_flags among them) count on a group's children
 * starting after the groups below it ended, as they do where groups start
 * in their order and run alike: its group 1 clears results that group 16's
 * chain of children sets, and a worker that lost its core between claiming
 * group 1 and clearing them let the chain end first.  So children wait for
 * the groups below theirs as well; a lower group never waits for a higher
 * group's child in a program the specification allows. */
void mosaic_cpu_order_groups(cpu_job *j)
{
    j->orders_groups = true;
    j->groups_ended = calloc((j->total_groups + 7) / 8, 1);
    atomic_init(&j->ended_below, 0);
    atomic_init(&j->held, NULL);
}

/* Records that group g of j ended and moves j->ended_below past every
 * group ended in a row; without a lock (each group's end of a kernel
 * that enqueues comes here), so every worker that sets a bit advances
 * the count as far as it can. */
static void group_ended(cpu_job *j, size_t g)
{
    __atomic_fetch_or(&j->groups_ended[g / 8], (unsigned char)(1u << g % 8), __ATOMIC_SEQ_CST);
    size_t e = atomic_load(&j->ended_below);
    while (e < j->total_groups && __atomic_load_n(&j->groups_ended[e / 8], __ATOMIC_SEQ_CST) >> e % 8 & 1)
        if (atomic_compare_exchange_weak(&j->ended_below, &e, e + 1))
            e++;
}

void mosaic_cpu_group_end(cpu_running *r, size_t group)
{
    cpu_job *j = r->job, *ready = NULL;
    MOSAIC_ASSERT(j->orders_groups && group < j->total_groups);
    if (j->groups_ended)
        group_ended(j, group);
    /* The lock only for children to hold or release.  A group that ends
     * and a child held for it: either the child's worker, after holding
     * it, reads the count this end advanced, or this end reads `held`
     * after the child went in (both sequentially consistent). */
    if (!r->group_waiters && !atomic_load(&j->held))
        return;
    pthread_mutex_lock(&enqueue_lock);
    for (cpu_job *w = r->group_waiters, *next; w; w = next) {
        next = w->next_waiter;
        w->parent_group = group;
        w->next_waiter = atomic_load_explicit(&j->held, memory_order_relaxed);
        atomic_store(&j->held, w);
    }
    r->group_waiters = NULL;
    /* with no memory for the bits: at their own group's end, as the flag says */
    size_t below = atomic_load(&j->ended_below);
    cpu_job *kept = NULL;
    for (cpu_job *w = atomic_load_explicit(&j->held, memory_order_relaxed), *next; w; w = next) {
        next = w->next_waiter;
        bool start = !j->groups_ended || w->parent_group < below;
        w->next_waiter = start ? ready : kept;
        *(start ? &ready : &kept) = w;
    }
    atomic_store(&j->held, kept);
    pthread_mutex_unlock(&enqueue_lock);
    while (ready) {
        cpu_job *next = ready->next_waiter;
        job_unmet_done(ready);
        ready = next;
    }
}

void mosaic_cpu_job_running(cpu_job *j)
{
    if (!j->event)
        return;
    pthread_mutex_lock(&enqueue_lock);
    j->event->start = mosaic_now_ns();
    if (j->event->status > CL_RUNNING)
        j->event->status = CL_RUNNING;
    pthread_mutex_unlock(&enqueue_lock);
}

void mosaic_cpu_job_groups_done(cpu_job *j)
{
    if (j->event)
        j->event->end = mosaic_now_ns();
    pthread_mutex_lock(&enqueue_lock);
    cpu_job *w = j->kernel_waiters;
    j->kernel_waiters = NULL;
    pthread_mutex_unlock(&enqueue_lock);
    while (w) {
        cpu_job *next = w->next_waiter;
        job_unmet_done(w);
        w = next;
    }
    job_outstanding_done(j);
}

/* ---- enqueue_kernel and enqueue_marker ------------------------------------------------ */

/* The device queue of the parent's context and a CPU device that `handle`
 * (a kernel's queue_t, any value) is, held (mosaic_release_internal), or
 * NULL. */
static cl_command_queue device_queue_hold(const void *handle, const cpu_job *parent)
{
    cl_command_queue q = mosaic_device_queue_hold(handle);
    if (q && (q->context != parent->context || q->device->ops != &mosaic_cpu_ops)) {
        mosaic_release_internal(q);
        q = NULL;
    }
    return q;
}

/* Does every handle of the list name an event?  (Only the list itself, the
 * kernel's memory, is read.) */
static int check_wait_list(cl_uint n, void *const *list)
{
    if ((n == 0) != (list == NULL))
        return CLK_INVALID_EVENT_WAIT_LIST;
    int err = CLK_SUCCESS;
    pthread_mutex_lock(&enqueue_lock);
    for (cl_uint i = 0; i < n && err == CLK_SUCCESS; i++)
        if (!event_of(list[i]))
            err = CLK_INVALID_EVENT_WAIT_LIST;
    pthread_mutex_unlock(&enqueue_lock);
    return err;
}

/* Checks the ndrange and fills the launch's sizes (choosing a local size
 * when it gives none, as for the host's launches). */
static int layout_ndrange(const cl_ndrange *r, cl_device_id device, size_t max_wg, bool uniform,
                          mosaic_ndrange *nd)
{
    if (r->dims < 1 || r->dims > 3)
        return CLK_INVALID_NDRANGE;
    bool local_given = false;
    for (uint32_t d = 0; d < r->dims; d++)
        local_given |= r->local[d] != 0;
    size_t budget = max_wg < 256 ? max_wg : 256, items = 1, wg = 1;
    nd->work_dim = r->dims;
    nd->total_groups = 1;
    for (uint32_t d = 0; d < 3; d++) {
        bool used = d < r->dims;
        size_t g = used ? r->global[d] : 1, o = used ? r->offset[d] : 0, l;
        if (g == 0 || g > SIZE_MAX - o)
            return CLK_INVALID_NDRANGE;
        if (local_given) {
            l = used ? r->local[d] : 1;
            if (l == 0 || l > device->max_work_item_sizes[d] || (uniform && g % l))
                return CLK_INVALID_NDRANGE;
        } else {
            size_t limit = budget < device->max_work_item_sizes[d] ? budget : device->max_work_item_sizes[d];
            if (d == 0 && limit > 64)
                limit = 64;
            l = used && limit > 1 ? mosaic_cpu_largest_divisor(g, limit) : 1;
            budget /= l;
        }
        size_t groups = g / l + (g % l != 0), padded;
        if (__builtin_mul_overflow(wg, l, &wg) || __builtin_mul_overflow(groups, l, &padded) ||
            __builtin_mul_overflow(items, padded, &items) || items > ((size_t)1 << 63))
            return CLK_INVALID_NDRANGE;
        nd->global_offset[d] = o;
        nd->global_size[d] = g;
        nd->local_size[d] = l;
        nd->num_groups[d] = groups;
        nd->total_groups *= groups;
    }
    return wg > max_wg ? CLK_INVALID_NDRANGE : CLK_SUCCESS;
}

/* A new child of the running job (its parent): conditions counted from 1
 * (the enqueue itself), holding its queue and its share of it. */
static int child_new(cpu_job *parent, cl_command_queue q, size_t extra, size_t literal, cl_uint num_events,
                     void **event_ret, cpu_job **out)
{
    size_t bytes = QUEUE_ENTRY_BYTES + ((literal + 15) & ~(size_t)15);
    cpu_event *ev = NULL;
    if (event_ret && !(ev = event_new(q->device, false)))
        return CLK_EVENT_ALLOCATION_FAILURE;
    if (atomic_fetch_add(&q->device_queue_used, bytes) + bytes > q->size) {
        atomic_fetch_sub(&q->device_queue_used, bytes);
        if (ev)
            event_release(ev);
        return CLK_DEVICE_QUEUE_FULL;
    }
    size_t head = (sizeof(cpu_job) + num_events * sizeof(cpu_waiter) + 127) & ~(size_t)127;
    cpu_job *j = aligned_alloc(128, (head + extra + 127) & ~(size_t)127);
    if (!j) {
        atomic_fetch_sub(&q->device_queue_used, bytes);
        if (ev)
            event_release(ev);
        return CLK_OUT_OF_RESOURCES;
    }
    memset(j, 0, head + extra);
    j->waiters = (cpu_waiter *)(j + 1);
    j->context = parent->context;
    j->device = q->device;
    j->parent = parent;
    j->queue = q;
    mosaic_retain_internal(q);
    j->queue_bytes = bytes;
    atomic_init(&j->outstanding, 1);
    atomic_init(&j->holds, 1); /* until complete (+1 for the pool's list while a kernel is on it: job_start) */
    atomic_init(&j->status, CL_COMPLETE);
    atomic_init(&j->unmet, 1);
    if (ev) {
        pthread_mutex_lock(&enqueue_lock);
        ev->refs++; /* the kernel's reference, and the command's until complete */
        pthread_mutex_unlock(&enqueue_lock);
        j->event = ev;
        *event_ret = handle_of(ev);
    }
    atomic_fetch_add(&parent->outstanding, 1);
    *out = j;
    return CLK_SUCCESS;
}

/* The child's events and flag become conditions; then the enqueue's own
 * is dropped, which may start it. */
static void child_submit(cpu_job *j, cpu_running *r, int flags, cl_uint num_events, void *const *wait_list)
{
    pthread_mutex_lock(&enqueue_lock);
    for (cl_uint i = 0; i < num_events; i++) {
        /* (checked by check_wait_list; one released since by another
         * work-item, its command complete, is no condition) */
        cpu_event *ev = event_of(wait_list[i]);
        if (!ev)
            continue;
        if (ev->status > CL_COMPLETE) {
            cpu_waiter *w = &j->waiters[j->num_waiters++];
            w->job = j;
            w->next = ev->waiters;
            ev->waiters = w;
            atomic_fetch_add(&j->unmet, 1);
        } else if (ev->status < 0) {
            atomic_store(&j->dependency_failed, true);
        }
    }
    if (flags == CLK_ENQUEUE_FLAGS_WAIT_KERNEL) {
        /* the parent's groups cannot all have ended: the enqueuing one runs */
        atomic_fetch_add(&j->unmet, 1);
        j->next_waiter = r->job->kernel_waiters;
        r->job->kernel_waiters = j;
    }
    pthread_mutex_unlock(&enqueue_lock);
    if (flags == CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP) {
        atomic_fetch_add(&j->unmet, 1);
        j->next_waiter = r->group_waiters; /* this worker's, released at the group's end */
        r->group_waiters = j;
    }
    job_unmet_done(j);
}

/* enqueue_kernel on a device queue the caller holds. */
static int enqueue_kernel(cpu_running *r, cl_command_queue queue, int flags, const void *ndrange, cl_uint num_events,
                          void *const *wait_list, void **event_ret, const void *kernel, const void *block,
                          cl_uint num_locals, const size_t *local_sizes)
{
    cpu_job *parent = r->job;
    if (flags < 0 || flags > CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP)
        return CLK_ENQUEUE_FAILURE;
    int err = check_wait_list(num_events, wait_list);
    if (err != CLK_SUCCESS)
        return err;
    cl_program program = parent->ndrange->kernel->program;
    const mosaic_kernel_info *info = mosaic_executable_block_kernel(parent->ndrange->executable, (uint64_t)(uintptr_t)kernel);
    if (!info || !block)
        return CLK_ENQUEUE_FAILURE;
    if (num_locals + 1 != info->num_args)
        return CLK_INVALID_ARG_SIZE;
    cl_device_id device = queue->device;
    size_t local_mem = info->static_local_mem_size;
    for (cl_uint i = 0; i < num_locals; i++) {
        if (local_sizes[i] == 0)
            return CLK_INVALID_ARG_SIZE;
        local_mem = ((local_mem + MOSAIC_LOCAL_MEM_ALIGNMENT - 1) & ~(size_t)(MOSAIC_LOCAL_MEM_ALIGNMENT - 1));
        if (local_sizes[i] > device->local_mem_size || local_mem + local_sizes[i] > device->local_mem_size)
            return CLK_OUT_OF_RESOURCES;
        local_mem += local_sizes[i];
    }
    mosaic_ndrange layout = {0};
    const size_t *reqd = info->reqd_work_group_size;
    size_t max_wg = reqd[0] ? reqd[0] * reqd[1] * reqd[2] : device->max_work_group_size;
    size_t fits = mosaic_cpu_kernel_work_group_limit(device, info); /* its private memory */
    if (!fits)
        return CLK_OUT_OF_RESOURCES;
    max_wg = fits < max_wg ? fits : max_wg;
    bool uniform = program->options && strstr(program->options, "-cl-uniform-work-group-size");
    err = layout_ndrange(ndrange, device, max_wg, uniform, &layout);
    if (err != CLK_SUCCESS)
        return err;

    /* The launch: the mosaic_ndrange, its args and their slots, then a copy
     * of the block literal (the first int of which is its size). */
    size_t literal = (size_t)(uint32_t)((const int *)block)[0];
    cl_uint n = info->num_args;
    size_t lit_at = (sizeof(mosaic_ndrange) + n * (sizeof(void *) + sizeof(uint64_t)) + 127) & ~(size_t)127;
    cpu_job *j;
    err = child_new(parent, queue, lit_at + literal, literal, num_events, event_ret, &j);
    if (err != CLK_SUCCESS)
        return err;
    size_t head = (sizeof(cpu_job) + num_events * sizeof(cpu_waiter) + 127) & ~(size_t)127;
    mosaic_ndrange *nd = (mosaic_ndrange *)((char *)j + head);
    *nd = layout;
    nd->info = info;
    nd->executable = parent->ndrange->executable;
    nd->kernel = parent->ndrange->kernel;
    mosaic_retain_internal(nd->kernel);
    nd->local_mem_size = local_mem;
    nd->args = (void **)(nd + 1);
    uint64_t *slots = (uint64_t *)(nd->args + n);
    char *copy = (char *)nd + lit_at;
    memcpy(copy, block, literal);
    slots[0] = (uint64_t)(uintptr_t)copy;
    nd->args[0] = &slots[0];
    size_t offset = info->static_local_mem_size;
    for (cl_uint i = 0; i < num_locals; i++) {
        offset = (offset + MOSAIC_LOCAL_MEM_ALIGNMENT - 1) & ~(size_t)(MOSAIC_LOCAL_MEM_ALIGNMENT - 1);
        slots[i + 1] = offset;
        nd->args[i + 1] = &slots[i + 1];
        offset += local_sizes[i];
    }
    j->ndrange = nd;
    j->total_groups = nd->total_groups;
    child_submit(j, r, flags, num_events, wait_list);
    return CLK_SUCCESS;
}

int mosaic_cpu_enqueue_kernel(const mosaic_wg_ctx *ctx, cl_command_queue queue, int flags, const void *ndrange,
                              cl_uint num_events, void *const *wait_list, void **event_ret, const void *kernel,
                              const void *block, cl_uint num_locals, const size_t *local_sizes)
{
    cpu_running *r = mosaic_cpu_running(ctx);
    cl_command_queue q = device_queue_hold(queue, r->job);
    if (!q)
        return CLK_INVALID_QUEUE;
    int err = enqueue_kernel(r, q, flags, ndrange, num_events, wait_list, event_ret, kernel, block, num_locals,
                             local_sizes);
    mosaic_release_internal(q);
    return err;
}

int mosaic_cpu_enqueue_marker(const mosaic_wg_ctx *ctx, cl_command_queue queue, cl_uint num_events,
                              void *const *wait_list, void **event_ret)
{
    cpu_running *r = mosaic_cpu_running(ctx);
    cl_command_queue q = device_queue_hold(queue, r->job);
    if (!q)
        return CLK_INVALID_QUEUE;
    int err = CLK_INVALID_EVENT_WAIT_LIST;
    cpu_job *j;
    if (num_events && check_wait_list(num_events, wait_list) == CLK_SUCCESS)
        err = child_new(r->job, q, 0, 0, num_events, event_ret, &j);
    if (err == CLK_SUCCESS)
        child_submit(j, r, 0, num_events, wait_list);
    mosaic_release_internal(q);
    return err;
}

/* ---- queues, events, block kernels -------------------------------------------------- */

cl_command_queue mosaic_cpu_get_default_queue(const mosaic_wg_ctx *ctx)
{
    const cpu_job *j = mosaic_cpu_running(ctx)->job;
    for (cl_uint i = 0; i < j->context->num_devices; i++)
        if (j->context->devices[i] == j->device)
            return atomic_load(&j->context->default_device_queues[i]);
    return NULL;
}

/* These take a handle that is not an event as OpenCL C's undefined
 * behaviour allows: they do nothing (is_valid_event says false). */
void mosaic_cpu_retain_event(void *e)
{
    event_get(e); /* the reference is the kernel's */
}

void mosaic_cpu_release_event(void *e)
{
    pthread_mutex_lock(&enqueue_lock);
    cpu_event *ev = event_of(e);
    bool last = ev && event_unref(ev);
    pthread_mutex_unlock(&enqueue_lock);
    if (last)
        event_free(ev);
}

void *mosaic_cpu_create_user_event(const mosaic_wg_ctx *ctx)
{
    cpu_event *ev = event_new(mosaic_cpu_running(ctx)->job->device, true);
    return ev ? handle_of(ev) : CLK_NULL_EVENT;
}

void mosaic_cpu_set_user_event_status(void *e, int status)
{
    cpu_event *ev = event_get(e);
    if (!ev)
        return;
    if (ev->user && status <= CL_COMPLETE) {
        ev->start = ev->end = ev->complete = mosaic_now_ns();
        event_complete(ev, status);
    }
    event_release(ev);
}

int mosaic_cpu_is_valid_event(void *e)
{
    pthread_mutex_lock(&enqueue_lock);
    bool valid = event_of(e) != NULL;
    pthread_mutex_unlock(&enqueue_lock);
    return valid;
}

void mosaic_cpu_capture_event_profiling_info(void *e, int name, void *value)
{
    if (name != CLK_PROFILING_COMMAND_EXEC_TIME || !value)
        return;
    pthread_mutex_lock(&enqueue_lock);
    cpu_event *ev = event_of(e);
    if (!ev) {
        /* not an event: nothing to write */
    } else if (ev->status > CL_COMPLETE) { /* written when it completes */
        capture *c = malloc(sizeof *c);
        if (c) {
            c->value = value;
            c->next = ev->captures;
            ev->captures = c;
        }
    } else if (ev->status == CL_COMPLETE) {
        write_profile(ev, value);
    }
    pthread_mutex_unlock(&enqueue_lock);
}

static const mosaic_kernel_info *block_kernel(const mosaic_wg_ctx *ctx, const void *kernel)
{
    const cpu_job *j = mosaic_cpu_running(ctx)->job;
    return mosaic_executable_block_kernel(j->ndrange->executable, (uint64_t)(uintptr_t)kernel);
}

cl_uint mosaic_cpu_kernel_work_group_size(const mosaic_wg_ctx *ctx, const void *kernel)
{
    const mosaic_kernel_info *info = block_kernel(ctx, kernel);
    if (!info)
        return 0;
    const size_t *reqd = info->reqd_work_group_size;
    return (cl_uint)(reqd[0] ? reqd[0] * reqd[1] * reqd[2] : mosaic_cpu_running(ctx)->job->device->max_work_group_size);
}

cl_uint mosaic_cpu_kernel_preferred_multiple(const mosaic_wg_ctx *ctx, const void *kernel)
{
    /* as CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (ops->kernel_preferred_multiple) */
    const mosaic_kernel_info *info = block_kernel(ctx, kernel);
    return !info ? 0 : (cl_uint)mosaic_cpu_preferred_work_group_multiple(mosaic_cpu_running(ctx)->job->device, info);
}

/* The work-group size a launch of the block kernel over `ndrange` would get
 * (as mosaic_cpu_enqueue_kernel lays it out), or 0 when it could not run. */
static size_t block_group_size(const mosaic_wg_ctx *ctx, const void *ndrange, const void *kernel)
{
    const cpu_job *j = mosaic_cpu_running(ctx)->job;
    const mosaic_kernel_info *info = block_kernel(ctx, kernel);
    if (!info || !j->device->sub_group_size)
        return 0;
    const size_t *reqd = info->reqd_work_group_size;
    size_t max_wg = reqd[0] ? reqd[0] * reqd[1] * reqd[2] : j->device->max_work_group_size;
    mosaic_ndrange layout = {0};
    if (layout_ndrange(ndrange, j->device, max_wg, false, &layout) != CLK_SUCCESS)
        return 0;
    return layout.local_size[0] * layout.local_size[1] * layout.local_size[2];
}

cl_uint mosaic_cpu_kernel_sub_group_count(const mosaic_wg_ctx *ctx, const void *ndrange, const void *kernel)
{
    size_t items = block_group_size(ctx, ndrange, kernel), size = mosaic_cpu_running(ctx)->job->device->sub_group_size;
    return items ? (cl_uint)((items + size - 1) / size) : 0;
}

cl_uint mosaic_cpu_kernel_max_sub_group_size(const mosaic_wg_ctx *ctx, const void *ndrange, const void *kernel)
{
    size_t items = block_group_size(ctx, ndrange, kernel), size = mosaic_cpu_running(ctx)->job->device->sub_group_size;
    return (cl_uint)(items < size ? items : size);
}
