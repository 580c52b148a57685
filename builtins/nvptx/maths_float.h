/*
 * Single-precision exp, exp2, log, log2, sin, cos and pow for the GPU
 * (nvptx/maths.cl defines the OpenCL names on top), in the common subset of
 * C and OpenCL C so that tests/unit/test_gpu_maths.c runs the same code on
 * the host.  Only IEEE operations rounded to nearest (+ - * fma, int <->
 * float conversions) and integer operations, so the GPU and the host give
 * the same bits, provided nothing fuses a product and a sum that the code
 * does not fuse itself (each function starts with MF_NO_CONTRACT: OpenCL's
 * FP_CONTRACT OFF; GCC has no such pragma: compile with -ffp-contract=off)
 * and fma is correctly rounded.  Denormal arguments and results are right
 * (no flush to zero); no division; no table but on sin and cos's rare path;
 * no branch but that one.
 *
 * Methods, and the largest error measured over every float argument (pow:
 * over 10^9 and 2^30 pairs with finite, non-trivial results), in ulp as OpenCL's
 * conformance tests count them (OpenCL C's limits: 3, 4 for sin and cos, 16
 * for pow).  Measured on the host with a correctly rounded fma, and the
 * same bits seen from an H200 for every argument:
 *   exp2  x = k + r, |r| <= 1/2; 2^r by a degree-6 polynomial; times 2^k
 *         in two steps (a denormal result is rounded once).      0.883 ulp
 *   exp   k = rint(x log2 e), r = x - k ln2 (Cody-Waite, ln2 in two
 *         parts); e^r by a degree-6 polynomial; times 2^k as exp2.  0.945
 *   log   x = 2^e m, m in [sqrt(1/2), sqrt 2) (a denormal x scaled first),
 *         f = m - 1; log(1+f) = f + f^2 P(f), P of degree 8; e ln2 + f
 *         summed with its rounding error kept.                      0.947
 *   log2  the same with log2(1+f) = f log2(e) + f^2 P(f), f log2(e) and
 *         e + f log2(e) as float-floats.                            0.988
 *   sin   |x| <= 2^19: k = rint(x 2/pi), r = x - k pi/2 (Cody-Waite, pi/2
 *   cos   in three parts) as a float-float: x - k p1 exact, k p2 exact
 *         (fma), their difference's rounding error kept (TwoSum); beyond
 *         2^19 (a branch): Payne-Hanek, 96 bits of 2/pi from a table of
 *         224.  sin r = r + r^3 S(r^2), S of degree 2; cos r = w + (1 -
 *         r^2/2 - w) + r^4 C(r^2), w = 1 - r^2/2 rounded, C of degree 2;
 *         both computed, the quadrant picks one and the sign.  0.880, 0.883
 *   pow   |x| = 2^e m as for log; s = (m - 1)/(m + 1) as a float-float, the
 *         reciprocal by two Newton steps; log2|x| = e + 2 log2(e) atanh s
 *         = e + 2 log2(e) s + s^3 Q(s^2) as a float-float (about 2^-31);
 *         t = y log2|x| as a float-float (fma); 2^t as exp2.  The special
 *         cases of C99 F.9.4.4 and OpenCL by selects.               1.414
 * Each polynomial is a minimax fit of relative error (Remez), its
 * coefficients rounded to float one by one, the rest fitted again.
 */
#ifndef MOSAIC_MATHS_FLOAT_H
#define MOSAIC_MATHS_FLOAT_H

#ifdef __OPENCL_C_VERSION__
typedef int mf_i32;
typedef uint mf_u32;
typedef long mf_i64;
typedef ulong mf_u64;
#define MF_FN static inline
#define MF_TABLE __constant
#define MF_NO_CONTRACT _Pragma("OPENCL FP_CONTRACT OFF")
#define MF_AS_INT(x) as_int(x)
#define MF_AS_UINT(x) as_uint(x)
#define MF_AS_FLOAT(i) as_float(i)
#define MF_FMA(a, b, c) __builtin_fmaf(a, b, c)
#define MF_RINT(x) __builtin_rintf(x)
#define MF_FABS(x) __builtin_fabsf(x)
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
typedef int32_t mf_i32;
typedef uint32_t mf_u32;
typedef int64_t mf_i64;
typedef uint64_t mf_u64;
#define MF_FN static inline
#define MF_TABLE static const
#ifdef __clang__
#define MF_NO_CONTRACT _Pragma("STDC FP_CONTRACT OFF")
#else
#define MF_NO_CONTRACT /* GCC: compile with -ffp-contract=off */
#endif
static inline mf_i32 mf_as_int(float x)
{
    mf_i32 i;
    memcpy(&i, &x, sizeof i);
    return i;
}
static inline mf_u32 mf_as_uint(float x)
{
    mf_u32 i;
    memcpy(&i, &x, sizeof i);
    return i;
}
static inline float mf_as_float(mf_u32 i)
{
    float x;
    memcpy(&x, &i, sizeof x);
    return x;
}
#define MF_AS_INT(x) mf_as_int(x)
#define MF_AS_UINT(x) mf_as_uint(x)
#define MF_AS_FLOAT(i) mf_as_float(i)
#define MF_FMA(a, b, c) fmaf(a, b, c)
#define MF_RINT(x) rintf(x)
#define MF_FABS(x) fabsf(x)
#endif

