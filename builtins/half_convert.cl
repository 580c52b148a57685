/* Conversions to and from half (cl_khr_fp16; OpenCL C 3.0 section 6.4.3):
 * convert_half<n>[_rte|_rtz|_rtp|_rtn] from every scalar and vector type and
 * convert_<type><n>[_sat][_<mode>] of half (docs/half.md).
 *
 * float -> half to nearest even is one instruction (vcvtps2ph with F16C; LLVM's
 * fptrunc); a directed mode moves that result one half step when it lies on
 * the wrong side of the float.  Other sources go through float rounded the
 * same way: directed roundings compose (rounding up to float, then up to half,
 * is rounding up to half), and to nearest an integer rounds in float only
 * above 2^24, far past half's largest finite value, so rounding twice gives
 * the same infinity.  double -> half to nearest rounds to float *to odd*
 * first (24 bits >= 11 + 2), which then rounds to half correctly.  From half,
 * widening to float is exact, so every conversion of half is float's. */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define EACH_WIDTH(X, ...) X(, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__) X(8, __VA_ARGS__) X(16, __VA_ARGS__)
#define EACH_MODE(X, ...) X(, __VA_ARGS__) X(_rte, __VA_ARGS__) X(_rtz, __VA_ARGS__) X(_rtp, __VA_ARGS__) X(_rtn, __VA_ARGS__)
#define EACH_INT(X, ...)                                                                           \
    X(char, __VA_ARGS__) X(uchar, __VA_ARGS__) X(short, __VA_ARGS__) X(ushort, __VA_ARGS__)        \
    X(int, __VA_ARGS__) X(uint, __VA_ARGS__) X(long, __VA_ARGS__) X(ulong, __VA_ARGS__)

#define TOD_(x) ((double)(x))
#define TOD_2(x) __builtin_convertvector((x), double2)
#define TOD_3(x) __builtin_convertvector((x), double3)
#define TOD_4(x) __builtin_convertvector((x), double4)
#define TOD_8(x) __builtin_convertvector((x), double8)
#define TOD_16(x) __builtin_convertvector((x), double16)

/* rounding modes as numbers: 0 nearest even, 1 toward zero, 2 up, 3 down */
#define MODE_ 0
#define MODE__rte 0
#define MODE__rtz 1
#define MODE__rtp 2
#define MODE__rtn 3

/* ---- float -> half ----------------------------------------------------------------------- */
static half float_to_half(float x, int mode)
{
    half h = (half)x;
    float back = (float)h;
    if (mode == 0 || back == x || x != x)
        return h;
    ushort u = as_ushort(h);
    bool neg = u >> 15;
    bool wrong_side = mode == 1 ? __builtin_fabsf(back) > __builtin_fabsf(x) : mode == 2 ? back < x : back > x;
    if (!wrong_side)
        return h;
    bool away_from_zero = mode == 2 ? !neg : mode == 3 ? neg : false;
    return as_half((ushort)(away_from_zero ? u + 1 : u - 1));
}

#define F2H_SCALAR(RND, _) CONST_FN half convert_half##RND(float x) { return float_to_half(x, MODE_##RND); }
EACH_MODE(F2H_SCALAR, )

