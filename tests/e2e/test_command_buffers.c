/*
 * cl_khr_command_buffer (0.9.8) and cl_khr_command_buffer_mutable_dispatch
 * (0.9.5) in real programs, through the ICD loader (src/api/command_buffer.c,
 * docs/command-buffers.md):
 *
 *   queries          the extensions and their versions, the device's
 *                    capabilities, every clGetCommandBufferInfoKHR answer
 *   memory_commands  fill, copy, rectangular copy and SVM copy and fill
 *                    recorded once, replayed; the recorded fill keeps its
 *                    pattern and the commands their buffers (released by the
 *                    application after recording)
 *   image_commands   fill image, copy image, buffer to image, image to buffer
 *   replay_many      a kernel command replayed 200 times adds 200; a later
 *                    clSetKernelArg does not reach the recorded command
 *   sync_points      on an out-of-order queue: a chain of commands ordered by
 *                    sync points and a barrier, and a replay gated by a user
 *                    event
 *   simultaneous     a buffer with CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
 *                    enqueued many times on an out-of-order queue at once
 *   mutable_args     updates of buffer and scalar arguments, replayed after
 *                    each; a failed update keeps nothing; an update while
 *                    replays run leaves them their launch
 *   mutable_sizes    updates of the global size, offset and local size; the
 *                    mutable command's info queries follow them
 *   deferred_args    a kernel recorded before its arguments: finalized, not
 *                    executable until an update sets them
 *   errors           the codes the specification names for bad input
 *   release_pending  every object released while replays are pending
 *
 *   usage: test_command_buffers [case|--list]   (the cases: test_command_buffers.list)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/mosaic_command_buffer.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_command_buffers.list"
#include "test.h"
#include "cl_test.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static const char *source =
    "kernel void add(global int *a, int k) { a[get_global_id(0)] += k; }\n"
    "kernel void mul(global const int *in, global int *out, int k) {\n"
    "    size_t i = get_global_id(0); out[i] = in[i] * k; }\n"
    "kernel void ids(global int *out) {\n"
    "    size_t i = get_global_id(0); out[i - get_global_offset(0)] = (int)(i * 1000 + get_local_size(0)); }\n"
    "kernel void count(volatile global int *c) { atomic_inc(c); }\n";

/* The entry points (clGetExtensionFunctionAddressForPlatform). */
#define FUNCTIONS(X)                                                                                       \
    X(clCreateCommandBufferKHR) X(clFinalizeCommandBufferKHR) X(clRetainCommandBufferKHR)                  \
    X(clReleaseCommandBufferKHR) X(clEnqueueCommandBufferKHR) X(clCommandBarrierWithWaitListKHR)           \
    X(clCommandCopyBufferKHR) X(clCommandCopyBufferRectKHR) X(clCommandCopyBufferToImageKHR)               \
    X(clCommandCopyImageKHR) X(clCommandCopyImageToBufferKHR) X(clCommandFillBufferKHR)                    \
    X(clCommandFillImageKHR) X(clCommandNDRangeKernelKHR) X(clCommandSVMMemcpyKHR) X(clCommandSVMMemFillKHR) \
    X(clGetCommandBufferInfoKHR) X(clUpdateMutableCommandsKHR) X(clGetMutableCommandInfoKHR)
#define DECLARE(f) static MOSAIC_CB_FN(f) f##_;
FUNCTIONS(DECLARE)

