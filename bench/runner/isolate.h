/*
 * The rows in a child process (isolate.c), so that a platform that crashes
 * (PoCL's kernel compiler aborting on an assertion) costs its own figures
 * of one row, not the run.
 *
 * The parent is the runner as started: it reads the roofs, runs the rows
 * in a child, reports.  The child is the same program run again with
 * --result-fd: it opens the platforms, runs its rows as one process does
 * and writes what it does and finds to that pipe.  As both ends are the
 * same program, the records are the runner's structs as they lie in
 * memory (the parent restores their pointers into the table of rows).
 * The child says which platform's calls it enters before it enters them,
 * so when it dies, the parent knows whose calls were running: it runs that
 * row again in a child of its own without that platform, then the rows
 * after it in a new child with every platform.
 */
#ifndef BENCH_ISOLATE_H
#define BENCH_ISOLATE_H

#include "report.h"

/* ---- the child's side: records to the parent; nothing where there is no channel ---- */

void channel_open(int fd);
/* From now on the calls of `platform` run (""/NULL: the runner's own code:
 * setup, twins, OpenBLAS, roofs) for table row `row` (-1: opening the
 * platforms).  Written only when it changes. */
void channel_step(int row, const char *platform);
void channel_platforms(const bench_platform *platforms, int n); /* the platforms opened */
void channel_row(int row, const bench_result *r);                 /* a row's results */

/* ---- the parent's side ---- */

typedef struct isolate_job {
    /* A child's arguments (the program first) but for --only, --skip-platforms
     * and --result-fd, which isolate_run adds; NULL-terminated. */
    const char *const *args;
    const int *rows; /* table indexes of the rows, in the order they run */
    int nrows;
    const char *(*row_name)(int row);
    void (*row_identity)(bench_result *r, int row); /* the pointers a record cannot carry */
} isolate_job;

/* Runs the job's rows in children; fills results[0..nrows) in order, and
 * run's platforms (the first child's list, copied into `platforms`, with
 * base, twin, alt and blas).  Returns 0; 1 if Mosaic crashed or a child
 * died outside any platform's calls (a bug of the runner); 2 if the first
 * child ended on bad usage (it says why). */
int isolate_run(const isolate_job *job, run_info *run, bench_platform *platforms, bench_result *results);

#endif
