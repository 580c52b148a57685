/*
 * Faults and runaway kernels on the CPU device (cpu_faults.h; docs/faults.md).
 *
 * A kernel that stores through a wild pointer, overflows its stack or
 * traps would otherwise take the whole process down with a signal, and one
 * that never ends would hang clFinish.  The handlers below turn such a
 * signal, raised by kernel code on a worker whose guard is armed, into a
 * jump back to the worker (cpu_device.c, run_claim), which fails the
 * command; every other signal of those kinds goes to the handler the
 * program (or the C library's default) had before, as if Mosaic had none.
 *
 * What the handlers do is async-signal-safe: they read the thread's guard
 * (initial-exec TLS, a plain load), ask _dl_find_object where the
 * instruction is (lock-free), record a few words in the guard and jump.  The message is
 * made after the jump, on the worker's own stack.
 */
#define _GNU_SOURCE
#include "devices/cpu/cpu_faults.h"
#include "devices/cpu/cpu.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/memory.h"
#include "base/assert.h"
#include "base/settings.h"
#include "base/strbuf.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* The guard of the calling thread: NULL but on workers.  Initial-exec, so
 * the handlers reach it with one load, never through __tls_get_addr (which
 * may allocate for a thread that never touched the library's TLS). */
static __thread cpu_guard *current_guard __attribute__((tls_model("initial-exec")));

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, MOSAIC_CPU_TIMEOUT_SIGNAL};
#define NUM_SIGNALS (sizeof fault_signals / sizeof fault_signals[0])

/* What each signal's disposition was before Mosaic's: where the signals
 * that are not a kernel's go. */
static struct sigaction previous[NUM_SIGNALS];

/* The watchdog's signals carry this address as their value: anything else
 * of MOSAIC_CPU_TIMEOUT_SIGNAL is the program's. */
static const char watchdog_tag = 0;

/* An alternate stack for the handlers on each worker: enough for ours and
 * for a chained handler that symbolises (a sanitizer's). */
#define ALTSTACK_SIZE ((size_t)256 << 10)

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* mosaic_now_ns's clock; async-signal-safe */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}


uint64_t mosaic_cpu_kernel_timeout_ns(void)
{
    return (uint64_t)mosaic_settings()->kernel_timeout_ms * 1000000u;
}

/* ---- the handlers -------------------------------------------------------------- */

