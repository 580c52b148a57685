/*
 * The event engine under load: 8 host threads enqueue commands into 4 shared
 * queues (2 in-order, 2 out-of-order) at once, with random dependencies:
 * wait lists drawn from recent events of any thread and queue, markers,
 * barriers, user events (some set to a failure), buffer writes, and now and
 * then a clWaitForEvents, clFinish or clFlush.
 *
 * Every native kernel takes two ticks of one global atomic counter, when it
 * starts and when it ends.  Afterwards the test rebuilds the dependency
 * graph the OpenCL rules imply and checks, for every edge, that the
 * dependency ended before the dependant started (markers, barriers, writes
 * and failed commands are followed through to the kernels and user events
 * around them); that every command ran exactly once, or not at all when a
 * wait-list dependency failed; and that every completion callback ran once,
 * after its command, with the right status.  A watchdog fails the test if
 * it stops making progress (deadlock, lost command).  Leaks are found by
 * running it under valgrind or an ASan build (see test_stress.list).
 *
 * Commands of one queue get their sequence number under a per-queue mutex of
 * the test's own, around the enqueue call: that is how the test knows the
 * order the queue received them in (the rules are stated in that order).
 * Enqueues into different queues, completions, callbacks and waits all run
 * concurrently.
 *
 *   usage: test_stress [case|--list]   (the cases: test_stress.list; none: all)
 *   events_10k       10,000 commands, a watchdog of 60 s
 *   events_100k      100,000 commands, 300 s
 *   events_valgrind  10,000 commands, 600 s (for a run under valgrind)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_stress.list"
#include "test.h"

enum { NUM_THREADS = 8, NUM_QUEUES = 4, MAX_WAIT = 4, RING = 256, MAX_GATES = 2 };

enum kind { KERNEL = 1, MARKER, BARRIER, WRITE, USER };

typedef struct record {
    enum kind kind;
    int queue;           /* -1 for user events */
    int thread;
    int nwait;
    int wait[MAX_WAIT];  /* ids of the wait list */
    bool user_fails;     /* user events: set to a negative status */
    bool has_callback;
    atomic_ulong start, end;     /* ticks of the global counter (0: never ran) */
    atomic_int runs;
    atomic_int callbacks;
    atomic_int callback_status;
    atomic_ulong callback_tick;
} record;

static cl_context context;
static cl_device_id device;
static cl_command_queue queues[NUM_QUEUES];
static cl_mem buffer;
static const unsigned char write_source[64] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static record *records;
static int num_commands;
static atomic_int next_id;
static atomic_ulong ticks;           /* the global sequence counter */
static atomic_int callbacks_expected, callbacks_done;
static atomic_int api_errors;

static pthread_mutex_t queue_lock[NUM_QUEUES];
static int *queue_order[NUM_QUEUES]; /* ids in the order each queue received them */
static int queue_length[NUM_QUEUES];

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { cl_event event; int id; } ring[RING];
static unsigned ring_next;

static bool is_in_order(int q) { return q < 2; }

static uint64_t tick(void) { return atomic_fetch_add(&ticks, 1) + 1; }

/* ---- the commands ------------------------------------------------------------ */

typedef struct kernel_args {
    record *r;
    unsigned spin;
} kernel_args;

static void CL_CALLBACK run_kernel(void *p)
{
    kernel_args *a = p;
    atomic_store(&a->r->start, tick());
    atomic_fetch_add(&a->r->runs, 1);
    for (volatile unsigned i = 0; i < a->spin; i++)
        ;
    atomic_store(&a->r->end, tick());
}

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data)
{
    record *r = data;
    atomic_store(&r->callback_tick, tick());
    atomic_store(&r->callback_status, status);
    atomic_fetch_add(&r->callbacks, 1);
    atomic_fetch_add(&callbacks_done, 1);
}

