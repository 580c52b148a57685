/* Integer functions (OpenCL C 3.0 section 6.15.3). */
#include "builtins.h"

/* ---- written once for scalars and vectors (T##W; U##W its unsigned twin) ------- */
/* (scalars go through a vector of 2: a scalar char or short would be promoted
 * to int and saturate at int's bounds) */
#define ADD_SUB_SAT(T, W)                                                                          \
    CONST_FN T##W add_sat(T##W x, T##W y) { return __builtin_elementwise_add_sat(x, y); }          \
    CONST_FN T##W sub_sat(T##W x, T##W y) { return __builtin_elementwise_sub_sat(x, y); }
#define ADD_SUB_SAT_SCALAR(T)                                                                      \
    CONST_FN T add_sat(T x, T y) { return __builtin_elementwise_add_sat((T##2)(x), (T##2)(y)).s0; } \
    CONST_FN T sub_sat(T x, T y) { return __builtin_elementwise_sub_sat((T##2)(x), (T##2)(y)).s0; }
#define ANY_INT(T, W)                                                                              \
    CONST_FN T##W hadd(T##W x, T##W y) { return (T##W)((x >> 1) + (y >> 1) + (x & y & (T##W)1)); } \
    CONST_FN T##W rhadd(T##W x, T##W y) { return (T##W)((x >> 1) + (y >> 1) + ((x | y) & (T##W)1)); } \
    CONST_FN T##W mad_hi(T##W a, T##W b, T##W c) { return mul_hi(a, b) + c; }
#define MIN_MAX(T, W)                                                                              \
    CONST_FN T##W max(T##W x, T##W y) { return __builtin_elementwise_max(x, y); }                  \
    CONST_FN T##W min(T##W x, T##W y) { return __builtin_elementwise_min(x, y); }                  \
    CONST_FN T##W clamp(T##W x, T##W lo, T##W hi)                                                  \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }
/* Scalar chars and shorts: the elementwise builtins would promote them to
 * int (a 32-bit min of extended bytes, which code widened across
 * work-items then runs at a quarter of the lanes a vector holds); a compare
 * and a select keep their width (llvm.umin.i8 and the like). */
#define SMALL_MIN_MAX(T)                                                                           \
    CONST_FN T max(T x, T y) { return x > y ? x : y; }                                             \
    CONST_FN T min(T x, T y) { return x < y ? x : y; }                                             \
    CONST_FN T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }

/* vector with scalar operands */
#define ANY_INT_VS(T, W)                                                                           \
    CONST_FN T##W max(T##W x, T y) { return __builtin_elementwise_max(x, (T##W)y); }               \
    CONST_FN T##W min(T##W x, T y) { return __builtin_elementwise_min(x, (T##W)y); }               \
    CONST_FN T##W clamp(T##W x, T lo, T hi)                                                        \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, (T##W)lo), (T##W)hi);        \
    }

#define SIGNED_INT(T, U, W)                                                                        \
    CONST_FN U##W abs(T##W x) { return as_##U##W((T##W)__builtin_elementwise_abs(x)); }                  \
    CONST_FN U##W abs_diff(T##W x, T##W y)                                                         \
    {                                                                                              \
        return x > y ? (U##W)(as_##U##W(x) - as_##U##W(y)) : (U##W)(as_##U##W(y) - as_##U##W(x)); \
    }
#define UNSIGNED_INT(U, W)                                                                         \
    CONST_FN U##W abs(U##W x) { return x; }                                                        \
    CONST_FN U##W abs_diff(U##W x, U##W y) { return x > y ? (U##W)(x - y) : (U##W)(y - x); }

#define EACH_WIDTH(X, ...)                                                                         \
    X(__VA_ARGS__, ) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)
#define VEC_WIDTHS(X, ...) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)

/* ---- scalar functions, made element-wise for vectors ------------------------------- */
#define BITS_char 8
#define BITS_short 16
#define BITS_int 32
#define BITS_long 64

/* T: signed type, U: unsigned, B: bits, UI: uint or ulong for the __builtin_clz family */
#define BIT_FUNCS(T, U, B)                                                                         \
    CONST_FN T clz(T x) { return clz(as_##U(x)); }                                                  \
    CONST_FN T ctz(T x) { return ctz(as_##U(x)); }                                                  \
    CONST_FN T popcount(T x) { return popcount(as_##U(x)); }                                        \
    CONST_FN U rotate(U v, U i)                                                                    \
    {                                                                                              \
        uint n = (uint)i & (B - 1);                                                                \
        return n ? (U)((v << n) | (v >> (B - n))) : v;                                             \
    }                                                                                              \
    CONST_FN T rotate(T v, T i) { return as_##T((U)rotate(as_##U(v), as_##U(i))); }

CONST_FN uchar clz(uchar x) { return x ? (uchar)(__builtin_clz((uint)x) - 24) : 8; }
CONST_FN ushort clz(ushort x) { return x ? (ushort)(__builtin_clz((uint)x) - 16) : 16; }
CONST_FN uint clz(uint x) { return x ? (uint)__builtin_clz(x) : 32; }
CONST_FN ulong clz(ulong x) { return x ? (ulong)__builtin_clzl(x) : 64; }
CONST_FN uchar ctz(uchar x) { return x ? (uchar)__builtin_ctz((uint)x) : 8; }
CONST_FN ushort ctz(ushort x) { return x ? (ushort)__builtin_ctz((uint)x) : 16; }
CONST_FN uint ctz(uint x) { return x ? (uint)__builtin_ctz(x) : 32; }
CONST_FN ulong ctz(ulong x) { return x ? (ulong)__builtin_ctzl(x) : 64; }
CONST_FN uchar popcount(uchar x) { return (uchar)__builtin_popcount((uint)x); }
CONST_FN ushort popcount(ushort x) { return (ushort)__builtin_popcount((uint)x); }
CONST_FN uint popcount(uint x) { return (uint)__builtin_popcount(x); }
CONST_FN ulong popcount(ulong x) { return (ulong)__builtin_popcountl(x); }
BIT_FUNCS(char, uchar, 8)
BIT_FUNCS(short, ushort, 16)
BIT_FUNCS(int, uint, 32)
BIT_FUNCS(long, ulong, 64)

/* mul_hi and mad_sat through a type twice as wide */
#define WIDE_FUNCS(T, WT, B, TMIN, TMAX)                                                           \
    CONST_FN T mul_hi(T a, T b) { return (T)(((WT)a * (WT)b) >> B); }                              \
    CONST_FN T mad_sat(T a, T b, T c)                                                              \
    {                                                                                              \
        WT r = (WT)a * (WT)b + (WT)c;                                                              \
        return r > (WT)TMAX ? TMAX : r < (WT)TMIN ? TMIN : (T)r;                                   \
    }
WIDE_FUNCS(char, short, 8, CHAR_MIN, CHAR_MAX)
WIDE_FUNCS(uchar, ushort, 8, 0, UCHAR_MAX)
WIDE_FUNCS(short, int, 16, SHRT_MIN, SHRT_MAX)
WIDE_FUNCS(ushort, uint, 16, 0, USHRT_MAX)
WIDE_FUNCS(int, long, 32, INT_MIN, INT_MAX)
WIDE_FUNCS(uint, ulong, 32, 0, UINT_MAX)

/* 64-bit: the high half of the 128-bit product from 32-bit pieces */
CONST_FN ulong mul_hi(ulong a, ulong b)
{
    ulong al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    ulong ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    ulong mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
CONST_FN long mul_hi(long a, long b)
{
    /* signed high half = unsigned high half - (a < 0 ? b : 0) - (b < 0 ? a : 0) */
    ulong h = mul_hi(as_ulong(a), as_ulong(b));
    h -= a < 0 ? as_ulong(b) : 0;
    h -= b < 0 ? as_ulong(a) : 0;
    return as_long(h);
}
CONST_FN ulong mad_sat(ulong a, ulong b, ulong c)
{
    if (mul_hi(a, b))
        return ULONG_MAX;
    return add_sat(a * b, c);
}
CONST_FN long mad_sat(long a, long b, long c)
{
    long hi = mul_hi(a, b);
    ulong lo = as_ulong(a) * as_ulong(b);
    ulong lo2 = lo + as_ulong(c);
    hi += (c < 0 ? -1 : 0) + (lo2 < lo ? 1 : 0);
    if (hi == (as_long(lo2) >> 63))
        return as_long(lo2);
    return hi < 0 ? LONG_MIN : LONG_MAX;
}

CONST_FN short upsample(char hi, uchar lo) { return (short)(((ushort)(uchar)hi << 8) | lo); }
CONST_FN ushort upsample(uchar hi, uchar lo) { return (ushort)(((ushort)hi << 8) | lo); }
CONST_FN int upsample(short hi, ushort lo) { return (int)(((uint)(ushort)hi << 16) | lo); }
CONST_FN uint upsample(ushort hi, ushort lo) { return ((uint)hi << 16) | lo; }
CONST_FN long upsample(int hi, uint lo) { return (long)(((ulong)(uint)hi << 32) | lo); }
CONST_FN ulong upsample(uint hi, uint lo) { return ((ulong)hi << 32) | lo; }

#define SCALAR_VECS(T)                                                                             \
    VEC1(T, clz, T) VEC1(T, ctz, T) VEC1(T, popcount, T) VEC2(T, rotate, T, T)                     \
    VEC2(T, mul_hi, T, T) VEC3(T, mad_sat, T, T, T)
SCALAR_VECS(char) SCALAR_VECS(uchar) SCALAR_VECS(short) SCALAR_VECS(ushort)
SCALAR_VECS(int) SCALAR_VECS(uint) SCALAR_VECS(long) SCALAR_VECS(ulong)
VEC2(short, upsample, char, uchar) VEC2(ushort, upsample, uchar, uchar)
VEC2(int, upsample, short, ushort) VEC2(uint, upsample, ushort, ushort)
VEC2(long, upsample, int, uint) VEC2(ulong, upsample, uint, uint)

/* ---- instantiation ---------------------------------------------------------------------- */
#define INT_PAIR(T, U, W) ANY_INT(T, W) ANY_INT(U, W) SIGNED_INT(T, U, W) UNSIGNED_INT(U, W)
#define SAT_PAIR(T, U, W) ADD_SUB_SAT(T, W) ADD_SUB_SAT(U, W)
VEC_WIDTHS(SAT_PAIR, char, uchar)
VEC_WIDTHS(SAT_PAIR, short, ushort)
VEC_WIDTHS(SAT_PAIR, int, uint)
VEC_WIDTHS(SAT_PAIR, long, ulong)
ADD_SUB_SAT_SCALAR(char) ADD_SUB_SAT_SCALAR(uchar) ADD_SUB_SAT_SCALAR(short) ADD_SUB_SAT_SCALAR(ushort)
ADD_SUB_SAT_SCALAR(int) ADD_SUB_SAT_SCALAR(uint) ADD_SUB_SAT_SCALAR(long) ADD_SUB_SAT_SCALAR(ulong)
#define INT_PAIR_VS(T, U, W) ANY_INT_VS(T, W) ANY_INT_VS(U, W)
EACH_WIDTH(INT_PAIR, char, uchar)
EACH_WIDTH(INT_PAIR, short, ushort)
EACH_WIDTH(INT_PAIR, int, uint)
EACH_WIDTH(INT_PAIR, long, ulong)
#define MIN_MAX_PAIR(T, U, W) MIN_MAX(T, W) MIN_MAX(U, W)
VEC_WIDTHS(MIN_MAX_PAIR, char, uchar)
VEC_WIDTHS(MIN_MAX_PAIR, short, ushort)
EACH_WIDTH(MIN_MAX_PAIR, int, uint)
EACH_WIDTH(MIN_MAX_PAIR, long, ulong)
SMALL_MIN_MAX(char) SMALL_MIN_MAX(uchar) SMALL_MIN_MAX(short) SMALL_MIN_MAX(ushort)
VEC_WIDTHS(INT_PAIR_VS, char, uchar)
VEC_WIDTHS(INT_PAIR_VS, short, ushort)
VEC_WIDTHS(INT_PAIR_VS, int, uint)
VEC_WIDTHS(INT_PAIR_VS, long, ulong)

/* 24-bit multiplies: the inputs are 24-bit by contract, so 32-bit arithmetic is exact */
#define MUL24(T, W)                                                                                \
    CONST_FN T##W mul24(T##W a, T##W b) { return a * b; }                                          \
    CONST_FN T##W mad24(T##W a, T##W b, T##W c) { return a * b + c; }
EACH_WIDTH(MUL24, int)
EACH_WIDTH(MUL24, uint)
