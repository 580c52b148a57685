/* The CPU device: a persistent pool of worker threads, one per core. */
#ifndef MOSAIC_CPU_H
#define MOSAIC_CPU_H

#include "core/device.h"

/* The CPU device's ops (cpu_device.c): every op of core/device.h. */
extern const mosaic_device_ops mosaic_cpu_ops;

/* ops->describe (cpu_info.c): fills the device's reported properties from
 * the machine: name, caches, memory sizes, extensions, OpenCL C features,
 * and the compiler target (clang -cl-ext flags, runtime symbols). */
void mosaic_cpu_describe(cl_device_id device);

/* ops->finalize (cpu_program.c): the JIT (mosaic_finalize). */
cl_int mosaic_cpu_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                           mosaic_executable **out, char **log);

/* Memory (cpu_memory.c).  The CPU device is the host: a buffer's storage is
 * host memory at a fixed address, so maps and migrations move nothing. */
cl_int mosaic_cpu_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage);
void mosaic_cpu_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage);
void *mosaic_cpu_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags);
void *mosaic_cpu_svm_alloc(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
void mosaic_cpu_svm_free(cl_device_id device, void *pointer);
cl_int mosaic_cpu_transfer(cl_event command);      /* ops->read, write and copy */
cl_int mosaic_cpu_fill(cl_event command);
cl_int mosaic_cpu_native_kernel(cl_event command);
cl_int mosaic_cpu_svm_copy(cl_event command);
cl_int mosaic_cpu_svm_fill(cl_event command);

/* Functions generated kernel code may call (cpu_device.c). */
extern const struct mosaic_runtime_symbol mosaic_cpu_runtime_symbols[];
extern const size_t mosaic_cpu_num_runtime_symbols;

/* Number of worker threads (MOSAIC_NUM_THREADS, default: online cores). */
unsigned mosaic_cpu_num_workers(void);

#endif
