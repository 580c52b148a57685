/*
 * Worst error, in ulps, of glibc's libmvec float functions on every float
 * input, for the AVX-512, AVX2 and SSE variants (_ZGVeN16v_, _ZGVdN8v_,
 * _ZGVbN4v_), against the C library's double function.  This is how the
 * table in src/compiler/vectorize/vecmath.c was chosen (docs/compiler.md has the
 * results); rerun it when glibc changes.  Needs an AVX-512 machine.
 *
 *   cc -O2 -mavx512f -mavx2 -o libmvec_ulp tools/libmvec_ulp.c -lmvec -lm -lpthread
 *   ./libmvec_ulp THREADS exp sin ...
 */
#define _GNU_SOURCE
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECL(n) __m512 _ZGVeN16v_##n##f(__m512); __m256 _ZGVdN8v_##n##f(__m256); __m128 _ZGVbN4v_##n##f(__m128);
#define ALL(X) X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(cbrt) X(cos) X(cosh) X(erf) X(erfc) X(exp) \
    X(exp10) X(exp2) X(expm1) X(log) X(log10) X(log1p) X(log2) X(sin) X(sinh) X(tan) X(tanh)
ALL(DECL)

typedef struct fn {
    const char *name;
    double (*ref)(double);
    __m512 (*e)(__m512);
    __m256 (*d)(__m256);
    __m128 (*b)(__m128);
} fn;
#define ENTRY(n) {#n, n, _ZGVeN16v_##n##f, _ZGVdN8v_##n##f, _ZGVbN4v_##n##f},
static const fn fns[] = {ALL(ENTRY)};
static const fn *f;

typedef struct part {
    uint64_t lo, hi;
    double worst[3];
    float at[3];
    long mismatches; /* NaN or infinity where the reference has none, or the reverse */
} part;

static double ulp(double ref)
{
    float r = (float)ref;
    if (isinf(r))
        r = copysignf(FLT_MAX, r);
    int e;
    frexp(r, &e);
    double u = ldexp(1.0, e - 24);
    return u < 0x1p-149 ? 0x1p-149 : u;
}

static void *work(void *arg)
{
    part *p = arg;
    float x[16] __attribute__((aligned(64))), r[3][16] __attribute__((aligned(64)));
    for (uint64_t bits = p->lo; bits < p->hi; bits += 16) {
        for (int k = 0; k < 16; k++) {
            uint32_t u = (uint32_t)(bits + (uint64_t)k);
            memcpy(&x[k], &u, 4);
        }
        _mm512_store_ps(r[0], f->e(_mm512_load_ps(x)));
        for (int h = 0; h < 2; h++)
            _mm256_store_ps(r[1] + 8 * h, f->d(_mm256_load_ps(x + 8 * h)));
        for (int h = 0; h < 4; h++)
            _mm_store_ps(r[2] + 4 * h, f->b(_mm_load_ps(x + 4 * h)));
        for (int k = 0; k < 16; k++) {
            if (isnan(x[k]))
                continue;
            double ref = f->ref(x[k]);
            float rf = (float)ref;
            for (int v = 0; v < 3; v++) {
                float y = r[v][k];
                if (isnan(rf) || isnan(y) || isinf(y) || isinf(rf)) {
                    if (!(isnan(rf) && isnan(y)) && y != rf && !(isinf(y) && fabs(ref) > FLT_MAX * (1 - 0x1p-25)))
                        p->mismatches++;
                    continue;
                }
                double e = fabs((double)y - ref) / ulp(ref);
                if (e > p->worst[v])
                    p->worst[v] = e, p->at[v] = x[k];
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1 || threads > 256)
        threads = 1;
    for (int a = 2; a < argc; a++) {
        f = NULL;
        for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
            if (!strcmp(fns[i].name, argv[a]))
                f = &fns[i];
        if (!f) {
            fprintf(stderr, "unknown function %s\n", argv[a]);
            continue;
        }
        part *parts = calloc((size_t)threads, sizeof *parts);
        pthread_t *th = calloc((size_t)threads, sizeof *th);
        for (int t = 0; t < threads; t++) {
            parts[t].lo = (1ull << 32) / (uint64_t)threads * (uint64_t)t;
            parts[t].hi = t == threads - 1 ? 1ull << 32 : (1ull << 32) / (uint64_t)threads * (uint64_t)(t + 1);
            parts[t].lo &= ~15ull;
            parts[t].hi &= t == threads - 1 ? ~0ull : ~15ull;
            pthread_create(&th[t], NULL, work, &parts[t]);
        }
        part all = {0};
        for (int t = 0; t < threads; t++) {
            pthread_join(th[t], NULL);
            for (int v = 0; v < 3; v++)
                if (parts[t].worst[v] > all.worst[v])
                    all.worst[v] = parts[t].worst[v], all.at[v] = parts[t].at[v];
            all.mismatches += parts[t].mismatches;
        }
        printf("%-6s avx512 %.3f (at %a)  avx2 %.3f (at %a)  sse %.3f (at %a)  special-value mismatches %ld\n",
               f->name, all.worst[0], all.at[0], all.worst[1], all.at[1], all.worst[2], all.at[2], all.mismatches);
        free(parts);
        free(th);
    }
    return 0;
}
