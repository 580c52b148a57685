/*
 * Images on the host side (api/image.c, api/enqueue_image.c,
 * core/image_format.c), through libmosaic.so linked directly: the formats
 * list against the specification's minimum lists, creation of every type
 * with every host pointer flag and every error code, the image and memory
 * object queries, and every command checked byte for byte against a host
 * model of the image (pixel (x, y, z) at x * pixel + y * row pitch + z *
 * slice pitch; for a 1D array, layer y at y * slice pitch), fills against
 * a conversion written here.
 */
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_image_objects.list"
#include "cl_test.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

static const cl_mem_object_type all_types[] = {
    CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
};

static unsigned char *random_bytes(size_t n, unsigned seed)
{
    unsigned char *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
    return p;
}

/* An image of `type` with width w, height h (rows or layers of a 1D
 * array) and depth d (slices or layers of a 2D array). */
static cl_image_desc describe(cl_mem_object_type type, size_t w, size_t h, size_t d)
{
    cl_image_desc desc = { .image_type = type, .image_width = w };
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: desc.image_array_size = h; break;
    case CL_MEM_OBJECT_IMAGE2D: desc.image_height = h; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: desc.image_height = h; desc.image_array_size = d; break;
    case CL_MEM_OBJECT_IMAGE3D: desc.image_height = h; desc.image_depth = d; break;
    default: break;
    }
    return desc;
}

static cl_int create_error(cl_mem_flags flags, const cl_image_format *f, const cl_image_desc *d, void *host)
{
    cl_int err = 12345;
    cl_mem m = clCreateImage(ctx, flags, f, d, host, &err);
    if (m)
        clReleaseMemObject(m);
    return m ? CL_SUCCESS : err;
}

/* A 1D buffer image needs its buffer; other types are made from nothing. */
static cl_mem make(cl_mem_flags flags, const cl_image_format *f, cl_image_desc desc, void *host, cl_mem *buffer)
{
    cl_int err = -1;
    *buffer = NULL;
    if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        size_t ps = 0;
        cl_mem probe = clCreateImage(ctx, 0, f, &(cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE1D,
                                                                  .image_width = 1 }, NULL, &err);
        OK(clGetImageInfo(probe, CL_IMAGE_ELEMENT_SIZE, sizeof ps, &ps, NULL));
        clReleaseMemObject(probe);
        *buffer = clCreateBuffer(ctx, host ? CL_MEM_COPY_HOST_PTR : 0, desc.image_width * ps, host, &err);
        OK(err);
        desc.mem_object = *buffer;
        flags &= ~(cl_mem_flags)(CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
        host = NULL;
    }
    cl_mem m = clCreateImage(ctx, flags, f, &desc, host, &err);
    CHECK(err == CL_SUCCESS && m, "clCreateImage(type 0x%x): %d", desc.image_type, err);
    return m;
}

/* ---- formats ---------------------------------------------------------------------- */

static bool listed(const cl_image_format *list, cl_uint n, cl_channel_order o, cl_channel_type t)
{
    for (cl_uint i = 0; i < n; i++)
        if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
            return true;
    return false;
}

TEST(formats)
{
    /* OpenCL 3.0's minimum lists (full profile): reading or writing, and
     * reading and writing in one kernel; OpenCL 2.x's adds CL_R, CL_RG,
     * CL_sRGBA, SNORM RGBA and CL_DEPTH (docs/images.md lists what Mosaic has). */
    static const cl_channel_type rgba_min[] = { CL_UNORM_INT8, CL_UNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
                                                CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                                CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT };
    static const cl_channel_type rw_min[] = { CL_UNORM_INT8, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
                                              CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
                                              CL_HALF_FLOAT, CL_FLOAT };
    static const cl_mem_flags flags[] = { CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                          CL_MEM_KERNEL_READ_AND_WRITE, 0 };
    for (size_t t = 0; t < COUNT(all_types); t++)
        for (size_t fl = 0; fl < COUNT(flags); fl++) {
            cl_uint n = 0;
            OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], 0, NULL, &n));
            bool is2d = all_types[t] == CL_MEM_OBJECT_IMAGE2D || all_types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY;
            bool reading = flags[fl] == CL_MEM_READ_ONLY;
            cl_uint expect = 71 + (is2d ? 2 : 0) + (reading ? 2 : 0);
            CHECK(n == expect, "type 0x%x flags 0x%llx: %u formats, not %u", all_types[t],
                  (unsigned long long)flags[fl], n, expect);
            cl_image_format list[128];
            cl_uint m = 0;
            OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], COUNT(list), list, &m));
            CHECK(m == n);
            for (size_t i = 0; i < COUNT(rgba_min); i++)
                CHECK(listed(list, m, CL_RGBA, rgba_min[i]), "RGBA type 0x%x missing", rgba_min[i]);
            CHECK(listed(list, m, CL_BGRA, CL_UNORM_INT8));
            for (size_t i = 0; i < COUNT(rw_min); i++)
                CHECK(listed(list, m, CL_R, rw_min[i]), "R type 0x%x missing", rw_min[i]);
            CHECK(listed(list, m, CL_RG, CL_SNORM_INT16) && listed(list, m, CL_RGBA, CL_SNORM_INT8));
            CHECK(listed(list, m, CL_DEPTH, CL_FLOAT) == is2d && listed(list, m, CL_DEPTH, CL_UNORM_INT16) == is2d);
            CHECK(listed(list, m, CL_sRGBA, CL_UNORM_INT8) == reading);
            CHECK(!listed(list, m, CL_RGB, CL_UNORM_INT8) && !listed(list, m, CL_BGRA, CL_FLOAT));
            /* a shorter array gets the first entries, the count stays the whole */
            cl_image_format two[2];
            OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], 2, two, &m));
            CHECK(m == n && memcmp(two, list, sizeof two) == 0);
            /* and every one of them makes an image */
            if (fl == 0)
                for (cl_uint i = 0; i < n; i++) {
                    cl_mem buf;
                    cl_mem img = make(0, &list[i], describe(all_types[t], 5, 3, 2), NULL, &buf);
                    if (img)
                        clReleaseMemObject(img);
                    if (buf)
                        clReleaseMemObject(buf);
                }
        }
    cl_uint n;
    CHECK_ERR(clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                         &n), CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
              CL_INVALID_VALUE);
    cl_image_format one;
    CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, &one, &n),
              CL_INVALID_VALUE);
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, NULL));
}

