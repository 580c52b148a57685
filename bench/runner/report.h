/*
 * Results of a run, and what is made of them: the statistics (stats.c),
 * the table and the CSV file (report.c), the chart (svg.c).
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include "runner.h"

#include <stdbool.h>

/* The implementations of a row: the platforms first, then the twin, then
 * the row's alternative (memcpy) and OpenBLAS where it has them. */
enum { MAX_IMPLS = MAX_PLATFORMS + 3, MAX_REPS = 101 };

/* CRASH: the process running the row died in this implementation's calls
 * (a signal, or an exit of its own): the row ran again without it. */
typedef enum { STATUS_NONE, STATUS_OK, STATUS_FAIL, STATUS_CRASH } run_status;

typedef struct impl_result {
    run_status status; /* NONE: not run (no such alternative) */
    char why[256];     /* FAIL, CRASH: why */
    double median, min, max; /* seconds per run */
    int runs;
} impl_result;

typedef struct bench_result {
    const char *name, *group, *what;
    bench_bound bound;
    double bytes, flops; /* per run */
    long ops;            /* per run (latency rows) */
    const char *alt_name;
    bool of_twin; /* its share is of the twin's bandwidth (bench_ops.share_of_twin) */
    bool lost;    /* its process died outside any platform's calls: every implementation CRASH, no figures */
    char note[128]; /* bench_ctx.note */
    impl_result impl[MAX_IMPLS];
    /* The roof of a memory- or compute-bound row, read in each of its
     * rounds beside its runs (GB/s or GFLOP/s): its shares are of the
     * highest reading, as a reading can only be lowered (by a thread of
     * the implementation before still running, or the host's neighbours)
     * and a lowered roof would flatter the row.  0: no reading. */
    double roof_low, roof_high;
} bench_result;

typedef struct run_info {
    bench_size size;
    int reps, threads;
    bool cold;         /* --timing cold: each row's first run after the pause timed */
    const char *march; /* the twins' -march */
    const char *isa;   /* the FMA roof's vectors */
    char cpu[128], date[32];
    double triad_gbs, fma_gflops; /* the highest readings of the run */
    double triad_low, fma_low;    /* the lowest */
    const roofs *roofs;           /* the triad's arrays, for the rows' readings */
    long row_fma_iters;           /* the FMA roof's length in a row's reading */
    bench_platform *platforms;
    int nplatforms;
    int base; /* the platform the ratios are to: Mosaic where it runs */
    int twin, alt, blas; /* indexes of the twin, the alternative and OpenBLAS in impl[] */
    char blas_info[192]; /* OpenBLAS's build and threads, or why there is none */
    char crash_note[256]; /* a crash outside the rows (a platform left out of the run): why; empty: none */
} run_info;

const char *impl_name(const run_info *run, int i);

/* stats.c */
double stats_median(double *v, int n); /* sorts v */
double stats_min(const double *v, int n);
double stats_max(const double *v, int n);

/* Derived figures of one implementation's result; negative where they do not apply. */
double result_per_op(const bench_result *r, const impl_result *x); /* seconds per operation */
double result_gbs(const bench_result *r, const impl_result *x);
double result_gflops(const bench_result *r, const impl_result *x);
double result_share(const run_info *run, const bench_result *r, const impl_result *x); /* of the row's roof */
double result_roof(const run_info *run, const bench_result *r); /* that roof, GB/s or GFLOP/s; 0: none */
double result_blas_share(const run_info *run, const bench_result *r, const impl_result *x); /* OpenBLAS's time / x's */
double result_ratio(const impl_result *x, const impl_result *to); /* time of x / time of `to` */

/* report.c */
void report_header(const run_info *run);
void report_row(const run_info *run, const bench_result *r);
void report_summary(const run_info *run, const bench_result *results, int n);
int report_csv(const char *path, const run_info *run, const bench_result *results, int n);

/* svg.c */
int svg_write(const char *path, const run_info *run, const bench_result *results, int n);

#endif
