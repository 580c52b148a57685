/* Relational functions (OpenCL C 3.0 section 6.15.6): scalars answer 1 or 0,
 * vectors -1 (all bits set) or 0 per component. */
#include "builtins.h"

#define EACH_WIDTH(X, ...)                                                                         \
    X(__VA_ARGS__, ) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)
#define VEC_WIDTHS(X, ...) X(__VA_ARGS__, 2) X(__VA_ARGS__, 3) X(__VA_ARGS__, 4) X(__VA_ARGS__, 8) X(__VA_ARGS__, 16)

/* T: float type, R: the result type (int for scalars), I: same-size integer */
#define COMPARE(T, R, I, MINNORM, W)                                                               \
    CONST_FN R isequal(T x, T y) { return x == y; }                                                \
    CONST_FN R isnotequal(T x, T y) { return x != y; }                                             \
    CONST_FN R isgreater(T x, T y) { return x > y; }                                               \
    CONST_FN R isgreaterequal(T x, T y) { return x >= y; }                                         \
    CONST_FN R isless(T x, T y) { return x < y; }                                                  \
    CONST_FN R islessequal(T x, T y) { return x <= y; }                                            \
    CONST_FN R islessgreater(T x, T y) { return x < y || x > y; }                                  \
    CONST_FN R isordered(T x, T y) { return x == x && y == y; }                                    \
    CONST_FN R isunordered(T x, T y) { return x != x || y != y; }                                  \
    CONST_FN R isnan(T x) { return x != x; }                                                       \
    CONST_FN R isfinite(T x) { return __builtin_elementwise_abs(x) < (T)INFINITY; }               \
    CONST_FN R isinf(T x) { return __builtin_elementwise_abs(x) == (T)INFINITY; }                 \
    CONST_FN R isnormal(T x)                                                                       \
    {                                                                                              \
        T a = __builtin_elementwise_abs(x);                                                        \
        return a >= (T)MINNORM && a < (T)INFINITY;                                                 \
    }                                                                                              \
    CONST_FN R signbit(T x) { return as_##I(x) < (I)0; }

#define COMPARE_F(T, I, MINNORM, W) COMPARE(T##W, I##W, I##W, MINNORM, W)
COMPARE(float, int, int, FLT_MIN, )
COMPARE(double, int, long, DBL_MIN, )
VEC_WIDTHS(COMPARE_F, float, int, FLT_MIN)
VEC_WIDTHS(COMPARE_F, double, long, DBL_MIN)

/* any / all look at the most significant bit of signed integers */
#define ANY_ALL(T, W)                                                                              \
    CONST_FN int any(T##W x) { return __builtin_reduce_or(x < (T)0) != 0; }                        \
    CONST_FN int all(T##W x) { return __builtin_reduce_and(x < (T)0) != 0; }
#define ANY_ALL_SCALAR(T)                                                                          \
    CONST_FN int any(T x) { return x < 0; }                                                        \
    CONST_FN int all(T x) { return x < 0; }
ANY_ALL_SCALAR(char) ANY_ALL_SCALAR(short) ANY_ALL_SCALAR(int) ANY_ALL_SCALAR(long)
VEC_WIDTHS(ANY_ALL, char)
VEC_WIDTHS(ANY_ALL, short)
VEC_WIDTHS(ANY_ALL, int)
VEC_WIDTHS(ANY_ALL, long)

/* bitselect: each bit from b where c has it set, else from a */
#define BITSELECT_INT(T, W) CONST_FN T##W bitselect(T##W a, T##W b, T##W c) { return (a & ~c) | (b & c); }
#define BITSELECT_FP(T, I, W)                                                                      \
    CONST_FN T##W bitselect(T##W a, T##W b, T##W c)                                                \
    {                                                                                              \
        return as_##T##W((as_##I##W(a) & ~as_##I##W(c)) | (as_##I##W(b) & as_##I##W(c)));         \
    }
EACH_WIDTH(BITSELECT_INT, char) EACH_WIDTH(BITSELECT_INT, uchar)
EACH_WIDTH(BITSELECT_INT, short) EACH_WIDTH(BITSELECT_INT, ushort)
EACH_WIDTH(BITSELECT_INT, int) EACH_WIDTH(BITSELECT_INT, uint)
EACH_WIDTH(BITSELECT_INT, long) EACH_WIDTH(BITSELECT_INT, ulong)
EACH_WIDTH(BITSELECT_FP, float, int)
EACH_WIDTH(BITSELECT_FP, double, long)

/* select: scalars test c != 0, vectors the most significant bit of each c */
#define SELECT_SCALAR(T, C) CONST_FN T select(T a, T b, C c) { return c ? b : a; }
#define SELECT_VEC(T, C, S, W) CONST_FN T##W select(T##W a, T##W b, C##W c) { return as_##S##W(c) < (S##W)0 ? b : a; }
#define SELECT_TYPE(T, S, U)                                                                       \
    SELECT_SCALAR(T, S) SELECT_SCALAR(T, U) VEC_WIDTHS(SELECT_VEC, T, S, S) VEC_WIDTHS(SELECT_VEC, T, U, S)
SELECT_TYPE(char, char, uchar) SELECT_TYPE(uchar, char, uchar)
SELECT_TYPE(short, short, ushort) SELECT_TYPE(ushort, short, ushort)
SELECT_TYPE(int, int, uint) SELECT_TYPE(uint, int, uint)
SELECT_TYPE(long, long, ulong) SELECT_TYPE(ulong, long, ulong)
SELECT_TYPE(float, int, uint) SELECT_TYPE(double, long, ulong)
