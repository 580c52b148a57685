/*
 * The one growable string of Mosaic: build logs, option lists and clang's
 * arguments in the compiler, the CPU device's printf output, whatever text
 * a layer assembles piece by piece.
 *
 * It lives in src/base, the bottom of the layers (docs/architecture.md): it
 * includes the C library alone and calls nothing of Mosaic, so every layer,
 * the compiler included, may use it without calling upwards.  (Keeping it in
 * the compiler and handing it to the devices through compiler.h was the
 * other way: but compiler.h is the contract for turning OpenCL C into
 * kernels, and the devices' printf would then depend on the compiler for a
 * piece of text handling.)
 *
 * A failed allocation does not stop the writer: the buffer remembers it
 * (oom) and drops everything written after it, so a series of appends needs
 * one check at the end.  data is NULL until something is written, then
 * always NUL-terminated.  Appending text that fits is inline (the CPU
 * device's printf appends on a hot path); growing is not.
 *
 *     mosaic_strbuf s = {0};
 *     mosaic_strbuf_printf(&s, "%d kernels", n);
 *     if (s.oom) ... ;
 *     char *text = mosaic_strbuf_take(&s);   (or mosaic_strbuf_free(&s))
 */
#ifndef MOSAIC_BASE_STRBUF_H
#define MOSAIC_BASE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct mosaic_strbuf {
    char *data;      /* NULL until something is written, then NUL-terminated */
    size_t len;      /* bytes of text, the NUL not counted */
    size_t cap;      /* bytes allocated at data */
    bool oom;        /* an allocation failed: what came after was dropped */
} mosaic_strbuf;

/* The part of mosaic_strbuf_append that grows the buffer. */
void mosaic_strbuf_append_slow(mosaic_strbuf *s, const char *text, size_t n);

/* Appends n bytes of text (which need not be NUL-terminated). */
static inline void mosaic_strbuf_append(mosaic_strbuf *s, const char *text, size_t n)
{
    if (!s->oom && n < s->cap - s->len) { /* room for the text and the NUL */
        memcpy(s->data + s->len, text, n);
        s->len += n;
        s->data[s->len] = 0;
        return;
    }
    mosaic_strbuf_append_slow(s, text, n);
}

static inline void mosaic_strbuf_puts(mosaic_strbuf *s, const char *text)
{
    mosaic_strbuf_append(s, text, strlen(text));
}

void mosaic_strbuf_printf(mosaic_strbuf *s, const char *format, ...) __attribute__((format(printf, 2, 3)));
void mosaic_strbuf_vprintf(mosaic_strbuf *s, const char *format, va_list ap) __attribute__((format(printf, 2, 0)));

/* Keeps the first len bytes (len <= s->len). */
/* Appends text as a JSON string: quoted, with ", \ and control characters escaped. */
void mosaic_strbuf_json_string(mosaic_strbuf *s, const char *text);
void mosaic_strbuf_truncate(mosaic_strbuf *s, size_t len);
/* Removes the first n bytes (n <= s->len): what was written out of a buffer. */
void mosaic_strbuf_consume(mosaic_strbuf *s, size_t n);

/* Hands the text over and leaves s empty: the caller frees it.  Never NULL
 * unless memory ran out: an empty string when nothing was written. */
char *mosaic_strbuf_take(mosaic_strbuf *s);
/* Frees the text and leaves s empty (oom cleared). */
void mosaic_strbuf_free(mosaic_strbuf *s);

#endif