/* vectors: to nearest in one instruction, the directed modes per element */
#define F2H_WHOLE(W, RND) CONST_FN half##W convert_half##W##RND(float##W x) { return __builtin_convertvector(x, half##W); }
#define F2H_SPLIT(RND)                                                                             \
    CONST_FN half2 convert_half2##RND(float2 x) { return (half2)(convert_half##RND(x.s0), convert_half##RND(x.s1)); } \
    CONST_FN half3 convert_half3##RND(float3 x)                                                    \
    {                                                                                              \
        return (half3)(convert_half##RND(x.s0), convert_half##RND(x.s1), convert_half##RND(x.s2)); \
    }                                                                                              \
    CONST_FN half4 convert_half4##RND(float4 x) { return (half4)(convert_half2##RND(x.lo), convert_half2##RND(x.hi)); } \
    CONST_FN half8 convert_half8##RND(float8 x) { return (half8)(convert_half4##RND(x.lo), convert_half4##RND(x.hi)); } \
    CONST_FN half16 convert_half16##RND(float16 x) { return (half16)(convert_half8##RND(x.lo), convert_half8##RND(x.hi)); }
#define F2H_NEAREST(RND, _) F2H_WHOLE(2, RND) F2H_WHOLE(3, RND) F2H_WHOLE(4, RND) F2H_WHOLE(8, RND) F2H_WHOLE(16, RND)
F2H_NEAREST(, )
F2H_NEAREST(_rte, )
F2H_SPLIT(_rtz)
F2H_SPLIT(_rtp)
F2H_SPLIT(_rtn)

/* ---- double -> half ---------------------------------------------------------------------- */
static half double_to_half(double d)
{
    float f = (float)d;
    if ((double)f != d && f == f && !(as_uint(f) & 1)) /* inexact and even: the odd neighbour */
        f = as_float(as_uint(f) + (__builtin_fabs((double)f) < __builtin_fabs(d) ? 1 : -1));
    return (half)f;
}
CONST_FN half convert_half(double x) { return double_to_half(x); }
CONST_FN half convert_half_rte(double x) { return double_to_half(x); }
#define D2H_NEAREST_VEC(RND)                                                                       \
    CONST_FN half2 convert_half2##RND(double2 x) { return (half2)(double_to_half(x.s0), double_to_half(x.s1)); } \
    CONST_FN half3 convert_half3##RND(double3 x)                                                   \
    {                                                                                              \
        return (half3)(double_to_half(x.s0), double_to_half(x.s1), double_to_half(x.s2));          \
    }                                                                                              \
    CONST_FN half4 convert_half4##RND(double4 x) { return (half4)(convert_half2##RND(x.lo), convert_half2##RND(x.hi)); } \
    CONST_FN half8 convert_half8##RND(double8 x) { return (half8)(convert_half4##RND(x.lo), convert_half4##RND(x.hi)); } \
    CONST_FN half16 convert_half16##RND(double16 x) { return (half16)(convert_half8##RND(x.lo), convert_half8##RND(x.hi)); }
D2H_NEAREST_VEC()
D2H_NEAREST_VEC(_rte)

/* through float rounded the same way (the float conversions are convert.cl's) */
#define VIA_FLOAT(W, S, RND)                                                                       \
    CONST_FN float##W convert_float##W##RND(S##W x);                                               \
    CONST_FN half##W convert_half##W##RND(S##W x) { return convert_half##W##RND(convert_float##W##RND(x)); }
#define D2H_DIRECTED(W, _) VIA_FLOAT(W, double, _rtz) VIA_FLOAT(W, double, _rtp) VIA_FLOAT(W, double, _rtn)
EACH_WIDTH(D2H_DIRECTED, )

/* ---- integers -> half -------------------------------------------------------------------- */
#define I2H_MODE(RND, W, S) VIA_FLOAT(W, S, RND)
#define I2H_WIDTH(W, S) EACH_MODE(I2H_MODE, W, S)
#define I2H(S, _) EACH_WIDTH(I2H_WIDTH, S)
EACH_INT(I2H, )

/* ---- half -> half ------------------------------------------------------------------------ */
#define H2H(RND, W) CONST_FN half##W convert_half##W##RND(half##W x) { return x; }
#define H2H_WIDTH(W, _) EACH_MODE(H2H, W)
EACH_WIDTH(H2H_WIDTH, )

/* ---- half -> float, double (exact) ------------------------------------------------------- */
#define H2F(RND, W)                                                                                \
    CONST_FN float##W convert_float##W##RND(half##W x) { return TOF_##W(x); }                      \
    CONST_FN double##W convert_double##W##RND(half##W x) { return TOD_##W(x); }
#define H2F_WIDTH(W, _) EACH_MODE(H2F, W)
EACH_WIDTH(H2F_WIDTH, )

/* ---- half -> integers: float's conversion of the same value ----------------------------- */
#define H2I_SUF(D, W, SUF)                                                                         \
    CONST_FN D##W convert_##D##W##SUF(float##W x);                                                 \
    CONST_FN D##W convert_##D##W##SUF(half##W x) { return convert_##D##W##SUF(TOF_##W(x)); }
#define H2I_MODE(RND, D, W) H2I_SUF(D, W, RND) H2I_SUF(D, W, _sat##RND)
#define H2I_WIDTH(W, D) EACH_MODE(H2I_MODE, D, W)
#define H2I(D, _) EACH_WIDTH(H2I_WIDTH, D)
EACH_INT(H2I, )
