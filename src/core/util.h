/* Small helpers of every layer: error reporting, time, allocation (settings:
 * base/settings.h; the get-info copy-out of the entry points: api/entry.h). */
#ifndef MOSAIC_UTIL_H
#define MOSAIC_UTIL_H

#include <CL/cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MOSAIC_DEBUG=1 prints why a call failed on stderr. */
bool mosaic_debug_enabled(void);
void mosaic_debug(const char *function, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Report an API error (when debugging) and evaluate to the code. */
#define MOSAIC_ERROR(code, ...) (mosaic_debug(__func__, __VA_ARGS__), (code))
/* For functions returning an object: set *errcode_ret if given. */
static inline void mosaic_set_error(cl_int *errcode_ret, cl_int code) { if (errcode_ret) *errcode_ret = code; }

/* Monotonic nanoseconds: the clock of profiling and clGetHostTimer. */
uint64_t mosaic_now_ns(void);
/* Its resolution in nanoseconds (at least 1): CL_DEVICE_PROFILING_TIMER_RESOLUTION
 * and CL_PLATFORM_HOST_TIMER_RESOLUTION. */
uint64_t mosaic_now_resolution_ns(void);

/* Spins (a pause instruction at a time) until done(arg) is true or
 * MOSAIC_SPIN_US has passed; done's last answer.  Before a thread sleeps on
 * something that usually comes within microseconds (a worker waiting for
 * the next command, the host for a short one), so that neither pays a
 * futex wake-up.  It yields its CPU every few microseconds: the thread it
 * waits for may have been woken onto this CPU, and would otherwise wait for
 * the whole spin. */
bool mosaic_spin_until(bool (*done)(const void *arg), const void *arg);
/* The same for limit nanoseconds (0: one test). */
bool mosaic_spin_until_for(bool (*done)(const void *arg), const void *arg, uint64_t limit);

/* Initialises a mutex that spins a little before it sleeps: for locks that
 * a host thread and a worker take in turn for a few hundred nanoseconds
 * each (the engine's graph, a pool's job list), where sleeping costs a
 * futex wake-up on each side. */
void mosaic_mutex_init_spinning(pthread_mutex_t *m);

/* Allocation that never returns NULL silently: callers map NULL to CL_OUT_OF_HOST_MEMORY. */
void *mosaic_calloc(size_t count, size_t size);
char *mosaic_strdup(const char *s);
/* Grow a dynamic array to hold at least `need` items; false on failure. */
bool mosaic_grow(void **array, size_t *capacity, size_t need, size_t item_size);

/* The space-separated words of `from` (NULL: none) that keep(word, len,
 * arg) accepts, into out (size bytes, NUL-terminated, one space between;
 * a word that would not fit is left out): extension lists narrowed. */
void mosaic_filter_words(const char *from, bool (*keep)(const char *word, size_t len, void *arg), void *arg,
                         char *out, size_t size);

/* Can host memory [p, p + size) be what the application says it is: it does
 * not wrap around the address space, and the pages of its first and last
 * bytes are mapped in this process (mincore)?  An application's pitches or
 * pointer may be anything; this catches the arithmetic that ran past the
 * address space and pointers to nothing, not a range too short for its
 * data (holes in the middle are the application's).  size 0: true. */
bool mosaic_host_range_mapped(const void *p, size_t size);

/* A name-based UUID (RFC 9562 layout, version 8: a hash of our own) of
 * `size` bytes: the same bytes always give the same 16, different ones
 * differ but for a hash collision.  For CL_DEVICE_UUID_KHR and
 * CL_DRIVER_UUID_KHR, which must stay the same across processes. */
void mosaic_uuid_of(const void *bytes, size_t size, unsigned char uuid[16]);

#endif
