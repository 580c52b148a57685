/* The GPU's maths built-ins, run on the host: Mosaic's builtins/nvptx/maths.cl
 * (and half.cl) linked before libclc's NVPTX library as a program's are,
 * compiled for x86-64 by gpu_maths_host.sh (which needs llvm-extract-16,
 * llvm-dis-16, llc-16, libclc-16's nvptx64--nvidiacl.bc and a processor
 * with FMA; without them every case skips).  libclc's functions broke OpenCL's rules in ways the
 * GPU's conformance run found one at a time (maths.cl names each); here:
 *   - edge_cases: OpenCL C 3.0 section 7.5.1's values, as the conformance
 *     tests' math_edge_cases checks them (test_conformance/math_brute_force/
 *     edge_cases.cpp), bit for bit, in float, double and half, and the
 *     special values of the functions maths.cl replaces;
 *   - nan_inputs: every maths function of every type with NaNs (quiet,
 *     signalling, negative, with payloads) and infinities: a NaN comes out,
 *     and nothing reads out of bounds (libclc's double cosh(NaN) did);
 *   - accuracy: the functions maths.cl computes itself against the C
 *     library in long double, within OpenCL's ulp bounds (section 7.4). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define TEST_LIST "test_gpu_builtin_maths.list"
#include "test.h"

#ifndef MOSAIC_GPU_MATHS_HOST
#define SKIP_WITHOUT_TOOLS()                                                                        \
    TEST_SKIP("the GPU's maths built-ins were not built for the host (llvm-extract-16, llc-16, "    \
              "libclc's nvptx64--nvidiacl.bc or FMA instructions missing)")
TEST(edge_cases) { SKIP_WITHOUT_TOOLS(); }
TEST(nan_inputs) { SKIP_WITHOUT_TOOLS(); }
TEST(accuracy) { SKIP_WITHOUT_TOOLS(); }
#else

typedef long double LD;
typedef _Float16 H16;

/* ---- the GPU's ways the host lacks (gpu_maths_host.sh) ---- */
float host_rsqrt_approx_f(float x) { return (float)(1.0 / sqrt((double)x)); }
double host_fabs_d(double x) { return x != x ? x : __builtin_fabs(x); }
float host_fabs_f(float x) { return x != x ? x : __builtin_fabsf(x); }

/* ---- the shim's functions (gpu_maths_shim.cl) ---- */
#define DECL_U(F) float t_##F##_f(float); double t_##F##_d(double); uint16_t t_##F##_h(uint16_t);
#define DECL_B(F)                                                                                   \
    float t_##F##_f(float, float); double t_##F##_d(double, double); uint16_t t_##F##_h(uint16_t, uint16_t);
#define DECL_BI(F) float t_##F##_f(float, int); double t_##F##_d(double, int); uint16_t t_##F##_h(uint16_t, int);
#define DECL_T(F)                                                                                   \
    float t_##F##_f(float, float, float); double t_##F##_d(double, double, double);               \
    uint16_t t_##F##_h(uint16_t, uint16_t, uint16_t);
#define DECL_OF(F)                                                                                  \
    float t_##F##_f(float, float *); double t_##F##_d(double, double *); uint16_t t_##F##_h(uint16_t, uint16_t *);
#define DECL_OI(F) float t_##F##_f(float, int *); double t_##F##_d(double, int *); uint16_t t_##F##_h(uint16_t, int *);
#define UNARY(X)                                                                                    \
    X(acos) X(acosh) X(acospi) X(asin) X(asinh) X(asinpi) X(atan) X(atanh) X(atanpi) X(cbrt) X(ceil) X(cos) \
    X(cosh) X(cospi) X(erfc) X(erf) X(exp) X(exp2) X(exp10) X(expm1) X(fabs) X(floor) X(lgamma) X(log) \
    X(log2) X(log10) X(log1p) X(logb) X(rint) X(round) X(rsqrt) X(sin) X(sinh) X(sinpi) X(sqrt) X(tan) \
    X(tanh) X(tanpi) X(tgamma) X(trunc)
