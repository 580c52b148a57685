/*
 * Rows of a group in one body (src/compiler/vectorize/row_coarsening.c):
 * a kernel widened whole whose rows share a load in a loop runs 8 (or 4)
 * rows of its group in one body, while that many rows of the group are
 * left.  Matrix products of small integers (exact in float whatever the
 * order) against plain C, in the groups the device picks, in groups the
 * application gives (rows that leave a remainder, rows fewer than 8), with
 * rows whose width is no multiple of the vectors' (the rest of each row),
 * and in 3D.
 */
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_row_coarsening.list"
#include "test.h"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    /* C = A B, A m x k, B k x n: the rows share B's reads */
    "kernel void mm(global const float *a, global const float *b, global float *c, int n, int k)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < k; i++)\n"
    "        s += a[row * k + i] * b[i * n + col];\n"
    "    c[row * n + col] = s;\n"
    "}\n"
    /* the same through local ids (the application's groups stay), a matrix per z */
    "kernel void mm_local(global const float *a, global const float *b, global float *c, int n, int k)\n"
    "{\n"
    "    int col = get_group_id(0) * get_local_size(0) + get_local_id(0);\n"
    "    int row = get_group_id(1) * get_local_size(1) + get_local_id(1);\n"
    "    int m = get_global_size(1), z = get_global_id(2);\n"
    "    a += z * m * k, b += z * k * n, c += z * m * n;\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < k; i++)\n"
    "        s += a[row * k + i] * b[i * n + col];\n"
    "    c[row * n + col] = s + 0.5f * get_local_id(1);\n"
    "}\n"
    /* a guard on the row and the column: rows at once where they all pass the row's part, else one by one */
    "kernel void mm_guarded(global const float *a, global const float *b, global float *c, int n, int k, int m)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    if (row >= m || col >= n)\n"
    "        return;\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < k; i++)\n"
    "        s += a[row * k + i] * b[i * n + col];\n"
    "    c[row * n + col] = s;\n"
    "}\n"
    /* rows that go different ways on what they read: one row at a time */
    "kernel void mm_skips(global const float *a, global const float *b, global float *c, int n, int k)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    if (a[row * k] > 3.0f)\n"
    "        return;\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < k; i++)\n"
    "        s += a[row * k + i] * b[i * n + col];\n"
    "    c[row * n + col] = s;\n"
    "}\n";

static cl_program program;

static cl_kernel kernel(const char *name) { return test_kernel_of(&program, context, device, source, name); }

static float value(size_t i, unsigned seed) { return (float)((int)((i * 2654435761u + seed * 40503u) >> 13) % 9 - 4); }

/* Runs `name` on z products of (m x k) (k x n) matrices over global (n, m, z)
 * in groups of local (NULL: the device's), against plain C; offset: what
 * the kernel adds to each element of C per local y (mm_local); rows of C
 * the kernel must leave alone (mm_guarded: from `guard`, mm_skips: where
 * A's row starts above 3) keep what was there. */
