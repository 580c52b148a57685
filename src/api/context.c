/*
 * Contexts: clCreateContext, clCreateContextFromType, clRetainContext,
 * clReleaseContext, clGetContextInfo, clSetContextDestructorCallback, and
 * the helpers of api/context.h.
 *
 * A context holds an internal reference on each of its devices.  It is
 * destroyed when its last reference goes, user or internal (queues, memory
 * objects, programs hold internal ones); destruction calls the destructor
 * callbacks, newest first, on the thread that drops the last reference.
 */
#include "api/context.h"

#include "api/api.h"
#include "api/entry.h"
#include "api/svm.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/trace.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (CL_CALLBACK *context_notify_fn)(const char *, const void *, size_t, void *);
typedef void (CL_CALLBACK *context_destructor_fn)(cl_context, void *);

/* Checks a property list; *platform receives CL_CONTEXT_PLATFORM's value (or
 * NULL), *count the number of entries including the terminating 0 (0 when
 * the list is NULL). */
static cl_int parse_properties(const cl_context_properties *properties, cl_platform_id *platform,
                               size_t *count)
{
    *platform = NULL;
    *count = 0;
    if (!properties)
        return CL_SUCCESS;
    bool seen_platform = false, seen_sync = false;
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
        cl_context_properties name = properties[i], value = properties[i + 1];
        switch (name) {
        case CL_CONTEXT_PLATFORM:
            if (seen_platform)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
            seen_platform = true;
            if (!MOSAIC_IS((cl_platform_id)value, PLATFORM))
                return MOSAIC_ERROR(CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM %p is not a platform", (void *)value);
            *platform = (cl_platform_id)value;
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (seen_sync)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
            seen_sync = true;
            if (value != CL_TRUE && value != CL_FALSE)
                return MOSAIC_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC value %lld is not a cl_bool",
                                    (long long)value);
            break;
        default:
            return MOSAIC_ERROR(CL_INVALID_PROPERTY, "unsupported context property 0x%llx", (long long)name);
        }
    }
    *count = i + 1;
    return CL_SUCCESS;
}

static void context_destroy(void *self)
{
    cl_context context = self;
    mosaic_callback *cb = context->destructor_callbacks;
    context->destructor_callbacks = NULL;
    while (cb) { /* the list is newest first: the required order */
        mosaic_callback *next = cb->next;
        ((context_destructor_fn)cb->fn)(context, cb->user_data);
        free(cb);
        cb = next;
    }
    /* USM allocations hold no reference on their context: those the
     * application did not free go with it, while its devices still stand
     * (their ops free them).  Commands hold the context, so none runs now. */
    mosaic_allocations_free_context(context);
    for (cl_uint i = 0; i < context->num_devices; i++)
        mosaic_release_internal(context->devices[i]);
    free(context->devices);
    free(context->default_device_queues);
    free(context->properties);
    pthread_mutex_destroy(&context->lock);
    free(context);
    mosaic_trace_context_destroyed(); /* the last one completes the trace file */
}

/* How many memories the devices have among them (a device and its
 * sub-devices share one). */
static cl_uint count_memories(cl_uint num_devices, const cl_device_id *devices)
{
    cl_uint count = 0;
    for (cl_uint i = 0; i < num_devices; i++) {
        bool seen = false;
        for (cl_uint j = 0; j < i && !seen; j++)
            seen = mosaic_device_mem_domain(devices[j]) == mosaic_device_mem_domain(devices[i]);
        count += !seen;
    }
    return count;
}

