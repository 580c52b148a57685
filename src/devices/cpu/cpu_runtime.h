/* Run-time support the CPU device gives generated kernel code besides
 * barriers (cpu_runtime.c): where the worker's stack is (for to_private),
 * and OpenCL C's printf. */
#ifndef MOSAIC_CPU_RUNTIME_H
#define MOSAIC_CPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

/* The calling thread's stack, [*lo, *hi) (found once per thread). */
void mosaic_cpu_thread_stack(char **lo, char **hi);

#endif
