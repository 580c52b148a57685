/*
 * MOSAIC_TRACE (src/core/trace.c): the timeline file a program's commands
 * leave, read back with a small JSON reader of this file.  Every case runs
 * its OpenCL part in a child process (settings are read once per process),
 * with MOSAIC_TRACE set there, and checks the file in the parent: valid JSON,
 * every event with its name, phase, process and track, each command's times
 * in order (queued <= submitted <= start <= end), the work-group and part
 * slices of each command inside its run and adding up to its groups.
 *
 *   usage: test_trace [case|--list]   (the cases: test_trace.list; none: all)
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_trace.list"
#include "test.h"
#include "cl_test.h"

/* ---- a JSON reader: the trace's events, flattened ------------------------------ */

typedef struct event {
    char name[96], ph[96], cat[96], type[96];
    bool has_pid, has_tid, has_ts;
    double ts, dur;
    double queued, submitted, start, end; /* a command's args (us) */
    long long command, queue, first, last, parts_first, parts_end, groups;
} event;

typedef struct reader {
    const char *p;
    bool ok;
    event *events;
    size_t count, cap;
    int depth;
} reader;

static void skip_ws(reader *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}

static bool expect(reader *r, char c)
{
    skip_ws(r);
    if (*r->p != c)
        return r->ok = false;
    r->p++;
    return true;
}

/* A string into buf (escapes kept as they are: names here are plain). */
static bool read_string(reader *r, char *buf, size_t size)
{
    skip_ws(r);
    if (*r->p != '"')
        return r->ok = false;
    size_t n = 0;
    for (r->p++; *r->p && *r->p != '"'; r->p++) {
        if (*r->p == '\\' && r->p[1])
            r->p++;
        if (n + 1 < size)
            buf[n++] = *r->p;
    }
    if (size)
        buf[n] = 0;
    if (*r->p != '"')
        return r->ok = false;
    r->p++;
    return true;
}

static bool read_value(reader *r, event *e, const char *key, bool in_args);

