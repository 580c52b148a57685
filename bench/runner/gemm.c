/*
 * SGEMM as a BLAS library for OpenCL writes it, with the default (untuned)
 * sizes such a library ships: C = alpha op(A) op(B), row-major, any m, n,
 * k, the operands' transposition a kernel argument.  Two ways, as libraries
 * have both:
 *   - direct: one kernel.  A work-group of 8x8 work-items computes a 64x32
 *     block of C, each work-item 8 rows x 4 columns in registers (eight
 *     float4 accumulators); slices of 16 along k of op(A) and op(B) go
 *     through __local memory (op(A)'s stored k-major, so a work-item reads
 *     its 8 rows as two float4), loaded with float4 reads where the slice
 *     lies inside the matrices and element by element with bounds at the
 *     edges; each work-item loops over the slice's k itself.
 *   - indirect: first a kernel copies op(A) transposed (k-major) into a
 *     buffer padded to whole tiles, through a 16x16 __local tile so reads
 *     and writes both run along rows (and op(B) likewise where it needs
 *     padding or a transposition); then a kernel without any bounds runs
 *     on the padded sizes: 16x16 work-items on a 64x64 block of C, 4x4
 *     results each, float4 __local tiles of 16 along k.
 * variant: bit 0 indirect, bit 1 the small size, bit 2 A transposed, bit 3
 * B transposed.  The host side (reference, twin, OpenBLAS) is blas.c's.
 */
#include "runner.h"

#include <stdlib.h>

enum { INDIRECT = 1, SMALL = 2, A_TRANS = 4, B_TRANS = 8 };

