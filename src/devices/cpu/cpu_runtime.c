/* Run-time support for generated kernel code (see cpu_runtime.h). */
#define _GNU_SOURCE
#include "devices/cpu/cpu_runtime.h"
#include "base/strbuf.h"
#include "compiler/compiler.h"
#include "core/printf_format.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- printf ------------------------------------------------------------------
 * Each call formatted at once (core/printf_format.c) into its worker's
 * buffer, written out in whole lines. */

/* Each worker thread's output (base/strbuf.h: appending is inline). */
static __thread mosaic_strbuf out;

/* Output beyond this is written out (in whole lines) at the end of a call. */
#define FLUSH_THRESHOLD (64 * 1024)

static void write_out(const char *s, size_t n)
{
    flockfile(stdout);
    fwrite_unlocked(s, 1, n, stdout);
    fflush_unlocked(stdout);
    funlockfile(stdout);
}

void mosaic_cpu_printf_flush(void)
{
    if (out.len)
        write_out(out.data, out.len);
    /* nothing kept between kernels (nor after a thread ends) */
    mosaic_strbuf_free(&out);
}

int mosaic_cpu_printf(const char *format, const void *args, const uint32_t *desc, uint32_t nargs)
{
    mosaic_strbuf *o = &out;
    size_t start = o->len;
    if (!format || !mosaic_printf_format(o, format, args, desc, nargs, NULL) || o->oom) {
        mosaic_strbuf_truncate(o, start); /* nothing of a failed call */
        o->oom = false;
        return -1;
    }
    if (o->len > MOSAIC_CPU_PRINTF_BUFFER) { /* all of it out, newline or not */
        write_out(o->data, o->len);
        mosaic_strbuf_truncate(o, 0);
    } else if (o->len > FLUSH_THRESHOLD) {
        /* whole lines out; the rest waits for its newline or the flush */
        char *nl = memrchr(o->data, '\n', o->len);
        if (nl) {
            size_t n = (size_t)(nl - o->data) + 1;
            write_out(o->data, n);
            mosaic_strbuf_consume(o, n);
        }
    }
    return 0;
}
