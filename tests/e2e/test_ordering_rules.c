/*
 * One test for each ordering rule of seed 001 (rules 1 to 11), run through
 * the ICD loader.  Each is built so that it fails if the rule's edge were
 * missing: a slow writer is given time to be overtaken by a reader on
 * another worker thread (run with MOSAIC_NUM_THREADS >= 2).
 *
 *   usage: test_ordering_rules [case|--list]   (the cases: test_ordering_rules.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_ordering_rules.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;

/* ---- native kernels: a slow writer and a reader ------------------------------ */

typedef struct writer_args {
    int *slot;        /* replaced by the buffer's address */
    int index, value, delay_ms;
} writer_args;

static void CL_CALLBACK slow_write(void *p)
{
    writer_args *a = p;
    usleep((useconds_t)a->delay_ms * 1000);
    a->slot[a->index] = a->value;
}

typedef struct reader_args {
    int *slot;        /* replaced by the buffer's address */
    int index;
    int *seen;        /* host memory */
} reader_args;

static void CL_CALLBACK read_slot(void *p)
{
    reader_args *a = p;
    *a->seen = a->slot[a->index];
}

static cl_int enqueue_writer(cl_command_queue q, cl_mem buf, int index, int value, int delay_ms,
                             cl_uint n, const cl_event *wait, cl_event *event)
{
    writer_args a = { NULL, index, value, delay_ms };
    const void *loc = &a.slot;
    return clEnqueueNativeKernel(q, slow_write, &a, sizeof a, 1, &buf, &loc, n, wait, event);
}

static cl_int enqueue_reader(cl_command_queue q, cl_mem buf, int index, int *seen, cl_uint n,
                             const cl_event *wait, cl_event *event)
{
    reader_args a = { NULL, index, seen };
    const void *loc = &a.slot;
    return clEnqueueNativeKernel(q, read_slot, &a, sizeof a, 1, &buf, &loc, n, wait, event);
}

