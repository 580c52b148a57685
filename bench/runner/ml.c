/*
 * Kernels in the shape machine-learning compilers generate for a CPU
 * OpenCL device: the shapes are constants of the source (a program per
 * shape), no __local memory, no barrier; each work-item computes a small
 * block of outputs in float4 accumulators, looping over the reduction
 * itself with the loop's body unrolled.
 *   - ml_matmul: C = A B, n x n row-major; 4 rows x 4 columns of C a
 *     work-item (four float4 accumulators), k in steps of 4 (a float4 of
 *     each of A's four rows, four rows of B).  Host side: blas.c's (the
 *     twin's i-k-j loop, OpenBLAS's SGEMM).
 *   - ml_conv2d: a 3x3 convolution, stride 1, zero padding 1, NCHW (batch
 *     1, 64 channels in and out, H x W), weights OIHW; 4 output channels x
 *     4 neighbouring pixels of a row a work-item.  Twin: the direct
 *     convolution in C, over (channel, row) pairs, its inner loop along the
 *     row.  OpenBLAS: the convolution as CPU frameworks compute it, im2col
 *     then one SGEMM (the weights, 64 x 576, times the columns, 576 x HW);
 *     the im2col is made once at setup and only OpenBLAS's SGEMM is timed,
 *     so the reference is the optimised library's speed on the same flops
 *     (timed, the im2col's OpenMP threads would still be spinning while
 *     OpenBLAS's start: two thread pools contending, the runner's cost).
 */
#include "runner.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { CHANNELS = 64, TAPS = 9 };

static int matmul_n(bench_size size) { return size == SIZE_TINY ? 64 : size == SIZE_QUICK ? 256 : 1024; }
static int conv_side(bench_size size) { return size == SIZE_TINY ? 16 : size == SIZE_QUICK ? 56 : 112; }

