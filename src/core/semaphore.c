/*
 * Binary semaphores on the event engine (core/semaphore.h).  No second
 * mechanism: a wait command's dependency on a signal is an edge from a
 * gate, a user event of the engine, so ordering, failure, events, callbacks
 * and clFinish behave as for any command.
 *
 * A wait takes the signal at once when the semaphore is signalled (binary:
 * one signal, one wait), so clEnqueueWaitSemaphoresKHR returns with the
 * semaphore ready to be signalled again; otherwise it queues a gate.  A
 * signal command runs once its dependencies are done: it completes the
 * oldest gate, or marks the semaphore signalled.  Each semaphore's lock
 * guards its state; gates are completed after it is released (the engine
 * lock is never taken under it).
 */
#include "core/semaphore.h"

#include "base/assert.h"
#include "core/engine.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

void mosaic_semaphore_init(cl_semaphore_khr sema)
{
    pthread_mutex_init(&sema->lock, NULL);
    sema->signalled = false;
    sema->waiters_head = sema->waiters_tail = NULL;
}

void mosaic_semaphore_fini(cl_semaphore_khr sema)
{
    /* every waiter's command holds the semaphore: none is left here */
    MOSAIC_ASSERT(!sema->waiters_head);
    pthread_mutex_destroy(&sema->lock);
}

bool mosaic_semaphore_signalled(cl_semaphore_khr sema)
{
    pthread_mutex_lock(&sema->lock);
    bool signalled = sema->signalled;
    pthread_mutex_unlock(&sema->lock);
    return signalled;
}

/* A command's hold on its semaphores, released by its cleanup. */
typedef struct semaphores_payload {
    cl_uint count;
    cl_semaphore_khr semas[];
} semaphores_payload;

static void release_semaphores(cl_event command)
{
    semaphores_payload *p = command->payload;
    for (cl_uint i = 0; i < p->count; i++)
        mosaic_release_internal(p->semas[i]);
    free(p);
    command->payload = NULL;
}

static cl_event new_semaphore_command(cl_command_queue queue, cl_command_type type, cl_uint num_semas,
                                      const cl_semaphore_khr *semas)
{
    semaphores_payload *p = mosaic_calloc(1, sizeof *p + num_semas * sizeof p->semas[0]);
    cl_event cmd = p ? mosaic_command_new(queue, type) : NULL;
    if (!cmd) {
        free(p);
        return NULL;
    }
    p->count = num_semas;
    for (cl_uint i = 0; i < num_semas; i++) {
        p->semas[i] = semas[i];
        mosaic_retain_internal(semas[i]);
    }
    cmd->payload = p;
    cmd->cleanup = release_semaphores;
    return cmd;
}

/* Completes a gate and drops the semaphore's reference on it. */
static void open_gate(mosaic_semaphore_waiter *w)
{
    mosaic_user_event_set_status(w->gate, CL_COMPLETE);
    mosaic_release(w->gate);
    free(w);
}

cl_int mosaic_enqueue_semaphore_wait(cl_command_queue queue, cl_uint num_semas, const cl_semaphore_khr *semas,
                                     cl_uint num_events, const cl_event *wait_list, cl_event *event_out)
{
    /* Everything a wait may need is made first: once a semaphore's signal
     * is taken, nothing can fail. */
    cl_event cmd = new_semaphore_command(queue, CL_COMMAND_SEMAPHORE_WAIT_KHR, num_semas, semas);
    cl_event *deps = mosaic_calloc((size_t)num_events + num_semas, sizeof *deps);
    mosaic_semaphore_waiter **waiters = mosaic_calloc(num_semas, sizeof *waiters);
    bool ok = cmd && deps && waiters;
    for (cl_uint i = 0; ok && i < num_semas; i++) {
        waiters[i] = mosaic_calloc(1, sizeof *waiters[i]);
        if (waiters[i])
            waiters[i]->gate = mosaic_user_event_new(queue->context);
        ok = waiters[i] && waiters[i]->gate;
    }
    if (!ok) {
        for (cl_uint i = 0; waiters && i < num_semas; i++)
            if (waiters[i] && waiters[i]->gate)
                open_gate(waiters[i]);
            else
                free(waiters ? waiters[i] : NULL);
        free(waiters);
        free(deps);
        if (cmd)
            mosaic_command_discard(cmd);
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a semaphore wait");
    }

    if (num_events)
        memcpy(deps, wait_list, num_events * sizeof *deps);
    cl_uint num_deps = num_events;
    for (cl_uint i = 0; i < num_semas; i++) {
        cl_semaphore_khr sema = semas[i];
        mosaic_semaphore_waiter *w = waiters[i];
        pthread_mutex_lock(&sema->lock);
        bool taken = sema->signalled;
        if (taken) {
            sema->signalled = false;
        } else {
            if (sema->waiters_tail)
                sema->waiters_tail->next = w;
            else
                sema->waiters_head = w;
            sema->waiters_tail = w;
            /* held until it is in the graph: a signal on another thread
             * may open it, and drop the semaphore's reference, at once */
            mosaic_retain_internal(w->gate);
            deps[num_deps++] = w->gate;
        }
        pthread_mutex_unlock(&sema->lock);
        if (taken)
            open_gate(w); /* not needed */
    }
    /* The gates may be opened by a signal before the edges are added: the
     * engine then adds no edge for them, as for any completed event. */
    cl_int err = mosaic_command_enqueue(cmd, num_deps, deps, event_out, false);
    for (cl_uint i = num_events; i < num_deps; i++)
        mosaic_release_internal(deps[i]);
    free(deps);
    free(waiters);
    return err;
}

/* The signal command's work, once its dependencies are done. */
static cl_int signal_semaphores(cl_event command)
{
    semaphores_payload *p = command->payload;
    for (cl_uint i = 0; i < p->count; i++) {
        cl_semaphore_khr sema = p->semas[i];
        pthread_mutex_lock(&sema->lock);
        mosaic_semaphore_waiter *w = sema->waiters_head;
        if (w) {
            sema->waiters_head = w->next;
            if (!sema->waiters_head)
                sema->waiters_tail = NULL;
        } else {
            sema->signalled = true;
        }
        pthread_mutex_unlock(&sema->lock);
        if (w)
            open_gate(w);
    }
    return CL_COMPLETE;
}

cl_int mosaic_enqueue_semaphore_signal(cl_command_queue queue, cl_uint num_semas, const cl_semaphore_khr *semas,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *event_out)
{
    cl_event cmd = new_semaphore_command(queue, CL_COMMAND_SEMAPHORE_SIGNAL_KHR, num_semas, semas);
    if (!cmd)
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a semaphore signal");
    cmd->run = signal_semaphores;
    return mosaic_command_enqueue(cmd, num_events, wait_list, event_out, false);
}