static void *context_pc(const void *uc)
{
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (void *)(uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (void *)(uintptr_t)u->uc_mcontext.pc;
#else
    (void)u;
    return NULL;
#endif
}

static void *context_sp(const void *uc)
{
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (void *)(uintptr_t)u->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (void *)(uintptr_t)u->uc_mcontext.sp;
#else
    (void)u;
    return NULL;
#endif
}

/* Is pc in code the JIT made?  That code is in no object the dynamic
 * loader knows; Mosaic's runtime functions, the C library a kernel calls
 * and the program are, and a fault there is the host's: such code may hold
 * a lock (the C library's malloc, a pipe's, stdout's) that a jump out of
 * it would leave held. */
static bool in_kernel_code(void *pc)
{
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
    struct dl_find_object found;
    return _dl_find_object(pc, &found) != 0; /* lock-free, async-signal-safe */
#else
    Dl_info found;
    return dladdr(pc, &found) == 0; /* takes the loader's (recursive) lock */
#endif
#else
    (void)pc;
    return false; /* the instruction cannot be found: every signal is the host's */
#endif
}

/* Hands a signal that is not a kernel's to the disposition before ours, as
 * the system would have: the handler with its own mask, or the default
 * action. */
static void chain(size_t i, int sig, siginfo_t *info, void *uc)
{
    const struct sigaction *old = &previous[i];
    bool asynchronous = info->si_code <= 0 || sig == SIGTRAP || sig == MOSAIC_CPU_TIMEOUT_SIGNAL;
    if ((old->sa_flags & SA_SIGINFO) || (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN)) {
        struct sigaction call = *old;
        if (call.sa_flags & SA_RESETHAND) { /* delivered once: the default from now on */
            previous[i].sa_handler = SIG_DFL;
            previous[i].sa_flags = 0;
        }
        sigset_t mask = call.sa_mask, was;
        if (!(call.sa_flags & SA_NODEFER))
            sigaddset(&mask, sig);
        pthread_sigmask(SIG_BLOCK, &mask, &was);
        if (call.sa_flags & SA_SIGINFO)
            call.sa_sigaction(sig, info, uc);
        else
            call.sa_handler(sig);
        pthread_sigmask(SIG_SETMASK, &was, NULL);
        return;
    }
    if (old->sa_handler == SIG_IGN && asynchronous)
        return; /* ignored, as before (a fault the kernel raises cannot be ignored: below) */
    if (old->sa_handler == SIG_DFL && sig == MOSAIC_CPU_TIMEOUT_SIGNAL)
        return; /* SIGURG's default: ignored */
    /* The default action: the disposition goes back to it and the signal
     * comes again: a fault by the faulting instruction, run again on
     * return (the process ends where it would have), any other raised. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (asynchronous)
        raise(sig);
}

static void on_signal(int sig, siginfo_t *info, void *uc)
{
    int saved_errno = errno;
    size_t i = 0;
    while (i < NUM_SIGNALS - 1 && fault_signals[i] != sig)
        i++;
    cpu_guard *g = current_guard;
    if (sig == MOSAIC_CPU_TIMEOUT_SIGNAL) {
        if (info->si_code != SI_QUEUE || info->si_value.sival_ptr != (void *)&watchdog_tag ||
            info->si_pid != getpid()) {
            chain(i, sig, info, uc);
        } else if (g && g->armed && in_kernel_code(context_pc(uc))) {
            uint64_t deadline = atomic_load_explicit(&g->deadline, memory_order_relaxed);
            if (deadline && now_ns() >= deadline) {
                g->armed = 0;
                g->stop = CPU_STOP_TIMEOUT;
                siglongjmp(g->env, 1);
            }
        } /* else not in kernel code now: the watchdog asks again at its next tick */
        errno = saved_errno;
        return;
    }
    /* a fault the processor raised (si_code > 0), in kernel code of an armed guard */
    void *pc = context_pc(uc);
    if (g && g->armed && info->si_code > 0 && in_kernel_code(pc)) {
        g->armed = 0; /* a fault on the way back is the host's */
        g->signal = sig;
        g->code = info->si_code;
        g->address = info->si_addr;
        g->pc = pc;
        g->sp = context_sp(uc);
        g->access = 0;
#if defined(__x86_64__)
        if (sig == SIGSEGV && ((const ucontext_t *)uc)->uc_mcontext.gregs[REG_TRAPNO] == 14) /* a page fault */
            g->access = ((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2 ? 2 : 1;
#endif
        g->stop = CPU_STOP_FAULT;
        siglongjmp(g->env, 1);
    }
    chain(i, sig, info, uc);
    errno = saved_errno;
}

/* ---- the watchdog ---------------------------------------------------------------- */

/* Every worker's guard (guards_lock: a leaf; docs/architecture.md, "Locks"). */
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_guard *guards;
static bool watchdog_running; /* in this process (under guards_lock) */

/* Wakes every `tick` and signals each worker whose armed deadline has
 * passed, again at each tick until it leaves kernel code: the signal is
 * acted on only when it lands in kernel code. */
static void *watchdog_main(void *arg)
{
    uint64_t timeout = mosaic_cpu_kernel_timeout_ns(), tick = timeout / 4;
    (void)arg;
    if (tick < 1000000)
        tick = 1000000;
    if (tick > 100000000)
        tick = 100000000;
    struct timespec pause = {(time_t)(tick / 1000000000u), (long)(tick % 1000000000u)};
    for (;;) {
        nanosleep(&pause, NULL);
        uint64_t now = now_ns();
        pthread_mutex_lock(&guards_lock);
        for (cpu_guard *g = guards; g; g = g->next) {
            uint64_t deadline = atomic_load_explicit(&g->deadline, memory_order_relaxed);
            if (!deadline || now < deadline)
                continue;
            atomic_store_explicit(&g->expired, deadline, memory_order_relaxed);
            pthread_sigqueue(g->thread, MOSAIC_CPU_TIMEOUT_SIGNAL, (union sigval){.sival_ptr = (void *)&watchdog_tag});
        }
        pthread_mutex_unlock(&guards_lock);
    }
    return NULL;
}

/* Under guards_lock: starts the watchdog, its signals blocked. */
static void start_watchdog(void)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&guards_lock));
    sigset_t all, was;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &was);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    watchdog_running = pthread_create(&thread, &attr, watchdog_main, NULL) == 0;
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (!watchdog_running)
        fprintf(stderr, "mosaic: cannot start the watchdog of MOSAIC_KERNEL_TIMEOUT_MS: kernels run without a "
                        "time limit\n");
}

