/*
 * The event engine: one graph of commands for all queues (see engine.h).
 *
 * Locking: `graph_lock` guards every field documented as "guarded by the
 * engine lock" in objects.h; which lock guards what, and their order, is in
 * docs/architecture.md ("Locks").  Functions named *_locked, and those
 * documented "Under graph_lock", assert that it is held.
 * Commands themselves run with the lock released.  Callbacks run on one
 * callback thread, in the order they were queued, so a CL_SUBMITTED callback
 * always runs before the CL_COMPLETE one of the same event, and a callback may
 * call any OpenCL function, including blocking ones.
 */
#define _GNU_SOURCE /* PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP */
#include "core/engine.h"
#include "core/serial.h"
#include "core/check_commands.h"
#include "core/check_written.h"
#include "core/coherence.h"
#include "core/device.h"
#include "core/recycle.h"
#include "core/trace.h"
#include "core/util.h"
#include "base/assert.h"
#include "base/settings.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Spins a little before sleeping (mosaic_mutex_init_spinning): the host's
 * enqueue and a worker's completion take it in turn, briefly. */
static pthread_mutex_t graph_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;

bool mosaic_engine_lock_held(void)
{
    return mosaic_mutex_held(&graph_lock);
}

/* An edge from a command to a dependant.  Only wait-list edges carry a
 * failure forward: an in-order successor of a failed command still runs. */
typedef struct edge {
    cl_event to;
    bool propagates_failure;
} edge;

/* Most commands get one or two dependants (the next command of an in-order
 * queue, a clFinish marker): room for two lies right after the event, in the
 * same allocation; more move to the heap. */
enum { INLINE_EDGES = 2 };

static edge *inline_edges(cl_event e) { return (edge *)(e + 1); }

static void free_edges(cl_event e)
{
    if (e->dependents != inline_edges(e))
        free(e->dependents);
    e->dependents = NULL;
    e->num_dependents = e->cap_dependents = 0;
}

/* Profiling times are taken only for commands of a queue with
 * CL_QUEUE_PROFILING_ENABLE, or of every queue while a trace is written
 * (reading the clock is a visible part of an enqueue's cost); time_queued
 * is 0 for the others.  A traced command also has a trace_id. */
static bool profiled(cl_event e) { return e->time_queued != 0; }

/* ---- the callback thread ------------------------------------------------ */

/* Callbacks run one at a time, in the order they were queued (serial.h). */
static mosaic_serial callbacks = MOSAIC_SERIAL_INIT("callback");

/* ---- fork() --------------------------------------------------------------
 * A child of fork() has only the thread that forked.  The engine's locks are
 * held across the fork (in their order: graph_lock, then the callback
 * queue's), so the child's copy of the graph is consistent; the child starts
 * a callback thread of its own, and the callbacks queued at the fork run in
 * the parent only. */
static void engine_before_fork(void)
{
    pthread_mutex_lock(&graph_lock);
    mosaic_serial_before_fork(&callbacks);
}

static void engine_after_fork_in_parent(void)
{
    mosaic_serial_after_fork_in_parent(&callbacks);
    pthread_mutex_unlock(&graph_lock);
}

static void engine_after_fork_in_child(void)
{
    mosaic_mutex_init_spinning(&graph_lock);
    mosaic_serial_after_fork_in_child(&callbacks);
}

/* Registered before the first command, with no lock held: fork() holds
 * glibc's handler list lock while it takes ours. */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void register_fork_handlers(void)
{
    pthread_atfork(engine_before_fork, engine_after_fork_in_parent, engine_after_fork_in_child);
}

void mosaic_defer(void (*fn)(void *), void *data)
{
    if (!mosaic_serial_post(&callbacks, fn, data))
        fn(data); /* no memory or no thread: run it here rather than lose it */
}

typedef struct notify_job {
    void (CL_CALLBACK *fn)(const char *, const void *, size_t, void *);
    void *user_data;
    char errinfo[];
} notify_job;

