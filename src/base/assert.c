/* Assertion failures and lock-held checks (assert.h). */
#define _GNU_SOURCE
#include "base/assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void mosaic_assert_fail(const char *cond, const char *file, int line, const char *function)
{
    fprintf(stderr, "mosaic: %s:%d: %s: assertion failed: %s\n", file, line, function, cond);
    fflush(stderr);
    abort();
}

#ifdef __GLIBC__
/* glibc stores the owner's thread id in every mutex it locks (and clears it at
 * unlock, and around a condition wait).  gettid() is a system call, so each
 * thread keeps its id; a forked child's only thread gets a new id, hence the
 * reset in the child. */
static __thread pid_t my_tid;
static pthread_once_t tid_fork_once = PTHREAD_ONCE_INIT;

static void forget_tid(void) { my_tid = 0; }
static void register_forget_tid(void) { pthread_atfork(NULL, NULL, forget_tid); }

bool mosaic_mutex_held(pthread_mutex_t *m)
{
    if (!my_tid) {
        pthread_once(&tid_fork_once, register_forget_tid);
        my_tid = gettid();
    }
    return m->__data.__owner == my_tid;
}
#else
bool mosaic_mutex_held(pthread_mutex_t *m)
{
    if (pthread_mutex_trylock(m) != 0)
        return true; /* EBUSY (or EDEADLK from an error-checking mutex) */
    pthread_mutex_unlock(m);
    return false;
}
#endif

bool mosaic_rwlock_held(pthread_rwlock_t *l)
{
    if (pthread_rwlock_trywrlock(l) != 0)
        return true; /* EBUSY, or EDEADLK when this thread holds it */
    pthread_rwlock_unlock(l);
    return false;
}
