/* Command queues: clCreateCommandQueue[WithProperties], info, flush, finish,
 * and device queues (CL_QUEUE_ON_DEVICE: only kernels enqueue on them, see
 * docs/events.md) with the context's default one of each device.  The
 * priority and throttle hints (cl_khr_priority_hints, cl_khr_throttle_hints)
 * are checked and kept in the queue's property list; the CPU device runs
 * the commands of every queue alike (docs/events.md, "Queue hints"). */
#include "api/api.h"
#include "api/context.h"
#include "api/entry.h"
#include "core/engine.h"
#include "core/objects.h"
#include "core/trace.h"
#include "core/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const cl_command_queue_properties known_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
    CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
static const cl_command_queue_properties host_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

/* The entry of the context's default device queues for `device` (NULL if
 * the device is not the context's). */
static _Atomic(cl_command_queue) *default_slot(cl_context context, cl_device_id device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return &context->default_device_queues[i];
    return NULL;
}

static void destroy_queue(void *p)
{
    cl_command_queue q = p;
    if (q->properties & CL_QUEUE_ON_DEVICE) {
        mosaic_device_queue_unregister(q); /* kernels' queue_t values name it no more */
        cl_command_queue self = q;
        _Atomic(cl_command_queue) *slot = default_slot(q->context, q->device);
        if (slot) /* the context's default no more */
            atomic_compare_exchange_strong(slot, &self, NULL);
        if (!(q->properties & CL_QUEUE_ON_DEVICE_DEFAULT))
            atomic_fetch_sub(&q->context->num_device_queues, 1);
    }
    pthread_cond_destroy(&q->drained);
    mosaic_trace_queue_destroyed(q);
    free(q->property_list);
    mosaic_release_internal(q->context);
    free(q);
}

static cl_command_queue create_queue(cl_context context, cl_device_id device,
                                     cl_command_queue_properties properties, cl_uint size,
                                     const cl_queue_properties *list, size_t list_len, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (!MOSAIC_IS(device, DEVICE) || !mosaic_context_has_device(context, device)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE, "device is not a device of this context"));
        return NULL;
    }
    if (properties & ~known_properties) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "unknown queue property bits 0x%llx",
                                                   (unsigned long long)(properties & ~known_properties)));
        return NULL;
    }
    if ((properties & CL_QUEUE_ON_DEVICE_DEFAULT) && !(properties & CL_QUEUE_ON_DEVICE)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT needs CL_QUEUE_ON_DEVICE"));
        return NULL;
    }
    bool on_device = (properties & CL_QUEUE_ON_DEVICE) != 0;
    if (on_device && !device->max_on_device_queues) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                                                   "device-side queues are not supported by this device"));
        return NULL;
    }
    if (on_device && !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "a device queue must be out of order "
                                                   "(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)"));
        return NULL;
    }
    if (on_device && size > device->queue_on_device_max_size) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE %u exceeds "
                                                   "CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE (%u)", size,
                                                   device->queue_on_device_max_size));
        return NULL;
    }
    _Atomic(cl_command_queue) *slot = on_device ? default_slot(context, device) : NULL;
    if (properties & CL_QUEUE_ON_DEVICE_DEFAULT) {
        /* one default per device: asking again returns it, retained */
        cl_command_queue existing = atomic_load(slot);
        if (existing) {
            mosaic_retain(existing);
            mosaic_set_error(errcode_ret, CL_SUCCESS);
            return existing;
        }
    }
    /* CL_DEVICE_MAX_ON_DEVICE_QUEUES counts the queues besides the one made
     * as the default (the CTS's device_queue makes that many more) */
    bool counted = on_device && !(properties & CL_QUEUE_ON_DEVICE_DEFAULT);
    if (counted && atomic_fetch_add(&context->num_device_queues, 1) >= device->max_on_device_queues) {
        atomic_fetch_sub(&context->num_device_queues, 1);
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_OUT_OF_RESOURCES, "the context already has %u device queues "
                                                   "(CL_DEVICE_MAX_ON_DEVICE_QUEUES)", device->max_on_device_queues));
        return NULL;
    }
    cl_command_queue q = mosaic_calloc(1, sizeof *q);
    if (!q) {
        if (counted)
            atomic_fetch_sub(&context->num_device_queues, 1);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    if (list) {
        q->property_list = malloc(list_len * sizeof *list);
        if (!q->property_list) {
            free(q);
            if (counted)
                atomic_fetch_sub(&context->num_device_queues, 1);
            mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
            return NULL;
        }
        memcpy(q->property_list, list, list_len * sizeof *list);
        q->num_property_list = list_len;
    }
    mosaic_object_init(q, MOSAIC_QUEUE, &mosaic_dispatch, destroy_queue);
    pthread_cond_init(&q->drained, NULL);
    q->context = context;
    mosaic_retain_internal(context);
    q->device = device;
    q->properties = properties;
    if (on_device)
        q->size = size ? size : device->queue_on_device_preferred_size;
    else if (mosaic_tracing()) /* a host queue: a track of the timeline */
        mosaic_trace_queue_created(q);
    if (on_device && !mosaic_device_queue_register(q)) {
        mosaic_release(q);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    if (properties & CL_QUEUE_ON_DEVICE_DEFAULT) {
        cl_command_queue none = NULL;
        if (!atomic_compare_exchange_strong(slot, &none, q)) {
            /* another thread made the default first: return that one */
            mosaic_release(q);
            mosaic_retain(none);
            q = none;
        }
    }
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                     cl_int *errcode_ret)
{
    if (properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
        /* the 1.x entry point knows only the two host-queue bits */
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "invalid queue property bits"));
        return NULL;
    }
    return create_queue(context, device, properties, 0, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret)
{
    cl_command_queue_properties bits = 0;
    bool seen_properties = false, seen_size = false, seen_priority = false, seen_throttle = false;
    cl_uint size = 0;
    size_t len = 0;
    if (properties) {
        for (; properties[len]; len += 2) {
            switch (properties[len]) {
            case CL_QUEUE_PROPERTIES:
                if (seen_properties)
                    goto invalid;
                seen_properties = true;
                bits = (cl_command_queue_properties)properties[len + 1];
                break;
            case CL_QUEUE_SIZE:
                if (seen_size)
                    goto invalid;
                seen_size = true;
                if (properties[len + 1] == 0 || properties[len + 1] > UINT32_MAX) {
                    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE %llu is not a valid size",
                                                               (unsigned long long)properties[len + 1]));
                    return NULL;
                }
                size = (cl_uint)properties[len + 1];
                break;
            case CL_QUEUE_PRIORITY_KHR:
            case CL_QUEUE_THROTTLE_KHR: {
                /* each takes one of HIGH, MED and LOW (bits 0, 1, 2 in both) */
                cl_queue_properties v = properties[len + 1];
                if (v != CL_QUEUE_PRIORITY_HIGH_KHR && v != CL_QUEUE_PRIORITY_MED_KHR && v != CL_QUEUE_PRIORITY_LOW_KHR) {
                    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "0x%llx is not a %s hint",
                                                               (unsigned long long)v,
                                                               properties[len] == CL_QUEUE_PRIORITY_KHR ? "priority"
                                                                                                        : "throttle"));
                    return NULL;
                }
                bool *seen = properties[len] == CL_QUEUE_PRIORITY_KHR ? &seen_priority : &seen_throttle;
                if (*seen)
                    goto invalid;
                *seen = true;
                break;
            }
            default:
                goto invalid;
            }
        }
        len++; /* the terminating 0 */
    }
    if (seen_size && !(bits & CL_QUEUE_ON_DEVICE)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE is only for device queues"));
        return NULL;
    }
    if ((seen_priority || seen_throttle) && (bits & CL_QUEUE_ON_DEVICE)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_QUEUE_PROPERTIES, "priority and throttle hints are "
                                                   "for host queues, not device queues"));
        return NULL;
    }
    return create_queue(context, device, bits, size, properties, len, errcode_ret);
