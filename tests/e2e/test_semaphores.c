/*
 * cl_khr_semaphore (api/semaphore.c, core/semaphore.c): binary semaphores
 * signalled and waited on one queue and across queues, waits enqueued before
 * their signals, the commands' events and wait lists, the queries, and the
 * errors the extension names.  The functions are found as an application
 * finds them, with clGetExtensionFunctionAddressForPlatform.
 *
 *   usage: test_semaphores [case|--list]   (the cases: test_semaphores.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <string.h>
#include <unistd.h>

#include "cl_ext_compat.h" /* names older CL/cl_ext.h lacks */

#define TEST_LIST "test_semaphores.list"
#include "test.h"
#include "cl_test.h"

static cl_platform_id platform;
static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static clCreateSemaphoreWithPropertiesKHR_fn create_semaphore;
static clEnqueueWaitSemaphoresKHR_fn wait_semaphores;
static clEnqueueSignalSemaphoresKHR_fn signal_semaphores;
static clGetSemaphoreInfoKHR_fn semaphore_info;
static clRetainSemaphoreKHR_fn retain_semaphore;
static clReleaseSemaphoreKHR_fn release_semaphore;

static const cl_semaphore_properties_khr binary_props[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0 };

static cl_semaphore_khr new_semaphore(void)
{
    cl_int err = CL_OUT_OF_RESOURCES;
    cl_semaphore_khr s = create_semaphore(context, binary_props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return s;
}

static cl_semaphore_payload_khr payload(cl_semaphore_khr s)
{
    cl_semaphore_payload_khr p = 99;
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_PAYLOAD_KHR, sizeof p, &p, NULL), CL_SUCCESS);
    return p;
}

static cl_int status_of(cl_event e)
{
    cl_int status = 99;
    CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    return status;
}

static cl_command_queue new_queue(void)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

/* ---- reported ------------------------------------------------------------------ */
TEST(reported)
{
    cl_name_version list[128];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size), CL_SUCCESS);
    cl_version version = 0;
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, "cl_khr_semaphore") == 0)
            version = list[i].version;
    CHECK(version == CL_MAKE_VERSION(1, 0, 0), "cl_khr_semaphore version 0x%x", version);
    char names[8192] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof names, names, NULL);
    CHECK(!strstr(names, "cl_khr_external_semaphore"), "external semaphores are reported: %s", names);

    cl_semaphore_type_khr types[4] = { 0 };
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_SEMAPHORE_TYPES_KHR, sizeof types, types, &size), CL_SUCCESS);
    CHECK(size == sizeof *types && types[0] == CL_SEMAPHORE_TYPE_BINARY_KHR, "device types: %zu bytes, %u", size,
          types[0]);
    memset(types, 0, sizeof types);
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_SEMAPHORE_TYPES_KHR, sizeof types, types, &size), CL_SUCCESS);
    CHECK(size == sizeof *types && types[0] == CL_SEMAPHORE_TYPE_BINARY_KHR, "platform types: %zu bytes, %u", size,
          types[0]);
    size = 1;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0, "import handle types: %zu bytes", size);
    size = 1;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0, "export handle types: %zu bytes", size);
}

