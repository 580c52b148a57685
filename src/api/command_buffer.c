/*
 * cl_khr_command_buffer (0.9.8) and cl_khr_command_buffer_mutable_dispatch
 * (0.9.5): commands recorded once and replayed many times (docs/command-buffers.md).
 *
 * Recording does all the work of an enqueue but the enqueue itself: each
 * clCommand*KHR calls the matching clEnqueue* function on the buffer's queue
 * with `mosaic_recording` set (api/enqueue.h), so the arguments are checked
 * with that function's codes and the command's payload is built (buffers
 * held, rectangles resolved, a fill's pattern copied); a kernel command is a
 * launch prepared once (mosaic_prepare_ndrange: the range checked, the
 * arguments captured, the device's code for its shape chosen).  A replay
 * (clEnqueueCommandBufferKHR) checks nothing per command: it makes one
 * engine command per recorded one, pointing at the recorded payload (the
 * device only reads it, so replays in flight at once share it), plus one
 * CL_COMMAND_COMMAND_BUFFER_KHR marker that completes after them all.
 *
 * Order inside a replay: on an in-order queue the commands run in recording
 * order, which satisfies every sync point; on an out-of-order queue each
 * waits for its sync points and for the last barrier recorded before it
 * (a barrier with no list waits for everything before it), and the first
 * ones for the replay's wait list.
 *
 * Locks: `lock` guards recording, finalization, updates and the reading of
 * payloads by a replay; the engine's lock is taken under it (never the
 * other way round).  A replayed command holds the buffer (event->owner)
 * until its cleanup, so a payload lives while any command uses it; a kernel
 * launch an update replaces is kept until no replayed command is left.
 */
/* The 2023 CL/cl_ext.h declares the clCommand*KHR functions of version
 * 0.9.4, whose arguments differ from 0.9.8's, defined here. */
#define CL_NO_PROTOTYPES
#include "api/command_buffer.h"
#include "api/enqueue.h"
#include "api/entry.h"
#include "core/engine.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

_Thread_local mosaic_recorded_command *mosaic_recording;

cl_int mosaic_record_command(cl_command_type type, void *payload, cl_int (*run)(cl_event), void (*cleanup)(cl_event))
{
    if (!payload)
        return CL_OUT_OF_HOST_MEMORY;
    *mosaic_recording = (mosaic_recorded_command){ type, payload, run, cleanup };
    return CL_SUCCESS;
}

typedef struct recorded {
    mosaic_recorded_command cmd;  /* a kernel's payload is a mosaic_ndrange */
    cl_uint *deps, num_deps;      /* earlier commands it waits for on an out-of-order queue */
    cl_mutable_command_khr handle; /* a kernel recorded with a mutable handle, or NULL */
} recorded;

struct _cl_command_buffer_khr {
    MOSAIC_OBJECT_HEADER;
    cl_command_queue queue;       /* internal hold */
    cl_context context;
    cl_command_buffer_properties_khr *properties; /* as given (0-terminated), or NULL */
    size_t num_properties;
    cl_command_buffer_flags_khr flags;
    cl_mutable_dispatch_asserts_khr asserts;
    pthread_mutex_t lock;
    bool finalized;
    recorded *commands;
    cl_uint num_commands, cap_commands;
    cl_uint last_barrier;         /* 1 + its index; 0: none */
    cl_uint num_unset;            /* kernels whose arguments are not all set yet (their payload NULL):
                                     finalized, the buffer is not executable until updates set them */
    mosaic_ndrange **retired;     /* launches updates replaced, freed once no replayed command is left */
    size_t num_retired, cap_retired;
    atomic_size_t replaying;      /* replayed commands not cleaned up yet */
};

struct _cl_mutable_command_khr {
    MOSAIC_OBJECT_HEADER;
    cl_command_buffer_khr buffer; /* not held: a handle lives as long as its buffer */
    cl_uint index;                /* its command in buffer->commands */
    cl_kernel kernel;             /* the application's (internal hold): CL_MUTABLE_DISPATCH_KERNEL_KHR */
    cl_kernel args;               /* a clone holding the command's own arguments (mutable buffers) */
    cl_mutable_dispatch_fields_khr fields;
    cl_mutable_dispatch_asserts_khr asserts;
    cl_command_properties_khr *properties; /* as given (0-terminated), or NULL */
    size_t num_properties;
    cl_uint work_dim;
    size_t offset[3], global[3], local[3]; /* as given (0s where NULL) */
    bool has_local;
};

/* ---- lifetime ------------------------------------------------------------------ */

/* Drops what a recorded payload holds (its cleanup reads it from an event). */
static void free_payload(const mosaic_recorded_command *c)
{
    if (c->payload && c->cleanup) {
        struct _cl_event tmp = { .payload = c->payload };
        c->cleanup(&tmp);
    }
}

static void cleanup_launch(cl_event e)
{
    mosaic_free_ndrange(e->payload);
    e->payload = NULL;
}

