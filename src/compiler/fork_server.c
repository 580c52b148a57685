/* The host's side of the compiler's fork server (fork_server.h; the server
 * is fork_server_preload.c, loaded into clang).
 *
 * Starting clang-16 costs more than compiling a small kernel: the dynamic
 * loader maps and relocates libLLVM and libclang-cpp, and their static
 * constructors run (docs/performance.md, "Where a cold one-kernel build
 * goes").  So the first build of a process starts clang once, stopped before
 * its main, and every build forks it from there.  The builds keep what
 * mc_run_child gives: a time-out that kills the build and what it started,
 * death with the host (the server leaves when its socket closes, the builds
 * when their server or watcher dies), a capped log.
 *
 * One server per process, for one argv; under `lock`.  A server that cannot
 * be started (the library is missing, the compiler is not a dynamically
 * linked program, it never says it is ready) is not tried again: builds run
 * clang afresh (mc_run_child), as they do with MOSAIC_NO_FORK_SERVER. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/compiler_internal.h"
#include "compiler/fork_server.h"

#define PRELOAD_NAME "libmosaic-fork-server.so"
#define READY_TIMEOUT_MS 10000 /* clang's start-up, on a loaded machine, is well under it */
#define ANSWER_TIMEOUT_MS 2000 /* the server answers a request at once, in microseconds */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int control;   /* the socket to the running server; -1: none */
    pid_t pid;
    char *argv;    /* the argv it runs, its strings one after the other */
    size_t argv_size;
    bool unusable; /* could not be started: not tried again */
} server = {.control = -1};

/* The library beside libmosaic.so, or NULL (unit tests link Mosaic's objects
 * into their own program, and have none beside them). */
static const char *preload_path(void)
{
    static char path[4096];
    Dl_info info;
    if (!dladdr((void *)mc_fork_server_run, &info) || !info.dli_fname)
        return NULL;
    const char *slash = strrchr(info.dli_fname, '/');
    int n = slash ? snprintf(path, sizeof path, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
                             PRELOAD_NAME)
                  : snprintf(path, sizeof path, "%s", PRELOAD_NAME);
    /* LD_PRELOAD splits at spaces and colons */
    if (n <= 0 || (size_t)n >= sizeof path || strpbrk(path, " :") || access(path, R_OK))
        return NULL;
    return path;
}

/* argv's strings one after the other, NUL-terminated each, in *size bytes. */
static char *flatten(const char *const *argv, size_t *size)
{
    size_t n = 0;
    for (size_t i = 0; argv[i]; i++)
        n += strlen(argv[i]) + 1;
    char *flat = malloc(n ? n : 1);
    if (!flat)
        return NULL;
    char *p = flat;
    for (size_t i = 0; argv[i]; i++)
        p = stpcpy(p, argv[i]) + 1;
    *size = n;
    return flat;
}

/* The compiler children's environment (mc_child_environment) and the
 * server's three variables; a build unsets those three, so it runs with the
 * children's environment alone.  The preload is ours alone: nothing of the
 * application's LD_PRELOAD (a sanitizer's runtime, valgrind's) belongs in
 * clang. */
static char **server_environment(const char *preload, char *own[3])
{
    char *const *fixed = mc_child_environment();
    size_t n = 0;
    while (fixed[n])
        n++;
    char **env = calloc(n + 4, sizeof *env);
    if (!env)
        return NULL;
    if (asprintf(&own[0], "LD_PRELOAD=%s", preload) < 0)
        own[0] = NULL;
    own[1] = strdup("LD_BIND_NOW=1"); /* every symbol bound once, in the server, not again per build */
    if (asprintf(&own[2], "%s=%d", MC_FORK_SERVER_FD_VARIABLE, MC_PASSED_FD) < 0)
        own[2] = NULL;
    memcpy(env, fixed, n * sizeof *env);
    for (int i = 0; i < 3; i++)
        env[n + i] = own[i];
    if (!own[0] || !own[1] || !own[2]) {
        free(env);
        return NULL;
    }
    return env;
}

