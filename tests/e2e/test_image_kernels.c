/*
 * Images and samplers end to end (issue 10; docs/images.md,
 * docs/image_builtins.md): kernels that take images and samplers through
 * clCreateImage, clCreateSampler(WithProperties) and clSetKernelArg, run
 * through the ICD loader, each result checked against a host model written
 * here from the OpenCL specification (section 8.3 of OpenCL C, "Image
 * Addressing and Filtering" of the API), not from builtins/images.cl:
 * sampler reads (nearest and linear, normalized or not, every addressing
 * mode, coordinates on and across the borders) on 1D, 1D array, 2D, 2D array
 * and 3D images; integer coordinates; read_imagei/ui; write_imagef/i/ui on
 * every image type; read_write images; 1D buffer images and 2D images made
 * from a buffer; samplers declared in the source; get_image_*; argument
 * info and clSetKernelArg's errors; every 2D format the device lists, read
 * three ways and written by a kernel; CL_MEM_USE_HOST_PTR images with row
 * and slice pitches; depth arrays; objects released while a launch waits;
 * an sRGB view; fills; eight images in one kernel and a clone; an image over
 * many work-groups.  The _fibers runs repeat kernels with
 * MOSAIC_BARRIER_FIBERS=1.
 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_image_kernels.list"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program; /* every kernel below, built once */

static const char kernels_src[] =
    "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n"
    /* reads: with a sampler and float coordinates (s), a sampler and int coordinates (i), no sampler (n) */
    "#define RDS(name, T, F, R, sw) kernel void name(read_only T im, sampler_t s, global const float4 *c, global R *o)"
    " { size_t i = get_global_id(0); o[i] = F(im, s, c[i]sw); }\n"
    "#define RDI(name, T, F, R, sw) kernel void name(read_only T im, sampler_t s, global const int4 *c, global R *o)"
    " { size_t i = get_global_id(0); o[i] = F(im, s, c[i]sw); }\n"
    "#define RDN(name, T, F, R, sw) kernel void name(read_only T im, global const int4 *c, global R *o)"
    " { size_t i = get_global_id(0); o[i] = F(im, c[i]sw); }\n"
    "#define ALL(M, F, R, p) M(p##_1d, image1d_t, F, R, .x) M(p##_1da, image1d_array_t, F, R, .xy)"
    " M(p##_2d, image2d_t, F, R, .xy) M(p##_2da, image2d_array_t, F, R, ) M(p##_3d, image3d_t, F, R, )\n"
    "ALL(RDS, read_imagef, float4, sf) ALL(RDS, read_imagei, int4, si) ALL(RDS, read_imageui, uint4, su)\n"
    "ALL(RDI, read_imagef, float4, if) ALL(RDI, read_imagei, int4, ii) ALL(RDI, read_imageui, uint4, iu)\n"
    "ALL(RDN, read_imagef, float4, nf) ALL(RDN, read_imagei, int4, ni) ALL(RDN, read_imageui, uint4, nu)\n"
    "RDN(nf_1db, image1d_buffer_t, read_imagef, float4, .x) RDN(ni_1db, image1d_buffer_t, read_imagei, int4, .x)"
    " RDN(nu_1db, image1d_buffer_t, read_imageui, uint4, .x)\n"
    /* writes: a value of the work-item's coordinates, some out of the format's range */
    "#define WV int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);"
    " int4 n = ((int4)(x * 7 + y * 13 + z * 29) + (int4)(0, 5, 10, 15)) % 97;\n"
    "#define WR(name, T, cd)"
    " kernel void wf_##name(write_only T im) { WV write_imagef(im, cd, convert_float4(n - 8) * (1.0f / 64)); }"
    " kernel void wi_##name(write_only T im) { WV write_imagei(im, cd, (n - 48) * 1000); }"
    " kernel void wu_##name(write_only T im) { WV write_imageui(im, cd, convert_uint4(n) * 5u); }\n"
    "WR(1d, image1d_t, x) WR(1db, image1d_buffer_t, x) WR(1da, image1d_array_t, (int2)(x, y))"
    " WR(2d, image2d_t, (int2)(x, y)) WR(2da, image2d_array_t, (int4)(x, y, z, 0)) WR(3d, image3d_t, (int4)(x, y, z, 0))\n"
    /* read_write: write, fence, read back the new value */
    "#define FENCE atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
    "kernel void rw_2d(read_write image2d_t im, global float4 *o) {"
    " int2 p = (int2)(get_global_id(0), get_global_id(1)); float4 v = read_imagef(im, p);"
    " write_imagef(im, p, v * 0.5f + 0.25f); FENCE o[p.y * get_global_size(0) + p.x] = read_imagef(im, p); }\n"
    "kernel void rw_3d(read_write image3d_t im, global uint4 *o) {"
    " int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0); uint4 v = read_imageui(im, p);"
    " write_imageui(im, p, v + (uint4)(1, 2, 3, 4)); FENCE"
    " o[(p.z * get_global_size(1) + p.y) * get_global_size(0) + p.x] = read_imageui(im, p); }\n"
    "kernel void rw_1da(read_write image1d_array_t im, global int4 *o) {"
    " int2 p = (int2)(get_global_id(0), get_global_id(1)); int4 v = read_imagei(im, p);"
    " write_imagei(im, p, -v); FENCE o[p.y * get_global_size(0) + p.x] = read_imagei(im, p); }\n"
    /* buffers seen as images */
    "kernel void b1d(read_only image1d_buffer_t in, write_only image1d_buffer_t out) {"
    " int i = get_global_id(0); write_imageui(out, i, read_imageui(in, i).wzyx + 1); }\n"
    "kernel void from_buf(write_only image2d_t im) { int x = get_global_id(0), y = get_global_id(1);"
    " write_imagef(im, (int2)(x, y), (float4)(x, y, x + y, 3) * (1.0f / 32)); }\n"
    /* samplers of the source, at program scope and in the kernel */
    "constant sampler_t g_s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
    "kernel void src_samplers(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o) {"
    " const sampler_t l_s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;"
    " size_t i = get_global_id(0); o[3 * i] = read_imagef(im, g_s, c[i].xy);"
    " o[3 * i + 1] = read_imagef(im, l_s, c[i].zw); o[3 * i + 2] = read_imagef(im, s, c[i].xy); }\n"
    /* get_image_*: o[0..9] width, height, depth, array size, data type, order, dim */
    "#define QC o[4] = get_image_channel_data_type(im); o[5] = get_image_channel_order(im);\n"
    "kernel void q_1d(read_only image1d_t im, global int *o) { o[0] = get_image_width(im); QC }\n"
    "kernel void q_1db(read_only image1d_buffer_t im, global int *o) { o[0] = get_image_width(im); QC }\n"
    "kernel void q_1da(read_only image1d_array_t im, global int *o) { o[0] = get_image_width(im);"
    " o[3] = (int)get_image_array_size(im); QC }\n"
    "kernel void q_2d(write_only image2d_t im, global int *o) { o[0] = get_image_width(im);"
    " o[1] = get_image_height(im); int2 d = get_image_dim(im); o[6] = d.x; o[7] = d.y; QC }\n"
    "kernel void q_2da(read_write image2d_array_t im, global int *o) { o[0] = get_image_width(im);"
    " o[1] = get_image_height(im); o[3] = (int)get_image_array_size(im); int2 d = get_image_dim(im);"
    " o[6] = d.x; o[7] = d.y; QC }\n"
    "kernel void q_3d(read_only image3d_t im, global int *o) { o[0] = get_image_width(im);"
    " o[1] = get_image_height(im); o[2] = get_image_depth(im); int4 d = get_image_dim(im);"
    " o[6] = d.x; o[7] = d.y; o[8] = d.z; o[9] = d.w; QC }\n"
    "kernel void q_2dd(read_only image2d_depth_t im, global int *o) { o[0] = get_image_width(im);"
    " o[1] = get_image_height(im); QC }\n"
    /* the format sweep: sampler-less, nearest at the centre, linear between texels */
    "kernel void sw_f(read_only image2d_t im, sampler_t sn, sampler_t sl, global float4 *o) {"
    " int x = get_global_id(0), y = get_global_id(1); size_t i = 3 * (y * get_global_size(0) + x);"
    " o[i] = read_imagef(im, (int2)(x, y)); o[i + 1] = read_imagef(im, sn, (float2)(x + 0.5f, y + 0.5f));"
    " o[i + 2] = read_imagef(im, sl, (float2)(x + 0.75f, y + 0.25f)); }\n"
    "kernel void sw_d(read_only image2d_depth_t im, sampler_t sn, sampler_t sl, global float4 *o) {"
    " int x = get_global_id(0), y = get_global_id(1); size_t i = 3 * (y * get_global_size(0) + x);"
    " o[i] = read_imagef(im, (int2)(x, y)); o[i + 1] = read_imagef(im, sn, (float2)(x + 0.5f, y + 0.5f));"
    " o[i + 2] = read_imagef(im, sl, (float2)(x + 0.75f, y + 0.25f)); }\n"
    "kernel void sw_i(read_only image2d_t im, sampler_t sn, sampler_t sl, global int4 *o) {"
    " int x = get_global_id(0), y = get_global_id(1); size_t i = 3 * (y * get_global_size(0) + x);"
    " o[i] = read_imagei(im, (int2)(x, y)); o[i + 1] = read_imagei(im, sn, (float2)(x + 0.5f, y + 0.5f));"
    " o[i + 2] = read_imagei(im, sn, (int2)(x, y)); }\n"
    "kernel void sw_u(read_only image2d_t im, sampler_t sn, sampler_t sl, global uint4 *o) {"
    " int x = get_global_id(0), y = get_global_id(1); size_t i = 3 * (y * get_global_size(0) + x);"
    " o[i] = read_imageui(im, (int2)(x, y)); o[i + 1] = read_imageui(im, sn, (float2)(x + 0.5f, y + 0.5f));"
    " o[i + 2] = read_imageui(im, sn, (int2)(x, y)); }\n"
    /* the write sweep: one value per pixel from a buffer */
    "#define WSW(name, F, V, T) kernel void name(write_only T im, global const V *v) {"
    " int x = get_global_id(0), y = get_global_id(1); F(im, (int2)(x, y), v[y * get_global_size(0) + x]); }\n"
    "WSW(wsw_f, write_imagef, float4, image2d_t) WSW(wsw_i, write_imagei, int4, image2d_t)"
    " WSW(wsw_u, write_imageui, uint4, image2d_t) WSW(wsw_d, write_imagef, float, image2d_depth_t)\n"
    /* copies between two images of one type (pitches of host pointers) */
    "#define CP(name, T, cd) kernel void name(read_only T a, write_only T b) {"
    " int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2); write_imagef(b, cd, read_imagef(a, cd)); }\n"
    "CP(cp_1da, image1d_array_t, (int2)(x, y)) CP(cp_2d, image2d_t, (int2)(x, y))"
    " CP(cp_2da, image2d_array_t, (int4)(x, y, z, 0)) CP(cp_3d, image3d_t, (int4)(x, y, z, 0))\n"
    /* depth arrays */
    "kernel void rdepth_2da(read_only image2d_array_depth_t im, sampler_t s, global const float4 *c, global float *o)"
    " { size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void wdepth_2da(write_only image2d_array_depth_t im) {"
    " int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);"
    " write_imagef(im, (int4)(x, y, z, 0), (x + y * 8 + z * 64) * (1.0f / 1024)); }\n"
    /* many image and sampler arguments, through a helper function */
    "float4 rd(read_only image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c); }\n"
    "kernel void many(read_only image2d_t a, read_only image2d_t b, read_only image2d_t c, read_only image2d_t d,"
    " sampler_t s0, read_only image2d_t e, read_only image2d_t f, read_only image2d_t g, read_only image2d_t h,"
    " sampler_t s1, global const float4 *co, write_only image2d_t out, global float4 *o) {"
    " size_t i = get_global_id(0); float2 p = co[i].xy, q = co[i].zw;"
    " float4 r = rd(a, s0, p) + 2 * rd(b, s1, q) + 4 * rd(c, s0, q) + 8 * rd(d, s1, p)"
    " + 16 * rd(e, s0, p) + 32 * rd(f, s1, q) + 64 * rd(g, s0, q) + 128 * rd(h, s1, p);"
    " o[i] = r; write_imagef(out, (int2)(i % 16, i / 16), r * (1.0f / 256)); }\n"
    /* a read_write image shared by a work-group across a barrier */
    "kernel void rw_barrier(read_write image2d_t im, global float4 *o) {"
    " int2 p = (int2)(get_global_id(0), get_global_id(1)); int W = get_local_size(0), H = get_local_size(1);"
    " int2 g = (int2)(get_group_id(0) * W, get_group_id(1) * H), l = (int2)(get_local_id(0), get_local_id(1));"
    " write_imagef(im, p, (float4)(p.x, p.y, p.x * p.y, 1)); barrier(CLK_IMAGE_MEM_FENCE);"
    " o[p.y * get_global_size(0) + p.x] = read_imagef(im, g + (int2)(W - 1 - l.x, H - 1 - l.y)); }\n"
    /* samplers as literals: a non-const kernel variable, and the constant in the call */
    "kernel void literal_samplers(read_only image2d_t im, global const float4 *c, global float4 *o) {"
    " sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR; size_t i = get_global_id(0);"
    " o[2 * i] = read_imagef(im, s, c[i].xy);"
    " o[2 * i + 1] = read_imagef(im, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST, c[i].zw); }\n"
    /* a tile in local memory: reads before a barrier, another work-item's value after it */
    "kernel void tile(read_only image2d_t im, sampler_t s, global float4 *o, local float4 *t) {"
    " int lx = get_local_id(0), ly = get_local_id(1), W = get_local_size(0), H = get_local_size(1);"
    " int x = get_global_id(0), y = get_global_id(1);"
    " t[ly * W + lx] = read_imagef(im, s, (float2)(x + 0.25f, y + 0.75f)); barrier(CLK_LOCAL_MEM_FENCE);"
    " o[y * get_global_size(0) + x] = t[(H - 1 - ly) * W + (W - 1 - lx)]; }\n"
    /* read_imageh / write_imageh (cl_khr_fp16): the forms of every image type */
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "ALL(RDS, read_imageh, half4, hs) ALL(RDN, read_imageh, half4, hn) RDN(hn_1db, image1d_buffer_t, read_imageh, half4, .x)\n"
    "#define WH(name, T, cd)"
    " kernel void wh_##name(write_only T im) { WV write_imageh(im, cd, convert_half4(convert_float4(n - 8) * (1.0f / 64))); }\n"
    "WH(1d, image1d_t, x) WH(1db, image1d_buffer_t, x) WH(1da, image1d_array_t, (int2)(x, y))"
    " WH(2d, image2d_t, (int2)(x, y)) WH(2da, image2d_array_t, (int4)(x, y, z, 0)) WH(3d, image3d_t, (int4)(x, y, z, 0))\n";

/* ---- small helpers ------------------------------------------------------------------ */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f; }

static cl_kernel kern(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_mem buffer(size_t size, const void *data)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)data, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return b;
}

