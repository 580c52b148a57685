/*
 * Stores that stream past the cache (src/compiler/vectorize/nontemporal_stores.c): a
 * kernel's stores of whole 64-byte lines to global memory have a
 * non-temporal version, taken in launches that set ctx->stream_stores (the
 * CPU device: launches whose memory objects are at least half its
 * last-level cache; MOSAIC_STREAM_STORES=1: every launch) when the lines
 * are aligned.  A non-temporal vector store to an address that is not
 * aligned faults, and the copy of the stores must compute what the
 * original does, so here rows start at every alignment (global offsets,
 * widths that are not multiples of 16, a host pointer 4 bytes into a line)
 * and every element written or left alone is checked, in a plain kernel,
 * one with values computed between its stores, and one with barriers.
 * The list runs the cases as the device decides, with streaming in every
 * launch, and with none.
 *
 *   usage: test_stream_stores [case|--list]   (the cases: test_stream_stores.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_stream_stores.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static cl_program program;

static const char source[] =
    "kernel void triad(global const float *a, global const float *b, global float *c, float s)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + s * b[i]; }\n"
    /* three rows of output per work-item, values computed between the stores */
    "kernel void three_rows(global const float *in, global float *out, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float x = in[i];\n"
    "    out[i] = x * 2.0f;\n"
    "    float y = x + 1.0f;\n"
    "    out[i + n] = y;\n"
    "    out[i + 2 * n] = y * y - x;\n"
    "}\n"
    /* a 16x16 tile through local memory, written back shifted by one row */
    "kernel void tiles(global const float *in, global float *out, int w, int h)\n"
    "{\n"
    "    local float t[16][17];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1), x = get_global_id(0), y = get_global_id(1);\n"
    "    t[ly][lx] = x < w && y < h ? in[y * w + x] : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (x < w && y < h)\n"
    "        out[y * w + x] = t[ly][lx] * 3.0f + t[(ly + 1) % 16][lx];\n"
    "}\n";

#define UNTOUCHED (-12345.0f)

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_mem buffer_of(const float *host, size_t count)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count * sizeof(float), (void *)host,
                              &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static void fill_untouched(cl_mem m, size_t count)
{
    float f = UNTOUCHED;
    CHECK_ERR(clEnqueueFillBuffer(queue, m, &f, sizeof f, 0, count * sizeof f, 0, NULL, NULL), CL_SUCCESS);
}

/* How many of count elements differ from want; the first one reported. */
static int count_wrong(const char *what, const float *got, const float *want, size_t count)
{
    int bad = 0;
    for (size_t i = 0; i < count; i++)
        if (got[i] != want[i] && !bad++)
            CHECK(0, "%s: element %zu is %g, expected %g", what, i, got[i], want[i]);
    return bad;
}

static void set_triad_args(cl_kernel k, cl_mem a, cl_mem b, cl_mem c, float s)
{
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof b, &b), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof c, &c), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof s, &s), CL_SUCCESS);
}

/* Small integers: every result below is exact, fused or not. */
static void small_integers(float *x, size_t count, int seed)
{
    for (size_t i = 0; i < count; i++)
        x[i] = (float)((int)((i * 7 + (size_t)seed * 13) % 61) - 30);
}

enum { N = 4111 };

/* triad over [offset, offset + size) of c, for offsets 0..17 and sizes that
 * end inside a line and at its end */