static bool load_functions(void)
{
    bool all = true;
#define LOAD(f)                                                                             \
    f##_ = (MOSAIC_CB_FN(f))clGetExtensionFunctionAddressForPlatform(platform, #f);         \
    if (!f##_) {                                                                            \
        fprintf(stderr, "%s is missing\n", #f);                                             \
        all = false;                                                                        \
    }
    FUNCTIONS(LOAD)
    return all;
}

static cl_mem new_buffer(size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, init ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes, (void *)init, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static cl_kernel new_kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_command_buffer_khr new_command_buffer(cl_command_queue q, cl_command_buffer_flags_khr flags)
{
    cl_command_buffer_properties_khr props[] = { CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0 };
    cl_int err;
    cl_command_buffer_khr cb = clCreateCommandBufferKHR_(1, &q, flags ? props : NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return cb;
}

static void read_ints(cl_mem m, int *out, size_t n)
{
    OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
}

/* ---- queries ---------------------------------------------------------------------- */

TEST(queries)
{
    size_t size = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
    cl_name_version *list = malloc(size);
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL));
    cl_version cb_version = 0, md_version = 0;
    for (size_t i = 0; i < size / sizeof *list; i++) {
        if (!strcmp(list[i].name, "cl_khr_command_buffer"))
            cb_version = list[i].version;
        if (!strcmp(list[i].name, "cl_khr_command_buffer_mutable_dispatch"))
            md_version = list[i].version;
        CHECK(strcmp(list[i].name, "cl_khr_command_buffer_multi_device"), "multi-device is not reported");
    }
    free(list);
    CHECK(cb_version == CL_MAKE_VERSION(0, 9, 8), "cl_khr_command_buffer version 0x%x", cb_version);
    CHECK(md_version == CL_MAKE_VERSION(0, 9, 5), "mutable dispatch version 0x%x", md_version);

    cl_device_command_buffer_capabilities_khr caps = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps, &caps, NULL));
    CHECK(caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
    CHECK(caps & CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR);
    cl_command_queue_properties required = 1, supported = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR, sizeof required, &required,
                       NULL));
    OK(clGetDeviceInfo(device, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR, sizeof supported,
                       &supported, NULL));
    CHECK(required == 0);
    CHECK(supported == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    cl_mutable_dispatch_fields_khr fields = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR, sizeof fields, &fields, NULL));
    CHECK(fields == (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                     CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                     CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));

    cl_command_buffer_khr cb = new_command_buffer(queue, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
    cl_command_queue q = NULL;
    cl_uint n = 0, refs = 0;
    cl_context ctx = NULL;
    cl_command_buffer_state_khr state = 99;
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof q, &q, NULL));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof n, &n, NULL));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof ctx, &ctx, NULL));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(q == queue && n == 1 && ctx == context && state == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
    cl_command_buffer_properties_khr props[4] = { 0 };
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, NULL, &size));
    CHECK(size == 3 * sizeof *props, "%zu bytes of properties", size);
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof props, props, NULL));
    CHECK(props[0] == CL_COMMAND_BUFFER_FLAGS_KHR && props[1] == CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR &&
          props[2] == 0);
    OK(clRetainCommandBufferKHR_(cb));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clFinalizeCommandBufferKHR_(cb));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    CHECK_ERR(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, 1, &state, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetCommandBufferInfoKHR_(cb, 0x4242, sizeof state, &state, NULL), CL_INVALID_VALUE);
    /* no properties given: an empty array */
    cl_command_buffer_khr plain = new_command_buffer(queue, 0);
    OK(clGetCommandBufferInfoKHR_(plain, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, NULL, &size));
    CHECK(size == 0);
    OK(clReleaseCommandBufferKHR_(plain));
    OK(clReleaseCommandBufferKHR_(cb));
}

/* ---- memory commands ---------------------------------------------------------------- */

TEST(memory_commands)
{
    enum { N = 256 };
    cl_mem a = new_buffer(N * sizeof(int), NULL), b = new_buffer(N * sizeof(int), NULL);
    cl_mem rect = new_buffer(16 * 16, NULL);
    cl_command_buffer_khr cb = new_command_buffer(queue, 0);
    int pattern = 7;
    cl_sync_point_khr s1 = 0, s2 = 0;
    OK(clCommandFillBufferKHR_(cb, NULL, NULL, a, &pattern, sizeof pattern, 0, N * sizeof(int), 0, NULL, &s1, NULL));
    pattern = 99; /* the recorded command keeps its own copy */
    OK(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 0, N * sizeof(int), 1, &s1, &s2, NULL));
    CHECK(s1 != 0 && s2 != 0 && s1 != s2);
    unsigned char byte = 3;
    OK(clCommandFillBufferKHR_(cb, NULL, NULL, rect, &byte, 1, 0, 256, 0, NULL, NULL, NULL));
    /* a 4x4 block of b's first bytes (all 7, 0, 0, 0 as ints) into rect at (2, 3) */
    size_t src_origin[3] = { 0, 0, 0 }, dst_origin[3] = { 2, 3, 0 }, region[3] = { 4, 4, 1 };
    OK(clCommandCopyBufferRectKHR_(cb, NULL, NULL, b, rect, src_origin, dst_origin, region, 4, 0, 16, 0, 1, &s2,
                                   NULL, NULL));
    OK(clReleaseMemObject(a)); /* the commands hold their buffers */
    OK(clFinalizeCommandBufferKHR_(cb));
    for (int replay = 0; replay < 3; replay++) {
        int zero = 0;
        OK(clEnqueueFillBuffer(queue, b, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
        OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
        int got[N];
        read_ints(b, got, N);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += got[i] != 7;
        CHECK(bad == 0, "replay %d: %d wrong", replay, bad);
        unsigned char r[256];
        OK(clEnqueueReadBuffer(queue, rect, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
        bad = 0;
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                bool in = x >= 2 && x < 6 && y >= 3 && y < 7;
                bad += r[y * 16 + x] != (in ? (x == 2 ? 7 : 0) : 3);
            }
        CHECK(bad == 0, "replay %d: %d wrong bytes of the rectangle", replay, bad);
    }
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(rect));

    /* SVM */
    cl_device_svm_capabilities svm = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL));
    if (!svm)
        return;
    int *x = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    int *y = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    CHECK(x && y);
    cb = new_command_buffer(queue, 0);
    int seven = 0x01020304;
    OK(clCommandSVMMemFillKHR_(cb, NULL, NULL, x, &seven, sizeof seven, N * sizeof(int), 0, NULL, &s1, NULL));
    OK(clCommandSVMMemcpyKHR_(cb, NULL, NULL, y, x, N * sizeof(int), 1, &s1, NULL, NULL));
    OK(clFinalizeCommandBufferKHR_(cb));
    memset(y, 0, N * sizeof(int));
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    OK(clFinish(queue));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 0x01020304;
    CHECK(bad == 0);
    OK(clReleaseCommandBufferKHR_(cb));
    clSVMFree(context, x);
    clSVMFree(context, y);
}

