/*
 * Image filters in the shape a computer-vision library gives them in
 * OpenCL: byte images (uchar grey, uchar4 colour), the launch rounded up
 * to whole work-groups and a guard for the work-items past the image, and
 * for the neighbourhood filters a __local tile loaded with its halo, a
 * barrier, then a min, max or median network per pixel:
 *
 *   erode7, dilate7  min (max) over a 7x7 window, edges replicated, 16x16 groups
 *   median5          median of a 5x5 window by a network of min and max, 16x16 groups
 *   in_range         255 where each of a colour pixel's 3 channels lies in its
 *                    bounds, else 0; each work-item 4 rows, the device's local size
 *   transpose        a grey image through a 32x33 __local tile, 32x8 groups of 4 rows each
 *   split3           a colour image's first 3 channels into 3 planes (4 rows a work-item)
 *   flip             a grey image mirrored left to right (4 rows a work-item)
 *   sum_u8           sum of a grey image: each work-item sums a stride of it, then a
 *                    work-group tree in __local memory; the host adds the groups' sums
 *
 * Each result is checked byte for byte against a plain C computation
 * (median5's against a sort of the 25 values).  The twins are the OpenMP
 * loops a C programmer writes for the same result (the same 7x7 window and
 * median network, the x loop `omp simd`).  All are memory-bound rows: their
 * bytes are each input read once and each output written once.
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

/* The median of 25 values p0..p24 by forgetful selection: of the first 14,
 * the smallest and the largest cannot be the median; drop them, take the
 * next value in, and again, until one is left: p12.  CE(a, b) leaves the
 * smaller in a and the larger in b; the kernels and the twin each define
 * it (it is not a C macro where the kernels' text is made from this one). */
#define MEDIAN25_NETWORK \
    CE(p0, p1) CE(p0, p2) CE(p0, p3) CE(p0, p4) CE(p0, p5) CE(p0, p6) CE(p0, p7) CE(p0, p8) CE(p0, p9) \
    CE(p0, p10) CE(p0, p11) CE(p0, p12) CE(p0, p13) CE(p1, p13) CE(p2, p13) CE(p3, p13) CE(p4, p13) CE(p5, p13) \
    CE(p6, p13) CE(p7, p13) CE(p8, p13) CE(p9, p13) CE(p10, p13) CE(p11, p13) CE(p12, p13) \
    CE(p1, p2) CE(p1, p3) CE(p1, p4) CE(p1, p5) CE(p1, p6) CE(p1, p7) CE(p1, p8) CE(p1, p9) CE(p1, p10) \
    CE(p1, p11) CE(p1, p12) CE(p1, p14) CE(p2, p14) CE(p3, p14) CE(p4, p14) CE(p5, p14) CE(p6, p14) CE(p7, p14) \
    CE(p8, p14) CE(p9, p14) CE(p10, p14) CE(p11, p14) CE(p12, p14) \
    CE(p2, p3) CE(p2, p4) CE(p2, p5) CE(p2, p6) CE(p2, p7) CE(p2, p8) CE(p2, p9) CE(p2, p10) CE(p2, p11) \
    CE(p2, p12) CE(p2, p15) CE(p3, p15) CE(p4, p15) CE(p5, p15) CE(p6, p15) CE(p7, p15) CE(p8, p15) CE(p9, p15) \
    CE(p10, p15) CE(p11, p15) CE(p12, p15) \
    CE(p3, p4) CE(p3, p5) CE(p3, p6) CE(p3, p7) CE(p3, p8) CE(p3, p9) CE(p3, p10) CE(p3, p11) CE(p3, p12) \
    CE(p3, p16) CE(p4, p16) CE(p5, p16) CE(p6, p16) CE(p7, p16) CE(p8, p16) CE(p9, p16) CE(p10, p16) \
    CE(p11, p16) CE(p12, p16) \
    CE(p4, p5) CE(p4, p6) CE(p4, p7) CE(p4, p8) CE(p4, p9) CE(p4, p10) CE(p4, p11) CE(p4, p12) CE(p4, p17) \
    CE(p5, p17) CE(p6, p17) CE(p7, p17) CE(p8, p17) CE(p9, p17) CE(p10, p17) CE(p11, p17) CE(p12, p17) \
    CE(p5, p6) CE(p5, p7) CE(p5, p8) CE(p5, p9) CE(p5, p10) CE(p5, p11) CE(p5, p12) CE(p5, p18) CE(p6, p18) \
    CE(p7, p18) CE(p8, p18) CE(p9, p18) CE(p10, p18) CE(p11, p18) CE(p12, p18) \
    CE(p6, p7) CE(p6, p8) CE(p6, p9) CE(p6, p10) CE(p6, p11) CE(p6, p12) CE(p6, p19) CE(p7, p19) CE(p8, p19) \
    CE(p9, p19) CE(p10, p19) CE(p11, p19) CE(p12, p19) \
    CE(p7, p8) CE(p7, p9) CE(p7, p10) CE(p7, p11) CE(p7, p12) CE(p7, p20) CE(p8, p20) CE(p9, p20) CE(p10, p20) \
    CE(p11, p20) CE(p12, p20) \
    CE(p8, p9) CE(p8, p10) CE(p8, p11) CE(p8, p12) CE(p8, p21) CE(p9, p21) CE(p10, p21) CE(p11, p21) \
    CE(p12, p21) \
    CE(p9, p10) CE(p9, p11) CE(p9, p12) CE(p9, p22) CE(p10, p22) CE(p11, p22) CE(p12, p22) \
    CE(p10, p11) CE(p10, p12) CE(p10, p23) CE(p11, p23) CE(p12, p23) \
    CE(p11, p12) CE(p11, p24) CE(p12, p24)
