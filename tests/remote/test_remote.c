/*
 * Remote devices (src/devices/remote, docs/remote.md), end to end: this
 * program runs under mpirun with MOSAIC_REMOTE=mpi and two servers
 * (run_under_mpi.sh), and sees its CPU and the servers' devices in one
 * platform.
 */
#define TEST_LIST "test_remote.list"
#include "cl_test.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static cl_platform_id platform;
static cl_device_id local_cpu;
static cl_device_id remote[8];
static cl_uint num_remote;

static const char *source =
    "kernel void scale(global int *x, int k) { size_t i = get_global_id(0); x[i] = x[i] * k + (int)i; }\n"
    "kernel void add_one(global int *x) { x[get_global_id(0)] += 1; }\n"
    "kernel void sum_local(global const int *in, global int *out, local int *tmp) {\n"
    "  size_t l = get_local_id(0); tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) { int s = 0; for (size_t j = 0; j < get_local_size(0); j++) s += tmp[j];\n"
    "                out[get_group_id(0)] = s; } }\n"
    "kernel void empty(void) {}\n";

static cl_program build(cl_context context, cl_uint n, const cl_device_id *devices)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = clBuildProgram(p, n, devices, "", NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        char *log = test_build_log(p, devices[0]);
        fprintf(stderr, "%s\n", log);
        free(log);
    }
    return p;
}

