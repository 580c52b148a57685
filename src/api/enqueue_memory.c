/*
 * Commands on buffers: read, write, copy (flat and rectangular), fill, map,
 * unmap and migrate.
 *
 * Each entry point checks every argument before anything is created, then
 * builds a payload (core/device.h) that holds internal references on the
 * buffers it touches and hands a command to the engine (core/engine.h).  The
 * command's `run` is the queue's device's op for it (ops->read, write, copy,
 * fill, map, unmap, migrate): the device does the work (the CPU: on a worker
 * thread, or on the calling thread for a blocking command), and `cleanup`
 * drops the references.  Nothing here touches a buffer's bytes; where a map
 * puts them for the host is the device's answer too (ops->map_address).
 */
#include "core/engine.h"
#include "api/entry.h"
#include "api/memory.h"
#include "api/enqueue.h"
#include "base/assert.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>


/* ---- argument checks ---------------------------------------------------------- */

cl_int mosaic_check_host_queue(cl_command_queue queue)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue cannot take host commands");
    return CL_SUCCESS;
}

static cl_int check_buffer(cl_command_queue queue, cl_mem mem)
{
    if (!mosaic_mem_is_buffer(mem))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "not a valid buffer");
    if (mem->context != queue->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the buffer and the queue belong to different contexts");
    return CL_SUCCESS;
}

/* (offset, size) inside a buffer of `total` bytes; size 0 is refused. */
static bool range_ok(size_t offset, size_t size, size_t total)
{
    return size != 0 && offset <= total && size <= total - offset;
}

/* A rectangle in a buffer or in host memory: defaults the pitches, checks
 * them, and computes the byte offset of the origin and the end (one past the
 * last byte) relative to the base.  CL_INVALID_VALUE on any violation. */
typedef struct rect {
    size_t row_pitch, slice_pitch;
    size_t offset, end;
} rect;

static cl_int rect_resolve(const char *what, const size_t *origin, const size_t *region,
                           size_t row_pitch, size_t slice_pitch, rect *r)
{
    if (row_pitch == 0)
        row_pitch = region[0];
    else if (row_pitch < region[0])
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s row pitch %zu is smaller than region[0] %zu",
                            what, row_pitch, region[0]);
    size_t min_slice;
    if (__builtin_mul_overflow(region[1], row_pitch, &min_slice))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s region too large", what);
    if (slice_pitch == 0)
        slice_pitch = min_slice;
    else if (slice_pitch < min_slice || slice_pitch % row_pitch != 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s slice pitch %zu is below region[1] * row pitch (%zu) "
                            "or not a multiple of the row pitch", what, slice_pitch, min_slice);
    size_t a, b, off, last;
    if (__builtin_mul_overflow(origin[2], slice_pitch, &a) || __builtin_mul_overflow(origin[1], row_pitch, &b) ||
        __builtin_add_overflow(a, b, &off) || __builtin_add_overflow(off, origin[0], &off))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s origin is beyond the address space", what);
    cl_int err = mosaic_rect_end(what, off, region, row_pitch, slice_pitch, &last);
    if (err)
        return err;
    r->row_pitch = row_pitch;
    r->slice_pitch = slice_pitch;
    r->offset = off;
    r->end = last;
    return CL_SUCCESS;
}

cl_int mosaic_rect_end(const char *what, size_t offset, const size_t *region, size_t row_pitch, size_t slice_pitch,
                       size_t *end)
{
    MOSAIC_ASSERT(region[0] && region[1] && region[2]);
    size_t a, b;
    if (__builtin_mul_overflow(region[2] - 1, slice_pitch, &a) || __builtin_mul_overflow(region[1] - 1, row_pitch, &b) ||
        __builtin_add_overflow(a, b, end) || __builtin_add_overflow(*end, region[0], end) ||
        __builtin_add_overflow(*end, offset, end))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s rectangle (row pitch %zu, slice pitch %zu) overflows the address "
                            "space", what, row_pitch, slice_pitch);
    return CL_SUCCESS;
}

cl_int mosaic_check_host_memory(const char *what, const void *ptr, size_t offset, size_t end)
{
    MOSAIC_ASSERT(offset <= end);
    if ((uintptr_t)ptr > UINTPTR_MAX - offset || !mosaic_host_range_mapped((const char *)ptr + offset, end - offset))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s memory [%p + %zu, %p + %zu) is not in this process's memory "
                            "(a pitch or the pointer is wrong)", what, ptr, offset, ptr, end);
    return CL_SUCCESS;
}

