/*
 * Images: clCreateImage, clCreateImageWithProperties, clCreateImage2D/3D,
 * clGetSupportedImageFormats and clGetImageInfo (the commands on images are
 * api/enqueue_image.c; docs/images.md is the long version).
 *
 * An image is a memory object (struct _cl_mem) whose storage is laid out
 * as mem->image says: rows of row_pitch bytes, slices or layers of
 * slice_pitch bytes.  The pitches are the application's when it gives
 * them (with a host pointer, or for a 2D image made from a buffer), else
 * packed; so the storage has the layout of host_ptr and is made like a
 * buffer's (USE_HOST_PTR: the host memory itself; COPY_HOST_PTR: one flat
 * copy of mem->size bytes).  An image made from a buffer (1D buffer images,
 * 2D images with cl_khr_image2d_from_buffer) or from another 2D image is a
 * view of that object's storage, which it holds as mem->parent (offset 0),
 * like a sub-buffer.
 */
#include "api/api.h"
#include "api/entry.h"
#include "api/memory.h"
#include "core/image_format.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

static bool is_image_type(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
           t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

bool mosaic_mem_is_image(cl_mem mem)
{
    return MOSAIC_IS(mem, MEM) && is_image_type(mem->mem_type);
}

/* The smallest limit over the context's devices that support images (an
 * image must fit every one of them); `field` picks the limit. */
#define CONTEXT_LIMIT(context, field)                                                   \
    ({                                                                                  \
        size_t limit_ = SIZE_MAX;                                                       \
        for (cl_uint i_ = 0; i_ < (context)->num_devices; i_++) {                       \
            cl_device_id d_ = (context)->devices[i_];                                   \
            if (mosaic_device_image_support(d_) && (size_t)d_->field < limit_)          \
                limit_ = (size_t)d_->field;                                             \
        }                                                                               \
        limit_;                                                                         \
    })

static bool context_has_images(cl_context context)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (mosaic_device_image_support(context->devices[i]))
            return true;
    return false;
}

/* ---- checking a description --------------------------------------------------- */

/* Channel orders a 2D image may take when made from another 2D image of
 * `from` (the specification's table of compatible orders: sRGB and linear
 * views of the same bytes, a depth view of CL_R), and the same order. */
static bool compatible_order(cl_channel_order to, cl_channel_order from)
{
    static const cl_channel_order pairs[][2] = {
        { CL_sBGRA, CL_BGRA }, { CL_BGRA, CL_sBGRA }, { CL_sRGBA, CL_RGBA }, { CL_RGBA, CL_sRGBA },
        { CL_sRGB, CL_RGB },   { CL_RGB, CL_sRGB },   { CL_sRGBx, CL_RGBx }, { CL_RGBx, CL_sRGBx },
        { CL_DEPTH, CL_R },
    };
    if (to == from)
        return true;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == to && pairs[i][1] == from)
            return true;
    return false;
}

/* Checks that the dimensions the type uses are in 1..limit. */
static cl_int check_sizes(cl_context context, const cl_image_desc *d)
{
    size_t w = d->image_width, h = d->image_height, depth = d->image_depth, n = d->image_array_size;
    size_t max_w, max_h = 0, max_d = 0, max_n = 0;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        max_w = CONTEXT_LIMIT(context, image_max_buffer_size);
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        max_w = CONTEXT_LIMIT(context, image3d_max_width);
        max_h = CONTEXT_LIMIT(context, image3d_max_height);
        max_d = CONTEXT_LIMIT(context, image3d_max_depth);
        break;
    default:
        max_w = CONTEXT_LIMIT(context, image2d_max_width);
        max_h = CONTEXT_LIMIT(context, image2d_max_height);
        max_n = CONTEXT_LIMIT(context, image_max_array_size);
        break;
    }
    bool uses_h = d->image_type == CL_MEM_OBJECT_IMAGE2D || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                  d->image_type == CL_MEM_OBJECT_IMAGE3D;
    bool uses_n = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (w == 0 || w > max_w)
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "image_width %zu is 0 or above the device's %zu", w, max_w);
    if (uses_h && (h == 0 || h > max_h))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "image_height %zu is 0 or above the device's %zu", h, max_h);
    if (d->image_type == CL_MEM_OBJECT_IMAGE3D && (depth == 0 || depth > max_d))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "image_depth %zu is 0 or above the device's %zu", depth, max_d);
    if (uses_n && (n == 0 || n > max_n))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "image_array_size %zu is 0 or above the device's %zu", n, max_n);
    return CL_SUCCESS;
}

