/*
 * What the `mosaic` command prints, written once for both of its forms:
 * plain text a person reads (a label and a value a line, nested sections
 * indented) and JSON for scripts (--json).  Each value has a JSON key and a
 * plain label; in a list, keys are not used, and in plain text an object of a
 * list is a section headed by its label.  Where the plain form is a table
 * (one line per item), the caller writes JSON values when o->json and
 * out_text lines otherwise.
 *
 *   out o = {.json = json};
 *   out_object(&o, "cache", "Kernel cache");
 *   out_str(&o, "directory", "Directory", dir);
 *   out_end(&o);
 *   out_finish(&o);
 */
#ifndef MOSAIC_TOOLS_OUTPUT_H
#define MOSAIC_TOOLS_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

enum { OUT_MAX_DEPTH = 16 };

typedef struct out {
    bool json;
    int depth;                      /* containers open */
    bool list[OUT_MAX_DEPTH];       /* the container at each depth is a list */
    bool written[OUT_MAX_DEPTH];    /* JSON: it has a value already (a comma before the next) */
    bool headed[OUT_MAX_DEPTH];     /* plain: it printed a heading (its values are indented) */
} out;

/* An object (JSON {}); in plain text a section headed by label (none when
 * label is NULL: its values follow at the same indent). */
void out_object(out *o, const char *key, const char *label);
/* A list (JSON []); in plain text its items one a line under label. */
void out_list(out *o, const char *key, const char *label);
/* Ends the innermost object or list. */
void out_end(out *o);
/* Values.  A NULL string is JSON's null, "-" in plain text. */
void out_str(out *o, const char *key, const char *label, const char *value);
void out_int(out *o, const char *key, const char *label, long long value);
void out_uint(out *o, const char *key, const char *label, uint64_t value);
void out_bool(out *o, const char *key, const char *label, bool value);
/* A size in bytes: a JSON number; plain "1.5 MiB (1572864 bytes)". */
void out_bytes(out *o, const char *key, const char *label, uint64_t value);

/* Plain text only: one line at the current indent (nothing in JSON). */
void out_text(out *o, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Plain text only: a label and a value lined up with the others. */
void out_plain(out *o, const char *label, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Ends the output (JSON: the closing newline). */
void out_finish(out *o);

#endif
