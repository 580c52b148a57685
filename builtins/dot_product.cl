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
