/*
 * Device-side enqueue through the ICD loader (issue 9; seed 001 rules 12 and
 * 13): device queues and their queries, enqueue_kernel with each flag,
 * parents completing after their children, recursion, device events and
 * markers, __local block arguments, ndranges, and the CLK_* errors.
 *
 *   usage: test_device_enqueue [case|--list]   (the cases: test_device_enqueue.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_device_enqueue.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;      /* in order, on the host */
static cl_command_queue dev_queue;  /* the default device queue */

static cl_program build(const char *source)
{
    return test_build_program(context, device, source, "-cl-std=CL2.0");
}

static cl_mem zeroed(size_t size)
{
    cl_int err;
    void *zero = calloc(1, size);
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, zero, &err);
    free(zero);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* Runs kernel `name` of `program` as kernel(out, dev_queue[, extra]) over
 * `global` work-items in groups of `local` (0: the device's choice), waits
 * for it, and reads `count` ints of out back into `result`. */
static cl_int run(cl_program program, const char *name, cl_mem out, cl_command_queue q, size_t global, size_t local,
                  int *result, size_t count)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return err;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof q, &q), CL_SUCCESS);
    cl_event done;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &done);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS) {
        CHECK_ERR(clWaitForEvents(1, &done), CL_SUCCESS);
        cl_int status = 1;
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        CHECK(status == CL_COMPLETE, "the parent's status is %d", status);
        /* read with the event complete only: what the children wrote must be there already */
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, count * sizeof *result, result, 0, NULL, NULL),
                  CL_SUCCESS);
        clReleaseEvent(done);
    }
    clReleaseKernel(k);
    return err;
}

/* ---- device queues and the device's queries ------------------------------------------- */

