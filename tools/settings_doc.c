/*
 * settings_doc: the settings tables of README.md and docs/settings.md, made
 * from src/base/settings.def, the one list of Mosaic's settings.
 *
 *   settings_doc check README.md docs/settings.md
 *   settings_doc write README.md docs/settings.md
 *
 * Each file holds its table between two marker lines:
 *
 *   <!-- settings: made from src/base/settings.def ... -->
 *   ...
 *   <!-- settings end -->
 *
 * `check` (the ctest test settings_doc) exits 1, naming the first line that
 * differs, when a table is not what settings.def gives, and when
 * docs/settings.md does not have exactly one section `### NAME` for each
 * variable (the tables link to them) or has one for a variable that
 * settings.def does not list.  `write` puts the tables made in place of the
 * committed ones (the target settings_doc_write).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { FLAG, NUMBER, PATH, TRISTATE, CATEGORIES, INPUT };

struct row {
    enum kind kind;
    const char *name, *values, *shown, *summary;
    long fallback, min, max, below; /* numbers only */
};

static const struct row rows[] = {
#define MOSAIC_FLAG(name, field, summary) {FLAG, name, "flag", "off", summary, 0, 0, 0, 0},
#define MOSAIC_NUMBER(name, field, type, fallback, min, max, below, summary)                       \
    {NUMBER, name, NULL, NULL, summary, fallback, min, max, below},
#define MOSAIC_PATH(name, field, fallback, shown, summary) {PATH, name, "path", shown, summary, 0, 0, 0, 0},
#define MOSAIC_TRISTATE(name, field, shown, summary)                                               \
    {TRISTATE, name, "`0`, `1` or unset", shown, summary, 0, 0, 0, 0},
#define MOSAIC_CATEGORIES(name, field, list, values, summary) {CATEGORIES, name, values, "off", summary, 0, 0, 0, 0},
#define MOSAIC_INPUT(name, values, shown, summary) {INPUT, name, values, shown, summary, 0, 0, 0, 0},
#define MOSAIC_DERIVED(field, type, function)
#include "base/settings.def"
};
enum { NUM_ROWS = sizeof rows / sizeof rows[0] };

static const char begin_marker[] = "<!-- settings: made from src/base/settings.def";
static const char end_marker[] = "<!-- settings end -->";

/* The anchor GitHub gives a heading `### NAME`: lower case (names hold
 * letters, digits and '_' only, which anchors keep). */
static const char *anchor(const char *name)
{
    static char buf[64];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof buf; i++)
        buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    buf[i] = 0;
    return buf;
}

static void default_of(const struct row *r, char *out, size_t size)
{
    if (r->kind == NUMBER)
        snprintf(out, size, "%ld", r->fallback);
    else
        snprintf(out, size, "%s", r->shown);
}

static void values_of(const struct row *r, char *out, size_t size)
{
    if (r->kind == NUMBER)
        snprintf(out, size, "number, %ld to %ld (less: %ld)", r->min, r->max, r->below);
    else
        snprintf(out, size, "%s", r->values);
}

/* The README's table: one line a variable, linked to its section. */
static char *readme_table(void)
{
    char *text;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    fprintf(f, "| variable | default | what it does |\n| --- | --- | --- |\n");
    for (size_t i = 0; i < NUM_ROWS; i++) {
        char def[128];
        default_of(&rows[i], def, sizeof def);
        fprintf(f, "| [`%s`](docs/settings.md#%s) | %s | %s |\n", rows[i].name, anchor(rows[i].name),
                def, rows[i].summary);
    }
    fclose(f);
    return text;
}

/* docs/settings.md's table: what each variable takes, linked to its section below. */
static char *reference_table(void)
{
    char *text;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    fprintf(f, "| variable | takes | default | what it does |\n| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < NUM_ROWS; i++) {
        char def[128], values[256];
        default_of(&rows[i], def, sizeof def);
        values_of(&rows[i], values, sizeof values);
        fprintf(f, "| [`%s`](#%s) | %s | %s | %s |\n", rows[i].name, anchor(rows[i].name), values, def,
                rows[i].summary);
    }
    fclose(f);
    return text;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return NULL;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, out);
    fclose(f);
    fclose(out);
    return text;
}

/* Where the table lies in `text`: from the line after the begin marker to
 * the end marker's line.  False, with a message, without both markers. */
