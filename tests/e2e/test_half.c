/*
 * half precision end to end (cl_khr_fp16, docs/half.md): half kernels run
 * through the ICD loader, each result checked against a host reference
 * written here from the OpenCL C specification: the half value nearest to
 * (or below, above, toward zero from) the exact result, found by searching
 * the ordered half bit patterns, with long double (64 bits) for the exact
 * values.  Arithmetic on every class of input (denormals, infinities, NaN),
 * conversions with every rounding mode and saturation, every unary math
 * function over all 65536 halves and some binary ones on random pairs within
 * the spec's ulp limits, vectors, vload/vstore, relational and geometric
 * functions, half kernel arguments, collectives and the device's queries.
 */
#define _GNU_SOURCE
#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_half.list"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static const char kernels_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void arith(global const half *a, global const half *b, global half *o) {\n"
    "  size_t i = get_global_id(0); half x = a[i], y = b[i];\n"
    "  o[4 * i] = x + y; o[4 * i + 1] = x - y; o[4 * i + 2] = x * y; o[4 * i + 3] = x / y; }\n"
    /* to half from float, double, int, long, with each mode; the vector forms on 4 and 8 lanes */
    "#define TO_HALF(S, n) kernel void to_half_##S(global const S *x, global half *o) {\\\n"
    "  size_t i = get_global_id(0); S v = x[i];\\\n"
    "  o[5 * i] = convert_half(v); o[5 * i + 1] = convert_half_rte(v); o[5 * i + 2] = convert_half_rtz(v);\\\n"
    "  o[5 * i + 3] = convert_half_rtp(v); o[5 * i + 4] = convert_half_rtn(v); }\n"
    "TO_HALF(float, ) TO_HALF(double, ) TO_HALF(int, ) TO_HALF(long, ) TO_HALF(ulong, )\n"
    "#define TO_HALFV(S, n) kernel void to_half##n##_##S(global const S *x, global half *o) {\\\n"
    "  size_t i = get_global_id(0); S##n v = vload##n(i, x);\\\n"
    "  vstore##n(convert_half##n(v), 5 * i, o); vstore##n(convert_half##n##_rte(v), 5 * i + 1, o);\\\n"
    "  vstore##n(convert_half##n##_rtz(v), 5 * i + 2, o); vstore##n(convert_half##n##_rtp(v), 5 * i + 3, o);\\\n"
    "  vstore##n(convert_half##n##_rtn(v), 5 * i + 4, o); }\n"
    "TO_HALFV(float, 4) TO_HALFV(float, 8) TO_HALFV(double, 4) TO_HALFV(int, 8) TO_HALFV(long, 4)\n"
    /* casts, which the code generator turns into a call for double -> half (cpu_half.c) */
    "kernel void casts(global const double *d, global const long *l, global half *o, global double *back) {\n"
    "  size_t i = get_global_id(0); o[2 * i] = (half)d[i]; o[2 * i + 1] = (half)l[i]; back[i] = (double)o[2 * i]; }\n"
    /* from half: int and char with and without _sat, each mode; float and double */
    "kernel void from_half(global const half *x, global int *oi, global char *oc, global uchar *ou,"
    " global float *of, global double *od) {\n"
    "  size_t i = get_global_id(0); half v = x[i];\n"
    "  oi[10 * i] = convert_int(v); oi[10 * i + 1] = convert_int_rte(v); oi[10 * i + 2] = convert_int_rtz(v);\n"
    "  oi[10 * i + 3] = convert_int_rtp(v); oi[10 * i + 4] = convert_int_rtn(v); oi[10 * i + 5] = convert_int_sat(v);\n"
    "  oi[10 * i + 6] = convert_int_sat_rte(v); oi[10 * i + 7] = convert_int_sat_rtz(v);\n"
    "  oi[10 * i + 8] = convert_int_sat_rtp(v); oi[10 * i + 9] = convert_int_sat_rtn(v);\n"
    "  oc[5 * i] = convert_char_sat(v); oc[5 * i + 1] = convert_char_sat_rte(v); oc[5 * i + 2] = convert_char_sat_rtz(v);\n"
    "  oc[5 * i + 3] = convert_char_sat_rtp(v); oc[5 * i + 4] = convert_char_sat_rtn(v);\n"
    "  ou[i] = convert_uchar_sat_rte(v); of[i] = convert_float(v); od[i] = convert_double_rtp(v); }\n"
    "kernel void from_half8(global const half *x, global int *oi, global ushort *os) {\n"
    "  size_t i = get_global_id(0); half8 v = vload8(i, x);\n"
    "  vstore8(convert_int8_sat_rte(v), i, oi); vstore8(convert_ushort8_sat_rtn(v), i, os); }\n"
    /* unary math: f selects the function; the half2 form on even work-items, the scalar one on odd ones */
    "#define FNS(X) X(0, exp) X(1, exp2) X(2, exp10) X(3, expm1) X(4, log) X(5, log2) X(6, log10) X(7, log1p)"
    " X(8, sin) X(9, cos) X(10, tan) X(11, asin) X(12, acos) X(13, atan) X(14, sinh) X(15, cosh) X(16, tanh)"
    " X(17, asinh) X(18, acosh) X(19, atanh) X(20, cbrt) X(21, sqrt) X(22, rsqrt) X(23, erf) X(24, erfc)"
    " X(25, sinpi) X(26, cospi) X(27, tanpi) X(28, asinpi) X(29, acospi) X(30, atanpi) X(31, tgamma)"
    " X(32, ceil) X(33, floor) X(34, trunc) X(35, round) X(36, rint) X(37, fabs) X(38, logb) X(39, radians)"
    " X(40, degrees) X(41, sign)\n"
    "#define CASE(k, name) case k: return name(x);\n"
    "half2 unary_fn2(int f, half2 x) { switch (f) { FNS(CASE) } return x; }\n"
    "half unary_fn1(int f, half x) { switch (f) { FNS(CASE) } return x; }\n"
    "kernel void unary(global const half *x, global half *o, int f) {\n"
    "  size_t i = get_global_id(0); half2 v = vload2(i, x);\n"
    "  vstore2(i & 1 ? (half2)(unary_fn1(f, v.x), unary_fn1(f, v.y)) : unary_fn2(f, v), i, o); }\n"
    "kernel void unary16(global const half *x, global half *o) {\n"
    "  size_t i = get_global_id(0); half16 v = vload16(i, x); vstore16(exp(v), 3 * i, o);"
    " vstore16(sqrt(v), 3 * i + 1, o); vstore16(sin(v), 3 * i + 2, o); }\n"
    "kernel void binary(global const half *x, global const half *y, global const int *n, global half *o,"
    " global int *q) {\n"
    "  size_t i = get_global_id(0); half a = x[i], b = y[i]; int k = n[i], qi;\n"
    "  o[8 * i] = pow(a, b); o[8 * i + 1] = atan2(a, b); o[8 * i + 2] = hypot(a, b); o[8 * i + 3] = fma(a, b, y[i ^ 1]);\n"
    "  o[8 * i + 4] = fmod(a, b); o[8 * i + 5] = remquo(a, b, &qi); o[8 * i + 6] = ldexp(a, k); o[8 * i + 7] = pown(a, k);\n"
    "  q[i] = qi; }\n"
    "kernel void exact_fns(global const half *x, global const half *y, global half *o, global int *e) {\n"
    "  size_t i = get_global_id(0); half a = x[i], ip; int ex;\n"
    "  o[5 * i] = fract(a, &ip); o[5 * i + 1] = ip; o[5 * i + 2] = frexp(a, &ex); e[2 * i] = ex;\n"
    "  o[5 * i + 3] = nextafter(a, y[i]); o[5 * i + 4] = copysign(a, y[i]); e[2 * i + 1] = ilogb(a); }\n"
    /* vectors: arithmetic, swizzles, relational and select, vload_half and vstore_half, vloada */
    "kernel void vectors(global const half *x, global half *o, global short *m, global float *f, global half *s) {\n"
    "  size_t i = get_global_id(0);\n"
    "  half8 a = vload8(2 * i, x), b = vload8(2 * i + 1, x);\n"
    "  vstore8(a * b + a.s76543210, i, o);\n"
    "  vstore8((isless(a, b) & (short)1) | (isnan(a) & (short)2) | (isinf(b) & (short)4) | (signbit(a) & (short)8), i, m);\n"
    "  vstore8(select(a, b, isgreater(a, b)), i + get_global_size(0), o);\n"
    "  vstore8(vload_half8(2 * i, x), i, f);\n"
    "  vstore_half8_rtz(vload_half8(2 * i, x) * 3.1f, i, s); }\n"
    "kernel void geometric(global const half4 *x, global half *o) {\n"
    "  size_t i = get_global_id(0); half4 a = x[2 * i], b = x[2 * i + 1];\n"
    "  o[12 * i] = dot(a, b); o[12 * i + 1] = length(a); o[12 * i + 2] = distance(a, b);\n"
    "  vstore4(normalize(a), 3 * i + 1, o); vstore4(cross(a, b), 3 * i + 2, o); }\n"
    "kernel void scale(global half *o, half k, half4 v) {\n"
    "  size_t i = get_global_id(0); o[i] = k * (half)i + v.s2; }\n"
    "kernel void reduce(global const half *x, global half *o) {\n"
    "  size_t i = get_global_id(0); half s = work_group_reduce_max(x[i]);\n"
    "  half b = work_group_broadcast(x[i], 3); o[2 * i] = s; o[2 * i + 1] = b; }\n"
    "kernel void literals(global half *o) {\n"
    "  o[0] = HALF_MAX; o[1] = HALF_MIN; o[2] = HALF_EPSILON; o[3] = 1.5h; o[4] = (half)INFINITY;\n"
    "  o[5] = nan((ushort)3); o[6] = MAXFLOAT; o[7] = -0x1p-24h; }\n";

