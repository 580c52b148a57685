/*
 * Kernels that check their index against a bound (`if (i < n)`), through the
 * ICD loader.  The compiler runs a row of work-items without the check when
 * the check passes at the row's two ends and the index cannot wrap between
 * them (src/compiler/vectorize/bounds_check_versioning.c); here bounds fall inside rows, at their
 * ends and outside them, and indices wrap inside a row (global offsets near
 * 2^31 and 2^32), and every element written or left alone is checked.
 * Kernels that branch on their arguments and group get a version of each
 * row's loop per answer (src/compiler/vectorize/unswitch_uniform.c): here every answer of
 * each branch is taken, in a kernel with barriers and without, beside a
 * branch on the row (which stays a branch).
 *
 *   usage: test_guarded_rows [case|--list]   (the cases: test_guarded_rows.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_guarded_rows.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static cl_program program;

static const char source[] =
    "kernel void below(global int *out, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i] = (int)i * 3 + 1;\n"
    "}\n"
    "kernel void bound_first(global int *out, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (n > i)\n"
    "        out[i] += 1;\n"
    "    if (i <= (size_t)n + 2)\n"
    "        out[i] += 10;\n"
    "}\n"
    "kernel void early_return(global int *out, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    out[i] = i - 7;\n"
    "}\n"
    "kernel void wraps_unsigned(global uint *out, uint n, uint first)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i - first] = i;\n"
    "}\n"
    "kernel void wraps_signed(global int *out, int n, uint first)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[(uint)i - first] = i;\n"
    "}\n"
    "kernel void wraps_times_four(global uint *out, ulong n, uint first)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    size_t j = i * 4u;\n"
    "    if (j < n)\n"
    "        out[i - first] = 1;\n"
    "}\n"
    /* the scan's pattern: four elements a work-item, each checked, around a barrier */
    "kernel void four_each(global const uint *in, global uint *out, uint n, local uint *s)\n"
    "{\n"
    "    uint l = get_local_id(0);\n"
    "    size_t base = get_group_id(0) * get_enqueued_local_size(0) * 4 + l * 4;\n"
    "    uint t = 0;\n"
    "    for (int k = 0; k < 4; k++)\n"
    "        t += base + k < n ? in[base + k] : 0;\n"
    "    s[l] = t;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uint left = l ? s[l - 1] : 0;\n"
    "    for (int k = 0; k < 4; k++)\n"
    "        if (base + k < n)\n"
    "            out[base + k] = in[base + k] + left;\n"
    "}\n"
    /* quotients and remainders that are the same over rows inside one multiple */
    "kernel void flatten(global int *out, int w, uint first)\n"
    "{\n"
    "    int g = get_global_id(0);\n"
    "    out[(uint)g - first] = (g % w) * 10000 + g / w;\n"
    "}\n"
    "kernel void flatten_by_16(global uint *out, uint first)\n"
    "{\n"
    "    uint g = get_global_id(0);\n"
    "    out[g - first] = (g % 16) * 100000 + g / 16;\n"
    "}\n"
    "kernel void block_offsets(global uint *out, global const uint *offsets, uint n, uint per)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i] += offsets[i / per] + i % per;\n"
    "}\n"
    "kernel void two_dims(global int *out, int w, int h, int pitch)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x < w && y < h)\n"
    "        out[y * pitch + x] = x * 1000 + y;\n"
    "}\n"
    /* branches the same for a whole row: CLBlast's test for vector loads, a flag */
    "kernel void modes(global int *out, global const int *in, int ld, int off, int flip)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    int v;\n"
    "    if (ld % 4 == 0 && off % 4 == 0)\n"
    "        v = in[off + i] * 2;\n"
    "    else\n"
    "        v = in[off + 2 * i] + 5;\n"
    "    if (flip)\n"
    "        out[i] = -v;\n"
    "    else\n"
    "        out[2 * i + 1] = v;\n"
    "}\n"
    /* an index picked by a flag: a gather in one answer, a vector load in the other */
    "kernel void picks(global int *out, global const int *in, int ld, int off, int flip)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    int j = flip ? i * ld : i + off;\n"
    "    out[i] = in[j] - j;\n"
    "}\n"
    /* the same around barriers, a branch on the group, and one on the row */
    "kernel void tile_modes(global const int *a, global int *out, int ld, int off, int transpose)\n"
    "{\n"
    "    local int t[16 * 17];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1), gx = get_global_id(0), gy = get_global_id(1);\n"
    "    if (ld % 4 == 0 && off % 4 == 0)\n"
    "        t[ly * 17 + lx] = a[off + gy * ld + gx];\n"
    "    else\n"
    "        t[ly * 17 + lx] = a[off + gy * ld + gx] + 1000;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int v = transpose ? t[lx * 17 + ly] : t[ly * 17 + lx];\n"
    "    if (get_group_id(0) & 1)\n"
    "        v = -v;\n"
    "    if (ly & 1)\n"
    "        v += t[ly * 17] * 3;\n"
    "    out[gy * get_global_size(0) + gx] = v;\n"
    "}\n";

