/*
 * OpenCL 3.1 names that Debian's headers (opencl-headers 3.0~2023.02) do not
 * have yet, with the values of the Khronos headers.  Each is defined only
 * where the system's header lacks it, so newer headers win.
 */
#ifndef MOSAIC_API_CL_31_H
#define MOSAIC_API_CL_31_H

#include <CL/cl.h>

#ifndef CL_VERSION_3_1
/* the device queries of OpenCL 3.1 (some of them cl_khr_* queries made core,
 * with the same values) */
#define CL_DEVICE_MAX_WORK_GROUP_SIZES 0x1005 /* the new name of CL_DEVICE_MAX_WORK_ITEM_SIZES */
#define CL_DEVICE_UUID 0x106A
#define CL_DRIVER_UUID 0x106B
#define CL_DEVICE_LUID_VALID 0x106C
#define CL_DEVICE_LUID 0x106D
#define CL_DEVICE_NODE_MASK 0x106E
#define CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES 0x1073
#define CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT 0x1074
#define CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED 0x1075
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES 0x12BB
#endif

/* cl_khr_spirv_queries: the same queries */
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

/* cl_khr_kernel_clock */
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
typedef cl_bitfield cl_device_kernel_clock_capabilities_khr;
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

/* OpenCL 3.1's entry point (cl_khr_suggested_local_work_size's function, made core) */
#ifndef CL_VERSION_3_1
extern CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSuggestedLocalWorkSize(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                  const size_t *global_work_offset, const size_t *global_work_size,
                                  size_t *suggested_local_work_size);
#endif

#endif