TEST(rows_at_every_offset)
{
    static float a[N], b[N], got[N], want[N];
    small_integers(a, N, 1);
    small_integers(b, N, 2);
    cl_kernel k = kernel("triad");
    cl_mem ma = buffer_of(a, N), mb = buffer_of(b, N), mc = buffer_of(a, N);
    float s = 3.0f;
    set_triad_args(k, ma, mb, mc, s);
    static const size_t sizes[] = {1, 15, 16, 64, 1000, 4096};
    int bad = 0;
    for (size_t offset = 0; offset <= 17 && !bad; offset++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes && !bad; z++) {
            size_t size = sizes[z] + offset <= N ? sizes[z] : N - offset;
            fill_untouched(mc, N);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, &offset, &size, NULL, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
            for (size_t i = 0; i < N; i++)
                want[i] = i >= offset && i < offset + size ? a[i] + s * b[i] : UNTOUCHED;
            char what[64];
            snprintf(what, sizeof what, "offset %zu, %zu work-items", offset, size);
            bad = count_wrong(what, got, want, N);
        }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
}

/* The user's memory, 4 bytes into a line (CL_MEM_USE_HOST_PTR): no row of
 * it is aligned, whatever the offset. */
TEST(host_memory_off_a_line)
{
    static float a[N], b[N], want[N];
    float *raw = aligned_alloc(64, ((N + 16) * sizeof(float) + 63) & ~(size_t)63), *c = raw + 1;
    CHECK(raw != NULL, "host memory");
    if (!raw)
        return;
    small_integers(a, N, 3);
    small_integers(b, N, 4);
    for (size_t i = 0; i < N; i++)
        c[i] = UNTOUCHED;
    cl_int err;
    cl_kernel k = kernel("triad");
    cl_mem ma = buffer_of(a, N), mb = buffer_of(b, N);
    cl_mem mc = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(float), c, &err);
    CHECK_ERR(err, CL_SUCCESS);
    float s = -2.0f;
    set_triad_args(k, ma, mb, mc, s);
    size_t offset = 5, size = 4096; /* groups of 64 (a divisor): rows of vectors */
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, &offset, &size, NULL, 0, NULL, NULL), CL_SUCCESS);
    float *mapped = clEnqueueMapBuffer(queue, mc, CL_TRUE, CL_MAP_READ, 0, N * sizeof(float), 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (size_t i = 0; i < N; i++)
        want[i] = i >= offset && i < offset + size ? a[i] + s * b[i] : UNTOUCHED;
    if (mapped) {
        count_wrong("host memory 4 bytes into a line", mapped, want, N);
        CHECK_ERR(clEnqueueUnmapMemObject(queue, mc, mapped, 0, NULL, NULL), CL_SUCCESS);
    }
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
    free(raw);
}

/* Three rows a work-item, rows n apart: n a multiple of 16 or not */
TEST(values_between_stores)
{
    enum { MAX = 1040 };
    static float in[MAX], got[3 * MAX], want[3 * MAX];
    small_integers(in, MAX, 5);
    cl_kernel k = kernel("three_rows");
    cl_mem mi = buffer_of(in, MAX), mo = buffer_of(got, 3 * MAX);
    static const cl_int widths[] = {1024, 1040, 1001, 17};
    int bad = 0;
    for (size_t w = 0; w < sizeof widths / sizeof *widths && !bad; w++) {
        cl_int n = widths[w];
        size_t global = (size_t)n;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mi, &mi), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        fill_untouched(mo, 3 * MAX);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < 3 * MAX; i++)
            want[i] = UNTOUCHED;
        for (cl_int i = 0; i < n; i++) {
            float x = in[i], y = x + 1.0f;
            want[i] = x * 2.0f;
            want[i + n] = y;
            want[i + 2 * n] = y * y - x;
        }
        char what[32];
        snprintf(what, sizeof what, "rows %d apart", n);
        bad = count_wrong(what, got, want, 3 * MAX);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
}

/* A barrier kernel's output rows (16x16 groups, launched three times: the
 * third runs its build for that size), widths that start rows anywhere in a line */