#define UNTOUCHED 0x5a5a5a5a

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_mem filled_buffer(size_t count)
{
    cl_int err, fill = UNTOUCHED;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, count * sizeof(cl_int), NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(queue, m, &fill, sizeof fill, 0, count * sizeof(cl_int), 0, NULL, NULL),
              CL_SUCCESS);
    return m;
}

/* Runs k (its arguments set) three times, so that its groups' size gets a
 * build of its own (MOSAIC_SPECIALISE_AFTER), over dims dimensions, and
 * reads count ints of out (filled with UNTOUCHED before each run). */
static void run(cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global, const size_t *local,
                cl_mem out, size_t count, cl_int *result)
{
    cl_int fill = UNTOUCHED;
    for (int launch = 0; launch < 3; launch++) {
        CHECK_ERR(clEnqueueFillBuffer(queue, out, &fill, sizeof fill, 0, count * sizeof(cl_int), 0, NULL, NULL),
                  CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0, NULL, NULL), CL_SUCCESS);
    }
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, count * sizeof(cl_int), result, 0, NULL, NULL),
              CL_SUCCESS);
}

/* How many of count elements differ from want; the first one reported. */
static int count_wrong(const char *what, const cl_int *got, const cl_int *want, size_t count)
{
    int bad = 0;
    for (size_t i = 0; i < count; i++)
        if (got[i] != want[i] && !bad++)
            CHECK(0, "%s: element %zu is %d, expected %d", what, i, got[i], want[i]);
    return bad;
}

enum { N = 1000 };

TEST(unsigned_index)
{
    cl_kernel below = kernel("below"), bound_first = kernel("bound_first");
    cl_mem out = filled_buffer(N);
    cl_int got[N], want[N];
    const size_t locals[] = {64, 16, 200, 1};
    const cl_uint bounds[] = {0, 1, 63, 64, 65, 500, 937, 997, 1000};
    for (unsigned s = 0; s < sizeof locals / sizeof *locals; s++)
        for (unsigned b = 0; b < sizeof bounds / sizeof *bounds; b++) {
            size_t global = N, local = locals[s];
            cl_uint n = bounds[b];
            char what[64];
            snprintf(what, sizeof what, "below, n %u, groups of %zu", n, local);
            CHECK_ERR(clSetKernelArg(below, 0, sizeof out, &out), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(below, 1, sizeof n, &n), CL_SUCCESS);
            run(below, 1, NULL, &global, &local, out, N, got);
            for (size_t i = 0; i < N; i++)
                want[i] = i < n ? (cl_int)i * 3 + 1 : UNTOUCHED;
            count_wrong(what, got, want, N);

            if (n + 3 > N)
                continue;
            snprintf(what, sizeof what, "bound_first, n %u, groups of %zu", n, local);
            CHECK_ERR(clSetKernelArg(bound_first, 0, sizeof out, &out), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(bound_first, 1, sizeof n, &n), CL_SUCCESS);
            run(bound_first, 1, NULL, &global, &local, out, N, got);
            for (size_t i = 0; i < N; i++)
                want[i] = UNTOUCHED + (i < n ? 1 : 0) + (i <= n + 2 ? 10 : 0);
            count_wrong(what, got, want, N);
        }
    clReleaseMemObject(out);
    clReleaseKernel(below);
    clReleaseKernel(bound_first);
}

