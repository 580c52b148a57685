/*
 * Compute-bound kernels with loops and math of their own: Mandelbrot (a
 * while loop whose trip count differs per pixel; as an NDRange, and as
 * persistent threads that take pixels from a counter), all-pairs N-body
 * (float4 positions, rsqrt) and a mix of transcendental functions per
 * element.
 */
#include "runner.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static const char *source =
    "__kernel void mandelbrot(__global int *out, int width, int height, int max_iter)\n"
    "{\n"
    "    int px = get_global_id(0), py = get_global_id(1);\n"
    "    float cx = -2.0f + 2.5f * px / width, cy = -1.25f + 2.5f * py / height;\n"
    "    float zx = 0.0f, zy = 0.0f;\n"
    "    int n = 0;\n"
    "    while (n < max_iter && zx * zx + zy * zy < 4.0f) {\n"
    "        float t = zx * zx - zy * zy + cx;\n"
    "        zy = 2.0f * zx * zy + cy;\n"
    "        zx = t;\n"
    "        n++;\n"
    "    }\n"
    "    out[py * width + px] = n;\n"
    "}\n"
    "\n"
    /* persistent threads: as many work-items as the device runs at once,
     * each taking the next pixel until none is left (the pixels' costs
     * differ, the counter balances them) */
    "__kernel void mandelbrot_persistent(__global int *out, volatile __global int *next, int width, int height,\n"
    "                                    int max_iter)\n"
    "{\n"
    "    int pixels = width * height, i;\n"
    "    while ((i = atomic_inc(next)) < pixels) {\n"
    "        int px = i % width, py = i / width;\n"
    "        float cx = -2.0f + 2.5f * px / width, cy = -1.25f + 2.5f * py / height;\n"
    "        float zx = 0.0f, zy = 0.0f;\n"
    "        int n = 0;\n"
    "        while (n < max_iter && zx * zx + zy * zy < 4.0f) {\n"
    "            float t = zx * zx - zy * zy + cx;\n"
    "            zy = 2.0f * zx * zy + cy;\n"
    "            zx = t;\n"
    "            n++;\n"
    "        }\n"
    "        out[i] = n;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n, float eps2)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float4 p = pos[i];\n"
    "    float3 a = (float3)(0.0f);\n"
    "    for (int j = 0; j < n; j++) {\n"
    "        float4 q = pos[j];\n"
    "        float3 d = q.xyz - p.xyz;\n"
    "        float inv = rsqrt(dot(d, d) + eps2);\n"
    "        a += d * (q.w * inv * inv * inv);\n"
    "    }\n"
    "    acc[i] = (float4)(a, 0.0f);\n"
    "}\n"
    "\n"
    "__kernel void math_mix(__global const float *x, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float v = x[i];\n"
    "    y[i] = sin(v) * exp(-0.5f * v * v) + log(1.0f + v * v) + pow(fabs(v) + 0.5f, 1.5f);\n"
    "}\n";

/* ---- Mandelbrot ---------------------------------------------------------- */

/* 8 flops per iteration: zx*zx, zy*zy, their sum (the test), t (2), zy (3). */
typedef struct mandel_host {
    int width, height, max_iter;
    int *out, *ref;
} mandel_host;

static int mandel_pixel(int px, int py, int width, int height, int max_iter)
{
    float cx = -2.0f + 2.5f * (float)px / (float)width, cy = -1.25f + 2.5f * (float)py / (float)height;
    float zx = 0.0f, zy = 0.0f;
    int n = 0;
    while (n < max_iter && zx * zx + zy * zy < 4.0f) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        n++;
    }
    return n;
}

static int mandel_setup(bench_ctx *b)
{
    mandel_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->width = h->height = BY_SIZE(b, 128, 512, 2048);
    h->max_iter = 256;
    size_t bytes = (size_t)h->width * h->height * sizeof(int);
    if (!(h->out = bench_alloc(b, bytes)) || !(h->ref = bench_alloc(b, bytes)))
        return -1;
    double iterations = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : iterations)
    for (int py = 0; py < h->height; py++)
        for (int px = 0; px < h->width; px++) {
            int n = mandel_pixel(px, py, h->width, h->height, h->max_iter);
            h->ref[(size_t)py * h->width + px] = n;
            iterations += n;
        }
    b->flops = 8.0 * iterations;
    b->bytes = (double)bytes;
    return 0;
}

