/*
 * The benchmark runner: every benchmark of bench_list.h on every OpenCL
 * platform's CPU device the ICD loader finds (Mosaic and PoCL side by
 * side), beside its C + OpenMP twin (and OpenBLAS, for the rows that have
 * it, where the runner was built with it), with the machine's two roofs
 * measured in the same run.  Prints a table, writes a CSV file and an SVG
 * chart.
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/bench_runner [options]
 *
 * (`make bench` and `make bench-quick` run it; docs/performance.md, "The
 * benchmark runner", lists the options, says what the columns mean and
 * how it measures.)
 *
 * For each benchmark: set up the inputs and the host's reference; prepare
 * every implementation and run it once (warm-up: PoCL compiles at the first
 * launch, pages are touched) and check its result; then `reps` rounds in
 * which every implementation runs once, the order rotating from round to
 * round so none always runs right after another; check every result again;
 * report the median of the rounds.  In a round, each implementation (and
 * the triad roof) starts after a pause in which the others' threads fall
 * asleep, then runs twice, and the second run is timed: its threads are
 * awake, as STREAM and the roofs read a machine (--timing cold times the
 * first run after the pause instead: thread wake-ups included).  An
 * implementation whose run fails or whose result is wrong is a FAIL from
 * then on and is not timed.  No round starts once a benchmark's rounds
 * have taken 2 s (quick; full: 15 s), so a slow implementation or a loaded
 * machine cannot make the run last hours.
 *
 * The rows run in a child process, this program started again
 * (isolate.h): a platform that crashes in a row costs its figures of that
 * row, which runs again without it, and the run goes on (--in-process: no
 * child, every row in this process).
 */
#define _GNU_SOURCE
#include "isolate.h"

#include <omp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_MARCH
#define BENCH_MARCH "native"
#endif

typedef struct bench_entry {
    const char *name, *group, *what;
    bench_bound bound;
    const bench_ops *ops;
    int variant;
} bench_entry;

static const bench_entry table[] = {
#define BENCH(name, group, bound, ops, variant, what) { #name, #group, what, BOUND_##bound, &ops, variant },
#include "bench_list.h"
#undef BENCH
};
enum { NUM_BENCH = sizeof table / sizeof *table };

typedef struct options {
    bench_size size;
    int reps, threads; /* threads 0: all the cores */
    bool cold;         /* time the first run after the pause, not the second */
    bool in_process;   /* every row in this process, no child */
    int result_fd;     /* a child's pipe to its parent (isolate.h); -1: not a child */
    const char *only, *platforms, *csv, *svg, *fault, *crash;
    const char *skip; /* a child's platforms to leave out (after a crash) */
    bool gpu;          /* each platform's first GPU instead of its first CPU */
} options;

/* --inject-crash ROW:PLATFORM: the row, and the platform in whose calls it aborts. */
static const bench_entry *crash_row;
static char crash_platform[32];

static void usage(FILE *f)
{
    fprintf(f, "usage: bench_runner [--size tiny|quick|full] [--reps N] [--threads N] [--timing warm|cold]\n"
               "                    [--only NAMES] [--platforms NAMES] [--device cpu|gpu] [--csv FILE] [--svg FILE]\n"
               "                    [--inject-fault NAME] [--inject-crash ROW:PLATFORM] [--in-process] [--list]\n"
               "  --size       problem sizes: tiny (a test), quick (default), full (a 16-core machine)\n"
               "  --reps       timed runs of each implementation; the median is reported (quick: 5, full: 7)\n"
               "  --threads    OpenMP's and OpenBLAS's threads, Mosaic's workers, PoCL's compute units\n"
               "               (default: all cores)\n"
               "  --timing     warm (default): time the second of two runs after each pause, threads awake;\n"
               "               cold: time the first, the threads' wake-up included\n"
               "  --only       comma-separated benchmarks or groups (bench_list.h) to run\n"
               "  --platforms  comma-separated platforms to run (Mosaic, PoCL...; default: every CPU platform)\n"
               "  --device     cpu (default): each platform's first CPU device; gpu: its first GPU device\n"
               "               (the C twins and OpenBLAS still run on the CPU)\n"
               "  --csv, --svg where to write the results (default: none)\n"
               "  --inject-fault NAME  corrupt NAME's results as read back, to show the checks catch it\n"
               "  --inject-crash ROW:PLATFORM  abort in PLATFORM's calls in ROW (C+OpenMP: in the twin's),\n"
               "               to show a crash costs only that row's figures of that platform\n"
               "  --in-process every row in this process (default: the rows run in a child process, and a\n"
               "               row whose platform crashed runs again without it)\n"
               "  --list       list the benchmarks\n"
               "The same from the environment: BENCH_SIZE, BENCH_REPS, BENCH_THREADS, BENCH_TIMING,\n"
               "BENCH_ONLY, BENCH_PLATFORMS, BENCH_DEVICE, BENCH_CSV, BENCH_SVG (an option wins over its variable).\n"
               "Exit status: 0 if every result was right, 1 if any FAIL or Mosaic crashed, 2 on bad usage.\n"
               "(--result-fd and --skip-platforms are the runner's own, for its child processes.)\n");
}

