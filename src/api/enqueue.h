/* What the command entry points share (api/enqueue_memory.c): the queue
 * check, the hand-over of a command to the engine, transfers and maps.
 * The image commands (api/enqueue_image.c) are built from them. */
#ifndef MOSAIC_API_ENQUEUE_H
#define MOSAIC_API_ENQUEUE_H

#include "core/device.h"

/* CL_INVALID_COMMAND_QUEUE unless `queue` is a valid host queue. */
cl_int mosaic_check_host_queue(cl_command_queue queue);

/* Creates the command (payload, the device's op `run`, `cleanup` to drop the
 * payload's references once complete) and enqueues it; `run` NULL makes it
 * a synchronisation point.  If no command can be made, the payload is
 * cleaned up here.  A NULL payload is CL_OUT_OF_HOST_MEMORY (its allocation
 * failed). */
cl_int mosaic_submit_command(cl_command_queue queue, cl_command_type type, void *payload,
                             cl_int (*run)(cl_event), void (*cleanup)(cl_event), bool blocking,
                             cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* A mosaic_transfer command (ops->read, write or copy as `run`) between two
 * checked rectangles; it holds src->mem and dst->mem until it completes. */
cl_int mosaic_submit_transfer(cl_command_queue queue, cl_command_type type, cl_int (*run)(cl_event),
                              const mosaic_endpoint *src, const mosaic_endpoint *dst, const size_t *region,
                              bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* Maps [offset, offset + size) of mem (checked) for the host: asks the
 * device where (ops->map_address), records the mapping for
 * clEnqueueUnmapMemObject and enqueues the map command.  Returns the
 * pointer, or NULL with *errcode_ret set. */
void *mosaic_enqueue_map(cl_command_queue queue, cl_mem mem, cl_command_type type, bool blocking,
                         cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
                         const cl_event *wait_list, cl_event *event, cl_int *errcode_ret);

/* Rectangles of bytes: region {bytes per row, rows, slices}, rows
 * row_pitch and slices slice_pitch apart.
 *   mosaic_rect_end: one past the last byte of the rectangle whose first
 *     byte is `offset` bytes from its base, in *end; CL_INVALID_VALUE
 *     (naming `what`) when that does not fit in a size_t.
 *   mosaic_check_host_memory: CL_INVALID_VALUE (naming `what`) unless host
 *     memory [ptr + offset, ptr + end) can be the application's
 *     (mosaic_host_range_mapped, core/util.h): pitches or a pointer that
 *     would have a command read or write past the address space, or where
 *     nothing is mapped, are refused here, not met by the device. */
cl_int mosaic_rect_end(const char *what, size_t offset, const size_t *region, size_t row_pitch, size_t slice_pitch,
                       size_t *end);
cl_int mosaic_check_host_memory(const char *what, const void *ptr, size_t offset, size_t end);

#endif
