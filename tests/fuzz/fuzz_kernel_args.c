/*
 * libFuzzer harness: clSetKernelArg (and clSetKernelArgSVMPointer) on
 * kernels with every kind of argument, then a launch of one work-item when
 * every argument was set.  From the input: the kernel, then records of {the
 * argument's index, what to pass (a buffer, NULL, a local size, bytes, an
 * SVM pointer), its size, its bytes}.  Arguments that take a handle (a
 * buffer, an image, a sampler) get one of the harness's or NULL: raw bytes
 * go only to by-value arguments and to indexes past the last, since a
 * random handle is undefined behaviour for any OpenCL implementation, not
 * an input to check.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

static const char source[] =
    "typedef struct { int a; float b; char c[3]; } S;\n"
    "kernel void k0(global int *g, local int *l, int n, S s, constant float *c, sampler_t sm) {\n"
    "    if (get_global_id(0) == 0 && g) g[0] = n + s.a + (int)s.b + s.c[2] + (c ? (int)c[0] : 0);\n"
    "}\n"
    "kernel void k1(long x, double2 d, global uchar *out, uchar u) { if (out) out[0] = (uchar)(x + d.y + u); }\n"
    "kernel void k2(read_only image2d_t img, global float4 *o) { o[0] = (float4)(0); }\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_env *env = fuzz_env_get();
    static cl_kernel kernels[3];
    static cl_mem buffers[2];
    static cl_sampler sampler;
    static void *svm;
    static int raw_ok[3][8]; /* may argument i take raw bytes? */
    if (!kernels[0]) {
        const char *text = source;
        cl_int err;
        cl_program p = clCreateProgramWithSource(env->context, 1, &text, NULL, &err);
        if (clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL, NULL) != CL_SUCCESS)
            abort();
        for (int i = 0; i < 3; i++) {
            char name[4] = {'k', (char)('0' + i), 0};
            kernels[i] = clCreateKernel(p, name, &err);
            cl_uint n = 0;
            clGetKernelInfo(kernels[i], CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL);
            for (cl_uint a = 0; a < 8; a++) {
                cl_kernel_arg_address_qualifier q = 0;
                char type[64] = "";
                if (a < n) {
                    clGetKernelArgInfo(kernels[i], a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, NULL);
                    clGetKernelArgInfo(kernels[i], a, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
                }
                raw_ok[i][a] = a >= n || (q == CL_KERNEL_ARG_ADDRESS_PRIVATE && strncmp(type, "sampler", 7) != 0 &&
                                          strncmp(type, "image", 5) != 0);
            }
        }
        buffers[0] = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, NULL, &err);
        buffers[1] = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 4096, NULL, &err);
        sampler = clCreateSamplerWithProperties(env->context, NULL, &err);
        svm = clSVMAlloc(env->context, CL_MEM_READ_WRITE, 256, 0);
    }
    uint8_t which = 0;
    fuzz_take(&data, &size, &which, 1);
    cl_kernel k = kernels[which % 3];
    const int *raw = raw_ok[which % 3];
    cl_kernel mine = clCloneKernel(k, NULL); /* each input starts with nothing set */
    if (!mine)
        return 0;
    while (size > 0) {
        uint8_t head[3];
        fuzz_take(&data, &size, head, sizeof head);
        cl_uint index = head[0] % 8; /* past the last argument too */
        size_t arg_size = head[2];
        unsigned char bytes[256];
        fuzz_take(&data, &size, bytes, arg_size);
        cl_int err;
        switch (head[1] % 6) {
        case 0: err = clSetKernelArg(mine, index, sizeof(cl_mem), &buffers[head[2] & 1]); break;
        case 1: err = clSetKernelArg(mine, index, arg_size, NULL); break;         /* __local, or NULL */
        case 2: err = raw[index] ? clSetKernelArg(mine, index, arg_size, bytes) : 0; break; /* by value */
        case 3: err = clSetKernelArgSVMPointer(mine, index, (char *)svm + (head[2] & 0x7f)); break;
        case 4: err = clSetKernelArg(mine, index, sizeof sampler, &sampler); break;
        default: err = clSetKernelArg(mine, index, arg_size ? sizeof(cl_mem) : 0, NULL); break; /* a NULL buffer */
        }
        (void)err;
    }
    size_t one = 1;
    cl_int launched = clEnqueueNDRangeKernel(env->queue, mine, 1, NULL, &one, &one, 0, NULL, NULL);
    (void)launched; /* CL_INVALID_KERNEL_ARGS when one is not set */
    clFinish(env->queue);
    clReleaseKernel(mine);
    return 0;
}
