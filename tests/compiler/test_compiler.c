/* Compiler pipeline tests: real kernels through compile -> link -> finalize,
 * run on host arrays through the work-group and work-item functions.
 * usage: test_compiler [group|case|--list]   (test_compiler.list; none: all) */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/blake3.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/ir/util.h"
#define TEST_LIST "test_compiler.list"
#include "test.h"
#include "compiler_host.h"
#include "../common/collectives_ref.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

/* ---- basic kernels --------------------------------------------------------------- */
TEST(vector_add)
{
    const char *src = "kernel void vadd(global const float *a, global const float *b, global float *c, uint n) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  if (i < n) c[i] = a[i] + b[i];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "vadd");
    CHECK(k && k->wg_fn && k->wi_fn && !k->uses_barriers, "vadd should have a work-group function");
    CHECK(k && k->num_args == 4, "4 args");
    if (k && k->num_args == 4) {
        CHECK(k->args[0].kind == MOSAIC_ARG_GLOBAL_PTR && k->args[0].size == sizeof(cl_mem), "arg 0 global");
        CHECK(k->args[0].type_qualifier == CL_KERNEL_ARG_TYPE_CONST, "arg 0 const");
        CHECK(!strcmp(k->args[0].type_name, "float*"), "type %s", k->args[0].type_name);
        CHECK(!strcmp(k->args[2].name, "c"), "name %s", k->args[2].name);
        CHECK(k->args[3].kind == MOSAIC_ARG_BY_VALUE && k->args[3].size == 4, "arg 3 uint");
        CHECK(k->args[3].address_qualifier == CL_KERNEL_ARG_ADDRESS_PRIVATE, "arg 3 private");
    }
    enum { N = 1000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = calloc(N + 1, sizeof *c);
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = 0.5f * (float)i;
    c[N] = 42.0f;
    cl_uint n = N;
    /* 1000 = 15 groups of 64 + a trailing group of 40 (non-uniform) */
    ndrange r = {.dim = 1, .global = {N}, .local = {64}};
    run_kernel(exe, "vadd", ARGS(&a, &b, &c, &n), &r);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != 1.5f * (float)i;
    CHECK(bad == 0, "%d wrong sums", bad);
    CHECK(c[N] == 42.0f, "wrote past the end");
    free(a), free(b), free(c);
    mosaic_executable_free(exe);
}

/* A float4 a work-item from addresses apart (a[idx[i]]): widened, the
 * components' gathers become each lane's float4 loaded whole and the loads
 * transposed (interleaved_access.c), one float4 (a run of four) and two
 * neighbouring ones (a run of eight: two groups of four); groups of 45
 * (no multiple of a vector), indices repeated and in any order. */
TEST(float4_gathers)
{
    const char *src = "kernel void pick(global float4 *o, global const float4 *a, global const int *idx) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  o[i] = a[idx[i]] * 2.0f + (float4)(0.0f, 1.0f, 2.0f, 3.0f);\n"
                      "}\n"
                      "kernel void pick2(global float4 *o, global const float4 *a, global const int *idx) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  o[i] = a[idx[i]] - 3.0f * a[idx[i] + 1];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    enum { N = 90, M = 64 };
    float a[4 * (M + 1)], o[4 * N];
    int idx[N];
    for (int i = 0; i < 4 * (M + 1); i++)
        a[i] = (float)(i * 7 % 101) - 50.0f;
    for (int i = 0; i < N; i++)
        idx[i] = (i * 37 + i / 5) % M;
    float *po = o, *pa = a;
    int *pi = idx;
    for (int k = 0; k < 2; k++) {
        memset(o, 0, sizeof o);
        ndrange r = {.dim = 1, .global = {N}, .local = {45}};
        run_kernel(exe, k ? "pick2" : "pick", ARGS(&po, &pa, &pi), &r);
        int bad = 0;
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 4; c++) {
                const float *x = &a[4 * idx[i]];
                float want = k ? x[c] - 3.0f * x[4 + c] : x[c] * 2.0f + (float)c;
                bad += o[4 * i + c] != want;
            }
        CHECK(!bad, "%s: %d components wrong", k ? "pick2" : "pick", bad);
    }
    mosaic_executable_free(exe);
}

/* float4s read and written by consecutive work-items whose components only
 * meet their own kind (interleaved_arithmetic.c computes them as loaded):
 * a matmul's multiply-adds, a maximum and a conversion; one whose .x is
 * also stored alone, which keeps its components apart; and one through
 * exp, a math call.  51 work-items: a row of 16 lanes and a tail
 * (test_vecmath's kernels build it too: calls there are libmvec's, of
 * one width, and keep their components apart). */
TEST(float4_rows_interleaved)
{
    const char *src = "kernel void mm(global float *c, global const float *a, global const float *b, int n, int w) {\n"
                      "  int j = get_global_id(0);\n"
                      "  float4 acc = (float4)(0.5f), hi = (float4)(-100.0f);\n"
                      "  for (int k = 0; k < n; k++) {\n"
                      "    float4 v = vload4(j, b + k * 4 * w);\n"
                      "    acc = acc + a[k] * v;\n"
                      "    hi = fmax(hi, v - convert_float4((int4)(k)));\n"
                      "  }\n"
                      "  vstore4(acc + hi, j, c);\n"
                      "}\n"
                      "kernel void mm_x(global float *c, global float *x, global const float *a,\n"
                      "                 global const float *b, int n, int w) {\n"
                      "  int j = get_global_id(0);\n"
                      "  float4 acc = (float4)(0.0f);\n"
                      "  for (int k = 0; k < n; k++)\n"
                      "    acc = acc * 0.5f + a[k] * vload4(j, b + k * 4 * w);\n"
                      "  vstore4(acc, j, c);\n"
                      "  x[j] = acc.x;\n"
                      "}\n"
                      "kernel void mm_exp(global float *c, global const float *a, global const float *b, int n, int w) {\n"
                      "  int j = get_global_id(0);\n"
                      "  float4 acc = (float4)(0.0f);\n"
                      "  for (int k = 0; k < n; k++)\n"
                      "    acc = exp(acc * 0.25f) + a[k] * vload4(j, b + k * 4 * w);\n"
                      "  vstore4(acc, j, c);\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    enum { W = 51, K = 37 };
    static float a[K], b[K * 4 * W], c[4 * W], x[W];
    for (int k = 0; k < K; k++)
        a[k] = (float)(k % 7) - 3.0f;
    for (int i = 0; i < K * 4 * W; i++)
        b[i] = (float)(i * 13 % 29) - 14.0f;
    int n = K, w = W;
    float *pc = c, *px = x, *pa = a, *pb = b;
    static const char *const names[] = {"mm", "mm_x", "mm_exp"};
    for (int v = 0; v < 3; v++) {
        memset(c, 0, sizeof c);
        memset(x, 0, sizeof x);
        ndrange r = {.dim = 1, .global = {W}, .local = {W}};
        if (v == 1)
            run_kernel(exe, "mm_x", ARGS(&pc, &px, &pa, &pb, &n, &w), &r);
        else
            run_kernel(exe, names[v], ARGS(&pc, &pa, &pb, &n, &w), &r);
        int bad = 0;
        for (int j = 0; j < W; j++)
            for (int e = 0; e < 4; e++) {
                float acc = v ? 0.0f : 0.5f, hi = -100.0f;
                for (int k = 0; k < K; k++) {
                    float bv = b[k * 4 * W + 4 * j + e];
                    acc = v == 2 ? expf(acc * 0.25f) + a[k] * bv
                          : v    ? fmaf(acc, 0.5f, a[k] * bv)
                                 : fmaf(a[k], bv, acc);
                    hi = fmaxf(hi, bv - (float)k);
                }
                float want = v ? acc : acc + hi;
                bad += fabsf(c[4 * j + e] - want) > 1e-3f * (1.0f + fabsf(want));
                bad += v == 1 && !e && x[j] != c[4 * j];
            }
        CHECK(!bad, "%s: %d values wrong", names[v], bad);
    }
    mosaic_executable_free(exe);
}

TEST(2d_offsets)
{
    const char *src =
        "kernel void ids(global ulong *out, int width) {\n"
        "  size_t x = get_global_id(0), y = get_global_id(1);\n"
        "  size_t i = ((y - get_global_offset(1)) * width + (x - get_global_offset(0))) * 8;\n"
        "  out[i + 0] = x; out[i + 1] = y;\n"
        "  out[i + 2] = get_local_id(0) + 100 * get_local_id(1);\n"
        "  out[i + 3] = get_group_id(0) + 100 * get_group_id(1);\n"
        "  out[i + 4] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_enqueued_local_size(0);\n"
        "  out[i + 5] = get_num_groups(0) + 100 * get_num_groups(1) + 10000 * get_work_dim();\n"
        "  out[i + 6] = get_global_linear_id() + 100000 * get_local_linear_id();\n"
        "  out[i + 7] = get_global_size(2) + 10 * get_local_id(2) + 100 * get_global_id(2) + 1000 * get_local_size(7)"
        " + 10000 * get_global_id(5);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { W = 10, H = 7 };
    uint64_t *out = calloc(W * H * 8, sizeof *out);
    int width = W;
    ndrange r = {.dim = 2, .global = {W, H}, .local = {4, 3}, .offset = {5, 20}};
    run_kernel(exe, "ids", ARGS(&out, &width), &r);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint64_t *o = out + (y * W + x) * 8;
            uint64_t lx = x % 4, ly = y % 3, gx = x / 4, gy = y / 3;
            uint64_t lsx = x >= 8 ? 2 : 4, lsy = y >= 6 ? 1 : 3;
            uint64_t expect[8] = {
                (uint64_t)x + 5, (uint64_t)y + 20, lx + 100 * ly, gx + 100 * gy, lsx + 100 * lsy + 10000 * 4,
                3 + 100 * 3 + 10000 * 2, (uint64_t)(y * W + x) + 100000 * (ly * lsx + lx), 1 + 1000,
            };
            for (int k = 0; k < 8; k++)
                if (o[k] != expect[k]) {
                    if (bad++ < 5)
                        fprintf(stderr, "ids (%d,%d)[%d] = %llu, expected %llu\n", x, y, k,
                                (unsigned long long)o[k], (unsigned long long)expect[k]);
                }
        }
    CHECK(bad == 0, "%d wrong ids", bad);
    free(out);
    mosaic_executable_free(exe);
}

TEST(struct_by_value)
{
    const char *src = "typedef struct { int a; float b; double c; char d[3]; float4 v; } S;\n"
                      "kernel void st(S s, global float *out, float4 scale, char tag) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  s.a += (int)i;              /* the kernel's own copy */\n"
                      "  out[i] = s.a + s.b + (float)s.c + s.d[2] + s.v.w * scale.y + tag;\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    typedef struct {
        cl_int a;
        cl_float b;
        cl_double c;
        cl_char d[3];
        cl_float4 v;
    } S;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "st");
    CHECK(k && k->num_args == 4, "args");
    if (k && k->num_args == 4) {
        CHECK(k->args[0].kind == MOSAIC_ARG_BY_VALUE && k->args[0].size == sizeof(S), "struct size %zu vs %zu",
              k->args[0].size, sizeof(S));
        CHECK(k->args[0].alignment == 16, "struct alignment %zu", k->args[0].alignment);
        CHECK(k->args[2].size == 16 && k->args[3].size == 1, "float4 and char sizes");
        CHECK(!strcmp(k->args[0].type_name, "S"), "struct type name %s", k->args[0].type_name);
    }
    S s = {.a = 10, .b = 0.5f, .c = 2.0, .d = {1, 2, 3}, .v = {{0, 0, 0, 4.0f}}};
    cl_float4 scale = {{1, 2, 3, 4}};
    cl_char tag = 7;
    float out[16];
    ndrange r = {.dim = 1, .global = {16}, .local = {8}};
    float *o = out;
    run_kernel(exe, "st", ARGS(&s, &o, &scale, &tag), &r);
    int bad = 0;
    for (int i = 0; i < 16; i++)
        bad += out[i] != (float)(10 + i) + 0.5f + 2.0f + 3 + 8.0f + 7;
    CHECK(bad == 0, "%d wrong (out[1] = %g)", bad, out[1]);
    CHECK(s.a == 10, "the kernel wrote the shared argument");
    mosaic_executable_free(exe);
}

