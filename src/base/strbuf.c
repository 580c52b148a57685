/* The growable string (strbuf.h). */
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The first allocation: enough for most log lines and printf calls. */
#define FIRST_CAPACITY 256

/* Makes room for n more bytes and the NUL; false (and oom) when it cannot. */
static bool reserve(mosaic_strbuf *s, size_t n)
{
    if (s->oom)
        return false;
    if (n < s->cap - s->len)
        return true;
    if (n > SIZE_MAX / 2 - s->len - 1) {
        s->oom = true;
        return false;
    }
    size_t need = s->len + n + 1, cap = s->cap ? s->cap : FIRST_CAPACITY;
    while (cap < need)
        cap *= 2;
    char *p = realloc(s->data, cap);
    if (!p) {
        s->oom = true;
        return false;
    }
    s->data = p;
    s->cap = cap;
    return true;
}

void mosaic_strbuf_append_slow(mosaic_strbuf *s, const char *text, size_t n)
{
    if (!reserve(s, n))
        return;
    memcpy(s->data + s->len, text, n);
    s->len += n;
    s->data[s->len] = 0;
}

void mosaic_strbuf_vprintf(mosaic_strbuf *s, const char *format, va_list ap)
{
    if (!reserve(s, 0))
        return;
    /* straight into the buffer; once more after growing when it did not fit */
    va_list again;
    va_copy(again, ap);
    size_t room = s->cap - s->len;
    int n = vsnprintf(s->data + s->len, room, format, ap);
    if (n >= 0 && (size_t)n >= room) {
        if (reserve(s, (size_t)n))
            vsnprintf(s->data + s->len, s->cap - s->len, format, again);
        else
            n = -1;
    }
    va_end(again);
    if (n < 0)
        s->data[s->len] = 0; /* an encoding error or no memory: the text stays as it was */
    else
        s->len += (size_t)n;
}

void mosaic_strbuf_printf(mosaic_strbuf *s, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    mosaic_strbuf_vprintf(s, format, ap);
    va_end(ap);
}

void mosaic_strbuf_truncate(mosaic_strbuf *s, size_t len)
{
    if (len >= s->len)
        return;
    s->len = len;
    s->data[len] = 0;
}

void mosaic_strbuf_consume(mosaic_strbuf *s, size_t n)
{
    if (n > s->len)
        n = s->len;
    if (!n)
        return;
    memmove(s->data, s->data + n, s->len - n + 1);
    s->len -= n;
}

char *mosaic_strbuf_take(mosaic_strbuf *s)
{
    char *text = s->data ? s->data : calloc(1, 1);
    s->data = NULL;
    s->len = s->cap = 0;
    s->oom = false;
    return text;
}

void mosaic_strbuf_free(mosaic_strbuf *s)
{
    free(s->data);
    s->data = NULL;
    s->len = s->cap = 0;
    s->oom = false;
}

void mosaic_strbuf_json_string(mosaic_strbuf *s, const char *text)
{
    mosaic_strbuf_puts(s, "\"");
    for (; text && *text; text++) {
        unsigned char c = (unsigned char)*text;
        if (c == '"' || c == '\\')
            mosaic_strbuf_printf(s, "\\%c", c);
        else if (c < 0x20)
            mosaic_strbuf_printf(s, "\\u%04x", c);
        else
            mosaic_strbuf_append(s, (const char *)&c, 1);
    }
    mosaic_strbuf_puts(s, "\"");
}