static cl_int check_region(const size_t *origin_a, const size_t *origin_b, const size_t *region)
{
    if (!origin_a || !origin_b || !region)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "origin or region is NULL");
    if (region[0] == 0 || region[1] == 0 || region[2] == 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "a region element is 0");
    return CL_SUCCESS;
}

/* Do two rectangles (of the same region shape) starting at byte offsets a and
 * b of one address space overlap?  Each is a sorted sequence of disjoint rows
 * [start, start + w) (pitches were checked: row pitch >= w, slice pitch >=
 * rows * row pitch), so one merge walk over both answers exactly. */
static bool rects_overlap(size_t a, const rect *ra, size_t b, const rect *rb, const size_t *region)
{
    size_t w = region[0], rows = region[1] * region[2];
    size_t ia = 0, ib = 0;
    while (ia < rows && ib < rows) {
        size_t sa = a + (ia / region[1]) * ra->slice_pitch + (ia % region[1]) * ra->row_pitch;
        size_t sb = b + (ib / region[1]) * rb->slice_pitch + (ib % region[1]) * rb->row_pitch;
        if (sa < sb + w && sb < sa + w)
            return true;
        if (sa < sb)
            ia++;
        else
            ib++;
    }
    return false;
}

/* ---- payloads (core/device.h) and commands ----------------------------------------- */

static void cleanup_transfer(cl_event self)
{
    mosaic_transfer *t = self->payload;
    if (!t)
        return;
    if (t->src.mem)
        mosaic_release_internal(t->src.mem);
    if (t->dst.mem)
        mosaic_release_internal(t->dst.mem);
    free(t);
    self->payload = NULL;
}

static void cleanup_fill(cl_event self)
{
    mosaic_fill *f = self->payload;
    if (!f)
        return;
    mosaic_release_internal(f->mem);
    free(f);
    self->payload = NULL;
}

static void cleanup_map(cl_event self)
{
    mosaic_map *m = self->payload;
    if (!m)
        return;
    mosaic_release_internal(m->mem);
    free(m);
    self->payload = NULL;
}

static mosaic_map *map_new(cl_mem mem, void *pointer, size_t offset, size_t size, cl_map_flags flags)
{
    mosaic_map *m = mosaic_calloc(1, sizeof *m);
    if (!m)
        return NULL;
    *m = (mosaic_map){ mem, pointer, offset, size, flags };
    mosaic_retain_internal(mem);
    return m;
}

static void cleanup_migration(cl_event self)
{
    mosaic_migration *m = self->payload;
    if (!m)
        return;
    for (cl_uint i = 0; i < m->count; i++)
        mosaic_release_internal(m->mems[i]);
    free(m);
    self->payload = NULL;
}

static cl_int submit_moving(cl_command_queue queue, cl_command_type type, void *payload, cl_int (*run)(cl_event),
                            void (*cleanup)(cl_event), bool blocking, size_t bytes, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event);

/* Creates the command and enqueues it.  `run` is the device's op for it;
 * NULL (the device has nothing to do) makes the command a synchronisation
 * point that the engine completes by itself.  The payload's references are
 * dropped here if no command can be made; after that they are the command's
 * (its cleanup runs once it completes). */
cl_int mosaic_submit_command(cl_command_queue queue, cl_command_type type, void *payload,
                             cl_int (*run)(cl_event), void (*cleanup)(cl_event), bool blocking,
                             cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return submit_moving(queue, type, payload, run, cleanup, blocking, 0, num_events, wait_list, event);
}

/* mosaic_submit_command for a command that moves `bytes`: a blocking one runs
 * on the calling thread (no hand-off to a worker) unless it moves at least
 * INLINE_MAX bytes, which the device may share among its workers. */
