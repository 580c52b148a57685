/*
 * The benchmark runner: what a benchmark is, and the helpers its functions
 * use.  docs/performance.md ("The benchmark runner") says how to run it and
 * how it measures.
 *
 * A benchmark is one row of bench_list.h.  Its functions (bench_ops) live in
 * the file of its group (stream.c, sgemm.c...), are shared by the rows of
 * the group that differ only by `variant`, and come in three parts:
 *   - setup: host inputs, the host's reference result, the work of one run
 *     (bytes moved, flops) for the share of the roof;
 *   - twin: the same computation in plain C with OpenMP, as a user would
 *     write it instead of OpenCL, and its check;
 *   - cl_*: the OpenCL version on one platform: prepare (program, buffers,
 *     arguments), run (enqueue and wait: what is timed), check (read back
 *     and compare with the reference), release.
 * Every function returns 0 on success; on failure it writes why into
 * b->why (bench_fail) and returns -1.  A run that fails or a result that is
 * wrong makes the implementation FAIL: it is never timed as a success.
 */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

enum { MAX_PLATFORMS = 6, MAX_PROGRAMS = 16 };

/* How big a run is: tiny for the ctest, quick for `make bench-quick` (2
 * cores, one or two minutes), full for `make bench` (a 16-core machine). */
typedef enum { SIZE_TINY, SIZE_QUICK, SIZE_FULL } bench_size;
#define BY_SIZE(b, tiny, quick, full) ((b)->size == SIZE_TINY ? (tiny) : (b)->size == SIZE_QUICK ? (quick) : (full))

/* What bounds a benchmark, and so which roof its share is of. */
typedef enum { BOUND_MEMORY, BOUND_COMPUTE, BOUND_LATENCY } bench_bound;

/* One OpenCL platform's CPU device, with a context and an in-order queue. */
typedef struct bench_platform {
    char name[32];       /* short: "Mosaic", "PoCL" */
    char full_name[128]; /* CL_PLATFORM_NAME */
    char version[128];   /* CL_PLATFORM_VERSION */
    char device_name[128];
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    cl_uint compute_units;
    size_t max_work_group;
    struct {
        const char *source; /* programs are built once per source (a group's) */
        cl_program program; /* NULL: the build failed */
        double build_ms;
    } programs[MAX_PROGRAMS];
    int nprograms;
} bench_platform;

/* A benchmark while it runs: its row's parameters and its host state. */
typedef struct bench_ctx {
    bench_size size;
    int variant;     /* from the row of bench_list.h */
    void *host;      /* the benchmark's host state: inputs, reference, twin's output */
    double bytes;    /* memory traffic of one run (STREAM's counting: reads + writes) */
    double flops;    /* floating-point operations of one run (0: not counted) */
    long ops;        /* operations per run, for latency rows (time shown per op) */
    int fault;       /* --inject-fault: corrupt a result so the check must catch it */
    char why[256];   /* why it failed */
    char note[128];  /* a line under the row: how its size was chosen (empty: none) */
} bench_ctx;

typedef struct bench_ops {
    int (*setup)(bench_ctx *b);
    void (*teardown)(bench_ctx *b);
    int (*twin)(bench_ctx *b);
    int (*twin_check)(bench_ctx *b);
    /* 0: ready; -1: failed (b->why); 1: the platform lacks what the row
     * needs (an extension): the row leaves it out (cl_release is called on
     * what *dev holds) */
    int (*cl_prepare)(bench_ctx *b, bench_platform *p, void **dev);
    int (*cl_run)(bench_ctx *b, bench_platform *p, void *dev);
    int (*cl_check)(bench_ctx *b, bench_platform *p, void *dev);
    void (*cl_release)(bench_ctx *b, bench_platform *p, void *dev);
    /* An optional second host reference timed beside the twin (memcpy). */
    const char *alt_name;
    int (*alt)(bench_ctx *b);
    /* The same computation through OpenBLAS (blas.c), the optimised library
     * a row is judged against; run only where the runner was built with it.
     * It writes the twin's output, and twin_check checks it. */
    int (*blas)(bench_ctx *b);
    /* Memory-bound rows whose bytes go through __local memory and barriers
     * (or sit in the caches): the triad roof is out of their reach by
     * construction, so their share is of their twin's bandwidth. */
    int share_of_twin;
} bench_ops;

/* ---- helpers (common.c) ---- */

