/*
 * Mosaic's one test harness (tests/README.md is the long version).
 *
 * A test program is a set of named cases.  Its list, test_foo.list beside
 * test_foo.c, names them once, for the C runner and for CMake alike:
 *
 *     TEST_CASE(name)                    a case; a ctest test of its own
 *     TEST_CASE(name, PROPERTIES...)     ... with ctest properties
 *     TEST_GROUP(group [, PROPERTIES...]) the cases after it form one ctest
 *                                        test, `program group`
 *     TEST_RUN(test, selector, PROPERTIES...)  one more ctest test running
 *                                        the case or group `selector` again
 *                                        (other environment, valgrind...)
 *
 * The program says which list it has, then includes this header:
 *
 *     #define TEST_LIST "test_foo.list"
 *     #include "test.h"
 *
 *     TEST(name) { CHECK(...); CHECK_ERR(clFoo(...), CL_SUCCESS); }
 *
 *     int main(int argc, char **argv)
 *     {
 *         ...set-up shared by the cases...
 *         test_run(argc, argv);      // the case or group named by argv[1]; all without one
 *         ...tear-down...
 *         return test_summary();     // "N passed, N failed"; 0, 1, or 77 (all skipped)
 *     }
 *
 * A list entry without its TEST() does not compile; a TEST() the list does
 * not name does not either (-Werror=unused-function on test programs).
 * CHECK, CHECK_ERR and TEST_FAIL record a failure with its line and carry on.
 * TEST_SKIP("why") ends the current case as skipped: a run whose every case
 * was skipped exits 77, which ctest reports as skipped.
 */
#ifndef MOSAIC_TEST_H
#define MOSAIC_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- checks ---------------------------------------------------------------- */

extern int test_passed, test_failed; /* checks so far, every thread together */

void test_check_failed(const char *file, int line, const char *condition, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
void test_err_failed(const char *file, int line, const char *expression, long got, const char *expected_text,
                     long expected);

/* CHECK(condition) or CHECK(condition, "printf format", args...): the
 * message, printed after the condition when it fails, says what was seen
 * (its arguments are evaluated only then). */
#define CHECK(condition, ...)                                                                  \
    do {                                                                                       \
        if (condition)                                                                         \
            __atomic_add_fetch(&test_passed, 1, __ATOMIC_RELAXED);                             \
        else                                                                                   \
            test_check_failed(__FILE__, __LINE__, #condition, ": " __VA_ARGS__);               \
    } while (0)

/* An unconditional failure: TEST_FAIL("printf format", args...). */
#define TEST_FAIL(...) test_check_failed(__FILE__, __LINE__, NULL, ": " __VA_ARGS__)

/* An OpenCL status code (or any integer) against the one expected, naming
 * both on failure. */
#define CHECK_ERR(expression, expected)                                                        \
    do {                                                                                       \
        long check_got_ = (long)(expression), check_want_ = (long)(expected);                 \
        if (check_got_ == check_want_)                                                         \
            __atomic_add_fetch(&test_passed, 1, __ATOMIC_RELAXED);                             \
        else                                                                                   \
            test_err_failed(__FILE__, __LINE__, #expression, check_got_, #expected, check_want_); \
    } while (0)

/* ---- cases ----------------------------------------------------------------- */

typedef struct test_case {
    const char *name;
    void (*run)(void); /* NULL: a TEST_GROUP entry, whose name the cases after it share */
} test_case;

/* Defines case `name` (the function test_case_<name>). */
#define TEST(name) static void test_case_##name(void)

/* Ends the current case, from its own body, as skipped (printf-style reason). */
#define TEST_SKIP(...)                                                                         \
    do {                                                                                       \
        test_skip_case(__VA_ARGS__);                                                           \
        return;                                                                                \
    } while (0)
void test_skip_case(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* The exit status of a run whose cases were all skipped (ctest's SKIP_RETURN_CODE). */
enum { TEST_EXIT_SKIPPED = 77 };

/* Runs the cases `argv[1]` selects: the case of that name, or the cases of
 * that group; every case without an argument.  `--list` prints the cases
 * (group/name).  Selecting nothing is a failure. */
void test_run_cases(const test_case *cases, size_t count, int argc, char **argv);

/* Prints "N passed, N failed"; returns the exit status: 1 if a check
 * failed, TEST_EXIT_SKIPPED if every case run was skipped, else 0. */
int test_summary(void);

/* The case running now ("" outside cases). */
const char *test_current_case(void);

/* Milliseconds of the monotonic clock. */
double test_now_ms(void);

/* stderr into a file between test_capture_stderr and test_captured_stderr,
 * which reads what was written (MOSAIC_DEBUG's lines) into text and puts
 * stderr back; false (a failed check) when no file could be made. */
typedef struct test_stderr_capture {
    int fd, saved;
} test_stderr_capture;
bool test_capture_stderr(test_stderr_capture *c);
void test_captured_stderr(test_stderr_capture *c, char *text, size_t size);

/* Removes the directory tree at dir, whatever is in it. */
void test_remove_tree(const char *dir);

/* The SPIR-V module the build made at <dir>/<name>.spv (tests/e2e/spirv),
 * malloc'd, its size in *size; NULL, with the case failed, when it cannot
 * be read whole. */
void *test_read_spirv(const char *dir, const char *name, size_t *size);

/* For a program's main: a kernel cache of the run's own, so its tests
 * neither read nor fill the user's.  Sets MOSAIC_CACHE_DIR to a new
 * directory unless the environment names one; returns it (for
 * test_remove_tree at the end), or NULL when it set nothing. */
const char *test_private_cache(void);

/* The kernel cache's entries under `cache` (cache/xx/<hash>.<suffix>) with
 * this suffix ("obj", "ptx"...): fn(path, data) for each when fn is not
 * NULL; returns how many there are. */
int test_each_cache_entry(const char *cache, const char *suffix, void (*fn)(const char *path, void *data),
                          void *data);

/* ---- the program's list ------------------------------------------------------ */
#ifdef TEST_LIST
#define TEST_CASE(name, ...) static void test_case_##name(void);
#define TEST_GROUP(name, ...)
#define TEST_RUN(...)
#include TEST_LIST
#undef TEST_CASE
#undef TEST_GROUP

static const test_case test_cases[] = {
#define TEST_CASE(name, ...) { #name, test_case_##name },
#define TEST_GROUP(name, ...) { #name, NULL },
#include TEST_LIST
#undef TEST_CASE
#undef TEST_GROUP
#undef TEST_RUN
};

/* test_run(argc, argv): runs this program's cases (see test_run_cases). */
#define test_run(argc, argv) test_run_cases(test_cases, sizeof test_cases / sizeof test_cases[0], (argc), (argv))
#endif

#endif
