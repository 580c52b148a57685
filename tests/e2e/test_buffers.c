/*
 * Buffers as a real program uses them, through the ICD loader: kernels on
 * sub-buffers, zero-copy USE_HOST_PTR buffers seen through maps, a tile cut
 * out of a matrix with rectangular copies, fills feeding kernels, and
 * destructor callbacks that wait for the last command using the memory.
 *
 *   usage: test_buffers [case|--list]   (the cases: test_buffers.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_buffers.list"
#include "test.h"
#include "cl_test.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static const char *source =
    "kernel void scale(global float *a, float k) { size_t i = get_global_id(0); a[i] *= k; }\n"
    "kernel void add_index(global int *a) { size_t i = get_global_id(0); a[i] += (int)i; }\n"
    "kernel void twice_2d(global const float *in, global float *out, uint width) {\n"
    "    size_t x = get_global_id(0), y = get_global_id(1);\n"
    "    out[y * width + x] = 2.0f * in[y * width + x];\n"
    "}\n"
    "kernel void sum_words(global const uint *in, global ulong *out, uint n) {\n"
    "    ulong s = 0; for (uint i = 0; i < n; i++) s += in[i]; *out = s;\n"
    "}\n";

static cl_kernel kernel(const char *name)
{
    cl_int err = 0;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host_ptr)
{
    cl_int err = 0;
    cl_mem m = clCreateBuffer(context, flags, size, host_ptr, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* A kernel run on two sub-buffers changes exactly their ranges of the parent. */
TEST(subbuffer_kernel)
{
    enum { N = 4096 };
    float host[N], got[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i;
    cl_mem parent = buffer(CL_MEM_COPY_HOST_PTR, sizeof host, host);
    cl_buffer_region r1 = { 256 * sizeof(float), 512 * sizeof(float) };
    cl_buffer_region r2 = { 2048 * sizeof(float), 1024 * sizeof(float) };
    cl_int err = 0;
    cl_mem s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kernel("scale");
    float three = 3.0f, half = 0.5f;
    size_t n1 = 512, n2 = 1024;
    OK(clSetKernelArg(k, 0, sizeof s1, &s1));
    OK(clSetKernelArg(k, 1, sizeof three, &three));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n1, NULL, 0, NULL, NULL));
    OK(clSetKernelArg(k, 0, sizeof s2, &s2));
    OK(clSetKernelArg(k, 1, sizeof half, &half));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n2, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = (float)i;
        if (i >= 256 && i < 768)
            want *= 3.0f;
        else if (i >= 2048 && i < 3072)
            want *= 0.5f;
        bad += got[i] != want;
    }
    CHECK(bad == 0);
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(s1));
    OK(clReleaseMemObject(s2));
    OK(clReleaseMemObject(parent));
}

/* USE_HOST_PTR is zero copy: a kernel's writes are in the user's array, and
 * a map returns the user's own pointer. */
TEST(use_host_ptr)
{
    enum { N = 1 << 14 };
    int *host = aligned_alloc(128, N * sizeof(int));
    for (int i = 0; i < N; i++)
        host[i] = 1000;
    cl_mem b = buffer(CL_MEM_USE_HOST_PTR, N * sizeof(int), host);
    cl_kernel k = kernel("add_index");
    size_t n = N;
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    cl_int err = 0;
    int *p = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 100 * sizeof(int), 50 * sizeof(int), 0, NULL,
                                NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(p == host + 100);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += host[i] != 1000 + i;
    CHECK(bad == 0);
    OK(clEnqueueUnmapMemObject(queue, b, p, 0, NULL, NULL));
    OK(clFinish(queue));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(b));
    free(host);
}

/* Cut a tile out of a matrix (copy rect), run a 2D kernel on it, and write
 * the result back into another matrix at another place (read rect). */
