#include "devices/cpu/fiber.h"

#include <stdint.h>

#if defined(__x86_64__)
void mosaic_fiber_trampoline(void);

/* The frame mosaic_fiber_switch pops, lowest address first. */
typedef struct initial_frame {
    uint32_t mxcsr;
    uint16_t x87_control, pad;
    uint64_t r15, r14, r13, r12, rbx, rbp;
    void (*return_address)(void);
    uint64_t alignment; /* so the trampoline starts 16-byte aligned */
} initial_frame;

void *mosaic_fiber_prepare(void *stack_top, void (*entry)(void *), void *arg)
{
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    initial_frame *f = (initial_frame *)(top - sizeof(initial_frame) - 8);
    *f = (initial_frame){
        .mxcsr = 0x1f80,         /* defaults: all exceptions masked, round to nearest */
        .x87_control = 0x037f,
        .r13 = (uint64_t)(uintptr_t)entry,
        .r12 = (uint64_t)(uintptr_t)arg,
        .return_address = mosaic_fiber_trampoline,
    };
    return f;
}
#else
#error "Mosaic's fibers need a context switch for this architecture (see fiber_x86_64.S)"
#endif