/* binary functions whose result is a NaN when x is one (and y is 1.5) */
#define BINARY(X)                                                                                   \
    X(atan2) X(atan2pi) X(fdim) X(fmod) X(hypot) X(nextafter) X(pow) X(powr) X(remainder)
UNARY(DECL_U)
BINARY(DECL_B)
DECL_B(copysign) DECL_B(fmax) DECL_B(fmin) DECL_B(maxmag) DECL_B(minmag)
DECL_BI(ldexp) DECL_BI(pown) DECL_BI(rootn) DECL_T(fma) DECL_T(mad)
DECL_OF(fract) DECL_OF(modf) DECL_OF(sincos) DECL_OI(frexp) DECL_OI(lgamma_r)
int t_ilogb_f(float);
int t_ilogb_d(double);
int t_ilogb_h(uint16_t);
float t_remquo_f(float, float, int *);
double t_remquo_d(double, double, int *);
uint16_t t_remquo_h(uint16_t, uint16_t, int *);

enum type { F, D, H };
static const char *const type_name[] = {"float", "double", "half"};
static const int mant[] = {24, 53, 11}, min_exp[] = {-126, -1022, -14}, max_exp[] = {127, 1023, 15};

static uint16_t half_bits(double v)
{
    H16 h = (H16)v;
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}
static double half_value(uint16_t b)
{
    H16 h;
    memcpy(&h, &b, 2);
    return (double)h;
}
/* v as the type (exact for every value this file passes) and back */
static double as_type(enum type t, double v)
{
    return t == F ? (double)(float)v : t == H ? half_value(half_bits(v)) : v;
}

struct fn1 {
    const char *name;
    float (*f)(float);
    double (*d)(double);
    uint16_t (*h)(uint16_t);
};
#define FN1(F) {#F, t_##F##_f, t_##F##_d, t_##F##_h},
static const struct fn1 unary[] = {UNARY(FN1)};
struct fn2 {
    const char *name;
    float (*f)(float, float);
    double (*d)(double, double);
    uint16_t (*h)(uint16_t, uint16_t);
};
static const struct fn2 binary[] = {BINARY(FN1) FN1(copysign) FN1(fmax) FN1(fmin) FN1(maxmag) FN1(minmag)};
struct fn2i {
    const char *name;
    float (*f)(float, int);
    double (*d)(double, int);
    uint16_t (*h)(uint16_t, int);
};
static const struct fn2i binary_int[] = {FN1(ldexp) FN1(pown) FN1(rootn)};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct fn1 *find1(const char *name)
{
    for (size_t i = 0; i < COUNT(unary); i++)
        if (!strcmp(unary[i].name, name))
            return &unary[i];
    return NULL;
}
static double call1(const struct fn1 *f, enum type t, double x)
{
    return t == F ? f->f((float)x) : t == D ? f->d(x) : half_value(f->h(half_bits(x)));
}
static double call2(const char *name, enum type t, double x, double y)
{
    for (size_t i = 0; i < COUNT(binary); i++)
        if (!strcmp(binary[i].name, name)) {
            const struct fn2 *f = &binary[i];
            return t == F   ? f->f((float)x, (float)y)
                   : t == D ? f->d(x, y)
                            : half_value(f->h(half_bits(x), half_bits(y)));
        }
    for (size_t i = 0; i < COUNT(binary_int); i++)
        if (!strcmp(binary_int[i].name, name)) {
            const struct fn2i *f = &binary_int[i];
            int n = (int)y;
            return t == F ? f->f((float)x, n) : t == D ? f->d(x, n) : half_value(f->h(half_bits(x), n));
        }
    return NAN;
}

/* the same value, bit for bit but for a NaN's (any NaN matches NaN) */
static bool same(double got, double want)
{
    if (isnan(want))
        return isnan(got);
    return got == want && signbit(got) == signbit(want);
}

