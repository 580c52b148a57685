/*
 * The GPU device (src/devices/cuda) through the public API.  Two runs of
 * the same cases (test_gpu_device.list):
 *   - gpu_device: MOSAIC_CUDA_DRIVER is the fake driver (fake_cuda.c): no
 *     GPU needed; its memory is the host's and its kernels cannot run, so
 *     a launch must fail its command, not pass for done;
 *   - gpu_device_real (tests/gpu, label gpu): the machine's driver; every
 *     kernel runs and its results are checked; skipped without a GPU.
 * What is checked: the device in the platform and what it reports, a
 * context of it and the CPU with buffers used on both, buffers, transfers (flat and
 * rectangles), fills of every pattern size, maps, sub-buffers, builds and
 * their logs, and launches (offsets, smaller last groups, __local).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/mosaic_command_buffer.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_gpu_device.list"
#include "test.h"

static cl_device_id gpu;
static bool fake; /* the fake driver: kernels cannot run */

/* The platform's first GPU, or NULL. */
static cl_device_id find_gpu(void)
{
    cl_platform_id platform;
    cl_device_id d = NULL;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &d, &n) != CL_SUCCESS || n == 0)
        return NULL;
    char name[256] = "";
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    fake = strcmp(name, "Mosaic fake GPU") == 0;
    return d;
}

#define NEED_GPU()                                                                              \
    do {                                                                                        \
        if (!gpu && !(gpu = find_gpu()))                                                        \
            TEST_SKIP("no GPU device: no NVIDIA driver or no GPU (or MOSAIC_GPU=0)");            \
    } while (0)

typedef struct gpu_env {
    cl_context context;
    cl_command_queue queue;
} gpu_env;

static bool env_open(gpu_env *e)
{
    cl_int err;
    e->context = clCreateContext(NULL, 1, &gpu, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    e->queue = e->context ? clCreateCommandQueueWithProperties(e->context, gpu, NULL, &err) : NULL;
    CHECK(e->queue, "no queue: %d", err);
    return e->queue != NULL;
}

/* A case's start: a GPU, with a context and a queue on it in e, or the
 * case ends there (skipped, or failed). */
#define GPU_ENV(e)     \
    NEED_GPU();        \
    gpu_env e;         \
    if (!env_open(&e)) \
        return

static void env_close(gpu_env *e)
{
    if (e->queue)
        clReleaseCommandQueue(e->queue);
    if (e->context)
        clReleaseContext(e->context);
}

TEST(reports)
{
    NEED_GPU();
    cl_device_type type = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_DEVICE_TYPE_GPU, "type %lu", (unsigned long)type);
    cl_uint vendor_id = 0, units = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_VENDOR_ID, sizeof vendor_id, &vendor_id, NULL);
    CHECK(vendor_id == 0x10de, "vendor id %#x", vendor_id);
    clGetDeviceInfo(gpu, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    CHECK(units >= 1, "%u compute units", units);
    char text[4096] = "";
    clGetDeviceInfo(gpu, CL_DEVICE_VERSION, sizeof text, text, NULL);
    CHECK(strncmp(text, "OpenCL 3.0 ", 11) == 0, "version '%s'", text);
    clGetDeviceInfo(gpu, CL_DEVICE_OPENCL_C_VERSION, sizeof text, text, NULL);
    CHECK(strncmp(text, "OpenCL C 1.2", 12) == 0, "OpenCL C '%s'", text);
    clGetDeviceInfo(gpu, CL_DEVICE_EXTENSIONS, sizeof text, text, NULL);
    CHECK(strstr(text, "cl_khr_fp64") && strstr(text, "cl_khr_fp16") && strstr(text, "cl_khr_il_program"),
          "extensions '%s'", text);
    clGetDeviceInfo(gpu, CL_DEVICE_IL_VERSION, sizeof text, text, NULL);
    CHECK(!strcmp(text, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"), "IL '%s'", text);
    cl_ulong local = 0, global = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    clGetDeviceInfo(gpu, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    CHECK(local >= 48 * 1024 && global >= ((cl_ulong)1 << 30), "local %llu, global %llu",
          (unsigned long long)local, (unsigned long long)global);
    cl_bool images = CL_TRUE;
    clGetDeviceInfo(gpu, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    CHECK(images == CL_FALSE, "images reported");
    if (fake) { /* what fake_cuda.c's device says it is */
        CHECK(units == 4, "%u", units);
        CHECK(local == 227 * 1024, "%llu", (unsigned long long)local);
    }
    /* the CPU stays the default device */
    cl_platform_id platform;
    cl_device_id first = NULL;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &first, NULL);
    clGetDeviceInfo(first, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_DEVICE_TYPE_CPU, "the default device is of type %lu", (unsigned long)type);
}

/* The platform's CPU device. */
static cl_device_id find_cpu(void)
{
    cl_platform_id platform;
    cl_device_id d = NULL;
    clGetPlatformIDs(1, &platform, NULL);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &d, NULL), CL_SUCCESS);
    return d;
}

TEST(context_with_cpu)
{
    NEED_GPU();
    cl_platform_id platform;
    clGetPlatformIDs(1, &platform, NULL);
    cl_device_id both[2] = {find_cpu(), gpu};
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (c)
        clReleaseContext(c);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint n = 0;
    if (c) {
        clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL);
        clReleaseContext(c);
    }
    CHECK(n >= 2, "CL_DEVICE_TYPE_ALL gave %u devices", n);
}

/* A context of the CPU and the GPU, with a queue on each. */
typedef struct mixed_env {
    cl_device_id devices[2]; /* the CPU, the GPU */
    cl_context context;
    cl_command_queue cpu_queue, gpu_queue;
    cl_program program;
    cl_kernel scale_cpu, scale_gpu; /* x[i] = x[i] * k + i */
} mixed_env;

static const char scale_source[] =
    "__kernel void scale(__global int *x, int k) { size_t i = get_global_id(0); x[i] = x[i] * k + (int)i; }\n";

static bool mixed_open(mixed_env *e)
{
    cl_int err;
    memset(e, 0, sizeof *e);
    e->devices[0] = find_cpu();
    e->devices[1] = gpu;
    e->context = clCreateContext(NULL, 2, e->devices, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!e->context)
        return false;
    e->cpu_queue = clCreateCommandQueueWithProperties(e->context, e->devices[0], NULL, &err);
    e->gpu_queue = clCreateCommandQueueWithProperties(e->context, e->devices[1], NULL, &err);
    const char *src = scale_source;
    e->program = clCreateProgramWithSource(e->context, 1, &src, NULL, &err);
    err = clBuildProgram(e->program, 0, NULL, "", NULL, NULL); /* for both devices: two builds */
    CHECK_ERR(err, CL_SUCCESS);
    for (int d = 0; d < 2; d++) {
        cl_build_status status = CL_BUILD_NONE;
        clGetProgramBuildInfo(e->program, e->devices[d], CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
        CHECK(status == CL_BUILD_SUCCESS, "device %d: build status %d", d, status);
    }
    size_t sizes[2] = {0, 0};
    clGetProgramInfo(e->program, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, NULL);
    CHECK(sizes[0] && sizes[1], "binary sizes %zu and %zu", sizes[0], sizes[1]);
    e->scale_cpu = clCreateKernel(e->program, "scale", &err);
    e->scale_gpu = clCreateKernel(e->program, "scale", &err);
    CHECK_ERR(err, CL_SUCCESS);
    return e->cpu_queue && e->gpu_queue && e->scale_gpu;
}

static void mixed_close(mixed_env *e)
{
    cl_kernel kernels[] = {e->scale_cpu, e->scale_gpu};
    for (int i = 0; i < 2; i++)
        if (kernels[i])
            clReleaseKernel(kernels[i]);
    if (e->program)
        clReleaseProgram(e->program);
    if (e->cpu_queue)
        clReleaseCommandQueue(e->cpu_queue);
    if (e->gpu_queue)
        clReleaseCommandQueue(e->gpu_queue);
    if (e->context)
        clReleaseContext(e->context);
}

/* A case's start: a GPU, and a context of it and the CPU in e, or the
 * case ends there. */
#define MIXED_ENV(e)         \
    NEED_GPU();              \
    mixed_env e;             \
    if (!mixed_open(&e)) {   \
        mixed_close(&e);     \
        return;              \
    }

/* scale(x, k) on a queue after `after` (NULL: none); its event. */
static cl_event scale(cl_command_queue q, cl_kernel kernel, cl_mem x, int k, size_t n, cl_event after)
{
    cl_event done = NULL;
    clSetKernelArg(kernel, 0, sizeof x, &x);
    clSetKernelArg(kernel, 1, sizeof k, &k);
    CHECK_ERR(clEnqueueNDRangeKernel(q, kernel, 1, NULL, &n, NULL, after ? 1 : 0, after ? &after : NULL, &done),
              CL_SUCCESS);
    return done;
}

static void check_ints(const int *got, size_t n, int (*want)(size_t, const void *), const void *arg, const char *what)
{
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want(i, arg)) {
            bad++;
            if (first == n)
                first = i;
        }
    CHECK(bad == 0, "%s: %zu of %zu wrong, the first [%zu] = %d, not %d", what, bad, n, first,
          first < n ? got[first] : 0, first < n ? want(first, arg) : 0);
}

static int twice_plus_i(size_t i, const void *unused) { (void)unused; return (int)(7 * i) * 2 + (int)i; }
static int thrice_plus_i(size_t i, const void *unused) { (void)unused; return (int)(5 + i) * 3 + (int)i; }
static int value_of(size_t i, const void *values) { return ((const int *)values)[i]; }

/* A program of the CPU and the GPU has a binary for each, and each device
 * takes its own back and refuses the other's. */