static void run_notify(void *data)
{
    notify_job *job = data;
    job->fn(job->errinfo, NULL, 0, job->user_data);
    free(job);
}

void mosaic_context_notify(cl_context context, const char *errinfo)
{
    if (!errinfo)
        errinfo = "";
    if (mosaic_debug_enabled())
        fprintf(stderr, "mosaic: context %p: %s\n", (void *)context, errinfo);
    if (!MOSAIC_IS(context, CONTEXT) || !context->notify)
        return;
    size_t len = strlen(errinfo);
    notify_job *job = malloc(sizeof *job + len + 1);
    if (!job)
        return;
    job->fn = context->notify;
    job->user_data = context->notify_data;
    memcpy(job->errinfo, errinfo, len + 1);
    mosaic_defer(run_notify, job);
}

/* One event callback invocation, queued on the callback thread. */
typedef struct callback_call {
    cl_event event;
    cl_int status;
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *data;
} callback_call;

static void run_event_callback(void *p)
{
    callback_call *call = p;
    call->fn(call->event, call->status, call->data);
    mosaic_release_internal(call->event);
    free(call);
}

/* Under graph_lock: queue the callbacks registered for `reached` (or all
 * remaining ones when the event completed or failed). */
static void queue_callbacks_locked(cl_event e, cl_int reached)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    mosaic_callback **link = &e->callbacks;
    /* callbacks are stored in registration order */
    while (*link) {
        mosaic_callback *cb = *link;
        bool due = reached <= CL_COMPLETE || cb->when == reached;
        if (!due) {
            link = &cb->next;
            continue;
        }
        *link = cb->next;
        callback_call *call = malloc(sizeof *call);
        if (call) {
            call->event = e;
            call->status = reached < 0 ? reached : cb->when;
            call->fn = (void (CL_CALLBACK *)(cl_event, cl_int, void *))cb->fn;
            call->data = cb->user_data;
            mosaic_retain_internal(e);
            mosaic_defer(run_event_callback, call);
        }
        free(cb);
    }
}

/* ---- command life cycle -------------------------------------------------- */

static void destroy_event(void *p)
{
    cl_event e = p;
    free_edges(e);
    for (mosaic_callback *cb = e->callbacks, *next; cb; cb = next) {
        next = cb->next;
        free(cb);
    }
    pthread_cond_destroy(&e->completed);
    if (e->queue)
        mosaic_release_internal(e->queue);
    if (e->context)
        mosaic_release_internal(e->context);
    mosaic_recycle(e);
}

static cl_event new_event(cl_context context, cl_command_queue queue, cl_command_type type, cl_int status)
{
    pthread_once(&fork_handlers_once, register_fork_handlers);
    cl_event e = mosaic_recycled_calloc(sizeof *e + INLINE_EDGES * sizeof(edge));
    if (!e)
        return NULL;
    e->dependents = inline_edges(e);
    e->cap_dependents = INLINE_EDGES;
    mosaic_object_init(e, MOSAIC_EVENT, context->dispatch, destroy_event); /* the ICD table of its context */
    pthread_cond_init(&e->completed, NULL);
    e->context = context;
    mosaic_retain_internal(context);
    e->queue = queue;
    if (queue)
        mosaic_retain_internal(queue);
    e->command_type = type;
    __atomic_store_n(&e->status, status, __ATOMIC_RELEASE);
    e->waiting_for = 1; /* the enqueue guard, dropped once all edges are in */
    if (queue && ((queue->properties & CL_QUEUE_PROFILING_ENABLE) || mosaic_tracing())) {
        e->time_queued = mosaic_now_ns();
        if (mosaic_tracing() && queue->trace_id) {
            e->trace_id = mosaic_trace_command_id();
            e->trace_lane = -1;
        }
    }
    return e;
}