static cl_sampler sampler(cl_bool norm, cl_addressing_mode am, cl_filter_mode fm)
{
    cl_sampler_properties p[] = {CL_SAMPLER_NORMALIZED_COORDS, norm, CL_SAMPLER_ADDRESSING_MODE, am,
                                 CL_SAMPLER_FILTER_MODE, fm, 0};
    cl_int err;
    cl_sampler s = clCreateSamplerWithProperties(context, p, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return s;
}

/* Sets the kernel's arguments (cl_mem, cl_sampler or NULL for a skipped
 * index) and runs it over global (local NULL), waiting for it. */
static bool launch(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, int nargs, const void **args,
                   const size_t *sizes)
{
    for (int a = 0; a < nargs; a++) {
        cl_int err = clSetKernelArg(k, (cl_uint)a, sizes[a], args[a]);
        CHECK_ERR(err, CL_SUCCESS);
        if (err != CL_SUCCESS)
            return false;
    }
    cl_int err = clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    return err == CL_SUCCESS;
}

/* ---- the host model of an image: its bytes and what a read returns for each texel ---- */
typedef struct himg {
    cl_mem_object_type type;
    cl_image_format fmt;
    size_t w, h, d; /* texels per axis: a 1D array's layers are h, a 2D array's d */
    size_t psize;
    uint8_t *bytes; /* packed rows */
    double *val;    /* 4 per texel */
    cl_mem mem;
} himg;

static size_t channels(cl_channel_order o)
{
    switch (o) {
    case CL_RG: return 2;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_sRGBA: case CL_sBGRA: return 4;
    default: return 1; /* R, A, INTENSITY, LUMINANCE, DEPTH; RGB is packed */
    }
}

static size_t pixel_size(cl_image_format f)
{
    switch (f.image_channel_data_type) {
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555: return 2;
    case CL_UNORM_INT_101010: return 4;
    case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
        return channels(f.image_channel_order);
    case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
        return 2 * channels(f.image_channel_order);
    default: return 4 * channels(f.image_channel_order);
    }
}

static bool is_int_type(cl_channel_type t)
{
    return t >= CL_SIGNED_INT8 && t <= CL_UNSIGNED_INT32;
}
static bool is_signed_int(cl_channel_type t) { return t >= CL_SIGNED_INT8 && t <= CL_SIGNED_INT32; }

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

static double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

/* One stored channel k of the pixel at p, as a number (normalized types scaled). */
static double channel(cl_channel_type t, const uint8_t *p, size_t k)
{
    uint8_t u8;
    int8_t s8;
    uint16_t u16;
    int16_t s16;
    uint32_t u32;
    int32_t s32;
    float f;
    switch (t) {
    case CL_UNORM_INT8: memcpy(&u8, p + k, 1); return u8 / 255.0;
    case CL_SNORM_INT8: memcpy(&s8, p + k, 1); return fmax(-1.0, s8 / 127.0);
    case CL_SIGNED_INT8: memcpy(&s8, p + k, 1); return s8;
    case CL_UNSIGNED_INT8: memcpy(&u8, p + k, 1); return u8;
    case CL_UNORM_INT16: memcpy(&u16, p + 2 * k, 2); return u16 / 65535.0;
    case CL_SNORM_INT16: memcpy(&s16, p + 2 * k, 2); return fmax(-1.0, s16 / 32767.0);
    case CL_SIGNED_INT16: memcpy(&s16, p + 2 * k, 2); return s16;
    case CL_UNSIGNED_INT16: memcpy(&u16, p + 2 * k, 2); return u16;
    case CL_HALF_FLOAT: memcpy(&u16, p + 2 * k, 2); return half_to_double(u16);
    case CL_SIGNED_INT32: memcpy(&s32, p + 4 * k, 4); return s32;
    case CL_UNSIGNED_INT32: memcpy(&u32, p + 4 * k, 4); return u32;
    default: memcpy(&f, p + 4 * k, 4); return f;
    }
}

/* What a read returns for the pixel at p (OpenCL C's table of channel mappings). */
static void decode(cl_image_format f, const uint8_t *p, double out[4])
{
    cl_channel_type t = f.image_channel_data_type;
    double c[4] = {0, 0, 0, 0};
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010) {
        uint32_t v = 0;
        memcpy(&v, p, t == CL_UNORM_INT_101010 ? 4 : 2);
        if (t == CL_UNORM_SHORT_565)
            c[0] = (v >> 11 & 31) / 31.0, c[1] = (v >> 5 & 63) / 63.0, c[2] = (v & 31) / 31.0;
        else if (t == CL_UNORM_SHORT_555)
            c[0] = (v >> 10 & 31) / 31.0, c[1] = (v >> 5 & 31) / 31.0, c[2] = (v & 31) / 31.0;
        else
            c[0] = (v >> 20 & 1023) / 1023.0, c[1] = (v >> 10 & 1023) / 1023.0, c[2] = (v & 1023) / 1023.0;
        out[0] = c[0], out[1] = c[1], out[2] = c[2], out[3] = 1;
        return;
    }
    for (size_t k = 0; k < channels(f.image_channel_order); k++)
        c[k] = channel(t, p, k);
    double o[4];
    switch (f.image_channel_order) {
    case CL_R: case CL_DEPTH: o[0] = c[0], o[1] = 0, o[2] = 0, o[3] = 1; break;
    case CL_A: o[0] = 0, o[1] = 0, o[2] = 0, o[3] = c[0]; break;
    case CL_RG: o[0] = c[0], o[1] = c[1], o[2] = 0, o[3] = 1; break;
    case CL_BGRA: o[0] = c[2], o[1] = c[1], o[2] = c[0], o[3] = c[3]; break;
    case CL_ARGB: o[0] = c[1], o[1] = c[2], o[2] = c[3], o[3] = c[0]; break;
    case CL_INTENSITY: o[0] = o[1] = o[2] = o[3] = c[0]; break;
    case CL_LUMINANCE: o[0] = o[1] = o[2] = c[0], o[3] = 1; break;
    case CL_sRGBA:
        o[0] = srgb_to_linear(c[0]), o[1] = srgb_to_linear(c[1]), o[2] = srgb_to_linear(c[2]), o[3] = c[3];
        break;
    case CL_sBGRA:
        o[0] = srgb_to_linear(c[2]), o[1] = srgb_to_linear(c[1]), o[2] = srgb_to_linear(c[0]), o[3] = c[3];
        break;
    default: memcpy(o, c, sizeof o); break; /* RGBA */
    }
    memcpy(out, o, sizeof o);
}

/* The border colour of CLK_ADDRESS_CLAMP: alpha 1 for orders without alpha. */
static void border(cl_image_format f, double out[4])
{
    cl_channel_order o = f.image_channel_order;
    bool no_alpha = o == CL_R || o == CL_RG || o == CL_RGB || o == CL_LUMINANCE;
    out[0] = out[1] = out[2] = 0;
    out[3] = no_alpha ? 1 : 0;
}

/* Random pixel bytes that are not NaN, infinities or denormals for the float types. */
static void random_pixels(cl_image_format f, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
    if (f.image_channel_data_type == CL_HALF_FLOAT)
        for (size_t i = 0; i + 2 <= n; i += 2) {
            uint16_t h;
            memcpy(&h, p + i, 2);
            if ((h >> 10 & 31) == 31)
                h ^= 0x4000;
            memcpy(p + i, &h, 2);
        }
    if (f.image_channel_data_type == CL_FLOAT)
        for (size_t i = 0; i + 4 <= n; i += 4) {
            float v = rndf(-4.0f, 4.0f);
            if (f.image_channel_order == CL_DEPTH)
                v = rndf(0.0f, 1.0f); /* depth values are in [0, 1] */
            memcpy(p + i, &v, 4);
        }
}

/* A new image of random pixels (made with CL_MEM_COPY_HOST_PTR) and its model. */
static himg make_image(cl_mem_object_type type, cl_channel_order o, cl_channel_type t, size_t w, size_t h, size_t d,
                       cl_mem_flags flags)
{
    himg im = {type, {o, t}, w, h, d, 0, NULL, NULL, NULL};
    im.psize = pixel_size(im.fmt);
    size_t n = w * h * d;
    im.bytes = malloc(n * im.psize);
    im.val = malloc(n * 4 * sizeof(double));
    random_pixels(im.fmt, im.bytes, n * im.psize);
    for (size_t i = 0; i < n; i++)
        decode(im.fmt, im.bytes + i * im.psize, im.val + 4 * i);
    cl_image_desc desc = {0};
    desc.image_type = type;
    desc.image_width = w;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        desc.image_array_size = h;
    else
        desc.image_height = h;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        desc.image_array_size = d;
    else
        desc.image_depth = d;
    if (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        desc.image_height = 0;
    if (type != CL_MEM_OBJECT_IMAGE3D)
        desc.image_depth = 0;
    cl_int err;
    im.mem = clCreateImage(context, flags | CL_MEM_COPY_HOST_PTR, &im.fmt, &desc, im.bytes, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return im;
}

static void free_image(himg *im)
{
    if (im->mem)
        clReleaseMemObject(im->mem);
    free(im->bytes), free(im->val);
}

/* ---- the specification's addressing and filtering, in float as it is written ------ */
typedef struct samp {
    cl_bool norm;
    cl_addressing_mode am;
    cl_filter_mode fm;
} samp;

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

static long nearest_index(float s, long size, samp sp)
{
    if (sp.norm && sp.am == CL_ADDRESS_REPEAT) {
        float u = (s - floorf(s)) * (float)size;
        long i = (long)floorf(u);
        return i > size - 1 ? i - size : i;
    }
    if (sp.norm && sp.am == CL_ADDRESS_MIRRORED_REPEAT) {
        float t = fabsf(s - 2.0f * rintf(0.5f * s));
        long i = (long)floorf(t * (float)size);
        return i < size - 1 ? i : size - 1;
    }
    float u = sp.norm ? s * (float)size : s;
    long i = (long)floorf(u);
    return sp.am == CL_ADDRESS_CLAMP_TO_EDGE ? clampl(i, 0, size - 1) : i; /* else out of range: border */
}

static void linear_index(float s, long size, samp sp, long *i0, long *i1, float *a)
{
    float u;
    if (sp.norm && sp.am == CL_ADDRESS_REPEAT)
        u = (s - floorf(s)) * (float)size;
    else if (sp.norm && sp.am == CL_ADDRESS_MIRRORED_REPEAT)
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)size;
    else
        u = sp.norm ? s * (float)size : s;
    float t = u - 0.5f, f = floorf(t);
    *a = t - f;
    *i0 = (long)f, *i1 = (long)f + 1;
    if (sp.norm && sp.am == CL_ADDRESS_REPEAT) {
        if (*i0 < 0)
            *i0 += size;
        if (*i1 > size - 1)
            *i1 -= size;
    } else if ((sp.norm && sp.am == CL_ADDRESS_MIRRORED_REPEAT) || sp.am == CL_ADDRESS_CLAMP_TO_EDGE) {
        *i0 = clampl(*i0, 0, size - 1), *i1 = clampl(*i1, 0, size - 1);
    }
}

/* the image's geometry: spatial axes, their sizes, and the layer count of an array */
static int spatial_axes(const himg *im)
{
    switch (im->type) {
    case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: return 2;
    case CL_MEM_OBJECT_IMAGE3D: return 3;
    default: return 1;
    }
}
static long axis_size(const himg *im, int a) { return a == 0 ? (long)im->w : a == 1 ? (long)im->h : (long)im->d; }
static bool is_array(const himg *im)
{
    return im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}
static long layers(const himg *im) { return im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? (long)im->h : (long)im->d; }

/* The texel at idx[] (spatial axes, then the layer), or the border colour outside. */
static void texel(const himg *im, const long idx[3], double out[4])
{
    long p[3] = {0, 0, 0};
    int n = spatial_axes(im);
    for (int a = 0; a < n; a++)
        p[a] = idx[a];
    if (is_array(im))
        p[n] = idx[n];
    for (int a = 0; a < 3; a++)
        if (p[a] < 0 || p[a] >= axis_size(im, a)) {
            border(im->fmt, out);
            return;
        }
    memcpy(out, im->val + 4 * ((p[2] * (long)im->h + p[1]) * (long)im->w + p[0]), 4 * sizeof(double));
}

/* What read_image* with sampler sp returns at float coordinates c (x, y, z or
 * layer); mag (if not NULL) the largest texel magnitude used, the scale of
 * the float rounding of a filtered value. */
static void sample_mag(const himg *im, samp sp, const float c[4], double out[4], double *mag)
{
    int n = spatial_axes(im);
    long idx[3] = {0, 0, 0}, i0[3], i1[3];
    float w[3];
    if (is_array(im))
        idx[n] = clampl((long)rintf(c[n]), 0, layers(im) - 1);
    if (sp.fm == CL_FILTER_NEAREST) {
        for (int a = 0; a < n; a++)
            idx[a] = nearest_index(c[a], axis_size(im, a), sp);
        texel(im, idx, out);
        if (mag)
            *mag = fmax(fmax(fabs(out[0]), fabs(out[1])), fmax(fabs(out[2]), fabs(out[3])));
        return;
    }
    if (mag)
        *mag = 0;
    for (int a = 0; a < n; a++)
        linear_index(c[a], axis_size(im, a), sp, &i0[a], &i1[a], &w[a]);
    out[0] = out[1] = out[2] = out[3] = 0;
    for (int corner = 0; corner < 1 << n; corner++) {
        double weight = 1, t[4];
        for (int a = 0; a < n; a++) {
            bool hi = corner >> a & 1;
            idx[a] = hi ? i1[a] : i0[a];
            weight *= hi ? (double)w[a] : 1.0 - (double)w[a];
        }
        texel(im, idx, t);
        for (int k = 0; k < 4; k++) {
            out[k] += weight * t[k];
            if (mag)
                *mag = fmax(*mag, fabs(t[k]));
        }
    }
}

static void sample(const himg *im, samp sp, const float c[4], double out[4]) { sample_mag(im, sp, c, out, NULL); }

/* Coordinates on and around every border (u: unnormalized), then random ones. */
static float axis_coord(long size, size_t k, int axis, bool in_range, bool linear)
{
    const float special[] = {-1.7f, -0.5f, -0.25f, 0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.3f};
    const size_t ns = sizeof special / sizeof special[0];
    size_t pick = axis == 0 ? k : axis == 1 ? k / (2 * ns) : k * 7 + 3;
    float u;
    if (k < 4 * ns * ns) {
        size_t j = pick % (2 * ns);
        u = j < ns ? special[j] : (float)size - special[j - ns]; /* the far border too */
    } else {
        u = rndf(-2.5f, (float)size + 2.5f);
    }
    if (in_range) { /* CLK_ADDRESS_NONE: no texel outside the image is used */
        float lo = linear ? 0.51f : 0.01f, hi = (float)size - lo;
        u = u < lo ? lo : u > hi ? hi : u;
    }
    return u;
}

static const char *type_suffix(cl_mem_object_type t)
{
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return "1d";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1db";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1da";
    case CL_MEM_OBJECT_IMAGE2D: return "2d";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2da";
    default: return "3d";
    }
}

static bool close_to(float got, double want, double tol)
{
    if (isnan(want))
        return isnan(got);
    return fabs((double)got - want) <= tol * (1.0 + fabs(want));
}

#define NCOORDS 600

/* read_imagef / read_imagei / read_imageui (by the image's type) with
 * sampler sp at NCOORDS float coordinates; checks against sample(). */