static void free_retired_locked(cl_command_buffer_khr cb)
{
    for (size_t i = 0; i < cb->num_retired; i++)
        mosaic_free_ndrange(cb->retired[i]);
    cb->num_retired = 0;
}

static void free_handle(cl_mutable_command_khr m)
{
    if (m->args)
        mosaic_release(m->args);
    mosaic_release_internal(m->kernel);
    free(m->properties);
    m->obj.type = MOSAIC_DEAD;
    free(m);
}

static void destroy_command_buffer(void *p)
{
    cl_command_buffer_khr cb = p;
    for (cl_uint i = 0; i < cb->num_commands; i++) {
        recorded *r = &cb->commands[i];
        free_payload(&r->cmd);
        free(r->deps);
        if (r->handle)
            free_handle(r->handle);
    }
    free(cb->commands);
    free_retired_locked(cb);
    free(cb->retired);
    free(cb->properties);
    pthread_mutex_destroy(&cb->lock);
    mosaic_release_internal(cb->queue);
    free(cb);
}

/* A 0-terminated list of property pairs: its length with the 0 (0 for
 * NULL), and a copy of it (NULL for NULL). */
static cl_int copy_properties(const cl_properties *list, cl_properties **copy, size_t *count)
{
    size_t n = 0;
    if (list) {
        while (list[n])
            n += 2;
        n++;
    }
    *count = n;
    *copy = NULL;
    if (!list)
        return CL_SUCCESS;
    if (!(*copy = malloc(n * sizeof **copy)))
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(*copy, list, n * sizeof **copy);
    return CL_SUCCESS;
}

/* CL_COMMAND_BUFFER_FLAGS_KHR bits: the ones Mosaic takes, and the one of
 * cl_khr_command_buffer_multi_device (valid, not supported). */
#define KNOWN_FLAGS (CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR)
#define DEVICE_SIDE_SYNC_FLAG ((cl_command_buffer_flags_khr)1 << 2)

static cl_int buffer_properties(const cl_command_buffer_properties_khr *properties, cl_command_buffer_flags_khr *flags,
                                cl_mutable_dispatch_asserts_khr *asserts)
{
    bool seen_flags = false, seen_asserts = false;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        cl_properties name = properties[i], value = properties[i + 1];
        if (name == CL_COMMAND_BUFFER_FLAGS_KHR && !seen_flags) {
            seen_flags = true;
            *flags = value;
            if (value & ~(cl_properties)(KNOWN_FLAGS | DEVICE_SIDE_SYNC_FLAG))
                return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown CL_COMMAND_BUFFER_FLAGS_KHR bits in 0x%llx",
                                    (unsigned long long)value);
            if (value & DEVICE_SIDE_SYNC_FLAG)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR belongs to "
                                    "cl_khr_command_buffer_multi_device, which Mosaic does not report");
        } else if (name == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR && !seen_asserts) {
            seen_asserts = true;
            *asserts = value;
            if (value & ~(cl_properties)CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)
                return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR bits");
        } else {
            return MOSAIC_ERROR(CL_INVALID_VALUE, "property 0x%llx is unknown or given twice",
                                (unsigned long long)name);
        }
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_command_buffer_khr CL_API_CALL
clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                         const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret)
{
    cl_int err;
    cl_command_buffer_flags_khr flags = 0;
    cl_mutable_dispatch_asserts_khr asserts = 0;
    if (num_queues != 1) /* one device a context: no cl_khr_command_buffer_multi_device */
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "num_queues is %u; a command buffer takes one queue", num_queues);
    else if (!queues)
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "queues is NULL");
    else if ((err = mosaic_check_host_queue(queues[0])) == CL_SUCCESS)
        err = buffer_properties(properties, &flags, &asserts);
    cl_command_buffer_khr cb = NULL;
    if (err == CL_SUCCESS && !(cb = mosaic_calloc(1, sizeof *cb)))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS && (err = copy_properties(properties, &cb->properties, &cb->num_properties)) != CL_SUCCESS)
        free(cb);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    cl_command_queue queue = queues[0];
    mosaic_object_init(cb, MOSAIC_COMMAND_BUFFER, queue->dispatch, destroy_command_buffer);
    cb->queue = queue;
    mosaic_retain_internal(queue);
    cb->context = queue->context;
    cb->flags = flags;
    cb->asserts = asserts;
    pthread_mutex_init(&cb->lock, NULL);
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return cb;
}

MOSAIC_RETAIN_RELEASE(CommandBufferKHR, cl_command_buffer_khr, COMMAND_BUFFER)

CL_API_ENTRY cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer)
{
    MOSAIC_CHECK_HANDLE(command_buffer, COMMAND_BUFFER);
    pthread_mutex_lock(&command_buffer->lock);
    bool was = command_buffer->finalized;
    command_buffer->finalized = true;
    pthread_mutex_unlock(&command_buffer->lock);
    return was ? MOSAIC_ERROR(CL_INVALID_OPERATION, "the command buffer is finalized already") : CL_SUCCESS;
}

/* ---- recording ------------------------------------------------------------------ */

/* The checks every clCommand*KHR starts with; on success the buffer's lock
 * is held (end_record releases it). */
