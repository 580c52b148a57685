/* Build, compile and link options: splitting, checking, and translating them
 * into clang arguments. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/compiler_internal.h"

int mc_split_words(const char *text, char ***words)
{
    *words = NULL;
    if (!text)
        return 0;
    size_t cap = 8, n = 0, len = strlen(text);
    char **w = malloc(cap * sizeof *w);
    char *buf = malloc(len + 1);
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
                    goto fail;
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
                    goto fail;
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
    return (int)n;
fail:
    if (w)
        mc_free_words(w, (int)n);
    free(buf);
    return -1;
}

void mc_free_words(char **words, int n)
{
    if (!words)
        return;
    for (int i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

static int push(mc_options *o, const char *arg)
{
    char **a = realloc(o->clang_args, (o->num_clang_args + 2) * sizeof *a);
    if (!a)
        return -1;
    o->clang_args = a;
    a[o->num_clang_args] = strdup(arg);
    if (!a[o->num_clang_args])
        return -1;
    a[++o->num_clang_args] = NULL;
    return 0;
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
        {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300},
    };
    for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++)
        if (!strcasecmp(v, stds[i].name))
            return stds[i].version;
    return 0;
}

/* Options that change floating-point semantics: valid in every mode. */
static int math_option(mc_options *o, const char *w)
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
            *(int *)((char *)o + opts[i].off) = 1;
            return 1;
        }
    return 0;
}

int mc_parse_options(const char *text, mc_option_mode mode, mc_options *o, mosaic_strbuf *log)
{
    /* Compile-only options clang takes as they are. */
    static const char *const passthrough[] = {
        "-w", "-Werror", "-cl-mad-enable", "-cl-single-precision-constant",
        "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size",
        "-cl-kernel-arg-info", "-cl-opt-disable", "-g",
        "-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
        "-cl-no-signed-zeros",
    };
    memset(o, 0, sizeof *o);
    char **words;
    int n = mc_split_words(text, &words);
    if (n < 0) {
        mosaic_strbuf_printf(log, "error: unbalanced quotes in options \"%s\"\n", text);
        return -1;
    }
    const char *kind = mode == MC_OPTIONS_LINK ? "linker" : mode == MC_OPTIONS_BUILD ? "build" : "compiler";
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        const char *w = words[i];
        int compile_like = mode != MC_OPTIONS_LINK;
        if (mode != MC_OPTIONS_COMPILE && (!strcmp(w, "-create-library") || !strcmp(w, "-enable-link-options"))) {
            if (mode == MC_OPTIONS_BUILD) {
                mosaic_strbuf_printf(log, "error: %s is a link option, not a build option\n", w);
                ok = 0;
            } else if (w[1] == 'c') {
                o->create_library = 1;
            } else {
                o->enable_link_options = 1;
            }
            continue;
        }
        if (!strcmp(w, "-cl-no-subgroup-ifp") || (compile_like && !strcmp(w, "-cl-strict-aliasing")))
            continue; /* accepted; nothing to do on this device */
        int math = math_option(o, w);
        if (math && (mode == MC_OPTIONS_LINK || !strcmp(w, "-cl-denorms-are-zero")))
            continue; /* clang ignores denorms-are-zero on SPIR; the CPU keeps denormals */
        if (!compile_like) {
            mosaic_strbuf_printf(log, "error: invalid %s option '%s'\n", kind, w);
            ok = 0;
            break;
        }
        if (w[0] == '-' && (w[1] == 'D' || w[1] == 'I')) {
            const char *value = w[2] ? w + 2 : (i + 1 < n ? words[++i] : NULL);
            if (!value || !*value || (w[1] == 'D' && value[0] == '=')) {
                mosaic_strbuf_printf(log, "error: option '-%c' needs a %s\n", w[1], w[1] == 'D' ? "macro name" : "directory");
                ok = 0;
                break;
            }
            if (mode == MC_OPTIONS_BUILD)
                continue;
            char flag[3] = {'-', w[1], 0};
            if (push(o, flag))
                goto oom;
            if (w[1] == 'I' && value[0] != '/') {
                char cwd[PATH_MAX];
                mosaic_strbuf abs = {0};
                if (getcwd(cwd, sizeof cwd))
                    mosaic_strbuf_printf(&abs, "%s/", cwd);
                mosaic_strbuf_puts(&abs, value);
                char *a = mosaic_strbuf_take(&abs);
                int r = push(o, a);
                free(a);
                if (r)
                    goto oom;
            } else if (push(o, value)) {
                goto oom;
            }
            continue;
        }
        if (!strncmp(w, "-cl-std=", 8)) {
            int v = parse_std(w + 8);
            if (!v) {
                mosaic_strbuf_printf(log, "error: invalid value '%s' in '%s' (this device supports CL1.0, CL1.1, CL1.2, "
                                     "CL2.0 and CL3.0)\n", w + 8, w);
                ok = 0;
                break;
            }
            o->cl_std = v;
            if (mode != MC_OPTIONS_BUILD && push(o, w))
                goto oom;
            continue;
        }
        size_t k;
        for (k = 0; k < sizeof passthrough / sizeof passthrough[0]; k++)
            if (!strcmp(w, passthrough[k]))
                break;
        if (k == sizeof passthrough / sizeof passthrough[0]) {
            mosaic_strbuf_printf(log, "error: invalid %s option '%s'\n", kind, w);
            ok = 0;
            break;
        }
        if (!strcmp(w, "-cl-opt-disable"))
            o->opt_disable = 1;
        else if (!strcmp(w, "-g"))
            o->debug_info = 1;
        else if (!strcmp(w, "-cl-mad-enable"))
            o->mad_enable = 1;
        if (mode != MC_OPTIONS_BUILD && push(o, w))
            goto oom;
    }
    mc_free_words(words, n);
    if (!ok) {
        mc_free_options(o);
        return -1;
    }
    return 0;
oom:
    mc_free_words(words, n);
    mc_free_options(o);
    mosaic_strbuf_puts(log, "error: out of memory\n");
    return -2;
}