/* ---- signal then wait on one queue ------------------------------------------------ */
TEST(signal_then_wait)
{
    cl_semaphore_khr s = new_semaphore();
    CHECK(payload(s) == 0, "a new semaphore is signalled");
    cl_event signalled, waited;
    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 0, NULL, &signalled), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &signalled), CL_SUCCESS);
    CHECK(payload(s) == 1, "not signalled after its signal completed");
    CHECK_ERR(wait_semaphores(queue, 1, &s, NULL, 0, NULL, &waited), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    CHECK(status_of(waited) == CL_COMPLETE, "the wait did not complete");
    CHECK(payload(s) == 0, "the wait did not take the signal");

    /* the semaphore can be used again, and a payload list is ignored */
    cl_semaphore_payload_khr ignored = 7;
    CHECK_ERR(signal_semaphores(queue, 1, &s, &ignored, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(wait_semaphores(queue, 1, &s, &ignored, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    CHECK(payload(s) == 0, "signalled after a second signal and wait");

    cl_command_type type = 0;
    clGetEventInfo(signalled, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_COMMAND_SEMAPHORE_SIGNAL_KHR, "signal command type 0x%x", type);
    clGetEventInfo(waited, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_COMMAND_SEMAPHORE_WAIT_KHR, "wait command type 0x%x", type);
    clReleaseEvent(signalled);
    clReleaseEvent(waited);
    release_semaphore(s);
}

/* ---- a kernel on queue B runs only after queue A's signal --------------------------- */
static const char double_source[] =
    "kernel void twice(global const int *in, global int *out) { out[0] = 2 * in[0]; }\n";

TEST(across_queues)
{
    cl_program program = test_build_program(context, device, double_source, "");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "twice", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    clSetKernelArg(kernel, 0, sizeof in, &in);
    clSetKernelArg(kernel, 1, sizeof out, &out);
    cl_command_queue a = new_queue(), b = new_queue();
    cl_semaphore_khr s = new_semaphore();
    cl_event gate = clCreateUserEvent(context, &err);

    /* A: (held by gate) in = 21, then signal.  B: wait, then out = 2 * in. */
    cl_int value = 21, zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(b, out, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(b), CL_SUCCESS);
    CHECK_ERR(clEnqueueFillBuffer(a, in, &value, sizeof value, 0, sizeof value, 1, &gate, NULL), CL_SUCCESS);
    CHECK_ERR(signal_semaphores(a, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_event waited, ran;
    CHECK_ERR(wait_semaphores(b, 1, &s, NULL, 0, NULL, &waited), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(b, kernel, 1, NULL, &one, NULL, 0, NULL, &ran), CL_SUCCESS);
    clFlush(b);
    usleep(50 * 1000);
    CHECK(status_of(waited) > CL_COMPLETE && status_of(ran) > CL_COMPLETE, "queue B ran before queue A signalled");
    CHECK(payload(s) == 0, "signalled before the signal command ran");

    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    cl_int result = -1;
    CHECK_ERR(clEnqueueReadBuffer(b, out, CL_TRUE, 0, sizeof result, &result, 0, NULL, NULL), CL_SUCCESS);
    CHECK(result == 42, "queue B's kernel read %d, not after queue A's fill", result);
    CHECK(status_of(waited) == CL_COMPLETE, "the wait is not complete");
    CHECK_ERR(clFinish(a), CL_SUCCESS);
    CHECK(payload(s) == 0, "the signal was not taken by the wait");

    clReleaseEvent(waited);
    clReleaseEvent(ran);
    clReleaseEvent(gate);
    release_semaphore(s);
    clReleaseCommandQueue(a);
    clReleaseCommandQueue(b);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- waits enqueued before their signals ------------------------------------------ */
TEST(wait_before_signal)
{
    cl_command_queue a = new_queue(), b = new_queue(), c = new_queue();
    cl_semaphore_khr s = new_semaphore(), t = new_semaphore();
    cl_event first, second, both;
    /* two waits on s, one on s and t together: each signal lets one through, oldest first */
    CHECK_ERR(wait_semaphores(a, 1, &s, NULL, 0, NULL, &first), CL_SUCCESS);
    CHECK_ERR(wait_semaphores(b, 1, &s, NULL, 0, NULL, &second), CL_SUCCESS);
    cl_semaphore_khr st[2] = { t, s };
    CHECK_ERR(wait_semaphores(c, 2, st, NULL, 0, NULL, &both), CL_SUCCESS);
    clFlush(a), clFlush(b), clFlush(c);
    usleep(20 * 1000);
    CHECK(status_of(first) > CL_COMPLETE && status_of(second) > CL_COMPLETE && status_of(both) > CL_COMPLETE,
          "a wait completed without a signal");

    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &first), CL_SUCCESS);
    usleep(20 * 1000);
    CHECK(status_of(second) > CL_COMPLETE, "one signal let two waits through");

    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &second), CL_SUCCESS);
    CHECK_ERR(signal_semaphores(queue, 1, &t, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    usleep(20 * 1000);
    CHECK(status_of(both) > CL_COMPLETE, "a wait on two semaphores completed after one signal");
    CHECK(payload(t) == 0, "t's signal was not taken by the waiting command");
    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &both), CL_SUCCESS);
    CHECK(payload(s) == 0 && payload(t) == 0, "signals left after every wait was satisfied");

    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseEvent(both);
    release_semaphore(s);
    release_semaphore(t);
    clReleaseCommandQueue(a);
    clReleaseCommandQueue(b);
    clReleaseCommandQueue(c);
}

/* ---- events and wait lists ---------------------------------------------------------- */
TEST(events_and_wait_lists)
{
    cl_int err;
    cl_command_queue other = new_queue();
    cl_semaphore_khr s = new_semaphore();
    cl_event gate = clCreateUserEvent(context, &err), signalled, waited;

    /* a signal waits for its wait list */
    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 1, &gate, &signalled), CL_SUCCESS);
    clFlush(queue);
    usleep(20 * 1000);
    CHECK(status_of(signalled) > CL_COMPLETE && payload(s) == 0, "the signal ran before its wait list");
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &signalled), CL_SUCCESS);
    CHECK(payload(s) == 1, "not signalled once the signal's event completed");

    /* a wait on a signalled semaphore still waits for its wait list */
    cl_event gate2 = clCreateUserEvent(context, &err);
    CHECK_ERR(wait_semaphores(other, 1, &s, NULL, 1, &gate2, &waited), CL_SUCCESS);
    clFlush(other);
    usleep(20 * 1000);
    CHECK(status_of(waited) > CL_COMPLETE, "the wait completed before its wait list");
    CHECK_ERR(clSetUserEventStatus(gate2, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &waited), CL_SUCCESS);
    clReleaseEvent(signalled);
    clReleaseEvent(waited);

    /* a failed dependency fails the signal, as any command; the semaphore stays unsignalled */
    cl_event failing = clCreateUserEvent(context, &err);
    CHECK_ERR(signal_semaphores(other, 1, &s, NULL, 1, &failing, &signalled), CL_SUCCESS);
    CHECK_ERR(clSetUserEventStatus(failing, -5), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &signalled), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(signalled) < 0, "the signal did not fail");
    CHECK(payload(s) == 0, "a failed signal signalled");
    clReleaseEvent(signalled);

    /* a marker after a wait, in order, waits for it */
    cl_event marker;
    CHECK_ERR(wait_semaphores(queue, 1, &s, NULL, 0, NULL, &waited), CL_SUCCESS);
    CHECK_ERR(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker), CL_SUCCESS);
    clFlush(queue);
    usleep(20 * 1000);
    CHECK(status_of(marker) > CL_COMPLETE, "a marker passed an unsignalled wait");
    CHECK_ERR(signal_semaphores(other, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &marker), CL_SUCCESS);
    CHECK(status_of(waited) == CL_COMPLETE, "the marker completed before the wait");

    clReleaseEvent(waited);
    clReleaseEvent(marker);
    clReleaseEvent(gate);
    clReleaseEvent(gate2);
    clReleaseEvent(failing);
    release_semaphore(s);
    clReleaseCommandQueue(other);
}

