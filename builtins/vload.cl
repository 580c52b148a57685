/* vload / vstore and their half variants (OpenCL C 3.0 section 6.15.11). */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define EACH_TYPE(X, ...)                                                                          \
    X(char, __VA_ARGS__) X(uchar, __VA_ARGS__) X(short, __VA_ARGS__) X(ushort, __VA_ARGS__)        \
    X(int, __VA_ARGS__) X(uint, __VA_ARGS__) X(long, __VA_ARGS__) X(ulong, __VA_ARGS__)            \
    X(float, __VA_ARGS__) X(double, __VA_ARGS__) X(half, __VA_ARGS__)

#include "vload.h"

EACH_TYPE(UNALIGNED, )

EACH_TYPE(VLOAD, __global)
EACH_TYPE(VLOAD, __local)
EACH_TYPE(VLOAD, __private)
EACH_TYPE(VLOAD, )
EACH_TYPE(VLOAD_CONSTANT, __constant)

/* ---- half <-> float / double, in software (every rounding mode) -------------------- */
static float half_bits_to_float(ushort h)
{
    uint sign = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0)
        return as_float(sign | as_uint((float)m * 0x1p-24f));
    if (e == 31)
        return as_float(sign | 0x7f800000u | (m << 13));
    return as_float(sign | ((e + 112) << 23) | (m << 13));
}

/* mode: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf */
static int round_up(int mode, int negative, int above_half, int half_exactly, int odd, int inexact)
{
    switch (mode) {
    case 0: return above_half || (half_exactly && odd);
    case 2: return inexact && !negative;
    case 3: return inexact && negative;
    default: return 0;
    }
}

static ushort overflow_half(int mode, int negative)
{
    int to_inf = mode == 0 || (mode == 2 && !negative) || (mode == 3 && negative);
    return to_inf ? 0x7c00 : 0x7bff;
}

static ushort float_to_half_bits(float f, int mode)
{
    uint x = as_uint(f), sign = (x >> 16) & 0x8000, ax = x & 0x7fffffffu;
    int neg = sign != 0;
    if (ax > 0x7f800000u)
        return (ushort)(sign | 0x7e00 | ((ax >> 13) & 0x3ff));
    if (ax == 0x7f800000u)
        return (ushort)(sign | 0x7c00);
    int e = (int)(ax >> 23) - 127;
    if (e >= 16)
        return (ushort)(sign | overflow_half(mode, neg));
    uint h;
    if (e >= -14) {
        uint m = (ax & 0x7fffffu) | 0x800000u, q = m >> 13, rem = m & 0x1fffu;
        h = ((uint)(e + 15) << 10) | (q & 0x3ff);
        h += round_up(mode, neg, rem > 0x1000u, rem == 0x1000u, q & 1, rem != 0);
        if (h >= 0x7c00)
            return (ushort)(sign | overflow_half(mode, neg));
    } else {
        float s = as_float(ax) * 0x1p24f; /* exact: units of the smallest subnormal half */
        uint q = (uint)s;
        float frac = s - (float)q;
        h = q + round_up(mode, neg, frac > 0.5f, frac == 0.5f, q & 1, frac != 0);
    }
    return (ushort)(sign | h);
}

static ushort double_to_half_bits(double d, int mode)
{
    ulong x = as_ulong(d), ax = x & 0x7ffffffffffffffful;
    uint sign = (uint)(x >> 48) & 0x8000;
    int neg = sign != 0;
    if (ax > 0x7ff0000000000000ul)
        return (ushort)(sign | 0x7e00 | (uint)((ax >> 42) & 0x3ff));
    if (ax == 0x7ff0000000000000ul)
        return (ushort)(sign | 0x7c00);
    int e = (int)(ax >> 52) - 1023;
    if (e >= 16)
        return (ushort)(sign | overflow_half(mode, neg));
    uint h;
    if (e >= -14) {
        ulong m = (ax & 0xffffffffffffful) | 0x10000000000000ul, rem = m & 0x3fffffffffful;
        uint q = (uint)(m >> 42);
        h = ((uint)(e + 15) << 10) | (q & 0x3ff);
        h += round_up(mode, neg, rem > 0x20000000000ul, rem == 0x20000000000ul, q & 1, rem != 0);
        if (h >= 0x7c00)
            return (ushort)(sign | overflow_half(mode, neg));
    } else {
        double s = as_double(ax) * 0x1p24;
        uint q = (uint)s;
        double frac = s - (double)q;
        h = q + round_up(mode, neg, frac > 0.5, frac == 0.5, q & 1, frac != 0);
    }
    return (ushort)(sign | h);
}