static int parse_size(const char *s, bench_size *out)
{
    if (!strcmp(s, "tiny"))
        *out = SIZE_TINY;
    else if (!strcmp(s, "quick"))
        *out = SIZE_QUICK;
    else if (!strcmp(s, "full"))
        *out = SIZE_FULL;
    else
        return -1;
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    const char *size = getenv("BENCH_SIZE"), *reps = getenv("BENCH_REPS"), *threads = getenv("BENCH_THREADS");
    const char *timing = getenv("BENCH_TIMING"), *device = getenv("BENCH_DEVICE");
    o->only = getenv("BENCH_ONLY");
    o->platforms = getenv("BENCH_PLATFORMS");
    o->csv = getenv("BENCH_CSV");
    o->svg = getenv("BENCH_SVG");
    o->result_fd = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--list")) {
            for (int k = 0; k < NUM_BENCH; k++)
                printf("%-15s %-8s %s\n", table[k].name, table[k].group, table[k].what);
            exit(0);
        } else if (!strcmp(a, "--in-process")) {
            o->in_process = true;
            continue;
        } else if (!v) {
            fprintf(stderr, "bench_runner: %s needs a value\n", a);
            return -1;
        } else if (!strcmp(a, "--size"))
            size = v;
        else if (!strcmp(a, "--reps"))
            reps = v;
        else if (!strcmp(a, "--threads"))
            threads = v;
        else if (!strcmp(a, "--timing"))
            timing = v;
        else if (!strcmp(a, "--only"))
            o->only = v;
        else if (!strcmp(a, "--platforms"))
            o->platforms = v;
        else if (!strcmp(a, "--device"))
            device = v;
        else if (!strcmp(a, "--csv"))
            o->csv = v;
        else if (!strcmp(a, "--svg"))
            o->svg = v;
        else if (!strcmp(a, "--inject-fault"))
            o->fault = v;
        else if (!strcmp(a, "--inject-crash"))
            o->crash = v;
        else if (!strcmp(a, "--skip-platforms"))
            o->skip = v;
        else if (!strcmp(a, "--result-fd")) {
            if (parse_int(v, 0, 1 << 20, &o->result_fd)) {
                fprintf(stderr, "bench_runner: --result-fd needs a file descriptor, not %s\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "bench_runner: unknown option %s\n", a);
            return -1;
        }
        i++;
    }
    o->size = SIZE_QUICK;
    if (size && *size && parse_size(size, &o->size)) {
        fprintf(stderr, "bench_runner: size must be tiny, quick or full, not %s\n", size);
        return -1;
    }
    o->reps = o->size == SIZE_TINY ? 3 : o->size == SIZE_QUICK ? 5 : 7;
    if (reps && *reps && parse_int(reps, 1, MAX_REPS, &o->reps)) {
        fprintf(stderr, "bench_runner: repetitions must be 1 to %d, not %s\n", MAX_REPS, reps);
        return -1;
    }
    o->threads = 0;
    if (threads && *threads && parse_int(threads, 1, 1024, &o->threads)) {
        fprintf(stderr, "bench_runner: threads must be 1 to 1024, not %s\n", threads);
        return -1;
    }
    o->cold = timing && !strcmp(timing, "cold");
    if (timing && *timing && !o->cold && strcmp(timing, "warm")) {
        fprintf(stderr, "bench_runner: timing must be warm or cold, not %s\n", timing);
        return -1;
    }
    o->gpu = device && !strcmp(device, "gpu");
    if (device && *device && !o->gpu && strcmp(device, "cpu")) {
        fprintf(stderr, "bench_runner: device must be cpu or gpu, not %s\n", device);
        return -1;
    }
    return 0;
}