/* ---- edge_cases ----------------------------------------------------------- */
#define NaN NAN
#define INF INFINITY
#define DENORM (-1e300) /* the type's smallest subnormal */
struct edge {
    const char *name;
    double x, y; /* y: a second argument, or the int n of ldexp, pown, rootn */
    double want; /* DENORM / -DENORM: the type's smallest subnormal */
    unsigned types; /* 1 float, 2 double, 4 half; 0: all */
};
static const struct edge edges[] = {
    /* edge_cases.cpp */
    {"acospi", 1, 0, 0, 0}, {"acospi", 2, 0, NaN, 0}, {"acospi", -2, 0, NaN, 0},
    {"asinpi", 0, 0, 0, 0}, {"asinpi", -0.0, 0, -0.0, 0}, {"asinpi", 2, 0, NaN, 0}, {"asinpi", -2, 0, NaN, 0},
    {"atanpi", 0, 0, 0, 0}, {"atanpi", -0.0, 0, -0.0, 0}, {"atanpi", INF, 0, 0.5, 0}, {"atanpi", -INF, 0, -0.5, 0},
    {"atan2pi", 0, -0.0, 1, 0}, {"atan2pi", -0.0, -0.0, -1, 0}, {"atan2pi", 0, 0, 0, 0}, {"atan2pi", -0.0, 0, -0.0, 0},
    {"atan2pi", 0, -1, 1, 0}, {"atan2pi", -0.0, -1, -1, 0}, {"atan2pi", 0, 1, 0, 0}, {"atan2pi", -0.0, 1, -0.0, 0},
    {"atan2pi", -1, 0, -0.5, 0}, {"atan2pi", -1, -0.0, -0.5, 0}, {"atan2pi", 1, 0, 0.5, 0},
    {"atan2pi", 1, -0.0, 0.5, 0},
    {"atan2pi", 1, -INF, 1, 0}, {"atan2pi", -1, -INF, -1, 0}, {"atan2pi", 1, INF, 0, 0}, {"atan2pi", -1, INF, -0.0, 0},
    {"atan2pi", INF, 1, 0.5, 0}, {"atan2pi", -INF, 1, -0.5, 0}, {"atan2pi", INF, -INF, 0.75, 0},
    {"atan2pi", -INF, -INF, -0.75, 0}, {"atan2pi", INF, INF, 0.25, 0}, {"atan2pi", -INF, INF, -0.25, 0},
    {"ceil", -0.5, 0, -0.0, 0}, {"ceil", -0.25, 0, -0.0, 0},
    {"cospi", 0, 0, 1, 0}, {"cospi", -0.0, 0, 1, 0}, {"cospi", 0.5, 0, 0, 0}, {"cospi", 1.5, 0, 0, 0},
    {"cospi", 2.5, 0, 0, 0}, {"cospi", -0.5, 0, 0, 0}, {"cospi", -1.5, 0, 0, 0}, {"cospi", INF, 0, NaN, 0},
    {"cospi", -INF, 0, NaN, 0},
    {"exp10", -INF, 0, 0, 0}, {"exp10", INF, 0, INF, 0},
    {"fdim", 1, NaN, NaN, 0}, {"fdim", NaN, 1, NaN, 0}, {"fdim", INF, NaN, NaN, 0}, {"fdim", NaN, INF, NaN, 0},
    {"fmod", 0, NaN, NaN, 0}, {"fmod", -0.0, NaN, NaN, 0},
    {"nextafter", -0.0, 1, DENORM, 0}, {"nextafter", 0, -1, -DENORM, 0},
    {"pow", 0, -INF, INF, 0}, {"pow", -0.0, -INF, INF, 0},
    {"pown", 0, 0, 1, 0}, {"pown", -0.0, 0, 1, 0}, {"pown", INF, 0, 1, 0}, {"pown", -INF, 0, 1, 0},
    {"pown", NaN, 0, 1, 0}, {"pown", 0, -1, INF, 0}, {"pown", -0.0, -1, -INF, 0}, {"pown", 0, -3, INF, 0},
    {"pown", -0.0, -3, -INF, 0}, {"pown", 0, -2, INF, 0}, {"pown", -0.0, -2, INF, 0}, {"pown", 0, 2, 0, 0},
    {"pown", -0.0, 2, 0, 0}, {"pown", 0, 1, 0, 0}, {"pown", -0.0, 1, -0.0, 0}, {"pown", 0, 3, 0, 0},
    {"pown", -0.0, 3, -0.0, 0},
    {"powr", 1, 0, 1, 0}, {"powr", 2, -0.0, 1, 0}, {"powr", 0, -1, INF, 0}, {"powr", -0.0, -1, INF, 0},
    {"powr", 0, -INF, INF, 0}, {"powr", -0.0, -INF, INF, 0}, {"powr", 0, 1, 0, 0}, {"powr", -0.0, 1, 0, 0},
    {"powr", 1, 2, 1, 0}, {"powr", 1, -1, 1, 0}, {"powr", -1, 2, NaN, 0}, {"powr", 0, 0, NaN, 0},
    {"powr", -0.0, -0.0, NaN, 0}, {"powr", INF, 0, NaN, 0}, {"powr", INF, -0.0, NaN, 0}, {"powr", 1, INF, NaN, 0},
    {"powr", 1, -INF, NaN, 0},
    {"rint", -0.5, 0, -0.0, 0},
    {"rootn", 0, -1, INF, 0}, {"rootn", -0.0, -1, -INF, 0}, {"rootn", 0, -3, INF, 0}, {"rootn", -0.0, -3, -INF, 0},
    {"rootn", 0, -2, INF, 0}, {"rootn", -0.0, -2, INF, 0}, {"rootn", 0, 2, 0, 0}, {"rootn", -0.0, 2, 0, 0},
    {"rootn", 0, 1, 0, 0}, {"rootn", -0.0, 1, -0.0, 0}, {"rootn", 0, 3, 0, 0}, {"rootn", -0.0, 3, -0.0, 0},
    {"rootn", -1, 2, NaN, 0}, {"rootn", -1, 4, NaN, 0}, {"rootn", 1, 0, NaN, 0}, {"rootn", 0, 0, NaN, 0},
    {"round", -0.25, 0, -0.0, 0},
    {"sinpi", 0, 0, 0, 0}, {"sinpi", -0.0, 0, -0.0, 0}, {"sinpi", 1, 0, 0, 0}, {"sinpi", 2, 0, 0, 0},
    {"sinpi", 4, 0, 0, 0}, {"sinpi", -1, 0, -0.0, 0}, {"sinpi", -2, 0, -0.0, 0}, {"sinpi", -4, 0, -0.0, 0},
    {"sinpi", INF, 0, NaN, 0}, {"sinpi", -INF, 0, NaN, 0},
    {"tanpi", 0, 0, 0, 0}, {"tanpi", -0.0, 0, -0.0, 0}, {"tanpi", INF, 0, NaN, 0}, {"tanpi", -INF, 0, NaN, 0},
    {"tanpi", 2, 0, 0, 0}, {"tanpi", -2, 0, -0.0, 0}, {"tanpi", 1, 0, -0.0, 0}, {"tanpi", -1, 0, 0, 0},
    {"tanpi", 3, 0, -0.0, 0}, {"tanpi", -3, 0, 0, 0}, {"tanpi", 0.5, 0, INF, 0}, {"tanpi", 2.5, 0, INF, 0},
    {"tanpi", 1.5, 0, -INF, 0}, {"tanpi", -0.5, 0, -INF, 0},
    {"trunc", -0.5, 0, -0.0, 0}, {"trunc", -0.25, 0, -0.0, 0},
    /* the *pi functions further out, and where a float is an even integer */
    {"sinpi", 7, 0, 0, 0}, {"sinpi", -7, 0, -0.0, 0}, {"sinpi", 0x1p30, 0, 0, 3}, {"sinpi", -0x1p60, 0, -0.0, 3},
    {"sinpi", 2.5, 0, 1, 0}, {"sinpi", -2.5, 0, -1, 0}, {"sinpi", 1.5, 0, -1, 0},
    {"cospi", 7, 0, -1, 0}, {"cospi", -6, 0, 1, 0}, {"cospi", 7.5, 0, 0, 0}, {"cospi", -7.5, 0, 0, 0},
    {"cospi", 0x1p30 + 1, 0, -1, 2}, {"cospi", 0x1p52 + 1, 0, -1, 2}, {"cospi", 0x1p60, 0, 1, 3},
    {"tanpi", 7, 0, -0.0, 0}, {"tanpi", -8, 0, -0.0, 0}, {"tanpi", 7.5, 0, -INF, 0}, {"tanpi", -7.5, 0, INF, 0},
    {"tanpi", 0x1p52 + 1, 0, -0.0, 2}, {"tanpi", 0x1p60, 0, 0, 3}, {"tanpi", -0x1p60, 0, -0.0, 3},
    /* tgamma: C99's poles and signs, libclc's inf where the result underflows */
    {"tgamma", 0, 0, INF, 0}, {"tgamma", -0.0, 0, -INF, 0}, {"tgamma", INF, 0, INF, 0}, {"tgamma", -INF, 0, NaN, 0},
    {"tgamma", -1, 0, NaN, 0}, {"tgamma", -2, 0, NaN, 0}, {"tgamma", -0x1.0002p+14, 0, -0.0, 1},
    {"tgamma", -0x1.0006p+14, 0, 0, 1}, {"tgamma", -200.5, 0, -0.0, 2}, {"tgamma", -201.5, 0, 0, 2},
    {"tgamma", -1000.5, 0, -0.0, 6},
    {"tgamma", 200, 0, INF, 0}, {"tgamma", -0x1p-1074, 0, -INF, 2},
    /* cosh and sinh, whose double read a table out of bounds for a NaN */
    {"cosh", INF, 0, INF, 0}, {"cosh", -INF, 0, INF, 0}, {"cosh", 0, 0, 1, 0}, {"cosh", -0.0, 0, 1, 0},
    {"cosh", 800, 0, INF, 2}, {"sinh", INF, 0, INF, 0}, {"sinh", -INF, 0, -INF, 0}, {"sinh", 0, 0, 0, 0},
    {"sinh", -0.0, 0, -0.0, 0}, {"sinh", -800, 0, -INF, 2},
    /* atan, acospi */
    {"atan", -0.0, 0, -0.0, 0}, {"atan", 0, 0, 0, 0}, {"acospi", -1, 0, 1, 0},
    /* ldexp keeps NaN, infinities and zeros whatever n; its float went
     * through libclc's double, which did not */
    {"ldexp", NaN, 1, NaN, 0}, {"ldexp", NaN, -1, NaN, 0}, {"ldexp", NaN, INT_MAX, NaN, 0},
    {"ldexp", NaN, INT_MIN, NaN, 0}, {"ldexp", INF, INT_MIN, INF, 0}, {"ldexp", -INF, -5, -INF, 0},
    {"ldexp", -0.0, INT_MAX, -0.0, 0}, {"ldexp", 0, 100, 0, 0}, {"ldexp", 1, INT_MAX, INF, 0},
    {"ldexp", -1, INT_MAX, -INF, 0}, {"ldexp", 1, INT_MIN, 0, 0}, {"ldexp", -1, INT_MIN, -0.0, 0},
    {"ldexp", 0x1p-149, 276, 0x1p127, 3}, {"ldexp", 0x1p-1074, 2097, 0x1p1023, 2},
    {"ldexp", 0x1p1023, -2097, 0x1p-1074, 2}, {"ldexp", 0x1.8p1023, -2098, 0x1p-1074, 2},
    {"ldexp", 0x1p1023, -2098, 0, 2}, {"ldexp", 0x1.000001p0, -1074, 0x1p-1074, 2},
    /* nextafter: the step up from -DENORM is -0 */
    {"nextafter", -DENORM, 0, -0.0, 0}, {"nextafter", DENORM, -1, 0, 0}, {"nextafter", 1, 1, 1, 0},
    {"lgamma", -INF, 0, INF, 0}, {"lgamma", INF, 0, INF, 0}, {"lgamma", 1, 0, 0, 0},
};

