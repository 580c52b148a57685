/*
 * The driver layer of the GPU device (devices/cuda/cuda_driver.c) against a
 * fake CUDA driver (fake_cuda.c, libmosaic-fake-cuda.so, whose path CMake
 * gives as FAKE_CUDA_PATH): opening it and asking its device, memory
 * through it, modules and launches; every way an open fails, each with
 * one sentence that names what failed; the names of the driver's errors and
 * the OpenCL error each becomes.  No GPU and no CUDA are needed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_cuda_driver.list"
#include "test.h"
#include "base/settings.h"
#include "devices/cuda/cuda_driver.h"

/* Whether a driver struct is all zero bytes, as a failed open or a close leaves it. */
static bool zeroed(const mosaic_cuda_driver *d)
{
    static const mosaic_cuda_driver zero;
    return memcmp(d, &zero, sizeof zero) == 0;
}

/* Whether the library `path` is still loaded in this process. */
static bool loaded(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (handle)
        dlclose(handle);
    return handle != NULL;
}

/* Opens `library` where it must fail, and returns why (a static buffer: cases run one at a time). */
static const char *refusal(const char *library)
{
    static char why[512];
    mosaic_cuda_driver d;
    memset(&d, 0xab, sizeof d);
    strcpy(why, "(nothing written)");
    bool opened = mosaic_cuda_driver_open(&d, library, why, sizeof why);
    CHECK(!opened, "%s opened", library);
    if (opened)
        mosaic_cuda_driver_close(&d);
    CHECK(zeroed(&d), "a failed open leaves the driver zeroed");
    CHECK(!loaded(library), "a failed open leaves %s loaded", library);
    return why;
}

static bool open_fake(mosaic_cuda_driver *d, const char *library)
{
    char why[512] = "";
    bool opened = mosaic_cuda_driver_open(d, library, why, sizeof why);
    CHECK(opened, "%s: %s", library, why);
    return opened;
}

TEST(reads_device)
{
    mosaic_cuda_driver d;
    if (!open_fake(&d, FAKE_CUDA_PATH))
        return;
    CHECK(d.library != NULL);
    CHECK(d.version == 13000, "version %d", d.version);
    int count = 0;
    CUdevice device = -1;
    CHECK_ERR(d.cuDeviceGetCount(&count), CUDA_SUCCESS);
    CHECK(count == 1, "%d devices", count);
    CHECK_ERR(d.cuDeviceGet(&device, 0), CUDA_SUCCESS);
    char name[64] = "";
    CHECK_ERR(d.cuDeviceGetName(name, sizeof name, device), CUDA_SUCCESS);
    CHECK(strcmp(name, "Mosaic fake GPU") == 0, "name \"%s\"", name);

    static const struct {
        CUdevice_attribute attribute;
        int value;
    } attributes[] = {
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64 },
        { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647 },
        { CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 227 * 1024 },
        { CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
    };
    for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++) {
        int value = -1;
        CHECK_ERR(d.cuDeviceGetAttribute(&value, attributes[i].attribute, device), CUDA_SUCCESS);
        CHECK(value == attributes[i].value, "attribute %d is %d, not %d", attributes[i].attribute, value,
              attributes[i].value);
    }
    size_t memory = 0;
    CHECK_ERR(d.cuDeviceTotalMem(&memory, device), CUDA_SUCCESS);
    CHECK(memory == (size_t)1 << 30, "%zu bytes", memory);
    CUuuid uuid = { { 0 } };
    CHECK_ERR(d.cuDeviceGetUuid(&uuid, device), CUDA_SUCCESS);
    CHECK(memcmp(uuid.bytes, "MosaicFakeGPU", 13) == 0);

    /* the entry point of CUDA 12.0: the fake, a CUDA 13.0 driver, gives a
     * caller that asks for 13.0 a cuCtxSynchronize that takes a context */
    CUcontext context = NULL;
    CHECK_ERR(d.cuDevicePrimaryCtxRetain(&context, device), CUDA_SUCCESS);
    CHECK_ERR(d.cuCtxPushCurrent(context), CUDA_SUCCESS);
    CHECK_ERR(d.cuCtxSynchronize(), CUDA_SUCCESS);
    CUcontext popped = NULL;
    CHECK_ERR(d.cuCtxPopCurrent(&popped), CUDA_SUCCESS);
    CHECK(popped == context);
    CHECK_ERR(d.cuDevicePrimaryCtxRelease(device), CUDA_SUCCESS);

    mosaic_cuda_driver_close(&d);
    CHECK(zeroed(&d), "close leaves the driver zeroed");
    CHECK(!loaded(FAKE_CUDA_PATH), "close unloads the driver");
}

