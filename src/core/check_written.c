/* Checking mode's record of the bytes of a buffer something wrote (check_written.h). */
#include "core/check_written.h"
#include "base/settings.h"
#include "core/coherence.h"

#include <stdlib.h>

bool mosaic_check_written_new(cl_mem mem, bool has_host_data)
{
    if (!(mosaic_settings()->check & MOSAIC_CHECK_UNINIT) || has_host_data || mem->parent ||
        mem->mem_type != CL_MEM_OBJECT_BUFFER)
        return true;
    mosaic_check_written *w = calloc(1, MOSAIC_CHECK_WRITTEN_BYTES(mem->size));
    if (!w)
        return false;
    w->size = mem->size;
    mem->written = w;
    return true;
}

void mosaic_check_written_free(cl_mem mem)
{
    free(mem->written);
    mem->written = NULL;
}

/* Bits lo .. lo + n - 1 of a word (n at least 1, lo + n at most 64). */
static uint64_t bits_from(unsigned lo, unsigned n) { return (n == 64 ? ~0ull : (1ull << n) - 1) << lo; }

void mosaic_check_written_set(mosaic_check_written *w, size_t offset, size_t size)
{
    if (offset >= w->size)
        return;
    size_t end = offset + (size < w->size - offset ? size : w->size - offset);
    while (offset < end) { /* a word of bits at a time, written only when a bit is missing */
        unsigned lo = offset % 64, n = end - offset < 64 - lo ? (unsigned)(end - offset) : 64 - lo;
        uint64_t mask = bits_from(lo, n), bits = atomic_load_explicit(&w->words[offset / 64], memory_order_relaxed);
        if ((bits & mask) != mask && w->alone)
            atomic_store_explicit(&w->words[offset / 64], bits | mask, memory_order_relaxed);
        else if ((bits & mask) != mask)
            atomic_fetch_or_explicit(&w->words[offset / 64], mask, memory_order_relaxed);
        offset += n;
    }
}

size_t mosaic_check_written_first_unwritten(const mosaic_check_written *w, size_t offset, size_t size)
{
    size_t end = offset + size < w->size ? offset + size : w->size;
    while (offset < end) {
        unsigned lo = offset % 64, n = end - offset < 64 - lo ? (unsigned)(end - offset) : 64 - lo;
        uint64_t mask = bits_from(lo, n);
        uint64_t bits = atomic_load_explicit(&((mosaic_check_written *)w)->words[offset / 64], memory_order_relaxed);
        if ((bits & mask) != mask)
            return offset / 64 * 64 + (size_t)__builtin_ctzll(~bits & mask);
        offset += n;
    }
    return (size_t)-1;
}

bool mosaic_check_written_all(mosaic_check_written *w)
{
    if (atomic_load_explicit(&w->complete, memory_order_relaxed))
        return true;
    if (mosaic_check_written_first_unwritten(w, 0, w->size) != (size_t)-1)
        return false;
    atomic_store_explicit(&w->complete, true, memory_order_relaxed);
    return true;
}

static cl_int mark(cl_event command, const mosaic_mem_access *a, void *arg)
{
    bool kernel_checked = *(bool *)arg;
    cl_mem root = a->mem->parent ? a->mem->parent : a->mem;
    if (!root->written || !(a->mode & MOSAIC_ACCESS_WRITES) || kernel_checked)
        return CL_SUCCESS;
    (void)command;
    mosaic_check_written_set(root->written, (a->mem->parent ? a->mem->offset : 0) + a->offset, a->size);
    return CL_SUCCESS;
}

void mosaic_check_written_by_command(cl_event command)
{
    if (!command->queue || !command->payload) /* (what has no payload uses no memory object) */
        return;
    bool kernel = command->command_type == CL_COMMAND_NDRANGE_KERNEL || command->command_type == CL_COMMAND_TASK;
    /* (a device that checks its own kernels' accesses has the checker's runtime) */
    bool kernel_checked =
        kernel && mosaic_target_has_symbol(&command->queue->device->compiler_target, "__mosaic_check_access");
    mosaic_command_each_access(command, mark, &kernel_checked);
}
