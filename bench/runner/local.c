/*
 * Kernels built on __local memory and barriers, the patterns of real
 * OpenCL code that plain C writes without either: a work-group tree sum
 * (seed 000's pattern: barrier inside the loop), an exclusive scan, a 2D
 * stencil through tiles with a halo, and a histogram with __local atomics.
 * All are memory-bound, but their bytes go through __local memory and
 * barriers (the stencil reads its tiles' halos twice, the histogram is
 * bound by its increments): the triad roof is out of their reach, and
 * their share is of their twin's bandwidth, counting the bytes the
 * computation must read and write at the least.  Variant 1 of the tree sum,
 * the scan and the stencil runs on data that fit in the last-level cache
 * (bench_cache_floats: half of it at most, 4M floats at most), where memory
 * no longer hides what the barriers cost.
 */
#include "runner.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void reduce(__global const float *x, __global float *partial, __local float *scratch)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = x[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s)\n"
    "            scratch[l] += scratch[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        partial[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "\n"
    "/* Each work-group scans WG * PER elements: PER per work-item, then the\n"
    "   work-items' totals by doubling steps (Hillis-Steele, two buffers). */\n"
    "#define WG 256\n"
    "#define PER 4\n"
    "__kernel void scan_blocks(__global const uint *in, __global uint *out, __global uint *sums, uint n)\n"
    "{\n"
    "    __local uint s[2][WG];\n"
    "    uint l = get_local_id(0);\n"
    "    size_t base = get_group_id(0) * (size_t)(WG * PER) + l * PER;\n"
    "    uint v[PER], t = 0;\n"
    "    for (int k = 0; k < PER; k++) {\n"
    "        v[k] = base + k < n ? in[base + k] : 0;\n"
    "        t += v[k];\n"
    "    }\n"
    "    int cur = 0;\n"
    "    s[0][l] = t;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint off = 1; off < WG; off *= 2) {\n"
    "        uint x = s[cur][l];\n"
    "        if (l >= off)\n"
    "            x += s[cur][l - off];\n"
    "        s[cur ^ 1][l] = x;\n"
    "        cur ^= 1;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    uint incl = s[cur][l], run = incl - t;\n"
    "    for (int k = 0; k < PER; k++) {\n"
    "        if (base + k < n)\n"
    "            out[base + k] = run;\n"
    "        run += v[k];\n"
    "    }\n"
    "    if (l == WG - 1)\n"
    "        sums[get_group_id(0)] = incl;\n"
    "}\n"
    "\n"
    "__kernel void add_offsets(__global uint *out, __global const uint *offsets, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i] += offsets[i / (WG * PER)];\n"
    "}\n"
    "\n"
    "#define TX 16\n"
    "#define TY 16\n"
    "__kernel void stencil(__global const float *in, __global float *out, int w, int h)\n"
    "{\n"
    "    __local float tile[TY + 2][TX + 2];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int x0 = get_group_id(0) * TX - 1, y0 = get_group_id(1) * TY - 1;\n"
    "    for (int i = ly * TX + lx; i < (TX + 2) * (TY + 2); i += TX * TY) {\n"
    "        int ty = i / (TX + 2), tx = i % (TX + 2);\n"
    "        int x = clamp(x0 + tx, 0, w - 1), y = clamp(y0 + ty, 0, h - 1);\n"
    "        tile[ty][tx] = in[y * w + x];\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float up = tile[ly][lx + 1], down = tile[ly + 2][lx + 1];\n"
    "    float left = tile[ly + 1][lx], right = tile[ly + 1][lx + 2];\n"
    "    out[get_global_id(1) * w + get_global_id(0)] = 0.5f * tile[ly + 1][lx + 1] + 0.125f * (up + down + left + right);\n"
    "}\n"
    "\n"
    "#define BINS 256\n"
    "__kernel void histogram(__global const uchar *data, __global uint *hist, uint per_item)\n"
    "{\n"
    "    __local uint local_hist[BINS];\n"
    "    uint l = get_local_id(0), wg = get_local_size(0);\n"
    "    for (uint b = l; b < BINS; b += wg)\n"
    "        local_hist[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t base = get_group_id(0) * (size_t)wg * per_item;\n"
    "    for (uint k = 0; k < per_item; k++)\n"
    "        atomic_inc(&local_hist[data[base + k * wg + l]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint b = l; b < BINS; b += wg)\n"
    "        if (local_hist[b])\n"
    "            atomic_add(&hist[b], local_hist[b]);\n"
    "}\n";