/* Fills `img` (format, shape as clGetImageInfo reports it, pitches) and
 * *size (the bytes of the storage) from a checked description.  Pitches
 * given must be at least the packed ones and multiples of the pixel (row)
 * or of the row pitch (slice), and not make the size overflow;
 * `pitch_error` is the code for a bad one (clCreateImage:
 * CL_INVALID_IMAGE_DESCRIPTOR; clCreateImage2D/3D: CL_INVALID_IMAGE_SIZE). */
static cl_int layout(const cl_image_format *format, const cl_image_desc *d, cl_int pitch_error, mosaic_image *img,
                     size_t *size)
{
    cl_mem_object_type t = d->image_type;
    size_t ps = mosaic_image_pixel_size(format);
    bool is_3d = t == CL_MEM_OBJECT_IMAGE3D, is_array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    bool uses_h = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || is_3d;
    *img = (mosaic_image){ .format = *format, .pixel_size = ps,
                           .num_channels = mosaic_image_num_channels(format->image_channel_order) };
    img->width = d->image_width;
    img->height = uses_h ? d->image_height : 0;
    img->depth = is_3d ? d->image_depth : 0;
    img->array_size = is_array ? d->image_array_size : 0;

    size_t packed_row;
    if (__builtin_mul_overflow(img->width, ps, &packed_row))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "the image's rows overflow");
    size_t row = d->image_row_pitch ? d->image_row_pitch : packed_row;
    if (row < packed_row || row % ps)
        return MOSAIC_ERROR(pitch_error, "image_row_pitch %zu is below width * %zu-byte pixel (%zu) or not a "
                            "multiple of the pixel size", d->image_row_pitch, ps, packed_row);
    /* an overflow is the pitches' fault when the application gave one */
    cl_int overflow_error = d->image_row_pitch || d->image_slice_pitch ? pitch_error : CL_INVALID_IMAGE_SIZE;
    size_t rows = uses_h ? img->height : 1, packed_slice;
    if (__builtin_mul_overflow(row, rows, &packed_slice))
        return MOSAIC_ERROR(overflow_error, "the image's slices (row pitch %zu times %zu rows) overflow", row, rows);
    size_t slices = is_3d ? img->depth : is_array ? img->array_size : 1;
    size_t slice = packed_slice;
    if (is_3d || is_array) {
        if (d->image_slice_pitch) {
            slice = d->image_slice_pitch;
            if (slice < packed_slice || slice % row)
                return MOSAIC_ERROR(pitch_error, "image_slice_pitch %zu is below %zu or not a multiple of the row "
                                    "pitch %zu", slice, packed_slice, row);
        }
    } /* the slice pitch of a 1D or 2D image is not used */
    if (__builtin_mul_overflow(slice, slices, size))
        return MOSAIC_ERROR(overflow_error, "the image's size (slice pitch %zu times %zu) overflows", slice, slices);
    img->row_pitch = row;
    img->slice_pitch = (is_3d || is_array) ? slice : 0;
    return CL_SUCCESS;
}

/* An image made from a buffer: a 1D buffer image, or a 2D image
 * (cl_khr_image2d_from_buffer).  The pitch and base address rules of the
 * extension apply to the 2D case. */
