/* Maths built-ins with the GPU's own instructions where libclc's NVPTX
 * library computes them the long way, each held to OpenCL C's accuracy
 * (OpenCL C 3.0, section 7.4; test_bruteforce checks them).  Linked before
 * libclc, whose copies of these names they replace (src/compiler/gpu/ptx.c). */
#include "../builtins.h"
#include "maths_float.h"

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
    /* a subnormal x scaled into the normal floats first: libclc's double
     * log2 lost bits below 2^-126 (rootn(0x1.fcp-143, 2) was 38 ulp off) */
    bool tiny = ax < 0x1p-126f;
    double l = log2((double)(tiny ? ax * 0x1p64f : ax)) - (tiny ? 64.0 : 0.0);
    float y = (float)exp2(l / (double)n);
    return odd ? copysign(y, x) : y;
}
VEC2(float, rootn, float, int)
