/* Kernels on bytes in the shapes of image filters, against plain C:
 * barrier kernels whose rows widen on integer loops (a min over a window of
 * a __local tile loaded with clamped coordinates, a sum of bytes in a
 * strided loop with a `uint` index and a tree), kernels widened whole on
 * bytes (a range test of uchar4 pixels against uchar4 arguments, a mirrored
 * row, clamped reads along a row), uint indices one below an id (which
 * wrap in an inactive lane), and the scalar min, max and clamp of chars
 * and shorts.  Each runs through the general K.wg and, for barrier
 * kernels, the K.wg built for its group's size.
 * usage: test_byte_kernels [case|--list]   (test_byte_kernels.list; none: all) */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_byte_kernels.list"
#include "compiler_host.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

static unsigned char pixel(size_t i, unsigned seed) { return (unsigned char)((i * 2654435761u + seed * 40503u) >> 11); }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The K.wg of kernel `name` built for `local` (asked for twice: the second request builds). */
static mosaic_wg_fn one_size(mosaic_executable *exe, const char *name, const size_t local[3])
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    if (!k)
        return NULL;
    mosaic_executable_wg_for_size(exe, k, local, 2, true);
    mosaic_wg_fn fn = mosaic_executable_wg_for_size(exe, k, local, 2, true).whole;
    CHECK(fn, "%s: a build for %zux%zu groups", name, local[0], local[1]);
    return fn;
}

