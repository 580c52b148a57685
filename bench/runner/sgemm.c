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
 * The host side (inputs, reference, the C + OpenMP twin's i-k-j loop,
 * OpenBLAS's SGEMM) is blas.c's.  2 n^3 flops per run.
 */
#include "runner.h"

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

static int setup(bench_ctx *b)
{
    int n = BY_SIZE(b, 64, 256, 1024);
    return gemm_host_setup(b, &(gemm_shape){ n, n, n, 0, 0 });
}

static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    gemm_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    int n = h->shape.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    size_t side = group_sides[b->variant];
    if ((side && bench_needs_group(b, p, side * side)) ||
        !(s->k[0] = bench_kernel(b, p, source, kernel_names[b->variant])) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->a)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->b)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]), ARG(n));
}

static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t n = (size_t)((gemm_host *)b->host)->shape.n, side = group_sides[b->variant];
    size_t global[2] = { n / item_sides[b->variant], n / item_sides[b->variant] }, local[2] = { side, side };
    if (bench_launch(b, p, s->k[0], 2, global, side ? local : NULL))
        return -1;
    return bench_finish(b, p);
}

const bench_ops sgemm_ops = {
    .setup = setup,
    .teardown = gemm_host_teardown,
    .twin = gemm_host_twin,
    .twin_check = gemm_host_twin_check,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = gemm_host_cl_check,
    .cl_release = bench_simple_release,
    .blas = gemm_host_blas,
};
