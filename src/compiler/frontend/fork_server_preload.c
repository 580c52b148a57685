/* libmosaic-fork-server.so: turns the compiler program (clang-16) into a
 * fork server, so that a build pays for clang's start-up once per host
 * process instead of once per build (docs/compiler.md, "The compiler
 * process").
 *
 * The host starts the compiler with this library in LD_PRELOAD, LD_BIND_NOW
 * set and MOSAIC_FORK_SERVER_FD naming a socket.  The constructor below runs
 * after the dynamic loader has mapped and relocated clang's libraries and run
 * their static constructors (they are initialised before this library, which
 * depends on none of them), and before clang's main.  That start-up is most of
 * what a build of a small kernel costs.  Here the process stops and serves:
 * it answers each request at once and forks a watcher, which forks the
 * build.  The build takes the request's directory and file descriptors and
 * returns from this constructor into clang's main, with the argv the server
 * was started with (`clang @../clang.args`: the arguments are read from the
 * request's directory).  The watcher waits for it, kills its process group
 * when the host closes the request socket (a time-out) or when it has ended
 * (what it left running), and sends its wait status.
 *
 * Without MOSAIC_FORK_SERVER_FD the constructor does nothing.  The process
 * is single-threaded here (no main, no threads yet), so fork is safe. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/frontend/fork_server.h"

/* Reads one request and the descriptors that come with it; 0 at the end
 * (the host is gone), -1 on a malformed one. */
