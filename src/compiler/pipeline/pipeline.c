/*
 * The pass registry (made from passes.def), the CPU device's pipeline, and
 * the one runner (pipeline.h).  The passes' run functions are in
 * finalize.c.
 */
#define _GNU_SOURCE
#include "base/settings.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/ir/log.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler/vectorize/vecmath.h"
#include "compiler/workgroup/workgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>

#include "base/assert.h"

/* the run functions (finalize.c) */
#define MC_PASS(ID, NAME, SCOPE, KIND, CHANGES, NEEDS, KEEPS, SETTING, PURPOSE)                          \
    cl_int mc_run_##ID(mc_pass_state *s, size_t k);
#include "compiler/pipeline/passes.def"

const mc_pass mc_passes[MC_NUM_PASSES] = {
#define MC_PASS(ID, NAME, SCOPE, KIND, CHANGES, NEEDS, KEEPS, SETTING, PURPOSE)                          \
    {MC_PASS_##ID, NAME, PURPOSE, MC_SCOPE_##SCOPE, MC_KIND_##KIND, CHANGES, NEEDS, KEEPS, SETTING, mc_run_##ID},
#include "compiler/pipeline/passes.def"
};

const mc_statistic_info mc_statistics[MC_NUM_STATISTICS] = {
#define MC_STATISTIC(ID, PASS, NAME, COUNTS) {MC_PASS_##PASS, NAME, COUNTS},
#include "compiler/ir/statistics.def"
};

static const mc_pass *const cpu_passes[] = {
#define MC_PASS(ID, NAME, SCOPE, KIND, CHANGES, NEEDS, KEEPS, SETTING, PURPOSE) &mc_passes[MC_PASS_##ID],
#include "compiler/pipeline/passes.def"
};

const mc_pipeline mc_cpu_pipeline = {"cpu", cpu_passes, sizeof cpu_passes / sizeof cpu_passes[0]};

const mc_pass *mc_pass_named(const char *name)
{
    for (size_t i = 0; name && i < MC_NUM_PASSES; i++)
        if (!strcmp(mc_passes[i].name, name))
            return &mc_passes[i];
    return NULL;
}

cl_int mc_pass_state_init(mc_pass_state *s, const mosaic_compiler_target *target, const mc_options *opts,
                          const mc_one_size *one_size, LLVMContextRef ctx, LLVMModuleRef m, mosaic_strbuf *log)
{
    MOSAIC_ASSERT(opts && ctx && m && log);
    memset(s, 0, sizeof *s);
    s->target = target;
    s->opts = opts;
    s->one_size = one_size;
    s->ctx = ctx;
    s->m = m;
    s->log = log;
#if MOSAIC_ASSERTIONS
    s->verify_each = true;
#endif
    return mc_target_machine(target, opts->opt_disable, &s->tm, log);
}

void mc_object_clear(mc_object *o)
{
    free(o->code);
    for (size_t i = 0; i < o->num_kernels; i++)
        mc_kernel_info_clear(&o->kernels[i]);
    free(o->kernels);
    free(o->has_wg);
    free(o->fused_groups);
    memset(o, 0, sizeof *o);
}

void mc_pass_state_free(mc_pass_state *s)
{
    for (size_t k = 0; s->kb && k < s->nk; k++)
        mc_kernel_build_free(&s->kb[k]);
    free(s->kernels);
    free(s->kb); /* (and s->fused, whose arrays are the kernels') */
    mc_object_clear(&s->obj);
    if (s->td)
        LLVMDisposeTargetData(s->td);
    if (s->m)
        LLVMDisposeModule(s->m);
    if (s->tm)
        LLVMDisposeTargetMachine(s->tm);
    if (s->ctx)
        LLVMContextDispose(s->ctx);
    memset(s, 0, sizeof *s);
}

/* The position of the pass named `name` in p, or p->num_passes (and a
 * message in the log) when p has none. */
static size_t position(const mc_pipeline *p, mc_pass_state *s, const char *name)
{
    for (size_t i = 0; i < p->num_passes; i++)
        if (!strcmp(p->passes[i]->name, name))
            return i;
    mosaic_strbuf_printf(s->log, "error: the %s pipeline has no pass '%s'\n", p->device, name);
    return p->num_passes;
}

/* Statistic i's count so far: the module's and every kernel build's. */
static unsigned statistic(const mc_pass_state *s, size_t i)
{
    unsigned n = s->stats[i];
    for (size_t k = 0; s->kb && k < 2 * s->nk; k++)
        n += s->kb[k].stats[i];
    return n;
}

/* In builds with assertions: the module must be valid after a pass that
 * changes code; else the pass is named and the process ends. */
static void verify_after(const mc_pass_state *s, const mc_pass *pass)
{
    char *msg = NULL;
    if (LLVMVerifyModule(s->m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "mosaic: invalid IR after the pass %s:\n%s\n", pass->name, msg ? msg : "");
        LLVMDisposeMessage(msg);
        MOSAIC_ASSERT(!"the IR is valid after each pass");
        abort(); /* (without assertions, verify_each is set by hand only) */
    }
    LLVMDisposeMessage(msg);
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The functions made of kernel k (and of its K.fused) into fns[] (room for
 * MAX_KERNEL_FUNCTIONS); how many. */
#define MAX_KERNEL_FUNCTIONS 18
static size_t kernel_functions(const mc_pass_state *s, size_t k, LLVMValueRef *fns)
{
    size_t n = 0;
    const mc_kernel_build *builds[2] = {&s->kb[k], &s->fused[k]};
    for (size_t b = 0; b < 2; b++) {
        const mc_kernel_build *kb = builds[b];
        LLVMValueRef made[] = {kb->body, kb->wi, kb->wg, kb->vec, kb->tail, kb->rows_vec, kb->rows_tail, kb->rows_agree, kb->row};
        for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
            if (made[i])
                fns[n++] = made[i];
    }
    return n;
}

/* After a pass that changed code: what it does not keep forgotten, of
 * every function, or after a kernel pass of every function but the other
 * kernels' (it works on kernel k's; without memory for the list, of all). */
static void forget_after(mc_pass_state *s, const mc_pass *pass, size_t k)
{
    LLVMValueRef *spare = NULL;
    size_t n = 0;
    if (pass->scope == MC_SCOPE_KERNEL && s->kb && s->nk > 1)
        spare = malloc(s->nk * MAX_KERNEL_FUNCTIONS * sizeof *spare);
    for (size_t j = 0; spare && j < s->nk; j++)
        if (j != k)
            n += kernel_functions(s, j, spare + n);
    mc_analyses_keep(s->an, pass->keeps, spare, n);
    free(spare);
}

/* In builds with assertions: a pass asks only for what passes.def says it
 * needs, and every graph still cached after it describes its function (a
 * pass that says it keeps the graph must leave its blocks and branches
 * alone); else the pass is named and the process ends. */
static void check_analyses(const mc_pass_state *s, const mc_pass *pass, unsigned asked)
{
    const char *wrong = NULL;
    LLVMValueRef stale = mc_analyses_stale(s->an);
    if ((asked & MC_ANALYSIS_CFG) && !(pass->needs & MC_ANALYSIS_CFG))
        wrong = "it asked for a control-flow graph, which its NEEDS do not list";
    else if ((asked & MC_ANALYSIS_UNIFORMITY) && !(pass->needs & MC_ANALYSIS_UNIFORMITY))
        wrong = "it asked for uniformity, which its NEEDS do not list";
    else if (stale)
        wrong = "a control-flow graph still cached no longer matches its function (the pass's KEEPS keep it, or "
                "a step changed the blocks without invalidating it)";
    if (!wrong)
        return;
    fprintf(stderr, "mosaic: after the pass %s (passes.def): %s%s%s\n", pass->name, wrong, stale ? ": " : "",
            stale ? LLVMGetValueName(stale) : "");
    MOSAIC_ASSERT(!"a pass uses and keeps the analyses passes.def says");
    abort(); /* (without assertions, verify_each is set by hand only) */
}

/* One pass on one kernel (or the module), timed; under -cl-opt-disable an
 * optimisation is not run at all. */
static cl_int run_one(mc_pass_state *s, const mc_pass *pass, size_t k)
{
    mc_pass_record *rec = &s->ran[pass->id];
    if (pass->kind == MC_KIND_OPTIMISATION && s->opts->opt_disable) {
        rec->ran = rec->disabled = true;
        return CL_SUCCESS;
    }
    bool first = !rec->ran;
    uint64_t t0 = now_ns();
    s->skipped = NULL;
    cl_int r = pass->run(s, k);
    rec->ns += now_ns() - t0;
    rec->ran = true;
    /* (a kernel pass had nothing to do when it had nothing to do on any kernel) */
    rec->skipped = first || rec->skipped ? s->skipped : NULL;
    unsigned asked = mc_analyses_asked(s->an);
    bool changed = r == CL_SUCCESS && pass->changes_code;
    if (changed && !s->skipped)
        forget_after(s, pass, k);
    if (changed && s->verify_each)
        verify_after(s, pass);
    if (r == CL_SUCCESS && s->verify_each)
        check_analyses(s, pass, asked);
    return r;
}

/* What ran, on stderr (MOSAIC_DEBUG=passes). */
static void print_run(const mc_pipeline *p, const mc_pass_state *s, size_t first, size_t last)
{
    uint64_t total = 0;
    for (size_t i = first; i < last; i++)
        total += s->ran[p->passes[i]->id].ns;
    char names[256] = "";
    size_t used = 0;
    for (size_t k = 0; k < s->obj.num_kernels && used < sizeof names; k++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "", s->obj.kernels[k].name);
    fprintf(stderr, "mosaic: passes of the %s pipeline for %zu kernel%s (%s)%s%s, %.3f ms:\n", p->device, s->nk,
            s->nk == 1 ? "" : "s", names, s->one_size ? ", built for one local size of " : "",
            s->one_size ? s->one_size->kernel : "", total / 1e6);
    for (size_t i = first; i < last; i++) {
        const mc_pass *pass = p->passes[i];
        const mc_pass_record *rec = &s->ran[pass->id];
        if (!rec->ran)
            continue;
        char line[512];
        int len = snprintf(line, sizeof line, "mosaic: %9.3f ms  %-24s", rec->ns / 1e6, pass->name);
        for (size_t t = 0; t < MC_NUM_STATISTICS && len < (int)sizeof line; t++)
            if (mc_statistics[t].pass == pass->id)
                len += snprintf(line + len, sizeof line - (size_t)len, " %s=%u", mc_statistics[t].name,
                                statistic(s, t));
        if (rec->disabled && len < (int)sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " (skipped: an optimisation, -cl-opt-disable)");
        else if (rec->skipped && len < (int)sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " (nothing to do: %s)", rec->skipped);
        len = len < (int)sizeof line ? len : (int)sizeof line - 1;
        while (len > 0 && line[len - 1] == ' ') /* (the name's padding, when nothing follows) */
            line[--len] = 0;
        fprintf(stderr, "%s\n", line);
    }
}

cl_int mc_pipeline_run_from(const mc_pipeline *p, mc_pass_state *s, const char *start_at, const char *stop_after)
{
    size_t first = start_at ? position(p, s, start_at) : 0;
    size_t last = stop_after ? position(p, s, stop_after) : p->num_passes - 1;
    if (first >= p->num_passes || last >= p->num_passes)
        return CL_INVALID_VALUE;
    MOSAIC_ASSERT(!s->an); /* one cache a run, the runner's */
    if (!(s->an = mc_analyses_new()))
        return mc_out_of_memory(s->log);
    cl_int r = CL_SUCCESS;
    for (size_t i = first; i <= last && r == CL_SUCCESS;) {
        if (p->passes[i]->scope == MC_SCOPE_MODULE) {
            r = run_one(s, p->passes[i++], 0);
            continue;
        }
        /* a run of kernel passes: all of them on kernel 0, then on kernel 1... */
        size_t end = i;
        while (end <= last && p->passes[end]->scope == MC_SCOPE_KERNEL)
            end++;
        for (size_t k = 0; k < s->nk && r == CL_SUCCESS; k++)
            for (size_t j = i; j < end && r == CL_SUCCESS; j++)
                r = run_one(s, p->passes[j], k);
        i = end;
    }
    mc_analyses_free(s->an);
    s->an = NULL;
    if (mosaic_debugging(MOSAIC_DEBUG_PASSES))
        print_run(p, s, first, last + 1);
    return r;
}

cl_int mc_pipeline_run(const mc_pipeline *p, mc_pass_state *s, const char *stop_after)
{
    return mc_pipeline_run_from(p, s, NULL, stop_after);
}

void mc_pipeline_key(const mc_pipeline *p, mosaic_strbuf *key)
{
    mosaic_strbuf_printf(key, "pipeline %s:", p->device);
    for (size_t i = 0; i < p->num_passes; i++)
        mosaic_strbuf_printf(key, " %s", p->passes[i]->name);
    const struct mosaic_settings *settings = mosaic_settings();
    (void)settings;
#define MOSAIC_CHANGES_CODE(field) mosaic_strbuf_printf(key, "\n" #field " %lld", (long long)settings->field);
#define MOSAIC_FLAG(...)
#define MOSAIC_NUMBER(...)
#define MOSAIC_PATH(...)
#define MOSAIC_TRISTATE(...)
#define MOSAIC_CATEGORIES(...)
#define MOSAIC_INPUT(...)
#define MOSAIC_DERIVED(...)
#include "base/settings.def"
    /* what the host gives too: libmvec's vector math is on only where glibc has it */
    mosaic_strbuf_printf(key, "\nlibmvec %d\n", mc_libmvec_available());
}
