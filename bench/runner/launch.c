/*
 * The cost of a launch, where the kernels do (almost) nothing: the latency
 * of one empty kernel (enqueue, then wait for it), the throughput of many
 * small kernels enqueued in a row with one wait at the end, and the same
 * kernels recorded once in a command buffer (cl_khr_command_buffer) and
 * replayed.  Times are per operation (b->ops per run).  The twins are the
 * OpenMP equivalents: an empty parallel region (fork and join), and as
 * many small parallel loops.
 */
#include "runner.h"

#include <CL/mosaic_command_buffer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the same small kernels, recorded once and replayed ---------------------- */

/* replay_1k: 1,000 add_one kernels in one command buffer, replayed (one
 * clEnqueueCommandBufferKHR and a wait per run); its platforms' time is the
 * replay's.  Its check also times the same 1,000 kernels enqueued one by
 * one on the same queue, and the replay again, best of a few each, and
 * puts both per-kernel times and their ratio in the row's note, one entry
 * a platform.  Every run adds 1,000 to each element, so each check knows
 * what the array must hold.  A platform without cl_khr_command_buffer
 * 0.9.5 or later (the version whose entry points take `properties`) is left
 * out of the row. */
typedef struct replay_dev {
    bench_simple *s;
    cl_command_buffer_khr cb;
    MOSAIC_CB_FN(clEnqueueCommandBufferKHR) enqueue;
    MOSAIC_CB_FN(clReleaseCommandBufferKHR) release;
} replay_dev;

enum { MAX_NOTED = 4 };
typedef struct replay_host {
    enqueues_host counts; /* first: the twin's functions take it */
    char noted[MAX_NOTED][40]; /* "Mosaic 1.20/0.31 us x3.9", a platform each */
} replay_host;

static int replay_setup(bench_ctx *b)
{
    replay_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    b->ops = BY_SIZE(b, 100, 1000, 1000);
    snprintf(b->note, sizeof b->note, "one by one / replayed, us a kernel: in the check");
    return 0;
}

/* The platform's cl_khr_command_buffer version (0: none). */
static cl_version command_buffer_version(bench_platform *p)
{
    size_t size = 0;
    if (clGetDeviceInfo(p->device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size) != CL_SUCCESS || !size)
        return 0;
    cl_name_version *list = malloc(size);
    cl_version v = 0;
    if (list && clGetDeviceInfo(p->device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL) == CL_SUCCESS)
        for (size_t i = 0; i < size / sizeof *list; i++)
            if (!strcmp(list[i].name, "cl_khr_command_buffer"))
                v = list[i].version;
    free(list);
    return v;
}

static int replay_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    static const int zeros[SMALL];
    if (command_buffer_version(p) < CL_MAKE_VERSION(0, 9, 5))
        return 1; /* left out here */
    replay_dev *d = calloc(1, sizeof *d);
    if (!(*dev = d))
        return bench_fail(b, "out of host memory");
    MOSAIC_CB_FN(clCreateCommandBufferKHR) create = (MOSAIC_CB_FN(clCreateCommandBufferKHR))
        clGetExtensionFunctionAddressForPlatform(p->platform, "clCreateCommandBufferKHR");
    MOSAIC_CB_FN(clCommandNDRangeKernelKHR) record = (MOSAIC_CB_FN(clCommandNDRangeKernelKHR))
        clGetExtensionFunctionAddressForPlatform(p->platform, "clCommandNDRangeKernelKHR");
    MOSAIC_CB_FN(clFinalizeCommandBufferKHR) finalize = (MOSAIC_CB_FN(clFinalizeCommandBufferKHR))
        clGetExtensionFunctionAddressForPlatform(p->platform, "clFinalizeCommandBufferKHR");
    d->enqueue = (MOSAIC_CB_FN(clEnqueueCommandBufferKHR))
        clGetExtensionFunctionAddressForPlatform(p->platform, "clEnqueueCommandBufferKHR");
    d->release = (MOSAIC_CB_FN(clReleaseCommandBufferKHR))
        clGetExtensionFunctionAddressForPlatform(p->platform, "clReleaseCommandBufferKHR");
    if (!create || !record || !finalize || !d->enqueue || !d->release)
        return bench_fail(b, "cl_khr_command_buffer is reported, its entry points are not all there");
    bench_simple *s = d->s = bench_simple_new(b);
    if (!s || !(s->k[0] = bench_kernel(b, p, source, "add_one")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_WRITE, sizeof zeros, zeros)) || BENCH_ARGS(b, s->k[0], ARG(s->m[0])))
        return -1;
    cl_int err;
    d->cb = create(1, &p->queue, NULL, &err);
    if (!d->cb)
        return bench_fail(b, "clCreateCommandBufferKHR: %s", bench_cl_error(err));
    size_t global = SMALL;
    for (long k = 0; k < b->ops; k++)
        if ((err = record(d->cb, NULL, NULL, s->k[0], 1, NULL, &global, NULL, 0, NULL, NULL, NULL)) != CL_SUCCESS)
            return bench_fail(b, "clCommandNDRangeKernelKHR: %s", bench_cl_error(err));
    if ((err = finalize(d->cb)) != CL_SUCCESS)
        return bench_fail(b, "clFinalizeCommandBufferKHR: %s", bench_cl_error(err));
    return 0;
}