TEST(local_arg)
{
    /* reverse each work-group's slice through a __local argument */
    const char *src = "kernel void rev(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  tmp[l] = in[get_global_id(0)];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(0)] = tmp[n - 1 - l];\n"
                      "}\n"
                      "kernel void own(global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0);\n"
                      "  tmp[l] = (int)l * 3;\n"
                      "  out[get_global_id(0)] = tmp[l] + 1;\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "rev");
    CHECK(k && k->uses_barriers && k->wg_fn && k->wi_fn, "rev uses barriers: a work-group function and fibers");
    CHECK(k && k->num_args == 3 && k->args[2].kind == MOSAIC_ARG_LOCAL_PTR && k->args[2].size == 0 &&
              k->args[2].address_qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL,
          "local arg");
    k = mosaic_executable_find_kernel(exe, "own");
    CHECK(k && k->wg_fn && k->static_local_mem_size == 0, "own has a wg function");
    enum { N = 64 };
    int in[N], out[N], out2[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7;
    int *pi = in, *po = out, *po2 = out2;
    uint64_t offset = 0; /* no static locals: the argument starts the arena */
    ndrange r = {.dim = 1, .global = {N}, .local = {16}, .local_arg_bytes = 16 * sizeof(int)};
    run_kernel(exe, "rev", ARGS(&pi, &po, &offset), &r);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != in[(i / 16) * 16 + 15 - i % 16];
    CHECK(bad == 0, "%d wrong reversed values", bad);
    run_kernel(exe, "own", ARGS(&po2, &offset), &r);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += out2[i] != (i % 16) * 3 + 1;
    CHECK(bad == 0, "%d wrong own values", bad);
    mosaic_executable_free(exe);
}

TEST(static_local)
{
    /* two static __local arrays, one used inside a constant expression
     * (tile[0][1]), one reached through a __local argument after them */
    const char *src = "kernel void tiles(global int *out, local int *extra) {\n"
                      "  local char pad[3];\n"
                      "  local int tile[4][8];\n"
                      "  size_t x = get_local_id(0), y = get_local_id(1);\n"
                      "  if (x == 0 && y == 0) { pad[0] = 1; pad[2] = 5; }\n"
                      "  tile[y][x] = (int)(x + 10 * y);\n"
                      "  extra[y * 8 + x] = 1000;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(1) * 8 + get_global_id(0)] = tile[3 - y][7 - x] + tile[0][1] * 100\n"
                      "      + pad[2] * 10000 + extra[(3 - y) * 8 + (7 - x)];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "tiles");
    CHECK(k && k->uses_barriers, "barrier kernel");
    CHECK(k && k->static_local_mem_size >= 3 + 4 * 8 * 4 && k->static_local_mem_size <= 4 + 4 * 8 * 4 + 8,
          "static local size %zu", k ? k->static_local_mem_size : 0);
    if (!k) {
        mosaic_executable_free(exe);
        return;
    }
    int out[8 * 8];
    int *po = out;
    uint64_t extra = (k->static_local_mem_size + 127) / 128 * 128;
    ndrange r = {.dim = 2, .global = {8, 8}, .local = {8, 4}, .local_arg_bytes = 32 * sizeof(int)};
    run_kernel(exe, "tiles", ARGS(&po, &extra), &r);
    int bad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int ly = y % 4;
            int expect = (7 - x) + 10 * (3 - ly) + 100 + 50000 + 1000;
            bad += out[y * 8 + x] != expect;
        }
    CHECK(bad == 0, "%d wrong tile values (out[0] = %d)", bad, out[0]);
    mosaic_executable_free(exe);
}

/* ---- the seed kernels -------------------------------------------------------------
 * Transcribed from /work/shared/seeds (000: kernel_dot, its '〈' typeset as '<';
 * 003: fill_tiles), built with the options the seeds' hosts pass. */
TEST(kernel_dot)
{
    const char *src = "__kernel void kernel_dot(__global int *pDst, __global int *pSrc1,\n"
                      "__global int *pSrc2)\n"
                      "{\n"
                      "__local int localBuffer[TOTAL_NUMBER_OF_WORKITEMS];\n"
                      "int index = get_global_id(0);\n"
                      "localBuffer[index] = pSrc1[index] * pSrc2[index];\n"
                      "barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "if(index == 0)\n"
                      "{\n"
                      "int sum = 0;\n"
                      "for(int i = 0; i < TOTAL_NUMBER_OF_WORKITEMS; i++)\n"
                      "sum += localBuffer[i];\n"
                      "pDst[0] = sum;\n"
                      "}\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, "-D TOTAL_NUMBER_OF_WORKITEMS=128");
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "kernel_dot");
    CHECK(k && k->static_local_mem_size == 128 * sizeof(int), "kernel_dot static local %zu",
          k ? k->static_local_mem_size : 0);
    int src1[128], src2[128], dst = -1, sum = 0;
    for (int i = 0; i < 128; i++) {
        src1[i] = i + 1;
        src2[i] = i + 1;
        sum += src1[i] * src2[i];
    }
    int *pd = &dst, *p1 = src1, *p2 = src2;
    ndrange r = {.dim = 1, .global = {128}, .local = {128}};
    run_kernel(exe, "kernel_dot", ARGS(&pd, &p1, &p2), &r);
    CHECK(dst == sum, "kernel_dot gave %d, expected %d", dst, sum);
    mosaic_executable_free(exe);
}

TEST(fill_tiles)
{
    const char *src = "__kernel void fill_tiles(__global float* a,\n"
                      "\t\t\t__global float* b,\n"
                      "\t\t\t__global float* c)\n"
                      "{\n"
                      "  int row = get_global_id(1);\n"
                      "  int col = get_global_id(0);\n"
                      "  __local float aTile[TILE_DIM_Y][TILE_DIM_X];\n"
                      "  __local float bTile[TILE_DIM_Y][TILE_DIM_X];\n"
                      "  int y = get_local_id(1);\n"
                      "  int x = get_local_id(0);\n"
                      "  aTile[y][x] = a[row*N + col];\n"
                      "  bTile[y][x] = b[row*N + col];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  c[row*N + col] = aTile[x][y] * bTile[y][x];\n"
                      "}\n";
    enum { T = 16, M_TILES = 2, N_TILES = 3, NN = N_TILES * T, MM = M_TILES * T };
    char opts[128];
    snprintf(opts, sizeof opts, "-D TILE_DIM_X=%d -D TILE_DIM_Y=%d -D N=%d", T, T, NN);
    mosaic_executable *exe = build_program(src, opts);
    if (!exe)
        return;
    float *a = malloc(MM * NN * sizeof *a), *b = malloc(MM * NN * sizeof *b), *c = calloc(MM * NN, sizeof *c);
    srand(4);
    for (int i = 0; i < MM * NN; i++) {
        a[i] = (float)rand() / (float)RAND_MAX;
        b[i] = (float)rand() / (float)RAND_MAX;
    }
    ndrange r = {.dim = 2, .global = {NN, MM}, .local = {T, T}};
    run_kernel(exe, "fill_tiles", ARGS(&a, &b, &c), &r);
    int bad = 0;
    for (int row = 0; row < M_TILES; row++)
        for (int col = 0; col < N_TILES; col++)
            for (int y = 0; y < T; y++)
                for (int x = 0; x < T; x++) {
                    int ry = row * T + y, rx = row * T + x;
                    float av = a[rx * NN + col * T + y];
                    float bv = b[ry * NN + col * T + x];
                    bad += c[ry * NN + col * T + x] != av * bv;
                }
    CHECK(bad == 0, "fill_tiles: %d wrong", bad);
    free(a), free(b), free(c);
    mosaic_executable_free(exe);
}

/* ---- diagnostics and options --------------------------------------------------------- */
TEST(build_error)
{
    const char *src = "kernel void k(global int *p) {\n"
                      "  p[0] = 1;\n"
                      "  p[1] = undeclared_thing;\n"
                      "}\n";
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    CHECK(r == CL_COMPILE_PROGRAM_FAILURE, "compile returned %d", r);
    CHECK(log && strstr(log, "<source>:3:") && strstr(log, "undeclared_thing"), "log: %s", log ? log : "(null)");
    CHECK(obj.data == NULL, "no binary on failure");
    free(log);
    /* an error in a header names the header by its include name */
    const mosaic_header h = {"inc/bad.h", "\n#define OK 1\nconstant int x = ;\n"};
    r = mosaic_compile_source(&test_target, "#include \"inc/bad.h\"\nkernel void k() {}\n", NULL, 1, &h, &obj, &log);
    CHECK(r == CL_COMPILE_PROGRAM_FAILURE, "header error gave %d", r);
    CHECK(log && strstr(log, "inc/bad.h:3:") && strstr(log, "<source>:1") && !strstr(log, "/tmp"), "log: %s",
          log ? log : "");
    free(log);
}

TEST(invalid_options)
{
    static const char *const bad[] = {"-cl-no-such-option", "-cl-std=CL4.0", "-D", "--help", "-O3", "\"-Dx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mosaic_bitcode obj = {0};
        char *log = NULL;
        cl_int r = mosaic_compile_source(&test_target, "kernel void k() {}", bad[i], 0, NULL, &obj, &log);
        CHECK(r == CL_INVALID_COMPILER_OPTIONS, "'%s' gave %d", bad[i], r);
        CHECK(log && strlen(log) > 0, "'%s': empty log", bad[i]);
        free(log);
        mosaic_bitcode_free(&obj);
    }
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_link_bitcode(&test_target, 0, NULL, "-cl-opt-disable", 0, &obj, &log);
    CHECK(r == CL_INVALID_LINKER_OPTIONS, "link option gave %d", r);
    free(log);
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &obj, "-create-library", &exe, &log);
    CHECK(r == CL_INVALID_BUILD_OPTIONS, "build option gave %d", r);
    free(log);

    /* accepted options, quoted values, both -D forms */
    const char *src2 = "kernel void k(global int *o) { o[0] = A + B; o[1] = sizeof(MSG) - 1; }\n";
    exe = build_program(src2, "-DA=40 -D B=2 -D 'MSG=\"two words\"' -cl-mad-enable -cl-fast-relaxed-math "
                              "-cl-std=CL2.0 -w -cl-denorms-are-zero -cl-kernel-arg-info -Werror");
    if (exe) {
        int o[2] = {0}, *po = o;
        ndrange rr = {.dim = 1, .global = {1}, .local = {1}};
        run_kernel(exe, "k", ARGS(&po), &rr);
        CHECK(o[0] == 42 && o[1] == 9, "options gave %d %d", o[0], o[1]);
        mosaic_executable_free(exe);
    }
}

TEST(headers)
{
    const mosaic_header h[2] = {
        {"defs.h", "#define SCALE 3\n#include \"sub/more.h\"\n"},
        {"sub/more.h", "#define OFFSET 4\n"},
    };
    const char *src = "#include \"defs.h\"\nkernel void k(global int *o) { o[get_global_id(0)] = SCALE * "
                      "(int)get_global_id(0) + OFFSET; }\n";
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, "", 2, h, &obj, &log);
    CHECK(r == CL_SUCCESS, "compile with headers: %d %s", r, log);
    free(log);
    CHECK(obj.type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "compiled object type");
    r = mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &exe_bc, &log);
    CHECK(r == CL_SUCCESS && exe_bc.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "link %d", r);
    free(log);
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &exe_bc, NULL, &exe, &log);
    CHECK(r == CL_SUCCESS, "finalize %d: %s", r, log);
    free(log);
    if (exe) {
        int o[4], *po = o;
        ndrange rr = {.dim = 1, .global = {4}, .local = {2}};
        run_kernel(exe, "k", ARGS(&po), &rr);
        CHECK(o[0] == 4 && o[3] == 13, "header values %d %d", o[0], o[3]);
        mosaic_executable_free(exe);
    }
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
}

