/*
 * Command queues and the commands around them, through the ICD loader:
 * releasing a queue with commands still pending, clSetCommandQueueProperty,
 * clGetCommandQueueInfo, clEnqueueMigrateMemObjects ordering, blocking and
 * non-blocking reads, writes and maps, clEnqueueTask, clEnqueueNativeKernel's
 * error cases, the host and device timers against profiling times, and a
 * host thread that waits for its worker on the one CPU they share, and the
 * priority and throttle hints (cl_khr_priority_hints, cl_khr_throttle_hints)
 * with clCreateCommandQueueWithPropertiesKHR.
 *
 *   usage: test_queues [case|--list]   (the cases: test_queues.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS /* clSetCommandQueueProperty */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue */
#define _GNU_SOURCE /* sched_setaffinity */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_queues.list"
#include "test.h"
#include "cl_test.h"

static cl_platform_id platform;
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

static cl_int status_of(cl_event e)
{
    cl_int status = 12345;
    CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    return status;
}

static cl_event user_event(void)
{
    cl_int err;
    cl_event e = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return e;
}

/* ---- native kernels --------------------------------------------------------------------- */

/* After delay_ms, writes value at slot (a buffer's bytes or host memory). */
typedef struct store_args {
    int *base;
    int index, value, delay_ms;
} store_args;

static void CL_CALLBACK slow_store(void *p)
{
    store_args *a = p;
    usleep((useconds_t)a->delay_ms * 1000);
    a->base[a->index] = a->value;
}

/* Enqueues slow_store on a buffer's bytes. */
static cl_int store_into(cl_command_queue q, cl_mem buf, int index, int value, int delay_ms, cl_uint n,
                         const cl_event *wait, cl_event *event)
{
    store_args a = { NULL, index, value, delay_ms };
    const void *loc = &a.base;
    return clEnqueueNativeKernel(q, slow_store, &a, sizeof a, 1, &buf, &loc, n, wait, event);
}

/* After delay_ms, copies slot `index` of a buffer to host memory. */
typedef struct load_args {
    int *base;
    int index, delay_ms;
    int *out;
} load_args;

static void CL_CALLBACK slow_load(void *p)
{
    load_args *a = p;
    usleep((useconds_t)a->delay_ms * 1000);
    *a->out = a->base[a->index];
}

static cl_int load_from(cl_command_queue q, cl_mem buf, int index, int *out, int delay_ms, cl_uint n,
                        const cl_event *wait, cl_event *event)
{
    load_args a = { NULL, index, delay_ms, out };
    const void *loc = &a.base;
    return clEnqueueNativeKernel(q, slow_load, &a, sizeof a, 1, &buf, &loc, n, wait, event);
}

static cl_mem new_buffer(size_t size)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return b;
}

/* ---- releasing a queue (and its context) with commands pending -------------------------- */

TEST(release_pending)
{
    for (int mode = 0; mode < 2; mode++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, mode ? OOO : 0, 0 };
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
        cl_event gate = clCreateUserEvent(ctx, &err);
        int results[4] = { 0, 0, 0, 0 };
        cl_event stored[3], last;
        for (int i = 0; i < 3; i++)
            CHECK_ERR(store_into(q, buf, i, 10 + i, 20, 0, NULL, &stored[i]), CL_SUCCESS);
        /* the last command waits for a user event and for the stores */
        cl_event waits[4] = { gate, stored[0], stored[1], stored[2] };
        load_args a = { NULL, 0, 0, &results[0] };
        const void *loc = &a.base;
        CHECK_ERR(clEnqueueNativeKernel(q, slow_load, &a, sizeof a, 1, &buf, &loc, 4, waits, &last), CL_SUCCESS);
        int tail_value = -1;
        CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_FALSE, sizeof(int), sizeof(int), &tail_value, 1, &last, NULL),
                  CL_SUCCESS);
        /* the user lets go of everything but the events; the commands are still to run */
        CHECK_ERR(clReleaseMemObject(buf), CL_SUCCESS);
        CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
        CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
        CHECK(status_of(last) == CL_QUEUED);
        cl_command_queue of_event = NULL;
        CHECK_ERR(clGetEventInfo(last, CL_EVENT_COMMAND_QUEUE, sizeof of_event, &of_event, NULL), CL_SUCCESS);
        CHECK(of_event == q); /* the event still names its queue */
        usleep(20000);
        CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        CHECK_ERR(clWaitForEvents(1, &last), CL_SUCCESS);
        CHECK(results[0] == 10);
        for (int i = 0; i < 3; i++) {
            CHECK(status_of(stored[i]) == CL_COMPLETE);
            clReleaseEvent(stored[i]);
        }
        /* the read after it (no event kept) ran too: give it a moment */
        for (int i = 0; i < 200 && tail_value != 11; i++)
            usleep(1000);
        CHECK(tail_value == 11);
        clReleaseEvent(last);
        clReleaseEvent(gate);
    }
}

