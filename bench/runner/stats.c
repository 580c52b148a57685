/*
 * The few statistics the runner reports: median, minimum and maximum of the
 * repetitions, and the figures derived from a median time (rates, shares
 * of the roofs, ratios).
 */
#include "report.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double stats_min(const double *v, int n)
{
    double m = n > 0 ? v[0] : 0;
    for (int i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

double stats_max(const double *v, int n)
{
    double m = n > 0 ? v[0] : 0;
    for (int i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

static int timed(const impl_result *x) { return x->status == STATUS_OK && x->median > 0; }

double result_per_op(const bench_result *r, const impl_result *x)
{
    return timed(x) ? x->median / (double)(r->ops > 0 ? r->ops : 1) : -1;
}

double result_gbs(const bench_result *r, const impl_result *x)
{
    return timed(x) && r->bytes > 0 ? r->bytes / x->median / 1e9 : -1;
}

double result_gflops(const bench_result *r, const impl_result *x)
{
    return timed(x) && r->flops > 0 ? r->flops / x->median / 1e9 : -1;
}

/* Of the roof read beside the row's runs (a row without a reading, none of
 * whose rounds ran, falls back to the run's highest); of the twin's
 * bandwidth for rows whose ops say so. */
double result_roof(const run_info *run, const bench_result *r)
{
    if (r->bound == BOUND_MEMORY && r->of_twin) {
        double gbs = result_gbs(r, &r->impl[run->twin]);
        return gbs > 0 ? gbs : 0;
    }
    if (r->bound == BOUND_MEMORY)
        return r->roof_high > 0 ? r->roof_high : run->triad_gbs;
    if (r->bound == BOUND_COMPUTE)
        return r->roof_high > 0 ? r->roof_high : run->fma_gflops;
    return 0;
}

double result_share(const run_info *run, const bench_result *r, const impl_result *x)
{
    double roof = result_roof(run, r);
    double rate = r->bound == BOUND_MEMORY ? result_gbs(r, x) : r->bound == BOUND_COMPUTE ? result_gflops(r, x) : -1;
    return rate < 0 || roof <= 0 ? -1 : rate / roof;
}

double result_blas_share(const run_info *run, const bench_result *r, const impl_result *x)
{
    return result_ratio(&r->impl[run->blas], x);
}

double result_ratio(const impl_result *x, const impl_result *to)
{
    return timed(x) && timed(to) ? x->median / to->median : -1;
}
