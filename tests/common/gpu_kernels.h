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

/* c[i] = the sum of a's elements in i's group, through a __local argument
 * (a tree, as the seeds' reduction is written): t is memory the launch
 * sizes, an offset into dynamic shared memory on the GPU. */
#define GROUP_SUMS_SOURCE                                                                            \
    "kernel void group_sums(global const float *a, local float *t, global float *c)\n"              \
    "{\n"                                                                                            \
    "    int l = get_local_id(0);\n"                                                                \
    "    t[l] = a[get_global_id(0)];\n"                                                             \
    "    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"                                   \
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"                                                       \
    "        if (l < s)\n"                                                                          \
    "            t[l] += t[l + s];\n"                                                               \
    "    }\n"                                                                                        \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                                           \
    "    c[get_global_id(0)] = t[0];\n"                                                             \
    "}\n"

/* What every work-item function answers, LAUNCH_VALUES slots a work-item at
 * its global linear id: ids, sizes and offsets in three dimensions (and 0s
 * and 1s in the fourth), the work dimension, the linear ids.  The GPU reads
 * them from the launch (MOSAIC_GPU_LAUNCH_SYMBOL) and its registers. */
#define LAUNCH_VALUES 32
#define LAUNCH_VALUES_SOURCE                                                                         \
    "kernel void launch_values(global ulong *out)\n"                                                 \
    "{\n"                                                                                            \
    "    global ulong *o = out + 32 * get_global_linear_id();\n"                                     \
    "    for (uint d = 0; d < 3; d++) {\n"                                                           \
    "        o[d] = get_global_id(d);\n"                                                             \
    "        o[3 + d] = get_local_id(d);\n"                                                          \
    "        o[6 + d] = get_group_id(d);\n"                                                          \
    "        o[9 + d] = get_local_size(d);\n"                                                        \
    "        o[12 + d] = get_enqueued_local_size(d);\n"                                              \
    "        o[15 + d] = get_global_size(d);\n"                                                      \
    "        o[18 + d] = get_num_groups(d);\n"                                                       \
    "        o[21 + d] = get_global_offset(d);\n"                                                    \
    "    }\n"                                                                                        \
    "    o[24] = get_work_dim();\n"                                                                  \
    "    o[25] = get_global_linear_id();\n"                                                          \
    "    o[26] = get_local_linear_id();\n"                                                           \
    "    uint past = 3 + (o[0] & 1);\n"                                                              \
    "    o[27] = get_global_id(past) | get_local_id(past) | get_group_id(past) |\n"                  \
    "            get_global_offset(past);\n"                                                         \
    "    o[28] = get_local_size(past) + get_enqueued_local_size(past) + get_global_size(past) +\n"   \
    "            get_num_groups(past);\n"                                                            \
    "}\n"

#endif
