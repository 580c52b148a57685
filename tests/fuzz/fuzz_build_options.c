/*
 * libFuzzer harness: the build-options parser (compiler/frontend/options.c),
 * which reads what the application passes to clBuildProgram,
 * clCompileProgram and clLinkProgram.  The input is the options text; it is
 * parsed in each of the three modes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/frontend/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static const mc_option_mode modes[] = {MC_OPTIONS_COMPILE, MC_OPTIONS_LINK, MC_OPTIONS_BUILD};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        mc_options options;
        mosaic_strbuf log = {0};
        if (mc_parse_options(text, modes[m], &options, &log) == CL_SUCCESS)
            mc_free_options(&options);
        mosaic_strbuf_free(&log);
    }
    free(text);
    return 0;
}
