/* Math functions (OpenCL C 3.0 section 6.15.2) for float and double.
 * Most map to clang builtins, which become LLVM intrinsics or C library (libm)
 * calls; float versions of the *pi functions, rootn, pown and rsqrt compute in
 * double so they stay well inside the spec's error bounds. */
#include "builtins.h"

/* C library functions clang has no builtin for (asm labels avoid clashing
 * with the overloaded OpenCL names). */
float __attribute__((const)) libm_exp10f(float) __asm__("exp10f");
double __attribute__((const)) libm_exp10(double) __asm__("exp10");
float libm_lgammaf_r(float, __private int *) __asm__("lgammaf_r");
double libm_lgamma_r(double, __private int *) __asm__("lgamma_r");

#define PI_D 3.14159265358979323846

/* ---- functions that are one builtin ------------------------------------------- */
#define UNARY(T, S, NAME) CONST_FN T NAME(T x) { return __builtin_##NAME##S(x); }
#define BINARY(T, S, NAME) CONST_FN T NAME(T x, T y) { return __builtin_##NAME##S(x, y); }

#define SIMPLE_MATH(T, S)                                                                          \
    UNARY(T, S, acos) UNARY(T, S, acosh) UNARY(T, S, asin) UNARY(T, S, asinh) UNARY(T, S, atan)    \
    UNARY(T, S, atanh) UNARY(T, S, ceil) UNARY(T, S, cos) UNARY(T, S, cosh)      \
    UNARY(T, S, erf) UNARY(T, S, erfc) UNARY(T, S, exp) UNARY(T, S, exp2) UNARY(T, S, expm1)      \
    UNARY(T, S, fabs) UNARY(T, S, floor) UNARY(T, S, lgamma) UNARY(T, S, log) UNARY(T, S, log10)  \
    UNARY(T, S, log1p) UNARY(T, S, log2) UNARY(T, S, logb) UNARY(T, S, rint) UNARY(T, S, round)   \
    UNARY(T, S, sin) UNARY(T, S, sinh) UNARY(T, S, sqrt) UNARY(T, S, tan) UNARY(T, S, tanh)       \
    UNARY(T, S, tgamma) UNARY(T, S, trunc)                                                         \
    BINARY(T, S, atan2) BINARY(T, S, copysign) BINARY(T, S, fdim) BINARY(T, S, fmax)               \
    BINARY(T, S, fmin) BINARY(T, S, fmod) BINARY(T, S, hypot) BINARY(T, S, nextafter)              \
    BINARY(T, S, pow) BINARY(T, S, remainder)                                                      \
    CONST_FN T fma(T a, T b, T c) { return __builtin_fma##S(a, b, c); }                            \
    CONST_FN T mad(T a, T b, T c) { return a * b + c; }                                            \
    CONST_FN T ldexp(T x, int n) { return __builtin_ldexp##S(x, n); }                              \
    CONST_FN int ilogb(T x) { return __builtin_isnan(x) ? FP_ILOGBNAN : __builtin_ilogb##S(x); }   \
    CONST_FN T maxmag(T x, T y)                                                                    \
    {                                                                                              \
        T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y);                                    \
        return ax > ay ? x : ay > ax ? y : __builtin_fmax##S(x, y);                                \
    }                                                                                              \
    CONST_FN T minmag(T x, T y)                                                                    \
    {                                                                                              \
        T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y);                                    \
        return ax < ay ? x : ay < ax ? y : __builtin_fmin##S(x, y);                                \
    }                                                                                              \
    CONST_FN T powr(T x, T y)                                                                      \
    {                                                                                              \
        if (x < 0 || __builtin_isnan(x) || __builtin_isnan(y))                                     \
            return __builtin_nan##S("");                                                           \
        if (y == 0)                                                                                \
            return x == 0 || __builtin_isinf(x) ? __builtin_nan##S("") : (T)1;                     \
        if (x == 1)                                                                                \
            return __builtin_isinf(y) ? __builtin_nan##S("") : (T)1;                               \
        return __builtin_pow##S(__builtin_fabs##S(x), y);                                          \
    }                                                                                              \
    OVLD T fract(T x, __private T *ip)                                                             \
    {                                                                                              \
        T f = __builtin_floor##S(x);                                                               \
        *ip = f;                                                                                   \
        if (__builtin_isnan(x))                                                                    \
            return x;                                                                              \
        if (__builtin_isinf(x))                                                                    \
            return __builtin_copysign##S((T)0, x);                                                 \
        return __builtin_fmin##S(x - f, FRACT_MAX_##S);                                            \
    }                                                                                              \
    OVLD T frexp(T x, __private int *e) { return __builtin_frexp##S(x, e); }                       \
    OVLD T modf(T x, __private T *ip) { return __builtin_modf##S(x, ip); }                         \
    /* OpenCL wants 7 bits of the quotient; the C library promises 3.  The low  \
     * bits come from |x| mod 128|y| (exact), its quotient by |y| rounded as    \
     * remainder() rounds, checked exactly with an fma. */                     \
    OVLD T remquo(T x, T y, __private int *q)                                                      \
    {                                                                                              \
        T r = __builtin_remainder##S(x, y);                                                        \
        if (__builtin_isnan(r) || __builtin_isinf(x) || y == 0) {                                  \
            *q = 0;                                                                                \
            return r;                                                                              \
        }                                                                                          \
        T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y), span = ay * 128;                   \
        T m = __builtin_isinf(span) ? ax : __builtin_fmod##S(ax, span);                            \
        T rr = __builtin_remainder##S(m, ay);                                                      \
        T c = __builtin_rint##S(m / ay);                                                           \
        if (__builtin_fma##S(-c, ay, m) != rr)                                                     \
            c += __builtin_fma##S(-(c + 1), ay, m) == rr ? 1 : -1;                                 \
        int k = (int)c & 127;                                                                      \
        *q = __builtin_signbit(x) != __builtin_signbit(y) ? -k : k;                                \
        return r;                                                                                  \
    }                                                                                              \
    OVLD T sincos(T x, __private T *c)                                                             \
    {                                                                                              \
        *c = __builtin_cos##S(x);                                                                  \
        return __builtin_sin##S(x);                                                                \
    }                                                                                              \
    /* sinpi/cospi: reduce exactly into [0, 1] before multiplying by pi */                         \
    CONST_FN T sinpi(T x)                                                                          \
    {                                                                                              \
        if (__builtin_isinf(x) || __builtin_isnan(x))                                              \
            return __builtin_nan##S("");                                                           \
        T y = __builtin_fmod##S(__builtin_fabs##S(x), (T)2);                                       \
        int neg = x < 0;                                                                           \
        if (y >= 1) {                                                                              \
            y -= 1;                                                                                \
            neg = !neg;                                                                            \
        }                                                                                          \
        if (y > (T)0.5)                                                                            \
            y = 1 - y;                                                                             \
        T r = y <= (T)0.25 ? SINPI_SMALL_##S(y) : COSPI_SMALL_##S((T)0.5 - y);                      \
        if (r == 0) /* integers: a zero with the sign of x */                                      \
            return __builtin_copysign##S((T)0, x);                                                 \
        return neg ? -r : r;                                                                       \
    }                                                                                              \
    CONST_FN T cospi(T x)                                                                          \
    {                                                                                              \
        if (__builtin_isinf(x) || __builtin_isnan(x))                                              \
            return __builtin_nan##S("");                                                           \
        T y = __builtin_fmod##S(__builtin_fabs##S(x), (T)2);                                       \
        if (y > 1)                                                                                 \
            y = 2 - y;                                                                             \
        if (y <= (T)0.25)                                                                          \
            return COSPI_SMALL_##S(y);                                                             \
        if (y <= (T)0.75)                                                                          \
            return SINPI_SMALL_##S((T)0.5 - y);                                                    \
        return -COSPI_SMALL_##S(1 - y);                                                            \
    }                                                                                              \
    CONST_FN T tanpi(T x)                                                                          \
    {                                                                                              \
        if (__builtin_isinf(x) || __builtin_isnan(x))                                              \
            return __builtin_nan##S("");                                                           \
        T y = __builtin_fmod##S(x, (T)1); /* tan has period pi, sign of x kept */                  \
        if (__builtin_fabs##S(y) == (T)0.5) /* +inf after an even n, -inf after an odd one */      \
            return __builtin_fmod##S(__builtin_floor##S(x), (T)2) == 0 ? __builtin_inf##S()        \
                                                                       : -__builtin_inf##S();      \
        if (y == 0)                                                                                \
            return __builtin_copysign##S((T)0, x) *                                                \
                   (__builtin_fmod##S(__builtin_fabs##S(x), (T)2) == 1 ? -1 : 1);                  \
        return sinpi(y) / cospi(y);                                                                \
    }

#define FRACT_MAX_f 0x1.fffffep-1f
#define FRACT_MAX_ 0x1.fffffffffffffp-1
#define SINPI_SMALL_f(y) ((float)__builtin_sin(PI_D * (double)(y)))
#define COSPI_SMALL_f(y) ((float)__builtin_cos(PI_D * (double)(y)))
#define SINPI_SMALL_(y) __builtin_sin(PI_D * (y))
#define COSPI_SMALL_(y) __builtin_cos(PI_D * (y))

SIMPLE_MATH(float, f)
SIMPLE_MATH(double, )

/* ---- float, computed in double ---------------------------------------------------- */
CONST_FN float acospi(float x) { return (float)(__builtin_acos((double)x) / PI_D); }
CONST_FN float asinpi(float x) { return (float)(__builtin_asin((double)x) / PI_D); }
CONST_FN float atanpi(float x) { return (float)(__builtin_atan((double)x) / PI_D); }
CONST_FN float atan2pi(float y, float x) { return (float)(__builtin_atan2((double)y, (double)x) / PI_D); }
CONST_FN float rsqrt(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
CONST_FN float exp10(float x) { return libm_exp10f(x); }
CONST_FN float pown(float x, int n) { return (float)__builtin_pow((double)x, (double)n); }
CONST_FN float rootn(float x, int n)
{
    if (n == 0)
        return __builtin_nanf("");
    if (x < 0 && (n & 1) == 0)
        return __builtin_nanf("");
    double r = __builtin_pow(__builtin_fabs((double)x), 1.0 / n);
    return (float)((n & 1) ? __builtin_copysign(r, (double)x) : r); /* even roots are never negative, even of -0 */
}
CONST_FN float cbrt(float x) { return __builtin_cbrtf(x); } /* through double: vecmath.c */
CONST_FN float nan(uint code) { return as_float(0x7fc00000u | (code & 0x003fffffu)); }
OVLD float lgamma_r(float x, __private int *sign) { return libm_lgammaf_r(x, sign); }

/* ---- double ----------------------------------------------------------------------- */
CONST_FN double acospi(double x) { return __builtin_acos(x) / PI_D; }
CONST_FN double asinpi(double x) { return __builtin_asin(x) / PI_D; }
CONST_FN double atanpi(double x) { return __builtin_atan(x) / PI_D; }
CONST_FN double atan2pi(double y, double x) { return __builtin_atan2(y, x) / PI_D; }
CONST_FN double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
CONST_FN double exp10(double x) { return libm_exp10(x); }
CONST_FN double pown(double x, int n) { return __builtin_pow(x, (double)n); }
/* double rootn and cbrt are in roots.cl; declared here for the vector variants below */
CONST_FN double rootn(double x, int n);
CONST_FN double cbrt(double x);
CONST_FN double nan(ulong code) { return as_double(0x7ff8000000000000ul | (code & 0x0007fffffffffffful)); }
OVLD double lgamma_r(double x, __private int *sign) { return libm_lgamma_r(x, sign); }

/* ---- half_ and native_ (float only): the full-precision functions ---------------- */
#define SAME1(P, NAME) CONST_FN float P##_##NAME(float x) { return NAME(x); } VEC1(float, P##_##NAME, float)
#define SAME2(P, NAME, EXPR) CONST_FN float P##_##NAME(float x, float y) { return EXPR; } VEC2(float, P##_##NAME, float, float)
#define HALF_NATIVE(P)                                                                             \
    SAME1(P, cos) SAME1(P, exp) SAME1(P, exp2) SAME1(P, exp10) SAME1(P, log) SAME1(P, log2)        \
    SAME1(P, log10) SAME1(P, rsqrt) SAME1(P, sin) SAME1(P, sqrt) SAME1(P, tan)                     \
    CONST_FN float P##_recip(float x) { return 1.0f / x; }                                         \
    VEC1(float, P##_recip, float)                                                                  \
    SAME2(P, divide, x / y) SAME2(P, powr, powr(x, y))
HALF_NATIVE(half)
HALF_NATIVE(native)

/* ---- vector variants ----------------------------------------------------------------- */
#define VEC_MATH(T, I, U)                                                                          \
    VEC1(T, acos, T) VEC1(T, acosh, T) VEC1(T, acospi, T) VEC1(T, asin, T) VEC1(T, asinh, T)       \
    VEC1(T, asinpi, T) VEC1(T, atan, T) VEC1(T, atanh, T) VEC1(T, atanpi, T) VEC1(T, cbrt, T)      \
    VEC1(T, ceil, T) VEC1(T, cos, T) VEC1(T, cosh, T) VEC1(T, cospi, T) VEC1(T, erf, T)            \
    VEC1(T, erfc, T) VEC1(T, exp, T) VEC1(T, exp2, T) VEC1(T, exp10, T) VEC1(T, expm1, T)          \
    VEC1(T, fabs, T) VEC1(T, floor, T) VEC1(T, lgamma, T) VEC1(T, log, T) VEC1(T, log10, T)        \
    VEC1(T, log1p, T) VEC1(T, log2, T) VEC1(T, logb, T) VEC1(T, rint, T) VEC1(T, round, T)         \
    VEC1(T, rsqrt, T) VEC1(T, sin, T) VEC1(T, sinh, T) VEC1(T, sinpi, T) VEC1(T, sqrt, T)          \
    VEC1(T, tan, T) VEC1(T, tanh, T) VEC1(T, tanpi, T) VEC1(T, tgamma, T) VEC1(T, trunc, T)        \
    VEC1(int, ilogb, T) VEC1(T, nan, U)                                                            \
    VEC2(T, atan2, T, T) VEC2(T, atan2pi, T, T) VEC2(T, copysign, T, T) VEC2(T, fdim, T, T)        \
    VEC2(T, fmax, T, T) VEC2(T, fmin, T, T) VEC2(T, fmod, T, T) VEC2(T, hypot, T, T)               \
    VEC2(T, maxmag, T, T) VEC2(T, minmag, T, T) VEC2(T, nextafter, T, T) VEC2(T, pow, T, T)        \
    VEC2(T, powr, T, T) VEC2(T, remainder, T, T) VEC2S(T, fmax, T, T) VEC2S(T, fmin, T, T)         \
    VEC2(T, ldexp, T, int) VEC2S(T, ldexp, T, int) VEC2(T, pown, T, int) VEC2(T, rootn, T, int)    \
    VEC3(T, fma, T, T, T) VEC3(T, mad, T, T, T)                                                    \
    VEC_OUT(T, fract, T, T, __private) VEC_OUT(T, frexp, T, int, __private)                        \
    VEC_OUT(T, lgamma_r, T, int, __private) VEC_OUT(T, modf, T, T, __private)                      \
    VEC_OUT(T, sincos, T, T, __private) VEC_OUT2(T, remquo, T, T, int, __private)

VEC_MATH(float, int, uint)
VEC_MATH(double, int, ulong)

/* ---- output pointers in the other address spaces --------------------------------------- */
#define OUT_ALL(T, W)                                                                              \
    OUT_AS(T##W, fract, T##W, T##W) OUT_AS(T##W, frexp, T##W, int##W)                              \
    OUT_AS(T##W, lgamma_r, T##W, int##W) OUT_AS(T##W, modf, T##W, T##W)                            \
    OUT_AS(T##W, sincos, T##W, T##W) OUT2_AS(T##W, remquo, T##W, T##W, int##W)
#define OUT_ALL_WIDTHS(T) OUT_ALL(T, ) OUT_ALL(T, 2) OUT_ALL(T, 3) OUT_ALL(T, 4) OUT_ALL(T, 8) OUT_ALL(T, 16)
OUT_ALL_WIDTHS(float)
OUT_ALL_WIDTHS(double)
