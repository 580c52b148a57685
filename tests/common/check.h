/* A tiny test harness: CHECK records a failure with its line and goes on;
 * a test program ends with `return check_summary();`, which prints
 * "N passed, N failed" and returns non-zero if anything failed. */
#ifndef MOSAIC_TEST_CHECK_H
#define MOSAIC_TEST_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            check_passed++;                                                           \
        } else {                                                                      \
            check_failed++;                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
        }                                                                             \
    } while (0)

/* Compare an OpenCL status code, naming both values on failure. */
#define CHECK_ERR(expr, expected)                                                     \
    do {                                                                              \
        long check_got_ = (long)(expr), check_want_ = (long)(expected);              \
        if (check_got_ == check_want_) {                                              \
            check_passed++;                                                           \
        } else {                                                                      \
            check_failed++;                                                           \
            fprintf(stderr, "%s:%d: %s returned %ld, expected %s (%ld)\n", __FILE__,  \
                    __LINE__, #expr, check_got_, #expected, check_want_);             \
        }                                                                             \
    } while (0)

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