/* Is `name` (or `group`) in the comma-separated list?  No list: yes. */
static int listed(const char *list, const char *name, const char *group)
{
    if (!list || !*list)
        return 1;
    size_t n = strlen(name), g = group ? strlen(group) : 0;
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        if ((len == n && !strncasecmp(s, name, n)) || (group && len == g && !strncasecmp(s, group, g)))
            return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

/* Names a list gives that are no benchmark's and no group's. */
static int unknown_names(const char *list)
{
    int unknown = 0;
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        int found = 0;
        for (int k = 0; k < NUM_BENCH; k++)
            found |= listed(name, table[k].name, table[k].group);
        if (len && !found) {
            fprintf(stderr, "bench_runner: no benchmark or group %s (--list lists them)\n", name);
            unknown = 1;
        }
        s += len + (s[len] == ',');
    }
    return unknown;
}

/* --inject-crash ROW:PLATFORM into crash_row and crash_platform. */
static int parse_crash(const char *spec)
{
    const char *colon = strchr(spec, ':');
    for (int k = 0; colon && k < NUM_BENCH; k++)
        if (strlen(table[k].name) == (size_t)(colon - spec) && !strncasecmp(spec, table[k].name, colon - spec))
            crash_row = &table[k];
    if (!crash_row || !colon[1]) {
        fprintf(stderr, "bench_runner: --inject-crash needs ROW:PLATFORM (a benchmark, a platform), not %s\n", spec);
        return -1;
    }
    snprintf(crash_platform, sizeof crash_platform, "%s", colon + 1);
    return 0;
}

static void short_platform_name(const char *full, char *out, size_t len)
{
    if (strstr(full, "Mosaic"))
        snprintf(out, len, "Mosaic");
    else if (strstr(full, "Portable Computing Language") || strstr(full, "PoCL") || strstr(full, "pocl"))
        snprintf(out, len, "PoCL");
    else
        snprintf(out, len, "%.*s", (int)strcspn(full, " "), full);
}

/* A platform whose short name an earlier one has gets its number in the
 * loader's list after it ("PoCL-2"), so that names tell them apart. */
static void unique_platform_name(cl_platform_id *ids, cl_uint i, char *name, size_t len)
{
    int same = 0;
    for (cl_uint j = 0; j < i; j++) {
        char full[128] = "", other[32];
        clGetPlatformInfo(ids[j], CL_PLATFORM_NAME, sizeof full, full, NULL);
        short_platform_name(full, other, sizeof other);
        same += !strcmp(other, name);
    }
    if (same) {
        size_t n = strlen(name);
        snprintf(name + n, len - n, "-%d", same + 1);
    }
}

/* Every platform with a CPU device (GPU platforms are skipped), in the
 * loader's order, but those --platforms does not list and those --skip-platforms
 * (a child's) does.  In a child, each platform's calls are announced to the
 * parent first (isolate.h): a crash while opening one leaves it out of the run. */
