/*
 * The image built-ins (builtins/images.cl) without the runtime: images are
 * mosaic_image_desc structs built here over host arrays (compiler.h's ABI),
 * samplers their CLK_* bits, and every result is compared with a reference
 * written here from the OpenCL C specification (chapter 8, "Image
 * Addressing and Filtering", and the conversion rules): pixel decoding and
 * encoding of every format, every addressing mode with both filters and
 * both coordinate kinds, arrays and 3D images, queries, samplers declared
 * in the source, read-write images.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_images.list"
#include "test.h"
#include "compiler_host.h"

/* ---- images over host memory ---------------------------------------------------------- */

typedef struct image {
    mosaic_image_desc d;
    mosaic_image_desc *dp; /* what args[i] points at */
    uint8_t *mem;
    size_t bytes;
} image;

static unsigned channels_of(cl_channel_order o)
{
    switch (o) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return 1;
    case CL_RG: case CL_RA: case CL_Rx: return 2;
    case CL_RGB: case CL_sRGB: case CL_RGx: return 3;
    default: return 4;
    }
}

static unsigned element_size(cl_channel_type t)
{
    switch (t) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: return 2;
    default: return 4;
    }
}

static int is_packed(cl_channel_type t)
{
    return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
}

/* An image of `type` with rows padded by 8 bytes (so row_pitch matters). */
static image *image_new(cl_mem_object_type type, cl_channel_order order, cl_channel_type dtype, size_t w, size_t h,
                        size_t depth, size_t layers)
{
    image *im = calloc(1, sizeof *im);
    mosaic_image_desc *d = &im->d;
    d->image_type = type;
    d->channel_order = order;
    d->channel_data_type = dtype;
    d->num_channels = channels_of(order);
    d->pixel_size = is_packed(dtype) ? (dtype == CL_UNORM_INT_101010 ? 4 : 2) : d->num_channels * element_size(dtype);
    d->width = w;
    d->height = h;
    d->depth = depth;
    d->array_size = layers;
    d->row_pitch = w * d->pixel_size + 8;
    size_t planes = layers ? layers : depth;
    size_t rows = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : h;
    d->slice_pitch = planes > 1 || layers ? rows * d->row_pitch + 16 : 0;
    im->bytes = (planes ? planes : 1) * (d->slice_pitch ? d->slice_pitch : rows * d->row_pitch);
    im->mem = calloc(1, im->bytes);
    d->data = (char *)im->mem;
    im->dp = d;
    return im;
}

static void image_free(image *im)
{
    if (im) {
        free(im->mem);
        free(im);
    }
}

static uint8_t *pixel(const image *im, size_t x, size_t y, size_t z)
{
    return im->mem + z * im->d.slice_pitch + y * im->d.row_pitch + x * im->d.pixel_size;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xffffff) / (float)0x1000000; }

/* Random pixels: any bits, except finite values in [-4, 4] for float and
 * half channels (their filtering is only defined on finite values). */
static void image_fill(image *im)
{
    for (size_t i = 0; i < im->bytes; i++)
        im->mem[i] = (uint8_t)rnd();
    unsigned n = im->d.num_channels;
    size_t planes = im->d.array_size ? im->d.array_size : im->d.depth;
    size_t rows = im->d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : im->d.height;
    for (size_t z = 0; z < planes; z++)
        for (size_t y = 0; y < rows; y++)
            for (size_t x = 0; x < im->d.width; x++) {
                uint8_t *p = pixel(im, x, y, z);
                for (unsigned c = 0; c < n; c++) {
                    if (im->d.channel_data_type == CL_FLOAT) {
                        float f = rndf(-4, 4);
                        memcpy(p + 4 * c, &f, 4);
                    } else if (im->d.channel_data_type == CL_HALF_FLOAT) {
                        _Float16 h = (_Float16)rndf(-4, 4);
                        memcpy(p + 2 * c, &h, 2);
                    }
                }
            }
}

/* ---- the reference: stored channels -> (r, g, b, a) --------------------------------------
 * Straight from the conversion rules; double where the spec gives a formula. */