TEST(device_queries)
{
    cl_bool support = CL_FALSE;
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL));
    CHECK(support == CL_TRUE);
    static const struct { cl_device_info q; size_t min; bool is_size_t; } mins[] = {
        { CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384, true }, { CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384, true },
        { CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048, true },  { CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048, true },
        { CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048, true },  { CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536, true },
        { CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048, true }, { CL_DEVICE_MAX_READ_IMAGE_ARGS, 128, false },
        { CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64, false }, { CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64, false },
        { CL_DEVICE_MAX_SAMPLERS, 16, false },        { CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 1, false },
        { CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, 1, false },
    };
    for (size_t i = 0; i < COUNT(mins); i++) {
        size_t v = 0, size = 0;
        OK(clGetDeviceInfo(device, mins[i].q, sizeof v, &v, &size));
        CHECK(size == (mins[i].is_size_t ? sizeof(size_t) : sizeof(cl_uint)));
        if (!mins[i].is_size_t)
            v = (cl_uint)v;
        CHECK(v >= mins[i].min, "query 0x%x: %zu, below %zu", mins[i].q, v, mins[i].min);
    }
    char ext[4096] = "";
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_image2d_from_buffer") && strstr(ext, "cl_khr_depth_images"));
}

/* ---- creation ------------------------------------------------------------------- */

TEST(create_errors)
{
    cl_image_format f = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc d = describe(CL_MEM_OBJECT_IMAGE2D, 16, 8, 1);
    unsigned char host[16 * 8 * 4 * 2];
    cl_int err = 0;
    CHECK(clCreateImage(NULL, 0, &f, &d, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
    /* flags */
    CHECK_ERR(create_error(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &f, &d, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &f, &d, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &f, &d, host), CL_INVALID_VALUE);
    CHECK_ERR(create_error((cl_mem_flags)1 << 40, &f, &d, NULL), CL_INVALID_VALUE);
    /* formats: undefined, then defined but not supported */
    CHECK_ERR(create_error(0, NULL, &d, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    static const cl_image_format bad[] = { { CL_RGB, CL_UNORM_INT8 }, { CL_BGRA, CL_FLOAT },
                                           { CL_INTENSITY, CL_SIGNED_INT8 }, { CL_sRGBA, CL_FLOAT },
                                           { CL_DEPTH, CL_UNORM_INT8 }, { CL_R, CL_UNORM_SHORT_565 },
                                           { 0x1234, CL_FLOAT }, { CL_RGBA, 0x1234 } };
    for (size_t i = 0; i < COUNT(bad); i++)
        CHECK_ERR(create_error(0, &bad[i], &d, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    static const cl_image_format unsupported[] = { { CL_RA, CL_UNORM_INT8 }, { CL_RGBx, CL_UNORM_SHORT_565 },
                                                   { CL_ABGR, CL_UNORM_INT8 }, { CL_sRGB, CL_UNORM_INT8 },
                                                   { CL_RGBA, CL_UNORM_INT_101010_2 } };
    for (size_t i = 0; i < COUNT(unsupported); i++)
        CHECK_ERR(create_error(0, &unsupported[i], &d, NULL), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_image_format depth = { CL_DEPTH, CL_FLOAT };
    cl_image_desc d3 = describe(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
    CHECK_ERR(create_error(0, &depth, &d3, NULL), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    OK(create_error(0, &depth, &d, NULL));
    /* descriptions */
    CHECK_ERR(create_error(0, &f, NULL, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc x = d;
    x.image_type = CL_MEM_OBJECT_BUFFER;
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    x = d;
    x.num_mip_levels = 2;
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    x = d;
    x.num_samples = 4;
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    x = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 1, 1);
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_DESCRIPTOR); /* no buffer */
    x = d;
    x.image_row_pitch = 64; /* a pitch without host_ptr */
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    x.image_row_pitch = 60; /* below width * pixel */
    CHECK_ERR(create_error(CL_MEM_COPY_HOST_PTR, &f, &x, host), CL_INVALID_IMAGE_DESCRIPTOR);
    x.image_row_pitch = 66; /* not a multiple of the pixel */
    CHECK_ERR(create_error(CL_MEM_COPY_HOST_PTR, &f, &x, host), CL_INVALID_IMAGE_DESCRIPTOR);
    x = describe(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2);
    x.image_row_pitch = 16;
    x.image_slice_pitch = 40; /* below 4 rows, not a multiple of the row */
    CHECK_ERR(create_error(CL_MEM_COPY_HOST_PTR, &f, &x, host), CL_INVALID_IMAGE_DESCRIPTOR);
    /* sizes */
    size_t max2d = 0, max_array = 0, max_buf = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL));
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof max_array, &max_array, NULL));
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof max_buf, &max_buf, NULL));
    for (size_t t = 0; t < COUNT(all_types); t++) {
        if (all_types[t] == CL_MEM_OBJECT_IMAGE1D_BUFFER)
            continue;
        x = describe(all_types[t], 0, 2, 2);
        CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_SIZE);
        x = describe(all_types[t], 2, 0, 0);
        if (all_types[t] != CL_MEM_OBJECT_IMAGE1D)
            CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_SIZE);
        else
            OK(create_error(0, &f, &x, NULL)); /* height and depth unused */
    }
    x = describe(CL_MEM_OBJECT_IMAGE2D, max2d + 1, 1, 1);
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_SIZE);
    x = describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, 1, 1, max_array + 1);
    CHECK_ERR(create_error(0, &f, &x, NULL), CL_INVALID_IMAGE_SIZE);
    /* host pointers */
    CHECK_ERR(create_error(CL_MEM_USE_HOST_PTR, &f, &d, NULL), CL_INVALID_HOST_PTR);
    CHECK_ERR(create_error(CL_MEM_COPY_HOST_PTR, &f, &d, NULL), CL_INVALID_HOST_PTR);
    CHECK_ERR(create_error(0, &f, &d, host), CL_INVALID_HOST_PTR);
    /* properties: none defined */
    cl_mem_properties props[] = { 0x1234, 1, 0 }, empty[] = { 0 };
    CHECK(clCreateImageWithProperties(ctx, props, 0, &f, &d, NULL, &err) == NULL && err == CL_INVALID_PROPERTY);
    cl_mem m = clCreateImageWithProperties(ctx, empty, 0, &f, &d, NULL, &err);
    OK(err);
    size_t size = 99;
    OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size));
    CHECK(size == sizeof(cl_mem_properties));
    clReleaseMemObject(m);
    /* the 1.x entry points */
    CHECK(clCreateImage2D(ctx, 0, &f, 0, 4, 0, NULL, &err) == NULL && err == CL_INVALID_IMAGE_SIZE);
    CHECK(clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &f, 16, 4, 60, host, &err) == NULL && err == CL_INVALID_IMAGE_SIZE);
    CHECK(clCreateImage2D(ctx, 0, NULL, 16, 4, 0, NULL, &err) == NULL && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK(clCreateImage3D(ctx, 0, &f, 4, 4, 1, 0, 0, NULL, &err) == NULL && err == CL_INVALID_IMAGE_SIZE);
    m = clCreateImage3D(ctx, CL_MEM_COPY_HOST_PTR, &f, 4, 2, 3, 32, 96, host, &err);
    OK(err);
    size_t v = 0;
    OK(clGetImageInfo(m, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL));
    CHECK(v == 96);
    clReleaseMemObject(m);
    m = clCreateImage2D(ctx, CL_MEM_READ_ONLY, &f, 16, 4, 0, NULL, &err);
    OK(err);
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == CL_MEM_READ_ONLY);
    clReleaseMemObject(m);
}

