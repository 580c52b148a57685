/* Builds that cost milliseconds, and a compiler child process that cannot
 * hurt the host (issue 11): the front end's cache proven by builds that
 * succeed while MOSAIC_CLANG is /bin/false (and SPIR-V programs' while the
 * translator and the validator are), its safety (a foreign entry, a FIFO, a
 * directory others may write to), and clang hung, flooding its log,
 * writing garbage, or orphaned by a host killed mid-build.
 *
 * Settings are read once per process, so every build here runs in a host
 * process of its own: this program again, as `test_build_cache --host ...`
 * (see host_main), with the environment the case gives it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_build_cache.list"
#include "test.h"
#include "cl_test.h"

/* ---- the host process ------------------------------------------------------------------
 * --host build|compile|il|binary|linked-binary EXPECT OPTIONS SOURCE [HEADER]
 * builds SOURCE (clBuildProgram; or, for compile, clCompileProgram with
 * HEADER as the embedded header "val.h", then clLinkProgram; for il, see
 * host_build_il; for binary and linked-binary, see host_build_binary) and runs its
 * kernel k(global int *o) on 16 work-items, which must all write EXPECT.
 * It builds the same source 5 more times (new program objects; none with
 * TEST_HOST_ONCE=1 in its environment; after TEST_HOST_PAUSE_MS; as nobody
 * with TEST_HOST_DROP=1) and prints "first <ms> again <ms>" (TEST_HOST_LINGER:
 * see the end of host_main)
 * (the first build, the fastest of the others).
 * Exit status: 0 right, 10 the build failed (its error code and log
 * printed), 11 wrong results, 12 no device. */
/* The bytes of the file at path (a SPIR-V module); NULL when it cannot be read. */
static unsigned char *read_module(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    if (f && !fseek(f, 0, SEEK_END) && ftell(f) > 0) {
        *size = (size_t)ftell(f);
        data = malloc(*size);
        fseek(f, 0, SEEK_SET);
        if (data && fread(data, 1, *size, f) != *size) {
            free(data);
            data = NULL;
        }
    }
    if (f)
        fclose(f);
    return data;
}

/* il: SOURCE is a SPIR-V file, HEADER the value of its specialization
 * constant 1 (an int; "" leaves the default): clCreateProgramWithIL,
 * clSetProgramSpecializationConstant, clBuildProgram. */
static cl_program host_build_il(cl_context context, cl_device_id device, const char *options, const char *path,
                                const char *spec, cl_int *err)
{
    size_t size = 0;
    unsigned char *il = read_module(path, &size);
    if (!il) {
        printf("cannot read %s\n", path);
        *err = CL_INVALID_VALUE;
        return NULL;
    }
    cl_program p = clCreateProgramWithIL(context, il, size, err);
    free(il);
    if (*err != CL_SUCCESS) {
        printf("clCreateProgramWithIL: %d\n", *err);
        return NULL;
    }
    cl_int value = atoi(spec);
    if (*spec && (*err = clSetProgramSpecializationConstant(p, 1, sizeof value, &value)) != CL_SUCCESS)
        return p;
    *err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    return p;
}

/* binary: the program from the binary in the file HEADER, built; when
 * there is no such file, SOURCE built and its binary written there (a
 * binary from another process is checked by the bitcode checker, one this
 * process made is not).  linked-binary: the same, but SOURCE compiled with
 * OPTIONS and linked with none, as a password cracker does (and the binary
 * built with OPTIONS, the compile options, again). */
static cl_program host_build_binary(cl_context context, cl_device_id device, const char *options,
                                    const char *source, const char *path, bool linked, cl_int *err)
{
    size_t size = 0;
    unsigned char *binary = read_module(path, &size);
    if (!binary) {
        cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, err);
        if (!linked) {
            *err = clBuildProgram(p, 1, &device, options, NULL, NULL);
        } else if ((*err = clCompileProgram(p, 1, &device, options, 0, NULL, NULL, NULL, NULL)) == CL_SUCCESS) {
            cl_program l = clLinkProgram(context, 1, &device, NULL, 1, &p, NULL, NULL, err);
            if (l) {
                clReleaseProgram(p);
                p = l;
            }
        }
        if (*err == CL_SUCCESS)
            *err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
        binary = *err == CL_SUCCESS ? malloc(size) : NULL;
        if (binary && (*err = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL)) == CL_SUCCESS) {
            FILE *f = fopen(path, "wb");
            if (!f || fwrite(binary, 1, size, f) != size)
                *err = CL_OUT_OF_RESOURCES;
            if (f)
                fclose(f);
        }
        free(binary);
        return p;
    }
    const unsigned char *bytes = binary;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, &bytes, NULL, err);
    free(binary);
    if (*err == CL_SUCCESS)
        *err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    return p;
}

static cl_program host_build(cl_context context, cl_device_id device, const char *mode, const char *options,
                             const char *source, const char *header, cl_int *err)
{
    if (!strcmp(mode, "il"))
        return host_build_il(context, device, options, source, header, err);
    if (!strcmp(mode, "binary") || !strcmp(mode, "linked-binary"))
        return host_build_binary(context, device, options, source, header, mode[0] == 'l', err);
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, err);
    if (!strcmp(mode, "build")) {
        *err = clBuildProgram(p, 1, &device, options, NULL, NULL);
        return p;
    }
    cl_program h = clCreateProgramWithSource(context, 1, &header, NULL, err);
    const char *name = "val.h";
    *err = clCompileProgram(p, 1, &device, options, 1, &h, &name, NULL, NULL);
    clReleaseProgram(h);
    if (*err != CL_SUCCESS)
        return p;
    cl_program linked = clLinkProgram(context, 1, &device, NULL, 1, &p, NULL, NULL, err);
    if (linked) {
        clReleaseProgram(p);
        p = linked;
    }
    return p;
}

static int host_main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *mode = argv[0], *options = argv[2], *source = argv[3], *header = argc > 4 ? argv[4] : "";
    int expect = atoi(argv[1]);
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 12;
    cl_int err;
    double t0 = test_now_ms();
    cl_program p = host_build(context, device, mode, options, source, header, &err);
    double first = test_now_ms() - t0;
    if (err != CL_SUCCESS) {
        size_t size = 0;
        if (p)
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = calloc(1, size + 1);
        if (p)
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("err %d log-size %zu max-rss-kib %ld\nlog:\n%.4000s\n", err, size, ru.ru_maxrss, log);
        free(log);
        return 10;
    }
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    cl_kernel k = clCreateKernel(p, "k", &err);
    int out[16];
    cl_mem buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t global = 16;
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    int wrong = err != CL_SUCCESS;
    for (int i = 0; i < 16 && !wrong; i++)
        wrong = out[i] != expect;
    if (wrong)
        printf("wrong: err %d, o[0] = %d, expected %d\n", err, out[0], expect);
    double again = 1e9;
    const char *pause = getenv("TEST_HOST_PAUSE_MS"); /* between the first build and the others */
    if (pause)
        usleep((useconds_t)atoi(pause) * 1000);
    /* TEST_HOST_DROP=1: the other builds as nobody (a root host) */
    if (getenv("TEST_HOST_DROP") && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
                                     setresuid(65534, 65534, 65534))) {
        printf("cannot become nobody: %s\n", strerror(errno));
        wrong = 1;
    }
    for (int i = 0; i < 5 && !wrong && !getenv("TEST_HOST_ONCE"); i++) {
        double t = test_now_ms();
        cl_program p2 = host_build(context, device, mode, options, source, header, &err);
        t = test_now_ms() - t;
        again = err == CL_SUCCESS && t < again ? t : again;
        clReleaseProgram(p2);
    }
    printf("first %.3f again %.3f\n", first, again);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
    clReleaseContext(context);
    /* TEST_HOST_LINGER=1: a child of fork() outlives the host 10 s, holding
     * every descriptor but its output (prints "lingering <pid>") */
    if (getenv("TEST_HOST_LINGER")) {
        fflush(NULL);
        pid_t child = fork();
        if (child == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            sleep(10);
            _exit(0);
        }
        printf("lingering %d\n", (int)child);
    }
    return wrong ? 11 : 0;
}

