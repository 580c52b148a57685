/*
 * The half conversions LLVM's x86-64 code generator calls by their libgcc
 * names where the CPU has no instruction: always for double -> half (F16C
 * converts only float), and for float <-> half on CPUs without F16C.  The
 * CPU device gives them to the JIT as runtime symbols (cpu_device.c), so
 * kernels do not depend on the libgcc the process happens to have loaded
 * (libmosaic.so's own libgcc_s is not in the global scope when the ICD
 * loader opens it with RTLD_LOCAL, and before GCC 12 it had none of these).
 * Halves travel in xmm registers (the x86-64 psABI's _Float16), as LLVM 16
 * passes them.  Round to nearest even, denormals, infinities and NaNs kept.
 */
#include "devices/cpu/cpu_runtime.h"

#include <math.h>
#include <string.h>

static uint16_t half_bits_of_double(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
    uint64_t mag = u & 0x7fffffffffffffffull;
    if (mag >= 0x7ff0000000000000ull) /* infinity, or a NaN made quiet with its top payload bits */
        return (uint16_t)(sign | 0x7c00 | (mag > 0x7ff0000000000000ull ? 0x200 | ((mag >> 42) & 0x3ff) : 0));
    double a = fabs(d);
    if (a >= 65520.0) /* from halfway between 65504 and 2^16 up */
        return (uint16_t)(sign | 0x7c00);
    int e = 0;
    if (a >= 0x1p-14)
        frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int q = a >= 0x1p-14 ? e - 11 : -24; /* the exponent of one half ulp at a */
    /* a / 2^q is exact (q >= -24); rint rounds it to nearest even (the
     * default mode, which the workers keep) */
    uint32_t m = (uint32_t)rint(ldexp(a, -q));
    if (q == -24) /* denormal (m up to 1024, the smallest normal) */
        return (uint16_t)(sign | m);
    return (uint16_t)(sign | (((uint32_t)(q + 25) << 10) + (m - 1024))); /* m = 2048 carries */
}

static double double_of_half_bits(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static _Float16 half_of_bits(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return h;
}

static uint16_t bits_of_half(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

_Float16 mosaic_cpu_truncdfhf2(double d) { return half_of_bits(half_bits_of_double(d)); }
/* float -> double is exact, so this rounds once */
_Float16 mosaic_cpu_truncsfhf2(float f) { return half_of_bits(half_bits_of_double(f)); }
float mosaic_cpu_extendhfsf2(_Float16 h) { return (float)double_of_half_bits(bits_of_half(h)); }
double mosaic_cpu_extendhfdf2(_Float16 h) { return double_of_half_bits(bits_of_half(h)); }