#define MF_INF INFINITY
#define MF_NAN NAN
/* 1.5 * 2^23: x + MF_MAGIC rounds x to an integer (|x| < 2^22), which is
 * then the low bits of the sum's representation */
#define MF_MAGIC 0x1.8p23f
#define MF_MAGIC_BITS 0x4b400000u

typedef struct {
    float hi, lo;
} mf_pair;

/* ---- 2^r and scaling ----------------------------------------------------- */

/* 2^r for |r| <= 0.50002 (relative error 2^-27.5) */
MF_FN float mf_exp2_poly(float r)
{
    MF_NO_CONTRACT
    float p = 0x1.4bc734p-13f;
    p = MF_FMA(p, r, 0x1.5fc01p-10f);
    p = MF_FMA(p, r, 0x1.3b21c6p-7f);
    p = MF_FMA(p, r, 0x1.c6ada6p-5f);
    p = MF_FMA(p, r, 0x1.ebfbe6p-3f);
    p = MF_FMA(p, r, 0x1.62e432p-1f);
    return MF_FMA(p, r, 1.0f);
}

/* p 2^k for p in [0.7, 1.5] and |k| <= 160 (k any, where the caller sets
 * the result), rounded once: p 2^(k/2) is exact, the second factor makes
 * the denormal or infinite result */
MF_FN float mf_scale(float p, mf_u32 k)
{
    mf_i32 k1 = (mf_i32)k >> 1;
    float s1 = MF_AS_FLOAT((mf_u32)(k1 + 127) << 23);
    float s2 = MF_AS_FLOAT((k - (mf_u32)k1 + 127u) << 23);
    return p * s1 * s2;
}

/* 2^(th + tl), |tl| <= 2^-16 */
MF_FN float mf_exp2_pair(float th, float tl)
{
    MF_NO_CONTRACT
    float t = th + MF_MAGIC;
    float kf = t - MF_MAGIC;
    float r = (th - kf) + tl;
    float y = mf_scale(mf_exp2_poly(r), MF_AS_UINT(t) - MF_MAGIC_BITS);
    y = th > 128.5f ? MF_INF : y;
    return th < -150.5f ? 0.0f : y;
}

MF_FN float mosaic_exp2f(float x)
{
    MF_NO_CONTRACT
    float t = x + MF_MAGIC;
    float kf = t - MF_MAGIC;
    float y = mf_scale(mf_exp2_poly(x - kf), MF_AS_UINT(t) - MF_MAGIC_BITS);
    y = x > 129.0f ? MF_INF : y;
    return x < -151.0f ? 0.0f : y;
}

MF_FN float mosaic_expf(float x)
{
    MF_NO_CONTRACT
    float t = MF_FMA(x, 0x1.715476p+0f, MF_MAGIC);
    float kf = t - MF_MAGIC;
    float r = MF_FMA(-kf, 0x1.62e43p-1f, x); /* exact */
    r = MF_FMA(-kf, -0x1.05c61p-29f, r);
    /* e^r, |r| <= 0.34664 (relative error 2^-27) */
    float p = 0x1.77111ap-10f;
    p = MF_FMA(p, r, 0x1.13086p-7f);
    p = MF_FMA(p, r, 0x1.554a8ap-5f);
    p = MF_FMA(p, r, 0x1.555292p-3f);
    p = MF_FMA(p, r, 0x1.000004p-1f);
    p = MF_FMA(p, r, 0x1.000002p+0f);
    p = MF_FMA(p, r, 1.0f);
    float y = mf_scale(p, MF_AS_UINT(t) - MF_MAGIC_BITS);
    y = x > 89.0f ? MF_INF : y;
    return x < -104.5f ? 0.0f : y;
}

/* ---- logarithms ------------------------------------------------------------ */

/* x = 2^e m, m in [sqrt(1/2), sqrt 2), for x > 0 finite (else anything):
 * m as hi, e as lo */
