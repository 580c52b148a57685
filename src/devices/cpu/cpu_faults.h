/* Faults and runaway kernels on the CPU device (cpu_faults.c; docs/faults.md).
 *
 * Each worker thread has a guard: whether it runs kernel code now, where a
 * fault or a timeout jumps back to (`env`, set with sigsetjmp by the worker
 * around the kernel calls of one claim of work-groups), and what stopped
 * it.  The handlers of SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGTRAP jump
 * back when the thread's guard is armed and the faulting instruction is in
 * kernel code (the JIT's, which is in no loaded object); anything else goes
 * to the handler installed before Mosaic's, as if Mosaic had none.  A
 * watchdog thread sends MOSAIC_CPU_TIMEOUT_SIGNAL to a worker whose
 * command ran past MOSAIC_KERNEL_TIMEOUT_MS; its handler jumps back the
 * same way when the worker is in kernel code. */
#ifndef MOSAIC_CPU_FAULTS_H
#define MOSAIC_CPU_FAULTS_H

#include "core/ndrange.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The signal the watchdog interrupts a runaway kernel with.  SIGURG: its
 * default is to be ignored, and programs rarely use it; one not sent by
 * the watchdog goes to the handler installed before Mosaic's. */
#define MOSAIC_CPU_TIMEOUT_SIGNAL SIGURG

/* Why a guarded run of kernel code ended early. */
typedef enum cpu_stop {
    CPU_STOP_NONE,
    CPU_STOP_FAULT,   /* a signal of a fault in kernel code */
    CPU_STOP_TIMEOUT, /* the watchdog's signal, or a deadline seen passed between groups */
} cpu_stop;

typedef struct cpu_guard {
    sigjmp_buf env;                 /* where the handlers jump back to (sigsetjmp(env, 0)) */
    volatile sig_atomic_t armed;    /* running kernel code: a fault in it jumps back */
    _Atomic uint64_t deadline;      /* mosaic_now_ns() at which the command armed for has run too
                                       long; 0: no limit (read by the watchdog) */
    _Atomic uint64_t expired;       /* the deadline the watchdog last found passed */
    /* What the handler recorded before jumping back (read after the jump). */
    volatile sig_atomic_t stop;     /* a cpu_stop */
    int signal, code;               /* the signal and its si_code */
    int access;                     /* SIGSEGV on x86-64: 1 a load, 2 a store, 0 not known */
    void *address, *pc, *sp;        /* si_addr, the instruction and the stack pointer */
    /* The thread's own (mosaic_cpu_guard_start). */
    pthread_t thread;
    char *altstack;                 /* mapped by Mosaic (a guard page, then the stack), or NULL */
    size_t altstack_size;
    struct cpu_guard *next, *prev;  /* in the watchdog's list */
} cpu_guard;

/* At a pool's start, on the thread that starts it: installs the handlers
 * (once a process) and starts the watchdog when MOSAIC_KERNEL_TIMEOUT_MS is
 * set (once a process, again in a forked child). */
void mosaic_cpu_faults_start(void);

/* On a worker thread as it starts, and as it exits: its alternate signal
 * stack (so a stack overflow can be handled), the thread's guard, and the
 * watchdog's list. */
void mosaic_cpu_guard_start(cpu_guard *g);
void mosaic_cpu_guard_end(cpu_guard *g);

/* MOSAIC_KERNEL_TIMEOUT_MS in nanoseconds; 0: off. */
uint64_t mosaic_cpu_kernel_timeout_ns(void);

/* The thread runs kernel code until mosaic_cpu_guard_disarm (deadline as
 * in cpu_guard).  Called after sigsetjmp(g->env, 0) set where to come back. */
static inline void mosaic_cpu_guard_arm(cpu_guard *g, uint64_t deadline)
{
    g->stop = CPU_STOP_NONE;
    atomic_store_explicit(&g->deadline, deadline, memory_order_relaxed);
    g->armed = 1;
    atomic_signal_fence(memory_order_seq_cst);
}

static inline void mosaic_cpu_guard_disarm(cpu_guard *g)
{
    g->armed = 0;
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(&g->deadline, 0, memory_order_relaxed);
}

/* Has the watchdog found the armed deadline passed?  Read between groups. */
static inline bool mosaic_cpu_guard_expired(const cpu_guard *g)
{
    uint64_t d = atomic_load_explicit(&g->deadline, memory_order_relaxed);
    return d && atomic_load_explicit(&g->expired, memory_order_relaxed) == d;
}

/* Where a worker's stacks are, to name a fault in one of their guard pages. */
typedef struct cpu_fault_stacks {
    char *thread_lo, *thread_hi;    /* the worker's own stack (its guard page is below) */
    char *fibers;                   /* the fiber stacks, each slot a guard page then a stack, or NULL */
    size_t fiber_slot, fiber_count;
    char *big;                      /* the stack for large frames: a guard page, then big_size bytes */
    size_t big_size;
} cpu_fault_stacks;

/* After a jump back (g->stop set): the status the command fails with
 * (CL_OUT_OF_RESOURCES for a fault, MOSAIC_KERNEL_TIMED_OUT for a
 * timeout), and when `report`, the message to the context's pfn_notify
 * (and stderr with MOSAIC_DEBUG): the kernel, the work-group (`together`
 * groups of a column run at once from it), the signal and address, and
 * the command's buffer or stack the address is in or near. */
cl_int mosaic_cpu_fault_report(const cpu_guard *g, bool report, cl_context context, cl_device_id device,
                               const mosaic_ndrange *nd, const uint64_t group[3], unsigned together,
                               const cpu_fault_stacks *stacks);

#endif
