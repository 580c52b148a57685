/* Math functions in vectorised work-group loops (src/compiler/vectorize/vecmath.c:
 * glibc's libmvec variants) stay within OpenCL C's error bounds (OpenCL C
 * 3.0, section 7.4, full profile) for float and double, special values
 * included.  The reference is the C library in double (for float) and long
 * double (for double). */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_vecmath.list"
#include "test.h"
#include "compiler/compiler.h"

static const mosaic_compiler_target target = {
    .clang_features = "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64",
};

typedef struct fn {
    const char *name;
    int args;
    double ulps; /* float and double limits are the same for these */
    int float_only; /* glibc's scalar double cbrt itself exceeds the limit (2.98 ulp) */
    double (*ref)(double, double);
    long double (*refl)(long double, long double);
} fn;
#define F_ONLY(n, a, u) {#n, a, u, 1, r_##n, rl_##n}

#define R1(n)                                                                  \
    static double r_##n(double x, double y) { (void)y; return n(x); }          \
    static long double rl_##n(long double x, long double y) { (void)y; return n##l(x); }
#define R2(n)                                                                  \
    static double r_##n(double x, double y) { return n(x, y); }                \
    static long double rl_##n(long double x, long double y) { return n##l(x, y); }
R1(acos) R1(acosh) R1(asin) R1(asinh) R1(atan) R1(atanh) R1(cos) R1(cosh) R1(erf) R1(erfc) R1(exp) R1(exp2)
R1(exp10) R1(expm1) R1(log) R1(log10) R1(log1p) R1(log2) R1(sin) R1(sinh) R1(tan) R1(tanh) R1(cbrt)
R2(atan2) R2(hypot) R2(pow)

#define F(n, a, u) {#n, a, u, 0, r_##n, rl_##n}
static const fn fns[] = {
    F(acos, 1, 4), F(acosh, 1, 4), F(asin, 1, 4), F(asinh, 1, 4), F(atan, 1, 5), F(atanh, 1, 5), F(cos, 1, 4),
    F(cosh, 1, 4), F(erf, 1, 16), F(erfc, 1, 16), F(exp, 1, 3), F(exp2, 1, 3), F(exp10, 1, 3), F(expm1, 1, 3),
    F(log, 1, 3), F(log10, 1, 3), F(log1p, 1, 2), F(log2, 1, 3), F(sin, 1, 4), F(sinh, 1, 4), F(tan, 1, 5),
    F(tanh, 1, 5), F(cbrt, 1, 2), F(atan2, 2, 6), F(hypot, 2, 4), F(pow, 2, 16),
};
enum { NUM_FNS = sizeof fns / sizeof fns[0], N = 1 << 16, GROUP = 256 };

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* inputs: special values, then every exponent (random bits), then [-10, 10] and [-1, 1] */
static double input(size_t i, int is_double)
{
    static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 2.0,
                                     0x1p-149, -0x1p-149, 0x1p-126, 88.5, -87.5, 100.0, 1e30, -1e30};
    if (i < sizeof special / sizeof special[0])
        return special[i];
    double u = (double)(next() >> 11) * 0x1p-53;
    switch (i % 3) {
    case 0: {
        if (is_double) {
            uint64_t b = next();
            double d;
            memcpy(&d, &b, 8);
            return d;
        }
        uint32_t b = (uint32_t)next();
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    case 1:
        return u * 20 - 10;
    default:
        return u * 2 - 1;
    }
}

static double ulp_float(double ref)
{
    float r = (float)ref;
    if (isinf(r))
        r = copysignf(FLT_MAX, r);
    int e;
    frexp(r, &e);
    double u = ldexp(1.0, e - 24);
    return u < 0x1p-149 ? 0x1p-149 : u;
}

static long double ulp_double(long double ref)
{
    double r = (double)ref;
    if (isinf(r))
        r = copysign(DBL_MAX, r);
    int e;
    frexp(r, &e);
    long double u = ldexpl(1.0L, e - 53);
    return u < 0x1p-1074L ? 0x1p-1074L : u;
}

/* Error in ulps of `got` against ref; 0 for matching special values, a large
 * number for mismatching ones. */
static double error(double got, long double ref, int is_double)
{
    double rd = is_double ? (double)ref : (double)(float)ref;
    if (isnan(got) || isnan(rd))
        return isnan(got) && isnan(rd) ? 0 : 1e9;
    if (isinf(got) || isinf(rd)) {
        if (got == rd)
            return 0;
        if (!is_double && isinf(rd) && fabsl(ref) <= FLT_MAX)
            rd = copysign(FLT_MAX, rd); /* rounding a finite result to infinity */
        else if (isinf(got) || isinf(rd))
            return 1e9;
    }
    if (is_double)
        return (double)(fabsl((long double)got - ref) / ulp_double(ref));
    return fabs(got - (double)ref) / ulp_float((double)ref);
}

static mosaic_executable *build(const char *source)
{
    mosaic_bitcode obj = {0}, linked = {0};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_compile_source(&target, source, "", 0, NULL, &obj, &log);
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_link_bitcode(&target, 1, &obj, "", 0, &linked, &log);
    }
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_finalize(&target, &linked, "", &exe, &log);
    }
    if (r != CL_SUCCESS)
        fprintf(stderr, "build failed (%d):\n%s\n", r, log ? log : "");
    free(log);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&linked);
    return exe;
}

