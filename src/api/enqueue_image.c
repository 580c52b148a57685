/*
 * Commands on images: read, write, copy (image to image, image to buffer,
 * buffer to image), fill and map (unmap is clEnqueueUnmapMemObject, for
 * every memory object).
 *
 * An image's storage is rows of row_pitch bytes and slices (3D) or layers
 * (arrays) of slice_pitch bytes (api/image.c), so a region of pixels is a
 * rectangle of bytes: {region[0] pixels' bytes, region[1], region[2]} with
 * a step for each dimension.  Read, write and the copies are therefore the
 * device's rectangular transfers (ops->read, write, copy, as for
 * clEnqueueReadBufferRect...), a fill its ops->fill_rect with the colour
 * packed into one pixel here (core/image_format.h), a map its map_address
 * with the image's own pitches.  As for buffers, nothing here touches an
 * image's bytes.
 */
#include "api/api.h"
#include "api/enqueue.h"
#include "api/entry.h"
#include "api/memory.h"
#include "core/engine.h"
#include "core/image_format.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- argument checks ---------------------------------------------------------- */

static cl_int check_queue(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(queue)))
        return err;
    if (!mosaic_device_image_support(queue->device))
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the queue's device does not support images");
    return mosaic_check_wait_list(queue->context, num_events, wait_list);
}

static cl_int check_image(cl_command_queue queue, cl_mem image, const char *what)
{
    if (!mosaic_mem_is_image(image))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "%s is not a valid image", what);
    if (image->context != queue->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "%s and the queue belong to different contexts", what);
    return CL_SUCCESS;
}

static bool fits(size_t origin, size_t region, size_t limit)
{
    return origin <= limit && region <= limit - origin;
}

/* The byte step of dimension 1 (rows; layers of a 1D array) and 2 (slices
 * of a 3D image, layers of a 2D array) inside an image's storage. */
static size_t step1(cl_mem image)
{
    return image->mem_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? image->image.slice_pitch : image->image.row_pitch;
}

static size_t step2(cl_mem image, const size_t *region)
{
    if (image->mem_type == CL_MEM_OBJECT_IMAGE3D || image->mem_type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        return image->image.slice_pitch;
    return step1(image) * region[1]; /* region[2] is 1: any step past the rows */
}

/* Checks origin and region against the image's type and size, and gives
 * the rectangle of its storage they name (offset, and the steps as the
 * endpoint's row and slice pitches).  CL_INVALID_VALUE on a violation. */
static cl_int image_rect(cl_mem image, const char *what, const size_t *origin, const size_t *region,
                         mosaic_endpoint *e)
{
    if (!origin || !region)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "origin or region is NULL");
    if (region[0] == 0 || region[1] == 0 || region[2] == 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "a region element is 0");
    const mosaic_image *img = &image->image;
    size_t lim1, lim2;
    switch (image->mem_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        lim1 = lim2 = 1;
        break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        lim1 = img->array_size;
        lim2 = 1;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
        lim1 = img->height;
        lim2 = 1;
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        lim1 = img->height;
        lim2 = img->array_size;
        break;
    default: /* 3D */
        lim1 = img->height;
        lim2 = img->depth;
        break;
    }
    if (lim1 == 1 && (origin[1] != 0 || region[1] != 1))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s is a 1D image: %s origin[1] must be 0 and region[1] 1", what, what);
    if (lim2 == 1 && (origin[2] != 0 || region[2] != 1))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s has no third dimension: origin[2] must be 0 and region[2] 1", what);
    if (!fits(origin[0], region[0], img->width) || !fits(origin[1], region[1], lim1) ||
        !fits(origin[2], region[2], lim2))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s region (%zu,%zu,%zu)+(%zu,%zu,%zu) is outside the image "
                            "(%zu,%zu,%zu)", what, origin[0], origin[1], origin[2], region[0], region[1], region[2],
                            img->width, lim1, lim2);
    *e = (mosaic_endpoint){ .mem = image,
                            .offset = origin[0] * img->pixel_size + origin[1] * step1(image) +
                                      origin[2] * step2(image, region),
                            .row_pitch = step1(image), .slice_pitch = step2(image, region) };
    return CL_SUCCESS;
}

