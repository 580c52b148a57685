/*
 * Names of the OpenCL 3.1 headers (OpenCL-Headers' CL/cl.h and CL/cl_ext.h)
 * that the system's older headers (Debian 12's opencl-headers 2023.02) lack:
 * defined here, once, each only where the system's header has not defined
 * it, with the Khronos headers' values.  Included by core/objects.h, and by
 * the tests that query them.  (cl_khr_command_buffer's 0.9.8 names, which
 * differ from the older revision Debian has, are include/CL/mosaic_command_buffer.h.)
 */
#ifndef MOSAIC_CL_EXT_COMPAT_H
#define MOSAIC_CL_EXT_COMPAT_H

#include <CL/cl.h>
#include <CL/cl_ext.h>

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

/* cl_khr_semaphore 1.0 (Debian has an experimental revision) */
#ifndef CL_KHR_SEMAPHORE_EXTENSION_VERSION
#define CL_KHR_SEMAPHORE_EXTENSION_VERSION CL_MAKE_VERSION(1, 0, 0)
#endif
#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif

/* cl_ext_float_atomics */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif

#endif
