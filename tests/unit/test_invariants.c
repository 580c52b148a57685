/*
 * Invariants as code (src/base/assert.h) and the settings module
 * (src/base/settings.h), linked with Mosaic's objects:
 *   - the settings are read once, at the first call, by whichever of several
 *     threads gets there first, and parsed as settings.h documents (flags,
 *     numbers, defaults, the cache directory's fallbacks);
 *   - a failed MOSAIC_ASSERT prints file:line and the condition and aborts;
 *     without assertions the condition is not evaluated;
 *   - the lock checks tell a held lock from a free one, and a mutex this
 *     thread holds from one another thread holds, also in a forked child;
 *   - retaining a destroyed object and releasing one below zero abort.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_invariants.list"
#include "test.h"
#include "base/assert.h"
#include "base/settings.h"
#include "core/engine.h"
#include "core/objects.h"

/* ---- first use from several threads at once ------------------------------------ */
enum { THREADS = 8 };
static pthread_barrier_t start;
static const struct mosaic_settings *seen[THREADS];

static void *first_use(void *arg)
{
    pthread_barrier_wait(&start);
    seen[(size_t)arg] = mosaic_settings();
    return NULL;
}

TEST(first_use)
{
    /* before anything else in this process has read a setting */
    setenv("MOSAIC_NUM_THREADS", "7", 1);
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (size_t i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, first_use, (void *)i);
    for (size_t i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (size_t i = 0; i < THREADS; i++)
        CHECK(seen[i] == seen[0] && seen[i]->num_threads == 7);
    /* read once: a later change is not seen until a reload */
    setenv("MOSAIC_NUM_THREADS", "3", 1);
    CHECK(mosaic_settings()->num_threads == 7);
    mosaic_settings_reload();
    CHECK(mosaic_settings()->num_threads == 3);
}

/* ---- parsing ------------------------------------------------------------------------ */
static const char *const variables[] = {
    "MOSAIC_DEBUG", "MOSAIC_NUM_THREADS", "MOSAIC_FIBER_STACK_KIB", "MOSAIC_BARRIER_FIBERS",
    "MOSAIC_NO_LIBMVEC", "MOSAIC_DUMP_IR", "MOSAIC_CLANG", "MOSAIC_OPT", "MOSAIC_CACHE", "MOSAIC_CACHE_DIR",
    "XDG_CACHE_HOME", "HOME", "TMPDIR", "MOSAIC_SPIN_US", "MOSAIC_SPECIALISE_AFTER", "MOSAIC_SPECIALISE_WAIT",
    "MOSAIC_NO_WIDEN", "MOSAIC_NO_PREFETCH", "MOSAIC_NO_FUSE", "MOSAIC_STREAM_STORES", "MOSAIC_NO_FORK_SERVER",
    "MOSAIC_LLVM_SPIRV", "MOSAIC_SPIRV_VAL", "MOSAIC_CACHE_MAX_MB", "MOSAIC_BUILD_TIMEOUT_S", "MOSAIC_TRACE",
};

static const struct mosaic_settings *with(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    mosaic_settings_reload();
    return mosaic_settings();
}

static bool same(const char *a, const char *b) { return a && b && !strcmp(a, b); }

TEST(parsing)
{
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        unsetenv(variables[i]);
    const struct mosaic_settings *s = with("MOSAIC_DEBUG", NULL);
    CHECK(!s->debug && !s->barrier_fibers && !s->no_libmvec && !s->dump_ir);
    CHECK(!s->no_widen && !s->no_prefetch && !s->no_fuse && !s->no_fork_server && s->stream_stores == -1);
    CHECK(s->num_threads == 0 && s->fiber_stack_kib == 256 && s->spin_us == 50 && s->specialise_after == 3);
    CHECK(s->cache_max_mb == 1024 && s->build_timeout_s == 120);
    CHECK(same(s->clang, MOSAIC_CLANG_PATH) && same(s->opt, MOSAIC_OPT_PATH) && same(s->tmpdir, "/tmp") &&
          s->cache_dir == NULL && s->trace == NULL);
    CHECK(same(s->llvm_spirv, MOSAIC_LLVM_SPIRV_PATH) && same(s->spirv_val, MOSAIC_SPIRV_VAL_PATH));

    /* flags: set, not empty and not "0" */
    CHECK(with("MOSAIC_DEBUG", "1")->debug);
    CHECK(with("MOSAIC_DEBUG", "yes")->debug);
    CHECK(!with("MOSAIC_DEBUG", "0")->debug);
    CHECK(!with("MOSAIC_DEBUG", "")->debug);
    CHECK(with("MOSAIC_BARRIER_FIBERS", "1")->barrier_fibers);
    CHECK(with("MOSAIC_NO_LIBMVEC", "1")->no_libmvec);
    CHECK(with("MOSAIC_DUMP_IR", "1")->dump_ir);
    CHECK(with("MOSAIC_NO_WIDEN", "1")->no_widen && with("MOSAIC_NO_PREFETCH", "1")->no_prefetch &&
          with("MOSAIC_NO_FUSE", "1")->no_fuse && with("MOSAIC_NO_FORK_SERVER", "1")->no_fork_server);

    /* MOSAIC_STREAM_STORES: unset or empty -1, else a flag */
    CHECK(with("MOSAIC_STREAM_STORES", "")->stream_stores == -1);
    CHECK(with("MOSAIC_STREAM_STORES", "0")->stream_stores == 0);
    CHECK(with("MOSAIC_STREAM_STORES", "1")->stream_stores == 1);
    CHECK(with("MOSAIC_STREAM_STORES", "yes")->stream_stores == 1);

    /* numbers: strtol(s, NULL, 0) of the whole value, else the default; clamped */
    CHECK(with("MOSAIC_NUM_THREADS", "12")->num_threads == 12);
    CHECK(with("MOSAIC_NUM_THREADS", "0x10")->num_threads == 16);
    CHECK(with("MOSAIC_NUM_THREADS", "4x")->num_threads == 0);
    CHECK(with("MOSAIC_NUM_THREADS", "-2")->num_threads == 0);
    CHECK(with("MOSAIC_NUM_THREADS", "100000")->num_threads == 1024);
    CHECK(with("MOSAIC_FIBER_STACK_KIB", "1024")->fiber_stack_kib == 1024);
    CHECK(with("MOSAIC_FIBER_STACK_KIB", "4")->fiber_stack_kib == 16);
    CHECK(with("MOSAIC_FIBER_STACK_KIB", "big")->fiber_stack_kib == 256);
    CHECK(with("MOSAIC_FIBER_STACK_KIB", "0x80000000")->fiber_stack_kib == 1ul << 30);
    /* below their least value these take their default, above their most the most */
    CHECK(with("MOSAIC_SPIN_US", "0")->spin_us == 0);
    CHECK(with("MOSAIC_SPIN_US", "-1")->spin_us == 50);
    CHECK(with("MOSAIC_SPIN_US", "200000")->spin_us == 100000);
    CHECK(with("MOSAIC_SPECIALISE_AFTER", "0")->specialise_after == 0);
    CHECK(with("MOSAIC_SPECIALISE_AFTER", "-5")->specialise_after == 3);
    CHECK(with("MOSAIC_SPECIALISE_AFTER", "2000000")->specialise_after == 1000000);
    CHECK(with("MOSAIC_CACHE_MAX_MB", "0")->cache_max_mb == 0);
    CHECK(with("MOSAIC_CACHE_MAX_MB", "-1")->cache_max_mb == 1024);
    CHECK(with("MOSAIC_CACHE_MAX_MB", "0x20000000000")->cache_max_mb == 1ul << 40);
    CHECK(with("MOSAIC_BUILD_TIMEOUT_S", "0")->build_timeout_s == 0);
    CHECK(with("MOSAIC_BUILD_TIMEOUT_S", "-3")->build_timeout_s == 120);
    CHECK(with("MOSAIC_BUILD_TIMEOUT_S", "5000000")->build_timeout_s == 1000000);

    /* paths */
    CHECK(same(with("MOSAIC_CLANG", "/opt/clang")->clang, "/opt/clang"));
    CHECK(same(with("MOSAIC_CLANG", "")->clang, MOSAIC_CLANG_PATH));
    CHECK(same(with("MOSAIC_OPT", "/opt/opt")->opt, "/opt/opt"));
    CHECK(same(with("MOSAIC_OPT", NULL)->opt, MOSAIC_OPT_PATH));
    CHECK(same(with("TMPDIR", "/var/tmp")->tmpdir, "/var/tmp"));
    CHECK(same(with("TMPDIR", "")->tmpdir, "/tmp"));
    CHECK(same(with("MOSAIC_LLVM_SPIRV", "/x/llvm-spirv")->llvm_spirv, "/x/llvm-spirv"));
    CHECK(same(with("MOSAIC_SPIRV_VAL", "/x/spirv-val")->spirv_val, "/x/spirv-val"));
    CHECK(same(with("MOSAIC_TRACE", "/t/trace.json")->trace, "/t/trace.json"));
    CHECK(with("MOSAIC_TRACE", "")->trace == NULL);

    /* the cache directory: MOSAIC_CACHE=0, MOSAIC_CACHE_DIR, XDG_CACHE_HOME, HOME */
    CHECK(same(with("HOME", "/home/u")->cache_dir, "/home/u/.cache/mosaic"));
    CHECK(same(with("XDG_CACHE_HOME", "/xdg")->cache_dir, "/xdg/mosaic"));
    CHECK(same(with("MOSAIC_CACHE_DIR", "/c")->cache_dir, "/c"));
    CHECK(with("MOSAIC_CACHE", "0")->cache_dir == NULL);
    CHECK(same(with("MOSAIC_CACHE", "1")->cache_dir, "/c"));
    CHECK(same(with("MOSAIC_CACHE", "")->cache_dir, "/c")); /* only "0" turns the cache off */
    CHECK(with("MOSAIC_CACHE_DIR", "")->cache_dir == NULL); /* set but empty: no cache */
    CHECK(same(with("MOSAIC_CACHE_DIR", NULL)->cache_dir, "/xdg/mosaic"));
    CHECK(same(with("XDG_CACHE_HOME", "")->cache_dir, "/home/u/.cache/mosaic"));
    CHECK(with("HOME", NULL)->cache_dir == NULL);

    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        unsetenv(variables[i]);
    mosaic_settings_reload();
}

/* ---- a child that should abort ------------------------------------------------------ */
/* Runs fn in a child process; returns the signal that ended it (0 if none),
 * with what it wrote on stderr in err. */
static int in_child(void (*fn)(void), char *err, size_t size)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < size && (r = read(fds[0], err + n, size - 1 - n)) > 0)
        n += (size_t)r;
    err[n] = 0;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