static void check_reads(const himg *im, samp sp, double tol, bool half)
{
    bool ints = is_int_type(im->fmt.image_channel_data_type);
    if (ints && sp.fm == CL_FILTER_LINEAR)
        return; /* integer reads take nearest samplers only */
    char name[16];
    snprintf(name, sizeof name, "%s%s_%s", half ? "h" : "s",
             half ? "s" : !ints ? "f" : is_signed_int(im->fmt.image_channel_data_type) ? "i" : "u",
             type_suffix(im->type));
    int n = spatial_axes(im);
    bool none = sp.am == CL_ADDRESS_NONE, lin = sp.fm == CL_FILTER_LINEAR;
    float *c = calloc(NCOORDS * 4, sizeof(float));
    for (size_t k = 0; k < NCOORDS; k++) {
        for (int a = 0; a < n; a++) {
            long size = axis_size(im, a);
            float u = axis_coord(size, k, a, none, lin);
            c[4 * k + a] = sp.norm ? u / (float)size : u;
            if (sp.norm && (sp.am == CL_ADDRESS_REPEAT || sp.am == CL_ADDRESS_MIRRORED_REPEAT))
                c[4 * k + a] += (float)((long)(k % 5) - 2); /* other periods */
        }
        if (is_array(im))
            c[4 * k + n] = k % 3 == 0 ? (float)(k / 3 % 9) * 0.5f - 1.0f : rndf(-1.4f, (float)layers(im) + 0.4f);
    }
    cl_kernel k = kern(name);
    cl_sampler s = sampler(sp.norm, sp.am, sp.fm);
    cl_mem cb = buffer(NCOORDS * 4 * sizeof(float), c), ob = buffer(NCOORDS * 16, NULL);
    const void *args[] = {&im->mem, &s, &cb, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem), sizeof(cl_mem)};
    size_t global = NCOORDS;
    int bad = 0;
    if (launch(k, 1, &global, NULL, 4, args, sizes)) {
        uint32_t *o = malloc(NCOORDS * 16);
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, NCOORDS * 16, o, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < NCOORDS; i++) {
            double want[4], mag;
            sample_mag(im, sp, c + 4 * i, want, &mag);
            for (int ch = 0; ch < 4; ch++) {
                float gf;
                memcpy(&gf, &o[4 * i + ch], 4);
                if (half) /* read_imagef's value rounded to half: 2^-11 relative more */
                    gf = (float)half_to_double(((const uint16_t *)o)[4 * i + ch]);
                double got = !ints ? gf : is_signed_int(im->fmt.image_channel_data_type) ? (double)(int32_t)o[4 * i + ch]
                                                                                           : (double)o[4 * i + ch];
                bool ok = !ints ? close_to(gf, want[ch], tol * (1 + mag) + (half ? 0x1p-11 : 0)) : got == want[ch];
                if (!ok && bad++ < 4)
                    TEST_FAIL("%s, order 0x%x type 0x%x, sampler norm %u address 0x%x filter 0x%x, coordinates "
                              "(%.9g, %.9g, %.9g): channel %d is %.9g, not %.9g",
                              name, im->fmt.image_channel_order, im->fmt.image_channel_data_type, sp.norm, sp.am,
                              sp.fm, c[4 * i], c[4 * i + 1], c[4 * i + 2], ch, got, want[ch]);
            }
        }
        free(o);
    }
    CHECK(bad == 0, "%s: %d wrong channels", name, bad);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    clReleaseSampler(s);
    clReleaseKernel(k);
    free(c);
}

static void check_sampler_reads(const himg *im, samp sp, double tol) { check_reads(im, sp, tol, false); }

/* Every sampler the specification defines: unnormalized with NONE, CLAMP and
 * CLAMP_TO_EDGE, normalized with all five modes, each nearest and linear. */
static void every_sampler_as(const himg *im, double tol, bool half)
{
    const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                        CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
    for (int norm = 0; norm < 2; norm++)
        for (int m = 0; m < (norm ? 5 : 3); m++)
            for (int f = 0; f < 2; f++)
                check_reads(im, (samp){(cl_bool)norm, modes[m], f ? CL_FILTER_LINEAR : CL_FILTER_NEAREST}, tol,
                            half);
}
static void every_sampler(const himg *im, double tol) { every_sampler_as(im, tol, false); }

static void sampler_reads(cl_mem_object_type type, size_t w, size_t h, size_t d, cl_channel_order o2,
                          cl_channel_type t2)
{
    himg a = make_image(type, CL_RGBA, CL_FLOAT, w, h, d, CL_MEM_READ_ONLY);
    every_sampler(&a, 2e-6);
    free_image(&a);
    himg b = make_image(type, o2, t2, w, h, d, CL_MEM_READ_ONLY);
    every_sampler(&b, 2e-6);
    free_image(&b);
}

TEST(sampler_reads_1d) { sampler_reads(CL_MEM_OBJECT_IMAGE1D, 13, 1, 1, CL_R, CL_UNORM_INT8); }
TEST(sampler_reads_1d_array) { sampler_reads(CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 4, 1, CL_RG, CL_SNORM_INT16); }
TEST(sampler_reads_2d) { sampler_reads(CL_MEM_OBJECT_IMAGE2D, 9, 7, 1, CL_BGRA, CL_UNORM_INT8); }
TEST(sampler_reads_2d_array) { sampler_reads(CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 3, CL_RGBA, CL_UNORM_INT16); }
TEST(sampler_reads_3d) { sampler_reads(CL_MEM_OBJECT_IMAGE3D, 6, 5, 4, CL_LUMINANCE, CL_HALF_FLOAT); }

/* Integer coordinates: with a sampler (unnormalized, nearest; CLAMP and
 * CLAMP_TO_EDGE, outside the image too) and without one (inside it). */
static void check_int_coords(const himg *im, const char *prefix, cl_addressing_mode am)
{
    bool ints = is_int_type(im->fmt.image_channel_data_type);
    char name[16];
    snprintf(name, sizeof name, "%s%s_%s", prefix,
             !ints ? "f" : is_signed_int(im->fmt.image_channel_data_type) ? "i" : "u", type_suffix(im->type));
    bool with_sampler = prefix[0] == 'i';
    int n = spatial_axes(im);
    enum { N = 256 };
    cl_int c[4 * N] = {0};
    for (size_t k = 0; k < N; k++) {
        for (int a = 0; a < n; a++) {
            long size = axis_size(im, a);
            c[4 * k + a] = with_sampler ? (cl_int)(rnd() % (size + 6)) - 3 : (cl_int)(rnd() % size);
        }
        if (is_array(im))
            c[4 * k + n] = with_sampler ? (cl_int)(rnd() % (layers(im) + 2)) - 1 : (cl_int)(rnd() % layers(im));
    }
    cl_kernel k = kern(name);
    cl_sampler s = sampler(CL_FALSE, am, CL_FILTER_NEAREST);
    cl_mem cb = buffer(sizeof c, c), ob = buffer(N * 16, NULL);
    const void *args_s[] = {&im->mem, &s, &cb, &ob}, *args_n[] = {&im->mem, &cb, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem), sizeof(cl_mem)},
           sizes_n[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
    size_t global = N;
    int bad = 0;
    if (with_sampler ? launch(k, 1, &global, NULL, 4, args_s, sizes) : launch(k, 1, &global, NULL, 3, args_n, sizes_n)) {
        uint32_t o[4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < N; i++) {
            long idx[3] = {c[4 * i], c[4 * i + 1], c[4 * i + 2]};
            if (is_array(im))
                idx[n] = clampl(idx[n], 0, layers(im) - 1);
            if (am == CL_ADDRESS_CLAMP_TO_EDGE)
                for (int a = 0; a < n; a++)
                    idx[a] = clampl(idx[a], 0, axis_size(im, a) - 1);
            double want[4];
            texel(im, idx, want);
            for (int ch = 0; ch < 4; ch++) {
                float gf;
                memcpy(&gf, &o[4 * i + ch], 4);
                double got = !ints ? gf : is_signed_int(im->fmt.image_channel_data_type) ? (double)(int32_t)o[4 * i + ch]
                                                                                           : (double)o[4 * i + ch];
                if (!(!ints ? close_to(gf, want[ch], 1e-6) : got == want[ch]) && bad++ < 4)
                    TEST_FAIL("%s address 0x%x at (%d, %d, %d): channel %d is %.9g, not %.9g", name, am, c[4 * i],
                              c[4 * i + 1], c[4 * i + 2], ch, got, want[ch]);
            }
        }
    }
    CHECK(bad == 0, "%s: %d wrong channels", name, bad);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    clReleaseSampler(s);
    clReleaseKernel(k);
}

static const struct { cl_mem_object_type type; size_t w, h, d; } shapes[] = {
    {CL_MEM_OBJECT_IMAGE1D, 17, 1, 1},      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 3, 1},
    {CL_MEM_OBJECT_IMAGE2D, 10, 6, 1},      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 5, 4, 3},
    {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3},
};

TEST(integer_coordinates)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        himg im = make_image(shapes[i].type, CL_RGBA, CL_UNORM_INT8, shapes[i].w, shapes[i].h, shapes[i].d,
                             CL_MEM_READ_ONLY);
        check_int_coords(&im, "i", CL_ADDRESS_CLAMP_TO_EDGE);
        check_int_coords(&im, "i", CL_ADDRESS_CLAMP);
        check_int_coords(&im, "n", CL_ADDRESS_NONE);
        free_image(&im);
        himg r = make_image(shapes[i].type, CL_R, CL_FLOAT, shapes[i].w, shapes[i].h, shapes[i].d, CL_MEM_READ_ONLY);
        check_int_coords(&r, "i", CL_ADDRESS_CLAMP); /* the border (0, 0, 0, 1) */
        free_image(&r);
    }
}

TEST(integer_reads)
{
    const cl_image_format formats[] = {{CL_RGBA, CL_SIGNED_INT16}, {CL_RG, CL_UNSIGNED_INT32},
                                       {CL_R, CL_SIGNED_INT8},     {CL_RGBA, CL_UNSIGNED_INT8},
                                       {CL_BGRA, CL_SIGNED_INT8},  {CL_A, CL_UNSIGNED_INT16}};
    const cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                        CL_ADDRESS_MIRRORED_REPEAT};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            if ((f + i) % 2) /* half of the pairs: enough for every type and format */
                continue;
            himg im = make_image(shapes[i].type, formats[f].image_channel_order, formats[f].image_channel_data_type,
                                 shapes[i].w, shapes[i].h, shapes[i].d, CL_MEM_READ_ONLY);
            check_sampler_reads(&im, (samp){CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}, 0);
            check_sampler_reads(&im, (samp){CL_TRUE, modes[(i + f) / 2 % 4], CL_FILTER_NEAREST}, 0);
            check_int_coords(&im, "i", CL_ADDRESS_CLAMP);
            check_int_coords(&im, "n", CL_ADDRESS_NONE);
            free_image(&im);
        }
}

/* ---- writes --------------------------------------------------------------------------- */
static void encode_channel(cl_channel_type t, double v, uint8_t *p, size_t k)
{
    switch (t) {
    case CL_UNORM_INT8: { float s = (float)v * 255.0f; uint8_t c = (uint8_t)rintf(s < 0 ? 0 : s > 255 ? 255 : s); p[k] = c; break; }
    case CL_UNORM_INT16: {
        float s = (float)v * 65535.0f;
        uint16_t c = (uint16_t)rintf(s < 0 ? 0 : s > 65535 ? 65535 : s);
        memcpy(p + 2 * k, &c, 2);
        break;
    }
    case CL_FLOAT: { float f = (float)v; memcpy(p + 4 * k, &f, 4); break; }
    case CL_SNORM_INT16: {
        float s = (float)v * 32767.0f;
        int16_t c = (int16_t)rintf(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
        memcpy(p + 2 * k, &c, 2);
        break;
    }
    case CL_HALF_FLOAT: { /* finite values, to nearest even */
        double a = fabs(v);
        int e = a < 0x1p-14 ? -15 : ilogb(a);
        uint16_t h = a < 0x1p-14 ? (uint16_t)rint(a * 0x1p24)
                                 : (uint16_t)(((e + 15) << 10) + (uint16_t)rint(ldexp(a, 10 - e)) - 1024);
        h |= signbit(v) ? 0x8000 : 0;
        memcpy(p + 2 * k, &h, 2);
        break;
    }
    case CL_SIGNED_INT8: { int8_t c = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); memcpy(p + k, &c, 1); break; }
    case CL_SIGNED_INT16: {
        int16_t c = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
        memcpy(p + 2 * k, &c, 2);
        break;
    }
    case CL_SIGNED_INT32: { int32_t c = (int32_t)v; memcpy(p + 4 * k, &c, 4); break; }
    case CL_UNSIGNED_INT8: { uint8_t c = (uint8_t)(v > 255 ? 255 : v); p[k] = c; break; }
    case CL_UNSIGNED_INT16: { uint16_t c = (uint16_t)(v > 65535 ? 65535 : v); memcpy(p + 2 * k, &c, 2); break; }
    default: { uint32_t c = (uint32_t)v; memcpy(p + 4 * k, &c, 4); break; }
    }
}

/* The pixel a write of rgba stores (R, RG, RGBA, BGRA, ARGB). */
static void encode(cl_image_format f, const double rgba[4], uint8_t *p)
{
    static const int map_r[] = {0}, map_rg[] = {0, 1}, map_rgba[] = {0, 1, 2, 3}, map_bgra[] = {2, 1, 0, 3},
                     map_argb[] = {3, 0, 1, 2};
    const int *map = f.image_channel_order == CL_R ? map_r : f.image_channel_order == CL_RG ? map_rg
                     : f.image_channel_order == CL_BGRA ? map_bgra : f.image_channel_order == CL_ARGB ? map_argb
                                                                                                       : map_rgba;
    for (size_t k = 0; k < channels(f.image_channel_order); k++)
        encode_channel(f.image_channel_data_type, rgba[map[k]], p, k);
}

/* The value kernel wX_* writes at (x, y, z): 'f', 'i' or 'u'. */
static void written_value(char fn, long x, long y, long z, double v[4])
{
    for (int k = 0; k < 4; k++) {
        int n = (int)((x * 7 + y * 13 + z * 29 + 5 * k) % 97);
        /* write_imageh writes the same values as write_imagef: (n - 8) / 64 is a half */
        v[k] = fn == 'f' || fn == 'h' ? (double)((float)(n - 8) * (1.0f / 64)) : fn == 'i' ? (n - 48) * 1000.0 : n * 5.0;
    }
}

