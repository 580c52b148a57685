/*
 * Thread safety of the event engine: several host threads use shared and
 * separate queues at once (writes, reads, maps, native kernels, markers,
 * barriers, user events, callbacks, waits, clFinish, retain and release),
 * and every result is checked exactly.  Run through the ICD loader.
 *
 *   usage: test_threads [case|--list]   (the cases: test_threads.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clEnqueueMarker, clEnqueueBarrier */
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_threads.list"
#include "test.h"
#include "cl_test.h"

enum { THREADS = 8 };

static cl_context context;
static cl_device_id device;

#define OOO CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE

static cl_command_queue new_queue(cl_command_queue_properties props)
{
    cl_queue_properties list[] = { CL_QUEUE_PROPERTIES, props, 0 };
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

static cl_mem new_buffer(size_t size)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return b;
}

/* CHECK is not thread-safe (two plain counters): worker threads count their
 * own failures in an atomic, checked once they are joined. */
static atomic_int thread_failures;
#define TCHECK(cond)                                                                      \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            if (atomic_fetch_add(&thread_failures, 1) < 20)                               \
                fprintf(stderr, "%s:%d: check failed in a thread: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                 \
    } while (0)

static void run_threads(void *(*fn)(void *), int n)
{
    pthread_t t[64];
    atomic_store(&thread_failures, 0);
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    CHECK(atomic_load(&thread_failures) == 0);
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* ---- 1. one in-order queue shared by every thread ------------------------------------- */

/* Each thread folds its own sequence of values into its own slot with a
 * non-commutative step, so the final value (and every value read back in
 * between) proves that thread's commands ran in its order; an in-flight
 * counter proves that no two commands of the queue ever overlapped. */
static cl_command_queue shared_queue;
static cl_mem shared_buffer;
static atomic_int in_flight, overlaps;

typedef struct fold_args {
    uint32_t *slots; /* replaced by the buffer's address */
    int slot;
    uint32_t value;
} fold_args;

static void CL_CALLBACK fold(void *p)
{
    fold_args *a = p;
    if (atomic_fetch_add(&in_flight, 1) != 0)
        atomic_fetch_add(&overlaps, 1);
    a->slots[a->slot] = a->slots[a->slot] * 3u + a->value;
    atomic_fetch_sub(&in_flight, 1);
}

static uint32_t fold_step(uint32_t x, uint32_t v) { return x * 3u + v; }

static void *shared_in_order_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    uint32_t expect = 0;
    /* start from a known value, written by a non-blocking write whose source stays put */
    static const uint32_t zero = 0;
    TCHECK(clEnqueueWriteBuffer(shared_queue, shared_buffer, CL_FALSE, (size_t)self * 4, 4, &zero, 0, NULL, NULL) ==
           CL_SUCCESS);
    for (int i = 0; i < 400; i++) {
        fold_args a = { NULL, self, (uint32_t)(i * 7 + self) };
        const void *loc = &a.slots;
        TCHECK(clEnqueueNativeKernel(shared_queue, fold, &a, sizeof a, 1, &shared_buffer, &loc, 0, NULL, NULL) ==
               CL_SUCCESS);
        expect = fold_step(expect, a.value);
        if (i % 50 == 49) {
            uint32_t got = 0;
            TCHECK(clEnqueueReadBuffer(shared_queue, shared_buffer, CL_TRUE, (size_t)self * 4, 4, &got, 0, NULL,
                                       NULL) == CL_SUCCESS);
            TCHECK(got == expect);
        }
    }
    uint32_t got = 0;
    cl_event read;
    TCHECK(clEnqueueReadBuffer(shared_queue, shared_buffer, CL_FALSE, (size_t)self * 4, 4, &got, 0, NULL, &read) ==
           CL_SUCCESS);
    TCHECK(clWaitForEvents(1, &read) == CL_SUCCESS);
    TCHECK(got == expect);
    clReleaseEvent(read);
    return NULL;
}

TEST(shared_in_order_queue)
{
    shared_queue = new_queue(0);
    shared_buffer = new_buffer(THREADS * 4);
    atomic_store(&overlaps, 0);
    run_threads(shared_in_order_thread, THREADS);
    CHECK_ERR(clFinish(shared_queue), CL_SUCCESS);
    CHECK(atomic_load(&overlaps) == 0);
    clReleaseMemObject(shared_buffer);
    clReleaseCommandQueue(shared_queue);
}

/* ---- 2. a queue per thread: writes, kernels, reads, maps --------------------------------- */

enum { WORDS = 256 };

typedef struct add_args {
    int *data; /* replaced by the buffer's address */
    int amount;
} add_args;

static void CL_CALLBACK add_to_all(void *p)
{
    add_args *a = p;
    for (int i = 0; i < WORDS; i++)
        a->data[i] += a->amount;
}

static void *separate_queue_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    bool ooo = self % 2;
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, ooo ? OOO : 0, 0 };
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, props, &err);
    TCHECK(err == CL_SUCCESS);
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, WORDS * sizeof(int), NULL, &err);
    TCHECK(err == CL_SUCCESS);
    int source[WORDS], result[WORDS];
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < WORDS; i++)
            source[i] = self * 100000 + round * 1000 + i;
        /* a non-blocking write, a kernel after it, a non-blocking read after that */
        cl_event wrote, added, read;
        TCHECK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof source, source, 0, NULL, &wrote) == CL_SUCCESS);
        add_args a = { NULL, round + 1 };
        const void *loc = &a.data;
        TCHECK(clEnqueueNativeKernel(q, add_to_all, &a, sizeof a, 1, &buf, &loc, ooo ? 1 : 0, ooo ? &wrote : NULL,
                                     &added) == CL_SUCCESS);
        TCHECK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof result, result, ooo ? 1 : 0, ooo ? &added : NULL,
                                   &read) == CL_SUCCESS);
        TCHECK(clWaitForEvents(1, &read) == CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < WORDS; i++)
            bad += result[i] != source[i] + round + 1;
        TCHECK(bad == 0);
        /* a blocking map sees the same bytes; what the host writes through it
         * is seen by a blocking read after the unmap */
        int *mapped = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof result,
                                         ooo ? 1 : 0, ooo ? &read : NULL, NULL, &err);
        TCHECK(err == CL_SUCCESS && mapped);
        if (mapped) {
            TCHECK(mapped[0] == source[0] + round + 1 && mapped[WORDS - 1] == source[WORDS - 1] + round + 1);
            mapped[5] = -round;
            cl_event unmapped;
            TCHECK(clEnqueueUnmapMemObject(q, buf, mapped, 0, NULL, &unmapped) == CL_SUCCESS);
            int five = 0;
            TCHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 5 * sizeof(int), sizeof five, &five, 1, &unmapped, NULL) ==
                   CL_SUCCESS);
            TCHECK(five == -round);
            clReleaseEvent(unmapped);
        }
        clReleaseEvent(wrote);
        clReleaseEvent(added);
        clReleaseEvent(read);
    }
    TCHECK(clFinish(q) == CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    return NULL;
}