/* Every query of every type, for a packed image and one with the
 * application's pitches. */
TEST(info)
{
    cl_image_format f = { CL_RG, CL_SIGNED_INT16 }; /* 4-byte pixels */
    for (size_t t = 0; t < COUNT(all_types); t++) {
        cl_mem_object_type type = all_types[t];
        for (int pitched = 0; pitched < 2; pitched++) {
            if (pitched && type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
                continue;
            cl_image_desc d = describe(type, 7, 3, 2);
            bool arr = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
            bool has_h = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         type == CL_MEM_OBJECT_IMAGE3D;
            bool layered = arr || type == CL_MEM_OBJECT_IMAGE3D;
            size_t rows = has_h ? 3 : 1, slices = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 3 : layered ? 2 : 1;
            size_t row = pitched ? 40 : 28, slice = pitched ? row * (rows + 1) : row * rows;
            void *host = NULL;
            if (pitched) {
                d.image_row_pitch = row;
                d.image_slice_pitch = layered ? slice : 0;
                host = calloc(1, slice * slices);
            }
            cl_mem buf;
            cl_mem m = make(pitched ? CL_MEM_USE_HOST_PTR : 0, &f, d, host, &buf);
            if (!m) {
                free(host);
                continue;
            }
            size_t v = 0;
            cl_image_format got;
            OK(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof got, &got, NULL));
            CHECK(got.image_channel_order == CL_RG && got.image_channel_data_type == CL_SIGNED_INT16);
            OK(clGetImageInfo(m, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL));
            CHECK(v == 4);
            OK(clGetImageInfo(m, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
            CHECK(v == row, "type 0x%x row pitch %zu", type, v);
            OK(clGetImageInfo(m, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL));
            CHECK(v == (layered ? slice : 0), "type 0x%x slice pitch %zu", type, v);
            OK(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof v, &v, NULL));
            CHECK(v == 7);
            OK(clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof v, &v, NULL));
            CHECK(v == (has_h ? 3 : 0));
            OK(clGetImageInfo(m, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
            CHECK(v == (type == CL_MEM_OBJECT_IMAGE3D ? 2 : 0));
            OK(clGetImageInfo(m, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL));
            CHECK(v == (type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 3 : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2 : 0));
            cl_mem b = (cl_mem)1;
            OK(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof b, &b, NULL));
            CHECK(b == buf);
            cl_uint u = 9;
            OK(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL));
            CHECK(u == 0);
            OK(clGetImageInfo(m, CL_IMAGE_NUM_SAMPLES, sizeof u, &u, NULL));
            CHECK(u == 0);
            CHECK_ERR(clGetImageInfo(m, CL_IMAGE_WIDTH, 1, &v, NULL), CL_INVALID_VALUE);
            CHECK_ERR(clGetImageInfo(m, 0x7777, sizeof v, &v, NULL), CL_INVALID_VALUE);
            /* the memory object queries */
            cl_mem_object_type mt = 0;
            OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof mt, &mt, NULL));
            CHECK(mt == type);
            OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof v, &v, NULL));
            CHECK(v == (layered ? slice * slices : row * rows), "type 0x%x: CL_MEM_SIZE %zu", type, v);
            void *hp = (void *)1;
            OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
            CHECK(hp == host);
            OK(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof b, &b, NULL));
            CHECK(b == buf);
            cl_context c = NULL;
            OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL));
            CHECK(c == ctx);
            clReleaseMemObject(m);
            if (buf)
                clReleaseMemObject(buf);
            free(host);
        }
    }
    cl_mem b = clCreateBuffer(ctx, 0, 64, NULL, NULL);
    size_t v;
    CHECK_ERR(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(b);
}

/* ---- a host model of an image ------------------------------------------------------ */

typedef struct model {
    cl_mem_object_type type;
    size_t w, h, d;         /* pixels, rows (layers of a 1D array), slices (layers of a 2D array) */
    size_t ps, row, slice;  /* pixel bytes and the image's pitches */
    unsigned char *bytes;
} model;

static size_t model_offset(const model *m, size_t x, size_t y, size_t z)
{
    if (m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        return x * m->ps + y * m->slice;
    return x * m->ps + y * m->row + z * m->slice;
}

/* Copies a region of pixels between two models (or host rectangles seen as
 * models). */
static void model_copy(model *dst, const size_t *dorg, const model *src, const size_t *sorg, const size_t *region)
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                memcpy(dst->bytes + model_offset(dst, dorg[0] + x, dorg[1] + y, dorg[2] + z),
                       src->bytes + model_offset(src, sorg[0] + x, sorg[1] + y, sorg[2] + z), src->ps);
}

