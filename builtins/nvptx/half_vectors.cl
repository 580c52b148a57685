/* vloadn and vstoren of half on the GPU (OpenCL C 3.0 section 6.15.11):
 * libclc's NVPTX library has them for every other type.  Written for
 * __global, __local, __private (on NVPTX also the generic space: one
 * address space, one mangled name) and, loads only, __constant. */
#include "../builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#include "../vload.h"

UNALIGNED(half, )
VLOAD(half, __global)
VLOAD(half, __local)
VLOAD(half, __private)
VLOAD_CONSTANT(half, __constant)
