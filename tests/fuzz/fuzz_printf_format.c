/*
 * libFuzzer harness: the formatting of OpenCL C's printf
 * (core/printf_format.c), which turns a call's format and packed arguments
 * into text.  On the GPU the format's address, the descriptors and the
 * arguments come from records a kernel wrote into device memory, so a
 * kernel that writes out of bounds can hand it anything.
 *
 * The input: one byte, the number of arguments (0-8); four bytes of
 * descriptor each (MOSAIC_PRINTF_DESC: kind, bytes, count; any values);
 * the packed arguments, as many bytes as the descriptors say (zeros where
 * the input ends first); the rest, the format.  A %s argument is an
 * address that a made-up device memory resolves to one of a few strings,
 * or to none, as a GPU's can.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/printf_format.h"
#include "fuzz_common.h"

enum { MAX_ARGS = 8, MAX_PACKED = 1 << 20 };

static const char *string_at(const mosaic_printf_memory *memory, uint64_t address)
{
    (void)memory;
    static const char *const strings[] = {"", "text", "%s %d %n", NULL};
    return strings[address % 4];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t count = 0;
    fuzz_take(&data, &size, &count, 1);
    uint32_t nargs = count % (MAX_ARGS + 1), desc[MAX_ARGS] = {0};
    fuzz_take(&data, &size, desc, nargs * sizeof desc[0]);
    size_t packed = mosaic_printf_packed_size(desc, nargs);
    if (packed > MAX_PACKED)
        return 0;
    unsigned char *args = malloc(packed ? packed : 1);
    char *format = malloc(size + 1);
    if (args && format) {
        fuzz_take(&data, &size, args, packed); /* (zeros where the input ends first) */
        size_t n = size;
        fuzz_take(&data, &size, format, n);
        format[n] = '\0';
        mosaic_printf_memory memory = {.string_at = string_at};
        mosaic_strbuf out = {0};
        mosaic_printf_format(&out, format, args, desc, nargs, &memory);
        mosaic_strbuf_free(&out);
    }
    free(args);
    free(format);
    return 0;
}