MF_FN mf_pair mf_log_split(float x)
{
    MF_NO_CONTRACT
    int den = MF_AS_INT(x) < 0x00800000;
    float xs = den ? x * 0x1p23f : x;
    mf_u32 ux = MF_AS_UINT(xs);
    mf_u32 t = ux - 0x3f3504f3u;
    mf_i32 k = (mf_i32)t >> 23;
    mf_pair me;
    me.hi = MF_AS_FLOAT(ux - (t & 0xff800000u));
    me.lo = (float)(den ? k - 23 : k);
    return me;
}

/* the results of log and log2 where x is not positive and finite */
MF_FN float mf_log_special(float x, float y)
{
    y = x < MF_INF ? y : x;
    return x > 0.0f ? y : (x == 0.0f ? -MF_INF : MF_NAN);
}

MF_FN float mosaic_logf(float x)
{
    MF_NO_CONTRACT
    mf_pair me = mf_log_split(x);
    float f = me.hi - 1.0f, e = me.lo;
    /* log(1+f) = f + f^2 P(f) (relative error 2^-26) */
    float p = -0x1.56e658p-5f;
    p = MF_FMA(p, f, 0x1.c708dap-4f);
    p = MF_FMA(p, f, -0x1.19d832p-3f);
    p = MF_FMA(p, f, 0x1.28fe1ap-3f);
    p = MF_FMA(p, f, -0x1.53ad9ep-3f);
    p = MF_FMA(p, f, 0x1.994874p-3f);
    p = MF_FMA(p, f, -0x1.0004f8p-2f);
    p = MF_FMA(p, f, 0x1.555608p-2f);
    p = MF_FMA(p, f, -0x1.fffff8p-2f);
    /* e ln2 + f: e times the 16 high bits of ln2 is exact, the sum's
     * rounding error is kept (|e ln2| >= |f| where e != 0) */
    float a = e * 0x1.62e4p-1f;
    float s = a + f;
    float lo = (a - s) + f;
    lo = MF_FMA(e, 0x1.7f7d1cp-20f, lo);
    lo = MF_FMA(f * f, p, lo);
    return mf_log_special(x, s + lo);
}

MF_FN float mosaic_log2f(float x)
{
    MF_NO_CONTRACT
    mf_pair me = mf_log_split(x);
    float f = me.hi - 1.0f, e = me.lo;
    /* log2(1+f) = f log2(e) + f^2 P(f) (relative error 2^-27.5) */
    float p = -0x1.aec004p-4f;
    p = MF_FMA(p, f, 0x1.7a3a8ap-3f);
    p = MF_FMA(p, f, -0x1.89a5bap-3f);
    p = MF_FMA(p, f, 0x1.a3a39ap-3f);
    p = MF_FMA(p, f, -0x1.ea8c1p-3f);
    p = MF_FMA(p, f, 0x1.27798ap-2f);
    p = MF_FMA(p, f, -0x1.715b2ep-2f);
    p = MF_FMA(p, f, 0x1.ec70aap-2f);
    p = MF_FMA(p, f, -0x1.71547p-1f);
    /* f log2(e) exactly as a + its error, then e + a exactly */
    float a = f * 0x1.715476p+0f;
    float lo = MF_FMA(f, 0x1.715476p+0f, -a);
    lo = MF_FMA(f, 0x1.4ae0cp-26f, lo);
    float s = e + a;
    lo = lo + ((e - s) + a);
    lo = MF_FMA(f * f, p, lo);
    return mf_log_special(x, s + lo);
}