static cl_int check_from_buffer(cl_context context, const cl_image_desc *d, cl_mem buffer, const mosaic_image *img,
                                size_t size)
{
    if (d->image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER && d->image_type != CL_MEM_OBJECT_IMAGE2D)
        return MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "only 1D buffer and 2D images can be made from a buffer");
    if (d->image_type == CL_MEM_OBJECT_IMAGE2D) {
        /* the largest alignment any device of the context asks for */
        size_t pitch_align = 0, base_align = 0;
        for (cl_uint i = 0; i < context->num_devices; i++) {
            cl_device_id dev = context->devices[i];
            if (!mosaic_device_image_support(dev))
                continue;
            if (dev->image_pitch_alignment > pitch_align)
                pitch_align = dev->image_pitch_alignment;
            if (dev->image_base_address_alignment > base_align)
                base_align = dev->image_base_address_alignment;
        }
        if (pitch_align && img->row_pitch % (pitch_align * img->pixel_size))
            return MOSAIC_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_row_pitch %zu is not a multiple of "
                                "CL_DEVICE_IMAGE_PITCH_ALIGNMENT (%zu pixels)", img->row_pitch, pitch_align);
        size_t base = (size_t)(buffer->host_ptr ? (uintptr_t)buffer->host_ptr : mosaic_mem_root_offset(buffer));
        if (base_align && base % (base_align * img->pixel_size))
            return MOSAIC_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "the buffer's first byte is not aligned to "
                                "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT (%zu pixels)", base_align);
    }
    if (size > buffer->size)
        return MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "the image needs %zu bytes; the buffer has %zu", size,
                            buffer->size);
    return CL_SUCCESS;
}

/* A 2D image made from another 2D image: the same description, the same
 * channel type, a compatible channel order. */
static cl_int check_from_image(const cl_image_format *format, const cl_image_desc *d, cl_mem parent)
{
    const mosaic_image *p = &parent->image;
    if (d->image_type != CL_MEM_OBJECT_IMAGE2D || parent->mem_type != CL_MEM_OBJECT_IMAGE2D)
        return MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "only a 2D image can be made from an image, a 2D one");
    if (d->image_width != p->width || d->image_height != p->height ||
        (d->image_row_pitch && d->image_row_pitch != p->row_pitch))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "the description differs from the image's");
    if (format->image_channel_data_type != p->format.image_channel_data_type ||
        !compatible_order(format->image_channel_order, p->format.image_channel_order))
        return MOSAIC_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "format (0x%x, 0x%x) cannot view an image of "
                            "format (0x%x, 0x%x)", format->image_channel_order, format->image_channel_data_type,
                            p->format.image_channel_order, p->format.image_channel_data_type);
    return CL_SUCCESS;
}

/* ---- creation ----------------------------------------------------------------- */

static cl_mem fail(cl_int *errcode_ret, cl_int err)
{
    mosaic_set_error(errcode_ret, err);
    return NULL;
}

