/*
 * The image format table (core/image_format.h; docs/images.md lists it)
 * and the conversion of a fill colour into a pixel.
 */
#include "core/image_format.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- what OpenCL defines --------------------------------------------------- */

static bool packed_type(cl_channel_type t)
{
    return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
}

static bool eight_bit_type(cl_channel_type t)
{
    return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
}

/* Bytes of one channel of a non-packed type; 0 for packed or unknown types. */
static size_t channel_bytes(cl_channel_type t)
{
    switch (t) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
        return 1;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
        return 2;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static bool known_type(cl_channel_type t)
{
    return channel_bytes(t) || packed_type(t) || t == CL_UNORM_INT_101010_2 || t == CL_UNORM_INT24;
}

unsigned mosaic_image_num_channels(cl_channel_order order)
{
    switch (order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH:
        return 1;
    case CL_RG: case CL_RA: case CL_Rx: case CL_DEPTH_STENCIL:
        return 2;
    case CL_RGB: case CL_RGx: case CL_sRGB:
        return 3;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: case CL_RGBx: case CL_sRGBA: case CL_sBGRA:
    case CL_sRGBx:
        return 4;
    default:
        return 0;
    }
}

bool mosaic_image_format_valid(const cl_image_format *f)
{
    cl_channel_order o = f->image_channel_order;
    cl_channel_type t = f->image_channel_data_type;
    if (!mosaic_image_num_channels(o) || !known_type(t))
        return false;
    switch (o) {
    case CL_RGB: case CL_RGBx:
        return packed_type(t);
    case CL_INTENSITY: case CL_LUMINANCE:
        return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
               t == CL_HALF_FLOAT || t == CL_FLOAT;
    case CL_BGRA: case CL_ARGB: case CL_ABGR:
        return eight_bit_type(t);
    case CL_sRGB: case CL_sRGBA: case CL_sBGRA: case CL_sRGBx:
        return t == CL_UNORM_INT8;
    case CL_DEPTH:
        return t == CL_UNORM_INT16 || t == CL_FLOAT;
    case CL_DEPTH_STENCIL:
        return t == CL_UNORM_INT24 || t == CL_FLOAT;
    case CL_RGBA:
        return channel_bytes(t) || t == CL_UNORM_INT_101010_2;
    default: /* CL_R, CL_A, CL_RG, CL_RA, CL_Rx, CL_RGx */
        return channel_bytes(t) != 0;
    }
}

size_t mosaic_image_pixel_size(const cl_image_format *f)
{
    if (!mosaic_image_format_valid(f))
        return 0;
    switch (f->image_channel_data_type) {
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555:
        return 2;
    case CL_UNORM_INT_101010: case CL_UNORM_INT_101010_2:
        return 4;
    case CL_UNORM_INT24: /* CL_DEPTH_STENCIL: 24 bits of depth, 8 of stencil */
        return 4;
    default:
        return channel_bytes(f->image_channel_data_type) * mosaic_image_num_channels(f->image_channel_order);
    }
}

bool mosaic_image_type_is_signed_int(cl_channel_type t)
{
    return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}

bool mosaic_image_type_is_unsigned_int(cl_channel_type t)
{
    return t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

/* ---- what the device supports (docs/images.md) ----------------------------- */

static const cl_channel_type all_types[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
    CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
};
static const cl_channel_type byte_types[] = { CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8 };
static const cl_channel_type luminance_types[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT,
};
static const cl_channel_type packed_types[] = { CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010 };
static const cl_channel_type depth_types[] = { CL_UNORM_INT16, CL_FLOAT };
static const cl_channel_type srgb_types[] = { CL_UNORM_INT8 };

enum {
    ONLY_2D = 1,    /* 2D images and 2D image arrays only (CL_DEPTH) */
    READ_ONLY = 2,  /* kernels read it, never write it (sRGB: no cl_khr_srgb_image_writes) */
};

static const struct {
    cl_channel_order order;
    const cl_channel_type *types;
    size_t num_types;
    unsigned limits;
} table[] = {
#define ROW(order, types, limits) { order, types, COUNT(types), limits }
    ROW(CL_R, all_types, 0),
    ROW(CL_A, all_types, 0),
    ROW(CL_RG, all_types, 0),
    ROW(CL_RGBA, all_types, 0),
    ROW(CL_BGRA, byte_types, 0),
    ROW(CL_ARGB, byte_types, 0),
    ROW(CL_INTENSITY, luminance_types, 0),
    ROW(CL_LUMINANCE, luminance_types, 0),
    ROW(CL_RGB, packed_types, 0),
    ROW(CL_DEPTH, depth_types, ONLY_2D),
    ROW(CL_sRGBA, srgb_types, READ_ONLY),
    ROW(CL_sBGRA, srgb_types, READ_ONLY),
#undef ROW
};

static bool row_allows(unsigned limits, cl_mem_object_type type, bool kernel_writes)
{
    if ((limits & ONLY_2D) && type != CL_MEM_OBJECT_IMAGE2D && type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
        return false;
    if ((limits & READ_ONLY) && kernel_writes)
        return false;
    return true;
}

bool mosaic_image_format_supported(const cl_image_format *f, cl_mem_object_type type)
{
    for (size_t r = 0; r < COUNT(table); r++) {
        if (table[r].order != f->image_channel_order || !row_allows(table[r].limits, type, false))
            continue;
        for (size_t i = 0; i < table[r].num_types; i++)
            if (table[r].types[i] == f->image_channel_data_type)
                return true;
    }
    return false;
}

cl_uint mosaic_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out, cl_uint max)
{
    bool kernel_writes = !(flags & CL_MEM_READ_ONLY);
    cl_uint n = 0;
    for (size_t r = 0; r < COUNT(table); r++) {
        if (!row_allows(table[r].limits, type, kernel_writes))
            continue;
        for (size_t i = 0; i < table[r].num_types; i++, n++)
            if (out && n < max)
                out[n] = (cl_image_format){ table[r].order, table[r].types[i] };
    }
    return n;
}

/* ---- a fill colour as one pixel -------------------------------------------- */

/* Round to nearest even, saturated to [lo, hi]; NaN gives 0 (OpenCL C's
 * convert_<type>_sat_rte). */
static long sat_rte(float v, long lo, long hi)
{
    if (isnan(v))
        return 0;
    if (v <= (float)lo)
        return lo;
    if (v >= (float)hi)
        return hi;
    return (long)nearbyintf(v); /* the default rounding mode: to nearest even */
}

/* float -> half, round to nearest even, with infinities, NaN and denormals. */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
    if (exp == 0xff) /* infinity or NaN (kept a NaN) */
        return sign | 0x7c00u | (mant ? 0x200u | (uint16_t)(mant >> 13) : 0);
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return sign | 0x7c00u; /* overflow: infinity */
    if (e <= 0) {                /* a half denormal, or zero */
        if (e < -10)
            return sign;
        mant |= 0x800000u;       /* the implicit bit */
        unsigned shift = (unsigned)(14 - e);
        uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return sign | (uint16_t)half;
    }
    uint32_t half = ((uint32_t)e << 10) | (mant >> 13), rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent: still right, up to infinity */
    return sign | (uint16_t)half;
}

static float linear_to_srgb(float c)
{
    if (isnan(c) || c <= 0.0f)
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* Where each stored channel comes from in the RGBA colour: 0 R, 1 G, 2 B, 3 A. */
static unsigned channel_source(cl_channel_order order, unsigned c)
{
    switch (order) {
    case CL_A: return 3;
    case CL_RA: return c ? 3 : 0;
    case CL_BGRA: case CL_sBGRA: { static const unsigned m[4] = { 2, 1, 0, 3 }; return m[c]; }
    case CL_ARGB: { static const unsigned m[4] = { 3, 0, 1, 2 }; return m[c]; }
    case CL_ABGR: { static const unsigned m[4] = { 3, 2, 1, 0 }; return m[c]; }
    default: return c; /* R, RG, RGB, RGBA, INTENSITY and LUMINANCE (red), DEPTH (the one value) */
    }
}

static void put(unsigned char *p, const void *v, size_t n) { memcpy(p, v, n); }

void mosaic_image_pack_color(const cl_image_format *format, const void *color, unsigned char *pixel)
{
    cl_channel_order order = format->image_channel_order;
    cl_channel_type type = format->image_channel_data_type;
    float f[4] = { 0, 0, 0, 0 };
    int32_t si[4] = { 0, 0, 0, 0 };
    uint32_t ui[4] = { 0, 0, 0, 0 };
    if (order == CL_DEPTH)
        memcpy(f, color, sizeof(float));
    else if (mosaic_image_type_is_signed_int(type))
        memcpy(si, color, sizeof si);
    else if (mosaic_image_type_is_unsigned_int(type))
        memcpy(ui, color, sizeof ui);
    else
        memcpy(f, color, sizeof f);
    if (order == CL_sRGBA || order == CL_sBGRA || order == CL_sRGB || order == CL_sRGBx)
        for (int c = 0; c < 3; c++)
            f[c] = linear_to_srgb(f[c]);

    switch (type) { /* packed: first channel in the high bits */
    case CL_UNORM_SHORT_565: {
        uint16_t v = (uint16_t)(sat_rte(f[0] * 31.0f, 0, 31) << 11 | sat_rte(f[1] * 63.0f, 0, 63) << 5 |
                                sat_rte(f[2] * 31.0f, 0, 31));
        put(pixel, &v, 2);
        return;
    }
    case CL_UNORM_SHORT_555: {
        uint16_t v = (uint16_t)(sat_rte(f[0] * 31.0f, 0, 31) << 10 | sat_rte(f[1] * 31.0f, 0, 31) << 5 |
                                sat_rte(f[2] * 31.0f, 0, 31));
        put(pixel, &v, 2);
        return;
    }
    case CL_UNORM_INT_101010: {
        uint32_t v = (uint32_t)(sat_rte(f[0] * 1023.0f, 0, 1023) << 20 | sat_rte(f[1] * 1023.0f, 0, 1023) << 10 |
                                sat_rte(f[2] * 1023.0f, 0, 1023));
        put(pixel, &v, 4);
        return;
    }
    default:
        break;
    }
    unsigned n = mosaic_image_num_channels(order);
    size_t bytes = channel_bytes(type);
    for (unsigned c = 0; c < n; c++) {
        unsigned s = channel_source(order, c);
        unsigned char *p = pixel + c * bytes;
        switch (type) {
        case CL_UNORM_INT8: { uint8_t v = (uint8_t)sat_rte(f[s] * 255.0f, 0, 255); put(p, &v, 1); break; }
        case CL_UNORM_INT16: { uint16_t v = (uint16_t)sat_rte(f[s] * 65535.0f, 0, 65535); put(p, &v, 2); break; }
        /* SNORM saturates at -127 / -32767, the codes of -1.0 (the CTS's reference does the same; the
         * spec's convert_char_sat_rte would give -128 below -1.0, which reads back as -1.0 too) */
        case CL_SNORM_INT8: { int8_t v = (int8_t)sat_rte(f[s] * 127.0f, -127, 127); put(p, &v, 1); break; }
        case CL_SNORM_INT16: { int16_t v = (int16_t)sat_rte(f[s] * 32767.0f, -32767, 32767); put(p, &v, 2); break; }
        case CL_HALF_FLOAT: { uint16_t v = float_to_half(f[s]); put(p, &v, 2); break; }
        case CL_FLOAT: put(p, &f[s], 4); break;
        case CL_SIGNED_INT8: {
            int8_t v = (int8_t)(si[s] < -128 ? -128 : si[s] > 127 ? 127 : si[s]);
            put(p, &v, 1);
            break;
        }
        case CL_SIGNED_INT16: {
            int16_t v = (int16_t)(si[s] < -32768 ? -32768 : si[s] > 32767 ? 32767 : si[s]);
            put(p, &v, 2);
            break;
        }
        case CL_SIGNED_INT32: put(p, &si[s], 4); break;
        case CL_UNSIGNED_INT8: { uint8_t v = (uint8_t)(ui[s] > 255 ? 255 : ui[s]); put(p, &v, 1); break; }
        case CL_UNSIGNED_INT16: { uint16_t v = (uint16_t)(ui[s] > 65535 ? 65535 : ui[s]); put(p, &v, 2); break; }
        case CL_UNSIGNED_INT32: put(p, &ui[s], 4); break;
        default: break;
        }
    }
}