#define API(call)                                                                     \
    do {                                                                              \
        cl_int api_err_ = (call);                                                     \
        if (api_err_ != CL_SUCCESS) {                                                 \
            atomic_fetch_add(&api_errors, 1);                                         \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, api_err_); \
        }                                                                             \
    } while (0)

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Picks up to n events from the ring (each retained). */
static int pick_wait_list(uint64_t *rng, int n, cl_event *events, int *ids)
{
    int got = 0;
    pthread_mutex_lock(&ring_lock);
    for (int i = 0; i < n; i++) {
        unsigned slot = (unsigned)(next_random(rng) % RING);
        if (!ring[slot].event)
            continue;
        events[got] = ring[slot].event;
        ids[got] = ring[slot].id;
        clRetainEvent(events[got]);
        got++;
    }
    pthread_mutex_unlock(&ring_lock);
    return got;
}

/* Publishes an event for other threads' wait lists (the ring takes the reference). */
static void publish(cl_event e, int id)
{
    pthread_mutex_lock(&ring_lock);
    unsigned slot = ring_next++ % RING;
    cl_event old = ring[slot].event;
    ring[slot].event = e;
    ring[slot].id = id;
    pthread_mutex_unlock(&ring_lock);
    if (old)
        clReleaseEvent(old);
}

typedef struct gate {
    cl_event event;
    int id;
    int countdown;
} gate;

static void set_gate(gate *g)
{
    record *r = &records[g->id];
    atomic_store(&r->end, tick());
    atomic_fetch_add(&r->runs, 1);
    API(clSetUserEventStatus(g->event, r->user_fails ? -77 : CL_COMPLETE));
    clReleaseEvent(g->event);
    g->event = NULL;
}

static void set_all_gates(gate *gates, int *num_gates)
{
    for (int i = 0; i < *num_gates; i++)
        set_gate(&gates[i]);
    *num_gates = 0;
}

