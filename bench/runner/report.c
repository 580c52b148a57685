/*
 * The table on stdout (a row as soon as its benchmark is done, so a long
 * run shows progress), the summary below it, and the CSV file.
 */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *impl_name(const run_info *run, int i)
{
    if (i < run->nplatforms)
        return run->platforms[i].name;
    return i == run->twin ? "C+OpenMP" : i == run->blas ? "OpenBLAS" : "alternative";
}

static const char *short_name(const run_info *run, int i) { return i == run->twin ? "C+OMP" : impl_name(run, i); }

static const char *size_name(bench_size s) { return s == SIZE_TINY ? "tiny" : s == SIZE_QUICK ? "quick" : "full"; }

static const char *bound_name(bench_bound b)
{
    return b == BOUND_MEMORY ? "memory" : b == BOUND_COMPUTE ? "compute" : "latency";
}

static char *fmt_time(char *buf, size_t len, double s)
{
    if (s < 0)
        snprintf(buf, len, "-");
    else if (s < 1e-3)
        snprintf(buf, len, s < 1e-5 ? "%.2fus" : s < 1e-4 ? "%.1fus" : "%.0fus", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, s < 1e-2 ? "%.2fms" : s < 1e-1 ? "%.1fms" : "%.0fms", s * 1e3);
    else
        snprintf(buf, len, "%.2fs", s);
    return buf;
}

/* The implementations shown in the table: the platforms and the twin. */
static int table_impls(const run_info *run) { return run->nplatforms + 1; }

void report_header(const run_info *run)
{
    printf("Mosaic benchmark runner: %s size, median of %d runs, %d thread%s; timing %s\n", size_name(run->size),
           run->reps, run->threads, run->threads == 1 ? "" : "s",
           run->cold ? "cold (the first run after each pause)" : "warm (the second of two runs after each pause)");
    printf("CPU: %s; C twins built with -O3 -march=%s; %s\n", run->cpu, run->march, run->date);
    printf("roofs, read at the start, at the end and in every round of a row: triad %.1f-%.1f GB/s, "
           "FMA peak %.0f-%.0f GFLOP/s (%s)\n",
           run->triad_low, run->triad_gbs, run->fma_low, run->fma_gflops, run->isa);
    printf("OpenBLAS, the GEMM rows' reference: %s\n", run->blas_info);
    for (int p = 0; p < run->nplatforms; p++)
        printf("platform %d: %s (%s; %s, %u compute units)\n", p, run->platforms[p].name, run->platforms[p].version,
               run->platforms[p].device_name, run->platforms[p].compute_units);
    const char *base = run->nplatforms ? run->platforms[run->base].name : "-";
    if (run->nplatforms)
        printf("time: per run (latency rows: per launch); X/%.1s: X's time / %s's (above 1: %s is faster)\n", base,
               base, base);
    else
        printf("no OpenCL platform: the twins alone; time: per run (latency rows: per launch)\n");
    printf("roof: share of the triad bandwidth (mem) or FMA peak (fp) read in the row's rounds (highest: of), or of "
           "the twin's bandwidth (twin: rows through __local memory and barriers)\n\n");
    printf("%-15s", "benchmark");
    for (int i = 0; i < table_impls(run); i++)
        printf(" %8.8s", short_name(run, i));
    if (run->nplatforms) {
        printf(" |");
        for (int i = 0; i < table_impls(run); i++)
            if (i != run->base) {
                char h[16];
                snprintf(h, sizeof h, "%.5s/%.1s", short_name(run, i), base);
                printf(" %7s", h);
            }
    }
    printf(" | roof");
    for (int i = 0; i < table_impls(run); i++)
        printf(" %6.6s", short_name(run, i));
    printf(" %9s\n", "of");
}

/* A row's OpenBLAS line: its time, and each implementation's share of it
 * (OpenBLAS's time / the implementation's: 100% is OpenBLAS's speed). */
