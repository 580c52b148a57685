/*
 * Single-precision matrix multiply C = A B of n x n row-major matrices:
 * variant 0 is the naive kernel (one work-item per element of C, its k-loop
 * reading A and B from global memory), variant 1 the classic 16x16 tiled
 * kernel (each work-group stages a tile of A and of B in __local memory,
 * two barriers per step of k), variant 2 the same with 8x8 tiles (half a
 * vector of floats per row, four times the groups), variant 3 register
 * tiled in the shape of CLBlast's XgemmDirectTN (8x8 groups of 4x4 values
 * a work-item over 32x32 tiles, read as float4, A's tile transposed in
 * __local memory, the k loop unrolled by two, two barriers per step).
 * The twin is the loop a C programmer writes:
 * rows over the threads, i-k-j order so the inner loop runs along rows of B
 * and C and vectorises.  2 n^3 flops per run.
 */
#include "runner.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static const char *source =
    "__kernel void sgemm_naive(__global const float *a, __global const float *b, __global float *c, int n)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float s = 0.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        s += a[row * n + k] * b[k * n + col];\n"
    "    c[row * n + col] = s;\n"
    "}\n"
    "\n"
    "#define SGEMM_TILED(name, T)                                                              \\\n"
    "__kernel void name(__global const float *a, __global const float *b, __global float *c, int n) \\\n"
    "{                                                                                         \\\n"
    "    __local float ta[T][T], tb[T][T];                                                     \\\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);                                       \\\n"
    "    int col = get_global_id(0), row = get_global_id(1);                                   \\\n"
    "    float s = 0.0f;                                                                       \\\n"
    "    for (int t = 0; t < n; t += T) {                                                      \\\n"
    "        ta[ly][lx] = a[row * n + t + lx];                                                 \\\n"
    "        tb[ly][lx] = b[(t + ly) * n + col];                                               \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                     \\\n"
    "        for (int k = 0; k < T; k++)                                                       \\\n"
    "            s += ta[ly][k] * tb[k][lx];                                                   \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                     \\\n"
    "    }                                                                                     \\\n"
    "    c[row * n + col] = s;                                                                 \\\n"
    "}\n"
    "SGEMM_TILED(sgemm_tiled, 16)\n"
    "SGEMM_TILED(sgemm_tiled8, 8)\n"
    "\n"
    "/* 32x32 of C a group of 8x8, 4x4 a work-item: rows lx*4.. of the tile, columns ly*4.. */\n"
    "__kernel void sgemm_regtile(__global const float4 *a, __global const float4 *b, __global float *c, int n)\n"
    "{\n"
    "    __local float at[32][33], bt[32][33]; /* at[i][k]: read along k by each work-item's rows */\n"
    "    int lx = get_local_id(0), ly = get_local_id(1), q = n / 4;\n"
    "    int i0 = get_group_id(0) * 32, j0 = get_group_id(1) * 32;\n"
    "    float acc[4][4];\n"
    "    #pragma unroll\n"
    "    for (int x = 0; x < 4; x++)\n"
    "        #pragma unroll\n"
    "        for (int y = 0; y < 4; y++)\n"
    "            acc[x][y] = 0.0f;\n"
    "    for (int t = 0; t < n; t += 32) {\n"
    "        #pragma unroll\n"
    "        for (int r = 0; r < 4; r++) {\n"
    "            int row = ly * 4 + r;\n"
    "            float4 va = a[(i0 + row) * q + t / 4 + lx], vb = b[(t + row) * q + j0 / 4 + lx];\n"
    "            at[row][lx * 4 + 0] = va.x; at[row][lx * 4 + 1] = va.y;\n"
    "            at[row][lx * 4 + 2] = va.z; at[row][lx * 4 + 3] = va.w;\n"
    "            bt[row][lx * 4 + 0] = vb.x; bt[row][lx * 4 + 1] = vb.y;\n"
    "            bt[row][lx * 4 + 2] = vb.z; bt[row][lx * 4 + 3] = vb.w;\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < 32; k += 2) {\n"
    "            #pragma unroll\n"
    "            for (int p = 0; p < 2; p++) {\n"
    "                float ap[4], bp[4];\n"
    "                #pragma unroll\n"
    "                for (int x = 0; x < 4; x++) {\n"
    "                    ap[x] = at[lx * 4 + x][k + p];\n"
    "                    bp[x] = bt[k + p][ly * 4 + x];\n"
    "                }\n"
    "                #pragma unroll\n"
    "                for (int y = 0; y < 4; y++)\n"
    "                    #pragma unroll\n"
    "                    for (int x = 0; x < 4; x++)\n"
    "                        acc[x][y] += ap[x] * bp[y];\n"
    "            }\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    #pragma unroll\n"
    "    for (int x = 0; x < 4; x++)\n"
    "        #pragma unroll\n"
    "        for (int y = 0; y < 4; y++)\n"
    "            c[(i0 + lx * 4 + x) * n + j0 + ly * 4 + y] = acc[x][y];\n"
    "}\n";

