/*
 * cl_khr_semaphore 1.0: the names Debian 12's CL/cl_ext.h (an experimental
 * revision of the extension) lacks, defined here only.  The values are the
 * Khronos registry's (OpenCL-Headers, CL/cl_ext.h).
 */
#ifndef MOSAIC_CL_KHR_SEMAPHORE_H
#define MOSAIC_CL_KHR_SEMAPHORE_H

#include <CL/cl_ext.h>

#ifndef CL_KHR_SEMAPHORE_EXTENSION_VERSION
#define CL_KHR_SEMAPHORE_EXTENSION_VERSION CL_MAKE_VERSION(1, 0, 0)
#endif
#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif

#endif
