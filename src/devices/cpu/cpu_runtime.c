/* Run-time support for generated kernel code (see cpu_runtime.h). */
#define _GNU_SOURCE
#include "devices/cpu/cpu_runtime.h"

#include <pthread.h>

static __thread char *stack_lo, *stack_hi;

void mosaic_cpu_thread_stack(char **lo, char **hi)
{
    if (!stack_hi) {
        pthread_attr_t attr;
        void *addr;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
                stack_lo = addr;
                stack_hi = (char *)addr + size;
            }
            pthread_attr_destroy(&attr);
        }
    }
    *lo = stack_lo;
    *hi = stack_hi;
}