static double denorm(enum type t) { return ldexp(1.0, min_exp[t] - mant[t] + 1); }

TEST(edge_cases)
{
    for (size_t i = 0; i < COUNT(edges); i++) {
        const struct edge *e = &edges[i];
        for (enum type t = F; t <= H; t++) {
            if (e->types && !(e->types & (1u << t)))
                continue;
            double x = e->x == DENORM ? denorm(t) : e->x == -DENORM ? -denorm(t) : as_type(t, e->x);
            double want = e->want == DENORM ? denorm(t) : e->want == -DENORM ? -denorm(t) : e->want;
            const struct fn1 *f = find1(e->name);
            double got = f ? call1(f, t, x) : call2(e->name, t, x, e->y);
            CHECK(same(got, want), "%s %s(%a, %a) = %a, want %a", type_name[t], e->name, x, e->y, got, want);
        }
    }
    /* fract of -0 and -inf: -0, with -0 and -inf in *iptr */
    float fi;
    double di;
    uint16_t hi;
    float fr = t_fract_f(-0.0f, &fi);
    CHECK(fr == 0 && signbit(fr) && fi == 0 && signbit(fi), "float fract(-0) = %a, %a", fr, fi);
    double dr = t_fract_d(-INFINITY, &di);
    CHECK(dr == 0 && signbit(dr) && di == -INFINITY, "double fract(-inf) = %a, %a", dr, di);
    dr = t_fract_d(-0x1p-60, &di);
    CHECK(dr == 0x1.fffffffffffffp-1 && di == -1, "double fract(-0x1p-60) = %a, %a", dr, di);
    hi = t_fract_h(half_bits(-0.0), &hi);
    CHECK(hi == 0x8000, "half fract(-0) = 0x%04x", hi);
    int s;
    float fl = t_lgamma_r_f(-INFINITY, &s);
    CHECK(fl == INFINITY, "float lgamma_r(-inf) = %a", fl);
}

