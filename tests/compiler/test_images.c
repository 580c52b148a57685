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
static void ref_sample(const image *im, unsigned s, const float *c, double *out)
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
/* An image of `type` filled with test data: the sizes its type does not
 * have are 1 (height, depth) or 0 (layers). */
static image *sampled_image(cl_mem_object_type type, cl_channel_order order, cl_channel_type dtype, size_t w,
                            size_t h, size_t depth, size_t layers)
{
    image *im = image_new(type, order, dtype, w, h, depth, layers);
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE1D)
        im->d.height = 1;
    if (type != CL_MEM_OBJECT_IMAGE3D)
        im->d.depth = 1;
    if (type != CL_MEM_OBJECT_IMAGE1D_ARRAY && type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
        im->d.array_size = 0;
    image_fill(im);
    return im;
}

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

/* Random coordinates along an axis of n texels: inside and outside, and on
 * texel centres and edges (where a linear filter changes texels). */
static float axis_coord(int n, int normalized, int i)
{
    float u;
    switch (i % 4) {
    case 0: u = (float)(int)(rnd() % (unsigned)(n + 4)) - 2.0f; break;         /* an edge */
    case 1: u = (float)(int)(rnd() % (unsigned)(n + 4)) - 2.0f + 0.5f; break;  /* a centre */
    default: u = rndf(-2.5f, (float)n + 2.5f); break;
    }
    return normalized ? u / (float)n : u;
}

static mosaic_executable *exe_by_type[6];
static const cl_mem_object_type sampled_types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                                   CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                                   CL_MEM_OBJECT_IMAGE3D};

/* Every addressing mode, both filters, normalized and not, on every image
 * type that takes a sampler, against ref_sample: float coordinates. */
TEST(samplers)
{
    static const format fmts[] = {{CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8}, {CL_R, CL_UNORM_INT16}};
    enum { N = 96 };
    for (size_t t = 0; t < COUNT(sampled_types); t++) {
        mosaic_executable *exe = exe_by_type[t];
        if (!exe)
            continue;
        for (size_t f = 0; f < COUNT(fmts); f++) {
            image *im = sampled_image(sampled_types[t], fmts[f].order, fmts[f].type, 5, 4, 3, 3);
            geometry g = geometry_of(im);
            int nc = coord_count(sampled_types[t]);
            for (unsigned norm = 0; norm < 2; norm++)
                for (unsigned addr = 0; addr <= 8; addr += 2)
                    for (unsigned filt = 0x10; filt <= 0x20; filt += 0x10) {
                        if (!norm && (addr == A_REPEAT || addr == A_MIRROR))
                            continue; /* undefined */
                        uint64_t s = norm | addr | filt;
                        float c[4 * N] = {0}, out[4 * N];
                        for (int i = 0; i < N; i++) {
                            for (int k = 0; k < g.dims; k++)
                                c[nc * i + k] = axis_coord(g.n[k], (int)norm, i + k);
                            if (g.arr)
                                c[nc * i + g.dims] = rndf(-1.4f, (float)g.n[2] + 0.4f);
                        }
                        void *pc = c, *po = out;
                        void *args[] = {&im->dp, &s, &pc, &po};
                        run1d(exe, "samp_f", args, N);
                        int bad = 0;
                        for (int i = 0; i < N && !bad; i++) {
                            double want[4];
                            ref_sample(im, (unsigned)s, &c[nc * i], want);
                            for (int k = 0; k < 4; k++)
                                if (!near(out[4 * i + k], want[k], 2e-5) && !bad++)
                                    CHECK(0, "%s %#x/%#x sampler %#llx at (%g, %g, %g): channel %d %.7g, want %.7g",
                                          type_name(sampled_types[t]), fmts[f].order, fmts[f].type,
                                          (unsigned long long)s, c[nc * i], g.dims > 1 || g.arr ? c[nc * i + 1] : 0,
                                          nc > 2 ? c[nc * i + 2] : 0, k, out[4 * i + k], want[k]);
                        }
                        CHECK(!bad);
                    }
            image_free(im);
        }
    }
}

/* Integer coordinates with a sampler (unnormalized, nearest): clamp to the
 * edge, or the border colour outside for CLAMP and NONE. */
TEST(int_coords)
{
    enum { N = 64 };
    for (size_t t = 0; t < COUNT(sampled_types); t++) {
        mosaic_executable *exe = exe_by_type[t];
        if (!exe)
            continue;
        image *im = sampled_image(sampled_types[t], CL_RG, CL_UNORM_INT8, 6, 3, 2, 2);
        geometry g = geometry_of(im);
        int nc = coord_count(sampled_types[t]);
        for (unsigned addr = 0; addr <= 4; addr += 2) {
            uint64_t s = 0x10 | addr;
            int c[4 * N] = {0};
            float out[4 * N];
            for (int i = 0; i < N; i++)
                for (int k = 0; k < g.dims + g.arr; k++)
                    c[nc * i + k] = (int)(rnd() % (unsigned)(g.n[k < g.dims ? k : 2] + 4)) - 2;
            void *pc = c, *po = out;
            void *args[] = {&im->dp, &s, &pc, &po};
            run1d(exe, "samp_fi", args, N);
            int bad = 0;
            for (int i = 0; i < N && !bad; i++) {
                float fc[4];
                for (int k = 0; k < 4; k++)
                    fc[k] = (float)c[nc * i + k] + (k < g.dims ? 0.5f : 0.0f); /* the texel's centre */
                double want[4];
                ref_sample(im, (unsigned)s, fc, want);
                for (int k = 0; k < 4; k++)
                    if (!near(out[4 * i + k], want[k], 1e-6) && !bad++)
                        CHECK(0, "%s addressing %u at (%d, %d, %d): channel %d %g, want %g", type_name(sampled_types[t]),
                              addr, c[nc * i], c[nc * i + 1], nc > 2 ? c[nc * i + 2] : 0, k, out[4 * i + k], want[k]);
            }
            CHECK(!bad);
        }
        image_free(im);
    }
}

