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

/* ---- kernel launches (api/enqueue_kernel.c) ---- */

/* CL_INVALID_COMMAND_QUEUE unless `queue` is a valid host queue,
 * CL_INVALID_KERNEL unless `kernel` is a kernel, CL_INVALID_CONTEXT unless
 * both are of one context. */
cl_int mosaic_check_queue_and_kernel(cl_command_queue queue, cl_kernel kernel);

/* A launch of `kernel` on `queue`'s device, checked as clEnqueueNDRangeKernel
 * checks it (the same codes), with the kernel's current arguments captured
 * and held, and the device's code for its shape (ops->prepare_launch): what
 * a kernel command's payload is.  The device only reads it, so one prepared
 * launch may be run by many commands (a command buffer's replays);
 * mosaic_free_ndrange drops its holds.  With `out` NULL, only the checks
 * that need no argument values (a command buffer's kernel whose arguments
 * come later). */
cl_int mosaic_prepare_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t *global_work_offset, const size_t *global_work_size,
                              const size_t *local_work_size, mosaic_ndrange **out);
void mosaic_free_ndrange(mosaic_ndrange *nd);

/* ---- recording (api/command_buffer.c) ---- */

/* A command built by a clEnqueue* function but not enqueued: what a command
 * buffer keeps of it.  While `mosaic_recording` is set on a thread (by
 * clCommand*KHR, around its call of the matching clEnqueue* function, which
 * checks the arguments with its own codes), mosaic_submit_command and the
 * SVM commands store their command there instead of enqueuing it. */
typedef struct mosaic_recorded_command {
    cl_command_type type;
    void *payload;
    cl_int (*run)(cl_event);
    void (*cleanup)(cl_event); /* drops the payload's holds (called with an event whose payload it is) */
} mosaic_recorded_command;
extern _Thread_local mosaic_recorded_command *mosaic_recording;

/* Stores a command in *mosaic_recording (a NULL payload: CL_OUT_OF_HOST_MEMORY). */
cl_int mosaic_record_command(cl_command_type type, void *payload, cl_int (*run)(cl_event), void (*cleanup)(cl_event));

#endif
