/*
 * The event engine (core/engine.c) on its own, linked with Mosaic's objects
 * but not through the API or the CPU device: a context, queues and a device
 * made here, whose ops have only `submit`.  The fake device records the
 * order in which commands reach it and completes each one from a thread of
 * its own, when a case says so (or at once, in auto mode), so every case
 * can look at the graph between two steps:
 *
 *   - wait-list edges, across queues, with several entries, on events
 *     already complete;
 *   - in-order succession (and a wait list on top of it), out-of-order
 *     queues with no edges;
 *   - markers (wait, never block later commands) and barriers (block them),
 *     with and without wait lists; neither reaches the device;
 *   - failure: a negative status of a user event or of the device reaches
 *     every wait-list dependant as CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 *     without submitting it, but not an in-order successor;
 *   - callbacks: on the callback thread, CL_SUBMITTED before CL_RUNNING
 *     before CL_COMPLETE whatever the order they were registered in, all
 *     with the error when the command fails;
 *   - host waits (clFinish, clWaitForEvents, blocking enqueues) return once
 *     the device thread completed what they wait for;
 *   - a dependant list that outgrows its inline room, and a chain of 20,000
 *     markers failing at once (no recursion per link);
 *   - a device that runs_in_submission_order gets an in-order queue's next
 *     command before the one before it completes.
 *
 *   usage: test_engine [case|--list]   (the cases: test_engine.list; none: all)
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_engine.list"
#include "test.h"
#include "core/device.h"
#include "core/engine.h"

/* ---- the fake device ----------------------------------------------------------- */

enum { MAX_COMMANDS = 256 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    cl_event submitted[MAX_COMMANDS]; /* in the order submit saw them */
    int num_submitted;
    bool automatic;                   /* complete every command as it arrives */
    unsigned delay_us;                /* ... after this long */
    struct job { cl_event command; cl_int status; } jobs[MAX_COMMANDS];
    int jobs_queued, jobs_done;
    pthread_t thread;
} dev = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER };

static void queue_job_locked(cl_event command, cl_int status)
{
    if (dev.jobs_queued == MAX_COMMANDS) {
        TEST_FAIL("more than %d jobs in one case", MAX_COMMANDS);
        return;
    }
    dev.jobs[dev.jobs_queued++] = (struct job){ command, status };
    pthread_cond_broadcast(&dev.changed);
}

/* ops->submit: called with no engine lock held, from the enqueuing thread
 * or the thread that completed the last dependency; must not block. */
static void fake_submit(cl_device_id device, cl_event command)
{
    pthread_mutex_lock(&dev.lock);
    if (dev.num_submitted < MAX_COMMANDS)
        dev.submitted[dev.num_submitted] = command;
    dev.num_submitted++;
    if (dev.automatic)
        queue_job_locked(command, CL_COMPLETE);
    pthread_cond_broadcast(&dev.changed);
    pthread_mutex_unlock(&dev.lock);
}

/* The device's thread: runs and completes the jobs in order. */
static void *device_thread(void *unused)
{
    pthread_mutex_lock(&dev.lock);
    for (;;) {
        while (dev.jobs_done == dev.jobs_queued)
            pthread_cond_wait(&dev.changed, &dev.lock);
        struct job j = dev.jobs[dev.jobs_done];
        unsigned delay = dev.delay_us;
        pthread_mutex_unlock(&dev.lock);
        if (delay)
            usleep(delay);
        mosaic_command_running(j.command);
        mosaic_command_complete(j.command, j.status);
        pthread_mutex_lock(&dev.lock);
        dev.jobs_done++;
        pthread_cond_broadcast(&dev.changed);
    }
    return NULL;
}

static mosaic_device_ops fake_ops = { .submit = fake_submit };
static struct _cl_device_id device;
static struct _cl_context context;

/* A fresh record for a case: nothing submitted; automatic or not. */
static void reset_device(bool automatic, unsigned delay_us)
{
    pthread_mutex_lock(&dev.lock);
    while (dev.jobs_done < dev.jobs_queued)
        pthread_cond_wait(&dev.changed, &dev.lock);
    dev.num_submitted = dev.jobs_queued = dev.jobs_done = 0;
    dev.automatic = automatic;
    dev.delay_us = delay_us;
    pthread_mutex_unlock(&dev.lock);
}

