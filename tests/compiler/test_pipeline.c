/* The declared pipeline (src/compiler/pipeline.c, passes.def): the registry
 * is consistent, a prefix of the CPU pipeline runs and stops where asked,
 * the runner skips the optimisations under -cl-opt-disable and says so,
 * it forgets after each pass the analyses the pass does not keep and (with
 * assertions) ends the process when a pass asks for or keeps analyses
 * passes.def does not say, the cache key of finalized code changes with
 * every setting settings.def marks as changing code (and not with one it
 * does not), and MOSAIC_DEBUG's categories read as docs/settings.md says.
 * usage: test_pipeline [case|--list]   (test_pipeline.list; none: all) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/IRReader.h>

#define TEST_LIST "test_pipeline.list"
#include "base/settings.h"
#include "compiler/frontend/binary.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler_host.h"

TEST(registry)
{
    const mc_pipeline *p = &mc_cpu_pipeline;
    size_t optimisations = 0;
    CHECK(p->num_passes == MC_NUM_PASSES, "the CPU runs every pass of passes.def (%zu of %d)", p->num_passes,
          MC_NUM_PASSES);
    for (size_t i = 0; i < p->num_passes; i++) {
        const mc_pass *pass = p->passes[i];
        CHECK(pass->run && pass->name && pass->purpose, "pass %zu is whole", i);
        CHECK(mc_pass_named(pass->name) == pass, "%s is found by its name", pass->name);
        CHECK(pass->id == (enum mc_pass_id)(pass - mc_passes), "%s's id is its index", pass->name);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(p->passes[j]->name, pass->name), "%s named once", pass->name);
        CHECK(pass->changes_code || (pass->keeps & MC_ANALYSES_ALL) == MC_ANALYSES_ALL,
              "%s changes nothing, so keeps every analysis", pass->name);
        CHECK(pass->kind == MC_KIND_REQUIRED || pass->kind == MC_KIND_OPTIMISATION, "%s has a kind", pass->name);
        optimisations += pass->kind == MC_KIND_OPTIMISATION;
    }
    /* the code is right without these, so -cl-opt-disable skips them; the others it needs */
    static const char *const optional[] = {"clean-up", "pragma-unroll", "private-arrays", "scalarize-short-vectors",
                                           "counter-args", "guarded-index", "uniform-loop-exits", "unswitch-uniform", "check-row-versioning",
                                           "bounds-check-versioning", "vector-math",
                                           "vector-math-calls", "join-and-share-reads", "interleaved-arithmetic",
                                           "unroll-and-jam", "boscc", "nontemporal-stores", "one-lane-masked-ops",
                                           "active-slot-folds"};
    size_t n = sizeof optional / sizeof optional[0];
    CHECK(optimisations == n, "%zu optimisations (%zu)", n, optimisations);
    for (size_t i = 0; i < n; i++)
        CHECK(mc_pass_named(optional[i]) && mc_pass_named(optional[i])->kind == MC_KIND_OPTIMISATION,
              "%s is an optimisation", optional[i]);
    static const char *const required[] = {"inline", "work-group-function", "optimise", "safe-division",
                                           "emit-object"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        CHECK(mc_pass_named(required[i]) && mc_pass_named(required[i])->kind == MC_KIND_REQUIRED,
              "%s is required", required[i]);
    for (size_t t = 0; t < MC_NUM_STATISTICS; t++)
        CHECK(mc_statistics[t].pass < MC_NUM_PASSES && mc_statistics[t].name && mc_statistics[t].counts,
              "statistic %zu belongs to a pass", t);
    CHECK(!mc_pass_named("no-such-pass"), "an unknown name is no pass");
}

/* The linked bitcode of source, as the front end makes it. */
static bool front_end(const char *source, mosaic_bitcode *linked)
{
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, source, "", 0, NULL, &obj, &log);
    free(log);
    log = NULL;
    if (r == CL_SUCCESS)
        r = mosaic_link_bitcode(&test_target, 1, &obj, "", 0, linked, &log);
    free(log);
    mosaic_bitcode_free(&obj);
    CHECK(r == CL_SUCCESS, "the front end builds the program (%d)", r);
    return r == CL_SUCCESS;
}

