/* Maths built-ins with the GPU's own instructions where libclc's NVPTX
 * library computes them the long way, each held to OpenCL C's accuracy
 * (OpenCL C 3.0, section 7.4; test_bruteforce checks them).  Linked before
 * libclc, whose copies of these names they replace (src/compiler/gpu/ptx.c). */
#include "../builtins.h"

/* rsqrt, 2 ulp allowed.  libclc divides 1 by a correctly rounded sqrt: two
 * of the GPU's slow IEEE sequences.  Here: the GPU's approximation
 * (rsqrt.approx.f32, about 2 ulp) and one Newton step with FMAs, within
 * 1 ulp.  Where the step has nothing to add (0, infinities, negative
 * numbers, NaN) it gives NaN, and the approximation's answer is exact. */
CONST_FN float rsqrt(float x)
{
    float y = __nvvm_rsqrt_approx_f(x);
    float e = fma(-(x * y), y, 1.0f); /* 1 - x y^2: the relative error, twice over */
    float r = fma(0.5f * y, e, y);
    return isnan(r) ? y : r;
}
VEC1(float, rsqrt, float)