static const char *source =
    "/* ---- direct ---- */\n"
    "#define MWG 64 /* rows of C a work-group computes */\n"
    "#define NWG 32 /* columns */\n"
    "#define KWG 16 /* the slice of k in __local memory */\n"
    "#define MDIM 8 /* work-items along m (dimension 1) */\n"
    "#define NDIM 8 /* along n (dimension 0) */\n"
    "#define MWI (MWG / MDIM) /* rows of C a work-item computes: 8 */\n"
    "#define NWI (NWG / NDIM) /* columns: 4, one float4 */\n"
    "\n"
    "/* op(A)(i, p) into al[p][i - i0] for the slice at (i0, p0). */\n"
    "void load_a(__local float (*al)[MWG + 4], __global const float *a, int lda, int a_trans, int m, int k,\n"
    "            int i0, int p0, int lid)\n"
    "{\n"
    "    if (i0 + MWG <= m && p0 + KWG <= k) {\n"
    "        for (int v = lid; v < MWG * KWG / 4; v += MDIM * NDIM) {\n"
    "            if (a_trans) { /* A is k x m: float4 along i */\n"
    "                int p = v / (MWG / 4), i = v % (MWG / 4) * 4;\n"
    "                vstore4(vload4(0, a + (size_t)(p0 + p) * lda + i0 + i), 0, &al[p][i]);\n"
    "            } else { /* A is m x k: float4 along p, stored transposed */\n"
    "                int i = v / (KWG / 4), p = v % (KWG / 4) * 4;\n"
    "                float4 x = vload4(0, a + (size_t)(i0 + i) * lda + p0 + p);\n"
    "                al[p][i] = x.x; al[p + 1][i] = x.y; al[p + 2][i] = x.z; al[p + 3][i] = x.w;\n"
    "            }\n"
    "        }\n"
    "        return;\n"
    "    }\n"
    "    for (int e = lid; e < MWG * KWG; e += MDIM * NDIM) {\n"
    "        int p = e / MWG, i = e % MWG, gi = i0 + i, gp = p0 + p;\n"
    "        al[p][i] = gi < m && gp < k ? a[a_trans ? (size_t)gp * lda + gi : (size_t)gi * lda + gp] : 0.0f;\n"
    "    }\n"
    "}\n"
    "\n"
    "/* op(B)(p, j) into bl[p][j - j0] for the slice at (p0, j0). */\n"
    "void load_b(__local float (*bl)[NWG + 4], __global const float *b, int ldb, int b_trans, int n, int k,\n"
    "            int j0, int p0, int lid)\n"
    "{\n"
    "    if (j0 + NWG <= n && p0 + KWG <= k) {\n"
    "        for (int v = lid; v < NWG * KWG / 4; v += MDIM * NDIM) {\n"
    "            if (b_trans) { /* B is n x k: float4 along p, stored transposed */\n"
    "                int j = v / (KWG / 4), p = v % (KWG / 4) * 4;\n"
    "                float4 x = vload4(0, b + (size_t)(j0 + j) * ldb + p0 + p);\n"
    "                bl[p][j] = x.x; bl[p + 1][j] = x.y; bl[p + 2][j] = x.z; bl[p + 3][j] = x.w;\n"
    "            } else { /* B is k x n: float4 along j */\n"
    "                int p = v / (NWG / 4), j = v % (NWG / 4) * 4;\n"
    "                vstore4(vload4(0, b + (size_t)(p0 + p) * ldb + j0 + j), 0, &bl[p][j]);\n"
    "            }\n"
    "        }\n"
    "        return;\n"
    "    }\n"
    "    for (int e = lid; e < NWG * KWG; e += MDIM * NDIM) {\n"
    "        int p = e / NWG, j = e % NWG, gj = j0 + j, gp = p0 + p;\n"
    "        bl[p][j] = gj < n && gp < k ? b[b_trans ? (size_t)gj * ldb + gp : (size_t)gp * ldb + gj] : 0.0f;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(NDIM, MDIM, 1)))\n"
    "void gemm_direct(int m, int n, int k, float alpha, __global const float *a, int lda, int a_trans,\n"
    "                 __global const float *b, int ldb, int b_trans, __global float *c, int ldc)\n"
    "{\n"
    "    __local float al[KWG][MWG + 4], bl[KWG][NWG + 4]; /* + 4: rows stay float4-aligned */\n"
    "    int tx = get_local_id(0), ty = get_local_id(1), lid = ty * NDIM + tx;\n"
    "    int i0 = get_group_id(1) * MWG, j0 = get_group_id(0) * NWG;\n"
    "    float4 acc[MWI];\n"
    "    for (int r = 0; r < MWI; r++)\n"
    "        acc[r] = (float4)(0.0f);\n"
    "    for (int p0 = 0; p0 < k; p0 += KWG) {\n"
    "        load_a(al, a, lda, a_trans, m, k, i0, p0, lid);\n"
    "        load_b(bl, b, ldb, b_trans, n, k, j0, p0, lid);\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int p = 0; p < KWG; p++) {\n"
    "            float4 a0 = vload4(0, &al[p][ty * MWI]), a1 = vload4(0, &al[p][ty * MWI + 4]);\n"
    "            float4 bv = vload4(0, &bl[p][tx * NWI]);\n"
    "            acc[0] += a0.x * bv; acc[1] += a0.y * bv; acc[2] += a0.z * bv; acc[3] += a0.w * bv;\n"
    "            acc[4] += a1.x * bv; acc[5] += a1.y * bv; acc[6] += a1.z * bv; acc[7] += a1.w * bv;\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    int col = j0 + tx * NWI;\n"
    "    for (int r = 0; r < MWI; r++) {\n"
    "        int row = i0 + ty * MWI + r;\n"
    "        float4 v = alpha * acc[r];\n"
    "        if (row < m && col + NWI <= n) {\n"
    "            vstore4(v, 0, c + (size_t)row * ldc + col);\n"
    "        } else if (row < m) {\n"
    "            float e[4] = { v.x, v.y, v.z, v.w };\n"
    "            for (int q = 0; q < NWI && col + q < n; q++)\n"
    "                c[(size_t)row * ldc + col + q] = e[q];\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "/* ---- indirect ---- */\n"
    "#define PT 16 /* the copies' tile */\n"
    "\n"
    "/* dst (ld_dst wide) = src^T, zero where src (rows x cols, ld_src wide) has no element. */\n"
    "__kernel __attribute__((reqd_work_group_size(PT, PT, 1)))\n"
    "void pad_transpose(__global const float *src, int rows, int cols, int ld_src, __global float *dst, int ld_dst)\n"
    "{\n"
    "    __local float tile[PT][PT + 1]; /* + 1: the transposed reads hit different banks */\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int r0 = get_group_id(0) * PT, c0 = get_group_id(1) * PT; /* dst's tile is at row c0, column r0 */\n"
    "    int r = r0 + ly, c = c0 + lx;\n"
    "    tile[ly][lx] = r < rows && c < cols ? src[(size_t)r * ld_src + c] : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    dst[(size_t)(c0 + ly) * ld_dst + r0 + lx] = tile[lx][ly];\n"
    "}\n"
    "\n"
    "/* dst (ld_dst wide) = src, zero where src (rows x cols) has no element. */\n"
    "__kernel void pad_copy(__global const float *src, int rows, int cols, int ld_src, __global float *dst, int ld_dst)\n"
    "{\n"
    "    int c = get_global_id(0), r = get_global_id(1);\n"
    "    dst[(size_t)r * ld_dst + c] = r < rows && c < cols ? src[(size_t)r * ld_src + c] : 0.0f;\n"
    "}\n"
    "\n"
    "#define MWGI 64 /* the block of C a work-group computes: MWGI x NWGI */\n"
    "#define NWGI 64\n"
    "#define KWGI 16\n"
    "#define DIMI 16 /* work-items along each dimension; 4x4 results each */\n"
    "\n"
    "/* C = alpha at^T bt on padded sizes: at is kp x mp (op(A) k-major), bt kp x np; mp, np multiples of 64,\n"
    "   kp of 16.  Only C's store has a bound (C is m x n). */\n"
    "__kernel __attribute__((reqd_work_group_size(DIMI, DIMI, 1)))\n"
    "void gemm_indirect(int m, int n, int mp, int np, int kp, float alpha, __global const float4 *at,\n"
    "                   __global const float4 *bt, __global float *c, int ldc)\n"
    "{\n"
    "    __local float4 al[KWGI][MWGI / 4], bl[KWGI][NWGI / 4];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int i4 = get_group_id(1) * (MWGI / 4), j4 = get_group_id(0) * (NWGI / 4); /* in float4 */\n"
    "    float4 acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;\n"
    "    for (int p0 = 0; p0 < kp; p0 += KWGI) {\n"
    "        al[ty][tx] = at[(size_t)(p0 + ty) * (mp / 4) + i4 + tx];\n"
    "        bl[ty][tx] = bt[(size_t)(p0 + ty) * (np / 4) + j4 + tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        #pragma unroll 4\n"
    "        for (int p = 0; p < KWGI; p++) {\n"
    "            float4 av = al[p][ty], bv = bl[p][tx];\n"
    "            acc0 += av.x * bv; acc1 += av.y * bv; acc2 += av.z * bv; acc3 += av.w * bv;\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    int row = (i4 + ty) * 4, col = (j4 + tx) * 4;\n"
    "    float4 v[4] = { alpha * acc0, alpha * acc1, alpha * acc2, alpha * acc3 };\n"
    "    for (int r = 0; r < 4 && row + r < m; r++) {\n"
    "        if (col + 4 <= n) {\n"
    "            vstore4(v[r], 0, c + (size_t)(row + r) * ldc + col);\n"
    "        } else {\n"
    "            float e[4] = { v[r].x, v[r].y, v[r].z, v[r].w };\n"
    "            for (int q = 0; q < 4 && col + q < n; q++)\n"
    "                c[(size_t)(row + r) * ldc + col + q] = e[q];\n"
    "        }\n"
    "    }\n"
    "}\n";