static void *host_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(self + 1) + (uint64_t)num_commands;
    gate gates[MAX_GATES];
    int num_gates = 0;

    for (;;) {
        /* user events: created now, set a few commands later */
        for (int i = 0; i < num_gates;) {
            if (--gates[i].countdown <= 0) {
                set_gate(&gates[i]);
                gates[i] = gates[--num_gates];
            } else {
                i++;
            }
        }
        uint64_t roll = next_random(&rng) % 1000;
        if (roll < 10 && num_gates < MAX_GATES) {
            int id = atomic_fetch_add(&next_id, 1);
            if (id >= num_commands)
                break;
            record *r = &records[id];
            r->kind = USER;
            r->queue = -1;
            r->thread = self;
            r->user_fails = next_random(&rng) % 8 == 0;
            cl_int err;
            cl_event e = clCreateUserEvent(context, &err);
            API(err);
            clRetainEvent(e);
            publish(e, id);
            gates[num_gates++] = (gate){ e, id, 3 + (int)(next_random(&rng) % 30) };
            continue;
        }
        if (roll < 13) { /* wait for something recent */
            set_all_gates(gates, &num_gates);
            cl_event events[2];
            int ids[2];
            int n = pick_wait_list(&rng, 2, events, ids);
            if (n > 0) {
                cl_int err = clWaitForEvents((cl_uint)n, events);
                if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
                    API(err);
                for (int i = 0; i < n; i++)
                    clReleaseEvent(events[i]);
            }
            continue;
        }
        if (roll < 14) {
            set_all_gates(gates, &num_gates);
            API(clFinish(queues[next_random(&rng) % NUM_QUEUES]));
            continue;
        }
        if (roll < 24) {
            API(clFlush(queues[next_random(&rng) % NUM_QUEUES]));
            continue;
        }

        int q = (int)(next_random(&rng) % NUM_QUEUES);
        roll = next_random(&rng) % 100;
        enum kind kind = roll < 84 ? KERNEL : roll < 90 ? MARKER : roll < 95 ? BARRIER : WRITE;
        int want = 0;
        if (next_random(&rng) % 2)
            want = 1 + (int)(next_random(&rng) % MAX_WAIT);
        cl_event wait[MAX_WAIT];
        int wait_ids[MAX_WAIT];
        int nwait = pick_wait_list(&rng, want, wait, wait_ids);
        bool callback = kind == MARKER || kind == BARRIER || next_random(&rng) % 10 == 0;
        kernel_args args = { NULL, next_random(&rng) % 8 == 0 ? (unsigned)(next_random(&rng) % 4000) : 0 };

        pthread_mutex_lock(&queue_lock[q]);
        int id = atomic_fetch_add(&next_id, 1);
        if (id >= num_commands) {
            pthread_mutex_unlock(&queue_lock[q]);
            for (int i = 0; i < nwait; i++)
                clReleaseEvent(wait[i]);
            break;
        }
        record *r = &records[id];
        r->kind = kind;
        r->queue = q;
        r->thread = self;
        r->nwait = nwait;
        memcpy(r->wait, wait_ids, sizeof wait_ids);
        r->has_callback = callback;
        args.r = r;
        cl_event e = NULL;
        const cl_event *list = nwait ? wait : NULL;
        switch (kind) {
        case KERNEL:
            API(clEnqueueNativeKernel(queues[q], run_kernel, &args, sizeof args, 0, NULL, NULL,
                                      (cl_uint)nwait, list, &e));
            break;
        case MARKER:
            API(clEnqueueMarkerWithWaitList(queues[q], (cl_uint)nwait, list, &e));
            break;
        case BARRIER:
            API(clEnqueueBarrierWithWaitList(queues[q], (cl_uint)nwait, list, &e));
            break;
        default:
            API(clEnqueueWriteBuffer(queues[q], buffer, CL_FALSE, (size_t)(self * 64), 64, write_source,
                                     (cl_uint)nwait, list, &e));
            break;
        }
        queue_order[q][queue_length[q]++] = id;
        pthread_mutex_unlock(&queue_lock[q]);

        for (int i = 0; i < nwait; i++)
            clReleaseEvent(wait[i]);
        if (!e)
            continue;
        if (callback) {
            atomic_fetch_add(&callbacks_expected, 1);
            API(clSetEventCallback(e, CL_COMPLETE, on_complete, r));
        }
        if (next_random(&rng) % 4 == 0)
            publish(e, id);
        else
            clReleaseEvent(e);
    }
    set_all_gates(gates, &num_gates);
    return NULL;
}

/* Callbacks run one after another on one thread: once a callback queued
 * now has run, every earlier one has returned and dropped its reference. */
static atomic_int sentinel_ran;

static void CL_CALLBACK sentinel(cl_event e, cl_int status, void *data)
{
    atomic_store(&sentinel_ran, 1);
}

static void wait_for_callback_thread(void)
{
    cl_int err;
    cl_event e = clCreateUserEvent(context, &err);
    CHECK_ERR(clSetEventCallback(e, CL_COMPLETE, sentinel, NULL), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clReleaseEvent(e), CL_SUCCESS);
    while (!atomic_load(&sentinel_ran))
        usleep(1000);
}

/* ---- the watchdog ------------------------------------------------------------------ */

static pthread_mutex_t watchdog_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watchdog_cond = PTHREAD_COND_INITIALIZER;
static bool finished;
static int watchdog_seconds;

static void *watchdog(void *unused)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += watchdog_seconds;
    pthread_mutex_lock(&watchdog_lock);
    while (!finished)
        if (pthread_cond_timedwait(&watchdog_cond, &watchdog_lock, &deadline) != 0 && !finished) {
            fprintf(stderr, "watchdog: no result after %d s (deadlock or lost command): %d of %d commands "
                    "enqueued, %lu ticks, %d of %d callbacks\n", watchdog_seconds,
                    atomic_load(&next_id), num_commands, (unsigned long)atomic_load(&ticks),
                    atomic_load(&callbacks_done), atomic_load(&callbacks_expected));
            fflush(stderr);
            _exit(3);
        }
    pthread_mutex_unlock(&watchdog_lock);
    return NULL;
}