/* ---- two queues handing control back and forth ------------------------------------ */
TEST(ping_pong)
{
    cl_command_queue a = new_queue(), b = new_queue();
    cl_semaphore_khr to_b = new_semaphore(), to_a = new_semaphore();
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < 500 && err == CL_SUCCESS; i++) {
        err = signal_semaphores(a, 1, &to_b, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = wait_semaphores(b, 1, &to_b, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = signal_semaphores(b, 1, &to_a, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = wait_semaphores(a, 1, &to_a, NULL, 0, NULL, NULL);
    }
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clFinish(a), CL_SUCCESS);
    CHECK_ERR(clFinish(b), CL_SUCCESS);
    CHECK(payload(to_a) == 0 && payload(to_b) == 0, "signals left over");
    /* released with the queues' commands done: nothing is left behind (valgrind, ASan builds) */
    release_semaphore(to_a);
    release_semaphore(to_b);
    clReleaseCommandQueue(a);
    clReleaseCommandQueue(b);
}

/* ---- queries ------------------------------------------------------------------------ */
TEST(info)
{
    const cl_semaphore_properties_khr props[] = { CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, (cl_semaphore_properties_khr)device,
                                                  CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, CL_SEMAPHORE_TYPE_KHR,
                                                  CL_SEMAPHORE_TYPE_BINARY_KHR, 0 };
    cl_int err;
    cl_semaphore_khr s = create_semaphore(context, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!s)
        return;
    cl_context c = NULL;
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_CONTEXT_KHR, sizeof c, &c, NULL), CL_SUCCESS);
    CHECK(c == context, "CL_SEMAPHORE_CONTEXT_KHR");
    cl_semaphore_type_khr type = 0;
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_TYPE_KHR, sizeof type, &type, NULL), CL_SUCCESS);
    CHECK(type == CL_SEMAPHORE_TYPE_BINARY_KHR, "CL_SEMAPHORE_TYPE_KHR %u", type);
    cl_semaphore_properties_khr got[8];
    size_t size = 0;
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_PROPERTIES_KHR, sizeof got, got, &size), CL_SUCCESS);
    CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0, "CL_SEMAPHORE_PROPERTIES_KHR: %zu bytes",
          size);
    cl_device_id devices[2] = { NULL };
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, sizeof devices, devices, &size), CL_SUCCESS);
    CHECK(size == sizeof(cl_device_id) && devices[0] == device, "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR");

    cl_uint refs = 0;
    CHECK_ERR(retain_semaphore(s), CL_SUCCESS);
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof refs, &refs, NULL), CL_SUCCESS);
    CHECK(refs == 2, "reference count %u after a retain", refs);
    CHECK_ERR(release_semaphore(s), CL_SUCCESS);
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof refs, &refs, NULL), CL_SUCCESS);
    CHECK(refs == 1, "reference count %u after a release", refs);

    /* a semaphore made without a device list reports the context's devices */
    cl_semaphore_khr plain = new_semaphore();
    CHECK_ERR(semaphore_info(plain, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, sizeof devices, devices, &size), CL_SUCCESS);
    CHECK(size == sizeof(cl_device_id) && devices[0] == device, "device list of a semaphore made without one");
    CHECK_ERR(semaphore_info(plain, CL_SEMAPHORE_PROPERTIES_KHR, sizeof got, got, &size), CL_SUCCESS);
    CHECK(size == sizeof binary_props, "CL_SEMAPHORE_PROPERTIES_KHR: %zu bytes", size);

    /* errors of the query */
    cl_semaphore_payload_khr p;
    CHECK_ERR(semaphore_info(s, CL_SEMAPHORE_PAYLOAD_KHR, sizeof p - 1, &p, NULL), CL_INVALID_VALUE);
    CHECK_ERR(semaphore_info(s, 0x1234, sizeof p, &p, NULL), CL_INVALID_VALUE);
    CHECK_ERR(semaphore_info(NULL, CL_SEMAPHORE_PAYLOAD_KHR, sizeof p, &p, NULL), CL_INVALID_SEMAPHORE_KHR);
    CHECK_ERR(semaphore_info((cl_semaphore_khr)queue, CL_SEMAPHORE_PAYLOAD_KHR, sizeof p, &p, NULL),
              CL_INVALID_SEMAPHORE_KHR);
    CHECK_ERR(retain_semaphore(NULL), CL_INVALID_SEMAPHORE_KHR);
    CHECK_ERR(release_semaphore(NULL), CL_INVALID_SEMAPHORE_KHR);
    release_semaphore(s);
    release_semaphore(plain);
}