/* ---- writes: the reference encoder (the spec's conversions) --------------------------------- */
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
static uint32_t ref_norm(float f, float scale, int is_signed)
{
    if (isnan(f))
        return 0;
    float x = f * scale; /* in float, as convert_*_sat_rte(f * scale) */
    return (uint32_t)(int32_t)nearbyint(clampd(x, is_signed ? -scale - 1 : 0, scale));
}
static double srgb_encode(double c)
{
    if (isnan(c) || c <= 0)
        return 0;
    if (c >= 1)
        return 1;
    return c < 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

/* The bytes write_imagef/i/ui must store for rgba value v (ints in vi). */
static void ref_encode(const image *im, const float *v, const int32_t *vi, int kind, uint8_t *p)
{
    cl_channel_order o = im->d.channel_order;
    cl_channel_type t = im->d.channel_data_type;
    int idx[4] = {0, 1, 2, 3}; /* the rgba component each stored channel takes */
    switch (o) {
    case CL_A: idx[0] = 3; break;
    case CL_RA: idx[1] = 3; break;
    case CL_BGRA: case CL_sBGRA: idx[0] = 2, idx[2] = 0; break;
    case CL_ARGB: idx[0] = 3, idx[1] = 0, idx[2] = 1, idx[3] = 2; break;
    case CL_ABGR: idx[0] = 3, idx[1] = 2, idx[2] = 1, idx[3] = 0; break;
    default: break;
    }
    int srgb = o == CL_sRGBA || o == CL_sBGRA;
    for (unsigned c = 0; c < (is_packed(t) ? 0 : im->d.num_channels); c++) {
        float f = v[idx[c]];
        int32_t i = vi[idx[c]];
        uint32_t u = (uint32_t)i;
        if (srgb && idx[c] != 3) {
            p[c] = (uint8_t)floor(srgb_encode(f) * 255 + 0.5);
            continue;
        }
        switch (t) {
        case CL_UNORM_INT8: p[c] = (uint8_t)ref_norm(f, 255.0f, 0); break;
        case CL_SNORM_INT8: p[c] = (uint8_t)ref_norm(f, 127.0f, 1); break;
        case CL_UNORM_INT16: { uint16_t w = (uint16_t)ref_norm(f, 65535.0f, 0); memcpy(p + 2 * c, &w, 2); break; }
        case CL_SNORM_INT16: { uint16_t w = (uint16_t)ref_norm(f, 32767.0f, 1); memcpy(p + 2 * c, &w, 2); break; }
        case CL_HALF_FLOAT: { _Float16 h = (_Float16)f; memcpy(p + 2 * c, &h, 2); break; }
        case CL_FLOAT: memcpy(p + 4 * c, &f, 4); break;
        case CL_SIGNED_INT8: p[c] = (uint8_t)(int8_t)clampd(i, -128, 127); break;
        case CL_SIGNED_INT16: { int16_t w = (int16_t)clampd(i, -32768, 32767); memcpy(p + 2 * c, &w, 2); break; }
        case CL_SIGNED_INT32: memcpy(p + 4 * c, &i, 4); break;
        case CL_UNSIGNED_INT8: p[c] = (uint8_t)(u > 255 ? 255 : u); break;
        case CL_UNSIGNED_INT16: { uint16_t w = (uint16_t)(u > 65535 ? 65535 : u); memcpy(p + 2 * c, &w, 2); break; }
        default: memcpy(p + 4 * c, &u, 4); break;
        }
    }
    if (is_packed(t)) {
        uint32_t w;
        if (t == CL_UNORM_SHORT_565)
            w = ref_norm(v[0], 31, 0) << 11 | ref_norm(v[1], 63, 0) << 5 | ref_norm(v[2], 31, 0);
        else if (t == CL_UNORM_SHORT_555)
            w = ref_norm(v[0], 31, 0) << 10 | ref_norm(v[1], 31, 0) << 5 | ref_norm(v[2], 31, 0);
        else
            w = ref_norm(v[0], 1023, 0) << 20 | ref_norm(v[1], 1023, 0) << 10 | ref_norm(v[2], 1023, 0);
        memcpy(p, &w, t == CL_UNORM_INT_101010 ? 4 : 2);
    }
    (void)kind;
}

/* write_imagef/i/ui of every format: each pixel once, plus writes outside
 * the image that must change nothing (rows' padding included). */
TEST(encode)
{
    const size_t W = 6, H = 3;
    enum { N = 6 * 3 + 4 };
    for (size_t f = 0; f < COUNT(float_formats) + COUNT(int_formats); f++) {
        int isint = f >= COUNT(float_formats);
        format fm = isint ? int_formats[f - COUNT(float_formats)] : float_formats[f];
        image *im = image_new(CL_MEM_OBJECT_IMAGE2D, fm.order, fm.type, W, H, 1, 0);
        image *want = image_new(CL_MEM_OBJECT_IMAGE2D, fm.order, fm.type, W, H, 1, 0);
        memset(im->mem, 0xa5, im->bytes);
        memset(want->mem, 0xa5, want->bytes);
        int c[2 * N];
        float v[4 * N];
        int32_t vi[4 * N];
        for (int i = 0; i < N; i++) {
            c[2 * i] = i < (int)(W * H) ? i % (int)W : (i % 2 ? -1 : (int)W);
            c[2 * i + 1] = i < (int)(W * H) ? i / (int)W : i % (int)H;
            for (int k = 0; k < 4; k++) {
                v[4 * i + k] = fm.type == CL_FLOAT || fm.type == CL_HALF_FLOAT ? rndf(-70000, 70000) : rndf(-1.3f, 1.3f);
                vi[4 * i + k] = (int32_t)rnd() >> (rnd() % 24);
            }
            if (i == 1)
                v[4] = v[5] = NAN; /* NaN becomes 0 in normalized formats */
            if (i == 2)
                v[8] = 0.5f / 255.0f, v[9] = 1.5f / 255.0f; /* ties to even */
            if (i < (int)(W * H))
                ref_encode(want, &v[4 * i], &vi[4 * i], isint, pixel(want, (size_t)c[2 * i], (size_t)c[2 * i + 1], 0));
        }
        void *pc = c, *pv = isint ? (void *)vi : (void *)v;
        void *args[] = {&im->dp, &pc, &pv};
        run1d(exe2d, isint ? (is_signed_int(fm.type) ? "write_i" : "write_ui") : "write_f", args, N);
        int bad = 0;
        int srgb = fm.order == CL_sRGBA || fm.order == CL_sBGRA;
        for (size_t b = 0; b < im->bytes && bad < 2; b++) {
            int d = (int)im->mem[b] - (int)want->mem[b];
            if (d && !(srgb && (d == 1 || d == -1)))
                CHECK(!bad++, "format %#x/%#x: byte %zu is %#x, want %#x", fm.order, fm.type, b, im->mem[b],
                      want->mem[b]);
        }
        image_free(im);
        image_free(want);
    }
}

/* get_image_* of every image type. */
TEST(queries)
{
    static const char src[] =
        "kernel void q1(read_only image1d_t a, write_only image1d_buffer_t b, read_write image1d_array_t c,"
        "               global int *o) {\n"
        "  o[0] = get_image_width(a); o[1] = get_image_channel_order(a); o[2] = get_image_channel_data_type(a);\n"
        "  o[3] = get_image_width(b); o[4] = get_image_width(c); o[5] = (int)get_image_array_size(c);\n"
        "}\n"
        "kernel void q2(read_only image2d_t a, write_only image2d_array_t b, read_only image3d_t c,"
        "               read_only image2d_depth_t d, read_only image2d_array_depth_t e, global int *o) {\n"
        "  int2 ad = get_image_dim(a); int4 cd = get_image_dim(c);\n"
        "  o[0] = get_image_width(a); o[1] = get_image_height(a); o[2] = ad.x; o[3] = ad.y;\n"
        "  o[4] = get_image_height(b); o[5] = (int)get_image_array_size(b);\n"
        "  o[6] = get_image_depth(c); o[7] = cd.x; o[8] = cd.y; o[9] = cd.z; o[10] = cd.w;\n"
        "  o[11] = get_image_channel_order(d); o[12] = get_image_width(e); o[13] = (int)get_image_array_size(e);\n"
        "  o[14] = get_image_channel_data_type(c);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL3.0");
    if (!exe)
        return;
    image *a = image_new(CL_MEM_OBJECT_IMAGE1D, CL_BGRA, CL_UNORM_INT8, 13, 1, 1, 0);
    image *b = image_new(CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_R, CL_FLOAT, 17, 1, 1, 0);
    image *c = image_new(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RG, CL_SIGNED_INT8, 11, 1, 1, 7);
    int o[16] = {0}, *po = o;
    void *args1[] = {&a->dp, &b->dp, &c->dp, &po};
    run1d(exe, "q1", args1, 1);
    int want1[] = {13, CL_BGRA, CL_UNORM_INT8, 17, 11, 7};
    for (int i = 0; i < 6; i++)
        CHECK(o[i] == want1[i], "q1 value %d: %d, want %d", i, o[i], want1[i]);
    image *d2 = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 9, 8, 1, 0);
    image *a2 = image_new(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 3, 5, 1, 4);
    image *d3 = image_new(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_HALF_FLOAT, 6, 7, 2, 0);
    image *dd = image_new(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_FLOAT, 4, 4, 1, 0);
    image *da = image_new(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_DEPTH, CL_UNORM_INT16, 10, 2, 1, 3);
    void *args2[] = {&d2->dp, &a2->dp, &d3->dp, &dd->dp, &da->dp, &po};
    run1d(exe, "q2", args2, 1);
    int want2[] = {9, 8, 9, 8, 5, 4, 2, 6, 7, 2, 0, CL_DEPTH, 10, 3, CL_HALF_FLOAT};
    for (int i = 0; i < 15; i++)
        CHECK(o[i] == want2[i], "q2 value %d: %d, want %d", i, o[i], want2[i]);
    image_free(a), image_free(b), image_free(c), image_free(d2), image_free(a2), image_free(d3), image_free(dd),
        image_free(da);
    mosaic_executable_free(exe);
}