static void report_blas(const run_info *run, const bench_result *r)
{
    char buf[32];
    const impl_result *blas = &r->impl[run->blas];
    if (blas->status == STATUS_NONE)
        return;
    if (blas->status == STATUS_FAIL) {
        printf("    OpenBLAS: FAIL\n");
        return;
    }
    printf("    OpenBLAS %s; share of OpenBLAS:", fmt_time(buf, sizeof buf, result_per_op(r, blas)));
    for (int i = 0; i < table_impls(run); i++) {
        double share = result_blas_share(run, r, &r->impl[i]);
        const char *sep = i + 1 < table_impls(run) ? "," : "";
        if (share < 0)
            printf(" %s -%s", short_name(run, i), sep);
        else
            printf(share < 0.1 ? " %s %.1f%%%s" : " %s %.0f%%%s", short_name(run, i), share * 100, sep);
    }
    printf("\n");
}

/* A row's crashes, one line per cause: the implementations that crashed
 * for the same reason (all of them, where the row's host code crashed)
 * share it. */
static void report_crashes(const run_info *run, const bench_result *r)
{
    if (r->lost) {
        printf("    crashed %s\n", r->impl[run->twin].why);
        return;
    }
    bool shown[MAX_IMPLS] = { false };
    for (int i = 0; i < MAX_IMPLS; i++) {
        if (r->impl[i].status != STATUS_CRASH || shown[i])
            continue;
        printf("    ");
        for (int j = i; j < MAX_IMPLS; j++)
            if (r->impl[j].status == STATUS_CRASH && !strcmp(r->impl[j].why, r->impl[i].why)) {
                printf("%s%s", j == i ? "" : ", ", j == run->alt ? r->alt_name : impl_name(run, j));
                shown[j] = true;
            }
        printf(" crashed %s\n", r->impl[i].why);
    }
}

void report_row(const run_info *run, const bench_result *r)
{
    char buf[32];
    printf("%-15s", r->name);
    for (int i = 0; i < table_impls(run); i++) {
        const impl_result *x = &r->impl[i];
        printf(" %8s", x->status == STATUS_FAIL    ? "FAIL"
                       : x->status == STATUS_CRASH ? "crashed"
                                                   : fmt_time(buf, sizeof buf, result_per_op(r, x)));
    }
    if (run->nplatforms) {
        printf(" |");
        for (int i = 0; i < table_impls(run); i++)
            if (i != run->base) {
                double ratio = result_ratio(&r->impl[i], &r->impl[run->base]);
                if (ratio < 0)
                    printf(" %7s", "-");
                else
                    printf(ratio < 10 ? " %7.2f" : " %7.1f", ratio);
            }
    }
    printf(" | %-4s", r->of_twin ? "twin" : r->bound == BOUND_MEMORY ? "mem" : r->bound == BOUND_COMPUTE ? "fp" : "-");
    for (int i = 0; i < table_impls(run); i++) {
        double share = result_share(run, r, &r->impl[i]);
        if (share < 0)
            printf(" %6s", "-");
        else
            printf(" %5.0f%%", share * 100);
    }
    double roof = r->of_twin ? result_roof(run, r) : r->roof_high; /* a reading, never the fallback */
    if (roof > 0)
        printf(r->bound == BOUND_MEMORY ? " %5.1f GB/s" : " %4.0f GF/s", roof);
    printf("\n");
    if (r->note[0])
        printf("    (%s)\n", r->note);
    report_blas(run, r);
    const impl_result *alt = &r->impl[run->alt];
    if (r->alt_name && alt->status != STATUS_NONE) {
        double ratio = result_ratio(alt, &r->impl[run->base]);
        if (alt->status == STATUS_FAIL)
            printf("    %s: FAIL\n", r->alt_name);
        else
            printf("    %s (one thread): %s; its time / %s's: %.2f\n", r->alt_name,
                   fmt_time(buf, sizeof buf, result_per_op(r, alt)), run->nplatforms ? impl_name(run, run->base) : "-",
                   ratio);
    }
    for (int i = 0; i < table_impls(run); i++)
        if (r->impl[i].status == STATUS_OK && r->impl[i].runs < run->reps) {
            printf("    (%d of %d runs: the rounds' time limit)\n", r->impl[i].runs, run->reps);
            break;
        }
    for (int i = 0; i < MAX_IMPLS; i++)
        if (r->impl[i].status == STATUS_FAIL)
            printf("    FAIL %s: %s\n", i == run->alt ? r->alt_name : impl_name(run, i), r->impl[i].why);
    report_crashes(run, r);
}

