/*
 * Buffers shared by devices with memories of their own: a context of the
 * CPU and a GPU gives each buffer a storage in both memories (core/memory.h),
 * and this keeps them agreeing.  docs/devices.md, "Buffers across
 * memories", is the long version.
 *
 * For each root buffer of such a context, a map of extents says which
 * storages hold the current bytes of each range.  When a command's
 * dependencies are complete, before its device runs it, the engine calls
 * mosaic_coherence_start: every range the command reads on its device that
 * is not current in that device's memory is copied there from one where it
 * is, and every range it may write becomes current in its memory alone.
 * The ordering the application gave with events and queues is what makes
 * this right: a command starts only after the commands it must follow,
 * and commands that are not ordered may share a buffer only to read it
 * (or write disjoint sub-buffers), as the specification says.
 *
 * Contexts of one memory (the CPU and its sub-devices, or one GPU) have no
 * such map and pay one test per command.
 */
#ifndef MOSAIC_COHERENCE_H
#define MOSAIC_COHERENCE_H

#include "core/objects.h"

typedef struct mosaic_coherence mosaic_coherence;

/* The map of a root buffer with num_storages (2..64) storages, all
 * current: a buffer's storages start with the same bytes (or all
 * undefined).  NULL when out of memory. */
mosaic_coherence *mosaic_coherence_new(size_t size, cl_uint num_storages);
void mosaic_coherence_free(mosaic_coherence *c);

/* What a command does to one memory object: a range of it, relative to
 * the object (a sub-buffer's first byte is 0), read, written or both. */
enum { MOSAIC_ACCESS_READS = 1, MOSAIC_ACCESS_WRITES = 2 };
typedef struct mosaic_mem_access {
    cl_mem mem;
    size_t offset, size;
    int mode;
} mosaic_mem_access;

/* Calls fn for each memory object the command uses (its payload says
 * which); stops at the first error fn returns, and returns it. */
cl_int mosaic_command_each_access(cl_event command, cl_int (*fn)(cl_event, const mosaic_mem_access *, void *),
                                  void *arg);

/* Called by the engine for a command whose dependencies are complete
 * (dependency_error 0), before it runs.  Returns false when the command
 * may run at once: what it uses was current already (or its context has
 * one memory).  Returns true when copies are needed: they are made on
 * Mosaic's copy thread, which then calls then(command, CL_SUCCESS), or
 * then(command, error) when a copy failed. */
bool mosaic_coherence_start(cl_event command, void (*then)(cl_event, cl_int));

/* The same, with the copies made on the calling thread: CL_SUCCESS or
 * the error of a failed copy (a blocking command run where it was
 * enqueued). */
cl_int mosaic_coherence_start_here(cl_event command);

#endif
