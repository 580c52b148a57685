/* Build, compile and link options: splitting, checking, and translating them
 * into clang arguments. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/frontend/options.h"
#include "compiler/ir/log.h"

cl_int mc_split_words(const char *text, const char *what, cl_int malformed, char ***words, size_t *count,
                      mosaic_strbuf *log)
{
    *words = NULL;
    *count = 0;
    if (!text)
        return CL_SUCCESS;
    size_t cap = 8, n = 0, len = strlen(text);
    char **w = malloc(cap * sizeof *w);
    char *buf = malloc(len + 1);
    cl_int r = CL_OUT_OF_HOST_MEMORY;
    if (!w || !buf)
        goto fail;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (!*p)
            break;
        size_t k = 0;
        while (*p && !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')) {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    goto unbalanced;
                memcpy(buf + k, p + 1, (size_t)(end - p - 1));
                k += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`'))
                        p++;
                    buf[k++] = *p++;
                }
                if (*p != '"')
                    goto unbalanced;
                p++;
            } else if (*p == '\\' && p[1]) {
                buf[k++] = p[1];
                p += 2;
            } else {
                buf[k++] = *p++;
            }
        }
        if (n + 1 >= cap) {
            cap *= 2;
            char **nw = realloc(w, cap * sizeof *nw);
            if (!nw)
                goto fail;
            w = nw;
        }
        w[n] = strndup(buf, k);
        if (!w[n])
            goto fail;
        n++;
    }
    free(buf);
    w[n] = NULL;
    *words = w;
    *count = n;
    return CL_SUCCESS;
unbalanced:
    mosaic_strbuf_printf(log, "error: unbalanced quotes in %s \"%s\"\n", what, text);
    r = malformed;
fail:
    mc_free_words(w, n);
    free(buf);
    return r == CL_OUT_OF_HOST_MEMORY ? mc_out_of_memory(log) : r;
}

void mc_free_words(char **words, size_t count)
{
    if (!words)
        return;
    for (size_t i = 0; i < count; i++)
        free(words[i]);
    free(words);
}

/* Appends a clang argument. */
static cl_int push(mc_options *o, const char *arg, mosaic_strbuf *log)
{
    char **a = realloc(o->clang_args, (o->num_clang_args + 2) * sizeof *a);
    if (!a)
        return mc_out_of_memory(log);
    o->clang_args = a;
    a[o->num_clang_args] = strdup(arg);
    if (!a[o->num_clang_args])
        return mc_out_of_memory(log);
    a[++o->num_clang_args] = NULL;
    return CL_SUCCESS;
}

void mc_free_options(mc_options *o)
{
    for (size_t i = 0; i < o->num_clang_args; i++)
        free(o->clang_args[i]);
    free(o->clang_args);
    memset(o, 0, sizeof *o);
}

static int parse_std(const char *v)
{
    static const struct { const char *name; int version; } stds[] = {
        {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}, {"CL3.1", 310},
    };
    for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++)
        if (!strcasecmp(v, stds[i].name))
            return stds[i].version;
    return 0;
}

/* Options that change floating-point semantics: valid in every mode.  Is w
 * one (then its flag is set)? */
static bool math_option(mc_options *o, const char *w)
{
    static const struct { const char *name; size_t off; } opts[] = {
        {"-cl-fast-relaxed-math", offsetof(mc_options, fast_relaxed_math)},
        {"-cl-unsafe-math-optimizations", offsetof(mc_options, unsafe_math)},
        {"-cl-finite-math-only", offsetof(mc_options, finite_math_only)},
        {"-cl-no-signed-zeros", offsetof(mc_options, no_signed_zeros)},
        {"-cl-denorms-are-zero", offsetof(mc_options, denorms_are_zero)},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(w, opts[i].name)) {
            *(bool *)((char *)o + opts[i].off) = true;
            return true;
        }
    return false;
}

/* An -I directory as clang, running in its own directory, needs it: absolute. */
static cl_int push_include_dir(mc_options *o, const char *dir, mosaic_strbuf *log)
{
    if (dir[0] == '/')
        return push(o, dir, log);
    char cwd[PATH_MAX];
    mosaic_strbuf abs = {0};
    if (getcwd(cwd, sizeof cwd))
        mosaic_strbuf_printf(&abs, "%s/", cwd);
    mosaic_strbuf_puts(&abs, dir);
    cl_int r = abs.oom ? mc_out_of_memory(log) : push(o, abs.data, log);
    mosaic_strbuf_free(&abs);
    return r;
}

