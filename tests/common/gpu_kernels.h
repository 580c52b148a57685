/* OpenCL C kernels the GPU's tests build (tests/compiler/test_ptx.c checks
 * their PTX as text, tests/gpu/test_gpu_driver.c runs it). */
#ifndef MOSAIC_TEST_GPU_KERNELS_H
#define MOSAIC_TEST_GPU_KERNELS_H

/* c[i] = sin(a[i]) + fract(a of the next work-item of the group) + its whole
 * part: work-item functions, a barrier over a __local array, two built-ins
 * of libclc, one with a private pointer. */
#define WAVES_SOURCE                                                                                 \
    "kernel void waves(global const float *a, global float *c, int n)\n"                             \
    "{\n"                                                                                            \
    "    local float t[256];\n"                                                                      \
    "    int i = get_global_id(0), l = get_local_id(0);\n"                                           \
    "    t[l] = i < n ? a[i] : 0.0f;\n"                                                              \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                                            \
    "    float whole, part = fract(t[(l + 1) % get_local_size(0)], &whole);\n"                       \
    "    if (i < n)\n"                                                                               \
    "        c[i] = sin(t[l]) + part + whole;\n"                                                     \
    "}\n"

#endif
