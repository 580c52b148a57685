/*
 * ordering_rules: in which order commands run, shown and checked one rule at a time.
 *
 * OpenCL orders commands through events (OpenCL 3.0 API specification,
 * "Execution Model: Synchronization" and "Memory Ordering Rules"): a queue's
 * own order (in-order queues only), wait lists, user events set by the host,
 * markers, barriers, callbacks, and, inside kernels, the flags of
 * enqueue_kernel.  Each rule below runs a few commands and checks what the rule
 * promises: the order in which they ran (a log the commands write) and which of
 * them must still be waiting at a given moment.
 *
 * The commands are tiny kernels, "stamp": one work-item appends its number to a
 * log (an atomic counter, then the entries in the order the kernels ran).  User
 * events hold commands back until the program sets them, so that "must not have
 * started yet" can be checked: a command that must wait is given 50 ms to
 * (wrongly) run; a command that may run is waited for at most 10 s, so a bug
 * fails instead of hanging.
 *
 * Prints one line per rule ("ok" or "FAILED" and what differed), then
 * "ordering_rules: OK (...)" and exits 0, or exits 1; exits 77 when there is no
 * device with out-of-order queues and device-side enqueue.
 *
 *   usage: ordering_rules
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, clock_gettime */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MUST_WAIT_MS 50   /* how long a command that must wait is watched */
#define DEADLINE_S 10.0   /* how long a command that may run is waited for */
#define LOG_SIZE 64
#define LCG_STEPS 100000  /* the work of each value in the WAIT_WORK_GROUP rule */

static const char stamp_source[] =
    "/* log[0] counts the entries; log[1], log[2], ... are the ids in the order the kernels ran */\n"
    "kernel void stamp(global int *log, int id)\n"
    "{\n"
    "    int slot = atomic_inc(&log[0]);\n"
    "    log[1 + slot] = id;\n"
    "}\n";

/* Kernels that enqueue kernels (OpenCL C 2.0 blocks: ^{ ... } is the child, and
 * it captures the variables it uses by value). */
static const char device_enqueue_source[] =
    "/* CLK_ENQUEUE_FLAGS_WAIT_KERNEL: the child starts after every work-group of the parent\n"
    "   has ended, so it sees every value the parent wrote, even the ones written after\n"
    "   the enqueue. */\n"
    "kernel void parent_waits_kernel(global int *values, global long *result)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i == 0) {\n"
    "        size_t n = get_global_size(0);\n"
    "        result[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n"
    "                                   ^{ long sum = 0;\n"
    "                                      for (size_t k = 0; k < n; k++)\n"
    "                                          sum += values[k];\n"
    "                                      result[0] = sum; });\n"
    "    }\n"
    "    values[i] = (int)i + 1;   /* after the enqueue: the flag makes the child wait for it */\n"
    "}\n"
    "/* CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP: each work-group's child starts after that work-group\n"
    "   has ended (other work-groups may still run), so it sees what its group wrote.  Each value\n"
    "   takes a little work (steps of a linear congruential generator), so that a child started\n"
    "   too early would find some of them still missing. */\n"
    "int value_of(uint i)\n"
    "{\n"
    "    uint x = i;\n"
    "    for (int step = 0; step < LCG_STEPS; step++)\n"
    "        x = x * 1103515245u + 12345u;\n"
    "    return (int)(x >> 8);\n"
    "}\n"
    "kernel void parent_waits_work_group(global int *values, global long *sums, global int *statuses)\n"
    "{\n"
    "    size_t g = get_group_id(0), n = get_local_size(0);\n"
    "    global int *mine = values + g * n;\n"
    "    if (get_local_id(0) == 0)\n"
    "        statuses[g] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(1),\n"
    "                                     ^{ long sum = 0;\n"
    "                                        for (size_t k = 0; k < n; k++)\n"
    "                                            sum += mine[k];\n"
    "                                        sums[g] = sum; });\n"
    "    values[get_global_id(0)] = value_of(get_global_id(0));\n"
    "}\n";

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cl_int err_ = (call);                                                                                \
        if (err_ != CL_SUCCESS) {                                                                            \
            fprintf(stderr, "ordering_rules: %s failed with error %d (line %d)\n", #call, err_, __LINE__);  \
            exit(EXIT_FAILURE);                                                                              \
        }                                                                                                    \
    } while (0)

