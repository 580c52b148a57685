/* Child processes of the compiler: clang-16 (the front end) and opt-16 (the
 * bitcode checker of program binaries).  posix_spawn only: the process is
 * multithreaded, so never fork() without exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler_internal.h"

extern char **environ;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void mc_run_child(const char *const *argv, mc_child *c, mosaic_strbuf *output)
{
    c->end = MC_CHILD_NOT_STARTED;
    c->code = 0;
    int out[2];
    if (pipe2(out, O_CLOEXEC)) { /* close-on-exec: children other threads spawn must not hold it open */
        c->code = errno;
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (c->stdin_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, c->stdin_fd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, out[1], 2);
    if (c->dir)
        posix_spawn_file_actions_addchdir_np(&fa, c->dir);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (err) {
        close(out[0]);
        c->code = err;
        return;
    }
    c->end = MC_CHILD_UNKNOWN;
    if (c->max_memory) {
        /* Set as soon as it runs (it is still loading its libraries): a
         * runaway allocation fails in the child, and a crash leaves no core. */
        struct rlimit as = {c->max_memory, c->max_memory}, core = {0, 0};
        prlimit(pid, RLIMIT_AS, &as, NULL);
        prlimit(pid, RLIMIT_CORE, &core, NULL);
    }
    /* Read until every copy of the pipe is closed (the child ended), or the time is up. */
    int64_t deadline = c->timeout_ms ? now_ms() + c->timeout_ms : 0;
    bool timed_out = false;
    char buf[4096];
    for (;;) {
        int wait = -1;
        if (deadline) {
            int64_t left = deadline - now_ms();
            wait = left > 0 ? (int)left : 0;
        }
        struct pollfd p = {out[0], POLLIN, 0};
        int n = poll(&p, 1, wait);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            if (timed_out)
                break; /* killed, yet something else holds the pipe open */
            kill(pid, SIGKILL); /* its end of the pipe is open: still running, pid is still ours */
            timed_out = true;
            deadline = now_ms() + 1000;
            continue;
        }
        ssize_t r = read(out[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        mosaic_strbuf_append(output, buf, (size_t)r);
    }
    close(out[0]);
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    /* w < 0 (ECHILD): the application ignores SIGCHLD, the exit status is lost */
    if (timed_out)
        c->end = MC_CHILD_TIMED_OUT;
    else if (w == pid && WIFEXITED(status))
        c->end = MC_CHILD_EXITED, c->code = WEXITSTATUS(status);
    else if (w == pid && WIFSIGNALED(status))
        c->end = MC_CHILD_SIGNALED, c->code = WTERMSIG(status);
}
