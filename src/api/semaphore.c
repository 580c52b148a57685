/*
 * cl_khr_semaphore (binary semaphores, no external handles):
 * clCreateSemaphoreWithPropertiesKHR, clEnqueueWaitSemaphoresKHR,
 * clEnqueueSignalSemaphoresKHR, clGetSemaphoreInfoKHR, clRetainSemaphoreKHR,
 * clReleaseSemaphoreKHR.  Extension functions: the application finds them
 * with clGetExtensionFunctionAddressForPlatform (api/icd.c).  What a wait
 * and a signal do is core's (core/semaphore.c, docs/events.md).
 */
#include "api/api.h"
#include "api/entry.h"
#include "core/engine.h"
#include "core/semaphore.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void semaphore_destroy(void *self)
{
    cl_semaphore_khr sema = self;
    mosaic_semaphore_fini(sema);
    if (sema->device)
        mosaic_release_internal(sema->device);
    mosaic_release_internal(sema->context);
    free(sema->properties);
    free(sema);
}

static bool context_has_device(cl_context context, cl_device_id device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return true;
    return false;
}

/* Reads sema_props: CL_SEMAPHORE_TYPE_KHR (binary, required) and
 * CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR (one device of the context, required
 * in a context of several).  *count receives the entries, the final 0
 * included. */
static cl_int read_properties(cl_context context, const cl_semaphore_properties_khr *props, cl_device_id *device,
                              size_t *count)
{
    if (!props)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "sema_props is NULL (CL_SEMAPHORE_TYPE_KHR is required)");
    bool have_type = false, have_devices = false;
    size_t i = 0;
    while (props[i]) {
        cl_semaphore_properties_khr name = props[i];
        if (name == CL_SEMAPHORE_TYPE_KHR) {
            if (have_type)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_SEMAPHORE_TYPE_KHR is given twice");
            if (props[i + 1] != CL_SEMAPHORE_TYPE_BINARY_KHR)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "semaphore type %llu is not CL_SEMAPHORE_TYPE_BINARY_KHR",
                                    (unsigned long long)props[i + 1]);
            have_type = true;
            i += 2;
        } else if (name == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR) {
            if (have_devices)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR is given twice");
            have_devices = true;
            size_t n = 0;
            for (i++; props[i] != CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR; i++, n++)
                *device = (cl_device_id)(uintptr_t)props[i];
            i++; /* past the list's end */
            if (n != 1)
                return MOSAIC_ERROR(CL_INVALID_DEVICE, "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR names %zu devices, not one", n);
            if (!MOSAIC_IS(*device, DEVICE))
                return MOSAIC_ERROR(CL_INVALID_DEVICE, "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR: %p is not a device",
                                    (void *)*device);
            if (!context_has_device(context, *device))
                return MOSAIC_ERROR(CL_INVALID_DEVICE, "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR: the device is not in the context");
        } else {
            return MOSAIC_ERROR(CL_INVALID_PROPERTY, "unknown semaphore property 0x%llx", (unsigned long long)name);
        }
    }
    if (!have_type)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "sema_props lacks CL_SEMAPHORE_TYPE_KHR");
    if (!have_devices && context->num_devices > 1)
        return MOSAIC_ERROR(CL_INVALID_PROPERTY,
                            "a context of several devices needs CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR");
    *count = i + 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_semaphore_khr CL_API_CALL
clCreateSemaphoreWithPropertiesKHR(cl_context context, const cl_semaphore_properties_khr *sema_props,
                                   cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    cl_device_id device = NULL;
    size_t count = 0;
    cl_int err = read_properties(context, sema_props, &device, &count);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    cl_semaphore_khr sema = mosaic_calloc(1, sizeof *sema);
    cl_semaphore_properties_khr *props = mosaic_calloc(count, sizeof *props);
    if (!sema || !props) {
        free(sema);
        free(props);
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a semaphore"));
        return NULL;
    }
    memcpy(props, sema_props, count * sizeof *props);
    mosaic_object_init(sema, MOSAIC_SEMAPHORE, &mosaic_dispatch, semaphore_destroy);
    sema->context = context;
    mosaic_retain_internal(context);
    sema->device = device;
    if (device)
        mosaic_retain_internal(device);
    sema->properties = props;
    sema->num_properties = count;
    mosaic_semaphore_init(sema);
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return sema;
}

/* The checks both enqueue functions share, in the order the spec lists
 * their errors. */
