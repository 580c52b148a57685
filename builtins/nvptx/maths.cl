/* Maths built-ins with the GPU's own instructions where libclc's NVPTX
 * library computes them the long way, each held to OpenCL C's accuracy
 * (OpenCL C 3.0, section 7.4; test_bruteforce checks them).  Linked before
 * libclc, whose copies of these names they replace (src/compiler/gpu/ptx.c). */
#include "../builtins.h"
#include "maths_float.h"

/* libclc's double functions the float ones below use, under other names:
 * once this file defines a float overload of F, clang resolves later calls
 * of F to it whatever the arguments' types (rootn's double log2 was the
 * float one until these). */
static double fmod_d(double x, double y) { return fmod(x, y); }
static double remainder_d(double x, double y) { return remainder(x, y); }
static double ldexp_d(double x, int n) { return ldexp(x, n); }
static double tgamma_d(double x) { return tgamma(x); }
static double erfc_d(double x) { return erfc(x); }
static double log2_d(double x) { return log2(x); }
static double exp2_d(double x) { return exp2(x); }
static double remquo_d(double x, double y, __private int *q) { return remquo(x, y, q); }
static double lgamma_d(double x) { return lgamma(x); }
static double lgamma_r_d(double x, __private int *s) { return lgamma_r(x, s); }
static double exp_d(double x) { return exp(x); }
static double expm1_d(double x) { return expm1(x); }
static double log_d(double x) { return log(x); }
static double pow_d(double x, double y) { return pow(x, y); }
static double sin_d(double x) { return sin(x); }
static double cos_d(double x) { return cos(x); }
static double acos_d(double x) { return acos(x); }
static double atan2_d(double y, double x) { return atan2(y, x); }
static double atan2pi_d(double y, double x) { return atan2pi(y, x); }

/* rsqrt, 2 ulp allowed.  libclc divides 1 by a correctly rounded sqrt: two
 * of the GPU's slow IEEE sequences.  Here: the GPU's approximation alone
 * (rsqrt.approx.f32, subnormal inputs kept), whose largest error over every
 * float input is under 2 ulp (test_bruteforce's rsqrt in full mode on the
 * H200, conformance.md); 0, infinities, negative numbers and NaN give what
 * OpenCL asks. */
CONST_FN float rsqrt(float x)
{
    return __nvvm_rsqrt_approx_f(x);
}
VEC1(float, rsqrt, float)

/* exp, exp2, log, log2 (3 ulp allowed), sin, cos (4) and pow (16) in
 * float.  libclc's take table look-ups (in global memory here: ptx.c makes
 * __constant global) and branches, and its exp and exp2 flush denormal
 * results.  Here: polynomials, FMAs and integer operations, no table and
 * no branch (sin and cos branch to a table beyond 2^19), denormals kept,
 * within 0.99 ulp (pow 1.41); maths_float.h says how, and
 * tests/unit/test_gpu_maths.c runs the same code on the host. */
#define FROM_HEADER(F, IMPL)                                                                        \
    CONST_FN float F(float x) { return IMPL(x); }                                                  \
    VEC1(float, F, float)
FROM_HEADER(exp, mosaic_expf)
FROM_HEADER(exp2, mosaic_exp2f)
FROM_HEADER(log, mosaic_logf)
FROM_HEADER(log2, mosaic_log2f)
FROM_HEADER(sin, mosaic_sinf)
FROM_HEADER(cos, mosaic_cosf)

CONST_FN float pow(float x, float y) { return mosaic_powf(x, y); }
VEC2(float, pow, float, float)

/* rootn (4 ulp allowed).  libclc's flushes results near the smallest
 * normal float to zero (test_bruteforce: rootn(-0x1.000002p-126, 1) gave
 * -0).  Here: exp2(log2|x| / n) in double, rounded once to float, well
 * within 1 ulp; it is no hot path.  The special values as C99's pow with
 * exponent 1/n (OpenCL C 3.0 section 7.5.1). */