cl_event mosaic_command_new(cl_command_queue queue, cl_command_type type)
{
    return new_event(queue->context, queue, type, CL_QUEUED);
}

void mosaic_command_discard(cl_event command)
{
    if (command->cleanup)
        command->cleanup(command);
    mosaic_release(command);
}

cl_int mosaic_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events)
{
    if ((num_events == 0) != (events == NULL))
        return MOSAIC_ERROR(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list (%u) and event_wait_list (%p) disagree",
                            num_events, (void *)events);
    for (cl_uint i = 0; i < num_events; i++) {
        if (!MOSAIC_IS(events[i], EVENT))
            return MOSAIC_ERROR(CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[%u] is not a valid event", i);
        if (context && events[i]->context != context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "event_wait_list[%u] belongs to another context", i);
    }
    return CL_SUCCESS;
}

/* Under graph_lock: make `to` wait for `from` unless `from` is already done. */
static bool add_edge_locked(cl_event from, cl_event to, bool propagates_failure)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    MOSAIC_ASSERT(to->waiting_for > 0); /* `to` is being enqueued */
    if (from == to)
        return true;
    if (from->status <= CL_COMPLETE) {
        if (from->status < 0 && propagates_failure && !to->dependency_error)
            to->dependency_error = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        return true;
    }
    if (from->num_dependents == from->cap_dependents) {
        bool in_place = from->dependents == inline_edges(from);
        size_t cap = from->cap_dependents * 2;
        edge *grown = in_place ? malloc(cap * sizeof(edge)) : realloc(from->dependents, cap * sizeof(edge));
        if (!grown)
            return false;
        if (in_place)
            memcpy(grown, from->dependents, from->num_dependents * sizeof(edge));
        from->dependents = grown;
        from->cap_dependents = cap;
    }
    ((edge *)from->dependents)[from->num_dependents++] = (edge){ to, propagates_failure };
    to->waiting_for++;
    return true;
}

/* The queues with pending commands, for mosaic_context_finish: a queue is
 * linked when its first pending command arrives and unlinked when its last
 * one leaves, so every queue listed is held by its commands. */
static cl_command_queue busy_queues;

static void queue_add_pending_locked(cl_command_queue q, cl_event e)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    if (q->num_pending == 0) {
        q->busy_prev = NULL;
        q->busy_next = busy_queues;
        if (busy_queues)
            busy_queues->busy_prev = q;
        busy_queues = q;
    }
    e->pending_prev = q->pending_tail;
    e->pending_next = NULL;
    if (q->pending_tail)
        q->pending_tail->pending_next = e;
    else
        q->pending_head = e;
    q->pending_tail = e;
    q->num_pending++;
}

static void queue_remove_pending_locked(cl_command_queue q, cl_event e)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    MOSAIC_ASSERT(q->num_pending > 0);
    if (e->pending_prev)
        e->pending_prev->pending_next = e->pending_next;
    else
        q->pending_head = e->pending_next;
    if (e->pending_next)
        e->pending_next->pending_prev = e->pending_prev;
    else
        q->pending_tail = e->pending_prev;
    e->pending_prev = e->pending_next = NULL;
    q->num_pending--;
    if (q->last_command == e) {
        q->last_command = NULL;
        mosaic_release_internal(e);
    }
    if (q->last_barrier == e) {
        q->last_barrier = NULL;
        mosaic_release_internal(e);
    }
    if (q->num_pending == 0) {
        if (q->busy_prev)
            q->busy_prev->busy_next = q->busy_next;
        else
            busy_queues = q->busy_next;
        if (q->busy_next)
            q->busy_next->busy_prev = q->busy_prev;
        q->busy_prev = q->busy_next = NULL;
        pthread_cond_broadcast(&q->drained);
    }
}

/* Commands that became ready on this thread, started one after another in
 * the order they became ready rather than recursively (a long chain of
 * failed commands or markers would otherwise recurse once per link).  The
 * list is threaded through the events themselves (each becomes ready once),
 * so it needs no memory of its own: nothing to allocate per command, and
 * nothing left behind when a host thread exits. */