/* The direct kernel's block of C, the indirect one's, and the slices of k. */
enum { DIRECT_M = 64, DIRECT_N = 32, DIRECT_GROUP = 8, INDIRECT_MN = 64, INDIRECT_K = 16, INDIRECT_GROUP = 16, PT = 16 };

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

static int setup(bench_ctx *b)
{
    /* Sizes that are no multiple of the tiles at tiny size, so the test
     * runs the kernels' edges (the direct kernel's bounds, the padding). */
    int n = b->variant & SMALL ? BY_SIZE(b, 60, 256, 512) : BY_SIZE(b, 100, 512, 2048);
    gemm_shape shape = { n, n, n, !!(b->variant & A_TRANS), !!(b->variant & B_TRANS) };
    return gemm_host_setup(b, &shape);
}

/* The indirect kernel's padded sizes. */
static void padded(const gemm_shape *sh, size_t *mp, size_t *np, size_t *kp)
{
    *mp = round_up((size_t)sh->m, INDIRECT_MN);
    *np = round_up((size_t)sh->n, INDIRECT_MN);
    *kp = round_up((size_t)sh->k, INDIRECT_K);
}

/* The kernel that makes a padded operand dst (kp rows, `cols_p` wide) from
 * a stored matrix (rows x cols): a transposing copy where the stored one
 * runs along the other dimension, a plain one where it only needs padding,
 * none (*k stays NULL) where the GEMM can read it as stored. */