/* ---- running hosts ---------------------------------------------------------------------- */
typedef struct host {
    pid_t pid;
    int out;           /* its stdout and stderr */
    int status;        /* its exit status; -1 killed (it ran over its time), -2 not started */
    char text[65536];  /* what it printed (the beginning) */
    double ms;         /* how long it ran */
} host;

/* Starts this program as a host with env ("NAME=value" or "NAME" to unset, NULL-terminated). */
static void host_start(host *h, const char *const *env, const char *mode, int expect, const char *options,
                       const char *source, const char *header)
{
    memset(h, 0, sizeof *h);
    h->status = -2;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC))
        return;
    char expect_text[16];
    snprintf(expect_text, sizeof expect_text, "%d", expect);
    fflush(NULL);
    h->ms = test_now_ms();
    h->pid = fork();
    if (h->pid == 0) {
        for (const char *const *e = env; e && *e; e++) {
            const char *eq = strchr(*e, '=');
            if (!eq) {
                unsetenv(*e);
                continue;
            }
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
            setenv(name, eq + 1, 1);
        }
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        const char *argv[] = {"test_build_cache", "--host", mode, expect_text, options, source, header, NULL};
        execv("/proc/self/exe", (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    h->out = fds[0];
    if (h->pid < 0)
        close(h->out);
}

/* Waits for a host at most timeout_s seconds (then kills it), keeping what it printed. */
static void host_wait(host *h, int timeout_s)
{
    if (h->pid <= 0)
        return;
    size_t len = 0;
    double deadline = test_now_ms() + timeout_s * 1000.0;
    bool killed = false;
    for (;;) {
        struct pollfd p = {h->out, POLLIN, 0};
        int left = (int)(deadline - test_now_ms());
        int n = poll(&p, 1, left > 0 ? left : 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            kill(h->pid, SIGKILL);
            killed = true;
            break;
        }
        char buf[65536];
        ssize_t r = read(h->out, buf, sizeof buf);
        if (r <= 0)
            break;
        size_t keep = (size_t)r < sizeof h->text - 1 - len ? (size_t)r : sizeof h->text - 1 - len;
        memcpy(h->text + len, buf, keep);
        len += keep;
    }
    h->text[len] = 0;
    close(h->out);
    int status;
    waitpid(h->pid, &status, 0);
    h->ms = test_now_ms() - h->ms;
    h->status = killed ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (h->status != 0 && h->status != 10)
        fprintf(stderr, "host: status %d after %.0f ms:\n%s\n", h->status, h->ms, h->text);
}

static int run_host(host *h, const char *const *env, const char *mode, int expect, const char *options,
                    const char *source, const char *header)
{
    host_start(h, env, mode, expect, options, source, header);
    host_wait(h, 120);
    return h->status;
}

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

static const char src1[] = "kernel void k(global int *o) { o[get_global_id(0)] = 1; }\n";
static const char src2[] = "kernel void k(global int *o) { o[get_global_id(0)] = 2; }\n";
static const char src_val[] = "#include \"val.h\"\nkernel void k(global int *o) { o[get_global_id(0)] = VAL; }\n";

/* ---- files ------------------------------------------------------------------------------- */
/* A new private directory; its name in dir (of size 64). */
static void make_dir(char *dir, const char *what)
{
    snprintf(dir, 64, "/tmp/mosaic-test-%s-XXXXXX", what);
    CHECK(mkdtemp(dir) != NULL);
}

static void write_text(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text), "writing %s", path);
    if (fd >= 0)
        close(fd);
    chmod(path, mode);
}

/* Sets a file's modification time seconds back: the cache does not trust a
 * header changed less than a second before a build. */
static void age(const char *path, int seconds)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds;
    t[1] = t[0];
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static void save_path(const char *path, void *data) { snprintf(data, 600, "%s", path); }

/* Is the .chk entry at path a program binary's marker (binary.c: the
 * payload "ok" between the entry's 48-byte header and its 32-byte
 * checksum), not a SPIR-V module's validation marker? */
static bool binary_marker(const char *path)
{
    char entry[48 + 2 + 32 + 1];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(entry, 1, sizeof entry, f) : 0;
    if (f)
        fclose(f);
    return n == sizeof entry - 1 && !memcmp(entry + 48, "ok", 2);
}

typedef struct marker_walk {
    void (*fn)(const char *path, void *data);
    void *data;
    int count;
} marker_walk;

static void if_spirv_marker(const char *path, void *data)
{
    marker_walk *w = data;
    if (binary_marker(path))
        return;
    w->count++;
    if (w->fn)
        w->fn(path, w->data);
}

/* Calls fn(path, data) for each SPIR-V module's validation marker (a .chk
 * entry that is not a binary's); how many. */
static int each_spirv_marker(const char *cache, void (*fn)(const char *path, void *data), void *data)
{
    marker_walk w = {fn, data, 0};
    test_each_cache_entry(cache, "chk", if_spirv_marker, &w);
    return w.count;
}

static int count_files(const char *cache)
{
    return test_each_cache_entry(cache, "obj", NULL, NULL) + test_each_cache_entry(cache, "src", NULL, NULL) +
           test_each_cache_entry(cache, "lnk", NULL, NULL);
}

/* ---- processes ---------------------------------------------------------------------------- */
/* A live (not zombie) process whose working directory is under dir: its pid, or 0. */
static pid_t process_in(const char *dir)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    size_t n = strlen(dir);
    while (d && !found && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0)
            continue;
        char link[64], cwd[4096], stat[512];
        snprintf(link, sizeof link, "/proc/%d/cwd", pid);
        ssize_t len = readlink(link, cwd, sizeof cwd - 1);
        if (len < (ssize_t)n)
            continue;
        cwd[len] = 0;
        if (strncmp(cwd, dir, n))
            continue;
        snprintf(link, sizeof link, "/proc/%d/stat", pid);
        int fd = open(link, O_RDONLY);
        ssize_t r = fd >= 0 ? read(fd, stat, sizeof stat - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (r <= 0)
            continue;
        stat[r] = 0;
        const char *close_paren = strrchr(stat, ')');
        if (close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X')
            found = pid;
    }
    if (d)
        closedir(d);
    return found;
}

/* Waits up to ms milliseconds for no live process under dir; true if there is none. */
static bool no_process_in(const char *dir, int ms)
{
    for (double end = test_now_ms() + ms; process_in(dir); usleep(20000))
        if (test_now_ms() > end)
            return false;
    return true;
}

/* Entries of dir whose name starts with prefix. */
static int count_named(const char *dir, const char *prefix)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

/* Lines of the file at path (0 when there is none). */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    while (f && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

/* A program clang takes forever on (and ever more memory): a macro that expands 2^32 times. */
static char *slow_source(void)
{
    static char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "#define E0(x) x\n");
    for (int i = 1; i <= 32; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "#define E%d(x) E%d(x) E%d(x)\n", i, i - 1, i - 1);
    snprintf(text + n, sizeof text - n, "kernel void k(global int *o) { o[0] = 0 E32(+1); }\n");
    return text;
}

/* ---- the cases ------------------------------------------------------------------------------ */