/* Samplers declared in the source (program scope and in a kernel) give
 * what the same bits passed as an argument give; read-write images see
 * their own writes after atomic_work_item_fence; depth images. */
TEST(source_samplers)
{
    static const char src[] =
        "constant sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;\n"
        "kernel void k(read_only image2d_t img, sampler_t s, global const float2 *c, global float4 *o) {\n"
        "  const sampler_t ks = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
        "  size_t i = get_global_id(0);\n"
        "  o[3 * i] = read_imagef(img, ps, c[i]);\n"
        "  o[3 * i + 1] = read_imagef(img, ks, c[i] * 8.0f);\n"
        "  o[3 * i + 2] = read_imagef(img, s, c[i]);\n"
        "}\n"
        "kernel void rw(read_write image2d_t img, global float4 *o) {\n"
        "  int2 p = (int2)(get_global_id(0), 0);\n"
        "  float4 v = read_imagef(img, p);\n"
        "  write_imagef(img, p, v * 2.0f + 1.0f);\n"
        "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
        "  o[p.x] = read_imagef(img, p);\n"
        "}\n"
        "kernel void depth(read_only image2d_depth_t d, write_only image2d_array_depth_t e, sampler_t s,\n"
        "                  global float *o) {\n"
        "  int i = get_global_id(0);\n"
        "  o[i] = read_imagef(d, s, (float2)(i + 0.25f, 0.5f));\n"
        "  write_imagef(e, (int4)(i, 1, 1, 0), o[i] * 0.5f);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL3.0");
    if (!exe)
        return;
    image *im = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 8, 8, 1, 0);
    image_fill(im);
    enum { N = 32 };
    float c[2 * N], o[12 * N];
    for (int i = 0; i < 2 * N; i++)
        c[i] = rndf(-1.5f, 2.5f);
    uint64_t s = 0x1 | A_EDGE | F_LINEAR;
    void *pc = c, *po = o;
    void *args[] = {&im->dp, &s, &pc, &po};
    run1d(exe, "k", args, N);
    int bad = 0;
    for (int i = 0; i < N && !bad; i++) {
        double w[3][4];
        float c8[2] = {c[2 * i] * 8.0f, c[2 * i + 1] * 8.0f};
        ref_sample(im, 0x1 | A_MIRROR | F_LINEAR, &c[2 * i], w[0]);
        ref_sample(im, A_CLAMP | F_NEAREST, c8, w[1]);
        ref_sample(im, (unsigned)s, &c[2 * i], w[2]);
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                if (!near(o[12 * i + 4 * j + k], w[j][k], 2e-5) && !bad++)
                    CHECK(0, "sampler %d at (%g, %g): %g, want %g", j, c[2 * i], c[2 * i + 1], o[12 * i + 4 * j + k],
                          w[j][k]);
    }
    CHECK(!bad);

    /* read-write */
    image *rw = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT16, 16, 1, 1, 0);
    for (size_t b = 0; b < rw->bytes; b++)
        rw->mem[b] = (uint8_t)(b * 7);
    double before[16][4];
    for (int x = 0; x < 16; x++)
        ref_pixel_f(rw, (size_t)x, 0, 0, before[x]);
    void *args_rw[] = {&rw->dp, &po};
    run1d(exe, "rw", args_rw, 16);
    for (int x = 0; x < 16; x++)
        for (int k = 0; k < 4; k++) {
            double want = round(clampd(before[x][k] * 2 + 1, 0, 1) * 65535) / 65535;
            CHECK(near(o[4 * x + k], want, 1e-6), "read-write pixel %d channel %d: %g, want %g", x, k, o[4 * x + k],
                  want);
        }

    /* depth: a nearest read at texel centres, a write into layer 1 */
    image *d = image_new(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_FLOAT, 8, 2, 1, 0);
    image *e = image_new(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_DEPTH, CL_UNORM_INT16, 8, 2, 1, 2);
    for (int x = 0; x < 8; x++) {
        float v = (float)x / 8.0f;
        memcpy(pixel(d, (size_t)x, 0, 0), &v, 4);
    }
    uint64_t near_s = F_NEAREST | A_EDGE;
    void *args_d[] = {&d->dp, &e->dp, &near_s, &po};
    run1d(exe, "depth", args_d, 8);
    for (int x = 0; x < 8; x++) {
        uint16_t got;
        memcpy(&got, pixel(e, (size_t)x, 1, 1), 2);
        CHECK(o[x] == (float)x / 8.0f, "depth read %d: %g", x, o[x]);
        CHECK(got == (uint16_t)nearbyint(x / 16.0 * 65535), "depth write %d: %u", x, got);
    }
    image_free(im), image_free(rw), image_free(d), image_free(e);
    mosaic_executable_free(exe);
}