/* ---- the host's half ------------------------------------------------------------------- */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return h & 0x8000 ? -v : v;
}
static bool half_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/* The half bits of v rounded: mode 0 nearest even, 1 toward zero, 2 up, 3 down. */
static uint16_t to_half(long double v, int mode)
{
    if (isnan(v))
        return 0x7e00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    /* lo: the largest magnitude at most a (the ordered bit patterns 0 .. 0x7c00) */
    unsigned lo = 0, hi = 0x7c00;
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if ((long double)half_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    if ((long double)half_value((uint16_t)lo) == a)
        return sign | (uint16_t)lo;
    unsigned up = lo + 1; /* 0x7c00 past the largest: infinity, worth 65536 when rounding */
    bool away;
    switch (mode) {
    case 0: {
        long double below = a - (long double)half_value((uint16_t)lo);
        long double above = (up == 0x7c00 ? 65536.0L : (long double)half_value((uint16_t)up)) - a;
        away = above < below || (above == below && (up & 1) == 0);
        break;
    }
    case 1: away = false; break;
    case 2: away = !sign; break;
    default: away = sign; break;
    }
    return sign | (uint16_t)(away ? up : lo);
}

/* The error of got in ulps of the half format at the exact value want. */
static double ulp_error(uint16_t got, long double want)
{
    long double g = half_value(got);
    if (isinf(g) && !isinf(want))
        g = copysignl(65536.0L, g); /* overflow: the next power of two, as the CTS measures it */
    long double a = fabsl(want);
    int e = a < 0x1p-14L ? -14 : ilogbl(a);
    if (e > 15)
        e = 15;
    return (double)(fabsl(g - want) / ldexpl(1.0L, e - 10));
}

/* Every half bit pattern, or random ones (a fixed seed) with all classes likely. */
static uint32_t rng = 12345;
static uint16_t random_half(void)
{
    rng = rng * 1103515245u + 12345u;
    uint16_t h = (uint16_t)(rng >> 12);
    switch ((rng >> 28) & 7) {
    case 0: return h & 0x83ff;                       /* denormals and zeros */
    case 1: return (h & 0x8000) | 0x3c00 | (h & 7);  /* near 1 */
    default: return h;
    }
}

/* ---- launching ----------------------------------------------------------------------------- */
static cl_mem buf(size_t size, const void *data)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)data, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return b;
}
static void read_buf(cl_mem b, size_t size, void *out)
{
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, size, out, 0, NULL, NULL), CL_SUCCESS);
}
/* Runs kernel `name` over n work-items with the arguments (cl_mem unless its size is given). */
static bool run(const char *name, size_t n, size_t local, int nargs, const void *const *args, const size_t *sizes)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return false;
    for (int i = 0; i < nargs; i++)
        CHECK_ERR(clSetKernelArg(k, (cl_uint)i, sizes && sizes[i] ? sizes[i] : sizeof(cl_mem), args[i]), CL_SUCCESS);
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, local ? &local : NULL, 0, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseKernel(k);
    return err == CL_SUCCESS && clFinish(queue) == CL_SUCCESS;
}