/* A state over the module of linked, as mosaic-opt makes one. */
static bool state_of(const mosaic_bitcode *linked, const mc_options *opts, mc_pass_state *s, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    LLVMModuleRef m = NULL;
    if (!ctx || mc_blob_load(ctx, linked, &m, log) != CL_SUCCESS) {
        if (ctx)
            LLVMContextDispose(ctx);
        CHECK(false, "the module loads: %s", log->data ? log->data : "");
        return false;
    }
    cl_int r = mc_pass_state_init(s, &test_target, opts, NULL, ctx, m, log);
    CHECK(r == CL_SUCCESS, "a pass state (%d)", r);
    return r == CL_SUCCESS;
}

static LLVMValueRef function_named(LLVMModuleRef m, const char *name) { return LLVMGetNamedFunction(m, name); }

TEST(stop_after)
{
    mosaic_strbuf init_log = {0};
    CHECK(mc_llvm_init(&init_log) == CL_SUCCESS, "LLVM is set up");
    mosaic_strbuf_free(&init_log);
    const char *src = "kernel void scale(global float *x, float a) { x[get_global_id(0)] *= a; }\n"
                      "kernel void sum(global float *x, local float *t) {\n"
                      "  t[get_local_id(0)] = x[get_global_id(0)];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  if (get_local_id(0) == 0) x[get_group_id(0)] = t[0] + t[1];\n"
                      "}\n";
    mosaic_bitcode linked = {0};
    if (!front_end(src, &linked))
        return;
    mosaic_strbuf log = {0};
    mc_options opts;
    CHECK(mc_parse_options("", MC_OPTIONS_BUILD, &opts, &log) == CL_SUCCESS, "no options");

    /* up to K.wi: no K.wg yet */
    mc_pass_state s;
    if (state_of(&linked, &opts, &s, &log)) {
        cl_int r = mc_pipeline_run(&mc_cpu_pipeline, &s, "work-item-functions");
        CHECK(r == CL_SUCCESS, "the prefix runs (%d): %s", r, log.data ? log.data : "");
        CHECK(s.nk == 2, "two kernels (%zu)", s.nk);
        CHECK(function_named(s.m, "scale.wi") && function_named(s.m, "sum.wi"), "K.wi of each");
        CHECK(!function_named(s.m, "scale.wg") && !function_named(s.m, "sum.wg"), "no K.wg yet");
        CHECK(s.ran[MC_PASS_work_item_functions].ran && !s.ran[MC_PASS_may_spin].ran, "it stopped there");
        /* ... and on from the next pass, through the work-group functions */
        r = mc_pipeline_run_from(&mc_cpu_pipeline, &s, "may-spin", "sub-group-first");
        CHECK(r == CL_SUCCESS, "the rest runs (%d): %s", r, log.data ? log.data : "");
        CHECK(function_named(s.m, "scale.wg") && function_named(s.m, "sum.wg"), "K.wg of each");
        CHECK(s.obj.kernels[1].uses_barriers && s.obj.has_wg[1], "sum in regions between its barriers");
        CHECK(!s.ran[MC_PASS_optimise].ran, "not optimised");
        mc_pass_state_free(&s);
    }

    /* the whole pipeline: object code; an unknown pass is an error */
    if (state_of(&linked, &opts, &s, &log)) {
        CHECK(mc_pipeline_run(&mc_cpu_pipeline, &s, "no-such-pass") == CL_INVALID_VALUE, "an unknown pass");
        CHECK(log.data && strstr(log.data, "no pass 'no-such-pass'"), "named in the log");
        cl_int r = mc_pipeline_run(&mc_cpu_pipeline, &s, NULL);
        CHECK(r == CL_SUCCESS && s.obj.code && s.obj.code_size, "object code (%d)", r);
        for (size_t i = 0; i < MC_NUM_PASSES; i++)
            CHECK(s.ran[i].ran && !s.ran[i].disabled, "%s ran", mc_passes[i].name);
        mc_pass_state_free(&s);
    }
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
    mosaic_bitcode_free(&linked);
}

/* ---- -cl-opt-disable ----------------------------------------------------------------- */

