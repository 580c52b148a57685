/* Saturating conversions from float and double to the integer types,
 * convert_<int>[n]_sat[_rte|_rtz|_rtp|_rtn] (OpenCL C 3.0 section 6.4.3.3).
 * libclc's NVPTX library clamps and converts but lets NaN through to the
 * conversion, whose result the GPU makes INT_MIN for a double; OpenCL wants
 * 0.  Linked before libclc, whose copies of these names they replace
 * (src/compiler/gpu/ptx.c), into a program that calls one. */
#include "../builtins.h"

/* the bounds as the source type holds them: each is a power of two, 0, or
 * a power of two less one that rounds up to the power (INT_MAX as float is
 * 2^31), so `y >= MAX` with y already an integer is exactly "too big" */
#define SAT1(DST, LO, HI, SRC, MODE, ROUND)                                                        \
    CONST_FN DST convert_##DST##_sat##MODE(SRC x)                                                  \
    {                                                                                              \
        SRC y = ROUND(x);                                                                          \
        return isnan(x) ? (DST)0 : y >= (SRC)(HI) ? (DST)(HI) : y <= (SRC)(LO) ? (DST)(LO) : (DST)y; \
    }                                                                                              \
    CONST_FN DST##2 convert_##DST##2_sat##MODE(SRC##2 x)                                           \
    {                                                                                              \
        return (DST##2)(convert_##DST##_sat##MODE(x.s0), convert_##DST##_sat##MODE(x.s1));          \
    }                                                                                              \
    CONST_FN DST##3 convert_##DST##3_sat##MODE(SRC##3 x)                                           \
    {                                                                                              \
        return (DST##3)(convert_##DST##2_sat##MODE(x.s01), convert_##DST##_sat##MODE(x.s2));        \
    }                                                                                              \
    CONST_FN DST##4 convert_##DST##4_sat##MODE(SRC##4 x)                                           \
    {                                                                                              \
        return (DST##4)(convert_##DST##2_sat##MODE(x.lo), convert_##DST##2_sat##MODE(x.hi));        \
    }                                                                                              \
    CONST_FN DST##8 convert_##DST##8_sat##MODE(SRC##8 x)                                           \
    {                                                                                              \
        return (DST##8)(convert_##DST##4_sat##MODE(x.lo), convert_##DST##4_sat##MODE(x.hi));        \
    }                                                                                              \
    CONST_FN DST##16 convert_##DST##16_sat##MODE(SRC##16 x)                                        \
    {                                                                                              \
        return (DST##16)(convert_##DST##8_sat##MODE(x.lo), convert_##DST##8_sat##MODE(x.hi));       \
    }

/* toward zero is the default for float to integer */
#define EACH_MODE(DST, LO, HI, SRC)                                                                \
    SAT1(DST, LO, HI, SRC, , trunc)                                                                \
    SAT1(DST, LO, HI, SRC, _rtz, trunc)                                                            \
    SAT1(DST, LO, HI, SRC, _rte, rint)                                                             \
    SAT1(DST, LO, HI, SRC, _rtp, ceil)                                                             \
    SAT1(DST, LO, HI, SRC, _rtn, floor)
#define EACH_DST(SRC)                                                                              \
    EACH_MODE(char, CHAR_MIN, CHAR_MAX, SRC)                                                       \
    EACH_MODE(uchar, 0, UCHAR_MAX, SRC)                                                            \
    EACH_MODE(short, SHRT_MIN, SHRT_MAX, SRC)                                                      \
    EACH_MODE(ushort, 0, USHRT_MAX, SRC)                                                           \
    EACH_MODE(int, INT_MIN, INT_MAX, SRC)                                                          \
    EACH_MODE(uint, 0, UINT_MAX, SRC)                                                              \
    EACH_MODE(long, LONG_MIN, LONG_MAX, SRC)                                                       \
    EACH_MODE(ulong, 0, ULONG_MAX, SRC)

EACH_DST(float)
EACH_DST(double)