static int open_platforms(const options *o, bench_platform *out)
{
    cl_platform_id ids[16];
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(16, ids, &count);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "bench_runner: no OpenCL platform (clGetPlatformIDs: %d); running the C twins only\n", err);
        return 0;
    }
    int n = 0;
    for (cl_uint i = 0; i < count && i < 16 && n < MAX_PLATFORMS; i++) {
        bench_platform *p = &out[n];
        memset(p, 0, sizeof *p);
        p->platform = ids[i];
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof p->full_name, p->full_name, NULL);
        clGetPlatformInfo(ids[i], CL_PLATFORM_VERSION, sizeof p->version, p->version, NULL);
        char base[32];
        short_platform_name(p->full_name, base, sizeof base);
        snprintf(p->name, sizeof p->name, "%s", base);
        unique_platform_name(ids, i, p->name, sizeof p->name);
        if (!listed(o->platforms, base, NULL) && !listed(o->platforms, p->name, NULL))
            continue;
        if (o->skip && *o->skip && listed(o->skip, p->name, NULL))
            continue;
        channel_step(-1, p->name);
        if (clGetDeviceIDs(ids[i], o->gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU, 1, &p->device, NULL) !=
            CL_SUCCESS) {
            fprintf(stderr, "bench_runner: %s has no %s device: skipped\n", p->full_name, o->gpu ? "GPU" : "CPU");
            continue;
        }
        clGetDeviceInfo(p->device, CL_DEVICE_NAME, sizeof p->device_name, p->device_name, NULL);
        clGetDeviceInfo(p->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof p->compute_units, &p->compute_units, NULL);
        clGetDeviceInfo(p->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof p->max_work_group, &p->max_work_group, NULL);
        p->ctx = clCreateContext(NULL, 1, &p->device, NULL, NULL, &err);
        if (err == CL_SUCCESS)
            p->queue = clCreateCommandQueueWithProperties(p->ctx, p->device, NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "bench_runner: %s: no context or queue (%d): skipped\n", p->full_name, err);
            if (p->ctx)
                clReleaseContext(p->ctx);
            continue;
        }
        n++;
    }
    channel_step(-1, NULL);
    return n;
}

static void close_platforms(bench_platform *p, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < p[i].nprograms; k++)
            if (p[i].programs[k].program)
                clReleaseProgram(p[i].programs[k].program);
        clReleaseCommandQueue(p[i].queue);
        clReleaseContext(p[i].ctx);
    }
}

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            char *s = strchr(line, ':') + 1;
            s += strspn(s, " \t");
            s[strcspn(s, "\n")] = 0;
            snprintf(out, len, "%s", s);
            break;
        }
    fclose(f);
}

static void fail(bench_ctx *b, impl_result *x)
{
    x->status = STATUS_FAIL;
    snprintf(x->why, sizeof x->why, "%s", b->why[0] ? b->why : "failed");
    b->why[0] = 0;
}

/* A pause before each timed run, so the threads of the implementation
 * that ran before have gone to sleep: OpenMP's threads spin for some
 * milliseconds after a parallel region (GOMP_SPINCOUNT) and would take
 * cores from the next implementation.  OpenBLAS's threads poll longer,
 * yielding the core: 2^28 cycles (OPENBLAS_THREAD_TIMEOUT, read when the
 * library loads), 0.08-0.13 s at 2-3.5 GHz; the test's tiny size needs no
 * figure and does not wait for them. */
