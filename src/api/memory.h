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

/* True when ptr lies inside an SVM allocation made in context (api/svm.c);
 * clCreateBuffer(CL_MEM_USE_HOST_PTR) asks it to set CL_MEM_USES_SVM_POINTER. */
bool mosaic_svm_contains(cl_context context, const void *ptr);

#endif
