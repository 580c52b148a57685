/*
 * Checking mode on the CPU device (cpu_check.h, docs/check.md).
 *
 * Shadow memory: for each 4-byte granule of a buffer an argument reaches,
 * and of the group's __local memory, a cell of four words: the last write
 * and the last read (or reads: `many`), each with its site.  An access word
 * packs who accessed (the work-group's tag, the local linear id), when (the
 * work-item's count of barriers passed: its epoch; the site word keeps its
 * count of sub-group barriers too), how (atomic, the atomic's scope) and
 * which bytes of the granule.  Every work-item of a group passes the same
 * barriers in the same order (else `barriers` reports it), so two accesses
 * of one group with the same epoch have no barrier between them; accesses
 * of two groups of one launch have nothing between them at all.  A
 * conflict (different work-items, the same bytes, one writes, not both
 * atomic) is a race.  Words are read and written whole (relaxed atomics),
 * so the workers running other groups never see half a word; an update
 * lost to another worker's can only hide a problem, never make one up.
 *
 * A buffer's shadow stays with it from launch to launch (a pool, below),
 * its words tagged with the launch's generation; the __local shadow is the
 * worker's, its words tagged with a count of the groups the worker ran, so
 * that neither a new launch nor a new group needs clearing.
 */
#define _GNU_SOURCE
#include "devices/cpu/cpu_check.h"
#include "devices/cpu/cpu_exec.h"
#include "base/settings.h"
#include "core/check_report.h"
#include "core/check_written.h"
#include "core/memory.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- shadow words ---------------------------------------------------------------------------------- */
#define LID_BITS 13 /* MOSAIC_MAX_LOCAL_SIZE work-items, and MANY */
#define LID_MANY ((1u << LID_BITS) - 1)
#define EPOCH_SHIFT 13
#define EPOCH_BITS 16
#define ATOMIC_BIT (1ull << 29)
#define MASK_SHIFT 30 /* 4 bits: the granule's bytes */
#define SCOPE_SHIFT 34 /* 2 bits: 0 work-item, 1 sub-group, 2 work-group, 3 device or wider */
#define RMW_BIT (1ull << 36) /* an atomic that reads and writes */
#define TAG_SHIFT 37
#define TAG_BITS 27 /* __local: the worker's count of groups; global: GEN_BITS of the launch, then the group's */
#define GROUP_BITS 20
#define GEN_BITS (TAG_BITS - GROUP_BITS)
#define GRANULE 4
/* a cell: the last write, its site, the last read(s), their site; a site
 * word keeps the work-item's count of barriers and sub-group barriers
 * passed in its top 16 bits (user-space addresses take 47) */
#define CELL_WORDS 4
#define SUB_EPOCH_SHIFT 48

typedef uint64_t word;

static word make_word(uint32_t tag, unsigned lid, uint32_t epoch, uint64_t how, unsigned mask, unsigned scope)
{
    bool atomic = how & MOSAIC_CHECK_ATOMIC;
    bool rmw = atomic && (how & MOSAIC_CHECK_READ) && (how & MOSAIC_CHECK_WRITE);
    return (rmw ? RMW_BIT : 0) | (word)(tag & ((1u << TAG_BITS) - 1)) << TAG_SHIFT | (word)(scope & 3) << SCOPE_SHIFT |
           (word)(mask & 15) << MASK_SHIFT | (atomic ? ATOMIC_BIT : 0) |
           (word)(epoch & ((1u << EPOCH_BITS) - 1)) << EPOCH_SHIFT | (lid & LID_MANY);
}
static uint32_t tag_of(word w) { return (uint32_t)(w >> TAG_SHIFT); }
static unsigned lid_of(word w) { return (unsigned)(w & LID_MANY); }
static uint32_t epoch_of(word w) { return (uint32_t)(w >> EPOCH_SHIFT & ((1u << EPOCH_BITS) - 1)); }
static unsigned mask_of(word w) { return (unsigned)(w >> MASK_SHIFT & 15); }
static unsigned scope_class(word w) { return (unsigned)(w >> SCOPE_SHIFT & 3); }
static bool is_atomic(word w) { return (w & ATOMIC_BIT) != 0; }

