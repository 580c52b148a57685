/*
 * Memory objects: where a buffer's bytes are, for every layer (the API
 * functions that check buffers are in api/memory.h).
 *
 * A buffer has one storage per memory domain of its context (a device and
 * its sub-devices), given by that device's ops->mem_alloc when the buffer is
 * created and freed by its ops->mem_free when nothing can use it any more
 * (core/device.h, docs/devices.md).  On the CPU device the storage is host
 * memory at one fixed address: allocated by the device (128-byte aligned),
 * or the user's pointer for CL_MEM_USE_HOST_PTR (zero copy; this includes a
 * pointer into an SVM allocation).  A sub-buffer's storage is a view of its
 * parent's at its origin, and it holds an internal reference on the parent.
 * Sub-buffers of sub-buffers do not exist.
 */
#ifndef MOSAIC_MEMORY_H
#define MOSAIC_MEMORY_H

#include "core/device.h"

/* Byte alignment of every buffer Mosaic allocates; also what the CPU device
 * reports as CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits: 1024). */
#define MOSAIC_MEM_ALIGN 128

/* mem's storage on the memory domain of `device` (a device of mem's
 * context, not NULL), or NULL when it has none there.  What kernels on
 * device get for mem is its `address`.  (storages[0] always exists: a
 * memory object has room for one storage per device of its context, and
 * a context has at least one; unallocated entries have device NULL.) */
static inline mosaic_mem_storage *mosaic_mem_storage_on(cl_mem mem, cl_device_id device)
{
    if (mem->storages[0].device == device) /* the context's first domain: a command's usual case */
        return &mem->storages[0];
    cl_device_id domain = mosaic_device_mem_domain(device);
    for (cl_uint i = 0; i < mem->num_storages; i++)
        if (mem->storages[i].device == domain)
            return &mem->storages[i];
    return NULL;
}

/* One end of a transfer as `device` addresses it: its buffer's storage
 * there, or its host memory, plus its offset. */
static inline char *mosaic_endpoint_address(const mosaic_endpoint *e, cl_device_id device)
{
    return (e->mem ? mosaic_mem_storage_on(e->mem, device)->address : e->host) + e->offset;
}

/* Is a transfer one flat run of bytes (its rows and slices packed on both
 * sides)?  *size: its bytes. */
static inline bool mosaic_transfer_flat(const mosaic_transfer *t, size_t *size)
{
    const size_t *r = t->region;
    bool rows = r[1] == 1 || (t->src.row_pitch == r[0] && t->dst.row_pitch == r[0]);
    bool slices = r[2] == 1 || (t->src.slice_pitch == r[0] * r[1] && t->dst.slice_pitch == r[0] * r[1]);
    *size = r[0] * r[1] * r[2];
    return rows && slices;
}

/* The buffer that owns the storage: the parent of a sub-buffer, else mem. */
static inline cl_mem mosaic_mem_root(cl_mem mem) { return mem->parent ? mem->parent : mem; }

/* Byte offset of mem's first byte inside its root buffer. */
static inline size_t mosaic_mem_root_offset(cl_mem mem) { return mem->parent ? mem->offset : 0; }

#endif