/* An object; with e, its members fill e (an event, or, in_args, its args). */
static bool read_object(reader *r, event *e, bool in_args)
{
    if (!expect(r, '{') || ++r->depth > 16)
        return r->ok = false;
    skip_ws(r);
    if (*r->p == '}') {
        r->p++;
        r->depth--;
        return true;
    }
    for (;;) {
        char key[64];
        if (!read_string(r, key, sizeof key) || !expect(r, ':') || !read_value(r, e, key, in_args))
            return r->ok = false;
        skip_ws(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        r->depth--;
        return expect(r, '}');
    }
}

static bool read_array(reader *r, bool events)
{
    if (!expect(r, '[') || ++r->depth > 16)
        return r->ok = false;
    skip_ws(r);
    if (*r->p == ']') {
        r->p++;
        r->depth--;
        return true;
    }
    for (;;) {
        event *e = NULL;
        skip_ws(r);
        if (events) {
            if (*r->p != '{')
                return r->ok = false;
            if (r->count == r->cap) {
                size_t cap = r->cap ? 2 * r->cap : 256;
                event *grown = realloc(r->events, cap * sizeof *grown);
                if (!grown)
                    return r->ok = false;
                r->events = grown;
                r->cap = cap;
            }
            e = &r->events[r->count++];
            memset(e, 0, sizeof *e);
            e->queued = e->submitted = e->start = e->end = -1;
            e->command = e->queue = e->first = e->last = e->parts_first = e->parts_end = e->groups = -1;
            if (!read_object(r, e, false))
                return false;
        } else if (!read_value(r, NULL, "", false)) {
            return false;
        }
        skip_ws(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        r->depth--;
        return expect(r, ']');
    }
}

static bool read_value(reader *r, event *e, const char *key, bool in_args)
{
    skip_ws(r);
    if (*r->p == '"') {
        char buf[96];
        if (!read_string(r, buf, sizeof buf))
            return false;
        if (e && !in_args && !strcmp(key, "name"))
            snprintf(e->name, sizeof e->name, "%s", buf);
        else if (e && !in_args && !strcmp(key, "ph"))
            snprintf(e->ph, sizeof e->ph, "%s", buf);
        else if (e && !in_args && !strcmp(key, "cat"))
            snprintf(e->cat, sizeof e->cat, "%s", buf);
        else if (e && in_args && !strcmp(key, "type"))
            snprintf(e->type, sizeof e->type, "%s", buf);
        return true;
    }
    if (*r->p == '{')
        return read_object(r, e && !in_args && !strcmp(key, "args") ? e : NULL, true);
    if (*r->p == '[')
        return read_array(r, !e && !in_args && !strcmp(key, "traceEvents"));
    if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "null", 4)) {
        r->p += 4;
        return true;
    }
    if (!strncmp(r->p, "false", 5)) {
        r->p += 5;
        return true;
    }
    char *end;
    double v = strtod(r->p, &end);
    if (end == r->p)
        return r->ok = false;
    r->p = end;
    if (!e)
        return true;
    if (!in_args) {
        if (!strcmp(key, "ts"))
            e->ts = v, e->has_ts = true;
        else if (!strcmp(key, "dur"))
            e->dur = v;
        else if (!strcmp(key, "pid"))
            e->has_pid = true;
        else if (!strcmp(key, "tid"))
            e->has_tid = true;
        return true;
    }
    static const struct { const char *key; size_t off; bool time; } fields[] = {
        {"queued", offsetof(event, queued), true},       {"submitted", offsetof(event, submitted), true},
        {"start", offsetof(event, start), true},         {"end", offsetof(event, end), true},
        {"command", offsetof(event, command), false},    {"queue", offsetof(event, queue), false},
        {"first_group", offsetof(event, first), false},  {"end_group", offsetof(event, last), false},
        {"first_part", offsetof(event, parts_first), false}, {"end_part", offsetof(event, parts_end), false},
        {"work_groups", offsetof(event, groups), false},
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (!strcmp(key, fields[i].key)) {
            if (fields[i].time)
                *(double *)((char *)e + fields[i].off) = v;
            else
                *(long long *)((char *)e + fields[i].off) = (long long)v;
        }
    return true;
}

/* Reads a trace ({"traceEvents": [...]}): NULL unless it is valid JSON of
 * that shape whose every event has a name, a phase, a pid and a tid, and a
 * ts unless it is metadata ("M"). */
static event *read_trace(const char *text, size_t *count)
{
    reader r = {.p = text, .ok = true};
    bool ok = read_object(&r, NULL, false);
    skip_ws(&r);
    ok = ok && r.ok && !*r.p && r.count > 0;
    for (size_t i = 0; ok && i < r.count; i++) {
        event *e = &r.events[i];
        ok = e->name[0] && e->ph[0] && e->has_pid && e->has_tid && (e->has_ts || !strcmp(e->ph, "M"));
    }
    if (!ok) {
        free(r.events);
        return NULL;
    }
    *count = r.count;
    return r.events;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* ---- the OpenCL side, in a child process --------------------------------------------- */

/* (it reads its group's size, so it runs in the groups it is given: a kernel
 * of global ids only may run in the device's, test_work_groups.c) */
static const char *kernel_source =
    "kernel void scale(global float *x, float k)\n"
    "{ size_t i = get_global_id(0); x[i] = x[i] * k + (float)(get_local_size(0) / 64); }\n";

enum { ITEMS = 4096, LOCAL = 64, BIG = 16 << 20 };

typedef struct cl_env {
    cl_context context;
    cl_device_id device;
    cl_program program;
} cl_env;

static bool env_open(cl_env *env)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &env->device, &env->context))
        return false;
    cl_int err;
    env->program = clCreateProgramWithSource(env->context, 1, &kernel_source, NULL, &err);
    return err == CL_SUCCESS && clBuildProgram(env->program, 1, &env->device, "", NULL, NULL) == CL_SUCCESS;
}

/* On queue q: a write and a kernel of ITEMS / LOCAL work-groups; with big, a
 * BIG fill and copy (cut into parts) too.  Then clFinish (whose marker, when
 * it needs one, check_trace does not count): 2 commands, 4 with big. */