static int num_submitted(void)
{
    pthread_mutex_lock(&dev.lock);
    int n = dev.num_submitted;
    pthread_mutex_unlock(&dev.lock);
    return n;
}

static cl_event submitted(int i)
{
    pthread_mutex_lock(&dev.lock);
    cl_event e = i < dev.num_submitted && i < MAX_COMMANDS ? dev.submitted[i] : NULL;
    pthread_mutex_unlock(&dev.lock);
    return e;
}

static bool was_submitted(cl_event e)
{
    for (int i = 0; i < num_submitted(); i++)
        if (submitted(i) == e)
            return true;
    return false;
}

/* Completes `command` with `status` on the device's thread and returns once
 * that is done (the dependants it made ready are submitted by then). */
static void finish(cl_event command, cl_int status)
{
    pthread_mutex_lock(&dev.lock);
    queue_job_locked(command, status);
    int mine = dev.jobs_queued;
    while (dev.jobs_done < mine)
        pthread_cond_wait(&dev.changed, &dev.lock);
    pthread_mutex_unlock(&dev.lock);
}

/* ---- queues and commands ------------------------------------------------------- */

/* Queues live as long as the process: an event may drop its hold on its
 * queue on the callback thread after a case ends. */
static struct _cl_command_queue queue_storage[32];
static int num_queues;

static cl_command_queue new_queue(bool in_order)
{
    if (num_queues == 32)
        abort();
    cl_command_queue q = &queue_storage[num_queues++];
    mosaic_object_init(q, MOSAIC_QUEUE, NULL, NULL);
    q->context = &context;
    q->device = &device;
    q->properties = in_order ? 0 : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    pthread_cond_init(&q->drained, NULL);
    return q;
}

/* A command the device runs (a kernel: run NULL), with a user reference. */
static cl_event command(cl_command_queue q, cl_uint num_waits, const cl_event *waits)
{
    cl_event c = mosaic_command_new(q, CL_COMMAND_NDRANGE_KERNEL);
    CHECK(c != NULL);
    cl_event out = NULL;
    CHECK_ERR(mosaic_command_enqueue(c, num_waits, waits, &out, false), CL_SUCCESS);
    return out;
}

static cl_event marker(cl_command_queue q, bool is_barrier, cl_uint num_waits, const cl_event *waits)
{
    cl_event out = NULL;
    CHECK_ERR(mosaic_enqueue_marker(q, is_barrier ? CL_COMMAND_BARRIER : CL_COMMAND_MARKER, is_barrier, num_waits,
                                    waits, &out),
              CL_SUCCESS);
    return out;
}

static cl_event user_event(void)
{
    cl_event u = mosaic_user_event_new(&context);
    CHECK(u != NULL);
    return u;
}

static cl_int status(cl_event e) { return mosaic_event_status(e); }

static void release(cl_event e)
{
    if (e)
        CHECK(mosaic_release(e));
}

/* ---- callbacks ----------------------------------------------------------------- */

enum { MAX_CALLS = 64 };
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int n;
    struct call { cl_event event; cl_int status; int tag; pthread_t thread; } calls[MAX_CALLS];
} cb = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER };

static void CL_CALLBACK record_call(cl_event e, cl_int s, void *tag)
{
    pthread_mutex_lock(&cb.lock);
    if (cb.n < MAX_CALLS)
        cb.calls[cb.n] = (struct call){ e, s, (int)(intptr_t)tag, pthread_self() };
    cb.n++;
    pthread_cond_broadcast(&cb.changed);
    pthread_mutex_unlock(&cb.lock);
}

/* Waits (at most 10 s) until `n` callbacks ran in all. */
static bool wait_calls(int n)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&cb.lock);
    while (cb.n < n && pthread_cond_timedwait(&cb.changed, &cb.lock, &deadline) == 0)
        ;
    bool ok = cb.n >= n;
    pthread_mutex_unlock(&cb.lock);
    return ok;
}

static int calls_made(void)
{
    pthread_mutex_lock(&cb.lock);
    int n = cb.n;
    pthread_mutex_unlock(&cb.lock);
    return n;
}

static void reset_calls(void)
{
    pthread_mutex_lock(&cb.lock);
    cb.n = 0;
    pthread_mutex_unlock(&cb.lock);
}