/* Runs p on s with MOSAIC_DEBUG=passes; what it printed on stderr into out. */
static cl_int run_printing(const mc_pipeline *p, mc_pass_state *s, char *out, size_t size)
{
    setenv("MOSAIC_DEBUG", "passes", 1);
    mosaic_settings_reload();
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(STDERR_FILENO);
    if (tmp && saved >= 0)
        dup2(fileno(tmp), STDERR_FILENO);
    cl_int r = mc_pipeline_run(p, s, NULL);
    fflush(stderr);
    size_t len = 0;
    if (tmp && saved >= 0) {
        dup2(saved, STDERR_FILENO);
        rewind(tmp);
        len = fread(out, 1, size - 1, tmp);
    }
    out[len] = 0;
    if (saved >= 0)
        close(saved);
    if (tmp)
        fclose(tmp);
    unsetenv("MOSAIC_DEBUG");
    mosaic_settings_reload();
    return r;
}

/* The line of `text` that names pass `name` (MOSAIC_DEBUG=passes), into line. */
static bool pass_line(const char *text, const char *name, char *line, size_t size)
{
    char key[64];
    snprintf(key, sizeof key, "  %s", name);
    for (const char *at = strstr(text, key); at; at = strstr(at + 1, key)) {
        size_t n = strlen(key);
        if (at[n] != ' ' && at[n] != '\n' && at[n] != 0)
            continue; /* a longer name */
        const char *start = at, *end = strchr(at, '\n');
        while (start > text && start[-1] != '\n')
            start--;
        size_t len = end ? (size_t)(end - start) : strlen(start);
        len = len < size - 1 ? len : size - 1;
        memcpy(line, start, len);
        line[len] = 0;
        return true;
    }
    return false;
}

TEST(opt_disable)
{
    mosaic_strbuf init_log = {0};
    CHECK(mc_llvm_init(&init_log) == CL_SUCCESS, "LLVM is set up");
    mosaic_strbuf_free(&init_log);
    const char *src = "kernel void sum(global float *x, local float *t) {\n"
                      "  t[get_local_id(0)] = x[get_global_id(0)];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  if (get_local_id(0) == 0) x[get_group_id(0)] = t[0] + t[1];\n"
                      "}\n";
    mosaic_bitcode linked = {0};
    if (!front_end(src, &linked))
        return;
    mosaic_strbuf log = {0};
    mc_options opts;
    CHECK(mc_parse_options("-cl-opt-disable", MC_OPTIONS_BUILD, &opts, &log) == CL_SUCCESS && opts.opt_disable,
          "-cl-opt-disable");
    mc_pass_state s;
    static char out[65536];
    if (state_of(&linked, &opts, &s, &log)) {
        cl_int r = run_printing(&mc_cpu_pipeline, &s, out, sizeof out);
        CHECK(r == CL_SUCCESS && s.obj.code, "object code without the optimisations (%d): %s", r,
              log.data ? log.data : "");
        for (size_t i = 0; i < MC_NUM_PASSES; i++) {
            const mc_pass *pass = &mc_passes[i];
            const mc_pass_record *rec = &s.ran[i];
            bool optional = pass->kind == MC_KIND_OPTIMISATION;
            CHECK(rec->ran && rec->disabled == optional && (!optional || rec->ns == 0),
                  "%s %s under -cl-opt-disable", pass->name, optional ? "is skipped" : "runs");
            char line[512];
            CHECK(pass_line(out, pass->name, line, sizeof line), "MOSAIC_DEBUG=passes names %s:\n%s", pass->name,
                  out);
            CHECK(!strstr(line, "skipped: an optimisation, -cl-opt-disable") == !optional,
                  "MOSAIC_DEBUG=passes says whether %s was skipped: %s", pass->name, line);
        }
        mc_pass_state_free(&s);
    }
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
    mosaic_bitcode_free(&linked);
}

/* ---- the runner's analyses ------------------------------------------------------------ */

/* Two functions standing for two kernels' K.body (their last parameter the local id). */
static const char two_bodies[] = "define void @f0(i32 %lid) {\nentry:\n  ret void\n}\n"
                                 "define void @f1(i32 %lid) {\nentry:\n  %c = icmp eq i32 %lid, 0\n"
                                 "  br i1 %c, label %one, label %join\none:\n  br label %join\n"
                                 "join:\n  ret void\n}\n";

