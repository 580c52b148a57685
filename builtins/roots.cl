/* Double rootn and cbrt within OpenCL C's bounds (4 and 2 ulp).
 *
 * pow(|x|, 1.0 / n) is off by |ln x| times the rounding error of 1.0 / n,
 * some 75 ulp at (DBL_MAX, 3), and glibc's cbrt reaches 3 ulp.  So the first
 * estimate r gets one Newton step on r^n = x: r^|n| is computed exactly
 * enough as a double-double with its own exponent (repeated squaring, each
 * product through fma), giving the relative residual e = r^n / x - 1 (about
 * 1e-14), and r - r * e / |n| is then within an ulp or so; the step's own
 * error is of the order of e squared. */
#include "builtins.h"

/* Exponents and scaling by bits, not ilogb and ldexp: these stay plain
 * arithmetic when the loop vectoriser widens them. */
static double pow2(int k) /* k in [-1022, 1023] */
{
    return as_double((ulong)(k + 1023) << 52);
}

static double scale2(double v, int k) /* v * 2^k, |k| <= 2044; exact where the result is normal */
{
    int h = k / 2;
    return v * pow2(h) * pow2(k - h);
}

static int exponent_of(double v) /* floor(log2 v), v > 0 finite */
{
    int e = (int)((as_ulong(v) >> 52) & 0x7ff);
    if (e == 0) /* subnormal */
        return (int)((as_ulong(v * 0x1p54) >> 52) & 0x7ff) - 1023 - 54;
    return e - 1023;
}

/* (hi + lo) * 2^exp, hi in [1, 2) */
typedef struct {
    double hi, lo;
    int exp;
} scaled_dd;

static scaled_dd dd_normalise(double hi, double lo, int exp)
{
    double s = hi + lo; /* fast two-sum: |hi| >= |lo| */
    lo = lo - (s - hi);
    int k = exponent_of(s); /* s in [1, 8): k is 0, 1 or 2 */
    scaled_dd r = {s * pow2(-k), lo * pow2(-k), exp + k};
    return r;
}

static scaled_dd dd_mul(scaled_dd a, scaled_dd b)
{
    double p = a.hi * b.hi;
    double e = __builtin_fma(a.hi, b.hi, -p); /* p + e = a.hi * b.hi exactly */
    e += a.hi * b.lo + a.lo * b.hi;
    return dd_normalise(p, e, a.exp + b.exp);
}

static scaled_dd dd_of(double x) /* x > 0, finite */
{
    int k = exponent_of(x);
    scaled_dd r = {scale2(x, -k), 0.0, k};
    return r;
}

/* r^m, m >= 1 */
static scaled_dd dd_pow(double r, uint m)
{
    scaled_dd base = dd_of(r), acc = {1.0, 0.0, 0};
    for (;;) {
        if (m & 1)
            acc = dd_mul(acc, base);
        m >>= 1;
        if (!m)
            return acc;
        base = dd_mul(base, base);
    }
}

/* (hi + lo) * 2^exp - 1: the exact difference of hi and 1 (Sterbenz), then lo */
static double dd_minus_one(scaled_dd v)
{
    double t = scale2(v.hi, v.exp), tl = scale2(v.lo, v.exp);
    return (t - 1.0) + tl;
}

/* One Newton step from r towards the n-th root of ax (ax > 0 finite, r > 0 finite, n != 0). */
static double refine_root(double r, double ax, int n)
{
    uint m = n < 0 ? (uint)(-(long)n) : (uint)n;
    scaled_dd p = dd_pow(r, m), x = dd_of(ax);
    double e;
    if (n > 0) {
        /* r^n / x - 1 = (p - x) / x, p and x as mantissas on x's exponent */
        double t = scale2(p.hi, p.exp - x.exp), tl = scale2(p.lo, p.exp - x.exp);
        e = ((t - x.hi) + tl) / x.hi;
    } else {
        e = dd_minus_one(dd_mul(p, x)); /* r^|n| * x - 1 */
    }
    return r - r * e / (double)m;
}

CONST_FN double rootn(double x, int n)
{
    if (n == 0)
        return __builtin_nan("");
    if (x < 0 && (n & 1) == 0)
        return __builtin_nan("");
    double ax = __builtin_fabs(x);
    double r = __builtin_pow(ax, 1.0 / n);
    if (ax != 0 && !__builtin_isinf(ax) && !__builtin_isnan(ax) && r != 0 && !__builtin_isinf(r))
        r = refine_root(r, ax, n);
    return (n & 1) ? __builtin_copysign(r, x) : r; /* even roots are never negative, even of -0 */
}

CONST_FN double cbrt(double x)
{
    double ax = __builtin_fabs(x), r = __builtin_cbrt(ax);
    if (ax != 0 && !__builtin_isinf(ax) && !__builtin_isnan(ax))
        r = refine_root(r, ax, 3);
    return __builtin_copysign(r, x);
}
