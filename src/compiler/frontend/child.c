/* Child processes of the compiler: clang-16 (the front end) and opt-16 (the
 * bitcode checker of program binaries).
 *
 * The process is multithreaded, so never fork() without exec.  The child is
 * started the way posix_spawn starts one (clone with CLONE_VM | CLONE_VFORK,
 * on a stack of its own, every signal blocked across it), because it must do
 * one thing posix_spawn cannot: ask to be killed when its parent dies
 * (PR_SET_PDEATHSIG), so that a host process killed mid-build leaves no
 * compiler running.  The death signal follows the thread that started the
 * child; mc_run_child waits for the child before it returns, so that thread
 * outlives it.  Between clone and execve the child shares the caller's memory
 * and runs on its thread's TLS: it calls only system-call wrappers and writes
 * nothing but its spawn_args.
 *
 * The child leads a process group of its own, so a time-out kills whatever it
 * started too.
 *
 * Every child runs with one fixed environment (mc_child_environment), never
 * the application's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/settings.h"
#include "compiler/frontend/child.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What the child needs, prepared by the parent: nothing is looked up or
 * allocated after clone. */
struct spawn_args {
    const char *path;          /* the program, PATH already searched */
    char *const *argv;
    char *const *envp;
    int in, out;               /* its stdin (-1: /dev/null) and stdout/stderr, as file descriptors here */
    int pass;                  /* a descriptor it gets as MC_PASSED_FD; -1: none */
    bool detached;             /* outlives the thread that starts it (no death signal) */
    const char *dir;
    uint64_t max_memory;
    pid_t parent;              /* this process */
    int err;                   /* set by the child when it could not exec */
};

/* The kernel's signal mask: every bit, glibc's own signals included. */
static void block_all_signals(sigset_t *old)
{
    uint64_t all = ~(uint64_t)0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, old, sizeof all);
}

/* The kernel's struct sigaction (x86-64 and AArch64 alike). */
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
};

/* Raw system calls only: no wrapper that an interceptor (a sanitizer) or
 * glibc itself (its internal signals) could step into. */
__attribute__((no_sanitize_address)) static int child_main(void *p)
{
    struct spawn_args *a = p;
    /* Handlers of the application must not run here (this is its memory):
     * every signal back to its default, still blocked.  The handler table is
     * this process's own copy (no CLONE_SIGHAND). */
    struct kernel_sigaction dfl = {SIG_DFL, 0, NULL, 0};
    for (long s = 1; s <= 64; s++)
        if (s != SIGKILL && s != SIGSTOP)
            syscall(SYS_rt_sigaction, s, &dfl, NULL, sizeof dfl.mask);
    long r;
    /* Dies with the host; and if the host is already gone, starts nothing. */
    if ((!a->detached && syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)) || syscall(SYS_getppid) != a->parent) {
        a->err = ESRCH;
        syscall(SYS_exit_group, 127);
    }
    syscall(SYS_setpgid, 0, 0);
    /* Copies above 2 first: the pipe or the input may be 0, 1 or 2 themselves. */
    long in = a->in >= 0 ? syscall(SYS_fcntl, a->in, F_DUPFD_CLOEXEC, 3)
                         : syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC);
    long out = syscall(SYS_fcntl, a->out, F_DUPFD_CLOEXEC, 3);
    long pass = a->pass >= 0 ? syscall(SYS_fcntl, a->pass, F_DUPFD_CLOEXEC, MC_PASSED_FD + 1) : 0;
    if (in < 0 || out < 0 || pass < 0 || syscall(SYS_dup3, in, 0, 0) < 0 || syscall(SYS_dup3, out, 1, 0) < 0 ||
        syscall(SYS_dup3, out, 2, 0) < 0 || (a->pass >= 0 && syscall(SYS_dup3, pass, MC_PASSED_FD, 0) < 0))
        goto fail;
    if (a->dir && syscall(SYS_chdir, a->dir))
        goto fail;
    if (a->max_memory) {
        /* a runaway allocation fails in the child, and a crash leaves no core */
        struct rlimit as = {a->max_memory, a->max_memory}, core = {0, 0};
        if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &as, NULL) || syscall(SYS_prlimit64, 0, RLIMIT_CORE, &core, NULL))
            goto fail;
    }
    if (a->detached) /* a long-lived process keeps none of the application's files open */
        syscall(SYS_close_range, MC_PASSED_FD + 1, ~0u, 0);
    uint64_t none = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, sizeof none);
    r = syscall(SYS_execve, a->path, a->argv, a->envp);
    (void)r;
fail:
    a->err = errno ? errno : EINVAL;
    syscall(SYS_exit_group, 127);
    return 127;
}

