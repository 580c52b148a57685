/*
 * Counter arguments in private copies.
 *
 * A launch's counter arguments (mosaic_ndrange.counters) are buffers the
 * kernel only adds to atomically and never reads (the compiler's
 * counter-args pass; the API leaves out buffers that anything else can
 * reach).  A worker that runs several of the launch's groups gives them a
 * zeroed copy of each, of the buffer's size, and adds each copy's non-zero
 * counters into the buffer once its groups are done: one atomic add per
 * counter and worker instead of one per counter and group, on cache lines
 * no other core writes meanwhile.  The kernel's code is the same; only its
 * argument points elsewhere.  The sums are the same, as integer addition
 * commutes, and no one can look at the counters before the launch ends.
 */
#include "devices/cpu/cpu_counters.h"
#include "base/assert.h"
#include "base/settings.h"

#include <stdlib.h>
#include <string.h>

/* The most bytes of copies a launch may ask of each worker: a histogram's
 * bins, which stay in the core's L1 or L2 cache (zeroing and folding more
 * would cost what the copies save). */
#define MOST_COPY_BYTES (64 * 1024)
/* Groups per worker below which the copies do not pay. */
#define LEAST_GROUPS_PER_WORKER 2

static size_t copy_bytes(const mosaic_counter_arg *a) { return (a->size + 63) & ~(size_t)63; }

/* The bytes of all of nd's copies, one after another. */
static size_t copies_bytes(const mosaic_ndrange *nd)
{
    size_t bytes = 0;
    for (cl_uint i = 0; i < nd->num_counters; i++)
        bytes += copy_bytes(&nd->counters[i]);
    return bytes;
}

bool mosaic_cpu_counters_pay(const mosaic_ndrange *nd, unsigned workers)
{
    if (!nd->num_counters || mosaic_settings()->no_private_counters ||
        nd->total_groups < (size_t)workers * LEAST_GROUPS_PER_WORKER)
        return false;
    return copies_bytes(nd) <= MOST_COPY_BYTES;
}

bool mosaic_cpu_counters_begin(cpu_counters *c, const mosaic_ndrange *nd)
{
    MOSAIC_ASSERT(nd->num_counters > 0 && nd->num_counters <= MOSAIC_MAX_COUNTERS);
    cl_uint n = nd->info->num_args;
    size_t bytes = copies_bytes(nd);
    if (c->args_cap < n) {
        void **args = realloc(c->args, n * sizeof *args);
        if (!args)
            return false;
        c->args = args;
        c->args_cap = n;
    }
    if (c->copies_cap < bytes) {
        free(c->copies);
        c->copies_cap = 0;
        if (!(c->copies = aligned_alloc(64, bytes)))
            return false;
        c->copies_cap = bytes;
    }
    memset(c->copies, 0, bytes);
    memcpy(c->args, nd->args, n * sizeof *c->args);
    char *at = c->copies;
    for (cl_uint i = 0; i < nd->num_counters; i++) {
        const mosaic_counter_arg *a = &nd->counters[i];
        MOSAIC_ASSERT(a->arg < n && (a->width == 4 || a->width == 8));
        c->slots[i] = (uint64_t)(uintptr_t)at;
        c->args[a->arg] = &c->slots[i];
        at += copy_bytes(a);
    }
    return true;
}

void mosaic_cpu_counters_fold(const cpu_counters *c, const mosaic_ndrange *nd)
{
    for (cl_uint i = 0; i < nd->num_counters; i++) {
        const mosaic_counter_arg *a = &nd->counters[i];
        const char *copy = (const char *)(uintptr_t)c->slots[i];
        char *buffer = (char *)(uintptr_t)*(const uint64_t *)nd->args[a->arg];
        size_t count = a->size / a->width;
        if (a->width == 8) {
            const uint64_t *from = (const uint64_t *)copy;
            uint64_t *to = (uint64_t *)buffer;
            for (size_t k = 0; k < count; k++)
                if (from[k])
                    __atomic_fetch_add(&to[k], from[k], __ATOMIC_RELAXED);
        } else {
            const uint32_t *from = (const uint32_t *)copy;
            uint32_t *to = (uint32_t *)buffer;
            for (size_t k = 0; k < count; k++)
                if (from[k])
                    __atomic_fetch_add(&to[k], from[k], __ATOMIC_RELAXED);
        }
    }
}

void mosaic_cpu_counters_free(cpu_counters *c)
{
    free(c->args);
    free(c->copies);
    memset(c, 0, sizeof *c);
}