/* The whole image read back, compared with the model pixel by pixel. */
static bool matches(cl_mem img, const model *m)
{
    size_t region[3] = { m->w, m->h, m->d }, origin[3] = { 0, 0, 0 };
    unsigned char *got = malloc(m->w * m->h * m->d * m->ps);
    CHECK_ERR(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    bool same = true;
    for (size_t z = 0; z < m->d; z++)
        for (size_t y = 0; y < m->h; y++)
            for (size_t x = 0; x < m->w; x++)
                if (memcmp(got + ((z * m->h + y) * m->w + x) * m->ps, m->bytes + model_offset(m, x, y, z), m->ps))
                    same = false;
    free(got);
    return same;
}

static size_t model_rows(cl_mem_object_type t, size_t h) { return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 1 : h; }
static size_t model_slices(cl_mem_object_type t, size_t d)
{
    return t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d : 1;
}

/* An image of every type (w x h x d as describe() says) with its model:
 * random contents given through COPY_HOST_PTR (or USE_HOST_PTR) with
 * padded pitches, or written whole after creation. */
static cl_mem make_modelled(cl_mem_object_type type, const cl_image_format *f, size_t ps, size_t w, size_t h,
                            size_t d, cl_mem_flags host_flag, model *m, cl_mem *buf, unsigned seed)
{
    *m = (model){ type, w, model_rows(type, h), model_slices(type, d), ps };
    bool pitched = host_flag && type != CL_MEM_OBJECT_IMAGE1D_BUFFER;
    m->row = w * ps + (pitched ? 3 * ps : 0);
    size_t rows_in_slice = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : m->h;
    m->slice = m->row * rows_in_slice + (pitched ? m->row : 0);
    size_t layers = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? m->h : m->d;
    m->bytes = random_bytes(m->slice * layers, seed);
    cl_image_desc desc = describe(type, w, h, d);
    if (pitched) {
        desc.image_row_pitch = m->row;
        if (type != CL_MEM_OBJECT_IMAGE1D && type != CL_MEM_OBJECT_IMAGE2D)
            desc.image_slice_pitch = m->slice;
    }
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER || type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE2D)
        m->slice = m->row * rows_in_slice; /* unused */
    cl_mem img = make(host_flag, f, desc, host_flag ? m->bytes : NULL, buf);
    if (img && !host_flag) {
        size_t origin[3] = { 0, 0, 0 }, region[3] = { w, m->h, m->d };
        CHECK_ERR(clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, m->row,
                                      (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE2D ||
                                       type == CL_MEM_OBJECT_IMAGE1D_BUFFER) ? 0 : m->slice,
                                      m->bytes, 0, NULL, NULL), CL_SUCCESS);
    }
    return img;
}

/* ---- read and write ------------------------------------------------------------------ */

TEST(read_write)
{
    static const cl_image_format formats[] = { { CL_RGBA, CL_UNORM_INT8 }, { CL_R, CL_FLOAT },
                                               { CL_RGBA, CL_FLOAT }, { CL_RGB, CL_UNORM_SHORT_565 } };
    static const size_t sizes[] = { 4, 4, 16, 2 };
    static const cl_mem_flags host_flags[] = { 0, CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR };
    unsigned seed = 1;
    for (size_t t = 0; t < COUNT(all_types); t++)
        for (size_t fi = 0; fi < COUNT(formats); fi++)
            for (size_t hf = 0; hf < COUNT(host_flags); hf++) {
                cl_mem_object_type type = all_types[t];
                model m;
                cl_mem buf;
                cl_mem_flags flag = host_flags[hf] == CL_MEM_ALLOC_HOST_PTR ? 0 : host_flags[hf];
                cl_mem img = make_modelled(type, &formats[fi], sizes[fi], 13, 5, 3, flag, &m, &buf, seed++);
                if (!img)
                    continue;
                CHECK(matches(img, &m), "type 0x%x format %zu flags %zu: contents differ after creation", type, fi,
                      hf);
                /* what the image should hold from now on (m.bytes is the image itself with USE_HOST_PTR) */
                size_t total = m.slice * (type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? m.h : m.d);
                model want = m;
                want.bytes = malloc(total);
                memcpy(want.bytes, m.bytes, total);
                /* a sub-region written from a padded host rectangle, then read into another */
                size_t origin[3] = { 3, m.h > 1 ? 1 : 0, m.d > 1 ? 1 : 0 };
                size_t region[3] = { 7, m.h > 1 ? m.h - 2 : 1, m.d > 1 ? m.d - 1 : 1 };
                bool two_d = type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                             type == CL_MEM_OBJECT_IMAGE2D;
                model host = { CL_MEM_OBJECT_IMAGE3D, region[0], region[1], region[2], m.ps };
                host.row = region[0] * m.ps + 5;
                host.slice = two_d ? host.row * region[1] : host.row * region[1] + 11;
                if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) { /* layers are the rows; their step is the slice pitch */
                    host.type = CL_MEM_OBJECT_IMAGE1D_ARRAY;
                    host.slice = host.row + 7;
                }
                size_t host_bytes = host.slice * (type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? region[1] : region[2]) +
                                    host.row * region[1];
                host.bytes = random_bytes(host_bytes, seed++);
                size_t zero[3] = { 0, 0, 0 };
                OK(clEnqueueWriteImage(queue, img, CL_FALSE, origin, region, host.row, two_d ? 0 : host.slice,
                                       host.bytes, 0, NULL, NULL));
                OK(clFinish(queue));
                model_copy(&want, origin, &host, zero, region);
                CHECK(matches(img, &want), "type 0x%x format %zu flags %zu: sub-region write", type, fi, hf);
                if (flag == CL_MEM_USE_HOST_PTR && type != CL_MEM_OBJECT_IMAGE1D_BUFFER) /* zero copy: the application's memory is the image */
                    CHECK(memcmp(m.bytes, want.bytes, total) == 0, "type 0x%x: host_ptr not written", type);
                model back = host;
                back.bytes = calloc(1, host_bytes);
                OK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, host.row, two_d ? 0 : host.slice,
                                      back.bytes, 0, NULL, NULL));
                model expect = host;
                expect.bytes = calloc(1, host_bytes);
                model_copy(&expect, zero, &want, origin, region);
                CHECK(memcmp(back.bytes, expect.bytes, host_bytes) == 0, "type 0x%x: sub-region read", type);
                free(back.bytes);
                free(expect.bytes);
                free(host.bytes);
                clReleaseMemObject(img);
                if (buf)
                    clReleaseMemObject(buf);
                free(m.bytes);
                free(want.bytes);
            }
}

/* USE_HOST_PTR is zero copy with the application's pitches: writes land in
 * its memory, and a map returns an address inside it. */
