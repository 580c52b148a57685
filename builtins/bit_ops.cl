/* The extended bit operations (cl_khr_extended_bit_ops, core in OpenCL 3.1):
 * bitfield_insert, bitfield_extract_signed / _unsigned and bit_reverse, for
 * every integer type and vector.  A count of 0 selects no bits; offset,
 * count and offset + count beyond the type's width are undefined, and here
 * give whatever OpenCL C's shifts (which take the amount modulo the width)
 * make of them, never a trap.  Each is written on vectors, where OpenCL C
 * keeps the element width; a scalar goes through a vector of 2 (a char or
 * short scalar would be promoted to int). */
#include "builtins.h"

/* The bits [offset, offset + count) of a 64-bit word: the field's mask. */
static inline ulong field_mask(uint offset, uint count)
{
    ulong low = count == 0 ? 0ul : ~0ul >> ((64 - count) & 63);
    return low << (offset & 63);
}

/* T: signed element, U: its unsigned twin, B: bits, W: vector width */
#define FIELDS(T, U, B, W)                                                                         \
    CONST_FN U##W bitfield_insert(U##W base, U##W insert, uint offset, uint count)                 \
    {                                                                                              \
        U##W m = (U##W)(U)field_mask(offset, count);                                               \
        return (base & ~m) | ((insert << (U##W)(U)offset) & m);                                    \
    }                                                                                              \
    CONST_FN T##W bitfield_insert(T##W base, T##W insert, uint offset, uint count)                 \
    {                                                                                              \
        return as_##T##W(bitfield_insert(as_##U##W(base), as_##U##W(insert), offset, count));     \
    }                                                                                              \
    CONST_FN U##W bitfield_extract_unsigned(U##W base, uint offset, uint count)                    \
    {                                                                                              \
        return (base >> (U##W)(U)offset) & (U##W)(U)field_mask(0, count);                          \
    }                                                                                              \
    CONST_FN U##W bitfield_extract_unsigned(T##W base, uint offset, uint count)                    \
    {                                                                                              \
        return bitfield_extract_unsigned(as_##U##W(base), offset, count);                          \
    }                                                                                              \
    CONST_FN T##W bitfield_extract_signed(U##W base, uint offset, uint count)                      \
    {                                                                                              \
        if (count == 0)                                                                            \
            return (T##W)0;                                                                        \
        /* the field's top bit to the element's top, then an arithmetic shift down */              \
        T##W top = as_##T##W(base << (U##W)(U)(B - offset - count));                               \
        return top >> (T##W)(T)(B - count);                                                        \
    }                                                                                              \
    CONST_FN T##W bitfield_extract_signed(T##W base, uint offset, uint count)                      \
    {                                                                                              \
        return bitfield_extract_signed(as_##U##W(base), offset, count);                            \
    }

#define FIELDS_SCALAR(T, U)                                                                        \
    CONST_FN U bitfield_insert(U base, U insert, uint offset, uint count)                          \
    {                                                                                              \
        return bitfield_insert((U##2)(base), (U##2)(insert), offset, count).s0;                    \
    }                                                                                              \
    CONST_FN T bitfield_insert(T base, T insert, uint offset, uint count)                          \
    {                                                                                              \
        return bitfield_insert((T##2)(base), (T##2)(insert), offset, count).s0;                    \
    }                                                                                              \
    CONST_FN U bitfield_extract_unsigned(U base, uint offset, uint count)                          \
    {                                                                                              \
        return bitfield_extract_unsigned((U##2)(base), offset, count).s0;                          \
    }                                                                                              \
    CONST_FN U bitfield_extract_unsigned(T base, uint offset, uint count)                          \
    {                                                                                              \
        return bitfield_extract_unsigned((T##2)(base), offset, count).s0;                          \
    }                                                                                              \
    CONST_FN T bitfield_extract_signed(U base, uint offset, uint count)                            \
    {                                                                                              \
        return bitfield_extract_signed((U##2)(base), offset, count).s0;                            \
    }                                                                                              \
    CONST_FN T bitfield_extract_signed(T base, uint offset, uint count)                            \
    {                                                                                              \
        return bitfield_extract_signed((T##2)(base), offset, count).s0;                            \
    }

/* bit_reverse: swap neighbouring bits, then pairs, nibbles, bytes... up to
 * the element's halves (LLVM recognises the pattern as llvm.bitreverse). */
#define SWAP(x, V, s, m) x = ((x >> (V)(s)) & (V)(m)) | ((x & (V)(m)) << (V)(s));
#define REVERSE_IN_BYTES(x, V) SWAP(x, V, 1, 0x5555555555555555ul) SWAP(x, V, 2, 0x3333333333333333ul) \
    SWAP(x, V, 4, 0x0f0f0f0f0f0f0f0ful)
#define REVERSE_8(x, V) REVERSE_IN_BYTES(x, V)
#define REVERSE_16(x, V) REVERSE_IN_BYTES(x, V) SWAP(x, V, 8, 0x00ff00ff00ff00fful)
#define REVERSE_32(x, V) REVERSE_16(x, V) SWAP(x, V, 16, 0x0000ffff0000fffful)
#define REVERSE_64(x, V) REVERSE_32(x, V) SWAP(x, V, 32, 0x00000000fffffffful)

#define REVERSE(T, U, B, W)                                                                        \
    CONST_FN U##W bit_reverse(U##W x)                                                              \
    {                                                                                              \
        REVERSE_##B(x, U##W) return x;                                                             \
    }                                                                                              \
    CONST_FN T##W bit_reverse(T##W x) { return as_##T##W(bit_reverse(as_##U##W(x))); }

#define VECTORS(T, U, B)                                                                           \
    FIELDS(T, U, B, 2) FIELDS(T, U, B, 3) FIELDS(T, U, B, 4) FIELDS(T, U, B, 8) FIELDS(T, U, B, 16) \
    REVERSE(T, U, B, 2) REVERSE(T, U, B, 3) REVERSE(T, U, B, 4) REVERSE(T, U, B, 8)                 \
    REVERSE(T, U, B, 16) FIELDS_SCALAR(T, U)

VECTORS(char, uchar, 8)
VECTORS(short, ushort, 16)
VECTORS(int, uint, 32)
VECTORS(long, ulong, 64)

CONST_FN uchar bit_reverse(uchar x) { return __builtin_bitreverse8(x); }
CONST_FN char bit_reverse(char x) { return as_char(__builtin_bitreverse8(as_uchar(x))); }
CONST_FN ushort bit_reverse(ushort x) { return __builtin_bitreverse16(x); }
CONST_FN short bit_reverse(short x) { return as_short(__builtin_bitreverse16(as_ushort(x))); }
CONST_FN uint bit_reverse(uint x) { return __builtin_bitreverse32(x); }
CONST_FN int bit_reverse(int x) { return as_int(__builtin_bitreverse32(as_uint(x))); }
CONST_FN ulong bit_reverse(ulong x) { return __builtin_bitreverse64(x); }
CONST_FN long bit_reverse(long x) { return as_long(__builtin_bitreverse64(as_ulong(x))); }
