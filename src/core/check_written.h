/*
 * Checking mode's `uninit` on buffers (docs/check.md): which bytes of a
 * buffer created without host data something wrote.  A root buffer made
 * without COPY_HOST_PTR or USE_HOST_PTR while MOSAIC_CHECK has `uninit`
 * gets a bit per byte (mem->written); the engine sets the bits of what a
 * command writes when it starts (transfers, fills, unmaps after a map for
 * writing, migrations, kernels on devices that do not check), and a
 * checking device sets those its kernels write, access by access.  A
 * checked kernel's read of a byte whose bit is clear is reported.
 */
#ifndef MOSAIC_CORE_CHECK_WRITTEN_H
#define MOSAIC_CORE_CHECK_WRITTEN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/objects.h"

typedef struct mosaic_check_written {
    size_t size;                /* the buffer's bytes */
    _Atomic bool complete;      /* every bit is set (found by mosaic_check_written_all; bits never clear) */
    bool alone;                 /* one thread sets the bits (a work-group's __local memory): no locked or */
    _Atomic uint64_t words[];   /* bit i % 64 of words[i / 64]: byte i was written */
} mosaic_check_written;

/* The bytes of a mosaic_check_written for `size` bytes of memory. */
#define MOSAIC_CHECK_WRITTEN_BYTES(size) (sizeof(mosaic_check_written) + ((size) + 63) / 64 * sizeof(uint64_t))

/* Gives mem its bits when checking wants them (a root buffer created
 * without host data); false when out of memory (the buffer is then not
 * tracked). */
bool mosaic_check_written_new(cl_mem mem, bool has_host_data);
void mosaic_check_written_free(cl_mem mem);

/* The bits of [offset, offset + size) of w set. */
void mosaic_check_written_set(mosaic_check_written *w, size_t offset, size_t size);
/* The first byte of [offset, offset + size) of w that nothing wrote, or
 * (size_t)-1 when every one was. */
size_t mosaic_check_written_first_unwritten(const mosaic_check_written *w, size_t offset, size_t size);

/* Were all of w's bytes written?  (A scan of the bits until the answer is
 * yes, then at once.) */
bool mosaic_check_written_all(mosaic_check_written *w);

/* Called by the engine as a command starts, under checking: sets the bits
 * of what it writes, but for a kernel on a device that checks its own
 * accesses. */
void mosaic_check_written_by_command(cl_event command);

#endif
