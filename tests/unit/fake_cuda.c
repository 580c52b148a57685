/*
 * A CUDA driver without a GPU, for the tests of the driver layer
 * (src/devices/cuda/cuda_driver.c, tests/unit/test_cuda_driver.c):
 * libmosaic-fake-cuda.so exports cuGetProcAddress and every function of
 * cuda_functions.def, done on the host.  One device, "Mosaic fake GPU",
 * with the attributes of a Hopper-class part; device memory is malloc's
 * (the device address is the host pointer) and copies are memcpy; streams
 * and events are done the moment work is given to them; a module is any
 * text that starts as PTX does, and kernels cannot run, but for stall*
 * kernels, which keep the stream busy for a while and do nothing.  It stands for a
 * CUDA 13.0 driver: cuGetProcAddress gives the CUDA 12.0 cuCtxSynchronize
 * to a caller that asks for 12.0, and CUDA 13's, which takes a context and
 * here always fails, to one that asks for 13.0.
 *
 * The environment steers it, read at each call so that a test may change
 * it between two opens:
 *   FAKE_CUDA_WITHOUT=name         cuGetProcAddress has no `name`
 *   FAKE_CUDA_INIT_ERROR=code      cuInit returns `code` (100: CUDA_ERROR_NO_DEVICE)
 *   FAKE_CUDA_DRIVER_VERSION=n     the driver's version (default 13000): what
 *                                  cuDriverGetVersion says, and cuGetProcAddress
 *                                  refuses a later one, as a real driver does
 *
 * Built again with FAKE_CUDA_NO_GET_PROC_ADDRESS as
 * libmosaic-fake-cuda-dlsym.so: a driver without cuGetProcAddress, whose
 * functions are found by their plain names.
 */
#define _GNU_SOURCE
#include "devices/cuda/cuda_driver.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

/* The fake's functions, declared from the rows: a definition below whose
 * parameters differ from its row does not compile. */
#define CUDA_FUNCTION(name, params) CUresult name params;
#include "devices/cuda/cuda_functions.def"
CUresult cuCtxSynchronize_v2(CUcontext context);

#define FAKE_MEMORY ((size_t)1 << 30) /* what cuDeviceTotalMem reports, and the most one allocation may take */

static long from_environment(const char *name, long fallback)
{
    const char *value = getenv(name);
    if (!value || !*value)
        return fallback;
    return strtol(value, NULL, 0);
}

static int driver_version(void)
{
    return (int)from_environment("FAKE_CUDA_DRIVER_VERSION", 13000);
}

/* ---- the driver and its device ---------------------------------------------- */
static int initialised;

CUresult cuInit(unsigned int flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = (CUresult)from_environment("FAKE_CUDA_INIT_ERROR", CUDA_SUCCESS);
    initialised = r == CUDA_SUCCESS;
    return r;
}

CUresult cuDriverGetVersion(int *version)
{
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = driver_version();
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!device || ordinal != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!name || length <= 0 || device != 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)length, "%s", "Mosaic fake GPU");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!value || device != 0)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *value = 48 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: *value = 64 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = 32; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = 1755000; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 4; break;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: *value = 1; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *value = 50 * 1024 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *value = 1; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *value = 1; break;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: *value = 1; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 227 * 1024; break;
    default: return CUDA_ERROR_INVALID_VALUE; /* one Mosaic does not ask: a test asked wrongly */
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice device)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!bytes || device != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = FAKE_MEMORY;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice device)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!uuid || device != 0)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(uuid->bytes, "MosaicFakeGPU\0\0\1", sizeof uuid->bytes);
    return CUDA_SUCCESS;
}

/* ---- contexts: the one primary context; a stack of current ones per thread -- */
struct CUctx_st {
    int retained;
};
static struct CUctx_st primary;
static __thread CUcontext current[8];
static __thread int depth; /* current[depth - 1] is current; 0: none */

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!context || device != 0)
        return CUDA_ERROR_INVALID_VALUE;
    __atomic_add_fetch(&primary.retained, 1, __ATOMIC_RELAXED);
    *context = &primary;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice device)
{
    if (device != 0 || __atomic_load_n(&primary.retained, __ATOMIC_RELAXED) == 0)
        return CUDA_ERROR_INVALID_VALUE;
    __atomic_sub_fetch(&primary.retained, 1, __ATOMIC_RELAXED);
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context)
{
    if (depth == 0)
        depth = 1;
    current[depth - 1] = context;
    return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext context)
{
    if (!context || depth == (int)(sizeof current / sizeof current[0]))
        return CUDA_ERROR_INVALID_VALUE;
    current[depth++] = context;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *context)
{
    if (depth == 0 || !current[depth - 1])
        return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext popped = current[--depth];
    if (context)
        *context = popped;
    return CUDA_SUCCESS;
}