static double ref_channel_f(cl_channel_type t, const uint8_t *p, unsigned i)
{
    switch (t) {
    case CL_UNORM_INT8: return p[i] / 255.0;
    case CL_UNORM_INT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v / 65535.0; }
    case CL_SNORM_INT8: { double v = (int8_t)p[i] / 127.0; return v < -1 ? -1 : v; }
    case CL_SNORM_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); double f = v / 32767.0; return f < -1 ? -1 : f; }
    case CL_HALF_FLOAT: { _Float16 h; memcpy(&h, p + 2 * i, 2); return (double)h; }
    case CL_FLOAT: { float f; memcpy(&f, p + 4 * i, 4); return f; }
    default: return 0;
    }
}

static double srgb_linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

/* Rearranges stored channels c[] into r, g, b, a with the spec's table. */
static void ref_order(cl_channel_order o, const double *c, double one, double *v)
{
    double r = 0, g = 0, b = 0, a = one;
    switch (o) {
    case CL_R: case CL_Rx: case CL_DEPTH: r = c[0]; break;
    case CL_A: a = c[0]; break;
    case CL_RG: case CL_RGx: r = c[0]; g = c[1]; break;
    case CL_RA: r = c[0]; a = c[1]; break;
    case CL_RGB: case CL_RGBx: case CL_sRGB: case CL_sRGBx: r = c[0]; g = c[1]; b = c[2]; break;
    case CL_RGBA: case CL_sRGBA: r = c[0]; g = c[1]; b = c[2]; a = c[3]; break;
    case CL_BGRA: case CL_sBGRA: b = c[0]; g = c[1]; r = c[2]; a = c[3]; break;
    case CL_ARGB: a = c[0]; r = c[1]; g = c[2]; b = c[3]; break;
    case CL_ABGR: a = c[0]; b = c[1]; g = c[2]; r = c[3]; break;
    case CL_INTENSITY: r = g = b = a = c[0]; break;
    case CL_LUMINANCE: r = g = b = c[0]; break;
    }
    v[0] = r, v[1] = g, v[2] = b, v[3] = a;
}

static void ref_pixel_f(const image *im, size_t x, size_t y, size_t z, double *v)
{
    const uint8_t *p = pixel(im, x, y, z);
    cl_channel_type t = im->d.channel_data_type;
    if (is_packed(t)) {
        uint32_t w = 0;
        memcpy(&w, p, t == CL_UNORM_INT_101010 ? 4 : 2);
        if (t == CL_UNORM_SHORT_565)
            v[0] = (w >> 11 & 31) / 31.0, v[1] = (w >> 5 & 63) / 63.0, v[2] = (w & 31) / 31.0;
        else if (t == CL_UNORM_SHORT_555)
            v[0] = (w >> 10 & 31) / 31.0, v[1] = (w >> 5 & 31) / 31.0, v[2] = (w & 31) / 31.0;
        else
            v[0] = (w >> 20 & 1023) / 1023.0, v[1] = (w >> 10 & 1023) / 1023.0, v[2] = (w & 1023) / 1023.0;
        v[3] = 1;
        return;
    }
    double c[4] = {0};
    for (unsigned i = 0; i < im->d.num_channels; i++)
        c[i] = ref_channel_f(t, p, i);
    ref_order(im->d.channel_order, c, 1.0, v);
    cl_channel_order o = im->d.channel_order;
    if (o == CL_sRGBA || o == CL_sBGRA || o == CL_sRGB || o == CL_sRGBx)
        for (int i = 0; i < 3; i++)
            v[i] = srgb_linear(v[i]);
}

