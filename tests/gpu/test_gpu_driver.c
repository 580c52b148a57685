/*
 * The CUDA driver layer (devices/cuda/cuda_driver.c) on a real NVIDIA driver
 * and GPU: the library MOSAIC_CUDA_DRIVER names (libcuda.so.1) opens with
 * every entry point, the device answers, memory goes there and back, and
 * PTX made by LLVM's NVPTX target (vector_add.cl, compiled at build time and
 * found beside this program) loads and runs; PTX the JIT refuses gives
 * CL_BUILD_PROGRAM_FAILURE and a log; OpenCL C through Mosaic's front end and
 * PTX back end (compiler/gpu/ptx.c, libclc's built-ins) runs and computes
 * what the host does, a __local argument given as an offset into the
 * block's dynamic shared memory included, and the work-item functions
 * answer what OpenCL says for a 2D NDRange with an offset and partial last
 * groups, launched as a device does (the launch's values as each kernel's
 * last parameter, and MOSAIC_GPU_LAUNCH_SYMBOL written before each launch
 * where a kernel still reads it; a partial group a launch of its own).  Where the
 * driver or a GPU is missing, each case says so and is skipped.
 */
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_gpu_driver.list"
#include "test.h"
#include "gpu_kernels.h"
#include "base/settings.h"
#include "compiler/compiler.h"
#include "compiler/gpu/ptx.h"
#include "devices/cuda/cuda_driver.h"

static mosaic_cuda_driver driver;
static CUcontext context;
static char unavailable[512]; /* why there is no GPU to test, once found out */

/* The driver opened, device 0's primary context current; false (and the
 * case skipped) where there is no driver or no GPU. */
static bool gpu(void)
{
    if (driver.library)
        return true;
    if (!unavailable[0]) {
        if (!mosaic_cuda_driver_open(&driver, mosaic_settings()->cuda_driver, unavailable, sizeof unavailable)) {
            if (!unavailable[0])
                strcpy(unavailable, "the driver did not open");
        } else {
            int count = 0;
            CUresult r = driver.cuDeviceGetCount(&count);
            if (r != CUDA_SUCCESS || count < 1) {
                snprintf(unavailable, sizeof unavailable, "the CUDA driver reports no GPU (%s)",
                         mosaic_cuda_error_name(&driver, r));
                mosaic_cuda_driver_close(&driver);
            } else if ((r = driver.cuDevicePrimaryCtxRetain(&context, 0)) != CUDA_SUCCESS ||
                       (r = driver.cuCtxSetCurrent(context)) != CUDA_SUCCESS) {
                CHECK(0, "GPU 0's context: %s", mosaic_cuda_error_name(&driver, r));
                strcpy(unavailable, "GPU 0 has no context");
                mosaic_cuda_driver_close(&driver);
            }
        }
    }
    if (driver.library)
        return true;
    return false;
}

#define NEED_GPU()                                                                                   \
    do {                                                                                             \
        if (!gpu())                                                                                  \
            TEST_SKIP("%s", unavailable);                                                            \
    } while (0)

/* CHECK that a driver call succeeded, naming its error otherwise. */
#define CHECK_CU(call)                                                                               \
    do {                                                                                             \
        CUresult r_ = (call);                                                                        \
        CHECK(r_ == CUDA_SUCCESS, "%s: %s", #call, mosaic_cuda_error_name(&driver, r_));             \
    } while (0)

TEST(opens_driver)
{
    NEED_GPU();
    CHECK(driver.version >= MOSAIC_CUDA_API_VERSION, "driver version %d", driver.version);
    CHECK_CU(driver.cuCtxSynchronize()); /* the 12.0 form, without a context argument */
}

TEST(reads_device)
{
    NEED_GPU();
    char name[256] = "";
    CHECK_CU(driver.cuDeviceGetName(name, sizeof name, 0));
    CHECK(name[0] != 0);
    int major = 0, minor = 0, units = 0, warp = 0, threads = 0, shared = 0;
    CHECK_CU(driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&units, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&shared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0));
    size_t memory = 0;
    CHECK_CU(driver.cuDeviceTotalMem(&memory, 0));
    CHECK(major >= 5 && units > 0 && warp == 32 && threads >= 256 && shared >= 16384 && memory > 0);
    printf("  %s: compute capability %d.%d, %d multiprocessors, %zu MiB, CUDA driver %d.%d\n", name, major, minor,
           units, memory >> 20, driver.version / 1000, driver.version % 1000 / 10);
}

