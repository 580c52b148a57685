/* What the enqueue functions ask of kernels (api/kernel.c). */
#ifndef MOSAIC_API_KERNEL_H
#define MOSAIC_API_KERNEL_H

#include "core/objects.h"

/* The kernel as built for `device` (a device of its program, or a
 * sub-device of one), or NULL when the program's build for it has no such
 * kernel (the build failed, or was not made). */
const mosaic_kernel_info *mosaic_kernel_info_on(cl_kernel kernel, cl_device_id device);

/* CL_KERNEL_WORK_GROUP_SIZE: the largest work-group this kernel can run with
 * (its required size, or the device's largest, or fewer when its work-items'
 * private memory takes more than the device gives a group); 0: none. */
size_t mosaic_kernel_max_work_group_size(cl_kernel kernel, cl_device_id device);

/* Lays out the kernel's __local memory: static variables first, then each
 * __local argument 128-byte aligned.  Writes each __local argument's offset
 * to offsets[i] (if offsets is not NULL) and returns the total size. */
size_t mosaic_kernel_layout_local_args(cl_kernel kernel, uint64_t *offsets);

/* Sets argument `index` to a pointer (clSetKernelArgSVMPointer,
 * clSetKernelArgMemPointerINTEL; `function` names it in messages):
 * CL_INVALID_ARG_INDEX, or CL_INVALID_ARG_VALUE when the argument is not a
 * global or constant pointer.  The kernel handle is checked already. */
cl_int mosaic_kernel_set_pointer_arg(const char *function, cl_kernel kernel, cl_uint index, const void *value);

/* clSetKernelExecInfo's USM parameters (api/usm.c): true when param_name is
 * one of them, with the answer in *err. */
bool mosaic_usm_kernel_exec_info(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                 const void *param_value, cl_int *err);

#endif