TEST(queues)
{
    cl_uint max_queues = 0, max_events = 0, preferred = 0, max_size = 0;
    cl_command_queue_properties props = 0;
    cl_device_device_enqueue_capabilities caps = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof max_queues, &max_queues, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof max_events, &max_events, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof preferred, &preferred, NULL),
              CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max_size, &max_size, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof props, &props, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL), CL_SUCCESS);
    CHECK(max_queues >= 1 && max_events >= 1024 && preferred >= 16 * 1024 && max_size >= 256 * 1024 &&
          preferred <= max_size);
    CHECK(props == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    CHECK(caps == (CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
    char features[4096] = "";
    size_t n = 0;
    cl_name_version list[64];
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof list, list, &n), CL_SUCCESS);
    for (size_t i = 0; i < n / sizeof *list; i++)
        if (!strcmp(list[i].name, "__opencl_c_device_enqueue"))
            strcpy(features, list[i].name);
    CHECK(features[0], "__opencl_c_device_enqueue is not among the OpenCL C features");

    /* the default device queue: one per device, returned again when asked again */
    cl_command_queue q;
    CHECK_ERR(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof q, &q, NULL), CL_SUCCESS);
    CHECK(q == dev_queue);
    cl_uint size = 0;
    CHECK_ERR(clGetCommandQueueInfo(dev_queue, CL_QUEUE_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    CHECK(size == preferred, "CL_QUEUE_SIZE %u, preferred %u", size, preferred);
    CHECK_ERR(clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof size, &size, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_int err;
    cl_queue_properties def[] = { CL_QUEUE_PROPERTIES,
                                  CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                  0 };
    q = clCreateCommandQueueWithProperties(context, device, def, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(q == dev_queue);
    clReleaseCommandQueue(q);

    /* another device queue with a size; made the default, then back */
    cl_queue_properties sized[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    CL_QUEUE_SIZE, 4096, 0 };
    q = clCreateCommandQueueWithProperties(context, device, sized, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    CHECK(size == 4096);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(context, device, q), CL_SUCCESS);
    cl_command_queue now;
    CHECK_ERR(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof now, &now, NULL), CL_SUCCESS);
    CHECK(now == q);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(context, device, queue), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(context, device, dev_queue), CL_SUCCESS);

    /* host commands and host queries refuse a device queue */
    int x = 0;
    cl_mem m = zeroed(64);
    CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof x, &x, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(q), CL_INVALID_COMMAND_QUEUE);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);

    /* bad properties */
    cl_queue_properties in_order[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0 };
    CHECK(!clCreateCommandQueueWithProperties(context, device, in_order, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_queue_properties huge[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   CL_QUEUE_SIZE, (cl_queue_properties)max_size + 1, 0 };
    CHECK(!clCreateCommandQueueWithProperties(context, device, huge, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_queue_properties host_size[] = { CL_QUEUE_SIZE, 4096, 0 };
    CHECK(!clCreateCommandQueueWithProperties(context, device, host_size, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);

    /* a queue_t argument takes device queues only */
    cl_program p = build("kernel void k(global int *out, queue_t q) { out[0] = 1; }");
    if (p) {
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof queue, &queue), CL_INVALID_DEVICE_QUEUE);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof dev_queue, &dev_queue), CL_SUCCESS);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- NO_WAIT, blocks with captures, the parent after its children ------------------------ */

static const char no_wait_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int base = 1000 * (int)g;\n"
    "    char c = 3; long l = 5;\n"
    "    /* every work-item enqueues a child of 64 work-items */\n"
    "    int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), ^{\n"
    "        size_t i = get_global_id(0);\n"
    "        /* work enough that the parent's own groups end first */\n"
    "        int acc = 0;\n"
    "        for (int k = 0; k < 20000; k++) acc += k & (int)i;\n"
    "        out[64 + g * 64 + i] = base + (int)i + c + (int)l + (acc & 0);\n"
    "    });\n"
    "    out[g] = r;\n"
    "}\n";

TEST(no_wait)
{
    cl_program p = build(no_wait_source);
    if (!p)
        return;
    enum { N = 32 };
    cl_mem out = zeroed((64 + N * 64) * sizeof(int));
    int *r = calloc(64 + N * 64, sizeof *r);
    run(p, "parent", out, dev_queue, N, 8, r, 64 + N * 64);
    int bad = 0;
    for (int g = 0; g < N; g++) {
        CHECK(r[g] == 0, "enqueue_kernel returned %d", r[g]);
        for (int i = 0; i < 64; i++)
            bad += r[64 + g * 64 + i] != 1000 * g + i + 8;
    }
    CHECK(bad == 0, "%d values the children wrote are missing when the parent's event completed", bad);
    free(r);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- WAIT_KERNEL: the child reads what every work-item of the parent wrote (rule 12) ------ */

static const char wait_kernel_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    size_t g = get_global_id(0), n = get_global_size(0);\n"
    "    if (g == 0) {\n"
    "        int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{\n"
    "            long sum = 0;\n"
    "            for (size_t i = 0; i < n; i++) sum += out[2 + i];\n"
    "            out[0] = (int)sum;\n"
    "        });\n"
    "        out[1] = r;\n"
    "    }\n"
    "    /* later groups take longer: a child started early would miss them */\n"
    "    int acc = 0;\n"
    "    for (size_t k = 0; k < 200 * get_group_id(0); k++) acc += (int)(k ^ g);\n"
    "    out[2 + g] = (int)g + 1 + (acc & 0);\n"
    "}\n";

TEST(wait_kernel)
{
    cl_program p = build(wait_kernel_source);
    if (!p)
        return;
    enum { N = 4096 };
    cl_mem out = zeroed((N + 2) * sizeof(int));
    int r[2];
    run(p, "parent", out, dev_queue, N, 64, r, 2);
    CHECK(r[1] == 0, "enqueue_kernel returned %d", r[1]);
    CHECK(r[0] == N * (N + 1) / 2, "the child saw a sum of %d, not %d", r[0], N * (N + 1) / 2);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- WAIT_WORK_GROUP: the child runs after its group, while the parent's other
 * groups still run (rule 13).  Group 0 enqueues a child that checks what group 0
 * wrote and raises a flag; every other group waits for the flag (with a time-out,
 * so an implementation that waits for the whole parent fails instead of hanging). */

static const char wait_work_group_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    size_t l = get_local_id(0), grp = get_group_id(0), n = get_local_size(0);\n"
    "    global atomic_int *flag = (global atomic_int *)&out[0];\n"
    "    out[8 + get_global_id(0)] = (int)get_global_id(0) + 5;\n"
    "    if (grp == 0 && l == n - 1) {\n"
    "        /* the last work-item enqueues: the others of its group have written (or will, in\n"
    "           the same group) before the child may start */\n"
    "        out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(1), ^{\n"
    "            int ok = 1;\n"
    "            for (size_t i = 0; i < n; i++) ok &= out[8 + i] == (int)i + 5;\n"
    "            out[2] = ok;\n"
    "            atomic_store(flag, 1);\n"
    "        });\n"
    "    }\n"
    "    if (grp != 0 && l == 0) {\n"
    "        int seen = 0;\n"
    "        for (long spin = 0; spin < 400000000L && !seen; spin++) seen = atomic_load(flag);\n"
    "        atomic_fetch_add((global atomic_int *)&out[3], seen);\n"
    "    }\n"
    "}\n";

TEST(wait_work_group)
{
    cl_program p = build(wait_work_group_source);
    if (!p)
        return;
    enum { GROUPS = 4, LOCAL = 16 };
    cl_mem out = zeroed((8 + GROUPS * LOCAL) * sizeof(int));
    int r[4];
    run(p, "parent", out, dev_queue, GROUPS * LOCAL, LOCAL, r, 4);
    CHECK(r[1] == 0, "enqueue_kernel returned %d", r[1]);
    CHECK(r[0] == 1, "the child did not run");
    CHECK(r[2] == 1, "the child did not see what its work-group wrote");
    CHECK(r[3] == GROUPS - 1, "only %d of the parent's %d later groups saw the child run while they ran", r[3],
          GROUPS - 1);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* A group's WAIT_WORK_GROUP child starts after the groups below that group
 * ended too (cpu_enqueue.c, mosaic_cpu_group_end; the CTS's enqueue_flags
 * counts on it): group 0 is slow and then clears what group 1's child
 * sets, which with two or more workers ran first before. */
static const char after_lower_groups_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    if (get_group_id(0) == 0) {\n"
    "        uint s = 1;\n"
    "        for (int i = 0; i < 20000000; i++) s = s * 1664525u + 1013904223u;\n"
    "        out[2] = (int)(s & 1u);\n"
    "        out[0] = 0;\n"
    "    } else {\n"
    "        int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(1), ^{ out[0] = 1; });\n"
    "        if (r) out[1] = r;\n"
    "    }\n"
    "}\n";

TEST(wait_work_group_after_lower_groups)
{
    cl_program p = build(after_lower_groups_source);
    if (!p)
        return;
    cl_mem out = zeroed(4 * sizeof(int));
    int r[4];
    for (int run_ = 0; run_ < 3; run_++) {
        run(p, "parent", out, dev_queue, 2, 1, r, 4);
        CHECK(r[1] == 0, "enqueue_kernel returned %d", r[1]);
        CHECK(r[0] == 1, "group 1's child ran before group 0 ended (run %d)", run_);
    }
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* The same with a barrier in the parent (a barrier kernel: regions, or fibers). */
static const char wait_work_group_barrier_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    local int part[64];\n"
    "    size_t l = get_local_id(0), grp = get_group_id(0), n = get_local_size(0);\n"
    "    part[l] = (int)get_global_id(0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[8 + get_global_id(0)] = part[n - 1 - l] + 1;\n"
    "    if (l == 0) {\n"
    "        size_t base = grp * n;\n"
    "        int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(n), ^{\n"
    "            size_t i = get_global_id(0);\n"
    "            /* work-item i of the group wrote (base + n - 1 - i) + 1 */\n"
    "            if (out[8 + base + i] != (int)(base + n - i)) atomic_inc(&out[2]);\n"
    "            atomic_inc(&out[3]);\n"
    "        });\n"
    "        if (r) out[1] = r;\n"
    "    }\n"
    "}\n";

TEST(wait_work_group_barrier)
{
    cl_program p = build(wait_work_group_barrier_source);
    if (!p)
        return;
    enum { GROUPS = 16, LOCAL = 64 };
    cl_mem out = zeroed((8 + GROUPS * LOCAL) * sizeof(int));
    int r[4];
    run(p, "parent", out, dev_queue, GROUPS * LOCAL, LOCAL, r, 4);
    CHECK(r[1] == 0, "enqueue_kernel returned %d", r[1]);
    CHECK(r[2] == 0, "%d work-items of the children read their group's values before the group ended", r[2]);
    CHECK(r[3] == GROUPS * LOCAL, "%d of %d children's work-items ran", r[3], GROUPS * LOCAL);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- recursion 16 deep: each level a child of the one above ------------------------------ */

static const char recursion_source[] =
    "void level(queue_t q, global int *out, int depth) {\n"
    "    if (depth == 15) {\n"
    "        /* the deepest one is slow: the host's event must still wait for it */\n"
    "        int acc = 0;\n"
    "        for (int k = 0; k < 3000000; k++) acc += k & depth;\n"
    "        out[16] = 1 + (acc & 0);\n"
    "    }\n"
    "    out[depth] = depth + 1;\n"
    "    if (depth < 15) {\n"
    "        int flags = depth % 3 == 0 ? CLK_ENQUEUE_FLAGS_NO_WAIT :\n"
    "                    depth % 3 == 1 ? CLK_ENQUEUE_FLAGS_WAIT_KERNEL : CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP;\n"
    "        int r = enqueue_kernel(q, flags, ndrange_1D(1), ^{ level(q, out, depth + 1); });\n"
    "        if (r) out[17] = r;\n"
    "    }\n"
    "}\n"
    "kernel void parent(global int *out, queue_t q) { level(q, out, 0); }\n";

TEST(recursion)
{
    cl_program p = build(recursion_source);
    if (!p)
        return;
    cl_mem out = zeroed(18 * sizeof(int));
    int r[18];
    run(p, "parent", out, dev_queue, 1, 1, r, 18);
    for (int d = 0; d < 16; d++)
        CHECK(r[d] == d + 1, "level %d wrote %d", d, r[d]);
    CHECK(r[16] == 1, "the parent's event completed before its deepest descendant");
    CHECK(r[17] == 0, "enqueue_kernel returned %d", r[17]);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- device events linking children, markers, user events, profiling --------------------- */

static const char events_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    clk_event_t a, b, m, user = create_user_event();\n"
    "    out[20] = is_valid_event(user);\n"
    "    /* A writes slowly; B waits for A's event and reads what A wrote */\n"
    "    out[10] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &a, ^{\n"
    "        int acc = 0;\n"
    "        for (int k = 0; k < 1000000; k++) acc += k & 3;\n"
    "        out[get_global_id(0)] = 10 + (int)get_global_id(0) + (acc & 0);\n"
    "    });\n"
    "    out[11] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &a, &b, ^{\n"
    "        out[4 + get_global_id(0)] = out[get_global_id(0)] * 2;\n"
    "    });\n"
    "    /* C waits for the user event, which this kernel sets after enqueueing C */\n"
    "    out[12] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, NULL, ^{ out[8] = out[9] + 1; });\n"
    "    out[9] = 41;\n"
    "    set_user_event_status(user, CL_COMPLETE);\n"
    "    /* a marker on A and B, and a child after the marker */\n"
    "    clk_event_t ab[2] = { a, b };\n"
    "    out[13] = enqueue_marker(q, 2, ab, &m);\n"
    "    out[14] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL, ^{\n"
    "        int ok = 1;\n"
    "        for (int i = 0; i < 4; i++) ok &= out[i] == 10 + i && out[4 + i] == 2 * (10 + i);\n"
    "        out[15] = ok;\n"
    "    });\n"
    "    capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, (global ulong *)&out[22]);\n"
    "    out[21] = is_valid_event(a) && is_valid_event(m) && !is_valid_event(CLK_NULL_EVENT);\n"
    "    retain_event(a);\n"
    "    release_event(a);\n"
    "    release_event(a);\n"
    "    release_event(b);\n"
    "    release_event(m);\n"
    "    release_event(user);\n"
    "}\n";

TEST(events)
{
    cl_program p = build(events_source);
    if (!p)
        return;
    cl_mem out = zeroed(32 * sizeof(int));
    int r[32];
    run(p, "parent", out, dev_queue, 1, 1, r, 32);
    for (int i = 10; i <= 14; i++)
        CHECK(r[i] == 0, "call %d returned %d", i - 10, r[i]);
    for (int i = 0; i < 4; i++)
        CHECK(r[4 + i] == 2 * (10 + i), "B read %d from A", r[4 + i] / 2);
    CHECK(r[8] == 42, "the child waiting for the user event ran before it was set (%d)", r[8]);
    CHECK(r[15] == 1, "the child after the marker ran before A and B");
    CHECK(r[20] == 1 && r[21] == 1, "is_valid_event");
    uint64_t exec[2];
    memcpy(exec, &r[22], sizeof exec);
    CHECK(exec[0] > 0 && exec[1] >= exec[0], "A's profiling: %llu, %llu ns", (unsigned long long)exec[0],
          (unsigned long long)exec[1]);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* A child whose wait list holds a failed user event: enqueue_kernel and
 * enqueue_marker succeed, the child never runs, its event fails, the parent
 * completes all the same, and the child's job is freed (the memcheck run
 * of this case: it leaked, a finding of fuzz_device_enqueue). */
static const char failed_wait_list_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    clk_event_t bad = create_user_event(), child, mark;\n"
    "    set_user_event_status(bad, -1);\n"
    "    out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &bad, &child,\n"
    "                            ^{ out[1] = 1; });\n"
    "    out[2] = enqueue_marker(q, 1, &bad, &mark);\n"
    "    out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &child, 0,\n"
    "                            ^{ out[4] = 1; });\n"
    "    release_event(bad);\n"
    "    if (out[0] == CLK_SUCCESS) release_event(child);\n"
    "    if (out[2] == CLK_SUCCESS) release_event(mark);\n"
    "}\n";

TEST(failed_wait_list)
{
    cl_program p = build(failed_wait_list_source);
    if (!p)
        return;
    cl_mem out = zeroed(8 * sizeof(int));
    int r[8];
    CHECK_ERR(run(p, "parent", out, dev_queue, 1, 1, r, 8), CL_SUCCESS);
    CHECK(r[0] == 0 && r[2] == 0 && r[3] == 0, "enqueue_kernel %d, enqueue_marker %d, the next %d", r[0], r[2], r[3]);
    CHECK(r[1] == 0, "the child of a failed event ran");
    CHECK(r[4] == 0, "the child waiting for the failed child ran");
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- events that are not events: garbage, pointers, NULL, released ones ----------------- */

/* Each wait list below holds one clk_event_t that names no event: a fill
 * pattern, a small integer, NULL, CLK_NULL_EVENT, the address of global
 * memory that looks like an event of Mosaic's (the magic word its events
 * once began with, everywhere), an event released before, an uninitialised
 * variable.  enqueue_marker and enqueue_kernel must return
 * CLK_INVALID_EVENT_WAIT_LIST, the other event functions do nothing, and a
 * real event still works after them. */
static const char bad_events_source[] =
    "#define BAD 7\n"
    "kernel void parent(global int *out, queue_t q, global ulong *fake) {\n"
    "    ulong raw[BAD];\n"
    "    raw[0] = 0x4141414141414141ul;\n"
    "    raw[1] = 1;\n"
    "    raw[2] = 0;\n"
    "    clk_event_t null_event = CLK_NULL_EVENT;\n"
    "    raw[3] = *(ulong *)&null_event;\n"
    "    for (int i = 0; i < 64; i++) fake[i] = 0x4d6f446576457674ul;\n"
    "    raw[4] = (ulong)&fake[8];\n"
    "    clk_event_t gone = create_user_event();\n"
    "    release_event(gone);\n"
    "    raw[5] = *(ulong *)&gone;\n"
    "    clk_event_t uninitialised[2];\n"
    "    raw[6] = *(ulong *)&uninitialised[1];\n"
    "    for (int i = 0; i < BAD; i++) {\n"
    "        const clk_event_t *list = (const clk_event_t *)&raw[i];\n"
    "        clk_event_t e;\n"
    "        out[i] = enqueue_marker(q, 1, list, &e);\n"
    "        out[10 + i] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, list, NULL,\n"
    "                                     ^{ atomic_inc(&out[40]); });\n"
    "        out[20 + i] = is_valid_event(*list);\n"
    "        retain_event(*list);\n"
    "        release_event(*list);\n"
    "        set_user_event_status(*list, CL_COMPLETE);\n"
    "        capture_event_profiling_info(*list, CLK_PROFILING_COMMAND_EXEC_TIME, (global ulong *)&out[30]);\n"
    "    }\n"
    "    /* a list with a good event first and a bad one after it */\n"
    "    clk_event_t good = create_user_event(), two[2] = { good, *(const clk_event_t *)&raw[0] };\n"
    "    clk_event_t e;\n"
    "    out[7] = enqueue_marker(q, 2, two, &e);\n"
    "    /* the good event alone is fine */\n"
    "    out[8] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &good, NULL,\n"
    "                            ^{ out[41] = 1; });\n"
    "    set_user_event_status(good, CL_COMPLETE);\n"
    "    release_event(good);\n"
    "}\n";

TEST(bad_events)
{
    cl_program p = build(bad_events_source);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "parent", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = zeroed(64 * sizeof(int)), fake = zeroed(64 * sizeof(cl_ulong));
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof dev_queue, &dev_queue), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof fake, &fake), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    int r[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL), CL_SUCCESS);
    static const char *const what[] = {"0x4141414141414141", "1", "NULL", "CLK_NULL_EVENT",
                                       "a global address holding Mosaic's old event magic", "a released event",
                                       "an uninitialised clk_event_t"};
    for (int i = 0; i < 7; i++) {
        CHECK(r[i] == -57, "enqueue_marker on %s: %d (CLK_INVALID_EVENT_WAIT_LIST is -57)", what[i], r[i]);
        CHECK(r[10 + i] == -57, "enqueue_kernel on %s: %d", what[i], r[10 + i]);
        CHECK(r[20 + i] == 0, "is_valid_event(%s) is true", what[i]);
    }
    CHECK(r[40] == 0, "%d children with a bad wait list ran", r[40]);
    CHECK(r[30] == 0 && r[31] == 0, "capture_event_profiling_info wrote for no event");
    CHECK(r[7] == -57, "enqueue_marker on a good and a bad event: %d", r[7]);
    CHECK(r[8] == 0 && r[41] == 1, "the good event: enqueue_kernel %d, the child ran: %d", r[8], r[41]);
    /* the fake event in the buffer is as the kernel wrote it */
    cl_ulong f[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, fake, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL), CL_SUCCESS);
    int changed = 0;
    for (int i = 0; i < 64; i++)
        changed += f[i] != 0x4d6f446576457674ull;
    CHECK(changed == 0, "%d words of the buffer changed", changed);
    clReleaseMemObject(fake);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* queue_t values that are not device queues: enqueue_kernel and
 * enqueue_marker return CLK_INVALID_QUEUE without reading through them (a
 * fill pattern, NULL, global memory that carries a queue's tag everywhere,
 * a device queue the host released, an uninitialised variable); the good
 * queue after them still works. */
static const char bad_queues_source[] =
    "#define BAD 5\n"
    "kernel void parent(global int *out, queue_t good, global ulong *fake, ulong released) {\n"
    "    ulong raw[BAD];\n"
    "    raw[0] = 0x4141414141414141ul;\n"
    "    raw[1] = 0;\n"
    "    for (int i = 0; i < 64; i++) fake[i] = 0x4d6f50344d6f5034ul;\n"
    "    raw[2] = (ulong)&fake[8];\n"
    "    raw[3] = released;\n"
    "    queue_t uninitialised[2];\n"
    "    raw[4] = *(ulong *)&uninitialised[1];\n"
    "    clk_event_t user = create_user_event();\n"
    "    for (int i = 0; i < BAD; i++) {\n"
    "        queue_t q = *(const queue_t *)&raw[i];\n"
    "        clk_event_t e;\n"
    "        out[i] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ atomic_inc(&out[40]); });\n"
    "        out[10 + i] = enqueue_marker(q, 1, &user, &e);\n"
    "    }\n"
    "    set_user_event_status(user, CL_COMPLETE);\n"
    "    release_event(user);\n"
    "    out[20] = enqueue_kernel(good, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[41] = 1; });\n"
    "}\n";

TEST(bad_queues)
{
    cl_program p = build(bad_queues_source);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "parent", &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* the host's side: a queue_t argument that is no device queue */
    cl_ulong garbage = 0x4141414141414141ull;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof garbage, &garbage), CL_INVALID_DEVICE_QUEUE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof queue, &queue), CL_INVALID_DEVICE_QUEUE);
    cl_command_queue none = NULL;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof none, &none), CL_INVALID_DEVICE_QUEUE);
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    0 };
    cl_command_queue gone = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_ulong released = (cl_ulong)(uintptr_t)gone;
    CHECK_ERR(clReleaseCommandQueue(gone), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof released, &released), CL_INVALID_DEVICE_QUEUE);

    cl_mem out = zeroed(64 * sizeof(int)), fake = zeroed(64 * sizeof(cl_ulong));
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof dev_queue, &dev_queue), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof fake, &fake), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof released, &released), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    int r[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL), CL_SUCCESS);
    static const char *const what[] = {"0x4141414141414141", "NULL", "a global address holding a queue's tag",
                                       "a released device queue", "an uninitialised queue_t"};
    for (int i = 0; i < 5; i++) {
        CHECK(r[i] == -102, "enqueue_kernel on %s: %d (CLK_INVALID_QUEUE is -102)", what[i], r[i]);
        CHECK(r[10 + i] == -102, "enqueue_marker on %s: %d", what[i], r[10 + i]);
    }
    CHECK(r[40] == 0, "%d children on a bad queue ran", r[40]);
    CHECK(r[20] == 0 && r[41] == 1, "the good queue: enqueue_kernel %d, the child ran: %d", r[20], r[41]);
    clReleaseMemObject(fake);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- __local block arguments, ndrange_2D/3D with offsets and local sizes ------------------ */