static word load_word(_Atomic word *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static void store_word(_Atomic word *p, word w) { atomic_store_explicit(p, w, memory_order_relaxed); }

/* OpenCL's scope as a class that orders: 0 work-item, 1 sub-group, 2 work-group, 3 device and wider. */
static unsigned class_of_scope(unsigned scope)
{
    switch (scope) {
    case MOSAIC_CHECK_SCOPE_WORK_ITEM: return 0;
    case MOSAIC_CHECK_SCOPE_SUB_GROUP: return 1;
    case MOSAIC_CHECK_SCOPE_WORK_GROUP: return 2;
    default: return 3;
    }
}

/* The site a site word of a cell holds. */
static const mosaic_check_site *site_of_word(word w)
{
    return (const mosaic_check_site *)(uintptr_t)(w & ((1ull << SUB_EPOCH_SHIFT) - 1));
}

/* A scope of the class (what a report can say of an earlier access). */
static unsigned scope_of_class(unsigned c)
{
    static const unsigned scopes[4] = {MOSAIC_CHECK_SCOPE_WORK_ITEM, MOSAIC_CHECK_SCOPE_SUB_GROUP,
                                       MOSAIC_CHECK_SCOPE_WORK_GROUP, MOSAIC_CHECK_SCOPE_DEVICE};
    return scopes[c & 3];
}

/* The bytes of a buffer a kernel argument reaches, and their shadow. */
typedef struct region {
    char *lo, *hi;          /* the bytes an argument reaches */
    cl_uint arg;            /* that argument */
    mosaic_check_written *written; /* its root's bytes written (`uninit`; core/check_written.h), or NULL */
    size_t written_at;      /* its first byte in the root */
    _Atomic word *shadow;   /* a cell (CELL_WORDS words) per granule (a pool's entry, or its own) */
    size_t shadow_bytes;
    uint32_t gen;           /* the launch's generation of that shadow: words of others are empty */
    int entry;              /* its pool entry (this launch holds it), -1: none, -2: another region's */
    bool alone;             /* no other argument of the launch reaches its bytes (MOSAIC_CHECK_ARG_READ_ONLY) */
    char name[160];         /* "argument 0 (a), a buffer of 1024 bytes" */
} region;

/* ---- buffers' shadows, kept from launch to launch -------------------------------------------------------
 * A shadow made afresh for each launch cost a page fault per 512 bytes of
 * buffer at every launch (the STREAM rows spent most of their checked time
 * there).  So a buffer's shadow stays in a pool, keyed by its address and
 * size, and each launch that takes it gets the next generation: its words
 * carry it, and words of another generation count as empty.  After
 * 2^GEN_BITS - 1 launches the shadow is emptied (MADV_DONTNEED).  A buffer
 * whose shadow another launch holds (the engine prepares the next launch
 * before the last one is done) gets another entry: two launches that
 * alternate each keep theirs. */
#define POOL_SIZE 64
#define POOL_MOST_BYTES ((size_t)8 << 30) /* of address space (untouched pages cost nothing) */
static struct pool_entry {
    const char *address;
    size_t size, bytes;
    _Atomic word *shadow;
    uint32_t gen;
    bool held;
    uint64_t used;          /* when last taken (the pool's count) */
} pool[POOL_SIZE];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t pool_clock;

static _Atomic word *new_shadow(size_t bytes)
{
    void *s = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return s == MAP_FAILED ? NULL : s;
}

/* r's shadow for the buffer at r->lo of `size` bytes. */
static void take_shadow(region *r, size_t size)
{
    size_t bytes = (size + GRANULE - 1) / GRANULE * CELL_WORDS * sizeof(word);
    r->entry = -1;
    r->gen = 1;
    pthread_mutex_lock(&pool_lock);
    int at = -1, free_at = -1, oldest = -1;
    size_t total = 0;
    for (int i = 0; i < POOL_SIZE; i++) {
        total += pool[i].bytes;
        if (pool[i].shadow && pool[i].address == r->lo && pool[i].size == size && !pool[i].held)
            at = i;
        else if (!pool[i].shadow && free_at < 0)
            free_at = i;
        else if (pool[i].shadow && !pool[i].held && (oldest < 0 || pool[i].used < pool[oldest].used))
            oldest = i;
    }
    if (at < 0) {
        if ((free_at < 0 || total + bytes > POOL_MOST_BYTES) && oldest >= 0) { /* make room */
            munmap((void *)pool[oldest].shadow, pool[oldest].bytes);
            total -= pool[oldest].bytes;
            memset(&pool[oldest], 0, sizeof pool[oldest]);
            free_at = oldest;
        }
        _Atomic word *shadow = free_at >= 0 && total + bytes <= POOL_MOST_BYTES ? new_shadow(bytes) : NULL;
        if (!shadow) { /* no room in the pool: one of its own */
            pthread_mutex_unlock(&pool_lock);
            r->shadow = new_shadow(bytes);
            r->shadow_bytes = r->shadow ? bytes : 0;
            return;
        }
        pool[free_at] = (struct pool_entry){r->lo, size, bytes, shadow, 0, false, 0};
        at = free_at;
    }
    if (++pool[at].gen >= 1u << GEN_BITS) {
        madvise((void *)pool[at].shadow, pool[at].bytes, MADV_DONTNEED);
        pool[at].gen = 1;
    }
    pool[at].held = true;
    pool[at].used = ++pool_clock;
    r->shadow = pool[at].shadow;
    r->shadow_bytes = pool[at].bytes;
    r->gen = pool[at].gen;
    r->entry = at;
    pthread_mutex_unlock(&pool_lock);
}

static void give_back_shadow(region *r)
{
    if (r->entry >= 0) {
        pthread_mutex_lock(&pool_lock);
        pool[r->entry].held = false;
        pthread_mutex_unlock(&pool_lock);
    } else if (r->entry == -1 && r->shadow) {
        munmap((void *)r->shadow, r->shadow_bytes);
    }
    r->shadow = NULL;
}

/* ---- a launch --------------------------------------------------------------------------------------- */

struct cpu_check_launch {
    unsigned kinds;
    const mosaic_kernel_info *info;
    const char *source;     /* the program's, or NULL */
    uint64_t program;       /* a hash of it (or of the executable's address): check_report.h */
    size_t num_groups[3];
    bool own_elements;      /* one dimension, global ids that fit an int: MOSAIC_CHECK_ARG_OWN_ELEMENT holds */
    int64_t *int_value;     /* per argument: its value where an integer that fits int64_t, else 0 */
    size_t global_offset[3], local_size[3];
    size_t given_local_size[3]; /* the application's, where the device regrouped the launch (else 0s) */
    /* per argument: 0 until a call tells, then 1 where its OWN_ROW or
     * ARG_OWN_BLOCK accesses cannot race in this launch (window 3i + 2
     * opens in the groups that start after), 2 where they may */
    unsigned char *own_held;
    uint64_t rows_end, columns_end; /* the launch's global offsets + sizes in y and x */
    cl_uint num_args;
    region **arg_region;    /* per argument: NULL unless a buffer of this launch */
    region *regions;        /* the buffers, lo ascending */
    size_t num_regions;
    size_t *local_lo, *local_hi; /* per __local argument: its bytes in the group's arena */
    mosaic_check_window *windows; /* MOSAIC_CHECK_ARG_WINDOWS per argument (compiler.h): where accesses need no call */
};

/* An integer argument's value (as the kernel reads it), where it fits an
 * int64_t; else 0. */
static int64_t int_value(const mosaic_kernel_arg *a, const void *value)
{
    if (a->kind != MOSAIC_ARG_BY_VALUE || !a->type_name || (a->size != 4 && a->size != 8))
        return 0;
    bool is_unsigned = a->type_name[0] == 'u';
    if (a->size == 4)
        return is_unsigned ? (int64_t)*(const uint32_t *)value : (int64_t)*(const int32_t *)value;
    return is_unsigned && *(const uint64_t *)value > INT64_MAX ? 0 : *(const int64_t *)value;
}

static int by_lo(const void *a, const void *b)
{
    const region *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

cpu_check_launch *mosaic_cpu_check_launch(cl_device_id device, const mosaic_ndrange *nd)
{
    unsigned kinds = mosaic_settings()->check;
    if (!kinds || !nd)
        return NULL;
    const mosaic_kernel_info *info = nd->info;
    cpu_check_launch *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->kinds = kinds;
    l->info = info;
    l->source = nd->kernel && nd->kernel->program ? nd->kernel->program->source : NULL;
    l->program = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const char *c = l->source; c && *c; c++)
        l->program = (l->program ^ (unsigned char)*c) * 0x100000001b3ull;
    if (!l->source)
        l->program ^= (uint64_t)(uintptr_t)nd->executable;
    l->num_args = info->num_args;
    for (int d = 0; d < 3; d++)
        l->num_groups[d] = nd->num_groups[d];
    l->own_elements = nd->global_size[1] <= 1 && nd->global_size[2] <= 1 && nd->global_offset[0] <= INT32_MAX &&
                      nd->global_size[0] <= INT32_MAX - nd->global_offset[0];
    l->int_value = calloc(info->num_args + 1, sizeof *l->int_value);
    l->own_held = calloc(info->num_args + 1, sizeof *l->own_held);
    for (cl_uint i = 0; l->int_value && i < info->num_args; i++)
        l->int_value[i] = int_value(&info->args[i], nd->args[i]);
    for (int d = 0; d < 3; d++) {
        l->global_offset[d] = nd->global_offset[d];
        l->local_size[d] = nd->local_size[d] ? nd->local_size[d] : 1;
        l->given_local_size[d] = nd->given_local_size[d];
    }
    l->rows_end = nd->global_offset[1] + (nd->global_size[1] ? nd->global_size[1] : 1);
    l->columns_end = nd->global_offset[0] + nd->global_size[0];
    l->regions = calloc(info->num_args + 1, sizeof *l->regions);
    l->local_lo = calloc(info->num_args + 1, sizeof *l->local_lo);
    l->local_hi = calloc(info->num_args + 1, sizeof *l->local_hi);
    if (!l->int_value || !l->own_held || !l->regions || !l->local_lo || !l->local_hi) {
        mosaic_cpu_check_launch_free(l);
        return NULL;
    }
    /* the buffers: each global or constant argument whose pointer is a buffer's storage here */
    for (cl_uint i = 0; i < info->num_args; i++) {
        const mosaic_kernel_arg *a = &info->args[i];
        if (a->kind == MOSAIC_ARG_LOCAL_PTR) {
            uint64_t at = *(const uint64_t *)nd->args[i], end = nd->local_mem_size;
            for (cl_uint j = 0; j < info->num_args; j++) /* up to the next __local argument */
                if (info->args[j].kind == MOSAIC_ARG_LOCAL_PTR && *(const uint64_t *)nd->args[j] > at &&
                    *(const uint64_t *)nd->args[j] < end)
                    end = *(const uint64_t *)nd->args[j];
            size_t set = nd->kernel ? nd->kernel->args[i].local_size : 0;
            l->local_lo[i] = at;
            l->local_hi[i] = set && at + set < end ? at + set : end;
            continue;
        }
        if (a->kind != MOSAIC_ARG_GLOBAL_PTR && a->kind != MOSAIC_ARG_CONSTANT_PTR)
            continue;
        char *p = *(char *const *)nd->args[i];
        for (cl_uint m = 0; p && m < nd->num_mems; m++) {
            cl_mem mem = nd->mems[m];
            if (mem->mem_type != CL_MEM_OBJECT_BUFFER || mosaic_mem_storage_on(mem, device)->address != p)
                continue;
            region *r = &l->regions[l->num_regions++];
            r->entry = -1;
            r->arg = i;
            r->lo = p;
            cl_mem root = mem->parent ? mem->parent : mem;
            r->written = root->written;
            r->written_at = mem->parent ? mem->offset : 0;
            r->hi = p + mem->size;
            snprintf(r->name, sizeof r->name, "argument %u (%s), a %sbuffer of %zu bytes", i,
                     a->name && *a->name ? a->name : "unnamed", mem->parent ? "sub-" : "", mem->size);
            region *same = NULL; /* another argument of the same buffer: the same shadow */
            for (region *o = l->regions; o < r && !same; o++)
                if (o->lo == r->lo && o->hi == r->hi && o->shadow)
                    same = o;
            if (same) {
                r->shadow = same->shadow, r->shadow_bytes = same->shadow_bytes, r->gen = same->gen;
                r->entry = -2;
            } else if (mem->size) {
                take_shadow(r, mem->size);
            }
            break;
        }
    }
    qsort(l->regions, l->num_regions, sizeof *l->regions, by_lo);
    l->arg_region = calloc(info->num_args + 1, sizeof *l->arg_region);
    if (!l->arg_region) {
        mosaic_cpu_check_launch_free(l);
        return NULL;
    }
    l->windows = calloc(MOSAIC_CHECK_ARG_WINDOWS * (size_t)info->num_args + 1, sizeof *l->windows);
    if (!l->windows) {
        mosaic_cpu_check_launch_free(l);
        return NULL;
    }
    for (size_t r = 0; r < l->num_regions; r++) {
        l->arg_region[l->regions[r].arg] = &l->regions[r];
        /* (sorted by lo: only neighbours can overlap... unless a long one spans several) */
        l->regions[r].alone = true;
        for (size_t o = 0; o < l->num_regions; o++)
            if (o != r && l->regions[o].lo < l->regions[r].hi && l->regions[r].lo < l->regions[o].hi)
                l->regions[r].alone = false;
    }
    /* the windows: a buffer no other argument reaches, none of whose bytes
     * is unwritten (so reads need no look and writes no count) */
    for (size_t i = 0; i < l->num_regions; i++) {
        region *r = &l->regions[i];
        if (!r->alone || (r->written && (kinds & MOSAIC_CHECK_UNINIT) && !mosaic_check_written_all(r->written)))
            continue;
        l->windows[MOSAIC_CHECK_ARG_WINDOWS * r->arg] = (mosaic_check_window){r->lo, r->hi};
        if (l->own_elements)
            l->windows[MOSAIC_CHECK_ARG_WINDOWS * r->arg + 1] = (mosaic_check_window){r->lo, r->hi};
    }
    return l;
}

void mosaic_cpu_check_launch_free(cpu_check_launch *l)
{
    if (!l)
        return;
    for (size_t r = 0; l->regions && r < l->num_regions; r++)
        give_back_shadow(&l->regions[r]);
    free(l->regions);
    free(l->arg_region);
    free(l->local_lo);
    free(l->local_hi);
    free(l->int_value);
    free(l->own_held);
    free(l->windows);
    free(l);
}

/* Is an access (`how`, of memory `space`) of region r tracked for races
 * and scopes?  Not in constant memory, nor when they are not checked; nor,
 * through r's own argument (`by_argument`), when nothing of the launch but
 * that argument reaches r's bytes and the program only reads through it,
 * or reaches each element through it from one work-item alone
 * (instrument.c's marks). */
static bool block_holds(const cpu_check_launch *l, const mosaic_check_block *b);

/* Does an access's MOSAIC_CHECK_ARG_OWN_ELEMENT hold in launch l?  With
 * OWN_ROW, rows y * w + x of a width w at least the launch's (any, where
 * every access runs under x < w: MOSAIC_CHECK_OWN_ROWS_GUARDED), each
 * work-item the site's own_rows of them, whose last index fits an int.  Its
 * ARG_OWN_BLOCK: where the site's block holds (block_holds). */
static bool own_element_holds(const cpu_check_launch *l, uint64_t how, const mosaic_check_site *site)
{
    unsigned a = MOSAIC_CHECK_HOW_OWN_ROW(how);
    if (how & MOSAIC_CHECK_ARG_OWN_BLOCK)
        return site && site->block && block_holds(l, site->block);
    if (!(how & MOSAIC_CHECK_ARG_OWN_ELEMENT))
        return false;
    if (!a)
        return l->own_elements;
    if (!site || a > l->num_args)
        return false;
    /* (under get_global_id(0) < w, a launch wider than w: its columns from w on reach nothing) */
    bool guarded = site->own_rows & MOSAIC_CHECK_OWN_ROWS_GUARDED;
    uint64_t own_rows = site->own_rows & ~MOSAIC_CHECK_OWN_ROWS_GUARDED, rows, last;
    /* w: integer argument a - 1, at least the launch's global width (or
     * any, guarded), in a launch of one plane */
    uint64_t w = l->int_value[a - 1] > 0 ? (uint64_t)l->int_value[a - 1] : 0;
    if (l->num_groups[2] * l->local_size[2] > 1 || (!guarded && l->columns_end - l->global_offset[0] > w))
        w = 0;
    uint64_t columns = l->columns_end > w && !guarded ? l->columns_end : w; /* (a row backwards reaches w - 1) */
    return w && own_rows && !__builtin_mul_overflow(l->rows_end, own_rows, &rows) &&
           !__builtin_mul_overflow(rows - 1, w, &last) && !__builtin_add_overflow(last, columns, &last) &&
           last <= INT32_MAX;
}

/* own_element_holds, the same for every access of the argument: where
 * it needs the site's own rows or block, found once a launch. */
static bool own_holds(const cpu_check_launch *l, uint64_t how, const mosaic_check_site *site)
{
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    if ((!(how & MOSAIC_CHECK_ARG_OWN_BLOCK) && !MOSAIC_CHECK_HOW_OWN_ROW(how)) || from >= l->num_args)
        return own_element_holds(l, how, site);
    unsigned char held = __atomic_load_n(&l->own_held[from], __ATOMIC_RELAXED);
    if (!held) {
        held = own_element_holds(l, how, site) ? 1 : 2;
        __atomic_store_n(&l->own_held[from], held, __ATOMIC_RELAXED);
    }
    return held == 1;
}

static bool tracked(const cpu_check_launch *l, const region *r, unsigned space, uint64_t how, bool by_argument,
                    const mosaic_check_site *site)
{
    if (!r->shadow || space == MOSAIC_CHECK_CONSTANT || !(l->kinds & (MOSAIC_CHECK_RACES | MOSAIC_CHECK_SCOPES)))
        return false;
    if (!by_argument || !r->alone)
        return true;
    return !(how & MOSAIC_CHECK_ARG_READ_ONLY) && !own_holds(l, how, site);
}

/* The buffer of the launch that holds [p, p + bytes), or NULL. */
static region *region_at(cpu_check_launch *l, const char *p)
{
    size_t lo = 0, hi = l->num_regions;
    while (lo < hi) { /* the last region starting at or below p */
        size_t mid = (lo + hi) / 2;
        if (l->regions[mid].lo <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && p < l->regions[lo - 1].hi ? &l->regions[lo - 1] : NULL;
}

/* ---- a work-group ------------------------------------------------------------------------------------ */
struct cpu_check_group {
    cpu_check_launch *launch;
    const mosaic_wg_ctx *ctx;
    size_t items;
    size_t size[3];
    uint32_t tag;                 /* the group's linear index + 1 */
    uint32_t *epoch;              /* per work-item: barriers passed (less epoch_base) */
    uint32_t *sub_epoch;          /* per work-item: barriers and sub-group barriers passed (less sub_epoch_base) */
    uint32_t epoch_base, sub_epoch_base; /* what the whole group passed at once (rows of every work-item) */
    bool uneven;                  /* some work-item passed a barrier or sub-group barrier alone: the
                                   * per-item epochs are not all 0 */
    /* whole rows that reached the barrier at epoch_base before the group's
     * other rows (a work-group function runs a region's rows one after
     * another, and none of them runs on before the last arrives): their
     * epochs move when the last row arrives, all at once (the bases) */
    uint32_t *pending_row;        /* the rows' first work-items */
    unsigned num_pending_rows, pending_items;
    const mosaic_check_site *pending_site;
    size_t items_room;
    const mosaic_check_site **barrier; /* per epoch: the barrier the first work-item there reached */
    unsigned *barrier_item;       /* and that work-item */
    unsigned *arrived;            /* and how many work-items reached it */
    size_t num_barriers, barriers_room;
    _Atomic word *local_shadow;   /* a cell per granule of __local memory */
    mosaic_check_written *local_written; /* a bit per byte of it: written by the group */
    size_t local_room;
    uint32_t local_tag;           /* groups this worker ran under checking (+1): the __local words' tag */
    /* the windows the group's code tests (ctx->check_windows): the launch's,
     * then those of its __local objects, which open at a barrier */
    mosaic_check_window *windows;
    size_t windows_room;
    struct {
        size_t lo, hi;            /* the object's bytes in the group's __local memory; hi 0: not met yet */
        bool slots_apart;         /* its work-items' slots do not overlap (MOSAIC_CHECK_LOCAL_OWN_SLOT) */
    } local_object[MOSAIC_CHECK_LOCAL_WINDOWS / 2];
};

bool mosaic_cpu_check_group_begin(cpu_check_group **gp, cpu_check_launch *l, const mosaic_wg_ctx *ctx, size_t items)
{
    cpu_check_group *g = *gp;
    if (!g && !(g = *gp = calloc(1, sizeof *g)))
        return false;
    g->launch = NULL;
    if (items > g->items_room) {
        free(g->epoch);
        g->epoch = malloc(3 * items * sizeof *g->epoch);
        g->items_room = g->epoch ? items : 0;
        if (!g->epoch)
            return false;
    }
    g->sub_epoch = g->epoch + items;
    g->pending_row = g->epoch + 2 * items;
    size_t local = ctx->local_mem_size;
    if (local > g->local_room) {
        free(g->local_shadow);
        free(g->local_written);
        g->local_shadow = calloc((local + GRANULE - 1) / GRANULE * CELL_WORDS, sizeof(word));
        g->local_written = calloc(1, MOSAIC_CHECK_WRITTEN_BYTES(local));
        g->local_room = g->local_shadow && g->local_written ? local : 0;
        g->local_tag = 0;
        if (!g->local_room)
            return false;
    }
    if (++g->local_tag >= 1u << TAG_BITS) { /* (every 2^27 groups: the words forget) */
        memset(g->local_shadow, 0, (g->local_room + GRANULE - 1) / GRANULE * CELL_WORDS * sizeof(word));
        g->local_tag = 1;
    }
    if (g->local_written) {
        g->local_written->size = local;
        g->local_written->alone = true;
        memset((void *)g->local_written->words, 0, (local + 63) / 64 * sizeof(uint64_t));
    }
    if (g->uneven || items != g->items) /* (a group whose rows passed barriers whole leaves them 0) */
        memset(g->epoch, 0, 2 * items * sizeof *g->epoch);
    g->epoch_base = g->sub_epoch_base = 0;
    g->uneven = false;
    g->num_pending_rows = g->pending_items = 0;
    g->num_barriers = 0;
    g->items = items;
    size_t args = MOSAIC_CHECK_ARG_WINDOWS * (size_t)l->num_args;
    size_t windows = args + 2 * MOSAIC_CHECK_LOCAL_WINDOWS; /* (then the set windows) */
    if (windows > g->windows_room) {
        free(g->windows);
        g->windows = malloc(windows * sizeof *g->windows);
        g->windows_room = g->windows ? windows : 0;
        if (!g->windows)
            return false;
    }
    memcpy(g->windows, l->windows, args * sizeof *g->windows);
    memset(g->windows + args, 0, 2 * MOSAIC_CHECK_LOCAL_WINDOWS * sizeof *g->windows);
    for (cl_uint i = 0; i < l->num_args; i++) /* (what earlier groups' calls showed) */
        if (__atomic_load_n(&l->own_held[i], __ATOMIC_RELAXED) == 1)
            g->windows[MOSAIC_CHECK_ARG_WINDOWS * i + 2] = l->windows[MOSAIC_CHECK_ARG_WINDOWS * i];
    memset(g->local_object, 0, sizeof g->local_object);
    for (int d = 0; d < 3; d++)
        g->size[d] = ctx->local_size[d];
    g->tag = (uint32_t)((ctx->group_id[2] * l->num_groups[1] + ctx->group_id[1]) * l->num_groups[0] +
                        ctx->group_id[0] + 1) & ((1u << GROUP_BITS) - 1);
    g->ctx = ctx;
    g->launch = l;
    return true;
}

void mosaic_cpu_check_group_free(cpu_check_group *g)
{
    if (!g)
        return;
    free(g->epoch);
    free(g->barrier);
    free(g->barrier_item);
    free(g->arrived);
    free(g->windows);
    free(g->local_shadow);
    free(g->local_written);
    free(g);
}

/* Work-item lid's epoch (barriers passed) and sub-epoch (barriers and sub-group barriers passed). */
static uint32_t epoch_at(const cpu_check_group *g, unsigned lid) { return g->epoch_base + g->epoch[lid]; }
static uint32_t sub_epoch_at(const cpu_check_group *g, unsigned lid) { return g->sub_epoch_base + g->sub_epoch[lid]; }

static unsigned linear_id(const cpu_check_group *g, uint64_t lx, uint64_t ly, uint64_t lz)
{
    return (unsigned)((lz * g->size[1] + ly) * g->size[0] + lx);
}

static void item_of(const cpu_check_group *g, unsigned lid, size_t item[3])
{
    item[0] = lid % g->size[0];
    item[1] = lid / g->size[0] % g->size[1];
    item[2] = lid / (g->size[0] * g->size[1]);
}

static void start_problem(mosaic_check_problem *p, const cpu_check_group *g, unsigned kind, const char *what,
                          const mosaic_check_site *site, uint64_t how, uint64_t bytes, unsigned lid)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->kernel = g->launch->info->name;
    p->what = what;
    p->source = g->launch->source;
    p->program = g->launch->program;
    p->access.site = site;
    p->access.how = how;
    p->access.bytes = bytes;
    for (int d = 0; d < 3; d++)
        p->access.group[d] = g->ctx->group_id[d];
    item_of(g, lid, p->access.item);
    p->access.item_known = true;
}

/* An access's work-group and local id in the application's groups, where
 * the device ran the launch in groups of its own (a kernel that cannot tell:
 * the same global id). */
static void given_ids(const cpu_check_launch *l, mosaic_check_access *a)
{
    for (int d = 0; d < 3 && l->given_local_size[0]; d++) {
        size_t given = l->given_local_size[d] ? l->given_local_size[d] : 1;
        size_t global = a->group[d] * l->local_size[d] + (a->item_known ? a->item[d] : 0);
        a->group[d] = global / given;
        a->item[d] = global % given;
    }
}

/* Reports p (mosaic_check_report) with the application's groups. */
static void report(const cpu_check_group *g, mosaic_check_problem *p)
{
    given_ids(g->launch, &p->access);
    if (p->other.site || p->other.item_known)
        given_ids(g->launch, &p->other);
    mosaic_check_report(p);
}

/* ---- schedule perturbation --------------------------------------------------------------------------- */
static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* {a, b} with a prime to n: the i-th of n runs as (a * i + b) % n. */
static void affine_order(uint64_t *state, size_t n, uint64_t out[2])
{
    out[0] = out[1] = 0;
    if (n < 2)
        return;
    uint64_t a = splitmix(state) % n;
    while (gcd(a, n) != 1) /* (a of 0 or 1 runs them in order, shifted) */
        a = (a + 1) % n;
    out[0] = a ? a : 1;
    out[1] = splitmix(state) % n;
}

void mosaic_cpu_check_shuffle(uint64_t seed, size_t groups, uint64_t out[3])
{
    static atomic_ulong launches;
    uint64_t state = seed ^ (atomic_fetch_add(&launches, 1) * 0x2545f4914f6cdd1dull);
    affine_order(&state, groups, out);
    out[2] = splitmix(&state) | 1; /* the seed of its groups' own orders */
}

void mosaic_cpu_check_shuffle_items(uint64_t seed, size_t group, size_t sub_groups, uint64_t out[2])
{
    uint64_t state = seed ^ (group * 0x9e3779b97f4a7c15ull);
    affine_order(&state, sub_groups, out);
}

/* ---- what the kernels call ------------------------------------------------------------------------------ */
const mosaic_check_window *mosaic_cpu_check_group_windows(const cpu_check_group *g) { return g->windows; }
uint64_t *mosaic_cpu_check_group_written(const cpu_check_group *g)
{
    return g->local_written ? (uint64_t *)g->local_written->words : NULL; /* (the group's own: one thread) */
}

static cpu_check_group *group_of(const mosaic_wg_ctx *ctx)
{
    cpu_check_group *g = mosaic_cpu_running(ctx)->check;
    return g && g->launch && g->ctx == ctx ? g : NULL;
}

/* ---- __local objects' windows --------------------------------------------------------------------------
 * A read of a __local object that no write of it can run beside
 * (MOSAIC_CHECK_LOCAL_NO_WRITER) cannot race, nor can an access at the
 * work-item's own slot of the object (MOSAIC_CHECK_LOCAL_OWN_SLOT) where
 * the group's slots are apart; once the group has written every byte of
 * the object neither reads anything unwritten nor needs its write counted,
 * and inside the object it is inside its bounds: it needs no call.  The
 * object's windows (one for each kind) open then, at a barrier all the
 * group's work-items reached (each has done what came before it).  The
 * device learns where the object is, and its slot, from the first access
 * of it that calls (its variable's start and size, or its argument's
 * bytes; the site's slot). */

/* A coordinate of a slot: its values times `stride` bytes, `extent` of
 * them from 0 on (0: not bounded). */
typedef struct coordinate {
    uint64_t stride, extent;
} coordinate;

/* Do the n coordinates c nest, each one's values, in the order of their
 * strides, fitting between two of the next one's, from `need` (the bytes of
 * one value) on?  *span: the stride the next would need (0 where the last
 * one is not bounded, which only the last may be). */
static bool nested(coordinate *c, int n, uint64_t need, uint64_t *span)
{
    for (int i = 1; i < n; i++) /* (insertion: at most 7) */
        for (int at = i; at > 0 && c[at - 1].stride > c[at].stride; at--) {
            coordinate t = c[at];
            c[at] = c[at - 1], c[at - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        if (c[i].stride < need)
            return false;
        if (!c[i].extent) { /* (unbounded: only the outermost) */
            *span = 0;
            return i == n - 1;
        }
        if (__builtin_mul_overflow(c[i].stride, c[i].extent, &need))
            return false;
    }
    *span = need;
    return true;
}

/* Are the n terms c, a work-item's coordinates (work_item[k]) and steps of
 * its own, apart for two work-items: in the order of their factors, is
 * each term's factor, from the first of a work-item on, above the reach of
 * the terms before it and of `bytes`?  (Take two work-items' same offset:
 * the last term where their values differ is at least one step of its
 * factor apart, which the terms before cannot make up.)  A loop's steps
 * below every work-item's coordinate may overlap each other: they are one
 * work-item's. */
static bool items_apart(coordinate *c, const bool *work_item, int n, uint64_t bytes)
{
    int order[MOSAIC_CHECK_BLOCK_TERMS];
    for (int i = 0; i < n; i++) { /* (insertion, by factor) */
        int at = i;
        for (; at > 0 && c[order[at - 1]].stride > c[i].stride; at--)
            order[at] = order[at - 1];
        order[at] = i;
    }
    uint64_t reach = bytes, move;
    bool items_below = false;
    for (int i = 0; i < n; i++) {
        const coordinate *t = &c[order[i]];
        if ((items_below || work_item[order[i]]) && t->stride < reach)
            return false;
        if (__builtin_mul_overflow(t->stride, t->extent - 1, &move) || __builtin_add_overflow(reach, move, &reach))
            return false;
        items_below |= work_item[order[i]];
    }
    return true;
}

/* Does block b of an argument (compiler.h, mosaic_check_block) hold in
 * launch l: are its terms, at the launch's sizes, apart for two
 * work-items (items_apart), every coordinate of a work-item that the
 * launch moves among the terms, and the whole sum inside an int? */
static bool block_holds(const cpu_check_launch *l, const mosaic_check_block *b)
{
    int64_t w = b->width && b->width <= l->num_args ? l->int_value[b->width - 1] : 0;
    if (b->num_terms > MOSAIC_CHECK_BLOCK_TERMS || (b->width && w <= 0) || b->base < 0 || b->base_w < 0 || !b->bytes)
        return false;
    coordinate c[MOSAIC_CHECK_BLOCK_TERMS], unfolded[MOSAIC_CHECK_BLOCK_TERMS];
    bool work_item[MOSAIC_CHECK_BLOCK_TERMS], unfolded_item[MOSAIC_CHECK_BLOCK_TERMS];
    int m = 0; /* (the terms but the FOLDED steps) */
    bool moved[2][3] = {{false}}; /* [local id, group id][d] */
    uint64_t top, reach = 0;      /* the sum's greatest */
    if (__builtin_mul_overflow((uint64_t)b->base_w, (uint64_t)w, &top) || __builtin_add_overflow(top, (uint64_t)b->base, &top) ||
        __builtin_add_overflow(top, b->bytes, &top))
        return false;
    int n = 0;
    for (uint32_t i = 0; i < b->num_terms; i++) {
        const mosaic_check_block_term *t = &b->term[i];
        unsigned d = MOSAIC_CHECK_TERM_DIM(t->flags);
        uint64_t factor = (uint64_t)t->factor, extent, greatest;
        if (t->factor <= 0 || d > 2 ||
            ((t->flags & MOSAIC_CHECK_TERM_BY_WIDTH) && __builtin_mul_overflow(factor, (uint64_t)w, &factor)) ||
            ((t->flags & MOSAIC_CHECK_TERM_BY_LOCAL_SIZE) && __builtin_mul_overflow(factor, l->local_size[d], &factor)))
            return false;
        switch (t->kind) {
        case MOSAIC_CHECK_TERM_LOCAL_ID:
            extent = l->local_size[d], greatest = extent - 1, moved[0][d] = true;
            break;
        case MOSAIC_CHECK_TERM_GROUP_ID:
            extent = l->num_groups[d], greatest = extent - 1, moved[1][d] = true;
            break;
        case MOSAIC_CHECK_TERM_GLOBAL_OFFSET: /* (the same for every work-item) */
            extent = 1, greatest = l->global_offset[d];
            break;
        case MOSAIC_CHECK_TERM_STEPS:
            if (t->extent <= 0)
                return false;
            extent = (uint64_t)t->extent, greatest = extent - 1;
            break;
        default:
            return false;
        }
        if (__builtin_mul_overflow(factor, greatest, &greatest) || __builtin_add_overflow(reach, greatest, &reach))
            return false;
        if (extent > 1) {
            work_item[n] = t->kind != MOSAIC_CHECK_TERM_STEPS;
            c[n++] = (coordinate){factor, extent};
            if (!(t->flags & MOSAIC_CHECK_TERM_FOLDED))
                unfolded_item[m] = work_item[n - 1], unfolded[m++] = c[n - 1];
        }
    }
    for (int d = 0; d < 3; d++) /* (a work-item's place in d: its group and its local id) */
        if ((l->num_groups[d] > 1 && !moved[1][d]) || (l->local_size[d] > 1 && !moved[0][d]))
            return false;
    /* (each term apart, or the FOLDED steps within each access's folded bytes, apart from the rest) */
    return !__builtin_add_overflow(reach, top, &reach) && reach <= INT32_MAX &&
           (items_apart(c, work_item, n, b->bytes) ||
            (b->folded_bytes && items_apart(unfolded, unfolded_item, m, b->folded_bytes)));
}

/* Are the values sum(lid[d] * local id d) of a group of `size` work-items
 * each a work-item's own?  *span: one past the largest. */
static bool lids_apart(const int64_t lid[3], const size_t size[3], uint64_t *span)
{
    coordinate c[3];
    int n = 0;
    for (int d = 0; d < 3; d++) {
        if (size[d] <= 1 || !lid[d])
            continue;
        if (lid[d] < 0)
            return false;
        c[n++] = (coordinate){(uint64_t)lid[d], size[d]};
    }
    return nested(c, n, 1, span);
}

/* Are the slots (site's slot_stride, slot_loop and slot_bytes) of a group
 * of `size` work-items apart?  Each local id that varies must move one
 * coordinate: get_local_id(d) itself (slot_stride[d]), or a loop's counter
 * that starts at the work-item's own value and steps past all of the
 * group's (slot_loop).  Then, in the order of their strides, each
 * coordinate's values must fit between two of the next one's.  A
 * double-buffered object's (slot_plane) must also fit, from 0 up, in a
 * plane. */
static bool slots_apart(const mosaic_check_site *site, const size_t size[3])
{
    if (!site || !site->slot_bytes)
        return false;
    if (site->slot_plane) { /* (local_objects.c gives a plane only to slots of the local ids alone) */
        uint64_t top = site->slot_bytes, move;
        for (int d = 0; d < 3; d++)
            if (site->slot_stride[d] < 0 || site->slot_loop[0].stride ||
                __builtin_mul_overflow((uint64_t)site->slot_stride[d], size[d] - 1, &move) ||
                __builtin_add_overflow(top, move, &top))
                return false;
        if (site->slot_plane < 0 || top > (uint64_t)site->slot_plane)
            return false;
    }
    coordinate c[3 + 2 * MOSAIC_CHECK_SLOT_LOOPS];
    unsigned moved[3] = {0, 0, 0}; /* coordinates each local id moves */
    int n = 0;
    for (int d = 0; d < 3; d++) {
        if (size[d] <= 1 || !site->slot_stride[d])
            continue;
        int64_t s = site->slot_stride[d];
        c[n++] = (coordinate){s < 0 ? -(uint64_t)s : (uint64_t)s, size[d]};
        moved[d]++;
    }
    for (int j = 0; j < MOSAIC_CHECK_SLOT_LOOPS; j++) {
        const mosaic_check_slot_loop *loop = &site->slot_loop[j];
        uint64_t span;
        if (!loop->stride)
            continue;
        if (loop->stride < 0 || loop->first < 0 || loop->bound < 0 || !lids_apart(loop->lid, size, &span) ||
            (uint64_t)loop->step < span)
            return false;
        if (loop->split) { /* (its remainder and its quotient, each a coordinate) */
            if (loop->split < 0 || loop->split_stride <= 0)
                return false;
            uint64_t w = (uint64_t)loop->split, quotients = loop->bound ? ((uint64_t)loop->bound + w - 1) / w : 0;
            c[n++] = (coordinate){(uint64_t)loop->stride, w};
            c[n++] = (coordinate){(uint64_t)loop->split_stride, quotients};
        } else {
            c[n++] = (coordinate){(uint64_t)loop->stride, (uint64_t)loop->bound};
        }
        for (int d = 0; d < 3; d++)
            moved[d] += size[d] > 1 && loop->lid[d];
    }
    for (int d = 0; d < 3; d++)
        if (size[d] > 1 && moved[d] != 1)
            return false;
    uint64_t span;
    return nested(c, n, site->slot_bytes, &span);
}

/* Window `window` (MOSAIC_CHECK_HOW_LOCAL_WINDOW - 1) is one of the
 * __local object of an access from `from`, starting at `base`. */
static void meet_local_object(cpu_check_group *g, unsigned window, uint32_t from, const char *base,
                              const mosaic_check_site *site)
{
    cpu_check_launch *l = g->launch;
    size_t args = MOSAIC_CHECK_ARG_WINDOWS * (size_t)l->num_args;
    if (window < args)
        return;
    size_t k = (window - args) / 2, lo, hi;
    if (k >= MOSAIC_CHECK_LOCAL_WINDOWS / 2 || g->local_object[k].hi)
        return;
    if (from == MOSAIC_CHECK_FROM_OBJECT) {
        if (!site || base < g->ctx->local_mem)
            return;
        lo = (size_t)(base - g->ctx->local_mem);
        hi = lo + site->object_size;
    } else if (from < l->num_args) {
        lo = l->local_lo[from];
        hi = l->local_hi[from];
    } else {
        return;
    }
    if (lo < hi && hi <= g->ctx->local_mem_size) {
        g->local_object[k].lo = lo, g->local_object[k].hi = hi;
        g->local_object[k].slots_apart = slots_apart(site, g->size);
        /* its set windows (compiler.h): reads no write meets, whose bits the
         * kernel tests, and its own slots' stores, whose bits it sets */
        mosaic_check_window bytes = {g->ctx->local_mem + lo, g->ctx->local_mem + hi};
        g->windows[MOSAIC_CHECK_SET_WINDOW(args + 2 * k)] = bytes;
        if (g->local_object[k].slots_apart)
            g->windows[MOSAIC_CHECK_SET_WINDOW(args + 2 * k + 1)] = bytes;
    }
}

/* n work-items reached the group's barrier e: when they are the last, the
 * windows of the objects met and now written open. */
static void arrive(cpu_check_group *g, uint32_t e, unsigned n)
{
    if ((g->arrived[e] += n) != g->items)
        return;
    mosaic_check_window *w = g->windows + MOSAIC_CHECK_ARG_WINDOWS * (size_t)g->launch->num_args;
    for (size_t k = 0; k < MOSAIC_CHECK_LOCAL_WINDOWS / 2; k++) {
        size_t lo = g->local_object[k].lo, hi = g->local_object[k].hi;
        if (!hi || w[2 * k].hi)
            continue;
        if ((g->launch->kinds & MOSAIC_CHECK_UNINIT) &&
            mosaic_check_written_first_unwritten(g->local_written, lo, hi - lo) != (size_t)-1)
            continue;
        w[2 * k] = (mosaic_check_window){g->ctx->local_mem + lo, g->ctx->local_mem + hi};
        if (g->local_object[k].slots_apart)
            w[2 * k + 1] = w[2 * k];
    }
}

/* Work-item lid reached barrier `site`, its barrier e (its epoch before),
 * and n work-items with it (lid first) arrive there. */
static void reach_barrier(cpu_check_group *g, unsigned lid, uint32_t e, const mosaic_check_site *site, unsigned n)
{
    if (e < g->num_barriers) {
        if (g->barrier[e] != site && (g->launch->kinds & MOSAIC_CHECK_BARRIERS)) {
            mosaic_check_problem p;
            start_problem(&p, g, MOSAIC_CHECK_BARRIERS,
                          "work-items of one work-group reached different barriers (each must reach the same "
                          "barriers in the same order)", site, 0, 0, lid);
            p.other.site = g->barrier[e];
            p.other.group[0] = p.access.group[0], p.other.group[1] = p.access.group[1];
            p.other.group[2] = p.access.group[2];
            item_of(g, g->barrier_item[e], p.other.item);
            p.other.item_known = true;
            report(g, &p);
        }
        arrive(g, e, n);
        return;
    }
    if (e >= g->barriers_room) {
        size_t room = g->barriers_room ? 2 * g->barriers_room : 16;
        const mosaic_check_site **b = realloc(g->barrier, room * sizeof *b);
        if (b)
            g->barrier = b;
        unsigned *bi = realloc(g->barrier_item, room * sizeof *bi);
        if (bi)
            g->barrier_item = bi;
        unsigned *a = realloc(g->arrived, room * sizeof *a);
        if (a)
            g->arrived = a;
        if (!b || !bi || !a)
            return;
        g->barriers_room = room;
    }
    g->barrier[e] = site;
    g->barrier_item[e] = lid;
    g->arrived[e] = 0;
    g->num_barriers = e + 1;
    arrive(g, e, n);
}

/* The rows waiting for the group's others (pending_row) pass their barrier
 * now, each work-item's epoch moved: before anything passes a barrier
 * other than as a whole row at the same one. */
static void pass_pending_rows(cpu_check_group *g)
{
    for (unsigned r = 0; r < g->num_pending_rows; r++)
        for (size_t i = 0; i < g->size[0]; i++) {
            g->epoch[g->pending_row[r] + i]++;
            g->sub_epoch[g->pending_row[r] + i]++;
        }
    if (g->num_pending_rows)
        g->uneven = true;
    g->num_pending_rows = g->pending_items = 0;
}

void mosaic_cpu_check_barrier(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
                              const mosaic_check_site *site)
{
    cpu_check_group *g = group_of(ctx);
    unsigned lid;
    if (!g || (lid = linear_id(g, lx, ly, lz)) >= g->items)
        return;
    pass_pending_rows(g);
    uint32_t e = epoch_at(g, lid);
    g->epoch[lid]++;
    g->sub_epoch[lid]++;
    g->uneven = true;
    reach_barrier(g, lid, e, site, 1);
}

void mosaic_cpu_check_barrier_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t count,
                                  const mosaic_check_site *site)
{
    cpu_check_group *g = group_of(ctx);
    unsigned lid;
    if (!g || !count || (lid = linear_id(g, lx, ly, lz)) >= g->items)
        return;
    if (lx + count > g->size[0])
        count = lx < g->size[0] ? g->size[0] - lx : 0;
    if (!g->uneven && lx == 0 && count == g->size[0] &&
        (!g->num_pending_rows || (g->pending_site == site && lid > g->pending_row[g->num_pending_rows - 1]))) {
        /* a whole row, each work-item at the barrier epoch_base, after the
         * rows before it (a row that comes again passed a second barrier
         * before the others arrived: below): it waits for the group's
         * other rows, then the bases move */
        uint32_t e = g->epoch_base;
        g->pending_site = site;
        g->pending_row[g->num_pending_rows++] = lid;
        g->pending_items += (unsigned)count;
        reach_barrier(g, lid, e, site, (unsigned)count);
        if (g->pending_items >= g->items) {
            g->epoch_base++;
            g->sub_epoch_base++;
            g->num_pending_rows = g->pending_items = 0;
        }
        return;
    }
    pass_pending_rows(g);
    /* (the row's work-items are lid on: x is the fastest dimension) */
    uint32_t e = g->epoch[lid];
    bool together = true;
    for (uint64_t i = 0; i < count; i++) {
        together &= g->epoch[lid + i] == e;
        g->epoch[lid + i]++;
        g->sub_epoch[lid + i]++;
    }
    g->uneven = true;
    if (together) { /* each at its barrier e: the first says which, the rest arrive with it */
        reach_barrier(g, lid, g->epoch_base + e, site, (unsigned)count);
        return;
    }
    for (uint64_t i = 0; i < count; i++)
        reach_barrier(g, lid + (unsigned)i, epoch_at(g, lid + (unsigned)i) - 1, site, 1);
}

void mosaic_cpu_check_sub_group_barrier(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
                                        const mosaic_check_site *site)
{
    (void)site;
    cpu_check_group *g = group_of(ctx);
    unsigned lid;
    if (g && (lid = linear_id(g, lx, ly, lz)) < g->items) {
        pass_pending_rows(g);
        g->sub_epoch[lid]++;
        g->uneven = true;
    }
}

void mosaic_cpu_check_group_end(cpu_check_group *g)
{
    if (!g || !g->launch)
        return;
    pass_pending_rows(g); /* (rows whose group's others never arrived) */
    /* (no barrier reached: all at 0; none passed alone: all at the bases) */
    if ((g->launch->kinds & MOSAIC_CHECK_BARRIERS) && g->num_barriers && g->uneven) {
        unsigned least = 0, most = 0;
        for (unsigned i = 1; i < g->items; i++) {
            if (g->epoch[i] < g->epoch[least])
                least = i;
            if (g->epoch[i] > g->epoch[most])
                most = i;
        }
        if (g->items && g->epoch[least] != g->epoch[most] && epoch_at(g, least) < g->num_barriers) {
            mosaic_check_problem p;
            start_problem(&p, g, MOSAIC_CHECK_BARRIERS,
                          "a barrier was reached by only part of the work-group (work-items that do not reach "
                          "it ended first)", g->barrier[epoch_at(g, least)], 0, 0,
                          g->barrier_item[epoch_at(g, least)]);
            for (int d = 0; d < 3; d++)
                p.other.group[d] = p.access.group[d];
            item_of(g, least, p.other.item);
            p.other.item_known = true;
            p.other.how = 0;
            p.other.site = NULL;
            report(g, &p);
        }
    }
    g->launch = NULL;
}

/* An access through argument `from` at y * w + get_global_id(0) (OWN_ROW),
 * or inside its work-item's block (ARG_OWN_BLOCK): where that holds in
 * this launch (the same for every access of the argument), window 3i + 2
 * of this group and of those that start after it is the launch's for
 * reads. */
static void open_own_rows(cpu_check_group *g, uint32_t from, uint64_t how, const mosaic_check_site *site)
{
    cpu_check_launch *l = g->launch;
    if ((how & MOSAIC_CHECK_ARG_OWN_BLOCK || MOSAIC_CHECK_HOW_OWN_ROW(how)) && own_holds(l, how, site))
        g->windows[MOSAIC_CHECK_ARG_WINDOWS * (size_t)from + 2] = l->windows[MOSAIC_CHECK_ARG_WINDOWS * (size_t)from];
}

/* A problem of bounds: [address, + bytes) is not inside [lo, hi) of `object`. */
static void out_of_bounds(cpu_check_group *g, unsigned lid, const char *object, const char *lo, const char *address,
                          uint64_t bytes, uint64_t how, const mosaic_check_site *site)
{
    mosaic_check_problem p;
    start_problem(&p, g, MOSAIC_CHECK_BOUNDS, address < lo ? "an access before the start of what its pointer points into"
                                                           : "an access past the end of what its pointer points into",
                  site, how, bytes, lid);
    p.object = object;
    p.offset = (int64_t)(address - lo);
    report(g, &p);
}

/* What word w (another access of the same bytes, at w_site) and the access
 * `me` make: a race, a scope too narrow, or nothing. */
static const char race_between_groups[] = "a data race between work-groups: work-items of two work-groups of one "
                                          "launch access the same global memory, one writing, not both atomically";
static const char race_in_group[] = "a data race on global memory: work-items of one work-group access the same "
                                    "bytes, one writing, with no barrier between them";

static void conflict(cpu_check_group *g, unsigned lid, word me, word me_site, word w, word w_site_word, bool w_writes,
                     uint64_t how, uint64_t bytes, const char *object, int64_t offset, bool local)
{
    bool same_group = tag_of(w) == tag_of(me);
    unsigned other = lid_of(w);
    const mosaic_check_site *site = site_of_word(me_site), *w_site = site_of_word(w_site_word);
    if (same_group && other == lid)
        return;
    if (same_group && epoch_of(w) != epoch_of(me))
        return; /* a barrier between them */
    bool same_sub_group = other == LID_MANY || other / MOSAIC_SUB_GROUP_SIZE == lid / MOSAIC_SUB_GROUP_SIZE;
    if (same_group && same_sub_group && (w_site_word >> SUB_EPOCH_SHIFT) != (me_site >> SUB_EPOCH_SHIFT))
        return; /* a sub-group barrier between them (several readers: perhaps) */
    unsigned kind;
    const char *what;
    if (is_atomic(w) && is_atomic(me)) {
        /* both atomic: the narrower scope must still hold both work-items */
        unsigned need = !same_group ? 3 : other == LID_MANY || other / MOSAIC_SUB_GROUP_SIZE != lid / MOSAIC_SUB_GROUP_SIZE ? 2 : 1;
        unsigned have = scope_class(w) < scope_class(me) ? scope_class(w) : scope_class(me);
        if (have >= need)
            return;
        kind = MOSAIC_CHECK_SCOPES;
        what = same_group ? "atomics of work-items of one work-group on the same memory, with a memory scope that "
                            "does not hold both"
                          : "atomics of different work-groups on the same global memory, one with a memory scope "
                            "narrower than the device";
    } else {
        kind = MOSAIC_CHECK_RACES;
        what = !same_group ? race_between_groups
               : local ? "a data race on __local memory: work-items of one work-group access the same bytes, one "
                         "writing, with no barrier between them"
                       : race_in_group;
    }
    if (!(g->launch->kinds & kind))
        return;
    mosaic_check_problem p;
    start_problem(&p, g, kind, what, site, how, bytes, lid);
    p.other.site = w_site;
    p.other.how = (w & RMW_BIT ? MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE : w_writes ? MOSAIC_CHECK_WRITE : MOSAIC_CHECK_READ) |
                  (is_atomic(w) ? MOSAIC_CHECK_ATOMIC | (uint64_t)scope_of_class(scope_class(w)) << MOSAIC_CHECK_SCOPE_SHIFT
                                : 0);
    if (same_group) {
        for (int d = 0; d < 3; d++)
            p.other.group[d] = p.access.group[d];
    } else {
        uint32_t t = (tag_of(w) & ((1u << GROUP_BITS) - 1)) - 1; /* (right below 2^GROUP_BITS groups) */
        p.other.group[0] = t % g->launch->num_groups[0];
        p.other.group[1] = t / g->launch->num_groups[0] % g->launch->num_groups[1];
        p.other.group[2] = t / (g->launch->num_groups[0] * g->launch->num_groups[1]);
    }
    if (other != LID_MANY) {
        item_of(g, other, p.other.item);
        p.other.item_known = true;
    }
    p.object = object;
    p.offset = offset;
    if (kind == MOSAIC_CHECK_RACES && !local && g->launch->given_local_size[0] && p.other.item_known) {
        /* (a regrouped launch: two work-items of the application's groups) */
        mosaic_check_access a = p.access, o = p.other;
        given_ids(g->launch, &a);
        given_ids(g->launch, &o);
        p.what = memcmp(a.group, o.group, sizeof a.group) ? race_between_groups : race_in_group;
    }
    report(g, &p);
}

/* What conflict() first rules out, sooner (a histogram's atomics on one
 * __local word reach it from every work-item): the same work-item, a
 * barrier between the two in one group, two atomics whose narrower scope
 * holds both work-items of one sub-group, or of one group. */
static bool may_conflict(unsigned lid, word me, word w)
{
    if (tag_of(w) != tag_of(me))
        return true;
    if (lid_of(w) == lid || epoch_of(w) != epoch_of(me))
        return false;
    if (!is_atomic(w) || !is_atomic(me))
        return true;
    unsigned other = lid_of(w), have = scope_class(w) < scope_class(me) ? scope_class(w) : scope_class(me);
    unsigned need = other == LID_MANY || other / MOSAIC_SUB_GROUP_SIZE != lid / MOSAIC_SUB_GROUP_SIZE ? 2 : 1;
    return have < need;
}

/* The access `me` of one granule (the bytes mask_of(me)) whose cell is at
 * `cell`.  A __local cell whose tag is not the group's is another group's,
 * a buffer's of another generation another launch's: empty. */
static void track(cpu_check_group *g, unsigned lid, _Atomic word *cell, word me, bool reads, bool writes,
                  const mosaic_check_site *site, uint64_t how, uint64_t bytes, const char *object, int64_t offset,
                  bool local)
{
    /* the tag's bits a word must share with `me` to count: the group's count (__local), the launch's
     * generation (global) */
    uint32_t fresh = local ? (1u << TAG_BITS) - 1 : ((1u << GEN_BITS) - 1) << GROUP_BITS;
    word me_site = (word)(uintptr_t)site | (word)(sub_epoch_at(g, lid) & 0xffff) << SUB_EPOCH_SHIFT;
    word w = load_word(&cell[0]), r = load_word(&cell[2]);
    if ((tag_of(w) ^ tag_of(me)) & fresh)
        w = 0;
    if ((tag_of(r) ^ tag_of(me)) & fresh)
        r = 0;
    unsigned mask = mask_of(me);
    if (w && (mask_of(w) & mask) && may_conflict(lid, me, w))
        conflict(g, lid, me, me_site, w, load_word(&cell[1]), true, how, bytes, object, offset, local);
    if (writes && r && (mask_of(r) & mask) && may_conflict(lid, me, r))
        conflict(g, lid, me, me_site, r, load_word(&cell[3]), false, how, bytes, object, offset, local);
    if (writes) {
        store_word(&cell[0], me);
        store_word(&cell[1], me_site);
    } else if (reads) {
        bool replace = !r || tag_of(r) != tag_of(me) || epoch_of(r) != epoch_of(me) || lid_of(r) == lid;
        if (replace)
            store_word(&cell[2], me);
        else if (lid_of(r) != LID_MANY)
            store_word(&cell[2], (r & ~(word)LID_MANY & ~ATOMIC_BIT) | LID_MANY | (r & me & ATOMIC_BIT) |
                                 (word)mask << MASK_SHIFT);
        store_word(&cell[3], me_site);
    }
}

/* `uninit`: a read of [at, at + bytes) of what `written` records (its
 * bytes from `base` on are `object`'s; NULL: the group's __local memory)
 * that has a byte nothing wrote is reported; a write counts its bytes
 * written. */
static void uninit_access(cpu_check_group *g, unsigned lid, mosaic_check_written *written, size_t base, size_t at,
                          uint64_t bytes, uint64_t how, const mosaic_check_site *site, const char *what,
                          const char *object)
{
    size_t first = (size_t)-1;
    if ((how & MOSAIC_CHECK_READ) &&
        (first = mosaic_check_written_first_unwritten(written, base + at, bytes)) != (size_t)-1) {
        mosaic_check_problem p;
        char local[80];
        if (!object) { /* (named only when reported: this runs at every access) */
            snprintf(local, sizeof local, "the work-group's __local memory (%zu bytes)", (size_t)g->ctx->local_mem_size);
            object = local;
        }
        start_problem(&p, g, MOSAIC_CHECK_UNINIT, what, site, how, bytes, lid);
        p.object = object;
        p.offset = (int64_t)(first - base);
        report(g, &p);
    }
    if ((how & MOSAIC_CHECK_WRITE) && !((how & MOSAIC_CHECK_READ) && first == (size_t)-1)) /* (read whole: written) */
        mosaic_check_written_set(written, base + at, bytes);
}

/* The access of [at, at + bytes) of the memory whose cells are `shadow`,
 * granule by granule, tagged `tag`. */
static void track_range(cpu_check_group *g, unsigned lid, _Atomic word *shadow, uint32_t tag, size_t at,
                        uint64_t bytes, uint64_t how, const mosaic_check_site *site, const char *object, bool local)
{
    bool reads = how & MOSAIC_CHECK_READ, writes = how & MOSAIC_CHECK_WRITE;
    unsigned scope = class_of_scope(MOSAIC_CHECK_HOW_SCOPE(how));
    for (size_t first = at / GRANULE, last = (at + bytes - 1) / GRANULE, i = first; i <= last; i++) {
        size_t lo = i * GRANULE < at ? at - i * GRANULE : 0;
        size_t hi = (i + 1) * GRANULE > at + bytes ? at + bytes - i * GRANULE : GRANULE;
        unsigned mask = (unsigned)(((1u << hi) - 1) & ~((1u << lo) - 1));
        word me = make_word(tag, lid, epoch_at(g, lid), how, mask, scope);
        track(g, lid, &shadow[CELL_WORDS * i], me, reads, writes, site, how, bytes, object, (int64_t)at, local);
    }
}

/* Is an access marked MOSAIC_CHECK_LOCAL_OWN_SLOT one of the work-item's own
 * slot of an object whose slots are apart in this group?  No other
 * work-item's access can meet it between two barriers (local_objects.c):
 * it needs no race tracking, only its bounds and `uninit`. */
static bool own_slot_apart(const cpu_check_group *g, uint64_t how)
{
    unsigned window = MOSAIC_CHECK_HOW_LOCAL_WINDOW(how);
    size_t args = MOSAIC_CHECK_ARG_WINDOWS * (size_t)g->launch->num_args, k;
    if (!(how & MOSAIC_CHECK_LOCAL_OWN_SLOT) || !window || window - 1 < args)
        return false;
    k = (window - 1 - args) / 2;
    return k < MOSAIC_CHECK_LOCAL_WINDOWS / 2 && g->local_object[k].hi && g->local_object[k].slots_apart;
}

/* Does an access of the group's __local memory need a race record: races
 * or scopes checked, and nothing about it says it cannot race? */
static bool local_needs_record(const cpu_check_group *g, uint64_t how)
{
    return (g->launch->kinds & (MOSAIC_CHECK_RACES | MOSAIC_CHECK_SCOPES)) &&
           !(how & (MOSAIC_CHECK_LOCAL_NO_WRITER | MOSAIC_CHECK_LOCAL_ATOMICS_ONLY)) && !own_slot_apart(g, how);
}

/* Work-item lid's access of [at, at + bytes) of the group's __local memory,
 * inside its object (from `from`, at `base`): the object met, `uninit`, races. */
static void local_access(cpu_check_group *g, unsigned lid, uint32_t from, const void *base, size_t at, uint64_t bytes,
                         uint64_t how, const mosaic_check_site *site)
{
    cpu_check_launch *l = g->launch;
    if (MOSAIC_CHECK_HOW_LOCAL_WINDOW(how))
        meet_local_object(g, MOSAIC_CHECK_HOW_LOCAL_WINDOW(how) - 1, from, base, site);
    if (l->kinds & MOSAIC_CHECK_UNINIT)
        uninit_access(g, lid, g->local_written, 0, at, bytes, how, site,
                      "a read of __local memory that no work-item of the work-group wrote", NULL);
    if (local_needs_record(g, how))
        track_range(g, lid, g->local_shadow, g->local_tag, at, bytes, how, site, "the work-group's __local memory",
                    true);
}

/* Are [p, p + bytes) of an access of __local memory from `from` (at
 * `base`) inside its object, and inside the group's __local memory? */
static bool local_inside(const cpu_check_group *g, uint32_t from, const char *base, const char *p, uint64_t bytes,
                         const mosaic_check_site *site)
{
    const char *lo = g->ctx->local_mem, *hi = lo + g->ctx->local_mem_size;
    if (from == MOSAIC_CHECK_FROM_OBJECT)
        lo = base, hi = base + (site ? site->object_size : 0);
    else if (from < g->launch->num_args)
        lo += g->launch->local_lo[from], hi = g->ctx->local_mem + g->launch->local_hi[from];
    return p >= lo && p + bytes <= hi && p >= g->ctx->local_mem &&
           p + bytes <= g->ctx->local_mem + g->ctx->local_mem_size;
}

void mosaic_cpu_check_access(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, const void *address,
                             const void *base, uint64_t bytes, uint64_t how, const mosaic_check_site *site)
{
    cpu_check_group *g = group_of(ctx);
    unsigned lid;
    if (!g || (lid = linear_id(g, lx, ly, lz)) >= g->items || !bytes)
        return;
    cpu_check_launch *l = g->launch;
    const char *p = address;
    unsigned space = MOSAIC_CHECK_HOW_SPACE(how);
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    const char *local_lo = ctx->local_mem, *local_hi = ctx->local_mem + ctx->local_mem_size;
    if (space == MOSAIC_CHECK_GENERIC)
        space = p >= local_lo && p < local_hi ? MOSAIC_CHECK_LOCAL : MOSAIC_CHECK_GLOBAL;
    char object[200];
    /* bounds */
    if (from == MOSAIC_CHECK_FROM_OBJECT) {
        const char *lo = base, *hi = lo + (site ? site->object_size : 0);
        if ((p < lo || p + bytes > hi) && (l->kinds & MOSAIC_CHECK_BOUNDS)) {
            if (site && site->object)
                snprintf(object, sizeof object, "%s variable %s (%llu bytes)",
                         space == MOSAIC_CHECK_LOCAL ? "__local" : "program-scope", site->object,
                         (unsigned long long)site->object_size);
            else
                snprintf(object, sizeof object, "a private array of %llu bytes",
                         (unsigned long long)(site ? site->object_size : 0));
            out_of_bounds(g, lid, object, lo, p, bytes, how, site);
            return;
        }
    } else if (from < l->num_args && space == MOSAIC_CHECK_LOCAL) {
        const char *lo = local_lo + l->local_lo[from], *hi = local_lo + l->local_hi[from];
        if ((p < lo || p + bytes > hi) && (l->kinds & MOSAIC_CHECK_BOUNDS)) {
            const char *name = l->info->args[from].name;
            snprintf(object, sizeof object, "argument %u (%s), __local memory of %zu bytes", from,
                     name && *name ? name : "unnamed", (size_t)(hi - lo));
            out_of_bounds(g, lid, object, lo, p, bytes, how, site);
            return;
        }
    }
    if (space == MOSAIC_CHECK_PRIVATE)
        return;
    if (space == MOSAIC_CHECK_LOCAL) {
        if (p >= local_lo && p + bytes <= local_hi) /* (else bounds said what it could) */
            local_access(g, lid, from, base, (size_t)(p - local_lo), bytes, how, site);
        return;
    }
    /* global and constant memory: the buffer the pointer comes from, or holds it */
    region *r = from < l->num_args ? l->arg_region[from] : NULL;
    if (r && (p < r->lo || p + bytes > r->hi)) {
        if (l->kinds & MOSAIC_CHECK_BOUNDS)
            out_of_bounds(g, lid, r->name, r->lo, p, bytes, how, site);
        return;
    }
    if (!r && !(r = region_at(l, p)))
        return; /* memory this launch's buffers do not hold (SVM, program-scope variables): not tracked */
    if (from < l->num_args)
        open_own_rows(g, from, how, site);
    if (p + bytes > r->hi)
        return;
    size_t at = (size_t)(p - r->lo);
    if (r->written && (l->kinds & MOSAIC_CHECK_UNINIT))
        uninit_access(g, lid, r->written, r->written_at, at, bytes, how, site,
                      "a read of a buffer created without host data, at bytes that nothing wrote (no host command, "
                      "no work-item)", r->name);
    if (!tracked(l, r, space, how, from < l->num_args, site))
        return;
    track_range(g, lid, r->shadow, r->gen << GROUP_BITS | g->tag, at, bytes, how, site, r->name, false);
}

/* A row's lanes, one after another (what the device does when it cannot
 * check the row at once). */
static void check_lanes(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t lanes,
                        const uint8_t *running, const char *first, int64_t stride, const void *const *addresses,
                        const void *base, uint64_t bytes, uint64_t how, const mosaic_check_site *site)
{
    for (uint64_t i = 0; i < lanes; i++)
        if (!running || running[i])
            mosaic_cpu_check_access(ctx, lx + i, ly, lz, addresses ? addresses[i] : first + (int64_t)i * stride, base,
                                    bytes, how, site);
}

/* A row of n lanes' accesses of __local memory (mosaic_cpu_check_row's
 * arguments).  Adjacent bytes, all inside their object: its bounds and
 * `uninit` at once, then each lane's race tracking where it needs it;
 * else a lane at a time, each inside its object at once or through
 * mosaic_cpu_check_access (which says what is out). */
static void local_row(cpu_check_group *g, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t n, const uint8_t *running,
                      const char *first, int64_t stride, const void *const *addresses, const void *base,
                      uint64_t bytes, uint64_t how, const mosaic_check_site *site)
{
    cpu_check_launch *l = g->launch;
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    unsigned lid = linear_id(g, lx, ly, lz);
    const char *local = g->ctx->local_mem;
    bool adjacent = !running && !addresses && (stride == (int64_t)bytes || stride == -(int64_t)bytes);
    const char *last = adjacent ? first + (int64_t)(n - 1) * stride : NULL;
    const char *lo = stride < 0 ? last : first, *hi = (stride < 0 ? first : last) + bytes;
    if (adjacent && local_inside(g, from, base, lo, (uint64_t)(hi - lo), site)) {
        size_t at = (size_t)(lo - local);
        if (MOSAIC_CHECK_HOW_LOCAL_WINDOW(how))
            meet_local_object(g, MOSAIC_CHECK_HOW_LOCAL_WINDOW(how) - 1, from, base, site);
        bool whole = !(l->kinds & MOSAIC_CHECK_UNINIT) || !(how & MOSAIC_CHECK_READ) ||
                     mosaic_check_written_first_unwritten(g->local_written, at, (size_t)(hi - lo)) == (size_t)-1;
        if (whole) { /* (else each lane below says which byte it read unwritten) */
            if ((l->kinds & MOSAIC_CHECK_UNINIT) && (how & MOSAIC_CHECK_WRITE))
                mosaic_check_written_set(g->local_written, at, (size_t)(hi - lo));
            if (!local_needs_record(g, how))
                return;
            for (uint64_t i = 0; i < n; i++)
                track_range(g, lid + (unsigned)i, g->local_shadow, g->local_tag,
                            (size_t)(first + (int64_t)i * stride - local), bytes, how, site,
                            "the work-group's __local memory", true);
            return;
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        const char *p = addresses ? addresses[i] : first + (int64_t)i * stride;
        if (running && !running[i])
            continue;
        if (local_inside(g, from, base, p, bytes, site))
            local_access(g, lid + (unsigned)i, from, base, (size_t)(p - local), bytes, how, site);
        else
            mosaic_cpu_check_access(g->ctx, lx + i, ly, lz, p, base, bytes, how, site);
    }
}

void mosaic_cpu_check_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t lanes,
                          const uint8_t *running, const char *first, int64_t stride, const void *const *addresses,
                          const void *base, uint64_t bytes, uint64_t how, const mosaic_check_site *site)
{
    cpu_check_group *g = lanes && bytes ? group_of(ctx) : NULL;
    if (!g)
        return;
    cpu_check_launch *l = g->launch;
    uint32_t from = MOSAIC_CHECK_HOW_FROM(how);
    unsigned space = MOSAIC_CHECK_HOW_SPACE(how);
    region *r = from < l->num_args && (space == MOSAIC_CHECK_GLOBAL || space == MOSAIC_CHECK_CONSTANT)
                    ? l->arg_region[from] : NULL;
    /* A buffer argument's row, when all of it is inside the buffer: its
     * bounds and `uninit` at once, then each lane's race tracking, where
     * it is tracked.  Anything else a lane at a time. */
    if (r)
        open_own_rows(g, from, how, site);
    uint64_t n = lx + lanes <= g->size[0] ? lanes : g->size[0] > lx ? g->size[0] - lx : 0;
    if (space == MOSAIC_CHECK_LOCAL && n && linear_id(g, lx, ly, lz) < g->items) {
        local_row(g, lx, ly, lz, n, running, first, stride, addresses, base, bytes, how, site);
        return;
    }
    if (!r || !n || linear_id(g, lx, ly, lz) >= g->items) {
        check_lanes(ctx, lx, ly, lz, lanes, running, first, stride, addresses, base, bytes, how, site);
        return;
    }
    /* the running lanes, and the lowest address and the highest of theirs
     * (one address and a stride: the first running lane's and the last's) */
    const char *lo = NULL, *hi = NULL;
    uint64_t on = 0, first_on = 0, last_on = 0;
    if (!running && !addresses) {
        on = n;
        last_on = n - 1;
    } else {
        for (uint64_t i = 0; i < n; i++) {
            if (running && !running[i])
                continue;
            if (!on++)
                first_on = i;
            last_on = i;
            if (addresses && (!lo || (const char *)addresses[i] < lo))
                lo = addresses[i];
            if (addresses && (!hi || (const char *)addresses[i] > hi))
                hi = addresses[i];
        }
    }
    if (!on)
        return;
    if (!addresses) {
        const char *a = first + (int64_t)first_on * stride, *b = first + (int64_t)last_on * stride;
        lo = a < b ? a : b;
        hi = a < b ? b : a;
    }
    bool all = on == n;
    if (lo < r->lo || hi + bytes > r->hi || hi + bytes < hi) { /* something is out: each lane says which */
        check_lanes(ctx, lx, ly, lz, lanes, running, first, stride, addresses, base, bytes, how, site);
        return;
    }
    /* the bytes read, all written? the bytes written, counted: a row's
     * adjacent accesses, or its one place, at once */
    if (r->written && (l->kinds & MOSAIC_CHECK_UNINIT)) {
        if (addresses || !(stride == 0 || (all && (stride == (int64_t)bytes || stride == -(int64_t)bytes)))) {
            check_lanes(ctx, lx, ly, lz, lanes, running, first, stride, addresses, base, bytes, how, site);
            return;
        }
        size_t at = r->written_at + (size_t)(lo - r->lo), span = (size_t)(hi + bytes - lo);
        if ((how & MOSAIC_CHECK_READ) && mosaic_check_written_first_unwritten(r->written, at, span) != (size_t)-1) {
            check_lanes(ctx, lx, ly, lz, lanes, running, first, stride, addresses, base, bytes, how, site);
            return;
        }
        if (how & MOSAIC_CHECK_WRITE)
            mosaic_check_written_set(r->written, at, span);
    }
    if (!tracked(l, r, space, how, true, site))
        return;
    /* races: each running lane's bytes in the buffer's shadow (what
     * mosaic_cpu_check_access does after finding the buffer) */
    unsigned lid = linear_id(g, lx, ly, lz);
    uint32_t tag = r->gen << GROUP_BITS | g->tag;
    for (uint64_t i = 0; i < n; i++)
        if (!running || running[i]) {
            const char *p = addresses ? addresses[i] : first + (int64_t)i * stride;
            track_range(g, lid + (unsigned)i, r->shadow, tag, (size_t)(p - r->lo), bytes, how, site, r->name, false);
        }
}