static void mandel_teardown(bench_ctx *b)
{
    mandel_host *h = b->host;
    if (!h)
        return;
    free(h->out);
    free(h->ref);
    free(h);
}

static int mandel_twin(bench_ctx *b)
{
    mandel_host *h = b->host;
#pragma omp parallel for schedule(dynamic, 1)
    for (int py = 0; py < h->height; py++)
        for (int px = 0; px < h->width; px++)
            h->out[(size_t)py * h->width + px] = mandel_pixel(px, py, h->width, h->height, h->max_iter);
    return 0;
}

/* Points near the set's boundary are chaotic: a multiply-add fused or not
 * changes their count.  A few such pixels may differ, not more. */
static int mandel_check_out(bench_ctx *b, const int *out)
{
    mandel_host *h = b->host;
    size_t pixels = (size_t)h->width * h->height, differ = 0, first = 0;
    for (size_t i = 0; i < pixels; i++) {
        if (out[i] < 0 || out[i] > h->max_iter)
            return bench_fail(b, "pixel (%zu, %zu) counts %d iterations, more than %d", i % h->width, i / h->width,
                              out[i], h->max_iter);
        if (out[i] != h->ref[i] && differ++ == 0)
            first = i;
    }
    if (differ * 100 > pixels)
        return bench_fail(b, "%zu of %zu pixels differ from the host's count, the first at (%zu, %zu): %d, expected %d",
                          differ, pixels, first % h->width, first / h->width, out[first], h->ref[first]);
    return 0;
}

static int mandel_twin_check(bench_ctx *b) { return mandel_check_out(b, ((mandel_host *)b->host)->out); }

/* The persistent row (variant 1): a group of PERSISTENT_GROUP work-items
 * per compute unit, the pixels' counter in m[1]. */
enum { PERSISTENT_GROUP = 64 };

static int mandel_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    mandel_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    const char *name = b->variant ? "mandelbrot_persistent" : "mandelbrot";
    if (!(s->k[0] = bench_kernel(b, p, source, name)) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, (size_t)h->width * h->height * sizeof(int), NULL)))
        return -1;
    if (!b->variant)
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(h->width), ARG(h->height), ARG(h->max_iter));
    if (bench_needs_group(b, p, PERSISTENT_GROUP) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_WRITE, sizeof(cl_int), NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(h->width), ARG(h->height), ARG(h->max_iter));
}

