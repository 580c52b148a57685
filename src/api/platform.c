/*
 * The one Mosaic platform and its device list, created on first use.
 *
 * clGetPlatformIDs, clGetPlatformInfo, clUnloadCompiler,
 * clUnloadPlatformCompiler.
 */
#include "api/api.h"
#include "api/entry.h"
#include "core/util.h"
#include "devices/cpu/cpu.h"
#include "devices/cuda/cuda.h"
#include "devices/remote/remote.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifndef MOSAIC_VERSION_STRING
#define MOSAIC_VERSION_STRING "0.0.0"
#endif

#define PLATFORM_VERSION "OpenCL 3.1 Mosaic " MOSAIC_VERSION_STRING

static struct _cl_platform_id the_platform;
static struct _cl_device_id cpu_device;
/* the GPUs NVIDIA's driver lists (devices/cuda), after the CPU */
#define MAX_GPUS 16
static struct _cl_device_id gpu_devices[MAX_GPUS];
/* the devices of mosaic-server processes (devices/remote, MOSAIC_REMOTE), last */
#define MAX_REMOTE 64
static struct _cl_device_id remote_devices[MAX_REMOTE];
static cl_device_id device_list[1 + MAX_GPUS + MAX_REMOTE];
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

/* Platform extensions: those every device supports (the intersection of
 * the devices' lists), computed once. */
static char platform_extensions[2048];
static cl_name_version platform_extensions_versioned[64];
static size_t num_platform_extensions;

static bool has_word(const char *list, const char *word, size_t len)
{
    for (const char *p = list; p && *p;) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        if ((size_t)(end - p) == len && memcmp(p, word, len) == 0)
            return true;
        p = end;
    }
    return false;
}

/* Is the extension (word, len) one of every device's? */
static bool on_every_device(const char *word, size_t len, void *unused)
{
    (void)unused;
    for (cl_uint d = 1; d < the_platform.num_devices; d++)
        if (!has_word(the_platform.devices[d]->extensions, word, len))
            return false;
    return true;
}

static void compute_platform_extensions(void)
{
    mosaic_filter_words(the_platform.num_devices ? the_platform.devices[0]->extensions : "", on_every_device, NULL,
                        platform_extensions, sizeof platform_extensions);
    num_platform_extensions = mosaic_extensions_with_version(
        platform_extensions, platform_extensions_versioned,
        sizeof platform_extensions_versioned / sizeof platform_extensions_versioned[0]);
    if (num_platform_extensions > sizeof platform_extensions_versioned / sizeof platform_extensions_versioned[0])
        num_platform_extensions = sizeof platform_extensions_versioned / sizeof platform_extensions_versioned[0];
}

static void platform_init(void)
{
    mosaic_object_init(&the_platform, MOSAIC_PLATFORM, &mosaic_dispatch, NULL);

    mosaic_object_init(&cpu_device, MOSAIC_DEVICE, &mosaic_dispatch, NULL);
    cpu_device.platform = &the_platform;
    cpu_device.type = CL_DEVICE_TYPE_CPU;
    cpu_device.ops = &mosaic_cpu_ops;
    cpu_device.ops->describe(&cpu_device);
    mosaic_cpu_init_root(&cpu_device); /* its worker pool; without it, commands fail with CL_OUT_OF_RESOURCES */

    device_list[0] = &cpu_device;
    cl_uint n = 1;
    unsigned gpus = mosaic_cuda_device_count();
    for (unsigned i = 0; i < gpus && i < MAX_GPUS; i++) {
        cl_device_id gpu = &gpu_devices[i];
        mosaic_object_init(gpu, MOSAIC_DEVICE, &mosaic_dispatch, NULL);
        gpu->platform = &the_platform;
        gpu->type = CL_DEVICE_TYPE_GPU;
        gpu->ops = &mosaic_cuda_ops;
        if (mosaic_cuda_init_device(gpu, i)) /* describes it */
            device_list[n++] = gpu;
    }
    unsigned remote = mosaic_remote_device_count();
    for (unsigned i = 0; i < remote && i < MAX_REMOTE; i++) {
        cl_device_id device = &remote_devices[i];
        mosaic_object_init(device, MOSAIC_DEVICE, &mosaic_dispatch, NULL);
        device->platform = &the_platform;
        if (mosaic_remote_init_device(device, i)) /* describes it, as its server's device is */
            device_list[n++] = device;
    }
    the_platform.devices = device_list;
    the_platform.num_devices = n;
    compute_platform_extensions();
}

cl_platform_id mosaic_platform(void)
{
    pthread_once(&platform_once, platform_init);
    return &the_platform;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    if (num_entries == 0 && platforms)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_entries is 0 but platforms is not NULL");
    if (!platforms && !num_platforms)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "platforms and num_platforms are both NULL");
    cl_platform_id platform = mosaic_platform();
    if (platforms)
        platforms[0] = platform;
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                  size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(platform, PLATFORM);

    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        MOSAIC_INFO_STRING("FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        MOSAIC_INFO_STRING(PLATFORM_VERSION);
    case CL_PLATFORM_NUMERIC_VERSION:
        MOSAIC_INFO_SCALAR(cl_version, CL_MAKE_VERSION(3, 1, 0));
    case CL_PLATFORM_NAME:
        MOSAIC_INFO_STRING("Mosaic");
    case CL_PLATFORM_VENDOR:
        MOSAIC_INFO_STRING("The Mosaic project");
    case CL_PLATFORM_EXTENSIONS:
        MOSAIC_INFO_STRING(platform_extensions);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
        MOSAIC_INFO_ARRAY(platform_extensions_versioned, num_platform_extensions);
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:
        MOSAIC_INFO_SCALAR(cl_ulong, mosaic_now_resolution_ns()); /* clGetHostTimer's clock */
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        MOSAIC_INFO_STRING("MOSAIC");
    case CL_PLATFORM_SEMAPHORE_TYPES_KHR: { /* the types every device supports: binary where all have the extension */
        static const cl_semaphore_type_khr binary = CL_SEMAPHORE_TYPE_BINARY_KHR;
        if (!has_word(platform_extensions, "cl_khr_semaphore", strlen("cl_khr_semaphore")))
            MOSAIC_INFO_UNKNOWN(param_name);
        MOSAIC_INFO_ARRAY(&binary, 1);
    }
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* The compiler is a child process per build: there is nothing resident to
 * unload.  Both calls are hints and always succeed for a valid platform. */
CL_API_ENTRY cl_int CL_API_CALL
clUnloadCompiler(void)
{
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clUnloadPlatformCompiler(cl_platform_id platform)
{
    MOSAIC_CHECK_HANDLE(platform, PLATFORM);
    return CL_SUCCESS;
}