TEST(signed_early_return)
{
    cl_kernel k = kernel("early_return");
    cl_mem out = filled_buffer(N);
    cl_int got[N], want[N];
    const cl_int bounds[] = {-5, 0, 31, 32, 33, 999, 1000, 5000};
    for (unsigned b = 0; b < sizeof bounds / sizeof *bounds; b++) {
        size_t global = N, local = 32;
        cl_int n = bounds[b];
        char what[64];
        snprintf(what, sizeof what, "early_return, n %d", n);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
        run(k, 1, NULL, &global, &local, out, N, got);
        for (int i = 0; i < N; i++)
            want[i] = i < n ? i - 7 : UNTOUCHED;
        count_wrong(what, got, want, N);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* 256 work-items from `offset`, groups of 64: the index wraps inside the
 * second group (rows of 64 whose ends both pass the check while work-items
 * between them do not). */
enum { WRAP_ITEMS = 256 };

/* What wraps_unsigned (kind 0), wraps_signed (1) and wraps_times_four (2)
 * write for work-item `offset + j` with bound n. */
static cl_int wrap_want(int kind, size_t offset, size_t j, long long n)
{
    cl_uint i = (cl_uint)(offset + j);
    switch (kind) {
    case 0: return i < (cl_uint)n ? (cl_int)i : UNTOUCHED;
    case 1: return (cl_int)i < (cl_int)n ? (cl_int)i : UNTOUCHED;
    default: return (cl_ulong)(cl_uint)(i * 4u) < (cl_ulong)n ? 1 : UNTOUCHED;
    }
}

TEST(index_wraps_in_row)
{
    static const struct {
        const char *kernel;
        size_t offset; /* where the index wraps: 2^32 - 96 + j at j = 96, the int 2^31 - 32 + j
                          at j = 32, (size_t)(i * 4u) of 2^30 - 32 + j at j = 32 */
        size_t n_size;
        long long bounds[3];
        int nbounds;
    } cases[] = {
        {"wraps_unsigned", ((size_t)1 << 32) - 96, sizeof(cl_uint), {UINT32_MAX - 9, 50, UINT32_MAX}, 3},
        {"wraps_signed", ((size_t)1 << 31) - 32, sizeof(cl_int), {INT32_MAX - 9, 5, INT32_MIN + 100}, 3},
        {"wraps_times_four", ((size_t)1 << 30) - 32, sizeof(cl_ulong), {((long long)1 << 32) - 40, 100}, 2},
    };
    cl_mem out = filled_buffer(WRAP_ITEMS);
    cl_int got[WRAP_ITEMS], want[WRAP_ITEMS];
    size_t global = WRAP_ITEMS, local = 64;
    for (int c = 0; c < 3; c++) {
        cl_kernel k = kernel(cases[c].kernel);
        size_t offset = cases[c].offset;
        cl_uint first = (cl_uint)offset;
        for (int b = 0; b < cases[c].nbounds; b++) {
            long long n = cases[c].bounds[b];
            cl_uint n32 = (cl_uint)n;
            cl_ulong n64 = (cl_ulong)n;
            CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(k, 1, cases[c].n_size, cases[c].n_size == 4 ? (void *)&n32 : (void *)&n64),
                      CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(k, 2, sizeof first, &first), CL_SUCCESS);
            run(k, 1, &offset, &global, &local, out, WRAP_ITEMS, got);
            for (size_t j = 0; j < WRAP_ITEMS; j++)
                want[j] = wrap_want(c, offset, j, n);
            char what[80];
            snprintf(what, sizeof what, "%s, n %lld", cases[c].kernel, n);
            count_wrong(what, got, want, WRAP_ITEMS);
        }
        clReleaseKernel(k);
    }
    clReleaseMemObject(out);
}

TEST(checks_in_a_loop)
{
    enum { ITEMS = 4 * N };
    cl_kernel k = kernel("four_each");
    static cl_uint in[ITEMS];
    static cl_int got[ITEMS], want[ITEMS];
    for (int i = 0; i < ITEMS; i++)
        in[i] = (cl_uint)(i % 17 + 1);
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = filled_buffer(ITEMS);
    const size_t locals[] = {64, 8};
    const cl_uint bounds[] = {0, 3, 255, 256, 257, 258, 2050, 3999, ITEMS};
    for (unsigned s = 0; s < sizeof locals / sizeof *locals; s++)
        for (unsigned b = 0; b < sizeof bounds / sizeof *bounds; b++) {
            size_t global = N, local = locals[s];
            cl_uint n = bounds[b];
            CHECK_ERR(clSetKernelArg(k, 0, sizeof src, &src), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(k, 3, local * sizeof(cl_uint), NULL), CL_SUCCESS);
            run(k, 1, NULL, &global, &local, out, ITEMS, got);
            for (size_t item = 0; item < N; item++) {
                size_t l = item % local, left_base = (item - 1) * 4;
                cl_uint left = 0;
                for (int j = 0; l && j < 4; j++)
                    left += left_base + j < n ? in[left_base + j] : 0;
                for (size_t j = item * 4; j < item * 4 + 4; j++)
                    want[j] = j < n ? (cl_int)(in[j] + left) : UNTOUCHED;
            }
            char what[64];
            snprintf(what, sizeof what, "four_each, n %u, groups of %zu", n, local);
            count_wrong(what, got, want, ITEMS);
        }
    clReleaseMemObject(src);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

TEST(two_dimensions)
{
    enum { W = 40, H = 24 };
    cl_kernel k = kernel("two_dims");
    cl_mem out = filled_buffer(W * H);
    cl_int got[W * H], want[W * H];
    const cl_int sizes[][2] = {{40, 24}, {33, 17}, {16, 8}, {1, 24}, {0, 5}};
    for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        cl_int w = sizes[s][0], h = sizes[s][1], pitch = W;
        size_t global[2] = {W, H}, local[2] = {16, 4};
        CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof w, &w), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof h, &h), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 3, sizeof pitch, &pitch), CL_SUCCESS);
        run(k, 2, NULL, global, local, out, W * H, got);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                want[y * W + x] = x < w && y < h ? x * 1000 + y : UNTOUCHED;
        char what[64];
        snprintf(what, sizeof what, "two_dims, %d x %d", w, h);
        count_wrong(what, got, want, W * H);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