invalid:
    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "unknown or repeated queue property 0x%llx",
                                               (unsigned long long)properties[len]));
    return NULL;
}

/* cl_khr_create_command_queue: the OpenCL 2.0 function for OpenCL 1.x devices */
CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithPropertiesKHR(cl_context context, cl_device_id device,
                                      const cl_queue_properties_khr *properties, cl_int *errcode_ret)
{
    return clCreateCommandQueueWithProperties(context, device, properties, errcode_ret);
}

/* Commands are submitted as soon as they are ready (an implicit flush);
 * pending ones hold the queue until they complete, past its last release. */
MOSAIC_RETAIN_RELEASE(CommandQueue, cl_command_queue, QUEUE)

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param_name, size_t param_value_size,
                      void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    switch (param_name) {
    case CL_QUEUE_CONTEXT: MOSAIC_INFO_SCALAR(cl_context, queue->context);
    case CL_QUEUE_DEVICE: MOSAIC_INFO_SCALAR(cl_device_id, queue->device);
    case CL_QUEUE_REFERENCE_COUNT: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(queue));
    case CL_QUEUE_PROPERTIES: MOSAIC_INFO_SCALAR(cl_command_queue_properties, queue->properties);
    case CL_QUEUE_PROPERTIES_ARRAY: MOSAIC_INFO_ARRAY(queue->property_list, queue->num_property_list);
    case CL_QUEUE_DEVICE_DEFAULT: {
        _Atomic(cl_command_queue) *slot = default_slot(queue->context, queue->device);
        MOSAIC_INFO_SCALAR(cl_command_queue, slot ? atomic_load(slot) : NULL);
    }
    case CL_QUEUE_SIZE:
        if (!(queue->properties & CL_QUEUE_ON_DEVICE))
            return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE is only for device queues");
        MOSAIC_INFO_SCALAR(cl_uint, queue->size);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue queue, cl_command_queue_properties properties, cl_bool enable,
                          cl_command_queue_properties *old_properties)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (properties & ~host_queue_properties)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "only out-of-order and profiling can be changed");
    /* Changing the mode under running commands would break their ordering:
     * everything enqueued so far finishes first. */
    mosaic_queue_set_properties(queue, properties, enable != CL_FALSE, old_properties);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue queue)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    return CL_SUCCESS; /* commands are submitted as soon as they are ready */
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue queue)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    return mosaic_queue_finish(queue);
}