#define TEXT_(...) #__VA_ARGS__
#define TEXT(...) TEXT_(__VA_ARGS__)

static const char *source =
    "#define CE(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }\n"
    "#define MEDIAN25_NETWORK " TEXT(MEDIAN25_NETWORK) "\n"
    "#define TW 16\n"
    "#define TH 16\n"
    "\n"
    "/* 7x7 min or max: the group's 16x16 pixels and 3 around them in __local\n"
    "   memory, coordinates clamped to the image (its edges replicated). */\n"
    "#define R 3\n"
    "#define MORPH7(name, OP)                                                                 \\\n"
    "__kernel void name(__global const uchar *src, __global uchar *dst, int w, int h)         \\\n"
    "{                                                                                        \\\n"
    "    __local uchar tile[TH + 2 * R][TW + 2 * R];                                          \\\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);                                      \\\n"
    "    int x0 = get_group_id(0) * TW - R, y0 = get_group_id(1) * TH - R;                    \\\n"
    "    for (int ty = ly; ty < TH + 2 * R; ty += TH)                                         \\\n"
    "        for (int tx = lx; tx < TW + 2 * R; tx += TW)                                     \\\n"
    "            tile[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)]; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                        \\\n"
    "    int x = get_global_id(0), y = get_global_id(1);                                      \\\n"
    "    if (x >= w || y >= h)                                                                \\\n"
    "        return;                                                                          \\\n"
    "    uchar m = tile[ly][lx];                                                              \\\n"
    "    for (int dy = 0; dy <= 2 * R; dy++)                                                  \\\n"
    "        for (int dx = 0; dx <= 2 * R; dx++)                                              \\\n"
    "            m = OP(m, tile[ly + dy][lx + dx]);                                           \\\n"
    "    dst[y * w + x] = m;                                                                  \\\n"
    "}\n"
    "MORPH7(erode7, min)\n"
    "MORPH7(dilate7, max)\n"
    "\n"
    "/* 5x5 median: a 20x20 tile, then the network on the window's 25 values. */\n"
    "#define ROW5(k, a, b, c, d, e)                                              \\\n"
    "    uchar a = t[ly + k][lx], b = t[ly + k][lx + 1], c = t[ly + k][lx + 2], \\\n"
    "          d = t[ly + k][lx + 3], e = t[ly + k][lx + 4];\n"
    "__kernel void median5(__global const uchar *src, __global uchar *dst, int w, int h)\n"
    "{\n"
    "    __local uchar t[TH + 4][TW + 4];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int x0 = get_group_id(0) * TW - 2, y0 = get_group_id(1) * TH - 2;\n"
    "    for (int ty = ly; ty < TH + 4; ty += TH)\n"
    "        for (int tx = lx; tx < TW + 4; tx += TW)\n"
    "            t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x >= w || y >= h)\n"
    "        return;\n"
    "    ROW5(0, p0, p1, p2, p3, p4)\n"
    "    ROW5(1, p5, p6, p7, p8, p9)\n"
    "    ROW5(2, p10, p11, p12, p13, p14)\n"
    "    ROW5(3, p15, p16, p17, p18, p19)\n"
    "    ROW5(4, p20, p21, p22, p23, p24)\n"
    "    MEDIAN25_NETWORK\n"
    "    dst[y * w + x] = p12;\n"
    "}\n"
    "\n"
    "#define ROWS_PER_ITEM 4\n"
    "__kernel void in_range(__global const uchar4 *src, __global uchar *dst, int w, int h, uchar4 lo, uchar4 hi)\n"
    "{\n"
    "    int x = get_global_id(0), y0 = get_global_id(1) * ROWS_PER_ITEM;\n"
    "    if (x >= w)\n"
    "        return;\n"
    "    for (int y = y0; y < min(y0 + ROWS_PER_ITEM, h); y++) {\n"
    "        uchar4 p = src[y * w + x];\n"
    "        uchar m = 255;\n"
    "        if (p.x < lo.x || p.x > hi.x)\n"
    "            m = 0;\n"
    "        else if (p.y < lo.y || p.y > hi.y)\n"
    "            m = 0;\n"
    "        else if (p.z < lo.z || p.z > hi.z)\n"
    "            m = 0;\n"
    "        dst[y * w + x] = m;\n"
    "    }\n"
    "}\n"
    "\n"
    "/* dst (h wide, w tall) = src transposed: 32x32 tiles, each work-item 4 of a tile's rows. */\n"
    "#define TD 32\n"
    "#define TR 8\n"
    "__kernel void transpose(__global const uchar *src, __global uchar *dst, int w, int h)\n"
    "{\n"
    "    __local uchar tile[TD][TD + 1];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int bx = get_group_id(0) * TD, by = get_group_id(1) * TD;\n"
    "    for (int j = ly; j < TD; j += TR)\n"
    "        if (bx + lx < w && by + j < h)\n"
    "            tile[j][lx] = src[(by + j) * w + bx + lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int j = ly; j < TD; j += TR)\n"
    "        if (by + lx < h && bx + j < w)\n"
    "            dst[(bx + j) * h + by + lx] = tile[lx][j];\n"
    "}\n"
    "\n"
    "__kernel void split3(__global const uchar4 *src, __global uchar *c0, __global uchar *c1, __global uchar *c2,\n"
    "                     int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y0 = get_global_id(1) * ROWS_PER_ITEM;\n"
    "    if (x >= w)\n"
    "        return;\n"
    "    for (int y = y0; y < min(y0 + ROWS_PER_ITEM, h); y++) {\n"
    "        uchar4 p = src[y * w + x];\n"
    "        c0[y * w + x] = p.x;\n"
    "        c1[y * w + x] = p.y;\n"
    "        c2[y * w + x] = p.z;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void flip(__global const uchar *src, __global uchar *dst, int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y0 = get_global_id(1) * ROWS_PER_ITEM;\n"
    "    if (x >= w)\n"
    "        return;\n"
    "    for (int y = y0; y < min(y0 + ROWS_PER_ITEM, h); y++)\n"
    "        dst[y * w + w - 1 - x] = src[y * w + x];\n"
    "}\n"
    "\n"
    "__kernel void sum_u8(__global const uchar *src, __global uint *partial, uint n)\n"
    "{\n"
    "    __local uint t[256];\n"
    "    uint l = get_local_id(0);\n"
    "    uint s = 0;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        s += src[i];\n"
    "    t[l] = s;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint k = get_local_size(0) / 2; k > 0; k /= 2) {\n"
    "        if (l < k)\n"
    "            t[l] += t[l + k];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        partial[get_group_id(0)] = t[0];\n"
    "}\n";

