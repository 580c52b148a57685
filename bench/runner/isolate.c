/*
 * The rows in child processes: the child's records and the parent that
 * reads them, runs rows again after a crash and gathers the results
 * (isolate.h says how).
 */
#define _GNU_SOURCE
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A record on the pipe: this head, then `len` bytes. */
enum { RECORD_STEP, RECORD_PLATFORMS, RECORD_ROW };
typedef struct record_head {
    int kind;
    int row;    /* table index; -1: none (opening the platforms) */
    size_t len; /* STEP: a platform's name (empty: the runner's code); PLATFORMS: bench_platform[]; ROW: bench_result */
} record_head;

enum { NAME_LEN = sizeof((bench_platform *)0)->name };

/* ---- the child ---- */

static int channel_fd = -1;
static int step_row = -2;
static char step_platform[NAME_LEN] = "-"; /* no step sent yet */

static void send_record(int kind, int row, const void *payload, size_t len)
{
    if (channel_fd < 0)
        return;
    record_head h = { kind, row, len };
    const struct {
        const void *p;
        size_t n;
    } parts[2] = { { &h, sizeof h }, { payload, len } };
    for (int k = 0; k < 2; k++)
        for (size_t done = 0; done < parts[k].n;) {
            ssize_t w = write(channel_fd, (const char *)parts[k].p + done, parts[k].n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(3); /* the parent is gone: nobody to run for */
            done += (size_t)w;
        }
}

void channel_open(int fd)
{
    /* Close-on-exec from now on: a process a platform starts (a compiler,
     * a linker) must not hold the pipe open, or the parent would wait for
     * its end after this process died. */
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    channel_fd = fd;
}

void channel_step(int row, const char *platform)
{
    if (!platform)
        platform = "";
    if (channel_fd < 0 || (row == step_row && !strcmp(platform, step_platform)))
        return;
    step_row = row;
    snprintf(step_platform, sizeof step_platform, "%s", platform);
    send_record(RECORD_STEP, row, step_platform, strlen(step_platform));
}

void channel_platforms(const bench_platform *platforms, int n)
{
    send_record(RECORD_PLATFORMS, -1, platforms, (size_t)n * sizeof *platforms);
}

void channel_row(int row, const bench_result *r) { send_record(RECORD_ROW, row, r, sizeof *r); }

/* ---- the parent ---- */

/* What the parent knows of the child running now. */
typedef struct child {
    pid_t pid;
    int fd; /* the pipe's end to read */
    bench_platform platforms[MAX_PLATFORMS];
    int nplatforms; /* -1: no list yet */
    int stepped;    /* a step record came */
    int step_row;
    char step_platform[NAME_LEN];
} child;

/* Platforms left out of a row (or of the run), and why: a list that
 * becomes a --skip-platforms argument. */
typedef struct skip_list {
    char names[MAX_PLATFORMS][NAME_LEN];
    char why[MAX_PLATFORMS][256];
    int n;
} skip_list;

static void skip_add(skip_list *s, const char *name, const char *why)
{
    if (s->n == MAX_PLATFORMS)
        return;
    snprintf(s->names[s->n], NAME_LEN, "%s", name);
    snprintf(s->why[s->n], sizeof s->why[0], "%s", why);
    s->n++;
}

static void skip_join(const skip_list *s, char *out, size_t len, size_t *used)
{
    for (int i = 0; i < s->n; i++)
        *used += (size_t)snprintf(out + *used, *used < len ? len - *used : 0, "%s%s", *used ? "," : "", s->names[i]);
}

static int read_full(int fd, void *p, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t r = read(fd, (char *)p + done, n - done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

/* Starts this program again with the job's arguments, --only `only`,
 * --skip-platforms `skip` and --result-fd: the pipe's writing end, which
 * alone stays open across the exec. */
static int spawn_child(const isolate_job *job, const char *only, const char *skip, child *c)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC))
        return -1;
    fcntl(fds[1], F_SETFD, 0);
    char fd_arg[16];
    snprintf(fd_arg, sizeof fd_arg, "%d", fds[1]);
    const char *argv[64];
    int n = 0;
    while (job->args[n] && n < 56) {
        argv[n] = job->args[n];
        n++;
    }
    argv[n++] = "--only";
    argv[n++] = only;
    if (*skip) {
        argv[n++] = "--skip-platforms";
        argv[n++] = skip;
    }
    argv[n++] = "--result-fd";
    argv[n++] = fd_arg;
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    int err = posix_spawn(&c->pid, "/proc/self/exe", NULL, NULL, (char *const *)argv, environ);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        errno = err;
        return -1;
    }
    c->fd = fds[0];
    c->nplatforms = -1;
    c->stepped = 0;
    c->step_row = -1;
    c->step_platform[0] = 0;
    return 0;
}