static __thread cl_event ready_head, ready_tail;
static __thread bool dispatching;

static void start_command(cl_event e);

/* Under graph_lock: every edge of `e` is complete.  Unless a dependency
 * failed, it is submitted now, in the same lock hold. */
static void became_ready_locked(cl_event e)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    MOSAIC_ASSERT(e->waiting_for == 0);
    if (e->dependency_error)
        return; /* it completes with the error without being submitted */
    if (profiled(e))
        e->time_submit = mosaic_now_ns();
    __atomic_store_n(&e->status, CL_SUBMITTED, __ATOMIC_RELEASE);
    queue_callbacks_locked(e, CL_SUBMITTED);
}

static void push_ready(cl_event e)
{
    e->ready_next = NULL;
    if (ready_tail)
        ready_tail->ready_next = e;
    else
        ready_head = e;
    ready_tail = e;
}

static void dispatch_ready(void)
{
    if (dispatching)
        return; /* an outer frame on this thread drains the list */
    dispatching = true;
    while (ready_head) {
        cl_event e = ready_head;
        ready_head = e->ready_next;
        if (!ready_head)
            ready_tail = NULL;
        start_command(e);
    }
    dispatching = false;
}

void mosaic_command_running_at(cl_event e, uint64_t start_ns)
{
    pthread_mutex_lock(&graph_lock);
    MOSAIC_ASSERT(e->status == CL_SUBMITTED); /* runs once, after its dependencies */
    if (profiled(e)) {
        e->time_start = start_ns ? start_ns : mosaic_now_ns();
        if (e->trace_id)
            mosaic_trace_start_locked(e);
    }
    __atomic_store_n(&e->status, CL_RUNNING, __ATOMIC_RELEASE);
    queue_callbacks_locked(e, CL_RUNNING);
    pthread_mutex_unlock(&graph_lock);
}

void mosaic_command_running(cl_event e)
{
    mosaic_command_running_at(e, 0);
}

/* Under graph_lock: the command reaches its final status.  Its dependants
 * whose last edge this was go on this thread's ready list. */
static void complete_locked(cl_event e, cl_int status)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    MOSAIC_ASSERT(e->status > CL_COMPLETE && status <= CL_COMPLETE); /* completes once */
    if (profiled(e)) {
        cl_ulong now = mosaic_now_ns();
        if (!e->time_submit)
            e->time_submit = now;
        if (!e->time_start)
            e->time_start = now;
        e->time_end = now;
        e->time_complete = now;
        if (e->trace_id)
            mosaic_trace_complete_locked(e);
    }
    __atomic_store_n(&e->status, status, __ATOMIC_RELEASE);
    if (e->queue) {
        queue_remove_pending_locked(e->queue, e);
        atomic_fetch_add(&e->queue->settling, 1); /* until after_complete's cleanup is done */
    }
    edge *edges = e->dependents;
    for (size_t i = 0; i < e->num_dependents; i++) {
        cl_event to = edges[i].to;
        if (status < 0 && edges[i].propagates_failure && !to->dependency_error)
            to->dependency_error = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        MOSAIC_ASSERT(to->waiting_for > 0);
        if (--to->waiting_for == 0) {
            became_ready_locked(to);
            push_ready(to);
        }
    }
    free_edges(e);
    queue_callbacks_locked(e, status);
}