TEST(quotients)
{
    enum { ITEMS = 512 };
    cl_kernel kf = kernel("flatten"), k16 = kernel("flatten_by_16"), kb = kernel("block_offsets");
    cl_mem out = filled_buffer(ITEMS);
    cl_int got[ITEMS], want[ITEMS];
    char what[80];
    /* from 0, and from 2^31 - 32: g turns negative in the second group */
    const size_t offsets[] = {0, ((size_t)1 << 31) - 32, 100000};
    const cl_int widths[] = {37, 64, 16, 1, 5000, 48};
    for (unsigned o = 0; o < sizeof offsets / sizeof *offsets; o++) {
        size_t global = ITEMS, local = 64, offset = offsets[o];
        cl_uint first = (cl_uint)offset;
        for (unsigned w = 0; w < sizeof widths / sizeof *widths; w++) {
            CHECK_ERR(clSetKernelArg(kf, 0, sizeof out, &out), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(kf, 1, sizeof widths[w], &widths[w]), CL_SUCCESS);
            CHECK_ERR(clSetKernelArg(kf, 2, sizeof first, &first), CL_SUCCESS);
            run(kf, 1, &offset, &global, &local, out, ITEMS, got);
            for (size_t j = 0; j < ITEMS; j++) {
                cl_int g = (cl_int)(cl_uint)(offset + j);
                want[j] = (cl_int)((cl_uint)(g % widths[w]) * 10000u + (cl_uint)(g / widths[w]));
            }
            snprintf(what, sizeof what, "flatten, width %d, offset %zu", widths[w], offset);
            count_wrong(what, got, want, ITEMS);
        }
        CHECK_ERR(clSetKernelArg(k16, 0, sizeof out, &out), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k16, 1, sizeof first, &first), CL_SUCCESS);
        run(k16, 1, &offset, &global, &local, out, ITEMS, got);
        for (size_t j = 0; j < ITEMS; j++) {
            cl_uint g = (cl_uint)(offset + j);
            want[j] = (cl_int)((g % 16) * 100000u + g / 16);
        }
        snprintf(what, sizeof what, "flatten_by_16, offset %zu", offset);
        count_wrong(what, got, want, ITEMS);
    }
    cl_uint offs[ITEMS];
    for (int i = 0; i < ITEMS; i++)
        offs[i] = (cl_uint)(i * 1000);
    cl_int err;
    cl_mem table = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof offs, offs, &err);
    CHECK_ERR(err, CL_SUCCESS);
    const cl_uint pers[] = {64, 100, 7, 1, 1024, 0};
    for (unsigned p = 0; p < sizeof pers / sizeof *pers; p++) {
        size_t global = ITEMS, local = 32;
        cl_uint n = pers[p] ? ITEMS - 3 : 0, per = pers[p];
        CHECK_ERR(clSetKernelArg(kb, 0, sizeof out, &out), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kb, 1, sizeof table, &table), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kb, 2, sizeof n, &n), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kb, 3, sizeof per, &per), CL_SUCCESS);
        run(kb, 1, NULL, &global, &local, out, ITEMS, got);
        for (cl_uint i = 0; i < ITEMS; i++)
            want[i] = i < n ? (cl_int)(UNTOUCHED + offs[i / per] + i % per) : UNTOUCHED;
        snprintf(what, sizeof what, "block_offsets, per %u", per);
        count_wrong(what, got, want, ITEMS);
    }
    clReleaseMemObject(table);
    clReleaseMemObject(out);
    clReleaseKernel(kf);
    clReleaseKernel(k16);
    clReleaseKernel(kb);
}