TEST(image_commands)
{
    cl_bool images = CL_FALSE;
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images)
        TEST_SKIP("no image support");
    cl_image_format fmt = { CL_RGBA, CL_UNSIGNED_INT8 };
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 8, .image_height = 8 };
    cl_int err;
    cl_mem img = clCreateImage(context, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem img2 = clCreateImage(context, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem buf = new_buffer(8 * 8 * 4, NULL), out = new_buffer(8 * 8 * 4, NULL);
    unsigned char bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (unsigned char)i;
    OK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL));
    cl_command_buffer_khr cb = new_command_buffer(queue, 0);
    size_t origin[3] = { 0, 0, 0 }, all[3] = { 8, 8, 1 }, corner[3] = { 2, 2, 0 }, small[3] = { 2, 2, 1 };
    cl_uint4 color = { { 9, 8, 7, 6 } };
    cl_sync_point_khr s[4];
    OK(clCommandCopyBufferToImageKHR_(cb, NULL, NULL, buf, img, 0, origin, all, 0, NULL, &s[0], NULL));
    OK(clCommandFillImageKHR_(cb, NULL, NULL, img, &color, corner, small, 1, &s[0], &s[1], NULL));
    OK(clCommandCopyImageKHR_(cb, NULL, NULL, img, img2, origin, origin, all, 1, &s[1], &s[2], NULL));
    OK(clCommandCopyImageToBufferKHR_(cb, NULL, NULL, img2, out, origin, all, 0, 1, &s[2], &s[3], NULL));
    OK(clFinalizeCommandBufferKHR_(cb));
    for (int replay = 0; replay < 2; replay++) {
        OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
        unsigned char got[256];
        OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int bad = 0;
        for (int py = 0; py < 8; py++)
            for (int px = 0; px < 8; px++)
                for (int c = 0; c < 4; c++) {
                    int i = (py * 8 + px) * 4 + c;
                    bool filled = px >= 2 && px < 4 && py >= 2 && py < 4;
                    bad += got[i] != (filled ? 9 - c : i);
                }
        CHECK(bad == 0, "replay %d: %d wrong bytes", replay, bad);
    }
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseMemObject(img));
    OK(clReleaseMemObject(img2));
    OK(clReleaseMemObject(buf));
    OK(clReleaseMemObject(out));
}

/* ---- kernels ------------------------------------------------------------------------ */