static int pad_kernel(bench_ctx *b, bench_platform *p, int transpose, int needs_pad, cl_mem src, int rows, int cols,
                      cl_mem dst, size_t cols_p, cl_kernel *k)
{
    if (!transpose && !needs_pad)
        return 0;
    if ((transpose && bench_needs_group(b, p, PT * PT)) ||
        !(*k = bench_kernel(b, p, source, transpose ? "pad_transpose" : "pad_copy")))
        return -1;
    cl_int ld_dst = (cl_int)cols_p;
    return BENCH_ARGS(b, *k, ARG(src), ARG(rows), ARG(cols), ARG(cols), ARG(dst), ARG(ld_dst));
}

/* k[0]: the GEMM kernel, k[1]: op(A)'s copy, k[2]: op(B)'s (indirect; NULL
 * where the operand is read as stored); m[0..2]: A, B, C; m[3..4]: the
 * padded op(A) (k-major) and op(B). */
static int cl_prepare(bench_ctx *b, bench_platform *p, void **dev)
{
    gemm_host *h = b->host;
    bench_simple *s = bench_simple_new(b);
    if (!(*dev = s))
        return -1;
    const gemm_shape *sh = &h->shape;
    int m = sh->m, n = sh->n, k = sh->k, lda = gemm_lda(sh), ldb = gemm_ldb(sh);
    int a_trans = sh->a_trans, b_trans = sh->b_trans;
    float alpha = 1.0f;
    if (!(s->m[0] = bench_buffer(b, p, CL_MEM_READ_ONLY, (size_t)m * k * sizeof(float), h->a)) ||
        !(s->m[1] = bench_buffer(b, p, CL_MEM_READ_ONLY, (size_t)k * n * sizeof(float), h->b)) ||
        !(s->m[2] = bench_buffer(b, p, CL_MEM_WRITE_ONLY, (size_t)m * n * sizeof(float), NULL)))
        return -1;
    if (!(b->variant & INDIRECT)) {
        if (bench_needs_group(b, p, DIRECT_GROUP * DIRECT_GROUP) ||
            !(s->k[0] = bench_kernel(b, p, source, "gemm_direct")))
            return -1;
        return BENCH_ARGS(b, s->k[0], ARG(m), ARG(n), ARG(k), ARG(alpha), ARG(s->m[0]), ARG(lda), ARG(a_trans),
                          ARG(s->m[1]), ARG(ldb), ARG(b_trans), ARG(s->m[2]), ARG(n));
    }
    size_t mp, np, kp;
    padded(sh, &mp, &np, &kp);
    int pad_a = mp != (size_t)m || kp != (size_t)k, pad_b = np != (size_t)n || kp != (size_t)k;
    if (bench_needs_group(b, p, INDIRECT_GROUP * INDIRECT_GROUP) ||
        !(s->k[0] = bench_kernel(b, p, source, "gemm_indirect")) ||
        ((!a_trans || pad_a) && !(s->m[3] = bench_buffer(b, p, CL_MEM_READ_WRITE, kp * mp * sizeof(float), NULL))) ||
        ((b_trans || pad_b) && !(s->m[4] = bench_buffer(b, p, CL_MEM_READ_WRITE, kp * np * sizeof(float), NULL))))
        return -1;
    /* op(A) k-major is A (m x k) transposed, or A^T (stored k x m) as it is. */
    if (pad_kernel(b, p, !a_trans, pad_a, s->m[0], a_trans ? k : m, a_trans ? m : k, s->m[3], mp, &s->k[1]) ||
        pad_kernel(b, p, b_trans, pad_b, s->m[1], b_trans ? n : k, b_trans ? k : n, s->m[4], np, &s->k[2]))
        return -1;
    cl_mem at = s->k[1] ? s->m[3] : s->m[0], bt = s->k[2] ? s->m[4] : s->m[1];
    cl_int mpi = (cl_int)mp, npi = (cl_int)np, kpi = (cl_int)kp;
    return BENCH_ARGS(b, s->k[0], ARG(m), ARG(n), ARG(mpi), ARG(npi), ARG(kpi), ARG(alpha), ARG(at), ARG(bt),
                      ARG(s->m[2]), ARG(n));
}

