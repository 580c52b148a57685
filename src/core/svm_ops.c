/*
 * The SVM commands' ops where every SVM address is a host address the
 * executing thread may touch (core/device.h, svm_copy and svm_fill): the
 * CPU device's memory, and the GPU's managed memory once the commands
 * before have completed.
 */
#include <string.h>

#include "core/device.h"
#include "core/objects.h"

cl_int mosaic_host_svm_copy(cl_event command)
{
    const mosaic_svm_copy *c = command->payload;
    memmove(c->dst, c->src, c->size);
    return CL_COMPLETE;
}

cl_int mosaic_host_svm_fill(cl_event command)
{
    mosaic_svm_fill *f = command->payload;
    size_t ps = f->pattern_size, n = f->size;
    if (n == 0)
        return CL_COMPLETE;
    bool uniform = true;
    for (size_t i = 1; i < ps && uniform; i++)
        uniform = f->pattern[i] == f->pattern[0];
    if (uniform) {
        memset(f->ptr, f->pattern[0], n);
        return CL_COMPLETE;
    }
    /* Lay down one pattern, then double the filled prefix: every copy
     * starts at a multiple of the pattern size, so the phase is right. */
    memcpy(f->ptr, f->pattern, ps);
    size_t done = ps;
    while (done < n) {
        size_t chunk = done < n - done ? done : n - done;
        memcpy(f->ptr + done, f->ptr, chunk);
        done += chunk;
    }
    return CL_COMPLETE;
}