/* fork(): the child has none of the parent's workers nor its watchdog. */
static void guards_before_fork(void) { pthread_mutex_lock(&guards_lock); }
static void guards_after_fork_in_parent(void) { pthread_mutex_unlock(&guards_lock); }
static void guards_after_fork_in_child(void)
{
    pthread_mutex_init(&guards_lock, NULL);
    guards = NULL;
    watchdog_running = false;
}

/* ---- installing ------------------------------------------------------------------ */

static void install(void)
{
    /* what was there first, so a signal of another thread meets `previous`
     * filled in as soon as ours is in */
    for (size_t i = 0; i < NUM_SIGNALS; i++)
        sigaction(fault_signals[i], NULL, &previous[i]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NUM_SIGNALS; i++) {
        /* on the alternate stack (a stack overflow leaves none), reentrant
         * (a jump out leaves nothing blocked); the watchdog's interrupts no
         * system call for good */
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
                      (fault_signals[i] == MOSAIC_CPU_TIMEOUT_SIGNAL ? SA_RESTART : 0);
        sigaction(fault_signals[i], &sa, &previous[i]);
    }
    pthread_atfork(guards_before_fork, guards_after_fork_in_parent, guards_after_fork_in_child);
}

void mosaic_cpu_faults_start(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
    if (!mosaic_cpu_kernel_timeout_ns())
        return;
    pthread_mutex_lock(&guards_lock);
    if (!watchdog_running)
        start_watchdog();
    pthread_mutex_unlock(&guards_lock);
}

void mosaic_cpu_guard_start(cpu_guard *g)
{
    MOSAIC_ASSERT(!current_guard);
    g->thread = pthread_self();
    g->armed = 0;
    atomic_init(&g->deadline, 0);
    atomic_init(&g->expired, 0);
    /* A thread that has an alternate stack (a sanitizer gives every thread
     * one) keeps it. */
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE)) {
        size_t page = mosaic_cpu_page_size();
        char *mem = mmap(NULL, ALTSTACK_SIZE + page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem != MAP_FAILED) {
            mprotect(mem, page, PROT_NONE); /* an overflow of the handler faults */
            stack_t ss = {.ss_sp = mem + page, .ss_size = ALTSTACK_SIZE, .ss_flags = 0};
            if (sigaltstack(&ss, NULL) == 0) {
                g->altstack = mem;
                g->altstack_size = ALTSTACK_SIZE + page;
            } else {
                munmap(mem, ALTSTACK_SIZE + page);
            }
        }
    }
    /* A worker inherits the mask of the thread that started it: the
     * watchdog's signal must get through, whatever that thread blocked
     * (the faults get through anyway: the system forces them). */
    sigset_t timeout_signal;
    sigemptyset(&timeout_signal);
    sigaddset(&timeout_signal, MOSAIC_CPU_TIMEOUT_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &timeout_signal, NULL);
    current_guard = g;
    pthread_mutex_lock(&guards_lock);
    g->prev = NULL;
    g->next = guards;
    if (guards)
        guards->prev = g;
    guards = g;
    pthread_mutex_unlock(&guards_lock);
}