TEST(unimplemented_function)
{
    const char *src = "float not_a_builtin(float x);\n"
                      "kernel void k(global float *o) { o[0] = not_a_builtin(o[1]); }\n";
    mosaic_bitcode obj = {0}, linked = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "compile: %d %s", r, log);
    free(log);
    /* the linker refuses an executable with an undefined function... */
    r = mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &linked, &log);
    CHECK(r == CL_LINK_PROGRAM_FAILURE, "link gave %d", r);
    CHECK(log && strstr(log, "not_a_builtin"), "link log: %s", log ? log : "");
    free(log);
    /* ...and so does finalize, given the compiled object directly */
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &obj, NULL, &exe, &log);
    CHECK(r == CL_BUILD_PROGRAM_FAILURE && !exe, "finalize gave %d", r);
    CHECK(log && strstr(log, "undefined function 'not_a_builtin'") && strstr(log, "called from 'k'"), "log: %s",
          log ? log : "");
    free(log);
    /* a builtin clang declares but Mosaic does not implement yet (a mipmap
     * read: cl_khr_mipmap_image, which no Mosaic device reports) */
    mosaic_compiler_target mip = test_target;
    char features[2048];
    snprintf(features, sizeof features, "%s,+cl_khr_mipmap_image", test_target.clang_features);
    mip.clang_features = features;
    mosaic_bitcode mobj = {0};
    r = mosaic_compile_source(&mip,
                              "kernel void k(read_only image2d_t im, sampler_t s, global float4 *o) {\n"
                              "  o[0] = read_imagef(im, s, (float2)(0.0f, 0.0f), 1.0f);\n"
                              "}\n",
                              "-cl-std=CL2.0", 0, NULL, &mobj, &log);
    CHECK(r == CL_SUCCESS, "compile: %d %s", r, log ? log : "");
    free(log);
    r = mosaic_link_bitcode(&mip, 1, &mobj, NULL, 0, &linked, &log);
    CHECK(r == CL_LINK_PROGRAM_FAILURE, "read_imagef with a lod gave %d", r);
    CHECK(log && strstr(log, "undefined function 'read_imagef'"), "log: %s", log ? log : "");
    free(log);
    mosaic_bitcode_free(&linked);
    mosaic_bitcode_free(&mobj);
    /* a library may leave it undefined */
    r = mosaic_link_bitcode(&test_target, 1, &obj, "-create-library", 0, &linked, &log);
    CHECK(r == CL_SUCCESS && linked.type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library link %d", r);
    free(log);
    mosaic_bitcode_free(&linked);
    mosaic_bitcode_free(&obj);
}

TEST(link_two_objects)
{
    const char *lib_fixed = "constant float offset_value = 0.25f;\n"
                            "float helper(float x) { return x * 2.0f + offset_value; }\n";
    const char *main_src = "float helper(float x);\n"
                           "kernel void use(global float *o) { o[get_global_id(0)] = helper((float)get_global_id(0)); }\n";
    mosaic_bitcode objs[2] = {{0}}, library = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, lib_fixed, "-cl-std=CL2.0", 0, NULL, &objs[0], &log);
    CHECK(r == CL_SUCCESS, "lib compile %d %s", r, log);
    free(log);
    r = mosaic_compile_source(&test_target, main_src, NULL, 0, NULL, &objs[1], &log);
    CHECK(r == CL_SUCCESS, "main compile %d %s", r, log);
    free(log);
    /* library first, then library + object -> executable */
    r = mosaic_link_bitcode(&test_target, 1, &objs[0], NULL, 1, &library, &log);
    CHECK(r == CL_SUCCESS && library.type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library %d", r);
    free(log);
    mosaic_bitcode inputs[2] = {objs[1], library};
    r = mosaic_link_bitcode(&test_target, 2, inputs, "-cl-fast-relaxed-math", 0, &exe_bc, &log);
    CHECK(r == CL_SUCCESS, "link %d %s", r, log);
    free(log);
    mosaic_executable *exe = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_finalize(&test_target, &exe_bc, NULL, &exe, &log);
        CHECK(r == CL_SUCCESS, "finalize %d %s", r, log);
        free(log);
    }
    if (exe) {
        float o[4], *po = o;
        ndrange rr = {.dim = 1, .global = {4}, .local = {4}};
        run_kernel(exe, "use", ARGS(&po), &rr);
        CHECK(o[0] == 0.25f && o[3] == 6.25f, "linked helper gave %g %g", o[0], o[3]);
        mosaic_executable_free(exe);
    }
    /* the same symbol twice is a link error */
    mosaic_bitcode twice[2] = {objs[0], objs[0]}, dup = {0};
    r = mosaic_link_bitcode(&test_target, 2, twice, NULL, 1, &dup, &log);
    CHECK(r == CL_LINK_PROGRAM_FAILURE, "duplicate symbols gave %d", r);
    CHECK(log && strstr(log, "multiply defined"), "dup log: %s", log ? log : "");
    free(log);
    mosaic_bitcode_free(&objs[0]);
    mosaic_bitcode_free(&objs[1]);
    mosaic_bitcode_free(&library);
    mosaic_bitcode_free(&exe_bc);
}

TEST(binary_roundtrip)
{
    const char *src = "kernel __attribute__((reqd_work_group_size(4,2,1))) __attribute__((vec_type_hint(float4)))\n"
                      "void sq(global int *o) { size_t i = get_global_id(0); o[i] = (int)(i * i); }\n";
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    free(log);
    r |= mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &exe_bc, &log);
    free(log);
    CHECK(r == CL_SUCCESS, "build %d", r);
    cl_program_binary_type type = 0;
    CHECK(mosaic_bitcode_validate(NULL, exe_bc.data, exe_bc.size, &type, NULL) == CL_SUCCESS &&
              type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
          "valid executable binary");
    CHECK(mosaic_bitcode_validate(NULL, obj.data, obj.size, &type, NULL) == CL_SUCCESS &&
              type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
          "valid object binary");
    /* garbage, truncation, a flipped byte in the bitcode */
    char garbage[256];
    memset(garbage, 0x5a, sizeof garbage);
    CHECK(mosaic_bitcode_validate(NULL, garbage, sizeof garbage, &type, NULL) == CL_INVALID_BINARY, "garbage");
    CHECK(mosaic_bitcode_validate(NULL, exe_bc.data, exe_bc.size / 2, &type, NULL) == CL_INVALID_BINARY, "truncated");
    CHECK(mosaic_bitcode_validate(NULL, NULL, 0, &type, NULL) == CL_INVALID_BINARY, "null");
    unsigned char *copy = malloc(exe_bc.size);
    memcpy(copy, exe_bc.data, exe_bc.size);
    for (size_t i = 40; i < exe_bc.size; i += 7)
        copy[i] ^= 0xff;
    CHECK(mosaic_bitcode_validate(NULL, copy, exe_bc.size, &type, NULL) == CL_INVALID_BINARY, "corrupted bitcode");
    /* a copy of the blob (as clCreateProgramWithBinary gets it) builds */
    memcpy(copy, exe_bc.data, exe_bc.size);
    mosaic_bitcode again = {type, copy, exe_bc.size};
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &again, "-cl-opt-disable", &exe, &log);
    CHECK(r == CL_SUCCESS, "finalize from copy %d %s", r, log);
    free(log);
    if (exe) {
        const mosaic_kernel_info *k = mosaic_executable_kernel(exe, 0);
        CHECK(mosaic_executable_num_kernels(exe) == 1 && k && !strcmp(k->name, "sq"), "one kernel");
        CHECK(k && k->reqd_work_group_size[0] == 4 && k->reqd_work_group_size[1] == 2 &&
                  k->reqd_work_group_size[2] == 1,
              "reqd_work_group_size");
        CHECK(k && k->attributes && strstr(k->attributes, "reqd_work_group_size(4,2,1)") &&
                  strstr(k->attributes, "vec_type_hint(float4)"),
              "attributes '%s'", k && k->attributes ? k->attributes : "");
        int o[8], *po = o;
        ndrange rr = {.dim = 1, .global = {8}, .local = {4}};
        run_kernel(exe, "sq", ARGS(&po), &rr);
        CHECK(o[7] == 49 && o[3] == 9, "sq gave %d", o[7]);
        mosaic_executable_free(exe);
    }
    free(copy);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
    CHECK(mosaic_finalize(&test_target, &(mosaic_bitcode){0}, NULL, &exe, &log) == CL_INVALID_BINARY, "empty");
    free(log);
}

/* A blob made by hand, as an application could: header, bitcode, and the
 * checksum (the first 8 bytes of BLAKE3 over both, checksum zero). */
static mosaic_bitcode hand_made_blob(uint32_t type, const void *bc, size_t n)
{
    mosaic_bitcode b = {type, calloc(1, MC_BLOB_HEADER_SIZE + n), MC_BLOB_HEADER_SIZE + n};
    unsigned char *p = b.data;
    uint32_t version = MC_BLOB_VERSION;
    uint64_t size = n;
    memcpy(p, MC_BLOB_MAGIC, 8);
    memcpy(p + 8, &version, 4);
    memcpy(p + 12, &type, 4);
    memcpy(p + 16, &size, 8);
    memcpy(p + MC_BLOB_HEADER_SIZE, bc, n);
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, p, b.size);
    llvm_blake3_hasher_finalize(&h, p + 24, 8);
    return b;
}

static char *write_script(const char *text)
{
    char *path = strdup("/tmp/mosaic-test-opt-XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0) {
        CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "script");
        fchmod(fd, 0755);
        close(fd);
    }
    return path;
}

/* Settings are read once (src/base/settings.h): a test that changes one
 * re-reads them. */
static void set_setting(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    mosaic_settings_reload();
}

/* Binaries that did not come from here are read by opt-16 in a child process
 * first: its failure, crash or time-out refuses them; what it accepts is
 * verified here too. */