/* ---- nan_inputs ----------------------------------------------------------- */
TEST(nan_inputs)
{
    static const uint32_t fnan[] = {0x7fc00000, 0xffc00000, 0x7fc00200, 0xffc00200, 0x7f800001, 0xff800001, 0x7fffffff};
    static const uint64_t dnan[] = {0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000200, 0xfff8000000000200,
                                    0xfff0000000000200, 0x7ff0000000000001, 0xffffffffffffffff};
    static const uint16_t hnan[] = {0x7e00, 0xfe00, 0x7e20, 0xfe20, 0x7c01, 0xfc01, 0x7fff};
    for (size_t k = 0; k < COUNT(fnan); k++) {
        float xf;
        double xd;
        memcpy(&xf, &fnan[k], 4);
        memcpy(&xd, &dnan[k], 8);
        for (size_t i = 0; i < COUNT(unary); i++) {
            const struct fn1 *f = &unary[i];
            CHECK(isnan(f->f(xf)), "float %s(NaN 0x%08x) = %a", f->name, fnan[k], f->f(xf));
            CHECK(isnan(f->d(xd)), "double %s(NaN 0x%016llx) = %a", f->name, (unsigned long long)dnan[k], f->d(xd));
            CHECK(isnan(half_value(f->h(hnan[k]))), "half %s(NaN 0x%04x) = 0x%04x", f->name, hnan[k], f->h(hnan[k]));
        }
        for (size_t i = 0; i < COUNT(binary) - 5; i++) { /* not copysign, fmax, fmin, maxmag, minmag */
            const struct fn2 *f = &binary[i];
            CHECK(isnan(f->f(xf, 1.5f)), "float %s(NaN 0x%08x, 1.5)", f->name, fnan[k]);
            CHECK(isnan(f->d(xd, 1.5)), "double %s(NaN 0x%016llx, 1.5)", f->name, (unsigned long long)dnan[k]);
            CHECK(isnan(f->f(1.5f, xf)), "float %s(1.5, NaN 0x%08x)", f->name, fnan[k]);
            CHECK(isnan(f->d(1.5, xd)), "double %s(1.5, NaN 0x%016llx)", f->name, (unsigned long long)dnan[k]);
        }
        static const int ns[] = {-2147483647 - 1, -100000, -1075, -3, -1, 1, 2, 1024, 100000, 2147483647};
        for (size_t i = 0; i < COUNT(binary_int); i++)
            for (size_t j = 0; j < COUNT(ns); j++) {
                const struct fn2i *f = &binary_int[i];
                CHECK(isnan(f->f(xf, ns[j])), "float %s(NaN 0x%08x, %d) = %a", f->name, fnan[k], ns[j],
                      f->f(xf, ns[j]));
                CHECK(isnan(f->d(xd, ns[j])), "double %s(NaN 0x%016llx, %d) = %a", f->name,
                      (unsigned long long)dnan[k], ns[j], f->d(xd, ns[j]));
                CHECK(isnan(half_value(f->h(hnan[k], ns[j]))), "half %s(NaN 0x%04x, %d)", f->name, hnan[k], ns[j]);
            }
        float of;
        double od;
        int oi;
        CHECK(isnan(t_fract_f(xf, &of)) && isnan(of), "float fract(NaN)");
        CHECK(isnan(t_fract_d(xd, &od)) && isnan(od), "double fract(NaN)");
        CHECK(isnan(t_sincos_d(xd, &od)) && isnan(od), "double sincos(NaN)");
        CHECK(isnan(t_lgamma_r_f(xf, &oi)), "float lgamma_r(NaN)");
        CHECK(isnan(t_remquo_d(xd, 3.0, &oi)), "double remquo(NaN, 3)");
    }
    /* infinities where the result is a NaN, or itself */
    static const char *const nan_at_inf[] = {"acos", "asin", "cos", "sin", "tan", "sinpi", "cospi", "tanpi"};
    for (size_t i = 0; i < COUNT(nan_at_inf); i++)
        for (enum type t = F; t <= H; t++) {
            double got = call1(find1(nan_at_inf[i]), t, INFINITY);
            CHECK(isnan(got), "%s %s(inf) = %a", type_name[t], nan_at_inf[i], got);
        }
}