static int replay_once(bench_ctx *b, bench_platform *p, replay_dev *d)
{
    cl_int err = d->enqueue(0, NULL, d->cb, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clEnqueueCommandBufferKHR: %s", bench_cl_error(err));
    d->s->runs++;
    return bench_finish(b, p);
}

static int replay_run(bench_ctx *b, bench_platform *p, void *dev) { return replay_once(b, p, dev); }

/* Checks the counts, then times both ways (best of 5 each) and notes them. */
static int replay_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    replay_host *h = b->host;
    replay_dev *d = dev;
    if (bench_read(b, p, d->s->m[0], sizeof h->counts.got, h->counts.got) ||
        enqueues_check_counts(b, h->counts.got, d->s->runs))
        return -1;
    double one_by_one = 1e30, replayed = 1e30;
    for (int round = 0; round < 5; round++) {
        double t0 = bench_now();
        if (enqueues_run(b, p, d->s))
            return -1;
        double t1 = bench_now();
        if (replay_once(b, p, d))
            return -1;
        double t2 = bench_now();
        one_by_one = t1 - t0 < one_by_one ? t1 - t0 : one_by_one;
        replayed = t2 - t1 < replayed ? t2 - t1 : replayed;
    }
    if (bench_read(b, p, d->s->m[0], sizeof h->counts.got, h->counts.got) ||
        enqueues_check_counts(b, h->counts.got, d->s->runs))
        return -1;
    /* this platform's entry, then the note made of every platform's */
    int slot = 0;
    while (slot < MAX_NOTED - 1 && h->noted[slot][0] && strncmp(h->noted[slot], p->name, strlen(p->name)))
        slot++;
    snprintf(h->noted[slot], sizeof h->noted[slot], "%s %.2f/%.2f us x%.1f", p->name, one_by_one / b->ops * 1e6,
             replayed / b->ops * 1e6, one_by_one / replayed);
    size_t used = (size_t)snprintf(b->note, sizeof b->note, "one by one/replayed:");
    for (int i = 0; i < MAX_NOTED && h->noted[i][0] && used < sizeof b->note; i++)
        used += (size_t)snprintf(b->note + used, sizeof b->note - used, " %s", h->noted[i]);
    return 0;
}

static void replay_release(bench_ctx *b, bench_platform *p, void *dev)
{
    replay_dev *d = dev;
    if (!d)
        return;
    if (d->cb)
        d->release(d->cb);
    bench_simple_release(b, p, d->s);
    free(d);
}

const bench_ops replay_ops = {
    .setup = replay_setup,
    .teardown = enqueues_teardown,
    .twin = enqueues_twin,
    .twin_check = enqueues_twin_check,
    .cl_prepare = replay_prepare,
    .cl_run = replay_run,
    .cl_check = replay_cl_check,
    .cl_release = replay_release,
};