static int host_calls;
static void count_call(void *data)
{
    host_calls += *(int *)data;
}

TEST(memory_round_trip)
{
    mosaic_cuda_driver d;
    if (!open_fake(&d, FAKE_CUDA_PATH))
        return;
    CUcontext context = NULL;
    CHECK_ERR(d.cuDevicePrimaryCtxRetain(&context, 0), CUDA_SUCCESS);
    CHECK_ERR(d.cuCtxSetCurrent(context), CUDA_SUCCESS);

    enum { N = 1000 };
    unsigned int in[N], out[N];
    for (unsigned i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    CUdeviceptr a = 0, b = 0;
    CHECK_ERR(d.cuMemAlloc(&a, sizeof in), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemAlloc(&b, sizeof in), CUDA_SUCCESS);
    CHECK(a && b && a != b);
    CHECK_ERR(d.cuMemcpyHtoD(a, in, sizeof in), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemcpyDtoD(b, a, sizeof in), CUDA_SUCCESS);
    memset(out, 0, sizeof out);
    CHECK_ERR(d.cuMemcpyDtoH(out, b, sizeof out), CUDA_SUCCESS);
    CHECK(memcmp(in, out, sizeof in) == 0, "the copies changed the bytes");

    /* the same through a stream, with fills, a host function and timed events */
    CUstream stream = NULL;
    CUevent start = NULL, end = NULL;
    CHECK_ERR(d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventCreate(&start, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventCreate(&end, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventRecord(start, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemsetD32Async(a, 0xdeadbeef, N, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemsetD8Async(a, 0x11, 4, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemcpyDtoDAsync(b, a, sizeof in, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemcpyDtoHAsync(out, b, sizeof out, stream), CUDA_SUCCESS);
    int one = 1;
    host_calls = 0;
    CHECK_ERR(d.cuLaunchHostFunc(stream, count_call, &one), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventRecord(end, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuStreamWaitEvent(stream, end, 0), CUDA_SUCCESS);
    CHECK_ERR(d.cuStreamSynchronize(stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuStreamQuery(stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventSynchronize(end), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventQuery(end), CUDA_SUCCESS);
    CHECK(out[0] == 0x11111111u && out[1] == 0xdeadbeefu && out[N - 1] == 0xdeadbeefu, "%x %x %x", out[0], out[1],
          out[N - 1]);
    CHECK(host_calls == 1, "the host function ran %d times", host_calls);
    float ms = -1;
    CHECK_ERR(d.cuEventElapsedTime(&ms, start, end), CUDA_SUCCESS);
    CHECK(ms >= 0, "%g ms", ms);

    void *pinned = NULL;
    CHECK_ERR(d.cuMemAllocHost(&pinned, sizeof in), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemcpyHtoDAsync(a, in, sizeof in, stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemcpyDtoH(pinned, a, sizeof in), CUDA_SUCCESS);
    CHECK(pinned && memcmp(pinned, in, sizeof in) == 0);
    CHECK_ERR(d.cuMemFreeHost(pinned), CUDA_SUCCESS);

    /* more than the device has: the driver's error, and the API's */
    CUdeviceptr huge = 0;
    CUresult r = d.cuMemAlloc(&huge, (size_t)1 << 40);
    CHECK_ERR(r, CUDA_ERROR_OUT_OF_MEMORY);
    CHECK_ERR(mosaic_cuda_cl_error(r), CL_OUT_OF_RESOURCES);

    CHECK_ERR(d.cuEventDestroy(start), CUDA_SUCCESS);
    CHECK_ERR(d.cuEventDestroy(end), CUDA_SUCCESS);
    CHECK_ERR(d.cuStreamDestroy(stream), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemFree(a), CUDA_SUCCESS);
    CHECK_ERR(d.cuMemFree(b), CUDA_SUCCESS);
    CHECK_ERR(d.cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    CHECK_ERR(d.cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    mosaic_cuda_driver_close(&d);
}

TEST(modules)
{
    mosaic_cuda_driver d;
    if (!open_fake(&d, FAKE_CUDA_PATH))
        return;
    char log[256] = "";
    CUjit_option options[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *values[] = { log, (void *)(uintptr_t)sizeof log };

    CUmodule module = NULL;
    CHECK_ERR(d.cuModuleLoadDataEx(&module, ".version 8.0\n.target sm_90\n.entry add(.param .u64 p)\n{\n}\n", 2,
                                   options, values),
              CUDA_SUCCESS);
    CUfunction function = NULL;
    CHECK_ERR(d.cuModuleGetFunction(&function, module, "add"), CUDA_SUCCESS);
    CHECK_ERR(d.cuModuleGetFunction(&function, module, "ad"), CUDA_ERROR_NOT_FOUND);
    int threads = 0;
    CHECK_ERR(d.cuFuncGetAttribute(&threads, 0, function), CUDA_SUCCESS);
    CHECK(threads == 1024, "%d threads", threads);
    CUresult r = d.cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
    CHECK_ERR(r, CUDA_ERROR_NOT_SUPPORTED);
    CHECK(strcmp(mosaic_cuda_error_name(&d, r), "CUDA_ERROR_NOT_SUPPORTED") == 0);
    CHECK_ERR(d.cuModuleUnload(module), CUDA_SUCCESS);

    /* not PTX: the JIT's error, its log, and a build failure for the API */
    module = NULL;
    r = d.cuModuleLoadDataEx(&module, "\x7f" "ELF", 2, options, values);
    CHECK_ERR(r, CUDA_ERROR_INVALID_PTX);
    CHECK(module == NULL);
    CHECK(strstr(log, "not PTX") != NULL, "log \"%s\"", log);
    CHECK((uintptr_t)values[1] == strlen(log) + 1, "the log's size came back as %zu", (size_t)(uintptr_t)values[1]);
    CHECK_ERR(mosaic_cuda_cl_error(r), CL_BUILD_PROGRAM_FAILURE);
    mosaic_cuda_driver_close(&d);
}

TEST(missing_library)
{
    const char *why = refusal("/nonexistent/libcuda-for-mosaic.so.1");
    CHECK(strstr(why, "cannot open the CUDA driver /nonexistent/libcuda-for-mosaic.so.1: ") != NULL, "%s", why);
    CHECK(strstr(why, "No such file") != NULL, "dlerror's words: %s", why);
}

TEST(missing_function)
{
    setenv("FAKE_CUDA_WITHOUT", "cuLaunchKernel", 1);
    const char *why = refusal(FAKE_CUDA_PATH);
    unsetenv("FAKE_CUDA_WITHOUT");
    CHECK(strstr(why, "has no cuLaunchKernel") != NULL && strstr(why, FAKE_CUDA_PATH) != NULL, "%s", why);
}

TEST(init_fails)
{
    setenv("FAKE_CUDA_INIT_ERROR", "100", 1);
    const char *why = refusal(FAKE_CUDA_PATH);
    unsetenv("FAKE_CUDA_INIT_ERROR");
    CHECK(strstr(why, "cuInit") != NULL && strstr(why, "CUDA_ERROR_NO_DEVICE") != NULL &&
              strstr(why, "has no GPU") != NULL,
          "%s", why);
}

/* A driver older than CUDA 12.0, with cuGetProcAddress (which refuses the
 * version asked for) and without (the version check refuses it). */
TEST(old_driver)
{
    setenv("FAKE_CUDA_DRIVER_VERSION", "11080", 1);
    const char *why = refusal(FAKE_CUDA_PATH);
    CHECK(strstr(why, "did not give cuInit of CUDA 12.0") != NULL && strstr(why, "older") != NULL, "%s", why);
    why = refusal(FAKE_CUDA_DLSYM_PATH);
    CHECK(strstr(why, "is CUDA 11.8; CUDA 12.0 or later is needed") != NULL, "%s", why);
    unsetenv("FAKE_CUDA_DRIVER_VERSION");
}

/* Without cuGetProcAddress the rows are found by their plain names. */
TEST(driver_without_get_proc_address)
{
    mosaic_cuda_driver d;
    if (!open_fake(&d, FAKE_CUDA_DLSYM_PATH))
        return;
    char name[64] = "";
    CHECK_ERR(d.cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS);
    CHECK(strcmp(name, "Mosaic fake GPU") == 0, "name \"%s\"", name);
    mosaic_cuda_driver_close(&d);
}

TEST(error_names)
{
    mosaic_cuda_driver d;
    memset(&d, 0, sizeof d);
    CHECK(strcmp(mosaic_cuda_error_name(&d, CUDA_ERROR_OUT_OF_MEMORY), "unknown CUDA error") == 0,
          "a closed driver knows no names");
    if (!open_fake(&d, FAKE_CUDA_PATH))
        return;
    CHECK(strcmp(mosaic_cuda_error_name(&d, CUDA_SUCCESS), "CUDA_SUCCESS") == 0);
    CHECK(strcmp(mosaic_cuda_error_name(&d, CUDA_ERROR_OUT_OF_MEMORY), "CUDA_ERROR_OUT_OF_MEMORY") == 0);
    CHECK(strcmp(mosaic_cuda_error_name(&d, 12345), "unknown CUDA error") == 0);
    mosaic_cuda_driver_close(&d);

    static const struct {
        CUresult r;
        cl_int cl;
    } table[] = {
        { CUDA_SUCCESS, CL_SUCCESS },
        { CUDA_ERROR_OUT_OF_MEMORY, CL_OUT_OF_RESOURCES },
        { CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CL_OUT_OF_RESOURCES },
        { CUDA_ERROR_INVALID_PTX, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_INVALID_IMAGE, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_NO_BINARY_FOR_GPU, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_JIT_COMPILER_NOT_FOUND, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_UNSUPPORTED_PTX_VERSION, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_JIT_COMPILATION_DISABLED, CL_BUILD_PROGRAM_FAILURE },
        { CUDA_ERROR_NO_DEVICE, CL_DEVICE_NOT_AVAILABLE },
        { CUDA_ERROR_INVALID_VALUE, CL_OUT_OF_RESOURCES },
        { CUDA_ERROR_NOT_SUPPORTED, CL_OUT_OF_RESOURCES },
        { 999, CL_OUT_OF_RESOURCES },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        CHECK(mosaic_cuda_cl_error(table[i].r) == table[i].cl, "CUresult %d gives %d, not %d", table[i].r,
              mosaic_cuda_cl_error(table[i].r), table[i].cl);
}

/* Twice in a row, each close undoing its open (valgrind: nothing leaks). */
TEST(open_close_twice)
{
    for (int i = 0; i < 2; i++) {
        mosaic_cuda_driver d;
        if (!open_fake(&d, FAKE_CUDA_PATH))
            return;
        mosaic_cuda_driver_close(&d);
        CHECK(zeroed(&d) && !loaded(FAKE_CUDA_PATH), "open %d", i);
        mosaic_cuda_driver_close(&d); /* a closed one: nothing to do */
    }
}

/* MOSAIC_CUDA_DRIVER names the library; libcuda.so.1 by default. */
TEST(setting)
{
    unsetenv("MOSAIC_CUDA_DRIVER");
    mosaic_settings_reload();
    CHECK(strcmp(mosaic_settings()->cuda_driver, "libcuda.so.1") == 0, "%s", mosaic_settings()->cuda_driver);
    setenv("MOSAIC_CUDA_DRIVER", FAKE_CUDA_PATH, 1);
    mosaic_settings_reload();
    mosaic_cuda_driver d;
    if (open_fake(&d, mosaic_settings()->cuda_driver))
        mosaic_cuda_driver_close(&d);
    unsetenv("MOSAIC_CUDA_DRIVER");
    mosaic_settings_reload();
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
