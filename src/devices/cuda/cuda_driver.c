/*
 * Loading NVIDIA's CUDA driver at run time: dlopen the library, look up
 * each function of cuda_functions.def through the driver's own
 * cuGetProcAddress as CUDA 12.0 defined it, initialise the driver, and say
 * in one sentence why when any of it fails (no library, an old driver, no
 * GPU).  Also the names of the driver's errors and the OpenCL error each
 * becomes.  Why at run time and not linked: cuda_driver.h.
 */
#include "devices/cuda/cuda_driver.h"
#include "base/assert.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* cuGetProcAddress as the driver exports it under its plain name, with the
 * four parameters of CUDA 11.3 (CUDA 12's header renames calls to
 * cuGetProcAddress_v2, which adds a status; the exported plain name keeps
 * its parameters for the programs built before). */
typedef CUresult (*get_proc_address_fn)(const char *symbol, void **function, int cuda_version, uint64_t flags);

/* Where each row's pointer lives in the table, by the row's name. */
static const struct {
    const char *name;
    size_t offset;
} rows[] = {
#define CUDA_FUNCTION(name, params) { #name, offsetof(mosaic_cuda_driver, name) },
#include "devices/cuda/cuda_functions.def"
};

static void say(char *why, size_t why_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t why_size, const char *format, ...)
{
    if (!why || why_size == 0)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(why, why_size, format, args);
    va_end(args);
}

/* The driver's text for a code it returned, or a constant. */
static const char *error_text(const mosaic_cuda_driver *d, CUresult r)
{
    const char *text = NULL;
    if (d->cuGetErrorString && d->cuGetErrorString(r, &text) == CUDA_SUCCESS && text)
        return text;
    return "no description";
}

/* Fills every row's pointer.  Through cuGetProcAddress with cudaVersion
 * 12000, each name gives the entry point CUDA 12.0 had under it, whatever
 * the driver's version: looking "cuCtxSynchronize_v2" up with dlsym gets a
 * CUDA 13 driver's newer function, which takes a context (seen on an H200).
 * A driver without cuGetProcAddress (older than CUDA 11.3, or not NVIDIA's)
 * is looked up with dlsym by the rows' plain names; open's version check
 * then refuses one older than 12.0, whose plain names are legacy
 * functions. */
static bool look_up(mosaic_cuda_driver *d, const char *library, char *why, size_t why_size)
{
    get_proc_address_fn get_proc_address = (get_proc_address_fn)dlsym(d->library, "cuGetProcAddress");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        void *function = NULL;
        if (get_proc_address) {
            CUresult r = get_proc_address(rows[i].name, &function, MOSAIC_CUDA_API_VERSION, 0);
            if (r != CUDA_SUCCESS) {
                /* a driver older than the version asked for answers INVALID_VALUE */
                say(why, why_size, "the CUDA driver %s did not give %s of CUDA %d.%d: cuGetProcAddress returned %d%s",
                    library, rows[i].name, MOSAIC_CUDA_API_VERSION / 1000, MOSAIC_CUDA_API_VERSION % 1000 / 10, r,
                    r == CUDA_ERROR_INVALID_VALUE ? " (the driver is older than that)" : "");
                return false;
            }
        } else {
            function = dlsym(d->library, rows[i].name);
        }
        if (!function) {
            say(why, why_size, "the CUDA driver %s has no %s", library, rows[i].name);
            return false;
        }
        /* a function pointer and void * share their representation (POSIX dlsym) */
        memcpy((char *)d + rows[i].offset, &function, sizeof function);
    }
    return true;
}

static bool start(mosaic_cuda_driver *d, const char *library, char *why, size_t why_size)
{
    CUresult r = d->cuInit(0);
    if (r != CUDA_SUCCESS) {
        say(why, why_size, "cuInit of the CUDA driver %s failed: %s (%s)", library, mosaic_cuda_error_name(d, r),
            error_text(d, r));
        return false;
    }
    r = d->cuDriverGetVersion(&d->version);
    if (r != CUDA_SUCCESS) {
        say(why, why_size, "cuDriverGetVersion of the CUDA driver %s failed: %s (%s)", library,
            mosaic_cuda_error_name(d, r), error_text(d, r));
        return false;
    }
    if (d->version < MOSAIC_CUDA_API_VERSION) {
        say(why, why_size, "the CUDA driver %s is CUDA %d.%d; CUDA %d.%d or later is needed", library,
            d->version / 1000, d->version % 1000 / 10, MOSAIC_CUDA_API_VERSION / 1000,
            MOSAIC_CUDA_API_VERSION % 1000 / 10);
        return false;
    }
    return true;
}

bool mosaic_cuda_driver_open(mosaic_cuda_driver *d, const char *library, char *why, size_t why_size)
{
    MOSAIC_ASSERT(d && library);
    memset(d, 0, sizeof *d);
    /* RTLD_LOCAL: the driver's symbols are reached through the table only,
     * and cannot stand in for anything else of the process */
    d->library = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!d->library) {
        const char *error = dlerror();
        say(why, why_size, "cannot open the CUDA driver %s: %s", library, error ? error : "no reason given");
        return false;
    }
    if (look_up(d, library, why, why_size) && start(d, library, why, why_size))
        return true;
    mosaic_cuda_driver_close(d);
    return false;
}

void mosaic_cuda_driver_close(mosaic_cuda_driver *d)
{
    MOSAIC_ASSERT(d);
    if (d->library)
        dlclose(d->library);
    memset(d, 0, sizeof *d);
}

const char *mosaic_cuda_error_name(const mosaic_cuda_driver *d, CUresult r)
{
    MOSAIC_ASSERT(d);
    const char *name = NULL;
    /* the driver answers CUDA_ERROR_INVALID_VALUE, and NULL, for a code it does not know */
    if (d->cuGetErrorName && d->cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
        return name;
    return "unknown CUDA error";
}

/*
 * A driver failure as OpenCL sees it:
 *
 *   CUDA_SUCCESS                              CL_SUCCESS
 *   CUDA_ERROR_INVALID_IMAGE, _NO_BINARY_FOR_GPU, _INVALID_PTX,
 *   _JIT_COMPILER_NOT_FOUND, _UNSUPPORTED_PTX_VERSION,
 *   _JIT_COMPILATION_DISABLED                 CL_BUILD_PROGRAM_FAILURE: the
 *                                             driver's JIT could not make the
 *                                             program's code (its log says why)
 *   CUDA_ERROR_NO_DEVICE                      CL_DEVICE_NOT_AVAILABLE: the GPU
 *                                             went away
 *   anything else, CUDA_ERROR_OUT_OF_MEMORY and CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
 *   among them                                CL_OUT_OF_RESOURCES: "a failure
 *                                             to allocate resources required by
 *                                             the OpenCL implementation on the
 *                                             device", OpenCL's word for a
 *                                             device that failed
 *
 * An allocation that fails for want of memory returns
 * CL_MEM_OBJECT_ALLOCATION_FAILURE instead: its caller tells that apart, as
 * the code alone does not say what was being allocated.
 */
cl_int mosaic_cuda_cl_error(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS:
        return CL_SUCCESS;
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_JIT_COMPILATION_DISABLED:
        return CL_BUILD_PROGRAM_FAILURE;
    case CUDA_ERROR_NO_DEVICE:
        return CL_DEVICE_NOT_AVAILABLE;
    default:
        return CL_OUT_OF_RESOURCES;
    }
}
