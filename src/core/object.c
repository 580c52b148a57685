/* Handle validation and reference counting shared by every object type. */
#include "core/objects.h"
#include "core/engine.h"
#include "base/assert.h"

#include <pthread.h>
#include <stdlib.h>

void mosaic_object_init(void *object, mosaic_object_type type, const cl_icd_dispatch *dispatch,
                        void (*destroy)(void *))
{
    struct { MOSAIC_OBJECT_HEADER; } *o = object;
    o->dispatch = dispatch;
    o->obj.type = type;
    atomic_init(&o->obj.refcount, 1);
    atomic_init(&o->obj.internal, 1);
    o->obj.destroy = destroy;
}

static mosaic_object *header(const void *object)
{
    struct { MOSAIC_OBJECT_HEADER; } *o = (void *)object;
    return &o->obj;
}

/* A handle is valid when it is not NULL and carries the right tag.  A freed
 * object has its tag overwritten, which catches most use-after-release. */
bool mosaic_object_is(const void *object, mosaic_object_type type)
{
    return object != NULL && header(object)->type == type;
}

/* For assertions: one of the tags (they count up from MOSAIC_PLATFORM), not
 * MOSAIC_DEAD nor garbage, and not destroyed yet. */
static bool live(const mosaic_object *h)
{
    return (unsigned)h->type - MOSAIC_PLATFORM < 64 && atomic_load(&h->internal) > 0;
}

/* Objects without a destroy function are never freed: no count to keep. */
void mosaic_retain(void *object)
{
    mosaic_object *h = header(object);
    MOSAIC_ASSERT(live(h));
    if (h->destroy)
        atomic_fetch_add_explicit(&h->refcount, 1, memory_order_relaxed);
}

bool mosaic_release(void *object)
{
    mosaic_object *h = header(object);
    MOSAIC_ASSERT(live(h));
    if (!h->destroy)
        return true;
    unsigned old = atomic_load(&h->refcount);
    do {
        if (old == 0)
            return false; /* released more often than retained */
    } while (!atomic_compare_exchange_weak(&h->refcount, &old, old - 1));
    if (old == 1)
        mosaic_release_internal(object);
    return true;
}

void mosaic_retain_internal(void *object)
{
    MOSAIC_ASSERT(live(header(object)));
    atomic_fetch_add_explicit(&header(object)->internal, 1, memory_order_relaxed);
}

void mosaic_release_internal(void *object)
{
    mosaic_object *h = header(object);
    MOSAIC_ASSERT(live(h)); /* not released below zero */
    if (atomic_fetch_sub_explicit(&h->internal, 1, memory_order_acq_rel) == 1) {
        /* destructors may run user callbacks: never under the engine lock */
        MOSAIC_ASSERT(!mosaic_engine_lock_held());
        void (*destroy)(void *) = h->destroy;
        h->type = MOSAIC_DEAD;
        if (destroy)
            destroy(object);
    }
}

cl_uint mosaic_refcount(const void *object)
{
    return atomic_load(&header(object)->refcount);
}

/* ---- device queues as kernels name them ------------------------------------------
 * A kernel's queue_t is a value in its own memory (an argument, what
 * get_default_queue returned, an uninitialised variable): the device finds
 * it among the live device queues before it reads the queue, and holds the
 * queue from there, so that a queue released meanwhile is not freed under
 * it.  A handful per context: a list. */
static pthread_mutex_t device_queues_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_command_queue *device_queues;
static size_t num_device_queues, device_queues_cap;

bool mosaic_device_queue_register(cl_command_queue q)
{
    pthread_mutex_lock(&device_queues_lock);
    bool ok = true;
    if (num_device_queues == device_queues_cap) {
        size_t cap = device_queues_cap ? 2 * device_queues_cap : 16;
        cl_command_queue *grown = realloc(device_queues, cap * sizeof *grown);
        if (grown) {
            device_queues = grown;
            device_queues_cap = cap;
        }
        ok = grown != NULL;
    }
    if (ok)
        device_queues[num_device_queues++] = q;
    pthread_mutex_unlock(&device_queues_lock);
    return ok;
}

void mosaic_device_queue_unregister(cl_command_queue q)
{
    pthread_mutex_lock(&device_queues_lock);
    for (size_t i = 0; i < num_device_queues; i++)
        if (device_queues[i] == q) {
            device_queues[i] = device_queues[--num_device_queues];
            break;
        }
    pthread_mutex_unlock(&device_queues_lock);
}

cl_command_queue mosaic_device_queue_hold(const void *handle)
{
    cl_command_queue found = NULL;
    pthread_mutex_lock(&device_queues_lock);
    for (size_t i = 0; i < num_device_queues && !found; i++) {
        if (device_queues[i] != handle)
            continue;
        /* an internal hold, unless its last one is gone (its destruction,
         * which unregisters it under this lock, is under way) */
        atomic_uint *internal = &header(handle)->internal;
        unsigned n = atomic_load(internal);
        while (n && !atomic_compare_exchange_weak(internal, &n, n + 1))
            ;
        if (n)
            found = device_queues[i];
    }
    pthread_mutex_unlock(&device_queues_lock);
    return found;
}