/* The arguments of modes and tile_modes: two buffers, then ld, off and a flag. */
static void set_mode_args(cl_kernel k, cl_mem first, cl_mem second, cl_int ld, cl_int off, cl_int flag)
{
    CHECK_ERR(clSetKernelArg(k, 0, sizeof first, &first), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof second, &second), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof ld, &ld), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof off, &off), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 4, sizeof flag, &flag), CL_SUCCESS);
}

/* 1000 work-items, in groups of 64, 16, 200 and 1, with every answer of
 * each uniform branch (modes) and select (picks); every element of out
 * checked, written or not. */
TEST(uniform_branches)
{
    enum { IN = 8 * N + 8, OUT = 2 * N + 2 };
    cl_kernel modes = kernel("modes"), picks = kernel("picks");
    static cl_int in[IN], got[OUT], want[OUT];
    for (int i = 0; i < IN; i++)
        in[i] = i * 7 - 300;
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = filled_buffer(OUT);
    const size_t locals[] = {64, 16, 200, 1};
    const cl_int lds[] = {8, 6}, offs[] = {0, 4, 3};
    for (unsigned s = 0; s < sizeof locals / sizeof *locals; s++)
        for (int mode = 0; mode < 12; mode++) {
            cl_int ld = lds[mode % 2], off = offs[mode / 2 % 3], flip = mode / 6;
            size_t global = N, local = locals[s];
            char what[80];
            set_mode_args(modes, out, src, ld, off, flip);
            run(modes, 1, NULL, &global, &local, out, OUT, got);
            for (int i = 0; i < OUT; i++)
                want[i] = UNTOUCHED;
            for (int i = 0; i < N; i++) {
                cl_int v = ld % 4 == 0 && off % 4 == 0 ? in[off + i] * 2 : in[off + 2 * i] + 5;
                want[flip ? i : 2 * i + 1] = flip ? -v : v;
            }
            snprintf(what, sizeof what, "modes, ld %d, off %d, flip %d, groups of %zu", ld, off, flip, local);
            count_wrong(what, got, want, OUT);

            set_mode_args(picks, out, src, ld, off, flip);
            run(picks, 1, NULL, &global, &local, out, OUT, got);
            for (int i = 0; i < N; i++) {
                int j = flip ? i * ld : i + off;
                want[i] = in[j] - j;
            }
            snprintf(what, sizeof what, "picks, ld %d, off %d, flip %d, groups of %zu", ld, off, flip, local);
            count_wrong(what, got, want, N);
        }
    clReleaseMemObject(src);
    clReleaseMemObject(out);
    clReleaseKernel(modes);
    clReleaseKernel(picks);
}

/* 48 x 32 work-items in square groups of 16 and 8 (and 4 x 4), each branch
 * both ways. */
TEST(uniform_branches_in_regions)
{
    enum { W = 48, H = 32, LD = 52, A = LD * H + 8 };
    cl_kernel k = kernel("tile_modes");
    static cl_int a[A], got[W * H], want[W * H];
    for (int i = 0; i < A; i++)
        a[i] = (i * 37) % 1001 - 500;
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem out = filled_buffer(W * H);
    const size_t sides[] = {16, 8, 4};
    const cl_int lds[] = {LD, LD - 1}, offs[] = {0, 4, 5};
    for (unsigned s = 0; s < sizeof sides / sizeof *sides; s++)
        for (int mode = 0; mode < 12; mode++) {
            cl_int ld = lds[mode % 2], off = offs[mode / 2 % 3], transpose = mode / 6;
            size_t global[2] = {W, H}, local[2] = {sides[s], sides[s]};
            set_mode_args(k, src, out, ld, off, transpose);
            run(k, 2, NULL, global, local, out, W * H, got);
            int side = (int)sides[s];
            for (int gy = 0; gy < H; gy++)
                for (int gx = 0; gx < W; gx++) {
                    int lx = gx % side, ly = gy % side, x0 = gx - lx, y0 = gy - ly;
                    /* what work-item (x, y) of this group put in its tile */
#define TILE(x, y) (a[off + (y0 + (y)) * ld + x0 + (x)] + (ld % 4 == 0 && off % 4 == 0 ? 0 : 1000))
                    cl_int v = transpose ? TILE(ly, lx) : TILE(lx, ly);
                    if (gx / side & 1)
                        v = -v;
                    if (ly & 1)
                        v += TILE(0, ly) * 3;
#undef TILE
                    want[gy * W + gx] = v;
                }
            char what[96];
            snprintf(what, sizeof what, "tile_modes, ld %d, off %d, transpose %d, groups of %d", ld, off, transpose,
                     side);
            count_wrong(what, got, want, W * H);
        }
    clReleaseMemObject(src);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, source, "-cl-std=CL2.0", &device, &context, &queue, &program);
}