/* A run is one library call: the copies, then the GEMM, then the wait. */
static int cl_run(bench_ctx *b, bench_platform *p, void *dev)
{
    const gemm_shape *sh = &((gemm_host *)b->host)->shape;
    bench_simple *s = dev;
    if (!(b->variant & INDIRECT)) {
        size_t global[2] = { round_up((size_t)sh->n, DIRECT_N) / DIRECT_N * DIRECT_GROUP,
                             round_up((size_t)sh->m, DIRECT_M) / DIRECT_M * DIRECT_GROUP };
        size_t local[2] = { DIRECT_GROUP, DIRECT_GROUP };
        if (bench_launch(b, p, s->k[0], 2, global, local))
            return -1;
        return bench_finish(b, p);
    }
    size_t mp, np, kp;
    padded(sh, &mp, &np, &kp);
    /* Both copies run over their destination (kp rows, mp or np wide): a
     * plain copy an element a work-item, a transposing one with its
     * dimension 0 along the source's rows, which are the destination's
     * columns. */
    size_t a_grid[2] = { mp, kp }, b_grid[2] = { np, kp }, tile[2] = { PT, PT };
    if ((s->k[1] && bench_launch(b, p, s->k[1], 2, a_grid, sh->a_trans ? NULL : tile)) ||
        (s->k[2] && bench_launch(b, p, s->k[2], 2, b_grid, sh->b_trans ? tile : NULL)))
        return -1;
    size_t global[2] = { np / 4, mp / 4 }, local[2] = { INDIRECT_GROUP, INDIRECT_GROUP };
    if (bench_launch(b, p, s->k[0], 2, global, local))
        return -1;
    return bench_finish(b, p);
}

const bench_ops gemm_ops = {
    .setup = setup,
    .teardown = gemm_host_teardown,
    .twin = gemm_host_twin,
    .twin_check = gemm_host_twin_check,
    .cl_prepare = cl_prepare,
    .cl_run = cl_run,
    .cl_check = gemm_host_cl_check,
    .cl_release = bench_simple_release,
    .blas = gemm_host_blas,
};