TEST(replay_many)
{
    enum { N = 1024, REPLAYS = 200 };
    cl_mem a = new_buffer(N * sizeof(int), NULL);
    int zero = 0;
    OK(clEnqueueFillBuffer(queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    cl_kernel k = new_kernel("add");
    int one = 1;
    OK(clSetKernelArg(k, 0, sizeof a, &a));
    OK(clSetKernelArg(k, 1, sizeof one, &one));
    cl_command_buffer_khr cb = new_command_buffer(queue, 0);
    size_t global = N;
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    int thousand = 1000; /* after recording: not the recorded command's */
    OK(clSetKernelArg(k, 1, sizeof thousand, &thousand));
    OK(clFinalizeCommandBufferKHR_(cb));
    cl_event last = NULL;
    for (int r = 0; r < REPLAYS; r++) {
        if (last)
            OK(clReleaseEvent(last));
        OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, &last));
    }
    OK(clWaitForEvents(1, &last));
    cl_command_type type = 0;
    OK(clGetEventInfo(last, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    OK(clReleaseEvent(last));
    int got[N], bad = 0;
    read_ints(a, got, N);
    for (int i = 0; i < N; i++)
        bad += got[i] != REPLAYS;
    CHECK(bad == 0, "%d wrong (a[0] = %d)", bad, got[0]);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(a));
}

static cl_command_queue out_of_order_queue(void)
{
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

TEST(sync_points)
{
    enum { N = 4096 };
    cl_command_queue ooo = out_of_order_queue();
    cl_mem a = new_buffer(N * sizeof(int), NULL), b = new_buffer(N * sizeof(int), NULL);
    cl_kernel add = new_kernel("add"), mul = new_kernel("mul");
    int three = 3, two = 2;
    OK(clSetKernelArg(add, 0, sizeof a, &a));
    OK(clSetKernelArg(add, 1, sizeof three, &three));
    OK(clSetKernelArg(mul, 0, sizeof a, &a));
    OK(clSetKernelArg(mul, 1, sizeof b, &b));
    OK(clSetKernelArg(mul, 2, sizeof two, &two));
    cl_command_buffer_khr cb = new_command_buffer(ooo, 0);
    size_t global = N;
    int five = 5;
    cl_sync_point_khr fill, added;
    /* a = 5; a += 3; barrier; b = a * 2; a += 3 after b is read (sync point on mul) */
    OK(clCommandFillBufferKHR_(cb, NULL, NULL, a, &five, sizeof five, 0, N * sizeof(int), 0, NULL, &fill, NULL));
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, add, 1, NULL, &global, NULL, 1, &fill, &added, NULL));
    OK(clCommandBarrierWithWaitListKHR_(cb, NULL, NULL, 0, NULL, NULL, NULL));
    cl_sync_point_khr multiplied;
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, mul, 1, NULL, &global, NULL, 0, NULL, &multiplied, NULL));
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, add, 1, NULL, &global, NULL, 1, &multiplied, NULL, NULL));
    OK(clFinalizeCommandBufferKHR_(cb));
    for (int r = 0; r < 20; r++) {
        /* the replay waits for the user event: nothing runs before it is set */
        cl_int err;
        cl_event gate = clCreateUserEvent(context, &err), done = NULL;
        CHECK_ERR(err, CL_SUCCESS);
        OK(clEnqueueCommandBufferKHR_(1, &ooo, cb, 1, &gate, &done));
        cl_int status = 0;
        OK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        CHECK(status > CL_RUNNING || status == CL_QUEUED, "status %d before the gate opened", status);
        OK(clSetUserEventStatus(gate, CL_COMPLETE));
        OK(clWaitForEvents(1, &done));
        OK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        CHECK(status == CL_COMPLETE);
        OK(clReleaseEvent(gate));
        OK(clReleaseEvent(done));
        int ga[N], gb[N], bad = 0;
        read_ints(a, ga, N);
        read_ints(b, gb, N);
        for (int i = 0; i < N; i++)
            bad += ga[i] != 11 || gb[i] != 16;
        CHECK(bad == 0, "replay %d: %d wrong (a %d, b %d)", r, bad, ga[0], gb[0]);
    }
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(add));
    OK(clReleaseKernel(mul));
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
    OK(clReleaseCommandQueue(ooo));
}

TEST(simultaneous)
{
    enum { REPLAYS = 50, N = 512 };
    cl_command_queue ooo = out_of_order_queue();
    cl_mem c = new_buffer(sizeof(int), NULL);
    int zero = 0;
    OK(clEnqueueFillBuffer(queue, c, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL));
    OK(clFinish(queue));
    cl_kernel k = new_kernel("count");
    OK(clSetKernelArg(k, 0, sizeof c, &c));
    cl_command_buffer_khr cb = new_command_buffer(ooo, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
    size_t global = N;
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    OK(clFinalizeCommandBufferKHR_(cb));
    for (int r = 0; r < REPLAYS; r++) /* no order between the replays: they may all run at once */
        OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    OK(clFinish(ooo));
    int got = 0;
    read_ints(c, &got, 1);
    CHECK(got == REPLAYS * 2 * N, "%d, not %d", got, REPLAYS * 2 * N);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(c));
    OK(clReleaseCommandQueue(ooo));
}

