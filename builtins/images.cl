/* Image read, write and query functions (OpenCL C 3.0 section 6.15.15 and
 * chapter 8, "Image Addressing and Filtering") over the descriptor the
 * runtime passes for each image argument (__mosaic_image_desc, builtins.h).
 * docs/image_builtins.md says what is done how, and why.
 *
 * A sampler is its CLK_* bit set (compiler.h, MOSAIC_SAMPLER_*).  Pixels are
 * decoded by their format (channel data type, then channel order); the
 * formats real programs use most (RGBA/BGRA UNORM_INT8, R/RGBA FLOAT) have
 * short paths tried first, whose conditions are loop-invariant loads from
 * the descriptor, so the optimiser can hoist them out of the work-item loop
 * and unswitch it. */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* cl_channel_order / cl_channel_type values (CL/cl.h; CLK_* in OpenCL C) */
#define ORD_R 0x10B0
#define ORD_A 0x10B1
#define ORD_RG 0x10B2
#define ORD_RA 0x10B3
#define ORD_RGB 0x10B4
#define ORD_RGBA 0x10B5
#define ORD_BGRA 0x10B6
#define ORD_ARGB 0x10B7
#define ORD_INTENSITY 0x10B8
#define ORD_LUMINANCE 0x10B9
#define ORD_Rx 0x10BA
#define ORD_RGx 0x10BB
#define ORD_RGBx 0x10BC
#define ORD_DEPTH 0x10BD
#define ORD_sRGB 0x10BF
#define ORD_sRGBx 0x10C0
#define ORD_sRGBA 0x10C1
#define ORD_sBGRA 0x10C2
#define ORD_ABGR 0x10C3

#define T_SNORM_INT8 0x10D0
#define T_SNORM_INT16 0x10D1
#define T_UNORM_INT8 0x10D2
#define T_UNORM_INT16 0x10D3
#define T_UNORM_SHORT_565 0x10D4
#define T_UNORM_SHORT_555 0x10D5
#define T_UNORM_INT_101010 0x10D6
#define T_SIGNED_INT8 0x10D7
#define T_SIGNED_INT16 0x10D8
#define T_SIGNED_INT32 0x10D9
#define T_UNSIGNED_INT8 0x10DA
#define T_UNSIGNED_INT16 0x10DB
#define T_UNSIGNED_INT32 0x10DC
#define T_HALF_FLOAT 0x10DD
#define T_FLOAT 0x10DE
#define T_UNORM_INT_101010_2 0x10E0

#define S_NORMALIZED 0x1u
#define S_ADDRESS 0xeu
#define S_CLAMP_TO_EDGE 0x2u
#define S_CLAMP 0x4u
#define S_REPEAT 0x6u
#define S_MIRRORED 0x8u
#define S_LINEAR 0x20u

typedef const __global __mosaic_image_desc desc_t;

#define DESC(img) __mosaic_image(__builtin_astype((img), const __global void *))
#define SAMPLER(s) ((uint)(ulong)__builtin_astype((s), __constant void *))

/* samplers declared in the source: clang passes their value here */
__constant void *__translate_sampler_initializer(int bits) { return (__constant void *)(ulong)(uint)bits; }

/* ---- where a pixel is ----------------------------------------------------------
 * (x, y, z): z is the slice of a 3D image or the layer of an array (a 1D
 * array's layer too: its rows are slice_pitch apart). */
static __global uchar *pixel_at(desc_t *d, int x, int y, int z)
{
    return d->data + (long)z * (long)d->slice_pitch + (long)y * (long)d->row_pitch + (long)x * (long)d->pixel_size;
}

/* The border colour of a format: alpha 1 where the order has no alpha. */
static int has_alpha(uint order)
{
    return !(order == ORD_R || order == ORD_RG || order == ORD_RGB || order == ORD_LUMINANCE ||
             order == ORD_sRGB || order == ORD_DEPTH);
}

/* ---- storage order <-> (r, g, b, a) ----------------------------------------------
 * c holds the stored channels in their order (c.s0 first); missing colour
 * channels read as 0 and a missing alpha as 1 (`one`). */
