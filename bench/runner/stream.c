/*
 * STREAM's four kernels (McCalpin's memory bandwidth benchmark) on floats:
 * copy, scale, add, triad (variant 0 to 3).  Inputs a and b stay the same
 * from run to run, each run writes c, so every run is the same work.
 * Bytes per run as STREAM counts them: each array read or written once.
 */
#include "runner.h"

#include <stdlib.h>

static const char *source =
    "__kernel void copy(__global const float *a, __global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i]; }\n"
    "__kernel void scale(__global const float *a, __global float *c, float s)\n"
    "{ size_t i = get_global_id(0); c[i] = s * a[i]; }\n"
    "__kernel void add(__global const float *a, __global const float *b, __global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "__kernel void triad(__global const float *a, __global const float *b, __global float *c, float s)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + s * b[i]; }\n";

static const char *const names[4] = { "copy", "scale", "add", "triad" };

size_t stream_length(bench_size size)
{
    return size == SIZE_TINY ? (size_t)1 << 16 : size == SIZE_QUICK ? (size_t)1 << 23 : (size_t)1 << 25;
}

typedef struct stream_host {
    size_t n;
    float s;
    float *a, *b, *c, *ref;
} stream_host;

static int setup(bench_ctx *b)
{
    stream_host *h = calloc(1, sizeof *h);
    if (!h)
        return bench_fail(b, "out of host memory");
    b->host = h;
    h->n = stream_length(b->size);
    h->s = 3.0f;
    size_t bytes = h->n * sizeof(float);
    if (!(h->a = bench_alloc(b, bytes)) || !(h->b = bench_alloc(b, bytes)) || !(h->c = bench_alloc(b, bytes)) ||
        !(h->ref = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(h->a, h->n, 1, -1.0f, 1.0f);
    bench_fill_uniform(h->b, h->n, 2, -1.0f, 1.0f);
    for (size_t i = 0; i < h->n; i++) {
        double a = h->a[i], x = h->b[i];
        double r = b->variant == 0 ? a : b->variant == 1 ? h->s * a : b->variant == 2 ? a + x : a + h->s * x;
        h->ref[i] = (float)r;
    }
    b->bytes = (double)bytes * (b->variant < 2 ? 2 : 3);
    return 0;
}

static void teardown(bench_ctx *b)
{
    stream_host *h = b->host;
    if (!h)
        return;
    free(h->a);
    free(h->b);
    free(h->c);
    free(h->ref);
    free(h);
}

static int twin(bench_ctx *b)
{
    stream_host *h = b->host;
    float *restrict a = h->a, *restrict x = h->b, *restrict c = h->c, s = h->s;
    long n = (long)h->n;
    switch (b->variant) {
    case 0:
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i];
        break;
    case 1:
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = s * a[i];
        break;
    case 2:
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i] + x[i];
        break;
    default:
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i] + s * x[i];
        break;
    }
    return 0;
}

/* a + s*b may be one fused multiply-add or two roundings: both are right. */
static int check(bench_ctx *b, const float *c)
{
    stream_host *h = b->host;
    return bench_check_floats(b, "c", c, h->ref, h->n, 1e-7f, b->variant == 3 ? 1e-6f : 0.0f);
}

static int twin_check(bench_ctx *b) { return check(b, ((stream_host *)b->host)->c); }

static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    stream_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = h->n * sizeof(float);
    if (!(s->k[0] = bench_kernel(b, p, source, names[b->variant])) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->a)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->b)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    switch (b->variant) {
    case 0:
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[2]));
    case 1:
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[2]), ARG(h->s));
    case 2:
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]));
    default:
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]), ARG(h->s));
    }
}

static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t global = ((stream_host *)b->host)->n;
    if (bench_launch(b, p, s->k[0], 1, &global, NULL))
        return -1;
    return bench_finish(b, p);
}

static int cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    stream_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[2], h->n * sizeof(float), h->c))
        return -1;
    return check(b, h->c);
}

const bench_ops stream_ops = {
    .setup = setup,
    .teardown = teardown,
    .twin = twin,
    .twin_check = twin_check,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = cl_check,
    .cl_release = bench_simple_release,
};