/* What clGetKernelArgInfo reports for image and sampler arguments. */
TEST(arg_info)
{
    mosaic_executable *exe = build_program(
        "kernel void k(read_only image2d_t a, write_only image3d_t b, read_write image1d_buffer_t c,\n"
        "              sampler_t s, image2d_array_depth_t d) {}\n",
        "-cl-std=CL3.0");
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
    static const struct {
        mosaic_arg_kind kind;
        size_t size;
        const char *type;
        cl_kernel_arg_access_qualifier access;
        cl_kernel_arg_address_qualifier space;
    } want[] = {
        {MOSAIC_ARG_IMAGE, sizeof(cl_mem), "image2d_t", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {MOSAIC_ARG_IMAGE, sizeof(cl_mem), "image3d_t", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {MOSAIC_ARG_IMAGE, sizeof(cl_mem), "image1d_buffer_t", CL_KERNEL_ARG_ACCESS_READ_WRITE,
         CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {MOSAIC_ARG_SAMPLER, sizeof(cl_sampler), "sampler_t", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ADDRESS_PRIVATE},
        {MOSAIC_ARG_IMAGE, sizeof(cl_mem), "image2d_array_depth_t", CL_KERNEL_ARG_ACCESS_READ_ONLY,
         CL_KERNEL_ARG_ADDRESS_GLOBAL},
    };
    CHECK(k && k->num_args == COUNT(want));
    for (size_t i = 0; k && i < COUNT(want) && i < k->num_args; i++) {
        const mosaic_kernel_arg *a = &k->args[i];
        CHECK(a->kind == want[i].kind && a->size == want[i].size && !strcmp(a->type_name, want[i].type) &&
                  a->access_qualifier == want[i].access && a->address_qualifier == want[i].space,
              "argument %zu: kind %d size %zu type %s access %#x space %#x", i, a->kind, a->size, a->type_name,
              a->access_qualifier, a->address_qualifier);
    }
    mosaic_executable_free(exe);
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

/* K.wg runs a loop nest specialised per common format when every image has
 * it (image_formats.c) and the general one otherwise: a copy between RGBA
 * UNORM_INT8 and RGBA FLOAT (either way) must convert, and a query must
 * see each image's own format in every nest. */
static const char mixed_source[] =
    "const sampler_t near = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void copy(read_only image2d_t in, write_only image2d_t out, global int *q) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, p, read_imagef(in, near, p));\n"
    "  if (p.x == 0 && p.y == 0) { q[0] = get_image_channel_data_type(in); q[1] = get_image_channel_data_type(out); }\n"
    "}\n";

TEST(mixed_formats)
{
    mosaic_executable *exe = build_program(mixed_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    static const cl_channel_type types[][2] = {
        {CL_UNORM_INT8, CL_FLOAT}, {CL_FLOAT, CL_UNORM_INT8}, {CL_UNORM_INT8, CL_UNORM_INT8}, {CL_FLOAT, CL_FLOAT}};
    for (size_t t = 0; t < COUNT(types); t++) {
        const size_t W = 21, H = 5;
        image *in = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, types[t][0], W, H, 1, 0);
        image *out = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, types[t][1], W, H, 1, 0);
        image_fill(in);
        memset(out->mem, 0, out->bytes);
        int32_t q[2] = {0, 0};
        int32_t *qp = q;
        void *args[] = {&in->dp, &out->dp, &qp};
        ndrange r = {.dim = 2, .global = {W, H}, .local = {7, 1}};
        CHECK(run_kernel(exe, "copy", args, &r) == 0);
        CHECK(q[0] == (int32_t)types[t][0] && q[1] == (int32_t)types[t][1], "types %#x -> %#x: queries %#x %#x",
              types[t][0], types[t][1], q[0], q[1]);
        int bad = 0;
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++)
                for (unsigned c = 0; c < 4; c++) {
                    float f = types[t][0] == CL_FLOAT ? ((const float *)pixel(in, x, y, 0))[c]
                                                      : (float)pixel(in, x, y, 0)[c] * (1.0f / 255.0f);
                    if (types[t][1] == CL_FLOAT) {
                        float got;
                        memcpy(&got, pixel(out, x, y, 0) + 4 * c, 4);
                        bad += got != f;
                    } else {
                        bad += pixel(out, x, y, 0)[c] != ref_norm(f, 255.0f, 0);
                    }
                }
        CHECK(!bad, "types %#x -> %#x: %d channels wrong", types[t][0], types[t][1], bad);
        image_free(in);
        image_free(out);
    }
    mosaic_executable_free(exe);
}

/* Rows that stay inside the image (src/compiler/images/image_bounds_versioning.c): x loops get a
 * version without clamps or in-image tests, taken for a work-group row only
 * when every such coordinate of the row is inside.  Rows partly outside (the
 * global size is wider than the image, an offset, taps reaching past either
 * edge, a write shifted out of the image) take the other version; both must
 * give the host's answer, and the kernels must run as vectors of work-items. */
static const char rows_source[] =
    "const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void taps(read_only image2d_t in, write_only image2d_t out, int dx, int dy) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1)), d = (int2)(dx, dy);\n"
    "  float4 s = read_imagef(in, edge, p);\n"
    "  for (int i = 1; i <= 3; i++)\n"
    "    s += (float)i * (read_imagef(in, edge, p + i * d) - 0.5f * read_imagef(in, edge, p - i * d));\n"
    "  write_imagef(out, p, s * 0.125f);\n"
    "}\n"
    "kernel void shift(read_only image2d_t in, write_only image2d_t out, int dx) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, (int2)(p.x + dx, p.y), read_imagef(in, (int2)(p.x - dx, p.y)));\n"
    "}\n";

static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* Compares the pixel out(x, y) with the value v (4 channels, before encoding). */
static int pixel_is(const image *out, size_t x, size_t y, const double *v)
{
    for (unsigned c = 0; c < 4; c++) {
        if (out->d.channel_data_type == CL_FLOAT) {
            float got;
            memcpy(&got, pixel(out, x, y, 0) + 4 * c, 4);
            if (!near(got, v[c], 1e-5))
                return 0;
        } else {
            int want = (int)ref_norm((float)v[c], 255.0f, 0), got = pixel(out, x, y, 0)[c];
            if (abs(got - want) > 1)
                return 0;
        }
    }
    return 1;
}

TEST(inside_rows)
{
    mosaic_executable *exe = build_program(rows_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    for (int k = 0; k < 2; k++) {
        const mosaic_kernel_info *info = mosaic_executable_find_kernel(exe, k ? "shift" : "taps");
        CHECK(info && info->vectorised_loops >= 4,
              "%s: %u loops over work-items vectorised, want one per combination of the two images' classes",
              k ? "shift" : "taps", info ? info->vectorised_loops : 0);
    }
    static const cl_channel_type types[] = {CL_UNORM_INT8, CL_FLOAT};
    static const int steps[][2] = {{1, 0}, {0, 1}, {-2, 1}, {5, 0}};
    const int W = 53, H = 7;
    for (size_t t = 0; t < COUNT(types); t++) {
        image *in = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, types[t], (size_t)W, (size_t)H, 1, 0);
        image *out = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, types[t], (size_t)W, (size_t)H, 1, 0);
        image_fill(in);
        for (size_t st = 0; st < COUNT(steps); st++) {
            int dx = steps[st][0], dy = steps[st][1];
            /* taps: every pixel, from work-groups of 16 that overhang the right edge */
            memset(out->mem, 0, out->bytes);
            void *a1[] = {&in->dp, &out->dp, &dx, &dy};
            ndrange r = {.dim = 2, .global = {64, (size_t)H}, .local = {16, 1}};
            CHECK(run_kernel(exe, "taps", a1, &r) == 0);
            int bad = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double s[4], a[4], b[4];
                    ref_pixel_f(in, (size_t)x, (size_t)y, 0, s);
                    for (int i = 1; i <= 3; i++) {
                        ref_pixel_f(in, (size_t)clampi(x + i * dx, W), (size_t)clampi(y + i * dy, H), 0, a);
                        ref_pixel_f(in, (size_t)clampi(x - i * dx, W), (size_t)clampi(y - i * dy, H), 0, b);
                        for (int c = 0; c < 4; c++)
                            s[c] += i * (a[c] - 0.5 * b[c]);
                    }
                    for (int c = 0; c < 4; c++)
                        s[c] *= 0.125;
                    if (!pixel_is(out, (size_t)x, (size_t)y, s) && !bad++)
                        CHECK(0, "taps, type %#x, step (%d, %d): pixel (%d, %d) wrong", types[t], dx, dy, x, y);
                }
            CHECK(!bad);
            /* shift: sampler-less reads and writes, from an offset, leaving the image */
            memset(out->mem, 0x5a, out->bytes);
            void *a2[] = {&in->dp, &out->dp, &dx};
            ndrange r2 = {.dim = 2, .global = {48, (size_t)H - 2}, .local = {8, 1}, .offset = {3, 1}};
            CHECK(run_kernel(exe, "shift", a2, &r2) == 0);
            bad = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int gx = x - dx; /* the work-item that wrote here, if any */
                    int written = y >= 1 && y < H - 1 && gx >= 3 && gx < 3 + 48;
                    double v[4] = {0, 0, 0, 0};
                    if (!written) {
                        bad += memcmp(pixel(out, (size_t)x, (size_t)y, 0), "\x5a\x5a\x5a\x5a", 4) != 0;
                        continue;
                    }
                    if (gx - dx >= 0 && gx - dx < W)
                        ref_pixel_f(in, (size_t)(gx - dx), (size_t)y, 0, v);
                    if (!pixel_is(out, (size_t)x, (size_t)y, v) && !bad++)
                        CHECK(0, "shift, type %#x, dx %d: pixel (%d, %d) wrong", types[t], dx, x, y);
                }
            CHECK(!bad, "shift, type %#x, dx %d: %d pixels wrong", types[t], dx, bad);
        }
        image_free(in);
        image_free(out);
    }
    mosaic_executable_free(exe);
}

