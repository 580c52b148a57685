/* The formatting of OpenCL C's printf, for every device: a call's format and
 * its arguments as the compiler packs them (compiler/frontend/printf.c:
 * each argument at a multiple of 8 bytes, desc[i] saying what it is,
 * MOSAIC_PRINTF_* in compiler.h) become text. */
#ifndef MOSAIC_CORE_PRINTF_FORMAT_H
#define MOSAIC_CORE_PRINTF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* Where a device whose memory the host cannot read directly (a GPU) finds
 * the string a %s argument's address names: string_at returns it, or NULL
 * when it cannot be read.  The string stays valid until the call ends. */
typedef struct mosaic_printf_memory {
    const char *(*string_at)(const struct mosaic_printf_memory *memory, uint64_t address);
} mosaic_printf_memory;

/* The bytes the compiler packs arguments so described into (each at a
 * multiple of 8). */
size_t mosaic_printf_packed_size(const uint32_t *desc, uint32_t nargs);

/* Appends the call's text to o.  memory is NULL where arguments' addresses
 * are host addresses (the CPU).  False when the format does not fit the
 * arguments (then o may hold part of the text: the caller truncates it). */
bool mosaic_printf_format(mosaic_strbuf *o, const char *format, const unsigned char *args, const uint32_t *desc,
                          uint32_t nargs, const mosaic_printf_memory *memory);

#endif