TEST(binary_checker)
{
    char *saved_cache = getenv("MOSAIC_CACHE") ? strdup(getenv("MOSAIC_CACHE")) : NULL;
    set_setting("MOSAIC_CACHE", "0"); /* no "checked" markers from earlier runs */
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, "kernel void k(global int *a) { a[0] = 1; }", NULL, 0, NULL,
                                     &obj, &log);
    free(log);
    CHECK(r == CL_SUCCESS, "compile %d", r);
    if (r != CL_SUCCESS)
        return;
    /* the same bitcode under other types: blobs this process never made */
    const char *bc = (const char *)obj.data + MC_BLOB_HEADER_SIZE;
    size_t n = obj.size - MC_BLOB_HEADER_SIZE;
    mosaic_bitcode lib = hand_made_blob(CL_PROGRAM_BINARY_TYPE_LIBRARY, bc, n);
    mosaic_bitcode exe = hand_made_blob(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, bc, n);
    cl_program_binary_type type;
    struct { const char *script, *says; } bad[] = {
        {NULL, "cannot run the bitcode checker"},
        {"#!/bin/sh\nkill -SEGV $$\n", "crashed the bitcode checker"},
        {"#!/bin/sh\nexec sleep 30\n", "took over 500 ms"},
        {"#!/bin/sh\necho 'opt: <stdin>: error: Invalid record'\nexit 1\n", "invalid bitcode: Invalid record"},
    };
    mc_bitcode_check_timeout_ms = 500;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *path = bad[i].script ? write_script(bad[i].script) : strdup("/nonexistent/opt-16");
        set_setting("MOSAIC_OPT", path);
        r = mosaic_bitcode_validate(NULL, lib.data, lib.size, &type, &log);
        CHECK(r == CL_INVALID_BINARY && log && strstr(log, bad[i].says), "checker %zu: %d %s", i, r, log);
        free(log);
        if (bad[i].script)
            unlink(path);
        free(path);
    }
    mc_bitcode_check_timeout_ms = 60000;
    set_setting("MOSAIC_OPT", NULL);

    /* an application that ignores SIGCHLD: the exit status is lost, opt's
     * last line decides */
    signal(SIGCHLD, SIG_IGN);
    r = mosaic_bitcode_validate(NULL, lib.data, lib.size, &type, &log);
    CHECK(r == CL_SUCCESS && type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "SIGCHLD ignored: %d %s", r, log);
    free(log);
    signal(SIGCHLD, SIG_DFL);
    r = mosaic_bitcode_validate(NULL, exe.data, exe.size, &type, &log);
    CHECK(r == CL_SUCCESS && type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "checked: %d %s", r, log);
    free(log);

    /* a module that parses but is invalid: opt refuses it; with a checker
     * that accepts anything, LLVM's verifier here does */
    const char *ir = "define i32 @f(i32 %a) {\n  %b = add i32 %c, 1\n  %c = add i32 %a, 1\n  ret i32 %b\n}\n";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "ir");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    CHECK(!LLVMParseIRInContext(ctx, buf, &m, &msg), "IR: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    if (m) {
        LLVMMemoryBufferRef out = LLVMWriteBitcodeToMemoryBuffer(m);
        mosaic_bitcode broken = hand_made_blob(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, LLVMGetBufferStart(out),
                                               LLVMGetBufferSize(out));
        LLVMDisposeMemoryBuffer(out);
        LLVMDisposeModule(m);
        r = mosaic_bitcode_validate(NULL, broken.data, broken.size, &type, &log);
        CHECK(r == CL_INVALID_BINARY && log && strstr(log, "input module is broken") &&
                  strstr(log, "does not dominate"),
              "broken module: %d %s", r, log);
        free(log);
        char *path = write_script("#!/bin/sh\ncat >/dev/null\necho verify\n");
        set_setting("MOSAIC_OPT", path);
        r = mosaic_bitcode_validate(NULL, broken.data, broken.size, &type, &log);
        CHECK(r == CL_INVALID_BINARY && log && strstr(log, "invalid module: Instruction does not dominate"),
              "broken module, in process: %d %s", r, log);
        free(log);
        set_setting("MOSAIC_OPT", NULL);
        unlink(path);
        free(path);
        mosaic_bitcode_free(&broken);
    }
    LLVMContextDispose(ctx);
    mosaic_bitcode_free(&lib);
    mosaic_bitcode_free(&exe);
    mosaic_bitcode_free(&obj);
    set_setting("MOSAIC_CACHE", saved_cache);
    free(saved_cache);
}

/* ---- builtin library ----------------------------------------------------------------- */
static int ulp_diff_f(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : 1 << 30;
    if (a == b)
        return 0;
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    long long d = (long long)ia - ib;
    return d < 0 ? (int)-d : (int)d;
}

TEST(math)
{
    const char *src =
        "#define N 64\n"
        "kernel void m(global const float *x, global const float *y, global float *o, global int *io,\n"
        "              global double *od) {\n"
        "  size_t i = get_global_id(0); float a = x[i], b = y[i]; float ip; int q, e;\n"
        "  o[0*N+i] = sin(a); o[1*N+i] = cos(a); o[2*N+i] = tan(a); o[3*N+i] = exp(a);\n"
        "  o[4*N+i] = log(fabs(a) + 1.0f); o[5*N+i] = pow(fabs(a), b); o[6*N+i] = sqrt(fabs(a));\n"
        "  o[7*N+i] = fma(a, b, 0.5f); o[8*N+i] = atan2(a, b); o[9*N+i] = sinpi(a); o[10*N+i] = cospi(a);\n"
        "  o[11*N+i] = cbrt(a); o[12*N+i] = fract(a, &ip); o[13*N+i] = ip; o[14*N+i] = rootn(fabs(a), 3);\n"
        "  o[15*N+i] = hypot(a, b); o[16*N+i] = remquo(a, b, &q); o[17*N+i] = frexp(a, &e);\n"
        "  o[18*N+i] = exp10(b); o[19*N+i] = rsqrt(fabs(a) + 1.0f); o[20*N+i] = erf(a); o[21*N+i] = tgamma(b);\n"
        "  o[22*N+i] = acospi(clamp(b, -1.0f, 1.0f)); o[23*N+i] = pown(a, 3); o[24*N+i] = ldexp(a, 3);\n"
        "  o[25*N+i] = sin((float4)(a)).z; o[26*N+i] = powr(fabs(a), b); o[27*N+i] = maxmag(a, b);\n"
        "  o[28*N+i] = mix(a, b, 0.25f); o[29*N+i] = smoothstep(-1.0f, 1.0f, a); o[30*N+i] = sign(a);\n"
        "  o[31*N+i] = length((float3)(a, b, 1.0f)); o[32*N+i] = normalize((float2)(a, b)).x;\n"
        "  o[33*N+i] = dot((float4)(a, b, 1, 2), (float4)(b, a, 3, 4)); o[34*N+i] = cross((float3)(a, b, 1), (float3)(1, 2, 3)).y;\n"
        "  o[35*N+i] = native_sin(a); o[36*N+i] = half_exp(a); o[37*N+i] = degrees(a);\n"
        "  io[0*N+i] = q; io[1*N+i] = e; io[2*N+i] = ilogb(a); io[3*N+i] = isnan(a / b);\n"
        "  io[4*N+i] = isinf((float4)(a, INFINITY, 0, 0)).y; io[5*N+i] = signbit(a);\n"
        "  double da = a, db = b; double dip;\n"
        "  od[0*N+i] = sin(da); od[1*N+i] = exp(da); od[2*N+i] = pow(fabs(da), db); od[3*N+i] = fract(da, &dip);\n"
        "  od[4*N+i] = cospi(da); od[5*N+i] = sqrt(fabs(da)); od[6*N+i] = length((double2)(da, db));\n"
        "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    enum { N = 64, NF = 38, NI = 6, ND = 7 };
    float x[N], y[N], o[NF * N];
    int io[NI * N];
    double od[ND * N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i - 32) * 0.37f + 0.01f;
        y[i] = (float)(i % 7) * 0.5f - 1.25f;
    }
    x[5] = -7.0f; /* an integer: fract 0, sinpi -0 */
    x[6] = 2.5f;  /* cospi exactly 0 */
    float *px = x, *py = y, *po = o;
    int *pio = io;
    double *pod = od;
    ndrange r = {.dim = 1, .global = {N}, .local = {16}};
    run_kernel(exe, "m", ARGS(&px, &py, &po, &pio, &pod), &r);
    int bad = 0;
#define EXPECT_F(k, expr, tol)                                                                     \
    for (int i = 0; i < N; i++) {                                                                  \
        float a = x[i], b = y[i];                                                                  \
        (void)a, (void)b;                                                                          \
        float want = (float)(expr);                                                                \
        int d = ulp_diff_f(o[(k) * N + i], want);                                                  \
        if (d > (tol) && fabsf(o[(k)*N + i] - want) > 1e-6f) {                                     \
            if (bad++ < 10)                                                                        \
                fprintf(stderr, "f%d (%s) x=%g y=%g: got %.9g want %.9g (%d ulp)\n", k, #expr, a, b, \
                        o[(k)*N + i], want, d);                                                    \
        }                                                                                          \
    }
    EXPECT_F(0, sin((double)a), 4);
    EXPECT_F(1, cos((double)a), 4);
    EXPECT_F(2, tan((double)a), 5);
    EXPECT_F(3, exp((double)a), 3);
    EXPECT_F(4, log(fabs((double)a) + 1.0), 3);
    EXPECT_F(5, pow(fabs((double)a), b), 16);
    EXPECT_F(6, sqrt(fabs((double)a)), 3);
    EXPECT_F(7, fmaf(a, b, 0.5f), 0);
    EXPECT_F(8, atan2((double)a, b), 6);
    EXPECT_F(9, sin(M_PI * a), 4);
    EXPECT_F(10, cos(M_PI * a), 4);
    EXPECT_F(11, cbrt((double)a), 2);
    EXPECT_F(12, a - floorf(a), 0);
    EXPECT_F(13, floorf(a), 0);
    EXPECT_F(14, cbrt(fabs((double)a)), 16);
    EXPECT_F(15, hypot((double)a, b), 4);
    EXPECT_F(16, remainderf(a, b), 0);
    EXPECT_F(18, pow(10.0, (double)b), 3);
    EXPECT_F(19, 1.0 / sqrt(fabs((double)a) + 1.0), 2);
    EXPECT_F(20, erf((double)a), 16);
    EXPECT_F(21, tgamma((double)b), 16);
    EXPECT_F(22, acos(fmin(fmax(b, -1.0), 1.0)) / M_PI, 5);
    EXPECT_F(23, (double)a * a * a, 16);
    EXPECT_F(24, a * 8.0f, 0);
    EXPECT_F(25, sin((double)a), 4);
    EXPECT_F(26, pow(fabs((double)a), b), 16);
    EXPECT_F(27, fabsf(a) > fabsf(b) ? a : fabsf(b) > fabsf(a) ? b : fmaxf(a, b), 0);
    EXPECT_F(28, a + (b - a) * 0.25f, 1);
    EXPECT_F(30, a > 0 ? 1.0f : a < 0 ? -1.0f : a, 0);
    EXPECT_F(31, sqrt((double)a * a + (double)b * b + 1.0), 3);
    EXPECT_F(32, a / sqrt((double)a * a + (double)b * b), 3);
    EXPECT_F(33, (double)a * b + (double)b * a + 3.0 + 8.0, 2);
    EXPECT_F(34, 1.0 - 3.0 * a, 1);
    EXPECT_F(35, sin((double)a), 4);
    EXPECT_F(36, exp((double)a), 8192);
    EXPECT_F(37, a * (180.0 / M_PI), 2);
    for (int i = 0; i < N; i++) {
        int q, e;
        remquof(x[i], y[i], &q);
        frexpf(x[i], &e);
        double t = (x[i] + 1.0) / 2.0, ss = t < 0 ? 0 : t > 1 ? 1 : t;
        if (fabsf(o[29 * N + i] - (float)(ss * ss * (3 - 2 * ss))) > 1e-6f)
            bad++;
        if ((io[i] & 7) != (q & 7) || io[N + i] != e || io[2 * N + i] != ilogbf(x[i]) ||
            io[3 * N + i] != (isnan(x[i] / y[i]) ? 1 : 0) || io[4 * N + i] != -1 || io[5 * N + i] != (x[i] < 0)) {
            if (bad++ < 10)
                fprintf(stderr, "ints x=%g: %d %d %d %d %d %d\n", x[i], io[i], io[N + i], io[2 * N + i],
                        io[3 * N + i], io[4 * N + i], io[5 * N + i]);
        }
        double a = x[i], b = y[i];
        double want[ND] = {sin(a), exp(a), pow(fabs(a), b), a - floor(a), cos(M_PI * a), sqrt(fabs(a)), hypot(a, b)};
        for (int k = 0; k < ND; k++)
            if (fabs(od[k * N + i] - want[k]) > 1e-12 * fmax(1.0, fabs(want[k]))) {
                if (bad++ < 10)
                    fprintf(stderr, "double f%d x=%g: got %.17g want %.17g\n", k, a, od[k * N + i], want[k]);
            }
    }
    CHECK(o[9 * N + 5] == 0.0f && signbit(o[9 * N + 5]), "sinpi(-7) should be -0, got %g", o[9 * N + 5]);
    CHECK(o[10 * N + 6] == 0.0f, "cospi(2.5) should be 0, got %g", o[10 * N + 6]);
    CHECK(bad == 0, "%d math results out of tolerance", bad);
    mosaic_executable_free(exe);
}