/* log2 x as hi + lo, relative error about 2^-31, for x > 0 finite */
MF_FN mf_pair mf_log2_pair(float x)
{
    MF_NO_CONTRACT
    mf_pair me = mf_log_split(x);
    float m = me.hi, e = me.lo;
    float f = m - 1.0f;
    float d = m + 1.0f;
    float dl = m - (d - 1.0f); /* d + dl = m + 1 exactly */
    /* 1/d: a linear guess (2^-6), two Newton steps (2^-24) */
    float r = MF_FMA(d, -0x1.e9813ap-3f, 0x1.f859fcp-1f);
    r = MF_FMA(r, MF_FMA(-d, r, 1.0f), r);
    r = MF_FMA(r, MF_FMA(-d, r, 1.0f), r);
    /* s = f / (m + 1) as sh + sl (|sl| <= 2^-23 |sh|), within 2^-45 */
    float sh = f * r;
    float rem = MF_FMA(-sh, d, f);
    rem = MF_FMA(-sh, dl, rem);
    float sl = rem * r;
    /* log2 m = 2 log2(e) atanh s = 2 log2(e) s + s^3 (q0 + s^2 Q(s^2)),
     * summed into lo smallest first; sh^3 = s3 + its error, exactly */
    float z = sh * sh;
    float s3 = sh * z;
    float s3e = MF_FMA(sh, MF_FMA(sh, sh, -z), MF_FMA(sh, z, -s3));
    float q = 0x1.589074p-2f;
    q = MF_FMA(q, z, 0x1.a5d046p-2f);
    q = MF_FMA(q, z, 0x1.2776ep-1f);
    float a = sh * 0x1.715476p+1f;
    float lo = MF_FMA(sh, 0x1.715476p+1f, -a);
    lo = MF_FMA(sh, 0x1.4ae0cp-25f, lo);
    lo = MF_FMA(sl, MF_FMA(0x1.715476p+1f, z, 0x1.715476p+1f), lo);
    lo = MF_FMA(s3e, 0x1.ec709ep-1f, lo);
    lo = MF_FMA(s3 * z, q, lo);
    lo = MF_FMA(s3, 0x1.ec709ep-1f, lo);
    /* normalised (|a| >= |lo|), then e added (|e| >= |hi| where e != 0),
     * each sum's rounding error kept */
    float hi = a + lo;
    lo = (a - hi) + lo;
    mf_pair v;
    v.hi = e + hi;
    v.lo = ((e - v.hi) + hi) + lo;
    return v;
}

MF_FN float mosaic_powf(float x, float y)
{
    MF_NO_CONTRACT
    float ax = MF_FABS(x);
    mf_pair v = mf_log2_pair(ax);
    /* log2 0 = -inf, log2 inf = inf, NaN stays: 2^(y log2|x|) is then 0,
     * infinity or NaN as C99 wants for |x| 0 or infinite or y infinite,
     * but where y log2|x| is 0 times infinity */
    float lh = ax == 0.0f ? -MF_INF : v.hi;
    lh = ax < MF_INF ? lh : ax;
    float th = y * lh;
    float tl = MF_FMA(y, lh, -th);
    tl = MF_FMA(y, v.lo, tl);
    float z = mf_exp2_pair(th, tl);
    /* x < 0 (or -0): the sign of an odd integer y, NaN for y no integer
     * (x finite) */
    int yint = MF_RINT(y) == y; /* infinities too */
    float hy = 0.5f * y;
    int yodd = yint & (MF_RINT(hy) != hy);
    z = ((MF_AS_INT(x) < 0) & yodd) ? -z : z;
    z = ((x < 0.0f) & (x > -MF_INF) & !yint) ? MF_NAN : z;
    /* pow(x, 0) = pow(1, y) = pow(-1, infinity) = 1, for NaN x or y too */
    int one = (y == 0.0f) | (x == 1.0f) | ((x == -1.0f) & (MF_FABS(y) == MF_INF));
    return one ? 1.0f : z;
}

/* ---- sin and cos ------------------------------------------------------------- */

typedef struct {
    float hi, lo; /* the reduced argument, |hi + lo| <= pi/4 (about) */
    mf_u32 k;     /* the multiple of pi/2 taken off, modulo 4 at least */
} mf_reduced;

/* 2/pi in bits after the point, from bit 1 (word 1's top bit) on; word 0
 * is zeros, for the window of the smallest arguments. */
MF_TABLE mf_u32 mf_two_over_pi[8] = {
    0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
};

/* Payne-Hanek, for x > 2^19 (and infinity, which gives NaN): x = m 2^E;
 * x 2/pi modulo 4 is m times the 96 bits of 2/pi from bit E - 1 on,
 * scaled, modulo 2^96, which leaves 94 bits of fraction */