TEST(devices)
{
    CHECK(num_remote >= 2, "%u remote devices; two servers were started", num_remote);
    for (cl_uint i = 0; i < num_remote; i++) {
        char name[256] = "";
        cl_device_type type = 0;
        cl_uint units = 0;
        cl_ulong mem = 0;
        CHECK_ERR(clGetDeviceInfo(remote[i], CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
        CHECK_ERR(clGetDeviceInfo(remote[i], CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
        CHECK_ERR(clGetDeviceInfo(remote[i], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
        CHECK_ERR(clGetDeviceInfo(remote[i], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL), CL_SUCCESS);
        CHECK(strstr(name, "server ") != NULL, "name %s says no server", name);
        CHECK(type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU);
        CHECK(units >= 1 && mem > 0);
        printf("remote device %u: %s, %u compute units\n", i, name, units);
    }
}

TEST(kernel)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &remote[0], NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, remote[0], NULL, &err);
    cl_program p = build(context, 1, &remote[0]);
    cl_kernel k = clCreateKernel(p, "scale", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 1000 };
    int host[N], out[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int three = 3;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof three, &three), CL_SUCCESS);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != i * 3 + i;
    CHECK(wrong == 0, "%d wrong", wrong);
    /* __local memory and work-groups */
    cl_kernel s = clCreateKernel(p, "sum_local", &err);
    cl_mem sums = clCreateBuffer(context, CL_MEM_READ_WRITE, 10 * sizeof(int), NULL, &err);
    CHECK_ERR(clSetKernelArg(s, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(s, 1, sizeof sums, &sums), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(s, 2, 100 * sizeof(int), NULL), CL_SUCCESS);
    size_t local = 100;
    CHECK_ERR(clEnqueueNDRangeKernel(q, s, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    int got[10];
    CHECK_ERR(clEnqueueReadBuffer(q, sums, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    for (int g = 0; g < 10; g++) {
        int want = 0;
        for (int i = g * 100; i < g * 100 + 100; i++)
            want += i * 4;
        CHECK(got[g] == want, "group %d: %d, not %d", g, got[g], want);
    }
    /* a build error comes back with the server's log */
    const char *bad = "kernel void broken(global int *x) { x[0] = undefined_thing; }";
    cl_program pb = clCreateProgramWithSource(context, 1, &bad, NULL, &err);
    CHECK_ERR(clBuildProgram(pb, 1, &remote[0], "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = test_build_log(pb, remote[0]);
    CHECK(strstr(log, "undefined_thing") != NULL, "log: %s", log);
    free(log);
    clReleaseProgram(pb);
    clReleaseMemObject(sums);
    clReleaseKernel(s);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
}

TEST(buffer_ops)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &remote[1 % num_remote], NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, remote[1 % num_remote], NULL, &err);
    enum { N = 4096 };
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    int pattern = 7;
    CHECK_ERR(clEnqueueFillBuffer(q, a, &pattern, sizeof pattern, 0, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    int row[16];
    for (int i = 0; i < 16; i++)
        row[i] = 100 + i;
    CHECK_ERR(clEnqueueWriteBuffer(q, a, CL_FALSE, 64 * sizeof(int), sizeof row, row, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueCopyBuffer(q, a, b, 0, 0, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    int *m = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, N * sizeof(int), 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (m) {
        CHECK(m[0] == 7 && m[63] == 7 && m[64] == 100 && m[79] == 115 && m[80] == 7 && m[N - 1] == 7);
        m[5] = 55;
        CHECK_ERR(clEnqueueUnmapMemObject(q, b, m, 0, NULL, NULL), CL_SUCCESS);
    }
    /* a sub-buffer, and a rectangle */
    cl_buffer_region region = {1024 * sizeof(int), 1024 * sizeof(int)};
    cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int sub_first = 0;
    CHECK_ERR(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, sizeof sub_first, &sub_first, 0, NULL, NULL), CL_SUCCESS);
    CHECK(sub_first == 7);
    int rect[4][2] = {{0}};
    size_t origin[3] = {60 * sizeof(int), 0, 0}, host_origin[3] = {0, 0, 0}, r[3] = {2 * sizeof(int), 4, 1};
    CHECK_ERR(clEnqueueReadBufferRect(q, b, CL_TRUE, origin, host_origin, r, 2 * sizeof(int), 0, 2 * sizeof(int), 0,
                                      rect, 0, NULL, NULL),
              CL_SUCCESS);
    CHECK(rect[0][0] == 7 && rect[2][0] == 100 && rect[3][1] == 103, "%d %d %d", rect[0][0], rect[2][0], rect[3][1]);
    int five = 0;
    CHECK_ERR(clEnqueueReadBuffer(q, b, CL_TRUE, 5 * sizeof(int), sizeof five, &five, 0, NULL, NULL), CL_SUCCESS);
    CHECK(five == 55, "the unmap wrote back %d", five);
    clReleaseMemObject(sub);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
}

static void CL_CALLBACK count_callback(cl_event e, cl_int status, void *data)
{
    (void)e, (void)status;
    __atomic_fetch_add((int *)data, 1, __ATOMIC_SEQ_CST);
}

/* The local CPU and a remote device in one context: a user event holds a
 * remote kernel back, a local kernel waits for the remote one, a marker
 * and a callback follow both. */
TEST(events_across)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    cl_int err;
    cl_device_id both[2] = {local_cpu, remote[0]};
    cl_context context = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue ql = clCreateCommandQueueWithProperties(context, local_cpu, NULL, &err);
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue qr = clCreateCommandQueueWithProperties(context, remote[0], ooo, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_program p = build(context, 2, both);
    cl_kernel add = clCreateKernel(p, "add_one", &err);
    enum { N = 256 };
    int zero[N] = {0};
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    CHECK_ERR(clSetKernelArg(add, 0, sizeof buf, &buf), CL_SUCCESS);
    cl_event gate = clCreateUserEvent(context, &err);
    size_t global = N;
    cl_event on_remote, on_local, marker;
    CHECK_ERR(clEnqueueNDRangeKernel(qr, add, 1, NULL, &global, NULL, 1, &gate, &on_remote), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(ql, add, 1, NULL, &global, NULL, 1, &on_remote, &on_local), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(qr, add, 1, NULL, &global, NULL, 1, &on_local, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueMarkerWithWaitList(qr, 0, NULL, &marker), CL_SUCCESS);
    int called = 0;
    CHECK_ERR(clSetEventCallback(marker, CL_COMPLETE, count_callback, &called), CL_SUCCESS);
    cl_int status = 0;
    clGetEventInfo(on_remote, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_QUEUED || status == CL_SUBMITTED, "the remote kernel ran before its user event: %d", status);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &marker), CL_SUCCESS);
    int out[N];
    CHECK_ERR(clEnqueueReadBuffer(ql, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != 3;
    CHECK(wrong == 0, "%d elements not 3 (first %d)", wrong, out[0]);
    CHECK_ERR(clFinish(qr), CL_SUCCESS);
    for (int tries = 0; tries < 1000 && !__atomic_load_n(&called, __ATOMIC_SEQ_CST); tries++)
        usleep(1000);
    CHECK(called == 1, "the marker's callback ran %d times", called);
    cl_ulong start = 0, end = 0;
    clReleaseEvent(gate);
    clReleaseEvent(on_remote);
    clReleaseEvent(on_local);
    clReleaseEvent(marker);
    (void)start, (void)end;
    clReleaseMemObject(buf);
    clReleaseKernel(add);
    clReleaseProgram(p);
    clReleaseCommandQueue(ql);
    clReleaseCommandQueue(qr);
    clReleaseContext(context);
}

/* A user event that fails fails the remote command that waits for it, and
 * a command whose wait list holds that one; the next command of the
 * in-order queue, which names neither, still runs (docs/events.md). */
TEST(failure_propagates)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &remote[0], NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, remote[0], NULL, &err);
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_event gate = clCreateUserEvent(context, &err), fill, dependent, next;
    int v = 1;
    CHECK_ERR(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, 64, 1, &gate, &fill), CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, 64, 1, &fill, &dependent), CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, 64, 0, NULL, &next), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
    clWaitForEvents(1, &next);
    cl_int s1 = 0, s2 = 0, s3 = 0;
    clGetEventInfo(fill, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s1, &s1, NULL);
    clGetEventInfo(dependent, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s2, &s2, NULL);
    clGetEventInfo(next, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s3, &s3, NULL);
    CHECK(s1 < 0 && s2 < 0 && s3 == CL_COMPLETE, "statuses %d %d %d", s1, s2, s3);
    clReleaseEvent(gate);
    clReleaseEvent(fill);
    clReleaseEvent(dependent);
    clReleaseEvent(next);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
}

/* A kernel on server 0 makes a buffer, a kernel on server 1 reads it: the
 * second waits for the first by its event only. */
TEST(pipeline)
{
    if (num_remote < 2)
        TEST_SKIP("needs two remote devices");
    cl_int err;
    cl_device_id two[2] = {remote[0], remote[num_remote - 1]};
    cl_context context = clCreateContext(NULL, 2, two, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q0 = clCreateCommandQueueWithProperties(context, two[0], NULL, &err);
    cl_command_queue q1 = clCreateCommandQueueWithProperties(context, two[1], NULL, &err);
    cl_program p = build(context, 2, two);
    cl_kernel scale = clCreateKernel(p, "scale", &err), add = clCreateKernel(p, "add_one", &err);
    enum { N = 1 << 16 };
    int *host = malloc(N * sizeof *host);
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *host, host, &err);
    int two_ = 2;
    clSetKernelArg(scale, 0, sizeof buf, &buf);
    clSetKernelArg(scale, 1, sizeof two_, &two_);
    clSetKernelArg(add, 0, sizeof buf, &buf);
    size_t global = N;
    cl_event made, used;
    CHECK_ERR(clEnqueueNDRangeKernel(q0, scale, 1, NULL, &global, NULL, 0, NULL, &made), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(q1, add, 1, NULL, &global, NULL, 1, &made, &used), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q1, buf, CL_TRUE, 0, N * sizeof *host, host, 1, &used, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += host[i] != 3 * i + 1;
    CHECK(wrong == 0, "%d wrong (host[1] = %d)", wrong, host[1]);
    free(host);
    clReleaseEvent(made);
    clReleaseEvent(used);
    clReleaseMemObject(buf);
    clReleaseKernel(scale);
    clReleaseKernel(add);
    clReleaseProgram(p);
    clReleaseCommandQueue(q0);
    clReleaseCommandQueue(q1);
    clReleaseContext(context);
}

/* A SPIR-V program (tests/e2e/spirv/cache_a.cl: k writes specialization
 * constant 1), checked here and built on the server with the constant the
 * program set. */
TEST(il_program)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    char il_version[128] = "";
    clGetDeviceInfo(remote[0], CL_DEVICE_IL_VERSION, sizeof il_version, il_version, NULL);
    CHECK(strstr(il_version, "SPIR-V") != NULL, "CL_DEVICE_IL_VERSION is \"%s\"", il_version);
    size_t size = 0;
    void *il = test_read_spirv(SPIRV_DIR, "cache_a", &size);
    if (!il)
        return;
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &remote[0], NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, remote[0], NULL, &err);
    cl_program p = clCreateProgramWithIL(context, il, size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int value = 77;
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, sizeof value, &value), CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &remote[0], "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 4 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof out, &out);
    size_t global = 4;
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int got[4] = {0};
    CHECK_ERR(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    CHECK(got[0] == 77 && got[3] == 77, "the kernel wrote %d, not the constant 77", got[0]);
    /* damaged SPIR-V is refused here, before any server sees it */
    ((unsigned char *)il)[0] ^= 0xff;
    cl_program bad = clCreateProgramWithIL(context, il, size, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "damaged SPIR-V: error %d", err);
    free(il);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
}

/* What an empty kernel costs on a remote device, enqueued and waited for
 * one at a time (printed; the figure docs/remote.md quotes). */
TEST(round_trip)
{
    if (num_remote < 1)
        TEST_SKIP("no remote device");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &remote[0], NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, remote[0], NULL, &err);
    cl_program p = build(context, 1, &remote[0]);
    cl_kernel k = clCreateKernel(p, "empty", &err);
    size_t global = 1;
    for (int i = 0; i < 20; i++) /* warm up */
        clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    clFinish(q);
    enum { RUNS = 500 };
    double t0 = test_now_ms();
    for (int i = 0; i < RUNS; i++) {
        CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(q), CL_SUCCESS);
    }
    double us = (test_now_ms() - t0) * 1000.0 / RUNS;
    printf("empty kernel on a remote device, enqueued and finished one at a time: %.1f us each\n", us);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(context);
}

/* The parent of process `pid` (from /proc), or 0. */
static pid_t parent_of(const char *pid)
{
    char path[300], line[256];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "r");
    pid_t parent = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "PPid:", 5))
            parent = (pid_t)atoi(line + 5);
    if (f)
        fclose(f);
    return parent;
}

/* The process of mosaic-server number `server` (its rank among the
 * servers) of this test's job, found in /proc: 0 when there is none.  Its
 * mpirun started it, as it started this program (a server of another
 * test's job, running beside this one, has another). */
static pid_t server_pid(int server)
{
    DIR *proc = opendir("/proc");
    pid_t found = 0;
    char want[64];
    /* servers started by the launcher come after the program in its world */
    const char *launched = getenv("MOSAIC_TEST_LAUNCHED");
    snprintf(want, sizeof want, "OMPI_COMM_WORLD_RANK=%d", server + (launched && !strcmp(launched, "1")));
    for (struct dirent *e; proc && !found && (e = readdir(proc));) {
        char path[300], buf[65536];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[n] = '\0';
        if (!strstr(buf, "mosaic-server") || parent_of(e->d_name) != getppid())
            continue;
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        f = fopen(path, "r");
        n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < n; i += strlen(buf + i) + 1) {
            buf[n] = '\0';
            if (!strcmp(buf + i, want))
                found = (pid_t)atoi(e->d_name);
        }
    }
    if (proc)
        closedir(proc);
    return found;
}

/* A server that dies fails the commands of its devices; the program goes
 * on with the other server's. */
TEST(server_dies)
{
    if (num_remote < 2)
        TEST_SKIP("needs two remote devices");
    pid_t victim = server_pid(1);
    if (!victim)
        TEST_SKIP("server 1's process is not visible in /proc");
    cl_int err;
    cl_device_id dead = remote[num_remote - 1], alive = remote[0];
    cl_context c_dead = clCreateContext(NULL, 1, &dead, NULL, NULL, &err);
    cl_context c_alive = clCreateContext(NULL, 1, &alive, NULL, NULL, &err);
    cl_command_queue q_dead = clCreateCommandQueueWithProperties(c_dead, dead, NULL, &err);
    cl_command_queue q_alive = clCreateCommandQueueWithProperties(c_alive, alive, NULL, &err);
    cl_mem b_dead = clCreateBuffer(c_dead, CL_MEM_READ_WRITE, 1024, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem b_alive = clCreateBuffer(c_alive, CL_MEM_READ_WRITE, 1024, NULL, &err);
    kill(victim, SIGKILL);
    usleep(200000);
    int v = 3;
    cl_event fill;
    CHECK_ERR(clEnqueueFillBuffer(q_dead, b_dead, &v, sizeof v, 0, 1024, 0, NULL, &fill), CL_SUCCESS);
    clWaitForEvents(1, &fill);
    cl_int status = 0;
    clGetEventInfo(fill, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status < 0, "a fill on the dead server's device ended with %d", status);
    clReleaseEvent(fill);
    int got = 0;
    CHECK_ERR(clEnqueueFillBuffer(q_alive, b_alive, &v, sizeof v, 0, 1024, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q_alive, b_alive, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL), CL_SUCCESS);
    CHECK(got == 3, "the other server's device read %d", got);
    clReleaseMemObject(b_dead);
    clReleaseMemObject(b_alive);
    clReleaseCommandQueue(q_dead);
    clReleaseCommandQueue(q_alive);
    clReleaseContext(c_dead);
    clReleaseContext(c_alive);
}

int main(int argc, char **argv)
{
    cl_uint n = 0;
    cl_device_id all[16];
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, all, &n) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetDeviceInfo(all[i], CL_DEVICE_NAME, sizeof name, name, NULL);
        if (strstr(name, ", server ") && num_remote < 8)
            remote[num_remote++] = all[i];
        else if (!local_cpu)
            local_cpu = all[i];
    }
    test_run(argc, argv);
    return test_summary();
}