static bool run_commands(cl_env *env, cl_command_queue q, bool big)
{
    cl_int err;
    cl_mem x = clCreateBuffer(env->context, CL_MEM_READ_WRITE, ITEMS * sizeof(float), NULL, &err);
    cl_kernel k = clCreateKernel(env->program, "scale", &err);
    float init[ITEMS] = {0}, two = 2.0f;
    bool ok = clEnqueueWriteBuffer(q, x, CL_FALSE, 0, sizeof init, init, 0, NULL, NULL) == CL_SUCCESS;
    ok = ok && clSetKernelArg(k, 0, sizeof x, &x) == CL_SUCCESS && clSetKernelArg(k, 1, sizeof two, &two) == CL_SUCCESS;
    size_t global = ITEMS, local = LOCAL;
    ok = ok && clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS;
    cl_mem a = NULL, b = NULL;
    if (big) {
        a = clCreateBuffer(env->context, CL_MEM_READ_WRITE, BIG, NULL, &err);
        b = clCreateBuffer(env->context, CL_MEM_READ_WRITE, BIG, NULL, &err);
        unsigned zero = 0;
        ok = ok && clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, BIG, 0, NULL, NULL) == CL_SUCCESS;
        ok = ok && clEnqueueCopyBuffer(q, a, b, 0, 0, BIG, 0, NULL, NULL) == CL_SUCCESS;
    }
    ok = ok && clFinish(q) == CL_SUCCESS;
    clReleaseKernel(k);
    clReleaseMemObject(x);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    return ok;
}

/* Runs child(arg) in a child process with MOSAIC_TRACE=path; true if it exited 0. */
static bool in_child(const char *path, bool (*child)(void *), void *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("MOSAIC_TRACE", path, 1);
        exit(child(arg) ? 0 : 1); /* exit, not _exit: the trace is completed at exit */
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

static void trace_path(char *buf, size_t size, const char *what)
{
    snprintf(buf, size, "%s/mosaic-trace-%d-%s.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(),
             what);
    unlink(buf);
}

/* ---- what every trace must hold ------------------------------------------------------ */

typedef struct expectation {
    int commands;      /* command events */
    int kernels;       /* of which kernels, each of ITEMS / LOCAL groups */
    int queues;        /* distinct queues */
    bool parts;        /* some command ran in parts */
} expectation;

/* Checks the trace at path against `want`. */
static void check_trace(const char *path, const expectation *want)
{
    char *text = slurp(path);
    CHECK(text != NULL, "no trace file at %s", path);
    if (!text)
        return;
    size_t n = 0;
    event *ev = read_trace(text, &n);
    CHECK(ev != NULL, "%s is not a valid trace", path);
    free(text);
    if (!ev)
        return;
    int commands = 0, kernels = 0, queues_seen[64] = {0}, queues = 0;
    bool parts = false;
    for (size_t i = 0; i < n; i++) {
        event *c = &ev[i];
        if (strcmp(c->cat, "command") || !strcmp(c->type, "marker"))
            continue; /* clFinish's marker is there only when something was still running */
        commands++;
        CHECK(!strcmp(c->ph, "X") && c->command > 0, "command event %s: phase %s, command %lld", c->name, c->ph,
              c->command);
        CHECK(c->queued >= 0 && c->queued <= c->submitted && c->submitted <= c->start && c->start <= c->end,
              "command %lld (%s): queued %.1f, submitted %.1f, start %.1f, end %.1f", c->command, c->name, c->queued,
              c->submitted, c->start, c->end);
        if (c->queue >= 0 && c->queue < 64 && !queues_seen[c->queue]++)
            queues++;
        /* its slices on the workers: inside its run, covering its groups */
        long long groups = 0;
        int slices = 0;
        for (size_t j = 0; j < n; j++) {
            event *w = &ev[j];
            if (w->command != c->command || (strcmp(w->cat, "work-groups") && strcmp(w->cat, "work")))
                continue;
            slices++;
            CHECK(w->ts + 1.0 >= c->start && w->ts + w->dur <= c->end + 1.0,
                  "a slice of command %lld at %.1f..%.1f, outside its run %.1f..%.1f", c->command, w->ts,
                  w->ts + w->dur, c->start, c->end);
            if (w->first >= 0)
                groups += w->last - w->first;
            if (w->parts_first >= 0) {
                parts = true;
                CHECK(w->parts_end > w->parts_first, "an empty part slice of command %lld", c->command);
            }
        }
        if (!strcmp(c->type, "kernel") || c->groups >= 0) {
            kernels++;
            CHECK(groups == ITEMS / LOCAL && c->groups == ITEMS / LOCAL,
                  "kernel command %lld: %lld work-groups in its slices, %lld in its record, expected %d", c->command,
                  groups, c->groups, ITEMS / LOCAL);
        }
        CHECK(slices > 0 || strcmp(c->type, "kernel"), "kernel command %lld has no slices", c->command);
    }
    CHECK(commands == want->commands, "%d commands in the trace, expected %d", commands, want->commands);
    if (commands != want->commands)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(ev[i].cat, "command"))
                fprintf(stderr, "  command %lld: %s (%s) on queue %lld\n", ev[i].command, ev[i].name, ev[i].type,
                        ev[i].queue);
    CHECK(kernels == want->kernels, "%d kernels in the trace, expected %d", kernels, want->kernels);
    CHECK(queues == want->queues, "%d queues in the trace, expected %d", queues, want->queues);
    CHECK(parts == want->parts, "parts %s in the trace", parts ? "found" : "not found");
    free(ev);
}

