/*
 * A large buffer-to-buffer copy (clEnqueueCopyBuffer) against the same copy
 * on the host: the twin splits it over the OpenMP threads (one memcpy per
 * thread), the alternative is one memcpy on one thread.  Bytes per run:
 * read once and written once.
 */
#include "runner.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

typedef struct copy_host {
    size_t bytes;
    unsigned char *src, *dst;
} copy_host;

static int setup(bench_ctx *b)
{
    copy_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->bytes = BY_SIZE(b, (size_t)1 << 20, (size_t)64 << 20, (size_t)256 << 20);
    if (!(h->src = bench_alloc(b, h->bytes)) || !(h->dst = bench_alloc(b, h->bytes)))
        return -1;
    uint32_t *words = (uint32_t *)h->src;
    long n = (long)(h->bytes / 4);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        words[i] = (uint32_t)bench_hash((uint64_t)i, 13);
    b->bytes = 2.0 * (double)h->bytes;
    return 0;
}

static void teardown(bench_ctx *b)
{
    copy_host *h = b->host;
    if (!h)
        return;
    free(h->src);
    free(h->dst);
    free(h);
}

static int twin(bench_ctx *b)
{
    copy_host *h = b->host;
#pragma omp parallel
    {
        size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        size_t lo = h->bytes * t / nt / 64 * 64, hi = t + 1 == nt ? h->bytes : h->bytes * (t + 1) / nt / 64 * 64;
        memcpy(h->dst + lo, h->src + lo, hi - lo);
    }
    return 0;
}

static int single_memcpy(bench_ctx *b)
{
    copy_host *h = b->host;
    memcpy(h->dst, h->src, h->bytes);
    return 0;
}

static int check_dst(bench_ctx *b)
{
    copy_host *h = b->host;
    int r = bench_check_u32(b, "word", (const uint32_t *)h->dst, (const uint32_t *)h->src, h->bytes / 4);
    memset(h->dst, 0, h->bytes); /* the next run must write it all again */
    return r;
}

static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    copy_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    if (!(s->m[0] = bench_buffer(b, p, CL_MEM_READ_WRITE, h->bytes, h->src)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_WRITE, h->bytes, NULL)))
        return -1;
    return 0;
}

static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    copy_host *h = b->host;
    bench_simple *s = dev;
    cl_int err = clEnqueueCopyBuffer(p->queue, s->m[0], s->m[1], 0, 0, h->bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clEnqueueCopyBuffer: %s (%d)", bench_cl_error(err), err);
    return bench_finish(b, p);
}

static int cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    copy_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[1], h->bytes, h->dst))
        return -1;
    return check_dst(b);
}

const bench_ops copy_ops = {
    .setup = setup,
    .teardown = teardown,
    .twin = twin,
    .twin_check = check_dst,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = cl_check,
    .cl_release = bench_simple_release,
    .alt_name = "memcpy",
    .alt = single_memcpy,
};
