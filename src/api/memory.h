/* What the API files ask of memory objects (api/memory.c) and SVM
 * allocations (api/svm.c); core/memory.h says where a buffer's bytes are. */
#ifndef MOSAIC_API_MEMORY_H
#define MOSAIC_API_MEMORY_H

#include "core/memory.h"

/* True for a valid (not released) buffer or sub-buffer handle. */
bool mosaic_mem_is_buffer(cl_mem mem);

/* CL_SUCCESS, or CL_MISALIGNED_SUB_BUFFER_OFFSET when mem is a sub-buffer
 * whose origin is not aligned to device's CL_DEVICE_MEM_BASE_ADDR_ALIGN
 * (what clEnqueue* and clSetKernelArg/clEnqueueNDRangeKernel must check). */
cl_int mosaic_mem_check_alignment(cl_mem mem, cl_device_id device);

/* Host access checks of clEnqueueRead, Write and Map: false when the buffer
 * was created with a CL_MEM_HOST_* flag that forbids it. */
bool mosaic_mem_host_can_read(cl_mem mem);
bool mosaic_mem_host_can_write(cl_mem mem);

/* Making memory objects (api/memory.c; buffers there, images in
 * api/image.c):
 *   mosaic_mem_check_flags: CL_INVALID_VALUE for unknown or conflicting
 *     cl_mem_flags of a buffer or image;
 *   mosaic_mem_inherit_flags: the flags of an object made from `parent`
 *     (a sub-buffer, an image from a buffer or image): access and host access
 *     inherited when not given, no wider than the parent's, host pointer
 *     flags inherited and never given (CL_INVALID_VALUE);
 *   mosaic_mem_new: a memory object with room for one storage per device of
 *     the context, none allocated (NULL: out of memory);
 *   mosaic_mem_alloc_storages: its storages, one per memory domain, from
 *     `initial` (mem->size bytes) or undefined; on failure mosaic_release(mem)
 *     frees what was made;
 *   mosaic_context_max_alloc: the largest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the
 *     context's devices. */
cl_int mosaic_mem_check_flags(cl_mem_flags flags);
cl_int mosaic_mem_inherit_flags(cl_mem parent, cl_mem_flags flags, cl_mem_flags *out);
cl_mem mosaic_mem_new(cl_context context, cl_mem_object_type type, cl_mem_flags flags, size_t size);
cl_int mosaic_mem_alloc_storages(cl_mem mem, const void *initial);
cl_ulong mosaic_context_max_alloc(cl_context context);

/* True for a valid image handle (any CL_MEM_OBJECT_IMAGE* type). */
bool mosaic_mem_is_image(cl_mem mem);

/* True when ptr lies inside an SVM allocation made in context (api/svm.c);
 * clCreateBuffer(CL_MEM_USE_HOST_PTR) asks it to set CL_MEM_USES_SVM_POINTER. */
bool mosaic_svm_contains(cl_context context, const void *ptr);

#endif
