/* The host's side of the compiler's fork server (fork_server.h; the server
 * is fork_server_preload.c, loaded into clang).
 *
 * Starting clang-16 costs more than compiling a small kernel: the dynamic
 * loader maps and relocates libLLVM and libclang-cpp, and their static
 * constructors run (docs/history/performance-journal.md, "Where a cold
 * one-kernel build goes").  So the first build of a process starts clang
 * once, stopped before its main, and every build forks it from there.  The builds keep what
 * mc_run_child gives: a time-out that kills the build and what it started,
 * death with the host (the server leaves when its socket closes, the builds
 * when their server or watcher dies), a capped log.
 *
 * One server per process, for one argv and one identity (thread_identity:
 * the credentials and whatever else decides what a build may read); under
 * `lock`.  A build whose thread's identity is not the server's (the process
 * dropped root after its first build) gets a new server, started from its
 * thread.  A server that cannot be started (the library is missing, the
 * compiler is not a dynamically linked program, it never says it is ready)
 * is not tried again: builds run clang afresh (mc_run_child), as they do
 * with MOSAIC_NO_FORK_SERVER. */
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
#include <linux/capability.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/frontend/child.h"
#include "compiler/frontend/fork_server.h"

#define READY_TIMEOUT_MS 10000 /* clang's start-up, on a loaded machine, is well under it */
#define ANSWER_TIMEOUT_MS 2000 /* the server answers a request at once, in microseconds */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int control;             /* the socket to the running server; -1: none */
    pid_t pid;
    char *argv;              /* the argv it runs, its strings one after the other */
    size_t argv_size;
    mosaic_strbuf identity;  /* thread_identity of the thread that started it */
    bool unusable;           /* could not be started: not tried again */
} server = {.control = -1};
/* Servers stopped but not yet waited for (they leave when they read their
 * socket's end, which one that is stopped never does); 0: a free slot.
 * When none is free, a server left as a zombie until this process exits. */
static pid_t retired[8];

/* ---- whose builds a server runs ----------------------------------------------------
 * A server runs every build with what it had when it started: its user and
 * groups above all.  A process that builds once as root, then becomes
 * another user, must not have its later builds read root's files (a kernel
 * that includes /etc/shadow would quote it in its log).  So the server
 * records what decides what a process may read and use, as the thread that
 * started it had it, and a build from a thread that has other values gets a
 * new server: its user, group and file system ids (real, effective, saved),
 * its supplementary groups, its capabilities, no_new_privs, its securebits
 * and seccomp mode, its root directory (chroot) and mount and user
 * namespaces (which file a name is), its resource limits.  All are the
 * calling thread's: a thread may hold credentials of its own. */
static void put(mosaic_strbuf *s, const void *value, size_t size)
{
    mosaic_strbuf_append(s, (const char *)value, size);
}

static void thread_identity(mosaic_strbuf *id)
{
    uid_t uids[3] = {0, 0, 0};
    gid_t gids[3] = {0, 0, 0};
    getresuid(&uids[0], &uids[1], &uids[2]);
    getresgid(&gids[0], &gids[1], &gids[2]);
    put(id, uids, sizeof uids);
    put(id, gids, sizeof gids);
    /* an invalid id changes nothing and returns the current one */
    int fs_ids[2] = {setfsuid((uid_t)-1), setfsgid((gid_t)-1)};
    put(id, fs_ids, sizeof fs_ids);
    int ngroups = getgroups(0, NULL);
    gid_t *groups = ngroups > 0 ? calloc((size_t)ngroups, sizeof *groups) : NULL;
    if (groups)
        ngroups = getgroups(ngroups, groups);
    put(id, &ngroups, sizeof ngroups);
    if (groups && ngroups > 0)
        put(id, groups, (size_t)ngroups * sizeof *groups);
    free(groups);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
    memset(caps, 0, sizeof caps);
    syscall(SYS_capget, &header, caps);
    put(id, caps, sizeof caps);
    int flags[3] = {prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), prctl(PR_GET_SECUREBITS, 0, 0, 0, 0),
                    prctl(PR_GET_SECCOMP, 0, 0, 0, 0)};
    put(id, flags, sizeof flags);
    static const char *const places[] = {"/", "/proc/thread-self/ns/mnt", "/proc/thread-self/ns/user"};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        struct stat st;
        uint64_t where[2] = {0, 0};
        if (!stat(places[i], &st))
            where[0] = st.st_dev, where[1] = st.st_ino;
        put(id, where, sizeof where);
    }
    for (int r = 0; r < RLIM_NLIMITS; r++) {
        struct rlimit limit = {0, 0};
        getrlimit(r, &limit);
        put(id, &limit, sizeof limit);
    }
}

