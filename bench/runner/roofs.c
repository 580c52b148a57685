/*
 * The machine's two roofs, measured in the same run as the benchmarks, with
 * the same OpenMP threads as the twins:
 *   - memory bandwidth: STREAM's triad a[i] = b[i] + s c[i] on arrays as
 *     large as the STREAM benchmarks', 3 x 4 bytes per element;
 *   - single-precision FMA peak: every thread runs ACC independent chains
 *     of vector fused multiply-adds on registers only (ACC covers the FMA
 *     latency times the FMA units of any recent x86 core), on the widest
 *     vectors -march allows: AVX-512, else AVX2.
 * Each is the best of several runs (as STREAM reports).
 */
#include "runner.h"

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

/* One thread's chains; returns a value that depends on all of them so the
 * compiler keeps every FMA. */
__attribute__((noinline)) static float fma_chains(long iters)
{
    vfloat acc[ACC], mul, add;
    for (int k = 0; k < LANES; k++) {
        mul[k] = 0.999999f;
        add[k] = 1e-6f;
    }
    for (int j = 0; j < ACC; j++)
        for (int k = 0; k < LANES; k++)
            acc[j][k] = (float)(j + k) * 1e-3f;
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

double roofs_fma_gflops(long iters, int reps)
{
    double best = 0;
    volatile float sink = 0;
    for (int r = 0; r < reps; r++) {
        int threads = 1;
        double t0 = 0, t1 = 0;
#pragma omp parallel
        {
#pragma omp single
            threads = omp_get_num_threads();
#pragma omp barrier
#pragma omp master
            t0 = omp_get_wtime();
            float s = fma_chains(iters);
#pragma omp atomic
            sink += s;
#pragma omp barrier
#pragma omp master
            t1 = omp_get_wtime();
        }
        double gflops = 2.0 * LANES * ACC * (double)iters * threads / (t1 - t0) / 1e9;
        if (gflops > best)
            best = gflops;
    }
    return best;
}

double roofs_triad_gbs(size_t n, int reps)
{
    float *a = aligned_alloc(64, n * sizeof(float)), *b = aligned_alloc(64, n * sizeof(float)),
          *c = aligned_alloc(64, n * sizeof(float));
    if (!a || !b || !c) {
        free(a);
        free(b);
        free(c);
        return 0;
    }
    long len = (long)n;
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < len; i++) {
        a[i] = 0.0f;
        b[i] = 1.0f;
        c[i] = 2.0f;
    }
    double best = 0;
    const float s = 3.0f;
    for (int r = 0; r < reps + 1; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < len; i++)
            a[i] = b[i] + s * c[i];
        double gbs = 3.0 * sizeof(float) * (double)n / (omp_get_wtime() - t0) / 1e9;
        if (r > 0 && gbs > best) /* the first run warms up the threads */
            best = gbs;
    }
    int ok = a[0] == 7.0f && a[n - 1] == 7.0f;
    free(a);
    free(b);
    free(c);
    return ok ? best : 0;
}