static cl_device_id device;
static cl_context context;
static cl_kernel stamp_kernel;
static cl_mem log_buf;
static cl_command_queue in_order, in_order_2, out_of_order, reader;

/* ---- small helpers ------------------------------------------------------------------ */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* What went wrong in the rule being checked, printed under its line. */
static char failures[4096];

static void fail(const char *format, ...)
{
    size_t used = strlen(failures);
    va_list args;
    va_start(args, format);
    snprintf(failures + used, sizeof failures - used, "      ");
    used = strlen(failures);
    vsnprintf(failures + used, sizeof failures - used, format, args);
    va_end(args);
    used = strlen(failures);
    snprintf(failures + used, sizeof failures - used, "\n");
}

static cl_int status_of(cl_event event)
{
    cl_int status = CL_QUEUED;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

/* Waits until the command of `event` has completed (or failed), at most DEADLINE_S. */
static int finished_in_time(cl_event event)
{
    double end = now() + DEADLINE_S;
    while (status_of(event) > CL_COMPLETE) {
        if (now() > end)
            return 0;
        sleep_ms(1);
    }
    return 1;
}

/* Gives a command that must wait MUST_WAIT_MS to start, and says whether it still waits. */
static int still_waiting(cl_event event)
{
    sleep_ms(MUST_WAIT_MS);
    return status_of(event) > CL_COMPLETE;
}

static cl_event new_user_event(void)
{
    cl_int err;
    cl_event event = clCreateUserEvent(context, &err);
    CHECK(err);
    return event;
}

/* Enqueues "stamp id" on `queue` after the events of the wait list; returns its event. */
static cl_event stamp(cl_command_queue queue, int id, cl_uint n_wait, const cl_event *wait)
{
    cl_event event;
    size_t one = 1;
    /* the arguments are taken when the kernel is enqueued: the next call may change them */
    CHECK(clSetKernelArg(stamp_kernel, 0, sizeof log_buf, &log_buf));
    CHECK(clSetKernelArg(stamp_kernel, 1, sizeof id, &id));
    CHECK(clEnqueueNDRangeKernel(queue, stamp_kernel, 1, NULL, &one, NULL, n_wait, wait, &event));
    return event;
}

static void clear_log(void)
{
    cl_int zero = 0;
    CHECK(clEnqueueFillBuffer(reader, log_buf, &zero, sizeof zero, 0, LOG_SIZE * sizeof(cl_int), 0, NULL, NULL));
    CHECK(clFinish(reader));
}

/* Compares the log with the ids expected, in order (call it once those commands are done). */
static void expect_log(int count, const int *ids)
{
    cl_int log[LOG_SIZE];
    CHECK(clEnqueueReadBuffer(reader, log_buf, CL_TRUE, 0, sizeof log, log, 0, NULL, NULL));
    int same = log[0] == count;
    for (int i = 0; same && i < count; i++)
        same = log[1 + i] == ids[i];
    if (!same) {
        char want[256] = "", got[256] = "";
        for (int i = 0; i < count; i++)
            snprintf(want + strlen(want), sizeof want - strlen(want), " %d", ids[i]);
        for (int i = 0; i < log[0] && i < LOG_SIZE - 1; i++)
            snprintf(got + strlen(got), sizeof got - strlen(got), " %d", log[1 + i]);
        fail("the kernels ran in the order [%s ], expected [%s ]", got, want);
    }
}

static void release(int n, cl_event *events)
{
    for (int i = 0; i < n; i++)
        clReleaseEvent(events[i]);
}

/* ---- the rules ---------------------------------------------------------------------- */

/* An in-order queue runs each command after the one enqueued before it has completed. */
static void in_order_queue(void)
{
    int ids[8];
    for (int i = 0; i < 8; i++) {
        ids[i] = i;
        cl_event e = stamp(in_order, i, 0, NULL);
        clReleaseEvent(e);
    }
    CHECK(clFinish(in_order)); /* returns when every command enqueued before it has completed */
    expect_log(8, ids);
}

/* A command whose wait list holds a user event starts once the host sets it to CL_COMPLETE. */
static void user_event(void)
{
    cl_event gate = new_user_event();
    cl_event k = stamp(in_order, 1, 1, &gate);
    if (!still_waiting(k))
        fail("the kernel ran before its user event was set");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    if (!finished_in_time(k))
        fail("the kernel did not run within %.0f s of its user event being set", DEADLINE_S);
    expect_log(1, (int[]){1});
    release(2, (cl_event[]){gate, k});
}

/* On an out-of-order queue only wait lists, markers and barriers order commands:
 * the specification lets B run before A, which waits for a user event; Mosaic does. */
static void out_of_order_queue(void)
{
    cl_event gate = new_user_event();
    cl_event a = stamp(out_of_order, 1, 1, &gate);
    cl_event b = stamp(out_of_order, 2, 0, NULL);
    if (!finished_in_time(b))
        fail("B, with no wait list, waited for A enqueued before it");
    if (status_of(a) <= CL_COMPLETE)
        fail("A ran before its user event was set");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    if (!finished_in_time(a))
        fail("A did not run after its user event was set");
    expect_log(2, (int[]){2, 1});
    release(3, (cl_event[]){gate, a, b});
}

/* A command runs after every event of its wait list, whichever queue they come from. */
static void wait_list_across_queues(void)
{
    cl_event gate = new_user_event();
    cl_event a = stamp(out_of_order, 1, 1, &gate);
    cl_event b = stamp(in_order_2, 2, 1, &a); /* another queue, waiting for A */
    if (!still_waiting(b))
        fail("B ran before A, the event of its wait list");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    if (!finished_in_time(b))
        fail("B did not run after A");
    expect_log(2, (int[]){1, 2});
    release(3, (cl_event[]){gate, a, b});
}

/* clEnqueueMarkerWithWaitList with an empty list: the marker completes once every
 * command enqueued before it on its queue has (on an out-of-order queue too). */
static void marker_without_list(void)
{
    cl_event gate1 = new_user_event(), gate2 = new_user_event(), marker;
    cl_event a1 = stamp(out_of_order, 1, 1, &gate1);
    cl_event a2 = stamp(out_of_order, 2, 1, &gate2);
    CHECK(clEnqueueMarkerWithWaitList(out_of_order, 0, NULL, &marker));
    CHECK(clSetUserEventStatus(gate1, CL_COMPLETE));
    if (!finished_in_time(a1))
        fail("A1 did not run after its user event was set");
    if (!still_waiting(marker))
        fail("the marker completed while A2, enqueued before it, had not run");
    CHECK(clSetUserEventStatus(gate2, CL_COMPLETE));
    if (!finished_in_time(marker))
        fail("the marker did not complete after A1 and A2");
    if (status_of(a2) != CL_COMPLETE)
        fail("the marker completed before A2");
    expect_log(2, (int[]){1, 2});
    release(5, (cl_event[]){gate1, gate2, a1, a2, marker});
}

/* A marker with a wait list waits for those events only, not for the rest of its queue. */
static void marker_with_list(void)
{
    cl_event gate1 = new_user_event(), gate2 = new_user_event(), marker;
    cl_event a1 = stamp(out_of_order, 1, 1, &gate1);
    cl_event a2 = stamp(out_of_order, 2, 1, &gate2);
    CHECK(clEnqueueMarkerWithWaitList(out_of_order, 1, &a1, &marker));
    if (!still_waiting(marker))
        fail("the marker completed before A1, the event of its wait list");
    CHECK(clSetUserEventStatus(gate1, CL_COMPLETE));
    if (!finished_in_time(marker))
        fail("the marker waited for more than A1");
    if (status_of(a2) <= CL_COMPLETE)
        fail("A2 ran before its user event was set");
    CHECK(clSetUserEventStatus(gate2, CL_COMPLETE));
    if (!finished_in_time(a2))
        fail("A2 did not run after its user event was set");
    expect_log(2, (int[]){1, 2});
    release(5, (cl_event[]){gate1, gate2, a1, a2, marker});
}

/* clEnqueueBarrierWithWaitList with an empty list: every command enqueued after the
 * barrier waits for every command enqueued before it, even with no wait list. */
static void barrier_without_list(void)
{
    cl_event gate = new_user_event(), barrier;
    cl_event a = stamp(out_of_order, 1, 1, &gate);
    CHECK(clEnqueueBarrierWithWaitList(out_of_order, 0, NULL, &barrier));
    cl_event d = stamp(out_of_order, 2, 0, NULL);
    if (!still_waiting(d))
        fail("D, enqueued after the barrier, ran before A, enqueued before it");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    if (!finished_in_time(d))
        fail("D did not run after A");
    expect_log(2, (int[]){1, 2});
    release(4, (cl_event[]){gate, a, barrier, d});
}

/* A barrier with a wait list: the commands after it wait for the barrier, and the
 * barrier for the events of its list only. */
static void barrier_with_list(void)
{
    cl_event gate1 = new_user_event(), gate2 = new_user_event(), barrier;
    cl_event a = stamp(out_of_order, 1, 1, &gate1);
    cl_event b = stamp(out_of_order, 2, 1, &gate2);
    CHECK(clEnqueueBarrierWithWaitList(out_of_order, 1, &a, &barrier));
    cl_event e = stamp(out_of_order, 3, 0, NULL);
    if (!still_waiting(e))
        fail("E, enqueued after the barrier, ran before A, the event of the barrier's list");
    CHECK(clSetUserEventStatus(gate1, CL_COMPLETE));
    if (!finished_in_time(e))
        fail("E waited for more than the barrier's list");
    CHECK(clSetUserEventStatus(gate2, CL_COMPLETE));
    if (!finished_in_time(b))
        fail("B did not run after its user event was set");
    expect_log(3, (int[]){1, 3, 2});
    release(6, (cl_event[]){gate1, gate2, a, b, barrier, e});
}

/* What the callbacks saw: the status each was registered for, in the order they ran. */
struct calls {
    atomic_int taken; /* slots handed out */
    atomic_int count; /* slots written */
    cl_int registered_for[8];
    cl_int status[8];
};
struct registration {
    struct calls *calls;
    cl_int status;
};

static void CL_CALLBACK on_status(cl_event event, cl_int status, void *data)
{
    struct registration *r = data;
    /* a slot is taken first; the count says "written" (release) only after the slot is */
    int slot = atomic_fetch_add(&r->calls->taken, 1) % 8;
    r->calls->registered_for[slot] = r->status;
    r->calls->status[slot] = status;
    atomic_fetch_add_explicit(&r->calls->count, 1, memory_order_release);
    (void)event;
}

/* Waits until `n` callbacks have run, at most DEADLINE_S; returns how many did. */
static int wait_for_calls(struct calls *calls, int n)
{
    double end = now() + DEADLINE_S;
    int seen;
    while ((seen = atomic_load_explicit(&calls->count, memory_order_acquire)) < n && now() < end)
        sleep_ms(1);
    return seen;
}

/* clSetEventCallback: a callback runs once its event has reached the status it was
 * registered for, and is given that status.  The specification leaves the order of
 * one event's callbacks open; Mosaic runs them in the order of the statuses
 * (docs/events.md), which this checks too: they are registered the other way round. */
static void callbacks(void)
{
    static struct calls calls; /* static: a late callback must still find it */
    static struct registration reg[3];
    const cl_int statuses[3] = {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED};
    cl_event gate = new_user_event();
    cl_event k = stamp(in_order, 1, 1, &gate);
    for (int i = 0; i < 3; i++) {
        reg[i] = (struct registration){&calls, statuses[i]};
        CHECK(clSetEventCallback(k, statuses[i], on_status, &reg[i]));
    }
    if (!still_waiting(k))
        fail("the kernel ran before its user event was set");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    if (!finished_in_time(k))
        fail("the kernel did not run after its user event was set");
    int seen = wait_for_calls(&calls, 3);
    if (seen != 3)
        fail("%d callback(s) ran, expected 3", seen);
    const cl_int order[3] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
    for (int i = 0; i < seen && i < 3; i++) {
        if (calls.registered_for[i] != order[i])
            fail("callback %d was the one for status %d, expected %d", i + 1, calls.registered_for[i], order[i]);
        if (calls.status[i] != calls.registered_for[i])
            fail("the callback for status %d was given %d", calls.registered_for[i], calls.status[i]);
    }
    expect_log(1, (int[]){1});
    release(2, (cl_event[]){gate, k});
}

/* A user event set to a negative status: every command waiting for it fails
 * without running, and so does every command waiting for those, on any queue; a
 * host wait for one of them returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
static void failure_propagation(void)
{
    static struct calls calls;
    static struct registration reg;
    cl_event gate = new_user_event(), marker;
    cl_event k1 = stamp(out_of_order, 1, 1, &gate);
    cl_event k2 = stamp(in_order_2, 2, 1, &k1);
    CHECK(clEnqueueMarkerWithWaitList(out_of_order, 1, &k2, &marker));
    reg = (struct registration){&calls, CL_COMPLETE};
    CHECK(clSetEventCallback(k1, CL_COMPLETE, on_status, &reg));
    CHECK(clSetUserEventStatus(gate, -1)); /* any negative value: the command "failed" */
    cl_int waited = clWaitForEvents(1, &marker);
    if (waited != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        fail("clWaitForEvents on the marker returned %d, expected %d", waited,
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    const char *names[3] = {"K1", "K2", "the marker"};
    cl_event events[3] = {k1, k2, marker};
    for (int i = 0; i < 3; i++)
        if (status_of(events[i]) >= 0)
            fail("%s ended with status %d, expected a negative one", names[i], status_of(events[i]));
    if (wait_for_calls(&calls, 1) != 1)
        fail("the CL_COMPLETE callback of K1 did not run");
    else if (calls.status[0] >= 0)
        fail("the CL_COMPLETE callback of K1 was given %d, expected a negative status", calls.status[0]);
    expect_log(0, NULL); /* neither kernel ran */
    release(4, (cl_event[]){gate, k1, k2, marker});
}

/* Device-side enqueue: the two flags that make a child kernel wait. */
static cl_program device_program;

static cl_mem zeroed_buffer(size_t size)
{
    cl_int err;
    void *zeros = calloc(1, size);
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, zeros, &err);
    free(zeros);
    CHECK(err);
    return buf;
}

/* A parent's event completes only after its children have, so waiting for the
 * parent on the host is enough to read what the children wrote. */
static void run_parent(cl_kernel kernel, size_t global, size_t local)
{
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(in_order, kernel, 1, NULL, &global, &local, 0, NULL, &done));
    CHECK(clWaitForEvents(1, &done));
    clReleaseEvent(done);
}