/* The transfer's region in bytes: {region[0] pixels, region[1], region[2]}. */
static void byte_region(cl_mem image, const size_t *region, size_t *out)
{
    out[0] = region[0] * image->image.pixel_size;
    out[1] = region[1];
    out[2] = region[2];
}

/* Bytes from a rectangle's first byte to one past its last. */
static size_t rect_extent(const mosaic_endpoint *e, const size_t *bytes)
{
    return (bytes[2] - 1) * e->slice_pitch + (bytes[1] - 1) * e->row_pitch + bytes[0];
}

/* ---- read and write ------------------------------------------------------------ */

/* The host side of a read or write: row pitch (default: the region's row),
 * and the step between slices or layers (default: packed); for a 1D array
 * the host's "slice pitch" is the step between its rows, which are
 * layers.  The rectangle they make from ptr must fit in the address space
 * and start and end in host memory (mosaic_check_host_memory). */
static cl_int host_rect(cl_mem image, const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                        mosaic_endpoint *e)
{
    size_t row = region[0] * image->image.pixel_size;
    if (row_pitch == 0)
        row_pitch = row;
    else if (row_pitch < row)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "row pitch %zu is below the region's %zu bytes per row", row_pitch, row);
    cl_mem_object_type t = image->mem_type;
    size_t step1 = row_pitch, step2;
    bool overflow = false;
    if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE2D) {
        if (slice_pitch != 0)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "slice pitch must be 0 for a 1D or 2D image, not %zu", slice_pitch);
        overflow = __builtin_mul_overflow(row_pitch, region[1], &step2);
    } else if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        if (slice_pitch == 0)
            slice_pitch = row_pitch;
        else if (slice_pitch < row_pitch)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "slice pitch %zu is below the row pitch %zu", slice_pitch, row_pitch);
        step1 = slice_pitch;
        overflow = __builtin_mul_overflow(slice_pitch, region[1], &step2);
    } else {
        size_t min_slice;
        overflow = __builtin_mul_overflow(row_pitch, region[1], &min_slice);
        if (!overflow && slice_pitch == 0)
            slice_pitch = min_slice;
        else if (!overflow && slice_pitch < min_slice)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "slice pitch %zu is below row pitch * region[1] = %zu", slice_pitch,
                                min_slice);
        step2 = slice_pitch;
    }
    if (overflow)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "the host rectangle's pitch (%zu) times %zu rows overflows the address "
                            "space", step1, region[1]);
    size_t bytes[3] = {row, region[1], region[2]}, end;
    cl_int err;
    if ((err = mosaic_rect_end("host", 0, bytes, step1, step2, &end)) ||
        (err = mosaic_check_host_memory("host", ptr, 0, end)))
        return err;
    *e = (mosaic_endpoint){ .host = ptr, .offset = 0, .row_pitch = step1, .slice_pitch = step2 };
    return CL_SUCCESS;
}

static cl_int read_write(cl_command_queue queue, bool reading, cl_mem image, cl_bool blocking, const size_t *origin,
                         const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint num_events,
                         const cl_event *wait_list, cl_event *event)
{
    cl_int err;
    if ((err = check_queue(queue, num_events, wait_list)) || (err = check_image(queue, image, "image")))
        return err;
    mosaic_endpoint img, host;
    if (!ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "ptr is NULL");
    if ((err = image_rect(image, "image", origin, region, &img)) ||
        (err = host_rect(image, region, row_pitch, slice_pitch, ptr, &host)))
        return err;
    if (reading ? !mosaic_mem_host_can_read(image) : !mosaic_mem_host_can_write(image))
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the image's CL_MEM_HOST_* flags forbid host %s",
                            reading ? "reads" : "writes");
    size_t bytes[3];
    byte_region(image, region, bytes);
    const mosaic_device_ops *ops = queue->device->ops;
    if (reading)
        return mosaic_submit_transfer(queue, CL_COMMAND_READ_IMAGE, ops->read, &img, &host, bytes, blocking,
                                      num_events, wait_list, event);
    return mosaic_submit_transfer(queue, CL_COMMAND_WRITE_IMAGE, ops->write, &host, &img, bytes, blocking, num_events,
                                  wait_list, event);
}