static const char *kernels =
    "__kernel void ml_matmul(__global const float *restrict A, __global const float *restrict B,\n"
    "                        __global float *restrict C)\n"
    "{\n"
    "    const int j4 = get_global_id(0), i = get_global_id(1) * 4;\n"
    "    float4 c0 = (float4)(0.0f), c1 = (float4)(0.0f), c2 = (float4)(0.0f), c3 = (float4)(0.0f);\n"
    "    for (int k = 0; k < MM_N; k += 4) {\n"
    "        const float4 a0 = vload4(0, A + (i + 0) * MM_N + k), a1 = vload4(0, A + (i + 1) * MM_N + k);\n"
    "        const float4 a2 = vload4(0, A + (i + 2) * MM_N + k), a3 = vload4(0, A + (i + 3) * MM_N + k);\n"
    "        const float4 b0 = vload4(j4, B + (k + 0) * MM_N), b1 = vload4(j4, B + (k + 1) * MM_N);\n"
    "        const float4 b2 = vload4(j4, B + (k + 2) * MM_N), b3 = vload4(j4, B + (k + 3) * MM_N);\n"
    "        c0 = c0 + a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;\n"
    "        c1 = c1 + a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;\n"
    "        c2 = c2 + a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;\n"
    "        c3 = c3 + a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;\n"
    "    }\n"
    "    vstore4(c0, j4, C + (i + 0) * MM_N);\n"
    "    vstore4(c1, j4, C + (i + 1) * MM_N);\n"
    "    vstore4(c2, j4, C + (i + 2) * MM_N);\n"
    "    vstore4(c3, j4, C + (i + 3) * MM_N);\n"
    "}\n"
    "\n"
    "/* out[o][y][x0..x0+3] for o in oc0..oc0+3 */\n"
    "__kernel void ml_conv2d(__global const float *restrict in, __global const float *restrict w,\n"
    "                        __global float *restrict out)\n"
    "{\n"
    "    const int x0 = get_global_id(0) * 4, y = get_global_id(1), oc0 = get_global_id(2) * 4;\n"
    "    float4 acc0 = (float4)(0.0f), acc1 = (float4)(0.0f), acc2 = (float4)(0.0f), acc3 = (float4)(0.0f);\n"
    "    for (int ic = 0; ic < CV_C; ic++) {\n"
    "        #pragma unroll\n"
    "        for (int ky = 0; ky < 3; ky++) {\n"
    "            const int yy = y + ky - 1;\n"
    "            if (yy < 0 || yy >= CV_H)\n"
    "                continue;\n"
    "            const __global float *row = in + (ic * CV_H + yy) * CV_W;\n"
    "            const float4 mid = vload4(0, row + x0);\n"
    "            const float left = x0 > 0 ? row[x0 - 1] : 0.0f, right = x0 + 4 < CV_W ? row[x0 + 4] : 0.0f;\n"
    "            const float4 l = (float4)(left, mid.xyz), r = (float4)(mid.yzw, right);\n"
    "            const __global float *wk = w + (oc0 * CV_C + ic) * 9 + ky * 3; /* + o * CV_C * 9 for o */\n"
    "            acc0 = acc0 + wk[0] * l + wk[1] * mid + wk[2] * r;\n"
    "            acc1 = acc1 + wk[CV_C * 9] * l + wk[CV_C * 9 + 1] * mid + wk[CV_C * 9 + 2] * r;\n"
    "            acc2 = acc2 + wk[2 * CV_C * 9] * l + wk[2 * CV_C * 9 + 1] * mid + wk[2 * CV_C * 9 + 2] * r;\n"
    "            acc3 = acc3 + wk[3 * CV_C * 9] * l + wk[3 * CV_C * 9 + 1] * mid + wk[3 * CV_C * 9 + 2] * r;\n"
    "        }\n"
    "    }\n"
    "    vstore4(acc0, 0, out + ((oc0 + 0) * CV_H + y) * CV_W + x0);\n"
    "    vstore4(acc1, 0, out + ((oc0 + 1) * CV_H + y) * CV_W + x0);\n"
    "    vstore4(acc2, 0, out + ((oc0 + 2) * CV_H + y) * CV_W + x0);\n"
    "    vstore4(acc3, 0, out + ((oc0 + 3) * CV_H + y) * CV_W + x0);\n"
    "}\n";

/* The program's text with this run's shapes as constants, made once: the
 * runner builds a program once per source text. */
static const char *source(bench_size size)
{
    static char text[8192];
    if (!text[0]) {
        int side = conv_side(size);
        snprintf(text, sizeof text, "#define MM_N %d\n#define CV_C %d\n#define CV_H %d\n#define CV_W %d\n%s",
                 matmul_n(size), CHANNELS, side, side, kernels);
    }
    return text;
}

/* ---- matmul ---------------------------------------------------------------- */

static int matmul_setup(bench_ctx *b)
{
    int n = matmul_n(b->size);
    return gemm_host_setup(b, &(gemm_shape){ n, n, n, 0, 0 });
}

static int matmul_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    gemm_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = (size_t)h->shape.n * h->shape.n * sizeof(float);
    if (!(s->k[0] = bench_kernel(b, p, source(b->size), "ml_matmul")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->a)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->b)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]));
}

/* Work-groups of 8 x 8, as a compiler's schedule fixes them. */
static int matmul_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t n = (size_t)((gemm_host *)b->host)->shape.n, global[2] = { n / 4, n / 4 }, local[2] = { 8, 8 };
    if (bench_launch(b, p, s->k[0], 2, global, local))
        return -1;
    return bench_finish(b, p);
}

static int matmul_check(bench_ctx *b, bench_platform *p, void *dev)
{
    gemm_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], (size_t)h->shape.n * h->shape.n * sizeof(float), h->c))
        return -1;
    return gemm_host_check(b, h->c);
}