typedef struct { MOSAIC_OBJECT_HEADER; } bare_object;
static void forget(void *object) { (void)object; } /* a destroy function: the object is counted */

#if MOSAIC_ASSERTIONS
static void failing_assert(void)
{
    int two = 2;
    MOSAIC_ASSERT(two + two == 5);
}

static void retain_destroyed(void)
{
    static bare_object o;
    mosaic_object_init(&o, MOSAIC_SAMPLER, NULL, forget);
    mosaic_release(&o); /* the last reference: destroyed (tag MOSAIC_DEAD) */
    mosaic_retain_internal(&o);
}

static void release_below_zero(void)
{
    static bare_object o;
    mosaic_object_init(&o, MOSAIC_SAMPLER, NULL, forget);
    mosaic_release_internal(&o); /* the users' hold, without a user release */
    mosaic_release_internal(&o);
}
#endif

TEST(assertions)
{
    char err[1024];
#if MOSAIC_ASSERTIONS
    CHECK(in_child(failing_assert, err, sizeof err) == SIGABRT);
    /* "mosaic: FILE:LINE: FUNCTION: assertion failed: COND" */
    const char *file = strstr(err, "test_invariants.c:");
    int line = 0, at = 0;
    CHECK(file && sscanf(file, "test_invariants.c:%d: %n", &line, &at) == 1 && line > 0 &&
          !strncmp(file + at, "failing_assert: assertion failed: two + two == 5\n", 49));

    CHECK(in_child(retain_destroyed, err, sizeof err) == SIGABRT && strstr(err, "live("));
    CHECK(in_child(release_below_zero, err, sizeof err) == SIGABRT && strstr(err, "live("));
#else
    int evaluated = 0;
    MOSAIC_ASSERT(++evaluated == 5);
    CHECK(evaluated == 0);
    (void)err;
#endif
    /* the legal life of an object asserts nothing */
    bare_object o;
    mosaic_object_init(&o, MOSAIC_SAMPLER, NULL, forget);
    mosaic_retain(&o);
    mosaic_retain_internal(&o);
    CHECK(mosaic_release(&o) && mosaic_release(&o));
    CHECK(!mosaic_release(&o)); /* one release too many is the API's error, not an assertion */
    mosaic_release_internal(&o);
    CHECK(o.obj.type == MOSAIC_DEAD);
}

