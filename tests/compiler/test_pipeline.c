/* The declared pipeline (src/compiler/pipeline.c, passes.def): the registry
 * is consistent, a prefix of the CPU pipeline runs and stops where asked,
 * the cache key of finalized code changes with every setting settings.def
 * marks as changing code (and not with one it does not), and MOSAIC_DEBUG's
 * categories read as docs/settings.md says.
 * usage: test_pipeline [case|--list]   (test_pipeline.list; none: all) */
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_pipeline.list"
#include "base/settings.h"
#include "compiler/frontend/binary.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler_host.h"

TEST(registry)
{
    const mc_pipeline *p = &mc_cpu_pipeline;
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
    }
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
            CHECK(s.ran[i].ran, "%s ran", mc_passes[i].name);
        mc_pass_state_free(&s);
    }
    mc_free_options(&opts);
    mosaic_strbuf_free(&log);
    mosaic_bitcode_free(&linked);
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
#define MOSAIC_CATEGORIES(NAME, field, values, summary) {#field, NAME},
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
    test_run(argc, argv);
    return test_summary();
}