enum { ERODE7, DILATE7, MEDIAN5, IN_RANGE, TRANSPOSE, SPLIT3, FLIP, SUM_U8 };
enum { ROWS_PER_ITEM = 4, SUM_GROUP = 256, SUM_GROUPS = 512 };
static const cl_uchar4 range_lo = { { 40, 60, 80, 0 } }, range_hi = { { 200, 180, 220, 255 } };

static const char *const kernel_name[] = { "erode7", "dilate7", "median5", "in_range",
                                           "transpose", "split3", "flip", "sum_u8" };

typedef struct filter_host {
    int w, h;
    size_t in_bytes, out_bytes;
    unsigned char *in;       /* grey: w h bytes; in_range and split3: w h uchar4 */
    unsigned char *out, *ref; /* the result (the twin's, then each platform's) and the reference */
    uint32_t *partial;        /* sum_u8: the groups' sums read back */
    uint64_t sum, ref_sum;    /* sum_u8 */
} filter_host;

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int is_colour(int variant) { return variant == IN_RANGE || variant == SPLIT3; }

/* ---- the plain C references ---- */

static void morph_ref(const unsigned char *in, int w, int h, int want_max, unsigned char *out)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int m = in[(size_t)y * w + x];
            for (int dy = -3; dy <= 3; dy++)
                for (int dx = -3; dx <= 3; dx++) {
                    int v = in[(size_t)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                    m = want_max ? (v > m ? v : m) : (v < m ? v : m);
                }
            out[(size_t)y * w + x] = (unsigned char)m;
        }
}