/* After complete_locked, with the lock released. */
static void after_complete(cl_event e)
{
    if (e->trace_id)
        mosaic_trace_command(e); /* before the cleanup: it reads the payload */
    if (e->cleanup) {
        e->cleanup(e);
        e->cleanup = NULL;
    }
    /* A wait returns once this is set: the command's holds on its kernel
     * and buffers are gone by then (a clFinish followed by releases frees
     * them at once).  Only a thread asleep in wait_on_event needs the lock
     * and a broadcast; the order of these two atomics and the sleeper's
     * makes one of them see the other. */
    __atomic_store_n(&e->settled, true, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&e->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&graph_lock);
        pthread_cond_broadcast(&e->completed);
        pthread_mutex_unlock(&graph_lock);
    }
    if (e->queue) /* (the event holds its queue until the release below) */
        atomic_fetch_sub(&e->queue->settling, 1);
    mosaic_release_internal(e); /* the graph's hold */
    dispatch_ready();
}

void mosaic_command_complete(cl_event e, cl_int status)
{
    if (status > CL_COMPLETE)
        status = CL_COMPLETE;
    if (mosaic_settings()->check & MOSAIC_CHECK_RACES) /* (before what waits for it may start) */
        mosaic_check_commands_end(e);
    pthread_mutex_lock(&graph_lock);
    complete_locked(e, status);
    pthread_mutex_unlock(&graph_lock);
    after_complete(e);
}

/* Does the command's device run it?  Kernels, and commands with a run.
 * The others (markers, barriers, commands whose op is NULL: core/device.h)
 * are synchronisation points only, which the engine completes itself. */
static bool device_runs(cl_event e)
{
    return e->run || e->command_type == CL_COMMAND_NDRANGE_KERNEL || e->command_type == CL_COMMAND_TASK;
}

/* A command whose buffers are where its device needs them. */
static void start_with_memory(cl_event e)
{
    if (!device_runs(e)) { /* a synchronisation point only */
        mosaic_command_running(e);
        mosaic_command_complete(e, CL_COMPLETE);
        return;
    }
    cl_device_id device = e->queue->device;
    MOSAIC_ASSERT(!mosaic_engine_lock_held()); /* devices take their own locks: never under graph_lock */
    if (!device->runs_in_submission_order) {
        device->ops->submit(device, e);
        return;
    }
    /* The device has it once submit returns: a command enqueued after it
     * may be submitted behind it (follows_on_device_locked).  The hold
     * keeps e while the flag is set: the device may complete it first. */
    mosaic_retain_internal(e);
    device->ops->submit(device, e);
    __atomic_store_n(&e->handed_over, true, __ATOMIC_RELEASE);
    mosaic_release_internal(e);
}

/* After the copy thread moved a command's buffers (core/coherence.h). */
static void start_after_copies(cl_event e, cl_int err)
{
    if (err != CL_SUCCESS)
        mosaic_command_complete(e, err);
    else
        start_with_memory(e);
}

/* Checking mode (docs/check.md): what a starting command writes counts as
 * written, and it must not race with a running command. */
static void check_start(cl_event e)
{
    unsigned check = mosaic_settings()->check;
    if (check & MOSAIC_CHECK_UNINIT)
        mosaic_check_written_by_command(e);
    if (check & MOSAIC_CHECK_RACES)
        mosaic_check_commands_start(e);
}

/* Called once a command's dependencies are complete (and it was submitted
 * by became_ready_locked). */
static void start_command(cl_event e)
{
    if (e->dependency_error) {
        mosaic_command_complete(e, e->dependency_error);
        return;
    }
    check_start(e);
    /* in a context of several memories its buffers may have to move first */
    if (!mosaic_coherence_start(e, start_after_copies))
        start_with_memory(e);
}

/* Runs a command on the calling thread (blocking commands that are ready at
 * once: no hand-off to a worker and back). */
static void run_here(cl_event e)
{
    if (e->dependency_error) {
        mosaic_command_complete(e, e->dependency_error);
        return;
    }
    check_start(e);
    cl_int err = mosaic_coherence_start_here(e);
    mosaic_command_running(e);
    mosaic_command_complete(e, err != CL_SUCCESS ? err : e->run(e));
}