/* ---- the environment --------------------------------------------------------------
 * clang reads CPATH, C_INCLUDE_PATH, CCC_OVERRIDE_OPTIONS and more from its
 * environment.  A kernel must build the same in every shell, and the kernel
 * cache's key holds no environment: whichever process built first would
 * decide what every later one gets.  So the tools see these variables alone
 * (docs/compiler.md, "The compiler's environment"):
 *   PATH=/usr/bin:/bin  the system's programs (the tool itself is found with
 *                       the application's PATH, as its setting names it)
 *   LC_ALL=C            messages as the log quotes them
 *   TMPDIR              Mosaic's (the TMPDIR setting): a tool's temporary
 *                       files go where the application wants them, and
 *                       change nothing a build makes */
static char child_path[] = "PATH=/usr/bin:/bin", child_locale[] = "LC_ALL=C";
static char child_tmpdir[4096 + sizeof "TMPDIR="];
static char *child_environment[4];
static pthread_once_t child_environment_once = PTHREAD_ONCE_INIT;

static void make_child_environment(void)
{
    size_t n = 0;
    child_environment[n++] = child_path;
    child_environment[n++] = child_locale;
    int len = snprintf(child_tmpdir, sizeof child_tmpdir, "TMPDIR=%s", mosaic_settings()->tmpdir);
    if (len > 0 && (size_t)len < sizeof child_tmpdir) /* else the tool's default, /tmp */
        child_environment[n++] = child_tmpdir;
    child_environment[n] = NULL;
}

char *const *mc_child_environment(void)
{
    pthread_once(&child_environment_once, make_child_environment);
    return child_environment;
}

/* argv0 as execvp would find it, in *path (malloc'd); an errno if it cannot be. */
static int find_program(const char *argv0, char **path)
{
    *path = NULL;
    if (strchr(argv0, '/'))
        return (*path = strdup(argv0)) ? 0 : ENOMEM;
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin";
    int err = ENOENT;
    for (const char *d = dirs;; d++) {
        size_t n = strcspn(d, ":");
        char *candidate;
        if (asprintf(&candidate, "%.*s%s%s", (int)n, d, n ? "/" : "", argv0) < 0)
            return ENOMEM;
        struct stat st;
        if (!stat(candidate, &st) && S_ISREG(st.st_mode)) {
            if (!access(candidate, X_OK)) {
                *path = candidate;
                return 0;
            }
            err = EACCES;
        }
        free(candidate);
        d += n;
        if (!*d)
            return err;
    }
}

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000 /* Linux 5.2 */
#endif

/* Starts the child; its pid, or -1 with the errno in *err.  *pidfd (when
 * pidfd is not NULL): a descriptor of the child, readable once it has
 * ended (close-on-exec), or -1 where the kernel gives none. */
static pid_t spawn(struct spawn_args *a, int *pidfd, int *err)
{
    const size_t stack_size = 256 * 1024;
    char *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        *err = errno;
        return -1;
    }
    a->parent = getpid();
    a->err = 0;
    int fd = -1; /* a kernel older than CLONE_PIDFD ignores the flag and leaves it */
    sigset_t old;
    block_all_signals(&old);
    /* CLONE_VFORK: this thread waits until the child has exec'd or exited. */
    pid_t pid = clone(child_main, stack + stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD | (pidfd ? CLONE_PIDFD : 0),
                      a, &fd);
    *err = pid < 0 ? errno : a->err;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof(uint64_t));
    munmap(stack, stack_size);
    if (pid > 0 && a->err) {
        if (fd >= 0)
            close(fd);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        return -1;
    }
    if (pidfd)
        *pidfd = pid > 0 ? fd : -1;
    return pid;
}

/* A time-out in mc_run_child: the child has not ended (nor been waited
 * for), so pid, and its process group, are still its own. */
