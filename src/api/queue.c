/* Command queues: clCreateCommandQueue[WithProperties], info, flush, finish. */
#include "api/api.h"
#include "api/context.h"
#include "api/entry.h"
#include "core/engine.h"
#include "core/objects.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static const cl_command_queue_properties known_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
    CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
static const cl_command_queue_properties host_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

static void destroy_queue(void *p)
{
    cl_command_queue q = p;
    pthread_cond_destroy(&q->drained);
    free(q->property_list);
    mosaic_release_internal(q->context);
    free(q);
}

static cl_command_queue create_queue(cl_context context, cl_device_id device,
                                     cl_command_queue_properties properties,
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
    if (properties & ~host_queue_properties) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                                                   "device-side queues are not supported by this device"));
        return NULL;
    }
    cl_command_queue q = mosaic_calloc(1, sizeof *q);
    if (!q) {
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    if (list) {
        q->property_list = malloc(list_len * sizeof *list);
        if (!q->property_list) {
            free(q);
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
    return create_queue(context, device, properties, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret)
{
    cl_command_queue_properties bits = 0;
    bool seen_properties = false, seen_size = false;
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
                break;
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
    return create_queue(context, device, bits, properties, len, errcode_ret);
invalid:
    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "unknown or repeated queue property 0x%llx",
                                               (unsigned long long)properties[len]));
    return NULL;
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
    case CL_QUEUE_DEVICE_DEFAULT: MOSAIC_INFO_SCALAR(cl_command_queue, NULL);
    case CL_QUEUE_SIZE:
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE is only for device queues");
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
    return CL_SUCCESS; /* commands are submitted as soon as they are ready */
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue queue)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    return mosaic_queue_finish(queue);
}