/* ---- accuracy ------------------------------------------------------------- */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
/* the error of got in ulps of ref, as the conformance tests count it */
static double ulp_error(enum type t, double got, LD ref)
{
    if (isnan(ref))
        return isnan(got) ? 0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    if (isinf(ref))
        return got == ref ? 0 : INFINITY;
    if ((t == F ? (LD)(float)ref : (LD)(double)ref) == got) /* correctly rounded, overflow included */
        return 0;
    LD g = isinf(got) ? copysignl(ldexpl(1, max_exp[t] + 1), got) : got;
    int e = ref == 0 ? min_exp[t] : ilogbl(ref);
    if (e < min_exp[t])
        e = min_exp[t];
    return (double)(fabsl(g - ref) / ldexpl(1, e - mant[t] + 1));
}
static const LD PI_L = 3.141592653589793238462643383279502884L;
/* sin(pi x) and cos(pi x), x reduced exactly first (x: a float or a double) */
static LD sinpi_ref(LD x)
{
    LD n = rintl(2 * x), r = x - n / 2;
    int q = (int)fmodl(n, 4);
    q = (q + 4) & 3;
    LD v = (q & 1) ? cosl(PI_L * r) : sinl(PI_L * r);
    return (q & 2) ? -v : v;
}
static LD cospi_ref(LD x) { return sinpi_ref(x + 0.5L); }

