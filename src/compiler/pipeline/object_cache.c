/*
 * Cache entries of finalized code (cache.c keeps them): the object code and
 * the kernel table, and the key they are kept under; the GPU's PTX and
 * kernel table (mosaic_finalize_ptx) in the same format, under a key of
 * their own.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/gpu/ptx.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler/workgroup/coarsening.h"

#define ENTRY_MAGIC "MOSAICO9"

static void put_u64(mosaic_strbuf *s, uint64_t v) { mosaic_strbuf_append(s, (const char *)&v, sizeof v); }
static void put_str(mosaic_strbuf *s, const char *t)
{
    size_t n = t ? strlen(t) : 0;
    put_u64(s, n);
    mosaic_strbuf_append(s, t ? t : "", n);
}

/* Appends o as a cache entry to s (s->oom when memory ran out). */
void mc_object_serialize(const mc_object *o, mosaic_strbuf *s)
{
    mosaic_strbuf_append(s, ENTRY_MAGIC, 8);
    put_u64(s, o->code_size);
    mosaic_strbuf_append(s, o->code, o->code_size);
    put_u64(s, o->global_variables_size);
    put_u64(s, o->num_kernels);
    put_u64(s, o->num_block_kernels);
    for (size_t k = 0; k < o->num_kernels; k++) {
        const mosaic_kernel_info *i = &o->kernels[k];
        put_str(s, i->name);
        put_str(s, i->attributes);
        put_u64(s, i->num_args);
        for (cl_uint a = 0; a < i->num_args; a++) {
            const mosaic_kernel_arg *g = &i->args[a];
            put_u64(s, (uint64_t)g->kind);
            put_u64(s, g->size);
            put_u64(s, g->alignment);
            put_u64(s, g->address_qualifier);
            put_u64(s, g->access_qualifier);
            put_u64(s, g->type_qualifier);
            put_str(s, g->type_name);
            put_str(s, g->name);
        }
        for (int d = 0; d < 3; d++)
            put_u64(s, i->reqd_work_group_size[d]);
        for (int d = 0; d < 3; d++)
            put_u64(s, i->work_group_size_hint[d]);
        put_u64(s, i->static_local_mem_size);
        put_u64(s, i->private_mem_size);
        put_u64(s, i->wg_stack_size);
        put_u64(s, i->item_state_size);
        put_u64(s, (uint64_t)i->uses_barriers);
        put_u64(s, i->vectorised_loops);
        put_u64(s, i->widened_lanes);
        put_u64(s, i->widened_rows);
        put_u64(s, (uint64_t)i->keeps_item_state);
        put_u64(s, (uint64_t)i->regroupable);
        put_u64(s, i->counter_args);
        put_u64(s, i->counter_args_wide);
        put_u64(s, o->has_wg ? o->has_wg[k] : 0); /* (none: the GPU's) */
        put_u64(s, o->fused_groups ? o->fused_groups[k] : 0);
    }
}

typedef struct reader {
    const char *p, *end;
    bool bad;
} reader;

static uint64_t get_u64(reader *r)
{
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < sizeof v) {
        r->bad = true;
        return 0;
    }
    memcpy(&v, r->p, sizeof v);
    r->p += sizeof v;
    return v;
}

static char *get_str(reader *r)
{
    uint64_t n = get_u64(r);
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    char *t = strndup(r->p, (size_t)n);
    r->p += n;
    if (!t)
        r->bad = true;
    return t;
}

/* Part of a cache lookup: is data a whole cache entry?  Then o holds it.
 * (A damaged entry, or one memory is lacking for, is a miss.) */
bool mc_object_deserialize(const void *data, size_t size, mc_object *o)
{
    reader r = {data, (const char *)data + size, false};
    memset(o, 0, sizeof *o);
    if (size < 8 || memcmp(data, ENTRY_MAGIC, 8))
        return false;
    r.p += 8;
    uint64_t n = get_u64(&r);
    if (r.bad || n > (uint64_t)(r.end - r.p) || !n)
        return false;
    o->code = malloc((size_t)n);
    if (!o->code)
        return false;
    memcpy(o->code, r.p, (size_t)n);
    o->code_size = (size_t)n;
    r.p += n;
    o->global_variables_size = (size_t)get_u64(&r);
    uint64_t nk = get_u64(&r);
    uint64_t nb = get_u64(&r);
    if (r.bad || nk > 100000 || nb > nk) {
        mc_object_clear(o);
        return false;
    }
    o->num_block_kernels = (size_t)nb;
    o->kernels = calloc(nk ? (size_t)nk : 1, sizeof *o->kernels);
    o->has_wg = calloc(nk ? (size_t)nk : 1, 1);
    o->fused_groups = calloc(nk ? (size_t)nk : 1, 1);
    if (!o->kernels || !o->has_wg || !o->fused_groups) {
        mc_object_clear(o);
        return false;
    }
    for (uint64_t k = 0; k < nk && !r.bad; k++) {
        mosaic_kernel_info *i = &o->kernels[k];
        o->num_kernels = (size_t)k + 1;
        i->name = get_str(&r);
        i->attributes = get_str(&r);
        uint64_t na = get_u64(&r);
        if (r.bad || na > 4096) {
            r.bad = true;
            break;
        }
        i->args = na ? calloc((size_t)na, sizeof *i->args) : NULL;
        if (na && !i->args) {
            r.bad = true;
            break;
        }
        i->num_args = (cl_uint)na;
        for (uint64_t a = 0; a < na && !r.bad; a++) {
            mosaic_kernel_arg *g = &i->args[a];
            g->kind = (mosaic_arg_kind)get_u64(&r);
            g->size = (size_t)get_u64(&r);
            g->alignment = (size_t)get_u64(&r);
            g->address_qualifier = (cl_kernel_arg_address_qualifier)get_u64(&r);
            g->access_qualifier = (cl_kernel_arg_access_qualifier)get_u64(&r);
            g->type_qualifier = (cl_kernel_arg_type_qualifier)get_u64(&r);
            g->type_name = get_str(&r);
            g->name = get_str(&r);
        }
        for (int d = 0; d < 3; d++)
            i->reqd_work_group_size[d] = (size_t)get_u64(&r);
        for (int d = 0; d < 3; d++)
            i->work_group_size_hint[d] = (size_t)get_u64(&r);
        i->static_local_mem_size = (size_t)get_u64(&r);
        i->private_mem_size = (size_t)get_u64(&r);
        i->wg_stack_size = (size_t)get_u64(&r);
        i->item_state_size = (size_t)get_u64(&r);
        i->uses_barriers = get_u64(&r) != 0;
        i->vectorised_loops = (unsigned)get_u64(&r);
        i->widened_lanes = (unsigned)get_u64(&r);
        i->widened_rows = (unsigned)get_u64(&r);
        i->keeps_item_state = get_u64(&r) != 0;
        i->regroupable = get_u64(&r) != 0;
        i->counter_args = get_u64(&r);
        i->counter_args_wide = get_u64(&r) & i->counter_args;
        o->has_wg[k] = get_u64(&r) != 0;
        uint64_t fused = get_u64(&r);
        o->fused_groups[k] = fused <= MC_FUSED_GROUPS ? (unsigned char)fused : 0;
    }
    if (r.bad || r.p != r.end) {
        mc_object_clear(o);
        return false;
    }
    return true;
}

