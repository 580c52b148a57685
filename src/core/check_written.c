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
    mosaic_check_written *w = calloc(1, sizeof *w + (mem->size + 7) / 8);
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

void mosaic_check_written_set(mosaic_check_written *w, size_t offset, size_t size)
{
    if (offset >= w->size)
        return;
    size_t end = offset + (size < w->size - offset ? size : w->size - offset);
    while (offset < end) { /* a byte of bits at a time, written only when a bit is missing */
        unsigned lo = offset % 8, n = end - offset < 8 - lo ? (unsigned)(end - offset) : 8 - lo;
        unsigned char mask = (unsigned char)(((1u << n) - 1) << lo);
        if ((atomic_load_explicit(&w->bits[offset / 8], memory_order_relaxed) & mask) != mask)
            atomic_fetch_or_explicit(&w->bits[offset / 8], mask, memory_order_relaxed);
        offset += n;
    }
}

size_t mosaic_check_written_first_unwritten(const mosaic_check_written *w, size_t offset, size_t size)
{
    size_t end = offset + size < w->size ? offset + size : w->size;
    while (offset < end) {
        unsigned lo = offset % 8, n = end - offset < 8 - lo ? (unsigned)(end - offset) : 8 - lo;
        unsigned char mask = (unsigned char)(((1u << n) - 1) << lo);
        unsigned char bits = atomic_load_explicit(&((mosaic_check_written *)w)->bits[offset / 8], memory_order_relaxed);
        if ((bits & mask) != mask)
            return offset / 8 * 8 + (size_t)__builtin_ctz((unsigned)(~bits & mask));
        offset += n;
    }
    return (size_t)-1;
}

bool mosaic_check_written_all(mosaic_check_written *w)
{
    if (atomic_load_explicit(&w->complete, memory_order_relaxed))
        return true;
    size_t whole = w->size / 8;
    for (size_t i = 0; i < whole; i++)
        if (atomic_load_explicit(&w->bits[i], memory_order_relaxed) != 0xff)
            return false;
    if (w->size % 8 && mosaic_check_written_first_unwritten(w, whole * 8, w->size % 8) != (size_t)-1)
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