static cl_int begin_record(cl_command_buffer_khr cb, cl_command_queue queue, cl_uint num_sync_points,
                           const cl_sync_point_khr *sync_points)
{
    MOSAIC_CHECK_HANDLE(cb, COMMAND_BUFFER);
    if (queue)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue must be NULL (the buffer's own queue is used)");
    if ((num_sync_points == 0) != (sync_points == NULL))
        return MOSAIC_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR, "num_sync_points_in_wait_list (%u) and "
                            "sync_point_wait_list (%p) disagree", num_sync_points, (const void *)sync_points);
    pthread_mutex_lock(&cb->lock);
    cl_int err = CL_SUCCESS;
    if (cb->finalized)
        err = MOSAIC_ERROR(CL_INVALID_OPERATION, "the command buffer is finalized: nothing more can be recorded");
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_sync_points; i++)
        if (sync_points[i] == 0 || sync_points[i] > cb->num_commands)
            err = MOSAIC_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR, "sync_point_wait_list[%u] (%u) is not a sync "
                               "point of this command buffer", i, sync_points[i]);
    if (err != CL_SUCCESS)
        pthread_mutex_unlock(&cb->lock);
    return err;
}

/* For the commands that define no property and no mutable handle. */
static cl_int check_plain(const cl_command_properties_khr *properties, cl_mutable_command_khr *mutable_handle)
{
    if (properties && properties[0])
        return MOSAIC_ERROR(CL_INVALID_VALUE, "property 0x%llx is not one of this command's",
                            (unsigned long long)properties[0]);
    if (mutable_handle)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "mutable_handle must be NULL: only kernel commands are mutable");
    return CL_SUCCESS;
}

/* Appends the command `c` (when err is CL_SUCCESS; else frees its payload
 * and handle), with its dependencies: the sync points given (sync point k
 * is command k - 1), the last barrier, and for a barrier without a list
 * every command since the last one.  Releases the lock begin_record took. */