TEST(separate_queues)
{
    run_threads(separate_queue_thread, THREADS);
}

/* ---- 3. one out-of-order queue: markers and barriers from every thread ------------------- */

static cl_command_queue ooo_queue;
static atomic_int per_thread_count[THREADS];

typedef struct count_args {
    int thread;
    unsigned spin;
    int *seen; /* for the checker: where to record the count */
} count_args;

static void CL_CALLBACK count_up(void *p)
{
    count_args *a = p;
    for (volatile unsigned i = 0; i < a->spin; i++)
        ;
    atomic_fetch_add(&per_thread_count[a->thread], 1);
}

static void CL_CALLBACK record_count(void *p)
{
    count_args *a = p;
    *a->seen = atomic_load(&per_thread_count[a->thread]);
}

enum { BURST = 12, ROUNDS = 40 };

static void *markers_barriers_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    unsigned rng = (unsigned)self * 7919u + 1;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < BURST; i++) {
            count_args a = { self, next_random(&rng) % 20000, NULL };
            TCHECK(clEnqueueNativeKernel(ooo_queue, count_up, &a, sizeof a, 0, NULL, NULL, 0, NULL, NULL) ==
                   CL_SUCCESS);
        }
        int want = BURST * (round + 1);
        switch (round % 3) {
        case 0: { /* rule 5: a marker without a wait list waits for all earlier commands */
            cl_event marker;
            TCHECK(clEnqueueMarkerWithWaitList(ooo_queue, 0, NULL, &marker) == CL_SUCCESS);
            TCHECK(clWaitForEvents(1, &marker) == CL_SUCCESS);
            TCHECK(atomic_load(&per_thread_count[self]) == want);
            clReleaseEvent(marker);
            break;
        }
        case 1: { /* rule 6: a barrier holds back what comes after it */
            int seen = -1;
            count_args a = { self, 0, &seen };
            cl_event checked;
            TCHECK(clEnqueueBarrierWithWaitList(ooo_queue, 0, NULL, NULL) == CL_SUCCESS);
            TCHECK(clEnqueueNativeKernel(ooo_queue, record_count, &a, sizeof a, 0, NULL, NULL, 0, NULL, &checked) ==
                   CL_SUCCESS);
            TCHECK(clWaitForEvents(1, &checked) == CL_SUCCESS);
            TCHECK(seen == want);
            clReleaseEvent(checked);
            break;
        }
        default: { /* the 1.x names of the same */
            cl_event marker;
            TCHECK(clEnqueueBarrier(ooo_queue) == CL_SUCCESS);
            TCHECK(clEnqueueMarker(ooo_queue, &marker) == CL_SUCCESS);
            TCHECK(clWaitForEvents(1, &marker) == CL_SUCCESS);
            TCHECK(atomic_load(&per_thread_count[self]) == want);
            clReleaseEvent(marker);
            break;
        }
        }
    }
    return NULL;
}