#define ORDER_FNS(T)                                                                               \
    static T##4 order_to_rgba_##T(uint order, T##4 c, T one)                                       \
    {                                                                                              \
        switch (order) {                                                                           \
        case ORD_R: case ORD_Rx: case ORD_DEPTH: return (T##4)(c.x, 0, 0, one);                    \
        case ORD_A: return (T##4)(0, 0, 0, c.x);                                                   \
        case ORD_RG: case ORD_RGx: return (T##4)(c.x, c.y, 0, one);                                \
        case ORD_RA: return (T##4)(c.x, 0, 0, c.y);                                                \
        case ORD_RGB: case ORD_RGBx: case ORD_sRGB: case ORD_sRGBx: return (T##4)(c.x, c.y, c.z, one); \
        case ORD_BGRA: case ORD_sBGRA: return c.zyxw;                                              \
        case ORD_ARGB: return c.yzwx;                                                              \
        case ORD_ABGR: return c.wzyx;                                                              \
        case ORD_INTENSITY: return c.xxxx;                                                         \
        case ORD_LUMINANCE: return (T##4)(c.x, c.x, c.x, one);                                     \
        default: return c;                                                                         \
        }                                                                                          \
    }                                                                                              \
    static T##4 rgba_to_order_##T(uint order, T##4 v)                                              \
    {                                                                                              \
        switch (order) {                                                                           \
        case ORD_A: return v.wwww;                                                                 \
        case ORD_RA: return v.xwzw;                                                                \
        case ORD_BGRA: case ORD_sBGRA: return v.zyxw;                                              \
        case ORD_ARGB: return v.wxyz;                                                              \
        case ORD_ABGR: return v.wzyx;                                                              \
        default: return v;                                                                         \
        }                                                                                          \
    }
ORDER_FNS(float)
ORDER_FNS(int)

/* ---- channel conversions (OpenCL C 3.0 section 8.3) ------------------------------- */
static float unorm8(uint c) { return (float)c * (1.0f / 255.0f); }
static float unorm16(uint c) { return (float)c * (1.0f / 65535.0f); }
static float snorm8(int c) { return fmax(-1.0f, (float)c * (1.0f / 127.0f)); }
static float snorm16(int c) { return fmax(-1.0f, (float)c * (1.0f / 32767.0f)); }

/* round to nearest even after scaling, saturated (NaN gives lo's side: 0) */
static uint to_unorm(float f, float scale)
{
    float x = fmin(fmax(f * scale, 0.0f), scale);
    return (uint)rint(x);
}
static int to_snorm(float f, float scale)
{
    float x = fmin(fmax(f * scale, -scale - 1.0f), scale);
    return isnan(f) ? 0 : (int)rint(x);
}

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : (float)pow(((double)c + 0.055) / 1.055, 2.4);
}
static float linear_to_srgb(float c)
{
    if (isnan(c))
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    if (c <= 0.0f)
        return 0.0f;
    if (c < 0.0031308f)
        return 12.92f * c;
    return (float)(1.055 * pow((double)c, 1.0 / 2.4) - 0.055);
}
static int is_srgb(uint order) { return order >= ORD_sRGB && order <= ORD_sBGRA; }

/* ---- pixels as float4 (read_imagef) ----------------------------------------------- */
#define LOAD_CHANNELS(T, p, n, CONV)                                                               \
    ({                                                                                             \
        const __global T *q_ = (const __global T *)(p);                                            \
        float4 c_ = (float4)(CONV(q_[0]), 0.0f, 0.0f, 0.0f);                                       \
        if ((n) > 1) c_.y = CONV(q_[1]);                                                           \
        if ((n) > 2) c_.z = CONV(q_[2]);                                                           \
        if ((n) > 3) c_.w = CONV(q_[3]);                                                           \
        c_;                                                                                        \
    })
#define AS_FLOAT(x) ((float)(x))
#define HALF_TO_FLOAT(x) vload_half(0, (const __global half *)&(x))

static float4 decode_f(desc_t *d, const __global uchar *p)
{
    uint type = d->channel_data_type, order = d->channel_order, n = d->num_channels;
    float4 c;
    switch (type) {
    case T_UNORM_SHORT_565: {
        uint v = *(const __global ushort *)p;
        return (float4)((float)(v >> 11) / 31.0f, (float)((v >> 5) & 63) / 63.0f, (float)(v & 31) / 31.0f, 1.0f);
    }
    case T_UNORM_SHORT_555: {
        uint v = *(const __global ushort *)p;
        return (float4)((float)((v >> 10) & 31) / 31.0f, (float)((v >> 5) & 31) / 31.0f, (float)(v & 31) / 31.0f,
                        1.0f);
    }
    case T_UNORM_INT_101010: {
        uint v = *(const __global uint *)p;
        return (float4)((float)((v >> 20) & 1023) / 1023.0f, (float)((v >> 10) & 1023) / 1023.0f,
                        (float)(v & 1023) / 1023.0f, 1.0f);
    }
    case T_UNORM_INT_101010_2: {
        uint v = *(const __global uint *)p;
        return (float4)((float)(v >> 22) / 1023.0f, (float)((v >> 12) & 1023) / 1023.0f,
                        (float)((v >> 2) & 1023) / 1023.0f, (float)(v & 3) / 3.0f);
    }
    case T_UNORM_INT8: c = LOAD_CHANNELS(uchar, p, n, unorm8); break;
    case T_UNORM_INT16: c = LOAD_CHANNELS(ushort, p, n, unorm16); break;
    case T_SNORM_INT8: c = LOAD_CHANNELS(char, p, n, snorm8); break;
    case T_SNORM_INT16: c = LOAD_CHANNELS(short, p, n, snorm16); break;
    case T_HALF_FLOAT: c = LOAD_CHANNELS(ushort, p, n, HALF_TO_FLOAT); break;
    case T_FLOAT: c = LOAD_CHANNELS(float, p, n, AS_FLOAT); break;
    /* read_imagef of an integer format is undefined: the values as floats */
    case T_SIGNED_INT8: c = LOAD_CHANNELS(char, p, n, AS_FLOAT); break;
    case T_SIGNED_INT16: c = LOAD_CHANNELS(short, p, n, AS_FLOAT); break;
    case T_SIGNED_INT32: c = LOAD_CHANNELS(int, p, n, AS_FLOAT); break;
    case T_UNSIGNED_INT8: c = LOAD_CHANNELS(uchar, p, n, AS_FLOAT); break;
    case T_UNSIGNED_INT16: c = LOAD_CHANNELS(ushort, p, n, AS_FLOAT); break;
    default: c = LOAD_CHANNELS(uint, p, n, AS_FLOAT); break;
    }
    float4 v = order_to_rgba_float(order, c, 1.0f);
    if (is_srgb(order))
        v = (float4)(srgb_to_linear(v.x), srgb_to_linear(v.y), srgb_to_linear(v.z), v.w);
    return v;
}

/* The rare paths stay out of line (finalize keeps "__mosaic_outlined_*"
 * functions as calls, docs/image_builtins.md): inlined, each would put
 * hundreds of instructions into the work-item loop, too many for the
 * optimiser to unswitch the loop on the format and vectorise it. */
#define OUTLINED __attribute__((noinline))
OUTLINED float4 __mosaic_outlined_decode_f(desc_t *d, const __global uchar *p) { return decode_f(d, p); }

/* A 4-byte pixel as one 32-bit word and its bytes as floats (c.x the
 * lowest byte: the target is little-endian).  One word a work-item, not
 * four byte loads: across work-items the loop vectoriser then loads a row's
 * pixels as one vector of words (or gathers words where the pixels are
 * not consecutive) and the channels are shifts of it. */
static float4 bytes_of_word(uint w)
{
    return (float4)((float)(w & 0xffu), (float)((w >> 8) & 0xffu), (float)((w >> 16) & 0xffu), (float)(w >> 24));
}
static uint word_of_bytes(uint4 c) { return c.x | c.y << 8 | c.z << 16 | c.w << 24; }

/* The pixel at (x, y, z), which is inside the image.  The common formats
 * first: their tests are invariant in a kernel, so after unswitching a loop
 * over pixels sees straight-line code. */
static float4 fetch_f(desc_t *d, int x, int y, int z)
{
    const __global uchar *p = pixel_at(d, x, y, z);
    uint type = d->channel_data_type, order = d->channel_order;
    if (type == T_UNORM_INT8 && order == ORD_RGBA)
        return bytes_of_word(*(const __global uint *)p) * (1.0f / 255.0f);
    if (type == T_FLOAT && order == ORD_RGBA)
        return *(const __global float4 *)p;
    if (type == T_UNORM_INT8 && order == ORD_BGRA)
        return bytes_of_word(*(const __global uint *)p).zyxw * (1.0f / 255.0f);
    if (type == T_FLOAT && order == ORD_R)
        return (float4)(*(const __global float *)p, 0.0f, 0.0f, 1.0f);
    return __mosaic_outlined_decode_f(d, p);
}

/* Two neighbours along x for a linear filter, (x, y, z) and (x + 1, y, z),
 * both inside, as one load where the format allows: across work-items one
 * gather of 8-byte words (an UNORM_INT8 pair) instead of two of 4-byte
 * ones.  The UNORM_INT8 formats' channels stay bytes as floats, 0..255
 * (pair_scale: the filter blends them and scales the result once). */
typedef uint pair_words __attribute__((ext_vector_type(2), aligned(4)));
typedef float pair_floats __attribute__((ext_vector_type(8), aligned(4)));
typedef float pair_r __attribute__((ext_vector_type(2), aligned(4)));
static float pair_scale(desc_t *d)
{
    uint type = d->channel_data_type, order = d->channel_order;
    return type == T_UNORM_INT8 && (order == ORD_RGBA || order == ORD_BGRA) ? 1.0f / 255.0f : 1.0f;
}
static float4 fetch_raw_f(desc_t *d, int x, int y, int z)
{
    uint type = d->channel_data_type, order = d->channel_order;
    if (type == T_UNORM_INT8 && (order == ORD_RGBA || order == ORD_BGRA)) {
        float4 v = bytes_of_word(*(const __global uint *)pixel_at(d, x, y, z));
        return order == ORD_BGRA ? v.zyxw : v;
    }
    return fetch_f(d, x, y, z);
}
static void fetch_pair_f(desc_t *d, int x, int y, int z, float4 *p0, float4 *p1)
{
    const __global uchar *p = pixel_at(d, x, y, z);
    uint type = d->channel_data_type, order = d->channel_order;
    if (type == T_UNORM_INT8 && (order == ORD_RGBA || order == ORD_BGRA)) {
        pair_words w = *(const __global pair_words *)p;
        *p0 = bytes_of_word(w.x), *p1 = bytes_of_word(w.y);
        if (order == ORD_BGRA)
            *p0 = p0->zyxw, *p1 = p1->zyxw;
    } else if (type == T_FLOAT && order == ORD_RGBA) {
        pair_floats v = *(const __global pair_floats *)p;
        *p0 = v.lo, *p1 = v.hi;
    } else if (type == T_FLOAT && order == ORD_R) {
        pair_r v = *(const __global pair_r *)p;
        *p0 = (float4)(v.x, 0.0f, 0.0f, 1.0f), *p1 = (float4)(v.y, 0.0f, 0.0f, 1.0f);
    } else {
        *p0 = fetch_f(d, x, y, z), *p1 = fetch_f(d, x + 1, y, z);
    }
}

/* ---- pixels as int4 / uint4 (read_imagei, read_imageui) ---------------------------
 * The channels' bits, sign- or zero-extended as the data type says. */
OUTLINED int4 __mosaic_outlined_fetch_i(desc_t *d, int x, int y, int z)
{
    const __global uchar *p = pixel_at(d, x, y, z);
    uint type = d->channel_data_type, order = d->channel_order, n = d->num_channels;
    int4 c;
#define LOAD_INT_CHANNELS(T)                                                                       \
    ({                                                                                             \
        const __global T *q_ = (const __global T *)p;                                              \
        int4 c_ = (int4)((int)q_[0], 0, 0, 0);                                                     \
        if (n > 1) c_.y = (int)q_[1];                                                              \
        if (n > 2) c_.z = (int)q_[2];                                                              \
        if (n > 3) c_.w = (int)q_[3];                                                              \
        c_;                                                                                        \
    })
    switch (type) {
    case T_SIGNED_INT8: c = LOAD_INT_CHANNELS(char); break;
    case T_SIGNED_INT16: c = LOAD_INT_CHANNELS(short); break;
    case T_UNSIGNED_INT8: case T_UNORM_INT8: c = LOAD_INT_CHANNELS(uchar); break;
    case T_UNSIGNED_INT16: case T_UNORM_INT16: case T_HALF_FLOAT: c = LOAD_INT_CHANNELS(ushort); break;
    case T_SNORM_INT8: c = LOAD_INT_CHANNELS(char); break;
    case T_SNORM_INT16: c = LOAD_INT_CHANNELS(short); break;
    default: c = LOAD_INT_CHANNELS(int); break;
    }
#undef LOAD_INT_CHANNELS
    return order_to_rgba_int(order, c, 1);
}

/* ---- writing a pixel ---------------------------------------------------------------
 * Out-of-range coordinates are undefined in OpenCL; here they write nothing. */
#define STORE_CHANNELS(T, p, n, v, CONV)                                                           \
    do {                                                                                           \
        __global T *q_ = (__global T *)(p);                                                        \
        q_[0] = (T)CONV((v).x);                                                                    \
        if ((n) > 1) q_[1] = (T)CONV((v).y);                                                       \
        if ((n) > 2) q_[2] = (T)CONV((v).z);                                                       \
        if ((n) > 3) q_[3] = (T)CONV((v).w);                                                       \
    } while (0)
#define TO_UNORM8(f) to_unorm(f, 255.0f)
#define TO_UNORM16(f) to_unorm(f, 65535.0f)
#define TO_SNORM8(f) to_snorm(f, 127.0f)
#define TO_SNORM16(f) to_snorm(f, 32767.0f)
#define SAME(f) (f)

static ushort half_bits(float f)
{
    ushort h;
    vstore_half_rte(f, 0, (__private half *)&h);
    return h;
}

OUTLINED void __mosaic_outlined_encode_f(desc_t *d, __global uchar *p, float4 v)
{
    uint type = d->channel_data_type, order = d->channel_order, n = d->num_channels;
    if (is_srgb(order))
        v = (float4)(linear_to_srgb(v.x), linear_to_srgb(v.y), linear_to_srgb(v.z), v.w);
    switch (type) {
    case T_UNORM_SHORT_565:
        *(__global ushort *)p = (ushort)(to_unorm(v.x, 31.0f) << 11 | to_unorm(v.y, 63.0f) << 5 | to_unorm(v.z, 31.0f));
        return;
    case T_UNORM_SHORT_555:
        *(__global ushort *)p = (ushort)(to_unorm(v.x, 31.0f) << 10 | to_unorm(v.y, 31.0f) << 5 | to_unorm(v.z, 31.0f));
        return;
    case T_UNORM_INT_101010:
        *(__global uint *)p = to_unorm(v.x, 1023.0f) << 20 | to_unorm(v.y, 1023.0f) << 10 | to_unorm(v.z, 1023.0f);
        return;
    case T_UNORM_INT_101010_2:
        *(__global uint *)p = to_unorm(v.x, 1023.0f) << 22 | to_unorm(v.y, 1023.0f) << 12 |
                              to_unorm(v.z, 1023.0f) << 2 | to_unorm(v.w, 3.0f);
        return;
    default:
        break;
    }
    float4 c = rgba_to_order_float(order, v);
    switch (type) {
    case T_UNORM_INT8: STORE_CHANNELS(uchar, p, n, c, TO_UNORM8); break;
    case T_UNORM_INT16: STORE_CHANNELS(ushort, p, n, c, TO_UNORM16); break;
    case T_SNORM_INT8: STORE_CHANNELS(char, p, n, c, TO_SNORM8); break;
    case T_SNORM_INT16: STORE_CHANNELS(short, p, n, c, TO_SNORM16); break;
    case T_HALF_FLOAT: STORE_CHANNELS(ushort, p, n, c, half_bits); break;
    case T_FLOAT: STORE_CHANNELS(float, p, n, c, SAME); break;
    default: break; /* write_imagef to an integer format is undefined: nothing */
    }
}

static void store_f(desc_t *d, int x, int y, int z, float4 v)
{
    __global uchar *p = pixel_at(d, x, y, z);
    uint type = d->channel_data_type, order = d->channel_order;
    if (type == T_UNORM_INT8 && order == ORD_RGBA) {
        *(__global uint *)p = word_of_bytes(convert_uint4(rint(fmin(fmax(v * 255.0f, 0.0f), 255.0f))));
        return;
    }
    if (type == T_FLOAT && order == ORD_RGBA) {
        *(__global float4 *)p = v;
        return;
    }
    __mosaic_outlined_encode_f(d, p, v);
}

/* write_imageh: a half is exactly a float, so write_imagef's conversions
 * (a CL_HALF_FLOAT image gets the same bits back) */
static void store_h(desc_t *d, int x, int y, int z, half4 v) { store_f(d, x, y, z, __builtin_convertvector(v, float4)); }

/* read_imageh: read_imagef's value rounded to half (to nearest even) */
#define TO_HALF4(v) __builtin_convertvector((v), half4)

/* write_imagei / write_imageui: saturated to the channel type */
#define SAT_CHAR(i) clamp(i, -128, 127)
#define SAT_SHORT(i) clamp(i, -32768, 32767)
#define SAT_UCHAR(u) min(u, 255u)
#define SAT_USHORT(u) min(u, 65535u)
OUTLINED void __mosaic_outlined_store_i(desc_t *d, int x, int y, int z, int4 v)
{
    __global uchar *p = pixel_at(d, x, y, z);
    uint n = d->num_channels;
    int4 c = rgba_to_order_int(d->channel_order, v);
    switch (d->channel_data_type) {
    case T_SIGNED_INT8: STORE_CHANNELS(char, p, n, c, SAT_CHAR); break;
    case T_SIGNED_INT16: STORE_CHANNELS(short, p, n, c, SAT_SHORT); break;
    case T_SIGNED_INT32: STORE_CHANNELS(int, p, n, c, SAME); break;
    default: break;
    }
}
OUTLINED void __mosaic_outlined_store_ui(desc_t *d, int x, int y, int z, uint4 v)
{
    __global uchar *p = pixel_at(d, x, y, z);
    uint n = d->num_channels;
    uint4 c = as_uint4(rgba_to_order_int(d->channel_order, as_int4(v)));
    switch (d->channel_data_type) {
    case T_UNSIGNED_INT8: STORE_CHANNELS(uchar, p, n, c, SAT_UCHAR); break;
    case T_UNSIGNED_INT16: STORE_CHANNELS(ushort, p, n, c, SAT_USHORT); break;
    case T_UNSIGNED_INT32: STORE_CHANNELS(uint, p, n, c, SAME); break;
    default: break;
    }
}

/* ---- image geometry -----------------------------------------------------------------
 * dims: 1, 2 or 3 coordinates address pixels; arr: the next one is a layer. */
static int size_x(desc_t *d) { return (int)d->width; }
static int size_y(desc_t *d, int dims) { return dims >= 2 ? (int)d->height : 1; }
static int size_z(desc_t *d, int dims, int arr) { return arr ? (int)d->array_size : dims == 3 ? (int)d->depth : 1; }

/* Coordinate clamps and tests the compiler knows (src/compiler/images/image_rows.c):
 * where a work-group row's reads and writes cannot leave the image it makes
 * them the identity and true, so addresses are affine in x; elsewhere they are
 * clamp(i, 0, n - 1) and (uint)i < (uint)n. */
int __mosaic_edge_clamp_x(int i, int n) __attribute__((const));
int __mosaic_inside(int i, int n) __attribute__((const));

static int in_image(desc_t *d, int dims, int arr, int x, int y, int z)
{
    return __mosaic_inside(x, size_x(d)) && __mosaic_inside(y, size_y(d, dims)) && __mosaic_inside(z, size_z(d, dims, arr));
}

/* A layer index from a sampled read: clamp(rint(c), 0, layers - 1). */
static int layer_of(float c, int layers)
{
    float l = fmin(fmax(rint(c), 0.0f), (float)(layers - 1));
    return (int)l;
}

/* ---- samplers (chapter 8) -------------------------------------------------------------
 * One axis: the texel index for a nearest filter, or the two indices and the
 * weight of the second for a linear one.  CLK_ADDRESS_NONE is treated as
 * CLK_ADDRESS_CLAMP (the spec leaves the result outside the image undefined;
 * the border keeps the read inside the image). */
static float limit(float u) { return fmin(fmax(u, -0x1p30f), 0x1p30f); } /* NaN -> -2^30 */

static int nearest_index(uint s, float c, int n)
{
    uint addr = s & S_ADDRESS;
    if (addr == S_REPEAT) {
        int i = (int)floor(limit((c - floor(c)) * (float)n));
        return i > n - 1 ? i - n : i;
    }
    if (addr == S_MIRRORED) {
        float m = fabs(c - 2.0f * rint(0.5f * c));
        return min((int)floor(limit(m * (float)n)), n - 1);
    }
    float u = (s & S_NORMALIZED) ? c * (float)n : c;
    int i = (int)floor(limit(u));
    return addr == S_CLAMP_TO_EDGE ? clamp(i, 0, n - 1) : clamp(i, -1, n);
}

static int linear_indices(uint s, float c, int n, int *i1, float *a)
{
    uint addr = s & S_ADDRESS;
    float u;
    if (addr == S_REPEAT)
        u = (c - floor(c)) * (float)n;
    else if (addr == S_MIRRORED)
        u = fabs(c - 2.0f * rint(0.5f * c)) * (float)n;
    else
        u = (s & S_NORMALIZED) ? c * (float)n : c;
    u = limit(u) - 0.5f;
    float f = floor(u);
    *a = u - f;
    int i0 = (int)f, j = i0 + 1;
    if (addr == S_REPEAT) {
        i0 = i0 < 0 ? i0 + n : i0;
        j = j > n - 1 ? j - n : j;
    } else if (addr == S_MIRRORED) {
        i0 = max(i0, 0);
        j = min(j, n - 1);
    } else if (addr == S_CLAMP_TO_EDGE) {
        i0 = clamp(i0, 0, n - 1);
        j = clamp(j, 0, n - 1);
    }
    *i1 = j;
    return i0;
}

static float4 border_f(desc_t *d) { return (float4)(0.0f, 0.0f, 0.0f, has_alpha(d->channel_order) ? 0.0f : 1.0f); }
static int4 border_i(desc_t *d) { return (int4)(0, 0, 0, has_alpha(d->channel_order) ? 0 : 1); }

/* The pixel at (x, y, z) or the border colour outside the image. */
static float4 texel_f(desc_t *d, int dims, int arr, int x, int y, int z)
{
    return in_image(d, dims, arr, x, y, z) ? fetch_f(d, x, y, z) : border_f(d);
}

/* read_imagef with a sampler and float coordinates c (c.x, then c.y and c.z
 * as dims and arr say): every sampler. */
OUTLINED float4 __mosaic_outlined_sample_f(desc_t *d, uint s, float4 c, int dims, int arr)
{
    int nx = size_x(d), ny = size_y(d, dims), nz = size_z(d, dims, arr);
    float cy = c.y, cz = arr && dims == 1 ? c.y : c.z; /* a 1D array's layer is its second coordinate */
    if (!(s & S_LINEAR)) {
        int x = nearest_index(s, c.x, nx);
        int y = dims >= 2 ? nearest_index(s, cy, ny) : 0;
        int z = arr ? layer_of(cz, nz) : dims == 3 ? nearest_index(s, cz, nz) : 0;
        return texel_f(d, dims, arr, x, y, z);
    }
    int x1, y1 = 0, z1 = 0;
    float a, b = 0.0f, g = 0.0f;
    int x0 = linear_indices(s, c.x, nx, &x1, &a);
    int y0 = dims >= 2 ? linear_indices(s, cy, ny, &y1, &b) : 0;
    int z0 = arr ? layer_of(cz, nz) : dims == 3 ? linear_indices(s, cz, nz, &z1, &g) : 0;
    if (arr)
        z1 = z0;
    float4 t = (1.0f - a) * texel_f(d, dims, arr, x0, y0, z0) + a * texel_f(d, dims, arr, x1, y0, z0);
    if (dims == 1)
        return t;
    float4 t1 = (1.0f - a) * texel_f(d, dims, arr, x0, y1, z0) + a * texel_f(d, dims, arr, x1, y1, z0);
    t = (1.0f - b) * t + b * t1;
    if (dims == 2)
        return t;
    float4 u0 = (1.0f - a) * texel_f(d, dims, arr, x0, y0, z1) + a * texel_f(d, dims, arr, x1, y0, z1);
    float4 u1 = (1.0f - a) * texel_f(d, dims, arr, x0, y1, z1) + a * texel_f(d, dims, arr, x1, y1, z1);
    return (1.0f - g) * t + g * ((1.0f - b) * u0 + b * u1);
}

/* The common samplers inline: CLK_ADDRESS_CLAMP_TO_EDGE, nearest or linear
 * (every texel is inside the image); the others out of line. */
static int edge_index(uint s, float c, int n)
{
    float u = (s & S_NORMALIZED) ? c * (float)n : c;
    return clamp((int)floor(limit(u)), 0, n - 1);
}
/* The first texel's index before the clamp, floor(u - 0.5), and the
 * second's weight. */
static int edge_start(uint s, float c, int n, float *a)
{
    float u = limit((s & S_NORMALIZED) ? c * (float)n : c) - 0.5f;
    float f = floor(u);
    *a = u - f;
    return (int)f;
}
static int edge_indices(uint s, float c, int n, int *i1, float *a)
{
    int i0 = edge_start(s, c, n, a);
    *i1 = clamp(i0 + 1, 0, n - 1);
    return clamp(i0, 0, n - 1);
}
/* Texels clamp(i, 0, n - 1) and clamp(i + 1, 0, n - 1) of row (y, z),
 * blended, before pair_scale.  With two pixels or more both are among
 * pixels k and k + 1, k = clamp(i, 0, n - 2): one pair read, whatever i
 * (the test of n is one the rows inside take as true:
 * image_bounds_versioning.c). */
static float4 edge_lerp_x(desc_t *d, int i, int n, int y, int z, float a)
{
    float4 p0, p1;
    if (__mosaic_inside(1, n)) {
        float4 lo, hi;
        fetch_pair_f(d, clamp(i, 0, n - 2), y, z, &lo, &hi);
        if (pair_scale(d) != 1.0f) {
            /* bytes: finite, so moving the weight to the one texel read
             * gives it exactly, (1 - 0) * lo + 0 * hi == lo */
            float w = i < 0 ? 0.0f : i > n - 2 ? 1.0f : a;
            return (1.0f - w) * lo + w * hi;
        }
        p0 = i > n - 2 ? hi : lo; /* (0 * hi would be NaN for an infinite hi) */
        p1 = i < 0 ? lo : hi;
    } else {
        p0 = p1 = fetch_raw_f(d, 0, y, z);
    }
    return (1.0f - a) * p0 + a * p1;
}
static float4 sample_f(desc_t *d, uint s, float4 c, int dims, int arr)
{
    if ((s & S_ADDRESS) != S_CLAMP_TO_EDGE)
        return __mosaic_outlined_sample_f(d, s, c, dims, arr);
    int nx = size_x(d), ny = size_y(d, dims), nz = size_z(d, dims, arr);
    float cz = arr && dims == 1 ? c.y : c.z;
    if (!(s & S_LINEAR)) {
        int x = edge_index(s, c.x, nx);
        int y = dims >= 2 ? edge_index(s, c.y, ny) : 0;
        int z = arr ? layer_of(cz, nz) : dims == 3 ? edge_index(s, cz, nz) : 0;
        return fetch_f(d, x, y, z);
    }
    int y1 = 0, z1 = 0;
    float a, b = 0.0f, g = 0.0f;
    int x0 = edge_start(s, c.x, nx, &a);
    int y0 = dims >= 2 ? edge_indices(s, c.y, ny, &y1, &b) : 0;
    int z0 = arr ? layer_of(cz, nz) : dims == 3 ? edge_indices(s, cz, nz, &z1, &g) : 0;
    /* the scale goes into the last blend's weights (1 for the other formats:
     * the same weights) */
    float k = pair_scale(d);
    float4 t = edge_lerp_x(d, x0, nx, y0, z0, a);
    if (dims == 1)
        return t * k;
    float4 t1 = edge_lerp_x(d, x0, nx, y1, z0, a);
    if (dims == 2)
        return ((1.0f - b) * k) * t + (b * k) * t1;
    t = (1.0f - b) * t + b * t1;
    float4 u = (1.0f - b) * edge_lerp_x(d, x0, nx, y0, z1, a) + b * edge_lerp_x(d, x0, nx, y1, z1, a);
    return ((1.0f - g) * k) * t + (g * k) * u;
}

/* Integer reads with a sampler: nearest only (OpenCL C undefines linear). */
static int4 sample_i(desc_t *d, uint s, float4 c, int dims, int arr)
{
    int nx = size_x(d), ny = size_y(d, dims), nz = size_z(d, dims, arr);
    float cz = arr && dims == 1 ? c.y : c.z;
    int x = nearest_index(s, c.x, nx);
    int y = dims >= 2 ? nearest_index(s, c.y, ny) : 0;
    int z = arr ? layer_of(cz, nz) : dims == 3 ? nearest_index(s, cz, nz) : 0;
    return in_image(d, dims, arr, x, y, z) ? __mosaic_outlined_fetch_i(d, x, y, z) : border_i(d);
}

/* Integer coordinates with a sampler: OpenCL C requires unnormalized
 * coordinates and a nearest filter; the addressing mode clamps to the edge
 * or gives the border colour (CLK_ADDRESS_CLAMP and NONE). */
static int edge(uint s, int i, int n) { return (s & S_ADDRESS) == S_CLAMP_TO_EDGE ? clamp(i, 0, n - 1) : i; }
OUTLINED float4 __mosaic_outlined_sample_f_int(desc_t *d, uint s, int4 c, int dims, int arr)
{
    int nx = size_x(d), ny = size_y(d, dims), nz = size_z(d, dims, arr);
    int cz = arr && dims == 1 ? c.y : c.z;
    int x = edge(s, c.x, nx);
    int y = dims >= 2 ? edge(s, c.y, ny) : 0;
    int z = arr ? clamp(cz, 0, nz - 1) : dims == 3 ? edge(s, cz, nz) : 0;
    return texel_f(d, dims, arr, x, y, z);
}
static float4 sample_f_int(desc_t *d, uint s, int4 c, int dims, int arr)
{
    if ((s & S_ADDRESS) != S_CLAMP_TO_EDGE)
        return __mosaic_outlined_sample_f_int(d, s, c, dims, arr);
    int cz = arr && dims == 1 ? c.y : c.z;
    int x = __mosaic_edge_clamp_x(c.x, size_x(d));
    int y = dims >= 2 ? clamp(c.y, 0, size_y(d, dims) - 1) : 0;
    int z = arr || dims == 3 ? clamp(cz, 0, size_z(d, dims, arr) - 1) : 0;
    return fetch_f(d, x, y, z);
}
static int4 sample_i_int(desc_t *d, uint s, int4 c, int dims, int arr)
{
    int nx = size_x(d), ny = size_y(d, dims), nz = size_z(d, dims, arr);
    int cz = arr && dims == 1 ? c.y : c.z;
    int x = edge(s, c.x, nx);
    int y = dims >= 2 ? edge(s, c.y, ny) : 0;
    int z = arr ? clamp(cz, 0, nz - 1) : dims == 3 ? edge(s, cz, nz) : 0;
    return in_image(d, dims, arr, x, y, z) ? __mosaic_outlined_fetch_i(d, x, y, z) : border_i(d);
}

/* Sampler-less reads: the coordinates must be inside the image (otherwise
 * undefined); outside, these return the border colour rather than read
 * memory that is not the image's. */
static float4 load_f(desc_t *d, int4 c, int dims, int arr)
{
    int z = arr && dims == 1 ? c.y : c.z, y = dims >= 2 ? c.y : 0;
    return texel_f(d, dims, arr, c.x, y, dims == 3 || arr ? z : 0);
}
static int4 load_i(desc_t *d, int4 c, int dims, int arr)
{
    int z = arr && dims == 1 ? c.y : c.z, y = dims >= 2 ? c.y : 0;
    z = dims == 3 || arr ? z : 0;
    return in_image(d, dims, arr, c.x, y, z) ? __mosaic_outlined_fetch_i(d, c.x, y, z) : border_i(d);
}

/* Writes: nothing outside the image. */
#define WRITE_AT(d, c, dims, arr, STORE, v)                                                        \
    do {                                                                                           \
        int z_ = (arr) && (dims) == 1 ? (c).y : (c).z, y_ = (dims) >= 2 ? (c).y : 0;               \
        z_ = (dims) == 3 || (arr) ? z_ : 0;                                                        \
        if (in_image(d, dims, arr, (c).x, y_, z_))                                                 \
            STORE(d, (c).x, y_, z_, v);                                                            \
    } while (0)

/* ---- the built-in functions, per image type ------------------------------------------
 * IMAGE_FNS(TYPE, DIMS, ARR, IC, FC, widen-int, widen-float): IC and FC are
 * the coordinate types, the widen macros make an int4/float4 of them. */
#define W1I(c) ((int4)((c), 0, 0, 0))
#define W2I(c) ((int4)((c), 0, 0))
#define W4I(c) (c)
#define W1F(c) ((float4)((c), 0.0f, 0.0f, 0.0f))
#define W2F(c) ((float4)((c), 0.0f, 0.0f))
#define W4F(c) (c)

#define SAMPLED_READS(Q, TYPE, DIMS, ARR, IC, FC, WI, WF)                                          \
    OVLD float4 read_imagef(Q TYPE img, sampler_t s, IC c) { return sample_f_int(DESC(img), SAMPLER(s), WI(c), DIMS, ARR); } \
    OVLD float4 read_imagef(Q TYPE img, sampler_t s, FC c) { return sample_f(DESC(img), SAMPLER(s), WF(c), DIMS, ARR); } \
    OVLD int4 read_imagei(Q TYPE img, sampler_t s, IC c) { return sample_i_int(DESC(img), SAMPLER(s), WI(c), DIMS, ARR); } \
    OVLD int4 read_imagei(Q TYPE img, sampler_t s, FC c) { return sample_i(DESC(img), SAMPLER(s), WF(c), DIMS, ARR); } \
    OVLD uint4 read_imageui(Q TYPE img, sampler_t s, IC c)                                         \
    {                                                                                              \
        return as_uint4(sample_i_int(DESC(img), SAMPLER(s), WI(c), DIMS, ARR));                    \
    }                                                                                              \
    OVLD uint4 read_imageui(Q TYPE img, sampler_t s, FC c)                                         \
    {                                                                                              \
        return as_uint4(sample_i(DESC(img), SAMPLER(s), WF(c), DIMS, ARR));                        \
    }                                                                                              \
    OVLD half4 read_imageh(Q TYPE img, sampler_t s, IC c) { return TO_HALF4(read_imagef(img, s, c)); } \
    OVLD half4 read_imageh(Q TYPE img, sampler_t s, FC c) { return TO_HALF4(read_imagef(img, s, c)); }

#define PLAIN_READS(Q, TYPE, DIMS, ARR, IC, WI)                                                    \
    OVLD float4 read_imagef(Q TYPE img, IC c) { return load_f(DESC(img), WI(c), DIMS, ARR); }     \
    OVLD int4 read_imagei(Q TYPE img, IC c) { return load_i(DESC(img), WI(c), DIMS, ARR); }       \
    OVLD uint4 read_imageui(Q TYPE img, IC c) { return as_uint4(load_i(DESC(img), WI(c), DIMS, ARR)); } \
    OVLD half4 read_imageh(Q TYPE img, IC c) { return TO_HALF4(load_f(DESC(img), WI(c), DIMS, ARR)); }

/* write_imagef/i/ui: the same steps with each one's value type and store */
#define WRITE_FN(Q, TYPE, DIMS, ARR, IC, WI, NAME, VT, STORE)                                      \
    OVLD void NAME(Q TYPE img, IC c, VT v)                                                         \
    {                                                                                              \
        desc_t *d = DESC(img);                                                                     \
        int4 w = WI(c);                                                                            \
        WRITE_AT(d, w, DIMS, ARR, STORE, v);                                                       \
    }

#define WRITES(Q, TYPE, DIMS, ARR, IC, WI)                                                         \
    WRITE_FN(Q, TYPE, DIMS, ARR, IC, WI, write_imagef, float4, store_f)                            \
    WRITE_FN(Q, TYPE, DIMS, ARR, IC, WI, write_imagei, int4, __mosaic_outlined_store_i)            \
    WRITE_FN(Q, TYPE, DIMS, ARR, IC, WI, write_imageui, uint4, __mosaic_outlined_store_ui)         \
    WRITE_FN(Q, TYPE, DIMS, ARR, IC, WI, write_imageh, half4, store_h)

/* depth images: one float channel */
#define DEPTH_FNS(Q, TYPE, DIMS, ARR, IC, FC, WI, WF)                                              \
    OVLD float read_imagef(Q TYPE img, sampler_t s, IC c) { return sample_f_int(DESC(img), SAMPLER(s), WI(c), DIMS, ARR).x; } \
    OVLD float read_imagef(Q TYPE img, sampler_t s, FC c) { return sample_f(DESC(img), SAMPLER(s), WF(c), DIMS, ARR).x; }
#define DEPTH_PLAIN(Q, TYPE, DIMS, ARR, IC, WI)                                                    \
    OVLD float read_imagef(Q TYPE img, IC c) { return load_f(DESC(img), WI(c), DIMS, ARR).x; }
#define DEPTH_WRITE(Q, TYPE, DIMS, ARR, IC, WI)                                                    \
    OVLD void write_imagef(Q TYPE img, IC c, float v)                                              \
    {                                                                                              \
        desc_t *d = DESC(img);                                                                     \
        int4 w = WI(c);                                                                            \
        WRITE_AT(d, w, DIMS, ARR, store_f, (float4)(v, 0.0f, 0.0f, 1.0f));                        \
    }

/* read_only: with and without a sampler */
SAMPLED_READS(read_only, image1d_t, 1, 0, int, float, W1I, W1F)
SAMPLED_READS(read_only, image1d_array_t, 1, 1, int2, float2, W2I, W2F)
SAMPLED_READS(read_only, image2d_t, 2, 0, int2, float2, W2I, W2F)
SAMPLED_READS(read_only, image2d_array_t, 2, 1, int4, float4, W4I, W4F)
SAMPLED_READS(read_only, image3d_t, 3, 0, int4, float4, W4I, W4F)
DEPTH_FNS(read_only, image2d_depth_t, 2, 0, int2, float2, W2I, W2F)
DEPTH_FNS(read_only, image2d_array_depth_t, 2, 1, int4, float4, W4I, W4F)

#define ALL_PLAIN_READS(Q)                                                                         \
    PLAIN_READS(Q, image1d_t, 1, 0, int, W1I)                                                      \
    PLAIN_READS(Q, image1d_buffer_t, 1, 0, int, W1I)                                               \
    PLAIN_READS(Q, image1d_array_t, 1, 1, int2, W2I)                                               \
    PLAIN_READS(Q, image2d_t, 2, 0, int2, W2I)                                                     \
    PLAIN_READS(Q, image2d_array_t, 2, 1, int4, W4I)                                               \
    PLAIN_READS(Q, image3d_t, 3, 0, int4, W4I)                                                     \
    DEPTH_PLAIN(Q, image2d_depth_t, 2, 0, int2, W2I)                                               \
    DEPTH_PLAIN(Q, image2d_array_depth_t, 2, 1, int4, W4I)
#define ALL_WRITES(Q)                                                                              \
    WRITES(Q, image1d_t, 1, 0, int, W1I)                                                           \
    WRITES(Q, image1d_buffer_t, 1, 0, int, W1I)                                                    \
    WRITES(Q, image1d_array_t, 1, 1, int2, W2I)                                                    \
    WRITES(Q, image2d_t, 2, 0, int2, W2I)                                                          \
    WRITES(Q, image2d_array_t, 2, 1, int4, W4I)                                                    \
    WRITES(Q, image3d_t, 3, 0, int4, W4I)                                                          \
    DEPTH_WRITE(Q, image2d_depth_t, 2, 0, int2, W2I)                                               \
    DEPTH_WRITE(Q, image2d_array_depth_t, 2, 1, int4, W4I)

ALL_PLAIN_READS(read_only)
ALL_WRITES(write_only)
/* read_write images (__opencl_c_read_write_images): sampler-less reads and writes */
ALL_PLAIN_READS(read_write)
ALL_WRITES(read_write)

/* ---- queries ----------------------------------------------------------------------- */
#define QUERIES(Q, TYPE)                                                                           \
    OVLD int get_image_width(Q TYPE img) { return (int)DESC(img)->width; }                         \
    OVLD int get_image_channel_data_type(Q TYPE img) { return (int)DESC(img)->channel_data_type; } \
    OVLD int get_image_channel_order(Q TYPE img) { return (int)DESC(img)->channel_order; }
#define QUERIES_2D(Q, TYPE)                                                                        \
    OVLD int get_image_height(Q TYPE img) { return (int)DESC(img)->height; }                       \
    OVLD int2 get_image_dim(Q TYPE img) { return (int2)((int)DESC(img)->width, (int)DESC(img)->height); }
#define ALL_QUERIES(Q)                                                                             \
    QUERIES(Q, image1d_t) QUERIES(Q, image1d_buffer_t) QUERIES(Q, image1d_array_t)                 \
    QUERIES(Q, image2d_t) QUERIES(Q, image2d_array_t) QUERIES(Q, image3d_t)                        \
    QUERIES(Q, image2d_depth_t) QUERIES(Q, image2d_array_depth_t)                                  \
    QUERIES_2D(Q, image2d_t) QUERIES_2D(Q, image2d_array_t) QUERIES_2D(Q, image2d_depth_t)         \
    QUERIES_2D(Q, image2d_array_depth_t)                                                           \
    OVLD int get_image_height(Q image3d_t img) { return (int)DESC(img)->height; }                  \
    OVLD int get_image_depth(Q image3d_t img) { return (int)DESC(img)->depth; }                    \
    OVLD int4 get_image_dim(Q image3d_t img)                                                       \
    {                                                                                              \
        desc_t *d = DESC(img);                                                                     \
        return (int4)((int)d->width, (int)d->height, (int)d->depth, 0);                            \
    }                                                                                              \
    OVLD size_t get_image_array_size(Q image1d_array_t img) { return (size_t)DESC(img)->array_size; } \
    OVLD size_t get_image_array_size(Q image2d_array_t img) { return (size_t)DESC(img)->array_size; } \
    OVLD size_t get_image_array_size(Q image2d_array_depth_t img) { return (size_t)DESC(img)->array_size; }
ALL_QUERIES(read_only)
ALL_QUERIES(write_only)
ALL_QUERIES(read_write)
