/*
 * The GPU device: NVIDIA GPUs through the CUDA driver (cuda_driver.h),
 * loaded at run time.  One device per GPU the driver lists; where there is
 * no driver or no GPU there is no device (docs/gpu.md).
 *
 *   cuda_device.c   finding the GPUs, describe, the executor that runs commands
 *   cuda_memory.c   buffers in device memory, transfers, fills, maps
 *   cuda_kernels.c  programs (the front end, then PTX) and kernel launches
 */
#ifndef MOSAIC_CUDA_H
#define MOSAIC_CUDA_H

#include "core/device.h"

/* The GPU device's ops. */
extern const mosaic_device_ops mosaic_cuda_ops;

/* How many GPUs Mosaic offers: 0 when MOSAIC_GPU is 0, or when the driver
 * (MOSAIC_CUDA_DRIVER) cannot be opened or lists none (with MOSAIC_DEBUG,
 * stderr says why).  Opens the driver on the first call; thread-safe. */
unsigned mosaic_cuda_device_count(void);

/* Makes `device` (its object header initialised by the platform) GPU
 * number `ordinal` (< mosaic_cuda_device_count()): its context, stream
 * and executor thread, then describe.  False when the driver refused (the
 * platform then leaves the GPU out). */
bool mosaic_cuda_init_device(cl_device_id device, unsigned ordinal);

#endif