TEST(byte_rows)
{
    /* Rows of a 2D group widen between barriers on the window's byte
     * minimum (a loop that carries a uchar), the tile's clamped loads a
     * vector where the row lies inside the image; the sum's loop carries a
     * uint.  Images whose sides no group divides (guards after the last
     * barrier), and narrow ones where every row's clamps bite. */
    const char *src =
        "kernel void erode5(global const uchar *src, global uchar *dst, int w, int h) {\n"
        "  local uchar t[20][20];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);\n"
        "  int x0 = get_group_id(0) * nx - 2, y0 = get_group_id(1) * ny - 2;\n"
        "  for (int ty = ly; ty < ny + 4; ty += ny)\n"
        "    for (int tx = lx; tx < nx + 4; tx += nx)\n"
        "      t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  if (x >= w || y >= h)\n"
        "    return;\n"
        "  uchar m = 255;\n"
        "  for (int dy = 0; dy < 5; dy++)\n"
        "    for (int dx = 0; dx < 5; dx++)\n"
        "      m = min(m, t[ly + dy][lx + dx]);\n"
        "  dst[y * w + x] = m;\n"
        "}\n"
        "kernel void sum_bytes(global const uchar *src, global uint *partial, uint n) {\n"
        "  local uint t[256];\n"
        "  uint l = get_local_id(0), s = 0;\n"
        "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
        "    s += src[i];\n"
        "  t[l] = s;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (uint k = get_local_size(0) / 2; k > 0; k /= 2) {\n"
        "    if (l < k)\n"
        "      t[l] += t[l + k];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  if (l == 0)\n"
        "    partial[get_group_id(0)] = t[0];\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { MAXW = 70, MAXH = 37 };
    static unsigned char in[MAXW * MAXH], out[MAXW * MAXH], ref[MAXW * MAXH];
    /* image w x h, groups lx x ly */
    const int shapes[][4] = {{70, 37, 16, 16}, {70, 37, 16, 4}, {37, 20, 8, 2}, {5, 9, 16, 16}, {3, 3, 4, 4}};
    for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        int w = shapes[c][0], h = shapes[c][1];
        size_t local[3] = {(size_t)shapes[c][2], (size_t)shapes[c][3], 1};
        for (int i = 0; i < w * h; i++)
            in[i] = pixel((size_t)i, c);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int m = 255;
                for (int dy = -2; dy <= 2; dy++)
                    for (int dx = -2; dx <= 2; dx++) {
                        int v = in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                        m = v < m ? v : m;
                    }
                ref[y * w + x] = (unsigned char)m;
            }
        mosaic_wg_fn fn = one_size(exe, "erode5", local);
        for (int built = 0; built < 2; built++) { /* the general K.wg, then the one for this size */
            memset(out, 0xee, sizeof out);
            const unsigned char *pi = in;
            unsigned char *po = out;
            ndrange r = {.dim = 2,
                         .global = {(w + local[0] - 1) / local[0] * local[0], (h + local[1] - 1) / local[1] * local[1]},
                         .local = {local[0], local[1]},
                         .whole = built ? fn : NULL};
            run_kernel(exe, "erode5", ARGS(&pi, &po, &w, &h), &r);
            int bad = 0, first = -1;
            for (int i = 0; i < w * h; i++)
                if (out[i] != ref[i] && !bad++)
                    first = i;
            CHECK(!bad, "erode5, %dx%d image, %zux%zu groups (%s): %d wrong (first %d: %u, want %u)", w, h, local[0],
                  local[1], built ? "built for the size" : "general", bad, first, first >= 0 ? out[first] : 0,
                  first >= 0 ? ref[first] : 0);
        }
    }

    enum { N = 5000, GROUPS = 3 };
    static unsigned char bytes[N];
    uint64_t total = 0;
    for (int i = 0; i < N; i++)
        total += bytes[i] = pixel((size_t)i, 9);
    size_t sizes[] = {256, 64, 16};
    for (unsigned c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        size_t local[3] = {sizes[c], 1, 1};
        mosaic_wg_fn fn = one_size(exe, "sum_bytes", local);
        for (int built = 0; built < 2; built++) {
            uint32_t partial[GROUPS] = {0};
            const unsigned char *pb = bytes;
            uint32_t *pp = partial;
            cl_uint n = N;
            uint64_t t_offset = 0;
            ndrange r = {.dim = 1, .global = {GROUPS * sizes[c]}, .local = {sizes[c]}, .whole = built ? fn : NULL};
            run_kernel(exe, "sum_bytes", ARGS(&pb, &pp, &n, &t_offset), &r);
            uint64_t got = 0;
            for (int g = 0; g < GROUPS; g++) { /* each group's own sum: work-items g*size.. step GROUPS*size */
                uint32_t want = 0;
                for (size_t i = g * sizes[c]; i < N; i += GROUPS * sizes[c])
                    for (size_t j = i; j < i + sizes[c] && j < N; j++)
                        want += bytes[j];
                CHECK(partial[g] == want, "sum_bytes, groups of %zu (%s): group %d sums to %u, expected %u",
                      sizes[c], built ? "built for the size" : "general", g, partial[g], want);
                got += partial[g];
            }
            CHECK(got == total, "sum_bytes, groups of %zu: %llu, expected %llu", sizes[c], (unsigned long long)got,
                  (unsigned long long)total);
        }
    }
    mosaic_executable_free(exe);
}