TEST(markers_and_barriers)
{
    ooo_queue = new_queue(OOO);
    for (int i = 0; i < THREADS; i++)
        atomic_store(&per_thread_count[i], 0);
    run_threads(markers_barriers_thread, THREADS);
    CHECK_ERR(clFinish(ooo_queue), CL_SUCCESS);
    for (int i = 0; i < THREADS; i++)
        CHECK(atomic_load(&per_thread_count[i]) == BURST * ROUNDS);
    clReleaseCommandQueue(ooo_queue);
}

/* ---- 4. user events set by other threads, racing setters, callbacks ---------------------- */

enum { GATES = 24, RACERS = 4, GATED_PER_THREAD = 30 };

static cl_event gates[GATES];
static atomic_int gate_open[GATES];   /* set just before the gate's status is set */
static atomic_int set_wins[GATES], set_refusals[GATES];
static atomic_int gate_callbacks[GATES], gate_callback_bad;
static cl_command_queue gate_queues[2];
static pthread_barrier_t gate_barrier;
static atomic_int gated_runs, gated_too_early;
static cl_event gated_events[THREADS][GATED_PER_THREAD];
static int gated_first_gate[THREADS][GATED_PER_THREAD], gated_second_gate[THREADS][GATED_PER_THREAD];

static bool gate_fails(int g) { return g % 6 == 5; }

typedef struct gated_args {
    int gate1, gate2;
} gated_args;

static void CL_CALLBACK gated_kernel(void *p)
{
    gated_args *a = p;
    if (!atomic_load(&gate_open[a->gate1]) || !atomic_load(&gate_open[a->gate2]))
        atomic_fetch_add(&gated_too_early, 1);
    atomic_fetch_add(&gated_runs, 1);
}