/* Under graph_lock: may `next`, enqueued after `prev` on an in-order queue,
 * be submitted before prev completes?  Yes when their device runs commands
 * in the order it is given them (a GPU's stream) and has prev already, and
 * next is a command that device runs: a marker is the engine's to
 * complete, and must wait.  The edge is not needed then; the device's order
 * keeps the queue's (an in-order edge carries no failure). */
static bool follows_on_device_locked(cl_event prev, cl_event next)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&graph_lock));
    MOSAIC_ASSERT(prev->queue == next->queue);
    return next->queue->device->runs_in_submission_order && prev->status > CL_COMPLETE &&
           __atomic_load_n(&prev->handed_over, __ATOMIC_ACQUIRE) && device_runs(next);
}

enum {
    AFTER_ALL_PENDING = 1, /* marker/barrier without a wait list */
    BECOMES_BARRIER = 2,   /* later commands of the queue wait for this one */
};

static cl_int wait_on_event(cl_event e);

static cl_int enqueue(cl_event cmd, cl_uint num_events, const cl_event *wait_list,
                      cl_event *event_out, bool blocking, int flags)
{
    cl_command_queue q = cmd->queue;
    bool ok = true;

    pthread_mutex_lock(&graph_lock);
    bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); /* guarded: clSetCommandQueueProperty */
    for (cl_uint i = 0; i < num_events && ok; i++)
        ok = add_edge_locked(wait_list[i], cmd, true);
    bool behind_on_device = ok && in_order && q->last_command && follows_on_device_locked(q->last_command, cmd);
    if (ok && in_order && q->last_command && !behind_on_device)
        ok = add_edge_locked(q->last_command, cmd, false);
    if (ok && q->last_barrier)
        ok = add_edge_locked(q->last_barrier, cmd, false);
    if (ok && (flags & AFTER_ALL_PENDING) && !in_order)
        for (cl_event p = q->pending_head; p && ok; p = p->pending_next)
            ok = add_edge_locked(p, cmd, false);
    /* Out of memory half way: the edges already added point at cmd, so it
     * stays in the graph as a failed command and completes once they do. */
    if (!ok)
        cmd->dependency_error = CL_OUT_OF_HOST_MEMORY;
    queue_add_pending_locked(q, cmd);
    if (q->last_command)
        mosaic_release_internal(q->last_command);
    q->last_command = cmd;
    mosaic_retain_internal(cmd);
    if (flags & BECOMES_BARRIER) {
        if (q->last_barrier)
            mosaic_release_internal(q->last_barrier);
        q->last_barrier = cmd;
        mosaic_retain_internal(cmd);
    }
    mosaic_retain_internal(cmd); /* the graph's hold, dropped at completion */
    bool ready = --cmd->waiting_for == 0;
    if (ready)
        became_ready_locked(cmd);
    pthread_mutex_unlock(&graph_lock);

    if (ready) {
        if (blocking && cmd->run_inline && cmd->run && !behind_on_device) /* (else it would complete first) */
            run_here(cmd);
        else
            start_command(cmd);
        dispatch_ready();
    }

    cl_int result = ok ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (blocking && ok)
        result = wait_on_event(cmd);
    if (event_out)
        *event_out = cmd; /* the creation reference becomes the user's */
    else
        mosaic_release(cmd);
    return result;
}

cl_int mosaic_command_enqueue(cl_event command, cl_uint num_events, const cl_event *wait_list,
                              cl_event *event_out, bool blocking)
{
    return enqueue(command, num_events, wait_list, event_out, blocking, 0);
}

cl_int mosaic_enqueue_marker(cl_command_queue queue, cl_command_type type, bool is_barrier,
                             cl_uint num_events, const cl_event *wait_list, cl_event *event_out)
{
    cl_event cmd = mosaic_command_new(queue, type);
    if (!cmd)
        return CL_OUT_OF_HOST_MEMORY;
    int flags = (num_events == 0 ? AFTER_ALL_PENDING : 0) | (is_barrier ? BECOMES_BARRIER : 0);
    return enqueue(cmd, num_events, wait_list, event_out, false, flags);
}