static cl_mem create_image(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                           const cl_image_format *format, const cl_image_desc *desc, void *host_ptr,
                           bool legacy, cl_int *errcode_ret)
{
    /* clCreateImage2D/3D call a bad pitch a bad size */
    cl_int err, pitch_error = legacy ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (!context_has_images(context))
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of the context supports images"));
    if (properties && properties[0] != 0) /* OpenCL 3.0 defines no image property */
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_PROPERTY, "unknown image property 0x%llx",
                                              (unsigned long long)properties[0]));
    if ((err = mosaic_mem_check_flags(flags)) != CL_SUCCESS)
        return fail(errcode_ret, err);
    if (!format)
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL"));
    if (!mosaic_image_format_valid(format))
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "(channel order 0x%x, data type "
                                              "0x%x) is not an image format OpenCL defines",
                                              format->image_channel_order, format->image_channel_data_type));
    if (!desc)
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL"));
    if (!is_image_type(desc->image_type))
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_type 0x%x is not an image type",
                                              desc->image_type));
    if (desc->num_mip_levels || desc->num_samples)
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels and num_samples must "
                                              "be 0 (no cl_khr_mipmap_image, no multisampling)"));

    /* The memory object it is made from, if any. */
    cl_mem parent = desc->mem_object;
    if (desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !parent)
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "a 1D buffer image needs a buffer in "
                                              "mem_object"));
    if (parent) {
        bool buffer = mosaic_mem_is_buffer(parent), image = mosaic_mem_is_image(parent);
        if (!buffer && !image)
            return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is not a valid buffer "
                                                  "or image"));
        if (parent->context != context)
            return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object belongs to another "
                                                  "context"));
        if (host_ptr)
            return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_HOST_PTR, "host_ptr must be NULL for an image made "
                                                  "from a memory object"));
        if ((err = mosaic_mem_inherit_flags(parent, flags, &flags)) != CL_SUCCESS)
            return fail(errcode_ret, err);
    } else {
        if (desc->image_row_pitch || desc->image_slice_pitch) {
            if (!host_ptr)
                return fail(errcode_ret, MOSAIC_ERROR(pitch_error, "image_row_pitch and image_slice_pitch must "
                                                      "be 0 without host_ptr"));
        }
        bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
        if (wants_ptr != (host_ptr != NULL))
            return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_HOST_PTR, wants_ptr
                                                  ? "USE_HOST_PTR or COPY_HOST_PTR with a NULL host_ptr"
                                                  : "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR"));
        if (!(flags & ACCESS_FLAGS))
            flags |= CL_MEM_READ_WRITE;
    }
    if ((err = check_sizes(context, desc)) != CL_SUCCESS)
        return fail(errcode_ret, err);
    if (legacy && desc->image_type == CL_MEM_OBJECT_IMAGE3D && desc->image_depth <= 1)
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_IMAGE_SIZE, "clCreateImage3D needs image_depth above 1, "
                                              "not %zu", desc->image_depth));

    mosaic_image img;
    size_t size;
    cl_image_desc d = *desc;
    if (parent && mosaic_mem_is_image(parent)) { /* the view has the image's pitches */
        if ((err = check_from_image(format, desc, parent)) != CL_SUCCESS)
            return fail(errcode_ret, err);
        d.image_row_pitch = parent->image.row_pitch;
    } else if (parent && desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        d.image_row_pitch = 0; /* packed: a 1D buffer image is one row */
    }
    if ((err = layout(format, &d, parent ? CL_INVALID_IMAGE_DESCRIPTOR : pitch_error, &img, &size)) != CL_SUCCESS)
        return fail(errcode_ret, err);
    if (parent && mosaic_mem_is_buffer(parent) && (err = check_from_buffer(context, &d, parent, &img, size)))
        return fail(errcode_ret, err);
    if (size > mosaic_context_max_alloc(context)) {
        /* the pitches' fault when the packed image would fit */
        cl_image_desc packed = d;
        packed.image_row_pitch = packed.image_slice_pitch = 0;
        mosaic_image unused;
        size_t packed_size;
        bool pitches = layout(format, &packed, pitch_error, &unused, &packed_size) == CL_SUCCESS &&
                       packed_size <= mosaic_context_max_alloc(context);
        return fail(errcode_ret, MOSAIC_ERROR(pitches ? pitch_error : CL_INVALID_IMAGE_SIZE, "the image's %zu bytes "
                                              "(row pitch %zu, slice pitch %zu) exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                                              size, img.row_pitch, img.slice_pitch));
    }
    /* host_ptr holds the whole storage: refused where that is not this process's memory */
    if (host_ptr && !mosaic_host_range_mapped(host_ptr, size))
        return fail(errcode_ret, MOSAIC_ERROR(CL_INVALID_HOST_PTR, "host_ptr %p and the %zu bytes after it are not "
                                              "in this process's memory (a pitch or host_ptr is wrong)",
                                              host_ptr, size));
    if (!mosaic_image_format_supported(format, desc->image_type))
        return fail(errcode_ret, MOSAIC_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED, "format (0x%x, 0x%x) is not supported "
                                              "for this image type (docs/images.md)", format->image_channel_order,
                                              format->image_channel_data_type));

    cl_mem mem = mosaic_mem_new(context, desc->image_type, flags, size);
    if (!mem)
        return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    mem->image = img;
    if (properties) {
        mem->properties = mosaic_calloc(1, sizeof *mem->properties);
        if (!mem->properties) {
            mosaic_release(mem);
            return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        }
        mem->num_properties = 1; /* the terminator */
    }
    if (parent) { /* a view of its storage, like a sub-buffer at offset 0 */
        mem->parent = parent;
        mosaic_retain_internal(parent);
        mem->host_ptr = parent->host_ptr;
        mem->is_svm_backed = parent->is_svm_backed;
        if (mosaic_mem_is_buffer(parent))
            mem->image.buffer = parent;
        host_ptr = NULL;
    } else if (flags & CL_MEM_USE_HOST_PTR) {
        mem->host_ptr = host_ptr; /* the storage on a host-memory device, with the application's pitches */
        mem->is_svm_backed = mosaic_svm_contains(context, host_ptr);
    }
    if ((err = mosaic_mem_alloc_storages(mem, host_ptr)) != CL_SUCCESS) {
        mosaic_release(mem);
        return fail(errcode_ret, err);
    }
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return mem;
}

