/* Common and geometric functions (OpenCL C 3.0 sections 6.15.4, 6.15.5). */
#include "builtins.h"

#define EACH_WIDTH(X, ...)                                                                         \
    X(__VA_ARGS__, ) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)
#define VEC_WIDTHS(X, ...) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)

/* ---- common functions, one body for scalars and vectors -------------------------------- */
#define COMMON(T, W)                                                                               \
    CONST_FN T##W clamp(T##W x, T##W lo, T##W hi)                                                  \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }                                                                                              \
    CONST_FN T##W degrees(T##W r) { return (T##W)(57.295779513082320876798154814105) * r; }        \
    CONST_FN T##W radians(T##W d) { return (T##W)(0.017453292519943295769236907684886) * d; }      \
    CONST_FN T##W max(T##W x, T##W y) { return __builtin_elementwise_max(x, y); }                  \
    CONST_FN T##W min(T##W x, T##W y) { return __builtin_elementwise_min(x, y); }                  \
    CONST_FN T##W mix(T##W x, T##W y, T##W a) { return x + (y - x) * a; }                          \
    CONST_FN T##W step(T##W edge, T##W x) { return x < edge ? (T##W)0 : (T##W)1; }                \
    CONST_FN T##W smoothstep(T##W e0, T##W e1, T##W x)                                             \
    {                                                                                              \
        T##W t = clamp((x - e0) / (e1 - e0), (T##W)0, (T##W)1);                                   \
        return t * t * ((T##W)3 - (T##W)2 * t);                                                    \
    }
#define COMMON_VS(T, W)                                                                            \
    CONST_FN T##W clamp(T##W x, T lo, T hi) { return clamp(x, (T##W)lo, (T##W)hi); }              \
    CONST_FN T##W max(T##W x, T y) { return max(x, (T##W)y); }                                     \
    CONST_FN T##W min(T##W x, T y) { return min(x, (T##W)y); }                                     \
    CONST_FN T##W mix(T##W x, T##W y, T a) { return mix(x, y, (T##W)a); }                          \
    CONST_FN T##W step(T edge, T##W x) { return step((T##W)edge, x); }                             \
    CONST_FN T##W smoothstep(T e0, T e1, T##W x) { return smoothstep((T##W)e0, (T##W)e1, x); }
EACH_WIDTH(COMMON, float)
EACH_WIDTH(COMMON, double)
VEC_WIDTHS(COMMON_VS, float)
VEC_WIDTHS(COMMON_VS, double)

CONST_FN float sign(float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : __builtin_isnan(x) ? 0.0f : x; }
CONST_FN double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : __builtin_isnan(x) ? 0.0 : x; }
VEC1(float, sign, float)
VEC1(double, sign, double)

/* ---- geometric functions (n = 1, 2, 3, 4) ------------------------------------------------ */
CONST_FN float dot(float a, float b) { return a * b; }
CONST_FN float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
CONST_FN float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CONST_FN float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
CONST_FN double dot(double a, double b) { return a * b; }
CONST_FN double dot(double2 a, double2 b) { return a.x * b.x + a.y * b.y; }
CONST_FN double dot(double3 a, double3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CONST_FN double dot(double4 a, double4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

CONST_FN float3 cross(float3 a, float3 b) { return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
CONST_FN float4 cross(float4 a, float4 b) { return (float4)(cross(a.xyz, b.xyz), 0.0f); }
CONST_FN double3 cross(double3 a, double3 b) { return (double3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
CONST_FN double4 cross(double4 a, double4 b) { return (double4)(cross(a.xyz, b.xyz), 0.0); }

/* float: computed in double, where squares of floats neither overflow nor underflow */
#define FLOAT_GEOMETRIC(W)                                                                         \
    CONST_FN float length(float##W p) { return (float)__builtin_sqrt(dot(convert_double##W(p), convert_double##W(p))); } \
    CONST_FN float distance(float##W a, float##W b)                                                \
    {                                                                                              \
        double##W d = convert_double##W(a) - convert_double##W(b); /* a - b in float may overflow */ \
        return (float)__builtin_sqrt(dot(d, d));                                                   \
    }                                                                                              \
    CONST_FN float##W normalize(float##W p)                                                        \
    {                                                                                              \
        double##W v = convert_double##W(p);                                                        \
        double##W inf = __builtin_elementwise_abs(v) == (double##W)INFINITY ? (double##W)1.0 : (double##W)0.0; \
        if (dot(inf, inf) > 0) /* infinities: their signs; 0 * v keeps the others' NaNs */         \
            v = inf != 0 ? __builtin_elementwise_copysign(inf, v) : 0.0 * v;                       \
        double l2 = dot(v, v);                                                                     \
        if (l2 == 0)                                                                               \
            return p;                                                                              \
        return convert_float##W(v * (1.0 / __builtin_sqrt(l2)));                                   \
    }                                                                                              \
    /* as the spec defines it: sqrt of the sum of float squares, which may overflow or underflow */ \
    CONST_FN float fast_length(float##W p) { return __builtin_sqrtf(dot(p, p)); }                  \
    CONST_FN float fast_distance(float##W a, float##W b) { return fast_length(a - b); }            \
    CONST_FN float##W fast_normalize(float##W p)                                                   \
    {                                                                                              \
        /* a sum of squares below FLT_MIN has lost precision, one above FLT_MAX is inf: scale */   \
        /* by a power of two, exact (all |p| < 2^-63, or the largest in [2^63, 2^128)) */          \
        float d = dot(p, p);                                                                       \
        float##W q = p * (d < FLT_MIN ? 0x1p100f : d > FLT_MAX ? 0x1p-66f : 1.0f);                 \
        d = dot(q, q);                                                                             \
        return d == 0 ? p : q * (1.0f / __builtin_sqrtf(d));                                       \
    }
FLOAT_GEOMETRIC()
FLOAT_GEOMETRIC(2)
FLOAT_GEOMETRIC(3)
FLOAT_GEOMETRIC(4)

/* double: p is scaled by 2^k, a power of two (so exactly) that brings its largest magnitude m to
 * [1, 4): the squares neither overflow nor underflow. k comes from m's exponent bits; a denormal m
 * is first brought up by 2^600. (1 / m would overflow for a denormal m, and is not exact.) */
#define DOUBLE_SCALE(W)                                                                            \
    double pre = m < DBL_MIN ? 0x1p600 : 1.0;                                                      \
    long e = as_long(m * pre) >> 52; /* biased exponent, 1..2046 */                                \
    e = e > 2045 ? 2045 : e;         /* 2^(1023 - e) stays a normal number */                      \
    double##W s = p * pre * as_double((2046 - e) << 52);
#define DOUBLE_GEOMETRIC(W, MAXABS)                                                                \
    CONST_FN double length(double##W p)                                                            \
    {                                                                                              \
        double##W a = __builtin_elementwise_abs(p);                                                \
        double m = MAXABS;                                                                         \
        if (m == 0 || __builtin_isinf(m) || __builtin_isnan(m))                                    \
            return __builtin_isnan(dot(p, p)) ? __builtin_nan("") : m;                              \
        DOUBLE_SCALE(W)                                                                            \
        /* sqrt * 2^(e - 1023) is exact; * 2^-600 rounds once, for a denormal length */           \
        return __builtin_sqrt(dot(s, s)) * as_double(e << 52) * (m < DBL_MIN ? 0x1p-600 : 1.0);    \
    }                                                                                              \
    CONST_FN double distance(double##W a, double##W b) { return length(a - b); }                   \
    CONST_FN double##W normalize(double##W p)                                                      \
    {                                                                                              \
        double##W inf = __builtin_elementwise_abs(p) == (double##W)INFINITY ? (double##W)1.0 : (double##W)0.0; \
        if (dot(inf, inf) > 0) /* infinities: their signs; 0 * p keeps the others' NaNs */         \
            p = inf != 0 ? __builtin_elementwise_copysign(inf, p) : 0.0 * p;                       \
        double##W a = __builtin_elementwise_abs(p);                                                \
        double m = MAXABS; /* fmax: NaN only if all are */                                         \
        if (m == 0 || __builtin_isnan(m)) /* all zero: p; some NaN: all NaN */                     \
            return __builtin_isnan(dot(p, p)) ? (double##W)__builtin_nan("") : p;                  \
        DOUBLE_SCALE(W)                                                                            \
        return s / __builtin_sqrt(dot(s, s));                                                      \
    }
DOUBLE_GEOMETRIC(, a)
DOUBLE_GEOMETRIC(2, __builtin_fmax(a.x, a.y))
DOUBLE_GEOMETRIC(3, __builtin_fmax(__builtin_fmax(a.x, a.y), a.z))
DOUBLE_GEOMETRIC(4, __builtin_fmax(__builtin_fmax(a.x, a.y), __builtin_fmax(a.z, a.w)))