static int receive_request(int control, mc_fork_request *req, int fds[MC_FORK_REQUEST_FDS])
{
    union {
        char buf[CMSG_SPACE(MC_FORK_REQUEST_FDS * sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {req, sizeof *req};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    ssize_t n;
    while ((n = recvmsg(control, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    if (n <= 0)
        return 0;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    size_t nfds = c && c->cmsg_type == SCM_RIGHTS ? (c->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;
    for (size_t i = 0; i < MC_FORK_REQUEST_FDS; i++)
        fds[i] = -1;
    if (nfds)
        memcpy(fds, CMSG_DATA(c), (nfds < MC_FORK_REQUEST_FDS ? nfds : MC_FORK_REQUEST_FDS) * sizeof(int));
    if (n != sizeof *req || nfds != MC_FORK_REQUEST_FDS || (m.msg_flags & MSG_CTRUNC) ||
        !memchr(req->dir, 0, sizeof req->dir)) {
        for (size_t i = 0; i < nfds && i < MC_FORK_REQUEST_FDS; i++)
            close(fds[i]);
        return -1;
    }
    return 1;
}

/* In the build: becomes the process that clang's main will run in. */
static void become_build(const mc_fork_request *req, const int fds[MC_FORK_REQUEST_FDS], pid_t watcher)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != watcher)
        _exit(127);
    setpgid(0, 0); /* a time-out kills what it started too */
    if (dup2(fds[MC_FORK_STDIN], 0) < 0 || dup2(fds[MC_FORK_OUTPUT], 1) < 0 || dup2(fds[MC_FORK_OUTPUT], 2) < 0 ||
        chdir(req->dir))
        _exit(127);
    for (size_t i = 0; i < MC_FORK_REQUEST_FDS; i++)
        close(fds[i]);
    if (req->max_memory) {
        struct rlimit as = {req->max_memory, req->max_memory}, core = {0, 0};
        if (setrlimit(RLIMIT_AS, &as) || setrlimit(RLIMIT_CORE, &core))
            _exit(127);
    }
    signal(SIGCHLD, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* what clang starts must not become a server, nor load this library */
    unsetenv(MC_FORK_SERVER_FD_VARIABLE);
    unsetenv("LD_PRELOAD");
    unsetenv("LD_BIND_NOW");
}

/* In the watcher: starts the build, waits for it or for the host to give up
 * (the request socket closed), sends the wait status.  Never returns, but in
 * the build. */
static void watch_build(const mc_fork_request *req, const int fds[MC_FORK_REQUEST_FDS], int *returns_to_main)
{
    int reply = fds[MC_FORK_REPLY];
    pid_t watcher = getpid();
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_BLOCK, &chld, NULL); /* taken through the signalfd */
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC);
    pid_t build = sfd < 0 ? -1 : fork();
    int start_error = errno; /* when build < 0; the closes below may change errno */
    if (build == 0) {
        close(sfd);
        close(reply);
        become_build(req, fds, watcher);
        *returns_to_main = 1;
        return;
    }
    for (size_t i = 0; i < MC_FORK_REQUEST_FDS; i++)
        if (i != MC_FORK_REPLY)
            close(fds[i]);
    mc_fork_reply r = {.kind = build > 0 ? MC_FORK_ENDED : MC_FORK_NOT_STARTED, .error = build > 0 ? 0 : start_error};
    if (build > 0) {
        bool stopped = false;
        for (;;) {
            siginfo_t si = {0};
            if (!waitid(P_PID, build, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == build) {
                /* what it started and left running ends with it, while its
                 * pid (and so its group's) is still its own: not yet waited for */
                kill(-build, SIGKILL);
                while (waitpid(build, &r.status, 0) < 0 && errno == EINTR)
                    ;
                break;
            }
            struct pollfd p[2] = {{sfd, POLLIN, 0}, {reply, stopped ? 0 : POLLIN, 0}};
            if (poll(p, 2, -1) < 0 && errno != EINTR)
                break;
            if (p[0].revents) {
                struct signalfd_siginfo si;
                (void)!read(sfd, &si, sizeof si);
            }
            if (p[1].revents && !stopped) { /* the host gave up: a time-out, or it is going away */
                kill(-build, SIGKILL);
                kill(build, SIGKILL);
                stopped = true;
            }
        }
    }
    (void)!send(reply, &r, sizeof r, MSG_NOSIGNAL);
    _exit(0);
}

__attribute__((constructor)) static void serve(void)
{
    const char *fd_text = getenv(MC_FORK_SERVER_FD_VARIABLE);
    if (!fd_text)
        return;
    int control = atoi(fd_text);
    pid_t server = getpid();
    /* Watchers are reaped by the kernel; builds are reaped by their watcher. */
    signal(SIGCHLD, SIG_IGN);
    uint32_t ready = MC_FORK_SERVER_READY;
    if (send(control, &ready, sizeof ready, MSG_NOSIGNAL) != sizeof ready)
        _exit(0);
    for (;;) {
        mc_fork_request req;
        int fds[MC_FORK_REQUEST_FDS];
        int got = receive_request(control, &req, fds);
        if (got == 0)
            _exit(0); /* the host closed the socket: it is done, or dead */
        if (got < 0)
            continue;
        /* The host waits a short while for this answer, then gives up on
         * this server (stopped, hung) and runs the build itself: a request
         * it gave up on (its socket closed, readable here) starts nothing. */
        struct pollfd given_up = {fds[MC_FORK_REPLY], POLLIN, 0};
        mc_fork_reply accepted = {.kind = MC_FORK_ACCEPTED};
        pid_t watcher = poll(&given_up, 1, 0) == 0 && send(fds[MC_FORK_REPLY], &accepted, sizeof accepted,
                                                           MSG_NOSIGNAL) == sizeof accepted
                            ? fork()
                            : -1;
        if (watcher == 0) {
            close(control);
            /* dies with the server, which goes when the host does */
            if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != server)
                _exit(127);
            int returns_to_main = 0;
            watch_build(&req, fds, &returns_to_main);
            if (returns_to_main)
                return; /* into clang's main, as the build */
            _exit(0);
        }
        /* when the fork failed, the host sees the request socket close without the build's status */
        for (size_t i = 0; i < MC_FORK_REQUEST_FDS; i++)
            close(fds[i]);
    }
}
