/* builtins/nvptx/maths_float.h, the GPU's exp, exp2, log, log2, sin, cos and
 * pow in float (nvptx/maths.cl), compiled here as C.  The GPU computes them
 * with the same IEEE operations, each rounded once to nearest: this program
 * is built with -ffp-contract=off, and its fmaf (the processor's with -mfma,
 * else the C library's) is correctly rounded as the GPU's fma is; so its
 * results are the GPU's, bit for bit.  Against the C library in double:
 *   - the special values of C99 Annex F and OpenCL C 3.0 (7.4), exactly,
 *     the sign of a zero included: NaN, infinities, zeros, exp(0) = 1,
 *     log(1) = 0, exp2 and log2 of powers of two, overflow and underflow,
 *     and pow's whole list;
 *   - the largest error in ulp, counted as OpenCL's conformance tests count
 *     it, over every 64th float (at an offset that varies within each 64)
 *     and each function's edges (denormals, overflow and underflow
 *     thresholds, logarithms near 1, multiples of pi/2 and the end of sin
 *     and cos's fast reduction), and over pow's pairs where its result is
 *     finite and not trivial.  The bounds are the largest errors measured
 *     over every float (for pow, 10^9 pairs) with a margin, well inside
 *     OpenCL's 3 ulp (exp, exp2, log, log2), 4 (sin, cos) and 16 (pow).
 * Two threads share each sweep. */
#include "builtins/nvptx/maths_float.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define TEST_LIST "test_gpu_maths.list"
#include "test.h"

#define BOUND_ONE_ARGUMENT 1.25 /* measured: 0.99 (log2) */
#define BOUND_POW 2.0           /* measured: 1.41 */
#define LN2 0.693147180559945309
#define PI_2 1.57079632679489662

/* The error of got in ulps of the exact result ref, as OpenCL's conformance
 * tests count it: the ulp of ref's binade (of the binade below, where ref is
 * a power of two), never less than the denormals' 2^-149; a correctly
 * rounded result counts 0, an infinity where ref is finite counts as 2^128,
 * and any NaN is right where ref is NaN. */
static double ulp_error(float got, double ref)
{
    if (isnan(ref))
        return isnan(got) ? 0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    if ((float)ref == got)
        return 0;
    if (isinf(ref))
        return INFINITY;
    double g = isinf(got) ? copysign(0x1p128, got) : got;
    int e = -126;
    if (ref != 0) {
        int ex;
        double m = frexp(ref, &ex);
        e = ex - 1 - (fabs(m) == 0.5);
        e = e < -126 ? -126 : e;
    }
    return fabs(g - ref) * ldexp(1.0, 23 - e);
}

static bool same(float got, float want) /* NaN for NaN, a zero's sign too */
{
    return isnan(want) ? isnan(got) : got == want && !signbit(got) == !signbit(want);
}