static cl_int check_enqueue(const char *function, cl_command_queue queue, cl_uint num_semas,
                            const cl_semaphore_khr *semas, cl_uint num_events, const cl_event *wait_list)
{
    if (!MOSAIC_IS(queue, QUEUE))
        return mosaic_invalid_handle(function, "command_queue", MOSAIC_QUEUE, queue);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    if (num_semas == 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_sema_objects is 0");
    if (!semas)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "sema_objects is NULL");
    for (cl_uint i = 0; i < num_semas; i++)
        if (!MOSAIC_IS(semas[i], SEMAPHORE))
            return mosaic_invalid_handle(function, "sema_objects[i]", MOSAIC_SEMAPHORE, semas[i]);
    for (cl_uint i = 0; i < num_semas; i++) {
        if (semas[i]->context != queue->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "sema_objects[%u] belongs to another context than the queue", i);
        if (semas[i]->device && semas[i]->device != queue->device)
            return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE,
                                "sema_objects[%u] was made for another device than the queue's", i);
    }
    /* binary semaphores take no payload: sema_payload_list is ignored */
    cl_int err = mosaic_check_wait_list(queue->context, num_events, wait_list);
    if (err != CL_SUCCESS)
        return err;
    for (cl_uint i = 0; i < num_events; i++) /* the extension names this error for a failure already known */
        if (mosaic_event_status(wait_list[i]) < 0)
            return MOSAIC_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "event_wait_list[%u] failed", i);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitSemaphoresKHR(cl_command_queue command_queue, cl_uint num_sema_objects,
                           const cl_semaphore_khr *sema_objects, const cl_semaphore_payload_khr *sema_payload_list,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    (void)sema_payload_list;
    cl_int err = check_enqueue(__func__, command_queue, num_sema_objects, sema_objects, num_events_in_wait_list,
                               event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return mosaic_enqueue_semaphore_wait(command_queue, num_sema_objects, sema_objects, num_events_in_wait_list,
                                         event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSignalSemaphoresKHR(cl_command_queue command_queue, cl_uint num_sema_objects,
                             const cl_semaphore_khr *sema_objects, const cl_semaphore_payload_khr *sema_payload_list,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    (void)sema_payload_list;
    cl_int err = check_enqueue(__func__, command_queue, num_sema_objects, sema_objects, num_events_in_wait_list,
                               event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return mosaic_enqueue_semaphore_signal(command_queue, num_sema_objects, sema_objects, num_events_in_wait_list,
                                           event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSemaphoreInfoKHR(cl_semaphore_khr sema_object, cl_semaphore_info_khr param_name, size_t param_value_size,
                      void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(sema_object, SEMAPHORE);
    switch (param_name) {
    case CL_SEMAPHORE_CONTEXT_KHR: MOSAIC_INFO_SCALAR(cl_context, sema_object->context);
    case CL_SEMAPHORE_REFERENCE_COUNT_KHR: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(sema_object));
    case CL_SEMAPHORE_PROPERTIES_KHR: MOSAIC_INFO_ARRAY(sema_object->properties, sema_object->num_properties);
    case CL_SEMAPHORE_TYPE_KHR: MOSAIC_INFO_SCALAR(cl_semaphore_type_khr, CL_SEMAPHORE_TYPE_BINARY_KHR);
    case CL_SEMAPHORE_PAYLOAD_KHR:
        MOSAIC_INFO_SCALAR(cl_semaphore_payload_khr, mosaic_semaphore_signalled(sema_object) ? 1 : 0);
    case CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR:
        if (sema_object->device)
            MOSAIC_INFO_ARRAY(&sema_object->device, 1);
        MOSAIC_INFO_ARRAY(sema_object->context->devices, sema_object->context->num_devices);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSemaphoreKHR(cl_semaphore_khr sema_object)
{
    return mosaic_api_retain(__func__, MOSAIC_SEMAPHORE, sema_object);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSemaphoreKHR(cl_semaphore_khr sema_object)
{
    return mosaic_api_release(__func__, MOSAIC_SEMAPHORE, sema_object);
}

/* cl_khr_external_semaphore's export, which Mosaic does not report: no
 * semaphore is made with CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR (creation
 * refuses it), so every handle type is one "not specified when sema_object
 * was created" (CL_INVALID_VALUE).  It is findable because the Khronos CTS
 * for cl_khr_semaphore looks it up before running any case. */
CL_API_ENTRY cl_int CL_API_CALL
clGetSemaphoreHandleForTypeKHR(cl_semaphore_khr sema_object, cl_device_id device,
                               cl_external_semaphore_handle_type_khr handle_type, size_t handle_size,
                               void *handle_ptr, size_t *handle_size_ret)
{
    (void)handle_size, (void)handle_ptr, (void)handle_size_ret;
    MOSAIC_CHECK_HANDLE(sema_object, SEMAPHORE);
    MOSAIC_CHECK_HANDLE(device, DEVICE);
    if (!context_has_device(sema_object->context, device))
        return MOSAIC_ERROR(CL_INVALID_DEVICE, "the device is not in the semaphore's context");
    return MOSAIC_ERROR(CL_INVALID_VALUE, "handle type 0x%x was not given at creation: no semaphore is exportable",
                        handle_type);
}
