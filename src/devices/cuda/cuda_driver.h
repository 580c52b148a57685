/*
 * The CUDA driver as Mosaic's GPU device uses it: NVIDIA's driver API
 * (libcuda.so.1) loaded at run time with dlopen, never linked, so that
 * Mosaic builds without the CUDA toolkit and runs where there is no GPU.
 * This header declares the little of the driver's interface the device
 * needs (handle types, constants, the functions of cuda_functions.def),
 * written from NVIDIA's CUDA Driver API reference, and the table of entry
 * points one open fills in.  The device (cuda.h) opens it once, in
 * cuda_device.c.
 */
#ifndef MOSAIC_CUDA_DRIVER_H
#define MOSAIC_CUDA_DRIVER_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- handles: opaque to the caller, as the driver hands them out ---------- */
typedef int CUresult;
typedef int CUdevice; /* an ordinal, 0 to cuDeviceGetCount - 1 */
typedef uint64_t CUdeviceptr; /* a device address: what kernels take */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUdevice_attribute; /* an enum in C: int-sized, as are the two below */
typedef int CUfunction_attribute;
typedef int CUjit_option;
typedef struct CUuuid {
    char bytes[16];
} CUuuid;
typedef void (*CUhostFn)(void *data); /* cuLaunchHostFunc's callback */
enum { CU_MEM_ATTACH_GLOBAL = 1 }; /* cuMemAllocManaged: any stream of any device may use it */
enum { CU_POINTER_ATTRIBUTE_IS_MANAGED = 8 }; /* cuPointerGetAttribute: an unsigned int, 1 for managed memory */

/* ---- CUresult: the codes Mosaic tells apart (CUDA Driver API, "Data types
 * used by CUDA driver", enum cudaError_enum) ------------------------------- */
enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201, /* none current on the calling thread */
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600, /* cuStreamQuery, cuEventQuery: not done yet; no failure */
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_NOT_SUPPORTED = 801,
};

/* ---- CUdevice_attribute: what describe will ask (same reference, enum
 * CUdevice_attribute_enum) ------------------------------------------------- */
enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8, /* bytes, without opting in */
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13, /* kHz */
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38, /* bytes */
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
    /* what a kernel may have after cuFuncSetAttribute raises its limit */
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* ---- CUfunction_attribute: what a launch asks of a kernel and sets (same
 * reference, enum CUfunction_attribute_enum) -------------------------------- */
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, /* what the kernel's registers allow */
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,     /* its static __shared__ (OpenCL __local) bytes */
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,      /* a thread's local (OpenCL private) memory */
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, /* raised to use more than 48 KiB */
};

/* ---- CUjit_option: the JIT's logs, for cuModuleLoadDataEx (same reference,
 * enum CUjit_option_enum).  A size is passed as the option's value cast to
 * a pointer, and the driver writes back how much it used. ------------------ */
enum {
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* ---- flags of cuStreamCreate (CUstream_flags) and cuEventCreate
 * (CUevent_flags), same reference ------------------------------------------ */
enum {
    CU_STREAM_NON_BLOCKING = 0x1, /* no implicit ordering with the legacy stream 0 */
    CU_EVENT_DEFAULT = 0x0,
    CU_EVENT_DISABLE_TIMING = 0x2, /* cheaper, for events only waited on */
};

/* The entry points are asked for as CUDA 12.0 defined them (cuGetProcAddress's
 * cudaVersion: 1000 * major + 10 * minor). */
#define MOSAIC_CUDA_API_VERSION 12000

/* One loaded driver: the library's handle, its version, and one pointer per
 * row of cuda_functions.def, called as d->cuMemAlloc(&address, bytes). */
typedef struct mosaic_cuda_driver {
    void *library; /* dlopen's handle; NULL when closed */
    int version; /* cuDriverGetVersion: 1000 * major + 10 * minor */
#define CUDA_FUNCTION(name, params) CUresult (*name) params;
#include "devices/cuda/cuda_functions.def"
} mosaic_cuda_driver;

/* Opens the driver `library` (a name dlopen searches for, or a path: the
 * setting MOSAIC_CUDA_DRIVER), looks up every function of
 * cuda_functions.def as CUDA 12.0 defined it, and initialises the driver
 * (cuInit, cuDriverGetVersion).  On failure: *d is left zeroed, `why` (when
 * not NULL) holds one sentence saying what failed, and it returns false:
 * the library could not be opened (dlerror's words), the driver lacks a
 * function, cuInit failed (its error's name and text: no GPU, for one), or
 * the driver is older than CUDA 12.0. */
bool mosaic_cuda_driver_open(mosaic_cuda_driver *d, const char *library, char *why, size_t why_size);

/* Unloads a driver opened by mosaic_cuda_driver_open and zeroes *d; a
 * zeroed (closed) one is left as it is.  Whatever was made through it
 * (contexts, memory, streams) must be released first. */
void mosaic_cuda_driver_close(mosaic_cuda_driver *d);

/* The driver's name of a CUresult ("CUDA_ERROR_OUT_OF_MEMORY"), or
 * "unknown CUDA error" when the driver knows no such code or is not open.
 * The string is the driver's or a constant: any thread may call it. */
const char *mosaic_cuda_error_name(const mosaic_cuda_driver *d, CUresult r);

/* The OpenCL error an API call returns when the driver failed with `r`
 * (CL_SUCCESS for CUDA_SUCCESS); the table is at the function. */
cl_int mosaic_cuda_cl_error(CUresult r);

#endif