static void check_writes(cl_mem_object_type type, size_t w, size_t h, size_t d, char fn, cl_image_format f)
{
    size_t ps = pixel_size(f), n = w * h * d;
    cl_int err;
    cl_image_desc desc = {0};
    desc.image_type = type;
    desc.image_width = w;
    cl_mem buf = NULL;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        desc.image_array_size = h;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_height = h;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        desc.image_array_size = d;
    if (type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_depth = d;
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        desc.buffer = buf = buffer(n * ps, NULL);
    cl_mem im = clCreateImage(context, CL_MEM_WRITE_ONLY, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    char name[16];
    snprintf(name, sizeof name, "w%c_%s", fn, type_suffix(type));
    cl_kernel k = kern(name);
    const void *args[] = {&im};
    size_t sizes[] = {sizeof(cl_mem)}, global[3] = {w, h, d};
    uint8_t *got = calloc(n, ps), *want = calloc(n, ps);
    int bad = 0;
    if (launch(k, 3, global, NULL, 1, args, sizes)) {
        size_t origin[3] = {0, 0, 0}, region[3] = {w, h, d};
        CHECK_ERR(clEnqueueReadImage(queue, im, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
        for (size_t z = 0; z < d; z++)
            for (size_t y = 0; y < h; y++)
                for (size_t x = 0; x < w; x++) {
                    size_t i = (z * h + y) * w + x;
                    double v[4];
                    written_value(fn, (long)x, (long)y, (long)z, v);
                    encode(f, v, want + i * ps);
                    if (memcmp(got + i * ps, want + i * ps, ps) && bad++ < 4) {
                        uint32_t g = 0, e = 0;
                        memcpy(&g, got + i * ps, ps < 4 ? ps : 4), memcpy(&e, want + i * ps, ps < 4 ? ps : 4);
                        TEST_FAIL("%s, order 0x%x type 0x%x, (%zu, %zu, %zu) = (%g, %g, %g, %g): first bytes 0x%x, "
                                  "not 0x%x", name, f.image_channel_order, f.image_channel_data_type, x, y, z, v[0],
                                  v[1], v[2], v[3], g, e);
                    }
                }
    }
    CHECK(bad == 0, "%s order 0x%x type 0x%x: %d wrong pixels", name, f.image_channel_order,
          f.image_channel_data_type, bad);
    free(got), free(want);
    clReleaseKernel(k);
    clReleaseMemObject(im);
    if (buf)
        clReleaseMemObject(buf);
}

TEST(writes)
{
    static const struct { char fn; cl_image_format f; } cases[] = {
        {'f', {CL_RGBA, CL_UNORM_INT8}},  {'f', {CL_RGBA, CL_FLOAT}},        {'f', {CL_BGRA, CL_UNORM_INT8}},
        {'f', {CL_R, CL_UNORM_INT16}},    {'i', {CL_RGBA, CL_SIGNED_INT16}}, {'i', {CL_R, CL_SIGNED_INT32}},
        {'i', {CL_RG, CL_SIGNED_INT8}},   {'u', {CL_RGBA, CL_UNSIGNED_INT8}}, {'u', {CL_RG, CL_UNSIGNED_INT16}},
        {'u', {CL_ARGB, CL_UNSIGNED_INT8}},
    };
    static const struct { cl_mem_object_type type; size_t w, h, d; } wshapes[] = {
        {CL_MEM_OBJECT_IMAGE1D, 37, 1, 1},        {CL_MEM_OBJECT_IMAGE1D_BUFFER, 37, 1, 1},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 5, 1},  {CL_MEM_OBJECT_IMAGE2D, 13, 9, 1},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 3},   {CL_MEM_OBJECT_IMAGE3D, 7, 5, 4},
    };
    for (size_t s = 0; s < sizeof wshapes / sizeof wshapes[0]; s++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            check_writes(wshapes[s].type, wshapes[s].w, wshapes[s].h, wshapes[s].d, cases[c].fn, cases[c].f);
}

/* read_imageh with every sampler and without one, write_imageh, on every image
 * type (cl_khr_fp16; docs/half.md) */
TEST(half_reads_and_writes)
{
    static const cl_image_format rfmts[] = {{CL_RGBA, CL_HALF_FLOAT}, {CL_BGRA, CL_UNORM_INT8}, {CL_RG, CL_FLOAT}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t f = 0; f < sizeof rfmts / sizeof rfmts[0]; f++) {
            himg im = make_image(shapes[s].type, rfmts[f].image_channel_order, rfmts[f].image_channel_data_type,
                                 shapes[s].w, shapes[s].h, shapes[s].d, CL_MEM_READ_ONLY);
            every_sampler_as(&im, 2e-6, true);
            /* no sampler: each texel, rounded to half */
            size_t n = shapes[s].w * shapes[s].h * shapes[s].d;
            cl_int *c = calloc(n * 4, sizeof(cl_int));
            for (size_t i = 0; i < n; i++) {
                c[4 * i] = (cl_int)(i % shapes[s].w);
                c[4 * i + 1] = (cl_int)(i / shapes[s].w % shapes[s].h);
                c[4 * i + 2] = (cl_int)(i / (shapes[s].w * shapes[s].h));
                if (shapes[s].type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
                    c[4 * i + 1] = (cl_int)(i / shapes[s].w); /* the layer */
            }
            char name[16];
            snprintf(name, sizeof name, "hn_%s", type_suffix(shapes[s].type));
            cl_kernel k = kern(name);
            cl_mem cb = buffer(n * 16, c), ob = buffer(n * 8, NULL);
            const void *args[] = {&im.mem, &cb, &ob};
            size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
            uint16_t *o = calloc(n * 4, 2);
            int bad = 0;
            if (launch(k, 1, &n, NULL, 3, args, sizes)) {
                CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, n * 8, o, 0, NULL, NULL), CL_SUCCESS);
                for (size_t i = 0; i < n * 4; i++)
                    if (!close_to((float)half_to_double(o[i]), im.val[i], 0x1p-11) && bad++ < 4)
                        TEST_FAIL("%s format 0x%x/0x%x texel %zu channel %zu: %g, not %g", name,
                                  rfmts[f].image_channel_order, rfmts[f].image_channel_data_type, i / 4, i % 4,
                                  half_to_double(o[i]), im.val[i]);
            }
            CHECK(bad == 0);
            free(o), free(c);
            clReleaseMemObject(cb), clReleaseMemObject(ob);
            clReleaseKernel(k);
            free_image(&im);
        }
    static const cl_image_format wfmts[] = {{CL_RGBA, CL_HALF_FLOAT}, {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_FLOAT},
                                            {CL_RG, CL_SNORM_INT16}};
    static const struct { cl_mem_object_type type; size_t w, h, d; } wshapes[] = {
        {CL_MEM_OBJECT_IMAGE1D, 37, 1, 1},       {CL_MEM_OBJECT_IMAGE1D_BUFFER, 37, 1, 1},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 5, 1}, {CL_MEM_OBJECT_IMAGE2D, 13, 9, 1},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 3},  {CL_MEM_OBJECT_IMAGE3D, 7, 5, 4},
    };
    for (size_t s = 0; s < sizeof wshapes / sizeof wshapes[0]; s++)
        for (size_t f = 0; f < sizeof wfmts / sizeof wfmts[0]; f++)
            check_writes(wshapes[s].type, wshapes[s].w, wshapes[s].h, wshapes[s].d, 'h', wfmts[f]);
}

/* ---- read_write images ------------------------------------------------------------------ */
TEST(read_write_images)
{
    /* 2D RGBA UNORM_INT8: v * 0.5 + 0.25, twice */
    {
        himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 19, 6, 1, CL_MEM_READ_WRITE);
        size_t n = 19 * 6, global[2] = {19, 6};
        cl_mem ob = buffer(n * 16, NULL);
        cl_kernel k = kern("rw_2d");
        const void *args[] = {&im.mem, &ob};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)};
        uint8_t *cur = malloc(n * 4);
        memcpy(cur, im.bytes, n * 4);
        float *o = malloc(n * 16);
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < n * 4; i++) {
                float v = cur[i] / 255.0f, s = (v * 0.5f + 0.25f) * 255.0f;
                cur[i] = (uint8_t)rintf(s);
            }
            if (!launch(k, 2, global, NULL, 2, args, sizes))
                break;
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, n * 16, o, 0, NULL, NULL), CL_SUCCESS);
            int bad = 0;
            for (size_t i = 0; i < n * 4; i++)
                if (!close_to(o[i], cur[i] / 255.0, 1e-6) && bad++ < 4)
                    TEST_FAIL("rw_2d pass %d: pixel %zu channel %zu read %.9g after the fence, not %.9g", pass, i / 4,
                              i % 4, o[i], cur[i] / 255.0);
        }
        uint8_t *img = malloc(n * 4);
        size_t origin[3] = {0, 0, 0}, region[3] = {19, 6, 1};
        CHECK_ERR(clEnqueueReadImage(queue, im.mem, CL_TRUE, origin, region, 0, 0, img, 0, NULL, NULL), CL_SUCCESS);
        CHECK(!memcmp(img, cur, n * 4), "rw_2d: the image after two passes differs from the host's");
        free(img), free(o), free(cur);
        clReleaseKernel(k);
        clReleaseMemObject(ob);
        free_image(&im);
    }
    /* 3D RGBA UNSIGNED_INT16: v + (1, 2, 3, 4), saturated; 1D array RGBA SIGNED_INT8: -v, saturated */
    for (int which = 0; which < 2; which++) {
        bool is3d = which == 0;
        himg im = is3d ? make_image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNSIGNED_INT16, 6, 5, 4, CL_MEM_READ_WRITE)
                       : make_image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_SIGNED_INT8, 23, 4, 1, CL_MEM_READ_WRITE);
        /* values next to the saturation limits */
        size_t n = im.w * im.h * im.d, global[3] = {im.w, im.h, im.d};
        if (is3d) {
            uint16_t top = 65534;
            memcpy(im.bytes + 8 * 3, &top, 2);
            size_t origin[3] = {3, 0, 0}, region[3] = {1, 1, 1};
            CHECK_ERR(clEnqueueWriteImage(queue, im.mem, CL_TRUE, origin, region, 0, 0, im.bytes + 8 * 3, 0, NULL, NULL),
                      CL_SUCCESS);
        } else {
            im.bytes[4 * 2] = 0x80; /* -128 */
            size_t origin[3] = {2, 0, 0}, region[3] = {1, 1, 1};
            CHECK_ERR(clEnqueueWriteImage(queue, im.mem, CL_TRUE, origin, region, 0, 0, im.bytes + 4 * 2, 0, NULL, NULL),
                      CL_SUCCESS);
        }
        cl_mem ob = buffer(n * 16, NULL);
        cl_kernel k = kern(is3d ? "rw_3d" : "rw_1da");
        const void *args[] = {&im.mem, &ob};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)};
        int32_t *o = malloc(n * 16);
        int bad = 0;
        if (launch(k, is3d ? 3 : 2, global, NULL, 2, args, sizes)) {
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, n * 16, o, 0, NULL, NULL), CL_SUCCESS);
            for (size_t i = 0; i < n * 4; i++) {
                long v, want;
                if (is3d) {
                    uint16_t u;
                    memcpy(&u, im.bytes + 2 * i, 2);
                    v = u, want = v + (long)(i % 4) + 1 > 65535 ? 65535 : v + (long)(i % 4) + 1;
                } else {
                    v = (int8_t)im.bytes[i], want = -v > 127 ? 127 : -v;
                }
                if (o[i] != want && bad++ < 4)
                    TEST_FAIL("%s: pixel %zu channel %zu was %ld: read %d after the fence, not %ld", is3d ? "rw_3d" : "rw_1da",
                              i / 4, i % 4, v, o[i], want);
            }
        }
        CHECK(bad == 0);
        free(o);
        clReleaseKernel(k);
        clReleaseMemObject(ob);
        free_image(&im);
    }
}

/* ---- buffers as images ----------------------------------------------------------------- */
TEST(image1d_buffer)
{
    enum { N = 1000 };
    uint8_t in[4 * N], out[4 * N];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    in[0] = 255; /* 255 + 1 saturates */
    cl_mem bin = buffer(sizeof in, in), bout = buffer(sizeof out, NULL);
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = N;
    cl_int err;
    desc.buffer = bin;
    cl_mem iin = clCreateImage(context, CL_MEM_READ_ONLY, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    desc.buffer = bout;
    cl_mem iout = clCreateImage(context, CL_MEM_WRITE_ONLY, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kern("b1d");
    const void *args[] = {&iin, &iout};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global = N;
    if (launch(k, 1, &global, NULL, 2, args, sizes)) {
        CHECK_ERR(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (size_t i = 0; i < N; i++)
            for (int c = 0; c < 4; c++) {
                int want = in[4 * i + 3 - c] + 1;
                want = want > 255 ? 255 : want;
                if (out[4 * i + c] != want && bad++ < 4)
                    TEST_FAIL("b1d: pixel %zu channel %d is %d in the buffer, not %d", i, c, out[4 * i + c], want);
            }
    }
    /* the buffer written by the host, read through the image by a kernel */
    memset(in, 7, 16);
    CHECK_ERR(clEnqueueWriteBuffer(queue, bin, CL_TRUE, 0, 16, in, 0, NULL, NULL), CL_SUCCESS);
    cl_kernel r = kern("nu_1db");
    cl_int c[4 * 4] = {0, 0, 0, 0, 3, 0, 0, 0, N - 1, 0, 0, 0, 500, 0, 0, 0};
    cl_mem cb = buffer(sizeof c, c), ob = buffer(4 * 16, NULL);
    const void *rargs[] = {&iin, &cb, &ob};
    size_t rsizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)}, rglobal = 4;
    if (launch(r, 1, &rglobal, NULL, 3, rargs, rsizes)) {
        cl_uint o[16];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < 4; i++)
            for (int ch = 0; ch < 4; ch++)
                CHECK(o[4 * i + ch] == in[4 * c[4 * i] + ch], "nu_1db: pixel %d channel %d is %u, not %u", c[4 * i], ch,
                      o[4 * i + ch], in[4 * c[4 * i] + ch]);
    }
    clReleaseKernel(r), clReleaseKernel(k);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    clReleaseMemObject(iin), clReleaseMemObject(iout), clReleaseMemObject(bin), clReleaseMemObject(bout);
}

TEST(image2d_from_buffer)
{
    char ext[8192] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    if (!strstr(ext, "cl_khr_image2d_from_buffer"))
        TEST_SKIP("no cl_khr_image2d_from_buffer");
    enum { W = 13, H = 7, PITCH = 17 * 4 };
    uint8_t bytes[PITCH * H];
    memset(bytes, 0xab, sizeof bytes);
    cl_mem buf = buffer(sizeof bytes, bytes);
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = W, desc.image_height = H, desc.image_row_pitch = PITCH;
    desc.buffer = buf;
    cl_int err;
    cl_mem im = clCreateImage(context, CL_MEM_READ_WRITE, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kern("from_buf");
    const void *args[] = {&im};
    size_t sizes[] = {sizeof(cl_mem)}, global[2] = {W, H};
    if (launch(k, 2, global, NULL, 1, args, sizes)) {
        CHECK_ERR(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < PITCH / 4; x++)
                for (int c = 0; c < 4; c++) {
                    float v = c == 0 ? (float)x : c == 1 ? (float)y : c == 2 ? (float)(x + y) : 3.0f;
                    int want = x < W ? (int)rintf(v * (1.0f / 32) * 255.0f) : 0xab; /* the padding untouched */
                    if (bytes[y * PITCH + 4 * x + c] != want && bad++ < 4)
                        TEST_FAIL("from_buf: byte %d of (%d, %d) in the buffer is %d, not %d", c, x, y,
                                  bytes[y * PITCH + 4 * x + c], want);
                }
        /* the same bytes read as an image by a kernel */
        cl_kernel r = kern("nf_2d");
        cl_int c[4 * 3] = {0, 0, 0, 0, W - 1, H - 1, 0, 0, 5, 3, 0, 0};
        cl_mem cb = buffer(sizeof c, c), ob = buffer(3 * 16, NULL);
        const void *rargs[] = {&im, &cb, &ob};
        size_t rsizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)}, rglobal = 3;
        if (launch(r, 1, &rglobal, NULL, 3, rargs, rsizes)) {
            float o[12];
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
            for (int i = 0; i < 3; i++)
                for (int ch = 0; ch < 4; ch++) {
                    double want = bytes[c[4 * i + 1] * PITCH + 4 * c[4 * i] + ch] / 255.0;
                    CHECK(close_to(o[4 * i + ch], want, 1e-6), "nf_2d on the buffer's image: (%d, %d) channel %d "
                          "is %g, not %g", c[4 * i], c[4 * i + 1], ch, o[4 * i + ch], want);
                }
        }
        clReleaseKernel(r);
        clReleaseMemObject(cb), clReleaseMemObject(ob);
    }
    clReleaseKernel(k);
    clReleaseMemObject(im), clReleaseMemObject(buf);
}