/* ---- the cases ------------------------------------------------------------------ */

TEST(in_order_succession)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(true);
    cl_event c[3];
    for (int i = 0; i < 3; i++)
        c[i] = command(q, 0, NULL);
    /* only the first is ready; the others wait for their predecessor */
    CHECK(num_submitted() == 1 && submitted(0) == c[0], "%d submitted", num_submitted());
    CHECK_ERR(status(c[0]), CL_SUBMITTED);
    CHECK_ERR(status(c[1]), CL_QUEUED);
    CHECK_ERR(status(c[2]), CL_QUEUED);
    finish(c[0], CL_COMPLETE);
    CHECK_ERR(status(c[0]), CL_COMPLETE);
    CHECK(num_submitted() == 2 && submitted(1) == c[1], "%d submitted", num_submitted());
    CHECK_ERR(status(c[2]), CL_QUEUED);
    finish(c[1], CL_COMPLETE);
    CHECK(num_submitted() == 3 && submitted(2) == c[2], "%d submitted", num_submitted());
    finish(c[2], CL_COMPLETE);
    CHECK_ERR(status(c[2]), CL_COMPLETE);
    CHECK_ERR(mosaic_queue_finish(q), CL_SUCCESS); /* idle: returns at once */
    for (int i = 0; i < 3; i++)
        release(c[i]);
}

TEST(in_order_with_wait_list)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(true);
    cl_event u = user_event();
    cl_event a = command(q, 0, NULL);
    cl_event b = command(q, 1, &u); /* waits for a (in order) and for u */
    CHECK(num_submitted() == 1);
    finish(a, CL_COMPLETE);
    CHECK(num_submitted() == 1, "b ran before its wait list completed");
    CHECK_ERR(status(b), CL_QUEUED);
    CHECK_ERR(mosaic_user_event_set_status(u, CL_COMPLETE), CL_SUCCESS);
    CHECK(num_submitted() == 2 && submitted(1) == b);
    finish(b, CL_COMPLETE);
    release(a), release(b), release(u);
}

TEST(out_of_order_queue)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false);
    cl_event c[3];
    for (int i = 0; i < 3; i++)
        c[i] = command(q, 0, NULL);
    /* no edges: all three at once, in enqueue order */
    CHECK(num_submitted() == 3, "%d submitted", num_submitted());
    for (int i = 0; i < 3; i++)
        CHECK(submitted(i) == c[i]);
    for (int i = 2; i >= 0; i--) /* completions in any order */
        finish(c[i], CL_COMPLETE);
    CHECK(num_submitted() == 3);
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(status(c[i]), CL_COMPLETE);
        release(c[i]);
    }
}

TEST(wait_list_edges)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false), other = new_queue(false);
    cl_event u = user_event();
    cl_event a = command(q, 1, &u);     /* waits for a user event */
    cl_event b = command(other, 1, &a); /* waits for a command of another queue */
    cl_event free_one = command(q, 0, NULL);
    CHECK(num_submitted() == 1 && submitted(0) == free_one);
    CHECK_ERR(status(a), CL_QUEUED);
    CHECK_ERR(status(b), CL_QUEUED);
    CHECK_ERR(mosaic_user_event_set_status(u, CL_COMPLETE), CL_SUCCESS);
    CHECK(num_submitted() == 2 && submitted(1) == a);
    CHECK_ERR(status(b), CL_QUEUED);
    finish(a, CL_COMPLETE);
    CHECK(num_submitted() == 3 && submitted(2) == b);
    /* a wait list of events already complete: ready at once */
    cl_event done[] = { a, u };
    cl_event c = command(q, 2, done);
    CHECK(num_submitted() == 4 && submitted(3) == c);
    /* several entries: ready when the last completes */
    cl_event g[] = { user_event(), user_event(), b };
    cl_event d = command(other, 3, g);
    CHECK_ERR(mosaic_user_event_set_status(g[1], CL_COMPLETE), CL_SUCCESS);
    finish(b, CL_COMPLETE);
    CHECK(!was_submitted(d));
    CHECK_ERR(mosaic_user_event_set_status(g[0], CL_COMPLETE), CL_SUCCESS);
    CHECK(num_submitted() == 5 && submitted(4) == d);
    finish(c, CL_COMPLETE);
    finish(d, CL_COMPLETE);
    finish(free_one, CL_COMPLETE);
    release(a), release(b), release(c), release(d), release(free_one), release(u), release(g[0]), release(g[1]);
}