TEST(rect_tile)
{
    enum { W = 100, H = 80, TW = 24, TH = 16 };
    static float m[H][W], out[H + 10][W + 20];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            m[y][x] = (float)(y * 1000 + x);
    memset(out, 0, sizeof out);
    cl_mem big = buffer(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, sizeof m, m);
    cl_mem tile = buffer(0, TW * TH * sizeof(float), NULL);
    cl_mem result = buffer(CL_MEM_HOST_READ_ONLY, TW * TH * sizeof(float), NULL);
    size_t src_origin[3] = { 30 * sizeof(float), 50, 0 }, zero[3] = { 0, 0, 0 };
    size_t region[3] = { TW * sizeof(float), TH, 1 };
    OK(clEnqueueCopyBufferRect(queue, big, tile, src_origin, zero, region, W * sizeof(float), 0, 0, 0, 0, NULL,
                               NULL));
    cl_kernel k = kernel("twice_2d");
    cl_uint width = TW;
    OK(clSetKernelArg(k, 0, sizeof tile, &tile));
    OK(clSetKernelArg(k, 1, sizeof result, &result));
    OK(clSetKernelArg(k, 2, sizeof width, &width));
    size_t gws[2] = { TW, TH };
    OK(clEnqueueNDRangeKernel(queue, k, 2, NULL, gws, NULL, 0, NULL, NULL));
    size_t host_origin[3] = { 7 * sizeof(float), 3, 0 };
    OK(clEnqueueReadBufferRect(queue, result, CL_TRUE, zero, host_origin, region, 0, 0, (W + 20) * sizeof(float),
                               0, out, 0, NULL, NULL));
    int bad = 0;
    for (int y = 0; y < H + 10; y++)
        for (int x = 0; x < W + 20; x++) {
            bool inside = y >= 3 && y < 3 + TH && x >= 7 && x < 7 + TW;
            float want = inside ? 2.0f * m[50 + y - 3][30 + x - 7] : 0.0f;
            bad += out[y][x] != want;
        }
    CHECK(bad == 0);
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(big));
    OK(clReleaseMemObject(tile));
    OK(clReleaseMemObject(result));
}

/* A fill feeds a kernel: the kernel sees the pattern everywhere. */
TEST(fill_kernel)
{
    enum { N = 10000 };
    cl_mem in = buffer(CL_MEM_HOST_NO_ACCESS, N * sizeof(cl_uint), NULL);
    cl_mem out = buffer(0, sizeof(cl_ulong), NULL);
    cl_uint pattern[4] = { 1, 2, 3, 4 };
    OK(clEnqueueFillBuffer(queue, in, pattern, sizeof pattern, 0, N * sizeof(cl_uint), 0, NULL, NULL));
    cl_kernel k = kernel("sum_words");
    cl_uint n = N;
    OK(clSetKernelArg(k, 0, sizeof in, &in));
    OK(clSetKernelArg(k, 1, sizeof out, &out));
    OK(clSetKernelArg(k, 2, sizeof n, &n));
    size_t one = 1;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_ulong sum = 0;
    OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL));
    CHECK(sum == (cl_ulong)N / 4 * 10);
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(in));
    OK(clReleaseMemObject(out));
}

/* Write a buffer through a WRITE_INVALIDATE_REGION map; a kernel then sees it. */
TEST(map_invalidate)
{
    enum { N = 2048 };
    cl_mem b = buffer(CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_WRITE_ONLY, N * sizeof(float), NULL);
    cl_int err = 0;
    float *p = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N * sizeof(float), 0, NULL,
                                  NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    for (int i = 0; i < N; i++)
        p[i] = (float)i;
    OK(clEnqueueUnmapMemObject(queue, b, p, 0, NULL, NULL));
    cl_kernel k = kernel("scale");
    float two = 2.0f;
    size_t n = N;
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(clSetKernelArg(k, 1, sizeof two, &two));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    cl_mem copy = buffer(0, N * sizeof(float), NULL);
    OK(clEnqueueCopyBuffer(queue, b, copy, 0, 0, N * sizeof(float), 0, NULL, NULL));
    float got[N];
    OK(clEnqueueReadBuffer(queue, copy, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != 2.0f * (float)i;
    CHECK(bad == 0);
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(copy));
}

/* The destructor callback of a buffer released while a kernel still uses it
 * runs after the kernel: the host may then free the USE_HOST_PTR memory. */
static atomic_int destroyed;

static void CL_CALLBACK on_destroy(cl_mem m, void *data)
{
    /* the kernel has finished with the memory: it holds its final values */
    int *host = data;
    atomic_store(&destroyed, host[0] == 1000 && host[4095] == 1000 + 4095 ? 1 : -1);
}

TEST(destructor)
{
    enum { N = 4096 };
    int *host = aligned_alloc(128, N * sizeof(int));
    for (int i = 0; i < N; i++)
        host[i] = 1000;
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem b = buffer(CL_MEM_USE_HOST_PTR, N * sizeof(int), host);
    OK(clSetMemObjectDestructorCallback(b, on_destroy, host));
    cl_kernel k = kernel("add_index");
    size_t n = N;
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    cl_event done = NULL;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 1, &gate, &done));
    OK(clReleaseKernel(k)); /* the kernel object no longer holds b either */
    OK(clReleaseMemObject(b));
    usleep(20000);
    CHECK(atomic_load(&destroyed) == 0); /* the kernel has not run yet */
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &done));
    for (int i = 0; i < 2000 && atomic_load(&destroyed) == 0; i++)
        usleep(1000);
    CHECK(atomic_load(&destroyed) == 1);
    OK(clReleaseEvent(done));
    OK(clReleaseEvent(gate));
    free(host);
}

