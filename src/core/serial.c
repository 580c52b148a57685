/* A serial queue (serial.h). */
#include "core/serial.h"

#include <stdlib.h>

#include "base/assert.h"
#include "core/util.h"

struct mosaic_serial_job {
    mosaic_serial_job *next;
    void (*fn)(void *);
    void *data;
};

static bool has_job(const void *arg)
{
    return __atomic_load_n(&((const mosaic_serial *)arg)->head, __ATOMIC_ACQUIRE) != NULL;
}

static void *serial_main(void *arg)
{
    mosaic_serial *s = arg;
    for (;;) {
        if (s->spins)
            mosaic_spin_until(has_job, s);
        pthread_mutex_lock(&s->lock);
        while (!s->head)
            pthread_cond_wait(&s->ready, &s->lock);
        mosaic_serial_job *j = s->head;
        __atomic_store_n(&s->head, j->next, __ATOMIC_RELAXED); /* (has_job reads it unlocked) */
        if (!s->head)
            s->tail = NULL;
        pthread_mutex_unlock(&s->lock);
        j->fn(j->data);
        free(j);
    }
    return NULL;
}

/* Under s->lock: starts the queue's thread. */
static bool start(mosaic_serial *s)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&s->lock));
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->started = pthread_create(&thread, &attr, serial_main, s) == 0;
    pthread_attr_destroy(&attr);
    if (!s->started)
        mosaic_debug(__func__, "cannot start the %s thread", s->name);
    return s->started;
}

bool mosaic_serial_init(mosaic_serial *s, const char *name, bool spins)
{
    *s = (mosaic_serial){ .name = name, .spins = spins };
    if (pthread_mutex_init(&s->lock, NULL) != 0)
        return false;
    if (pthread_cond_init(&s->ready, NULL) != 0) {
        pthread_mutex_destroy(&s->lock);
        return false;
    }
    return true;
}

bool mosaic_serial_post(mosaic_serial *s, void (*fn)(void *), void *data)
{
    mosaic_serial_job *j = malloc(sizeof *j);
    if (!j)
        return false;
    *j = (mosaic_serial_job){ NULL, fn, data };
    pthread_mutex_lock(&s->lock);
    if (!s->started && !start(s)) {
        pthread_mutex_unlock(&s->lock);
        free(j);
        return false;
    }
    if (s->tail)
        s->tail->next = j;
    else
        __atomic_store_n(&s->head, j, __ATOMIC_RELEASE);
    s->tail = j;
    pthread_cond_signal(&s->ready);
    pthread_mutex_unlock(&s->lock);
    return true;
}

void mosaic_serial_before_fork(mosaic_serial *s) { pthread_mutex_lock(&s->lock); }

void mosaic_serial_after_fork_in_parent(mosaic_serial *s) { pthread_mutex_unlock(&s->lock); }

void mosaic_serial_after_fork_in_child(mosaic_serial *s)
{
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->ready, NULL);
    while (s->head) {
        mosaic_serial_job *j = s->head;
        s->head = j->next;
        free(j);
    }
    s->tail = NULL;
    s->started = false;
}
