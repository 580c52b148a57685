/* The kernel clocks (cl_khr_kernel_clock) on the GPU: the device's clock is
 * the global timer (%globaltimer, nanoseconds, one for every multiprocessor);
 * a work-group's and a sub-group's is the multiprocessor's cycle counter
 * (%clock64), which runs faster and which every work-item of a block, on
 * one multiprocessor, reads alike.  Linked into a program that calls one
 * (src/compiler/gpu/ptx.c). */
#include "../builtins.h"

/* volatile: each call reads the clock again */
static ulong global_timer(void)
{
    ulong t;
    __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static ulong cycle_counter(void)
{
    ulong t;
    __asm__ volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

OVLD ulong clock_read_device(void) { return global_timer(); }
OVLD ulong clock_read_work_group(void) { return cycle_counter(); }
OVLD ulong clock_read_sub_group(void) { return cycle_counter(); }

/* .lo the low 32 bits, .hi the high ones */
OVLD uint2 clock_read_hilo_device(void) { return as_uint2(clock_read_device()); }
OVLD uint2 clock_read_hilo_work_group(void) { return as_uint2(clock_read_work_group()); }
OVLD uint2 clock_read_hilo_sub_group(void) { return as_uint2(clock_read_sub_group()); }