static void CL_CALLBACK on_gate(cl_event e, cl_int status, void *data)
{
    int g = (int)(intptr_t)data;
    if (e != gates[g] || status != (gate_fails(g) ? -5 : CL_COMPLETE))
        atomic_fetch_add(&gate_callback_bad, 1);
    atomic_fetch_add(&gate_callbacks[g], 1);
}

static void *user_event_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    unsigned rng = (unsigned)self * 104729u + 3;
    /* every thread enqueues commands gated on two user events, on both
     * queues, and registers callbacks on every gate */
    for (int i = 0; i < GATED_PER_THREAD; i++) {
        gated_args a = { (int)(next_random(&rng) % GATES), (int)(next_random(&rng) % GATES) };
        cl_event wait[2] = { gates[a.gate1], gates[a.gate2] };
        gated_first_gate[self][i] = a.gate1;
        gated_second_gate[self][i] = a.gate2;
        TCHECK(clEnqueueNativeKernel(gate_queues[i % 2], gated_kernel, &a, sizeof a, 0, NULL, NULL, 2, wait,
                                     &gated_events[self][i]) == CL_SUCCESS);
    }
    for (int g = 0; g < GATES; g++)
        TCHECK(clSetEventCallback(gates[g], CL_COMPLETE, on_gate, (void *)(intptr_t)g) == CL_SUCCESS);
    pthread_barrier_wait(&gate_barrier);
    /* RACERS threads set each gate at once: exactly one of them may succeed */
    for (int g = 0; g < GATES; g++) {
        if ((g + self) % (THREADS / RACERS) != 0)
            continue;
        atomic_store(&gate_open[g], 1);
        cl_int err = clSetUserEventStatus(gates[g], gate_fails(g) ? -5 : CL_COMPLETE);
        if (err == CL_SUCCESS)
            atomic_fetch_add(&set_wins[g], 1);
        else if (err == CL_INVALID_OPERATION)
            atomic_fetch_add(&set_refusals[g], 1);
    }
    return NULL;
}

