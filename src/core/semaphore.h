/*
 * Binary semaphores (cl_khr_semaphore) on the event engine: a wait is a
 * command whose extra dependency, a gate, the matching signal completes; a
 * signal is a command that, once its dependencies are done, completes the
 * oldest waiting gate or else leaves the semaphore signalled.
 */
#ifndef MOSAIC_SEMAPHORE_H
#define MOSAIC_SEMAPHORE_H

#include "core/objects.h"

/* Sets up and tears down a semaphore's state (unsignalled, no waiters). */
void mosaic_semaphore_init(cl_semaphore_khr sema);
void mosaic_semaphore_fini(cl_semaphore_khr sema);

/* Whether the semaphore is signalled now (CL_SEMAPHORE_PAYLOAD_KHR). */
bool mosaic_semaphore_signalled(cl_semaphore_khr sema);

/* Enqueue a wait or a signal command on `queue` for `num_semas` semaphores
 * (checked by the caller), after `wait_list`, as any command. */
cl_int mosaic_enqueue_semaphore_wait(cl_command_queue queue, cl_uint num_semas, const cl_semaphore_khr *semas,
                                     cl_uint num_events, const cl_event *wait_list, cl_event *event_out);
cl_int mosaic_enqueue_semaphore_signal(cl_command_queue queue, cl_uint num_semas, const cl_semaphore_khr *semas,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *event_out);

#endif