/* A state over two_bodies, with two kernels whose K.body are @f0 and @f1. */
static bool bodies_state(const mc_options *opts, mc_pass_state *s, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    LLVMMemoryBufferRef buf = ctx ? LLVMCreateMemoryBufferWithMemoryRangeCopy(two_bodies, strlen(two_bodies), "t")
                                  : NULL;
    if (!buf || LLVMParseIRInContext(ctx, buf, &m, &msg)) {
        CHECK(false, "the module parses: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        if (ctx)
            LLVMContextDispose(ctx);
        return false;
    }
    if (mc_pass_state_init(s, NULL, opts, NULL, ctx, m, log) != CL_SUCCESS || !(s->kb = calloc(5, sizeof *s->kb))) {
        CHECK(false, "a pass state");
        mc_pass_state_free(s);
        return false;
    }
    s->nk = 2;
    s->fused = s->kb + 2;
    s->kb[0].body = LLVMGetNamedFunction(m, "f0");
    s->kb[1].body = LLVMGetNamedFunction(m, "f1");
    return true;
}

static unsigned cached_at[5][2]; /* what the probes found: [probe][function] */

static cl_int ask_all(mc_pass_state *s, size_t k)
{
    for (int j = 0; j < 2; j++)
        mc_analyses_uniformity(s->an, s->kb[j].body, 0);
    return CL_SUCCESS;
}

static cl_int ask_graphs(mc_pass_state *s, size_t k)
{
    for (int j = 0; j < 2; j++)
        mc_analyses_cfg(s->an, s->kb[j].body);
    return CL_SUCCESS;
}

/* probe i: what the cache holds of each function (i: a kernel pass's kernel, or the pass's own number) */
static void probe(mc_pass_state *s, int i)
{
    for (int j = 0; j < 2; j++)
        cached_at[i][j] = mc_analyses_cached(s->an, s->kb[j].body);
}
static cl_int probe_kernel(mc_pass_state *s, size_t k) { probe(s, (int)k); return CL_SUCCESS; }
static cl_int probe_2(mc_pass_state *s, size_t k) { probe(s, 2); return CL_SUCCESS; }
static cl_int probe_3(mc_pass_state *s, size_t k) { probe(s, 3); return CL_SUCCESS; }
static cl_int probe_4(mc_pass_state *s, size_t k) { probe(s, 4); return CL_SUCCESS; }
static cl_int nothing(mc_pass_state *s, size_t k) { return CL_SUCCESS; }
static cl_int nothing_to_do(mc_pass_state *s, size_t k) { s->skipped = "nothing to do"; return CL_SUCCESS; }

#define TEST_PASS(ID, NAME, SCOPE, CHANGES, NEEDS, KEEPS, RUN)                                           \
    {.id = ID, .name = NAME, .purpose = "a test", .scope = MC_SCOPE_##SCOPE, .kind = MC_KIND_REQUIRED,     \
     .changes_code = CHANGES, .needs = NEEDS, .keeps = KEEPS, .run = RUN}

TEST(runner_analyses)
{
    mosaic_strbuf init_log = {0};
    CHECK(mc_llvm_init(&init_log) == CL_SUCCESS, "LLVM is set up");
    mosaic_strbuf_free(&init_log);
    /* a pass that changed code loses what it does not keep (a kernel pass: of its kernel's functions
     * only), one that had nothing to do nothing */
    static const mc_pass passes[] = {
        TEST_PASS(0, "ask-all", MODULE, false, MC_ANALYSES_ALL, MC_ANALYSES_ALL, ask_all),
        TEST_PASS(1, "probe-kernel", KERNEL, true, MC_ANALYSES_NONE, MC_ANALYSES_CFG_SHAPE, probe_kernel),
        TEST_PASS(2, "probe-2", MODULE, true, MC_ANALYSES_NONE, MC_ANALYSES_NONE, probe_2),
        TEST_PASS(3, "probe-3", MODULE, false, MC_ANALYSES_NONE, MC_ANALYSES_ALL, probe_3),
        TEST_PASS(4, "ask-graphs", MODULE, false, MC_ANALYSIS_CFG, MC_ANALYSES_ALL, ask_graphs),
        TEST_PASS(5, "nothing-to-do", MODULE, true, MC_ANALYSES_NONE, MC_ANALYSES_NONE, nothing_to_do),
        TEST_PASS(6, "probe-4", MODULE, false, MC_ANALYSES_NONE, MC_ANALYSES_ALL, probe_4),
        TEST_PASS(7, "changes", MODULE, true, MC_ANALYSES_NONE, MC_ANALYSES_NONE, nothing),
    };
    const mc_pass *order[] = {&passes[0], &passes[1], &passes[2], &passes[3], &passes[4],
                              &passes[5], &passes[6], &passes[7]};
    const mc_pipeline p = {"test", order, sizeof order / sizeof order[0]};
    mosaic_strbuf log = {0};
    mc_options opts;
    CHECK(mc_parse_options("", MC_OPTIONS_BUILD, &opts, &log) == CL_SUCCESS, "no options");
    mc_pass_state s;
    if (bodies_state(&opts, &s, &log)) {
        CHECK(mc_pipeline_run(&p, &s, NULL) == CL_SUCCESS, "the test pipeline runs: %s", log.data ? log.data : "");
        CHECK(!s.an, "the run's analyses are gone with the run");
        const unsigned all = MC_ANALYSES_ALL, graph = MC_ANALYSES_CFG_SHAPE;
        /* probe-kernel on kernel 0 found everything; on kernel 1, kernel 0's uniformity gone */
        CHECK(cached_at[0][0] == all && cached_at[0][1] == all, "%#x %#x", cached_at[0][0], cached_at[0][1]);
        CHECK(cached_at[1][0] == graph && cached_at[1][1] == all, "%#x %#x", cached_at[1][0], cached_at[1][1]);
        /* after it on both kernels, the graphs only; after probe-2 (keeps nothing), nothing */
        CHECK(cached_at[2][0] == graph && cached_at[2][1] == graph, "%#x %#x", cached_at[2][0], cached_at[2][1]);
        CHECK(cached_at[3][0] == 0 && cached_at[3][1] == 0, "%#x %#x", cached_at[3][0], cached_at[3][1]);
        /* a pass that had nothing to do changed nothing */
        CHECK(cached_at[4][0] == graph && cached_at[4][1] == graph, "%#x %#x", cached_at[4][0], cached_at[4][1]);
        CHECK(s.ran[5].skipped && !strcmp(s.ran[5].skipped, "nothing to do"), "said so");
        mc_pass_state_free(&s);
    }
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
}

/* A pass that asks for the graph of @f0 and then gives its entry a block
 * after it, while it says it keeps every analysis. */
static cl_int split_entry(mc_pass_state *s, size_t k)
{
    LLVMValueRef f = s->kb[0].body;
    mc_analyses_cfg(s->an, f);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
    LLVMBasicBlockRef later = LLVMAppendBasicBlockInContext(s->ctx, f, "later");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(s->ctx);
    LLVMValueRef ret = LLVMGetBasicBlockTerminator(entry);
    LLVMInstructionRemoveFromParent(ret);
    LLVMPositionBuilderAtEnd(b, later);
    LLVMInsertIntoBuilder(b, ret);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, later);
    LLVMDisposeBuilder(b);
    return CL_SUCCESS;
}