static bool in_context(void)
{
    return depth > 0 && current[depth - 1] == &primary && __atomic_load_n(&primary.retained, __ATOMIC_RELAXED) > 0;
}

CUresult cuCtxSynchronize(void)
{
    return in_context() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* CUDA 13's, given only to a caller that asks for 13.0: must not be picked */
CUresult cuCtxSynchronize_v2(CUcontext context)
{
    (void)context;
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- memory ----------------------------------------------------------------------- */
CUresult cuMemAlloc(CUdeviceptr *address, size_t bytes)
{
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!address || bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    /* CUDA's allocations are aligned to 256 bytes at least */
    void *p = bytes <= FAKE_MEMORY ? aligned_alloc(256, (bytes + 255) & ~(size_t)255) : NULL;
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *address = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr address)
{
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    free((void *)(uintptr_t)address);
    return CUDA_SUCCESS;
}

CUresult cuMemAllocHost(void **host, size_t bytes)
{
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!host || bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    *host = malloc(bytes);
    return *host ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *host)
{
    free(host);
    return CUDA_SUCCESS;
}

/* managed memory: host memory here, as all of the fake's device memory is;
 * the last allocations are remembered for cuPointerGetAttribute */
enum { MANAGED_KEPT = 64 };
static struct {
    CUdeviceptr start;
    size_t bytes;
} managed[MANAGED_KEPT];
static unsigned next_managed;
static pthread_mutex_t managed_lock = PTHREAD_MUTEX_INITIALIZER;

CUresult cuMemAllocManaged(CUdeviceptr *address, size_t bytes, unsigned int flags)
{
    if (flags != CU_MEM_ATTACH_GLOBAL)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuMemAlloc(address, bytes);
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&managed_lock);
        managed[next_managed++ % MANAGED_KEPT].start = *address;
        managed[(next_managed - 1) % MANAGED_KEPT].bytes = bytes;
        pthread_mutex_unlock(&managed_lock);
    }
    return r;
}

CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr pointer)
{
    if (!data || attribute != CU_POINTER_ATTRIBUTE_IS_MANAGED)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned int is = 0;
    pthread_mutex_lock(&managed_lock);
    for (unsigned i = 0; i < MANAGED_KEPT; i++)
        is |= managed[i].bytes && pointer >= managed[i].start && pointer - managed[i].start < managed[i].bytes;
    pthread_mutex_unlock(&managed_lock);
    memcpy(data, &is, sizeof is);
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!free_bytes || !total_bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *free_bytes = *total_bytes = FAKE_MEMORY;
    return CUDA_SUCCESS;
}

static void *at(CUdeviceptr address)
{
    return (void *)(uintptr_t)address;
}

