/* Hostile and careless inputs (issue 7): each case once crashed the host,
 * exhausted its memory, hung, or reported success for work not done. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_hostile_inputs.list"
#include "test.h"
#include "cl_test.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static void open_device(void)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        exit(1);
    cl_int err;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Runs `kernel` on `global` work-items with stdout going to a temporary
 * file; returns what was printed (malloc'd) and its length. */
static char *run_capturing_stdout(cl_kernel kernel, size_t global, size_t *length)
{
    char path[] = "/tmp/mosaic-printf-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return NULL;
    unlink(path);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    off_t size = lseek(fd, 0, SEEK_END);
    char *text = malloc((size_t)size + 1);
    CHECK(text && pread(fd, text, (size_t)size, 0) == size);
    close(fd);
    if (text)
        text[size] = 0;
    *length = (size_t)size;
    return text;
}

/* printf widths and precisions taken from data: "%*d" with 2,000,000,000
 * once wrote 2 GB and grew the process by 4 GB.  Now a field is at most
 * 100,000 characters, and a thread's output buffer never holds much more
 * than 1 MB, newline or not. */
TEST(printf_widths_from_data)
{
    static const char *source =
        "kernel void fields(global const int *a) {\n"
        "    if (get_global_id(0) == 0) {\n"
        "        printf(\"[%*d]\\n\", a[0], 1);\n"
        "        printf(\"[%.*f]\\n\", a[1], 1.0f);\n"
        "        printf(\"[%*d]\\n\", a[2], 7);\n"
        "        printf(\"[%*.*e]\\n\", a[0], a[1], 2.0);\n"
        "    }\n"
        "}\n"
        "kernel void no_newline(global const int *a) { printf(\"%*d\", a[0], 3); }\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL1.2");
    if (!program)
        return;
    cl_int err;
    int fields[3] = { 2000000000, 2000000000, -2000000000 };
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof fields, fields, &err);
    CHECK_ERR(err, CL_SUCCESS);
    long rss_before = max_rss_kib();

    cl_kernel k = clCreateKernel(program, "fields", &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    size_t n;
    char *text = run_capturing_stdout(k, 1, &n);
    enum { FIELD = 100000 };
    CHECK(n < 4 * (FIELD + 200) + 16);
    if (text) {
        /* "[", 99,999 spaces, "1", "]" */
        char *line = text, *nl = strchr(line, '\n');
        CHECK(nl && nl - line == FIELD + 2 && line[FIELD] == '1' && line[1] == ' ');
        /* "[1." and 100,000 zeros "]" */
        line = nl ? nl + 1 : line;
        nl = strchr(line, '\n');
        CHECK(nl && nl - line == FIELD + 4 && !strncmp(line, "[1.000", 6));
        /* a negative width: left-justified, 100,000 wide */
        line = nl ? nl + 1 : line;
        nl = strchr(line, '\n');
        CHECK(nl && nl - line == FIELD + 2 && !strncmp(line, "[7 ", 3));
        line = nl ? nl + 1 : line;
        nl = strchr(line, '\n');
        CHECK(nl && !strncmp(line, "[2.000", 6) && nl - line < FIELD + 16);
    }
    free(text);
    clReleaseKernel(k);

    /* 64 work-items, each 100,000 characters without a newline: all of it
     * comes out, 6.4 MB, though no thread holds it all */
    k = clCreateKernel(program, "no_newline", &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    text = run_capturing_stdout(k, 64, &n);
    CHECK(n == 64 * (size_t)FIELD);
    size_t threes = 0;
    for (size_t i = 0; text && i < n; i++)
        threes += text[i] == '3';
    CHECK(threes == 64);
    free(text);
    clReleaseKernel(k);

    long grown_mib = (max_rss_kib() - rss_before) / 1024;
    printf("printf: peak memory grew by %ld MiB\n", grown_mib);
    CHECK(grown_mib < 256);
    clReleaseMemObject(a);
    clReleaseProgram(program);
}

/* NDRanges whose work-group arithmetic overflows: once "completed" having
 * run nothing (SIZE_MAX) or 2 work-items ({2^63+1, 2}). */
TEST(ndrange_overflow)
{
    static const char *source = "kernel void count(global int *n) { atomic_inc(n); }\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL2.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "count", &err);
    int zero = 0;
    cl_mem n = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof n, &n), CL_SUCCESS);

    size_t huge = SIZE_MAX;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &huge, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t wraps[2] = { ((size_t)1 << 63) + 1, 2 }, ones[2] = { 1, 1 };
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, wraps, ones, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t wraps3[3] = { (size_t)1 << 32, (size_t)1 << 32, 2 };
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 3, NULL, wraps3, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
    /* a local size that rounds the range up past SIZE_MAX */
    size_t odd = SIZE_MAX - 1, local = 3;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, &local, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);

    /* the same kernel still runs what it is given */
    size_t global[2] = { 1000, 3 };
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int count = 0;
    CHECK_ERR(clEnqueueReadBuffer(queue, n, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL), CL_SUCCESS);
    CHECK(count == 3000);
    clReleaseMemObject(n);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* Runs kernel `name` of `program` on one work-item; returns what it wrote. */
