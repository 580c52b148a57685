/* The environment, read once (settings.h); what is read comes from the rows of
 * settings.def. */
#define _GNU_SOURCE
#include "base/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"

#ifndef MOSAIC_CLANG_PATH
#define MOSAIC_CLANG_PATH "clang-16"
#endif
#ifndef MOSAIC_OPT_PATH
#define MOSAIC_OPT_PATH "opt-16"
#endif
#ifndef MOSAIC_LLVM_SPIRV_PATH
#define MOSAIC_LLVM_SPIRV_PATH "llvm-spirv-15"
#endif
#ifndef MOSAIC_SPIRV_VAL_PATH
#define MOSAIC_SPIRV_VAL_PATH "spirv-val"
#endif

static struct mosaic_settings current;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* The strings `current` points at that were allocated here: one at most for
 * each path and each derived field. */
enum {
    MAX_OWNED = 0
#define MOSAIC_FLAG(name, field, summary)
#define MOSAIC_NUMBER(name, field, type, fallback, min, max, below, summary)
#define MOSAIC_PATH(name, field, fallback, shown, summary) +1
#define MOSAIC_TRISTATE(name, field, shown, summary)
#define MOSAIC_CATEGORIES(name, field, list, values, summary)
#define MOSAIC_INPUT(name, values, shown, summary)
#define MOSAIC_DERIVED(field, type, function) +1
#include "base/settings.def"
};
static char *owned[MAX_OWNED];
static size_t num_owned;

static char *kept(char *s)
{
    MOSAIC_ASSERT(num_owned < MAX_OWNED);
    if (s)
        owned[num_owned++] = s;
    return s;
}

static const char *value(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static bool flag(const char *name)
{
    const char *v = value(name);
    return v && strcmp(v, "0") != 0;
}

static long number(const char *name, long fallback)
{
    const char *v = value(name);
    if (!v)
        return fallback;
    char *end;
    long n = strtol(v, &end, 0);
    return *end ? fallback : n;
}

static const char *path(const char *name, const char *fallback)
{
    const char *v = value(name);
    const char *copy = v ? kept(strdup(v)) : NULL;
    return copy ? copy : fallback;
}

/* A set of categories (settings.def, MOSAIC_CATEGORIES): known[i] is bit i. */
typedef struct category {
    const char *name;
    bool by_name_only;
} category;
#define CATEGORY_ROW(id, text, by_name_only, what) {text, by_name_only},

/* The names of a comma-separated list, or `all`; anything else that is set,
 * not empty and not "0" (`1`, `yes`, a misspelt name): every category not
 * asked for by name only. */
static unsigned categories(const char *name, const category *known, size_t num_known)
{
    if (!flag(name))
        return 0;
    unsigned set = 0, all = 0, usual = 0;
    for (size_t i = 0; i < num_known; i++) {
        all |= 1u << i;
        usual |= known[i].by_name_only ? 0 : 1u << i;
    }
    for (const char *p = value(name); *p;) {
        size_t len = strcspn(p, ",");
        unsigned bit = len == 3 && !strncmp(p, "all", 3) ? all : 0;
        for (size_t i = 0; i < num_known && !bit; i++)
            if (strlen(known[i].name) == len && !strncmp(p, known[i].name, len))
                bit = 1u << i;
        if (!bit) /* not a list of categories */
            return usual;
        set |= bit;
        p += len + (p[len] == ',');
    }
    return set;
}

static char *joined(const char *a, const char *b)
{
    char *s;
    return asprintf(&s, "%s%s", a, b) < 0 ? NULL : s;
}

/* Where built kernels are cached, NULL for no cache:
 *   MOSAIC_CACHE=0                 no cache
 *   MOSAIC_CACHE_DIR=path          there; set but empty: no cache
 *   else $XDG_CACHE_HOME/mosaic (when set and not empty),
 *   else $HOME/.cache/mosaic (when set and not empty), else no cache. */
static const char *cache_directory(void)
{
    const char *off = getenv("MOSAIC_CACHE"), *dir = getenv("MOSAIC_CACHE_DIR");
    const char *xdg = value("XDG_CACHE_HOME"), *home = value("HOME");
    if (off && !strcmp(off, "0"))
        return NULL;
    if (dir) /* set but empty: no cache */
        return *dir ? kept(strdup(dir)) : NULL;
    if (xdg)
        return kept(joined(xdg, "/mosaic"));
    if (home)
        return kept(joined(home, "/.cache/mosaic"));
    return NULL;
}

static void load(void)
{
    struct mosaic_settings s = { 0 };
#define MOSAIC_FLAG(name, field, summary) s.field = flag(name);
#define MOSAIC_NUMBER(name, field, type, fallback, min, max, below, summary)                       \
    {                                                                                              \
        long n = number(name, fallback);                                                           \
        s.field = (type)(n < (min) ? (below) : n > (max) ? (max) : n);                             \
    }
#define MOSAIC_PATH(name, field, fallback, shown, summary) s.field = path(name, fallback);
#define MOSAIC_TRISTATE(name, field, shown, summary) s.field = value(name) ? flag(name) : -1;
#define MOSAIC_CATEGORIES(name, field, list, values, summary)                                        \
    {                                                                                              \
        static const category known[] = {list(CATEGORY_ROW)};                                      \
        s.field = categories(name, known, sizeof known / sizeof known[0]);                         \
    }
#define MOSAIC_INPUT(name, values, shown, summary)
#define MOSAIC_DERIVED(field, type, function) s.field = function();
#include "base/settings.def"
    current = s;
}

const struct mosaic_settings *mosaic_settings(void)
{
    pthread_once(&loaded, load);
    return &current;
}

void mosaic_settings_reload(void)
{
    pthread_once(&loaded, load);
    for (size_t i = 0; i < num_owned; i++)
        free(owned[i]);
    num_owned = 0;
    load();
}

bool mosaic_debugging(unsigned categories)
{
    return (mosaic_settings()->debug & categories) != 0;
}