#define INLINE_MAX ((size_t)4 << 20)
static cl_int submit_moving(cl_command_queue queue, cl_command_type type, void *payload, cl_int (*run)(cl_event),
                            void (*cleanup)(cl_event), bool blocking, size_t bytes, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event)
{
    if (mosaic_recording) /* into a command buffer (api/command_buffer.c) */
        return mosaic_record_command(type, payload, run, cleanup);
    cl_event cmd = payload ? mosaic_command_new(queue, type) : NULL;
    if (!cmd) {
        if (payload) {
            struct _cl_event tmp = { .payload = payload };
            cleanup(&tmp);
        }
        return CL_OUT_OF_HOST_MEMORY;
    }
    cmd->run = run;
    cmd->cleanup = cleanup;
    cmd->payload = payload;
    cmd->run_inline = blocking && bytes < INLINE_MAX;
    return mosaic_command_enqueue(cmd, num_events, wait_list, event, blocking);
}

/* read, write and copy: `run` is the device's ops->read, write or copy. */
static cl_int submit_transfer(cl_command_queue queue, cl_command_type type, cl_int (*run)(cl_event),
                              cl_mem src_mem, char *src_host, const rect *src,
                              cl_mem dst_mem, char *dst_host, const rect *dst,
                              const size_t *region, bool blocking,
                              cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    mosaic_transfer *t = mosaic_calloc(1, sizeof *t);
    if (t) {
        t->src = (mosaic_endpoint){ src_mem, src_host, src->offset, src->row_pitch, src->slice_pitch };
        t->dst = (mosaic_endpoint){ dst_mem, dst_host, dst->offset, dst->row_pitch, dst->slice_pitch };
        t->region[0] = region[0];
        t->region[1] = region[1];
        t->region[2] = region[2];
        if (src_mem)
            mosaic_retain_internal(src_mem);
        if (dst_mem)
            mosaic_retain_internal(dst_mem);
    }
    return submit_moving(queue, type, t, run, cleanup_transfer, blocking, region[0] * region[1] * region[2],
                         num_events, wait_list, event);
}

cl_int mosaic_submit_transfer(cl_command_queue queue, cl_command_type type, cl_int (*run)(cl_event),
                              const mosaic_endpoint *src, const mosaic_endpoint *dst, const size_t *region,
                              bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    rect s = { src->row_pitch, src->slice_pitch, src->offset, 0 };
    rect d = { dst->row_pitch, dst->slice_pitch, dst->offset, 0 };
    return submit_transfer(queue, type, run, src->mem, src->host, &s, dst->mem, dst->host, &d, region, blocking,
                           num_events, wait_list, event);
}

static rect flat(size_t offset, size_t size)
{
    return (rect){ .row_pitch = size, .slice_pitch = size, .offset = offset, .end = offset + size };
}

/* ---- read and write ------------------------------------------------------------- */

static cl_int check_host_transfer(cl_command_queue queue, cl_mem buffer, const void *ptr, bool reading,
                                  cl_uint num_events, const cl_event *wait_list)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(queue)) || (err = check_buffer(queue, buffer)) ||
        (err = mosaic_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (!ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "ptr is NULL");
    if (reading ? !mosaic_mem_host_can_read(buffer) : !mosaic_mem_host_can_write(buffer))
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the buffer's CL_MEM_HOST_* flags forbid host %s",
                            reading ? "reads" : "writes");
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, size_t offset,
                    size_t size, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event)
{
    cl_int err = check_host_transfer(command_queue, buffer, ptr, true, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!range_ok(offset, size, buffer->size))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "(offset %zu, size %zu) is empty or outside the %zu-byte buffer",
                            offset, size, buffer->size);
    if ((err = mosaic_mem_check_alignment(buffer, command_queue->device)) ||
        (err = mosaic_check_host_memory("ptr", ptr, 0, size)))
        return err;
    rect src = flat(offset, size), dst = flat(0, size);
    size_t region[3] = { size, 1, 1 };
    return submit_transfer(command_queue, CL_COMMAND_READ_BUFFER, command_queue->device->ops->read,
                           buffer, NULL, &src, NULL, ptr, &dst, region,
                           blocking_read, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write, size_t offset,
                     size_t size, const void *ptr, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_host_transfer(command_queue, buffer, ptr, false, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!range_ok(offset, size, buffer->size))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "(offset %zu, size %zu) is empty or outside the %zu-byte buffer",
                            offset, size, buffer->size);
    if ((err = mosaic_mem_check_alignment(buffer, command_queue->device)) ||
        (err = mosaic_check_host_memory("ptr", ptr, 0, size)))
        return err;
    rect src = flat(0, size), dst = flat(offset, size);
    size_t region[3] = { size, 1, 1 };
    return submit_transfer(command_queue, CL_COMMAND_WRITE_BUFFER, command_queue->device->ops->write,
                           NULL, (char *)ptr, &src, buffer, NULL, &dst,
                           region, blocking_write, num_events_in_wait_list, event_wait_list, event);
}