MF_FN mf_reduced mf_reduce_large(float x)
{
    MF_NO_CONTRACT
    mf_u32 ix = MF_AS_UINT(x);
    mf_u32 m = (ix & 0x7fffffu) | 0x800000u;
    mf_u32 p = (ix >> 23) - 120u; /* E - 1 + 31, E = exponent - 150: the table's bit */
    mf_u32 w = p >> 5, s = p & 31u;
    mf_u64 t0 = mf_two_over_pi[w], t1 = mf_two_over_pi[w + 1];
    mf_u64 t2 = mf_two_over_pi[w + 2], t3 = mf_two_over_pi[w + 3];
    mf_u32 wh = (mf_u32)(((t0 << 32 | t1) << s) >> 32);
    mf_u32 wm = (mf_u32)(((t1 << 32 | t2) << s) >> 32);
    mf_u32 wl = (mf_u32)(((t2 << 32 | t3) << s) >> 32);
    mf_u64 pl = (mf_u64)m * wl, pm = (mf_u64)m * wm;
    mf_u64 mid = (pl >> 32) + (mf_u32)pm;
    mf_u32 top = (mf_u32)(pm >> 32) + m * wh + (mf_u32)(mid >> 32);
    /* 2 bits of integer, 62 of fraction; rounded to the nearest integer */
    mf_u64 q = ((mf_u64)top << 32 | (mf_u32)mid) + ((mf_u64)1 << 61);
    mf_i64 fr = (mf_i64)(q & (((mf_u64)1 << 62) - 1)) - ((mf_i64)1 << 61);
    /* the fraction (fr + low 2^-32) 2^-62 as a float-float, times pi/2 */
    float h = (float)fr;
    float l = (float)(fr - (mf_i64)h) + (float)(mf_u32)pl * 0x1p-32f;
    mf_reduced red;
    red.hi = h * 0x1.921fb6p-62f;
    red.lo = MF_FMA(h, 0x1.921fb6p-62f, -red.hi);
    red.lo = MF_FMA(h, -0x1.777a5cp-87f, red.lo);
    red.lo = MF_FMA(l, 0x1.921fb6p-62f, red.lo);
    float r = red.hi + red.lo;
    red.lo = red.lo - (r - red.hi);
    red.hi = r + (x - x); /* NaN for infinity */
    red.k = (mf_u32)(q >> 62);
    return red;
}

/* x >= 0, x <= 2^19 or NaN: Cody-Waite, pi/2 in three parts; x - k pi/2
 * as hi + lo: x - k p1 is exact, k p2 exact as w + we, and the rounding
 * error of (x - k p1) - w is kept (TwoSum).  k is the nearest integer to x
 * times 2/pi rounded to float: |hi + lo| <= pi/4 + 0.0212 */
MF_FN mf_reduced mf_reduce(float x)
{
    MF_NO_CONTRACT
    float t = MF_FMA(x, 0x1.45f306p-1f, MF_MAGIC);
    float k = t - MF_MAGIC;
    float r1 = MF_FMA(-k, 0x1.921fb6p+0f, x);
    float w = k * -0x1.777a5cp-25f;
    float we = MF_FMA(k, -0x1.777a5cp-25f, -w);
    float s = r1 - w;
    float b = s - r1;
    float e = (r1 - (s - b)) - (w + b);
    mf_reduced red;
    red.hi = s;
    red.lo = MF_FMA(-k, -0x1.ee59dap-50f, e - we);
    red.k = MF_AS_UINT(t) - MF_MAGIC_BITS;
    return red;
}

/* sin(x) (cosine 0) or cos(x) (cosine 1) */
MF_FN float mf_sincos(float x, mf_u32 cosine)
{
    MF_NO_CONTRACT
    float ax = MF_FABS(x);
    mf_reduced red;
    if (ax > 0x1p19f)
        red = mf_reduce_large(ax);
    else
        red = mf_reduce(ax);
    float r = red.hi, z = r * r;
    /* sin r = r + r^3 S(r^2) (relative error 2^-27.6) */
    float ps = -0x1.98da8cp-13f;
    ps = MF_FMA(ps, z, 0x1.1106p-7f);
    ps = MF_FMA(ps, z, -0x1.555542p-3f);
    float sn = r + MF_FMA(r * z, ps, red.lo);
    /* cos r = 1 - r^2/2 + r^4 C(r^2) (relative error 2^-31.1), where
     * 1 - r^2/2 = w + its rounding error, exactly, and cos(hi + lo) =
     * cos(hi) - hi lo */
    float pc = 0x1.9af28cp-16f;
    pc = MF_FMA(pc, z, -0x1.6c10cep-10f);
    pc = MF_FMA(pc, z, 0x1.555554p-5f);
    float hr = -0.5f * r;
    float w = MF_FMA(hr, r, 1.0f);
    float lo = MF_FMA(hr, r, 1.0f - w);
    lo = MF_FMA(-r, red.lo, lo);
    float cs = w + MF_FMA(z * z, pc, lo);
    mf_u32 q = red.k + cosine;
    float y = (q & 1u) ? cs : sn;
    mf_u32 sign = (q << 30 & 0x80000000u) ^ (cosine ? 0u : MF_AS_UINT(x) & 0x80000000u);
    return MF_AS_FLOAT(MF_AS_UINT(y) ^ sign);
}

MF_FN float mosaic_sinf(float x)
{
    return mf_sincos(x, 0u);
}

MF_FN float mosaic_cosf(float x)
{
    return mf_sincos(x, 1u);
}

#endif /* MOSAIC_MATHS_FLOAT_H */