cl_mem CL_API_CALL
clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
              const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, NULL, flags, image_format, image_desc, host_ptr, false, errcode_ret);
}

cl_mem CL_API_CALL
clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                            const cl_image_format *image_format, const cl_image_desc *image_desc,
                            void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, properties, flags, image_format, image_desc, host_ptr, false, errcode_ret);
}

cl_mem CL_API_CALL
clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                size_t image_width, size_t image_height, size_t image_row_pitch, void *host_ptr,
                cl_int *errcode_ret)
{
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width,
                           .image_height = image_height, .image_row_pitch = image_row_pitch };
    return create_image(context, NULL, flags, image_format, &desc, host_ptr, true, errcode_ret);
}

cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch,
                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width,
                           .image_height = image_height, .image_depth = image_depth,
                           .image_row_pitch = image_row_pitch, .image_slice_pitch = image_slice_pitch };
    return create_image(context, NULL, flags, image_format, &desc, host_ptr, true, errcode_ret);
}

/* ---- queries ------------------------------------------------------------------- */

cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                           cl_uint num_entries, cl_image_format *image_formats, cl_uint *num_image_formats)
{
    MOSAIC_CHECK_HANDLE(context, CONTEXT);
    cl_mem_flags access = flags & (ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE);
    if ((flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE)) ||
        (access & (access - 1) && access != (CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) ||
        mosaic_mem_check_flags(flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE) != CL_SUCCESS)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "flags 0x%llx are not valid", (unsigned long long)flags);
    if (!is_image_type(image_type))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "image_type 0x%x is not an image type", image_type);
    if (num_entries == 0 && image_formats)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_entries is 0 with an image_formats array");
    /* One device kind today: the union over the context is the table of the
     * first device with images (none: no format). */
    cl_uint n = context_has_images(context) ? mosaic_image_formats(image_type, flags, image_formats, num_entries) : 0;
    if (num_image_formats)
        *num_image_formats = n;
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void *param_value,
               size_t *param_value_size_ret)
{
    if (!mosaic_mem_is_image(image))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "%p is not a valid image", (void *)image);
    const mosaic_image *img = &image->image;
    switch (param_name) {
    case CL_IMAGE_FORMAT: MOSAIC_INFO_SCALAR(cl_image_format, img->format);
    case CL_IMAGE_ELEMENT_SIZE: MOSAIC_INFO_SCALAR(size_t, img->pixel_size);
    case CL_IMAGE_ROW_PITCH: MOSAIC_INFO_SCALAR(size_t, img->row_pitch);
    case CL_IMAGE_SLICE_PITCH: MOSAIC_INFO_SCALAR(size_t, img->slice_pitch);
    case CL_IMAGE_WIDTH: MOSAIC_INFO_SCALAR(size_t, img->width);
    case CL_IMAGE_HEIGHT: MOSAIC_INFO_SCALAR(size_t, img->height);
    case CL_IMAGE_DEPTH: MOSAIC_INFO_SCALAR(size_t, img->depth);
    case CL_IMAGE_ARRAY_SIZE: MOSAIC_INFO_SCALAR(size_t, img->array_size);
    case CL_IMAGE_BUFFER: MOSAIC_INFO_SCALAR(cl_mem, img->buffer);
    case CL_IMAGE_NUM_MIP_LEVELS: MOSAIC_INFO_SCALAR(cl_uint, 0);
    case CL_IMAGE_NUM_SAMPLES: MOSAIC_INFO_SCALAR(cl_uint, 0);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}