/* Rows as wide as the image: the taps of x +- i overhang both edges, so the
 * row is split, the clamped loop at either end and the version without
 * clamps in the middle (image_bounds_versioning.c, mc_row_split); a 4-byte
 * pixel is read and written as one word (images.cl).  Every pixel against
 * the host, for each common format: edge reads clamped, the middle exact,
 * a y test that fails for some rows (the offset), and a bilinear resize with
 * normalized coordinates over the same whole rows. */
static const char whole_rows_source[] =
    "const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "const sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void taps(read_only image2d_t in, write_only image2d_t out, int dx, int dy) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1)), d = (int2)(dx, dy);\n"
    "  float4 s = 0.25f * read_imagef(in, edge, p);\n"
    "  for (int i = 1; i <= 4; i++)\n"
    "    s += 0.0625f * (float)i * (read_imagef(in, edge, p + i * d) + read_imagef(in, edge, p - i * d));\n"
    "  write_imagef(out, p, s);\n"
    "}\n"
    "kernel void resize(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float2 s = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(out));\n"
    "  write_imagef(out, p, read_imagef(in, bilinear, s));\n"
    "}\n";

/* Does out(x, y), decoded as the host decodes it, hold v (within a step of its format)? */
static int decoded_is(const image *out, size_t x, size_t y, const double *v)
{
    double got[4];
    ref_pixel_f(out, x, y, 0, got);
    for (unsigned c = 0; c < 4; c++)
        if (out->d.channel_data_type == CL_FLOAT ? !near(got[c], v[c], 1e-5) : fabs(got[c] - clampd(v[c], 0, 1)) > 1.01 / 255)
            return 0;
    return 1;
}