/* ---- samplers: clCreateSampler, clCreateSamplerWithProperties, the source's ------------ */
TEST(sampler_objects)
{
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 11, 8, 1, CL_MEM_READ_ONLY);
    enum { N = 300 };
    float c[4 * N];
    for (int i = 0; i < N; i++) {
        c[4 * i] = rndf(-2.0f, 3.0f), c[4 * i + 1] = rndf(-2.0f, 3.0f);     /* normalized */
        c[4 * i + 2] = rndf(-2.0f, 13.0f), c[4 * i + 3] = rndf(-2.0f, 10.0f); /* unnormalized */
    }
    cl_int err;
    cl_sampler old = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_ADDRESSING_MODE,
                                     CL_ADDRESS_REPEAT, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    cl_sampler with = clCreateSamplerWithProperties(context, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* their queries */
    cl_bool norm = 0;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    size_t psize = 1;
    cl_sampler_properties got[8];
    CHECK_ERR(clGetSamplerInfo(old, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(old, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(old, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
    CHECK(norm == CL_TRUE && am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR);
    CHECK_ERR(clGetSamplerInfo(old, CL_SAMPLER_PROPERTIES, 0, NULL, &psize), CL_SUCCESS);
    CHECK(psize == 0, "CL_SAMPLER_PROPERTIES of clCreateSampler's sampler: %zu bytes", psize);
    CHECK_ERR(clGetSamplerInfo(with, CL_SAMPLER_PROPERTIES, sizeof got, got, &psize), CL_SUCCESS);
    CHECK(psize == sizeof props && !memcmp(got, props, sizeof props), "CL_SAMPLER_PROPERTIES: %zu bytes", psize);
    cl_context ctx = NULL;
    CHECK_ERR(clGetSamplerInfo(with, CL_SAMPLER_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    CHECK(ctx == context);
    /* no properties: normalized coordinates, CL_ADDRESS_CLAMP, nearest */
    cl_sampler dflt = clCreateSamplerWithProperties(context, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(dflt, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(dflt, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(dflt, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
    CHECK(norm == CL_TRUE && am == CL_ADDRESS_CLAMP && fm == CL_FILTER_NEAREST,
          "default sampler: normalized %u, address 0x%x, filter 0x%x", norm, am, fm);

    cl_kernel k = kern("src_samplers");
    cl_mem cb = buffer(sizeof c, c), ob = buffer(3 * N * 16, NULL);
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem), sizeof(cl_mem)}, global = N;
    samp rep = {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, clamp = {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
    for (int which = 0; which < 3; which++) {
        cl_sampler s = which == 2 ? dflt : which ? with : old;
        samp mine = which == 2 ? (samp){CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST} : rep;
        const void *args[] = {&im.mem, &s, &cb, &ob};
        if (!launch(k, 1, &global, NULL, 4, args, sizes))
            break;
        float o[3 * 4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double w_rep[4], w_clamp[4], w_mine[4];
            sample(&im, rep, c + 4 * i, w_rep);
            sample(&im, mine, c + 4 * i, w_mine);
            float cc[4] = {c[4 * i + 2], c[4 * i + 3], 0, 0};
            sample(&im, clamp, cc, w_clamp);
            for (int ch = 0; ch < 4; ch++) {
                if (!close_to(o[12 * i + ch], w_rep[ch], 2e-6) && bad++ < 4)
                    TEST_FAIL("program-scope sampler at (%.9g, %.9g): channel %d %.9g, not %.9g", c[4 * i], c[4 * i + 1],
                              ch, o[12 * i + ch], w_rep[ch]);
                if (!close_to(o[12 * i + 4 + ch], w_clamp[ch], 1e-6) && bad++ < 4)
                    TEST_FAIL("kernel-scope sampler at (%.9g, %.9g): channel %d %.9g, not %.9g", cc[0], cc[1], ch,
                              o[12 * i + 4 + ch], w_clamp[ch]);
                if (which < 2 && o[12 * i + 8 + ch] != o[12 * i + ch] && bad++ < 4)
                    TEST_FAIL("%s's sampler at (%.9g, %.9g): channel %d %.9g, the source's sampler %.9g",
                              which ? "clCreateSamplerWithProperties" : "clCreateSampler", c[4 * i], c[4 * i + 1], ch,
                              o[12 * i + 8 + ch], o[12 * i + ch]);
                if (which == 2 && !close_to(o[12 * i + 8 + ch], w_mine[ch], 1e-6) && bad++ < 4)
                    TEST_FAIL("the default sampler at (%.9g, %.9g): channel %d %.9g, not %.9g", c[4 * i], c[4 * i + 1],
                              ch, o[12 * i + 8 + ch], w_mine[ch]);
            }
        }
        CHECK(bad == 0, "%d wrong", bad);
    }
    clReleaseKernel(k);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    clReleaseSampler(old), clReleaseSampler(with), clReleaseSampler(dflt);
    free_image(&im);
}

/* ---- get_image_* ------------------------------------------------------------------------- */
TEST(image_queries)
{
    static const struct {
        const char *kernel;
        cl_mem_object_type type;
        cl_image_format f;
        size_t w, h, d;
        cl_mem_flags flags;
    } q[] = {
        {"q_1d", CL_MEM_OBJECT_IMAGE1D, {CL_R, CL_SNORM_INT8}, 33, 1, 1, CL_MEM_READ_ONLY},
        {"q_1db", CL_MEM_OBJECT_IMAGE1D_BUFFER, {CL_RGBA, CL_FLOAT}, 21, 1, 1, CL_MEM_READ_ONLY},
        {"q_1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, {CL_RG, CL_UNSIGNED_INT16}, 17, 6, 1, CL_MEM_READ_ONLY},
        {"q_2d", CL_MEM_OBJECT_IMAGE2D, {CL_BGRA, CL_UNORM_INT8}, 19, 11, 1, CL_MEM_WRITE_ONLY},
        {"q_2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, {CL_INTENSITY, CL_HALF_FLOAT}, 5, 7, 9, CL_MEM_READ_WRITE},
        {"q_3d", CL_MEM_OBJECT_IMAGE3D, {CL_RGB, CL_UNORM_SHORT_565}, 8, 6, 4, CL_MEM_READ_ONLY},
        {"q_2dd", CL_MEM_OBJECT_IMAGE2D, {CL_DEPTH, CL_FLOAT}, 12, 3, 1, CL_MEM_READ_ONLY},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        cl_image_desc desc = {0};
        desc.image_type = q[i].type;
        desc.image_width = q[i].w;
        cl_mem buf = NULL;
        switch (q[i].type) {
        case CL_MEM_OBJECT_IMAGE1D_BUFFER: desc.buffer = buf = buffer(q[i].w * pixel_size(q[i].f), NULL); break;
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: desc.image_array_size = q[i].h; break;
        case CL_MEM_OBJECT_IMAGE2D: desc.image_height = q[i].h; break;
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: desc.image_height = q[i].h, desc.image_array_size = q[i].d; break;
        default: desc.image_height = q[i].h, desc.image_depth = q[i].d; break;
        }
        cl_int err;
        cl_mem im = clCreateImage(context, q[i].flags, &q[i].f, &desc, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_int o[10];
        for (int j = 0; j < 10; j++)
            o[j] = -1;
        cl_mem ob = buffer(sizeof o, o);
        cl_kernel k = kern(q[i].kernel);
        const void *args[] = {&im, &ob};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global = 1;
        if (launch(k, 1, &global, NULL, 2, args, sizes)) {
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
            cl_mem_object_type t = q[i].type;
            bool has_h = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
            bool dim = t == CL_MEM_OBJECT_IMAGE3D || (has_h && strcmp(q[i].kernel, "q_2dd"));
            cl_int want[10] = {(cl_int)q[i].w, has_h ? (cl_int)q[i].h : -1, t == CL_MEM_OBJECT_IMAGE3D ? (cl_int)q[i].d : -1,
                               t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? (cl_int)q[i].h
                               : t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? (cl_int)q[i].d : -1,
                               (cl_int)q[i].f.image_channel_data_type, (cl_int)q[i].f.image_channel_order,
                               dim ? (cl_int)q[i].w : -1, dim ? (cl_int)q[i].h : -1,
                               t == CL_MEM_OBJECT_IMAGE3D ? (cl_int)q[i].d : -1, t == CL_MEM_OBJECT_IMAGE3D ? 0 : -1};
            for (int j = 0; j < 10; j++)
                CHECK(o[j] == want[j], "%s: value %d (width, height, depth, array size, type, order, dim) is %d, not %d",
                      q[i].kernel, j, o[j], want[j]);
        }
        clReleaseKernel(k);
        clReleaseMemObject(ob), clReleaseMemObject(im);
        if (buf)
            clReleaseMemObject(buf);
    }
}

/* ---- argument info and clSetKernelArg's errors --------------------------------------- */
static const char args_src[] =
    "kernel void args(read_only image2d_t a, write_only image3d_t b, read_write image2d_array_t c, sampler_t s,"
    " image1d_buffer_t d, read_only image2d_depth_t e, write_only image1d_array_t f, global float *g) { }\n";

TEST(image_support)
{
    cl_bool images = CL_FALSE;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL), CL_SUCCESS);
    CHECK(images == CL_TRUE, "the CPU device reports no image support");
}

TEST(kernel_arg_info)
{
    cl_program p = test_build_program(context, device, args_src, "-cl-std=CL3.0 -cl-kernel-arg-info");
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "args", &err);
    CHECK_ERR(err, CL_SUCCESS);
    static const struct {
        const char *type, *name;
        cl_kernel_arg_access_qualifier access;
        cl_kernel_arg_address_qualifier address;
    } want[] = {
        {"image2d_t", "a", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"image3d_t", "b", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"image2d_array_t", "c", CL_KERNEL_ARG_ACCESS_READ_WRITE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"sampler_t", "s", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ADDRESS_PRIVATE},
        {"image1d_buffer_t", "d", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"image2d_depth_t", "e", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"image1d_array_t", "f", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ADDRESS_GLOBAL},
        {"float*", "g", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
    };
    for (cl_uint i = 0; i < sizeof want / sizeof want[0]; i++) {
        char type[64] = "", name[64] = "";
        cl_kernel_arg_access_qualifier access = 0;
        cl_kernel_arg_address_qualifier address = 0;
        cl_kernel_arg_type_qualifier tq = 99;
        CHECK_ERR(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL), CL_SUCCESS);
        CHECK_ERR(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL), CL_SUCCESS);
        CHECK_ERR(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL), CL_SUCCESS);
        CHECK_ERR(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL), CL_SUCCESS);
        CHECK_ERR(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL), CL_SUCCESS);
        CHECK(!strcmp(type, want[i].type), "argument %u: type name \"%s\", not \"%s\"", i, type, want[i].type);
        CHECK(!strcmp(name, want[i].name), "argument %u: name \"%s\"", i, name);
        CHECK(access == want[i].access, "argument %u (%s): access qualifier 0x%x, not 0x%x", i, want[i].type, access,
              want[i].access);
        CHECK(address == want[i].address, "argument %u (%s): address qualifier 0x%x, not 0x%x", i, want[i].type,
              address, want[i].address);
        CHECK(tq == CL_KERNEL_ARG_TYPE_NONE, "argument %u (%s): type qualifier 0x%llx", i, want[i].type,
              (unsigned long long)tq);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static cl_mem plain_image(cl_mem_object_type type, cl_channel_order o, cl_mem_flags flags, cl_mem buf)
{
    cl_image_format f = {o, o == CL_DEPTH ? CL_FLOAT : CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = type;
    desc.image_width = 8;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_height = 4;
    if (type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_depth = 2;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        desc.image_array_size = 2;
    desc.buffer = buf;
    cl_int err;
    cl_mem m = clCreateImage(context, flags, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

TEST(set_kernel_arg_errors)
{
    cl_program p = test_build_program(context, device, args_src, "-cl-std=CL3.0");
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "args", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem buf = buffer(256, NULL);
    cl_mem i2d = plain_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_MEM_READ_WRITE, NULL);
    cl_mem i2d_wo = plain_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_MEM_WRITE_ONLY, NULL);
    cl_mem i2d_depth = plain_image(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_MEM_READ_ONLY, NULL);
    cl_mem i3d = plain_image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_MEM_READ_WRITE, NULL);
    cl_mem i3d_ro = plain_image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_MEM_READ_ONLY, NULL);
    cl_mem i2da = plain_image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_MEM_READ_WRITE, NULL);
    cl_mem i1d = plain_image(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_MEM_READ_WRITE, NULL);
    cl_mem i1db = plain_image(CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_MEM_READ_ONLY, buf);
    cl_mem i1da_ro = plain_image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_MEM_READ_ONLY, NULL);
    cl_sampler s = sampler(CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    /* the right objects */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &i2d), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_mem), &i3d), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof(cl_mem), &i2da), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_sampler), &s), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 4, sizeof(cl_mem), &i1db), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 5, sizeof(cl_mem), &i2d_depth), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 7, sizeof(cl_mem), &buf), CL_SUCCESS);
    /* another image type, a buffer, a depth image where a colour one is declared and the reverse */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &i3d), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &buf), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &i2d_depth), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 5, sizeof(cl_mem), &i2d), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof(cl_mem), &i2d), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 4, sizeof(cl_mem), &i1d), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 6, sizeof(cl_mem), &i1d), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_mem), &s), CL_INVALID_MEM_OBJECT);
    /* the access: read_only takes no write-only image, write_only no read-only one */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &i2d_wo), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_mem), &i3d_ro), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 6, sizeof(cl_mem), &i1da_ro), CL_INVALID_ARG_VALUE);
    /* sizes, samplers */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem) / 2, &i2d), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_sampler) + 1, &s), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_sampler), &i2d), CL_INVALID_SAMPLER);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_sampler), NULL), CL_INVALID_SAMPLER);
    CHECK_ERR(clSetKernelArg(k, 8, sizeof(cl_mem), &i2d), CL_INVALID_ARG_INDEX);
    /* a launch with an argument never set */
    cl_kernel unset = clCreateKernel(p, "args", &err);
    CHECK_ERR(clSetKernelArg(unset, 0, sizeof(cl_mem), &i2d), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(unset, 1, sizeof(cl_mem), &i3d), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(unset, 2, sizeof(cl_mem), &i2da), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(unset, 4, sizeof(cl_mem), &i1db), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(unset, 5, sizeof(cl_mem), &i2d_depth), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(unset, 6, sizeof(cl_mem), &i1d), CL_INVALID_MEM_OBJECT);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, unset, 1, NULL, &one, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    clReleaseKernel(unset);
    clReleaseSampler(s);
    cl_mem all[] = {i2d, i2d_wo, i2d_depth, i3d, i3d_ro, i2da, i1d, i1db, i1da_ro, buf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- every 2D format the device lists, read three ways ------------------------------- */
TEST(format_sweep)
{
    cl_uint n = 0;
    CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), CL_SUCCESS);
    CHECK(n > 0);
    cl_image_format *formats = calloc(n ? n : 1, sizeof *formats);
    CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n, formats, NULL),
              CL_SUCCESS);
    enum { W = 23, H = 9, PAD = 4 }; /* keeps half and float values aligned for random_pixels */
    cl_sampler sn = sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
    cl_sampler sl = sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    cl_kernel kf = kern("sw_f"), kd = kern("sw_d"), ki = kern("sw_i"), ku = kern("sw_u");
    cl_mem ob = buffer(3 * W * H * 16, NULL);
    int tested = 0;
    for (cl_uint fi = 0; fi < n; fi++) {
        cl_image_format f = formats[fi];
        cl_channel_type t = f.image_channel_data_type;
        bool depth = f.image_channel_order == CL_DEPTH, ints = is_int_type(t), sgn = is_signed_int(t);
        himg im = {CL_MEM_OBJECT_IMAGE2D, f, W, H, 1, pixel_size(f), NULL, NULL, NULL};
        size_t pitch = W * im.psize + PAD;
        uint8_t *host = malloc(pitch * H);
        im.bytes = malloc(W * H * im.psize);
        im.val = malloc(W * H * 4 * sizeof(double));
        random_pixels(f, host, pitch * H);
        for (size_t y = 0; y < H; y++) {
            memcpy(im.bytes + y * W * im.psize, host + y * pitch, W * im.psize);
            for (size_t x = 0; x < W; x++)
                decode(f, host + y * pitch + x * im.psize, im.val + 4 * (y * W + x));
        }
        cl_image_desc desc = {0};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
        cl_int err;
        im.mem = clCreateImage(context, CL_MEM_READ_ONLY, &f, &desc, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1}, global[2] = {W, H};
        CHECK_ERR(clEnqueueWriteImage(queue, im.mem, CL_TRUE, origin, region, pitch, 0, host, 0, NULL, NULL),
                  CL_SUCCESS);
        cl_kernel k = depth ? kd : !ints ? kf : sgn ? ki : ku;
        const void *args[] = {&im.mem, &sn, &sl, &ob};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_sampler), sizeof(cl_mem)};
        int bad = 0;
        if (err == CL_SUCCESS && launch(k, 2, global, NULL, 4, args, sizes)) {
            tested++;
            uint32_t *o = malloc(3 * W * H * 16);
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, 3 * W * H * 16, o, 0, NULL, NULL), CL_SUCCESS);
            bool srgb = f.image_channel_order == CL_sRGBA || f.image_channel_order == CL_sBGRA;
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++)
                    for (int way = 0; way < 3; way++) {
                        double want[4], mag = 0;
                        if (way < 2 || ints) {
                            long idx[3] = {(long)x, (long)y, 0};
                            texel(&im, idx, want);
                        } else {
                            float c[4] = {(float)x + 0.75f, (float)y + 0.25f, 0, 0};
                            sample_mag(&im, (samp){CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, c, want,
                                       &mag);
                        }
                        const uint32_t *g = o + 4 * (3 * (y * W + x) + (size_t)way);
                        for (int ch = 0; ch < (depth ? 1 : 4); ch++) {
                            float gf;
                            memcpy(&gf, &g[ch], 4);
                            double got = !ints ? gf : sgn ? (double)(int32_t)g[ch] : (double)g[ch];
                            double tol = srgb ? 2e-6 : way == 2 ? 2e-6 : 2.5e-7;
                            bool ok = ints ? got == want[ch] : close_to(gf, want[ch], tol * (1 + mag));
                            if (!ok && bad++ < 3)
                                TEST_FAIL("format order 0x%x type 0x%x, (%zu, %zu) %s: channel %d is %.9g, not %.9g",
                                          f.image_channel_order, t, x, y,
                                          way == 0 ? "without a sampler" : way == 1 ? "nearest"
                                          : ints ? "integer coordinates" : "linear",
                                          ch, got, want[ch]);
                        }
                    }
            free(o);
        }
        CHECK(bad == 0, "format order 0x%x type 0x%x: %d wrong channels", f.image_channel_order, t, bad);
        free(host);
        free_image(&im);
    }
    printf("%d formats read\n", tested);
    CHECK(tested == (int)n);
    clReleaseKernel(kf), clReleaseKernel(kd), clReleaseKernel(ki), clReleaseKernel(ku);
    clReleaseSampler(sn), clReleaseSampler(sl);
    clReleaseMemObject(ob);
    free(formats);
}