static void settle(const run_info *run, bool after_blas)
{
    long ns = run->size == SIZE_TINY ? 1000000 : run->size == SIZE_QUICK ? 10000000 : 20000000;
    if (after_blas && blas_threads() > 1 && run->size != SIZE_TINY)
        ns = 150000000;
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

/* The calls of implementation i of row e start (i < 0: the runner's own
 * code): in a child, the parent is told first, so that a crash is put on
 * the platform whose calls were running; --inject-crash aborts here. */
static void enter(const run_info *run, const bench_entry *e, int i)
{
    channel_step((int)(e - table), i >= 0 && i < run->nplatforms ? run->platforms[i].name : NULL);
    const char *who = i >= 0 ? impl_name(run, i) : NULL; /* C+OpenMP: the runner's own code */
    if (who && e == crash_row && !strcasecmp(who, crash_platform)) {
        fprintf(stderr, "\nbench_runner: --inject-crash: aborting in %s's calls in %s\n", who, e->name);
        abort();
    }
}

/* One run of implementation i (a platform, the twin, the alternative or OpenBLAS). */
static int run_impl(const run_info *run, const bench_ops *ops, bench_ctx *b, void **dev, int i)
{
    if (i < run->nplatforms)
        return ops->cl_run(b, &run->platforms[i], dev[i]);
    return i == run->twin ? ops->twin(b) : i == run->alt ? ops->alt(b) : ops->blas(b);
}

/* One reading of the roof of a row's bound, in its round, after the same
 * pause as every implementation's run.  The triad: the second of two runs,
 * as a row's run is timed (roofs.c: the first wakes OpenMP's threads; on
 * the lent Xeon's 16 threads a first run after the pause reads 84-90% of
 * the best of three).  The FMA loop: the best of three runs a tenth as
 * long as at the start and the end (one run read 5-9% lower).  With
 * --timing cold the roofs are read the same way: they stay the machine's,
 * while the rows pay their wake-ups. */
static double read_roof(const run_info *run, bench_bound bound)
{
    if (bound == BOUND_MEMORY)
        return run->roofs ? roofs_triad_gbs(run->roofs, 1) : 0;
    return bound == BOUND_COMPUTE ? roofs_fma_gflops(run->row_fma_iters, 3) : 0;
}

static int check_impl(const run_info *run, const bench_ops *ops, bench_ctx *b, void **dev, int i, int fault)
{
    if (i >= run->nplatforms) /* the twin, the alternative and OpenBLAS write the same output */
        return ops->twin_check(b);
    b->fault = fault;
    int r = ops->cl_check(b, &run->platforms[i], dev[i]);
    b->fault = 0;
    return r;
}

/* What a row's result points to in the table (a child's record carries
 * the rest). */
static void row_identity(bench_result *r, int row)
{
    const bench_entry *e = &table[row];
    r->name = e->name;
    r->group = e->group;
    r->what = e->what;
    r->bound = e->bound;
    r->alt_name = e->ops->alt ? e->ops->alt_name : NULL;
    r->of_twin = e->bound == BOUND_MEMORY && e->ops->share_of_twin;
}

static const char *row_name(int row) { return table[row].name; }

static void run_bench(const run_info *run, const bench_entry *e, int fault, bench_result *r)
{
    const bench_ops *ops = e->ops;
    bench_ctx b = { .size = run->size, .variant = e->variant };
    void *dev[MAX_PLATFORMS] = { 0 };
    static double times[MAX_IMPLS][MAX_REPS];
    int ntimes[MAX_IMPLS] = { 0 };

    memset(r, 0, sizeof *r);
    row_identity(r, (int)(e - table));
    /* Every slot up to OpenBLAS's; those the row does not have stay NONE. */
    int nimpl = run->blas + 1;
    for (int i = 0; i < nimpl; i++)
        if (i <= run->twin || (i == run->alt && ops->alt) || (i == run->blas && ops->blas && blas_present()))
            r->impl[i].status = STATUS_OK;

    enter(run, e, -1);
    if (ops->setup(&b)) {
        for (int i = 0; i < nimpl; i++) {
            if (r->impl[i].status == STATUS_NONE)
                continue;
            r->impl[i].status = STATUS_FAIL;
            snprintf(r->impl[i].why, sizeof r->impl[i].why, "setup: %s", b.why);
        }
        ops->teardown(&b);
        return;
    }
    r->bytes = b.bytes;
    r->flops = b.flops;
    r->ops = b.ops;
    snprintf(r->note, sizeof r->note, "%s", b.note);

    /* Prepare, warm up and check every implementation. */
    for (int i = 0; i < nimpl; i++) {
        if (r->impl[i].status == STATUS_NONE)
            continue;
        enter(run, e, i);
        int prepared = i < run->nplatforms ? ops->cl_prepare(&b, &run->platforms[i], &dev[i]) : 0;
        if (prepared > 0) { /* the platform lacks what the row needs: the row leaves it out */
            if (ops->cl_release)
                ops->cl_release(&b, &run->platforms[i], dev[i]);
            dev[i] = NULL;
            r->impl[i].status = STATUS_NONE;
            continue;
        }
        if (prepared) {
            fail(&b, &r->impl[i]);
            continue;
        }
        if (run_impl(run, ops, &b, dev, i) || check_impl(run, ops, &b, dev, i, fault))
            fail(&b, &r->impl[i]);
    }
    /* Timed rounds, the order rotating; the roof of a row that has a share
     * of one is read in each round as one more slot of the rotation (slot
     * nimpl).  A row whose share is of its twin needs no reading. */
    int last_host = -1; /* the twin, the alternative or OpenBLAS, whichever ran last */
    bool after_blas = false; /* the slot before was OpenBLAS's */
    bool has_share = (e->bound == BOUND_MEMORY && r->bytes > 0 && !r->of_twin) ||
                     (e->bound == BOUND_COMPUTE && r->flops > 0);
    int slots = nimpl + has_share;
    static double readings[MAX_REPS];
    int nreadings = 0;
    double start = bench_now(), budget = run->size == SIZE_TINY ? 1 : run->size == SIZE_QUICK ? 2 : 15;
    for (int rep = 0; rep < run->reps && (rep == 0 || bench_now() - start < budget); rep++)
        for (int j = 0; j < slots; j++) {
            int i = (j + rep) % slots;
            if (i == nimpl) {
                enter(run, e, -1);
                settle(run, after_blas);
                after_blas = false;
                double v = read_roof(run, e->bound);
                if (v > 0)
                    readings[nreadings++] = v;
                continue;
            }
            if (r->impl[i].status != STATUS_OK)
                continue;
            enter(run, e, i);
            settle(run, after_blas);
            after_blas = i == run->blas;
            /* warm: an untimed run first wakes this implementation's threads */
            int rc = run->cold ? 0 : run_impl(run, ops, &b, dev, i);
            double t0 = bench_now();
            if (!rc)
                rc = run_impl(run, ops, &b, dev, i);
            double t = bench_now() - t0;
            if (rc)
                fail(&b, &r->impl[i]);
            else
                times[i][ntimes[i]++] = t;
            if (i >= run->twin)
                last_host = i;
        }
    /* The results of the timed runs must be right too.  The host's output
     * first: the platforms' checks read theirs back into the same arrays. */
    enter(run, e, -1);
    if (last_host >= 0 && r->impl[last_host].status == STATUS_OK && check_impl(run, ops, &b, dev, last_host, 0))
        fail(&b, &r->impl[last_host]);
    for (int i = 0; i < run->nplatforms; i++) {
        enter(run, e, i);
        if (r->impl[i].status == STATUS_OK && check_impl(run, ops, &b, dev, i, fault))
            fail(&b, &r->impl[i]);
    }
    snprintf(r->note, sizeof r->note, "%s", b.note); /* (a check may add to it: replay_1k's) */
    for (int i = 0; i < nimpl; i++) {
        impl_result *x = &r->impl[i];
        if (x->status != STATUS_OK)
            continue;
        x->runs = ntimes[i];
        x->min = stats_min(times[i], ntimes[i]);
        x->max = stats_max(times[i], ntimes[i]);
        x->median = stats_median(times[i], ntimes[i]);
    }
    if (nreadings) {
        r->roof_low = stats_min(readings, nreadings);
        r->roof_high = stats_max(readings, nreadings);
    }
    for (int i = 0; i < run->nplatforms; i++)
        if (dev[i]) {
            enter(run, e, i);
            ops->cl_release(&b, &run->platforms[i], dev[i]);
        }
    enter(run, e, -1);
    ops->teardown(&b);
}

/* [low, high] widened to take in the readings lo..hi (0: none). */
static void extend_range(double *low, double *high, double lo, double hi)
{
    if (lo > 0 && (*low <= 0 || lo < *low))
        *low = lo;
    if (hi > *high)
        *high = hi;
}

/* Opens the platforms and fills run's platform fields; in a child, sends
 * the list to the parent.  -1: --platforms named none that is here. */
static int open_run_platforms(const options *o, run_info *run, bench_platform *platforms)
{
    /* OMP_PROC_BIND makes the OpenMP runtime bind this thread to one core
     * at start-up, and a CPU device that takes its cores from the thread
     * creating it (Mosaic's does: docs/settings.md, MOSAIC_NUM_THREADS) runs there. */
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_COUNT(&mine) < omp_get_num_procs())
        fprintf(stderr, "bench_runner: this thread may run on %d of the %d cores OpenMP has (OMP_PROC_BIND?); "
                "OpenCL CPU devices made from it may use only those\n", CPU_COUNT(&mine), omp_get_num_procs());

    run->platforms = platforms;
    run->nplatforms = open_platforms(o, platforms);
    /* (a child running a row again may have left out every platform) */
    if (o->platforms && *o->platforms && !run->nplatforms && !(o->skip && *o->skip)) {
        fprintf(stderr, "bench_runner: none of the platforms %s was found\n", o->platforms);
        return -1;
    }
    run->base = 0;
    for (int i = 0; i < run->nplatforms; i++)
        if (!strcmp(platforms[i].name, "Mosaic")) {
            run->base = i;
            break;
        }
    run->twin = run->nplatforms;
    run->alt = run->nplatforms + 1;
    run->blas = run->nplatforms + 2;
    channel_platforms(platforms, run->nplatforms);
    return 0;
}

