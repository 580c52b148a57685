/* The test harness's runner and counters (see test.h). */
#define _GNU_SOURCE /* nftw */
#include "test.h"

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int test_passed, test_failed;

static const char *current = "";
static bool current_skipped;
static int cases_run, cases_skipped;

static void count_failure(void) { __atomic_add_fetch(&test_failed, 1, __ATOMIC_RELAXED); }

void test_check_failed(const char *file, int line, const char *condition, const char *format, ...)
{
    count_failure();
    /* format is ": " followed by the caller's message, if any; no
     * condition: a TEST_FAIL, the message alone */
    flockfile(stderr);
    if (condition)
        fprintf(stderr, "%s:%d: CHECK failed: %s", file, line, condition);
    else
        fprintf(stderr, "%s:%d: ", file, line);
    if (format[2]) {
        va_list ap;
        va_start(ap, format);
        vfprintf(stderr, condition ? format : format + 2, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    funlockfile(stderr);
}

void test_err_failed(const char *file, int line, const char *expression, long got, const char *expected_text,
                     long expected)
{
    count_failure();
    fprintf(stderr, "%s:%d: %s returned %ld, expected %s (%ld)\n", file, line, expression, got, expected_text,
            expected);
}

void test_skip_case(const char *format, ...)
{
    current_skipped = true;
    printf("skipped: %s: ", current);
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

const char *test_current_case(void) { return current; }

static void run_one(const char *group, const test_case *c)
{
    current = c->name;
    current_skipped = false;
    int failed_before = __atomic_load_n(&test_failed, __ATOMIC_RELAXED);
    printf("-- %s%s%s\n", group ? group : "", group ? "/" : "", c->name);
    fflush(stdout);
    c->run();
    cases_run++;
    if (current_skipped)
        cases_skipped++;
    int failed = __atomic_load_n(&test_failed, __ATOMIC_RELAXED) - failed_before;
    if (failed)
        printf("-- %s: FAILED (%d check%s)\n", c->name, failed, failed == 1 ? "" : "s");
    fflush(stdout);
    fflush(stderr);
    current = "";
}

void test_run_cases(const test_case *cases, size_t count, int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (only && !strcmp(only, "--list")) {
        const char *group = NULL;
        for (size_t i = 0; i < count; i++) {
            if (!cases[i].run)
                group = cases[i].name;
            else
                printf("%s%s%s\n", group ? group : "", group ? "/" : "", cases[i].name);
        }
        return;
    }
    const char *group = NULL;
    int selected = 0;
    for (size_t i = 0; i < count; i++) {
        if (!cases[i].run) {
            group = cases[i].name;
            continue;
        }
        if (only && strcmp(only, cases[i].name) && !(group && !strcmp(only, group)))
            continue;
        selected++;
        run_one(group, &cases[i]);
    }
    if (!selected) {
        fprintf(stderr, "no case or group named %s (--list lists them)\n", only ? only : "(any)");
        count_failure();
    }
}

int test_summary(void)
{
    int failed = __atomic_load_n(&test_failed, __ATOMIC_RELAXED);
    printf("%d passed, %d failed\n", __atomic_load_n(&test_passed, __ATOMIC_RELAXED), failed);
    if (cases_skipped)
        printf("%d of %d case%s skipped\n", cases_skipped, cases_run, cases_run == 1 ? "" : "s");
    fflush(stdout);
    if (failed)
        return 1;
    if (cases_run > 0 && cases_skipped == cases_run)
        return TEST_EXIT_SKIPPED;
    return 0;
}

double test_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

bool test_capture_stderr(test_stderr_capture *c)
{
    char path[] = "/tmp/mosaic-stderr-XXXXXX";
    c->fd = mkstemp(path), c->saved = dup(2);
    CHECK(c->fd >= 0 && c->saved >= 0, "a file for stderr");
    if (c->fd < 0 || c->saved < 0)
        return false;
    unlink(path);
    fflush(stderr);
    dup2(c->fd, 2);
    return true;
}

void test_captured_stderr(test_stderr_capture *c, char *text, size_t size)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    ssize_t n = pread(c->fd, text, size - 1, 0);
    close(c->fd);
    text[n > 0 ? n : 0] = 0;
}

int test_each_cache_entry(const char *cache, const char *suffix, void (*fn)(const char *path, void *data),
                          void *data)
{
    int n = 0;
    size_t want = strlen(suffix);
    DIR *d = opendir(cache);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strlen(e->d_name) != 2 || !strcmp(e->d_name, "..")) /* the cache's subdirectories, not its parent */
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", cache, e->d_name);
        DIR *d2 = opendir(sub);
        struct dirent *f;
        while (d2 && (f = readdir(d2))) {
            size_t len = strlen(f->d_name);
            if (len > want + 1 && f->d_name[len - want - 1] == '.' && !strcmp(f->d_name + len - want, suffix)) {
                char path[PATH_MAX + 256];
                snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
                if (fn)
                    fn(path, data);
                n++;
            }
        }
        if (d2)
            closedir(d2);
    }
    if (d)
        closedir(d);
    return n;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void test_remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void *test_read_spirv(const char *dir, const char *name, size_t *size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.spv", dir, name);
    FILE *f = fopen(path, "rb");
    long n = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;
    void *data = n > 0 && !fseek(f, 0, SEEK_SET) ? malloc((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (f)
        fclose(f);
    if (!data)
        TEST_FAIL("cannot read %s", path);
    *size = data ? (size_t)n : 0;
    return data;
}

const char *test_private_cache(void)
{
    static char cache[] = "/tmp/mosaic-test-cache-XXXXXX";
    if (getenv("MOSAIC_CACHE_DIR") || !mkdtemp(cache))
        return NULL;
    setenv("MOSAIC_CACHE_DIR", cache, 1);
    return cache;
}
