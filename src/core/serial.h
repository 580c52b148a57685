/* A serial queue: one thread of its own that runs the jobs posted to it one
 * at a time, in the order they were posted.  The thread starts at the first
 * post, and again in a child of fork(), which has no thread of the parent's
 * and drops the jobs the parent had queued (they run in the parent).
 *
 * The engine's callbacks run on one (engine.c), so do the copies between a
 * context's memories (coherence.c) and each GPU's commands (cuda_device.c). */
#ifndef MOSAIC_CORE_SERIAL_H
#define MOSAIC_CORE_SERIAL_H

#include <pthread.h>
#include <stdbool.h>

typedef struct mosaic_serial_job mosaic_serial_job;

typedef struct mosaic_serial {
    const char *name; /* for the debug log */
    pthread_mutex_t lock;
    pthread_cond_t ready;
    mosaic_serial_job *head, *tail; /* under lock */
    bool started;                   /* under lock */
    bool spins;                     /* its thread spins MOSAIC_SPIN_US for the next job before it sleeps */
} mosaic_serial;

#define MOSAIC_SERIAL_INIT(name) { (name), PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, false, false }

/* For a queue that is not a static one (MOSAIC_SERIAL_INIT): false when its
 * lock or condition cannot be made.  `spins`: for a queue on the path of
 * short commands (a GPU's), whose next job often comes within microseconds
 * and should not wait for the thread's wake-up. */
bool mosaic_serial_init(mosaic_serial *s, const char *name, bool spins);

/* Queues fn(data).  False, with nothing queued, when there is no memory for
 * the job or no thread to run it: the caller decides what then. */
bool mosaic_serial_post(mosaic_serial *s, void (*fn)(void *), void *data);

/* For a pthread_atfork handler of the queue's owner, which takes its own
 * locks first: before fork() holds the queue's lock, the parent releases
 * it, the child makes the queue new (empty, its thread to start). */
void mosaic_serial_before_fork(mosaic_serial *s);
void mosaic_serial_after_fork_in_parent(mosaic_serial *s);
void mosaic_serial_after_fork_in_child(mosaic_serial *s);

#endif
