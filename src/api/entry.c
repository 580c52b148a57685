/* The shape shared by every object entry point (api/entry.h): handle checks,
 * retain and release, the get-info copy-out, each with one message. */
#include "api/entry.h"

#include <string.h>

/* What the application is told about each object type. */
static const struct {
    cl_int invalid;   /* the CL_INVALID_* code of a bad handle */
    const char *name; /* in messages */
    const char *arg;  /* its parameter's name in clRetainX, clReleaseX, clGetXInfo */
} types[] = {
    [MOSAIC_PLATFORM - MOSAIC_PLATFORM] = { CL_INVALID_PLATFORM, "platform", "platform" },
    [MOSAIC_DEVICE - MOSAIC_PLATFORM] = { CL_INVALID_DEVICE, "device", "device" },
    [MOSAIC_CONTEXT - MOSAIC_PLATFORM] = { CL_INVALID_CONTEXT, "context", "context" },
    [MOSAIC_QUEUE - MOSAIC_PLATFORM] = { CL_INVALID_COMMAND_QUEUE, "command queue", "command_queue" },
    [MOSAIC_EVENT - MOSAIC_PLATFORM] = { CL_INVALID_EVENT, "event", "event" },
    [MOSAIC_MEM - MOSAIC_PLATFORM] = { CL_INVALID_MEM_OBJECT, "memory object", "memobj" },
    [MOSAIC_PROGRAM - MOSAIC_PLATFORM] = { CL_INVALID_PROGRAM, "program", "program" },
    [MOSAIC_KERNEL - MOSAIC_PLATFORM] = { CL_INVALID_KERNEL, "kernel", "kernel" },
    [MOSAIC_SAMPLER - MOSAIC_PLATFORM] = { CL_INVALID_SAMPLER, "sampler", "sampler" },
    [MOSAIC_COMMAND_BUFFER - MOSAIC_PLATFORM] = { CL_INVALID_COMMAND_BUFFER_KHR, "command buffer", "command_buffer" },
    [MOSAIC_MUTABLE_COMMAND - MOSAIC_PLATFORM] = { CL_INVALID_MUTABLE_COMMAND_KHR, "mutable command", "command" },
    [MOSAIC_SEMAPHORE - MOSAIC_PLATFORM] = { CL_INVALID_SEMAPHORE_KHR, "semaphore", "sema_object" },
};

#define TYPE_INFO(type) types[(type) - MOSAIC_PLATFORM]

cl_int mosaic_invalid_handle(const char *function, const char *arg, mosaic_object_type type, const void *handle)
{
    mosaic_debug(function, "%s %p is not a valid %s", arg ? arg : TYPE_INFO(type).arg, handle, TYPE_INFO(type).name);
    return TYPE_INFO(type).invalid;
}

/* ---- retain and release ------------------------------------------------------ */

static _Thread_local unsigned user_releases; /* clReleaseX calls in progress on this thread */

cl_int mosaic_api_retain(const char *function, mosaic_object_type type, void *handle)
{
    if (!mosaic_object_is(handle, type))
        return mosaic_invalid_handle(function, NULL, type, handle);
    mosaic_retain(handle);
    return CL_SUCCESS;
}

cl_int mosaic_api_release(const char *function, mosaic_object_type type, void *handle)
{
    if (!mosaic_object_is(handle, type))
        return mosaic_invalid_handle(function, NULL, type, handle);
    user_releases++;
    bool ok = mosaic_release(handle);
    user_releases--;
    if (ok)
        return CL_SUCCESS;
    mosaic_debug(function, "%s %p was released more often than retained", TYPE_INFO(type).name, handle);
    return TYPE_INFO(type).invalid;
}

bool mosaic_in_user_release(void)
{
    return user_releases > 0;
}

/* ---- get-info ---------------------------------------------------------------- */

cl_int mosaic_info_reply_size(const char *function, size_t value_size, const void *value, size_t *value_size_ret,
                              size_t size)
{
    if (value && value_size < size) {
        mosaic_debug(function, "param_value_size %zu is smaller than the %zu bytes of the answer", value_size, size);
        return CL_INVALID_VALUE;
    }
    if (value_size_ret)
        *value_size_ret = size;
    return CL_SUCCESS;
}

cl_int mosaic_info_reply(const char *function, size_t value_size, void *value, size_t *value_size_ret,
                         const void *src, size_t size)
{
    cl_int err = mosaic_info_reply_size(function, value_size, value, value_size_ret, size);
    if (err == CL_SUCCESS && value && size)
        memcpy(value, src, size);
    return err;
}

cl_int mosaic_info_reply_string(const char *function, size_t value_size, void *value, size_t *value_size_ret,
                                const char *s)
{
    if (!s)
        s = "";
    return mosaic_info_reply(function, value_size, value, value_size_ret, s, strlen(s) + 1);
}

cl_int mosaic_info_reply_unknown(const char *function, cl_uint param_name)
{
    mosaic_debug(function, "unknown param_name 0x%x", param_name);
    return CL_INVALID_VALUE;
}
