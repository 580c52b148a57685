/* half precision (cl_khr_fp16, __opencl_c_fp16): the math, common,
 * geometric and relational functions for half and its vectors (OpenCL C 3.0
 * sections 6.15.2 to 6.15.6; docs/half.md).
 *
 * Most compute in float and round once to half: a float result within a few
 * float ulps is within 0.5 + 2^-12 half ulps, far inside the half limits
 * (2 to 4 ulps), and the functions OpenCL wants correctly rounded (ceil,
 * sqrt, fdim, ldexp, ...) are exact in float or correctly rounded there, and
 * float's 24 bits (at least 2 * 11 + 2) make a correctly rounded float result
 * round to the correctly rounded half.  The exceptions are written here:
 * fma (a float sum would round twice), fract (its clamp below 1 is half's),
 * nextafter (half's own steps). */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define EACH_WIDTH(X) X() X(2) X(3) X(4) X(8) X(16)
#define VEC_WIDTHS(X) X(2) X(3) X(4) X(8) X(16)

/* Widening is exact; narrowing rounds to nearest even (vcvtph2ps and
 * vcvtps2ph where the CPU has F16C). */
#define TOH_(x) ((half)(x))
#define TOH_2(x) __builtin_convertvector((x), half2)
#define TOH_3(x) __builtin_convertvector((x), half3)
#define TOH_4(x) __builtin_convertvector((x), half4)
#define TOH_8(x) __builtin_convertvector((x), half8)
#define TOH_16(x) __builtin_convertvector((x), half16)
/* scalars compare to int, vectors of half to vectors of short */
#define HINT_ int
#define HINT_2 short2
#define HINT_3 short3
#define HINT_4 short4
#define HINT_8 short8
#define HINT_16 short16

/* ---- math: through the float function of the same name -------------------------------- */
/* (Defining a half overload hides clang's own declarations of the name, so
 * the float ones this file calls are declared again.) */
#define VIA_FLOAT1(NAME, W)                                                                        \
    CONST_FN float##W NAME(float##W x);                                                            \
    CONST_FN half##W NAME(half##W x) { return TOH_##W(NAME(TOF_##W(x))); }
#define VIA_FLOAT2(NAME, W)                                                                        \
    CONST_FN float##W NAME(float##W x, float##W y);                                                \
    CONST_FN half##W NAME(half##W x, half##W y) { return TOH_##W(NAME(TOF_##W(x), TOF_##W(y))); }
#define FLOAT_DECLS(W)                                                                             \
    CONST_FN int##W ilogb(float##W x);                                                             \
    CONST_FN float##W ldexp(float##W x, int##W n);                                                 \
    CONST_FN float##W pown(float##W x, int##W n);                                                  \
    CONST_FN float##W rootn(float##W x, int##W n);                                                 \
    OVLD float##W fract(float##W x, __private float##W *ip);                                       \
    OVLD float##W frexp(float##W x, __private int##W *e);                                          \
    OVLD float##W lgamma_r(float##W x, __private int##W *s);                                       \
    OVLD float##W modf(float##W x, __private float##W *ip);                                        \
    OVLD float##W sincos(float##W x, __private float##W *c);                                       \
    OVLD float##W remquo(float##W x, float##W y, __private int##W *q);                             \
    CONST_FN float##W mix(float##W x, float##W y, float##W a);                                     \
    CONST_FN float##W smoothstep(float##W e0, float##W e1, float##W x);