TEST(conversions)
{
    const char *src =
        "kernel void c(global const float *f, global const double *d, global int *oi, global float *of,\n"
        "              global long *ol, global uchar *ou) {\n"
        "  for (int i = 0; i < 8; i++) {\n"
        "    oi[i] = convert_int_sat_rte(f[i]); oi[8+i] = convert_int_sat(f[i]);\n"
        "    oi[16+i] = convert_int_rtn(f[i] < 1e9f && f[i] > -1e9f ? f[i] : 0.0f);\n"
        "    ou[i] = convert_uchar_sat(f[i]); ol[i] = convert_long_sat_rtp(d[i]);\n"
        "  }\n"
        "  int4 v = convert_int4_sat_rtz(vload4(0, f)); vstore4(v, 6, oi);\n"
        "  of[0] = convert_float_rtz(16777217); of[1] = convert_float_rtp(16777217);\n"
        "  of[2] = convert_float_rtn(-16777217); of[3] = convert_float(0xffffffffffffffffUL);\n"
        "  of[4] = convert_float_rtz(0xffffffffffffffffUL); of[5] = convert_float_rtz(1.00000001);\n"
        "  of[6] = convert_float_rtp(1.00000001); of[7] = convert_float_rtn(-1e300); of[8] = convert_float_rtz(1e300);\n"
        "  ou[8] = convert_uchar_sat(300); ou[9] = convert_uchar_sat(-5); ou[10] = convert_uchar(300);\n"
        "  ou[11] = (uchar)convert_char_sat(200u); ou[12] = convert_uchar_sat(convert_long(-1.5f));\n"
        "  float4 g = convert_float4((int4)(1, -2, 3, 16777217)); of[9] = g.w; of[10] = g.y;\n"
        "  ol[8] = convert_long_sat(convert_double(LONG_MAX) * 2.0); ol[9] = convert_long_sat_rte(-2.5);\n"
        "  ol[10] = convert_ulong_sat(-1.0f); ol[11] = convert_long(convert_ulong_sat_rtn(1e30));\n"
        "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    float f[8] = {2.5f, 3.5f, -2.5f, 1e10f, -1e10f, NAN, 255.7f, -0.6f};
    double d[8] = {2.1, -2.1, 1e300, -1e300, NAN, 0.5, -0.5, 9.2e18};
    int oi[32] = {0};
    float of[16] = {0};
    long long ol[16] = {0};
    unsigned char ou[16] = {0};
    float *pf = f, *pof = of;
    double *pd = d;
    int *poi = oi;
    long long *pol = ol;
    unsigned char *pou = ou;
    ndrange r = {.dim = 1, .global = {1}, .local = {1}};
    run_kernel(exe, "c", ARGS(&pf, &pd, &poi, &pof, &pol, &pou), &r);
    int ie[8] = {2, 4, -2, INT32_MAX, INT32_MIN, 0, 256, -1};
    int is[8] = {2, 3, -2, INT32_MAX, INT32_MIN, 0, 255, 0};
    int in[6] = {2, 3, -3, 0, 0, 0};
    unsigned char ue[8] = {2, 3, 0, 255, 0, 0, 255, 0};
    long long le[8] = {3, -2, INT64_MAX, INT64_MIN, 0, 1, 0, 9200000000000000000LL};
    for (int i = 0; i < 8; i++) {
        CHECK(oi[i] == ie[i], "convert_int_sat_rte(%g) = %d", f[i], oi[i]);
        if (i < 6)
            CHECK(oi[8 + i] == is[i], "convert_int_sat(%g) = %d", f[i], oi[8 + i]);
        CHECK(ou[i] == ue[i], "convert_uchar_sat(%g) = %d", f[i], ou[i]);
        CHECK(ol[i] == le[i], "convert_long_sat_rtp(%g) = %lld", d[i], ol[i]);
    }
    for (int i = 0; i < 3; i++)
        CHECK(oi[16 + i] == in[i], "convert_int_rtn(%g) = %d", f[i], oi[16 + i]);
    CHECK(oi[24] == 2 && oi[25] == 3 && oi[26] == -2 && oi[27] == INT32_MAX, "convert_int4_sat_rtz %d %d %d %d",
          oi[24], oi[25], oi[26], oi[27]);
    CHECK(of[0] == 16777216.0f && of[1] == 16777218.0f && of[2] == -16777218.0f, "int->float rounding %.1f %.1f %.1f",
          of[0], of[1], of[2]);
    CHECK(of[3] == 0x1p64f && of[4] == 0x1.fffffep63f, "ulong->float %a %a", of[3], of[4]);
    CHECK(of[5] == 1.0f && of[6] == nextafterf(1.0f, 2.0f), "double->float rtz/rtp %a %a", of[5], of[6]);
    CHECK(isinf(of[7]) && of[7] < 0 && of[8] == 0x1.fffffep127f, "double->float overflow %a %a", of[7], of[8]);
    CHECK(ou[8] == 255 && ou[9] == 0 && ou[10] == 44 && ou[11] == 127 && ou[12] == 0, "int sat %d %d %d %d %d", ou[8],
          ou[9], ou[10], ou[11], ou[12]);
    CHECK(of[9] == 16777216.0f && of[10] == -2.0f, "convert_float4 %g %g", of[9], of[10]);
    CHECK(ol[8] == INT64_MAX && ol[9] == -2 && ol[10] == 0 && ol[11] == -1, "long sat %lld %lld %lld %lld", ol[8],
          ol[9], ol[10], ol[11]);
    mosaic_executable_free(exe);
}

TEST(integer_vector)
{
    const char *src =
        "kernel void t(global long *o, global const long *in, global ushort *h, global float *hf) {\n"
        "  long a = in[0], b = in[1];\n"
        "  o[0] = mul_hi(a, b); o[1] = (long)mul_hi((ulong)a, (ulong)b); o[2] = mad_sat(a, b, 5L);\n"
        "  o[3] = rotate(0x80000001u, 1u); o[4] = clz(1); o[5] = popcount(0xF0F0ul); o[6] = add_sat((char)100, (char)100);\n"
        "  o[7] = abs_diff(-100, 100); o[8] = upsample((short)-1, (ushort)2); o[9] = hadd(7, 4) + 10 * rhadd(7, 4);\n"
        "  o[10] = ctz(8u) + 100 * clz((ushort)0); o[11] = abs((char)-128);\n"
        "  int4 s = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), (int4)(-1, 0, INT_MIN, 1));\n"
        "  o[12] = s.x * 1000 + s.y * 100 + s.z * 10 + s.w;\n"
        "  o[13] = any((int4)(0, 0, -1, 0)) + 10 * all((int4)(-1, -1, 0, -1)) + 100 * isnan((float4)(NAN)).z;\n"
        "  o[14] = bitselect(0xF0F0, 0x0F0F, 0xFF00);\n"
        "  float8 sh = shuffle2((float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8), (uint8)(7, 0, 6, 1, 5, 2, 4, 3));\n"
        "  long8 k = convert_long8(sh);\n"
        "  o[15] = k.s0 * 10000000 + k.s1 * 1000000 + k.s2 * 100000 + k.s3 * 10000 + k.s4 * 1000 + k.s5 * 100 + k.s6 * 10 + k.s7;\n"
        "  o[16] = mad24(3, 4, 5) + 100 * mul24(-3, 4); o[17] = max((int2)(3, -9), 1).y; o[18] = clamp(300, 0, 255);\n"
        "  vstore_half(1.0f, 0, (global half *)h); vstore_half_rte(65520.0f, 1, (global half *)h);\n"
        "  vstore_half_rtz(65520.0f, 2, (global half *)h); vstore_half_rtn(1e-8f, 3, (global half *)h);\n"
        "  vstore_half_rtp(1e-8f, 4, (global half *)h); vstore_half4((float4)(0.5f, -2.0f, 0.33325195f, 1e-7f), 2, (global half *)h);\n"
        "  hf[0] = vload_half(0, (global half *)h); float4 l = vload_half4(2, (global half *)h); hf[1] = l.z; hf[2] = l.w;\n"
        "  hf[3] = vload_half(1, (global half *)h);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    long long o[20] = {0}, in[2] = {-123456789012345LL, 987654321098765LL};
    unsigned short h[16] = {0};
    float hf[4] = {0};
    long long *po = o, *pin = in;
    unsigned short *ph = h;
    float *phf = hf;
    ndrange r = {.dim = 1, .global = {1}, .local = {1}};
    run_kernel(exe, "t", ARGS(&po, &pin, &ph, &phf), &r);
    __int128 p = (__int128)in[0] * in[1];
    unsigned __int128 up = (unsigned __int128)(unsigned long long)in[0] * (unsigned long long)in[1];
    __int128 ps = p + 5;
    long long sat = ps > INT64_MAX ? INT64_MAX : ps < INT64_MIN ? INT64_MIN : (long long)ps;
    CHECK(o[0] == (long long)(p >> 64), "mul_hi(long) %lld", o[0]);
    CHECK(o[1] == (long long)(unsigned long long)(up >> 64), "mul_hi(ulong) %lld", o[1]);
    CHECK(o[2] == sat, "mad_sat(long) %lld vs %lld", o[2], sat);
    CHECK(o[3] == 3 && o[4] == 31 && o[5] == 8 && o[6] == 127, "rotate/clz/popcount/add_sat %lld %lld %lld %lld", o[3],
          o[4], o[5], o[6]);
    CHECK(o[7] == 200 && o[8] == (int)0xffff0002 && o[9] == 5 + 10 * 6, "abs_diff/upsample/hadd %lld %lld %lld", o[7],
          o[8], o[9]);
    CHECK(o[10] == 3 + 1600 && o[11] == 128, "ctz/clz/abs %lld %lld", o[10], o[11]);
    CHECK(o[12] == 5274 && o[13] == 1 - 100 && o[14] == 0x0FF0, "select/any/all/bitselect %lld %lld %llx", o[12], o[13],
          o[14]);
    CHECK(o[15] == 81726354, "shuffle2 %lld", o[15]);
    CHECK(o[16] == 17 - 1200 && o[17] == 1 && o[18] == 255, "mad24/max/clamp %lld %lld %lld", o[16], o[17], o[18]);
    CHECK(h[0] == 0x3c00 && h[1] == 0x7c00 && h[2] == 0x7bff && h[3] == 0 && h[4] == 1, "vstore_half %04x %04x %04x %04x %04x",
          h[0], h[1], h[2], h[3], h[4]);
    CHECK(h[8] == 0x3800 && h[9] == 0xc000 && h[10] == 0x3555 && h[11] == 2, "vstore_half4 %04x %04x %04x %04x", h[8],
          h[9], h[10], h[11]);
    CHECK(hf[0] == 1.0f && hf[1] == 0.33325195f && hf[2] == 0x1p-23f && isinf(hf[3]), "vload_half %g %g %a %g", hf[0],
          hf[1], hf[2], hf[3]);
    mosaic_executable_free(exe);
}

TEST(atomics)
{
    const char *src =
        "kernel void at(global int *c, global long *l, global atomic_int *a, global float *f, global uint *m) {\n"
        "  int id = (int)get_global_id(0);\n"
        "  atomic_inc(&c[0]); atomic_add(&c[1], id); atomic_max(&c[2], id); atomic_min(&c[3], -id);\n"
        "  atom_add(&l[0], (long)id << 33); atomic_or(&c[4], 1 << (id % 31));\n"
        "  atomic_fetch_add_explicit(&a[0], 2, memory_order_relaxed, memory_scope_device);\n"
        "  atomic_fetch_sub(&a[1], 1);\n"
        "  int expected = atomic_load(&a[2]);\n"
        "  while (!atomic_compare_exchange_weak(&a[2], &expected, expected + 3)) ;\n"
        "  /* a float sum through compare-and-swap on the bits */\n"
        "  volatile global int *fi = (volatile global int *)f; int old = *fi, seen;\n"
        "  while ((seen = atomic_cmpxchg(fi, old, as_int(as_float(old) + 1.0f))) != old) old = seen;\n"
        "  atomic_xchg(&m[0], 7u); atomic_dec(&m[1]);\n"
        "  if (atomic_flag_test_and_set((global atomic_flag *)&m[2]) == 0) atomic_inc(&m[3]);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = 4096 };
    int c[5] = {0, 0, INT32_MIN, 0, 0}, a[3] = {0, 0, 0};
    long long l[1] = {0};
    float f[1] = {0};
    unsigned m[4] = {0, 10000, 0, 0};
    int *pc = c, *pa = a;
    long long *pl = l;
    float *pf = f;
    unsigned *pm = m;
    ndrange r = {.dim = 1, .global = {N}, .local = {64}, .threads = 4};
    run_kernel(exe, "at", ARGS(&pc, &pl, &pa, &pf, &pm), &r);
    long long sum = (long long)N * (N - 1) / 2;
    CHECK(c[0] == N && c[1] == (int)sum && c[2] == N - 1 && c[3] == -(N - 1), "1.x atomics %d %d %d %d", c[0], c[1],
          c[2], c[3]);
    CHECK(c[4] == 0x7fffffff, "atomic_or %x", c[4]);
    CHECK(l[0] == sum << 33, "atom_add long %lld", l[0]);
    CHECK(a[0] == 2 * N && a[1] == -N && a[2] == 3 * N, "C11 atomics %d %d %d", a[0], a[1], a[2]);
    CHECK(f[0] == (float)N, "float CAS sum %g", f[0]);
    CHECK(m[0] == 7 && m[1] == 10000 - N && m[2] == 1 && m[3] == 1, "xchg/dec/flag %u %u %u %u", m[0], m[1], m[2], m[3]);
    mosaic_executable_free(exe);
}

