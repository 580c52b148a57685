/*
 * The formatting of OpenCL C's printf (printf_format.h): OpenCL C 3.0 section
 * 6.15.14, C99's conversions (no %n, no positional arguments) plus the vector
 * specifier vN (N = 2, 3, 4, 8, 16) and the length modifier hl, which applies
 * to int and float vectors.  A vector prints its elements, each converted
 * with the flags, width and precision, separated by commas.  Arguments arrive
 * in a buffer described by desc (compiler.h), so a conversion reads the
 * argument's real type: the length modifier says how an integer is converted
 * (hh: char, h: short, hl: int, l: long; none: int for a scalar, the
 * element's type for a vector), as C would after promotion.
 */
#include "core/printf_format.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"

/* The largest field width or precision, literal or from an argument: one
 * conversion of a 16-element vector then makes at most a few MB. */
#define FIELD_LIMIT 100000

/* One conversion specification. */
typedef struct spec {
    char flags[8];   /* "-+ #0" as written */
    bool has_width, has_precision;
    int width, precision;
    unsigned vector; /* 0: none */
    unsigned length; /* bytes the length modifier names: 1 hh, 2 h, 4 hl, 8 l; 0 none */
    char conversion;
} spec;

static float half_to_float(uint16_t h)
{
    unsigned sign = h >> 15, exp = h >> 10 & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexpf((float)(mant | 0x400), (int)exp - 25);
    return sign ? -v : v;
}