TEST(widened_bytes)
{
    /* Kernels whose own loop runs over rows or taps, widened whole on
     * bytes: uchar4 bounds passed by value (elements of a vector argument)
     * and a chain of ifs on each channel; a row read and written mirrored
     * (w - 1 - x); reads along a row at clamped x.  Widths that are not a
     * multiple of the lanes, and narrow images where the clamps bite. */
    const char *src =
        "kernel void in_range(global const uchar4 *src, global uchar *dst, int w, int h, uchar4 lo, uchar4 hi) {\n"
        "  int x = get_global_id(0), y0 = get_global_id(1) * 3;\n"
        "  if (x >= w)\n"
        "    return;\n"
        "  for (int y = y0; y < min(y0 + 3, h); y++) {\n"
        "    uchar4 p = src[y * w + x];\n"
        "    uchar m = 255;\n"
        "    if (p.x < lo.x || p.x > hi.x)\n"
        "      m = 0;\n"
        "    else if (p.y < lo.y || p.y > hi.y)\n"
        "      m = 1;\n"
        "    else if (p.z < lo.z || p.z > hi.z)\n"
        "      m = 2;\n"
        "    dst[y * w + x] = m;\n"
        "  }\n"
        "}\n"
        "kernel void mirror(global const uchar *src, global uchar *dst, int w, int h) {\n"
        "  int x = get_global_id(0), y0 = get_global_id(1) * 2;\n"
        "  if (x >= w)\n"
        "    return;\n"
        "  for (int y = y0; y < min(y0 + 2, h); y++)\n"
        "    dst[y * w + w - 1 - x] = (uchar)(src[y * w + w - 1 - x] * 3 + src[y * w + x]);\n"
        "}\n"
        "kernel void taps(global const uchar *src, global ushort *dst, int w, int h) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  if (x >= w || y >= h)\n"
        "    return;\n"
        "  uint s = 0;\n"
        "  for (int k = -3; k <= 3; k++)\n"
        "    s += src[y * w + clamp(x + k, 0, w - 1)] * (uint)(k + 4);\n"
        "  dst[y * w + x] = (ushort)s;\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    const char *names[] = {"in_range", "mirror", "taps"};
    for (int k = 0; k < 3; k++) {
        const mosaic_kernel_info *ki = mosaic_executable_find_kernel(exe, names[k]);
        CHECK(ki && ki->widened_lanes >= 16, "%s: widened whole, %u lanes", names[k], ki ? ki->widened_lanes : 0);
    }
    enum { MAXW = 300, MAXH = 7 };
    static unsigned char in[4 * MAXW * MAXH], out[MAXW * MAXH], ref[MAXW * MAXH];
    static uint16_t out16[MAXW * MAXH], ref16[MAXW * MAXH];
    cl_uchar4 lo = {{40, 60, 80, 0}}, hi = {{200, 180, 220, 255}};
    const int widths[] = {300, 129, 17, 5, 1};
    for (unsigned c = 0; c < sizeof widths / sizeof *widths; c++) {
        int w = widths[c], h = MAXH;
        for (int i = 0; i < 4 * w * h; i++)
            in[i] = pixel((size_t)i, c + 20);
        size_t lx = w >= 64 ? 64 : 16;
        size_t gx = ((size_t)w + lx - 1) / lx * lx;
        const unsigned char *pi = in;
        unsigned char *po = out;

        for (int i = 0; i < w * h; i++) {
            const unsigned char *p = &in[4 * i];
            ref[i] = p[0] < lo.s[0] || p[0] > hi.s[0]   ? 0
                     : p[1] < lo.s[1] || p[1] > hi.s[1] ? 1
                     : p[2] < lo.s[2] || p[2] > hi.s[2] ? 2
                                                        : 255;
        }
        memset(out, 0xee, sizeof out);
        ndrange r = {.dim = 2, .global = {gx, ((size_t)h + 2) / 3}, .local = {lx, 1}};
        run_kernel(exe, "in_range", ARGS(&pi, &po, &w, &h, &lo, &hi), &r);
        CHECK(!memcmp(out, ref, (size_t)(w * h)), "in_range, width %d: wrong", w);

        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                ref[y * w + w - 1 - x] = (unsigned char)(in[y * w + w - 1 - x] * 3 + in[y * w + x]);
        memset(out, 0xee, sizeof out);
        r = (ndrange){.dim = 2, .global = {gx, ((size_t)h + 1) / 2}, .local = {lx, 1}};
        run_kernel(exe, "mirror", ARGS(&pi, &po, &w, &h), &r);
        CHECK(!memcmp(out, ref, (size_t)(w * h)), "mirror, width %d: wrong", w);

        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                unsigned s = 0;
                for (int k = -3; k <= 3; k++)
                    s += in[y * w + clampi(x + k, 0, w - 1)] * (unsigned)(k + 4);
                ref16[y * w + x] = (uint16_t)s;
            }
        memset(out16, 0xee, sizeof out16);
        uint16_t *p16 = out16;
        r = (ndrange){.dim = 2, .global = {gx, (size_t)h}, .local = {lx, 1}};
        run_kernel(exe, "taps", ARGS(&pi, &p16, &w, &h), &r);
        CHECK(!memcmp(out16, ref16, (size_t)(w * h) * sizeof *out16), "taps, width %d: wrong", w);
    }
    mosaic_executable_free(exe);
}