/* Runs child(arg) with a trace, then checks the trace against want. */
static void traced(const char *what, bool (*child)(void *), void *arg, expectation want)
{
    char path[256];
    trace_path(path, sizeof path, what);
    CHECK(in_child(path, child, arg), "the traced program failed (%s)", what);
    check_trace(path, &want);
    unlink(path);
}

static void env_close(cl_env *env)
{
    clReleaseProgram(env->program);
    clReleaseContext(env->context);
}

/* ---- the cases ------------------------------------------------------------------------- */

static bool child_two_queues(void *arg)
{
    (void)arg;
    cl_env env;
    if (!env_open(&env))
        return false;
    cl_command_queue q1 = clCreateCommandQueueWithProperties(env.context, env.device, NULL, NULL);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(env.context, env.device, NULL, NULL);
    bool ok = run_commands(&env, q1, false) && run_commands(&env, q2, true);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    env_close(&env);
    return ok;
}

TEST(two_queues)
{
    /* q1: a write and a kernel; q2: the same, a 16 MiB fill and copy (in parts) */
    traced("two", child_two_queues, NULL, (expectation){.commands = 6, .kernels = 2, .queues = 2, .parts = true});
}

/* LeakSanitizer's switch, in a sanitized build only (MOSAIC_SANITIZE). */
void __lsan_disable(void) __attribute__((weak));

static bool child_no_release(void *arg)
{
    (void)arg;
    if (__lsan_disable) /* what this child leaks, it leaks on purpose */
        __lsan_disable();
    cl_env env;
    if (!env_open(&env))
        return false;
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, NULL);
    return run_commands(&env, q, false); /* and exit with everything alive */
}

TEST(no_release)
{
    /* a program that never releases its objects: the exit handler completes the file */
    traced("norelease", child_no_release, NULL, (expectation){.commands = 2, .kernels = 1, .queues = 1});
}

static bool child_reopen(void *arg)
{
    (void)arg;
    for (int round = 0; round < 2; round++) { /* the last context goes between the rounds */
        cl_env env;
        if (!env_open(&env))
            return false;
        cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, NULL);
        bool ok = run_commands(&env, q, false);
        clReleaseCommandQueue(q);
        env_close(&env);
        if (!ok)
            return false;
    }
    return true;
}

TEST(reopen)
{
    traced("reopen", child_reopen, NULL, (expectation){.commands = 4, .kernels = 2, .queues = 2});
}

typedef struct thread_arg {
    cl_env *env;
    bool ok;
} thread_arg;

static void *enqueue_thread(void *p)
{
    thread_arg *t = p;
    cl_command_queue q = clCreateCommandQueueWithProperties(t->env->context, t->env->device, NULL, NULL);
    t->ok = true;
    for (int i = 0; i < 5; i++)
        t->ok &= run_commands(t->env, q, false);
    clReleaseCommandQueue(q);
    return NULL;
}