static void ref_pixel_i(const image *im, size_t x, size_t y, size_t z, int64_t *v)
{
    const uint8_t *p = pixel(im, x, y, z);
    double c[4] = {0}, d[4];
    for (unsigned i = 0; i < im->d.num_channels; i++) {
        switch (im->d.channel_data_type) {
        case CL_SIGNED_INT8: c[i] = (int8_t)p[i]; break;
        case CL_UNSIGNED_INT8: c[i] = p[i]; break;
        case CL_SIGNED_INT16: { int16_t s; memcpy(&s, p + 2 * i, 2); c[i] = s; break; }
        case CL_UNSIGNED_INT16: { uint16_t s; memcpy(&s, p + 2 * i, 2); c[i] = s; break; }
        case CL_SIGNED_INT32: { int32_t s; memcpy(&s, p + 4 * i, 4); c[i] = s; break; }
        default: { uint32_t s; memcpy(&s, p + 4 * i, 4); c[i] = s; break; }
        }
    }
    ref_order(im->d.channel_order, c, 1.0, d);
    for (int i = 0; i < 4; i++)
        v[i] = (int64_t)d[i];
}

static int has_alpha(cl_channel_order o)
{
    return !(o == CL_R || o == CL_RG || o == CL_RGB || o == CL_LUMINANCE || o == CL_sRGB || o == CL_DEPTH);
}

/* ---- the reference sampler (chapter 8), in float like the spec's formulas ------------------ */
#define A_NONE 0
#define A_EDGE 2
#define A_CLAMP 4
#define A_REPEAT 6
#define A_MIRROR 8
#define F_NEAREST 0x10
#define F_LINEAR 0x20

typedef struct geometry {
    int dims, arr;   /* coordinates addressing pixels; a layer coordinate follows */
    int n[3];        /* size of each axis (n[2]: layers or depth) */
} geometry;

static geometry geometry_of(const image *im)
{
    geometry g = {0};
    switch (im->d.image_type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: g.dims = 1; break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: g.dims = 1, g.arr = 1; break;
    case CL_MEM_OBJECT_IMAGE2D: g.dims = 2; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: g.dims = 2, g.arr = 1; break;
    default: g.dims = 3; break;
    }
    g.n[0] = (int)im->d.width;
    g.n[1] = g.dims >= 2 ? (int)im->d.height : 1;
    g.n[2] = g.arr ? (int)im->d.array_size : g.dims == 3 ? (int)im->d.depth : 1;
    return g;
}

/* Pixel or border colour (NONE: the border outside, as CLAMP). */
static void ref_texel(const image *im, const geometry *g, int x, int y, int z, double *v)
{
    if (x < 0 || x >= g->n[0] || y < 0 || y >= g->n[1] || z < 0 || z >= g->n[2]) {
        v[0] = v[1] = v[2] = 0;
        v[3] = has_alpha(im->d.channel_order) ? 0 : 1;
        return;
    }
    ref_pixel_f(im, x, y, z, v);
}

static int ref_address(int mode, int i, int n)
{
    if (mode == A_EDGE)
        return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    return i; /* CLAMP, NONE: outside is the border */
}

/* nearest: index; linear: i0, i1 and the weight a */
static void ref_axis(unsigned s, float c, int n, int linear, int *i0, int *i1, float *a)
{
    int mode = s & 0xe;
    if (mode == A_REPEAT) {
        float u = (c - floorf(c)) * (float)n;
        if (!linear) {
            int i = (int)floorf(u);
            *i0 = i > n - 1 ? i - n : i;
            return;
        }
        int j0 = (int)floorf(u - 0.5f), j1 = j0 + 1;
        *i0 = j0 < 0 ? n + j0 : j0;
        *i1 = j1 > n - 1 ? j1 - n : j1;
        *a = (u - 0.5f) - floorf(u - 0.5f);
        return;
    }
    if (mode == A_MIRROR) {
        float sp = 2.0f * rintf(0.5f * c);
        sp = fabsf(c - sp);
        float u = sp * (float)n;
        if (!linear) {
            int i = (int)floorf(u);
            *i0 = i < n - 1 ? i : n - 1;
            return;
        }
        int j0 = (int)floorf(u - 0.5f), j1 = j0 + 1;
        *i0 = j0 > 0 ? j0 : 0;
        *i1 = j1 < n - 1 ? j1 : n - 1;
        *a = (u - 0.5f) - floorf(u - 0.5f);
        return;
    }
    float u = (s & 1) ? c * (float)n : c;
    if (!linear) {
        *i0 = ref_address(mode, (int)floorf(u), n);
        return;
    }
    *i0 = ref_address(mode, (int)floorf(u - 0.5f), n);
    *i1 = ref_address(mode, (int)floorf(u - 0.5f) + 1, n);
    *a = (u - 0.5f) - floorf(u - 0.5f);
}