void mosaic_cpu_guard_end(cpu_guard *g)
{
    MOSAIC_ASSERT(current_guard == g && !g->armed);
    pthread_mutex_lock(&guards_lock);
    if (g->prev)
        g->prev->next = g->next;
    else if (guards == g)
        guards = g->next;
    if (g->next)
        g->next->prev = g->prev;
    pthread_mutex_unlock(&guards_lock);
    current_guard = NULL;
    if (g->altstack) {
        stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
        sigaltstack(&ss, NULL);
        munmap(g->altstack, g->altstack_size);
        g->altstack = NULL;
    }
}

/* ---- the report ------------------------------------------------------------------ */

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    default: return "a signal";
    }
}

static const char *code_meaning(int sig, int code)
{
    if (code == SI_KERNEL)
        return sig == SIGSEGV ? "a general protection fault: an address that is not canonical, or a privileged access"
                              : "raised by the processor";
    switch (sig) {
    case SIGSEGV:
        if (code == SEGV_MAPERR)
            return "nothing is mapped there";
        return code == SEGV_ACCERR ? "the page does not allow the access" : "an invalid access";
    case SIGBUS:
        if (code == BUS_ADRALN)
            return "a misaligned address";
        return code == BUS_ADRERR ? "no such physical address" : "a bus error";
    case SIGILL:
        return "an illegal instruction: a trap (__builtin_trap) or code that is not valid";
    case SIGFPE:
        if (code == FPE_INTDIV)
            return "an integer division by zero";
        return code == FPE_INTOVF ? "an integer overflow" : "an arithmetic fault";
    case SIGTRAP:
        return "a breakpoint or trap instruction";
    default:
        return "";
    }
}

/* The memory object of the command whose storage holds `addr` (the
 * smallest such: a sub-buffer rather than its parent), else the one whose
 * storage ends nearest below it, within `reach` bytes; *base and *size its
 * storage.  NULL when there is none. */
static cl_mem nearest_mem(const mosaic_ndrange *nd, cl_device_id device, uintptr_t addr, size_t reach, uintptr_t *base,
                          size_t *size)
{
    cl_mem best = NULL;
    size_t best_gap = reach + 1; /* 0: inside; else 1 + the bytes past its end */
    for (cl_uint i = 0; i < nd->num_mems; i++) {
        cl_mem m = nd->mems[i];
        const mosaic_mem_storage *s = mosaic_mem_storage_on(m, device);
        if (!s || !s->address || m->mem_type == CL_MEM_OBJECT_PIPE || addr < (uintptr_t)s->address)
            continue;
        uintptr_t b = (uintptr_t)s->address;
        size_t gap = addr - b < m->size ? 0 : addr - b - m->size + 1;
        if (gap < best_gap || (gap == 0 && m->size < *size)) {
            best = m;
            best_gap = gap;
            *base = b;
            *size = m->size;
        }
    }
    return best;
}

/* The first argument of nd whose buffer or image starts at base, or -1. */
static long argument_of(const mosaic_ndrange *nd, uintptr_t base)
{
    const mosaic_kernel_info *k = nd->info;
    for (cl_uint i = 0; i < k->num_args; i++) {
        mosaic_arg_kind kind = k->args[i].kind;
        if (kind == MOSAIC_ARG_GLOBAL_PTR || kind == MOSAIC_ARG_CONSTANT_PTR) {
            if ((uintptr_t) * (void *const *)nd->args[i] == base)
                return (long)i;
        } else if (kind == MOSAIC_ARG_IMAGE) {
            const mosaic_image_desc *d = *(const mosaic_image_desc *const *)nd->args[i];
            if (d && (uintptr_t)d->data == base)
                return (long)i;
        }
    }
    return -1;
}

static void describe_mem(mosaic_strbuf *s, const mosaic_ndrange *nd, cl_mem m, uintptr_t base, size_t size)
{
    long arg = argument_of(nd, base);
    if (arg >= 0)
        mosaic_strbuf_printf(s, "argument %ld's ", arg);
    if (m->mem_type != CL_MEM_OBJECT_BUFFER)
        mosaic_strbuf_puts(s, "image");
    else if (m->parent)
        mosaic_strbuf_printf(s, "sub-buffer (at offset %zu of a buffer of %zu bytes)", m->offset, m->parent->size);
    else
        mosaic_strbuf_puts(s, "buffer");
    mosaic_strbuf_printf(s, ", %zu bytes at %p", size, (void *)base);
}