TEST(many_dependants)
{
    /* more dependants than the event's inline room (engine.c: INLINE_EDGES) */
    reset_device(false, 0);
    cl_command_queue q = new_queue(false);
    cl_event u = user_event();
    enum { N = 40 };
    cl_event c[N];
    for (int i = 0; i < N; i++)
        c[i] = command(q, 1, &u);
    CHECK(num_submitted() == 0);
    CHECK_ERR(mosaic_user_event_set_status(u, CL_COMPLETE), CL_SUCCESS);
    CHECK(num_submitted() == N, "%d of %d submitted", num_submitted(), N);
    for (int i = 0; i < N; i++) {
        CHECK(was_submitted(c[i]), "dependant %d", i);
        finish(c[i], CL_COMPLETE);
        release(c[i]);
    }
    release(u);
}

TEST(markers)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false);
    /* on an empty queue: complete at once */
    cl_event m0 = marker(q, false, 0, NULL);
    CHECK_ERR(status(m0), CL_COMPLETE);
    cl_event a = command(q, 0, NULL), b = command(q, 0, NULL);
    cl_event m = marker(q, false, 0, NULL); /* waits for a and b */
    cl_event c = command(q, 0, NULL);       /* not held back by a marker */
    CHECK(num_submitted() == 3 && submitted(2) == c);
    CHECK(status(m) > CL_COMPLETE);
    finish(a, CL_COMPLETE);
    CHECK(status(m) > CL_COMPLETE, "the marker completed before b");
    finish(b, CL_COMPLETE);
    CHECK_ERR(status(m), CL_COMPLETE);
    /* with a wait list: that list only */
    cl_event u = user_event();
    cl_event mw = marker(q, false, 1, &u); /* c is still pending */
    CHECK(status(mw) > CL_COMPLETE);
    CHECK_ERR(mosaic_user_event_set_status(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(status(mw), CL_COMPLETE);
    CHECK_ERR(status(c), CL_SUBMITTED);
    finish(c, CL_COMPLETE);
    /* markers never reach the device */
    CHECK(num_submitted() == 3);
    CHECK(!was_submitted(m) && !was_submitted(mw) && !was_submitted(m0));
    release(m0), release(a), release(b), release(m), release(c), release(u), release(mw);
}

TEST(barriers)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false);
    cl_event a = command(q, 0, NULL), b = command(q, 0, NULL);
    cl_event bar = marker(q, true, 0, NULL);
    cl_event c = command(q, 0, NULL); /* held back by the barrier */
    CHECK(num_submitted() == 2);
    finish(b, CL_COMPLETE);
    CHECK(status(bar) > CL_COMPLETE);
    CHECK(!was_submitted(c));
    finish(a, CL_COMPLETE);
    CHECK_ERR(status(bar), CL_COMPLETE);
    CHECK(num_submitted() == 3 && submitted(2) == c);
    finish(c, CL_COMPLETE);
    /* with a wait list: waits for that list, and holds back what follows */
    cl_event d = command(q, 0, NULL), e = command(q, 0, NULL);
    cl_event bar2 = marker(q, true, 1, &d);
    cl_event f = command(q, 0, NULL);
    CHECK(num_submitted() == 5 && !was_submitted(f));
    finish(d, CL_COMPLETE);
    CHECK_ERR(status(bar2), CL_COMPLETE);
    CHECK(was_submitted(f), "f waited for e, which is not in the barrier's wait list");
    CHECK_ERR(status(e), CL_SUBMITTED);
    finish(e, CL_COMPLETE);
    finish(f, CL_COMPLETE);
    CHECK(!was_submitted(bar) && !was_submitted(bar2));
    release(a), release(b), release(bar), release(c), release(d), release(e), release(bar2), release(f);
}