static bool find_table(const char *path, const char *text, const char **start, const char **end)
{
    const char *b = strstr(text, begin_marker);
    if (!b || (b != text && b[-1] != '\n')) {
        fprintf(stderr, "%s: no line starting \"%s\"\n", path, begin_marker);
        return false;
    }
    const char *eol = strchr(b, '\n');
    const char *e = eol ? strstr(eol, end_marker) : NULL;
    if (!e || e[-1] != '\n') {
        fprintf(stderr, "%s: no line \"%s\" after the table\n", path, end_marker);
        return false;
    }
    *start = eol + 1;
    *end = e;
    return true;
}

static int line_number(const char *text, const char *at)
{
    int n = 1;
    for (const char *p = text; p < at; p++)
        n += *p == '\n';
    return n;
}

/* Compares the committed table with the one made; names the first line
 * that differs. */
static bool same_table(const char *path, const char *text, const char *start, const char *end,
                       const char *made)
{
    const char *c = start, *m = made;
    while (c < end && *m) {
        const char *ce = memchr(c, '\n', (size_t)(end - c)), *me = strchr(m, '\n');
        size_t cl = ce ? (size_t)(ce - c) : (size_t)(end - c), ml = me ? (size_t)(me - m) : strlen(m);
        if (cl != ml || memcmp(c, m, cl)) {
            fprintf(stderr, "%s:%d: the settings table differs from src/base/settings.def:\n"
                            "  committed: %.*s\n  made:      %.*s\n",
                    path, line_number(text, c), (int)cl, c, (int)ml, m);
            return false;
        }
        c += cl + (ce ? 1 : 0);
        m += ml + (me ? 1 : 0);
    }
    if (c < end || *m) {
        fprintf(stderr, "%s:%d: the settings table has %s lines than src/base/settings.def gives\n",
                path, line_number(text, c), c < end ? "more" : "fewer");
        return false;
    }
    return true;
}

/* docs/settings.md: exactly one `### NAME` for each variable, and no
 * `### ` heading for anything else. */
static bool sections_match(const char *path, const char *text)
{
    bool ok = true;
    int seen[NUM_ROWS] = {0};
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len > 4 && !strncmp(line, "### ", 4)) {
            size_t i = 0;
            while (i < NUM_ROWS && (strlen(rows[i].name) != len - 4 || strncmp(rows[i].name, line + 4, len - 4)))
                i++;
            if (i == NUM_ROWS) {
                fprintf(stderr, "%s:%d: section \"%.*s\" names no variable of src/base/settings.def "
                                "(a section of another kind is a \"## \" heading)\n",
                        path, line_number(text, line), (int)len, line);
                ok = false;
            } else if (seen[i]++) {
                fprintf(stderr, "%s:%d: a second section for %s\n", path, line_number(text, line),
                        rows[i].name);
                ok = false;
            }
        }
        line += len + (eol ? 1 : 0);
    }
    for (size_t i = 0; i < NUM_ROWS; i++)
        if (!seen[i]) {
            fprintf(stderr, "%s: no section \"### %s\" (src/base/settings.def lists it)\n", path, rows[i].name);
            ok = false;
        }
    return ok;
}

static bool write_table(const char *path, const char *text, const char *start, const char *end,
                        const char *made)
{
    char *tmp;
    if (asprintf(&tmp, "%s.new", path) < 0)
        return false;
    FILE *f = fopen(tmp, "w");
    bool ok = f && fwrite(text, 1, (size_t)(start - text), f) == (size_t)(start - text) &&
              fputs(made, f) >= 0 && fputs(end, f) >= 0;
    if (f && fclose(f))
        ok = false;
    if (!ok || rename(tmp, path)) {
        perror(tmp);
        ok = false;
    }
    free(tmp);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "check") && strcmp(argv[1], "write"))) {
        fprintf(stderr, "usage: %s check|write README.md docs/settings.md\n", argv[0]);
        return 2;
    }
    bool write = !strcmp(argv[1], "write"), ok = true;
    for (int i = 2; i < 4; i++) {
        char *text = read_file(argv[i]);
        const char *start, *end;
        if (!text || !find_table(argv[i], text, &start, &end)) {
            free(text);
            return 1;
        }
        char *made = i == 2 ? readme_table() : reference_table();
        if (write)
            ok = write_table(argv[i], text, start, end, made) && ok;
        else
            ok = same_table(argv[i], text, start, end, made) && ok;
        if (i == 3 && !sections_match(argv[i], text))
            ok = false;
        free(made);
        free(text);
    }
    if (!ok && !write)
        fprintf(stderr, "Change src/base/settings.def, not the tables; then "
                        "`cmake --build build --target settings_doc_write` writes them again.\n");
    return ok ? 0 : 1;
}
