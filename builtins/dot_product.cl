/* Integer dot products (cl_khr_integer_dot_product, core in OpenCL 3.1): four
 * 8-bit products summed in 32 bits, from vectors of four (un)signed chars or
 * from a uint holding four packed 8-bit values (which byte is which does
 * not matter: both operands are taken apart the same way, and the sum does
 * not depend on the order).  The sum of four products fits 32 bits (at most
 * 4 * 255 * 255), so only the accumulating forms saturate: add_sat. */
#include "builtins.h"

CONST_FN uint dot(uchar4 a, uchar4 b)
{
    uint4 p = convert_uint4(a) * convert_uint4(b);
    return p.x + p.y + p.z + p.w;
}

/* signed or mixed operands: each widened by its own signedness */
#define SIGNED_DOT(A, B)                                                                           \
    CONST_FN int dot(A a, B b)                                                                     \
    {                                                                                              \
        int4 p = convert_int4(a) * convert_int4(b);                                                \
        return p.x + p.y + p.z + p.w;                                                              \
    }                                                                                              \
    CONST_FN int dot_acc_sat(A a, B b, int acc) { return add_sat(dot(a, b), acc); }
SIGNED_DOT(char4, char4)
SIGNED_DOT(uchar4, char4)
SIGNED_DOT(char4, uchar4)

CONST_FN uint dot_acc_sat(uchar4 a, uchar4 b, uint acc) { return add_sat(dot(a, b), acc); }

/* the packed forms: uu, ss, us, su name the signedness of a, then b */
CONST_FN uint dot_4x8packed_uu_uint(uint a, uint b) { return dot(as_uchar4(a), as_uchar4(b)); }
CONST_FN int dot_4x8packed_ss_int(uint a, uint b) { return dot(as_char4(a), as_char4(b)); }
CONST_FN int dot_4x8packed_us_int(uint a, uint b) { return dot(as_uchar4(a), as_char4(b)); }
CONST_FN int dot_4x8packed_su_int(uint a, uint b) { return dot(as_char4(a), as_uchar4(b)); }

CONST_FN uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc)
{
    return dot_acc_sat(as_uchar4(a), as_uchar4(b), acc);
}
CONST_FN int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc)
{
    return dot_acc_sat(as_char4(a), as_char4(b), acc);
}
CONST_FN int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc)
{
    return dot_acc_sat(as_uchar4(a), as_char4(b), acc);
}
CONST_FN int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc)
{
    return dot_acc_sat(as_char4(a), as_uchar4(b), acc);
}

/* ---- the SPIR-V instructions (SPV_KHR_integer_dot_product) ----------------------------
 * llvm-spirv-15 writes OpSDot, OpUDot, OpSUDot and their AccSat forms as calls
 * of these names (docs/spirv.md): SPIR-V's integers have no sign, so the
 * vectors arrive as char4 and the packed operands as int, the instruction's
 * name saying how to read them (S: signed, U: unsigned, SU: the first signed,
 * the second unsigned), followed by PackedVectorFormat4x8Bit (0) for packed
 * operands, and the result type after _R.  Results of 32 bits. */
#define SPIRV_DOT(NAME, R, A4, B4)                                                                 \
    CONST_FN R __spirv_##NAME##DotKHR_R##R(char4 a, char4 b) { return dot(as_##A4(a), as_##B4(b)); } \
    CONST_FN R __spirv_##NAME##DotKHR_R##R(int a, int b, int format)                               \
    {                                                                                              \
        (void)format; /* PackedVectorFormat4x8Bit, the only one */                                 \
        return dot(as_##A4(a), as_##B4(b));                                                        \
    }                                                                                              \
    CONST_FN R __spirv_##NAME##DotAccSatKHR_R##R(char4 a, char4 b, int acc)                        \
    {                                                                                              \
        return dot_acc_sat(as_##A4(a), as_##B4(b), (R)acc);                                        \
    }                                                                                              \
    CONST_FN R __spirv_##NAME##DotAccSatKHR_R##R(int a, int b, int acc, int format)                \
    {                                                                                              \
        (void)format;                                                                              \
        return dot_acc_sat(as_##A4(a), as_##B4(b), (R)acc);                                        \
    }
SPIRV_DOT(S, int, char4, char4)
SPIRV_DOT(U, uint, uchar4, uchar4)
SPIRV_DOT(SU, int, char4, uchar4)
