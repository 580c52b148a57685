/* Kernels whose private arrays are read and written at run-time indices
 * (private_arrays.c makes them values) against plain C: a kernel widened
 * whole (float4 arrays, a bound that stops a loop inside an array, a store
 * at an index read and written in a loop, an index outside any loop), and
 * a BLAS library's register-tiled GEMM, whose rows widen between barriers
 * (its epilogue's arrays under a run-time bound inside an if, its tiles
 * loaded by `v / 4`, `v / 8` and `v % 8` of the linear id: wfv.c,
 * linearize.c, wfv_blocks.c), through the general K.wg and the one built
 * for its 8x8 groups, with matrices whose sides leave partial tiles; and a
 * tile loaded by `v / 8` and `v % 8` with rows that fit in 8 and rows that
 * do not.
 * Values are small integers, so every sum is exact.
 * usage: test_private_arrays [case|--list]   (test_private_arrays.list; none: all) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_private_arrays.list"
#include "compiler_host.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

TEST(whole)
{
    const char *src =
        "kernel void k(global const float4 *a, global float *out, int n, int m) {\n"
        "  int i = get_global_id(0);\n"
        "  float4 v[4];\n"
        "  float h[8];\n"
        "  for (int r = 0; r < 4; r++)\n"
        "    v[r] = a[i * 4 + r];\n"
        "  for (int j = 0; j < 8; j++)\n"
        "    h[j] = 0.0f;\n"
        "  float s = 0.0f;\n"
        "  for (int k = 0; k < n; k++) {\n"
        "    float4 x = v[k & 3];\n"
        "    s = s * 0.5f + x.x + x.w;\n"
        "    h[(i + k) & 7] += x.y;\n"
        "  }\n"
        "  for (int j = 0; j < 8 && j < m; j++)\n"
        "    s += h[j];\n"
        "  out[i] = s + v[i & 3].z;\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    const mosaic_kernel_info *ki = mosaic_executable_find_kernel(exe, "k");
    CHECK(ki && ki->widened_lanes >= 8, "k: widened whole, %u lanes", ki ? ki->widened_lanes : 0);
    enum { MAXN = 64 };
    static float a[16 * MAXN], out[MAXN], ref[MAXN];
    for (int i = 0; i < 16 * MAXN; i++)
        a[i] = (float)((i * 7) % 11) - 5.0f;
    const int rows[] = {5, 16, 37, 64};
    const int bounds[][2] = {{0, 8}, {3, 5}, {10, 0}, {9, 12}}; /* n, m: m stops at 5 of h's 8 */
    for (unsigned c = 0; c < sizeof rows / sizeof *rows; c++)
        for (unsigned b = 0; b < sizeof bounds / sizeof *bounds; b++) {
            int g = rows[c], n = bounds[b][0], m = bounds[b][1];
            for (int i = 0; i < g; i++) {
                float h[8] = {0}, s = 0.0f;
                const float *v = &a[16 * i];
                for (int k = 0; k < n; k++) {
                    s = s * 0.5f + v[4 * (k & 3)] + v[4 * (k & 3) + 3];
                    h[(i + k) & 7] += v[4 * (k & 3) + 1];
                }
                for (int j = 0; j < 8 && j < m; j++)
                    s += h[j];
                ref[i] = s + v[4 * (i & 3) + 2];
            }
            memset(out, 0, sizeof out);
            const float *pa = a;
            float *po = out;
            ndrange r = {.dim = 1, .global = {(size_t)g}, .local = {(size_t)g}};
            run_kernel(exe, "k", ARGS(&pa, &po, &n, &m), &r);
            int bad = -1;
            for (int i = 0; i < g && bad < 0; i++)
                if (out[i] != ref[i])
                    bad = i;
            CHECK(bad < 0, "k, row of %d, n %d, m %d: work-item %d: %g, expected %g", g, n, m, bad,
                  bad < 0 ? 0.0 : (double)out[bad], bad < 0 ? 0.0 : (double)ref[bad]);
        }
    mosaic_executable_free(exe);
}

/* C = A B on a padded A (M x K, lda) and B (K x N, ldb), stored for rows
 * below m and columns below nn only: groups of 8x8 work-items on 16x32
 * blocks of C, 2x4 results a work-item (float4 acc[2]); slices of 16 along
 * k, A's stored k-major in the tile (transposed: v / 4, v % 4), B's as it
 * is (v / 8, v % 8). */