TEST(failure_propagation)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false), in_order = new_queue(true);
    /* a user event set to an error: its wait-list dependants, and theirs,
     * fail without reaching the device */
    cl_event u = user_event();
    cl_event a = command(q, 1, &u);
    cl_event b = command(q, 1, &a);
    CHECK_ERR(mosaic_user_event_set_status(u, -5), CL_SUCCESS);
    CHECK_ERR(status(u), -5);
    CHECK_ERR(status(a), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(status(b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(num_submitted() == 0);
    CHECK_ERR(mosaic_wait_for_events(1, &b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_event both[] = { a, u };
    CHECK_ERR(mosaic_wait_for_events(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* an error the device reports */
    cl_event c = command(q, 0, NULL);
    cl_event d = command(q, 1, &c);
    CHECK(num_submitted() == 1 && submitted(0) == c);
    finish(c, -9999);
    CHECK_ERR(status(c), -9999);
    CHECK_ERR(status(d), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(num_submitted() == 1);
    /* a wait list naming an event that already failed */
    cl_event e = command(q, 1, &c);
    CHECK_ERR(status(e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* a blocking enqueue reports it */
    cl_event blocked = mosaic_command_new(q, CL_COMMAND_NDRANGE_KERNEL);
    CHECK_ERR(mosaic_command_enqueue(blocked, 1, &c, NULL, true), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(num_submitted() == 1);
    /* the in-order successor of a failed command still runs */
    cl_event f = command(in_order, 0, NULL);
    cl_event g = command(in_order, 0, NULL);
    finish(f, -9999);
    CHECK(was_submitted(g), "the in-order successor of a failed command did not run");
    finish(g, CL_COMPLETE);
    CHECK_ERR(status(g), CL_COMPLETE);
    /* a marker whose wait list failed fails too; a barrier after a failure
     * (no wait list) does not */
    cl_event m = marker(q, false, 1, &c);
    CHECK_ERR(status(m), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_event bar = marker(in_order, true, 0, NULL);
    CHECK_ERR(status(bar), CL_COMPLETE);
    release(u), release(a), release(b), release(c), release(d), release(e), release(f), release(g), release(m);
    release(bar);
}

TEST(callbacks)
{
    reset_device(false, 0);
    reset_calls();
    cl_command_queue q = new_queue(false);
    cl_event u = user_event();
    cl_event a = command(q, 1, &u);
    /* registered last to first: they still run in the order of the states */
    CHECK_ERR(mosaic_event_add_callback(a, CL_COMPLETE, record_call, (void *)3), CL_SUCCESS);
    CHECK_ERR(mosaic_event_add_callback(a, CL_RUNNING, record_call, (void *)2), CL_SUCCESS);
    CHECK_ERR(mosaic_event_add_callback(a, CL_SUBMITTED, record_call, (void *)1), CL_SUCCESS);
    usleep(20000);
    CHECK(calls_made() == 0, "a callback ran before its state was reached");
    CHECK_ERR(mosaic_user_event_set_status(u, CL_COMPLETE), CL_SUCCESS);
    CHECK(wait_calls(1));
    finish(a, CL_COMPLETE);
    CHECK(wait_calls(3));
    CHECK(calls_made() == 3, "%d calls", calls_made());
    static const cl_int want[] = { CL_SUBMITTED, CL_RUNNING, CL_COMPLETE };
    for (int i = 0; i < 3 && i < cb.n; i++) {
        CHECK(cb.calls[i].event == a && cb.calls[i].tag == i + 1 && cb.calls[i].status == want[i],
              "call %d: tag %d, status %d", i, cb.calls[i].tag, cb.calls[i].status);
        CHECK(!pthread_equal(cb.calls[i].thread, pthread_self()), "call %d on the enqueuing thread", i);
        CHECK(pthread_equal(cb.calls[i].thread, cb.calls[0].thread), "callbacks on more than one thread");
    }
    /* registered after the state was reached: due at once */
    CHECK_ERR(mosaic_event_add_callback(a, CL_SUBMITTED, record_call, (void *)4), CL_SUCCESS);
    CHECK(wait_calls(4));
    CHECK(calls_made() == 4 && cb.calls[3].tag == 4 && cb.calls[3].status == CL_SUBMITTED);

    /* a command that fails: every callback, the CL_SUBMITTED one included,
     * gets the error */
    reset_calls();
    cl_event v = user_event();
    cl_event b = command(q, 1, &v);
    CHECK_ERR(mosaic_event_add_callback(b, CL_SUBMITTED, record_call, (void *)5), CL_SUCCESS);
    CHECK_ERR(mosaic_event_add_callback(b, CL_COMPLETE, record_call, (void *)6), CL_SUCCESS);
    CHECK_ERR(mosaic_event_add_callback(v, CL_COMPLETE, record_call, (void *)7), CL_SUCCESS);
    CHECK_ERR(mosaic_user_event_set_status(v, -42), CL_SUCCESS);
    CHECK(wait_calls(3));
    CHECK(calls_made() == 3, "%d calls", calls_made());
    for (int i = 0; i < 3 && i < cb.n; i++) {
        struct call *k = &cb.calls[i];
        if (k->tag == 7)
            CHECK(k->event == v && k->status == -42, "the user event's callback: status %d", k->status);
        else
            CHECK(k->event == b && k->status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  "callback %d: status %d", k->tag, k->status);
    }
    release(u), release(a), release(v), release(b);
}

static void *set_complete_later(void *user_event)
{
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    CHECK_ERR(mosaic_user_event_set_status(user_event, CL_COMPLETE), CL_SUCCESS);
    return NULL;
}

/* clFinish waits for every command enqueued before it, completed by the
 * device's thread; clWaitForEvents and blocking enqueues likewise. */
TEST(host_waits)
{
    reset_device(true, 2000); /* each command 2 ms on the device's thread */
    cl_command_queue q = new_queue(true), ooo = new_queue(false);
    enum { N = 20 };
    cl_event c[N];
    for (int i = 0; i < N; i++)
        c[i] = command(i % 2 ? q : ooo, 0, NULL);
    cl_event bar = marker(ooo, true, 0, NULL);
    cl_event after = command(ooo, 0, NULL);
    CHECK_ERR(mosaic_queue_finish(q), CL_SUCCESS);
    for (int i = 1; i < N; i += 2)
        CHECK_ERR(status(c[i]), CL_COMPLETE);
    CHECK_ERR(mosaic_wait_for_events(1, &after), CL_SUCCESS);
    CHECK_ERR(status(bar), CL_COMPLETE);
    for (int i = 0; i < N; i += 2)
        CHECK_ERR(status(c[i]), CL_COMPLETE);
    CHECK_ERR(mosaic_queue_finish(ooo), CL_SUCCESS);
    /* a blocking enqueue returns once its command completed */
    cl_event blocking = mosaic_command_new(q, CL_COMMAND_NDRANGE_KERNEL), out = NULL;
    CHECK_ERR(mosaic_command_enqueue(blocking, 0, NULL, &out, true), CL_SUCCESS);
    CHECK_ERR(status(out), CL_COMPLETE);
    /* a wait for a user event another thread sets */
    cl_event u = user_event();
    cl_event d = command(q, 1, &u);
    CHECK_ERR(status(d), CL_QUEUED);
    pthread_t setter;
    pthread_create(&setter, NULL, set_complete_later, u);
    CHECK_ERR(mosaic_wait_for_events(1, &d), CL_SUCCESS);
    pthread_join(setter, NULL);
    CHECK_ERR(mosaic_queue_finish(q), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        release(c[i]);
    release(bar), release(after), release(out), release(u), release(d);
}

/* A command's cleanup (releasing its payload's holds) runs on the thread
 * that completes it, after its status is final.  A wait, whether clFinish
 * of an in-order queue (which waits for the last command), clWaitForEvents
 * or a spin that sees the status, returns only once the cleanup is done:
 * a program that releases its buffers after clFinish must find them free. */
static atomic_int cleanups_done;

static void slow_cleanup(cl_event e)
{
    usleep(3000);
    atomic_fetch_add(&cleanups_done, 1);
}

static void *complete_after(void *command)
{
    struct timespec pause = { 0, 5 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    finish(command, CL_COMPLETE);
    return NULL;
}

static void *complete_now(void *command)
{
    finish(command, CL_COMPLETE);
    return NULL;
}

TEST(waits_after_cleanup)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(true);
    atomic_store(&cleanups_done, 0);
    /* completed at once (the waiter spins) or after 5 ms (it sleeps); waited
     * for by clFinish or by clWaitForEvents */
    for (int way = 0; way < 4; way++) {
        cl_event c = command(q, 0, NULL);
        c->cleanup = slow_cleanup;
        pthread_t completer;
        pthread_create(&completer, NULL, way % 2 ? complete_after : complete_now, c);
        CHECK_ERR(way < 2 ? mosaic_queue_finish(q) : mosaic_wait_for_events(1, &c), CL_SUCCESS);
        CHECK(atomic_load(&cleanups_done) == way + 1, "way %d: the wait returned before the cleanup", way);
        pthread_join(completer, NULL);
        release(c);
    }
    /* clFinish once the command's status is final but its cleanup still
     * runs (nothing left in the graph to wait for), of an in-order queue and
     * of an out-of-order one */
    for (int ooo = 0; ooo < 2; ooo++) {
        cl_command_queue fq = ooo ? new_queue(false) : q;
        cl_event c = command(fq, 0, NULL);
        c->cleanup = slow_cleanup;
        int before = atomic_load(&cleanups_done);
        pthread_t completer;
        pthread_create(&completer, NULL, complete_now, c);
        while (status(c) > CL_COMPLETE)
            sched_yield();
        CHECK_ERR(mosaic_queue_finish(fq), CL_SUCCESS);
        CHECK(atomic_load(&cleanups_done) == before + 1, "%s queue: clFinish returned before the cleanup of a "
              "completed command", ooo ? "an out-of-order" : "an in-order");
        pthread_join(completer, NULL);
        release(c);
    }
}

/* A chain of markers, each waiting for the one before, fails at once: the
 * engine starts ready commands in a loop, not one recursion per link. */
/* A device that runs its commands in the order submitted (a GPU's stream):
 * an in-order queue's next command reaches it while the one before still
 * runs, but not a marker (the engine's to complete), and not a command
 * whose wait list names an incomplete event; completion still comes in the
 * device's order. */
TEST(submission_order_device)
{
    reset_device(false, 0);
    device.runs_in_submission_order = true;
    cl_command_queue q = new_queue(true);
    cl_event a = command(q, 0, NULL), b = command(q, 0, NULL);
    CHECK(num_submitted() == 2 && submitted(0) == a && submitted(1) == b, "%d submitted", num_submitted());
    CHECK_ERR(status(a), CL_SUBMITTED);
    CHECK_ERR(status(b), CL_SUBMITTED);
    cl_event c = command(q, 1, &a); /* behind b on the device, but its wait list names a */
    cl_event m = marker(q, false, 0, NULL);
    CHECK(num_submitted() == 2, "%d submitted: c or the marker went before a completed", num_submitted());
    finish(a, CL_COMPLETE);
    CHECK(num_submitted() == 3 && submitted(2) == c, "%d submitted after a", num_submitted());
    CHECK_ERR(status(m), CL_QUEUED);
    finish(b, CL_COMPLETE);
    CHECK(status(m) > CL_COMPLETE, "the marker completed before c");
    finish(c, CL_COMPLETE);
    CHECK_ERR(mosaic_queue_finish(q), CL_SUCCESS);
    CHECK_ERR(status(m), CL_COMPLETE);
    device.runs_in_submission_order = false;
    release(a), release(b), release(c), release(m);
}

TEST(long_chain)
{
    reset_device(false, 0);
    cl_command_queue q = new_queue(false);
    enum { N = 20000 };
    cl_event u = user_event(), prev = u, first = NULL;
    for (int i = 0; i < N; i++) {
        cl_event m = marker(q, false, 1, &prev);
        if (i == 0)
            first = m;
        else if (prev != first)
            release(prev);
        prev = m;
    }
    CHECK(status(prev) > CL_COMPLETE);
    CHECK_ERR(mosaic_user_event_set_status(u, -1), CL_SUCCESS);
    CHECK_ERR(status(first), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(status(prev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(num_submitted() == 0);
    release(first), release(prev), release(u);
}

int main(int argc, char **argv)
{
    alarm(100); /* a deadlock fails the test (SIGALRM) rather than hanging it */
    mosaic_object_init(&context, MOSAIC_CONTEXT, NULL, NULL);
    mosaic_object_init(&device, MOSAIC_DEVICE, NULL, NULL);
    device.ops = &fake_ops;
    device.compute_units = 1;
    context.num_devices = 1;
    cl_device_id devices[] = { &device };
    context.devices = devices;
    pthread_create(&dev.thread, NULL, device_thread, NULL);
    test_run(argc, argv);
    return test_summary();
}
