/* The host's answers for the integer dot products (cl_khr_integer_dot_product),
 * shared by test_core_3_1 (OpenCL C) and test_spirv (SPIR-V's OpSDot & co.). */
#ifndef MOSAIC_TEST_DOT_REF_H
#define MOSAIC_TEST_DOT_REF_H

#include <stdbool.h>
#include <stdint.h>

/* The sum of the products of the four bytes of a and b, each read as signed
 * or unsigned. */
static inline int64_t dot_ref(uint32_t a, uint32_t b, bool a_signed, bool b_signed)
{
    int64_t sum = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t x = (uint8_t)(a >> (8 * k)), y = (uint8_t)(b >> (8 * k));
        sum += (a_signed ? (int64_t)(int8_t)x : (int64_t)x) * (b_signed ? (int64_t)(int8_t)y : (int64_t)y);
    }
    return sum;
}

/* dot_acc_sat's answer: the sum with acc, saturated to uint (unsigned) or int. */
static inline int64_t dot_acc_sat_ref(int64_t dot, int32_t acc, bool is_unsigned)
{
    int64_t sum = dot + (is_unsigned ? (int64_t)(uint32_t)acc : (int64_t)acc);
    int64_t lo = is_unsigned ? 0 : INT32_MIN, hi = is_unsigned ? UINT32_MAX : INT32_MAX;
    return sum < lo ? lo : sum > hi ? hi : sum;
}

#endif