static void median_ref(const unsigned char *in, int w, int h, unsigned char *out)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned char v[25];
            int n = 0;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) { /* insertion sort as the values come */
                    unsigned char e = in[(size_t)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                    int k = n++;
                    for (; k > 0 && v[k - 1] > e; k--)
                        v[k] = v[k - 1];
                    v[k] = e;
                }
            out[(size_t)y * w + x] = v[12];
        }
}

static void filter_ref(filter_host *fh, int variant)
{
    const unsigned char *in = fh->in;
    int w = fh->w, h = fh->h;
    size_t n = (size_t)w * h;
    switch (variant) {
    case ERODE7:
    case DILATE7:
        morph_ref(in, w, h, variant == DILATE7, fh->ref);
        break;
    case MEDIAN5:
        median_ref(in, w, h, fh->ref);
        break;
    case IN_RANGE:
        for (size_t i = 0; i < n; i++) {
            int inside = 1;
            for (int c = 0; c < 3; c++)
                inside &= in[4 * i + c] >= range_lo.s[c] && in[4 * i + c] <= range_hi.s[c];
            fh->ref[i] = inside ? 255 : 0;
        }
        break;
    case TRANSPOSE:
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                fh->ref[(size_t)x * h + y] = in[(size_t)y * w + x];
        break;
    case SPLIT3:
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 3; c++)
                fh->ref[c * n + i] = in[4 * i + c];
        break;
    case FLIP:
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                fh->ref[(size_t)y * w + w - 1 - x] = in[(size_t)y * w + x];
        break;
    case SUM_U8:
        fh->ref_sum = 0;
        for (size_t i = 0; i < n; i++)
            fh->ref_sum += in[i];
        break;
    }
}

/* ---- set-up ---- */

