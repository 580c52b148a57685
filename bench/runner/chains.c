/*
 * A loop of dependent multiply-adds in every work-item: x = x*x + c,
 * ITERS times, on float, float4 or float16 (variant = the width).  Each
 * work-item's chain is sequential, so the speed comes from running many
 * work-items side by side in vector registers: the compute peak a device
 * offers OpenCL.  The same n floats in all three variants (n / width
 * work-items), so the twin is one loop for all three.  The kernel gets the
 * count as an argument; the twin has it as a constant, as C code with a
 * fixed count would (GCC vectorises its loop over i only when it can see
 * the inner loop runs at least once).
 *
 * x starts in [0, 0.3) and c is in [-0.7, 0.24]: there x*x + c converges
 * to its fixed point (1 - sqrt(1 - 4c)) / 2 without overflowing, and a
 * float result differs from the double reference by little more than the
 * last rounding.  2 flops per step.
 */
#include "runner.h"

#include <stdlib.h>

enum { ITERS = 2048 };

static const char *source =
    "#define CHAIN(name, T) \\\n"
    "__kernel void name(__global const T *x, __global const T *c, __global T *y, int iters) \\\n"
    "{ \\\n"
    "    size_t i = get_global_id(0); \\\n"
    "    T v = x[i], k = c[i]; \\\n"
    "    for (int n = 0; n < iters; n++) \\\n"
    "        v = v * v + k; \\\n"
    "    y[i] = v; \\\n"
    "}\n"
    "CHAIN(chain_float, float)\n"
    "CHAIN(chain_float4, float4)\n"
    "CHAIN(chain_float16, float16)\n";

typedef struct chains_host {
    size_t n;
    int iters;
    float *x, *c, *y, *ref;
} chains_host;

static int setup(bench_ctx *b)
{
    chains_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->n = BY_SIZE(b, (size_t)1 << 12, (size_t)1 << 16, (size_t)1 << 20);
    h->iters = ITERS;
    size_t bytes = h->n * sizeof(float);
    if (!(h->x = bench_alloc(b, bytes)) || !(h->c = bench_alloc(b, bytes)) || !(h->y = bench_alloc(b, bytes)) ||
        !(h->ref = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(h->x, h->n, 5, 0.0f, 0.3f);
    bench_fill_uniform(h->c, h->n, 6, -0.7f, 0.24f);
    long n = (long)h->n;
    int iters = h->iters;
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
        double v = h->x[i], k = h->c[i];
        for (int it = 0; it < iters; it++)
            v = v * v + k;
        h->ref[i] = (float)v;
    }
    b->flops = 2.0 * (double)h->n * h->iters;
    b->bytes = 3.0 * (double)bytes;
    return 0;
}

static void teardown(bench_ctx *b)
{
    chains_host *h = b->host;
    if (!h)
        return;
    free(h->x);
    free(h->c);
    free(h->y);
    free(h->ref);
    free(h);
}

static int twin(bench_ctx *b)
{
    chains_host *h = b->host;
    const float *restrict x = h->x, *restrict c = h->c;
    float *restrict y = h->y;
    long n = (long)h->n;
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
        float v = x[i], k = c[i];
        for (int it = 0; it < ITERS; it++)
            v = v * v + k;
        y[i] = v;
    }
    return 0;
}

static int check(bench_ctx *b, const float *y)
{
    chains_host *h = b->host;
    return bench_check_floats(b, "x", y, h->ref, h->n, 1e-4f, 0.0f);
}

static int twin_check(bench_ctx *b) { return check(b, ((chains_host *)b->host)->y); }

static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    chains_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    const char *name = b->variant == 1 ? "chain_float" : b->variant == 4 ? "chain_float4" : "chain_float16";
    size_t bytes = h->n * sizeof(float);
    if (!(s->k[0] = bench_kernel(b, p, source, name)) || !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->x)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->c)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]), ARG(h->iters));
}

static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t global = ((chains_host *)b->host)->n / (size_t)b->variant;
    if (bench_launch(b, p, s->k[0], 1, &global, NULL))
        return -1;
    return bench_finish(b, p);
}

static int cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    chains_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], h->n * sizeof(float), h->y))
        return -1;
    return check(b, h->y);
}

const bench_ops chains_ops = {
    .setup = setup,
    .teardown = teardown,
    .twin = twin,
    .twin_check = twin_check,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = cl_check,
    .cl_release = bench_simple_release,
};