/* ---- more kernels ---------------------------------------------------------------------- */
TEST(private_arrays)
{
    /* a dynamically indexed private array stays private per work-item even
     * though the work-item loop is marked parallel */
    const char *src = "kernel void priv(global int *out, global const int *idx) {\n"
                      "  int tmp[8]; size_t g = get_global_id(0);\n"
                      "  for (int i = 0; i < 8; i++) tmp[i] = (int)g * 10 + i;\n"
                      "  tmp[idx[g] & 7] += 1000;\n"
                      "  out[g] = tmp[idx[(g + 1) % 256] & 7] + tmp[idx[g] & 7];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    int out[256], idx[256];
    for (int i = 0; i < 256; i++)
        idx[i] = (i * 7 + 3) % 11;
    int *po = out, *pi = idx;
    ndrange r = {.dim = 1, .global = {256}, .local = {64}};
    run_kernel(exe, "priv", ARGS(&po, &pi), &r);
    int bad = 0;
    for (int g = 0; g < 256; g++) {
        int tmp[8];
        for (int i = 0; i < 8; i++)
            tmp[i] = g * 10 + i;
        tmp[idx[g] & 7] += 1000;
        bad += out[g] != tmp[idx[(g + 1) % 256] & 7] + tmp[idx[g] & 7];
    }
    CHECK(bad == 0, "%d wrong private-array results", bad);
    mosaic_executable_free(exe);
}

TEST(kernel_calls_kernel)
{
    const char *src = "kernel void inner(global int *o, int v) { o[get_global_id(0)] = v + (int)get_local_id(0); }\n"
                      "kernel void outer(global int *o) { inner(o, 100); o[get_global_id(0)] *= 2; }\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    CHECK(mosaic_executable_num_kernels(exe) == 2, "two kernels");
    int o[8], *po = o;
    ndrange r = {.dim = 1, .global = {8}, .local = {4}};
    run_kernel(exe, "outer", ARGS(&po), &r);
    CHECK(o[0] == 200 && o[5] == 202, "outer gave %d %d", o[0], o[5]);
    int v = 7;
    run_kernel(exe, "inner", ARGS(&po, &v), &r);
    CHECK(o[0] == 7 && o[7] == 10, "inner gave %d %d", o[0], o[7]);
    mosaic_executable_free(exe);
}

TEST(barrier_loop)
{
    /* barriers in a loop: a tree reduction in local memory */
    const char *src = "kernel void reduce(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  tmp[l] = in[get_global_id(0)];\n"
                      "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    if (l < s) tmp[l] += tmp[l + s];\n"
                      "  }\n"
                      "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    int in[128], out[4] = {0};
    for (int i = 0; i < 128; i++)
        in[i] = i;
    int *pi = in, *po = out;
    uint64_t off = 0;
    ndrange r = {.dim = 1, .global = {128}, .local = {32}, .local_arg_bytes = 32 * sizeof(int)};
    run_kernel(exe, "reduce", ARGS(&pi, &po, &off), &r);
    for (int g = 0; g < 4; g++)
        CHECK(out[g] == 32 * 32 * g + 31 * 32 / 2, "group %d sum %d", g, out[g]);
    mosaic_executable_free(exe);
}

TEST(program_scope_globals)
{
    const char *src = "global int counter = 5;\n"
                      "global float pair[2];\n"
                      "constant float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};\n"
                      "kernel void k(global float *o) { o[0] = table[counter & 3] + pair[0]; counter++; pair[0] += 1.0f; }\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    CHECK(mosaic_executable_global_variables_size(exe) == 3 * sizeof(int), "global size %zu",
          mosaic_executable_global_variables_size(exe));
    float o[1], *po = o;
    ndrange r = {.dim = 1, .global = {1}, .local = {1}};
    run_kernel(exe, "k", ARGS(&po), &r);
    CHECK(o[0] == 2.5f, "first run %g", o[0]);
    run_kernel(exe, "k", ARGS(&po), &r); /* program-scope variables keep their values */
    CHECK(o[0] == 4.5f, "second run %g", o[0]);
    mosaic_executable_free(exe);
}

TEST(printf)
{
    const char *src = "kernel void p(int v) { printf(\"mosaic printf %d %.2f %s\\n\", v, 3.5f, \"ok\"); }\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    int v = 42;
    ndrange r = {.dim = 1, .global = {1}, .local = {1}};
    run_kernel(exe, "p", ARGS(&v), &r);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[256] = {0};
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = 0;
    fclose(tmp);
    CHECK(strstr(buf, "mosaic printf 42 3.50 ok") != NULL, "printf wrote '%s'", buf);
    mosaic_executable_free(exe);
}

/* ---- OpenCL C printf -------------------------------------------------------------------- */
/* Runs kernel k over n work-items in groups of l with stdout captured;
 * returns what the kernel printed (malloc'd). */
static char *run_captured(mosaic_executable *exe, const char *k, void **args, size_t n, size_t l, int threads)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    ndrange r = {.dim = 1, .global = {n}, .local = {l}, .threads = threads};
    run_kernel(exe, k, args, &r);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long size = ftell(tmp) > 0 ? ftell(tmp) : lseek(fileno(tmp), 0, SEEK_END);
    char *text = calloc((size_t)size + 1, 1);
    lseek(fileno(tmp), 0, SEEK_SET);
    size_t got = size > 0 ? fread(text, 1, (size_t)size, tmp) : 0;
    text[got] = 0;
    fclose(tmp);
    return text;
}

/* Does text hold each line of want exactly once, and nothing else? (order free) */
static int same_lines(const char *text, char **want, size_t n)
{
    int bad = 0;
    size_t lines = 0;
    for (const char *p = text; *p; lines++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t i = 0;
        for (; i < n; i++)
            if (want[i] && strlen(want[i]) == len && !memcmp(want[i], p, len))
                break;
        if (i == n) {
            if (bad++ < 5)
                fprintf(stderr, "unexpected line: '%.*s'\n", (int)len, p);
        } else {
            free(want[i]);
            want[i] = NULL;
        }
        p += len + (nl ? 1 : 0);
    }
    for (size_t i = 0; i < n; i++)
        if (want[i]) {
            if (bad++ < 10)
                fprintf(stderr, "missing line: '%s'\n", want[i]);
            free(want[i]);
        }
    return bad;
}

TEST(printf_vectors)
{
    const char *src =
        "kernel void p(global const float4 *v, int base, global int *ret) {\n"
        "  int i = (int)get_global_id(0);\n"
        "  float4 f = v[i];\n"
        "  ret[i] = printf(\"wi %d: %s %5d|%-4d|%#x|%05.1f|%v4hlf|%v2hhd|%c|%e|%v3d|%lu|%.2v4hlf|%v8lf|%#v4hhx|%v2hu|%%|%hhd\\n\",\n"
        "      i, \"str\", base + i, i, 255 + i, 2.25f, f, (char2)(-1, 2), 'A' + i % 26, 1.5, (int3)(i, -i, 7),\n"
        "      (ulong)i * 1000000000000ul, f, (double8)(i, 0.5, 1, 2, 3, 4, 5, -6), (uchar4)(1, 0xab, 255, i),\n"
        "      (ushort2)(65535, i), 300);\n"
        "  ret[get_global_size(0) + i] = printf(\"%v4d\\n\", i);\n" /* a scalar for a vector: -1, nothing printed */
        "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    enum { N = 200 };
    float *v = malloc(N * 4 * sizeof *v);
    int *ret = calloc(2 * N, sizeof *ret);
    for (int i = 0; i < N * 4; i++)
        v[i] = (float)i * 0.25f - 3.0f;
    int base = 1000;
    char *text = run_captured(exe, "p", ARGS(&v, &base, &ret), N, 16, 2);
    char **want = calloc(N, sizeof *want);
    for (int i = 0; i < N; i++) {
        const float *f = &v[4 * i];
        char line[1024];
        snprintf(line, sizeof line,
                 "wi %d: %s %5d|%-4d|%#x|%05.1f|%f,%f,%f,%f|%hhd,%hhd|%c|%e|%d,%d,%d|%lu|%.2f,%.2f,%.2f,%.2f|"
                 "%f,%f,%f,%f,%f,%f,%f,%f|%#hhx,%#hhx,%#hhx,%#hhx|%hu,%hu|%%|%hhd",
                 i, "str", base + i, i, 255 + i, 2.25, f[0], f[1], f[2], f[3], (char)-1, (char)2, 'A' + i % 26, 1.5,
                 i, -i, 7, (unsigned long)i * 1000000000000ul, f[0], f[1], f[2], f[3], (double)i, 0.5, 1.0, 2.0, 3.0,
                 4.0, 5.0, -6.0, 1, 0xab, 255, (unsigned char)i, 65535, (unsigned short)i, (char)300);
        want[i] = strdup(line);
    }
    CHECK(same_lines(text, want, N) == 0, "printf output differs");
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += ret[i] != 0 || ret[N + i] != -1;
    CHECK(bad == 0, "%d wrong printf return values (%d %d)", bad, ret[0], ret[N]);
    free(want), free(text), free(v), free(ret);
    mosaic_executable_free(exe);
}

/* Much output from many work-items (beyond the buffer's threshold): every
 * line whole, once; and from a barrier kernel (fibers / threads). */
TEST(printf_many)
{
    const char *src = "kernel void p(int tag) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  printf(\"line %6zu of work-item %zu in group %zu, tag %d: \", i, get_local_id(0), get_group_id(0), tag);\n"
                      "  printf(\"%s\\n\", \"end\");\n"
                      "#ifdef BARRIER\n"
                      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
                      "  printf(\"after barrier %zu\\n\", i);\n"
                      "#endif\n"
                      "}\n";
    for (int barrier = 0; barrier < 2; barrier++) {
        mosaic_executable *exe = build_program(src, barrier ? "-D BARRIER" : NULL);
        if (!exe)
            return;
        size_t n = barrier ? 64 : 5000, l = barrier ? 16 : 100;
        int tag = 77;
        char *text = run_captured(exe, "p", ARGS(&tag), n, l, 2);
        size_t count = barrier ? 2 * n : n;
        char **want = calloc(count, sizeof *want);
        for (size_t i = 0; i < n; i++) {
            char line[256];
            snprintf(line, sizeof line, "line %6zu of work-item %zu in group %zu, tag %d: end", i, i % l, i / l, tag);
            want[i] = strdup(line);
            if (barrier) {
                snprintf(line, sizeof line, "after barrier %zu", i);
                want[n + i] = strdup(line);
            }
        }
        CHECK(same_lines(text, want, count) == 0, "printf output differs (barrier %d)", barrier);
        free(want), free(text);
        mosaic_executable_free(exe);
    }
}

/* '*' widths, no arguments, a format chosen at run time, %s of a NULL
 * string, too few arguments (-1 and nothing printed), %p. */