TEST(memory_round_trip)
{
    NEED_GPU();
    enum { N = 1 << 20 };
    unsigned *in = malloc(N * sizeof *in), *out = calloc(N, sizeof *out);
    CHECK(in && out);
    for (unsigned i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    CUdeviceptr a = 0, b = 0;
    CHECK_CU(driver.cuMemAlloc(&a, N * sizeof *in));
    CHECK_CU(driver.cuMemAlloc(&b, N * sizeof *in));
    CHECK_CU(driver.cuMemcpyHtoD(a, in, N * sizeof *in));
    CHECK_CU(driver.cuMemcpyDtoD(b, a, N * sizeof *in));
    CHECK_CU(driver.cuMemcpyDtoH(out, b, N * sizeof *out));
    CHECK(memcmp(in, out, N * sizeof *in) == 0);
    CHECK_CU(driver.cuMemFree(a));
    CHECK_CU(driver.cuMemFree(b));
    free(in), free(out);
}

/* vector_add.ptx, beside this program, as a string (malloc'd), or NULL. */
static char *read_ptx(void)
{
    char self[PATH_MAX], path[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = 0;
    snprintf(path, sizeof path, "%s/vector_add.ptx", dirname(self));
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "%s", path);
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 20);
    size_t got = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    CHECK(got > 0, "%s is empty", path);
    return text;
}