/* ---- the check -------------------------------------------------------------------------- */

static int violations;

static void violation(int id, const char *what, int other)
{
    if (violations++ < 20) {
        record *r = &records[id];
        fprintf(stderr, "command %d (kind %d, queue %d, thread %d): %s (other: %d)\n", id, r->kind, r->queue,
                r->thread, what, other);
    }
}

static void check_graph(void)
{
    uint64_t *end_bound = calloc((size_t)num_commands, sizeof *end_bound); /* when it ended, at the latest */
    bool *failed = calloc((size_t)num_commands, sizeof *failed);
    int *position = calloc((size_t)num_commands, sizeof *position);        /* index in its queue */
    int *last_barrier = calloc((size_t)num_commands, sizeof *last_barrier); /* position of the barrier before it */
    int *preds = malloc((size_t)num_commands * sizeof *preds);
    int kernels = 0, markers = 0, barriers = 0, writes = 0, users = 0, failures = 0, edges = 0;
    for (int q = 0; q < NUM_QUEUES; q++) {
        int barrier = -1;
        for (int i = 0; i < queue_length[q]; i++) {
            position[queue_order[q][i]] = i;
            last_barrier[queue_order[q][i]] = barrier;
            if (records[queue_order[q][i]].kind == BARRIER)
                barrier = i;
        }
    }

    for (int id = 0; id < num_commands; id++) {
        record *r = &records[id];
        if (r->kind == 0) {
            violation(id, "never enqueued", -1);
            continue;
        }
        /* The edges the rules give it. */
        int n = 0;
        bool wait_failed = false;
        for (int i = 0; i < r->nwait; i++) {
            preds[n++] = r->wait[i];
            wait_failed |= failed[r->wait[i]];
        }
        if (r->queue >= 0) {
            int q = r->queue, pos = position[id];
            if (is_in_order(q)) {
                if (pos > 0)
                    preds[n++] = queue_order[q][pos - 1];          /* rule 4 */
            } else {
                int barrier = last_barrier[id], from = 0;
                if (barrier >= 0) {
                    preds[n++] = queue_order[q][barrier];          /* rule 6: after the barrier */
                    from = barrier + 1;
                }
                if ((r->kind == MARKER || r->kind == BARRIER) && r->nwait == 0)
                    for (int i = from; i < pos; i++)               /* rules 5 and 6: before it */
                        preds[n++] = queue_order[q][i];
            }
        }
        edges += n;
        uint64_t ready = 0;
        for (int i = 0; i < n; i++) {
            if (preds[i] >= id)
                violation(id, "depends on a later command", preds[i]);
            else if (end_bound[preds[i]] > ready)
                ready = end_bound[preds[i]];
        }

        /* Only wait-list edges carry a failure. */
        failed[id] = wait_failed || (r->kind == USER && r->user_fails);
        failures += failed[id];
        int runs = atomic_load(&r->runs);
        uint64_t start = atomic_load(&r->start), end = atomic_load(&r->end);
        switch (r->kind) {
        case KERNEL:
            kernels++;
            if (runs != (failed[id] ? 0 : 1))
                violation(id, failed[id] ? "ran although a dependency failed" : "did not run exactly once", runs);
            if (runs == 1 && start <= ready)
                violation(id, "started before a dependency ended", (int)(ready - start));
            end_bound[id] = runs ? end : ready;
            break;
        case USER:
            users++;
            if (runs != 1)
                violation(id, "user event not set exactly once", runs);
            end_bound[id] = end;
            break;
        default:
            markers += r->kind == MARKER;
            barriers += r->kind == BARRIER;
            writes += r->kind == WRITE;
            end_bound[id] = ready; /* completes once its dependencies have */
            break;
        }
        if (r->has_callback) {
            int calls = atomic_load(&r->callbacks), status = atomic_load(&r->callback_status);
            if (calls != 1)
                violation(id, "completion callback not called exactly once", calls);
            else if (failed[id] ? status >= 0 : status != CL_COMPLETE)
                violation(id, "callback got the wrong status", status);
            else if (atomic_load(&r->callback_tick) <= end_bound[id])
                violation(id, "callback ran before the command completed", 0);
        }
    }
    printf("checked %d commands: %d kernels, %d markers, %d barriers, %d writes, %d user events; "
           "%d dependency edges, %d failed by propagation or by design, %d callbacks\n",
           num_commands, kernels, markers, barriers, writes, users, edges, failures,
           atomic_load(&callbacks_done));
    CHECK(violations == 0);
    free(end_bound);
    free(failed);
    free(position);
    free(last_barrier);
    free(preds);
}