#define LYING_PASS_CHILD "--lying-pass-child"

/* test_pipeline --lying-pass-child keeps|needs: runs a pass that keeps the
 * graph it changed, or one that asks for a graph it does not say it needs.
 * With assertions the runner aborts; without, it exits 0. */
static int lying_pass_child(const char *which)
{
    static const mc_pass keeps = TEST_PASS(0, "splits-blocks", MODULE, true, MC_ANALYSIS_CFG, MC_ANALYSES_ALL,
                                           split_entry);
    static const mc_pass needs = TEST_PASS(0, "asks-unsaid", MODULE, false, MC_ANALYSES_NONE, MC_ANALYSES_ALL,
                                           ask_graphs);
    const mc_pass *order[] = {strcmp(which, "keeps") ? &needs : &keeps};
    const mc_pipeline p = {"test", order, 1};
    mosaic_strbuf log = {0};
    mc_options opts;
    if (mc_llvm_init(&log) != CL_SUCCESS || mc_parse_options("", MC_OPTIONS_BUILD, &opts, &log) != CL_SUCCESS)
        return 2;
    mc_pass_state s;
    if (!bodies_state(&opts, &s, &log))
        return 2;
    cl_int r = mc_pipeline_run(&p, &s, NULL);
    mc_pass_state_free(&s);
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
    return r == CL_SUCCESS ? 0 : 1;
}