/* The rows the runner itself crashed in (lost), or those implementation i
 * crashed in (i >= 0); with list, their names after a colon. */
static int crashed_rows(const bench_result *results, int n, int i, bool list)
{
    int count = 0;
    for (int k = 0; k < n; k++)
        if (results[k].lost ? i < 0 : i >= 0 && results[k].impl[i].status == STATUS_CRASH) {
            if (list)
                printf("%s %s", count ? "," : ":", results[k].name);
            count++;
        }
    return count;
}

/* Below the FAIL count, only where something crashed: the rows each
 * implementation crashed in (their figures are missing from its geomeans),
 * loudly for Mosaic, whose crash is a bug of its own, and for the rows lost
 * to a crash outside the platforms' calls. */
static void report_crash_summary(const run_info *run, const bench_result *results, int n)
{
    int lost = crashed_rows(results, n, -1, false);
    if (lost) {
        printf("CRASHED OUTSIDE ANY PLATFORM'S CALLS in %d row%s", lost, lost == 1 ? "" : "s");
        crashed_rows(results, n, -1, true);
        printf(" (no figures; the line under each says where)\n");
    }
    for (int i = 0; i < MAX_IMPLS; i++) {
        int count = crashed_rows(results, n, i, false);
        if (!count)
            continue;
        bool mosaic = i < run->nplatforms && !strcmp(run->platforms[i].name, "Mosaic");
        if (mosaic)
            printf("MOSAIC CRASHED (a bug of Mosaic)");
        else
            printf("%s crashed", i == run->alt ? "the alternative" : impl_name(run, i));
        printf(" in %d row%s", count, count == 1 ? "" : "s");
        crashed_rows(results, n, i, true);
        printf(" (the table shows the row%s run again without it)\n", count == 1 ? "" : "s");
    }
    if (run->crash_note[0])
        printf("%s\n", run->crash_note);
}

void report_summary(const run_info *run, const bench_result *results, int n)
{
    int fails = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < MAX_IMPLS; i++)
            fails += results[k].impl[i].status == STATUS_FAIL;
    printf("\n");
    if (run->nplatforms) {
        const char *base = impl_name(run, run->base);
        for (int i = 0; i < table_impls(run); i++) {
            if (i == run->base)
                continue;
            double logsum = 0;
            int count = 0;
            for (int k = 0; k < n; k++) {
                double ratio = result_ratio(&results[k].impl[i], &results[k].impl[run->base]);
                if (ratio > 0) {
                    logsum += log(ratio);
                    count++;
                }
            }
            if (count)
                printf("geomean over %d benchmarks of %s's time / %s's: %.2f (%s / %s: %.2f)\n", count,
                       impl_name(run, i), base, exp(logsum / count), base, impl_name(run, i), exp(-logsum / count));
        }
    }
    for (int i = 0; i < table_impls(run); i++) {
        double logsum = 0, low = -1;
        int count = 0;
        const char *lowest = "";
        for (int k = 0; k < n; k++) {
            double share = result_blas_share(run, &results[k], &results[k].impl[i]);
            if (share > 0) {
                logsum += log(share);
                count++;
                if (low < 0 || share < low) {
                    low = share;
                    lowest = results[k].name;
                }
            }
        }
        if (count)
            printf("share of OpenBLAS over %d row%s: %s geomean %.0f%%, lowest %.0f%% (%s)\n", count,
                   count == 1 ? "" : "s", impl_name(run, i), exp(logsum / count) * 100, low * 100, lowest);
    }
    printf("%d FAIL\n", fails);
    report_crash_summary(run, results, n);
}

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v, const char *fmt)
{
    fputc(',', f);
    if (v >= 0)
        fprintf(f, fmt, v);
}