static float from_bits(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* ---- special values ----------------------------------------------------------- */

static float gpu_exp(float x) { return mosaic_expf(x); }
static float gpu_exp2(float x) { return mosaic_exp2f(x); }
static float gpu_log(float x) { return mosaic_logf(x); }
static float gpu_log2(float x) { return mosaic_log2f(x); }
static float gpu_sin(float x) { return mosaic_sinf(x); }
static float gpu_cos(float x) { return mosaic_cosf(x); }

static const struct {
    const char *name;
    float (*f)(float);
    float x, want;
} specials[] = {
    {"exp", gpu_exp, 0.0f, 1.0f},              {"exp", gpu_exp, -0.0f, 1.0f},
    {"exp", gpu_exp, 0x1p-149f, 1.0f},         {"exp", gpu_exp, -0x1p-149f, 1.0f},
    {"exp", gpu_exp, INFINITY, INFINITY},      {"exp", gpu_exp, -INFINITY, 0.0f},
    {"exp", gpu_exp, NAN, NAN},                {"exp", gpu_exp, 89.0f, INFINITY},
    {"exp", gpu_exp, FLT_MAX, INFINITY},       {"exp", gpu_exp, -104.0f, 0.0f},
    {"exp", gpu_exp, -FLT_MAX, 0.0f},          {"exp2", gpu_exp2, 0.0f, 1.0f},
    {"exp2", gpu_exp2, -0.0f, 1.0f},           {"exp2", gpu_exp2, 0x1p-149f, 1.0f},
    {"exp2", gpu_exp2, INFINITY, INFINITY},    {"exp2", gpu_exp2, -INFINITY, 0.0f},
    {"exp2", gpu_exp2, NAN, NAN},              {"exp2", gpu_exp2, 128.0f, INFINITY},
    {"exp2", gpu_exp2, FLT_MAX, INFINITY},     {"exp2", gpu_exp2, -150.0f, 0.0f},
    {"exp2", gpu_exp2, -FLT_MAX, 0.0f},        {"exp2", gpu_exp2, -149.5f, 0x1p-149f},
    {"log", gpu_log, 1.0f, 0.0f},              {"log", gpu_log, 0.0f, -INFINITY},
    {"log", gpu_log, -0.0f, -INFINITY},        {"log", gpu_log, INFINITY, INFINITY},
    {"log", gpu_log, -INFINITY, NAN},          {"log", gpu_log, -1.0f, NAN},
    {"log", gpu_log, -0x1p-149f, NAN},         {"log", gpu_log, NAN, NAN},
    {"log2", gpu_log2, 1.0f, 0.0f},            {"log2", gpu_log2, 0.0f, -INFINITY},
    {"log2", gpu_log2, -0.0f, -INFINITY},      {"log2", gpu_log2, INFINITY, INFINITY},
    {"log2", gpu_log2, -INFINITY, NAN},        {"log2", gpu_log2, -1.0f, NAN},
    {"log2", gpu_log2, -0x1p-149f, NAN},       {"log2", gpu_log2, NAN, NAN},
    {"sin", gpu_sin, 0.0f, 0.0f},              {"sin", gpu_sin, -0.0f, -0.0f},
    {"sin", gpu_sin, 0x1p-149f, 0x1p-149f},    {"sin", gpu_sin, -0x1p-149f, -0x1p-149f},
    {"sin", gpu_sin, 0x1p-20f, 0x1p-20f},      {"sin", gpu_sin, INFINITY, NAN},
    {"sin", gpu_sin, -INFINITY, NAN},          {"sin", gpu_sin, NAN, NAN},
    {"cos", gpu_cos, 0.0f, 1.0f},              {"cos", gpu_cos, -0.0f, 1.0f},
    {"cos", gpu_cos, 0x1p-149f, 1.0f},         {"cos", gpu_cos, INFINITY, NAN},
    {"cos", gpu_cos, -INFINITY, NAN},          {"cos", gpu_cos, NAN, NAN},
};

TEST(special_values)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        float got = specials[i].f(specials[i].x);
        CHECK(same(got, specials[i].want), "%s(%a) = %a, not %a", specials[i].name, specials[i].x, got,
              specials[i].want);
    }
    /* powers of two, denormal ones too: exactly */
    for (int n = -149; n <= 127; n++) {
        float p = ldexpf(1.0f, n);
        CHECK(mosaic_exp2f((float)n) == p, "exp2(%d) = %a", n, mosaic_exp2f((float)n));
        CHECK(mosaic_log2f(p) == (float)n, "log2(%a) = %a", p, mosaic_log2f(p));
    }
}