static void product(const char *name, int m, int n, int k, int z, const size_t *local, float per_local_y)
{
    const float untouched = -77.0f;
    int guard = !strcmp(name, "mm_guarded") ? m - m / 3 : m;
    bool skips = !strcmp(name, "mm_skips");
    cl_kernel kn = kernel(name);
    if (!kn)
        return;
    size_t sa = (size_t)z * m * k, sb = (size_t)z * k * n, sc = (size_t)z * m * n;
    float *a = malloc(sa * sizeof *a), *b = malloc(sb * sizeof *b), *c = malloc(sc * sizeof *c);
    if (!a || !b || !c) {
        TEST_FAIL("out of memory");
        free(a), free(b), free(c);
        clReleaseKernel(kn);
        return;
    }
    for (size_t i = 0; i < sa; i++)
        a[i] = value(i, 1);
    for (size_t i = 0; i < sb; i++)
        b[i] = value(i, 2);
    cl_int err;
    cl_mem ba = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sa * sizeof *a, a, &err);
    cl_mem bb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sb * sizeof *b, b, &err);
    for (size_t i = 0; i < sc; i++)
        c[i] = untouched;
    cl_mem bc = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sc * sizeof *c, c, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clSetKernelArg(kn, 0, sizeof ba, &ba);
    clSetKernelArg(kn, 1, sizeof bb, &bb);
    clSetKernelArg(kn, 2, sizeof bc, &bc);
    clSetKernelArg(kn, 3, sizeof n, &n);
    clSetKernelArg(kn, 4, sizeof k, &k);
    if (!strcmp(name, "mm_guarded"))
        clSetKernelArg(kn, 5, sizeof guard, &guard);
    size_t global[3] = {(size_t)n, (size_t)m, (size_t)z};
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kn, z > 1 ? 3 : 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, bc, CL_TRUE, 0, sc * sizeof *c, c, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int p = 0; p < z; p++)
        for (int r = 0; r < m; r++)
            for (int col = 0; col < n; col++) {
                float s = 0;
                for (int i = 0; i < k; i++)
                    s += a[(size_t)p * m * k + (size_t)r * k + i] * b[(size_t)p * k * n + (size_t)i * n + col];
                s += per_local_y * (float)(local ? (size_t)r % local[1] : 0);
                if (r >= guard || (skips && a[(size_t)r * k] > 3.0f))
                    s = untouched;
                float got = c[(size_t)p * m * n + (size_t)r * n + col];
                if (got != s && wrong++ < 4)
                    TEST_FAIL("%s %dx%dx%d (z %d): c[%d][%d] is %g, not %g", name, m, n, k, z, r, col, got, s);
            }
    CHECK(!wrong, "%s %dx%dx%d: %d elements wrong", name, m, n, k, wrong);
    clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
    clReleaseKernel(kn);
    free(a), free(b), free(c);
}

TEST(device_groups)
{
    /* square, rows no multiple of 8, narrow rows (the rest of a row only),
     * rows no multiple of the vectors, fewer rows than 8 */
    static const int sizes[][3] = {{64, 64, 64}, {40, 96, 17}, {24, 20, 33}, {100, 37, 5}, {3, 128, 9}, {9, 48, 1}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        product("mm", sizes[s][0], sizes[s][1], sizes[s][2], 1, NULL, 0);
        product("mm_guarded", sizes[s][0], sizes[s][1], sizes[s][2], 1, NULL, 0);
        product("mm_skips", sizes[s][0], sizes[s][1], sizes[s][2], 1, NULL, 0);
    }
}

TEST(application_groups)
{
    /* 16 rows (two steps of 8), 12 (8 and 4 one by one), 3 (one by one), 1 */
    static const size_t locals[][2] = {{16, 16}, {8, 12}, {32, 3}, {64, 1}, {4, 8}};
    for (size_t l = 0; l < sizeof locals / sizeof locals[0]; l++) {
        size_t local[3] = {locals[l][0], locals[l][1], 1};
        product("mm_local", (int)local[1] * 4, (int)local[0] * 3, 21, 1, local, 0.5f);
    }
}

TEST(three_dimensions)
{
    size_t local[3] = {16, 8, 1};
    product("mm_local", 32, 48, 12, 3, local, 0.5f);
    size_t deep[3] = {8, 8, 2};
    product("mm_local", 16, 16, 7, 4, deep, 0.5f);
}

TEST(says)
{
    test_stderr_capture cap;
    if (!test_capture_stderr(&cap))
        return;
    cl_kernel k = kernel("mm");
    char text[16384];
    test_captured_stderr(&cap, text, sizeof text);
    CHECK(strstr(text, "mosaic: kernel mm.wi: 8 rows at once") || strstr(text, "mosaic: kernel mm.wi: 4 rows at once"),
          "it says:\n%s", text);
    CHECK(strstr(text, "mosaic: kernel mm_guarded.wi: 8 rows at once") ||
              strstr(text, "mosaic: kernel mm_guarded.wi: 4 rows at once"),
          "it says:\n%s", text);
    CHECK(strstr(text, "mosaic: kernel mm_skips.wi: rows not run together: rows that may take different ways"),
          "it says:\n%s", text);
    if (k)
        clReleaseKernel(k);
    product("mm", 64, 64, 16, 1, NULL, 0);
}

int main(int argc, char **argv)
{
    int r = test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
    if (program)
        clReleaseProgram(program);
    return r;
}