TEST(small_min_max)
{
    /* min, max and clamp of scalar chars and shorts (compare and select,
     * at their own width): every pair of a set of edge values. */
    const char *src =
        "#define K(T) kernel void k_##T(global const T *a, global const T *b, global T *out, int n) {\\\n"
        "  int i = get_global_id(0), j = get_global_id(1);\\\n"
        "  T x = a[i], y = b[j];\\\n"
        "  out[(i * n + j) * 3] = min(x, y);\\\n"
        "  out[(i * n + j) * 3 + 1] = max(x, y);\\\n"
        "  out[(i * n + j) * 3 + 2] = clamp(x, min(y, b[0]), max(y, b[0]));\\\n"
        "}\n"
        "K(char) K(uchar) K(short) K(ushort)\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = 8 };
    static const int values[4][N] = {{-128, -1, 0, 1, 5, 63, 126, 127},
                                     {0, 1, 2, 127, 128, 129, 254, 255},
                                     {-32768, -300, -1, 0, 1, 255, 256, 32767},
                                     {0, 1, 255, 256, 32767, 32768, 65534, 65535}};
    static const char *const types[4] = {"char", "uchar", "short", "ushort"};
    for (int t = 0; t < 4; t++) {
        size_t size = t < 2 ? 1 : 2;
        unsigned char a[N * 2], out[N * N * 3 * 2];
        for (int i = 0; i < N; i++)
            memcpy(a + i * size, size == 1 ? (void *)&(int8_t){(int8_t)values[t][i]} : (void *)&(int16_t){(int16_t)values[t][i]},
                   size);
        const unsigned char *pa = a;
        unsigned char *po = out;
        int n = N;
        char name[16];
        snprintf(name, sizeof name, "k_%s", types[t]);
        ndrange r = {.dim = 2, .global = {N, N}, .local = {N, 1}};
        run_kernel(exe, name, ARGS(&pa, &pa, &po, &n), &r);
        int bad = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int x = values[t][i], y = values[t][j], b0 = values[t][0];
                int lo = y < b0 ? y : b0, hi = y > b0 ? y : b0;
                int want[3] = {x < y ? x : y, x > y ? x : y, x < lo ? lo : x > hi ? hi : x};
                for (int k = 0; k < 3; k++) {
                    size_t at = ((size_t)(i * N + j) * 3 + (size_t)k) * size;
                    int got = size == 1 ? (t == 0 ? (int)(int8_t)out[at] : out[at])
                                        : (t == 2 ? (int)(int16_t)(out[at] | out[at + 1] << 8)
                                                  : (int)(uint16_t)(out[at] | out[at + 1] << 8));
                    bad += got != want[k];
                }
            }
        CHECK(!bad, "min, max and clamp of %s: %d wrong", types[t], bad);
    }
    mosaic_executable_free(exe);
}