static const char locals_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    size_t g2[2] = {8, 6}, l2[2] = {4, 3}, o2[2] = {100, 200};\n"
    "    size_t g3[3] = {4, 4, 2}, l3[3] = {2, 2, 2}, o3[3] = {1, 2, 3};\n"
    "    out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64, 16),\n"
    "        ^(local void *a, local void *b) {\n"
    "            local int *x = a; local long *y = b;\n"
    "            size_t l = get_local_id(0), n = get_local_size(0);\n"
    "            x[l] = (int)get_global_id(0); y[l] = 3 * (long)l;\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "            out[16 + get_global_id(0)] = x[n - 1 - l] + (int)y[n - 1 - l];\n"
    "        }, 16u * sizeof(int), 16u * sizeof(long));\n"
    "    out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(o2, g2, l2), ^{\n"
    "        size_t x = get_global_id(0) - 100, y = get_global_id(1) - 200;\n"
    "        out[100 + y * 8 + x] = (int)(get_local_size(0) * 10 + get_local_size(1)) * 1000 +\n"
    "                               (int)(get_num_groups(0) * 10 + get_num_groups(1)) * 10 + (int)get_work_dim();\n"
    "    });\n"
    "    out[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(o3, g3, l3), ^{\n"
    "        size_t x = get_global_id(0) - 1, y = get_global_id(1) - 2, z = get_global_id(2) - 3;\n"
    "        out[200 + (z * 4 + y) * 4 + x] = (int)get_global_linear_id() + 1;\n"
    "    });\n"
    "    out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(10, 20, 5), ^{\n"
    "        out[240 + get_global_id(0) - 10] = (int)get_global_offset(0) + (int)get_enqueued_local_size(0);\n"
    "    });\n"
    "}\n";