static const char *gemm_src =
    "kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
    "void mm(global const float *a, global const float *b, global float *c, int kk, int lda, int ldb, int m,\n"
    "        int nn) {\n"
    "  local float al[16][20], bl[16][36];\n"
    "  int tx = get_local_id(0), ty = get_local_id(1), lid = ty * 8 + tx;\n"
    "  int i0 = get_group_id(1) * 16, j0 = get_group_id(0) * 32;\n"
    "  float4 acc[2];\n"
    "  for (int r = 0; r < 2; r++)\n"
    "    acc[r] = (float4)(0.0f);\n"
    "  for (int p0 = 0; p0 < kk; p0 += 16) {\n"
    "    for (int v = lid; v < 64; v += 64) {\n"
    "      int i = v / 4, p = v % 4 * 4;\n"
    "      float4 x = vload4(0, a + (i0 + i) * lda + p0 + p);\n"
    "      al[p][i] = x.x; al[p + 1][i] = x.y; al[p + 2][i] = x.z; al[p + 3][i] = x.w;\n"
    "    }\n"
    "    for (int v = lid; v < 128; v += 64) {\n"
    "      int p = v / 8, j = v % 8 * 4;\n"
    "      vstore4(vload4(0, b + (p0 + p) * ldb + j0 + j), 0, &bl[p][j]);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int p = 0; p < 16; p++) {\n"
    "      float4 bv = vload4(0, &bl[p][tx * 4]);\n"
    "      acc[0] += al[p][ty * 2] * bv;\n"
    "      acc[1] += al[p][ty * 2 + 1] * bv;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int col = j0 + tx * 4;\n"
    "  for (int r = 0; r < 2; r++) {\n"
    "    int row = i0 + ty * 2 + r;\n"
    "    if (row < m && col + 4 <= nn) {\n"
    "      vstore4(acc[r], 0, c + row * nn + col);\n"
    "    } else if (row < m) {\n"
    "      float e[4] = { acc[r].x, acc[r].y, acc[r].z, acc[r].w };\n"
    "      for (int q = 0; q < 4 && col + q < nn; q++)\n"
    "        c[row * nn + col + q] = e[q];\n"
    "    }\n"
    "  }\n"
    "}\n";

TEST(library_gemm)
{
    mosaic_executable *exe = build_program(gemm_src, "-cl-std=CL2.0");
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "mm");
    CHECK(k && k->uses_barriers && k->wg_fn, "mm: a barrier kernel with a work-group function");
    if (!k || !k->wg_fn) {
        mosaic_executable_free(exe);
        return;
    }
    size_t local[3] = {8, 8, 1};
    mosaic_executable_wg_for_size(exe, k, local, 2, true);
    mosaic_wg_fn fn = mosaic_executable_wg_for_size(exe, k, local, 2, true).whole;
    CHECK(fn, "mm: a build for 8x8 groups");
    enum { MAXM = 48, MAXN = 96, MAXK = 48 };
    static float a[MAXM * MAXK], b[MAXK * MAXN], c[MAXM * MAXN], ref[MAXM * MAXN];
    /* m x nn of C, K: whole tiles, a row and a column short of them, and a
     * float4 of C cut after one, two and three columns */
    const int shapes[][3] = {{32, 64, 32}, {31, 63, 16}, {48, 93, 48}, {17, 34, 16}, {1, 1, 16}};
    for (unsigned s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int m = shapes[s][0], nn = shapes[s][1], kk = shapes[s][2];
        int mp = (m + 15) / 16 * 16, np = (nn + 31) / 32 * 32, lda = kk, ldb = np;
        for (int i = 0; i < mp * kk; i++)
            a[i] = (float)((i * 5 + 3) % 7) - 3.0f;
        for (int i = 0; i < kk * np; i++)
            b[i] = (float)((i * 3 + 1) % 5) - 2.0f;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < nn; j++) {
                float sum = 0.0f;
                for (int p = 0; p < kk; p++)
                    sum += a[i * lda + p] * b[p * ldb + j];
                ref[i * nn + j] = sum;
            }
        for (int built = 0; built < 2; built++) {
            for (int i = 0; i < MAXM * MAXN; i++)
                c[i] = -99.0f; /* what the kernel must not overwrite past C */
            const float *pa = a, *pb = b;
            float *pc = c;
            ndrange r = {.dim = 2, .global = {(size_t)np / 32 * 8, (size_t)mp / 16 * 8}, .local = {8, 8},
                         .whole = built ? fn : NULL};
            run_kernel(exe, "mm", ARGS(&pa, &pb, &pc, &kk, &lda, &ldb, &m, &nn), &r);
            int bad = -1;
            for (int i = 0; i < m * nn && bad < 0; i++)
                if (c[i] != ref[i])
                    bad = i;
            for (int i = m * nn; i < MAXM * MAXN && bad < 0; i++)
                if (c[i] != -99.0f)
                    bad = i;
            CHECK(bad < 0, "mm %dx%d, k %d (%s): element %d: %g, expected %g", m, nn, kk,
                  built ? "built for 8x8 groups" : "general", bad, bad < 0 ? 0.0 : (double)c[bad],
                  bad < 0 || bad >= m * nn ? -99.0 : (double)ref[bad]);
        }
    }
    mosaic_executable_free(exe);
}