/* got is the reference's bits, or both are NaN */
static bool same_half(uint16_t got, uint16_t want) { return got == want || (half_is_nan(got) && half_is_nan(want)); }

TEST(device_reports_half)
{
    size_t size = 0;
    char ext[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, &size), CL_SUCCESS);
    CHECK(strstr(ext, "cl_khr_fp16") != NULL);
    cl_device_fp_config c = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof c, &c, NULL), CL_SUCCESS);
    /* the spec's minimum: INF_NAN and nearest or toward zero; Mosaic: denormals too, and fma */
    CHECK((c & CL_FP_INF_NAN) && (c & CL_FP_ROUND_TO_NEAREST) && (c & CL_FP_DENORM) && (c & CL_FP_FMA));
    cl_name_version features[64];
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof features, features, &size), CL_SUCCESS);
    bool found = false;
    for (size_t i = 0; i < size / sizeof features[0]; i++)
        found |= strcmp(features[i].name, "__opencl_c_fp16") == 0;
    CHECK(found);
    cl_uint w = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof w, &w, NULL), CL_SUCCESS);
    CHECK(w >= 1);

    /* the macros of a 3.0 program, and of a 1.2 one (no feature macros there) */
    const char *src = "kernel void k(global int *o) {\n"
                      "#ifdef cl_khr_fp16\n o[0] = 1;\n#else\n o[0] = 0;\n#endif\n"
                      "#ifdef __opencl_c_fp16\n o[1] = 1;\n#else\n o[1] = 0;\n#endif\n}\n";
    const char *opts[2] = {"-cl-std=CL3.0", "-cl-std=CL1.2"};
    for (int s = 0; s < 2; s++) {
        cl_program p = test_build_program(context, device, src, opts[s]);
        if (!p)
            continue;
        cl_int err, got[2] = {-1, -1};
        cl_kernel k = clCreateKernel(p, "k", &err);
        cl_mem o = buf(sizeof got, NULL);
        clSetKernelArg(k, 0, sizeof o, &o);
        size_t one = 1;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
        read_buf(o, sizeof got, got);
        CHECK(got[0] == 1 && got[1] == (s == 0), "%s: cl_khr_fp16 %d, __opencl_c_fp16 %d", opts[s], got[0], got[1]);
        clReleaseMemObject(o);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

TEST(arithmetic)
{
    enum { N = 1 << 16 };
    uint16_t *a = malloc(N * 2), *b = malloc(N * 2), *o = malloc(N * 8);
    for (int i = 0; i < N; i++) {
        a[i] = (uint16_t)i; /* every half against random ones */
        b[i] = random_half();
    }
    cl_mem ba = buf(N * 2, a), bb = buf(N * 2, b), bo = buf(N * 8, NULL);
    const void *args[] = {&ba, &bb, &bo};
    if (run("arith", N, 0, 3, args, NULL)) {
        read_buf(bo, N * 8, o);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            long double x = half_value(a[i]), y = half_value(b[i]);
            /* exact in long double (sums span at most 40 bits, products 22), and the quotient
             * rounded to 64 bits rounds correctly to half (64 >= 2 * 11 + 2) */
            long double exact[4] = {x + y, x - y, x * y, x / y};
            static const char *const op[4] = {"+", "-", "*", "/"};
            for (int k = 0; k < 4; k++) {
                uint16_t want = to_half(exact[k], 0), got = o[4 * i + k];
                if (!same_half(got, want) && bad++ < 8)
                    TEST_FAIL("%a %s %a = %a (0x%04x), not %a (0x%04x)", (double)x, op[k], (double)y,
                              half_value(got), got, half_value(want), want);
            }
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
    free(a);
    free(b);
    free(o);
}

/* The five conversions (default = nearest, rte, rtz, rtp, rtn) of x to half. */
static int check_to_half(const char *what, long double x, const uint16_t *got, int *bad)
{
    static const int modes[5] = {0, 0, 1, 2, 3};
    static const char *const names[5] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
    for (int m = 0; m < 5; m++) {
        uint16_t want = to_half(x, modes[m]);
        if (!same_half(got[m], want) && (*bad)++ < 8)
            TEST_FAIL("convert_half%s(%s %La) = %a (0x%04x), not %a (0x%04x)", names[m], what, x,
                      half_value(got[m]), got[m], half_value(want), want);
    }
    return 0;
}

/* Float values around half's boundaries: every float with few mantissa bits
 * from 2^-30 to 2^17, halfway points and neighbours, both signs, inf, NaN. */
static size_t float_inputs(float *x, size_t max)
{
    size_t n = 0;
    for (int e = -30; e <= 17 && n + 128 <= max; e++)
        for (int k = 0; k < 16; k++) {
            float base = ldexpf(1.0f + k / 16.0f, e);
            float vals[4] = {base, nextafterf(base, 0), nextafterf(base, INFINITY), base + ldexpf(1, e - 11)};
            for (int v = 0; v < 4; v++) {
                x[n++] = vals[v];
                x[n++] = -vals[v];
            }
        }
    float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.99f, 65520.0f, -65520.0f,
                       0x1p-25f, 0x1.000002p-25f, -0x1p-25f, 0x1p-24f, 0x1.8p-24f, 3e38f, 1e-40f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        x[n++] = special[i];
    for (; n % 8; n++)
        x[n] = 1.0f + (float)n * 0x1p-20f;
    return n;
}

TEST(conversions_to_half)
{
    enum { MAX = 8192 };
    static float f[MAX];
    static double d[MAX];
    static cl_int in[MAX];
    static cl_long l[MAX];
    static cl_ulong ul[MAX];
    static uint16_t o[5 * MAX];
    size_t n = float_inputs(f, MAX - 64);
    for (size_t i = 0; i < n; i++) {
        /* doubles between the floats: below, at and above half's halfway points */
        d[i] = (double)f[i] * (1.0 + ((i % 3) - 1.0) * 0x1p-40);
        in[i] = (cl_int)(i * 2654435761u) >> (i % 17);
        l[i] = (cl_long)((i * 0x9e3779b97f4a7c15ull) >> (i % 50)) * (i & 1 ? -1 : 1);
        ul[i] = (i * 0x9e3779b97f4a7c15ull) >> (i % 56);
    }
    struct { const char *kernel, *type; void *data; size_t elem; int vec; } cases[] = {
        {"to_half_float", "float", f, 4, 1},   {"to_half_double", "double", d, 8, 1}, {"to_half_int", "int", in, 4, 1},
        {"to_half_long", "long", l, 8, 1},     {"to_half_ulong", "ulong", ul, 8, 1},  {"to_half4_float", "float", f, 4, 4},
        {"to_half8_float", "float", f, 4, 8},  {"to_half4_double", "double", d, 8, 4}, {"to_half8_int", "int", in, 4, 8},
        {"to_half4_long", "long", l, 8, 4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cl_mem bx = buf(n * cases[c].elem, cases[c].data), bo = buf(n * 10, NULL);
        const void *args[] = {&bx, &bo};
        int bad = 0;
        if (run(cases[c].kernel, n / cases[c].vec, 0, 2, args, NULL)) {
            read_buf(bo, n * 10, o);
            int v = cases[c].vec;
            for (size_t i = 0; i < n; i++) {
                long double x = cases[c].elem == 4 ? (strcmp(cases[c].type, "int") ? (long double)f[i] : in[i])
                                : !strcmp(cases[c].type, "double") ? (long double)d[i]
                                : !strcmp(cases[c].type, "long")   ? (long double)l[i]
                                                                   : (long double)ul[i];
                /* the vector kernels store mode m of element j of vector g at (5g + m) * v + j */
                uint16_t got[5];
                size_t g = i / v, j = i % v;
                for (int m = 0; m < 5; m++)
                    got[m] = o[(5 * g + m) * v + j];
                check_to_half(cases[c].kernel, x, got, &bad);
            }
        }
        CHECK(bad == 0, "%s: %d wrong", cases[c].kernel, bad);
        clReleaseMemObject(bx);
        clReleaseMemObject(bo);
    }
}

/* The integer of x rounded: mode 0 nearest even, 1 toward zero, 2 up, 3 down. */
static long double round_mode(long double x, int mode)
{
    switch (mode) {
    case 0: return nearbyintl(x);
    case 1: return truncl(x);
    case 2: return ceill(x);
    default: return floorl(x);
    }
}
static long double saturate(long double x, long double lo, long double hi)
{
    return isnan(x) ? 0 : x < lo ? lo : x > hi ? hi : x;
}

TEST(casts)
{
    enum { N = 8192 };
    static double d[N], back[N];
    static cl_long l[N];
    static uint16_t o[2 * N];
    static float f[N];
    size_t n = float_inputs(f, N - 64);
    for (size_t i = 0; i < n; i++) {
        d[i] = (double)f[i] * (1.0 + ((i % 3) - 1.0) * 0x1p-40);
        l[i] = (cl_long)(i * 0x9e3779b97f4a7c15ull) >> (i % 60);
    }
    cl_mem bd = buf(n * 8, d), bl = buf(n * 8, l), bo = buf(n * 4, NULL), bb = buf(n * 8, NULL);
    const void *args[] = {&bd, &bl, &bo, &bb};
    if (run("casts", n, 0, 4, args, NULL)) {
        read_buf(bo, n * 4, o);
        read_buf(bb, n * 8, back);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            uint16_t wd = to_half(d[i], 0), wl = to_half((long double)l[i], 0);
            if ((!same_half(o[2 * i], wd) || !same_half(o[2 * i + 1], wl) ||
                 !(back[i] == half_value(o[2 * i]) || (isnan(back[i]) && half_is_nan(o[2 * i])))) &&
                bad++ < 8)
                TEST_FAIL("(half)%a = 0x%04x (want 0x%04x), (half)%lld = 0x%04x (want 0x%04x), back %a", d[i],
                          o[2 * i], wd, (long long)l[i], o[2 * i + 1], wl, back[i]);
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    cl_mem all[] = {bd, bl, bo, bb};
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(all[i]);
}

TEST(conversions_from_half)
{
    enum { N = 1 << 16 };
    uint16_t *x = malloc(N * 2);
    cl_int *oi = malloc(N * 40);
    cl_char *oc = malloc(N * 5);
    cl_uchar *ou = malloc(N);
    float *of = malloc(N * 4);
    double *od = malloc(N * 8);
    for (int i = 0; i < N; i++)
        x[i] = (uint16_t)i;
    cl_mem bx = buf(N * 2, x), bi = buf(N * 40, NULL), bc = buf(N * 5, NULL), bu = buf(N, NULL), bf = buf(N * 4, NULL),
           bd = buf(N * 8, NULL);
    const void *args[] = {&bx, &bi, &bc, &bu, &bf, &bd};
    static const int modes[5] = {1, 0, 1, 2, 3}; /* the default to an integer is toward zero */
    if (run("from_half", N, 0, 6, args, NULL)) {
        read_buf(bi, N * 40, oi);
        read_buf(bc, N * 5, oc);
        read_buf(bu, N, ou);
        read_buf(bf, N * 4, of);
        read_buf(bd, N * 8, od);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            long double v = half_value(x[i]);
            bool finite = isfinite(v);
            for (int m = 0; m < 5; m++) {
                long double r = finite ? round_mode(v, modes[m]) : v;
                /* without _sat, out of range is undefined: only finite values are compared */
                if (finite && oi[10 * i + m] != (cl_int)r && bad++ < 8)
                    TEST_FAIL("convert_int mode %d of %La is %d", m, v, oi[10 * i + m]);
                cl_int si = (cl_int)saturate(r, INT32_MIN, INT32_MAX);
                if (oi[10 * i + 5 + m] != si && bad++ < 8)
                    TEST_FAIL("convert_int_sat mode %d of %La is %d, not %d", m, v, oi[10 * i + 5 + m], si);
                cl_char sc = (cl_char)saturate(r, -128, 127);
                if (oc[5 * i + m] != sc && bad++ < 8)
                    TEST_FAIL("convert_char_sat mode %d of %La is %d, not %d", m, v, oc[5 * i + m], sc);
            }
            cl_uchar su = (cl_uchar)saturate(isfinite(v) ? nearbyintl(v) : v, 0, 255);
            if (ou[i] != su && bad++ < 8)
                TEST_FAIL("convert_uchar_sat_rte(%La) is %d, not %d", v, ou[i], su);
            if (!((double)of[i] == (double)v || (isnan(of[i]) && isnan(v))) && bad++ < 8)
                TEST_FAIL("convert_float(%La) is %a", v, of[i]);
            if (!(od[i] == (double)v || (isnan(od[i]) && isnan(v))) && bad++ < 8)
                TEST_FAIL("convert_double_rtp(%La) is %a", v, od[i]);
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    /* the 8-lane forms */
    cl_ushort *os = malloc(N * 2);
    cl_mem bs = buf(N * 2, NULL);
    const void *args8[] = {&bx, &bi, &bs};
    if (run("from_half8", N / 8, 0, 3, args8, NULL)) {
        read_buf(bi, N * 4, oi);
        read_buf(bs, N * 2, os);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            long double v = half_value(x[i]);
            cl_int si = (cl_int)saturate(isfinite(v) ? nearbyintl(v) : v, INT32_MIN, INT32_MAX);
            cl_ushort ss = (cl_ushort)saturate(isfinite(v) ? floorl(v) : v, 0, 65535);
            if ((oi[i] != si || os[i] != ss) && bad++ < 8)
                TEST_FAIL("convert_int8_sat_rte / convert_ushort8_sat_rtn of %La: %d %u, not %d %u", v, oi[i],
                          os[i], si, ss);
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    clReleaseMemObject(bs);
    free(os);
    cl_mem all[] = {bx, bi, bc, bu, bf, bd};
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(all[i]);
    free(x);
    free(oi);
    free(oc);
    free(ou);
    free(of);
    free(od);
}

/* The exact values of the unary functions (FNS in the kernel source), their ulp limits */
static long double pi_times(long double x) /* pi * x, x reduced exactly modulo 2 first */
{
    return 3.14159265358979323846264338327950288L * fmodl(x, 2.0L);
}
static long double sign_of(long double x) { return x > 0 ? 1 : x < 0 ? -1 : isnan(x) ? 0 : x; }
static long double reference(int f, long double x)
{
    switch (f) {
    case 0: return expl(x);
    case 1: return exp2l(x);
    case 2: return exp10l(x);
    case 3: return expm1l(x);
    case 4: return logl(x);
    case 5: return log2l(x);
    case 6: return log10l(x);
    case 7: return log1pl(x);
    case 8: return sinl(x);
    case 9: return cosl(x);
    case 10: return tanl(x);
    case 11: return asinl(x);
    case 12: return acosl(x);
    case 13: return atanl(x);
    case 14: return sinhl(x);
    case 15: return coshl(x);
    case 16: return tanhl(x);
    case 17: return asinhl(x);
    case 18: return acoshl(x);
    case 19: return atanhl(x);
    case 20: return cbrtl(x);
    case 21: return sqrtl(x);
    case 22: return 1.0L / sqrtl(x);
    case 23: return erfl(x);
    case 24: return erfcl(x);
    case 25: return isinf(x) ? NAN : x == truncl(x) ? copysignl(0, x) : sinl(pi_times(x));
    case 26: return isinf(x) ? NAN : cosl(pi_times(x));
    case 27: return isinf(x) ? NAN : x == truncl(x) ? copysignl(0, x) * (fmodl(fabsl(x), 2) ? -1 : 1) : tanl(pi_times(x));
    case 28: return asinl(x) / 3.14159265358979323846264338327950288L;
    case 29: return acosl(x) / 3.14159265358979323846264338327950288L;
    case 30: return atanl(x) / 3.14159265358979323846264338327950288L;
    case 31: return tgammal(x);
    case 32: return ceill(x);
    case 33: return floorl(x);
    case 34: return truncl(x);
    case 35: return roundl(x);
    case 36: return nearbyintl(x);
    case 37: return fabsl(x);
    case 38: return logbl(x);
    case 39: return x * (3.14159265358979323846264338327950288L / 180);
    case 40: return x * (180 / 3.14159265358979323846264338327950288L);
    default: return sign_of(x);
    }
}
/* the half table of the OpenCL C spec (full profile); 0 = correctly rounded or exact */
static const double unary_limit[42] = {
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2.5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1.5, 1, 4, 4, 2, 2, 2, 2, 2, 2, 4,
    0, 0, 0, 0, 0, 0, 0, 2, 2, 0,
};
static const char *const unary_name[42] = {
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt", "sqrt", "rsqrt", "erf", "erfc", "sinpi", "cospi",
    "tanpi", "asinpi", "acospi", "atanpi", "tgamma", "ceil", "floor", "trunc", "round", "rint", "fabs", "logb",
    "radians", "degrees", "sign",
};

/* got against the exact value: NaN for NaN, the same infinity or zero sign
 * where the answer is one, else within the limit (0: the correctly rounded half) */
static bool close_enough(uint16_t got, long double want, double limit, double *worst)
{
    if (isnan(want))
        return half_is_nan(got);
    if (half_is_nan(got))
        return false;
    if (isinf(want))
        return half_value(got) == (double)want;
    if (isinf(half_value(got)) && to_half(want, 0) == to_half(want * 2, 0))
        return to_half(want, 0) == got; /* the correctly rounded half is this infinity */
    if (limit == 0)
        return got == to_half(want, 0) || (want == 0 && half_value(got) == 0 && !!(got & 0x8000) == !!signbit(want));
    double e = ulp_error(got, want);
    if (e > *worst)
        *worst = e;
    return e <= limit;
}

TEST(math_unary_all_halves)
{
    enum { N = 1 << 16 };
    uint16_t *x = malloc(N * 2), *o = malloc(N * 2);
    for (int i = 0; i < N; i++)
        x[i] = (uint16_t)i;
    cl_mem bx = buf(N * 2, x), bo = buf(N * 2, NULL);
    for (cl_int f = 0; f < 42; f++) {
        const void *args[] = {&bx, &bo, &f};
        size_t sizes[] = {0, 0, sizeof f};
        if (!run("unary", N / 2, 0, 3, args, sizes))
            break;
        read_buf(bo, N * 2, o);
        int bad = 0;
        double worst = 0;
        for (int i = 0; i < N; i++) {
            long double v = half_value(x[i]), want = reference(f, v);
            if (f == 27 && fabsl(fmodl(v, 1)) == 0.5L)
                continue; /* tanpi's poles: an infinity of either sign */
            if (!close_enough(o[i], want, unary_limit[f], &worst) && bad++ < 4)
                TEST_FAIL("%s(%a) = %a (0x%04x), want %La (%.2f ulp, limit %g)", unary_name[f], (double)v,
                          half_value(o[i]), o[i], want, ulp_error(o[i], want), unary_limit[f]);
        }
        CHECK(bad == 0, "%s: %d wrong (worst %.2f ulp)", unary_name[f], bad, worst);
    }
    /* the 16-lane forms, as the scalar ones */
    uint16_t *o3 = malloc(N * 6);
    cl_mem b3 = buf(N * 6, NULL);
    const void *args[] = {&bx, &b3};
    if (run("unary16", N / 16, 0, 2, args, NULL)) {
        read_buf(b3, N * 6, o3);
        int bad = 0;
        double worst = 0;
        static const int fns[3] = {0, 21, 8};
        for (int i = 0; i < N; i++)
            for (int k = 0; k < 3; k++) {
                uint16_t got = o3[(3 * (i / 16) + k) * 16 + i % 16];
                long double v = half_value(x[i]);
                if (!close_enough(got, reference(fns[k], v), unary_limit[fns[k]], &worst) && bad++ < 4)
                    TEST_FAIL("%s16 lane of %a = %a", unary_name[fns[k]], (double)v, half_value(got));
            }
        CHECK(bad == 0, "%d wrong", bad);
    }
    clReleaseMemObject(b3);
    free(o3);
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    free(x);
    free(o);
}

TEST(math_binary)
{
    enum { N = 1 << 15 };
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2), *o = malloc(N * 16);
    cl_int *n = malloc(N * 4), *q = malloc(N * 4);
    for (int i = 0; i < N; i++) {
        x[i] = random_half();
        y[i] = i % 4 == 0 ? (uint16_t)(0x3c00 | (i & 0x3ff)) : random_half(); /* pow near 1 */
        if (i % 97 == 1)
            y[i] = (uint16_t)(0x7c00 | (i & 0x8000 ? 0x8000 : 0) | (i & 0x200)); /* infinities (CTS: remquo) */
        n[i] = (cl_int)(i % 61) - 30;
    }
    cl_mem bx = buf(N * 2, x), by = buf(N * 2, y), bn = buf(N * 4, n), bo = buf(N * 16, NULL), bq = buf(N * 4, NULL);
    const void *args[] = {&bx, &by, &bn, &bo, &bq};
    if (run("binary", N, 0, 5, args, NULL)) {
        read_buf(bo, N * 16, o);
        read_buf(bq, N * 4, q);
        int bad = 0;
        double worst[8] = {0};
        static const char *const names[8] = {"pow", "atan2", "hypot", "fma", "fmod", "remquo", "ldexp", "pown"};
        static const double limits[8] = {4, 2, 2, 0, 0, 0, 0, 4};
        for (int i = 0; i < N; i++) {
            long double a = half_value(x[i]), b = half_value(y[i]), c = half_value(y[i ^ 1]);
            int k = n[i];
            long double want[8] = {powl(a, b), atan2l(a, b), hypotl(a, b), a * b + c, fmodl(a, b),
                                   remainderl(a, b), ldexpl(a, k), powl(a, k)};
            for (int f = 0; f < 8; f++)
                if (!close_enough(o[8 * i + f], want[f], limits[f], &worst[f]) && bad++ < 8)
                    TEST_FAIL("%s(%a, %a%s) = %a (0x%04x), want %La", names[f], (double)a, f >= 6 ? (double)k : (double)b,
                              f == 3 ? ", c" : "", half_value(o[8 * i + f]), o[8 * i + f], want[f]);
            /* remquo: the sign of x / y and the low 7 bits of the quotient (x - r) / y (exact here) */
            long double r = remainderl(a, b);
            if (isfinite(a) && !isnan(b) && b != 0 && !isnan(r)) {
                int want_q = (int)fmodl(fabsl(nearbyintl((a - r) / b)), 128);
                bool ok = (abs(q[i]) & 127) == want_q && (q[i] == 0 || (q[i] < 0) == (signbit(a) != signbit(b)));
                if (!ok && bad++ < 8)
                    TEST_FAIL("remquo(%a, %a) quotient %d, want low bits %d", (double)a, (double)b, q[i], want_q);
            }
        }
        CHECK(bad == 0, "%d wrong (pow %.2f, atan2 %.2f, hypot %.2f, pown %.2f ulp at worst)", bad, worst[0], worst[1],
              worst[2], worst[7]);
    }
    cl_mem all[] = {bx, by, bn, bo, bq};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(all[i]);
    free(x);
    free(y);
    free(o);
    free(n);
    free(q);
}

TEST(math_exact_functions)
{
    enum { N = 1 << 16 };
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2), *o = malloc(N * 10);
    cl_int *e = malloc(N * 8);
    for (int i = 0; i < N; i++) {
        x[i] = (uint16_t)i;
        y[i] = random_half();
    }
    cl_mem bx = buf(N * 2, x), by = buf(N * 2, y), bo = buf(N * 10, NULL), be = buf(N * 8, NULL);
    const void *args[] = {&bx, &by, &bo, &be};
    if (run("exact_fns", N, 0, 4, args, NULL)) {
        read_buf(bo, N * 10, o);
        read_buf(be, N * 8, e);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            long double v = half_value(x[i]), w = half_value(y[i]);
            /* fract: min(v - floor(v), the largest half below 1); inf: +-0; NaN: NaN */
            long double fl = floorl(v), fr = isinf(v) ? copysignl(0, v) : fminl(v - fl, 0x1.ffcp-1L);
            uint16_t want_fract = isnan(v) ? 0x7e00 : to_half(fr, 0), want_ip = to_half(fl, 0);
            int ex = 0;
            long double m = frexpl(v, &ex);
            uint16_t want_next;
            if (isnan(v) || isnan(w))
                want_next = 0x7e00;
            else if (v == w)
                want_next = y[i];
            else if (v == 0)
                want_next = (uint16_t)((y[i] & 0x8000) | 1);
            else
                want_next = (uint16_t)(x[i] + ((v < w) == (v > 0) ? 1 : -1));
            uint16_t want_copysign = (uint16_t)((x[i] & 0x7fff) | (y[i] & 0x8000));
            int want_ilogb = v == 0 ? INT32_MIN : isnan(v) ? INT32_MAX : isinf(v) ? INT32_MAX : ilogbl(v);
            bool ok = same_half(o[5 * i], want_fract) && same_half(o[5 * i + 1], want_ip) &&
                      same_half(o[5 * i + 3], want_next) && (isnan(v) || o[5 * i + 4] == want_copysign) &&
                      (!isfinite(v) || (same_half(o[5 * i + 2], to_half(m, 0)) && e[2 * i] == ex)) &&
                      e[2 * i + 1] == want_ilogb;
            if (!ok && bad++ < 8)
                TEST_FAIL("%a (0x%04x), %a: fract %a ip %a frexp %a %d nextafter 0x%04x copysign 0x%04x ilogb %d",
                          (double)v, x[i], (double)w, half_value(o[5 * i]), half_value(o[5 * i + 1]),
                          half_value(o[5 * i + 2]), e[2 * i], o[5 * i + 3], o[5 * i + 4], e[2 * i + 1]);
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    cl_mem all[] = {bx, by, bo, be};
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(all[i]);
    free(x);
    free(y);
    free(o);
    free(e);
}

TEST(vectors_and_vload)
{
    enum { G = 512, N = G * 16 };
    uint16_t *x = malloc(N * 2), *o = malloc(G * 8 * 2 * 2), *s = malloc(G * 8 * 2);
    cl_short *m = malloc(G * 8 * 2);
    float *f = malloc(G * 8 * 4);
    for (int i = 0; i < N; i++)
        x[i] = random_half();
    cl_mem bx = buf(N * 2, x), bo = buf(G * 8 * 4, NULL), bm = buf(G * 8 * 2, NULL), bf = buf(G * 8 * 4, NULL),
           bs = buf(G * 8 * 2, NULL);
    const void *args[] = {&bx, &bo, &bm, &bf, &bs};
    if (run("vectors", G, 0, 5, args, NULL)) {
        read_buf(bo, G * 8 * 4, o);
        read_buf(bm, G * 8 * 2, m);
        read_buf(bf, G * 8 * 4, f);
        read_buf(bs, G * 8 * 2, s);
        int bad = 0;
        for (int g = 0; g < G; g++)
            for (int j = 0; j < 8; j++) {
                uint16_t ha = x[16 * g + j], hb = x[16 * g + 8 + j], hr = x[16 * g + 7 - j];
                long double a = half_value(ha), b = half_value(hb), r = half_value(hr);
                /* a * b + a.s76543210: the product rounded to half, then the sum (no contraction promised:
                 * either the fused or the twice-rounded result) */
                uint16_t twice = to_half((long double)half_value(to_half(a * b, 0)) + r, 0), fused = to_half(a * b + r, 0);
                uint16_t got = o[8 * g + j];
                /* vector relational results are -1 (all bits) or 0 per lane: the kernel keeps one bit of each */
                int want_m = (a < b ? 1 : 0) | (isnan(a) ? 2 : 0) | (isinf(b) ? 4 : 0) | (signbit(a) ? 8 : 0);
                uint16_t sel = a > b ? hb : ha;
                uint16_t want_s = to_half((long double)(float)((float)a * 3.1f), 1);
                bool ok = (same_half(got, twice) || same_half(got, fused)) && m[8 * g + j] == want_m &&
                          o[8 * G + 8 * g + j] == sel && (f[8 * g + j] == (float)a || (isnan(f[8 * g + j]) && isnan(a))) &&
                          same_half(s[8 * g + j], want_s);
                if (!ok && bad++ < 8)
                    TEST_FAIL("lane %d of %d: a %a b %a: %a, mask %d (want %d), select 0x%04x, vload_half %a, "
                              "vstore_half_rtz 0x%04x (want 0x%04x)",
                              j, g, (double)a, (double)b, half_value(got), m[8 * g + j], want_m, o[8 * G + 8 * g + j],
                              f[8 * g + j], s[8 * g + j], want_s);
            }
        CHECK(bad == 0, "%d wrong", bad);
    }
    cl_mem all[] = {bx, bo, bm, bf, bs};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(all[i]);
    free(x);
    free(o);
    free(s);
    free(m);
    free(f);
}

TEST(geometric)
{
    enum { G = 1024 };
    uint16_t *x = malloc(G * 8 * 2), *o = malloc(G * 12 * 2);
    for (int i = 0; i < G * 8; i++) {
        rng = rng * 1103515245u + 12345u;
        x[i] = (uint16_t)(((rng >> 8) & 0x8000) | (0x2000 + ((rng >> 10) % 0x3000))); /* 2^-8 .. 2^4 */
    }
    cl_mem bx = buf(G * 16, x), bo = buf(G * 24, NULL);
    const void *args[] = {&bx, &bo};
    if (run("geometric", G, 0, 2, args, NULL)) {
        read_buf(bo, G * 24, o);
        int bad = 0;
        const long double eps = 0x1p-10L;
        for (int g = 0; g < G; g++) {
            long double a[4], b[4], dot = 0, maxabs = 0, la = 0, dist = 0;
            for (int k = 0; k < 4; k++) {
                a[k] = half_value(x[8 * g + k]);
                b[k] = half_value(x[8 * g + 4 + k]);
                dot += a[k] * b[k];
                la += a[k] * a[k];
                dist += (a[k] - b[k]) * (a[k] - b[k]);
                maxabs = fmaxl(maxabs, fmaxl(fabsl(a[k]), fabsl(b[k])));
            }
            la = sqrtl(la);
            dist = sqrtl(dist);
            double w = 0;
            /* the spec's half limits for n = 4: dot max^2 * 7 * eps, length 2.25 ulp, distance 8, normalize 5,
             * cross max^2 * 3 * eps per component */
            bool ok = fabsl(half_value(o[12 * g]) - dot) <= maxabs * maxabs * 7 * eps &&
                      close_enough(o[12 * g + 1], la, 2.25, &w) && close_enough(o[12 * g + 2], dist, 8, &w);
            long double cr[4] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], 0};
            for (int k = 0; k < 4; k++) {
                ok = ok && close_enough(o[12 * g + 4 + k], a[k] / la, 5, &w);
                ok = ok && fabsl(half_value(o[12 * g + 8 + k]) - cr[k]) <= maxabs * maxabs * 3 * eps;
            }
            if (!ok && bad++ < 4)
                TEST_FAIL("vector %d: dot %a (want %La), length %a (%La), distance %a (%La), normalize.x %a (%La)", g,
                          half_value(o[12 * g]), dot, half_value(o[12 * g + 1]), la, half_value(o[12 * g + 2]), dist,
                          half_value(o[12 * g + 4]), a[0] / la);
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    free(x);
    free(o);
}

TEST(kernel_arguments)
{
    enum { N = 64 };
    uint16_t k = 0x3e00, v[4] = {0, 0, 0xc500, 0}, o[N]; /* 1.5, and -5 in lane 2 */
    cl_mem bo = buf(sizeof o, NULL);
    const void *args[] = {&bo, &k, v};
    size_t sizes[] = {0, sizeof(cl_half), 4 * sizeof(cl_half)};
    if (run("scale", N, 0, 3, args, sizes)) {
        read_buf(bo, sizeof o, o);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            uint16_t want = to_half((long double)half_value(to_half(1.5L * i, 0)) - 5, 0);
            if (o[i] != want && bad++ < 4)
                TEST_FAIL("o[%d] = %a, not %a", i, half_value(o[i]), half_value(want));
        }
        CHECK(bad == 0);
    }
    clReleaseMemObject(bo);
    /* a half argument's size is 2: anything else is CL_INVALID_ARG_SIZE */
    cl_int err;
    cl_kernel kern = clCreateKernel(program, "scale", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_float wrong = 1;
    CHECK_ERR(clSetKernelArg(kern, 1, sizeof wrong, &wrong), CL_INVALID_ARG_SIZE);
    char type[64] = "";
    CHECK_ERR(clGetKernelArgInfo(kern, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL), CL_SUCCESS);
    CHECK(strcmp(type, "half") == 0, "%s", type);
    CHECK_ERR(clGetKernelArgInfo(kern, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL), CL_SUCCESS);
    CHECK(strcmp(type, "half4") == 0, "%s", type);
    clReleaseKernel(kern);
}

TEST(collectives_and_literals)
{
    enum { N = 256, L = 64 };
    uint16_t x[N], o[2 * N], lit[8];
    for (int i = 0; i < N; i++)
        x[i] = random_half() & 0x7bff; /* finite */
    cl_mem bx = buf(sizeof x, x), bo = buf(sizeof o, NULL);
    const void *args[] = {&bx, &bo};
    if (run("reduce", N, L, 2, args, NULL)) {
        read_buf(bo, sizeof o, o);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int g = i / L * L;
            double mx = -INFINITY;
            for (int j = g; j < g + L; j++)
                mx = fmax(mx, half_value(x[j]));
            if ((half_value(o[2 * i]) != mx || o[2 * i + 1] != x[g + 3]) && bad++ < 4)
                TEST_FAIL("work-item %d: max %a (want %a), broadcast 0x%04x (want 0x%04x)", i, half_value(o[2 * i]),
                          mx, o[2 * i + 1], x[g + 3]);
        }
        CHECK(bad == 0);
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    cl_mem bl = buf(sizeof lit, NULL);
    const void *largs[] = {&bl};
    if (run("literals", 1, 0, 1, largs, NULL)) {
        read_buf(bl, sizeof lit, lit);
        CHECK(lit[0] == 0x7bff && lit[1] == 0x0400 && lit[2] == 0x1400 && lit[3] == 0x3e00 && lit[4] == 0x7c00,
              "HALF_MAX 0x%04x HALF_MIN 0x%04x HALF_EPSILON 0x%04x 1.5h 0x%04x inf 0x%04x", lit[0], lit[1], lit[2],
              lit[3], lit[4]);
        CHECK(half_is_nan(lit[5]) && lit[6] == 0x7c00 && lit[7] == 0x8001, "nan 0x%04x MAXFLOAT 0x%04x -2^-24 0x%04x",
              lit[5], lit[6], lit[7]);
    }
    clReleaseMemObject(bl);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, kernels_src, "-cl-std=CL3.0", &device, &context, &queue, &program);
}