/* ---- vload_half / vloada_half ----------------------------------------------------------- */
#define VLOAD_HALF(AS)                                                                             \
    OVLD float vload_half(size_t i, const AS half *p) { return half_bits_to_float(((const AS ushort *)p)[i]); } \
    OVLD float2 vload_half2(size_t i, const AS half *p) { return (float2)(vload_half(2 * i, p), vload_half(2 * i + 1, p)); } \
    OVLD float3 vload_half3(size_t i, const AS half *p)                                            \
    {                                                                                              \
        return (float3)(vload_half(3 * i, p), vload_half(3 * i + 1, p), vload_half(3 * i + 2, p)); \
    }                                                                                              \
    OVLD float4 vload_half4(size_t i, const AS half *p) { return (float4)(vload_half2(2 * i, p), vload_half2(2 * i + 1, p)); } \
    OVLD float8 vload_half8(size_t i, const AS half *p) { return (float8)(vload_half4(2 * i, p), vload_half4(2 * i + 1, p)); } \
    OVLD float16 vload_half16(size_t i, const AS half *p) { return (float16)(vload_half8(2 * i, p), vload_half8(2 * i + 1, p)); } \
    OVLD float2 vloada_half2(size_t i, const AS half *p) { return vload_half2(i, p); }             \
    OVLD float3 vloada_half3(size_t i, const AS half *p) { return vload_half3(0, p + 4 * i); }     \
    OVLD float4 vloada_half4(size_t i, const AS half *p) { return vload_half4(i, p); }             \
    OVLD float8 vloada_half8(size_t i, const AS half *p) { return vload_half8(i, p); }             \
    OVLD float16 vloada_half16(size_t i, const AS half *p) { return vload_half16(i, p); }
VLOAD_HALF(__global)
VLOAD_HALF(__local)
VLOAD_HALF(__constant)
VLOAD_HALF(__private)
VLOAD_HALF()

/* ---- vstore_half / vstorea_half, for float and double, every rounding mode ------------- */
#define VSTORE_HALF_MODE(T, AS, SUF, MODE, CONV)                                                   \
    OVLD void vstore_half##SUF(T v, size_t i, AS half *p) { ((AS ushort *)p)[i] = CONV(v, MODE); }   \
    OVLD void vstore_half2##SUF(T##2 v, size_t i, AS half *p)                                      \
    {                                                                                              \
        vstore_half##SUF(v.s0, 2 * i, p);                                                          \
        vstore_half##SUF(v.s1, 2 * i + 1, p);                                                      \
    }                                                                                              \
    OVLD void vstore_half3##SUF(T##3 v, size_t i, AS half *p)                                      \
    {                                                                                              \
        vstore_half##SUF(v.s0, 3 * i, p);                                                          \
        vstore_half##SUF(v.s1, 3 * i + 1, p);                                                      \
        vstore_half##SUF(v.s2, 3 * i + 2, p);                                                      \
    }                                                                                              \
    OVLD void vstore_half4##SUF(T##4 v, size_t i, AS half *p)                                      \
    {                                                                                              \
        vstore_half2##SUF(v.lo, 2 * i, p);                                                         \
        vstore_half2##SUF(v.hi, 2 * i + 1, p);                                                     \
    }                                                                                              \
    OVLD void vstore_half8##SUF(T##8 v, size_t i, AS half *p)                                      \
    {                                                                                              \
        vstore_half4##SUF(v.lo, 2 * i, p);                                                         \
        vstore_half4##SUF(v.hi, 2 * i + 1, p);                                                     \
    }                                                                                              \
    OVLD void vstore_half16##SUF(T##16 v, size_t i, AS half *p)                                    \
    {                                                                                              \
        vstore_half8##SUF(v.lo, 2 * i, p);                                                         \
        vstore_half8##SUF(v.hi, 2 * i + 1, p);                                                     \
    }                                                                                              \
    OVLD void vstorea_half2##SUF(T##2 v, size_t i, AS half *p) { vstore_half2##SUF(v, i, p); }      \
    OVLD void vstorea_half3##SUF(T##3 v, size_t i, AS half *p) { vstore_half3##SUF(v, 0, p + 4 * i); } \
    OVLD void vstorea_half4##SUF(T##4 v, size_t i, AS half *p) { vstore_half4##SUF(v, i, p); }      \
    OVLD void vstorea_half8##SUF(T##8 v, size_t i, AS half *p) { vstore_half8##SUF(v, i, p); }      \
    OVLD void vstorea_half16##SUF(T##16 v, size_t i, AS half *p) { vstore_half16##SUF(v, i, p); }
#define VSTORE_HALF_T(T, AS, CONV)                                                                 \
    VSTORE_HALF_MODE(T, AS, , 0, CONV) VSTORE_HALF_MODE(T, AS, _rte, 0, CONV)                      \
    VSTORE_HALF_MODE(T, AS, _rtz, 1, CONV) VSTORE_HALF_MODE(T, AS, _rtp, 2, CONV)                  \
    VSTORE_HALF_MODE(T, AS, _rtn, 3, CONV)
#define VSTORE_HALF(AS) VSTORE_HALF_T(float, AS, float_to_half_bits) VSTORE_HALF_T(double, AS, double_to_half_bits)
VSTORE_HALF(__global)
VSTORE_HALF(__local)
VSTORE_HALF(__private)
VSTORE_HALF()