TEST(user_events)
{
    gate_queues[0] = new_queue(0);
    gate_queues[1] = new_queue(OOO);
    cl_int err;
    for (int g = 0; g < GATES; g++) {
        gates[g] = clCreateUserEvent(context, &err);
        CHECK_ERR(err, CL_SUCCESS);
    }
    pthread_barrier_init(&gate_barrier, NULL, THREADS);
    run_threads(user_event_thread, THREADS);
    pthread_barrier_destroy(&gate_barrier);
    CHECK_ERR(clFinish(gate_queues[0]), CL_SUCCESS);
    CHECK_ERR(clFinish(gate_queues[1]), CL_SUCCESS);

    int expected_runs = 0, wrong_status = 0;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < GATED_PER_THREAD; i++) {
            bool fails = gate_fails(gated_first_gate[t][i]) || gate_fails(gated_second_gate[t][i]);
            expected_runs += !fails;
            cl_int status;
            clGetEventInfo(gated_events[t][i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
            wrong_status += status != (fails ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE);
            clReleaseEvent(gated_events[t][i]);
        }
    CHECK(wrong_status == 0);
    CHECK(atomic_load(&gated_runs) == expected_runs);
    CHECK(atomic_load(&gated_too_early) == 0);
    /* callbacks run on the callback thread, after completion */
    for (int i = 0; i < 400; i++) {
        int done = 0;
        for (int g = 0; g < GATES; g++)
            done += atomic_load(&gate_callbacks[g]);
        if (done == GATES * THREADS)
            break;
        usleep(5000);
    }
    for (int g = 0; g < GATES; g++) {
        CHECK(atomic_load(&set_wins[g]) == 1);
        CHECK(atomic_load(&set_refusals[g]) == RACERS - 1);
        CHECK(atomic_load(&gate_callbacks[g]) == THREADS);
        cl_int status;
        CHECK_ERR(clGetEventInfo(gates[g], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                  CL_SUCCESS);
        CHECK(status == (gate_fails(g) ? -5 : CL_COMPLETE));
        clReleaseEvent(gates[g]);
    }
    CHECK(atomic_load(&gate_callback_bad) == 0);
    clReleaseCommandQueue(gate_queues[0]);
    clReleaseCommandQueue(gate_queues[1]);
}

/* ---- 5. callbacks registered from many threads on one event ------------------------------ */

enum { CALLBACKS_PER_THREAD = 150 };

static cl_event watched, watched_gate;
static atomic_int callback_calls[3], callback_wrong;

static void CL_CALLBACK on_status(cl_event e, cl_int status, void *data)
{
    int want = (int)(intptr_t)data;
    if (e != watched || status != want)
        atomic_fetch_add(&callback_wrong, 1);
    atomic_fetch_add(&callback_calls[want], 1);
}

static void *callback_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    for (int i = 0; i < CALLBACKS_PER_THREAD; i++) {
        cl_int when = (i + self) % 3 == 0 ? CL_SUBMITTED : (i + self) % 3 == 1 ? CL_RUNNING : CL_COMPLETE;
        TCHECK(clSetEventCallback(watched, when, on_status, (void *)(intptr_t)when) == CL_SUCCESS);
        if (self == 0 && i == CALLBACKS_PER_THREAD / 2)
            TCHECK(clSetUserEventStatus(watched_gate, CL_COMPLETE) == CL_SUCCESS); /* half way: it runs */
    }
    return NULL;
}

static void CL_CALLBACK nothing(void *p) { (void)p; }

TEST(callbacks)
{
    cl_command_queue q = new_queue(0);
    cl_int err;
    watched_gate = clCreateUserEvent(context, &err);
    int dummy = 0;
    CHECK_ERR(clEnqueueNativeKernel(q, nothing, &dummy, sizeof dummy, 0, NULL, NULL, 1, &watched_gate, &watched),
              CL_SUCCESS);
    run_threads(callback_thread, THREADS);
    CHECK_ERR(clWaitForEvents(1, &watched), CL_SUCCESS);
    int total = THREADS * CALLBACKS_PER_THREAD;
    for (int i = 0; i < 400; i++) {
        if (atomic_load(&callback_calls[0]) + atomic_load(&callback_calls[1]) + atomic_load(&callback_calls[2]) ==
            total)
            break;
        usleep(5000);
    }
    int want[3] = { 0, 0, 0 };
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < CALLBACKS_PER_THREAD; i++)
            want[(i + t) % 3 == 0 ? CL_SUBMITTED : (i + t) % 3 == 1 ? CL_RUNNING : CL_COMPLETE]++;
    for (int s = 0; s < 3; s++)
        CHECK(atomic_load(&callback_calls[s]) == want[s]);
    CHECK(atomic_load(&callback_wrong) == 0);
    clReleaseEvent(watched);
    clReleaseEvent(watched_gate);
    clReleaseCommandQueue(q);
}

/* ---- 6. retain and release from many threads --------------------------------------------- */

static cl_event shared_event;
static cl_command_queue rr_queue;

static void *retain_release_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    for (int i = 0; i < 20000; i++) {
        TCHECK(clRetainEvent(shared_event) == CL_SUCCESS);
        TCHECK(clRetainCommandQueue(rr_queue) == CL_SUCCESS);
        TCHECK(clRetainContext(context) == CL_SUCCESS);
        if (i % 1000 == self) { /* now and then an event of its own, released by this thread */
            cl_event e;
            TCHECK(clEnqueueMarkerWithWaitList(rr_queue, 1, &shared_event, &e) == CL_SUCCESS);
            TCHECK(clReleaseEvent(e) == CL_SUCCESS);
        }
        TCHECK(clReleaseContext(context) == CL_SUCCESS);
        TCHECK(clReleaseCommandQueue(rr_queue) == CL_SUCCESS);
        TCHECK(clReleaseEvent(shared_event) == CL_SUCCESS);
    }
    return NULL;
}