/* ---- mutable dispatch ------------------------------------------------------------------ */

static cl_int update(cl_command_buffer_khr cb, const cl_mutable_dispatch_config_khr *config)
{
    cl_command_buffer_update_type_khr type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    const void *configs[1] = { config };
    return clUpdateMutableCommandsKHR_(cb, 1, &type, configs);
}

TEST(mutable_args)
{
    enum { N = 1024 };
    int in_data[N];
    for (int i = 0; i < N; i++)
        in_data[i] = i;
    cl_mem in = new_buffer(sizeof in_data, in_data), out1 = new_buffer(sizeof in_data, NULL),
           out2 = new_buffer(sizeof in_data, NULL);
    cl_kernel k = new_kernel("mul");
    int two = 2;
    OK(clSetKernelArg(k, 0, sizeof in, &in));
    OK(clSetKernelArg(k, 1, sizeof out1, &out1));
    OK(clSetKernelArg(k, 2, sizeof two, &two));
    cl_command_buffer_khr cb = new_command_buffer(queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    size_t global = N;
    cl_mutable_command_khr cmd = NULL;
    cl_command_properties_khr props[] = { CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR,
                                          0 };
    OK(clCommandNDRangeKernelKHR_(cb, NULL, props, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd));
    CHECK(cmd != NULL);
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd }), CL_INVALID_OPERATION); /* recording */
    OK(clFinalizeCommandBufferKHR_(cb));
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    int got[N], bad = 0;
    read_ints(out1, got, N);
    for (int i = 0; i < N; i++)
        bad += got[i] != 2 * i;
    CHECK(bad == 0);

    /* out2 and k = 5; the replays in flight keep their launch */
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    int five = 5;
    cl_mutable_dispatch_arg_khr args[2] = { { 1, sizeof out2, &out2 }, { 2, sizeof five, &five } };
    cl_mutable_dispatch_config_khr config = { .command = cmd, .num_args = 2, .arg_list = args };
    OK(update(cb, &config));
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    read_ints(out2, got, N);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != 5 * i;
    CHECK(bad == 0, "%d wrong after the update (%d)", bad, got[1]);

    /* a failed update keeps nothing: the good config before the bad one is not applied */
    int nine = 9;
    cl_mutable_dispatch_arg_khr good = { 2, sizeof nine, &nine }, bad_arg = { 7, sizeof nine, &nine };
    cl_mutable_dispatch_config_khr configs[2] = { { .command = cmd, .num_args = 1, .arg_list = &good },
                                                  { .command = cmd, .num_args = 1, .arg_list = &bad_arg } };
    cl_command_buffer_update_type_khr types[2] = { CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR,
                                                   CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR };
    const void *list[2] = { &configs[0], &configs[1] };
    CHECK_ERR(clUpdateMutableCommandsKHR_(cb, 2, types, list), CL_INVALID_ARG_INDEX);
    /* a wrong size is clSetKernelArg's error */
    cl_mutable_dispatch_arg_khr short_arg = { 2, 1, &nine };
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &short_arg }),
              CL_INVALID_ARG_SIZE);
    /* sizes were not recorded as updatable */
    size_t bigger = 2 * N;
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .global_work_size = &bigger }),
              CL_INVALID_OPERATION);
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .work_dim = 2 }), CL_INVALID_OPERATION);
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = (cl_mutable_command_khr)cb }),
              CL_INVALID_MUTABLE_COMMAND_KHR);
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1 }), CL_INVALID_VALUE);
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    read_ints(out2, got, N);
    CHECK(got[3] == 15, "after failed updates: %d", got[3]);

    /* two configs for the same command in one call: both apply, in order */
    int six = 6;
    cl_mutable_dispatch_arg_khr to_out1 = { 1, sizeof out1, &out1 }, to_six = { 2, sizeof six, &six };
    configs[0] = (cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &to_out1 };
    configs[1] = (cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &to_six };
    OK(clUpdateMutableCommandsKHR_(cb, 2, types, list));
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    read_ints(out1, got, N);
    CHECK(got[3] == 18, "%d", got[3]);

    /* the kernel the command was recorded from */
    cl_kernel recorded = NULL;
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof recorded, &recorded, NULL));
    CHECK(recorded == k);
    cl_command_properties_khr got_props[3] = { 0 };
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR, sizeof got_props, got_props, NULL));
    CHECK(got_props[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR && got_props[1] == CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
    OK(clReleaseCommandBufferKHR_(cb));
    /* an immutable buffer takes no update */
    cb = new_command_buffer(queue, 0);
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd));
    OK(clFinalizeCommandBufferKHR_(cb));
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd }), CL_INVALID_OPERATION);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(in));
    OK(clReleaseMemObject(out1));
    OK(clReleaseMemObject(out2));
}