static int platform_index(const run_info *run, const char *name)
{
    for (int i = 0; i < run->nplatforms; i++)
        if (!strcmp(run->platforms[i].name, name))
            return i;
    return -1;
}

static int is_mosaic(const char *platform) { return !strcmp(platform, "Mosaic"); }

static int skipped(const skip_list *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return 1;
    return 0;
}

/* The run's platforms: the first list a child sends.  Only names, versions
 * and devices are of use here: the parent makes no OpenCL call. */
static void adopt_platforms(run_info *run, bench_platform *platforms, const child *c)
{
    memcpy(platforms, c->platforms, sizeof *platforms * (size_t)c->nplatforms);
    run->platforms = platforms;
    run->nplatforms = c->nplatforms;
    run->base = 0;
    for (int i = 0; i < run->nplatforms; i++)
        if (is_mosaic(platforms[i].name)) {
            run->base = i;
            break;
        }
    run->twin = run->nplatforms;
    run->alt = run->nplatforms + 1;
    run->blas = run->nplatforms + 2;
}

/* A child's row in the run's columns: its platforms by name, then the twin,
 * the alternative and OpenBLAS; the platforms that crashed in it marked so. */
static void store_row(const isolate_job *job, const run_info *run, const child *c, int row, const bench_result *in,
                      const skip_list *crashed, bench_result *out)
{
    *out = *in;
    job->row_identity(out, row);
    memset(out->impl, 0, sizeof out->impl);
    for (int i = 0; i < c->nplatforms; i++) {
        int j = platform_index(run, c->platforms[i].name);
        if (j >= 0)
            out->impl[j] = in->impl[i];
    }
    for (int h = 0; h < 3; h++)
        out->impl[run->twin + h] = in->impl[c->nplatforms + h];
    for (int k = 0; k < crashed->n; k++) {
        int j = platform_index(run, crashed->names[k]);
        if (j >= 0) {
            out->impl[j].status = STATUS_CRASH;
            snprintf(out->impl[j].why, sizeof out->impl[j].why, "%s", crashed->why[k]);
        }
    }
}

/* A row no child finished, for a crash outside any platform's calls: every
 * column says so. */
static void store_lost_row(const isolate_job *job, const run_info *run, int row, const char *why, bench_result *out)
{
    memset(out, 0, sizeof *out);
    job->row_identity(out, row);
    out->lost = true;
    for (int i = 0; i <= run->twin; i++) {
        out->impl[i].status = STATUS_CRASH;
        snprintf(out->impl[i].why, sizeof out->impl[i].why, "%s", why);
    }
}

/* Reads the child's records until it closes the pipe; its rows go to
 * results from *next on, *next moving past each. */
static void read_child(const isolate_job *job, run_info *run, bench_platform *platforms, child *c, int *next,
                       skip_list *crashed, bench_result *results)
{
    static union {
        bench_platform platforms[MAX_PLATFORMS];
        bench_result result;
        char name[NAME_LEN];
    } payload;
    record_head h;
    while (read_full(c->fd, &h, sizeof h) == 0) {
        if (h.len > sizeof payload || read_full(c->fd, &payload, h.len))
            break;
        if (h.kind == RECORD_STEP) {
            c->stepped = 1;
            c->step_row = h.row;
            snprintf(c->step_platform, sizeof c->step_platform, "%.*s", (int)h.len, payload.name);
        } else if (h.kind == RECORD_PLATFORMS) {
            c->nplatforms = (int)(h.len / sizeof(bench_platform));
            memcpy(c->platforms, payload.platforms, h.len);
            if (!run->platforms)
                adopt_platforms(run, platforms, c);
        } else if (h.kind == RECORD_ROW && c->nplatforms >= 0 && *next < job->nrows && h.row == job->rows[*next]) {
            store_row(job, run, c, h.row, &payload.result, crashed, &results[*next]);
            (*next)++;
            crashed->n = 0;
        }
    }
    close(c->fd);
}

/* How a child that did not finish ended: "(signal 6, Aborted)". */
static void describe_end(int wstatus, char *out, size_t len)
{
    if (WIFSIGNALED(wstatus))
        snprintf(out, len, "(signal %d, %s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
    else if (WIFEXITED(wstatus))
        snprintf(out, len, "(it exited with status %d)", WEXITSTATUS(wstatus));
    else
        snprintf(out, len, "(wait status %#x)", (unsigned)wstatus);
}

/* The --only list: the row `first` alone, or it and every row after it. */
static void only_list(const isolate_job *job, int first, int alone, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int k = first; k < (alone ? first + 1 : job->nrows); k++)
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s", k > first ? "," : "",
                                 job->row_name(job->rows[k]));
}

/* After a child died: what to leave out next time, or the rows lost.  Returns 1 where the
 * crash is Mosaic's or the runner's (the run's exit status), -1 when no row can run any more. */