static bool child_threads(void *arg)
{
    (void)arg;
    enum { THREADS = 4 };
    cl_env env;
    if (!env_open(&env))
        return false;
    pthread_t th[THREADS];
    thread_arg args[THREADS];
    bool ok = true;
    for (int i = 0; i < THREADS; i++) {
        args[i] = (thread_arg){&env, false};
        ok &= !pthread_create(&th[i], NULL, enqueue_thread, &args[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        ok &= args[i].ok;
    }
    env_close(&env);
    return ok;
}

TEST(threads)
{
    /* four host threads, a queue each, five rounds of a write and a kernel */
    traced("threads", child_threads, NULL, (expectation){.commands = 40, .kernels = 20, .queues = 4});
}

TEST(unwritable)
{
    /* a path that cannot be opened: a warning, no trace, and the program runs */
    const char *path = "/nonexistent-mosaic-dir/trace.json";
    CHECK(in_child(path, child_two_queues, NULL), "the program failed with an unwritable trace path");
    CHECK(access(path, F_OK) != 0, "a trace appeared at %s", path);
}

/* Runs child(arg) with MOSAIC_TRACE=path and its stderr in a file; true if
 * it exited 0 within `seconds` (else it is killed).  *warnings: the lines of
 * its stderr that name MOSAIC_TRACE. */
static bool in_child_timed(const char *path, bool (*child)(void *), void *arg, int seconds, int *warnings)
{
    char err_path[4200];
    trace_path(err_path, sizeof err_path, "stderr");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *err = freopen(err_path, "w", stderr);
        setenv("MOSAIC_TRACE", path, 1);
        exit(err && child(arg) ? 0 : 1);
    }
    int status = 0;
    bool ended = false;
    for (int i = 0; i < seconds * 100 && !ended; i++) {
        ended = waitpid(pid, &status, WNOHANG) == pid;
        if (!ended)
            usleep(10000);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    *warnings = 0;
    FILE *f = fopen(err_path, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        *warnings += strstr(line, "MOSAIC_TRACE") != NULL;
    if (f)
        fclose(f);
    unlink(err_path);
    return ended && WIFEXITED(status) && !WEXITSTATUS(status);
}

TEST(not_a_regular_file)
{
    /* a FIFO with no reader: opening it for writing waited for one, inside
     * the program's first clCreateContext, for ever */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/mosaic-trace-%d-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    if (!mkdtemp(dir))
        TEST_FAIL("cannot make a directory in %s", dir);
    char fifo[4300];
    snprintf(fifo, sizeof fifo, "%s/trace.fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    int warnings = -1;
    CHECK(in_child_timed(fifo, child_two_queues, NULL, 30, &warnings),
          "the program with MOSAIC_TRACE naming a FIFO without a reader did not end within 30 s");
    CHECK(warnings == 1, "%d warnings about MOSAIC_TRACE", warnings);
    /* with a reader: refused too (the trace is rewritten in place), and the reader sees no data */
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    CHECK(reader >= 0);
    CHECK(in_child_timed(fifo, child_two_queues, NULL, 30, &warnings),
          "the program with MOSAIC_TRACE naming a FIFO with a reader failed");
    CHECK(warnings == 1, "%d warnings about MOSAIC_TRACE", warnings);
    char byte;
    CHECK(read(reader, &byte, 1) <= 0, "the FIFO's reader got a trace");
    close(reader);
    /* a directory and a device: one warning each, and the program runs */
    CHECK(in_child_timed(dir, child_two_queues, NULL, 30, &warnings), "MOSAIC_TRACE naming a directory");
    CHECK(warnings == 1, "%d warnings about MOSAIC_TRACE naming a directory", warnings);
    CHECK(in_child_timed("/dev/null", child_two_queues, NULL, 30, &warnings), "MOSAIC_TRACE naming /dev/null");
    CHECK(warnings == 1, "%d warnings about MOSAIC_TRACE naming /dev/null", warnings);
    unlink(fifo);
    rmdir(dir);
    /* and a regular file still gets its trace */
    char path[4200];
    trace_path(path, sizeof path, "regular");
    CHECK(in_child_timed(path, child_two_queues, NULL, 60, &warnings) && warnings == 0,
          "a regular trace file: %d warnings", warnings);
    CHECK(access(path, F_OK) == 0, "no trace at %s", path);
    unlink(path);
}

TEST(json_checker)
{
    /* the reader above must refuse what is not a trace, else the cases prove nothing */
    static const char *const bad[] = {
        "",
        "{\"traceEvents\":[]}",                                                       /* no events */
        "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3}",    /* unclosed */
        "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"ts\":3}]}",            /* no tid */
        "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"tid\":2}]}",           /* no ts */
        "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3},]}", /* trailing comma */
        "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3}]}x",  /* trailing bytes */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n;
        event *e = read_trace(bad[i], &n);
        CHECK(e == NULL, "the reader took bad trace %zu", i);
        free(e);
    }
    size_t n = 0;
    event *e = read_trace("{\"traceEvents\":[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,"
                          "\"args\":{\"name\":\"w\"}},{\"name\":\"k\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3.5,"
                          "\"dur\":1,\"cat\":\"command\",\"args\":{\"command\":7,\"queued\":1}}]}",
                          &n);
    CHECK(e && n == 2 && e[1].command == 7 && e[1].queued == 1.0 && e[1].ts == 3.5, "the reader refused a good trace");
    free(e);
}

int main(int argc, char **argv)
{
    alarm(120);
    test_run(argc, argv);
    return test_summary();
}