TEST(mutable_sizes)
{
    enum { N = 256 };
    cl_mem out = new_buffer(N * sizeof(int), NULL);
    cl_kernel k = new_kernel("ids");
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    cl_command_buffer_khr cb = new_command_buffer(queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    size_t global = 64, local = 16, offset = 0;
    cl_mutable_command_khr cmd = NULL;
    /* no CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR: every field the device has */
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, &offset, &global, &local, 0, NULL, NULL, &cmd));
    OK(clFinalizeCommandBufferKHR_(cb));
    size_t new_global = 128, new_local = 32, new_offset = 10;
    cl_mutable_dispatch_config_khr config = { .command = cmd, .global_work_offset = &new_offset,
                                              .global_work_size = &new_global, .local_work_size = &new_local };
    int minus = -1;
    OK(clEnqueueFillBuffer(queue, out, &minus, sizeof minus, 0, N * sizeof(int), 0, NULL, NULL));
    OK(update(cb, &config));
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    int got[N], bad = 0;
    read_ints(out, got, N);
    for (int i = 0; i < N; i++)
        bad += got[i] != (i < 128 ? (i + 10) * 1000 + 32 : -1);
    CHECK(bad == 0, "%d wrong (%d %d)", bad, got[0], got[128]);
    size_t shape[3] = { 0 };
    cl_uint dims = 0;
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, NULL));
    CHECK(dims == 1);
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof shape, shape, NULL));
    CHECK(shape[0] == 128);
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR, sizeof shape, shape, NULL));
    CHECK(shape[0] == 32);
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR, sizeof shape, shape, NULL));
    CHECK(shape[0] == 10);
    cl_command_type type = 0;
    cl_command_buffer_khr owner = NULL;
    cl_command_queue q = NULL;
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, sizeof type, &type, NULL));
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR, sizeof owner, &owner, NULL));
    OK(clGetMutableCommandInfoKHR_(cmd, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR, sizeof q, &q, NULL));
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL && owner == cb && q == queue);
    CHECK_ERR(clGetMutableCommandInfoKHR_(cmd, 0x4242, sizeof q, &q, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMutableCommandInfoKHR_((cl_mutable_command_khr)out, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims,
                                          &dims, NULL),
              CL_INVALID_MUTABLE_COMMAND_KHR);
    /* 128 / 32 groups are whole; 100 / 32 would not be */
    size_t ragged = 100;
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .global_work_size = &ragged }),
              CL_INVALID_OPERATION);
    size_t huge_global = (size_t)1 << 21, too_big = (size_t)1 << 20; /* whole groups, each too large */
    CHECK_ERR(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .global_work_size = &huge_global,
                                                            .local_work_size = &too_big }),
              CL_INVALID_WORK_ITEM_SIZE);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(out));
}

TEST(deferred_args)
{
    enum { N = 64 };
    cl_mem out = new_buffer(N * sizeof(int), NULL);
    cl_kernel k = new_kernel("add");
    cl_command_buffer_khr cb = new_command_buffer(queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    size_t global = N;
    cl_mutable_command_khr cmd = NULL;
    /* without the ARGUMENTS field, missing arguments are an error */
    cl_command_properties_khr sizes_only[] = { CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                               CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0 };
    CHECK_ERR(clCommandNDRangeKernelKHR_(cb, NULL, sizes_only, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd),
              CL_INVALID_KERNEL_ARGS);
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd));
    OK(clFinalizeCommandBufferKHR_(cb));
    cl_command_buffer_state_khr state = 0;
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_FINALIZED_KHR);
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL), CL_INVALID_OPERATION);
    int zero = 0, four = 4;
    OK(clEnqueueFillBuffer(queue, out, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    cl_mutable_dispatch_arg_khr first = { 0, sizeof out, &out }, second = { 1, sizeof four, &four };
    OK(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &first }));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_FINALIZED_KHR); /* one still missing */
    OK(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &second }));
    OK(clGetCommandBufferInfoKHR_(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL));
    int got[N], bad = 0;
    read_ints(out, got, N);
    for (int i = 0; i < N; i++)
        bad += got[i] != 4;
    CHECK(bad == 0);
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(out));
}