int report_csv(const char *path, const run_info *run, const bench_result *results, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "benchmark,group,bound,implementation,status,threads,runs,median_ms,min_ms,max_ms,per_op_us,"
               "gb_per_s,gflop_per_s,roof_share,time_over_%s,time_over_c,roof,roof_of,share_of_openblas,note\n",
            run->nplatforms ? impl_name(run, run->base) : "base");
    /* The roofs' highest readings, and in the roof column their lowest;
     * the triad's note says how the rows were timed. */
    fprintf(f, "roof_triad,roof,memory,C+OpenMP,ok,%d,%d,,,,,%.3f,,,,,%.3f,triad,,%s\n", run->threads, run->reps,
            run->triad_gbs, run->triad_low, run->cold ? "rows timed cold" : "rows timed warm");
    fprintf(f, "roof_fma,roof,compute,C+OpenMP,ok,%d,%d,,,,,,%.3f,,,,%.3f,fma,,", run->threads, run->reps,
            run->fma_gflops, run->fma_low);
    csv_text(f, run->isa);
    fputc('\n', f);
    for (int k = 0; k < n; k++) {
        const bench_result *r = &results[k];
        for (int i = 0; i < MAX_IMPLS; i++) {
            const impl_result *x = &r->impl[i];
            if (x->status == STATUS_NONE)
                continue;
            const char *name = i == run->alt ? r->alt_name : impl_name(run, i);
            int threads = i == run->alt ? 1 : i == run->blas ? blas_threads() : run->threads;
            fprintf(f, "%s,%s,%s,%s,%s,%d,%d", r->name, r->group, bound_name(r->bound), name,
                    x->status == STATUS_OK ? "ok" : x->status == STATUS_FAIL ? "FAIL" : "crashed", threads, x->runs);
            int ok = x->status == STATUS_OK;
            csv_num(f, ok ? x->median * 1e3 : -1, "%.6f");
            csv_num(f, ok ? x->min * 1e3 : -1, "%.6f");
            csv_num(f, ok ? x->max * 1e3 : -1, "%.6f");
            csv_num(f, r->ops > 0 ? result_per_op(r, x) * 1e6 : -1, "%.4f");
            csv_num(f, result_gbs(r, x), "%.3f");
            csv_num(f, result_gflops(r, x), "%.3f");
            csv_num(f, result_share(run, r, x), "%.4f");
            csv_num(f, run->nplatforms ? result_ratio(x, &r->impl[run->base]) : -1, "%.4f");
            csv_num(f, result_ratio(x, &r->impl[run->twin]), "%.4f");
            double roof = r->of_twin ? result_roof(run, r) : r->roof_high;
            csv_num(f, roof > 0 ? roof : -1, "%.3f");
            fprintf(f, ",%s", r->of_twin                    ? "twin"
                              : r->bound == BOUND_MEMORY  ? "triad"
                              : r->bound == BOUND_COMPUTE ? "fma"
                                                          : "");
            csv_num(f, result_blas_share(run, r, x), "%.4f");
            fputc(',', f);
            if (x->status == STATUS_FAIL)
                csv_text(f, x->why);
            else if (x->status == STATUS_CRASH) {
                char note[300];
                snprintf(note, sizeof note, "crashed %s", x->why);
                csv_text(f, note);
            }
            else if (r->note[0])
                csv_text(f, r->note);
            fputc('\n', f);
        }
    }
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}
