/* Build options: checked, and translated for clang (options.c). */
#ifndef MOSAIC_COMPILER_FRONTEND_OPTIONS_H
#define MOSAIC_COMPILER_FRONTEND_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

#include "base/strbuf.h"

typedef enum mc_option_mode {
    MC_OPTIONS_COMPILE, /* clCompileProgram, and the source part of clBuildProgram */
    MC_OPTIONS_LINK,    /* clLinkProgram */
    MC_OPTIONS_BUILD,   /* mosaic_finalize: clBuildProgram's options, or the link options */
} mc_option_mode;

typedef struct mc_options {
    char **clang_args; /* what is passed to clang (compile mode) */
    size_t num_clang_args;
    int cl_std;        /* 100, 110, 120, 200, 300, 310; 0 when not given */
    bool opt_disable;
    bool create_library;
    bool enable_link_options;
    bool fast_relaxed_math, unsafe_math, finite_math_only, no_signed_zeros, mad_enable;
    bool denorms_are_zero;
    bool correctly_rounded_divide_sqrt; /* -cl-fp32-correctly-rounded-divide-sqrt, passed to clang too */
    bool debug_info;
} mc_options;

/* Checks and translates options for mode.  An invalid option is
 * CL_INVALID_COMPILER_OPTIONS, CL_INVALID_LINKER_OPTIONS or
 * CL_INVALID_BUILD_OPTIONS (compile, link, build mode); *out is empty then. */
cl_int mc_parse_options(const char *text, mc_option_mode mode, mc_options *out, mosaic_strbuf *log);
void mc_free_options(mc_options *opts);
/* Splits text into words like a POSIX shell (quotes, backslashes): *words
 * gets a NULL-terminated array of *count words (NULL and 0 for NULL text).
 * Unbalanced quotes are the caller's `malformed` code, logged as being in
 * `what` ("options"). */
cl_int mc_split_words(const char *text, const char *what, cl_int malformed, char ***words, size_t *count,
                      mosaic_strbuf *log);
void mc_free_words(char **words, size_t count);

#endif