static cl_int host_rect(cl_command_queue queue, cl_command_type type, cl_mem buffer, bool blocking,
                        const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                        size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                        size_t host_slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                        cl_event *event)
{
    bool reading = type == CL_COMMAND_READ_BUFFER_RECT;
    cl_int err = check_host_transfer(queue, buffer, ptr, reading, num_events, wait_list);
    if (err || (err = check_region(buffer_origin, host_origin, region)))
        return err;
    rect b, h;
    if ((err = rect_resolve("buffer", buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &b)) ||
        (err = rect_resolve("host", host_origin, region, host_row_pitch, host_slice_pitch, &h)))
        return err;
    if (b.end > buffer->size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "the rectangle ends at byte %zu of a %zu-byte buffer",
                            b.end, buffer->size);
    if ((err = mosaic_mem_check_alignment(buffer, queue->device)) ||
        (err = mosaic_check_host_memory("host", ptr, h.offset, h.end)))
        return err;
    if (reading)
        return submit_transfer(queue, type, queue->device->ops->read, buffer, NULL, &b, NULL, ptr, &h, region, blocking,
                               num_events, wait_list, event);
    return submit_transfer(queue, type, queue->device->ops->write, NULL, ptr, &h, buffer, NULL, &b, region, blocking,
                           num_events, wait_list, event);
}

cl_int CL_API_CALL
clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                        const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                        size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                        size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event)
{
    return host_rect(command_queue, CL_COMMAND_READ_BUFFER_RECT, buffer, blocking_read, buffer_origin,
                     host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                     ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                         const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                         size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                         size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event)
{
    return host_rect(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, blocking_write, buffer_origin,
                     host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                     (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copies --------------------------------------------------------------------- */

static cl_int check_two_buffers(cl_command_queue queue, cl_mem src, cl_mem dst,
                                cl_uint num_events, const cl_event *wait_list)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(queue)))
        return err;
    if (!mosaic_mem_is_buffer(src) || !mosaic_mem_is_buffer(dst))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "not a valid buffer");
    if ((err = check_buffer(queue, src)) || (err = check_buffer(queue, dst)) ||
        (err = mosaic_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset,
                    size_t dst_offset, size_t size, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_two_buffers(command_queue, src_buffer, dst_buffer, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!range_ok(src_offset, size, src_buffer->size) || !range_ok(dst_offset, size, dst_buffer->size))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "the copy is empty or reaches outside a buffer");
    if ((err = mosaic_mem_check_alignment(src_buffer, command_queue->device)) ||
        (err = mosaic_mem_check_alignment(dst_buffer, command_queue->device)))
        return err;
    if (mosaic_mem_root(src_buffer) == mosaic_mem_root(dst_buffer)) {
        size_t s = mosaic_mem_root_offset(src_buffer) + src_offset;
        size_t d = mosaic_mem_root_offset(dst_buffer) + dst_offset;
        if (s < d + size && d < s + size)
            return MOSAIC_ERROR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
    }
    rect src = flat(src_offset, size), dst = flat(dst_offset, size);
    size_t region[3] = { size, 1, 1 };
    return submit_transfer(command_queue, CL_COMMAND_COPY_BUFFER, command_queue->device->ops->copy,
                           src_buffer, NULL, &src, dst_buffer, NULL, &dst,
                           region, false, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                        const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                        size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_two_buffers(command_queue, src_buffer, dst_buffer, num_events_in_wait_list, event_wait_list);
    if (err || (err = check_region(src_origin, dst_origin, region)))
        return err;
    rect s, d;
    if ((err = rect_resolve("source", src_origin, region, src_row_pitch, src_slice_pitch, &s)) ||
        (err = rect_resolve("destination", dst_origin, region, dst_row_pitch, dst_slice_pitch, &d)))
        return err;
    if (s.end > src_buffer->size || d.end > dst_buffer->size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "a rectangle reaches outside its buffer");
    if (src_buffer == dst_buffer && s.row_pitch != d.row_pitch && s.slice_pitch != d.slice_pitch)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "copy within one buffer with different row and slice pitches");
    if ((err = mosaic_mem_check_alignment(src_buffer, command_queue->device)) ||
        (err = mosaic_mem_check_alignment(dst_buffer, command_queue->device)))
        return err;
    if (mosaic_mem_root(src_buffer) == mosaic_mem_root(dst_buffer) &&
        rects_overlap(mosaic_mem_root_offset(src_buffer) + s.offset, &s,
                      mosaic_mem_root_offset(dst_buffer) + d.offset, &d, region))
        return MOSAIC_ERROR(CL_MEM_COPY_OVERLAP, "source and destination rectangles overlap");
    return submit_transfer(command_queue, CL_COMMAND_COPY_BUFFER_RECT, command_queue->device->ops->copy,
                           src_buffer, NULL, &s, dst_buffer, NULL, &d,
                           region, false, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ---------------------------------------------------------------------- */

cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                    size_t offset, size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(command_queue)) || (err = check_buffer(command_queue, buffer)) ||
        (err = mosaic_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list)))
        return err;
    if (!pattern)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pattern is NULL");
    if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pattern_size %zu is not 1, 2, 4, ..., 128", pattern_size);
    if (offset % pattern_size || size % pattern_size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "offset %zu or size %zu is not a multiple of pattern_size %zu",
                            offset, size, pattern_size);
    if (offset > buffer->size || size > buffer->size - offset)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "(offset %zu, size %zu) is outside the %zu-byte buffer",
                            offset, size, buffer->size);
    if ((err = mosaic_mem_check_alignment(buffer, command_queue->device)))
        return err;
    mosaic_fill *f = mosaic_calloc(1, sizeof *f);
    if (f) {
        f->mem = buffer;
        mosaic_retain_internal(buffer);
        f->offset = offset;
        f->size = size;
        f->pattern_size = pattern_size;
        memcpy(f->pattern, pattern, pattern_size); /* the user may reuse pattern at once */
    }
    return mosaic_submit_command(command_queue, CL_COMMAND_FILL_BUFFER, f, command_queue->device->ops->fill, cleanup_fill, false,
                  num_events_in_wait_list, event_wait_list, event);
}