TEST(whole_rows)
{
    mosaic_executable *exe = build_program(whole_rows_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    static const format fmts[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8}};
    static const int steps[][2] = {{1, 0}, {-3, 0}, {0, 1}, {2, 1}, {20, 0}};
    const int W = 48, H = 6;
    for (size_t f = 0; f < COUNT(fmts); f++) {
        image *in = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, (size_t)W, (size_t)H, 1, 0);
        image *out = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, (size_t)W, (size_t)H, 1, 0);
        image_fill(in);
        for (size_t st = 0; st < COUNT(steps); st++) {
            int dx = steps[st][0], dy = steps[st][1];
            /* the image's width in one work-group row; the rows from 1 past the bottom */
            memset(out->mem, 0, out->bytes);
            void *a[] = {&in->dp, &out->dp, &dx, &dy};
            ndrange r = {.dim = 2, .global = {(size_t)W, (size_t)H}, .local = {(size_t)W, 1}, .offset = {0, 1}};
            CHECK(run_kernel(exe, "taps", a, &r) == 0);
            int bad = 0;
            for (int y = 1; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double s[4], t0[4], t1[4];
                    ref_pixel_f(in, (size_t)x, (size_t)y, 0, s);
                    for (int c = 0; c < 4; c++)
                        s[c] *= 0.25;
                    for (int i = 1; i <= 4; i++) {
                        ref_pixel_f(in, (size_t)clampi(x + i * dx, W), (size_t)clampi(y + i * dy, H), 0, t0);
                        ref_pixel_f(in, (size_t)clampi(x - i * dx, W), (size_t)clampi(y - i * dy, H), 0, t1);
                        for (int c = 0; c < 4; c++)
                            s[c] += 0.0625 * i * (t0[c] + t1[c]);
                    }
                    if (!decoded_is(out, (size_t)x, (size_t)y, s) && !bad++)
                        CHECK(0, "taps, format %#x/%#x, step (%d, %d): pixel (%d, %d) wrong", fmts[f].order,
                              fmts[f].type, dx, dy, x, y);
                }
            CHECK(!bad);
        }
        /* bilinear resize to 3/4 (and up to 3/2) over whole rows */
        for (int up = 0; up < 2; up++) {
            size_t rw = up ? (size_t)W * 3 / 2 : (size_t)W * 3 / 4, rh = (size_t)H;
            image *ro = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, rw, rh, 1, 0);
            void *a[] = {&in->dp, &ro->dp};
            ndrange r = {.dim = 2, .global = {rw, rh}, .local = {rw, 1}};
            CHECK(run_kernel(exe, "resize", a, &r) == 0);
            int bad = 0;
            for (size_t y = 0; y < rh; y++)
                for (size_t x = 0; x < rw; x++) {
                    float c[2] = {((float)x + 0.5f) / (float)rw, ((float)y + 0.5f) / (float)rh};
                    double want[4];
                    ref_sample(in, 1u | A_EDGE | F_LINEAR, c, want);
                    if (!decoded_is(ro, x, y, want) && !bad++)
                        CHECK(0, "resize to %zux%zu, format %#x/%#x: pixel (%zu, %zu) wrong", rw, rh, fmts[f].order,
                              fmts[f].type, x, y);
                }
            CHECK(!bad);
            image_free(ro);
        }
        image_free(in);
        image_free(out);
    }
    mosaic_executable_free(exe);
}