/* Creates the context once every argument has been checked. */
static cl_context context_new(const cl_context_properties *properties, size_t num_properties,
                              cl_uint num_devices, const cl_device_id *devices,
                              context_notify_fn notify, void *user_data, cl_int *errcode_ret)
{
    cl_context context = mosaic_calloc(1, sizeof *context);
    cl_device_id *list = mosaic_calloc(num_devices, sizeof *list);
    _Atomic(cl_command_queue) *defaults = mosaic_calloc(num_devices, sizeof *defaults);
    cl_context_properties *props = NULL;
    if (num_properties)
        props = mosaic_calloc(num_properties, sizeof *props);
    if (!context || !list || !defaults || (num_properties && !props)) {
        free(context);
        free(list);
        free(defaults);
        free(props);
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a context"));
        return NULL;
    }
    mosaic_object_init(context, MOSAIC_CONTEXT, &mosaic_dispatch, context_destroy);

    /* Duplicated devices are ignored. */
    cl_uint n = 0;
    for (cl_uint i = 0; i < num_devices; i++) {
        bool dup = false;
        for (cl_uint j = 0; j < n && !dup; j++)
            dup = list[j] == devices[i];
        if (!dup) {
            list[n++] = devices[i];
            mosaic_retain_internal(devices[i]);
        }
    }
    context->devices = list;
    context->num_devices = n;
    context->num_memories = count_memories(n, list);
    context->default_device_queues = defaults;
    if (num_properties)
        memcpy(props, properties, num_properties * sizeof *props);
    context->properties = props;
    context->num_properties = num_properties;
    context->notify = notify;
    context->notify_data = user_data;
    pthread_mutex_init(&context->lock, NULL);
    context->destructor_callbacks = NULL;
    mosaic_trace_context_created(); /* the first one opens the trace file (MOSAIC_TRACE) */
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return context;
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                void (CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb,
                                               void *user_data),
                void *user_data, cl_int *errcode_ret)
{
    cl_platform_id platform;
    size_t num_properties;
    cl_int err = parse_properties(properties, &platform, &num_properties);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    if (!devices || num_devices == 0) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "devices is NULL or num_devices is 0"));
        return NULL;
    }
    if (!pfn_notify && user_data) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "user_data given without pfn_notify"));
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!MOSAIC_IS(devices[i], DEVICE)) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE, "devices[%u] = %p is not a device", i,
                                                       (void *)devices[i]));
            return NULL;
        }
        if (platform && devices[i]->platform != platform) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE,
                                                       "devices[%u] is not a device of CL_CONTEXT_PLATFORM", i));
            return NULL;
        }
    }
    return context_new(properties, num_properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void (CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb,
                                                       void *user_data),
                        void *user_data, cl_int *errcode_ret)
{
    cl_platform_id platform;
    size_t num_properties;
    cl_int err = parse_properties(properties, &platform, &num_properties);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    if (!pfn_notify && user_data) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "user_data given without pfn_notify"));
        return NULL;
    }
    if (!platform)
        platform = mosaic_platform(); /* "implementation-defined": the only one */

    cl_uint count = 0;
    err = mosaic_match_devices(platform, device_type, 0, NULL, &count);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    cl_device_id *devices = mosaic_calloc(count, sizeof *devices);
    if (!devices) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for the device list"));
        return NULL;
    }
    mosaic_match_devices(platform, device_type, count, devices, &count);
    cl_context context = context_new(properties, num_properties, count, devices, pfn_notify, user_data, errcode_ret);
    free(devices);
    return context;
}

MOSAIC_RETAIN_RELEASE(Context, cl_context, CONTEXT)

CL_API_ENTRY cl_int CL_API_CALL
clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(context, CONTEXT);
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(context));
    case CL_CONTEXT_NUM_DEVICES:
        MOSAIC_INFO_SCALAR(cl_uint, context->num_devices);
    case CL_CONTEXT_DEVICES:
        MOSAIC_INFO_ARRAY(context->devices, context->num_devices);
    case CL_CONTEXT_PROPERTIES:
        /* exactly as given; nothing if NULL was given */
        MOSAIC_INFO_ARRAY(context->properties, context->num_properties);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetContextDestructorCallback(cl_context context,
                               void (CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
                               void *user_data)
{
    MOSAIC_CHECK_HANDLE(context, CONTEXT);
    if (!pfn_notify)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
    mosaic_callback *cb = mosaic_calloc(1, sizeof *cb);
    if (!cb)
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a callback");
    cb->fn = (void (*)(void))pfn_notify;
    cb->user_data = user_data;
    pthread_mutex_lock(&context->lock);
    cb->next = context->destructor_callbacks;
    context->destructor_callbacks = cb;
    pthread_mutex_unlock(&context->lock);
    return CL_SUCCESS;
}

/* ---- api/context.h -------------------------------------------------------- */

bool mosaic_context_has_device(cl_context context, cl_device_id device)
{
    if (!MOSAIC_IS(context, CONTEXT) || !device)
        return false;
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return true;
    return false;
}