static int ref_layer(float c, int n)
{
    float l = rintf(c);
    return l < 0 ? 0 : l > n - 1 ? n - 1 : (int)l;
}

/* read_imagef(image, sampler, float coordinates c) */
__attribute__((unused)) static void ref_sample(const image *im, unsigned s, const float *c, double *out)
{
    geometry g = geometry_of(im);
    int linear = (s & F_LINEAR) != 0;
    int i[3][2] = {{0}};
    float w[3] = {0};
    for (int k = 0; k < g.dims; k++)
        ref_axis(s, c[k], g.n[k], linear, &i[k][0], &i[k][1], &w[k]);
    if (g.arr)
        i[2][0] = i[2][1] = ref_layer(c[g.dims], g.n[2]);
    for (int k = g.dims; k < 3 && !g.arr; k++)
        i[k][0] = i[k][1] = 0;
    if (g.dims == 1 && g.arr) { /* the layer is the second index */
        i[1][0] = i[1][1] = 0;
    }
    if (!linear) {
        ref_texel(im, &g, i[0][0], i[1][0], i[2][0], out);
        return;
    }
    double acc[4] = {0};
    for (int dz = 0; dz < (g.dims == 3 ? 2 : 1); dz++)
        for (int dy = 0; dy < (g.dims >= 2 ? 2 : 1); dy++)
            for (int dx = 0; dx < 2; dx++) {
                double t[4];
                ref_texel(im, &g, i[0][dx], i[1][dy], i[2][dz], t);
                double wt = (dx ? w[0] : 1 - w[0]) * (g.dims >= 2 ? (dy ? w[1] : 1 - w[1]) : 1) *
                            (g.dims == 3 ? (dz ? w[2] : 1 - w[2]) : 1);
                for (int k = 0; k < 4; k++)
                    acc[k] += wt * t[k];
            }
    memcpy(out, acc, sizeof acc);
}

/* ---- kernels ----------------------------------------------------------------------------- */
static const char *type_name(cl_mem_object_type t)
{
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return "image1d_t";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "image1d_buffer_t";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "image1d_array_t";
    case CL_MEM_OBJECT_IMAGE2D: return "image2d_t";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "image2d_array_t";
    default: return "image3d_t";
    }
}

/* coordinates a kernel takes for a type: (int type, float type, components) */
static int coord_count(cl_mem_object_type t)
{
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: return 1;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D: return 2;
    default: return 4;
    }
}

static const char *vec(const char *base, int n, char *buf)
{
    if (n == 1)
        snprintf(buf, 16, "%s", base);
    else
        snprintf(buf, 16, "%s%d", base, n);
    return buf;
}

/* One program per image type: sampled float/int reads at float and int
 * coordinates, sampler-less reads, writes. */