static int filter_setup(bench_ctx *b)
{
    filter_host *fh = calloc(1, sizeof *fh);
    if (!(b->host = fh))
        return bench_fail(b, "out of host memory");
    /* tiny: sizes no group divides, so the guards and edges are tried */
    fh->w = BY_SIZE(b, 150, 1920, 3840);
    fh->h = BY_SIZE(b, 70, 1080, 2160);
    size_t n = (size_t)fh->w * fh->h;
    int v = b->variant;
    fh->in_bytes = is_colour(v) ? 4 * n : n;
    fh->out_bytes = v == SPLIT3 ? 3 * n : v == SUM_U8 ? 0 : n;
    if (!(fh->in = bench_alloc(b, fh->in_bytes)) || !(fh->out = bench_alloc(b, fh->out_bytes)) ||
        !(fh->ref = bench_alloc(b, fh->out_bytes)) ||
        !(fh->partial = bench_alloc(b, SUM_GROUPS * sizeof *fh->partial)))
        return -1;
    /* a gradient with noise: windows hold both near and far values */
    int w = fh->w;
    long bytes = (long)fh->in_bytes;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < bytes; i++) {
        long pixel = is_colour(v) ? i / 4 : i;
        long x = pixel % w, y = pixel / w;
        fh->in[i] = (unsigned char)(x + 2 * y + (long)(bench_hash((uint64_t)i, 40 + (uint32_t)v) & 127));
    }
    filter_ref(fh, v);
    b->bytes = (double)fh->in_bytes + (double)fh->out_bytes;
    return 0;
}

static void filter_teardown(bench_ctx *b)
{
    filter_host *fh = b->host;
    if (!fh)
        return;
    free(fh->in);
    free(fh->out);
    free(fh->ref);
    free(fh->partial);
    free(fh);
}

static int check_bytes(bench_ctx *b, const filter_host *fh, const unsigned char *got)
{
    for (size_t i = 0; i < fh->out_bytes; i++)
        if (got[i] != fh->ref[i]) {
            size_t plane = (size_t)fh->w * fh->h, j = i % plane;
            return bench_fail(b, "byte %zu (plane %zu, x %zu, y %zu) is %u, expected %u", i, i / plane,
                              j % (size_t)fh->w, j / (size_t)fh->w, got[i], fh->ref[i]);
        }
    return 0;
}

static int check_sum(bench_ctx *b, uint64_t got, uint64_t want)
{
    if (got != want)
        return bench_fail(b, "sum is %llu, expected %llu", (unsigned long long)got, (unsigned long long)want);
    return 0;
}

/* ---- the twins ---- */

#define CE(a, b) \
    { \
        unsigned char t_ = a < b ? a : b; \
        b = a < b ? b : a; \
        a = t_; \
    }

#define MIN_(a, b) ((a) < (b) ? (a) : (b))
#define MAX_(a, b) ((a) > (b) ? (a) : (b))

/* OP over the 7x7 window of rows r[0..6] at columns X(x - 3) .. X(x + 3). */
#define WINDOW7(OP, r, x, X) \
    ({ \
        unsigned char m_ = r[0][X(x)]; \
        for (int k_ = 0; k_ < 7; k_++) \
            for (int d_ = -3; d_ <= 3; d_++) \
                m_ = OP(m_, r[k_][X(x + d_)]); \
        m_; \
    })
#define INSIDE(x) (x)
#define CLAMPED(x) clampi(x, 0, w - 1) /* w: the image's width where it is used */

/* The window's min or max at every x of row y: the edges with x clamped,
 * the inside as one vector loop. */
static void morph_twin_row(const unsigned char *in, int w, int h, int y, int want_max, unsigned char *o)
{
    const unsigned char *r[7];
    for (int k = 0; k < 7; k++)
        r[k] = in + (size_t)clampi(y + k - 3, 0, h - 1) * w;
    int lo = w < 3 ? w : 3, hi = w - 3 > lo ? w - 3 : lo; /* the inside: [lo, hi) */
#define EDGE(x) o[x] = want_max ? WINDOW7(MAX_, r, x, CLAMPED) : WINDOW7(MIN_, r, x, CLAMPED)
    for (int x = 0; x < lo; x++)
        EDGE(x);
    for (int x = hi; x < w; x++)
        EDGE(x);
#undef EDGE
    if (want_max) {
#pragma omp simd
        for (int x = lo; x < hi; x++)
            o[x] = WINDOW7(MAX_, r, x, INSIDE);
    } else {
#pragma omp simd
        for (int x = lo; x < hi; x++)
            o[x] = WINDOW7(MIN_, r, x, INSIDE);
    }
}

