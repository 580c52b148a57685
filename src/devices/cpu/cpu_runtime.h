/* Run-time support the CPU device gives generated kernel code besides
 * barriers (cpu_runtime.c): where the worker's stack is (for to_private),
 * OpenCL C's printf, and the half conversions (cpu_half.c). */
#ifndef MOSAIC_CPU_RUNTIME_H
#define MOSAIC_CPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

/* The calling thread's stack, [*lo, *hi) (found once per thread). */
void mosaic_cpu_thread_stack(char **lo, char **hi);

/* The runtime symbol "__mosaic_printf" (see compiler.h): formats one OpenCL C
 * printf call into the calling thread's output buffer.  Each call's output
 * stays in one piece; the buffer goes to stdout, in whole lines when it grows
 * large, and completely at mosaic_cpu_printf_flush. */
int mosaic_cpu_printf(const char *format, const void *args, const uint32_t *desc, uint32_t nargs);
/* The most output a thread's buffer keeps between calls: a call that leaves
 * more writes it all out, newline or not, so nothing is ever dropped.  The
 * device reports it as CL_DEVICE_PRINTF_BUFFER_SIZE (OpenCL's minimum). */
#define MOSAIC_CPU_PRINTF_BUFFER ((size_t)1024 * 1024)

/* Writes the calling thread's printf output to stdout (and flushes stdout).
 * A worker calls it when it has run its last work-group of a kernel, before
 * it counts those groups done, so the output is out when the command
 * completes. */
void mosaic_cpu_printf_flush(void);

/* The runtime symbols __truncdfhf2, __truncsfhf2, __extendhfsf2 and
 * __extendhfdf2: the half conversions LLVM's code generator calls where the
 * CPU has no instruction for them (cpu_half.c). */
_Float16 mosaic_cpu_truncdfhf2(double d);
_Float16 mosaic_cpu_truncsfhf2(float f);
float mosaic_cpu_extendhfsf2(_Float16 h);
double mosaic_cpu_extendhfdf2(_Float16 h);

#endif