TEST(barrier_kernel_rows)
{
    enum { W = 200, H = 48 };
    static float in[W * H], got[W * H], want[W * H];
    small_integers(in, W * H, 6);
    cl_kernel k = kernel("tiles");
    cl_mem mi = buffer_of(in, W * H), mo = buffer_of(in, W * H);
    static const cl_int widths[] = {192, 200, 183};
    int bad = 0;
    for (size_t v = 0; v < sizeof widths / sizeof *widths && !bad; v++) {
        cl_int w = widths[v], h = H;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mi, &mi), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof w, &w), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 3, sizeof h, &h), CL_SUCCESS);
        size_t global[2] = {((size_t)w + 15) / 16 * 16, H}, local[2] = {16, 16};
        for (int launch = 0; launch < 3; launch++) {
            fill_untouched(mo, W * H);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
        }
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < W * H; i++)
            want[i] = UNTOUCHED;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < w; x++) {
                int below = y / 16 * 16 + (y % 16 + 1) % 16;
                want[y * w + x] = in[y * w + x] * 3.0f + in[below * w + x];
            }
        char what[32];
        snprintf(what, sizeof what, "width %d", w);
        bad = count_wrong(what, got, want, W * H);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
}

/* A launch whose buffers are as large as the CPU device streams from (half
 * its last-level cache, at most 4 MiB a compute unit; up to 3 x 64 MiB):
 * the device's own choice streams its stores. */
TEST(launch_larger_than_the_cache)
{
    cl_ulong cache = 0;
    cl_uint units = 1;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
    size_t from = ((size_t)4 << 20) * units;
    if (cache && cache / 2 < from)
        from = (size_t)(cache / 2);
    size_t n = from / 3 / sizeof(float) + 4096;
    if (n > ((size_t)64 << 20) / sizeof(float))
        n = ((size_t)64 << 20) / sizeof(float);
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    CHECK(a && b && c, "host memory");
    if (a && b && c) {
        small_integers(a, n, 7);
        small_integers(b, n, 8);
        cl_kernel k = kernel("triad");
        cl_mem ma = buffer_of(a, n), mb = buffer_of(b, n), mc = buffer_of(a, n);
        float s = 0.5f;
        set_triad_args(k, ma, mb, mc, s);
        size_t offset = 3, size = (n - 3) & ~(size_t)63; /* groups of 64: rows of vectors */
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, &offset, &size, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, n * sizeof *c, c, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (size_t i = 0; i < n && !bad; i++) {
            float want = i < offset || i >= offset + size ? a[i] : a[i] + s * b[i];
            if (c[i] != want && !bad++)
                CHECK(0, "element %zu of %zu is %g, expected %g", i, n, c[i], want);
        }
        clReleaseMemObject(ma);
        clReleaseMemObject(mb);
        clReleaseMemObject(mc);
        clReleaseKernel(k);
    }
    free(a);
    free(b);
    free(c);
}

/* Copies large enough to run in parts on several workers (8 MiB and more),
 * from and to bytes anywhere in a line: buffer to buffer, and a read into
 * host memory.  The CPU device streams those larger than its caches. */
TEST(large_copies)
{
    size_t n = ((size_t)24 << 20) + 77;
    unsigned char *host = malloc(n), *back = malloc(n + 64);
    CHECK(host && back, "host memory");
    if (!host || !back) {
        free(host), free(back);
        return;
    }
    for (size_t i = 0; i < n; i++)
        host[i] = (unsigned char)(i * 131 + (i >> 12));
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem dst = clCreateBuffer(context, CL_MEM_READ_WRITE, n, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    unsigned char zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, dst, &zero, 1, 0, n, 0, NULL, NULL), CL_SUCCESS);
    size_t from = 3, to = 5, size = n - 9;
    CHECK_ERR(clEnqueueCopyBuffer(queue, src, dst, from, to, size, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, n, back + 7, 0, NULL, NULL), CL_SUCCESS);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
        unsigned char want = i >= to && i < to + size ? host[i - to + from] : 0;
        if (back[7 + i] != want)
            bad = i;
    }
    CHECK(bad == n, "byte %zu of the copy differs", bad);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    free(host);
    free(back);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, source, "", &device, &context, &queue, &program);
}