#define MEDIAN_AT(r, x0, x1, x2, x3, x4, result) \
    { \
        unsigned char p0 = r[0][x0], p1 = r[0][x1], p2 = r[0][x2], p3 = r[0][x3], p4 = r[0][x4]; \
        unsigned char p5 = r[1][x0], p6 = r[1][x1], p7 = r[1][x2], p8 = r[1][x3], p9 = r[1][x4]; \
        unsigned char p10 = r[2][x0], p11 = r[2][x1], p12 = r[2][x2], p13 = r[2][x3], p14 = r[2][x4]; \
        unsigned char p15 = r[3][x0], p16 = r[3][x1], p17 = r[3][x2], p18 = r[3][x3], p19 = r[3][x4]; \
        unsigned char p20 = r[4][x0], p21 = r[4][x1], p22 = r[4][x2], p23 = r[4][x3], p24 = r[4][x4]; \
        MEDIAN25_NETWORK \
        result = p12; \
    }

static void median_twin_row(const unsigned char *in, int w, int h, int y, unsigned char *o)
{
    const unsigned char *r[5];
    for (int k = 0; k < 5; k++)
        r[k] = in + (size_t)clampi(y + k - 2, 0, h - 1) * w;
    int lo = w < 2 ? w : 2, hi = w - 2 > lo ? w - 2 : lo; /* the inside: [lo, hi) */
#define EDGE(x) MEDIAN_AT(r, CLAMPED(x - 2), CLAMPED(x - 1), x, CLAMPED(x + 1), CLAMPED(x + 2), o[x])
    for (int x = 0; x < lo; x++)
        EDGE(x)
    for (int x = hi; x < w; x++)
        EDGE(x)
#undef EDGE
#pragma omp simd
    for (int x = lo; x < hi; x++)
        MEDIAN_AT(r, x - 2, x - 1, x, x + 1, x + 2, o[x])
}

static int filter_twin(bench_ctx *b)
{
    filter_host *fh = b->host;
    const unsigned char *restrict in = fh->in;
    unsigned char *restrict out = fh->out;
    const int w = fh->w, h = fh->h, v = b->variant;
    const long n = (long)w * h;
    switch (v) {
    case ERODE7:
    case DILATE7:
#pragma omp parallel for schedule(static)
        for (int y = 0; y < h; y++)
            morph_twin_row(in, w, h, y, v == DILATE7, out + (size_t)y * w);
        break;
    case MEDIAN5:
#pragma omp parallel for schedule(static)
        for (int y = 0; y < h; y++)
            median_twin_row(in, w, h, y, out + (size_t)y * w);
        break;
    case IN_RANGE: {
        const cl_uchar4 lo = range_lo, hi = range_hi;
        /* the six tests all made (&, not &&), so the loop has no branch and vectorises */
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++)
            out[i] = (in[4 * i] >= lo.s[0]) & (in[4 * i] <= hi.s[0]) & (in[4 * i + 1] >= lo.s[1]) &
                             (in[4 * i + 1] <= hi.s[1]) & (in[4 * i + 2] >= lo.s[2]) & (in[4 * i + 2] <= hi.s[2])
                         ? 255
                         : 0;
        break;
    }
    case TRANSPOSE: /* 32x32 blocks, so both sides stay in the cache */
#pragma omp parallel for collapse(2) schedule(static)
        for (int by = 0; by < h; by += 32)
            for (int bx = 0; bx < w; bx += 32)
                for (int x = bx; x < bx + 32 && x < w; x++)
                    for (int y = by; y < by + 32 && y < h; y++)
                        out[(size_t)x * h + y] = in[(size_t)y * w + x];
        break;
    case SPLIT3:
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++) {
            out[i] = in[4 * i];
            out[n + i] = in[4 * i + 1];
            out[2 * n + i] = in[4 * i + 2];
        }
        break;
    case FLIP:
#pragma omp parallel for schedule(static)
        for (int y = 0; y < h; y++) {
            const unsigned char *s = in + (size_t)y * w;
            unsigned char *d = out + (size_t)y * w;
#pragma omp simd
            for (int x = 0; x < w; x++)
                d[w - 1 - x] = s[x];
        }
        break;
    case SUM_U8: {
        uint64_t s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
        for (long i = 0; i < n; i++)
            s += in[i];
        fh->sum = s;
        break;
    }
    }
    return 0;
}

