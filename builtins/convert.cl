/* Explicit conversions convert_<dst>[n][_sat][_rte|_rtz|_rtp|_rtn] (OpenCL C
 * 3.0 section 6.4.3) between every pair of char .. double scalars and vectors.
 * Every rounding mode is honoured, including integer -> float and double ->
 * float; _sat clamps (NaN becomes 0). */
#include "builtins.h"

#define IS_SIGNED_char 1
#define IS_SIGNED_uchar 0
#define IS_SIGNED_short 1
#define IS_SIGNED_ushort 0
#define IS_SIGNED_int 1
#define IS_SIGNED_uint 0
#define IS_SIGNED_long 1
#define IS_SIGNED_ulong 0
#define TMIN_char CHAR_MIN
#define TMIN_uchar 0
#define TMIN_short SHRT_MIN
#define TMIN_ushort 0
#define TMIN_int INT_MIN
#define TMIN_uint 0
#define TMIN_long LONG_MIN
#define TMIN_ulong 0
#define TMAX_char CHAR_MAX
#define TMAX_uchar UCHAR_MAX
#define TMAX_short SHRT_MAX
#define TMAX_ushort USHRT_MAX
#define TMAX_int INT_MAX
#define TMAX_uint UINT_MAX
#define TMAX_long LONG_MAX
#define TMAX_ulong ULONG_MAX
#define IS_64_char 0
#define IS_64_uchar 0
#define IS_64_short 0
#define IS_64_ushort 0
#define IS_64_int 0
#define IS_64_uint 0
#define IS_64_long 1
#define IS_64_ulong 1

/* float -> integer rounding (the default for this direction is toward zero) */
#define FROUND_(x) __builtin_trunc(x)
#define FROUND__rtz(x) __builtin_trunc(x)
#define FROUND__rte(x) __builtin_rint(x)
#define FROUND__rtp(x) __builtin_ceil(x)
#define FROUND__rtn(x) __builtin_floor(x)
#define VROUND_(x) (x)
#define VROUND__rtz(x) (x)
#define VROUND__rte(x) __builtin_elementwise_roundeven(x)
#define VROUND__rtp(x) __builtin_elementwise_ceil(x)
#define VROUND__rtn(x) __builtin_elementwise_floor(x)
/* rounding modes as numbers: 0 nearest even, 1 toward zero, 2 up, 3 down */
#define MODE_ 0
#define MODE__rte 0
#define MODE__rtz 1
#define MODE__rtp 2
#define MODE__rtn 3

/* Moves f, the round-to-nearest result, one step when it is on the wrong side
 * of the exact value (cmp: the sign of f - exact; neg: the exact value < 0). */
#define ADJUST(f, cmp, neg, mode, NEXTAFTER, INF)                                                 \
    do {                                                                                          \
        if (mode == 1 && cmp != 0 && (cmp > 0) != (neg))                                          \
            f = NEXTAFTER(f, 0);                                                                  \
        else if (mode == 2 && cmp < 0)                                                            \
            f = NEXTAFTER(f, INF);                                                                \
        else if (mode == 3 && cmp > 0)                                                            \
            f = NEXTAFTER(f, -INF);                                                               \
    } while (0)

