/* Events, user events, callbacks, markers, barriers and waits: the API face
 * of the event engine (core/engine.c). */
#include "api/entry.h"
#include "core/engine.h"
#include "core/objects.h"
#include "core/util.h"

static cl_int check_queue(cl_command_queue queue)
{
    if (!MOSAIC_IS(queue, QUEUE))
        return mosaic_invalid_handle(__func__, "command_queue", MOSAIC_QUEUE, queue);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
    if (num_events == 0 || !event_list)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "an empty event list");
    for (cl_uint i = 0; i < num_events; i++) {
        if (!MOSAIC_IS(event_list[i], EVENT))
            return MOSAIC_ERROR(CL_INVALID_EVENT, "event_list[%u] is not an event", i);
        if (event_list[i]->context != event_list[0]->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the events belong to different contexts");
    }
    return mosaic_wait_for_events(num_events, event_list);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size, void *param_value,
               size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(event, EVENT);
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: MOSAIC_INFO_SCALAR(cl_command_queue, event->queue);
    case CL_EVENT_CONTEXT: MOSAIC_INFO_SCALAR(cl_context, event->context);
    case CL_EVENT_COMMAND_TYPE: MOSAIC_INFO_SCALAR(cl_command_type, event->command_type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: MOSAIC_INFO_SCALAR(cl_int, mosaic_event_status(event));
    case CL_EVENT_REFERENCE_COUNT: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(event));
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

MOSAIC_RETAIN_RELEASE(Event, cl_event, EVENT)

CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(event, EVENT);
    if (!event->queue || !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
        return MOSAIC_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE, "the queue was created without CL_QUEUE_PROFILING_ENABLE, "
                            "or this is a user event");
    if (mosaic_event_status(event) != CL_COMPLETE)
        return MOSAIC_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed successfully");
    if (event->time_queued == 0) /* the engine takes times only while profiling is on */
        return MOSAIC_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE, "the command was enqueued before profiling was enabled");
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: MOSAIC_INFO_SCALAR(cl_ulong, event->time_queued);
    case CL_PROFILING_COMMAND_SUBMIT: MOSAIC_INFO_SCALAR(cl_ulong, event->time_submit);
    case CL_PROFILING_COMMAND_START: MOSAIC_INFO_SCALAR(cl_ulong, event->time_start);
    case CL_PROFILING_COMMAND_END: MOSAIC_INFO_SCALAR(cl_ulong, event->time_end);
    case CL_PROFILING_COMMAND_COMPLETE: MOSAIC_INFO_SCALAR(cl_ulong, event->time_complete);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                   void (CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data)
{
    MOSAIC_CHECK_HANDLE(event, EVENT);
    if (!pfn_notify)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
    if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
        command_exec_callback_type != CL_COMPLETE)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "callback type must be CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
    return mosaic_event_add_callback(event, command_exec_callback_type, pfn_notify, user_data);
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    cl_event e = mosaic_user_event_new(context);
    mosaic_set_error(errcode_ret, e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
    return e;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status)
{
    if (!MOSAIC_IS(event, EVENT) || event->command_type != CL_COMMAND_USER)
        return MOSAIC_ERROR(CL_INVALID_EVENT, "not a user event");
    if (execution_status > CL_COMPLETE)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "status must be CL_COMPLETE or negative");
    return mosaic_user_event_set_status(event, execution_status);
}

static cl_int enqueue_marker(cl_command_queue queue, cl_command_type type, bool barrier, cl_uint n,
                             const cl_event *wait_list, cl_event *event)
{
    cl_int err = check_queue(queue);
    if (err == CL_SUCCESS)
        err = mosaic_check_wait_list(queue->context, n, wait_list);
    if (err != CL_SUCCESS)
        return err;
    return mosaic_enqueue_marker(queue, type, barrier, n, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return enqueue_marker(queue, CL_COMMAND_MARKER, false, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return enqueue_marker(queue, CL_COMMAND_BARRIER, true, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue queue, cl_event *event)
{
    if (!event)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "event is NULL");
    return enqueue_marker(queue, CL_COMMAND_MARKER, false, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue queue)
{
    return enqueue_marker(queue, CL_COMMAND_BARRIER, true, 0, NULL, NULL);
}

/* 1.1: later commands wait for these events: a barrier that waits for a list. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue queue, cl_uint num_events, const cl_event *event_list)
{
    cl_int err = check_queue(queue);
    if (err != CL_SUCCESS)
        return err;
    if (num_events == 0 || !event_list)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "an empty event list");
    for (cl_uint i = 0; i < num_events; i++) {
        if (!MOSAIC_IS(event_list[i], EVENT))
            return MOSAIC_ERROR(CL_INVALID_EVENT, "event_list[%u] is not an event", i);
        if (event_list[i]->context != queue->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "event_list[%u] belongs to another context", i);
    }
    return mosaic_enqueue_marker(queue, CL_COMMAND_BARRIER, true, num_events, event_list, NULL);
}