/* A copy's channels through float and back (channel_round_trips.c): the
 * rows inside copy RGBA UNORM_INT8 words without converting, so every byte
 * must come back; halving is no round trip and keeps its conversions; a
 * channel plus one is 255 whatever the byte.  RGBA FLOAT and BGRA
 * UNORM_INT8 (written out of line) alongside.  Images 67 pixels wide (no
 * multiple of a vector) and 1 pixel wide, rows of one group and of 16. */
static const char round_trip_source[] =
    "kernel void copy(read_only image2d_t in, write_only image2d_t out)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(out, p, read_imagef(in, p)); }\n"
    "kernel void halve(read_only image2d_t in, write_only image2d_t out)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(out, p, read_imagef(in, p) * 0.5f); }\n"
    "kernel void white(read_only image2d_t in, write_only image2d_t out)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(out, p, read_imagef(in, p) + 1.0f); }\n";

/* What kernel k (0 copy, 1 halve, 2 white) writes for channel c of in(x, y). */
static void round_trip_want(const image *in, size_t x, size_t y, unsigned c, int k, uint8_t *want)
{
    const uint8_t *p = pixel(in, x, y, 0);
    if (in->d.channel_data_type == CL_FLOAT) {
        float f;
        memcpy(&f, p + 4 * c, 4);
        f = k == 0 ? f : k == 1 ? f * 0.5f : f + 1.0f;
        memcpy(want, &f, 4);
        return;
    }
    float f = (float)p[c] * (1.0f / 255.0f);
    want[0] = (uint8_t)ref_norm(k == 0 ? f : k == 1 ? f * 0.5f : f + 1.0f, 255.0f, 0);
}