/* A second build of the same program, in a new process, does not start clang. */
TEST(direct_hit)
{
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    host h;
    CHECK(run_host(&h, ENV(env_dir), "build", 1, "", src1, NULL) == 0, "a first build: %s", h.text);
    /* the same program, with a compiler that only fails */
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 1, "", src1, NULL) == 0,
          "a cache hit must not run clang: %s", h.text);
    double first = -1, again = -1;
    sscanf(h.text, "first %lf again %lf", &first, &again);
    fprintf(stderr, "cache hit: %.3f ms the first build of a process, %.3f ms later ones\n", first, again);
    CHECK(again >= 0 && again < 3.0, "a hit took %.3f ms", again);
    /* and that compiler fails indeed: a program built by no one before */
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 2, "", src2, NULL) == 10,
          "/bin/false cannot build a new program");
    /* other options are another program */
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 1, "-DX=1", src1, NULL) == 10,
          "other options must miss");
    test_remove_tree(cache);
}

/* A header the earlier build read is part of the key: changed, it misses. */
TEST(header_changes)
{
    char cache[64], inc[64], env_dir[128], opt[128], path[128];
    make_dir(cache, "cache");
    make_dir(inc, "include");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    snprintf(opt, sizeof opt, "-I %s", inc);
    snprintf(path, sizeof path, "%s/val.h", inc);
    write_text(path, "#define VAL 5\n", 0644);
    age(path, 10);
    host h;
    CHECK(run_host(&h, ENV(env_dir), "build", 5, opt, src_val, NULL) == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 5, opt, src_val, NULL) == 0,
          "the same header: a hit (%s)", h.text);
    write_text(path, "#define VAL 6\n", 0644);
    age(path, 10);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 6, opt, src_val, NULL) == 10,
          "a changed header must miss (status %d: %s)", h.status, h.text);
    CHECK(run_host(&h, ENV(env_dir), "build", 6, opt, src_val, NULL) == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 6, opt, src_val, NULL) == 0,
          "the new header's entry: %s", h.text);
    /* a header changed just before the build is not trusted for the entry */
    write_text(path, "#define VAL 7\n", 0644);
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "build", 7, opt, src_val, NULL) == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 7, opt, src_val, NULL) == 10,
          "a header younger than a second is not cached");
    /* embedded headers (clCompileProgram's input_headers) */
    CHECK(run_host(&h, ENV(env_dir), "compile", 8, "", src_val, "#define VAL 8\n") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "compile", 8, "", src_val, "#define VAL 8\n") == 0,
          "the same embedded header: a hit (%s)", h.text);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "compile", 9, "", src_val, "#define VAL 9\n") == 10,
          "another embedded header must miss");
    test_remove_tree(cache);
    test_remove_tree(inc);
}

/* A program reloaded from its binary in a new process, as a password
 * cracker does at its next start (compiled with -I and -D options, linked
 * with none, the saved binary built with the compile options again): its
 * object code comes from the cache (no kernel finalised again, no new
 * entry), and neither clang nor the bitcode checker runs (the binary is
 * one Mosaic wrote: the cache has its marker).  A binary with other bytes
 * is still checked. */
TEST(binary_reload)
{
    char cache[64], inc[64], env_dir[128], opt[256], path[128], binary[128], other[128];
    make_dir(cache, "cache");
    make_dir(inc, "include");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    snprintf(opt, sizeof opt, "-I %s -D A=3 -D B=4 -DC=(A*B) -D KERNEL_STATIC -cl-std=CL1.2", inc);
    snprintf(path, sizeof path, "%s/val.h", inc);
    snprintf(binary, sizeof binary, "%s/program.bin", inc);
    snprintf(other, sizeof other, "%s/other.bin", inc);
    write_text(path, "#define VAL (C + 1)\n", 0644);
    age(path, 10);
    host h;
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "linked-binary", 13, opt, src_val, binary) == 0, "%s",
          h.text);
    int objects = test_each_cache_entry(cache, "obj", NULL, NULL);
    CHECK(objects == 1, "one kernel cache entry after the first run (%d)", objects);
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_DEBUG=cache", "MOSAIC_CLANG=/bin/false", "MOSAIC_OPT=/bin/false"),
                   "linked-binary", 13, opt, src_val, binary) == 0,
          "the binary, reloaded without clang or the bitcode checker: %s", h.text);
    CHECK(strstr(h.text, "kernel cache hit") && !strstr(h.text, "kernel cache miss"), "finalised again: %s", h.text);
    CHECK(test_each_cache_entry(cache, "obj", NULL, NULL) == objects, "no new kernel cache entry (%d)",
          test_each_cache_entry(cache, "obj", NULL, NULL));
    double first = -1, again = -1;
    sscanf(strstr(h.text, "first ") ? strstr(h.text, "first ") : "", "first %lf again %lf", &first, &again);
    fprintf(stderr, "binary reloaded: %.3f ms the first build of a process, %.3f ms later ones\n", first, again);
    /* a binary made without the cache has no marker: the checker runs (and fails) */
    CHECK(run_host(&h, ENV("MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "linked-binary", 1, "", src1, other) == 0, "%s",
          h.text);
    int status = run_host(&h, ENV(env_dir, "MOSAIC_OPT=/bin/false", "TEST_HOST_ONCE=1"), "linked-binary", 1, "",
                          src1, other);
    CHECK(status == 10 && strstr(h.text, "err -42 "), "another binary must be checked (status %d): %s", status,
          h.text);
    test_remove_tree(cache);
    test_remove_tree(inc);
}

/* ---- SPIR-V programs ----------------------------------------------------------------------
 * cache_a.spv writes its specialization constant 1 (default 1), cache_b.spv
 * the constant plus 100.  With these settings neither the translator nor the
 * validator can run: only a cache hit builds. */
#define NO_SPIRV_TOOLS "MOSAIC_LLVM_SPIRV=/bin/false", "MOSAIC_SPIRV_VAL=/bin/false"

static const char *module_path(const char *name)
{
    static char paths[2][256];
    static int turn;
    char *p = paths[turn++ % 2];
    snprintf(p, 256, "%s/%s.spv", SPIRV_DIR, name);
    return p;
}

/* An IL program built again, in a new process, starts neither spirv-val nor llvm-spirv. */
TEST(il_hit)
{
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    const char *a = module_path("cache_a"), *b = module_path("cache_b");
    host h;
    double first = -1, again = -1;
    CHECK(run_host(&h, ENV(env_dir), "il", 5, "", a, "5") == 0, "a first build: %s", h.text);
    sscanf(h.text, "first %lf again %lf", &first, &again);
    fprintf(stderr, "IL, first build: %.3f ms; again in the same process: %.3f ms\n", first, again);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS), "il", 5, "", a, "5") == 0,
          "a cache hit must run neither the translator nor the validator: %s", h.text);
    first = again = -1;
    sscanf(h.text, "first %lf again %lf", &first, &again);
    fprintf(stderr, "IL cache hit: %.3f ms the first build of a process, %.3f ms later ones\n", first, again);
    CHECK(again >= 0 && again < 3.0, "a hit took %.3f ms", again);
    /* the tools fail indeed: another value is another program, and so is another module */
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS), "il", 7, "", a, "7") == 10 &&
              strstr(h.text, "SPIR-V translator"),
          "/bin/false cannot translate: %s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS), "il", 105, "", b, "5") == 10 &&
              strstr(h.text, "clCreateProgramWithIL: -30"),
          "/bin/false cannot validate: %s", h.text);
    test_remove_tree(cache);
}

/* The specialization constants' values and the module are the key; the
 * build options are not (they act at finalize, which has its own entry),
 * yet they are still checked. */