double bench_now(void); /* seconds, monotonic */
int bench_fail(bench_ctx *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *bench_cl_error(cl_int err);

/* Host memory: 64-byte aligned, pages touched in parallel as OpenMP will use them. */
void *bench_alloc(bench_ctx *b, size_t bytes);
/* Floats per array such that `arrays` arrays take at most half the last-level
 * cache (a power of two, 4M at most, `most` at most); writes b->note. */
size_t bench_cache_floats(bench_ctx *b, int arrays, size_t most);
/* Deterministic inputs: uniform in [lo, hi), or small integers in [lo, hi]. */
void bench_fill_uniform(float *x, size_t n, uint32_t seed, float lo, float hi);
void bench_fill_int_floats(float *x, size_t n, uint32_t seed, int lo, int hi);
uint64_t bench_hash(uint64_t i, uint32_t seed);

/* Checks: the first mismatch goes into b->why. */
int bench_check_floats(bench_ctx *b, const char *what, const float *got, const float *want, size_t n, float abs_tol,
                       float rel_tol);
int bench_check_u32(bench_ctx *b, const char *what, const uint32_t *got, const uint32_t *want, size_t n);

/* OpenCL: the program of `source` (built once per platform, "-cl-std=CL1.2"),
 * kernels, buffers, arguments, launches.  Errors name the call and code. */
cl_kernel bench_kernel(bench_ctx *b, bench_platform *p, const char *source, const char *name);
cl_mem bench_buffer(bench_ctx *b, bench_platform *p, cl_mem_flags flags, size_t bytes, const void *host);
typedef struct bench_arg {
    size_t size;
    const void *value; /* NULL: __local memory of `size` bytes */
} bench_arg;
#define ARG(v) ((bench_arg){ sizeof(v), &(v) })
#define ARG_LOCAL(bytes) ((bench_arg){ (bytes), NULL })
int bench_args(bench_ctx *b, cl_kernel k, const bench_arg *args, int n);
#define BENCH_ARGS(b, k, ...) \
    bench_args(b, k, (bench_arg[]){ __VA_ARGS__ }, (int)(sizeof((bench_arg[]){ __VA_ARGS__ }) / sizeof(bench_arg)))
int bench_launch(bench_ctx *b, bench_platform *p, cl_kernel k, cl_uint dims, const size_t *global,
                 const size_t *local);
int bench_finish(bench_ctx *b, bench_platform *p);
int bench_read(bench_ctx *b, bench_platform *p, cl_mem m, size_t bytes, void *dst);
int bench_needs_group(bench_ctx *b, bench_platform *p, size_t size);

/* The device state most benchmarks need: a few kernels and buffers, all
 * released by bench_simple_release. */
typedef struct bench_simple {
    cl_kernel k[4];
    cl_mem m[8];
    long runs;    /* runs since prepare (benchmarks whose result accumulates) */
    double value; /* a result the run computed on the host (reduce's total) */
} bench_simple;
bench_simple *bench_simple_new(bench_ctx *b);
void bench_simple_release(bench_ctx *b, bench_platform *p, void *dev);

/* ---- GEMM's host side (blas.c), shared by the rows of sgemm.c, gemm.c and ml.c ---- */

/* C = op(A) op(B), all row-major: op(A) is m x k (A is stored k x m when
 * a_trans), op(B) is k x n (B stored n x k when b_trans), C is m x n; the
 * leading dimensions are the stored rows' lengths. */
typedef struct gemm_shape {
    int m, n, k;
    int a_trans, b_trans;
} gemm_shape;
static inline int gemm_lda(const gemm_shape *s) { return s->a_trans ? s->m : s->k; }
static inline int gemm_ldb(const gemm_shape *s) { return s->b_trans ? s->k : s->n; }

/* Inputs uniform in [-1, 1), the reference in double, each element's
 * tolerance (the bound on a float sum's rounding, k eps sum |a_ik b_kj|). */
typedef struct gemm_host {
    gemm_shape shape;
    float *a, *b, *c, *ref, *tol;
} gemm_host;
int gemm_host_setup(bench_ctx *b, const gemm_shape *shape); /* b->host, b->flops, b->bytes */
void gemm_host_teardown(bench_ctx *b);
int gemm_host_twin(bench_ctx *b);       /* the C + OpenMP loop */
int gemm_host_twin_check(bench_ctx *b); /* checks h->c */
int gemm_host_blas(bench_ctx *b);       /* OpenBLAS's SGEMM into h->c */
int gemm_host_check(bench_ctx *b, const float *c);
/* cl_check of a row whose C is the bench_simple's third buffer */
int gemm_host_cl_check(bench_ctx *b, bench_platform *p, void *dev);
/* The reference of m x n = (m x k)(k x n), row-major, in double, and each
 * element's tolerance for a float computation of it. */
void gemm_reference(int m, int n, int k, const float *a, const float *b, float *ref, float *tol);

/* OpenBLAS (blas.c): absent where the runner was built without it. */
int blas_present(void);
void blas_set_threads(int threads); /* the runner's thread count */
void blas_describe(char *out, size_t len);
int blas_threads(void); /* OpenBLAS's own threads: 1 when it runs on the caller's */
int blas_sgemm(bench_ctx *b, const gemm_shape *s, const float *a, const float *bm, float *c);

/* ---- the roofs (roofs.c), on the OpenMP threads ---- */

typedef struct roofs {
    float *a, *b, *c; /* the triad's arrays */
    size_t n;         /* floats per array */
} roofs;
int roofs_open(roofs *r, size_t floats); /* allocates and touches the arrays; -1: out of memory */
void roofs_close(roofs *r);
double roofs_triad_gbs(const roofs *r, int reps); /* best triad bandwidth, GB/s; 0 if it failed */
double roofs_fma_gflops(long iters, int reps);    /* best FMA rate, GFLOP/s */
const char *roofs_isa(void);                     /* the vectors it used: "AVX-512", "AVX2" */
size_t stream_length(bench_size size);           /* floats per array of STREAM and the triad roof */

/* ---- the benchmarks' ops, one per group file; the table is bench_list.h ---- */
#define BENCH(name, group, bound, ops, variant, what) extern const bench_ops ops;
#include "bench_list.h"
#undef BENCH

#endif