static void kill_group(void *p)
{
    pid_t pid = *(pid_t *)p;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* After a child has ended: whatever it started and left running (its
 * process group) ends too.  Only while it is a zombie, so that its pid, and
 * the group's, can be no other process's. */
static void end_group(pid_t pid)
{
    siginfo_t si = {0};
    if (!waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid)
        kill(-pid, SIGKILL);
}

/* The output kept so far, and its cap. */
typedef struct kept_output {
    mosaic_strbuf *text;
    size_t kept, dropped, cap;
} kept_output;

/* A person reads the log: keep its beginning, count the rest. */
static void keep(kept_output *k, const char *buf, size_t n)
{
    size_t room = k->kept < k->cap ? k->cap - k->kept : 0;
    size_t now = n < room ? n : room;
    mosaic_strbuf_append(k->text, buf, now);
    k->kept += now;
    k->dropped += n - now;
}

/* Reads what the pipe holds now, waiting for nothing more: false at its end. */
static bool read_ready(int fd, kept_output *k, char *buf, size_t size)
{
    for (;;) {
        ssize_t r = read(fd, buf, size);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        keep(k, buf, (size_t)r);
        return true;
    }
}

bool mc_collect_output(int fd, int end_fd, const mc_child *c, mosaic_strbuf *output, void (*stop)(void *),
                       void *stop_arg)
{
    /* Read until the child has ended (end_fd readable), or, without
     * end_fd, until every copy of the pipe is closed; or the time is up. */
    int64_t deadline = c->timeout_ms ? now_ms() + c->timeout_ms : 0;
    bool timed_out = false, pipe_ended = false;
    kept_output k = {output, 0, 0, c->max_output ? c->max_output : MC_CHILD_MAX_OUTPUT};
    char buf[65536];
    while (!(pipe_ended && end_fd < 0)) {
        int wait = -1;
        if (deadline) {
            int64_t left = deadline - now_ms();
            wait = left > 0 ? (int)left : 0;
        }
        /* poll skips a negative descriptor */
        struct pollfd p[2] = {{pipe_ended ? -1 : fd, POLLIN, 0}, {end_fd, POLLIN, 0}};
        int n = poll(p, 2, wait);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (n == 0) {
            if (timed_out)
                break; /* stopped, yet it has not ended */
            stop(stop_arg);
            timed_out = true;
            deadline = now_ms() + 1000;
            continue;
        }
        if (p[0].revents && !read_ready(fd, &k, buf, sizeof buf))
            pipe_ended = true;
        if (p[1].revents) {
            /* It has ended, and what it wrote is in the pipe.  The pipe's
             * end may never come: a process that another thread of the
             * application fork()ed while the pipe was open holds a copy of
             * its writing end (close-on-exec closes it at an exec only).
             * So take what is there, a pipe's size at most (a process of
             * the child's left running could write on), and stop. */
            for (int reads = 0; !pipe_ended && reads < 16; reads++) {
                struct pollfd q = {fd, POLLIN, 0};
                if (poll(&q, 1, 0) != 1 || !read_ready(fd, &k, buf, sizeof buf))
                    break;
            }
            break;
        }
    }
    if (k.dropped)
        mosaic_strbuf_printf(output, "\n[output cut after %zu bytes: %zu more bytes not kept]\n", k.kept, k.dropped);
    return timed_out;
}

void mc_run_child(const char *const *argv, mc_child *c, mosaic_strbuf *output)
{
    c->end = MC_CHILD_NOT_STARTED;
    c->code = 0;
    char *path;
    int err = find_program(argv[0], &path);
    if (err) {
        c->code = err;
        return;
    }
    int out[2];
    if (pipe2(out, O_CLOEXEC)) { /* close-on-exec: children other threads spawn must not hold it open */
        c->code = errno;
        free(path);
        return;
    }
    struct spawn_args a = {.path = path, .argv = (char *const *)argv, .envp = mc_child_environment(),
                           .in = c->stdin_fd, .out = out[1], .pass = -1, .dir = c->dir, .max_memory = c->max_memory};
    int pidfd;
    pid_t pid = spawn(&a, &pidfd, &err);
    free(path);
    close(out[1]);
    if (pid < 0) {
        close(out[0]);
        c->code = err;
        return;
    }
    c->end = MC_CHILD_UNKNOWN;
    bool timed_out = mc_collect_output(out[0], pidfd, c, output, kill_group, &pid);
    close(out[0]);
    if (pidfd >= 0)
        close(pidfd);
    end_group(pid);
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    /* w < 0 (ECHILD): the application ignores SIGCHLD, the exit status is lost */
    mc_child_ended(c, timed_out, w == pid, status);
}

void mc_child_ended(mc_child *c, bool timed_out, bool status_known, int status)
{
    c->end = MC_CHILD_UNKNOWN;
    if (timed_out)
        c->end = MC_CHILD_TIMED_OUT;
    else if (status_known && WIFEXITED(status))
        c->end = MC_CHILD_EXITED, c->code = WEXITSTATUS(status);
    else if (status_known && WIFSIGNALED(status))
        c->end = MC_CHILD_SIGNALED, c->code = WTERMSIG(status);
}

pid_t mc_start_detached(const char *const *argv, char *const *envp, int pass, int *pidfd, int *err)
{
    char *path;
    *err = find_program(argv[0], &path);
    if (*err)
        return -1;
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) {
        *err = errno;
        free(path);
        return -1;
    }
    struct spawn_args a = {.path = path, .argv = (char *const *)argv, .envp = envp, .in = -1, .out = null,
                           .pass = pass, .detached = true, .dir = "/"};
    pid_t pid = spawn(&a, pidfd, err);
    close(null);
    free(path);
    return pid;
}