/* variant: the kernel, the side of its work-groups (0: none given) and of
 * each work-item's block of C */
static const char *const kernel_names[] = {"sgemm_naive", "sgemm_tiled", "sgemm_tiled8", "sgemm_regtile"};
static const size_t group_sides[] = {0, 16, 8, 8};
static const size_t item_sides[] = {1, 1, 1, 4};

typedef struct sgemm_host {
    int n;
    float *a, *b, *c, *ref, *tol;
} sgemm_host;

static int setup(bench_ctx *b)
{
    sgemm_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    int n = h->n = BY_SIZE(b, 64, 256, 1024);
    size_t bytes = (size_t)n * n * sizeof(float);
    if (!(h->a = bench_alloc(b, bytes)) || !(h->b = bench_alloc(b, bytes)) || !(h->c = bench_alloc(b, bytes)) ||
        !(h->ref = bench_alloc(b, bytes)) || !(h->tol = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(h->a, (size_t)n * n, 3, -1.0f, 1.0f);
    bench_fill_uniform(h->b, (size_t)n * n, 4, -1.0f, 1.0f);
    /* The reference in double; the tolerance of each element is the bound
     * on a float sum's rounding error, n eps sum |a_ik b_kj|. */
#pragma omp parallel
    {
        double *row = malloc(2 * (size_t)n * sizeof(double)), *mag = row + n;
#pragma omp for schedule(static)
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++)
                row[j] = mag[j] = 0;
            for (int k = 0; k < n; k++) {
                double aik = h->a[(size_t)i * n + k];
                const float *bk = h->b + (size_t)k * n;
                for (int j = 0; j < n; j++) {
                    row[j] += aik * bk[j];
                    mag[j] += fabs(aik * bk[j]);
                }
            }
            for (int j = 0; j < n; j++) {
                h->ref[(size_t)i * n + j] = (float)row[j];
                h->tol[(size_t)i * n + j] = (float)(n * FLT_EPSILON * mag[j]) + 1e-6f;
            }
        }
        free(row);
    }
    b->flops = 2.0 * n * n * (double)n;
    b->bytes = 3.0 * (double)bytes;
    return 0;
}

static void teardown(bench_ctx *b)
{
    sgemm_host *h = b->host;
    if (!h)
        return;
    free(h->a);
    free(h->b);
    free(h->c);
    free(h->ref);
    free(h->tol);
    free(h);
}

static int twin(bench_ctx *b)
{
    sgemm_host *h = b->host;
    const int n = h->n;
    const float *restrict a = h->a, *restrict bm = h->b;
    float *restrict c = h->c;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        float *restrict ci = c + (size_t)i * n;
        for (int j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            float aik = a[(size_t)i * n + k];
            const float *restrict bk = bm + (size_t)k * n;
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
    return 0;
}

static int check(bench_ctx *b, const float *c)
{
    sgemm_host *h = b->host;
    size_t nn = (size_t)h->n * h->n;
    for (size_t i = 0; i < nn; i++)
        if (!(fabsf(c[i] - h->ref[i]) <= h->tol[i]))
            return bench_fail(b, "c[%zu][%zu] is %.7g, expected %.7g", i / h->n, i % h->n, c[i], h->ref[i]);
    return 0;
}

static int twin_check(bench_ctx *b) { return check(b, ((sgemm_host *)b->host)->c); }

static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    sgemm_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = (size_t)h->n * h->n * sizeof(float);
    size_t side = group_sides[b->variant];
    if ((side && bench_needs_group(b, p, side * side)) ||
        !(s->k[0] = bench_kernel(b, p, source, kernel_names[b->variant])) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->a)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->b)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]), ARG(h->n));
}

static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t n = (size_t)((sgemm_host *)b->host)->n, side = group_sides[b->variant];
    size_t global[2] = { n / item_sides[b->variant], n / item_sides[b->variant] }, local[2] = { side, side };
    if (bench_launch(b, p, s->k[0], 2, global, side ? local : NULL))
        return -1;
    return bench_finish(b, p);
}

static int cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    sgemm_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], (size_t)h->n * h->n * sizeof(float), h->c))
        return -1;
    return check(b, h->c);
}

const bench_ops sgemm_ops = {
    .setup = setup,
    .teardown = teardown,
    .twin = twin,
    .twin_check = twin_check,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = cl_check,
    .cl_release = bench_simple_release,
};