/* The rows one after the other in this process; a child sends each
 * result to its parent as it comes. */
static void run_rows(const options *o, const run_info *run, const int *rows, int n, bench_result *results)
{
    for (int k = 0; k < n; k++) {
        const bench_entry *e = &table[rows[k]];
        double t0 = bench_now();
        fprintf(stderr, "bench_runner: %-15s", e->name);
        run_bench(run, e, o->fault && listed(o->fault, e->name, NULL), &results[k]);
        fprintf(stderr, " %.1f s\n", bench_now() - t0);
        channel_row(rows[k], &results[k]);
    }
}

/* The rows in child processes (isolate.c), which are this program run
 * with the same settings.  Returns isolate_run's status. */
static int run_in_children(const options *o, const char *self, run_info *run, bench_platform *platforms,
                           const int *rows, int n, bench_result *results)
{
    static const char *const sizes[] = { "tiny", "quick", "full" };
    char reps[16], threads[16];
    snprintf(reps, sizeof reps, "%d", o->reps);
    snprintf(threads, sizeof threads, "%d", o->threads);
    const char *args[20];
    int a = 0;
    args[a++] = self;
    args[a++] = "--size";
    args[a++] = sizes[o->size];
    args[a++] = "--reps";
    args[a++] = reps;
    args[a++] = "--timing";
    args[a++] = o->cold ? "cold" : "warm";
    if (o->threads) {
        args[a++] = "--threads";
        args[a++] = threads;
    }
    if (o->platforms && *o->platforms) {
        args[a++] = "--platforms";
        args[a++] = o->platforms;
    }
    if (o->gpu) {
        args[a++] = "--device";
        args[a++] = "gpu";
    }
    if (o->fault) {
        args[a++] = "--inject-fault";
        args[a++] = o->fault;
    }
    if (o->crash) {
        args[a++] = "--inject-crash";
        args[a++] = o->crash;
    }
    args[a] = NULL;
    isolate_job job = { args, rows, n, row_name, row_identity };
    return isolate_run(&job, run, platforms, results);
}