static int mandel_run(bench_ctx *b, bench_platform *p, void *dev)
{
    mandel_host *h = b->host;
    bench_simple *s = dev;
    if (b->variant) { /* the counter from 0, then one group per compute unit */
        cl_int zero = 0;
        cl_int err = clEnqueueFillBuffer(p->queue, s->m[1], &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return bench_fail(b, "clEnqueueFillBuffer: %s", bench_cl_error(err));
        size_t global = (size_t)p->compute_units * PERSISTENT_GROUP, local = PERSISTENT_GROUP;
        if (bench_launch(b, p, s->k[0], 1, &global, &local))
            return -1;
        return bench_finish(b, p);
    }
    size_t global[2] = { (size_t)h->width, (size_t)h->height };
    if (bench_launch(b, p, s->k[0], 2, global, NULL))
        return -1;
    return bench_finish(b, p);
}

static int mandel_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    mandel_host *h = b->host;
    bench_simple *s = dev;
    size_t bytes = (size_t)h->width * h->height * sizeof(int);
    if (b->variant) { /* a run of its own over pixels set to -1: each must be written */
        cl_int unset = -1;
        cl_int err = clEnqueueFillBuffer(p->queue, s->m[0], &unset, sizeof unset, 0, bytes, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return bench_fail(b, "clEnqueueFillBuffer: %s", bench_cl_error(err));
        cl_int next = 0;
        if (mandel_run(b, p, dev) || bench_read(b, p, s->m[1], sizeof next, &next))
            return -1;
        /* every work-item took one ticket past the last pixel */
        long want = (long)h->width * h->height + (long)p->compute_units * PERSISTENT_GROUP;
        if (next != want)
            return bench_fail(b, "the pixels' counter ends at %d, expected %ld", next, want);
    }
    if (bench_read(b, p, s->m[0], bytes, h->out))
        return -1;
    return mandel_check_out(b, h->out);
}

const bench_ops mandel_ops = {
    .setup = mandel_setup,
    .teardown = mandel_teardown,
    .twin = mandel_twin,
    .twin_check = mandel_twin_check,
    .cl_prepare = mandel_prepare,
    .cl_run = mandel_run,
    .cl_check = mandel_cl_check,
    .cl_release = bench_simple_release,
};

/* ---- N-body -------------------------------------------------------------- */

/* 20 flops per interaction, as N-body benchmarks usually count them. */
typedef struct body {
    float x, y, z, w; /* position and mass: a float4 */
} body;

typedef struct nbody_host {
    int n;
    float eps2;
    body *pos, *acc, *ref, *tol;
} nbody_host;

static int nbody_setup(bench_ctx *b)
{
    nbody_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    int n = h->n = BY_SIZE(b, 256, 2048, 16384);
    h->eps2 = 0.01f;
    size_t bytes = (size_t)n * sizeof(body);
    if (!(h->pos = bench_alloc(b, bytes)) || !(h->acc = bench_alloc(b, bytes)) || !(h->ref = bench_alloc(b, bytes)) ||
        !(h->tol = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(&h->pos[0].x, 4 * (size_t)n, 7, -1.0f, 1.0f);
    for (int i = 0; i < n; i++)
        h->pos[i].w = 0.5f + 0.25f * (h->pos[i].w + 1.0f); /* masses in [0.5, 1] */
    /* Reference in double; tolerance from the sum of the terms' magnitudes. */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double a[3] = { 0, 0, 0 }, mag = 0;
        for (int j = 0; j < n; j++) {
            double d[3] = { (double)h->pos[j].x - h->pos[i].x, (double)h->pos[j].y - h->pos[i].y,
                            (double)h->pos[j].z - h->pos[i].z };
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + h->eps2, inv = 1.0 / sqrt(r2);
            double s = h->pos[j].w * inv * inv * inv;
            for (int k = 0; k < 3; k++)
                a[k] += d[k] * s;
            mag += sqrt(r2) * s;
        }
        float tol = (float)((1e-5 + n * FLT_EPSILON) * mag) + 1e-6f;
        h->ref[i] = (body){ (float)a[0], (float)a[1], (float)a[2], 0.0f };
        h->tol[i] = (body){ tol, tol, tol, 0.0f };
    }
    b->flops = 20.0 * n * (double)n;
    b->bytes = 2.0 * (double)bytes;
    return 0;
}

static void nbody_teardown(bench_ctx *b)
{
    nbody_host *h = b->host;
    if (!h)
        return;
    free(h->pos);
    free(h->acc);
    free(h->ref);
    free(h->tol);
    free(h);
}

static int nbody_twin(bench_ctx *b)
{
    nbody_host *h = b->host;
    const body *restrict pos = h->pos;
    body *restrict acc = h->acc;
    const int n = h->n;
    const float eps2 = h->eps2;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        float px = pos[i].x, py = pos[i].y, pz = pos[i].z, ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
        for (int j = 0; j < n; j++) {
            float dx = pos[j].x - px, dy = pos[j].y - py, dz = pos[j].z - pz;
            float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + eps2);
            float s = pos[j].w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[i] = (body){ ax, ay, az, 0.0f };
    }
    return 0;
}

static int nbody_check_out(bench_ctx *b, const body *acc)
{
    nbody_host *h = b->host;
    for (int i = 0; i < h->n; i++) {
        const float *g = &acc[i].x, *r = &h->ref[i].x, *t = &h->tol[i].x;
        for (int k = 0; k < 3; k++)
            if (!(fabsf(g[k] - r[k]) <= t[k]))
                return bench_fail(b, "acceleration %d.%c is %.7g, expected %.7g", i, "xyz"[k], g[k], r[k]);
    }
    return 0;
}

static int nbody_twin_check(bench_ctx *b) { return nbody_check_out(b, ((nbody_host *)b->host)->acc); }

static int nbody_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    nbody_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = (size_t)h->n * sizeof(body);
    if (!(s->k[0] = bench_kernel(b, p, source, "nbody")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->pos)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(h->n), ARG(h->eps2));
}