TEST(use_host_ptr)
{
    cl_image_format f = { CL_RGBA, CL_UNSIGNED_INT8 };
    model m;
    cl_mem buf;
    cl_mem img = make_modelled(CL_MEM_OBJECT_IMAGE3D, &f, 4, 6, 4, 3, CL_MEM_USE_HOST_PTR, &m, &buf, 77);
    size_t origin[3] = { 1, 2, 1 }, region[3] = { 2, 2, 2 };
    unsigned char px[2 * 2 * 2 * 4];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (unsigned char)(200 + i);
    model host = { CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 4, 8, 16, px };
    size_t zero[3] = { 0 };
    unsigned char *before = malloc(m.slice * m.d);
    memcpy(before, m.bytes, m.slice * m.d);
    model expect = m;
    expect.bytes = before;
    model_copy(&expect, origin, &host, zero, region);
    CHECK(memcmp(m.bytes, before, m.slice * m.d) != 0); /* the model moved on, host_ptr not yet */
    OK(clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    CHECK(memcmp(m.bytes, before, m.slice * m.d) == 0, "the write did not land in host_ptr");
    size_t rp = 0, sp = 0;
    cl_int err = 0;
    unsigned char *p = clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, region, &rp, &sp, 0, NULL, NULL,
                                         &err);
    OK(err);
    CHECK(p == m.bytes + model_offset(&m, 1, 2, 1) && rp == m.row && sp == m.slice);
    OK(clEnqueueUnmapMemObject(queue, img, p, 0, NULL, NULL));
    /* a read into host_ptr itself, at the image's own pitches */
    OK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, m.row, m.slice, m.bytes + model_offset(&m, 1, 2, 1), 0,
                          NULL, NULL));
    CHECK(memcmp(m.bytes, before, m.slice * m.d) == 0);
    OK(clFinish(queue));
    clReleaseMemObject(img);
    free(before);
    free(m.bytes);
}

/* ---- copies ----------------------------------------------------------------------- */