const bench_ops ml_matmul_ops = {
    .setup = matmul_setup,
    .teardown = gemm_host_teardown,
    .twin = gemm_host_twin,
    .twin_check = gemm_host_twin_check,
    .cl_prepare = matmul_prepare,
    .cl_run = matmul_run,
    .cl_check = matmul_check,
    .cl_release = bench_simple_release,
    .blas = gemm_host_blas,
};

/* ---- conv2d ---------------------------------------------------------------- */

typedef struct conv_host {
    int side;                    /* H = W */
    float *in, *w, *out, *ref, *tol;
    float *cols;                 /* im2col's matrix, 576 x HW (OpenBLAS's way; NULL without OpenBLAS) */
} conv_host;

static void im2col(conv_host *h);

static int conv_setup(bench_ctx *b)
{
    conv_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    int side = h->side = conv_side(b->size);
    size_t plane = (size_t)side * side, maps = CHANNELS * plane, weights = (size_t)CHANNELS * CHANNELS * TAPS;
    if (!(h->in = bench_alloc(b, maps * sizeof(float))) || !(h->w = bench_alloc(b, weights * sizeof(float))) ||
        !(h->out = bench_alloc(b, maps * sizeof(float))) || !(h->ref = bench_alloc(b, maps * sizeof(float))) ||
        !(h->tol = bench_alloc(b, maps * sizeof(float))) ||
        (blas_present() && !(h->cols = bench_alloc(b, CHANNELS * TAPS * plane * sizeof(float)))))
        return -1;
    bench_fill_uniform(h->in, maps, 21, -1.0f, 1.0f);
    bench_fill_uniform(h->w, weights, 22, -1.0f, 1.0f);
    if (h->cols)
        im2col(h);
    /* The reference in double; the tolerance of each output is the bound on
     * a float sum's rounding, 576 eps sum |w x|. */
#pragma omp parallel for collapse(2) schedule(static)
    for (int o = 0; o < CHANNELS; o++)
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) {
                double s = 0, mag = 0;
                for (int c = 0; c < CHANNELS; c++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++) {
                            int yy = y + ky - 1, xx = x + kx - 1;
                            if (yy < 0 || yy >= side || xx < 0 || xx >= side)
                                continue;
                            double t = (double)h->w[((size_t)o * CHANNELS + c) * TAPS + ky * 3 + kx] *
                                       h->in[((size_t)c * side + yy) * side + xx];
                            s += t;
                            mag += fabs(t);
                        }
                size_t i = ((size_t)o * side + y) * side + x;
                h->ref[i] = (float)s;
                h->tol[i] = (float)(CHANNELS * TAPS * FLT_EPSILON * mag) + 1e-6f;
            }
    b->flops = 2.0 * CHANNELS * CHANNELS * TAPS * (double)plane;
    b->bytes = (2.0 * (double)maps + (double)weights) * sizeof(float);
    return 0;
}

static void conv_teardown(bench_ctx *b)
{
    conv_host *h = b->host;
    if (!h)
        return;
    free(h->in);
    free(h->w);
    free(h->out);
    free(h->ref);
    free(h->tol);
    free(h->cols);
    free(h);
}

/* The direct convolution a C programmer writes: each thread takes (output
 * channel, row) pairs; for each input channel and tap the row's interior
 * is one vectorised loop, its two edge pixels apart. */
static int conv_twin(bench_ctx *b)
{
    conv_host *h = b->host;
    const int side = h->side;
    const float *restrict in = h->in, *restrict w = h->w;
    float *restrict out = h->out;
#pragma omp parallel for collapse(2) schedule(static)
    for (int o = 0; o < CHANNELS; o++)
        for (int y = 0; y < side; y++) {
            float *restrict row = out + ((size_t)o * side + y) * side;
            for (int x = 0; x < side; x++)
                row[x] = 0.0f;
            for (int c = 0; c < CHANNELS; c++)
                for (int ky = 0; ky < 3; ky++) {
                    int yy = y + ky - 1;
                    if (yy < 0 || yy >= side)
                        continue;
                    const float *restrict src = in + ((size_t)c * side + yy) * side;
                    const float *wk = w + ((size_t)o * CHANNELS + c) * TAPS + ky * 3;
                    const float w0 = wk[0], w1 = wk[1], w2 = wk[2];
                    row[0] += w1 * src[0] + w2 * src[1];
#pragma omp simd
                    for (int x = 1; x < side - 1; x++)
                        row[x] += w0 * src[x - 1] + w1 * src[x] + w2 * src[x + 1];
                    row[side - 1] += w0 * src[side - 2] + w1 * src[side - 1];
                }
        }
    return 0;
}