/* The build options as the passes read them (mc_pass_state.opts): only
 * -cl-opt-disable.  Macros, include directories, the math options and -g
 * did their work in clang and are in the bitcode, so the key leaves them
 * out: a program reloaded from its binary finds the code its first build
 * made whatever build options the application gives again (its compile
 * options, or none; a password cracker compiles with -I and -D options,
 * links with none, and builds the reloaded binary with the compile
 * options).  A pass that starts reading another field adds it here. */
static void build_options_key(const mc_options *opts, mosaic_strbuf *text)
{
    mosaic_strbuf_printf(text, "opt-disable %d\n", opts->opt_disable);
}

void mc_object_cache_key(mc_cache_key *key, const mosaic_compiler_target *target, const void *bc, size_t bc_size,
                         const mc_options *opts, const mc_one_size *one_size)
{
    MOSAIC_ASSERT(opts);
    const char *cpu = target && target->cpu_name ? target->cpu_name : mc_host_cpu();
    const char *features = target && target->cpu_features ? target->cpu_features
                           : target && target->cpu_name ? "" : mc_host_features();
    /* the options, the passes and the settings that change the code (pipeline.c) */
    mosaic_strbuf text = {0};
    build_options_key(opts, &text);
    mc_pipeline_key(&mc_cpu_pipeline, &text);
    if (one_size)
        mosaic_strbuf_printf(&text, "kernel %s for groups of %zux%zux%zu", one_size->kernel, one_size->size[0],
                             one_size->size[1], one_size->size[2]);
    mc_cache_key_compute(key, bc, bc_size, text.data ? text.data : "", cpu, features, target);
    mosaic_strbuf_free(&text);
}

/* ---- the GPU's: PTX and the kernel table (mosaic_finalize_ptx) ---------------------------- */

/* The entry is an object's (mc_object_serialize): the PTX with its NUL as
 * the code, the table, no block kernels, no K.wg or K.fused. */
void mc_ptx_serialize(const mc_ptx_program *p, mosaic_strbuf *s)
{
    mc_object o = {.code = p->ptx, .code_size = p->ptx_size + 1, .num_kernels = p->num_kernels,
                   .kernels = p->kernels, .global_variables_size = p->global_variables_size};
    mc_object_serialize(&o, s);
}

bool mc_ptx_deserialize(const void *data, size_t size, mc_ptx_program *p)
{
    mc_object o;
    memset(p, 0, sizeof *p);
    if (!mc_object_deserialize(data, size, &o))
        return false;
    /* text of its size, ending in its one NUL; nothing the GPU's finalize never makes */
    const char *text = o.code;
    bool ok = o.code_size >= 1 && text[o.code_size - 1] == 0 && strlen(text) == o.code_size - 1 &&
              !o.num_block_kernels;
    for (size_t k = 0; k < o.num_kernels && ok; k++)
        ok = !o.has_wg[k] && !o.fused_groups[k];
    if (!ok) {
        mc_object_clear(&o);
        return false;
    }
    p->ptx = o.code;
    p->ptx_size = o.code_size - 1;
    p->kernels = o.kernels;
    p->num_kernels = o.num_kernels;
    p->global_variables_size = o.global_variables_size;
    free(o.has_wg);
    free(o.fused_groups);
    return true;
}

void mc_ptx_cache_key(mc_cache_key *key, const void *bc, size_t bc_size, const char *sm, const char *inputs)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic PTX cache 1");
    uint64_t n = bc_size;
    llvm_blake3_hasher_update(&h, &n, sizeof n);
    llvm_blake3_hasher_update(&h, bc, bc_size);
    llvm_blake3_hasher_update(&h, sm, strlen(sm) + 1);
    llvm_blake3_hasher_update(&h, inputs, strlen(inputs) + 1);
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}
