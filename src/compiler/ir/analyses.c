/*
 * The cache of analyses per function (analyses.h): a function's graph
 * (cfg.c: blocks, dominators, post-dominators, loops, made together) and
 * its uniformity (uniformity.c, made on that graph).  A program has few
 * functions a pass asks about, so a list is enough.
 */
#include <stdlib.h>

#include "base/assert.h"
#include "compiler/ir/analyses.h"

typedef struct entry {
    LLVMValueRef fn;
    mc_cfg *g;          /* NULL: not asked for, or forgotten */
    mc_uniformity *u;   /* on g; NULL: not asked for, or forgotten */
    unsigned first_varying;
} entry;

struct mc_analyses {
    size_t n, cap;
    entry *e;
    unsigned asked; /* since mc_analyses_asked */
};

mc_analyses *mc_analyses_new(void)
{
    return calloc(1, sizeof(mc_analyses));
}

void mc_analyses_free(mc_analyses *a)
{
    if (!a)
        return;
    mc_analyses_invalidate_all(a);
    free(a->e);
    free(a);
}

static entry *find(const mc_analyses *a, LLVMValueRef fn)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->e[i].fn == fn)
            return &a->e[i];
    return NULL;
}

/* Drops entry i's uniformity (and with drop_graph its graph, on which the
 * uniformity is made); an entry with neither leaves the list. */
static void forget(mc_analyses *a, size_t i, bool drop_graph)
{
    entry *e = &a->e[i];
    mc_uniformity_free(e->u);
    e->u = NULL;
    if (drop_graph) {
        mc_cfg_free(e->g);
        e->g = NULL;
    }
    if (!e->g)
        *e = a->e[--a->n];
}

const mc_cfg *mc_analyses_cfg(mc_analyses *a, LLVMValueRef fn)
{
    MOSAIC_ASSERT(a && fn);
    a->asked |= MC_ANALYSIS_CFG;
    entry *e = find(a, fn);
    if (e)
        return e->g;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 8;
        entry *more = realloc(a->e, cap * sizeof *more);
        if (!more)
            return NULL;
        a->e = more, a->cap = cap;
    }
    mc_cfg *g = mc_cfg_new(fn);
    if (g)
        a->e[a->n++] = (entry){fn, g, NULL, 0};
    return g;
}

const mc_uniformity *mc_analyses_uniformity(mc_analyses *a, LLVMValueRef fn, unsigned first_varying)
{
    const mc_cfg *g = mc_analyses_cfg(a, fn);
    a->asked |= MC_ANALYSIS_UNIFORMITY;
    entry *e = g ? find(a, fn) : NULL;
    if (!e)
        return NULL;
    MOSAIC_ASSERT(!e->u || e->first_varying == first_varying); /* one function, one meaning of its parameters */
    if (!e->u) {
        e->u = mc_uniformity_on(g, first_varying);
        e->first_varying = first_varying;
    }
    return e->u;
}

unsigned mc_analyses_cached(const mc_analyses *a, LLVMValueRef fn)
{
    const entry *e = find(a, fn);
    return !e ? 0 : e->u ? MC_ANALYSES_ALL : MC_ANALYSES_CFG_SHAPE;
}

unsigned mc_analyses_asked(mc_analyses *a)
{
    unsigned asked = a->asked;
    a->asked = 0;
    return asked;
}

void mc_analyses_invalidate(mc_analyses *a, LLVMValueRef fn)
{
    MOSAIC_ASSERT(a);
    entry *e = find(a, fn);
    if (e)
        forget(a, (size_t)(e - a->e), true);
}

void mc_analyses_invalidate_all(mc_analyses *a)
{
    MOSAIC_ASSERT(a);
    while (a->n)
        forget(a, a->n - 1, true);
}

void mc_analyses_keep(mc_analyses *a, unsigned keep, const LLVMValueRef *spare, size_t nspare)
{
    MOSAIC_ASSERT(a);
    bool keeps_graph = (keep & MC_ANALYSES_CFG_SHAPE) == MC_ANALYSES_CFG_SHAPE;
    bool keeps_uniformity = keeps_graph && (keep & MC_ANALYSIS_UNIFORMITY);
    if (keeps_uniformity)
        return;
    for (size_t i = a->n; i-- > 0;) {
        bool spared = false;
        for (size_t s = 0; s < nspare && !spared; s++)
            spared = spare[s] == a->e[i].fn;
        if (!spared)
            forget(a, i, !keeps_graph);
    }
}

LLVMValueRef mc_analyses_stale(const mc_analyses *a)
{
    for (size_t i = 0; i < a->n; i++)
        if (!mc_cfg_current(a->e[i].g))
            return a->e[i].fn;
    return NULL;
}