static cl_int end_record(cl_command_buffer_khr cb, cl_int err, const mosaic_recorded_command *c, bool is_barrier,
                         cl_uint num_sync_points, const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
                         cl_mutable_command_khr handle)
{
    recorded r = { .cmd = *c, .handle = handle };
    if (err == CL_SUCCESS && cb->num_commands == cb->cap_commands) {
        cl_uint cap = cb->cap_commands ? 2 * cb->cap_commands : 16;
        recorded *grown = realloc(cb->commands, cap * sizeof *grown);
        if (grown) {
            cb->commands = grown;
            cb->cap_commands = cap;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    cl_uint index = cb->num_commands;
    bool all_since_barrier = is_barrier && num_sync_points == 0;
    cl_uint first = cb->last_barrier; /* the first command after the last barrier */
    size_t max_deps = num_sync_points + 1 + (all_since_barrier ? index - first : 0);
    if (err == CL_SUCCESS && !(r.deps = malloc(max_deps * sizeof *r.deps)))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        pthread_mutex_unlock(&cb->lock);
        free_payload(c);
        if (handle)
            free_handle(handle);
        return err;
    }
    for (cl_uint i = 0; i < num_sync_points; i++)
        r.deps[r.num_deps++] = sync_points[i] - 1;
    if (cb->last_barrier)
        r.deps[r.num_deps++] = cb->last_barrier - 1;
    for (cl_uint i = first; all_since_barrier && i < index; i++)
        r.deps[r.num_deps++] = i;
    if (is_barrier)
        cb->last_barrier = index + 1;
    if (handle)
        handle->index = index;
    if (c->type == CL_COMMAND_NDRANGE_KERNEL && !c->payload)
        cb->num_unset++; /* arguments to come */
    cb->commands[cb->num_commands++] = r;
    pthread_mutex_unlock(&cb->lock);
    if (sync_point)
        *sync_point = index + 1;
    return CL_SUCCESS;
}

/* Records what the clEnqueue* call `call` (on the buffer's queue, with no
 * wait list) builds, after the checks of begin_record. */
#define RECORD(cb, queue, properties, mutable_handle, nsync, sync_list, sync_point, call)      \
    do {                                                                                       \
        cl_int err_ = check_plain((properties), (mutable_handle));                             \
        if (err_ == CL_SUCCESS)                                                                \
            err_ = begin_record((cb), (queue), (nsync), (sync_list));                          \
        if (err_ != CL_SUCCESS)                                                                \
            return err_;                                                                       \
        mosaic_recorded_command rec_ = { 0 };                                                  \
        mosaic_recording = &rec_;                                                              \
        err_ = (call);                                                                         \
        mosaic_recording = NULL;                                                               \
        if (err_ == CL_SUCCESS && !rec_.type) /* (every command checked builds one) */         \
            err_ = CL_OUT_OF_HOST_MEMORY;                                                      \
        return end_record((cb), err_, &rec_, false, (nsync), (sync_list), (sync_point), NULL); \
    } while (0)

CL_API_ENTRY cl_int CL_API_CALL
clCommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                const cl_command_properties_khr *properties, cl_uint num_sync_points_in_wait_list,
                                const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                                cl_mutable_command_khr *mutable_handle)
{
    cl_int err = check_plain(properties, mutable_handle);
    if (err == CL_SUCCESS)
        err = begin_record(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list);
    if (err != CL_SUCCESS)
        return err;
    mosaic_recorded_command barrier = { .type = CL_COMMAND_BARRIER }; /* no run: a synchronisation point */
    return end_record(command_buffer, CL_SUCCESS, &barrier, true, num_sync_points_in_wait_list, sync_point_wait_list,
                      sync_point, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandCopyBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                       const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
                       size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points_in_wait_list,
                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                       cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueCopyBuffer(command_buffer->queue, src_buffer, dst_buffer, src_offset, dst_offset, size, 0, NULL,
                               NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandCopyBufferRectKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                           const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
                           const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                           size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                           cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
                           cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueCopyBufferRect(command_buffer->queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
                                   src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, 0, NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandCopyBufferToImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                              const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_image,
                              size_t src_offset, const size_t *dst_origin, const size_t *region,
                              cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
                              cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueCopyBufferToImage(command_buffer->queue, src_buffer, dst_image, src_offset, dst_origin, region, 0,
                                      NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandCopyImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_image,
                      const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                      cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
                      cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueCopyImage(command_buffer->queue, src_image, dst_image, src_origin, dst_origin, region, 0, NULL,
                              NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandCopyImageToBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                              const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_buffer,
                              const size_t *src_origin, const size_t *region, size_t dst_offset,
                              cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
                              cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueCopyImageToBuffer(command_buffer->queue, src_image, dst_buffer, src_origin, region, dst_offset, 0,
                                      NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandFillBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                       const cl_command_properties_khr *properties, cl_mem buffer, const void *pattern,
                       size_t pattern_size, size_t offset, size_t size, cl_uint num_sync_points_in_wait_list,
                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                       cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueFillBuffer(command_buffer->queue, buffer, pattern, pattern_size, offset, size, 0, NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandFillImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      const cl_command_properties_khr *properties, cl_mem image, const void *fill_color,
                      const size_t *origin, const size_t *region, cl_uint num_sync_points_in_wait_list,
                      const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                      cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueFillImage(command_buffer->queue, image, fill_color, origin, region, 0, NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandSVMMemcpyKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      const cl_command_properties_khr *properties, void *dst_ptr, const void *src_ptr, size_t size,
                      cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
                      cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueSVMMemcpy(command_buffer->queue, CL_FALSE, dst_ptr, src_ptr, size, 0, NULL, NULL));
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandSVMMemFillKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                       const cl_command_properties_khr *properties, void *svm_ptr, const void *pattern,
                       size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
                       const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                       cl_mutable_command_khr *mutable_handle)
{
    RECORD(command_buffer, command_queue, properties, mutable_handle, num_sync_points_in_wait_list,
           sync_point_wait_list, sync_point,
           clEnqueueSVMMemFill(command_buffer->queue, svm_ptr, pattern, pattern_size, size, 0, NULL, NULL));
}

/* ---- kernels ----------------------------------------------------------------------- */

/* The properties of a kernel command (CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
 * CL_MUTABLE_DISPATCH_ASSERTS_KHR), each at most once. */
static cl_int kernel_properties(const cl_command_properties_khr *properties, cl_mutable_dispatch_fields_khr *fields,
                                cl_mutable_dispatch_asserts_khr *asserts)
{
    bool seen_fields = false, seen_asserts = false;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        cl_properties name = properties[i], value = properties[i + 1];
        if (name == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR && !seen_fields) {
            seen_fields = true;
            *fields = value;
            /* (every field there is, the device supports: no CL_INVALID_OPERATION for one it lacks) */
            if (value & ~(cl_properties)MOSAIC_MUTABLE_DISPATCH_CAPABILITIES)
                return MOSAIC_ERROR(CL_INVALID_VALUE, "CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR 0x%llx has bits of "
                                    "no field", (unsigned long long)value);
        } else if (name == CL_MUTABLE_DISPATCH_ASSERTS_KHR && !seen_asserts) {
            seen_asserts = true;
            *asserts = value;
            if (value & ~(cl_properties)CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)
                return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown CL_MUTABLE_DISPATCH_ASSERTS_KHR bits");
        } else {
            return MOSAIC_ERROR(CL_INVALID_VALUE, "property 0x%llx is unknown or given twice",
                                (unsigned long long)name);
        }
    }
    return CL_SUCCESS;
}

/* Whether every argument of `kernel` is set. */
static bool arguments_set(cl_kernel kernel)
{
    for (cl_uint i = 0; i < kernel->info->num_args; i++)
        if (!kernel->args[i].set)
            return false;
    return true;
}

/* What a mutable handle remembers of a launch's shape, as given. */
static void keep_shape(cl_mutable_command_khr m, cl_uint work_dim, const size_t *offset, const size_t *global,
                       const size_t *local)
{
    m->work_dim = work_dim;
    for (cl_uint d = 0; d < 3; d++) {
        m->offset[d] = offset && d < work_dim ? offset[d] : 0;
        m->global[d] = global && d < work_dim ? global[d] : 0;
        m->local[d] = local && d < work_dim ? local[d] : 0;
    }
    m->has_local = local != NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clCommandNDRangeKernelKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const cl_command_properties_khr *properties, cl_kernel kernel, cl_uint work_dim,
                          const size_t *global_work_offset, const size_t *global_work_size,
                          const size_t *local_work_size, cl_uint num_sync_points_in_wait_list,
                          const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
                          cl_mutable_command_khr *mutable_handle)
{
    /* without CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, every field the device reports */
    cl_mutable_dispatch_fields_khr fields = MOSAIC_MUTABLE_DISPATCH_CAPABILITIES;
    cl_mutable_dispatch_asserts_khr asserts = 0;
    cl_int err = kernel_properties(properties, &fields, &asserts);
    if (err == CL_SUCCESS)
        err = begin_record(command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list);
    if (err != CL_SUCCESS)
        return err;
    cl_command_buffer_khr cb = command_buffer;
    err = mosaic_check_queue_and_kernel(cb->queue, kernel);
    if (err == CL_SUCCESS && ((asserts | cb->asserts) & CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR) &&
        !local_work_size)
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR needs a "
                           "local_work_size");
    cl_mutable_command_khr m = NULL;
    if (err == CL_SUCCESS && mutable_handle) {
        if (!(m = mosaic_calloc(1, sizeof *m)) ||
            copy_properties(properties, &m->properties, &m->num_properties) != CL_SUCCESS) {
            free(m);
            m = NULL;
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (m) {
        mosaic_object_init(m, MOSAIC_MUTABLE_COMMAND, cb->dispatch, NULL); /* freed with its buffer */
        m->buffer = cb;
        m->kernel = kernel;
        mosaic_retain_internal(kernel);
        m->fields = fields;
        m->asserts = asserts | cb->asserts;
        keep_shape(m, work_dim, global_work_offset, global_work_size, local_work_size);
        /* updates set arguments on a clone of the kernel: later clSetKernelArg calls on the
         * application's kernel do not reach the command, and an update's are checked as theirs are */
        if (cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR)
            m->args = clCloneKernel(kernel, &err);
    }
    /* a command whose arguments updates may set may be recorded before they are: no launch
     * until they are (only the range is checked now) */
    bool deferred = err == CL_SUCCESS && m && m->args && (fields & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR) &&
                    !arguments_set(m->args);
    mosaic_ndrange *nd = NULL;
    if (err == CL_SUCCESS)
        err = mosaic_prepare_ndrange(cb->queue, m && m->args ? m->args : kernel, work_dim, global_work_offset,
                                     global_work_size, local_work_size, deferred ? NULL : &nd);
    mosaic_recorded_command launch = { CL_COMMAND_NDRANGE_KERNEL, nd, NULL, cleanup_launch };
    err = end_record(cb, err, &launch, false, num_sync_points_in_wait_list, sync_point_wait_list, sync_point, m);
    if (err == CL_SUCCESS && mutable_handle)
        *mutable_handle = m;
    return err;
}

/* ---- replay ------------------------------------------------------------------------ */

/* The cleanup of a replayed command: its payload is the buffer's. */
static void replayed(cl_event e)
{
    cl_command_buffer_khr cb = e->owner;
    e->payload = NULL;
    atomic_fetch_sub(&cb->replaying, 1);
    mosaic_release_internal(cb);
}

static cl_int check_replay_queue(cl_command_buffer_khr cb, cl_command_queue q)
{
    cl_int err = mosaic_check_host_queue(q);
    if (err != CL_SUCCESS)
        return err;
    cl_command_queue_properties props = q->properties;
    if ((props & ~MOSAIC_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES) ||
        (props & MOSAIC_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES) != MOSAIC_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES)
        return MOSAIC_ERROR(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR, "the queue's properties 0x%llx are not ones a command "
                            "buffer runs with", (unsigned long long)props);
    if (q->device != cb->queue->device)
        return MOSAIC_ERROR(CL_INVALID_DEVICE, "the queue's device is not the command buffer's");
    if (q->context != cb->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the queue's context is not the command buffer's");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues, cl_command_buffer_khr command_buffer,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    MOSAIC_CHECK_HANDLE(command_buffer, COMMAND_BUFFER);
    cl_command_buffer_khr cb = command_buffer;
    if ((queues == NULL) != (num_queues == 0))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_queues (%u) and queues (%p) disagree", num_queues, (void *)queues);
    if (num_queues > 1)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_queues is %u; the command buffer was made with one", num_queues);
    cl_command_queue q = queues ? queues[0] : cb->queue;
    cl_int err = queues ? check_replay_queue(cb, q) : CL_SUCCESS;
    if (err == CL_SUCCESS)
        err = mosaic_check_wait_list(cb->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;

    pthread_mutex_lock(&cb->lock);
    if (!cb->finalized || cb->num_unset) {
        pthread_mutex_unlock(&cb->lock);
        return MOSAIC_ERROR(CL_INVALID_OPERATION, cb->finalized ? "a kernel of the command buffer has arguments "
                            "not set yet" : "the command buffer is not finalized");
    }
    cl_uint n = cb->num_commands;
    /* (clSetCommandQueueProperty may make it in-order meanwhile: the sync points are then
     * more than kept) */
    bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event *events = NULL, small_events[64];
    cl_event *waits = NULL, small_waits[64];
    if (!in_order) {
        size_t max_deps = num_events_in_wait_list;
        for (cl_uint i = 0; i < n; i++)
            max_deps = cb->commands[i].num_deps > max_deps ? cb->commands[i].num_deps : max_deps;
        events = n <= 64 ? small_events : malloc(n * sizeof *events);
        waits = max_deps <= 64 ? small_waits : malloc(max_deps * sizeof *waits);
        if (!events || !waits) {
            pthread_mutex_unlock(&cb->lock);
            if (events != small_events)
                free(events);
            if (waits != small_waits)
                free(waits);
            return CL_OUT_OF_HOST_MEMORY;
        }
    }
    cl_uint made = 0;
    for (; made < n && err == CL_SUCCESS; made++) {
        const recorded *r = &cb->commands[made];
        cl_event e = mosaic_command_new(q, r->cmd.type);
        if (!e) {
            err = CL_OUT_OF_HOST_MEMORY;
            break;
        }
        e->run = r->cmd.run;
        e->payload = r->cmd.payload;
        e->owner = cb;
        e->cleanup = replayed;
        mosaic_retain_internal(cb);
        atomic_fetch_add(&cb->replaying, 1);
        if (in_order) { /* the queue's order keeps every sync point; the first waits for the wait list */
            err = mosaic_command_enqueue(e, made ? 0 : num_events_in_wait_list, made ? NULL : event_wait_list, NULL,
                                         false);
            continue;
        }
        cl_uint nw = 0;
        for (cl_uint k = 0; k < r->num_deps; k++)
            waits[nw++] = events[r->deps[k]];
        if (nw == 0) /* the commands that wait for no other of the replay wait for its wait list */
            for (cl_uint k = 0; k < num_events_in_wait_list; k++)
                waits[nw++] = event_wait_list[k];
        err = mosaic_command_enqueue(e, nw, nw ? waits : NULL, &events[made], false);
    }
    pthread_mutex_unlock(&cb->lock);

    /* the replay's event: complete once every command is */
    if (err == CL_SUCCESS) {
        cl_event done = mosaic_command_new(q, CL_COMMAND_COMMAND_BUFFER_KHR);
        if (!done)
            err = CL_OUT_OF_HOST_MEMORY;
        else if (in_order || n == 0)
            err = mosaic_command_enqueue(done, n ? 0 : num_events_in_wait_list, n ? NULL : event_wait_list, event,
                                         false);
        else
            err = mosaic_command_enqueue(done, n, events, event, false);
    }
    for (cl_uint i = 0; !in_order && i < made; i++)
        mosaic_release(events[i]);
    if (events != small_events)
        free(events);
    if (waits != small_waits)
        free(waits);
    return err;
}

/* ---- queries ----------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name,
                          size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(command_buffer, COMMAND_BUFFER);
    cl_command_buffer_khr cb = command_buffer;
    switch (param_name) {
    case CL_COMMAND_BUFFER_QUEUES_KHR:
        MOSAIC_INFO_ARRAY(&cb->queue, 1);
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
        MOSAIC_INFO_SCALAR(cl_uint, 1);
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
        MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(cb));
    case CL_COMMAND_BUFFER_STATE_KHR: {
        pthread_mutex_lock(&cb->lock);
        cl_command_buffer_state_khr state = !cb->finalized ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
                                            : cb->num_unset ? CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
                                                            : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
        pthread_mutex_unlock(&cb->lock);
        MOSAIC_INFO_SCALAR(cl_command_buffer_state_khr, state);
    }
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
        MOSAIC_INFO_ARRAY(cb->properties, cb->num_properties);
    case CL_COMMAND_BUFFER_CONTEXT_KHR:
        MOSAIC_INFO_SCALAR(cl_context, cb->context);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* ---- mutable dispatch ------------------------------------------------------------ */

/* One config of an update, checked and built but not applied: a new clone
 * with the command's arguments, and the launch prepared from it. */
typedef struct staged {
    cl_mutable_command_khr m; /* NULL: superseded by a later config for the same command */
    cl_kernel args;
    mosaic_ndrange *nd;
    cl_uint work_dim;
    size_t offset[3], global[3], local[3];
    bool has_local;
} staged;

static void unstage(staged *s)
{
    if (s->args)
        mosaic_release(s->args);
    if (s->nd)
        mosaic_free_ndrange(s->nd);
    s->args = NULL;
    s->nd = NULL;
    s->m = NULL;
}

/* The work-groups are all whole (no trailing smaller one in any dimension). */
static bool uniform(cl_uint work_dim, const size_t *global, const size_t *local, bool has_local)
{
    for (cl_uint d = 0; has_local && d < work_dim; d++)
        if (local[d] && global[d] % local[d]) /* (a zero local size is clEnqueueNDRangeKernel's error) */
            return false;
    return true; /* a local size the device chose divides the range */
}

#define NEEDS_FIELD(field, what)                                                                   \
    if (!(m->fields & (field)))                                                                     \
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "%s: the command was not recorded with %s", what, #field)

/* Checks config `c` (the i-th) and builds its staged state into st[i],
 * from the command's current state or from an earlier config's for it. */
static cl_int stage(cl_command_buffer_khr cb, const cl_mutable_dispatch_config_khr *c, staged *st, cl_uint i)
{
    cl_mutable_command_khr m = c->command;
    if (!MOSAIC_IS(m, MUTABLE_COMMAND) || m->buffer != cb)
        return MOSAIC_ERROR(CL_INVALID_MUTABLE_COMMAND_KHR, "configs[%u].command is not a mutable command of this "
                            "command buffer", i);
    if ((c->num_args == 0) != (c->arg_list == NULL) || (c->num_svm_args == 0) != (c->arg_svm_list == NULL) ||
        (c->num_exec_infos == 0) != (c->exec_info_list == NULL))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "configs[%u]: a list and its count disagree", i);
    if (c->global_work_offset)
        NEEDS_FIELD(CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, "global_work_offset");
    if (c->global_work_size)
        NEEDS_FIELD(CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, "global_work_size");
    if (c->local_work_size)
        NEEDS_FIELD(CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR, "local_work_size");
    if (c->num_args || c->num_svm_args)
        NEEDS_FIELD(CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, "arguments");
    if (c->num_exec_infos)
        NEEDS_FIELD(CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, "exec_info_list");

    staged *base = NULL, *s = &st[i];
    for (cl_uint j = 0; j < i; j++)
        if (st[j].m == m)
            base = &st[j];
    s->work_dim = base ? base->work_dim : m->work_dim;
    s->has_local = base ? base->has_local : m->has_local;
    for (cl_uint d = 0; d < 3; d++) {
        s->offset[d] = base ? base->offset[d] : m->offset[d];
        s->global[d] = base ? base->global[d] : m->global[d];
        s->local[d] = base ? base->local[d] : m->local[d];
    }
    if (c->work_dim && c->work_dim != s->work_dim)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "configs[%u].work_dim %u is not the command's %u", i, c->work_dim,
                            s->work_dim);
    cl_uint wd = s->work_dim;
    bool was_uniform = uniform(wd, s->global, s->local, s->has_local);
    if (c->global_work_offset)
        memcpy(s->offset, c->global_work_offset, wd * sizeof(size_t));
    if (c->global_work_size)
        memcpy(s->global, c->global_work_size, wd * sizeof(size_t));
    if (c->local_work_size) {
        memcpy(s->local, c->local_work_size, wd * sizeof(size_t));
        s->has_local = true;
    }
    if ((c->global_work_size || c->local_work_size) && uniform(wd, s->global, s->local, s->has_local) != was_uniform)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "configs[%u] changes whether the work-groups are uniform", i);

    cl_int err;
    s->args = clCloneKernel(base ? base->args : m->args, &err);
    for (cl_uint k = 0; err == CL_SUCCESS && k < c->num_args; k++)
        err = clSetKernelArg(s->args, c->arg_list[k].arg_index, c->arg_list[k].arg_size, c->arg_list[k].arg_value);
    for (cl_uint k = 0; err == CL_SUCCESS && k < c->num_svm_args; k++)
        err = clSetKernelArgSVMPointer(s->args, c->arg_svm_list[k].arg_index, c->arg_svm_list[k].arg_value);
    for (cl_uint k = 0; err == CL_SUCCESS && k < c->num_exec_infos; k++)
        err = clSetKernelExecInfo(s->args, c->exec_info_list[k].param_name, c->exec_info_list[k].param_value_size,
                                  c->exec_info_list[k].param_value);
    /* (arguments still missing: the range is checked, the launch waits for a later update) */
    if (err == CL_SUCCESS)
        err = mosaic_prepare_ndrange(cb->queue, s->args, wd, s->offset, s->global, s->has_local ? s->local : NULL,
                                     arguments_set(s->args) ? &s->nd : NULL);
    if (err != CL_SUCCESS)
        return err;
    s->m = m;
    if (base) /* this config carries on from it */
        unstage(base);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clUpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer, cl_uint num_configs,
                           const cl_command_buffer_update_type_khr *config_types, const void **configs)
{
    MOSAIC_CHECK_HANDLE(command_buffer, COMMAND_BUFFER);
    cl_command_buffer_khr cb = command_buffer;
    if ((config_types == NULL) != (num_configs == 0) || (configs == NULL) != (num_configs == 0))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_configs (%u), config_types and configs disagree", num_configs);
    for (cl_uint i = 0; i < num_configs; i++) {
        if (config_types[i] != CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "config_types[%u] (%u) is not a type of update", i, config_types[i]);
        if (!configs[i])
            return MOSAIC_ERROR(CL_INVALID_VALUE, "configs[%u] is NULL", i);
    }
    if (!(cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR))
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the command buffer was not made with CL_COMMAND_BUFFER_MUTABLE_KHR");
    staged *st = mosaic_calloc(num_configs ? num_configs : 1, sizeof *st);
    if (!st)
        return CL_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&cb->lock);
    cl_int err = cb->finalized ? CL_SUCCESS
                               : MOSAIC_ERROR(CL_INVALID_OPERATION, "the command buffer is not finalized");
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_configs; i++)
        err = stage(cb, configs[i], st, i);
    /* room for the launches replaced, which replays in flight may still run */
    if (err == CL_SUCCESS && cb->num_retired + num_configs > cb->cap_retired) {
        size_t cap = cb->num_retired + num_configs + 8;
        mosaic_ndrange **grown = realloc(cb->retired, cap * sizeof *grown);
        if (grown) {
            cb->retired = grown;
            cb->cap_retired = cap;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (err != CL_SUCCESS) { /* none of the updates is kept */
        for (cl_uint i = 0; i < num_configs; i++)
            unstage(&st[i]);
    }
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_configs; i++) {
        staged *s = &st[i];
        cl_mutable_command_khr m = s->m;
        if (!m)
            continue;
        recorded *r = &cb->commands[m->index];
        if (r->cmd.payload)
            cb->retired[cb->num_retired++] = r->cmd.payload;
        else if (s->nd)
            cb->num_unset--; /* its last arguments came */
        r->cmd.payload = s->nd;
        mosaic_release(m->args);
        m->args = s->args;
        m->work_dim = s->work_dim;
        m->has_local = s->has_local;
        memcpy(m->offset, s->offset, sizeof m->offset);
        memcpy(m->global, s->global, sizeof m->global);
        memcpy(m->local, s->local, sizeof m->local);
    }
    if (atomic_load(&cb->replaying) == 0) /* (a replay enqueues under the lock) */
        free_retired_locked(cb);
    pthread_mutex_unlock(&cb->lock);
    free(st);
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMutableCommandInfoKHR(cl_mutable_command_khr command, cl_mutable_command_info_khr param_name,
                           size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(command, MUTABLE_COMMAND);
    cl_mutable_command_khr m = command;
    size_t shape[3];
    cl_uint work_dim;
    pthread_mutex_lock(&m->buffer->lock); /* updates change the shape */
    work_dim = m->work_dim;
    const size_t *from = param_name == CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR ? m->offset
                         : param_name == CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR ? m->global
                                                                                  : m->local;
    memcpy(shape, from, sizeof shape);
    pthread_mutex_unlock(&m->buffer->lock);
    switch (param_name) {
    case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
        MOSAIC_INFO_SCALAR(cl_command_queue, m->buffer->queue);
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
        MOSAIC_INFO_SCALAR(cl_command_buffer_khr, m->buffer);
    case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
        MOSAIC_INFO_SCALAR(cl_command_type, CL_COMMAND_NDRANGE_KERNEL);
    case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
        MOSAIC_INFO_ARRAY(m->properties, m->num_properties);
    case CL_MUTABLE_DISPATCH_KERNEL_KHR:
        MOSAIC_INFO_SCALAR(cl_kernel, m->kernel);
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
        MOSAIC_INFO_SCALAR(cl_uint, work_dim);
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
    case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
        MOSAIC_INFO_ARRAY(shape, work_dim);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* ---- the entry points by name --------------------------------------------------------- */

void *mosaic_command_buffer_function(const char *name)
{
#define ENTRY(f) { #f, (void *)f }
    static const struct { const char *name; void *address; } functions[] = {
        ENTRY(clCreateCommandBufferKHR),      ENTRY(clFinalizeCommandBufferKHR),
        ENTRY(clRetainCommandBufferKHR),      ENTRY(clReleaseCommandBufferKHR),
        ENTRY(clEnqueueCommandBufferKHR),     ENTRY(clCommandBarrierWithWaitListKHR),
        ENTRY(clCommandCopyBufferKHR),        ENTRY(clCommandCopyBufferRectKHR),
        ENTRY(clCommandCopyBufferToImageKHR), ENTRY(clCommandCopyImageKHR),
        ENTRY(clCommandCopyImageToBufferKHR), ENTRY(clCommandFillBufferKHR),
        ENTRY(clCommandFillImageKHR),         ENTRY(clCommandNDRangeKernelKHR),
        ENTRY(clCommandSVMMemcpyKHR),         ENTRY(clCommandSVMMemFillKHR),
        ENTRY(clGetCommandBufferInfoKHR),     ENTRY(clUpdateMutableCommandsKHR),
        ENTRY(clGetMutableCommandInfoKHR),
    };
#undef ENTRY
    for (size_t i = 0; name && i < sizeof functions / sizeof functions[0]; i++)
        if (strcmp(functions[i].name, name) == 0)
            return functions[i].address;
    return NULL;
}
