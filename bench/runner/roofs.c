/*
 * The machine's two roofs, measured in the same run as the benchmarks, with
 * the same OpenMP threads as the twins:
 *   - memory bandwidth: STREAM's triad a[i] = b[i] + s c[i] on arrays as
 *     large as the STREAM benchmarks', 3 x 4 bytes per element;
 *   - single-precision FMA peak: every thread runs ACC independent chains
 *     of vector fused multiply-adds on registers only (ACC covers the FMA
 *     latency times the FMA units of any recent x86 core), on the widest
 *     vectors -march allows: AVX-512, else AVX2.
 * Each reading is the best of several runs (as STREAM reports).
 *
 * Both hand out their work in small parts, each thread taking the next as
 * it finishes one, as Mosaic's workers take work-groups.  On a shared host
 * some CPUs run slower than others for a while (other guests); with the
 * work split evenly in advance the roof would be the slowest thread's
 * speed times the threads, and kernels that balance their work exceeded it
 * (a chain of FMAs at 110-150% of it, the lent Xeon, 2026-11-28).  For the
 * same reason the runner reads the roofs in every round of a row, beside
 * its runs; the triad's arrays are allocated once, for all the readings.
 */
#include "runner.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STORE_FENCE() _mm_sfence()
#else
#define STORE_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__AVX512F__)
typedef float vfloat __attribute__((vector_size(64)));
enum { ACC = 24 }; /* of 32 zmm registers */
#define ISA "AVX-512"
#elif defined(__AVX__)
typedef float vfloat __attribute__((vector_size(32)));
enum { ACC = 12 }; /* of 16 ymm registers */
#define ISA "AVX2"
#else
typedef float vfloat __attribute__((vector_size(16)));
enum { ACC = 12 };
#define ISA "SSE"
#endif
enum { LANES = sizeof(vfloat) / sizeof(float) };

const char *roofs_isa(void) { return ISA; }

/* One part's chains, started from `seed`; returns a value that depends on
 * all of them so the compiler keeps every FMA (and every call: no two
 * parts have the same seed). */
__attribute__((noinline)) static float fma_chains(long iters, int seed)
{
    vfloat acc[ACC], mul, add;
    for (int k = 0; k < LANES; k++) {
        mul[k] = 0.999999f;
        add[k] = 1e-6f;
    }
    for (int j = 0; j < ACC; j++)
        for (int k = 0; k < LANES; k++)
            acc[j][k] = (float)(j + k + seed) * 1e-3f;
    for (long i = 0; i < iters; i++) {
#pragma GCC unroll 32
        for (int j = 0; j < ACC; j++)
            acc[j] = acc[j] * mul + add;
        __asm__("" : "+v"(mul)); /* keeps mul a register value the loop cannot fold */
    }
    float s = 0.0f;
    for (int j = 0; j < ACC; j++)
        for (int k = 0; k < LANES; k++)
            s += acc[j][k];
    return s;
}

/* `iters` steps of the chains per thread, in PARTS parts per thread. */
double roofs_fma_gflops(long iters, int reps)
{
    enum { PARTS = 16 };
    int parts = omp_get_max_threads() * PARTS;
    long part_iters = iters / PARTS > 0 ? iters / PARTS : 1;
    double best = 0;
    volatile float sink = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = 0, t1 = 0;
#pragma omp parallel
        {
#pragma omp master
            t0 = omp_get_wtime();
#pragma omp barrier /* no part starts before the clock */
            float s = 0;
#pragma omp for schedule(dynamic, 1)
            for (int k = 0; k < parts; k++)
                s += fma_chains(part_iters, k);
#pragma omp atomic
            sink += s;
#pragma omp barrier
#pragma omp master
            t1 = omp_get_wtime();
        }
        double gflops = 2.0 * LANES * ACC * (double)part_iters * parts / (t1 - t0) / 1e9;
        if (gflops > best)
            best = gflops;
    }
    return best;
}

int roofs_open(roofs *r, size_t floats)
{
    r->n = floats;
    r->a = aligned_alloc(64, floats * sizeof(float));
    r->b = aligned_alloc(64, floats * sizeof(float));
    r->c = aligned_alloc(64, floats * sizeof(float));
    if (!r->a || !r->b || !r->c) {
        roofs_close(r);
        return -1;
    }
    float *a = r->a, *b = r->b, *c = r->c;
    long len = (long)floats;
#pragma omp parallel for simd schedule(static) /* first touch by the threads that read them */
    for (long i = 0; i < len; i++) {
        a[i] = 0.0f;
        b[i] = 1.0f;
        c[i] = 2.0f;
    }
    return 0;
}

void roofs_close(roofs *r)
{
    free(r->a);
    free(r->b);
    free(r->c);
    r->a = r->b = r->c = NULL;
}

/* a[i] = b[i] + s c[i] for i in [lo, hi), lo a multiple of the vector:
 * stores that go to memory without reading the lines first (as STREAM
 * allows, and as Mosaic's kernels store whole lines), so the roof is what
 * memory gives, not a third of it spent on reading what is overwritten. */
static void triad_part(float *restrict a, const float *restrict b, const float *restrict c, long lo, long hi,
                       float s)
{
    long i = lo;
#if defined(__AVX512F__)
    __m512 vs = _mm512_set1_ps(s);
    for (; i + 16 <= hi; i += 16)
        _mm512_stream_ps(a + i, _mm512_fmadd_ps(vs, _mm512_load_ps(c + i), _mm512_load_ps(b + i)));
#elif defined(__AVX__)
    __m256 vs = _mm256_set1_ps(s);
    for (; i + 8 <= hi; i += 8)
        _mm256_stream_ps(a + i, _mm256_add_ps(_mm256_load_ps(b + i), _mm256_mul_ps(vs, _mm256_load_ps(c + i))));
#endif
    for (; i < hi; i++)
        a[i] = b[i] + s * c[i];
}

double roofs_triad_gbs(const roofs *r, int reps)
{
    enum { PART = 16384 }; /* floats: 64 KiB of each array */
    float *a = r->a;
    const float *b = r->b, *c = r->c;
    long len = (long)r->n, parts = (len + PART - 1) / PART;
    double best = 0;
    const float s = 3.0f;
    for (int k = 0; k < reps + 1; k++) {
        double t0 = omp_get_wtime();
#pragma omp parallel
        {
#pragma omp for schedule(dynamic, 1)
            for (long p = 0; p < parts; p++)
                triad_part(a, b, c, p * PART, p * PART + PART < len ? p * PART + PART : len, s);
            STORE_FENCE(); /* this thread's streaming stores done before the time is read */
        }
        double gbs = 3.0 * sizeof(float) * (double)len / (omp_get_wtime() - t0) / 1e9;
        if (k > 0 && gbs > best) /* the first run wakes the threads up */
            best = gbs;
    }
    return a[0] == 7.0f && a[len - 1] == 7.0f ? best : 0;
}