TEST(unsigned_wraps)
{
    /* A uint index one below a local or global id, read only where the id
     * is not 0: instcombine's `(l - 1) & 0xffffffff` is 0xffffffff at l = 0,
     * an inactive lane, so lane 0's address is not where the row's others
     * follow from (a vector load from it read 16 GiB past the tile).  In a
     * row widened between barriers (its loop carries a uint) and in a
     * kernel widened whole. */
    const char *src =
        "kernel void left_sums(global const uint *in, global uint *out, local uint *s) {\n"
        "  uint l = get_local_id(0), base = get_global_id(0) * 4, t = 0;\n"
        "  for (int k = 0; k < 4; k++)\n"
        "    t += in[base + k];\n"
        "  s[l] = t;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(0)] = l ? s[l - 1] : 1000000u;\n"
        "}\n"
        "kernel void before(global const uchar *in, global uint *out) {\n"
        "  uint x = get_global_id(0), s = 0;\n"
        "  for (uint k = 0; k < 3; k++)\n"
        "    s += x ? in[x - 1 + k] : 7u;\n"
        "  out[x] = s;\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = 256 };
    static uint32_t in[4 * N], out[N];
    static unsigned char bytes[N + 2];
    for (int i = 0; i < 4 * N; i++)
        in[i] = (uint32_t)(i % 13);
    for (int i = 0; i < N + 2; i++)
        bytes[i] = pixel((size_t)i, 5);
    size_t sizes[] = {64, 16};
    for (unsigned c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        size_t local[3] = {sizes[c], 1, 1};
        mosaic_wg_fn fn = one_size(exe, "left_sums", local);
        for (int built = 0; built < 2; built++) {
            memset(out, 0, sizeof out);
            const uint32_t *pi = in;
            uint32_t *po = out;
            uint64_t s_offset = 0;
            ndrange r = {.dim = 1, .global = {N}, .local = {sizes[c]}, .local_arg_bytes = sizes[c] * 4,
                         .whole = built ? fn : NULL};
            run_kernel(exe, "left_sums", ARGS(&pi, &po, &s_offset), &r);
            int bad = 0;
            for (int i = 0; i < N; i++) {
                uint32_t want = 1000000u;
                if (i % (int)sizes[c])
                    want = in[4 * i - 4] + in[4 * i - 3] + in[4 * i - 2] + in[4 * i - 1];
                bad += out[i] != want;
            }
            CHECK(!bad, "left_sums, groups of %zu (%s): %d wrong", sizes[c], built ? "built for the size" : "general",
                  bad);
        }
    }
    memset(out, 0, sizeof out);
    const unsigned char *pb = bytes;
    uint32_t *po = out;
    ndrange r = {.dim = 1, .global = {N}, .local = {64}};
    run_kernel(exe, "before", ARGS(&pb, &po), &r);
    int bad = 0;
    for (int x = 0; x < N; x++) {
        uint32_t want = 0;
        for (int k = 0; k < 3; k++)
            want += x ? bytes[x - 1 + k] : 7u;
        bad += out[x] != want;
    }
    CHECK(!bad, "before: %d wrong", bad);
    mosaic_executable_free(exe);
}

/* What a build for one group size said (MOSAIC_DEBUG=build, this case's
 * list entry): kernel `name`'s K.wg for `local`, its lines in text. */
static mosaic_wg_fn one_size_saying(mosaic_executable *exe, const char *name, const size_t local[3], char *text,
                                    size_t size)
{
    test_stderr_capture c;
    text[0] = 0;
    if (!test_capture_stderr(&c))
        return NULL;
    mosaic_wg_fn fn = one_size(exe, name, local);
    test_captured_stderr(&c, text, size);
    return fn;
}