TEST(tile_blocks)
{
    /* A tile loaded in steps of the group, `v = lid; v < 256; v += size`,
     * with `v / 8` and `v % 8` (and of v - 8, negative in the first step,
     * where a signed division or remainder is not a shift or a mask):
     * across a row of 4 or 8 lanes v / 8 is the row's and v % 8
     * consecutive (wfv_blocks.c), across rows of 16 and 32 neither.  One
     * kernel a group size (the sizes are constants in K.body), each run
     * through the general K.wg and one built for its size. */
    const char *src =
        "#define TILES(name, W, H) \\\n"
        "kernel __attribute__((reqd_work_group_size(W, H, 1))) \\\n"
        "void name(global const int *in, global int *out, int n) { \\\n"
        "  local int t[256]; \\\n"
        "  int lid = get_local_id(1) * W + get_local_id(0); \\\n"
        "  for (int v = lid; v < 256; v += W * H) \\\n"
        "    t[v] = in[v / 8 * n + v % 8] * 100 + (v - 8) / 8 * 10 + (v - 8) % 8; \\\n"
        "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
        "  int s = 0; \\\n"
        "  for (int k = 0; k < 8; k++) \\\n"
        "    s += t[(lid * 8 + k) % 256] * (k + 1); \\\n"
        "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s; \\\n"
        "}\n"
        "TILES(tiles4, 4, 4)\n"
        "TILES(tiles8, 8, 2)\n"
        "TILES(tiles16, 16, 1)\n"
        "TILES(tiles32, 32, 2)\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = 9, ROWS = 32, MAXG = 64 };
    static int in[ROWS * N], out[MAXG], ref[MAXG], t[256];
    for (int i = 0; i < ROWS * N; i++)
        in[i] = (i * 13) % 17 - 8;
    for (int v = 0; v < 256; v++)
        t[v] = in[v / 8 * N + v % 8] * 100 + (v - 8) / 8 * 10 + (v - 8) % 8;
    const char *names[] = {"tiles4", "tiles8", "tiles16", "tiles32"};
    const size_t sizes[][2] = {{4, 4}, {8, 2}, {16, 1}, {32, 2}};
    for (unsigned c = 0; c < 4; c++) {
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, names[c]);
        size_t local[3] = {sizes[c][0], sizes[c][1], 1}, g = local[0] * local[1];
        if (!k) {
            TEST_FAIL("no kernel %s", names[c]);
            break;
        }
        for (size_t lid = 0; lid < g; lid++) {
            int sum = 0;
            for (int j = 0; j < 8; j++)
                sum += t[(lid * 8 + (size_t)j) % 256] * (j + 1);
            ref[lid] = sum;
        }
        mosaic_executable_wg_for_size(exe, k, local, 2, true);
        mosaic_wg_fn fn = mosaic_executable_wg_for_size(exe, k, local, 2, true).whole;
        CHECK(fn, "%s: a build for %zux%zu groups", names[c], local[0], local[1]);
        for (int built = 0; built < 2; built++) {
            memset(out, 0, sizeof out);
            const int *pi = in;
            int *po = out;
            int n = N;
            ndrange r = {.dim = 2, .global = {local[0], local[1]}, .local = {local[0], local[1]},
                         .whole = built ? fn : NULL};
            run_kernel(exe, names[c], ARGS(&pi, &po, &n), &r);
            int bad = -1;
            for (size_t i = 0; i < g && bad < 0; i++)
                if (out[i] != ref[i])
                    bad = (int)i;
            CHECK(bad < 0, "%s (%s): work-item %d: %d, expected %d", names[c],
                  built ? "built for its size" : "general", bad, bad < 0 ? 0 : out[bad], bad < 0 ? 0 : ref[bad]);
        }
    }
    mosaic_executable_free(exe);
}