static void wait_kernel_flag(void)
{
    const size_t global = 4096, local = 64;
    cl_int err;
    cl_kernel kernel = clCreateKernel(device_program, "parent_waits_kernel", &err);
    CHECK(err);
    cl_mem values = zeroed_buffer(global * sizeof(cl_int)), result = zeroed_buffer(2 * sizeof(cl_long));
    CHECK(clSetKernelArg(kernel, 0, sizeof values, &values));
    CHECK(clSetKernelArg(kernel, 1, sizeof result, &result));
    run_parent(kernel, global, local);
    cl_long got[2];
    CHECK(clEnqueueReadBuffer(in_order, result, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    long long want = (long long)global * (global + 1) / 2; /* 1 + 2 + ... + global */
    if (got[1] != 0)
        fail("enqueue_kernel returned %lld, expected CLK_SUCCESS (0)", (long long)got[1]);
    else if (got[0] != want)
        fail("the child's sum of the parent's %zu values is %lld, expected %lld: it did not see them all",
             global, (long long)got[0], want);
    clReleaseMemObject(values), clReleaseMemObject(result);
    clReleaseKernel(kernel);
}

/* The host's copy of the kernel's value_of: the same generator, in the same 32-bit arithmetic. */
static int value_of(cl_uint i)
{
    cl_uint x = i;
    for (int step = 0; step < LCG_STEPS; step++)
        x = x * 1103515245u + 12345u;
    return (int)(x >> 8);
}

static void wait_work_group_flag(void)
{
    enum { GLOBAL = 1024, LOCAL = 64, GROUPS = GLOBAL / LOCAL };
    cl_int err;
    cl_kernel kernel = clCreateKernel(device_program, "parent_waits_work_group", &err);
    CHECK(err);
    cl_mem values = zeroed_buffer(GLOBAL * sizeof(cl_int)), sums = zeroed_buffer(GROUPS * sizeof(cl_long));
    cl_mem statuses = zeroed_buffer(GROUPS * sizeof(cl_int));
    CHECK(clSetKernelArg(kernel, 0, sizeof values, &values));
    CHECK(clSetKernelArg(kernel, 1, sizeof sums, &sums));
    CHECK(clSetKernelArg(kernel, 2, sizeof statuses, &statuses));
    run_parent(kernel, GLOBAL, LOCAL);
    cl_long got[GROUPS];
    cl_int status[GROUPS];
    CHECK(clEnqueueReadBuffer(in_order, sums, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(in_order, statuses, CL_TRUE, 0, sizeof status, status, 0, NULL, NULL));
    int wrong = 0;
    for (int g = 0; g < GROUPS; g++) {
        long long want = 0;
        for (int i = g * LOCAL; i < (g + 1) * LOCAL; i++)
            want += value_of((cl_uint)i);
        if (status[g] != 0 && wrong++ < 3)
            fail("work-group %d: enqueue_kernel returned %d, expected CLK_SUCCESS (0)", g, status[g]);
        else if (status[g] == 0 && got[g] != want && wrong++ < 3)
            fail("work-group %d: its child's sum is %lld, expected %lld", g, (long long)got[g], want);
    }
    clReleaseMemObject(values), clReleaseMemObject(sums), clReleaseMemObject(statuses);
    clReleaseKernel(kernel);
}

/* ---- main --------------------------------------------------------------------------- */

static cl_program build(const char *source, const char *options)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "ordering_rules: a program did not build:\n%s\n", log);
        exit(EXIT_FAILURE);
    }
    return program;
}