TEST(binaries_per_device)
{
    MIXED_ENV(e);
    size_t sizes[2] = {0, 0};
    clGetProgramInfo(e.program, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, NULL);
    unsigned char *bins[2] = {malloc(sizes[0] ? sizes[0] : 1), malloc(sizes[1] ? sizes[1] : 1)};
    CHECK_ERR(clGetProgramInfo(e.program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL), CL_SUCCESS);
    cl_int status[2] = {1, 1}, err;
    const unsigned char *given[2] = {bins[0], bins[1]};
    cl_program p = clCreateProgramWithBinary(e.context, 2, e.devices, sizes, given, status, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(status[0] == CL_SUCCESS && status[1] == CL_SUCCESS, "statuses %d %d", status[0], status[1]);
    if (p) {
        CHECK_ERR(clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
        clReleaseProgram(p);
    }
    const unsigned char *swapped[2] = {bins[1], bins[0]};
    size_t swapped_sizes[2] = {sizes[1], sizes[0]};
    p = clCreateProgramWithBinary(e.context, 2, e.devices, swapped_sizes, swapped, status, &err);
    CHECK(!p, "each device took the other's binary");
    CHECK_ERR(err, CL_INVALID_BINARY);
    CHECK(status[0] == CL_INVALID_BINARY && status[1] == CL_INVALID_BINARY, "statuses %d %d", status[0], status[1]);
    free(bins[0]);
    free(bins[1]);
    mixed_close(&e);
}

/* A buffer passed between the CPU's memory and the GPU's by events alone:
 * each command finds the bytes the one before it left, on either device.
 * The fake driver's memory is host memory, so everything but the GPU's
 * kernels is checked on it too. */
TEST(buffers_across_memories)
{
    MIXED_ENV(e);
    enum { N = 1 << 16 };
    int *host = malloc(N * sizeof *host), *got = malloc(N * sizeof *got);
    for (size_t i = 0; i < N; i++)
        host[i] = (int)(7 * i);
    cl_int err;
    cl_mem x = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, N * sizeof *host, host, &err);
    CHECK_ERR(err, CL_SUCCESS);

    /* a CPU kernel, then a GPU read: the bytes move to the GPU */
    cl_event k1 = scale(e.cpu_queue, e.scale_cpu, x, 2, N, NULL);
    CHECK_ERR(clEnqueueReadBuffer(e.gpu_queue, x, CL_TRUE, 0, N * sizeof *got, got, 1, &k1, NULL), CL_SUCCESS);
    check_ints(got, N, twice_plus_i, NULL, "CPU kernel, GPU read");
    clReleaseEvent(k1);

    /* a GPU write, then a CPU kernel and a CPU read: the bytes move back */
    for (size_t i = 0; i < N; i++)
        host[i] = (int)(5 + i);
    cl_event w;
    CHECK_ERR(clEnqueueWriteBuffer(e.gpu_queue, x, CL_FALSE, 0, N * sizeof *host, host, 0, NULL, &w), CL_SUCCESS);
    cl_event k2 = scale(e.cpu_queue, e.scale_cpu, x, 3, N, w);
    CHECK_ERR(clEnqueueReadBuffer(e.cpu_queue, x, CL_TRUE, 0, N * sizeof *got, got, 1, &k2, NULL), CL_SUCCESS);
    check_ints(got, N, thrice_plus_i, NULL, "GPU write, CPU kernel, CPU read");
    clReleaseEvent(w);
    clReleaseEvent(k2);

    /* a rectangle written on the GPU keeps the bytes around it: rows of
     * 256 ints, 16 ints of rows 10..19 from column 8 */
    int patch[10 * 16];
    for (size_t i = 0; i < 10 * 16; i++)
        patch[i] = -1 - (int)i;
    size_t origin[3] = {8 * sizeof(int), 10, 0}, host_origin[3] = {0, 0, 0}, region[3] = {16 * sizeof(int), 10, 1};
    CHECK_ERR(clEnqueueWriteBufferRect(e.gpu_queue, x, CL_TRUE, origin, host_origin, region, 256 * sizeof(int), 0,
                                       16 * sizeof(int), 0, patch, 0, NULL, NULL), CL_SUCCESS);
    int *expect = malloc(N * sizeof *expect);
    for (size_t i = 0; i < N; i++)
        expect[i] = thrice_plus_i(i, NULL);
    for (size_t r = 0; r < 10; r++)
        for (size_t c = 0; c < 16; c++)
            expect[(10 + r) * 256 + 8 + c] = patch[r * 16 + c];
    int *mapped = clEnqueueMapBuffer(e.cpu_queue, x, CL_TRUE, CL_MAP_READ, 0, N * sizeof *got, 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (mapped) {
        check_ints(mapped, N, value_of, expect, "GPU rectangle, CPU map");
        clEnqueueUnmapMemObject(e.cpu_queue, x, mapped, 0, NULL, NULL);
    }

    /* two halves written at once, one on each device through sub-buffers */
    cl_buffer_region halves[2] = {{0, N / 2 * sizeof(int)}, {N / 2 * sizeof(int), N / 2 * sizeof(int)}};
    cl_mem half[2];
    for (int h = 0; h < 2; h++) {
        half[h] = clCreateSubBuffer(x, 0, CL_BUFFER_CREATE_TYPE_REGION, &halves[h], &err);
        CHECK_ERR(err, CL_SUCCESS);
    }
    cl_event both[2];
    both[0] = scale(e.cpu_queue, e.scale_cpu, half[0], 2, N / 2, NULL);
    int fill = 42;
    CHECK_ERR(clEnqueueFillBuffer(e.gpu_queue, half[1], &fill, sizeof fill, 0, N / 2 * sizeof(int), 0, NULL, &both[1]),
              CL_SUCCESS);
    for (size_t i = 0; i < N / 2; i++)
        expect[i] = expect[i] * 2 + (int)i;
    for (size_t i = N / 2; i < N; i++)
        expect[i] = 42;
    CHECK_ERR(clEnqueueReadBuffer(e.gpu_queue, x, CL_TRUE, 0, N * sizeof *got, got, 2, both, NULL), CL_SUCCESS);
    check_ints(got, N, value_of, expect, "sub-buffers written on both devices, GPU read");
    clReleaseEvent(both[0]);
    clReleaseEvent(both[1]);

    /* a migration to the host, then a map there */
    CHECK_ERR(clEnqueueFillBuffer(e.gpu_queue, x, &fill, sizeof fill, 0, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    cl_event moved;
    CHECK_ERR(clEnqueueMigrateMemObjects(e.gpu_queue, 1, &x, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &moved), CL_SUCCESS);
    mapped = clEnqueueMapBuffer(e.cpu_queue, x, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, N * sizeof *got, 1, &moved,
                                NULL, &err);
    for (size_t i = 0; i < N; i++)
        expect[i] = 42;
    if (mapped) {
        check_ints(mapped, N, value_of, expect, "GPU fill, migration to the host, CPU map");
        for (size_t i = 0; i < N; i++)
            mapped[i] = (int)i;
        clEnqueueUnmapMemObject(e.cpu_queue, x, mapped, 0, NULL, NULL);
    }
    clReleaseEvent(moved);
    clFinish(e.cpu_queue);

    /* on a GPU that runs kernels: CPU kernel, GPU kernel, CPU kernel, events only */
    if (!fake) {
        cl_event a = scale(e.cpu_queue, e.scale_cpu, x, 2, N, NULL);
        cl_event b = scale(e.gpu_queue, e.scale_gpu, x, 3, N, a);
        cl_event c = scale(e.cpu_queue, e.scale_cpu, x, 5, N, b);
        CHECK_ERR(clEnqueueReadBuffer(e.gpu_queue, x, CL_TRUE, 0, N * sizeof *got, got, 1, &c, NULL), CL_SUCCESS);
        for (size_t i = 0; i < N; i++)
            expect[i] = (((int)i * 2 + (int)i) * 3 + (int)i) * 5 + (int)i;
        check_ints(got, N, value_of, expect, "CPU, GPU and CPU kernels");
        clReleaseEvent(a);
        clReleaseEvent(b);
        clReleaseEvent(c);
    }
    clReleaseMemObject(half[0]);
    clReleaseMemObject(half[1]);
    clReleaseMemObject(x);
    free(expect);
    free(host);
    free(got);
    mixed_close(&e);
}

/* A buffer's bytes all equal to expect[i] (i < n). */
static void check_bytes(const unsigned char *got, const unsigned char *expect, size_t n, const char *what)
{
    size_t bad = 0;
    while (bad < n && got[bad] == expect[bad])
        bad++;
    CHECK(bad == n, "%s: byte %zu is %u, not %u", what, bad, bad < n ? got[bad] : 0, bad < n ? expect[bad] : 0);
}

TEST(transfers)
{
    GPU_ENV(e);
    enum { N = 4096 };
    unsigned char *data = malloc(N), *back = malloc(N), *expect = malloc(N);
    for (size_t i = 0; i < N; i++)
        data[i] = (unsigned char)(i * 7 + 3);
    cl_int err;
    cl_mem a = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, N, data, &err);
    cl_mem b = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* what it was made with */
    CHECK_ERR(clEnqueueReadBuffer(e.queue, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
    check_bytes(back, data, N, "copied at creation");
    /* a write, a copy between buffers, a read at an offset */
    memset(back, 0, N);
    CHECK_ERR(clEnqueueCopyBuffer(e.queue, a, b, 100, 200, 1000, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, b, CL_TRUE, 200, 1000, back, 0, NULL, NULL), CL_SUCCESS);
    check_bytes(back, data + 100, 1000, "copied between buffers");
    /* a rectangle: 3 slices of 5 rows of 16 bytes from a 64x8 layout */
    memset(expect, 0, N);
    CHECK_ERR(clEnqueueFillBuffer(e.queue, b, (unsigned char[]){0}, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
    size_t origin[3] = {4, 1, 0}, host_origin[3] = {0, 0, 0}, region[3] = {16, 5, 3};
    CHECK_ERR(clEnqueueWriteBufferRect(e.queue, b, CL_TRUE, origin, host_origin, region, 64, 512, 16, 80, data, 0,
                                       NULL, NULL),
              CL_SUCCESS);
    for (size_t z = 0; z < 3; z++)
        for (size_t y = 0; y < 5; y++)
            memcpy(expect + z * 512 + (y + 1) * 64 + 4, data + z * 80 + y * 16, 16);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, b, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
    check_bytes(back, expect, N, "a rectangle written");
    /* a sub-buffer: its own offsets, its parent's bytes */
    cl_buffer_region r = {1024, 512};
    cl_mem sub = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clEnqueueWriteBuffer(e.queue, sub, CL_TRUE, 8, 4, "GPU!", 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, a, CL_TRUE, 1024 + 8, 4, back, 0, NULL, NULL), CL_SUCCESS);
    CHECK(memcmp(back, "GPU!", 4) == 0, "written through a sub-buffer: %.4s", (char *)back);
    clReleaseMemObject(sub);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(data);
    free(back);
    free(expect);
    env_close(&e);
}

TEST(fills)
{
    GPU_ENV(e);
    enum { N = 1024 };
    cl_int err;
    cl_mem m = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N, NULL, &err);
    unsigned char pattern[128], back[N], expect[N];
    for (size_t i = 0; i < sizeof pattern; i++)
        pattern[i] = (unsigned char)(0x80 + i);
    for (size_t size = 1; size <= 128; size *= 2) {
        memset(expect, 0xee, N);
        CHECK_ERR(clEnqueueFillBuffer(e.queue, m, (unsigned char[]){0xee}, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
        /* from an offset that is a multiple of the pattern only */
        size_t offset = size * 3, bytes = size * 5;
        CHECK_ERR(clEnqueueFillBuffer(e.queue, m, pattern, size, offset, bytes, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < bytes; i++)
            expect[offset + i] = pattern[i % size];
        CHECK_ERR(clEnqueueReadBuffer(e.queue, m, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
        char what[64];
        snprintf(what, sizeof what, "a fill of %zu-byte patterns", size);
        check_bytes(back, expect, N, what);
    }
    clReleaseMemObject(m);
    env_close(&e);
}

TEST(maps)
{
    GPU_ENV(e);
    enum { N = 256 };
    cl_int err;
    cl_mem m = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N, NULL, &err);
    CHECK_ERR(clEnqueueFillBuffer(e.queue, m, (unsigned char[]){7}, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
    unsigned char *p = clEnqueueMapBuffer(e.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, 0, NULL, NULL,
                                          &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (p) {
        CHECK(p[0] == 7 && p[63] == 7, "mapped bytes %u %u", p[0], p[63]);
        memset(p, 9, 64);
        CHECK_ERR(clEnqueueUnmapMemObject(e.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
    }
    unsigned char back[N];
    CHECK_ERR(clEnqueueReadBuffer(e.queue, m, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
    CHECK(back[15] == 7 && back[16] == 9 && back[79] == 9 && back[80] == 7, "after the unmap: %u %u %u %u",
          back[15], back[16], back[79], back[80]);
    /* CL_MEM_USE_HOST_PTR: the map is the application's memory */
    unsigned char host[N];
    memset(host, 1, N);
    cl_mem u = clCreateBuffer(e.context, CL_MEM_USE_HOST_PTR, N, host, &err);
    CHECK_ERR(clEnqueueFillBuffer(e.queue, u, (unsigned char[]){5}, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
    p = clEnqueueMapBuffer(e.queue, u, CL_TRUE, CL_MAP_READ, 32, 32, 0, NULL, NULL, &err);
    CHECK(p == host + 32, "mapped at %p, not host_ptr + 32 (%p)", (void *)p, (void *)(host + 32));
    CHECK(host[32] == 5 && host[63] == 5 && host[31] == 1, "host_ptr after the map: %u %u %u", host[32], host[63],
          host[31]);
    if (p)
        clEnqueueUnmapMemObject(e.queue, u, p, 0, NULL, NULL);
    clFinish(e.queue);
    clReleaseMemObject(u);
    clReleaseMemObject(m);
    env_close(&e);
}

static const char kernels_source[] =
    "__kernel void ids(__global uint *out, uint width) {\n"
    "    size_t x = get_global_id(0), y = get_global_id(1);\n"
    "    size_t i = (y - get_global_offset(1)) * width + (x - get_global_offset(0));\n"
    "    out[4 * i] = (uint)x;\n"
    "    out[4 * i + 1] = (uint)y;\n"
    "    out[4 * i + 2] = (uint)(get_local_size(0) * 1000 + get_local_size(1));\n"
    "    out[4 * i + 3] = (uint)(get_group_id(0) * 1000 + get_group_id(1));\n"
    "}\n"
    "__kernel void group_sums(__global const float *in, __global float *out, __local float *scratch) {\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) scratch[l] += scratch[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n";

static cl_program build(gpu_env *e, const char *source, const char *options, cl_int expect)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &gpu, options, NULL, NULL);
    char log[8192] = "";
    clGetProgramBuildInfo(p, gpu, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    CHECK(err == expect, "build: %d, not %d; log:\n%s", err, expect, log);
    return p;
}

TEST(builds)
{
    GPU_ENV(e);
    cl_program p = build(&e, kernels_source, "", CL_SUCCESS);
    cl_uint n = 0;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(size_t), &(size_t){0}, NULL), CL_SUCCESS);
    cl_kernel k[2];
    CHECK_ERR(clCreateKernelsInProgram(p, 2, k, &n), CL_SUCCESS);
    CHECK(n == 2, "%u kernels", n);
    for (cl_uint i = 0; i < n; i++)
        clReleaseKernel(k[i]);
    clReleaseProgram(p);
    /* the device's OpenCL version, which clang does not define */
    p = build(&e, "#if __OPENCL_VERSION__ != 300\n#error not the device's version\n#endif\n"
                  "__kernel void k(__global int *x) { x[0] = __OPENCL_VERSION__; }", "", CL_SUCCESS);
    clReleaseProgram(p);
    /* a built-in the GPU does not have fails the build, by name */
    p = build(&e, "__kernel void k(__global float *x) { x[0] = as_float(get_image_channel_order((image2d_t)0)); }", "",
              CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(p);
    p = build(&e, "__kernel void k(__global float *x) { x[0] = no_such_function(1); }", "", CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    clGetProgramBuildInfo(p, gpu, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    CHECK(strstr(log, "no_such_function"), "the log names nothing: %s", log);
    clReleaseProgram(p);
    env_close(&e);
}

/* Runs `ids` over global (w x h) from offset (ox, oy) in groups of lx x ly
 * and checks every work-item's ids and sizes. */
static void check_ids(gpu_env *e, cl_kernel k, size_t w, size_t h, size_t ox, size_t oy, size_t lx, size_t ly)
{
    cl_int err;
    size_t n = w * h;
    cl_mem out = clCreateBuffer(e->context, CL_MEM_READ_WRITE, n * 16, NULL, &err);
    cl_uint width = (cl_uint)w;
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof width, &width);
    size_t global[2] = {w, h}, offset[2] = {ox, oy}, local[2] = {lx, ly};
    cl_event done = NULL;
    CHECK_ERR(clEnqueueNDRangeKernel(e->queue, k, 2, offset, global, local, 0, NULL, &done), CL_SUCCESS);
    clWaitForEvents(1, &done);
    cl_int status = 0;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    clReleaseEvent(done);
    if (fake) { /* nothing can run it: the command fails, and says so */
        CHECK(status < 0, "a launch on the fake driver ended with %d", status);
        clReleaseMemObject(out);
        return;
    }
    CHECK_ERR(status, CL_COMPLETE);
    cl_uint *got = malloc(n * 16);
    CHECK_ERR(clEnqueueReadBuffer(e->queue, out, CL_TRUE, 0, n * 16, got, 0, NULL, NULL), CL_SUCCESS);
    size_t bad = 0;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x, gx = x / lx, gy = y / ly;
            size_t sx = gx < w / lx ? lx : w % lx, sy = gy < h / ly ? ly : h % ly;
            cl_uint want[4] = {(cl_uint)(x + ox), (cl_uint)(y + oy), (cl_uint)(sx * 1000 + sy),
                               (cl_uint)(gx * 1000 + gy)};
            if (memcmp(&got[4 * i], want, sizeof want) != 0 && bad++ == 0)
                CHECK(false, "work-item (%zu, %zu) of %zux%zu in %zux%zu from (%zu, %zu): %u %u %u %u, not %u %u %u %u",
                      x, y, w, h, lx, ly, ox, oy, got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3],
                      want[0], want[1], want[2], want[3]);
        }
    CHECK(bad == 0, "%zu work-items wrong", bad);
    free(got);
    clReleaseMemObject(out);
}

static cl_int event_status(cl_event e)
{
    cl_int status = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return status;
}

/* Waits for a launch and releases its event: true when it ran, which it
 * must on a real GPU; on the fake driver, which runs no kernel, it must
 * have failed its command instead. */
static bool launch_ran(cl_event done)
{
    clWaitForEvents(1, &done);
    cl_int status = event_status(done);
    clReleaseEvent(done);
    if (fake) {
        CHECK(status < 0, "a launch on the fake driver: %d", status);
        return false;
    }
    CHECK_ERR(status, CL_COMPLETE);
    return status == CL_COMPLETE;
}

TEST(launches)
{
    GPU_ENV(e);
    /* OpenCL C 3.0: work-groups need not divide the NDRange */
    cl_program p = build(&e, kernels_source, "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    cl_kernel ids = clCreateKernel(p, "ids", &err);
    CHECK_ERR(err, CL_SUCCESS);
    check_ids(&e, ids, 64, 8, 0, 0, 32, 4);     /* whole groups */
    check_ids(&e, ids, 100, 7, 5, 3, 32, 4);    /* offsets, and smaller last groups in both dimensions */
    check_ids(&e, ids, 33, 1, 1000, 0, 16, 1);  /* one dimension's last group of one */
    clReleaseKernel(ids);

    /* __local as an argument, with barriers: the sums of groups of 256 */
    cl_kernel sums = clCreateKernel(p, "group_sums", &err);
    enum { N = 1 << 16, L = 256 };
    float *in = malloc(N * sizeof *in), out[N / L];
    for (size_t i = 0; i < N; i++)
        in[i] = (float)(i % 17);
    cl_mem a = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, N * sizeof *in, in, &err);
    cl_mem b = clCreateBuffer(e.context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    clSetKernelArg(sums, 0, sizeof a, &a);
    clSetKernelArg(sums, 1, sizeof b, &b);
    clSetKernelArg(sums, 2, L * sizeof(float), NULL);
    size_t global = N, local = L;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, sums, 1, NULL, &global, &local, 0, NULL, &done), CL_SUCCESS);
    if (launch_ran(done)) {
        CHECK_ERR(clEnqueueReadBuffer(e.queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        size_t bad = 0;
        for (size_t g = 0; g < N / L; g++) {
            float want = 0;
            for (size_t i = g * L; i < (g + 1) * L; i++)
                want += in[i];
            bad += out[g] != want;
        }
        CHECK(bad == 0, "%zu group sums wrong (the first: %g)", bad, out[0]);
    }
    free(in);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(sums);
    clReleaseProgram(p);
    env_close(&e);
}

/* CL_KERNEL_WORK_GROUP_SIZE is what the kernel's registers allow (the
 * driver's limit for it), and a launch of larger groups is refused with
 * CL_INVALID_WORK_GROUP_SIZE instead of failing on the GPU.  The fake
 * driver says 128 for kernels named few_threads*. */
TEST(work_group_limit)
{
    GPU_ENV(e);
    cl_program p = build(&e, "kernel void few_threads(global int *x) { x[get_global_id(0)] = 1; }\n", "",
                         CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "few_threads", &err);
    CHECK_ERR(err, CL_SUCCESS);
    size_t most = 0, device_most = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(k, gpu, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL), CL_SUCCESS);
    clGetDeviceInfo(gpu, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_most, &device_most, NULL);
    if (fake)
        CHECK(most == 128, "CL_KERNEL_WORK_GROUP_SIZE %zu, not the driver's 128", most);
    CHECK(most >= 1 && most <= device_most, "CL_KERNEL_WORK_GROUP_SIZE %zu (the device's: %zu)", most, device_most);
    cl_mem x = clCreateBuffer(e.context, CL_MEM_READ_WRITE, 4096 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof x, &x);
    size_t global = 4096, local = device_most;
    if (most < device_most)
        CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
    size_t chosen[3] = {0, 0, 0};
    CHECK_ERR(clGetKernelSuggestedLocalWorkSizeKHR(e.queue, k, 1, NULL, &global, chosen), CL_SUCCESS);
    CHECK(chosen[0] >= 1 && chosen[0] <= most, "suggested %zu, over the kernel's %zu", chosen[0], most);
    clFinish(e.queue);
    clReleaseMemObject(x);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* OpenCL 2.0 on the GPU: C11 atomics at every scope on global and local
 * objects (32 and 64 bits), the 64-bit OpenCL 1.x atomics on __local, and
 * generic pointers with to_global / to_local / to_private. */
static const char atomics_source[] =
    "global atomic_int total = ATOMIC_VAR_INIT(0);\n"
    "kernel void count(global atomic_int *hits, global atomic_long *wide, global long *old64,\n"
    "                  global int *spaces, local atomic_int *group, local long *group64) {\n"
    "    size_t l = get_local_id(0);\n"
    "    if (l == 0) { atomic_init(group, 0); group64[0] = 0; }\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_fetch_add_explicit(hits, 1, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_add_explicit(wide, 3L, memory_order_acq_rel, memory_scope_device);\n"
    "    atomic_fetch_add_explicit(group, 1, memory_order_seq_cst, memory_scope_work_group);\n"
    "    atom_add(group64, 2L);\n"
    "    atomic_fetch_add(&total, 1);\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) {\n"
    "        old64[get_group_id(0)] = group64[0] + atomic_load_explicit(group, memory_order_acquire,\n"
    "                                                                  memory_scope_work_group);\n"
    "        int priv = 1;\n"
    "        int *g = (int *)hits, *lo = (int *)group, *p = &priv;\n"
    "        spaces[get_group_id(0)] = (to_global(g) != 0) + 2 * (to_local(lo) != 0) + 4 * (to_private(p) != 0)\n"
    "                                  + 8 * (to_global(lo) != 0) + 16 * (to_local(g) != 0);\n"
    "    }\n"
    "}\n"
    "kernel void read_total(global int *out) { out[0] = atomic_load(&total); }\n";

TEST(atomics_and_generic)
{
    GPU_ENV(e);
    cl_program p = build(&e, atomics_source, "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    enum { GROUPS = 64, L = 256 };
    cl_kernel count = clCreateKernel(p, "count", &err);
    cl_kernel read_total = clCreateKernel(p, "read_total", &err);
    CHECK_ERR(err, CL_SUCCESS);
    int zero = 0;
    long zero64 = 0;
    cl_mem hits = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    cl_mem wide = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof zero64, &zero64, &err);
    cl_mem old64 = clCreateBuffer(e.context, CL_MEM_READ_WRITE, GROUPS * sizeof(long), NULL, &err);
    cl_mem spaces = clCreateBuffer(e.context, CL_MEM_READ_WRITE, GROUPS * sizeof(int), NULL, &err);
    cl_mem total = clCreateBuffer(e.context, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    clSetKernelArg(count, 0, sizeof hits, &hits);
    clSetKernelArg(count, 1, sizeof wide, &wide);
    clSetKernelArg(count, 2, sizeof old64, &old64);
    clSetKernelArg(count, 3, sizeof spaces, &spaces);
    clSetKernelArg(count, 4, sizeof(int), NULL);
    clSetKernelArg(count, 5, sizeof(long), NULL);
    clSetKernelArg(read_total, 0, sizeof total, &total);
    size_t global = GROUPS * L, local = L, one = 1;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, count, 1, NULL, &global, &local, 0, NULL, &done), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, read_total, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    clFinish(e.queue);
    if (launch_ran(done)) {
        int h = 0, t = 0, sp[GROUPS];
        long w = 0, o[GROUPS];
        clEnqueueReadBuffer(e.queue, hits, CL_TRUE, 0, sizeof h, &h, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, wide, CL_TRUE, 0, sizeof w, &w, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, total, CL_TRUE, 0, sizeof t, &t, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, old64, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, spaces, CL_TRUE, 0, sizeof sp, sp, 0, NULL, NULL);
        CHECK(h == GROUPS * L, "relaxed device-scope adds: %d, not %d", h, GROUPS * L);
        CHECK(w == 3L * GROUPS * L, "64-bit acq_rel adds: %ld, not %ld", w, 3L * GROUPS * L);
        CHECK(t == GROUPS * L, "seq_cst adds to a program-scope variable: %d, not %d", t, GROUPS * L);
        size_t bad = 0, bad_spaces = 0;
        for (int g = 0; g < GROUPS; g++) {
            bad += o[g] != 3L * L;
            bad_spaces += sp[g] != 1 + 2 + 4;
        }
        CHECK(bad == 0, "%zu groups' __local counts wrong (the first group: %ld, not %ld)", bad, o[0], 3L * L);
        CHECK(bad_spaces == 0, "%zu groups' to_global/to_local/to_private wrong (the first: %d, not 7)", bad_spaces,
              sp[0]);
    }
    cl_mem mems[] = {hits, wide, old64, spaces, total};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(count);
    clReleaseKernel(read_total);
    clReleaseProgram(p);
    env_close(&e);
}

/* Sub-groups are warps: a group of 80 work-items has sub-groups of 32, 32
 * and 16 (a partial one), and the NDRange's last group is 40 work-items
 * (32 and 8).  Each work-item writes what its sub-group functions gave,
 * one of them a non-uniform function called in both arms of an if. */
static const char sub_group_source[] =
    "kernel void sg(global int *out) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int l = (int)get_sub_group_local_id(), v = l + 1;\n"
    "    global int *o = out + 11 * g;\n"
    "    o[0] = (int)get_sub_group_id();\n"
    "    o[1] = (int)get_sub_group_size();\n"
    "    o[2] = l;\n"
    "    o[3] = sub_group_reduce_add(v);\n"
    "    o[4] = sub_group_scan_inclusive_add(v);\n"
    "    o[5] = sub_group_scan_exclusive_max(v);\n"
    "    o[6] = sub_group_broadcast(v, 1);\n"
    "    o[7] = (int)sub_group_ballot_bit_count(sub_group_ballot(l % 2 == 0));\n"
    "    o[8] = l % 2 ? sub_group_non_uniform_reduce_add(v) : -1;\n"
    "    o[9] = sub_group_shuffle_xor(v, 1);\n"
    "    if (l < 16)\n" /* two calls LLVM would make one, which every lane reaches */
    "        o[10] = sub_group_broadcast_first(v);\n"
    "    else\n"
    "        o[10] = sub_group_broadcast_first(v);\n"
    "}\n";

TEST(sub_groups)
{
    GPU_ENV(e);
    char extensions[4096] = "";
    clGetDeviceInfo(gpu, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    CHECK(strstr(extensions, "cl_khr_subgroups ") && strstr(extensions, "cl_khr_subgroup_ballot"),
          "sub-groups not reported: %s", extensions);
    cl_program p = build(&e, sub_group_source, "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "sg", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { L = 80, N = 4 * L + 40 };
    size_t global = N, local = L, max_size = 0, count = 0;
    CHECK_ERR(clGetKernelSubGroupInfo(k, gpu, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                      sizeof max_size, &max_size, NULL),
              CL_SUCCESS);
    CHECK_ERR(clGetKernelSubGroupInfo(k, gpu, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local,
                                      sizeof count, &count, NULL),
              CL_SUCCESS);
    CHECK(max_size == 32 && count == 3, "sub-groups of a group of 80: %zu of at most %zu", count, max_size);
    cl_mem out = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * 11 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof out, &out);
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, &local, 0, NULL, &done), CL_SUCCESS);
    clFinish(e.queue);
    if (launch_ran(done)) {
        static int got[N * 11];
        clEnqueueReadBuffer(e.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        size_t bad = 0;
        for (int g = 0; g < N && bad < 5; g++) {
            int in_group = g % L, group_items = g < 4 * L ? L : 40, sub = in_group / 32, l = in_group % 32;
            int n = group_items - 32 * sub < 32 ? group_items - 32 * sub : 32, odd = 0, odd_sum = 0;
            for (int i = 1; i < n; i += 2)
                odd++, odd_sum += i + 1;
            int want[11] = {sub, n, l, n * (n + 1) / 2, (l + 1) * (l + 2) / 2, l ? l : INT_MIN, 2, n - odd,
                            l % 2 ? odd_sum : -1, (l ^ 1) + 1, l < 16 ? 1 : 17};
            for (int f = 0; f < 11; f++)
                if (got[g * 11 + f] != want[f] && !(f == 9 && (l ^ 1) >= n)) {
                    CHECK(false, "work-item %d (lane %d of %d), value %d: %d, not %d", g, l, n, f,
                          got[g * 11 + f], want[f]);
                    bad++;
                }
        }
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* Large buffers passed between CPU and GPU kernels by events alone, six
 * times: each GPU kernel must see every byte the CPU wrote (a copy to the
 * GPU that returned before its bytes arrived would leave some old). */
TEST(migrations_before_kernels)
{
    MIXED_ENV(e);
    enum { N = 1 << 22, ROUNDS = 6 };
    int *host = malloc(N * sizeof *host), *expect = malloc(N * sizeof *expect);
    for (size_t i = 0; i < N; i++)
        host[i] = (int)i;
    cl_int err;
    cl_mem x = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, N * sizeof *host, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_event last = NULL;
    for (int r = 0; r < ROUNDS; r++) {
        bool on_gpu = r % 2;
        cl_event done = scale(on_gpu ? e.gpu_queue : e.cpu_queue, on_gpu ? e.scale_gpu : e.scale_cpu, x, 2 + r % 2,
                              N, last);
        if (last)
            clReleaseEvent(last);
        last = done;
    }
    for (size_t i = 0; i < N; i++) { /* as the kernels wrap: unsigned */
        unsigned v = (unsigned)i;
        for (int r = 0; r < ROUNDS; r++)
            v = v * (unsigned)(2 + r % 2) + (unsigned)i;
        expect[i] = (int)v;
    }
    if (launch_ran(last)) { /* the fake driver's kernels fail; it releases the event */
        CHECK_ERR(clEnqueueReadBuffer(e.cpu_queue, x, CL_TRUE, 0, N * sizeof *host, host, 0, NULL, NULL),
                  CL_SUCCESS);
        check_ints(host, N, value_of, expect, "six kernels, CPU and GPU in turn");
    }
    clReleaseMemObject(x);
    free(host);
    free(expect);
    mixed_close(&e);
}

/* half: products and sums correctly rounded (the GPU's f16 instructions),
 * quotients and square roots within 1 ulp, and float to half rounded toward
 * zero (builtins/half_convert.cl), against the host's _Float16. */
static const char half_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void h(global const half *x, global const half *y, global const float *f, global half *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[5 * i] = x[i] * y[i];\n"
    "    out[5 * i + 1] = x[i] + y[i];\n"
    "    out[5 * i + 2] = x[i] / y[i];\n"
    "    out[5 * i + 3] = sqrt(fabs(x[i]));\n"
    "    out[5 * i + 4] = convert_half_rtz(f[i]);\n"
    "}\n";

static uint16_t half_bits(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

static _Float16 half_of(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return h;
}

/* float to half, rounded toward zero */
static uint16_t half_rtz(float f)
{
    _Float16 h = (_Float16)f;
    if (__builtin_isinf((double)h) && !__builtin_isinf(f))
        return (uint16_t)((f < 0 ? 0x8000 : 0) | 0x7bff);
    return fabs((double)h) > fabs((double)f) ? (uint16_t)(half_bits(h) - 1) : half_bits(h);
}

/* ulps between two halves of one sign (NaNs equal each other) */
static int half_ulps(uint16_t a, uint16_t b)
{
    bool nan_a = (a & 0x7fff) > 0x7c00, nan_b = (b & 0x7fff) > 0x7c00;
    if (nan_a || nan_b)
        return nan_a && nan_b ? 0 : 1 << 16;
    int ia = a & 0x8000 ? -(a & 0x7fff) : a, ib = b & 0x8000 ? -(b & 0x7fff) : b;
    return ia > ib ? ia - ib : ib - ia;
}

TEST(half_precision)
{
    GPU_ENV(e);
    char extensions[4096] = "";
    cl_device_fp_config config = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    clGetDeviceInfo(gpu, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config, NULL);
    CHECK(strstr(extensions, "cl_khr_fp16") && (config & CL_FP_ROUND_TO_NEAREST) && (config & CL_FP_INF_NAN),
          "half not reported: %s, config %#llx", extensions, (unsigned long long)config);
    cl_program p = build(&e, half_source, "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "h", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 1 << 14 };
    static uint16_t x[N], y[N], out[5 * N];
    static float f[N];
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (uint16_t)(seed >> 16), y[i] = (uint16_t)seed;
        f[i] = (float)((int32_t)seed) * 0x1p-20f;
    }
    x[0] = 0x0001, y[0] = 0x3c00;           /* the least subnormal, 1 */
    x[1] = 0x7bff, y[1] = 0x7bff;           /* max + max: infinity */
    f[2] = 65520.0f, f[3] = -0x1.ffcp-15f;  /* beyond max; a subnormal's neighbour */
    cl_mem bx = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem by = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
    cl_mem bf = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof f, f, &err);
    cl_mem bo = clCreateBuffer(e.context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    cl_mem args[4] = {bx, by, bf, bo};
    for (cl_uint a = 0; a < 4; a++)
        clSetKernelArg(k, a, sizeof(cl_mem), &args[a]);
    size_t global = N;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, NULL, 0, NULL, &done), CL_SUCCESS);
    if (launch_ran(done)) {
        CHECK_ERR(clEnqueueReadBuffer(e.queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N && bad < 5; i++) {
            double a = (double)half_of(x[i]), b = (double)half_of(y[i]);
            uint16_t want[5] = {half_bits((_Float16)(a * b)), half_bits((_Float16)(a + b)),
                                half_bits((_Float16)(a / b)), half_bits((_Float16)__builtin_sqrt(fabs(a))),
                                half_rtz(f[i])};
            static const int ulps[5] = {0, 0, 1, 1, 0};
            static const char *const what[5] = {"x * y", "x + y", "x / y", "sqrt(|x|)", "convert_half_rtz(f)"};
            for (int r = 0; r < 5; r++)
                if (half_ulps(out[5 * i + r], want[r]) > ulps[r]) {
                    CHECK(false, "%s at %d (x %#x, y %#x, f %a): %#x, not %#x", what[r], i, x[i], y[i],
                          (double)f[i], out[5 * i + r], want[r]);
                    bad++;
                }
        }
    }
    for (int a = 0; a < 4; a++)
        clReleaseMemObject(args[a]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* SPIRV_DIR/<name>.spv built for the GPU, or NULL (checked). */
static cl_program spirv_built(gpu_env *e, const char *name)
{
    size_t size = 0;
    void *il = test_read_spirv(SPIRV_DIR, name, &size);
    if (!il)
        return NULL;
    cl_int err;
    cl_program p = clCreateProgramWithIL(e->context, il, size, &err);
    free(il);
    CHECK_ERR(err, CL_SUCCESS);
    if (!p)
        return NULL;
    err = clBuildProgram(p, 1, &gpu, "", NULL, NULL);
    char log[4096] = "";
    clGetProgramBuildInfo(p, gpu, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    CHECK(err == CL_SUCCESS, "build of %s: %d\n%s", name, err, log);
    if (err != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* A SPIR-V program (tests/e2e/spirv/kernels.cl, made by llvm-spirv-15):
 * a work-group sum in __local memory, atomics on generic pointers, a
 * struct by value. */
TEST(spirv_program)
{
    GPU_ENV(e);
    char ils[256] = "";
    clGetDeviceInfo(gpu, CL_DEVICE_IL_VERSION, sizeof ils, ils, NULL);
    CHECK(strstr(ils, "SPIR-V_1.0") != NULL, "IL versions '%s'", ils);
    cl_program p = spirv_built(&e, "kernels");
    if (!p) {
        env_close(&e);
        return;
    }
    cl_int err;
    enum { N = 256, L = 64 };
    cl_kernel sum = clCreateKernel(p, "group_sum", &err), atomics = clCreateKernel(p, "atomics", &err),
              by_value = clCreateKernel(p, "by_value", &err);
    CHECK_ERR(err, CL_SUCCESS);
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7 - 100;
    cl_mem bin = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem bsums = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N / L * sizeof(int), NULL, &err);
    int zero[4] = {0};
    cl_mem bcounters = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, 3 * sizeof(int), zero, &err);
    cl_mem bc11 = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof(int), zero, &err);
    cl_mem bout = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    clSetKernelArg(sum, 0, sizeof bin, &bin);
    clSetKernelArg(sum, 1, sizeof bsums, &bsums);
    clSetKernelArg(sum, 2, L * sizeof(int), NULL);
    clSetKernelArg(atomics, 0, sizeof bcounters, &bcounters);
    clSetKernelArg(atomics, 1, sizeof bc11, &bc11);
    struct {
        cl_int a;
        cl_float b;
        cl_long c;
        cl_char d;
        cl_float4 v;
    } s = {3, 0.5f, 1000, -2, {{1, 2, 3, 4}}};
    int k = 2;
    clSetKernelArg(by_value, 0, sizeof bout, &bout);
    CHECK_ERR(clSetKernelArg(by_value, 1, sizeof s, &s), CL_SUCCESS);
    clSetKernelArg(by_value, 2, sizeof k, &k);
    size_t global = N, local = L;
    cl_event done[3];
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, sum, 1, NULL, &global, &local, 0, NULL, &done[0]), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, atomics, 1, NULL, &global, &local, 0, NULL, &done[1]), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, by_value, 1, NULL, &global, &local, 0, NULL, &done[2]), CL_SUCCESS);
    clFinish(e.queue);
    if (launch_ran(done[0]) && launch_ran(done[1]) && launch_ran(done[2])) {
        int sums[N / L], counters[3], c11;
        static float out[N];
        clEnqueueReadBuffer(e.queue, bsums, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, bcounters, CL_TRUE, 0, sizeof counters, counters, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, bc11, CL_TRUE, 0, sizeof c11, &c11, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        for (int g = 0; g < N / L; g++) {
            int want = 0;
            for (int i = g * L; i < (g + 1) * L; i++)
                want += in[i];
            CHECK(sums[g] == want, "group %d: sum %d, not %d", g, sums[g], want);
        }
        CHECK(counters[0] == N && counters[1] == N * (N - 1) / 2 && counters[2] == N - 1 && c11 == 2 * N,
              "atomics: %d %d %d %d", counters[0], counters[1], counters[2], c11);
        for (int i = 0; i < N; i++)
            if (out[i] != 3 + 0.5f + 1000 - 2 + 1 + 4 + (float)(k * i)) {
                CHECK(false, "by_value at %d: %g", i, (double)out[i]);
                break;
            }
    }
    for (int i = 0; i < 3; i++)
        clReleaseEvent(done[i]);
    cl_mem all[5] = {bin, bsums, bcounters, bc11, bout};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(all[i]);
    clReleaseKernel(sum);
    clReleaseKernel(atomics);
    clReleaseKernel(by_value);
    clReleaseProgram(p);
    env_close(&e);
}

/* The CPU's bit operations and integer dot products on the GPU, and its
 * clocks: each value against the host's, the clocks running. */
TEST(integer_extensions)
{
    GPU_ENV(e);
    char extensions[4096] = "";
    clGetDeviceInfo(gpu, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    CHECK(strstr(extensions, "cl_khr_extended_bit_ops") && strstr(extensions, "cl_khr_integer_dot_product") &&
              strstr(extensions, "cl_khr_kernel_clock") && strstr(extensions, "cl_khr_expect_assume"),
          "not reported: %s", extensions);
    cl_program p = build(&e,
                         "kernel void k(global uint *u, global ulong *t) {\n"
                         "    size_t g = get_global_id(0);\n"
                         "    uint x = u[4 * g];\n"
                         "    __builtin_assume(g < 1024);\n"
                         "    u[4 * g] = bitfield_extract_unsigned(x, 4u, 8u) + bitfield_insert(0u, x, 28u, 4u);\n"
                         "    u[4 * g + 1] = bit_reverse(x);\n"
                         "    u[4 * g + 2] = dot(as_uchar4(x), (uchar4)(1, 2, 3, 4));\n"
                         "    u[4 * g + 3] = (uint)dot_4x8packed_ss_int(x, 0x01ff01ffu);\n"
                         "    ulong d = clock_read_device(), w = clock_read_work_group();\n"
                         "    t[2 * g] = clock_read_device() - d;\n"
                         "    t[2 * g + 1] = w;\n"
                         "}\n",
                         "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 256 };
    static cl_uint u[4 * N];
    static cl_ulong t[2 * N];
    for (int i = 0; i < N; i++)
        u[4 * i] = (cl_uint)i * 2654435761u;
    cl_mem bu = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof u, u, &err);
    cl_mem bt = clCreateBuffer(e.context, CL_MEM_READ_WRITE, sizeof t, NULL, &err);
    clSetKernelArg(k, 0, sizeof bu, &bu);
    clSetKernelArg(k, 1, sizeof bt, &bt);
    size_t global = N;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, NULL, 0, NULL, &done), CL_SUCCESS);
    if (launch_ran(done)) {
        static cl_uint got[4 * N];
        clEnqueueReadBuffer(e.queue, bu, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        clEnqueueReadBuffer(e.queue, bt, CL_TRUE, 0, sizeof t, t, 0, NULL, NULL);
        for (int i = 0, bad = 0; i < N && bad < 5; i++) {
            cl_uint x = u[4 * i], r = 0;
            for (int b = 0; b < 32; b++)
                r |= (x >> b & 1u) << (31 - b);
            unsigned char c[4];
            memcpy(c, &x, 4);
            cl_uint dot = c[0] + 2u * c[1] + 3u * c[2] + 4u * c[3];
            /* 0x01ff01ff: the bytes -1, 1, -1, 1 from the lowest */
            int sdot = -(signed char)c[0] + (signed char)c[1] - (signed char)c[2] + (signed char)c[3];
            cl_uint want[4] = {((x >> 4) & 0xffu) + ((x & 0xfu) << 28), r, dot, (cl_uint)sdot};
            for (int f = 0; f < 4; f++)
                if (got[4 * i + f] != want[f]) {
                    CHECK(false, "x %#x, value %d: %#x, not %#x", x, f, got[4 * i + f], want[f]);
                    bad++;
                }
        }
        CHECK(t[1] != 0 && t[0] < 1000000000u, "clocks: %llu ns between two device reads, work-group clock %llu",
              (unsigned long long)t[0], (unsigned long long)t[1]);
    }
    clReleaseEvent(done);
    clReleaseMemObject(bu);
    clReleaseMemObject(bt);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* Work-group collectives (the CPU's builtins/collectives.cl over a block's
 * shared scratch): groups of 96 (three warps) and a last group of 40. */
TEST(work_group_collectives)
{
    GPU_ENV(e);
    cl_program p = build(&e,
                         "kernel void k(global const int *x, global int *out) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    int v = x[i];\n"
                         "    out[5 * i] = work_group_reduce_add(v);\n"
                         "    out[5 * i + 1] = work_group_scan_inclusive_add(v);\n"
                         "    out[5 * i + 2] = work_group_scan_exclusive_min(v);\n"
                         "    out[5 * i + 3] = work_group_broadcast(v, 5);\n"
                         "    out[5 * i + 4] = work_group_any(v == 7) + 2 * work_group_reduce_xor(v);\n"
                         "}\n",
                         "-cl-std=CL3.0", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 1000, L = 96 };
    static int x[N], out[5 * N];
    for (int i = 0; i < N; i++)
        x[i] = (i * 37) % 101 - 50;
    cl_mem bx = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem bo = clCreateBuffer(e.context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof bo, &bo);
    size_t global = N, local = L;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, &local, 0, NULL, &done), CL_SUCCESS);
    if (launch_ran(done)) {
        clEnqueueReadBuffer(e.queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        int bad = 0;
        for (int g = 0; g * L < N; g++) {
            int first = g * L, n = N - first < L ? N - first : L, sum = 0, xr = 0, any = 0;
            for (int j = 0; j < n; j++)
                sum += x[first + j], xr ^= x[first + j], any |= x[first + j] == 7;
            for (int j = 0, prefix = 0, least = INT_MAX; j < n && bad < 5; j++) {
                int v = x[first + j];
                prefix += v;
                int want[5] = {sum, prefix, least, x[first + 5], any + 2 * xr};
                least = v < least ? v : least;
                for (int f = 0; f < 5; f++)
                    if (out[5 * (first + j) + f] != want[f]) {
                        CHECK(false, "group %d, item %d, value %d: %d, not %d", g, j, f, out[5 * (first + j) + f],
                              want[f]);
                        bad++;
                    }
            }
        }
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* A command buffer (cl_khr_command_buffer, api/command_buffer.c) on the
 * GPU's queue: a fill, a copy and a kernel recorded once, enqueued twice;
 * each time the kernel doubles what the fill wrote. */
TEST(command_buffer)
{
    GPU_ENV(e);
    cl_platform_id platform;
    clGetDeviceInfo(gpu, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
#define CB_FN(f) MOSAIC_CB_FN(f) f = (MOSAIC_CB_FN(f))clGetExtensionFunctionAddressForPlatform(platform, #f)
    CB_FN(clCreateCommandBufferKHR);
    CB_FN(clFinalizeCommandBufferKHR);
    CB_FN(clReleaseCommandBufferKHR);
    CB_FN(clEnqueueCommandBufferKHR);
    CB_FN(clCommandFillBufferKHR);
    CB_FN(clCommandCopyBufferKHR);
    CB_FN(clCommandNDRangeKernelKHR);
#undef CB_FN
    char extensions[4096] = "";
    clGetDeviceInfo(gpu, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    CHECK(strstr(extensions, "cl_khr_command_buffer ") != NULL, "not reported: %s", extensions);
    CHECK(clCreateCommandBufferKHR && clFinalizeCommandBufferKHR && clReleaseCommandBufferKHR &&
              clEnqueueCommandBufferKHR && clCommandFillBufferKHR && clCommandCopyBufferKHR &&
              clCommandNDRangeKernelKHR,
          "an entry point is missing");
    if (!clCreateCommandBufferKHR || !clCommandNDRangeKernelKHR || !clEnqueueCommandBufferKHR ||
        !clCommandFillBufferKHR || !clCommandCopyBufferKHR || !clFinalizeCommandBufferKHR ||
        !clReleaseCommandBufferKHR) {
        env_close(&e);
        return;
    }
    cl_program p = build(&e, "kernel void twice(global int *x) { x[get_global_id(0)] *= 2; }\n", "", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "twice", &err);
    enum { N = 4096 };
    cl_mem a = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    cl_mem b = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof b, &b);
    cl_command_buffer_khr cb = clCreateCommandBufferKHR(1, &e.queue, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int seven = 7;
    size_t global = N;
    cl_sync_point_khr filled, copied;
    CHECK_ERR(clCommandFillBufferKHR(cb, NULL, NULL, a, &seven, sizeof seven, 0, N * sizeof(int), 0, NULL, &filled,
                                     NULL),
              CL_SUCCESS);
    CHECK_ERR(clCommandCopyBufferKHR(cb, NULL, NULL, a, b, 0, 0, N * sizeof(int), 1, &filled, &copied, NULL),
              CL_SUCCESS);
    CHECK_ERR(clCommandNDRangeKernelKHR(cb, NULL, NULL, k, 1, NULL, &global, NULL, 1, &copied, NULL, NULL),
              CL_SUCCESS);
    CHECK_ERR(clFinalizeCommandBufferKHR(cb), CL_SUCCESS);
    for (int round = 0; round < 2; round++) {
        cl_event done;
        CHECK_ERR(clEnqueueCommandBufferKHR(0, NULL, cb, 0, NULL, &done), CL_SUCCESS);
        clWaitForEvents(1, &done);
        cl_int status = event_status(done);
        clReleaseEvent(done);
        /* the replay's own event is a marker after its commands, which an
         * inner failure does not reach (events.md, "Errors"): on the fake
         * driver the kernel fails, and b keeps the copy's 7s */
        CHECK_ERR(status, CL_COMPLETE);
        if (fake)
            break;
        static int got[N];
        CHECK_ERR(clEnqueueReadBuffer(e.queue, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < N; i++)
            if (got[i] != 14) {
                CHECK(false, "round %d, element %d: %d, not 14", round, i, got[i]);
                break;
            }
    }
    clReleaseCommandBufferKHR(cb);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* SPIR-V's saturating conversions (NaN is 0) and an out-parameter through a
 * generic pointer (tests/e2e/spirv/gpu.cl). */
TEST(spirv_saturate)
{
    GPU_ENV(e);
    cl_program p = spirv_built(&e, "gpu");
    if (!p) {
        env_close(&e);
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "saturate", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 4 };
    double d[N] = {NAN, 3e9, -3e9, 2.5};
    float x[N] = {NAN, 300.0f, -2.5f, 1.75f};
    cl_mem bd = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof d, d, &err);
    cl_mem bx = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem bo = clCreateBuffer(e.context, CL_MEM_READ_WRITE, 3 * N * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof bd, &bd);
    clSetKernelArg(k, 1, sizeof bx, &bx);
    clSetKernelArg(k, 2, sizeof bo, &bo);
    size_t global = N;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, NULL, 0, NULL, &done), CL_SUCCESS);
    if (launch_ran(done)) {
        int out[3 * N];
        clEnqueueReadBuffer(e.queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        const int want[3 * N] = {0, 0, 0, INT_MAX, 127, 300, INT_MIN, -2, -3, 2, 2, 1};
        for (int i = 0; i < 3 * N; i++)
            CHECK(i == 2 || out[i] == want[i], "value %d: %d, not %d", i, out[i], want[i]);
    }
    clReleaseEvent(done);
    clReleaseMemObject(bd);
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* printf: the records a launch appends are formatted after it, before its
 * command completes, in the order the work-items reserved them; each
 * work-item's line is checked, with vectors, strings and a width from an
 * argument. */
static const char printf_source[] =
    "kernel void say(global const float *x) {\n"
    "    int i = (int)get_global_id(0);\n"
    "    printf(\"item %d: %*d|%v2hlf|%s|%c|%lu\\n\", i, 4, i * 3, (float2)(x[i], 0.5f), \"words\", 'A' + i % 26,\n"
    "           (ulong)i << 40);\n"
    "}\n";

TEST(printf_output)
{
    GPU_ENV(e);
    cl_program p = build(&e, printf_source, "", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "say", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 300 };
    float x[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i / 4;
    cl_mem in = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    clSetKernelArg(k, 0, sizeof in, &in);
    char path[] = "/tmp/mosaic-gpu-printf-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    unlink(path);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    size_t global = N, local = 100;
    cl_event done;
    err = clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, &local, 0, NULL, &done);
    clFinish(e.queue);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS && launch_ran(done)) {
        off_t size = lseek(fd, 0, SEEK_END);
        char *text = calloc(1, (size_t)size + 1);
        CHECK(text && pread(fd, text, (size_t)size, 0) == size);
        int seen[N] = {0}, lines = 0, bad = 0;
        for (char *line = text, *end; text && *line; line = end + 1, lines++) {
            end = strchr(line, '\n');
            if (!end)
                break;
            *end = '\0';
            int i = -1;
            char want[160];
            if (sscanf(line, "item %d:", &i) == 1 && i >= 0 && i < N) {
                snprintf(want, sizeof want, "item %d: %4d|%f,%f|words|%c|%lu", i, i * 3, (double)x[i], 0.5,
                         'A' + i % 26, (unsigned long)i << 40);
                seen[i]++;
            }
            if ((i < 0 || i >= N || strcmp(line, want) != 0) && bad++ < 3)
                CHECK(false, "printed '%s'", line);
        }
        int missing = 0;
        for (int i = 0; i < N; i++)
            missing += seen[i] != 1;
        CHECK(lines == N && missing == 0 && bad == 0, "%d lines, %d work-items not printed once, %d wrong", lines,
              missing, bad);
        free(text);
    }
    if (fd >= 0)
        close(fd);
    clReleaseMemObject(in);
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

/* What the GPU does not do is refused with the spec's errors, not a crash:
 * it cannot be partitioned; a module that is not SPIR-V is refused as the
 * CPU refuses it. */
TEST(refusals)
{
    GPU_ENV(e);
    cl_uint most = 1;
    CHECK_ERR(clGetDeviceInfo(gpu, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof most, &most, NULL), CL_SUCCESS);
    CHECK(most == 0, "CL_DEVICE_PARTITION_MAX_SUB_DEVICES: %u", most);
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    cl_uint made = 7;
    CHECK_ERR(clCreateSubDevices(gpu, equally, 0, NULL, &made), CL_DEVICE_PARTITION_FAILED);
    cl_int err;
    cl_uint word = 0x07230203;
    CHECK(!clCreateProgramWithIL(e.context, &word, sizeof word, &err), "a program from a header alone");
    CHECK_ERR(err, CL_INVALID_VALUE);
    const char *source = "kernel void k(global int *x) { x[0] = 1; }\n";
    cl_program p = clCreateProgramWithSource(e.context, 1, &source, NULL, &err);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 0, sizeof word, &word), CL_INVALID_PROGRAM);
    clReleaseProgram(p);
    env_close(&e);
}

/* A child of fork() cannot use the CUDA its parent opened (nor has it the
 * GPU's executor thread): its commands on the GPU fail at once, where they
 * once waited for ever; the parent's go on. */
static int child_on_gpu(gpu_env *e, cl_mem x)
{
    alarm(30); /* a hang ends the child */
    int v[16] = {0};
    cl_int write = clEnqueueWriteBuffer(e->queue, x, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL);
    cl_event done;
    cl_int read = clEnqueueReadBuffer(e->queue, x, CL_FALSE, 0, sizeof v, v, 0, NULL, &done);
    cl_int status = CL_COMPLETE;
    if (read == CL_SUCCESS) {
        clWaitForEvents(1, &done);
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    }
    clFinish(e->queue);
    if (write == CL_SUCCESS || status >= 0)
        fprintf(stderr, "the child: write %d, read status %d\n", write, status);
    return write != CL_SUCCESS && status < 0 ? 0 : 1;
}

TEST(fork_child_refused)
{
    GPU_ENV(e);
    cl_int err;
    int v[16];
    for (int i = 0; i < 16; i++)
        v[i] = i;
    cl_mem x = clCreateBuffer(e.context, CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, x, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL), CL_SUCCESS);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_on_gpu(&e, x));
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child: %s %d (SIGALRM: it hung)",
          WIFSIGNALED(status) ? "signal" : "exit status", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    int got[16] = {0};
    CHECK_ERR(clEnqueueReadBuffer(e.queue, x, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    CHECK(got[15] == 15, "the parent's buffer after the fork: %d", got[15]);
    clReleaseMemObject(x);
    env_close(&e);
}

/* A blocking transfer runs on the application's thread: on a thread that
 * never used the GPU, whose CUDA context is not current there until the op
 * makes it so. */
typedef struct other_thread_transfer {
    gpu_env *e;
    cl_mem x;
    cl_int write, read, fill;
    int got[16];
} other_thread_transfer;

static void *transfer_elsewhere(void *arg)
{
    other_thread_transfer *t = arg;
    int v[16];
    for (int i = 0; i < 16; i++)
        v[i] = 100 + i;
    t->write = clEnqueueWriteBuffer(t->e->queue, t->x, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL);
    int zero = 0;
    t->fill = clEnqueueFillBuffer(t->e->queue, t->x, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL);
    t->read = clEnqueueReadBuffer(t->e->queue, t->x, CL_TRUE, 0, sizeof t->got, t->got, 0, NULL, NULL);
    return NULL;
}

TEST(transfers_on_other_threads)
{
    GPU_ENV(e);
    cl_int err;
    cl_mem x = clCreateBuffer(e.context, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL, &err);
    other_thread_transfer t = {.e = &e, .x = x};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, transfer_elsewhere, &t) == 0);
    pthread_join(thread, NULL);
    CHECK_ERR(t.write, CL_SUCCESS);
    CHECK_ERR(t.fill, CL_SUCCESS);
    CHECK_ERR(t.read, CL_SUCCESS);
    CHECK(t.got[0] == 0 && t.got[1] == 101 && t.got[15] == 115, "read back %d %d %d", t.got[0], t.got[1],
          t.got[15]);
    clReleaseMemObject(x);
    env_close(&e);
}

/* Commands in flight on the GPU's stream (cuda_device.c): the engine
 * submits an in-order queue's next commands while a kernel still runs, and
 * they complete after it, in the queue's order, with what it wrote.  A
 * kernel named stall* keeps the fake driver's stream busy for 100 ms; on a
 * GPU, stall runs a chain of some 67 million dependent steps. */
static const char stall_source[] =
    "kernel void stall(global uint *out, uint steps) {\n"
    "    uint x = 1;\n"
    "    for (uint i = 0; i < steps; i++) x = x * 1664525u + 1013904223u;\n"
    "    out[0] = x;\n"
    "}\n"
    "kernel void stall_then(global uint *out) { out[1] = out[0] + 1; }\n";

typedef struct completion_order {
    pthread_mutex_t lock;
    int order[8];
    int count;
} completion_order;

static completion_order finished = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

static void CL_CALLBACK note_completion(cl_event e, cl_int status, void *which)
{
    (void)e, (void)status;
    pthread_mutex_lock(&finished.lock);
    if (finished.count < 8)
        finished.order[finished.count++] = (int)(intptr_t)which;
    pthread_mutex_unlock(&finished.lock);
}

static cl_ulong profile(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
    return t;
}

/* SVM on the GPU (managed memory): a coarse-grained allocation mapped,
 * filled, copied and used by a kernel through clSetKernelArgSVMPointer; a
 * fine-grained one the host writes directly; and in a context of the CPU
 * and the GPU, one allocation (the GPU's) that a CPU kernel and a GPU
 * kernel both use, in turn. */
static const char svm_source[] = "kernel void bump(global int *p, int by) { p[get_global_id(0)] += by; }\n";

TEST(svm)
{
    GPU_ENV(e);
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    CHECK(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "no coarse-grained SVM: %#llx", (unsigned long long)caps);
    CHECK(!(caps & (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS)), "reports %#llx",
          (unsigned long long)caps);
    enum { N = 4096 };
    cl_int err;
    int *p = clSVMAlloc(e.context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    CHECK(p != NULL, "clSVMAlloc failed");
    cl_program prog = build(&e, svm_source, "", CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "bump", &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!p || !k)
        goto done;
    CHECK_ERR(clEnqueueSVMMap(e.queue, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, p, N * sizeof(int), 0, NULL, NULL),
              CL_SUCCESS);
    for (int i = 0; i < N; i++)
        p[i] = i;
    CHECK_ERR(clEnqueueSVMUnmap(e.queue, p, 0, NULL, NULL), CL_SUCCESS);
    int by = 5, pattern = 7;
    size_t global = N;
    cl_event launched;
    CHECK_ERR(clSetKernelArgSVMPointer(k, 0, p), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof by, &by), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, NULL, 0, NULL, &launched), CL_SUCCESS);
    bool ran = launch_ran(launched);
    static int back[N];
    CHECK_ERR(clEnqueueSVMMemcpy(e.queue, CL_TRUE, back, p, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != i + (ran ? by : 0)) {
            CHECK(false, "element %d is %d after the kernel", i, back[i]);
            break;
        }
    CHECK_ERR(clEnqueueSVMMemFill(e.queue, p + 16, &pattern, sizeof pattern, 64 * sizeof(int), 0, NULL, NULL),
              CL_SUCCESS);
    CHECK_ERR(clEnqueueSVMMap(e.queue, CL_TRUE, CL_MAP_READ, p, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    CHECK(p[15] == 15 + (ran ? by : 0) && p[16] == 7 && p[79] == 7 && p[80] == 80 + (ran ? by : 0),
          "after the fill: %d %d %d %d", p[15], p[16], p[79], p[80]);
    CHECK_ERR(clEnqueueSVMUnmap(e.queue, p, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(e.queue), CL_SUCCESS);

    if (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) { /* no map: the host writes and reads it as it is */
        int *f = clSVMAlloc(e.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
        CHECK(f != NULL, "no fine-grained allocation");
        if (f) {
            for (int i = 0; i < N; i++)
                f[i] = 2 * i;
            CHECK_ERR(clSetKernelArgSVMPointer(k, 0, f), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(e.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clFinish(e.queue), CL_SUCCESS);
            CHECK(f[N - 1] == 2 * (N - 1) + (ran ? by : 0), "fine-grained: %d", f[N - 1]);
            clSVMFree(e.context, f);
        }
    }
done:
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(prog);
    if (p)
        clSVMFree(e.context, p);
    env_close(&e);

    /* the CPU's kernel, then the GPU's, on one allocation of the shared context */
    cl_device_id both[2] = {find_cpu(), gpu};
    cl_context shared = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int *q = shared ? clSVMAlloc(shared, CL_MEM_READ_WRITE, N * sizeof(int), 0) : NULL;
    CHECK(q != NULL, "no SVM in a context of the CPU and the GPU");
    if (!q) {
        if (shared)
            clReleaseContext(shared);
        return;
    }
    cl_program sp = clCreateProgramWithSource(shared, 1, (const char *[]){svm_source}, NULL, &err);
    CHECK_ERR(clBuildProgram(sp, 2, both, "", NULL, NULL), CL_SUCCESS);
    cl_kernel sk = clCreateKernel(sp, "bump", &err);
    cl_command_queue on[2];
    for (int d = 0; d < 2; d++)
        on[d] = clCreateCommandQueueWithProperties(shared, both[d], NULL, &err);
    int zero = 0;
    CHECK_ERR(clEnqueueSVMMemFill(on[0], q, &zero, sizeof zero, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    cl_event cpu_done = NULL, gpu_done = NULL;
    for (int d = 0; d < 2; d++) {
        int step = d ? 10 : 1;
        clSetKernelArgSVMPointer(sk, 0, q);
        clSetKernelArg(sk, 1, sizeof step, &step);
        CHECK_ERR(clEnqueueNDRangeKernel(on[d], sk, 1, NULL, &global, NULL, d ? 1 : 0, d ? &cpu_done : NULL,
                                         d ? &gpu_done : &cpu_done),
                  CL_SUCCESS);
    }
    bool gpu_ran = launch_ran(gpu_done); /* (waited for, and released) */
    CHECK_ERR(clEnqueueSVMMap(on[0], CL_TRUE, CL_MAP_READ, q, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    CHECK(q[0] == 1 + (gpu_ran ? 10 : 0) && q[N - 1] == 1 + (gpu_ran ? 10 : 0), "shared: %d %d", q[0], q[N - 1]);
    CHECK_ERR(clEnqueueSVMUnmap(on[0], q, 0, NULL, NULL), CL_SUCCESS);
    clFinish(on[0]);
    clFinish(on[1]);
    clReleaseEvent(cpu_done);
    for (int d = 0; d < 2; d++)
        clReleaseCommandQueue(on[d]);
    clReleaseKernel(sk);
    clReleaseProgram(sp);
    clSVMFree(shared, q);
    clReleaseContext(shared);
}

/* Many small transfers in a row without a wait, each through the staging
 * memory (cuda_memory.c): more bytes than it holds, so its ring wraps and
 * fills, and the commands it has no room for go the driver's way; every
 * byte arrives, in the queue's order. */
TEST(staged_transfers)
{
    GPU_ENV(e);
    enum { N = 300 * 1024 / 4, ROUNDS = 40 };
    cl_int err;
    cl_mem a = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    cl_mem b = clCreateBuffer(e.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    uint32_t *in = malloc((size_t)ROUNDS * N * 4), *out = malloc((size_t)ROUNDS * N * 4);
    uint32_t *filled = malloc((size_t)ROUNDS * 4 * sizeof *filled);
    for (size_t i = 0; i < (size_t)ROUNDS * N; i++)
        in[i] = (uint32_t)(i * 2654435761u);
    memset(out, 0, (size_t)ROUNDS * N * 4);
    for (int r = 0; r < ROUNDS; r++) {
        uint32_t word = 0xa5000000u + (uint32_t)r;
        /* in -> a, a -> b, b read back; then a's first words filled and read */
        CHECK_ERR(clEnqueueWriteBuffer(e.queue, a, CL_FALSE, 0, N * 4, in + (size_t)r * N, 0, NULL, NULL),
                  CL_SUCCESS);
        CHECK_ERR(clEnqueueCopyBuffer(e.queue, a, b, 0, 0, N * 4, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(e.queue, b, CL_FALSE, 0, N * 4, out + (size_t)r * N, 0, NULL, NULL),
                  CL_SUCCESS);
        CHECK_ERR(clEnqueueFillBuffer(e.queue, a, &word, sizeof word, 0, 16, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(e.queue, a, CL_FALSE, 0, 16, filled + 4 * r, 0, NULL, NULL), CL_SUCCESS);
    }
    CHECK_ERR(clFinish(e.queue), CL_SUCCESS);
    int bad = 0;
    for (size_t i = 0; i < (size_t)ROUNDS * N && bad < 3; i++)
        if (out[i] != in[i]) {
            CHECK(false, "word %zu (round %zu) read back %#x, not %#x", i, i / N, out[i], in[i]);
            bad++;
        }
    for (int r = 0; r < ROUNDS && bad < 6; r++)
        for (int k = 0; k < 4; k++)
            if (filled[4 * r + k] != 0xa5000000u + (uint32_t)r) {
                CHECK(false, "round %d: filled word %d is %#x", r, k, filled[4 * r + k]);
                bad++;
            }
    free(in), free(out), free(filled);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    env_close(&e);
}

TEST(commands_in_flight)
{
    NEED_GPU();
    cl_int err;
    gpu_env e;
    e.context = clCreateContext(NULL, 1, &gpu, NULL, NULL, &err);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    e.queue = clCreateCommandQueueWithProperties(e.context, gpu, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_program p = build(&e, stall_source, "", CL_SUCCESS);
    cl_kernel stall = clCreateKernel(p, "stall", &err);
    cl_kernel then = clCreateKernel(p, "stall_then", &err);
    cl_mem out = clCreateBuffer(e.context, CL_MEM_READ_WRITE, 2 * sizeof(cl_uint), NULL, &err);
    cl_uint steps = 1u << 26;
    clSetKernelArg(stall, 0, sizeof out, &out);
    clSetKernelArg(stall, 1, sizeof steps, &steps);
    clSetKernelArg(then, 0, sizeof out, &out);

    size_t one = 1;
    cl_uint got[2] = {0, 0};
    cl_event ev[3];
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, stall, 1, NULL, &one, &one, 0, NULL, &ev[0]), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, then, 1, NULL, &one, &one, 0, NULL, &ev[1]), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, out, CL_FALSE, 0, sizeof got, got, 0, NULL, &ev[2]), CL_SUCCESS);
    cl_int first = event_status(ev[0]), second = event_status(ev[1]), read = event_status(ev[2]);
    CHECK(first > CL_COMPLETE, "the stalling kernel had ended already (%d)", first);
    CHECK(second == CL_SUBMITTED || second == CL_RUNNING,
          "the kernel after it was not submitted behind it (%d)", second);
    CHECK(read == CL_SUBMITTED || read == CL_RUNNING, "the read after them was not submitted (%d)", read);
    finished.count = 0;
    for (int i = 0; i < 3; i++)
        clSetEventCallback(ev[i], CL_COMPLETE, note_completion, (void *)(intptr_t)i);
    CHECK_ERR(clWaitForEvents(3, ev), CL_SUCCESS);
    for (int tries = 0; tries < 1000 && __atomic_load_n(&finished.count, __ATOMIC_ACQUIRE) < 3; tries++)
        usleep(1000); /* (callbacks run on their own thread) */
    pthread_mutex_lock(&finished.lock);
    CHECK(finished.count == 3 && finished.order[0] == 0 && finished.order[1] == 1 && finished.order[2] == 2,
          "%d commands completed, in the order %d %d %d", finished.count, finished.order[0], finished.order[1],
          finished.order[2]);
    pthread_mutex_unlock(&finished.lock);
    for (int i = 0; i < 2; i++) {
        cl_ulong end = profile(ev[i], CL_PROFILING_COMMAND_END);
        cl_ulong next_start = profile(ev[i + 1], CL_PROFILING_COMMAND_START);
        CHECK(next_start >= end, "command %d started %llu ns before the one before it ended", i + 1,
              (unsigned long long)(end - next_start));
    }
    if (!fake) {
        cl_uint want = 1;
        for (cl_uint i = 0; i < steps; i++)
            want = want * 1664525u + 1013904223u;
        CHECK(got[0] == want && got[1] == want + 1, "read %u %u, want %u %u", got[0], got[1], want, want + 1);
    }

    /* a blocking read behind a kernel still running */
    cl_uint again[2] = {0, 0};
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, then, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(e.queue, stall, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(e.queue, out, CL_TRUE, 0, sizeof again, again, 0, NULL, NULL), CL_SUCCESS);
    if (!fake)
        CHECK(again[0] == got[0] && again[1] == got[1], "read %u %u after the second stall", again[0], again[1]);
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);
    clReleaseMemObject(out);
    clReleaseKernel(stall);
    clReleaseKernel(then);
    clReleaseProgram(p);
    env_close(&e);
}

/* The local size the GPU picks when the application gives none
 * (clGetKernelSuggestedLocalWorkSizeKHR asks the same choice): groups of
 * 256 where the NDRange is large, smaller ones (down to 64) where groups of
 * 256 would be fewer than two per compute unit. */
TEST(chosen_local_size)
{
    GPU_ENV(e);
    cl_program p = build(&e, "kernel void nothing(void) {}", "", CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "nothing", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_platform_id platform;
    clGetDeviceInfo(gpu, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest = (clGetKernelSuggestedLocalWorkSizeKHR_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    CHECK(suggest != NULL, "no clGetKernelSuggestedLocalWorkSizeKHR");
    cl_uint units = 0;
    clGetDeviceInfo(gpu, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    size_t large = (size_t)1 << 22, small = 64 * (size_t)units, local = 0;
    if (suggest) {
        CHECK_ERR(suggest(e.queue, k, 1, NULL, &large, &local), CL_SUCCESS);
        CHECK(local == 256, "%zu work-items: groups of %zu", large, local);
        CHECK_ERR(suggest(e.queue, k, 1, NULL, &small, &local), CL_SUCCESS);
        CHECK(local == 64, "%zu work-items on %u compute units: groups of %zu", small, units, local);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    env_close(&e);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