TEST(transposed_tile)
{
    /* A library GEMM's tile of A stored transposed: each work-item a float4
     * of a row into four rows of the tile, `t[p + c][v / 4]` with v from
     * the linear id in steps of the group.  Across a row of 8 lanes v / 4
     * and v % 4 vary; v is not negative, so they are a shift and a mask
     * (wfv_blocks.c) and the stores a lane at a time are at constant
     * distances from lane 0 (masked_ops.c).  Then the same with v + off,
     * off an argument the compiler cannot know is not negative (sdiv and
     * srem stay, each lane's address its own), and (v - 8) / 4, (v - 8) % 4
     * (negative for the first lanes) among the values.  Through the general K.wg and the one built for its
     * 8x8 groups. */
    const char *src =
        "#define STORE(u) { int i = (u) / 4, p = (u) % 4 * 4; \\\n"
        "  float4 x = vload4(0, a + (size_t)i * lda + p); \\\n"
        "  t[p][i] = x.x; t[p + 1][i] = x.y + (v - 8) / 4; \\\n"
        "  t[p + 2][i] = x.z + (v - 8) % 4; t[p + 3][i] = x.w; }\n"
        "#define CLEAR for (int e = lid; e < 16 * 68; e += 64) t[e / 68][e % 68] = 0.0f;\n"
        "#define OUT(pass) for (int e = lid; e < 16 * 68; e += 64) out[pass * 16 * 68 + e] = t[e / 68][e % 68];\n"
        "kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
        "void tr(global const float *a, global float *out, int lda, int off) {\n"
        "  local float t[16][68];\n"
        "  int lid = get_local_id(1) * 8 + get_local_id(0);\n"
        "  CLEAR\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (int v = lid; v < 256; v += 64)\n"
        "    STORE(v)\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  OUT(0)\n"
        "  float s = 0.0f; /* a loop carrying a float: the rows widen */\n"
        "  for (int p = 0; p < 16; p++)\n"
        "    s = s * 0.5f + t[p][lid];\n"
        "  out[2 * 16 * 68 + lid] = s;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  CLEAR\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (int v = lid; v < 256; v += 64)\n"
        "    STORE(v + off)\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  OUT(1)\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { LDA = 20, ROWS = 68, TILE = 16 * 68 };
    static float a[ROWS * LDA], out[2 * TILE + 64], ref[2 * TILE + 64];
    for (int i = 0; i < ROWS * LDA; i++)
        a[i] = (float)((i * 7) % 23) - 11.0f;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "tr");
    size_t local[3] = {8, 8, 1};
    mosaic_wg_fn fn = NULL;
    if (k) { /* (the first call may only start the build) */
        mosaic_executable_wg_for_size(exe, k, local, 2, true);
        fn = mosaic_executable_wg_for_size(exe, k, local, 2, true).whole;
    }
    CHECK(fn, "tr: a build for 8x8 groups");
    const int offs[] = {0, 4, 5, 12};
    for (unsigned o = 0; o < sizeof offs / sizeof *offs; o++) {
        int off = offs[o];
        static float t[16][68];
        for (int pass = 0; pass < 2; pass++) {
            memset(t, 0, sizeof t);
            for (int v = 0; v < 256; v++) {
                int w = pass ? v + off : v, i = w / 4, p = w % 4 * 4;
                const float *x = &a[i * LDA + p];
                t[p][i] = x[0], t[p + 1][i] = x[1] + (float)((v - 8) / 4);
                t[p + 2][i] = x[2] + (float)((v - 8) % 4), t[p + 3][i] = x[3];
            }
            memcpy(&ref[pass * TILE], t, sizeof t);
            for (int lid = 0; lid < 64 && !pass; lid++) {
                float sum = 0.0f;
                for (int p = 0; p < 16; p++)
                    sum = sum * 0.5f + t[p][lid];
                ref[2 * TILE + lid] = sum;
            }
        }
        for (int built = 0; built < 2; built++) {
            float *po = out;
            memset(out, 0, sizeof out);
            const float *pa = a;
            int lda = LDA;
            ndrange r = {.dim = 2, .global = {8, 8}, .local = {8, 8}, .whole = built ? fn : NULL};
            run_kernel(exe, "tr", ARGS(&pa, &po, &lda, &off), &r);
            int bad = -1;
            for (int e = 0; e < 2 * TILE + 64 && bad < 0; e++)
                if (out[e] != ref[e])
                    bad = e;
            CHECK(bad < 0, "tr (off %d, %s): element %d: %g, expected %g", off, built ? "built for 8x8" : "general",
                  bad, bad < 0 ? 0.0 : (double)out[bad], bad < 0 ? 0.0 : (double)ref[bad]);
        }
    }
    mosaic_executable_free(exe);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
