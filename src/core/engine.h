/*
 * The event engine (seed 001 is its specification; see docs/events.md).
 *
 * Every enqueued command is a cl_event node in one graph shared by all
 * queues and devices.  Its incoming edges are its wait list, the previous
 * command of an in-order queue, the last barrier of its queue, and, for a
 * marker or barrier with no wait list, every pending command of its queue.
 * A node becomes ready when all incoming edges are complete; it then runs on
 * its device; its completion releases its dependants, wakes waiters and
 * queues its callbacks.  A negative status flows to every dependant, which
 * then completes with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST without
 * running.  One mutex guards the graph; commands run outside it.
 */
#ifndef MOSAIC_ENGINE_H
#define MOSAIC_ENGINE_H

#include "core/objects.h"

/* Creates a command of `type` for `queue` (status CL_QUEUED, queued time
 * taken).  The caller fills run/cleanup/payload, then calls
 * mosaic_command_enqueue.  NULL on allocation failure. */
cl_event mosaic_command_new(cl_command_queue queue, cl_command_type type);

/* Frees a command that was created but will not be enqueued (argument error). */
void mosaic_command_discard(cl_event command);

/* Checks a wait list for clEnqueue*: CL_INVALID_EVENT_WAIT_LIST for a NULL
 * list with a count or a bad event, CL_INVALID_CONTEXT for an event of
 * another context. */
cl_int mosaic_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events);

/* Puts the command into the graph and starts it when ready.  If `event_out`
 * is not NULL it receives a user reference.  If `blocking`, waits for the
 * command and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when it
 * (or a dependency) failed.  Consumes the caller's creation reference. */
cl_int mosaic_command_enqueue(cl_event command, cl_uint num_events, const cl_event *wait_list,
                              cl_event *event_out, bool blocking);

/* Markers and barriers (rules 5 and 6): with no wait list they wait for
 * every earlier command of the queue; a barrier also holds back every
 * later command. */
cl_int mosaic_enqueue_marker(cl_command_queue queue, cl_command_type type, bool is_barrier,
                             cl_uint num_events, const cl_event *wait_list, cl_event *event_out);

/* Called by devices. */
void mosaic_command_running(cl_event command);               /* CL_RUNNING, start time */
/* The same with the start time read by the device (nanoseconds of
 * mosaic_now_ns(), taken after the command was submitted; 0: now). */
void mosaic_command_running_at(cl_event command, uint64_t start_ns);
void mosaic_command_complete(cl_event command, cl_int status); /* CL_COMPLETE or < 0 */

/* The execution status, read under the engine lock. */
cl_int mosaic_event_status(cl_event event);

/* Host waits. */
cl_int mosaic_wait_for_events(cl_uint num_events, const cl_event *events);
cl_int mosaic_queue_finish(cl_command_queue queue);
/* clFinish of every host queue of the context that has pending commands:
 * returns once every command of the context enqueued before the call has
 * ended (CL_OUT_OF_HOST_MEMORY: waited for nothing). */
cl_int mosaic_context_finish(cl_context context);

/* clSetCommandQueueProperty: lets every pending command finish, then sets
 * or clears `properties` under the engine lock (enqueue reads them there). */
void mosaic_queue_set_properties(cl_command_queue queue, cl_command_queue_properties properties, bool enable,
                                 cl_command_queue_properties *old_properties);

/* User events (clCreateUserEvent / clSetUserEventStatus). */
cl_event mosaic_user_event_new(cl_context context);
cl_int mosaic_user_event_set_status(cl_event event, cl_int status);

/* clSetEventCallback: calls fn(event, status, data) on the callback thread
 * once the event reaches `when` (or fails). */
cl_int mosaic_event_add_callback(cl_event event, cl_int when,
                                 void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data);

/* Runs fn(data) on the callback thread, after every callback queued before it. */
void mosaic_defer(void (*fn)(void *), void *data);

/* Reports an error that happened in the context: calls the pfn_notify given
 * to clCreateContext on the callback thread (mosaic_defer), with a copy of
 * `errinfo` and no private info.  With MOSAIC_DEBUG set, also prints it on
 * stderr.  Safe from any thread; the API and the devices (a kernel's fault,
 * docs/faults.md) call it. */
void mosaic_context_notify(cl_context context, const char *errinfo);

/* For assertions: whether the calling thread holds the engine lock. */
bool mosaic_engine_lock_held(void);

#endif