/* ---- every 2D format the device lists for writing, written by a kernel ---------------- */
static uint16_t half_rte(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
    if (ax >= 0x7f800000)
        return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000 ? 0x200 : 0));
    if (ax >= 0x477ff000) /* 65520 and above round to infinity */
        return (uint16_t)(sign | 0x7c00);
    if (ax < 0x38800000) { /* below 2^-14: a denormal half, in units of 2^-24 */
        float a;
        memcpy(&a, &ax, 4);
        return (uint16_t)(sign | (uint32_t)rintf(a * 16777216.0f));
    }
    uint32_t h = ((((ax >> 23) - 127 + 15) << 10) | ((ax & 0x7fffff) >> 13)), rest = ax & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

/* OpenCL C's conversion of one value for a write: round to nearest even and saturate. */
static void encode_any(cl_channel_type t, double v, uint8_t *p, size_t k)
{
    float f = (float)v;
    switch (t) {
    case CL_SNORM_INT8: {
        float q = rintf(f * 127.0f);
        int8_t c = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
        memcpy(p + k, &c, 1);
        break;
    }
    case CL_SNORM_INT16: {
        float q = rintf(f * 32767.0f);
        int16_t c = (int16_t)(q < -32768 ? -32768 : q > 32767 ? 32767 : q);
        memcpy(p + 2 * k, &c, 2);
        break;
    }
    case CL_HALF_FLOAT: { uint16_t h = half_rte(f); memcpy(p + 2 * k, &h, 2); break; }
    case CL_UNSIGNED_INT32: { uint32_t c = (uint32_t)v; memcpy(p + 4 * k, &c, 4); break; }
    default: encode_channel(t, v, p, k); break;
    }
}

static uint32_t unorm_bits(double v, float scale)
{
    float q = rintf((float)v * scale);
    return (uint32_t)(q < 0 ? 0 : q > scale ? scale : q);
}

static void encode_pixel(cl_image_format f, const double rgba[4], uint8_t *p)
{
    cl_channel_type t = f.image_channel_data_type;
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555) {
        bool g6 = t == CL_UNORM_SHORT_565;
        uint16_t v = (uint16_t)(unorm_bits(rgba[0], 31) << (g6 ? 11 : 10) | unorm_bits(rgba[1], g6 ? 63 : 31) << 5 |
                                unorm_bits(rgba[2], 31));
        memcpy(p, &v, 2);
        return;
    }
    if (t == CL_UNORM_INT_101010) {
        uint32_t v = unorm_bits(rgba[0], 1023) << 20 | unorm_bits(rgba[1], 1023) << 10 | unorm_bits(rgba[2], 1023);
        memcpy(p, &v, 4);
        return;
    }
    static const int r[] = {0}, a[] = {3}, rg[] = {0, 1}, rgba_[] = {0, 1, 2, 3}, bgra[] = {2, 1, 0, 3},
                     argb[] = {3, 0, 1, 2};
    cl_channel_order o = f.image_channel_order;
    const int *map = o == CL_A ? a : o == CL_RG ? rg : o == CL_RGBA ? rgba_ : o == CL_BGRA ? bgra
                     : o == CL_ARGB ? argb : r; /* R, INTENSITY, LUMINANCE, DEPTH: the first component */
    for (size_t k = 0; k < channels(o); k++)
        encode_any(t, rgba[map[k]], p, k);
}

TEST(write_format_sweep)
{
    cl_uint n = 0;
    CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), CL_SUCCESS);
    cl_image_format *formats = calloc(n ? n : 1, sizeof *formats);
    CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, n, formats, NULL),
              CL_SUCCESS);
    enum { W = 17, H = 5 };
    cl_kernel kf = kern("wsw_f"), ki = kern("wsw_i"), ku = kern("wsw_u"), kd = kern("wsw_d");
    int tested = 0;
    for (cl_uint fi = 0; fi < n; fi++) {
        cl_image_format f = formats[fi];
        cl_channel_type t = f.image_channel_data_type;
        bool depth = f.image_channel_order == CL_DEPTH, ints = is_int_type(t), sgn = is_signed_int(t);
        size_t ps = pixel_size(f);
        /* the values: out of range too, where the conversion saturates */
        double (*v)[4] = calloc(W * H, sizeof *v);
        uint32_t *dev = calloc(W * H, 16); /* what the kernel takes: float4, int4 or uint4 (float for depth) */
        for (size_t i = 0; i < W * H; i++)
            for (int c = 0; c < 4; c++) {
                if (ints) {
                    uint32_t r = rnd() >> (rnd() % 32);
                    v[i][c] = sgn ? (double)(int32_t)(rnd() & 1 ? r : (uint32_t)-(int64_t)r) : (double)r;
                    if (sgn) {
                        int32_t x = (int32_t)v[i][c];
                        memcpy(&dev[4 * i + c], &x, 4);
                    } else {
                        dev[4 * i + c] = (uint32_t)v[i][c];
                    }
                    continue;
                }
                float x = t == CL_FLOAT ? rndf(-100, 100)
                          : t == CL_HALF_FLOAT ? (i % 3 ? rndf(-1000, 1000) : rndf(-1e-4f, 1e-4f))
                          : t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ? rndf(-1.0f, 1.1f)
                                                                       : rndf(-0.1f, 1.1f);
                if (depth)
                    x = rndf(0.0f, 1.0f);
                v[i][c] = x;
                if (depth && c == 0)
                    memcpy(&dev[i], &x, 4); /* a float per pixel */
                else if (!depth)
                    memcpy(&dev[4 * i + c], &x, 4);
            }
        cl_image_desc desc = {0};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
        cl_int err;
        cl_mem im = clCreateImage(context, CL_MEM_WRITE_ONLY, &f, &desc, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem vb = buffer(W * H * 16, dev);
        cl_kernel k = depth ? kd : !ints ? kf : sgn ? ki : ku;
        const void *args[] = {&im, &vb};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global[2] = {W, H};
        int bad = 0;
        if (err == CL_SUCCESS && launch(k, 2, global, NULL, 2, args, sizes)) {
            tested++;
            uint8_t *got = calloc(W * H, ps), want[16];
            size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
            CHECK_ERR(clEnqueueReadImage(queue, im, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
            for (size_t i = 0; i < W * H; i++) {
                double val[4] = {v[i][0], v[i][1], v[i][2], v[i][3]}; /* depth: val[0] */
                encode_pixel(f, val, want);
                if (memcmp(got + i * ps, want, ps) && bad++ < 3) {
                    uint64_t g = 0, e = 0;
                    memcpy(&g, got + i * ps, ps < 8 ? ps : 8), memcpy(&e, want, ps < 8 ? ps : 8);
                    TEST_FAIL("write sweep, order 0x%x type 0x%x, pixel %zu = (%.9g, %.9g, %.9g, %.9g): bytes "
                              "0x%llx, not 0x%llx (first 8, little-endian)", f.image_channel_order, t, i, val[0],
                              val[1], val[2], val[3], (unsigned long long)g, (unsigned long long)e);
                }
            }
            free(got);
        }
        CHECK(bad == 0, "write sweep, order 0x%x type 0x%x: %d wrong pixels", f.image_channel_order, t, bad);
        clReleaseMemObject(vb), clReleaseMemObject(im);
        free(v), free(dev);
    }
    printf("%d formats written\n", tested);
    CHECK(tested == (int)n && n > 0);
    clReleaseKernel(kf), clReleaseKernel(ki), clReleaseKernel(ku), clReleaseKernel(kd);
    free(formats);
}

/* ---- host pointers with row and slice pitches, zero copy, read and written by kernels -- */
TEST(host_pointer_pitches)
{
    static const struct { const char *kernel; cl_mem_object_type type; size_t w, h, d; cl_image_format f; } c[] = {
        {"cp_2d", CL_MEM_OBJECT_IMAGE2D, 9, 5, 1, {CL_RGBA, CL_UNORM_INT8}},
        {"cp_3d", CL_MEM_OBJECT_IMAGE3D, 5, 4, 3, {CL_RGBA, CL_FLOAT}},
        {"cp_2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 3, 4, {CL_RG, CL_UNORM_INT16}},
        {"cp_1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 5, 1, {CL_R, CL_FLOAT}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        size_t ps = pixel_size(c[i].f), layers_ = c[i].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? c[i].h : c[i].d;
        bool arr1 = c[i].type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        /* input and output with different paddings (pitches: multiples of the pixel, slices of the row) */
        size_t rp[2] = {arr1 ? c[i].w * ps : c[i].w * ps + 2 * ps, arr1 ? c[i].w * ps : c[i].w * ps + 5 * ps};
        size_t sp[2] = {arr1 ? 2 * rp[0] : rp[0] * (c[i].h + 1), arr1 ? 3 * rp[1] : rp[1] * (c[i].h + 2)};
        size_t bytes[2] = {arr1 ? sp[0] * c[i].h : sp[0] * layers_, arr1 ? sp[1] * c[i].h : sp[1] * layers_};
        uint8_t *host[2];
        cl_mem im[2];
        for (int j = 0; j < 2; j++) {
            host[j] = malloc(bytes[j]);
            if (j == 0)
                random_pixels(c[i].f, host[j], bytes[j]);
            else
                memset(host[j], 0x5a, bytes[j]);
            cl_image_desc desc = {0};
            desc.image_type = c[i].type, desc.image_width = c[i].w, desc.image_row_pitch = arr1 ? 0 : rp[j];
            if (arr1)
                desc.image_array_size = c[i].h, desc.image_slice_pitch = sp[j];
            else if (c[i].type == CL_MEM_OBJECT_IMAGE2D)
                desc.image_height = c[i].h;
            else if (c[i].type == CL_MEM_OBJECT_IMAGE3D)
                desc.image_height = c[i].h, desc.image_depth = c[i].d, desc.image_slice_pitch = sp[j];
            else
                desc.image_height = c[i].h, desc.image_array_size = c[i].d, desc.image_slice_pitch = sp[j];
            cl_int err;
            im[j] = clCreateImage(context, (j ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY) | CL_MEM_USE_HOST_PTR, &c[i].f,
                                  &desc, host[j], &err);
            CHECK_ERR(err, CL_SUCCESS);
        }
        uint8_t *expect = malloc(bytes[1]);
        memcpy(expect, host[1], bytes[1]);
        cl_kernel k = kern(c[i].kernel);
        const void *args[] = {&im[0], &im[1]};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global[3] = {c[i].w, c[i].h, c[i].d};
        if (im[0] && im[1] && launch(k, 3, global, NULL, 2, args, sizes)) {
            /* the host sees the kernel's writes through a map of the output */
            size_t origin[3] = {0, 0, 0}, region[3] = {c[i].w, c[i].h, c[i].d}, row = 0, slice = 0;
            cl_int err;
            void *map = clEnqueueMapImage(queue, im[1], CL_TRUE, CL_MAP_READ, origin, region, &row, &slice, 0, NULL,
                                          NULL, &err);
            CHECK_ERR(err, CL_SUCCESS);
            CHECK(map == host[1], "the map of a CL_MEM_USE_HOST_PTR image is %p, not the host pointer %p", map,
                  (void *)host[1]);
            CHECK(row == rp[1], "%s: mapped row pitch %zu, not %zu", c[i].kernel, row, rp[1]);
            for (size_t z = 0; z < c[i].d; z++)
                for (size_t y = 0; y < c[i].h; y++) {
                    size_t in_off = arr1 ? y * sp[0] : y * rp[0] + z * sp[0];
                    size_t out_off = arr1 ? y * sp[1] : y * rp[1] + z * sp[1];
                    memcpy(expect + out_off, host[0] + in_off, c[i].w * ps);
                }
            int bad = 0;
            for (size_t b = 0; b < bytes[1]; b++)
                if (host[1][b] != expect[b] && bad++ < 3)
                    TEST_FAIL("%s with pitches: byte %zu of the output's host memory is 0x%02x, not 0x%02x%s",
                              c[i].kernel, b, host[1][b], expect[b], expect[b] == 0x5a ? " (padding)" : "");
            if (map)
                CHECK_ERR(clEnqueueUnmapMemObject(queue, im[1], map, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clFinish(queue), CL_SUCCESS);
        }
        clReleaseKernel(k);
        for (int j = 0; j < 2; j++) {
            if (im[j])
                clReleaseMemObject(im[j]);
            free(host[j]);
        }
        free(expect);
    }
}

/* ---- depth image arrays: sampler reads and writes ------------------------------------- */
TEST(depth_arrays)
{
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_DEPTH, CL_FLOAT, 7, 6, 3, CL_MEM_READ_ONLY);
    enum { N = 200 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-1.0f, 8.0f), c[4 * i + 1] = rndf(-1.0f, 7.0f), c[4 * i + 2] = rndf(-0.8f, 3.3f), c[4 * i + 3] = 0;
    const samp modes[] = {{CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}, {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                                                         CL_FILTER_NEAREST}};
    cl_kernel k = kern("rdepth_2da");
    cl_mem cb = buffer(sizeof c, c), ob = buffer(N * 4, NULL);
    for (int m = 0; m < 2; m++) {
        cl_sampler s = sampler(modes[m].norm, modes[m].am, modes[m].fm);
        const void *args[] = {&im.mem, &s, &cb, &ob};
        size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem), sizeof(cl_mem)}, global = N;
        if (launch(k, 1, &global, NULL, 4, args, sizes)) {
            float o[N];
            CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
            int bad = 0;
            for (int i = 0; i < N; i++) {
                double want[4];
                sample(&im, modes[m], c + 4 * i, want); /* a depth image's border is 0 */
                if (!close_to(o[i], want[0], 2e-6) && bad++ < 4)
                    TEST_FAIL("image2d_array_depth_t, filter 0x%x, at (%.9g, %.9g, %.9g): %.9g, not %.9g", modes[m].fm,
                              c[4 * i], c[4 * i + 1], c[4 * i + 2], o[i], want[0]);
            }
        }
        clReleaseSampler(s);
    }
    clReleaseKernel(k);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free_image(&im);
    /* writes, UNORM_INT16 */
    cl_image_format f = {CL_DEPTH, CL_UNORM_INT16};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, desc.image_width = 8, desc.image_height = 5,
    desc.image_array_size = 3;
    cl_int err;
    cl_mem w = clCreateImage(context, CL_MEM_WRITE_ONLY, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel kw = kern("wdepth_2da");
    const void *args[] = {&w};
    size_t sizes[] = {sizeof(cl_mem)}, global[3] = {8, 5, 3};
    if (launch(kw, 3, global, NULL, 1, args, sizes)) {
        uint16_t got[8 * 5 * 3];
        size_t origin[3] = {0, 0, 0}, region[3] = {8, 5, 3};
        CHECK_ERR(clEnqueueReadImage(queue, w, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
        for (int z = 0; z < 3; z++)
            for (int y = 0; y < 5; y++)
                for (int x = 0; x < 8; x++) {
                    float v = (float)(x + y * 8 + z * 64) * (1.0f / 1024);
                    uint16_t want = (uint16_t)rintf(v * 65535.0f);
                    CHECK(got[(z * 5 + y) * 8 + x] == want, "write to image2d_array_depth_t at (%d, %d, %d): %u, not %u",
                          x, y, z, got[(z * 5 + y) * 8 + x], want);
                }
    }
    clReleaseKernel(kw);
    clReleaseMemObject(w);
}

/* ---- objects released while a launch that uses them waits ---------------------------- */
TEST(release_while_pending)
{
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 8, 8, 1, CL_MEM_READ_ONLY);
    samp sp = {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR};
    cl_sampler s = sampler(sp.norm, sp.am, sp.fm);
    enum { N = 64 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-1, 2), c[4 * i + 1] = rndf(-1, 2), c[4 * i + 2] = c[4 * i + 3] = 0;
    cl_mem cb = buffer(sizeof c, c), ob = buffer(N * 16, NULL);
    cl_kernel k = kern("sf_2d");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &im.mem), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_sampler), &s), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof(cl_mem), &cb), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_mem), &ob), CL_SUCCESS);
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 1, &gate, NULL), CL_SUCCESS);
    /* the image, the sampler and the kernel go before the launch runs */
    clReleaseMemObject(im.mem);
    im.mem = NULL;
    clReleaseSampler(s);
    clReleaseKernel(k);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    float o[4 * N];
    CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double want[4];
        sample(&im, sp, c + 4 * i, want);
        for (int ch = 0; ch < 4; ch++)
            if (!close_to(o[4 * i + ch], want[ch], 2e-6) && bad++ < 4)
                TEST_FAIL("after the release: (%g, %g) channel %d is %.9g, not %.9g", c[4 * i], c[4 * i + 1], ch,
                          o[4 * i + ch], want[ch]);
    }
    clReleaseEvent(gate);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free_image(&im);
}