cl_int mosaic_event_status(cl_event e)
{
    pthread_mutex_lock(&graph_lock);
    cl_int status = e->status;
    pthread_mutex_unlock(&graph_lock);
    return status;
}

/* ---- waiting -------------------------------------------------------------- */

enum { GPU_SPIN_FACTOR = 20 }; /* MOSAIC_SPIN_US times this for a GPU's command (docs/settings.md) */

static bool event_settled(const void *e)
{
    return __atomic_load_n(&((const struct _cl_event *)e)->settled, __ATOMIC_ACQUIRE);
}

static cl_int wait_on_event(cl_event e)
{
    /* A short command ends within microseconds: spin before sleeping on the
     * condition.  `settled` is stored after the final status and the
     * payload's cleanup (after_complete), so once the spin sees it the
     * results are visible and the lock is not needed: taking it would wait
     * for the completing thread's bookkeeping, a futex round trip each way.
     * A GPU's commands (a device that runs_in_submission_order) are waited
     * for longer: kernels of a tenth of a millisecond are common there, and
     * a sleeping host thread adds its wake-up to each. */
    uint64_t spin = (uint64_t)mosaic_settings()->spin_us * 1000u;
    if (e->queue && e->queue->device->runs_in_submission_order)
        spin *= GPU_SPIN_FACTOR;
    if (!mosaic_spin_until_for(event_settled, e, spin)) {
        pthread_mutex_lock(&graph_lock);
        __atomic_add_fetch(&e->sleepers, 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&e->settled, __ATOMIC_SEQ_CST))
            pthread_cond_wait(&e->completed, &graph_lock);
        __atomic_sub_fetch(&e->sleepers, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&graph_lock);
    }
    cl_int status = __atomic_load_n(&e->status, __ATOMIC_ACQUIRE);
    return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int mosaic_wait_for_events(cl_uint num_events, const cl_event *events)
{
    cl_int result = CL_SUCCESS;
    for (cl_uint i = 0; i < num_events; i++)
        if (wait_on_event(events[i]) != CL_SUCCESS)
            result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return result;
}

static bool queue_settled(const void *q)
{
    return atomic_load(&((struct _cl_command_queue *)q)->settling) == 0;
}

/* The queue's completed commands' cleanups are done: a command that
 * completed (its status final, so nothing left for clFinish to wait for in
 * the graph) may still be releasing its holds on the thread that completed
 * it.  Those end without anything from outside, so this wait is short even
 * when other threads' commands complete meanwhile. */
static void wait_for_cleanups(cl_command_queue q)
{
    if (!mosaic_spin_until(queue_settled, q))
        while (!queue_settled(q))
            sched_yield();
}

/* Rule 7: clFinish waits for the commands enqueued before it, and only for
 * them (commands other threads enqueue meanwhile may wait for something
 * the caller will do after clFinish returns).  It is an edge in the same
 * graph: a marker that waits for every pending command of the queue (or,
 * in an in-order queue, a wait for its last command).  This is the graph's
 * part: those commands reach their final status; wait_for_cleanups does the
 * rest. */
static void wait_for_earlier_commands(cl_command_queue q)
{
    /* In an in-order queue every earlier command ends before the last one
     * (the succession edges), so waiting for it is enough: no marker to
     * allocate, link, and complete on the worker while the host waits. */
    pthread_mutex_lock(&graph_lock);
    bool idle = q->num_pending == 0;
    bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event last = in_order ? q->last_command : NULL;
    if (last)
        mosaic_retain_internal(last);
    pthread_mutex_unlock(&graph_lock);
    if (last) {
        wait_on_event(last);
        mosaic_release_internal(last);
        return;
    }
    if (idle)
        return;
    cl_event marker;
    if (mosaic_enqueue_marker(q, CL_COMMAND_MARKER, false, 0, NULL, &marker) != CL_SUCCESS) {
        /* out of memory: wait until the queue is empty instead */
        pthread_mutex_lock(&graph_lock);
        while (q->num_pending > 0)
            pthread_cond_wait(&q->drained, &graph_lock);
        pthread_mutex_unlock(&graph_lock);
        return;
    }
    wait_on_event(marker);
    mosaic_release(marker);
}