TEST(round_trips)
{
    mosaic_executable *exe = build_program(round_trip_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    static const format fmts[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8}};
    static const size_t sizes[][2] = {{67, 5}, {1, 64}};
    static const char *const names[] = {"copy", "halve", "white"};
    for (size_t f = 0; f < COUNT(fmts); f++)
        for (size_t z = 0; z < COUNT(sizes); z++) {
            size_t W = sizes[z][0], H = sizes[z][1];
            image *in = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, W, H, 1, 0);
            image *out = image_new(CL_MEM_OBJECT_IMAGE2D, fmts[f].order, fmts[f].type, W, H, 1, 0);
            image_fill(in);
            if (fmts[f].type == CL_UNORM_INT8) /* every byte, in every channel */
                for (size_t y = 0; y < H; y++)
                    for (size_t x = 0; x < W; x++)
                        for (unsigned c = 0; c < 4; c++)
                            pixel(in, x, y, 0)[c] = (uint8_t)((y * W + x) * 4 + c * 65);
            size_t esize = fmts[f].type == CL_FLOAT ? 4 : 1;
            for (int k = 0; k < 3; k++)
                for (int whole = 0; whole < 2; whole++) {
                    memset(out->mem, 0x5a, out->bytes);
                    void *args[] = {&in->dp, &out->dp};
                    ndrange r = {.dim = 2, .global = {W, H}, .local = {whole || W < 16 ? W : 16, 1}};
                    if (r.global[0] % r.local[0])
                        r.global[0] += r.local[0] - r.global[0] % r.local[0]; /* rows past the image */
                    CHECK(run_kernel(exe, names[k], args, &r) == 0);
                    int bad = 0;
                    for (size_t y = 0; y < H; y++)
                        for (size_t x = 0; x < W; x++)
                            for (unsigned c = 0; c < 4; c++) {
                                uint8_t want[4];
                                round_trip_want(in, x, y, c, k, want);
                                if (memcmp(pixel(out, x, y, 0) + esize * c, want, esize) && !bad++)
                                    CHECK(0, "%s, format %#x/%#x, %zux%zu: pixel (%zu, %zu) channel %u wrong", names[k],
                                          fmts[f].order, fmts[f].type, W, H, x, y, c);
                            }
                    CHECK(!bad);
                }
            image_free(in);
            image_free(out);
        }
    mosaic_executable_free(exe);
}

/* Bilinear reads (clamp-to-edge) over whole rows: the two texels along x
 * come from one read of two neighbouring pixels, chosen at the edges
 * (images.cl, edge_lerp_x).  Coordinates from past the left edge to past
 * the right one, exact in float ((x + 0.5) / 16 - 0.25), on images 1, 2, 3
 * and 17 pixels wide, every float format, into RGBA FLOAT (a nest per class
 * for RGBA UNORM_INT8 and FLOAT, the general one for the others). */
static const char bilinear_source[] =
    "const sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void stretch(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float2 c = (convert_float2(p) + 0.5f) * (float2)(0.0625f, 0.5f) - 0.25f;\n"
    "  write_imagef(out, p, read_imagef(in, bilinear, c));\n"
    "}\n";

TEST(bilinear_edges)
{
    mosaic_executable *exe = build_program(bilinear_source, "-cl-std=CL3.0");
    if (!exe)
        return;
    static const size_t widths[] = {1, 2, 3, 17};
    const size_t OW = 37, OH = 3, H = 2;
    for (size_t f = 0; f < COUNT(float_formats); f++)
        for (size_t w = 0; w < COUNT(widths); w++) {
            image *in = image_new(CL_MEM_OBJECT_IMAGE2D, float_formats[f].order, float_formats[f].type, widths[w], H,
                                  1, 0);
            image *out = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, OW, OH, 1, 0);
            image_fill(in);
            void *args[] = {&in->dp, &out->dp};
            ndrange r = {.dim = 2, .global = {OW, OH}, .local = {OW, 1}};
            CHECK(run_kernel(exe, "stretch", args, &r) == 0);
            int bad = 0;
            for (size_t y = 0; y < OH; y++)
                for (size_t x = 0; x < OW; x++) {
                    float c[2] = {((float)x + 0.5f) * 0.0625f - 0.25f, ((float)y + 0.5f) * 0.5f - 0.25f};
                    double want[4];
                    ref_sample(in, 1u | A_EDGE | F_LINEAR, c, want);
                    for (unsigned k = 0; k < 4; k++) {
                        float got;
                        memcpy(&got, pixel(out, x, y, 0) + 4 * k, 4);
                        if (!near(got, want[k], 2e-5) && !bad++)
                            CHECK(0, "format %#x/%#x, width %zu: pixel (%zu, %zu) channel %u %.7g, want %.7g",
                                  float_formats[f].order, float_formats[f].type, widths[w], x, y, k, got, want[k]);
                    }
                }
            CHECK(!bad);
            image_free(in);
            image_free(out);
        }
    mosaic_executable_free(exe);
}

int main(int argc, char **argv)
{
    for (size_t t = 0; t < COUNT(sampled_types); t++)
        exe_by_type[t] = build_for(sampled_types[t]);
    exe2d = exe_by_type[2];
    test_run(argc, argv);
    for (size_t t = 0; t < COUNT(sampled_types); t++)
        mosaic_executable_free(exe_by_type[t]);
    return test_summary();
}
