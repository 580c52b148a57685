/* Global memory that is aligned only to 16 bytes (a CL_MEM_USE_HOST_PTR
 * buffer around malloc'd memory) works with every vector type: generated code
 * must not assume the type's natural alignment (64 bytes for float16) on
 * global, constant or generic pointers (finalize.c clamps it). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_alignment.list"
#include "test.h"
#include "compiler/compiler.h"

static void wi_barrier(mosaic_wg_ctx *ctx) { (void)ctx; }

static const struct mosaic_runtime_symbol symbols[] = {{"__mosaic_barrier", (void *)wi_barrier}};
static const mosaic_compiler_target target = {
    .clang_features = "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,"
                      "+__opencl_c_generic_address_space",
    .runtime_symbols = symbols,
    .num_runtime_symbols = 1,
};

static const char source[] =
    "typedef struct { float16 v; double4 d; } S;\n"
    "float16 twice(const float16 *p) { return *p * 2.0f; }\n" /* through a generic pointer */
    "kernel void k(global const float16 *a, global float16 *b, constant float8 *c, global S *s,\n"
    "              global double8 *d, global int16 *e) {\n"
    "  size_t i = get_global_id(0);\n"
    "  b[i] = twice(&a[i]) + (float16)(c[i % 2], c[1 - i % 2]);\n"
    "  S t = s[i];\n"
    "  t.v += 1.0f;\n"
    "  t.d *= 3.0;\n"
    "  s[i] = t;\n"
    "  d[i] = d[i] + (double8)(1.0);\n"
    "  e[i] = e[i] << 1;\n"
    "}\n";

static mosaic_executable *build(const char *options)
{
    mosaic_bitcode obj = {0}, linked = {0};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_compile_source(&target, source, options, 0, NULL, &obj, &log);
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_link_bitcode(&target, 1, &obj, "", 0, &linked, &log);
    }
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_finalize(&target, &linked, options, &exe, &log);
    }
    if (r != CL_SUCCESS)
        fprintf(stderr, "build failed (%d):\n%s\n", r, log ? log : "");
    free(log);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&linked);
    return exe;
}

/* bytes at an address that is 16 modulo 128 */
static void *misaligned(size_t bytes, void **block)
{
    *block = aligned_alloc(128, (bytes + 255) / 128 * 128);
    return (char *)*block + 16;
}

TEST(alignment)
{
    static const char *const options[] = {"-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        mosaic_executable *exe = build(options[o]);
        if (!exe) {
            TEST_FAIL("%s: the kernel did not build", options[o]);
            return;
        }
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        enum { N = 64 };
        void *blocks[6];
        float *a = misaligned(N * 64, &blocks[0]), *b = misaligned(N * 64, &blocks[1]);
        float *c = misaligned(2 * 32, &blocks[2]);
        char *s = misaligned(N * 128, &blocks[3]); /* sizeof(S) = 128 */
        double *d = misaligned(N * 64, &blocks[4]);
        int *e = misaligned(N * 64, &blocks[5]);
        for (int i = 0; i < N * 16; i++) {
            a[i] = (float)i;
            e[i] = i;
        }
        for (int i = 0; i < 16; i++)
            c[i] = (float)(100 * i);
        for (int i = 0; i < N; i++) {
            float *sv = (float *)(s + 128 * i);
            double *sd = (double *)(s + 128 * i + 64);
            for (int j = 0; j < 16; j++)
                sv[j] = (float)j;
            for (int j = 0; j < 4; j++)
                sd[j] = (double)j;
            for (int j = 0; j < 8; j++)
                d[8 * i + j] = (double)(i + j);
        }
        void *pa = a, *pb = b, *pc = c, *ps = s, *pd = d, *pe = e;
        void *args[] = {&pa, &pb, &pc, &ps, &pd, &pe};
        for (size_t g = 0; g < N / 16; g++) {
            mosaic_wg_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.work_dim = 1;
            ctx.global_size[0] = N;
            ctx.enqueued_local_size[0] = ctx.local_size[0] = 16;
            ctx.num_groups[0] = N / 16;
            ctx.group_id[0] = g;
            for (int dd = 1; dd < 3; dd++)
                ctx.global_size[dd] = ctx.enqueued_local_size[dd] = ctx.local_size[dd] = ctx.num_groups[dd] = 1;
            k->wg_fn((void *const *)args, &ctx);
        }
        int bad = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 16; j++) {
                int ci = (j < 8 ? i % 2 : 1 - i % 2) * 8 + j % 8;
                bad += b[16 * i + j] != 2.0f * a[16 * i + j] + c[ci];
                bad += ((float *)(s + 128 * i))[j] != (float)j + 1.0f;
                bad += e[16 * i + j] != (16 * i + j) << 1;
            }
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 4; j++)
                bad += ((double *)(s + 128 * i + 64))[j] != 3.0 * j;
            for (int j = 0; j < 8; j++)
                bad += d[8 * i + j] != (double)(i + j) + 1.0;
        }
        CHECK(bad == 0, "%s: %d wrong values", options[o], bad);
        for (int i = 0; i < 6; i++)
            free(blocks[i]);
        mosaic_executable_free(exe);
    }
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
