/*
 * Invariants as code.
 *
 * MOSAIC_ASSERT(cond): in builds with assertions (the CMake option
 * MOSAIC_ASSERTIONS: on for Debug and RelWithDebInfo, which `make build` and
 * `make test` use, off for Release) a false `cond` prints
 * "mosaic: FILE:LINE: FUNCTION: assertion failed: COND" on stderr and aborts.
 * Without them `cond` is not evaluated and costs nothing, so it must have no
 * side effects.
 *
 * The lock checks name the locks of docs/architecture.md ("Locks"): a
 * function documented as called with a lock held asserts it, e.g.
 *     MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
 *
 * src/base depends on the C library alone, so every layer (api, core,
 * devices, compiler) may include it (docs/architecture.md, "Layers").
 */
#ifndef MOSAIC_BASE_ASSERT_H
#define MOSAIC_BASE_ASSERT_H

#include <pthread.h>
#include <stdbool.h>

#if MOSAIC_ASSERTIONS
#define MOSAIC_ASSERT(cond) \
    (__builtin_expect(!!(cond), 1) ? (void)0 : mosaic_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define MOSAIC_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/* Prints the failed assertion and aborts. */
void mosaic_assert_fail(const char *cond, const char *file, int line, const char *function)
    __attribute__((noreturn, cold));

/* For assertions only.  True when the calling thread holds `m` (glibc records
 * the owner of every mutex it locks; with another C library: when any thread
 * holds it). */
bool mosaic_mutex_held(pthread_mutex_t *m);
/* True when some thread holds `l`, for reading or writing (a read-write lock
 * records no readers). */
bool mosaic_rwlock_held(pthread_rwlock_t *l);

#endif