static bool same_identity(const mosaic_strbuf *a, const mosaic_strbuf *b)
{
    return !a->oom && !b->oom && a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

/* ---- fork() ---------------------------------------------------------------------------
 * A child of fork() has no server: the server is its parent's child, and
 * runs its parent's builds.  The child closes its copy of the socket (so
 * that the server still leaves when its host does) and starts a server of
 * its own at its first build.  `lock` is held across the fork, so that the
 * child's copy of `server` is whole. */
static void before_fork(void) { pthread_mutex_lock(&lock); }

static void after_fork_in_parent(void) { pthread_mutex_unlock(&lock); }

static void after_fork_in_child(void)
{
    pthread_mutex_init(&lock, NULL);
    if (server.control >= 0)
        close(server.control);
    free(server.argv);
    mosaic_strbuf_free(&server.identity);
    bool unusable = server.unusable;
    memset(&server, 0, sizeof server);
    server.control = -1;
    server.unusable = unusable;
    memset(retired, 0, sizeof retired);
}

/* Registered before the first build, with no lock held: fork() holds
 * glibc's handler list lock while it takes ours. */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void register_fork_handlers(void)
{
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

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
                             MC_FORK_SERVER_LIBRARY)
                  : snprintf(path, sizeof path, "%s", MC_FORK_SERVER_LIBRARY);
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

/* Waits, without blocking, for the stopped servers that have gone. */
static void reap_retired(void)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
        if (retired[i] && waitpid(retired[i], NULL, WNOHANG) != 0) /* gone, or not ours to wait for */
            retired[i] = 0;
}

static void stop_server(void)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    if (server.control < 0)
        return;
    /* Its socket closed, a server leaves at once, its watchers with it (and
     * their builds, which then run afresh): that is all a process that gave
     * up root may do to a server started as root.  SIGKILL ends one that is
     * stopped or hung, where this process may signal it. */
    close(server.control);
    server.control = -1;
    kill(-server.pid, SIGKILL);
    if (waitpid(server.pid, NULL, WNOHANG) == 0) { /* not gone yet: waited for by a later build */
        size_t slot = 0;
        for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
            if (!retired[i])
                slot = i;
        retired[slot] = server.pid;
    }
    free(server.argv);
    server.argv = NULL;
    mosaic_strbuf_free(&server.identity);
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

/* Starts a server from this thread, whose identity is *identity. */
static bool start_server(const char *const *argv, const char *flat, size_t flat_size,
                         const mosaic_strbuf *identity)
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
        MOSAIC_ASSERT(!server.identity.len);
        mosaic_strbuf_append(&server.identity, identity->data, identity->len);
        return true;
    }
    free(copy);
    close(sv[0]);
    if (pid > 0) {
        kill(-pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
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
    mosaic_strbuf identity = {0};
    thread_identity(&identity);
    bool sent = false;
    pthread_mutex_lock(&lock);
    reap_retired();
    if (server.control >= 0 && (server.argv_size != flat_size || memcmp(server.argv, flat, flat_size)))
        stop_server(); /* the settings were read again, with another compiler */
    if (server.control >= 0 && !same_identity(&server.identity, &identity)) {
        if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
            fprintf(stderr, "mosaic: this thread's credentials are not the compiler's fork server's (pid %d); "
                            "it is replaced\n", (int)server.pid);
        stop_server();
    }
    /* a second try: the server may have died (killed, out of memory) since the last build */
    for (int attempt = 0; attempt < 2 && !sent && !server.unusable && !identity.oom; attempt++) {
        if (server.control < 0 && !start_server(argv, flat, flat_size, &identity)) {
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
    mosaic_strbuf_free(&identity);
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
        if (mosaic_debugging(MOSAIC_DEBUG_BUILD))
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
    pthread_once(&fork_handlers_once, register_fork_handlers);
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