TEST(retain_release)
{
    rr_queue = new_queue(OOO);
    cl_int err;
    shared_event = clCreateUserEvent(context, &err);
    run_threads(retain_release_thread, THREADS);
    cl_uint count = 0;
    CHECK_ERR(clGetEventInfo(shared_event, CL_EVENT_REFERENCE_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
    CHECK(count == 1);
    CHECK_ERR(clGetCommandQueueInfo(rr_queue, CL_QUEUE_REFERENCE_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
    CHECK(count == 1);
    CHECK_ERR(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
    CHECK(count == 1);
    CHECK_ERR(clSetUserEventStatus(shared_event, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clFinish(rr_queue), CL_SUCCESS);
    CHECK_ERR(clReleaseEvent(shared_event), CL_SUCCESS);
    CHECK_ERR(clReleaseCommandQueue(rr_queue), CL_SUCCESS);
}

/* ---- 7. clFinish and clWaitForEvents while others enqueue --------------------------------- */

enum { ENQUEUERS = 3, PER_ENQUEUER = 3000 };

static cl_command_queue finish_queues[2];
static atomic_int enqueued[ENQUEUERS];                  /* enqueue calls that returned */
static atomic_char done_flags[ENQUEUERS][PER_ENQUEUER]; /* set by the command */
static atomic_int finishes_checked;
static cl_event recent[ENQUEUERS];
static pthread_mutex_t recent_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct flag_args {
    int enqueuer, index;
} flag_args;

static void CL_CALLBACK set_flag(void *p)
{
    flag_args *a = p;
    atomic_store(&done_flags[a->enqueuer][a->index], 1);
}

static void *finish_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    if (self < ENQUEUERS) {
        for (int i = 0; i < PER_ENQUEUER; i++) {
            flag_args a = { self, i };
            cl_event e;
            TCHECK(clEnqueueNativeKernel(finish_queues[i % 2], set_flag, &a, sizeof a, 0, NULL, NULL, 0, NULL, &e) ==
                   CL_SUCCESS);
            atomic_store(&enqueued[self], i + 1);
            pthread_mutex_lock(&recent_lock);
            cl_event old = recent[self];
            recent[self] = e;
            pthread_mutex_unlock(&recent_lock);
            if (old)
                clReleaseEvent(old);
        }
        return NULL;
    }
    /* the others: clFinish must cover every command enqueued before it */
    for (int round = 0; round < 60; round++) {
        int snapshot[ENQUEUERS];
        for (int e = 0; e < ENQUEUERS; e++)
            snapshot[e] = atomic_load(&enqueued[e]);
        if (round % 2 == 0) {
            TCHECK(clFinish(finish_queues[0]) == CL_SUCCESS);
            TCHECK(clFinish(finish_queues[1]) == CL_SUCCESS);
            for (int e = 0; e < ENQUEUERS; e++)
                for (int i = 0; i < snapshot[e]; i++)
                    if (!atomic_load(&done_flags[e][i])) {
                        TCHECK(!"a command enqueued before clFinish had not run");
                        break;
                    }
        } else {
            /* a wait for the most recent events covers at least those */
            cl_event events[ENQUEUERS];
            int n = 0;
            pthread_mutex_lock(&recent_lock);
            for (int e = 0; e < ENQUEUERS; e++)
                if (recent[e]) {
                    events[n++] = recent[e];
                    clRetainEvent(recent[e]);
                }
            pthread_mutex_unlock(&recent_lock);
            if (n) {
                TCHECK(clWaitForEvents((cl_uint)n, events) == CL_SUCCESS);
                for (int i = 0; i < n; i++) {
                    cl_int status;
                    TCHECK(clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                          NULL) == CL_SUCCESS);
                    TCHECK(status == CL_COMPLETE);
                    clReleaseEvent(events[i]);
                }
            }
        }
        atomic_fetch_add(&finishes_checked, 1);
    }
    return NULL;
}

TEST(finish_and_wait)
{
    finish_queues[0] = new_queue(0);
    finish_queues[1] = new_queue(OOO);
    run_threads(finish_thread, THREADS);
    CHECK_ERR(clFinish(finish_queues[0]), CL_SUCCESS);
    CHECK_ERR(clFinish(finish_queues[1]), CL_SUCCESS);
    int missing = 0;
    for (int e = 0; e < ENQUEUERS; e++) {
        for (int i = 0; i < PER_ENQUEUER; i++)
            missing += !atomic_load(&done_flags[e][i]);
        if (recent[e])
            clReleaseEvent(recent[e]);
    }
    CHECK(missing == 0);
    CHECK(atomic_load(&finishes_checked) == (THREADS - ENQUEUERS) * 60);
    clReleaseCommandQueue(finish_queues[0]);
    clReleaseCommandQueue(finish_queues[1]);
}

/* ---- 8. clFinish waits for earlier commands only ------------------------------------------- */

/* While one thread is inside clFinish, another enqueues into the same queue
 * a command gated on a user event that the first thread sets only after
 * clFinish returns.  Rule 7 covers the commands enqueued before clFinish:
 * waiting for the later one too would never end. */
static cl_command_queue late_queue;
static cl_event late_gate, late_event;

typedef struct sleep_args {
    int ms;
    atomic_int *flag;
} sleep_args;

static void CL_CALLBACK sleep_then_flag(void *p)
{
    sleep_args *a = p;
    usleep((useconds_t)a->ms * 1000);
    atomic_store(a->flag, 1);
}

static atomic_int slow_done, late_done, finishing;

static void *late_enqueuer(void *arg)
{
    while (!atomic_load(&finishing))
        usleep(1000);
    usleep(40000); /* the other thread is in clFinish by now (the slow command takes 150 ms) */
    sleep_args a = { 0, &late_done };
    TCHECK(clEnqueueNativeKernel(late_queue, sleep_then_flag, &a, sizeof a, 0, NULL, NULL, 1, &late_gate,
                                 &late_event) == CL_SUCCESS);
    return NULL;
}

TEST(finish_only_earlier)
{
    for (int mode = 0; mode < 2; mode++) {
        late_queue = new_queue(mode ? OOO : 0);
        cl_int err;
        late_gate = clCreateUserEvent(context, &err);
        atomic_store(&slow_done, 0);
        atomic_store(&late_done, 0);
        sleep_args a = { 150, &slow_done };
        CHECK_ERR(clEnqueueNativeKernel(late_queue, sleep_then_flag, &a, sizeof a, 0, NULL, NULL, 0, NULL, NULL),
                  CL_SUCCESS);
        atomic_store(&finishing, 0);
        pthread_t t;
        pthread_create(&t, NULL, late_enqueuer, NULL);
        atomic_store(&finishing, 1);
        CHECK_ERR(clFinish(late_queue), CL_SUCCESS); /* would hang if it waited for the late command */
        CHECK(atomic_load(&slow_done) == 1);
        CHECK(atomic_load(&late_done) == 0);
        pthread_join(t, NULL);
        CHECK_ERR(clSetUserEventStatus(late_gate, CL_COMPLETE), CL_SUCCESS);
        CHECK_ERR(clFinish(late_queue), CL_SUCCESS);
        CHECK(atomic_load(&late_done) == 1);
        clReleaseEvent(late_event);
        clReleaseEvent(late_gate);
        clReleaseCommandQueue(late_queue);
    }
}

/* ---- 9. many threads racing to set the same user events ------------------------------------ */

enum { RACE_EVENTS = 400, RACE_THREADS = 4 };

static cl_event race_events[RACE_EVENTS];
static atomic_int race_wins[RACE_EVENTS];
static pthread_barrier_t race_barrier;

static void *race_thread(void *arg)
{
    for (int i = 0; i < RACE_EVENTS; i++) {
        if (i % 50 == 0)
            pthread_barrier_wait(&race_barrier); /* keep the threads close together */
        cl_int err = clSetUserEventStatus(race_events[i], CL_COMPLETE);
        if (err == CL_SUCCESS)
            atomic_fetch_add(&race_wins[i], 1);
        else
            TCHECK(err == CL_INVALID_OPERATION);
    }
    return NULL;
}

TEST(set_status_race)
{
    cl_command_queue q = new_queue(OOO);
    cl_event markers[RACE_EVENTS];
    cl_int err;
    for (int i = 0; i < RACE_EVENTS; i++) {
        race_events[i] = clCreateUserEvent(context, &err);
        /* each with a dependant, so a second completion would corrupt its count */
        CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &race_events[i], &markers[i]), CL_SUCCESS);
    }
    pthread_barrier_init(&race_barrier, NULL, RACE_THREADS);
    run_threads(race_thread, RACE_THREADS);
    pthread_barrier_destroy(&race_barrier);
    CHECK_ERR(clWaitForEvents(RACE_EVENTS, markers), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < RACE_EVENTS; i++) {
        bad += atomic_load(&race_wins[i]) != 1;
        clReleaseEvent(markers[i]);
        clReleaseEvent(race_events[i]);
    }
    CHECK(bad == 0);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    clReleaseCommandQueue(q);
}


int main(int argc, char **argv)
{
    alarm(100); /* a deadlock fails the test (SIGALRM) rather than hanging it */
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    test_run(argc, argv);
    clReleaseContext(context);
    return test_summary();
}

/* ---- 10. one barrier kernel launched from every thread ------------------------------------- */
/* Each thread has its own queue and kernel object of one program and
 * launches a barrier kernel (each group reverses its values in __local
 * memory) again and again, threads with different local sizes: six sizes
 * race for the kernel's four builds for one local size, and launches run
 * while another thread builds (src/compiler/pipeline/one_size.c).  Every result is
 * checked. */
static const char reverse_source[] =
    "kernel void reverse(global const int *in, global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[n - 1 - l] * 3 + (int)n;\n"
    "}\n";

static cl_program reverse_program;
enum { REVERSE_N = 4096, REVERSE_LAUNCHES = 8 };
static int reverse_in[REVERSE_N]; /* written before the threads start */

static void *reverse_thread(void *arg)
{
    int self = (int)(intptr_t)arg;
    static const size_t locals[] = {8, 16, 32, 64, 128, 256};
    size_t local = locals[self % 6], global = REVERSE_N;
    cl_int err;
    cl_command_queue q = new_queue(0);
    cl_kernel k = clCreateKernel(reverse_program, "reverse", &err);
    TCHECK(err == CL_SUCCESS);
    const int *in = reverse_in;
    int *out = malloc(sizeof reverse_in);
    cl_mem bin = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof reverse_in, reverse_in, &err);
    cl_mem bout = new_buffer(sizeof reverse_in);
    TCHECK(clSetKernelArg(k, 0, sizeof bin, &bin) == CL_SUCCESS);
    TCHECK(clSetKernelArg(k, 1, sizeof bout, &bout) == CL_SUCCESS);
    TCHECK(clSetKernelArg(k, 2, local * sizeof(int), NULL) == CL_SUCCESS);
    for (int launch = 0; launch < REVERSE_LAUNCHES; launch++) {
        TCHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS);
        TCHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof reverse_in, out, 0, NULL, NULL) == CL_SUCCESS);
        int bad = 0;
        for (size_t i = 0; i < REVERSE_N; i++) {
            size_t g = i / local, l = i % local;
            bad += out[i] != in[g * local + local - 1 - l] * 3 + (int)local;
        }
        TCHECK(bad == 0);
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    free(out);
    return NULL;
}

TEST(barrier_kernel_from_threads)
{
    cl_int err;
    for (int i = 0; i < REVERSE_N; i++)
        reverse_in[i] = i * 7 % 1000;
    const char *src = reverse_source;
    reverse_program = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(reverse_program, 1, &device, "", NULL, NULL), CL_SUCCESS);
    run_threads(reverse_thread, THREADS);
    clReleaseProgram(reverse_program);
}