CONST_FN float rootn(float x, int n)
{
    float ax = fabs(x);
    bool odd = n & 1;
    if (n == 0 || isnan(x) || (x < 0.0f && !odd))
        return NAN;
    if (ax == 0.0f)
        return n > 0 ? (odd ? x : 0.0f) : (odd ? copysign(INFINITY, x) : INFINITY);
    if (isinf(x))
        return n > 0 ? (odd ? x : INFINITY) : (odd ? copysign(0.0f, x) : 0.0f);
    double l = log2_d(ax);
    float y = (float)exp2_d(l / (double)n);
    return odd ? copysign(y, x) : y;
}
VEC2(float, rootn, float, int)

/* fmod, remainder, remquo, ldexp, tgamma and erfc in float.  libclc's NVPTX
 * library is built as if float denormals were unsupported, and these flush
 * subnormal results to zero (test_bruteforce failed each on the H200)
 * while the device claims CL_FP_DENORM.  Here: libclc's double
 * functions, which keep subnormals, on the widened arguments, rounded once
 * to float.  fmod, remainder, remquo and ldexp are exact in double (the
 * float result is correctly rounded); tgamma's and erfc's double error is a
 * few double ulp, far inside float's 16.  None is a hot path. */
#define THROUGH_DOUBLE_2(F, B)                                                                      \
    CONST_FN float F(float x, B y) { return (float)F##_d(x, y); }
THROUGH_DOUBLE_2(fmod, float)
THROUGH_DOUBLE_2(remainder, float)
THROUGH_DOUBLE_2(ldexp, int)
VEC2(float, fmod, float, float)
VEC2(float, remainder, float, float)
VEC2(float, ldexp, float, int)
VEC2S(float, ldexp, float, int)
#define THROUGH_DOUBLE_1(F)                                                                         \
    CONST_FN float F(float x) { return (float)F##_d(x); }                                          \
    VEC1(float, F, float)
THROUGH_DOUBLE_1(tgamma)
THROUGH_DOUBLE_1(erfc)
/* lgamma and lgamma_r in float the same way: libclc's float gave -inf for
 * -inf (C99: +inf). */
THROUGH_DOUBLE_1(lgamma)
OVLD float lgamma_r(float x, __private int *s)
{
    return (float)lgamma_r_d(x, s);
}
VEC_OUT(float, lgamma_r, float, int, __private)
#define LGAMMA_R_AS(W) OUT_AS(float##W, lgamma_r, float##W, int##W)
LGAMMA_R_AS() LGAMMA_R_AS(2) LGAMMA_R_AS(3) LGAMMA_R_AS(4) LGAMMA_R_AS(8) LGAMMA_R_AS(16)

OVLD float remquo(float x, float y, __private int *q)
{
    return (float)remquo_d(x, y, q);
}
VEC_OUT2(float, remquo, float, float, int, __private)
#define REMQUO_AS(W) OUT2_AS(float##W, remquo, float##W, float##W, int##W)
REMQUO_AS() REMQUO_AS(2) REMQUO_AS(3) REMQUO_AS(4) REMQUO_AS(8) REMQUO_AS(16)

/* sinpi, cospi (4 ulp allowed) and tanpi (6), float and double.  libclc's
 * sinpi gave -0 for sinpi(1) and +0 for sinpi(-1), its cospi -0 for
 * cospi(0.5), cospi(2.5), cospi(-0.5), its tanpi copysign(0, n) for every
 * integer n (OpenCL C 3.0 section 7.5.1: sinpi(n) is +0 for n > 0 and -0
 * for n < 0, cospi(n + 0.5) is +0, tanpi(n) copysign(0, n) for an even n and
 * copysign(0, -n) for an odd one, tanpi(n + 0.5) +inf for an even n and
 * -inf for an odd one; test_bruteforce's math_edge_cases).  Here: x is
 * n / 2 + r exactly, n = rint(2x), |r| <= 1/4, and the quadrant n mod 4
 * picks libclc's double sin or cos of pi r (itself within 1.4 ulp; pi r
 * rounded once): within 1.5 ulp, tanpi 2.9 (measured on the host over
 * 2 * 10^6 arguments).  The zeros and infinities at
 * multiples of 1/2 as OpenCL wants them; float through the double, and half
 * (half.cl) through the float. */
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53
static double pi_times(double r) { return fma(PI_HI, r, PI_LO * r); }
static double sinpi_of(double x)
{
    if (!isfinite(x))
        return x - x;
    if (fabs(x) >= 0x1p52) /* an integer */
        return copysign(0.0, x);
    double n = rint(2.0 * x), r = fma(n, -0.5, x);
    long q = (long)n & 3;
    if (r == 0.0 && !(q & 1))
        return copysign(0.0, x);
    double a = pi_times(r), v = (q & 1) ? cos_d(a) : sin_d(a);
    return (q & 2) ? -v : v;
}
static double cospi_of(double x)
{
    if (!isfinite(x))
        return x - x;
    if (fabs(x) >= 0x1p52) /* an integer, odd only below 2^53 */
        return fabs(x) < 0x1p53 && ((long)x & 1) ? -1.0 : 1.0;
    double n = rint(2.0 * x), r = fma(n, -0.5, x);
    long q = (long)n & 3;
    if (r == 0.0 && (q & 1))
        return 0.0;
    double a = pi_times(r), v = (q & 1) ? sin_d(a) : cos_d(a);
    return (q == 1 || q == 2) ? -v : v;
}
static double tanpi_of(double x)
{
    if (!isfinite(x))
        return x - x;
    if (fabs(x) >= 0x1p52) {
        bool odd = fabs(x) < 0x1p53 && ((long)x & 1);
        return copysign(0.0, odd ? -x : x);
    }
    double n = rint(2.0 * x), r = fma(n, -0.5, x);
    long q = (long)n & 3;
    if (r == 0.0) /* q 0 and 2: x an even and an odd integer; 1 and 3: n + 0.5, n even and odd */
        return q == 0 ? copysign(0.0, x) : q == 2 ? copysign(0.0, -x) : q == 1 ? INFINITY : -INFINITY;
    double a = pi_times(r), s = sin_d(a), c = cos_d(a);
    return (q & 1) ? -c / s : s / c;
}
#define PI_FUNCTIONS(F)                                                                             \
    CONST_FN double F(double x) { return F##_of(x); }                                              \
    CONST_FN float F(float x) { return (float)F##_of(x); }                                         \
    VEC1(double, F, double)                                                                        \
    VEC1(float, F, float)
PI_FUNCTIONS(sinpi)
PI_FUNCTIONS(cospi)
PI_FUNCTIONS(tanpi)

/* tgamma in double (16 ulp allowed; float's goes through it, half's
 * through the float).  libclc's was up to 200 ulp off (tgamma(0x1p-890),
 * and 20 to 60 ulp at 18, 19.5, 20), gave +inf for -0 (C99: -inf) and for
 * -0x1p-1074, and its float gave +inf where the result underflows
 * (tgamma(-0x1.0002p+14): -0).  Here, for y = |x| from 10 up, Stirling's
 * series: sqrt(2 pi) y^(y - 1/2) e^-y e^S(1/y), with y^(y - 1/2) as the
 * square of libclc's pow(y, (y - 1/2) / 2) (so no overflow before the
 * result's) and S to the 1/y^15 term; below 10, y shifted up by 1 until it
 * is, the product of the factors kept in double-double, the last sum's
 * rounding error e taken back as 1 + e psi(y); a negative x by reflection,
 * -pi / (x sinpi(x) tgamma(-x)), which is +-0 from -185 down; below
 * 2^-28, 1/x - Euler's constant.  Within 6.7 ulp (measured on the host over
 * 2 * 10^6 arguments). */
static double stirling_sum(double y)
{
    double z = 1.0 / y, z2 = z * z;
    double p = fma(z2, -3617.0 / 122400.0, 1.0 / 156.0);
    p = fma(z2, p, -691.0 / 360360.0);
    p = fma(z2, p, 1.0 / 1188.0);
    p = fma(z2, p, -1.0 / 1680.0);
    p = fma(z2, p, 1.0 / 1260.0);
    p = fma(z2, p, -1.0 / 360.0);
    p = fma(z2, p, 1.0 / 12.0);
    return p * z;
}
/* tgamma(y) = a * b / (ph + pl) for 2^-28 <= y <= 185 */
static void gamma_parts(double y, double *a, double *b, double *ph, double *pl)
{
    double yh = y, yl = 0.0, h = 1.0, l = 0.0;
    while (yh < 10.0) {
        /* (h, l) *= (yh, yl) */
        double p = h * yh, e = fma(h, yh, -p) + (h * yl + l * yh);
        h = p + e;
        l = e - (h - p);
        /* (yh, yl) += 1 */
        double s = yh + 1.0, t = s - yh;
        yl += (yh - (s - t)) + (1.0 - t);
        yh = s;
    }
    double psi = log_d(yh) - 0.5 / yh;
    double t = pow_d(yh, (yh - 0.5) * 0.5);
    double m = 0x1.40d931ff62705p+1 * exp_d(stirling_sum(yh)) * fma(yl, psi, 1.0); /* sqrt(2 pi) */
    *a = t * exp_d(-yh) * m;
    *b = t;
    *ph = h;
    *pl = l;
}
static double tgamma_of(double x)
{
    double ax = fabs(x);
    if (isnan(x))
        return x;
    if (ax < 0x1p-28)
        return 1.0 / x - 0.57721566490153286; /* Euler's constant */
    if (x > 0.0) {
        if (x > 172.0)
            return INFINITY;
        double a, b, ph, pl;
        gamma_parts(x, &a, &b, &ph, &pl);
        double r = a * b / ph;
        return isinf(r) ? r : fma(-r, pl / ph, r);
    }
    double fl = floor(x);
    if (x == fl) /* negative integers and -inf */
        return NAN;
    bool odd = ax < 0x1p53 && ((long)fl & 1); /* then tgamma(x) < 0 */
    if (ax > 185.0)
        return odd ? -0.0 : 0.0;
    double a, b, ph, pl;
    gamma_parts(ax, &a, &b, &ph, &pl);
    double r = -PI_HI / (x * sinpi_of(x));
    return fma(r, ph, r * pl) / a / b;
}
CONST_FN double tgamma(double x) { return tgamma_of(x); }
VEC1(double, tgamma, double)

/* cosh and sinh in double (4 ulp allowed).  libclc's index a table with
 * (int)|x|, which for a NaN read out of bounds (test_bruteforce: the CUDA
 * context died at cosh(NaN); SIGSEGV on the host).  Here through libclc's
 * double exp and expm1: (e + 1/e) / 2 and (e - 1/e) / 2, below 1 sinh as
 * (E + E / (E + 1)) / 2 with E = expm1|x|, from 709 on the square of
 * exp(|x| / 2) / 2 (the result overflows after exp's argument would):
 * within 2.1 ulp (measured as for sinpi). */
static double cosh_of(double x)
{
    double a = fabs(x);
    if (a < 0x1p-27)
        return 1.0;
    if (a < 709.0) {
        double e = exp_d(a);
        return 0.5 * e + 0.5 / e;
    }
    double t = exp_d(0.5 * a);
    return 0.5 * t * t;
}
static double sinh_of(double x)
{
    double a = fabs(x), s;
    if (a < 0x1p-27)
        return x;
    if (a < 1.0) {
        double e = expm1_d(a);
        s = 0.5 * (e + e / (e + 1.0));
    } else if (a < 709.0) {
        double e = exp_d(a);
        s = 0.5 * e - 0.5 / e;
    } else {
        double t = exp_d(0.5 * a);
        s = 0.5 * t * t;
    }
    return copysign(s, x);
}
CONST_FN double cosh(double x) { return cosh_of(x); }
CONST_FN double sinh(double x) { return sinh_of(x); }
VEC1(double, cosh, double)
VEC1(double, sinh, double)

/* atan (5 ulp allowed), atanpi (5) and acospi (5) in double.  libclc's
 * atan and atanpi gave +0 for -0 (math_edge_cases: atanpi(-0)), and its
 * acospi takes the bits of fabs(x), which on the GPU keep a NaN's sign:
 * acospi of a negative NaN was 0.5 (test_bruteforce).  Here libclc's
 * atan2(x, 1), atan2pi(x, 1) (within 1.5 ulp) and acos(x) / pi (2 ulp;
 * acospi(1) = +0, acospi(-1) = 1 exactly). */
CONST_FN double atan(double x) { return atan2_d(x, 1.0); }
CONST_FN double atanpi(double x) { return atan2pi_d(x, 1.0); }
CONST_FN double acospi(double x) { return acos_d(x) / PI_HI; }
VEC1(double, atan, double)
VEC1(double, atanpi, double)
VEC1(double, acospi, double)

/* ldexp in double (exact; float's goes through it).  libclc's gave inf or a
 * finite number for a NaN (ldexp(NaN, 1) = inf), and 0 where x * 2^n
 * overflows with n near INT_MAX (its exponent sum wrapped).  Here: n
 * clamped to +-2200 (beyond the range of every finite x), x scaled by at
 * most two powers of two towards the result, then one product by 2^n that
 * rounds once; NaN, infinities and zeros come through as they are. */
static double ldexp_of(double x, int n)
{
    n = clamp(n, -2200, 2200);
    if (n > 1023) {
        x *= 0x1p1023;
        n -= 1023;
        if (n > 1023) {
            x *= 0x1p1023;
            n = min(n - 1023, 1023);
        }
    } else if (n < -1022) {
        x *= 0x1p-969; /* 2^-1022 * 2^53: no rounding while x stays normal */
        n += 969;
        if (n < -1022) {
            x *= 0x1p-969;
            n = max(n + 969, -1022);
        }
    }
    return x * as_double((long)(0x3ff + n) << 52);
}
CONST_FN double ldexp(double x, int n) { return ldexp_of(x, n); }
VEC2(double, ldexp, double, int)
VEC2S(double, ldexp, double, int)

/* nextafter (exact).  libclc's gave +0 for nextafter(-0x1p-149, 0) (and in
 * double): the step up from the negative smallest subnormal is -0.  Here
 * the representation stepped by one, 0 to the smallest subnormal of y's
 * sign. */
CONST_FN float nextafter(float x, float y)
{
    if (isnan(x) || isnan(y))
        return x + y;
    if (x == y)
        return y;
    if (x == 0.0f)
        return copysign(as_float(1), y);
    return as_float(as_int(x) + ((x < y) == (x > 0.0f) ? 1 : -1));
}
CONST_FN double nextafter(double x, double y)
{
    if (isnan(x) || isnan(y))
        return x + y;
    if (x == y)
        return y;
    if (x == 0.0)
        return copysign(as_double(1L), y);
    return as_double(as_long(x) + ((x < y) == (x > 0.0) ? 1L : -1L));
}
VEC2(float, nextafter, float, float)
VEC2(double, nextafter, double, double)

/* fract (exact).  libclc's gave +0 for -0 and -inf, where OpenCL C 3.0
 * section 7.5.1 wants -0 (with -0 and -inf in *iptr).  Here floor(x) and
 * x - floor(x), at most the largest number below 1. */
#define FRACT(T, BELOW_1)                                                                           \
    OVLD T fract(T x, __private T *ip)                                                             \
    {                                                                                              \
        T fl = floor(x);                                                                           \
        *ip = fl;                                                                                  \
        if (isinf(x))                                                                              \
            return copysign((T)0, x);                                                              \
        return x == (T)0 || isnan(x) ? x : fmin(x - fl, BELOW_1);                                 \
    }
FRACT(float, 0x1.fffffep-1f)
FRACT(double, 0x1.fffffffffffffp-1)
VEC_OUT(float, fract, float, float, __private)
VEC_OUT(double, fract, double, double, __private)
#define FRACT_AS(W) OUT_AS(float##W, fract, float##W, float##W) OUT_AS(double##W, fract, double##W, double##W)
FRACT_AS() FRACT_AS(2) FRACT_AS(3) FRACT_AS(4) FRACT_AS(8) FRACT_AS(16)