TEST(printf_edge_cases)
{
    const char *src = "kernel void p(global int *ret, int which) {\n"
                      "  ret[0] = printf(\"%*d|%-*.*f|%5.2s|\\n\", 5, 42, 8, 2, 3.14159, \"abc\");\n"
                      "  ret[1] = printf(\"no arguments\\n\");\n"
                      "  constant char *f = which ? \"one %d\\n\" : \"two %d\\n\";\n"
                      "  ret[2] = printf(f, which);\n"
                      "  ret[3] = printf(\"%d %d\\n\", 1);\n"
                      "  ret[4] = printf(\"%s|%c%c\\n\", (constant char *)0, 'o', 'k');\n"
                      "  ret[5] = printf(\"%v2d\\n\", (int4)(1, 2, 3, 4));\n" /* the wrong count */
                      "  ret[6] = printf(\"%hlf\\n\", 1.0f);\n"               /* hl without a vector */
                      "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    int *ret = calloc(8, sizeof *ret), which = 1;
    char *text = run_captured(exe, "p", ARGS(&ret, &which), 1, 1, 1);
    const char *want = "   42|3.14    |   ab|\nno arguments\none 1\n(null)|ok\n";
    CHECK(!strcmp(text, want), "printed '%s'", text);
    CHECK(ret[0] == 0 && ret[1] == 0 && ret[2] == 0 && ret[3] == -1 && ret[4] == 0 && ret[5] == -1 && ret[6] == -1,
          "returned %d %d %d %d %d %d %d", ret[0], ret[1], ret[2], ret[3], ret[4], ret[5], ret[6]);
    free(text), free(ret);
    mosaic_executable_free(exe);
}

/* The macros clang defines for every SPIR target are undefined unless the
 * device's feature list names them (the front end's prelude). */
TEST(feature_macros)
{
    const char *src = "kernel void k(global int *o) {\n"
                      "  int r = 0;\n"
                      "#ifdef __IMAGE_SUPPORT__\n  r |= 1;\n#endif\n"
                      "#ifdef cl_khr_subgroup_ballot\n  r |= 2;\n#endif\n"
                      "#ifdef cl_ext_float_atomics\n  r |= 4;\n#endif\n"
                      "#ifdef __opencl_c_read_write_images\n  r |= 8;\n#endif\n"
                      "#ifdef __opencl_c_work_group_collective_functions\n  r |= 16;\n#endif\n"
                      "#ifdef __opencl_c_generic_address_space\n  r |= 32;\n#endif\n"
                      "#ifdef cl_khr_fp64\n  r |= 64;\n#endif\n"
                      "#ifdef __opencl_c_pipes\n  r |= 128;\n#endif\n"
                      "  o[0] = r;\n"
                      "}\n";
    /* the test target has images (and read-write images) */
    static const struct { const char *options; int want; } cases[] = {
        {"-cl-std=CL1.2", 1 | 64}, {"-cl-std=CL2.0", 1 | 8 | 16 | 32 | 64}, {"-cl-std=CL3.0", 1 | 8 | 16 | 32 | 64}};
    for (int c = 0; c < 3; c++) {
        mosaic_executable *exe = build_program(src, cases[c].options);
        if (!exe)
            continue;
        int o[1] = {-1}, *po = o;
        ndrange r = {.dim = 1, .global = {1}, .local = {1}};
        run_kernel(exe, "k", ARGS(&po), &r);
        CHECK(o[0] == cases[c].want, "%s: macros %#x, want %#x", cases[c].options, o[0], cases[c].want);
        mosaic_executable_free(exe);
    }
}

/* Writes `#define HEADER_VALUE value` to the file `header`, builds source
 * (which includes it) with options, removes the file, and checks that
 * kernel k stores the value. */
static void check_header_found(const char *header, const char *source, const char *options, int value,
                               const char *what)
{
    FILE *f = fopen(header, "w");
    if (!f) {
        CHECK(0, "cannot write a header");
        return;
    }
    fprintf(f, "#define HEADER_VALUE %d\n", value);
    fclose(f);
    mosaic_executable *exe = build_program(source, options);
    unlink(header);
    if (!exe)
        return;
    int o[1] = {0}, *po = o;
    ndrange r = {.dim = 1, .global = {1}, .local = {1}};
    run_kernel(exe, "k", ARGS(&po), &r);
    CHECK(o[0] == value, "header from %s gave %d", what, o[0]);
    mosaic_executable_free(exe);
}

TEST(include_dir)
{
    /* -I relative to the current directory */
    mkdir("mosaic_test_inc", 0700);
    check_header_found("mosaic_test_inc/mosaic_test_defs.h",
                       "#include <mosaic_test_defs.h>\n"
                       "kernel void k(global int *o) { o[0] = HEADER_VALUE; }\n",
                       "-I mosaic_test_inc", 17, "-I");
    rmdir("mosaic_test_inc");
}

TEST(include_from_working_dir)
{
    /* a header in the application's working directory, no -I: found there,
     * as by compilers that run inside the application (frontend.c) */
    check_header_found("mosaic_test_cwd.h",
                       "#include \"./mosaic_test_cwd.h\"\n"
                       "kernel void k(global int *o) { o[0] = HEADER_VALUE; }\n",
                       NULL, 23, "the working directory");
}

TEST(replace_uses)
{
    /* v's uses outside its block become uses of `to`, a user that holds v
     * twice (x * x) among them, wherever it lies in v's list of uses */
    for (int twice_at = 0; twice_at < 3; twice_at++) {
        LLVMContextRef c = LLVMContextCreate();
        LLVMModuleRef m = LLVMModuleCreateWithNameInContext("uses", c);
        LLVMTypeRef fl = LLVMFloatTypeInContext(c);
        LLVMTypeRef params[2] = {fl, fl};
        LLVMValueRef f = LLVMAddFunction(m, "f", LLVMFunctionType(fl, params, 2, 0));
        LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(c, f, "in"),
                          out = LLVMAppendBasicBlockInContext(c, f, "out");
        LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
        LLVMPositionBuilderAtEnd(b, in);
        LLVMValueRef v = LLVMBuildFAdd(b, LLVMGetParam(f, 0), LLVMGetParam(f, 1), "v");
        LLVMValueRef inside = LLVMBuildFMul(b, v, v, "inside");
        LLVMBuildBr(b, out);
        LLVMPositionBuilderAtEnd(b, out);
        LLVMValueRef to = LLVMBuildFSub(b, LLVMGetParam(f, 0), LLVMGetParam(f, 1), "to");
        LLVMValueRef sum = inside;
        for (int k = 0; k < 3; k++) {
            LLVMValueRef user = k == twice_at ? LLVMBuildFMul(b, v, v, "") : LLVMBuildFAdd(b, v, sum, "");
            sum = LLVMBuildFAdd(b, sum, user, "");
        }
        LLVMBuildRet(b, sum);
        mc_replace_uses_outside(v, in, to);
        int left = 0, kept = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
            *(LLVMGetInstructionParent(LLVMGetUser(u)) == in ? &kept : &left) += 1;
        CHECK(!left && kept == 2, "user of v twice at %d: %d uses left outside its block, %d inside", twice_at,
              left, kept);
        LLVMDisposeBuilder(b);
        LLVMDisposeModule(m);
        LLVMContextDispose(c);
    }
}

typedef struct thread_build {
    int id, result;
} thread_build;

static void *build_and_run(void *p)
{
    thread_build *t = p;
    char src[256];
    snprintf(src, sizeof src,
             "kernel void k(global int *o) { size_t i = get_global_id(0); o[i] = (int)i * %d + (int)sqrt((float)%d); }\n",
             t->id + 1, (t->id + 1) * (t->id + 1));
    for (int round = 0; round < 3; round++) {
        mosaic_executable *exe = build_program(src, round == 1 ? "-cl-opt-disable" : NULL);
        if (!exe)
            return NULL;
        int o[64], *po = o;
        ndrange r = {.dim = 1, .global = {64}, .local = {16}};
        run_kernel(exe, "k", ARGS(&po), &r);
        for (int i = 0; i < 64; i++)
            t->result += o[i] != i * (t->id + 1) + t->id + 1;
        mosaic_executable_free(exe);
    }
    return NULL;
}