EACH_WIDTH(FLOAT_DECLS)
#define GEOMETRIC_DECLS(W)                                                                         \
    CONST_FN float dot(float##W a, float##W b);                                                    \
    CONST_FN float length(float##W p);                                                             \
    CONST_FN float distance(float##W a, float##W b);                                               \
    CONST_FN float##W normalize(float##W p);
GEOMETRIC_DECLS() GEOMETRIC_DECLS(2) GEOMETRIC_DECLS(3) GEOMETRIC_DECLS(4)
CONST_FN float3 cross(float3 a, float3 b);
CONST_FN float4 cross(float4 a, float4 b);

#define UNARY_MATH(W)                                                                              \
    VIA_FLOAT1(acos, W) VIA_FLOAT1(acosh, W) VIA_FLOAT1(acospi, W) VIA_FLOAT1(asin, W)             \
    VIA_FLOAT1(asinh, W) VIA_FLOAT1(asinpi, W) VIA_FLOAT1(atan, W) VIA_FLOAT1(atanh, W)            \
    VIA_FLOAT1(atanpi, W) VIA_FLOAT1(cbrt, W) VIA_FLOAT1(ceil, W) VIA_FLOAT1(cos, W)               \
    VIA_FLOAT1(cosh, W) VIA_FLOAT1(cospi, W) VIA_FLOAT1(erf, W) VIA_FLOAT1(erfc, W)                \
    VIA_FLOAT1(exp, W) VIA_FLOAT1(exp2, W) VIA_FLOAT1(exp10, W) VIA_FLOAT1(expm1, W)               \
    VIA_FLOAT1(floor, W) VIA_FLOAT1(lgamma, W) VIA_FLOAT1(log, W) VIA_FLOAT1(log10, W)             \
    VIA_FLOAT1(log1p, W) VIA_FLOAT1(log2, W) VIA_FLOAT1(logb, W) VIA_FLOAT1(rint, W)               \
    VIA_FLOAT1(round, W) VIA_FLOAT1(rsqrt, W) VIA_FLOAT1(sin, W) VIA_FLOAT1(sinh, W)               \
    VIA_FLOAT1(sinpi, W) VIA_FLOAT1(sqrt, W) VIA_FLOAT1(tan, W) VIA_FLOAT1(tanh, W)                \
    VIA_FLOAT1(tanpi, W) VIA_FLOAT1(tgamma, W) VIA_FLOAT1(trunc, W)                                \
    CONST_FN half##W fabs(half##W x) { return __builtin_elementwise_abs(x); }                      \
    CONST_FN int##W ilogb(half##W x) { return ilogb(TOF_##W(x)); }
#define BINARY_MATH(W)                                                                             \
    VIA_FLOAT2(atan2, W) VIA_FLOAT2(atan2pi, W) VIA_FLOAT2(fdim, W) VIA_FLOAT2(fmax, W)            \
    VIA_FLOAT2(fmin, W) VIA_FLOAT2(fmod, W) VIA_FLOAT2(hypot, W) VIA_FLOAT2(maxmag, W)             \
    VIA_FLOAT2(minmag, W) VIA_FLOAT2(pow, W) VIA_FLOAT2(powr, W) VIA_FLOAT2(remainder, W)          \
    CONST_FN half##W copysign(half##W x, half##W y) { return __builtin_elementwise_copysign(x, y); } \
    CONST_FN half##W ldexp(half##W x, int##W n) { return TOH_##W(ldexp(TOF_##W(x), n)); }          \
    CONST_FN half##W pown(half##W x, int##W n) { return TOH_##W(pown(TOF_##W(x), n)); }            \
    CONST_FN half##W rootn(half##W x, int##W n) { return TOH_##W(rootn(TOF_##W(x), n)); }          \
    /* mad: the product is exact in float, so one rounding of the sum short of fma */              \
    CONST_FN half##W mad(half##W a, half##W b, half##W c)                                          \
    {                                                                                              \
        return TOH_##W(TOF_##W(a) * TOF_##W(b) + TOF_##W(c));                                      \
    }
EACH_WIDTH(UNARY_MATH)
EACH_WIDTH(BINARY_MATH)

#define SCALAR_OPERAND(W)                                                                          \
    CONST_FN half##W fmax(half##W x, half y) { return fmax(x, (half##W)y); }                       \
    CONST_FN half##W fmin(half##W x, half y) { return fmin(x, (half##W)y); }                       \
    CONST_FN half##W ldexp(half##W x, int n) { return ldexp(x, (int##W)n); }
VEC_WIDTHS(SCALAR_OPERAND)

/* fma, correctly rounded: a * b is exact in double, and the sum rounded to
 * odd there (the error of the sum, from Knuth's two-sum, says which way)
 * then rounds correctly to half (53 bits >= 11 + 2). */
static half __mosaic_double_to_half(double d);
CONST_FN half fma(half a, half b, half c)
{
    double p = (double)a * (double)b, q = (double)c, s = p + q;
    double bp = s - q, err = (p - bp) + (q - (s - bp));
    if (err != 0 && __builtin_isfinite(s) && !(as_ulong(s) & 1))
        s = as_double(as_ulong(s) + ((err > 0) == (s > 0) ? 1 : -1));
    return __mosaic_double_to_half(s);
}
VEC3(half, fma, half, half, half)

/* double -> half rounded to nearest even, without rounding twice: to float
 * rounded to odd (24 bits >= 11 + 2), then to half. */
static half __mosaic_double_to_half(double d)
{
    float f = (float)d;
    if ((double)f != d && f == f && !(as_uint(f) & 1))
        f = as_float(as_uint(f) + (__builtin_fabs((double)f) < __builtin_fabs(d) ? 1 : -1));
    return (half)f;
}

/* one half step from x toward y, on the bits (sign and magnitude) */
CONST_FN half nextafter(half x, half y)
{
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    if (x == 0)
        return as_half((ushort)((as_ushort(y) & 0x8000) | 1));
    return as_half((ushort)(as_ushort(x) + ((x < y) == (x > 0) ? 1 : -1)));
}
VEC2(half, nextafter, half, half)

CONST_FN half nan(ushort code) { return as_half((ushort)(0x7e00 | (code & 0x01ff))); }
VEC1(half, nan, ushort)

/* ---- math with output pointers ----------------------------------------------------------- */
#define OUT_MATH(W)                                                                                \
    OVLD half##W fract(half##W x, __private half##W *ip)                                           \
    {                                                                                              \
        float##W i, f = fract(TOF_##W(x), &i);                                                     \
        *ip = TOH_##W(i);                                                                          \
        /* below 1 in half: float's 1 - 2^-24 would round up to 1 (a NaN stays) */                 \
        return TOH_##W(f > 0x1.ffcp-1f ? (float##W)0x1.ffcp-1f : f);                               \
    }                                                                                              \
    OVLD half##W frexp(half##W x, __private int##W *e) { return TOH_##W(frexp(TOF_##W(x), e)); }   \
    OVLD half##W lgamma_r(half##W x, __private int##W *s) { return TOH_##W(lgamma_r(TOF_##W(x), s)); } \
    OVLD half##W modf(half##W x, __private half##W *ip)                                            \
    {                                                                                              \
        float##W i, f = modf(TOF_##W(x), &i);                                                      \
        *ip = TOH_##W(i);                                                                          \
        return TOH_##W(f);                                                                         \
    }                                                                                              \
    OVLD half##W sincos(half##W x, __private half##W *c)                                           \
    {                                                                                              \
        float##W fc, s = sincos(TOF_##W(x), &fc);                                                  \
        *c = TOH_##W(fc);                                                                          \
        return TOH_##W(s);                                                                         \
    }                                                                                              \
    OVLD half##W remquo(half##W x, half##W y, __private int##W *q)                                 \
    {                                                                                              \
        return TOH_##W(remquo(TOF_##W(x), TOF_##W(y), q));                                         \
    }                                                                                              \
    OUT_AS(half##W, fract, half##W, half##W) OUT_AS(half##W, frexp, half##W, int##W)              \
    OUT_AS(half##W, lgamma_r, half##W, int##W) OUT_AS(half##W, modf, half##W, half##W)            \
    OUT_AS(half##W, sincos, half##W, half##W) OUT2_AS(half##W, remquo, half##W, half##W, int##W)
EACH_WIDTH(OUT_MATH)

/* ---- common functions ------------------------------------------------------------------- */
#define COMMON(W)                                                                                  \
    CONST_FN half##W clamp(half##W x, half##W lo, half##W hi)                                      \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }                                                                                              \
    CONST_FN half##W degrees(half##W r) { return TOH_##W(57.295779513082320876798154814105f * TOF_##W(r)); } \
    CONST_FN half##W radians(half##W d) { return TOH_##W(0.017453292519943295769236907684886f * TOF_##W(d)); } \
    CONST_FN half##W max(half##W x, half##W y) { return __builtin_elementwise_max(x, y); }         \
    CONST_FN half##W min(half##W x, half##W y) { return __builtin_elementwise_min(x, y); }         \
    CONST_FN half##W mix(half##W x, half##W y, half##W a)                                          \
    {                                                                                              \
        return TOH_##W(mix(TOF_##W(x), TOF_##W(y), TOF_##W(a)));                                   \
    }                                                                                              \
    CONST_FN half##W step(half##W edge, half##W x) { return x < edge ? (half##W)0 : (half##W)1; }  \
    CONST_FN half##W smoothstep(half##W e0, half##W e1, half##W x)                                 \
    {                                                                                              \
        return TOH_##W(smoothstep(TOF_##W(e0), TOF_##W(e1), TOF_##W(x)));                          \
    }
#define COMMON_VS(W)                                                                               \
    CONST_FN half##W clamp(half##W x, half lo, half hi) { return clamp(x, (half##W)lo, (half##W)hi); } \
    CONST_FN half##W max(half##W x, half y) { return max(x, (half##W)y); }                         \
    CONST_FN half##W min(half##W x, half y) { return min(x, (half##W)y); }                         \
    CONST_FN half##W mix(half##W x, half##W y, half a) { return mix(x, y, (half##W)a); }           \
    CONST_FN half##W step(half edge, half##W x) { return step((half##W)edge, x); }                 \
    CONST_FN half##W smoothstep(half e0, half e1, half##W x) { return smoothstep((half##W)e0, (half##W)e1, x); }
EACH_WIDTH(COMMON)
VEC_WIDTHS(COMMON_VS)

CONST_FN half sign(half x) { return x > 0 ? (half)1 : x < 0 ? (half)-1 : x != x ? (half)0 : x; }
VEC1(half, sign, half)

/* ---- geometric functions (n = 1, 2, 3, 4), in float ------------------------------------- */
#define GEOMETRIC(W)                                                                               \
    CONST_FN half dot(half##W a, half##W b) { return TOH_(dot(TOF_##W(a), TOF_##W(b))); }          \
    CONST_FN half length(half##W p) { return TOH_(length(TOF_##W(p))); }                           \
    CONST_FN half distance(half##W a, half##W b) { return TOH_(distance(TOF_##W(a), TOF_##W(b))); } \
    CONST_FN half##W normalize(half##W p) { return TOH_##W(normalize(TOF_##W(p))); }
GEOMETRIC()
GEOMETRIC(2)
GEOMETRIC(3)
GEOMETRIC(4)
CONST_FN half3 cross(half3 a, half3 b) { return TOH_3(cross(TOF_3(a), TOF_3(b))); }
CONST_FN half4 cross(half4 a, half4 b) { return TOH_4(cross(TOF_4(a), TOF_4(b))); }

/* ---- relational functions: scalars answer 1 or 0, vectors -1 or 0 (short lanes) -------- */
#define COMPARE(W)                                                                                 \
    CONST_FN HINT_##W isequal(half##W x, half##W y) { return x == y; }                             \
    CONST_FN HINT_##W isnotequal(half##W x, half##W y) { return x != y; }                          \
    CONST_FN HINT_##W isgreater(half##W x, half##W y) { return x > y; }                            \
    CONST_FN HINT_##W isgreaterequal(half##W x, half##W y) { return x >= y; }                      \
    CONST_FN HINT_##W isless(half##W x, half##W y) { return x < y; }                               \
    CONST_FN HINT_##W islessequal(half##W x, half##W y) { return x <= y; }                         \
    CONST_FN HINT_##W islessgreater(half##W x, half##W y) { return x < y || x > y; }               \
    CONST_FN HINT_##W isordered(half##W x, half##W y) { return x == x && y == y; }                 \
    CONST_FN HINT_##W isunordered(half##W x, half##W y) { return x != x || y != y; }               \
    CONST_FN HINT_##W isnan(half##W x) { return x != x; }                                          \
    CONST_FN HINT_##W isfinite(half##W x) { return __builtin_elementwise_abs(x) < (half##W)INFINITY; } \
    CONST_FN HINT_##W isinf(half##W x) { return __builtin_elementwise_abs(x) == (half##W)INFINITY; } \
    CONST_FN HINT_##W isnormal(half##W x)                                                          \
    {                                                                                              \
        half##W a = __builtin_elementwise_abs(x);                                                  \
        return a >= (half##W)0x1p-14f && a < (half##W)INFINITY;                                    \
    }                                                                                              \
    CONST_FN HINT_##W signbit(half##W x) { return as_short##W(x) < (short##W)0; }                  \
    CONST_FN half##W bitselect(half##W a, half##W b, half##W c)                                    \
    {                                                                                              \
        return as_half##W((short##W)((as_short##W(a) & ~as_short##W(c)) | (as_short##W(b) & as_short##W(c)))); \
    }
EACH_WIDTH(COMPARE)

CONST_FN half select(half a, half b, short c) { return c ? b : a; }
CONST_FN half select(half a, half b, ushort c) { return c ? b : a; }
#define SELECT(W)                                                                                  \
    CONST_FN half##W select(half##W a, half##W b, short##W c) { return c < (short##W)0 ? b : a; }  \
    CONST_FN half##W select(half##W a, half##W b, ushort##W c) { return as_short##W(c) < (short##W)0 ? b : a; }
VEC_WIDTHS(SELECT)