/* The state of one run, as the process starts. */
static void reset(int commands, int seconds)
{
    num_commands = commands;
    watchdog_seconds = seconds;
    atomic_store(&next_id, 0);
    atomic_store(&ticks, 0);
    atomic_store(&callbacks_expected, 0);
    atomic_store(&callbacks_done, 0);
    atomic_store(&api_errors, 0);
    memset(queue_length, 0, sizeof queue_length);
    memset(ring, 0, sizeof ring);
    ring_next = 0;
    atomic_store(&sentinel_ran, 0);
    finished = false;
    violations = 0;
}

/* One run: `commands` commands, failed by the watchdog after `watchdog_s` seconds. */
static void stress(int commands, int watchdog_s)
{
    reset(commands, watchdog_s);
    pthread_t dog;
    pthread_create(&dog, NULL, watchdog, NULL);

    cl_platform_id platform;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL CPU device\n");
        CHECK(!"an OpenCL CPU device");
        exit(test_summary());
    }
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (int q = 0; q < NUM_QUEUES; q++) {
        cl_queue_properties props[] = { CL_QUEUE_PROPERTIES,
                                        is_in_order(q) ? 0 : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
        queues[q] = clCreateCommandQueueWithProperties(context, device, props, &err);
        CHECK_ERR(err, CL_SUCCESS);
        pthread_mutex_init(&queue_lock[q], NULL);
        queue_order[q] = malloc((size_t)num_commands * sizeof(int));
    }
    buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, NUM_THREADS * 64, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    records = calloc((size_t)num_commands, sizeof *records);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t threads[NUM_THREADS];
    for (int t = 0; t < NUM_THREADS; t++)
        pthread_create(&threads[t], NULL, host_thread, (void *)(intptr_t)t);
    for (int t = 0; t < NUM_THREADS; t++)
        pthread_join(threads[t], NULL);
    for (int q = 0; q < NUM_QUEUES; q++)
        CHECK_ERR(clFinish(queues[q]), CL_SUCCESS);
    /* Callbacks run on their own thread, after completion: wait for them. */
    while (atomic_load(&callbacks_done) < atomic_load(&callbacks_expected))
        usleep(1000);
    wait_for_callback_thread();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%d commands from %d threads into %d queues in %.3f s (%.2f us per command)\n", num_commands,
           NUM_THREADS, NUM_QUEUES, seconds, seconds * 1e6 / num_commands);

    CHECK(atomic_load(&api_errors) == 0);
    check_graph();

    for (int i = 0; i < RING; i++)
        if (ring[i].event)
            clReleaseEvent(ring[i].event);
    CHECK_ERR(clReleaseMemObject(buffer), CL_SUCCESS);
    for (int q = 0; q < NUM_QUEUES; q++) {
        CHECK_ERR(clReleaseCommandQueue(queues[q]), CL_SUCCESS);
        free(queue_order[q]);
    }
    CHECK_ERR(clReleaseContext(context), CL_SUCCESS);
    free(records);

    pthread_mutex_lock(&watchdog_lock);
    finished = true;
    pthread_cond_signal(&watchdog_cond);
    pthread_mutex_unlock(&watchdog_lock);
    pthread_join(dog, NULL);
}

TEST(events_10k) { stress(10000, 60); }
TEST(events_100k) { stress(100000, 300); }
TEST(events_valgrind) { stress(10000, 600); }

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
