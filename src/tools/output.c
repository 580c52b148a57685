/* The plain and JSON forms of the `mosaic` command's output (output.h). */
#include "output.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/assert.h"

enum { LABEL_WIDTH = 30 };

/* Plain text: two spaces per container that printed a heading. */
static int indent(const out *o)
{
    int n = 0;
    for (int d = 0; d < o->depth; d++)
        n += o->headed[d] ? 2 : 0;
    return n;
}

static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", stdout);
        else if (*p == '\t')
            fputs("\\t", stdout);
        else if (*p < 0x20 || *p == 0x7f)
            printf("\\u%04x", *p);
        else
            putchar(*p); /* UTF-8 passes through */
    }
    putchar('"');
}

/* JSON: the comma, the new line and indent, and the key (none in a list or
 * at the top) before a value. */
static void json_prefix(out *o, const char *key)
{
    if (!o->depth)
        return;
    if (o->written[o->depth - 1])
        putchar(',');
    o->written[o->depth - 1] = true;
    printf("\n%*s", 2 * o->depth, "");
    if (!o->list[o->depth - 1]) {
        MOSAIC_ASSERT(key != NULL);
        json_string(key);
        fputs(": ", stdout);
    }
}

/* Plain: the label (none for an item of a list), padded. */
static void plain_prefix(out *o, const char *label)
{
    int n = indent(o);
    printf("%*s", n, "");
    if (label && !(o->depth && o->list[o->depth - 1]))
        printf("%-*s ", LABEL_WIDTH - n > 0 ? LABEL_WIDTH - n : 0, label);
}

static void open_container(out *o, const char *key, const char *label, bool list)
{
    MOSAIC_ASSERT(o->depth < OUT_MAX_DEPTH);
    if (o->json) {
        json_prefix(o, key);
        putchar(list ? '[' : '{');
    } else if (label) {
        printf("%*s%s\n", indent(o), "", label);
    }
    o->list[o->depth] = list;
    o->written[o->depth] = false;
    o->headed[o->depth] = label != NULL;
    o->depth++;
}

void out_object(out *o, const char *key, const char *label) { open_container(o, key, label, false); }

void out_list(out *o, const char *key, const char *label) { open_container(o, key, label, true); }

void out_end(out *o)
{
    MOSAIC_ASSERT(o->depth > 0);
    o->depth--;
    if (o->json) {
        if (o->written[o->depth])
            printf("\n%*s", 2 * o->depth, "");
        putchar(o->list[o->depth] ? ']' : '}');
    }
}

void out_str(out *o, const char *key, const char *label, const char *value)
{
    if (o->json) {
        json_prefix(o, key);
        if (value)
            json_string(value);
        else
            fputs("null", stdout);
    } else {
        plain_prefix(o, label);
        printf("%s\n", value ? value : "-");
    }
}

void out_int(out *o, const char *key, const char *label, long long value)
{
    if (o->json) {
        json_prefix(o, key);
        printf("%lld", value);
    } else {
        plain_prefix(o, label);
        printf("%lld\n", value);
    }
}

void out_uint(out *o, const char *key, const char *label, uint64_t value)
{
    if (o->json) {
        json_prefix(o, key);
        printf("%" PRIu64, value);
    } else {
        plain_prefix(o, label);
        printf("%" PRIu64 "\n", value);
    }
}

void out_bool(out *o, const char *key, const char *label, bool value)
{
    if (o->json) {
        json_prefix(o, key);
        fputs(value ? "true" : "false", stdout);
    } else {
        plain_prefix(o, label);
        puts(value ? "yes" : "no");
    }
}

void out_bytes(out *o, const char *key, const char *label, uint64_t value)
{
    if (o->json) {
        out_uint(o, key, label, value);
        return;
    }
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)value;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    plain_prefix(o, label);
    if (u)
        printf("%.1f %s (%" PRIu64 " bytes)\n", v, units[u], value);
    else
        printf("%" PRIu64 " bytes\n", value);
}

void out_text(out *o, const char *format, ...)
{
    if (o->json)
        return;
    printf("%*s", indent(o), "");
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
    putchar('\n');
}

void out_plain(out *o, const char *label, const char *format, ...)
{
    if (o->json)
        return;
    plain_prefix(o, label);
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
    putchar('\n');
}

void out_finish(out *o)
{
    MOSAIC_ASSERT(o->depth == 0);
    if (o->json)
        putchar('\n');
    fflush(stdout);
}