static cl_command_queue new_queue(cl_command_queue_properties properties)
{
    cl_int err;
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, list, &err);
    CHECK(err);
    return queue;
}

/* The first device that has both out-of-order host queues and device-side enqueue. */
static int find_device(void)
{
    cl_platform_id platforms[16];
    cl_uint n_platforms = 0;
    if (clGetPlatformIDs(16, platforms, &n_platforms) != CL_SUCCESS)
        return 0;
    for (cl_uint p = 0; p < n_platforms && p < 16; p++) {
        cl_device_id devices[16];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &n) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < n && d < 16; d++) {
            cl_command_queue_properties host = 0;
            cl_device_device_enqueue_capabilities enqueue = 0;
            clGetDeviceInfo(devices[d], CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, NULL);
            clGetDeviceInfo(devices[d], CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL);
            if ((host & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) && (enqueue & CL_DEVICE_QUEUE_SUPPORTED)) {
                device = devices[d];
                return 1;
            }
        }
    }
    return 0;
}

int main(void)
{
    if (!find_device()) {
        printf("ordering_rules: no OpenCL device with out-of-order queues and device-side enqueue\n");
        return 77;
    }
    char name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("ordering_rules on %s\n", name);

    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    in_order = new_queue(0);
    in_order_2 = new_queue(0);
    reader = new_queue(0);
    out_of_order = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    /* the default device queue: the one get_default_queue() returns in a kernel */
    cl_command_queue on_device = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                           CL_QUEUE_ON_DEVICE_DEFAULT);
    cl_program stamp_program = build(stamp_source, "");
    stamp_kernel = clCreateKernel(stamp_program, "stamp", &err);
    CHECK(err);
    /* blocks and enqueue_kernel: OpenCL C 2.0; the kernel's LCG_STEPS is the host's */
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL2.0 -D LCG_STEPS=%d", LCG_STEPS);
    device_program = build(device_enqueue_source, options);
    log_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, LOG_SIZE * sizeof(cl_int), NULL, &err);
    CHECK(err);

    static const struct {
        const char *what;
        void (*check)(void);
        int uses_log;
    } rules[] = {
        {"in-order queue: commands run one at a time, in the order enqueued", in_order_queue, 1},
        {"user event: a command waiting for one starts only once it is set to CL_COMPLETE", user_event, 1},
        {"out-of-order queue: a command without a wait list does not wait for earlier ones", out_of_order_queue, 1},
        {"wait list: a command waits for each event in it, even one of another queue", wait_list_across_queues, 1},
        {"marker, empty wait list: completes after every earlier command of its queue", marker_without_list, 1},
        {"marker with a wait list: waits for those events only", marker_with_list, 1},
        {"barrier, empty wait list: later commands wait for every earlier one", barrier_without_list, 1},
        {"barrier with a wait list: later commands wait for those events only", barrier_with_list, 1},
        {"callbacks: each runs at its status, in the order SUBMITTED, RUNNING, COMPLETE", callbacks, 1},
        {"failure: a user event set to -1 fails its dependants, and theirs, unrun", failure_propagation, 1},
        {"device enqueue, CLK_ENQUEUE_FLAGS_WAIT_KERNEL: the child sees all the parent wrote", wait_kernel_flag, 0},
        {"device enqueue, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP: a child sees all its group wrote",
         wait_work_group_flag, 0},
    };
    int n_rules = sizeof rules / sizeof rules[0], n_failed = 0;
    for (int i = 0; i < n_rules; i++) {
        failures[0] = '\0';
        if (rules[i].uses_log)
            clear_log();
        rules[i].check();
        printf("  %-6s %s\n%s", failures[0] ? "FAILED" : "ok", rules[i].what, failures);
        n_failed += failures[0] != '\0';
    }

    clReleaseMemObject(log_buf);
    clReleaseKernel(stamp_kernel);
    clReleaseProgram(stamp_program), clReleaseProgram(device_program);
    clReleaseCommandQueue(in_order), clReleaseCommandQueue(in_order_2), clReleaseCommandQueue(reader);
    clReleaseCommandQueue(out_of_order), clReleaseCommandQueue(on_device);
    clReleaseContext(context);
    if (n_failed) {
        printf("ordering_rules: FAILED (%d of %d rules)\n", n_failed, n_rules);
        return EXIT_FAILURE;
    }
    printf("ordering_rules: OK (%d rules checked)\n", n_rules);
    return EXIT_SUCCESS;
}