/* ---- clSetCommandQueueProperty ------------------------------------------------------------ */

TEST(set_property)
{
    cl_command_queue q = new_queue(0);
    cl_command_queue_properties old = 99, now = 0;
    cl_event unprofiled;
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, &unprofiled), CL_SUCCESS);
    CHECK_ERR(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_SUCCESS);
    CHECK(old == 0);
    /* a command enqueued before profiling was on has no times */
    cl_ulong none;
    CHECK_ERR(clGetEventProfilingInfo(unprofiled, CL_PROFILING_COMMAND_END, sizeof none, &none, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(unprofiled);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof now, &now, NULL), CL_SUCCESS);
    CHECK(now == CL_QUEUE_PROFILING_ENABLE);
    cl_event marker;
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &marker), CL_SUCCESS);
    cl_ulong t = 0;
    CHECK_ERR(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL), CL_SUCCESS);
    CHECK(t > 0);
    clReleaseEvent(marker);

    /* in-order -> out-of-order: a command no longer waits for the one before */
    CHECK_ERR(clSetCommandQueueProperty(q, OOO, CL_TRUE, &old), CL_SUCCESS);
    CHECK(old == CL_QUEUE_PROFILING_ENABLE);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof now, &now, NULL), CL_SUCCESS);
    CHECK(now == (CL_QUEUE_PROFILING_ENABLE | OOO));
    cl_mem buf = new_buffer(64);
    cl_event gate = user_event(), first, second;
    int seen = 0;
    CHECK_ERR(store_into(q, buf, 0, 1, 0, 1, &gate, &first), CL_SUCCESS);
    CHECK_ERR(load_from(q, buf, 1, &seen, 0, 0, NULL, &second), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &second), CL_SUCCESS); /* ran while `first` waits */
    CHECK(status_of(first) == CL_QUEUED);

    /* Changing the mode waits for what is pending: the call returns once
     * `first` ran. */
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clSetCommandQueueProperty(q, OOO | CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old), CL_SUCCESS);
    CHECK(old == (CL_QUEUE_PROFILING_ENABLE | OOO));
    CHECK(status_of(first) == CL_COMPLETE);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof now, &now, NULL), CL_SUCCESS);
    CHECK(now == 0);
    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseEvent(gate);

    /* back in order: a command waits for the one before again */
    gate = user_event();
    CHECK_ERR(store_into(q, buf, 2, 5, 0, 1, &gate, &first), CL_SUCCESS);
    CHECK_ERR(load_from(q, buf, 2, &seen, 0, 0, NULL, &second), CL_SUCCESS);
    usleep(20000);
    CHECK(status_of(second) == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &second), CL_SUCCESS);
    CHECK(seen == 5);
    /* profiling is off again */
    CHECK_ERR(clGetEventProfilingInfo(second, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseEvent(gate);

    /* errors */
    CHECK_ERR(clSetCommandQueueProperty(NULL, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clSetCommandQueueProperty(q, (cl_command_queue_properties)1 << 20, CL_TRUE, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL), CL_SUCCESS); /* old may be NULL */
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
}

/* ---- clGetCommandQueueInfo (and creation errors) ---------------------------------------------- */

TEST(queue_info)
{
    cl_queue_properties list[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE | OOO, 0 };
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list, &err);
    CHECK_ERR(err, CL_SUCCESS);

    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_uint refs = 0;
    cl_command_queue_properties props = 0;
    size_t size = 0;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, &size), CL_SUCCESS);
    CHECK(ctx == context && size == sizeof ctx);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL), CL_SUCCESS);
    CHECK(dev == device);
    CHECK_ERR(clRetainCommandQueue(q), CL_SUCCESS);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    CHECK(refs == 2);
    CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    CHECK(refs == 1);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL), CL_SUCCESS);
    CHECK(props == (CL_QUEUE_PROFILING_ENABLE | OOO));
    cl_queue_properties back[8];
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &size), CL_SUCCESS);
    CHECK(size == sizeof list && memcmp(back, list, sizeof list) == 0);
    cl_command_queue default_queue = q;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof default_queue, &default_queue, NULL),
              CL_SUCCESS);
    CHECK(default_queue == NULL); /* no device queue */
    cl_uint qsize;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL), CL_INVALID_COMMAND_QUEUE);
    /* size only, too small, unknown name, bad queue */
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == sizeof(cl_command_queue_properties));
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 1, &props, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetCommandQueueInfo(q, 0x7fff, sizeof props, &props, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetCommandQueueInfo(NULL, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clGetCommandQueueInfo((cl_command_queue)context, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);

    /* a queue made without a property list reports an empty one */
    q = clCreateCommandQueue(context, device, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    size = 99;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL), CL_SUCCESS);
    CHECK(props == 0);
    CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
    q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    size = 99;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0);
    CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);

    /* creation errors */
    cl_queue_properties bad_bits[] = { CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 20, 0 };
    CHECK(clCreateCommandQueueWithProperties(context, device, bad_bits, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_queue_properties bad_name[] = { 0x7777, 0, 0 };
    CHECK(clCreateCommandQueueWithProperties(context, device, bad_name, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_queue_properties size_on_host[] = { CL_QUEUE_SIZE, 1024, 0 };
    CHECK(clCreateCommandQueueWithProperties(context, device, size_on_host, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_device_device_enqueue_capabilities dev_enqueue = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof dev_enqueue, &dev_enqueue, NULL),
              CL_SUCCESS);
    if (dev_enqueue == 0) { /* no device-side queues (seed 001 rules 12 and 13) */
        cl_queue_properties on_device[] = { CL_QUEUE_PROPERTIES, OOO | CL_QUEUE_ON_DEVICE, 0 };
        CHECK(clCreateCommandQueueWithProperties(context, device, on_device, &err) == NULL);
        CHECK_ERR(err, CL_INVALID_QUEUE_PROPERTIES);
    }
    CHECK(clCreateCommandQueueWithProperties(NULL, device, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    CHECK(clCreateCommandQueueWithProperties(context, (cl_device_id)context, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);
    CHECK_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
}

/* ---- clEnqueueMigrateMemObjects: a command like any other in the graph --------------------- */

TEST(migrate)
{
    cl_mem a = new_buffer(64), b = new_buffer(64);
    cl_mem both[2] = { a, b };
    for (int mode = 0; mode < 2; mode++) {
        cl_command_queue q = new_queue(mode ? OOO : CL_QUEUE_PROFILING_ENABLE);
        cl_event stored, migrated, loaded;
        int seen = 0;
        CHECK_ERR(store_into(q, a, 0, 40 + mode, 50, 0, NULL, &stored), CL_SUCCESS);
        /* in order: after the store by rule 4; out of order: by its wait list */
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, mode ? 1 : 0,
                                             mode ? &stored : NULL, &migrated),
                  CL_SUCCESS);
        CHECK_ERR(load_from(q, a, 0, &seen, 0, mode ? 1 : 0, mode ? &migrated : NULL, &loaded), CL_SUCCESS);
        CHECK_ERR(clWaitForEvents(1, &migrated), CL_SUCCESS);
        CHECK(status_of(stored) == CL_COMPLETE);
        CHECK_ERR(clWaitForEvents(1, &loaded), CL_SUCCESS);
        CHECK(seen == 40 + mode);
        cl_command_type type = 0;
        CHECK_ERR(clGetEventInfo(migrated, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
        CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
        if (!mode) { /* profiling: the migration started after the store ended */
            cl_ulong end = 0, start = 0;
            CHECK_ERR(clGetEventProfilingInfo(stored, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), CL_SUCCESS);
            CHECK_ERR(clGetEventProfilingInfo(migrated, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
                      CL_SUCCESS);
            CHECK(end <= start);
        }
        /* a failed dependency fails the migration */
        cl_event gate = user_event(), failed;
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 1, &gate, &failed),
                  CL_SUCCESS);
        CHECK_ERR(clSetUserEventStatus(gate, -3), CL_SUCCESS);
        CHECK_ERR(clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK(status_of(failed) < 0);
        /* errors */
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &a, (cl_mem_migration_flags)1 << 5, 0, NULL, NULL), CL_INVALID_VALUE);
        cl_mem bad[2] = { a, (cl_mem)q };
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 2, bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
        CHECK_ERR(clEnqueueMigrateMemObjects(NULL, 1, &a, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &a, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &a, 0, 0, &stored, NULL), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_ERR(clFinish(q), CL_SUCCESS);
        clReleaseEvent(stored);
        clReleaseEvent(migrated);
        clReleaseEvent(loaded);
        clReleaseEvent(failed);
        clReleaseEvent(gate);
        clReleaseCommandQueue(q);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

/* ---- blocking and non-blocking reads, writes and maps ---------------------------------------- */

TEST(blocking_transfers)
{
    cl_command_queue in_order = new_queue(0), ooo = new_queue(OOO);
    cl_mem buf = new_buffer(64 * sizeof(int));
    int value = 0;

    /* a blocking read waits for the command before it (in order) or in its wait list */
    CHECK_ERR(store_into(in_order, buf, 0, 7, 50, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(in_order, buf, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL), CL_SUCCESS);
    CHECK(value == 7);
    cl_event stored;
    CHECK_ERR(store_into(ooo, buf, 1, 8, 50, 0, NULL, &stored), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(ooo, buf, CL_TRUE, sizeof(int), sizeof value, &value, 1, &stored, NULL), CL_SUCCESS);
    CHECK(value == 8);
    clReleaseEvent(stored);

    /* a blocking write has taken its bytes when it returns: the host may
     * change them at once; and it waits for a slow reader before it */
    int seen_before = -1;
    CHECK_ERR(load_from(in_order, buf, 0, &seen_before, 50, 0, NULL, NULL), CL_SUCCESS);
    int source[4] = { 21, 22, 23, 24 };
    CHECK_ERR(clEnqueueWriteBuffer(in_order, buf, CL_TRUE, 0, sizeof source, source, 0, NULL, NULL), CL_SUCCESS);
    CHECK(seen_before == 7); /* the reader ran first */
    memset(source, 0, sizeof source);
    int back[4] = { 0 };
    CHECK_ERR(clEnqueueReadBuffer(in_order, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), CL_SUCCESS);
    CHECK(back[0] == 21 && back[3] == 24);

    /* a non-blocking write behind a gate: not done until the gate opens, and
     * it reads the host bytes when it runs */
    cl_event gate = user_event(), wrote;
    int later[2] = { 0, 0 };
    CHECK_ERR(clEnqueueWriteBuffer(ooo, buf, CL_FALSE, 8 * sizeof(int), sizeof later, later, 1, &gate, &wrote),
              CL_SUCCESS);
    later[0] = 31;
    later[1] = 32;
    usleep(20000);
    CHECK(status_of(wrote) == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &wrote), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(ooo, buf, CL_TRUE, 8 * sizeof(int), sizeof back[0], back, 0, NULL, NULL),
              CL_SUCCESS);
    CHECK(back[0] == 31);
    clReleaseEvent(wrote);
    clReleaseEvent(gate);

    /* a non-blocking read behind a gate leaves the host bytes alone until it runs */
    gate = user_event();
    cl_event read;
    int dest = -1;
    CHECK_ERR(clEnqueueReadBuffer(ooo, buf, CL_FALSE, 9 * sizeof(int), sizeof dest, &dest, 1, &gate, &read),
              CL_SUCCESS);
    usleep(20000);
    CHECK(dest == -1);
    CHECK(status_of(read) == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &read), CL_SUCCESS);
    CHECK(dest == 32);
    clReleaseEvent(read);
    clReleaseEvent(gate);

    /* a blocking map after a slow store sees it */
    cl_int err;
    CHECK_ERR(store_into(in_order, buf, 10, 55, 50, 0, NULL, NULL), CL_SUCCESS);
    int *mapped = clEnqueueMapBuffer(in_order, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 16 * sizeof(int), 0, NULL,
                                     NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(mapped && mapped[10] == 55);
    if (mapped) {
        mapped[11] = 66; /* written through the map, seen after the unmap */
        cl_event unmapped;
        CHECK_ERR(clEnqueueUnmapMemObject(in_order, buf, mapped, 0, NULL, &unmapped), CL_SUCCESS);
        int seen = 0;
        CHECK_ERR(load_from(ooo, buf, 11, &seen, 0, 1, &unmapped, &read), CL_SUCCESS);
        CHECK_ERR(clWaitForEvents(1, &read), CL_SUCCESS);
        CHECK(seen == 66);
        clReleaseEvent(read);
        clReleaseEvent(unmapped);
    }

    /* a non-blocking map behind a gate: the pointer comes back at once, the
     * data is there once its event completed */
    gate = user_event();
    cl_event map_done;
    CHECK_ERR(store_into(ooo, buf, 12, 77, 0, 1, &gate, &stored), CL_SUCCESS);
    mapped = clEnqueueMapBuffer(ooo, buf, CL_FALSE, CL_MAP_READ, 0, 16 * sizeof(int), 1, &stored, &map_done, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(mapped != NULL);
    usleep(20000);
    CHECK(status_of(map_done) == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &map_done), CL_SUCCESS);
    CHECK(mapped && mapped[12] == 77);
    CHECK_ERR(clEnqueueUnmapMemObject(ooo, buf, mapped, 0, NULL, NULL), CL_SUCCESS);
    clReleaseEvent(stored);
    clReleaseEvent(map_done);
    clReleaseEvent(gate);

    /* a blocking map or read whose dependency failed reports it */
    gate = user_event();
    CHECK_ERR(clSetUserEventStatus(gate, -9), CL_SUCCESS);
    mapped = clEnqueueMapBuffer(ooo, buf, CL_TRUE, CL_MAP_READ, 0, 16, 1, &gate, NULL, &err);
    CHECK_ERR(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(mapped == NULL);
    CHECK_ERR(clEnqueueReadBuffer(ooo, buf, CL_TRUE, 0, 4, &value, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(clEnqueueWriteBuffer(ooo, buf, CL_TRUE, 0, 4, &value, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(gate);

    CHECK_ERR(clFinish(in_order), CL_SUCCESS);
    CHECK_ERR(clFinish(ooo), CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(in_order);
    clReleaseCommandQueue(ooo);
}

/* ---- clEnqueueTask ------------------------------------------------------------------------------ */

static const char *task_source =
    "__kernel void task(__global int *p, int v)\n"
    "{ p[get_global_id(0)] = v + (int)get_global_size(0) * 10 + (int)get_local_size(0) * 100\n"
    "                        + (int)get_work_dim() * 1000; }\n"
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void wide(__global int *p) { p[0] = 1; }\n";

TEST(task)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &task_source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(program, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "task", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel wide = clCreateKernel(program, "wide", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q = new_queue(OOO | CL_QUEUE_PROFILING_ENABLE);
    cl_mem buf = new_buffer(16);

    /* unset arguments */
    CHECK_ERR(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    int v = 5;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);

    /* behind a gate: it runs once the gate opens, as one work-item of one work-group */
    cl_event gate = user_event(), ran;
    CHECK_ERR(clEnqueueTask(q, k, 1, &gate, &ran), CL_SUCCESS);
    v = 6; /* arguments were captured at enqueue time */
    CHECK_ERR(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    usleep(20000);
    CHECK(status_of(ran) == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &ran), CL_SUCCESS);
    int out = 0;
    CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out == 5 + 10 + 100 + 1000);
    cl_command_type type = 0;
    CHECK_ERR(clGetEventInfo(ran, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    CHECK(type == CL_COMMAND_TASK);
    cl_ulong start = 0, end = 0;
    CHECK_ERR(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL), CL_SUCCESS);
    CHECK_ERR(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), CL_SUCCESS);
    CHECK(start > 0 && start <= end);
    clReleaseEvent(ran);
    clReleaseEvent(gate);

    /* a failed dependency: the task does not run */
    gate = user_event();
    int minus = -1;
    CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof minus, &minus, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueTask(q, k, 1, &gate, &ran), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(gate, -2), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &ran), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out == -1);
    clReleaseEvent(ran);
    clReleaseEvent(gate);

    /* errors */
    CHECK_ERR(clSetKernelArg(wide, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clEnqueueTask(q, wide, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(clEnqueueTask(q, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clEnqueueTask(q, (cl_kernel)buf, 0, NULL, NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clEnqueueTask(NULL, k, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueTask(q, k, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event dummy = (cl_event)buf;
    CHECK_ERR(clEnqueueTask(q, k, 1, &dummy, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    CHECK_ERR(clEnqueueTask(q, k, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    cl_command_queue other_q = clCreateCommandQueueWithProperties(other, device, NULL, &err);
    CHECK_ERR(clEnqueueTask(other_q, k, 0, NULL, NULL), CL_INVALID_CONTEXT);
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clReleaseEvent(foreign);
    clReleaseCommandQueue(other_q);
    clReleaseContext(other);

    CHECK_ERR(clFinish(q), CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseKernel(wide);
    clReleaseProgram(program);
}

/* ---- clEnqueueNativeKernel ------------------------------------------------------------------------ */

typedef struct two_buffers {
    int scale;
    int *first;  /* replaced by the first buffer's address */
    int *second; /* replaced by the second buffer's address */
} two_buffers;

static void CL_CALLBACK copy_scaled(void *p)
{
    two_buffers *a = p;
    for (int i = 0; i < 4; i++)
        a->second[i] = a->first[i] * a->scale;
}

static atomic_int no_args_calls;
static void CL_CALLBACK no_args(void *p)
{
    if (p == NULL)
        atomic_fetch_add(&no_args_calls, 1);
}

TEST(native_kernel)
{
    cl_device_exec_capabilities caps = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL), CL_SUCCESS);
    CHECK(caps & CL_EXEC_NATIVE_KERNEL);
    cl_command_queue q = new_queue(0);
    cl_mem first = new_buffer(16), second = new_buffer(16);
    int in[4] = { 1, 2, 3, 4 }, out[4] = { 0 };
    CHECK_ERR(clEnqueueWriteBuffer(q, first, CL_TRUE, 0, sizeof in, in, 0, NULL, NULL), CL_SUCCESS);

    /* a good call: the arguments are copied, buffer slots become addresses */
    two_buffers a = { 3, NULL, NULL };
    cl_mem mems[2] = { first, second };
    const void *locs[2] = { &a.first, &a.second };
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, mems, locs, 0, NULL, NULL), CL_SUCCESS);
    a.scale = 100; /* too late to matter */
    CHECK_ERR(clEnqueueReadBuffer(q, second, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out[0] == 3 && out[3] == 12);
    /* no arguments at all */
    cl_event e;
    CHECK_ERR(clEnqueueNativeKernel(q, no_args, NULL, 0, 0, NULL, NULL, 0, NULL, &e), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK(atomic_load(&no_args_calls) == 1);
    cl_command_type type = 0;
    CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    CHECK(type == CL_COMMAND_NATIVE_KERNEL);
    clReleaseEvent(e);

    /* the error cases of the specification */
    a.scale = 3;
    CHECK_ERR(clEnqueueNativeKernel(NULL, copy_scaled, &a, sizeof a, 2, mems, locs, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueNativeKernel(q, NULL, &a, sizeof a, 2, mems, locs, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, NULL, sizeof a, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, NULL, 0, 2, mems, locs, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, 0, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, NULL, locs, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, mems, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 0, mems, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 0, NULL, locs, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_mem bad_mems[2] = { first, (cl_mem)q };
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, bad_mems, locs, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    bad_mems[1] = NULL;
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, bad_mems, locs, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, mems, locs, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    cl_event not_event = (cl_event)first;
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, mems, locs, 1, &not_event, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    CHECK_ERR(clEnqueueNativeKernel(q, copy_scaled, &a, sizeof a, 2, mems, locs, 1, &foreign, NULL),
              CL_INVALID_CONTEXT);
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clReleaseEvent(foreign);
    clReleaseContext(other);
    /* nothing of the refused calls ran */
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q, second, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out[0] == 3 && out[3] == 12);
    CHECK(atomic_load(&no_args_calls) == 1);
    clReleaseMemObject(first);
    clReleaseMemObject(second);
    clReleaseCommandQueue(q);
}

/* ---- host and device timers against profiling ----------------------------------------------------- */

static void CL_CALLBACK sleep_5ms(void *p) { usleep(5000); }

TEST(timers)
{
    cl_ulong previous = 0, host = 0, dev = 0;
    int backwards = 0;
    int failures = 0;
    for (int i = 0; i < 2000; i++) {
        failures += clGetHostTimer(device, &host) != CL_SUCCESS;
        backwards += host < previous;
        previous = host;
    }
    CHECK(failures == 0);
    CHECK(backwards == 0);
    cl_ulong prev_dev = 0, prev_host = 0;
    backwards = 0;
    int far_apart = 0;
    for (int i = 0; i < 1000; i++) {
        cl_ulong before, after;
        CHECK_ERR(clGetHostTimer(device, &before), CL_SUCCESS);
        CHECK_ERR(clGetDeviceAndHostTimer(device, &dev, &host), CL_SUCCESS);
        CHECK_ERR(clGetHostTimer(device, &after), CL_SUCCESS);
        backwards += dev < prev_dev || host < prev_host || host < before || host > after;
        /* one clock for both on the CPU: read together, they agree to well under a millisecond */
        far_apart += (dev > host ? dev - host : host - dev) > 1000000;
        prev_dev = dev;
        prev_host = host;
    }
    CHECK(backwards == 0);
    CHECK(far_apart == 0);

    /* profiling times lie between timer readings taken around the command */
    cl_command_queue q = new_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_ulong dev0, host0, dev1, host1;
    CHECK_ERR(clGetDeviceAndHostTimer(device, &dev0, &host0), CL_SUCCESS);
    cl_event e;
    int dummy = 0;
    CHECK_ERR(clEnqueueNativeKernel(q, sleep_5ms, &dummy, sizeof dummy, 0, NULL, NULL, 0, NULL, &e), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK_ERR(clGetDeviceAndHostTimer(device, &dev1, &host1), CL_SUCCESS);
    cl_profiling_info names[5] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                   CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                   CL_PROFILING_COMMAND_COMPLETE };
    cl_ulong t[5];
    for (int i = 0; i < 5; i++)
        CHECK_ERR(clGetEventProfilingInfo(e, names[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
    CHECK(dev0 <= t[0]);
    for (int i = 0; i < 4; i++)
        CHECK(t[i] <= t[i + 1]);
    CHECK(t[4] <= dev1);
    CHECK(t[3] - t[2] >= 5000000);              /* it slept 5 ms while running */
    CHECK(dev1 - dev0 >= t[3] - t[2]);
    CHECK(host1 - host0 >= 5000000);
    clReleaseEvent(e);

    /* profiling is for commands of a profiling queue, once complete */
    cl_event gate = user_event();
    cl_ulong v;
    CHECK_ERR(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_QUEUED, sizeof v, &v, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &gate, &e), CL_SUCCESS);
    CHECK_ERR(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof v, &v, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK_ERR(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof v, &v, NULL), CL_SUCCESS);
    CHECK_ERR(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, 1, &v, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetEventProfilingInfo(e, 0x7777, sizeof v, &v, NULL), CL_INVALID_VALUE);
    clReleaseEvent(e);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);

    /* resolutions, and errors */
    size_t resolution = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof resolution, &resolution, NULL),
              CL_SUCCESS);
    CHECK(resolution > 0);
    cl_ulong host_resolution = 0;
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof host_resolution, &host_resolution,
                                NULL),
              CL_SUCCESS);
    CHECK(host_resolution > 0);
    CHECK_ERR(clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, NULL, &host), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, &dev, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetHostTimer((cl_device_id)context, &host), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceAndHostTimer((cl_device_id)context, &dev, &host), CL_INVALID_DEVICE);
}


/* ---- a host thread and its worker on one CPU ---------------------------------------- */

/* The process (itself again, with ONE_CPU_CHILD) on one CPU, with one
 * worker and spins far longer than a scheduler's time slice: a host thread
 * that spins in clFinish while the worker it waits for is runnable on the
 * same CPU must let it run, and the worker spinning for the next command
 * must let the host run, or every command costs them a slice each. */
#define ONE_CPU_CHILD "--one-cpu-child"
enum { ONE_CPU_COMMANDS = 100 };

static void CL_CALLBACK count_one(void *p) { atomic_fetch_add((atomic_int *)*(void **)p, 1); }

/* The child: ONE_CPU_COMMANDS native kernels, each waited for; exit 0 if
 * they took under 50 ms (a few microseconds each when the waits let the
 * other thread run; a time slice of at least 0.75 ms each way if not). */
static int one_cpu_child(void)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    cl_command_queue q = new_queue(0);
    static atomic_int counted;
    void *arg = &counted;
    double best = 1e9;
    for (int round = 0; round < 3; round++) { /* the best of three: a busy machine may take the CPU once */
        double t0 = test_now_ms();
        for (int i = 0; i < ONE_CPU_COMMANDS; i++) {
            CHECK_ERR(clEnqueueNativeKernel(q, count_one, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clFinish(q), CL_SUCCESS);
        }
        double ms = test_now_ms() - t0;
        best = ms < best ? ms : best;
    }
    CHECK(atomic_load(&counted) == 3 * ONE_CPU_COMMANDS, "%d commands ran", atomic_load(&counted));
    printf("%d commands, each waited for, on one CPU: %.2f ms\n", ONE_CPU_COMMANDS, best);
    CHECK(best < 50, "%d commands took %.1f ms", ONE_CPU_COMMANDS, best);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
    return test_summary();
}

TEST(one_cpu)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    int cpu = 0;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
        cpu++;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            _exit(126);
        setenv("MOSAIC_NUM_THREADS", "1", 1);
        setenv("MOSAIC_SPIN_US", "100000", 1);
        execl("/proc/self/exe", "test_queues", ONE_CPU_CHILD, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child on one CPU: status %d", status);
}

/* Hints are checked and kept; a queue made with them runs commands. */
TEST(hints)
{
    clCreateCommandQueueWithPropertiesKHR_fn create = (clCreateCommandQueueWithPropertiesKHR_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clCreateCommandQueueWithPropertiesKHR");
    CHECK(create != NULL);
    if (!create)
        return;
    const cl_queue_properties props[] = { CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, CL_QUEUE_THROTTLE_KHR,
                                          CL_QUEUE_THROTTLE_HIGH_KHR, 0 };
    cl_int err;
    cl_command_queue q = create(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_queue_properties kept[8] = { 0 };
    size_t size = 0;
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof kept, kept, &size), CL_SUCCESS);
    CHECK(size == sizeof props && memcmp(kept, props, sizeof props) == 0, "CL_QUEUE_PROPERTIES_ARRAY differs");
    cl_uint value = 7, read = 0;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof value, NULL, &err);
    CHECK_ERR(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof value, &value, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof read, &read, 0, NULL, NULL), CL_SUCCESS);
    CHECK(read == 7);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);

    const cl_queue_properties bad_value[] = { CL_QUEUE_PRIORITY_KHR, 3, 0 };
    CHECK(create(context, device, bad_value, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    const cl_queue_properties twice[] = { CL_QUEUE_THROTTLE_KHR, CL_QUEUE_THROTTLE_LOW_KHR, CL_QUEUE_THROTTLE_KHR,
                                          CL_QUEUE_THROTTLE_LOW_KHR, 0 };
    CHECK(clCreateCommandQueueWithProperties(context, device, twice, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    const cl_queue_properties on_device[] = { CL_QUEUE_PROPERTIES,
                                              CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                              CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, 0 };
    CHECK(clCreateCommandQueueWithProperties(context, device, on_device, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_QUEUE_PROPERTIES);
}

int main(int argc, char **argv)
{
    alarm(100); /* a deadlock fails the test rather than hanging it */
    if (argc == 2 && !strcmp(argv[1], ONE_CPU_CHILD))
        return one_cpu_child();
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    test_run(argc, argv);
    clReleaseContext(context);
    return test_summary();
}