enum { GROUP = 256 };

/* ---- reduce --------------------------------------------------------------- */

/* Small integers as floats: every partial sum is exact in float, so the
 * work-group sums and the total must equal the host's exactly. */
typedef struct reduce_host {
    size_t n;
    float *x, *partial, *ref_partial;
    double ref_total, twin_total;
} reduce_host;

static int reduce_setup(bench_ctx *b)
{
    reduce_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->n = b->variant ? bench_cache_floats(b, 1, BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 22))
                      : BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 23, (size_t)1 << 25);
    size_t groups = h->n / GROUP;
    if (!(h->x = bench_alloc(b, h->n * sizeof(float))) || !(h->partial = bench_alloc(b, groups * sizeof(float))) ||
        !(h->ref_partial = bench_alloc(b, groups * sizeof(float))))
        return -1;
    bench_fill_int_floats(h->x, h->n, 9, -8, 8);
    h->ref_total = 0;
    for (size_t g = 0; g < groups; g++) {
        double s = 0;
        for (size_t i = 0; i < GROUP; i++)
            s += h->x[g * GROUP + i];
        h->ref_partial[g] = (float)s;
        h->ref_total += s;
    }
    b->bytes = (double)h->n * sizeof(float);
    return 0;
}

static void reduce_teardown(bench_ctx *b)
{
    reduce_host *h = b->host;
    if (!h)
        return;
    free(h->x);
    free(h->partial);
    free(h->ref_partial);
    free(h);
}

static int reduce_twin(bench_ctx *b)
{
    reduce_host *h = b->host;
    const float *restrict x = h->x;
    long n = (long)h->n;
    float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
    for (long i = 0; i < n; i++)
        s += x[i];
    h->twin_total = s;
    return 0;
}

static int reduce_twin_check(bench_ctx *b)
{
    reduce_host *h = b->host;
    if (h->twin_total != h->ref_total)
        return bench_fail(b, "sum is %.1f, expected %.1f", h->twin_total, h->ref_total);
    return 0;
}

static int reduce_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    reduce_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    if (bench_needs_group(b, p, GROUP) || !(s->k[0] = bench_kernel(b, p, source, "reduce")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, h->n * sizeof(float), h->x)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, h->n / GROUP * sizeof(float), NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG_LOCAL(GROUP * sizeof(float)));
}

/* The run is what a program does: the kernel, then the work-groups' sums
 * read back and added on the host. */
static int reduce_run(bench_ctx *b, bench_platform *p, void *dev)
{
    reduce_host *h = b->host;
    bench_simple *s = dev;
    size_t global = h->n, local = GROUP, groups = h->n / GROUP;
    if (bench_launch(b, p, s->k[0], 1, &global, &local) ||
        bench_read(b, p, s->m[1], groups * sizeof(float), h->partial))
        return -1;
    double total = 0;
    for (size_t g = 0; g < groups; g++)
        total += h->partial[g];
    s->value = total;
    return 0;
}

static int reduce_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    reduce_host *h = b->host;
    bench_simple *s = dev;
    if (s->value != h->ref_total)
        return bench_fail(b, "sum is %.1f, expected %.1f", s->value, h->ref_total);
    if (bench_read(b, p, s->m[1], h->n / GROUP * sizeof(float), h->partial))
        return -1;
    return bench_check_floats(b, "work-group sum", h->partial, h->ref_partial, h->n / GROUP, 0.0f, 0.0f);
}