cl_int mosaic_queue_finish(cl_command_queue q)
{
    wait_for_earlier_commands(q);
    wait_for_cleanups(q);
    return CL_SUCCESS;
}

cl_int mosaic_context_finish(cl_context context)
{
    /* The context's host queues with pending commands, each held so that it
     * outlives the wait; a device queue's commands are children of host
     * kernels, which end after them. */
    pthread_mutex_lock(&graph_lock);
    size_t n = 0;
    for (cl_command_queue q = busy_queues; q; q = q->busy_next)
        n += q->context == context && !(q->properties & CL_QUEUE_ON_DEVICE);
    cl_command_queue *queues = n ? malloc(n * sizeof *queues) : NULL;
    if (n && !queues) {
        pthread_mutex_unlock(&graph_lock);
        return CL_OUT_OF_HOST_MEMORY;
    }
    size_t k = 0;
    for (cl_command_queue q = busy_queues; q && k < n; q = q->busy_next)
        if (q->context == context && !(q->properties & CL_QUEUE_ON_DEVICE)) {
            mosaic_retain_internal(q);
            queues[k++] = q;
        }
    pthread_mutex_unlock(&graph_lock);
    for (size_t i = 0; i < k; i++) {
        mosaic_queue_finish(queues[i]);
        mosaic_release_internal(queues[i]);
    }
    free(queues);
    return CL_SUCCESS;
}

void mosaic_queue_set_properties(cl_command_queue q, cl_command_queue_properties properties, bool enable,
                                 cl_command_queue_properties *old_properties)
{
    mosaic_queue_finish(q);
    pthread_mutex_lock(&graph_lock);
    if (old_properties)
        *old_properties = q->properties;
    if (enable)
        q->properties |= properties;
    else
        q->properties &= ~properties;
    pthread_mutex_unlock(&graph_lock);
}

/* ---- user events and callbacks --------------------------------------------- */

cl_event mosaic_user_event_new(cl_context context)
{
    cl_event e = new_event(context, NULL, CL_COMMAND_USER, CL_SUBMITTED);
    if (!e)
        return NULL;
    e->waiting_for = 0;
    e->time_submit = e->time_queued;
    mosaic_retain_internal(e); /* the graph's hold until its status is set */
    return e;
}

cl_int mosaic_user_event_set_status(cl_event e, cl_int status)
{
    if (status > CL_COMPLETE)
        status = CL_COMPLETE;
    /* The check and the change under one lock: of two threads setting the
     * same user event at once, exactly one succeeds. */
    pthread_mutex_lock(&graph_lock);
    if (e->status <= CL_COMPLETE) {
        pthread_mutex_unlock(&graph_lock);
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the status of this user event was already set");
    }
    complete_locked(e, status);
    pthread_mutex_unlock(&graph_lock);
    after_complete(e);
    return CL_SUCCESS;
}

cl_int mosaic_event_add_callback(cl_event e, cl_int when,
                                 void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data)
{
    mosaic_callback *cb = mosaic_calloc(1, sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->fn = (void (*)(void))fn;
    cb->user_data = data;
    cb->when = when;
    pthread_mutex_lock(&graph_lock);
    mosaic_callback **link = &e->callbacks;
    while (*link)
        link = &(*link)->next;
    *link = cb;
    /* Already there?  Then it is due now. */
    if (e->status <= when)
        queue_callbacks_locked(e, e->status < 0 ? e->status : when);
    pthread_mutex_unlock(&graph_lock);
    return CL_SUCCESS;
}