/* ---- map and unmap ---------------------------------------------------------------- */

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

static void remove_mapping(cl_mem mem, mosaic_mapping *m)
{
    pthread_mutex_lock(&mem->lock);
    for (mosaic_mapping **p = &mem->mappings; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            atomic_fetch_sub(&mem->map_count, 1);
            break;
        }
    pthread_mutex_unlock(&mem->lock);
    free(m);
}

void *mosaic_enqueue_map(cl_command_queue queue, cl_mem mem, cl_command_type type, bool blocking,
                         cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
                         const cl_event *wait_list, cl_event *event, cl_int *errcode_ret)
{
    cl_int err;
    /* Where the host will see the region: the device says (the CPU: the
     * object's own bytes, zero copy). */
    cl_device_id device = queue->device;
    void *pointer = device->ops->map_address(device, mem, offset, size, map_flags);
    if (!pointer) {
        err = MOSAIC_ERROR(CL_MAP_FAILURE, "the device cannot map %zu bytes of the memory object", size);
        goto fail;
    }
    mosaic_mapping *m = mosaic_calloc(1, sizeof *m);
    mosaic_map *payload = map_new(mem, pointer, offset, size, map_flags);
    if (!m || !payload) {
        free(m);
        if (payload)
            cleanup_map(&(struct _cl_event){ .payload = payload });
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    m->pointer = pointer;
    m->offset = offset;
    m->size = size;
    m->flags = map_flags;
    /* Recorded now, so the pointer can be unmapped by a command enqueued
     * right after this one, before the map has run. */
    pthread_mutex_lock(&mem->lock);
    m->next = mem->mappings;
    mem->mappings = m;
    atomic_fetch_add(&mem->map_count, 1);
    pthread_mutex_unlock(&mem->lock);

    err = mosaic_submit_command(queue, type, payload, device->ops->map, cleanup_map, blocking, num_events, wait_list,
                                event);
    if (err != CL_SUCCESS) {
        remove_mapping(mem, m); /* the map did not happen (or failed: a blocking map returns NULL) */
        goto fail;
    }
    mosaic_set_error(errcode_ret, err);
    return pointer;
fail:
    mosaic_set_error(errcode_ret, err);
    return NULL;
}

void *CL_API_CALL
clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map, cl_map_flags map_flags,
                   size_t offset, size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event, cl_int *errcode_ret)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(command_queue)) || (err = check_buffer(command_queue, buffer)) ||
        (err = mosaic_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list)))
        goto fail;
    if ((map_flags & ~(cl_map_flags)MAP_FLAGS) ||
        ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx", (unsigned long long)map_flags);
        goto fail;
    }
    if (!range_ok(offset, size, buffer->size)) {
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "(offset %zu, size %zu) is empty or outside the %zu-byte buffer",
                           offset, size, buffer->size);
        goto fail;
    }
    if (((map_flags & CL_MAP_READ) && !mosaic_mem_host_can_read(buffer)) ||
        ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !mosaic_mem_host_can_write(buffer))) {
        err = MOSAIC_ERROR(CL_INVALID_OPERATION, "map_flags conflict with the buffer's CL_MEM_HOST_* flags");
        goto fail;
    }
    if ((err = mosaic_mem_check_alignment(buffer, command_queue->device)))
        goto fail;

    return mosaic_enqueue_map(command_queue, buffer, CL_COMMAND_MAP_BUFFER, blocking_map, map_flags, offset, size,
                              num_events_in_wait_list, event_wait_list, event, errcode_ret);
