/* The kernel clocks (cl_khr_kernel_clock): clock_read_device, _work_group
 * and _sub_group, and their _hilo forms.  The CPU device has one clock for
 * the three scopes, read by the runtime (__mosaic_kernel_clock, cpu_device.c:
 * CLOCK_MONOTONIC in nanoseconds, the same on every core, never going back).
 * OpenCL C programs see these through the prelude's declarations
 * (compiler/frontend/frontend.c), SPIR-V's OpReadClockKHR as calls of them
 * (compiler/frontend/spirv_lower.c). */
#include "builtins.h"

ulong __mosaic_kernel_clock(void);

OVLD ulong clock_read_device(void) { return __mosaic_kernel_clock(); }
OVLD ulong clock_read_work_group(void) { return __mosaic_kernel_clock(); }
OVLD ulong clock_read_sub_group(void) { return __mosaic_kernel_clock(); }

/* .lo the low 32 bits, .hi the high ones: the ulong's two words, little-endian */
OVLD uint2 clock_read_hilo_device(void) { return as_uint2(__mosaic_kernel_clock()); }
OVLD uint2 clock_read_hilo_work_group(void) { return as_uint2(__mosaic_kernel_clock()); }
OVLD uint2 clock_read_hilo_sub_group(void) { return as_uint2(__mosaic_kernel_clock()); }