/* ---- lock checks --------------------------------------------------------------------- */
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int phase;
static bool other_saw_held;

static void *holder(void *unused)
{
    pthread_mutex_lock(&m);
    other_saw_held = mosaic_mutex_held(&m);
    atomic_store(&phase, 1);
    while (atomic_load(&phase) != 2)
        sched_yield();
    pthread_mutex_unlock(&m);
    return unused;
}

static void locked_in_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&fresh);
    if (!mosaic_mutex_held(&fresh))
        abort();
}

TEST(lock_checks)
{
    CHECK(!mosaic_mutex_held(&m));
    pthread_mutex_lock(&m);
    CHECK(mosaic_mutex_held(&m));
    /* held again after a condition wait */
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    struct timespec soon;
    clock_gettime(CLOCK_REALTIME, &soon);
    pthread_cond_timedwait(&c, &m, &soon);
    CHECK(mosaic_mutex_held(&m));
    pthread_mutex_unlock(&m);
    CHECK(!mosaic_mutex_held(&m));

    /* held by another thread */
    pthread_t t;
    pthread_create(&t, NULL, holder, NULL);
    while (atomic_load(&phase) != 1)
        sched_yield();
#ifdef __GLIBC__
    CHECK(!mosaic_mutex_held(&m)); /* not by this thread */
#else
    CHECK(mosaic_mutex_held(&m)); /* elsewhere the check sees that anyone holds it */
#endif
    atomic_store(&phase, 2);
    pthread_join(t, NULL);
    CHECK(other_saw_held);
    CHECK(!mosaic_mutex_held(&m));

    /* a forked child's thread has an id of its own */
    char err[256];
    CHECK(in_child(locked_in_child, err, sizeof err) == 0);

    pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
    CHECK(!mosaic_rwlock_held(&rw));
    pthread_rwlock_rdlock(&rw);
    CHECK(mosaic_rwlock_held(&rw));
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_wrlock(&rw);
    CHECK(mosaic_rwlock_held(&rw));
    pthread_rwlock_unlock(&rw);
    CHECK(!mosaic_rwlock_held(&rw));

    CHECK(!mosaic_engine_lock_held());
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