static int run_one_int(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!k)
        return -1;
    int value = -1;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof value, &value, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    return value;
}

/* Embedded headers named like the compiler's own files: a header called
 * "input.cl" once replaced the program's source. */
TEST(headers_named_like_internal_files)
{
    static const char *names[] = { "input.cl", "source.cl", "__mosaic_prelude.h", "clang.log", "clang.args",
                                   "out.bc", "include/input.cl" };
    enum { N = sizeof names / sizeof names[0] };
    cl_program headers[N];
    cl_int err;
    for (int i = 0; i < N; i++) {
        char text[64];
        snprintf(text, sizeof text, "#define VALUE_%d %d\n", i, 10 + i);
        const char *t = text;
        headers[i] = clCreateProgramWithSource(context, 1, &t, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
    }
    /* the source includes two of them and leaves the rest alone */
    static const char *source = "#include \"input.cl\"\n"
                                "#include <__mosaic_prelude.h>\n"
                                "kernel void one(global int *o) { *o = 1; }\n"
                                "kernel void included(global int *o) { *o = VALUE_0 + VALUE_2; }\n";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(clCompileProgram(program, 1, &device, "", N, headers, names, NULL, NULL), CL_SUCCESS);
    cl_program linked = clLinkProgram(context, 1, &device, "", 1, &program, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (linked) {
        CHECK(run_one_int(linked, "one") == 1);
        CHECK(run_one_int(linked, "included") == 22);
        clReleaseProgram(linked);
    }
    clReleaseProgram(program);
    for (int i = 0; i < N; i++)
        clReleaseProgram(headers[i]);
}

/* 4 MB of build options: clang's command line once failed with E2BIG. */
TEST(long_option_strings)
{
    size_t cap = 4200000, len = 0;
    char *options = malloc(cap);
    len += (size_t)snprintf(options, cap, "-D \"SPACED=(1 + 1)\" -DQUOTED=\\\"q\\\" ");
    int defines = 0;
    while (len < 4000000)
        len += (size_t)snprintf(options + len, cap - len, "-D M%d=%d ", defines, defines), defines++;
    char source[256];
    snprintf(source, sizeof source,
             "kernel void sum(global int *o) { *o = M0 + M1 + M%d + SPACED + sizeof(QUOTED); }\n", defines - 1);
    const char *s = source;
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &s, NULL, &err);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS)
        CHECK(run_one_int(program, "sum") == 0 + 1 + (defines - 1) + 2 + 2);
    else {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build log: %.4000s\n", log);
    }
    printf("%zu bytes of options, %d macros\n", len, defines);
    clReleaseProgram(program);
    free(options);
}

static void CL_CALLBACK count_callback(cl_event event, cl_int status, void *data)
{
    (void)event;
    if (status == CL_COMPLETE)
        ++*(volatile int *)data;
}

/* The child's part of fork_child: a new kernel, the parent's queue, and a
 * callback, each of which needs the workers and callback thread the fork
 * did not copy.  Exit status 0: all worked. */