const bench_ops reduce_ops = {
    .setup = reduce_setup,
    .teardown = reduce_teardown,
    .twin = reduce_twin,
    .twin_check = reduce_twin_check,
    .cl_prepare = reduce_prepare,
    .cl_run = reduce_run,
    .cl_check = reduce_cl_check,
    .cl_release = bench_simple_release,
    .share_of_twin = 1,
};

/* ---- exclusive scan ------------------------------------------------------- */

/* Level 0 scans the input block by block (BLOCK elements each) into the
 * output and writes each block's total; level 1 scans those totals the same
 * way, and so on until one block holds a level; then each level adds the
 * scanned totals of the level above to its blocks. */
enum { BLOCK = GROUP * 4, MAX_LEVELS = 5 };

typedef struct scan_host {
    size_t n;
    uint32_t *in, *out, *ref;
} scan_host;

typedef struct scan_dev {
    cl_kernel scan, add;
    cl_mem in, out;
    cl_mem sums[MAX_LEVELS];    /* sums[l]: block totals of level l (level l+1's input) */
    cl_mem scanned[MAX_LEVELS]; /* scanned[l]: level l+1's output, the offsets of level l's blocks */
    cl_uint count[MAX_LEVELS];  /* elements of level l */
    int levels;
} scan_dev;

static int scan_setup(bench_ctx *b)
{
    scan_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->n = b->variant ? bench_cache_floats(b, 2, BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 22))
                      : BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 23, (size_t)1 << 25);
    size_t bytes = h->n * sizeof(uint32_t);
    if (!(h->in = bench_alloc(b, bytes)) || !(h->out = bench_alloc(b, bytes)) || !(h->ref = bench_alloc(b, bytes)))
        return -1;
    for (size_t i = 0; i < h->n; i++)
        h->in[i] = (uint32_t)(bench_hash(i, 10) & 15);
    uint32_t run = 0;
    for (size_t i = 0; i < h->n; i++) {
        h->ref[i] = run;
        run += h->in[i];
    }
    b->bytes = 2.0 * (double)bytes;
    return 0;
}

static void scan_teardown(bench_ctx *b)
{
    scan_host *h = b->host;
    if (!h)
        return;
    free(h->in);
    free(h->out);
    free(h->ref);
    free(h);
}

/* The two-pass OpenMP scan: each thread sums its chunk, the chunks' sums
 * are scanned, each thread scans its chunk from its offset. */
static int scan_twin(bench_ctx *b)
{
    scan_host *h = b->host;
    const uint32_t *restrict in = h->in;
    uint32_t *restrict out = h->out;
    size_t n = h->n;
    int max_threads = omp_get_max_threads();
    uint32_t *offset = calloc((size_t)max_threads + 1, sizeof *offset);
    if (!offset)
        return bench_fail(b, "out of host memory");
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
        uint32_t s = 0;
#pragma omp simd reduction(+ : s)
        for (size_t i = lo; i < hi; i++)
            s += in[i];
        offset[t + 1] = s;
#pragma omp barrier
#pragma omp single
        for (int k = 1; k <= nt; k++)
            offset[k] += offset[k - 1];
        uint32_t run = offset[t];
        for (size_t i = lo; i < hi; i++) {
            out[i] = run;
            run += in[i];
        }
    }
    free(offset);
    return 0;
}

static int scan_twin_check(bench_ctx *b)
{
    scan_host *h = b->host;
    return bench_check_u32(b, "out", h->out, h->ref, h->n);
}

static void scan_release(bench_ctx *b, bench_platform *p, void *dev)
{
    scan_dev *d = dev;
    if (!d)
        return;
    if (d->scan)
        clReleaseKernel(d->scan);
    if (d->add)
        clReleaseKernel(d->add);
    cl_mem all[2 + 2 * MAX_LEVELS] = { d->in, d->out };
    memcpy(all + 2, d->sums, sizeof d->sums);
    memcpy(all + 2 + MAX_LEVELS, d->scanned, sizeof d->scanned);
    for (int i = 0; i < 2 + 2 * MAX_LEVELS; i++)
        if (all[i])
            clReleaseMemObject(all[i]);
    free(d);
}