/* Loads `ptx`; the JIT's error log, if it refuses, goes to `log`. */
static CUresult load(const char *ptx, CUmodule *module, char *log, size_t log_size)
{
    CUjit_option options[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[2] = {log, (void *)(uintptr_t)log_size};
    log[0] = 0;
    return driver.cuModuleLoadDataEx(module, ptx, 2, options, values);
}

TEST(runs_ptx)
{
    NEED_GPU();
    char *ptx = read_ptx(), log[4096];
    if (!ptx)
        return;
    CUmodule module = NULL;
    CUresult r = load(ptx, &module, log, sizeof log);
    CHECK(r == CUDA_SUCCESS, "the JIT refused vector_add.ptx: %s: %s", mosaic_cuda_error_name(&driver, r), log);
    CUfunction kernel = NULL;
    if (r == CUDA_SUCCESS)
        CHECK_CU(driver.cuModuleGetFunction(&kernel, module, "vector_add"));
    enum { N = 1000000, GROUP = 256 };
    size_t bytes = N * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    CHECK(a && b && c);
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = 0.5f * (float)i;
    CUdeviceptr da = 0, db = 0, dc = 0;
    CHECK_CU(driver.cuMemAlloc(&da, bytes));
    CHECK_CU(driver.cuMemAlloc(&db, bytes));
    CHECK_CU(driver.cuMemAlloc(&dc, bytes));
    CHECK_CU(driver.cuMemcpyHtoD(da, a, bytes));
    CHECK_CU(driver.cuMemcpyHtoD(db, b, bytes));
    int n = N;
    void *arguments[] = {&da, &db, &dc, &n};
    if (kernel) {
        CHECK_CU(driver.cuLaunchKernel(kernel, (N + GROUP - 1) / GROUP, 1, 1, GROUP, 1, 1, 0, NULL, arguments, NULL));
        CHECK_CU(driver.cuCtxSynchronize());
        CHECK_CU(driver.cuMemcpyDtoH(c, dc, bytes));
        int wrong = 0;
        for (int i = 0; i < N; i++) {
            float want = a[i] + b[i] + sqrtf(b[i]);
            wrong += fabsf(c[i] - want) > 1e-6f * fabsf(want);
        }
        CHECK(wrong == 0, "%d of %d sums wrong", wrong, N);
    }
    CHECK_CU(driver.cuMemFree(da));
    CHECK_CU(driver.cuMemFree(db));
    CHECK_CU(driver.cuMemFree(dc));
    if (module)
        CHECK_CU(driver.cuModuleUnload(module));
    free(a), free(b), free(c), free(ptx);
}

TEST(refuses_bad_ptx)
{
    NEED_GPU();
    static const char bad[] = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k() { bogus; }\n";
    char log[4096];
    CUmodule module = NULL;
    CUresult r = load(bad, &module, log, sizeof log);
    CHECK(r != CUDA_SUCCESS, "the JIT took PTX with an unknown instruction");
    CHECK(mosaic_cuda_cl_error(r) == CL_BUILD_PROGRAM_FAILURE, "%s", mosaic_cuda_error_name(&driver, r));
    CHECK(log[0] != 0, "no log from the JIT");
    if (r == CUDA_SUCCESS)
        driver.cuModuleUnload(module);
}

/* OpenCL C through Mosaic to PTX for GPU 0, loaded; NULL when it fails. */
static CUmodule mosaic_module(const char *source, const char *options)
{
    int major = 0, minor = 0;
    CHECK_CU(driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    CHECK_CU(driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
    char sm[16];
    snprintf(sm, sizeof sm, "sm_%d%d", major, minor);
    static const mosaic_compiler_target gpu_target = {.triple = MC_PTX_TRIPLE};
    mosaic_bitcode obj = {0};
    char *front_log = NULL, *ptx = NULL, log[4096];
    cl_int r = mosaic_compile_source(&gpu_target, source, options, 0, NULL, &obj, &front_log);
    CHECK(r == CL_SUCCESS, "front end: %s", front_log ? front_log : "");
    free(front_log);
    mosaic_strbuf ptx_log = {0};
    size_t size = 0;
    if (r == CL_SUCCESS) {
        r = mc_ptx_from_program(&obj, sm, &ptx, &size, &ptx_log);
        CHECK(r == CL_SUCCESS, "PTX for %s: %s", sm, ptx_log.data ? ptx_log.data : "");
    }
    mosaic_strbuf_free(&ptx_log);
    mosaic_bitcode_free(&obj);
    CUmodule module = NULL;
    if (r == CL_SUCCESS) {
        CUresult cr = load(ptx, &module, log, sizeof log);
        CHECK(cr == CUDA_SUCCESS, "the JIT refused Mosaic's PTX: %s: %s", mosaic_cuda_error_name(&driver, cr), log);
        if (cr != CUDA_SUCCESS)
            module = NULL;
    }
    free(ptx);
    return module;
}

/* What the work-item functions of `module` read, for a launch of a
 * `work_dim` NDRange of `global` work-items in groups of `local` from
 * `offset`, whose blocks are its groups from `base` on (mosaic_gpu_launch;
 * dimensions past work_dim as OpenCL answers them), into *l: a kernel's
 * last parameter.  Where a function the optimiser did not inline reads it,
 * the module's copy is written too (synchronously, before the launch that
 * follows). */
static void set_launch(CUmodule module, unsigned work_dim, const size_t global[3], const size_t local[3],
                       const size_t offset[3], const size_t base[3], mosaic_gpu_launch *out)
{
    mosaic_gpu_launch l = {.work_dim = work_dim};
    for (unsigned d = 0; d < 3; d++) {
        bool in = d < work_dim;
        l.global_offset[d] = in ? offset[d] : 0;
        l.global_size[d] = in ? global[d] : 1;
        l.enqueued_local_size[d] = in ? local[d] : 1;
        l.num_groups[d] = in ? (global[d] + local[d] - 1) / local[d] : 1;
        l.group_base[d] = in ? base[d] : 0;
    }
    *out = l;
    CUdeviceptr launch = 0;
    size_t bytes = 0;
    if (driver.cuModuleGetGlobal(&launch, &bytes, module, MOSAIC_GPU_LAUNCH_SYMBOL) != CUDA_SUCCESS)
        return;
    CHECK(bytes == sizeof(mosaic_gpu_launch), "%s has %zu bytes", MOSAIC_GPU_LAUNCH_SYMBOL, bytes);
    CHECK_CU(driver.cuMemcpyHtoD(launch, &l, sizeof l));
}

TEST(runs_mosaic_ptx)
{
    NEED_GPU();
    if (!mc_ptx_available())
        TEST_SKIP("no libclc NVPTX library (Debian's libclc-16)");
    CUmodule module = mosaic_module(WAVES_SOURCE, "");
    if (!module)
        return;
    CUfunction kernel = NULL;
    CHECK_CU(driver.cuModuleGetFunction(&kernel, module, "waves"));
    enum { N = 1 << 18, GROUP = 256 };
    float *a = malloc(N * sizeof *a), *c = malloc(N * sizeof *c);
    CHECK(a && c);
    for (int i = 0; i < N; i++)
        a[i] = (float)i * 0.01f - 100.0f;
    CUdeviceptr da = 0, dc = 0;
    CHECK_CU(driver.cuMemAlloc(&da, N * sizeof *a));
    CHECK_CU(driver.cuMemAlloc(&dc, N * sizeof *c));
    CHECK_CU(driver.cuMemcpyHtoD(da, a, N * sizeof *a));
    int n = N;
    mosaic_gpu_launch l;
    void *arguments[] = {&da, &dc, &n, &l};
    if (kernel) {
        set_launch(module, 1, (size_t[3]){N}, (size_t[3]){GROUP}, (size_t[3]){0}, (size_t[3]){0}, &l);
        CHECK_CU(driver.cuLaunchKernel(kernel, N / GROUP, 1, 1, GROUP, 1, 1, 0, NULL, arguments, NULL));
        CHECK_CU(driver.cuCtxSynchronize());
        CHECK_CU(driver.cuMemcpyDtoH(c, dc, N * sizeof *c));
        int wrong = 0, first = -1;
        for (int i = 0; i < N; i++) {
            int next = i % GROUP == GROUP - 1 ? i - (GROUP - 1) : i + 1; /* (l + 1) % 256 in its group */
            double whole = floor((double)a[next]), want = sin((double)a[i]) + ((double)a[next] - whole) + whole;
            if (fabs(c[i] - want) > 1e-4 * (1 + fabs(want)))
                wrong++, first = first < 0 ? i : first;
        }
        CHECK(wrong == 0, "%d of %d wrong, the first at %d: %g, not %g", wrong, N, first, first >= 0 ? c[first] : 0.0,
              first >= 0 ? sin((double)a[first]) : 0.0);
    }
    CHECK_CU(driver.cuMemFree(da));
    CHECK_CU(driver.cuMemFree(dc));
    CHECK_CU(driver.cuModuleUnload(module));
    free(a), free(c);
}

TEST(local_argument)
{
    NEED_GPU();
    if (!mc_ptx_available())
        TEST_SKIP("no libclc NVPTX library (Debian's libclc-16)");
    CUmodule module = mosaic_module(GROUP_SUMS_SOURCE, "");
    if (!module)
        return;
    CUfunction kernel = NULL;
    CHECK_CU(driver.cuModuleGetFunction(&kernel, module, "group_sums"));
    enum { N = 1 << 16, GROUP = 256, PAD = 64 };
    float *a = malloc(N * sizeof *a), *c = malloc(N * sizeof *c);
    CHECK(a && c);
    for (int i = 0; i < N; i++)
        a[i] = (float)(i % 7) - 3.0f;
    CUdeviceptr da = 0, dc = 0;
    CHECK_CU(driver.cuMemAlloc(&da, N * sizeof *a));
    CHECK_CU(driver.cuMemAlloc(&dc, N * sizeof *c));
    CHECK_CU(driver.cuMemcpyHtoD(da, a, N * sizeof *a));
    /* t at an offset that is not 0: what a second __local argument before it would leave */
    unsigned offset = PAD * sizeof(float);
    mosaic_gpu_launch l;
    void *arguments[] = {&da, &offset, &dc, &l};
    if (kernel) {
        set_launch(module, 1, (size_t[3]){N}, (size_t[3]){GROUP}, (size_t[3]){0}, (size_t[3]){0}, &l);
        CHECK_CU(driver.cuLaunchKernel(kernel, N / GROUP, 1, 1, GROUP, 1, 1, (unsigned)(offset + GROUP * sizeof(float)),
                                       NULL, arguments, NULL));
        CHECK_CU(driver.cuCtxSynchronize());
        CHECK_CU(driver.cuMemcpyDtoH(c, dc, N * sizeof *c));
        int wrong = 0;
        for (int g = 0; g < N / GROUP; g++) {
            float sum = 0;
            for (int i = 0; i < GROUP; i++)
                sum += a[g * GROUP + i];
            for (int i = 0; i < GROUP; i++)
                wrong += c[g * GROUP + i] != sum;
        }
        CHECK(wrong == 0, "%d of %d sums wrong", wrong, N);
    }
    CHECK_CU(driver.cuMemFree(da));
    CHECK_CU(driver.cuMemFree(dc));
    CHECK_CU(driver.cuModuleUnload(module));
    free(a), free(c);
}

/* A 2D NDRange of 37 x 5 work-items from (3, 100) in groups of 8 x 2, as
 * a device runs it: the whole groups in one launch, then the partial last
 * column, row and corner each in a launch of its own, with smaller blocks
 * and the base of their groups; every work-item's answers checked. */
TEST(launch_values)
{
    NEED_GPU();
    if (!mc_ptx_available())
        TEST_SKIP("no libclc NVPTX library (Debian's libclc-16)");
    CUmodule module = mosaic_module(LAUNCH_VALUES_SOURCE, "-cl-std=CL3.0");
    if (!module)
        return;
    CUfunction kernel = NULL;
    CHECK_CU(driver.cuModuleGetFunction(&kernel, module, "launch_values"));
    enum { GX = 37, GY = 5, LX = 8, LY = 2, OX = 3, OY = 100 };
    const size_t global[3] = {GX, GY, 1}, local[3] = {LX, LY, 1}, offset[3] = {OX, OY, 0};
    size_t bytes = (size_t)GX * GY * LAUNCH_VALUES * sizeof(uint64_t);
    uint64_t *out = malloc(bytes);
    CUdeviceptr dout = 0;
    CHECK_CU(driver.cuMemAlloc(&dout, bytes));
    CHECK_CU(driver.cuMemsetD8Async(dout, 0xee, bytes, NULL));
    mosaic_gpu_launch l;
    void *arguments[] = {&dout, &l};
    for (int part = 0; part < 4 && kernel; part++) {
        /* the whole groups; the last column's; the last row's; the corner */
        unsigned x_last = part & 1, y_last = part >> 1;
        unsigned grid[2] = {x_last ? 1 : GX / LX, y_last ? 1 : GY / LY};
        unsigned block[2] = {x_last ? GX % LX : LX, y_last ? GY % LY : LY};
        set_launch(module, 2, global, local, offset, (size_t[3]){x_last ? GX / LX : 0, y_last ? GY / LY : 0, 0},
                   &l);
        CHECK_CU(driver.cuLaunchKernel(kernel, grid[0], grid[1], 1, block[0], block[1], 1, 0, NULL, arguments, NULL));
        CHECK_CU(driver.cuCtxSynchronize());
    }
    CHECK_CU(driver.cuMemcpyDtoH(out, dout, bytes));
    int wrong = 0;
    for (unsigned y = 0; y < GY && out; y++)
        for (unsigned x = 0; x < GX; x++) {
            const uint64_t *o = out + (y * GX + x) * LAUNCH_VALUES;
            size_t lx = x % LX, ly = y % LY;
            size_t sx = x / LX == GX / LX ? GX % LX : LX, sy = y / LY == GY / LY ? GY % LY : LY; /* partial last */
            uint64_t want[29] = {x + OX, y + OY, 0, lx, ly, 0, x / LX, y / LY, 0, sx, sy, 1, LX, LY, 1, GX, GY, 1,
                                 (GX + LX - 1) / LX, (GY + LY - 1) / LY, 1, OX, OY, 0, 2, y * GX + x, ly * sx + lx,
                                 0, 4};
            for (int v = 0; v < 29; v++)
                if (o[v] != want[v] && wrong++ < 8)
                    CHECK(0, "work-item (%u, %u), value %d: %llu, not %llu", x, y, v, (unsigned long long)o[v],
                          (unsigned long long)want[v]);
        }
    CHECK(wrong == 0, "%d values wrong", wrong);
    CHECK_CU(driver.cuMemFree(dout));
    CHECK_CU(driver.cuModuleUnload(module));
    free(out);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    if (driver.library) {
        driver.cuDevicePrimaryCtxRelease(0);
        mosaic_cuda_driver_close(&driver);
    }
    return test_summary();
}
