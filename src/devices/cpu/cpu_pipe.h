/* Pipes on the CPU device (cpu_pipe.c): a pipe's storage, and the functions
 * kernels call for OpenCL C's pipe built-ins (docs/pipes.md). */
#ifndef MOSAIC_CPU_PIPE_H
#define MOSAIC_CPU_PIPE_H

#include "core/device.h"

#include <stdint.h>

/* What a pipe's storage is: a header, a table of commit marks and the
 * packets, made by mem_alloc for a CL_MEM_OBJECT_PIPE (its address is what
 * kernels get) and freed by mem_free. */
cl_int mosaic_cpu_pipe_alloc(cl_mem mem, mosaic_mem_storage *storage);
void mosaic_cpu_pipe_free(mosaic_mem_storage *storage);

/* The runtime symbols clang's spir64 code calls for the pipe built-ins
 * (names in cpu_device.c's table).  `pipe` is a pipe's storage; `size` and
 * `align` are the packet type's, as the kernel sees it: a size that is not
 * the pipe's packet size makes the call fail (no packet moves).  A reserve id
 * is a 64-bit value, MOSAIC_PIPE_NO_RESERVATION when not valid (clang's
 * CLK_NULL_RESERVE_ID). */
#define MOSAIC_PIPE_NO_RESERVATION UINT64_MAX
int32_t mosaic_cpu_pipe_read(void *pipe, void *packet, uint32_t size, uint32_t align);
int32_t mosaic_cpu_pipe_write(void *pipe, const void *packet, uint32_t size, uint32_t align);
uint64_t mosaic_cpu_pipe_reserve_read(void *pipe, uint32_t num_packets, uint32_t size, uint32_t align);
uint64_t mosaic_cpu_pipe_reserve_write(void *pipe, uint32_t num_packets, uint32_t size, uint32_t align);
int32_t mosaic_cpu_pipe_read_reserved(void *pipe, uint64_t reserve_id, uint32_t index, void *packet, uint32_t size,
                                      uint32_t align);
int32_t mosaic_cpu_pipe_write_reserved(void *pipe, uint64_t reserve_id, uint32_t index, const void *packet,
                                       uint32_t size, uint32_t align);
void mosaic_cpu_pipe_commit_read(void *pipe, uint64_t reserve_id, uint32_t size, uint32_t align);
void mosaic_cpu_pipe_commit_write(void *pipe, uint64_t reserve_id, uint32_t size, uint32_t align);
uint32_t mosaic_cpu_pipe_num_packets(void *pipe, uint32_t size, uint32_t align);
uint32_t mosaic_cpu_pipe_max_packets(void *pipe, uint32_t size, uint32_t align);

#endif