/* Where addr is: null, a stack's guard page, a buffer of the command or
 * near one, near an argument's pointer (SVM), or none of these. */
static void describe_address(mosaic_strbuf *s, const mosaic_ndrange *nd, cl_device_id device, uintptr_t addr,
                             void *sp_at_fault, const cpu_fault_stacks *st)
{
    const size_t near = (size_t)1 << 20, page = mosaic_cpu_page_size();
    if (addr < 65536) {
        mosaic_strbuf_puts(s, ": a null pointer (with an offset)");
        return;
    }
    uintptr_t lo = (uintptr_t)st->thread_lo;
    if (lo && addr < lo && lo - addr <= 64 * page) {
        mosaic_strbuf_puts(s, ", just below the worker's stack: a stack overflow");
        return;
    }
    uintptr_t fibers = (uintptr_t)st->fibers;
    if (fibers && addr >= fibers && addr - fibers < st->fiber_count * st->fiber_slot &&
        (addr - fibers) % st->fiber_slot < page) {
        mosaic_strbuf_printf(s, ", the guard page below work-item %zu's stack (run as a fiber): a stack overflow",
                             (size_t)((addr - fibers) / st->fiber_slot));
        return;
    }
    if (st->big && addr >= (uintptr_t)st->big && addr - (uintptr_t)st->big < page) {
        mosaic_strbuf_puts(s, ", the guard page below the work-group's stack: a stack overflow");
        return;
    }
    /* a frame larger than what is left of the stack moves the stack
     * pointer past its guard page */
    uintptr_t sp = (uintptr_t)sp_at_fault;
    bool on_a_stack = (sp >= (uintptr_t)st->thread_lo && sp <= (uintptr_t)st->thread_hi) ||
                      (fibers && sp >= fibers && sp - fibers <= st->fiber_count * st->fiber_slot) ||
                      (st->big && sp >= (uintptr_t)st->big && sp - (uintptr_t)st->big <= page + st->big_size);
    if (sp && !on_a_stack) {
        mosaic_strbuf_printf(s, ", with the stack pointer (%p) outside the worker's stacks: a stack overflow",
                             sp_at_fault);
        return;
    }
    uintptr_t base = 0;
    size_t size = 0;
    cl_mem m = nearest_mem(nd, device, addr, near, &base, &size);
    if (m) {
        if (addr - base < size)
            mosaic_strbuf_printf(s, ", %zu bytes into ", (size_t)(addr - base));
        else
            mosaic_strbuf_printf(s, ", %zu bytes past the end of ", (size_t)(addr - base - size));
        describe_mem(s, nd, m, base, size);
        return;
    }
    /* a buffer just above it: before its start */
    for (cl_uint i = 0; i < nd->num_mems; i++) {
        const mosaic_mem_storage *ms = mosaic_mem_storage_on(nd->mems[i], device);
        uintptr_t b = ms ? (uintptr_t)ms->address : 0;
        if (b > addr && b - addr <= near && nd->mems[i]->mem_type != CL_MEM_OBJECT_PIPE) {
            mosaic_strbuf_printf(s, ", %zu bytes before the start of ", (size_t)(b - addr));
            describe_mem(s, nd, nd->mems[i], b, nd->mems[i]->size);
            return;
        }
    }
    /* a pointer argument that is no buffer of the command (SVM, USM) just below */
    const mosaic_kernel_info *k = nd->info;
    for (cl_uint i = 0; i < k->num_args; i++) {
        if (k->args[i].kind != MOSAIC_ARG_GLOBAL_PTR && k->args[i].kind != MOSAIC_ARG_CONSTANT_PTR)
            continue;
        uintptr_t p = (uintptr_t) * (void *const *)nd->args[i];
        if (p && addr >= p && addr - p <= near) {
            mosaic_strbuf_printf(s, ", %zu bytes past where argument %u points (%p, a pointer into no buffer of the "
                                 "command: SVM or USM)", (size_t)(addr - p), i, (void *)p);
            return;
        }
    }
    mosaic_strbuf_puts(s, ", far from every buffer of the command");
}

