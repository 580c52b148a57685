/*
 * Counter arguments (src/compiler/workgroup/counter_args.c,
 * src/devices/cpu/cpu_counters.c): a __global buffer a kernel only adds to
 * with atomics whose old values it never reads is added into a copy per
 * worker, and the copies into the buffer when the worker's groups are done.
 * The sums must be exact (32- and 64-bit counters, adds and subtracts,
 * several launches, sub-buffers); MOSAIC_DEBUG=launch says which arguments
 * had copies, and the cases check that those that must not (a counter read
 * back, a result used, a buffer another argument also reaches, a host
 * pointer, a launch of few groups) had none.  With MOSAIC_SHARED_COUNTERS
 * no launch has copies and the sums are the same.
 */
#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_counters.list"
#include "test.h"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#define BINS 256\n"
    "kernel void histogram(global const uchar *data, global uint *hist, uint per_item)\n"
    "{\n"
    "    local uint bins[BINS];\n"
    "    uint l = get_local_id(0), n = get_local_size(0);\n"
    "    for (uint b = l; b < BINS; b += n)\n"
    "        bins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t base = get_group_id(0) * (size_t)n * per_item;\n"
    "    for (uint k = 0; k < per_item; k++)\n"
    "        atomic_inc(&bins[data[base + k * n + l]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint b = l; b < BINS; b += n)\n"
    "        if (bins[b])\n"
    "            atomic_add(&hist[b], bins[b]);\n"
    "}\n"
    /* 64-bit adds past 2^32 and 32-bit subtracts that wrap, in one kernel without __local memory */
    "kernel void wide(global ulong *sums, global int *down, global const uint *in)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    atom_add(&sums[in[i] % 8], (ulong)in[i] << 20);\n"
    "    atomic_sub(&down[i % 4], (int)in[i]);\n"
    "    atomic_dec(&down[4]);\n"
    "}\n"
    /* counters the kernel also reads: an old value used, a plain load */
    "kernel void tickets(global uint *next, global uint *out)\n"
    "{ out[get_global_id(0)] = atomic_inc(next); }\n"
    "kernel void read_back(global uint *c, global uint *out)\n"
    "{ atomic_add(&c[get_global_id(0) % 4], 1u); out[get_global_id(0)] = c[0] > 0xffffffu; }\n"
    /* two arguments that may be one buffer */
    "kernel void two(global uint *c, global uint *other)\n"
    "{ atomic_add(&c[get_global_id(0) % 16], 1u); atomic_add(&other[get_global_id(0) % 16], 2u); }\n"
    "";

static cl_program program;

/* The program, built once for every case. */
static cl_kernel kernel(const char *name) { return test_kernel_of(&program, context, device, source, name); }