/* ---- a context of two sub-devices: the device list is required and binds the semaphore ---- */
TEST(two_devices)
{
    cl_device_partition_property one_and_one[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    cl_uint n = 0;
    if (clCreateSubDevices(device, one_and_one, 2, subs, &n) != CL_SUCCESS || n != 2)
        TEST_SKIP("the device does not split into two sub-devices");
    cl_int err;
    cl_context pair = clCreateContext(NULL, 2, subs, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = CL_SUCCESS;
    CHECK(create_semaphore(pair, binary_props, &err) == NULL, "made without a device list in a context of two");
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    const cl_semaphore_properties_khr on_first[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                     CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, (cl_semaphore_properties_khr)subs[0],
                                                     CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0 };
    cl_semaphore_khr s = create_semaphore(pair, on_first, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue first = clCreateCommandQueueWithProperties(pair, subs[0], NULL, &err);
    cl_command_queue second = clCreateCommandQueueWithProperties(pair, subs[1], NULL, &err);
    CHECK_ERR(signal_semaphores(second, 1, &s, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(wait_semaphores(second, 1, &s, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    /* a semaphore of the pair used on a queue of another context */
    CHECK_ERR(signal_semaphores(queue, 1, &s, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(signal_semaphores(first, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(wait_semaphores(first, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(first), CL_SUCCESS);
    CHECK(payload(s) == 0, "signalled after a signal and a wait");
    release_semaphore(s);
    clReleaseCommandQueue(first);
    clReleaseCommandQueue(second);
    clReleaseContext(pair);
    clReleaseDevice(subs[0]);
    clReleaseDevice(subs[1]);
}

/* ---- errors ------------------------------------------------------------------------- */
TEST(errors)
{
    cl_int err;
#define CREATE_FAILS(props, code)                                                          \
    do {                                                                                   \
        err = CL_SUCCESS;                                                                  \
        CHECK(create_semaphore(context, (props), &err) == NULL, "made with bad properties"); \
        CHECK_ERR(err, (code));                                                            \
    } while (0)
    const cl_semaphore_properties_khr empty[] = { 0 };
    const cl_semaphore_properties_khr counting[] = { CL_SEMAPHORE_TYPE_KHR, 2, 0 };
    const cl_semaphore_properties_khr twice[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                  CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0 };
    const cl_semaphore_properties_khr unknown[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0x7777, 1, 0 };
    const cl_semaphore_properties_khr export_types[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                         CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR,
                                                         CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR, 0 };
    const cl_semaphore_properties_khr no_device[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                      CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
                                                      CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0 };
    const cl_semaphore_properties_khr two_devices[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                        CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, (cl_semaphore_properties_khr)device,
                                                        (cl_semaphore_properties_khr)device,
                                                        CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0 };
    const cl_semaphore_properties_khr bad_device[] = { CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                       CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, (cl_semaphore_properties_khr)context,
                                                       CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0 };
    CREATE_FAILS(NULL, CL_INVALID_VALUE);
    CREATE_FAILS(empty, CL_INVALID_VALUE);
    CREATE_FAILS(counting, CL_INVALID_PROPERTY);
    CREATE_FAILS(twice, CL_INVALID_PROPERTY);
    CREATE_FAILS(unknown, CL_INVALID_PROPERTY);
    CREATE_FAILS(export_types, CL_INVALID_PROPERTY); /* no cl_khr_external_semaphore */
    CREATE_FAILS(no_device, CL_INVALID_DEVICE);
    CREATE_FAILS(two_devices, CL_INVALID_DEVICE);
    CREATE_FAILS(bad_device, CL_INVALID_DEVICE);
    err = CL_SUCCESS;
    CHECK(create_semaphore(NULL, binary_props, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    CHECK(create_semaphore((cl_context)queue, binary_props, NULL) == NULL);

    cl_semaphore_khr s = new_semaphore();
    cl_context other_context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other_context, device, NULL, &err);
    cl_event event = NULL, user = clCreateUserEvent(context, &err);
    typedef cl_int (*enqueue_fn)(cl_command_queue, cl_uint, const cl_semaphore_khr *, const cl_semaphore_payload_khr *,
                                 cl_uint, const cl_event *, cl_event *);
    enqueue_fn fns[2] = { wait_semaphores, signal_semaphores };
    for (int f = 0; f < 2; f++) {
        enqueue_fn fn = fns[f];
        cl_semaphore_khr bad[2] = { s, (cl_semaphore_khr)user };
        CHECK_ERR(fn(NULL, 1, &s, NULL, 0, NULL, &event), CL_INVALID_COMMAND_QUEUE);
        CHECK_ERR(fn((cl_command_queue)context, 1, &s, NULL, 0, NULL, &event), CL_INVALID_COMMAND_QUEUE);
        CHECK_ERR(fn(queue, 0, &s, NULL, 0, NULL, &event), CL_INVALID_VALUE);
        CHECK_ERR(fn(queue, 1, NULL, NULL, 0, NULL, &event), CL_INVALID_VALUE);
        CHECK_ERR(fn(queue, 2, bad, NULL, 0, NULL, &event), CL_INVALID_SEMAPHORE_KHR);
        CHECK_ERR(fn(other_queue, 1, &s, NULL, 0, NULL, &event), CL_INVALID_CONTEXT);
        CHECK_ERR(fn(queue, 1, &s, NULL, 1, NULL, &event), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_ERR(fn(queue, 1, &s, NULL, 0, &user, &event), CL_INVALID_EVENT_WAIT_LIST);
        cl_event not_event = (cl_event)s;
        CHECK_ERR(fn(queue, 1, &s, NULL, 1, &not_event, &event), CL_INVALID_EVENT_WAIT_LIST);
        cl_event failed = clCreateUserEvent(context, &err);
        clSetUserEventStatus(failed, -1);
        CHECK_ERR(fn(queue, 1, &s, NULL, 1, &failed, &event), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        clReleaseEvent(failed);
        CHECK(event == NULL, "a failed enqueue returned an event");
    }
    /* nothing was enqueued: the semaphore is as made */
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    CHECK(payload(s) == 0, "a failed signal signalled");

    clSetUserEventStatus(user, CL_COMPLETE);
    clReleaseEvent(user);
    release_semaphore(s);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other_context);
}

int main(int argc, char **argv)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    create_semaphore = (clCreateSemaphoreWithPropertiesKHR_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clCreateSemaphoreWithPropertiesKHR");
    wait_semaphores = (clEnqueueWaitSemaphoresKHR_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clEnqueueWaitSemaphoresKHR");
    signal_semaphores = (clEnqueueSignalSemaphoresKHR_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clEnqueueSignalSemaphoresKHR");
    semaphore_info = (clGetSemaphoreInfoKHR_fn)clGetExtensionFunctionAddressForPlatform(platform,
                                                                                      "clGetSemaphoreInfoKHR");
    retain_semaphore = (clRetainSemaphoreKHR_fn)clGetExtensionFunctionAddressForPlatform(platform,
                                                                                       "clRetainSemaphoreKHR");
    release_semaphore = (clReleaseSemaphoreKHR_fn)clGetExtensionFunctionAddressForPlatform(platform,
                                                                                         "clReleaseSemaphoreKHR");
    if (!create_semaphore || !wait_semaphores || !signal_semaphores || !semaphore_info || !retain_semaphore ||
        !release_semaphore) {
        TEST_FAIL("clGetExtensionFunctionAddressForPlatform does not find the cl_khr_semaphore functions");
        return test_summary();
    }
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &(cl_int){ 0 });
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