static int child_after_fork(void)
{
    alarm(60); /* a hang fails the test instead of blocking it */
    int failed_before = test_failed;
    static const char *source = "kernel void twice(global int *x) { x[get_global_id(0)] *= 2; }\n";
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return 2;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "twice", &err);
    int data[256];
    for (int i = 0; i < 256; i++)
        data[i] = i;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    size_t global = 256;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &done), CL_SUCCESS);
    volatile int callbacks = 0;
    CHECK_ERR(clSetEventCallback(done, CL_COMPLETE, count_callback, (void *)&callbacks), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 256; i++)
        CHECK(data[i] == 2 * i);
    for (int i = 0; i < 1000 && !callbacks; i++)
        usleep(10000);
    CHECK(callbacks == 1);
    clReleaseEvent(done);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(program);
    return test_failed == failed_before ? 0 : 1;
}

/* A process that used Mosaic, then forked: the child once hung on its first
 * kernel (the workers are threads, and fork copies only the caller). */
TEST(fork_child)
{
    /* use everything first: workers, the callback thread, the compiler */
    static const char *source = "kernel void inc(global int *x) { x[get_global_id(0)] += 1; }\n";
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "inc", &err);
    int zero[64] = { 0 };
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    size_t global = 64;
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &done), CL_SUCCESS);
    static volatile int callbacks; /* static: the callback may run after this function returns */
    CHECK_ERR(clSetEventCallback(done, CL_COMPLETE, count_callback, (void *)&callbacks), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseEvent(done);

    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_after_fork());
    CHECK(pid > 0);
    /* the parent goes on as before, while the child runs */
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int out[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out[0] == 2 && out[63] == 2);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (WIFSIGNALED(status))
        fprintf(stderr, "the child was killed by signal %d (SIGALRM: it hung)\n", WTERMSIG(status));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* ---- a build after the process gave up root ---------------------------------------------- */

#define SECRET_MARK "mosaic-secret-4d0f2a"

/* The child's part of dropped_privileges: builds once as root (a source no
 * cache has), becomes nobody, then builds a kernel that includes `secret`,
 * a file only root may read.  Exit status 0: refused, and the log names
 * the file without quoting it. */
static int child_dropping_privileges(const char *secret)
{
    alarm(120); /* a hang fails the test instead of blocking it */
    char source[200];
    snprintf(source, sizeof source, "/* %d %.0f */ kernel void k(global int *o) { o[0] = 1; }\n", (int)getpid(),
             test_now_ms());
    cl_program p = test_build_program(context, device, source, "");
    if (!p)
        return 2;
    clReleaseProgram(p);
    if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)) {
        perror("becoming nobody");
        return 3;
    }
    char text[300];
    snprintf(text, sizeof text, "#include \"%s\"\nkernel void k(global int *o) { o[0] = 2; }\n", secret);
    const char *src = text;
    cl_int err;
    cl_program q = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    err = clBuildProgram(q, 1, &device, "", NULL, NULL);
    static char log[1 << 16];
    clGetProgramBuildInfo(q, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    clReleaseProgram(q);
    if (err != CL_BUILD_PROGRAM_FAILURE || strstr(log, SECRET_MARK) || !strstr(log, "secret.h")) {
        fprintf(stderr, "clBuildProgram as nobody: %d, log:\n%s\n", err, log);
        return 4;
    }
    return 0;
}

/* A process that built as root, then became nobody, builds as nobody: a
 * kernel that includes a file only root may read fails, its log without
 * the file's text.  The compiler's fork server, started as root by the
 * first build, once read it for nobody.  (With MOSAIC_NO_FORK_SERVER=1 too.) */