/* ---- errors ------------------------------------------------------------------------- */

TEST(errors)
{
    cl_int err = 0;
    cl_mem a = new_buffer(64, NULL), b = new_buffer(64, NULL);
    cl_kernel k = new_kernel("add");
    size_t global = 16;
    int pattern = 1;

    /* clCreateCommandBufferKHR */
    CHECK(!clCreateCommandBufferKHR_(0, &queue, NULL, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_command_queue two[2] = { queue, queue };
    CHECK(!clCreateCommandBufferKHR_(2, two, NULL, &err)); /* no cl_khr_command_buffer_multi_device */
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(!clCreateCommandBufferKHR_(1, NULL, NULL, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_command_queue not_queue = (cl_command_queue)a;
    CHECK(!clCreateCommandBufferKHR_(1, &not_queue, NULL, &err));
    CHECK_ERR(err, CL_INVALID_COMMAND_QUEUE);
    cl_command_buffer_properties_khr twice[] = { CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0 };
    CHECK(!clCreateCommandBufferKHR_(1, &queue, twice, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr unknown[] = { 0x4242, 0, 0 };
    CHECK(!clCreateCommandBufferKHR_(1, &queue, unknown, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr device_sync[] = { CL_COMMAND_BUFFER_FLAGS_KHR, 1 << 2, 0 };
    CHECK(!clCreateCommandBufferKHR_(1, &queue, device_sync, &err));
    CHECK_ERR(err, CL_INVALID_PROPERTY);

    /* handles */
    cl_command_buffer_khr bogus = (cl_command_buffer_khr)a;
    CHECK_ERR(clRetainCommandBufferKHR_(bogus), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(clReleaseCommandBufferKHR_(NULL), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(clFinalizeCommandBufferKHR_(bogus), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, NULL, bogus, 0, NULL, NULL), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(clCommandFillBufferKHR_(bogus, NULL, NULL, a, &pattern, 4, 0, 64, 0, NULL, NULL, NULL),
              CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(clGetCommandBufferInfoKHR_(bogus, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 0, NULL, NULL),
              CL_INVALID_COMMAND_BUFFER_KHR);

    /* recording */
    cl_command_buffer_khr cb = new_command_buffer(queue, 0);
    CHECK_ERR(clCommandFillBufferKHR_(cb, queue, NULL, a, &pattern, 4, 0, 64, 0, NULL, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    cl_command_properties_khr props[] = { 0x4242, 1, 0 };
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, props, a, b, 0, 0, 64, 0, NULL, NULL, NULL), CL_INVALID_VALUE);
    cl_mutable_command_khr handle;
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 0, 64, 0, NULL, NULL, &handle), CL_INVALID_VALUE);
    cl_sync_point_khr sp = 0, none = 12345;
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 0, 64, 1, NULL, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 0, 64, 0, &sp, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 0, 64, 1, &none, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    /* clEnqueueCopyBuffer's and clEnqueueFillBuffer's codes */
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, b, 0, 32, 64, 0, NULL, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, a, 0, 16, 32, 0, NULL, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, (cl_mem)k, 0, 0, 64, 0, NULL, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clCommandFillBufferKHR_(cb, NULL, NULL, a, &pattern, 3, 0, 63, 0, NULL, NULL, NULL), CL_INVALID_VALUE);
    /* clEnqueueNDRangeKernel's */
    CHECK_ERR(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 4, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_KERNEL_ARGS);
    CHECK_ERR(clCommandNDRangeKernelKHR_(cb, NULL, NULL, (cl_kernel)a, 1, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_KERNEL);
    cl_command_properties_khr bad_fields[] = { CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 1 << 20, 0 };
    OK(clSetKernelArg(k, 0, sizeof a, &a));
    OK(clSetKernelArg(k, 1, sizeof pattern, &pattern));
    CHECK_ERR(clCommandNDRangeKernelKHR_(cb, NULL, bad_fields, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_VALUE);
    /* another context's buffer */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_ERR(clCommandCopyBufferKHR_(cb, NULL, NULL, a, foreign, 0, 0, 64, 0, NULL, NULL, NULL), CL_INVALID_CONTEXT);
    OK(clCommandFillBufferKHR_(cb, NULL, NULL, a, &pattern, 4, 0, 64, 0, NULL, &sp, NULL));
    CHECK(sp == 1);

    /* enqueue before finalizing, finalize twice, record after */
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, NULL, cb, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clFinalizeCommandBufferKHR_(cb));
    CHECK_ERR(clFinalizeCommandBufferKHR_(cb), CL_INVALID_OPERATION);
    CHECK_ERR(clCommandFillBufferKHR_(cb, NULL, NULL, a, &pattern, 4, 0, 64, 0, NULL, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clCommandBarrierWithWaitListKHR_(cb, NULL, NULL, 0, NULL, NULL, NULL), CL_INVALID_OPERATION);

    /* clEnqueueCommandBufferKHR */
    CHECK_ERR(clEnqueueCommandBufferKHR_(1, NULL, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, &queue, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCommandBufferKHR_(2, two, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCommandBufferKHR_(1, &not_queue, cb, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, device, NULL, &err);
    CHECK_ERR(clEnqueueCommandBufferKHR_(1, &other_queue, cb, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, NULL, cb, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event foreign_event = clCreateUserEvent(other, &err);
    CHECK_ERR(clEnqueueCommandBufferKHR_(0, NULL, cb, 1, &foreign_event, NULL), CL_INVALID_CONTEXT);
    /* a queue of the same context and device with other properties: substitution works */
    cl_command_queue ooo = out_of_order_queue();
    OK(clEnqueueCommandBufferKHR_(1, &ooo, cb, 0, NULL, NULL));
    OK(clFinish(ooo));

    /* mutable */
    CHECK_ERR(clUpdateMutableCommandsKHR_(cb, 0, NULL, NULL), CL_INVALID_OPERATION); /* not mutable */
    cl_command_buffer_update_type_khr type = 5;
    const void *config = &type;
    CHECK_ERR(clUpdateMutableCommandsKHR_(cb, 1, &type, &config), CL_INVALID_VALUE);
    CHECK_ERR(clUpdateMutableCommandsKHR_(cb, 1, NULL, &config), CL_INVALID_VALUE);

    OK(clSetUserEventStatus(foreign_event, CL_COMPLETE)); /* (a user event released unset is kept) */
    OK(clReleaseEvent(foreign_event));
    OK(clReleaseCommandQueue(other_queue));
    OK(clReleaseCommandQueue(ooo));
    OK(clReleaseMemObject(foreign));
    OK(clReleaseContext(other));
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
}

TEST(release_pending)
{
    enum { N = 4096 };
    cl_command_queue q = out_of_order_queue();
    cl_mem a = new_buffer(N * sizeof(int), NULL), result = new_buffer(N * sizeof(int), NULL);
    cl_kernel k = new_kernel("add");
    int one = 1, zero = 0;
    OK(clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    OK(clFinish(q));
    OK(clSetKernelArg(k, 0, sizeof a, &a));
    OK(clSetKernelArg(k, 1, sizeof one, &one));
    cl_command_buffer_khr cb = new_command_buffer(q, CL_COMMAND_BUFFER_MUTABLE_KHR);
    size_t global = N;
    cl_mutable_command_khr cmd;
    cl_sync_point_khr s;
    OK(clCommandNDRangeKernelKHR_(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, &s, &cmd));
    OK(clCommandCopyBufferKHR_(cb, NULL, NULL, a, result, 0, 0, N * sizeof(int), 1, &s, NULL, NULL));
    OK(clFinalizeCommandBufferKHR_(cb));
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err), done = NULL;
    OK(clEnqueueCommandBufferKHR_(0, NULL, cb, 1, &gate, &done));
    /* an update while the replay waits: the replay keeps the launch it was given */
    int ten = 10;
    cl_mutable_dispatch_arg_khr arg = { 1, sizeof ten, &ten };
    OK(update(cb, &(cl_mutable_dispatch_config_khr){ .command = cmd, .num_args = 1, .arg_list = &arg }));
    OK(clReleaseCommandBufferKHR_(cb));
    OK(clReleaseKernel(k));
    OK(clReleaseMemObject(a));
    OK(clReleaseCommandQueue(q));
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &done));
    int got[N], bad = 0;
    read_ints(result, got, N);
    for (int i = 0; i < N; i++)
        bad += got[i] != 1;
    CHECK(bad == 0, "%d wrong (%d)", bad, got[0]);
    OK(clReleaseEvent(gate));
    OK(clReleaseEvent(done));
    OK(clReleaseMemObject(result));
}

int main(int argc, char **argv)
{
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS || !load_functions())
        return 1;
    return test_main_with_program(argc, argv, source, "-cl-std=CL3.0", &device, &context, &queue, &program);
}