/* The C format for one element: "%" flags [*] [.*] length conversion. */
static void c_format(const spec *s, const char *length, char *buf)
{
    char *p = buf;
    *p++ = '%';
    for (const char *f = s->flags; *f; f++)
        *p++ = *f;
    if (s->has_width)
        *p++ = '*';
    if (s->has_precision)
        *p++ = '.', *p++ = '*';
    for (const char *l = length; *l; l++)
        *p++ = *l;
    *p++ = s->conversion;
    *p = 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define EMIT(o, s, fmt, value)                                                                     \
    do {                                                                                           \
        if ((s)->has_width && (s)->has_precision)                                                  \
            mosaic_strbuf_printf(o, fmt, (s)->width, (s)->precision, value);                       \
        else if ((s)->has_width)                                                                   \
            mosaic_strbuf_printf(o, fmt, (s)->width, value);                                       \
        else if ((s)->has_precision)                                                               \
            mosaic_strbuf_printf(o, fmt, (s)->precision, value);                                   \
        else                                                                                       \
            mosaic_strbuf_printf(o, fmt, value);                                                   \
    } while (0)

/* Converts argument `arg` (described by d) with s.  Returns false when they do not fit. */
static bool convert(mosaic_strbuf *o, const spec *s, const unsigned char *arg, uint32_t d,
                    const mosaic_printf_memory *memory)
{
    unsigned kind = MOSAIC_PRINTF_KIND(d), bytes = MOSAIC_PRINTF_BYTES(d), count = MOSAIC_PRINTF_COUNT(d);
    char fmt[32];
    switch (s->conversion) {
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
        if (kind != MOSAIC_PRINTF_INT || (s->vector ? count != s->vector : count != 1) ||
            (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
            return false;
        bool is_signed = s->conversion == 'd' || s->conversion == 'i';
        unsigned as = s->length ? s->length : s->vector ? bytes : 4;
        c_format(s, "ll", fmt);
        for (unsigned e = 0; e < count; e++) {
            uint64_t raw = 0;
            memcpy(&raw, arg + e * bytes, bytes); /* little-endian */
            if (as < 8)
                raw &= ((uint64_t)1 << (8 * as)) - 1;
            if (e)
                mosaic_strbuf_append(o, ",", 1);
            if (is_signed) {
                long long v = as < 8 && raw >> (8 * as - 1) ? (long long)(raw - ((uint64_t)1 << (8 * as)))
                                                            : (long long)raw;
                EMIT(o, s, fmt, v);
            } else {
                EMIT(o, s, fmt, (unsigned long long)raw);
            }
        }
        return true;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (kind != MOSAIC_PRINTF_FLOAT || (s->vector ? count != s->vector : count != 1))
            return false;
        c_format(s, "", fmt);
        for (unsigned e = 0; e < count; e++) {
            double v;
            if (bytes == 2) {
                uint16_t h;
                memcpy(&h, arg + 2 * e, 2);
                v = half_to_float(h);
            } else if (bytes == 4) {
                float f;
                memcpy(&f, arg + 4 * e, 4);
                v = f;
            } else if (bytes == 8) {
                memcpy(&v, arg + 8 * e, 8);
            } else {
                return false;
            }
            if (e)
                mosaic_strbuf_append(o, ",", 1);
            EMIT(o, s, fmt, v);
        }
        return true;
    }
    case 'c': {
        if (kind != MOSAIC_PRINTF_INT || count != 1 || s->vector || bytes > 8)
            return false;
        uint64_t raw = 0;
        memcpy(&raw, arg, bytes);
        c_format(s, "", fmt);
        EMIT(o, s, fmt, (int)(unsigned char)raw);
        return true;
    }
    case 's': case 'p': {
        if (kind != MOSAIC_PRINTF_POINTER || s->vector || bytes != 8 || count != 1)
            return false;
        uint64_t address = 0;
        memcpy(&address, arg, sizeof address);
        c_format(s, "", fmt);
        if (s->conversion == 's') {
            const char *str = !address ? NULL
                              : memory ? memory->string_at(memory, address)
                                       : (const char *)(uintptr_t)address;
            if (address && !str)
                return false; /* a string the device's memory cannot give */
            EMIT(o, s, fmt, str ? str : "(null)");
        } else {
            EMIT(o, s, fmt, (const void *)(uintptr_t)address);
        }
        return true;
    }
    default:
        return false;
    }
}
#pragma GCC diagnostic pop

/* Reads an int argument (for a '*' width or precision), clamped to
 * +-FIELD_LIMIT: a width taken from data must not print gigabytes.  (A
 * negative width means '-' and its magnitude; a negative precision, none.) */
static bool int_arg(const unsigned char *arg, uint32_t d, int *v)
{
    if (MOSAIC_PRINTF_KIND(d) != MOSAIC_PRINTF_INT || MOSAIC_PRINTF_COUNT(d) != 1 || MOSAIC_PRINTF_BYTES(d) > 8)
        return false;
    int32_t x = 0;
    memcpy(&x, arg, MOSAIC_PRINTF_BYTES(d) < 4 ? MOSAIC_PRINTF_BYTES(d) : 4);
    *v = x > FIELD_LIMIT ? FIELD_LIMIT : x < -FIELD_LIMIT ? -FIELD_LIMIT : x;
    return true;
}

/* Reads a literal width or precision, clamped to FIELD_LIMIT. */
static int literal_field(const char **f)
{
    long v = strtol(*f, (char **)f, 10);
    return v > FIELD_LIMIT ? FIELD_LIMIT : (int)v;
}

static size_t arg_size(uint32_t d)
{
    return ((size_t)MOSAIC_PRINTF_BYTES(d) * MOSAIC_PRINTF_COUNT(d) + 7) / 8 * 8;
}

size_t mosaic_printf_packed_size(const uint32_t *desc, uint32_t nargs)
{
    size_t bytes = 0;
    for (uint32_t i = 0; i < nargs; i++)
        bytes += arg_size(desc[i]);
    return bytes;
}

bool mosaic_printf_format(mosaic_strbuf *o, const char *f, const unsigned char *args, const uint32_t *desc,
                          uint32_t nargs, const mosaic_printf_memory *memory)
{
    uint32_t next = 0;
    size_t offset = 0;
#define NEXT_ARG(p, d)                                                                             \
    do {                                                                                           \
        if (next >= nargs)                                                                         \
            return false;                                                                          \
        d = desc[next++];                                                                          \
        p = args + offset;                                                                         \
        offset += arg_size(d);                                                                     \
    } while (0)
    const unsigned char *p;
    uint32_t d;
    while (*f) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            mosaic_strbuf_append(o, f, strlen(f));
            break;
        }
        mosaic_strbuf_append(o, f, (size_t)(pct - f));
        f = pct + 1;
        if (*f == '%') {
            mosaic_strbuf_append(o, "%", 1);
            f++;
            continue;
        }
        spec s;
        memset(&s, 0, sizeof s);
        size_t nf = 0;
        while (*f && strchr("-+ #0", *f)) {
            if (nf < sizeof s.flags - 1 && !memchr(s.flags, *f, nf))
                s.flags[nf++] = *f;
            f++;
        }
        if (*f == '*') {
            NEXT_ARG(p, d);
            if (!int_arg(p, d, &s.width))
                return false;
            s.has_width = true;
            f++;
        } else if (*f >= '1' && *f <= '9') {
            s.width = literal_field(&f);
            s.has_width = true;
        }
        if (*f == '.') {
            f++;
            s.has_precision = true;
            if (*f == '*') {
                NEXT_ARG(p, d);
                if (!int_arg(p, d, &s.precision))
                    return false;
                f++;
            } else {
                s.precision = literal_field(&f);
            }
        }
        if (*f == 'v') {
            f++;
            long n = strtol(f, (char **)&f, 10);
            if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
                return false;
            s.vector = (unsigned)n;
        }
        if (f[0] == 'h' && f[1] == 'h')
            s.length = 1, f += 2;
        else if (f[0] == 'h' && f[1] == 'l')
            s.length = 4, f += 2;
        else if (f[0] == 'h')
            s.length = 2, f++;
        else if (f[0] == 'l' && f[1] == 'l')
            s.length = 8, f += 2; /* ll, z, j, t: C99's, not OpenCL C's, but harmless */
        else if (f[0] == 'l' || f[0] == 'z' || f[0] == 'j' || f[0] == 't')
            s.length = 8, f++;
        if (s.length == 4 && !s.vector)
            return false; /* hl is for vectors only */
        if (!*f)
            return false;
        s.conversion = *f++;
        if (s.length && strchr("cspfFeEgGaA", s.conversion) && !(s.vector && strchr("fFeEgGaA", s.conversion)) &&
            !(s.length == 8 && strchr("fFeEgGaA", s.conversion)))
            return false; /* a length modifier on %c, %s, %p, or hh/h on a scalar float */
        NEXT_ARG(p, d);
        if (!convert(o, &s, p, d, memory))
            return false;
    }
#undef NEXT_ARG
    return true;
}