static cl_mem buffer(cl_mem_flags flags, size_t bytes, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, flags, bytes, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* Runs k over `global` work-items in groups of `local`; what MOSAIC_DEBUG
 * said of the launch in text; whether it ran. */
static bool launch_saying(cl_kernel k, size_t global, size_t local, char *text, size_t size)
{
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return false;
    cl_int err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    test_captured_stderr(&c, text, size);
    CHECK_ERR(err, CL_SUCCESS);
    return err == CL_SUCCESS;
}

/* Does text say that argument `arg` of kernel `name` was added into copies? */
static bool says_copies(const char *text, const char *name, unsigned arg)
{
    char line[128];
    snprintf(line, sizeof line, "mosaic: kernel %s: argument %u, a buffer of ", name, arg);
    return strstr(text, line) != NULL;
}

static bool shared_counters(void)
{
    const char *v = getenv("MOSAIC_SHARED_COUNTERS");
    return v && *v && strcmp(v, "0");
}

/* Sets k's arguments from a list of cl_mem (by address) and by-value words. */
#define ARG(k, i, v) CHECK_ERR(clSetKernelArg(k, i, sizeof(v), &(v)), CL_SUCCESS)

TEST(histogram)
{
    enum { GROUPS = 64, LOCAL = 64, PER_ITEM = 16, BINS = 256, N = GROUPS * LOCAL * PER_ITEM };
    cl_kernel k = kernel("histogram");
    unsigned char *data = malloc(N);
    uint32_t want[BINS] = {0}, got[BINS];
    if (!k || !data)
        goto done;
    uint32_t x = 12345;
    for (size_t i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)((x >> 16) % 200 + (i % 7 == 0 ? 56 : 0)); /* some bins empty in most groups */
        want[data[i]] += 3;                                                   /* three launches */
    }
    cl_mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, data);
    cl_mem hist = buffer(CL_MEM_READ_WRITE, sizeof got, NULL);
    cl_uint per_item = PER_ITEM, zero = 0;
    ARG(k, 0, in);
    ARG(k, 1, hist);
    ARG(k, 2, per_item);
    CHECK_ERR(clEnqueueFillBuffer(queue, hist, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL), CL_SUCCESS);
    char text[4096];
    for (int launch = 0; launch < 3; launch++)
        if (launch_saying(k, GROUPS * LOCAL, LOCAL, text, sizeof text) && launch == 0)
            CHECK(says_copies(text, "histogram", 1) == !shared_counters(), "it says:\n%s", text);
    CHECK_ERR(clEnqueueReadBuffer(queue, hist, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int b = 0; b < BINS; b++)
        wrong += got[b] != want[b];
    CHECK(wrong == 0, "%d bins wrong (bin 0: %u, want %u)", wrong, got[0], want[0]);
    /* a launch of fewer groups than two a worker: no copies, the same sums */
    CHECK_ERR(clEnqueueFillBuffer(queue, hist, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL), CL_SUCCESS);
    if (launch_saying(k, 4 * LOCAL, LOCAL, text, sizeof text)) {
        CHECK(!says_copies(text, "histogram", 1), "it says:\n%s", text);
        memset(want, 0, sizeof want);
        for (size_t i = 0; i < 4 * LOCAL * PER_ITEM; i++)
            want[data[i]]++;
        CHECK_ERR(clEnqueueReadBuffer(queue, hist, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        wrong = 0;
        for (int b = 0; b < BINS; b++)
            wrong += got[b] != want[b];
        CHECK(wrong == 0, "%d bins wrong after a small launch", wrong);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(hist);
done:
    free(data);
    if (k)
        clReleaseKernel(k);
}

TEST(wide_and_subtracted)
{
    enum { N = 64 * 256 };
    cl_kernel k = kernel("wide");
    uint32_t *in = malloc(N * sizeof *in);
    if (!k || !in)
        goto done;
    uint64_t want_sums[8] = {0}, sums[8];
    int32_t want_down[5] = {0, 0, 0, 0, 0}, down[5];
    for (uint32_t i = 0; i < N; i++) {
        in[i] = i * 2654435761u;
        want_sums[in[i] % 8] += (uint64_t)in[i] << 20;
        want_down[i % 4] -= (int32_t)in[i];
        want_down[4]--;
    }
    cl_mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *in, in);
    /* the counters in sub-buffers of one buffer, each reached by one argument */
    cl_mem whole = buffer(CL_MEM_READ_WRITE, 2048, NULL);
    cl_buffer_region r1 = {0, sizeof sums}, r2 = {1024, sizeof down};
    cl_int err;
    cl_mem s = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem d = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CHECK_ERR(err, CL_SUCCESS);
    unsigned char zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, whole, &zero, 1, 0, 2048, 0, NULL, NULL), CL_SUCCESS);
    ARG(k, 0, s);
    ARG(k, 1, d);
    ARG(k, 2, input);
    char text[4096];
    if (launch_saying(k, N, 256, text, sizeof text))
        /* the two sub-buffers share one buffer: neither gets copies */
        CHECK(!says_copies(text, "wide", 0) && !says_copies(text, "wide", 1), "it says:\n%s", text);
    cl_mem s2 = buffer(CL_MEM_READ_WRITE, sizeof sums, NULL), d2 = buffer(CL_MEM_READ_WRITE, sizeof down, NULL);
    CHECK_ERR(clEnqueueFillBuffer(queue, s2, &zero, 1, 0, sizeof sums, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(queue, d2, &zero, 1, 0, sizeof down, 0, NULL, NULL), CL_SUCCESS);
    ARG(k, 0, s2);
    ARG(k, 1, d2);
    if (launch_saying(k, N, 256, text, sizeof text))
        CHECK(says_copies(text, "wide", 0) == !shared_counters() && says_copies(text, "wide", 1) == !shared_counters(),
              "it says:\n%s", text);
    for (int pass = 0; pass < 2; pass++) {
        CHECK_ERR(clEnqueueReadBuffer(queue, pass ? s2 : s, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, pass ? d2 : d, CL_TRUE, 0, sizeof down, down, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < 8; i++)
            CHECK(sums[i] == want_sums[i], "launch %d: sum %d is %llu, want %llu", pass, i,
                  (unsigned long long)sums[i], (unsigned long long)want_sums[i]);
        for (int i = 0; i < 5; i++)
            CHECK(down[i] == want_down[i], "launch %d: counter %d is %d, want %d", pass, i, down[i], want_down[i]);
    }
    clReleaseMemObject(s);
    clReleaseMemObject(d);
    clReleaseMemObject(s2);
    clReleaseMemObject(d2);
    clReleaseMemObject(whole);
    clReleaseMemObject(input);
done:
    free(in);
    if (k)
        clReleaseKernel(k);
}

/* Kernels that read their counters keep adding into the buffer itself. */
TEST(not_counters)
{
    enum { N = 64 * 64 };
    cl_kernel t = kernel("tickets"), r = kernel("read_back");
    uint32_t *out = malloc(N * sizeof *out);
    if (!t || !r || !out)
        goto done;
    cl_mem next = buffer(CL_MEM_READ_WRITE, 16, NULL), o = buffer(CL_MEM_READ_WRITE, N * sizeof *out, NULL);
    uint32_t zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, next, &zero, sizeof zero, 0, 16, 0, NULL, NULL), CL_SUCCESS);
    ARG(t, 0, next);
    ARG(t, 1, o);
    ARG(r, 0, next);
    ARG(r, 1, o);
    char text[4096];
    if (launch_saying(t, N, 64, text, sizeof text)) {
        CHECK(!says_copies(text, "tickets", 0), "it says:\n%s", text);
        /* every ticket taken once */
        CHECK_ERR(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
        unsigned char *seen = calloc(N, 1);
        int wrong = 0;
        for (int i = 0; seen && i < N; i++) {
            wrong += out[i] >= N || seen[out[i]];
            if (out[i] < N)
                seen[out[i]] = 1;
        }
        free(seen);
        CHECK(wrong == 0, "%d tickets wrong", wrong);
    }
    if (launch_saying(r, N, 64, text, sizeof text))
        CHECK(!says_copies(text, "read_back", 0), "it says:\n%s", text);
    uint32_t c[4];
    CHECK_ERR(clEnqueueReadBuffer(queue, next, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
    CHECK(c[0] == N + N / 4 && c[1] == N / 4 && c[2] == N / 4 && c[3] == N / 4, "counters %u %u %u %u", c[0], c[1],
          c[2], c[3]);
    clReleaseMemObject(next);
    clReleaseMemObject(o);
done:
    free(out);
    if (t)
        clReleaseKernel(t);
    if (r)
        clReleaseKernel(r);
}

/* One buffer as both arguments, and a buffer on the host's memory: no copies. */
TEST(shared_storage)
{
    enum { N = 64 * 64 };
    cl_kernel k = kernel("two");
    if (!k)
        return;
    uint32_t host[16] = {0}, got[16];
    cl_mem one = buffer(CL_MEM_READ_WRITE, sizeof got, NULL);
    cl_mem on_host = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    cl_mem other = buffer(CL_MEM_READ_WRITE, sizeof got, NULL);
    uint32_t zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, one, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(queue, other, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL), CL_SUCCESS);
    char text[4096];
    ARG(k, 0, one);
    ARG(k, 1, one);
    if (launch_saying(k, N, 64, text, sizeof text))
        CHECK(!says_copies(text, "two", 0) && !says_copies(text, "two", 1), "it says:\n%s", text);
    CHECK_ERR(clEnqueueReadBuffer(queue, one, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 16; i++)
        CHECK(got[i] == 3 * N / 16, "counter %d is %u", i, got[i]);
    ARG(k, 0, on_host);
    ARG(k, 1, other);
    if (launch_saying(k, N, 64, text, sizeof text))
        CHECK(!says_copies(text, "two", 0) && says_copies(text, "two", 1) == !shared_counters(), "it says:\n%s", text);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    void *map = clEnqueueMapBuffer(queue, on_host, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, NULL);
    CHECK(map != NULL);
    for (int i = 0; map && i < 16; i++)
        CHECK(((uint32_t *)map)[i] == N / 16, "host counter %d is %u", i, ((uint32_t *)map)[i]);
    if (map)
        clEnqueueUnmapMemObject(queue, on_host, map, 0, NULL, NULL);
    CHECK_ERR(clEnqueueReadBuffer(queue, other, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 16; i++)
        CHECK(got[i] == 2 * N / 16, "other counter %d is %u", i, got[i]);
    clReleaseMemObject(one);
    clReleaseMemObject(on_host);
    clReleaseMemObject(other);
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    int r = test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
    if (program)
        clReleaseProgram(program);
    return r;
}