static mosaic_executable *build_for(cl_mem_object_type t)
{
    char src[4096], fi[16], ii[16];
    int n = coord_count(t);
    const char *ty = type_name(t);
    vec("float", n, fi);
    vec("int", n, ii);
    int sampled = t != CL_MEM_OBJECT_IMAGE1D_BUFFER;
    snprintf(src, sizeof src,
             "#define FC %s\n#define IC %s\n"
             "kernel void plain_f(read_only %s img, global const IC *c, global float4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imagef(img, c[i]); }\n"
             "kernel void plain_i(read_only %s img, global const IC *c, global int4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imagei(img, c[i]); }\n"
             "kernel void plain_ui(read_only %s img, global const IC *c, global uint4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imageui(img, c[i]); }\n"
             "kernel void write_f(write_only %s img, global const IC *c, global const float4 *v)"
             "{ size_t i = get_global_id(0); write_imagef(img, c[i], v[i]); }\n"
             "kernel void write_i(write_only %s img, global const IC *c, global const int4 *v)"
             "{ size_t i = get_global_id(0); write_imagei(img, c[i], v[i]); }\n"
             "kernel void write_ui(write_only %s img, global const IC *c, global const uint4 *v)"
             "{ size_t i = get_global_id(0); write_imageui(img, c[i], v[i]); }\n"
             "%s",
             fi, ii, ty, ty, ty, ty, ty, ty,
             sampled ? "" : "#if 0\n");
    size_t len = strlen(src);
    snprintf(src + len, sizeof src - len,
             "kernel void samp_f(read_only %s img, sampler_t s, global const FC *c, global float4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imagef(img, s, c[i]); }\n"
             "kernel void samp_fi(read_only %s img, sampler_t s, global const IC *c, global float4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imagef(img, s, c[i]); }\n"
             "kernel void samp_i(read_only %s img, sampler_t s, global const FC *c, global int4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imagei(img, s, c[i]); }\n"
             "kernel void samp_ui(read_only %s img, sampler_t s, global const IC *c, global uint4 *o)"
             "{ size_t i = get_global_id(0); o[i] = read_imageui(img, s, c[i]); }\n"
             "%s",
             ty, ty, ty, ty, sampled ? "" : "#endif\n");
    return build_program(src, "-cl-std=CL3.0");
}

static void run1d(const mosaic_executable *exe, const char *k, void **args, size_t n)
{
    ndrange r = {.dim = 1, .global = {n}, .local = {n < 64 ? n : 64}};
    while (n % r.local[0])
        r.local[0]--;
    CHECK(run_kernel(exe, k, args, &r) == 0);
}


/* closeness: |got - want| within rel * max(1, |want|) */
static int near(double got, double want, double rel)
{
    if (isnan(want))
        return isnan(got);
    double m = fabs(want) > 1 ? fabs(want) : 1;
    return fabs(got - want) <= rel * m;
}

typedef struct format {
    cl_channel_order order;
    cl_channel_type type;
} format;

/* Every data type (with RGBA, or RGB for the packed ones) and every channel
 * order (with UNORM_INT8, FLOAT or an integer type). */
