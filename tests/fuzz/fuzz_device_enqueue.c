/*
 * libFuzzer harness: device-side enqueue's argument paths
 * (devices/cpu/cpu_enqueue.c), which take what a kernel passes to
 * enqueue_kernel, enqueue_marker and the event built-ins: kernel code is
 * untrusted, so any value may arrive there.  One work-item of `parent` reads
 * its arguments from the input: the NDRange (dimensions, offsets, global and
 * local sizes; global sizes kept small, so that a valid launch ends soon),
 * the flags, how many events the wait list has and which of them are user
 * events completed, failed or left pending, and the size of a __local block
 * argument.  It enqueues a child kernel and a marker with them, and writes
 * what the calls returned; the host waits for everything to end.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

static const char source[] =
    "kernel void parent(global const uint *in, global int *out) {\n"
    "    queue_t q = get_default_queue();\n"
    "    size_t o[3], g[3], l[3];\n"
    "    for (int d = 0; d < 3; d++) {\n"
    "        o[d] = (size_t)in[d] << 32 | in[3 + d];\n"
    "        g[d] = in[6 + d] & 63;\n"
    "        l[d] = in[9 + d];\n"
    "    }\n"
    "    uint dims = in[12] % 3, flags = in[13], n = in[14] % 5, states = in[15];\n"
    "    ndrange_t r = dims == 0 ? ndrange_1D(o[0], g[0], l[0])\n"
    "                : dims == 1 ? ndrange_2D(o, g, l) : ndrange_3D(o, g, l);\n"
    "    clk_event_t ev[4], done;\n"
    "    for (uint i = 0; i < n && i < 4; i++) {\n"
    "        ev[i] = create_user_event();\n"
    "        uint s = states >> (2 * i) & 3;\n"
    "        if (s == 1) set_user_event_status(ev[i], CL_COMPLETE);\n"
    "        if (s == 2) set_user_event_status(ev[i], -1);\n"
    "    }\n"
    "    out[0] = enqueue_kernel(q, (kernel_enqueue_flags_t)flags, r, n, n ? ev : 0, &done,\n"
    "                            ^{ atomic_inc((volatile global int *)&out[3]); });\n"
    "    out[1] = enqueue_kernel(q, (kernel_enqueue_flags_t)flags, r,\n"
    "                            ^(local void *p) { ((local char *)p)[0] = 1; }, in[16]);\n"
    "    clk_event_t mark;\n"
    "    out[2] = enqueue_marker(q, n, n ? ev : 0, &mark);\n"
    "    for (uint i = 0; i < n && i < 4; i++) {\n"
    "        if ((states >> (2 * i) & 3) == 0 || (states >> (2 * i) & 3) == 3) set_user_event_status(ev[i], CL_COMPLETE);\n"
    "        release_event(ev[i]);\n"
    "    }\n"
    "    if (out[0] == CLK_SUCCESS) release_event(done);\n"
    "    if (out[2] == CLK_SUCCESS) release_event(mark);\n"
    "}\n";

enum { WORDS = 17 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_env *env = fuzz_env_get();
    static cl_kernel parent;
    static cl_mem in, out;
    if (!parent) {
        const char *text = source;
        cl_int err;
        cl_queue_properties device_default[] = {
            CL_QUEUE_PROPERTIES,
            CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        if (!clCreateCommandQueueWithProperties(env->context, env->device, device_default, &err))
            abort();
        cl_program p = clCreateProgramWithSource(env->context, 1, &text, NULL, &err);
        if (clBuildProgram(p, 0, NULL, "-cl-std=CL2.0", NULL, NULL) != CL_SUCCESS)
            abort();
        parent = clCreateKernel(p, "parent", &err);
        in = clCreateBuffer(env->context, CL_MEM_READ_ONLY, WORDS * sizeof(cl_uint), NULL, &err);
        out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), NULL, &err);
        clSetKernelArg(parent, 0, sizeof in, &in);
        clSetKernelArg(parent, 1, sizeof out, &out);
    }
    cl_uint words[WORDS];
    fuzz_take(&data, &size, words, sizeof words);
    cl_int zero[4] = {0};
    size_t one = 1;
    clEnqueueWriteBuffer(env->queue, in, CL_FALSE, 0, sizeof words, words, 0, NULL, NULL);
    clEnqueueWriteBuffer(env->queue, out, CL_FALSE, 0, sizeof zero, zero, 0, NULL, NULL);
    clEnqueueNDRangeKernel(env->queue, parent, 1, NULL, &one, &one, 0, NULL, NULL);
    if (clFinish(env->queue) != CL_SUCCESS)
        abort(); /* the parent's own launch is valid: only its children may fail */
    return 0;
}