TEST(il_keys)
{
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    const char *a = module_path("cache_a"), *b = module_path("cache_b");
    host h;
    /* each must be built from its own translation: one keyed without the
     * values or the module would give an earlier program's (status 11) */
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "il", 6, "", a, "6") == 0,
          "another value of the constant: %s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "il", 1, "", a, "") == 0, "the default: %s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "il", 105, "", b, "5") == 0, "another module: %s", h.text);
    /* and each is in the cache under its own key */
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 6, "", a, "6") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 1, "", a, "") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 105, "", b, "5") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 5, "-cl-opt-disable", a, "5") == 0,
          "code generation options act after the translation: %s", h.text);
    CHECK(run_host(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 5, "-no-such-option", a, "5") == 10 &&
              strstr(h.text, "err -43"),
          "a bad option is CL_INVALID_BUILD_OPTIONS, cached or not: %s", h.text);
    test_remove_tree(cache);
}

/* A translator that changed is another translator: its entries miss. */
TEST(il_translator_changed)
{
    char dir[64], script[128], env_tool[160], body[512], runs[160], cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    make_dir(dir, "translator");
    snprintf(runs, sizeof runs, "%s/runs", dir);
    snprintf(script, sizeof script, "%s/llvm-spirv", dir);
    snprintf(body, sizeof body, "#!/bin/sh\necho run >> %s\nexec %s \"$@\"\n", runs, MOSAIC_TEST_LLVM_SPIRV);
    write_text(script, body, 0755);
    age(script, 10);
    snprintf(env_tool, sizeof env_tool, "MOSAIC_LLVM_SPIRV=%s", script);
    const char *a = module_path("cache_a");
    host h;
    CHECK(run_host(&h, ENV(env_dir, env_tool, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    CHECK(count_lines(runs) == 1, "the translator ran once (%d)", count_lines(runs));
    CHECK(run_host(&h, ENV(env_dir, env_tool, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    CHECK(count_lines(runs) == 1, "the same translator: a hit (%d runs)", count_lines(runs));
    /* the same path, another program */
    snprintf(body, sizeof body, "#!/bin/sh\necho run >> %s\n# another version\nexec %s \"$@\"\n", runs,
             MOSAIC_TEST_LLVM_SPIRV);
    write_text(script, body, 0755);
    CHECK(run_host(&h, ENV(env_dir, env_tool, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    CHECK(count_lines(runs) == 2, "a changed translator: a miss (%d runs)", count_lines(runs));
    test_remove_tree(dir);
    test_remove_tree(cache);
}

static void copy_over(const char *from, const char *to)
{
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_TRUNC);
    char buf[1 << 16];
    ssize_t r;
    while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof buf)) > 0)
        CHECK(write(out, buf, (size_t)r) == r);
    CHECK(in >= 0 && out >= 0, "copying %s over %s", from, to);
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
}

/* Another program's entries, copied under this program's keys, are not run. */
TEST(swapped_entry)
{
    char a[64], b[64], env_a[128], env_b[128];
    make_dir(a, "cache-a");
    make_dir(b, "cache-b");
    snprintf(env_a, sizeof env_a, "MOSAIC_CACHE_DIR=%s", a);
    snprintf(env_b, sizeof env_b, "MOSAIC_CACHE_DIR=%s", b);
    host h;
    CHECK(run_host(&h, ENV(env_a), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_b), "build", 2, "", src2, NULL) == 0, "%s", h.text);
    static const char *const kinds[] = {"src", "lnk", "obj"};
    for (int i = 0; i < 3; i++) {
        char from[600] = "", to[600] = "";
        CHECK(test_each_cache_entry(a, kinds[i], save_path, from) == 1 && test_each_cache_entry(b, kinds[i], save_path, to) == 1,
              "one .%s entry in each cache", kinds[i]);
        if (*from && *to)
            copy_over(from, to);
    }
    /* program 2 with program 1's entries: rejected, so clang must run (and fails) */
    int status = run_host(&h, ENV(env_b, "MOSAIC_CLANG=/bin/false"), "build", 2, "", src2, NULL);
    CHECK(status == 10, "foreign entries must be rejected (status %d: 11 is program 1's code run)", status);
    CHECK(run_host(&h, ENV(env_b), "build", 2, "", src2, NULL) == 0, "rebuilt: %s", h.text);
    test_remove_tree(a);
    test_remove_tree(b);
}

/* Another IL program's entries, copied under this program's keys, are not used. */
TEST(il_swapped_entry)
{
    char a[64], b[64], env_a[128], env_b[128];
    make_dir(a, "cache-a");
    make_dir(b, "cache-b");
    snprintf(env_a, sizeof env_a, "MOSAIC_CACHE_DIR=%s", a);
    snprintf(env_b, sizeof env_b, "MOSAIC_CACHE_DIR=%s", b);
    host h;
    CHECK(run_host(&h, ENV(env_a, "TEST_HOST_ONCE=1"), "il", 5, "", module_path("cache_a"), "5") == 0, "%s", h.text);
    CHECK(run_host(&h, ENV(env_b, "TEST_HOST_ONCE=1"), "il", 105, "", module_path("cache_b"), "5") == 0, "%s",
          h.text);
    /* the translation: rejected, so the translator must run (and fails) */
    char from[600] = "", to[600] = "";
    CHECK(test_each_cache_entry(a, "spv", save_path, from) == 1 && test_each_cache_entry(b, "spv", save_path, to) == 1,
          "one .spv entry in each cache");
    if (*from && *to)
        copy_over(from, to);
    int status = run_host(&h, ENV(env_b, "MOSAIC_LLVM_SPIRV=/bin/false", "TEST_HOST_ONCE=1"), "il", 105, "",
                          module_path("cache_b"), "5");
    CHECK(status == 10, "a foreign translation must be rejected (status %d: 11 is program a's code run)", status);
    /* the validator's marker: rejected, so the validator must run (and fails) */
    *from = *to = 0;
    CHECK(each_spirv_marker(a, save_path, from) == 1 && each_spirv_marker(b, save_path, to) == 1,
          "one validation marker in each cache");
    if (*from && *to)
        copy_over(from, to);
    status = run_host(&h, ENV(env_b, "MOSAIC_SPIRV_VAL=/bin/false", "TEST_HOST_ONCE=1"), "il", 105, "",
                      module_path("cache_b"), "5");
    CHECK(status == 10 && strstr(h.text, "clCreateProgramWithIL: -30"),
          "a foreign validation marker must be rejected (status %d): %s", status, h.text);
    test_remove_tree(a);
    test_remove_tree(b);
}

/* A cache directory, or a subdirectory, that others may write to is not used. */
TEST(group_writable_dir)
{
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    CHECK(chmod(cache, 0770) == 0);
    host h;
    CHECK(run_host(&h, ENV(env_dir), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    const char *w = strstr(h.text, "not using the kernel cache");
    CHECK(w && !strstr(w + 1, "not using the kernel cache"), "one warning: %s", h.text);
    CHECK(count_files(cache) == 0, "nothing written to a group-writable cache");
    /* the directory is private again, but every subdirectory is not */
    CHECK(chmod(cache, 0700) == 0);
    for (int i = 0; i < 256; i++) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s/%02x", cache, i);
        mkdir(sub, 0777);
        chmod(sub, 0777);
    }
    CHECK(run_host(&h, ENV(env_dir), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    w = strstr(h.text, "not using the kernel cache");
    CHECK(w && !strstr(w + 1, "not using the kernel cache"), "one warning: %s", h.text);
    CHECK(count_files(cache) == 0, "nothing written to a world-writable subdirectory");
    CHECK(run_host(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 1, "", src1, NULL) == 10,
          "nothing read from one");
    test_remove_tree(cache);
}

static void make_fifo(const char *path, void *data)
{
    (void)data;
    CHECK(unlink(path) == 0 && mkfifo(path, 0600) == 0, "a FIFO at %s", path);
}

/* A FIFO where an entry should be neither blocks the build nor counts as an entry. */
TEST(fifo_entry)
{
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    host h;
    CHECK(run_host(&h, ENV(env_dir), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    int n = test_each_cache_entry(cache, "src", make_fifo, NULL) + test_each_cache_entry(cache, "lnk", make_fifo, NULL) +
            test_each_cache_entry(cache, "obj", make_fifo, NULL);
    CHECK(n == 3, "%d entries", n);
    host_start(&h, ENV(env_dir, "MOSAIC_CLANG=/bin/false"), "build", 1, "", src1, NULL);
    host_wait(&h, 60);
    CHECK(h.status == 10, "FIFOs are no entries (status %d, -1: it hung)", h.status);
    host_start(&h, ENV(env_dir), "build", 1, "", src1, NULL);
    host_wait(&h, 60);
    CHECK(h.status == 0, "FIFOs replaced by entries (status %d, -1: it hung)", h.status);
    /* an IL program's translation and validation marker */
    const char *a = module_path("cache_a");
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5") == 0, "%s", h.text);
    n = test_each_cache_entry(cache, "spv", make_fifo, NULL) + each_spirv_marker(cache, make_fifo, NULL);
    CHECK(n == 2, "%d entries", n);
    host_start(&h, ENV(env_dir, NO_SPIRV_TOOLS, "TEST_HOST_ONCE=1"), "il", 5, "", a, "5");
    host_wait(&h, 60);
    CHECK(h.status == 10, "FIFOs are no IL entries (status %d, -1: it hung)", h.status);
    test_remove_tree(cache);
}

/* A fake clang: a shell script in a new private directory (in dir). */
static void fake_clang(char *dir, char *script, const char *body)
{
    make_dir(dir, "fake-clang");
    snprintf(script, 128, "%s/clang", dir);
    char text[2048];
    snprintf(text, sizeof text, "#!/bin/sh\n%s\n", body);
    write_text(script, text, 0755);
}

/* A clang that hangs (and whatever it started) is killed after MOSAIC_BUILD_TIMEOUT_S. */
TEST(build_timeout)
{
    char dir[64], script[128], env_clang[160], body[512], pidfile[128];
    snprintf(pidfile, sizeof pidfile, "/tmp/mosaic-test-sleep-%d", (int)getpid());
    snprintf(body, sizeof body, "sleep 300 &\necho $! > %s\nwait", pidfile);
    fake_clang(dir, script, body);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    int status = run_host(&h, ENV(env_clang, "MOSAIC_BUILD_TIMEOUT_S=1", "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL);
    CHECK(status == 10 && strstr(h.text, "err -11") && strstr(h.text, "MOSAIC_BUILD_TIMEOUT_S"),
          "CL_BUILD_PROGRAM_FAILURE with the reason (status %d): %s", status, h.text);
    CHECK(h.ms < 15000, "the build took %.0f ms", h.ms);
    FILE *f = fopen(pidfile, "r");
    int sleeper = 0;
    CHECK(f && fscanf(f, "%d", &sleeper) == 1, "the fake compiler's child");
    if (f)
        fclose(f);
    unlink(pidfile);
    if (sleeper > 0) {
        char stat_path[64], stat[512] = "";
        snprintf(stat_path, sizeof stat_path, "/proc/%d/stat", sleeper);
        bool alive = false;
        for (int i = 0; i < 100; i++, usleep(20000)) {
            FILE *s = fopen(stat_path, "r");
            alive = s && fgets(stat, sizeof stat, s) && strrchr(stat, ')') && strrchr(stat, ')')[2] != 'Z';
            if (s)
                fclose(s);
            if (!alive)
                break;
        }
        CHECK(!alive, "what the compiler started is killed too (pid %d)", sleeper);
        if (alive)
            kill(sleeper, SIGKILL);
    }
    test_remove_tree(dir);
}

/* The real clang, hung on a program (2^32 macro expansions): stopped, with a clear log. */
TEST(hung_compiler)
{
    char tmp[64], env_tmp[128];
    make_dir(tmp, "tmpdir");
    snprintf(env_tmp, sizeof env_tmp, "TMPDIR=%s", tmp);
    host h;
    int status = run_host(&h, ENV(env_tmp, "MOSAIC_BUILD_TIMEOUT_S=2", "MOSAIC_CACHE=0"), "build", 1, "",
                          slow_source(), NULL);
    CHECK(status == 10 && strstr(h.text, "err -11") && strstr(h.text, "did not finish in 2 s"),
          "stopped after 2 s (status %d): %s", status, h.text);
    CHECK(h.ms < 20000, "the build took %.0f ms", h.ms);
    CHECK(no_process_in(tmp, 2000), "no clang left running");
    CHECK(count_named(tmp, "mosaic-") == 0, "no work directory left");
    test_remove_tree(tmp);
}

/* A host killed mid-build leaves no clang running and, by the next build, no work directory. */
TEST(killed_host)
{
    char tmp[64], env_tmp[128], prefix[64];
    make_dir(tmp, "tmpdir");
    snprintf(env_tmp, sizeof env_tmp, "TMPDIR=%s", tmp);
    host h;
    host_start(&h, ENV(env_tmp, "MOSAIC_CACHE=0"), "build", 1, "", slow_source(), NULL);
    pid_t clang = 0;
    for (double end = test_now_ms() + 60000; !clang && test_now_ms() < end; usleep(20000))
        clang = process_in(tmp);
    CHECK(clang > 0, "clang started");
    usleep(300000); /* let it grow a little */
    kill(h.pid, SIGKILL);
    host_wait(&h, 10);
    CHECK(no_process_in(tmp, 5000), "clang (pid %d) died with its host", (int)clang);
    snprintf(prefix, sizeof prefix, "mosaic-%d-", (int)h.pid);
    CHECK(count_named(tmp, prefix) == 1, "the killed host's work directory is there until the next build");
    /* a directory whose lock is held (its process lives, in another pid
     * namespace, say: no process here has its pid) stays */
    char other[128], lock_path[160];
    snprintf(other, sizeof other, "%s/mosaic-2147483000-abcdef", tmp);
    snprintf(lock_path, sizeof lock_path, "%s/lock", other);
    CHECK(mkdir(other, 0700) == 0);
    int lock = open(lock_path, O_RDONLY | O_CREAT, 0600);
    CHECK(lock >= 0 && flock(lock, LOCK_EX) == 0);
    CHECK(run_host(&h, ENV(env_tmp, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    CHECK(count_named(tmp, prefix) == 0, "the next build removed the killed host's directory");
    CHECK(count_named(tmp, "mosaic-") == 1, "a directory still locked stays");
    close(lock);
    CHECK(run_host(&h, ENV(env_tmp, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    CHECK(count_named(tmp, "mosaic-") == 0, "unlocked, it goes");
    /* one without its lock yet, of a pid no process here has: a new one may
     * be another pid namespace's, between its mkdtemp and its lock, and
     * stays; one made long ago goes */
    CHECK(mkdir(other, 0700) == 0);
    CHECK(run_host(&h, ENV(env_tmp, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    CHECK(count_named(tmp, "mosaic-") == 1, "a new directory without its lock stays");
    struct timespec old_times[2] = {{.tv_sec = time(NULL) - 3600}, {.tv_sec = time(NULL) - 3600}};
    CHECK(utimensat(AT_FDCWD, other, old_times, 0) == 0);
    CHECK(run_host(&h, ENV(env_tmp, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    CHECK(count_named(tmp, "mosaic-") == 0, "an hour old without its lock, it goes");
    test_remove_tree(tmp);
}

/* A compiler that prints 300 MB: the log keeps 1 MiB and says so; the host does not hold the rest. */
TEST(log_cap)
{
    char dir[64], script[128], env_clang[160];
    fake_clang(dir, script, "yes 'error: the same line again and again, a compiler gone mad' | head -c 300000000\n"
                            "exit 1");
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    int status = run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL);
    size_t log_size = 0;
    long rss = 0;
    const char *e = strstr(h.text, "log-size");
    CHECK(status == 10 && e && sscanf(e, "log-size %zu max-rss-kib %ld", &log_size, &rss) == 2, "status %d: %.300s",
          status, h.text);
    CHECK(log_size > 1000000 && log_size < (1u << 20) + 4096, "a log of %zu bytes", log_size);
    CHECK(rss < 200000, "the host grew to %ld KiB", rss);
    test_remove_tree(dir);
}

/* A fake clang (in a new directory dir) that appends "<its parent> <its
 * grandparent> <the grandparent's parent> <its user id>" to dir/starts (in
 * log; a file anyone may write, in a directory anyone may enter) and then
 * runs the real clang; with kill_server, its first run also kills the fork
 * server (its grandparent) once that build has ended (from a session of its
 * own: what a build leaves running in its process group ends with it). */
static void recording_clang(char *dir, char *script, char *log, bool kill_server)
{
    char body[1024];
    snprintf(body, sizeof body,
             "log=\"$(dirname \"$0\")/starts\"\n"
             "parent_of() { sed 's/.*) . \\([0-9]*\\) .*/\\1/' /proc/$1/stat; }\n"
             "gp=$(parent_of $PPID)\n"
             "echo \"$PPID $gp $(parent_of $gp) $(id -u)\" >> \"$log\"\n"
             "if [ %d = 1 ] && [ $(wc -l < \"$log\") = 1 ]; then\n"
             "  setsid sh -c \"while kill -0 $$; do sleep 0.05; done; kill -9 $gp\" >/dev/null 2>&1 &\n"
             "fi\n"
             "exec %s \"$@\"",
             kill_server, TEST_CLANG);
    fake_clang(dir, script, body);
    snprintf(log, 128, "%s/starts", dir);
    write_text(log, "", 0666);
    chmod(dir, 0755);
}

/* Reads the lines recording_clang wrote: how many, into pids[n][4]. */
static int read_records(const char *log, long pids[8][4])
{
    FILE *f = fopen(log, "r");
    int n = 0;
    while (f && n < 8 && fscanf(f, "%ld %ld %ld %ld", &pids[n][0], &pids[n][1], &pids[n][2], &pids[n][3]) == 4)
        n++;
    if (f)
        fclose(f);
    return n;
}

/* Builds fork clang from a server started once per host (fork_server.c):
 * clang's parent is the server's watcher, and one server, the host's child,
 * serves every build; with MOSAIC_NO_FORK_SERVER=1 the host starts clang. */
TEST(fork_server)
{
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, false);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    CHECK(run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL) == 0, "%s", h.text);
    long pids[8][4];
    int n = read_records(log, pids);
    CHECK(n == 6, "six builds, six compilations (%d)", n);
    for (int i = 0; i < n; i++) {
        CHECK(pids[i][0] != h.pid && pids[i][1] == pids[0][1] && pids[i][2] == h.pid,
              "build %d: clang's parent %ld, its parent %ld (the first's: %ld), whose parent %ld (the host: %ld)",
              i, pids[i][0], pids[i][1], pids[0][1], pids[i][2], (long)h.pid);
        CHECK(i == 0 || pids[i][0] != pids[i - 1][0], "a watcher per build");
    }
    unlink(log);
    CHECK(run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0", "MOSAIC_NO_FORK_SERVER=1"), "build", 1, "", src1, NULL) == 0,
          "%s", h.text);
    n = read_records(log, pids);
    CHECK(n == 6, "six builds, six compilations (%d)", n);
    for (int i = 0; i < n; i++)
        CHECK(pids[i][0] == h.pid, "without the server, the host starts clang (%ld, host %ld)", pids[i][0],
              (long)h.pid);
    test_remove_tree(dir);
}

/* A server killed between builds is started again, and no build fails. */
TEST(fork_server_killed)
{
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, true);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    CHECK(run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0", "TEST_HOST_PAUSE_MS=1500"), "build", 1, "", src1, NULL) == 0,
          "%s", h.text);
    long pids[8][4];
    int n = read_records(log, pids);
    CHECK(n == 6, "six builds, six compilations (%d)", n);
    for (int i = 1; i < n; i++)
        CHECK(pids[i][1] != pids[0][1] && pids[i][1] == pids[1][1] && pids[i][2] == h.pid,
              "build %d: server %ld (the first, killed: %ld), whose parent %ld (the host: %ld)", i, pids[i][1],
              pids[0][1], pids[i][2], (long)h.pid);
    test_remove_tree(dir);
}

/* A host that builds as root, then becomes nobody: its later builds run as
 * nobody, not in the server started as root (which read root's files for
 * them: a kernel could quote /etc/shadow in its log). */
TEST(fork_server_credentials)
{
    if (geteuid() != 0)
        TEST_SKIP("needs root, to become nobody");
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, false);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    CHECK(run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0", "TEST_HOST_DROP=1"), "build", 1, "", src1, NULL) == 0, "%s",
          h.text);
    long pids[8][4];
    int n = read_records(log, pids);
    CHECK(n == 6, "six builds, six compilations (%d)", n);
    CHECK(n < 1 || pids[0][3] == 0, "the first build as root (uid %ld)", pids[0][3]);
    for (int i = 1; i < n; i++)
        CHECK(pids[i][3] == 65534 && pids[i][1] != pids[0][1],
              "build %d as nobody (uid %ld), not from the first server (%ld; its server %ld)", i, pids[i][3],
              pids[0][1], pids[i][1]);
    test_remove_tree(dir);
}

/* ---- the server as the system sees it ---------------------------------------------------- */

/* A process's state letter and parent (from /proc/PID/stat); 0 when it is gone. */
static char process_state(pid_t pid, pid_t *parent)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY);
    ssize_t r = fd >= 0 ? read(fd, stat, sizeof stat - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (r <= 0)
        return 0;
    stat[r] = 0;
    const char *after = strrchr(stat, ')');
    int ppid = 0;
    char state = 0;
    if (!after || sscanf(after + 1, " %c %d", &state, &ppid) != 2)
        return 0;
    if (parent)
        *parent = ppid;
    return state;
}

/* A live child process of parent (the host's fork server, between builds); 0: none. */
static pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (d && !found && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name), ppid = 0;
        char state = pid > 0 ? process_state(pid, &ppid) : 0;
        if (state && state != 'Z' && ppid == parent)
            found = pid;
    }
    if (d)
        closedir(d);
    return found;
}

/* The system call a process's main thread is in (/proc/PID/syscall); -1 when none. */
static long main_thread_syscall(pid_t pid)
{
    char path[64], text[64] = "";
    snprintf(path, sizeof path, "/proc/%d/syscall", (int)pid);
    int fd = open(path, O_RDONLY);
    ssize_t r = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0)
        close(fd);
    char *end;
    long n = r > 0 ? strtol(text, &end, 10) : -1;
    return r > 0 && end != text ? n : -1;
}

static bool sleeping_call(long n) { return n == SYS_clock_nanosleep || n == SYS_nanosleep; }
static bool polling_call(long n)
{
#ifdef SYS_poll
    if (n == SYS_poll)
        return true;
#endif
    return n == SYS_ppoll;
}

/* Waits until the host's main thread has been in a call `is` says yes to for
 * 200 ms (a pause, a wait), at most timeout_ms; true when it was. */
static bool host_in_call(const host *h, bool (*is)(long), int timeout_ms)
{
    double since = 0, end = test_now_ms() + timeout_ms;
    for (; test_now_ms() < end; usleep(5000)) {
        if (!is(main_thread_syscall(h->pid)))
            since = 0;
        else if (!since)
            since = test_now_ms();
        else if (test_now_ms() - since >= 200)
            return true;
    }
    return false;
}

/* A host of recording_clang's builds with TEST_HOST_PAUSE_MS=3000: its fork
 * server, found in the pause after the first build; 0 when none was. */
static pid_t server_in_pause(host *h, const char *env_clang)
{
    host_start(h, ENV(env_clang, "MOSAIC_CACHE=0", "MOSAIC_BUILD_TIMEOUT_S=20", "TEST_HOST_PAUSE_MS=3000"), "build",
               1, "", src1, NULL);
    if (!host_in_call(h, sleeping_call, 60000))
        return 0;
    return child_of(h->pid);
}

/* After one of the fork server tests: six builds, the first forked from
 * `server`, the second (the one the server failed) started by the host
 * itself, the others forked from one new server. */
static void check_second_build_afresh(const char *log, const host *h, pid_t server)
{
    long pids[8][4];
    int n = read_records(log, pids);
    CHECK(n == 6, "six builds, six compilations (%d)", n);
    CHECK(n < 1 || pids[0][1] == server, "the first build from the server found (%ld, %d)", pids[0][1], (int)server);
    CHECK(n < 2 || pids[1][0] == h->pid, "the second build started by the host (clang's parent %ld, host %d)",
          pids[1][0], (int)h->pid);
    for (int i = 2; i < n; i++)
        CHECK(pids[i][1] != server && pids[i][1] == pids[2][1] && pids[i][2] == h->pid,
              "build %d: server %ld (the first: %d), whose parent %ld (the host: %d)", i, pids[i][1], (int)server,
              pids[i][2], (int)h->pid);
}

/* A build's watcher killed (kill -9) while the build runs: the build, which
 * dies with it, runs again afresh instead of failing. */
TEST(fork_server_watcher_killed)
{
    char dir[64], script[128], env_clang[160], log[128], body[512];
    snprintf(body, sizeof body,
             "log=\"$(dirname \"$0\")/starts\"\n"
             "echo $PPID >> \"$log\"\n"
             "if [ $(wc -l < \"$log\") = 1 ]; then sleep 10; fi\n"
             "exec %s \"$@\"",
             TEST_CLANG);
    fake_clang(dir, script, body);
    snprintf(log, sizeof log, "%s/starts", dir);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    host_start(&h, ENV(env_clang, "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "build", 1, "", src1, NULL);
    long parents[2] = {0, 0};
    for (double end = test_now_ms() + 60000; !parents[0] && test_now_ms() < end; usleep(20000)) {
        FILE *f = fopen(log, "r");
        if (f && fscanf(f, "%ld", &parents[0]) != 1)
            parents[0] = 0;
        if (f)
            fclose(f);
    }
    CHECK(parents[0] > 0 && parents[0] != h.pid, "the first build's watcher (%ld)", parents[0]);
    if (parents[0] > 0 && parents[0] != h.pid)
        kill((pid_t)parents[0], SIGKILL);
    host_wait(&h, 60);
    CHECK(h.status == 0, "status %d: %s", h.status, h.text);
    FILE *f = fopen(log, "r");
    int n = 0;
    while (f && n < 2 && fscanf(f, "%ld", &parents[n]) == 1)
        n++;
    if (f)
        fclose(f);
    CHECK(n == 2 && parents[1] == h.pid, "the build again, started by the host (%d runs; the second's parent %ld, "
          "the host %d)", n, parents[1], (int)h.pid);
    test_remove_tree(dir);
}

/* A server stopped (SIGSTOP) between builds answers no request: the next
 * build waits for its answer a short while, not its time-out (20 s), then
 * runs clang afresh; the server is killed and the builds after it fork a
 * new one. */
TEST(fork_server_stopped)
{
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, false);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    pid_t server = server_in_pause(&h, env_clang);
    CHECK(server > 0, "the server, in the host's pause");
    if (server > 0)
        kill(server, SIGSTOP);
    double stopped_at = test_now_ms();
    host_wait(&h, 120);
    CHECK(h.status == 0, "status %d: %s", h.status, h.text);
    CHECK(test_now_ms() - stopped_at < 15000, "the builds after the stop took %.0f ms",
          test_now_ms() - stopped_at);
    check_second_build_afresh(log, &h, server);
    pid_t parent = 0;
    char state = server > 0 ? process_state(server, &parent) : 0;
    CHECK(!state || parent != h.pid, "the stopped server (pid %d) is gone (state %c)", (int)server, state);
    if (state && parent == h.pid)
        kill(server, SIGKILL);
    test_remove_tree(dir);
}

/* A server killed (kill -9) while a request waits in its socket (it was
 * stopped): the build that request was runs afresh instead of failing. */
TEST(fork_server_killed_in_flight)
{
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, false);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    pid_t server = server_in_pause(&h, env_clang);
    CHECK(server > 0, "the server, in the host's pause");
    if (server > 0) {
        kill(server, SIGSTOP);
        /* the pause over, the host waits for the server's answer */
        CHECK(host_in_call(&h, polling_call, 60000), "the host waiting for the server");
        kill(server, SIGKILL);
    }
    host_wait(&h, 120);
    CHECK(h.status == 0, "status %d: %s", h.status, h.text);
    check_second_build_afresh(log, &h, server);
    test_remove_tree(dir);
}

/* A host that forked a child which lives on: the server leaves with the host
 * all the same (the child closes its copy of the server's socket at the
 * fork; holding it, it once kept the server alive as long as itself). */
TEST(fork_server_leaves_with_host)
{
    char dir[64], script[128], env_clang[160], log[128];
    recording_clang(dir, script, log, false);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
    host h;
    CHECK(run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1", "TEST_HOST_LINGER=1"), "build", 1, "",
                   src1, NULL) == 0,
          "%s", h.text);
    long pids[8][4];
    int lingering = 0;
    const char *l = strstr(h.text, "lingering ");
    CHECK(read_records(log, pids) == 1 && l && sscanf(l, "lingering %d", &lingering) == 1 && lingering > 0, "%s",
          h.text);
    pid_t server = (pid_t)pids[0][1];
    char state = 'R';
    for (double end = test_now_ms() + 3000; test_now_ms() < end; usleep(20000)) {
        state = process_state(server, NULL);
        if (!state || state == 'Z')
            break;
    }
    CHECK(!state || state == 'Z', "the server (pid %d) left with its host (state %c)", (int)server, state);
    CHECK(lingering <= 0 || process_state(lingering, NULL), "the host's child (pid %d) lives on", lingering);
    if (lingering > 0)
        kill(lingering, SIGKILL);
    test_remove_tree(dir);
}

/* ---- the compiler's environment ------------------------------------------------------- */

/* What clang would take from an application's environment: a header found
 * through CPATH or C_INCLUDE_PATH (probe_dir holds mosaic_env_probe.h,
 * PROBE 2), an option through CCC_OVERRIDE_OPTIONS (PROBE 3); and a
 * variable of the application's own. */
#define LEAKY_ENV(probe_dir) probe_dir[0], probe_dir[1], "CCC_OVERRIDE_OPTIONS=# +-DMOSAIC_ENV_INJECTED", \
                             "MOSAIC_TEST_MARK=1"
static const char src_env[] =
    "#if __has_include(<mosaic_env_probe.h>)\n#include <mosaic_env_probe.h>\n#else\n#define PROBE 1\n#endif\n"
    "#ifdef MOSAIC_ENV_INJECTED\n#undef PROBE\n#define PROBE 3\n#endif\n"
    "kernel void k(global int *o) { o[get_global_id(0)] = PROBE; }\n";

/* A fake tool NAME in dir that appends its environment and a line "---" to
 * dir/NAME.env, then runs the real one; its path in script (of size 160). */
static void env_recording_tool(const char *dir, const char *name, const char *real, char *script)
{
    snprintf(script, 160, "%s/%s", dir, name);
    char text[1024];
    snprintf(text, sizeof text,
             "#!/bin/sh\nlog=\"$(dirname \"$0\")/%s.env\"\nenv >> \"$log\"\necho --- >> \"$log\"\n"
             "exec %s \"$@\"\n",
             name, real);
    write_text(script, text, 0755);
}

/* The environments dir/NAME.env holds: how many, each only the variables a
 * compiler child gets (docs/compiler.md; PWD is the shell's own).  The file
 * is removed. */
static int recorded_environments(const char *dir, const char *name)
{
    char path[160], line[4096], other[64] = "";
    snprintf(path, sizeof path, "%s/%s.env", dir, name);
    FILE *f = fopen(path, "r");
    int n = 0, without_path = 0, others = 0;
    bool path_seen = false;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "---")) {
            without_path += !path_seen;
            path_seen = false;
            n++;
        } else if (!strcmp(line, "PATH=/usr/bin:/bin")) {
            path_seen = true;
        } else if (strcmp(line, "LC_ALL=C") && strncmp(line, "TMPDIR=", 7) && strncmp(line, "PWD=", 4) &&
                   others++ == 0) {
            snprintf(other, sizeof other, "%.*s", (int)strcspn(line, "="), line); /* its name only */
        }
    }
    if (f)
        fclose(f);
    unlink(path);
    CHECK(!others, "%s ran with %d more variables (%s...)", name, others, other);
    CHECK(!without_path, "%s ran without PATH=/usr/bin:/bin", name);
    return n;
}

/* The application's environment reaches no compiler child: clang (forked
 * from the server, or started afresh), the SPIR-V validator and translator,
 * the bitcode checker.  A kernel builds the same whatever CPATH says, and the
 * kernel cache cannot hand one process's environment to the next. */
TEST(compiler_environment)
{
    char probe[64], header[128], cpath[128], c_include_path[128];
    make_dir(probe, "probe");
    snprintf(header, sizeof header, "%s/mosaic_env_probe.h", probe);
    write_text(header, "#define PROBE 2\n", 0644);
    snprintf(cpath, sizeof cpath, "CPATH=%s", probe);
    snprintf(c_include_path, sizeof c_include_path, "C_INCLUDE_PATH=%s", probe);
    const char *probe_env[2] = {cpath, c_include_path};
    host h;
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "build", 1, "", src_env,
                   NULL) == 0,
          "through the fork server: %s", h.text);
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), "MOSAIC_CACHE=0", "MOSAIC_NO_FORK_SERVER=1", "TEST_HOST_ONCE=1"),
                   "build", 1, "", src_env, NULL) == 0,
          "clang started afresh: %s", h.text);
    /* the cache: a process with CPATH builds first, one without it is served */
    char cache[64], env_dir[128];
    make_dir(cache, "cache");
    snprintf(env_dir, sizeof env_dir, "MOSAIC_CACHE_DIR=%s", cache);
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), env_dir, "TEST_HOST_ONCE=1"), "build", 1, "", src_env, NULL) == 0,
          "%s", h.text);
    CHECK(run_host(&h, ENV(env_dir, "TEST_HOST_ONCE=1", "MOSAIC_CLANG=/bin/false"), "build", 1, "", src_env,
                   NULL) == 0,
          "the entry, for a process without CPATH: %s", h.text);
    test_remove_tree(cache);

    /* every tool, as it sees its environment */
    char dir[64], clang[160], env_clang[200], spirv_val[160], env_val[200], llvm_spirv[160], env_spirv[200];
    char opt[160], env_opt[200];
    make_dir(dir, "tools");
    env_recording_tool(dir, "clang", TEST_CLANG, clang);
    env_recording_tool(dir, "spirv-val", TEST_SPIRV_VAL, spirv_val);
    env_recording_tool(dir, "llvm-spirv", MOSAIC_TEST_LLVM_SPIRV, llvm_spirv);
    env_recording_tool(dir, "opt", TEST_OPT, opt);
    snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", clang);
    snprintf(env_val, sizeof env_val, "MOSAIC_SPIRV_VAL=%s", spirv_val);
    snprintf(env_spirv, sizeof env_spirv, "MOSAIC_LLVM_SPIRV=%s", llvm_spirv);
    snprintf(env_opt, sizeof env_opt, "MOSAIC_OPT=%s", opt);
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), env_clang, "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "build", 1, "",
                   src_env, NULL) == 0,
          "%s", h.text);
    CHECK(recorded_environments(dir, "clang") == 1, "clang from the fork server");
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), env_clang, "MOSAIC_CACHE=0", "MOSAIC_NO_FORK_SERVER=1",
                           "TEST_HOST_ONCE=1"),
                   "build", 1, "", src_env, NULL) == 0,
          "%s", h.text);
    CHECK(recorded_environments(dir, "clang") == 1, "clang started afresh");
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), env_val, env_spirv, "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "il", 5,
                   "", module_path("cache_a"), "5") == 0,
          "%s", h.text);
    CHECK(recorded_environments(dir, "spirv-val") == 1, "the SPIR-V validator");
    CHECK(recorded_environments(dir, "llvm-spirv") == 1, "the SPIR-V translator");
    char binary[128];
    snprintf(binary, sizeof binary, "%s/program.bin", dir);
    CHECK(run_host(&h, ENV("MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "binary", 1, "", src_env, binary) == 0, "%s",
          h.text);
    CHECK(run_host(&h, ENV(LEAKY_ENV(probe_env), env_opt, "MOSAIC_CACHE=0", "TEST_HOST_ONCE=1"), "binary", 1, "",
                   src_env, binary) == 0,
          "%s", h.text);
    CHECK(recorded_environments(dir, "opt") == 1, "the bitcode checker");
    test_remove_tree(dir);
    test_remove_tree(probe);
}

/* Output that is not bitcode: the build fails (CL_BUILD_PROGRAM_FAILURE), the binary is not "invalid". */
TEST(garbage_output)
{
    static const char *const garbage[] = {"printf 'this is not bitcode'", "printf 'BC\\300\\336 and then junk'"};
    for (int i = 0; i < 2; i++) {
        char dir[64], script[128], env_clang[160], body[512];
        snprintf(body, sizeof body,
                 "out=$(sed -n '/^\"-o\"$/{n;p;}' \"${1#@}\" | tr -d '\"')\n%s > \"$out\"\nexit 0", garbage[i]);
        fake_clang(dir, script, body);
        snprintf(env_clang, sizeof env_clang, "MOSAIC_CLANG=%s", script);
        host h;
        int status = run_host(&h, ENV(env_clang, "MOSAIC_CACHE=0"), "build", 1, "", src1, NULL);
        CHECK(status == 10 && strstr(h.text, "err -11 ") && strstr(h.text, "not LLVM bitcode"),
              "garbage %d: status %d: %s", i, status, h.text);
        test_remove_tree(dir);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--host"))
        return host_main(argc - 2, argv + 2);
    test_run(argc, argv);
    return test_summary();
}
