/* What clEnqueueNDRangeKernel hands to a device: the launch, with the kernel
 * arguments captured at enqueue time (later clSetKernelArg calls do not
 * affect it). */
#ifndef MOSAIC_NDRANGE_H
#define MOSAIC_NDRANGE_H

#include "core/objects.h"

/* A counter argument of a launch (mosaic_kernel_info's counter_args) that
 * a device may add into copies of its own and fold in at the end: a buffer
 * with storage of its own (no host pointer or SVM behind it) that no other
 * argument of the launch reaches. */
#define MOSAIC_MAX_COUNTERS 4
typedef struct mosaic_counter_arg {
    cl_uint arg;                       /* its index */
    cl_uint width;                     /* its counters' bytes: 4 or 8 */
    size_t size;                       /* the buffer's bytes (what the kernel may reach from the argument) */
} mosaic_counter_arg;

typedef struct mosaic_ndrange {
    cl_kernel kernel;                  /* internal reference */
    const mosaic_kernel_info *info;
    mosaic_executable *executable; /* the program's build for the launch's device, which holds info */
    mosaic_sized_wg sized;             /* the device's (ops->prepare_launch; zero until then): on the
                                          CPU, info built for groups of local_size, for the whole ones
                                          (not a trailing smaller group): K.wg, K.fused, or NULL */
    cl_uint work_dim;
    size_t global_offset[3], global_size[3], local_size[3], num_groups[3];
    size_t given_local_size[3];        /* the application's local size where the device ran the launch
                                          in groups of its own (local_size), else all 0 */
    size_t total_groups;
    size_t local_mem_size;             /* static + dynamic __local bytes per work-group */
    void **args;                       /* args[i] points at argument i's bytes in arg_storage */
    char *arg_storage;
    cl_mem *mems; cl_uint num_mems;    /* internal references, dropped at completion */
    mosaic_counter_arg counters[MOSAIC_MAX_COUNTERS];
    cl_uint num_counters;
} mosaic_ndrange;

#endif