TEST(row_blocks)
{
    /* Rows narrower than a machine vector widen several at once between
     * barriers (wfv_rows.c): 16x16 groups of bytes 4 rows, 8x8 8 rows, 4x16
     * 16 rows; of floats, 8x8 2 rows, 4x16 4 rows and 16x16 one.  Tiles
     * loaded with their halo by loops in step over the tile's lines (an if
     * on what each row shares around a loop, the last lines' rows only),
     * a median of 3x3 over the tile by a sorting network (arithmetic enough
     * to widen several rows), a row read mirrored, a per-row
     * value read after the guard, a loop each row goes round as often as
     * its ly says, a sum only the first rows make (used after their if), a
     * store each row makes at one address; images whose sides no group
     * divides.  And a chain of multiply-adds on rows of 8 floats, 2 rows at
     * once in a y loop of 16 iterations, 8 of them interleaved. */
    const char *src =
        "#define CEB(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }\n"
        "#define CEF(a, b) { float t_ = fmin(a, b); b = fmax(a, b); a = t_; }\n"
        "#define EVEN(CE) CE(p0, p1) CE(p2, p3) CE(p4, p5) CE(p6, p7)\n"
        "#define ODD(CE) CE(p1, p2) CE(p3, p4) CE(p5, p6) CE(p7, p8)\n" /* 9 passes of them sort 9 values */
        "#define SORT9(CE) EVEN(CE) ODD(CE) EVEN(CE) ODD(CE) EVEN(CE) ODD(CE) EVEN(CE) ODD(CE) EVEN(CE)\n"
        "#define WINDOW(T, dy, dx) T p0 = t[ly + dy][lx + dx], p1 = t[ly + dy][lx + dx + 1], p2 = t[ly + dy][lx + dx + 2], \\\n"
        "  p3 = t[ly + dy + 1][lx + dx], p4 = t[ly + dy + 1][lx + dx + 1], p5 = t[ly + dy + 1][lx + dx + 2], \\\n"
        "  p6 = t[ly + dy + 2][lx + dx], p7 = t[ly + dy + 2][lx + dx + 1], p8 = t[ly + dy + 2][lx + dx + 2];\n"
        "kernel void median3b(global const uchar *src, global uchar *dst, global const uchar *key, int w, int h) {\n"
        "  local uchar t[22][22];\n" /* a halo of 3: the last lines' loads are some rows' of a block of rows */
        "  int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);\n"
        "  int x0 = get_group_id(0) * nx - 3, y0 = get_group_id(1) * ny - 3;\n"
        "  for (int ty = ly; ty < ny + 6; ty += ny)\n"
        "    for (int tx = lx; tx < nx + 6; tx += nx)\n"
        "      t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  if (x >= w || y >= h)\n"
        "    return;\n"
        "  WINDOW(uchar, 2, 2)\n"
        "  SORT9(CEB)\n"
        "  dst[y * w + x] = p4 ^ key[y & 7] ^ t[ly + 3][nx + 5 - lx];\n"
        "}\n"
        "kernel void median3(global const float *src, global float *dst, global const float *wrow, global float *sums,\n"
        "                    int w, int h) {\n"
        "  local float t[18][18];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);\n"
        "  int x0 = get_group_id(0) * nx - 1, y0 = get_group_id(1) * ny - 1;\n"
        "  for (int ty = ly; ty < ny + 2; ty += ny)\n"
        "    for (int tx = lx; tx < nx + 2; tx += nx)\n"
        "      t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  float extra = 0.0f;\n"
        "  if (ly < 3)\n"
        "    for (int k = 0; k < nx; k++)\n"
        "      extra += t[ly + 1][k + 1] + 1.0f;\n"
        "  sums[get_global_id(1) * get_num_groups(0) + get_group_id(0)] = extra;\n"
        "  WINDOW(float, 0, 0)\n"
        "  SORT9(CEF)\n"
        "  float s = p4;\n"
        "  for (int i = 0; i < ly % 3; i++)\n"
        "    s += t[ly + 1][lx + 1];\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  if (x >= w || y >= h)\n"
        "    return;\n"
        "  dst[y * w + x] = s * wrow[y] + extra + t[ly + 1][nx - lx];\n"
        "}\n"
        "kernel void poly(global const float *a, global float *c) {\n" /* 8x32 groups */
        "  local float t[32][8];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1);\n"
        "  t[ly][lx] = a[get_global_id(1) * get_global_size(0) + get_global_id(0)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  float v = t[31 - ly][lx], s = 1.0f;\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < 16; k++)\n"
        "    s = s * v + (float)k;\n"
        "  c[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s;\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { MAXW = 70, MAXH = 37, MAXG = 64 };
    static unsigned char in[MAXW * MAXH], out[MAXW * MAXH], ref[MAXW * MAXH], key[8];
    static float fin[MAXW * MAXH], fout[MAXW * MAXH], fref[MAXW * MAXH], wrow[MAXG], sums[MAXG * MAXG],
        sref[MAXG * MAXG];
    static char text[8192];
    for (int i = 0; i < 8; i++)
        key[i] = pixel((size_t)i, 77);
    for (int i = 0; i < MAXG; i++)
        wrow[i] = (float)(i % 5 + 1);
    /* group x, y; what the builds say (rows at once, lanes) for bytes and floats */
    const struct { size_t nx, ny; const char *bytes, *floats; } groups[] = {
        {16, 16, "rows of 16 widened, 4 rows (64 work-items) at once",
         "rows of 16 not widened several at once: a row fills a machine vector of its widest varying value"},
        {8, 8, "rows of 8 widened, 8 rows (64 work-items) at once",
         "rows of 8 widened, 2 rows (16 work-items) at once"},
        {4, 16, "rows of 4 widened, 16 rows (64 work-items) at once",
         "rows of 4 widened, 4 rows (16 work-items) at once"},
    };
    const int images[][2] = {{70, 37}, {37, 29}, {5, 9}};
    for (unsigned g = 0; g < sizeof groups / sizeof *groups; g++) {
        size_t local[3] = {groups[g].nx, groups[g].ny, 1};
        mosaic_wg_fn bytes_fn = one_size_saying(exe, "median3b", local, text, sizeof text);
        CHECK(strstr(text, groups[g].bytes), "median3b, %zux%zu groups: no \"%s\" in:\n%s", local[0], local[1],
              groups[g].bytes, text);
        mosaic_wg_fn floats_fn = one_size_saying(exe, "median3", local, text, sizeof text);
        CHECK(strstr(text, groups[g].floats), "median3, %zux%zu groups: no \"%s\" in:\n%s", local[0], local[1],
              groups[g].floats, text);
        for (unsigned c = 0; c < sizeof images / sizeof *images; c++) {
            int w = images[c][0], h = images[c][1], nx = (int)local[0], ny = (int)local[1];
            size_t gx = ((size_t)w + local[0] - 1) / local[0] * local[0];
            size_t gy = ((size_t)h + local[1] - 1) / local[1] * local[1];
            int groups_x = (int)(gx / local[0]);
            for (int i = 0; i < w * h; i++)
                in[i] = pixel((size_t)i, c + 3 * g), fin[i] = (float)(in[i] % 16);
#define AT(img, yy, xx) img[clampi(yy, 0, h - 1) * w + clampi(xx, 0, w - 1)]
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    int lx = x % nx, ly = y % ny;
                    unsigned char b[9];
                    float v[9], extra = 0.0f;
                    for (int n = 0; n < 9; n++) { /* insertion sorts */
                        unsigned char e = AT(in, y + n / 3 - 1, x + n % 3 - 1);
                        float f = AT(fin, y + n / 3 - 1, x + n % 3 - 1);
                        int j = n;
                        for (; j > 0 && b[j - 1] > e; j--)
                            b[j] = b[j - 1];
                        b[j] = e;
                        for (j = n; j > 0 && v[j - 1] > f; j--)
                            v[j] = v[j - 1];
                        v[j] = f;
                    }
                    ref[y * w + x] = (unsigned char)(b[4] ^ key[y & 7] ^ AT(in, y, x - lx + nx + 2 - lx));
                    float s = v[4] + (float)(ly % 3) * AT(fin, y, x);
                    for (int k = 0; ly < 3 && k < nx; k++)
                        extra += AT(fin, y, x - lx + k) + 1.0f;
                    fref[y * w + x] = s * wrow[y] + extra + AT(fin, y, x - lx + nx - 1 - lx);
                }
            for (int y = 0; y < (int)gy; y++)
                for (int b = 0; b < groups_x; b++) {
                    float extra = 0.0f;
                    for (int k = 0; y % ny < 3 && k < nx; k++)
                        extra += AT(fin, y, b * nx + k) + 1.0f;
                    sref[y * groups_x + b] = extra;
                }
#undef AT
            for (int built = 0; built < 2; built++) { /* the general K.wg, then the one for this size */
                ndrange r = {
                    .dim = 2, .global = {gx, gy}, .local = {local[0], local[1]}, .whole = built ? bytes_fn : NULL};
                const unsigned char *pi = in, *pk = key;
                unsigned char *po = out;
                memset(out, 0xee, sizeof out);
                run_kernel(exe, "median3b", ARGS(&pi, &po, &pk, &w, &h), &r);
                int bad = 0, first = -1;
                for (int i = 0; i < w * h; i++)
                    if (out[i] != ref[i] && !bad++)
                        first = i;
                CHECK(!bad, "median3b, %dx%d image, %zux%zu groups (%s): %d wrong (first %d: %u, want %u)", w, h,
                      local[0], local[1], built ? "built for the size" : "general", bad, first,
                      first >= 0 ? out[first] : 0, first >= 0 ? ref[first] : 0);

                const float *pf = fin, *pw = wrow;
                float *pfo = fout, *ps = sums;
                for (int i = 0; i < MAXW * MAXH; i++)
                    fout[i] = -1.0f;
                for (int i = 0; i < MAXG * MAXG; i++)
                    sums[i] = -1.0f;
                r.whole = built ? floats_fn : NULL;
                run_kernel(exe, "median3", ARGS(&pf, &pfo, &pw, &ps, &w, &h), &r);
                bad = 0, first = -1;
                for (int i = 0; i < w * h; i++)
                    if (fout[i] != fref[i] && !bad++)
                        first = i;
                for (int i = 0; i < (int)gy * groups_x; i++)
                    bad += sums[i] != sref[i];
                CHECK(!bad, "median3, %dx%d image, %zux%zu groups (%s): %d wrong (first %d: %g, want %g)", w, h,
                      local[0], local[1], built ? "built for the size" : "general", bad, first,
                      first >= 0 ? fout[first] : 0.0, first >= 0 ? fref[first] : 0.0);
            }
        }
    }
    enum { PW = 16, PH = 64 };
    static float pa[PW * PH], pc[PW * PH];
    for (int i = 0; i < PW * PH; i++)
        pa[i] = (float)(i % 7) * 0.25f - 0.75f;
    size_t local[3] = {8, 32, 1};
    mosaic_wg_fn poly_fn = one_size_saying(exe, "poly", local, text, sizeof text);
    CHECK(strstr(text, "rows of 8 widened, 2 rows (16 work-items) at once") && strstr(text, ", 1 row loop interleaved"),
          "poly, 8x32 groups: not 2 rows at once, interleaved, in:\n%s", text);
    for (int built = 0; built < 2; built++) {
        const float *ppa = pa;
        float *ppc = pc;
        for (int i = 0; i < PW * PH; i++)
            pc[i] = -1.0f;
        ndrange r = {.dim = 2, .global = {PW, PH}, .local = {8, 32}, .whole = built ? poly_fn : NULL};
        run_kernel(exe, "poly", ARGS(&ppa, &ppc), &r);
        int bad = 0;
        for (int y = 0; y < PH; y++)
            for (int x = 0; x < PW; x++) {
                float v = pa[(y / 32 * 32 + 31 - y % 32) * PW + x], want = 1.0f;
                for (int k = 0; k < 16; k++)
                    want = fmaf(want, v, (float)k);
                bad += fabsf(pc[y * PW + x] - want) > 1e-3f * (1.0f + fabsf(want));
            }
        CHECK(!bad, "poly, 8x32 groups (%s): %d wrong", built ? "built for the size" : "general", bad);
    }
    mosaic_executable_free(exe);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