static int filter_twin_check(bench_ctx *b)
{
    filter_host *fh = b->host;
    return b->variant == SUM_U8 ? check_sum(b, fh->sum, fh->ref_sum) : check_bytes(b, fh, fh->out);
}

/* ---- OpenCL ---- */

static size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

static int filter_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    filter_host *fh = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    int v = b->variant;
    cl_int w = fh->w, h = fh->h;
    size_t n = (size_t)w * h;
    if (bench_needs_group(b, p, 256) || !(s->k[0] = bench_kernel(b, p, source, kernel_name[v])) ||
        !(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, fh->in_bytes, fh->in)))
        return -1;
    if (v == SUM_U8) {
        cl_uint count = (cl_uint)n;
        if (!(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, SUM_GROUPS * sizeof(cl_uint), NULL)))
            return -1;
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(count));
    }
    if (v == SPLIT3) {
        for (int c = 1; c <= 3; c++)
            if (!(s->m[c] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, n, NULL)))
                return -1;
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(s->m[2]), ARG(s->m[3]), ARG(w), ARG(h));
    }
    if (!(s->m[1] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, n, NULL)))
        return -1;
    if (v == IN_RANGE)
        return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(w), ARG(h), ARG(range_lo), ARG(range_hi));
    return BENCH_ARGS(b, s->k[0], ARG(s->m[0]), ARG(s->m[1]), ARG(w), ARG(h));
}

/* The launch a library makes: whole 16x16 (transpose: 32x8) groups over the
 * image for the tiled kernels; for the others the image's size, 4 rows a
 * work-item, and the device's choice of local size. */
static int filter_run(bench_ctx *b, bench_platform *p, void *dev)
{
    filter_host *fh = b->host;
    bench_simple *s = dev;
    size_t w = (size_t)fh->w, h = (size_t)fh->h;
    size_t global[2], local[2] = { 16, 16 };
    const size_t *lp = local;
    cl_uint dims = 2;
    switch (b->variant) {
    case ERODE7:
    case DILATE7:
    case MEDIAN5:
        global[0] = round_up(w, 16), global[1] = round_up(h, 16);
        break;
    case TRANSPOSE:
        global[0] = round_up(w, 32), global[1] = round_up(h, 32) / 4, local[0] = 32, local[1] = 8;
        break;
    case SUM_U8:
        dims = 1, global[0] = SUM_GROUPS * SUM_GROUP, local[0] = SUM_GROUP;
        break;
    default:
        global[0] = w, global[1] = (h + ROWS_PER_ITEM - 1) / ROWS_PER_ITEM, lp = NULL;
    }
    if (bench_launch(b, p, s->k[0], dims, global, lp))
        return -1;
    if (b->variant != SUM_U8)
        return bench_finish(b, p);
    /* as reduce's run: the groups' sums read back and added */
    if (bench_read(b, p, s->m[1], SUM_GROUPS * sizeof(cl_uint), fh->partial))
        return -1;
    uint64_t total = 0;
    for (int g = 0; g < SUM_GROUPS; g++)
        total += fh->partial[g];
    s->value = (double)total;
    return 0;
}

static int filter_cl_check(bench_ctx *b, bench_platform *p, void *dev)
{
    filter_host *fh = b->host;
    bench_simple *s = dev;
    size_t n = (size_t)fh->w * fh->h;
    switch (b->variant) {
    case SUM_U8:
        return check_sum(b, (uint64_t)s->value, fh->ref_sum);
    case SPLIT3:
        for (int c = 0; c < 3; c++)
            if (bench_read(b, p, s->m[1 + c], n, fh->out + c * n))
                return -1;
        break;
    default:
        if (bench_read(b, p, s->m[1], n, fh->out))
            return -1;
    }
    return check_bytes(b, fh, fh->out);
}

const bench_ops filter_ops = {
    .setup = filter_setup,
    .teardown = filter_teardown,
    .twin = filter_twin,
    .twin_check = filter_twin_check,
    .cl_prepare = filter_prepare,
    .cl_run = filter_run,
    .cl_check = filter_cl_check,
    .cl_release = bench_simple_release,
};
