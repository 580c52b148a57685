/* What the API harnesses share: the CPU device and a context on it, made
 * once per process (libFuzzer runs every input in one process). */
#ifndef MOSAIC_FUZZ_COMMON_H
#define MOSAIC_FUZZ_COMMON_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdlib.h>

typedef struct fuzz_env {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} fuzz_env;

static inline const fuzz_env *fuzz_env_get(void)
{
    static fuzz_env env;
    static int made;
    if (!made) {
        cl_platform_id platform;
        cl_int err;
        if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &env.device, NULL) != CL_SUCCESS)
            abort();
        env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
        env.queue = env.context ? clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err) : NULL;
        if (!env.queue)
            abort();
        made = 1;
    }
    return &env;
}

/* Takes n bytes from the front of the input (zeros past its end). */
static inline void fuzz_take(const uint8_t **data, size_t *size, void *out, size_t n)
{
    unsigned char *o = out;
    for (size_t i = 0; i < n; i++)
        o[i] = i < *size ? (*data)[i] : 0;
    size_t used = n < *size ? n : *size;
    *data += used;
    *size -= used;
}

#endif