/* Runs k over `global` work-items in groups of GROUP (the last one smaller). */
static void run(const mosaic_kernel_info *k, void **args, size_t global)
{
    size_t groups = (global + GROUP - 1) / GROUP;
    for (size_t g = 0; g < groups; g++) {
        mosaic_wg_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.work_dim = 1;
        ctx.global_size[0] = global;
        ctx.enqueued_local_size[0] = GROUP;
        ctx.local_size[0] = global - g * GROUP < GROUP ? global - g * GROUP : GROUP;
        ctx.num_groups[0] = groups;
        ctx.group_id[0] = g;
        for (int d = 1; d < 3; d++)
            ctx.global_size[d] = ctx.enqueued_local_size[d] = ctx.local_size[d] = ctx.num_groups[d] = 1;
        k->wg_fn((void *const *)args, &ctx);
    }
}

/* Vector widths: 1 is the scalar function in a vectorised loop; the others
 * are OpenCL vector types (vector-typed calls, libmvec variants of a nearby
 * width after optimisation). */
static const int widths[] = {1, 2, 3, 4, 8, 16};
enum { NUM_WIDTHS = sizeof widths / sizeof widths[0] };

TEST(vecmath)
{
    char *src = malloc(1024 * 1024);
    size_t len = 0;
    for (int i = 0; i < NUM_FNS; i++)
        for (int d = 0; d < 2 - fns[i].float_only; d++)
            for (int w = 0; w < NUM_WIDTHS; w++) {
                const char *t = d ? "double" : "float";
                int n = widths[w];
                if (n == 1)
                    len += (size_t)sprintf(src + len,
                                           "kernel void %c1_%s(global const %s *x, global const %s *y, global %s *r)"
                                           " { size_t i = get_global_id(0); r[i] = %s(x[i]%s); }\n",
                                           d ? 'd' : 'f', fns[i].name, t, t, t, fns[i].name,
                                           fns[i].args == 2 ? ", y[i]" : "");
                else if (fns[i].args == 2)
                    len += (size_t)sprintf(src + len,
                                           "kernel void %c%d_%s(global const %s *x, global const %s *y, global %s *r)"
                                           " { size_t i = get_global_id(0);"
                                           " vstore%d(%s(vload%d(i, x), vload%d(i, y)), i, r); }\n",
                                           d ? 'd' : 'f', n, fns[i].name, t, t, t, n, fns[i].name, n, n);
                else
                    len += (size_t)sprintf(src + len,
                                           "kernel void %c%d_%s(global const %s *x, global const %s *y, global %s *r)"
                                           " { size_t i = get_global_id(0); vstore%d(%s(vload%d(i, x)), i, r); }\n",
                                           d ? 'd' : 'f', n, fns[i].name, t, t, t, n, fns[i].name, n);
            }
    mosaic_executable *exe = build(src);
    free(src);
    if (!exe) {
        TEST_FAIL("the kernels did not build");
        return;
    }
    double *xd = malloc(N * sizeof *xd), *yd = malloc(N * sizeof *yd), *rd = malloc(N * sizeof *rd);
    float *xf = malloc(N * sizeof *xf), *yf = malloc(N * sizeof *yf), *rf = malloc(N * sizeof *rf);
    for (int i = 0; i < NUM_FNS; i++)
        for (int d = 0; d < 2 - fns[i].float_only; d++)
            for (int w = 0; w < NUM_WIDTHS; w++) {
                char name[32];
                int n = widths[w];
                snprintf(name, sizeof name, "%c%d_%s", d ? 'd' : 'f', n, fns[i].name);
                const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
                if (!k || !k->wg_fn) {
                    TEST_FAIL("%s: no work-group function", name);
                    continue;
                }
                for (size_t j = 0; j < N; j++) {
                    xd[j] = input(j, d);
                    yd[j] = input(j / 7 * 7 + (j * 5) % 7, d);
                    if (fns[i].args == 2 && j % 5 == 0) /* pow: small integer and half-integer exponents too */
                        yd[j] = (double)((int)(next() % 41) - 20) * 0.5;
                    xf[j] = (float)xd[j];
                    yf[j] = (float)yd[j];
                }
                void *px = d ? (void *)xd : (void *)xf, *py = d ? (void *)yd : (void *)yf;
                void *pr = d ? (void *)rd : (void *)rf;
                size_t items = N / (size_t)n, count = items * (size_t)n;
                run(k, (void *[]){&px, &py, &pr}, items);
                double worst = 0;
                size_t at = 0;
                for (size_t j = 0; j < count; j++) {
                    long double ref = d ? fns[i].refl(xd[j], yd[j]) : (long double)fns[i].ref(xf[j], yf[j]);
                    double e = error(d ? rd[j] : rf[j], ref, d);
                    if (e > worst)
                        worst = e, at = j;
                }
                CHECK(worst <= fns[i].ulps, "%s(%a%s%a) = %a: %.2f ulp, more than %.0f", name,
                      d ? xd[at] : xf[at], fns[i].args == 2 ? ", " : "",
                      fns[i].args == 2 ? (d ? yd[at] : yf[at]) : 0.0, d ? rd[at] : rf[at], worst, fns[i].ulps);
                if (getenv("VERBOSE"))
                    printf("%-10s %.2f ulp (limit %.0f)\n", name, worst, fns[i].ulps);
            }
    free(xd), free(yd), free(rd), free(xf), free(yf), free(rf);
    mosaic_executable_free(exe);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
