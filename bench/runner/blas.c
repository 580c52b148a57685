/*
 * The host side every GEMM row shares: inputs, the double-precision
 * reference and its tolerance, the C + OpenMP twin, the check, and
 * OpenBLAS's SGEMM, the optimised CPU BLAS the rows are judged against.
 *
 * OpenBLAS is found by CMake (Debian: libopenblas-dev) and compiled in with
 * BENCH_OPENBLAS; without it the runner runs every row without the OpenBLAS
 * line and says so in its header.  It runs on the runner's thread count
 * (--threads; every core by default), as the twins and Mosaic do.
 */
#include "runner.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef BENCH_OPENBLAS
#include <cblas.h>
#endif

/* ---- OpenBLAS ------------------------------------------------------------ */

#ifdef BENCH_OPENBLAS
int blas_present(void) { return 1; }

void blas_set_threads(int threads) { openblas_set_num_threads(threads); }

/* 0: OpenBLAS built sequential (it runs on the calling thread). */
int blas_threads(void) { return openblas_get_parallel() ? openblas_get_num_threads() : 1; }

void blas_describe(char *out, size_t len)
{
    int parallel = openblas_get_parallel();
    snprintf(out, len, "%s; %s, %d thread%s", openblas_get_config(),
             parallel == 0 ? "sequential" : parallel == 1 ? "pthreads" : "OpenMP", blas_threads(),
             blas_threads() == 1 ? "" : "s");
}

int blas_sgemm(bench_ctx *b, const gemm_shape *s, const float *a, const float *bm, float *c)
{
    (void)b;
    cblas_sgemm(CblasRowMajor, s->a_trans ? CblasTrans : CblasNoTrans, s->b_trans ? CblasTrans : CblasNoTrans, s->m,
                s->n, s->k, 1.0f, a, gemm_lda(s), bm, gemm_ldb(s), 0.0f, c, s->n);
    return 0;
}
#else
int blas_present(void) { return 0; }

void blas_set_threads(int threads) { (void)threads; }

int blas_threads(void) { return 0; }

void blas_describe(char *out, size_t len)
{
    snprintf(out, len, "none: the runner was built without OpenBLAS (Debian: libopenblas-dev, then reconfigure)");
}

int blas_sgemm(bench_ctx *b, const gemm_shape *s, const float *a, const float *bm, float *c)
{
    (void)s, (void)a, (void)bm, (void)c;
    return bench_fail(b, "built without OpenBLAS");
}
#endif

/* ---- the reference and the twin ------------------------------------------ */

void gemm_reference(int m, int n, int k, const float *a, const float *b, float *ref, float *tol)
{
#pragma omp parallel
    {
        double *row = malloc(2 * (size_t)n * sizeof(double)), *mag = row + n;
#pragma omp for schedule(static)
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++)
                row[j] = mag[j] = 0;
            for (int p = 0; p < k; p++) {
                double aip = a[(size_t)i * k + p];
                const float *bp = b + (size_t)p * n;
                for (int j = 0; j < n; j++) {
                    row[j] += aip * bp[j];
                    mag[j] += fabs(aip * bp[j]);
                }
            }
            for (int j = 0; j < n; j++) {
                ref[(size_t)i * n + j] = (float)row[j];
                tol[(size_t)i * n + j] = (float)(k * FLT_EPSILON * mag[j]) + 1e-6f;
            }
        }
        free(row);
    }
}

/* rows x cols (row-major) into its transpose. */
static void transpose(const float *src, int rows, int cols, float *dst)
{
#pragma omp parallel for schedule(static)
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++)
            dst[(size_t)c * rows + r] = src[(size_t)r * cols + c];
}