/* ---- an sRGB view of an RGBA image, and a fill, read by a kernel ------------------------- */
TEST(views_and_fills)
{
    himg lin = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 6, 4, 1, CL_MEM_READ_ONLY);
    cl_image_format sf = {CL_sRGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = 6, desc.image_height = 4, desc.mem_object = lin.mem;
    cl_int err;
    cl_mem view = clCreateImage(context, 0, &sf, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 24 };
    cl_int c[4 * N] = {0};
    for (int i = 0; i < N; i++)
        c[4 * i] = i % 6, c[4 * i + 1] = i / 6;
    cl_mem cb = buffer(sizeof c, c), ob = buffer(N * 16, NULL);
    cl_kernel k = kern("nf_2d");
    const void *args[] = {&view, &cb, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)}, global = N;
    if (view && launch(k, 1, &global, NULL, 3, args, sizes)) {
        float o[4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < N; i++) {
            double want[4];
            decode(sf, lin.bytes + 4 * i, want);
            for (int ch = 0; ch < 4; ch++)
                CHECK(close_to(o[4 * i + ch], want[ch], 2e-6), "sRGBA view at (%d, %d) channel %d: %.9g, not %.9g",
                      i % 6, i / 6, ch, o[4 * i + ch], want[ch]);
        }
    }
    if (view)
        clReleaseMemObject(view);
    free_image(&lin);
    /* a fill of part of a float image, then a kernel's read */
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 6, 4, 1, CL_MEM_READ_ONLY);
    float colour[4] = {0.25f, -2.0f, 7.5f, 1.0f};
    size_t origin[3] = {1, 1, 0}, region[3] = {3, 2, 1};
    CHECK_ERR(clEnqueueFillImage(queue, im.mem, colour, origin, region, 0, NULL, NULL), CL_SUCCESS);
    const void *args2[] = {&im.mem, &cb, &ob};
    if (launch(k, 1, &global, NULL, 3, args2, sizes)) {
        float o[4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < N; i++) {
            int x = i % 6, y = i / 6;
            bool filled = x >= 1 && x < 4 && y >= 1 && y < 3;
            for (int ch = 0; ch < 4; ch++) {
                double want = filled ? colour[ch] : im.val[4 * i + ch];
                CHECK(o[4 * i + ch] == (float)want, "after the fill, (%d, %d) channel %d: %.9g, not %.9g", x, y, ch,
                      o[4 * i + ch], want);
            }
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free_image(&im);
}

/* ---- eight images and two samplers in one kernel, through a helper function; a clone ---- */
TEST(many_arguments)
{
    himg im[8];
    for (int j = 0; j < 8; j++)
        im[j] = make_image(CL_MEM_OBJECT_IMAGE2D, j % 2 ? CL_RGBA : j % 3 ? CL_BGRA : CL_RG,
                           j % 3 ? CL_UNORM_INT8 : CL_UNORM_INT16, 5 + (size_t)j, 9 - (size_t)j, 1, CL_MEM_READ_ONLY);
    samp s0p = {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR}, s1p = {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR};
    cl_sampler s0 = sampler(s0p.norm, s0p.am, s0p.fm), s1 = sampler(s1p.norm, s1p.am, s1p.fm);
    enum { N = 64 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-1.5f, 2.5f), c[4 * i + 1] = rndf(-1.5f, 2.5f), c[4 * i + 2] = rndf(-1, 10), c[4 * i + 3] = rndf(-1, 10);
    cl_mem cb = buffer(sizeof c, c), ob = buffer(N * 16, NULL);
    cl_image_format of = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = 16, desc.image_height = N / 16;
    cl_int err;
    cl_mem out = clCreateImage(context, CL_MEM_WRITE_ONLY, &of, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kern("many");
    const void *args[] = {&im[0].mem, &im[1].mem, &im[2].mem, &im[3].mem, &s0, &im[4].mem, &im[5].mem, &im[6].mem,
                          &im[7].mem, &s1, &cb, &out, &ob};
    size_t sizes[13];
    for (int a = 0; a < 13; a++)
        sizes[a] = a == 4 || a == 9 ? sizeof(cl_sampler) : sizeof(cl_mem);
    size_t global = N;
    for (int a = 0; a < 13; a++)
        CHECK_ERR(clSetKernelArg(k, (cl_uint)a, sizes[a], args[a]), CL_SUCCESS);
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseKernel(k); /* the clone keeps the arguments */
    if (clone) {
        CHECK_ERR(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        float o[4 * N], oi[4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        size_t origin[3] = {0, 0, 0}, region[3] = {16, N / 16, 1};
        CHECK_ERR(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0, oi, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            float p[4] = {c[4 * i], c[4 * i + 1], 0, 0}, q[4] = {c[4 * i + 2], c[4 * i + 3], 0, 0};
            double want[4] = {0, 0, 0, 0}, mag = 0;
            for (int j = 0; j < 8; j++) {
                double t[4], m;
                bool use_p = j == 0 || j == 3 || j == 4 || j == 7;
                samp sp = j % 2 ? s1p : s0p;
                sample_mag(&im[j], sp, use_p ? p : q, t, &m);
                for (int ch = 0; ch < 4; ch++)
                    want[ch] += (1 << j) * t[ch];
                mag += (1 << j) * m;
            }
            for (int ch = 0; ch < 4; ch++) {
                if (!close_to(o[4 * i + ch], want[ch], 4e-6 * (1 + mag)) && bad++ < 4)
                    TEST_FAIL("many: item %d channel %d is %.9g, not %.9g", i, ch, o[4 * i + ch], want[ch]);
                if (oi[4 * i + ch] != o[4 * i + ch] * (1.0f / 256) && bad++ < 4)
                    TEST_FAIL("many: the image's pixel %d channel %d is %.9g, not %.9g", i, ch, oi[4 * i + ch],
                              o[4 * i + ch] / 256);
            }
        }
        CHECK(bad == 0);
        clReleaseKernel(clone);
    }
    clReleaseSampler(s0), clReleaseSampler(s1);
    clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(out);
    for (int j = 0; j < 8; j++)
        free_image(&im[j]);
}

/* ---- a larger image over many work-groups and threads, uniform and not ------------------ */
TEST(large_images)
{
    enum { W = 1031, H = 517 };
    himg in = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 1, CL_MEM_READ_ONLY);
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
    cl_int err;
    cl_mem out = clCreateImage(context, CL_MEM_WRITE_ONLY, &in.fmt, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kern("cp_2d");
    const void *args[] = {&in.mem, &out};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global[3] = {W, H, 1}, local[3] = {16, 8, 1};
    uint8_t *got = malloc(W * H * 4);
    for (int nonuniform = 0; nonuniform < 2; nonuniform++) {
        size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
        CHECK_ERR(clEnqueueFillImage(queue, out, (float[4]){0, 0, 0, 0}, origin, region, 0, NULL, NULL), CL_SUCCESS);
        if (!launch(k, 3, global, nonuniform ? local : NULL, 2, args, sizes))
            break;
        CHECK_ERR(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
        CHECK(!memcmp(got, in.bytes, W * H * 4), "the copy of a %dx%d image differs (local size %s)", W, H,
              nonuniform ? "16x8, partial groups" : "the platform's");
    }
    free(got);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    free_image(&in);
}

/* ---- a read_write image written and read by a work-group across barrier(CLK_IMAGE_MEM_FENCE) ---- */
TEST(read_write_barrier)
{
    enum { W = 24, H = 12, LW = 8, LH = 4 };
    cl_image_format f = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
    cl_int err;
    cl_mem im = clCreateImage(context, CL_MEM_READ_WRITE, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem ob = buffer(W * H * 16, NULL);
    cl_kernel k = kern("rw_barrier");
    const void *args[] = {&im, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global[2] = {W, H}, local[2] = {LW, LH};
    if (launch(k, 2, global, local, 2, args, sizes)) {
        float o[W * H * 4];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int sx = x / LW * LW + LW - 1 - x % LW, sy = y / LH * LH + LH - 1 - y % LH;
                float want[4] = {(float)sx, (float)sy, (float)(sx * sy), 1};
                if (memcmp(&o[4 * (y * W + x)], want, 16) && bad++ < 4)
                    TEST_FAIL("rw_barrier: (%d, %d) read (%g, %g, %g, %g), the write of (%d, %d) after the barrier", x,
                              y, o[4 * (y * W + x)], o[4 * (y * W + x) + 1], o[4 * (y * W + x) + 2],
                              o[4 * (y * W + x) + 3], sx, sy);
            }
        CHECK(bad == 0);
    }
    clReleaseKernel(k);
    clReleaseMemObject(ob), clReleaseMemObject(im);
}

/* ---- images over sub-buffers (an offset into the buffer) and over host memory --------- */
TEST(over_sub_buffers)
{
    cl_uint align_bits = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL), CL_SUCCESS);
    size_t off = align_bits / 8 * 3;
    enum { N = 50, W = 6, H = 5 };
    size_t total = off + 4 * N + 64;
    uint8_t *host = malloc(total), *back = malloc(total);
    for (size_t i = 0; i < total; i++)
        host[i] = (uint8_t)rnd();
    cl_int err;
    cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, total, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_buffer_region region = {off, 4 * N};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, desc.image_width = N, desc.buffer = sub;
    cl_mem im = clCreateImage(context, CL_MEM_READ_ONLY, &f, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* a kernel reads pixels of the 1D buffer image: the sub-buffer's bytes */
    cl_int c[4 * 4] = {0, 0, 0, 0, 1, 0, 0, 0, N - 1, 0, 0, 0, 17, 0, 0, 0};
    cl_mem cb = buffer(sizeof c, c), ob = buffer(4 * 16, NULL);
    cl_kernel r = kern("nu_1db");
    const void *rargs[] = {&im, &cb, &ob};
    size_t rsizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)}, rglobal = 4;
    if (im && launch(r, 1, &rglobal, NULL, 3, rargs, rsizes)) {
        cl_uint o[16];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < 4; i++)
            for (int ch = 0; ch < 4; ch++)
                CHECK(o[4 * i + ch] == host[off + 4 * (size_t)c[4 * i] + (size_t)ch], "image over a sub-buffer at "
                      "offset %zu: pixel %d channel %d is %u, not %u (the byte at the sub-buffer's offset)", off,
                      c[4 * i], ch, o[4 * i + ch], host[off + 4 * (size_t)c[4 * i] + (size_t)ch]);
    }
    /* a 2D image over another sub-buffer, written by a kernel, seen in the parent */
    cl_buffer_region region2 = {off, 4 * W * H};
    cl_mem sub2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region2, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_image_format f2 = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d2 = {0};
    d2.image_type = CL_MEM_OBJECT_IMAGE2D, d2.image_width = W, d2.image_height = H, d2.buffer = sub2;
    cl_mem im2 = clCreateImage(context, CL_MEM_WRITE_ONLY, &f2, &d2, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel w = kern("from_buf");
    const void *wargs[] = {&im2};
    size_t wsizes[] = {sizeof(cl_mem)}, wglobal[2] = {W, H};
    if (im2 && launch(w, 2, wglobal, NULL, 1, wargs, wsizes)) {
        memcpy(back, host, total); /* what the parent should hold after it: only the sub-buffer's bytes changed */
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int ch = 0; ch < 4; ch++) {
                    float v = ch == 0 ? (float)x : ch == 1 ? (float)y : ch == 2 ? (float)(x + y) : 3.0f;
                    back[off + (size_t)(4 * (y * W + x) + ch)] = (uint8_t)rintf(v * (1.0f / 32) * 255.0f);
                }
        uint8_t *got = malloc(total);
        CHECK_ERR(clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, total, got, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (size_t i = 0; i < total; i++)
            if (got[i] != back[i] && bad++ < 4)
                TEST_FAIL("2D image over a sub-buffer at offset %zu: byte %zu of the parent is %u, not %u", off, i,
                          got[i], back[i]);
        free(got);
        /* a map of the image: inside the parent's host memory (CL_MEM_USE_HOST_PTR), at the sub-buffer's offset */
        size_t origin[3] = {1, 2, 0}, mregion[3] = {2, 2, 1}, row = 0;
        uint8_t *map = clEnqueueMapImage(queue, im2, CL_TRUE, CL_MAP_READ, origin, mregion, &row, NULL, 0, NULL, NULL,
                                         &err);
        CHECK_ERR(err, CL_SUCCESS);
        CHECK(map == host + off + 2 * 4 * W + 4, "the map of an image over a sub-buffer of a CL_MEM_USE_HOST_PTR "
              "buffer is %p, not %p (host pointer + offset %zu + the origin)", (void *)map,
              (void *)(host + off + 2 * 4 * W + 4), off);
        CHECK(row == 4 * W);
        if (map) {
            CHECK(!memcmp(map, back + off + 2 * 4 * W + 4, 8), "the mapped bytes differ from the kernel's");
            CHECK_ERR(clEnqueueUnmapMemObject(queue, im2, map, 0, NULL, NULL), CL_SUCCESS);
        }
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
    }
    clReleaseKernel(r), clReleaseKernel(w);
    if (im)
        clReleaseMemObject(im);
    if (im2)
        clReleaseMemObject(im2);
    clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(sub), clReleaseMemObject(sub2);
    clReleaseMemObject(parent);
    free(host), free(back);
}

/* ---- image kernels from a program binary, and from separately compiled units ----------- */
static const char unit_helper[] =
    "float4 fetch(read_only image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c) * 2.0f; }\n";
static const char unit_kernel[] =
    "float4 fetch(read_only image2d_t im, sampler_t s, float2 c);\n"
    "constant sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;\n"
    "float4 local_fetch(read_only image2d_t im, float2 c) { return read_imagef(im, ps, c); }\n"
    "kernel void k(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o) {"
    " size_t i = get_global_id(0); o[2 * i] = fetch(im, s, c[i].xy); o[2 * i + 1] = local_fetch(im, c[i].zw); }\n";

static void check_unit_program(cl_program p, const char *how)
{
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 9, 6, 1, CL_MEM_READ_ONLY);
    samp sa = {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, sb = {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT,
                                                                           CL_FILTER_LINEAR};
    cl_sampler s = sampler(sa.norm, sa.am, sa.fm);
    enum { N = 100 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-2, 11), c[4 * i + 1] = rndf(-2, 8), c[4 * i + 2] = rndf(-2, 3), c[4 * i + 3] = rndf(-2, 3);
    cl_mem cb = buffer(sizeof c, c), ob = buffer(2 * N * 16, NULL);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    const void *args[] = {&im.mem, &s, &cb, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem), sizeof(cl_mem)}, global = N;
    if (k && launch(k, 1, &global, NULL, 4, args, sizes)) {
        float o[2 * 4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double wa[4], wb[4];
            sample(&im, sa, c + 4 * i, wa);
            sample(&im, sb, c + 4 * i + 2, wb);
            for (int ch = 0; ch < 4; ch++) {
                if (!close_to(o[8 * i + ch], 2 * wa[ch], 2e-6) && bad++ < 4)
                    TEST_FAIL("%s: the other unit's read at (%g, %g) channel %d: %.9g, not %.9g", how, c[4 * i],
                              c[4 * i + 1], ch, o[8 * i + ch], 2 * wa[ch]);
                if (!close_to(o[8 * i + 4 + ch], wb[ch], 2e-6) && bad++ < 4)
                    TEST_FAIL("%s: the program-scope sampler's read at (%g, %g) channel %d: %.9g, not %.9g", how,
                              c[4 * i + 2], c[4 * i + 3], ch, o[8 * i + 4 + ch], wb[ch]);
            }
        }
        CHECK(bad == 0, "%s", how);
    }
    if (k)
        clReleaseKernel(k);
    clReleaseSampler(s);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free_image(&im);
}

TEST(binaries_and_linking)
{
    /* compiled separately, then linked */
    cl_int err;
    const char *h = unit_helper, *kk = unit_kernel;
    cl_program ph = clCreateProgramWithSource(context, 1, &h, NULL, &err);
    cl_program pk = clCreateProgramWithSource(context, 1, &kk, NULL, &err);
    CHECK_ERR(clCompileProgram(ph, 1, &device, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clCompileProgram(pk, 1, &device, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program units[2] = {pk, ph};
    cl_program linked = clLinkProgram(context, 1, &device, "", 2, units, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (linked)
        check_unit_program(linked, "clLinkProgram");
    /* the linked program's binary, loaded again */
    size_t size = 0;
    if (linked)
        CHECK_ERR(clGetProgramInfo(linked, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
    if (size) {
        unsigned char *bin = malloc(size);
        CHECK_ERR(clGetProgramInfo(linked, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
        cl_int status;
        cl_program fromb = clCreateProgramWithBinary(context, 1, &device, &size, (const unsigned char **)&bin, &status,
                                                     &err);
        CHECK_ERR(err, CL_SUCCESS);
        CHECK_ERR(status, CL_SUCCESS);
        if (fromb) {
            CHECK_ERR(clBuildProgram(fromb, 1, &device, "", NULL, NULL), CL_SUCCESS);
            check_unit_program(fromb, "clCreateProgramWithBinary");
            clReleaseProgram(fromb);
        }
        free(bin);
    }
    if (linked)
        clReleaseProgram(linked);
    clReleaseProgram(ph), clReleaseProgram(pk);
}

/* ---- images of one texel per axis (every sampler), and samplers written as literals ------ */
TEST(tiny_images_and_literal_samplers)
{
    himg one[3] = {make_image(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, 1, 1, 1, CL_MEM_READ_ONLY),
                   make_image(CL_MEM_OBJECT_IMAGE2D, CL_RG, CL_UNORM_INT8, 1, 1, 1, CL_MEM_READ_ONLY),
                   make_image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNORM_INT16, 1, 2, 1, CL_MEM_READ_ONLY)};
    for (int i = 0; i < 3; i++) {
        every_sampler(&one[i], 2e-6);
        free_image(&one[i]);
    }
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 7, 5, 1, CL_MEM_READ_ONLY);
    enum { N = 100 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-2, 3), c[4 * i + 1] = rndf(-2, 3), c[4 * i + 2] = rndf(-2, 9), c[4 * i + 3] = rndf(-2, 7);
    cl_mem cb = buffer(sizeof c, c), ob = buffer(2 * N * 16, NULL);
    cl_kernel k = kern("literal_samplers");
    const void *args[] = {&im.mem, &cb, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)}, global = N;
    if (launch(k, 1, &global, NULL, 3, args, sizes)) {
        float o[2 * 4 * N];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double wa[4], wb[4];
            sample(&im, (samp){CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, c + 4 * i, wa);
            sample(&im, (samp){CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}, c + 4 * i + 2, wb);
            for (int ch = 0; ch < 4; ch++) {
                if (!close_to(o[8 * i + ch], wa[ch], 2e-6) && bad++ < 4)
                    TEST_FAIL("a sampler variable at (%g, %g) channel %d: %.9g, not %.9g", c[4 * i], c[4 * i + 1], ch,
                              o[8 * i + ch], wa[ch]);
                if (!close_to(o[8 * i + 4 + ch], wb[ch], 1e-6) && bad++ < 4)
                    TEST_FAIL("a literal sampler at (%g, %g) channel %d: %.9g, not %.9g", c[4 * i + 2], c[4 * i + 3], ch,
                              o[8 * i + 4 + ch], wb[ch]);
            }
        }
        CHECK(bad == 0);
    }
    clReleaseKernel(k);
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free_image(&im);
}

/* ---- arguments are taken at enqueue: a launch keeps its image and sampler when the
 * kernel's arguments change before it runs ---------------------------------------------- */
TEST(arguments_at_enqueue)
{
    himg a = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 5, 5, 1, CL_MEM_READ_ONLY);
    himg b = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 7, 3, 1, CL_MEM_READ_ONLY);
    samp sa = {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, sb = {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
    cl_sampler s1 = sampler(sa.norm, sa.am, sa.fm), s2 = sampler(sb.norm, sb.am, sb.fm);
    enum { N = 64 };
    float c[4 * N];
    for (int i = 0; i < N; i++)
        c[4 * i] = rndf(-1, 8), c[4 * i + 1] = rndf(-1, 6), c[4 * i + 2] = c[4 * i + 3] = 0;
    cl_mem cb = buffer(sizeof c, c), o1 = buffer(N * 16, NULL), o2 = buffer(N * 16, NULL);
    cl_kernel k = kern("sf_2d");
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    size_t global = N;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &a.mem), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_sampler), &s1), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof(cl_mem), &cb), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_mem), &o1), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 1, &gate, NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &b.mem), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_sampler), &s2), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_mem), &o2), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    float r1[4 * N], r2[4 * N];
    CHECK_ERR(clEnqueueReadBuffer(queue, o1, CL_TRUE, 0, sizeof r1, r1, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, o2, CL_TRUE, 0, sizeof r2, r2, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double w1[4], w2[4];
        sample(&a, sa, c + 4 * i, w1);
        sample(&b, sb, c + 4 * i, w2);
        for (int ch = 0; ch < 4; ch++) {
            if (!close_to(r1[4 * i + ch], w1[ch], 2e-6) && bad++ < 4)
                TEST_FAIL("the first launch (image a, a linear sampler) at (%g, %g) channel %d: %.9g, not %.9g",
                          c[4 * i], c[4 * i + 1], ch, r1[4 * i + ch], w1[ch]);
            if (!close_to(r2[4 * i + ch], w2[ch], 1e-6) && bad++ < 4)
                TEST_FAIL("the second launch (image b, a nearest sampler) at (%g, %g) channel %d: %.9g, not %.9g",
                          c[4 * i], c[4 * i + 1], ch, r2[4 * i + ch], w2[ch]);
        }
    }
    CHECK(bad == 0);
    clReleaseEvent(gate);
    clReleaseKernel(k);
    clReleaseSampler(s1), clReleaseSampler(s2);
    clReleaseMemObject(cb), clReleaseMemObject(o1), clReleaseMemObject(o2);
    free_image(&a), free_image(&b);
}