static void stop_server(void)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    if (server.control < 0)
        return;
    close(server.control); /* it leaves when its socket closes */
    server.control = -1;
    kill(-server.pid, SIGKILL);
    while (waitpid(server.pid, NULL, 0) < 0 && errno == EINTR)
        ;
    free(server.argv);
    server.argv = NULL;
}

/* Waits for the server's first word; true when it is the expected one.  A
 * server that dies first says so through its pidfd (when there is one): the
 * socket's end may not come, a fork() of the application holding a copy. */
static bool ready(int control, int pidfd)
{
    struct pollfd p[2] = {{control, POLLIN, 0}, {pidfd, POLLIN, 0}};
    int n;
    while ((n = poll(p, 2, READY_TIMEOUT_MS)) < 0 && errno == EINTR)
        ;
    uint32_t word = 0;
    return n > 0 && p[0].revents && recv(control, &word, sizeof word, MSG_DONTWAIT) == sizeof word &&
           word == MC_FORK_SERVER_READY;
}

static bool start_server(const char *const *argv, const char *flat, size_t flat_size)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    const char *preload = preload_path();
    int sv[2];
    if (!preload || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
        return false;
    char *own[3] = {NULL, NULL, NULL};
    char **env = server_environment(preload, own);
    int err = 0, pidfd = -1;
    pid_t pid = env ? mc_start_detached(argv, env, sv[1], &pidfd, &err) : -1;
    free(env);
    for (int i = 0; i < 3; i++)
        free(own[i]);
    close(sv[1]);
    char *copy = pid > 0 ? malloc(flat_size) : NULL;
    bool is_ready = copy && ready(sv[0], pidfd);
    if (pidfd >= 0)
        close(pidfd);
    if (is_ready) {
        server.control = sv[0];
        server.pid = pid;
        server.argv = memcpy(copy, flat, flat_size);
        server.argv_size = flat_size;
        return true;
    }
    free(copy);
    close(sv[0]);
    if (pid > 0) {
        kill(-pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (mosaic_settings()->debug)
        fprintf(stderr, "mosaic: the compiler '%s' cannot be a fork server; every build starts it afresh\n",
                argv[0]);
    return false;
}

/* Sends the request; false when no server (for this argv) takes it.  The
 * server's pid in *to. */
static bool send_request(const char *const *argv, const mc_fork_request *req, const int fds[MC_FORK_REQUEST_FDS],
                         pid_t *to)
{
    union {
        char buf[CMSG_SPACE(MC_FORK_REQUEST_FDS * sizeof(int))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof u);
    struct iovec iov = {(void *)req, sizeof *req};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(MC_FORK_REQUEST_FDS * sizeof(int));
    memcpy(CMSG_DATA(c), fds, MC_FORK_REQUEST_FDS * sizeof(int));

    size_t flat_size;
    char *flat = flatten(argv, &flat_size);
    if (!flat)
        return false;
    bool sent = false;
    pthread_mutex_lock(&lock);
    if (server.control >= 0 && (server.argv_size != flat_size || memcmp(server.argv, flat, flat_size)))
        stop_server(); /* the settings were read again, with another compiler */
    /* a second try: the server may have died (killed, out of memory) since the last build */
    for (int attempt = 0; attempt < 2 && !sent && !server.unusable; attempt++) {
        if (server.control < 0 && !start_server(argv, flat, flat_size)) {
            server.unusable = true;
            break;
        }
        ssize_t n;
        while ((n = sendmsg(server.control, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
            ;
        sent = n == (ssize_t)sizeof *req;
        if (sent)
            *to = server.pid;
        else
            stop_server();
    }
    pthread_mutex_unlock(&lock);
    free(flat);
    return sent;
}

/* A server that did not answer a request in time (stopped, hung) goes; the
 * next request starts another.  Unless another thread has already replaced
 * it. */
static void replace_server(pid_t pid)
{
    pthread_mutex_lock(&lock);
    if (server.control >= 0 && server.pid == pid) {
        if (mosaic_settings()->debug)
            fprintf(stderr, "mosaic: the compiler's fork server (pid %d) did not answer in %d ms; it is replaced\n",
                    (int)pid, ANSWER_TIMEOUT_MS);
        stop_server();
    }
    pthread_mutex_unlock(&lock);
}

/* One reply from the request's socket: 1 when it came, 0 when the socket
 * closed without one (the server or the watcher died), -1 when none came
 * within timeout_ms. */
static int receive_reply(int reply, int timeout_ms, mc_fork_reply *r)
{
    struct pollfd p = {reply, POLLIN, 0};
    int n;
    while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
        ;
    if (n == 0)
        return -1;
    ssize_t got;
    while ((got = recv(reply, r, sizeof *r, MSG_DONTWAIT)) < 0 && errno == EINTR)
        ;
    return got == (ssize_t)sizeof *r;
}

/* A time-out: the watcher kills the build when the request socket says no more. */
static void stop_build(void *reply)
{
    shutdown(*(int *)reply, SHUT_WR);
}

/* With the server's acceptance of the request in hand: the build's output
 * into output until its status comes; false, with output as it was, when
 * the watcher died before that (it was killed, or its server was). */
static bool run_accepted(int out, int reply, mc_child *c, mosaic_strbuf *output)
{
    size_t output_at = output->len;
    c->end = MC_CHILD_UNKNOWN;
    c->code = 0;
    /* The build has ended when its status comes on the reply socket (or the
     * socket closes: its watcher died), not when the output closes. */
    bool timed_out = mc_collect_output(out, reply, c, output, stop_build, &reply);
    mc_fork_reply r;
    int got = receive_reply(reply, 0, &r);
    if (got == 1 && r.kind == MC_FORK_NOT_STARTED) {
        c->end = MC_CHILD_NOT_STARTED;
        c->code = r.error;
        return true;
    }
    bool ended = got == 1 && r.kind == MC_FORK_ENDED;
    if (!ended && !timed_out) {
        mosaic_strbuf_truncate(output, output_at);
        return false;
    }
    mc_child_ended(c, timed_out, ended, r.status);
    return true;
}

bool mc_fork_server_run(const char *const *argv, mc_child *c, mosaic_strbuf *output)
{
    mc_fork_request req = {.max_memory = c->max_memory};
    if (mosaic_settings()->no_fork_server || !c->dir || c->dir[0] != '/' ||
        (size_t)snprintf(req.dir, sizeof req.dir, "%s", c->dir) >= sizeof req.dir)
        return false;
    /* where clang's input starts: a build run afresh after all reads it from there again */
    off_t input_at = c->stdin_fd >= 0 ? lseek(c->stdin_fd, 0, SEEK_CUR) : 0;
    if (input_at < 0)
        return false;
    int reply[2], out[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, reply))
        return false;
    if (pipe2(out, O_CLOEXEC)) {
        close(reply[0]), close(reply[1]);
        return false;
    }
    int in = c->stdin_fd >= 0 ? c->stdin_fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
    int fds[MC_FORK_REQUEST_FDS];
    fds[MC_FORK_REPLY] = reply[1];
    fds[MC_FORK_STDIN] = in;
    fds[MC_FORK_OUTPUT] = out[1];
    pid_t server_pid = 0;
    bool sent = in >= 0 && send_request(argv, &req, fds, &server_pid);
    close(reply[1]);
    close(out[1]);
    if (in >= 0 && in != c->stdin_fd)
        close(in);
    bool ran = false;
    if (sent) {
        /* The server answers at once.  Without an answer it is stopped or
         * hung, and replaced; when the socket closes without one, the server
         * died with the request: either way the build has not run. */
        mc_fork_reply r;
        int got = receive_reply(reply[0], ANSWER_TIMEOUT_MS, &r);
        if (got < 0)
            replace_server(server_pid);
        if (got == 1 && r.kind == MC_FORK_ACCEPTED)
            ran = run_accepted(out[0], reply[0], c, output);
    }
    /* closing the socket stops whatever of the build is left */
    close(reply[0]);
    close(out[0]);
    if (!ran && c->stdin_fd >= 0)
        lseek(c->stdin_fd, input_at, SEEK_SET);
    return ran;
}
