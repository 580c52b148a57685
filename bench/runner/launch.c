/*
 * The cost of a launch, where the kernels do (almost) nothing: the latency
 * of one empty kernel (enqueue, then wait for it), and the throughput of
 * many small kernels enqueued in a row with one wait at the end.  Times
 * are per operation (b->ops per run).  The twins are the OpenMP
 * equivalents: an empty parallel region (fork and join), and as many small
 * parallel loops.
 */
#include "runner.h"

#include <stdlib.h>

static const char *source = "__kernel void empty(void)\n"
                            "{\n"
                            "}\n"
                            "\n"
                            "__kernel void add_one(__global int *a)\n"
                            "{\n"
                            "    a[get_global_id(0)] += 1;\n"
                            "}\n";

/* ---- one empty kernel, enqueue and wait ----------------------------------- */

/* An empty kernel has no result: what is checked is that every call of the
 * run returned CL_SUCCESS (a failed run is a FAIL). */
static int empty_setup(bench_ctx *b)
{
    b->ops = BY_SIZE(b, 20, 100, 1000);
    return 0;
}

static void empty_teardown(bench_ctx *b) {}

static int empty_twin(bench_ctx *b)
{
    for (long k = 0; k < b->ops; k++) {
#pragma omp parallel
        __asm__ volatile("" ::: "memory");
    }
    return 0;
}

static int nothing_to_check(bench_ctx *b) { return 0; }

static int empty_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    return (s->k[0] = bench_kernel(b, p, source, "empty")) ? 0 : -1;
}

static int empty_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t one = 1;
    for (long k = 0; k < b->ops; k++)
        if (bench_launch(b, p, s->k[0], 1, &one, NULL) || bench_finish(b, p))
            return -1;
    return 0;
}

static int empty_cl_check(bench_ctx *b, bench_platform *p, void *dev) { return 0; }

const bench_ops empty_ops = {
    .setup = empty_setup,
    .teardown = empty_teardown,
    .twin = empty_twin,
    .twin_check = nothing_to_check,
    .cl_prepare = empty_prepare,
    .cl_run = empty_run,
    .cl_check = empty_cl_check,
    .cl_release = bench_simple_release,
};

/* ---- many small kernels in a row ------------------------------------------ */

/* Each kernel adds 1 to every element of a small array: after r runs of
 * `ops` kernels every element is r * ops, so a lost or repeated launch shows. */
enum { SMALL = 64 };

typedef struct enqueues_host {
    int a[SMALL], got[SMALL];
    long runs; /* the twin's */
} enqueues_host;

static int enqueues_setup(bench_ctx *b)
{
    enqueues_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    b->ops = BY_SIZE(b, 200, 10000, 10000);
    return 0;
}

static void enqueues_teardown(bench_ctx *b) { free(b->host); }

static int enqueues_twin(bench_ctx *b)
{
    enqueues_host *h = b->host;
    int *a = h->a;
    for (long k = 0; k < b->ops; k++) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < SMALL; i++)
            a[i] += 1;
    }
    h->runs++;
    return 0;
}

static int enqueues_check_counts(bench_ctx *b, const int *a, long runs)
{
    for (int i = 0; i < SMALL; i++)
        if (a[i] != runs * b->ops)
            return bench_fail(b, "a[%d] is %d after %ld runs of %ld kernels, expected %ld", i, a[i], runs, b->ops,
                              runs * b->ops);
    return 0;
}

static int enqueues_twin_check(bench_ctx *b)
{
    enqueues_host *h = b->host;
    return enqueues_check_counts(b, h->a, h->runs);
}

static int enqueues_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    static const int zeros[SMALL];
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    if (!(s->k[0] = bench_kernel(b, p, source, "add_one")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_WRITE, sizeof zeros, zeros)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]));
}

static int enqueues_run(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    size_t global = SMALL;
    s->runs++;
    for (long k = 0; k < b->ops; k++)
        if (bench_launch(b, p, s->k[0], 1, &global, NULL))
            return -1;
    return bench_finish(b, p);
}

static int enqueues_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    enqueues_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[0], sizeof h->got, h->got))
        return -1;
    return enqueues_check_counts(b, h->got, s->runs);
}

const bench_ops enqueues_ops = {
    .setup = enqueues_setup,
    .teardown = enqueues_teardown,
    .twin = enqueues_twin,
    .twin_check = enqueues_twin_check,
    .cl_prepare = enqueues_prepare,
    .cl_run = enqueues_run,
    .cl_check = enqueues_cl_check,
    .cl_release = bench_simple_release,
};