/* Transfers and fills large enough for the CPU device to cut into parts that
 * several workers run (cpu_memory.c): every byte where it belongs, at
 * offsets that are not multiples of the parts' 4 KiB alignment, blocking
 * and not, and a rectangle copy (not cut) beside them. */
TEST(large_transfers_in_parts)
{
    enum { SIZE = 40 << 20 };
    unsigned char *host = malloc(SIZE), *got = malloc(SIZE);
    CHECK(host && got);
    if (!host || !got)
        return;
    for (size_t i = 0; i < SIZE; i++)
        host[i] = (unsigned char)(i * 7 + (i >> 12) * 13 + (i >> 20));
    cl_mem a = buffer(CL_MEM_COPY_HOST_PTR, SIZE, host), b = buffer(0, SIZE, NULL);
    /* a copy from offset 12345 to 777 of SIZE - 20000 bytes */
    const size_t so = 12345, dof = 777, n = SIZE - 20000;
    OK(clEnqueueFillBuffer(queue, b, (unsigned char[]){0xa5}, 1, 0, SIZE, 0, NULL, NULL));
    OK(clEnqueueCopyBuffer(queue, a, b, so, dof, n, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, SIZE, got, 0, NULL, NULL));
    size_t bad = 0, first = SIZE;
    for (size_t i = 0; i < SIZE; i++) {
        unsigned char want = i >= dof && i < dof + n ? host[i - dof + so] : 0xa5;
        if (got[i] != want && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "copy: %zu wrong bytes, the first at %zu", bad, first);
    /* a blocking write and read at odd offsets */
    OK(clEnqueueWriteBuffer(queue, b, CL_TRUE, 3, SIZE - 9, host + 1, 0, NULL, NULL));
    memset(got, 0, SIZE);
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 5, SIZE - 11, got + 2, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 2; i < SIZE - 9; i++)
        if (got[i] != host[i + 1] && bad++ == 0)
            first = i;
    CHECK(bad == 0, "write and read: %zu wrong bytes, the first at %zu", bad, first);
    /* a 16-byte pattern from offset 48 */
    unsigned char pattern[16];
    for (int i = 0; i < 16; i++)
        pattern[i] = (unsigned char)(0x30 + i);
    const size_t fo = 48, fn = SIZE - 4096;
    OK(clEnqueueFillBuffer(queue, a, pattern, sizeof pattern, fo, fn, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, SIZE, got, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < SIZE; i++) {
        unsigned char want = i >= fo && i < fo + fn ? pattern[(i - fo) % 16] : host[i];
        if (got[i] != want && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "fill: %zu wrong bytes, the first at %zu", bad, first);
    /* a rectangle: rows of 4000 of every 4096 bytes */
    size_t origin[3] = {0, 0, 0}, region[3] = {4000, SIZE / 4096, 1};
    OK(clEnqueueCopyBufferRect(queue, b, a, origin, origin, region, 4096, 0, 4096, 0, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, SIZE, got, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < SIZE; i++) {
        unsigned char want = i % 4096 < 4000 ? (i >= 3 && i < SIZE - 6 ? host[i - 2] : 0xa5)
                                             : (i >= fo && i < fo + fn ? pattern[(i - fo) % 16] : host[i]);
        if (got[i] != want && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "rectangle: %zu wrong bytes, the first at %zu", bad, first);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(host);
    free(got);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, source, "", &device, &context, &queue, &program);
}