TEST(copy)
{
    cl_image_format f = { CL_RG, CL_UNSIGNED_INT16 };
    unsigned seed = 500;
    /* between every pair of types: a region every type can hold */
    for (size_t a = 0; a < COUNT(all_types); a++)
        for (size_t b = 0; b < COUNT(all_types); b++) {
            model ms, md;
            cl_mem bs, bd;
            cl_mem src = make_modelled(all_types[a], &f, 4, 9, 4, 3, 0, &ms, &bs, seed++);
            cl_mem dst = make_modelled(all_types[b], &f, 4, 11, 5, 4, CL_MEM_COPY_HOST_PTR, &md, &bd, seed++);
            size_t so[3] = { 2, 0, 0 }, d_o[3] = { 1, 0, 0 }, region[3] = { 5, 1, 1 };
            /* rows when both have them (a 1D array's layers count as rows), slices when both do */
            if (ms.h > 1 && md.h > 1) {
                so[1] = 1;
                d_o[1] = 2;
                region[1] = 2;
            }
            if (ms.d > 1 && md.d > 1) {
                so[2] = 1;
                d_o[2] = 2;
                region[2] = 2;
            }
            OK(clEnqueueCopyImage(queue, src, dst, so, d_o, region, 0, NULL, NULL));
            model_copy(&md, d_o, &ms, so, region);
            CHECK(matches(dst, &md), "copy 0x%x -> 0x%x", all_types[a], all_types[b]);
            /* image -> buffer -> image */
            size_t bytes = region[0] * region[1] * region[2] * 4;
            cl_int err;
            cl_mem buffer = clCreateBuffer(ctx, 0, bytes + 64, NULL, &err);
            OK(clEnqueueCopyImageToBuffer(queue, src, buffer, so, region, 32, 0, NULL, NULL));
            unsigned char *got = malloc(bytes), *want = malloc(bytes);
            OK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 32, bytes, got, 0, NULL, NULL));
            model packed = { CL_MEM_OBJECT_IMAGE3D, region[0], region[1], region[2], 4, region[0] * 4,
                             region[0] * 4 * region[1], want };
            size_t zero[3] = { 0 };
            model_copy(&packed, zero, &ms, so, region);
            CHECK(memcmp(got, want, bytes) == 0, "image 0x%x -> buffer", all_types[a]);
            unsigned char *fresh = random_bytes(bytes, seed++);
            OK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 32, bytes, fresh, 0, NULL, NULL));
            OK(clEnqueueCopyBufferToImage(queue, buffer, dst, 32, d_o, region, 0, NULL, NULL));
            packed.bytes = fresh;
            model_copy(&md, d_o, &packed, zero, region);
            CHECK(matches(dst, &md), "buffer -> image 0x%x", all_types[b]);
            free(got);
            free(want);
            free(fresh);
            clReleaseMemObject(buffer);
            clReleaseMemObject(src);
            clReleaseMemObject(dst);
            if (bs)
                clReleaseMemObject(bs);
            if (bd)
                clReleaseMemObject(bd);
            free(ms.bytes);
            free(md.bytes);
        }

    /* errors */
    cl_int err;
    cl_image_desc d2 = describe(CL_MEM_OBJECT_IMAGE2D, 8, 8, 1);
    cl_mem a = clCreateImage(ctx, 0, &f, &d2, NULL, &err);
    cl_image_format g = { CL_RGBA, CL_UNORM_INT8 };
    cl_mem other = clCreateImage(ctx, 0, &g, &d2, NULL, &err);
    cl_mem buffer = clCreateBuffer(ctx, 0, 1024, NULL, &err);
    size_t o[3] = { 0, 0, 0 }, o2[3] = { 2, 2, 0 }, o3[3] = { 4, 0, 0 }, r[3] = { 4, 4, 1 };
    CHECK_ERR(clEnqueueCopyImage(queue, a, other, o, o, r, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, o, o2, r, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    OK(clEnqueueCopyImage(queue, a, a, o, o3, r, 0, NULL, NULL)); /* side by side */
    size_t r_out[3] = { 5, 4, 1 }, r_z[3] = { 4, 4, 2 }, r_0[3] = { 4, 0, 1 };
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, o3, o, r_out, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, o, o3, r_z, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, o, o3, r_0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, NULL, o3, r, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyImage(queue, a, buffer, o, o3, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyImage(NULL, a, a, o, o3, r, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueCopyImage(queue, a, a, o, o3, r, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueCopyImageToBuffer(queue, a, buffer, o, r, 1024 - 63, 0, NULL, NULL), CL_INVALID_VALUE);
    OK(clEnqueueCopyImageToBuffer(queue, a, buffer, o, r, 1024 - 64, 0, NULL, NULL));
    CHECK_ERR(clEnqueueCopyBufferToImage(queue, buffer, a, 1024 - 63, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBufferToImage(queue, a, a, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyImageToBuffer(queue, buffer, buffer, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    /* a 1D buffer image and its own buffer */
    cl_image_desc db = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 1, 1);
    db.mem_object = buffer;
    cl_mem ib = clCreateImage(ctx, 0, &f, &db, NULL, &err);
    OK(err);
    size_t r1[3] = { 4, 1, 1 };
    CHECK_ERR(clEnqueueCopyImageToBuffer(queue, ib, buffer, o, r1, 512, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBufferToImage(queue, buffer, ib, 512, o, r1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    OK(clFinish(queue));
    clReleaseMemObject(ib);
    clReleaseMemObject(a);
    clReleaseMemObject(other);
    clReleaseMemObject(buffer);
}

/* ---- fills: every format, against a conversion written here ---------------------------- */

static uint16_t half_of(float v)
{
    _Float16 h = (_Float16)v; /* the compiler's float -> half: round to nearest even */
    uint16_t bits;
    memcpy(&bits, &h, 2);
    return bits;
}

static double srgb(double c)
{
    if (c <= 0.0)
        return 0.0;
    if (c >= 1.0)
        return 1.0;
    return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

static long clampl(double v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : (long)v; }

/* One pixel of format f filled with colour c (float, int or uint words). */
static void expected_pixel(const cl_image_format *f, const void *color, unsigned char *out)
{
    const float *fc = color;
    const int32_t *ic = color;
    const uint32_t *uc = color;
    cl_channel_order o = f->image_channel_order;
    unsigned idx[4], n;
    switch (o) {
    case CL_R: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: n = 1; idx[0] = 0; break;
    case CL_A: n = 1; idx[0] = 3; break;
    case CL_RG: n = 2; idx[0] = 0; idx[1] = 1; break;
    case CL_BGRA: case CL_sBGRA: n = 4; idx[0] = 2; idx[1] = 1; idx[2] = 0; idx[3] = 3; break;
    case CL_ARGB: n = 4; idx[0] = 3; idx[1] = 0; idx[2] = 1; idx[3] = 2; break;
    default: n = 4; idx[0] = 0; idx[1] = 1; idx[2] = 2; idx[3] = 3; break;
    }
    bool is_srgb = o == CL_sRGBA || o == CL_sBGRA;
    switch (f->image_channel_data_type) {
    case CL_UNORM_SHORT_565: {
        uint16_t v = (uint16_t)(clampl(rintf(fc[0] * 31.0f), 0, 31) << 11 | clampl(rintf(fc[1] * 63.0f), 0, 63) << 5 |
                                clampl(rintf(fc[2] * 31.0f), 0, 31));
        memcpy(out, &v, 2);
        return;
    }
    case CL_UNORM_SHORT_555: {
        uint16_t v = (uint16_t)(clampl(rintf(fc[0] * 31.0f), 0, 31) << 10 | clampl(rintf(fc[1] * 31.0f), 0, 31) << 5 |
                                clampl(rintf(fc[2] * 31.0f), 0, 31));
        memcpy(out, &v, 2);
        return;
    }
    case CL_UNORM_INT_101010: {
        uint32_t v = (uint32_t)(clampl(rintf(fc[0] * 1023.0f), 0, 1023) << 20 |
                                clampl(rintf(fc[1] * 1023.0f), 0, 1023) << 10 | clampl(rintf(fc[2] * 1023.0f), 0, 1023));
        memcpy(out, &v, 4);
        return;
    }
    }
    for (unsigned c = 0; c < n; c++) {
        unsigned s = idx[c];
        float fv = fc[s]; /* products in float, as OpenCL C's convert_*_sat_rte(f * 255.0f) */
        if (is_srgb && s < 3)
            fv = (float)srgb(fv);
        switch (f->image_channel_data_type) {
        case CL_UNORM_INT8: out[c] = (uint8_t)clampl(rintf(fv * 255.0f), 0, 255); break;
        case CL_UNORM_INT16: { uint16_t v = (uint16_t)clampl(rintf(fv * 65535.0f), 0, 65535); memcpy(out + 2 * c, &v, 2); break; }
        case CL_SNORM_INT8: out[c] = (uint8_t)(int8_t)clampl(rintf(fv * 127.0f), -127, 127); break;
        case CL_SNORM_INT16: { int16_t v = (int16_t)clampl(rintf(fv * 32767.0f), -32767, 32767); memcpy(out + 2 * c, &v, 2); break; }
        case CL_HALF_FLOAT: { uint16_t v = half_of(fc[s]); memcpy(out + 2 * c, &v, 2); break; }
        case CL_FLOAT: memcpy(out + 4 * c, &fc[s], 4); break;
        case CL_SIGNED_INT8: out[c] = (uint8_t)(int8_t)clampl(ic[s], -128, 127); break;
        case CL_SIGNED_INT16: { int16_t v = (int16_t)clampl(ic[s], -32768, 32767); memcpy(out + 2 * c, &v, 2); break; }
        case CL_SIGNED_INT32: memcpy(out + 4 * c, &ic[s], 4); break;
        case CL_UNSIGNED_INT8: out[c] = (uint8_t)(uc[s] > 255 ? 255 : uc[s]); break;
        case CL_UNSIGNED_INT16: { uint16_t v = (uint16_t)(uc[s] > 65535 ? 65535 : uc[s]); memcpy(out + 2 * c, &v, 2); break; }
        case CL_UNSIGNED_INT32: memcpy(out + 4 * c, &uc[s], 4); break;
        }
    }
}

TEST(fill)
{
    cl_image_format list[128];
    cl_uint n = 0;
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, COUNT(list), list, &n));
    /* colours that reach rounding ties, saturation, negative and half-range values */
    static const float colours[][4] = { { 0.5f, -0.25f, 1.5f, 0.75f }, { 0.1f, 0.9f, 0.003f, 0.0f },
                                        { 1.0f / 510.0f, 65504.0f, -2.0f, 3.0e-5f } };
    static const int32_t icolours[][4] = { { -5, 300, -70000, 100000 }, { 1, -1, 32767, -32769 } };
    static const uint32_t ucolours[][4] = { { 5, 300, 70000, 4000000000u }, { 0, 255, 65535, 1 } };
    for (cl_uint i = 0; i < n; i++) {
        cl_channel_type t = list[i].image_channel_data_type;
        bool sint = t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
        bool uint = t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
        size_t ncol = sint ? COUNT(icolours) : uint ? COUNT(ucolours) : COUNT(colours);
        for (size_t c = 0; c < ncol; c++) {
            const void *colour = sint ? (const void *)icolours[c] : uint ? (const void *)ucolours[c] : colours[c];
            for (size_t t2 = 0; t2 < COUNT(all_types); t2++) {
                cl_mem_object_type type = all_types[t2];
                if (list[i].image_channel_order == CL_DEPTH && type != CL_MEM_OBJECT_IMAGE2D &&
                    type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
                    continue;
                if (c && type != CL_MEM_OBJECT_IMAGE2D_ARRAY) /* every colour on one type, one colour on all */
                    continue;
                size_t ps = 0;
                model m;
                cl_mem buf;
                cl_mem probe = clCreateImage(ctx, 0, &list[i], &(cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE2D,
                                             .image_width = 1, .image_height = 1 }, NULL, NULL);
                OK(clGetImageInfo(probe, CL_IMAGE_ELEMENT_SIZE, sizeof ps, &ps, NULL));
                clReleaseMemObject(probe);
                cl_mem img = make_modelled(type, &list[i], ps, 7, 4, 3, CL_MEM_COPY_HOST_PTR, &m, &buf, 900 + i);
                if (!img)
                    continue;
                size_t origin[3] = { 2, m.h > 1 ? 1 : 0, m.d > 1 ? 1 : 0 };
                size_t region[3] = { 4, m.h > 1 ? 2 : 1, m.d > 1 ? 2 : 1 };
                OK(clEnqueueFillImage(queue, img, colour, origin, region, 0, NULL, NULL));
                unsigned char px[16];
                expected_pixel(&list[i], colour, px);
                model one = { CL_MEM_OBJECT_IMAGE3D, 1, 1, 1, ps, ps, ps, px };
                for (size_t z = 0; z < region[2]; z++)
                    for (size_t y = 0; y < region[1]; y++)
                        for (size_t x = 0; x < region[0]; x++) {
                            size_t at[3] = { origin[0] + x, origin[1] + y, origin[2] + z }, zero[3] = { 0 },
                                   r1[3] = { 1, 1, 1 };
                            model_copy(&m, at, &one, zero, r1);
                        }
                CHECK(matches(img, &m), "fill of format (0x%x, 0x%x), colour %zu, type 0x%x",
                      list[i].image_channel_order, t, c, type);
                clReleaseMemObject(img);
                if (buf)
                    clReleaseMemObject(buf);
                free(m.bytes);
            }
        }
    }
    cl_image_format f = { CL_RGBA, CL_FLOAT };
    cl_image_desc d = describe(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1);
    cl_int err;
    cl_mem img = clCreateImage(ctx, 0, &f, &d, NULL, &err);
    size_t o[3] = { 0 }, r[3] = { 4, 4, 1 }, big[3] = { 4, 5, 1 };
    float colour[4] = { 0 };
    CHECK_ERR(clEnqueueFillImage(queue, img, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillImage(queue, img, colour, o, big, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillImage(queue, img, colour, NULL, r, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillImage(NULL, img, colour, o, r, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_event ev;
    OK(clEnqueueFillImage(queue, img, colour, o, r, 0, NULL, &ev));
    cl_command_type ct = 0;
    OK(clWaitForEvents(1, &ev));
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_FILL_IMAGE);
    clReleaseEvent(ev);
    clReleaseMemObject(img);
}

/* ---- maps -------------------------------------------------------------------------------- */

TEST(map)
{
    cl_image_format f = { CL_RGBA, CL_UNSIGNED_INT16 }; /* 8-byte pixels */
    for (size_t t = 0; t < COUNT(all_types); t++) {
        model m;
        cl_mem buf;
        cl_mem img = make_modelled(all_types[t], &f, 8, 9, 5, 4, 0, &m, &buf, 3000 + (unsigned)t);
        if (!img)
            continue;
        bool layered = m.d > 1 || all_types[t] == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        size_t origin[3] = { 1, m.h > 1 ? 2 : 0, m.d > 1 ? 1 : 0 };
        size_t region[3] = { 6, m.h > 1 ? 3 : 1, m.d > 1 ? 3 : 1 };
        size_t rp = 0, sp = 99;
        cl_int err;
        unsigned char *p = clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin, region, &rp,
                                             &sp, 0, NULL, NULL, &err);
        OK(err);
        if (!p)
            continue;
        CHECK(rp >= region[0] * 8 && (layered ? sp >= rp : sp == 0), "type 0x%x pitches %zu %zu", all_types[t], rp,
              sp);
        /* the mapped pixels are the image's, and writes through the map stay */
        size_t step1 = all_types[t] == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sp : rp;
        size_t step2 = all_types[t] == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : sp;
        for (size_t z = 0; z < region[2]; z++)
            for (size_t y = 0; y < region[1]; y++)
                for (size_t x = 0; x < region[0]; x++) {
                    unsigned char *px = p + x * 8 + y * step1 + z * step2;
                    unsigned char *want = m.bytes + model_offset(&m, origin[0] + x, origin[1] + y, origin[2] + z);
                    CHECK(memcmp(px, want, 8) == 0);
                    for (int k = 0; k < 8; k++)
                        px[k] = want[k] = (unsigned char)(x * 31 + y * 7 + z * 3 + k);
                }
        cl_uint count = 0;
        OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
        CHECK(count == 1);
        OK(clEnqueueUnmapMemObject(queue, img, p, 0, NULL, NULL));
        CHECK(matches(img, &m), "type 0x%x: writes through the map", all_types[t]);
        CHECK_ERR(clEnqueueUnmapMemObject(queue, img, p, 0, NULL, NULL), CL_INVALID_VALUE);
        /* pitch pointers */
        CHECK(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, region, NULL, &sp, 0, NULL, NULL, &err) ==
                  NULL && err == CL_INVALID_VALUE);
        if (layered)
            CHECK(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, region, &rp, NULL, 0, NULL, NULL,
                                    &err) == NULL && err == CL_INVALID_VALUE);
        CHECK(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, origin, region, &rp,
                                &sp, 0, NULL, NULL, &err) == NULL && err == CL_INVALID_VALUE);
        size_t too_far[3] = { 9, 1, 1 };
        CHECK(clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, origin, too_far, &rp, &sp, 0, NULL, NULL, &err) ==
                  NULL && err == CL_INVALID_VALUE);
        clReleaseMemObject(img);
        if (buf)
            clReleaseMemObject(buf);
        free(m.bytes);
    }
}

/* ---- host access flags and argument rules --------------------------------------------- */

TEST(host_access)
{
    cl_image_format f = { CL_R, CL_UNSIGNED_INT8 };
    cl_image_desc d = describe(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1);
    cl_int err;
    unsigned char px[64] = { 0 };
    size_t o[3] = { 0 }, r[3] = { 4, 4, 1 }, rp, sp;
    cl_mem none = clCreateImage(ctx, CL_MEM_HOST_NO_ACCESS, &f, &d, NULL, &err);
    cl_mem ro = clCreateImage(ctx, CL_MEM_HOST_READ_ONLY, &f, &d, NULL, &err);
    cl_mem wo = clCreateImage(ctx, CL_MEM_HOST_WRITE_ONLY, &f, &d, NULL, &err);
    CHECK_ERR(clEnqueueReadImage(queue, none, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteImage(queue, none, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteImage(queue, ro, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clEnqueueReadImage(queue, ro, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    CHECK_ERR(clEnqueueReadImage(queue, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clEnqueueWriteImage(queue, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    CHECK(clEnqueueMapImage(queue, wo, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapImage(queue, ro, CL_TRUE, CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    /* fills and copies ignore the host flags */
    cl_uint zero[4] = { 0 };
    OK(clEnqueueFillImage(queue, none, zero, o, r, 0, NULL, NULL));
    OK(clEnqueueCopyImage(queue, none, ro, o, o, r, 0, NULL, NULL));
    /* rules of origin and region, pitches */
    size_t o1[3] = { 0, 0, 1 }, r3[3] = { 4, 4, 2 };
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, o1, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, o, r3, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, o, r, 3, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, o, r, 0, 16, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(queue, ro, CL_TRUE, NULL, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_image_desc d1 = describe(CL_MEM_OBJECT_IMAGE1D, 16, 1, 1);
    cl_mem one = clCreateImage(ctx, 0, &f, &d1, NULL, &err);
    size_t o_y[3] = { 0, 1, 0 }, r_y[3] = { 4, 2, 1 };
    CHECK_ERR(clEnqueueWriteImage(queue, one, CL_TRUE, o_y, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteImage(queue, one, CL_TRUE, o, r_y, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    /* a queue of another context */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(other, device, NULL, &err);
    CHECK_ERR(clEnqueueReadImage(q2, ro, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_CONTEXT);
    clReleaseCommandQueue(q2);
    clReleaseContext(other);
    OK(clFinish(queue));
    clReleaseMemObject(one);
    clReleaseMemObject(none);
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
}

/* ---- images made from buffers and from images ------------------------------------------ */

TEST(from_memory_objects)
{
    cl_int err;
    cl_image_format f = { CL_RGBA, CL_UNORM_INT8 };
    unsigned char *data = random_bytes(4096, 42);
    cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4096, data, &err);
    OK(err);
    /* a 2D image over the buffer, rows of 80 bytes: the buffer's bytes are its pixels */
    cl_image_desc d = describe(CL_MEM_OBJECT_IMAGE2D, 16, 10, 1);
    d.image_row_pitch = 80;
    d.mem_object = buffer;
    cl_mem img = clCreateImage(ctx, 0, &f, &d, NULL, &err);
    OK(err);
    model m = { CL_MEM_OBJECT_IMAGE2D, 16, 10, 1, 4, 80, 800, data };
    CHECK(matches(img, &m));
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR), "flags 0x%llx", (unsigned long long)flags);
    cl_mem got = NULL;
    OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof got, &got, NULL));
    CHECK(got == buffer);
    OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL));
    CHECK(got == buffer);
    /* writes to the buffer show in the image (one storage) */
    unsigned char px[4] = { 1, 2, 3, 4 };
    OK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 3 * 80 + 5 * 4, 4, px, 0, NULL, NULL));
    memcpy(data + 3 * 80 + 5 * 4, px, 4);
    CHECK(matches(img, &m));
    /* the image holds its buffer */
    OK(clReleaseMemObject(buffer));
    CHECK(matches(img, &m));
    /* an sRGB view of the same bytes, and its errors */
    cl_image_format srgb = { CL_sRGBA, CL_UNORM_INT8 }, bad = { CL_sRGBA, CL_UNORM_INT16 }, bgra = { CL_BGRA, CL_UNORM_INT8 };
    cl_image_desc dv = describe(CL_MEM_OBJECT_IMAGE2D, 16, 10, 1);
    dv.mem_object = img;
    cl_mem view = clCreateImage(ctx, 0, &srgb, &dv, NULL, &err);
    OK(err);
    CHECK(matches(view, &m));
    CHECK_ERR(create_error(0, &bad, &dv, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK_ERR(create_error(0, &bgra, &dv, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    dv.image_width = 8;
    CHECK_ERR(create_error(0, &srgb, &dv, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    dv.image_width = 16;
    CHECK_ERR(create_error(CL_MEM_WRITE_ONLY, &srgb, &dv, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(CL_MEM_USE_HOST_PTR, &srgb, &dv, data), CL_INVALID_HOST_PTR);
    clReleaseMemObject(view);
    clReleaseMemObject(img);

    /* a depth view of a CL_R image */
    cl_image_format r16 = { CL_R, CL_UNORM_INT16 }, depth = { CL_DEPTH, CL_UNORM_INT16 };
    cl_image_desc d2 = describe(CL_MEM_OBJECT_IMAGE2D, 8, 8, 1);
    cl_mem rimg = clCreateImage(ctx, 0, &r16, &d2, NULL, &err);
    d2.mem_object = rimg;
    OK(create_error(0, &depth, &d2, NULL));
    clReleaseMemObject(rimg);

    /* errors of images from buffers */
    buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    d = describe(CL_MEM_OBJECT_IMAGE2D, 16, 10, 1);
    d.mem_object = buffer;
    d.image_row_pitch = 66; /* not a multiple of the pixel */
    CHECK(create_error(0, &f, &d, NULL) != CL_SUCCESS);
    d.image_row_pitch = 800; /* 8000 bytes: more than the buffer */
    CHECK_ERR(create_error(0, &f, &d, NULL), CL_INVALID_IMAGE_SIZE);
    d.image_row_pitch = 0;
    OK(create_error(0, &f, &d, NULL));
    CHECK_ERR(create_error(CL_MEM_COPY_HOST_PTR, &f, &d, NULL), CL_INVALID_VALUE);
    cl_image_desc d3 = describe(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
    d3.mem_object = buffer;
    CHECK_ERR(create_error(0, &f, &d3, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc db = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 1025, 1, 1);
    db.mem_object = buffer;
    CHECK_ERR(create_error(0, &f, &db, NULL), CL_INVALID_IMAGE_SIZE);
    db.image_width = 1024;
    OK(create_error(0, &f, &db, NULL));
    clReleaseMemObject(buffer);
    free(data);
}

int main(int argc, char **argv) { return test_main_on_cpu_queue(argc, argv, &device, &ctx, &queue); }