CUresult cuMemcpyHtoD(CUdeviceptr to, const void *from, size_t bytes)
{
    if (!in_context()) /* as the driver: a copy needs a current context */
        return CUDA_ERROR_INVALID_CONTEXT;
    memcpy(at(to), from, bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *to, CUdeviceptr from, size_t bytes)
{
    if (!in_context()) /* as the driver: a copy needs a current context */
        return CUDA_ERROR_INVALID_CONTEXT;
    memcpy(to, at(from), bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD(CUdeviceptr to, CUdeviceptr from, size_t bytes)
{
    if (!in_context()) /* as the driver: a copy needs a current context */
        return CUDA_ERROR_INVALID_CONTEXT;
    memmove(at(to), at(from), bytes);
    return CUDA_SUCCESS;
}

/* the asynchronous ones are done before they return: streams have no backlog */
CUresult cuMemcpyHtoDAsync(CUdeviceptr to, const void *from, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyHtoD(to, from, bytes);
}

CUresult cuMemcpyDtoHAsync(void *to, CUdeviceptr from, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyDtoH(to, from, bytes);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr to, CUdeviceptr from, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyDtoD(to, from, bytes);
}

CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t count, CUstream stream)
{
    (void)stream;
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    memset(at(to), value, count);
    return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr to, unsigned int value, size_t count, CUstream stream)
{
    (void)stream;
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    unsigned int *words = at(to);
    for (size_t i = 0; i < count; i++)
        words[i] = value;
    return CUDA_SUCCESS;
}

/* ---- modules: the PTX text kept; a kernel is where its .entry's name stands -- */
struct CUmod_st {
    char *text;
};

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int num_options, CUjit_option *options,
                            void **option_values)
{
    if (!module || !image || (num_options && (!options || !option_values)))
        return CUDA_ERROR_INVALID_VALUE;
    char *error_log = NULL;
    size_t error_size = 0;
    unsigned size_option = num_options;
    for (unsigned i = 0; i < num_options; i++) {
        if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
            error_log = option_values[i];
        else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            error_size = (uintptr_t)option_values[i], size_option = i;
    }
    const char *text = image;
    if (strncmp(text, "//", 2) != 0 && strncmp(text, ".version", 8) != 0) {
        if (error_log && error_size) {
            int n = snprintf(error_log, error_size, "fake JIT: the image is not PTX text (it starts with neither "
                                                    "\"//\" nor \".version\")");
            /* the driver says how much of the buffer it filled */
            option_values[size_option] = (void *)(uintptr_t)((size_t)n + 1 < error_size ? (size_t)n + 1 : error_size);
        }
        return CUDA_ERROR_INVALID_PTX;
    }
    struct CUmod_st *m = malloc(sizeof *m);
    if (!m || !(m->text = strdup(text))) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *module = m;
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module)
{
    if (!module)
        return CUDA_ERROR_INVALID_HANDLE;
    free(module->text);
    free(module);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name)
{
    if (!function || !module || !name)
        return CUDA_ERROR_INVALID_VALUE;
    size_t length = strlen(name);
    for (const char *p = module->text; (p = strstr(p, ".entry ")); p++) {
        const char *q = p + strlen(".entry ");
        if (strncmp(q, name, length) == 0 && (q[length] == '(' || q[length] == ' ' || q[length] == '\n')) {
            *function = (CUfunction)(uintptr_t)q; /* opaque to the caller; valid until the module goes */
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuModuleGetGlobal(CUdeviceptr *address, size_t *bytes, CUmodule module, const char *name)
{
    (void)address, (void)bytes, (void)name;
    return module ? CUDA_ERROR_NOT_FOUND : CUDA_ERROR_INVALID_HANDLE; /* the fake's modules have no globals */
}

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute, CUfunction function)
{
    if (!value || !function)
        return CUDA_ERROR_INVALID_VALUE;
    /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (0): the device's, except for
     * a kernel named few_threads*, whose registers (the test says) allow 128;
     * the fake's kernels use no memory (every other attribute: 0).  A
     * function is its name in the module's PTX (cuModuleGetFunction). */
    bool few = strncmp((const char *)function, "few_threads", 11) == 0;
    *value = attribute == 0 ? (few ? 128 : 1024) : 0;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute, int value)
{
    (void)attribute, (void)value;
    return function ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* A kernel named stall* "runs" for STALL_MS: its launch succeeds, and the
 * stream's events and synchronisations wait until it would have ended (the
 * tests of commands in flight on the stream); it does nothing. */
enum { STALL_MS = 100 };
static bool stall_kernel(CUfunction function)
{
    return function && strncmp((const char *)function, "stall", 5) == 0;
}
static void stream_busy_for(CUstream stream, double ms);

CUresult cuLaunchKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                        unsigned int block_x, unsigned int block_y, unsigned int block_z, unsigned int shared_bytes,
                        CUstream stream, void **arguments, void **extra)
{
    (void)grid_x, (void)grid_y, (void)grid_z, (void)block_x, (void)block_y, (void)block_z;
    (void)shared_bytes, (void)arguments, (void)extra;
    if (!stall_kernel(function))
        return CUDA_ERROR_NOT_SUPPORTED; /* there is nothing to run PTX on */
    stream_busy_for(stream, STALL_MS);
    return CUDA_SUCCESS;
}

/* ---- streams and events: all work is done when it is given, but a stall --------- */
struct CUstream_st {
    unsigned int flags;
    double busy_until; /* milliseconds of CLOCK_MONOTONIC: until then a stall kernel "runs" */
};

static double now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

/* A stall kernel's end: STALL_MS after the stream's work before it ends. */
/* The executor queues work while the completer waits for it: busy_until
 * is read and written under this lock. */
static pthread_mutex_t stream_lock = PTHREAD_MUTEX_INITIALIZER;

static double busy_until(CUstream stream)
{
    pthread_mutex_lock(&stream_lock);
    double t = stream->busy_until;
    pthread_mutex_unlock(&stream_lock);
    return t;
}

static void stream_busy_for(CUstream stream, double ms)
{
    pthread_mutex_lock(&stream_lock);
    double now = now_ms();
    stream->busy_until = (now > stream->busy_until ? now : stream->busy_until) + ms;
    pthread_mutex_unlock(&stream_lock);
}

static void sleep_until(double ms)
{
    double left = ms - now_ms();
    if (left > 0) {
        struct timespec t = {(time_t)(left / 1e3), (long)((left - (double)(time_t)(left / 1e3) * 1e3) * 1e6)};
        nanosleep(&t, NULL);
    }
}

CUresult cuStreamCreate(CUstream *stream, unsigned int flags)
{
    if (!stream)
        return CUDA_ERROR_INVALID_VALUE;
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!(*stream = calloc(1, sizeof **stream)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*stream)->flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream stream)
{
    if (!stream)
        return CUDA_ERROR_INVALID_HANDLE;
    free(stream);
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream)
{
    if (!stream)
        return CUDA_ERROR_INVALID_HANDLE;
    sleep_until(busy_until(stream));
    return CUDA_SUCCESS;
}

CUresult cuStreamQuery(CUstream stream)
{
    if (!stream)
        return CUDA_ERROR_INVALID_HANDLE;
    return now_ms() < busy_until(stream) ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags)
{
    (void)stream;
    return event && flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuLaunchHostFunc(CUstream stream, CUhostFn function, void *data)
{
    (void)stream;
    if (!function)
        return CUDA_ERROR_INVALID_VALUE;
    function(data);
    return CUDA_SUCCESS;
}

struct CUevent_st {
    unsigned int flags;
    bool recorded;
    double milliseconds; /* CLOCK_MONOTONIC when recorded */
    double ends;         /* when the stream's work before it ends */
};

CUresult cuEventCreate(CUevent *event, unsigned int flags)
{
    if (!event)
        return CUDA_ERROR_INVALID_VALUE;
    if (!in_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!(*event = calloc(1, sizeof **event)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*event)->flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event)
{
    if (!event)
        return CUDA_ERROR_INVALID_HANDLE;
    free(event);
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream)
{
    (void)stream;
    if (!event)
        return CUDA_ERROR_INVALID_HANDLE;
    event->milliseconds = now_ms();
    event->ends = stream ? busy_until(stream) : 0;
    event->recorded = true;
    return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event)
{
    if (!event)
        return CUDA_ERROR_INVALID_HANDLE;
    sleep_until(event->ends);
    return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent event)
{
    if (!event)
        return CUDA_ERROR_INVALID_HANDLE;
    return now_ms() < event->ends ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *milliseconds, CUevent start, CUevent end)
{
    if (!milliseconds || !start || !end)
        return CUDA_ERROR_INVALID_VALUE;
    if (!start->recorded || !end->recorded || ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    *milliseconds = (float)(end->milliseconds - start->milliseconds);
    return CUDA_SUCCESS;
}

/* ---- errors: the codes the fake returns, in its own words ------------------- */
static const struct {
    CUresult code;
    const char *name, *text;
} errors[] = {
    { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
    { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "an argument is out of range" },
    { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "the fake GPU's memory is used up" },
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "cuInit has not succeeded" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "the fake driver was told it has no GPU" },
    { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "no context is current" },
    { CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "the fake JIT found no PTX" },
    { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "a handle is not one the driver made" },
    { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "the module has no such name" },
    { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "the fake GPU runs no kernels" },
};

static CUresult describe(CUresult error, const char **out, bool name)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == error) {
            *out = name ? errors[i].name : errors[i].text;
            return CUDA_SUCCESS;
        }
    *out = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **name)
{
    return describe(error, name, true);
}

CUresult cuGetErrorString(CUresult error, const char **text)
{
    return describe(error, text, false);
}

/* ---- the entry points by name ------------------------------------------------- */
#ifndef FAKE_CUDA_NO_GET_PROC_ADDRESS
static const struct {
    const char *name;
    void *function;
} entry_points[] = {
#define CUDA_FUNCTION(name, params) { #name, (void *)name },
#include "devices/cuda/cuda_functions.def"
};

/* As a CUDA 12 driver answers: CUDA_SUCCESS and NULL for a name it lacks,
 * CUDA_ERROR_INVALID_VALUE for a version later than its own. */
CUresult cuGetProcAddress(const char *symbol, void **function, int cuda_version, uint64_t flags)
{
    if (!symbol || !function)
        return CUDA_ERROR_INVALID_VALUE;
    *function = NULL;
    if (cuda_version > driver_version() || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    const char *without = getenv("FAKE_CUDA_WITHOUT");
    if (without && strcmp(without, symbol) == 0)
        return CUDA_SUCCESS;
    if (strcmp(symbol, "cuCtxSynchronize") == 0 && cuda_version >= 13000) {
        *function = (void *)cuCtxSynchronize_v2;
        return CUDA_SUCCESS;
    }
    for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++)
        if (strcmp(entry_points[i].name, symbol) == 0) {
            *function = entry_points[i].function;
            break;
        }
    return CUDA_SUCCESS;
}
#endif