#define INF INFINITY
static const struct {
    float x, y, want;
} pow_specials[] = {
    /* pow(x, +-0) = 1 for any x, NaN too */
    {NAN, 0.0f, 1.0f}, {NAN, -0.0f, 1.0f}, {INF, 0.0f, 1.0f}, {-INF, -0.0f, 1.0f}, {0.0f, 0.0f, 1.0f},
    {-0.0f, -0.0f, 1.0f}, {-2.0f, 0.0f, 1.0f}, {0x1p-149f, -0.0f, 1.0f},
    /* pow(+1, y) = 1 for any y, NaN too; pow(-1, +-inf) = 1 */
    {1.0f, NAN, 1.0f}, {1.0f, INF, 1.0f}, {1.0f, -INF, 1.0f}, {1.0f, FLT_MAX, 1.0f}, {1.0f, -0x1p-149f, 1.0f},
    {-1.0f, INF, 1.0f}, {-1.0f, -INF, 1.0f},
    /* pow(+-0, y < 0): +-inf for an odd integer y, else +inf (y = -inf too) */
    {0.0f, -1.0f, INF}, {-0.0f, -1.0f, -INF}, {-0.0f, -3.0f, -INF}, {-0.0f, -0x1.fffffep23f, -INF},
    {-0.0f, -2.0f, INF}, {-0.0f, -0.5f, INF}, {-0.0f, -0x1p24f, INF}, {-0.0f, -FLT_MAX, INF}, {-0.0f, -INF, INF},
    {0.0f, -INF, INF}, {0.0f, -0x1p-149f, INF},
    /* pow(+-0, y > 0): +-0 for an odd integer y, else +0 */
    {0.0f, 1.0f, 0.0f}, {-0.0f, 1.0f, -0.0f}, {-0.0f, 3.0f, -0.0f}, {-0.0f, 0x1.fffffep23f, -0.0f},
    {-0.0f, 2.0f, 0.0f}, {-0.0f, 0.5f, 0.0f}, {-0.0f, 0x1p24f, 0.0f}, {-0.0f, FLT_MAX, 0.0f}, {-0.0f, INF, 0.0f},
    {0.0f, 0x1p-149f, 0.0f},
    /* pow(x, -inf): +inf for |x| < 1, +0 for |x| > 1; pow(x, +inf) the other way round */
    {0.5f, -INF, INF}, {-0.5f, -INF, INF}, {0x1.fffffep-1f, -INF, INF}, {-0x1p-149f, -INF, INF},
    {2.0f, -INF, 0.0f}, {-0x1.000002p0f, -INF, 0.0f}, {FLT_MAX, -INF, 0.0f}, {INF, -INF, 0.0f},
    {-INF, -INF, 0.0f}, {0.5f, INF, 0.0f}, {-0.5f, INF, 0.0f}, {0x1p-149f, INF, 0.0f}, {2.0f, INF, INF},
    {-2.0f, INF, INF}, {-0x1.000002p0f, INF, INF}, {INF, INF, INF}, {-INF, INF, INF},
    /* pow(-inf, y): -0 for an odd integer y < 0, +0 for other y < 0, -inf for an
     * odd integer y > 0, +inf for other y > 0; pow(+inf, y): +0 for y < 0, +inf for y > 0 */
    {-INF, -1.0f, -0.0f}, {-INF, -3.0f, -0.0f}, {-INF, -2.0f, 0.0f}, {-INF, -0.5f, 0.0f}, {-INF, -FLT_MAX, 0.0f},
    {-INF, 1.0f, -INF}, {-INF, 3.0f, -INF}, {-INF, 2.0f, INF}, {-INF, 0.5f, INF}, {-INF, FLT_MAX, INF},
    {INF, -1.0f, 0.0f}, {INF, -0x1p-149f, 0.0f}, {INF, 0x1p-149f, INF}, {INF, 2.0f, INF},
    /* NaN: finite x < 0 and finite y not an integer; a NaN x or y otherwise */
    {-2.0f, 0.5f, NAN}, {-0.5f, 1.5f, NAN}, {-0x1p-149f, 0.5f, NAN}, {-FLT_MAX, 0x1.fffffep22f, NAN},
    {-1.0f, 0.5f, NAN}, {NAN, 1.0f, NAN}, {NAN, -INF, NAN}, {2.0f, NAN, NAN}, {-1.0f, NAN, NAN},
    {0.0f, NAN, NAN}, {INF, NAN, NAN}, {NAN, NAN, NAN},
    /* a negative x and an integer y: the sign of odd powers (x a power of two:
     * exact results); overflow and underflow */
    {-2.0f, 3.0f, -8.0f}, {-2.0f, -3.0f, -0.125f}, {-2.0f, 2.0f, 4.0f}, {-2.0f, 127.0f, -0x1p127f},
    {-2.0f, 128.0f, INF}, {-2.0f, 129.0f, -INF}, {-2.0f, -126.0f, 0x1p-126f}, {-2.0f, -149.0f, -0x1p-149f},
    {-2.0f, -150.0f, 0.0f}, {-2.0f, -151.0f, -0.0f}, {-0.5f, 149.0f, -0x1p-149f}, {-0x1p-149f, 1.0f, -0x1p-149f},
    {-1.0f, 0x1.fffffep23f, -1.0f}, {-1.0f, 0x1.000002p24f, 1.0f}, {-1.0f, -3.0f, -1.0f}, {-1.0f, FLT_MAX, 1.0f},
    {-10.0f, 39.0f, -INF}, {-10.0f, 40.0f, INF}, {-10.0f, -47.0f, -0.0f},
    /* overflow and underflow */
    {2.0f, 128.0f, INF}, {2.0f, 127.0f, 0x1p127f}, {2.0f, -149.0f, 0x1p-149f}, {2.0f, -150.0f, 0.0f},
    {0.5f, 150.0f, 0.0f}, {10.0f, 39.0f, INF}, {10.0f, -46.0f, 0.0f}, {FLT_MAX, 2.0f, INF},
    {FLT_MAX, -2.0f, 0.0f}, {0x1p-149f, 2.0f, 0.0f}, {0x1p-149f, -1.0f, INF}, {0x1p-149f, 1.0f, 0x1p-149f},
    {4.0f, 0.5f, 2.0f}, {0x1p-126f, -1.0f, 0x1p126f},
};
#undef INF