/* ---- an image over shared virtual memory (CL_MEM_USE_HOST_PTR on an SVM allocation) -------- */
TEST(image_over_svm)
{
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        TEST_SKIP("no SVM");
    enum { W = 8, H = 6 };
    float *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, W * H * 16, 0);
    CHECK(svm != NULL);
    if (!svm)
        return;
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, svm, W * H * 16, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < W * H * 4; i++)
        svm[i] = (float)i * 0.25f;
    CHECK_ERR(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL), CL_SUCCESS);
    cl_image_format f = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
    cl_int err;
    cl_mem im = clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &f, &desc, svm, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem ob = buffer(W * H * 16, NULL);
    cl_kernel k = kern("rw_2d");
    const void *args[] = {&im, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem)}, global[2] = {W, H};
    if (im && launch(k, 2, global, NULL, 2, args, sizes)) {
        CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, W * H * 16, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < W * H * 4; i++)
            if (svm[i] != (float)i * 0.25f * 0.5f + 0.25f && bad++ < 4)
                TEST_FAIL("the SVM memory under the image: float %d is %g, not %g", i, svm[i],
                          (float)i * 0.25f * 0.5f + 0.25f);
        CHECK_ERR(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
    }
    clReleaseKernel(k);
    clReleaseMemObject(ob);
    if (im)
        clReleaseMemObject(im);
    clSVMFree(context, svm);
}

/* ---- every format of every other image type, through a sampler --------------------------- */
TEST(format_sweep_all_types)
{
    static const struct { cl_mem_object_type type; size_t w, h, d; } t[] = {
        {CL_MEM_OBJECT_IMAGE1D, 7, 1, 1}, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 3, 1},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 3, 3}, {CL_MEM_OBJECT_IMAGE3D, 4, 3, 3},
    };
    int tested = 0;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        cl_uint n = 0;
        CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, t[i].type, 0, NULL, &n), CL_SUCCESS);
        cl_image_format *formats = calloc(n ? n : 1, sizeof *formats);
        CHECK_ERR(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, t[i].type, n, formats, NULL), CL_SUCCESS);
        CHECK(n > 0);
        for (cl_uint f = 0; f < n; f++) {
            if (formats[f].image_channel_order == CL_DEPTH) /* image2d_array_depth_t: depth_arrays */
                continue;
            himg im = make_image(t[i].type, formats[f].image_channel_order, formats[f].image_channel_data_type, t[i].w,
                                 t[i].h, t[i].d, CL_MEM_READ_ONLY);
            bool ints = is_int_type(formats[f].image_channel_data_type);
            /* float formats: linear across the borders (the border colour blended in); integers: nearest */
            check_sampler_reads(&im, ints ? (samp){CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}
                                          : (samp){CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}, 2e-6);
            free_image(&im);
            tested++;
        }
        free(formats);
    }
    printf("%d image types and formats read\n", tested);
}

/* ---- a barrier between image reads and their use (fibers, MOSAIC_BARRIER_FIBERS=1) ---- */
TEST(local_tile)
{
    enum { W = 32, H = 24, LW = 8, LH = 4 };
    himg im = make_image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 1, CL_MEM_READ_ONLY);
    cl_kernel k = kern("tile");
    cl_sampler s = sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    cl_mem ob = buffer(W * H * 16, NULL);
    CHECK_ERR(clSetKernelArg(k, 3, LW * LH * 16, NULL), CL_SUCCESS);
    const void *args[] = {&im.mem, &s, &ob};
    size_t sizes[] = {sizeof(cl_mem), sizeof(cl_sampler), sizeof(cl_mem)}, global[2] = {W, H}, local[2] = {LW, LH};
    if (launch(k, 2, global, local, 3, args, sizes)) {
        float o[W * H * 4];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int gx = x / LW * LW, gy = y / LH * LH, sx = gx + LW - 1 - x % LW, sy = gy + LH - 1 - y % LH;
                float c[4] = {sx + 0.25f, sy + 0.75f, 0, 0};
                double want[4];
                sample(&im, (samp){CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, c, want);
                for (int ch = 0; ch < 4; ch++)
                    if (!close_to(o[4 * (y * W + x) + ch], want[ch], 2e-6) && bad++ < 4)
                        TEST_FAIL("tile: (%d, %d) channel %d is %.9g, not %.9g (the read of (%d, %d))", x, y, ch,
                                  o[4 * (y * W + x) + ch], want[ch], sx, sy);
            }
        CHECK(bad == 0);
    }
    clReleaseMemObject(ob);
    clReleaseSampler(s);
    clReleaseKernel(k);
    free_image(&im);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, kernels_src, "-cl-std=CL3.0", &device, &context, &queue, &program);
}