cl_int mc_parse_options(const char *text, mc_option_mode mode, mc_options *o, mosaic_strbuf *log)
{
    /* Compile-only options clang takes as they are. */
    static const char *const passthrough[] = {
        "-w", "-Werror", "-cl-mad-enable", "-cl-single-precision-constant",
        "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size",
        "-cl-kernel-arg-info", "-cl-opt-disable", "-g",
        "-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
        "-cl-no-signed-zeros",
    };
    const char *kind = mode == MC_OPTIONS_LINK ? "linker" : mode == MC_OPTIONS_BUILD ? "build" : "compiler";
    const cl_int invalid = mode == MC_OPTIONS_LINK    ? CL_INVALID_LINKER_OPTIONS
                           : mode == MC_OPTIONS_BUILD ? CL_INVALID_BUILD_OPTIONS
                                                      : CL_INVALID_COMPILER_OPTIONS;
    memset(o, 0, sizeof *o);
    char **words;
    size_t n;
    cl_int r = mc_split_words(text, "options", invalid, &words, &n, log);
    if (r != CL_SUCCESS)
        return r;
    bool compile_like = mode != MC_OPTIONS_LINK;
    for (size_t i = 0; i < n && r == CL_SUCCESS; i++) {
        const char *w = words[i];
        if (mode != MC_OPTIONS_COMPILE && (!strcmp(w, "-create-library") || !strcmp(w, "-enable-link-options"))) {
            if (mode == MC_OPTIONS_BUILD) {
                mosaic_strbuf_printf(log, "error: %s is a link option, not a build option\n", w);
                r = invalid;
            } else if (w[1] == 'c') {
                o->create_library = true;
            } else {
                o->enable_link_options = true;
            }
            continue;
        }
        if (!strcmp(w, "-cl-no-subgroup-ifp") || (compile_like && !strcmp(w, "-cl-strict-aliasing")))
            continue; /* accepted; nothing to do on this device */
        if (!strcmp(w, "-cl-fp32-correctly-rounded-divide-sqrt"))
            o->correctly_rounded_divide_sqrt = true;
        bool math = math_option(o, w);
        if (math && (mode == MC_OPTIONS_LINK || !strcmp(w, "-cl-denorms-are-zero")))
            continue; /* clang ignores denorms-are-zero on SPIR; the CPU keeps denormals */
        if (!compile_like) {
            mosaic_strbuf_printf(log, "error: invalid %s option '%s'\n", kind, w);
            r = invalid;
            continue;
        }
        if (w[0] == '-' && (w[1] == 'D' || w[1] == 'I')) {
            const char *value = w[2] ? w + 2 : (i + 1 < n ? words[++i] : NULL);
            if (!value || !*value || (w[1] == 'D' && value[0] == '=')) {
                mosaic_strbuf_printf(log, "error: option '-%c' needs a %s\n", w[1],
                                     w[1] == 'D' ? "macro name" : "directory");
                r = invalid;
                continue;
            }
            if (mode == MC_OPTIONS_BUILD)
                continue;
            char flag[3] = {'-', w[1], 0};
            r = push(o, flag, log);
            if (r == CL_SUCCESS)
                r = w[1] == 'I' ? push_include_dir(o, value, log) : push(o, value, log);
            continue;
        }
        if (!strncmp(w, "-cl-std=", 8)) {
            int v = parse_std(w + 8);
            if (!v) {
                mosaic_strbuf_printf(log, "error: invalid value '%s' in '%s' (this device supports CL1.0, CL1.1, "
                                     "CL1.2, CL2.0, CL3.0 and CL3.1)\n", w + 8, w);
                r = invalid;
                continue;
            }
            o->cl_std = v;
            /* clang 16 knows OpenCL C up to 3.0: 3.1 is 3.0 with the
             * prelude's __OPENCL_C_VERSION__ (frontend.c), its additions
             * being 3.0's extensions, which the device reports */
            if (mode != MC_OPTIONS_BUILD)
                r = push(o, v == 310 ? "-cl-std=CL3.0" : w, log);
            continue;
        }
        size_t k;
        for (k = 0; k < sizeof passthrough / sizeof passthrough[0]; k++)
            if (!strcmp(w, passthrough[k]))
                break;
        if (k == sizeof passthrough / sizeof passthrough[0]) {
            mosaic_strbuf_printf(log, "error: invalid %s option '%s'\n", kind, w);
            r = invalid;
            continue;
        }
        if (!strcmp(w, "-cl-opt-disable"))
            o->opt_disable = true;
        else if (!strcmp(w, "-g"))
            o->debug_info = true;
        else if (!strcmp(w, "-cl-mad-enable"))
            o->mad_enable = true;
        if (mode != MC_OPTIONS_BUILD)
            r = push(o, w, log);
    }
    mc_free_words(words, n);
    if (r != CL_SUCCESS)
        mc_free_options(o);
    return r;
}