cl_int CL_API_CALL
clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t *origin,
                   const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return read_write(command_queue, true, image, blocking_read, origin, region, row_pitch, slice_pitch, ptr,
                      num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin,
                    const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return read_write(command_queue, false, image, blocking_write, origin, region, input_row_pitch,
                      input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copies --------------------------------------------------------------------- */

static bool intervals_meet(size_t a, size_t b, size_t n)
{
    return a < b + n && b < a + n;
}

cl_int CL_API_CALL
clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image, const size_t *src_origin,
                   const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    if ((err = check_queue(command_queue, num_events_in_wait_list, event_wait_list)) ||
        (err = check_image(command_queue, src_image, "src_image")) ||
        (err = check_image(command_queue, dst_image, "dst_image")))
        return err;
    const cl_image_format *sf = &src_image->image.format, *df = &dst_image->image.format;
    if (sf->image_channel_order != df->image_channel_order || sf->image_channel_data_type != df->image_channel_data_type)
        return MOSAIC_ERROR(CL_IMAGE_FORMAT_MISMATCH, "the images' formats differ: (0x%x, 0x%x) and (0x%x, 0x%x)",
                            sf->image_channel_order, sf->image_channel_data_type, df->image_channel_order,
                            df->image_channel_data_type);
    mosaic_endpoint s, d;
    if ((err = image_rect(src_image, "src_image", src_origin, region, &s)) ||
        (err = image_rect(dst_image, "dst_image", dst_origin, region, &d)))
        return err;
    if (src_image == dst_image && intervals_meet(src_origin[0], dst_origin[0], region[0]) &&
        intervals_meet(src_origin[1], dst_origin[1], region[1]) && intervals_meet(src_origin[2], dst_origin[2], region[2]))
        return MOSAIC_ERROR(CL_MEM_COPY_OVERLAP, "source and destination regions of the image overlap");
    size_t bytes[3];
    byte_region(src_image, region, bytes);
    return mosaic_submit_transfer(command_queue, CL_COMMAND_COPY_IMAGE, command_queue->device->ops->copy, &s, &d,
                                  bytes, false, num_events_in_wait_list, event_wait_list, event);
}

/* The buffer end of an image <-> buffer copy: the region's pixels packed
 * from `offset`, which must lie inside the buffer. */
static cl_int buffer_rect(cl_command_queue queue, cl_mem buffer, cl_mem image, size_t offset, const size_t *region,
                          mosaic_endpoint *e)
{
    cl_int err;
    if (!mosaic_mem_is_buffer(buffer))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "not a valid buffer");
    if (buffer->context != queue->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the buffer and the queue belong to different contexts");
    if (image->image.buffer == buffer && image->mem_type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "the image is a 1D buffer image made from this buffer");
    size_t row = region[0] * image->image.pixel_size, size = row * region[1] * region[2];
    if (!fits(offset, size, buffer->size))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%zu bytes at offset %zu are outside the %zu-byte buffer", size, offset,
                            buffer->size);
    if ((err = mosaic_mem_check_alignment(buffer, queue->device)))
        return err;
    *e = (mosaic_endpoint){ .mem = buffer, .offset = offset, .row_pitch = row, .slice_pitch = row * region[1] };
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                           const size_t *src_origin, const size_t *region, size_t dst_offset,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    mosaic_endpoint s, d;
    if ((err = check_queue(command_queue, num_events_in_wait_list, event_wait_list)) ||
        (err = check_image(command_queue, src_image, "src_image")) ||
        (err = image_rect(src_image, "src_image", src_origin, region, &s)) ||
        (err = buffer_rect(command_queue, dst_buffer, src_image, dst_offset, region, &d)))
        return err;
    size_t bytes[3];
    byte_region(src_image, region, bytes);
    return mosaic_submit_transfer(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, command_queue->device->ops->copy,
                                  &s, &d, bytes, false, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                           size_t src_offset, const size_t *dst_origin, const size_t *region,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    mosaic_endpoint s, d;
    if ((err = check_queue(command_queue, num_events_in_wait_list, event_wait_list)) ||
        (err = check_image(command_queue, dst_image, "dst_image")) ||
        (err = image_rect(dst_image, "dst_image", dst_origin, region, &d)) ||
        (err = buffer_rect(command_queue, src_buffer, dst_image, src_offset, region, &s)))
        return err;
    size_t bytes[3];
    byte_region(dst_image, region, bytes);
    return mosaic_submit_transfer(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, command_queue->device->ops->copy,
                                  &s, &d, bytes, false, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ------------------------------------------------------------------------ */

static void cleanup_fill_rect(cl_event self)
{
    mosaic_fill_rect *f = self->payload;
    if (!f)
        return;
    mosaic_release_internal(f->mem);
    free(f);
    self->payload = NULL;
}

cl_int CL_API_CALL
clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color, const size_t *origin,
                   const size_t *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event)
{
    cl_int err;
    mosaic_endpoint e;
    if ((err = check_queue(command_queue, num_events_in_wait_list, event_wait_list)) ||
        (err = check_image(command_queue, image, "image")))
        return err;
    if (!fill_color)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "fill_color is NULL");
    if ((err = image_rect(image, "image", origin, region, &e)))
        return err;
    mosaic_fill_rect *f = mosaic_calloc(1, sizeof *f);
    if (f) {
        f->mem = image;
        mosaic_retain_internal(image);
        f->offset = e.offset;
        f->row_pitch = e.row_pitch;
        f->slice_pitch = e.slice_pitch;
        byte_region(image, region, f->region);
        f->pattern_size = image->image.pixel_size;
        /* the colour, converted now: the application may reuse fill_color at once */
        mosaic_image_pack_color(&image->image.format, fill_color, f->pattern);
    }
    return mosaic_submit_command(command_queue, CL_COMMAND_FILL_IMAGE, f, command_queue->device->ops->fill_rect,
                                 cleanup_fill_rect, false, num_events_in_wait_list, event_wait_list, event);
}

/* ---- map ------------------------------------------------------------------------- */

void *CL_API_CALL
clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags,
                  const size_t *origin, const size_t *region, size_t *image_row_pitch, size_t *image_slice_pitch,
                  cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
                  cl_int *errcode_ret)
{
    cl_int err;
    mosaic_endpoint e;
    if ((err = check_queue(command_queue, num_events_in_wait_list, event_wait_list)) ||
        (err = check_image(command_queue, image, "image")) || (err = image_rect(image, "image", origin, region, &e)))
        goto fail;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((map_flags & ~known) ||
        ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx", (unsigned long long)map_flags);
        goto fail;
    }
    bool layered = image->mem_type == CL_MEM_OBJECT_IMAGE3D || image->mem_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   image->mem_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (!image_row_pitch || (layered && !image_slice_pitch)) {
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "image_row_pitch is NULL, or image_slice_pitch for a 3D or array image");
        goto fail;
    }
    if (((map_flags & CL_MAP_READ) && !mosaic_mem_host_can_read(image)) ||
        ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !mosaic_mem_host_can_write(image))) {
        err = MOSAIC_ERROR(CL_INVALID_OPERATION, "map_flags conflict with the image's CL_MEM_HOST_* flags");
        goto fail;
    }
    size_t bytes[3];
    byte_region(image, region, bytes);
    void *p = mosaic_enqueue_map(command_queue, image, CL_COMMAND_MAP_IMAGE, blocking_map, map_flags, e.offset,
                                 rect_extent(&e, bytes), num_events_in_wait_list, event_wait_list, event, errcode_ret);
    if (p) { /* the host sees the image's own layout (USE_HOST_PTR: host_ptr's) */
        *image_row_pitch = image->image.row_pitch;
        if (image_slice_pitch)
            *image_slice_pitch = image->image.slice_pitch;
    }
    return p;
fail:
    mosaic_set_error(errcode_ret, err);
    return NULL;
}