int gemm_host_setup(bench_ctx *b, const gemm_shape *shape)
{
    gemm_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->shape = *shape;
    size_t m = (size_t)shape->m, n = (size_t)shape->n, k = (size_t)shape->k;
    if (!(h->a = bench_alloc(b, m * k * sizeof(float))) || !(h->b = bench_alloc(b, k * n * sizeof(float))) ||
        !(h->c = bench_alloc(b, m * n * sizeof(float))) || !(h->ref = bench_alloc(b, m * n * sizeof(float))) ||
        !(h->tol = bench_alloc(b, m * n * sizeof(float))))
        return -1;
    bench_fill_uniform(h->a, m * k, 3, -1.0f, 1.0f);
    bench_fill_uniform(h->b, k * n, 4, -1.0f, 1.0f);
    /* The reference reads op(A) and op(B) as stored row-major. */
    float *opa = h->a, *opb = h->b;
    if (shape->a_trans && !(opa = bench_alloc(b, m * k * sizeof(float))))
        return -1;
    if (shape->b_trans && !(opb = bench_alloc(b, k * n * sizeof(float)))) {
        if (opa != h->a)
            free(opa);
        return -1;
    }
    if (shape->a_trans)
        transpose(h->a, shape->k, shape->m, opa);
    if (shape->b_trans)
        transpose(h->b, shape->n, shape->k, opb);
    gemm_reference(shape->m, shape->n, shape->k, opa, opb, h->ref, h->tol);
    if (opa != h->a)
        free(opa);
    if (opb != h->b)
        free(opb);
    b->flops = 2.0 * (double)m * (double)n * (double)k;
    b->bytes = (double)(m * k + k * n + m * n) * sizeof(float);
    return 0;
}

void gemm_host_teardown(bench_ctx *b)
{
    gemm_host *h = b->host;
    if (!h)
        return;
    free(h->a);
    free(h->b);
    free(h->c);
    free(h->ref);
    free(h->tol);
    free(h);
}

/* The loop a C programmer writes: rows of C over the threads; with B as
 * stored (k x n) the i-k-j order, so the inner loop runs along rows of B
 * and C and vectorises; with B transposed (n x k) dot products along k. */
int gemm_host_twin(bench_ctx *b)
{
    gemm_host *h = b->host;
    const int m = h->shape.m, n = h->shape.n, k = h->shape.k, a_trans = h->shape.a_trans;
    const float *restrict a = h->a, *restrict bm = h->b;
    float *restrict c = h->c;
    if (!h->shape.b_trans) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < m; i++) {
            float *restrict ci = c + (size_t)i * n;
            for (int j = 0; j < n; j++)
                ci[j] = 0.0f;
            for (int p = 0; p < k; p++) {
                float aip = a_trans ? a[(size_t)p * m + i] : a[(size_t)i * k + p];
                const float *restrict bp = bm + (size_t)p * n;
#pragma omp simd
                for (int j = 0; j < n; j++)
                    ci[j] += aip * bp[j];
            }
        }
        return 0;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            const float *restrict bj = bm + (size_t)j * k;
            float s = 0.0f;
            if (a_trans) {
                for (int p = 0; p < k; p++)
                    s += a[(size_t)p * m + i] * bj[p];
            } else {
                const float *restrict ai = a + (size_t)i * k;
#pragma omp simd reduction(+ : s)
                for (int p = 0; p < k; p++)
                    s += ai[p] * bj[p];
            }
            c[(size_t)i * n + j] = s;
        }
    return 0;
}

int gemm_host_check(bench_ctx *b, const float *c)
{
    gemm_host *h = b->host;
    size_t mn = (size_t)h->shape.m * h->shape.n, n = (size_t)h->shape.n;
    for (size_t i = 0; i < mn; i++)
        if (!(fabsf(c[i] - h->ref[i]) <= h->tol[i]))
            return bench_fail(b, "c[%zu][%zu] is %.7g, expected %.7g", i / n, i % n, c[i], h->ref[i]);
    return 0;
}

int gemm_host_twin_check(bench_ctx *b) { return gemm_host_check(b, ((gemm_host *)b->host)->c); }

int gemm_host_blas(bench_ctx *b)
{
    gemm_host *h = b->host;
    return blas_sgemm(b, &h->shape, h->a, h->b, h->c);
}

int gemm_host_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    gemm_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], (size_t)h->shape.m * h->shape.n * sizeof(float), h->c))
        return -1;
    return gemm_host_check(b, h->c);
}