static int nbody_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t global = (size_t)((nbody_host *)b->host)->n;
    if (bench_launch(b, p, s->k[0], 1, &global, NULL))
        return -1;
    return bench_finish(b, p);
}

static int nbody_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    nbody_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[1], (size_t)h->n * sizeof(body), h->acc))
        return -1;
    return nbody_check_out(b, h->acc);
}

const bench_ops nbody_ops = {
    .setup = nbody_setup,
    .teardown = nbody_teardown,
    .twin = nbody_twin,
    .twin_check = nbody_twin_check,
    .cl_prepare = nbody_prepare,
    .cl_run = nbody_run,
    .cl_check = nbody_cl_check,
    .cl_release = bench_simple_release,
};

/* ---- math mix ------------------------------------------------------------ */

/* No flop count: a sin or a pow is no fixed number of flops (no roof share). */
typedef struct math_host {
    size_t n;
    float *x, *y, *ref;
} math_host;

static int math_setup(bench_ctx *b)
{
    math_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->n = BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 22, (size_t)1 << 25);
    size_t bytes = h->n * sizeof(float);
    if (!(h->x = bench_alloc(b, bytes)) || !(h->y = bench_alloc(b, bytes)) || !(h->ref = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(h->x, h->n, 8, -2.0f, 2.0f);
    long n = (long)h->n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        double v = h->x[i];
        h->ref[i] = (float)(sin(v) * exp(-0.5 * v * v) + log(1.0 + v * v) + pow(fabs(v) + 0.5, 1.5));
    }
    b->bytes = 2.0 * (double)bytes;
    return 0;
}

static void math_teardown(bench_ctx *b)
{
    math_host *h = b->host;
    if (!h)
        return;
    free(h->x);
    free(h->y);
    free(h->ref);
    free(h);
}

static int math_twin(bench_ctx *b)
{
    math_host *h = b->host;
    const float *restrict x = h->x;
    float *restrict y = h->y;
    long n = (long)h->n;
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
        float v = x[i];
        y[i] = sinf(v) * expf(-0.5f * v * v) + logf(1.0f + v * v) + powf(fabsf(v) + 0.5f, 1.5f);
    }
    return 0;
}

/* OpenCL C allows sin 4 ulp, exp and log 3, pow 16: a few 1e-6 of the sum. */
static int math_check_out(bench_ctx *b, const float *y)
{
    math_host *h = b->host;
    return bench_check_floats(b, "y", y, h->ref, h->n, 1e-5f, 1e-5f);
}

static int math_twin_check(bench_ctx *b) { return math_check_out(b, ((math_host *)b->host)->y); }

static int math_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    math_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = h->n * sizeof(float);
    if (!(s->k[0] = bench_kernel(b, p, source, "math_mix")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->x)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]));
}

static int math_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t global = ((math_host *)b->host)->n;
    if (bench_launch(b, p, s->k[0], 1, &global, NULL))
        return -1;
    return bench_finish(b, p);
}

static int math_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    math_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[1], h->n * sizeof(float), h->y))
        return -1;
    return math_check_out(b, h->y);
}

const bench_ops math_ops = {
    .setup = math_setup,
    .teardown = math_teardown,
    .twin = math_twin,
    .twin_check = math_twin_check,
    .cl_prepare = math_prepare,
    .cl_run = math_run,
    .cl_check = math_cl_check,
    .cl_release = bench_simple_release,
};