static int scan_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    scan_host *h = b->host;
    scan_dev *d = calloc(1, sizeof *d);
    if (!(*dev = d))
        return bench_fail(b, "out of host memory");
    size_t bytes = h->n * sizeof(uint32_t);
    if (bench_needs_group(b, p, GROUP) || !(d->scan = bench_kernel(b, p, source, "scan_blocks")) ||
        !(d->add = bench_kernel(b, p, source, "add_offsets")) ||
        !(d->in = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->in)) ||
        !(d->out = bench_buffer(b, p, CL_MEM_READ_WRITE, bytes, NULL)))
        return -1;
    d->count[0] = (cl_uint)h->n;
    for (int l = 0;; l++) {
        if (l == MAX_LEVELS - 1)
            return bench_fail(b, "more than %d levels of block sums", MAX_LEVELS);
        size_t blocks = (d->count[l] + BLOCK - 1) / BLOCK;
        if (!(d->sums[l] = bench_buffer(b, p, CL_MEM_READ_WRITE, blocks * sizeof(uint32_t), NULL)))
            return -1;
        d->levels = l + 1;
        if (blocks == 1)
            break;
        d->count[l + 1] = (cl_uint)blocks;
        if (!(d->scanned[l] = bench_buffer(b, p, CL_MEM_READ_WRITE, blocks * sizeof(uint32_t), NULL)))
            return -1;
    }
    return 0;
}

static int scan_run(bench_ctx *b, bench_platform *p, void *dev)
{
    scan_dev *d = dev;
    size_t local = GROUP;
    /* Down: scan each level's blocks (level l > 0 scans level l-1's sums). */
    for (int l = 0; l < d->levels; l++) {
        cl_mem in = l ? d->sums[l - 1] : d->in, out = l ? d->scanned[l - 1] : d->out;
        size_t global = (d->count[l] + BLOCK - 1) / BLOCK * GROUP;
        if (BENCH_ARGS(b, d->scan, ARG(in), ARG(out), ARG(d->sums[l]), ARG(d->count[l])) ||
            bench_launch(b, p, d->scan, 1, &global, &local))
            return -1;
    }
    /* Up: add the scanned block sums of level l+1 to level l's blocks. */
    for (int l = d->levels - 2; l >= 0; l--) {
        cl_mem out = l ? d->scanned[l - 1] : d->out;
        size_t global = (d->count[l] + GROUP - 1) / GROUP * GROUP;
        if (BENCH_ARGS(b, d->add, ARG(out), ARG(d->scanned[l]), ARG(d->count[l])) ||
            bench_launch(b, p, d->add, 1, &global, &local))
            return -1;
    }
    return bench_finish(b, p);
}

static int scan_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    scan_host *h = b->host;
    scan_dev *d = dev;
    if (bench_read(b, p, d->out, h->n * sizeof(uint32_t), h->out))
        return -1;
    return bench_check_u32(b, "out", h->out, h->ref, h->n);
}

const bench_ops scan_ops = {
    .setup = scan_setup,
    .teardown = scan_teardown,
    .twin = scan_twin,
    .twin_check = scan_twin_check,
    .cl_prepare = scan_prepare,
    .cl_run = scan_run,
    .cl_check = scan_cl_check,
    .cl_release = scan_release,
    .share_of_twin = 1,
};

/* ---- 2D stencil ----------------------------------------------------------- */

/* out = c/2 + (up + down + left + right)/8, edges clamped. */
typedef struct stencil_host {
    int w, h;
    float *in, *out, *ref;
} stencil_host;

static inline float stencil_at(const float *in, int w, int h, int x, int y)
{
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return in[(size_t)y * w + x];
}