static cl_command_queue new_queue(cl_command_queue_properties props)
{
    cl_queue_properties list[] = { CL_QUEUE_PROPERTIES, props, 0 };
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

static int host_slots[64];

static cl_mem new_buffer(void)
{
    memset(host_slots, 0, sizeof host_slots);
    cl_int err;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host_slots, host_slots, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return buf;
}

#define OOO CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE

/* Rule 1: the enqueue call synchronizes-with the command: what the host
 * wrote before enqueuing is what the command sees. */
TEST(rule01)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    int seen = -1;
    for (int round = 1; round <= 50; round++) {
        host_slots[3] = round;
        CHECK_ERR(enqueue_reader(q, buf, 3, &seen, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(q), CL_SUCCESS);
        CHECK(seen == round);
    }
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 2: a command waits for the events of its wait list. */
TEST(rule02)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    cl_event written;
    int seen = -1;
    CHECK_ERR(enqueue_writer(q, buf, 0, 1, 60, 0, NULL, &written), CL_SUCCESS);
    CHECK_ERR(enqueue_reader(q, buf, 0, &seen, 1, &written, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    CHECK(seen == 1);
    clReleaseEvent(written);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 3: a completed event synchronizes-with the host's wait for it. */
TEST(rule03)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    cl_event written;
    CHECK_ERR(enqueue_writer(q, buf, 5, 11, 60, 0, NULL, &written), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &written), CL_SUCCESS);
    CHECK(host_slots[5] == 11);
    cl_int status = -1;
    CHECK_ERR(clGetEventInfo(written, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(written);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 4: in an in-order queue each command waits for the one before. */
TEST(rule04)
{
    cl_command_queue q = new_queue(0);
    cl_mem buf = new_buffer();
    int seen[4] = { -1, -1, -1, -1 };
    for (int i = 0; i < 4; i++) {
        CHECK_ERR(enqueue_writer(q, buf, i, 100 + i, 20, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(enqueue_reader(q, buf, i, &seen[i], 0, NULL, NULL), CL_SUCCESS);
    }
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(seen[i] == 100 + i);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 5: a marker without a wait list waits for every earlier command. */
TEST(rule05)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    CHECK_ERR(enqueue_writer(q, buf, 0, 1, 80, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(enqueue_writer(q, buf, 1, 2, 40, 0, NULL, NULL), CL_SUCCESS);
    cl_event marker;
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &marker), CL_SUCCESS);
    CHECK(host_slots[0] == 1 && host_slots[1] == 2);
    /* A marker with a wait list waits for that list only. */
    cl_event first;
    CHECK_ERR(enqueue_writer(q, buf, 2, 3, 10, 0, NULL, &first), CL_SUCCESS);
    CHECK_ERR(enqueue_writer(q, buf, 3, 4, 300, 0, NULL, NULL), CL_SUCCESS);
    cl_event partial;
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &first, &partial), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &partial), CL_SUCCESS);
    CHECK(host_slots[2] == 3);
    CHECK(host_slots[3] == 0); /* the 300 ms writer is not waited for */
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    clReleaseEvent(first);
    clReleaseEvent(partial);
    clReleaseEvent(marker);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 6: a barrier without a wait list orders everything before it
 * before everything after it. */
TEST(rule06)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    int seen[2] = { -1, -1 };
    CHECK_ERR(enqueue_writer(q, buf, 0, 5, 60, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(enqueue_writer(q, buf, 1, 6, 30, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(enqueue_reader(q, buf, 0, &seen[0], 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(enqueue_reader(q, buf, 1, &seen[1], 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    CHECK(seen[0] == 5 && seen[1] == 6);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 7: clFinish returns after every earlier command completed. */
TEST(rule07)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    for (int i = 0; i < 8; i++)
        CHECK_ERR(enqueue_writer(q, buf, i, 10 + i, 10 * (8 - i), 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    for (int i = 0; i < 8; i++)
        CHECK(host_slots[i] == 10 + i);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* A real kernel, for rules 8 and 9: every work-item reads the input the
 * host prepared and writes its own output. */
static const char *kernel_source =
    "__kernel void scale(__global const int *in, __global int *out, int factor)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] * factor; }\n";

static cl_kernel build_scale(cl_program *program)
{
    cl_int err;
    *program = clCreateProgramWithSource(context, 1, &kernel_source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(*program, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(*program, "scale", &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

/* Rule 8: the start of a kernel synchronizes-with its work-items: a write
 * command ordered before the kernel is seen by every work-item. */
/* Rule 9: every work-item's writes synchronize-with the kernel's completion. */
TEST(rule08_09)
{
    enum { N = 1 << 16 };
    cl_command_queue q = new_queue(0);
    cl_program program;
    cl_kernel k = build_scale(&program);
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = i;
    cl_int err;
    cl_mem bin = clCreateBuffer(context, CL_MEM_READ_ONLY, N * sizeof *in, NULL, &err);
    cl_mem bout = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof *out, out, &err);
    int factor = 3;
    clSetKernelArg(k, 0, sizeof bin, &bin);
    clSetKernelArg(k, 1, sizeof bout, &bout);
    clSetKernelArg(k, 2, sizeof factor, &factor);
    for (int round = 0; round < 10; round++) {
        memset(out, 0, N * sizeof *out);
        for (int i = 0; i < N; i++)
            in[i] = i + round;
        cl_event wrote, ran;
        CHECK_ERR(clEnqueueWriteBuffer(q, bin, CL_FALSE, 0, N * sizeof *in, in, 0, NULL, &wrote), CL_SUCCESS);
        size_t global = N, local = 64;
        CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 1, &wrote, &ran), CL_SUCCESS);
        CHECK_ERR(clWaitForEvents(1, &ran), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += out[i] != (i + round) * factor;
        CHECK(bad == 0);
        clReleaseEvent(wrote);
        clReleaseEvent(ran);
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseCommandQueue(q);
    free(in);
    free(out);
}

/* Rule 10: a callback sees everything the command wrote. */
static atomic_int callback_seen = -1;
static atomic_int callback_calls;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data)
{
    int *slots = data;
    atomic_store(&callback_seen, status == CL_COMPLETE ? slots[7] : -2);
    atomic_fetch_add(&callback_calls, 1);
}

TEST(rule10)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    cl_event written;
    CHECK_ERR(enqueue_writer(q, buf, 7, 77, 50, 0, NULL, &written), CL_SUCCESS);
    CHECK_ERR(clSetEventCallback(written, CL_COMPLETE, on_complete, host_slots), CL_SUCCESS);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    for (int i = 0; i < 200 && atomic_load(&callback_calls) == 0; i++)
        usleep(5000);
    CHECK(atomic_load(&callback_calls) == 1);
    CHECK(atomic_load(&callback_seen) == 77);
    clReleaseEvent(written);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Rule 11: setting a user event to CL_COMPLETE synchronizes-with the
 * commands that wait for it; they do not start before. */
TEST(rule11)
{
    cl_command_queue q = new_queue(0);
    cl_mem buf = new_buffer();
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int seen = -1;
    cl_event read;
    CHECK_ERR(enqueue_reader(q, buf, 9, &seen, 1, &gate, &read), CL_SUCCESS);
    usleep(50000);
    cl_int status;
    clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_QUEUED);
    CHECK(seen == -1);
    host_slots[9] = 99;
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_ERR(clWaitForEvents(1, &read), CL_SUCCESS);
    CHECK(seen == 99);
    clReleaseEvent(read);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* A user event set to a negative status fails every command that depends
 * on it, transitively, and those commands have no effect. */
TEST(user_event_failure)
{
    cl_command_queue q = new_queue(OOO);
    cl_mem buf = new_buffer();
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    cl_event w1, w2;
    CHECK_ERR(enqueue_writer(q, buf, 0, 1, 0, 1, &gate, &w1), CL_SUCCESS);
    CHECK_ERR(enqueue_writer(q, buf, 1, 1, 0, 1, &w1, &w2), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &w2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_int s1, s2;
    clGetEventInfo(w1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s1, &s1, NULL);
    clGetEventInfo(w2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s2, &s2, NULL);
    CHECK(s1 < 0 && s2 < 0);
    CHECK(host_slots[0] == 0 && host_slots[1] == 0);
    /* a blocking read that waits for a failed event reports it */
    int value;
    CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof value, &value, 1, &w1, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    clReleaseEvent(w1);
    clReleaseEvent(w2);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* Callbacks run in the order of the statuses, and profiling times are ordered. */
static int order_log[8];
static atomic_int order_count;

static void CL_CALLBACK log_status(cl_event e, cl_int status, void *data)
{
    int n = atomic_fetch_add(&order_count, 1);
    if (n < 8)
        order_log[n] = status;
}

TEST(callbacks_and_profiling)
{
    cl_command_queue q = new_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_mem buf = new_buffer();
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    cl_event w;
    CHECK_ERR(enqueue_writer(q, buf, 0, 1, 20, 1, &gate, &w), CL_SUCCESS);
    CHECK_ERR(clSetEventCallback(w, CL_COMPLETE, log_status, NULL), CL_SUCCESS);
    CHECK_ERR(clSetEventCallback(w, CL_RUNNING, log_status, NULL), CL_SUCCESS);
    CHECK_ERR(clSetEventCallback(w, CL_SUBMITTED, log_status, NULL), CL_SUCCESS);
    CHECK_ERR(clSetEventCallback(w, 42, log_status, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetEventProfilingInfo(w, CL_PROFILING_COMMAND_END, sizeof(cl_ulong), &(cl_ulong){ 0 }, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clSetUserEventStatus(gate, CL_COMPLETE);
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    for (int i = 0; i < 200 && atomic_load(&order_count) < 3; i++)
        usleep(5000);
    CHECK(atomic_load(&order_count) == 3);
    CHECK(order_log[0] == CL_SUBMITTED && order_log[1] == CL_RUNNING && order_log[2] == CL_COMPLETE);
    cl_ulong t[5];
    cl_profiling_info names[5] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                   CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE };
    for (int i = 0; i < 5; i++)
        CHECK_ERR(clGetEventProfilingInfo(w, names[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(t[i] <= t[i + 1]);
    CHECK(t[3] - t[2] >= 20 * 1000000ull); /* the writer sleeps 20 ms while running */
    cl_ulong host_now;
    CHECK_ERR(clGetHostTimer(device, &host_now), CL_SUCCESS);
    CHECK(host_now >= t[4]);
    clReleaseEvent(w);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}


int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    test_run(argc, argv);
    clReleaseContext(context);
    return test_summary();
}