TEST(pow_special_values)
{
    for (size_t i = 0; i < sizeof pow_specials / sizeof pow_specials[0]; i++) {
        float x = pow_specials[i].x, y = pow_specials[i].y, got = mosaic_powf(x, y);
        CHECK(same(got, pow_specials[i].want), "pow(%a, %a) = %a, not %a", x, y, got, pow_specials[i].want);
    }
}

/* ---- the largest errors ---------------------------------------------------------- */

#define MAX_EDGES 8192
typedef struct {
    float x[MAX_EDGES];
    size_t n;
} edge_list;

/* x and the k floats each side of it, both signs */
static void around(edge_list *l, float x, int k)
{
    float lo = x, hi = x;
    for (int i = 0; i < k; i++)
        lo = nextafterf(lo, -INFINITY), hi = nextafterf(hi, INFINITY);
    for (float v = lo; l->n + 2 <= MAX_EDGES; v = nextafterf(v, INFINITY)) {
        l->x[l->n++] = v;
        l->x[l->n++] = -v;
        if (v == hi)
            break;
    }
}

typedef struct {
    float (*f)(float);
    double (*ref)(double);
    uint32_t begin, end; /* indices i: the float of bits i * 64 + an offset from 0 to 63 */
    const edge_list *edges;
    double max;
    float worst;
} sweep;

static void measure(sweep *s, float x)
{
    double e = ulp_error(s->f(x), s->ref(x));
    if (e > s->max || (e == s->max && s->max == 0))
        s->max = e, s->worst = x;
}

static void *sweep_run(void *arg)
{
    sweep *s = arg;
    for (uint32_t i = s->begin; i < s->end; i++)
        measure(s, from_bits(i << 6 | (i * 0x9e3779b1u) >> 26));
    for (size_t i = 0; s->edges && i < s->edges->n; i++)
        measure(s, s->edges->x[i]);
    return NULL;
}

/* f's largest error over the sample and the edges, with its argument */
static double largest_error(float (*f)(float), double (*ref)(double), const edge_list *edges, float *worst)
{
    sweep s[2] = {{f, ref, 0, 1u << 25, edges, 0, 0}, {f, ref, 1u << 25, 1u << 26, NULL, 0, 0}};
    pthread_t t;
    bool threaded = pthread_create(&t, NULL, sweep_run, &s[1]) == 0;
    sweep_run(&s[0]);
    if (threaded)
        pthread_join(t, NULL);
    else
        sweep_run(&s[1]);
    int w = s[1].max > s[0].max;
    *worst = s[w].worst;
    return s[w].max;
}

static void check_function(const char *name, float (*f)(float), double (*ref)(double), const edge_list *edges)
{
    float worst;
    double e = largest_error(f, ref, edges, &worst);
    printf("   %s: %.3f ulp at most, at %a\n", name, e, worst);
    CHECK(e <= BOUND_ONE_ARGUMENT, "%s: %.3f ulp at %a (%a, not %a)", name, e, worst, f(worst), ref(worst));
}

static edge_list edges; /* one function's at a time (main thread) */

TEST(exp_exp2)
{
    edges.n = 0;
    around(&edges, 0.0f, 64);
    around(&edges, 1.0f, 16);
    around(&edges, 0x1p-24f, 16);
    /* e^x: FLT_MAX, FLT_MIN, the least denormal and half of it; where the
     * result's exponent changes; the limits past which the result is set */
    const double thresholds[] = {128, -126, -149, -150};
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++)
        around(&edges, (float)(thresholds[i] * LN2), 64);
    for (int n = -150; n <= 128; n += 2)
        around(&edges, (float)(n * LN2), 2);
    around(&edges, 89.0f, 16);
    around(&edges, -104.5f, 16);
    check_function("exp", gpu_exp, exp, &edges);

    edges.n = 0;
    around(&edges, 0.0f, 64);
    for (int n = -152; n <= 130; n++)
        around(&edges, (float)n, n < -120 || n > 120 ? 16 : 2), around(&edges, n + 0.5f, 2);
    around(&edges, 129.0f, 16);
    around(&edges, -151.0f, 16);
    check_function("exp2", gpu_exp2, exp2, &edges);
}