/* Runs the child `which`; its exit status, its stderr into out. */
static int run_child(const char *which, char *out, size_t size)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        char *args[] = {"test_pipeline", LYING_PASS_CHILD, (char *)which, NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    while (len < size - 1 && (got = read(fds[0], out + len, size - 1 - len)) > 0)
        len += (size_t)got;
    out[len] = 0;
    close(fds[0]);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    return status;
}

TEST(lying_pass_aborts)
{
    /* with assertions, a pass that changed a graph it says it keeps, or asked for one it does not say it
     * needs, ends the process naming it (in a child: this program again) */
    static const struct {
        const char *which, *pass, *says;
    } cases[] = {
        {"keeps", "splits-blocks", "no longer matches its function (the pass's KEEPS keep it, or a step changed the "
                                   "blocks without invalidating it): f0"},
        {"needs", "asks-unsaid", "its NEEDS do not list"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[8192];
        int status = run_child(cases[i].which, out, sizeof out);
#if MOSAIC_ASSERTIONS
        char named[128];
        snprintf(named, sizeof named, "after the pass %s", cases[i].pass);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "%s: the child should abort; status %#x:\n%s",
              cases[i].which, status, out);
        CHECK(strstr(out, named) && strstr(out, cases[i].says), "%s: the pass named on stderr:\n%s", cases[i].which,
              out);
#else
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: no check without assertions; status %#x:\n%s",
              cases[i].which, status, out);
#endif
    }
}

/* ---- the cache key ------------------------------------------------------------------ */
/* The variable of each field settings.def names (a flag, number or tri-state). */
static const struct {
    const char *field, *name;
} variables[] = {
#define MOSAIC_FLAG(NAME, field, summary) {#field, NAME},
#define MOSAIC_NUMBER(NAME, field, type, fallback, min, max, below, summary) {#field, NAME},
#define MOSAIC_PATH(NAME, field, fallback, shown, summary) {#field, NAME},
#define MOSAIC_TRISTATE(NAME, field, shown, summary) {#field, NAME},
#define MOSAIC_CATEGORIES(NAME, field, list, values, summary) {#field, NAME},
#define MOSAIC_INPUT(NAME, values, shown, summary)
#define MOSAIC_DERIVED(field, type, function)
#include "base/settings.def"
};

static const char *const changes_code[] = {
#define MOSAIC_CHANGES_CODE(field) #field,
#define MOSAIC_FLAG(...)
#define MOSAIC_NUMBER(...)
#define MOSAIC_PATH(...)
#define MOSAIC_TRISTATE(...)
#define MOSAIC_CATEGORIES(...)
#define MOSAIC_INPUT(...)
#define MOSAIC_DERIVED(...)
#include "base/settings.def"
};

static const char *variable_of(const char *field)
{
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        if (!strcmp(variables[i].field, field))
            return variables[i].name;
    return NULL;
}

/* The object code's key of the same bitcode built with these build options. */
static mc_cache_key key_of_options(const char *text)
{
    mc_options opts;
    mosaic_strbuf log = {0};
    CHECK(mc_parse_options(text, MC_OPTIONS_BUILD, &opts, &log) == CL_SUCCESS, "'%s': %s", text,
          log.data ? log.data : "");
    mc_cache_key key;
    static const char bitcode[] = "not really bitcode";
    mc_object_cache_key(&key, &test_target, bitcode, sizeof bitcode, &opts, NULL);
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
    return key;
}

static mc_cache_key key_with(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    mosaic_settings_reload();
    return key_of_options("-cl-fast-relaxed-math");
}