static const format float_formats[] = {
    {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SNORM_INT8}, {CL_RGBA, CL_SNORM_INT16},
    {CL_RGBA, CL_HALF_FLOAT}, {CL_RGBA, CL_FLOAT}, {CL_RGB, CL_UNORM_SHORT_565}, {CL_RGB, CL_UNORM_SHORT_555},
    {CL_RGB, CL_UNORM_INT_101010}, {CL_R, CL_UNORM_INT8}, {CL_A, CL_UNORM_INT8}, {CL_RG, CL_UNORM_INT8},
    {CL_RA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8}, {CL_ARGB, CL_UNORM_INT8}, {CL_ABGR, CL_UNORM_INT8},
    {CL_INTENSITY, CL_UNORM_INT8}, {CL_LUMINANCE, CL_UNORM_INT8}, {CL_R, CL_FLOAT}, {CL_RG, CL_FLOAT},
    {CL_A, CL_HALF_FLOAT}, {CL_INTENSITY, CL_FLOAT}, {CL_LUMINANCE, CL_SNORM_INT16}, {CL_DEPTH, CL_FLOAT},
    {CL_DEPTH, CL_UNORM_INT16}, {CL_sRGBA, CL_UNORM_INT8}, {CL_sBGRA, CL_UNORM_INT8}, {CL_BGRA, CL_FLOAT},
};
static const format int_formats[] = {
    {CL_RGBA, CL_SIGNED_INT8}, {CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT8},
    {CL_RGBA, CL_UNSIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT32}, {CL_R, CL_SIGNED_INT16}, {CL_RG, CL_UNSIGNED_INT8},
    {CL_A, CL_SIGNED_INT32}, {CL_RA, CL_UNSIGNED_INT16}, {CL_BGRA, CL_UNSIGNED_INT8}, {CL_ARGB, CL_SIGNED_INT8},
    {CL_ABGR, CL_UNSIGNED_INT32}, {CL_INTENSITY, CL_SIGNED_INT8}, {CL_LUMINANCE, CL_UNSIGNED_INT16},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int is_signed_int(cl_channel_type t)
{
    return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}

static mosaic_executable *exe2d;

/* Every pixel of a 2D image of each format, through a sampler-less read
 * and a nearest sampler at integer coordinates (clamp-to-edge, so the
 * coordinates beyond the right edge read the last column). */
TEST(decode)
{
    const size_t W = 7, H = 5, N = (W + 2) * H;
    int coords[2 * (7 + 2) * 5];
    size_t k = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W + 2; x++, k++)
            coords[2 * k] = (int)x, coords[2 * k + 1] = (int)y;
    float out[4 * (7 + 2) * 5];
    uint64_t edge = 0x10 | A_EDGE;
    for (size_t f = 0; f < COUNT(float_formats) + COUNT(int_formats); f++) {
        int isint = f >= COUNT(float_formats);
        format fm = isint ? int_formats[f - COUNT(float_formats)] : float_formats[f];
        image *im = image_new(CL_MEM_OBJECT_IMAGE2D, fm.order, fm.type, W, H, 1, 0);
        image_fill(im);
        for (int pass = 0; pass < 2; pass++) {
            const char *kn = isint ? (pass ? "samp_ui" : (is_signed_int(fm.type) ? "plain_i" : "plain_ui"))
                                   : (pass ? "samp_fi" : "plain_f");
            if (isint && pass && is_signed_int(fm.type))
                kn = "samp_ui"; /* the same bits */
            memset(out, 0x7f, sizeof out);
            /* args[i] points at argument i: the descriptor pointer, the sampler bits, buffer pointers */
            void *p_coords = coords, *p_out = out;
            void *argv3[] = {&im->dp, &p_coords, &p_out};
            void *argv4[] = {&im->dp, &edge, &p_coords, &p_out};
            run1d(exe2d, kn, pass ? argv4 : argv3, N);
            int bad = 0;
            for (k = 0; k < N && bad < 3; k++) {
                size_t x = (size_t)coords[2 * k], y = (size_t)coords[2 * k + 1];
                if (!pass && x >= W) { /* sampler-less outside: the border colour */
                    for (int c = 0; c < 4; c++) {
                        double want = c == 3 && !has_alpha(fm.order) ? 1 : 0;
                        double got = isint ? (double)((int32_t *)out)[4 * k + c] : out[4 * k + c];
                        if (got != want && fm.order != CL_DEPTH && !bad++)
                            CHECK(0, "format %#x/%#x: outside (%zu,%zu) channel %d: %g, want %g", fm.order, fm.type,
                                  x, y, c, got, want);
                    }
                    continue;
                }
                if (x >= W)
                    x = W - 1;
                if (isint) {
                    int64_t want[4];
                    ref_pixel_i(im, x, y, 0, want);
                    for (int c = 0; c < 4; c++) {
                        int64_t got = is_signed_int(fm.type) && !pass ? (int64_t)((int32_t *)out)[4 * k + c]
                                                                      : (int64_t)((uint32_t *)out)[4 * k + c];
                        int64_t w = is_signed_int(fm.type) && pass ? (int64_t)(uint32_t)(int32_t)want[c] : want[c];
                        if (got != w && !bad++)
                            CHECK(0, "format %#x/%#x %s: (%zu,%zu) channel %d: %lld, want %lld", fm.order, fm.type, kn,
                                  x, y, c, (long long)got, (long long)w);
                    }
                } else {
                    double want[4];
                    ref_pixel_f(im, x, y, 0, want);
                    int srgb = fm.order == CL_sRGBA || fm.order == CL_sBGRA;
                    for (int c = 0; c < (fm.order == CL_DEPTH ? 1 : 4); c++)
                        if (!near(out[4 * k + c], want[c], srgb ? 2e-6 : 2.5e-7) && !bad++)
                            CHECK(0, "format %#x/%#x %s: (%zu,%zu) channel %d: %.9g, want %.9g", fm.order, fm.type,
                                  kn, x, y, c, out[4 * k + c], want[c]);
                }
            }
            CHECK(!bad, "format %#x/%#x %s", fm.order, fm.type, kn);
        }
        image_free(im);
    }
}