static int after_crash(const isolate_job *job, run_info *run, const child *c, const char *how, int *next,
                       skip_list *skip_run, skip_list *crashed, bench_result *results)
{
    char why[256];
    const char *platform = c->step_platform;
    /* A platform left out already cannot have crashed again: were it named
     * so, the crash is taken for the runner's, so that every child makes
     * progress. */
    int known = c->stepped && platform[0] && !skipped(skip_run, platform) && !skipped(crashed, platform);
    if (known && c->step_row < 0) {
        /* opening a platform: left out of the whole run */
        size_t used = strlen(run->crash_note);
        snprintf(run->crash_note + used, sizeof run->crash_note - used,
                 "%s%s%s crashed %s opening its device: left out of the run", used ? "; " : "",
                 is_mosaic(platform) ? "MOSAIC CRASHED (a bug of Mosaic): " : "", platform, how);
        fprintf(stderr, "\nbench_runner: %s crashed %s opening its device: leaving it out of the run\n", platform,
                how);
        skip_add(skip_run, platform, "");
        return is_mosaic(platform);
    }
    if (known && c->step_row == job->rows[*next] && platform_index(run, platform) >= 0) {
        snprintf(why, sizeof why, "%s in its calls%s; the row ran again without it", how,
                 is_mosaic(platform) ? ": a bug of Mosaic" : "");
        fprintf(stderr, "\nbench_runner: %s: %s crashed %s; running the row again without it\n",
                job->row_name(job->rows[*next]), platform, how);
        skip_add(crashed, platform, why);
        return is_mosaic(platform);
    }
    /* The runner's own code (setup, a twin, OpenBLAS) or before any record
     * (clGetPlatformIDs, which loads every platform's library): nothing to
     * leave out.  In a row, the row is lost; else every row left. */
    int lost_all = !c->stepped || c->step_row != job->rows[*next];
    if (!c->stepped)
        snprintf(why, sizeof why, "%s before it opened a platform (clGetPlatformIDs loads them all: OCL_ICD_VENDORS "
                 "can leave one out)", how);
    else
        snprintf(why, sizeof why, "%s outside the platforms' calls: a bug of the runner", how);
    fprintf(stderr, "\nbench_runner: the child process running %s crashed %s\n",
            lost_all ? "the rows" : job->row_name(job->rows[*next]), why);
    for (int last = lost_all ? job->nrows : *next + 1; *next < last; (*next)++)
        store_lost_row(job, run, job->rows[*next], why, &results[*next]);
    crashed->n = 0;
    return lost_all ? -1 : 1;
}

int isolate_run(const isolate_job *job, run_info *run, bench_platform *platforms, bench_result *results)
{
    int status = 0, next = 0;
    skip_list skip_run = { 0 }, crashed = { 0 }; /* left out of every row; out of row `next` */
    static char only[8192], skip[MAX_PLATFORMS * NAME_LEN * 2];
    /* No platform until a child lists them (NULL: none listed yet). */
    run->platforms = NULL;
    run->nplatforms = run->base = 0;
    run->twin = 0;
    run->alt = 1;
    run->blas = 2;
    while (next < job->nrows) {
        int alone = crashed.n > 0; /* a row run again after a crash: alone, the rows after it with everything */
        only_list(job, next, alone, only, sizeof only);
        size_t used = 0;
        skip[0] = 0;
        skip_join(&skip_run, skip, sizeof skip, &used);
        skip_join(&crashed, skip, sizeof skip, &used);
        child c;
        if (spawn_child(job, only, skip, &c)) {
            char why[256];
            snprintf(why, sizeof why, "(no child process to run it: %s)", strerror(errno));
            fprintf(stderr, "bench_runner: %s\n", why);
            for (; next < job->nrows; next++)
                store_lost_row(job, run, job->rows[next], why, &results[next]);
            if (!run->platforms)
                run->platforms = platforms;
            return 1;
        }
        int first = next, wstatus = 0;
        read_child(job, run, platforms, &c, &next, &crashed, results);
        while (waitpid(c.pid, &wstatus, 0) < 0 && errno == EINTR)
            ;
        int done = next == (alone ? first + 1 : job->nrows);
        char how[96];
        describe_end(wstatus, how, sizeof how);
        if (done && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
            fprintf(stderr, "bench_runner: the child process died %s after its last row: its results stand\n", how);
            status = 1;
        }
        if (done)
            continue;
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 2 && c.nplatforms < 0 && !c.step_platform[0])
            return 2; /* bad usage (no platform by the names given), which it has told */
        int r = after_crash(job, run, &c, how, &next, &skip_run, &crashed, results);
        if (r < 0)
            return 1;
        status |= r;
    }
    if (!run->platforms)
        run->platforms = platforms; /* no child listed any: the twins alone */
    return status;
}