struct accuracy {
    const char *name;
    LD (*ref)(LD);
    double bound; /* OpenCL's, section 7.4 */
    double lo, hi; /* arguments: uniform from lo to hi, and as many of random exponents below */
    unsigned types;
};
static LD tgamma_ref(LD x) { return tgammal(x); }
static LD cosh_ref(LD x) { return coshl(x); }
static LD sinh_ref(LD x) { return sinhl(x); }
/* (the poles, n + 1/2, are edge_cases': +inf or -inf as n is even or odd) */
static LD tanpi_ref(LD x) { return cospi_ref(x) == 0 ? NAN : sinpi_ref(x) / cospi_ref(x); }
static LD acospi_ref(LD x) { return acosl(x) / PI_L; }
static LD atan_ref(LD x) { return atanl(x); }
static LD atanpi_ref(LD x) { return atanl(x) / PI_L; }
static const struct accuracy accuracies[] = {
    {"tgamma", tgamma_ref, 16, -190, 180, 3},  {"tgamma", tgamma_ref, 16, -1e-3, 1e-3, 3},
    {"tgamma", tgamma_ref, 16, -12, 12, 3},    {"cosh", cosh_ref, 4, -712, 712, 2},
    {"cosh", cosh_ref, 4, -2, 2, 2},           {"sinh", sinh_ref, 4, -712, 712, 2},
    {"sinh", sinh_ref, 4, -2, 2, 2},           {"sinh", sinh_ref, 4, -1e-6, 1e-6, 2},
    {"sinpi", sinpi_ref, 4, -1e6, 1e6, 3},     {"sinpi", sinpi_ref, 4, -3, 3, 3},
    {"cospi", cospi_ref, 4, -1e6, 1e6, 3},     {"cospi", cospi_ref, 4, -3, 3, 3},
    {"tanpi", tanpi_ref, 6, -1e6, 1e6, 3},     {"tanpi", tanpi_ref, 6, -3, 3, 3},
    {"acospi", acospi_ref, 5, -1, 1, 2},       {"atan", atan_ref, 5, -1e3, 1e3, 2},
    {"atanpi", atanpi_ref, 5, -1e3, 1e3, 2},
};

