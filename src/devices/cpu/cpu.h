/* The CPU device: a persistent pool of worker threads, one per core. */
#ifndef MOSAIC_CPU_H
#define MOSAIC_CPU_H

#include "core/objects.h"

/* How the CPU device runs commands (cpu_device.c). */
extern const mosaic_device_ops mosaic_cpu_ops;

/* Fills the device's reported properties from the machine (cpu_info.c):
 * name, caches, memory sizes, extensions, OpenCL C features, and the
 * compiler target (clang -cl-ext flags, runtime symbols). */
void mosaic_cpu_describe(cl_device_id device);

/* Functions generated kernel code may call (cpu_device.c). */
extern const struct mosaic_runtime_symbol mosaic_cpu_runtime_symbols[];
extern const size_t mosaic_cpu_num_runtime_symbols;

/* Number of worker threads (MOSAIC_NUM_THREADS, default: online cores). */
unsigned mosaic_cpu_num_workers(void);

#endif