TEST(cache_key)
{
    size_t n = sizeof changes_code / sizeof changes_code[0];
    CHECK(n >= 5, "settings.def marks the settings that change code (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        const char *name = variable_of(changes_code[i]);
        CHECK(name, "%s is a field of settings.def", changes_code[i]);
        if (!name)
            continue;
        mc_cache_key off = key_with(name, NULL), on = key_with(name, "1"), again = key_with(name, NULL);
        CHECK(memcmp(&off, &on, sizeof off), "%s=1 changes the key", name);
        CHECK(!memcmp(&off, &again, sizeof off), "the key without %s is the same each time", name);
    }
    /* a setting of the runtime does not */
    mc_cache_key a = key_with("MOSAIC_NUM_THREADS", NULL), b = key_with("MOSAIC_NUM_THREADS", "3");
    CHECK(!memcmp(&a, &b, sizeof a), "MOSAIC_NUM_THREADS leaves the key alone");
    key_with("MOSAIC_NUM_THREADS", NULL);
    /* build options that did their work in clang leave it alone too (a
     * binary built again with the compile options finds its code);
     * -cl-opt-disable, which the passes read, does not */
    mc_cache_key none = key_of_options(""),
                 compile = key_of_options("-I /tmp -D N=4 -DM -cl-std=CL1.2 -cl-mad-enable -cl-fast-relaxed-math -g"),
                 unoptimised = key_of_options("-cl-opt-disable");
    CHECK(!memcmp(&none, &compile, sizeof none), "macros, include paths and math options leave the key alone");
    CHECK(memcmp(&none, &unoptimised, sizeof none), "-cl-opt-disable changes the key");
}

TEST(debug_categories)
{
    static const struct {
        const char *value;
        unsigned on, off;
    } cases[] = {
        {NULL, 0, ~0u},
        {"", 0, ~0u},
        {"0", 0, ~0u},
        {"1", MOSAIC_DEBUG_API | MOSAIC_DEBUG_BUILD | MOSAIC_DEBUG_LAUNCH | MOSAIC_DEBUG_CACHE, MOSAIC_DEBUG_PASSES},
        {"yes", MOSAIC_DEBUG_API | MOSAIC_DEBUG_BUILD | MOSAIC_DEBUG_CACHE, MOSAIC_DEBUG_PASSES},
        {"all", MOSAIC_DEBUG_API | MOSAIC_DEBUG_BUILD | MOSAIC_DEBUG_LAUNCH | MOSAIC_DEBUG_CACHE | MOSAIC_DEBUG_PASSES,
         0},
        {"passes", MOSAIC_DEBUG_PASSES, MOSAIC_DEBUG_API | MOSAIC_DEBUG_BUILD | MOSAIC_DEBUG_CACHE},
        {"build,cache", MOSAIC_DEBUG_BUILD | MOSAIC_DEBUG_CACHE, MOSAIC_DEBUG_API | MOSAIC_DEBUG_PASSES},
        {"launch,all", MOSAIC_DEBUG_PASSES | MOSAIC_DEBUG_LAUNCH, 0},
        {"build,nonsense", MOSAIC_DEBUG_API | MOSAIC_DEBUG_BUILD, MOSAIC_DEBUG_PASSES}, /* not a list: as 1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].value)
            setenv("MOSAIC_DEBUG", cases[i].value, 1);
        else
            unsetenv("MOSAIC_DEBUG");
        mosaic_settings_reload();
        for (unsigned bit = 1; bit <= MOSAIC_DEBUG_PASSES; bit <<= 1) {
            if (cases[i].on & bit)
                CHECK(mosaic_debugging(bit), "MOSAIC_DEBUG=%s: category %#x on", cases[i].value, bit);
            if (cases[i].off & bit)
                CHECK(!mosaic_debugging(bit), "MOSAIC_DEBUG=%s: category %#x off", cases[i].value, bit);
        }
    }
    unsetenv("MOSAIC_DEBUG");
    mosaic_settings_reload();
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], LYING_PASS_CHILD))
        return lying_pass_child(argv[2]);
    test_run(argc, argv);
    return test_summary();
}
