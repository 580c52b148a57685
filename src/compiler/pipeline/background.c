/*
 * The background build thread (background.h).  It starts with the first
 * job and lives as long as the process; it sleeps on a condition variable
 * while the queue is empty.  A child of fork() has no such thread: it keeps
 * the queue and starts its own with its next job (a build that was running
 * in the parent never ends in the child; its entry stays `building`, and
 * the child runs the general K.wg for that size).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/assert.h"
#include "compiler/pipeline/background.h"

typedef struct job {
    void (*run)(void *);
    void (*drop)(void *);
    void *arg;
    struct job *next;
} job;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards everything below */
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER; /* a job came, or one ended */
static job *first, *last;
static bool started, running, exiting;

static void stop_at_exit(void);

static void *background_thread(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!first || exiting)
            pthread_cond_wait(&changed, &lock);
        job *j = first;
        first = j->next;
        if (!first)
            last = NULL;
        running = true;
        pthread_mutex_unlock(&lock);
        j->run(j->arg);
        free(j);
        /* Again after each job: exit runs its handlers newest first, and
         * the destructors of statics LLVM made in this job's first use of
         * them (ir/util.c, warm_up_code_generator) would otherwise run before
         * this one, under the next job. */
        atexit(stop_at_exit);
        pthread_mutex_lock(&lock);
        running = false;
        pthread_cond_broadcast(&changed);
    }
    return NULL;
}

static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&lock); }
static void after_fork_in_child(void)
{
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&changed, NULL);
    started = running = false;
}

/* Registered with no lock held: fork() holds glibc's handler list lock
 * while it takes ours. */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static void register_fork_handlers(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

/* At exit: the queued jobs are dropped and the one running ends first, for
 * EXIT_WAIT_S at most (a build takes milliseconds to a second; a build that
 * takes longer, or waits on something exit has already torn down, must not
 * keep the process from ending). */
enum { EXIT_WAIT_S = 5 };

static void stop_at_exit(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += EXIT_WAIT_S;
    pthread_mutex_lock(&lock);
    exiting = true;
    job *j = first;
    first = last = NULL;
    while (running && pthread_cond_timedwait(&changed, &lock, &until) != ETIMEDOUT)
        ;
    pthread_mutex_unlock(&lock);
    while (j) {
        job *next = j->next;
        j->drop(j->arg);
        free(j);
        j = next;
    }
}

/* glibc's exit() runs the exiting thread's thread-local destructors before
 * any atexit handler, and so before the destructors of the statics LLVM
 * makes at their first use (ir/util.c, warm_up_code_generator), which a
 * build here may be the first to use (or load from the cache: the JIT's).
 * Registered on the main thread, the one that ends a program by returning
 * from main, stop_at_exit then runs first; the atexit handler stays for a
 * program that calls exit() from another thread. */
extern int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso) __attribute__((weak));
extern void *__dso_handle;

static void stop_at_main_thread_exit(void *unused)
{
    (void)unused;
    stop_at_exit();
}

void mc_background_prepare(void)
{
    static _Thread_local bool registered;
    if (!registered && __cxa_thread_atexit_impl && syscall(SYS_gettid) == getpid()) {
        registered = true;
        __cxa_thread_atexit_impl(stop_at_main_thread_exit, NULL, &__dso_handle);
    }
}

bool mc_background_run(void (*run)(void *arg), void (*drop)(void *arg), void *arg)
{
    MOSAIC_ASSERT(run && drop);
    job *j = malloc(sizeof *j);
    if (!j)
        return false;
    *j = (job){run, drop, arg, NULL};
    pthread_once(&fork_handlers_once, register_fork_handlers);
    mc_background_prepare();
    pthread_mutex_lock(&lock);
    bool ok = !exiting;
    if (ok && !started) {
        pthread_t thread;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = ok = pthread_create(&thread, &attr, background_thread, NULL) == 0;
        pthread_attr_destroy(&attr);
        if (started)
            atexit(stop_at_exit);
    }
    if (ok) { /* (a forked child may find its parent's queue here) */
        if (last)
            last->next = j;
        else
            first = j;
        last = j;
        pthread_cond_signal(&changed);
    }
    pthread_mutex_unlock(&lock);
    if (!ok)
        free(j);
    return ok;
}