/* ---- scalar conversions ------------------------------------------------------------- */
/* integer -> integer */
#define I_I(D, S, SAT, RND)                                                                        \
    CONST_FN D convert_##D##SAT##RND(S x)                                                          \
    {                                                                                              \
        if (!SAT_##SAT)                                                                            \
            return (D)x;                                                                           \
        if (IS_SIGNED_##S) {                                                                       \
            long v = (long)x;                                                                      \
            if (v < (long)TMIN_##D)                                                                \
                return (D)TMIN_##D;                                                                \
            if (v > 0 && (ulong)v > (ulong)TMAX_##D)                                               \
                return (D)TMAX_##D;                                                                \
            return (D)v;                                                                           \
        }                                                                                          \
        ulong v = (ulong)x;                                                                        \
        return v > (ulong)TMAX_##D ? (D)TMAX_##D : (D)v;                                           \
    }
#define SAT_ 0
#define SAT__sat 1

/* float or double -> integer */
#define I_F(D, S, SAT, RND)                                                                        \
    CONST_FN D convert_##D##SAT##RND(S x)                                                          \
    {                                                                                              \
        S r = FROUND_##RND(x);                                                                     \
        if (!SAT_##SAT)                                                                            \
            return (D)r;                                                                           \
        double v = (double)r;                                                                      \
        if (v != v)                                                                                \
            return 0;                                                                              \
        if (v <= (double)TMIN_##D)                                                                 \
            return (D)TMIN_##D;                                                                    \
        if (v >= (double)TMAX_##D)                                                                 \
            return (D)TMAX_##D;                                                                    \
        return (D)v;                                                                               \
    }

/* integer -> float or double */
#define F_I(D, S, RND)                                                                             \
    CONST_FN D convert_##D##RND(S x)                                                               \
    {                                                                                              \
        D f = (D)x;                                                                                \
        if (MODE_##RND == 0)                                                                       \
            return f;                                                                              \
        int cmp;                                                                                   \
        if (!IS_64_##S) {                                                                          \
            double e = (double)x, g = (double)f;                                                   \
            cmp = g < e ? -1 : g > e;                                                              \
        } else if (IS_SIGNED_##S) {                                                                \
            cmp = f >= (D)0x1p63 ? 1 : (long)f < (long)x ? -1 : (long)f > (long)x;                 \
        } else {                                                                                   \
            cmp = f >= (D)0x1p64 ? 1 : (ulong)f < (ulong)x ? -1 : (ulong)f > (ulong)x;             \
        }                                                                                          \
        ADJUST(f, cmp, x < 0, MODE_##RND, NEXTAFTER_##D, INFINITY);                                \
        return f;                                                                                  \
    }
#define NEXTAFTER_float __builtin_nextafterf
#define NEXTAFTER_double __builtin_nextafter

/* float or double -> float or double */
#define F_F(D, S, RND)                                                                             \
    CONST_FN D convert_##D##RND(S x)                                                               \
    {                                                                                              \
        D f = (D)x;                                                                                \
        if (MODE_##RND == 0 || sizeof(D) >= sizeof(S) || x != x)                                   \
            return f;                                                                              \
        double g = (double)f, e = (double)x;                                                       \
        int cmp = g < e ? -1 : g > e;                                                              \
        ADJUST(f, cmp, e < 0, MODE_##RND, NEXTAFTER_##D, INFINITY);                                \
        return f;                                                                                  \
    }

#define ALL_INT_SUFFIXES(X, D, S)                                                                  \
    X(D, S, , ) X(D, S, , _rte) X(D, S, , _rtz) X(D, S, , _rtp) X(D, S, , _rtn)                    \
    X(D, S, _sat, ) X(D, S, _sat, _rte) X(D, S, _sat, _rtz) X(D, S, _sat, _rtp) X(D, S, _sat, _rtn)
#define ALL_FP_SUFFIXES(X, D, S) X(D, S, ) X(D, S, _rte) X(D, S, _rtz) X(D, S, _rtp) X(D, S, _rtn)

/* ---- vector conversions ---------------------------------------------------------------- */
/* element by element, from the scalar (or narrower) function with the same suffix */
#define SPLIT(D, S, SUF)                                                                           \
    CONST_FN D##2 convert_##D##2##SUF(S##2 x) { return (D##2)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1)); } \
    CONST_FN D##3 convert_##D##3##SUF(S##3 x)                                                      \
    {                                                                                              \
        return (D##3)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1), convert_##D##SUF(x.s2));     \
    }                                                                                              \
    CONST_FN D##4 convert_##D##4##SUF(S##4 x) { return (D##4)(convert_##D##2##SUF(x.lo), convert_##D##2##SUF(x.hi)); } \
    CONST_FN D##8 convert_##D##8##SUF(S##8 x) { return (D##8)(convert_##D##4##SUF(x.lo), convert_##D##4##SUF(x.hi)); } \
    CONST_FN D##16 convert_##D##16##SUF(S##16 x) { return (D##16)(convert_##D##8##SUF(x.lo), convert_##D##8##SUF(x.hi)); }
/* in one vector instruction: C semantics plus an optional rounding of the source */
#define WHOLE(D, S, SUF, PRE)                                                                      \
    CONST_FN D##2 convert_##D##2##SUF(S##2 x) { return __builtin_convertvector(PRE(x), D##2); }    \
    CONST_FN D##3 convert_##D##3##SUF(S##3 x) { return __builtin_convertvector(PRE(x), D##3); }    \
    CONST_FN D##4 convert_##D##4##SUF(S##4 x) { return __builtin_convertvector(PRE(x), D##4); }    \
    CONST_FN D##8 convert_##D##8##SUF(S##8 x) { return __builtin_convertvector(PRE(x), D##8); }    \
    CONST_FN D##16 convert_##D##16##SUF(S##16 x) { return __builtin_convertvector(PRE(x), D##16); }
#define NO_ROUND(x) (x)

/* integer -> integer: _sat needs clamping, the rounding modes change nothing */
#define V_I_I(D, S, SAT, RND) V_I_I_##SAT(D, S, SAT##RND)
#define V_I_I_(D, S, SUF) WHOLE(D, S, SUF, NO_ROUND)
#define V_I_I__sat(D, S, SUF) SPLIT(D, S, SUF)
/* float -> integer: without _sat, round then convert */
#define V_I_F(D, S, SAT, RND) V_I_F_##SAT(D, S, RND)
#define V_I_F_(D, S, RND) WHOLE(D, S, RND, VROUND_##RND)
#define V_I_F__sat(D, S, RND) SPLIT(D, S, _sat##RND)
/* to float or double: round to nearest in one go, the other modes per element */
#define V_F(D, S, RND) V_F_##RND(D, S)
#define V_F_(D, S) WHOLE(D, S, , NO_ROUND)
#define V_F__rte(D, S) WHOLE(D, S, _rte, NO_ROUND)
#define V_F__rtz(D, S) SPLIT(D, S, _rtz)
#define V_F__rtp(D, S) SPLIT(D, S, _rtp)
#define V_F__rtn(D, S) SPLIT(D, S, _rtn)

/* ---- every pair -------------------------------------------------------------------------- */
#define FOR_INTS_A(X, ...)                                                                         \
    X(char, __VA_ARGS__) X(uchar, __VA_ARGS__) X(short, __VA_ARGS__) X(ushort, __VA_ARGS__)        \
    X(int, __VA_ARGS__) X(uint, __VA_ARGS__) X(long, __VA_ARGS__) X(ulong, __VA_ARGS__)
#define FOR_INTS_B(X, ...)                                                                         \
    X(char, __VA_ARGS__) X(uchar, __VA_ARGS__) X(short, __VA_ARGS__) X(ushort, __VA_ARGS__)        \
    X(int, __VA_ARGS__) X(uint, __VA_ARGS__) X(long, __VA_ARGS__) X(ulong, __VA_ARGS__)
#define FOR_FPS_A(X, ...) X(float, __VA_ARGS__) X(double, __VA_ARGS__)
#define FOR_FPS_B(X, ...) X(float, __VA_ARGS__) X(double, __VA_ARGS__)

/* (S, D) argument order, so the lists above can supply S */
#define PAIR_I_I(S, D) ALL_INT_SUFFIXES(I_I, D, S) ALL_INT_SUFFIXES(V_I_I, D, S)
#define PAIR_I_F(S, D) ALL_INT_SUFFIXES(I_F, D, S) ALL_INT_SUFFIXES(V_I_F, D, S)
#define PAIR_F_I(S, D) ALL_FP_SUFFIXES(F_I, D, S) ALL_FP_SUFFIXES(V_F, D, S)
#define PAIR_F_F(S, D) ALL_FP_SUFFIXES(F_F, D, S) ALL_FP_SUFFIXES(V_F, D, S)

#define ROW_I_I(D, _) FOR_INTS_B(PAIR_I_I, D)
#define ROW_I_F(D, _) FOR_FPS_B(PAIR_I_F, D)
#define ROW_F_I(D, _) FOR_INTS_B(PAIR_F_I, D)
#define ROW_F_F(D, _) FOR_FPS_B(PAIR_F_F, D)

FOR_INTS_A(ROW_I_I, )
FOR_INTS_A(ROW_I_F, )
FOR_FPS_A(ROW_F_I, )
FOR_FPS_A(ROW_F_F, )