TEST(log_log2)
{
    edges.n = 0;
    around(&edges, 1.0f, 2048); /* results near 0 */
    around(&edges, 0x1p-149f, 64);
    around(&edges, FLT_MIN, 64);
    around(&edges, FLT_MAX, 64);
    around(&edges, 0x1.6a09e6p-1f, 64); /* sqrt(1/2) and sqrt 2: m's ends */
    around(&edges, 0x1.6a09e6p+0f, 64);
    for (int n = -149; n <= 127; n++)
        around(&edges, ldexpf(1.0f, n), 2);
    check_function("log", gpu_log, log, &edges);
    check_function("log2", gpu_log2, log2, &edges);
}

TEST(sin_cos)
{
    edges.n = 0;
    around(&edges, 0.0f, 64);
    around(&edges, 0x1p-12f, 16);
    around(&edges, 0x1p19f, 256); /* Cody-Waite to Payne-Hanek */
    around(&edges, FLT_MAX, 64);
    /* multiples of pi/2: the smallest reduced arguments */
    for (double k = 1; k < 400000; k = k < 2000 ? k + 1 : floor(k * 1.1))
        around(&edges, (float)(k * PI_2), 2);
    for (int n = 20; n < 128; n++)
        around(&edges, ldexpf(1.0f, n), 2);
    check_function("sin", gpu_sin, sin, &edges);
    check_function("cos", gpu_cos, cos, &edges);
}

/* ---- pow's ----------------------------------------------------------------------- */

static uint64_t next_random(uint64_t *state) /* splitmix64 */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
    z = (z ^ z >> 27) * 0x94d049bb133111ebu;
    return z ^ z >> 31;
}

typedef struct {
    uint64_t seed;
    unsigned n;
    double max;
    float worst_x, worst_y;
} pow_sweep;

/* pairs of five kinds, where the result is finite and not trivial: any x > 0
 * with y so that y log2 x is in [-152, 130] (x < 0 with an integer y in
 * half of them); integer y; y near +-1; x near 1; denormal x */
static void *pow_run(void *arg)
{
    pow_sweep *s = arg;
    uint64_t state = s->seed;
    for (unsigned i = 0; i < s->n; i++) {
        uint64_t u = next_random(&state);
        double t = -152 + 282 * ((u >> 11 & 0xfffff) * 0x1p-20); /* the exponent of the result */
        float x, y;
        switch (i % 5) {
        case 0:
            x = from_bits((uint32_t)(u >> 32) % 0x7f800000u);
            y = (float)(t / log2(x));
            if (u & 1)
                x = -x, y = rintf(y);
            break;
        case 1: {
            int n = (int)(u >> 40) % 601 - 300;
            y = (float)(n ? n : 1);
            x = (float)exp2(t / y) * ((u & 1) ? -1 : 1);
            break;
        }
        case 2:
            y = from_bits(0x3f800000u + (uint32_t)((int)((u >> 32) % 4001) - 2000)) * ((u & 1) ? -1 : 1);
            x = from_bits((uint32_t)(u >> 8) % 0x7f800000u);
            break;
        case 3:
            x = from_bits(0x3f800000u + (uint32_t)((int)((u >> 40) % 0x800000) - 0x400000));
            y = (float)(t / log2(x));
            break;
        default:
            x = from_bits((uint32_t)(u >> 40) % 0x800000u);
            y = (float)(t / log2(x));
            break;
        }
        double e = ulp_error(mosaic_powf(x, y), pow(x, y));
        if (e > s->max)
            s->max = e, s->worst_x = x, s->worst_y = y;
    }
    return NULL;
}

TEST(pow_sample)
{
    pow_sweep s[2] = {{12345, 4000000, 0, 0, 0}, {67890, 4000000, 0, 0, 0}};
    pthread_t t;
    bool threaded = pthread_create(&t, NULL, pow_run, &s[1]) == 0;
    pow_run(&s[0]);
    if (threaded)
        pthread_join(t, NULL);
    else
        pow_run(&s[1]);
    int w = s[1].max > s[0].max;
    float x = s[w].worst_x, y = s[w].worst_y;
    printf("   pow: %.3f ulp at most, at (%a, %a)\n", s[w].max, x, y);
    CHECK(s[w].max <= BOUND_POW, "pow: %.3f ulp at pow(%a, %a) = %a, not %a", s[w].max, x, y, mosaic_powf(x, y),
          pow(x, y));
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