int main(int argc, char **argv)
{
    options o = { 0 };
    if (parse_options(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    if ((o.only && unknown_names(o.only)) || (o.fault && unknown_names(o.fault)) || (o.crash && parse_crash(o.crash)))
        return 2;

    /* One thread count for all: set before any platform starts its workers. */
    if (o.threads) {
        char n[16];
        snprintf(n, sizeof n, "%d", o.threads);
        setenv("MOSAIC_NUM_THREADS", n, 1);
        setenv("POCL_CPU_MAX_CU_COUNT", n, 1);  /* PoCL 4 and later */
        setenv("POCL_MAX_PTHREAD_COUNT", n, 1); /* PoCL 3 */
        omp_set_num_threads(o.threads);
    }
    blas_set_threads(omp_get_max_threads()); /* OpenBLAS: the twins' count, every core by default */

    static int rows[NUM_BENCH];
    int n = 0;
    for (int k = 0; k < NUM_BENCH; k++)
        if (listed(o.only, table[k].name, table[k].group))
            rows[n++] = k;

    static bench_platform platforms[MAX_PLATFORMS];
    static bench_result results[NUM_BENCH];
    run_info run = { .size = o.size, .reps = o.reps, .cold = o.cold, .march = BENCH_MARCH, .isa = roofs_isa() };
    run.threads = omp_get_max_threads();
    long fma_iters = o.size == SIZE_TINY ? 200000 : o.size == SIZE_QUICK ? 4000000 : 20000000;
    static roofs arrays;
    if (roofs_open(&arrays, stream_length(o.size)) == 0)
        run.roofs = &arrays;
    else
        fprintf(stderr, "bench_runner: no memory for the triad's arrays: no bandwidth roof\n");
    run.row_fma_iters = fma_iters / 10;

    if (o.result_fd >= 0) {
        /* A child: its rows and nothing else (the parent reads the run's
         * roofs and reports).  Its platforms' objects go with the process:
         * once its results are sent, no exit path of a platform can lose
         * them (--in-process releases them as a program would). */
        channel_open(o.result_fd);
        if (open_run_platforms(&o, &run, platforms))
            return 2;
        run_rows(&o, &run, rows, n, results);
        fflush(NULL);
        _exit(0);
    }

    cpu_model(run.cpu, sizeof run.cpu);
    time_t now = time(NULL);
    strftime(run.date, sizeof run.date, "%Y-%m-%d %H:%M", localtime(&now));
    double triad_start = run.roofs ? roofs_triad_gbs(run.roofs, 10) : 0;
    double fma_start = roofs_fma_gflops(fma_iters, 5);

    int status = 0;
    if (o.in_process) {
        if (open_run_platforms(&o, &run, platforms))
            return 2;
        run_rows(&o, &run, rows, n, results);
    } else {
        status = run_in_children(&o, argv[0], &run, platforms, rows, n, results);
        if (status == 2)
            return 2;
    }
    blas_describe(run.blas_info, sizeof run.blas_info);

    /* The roofs again.  The readings' range over the run shows how much the
     * machine's speed moved (other processes, other guests of a host). */
    double triad_end = run.roofs ? roofs_triad_gbs(run.roofs, 10) : 0, fma_end = roofs_fma_gflops(fma_iters, 5);
    roofs_close(&arrays);
    run.triad_low = run.triad_gbs = triad_start;
    run.fma_low = run.fma_gflops = fma_start;
    extend_range(&run.triad_low, &run.triad_gbs, triad_end, triad_end);
    extend_range(&run.fma_low, &run.fma_gflops, fma_end, fma_end);
    for (int k = 0; k < n; k++) {
        const bench_result *r = &results[k];
        if (r->bound == BOUND_MEMORY)
            extend_range(&run.triad_low, &run.triad_gbs, r->roof_low, r->roof_high);
        else if (r->bound == BOUND_COMPUTE)
            extend_range(&run.fma_low, &run.fma_gflops, r->roof_low, r->roof_high);
    }

    report_header(&run);
    for (int k = 0; k < n; k++)
        report_row(&run, &results[k]);
    report_summary(&run, results, n);
    printf("roofs at the start and at the end: triad %.1f and %.1f GB/s, FMA peak %.0f and %.0f GFLOP/s\n",
           triad_start, triad_end, fma_start, fma_end);

    for (int k = 0; k < n; k++)
        for (int i = 0; i < MAX_IMPLS; i++)
            status |= results[k].impl[i].status == STATUS_FAIL;
    if (o.csv && *o.csv) {
        if (report_csv(o.csv, &run, results, n))
            status = 1;
        else
            printf("CSV: %s\n", o.csv);
    }
    if (o.svg && *o.svg) {
        if (svg_write(o.svg, &run, results, n))
            status = 1;
        else
            printf("chart: %s\n", o.svg);
    }
    if (o.in_process)
        close_platforms(platforms, run.nplatforms);
    return status;
}