static int stencil_setup(bench_ctx *b)
{
    stencil_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->w = BY_SIZE(b, 128, 2048, 8192);
    h->h = BY_SIZE(b, 128, 2048, 4096);
    if (b->variant) { /* as square as a power of two allows: 2048 x 1024, 1024 x 1024... */
        size_t n = bench_cache_floats(b, 2, BY_SIZE(b, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 22));
        h->w = 1;
        while ((size_t)h->w * h->w < n)
            h->w *= 2;
        h->h = (int)(n / (size_t)h->w);
    }
    size_t n = (size_t)h->w * h->h, bytes = n * sizeof(float);
    if (!(h->in = bench_alloc(b, bytes)) || !(h->out = bench_alloc(b, bytes)) || !(h->ref = bench_alloc(b, bytes)))
        return -1;
    bench_fill_uniform(h->in, n, 11, -1.0f, 1.0f);
    int w = h->w, hh = h->h;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < w; x++) {
            double s = (double)stencil_at(h->in, w, hh, x, y - 1) + stencil_at(h->in, w, hh, x, y + 1) +
                       stencil_at(h->in, w, hh, x - 1, y) + stencil_at(h->in, w, hh, x + 1, y);
            h->ref[(size_t)y * w + x] = (float)(0.5 * h->in[(size_t)y * w + x] + 0.125 * s);
        }
    b->bytes = 2.0 * (double)bytes;
    return 0;
}

static void stencil_teardown(bench_ctx *b)
{
    stencil_host *h = b->host;
    if (!h)
        return;
    free(h->in);
    free(h->out);
    free(h->ref);
    free(h);
}

static int stencil_twin(bench_ctx *b)
{
    stencil_host *sh = b->host;
    const int w = sh->w, h = sh->h;
    const float *restrict in = sh->in;
    float *restrict out = sh->out;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++) {
        const float *up = in + (size_t)(y > 0 ? y - 1 : 0) * w, *mid = in + (size_t)y * w;
        const float *down = in + (size_t)(y < h - 1 ? y + 1 : h - 1) * w;
        float *o = out + (size_t)y * w;
        o[0] = 0.5f * mid[0] + 0.125f * (up[0] + down[0] + mid[0] + mid[1]);
#pragma omp simd
        for (int x = 1; x < w - 1; x++)
            o[x] = 0.5f * mid[x] + 0.125f * (up[x] + down[x] + mid[x - 1] + mid[x + 1]);
        o[w - 1] = 0.5f * mid[w - 1] + 0.125f * (up[w - 1] + down[w - 1] + mid[w - 2] + mid[w - 1]);
    }
    return 0;
}

static int stencil_check_out(bench_ctx *b, const float *out)
{
    stencil_host *h = b->host;
    return bench_check_floats(b, "out", out, h->ref, (size_t)h->w * h->h, 1e-6f, 1e-6f);
}

static int stencil_twin_check(bench_ctx *b) { return stencil_check_out(b, ((stencil_host *)b->host)->out); }

static int stencil_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    stencil_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    size_t bytes = (size_t)h->w * h->h * sizeof(float);
    if (bench_needs_group(b, p, GROUP) || !(s->k[0] = bench_kernel(b, p, source, "stencil")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, bytes, h->in)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, bytes, NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(h->w), ARG(h->h));
}

static int stencil_run(bench_ctx *b, bench_platform *p, void *dev)
{
    stencil_host *h = b->host;
    bench_simple *s = dev;
    size_t global[2] = { (size_t)h->w, (size_t)h->h }, local[2] = { 16, 16 };
    if (bench_launch(b, p, s->k[0], 2, global, local))
        return -1;
    return bench_finish(b, p);
}

static int stencil_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    stencil_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[1], (size_t)h->w * h->h * sizeof(float), h->out))
        return -1;
    return stencil_check_out(b, h->out);
}