fail:
    mosaic_set_error(errcode_ret, err);
    return NULL;
}

cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(command_queue)))
        return err;
    MOSAIC_CHECK_HANDLE(memobj, MEM);
    if (memobj->context != command_queue->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the memory object and the queue belong to different contexts");
    if ((err = mosaic_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list)))
        return err;

    /* Take the mapping out now: a second unmap of the same pointer (mapped
     * once) is refused even before the first has run. */
    mosaic_mapping *found = NULL;
    pthread_mutex_lock(&memobj->lock);
    for (mosaic_mapping **p = &memobj->mappings; *p; p = &(*p)->next)
        if ((*p)->pointer == mapped_ptr) {
            found = *p;
            *p = found->next;
            atomic_fetch_sub(&memobj->map_count, 1);
            break;
        }
    pthread_mutex_unlock(&memobj->lock);
    if (!found)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%p is not a pointer mapped from this memory object", mapped_ptr);

    mosaic_map *payload = map_new(memobj, found->pointer, found->offset, found->size, found->flags);
    err = mosaic_submit_command(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, payload, command_queue->device->ops->unmap,
                 cleanup_map, false, num_events_in_wait_list, event_wait_list, event);
    if (err != CL_SUCCESS) { /* not unmapped after all */
        pthread_mutex_lock(&memobj->lock);
        found->next = memobj->mappings;
        memobj->mappings = found;
        atomic_fetch_add(&memobj->map_count, 1);
        pthread_mutex_unlock(&memobj->lock);
        return err;
    }
    free(found);
    return err;
}

/* ---- migration ---------------------------------------------------------------------- */

cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
                           cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    if ((err = mosaic_check_host_queue(command_queue)))
        return err;
    if (num_mem_objects == 0 || !mem_objects)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "no memory objects given");
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!MOSAIC_IS(mem_objects[i], MEM))
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "mem_objects[%u] is not a valid memory object", i);
        if (mem_objects[i]->context != command_queue->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "mem_objects[%u] belongs to another context", i);
    }
    if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "invalid migration flags 0x%llx", (unsigned long long)flags);
    if ((err = mosaic_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list)))
        return err;
    /* What moves (on the CPU: nothing) is the device's business. */
    mosaic_migration *m = mosaic_calloc(1, sizeof *m + num_mem_objects * sizeof m->mems[0]);
    if (m) {
        m->flags = flags;
        m->count = num_mem_objects;
        for (cl_uint i = 0; i < num_mem_objects; i++) {
            m->mems[i] = mem_objects[i];
            mosaic_retain_internal(mem_objects[i]);
        }
    }
    return mosaic_submit_command(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, m, command_queue->device->ops->migrate,
                  cleanup_migration, false, num_events_in_wait_list, event_wait_list, event);
}
