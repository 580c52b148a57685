/* shuffle and shuffle2 (OpenCL C 3.0 section 6.15.14). */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* T##N shuffle(T##M x, U##N mask): component i is x[mask[i] % M] */
#define SHUFFLE(T, U, M, N)                                                                        \
    CONST_FN T##N shuffle(T##M x, U##N mask)                                                       \
    {                                                                                              \
        T##N r;                                                                                    \
        for (int i = 0; i < N; i++)                                                                \
            r[i] = x[mask[i] & (M - 1)];                                                           \
        return r;                                                                                  \
    }                                                                                              \
    CONST_FN T##N shuffle2(T##M x, T##M y, U##N mask)                                              \
    {                                                                                              \
        T##N r;                                                                                    \
        for (int i = 0; i < N; i++) {                                                              \
            uint k = (uint)(mask[i] & (2 * M - 1));                                                \
            r[i] = k < M ? x[k] : y[k - M];                                                        \
        }                                                                                          \
        return r;                                                                                  \
    }
#define SHUFFLE_N(T, U, M) SHUFFLE(T, U, M, 2) SHUFFLE(T, U, M, 4) SHUFFLE(T, U, M, 8) SHUFFLE(T, U, M, 16)
#define SHUFFLE_T(T, U) SHUFFLE_N(T, U, 2) SHUFFLE_N(T, U, 4) SHUFFLE_N(T, U, 8) SHUFFLE_N(T, U, 16)
SHUFFLE_T(char, uchar)
SHUFFLE_T(uchar, uchar)
SHUFFLE_T(short, ushort)
SHUFFLE_T(ushort, ushort)
SHUFFLE_T(int, uint)
SHUFFLE_T(uint, uint)
SHUFFLE_T(long, ulong)
SHUFFLE_T(ulong, ulong)
SHUFFLE_T(float, uint)
SHUFFLE_T(double, ulong)
SHUFFLE_T(half, ushort)
