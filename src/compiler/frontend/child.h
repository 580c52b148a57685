/*
 * The compiler's child processes (clang, opt, the SPIR-V tools): running
 * one with a time and memory limit and its output kept (child.c), through
 * the fork server when one serves (fork_server.c).
 */
#ifndef MOSAIC_COMPILER_FRONTEND_CHILD_H
#define MOSAIC_COMPILER_FRONTEND_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include "base/strbuf.h"

typedef struct mc_child {
    const char *dir;     /* working directory, or NULL */
    int stdin_fd;        /* -1: /dev/null */
    int timeout_ms;      /* then it is killed; 0: no limit */
    uint64_t max_memory; /* its address space limit in bytes (and no core file); 0: none */
    size_t max_output;   /* bytes of its output kept (a line says how much more there was); 0: MC_CHILD_MAX_OUTPUT */
    enum { MC_CHILD_UNKNOWN, MC_CHILD_EXITED, MC_CHILD_SIGNALED, MC_CHILD_TIMED_OUT, MC_CHILD_NOT_STARTED } end;
    int code;            /* the exit status, the signal, or (not started) the errno */
} mc_child;
#define MC_CHILD_MAX_OUTPUT ((size_t)1 << 20)
/* The environment every compiler child runs with, whatever this process's
 * is (child.c): NULL-terminated, never freed. */
char *const *mc_child_environment(void);
/* Runs argv (argv[0] looked up in PATH) with mc_child_environment(), its
 * stdout and stderr appended to output.  The child dies with this process
 * (SIGKILL); a time-out kills its process group, and so does its end (what
 * it started and left running).  Nothing to fail here: what became of the
 * child, that it could not start included, is in c->end and c->code
 * (MC_CHILD_UNKNOWN when the application ignores SIGCHLD and the exit
 * status is lost). */
void mc_run_child(const char *const *argv, mc_child *c, mosaic_strbuf *output);
/* Reads a child's output from fd into output (as mc_run_child keeps it)
 * until the child has ended: end_fd is readable then (a pidfd, a socket its
 * status comes on), and what the pipe holds is taken without waiting for
 * its end, which a fork() of the application may hold off; with end_fd -1,
 * until every copy of the pipe is closed.  When c->timeout_ms runs out
 * first, calls stop(stop_arg), waits up to a second more, and returns true. */
bool mc_collect_output(int fd, int end_fd, const mc_child *c, mosaic_strbuf *output, void (*stop)(void *),
                       void *stop_arg);
/* c->end and c->code from how the child ended: timed out, or its wait status
 * (when known). */
void mc_child_ended(mc_child *c, bool timed_out, bool status_known, int status);
/* Starts argv in / with envp, its output discarded, and descriptor pass
 * (-1: none) as its MC_PASSED_FD; it outlives the calling thread (no death
 * signal) and leads a process group.  Its pid, or -1 with the errno in
 * *err; *pidfd, readable once it has ended, or -1 where the kernel gives
 * none (the caller closes it). */
#define MC_PASSED_FD 3
pid_t mc_start_detached(const char *const *argv, char *const *envp, int pass, int *pidfd, int *err);

/* ---- the compiler's fork server (fork_server.c) ------------------------------- */
/* Runs argv as mc_run_child does, through a fork server started from the same
 * argv (docs/compiler.md, "The compiler process").  False when the build did
 * not run there, with c->stdin_fd's offset and output as they were: no
 * server can serve it, the server did not answer in time (it is replaced),
 * or it or the build's watcher died before the build's end.  Then run it
 * with mc_run_child.  c->dir must be an absolute path. */
bool mc_fork_server_run(const char *const *argv, mc_child *c, mosaic_strbuf *output);

#endif
