/*
 * A map from LLVM objects (values, blocks) to indices, for the passes that
 * number a function's blocks and instructions (regions.c, uniformity.c) and
 * the call graph's functions (calls.c).
 * Open addressing; the caller sizes it for the keys it will put.
 */
#ifndef MOSAIC_COMPILER_PTR_MAP_H
#define MOSAIC_COMPILER_PTR_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct pmap {
    const void **keys;
    int *vals;
    size_t mask;
} pmap;

static inline size_t pmap_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 24);
}

/* Room for n keys; false when memory ran out. */
static inline bool pmap_init(pmap *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 16)
        cap *= 2;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    m->mask = cap - 1;
    return m->keys && m->vals;
}

static inline void pmap_free(pmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
}

static inline void pmap_put(pmap *m, const void *k, int v)
{
    size_t i = pmap_hash(k) & m->mask;
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & m->mask;
    m->keys[i] = k;
    m->vals[i] = v;
}

/* k's index, or -1. */
static inline int pmap_get(const pmap *m, const void *k)
{
    size_t i = pmap_hash(k) & m->mask;
    while (m->keys[i]) {
        if (m->keys[i] == k)
            return m->vals[i];
        i = (i + 1) & m->mask;
    }
    return -1;
}

#endif