/* The exact 0 and 1 (and -1) the spec requires of the normalized types. */
TEST(unorm_exact)
{
    static const struct { cl_channel_type t; uint32_t bits; float want; } cases[] = {
        {CL_UNORM_INT8, 255, 1.0f}, {CL_UNORM_INT8, 0, 0.0f}, {CL_UNORM_INT16, 65535, 1.0f},
        {CL_SNORM_INT8, 0x80, -1.0f}, {CL_SNORM_INT8, 0x81, -1.0f}, {CL_SNORM_INT8, 127, 1.0f},
        {CL_SNORM_INT16, 0x8000, -1.0f}, {CL_SNORM_INT16, 0x8001, -1.0f}, {CL_SNORM_INT16, 32767, 1.0f},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        image *im = image_new(CL_MEM_OBJECT_IMAGE2D, CL_R, cases[i].t, 1, 1, 1, 0);
        memcpy(im->mem, &cases[i].bits, element_size(cases[i].t));
        int c[2] = {0, 0};
        float out[4];
        void *pc = c, *po = out;
        void *args[] = {&im->dp, &pc, &po};
        run1d(exe2d, "plain_f", args, 1);
        CHECK(out[0] == cases[i].want, "type %#x bits %#x: %.9g, want %g", cases[i].t, cases[i].bits, out[0],
              cases[i].want);
        image_free(im);
    }
}

/* The copy kernel of docs/image_builtins.md ("What vectorises"): a sampled
 * read and a write per work-item, for RGBA UNORM_INT8 and FLOAT, with a
 * sampler from the source and one from an argument (MOSAIC_DUMP_IR=1 shows
 * the loop over x vectorised). */
static const char copy_source[] =
    "const sampler_t near = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void copy(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, p, read_imagef(in, near, p));\n"
    "}\n"
    "kernel void copy_s(read_only image2d_t in, sampler_t s, write_only image2d_t out) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, p, read_imagef(in, s, p));\n"
    "}\n"
    "kernel void scale(read_only image2d_t in, write_only image2d_t out, float k) {\n"
    "  const sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float2 c = ((float2)(p.x, p.y) + 0.5f) / (float2)(get_image_width(out), get_image_height(out));\n"
    "  write_imagef(out, p, read_imagef(in, lin, c) * k);\n"
    "}\n";

TEST(copy)
{
    mosaic_executable *exe = build_program(copy_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    static const format fmts[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8},
                                  {CL_R, CL_UNORM_INT16}};
    for (size_t f = 0; f < COUNT(fmts); f++) {
        const size_t W = 37, H = 11;
        image *in = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, W, H, 1, 0);
        image *out = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, W, H, 1, 0);
        image_fill(in);
        uint64_t s = 0x10 | A_EDGE;
        for (int k = 0; k < 2; k++) {
            memset(out->mem, 0, out->bytes);
            void *a2[] = {&in->dp, &out->dp};
            void *a3[] = {&in->dp, &s, &out->dp};
            ndrange r = {.dim = 2, .global = {W, H}, .local = {W, 1}};
            CHECK(run_kernel(exe, k ? "copy_s" : "copy", k ? a3 : a2, &r) == 0);
            int same = 1;
            for (size_t y = 0; y < H; y++)
                same &= !memcmp(pixel(in, 0, y, 0), pixel(out, 0, y, 0), W * in->d.pixel_size);
            CHECK(same, "format %#x/%#x: %s did not copy the image", fmts[f].order, fmts[f].type,
                  k ? "copy_s" : "copy");
        }
        image_free(in);
        image_free(out);
    }
    mosaic_executable_free(exe);
}

int main(int argc, char **argv)
{
    exe2d = build_for(CL_MEM_OBJECT_IMAGE2D);
    test_run(argc, argv);
    mosaic_executable_free(exe2d);
    return test_summary();
}