cl_int mosaic_cpu_fault_report(const cpu_guard *g, bool report, cl_context context, cl_device_id device,
                               const mosaic_ndrange *nd, const uint64_t group[3], unsigned together,
                               const cpu_fault_stacks *stacks)
{
    MOSAIC_ASSERT(g->stop == CPU_STOP_FAULT || g->stop == CPU_STOP_TIMEOUT);
    bool timeout = g->stop == CPU_STOP_TIMEOUT;
    cl_int status = timeout ? MOSAIC_KERNEL_TIMED_OUT : CL_OUT_OF_RESOURCES;
    if (!report)
        return status;
    mosaic_strbuf s = {0};
    mosaic_strbuf_printf(&s, "kernel '%s': ", nd->info->name);
    if (timeout) {
        mosaic_strbuf_printf(&s, "ran longer than MOSAIC_KERNEL_TIMEOUT_MS (%lu ms) and was stopped in ",
                             mosaic_settings()->kernel_timeout_ms);
    } else {
        mosaic_strbuf_printf(&s, "%s (%s) in ", signal_name(g->signal), code_meaning(g->signal, g->code));
    }
    mosaic_strbuf_printf(&s, "work-group (%llu,%llu,%llu)", (unsigned long long)group[0],
                         (unsigned long long)group[1], (unsigned long long)group[2]);
    if (together > 1)
        mosaic_strbuf_printf(&s, " (or one of the %u after it in y, run together with it)", together - 1);
    /* its work-items: a kernel that cannot observe its groups runs in the
     * device's, not the application's (docs/devices.md) */
    uint64_t first[3], last[3];
    for (int d = 0; d < 3; d++) {
        uint64_t span = nd->local_size[d] * (d == 1 ? together : 1);
        uint64_t end = nd->global_offset[d] + nd->global_size[d];
        first[d] = nd->global_offset[d] + group[d] * nd->local_size[d];
        last[d] = (first[d] + span < end ? first[d] + span : end) - 1;
        if (last[d] < first[d])
            last[d] = first[d];
    }
    mosaic_strbuf_printf(&s, ", work-items (%llu,%llu,%llu) to (%llu,%llu,%llu)", (unsigned long long)first[0],
                         (unsigned long long)first[1], (unsigned long long)first[2], (unsigned long long)last[0],
                         (unsigned long long)last[1], (unsigned long long)last[2]);
    if (!timeout && (g->signal == SIGSEGV || g->signal == SIGBUS)) {
        if (g->signal == SIGSEGV && g->code == SI_KERNEL) {
            mosaic_strbuf_puts(&s, "; the address is not known");
        } else {
            mosaic_strbuf_printf(&s, "; %s address %p", g->access == 2 ? "a store to" : g->access == 1 ? "a load from"
                                                                                                     : "an access to",
                                 g->address);
            describe_address(&s, nd, device, (uintptr_t)g->address, g->sp, stacks);
        }
    }
    if (!timeout)
        mosaic_strbuf_printf(&s, "; at instruction %p", g->pc);
    mosaic_strbuf_printf(&s, "; the command fails with %s (%d); what the kernel wrote before stays written",
                         timeout ? "MOSAIC_KERNEL_TIMED_OUT" : "CL_OUT_OF_RESOURCES", (int)status);
    const char *message = s.oom ? "a kernel faulted (no memory for the details)" : s.data;
    if (mosaic_debugging(MOSAIC_DEBUG_LAUNCH) && !mosaic_debugging(MOSAIC_DEBUG_API))
        fprintf(stderr, "mosaic: %s\n", message); /* (with `api`, the notice is printed) */
    mosaic_context_notify(context, message);
    mosaic_strbuf_free(&s);
    return status;
}
