/* Handle validation and reference counting shared by every object type. */
#include "core/objects.h"
#include "core/engine.h"
#include "base/assert.h"

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