TEST(accuracy)
{
    for (size_t i = 0; i < COUNT(accuracies); i++) {
        const struct accuracy *a = &accuracies[i];
        const struct fn1 *f = find1(a->name);
        for (enum type t = F; t <= D; t++) {
            if (!(a->types & (1u << t)))
                continue;
            double worst = 0, worst_x = 0;
            for (int k = 0; k < 20000; k++) {
                double u = (next_random() >> 11) * 0x1p-53;
                double x = as_type(t, a->lo + (a->hi - a->lo) * u);
                if (k & 1) /* and, for every other one, a random exponent as far down as the range's */
                    x = as_type(t, copysign(ldexp(1 + u, -(int)(next_random() % 60)), u - 0.5) *
                                       fmax(fabs(a->lo), a->hi));
                LD ref = a->ref(x);
                if (isnan(ref) && !isnan(x))
                    continue;
                double e = ulp_error(t, call1(f, t, x), ref);
                if (e > worst)
                    worst = e, worst_x = x;
            }
            CHECK(worst <= a->bound, "%s %s: %.2f ulp at %a (OpenCL allows %g)", type_name[t], a->name, worst, worst_x,
                  a->bound);
        }
    }
    /* tgamma at the integers: (n - 1)! (libclc's double was 59 ulp off at 20) */
    for (int n = 1; n <= 171; n++) {
        double e = ulp_error(D, t_tgamma_d(n), tgammal(n));
        CHECK(e <= 16, "double tgamma(%d): %.2f ulp", n, e);
        e = ulp_error(F, t_tgamma_f((float)n), tgammal(n));
        CHECK(e <= 16, "float tgamma(%d): %.2f ulp", n, e);
    }
    /* tanpi just below -0.5: libclc's took x - floor(x), which rounds to 0.5
     * there, for the pole (-inf) */
    double tp = t_tanpi_d(-0x1.fffffffffffffp-2);
    CHECK(fabsl(tp * (PI_L * 0x1p-54) + 1) < 1e-14, "double tanpi(-0x1.fffffffffffffp-2) = %a", tp);
    /* ldexp is exact: every float and double exponent step across the range */
    for (int n = -1200; n <= 1200; n += 7)
        for (int k = 0; k < 20; k++) {
            double x = ldexp(1 + (next_random() >> 11) * 0x1p-53, (int)(next_random() % 200) - 100);
            LD want = ldexpl(x, n);
            double got = t_ldexp_d(x, n);
            CHECK(got == (double)want, "double ldexp(%a, %d) = %a, want %a", x, n, got, (double)want);
            float xf = (float)x, gotf = t_ldexp_f(xf, n / 4);
            CHECK(gotf == (float)ldexpl(xf, n / 4), "float ldexp(%a, %d) = %a", xf, n / 4, gotf);
        }
}
#endif

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