TEST(dropped_privileges)
{
    if (geteuid() != 0)
        TEST_SKIP("needs root, to become nobody");
    char dir[] = "/tmp/mosaic-secret-XXXXXX", secret[64];
    CHECK(mkdtemp(dir) && chmod(dir, 0755) == 0);
    snprintf(secret, sizeof secret, "%s/secret.h", dir);
    int fd = open(secret, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    static const char shadow_like[] = "root:$6$" SECRET_MARK "$:19000:0:99999:7:::\n";
    CHECK(fd >= 0 && write(fd, shadow_like, strlen(shadow_like)) == (ssize_t)strlen(shadow_like) &&
          fchmod(fd, 0600) == 0);
    if (fd >= 0)
        close(fd);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_dropping_privileges(secret));
    CHECK(pid > 0);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the child: %s %d (2: the build as root failed, 3: it could not become nobody, 4: the build as nobody "
          "was not refused, or quoted the file)",
          WIFEXITED(status) ? "exit status" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    unlink(secret);
    rmdir(dir);
}

/* ---- builds while another thread forks ------------------------------------------------------ */

#define FORK_FDS 1024
static bool pipe_writer_before[FORK_FDS]; /* the test's own, before the builds */
static int *caught;                        /* shared with the children: how many held a new pipe */
static int forker_stop;

/* Is fd the writing end of a pipe?  Async-signal-safe calls only: a
 * forked child of a process with threads may call nothing else. */
static bool is_pipe_writer(int fd)
{
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && (flags & O_ACCMODE) == O_WRONLY && !fstat(fd, &st) && S_ISFIFO(st.st_mode);
}

/* Does this process hold one, among its first fds descriptors, that the
 * test did not have (a build's output)? */
static bool holds_new_pipe_writer(int fds)
{
    for (int fd = 3; fd < fds; fd++)
        if (!pipe_writer_before[fd] && is_pipe_writer(fd))
            return true;
    return false;
}

/* A prefork server of the application: another thread forks children that
 * keep every descriptor they were born with and live on, here 8 s, longer
 * than clang may take (MOSAIC_BUILD_TIMEOUT_S is 5 in the list).  It
 * forks when it sees a build's pipe open, so that a few forks are enough
 * (each makes the whole process copy-on-write: forking every few
 * milliseconds slows every build down many times); a child born after the
 * pipe closed leaves at once. */
static void *forker(void *arg)
{
    (void)arg;
    pid_t children[64];
    int n = 0;
    while (!__atomic_load_n(&forker_stop, __ATOMIC_RELAXED)) {
        if (n < 64 && holds_new_pipe_writer(128)) {
            pid_t pid = fork();
            if (pid == 0) {
                if (holds_new_pipe_writer(FORK_FDS)) {
                    __atomic_add_fetch(caught, 1, __ATOMIC_RELAXED);
                    sleep(8);
                }
                _exit(0);
            }
            if (pid > 0)
                children[n++] = pid;
        }
        for (int i = 0; i < n;)
            if (waitpid(children[i], NULL, WNOHANG) == children[i])
                children[i] = children[--n];
            else
                i++;
        usleep(50);
    }
    for (int i = 0; i < n; i++) {
        kill(children[i], SIGKILL);
        waitpid(children[i], NULL, 0);
    }
    return NULL;
}

/* Builds while another thread forks children that live on: a child holding
 * the build's output pipe once kept the build waiting for the pipe's end,
 * its whole time-out, and failed it (the build ends when clang does).  Ten
 * builds at least, and on until three children were born holding a build's
 * pipe (60 builds at most). */
TEST(builds_beside_fork)
{
    caught = mmap(NULL, sizeof *caught, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(caught != MAP_FAILED);
    if (caught == MAP_FAILED)
        return;
    for (int fd = 3; fd < FORK_FDS; fd++)
        pipe_writer_before[fd] = is_pipe_writer(fd);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, forker, NULL) == 0);
    int builds = 0;
    for (; builds < 60 && (builds < 10 || __atomic_load_n(caught, __ATOMIC_RELAXED) < 3); builds++) {
        char source[160];
        snprintf(source, sizeof source, "kernel void k(global int *o) { o[get_global_id(0)] = %d; }\n", builds);
        double t = test_now_ms();
        cl_program p = test_build_program(context, device, source, "");
        t = test_now_ms() - t;
        CHECK(p != NULL, "build %d", builds);
        CHECK(t < 5000, "build %d took %.0f ms, longer than clang's time-out", builds, t);
        if (p)
            clReleaseProgram(p);
    }
    __atomic_store_n(&forker_stop, 1, __ATOMIC_RELAXED);
    pthread_join(thread, NULL);
    printf("%d builds, %d children born holding a build's pipe\n", builds, *caught);
    munmap(caught, sizeof *caught);
}

int main(int argc, char **argv)
{
    open_device();
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
