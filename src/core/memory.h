/*
 * Memory objects: where a buffer's bytes are, for every layer (the API
 * functions that check buffers are in api/memory.h).
 *
 * On the CPU device a buffer's bytes live at one fixed host address for its
 * whole life (`data`): allocated by Mosaic (128-byte aligned), or the user's
 * pointer for CL_MEM_USE_HOST_PTR (zero copy; this includes a pointer into
 * an SVM allocation).  A sub-buffer has no storage of its own: its `data`
 * is the parent's data + origin, fixed at creation, and it holds an internal
 * reference on the parent.  Sub-buffers of sub-buffers do not exist.
 */
#ifndef MOSAIC_MEMORY_H
#define MOSAIC_MEMORY_H

#include "core/objects.h"

/* Byte alignment of every buffer Mosaic allocates; also what the CPU device
 * reports as CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits: 1024). */
#define MOSAIC_MEM_ALIGN 128

/* The address of the first byte of a buffer or sub-buffer. */
static inline char *mosaic_mem_data(cl_mem mem) { return mem->data; }

/* The buffer that owns the storage: the parent of a sub-buffer, else mem. */
static inline cl_mem mosaic_mem_root(cl_mem mem) { return mem->parent ? mem->parent : mem; }

/* Byte offset of mem's first byte inside its root buffer. */
static inline size_t mosaic_mem_root_offset(cl_mem mem) { return mem->parent ? mem->offset : 0; }

#endif
