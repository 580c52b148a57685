/* Dot products and bit operations as SPIR-V instructions (OpSDot, OpUDot,
 * OpSUDot and their AccSat forms; OpBitFieldInsert, OpBitFieldSExtract,
 * OpBitFieldUExtract, OpBitReverse): test_spirv's dot_product_and_bit_ops. */
kernel void dot_bits(global const uint *a, global const uint *b, global const int *acc, global int *out)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    int c = acc[i];
    uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
    char4 sx = as_char4(x), sy = as_char4(y);
    global int *o = out + 12 * i;
    o[0] = (int)dot(ux, uy);
    o[1] = dot(sx, sy);
    o[2] = dot(sx, uy);
    o[3] = (int)dot_acc_sat(ux, uy, (uint)c);
    o[4] = dot_acc_sat(sx, sy, c);
    o[5] = dot_acc_sat(sx, uy, c);
    o[6] = dot_4x8packed_ss_int(x, y);
    uint offset = y % 32, count = (y >> 8) % (33 - offset);
    o[7] = (int)bitfield_insert(x, y, offset, count);
    o[8] = bitfield_extract_signed((int)x, offset, count);
    o[9] = (int)bitfield_extract_unsigned(x, offset, count);
    o[10] = (int)bit_reverse(x);
    o[11] = (int)bit_reverse((ushort)y);
}