const bench_ops stencil_ops = {
    .setup = stencil_setup,
    .teardown = stencil_teardown,
    .twin = stencil_twin,
    .twin_check = stencil_twin_check,
    .cl_prepare = stencil_prepare,
    .cl_run = stencil_run,
    .cl_check = stencil_cl_check,
    .cl_release = bench_simple_release,
    .share_of_twin = 1,
};

/* ---- histogram ------------------------------------------------------------ */

/* Bytes half uniform, half in a narrow band (bins 96 to 127), so some bins
 * are contended as in an image's histogram.  Each work-item counts PER_ITEM
 * bytes; the run clears the global histogram first. */
enum { BINS = 256, PER_ITEM = 64 };

typedef struct histogram_host {
    size_t n;
    unsigned char *data;
    uint32_t hist[BINS], ref[BINS];
} histogram_host;

static int histogram_setup(bench_ctx *b)
{
    histogram_host *h = calloc(1, sizeof *h);
    if (!(b->host = h))
        return bench_fail(b, "out of host memory");
    h->n = BY_SIZE(b, (size_t)1 << 20, (size_t)1 << 25, (size_t)1 << 28);
    if (!(h->data = bench_alloc(b, h->n)))
        return -1;
    long n = (long)h->n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        uint64_t r = bench_hash((uint64_t)i, 12);
        h->data[i] = (unsigned char)((r & 1) ? 96 + ((r >> 8) & 31) : (r >> 16) & 255);
    }
    for (size_t i = 0; i < h->n; i++)
        h->ref[h->data[i]]++;
    b->bytes = (double)h->n;
    return 0;
}

static void histogram_teardown(bench_ctx *b)
{
    histogram_host *h = b->host;
    if (!h)
        return;
    free(h->data);
    free(h);
}

static int histogram_twin(bench_ctx *b)
{
    histogram_host *h = b->host;
    const unsigned char *restrict data = h->data;
    long n = (long)h->n;
    uint32_t hist[BINS] = { 0 };
#pragma omp parallel for reduction(+ : hist[:BINS]) schedule(static)
    for (long i = 0; i < n; i++)
        hist[data[i]]++;
    memcpy(h->hist, hist, sizeof hist);
    return 0;
}

static int histogram_twin_check(bench_ctx *b)
{
    histogram_host *h = b->host;
    return bench_check_u32(b, "bin", h->hist, h->ref, BINS);
}

static int histogram_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    histogram_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    cl_uint per_item = PER_ITEM;
    if (bench_needs_group(b, p, GROUP) || !(s->k[0] = bench_kernel(b, p, source, "histogram")) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, h->n, h->data)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_WRITE, BINS * sizeof(uint32_t), NULL)))
        return -1;
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(per_item));
}

static int histogram_run(bench_ctx *b, bench_platform *p, void *dev)
{
    histogram_host *h = b->host;
    bench_simple *s = dev;
    cl_uint zero = 0;
    size_t global = h->n / PER_ITEM, local = GROUP;
    cl_int err = clEnqueueFillBuffer(p->queue, s->m[1], &zero, sizeof zero, 0, BINS * sizeof(uint32_t), 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clEnqueueFillBuffer: %s (%d)", bench_cl_error(err), err);
    if (bench_launch(b, p, s->k[0], 1, &global, &local))
        return -1;
    return bench_finish(b, p);
}

static int histogram_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    histogram_host *h = b->host;
    bench_simple *s = dev;
    if (bench_read(b, p, s->m[1], BINS * sizeof(uint32_t), h->hist))
        return -1;
    return bench_check_u32(b, "bin", h->hist, h->ref, BINS);
}

const bench_ops histogram_ops = {
    .setup = histogram_setup,
    .teardown = histogram_teardown,
    .twin = histogram_twin,
    .twin_check = histogram_twin_check,
    .cl_prepare = histogram_prepare,
    .cl_run = histogram_run,
    .cl_check = histogram_cl_check,
    .cl_release = bench_simple_release,
    .share_of_twin = 1,
};