TEST(concurrent_builds)
{
    enum { T = 4 };
    pthread_t th[T];
    thread_build tb[T];
    for (int i = 0; i < T; i++) {
        tb[i] = (thread_build){i, 0};
        pthread_create(&th[i], NULL, build_and_run, &tb[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        CHECK(tb[i].result == 0, "thread %d: %d wrong results", i, tb[i].result);
    }
}

/* ---- the on-disk kernel cache (MOSAIC_CACHE_DIR is a private directory here) ------- */
/* Writes garbage into the middle of the entry at path. */
static void damage_entry(const char *path, void *data)
{
    (void)data;
    FILE *fp = fopen(path, "r+b");
    if (fp) {
        fseek(fp, 40, SEEK_SET);
        fputs("garbage garbage garbage", fp);
        fclose(fp);
    }
}

static int count_entries(const char *dir, int corrupt)
{
    return test_each_cache_entry(dir, "obj", corrupt ? damage_entry : NULL, NULL);
}

TEST(cache)
{
    const char *dir = getenv("MOSAIC_CACHE_DIR");
    const char *src = "kernel void cached(global int *o, int k) { o[get_global_id(0)] = (int)get_global_id(0) * k + 12345; }\n";
    int before = count_entries(dir, 0);
    for (int round = 0; round < 3; round++) {
        if (round == 2)
            count_entries(dir, 1); /* a damaged entry must not break the build */
        mosaic_executable *exe = build_program(src, NULL);
        if (!exe)
            return;
        int o[16], *po = o, k = 3 + round;
        ndrange r = {.dim = 1, .global = {16}, .local = {8}};
        run_kernel(exe, "cached", ARGS(&po, &k), &r);
        int bad = 0;
        for (int i = 0; i < 16; i++)
            bad += o[i] != i * k + 12345;
        CHECK(bad == 0, "round %d: %d wrong", round, bad);
        const mosaic_kernel_info *info = mosaic_executable_find_kernel(exe, "cached");
        CHECK(info && info->num_args == 2 && !strcmp(info->args[1].name, "k") && info->wg_fn,
              "round %d: kernel info from the cache", round);
        mosaic_executable_free(exe);
        if (round == 0)
            CHECK(count_entries(dir, 0) == before + 1, "one new cache entry (%d -> %d)", before, count_entries(dir, 0));
    }
}

/* MOSAIC_CACHE_MAX_MB: a store that takes the cache over the limit removes the
 * least recently used entries (a hit counts as a use), down to 90% of it. */
static mc_cache_key test_key(int i)
{
    mc_cache_key k;
    memset(&k, 0, sizeof k);
    k.bytes[0] = (uint8_t)(0x10 * i); /* other subdirectories */
    k.bytes[31] = (uint8_t)i;
    return k;
}


/* Is entry i there (its payload 300000 bytes, the last one fill)? */
static bool cached_as(int i, int fill)
{
    mc_cache_key k = test_key(i);
    void *data;
    size_t size;
    bool hit = mc_cache_load(MC_CACHE_OBJECT, &k, &data, &size);
    if (hit) {
        CHECK(size == 300000 && ((unsigned char *)data)[299999] == (unsigned char)fill, "entry %d's payload", i);
        free(data);
    }
    return hit;
}

static bool cached(int i) { return cached_as(i, i); }

typedef struct eviction_thread { int first; char *payload; } eviction_thread;

static void *store_many(void *arg)
{
    eviction_thread *t = arg;
    for (int i = t->first; i < t->first + 8; i++) {
        mc_cache_key k = test_key(i);
        mc_cache_store(MC_CACHE_OBJECT, &k, t->payload, 300000);
        cached_as(i, t->payload[299999]); /* or gone already */
    }
    return NULL;
}

static long long entries_size(const char *dir)
{
    long long total = 0;
    for (int d = 0; d < 256; d++) {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/%02x", dir, d);
        DIR *listing = opendir(sub);
        struct dirent *e;
        while (listing && (e = readdir(listing))) {
            char path[8400];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
            if (e->d_name[0] != '.' && !stat(path, &st))
                total += st.st_size;
        }
        if (listing)
            closedir(listing);
    }
    return total;
}

TEST(cache_eviction)
{
    char dir[] = "/tmp/mosaic-test-lru-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *saved_dir = getenv("MOSAIC_CACHE_DIR") ? strdup(getenv("MOSAIC_CACHE_DIR")) : NULL;
    setenv("MOSAIC_CACHE_MAX_MB", "1", 1);
    set_setting("MOSAIC_CACHE_DIR", dir);
    char *payload = malloc(300000);
    /* 1, 2, 3 fit in 1 MiB (3 x 300 KB and headers); 1 is used again; 4 is one too many */
    for (int i = 1; i <= 4; i++) {
        memset(payload, i, 300000);
        mc_cache_key k = test_key(i);
        mc_cache_store(MC_CACHE_OBJECT, &k, payload, 300000);
        usleep(30000); /* file times are coarse (a clock tick) */
        if (i == 3) {
            CHECK(cached(1) && cached(2) && cached(3), "three entries fit");
            usleep(30000);
            CHECK(cached(1));
            usleep(30000);
        }
    }
    CHECK(!cached(2), "the least recently used entry goes");
    CHECK(cached(1) && cached(3) && cached(4), "the others stay");
    CHECK(entries_size(dir) <= (1 << 20), "%lld bytes in a cache of 1 MiB", entries_size(dir));
    /* many writers at once (each store locks DIR/size; readers do not) */
    pthread_t th[4];
    eviction_thread t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = (eviction_thread){16 + 8 * i, payload};
        pthread_create(&th[i], NULL, store_many, &t[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    CHECK(entries_size(dir) <= (1 << 20) + 4 * 300100, "%lld bytes after concurrent stores", entries_size(dir));
    /* the next store brings it under the limit again */
    mc_cache_key k = test_key(99);
    mc_cache_store(MC_CACHE_OBJECT, &k, payload, 300000);
    CHECK(entries_size(dir) <= (1 << 20), "%lld bytes", entries_size(dir));
    free(payload);
    unsetenv("MOSAIC_CACHE_MAX_MB");
    set_setting("MOSAIC_CACHE_DIR", saved_dir);
    free(saved_dir);
    test_remove_tree(dir);
}

/* ---- generic address space ---------------------------------------------------------- */
/* Pointers to global, local and private memory reach helper functions as
 * generic pointers; to_global/to_local/to_private and get_fence must tell
 * them apart, in work-group loops (no barrier) and in barrier kernels. */
static const char generic_as_source[] =
    "global int gvar = 7;\n"
    "int classify(int *p) {\n"
    "  int r = (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2;\n"
    "  if (to_global(p) && (global int *)to_global(p) != (global int *)p) r |= 64;\n"
    "  if (to_local(p)) { *to_local(p) += 1; *p -= 1; }\n" /* writes through the named pointer */
    "  if (to_private(p)) { *to_private(p) += 1; *p -= 1; }\n"
    "  return r;\n"
    "}\n"
    "uint fence(const int *p) { return get_fence(p); }\n"
    "uint fence_nc(int *p) { return get_fence(p); }\n"
    "kernel void k(global int *out, global int *buf, local int *larg) {\n"
    "  local int lvar[4];\n"
    "  int pv[3] = {1, 2, 3};\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  if (l == 0) lvar[1] = 11;\n"
    "  larg[l] = (int)l;\n"
    "  int *ps[5] = {&buf[i], &lvar[1], &pv[2], &larg[l], &gvar};\n"
    "  for (int j = 0; j < 5; j++) {\n"
    "    out[i * 16 + 3 * j] = classify(ps[j]);\n"
    "    out[i * 16 + 3 * j + 1] = (int)fence(ps[j]);\n"
    "    out[i * 16 + 3 * j + 2] = (int)fence_nc(ps[j]);\n"
    "#ifdef BARRIER\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#endif\n"
    "  }\n"
    "  out[i * 16 + 15] = pv[2] * 100 + larg[l];\n"
    "}\n";

TEST(generic_address_space)
{
    static const char *const options[] = {"-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-std=CL2.0 -D BARRIER",
                                          "-cl-std=CL3.0 -D BARRIER -cl-opt-disable"};
    for (size_t o = 0; o < sizeof options / sizeof options[0]; o++) {
        mosaic_executable *exe = build_program(generic_as_source, options[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        CHECK(k && (k->uses_barriers != 0) == (strstr(options[o], "BARRIER") != NULL), "%s: barriers", options[o]);
        enum { N = 24 };
        /* on the heap: this thread's stack is private memory to work-group loops it runs */
        int *out = calloc(N * 16, sizeof *out), *buf = calloc(N, sizeof *buf);
        int *po = out, *pb = buf;
        uint64_t larg = (k ? k->static_local_mem_size + 127 : 0) / 128 * 128;
        ndrange r = {.dim = 1, .global = {N}, .local = {8}, .local_arg_bytes = 8 * sizeof(int)};
        run_kernel(exe, "k", ARGS(&po, &pb, &larg), &r);
        /* global: 1, fence CLK_GLOBAL_MEM_FENCE; local: 2, CLK_LOCAL_MEM_FENCE; private: 4, no flags */
        static const int want[5][2] = {{1, 2}, {2, 1}, {4, 0}, {2, 1}, {1, 2}};
        int bad = 0;
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 5; j++) {
                const int *v = &out[i * 16 + 3 * j];
                if (v[0] != want[j][0] || v[1] != want[j][1] || v[2] != want[j][1]) {
                    if (bad++ < 5)
                        fprintf(stderr, "%s: item %d pointer %d: class %d fence %d/%d, want %d %d\n", options[o], i,
                                j, v[0], v[1], v[2], want[j][0], want[j][1]);
                }
            }
            bad += out[i * 16 + 15] != 300 + i % 8;
        }
        CHECK(bad == 0, "%s: %d wrong answers", options[o], bad);
        free(out), free(buf);
        mosaic_executable_free(exe);
    }
}

/* ---- work-group collective functions ----------------------------------------------------- */
/* Every type in 1D; int and double in 3D (the end-to-end tests do 2D and 3D
 * on the device): through the work-group function and one thread per
 * work-item. */
TEST(work_group_collectives)
{
    static const coll_range ranges[2] = {
        {1, {100, 1, 1}, {16, 1, 1}}, /* a trailing group of 4 */
        {3, {5, 4, 3}, {2, 3, 2}},    /* trailing groups in x and z */
    };
    for (int d = 0; d < 2; d++) {
        char opts[64];
        snprintf(opts, sizeof opts, "-cl-std=CL%s -D DIM=%d %s", d ? "2.0" : "3.0", ranges[d].dim,
                 d ? "-D WITH_int -D WITH_double" : "-D ALL");
        mosaic_executable *exe = build_program(collectives_kernels, opts);
        if (!exe)
            continue;
        const coll_range *cr = &ranges[d];
        size_t n = cr->global[0] * cr->global[1] * cr->global[2];
        for (int per_item = 0; per_item < 2; per_item++) {
            ndrange r = {.dim = cr->dim, .per_item = per_item, .threads = 2};
            for (int i = 0; i < 3; i++)
                r.global[i] = cr->global[i], r.local[i] = cr->local[i];
            unsigned k = 7;
            char what[128];
            snprintf(what, sizeof what, "%s%s", opts, per_item ? " (threads)" : "");
            int *flags = calloc(2 * n, sizeof *flags);
#define RUN(T)                                                                                     \
    do {                                                                                           \
        T *in = calloc(n, sizeof *in), *out = calloc(10 * n, sizeof *out);                         \
        coll_input_##T(in, n);                                                                     \
        run_kernel(exe, "coll_" #T, ARGS(&in, &out, &flags, &k), &r);                              \
        CHECK(collectives_check_##T(cr, in, out, flags, k, what) == 0, "%s %s", what, #T);         \
        free(in), free(out);                                                                       \
    } while (0)
            RUN(int);
            RUN(double);
            if (!d) {
                RUN(uint);
                RUN(long);
                RUN(ulong);
                RUN(float);
            }
#undef RUN
            free(flags);
        }
        mosaic_executable_free(exe);
    }
}

/* ---- driver ----------------------------------------------------------------------------- */
/* ---- spin loops (spin_loops.c) ------------------------------------------------------ */
/* Loops that wait for other work-items lose the work-group function (the
 * device runs them as fibers that yield); loops that only use atomics, take
 * tickets (persistent threads) or read volatile data as values keep it, in
 * both builds. */
TEST(spin_loops)
{
    const char *src =
        "kernel void wait_flag(global atomic_int *flag, global int *out) {\n"
        "  if (get_global_id(0) == 0) {\n"
        "    while (atomic_load(flag) != (int)get_global_size(0) - 1)\n"
        "      ;\n"
        "    out[0] = 1;\n"
        "  } else {\n"
        "    atomic_fetch_add(flag, 1);\n"
        "  }\n"
        "}\n"
        "kernel void wait_volatile(volatile global int *flag) {\n"
        "  while (*flag == 0)\n"
        "    ;\n"
        "}\n"
        "kernel void lock(global int *lock, global int *count) {\n"
        "  while (atomic_cmpxchg(lock, 0, 1) != 0)\n"
        "    ;\n"
        "  *count += 1;\n"
        "  atomic_xchg(lock, 0);\n"
        "}\n"
        "kernel void histogram(global const uchar *in, global atomic_int *bins, int n) {\n"
        "  for (int i = (int)get_global_id(0) * 16; i < n && i < (int)get_global_id(0) * 16 + 16; i++)\n"
        "    atomic_fetch_add_explicit(&bins[in[i]], 1, memory_order_relaxed);\n"
        "}\n"
        "kernel void sum_until(global atomic_int *total, global const int *in, global int *out) {\n"
        "  int s = 0;\n"
        "  for (int i = 0; i < 8; i++)\n"
        "    s += atomic_fetch_add(total, in[i]);\n"
        "  out[get_global_id(0)] = s;\n"
        "}\n"
        "kernel void persistent(global int *next, global int *out, int n) {\n"
        "  int i;\n"
        "  while ((i = atomic_inc(next)) < n)\n"
        "    out[i] = i;\n"
        "}\n"
        "kernel void volatile_data(volatile global const int *in, global int *out) {\n"
        "  int s = 0;\n"
        "  for (int k = 0; k < 64; k++)\n"
        "    s += in[k];\n"
        "  out[get_global_id(0)] = s;\n"
        "}\n";
    for (int o = 0; o < 2; o++) {
        const char *opts = o ? "-cl-std=CL3.0 -cl-opt-disable" : "-cl-std=CL3.0";
        mosaic_executable *exe = build_program(src, opts);
        if (!exe)
            continue;
        static const char *const spinning[] = {"wait_flag", "wait_volatile", "lock"};
        for (size_t i = 0; i < 3; i++) {
            const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, spinning[i]);
            CHECK(k && !k->wg_fn && k->wi_fn, "%s (%s) should run as fibers", spinning[i], opts);
        }
        static const char *const waiting_for_none[] = {"histogram", "sum_until", "persistent", "volatile_data"};
        for (size_t i = 0; i < 4; i++) {
            const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, waiting_for_none[i]);
            CHECK(k && k->wg_fn, "%s (%s) should keep its work-group function", waiting_for_none[i], opts);
        }
        /* and the waiting one finishes, its work-items on threads that yield */
        int flag = 0, out = 0;
        int *pf = &flag, *po = &out;
        ndrange r = {.dim = 1, .global = {16}, .local = {16}};
        run_kernel(exe, "wait_flag", ARGS(&pf, &po), &r);
        CHECK(flag == 15 && out == 1, "wait_flag (%s): flag %d out %d", opts, flag, out);
        mosaic_executable_free(exe);
    }
}

int main(int argc, char **argv)
{
    /* a private kernel cache, removed at the end */
    const char *cache = test_private_cache();
    test_run(argc, argv);
    if (cache)
        test_remove_tree(cache);
    return test_summary();
}