static int conv_check_out(bench_ctx *b, const float *out)
{
    conv_host *h = b->host;
    size_t n = (size_t)CHANNELS * h->side * h->side;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(out[i] - h->ref[i]) <= h->tol[i]))
            return bench_fail(b, "out[%zu] is %.7g, expected %.7g", i, out[i], h->ref[i]);
    return 0;
}

static int conv_twin_check(bench_ctx *b) { return conv_check_out(b, ((conv_host *)b->host)->out); }

/* im2col: row (c, ky, kx) of `cols` holds input channel c shifted by the
 * tap, zero where the tap falls outside, so that out (64 x HW) = w (64 x
 * 576) cols (576 x HW). */
static void im2col(conv_host *h)
{
    const int side = h->side;
    const size_t plane = (size_t)side * side;
    const float *restrict in = h->in;
    float *restrict cols = h->cols;
#pragma omp parallel for collapse(2) schedule(static)
    for (int r = 0; r < CHANNELS * TAPS; r++)
        for (int y = 0; y < side; y++) {
            int c = r / TAPS, ky = r % TAPS / 3, kx = r % 3, yy = y + ky - 1;
            float *restrict dst = cols + (size_t)r * plane + (size_t)y * side;
            const float *restrict src = yy >= 0 && yy < side ? in + ((size_t)c * side + yy) * side : NULL;
            for (int x = 0; x < side; x++) {
                int xx = x + kx - 1;
                dst[x] = src && xx >= 0 && xx < side ? src[xx] : 0.0f;
            }
        }
}

static int conv_blas(bench_ctx *b)
{
    conv_host *h = b->host;
    gemm_shape shape = { CHANNELS, h->side * h->side, CHANNELS * TAPS, 0, 0 };
    return blas_sgemm(b, &shape, h->w, h->cols, h->out);
}

static int conv_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    conv_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t maps = (size_t)CHANNELS * h->side * h->side * sizeof(float);
    if (!(s->k[0] = bench_kernel(b, p, source(b->size), "ml_conv2d")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, maps, h->in)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, (size_t)CHANNELS * CHANNELS * TAPS * sizeof(float), h->w)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, maps, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]));
}

/* Work-groups of 2 x 8 x 4 (8 pixels, 8 rows, 16 channels): they divide
 * every size's grid (W/4 is 4, 14 or 28). */
static int conv_run(bench_ctx *b, bench_platform *p, void *dev)
{
    conv_host *h = b->host;
    bench_simple *s = dev;
    size_t global[3] = { (size_t)h->side / 4, (size_t)h->side, CHANNELS / 4 }, local[3] = { 2, 8, 4 };
    if (bench_launch(b, p, s->k[0], 3, global, local))
        return -1;
    return bench_finish(b, p);
}

static int conv_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    conv_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], (size_t)CHANNELS * h->side * h->side * sizeof(float), h->out))
        return -1;
    return conv_check_out(b, h->out);
}

const bench_ops ml_conv2d_ops = {
    .setup = conv_setup,
    .teardown = conv_teardown,
    .twin = conv_twin,
    .twin_check = conv_twin_check,
    .cl_prepare = conv_prepare,
    .cl_run = conv_run,
    .cl_check = conv_cl_check,
    .cl_release = bench_simple_release,
    .blas = conv_blas,
};
