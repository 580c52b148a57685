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

#endif