TEST(locals_and_ndranges)
{
    cl_program p = build(locals_source);
    if (!p)
        return;
    cl_mem out = zeroed(272 * sizeof(int));
    int r[272];
    run(p, "parent", out, dev_queue, 1, 1, r, 272);
    for (int i = 0; i < 4; i++)
        CHECK(r[i] == 0, "enqueue %d returned %d", i, r[i]);
    int bad = 0;
    for (int g = 0; g < 64; g++) {
        int group = g / 16, l = g % 16, mirror = 15 - l;
        bad += r[16 + g] != group * 16 + mirror + 3 * mirror;
    }
    CHECK(bad == 0, "%d work-items of the __local child are wrong", bad);
    bad = 0;
    for (int i = 0; i < 48; i++)
        bad += r[100 + i] != 43 * 1000 + 22 * 10 + 2;
    CHECK(bad == 0, "%d work-items of the 2D child are wrong (first %d)", bad, r[100]);
    bad = 0;
    for (int i = 0; i < 32; i++)
        bad += r[200 + i] != i + 1;
    CHECK(bad == 0, "%d work-items of the 3D child are wrong", bad);
    bad = 0;
    for (int i = 0; i < 20; i++)
        bad += r[240 + i] != 15;
    CHECK(bad == 0, "%d work-items of the offset child are wrong", bad);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* ---- errors: a full queue and bad arguments give CLK_* codes, never a crash ------------- */

static const char errors_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    /* WAIT_KERNEL children cannot start before this kernel ends: they fill q */\n"
    "    int ok = 0, full = 0, other = 0;\n"
    "    for (int i = 0; i < 200; i++) {\n"
    "        int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ atomic_inc(&out[10]); });\n"
    "        if (r == CLK_SUCCESS) ok++; else if (r == CLK_DEVICE_QUEUE_FULL) full++; else other++;\n"
    "    }\n"
    "    out[0] = ok; out[1] = full; out[2] = other;\n"
    "    queue_t dq = get_default_queue();\n"
    "    size_t big[3] = {1ul << 30, 1ul << 30, 1ul << 30};\n"
    "    out[3] = enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), ^{ out[11] = 1; });\n"
    "    out[4] = enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64, 100000), ^{ out[11] = 1; });\n"
    "    out[5] = enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(big), ^{ out[11] = 1; });\n"
    "    queue_t nq = CLK_NULL_QUEUE;\n"
    "    out[6] = enqueue_kernel(nq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[11] = 1; });\n"
    "    clk_event_t e;\n"
    "    out[7] = enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, NULL, &e, ^{ out[11] = 1; });\n"
    "    out[8] = enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^(local void *p){ out[11] = 1; }, 0u);\n"
    "    out[9] = enqueue_marker(dq, 0, NULL, &e);\n"
    "    out[12] = get_kernel_work_group_size(^{ out[11] = 1; });\n"
    "    out[13] = get_kernel_preferred_work_group_size_multiple(^{ out[11] = 1; });\n"
    "}\n";

TEST(errors)
{
    cl_program p = build(errors_source);
    if (!p)
        return;
    cl_int err;
    cl_queue_properties small[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    CL_QUEUE_SIZE, 2048, 0 };
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, small, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = zeroed(16 * sizeof(int));
    int r[16];
    run(p, "parent", out, q, 1, 1, r, 16);
    CHECK(r[0] > 0 && r[0] < 200 && r[1] == 200 - r[0] && r[2] == 0, "%d enqueued, %d full, %d other errors", r[0],
          r[1], r[2]);
    CHECK(r[10] == r[0], "%d children ran, %d were enqueued", r[10], r[0]);
    CHECK(r[3] == -160 && r[4] == -160 && r[5] == -160, "bad ndranges: %d %d %d (CLK_INVALID_NDRANGE is -160)", r[3],
          r[4], r[5]);
    CHECK(r[6] == -102, "a null queue: %d (CLK_INVALID_QUEUE is -102)", r[6]);
    CHECK(r[7] == -57 && r[9] == -57, "bad wait lists: %d %d (CLK_INVALID_EVENT_WAIT_LIST is -57)", r[7], r[9]);
    CHECK(r[8] == -51, "a __local size of 0: %d (CLK_INVALID_ARG_SIZE is -51)", r[8]);
    CHECK(r[11] == 0, "a child that was refused ran");
    size_t max_wg = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    CHECK(r[12] == (int)max_wg && r[13] == 8, "get_kernel_work_group_size %d, preferred multiple %d", r[12], r[13]);
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
}

/* The sub-group queries on blocks (OpenCL C 3.0 with __opencl_c_subgroups):
 * sub-groups of 8 (docs/subgroups.md) over the group size the launch would get. */
static const char sub_group_queries_source[] =
    "kernel void parent(global int *out, queue_t q) {\n"
    "    void (^b)(void) = ^{ out[15] = 1; };\n"
    "    size_t g2[2] = {16, 16}, l2[2] = {4, 4}, g3[3] = {6, 6, 6}, l3[3] = {3, 3, 3};\n"
    "    out[0] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(64, 20), b);\n"
    "    out[1] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(64, 20), b);\n"
    "    out[2] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(6, 3), b);\n"
    "    out[3] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(6, 3), b);\n"
    "    out[4] = get_kernel_sub_group_count_for_ndrange(ndrange_2D(g2, l2), b);\n"
    "    out[5] = get_kernel_sub_group_count_for_ndrange(ndrange_3D(g3, l3), b);\n"
    "    out[6] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(0), b);\n"
    "    out[7] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(0), b);\n"
    "    out[8] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(1024), b);\n"
    "}\n";

TEST(sub_group_queries)
{
    cl_program p = test_build_program(context, device, sub_group_queries_source, "-cl-std=CL3.0");
    if (!p)
        return;
    cl_mem out = zeroed(16 * sizeof(int));
    int r[16];
    run(p, "parent", out, dev_queue, 1, 1, r, 16);
    CHECK(r[0] == 3 && r[1] == 8, "20 work-items: %d sub-groups of at most %d", r[0], r[1]);
    CHECK(r[2] == 1 && r[3] == 3, "3 work-items: %d sub-groups of at most %d", r[2], r[3]);
    CHECK(r[4] == 2 && r[5] == 4, "4x4: %d sub-groups, 3x3x3: %d", r[4], r[5]);
    CHECK(r[6] == 0 && r[7] == 0, "an empty ndrange: %d, %d", r[6], r[7]);
    CHECK(r[8] == 8, "a group the device chooses: sub-groups of at most %d", r[8]);
    CHECK(r[15] == 0, "the block was only queried, yet it ran");
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

/* The block kernels are not the program's kernels. */
TEST(block_kernels_hidden)
{
    cl_program p = build(no_wait_source);
    if (!p)
        return;
    char names[256] = "";
    size_t n = 0;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL), CL_SUCCESS);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_SUCCESS);
    CHECK(!strcmp(names, "parent") && n == 1, "kernels: %s (%zu)", names, n);
    cl_int err;
    CHECK(!clCreateKernel(p, "__parent_block_invoke_kernel", &err));
    CHECK_ERR(err, CL_INVALID_KERNEL_NAME);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    cl_int err;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_queue_properties def[] = { CL_QUEUE_PROPERTIES,
                                  CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                  0 };
    dev_queue = clCreateCommandQueueWithProperties(context, device, def, &err);
    CHECK_ERR(err, CL_SUCCESS);
    test_run(argc, argv);
    clReleaseCommandQueue(dev_queue);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
