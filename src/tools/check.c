/*
 * `mosaic check [--only KINDS] [--] PROGRAM [ARGS...]` (docs/check.md): runs
 * an OpenCL program with checking mode on (MOSAIC_CHECK, and
 * MOSAIC_CHECK_FILE pointing at a file of its own), then sums up what the
 * library reported: each problem on a line with its source line, and the
 * count of each kind.  Exit status: 1 when anything was found, else the
 * program's own (128 + the signal that ended it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/settings.h"
#include "tool.h"

static const char *const kinds[] = {
#define KIND_NAME(id, name, by_name_only, what) name,
    MOSAIC_CHECK_KINDS(KIND_NAME)
#undef KIND_NAME
};
enum { NUM_KINDS = sizeof kinds / sizeof kinds[0] };

/* Is `list` names of kinds separated by commas? */
static bool known_kinds(const char *list)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (size_t k = 0; k < NUM_KINDS && !known; k++)
            known = strlen(kinds[k]) == len && !strncmp(p, kinds[k], len);
        if (!known)
            return false;
        p += len + (p[len] == ',');
    }
    return *list != 0;
}

/* The text of JSON string field `name` in line (from its first
 * occurrence), unescaped into out; false when absent. */
static bool field(const char *line, const char *name, char *out, size_t size)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(line, key);
    if (!p || size == 0)
        return false;
    p += strlen(key);
    size_t n = 0;
    if (*p != '"') { /* a number */
        while (*p && *p != ',' && *p != '}' && n + 1 < size)
            out[n++] = *p++;
        out[n] = 0;
        return true;
    }
    for (p++; *p && *p != '"' && n + 1 < size; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            if (*p == 'u') { /* (the library escapes control characters only) */
                out[n++] = '?';
                p += 4;
                continue;
            }
        }
        out[n++] = *p;
    }
    out[n] = 0;
    return true;
}

/* Prints the summary of the problems in `path`; returns how many. */
static size_t summarise(const char *path)
{
    FILE *f = fopen(path, "r");
    size_t count[NUM_KINDS] = {0}, total = 0;
    char *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) > 0) {
        char kind[32], kernel[256], message[512], at_line[16] = "?", at_column[16] = "?", source[512] = "";
        if (!field(line, "kind", kind, sizeof kind))
            continue;
        field(line, "kernel", kernel, sizeof kernel);
        field(line, "message", message, sizeof message);
        const char *at = strstr(line, "\"at\":{");
        if (at) {
            field(at, "line", at_line, sizeof at_line);
            field(at, "column", at_column, sizeof at_column);
            const char *other = strstr(at, "\"other\":{");
            const char *src = strstr(at, "\"source\":");
            if (src && (!other || src < other))
                field(src, "source", source, sizeof source);
        }
        if (!total)
            printf("\nmosaic check: what was found\n");
        total++;
        for (size_t k = 0; k < NUM_KINDS; k++)
            if (!strcmp(kinds[k], kind))
                count[k]++;
        printf("  %-8s kernel %s, line %s:%s: %s\n", kind, kernel, at_line, at_column, message);
        if (*source)
            printf("           %s\n", source);
    }
    free(line);
    if (f)
        fclose(f);
    if (!total) {
        printf("\nmosaic check: no problem found\n");
        return 0;
    }
    printf("mosaic check: %zu problem(s):", total);
    for (size_t k = 0; k < NUM_KINDS; k++)
        if (count[k])
            printf(" %zu %s", count[k], kinds[k]);
    printf(" (the library's report of each, above, names the work-items and the memory)\n");
    return total;
}

int check_command(int argc, char **argv)
{
    const char *only = "all";
    int i = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
            if (!known_kinds(only)) {
                tool_error("--only takes some of races,barriers,bounds,uninit,scopes separated by commas, not '%s'",
                           only);
                return EXIT_USAGE;
            }
        } else {
            tool_error("check: unknown option %s (usage: mosaic check [--only KINDS] [--] PROGRAM [ARGS...])",
                       argv[i]);
            return EXIT_USAGE;
        }
    }
    if (i >= argc) {
        tool_error("check: no program (usage: mosaic check [--only KINDS] [--] PROGRAM [ARGS...])");
        return EXIT_USAGE;
    }
    const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/mosaic-check-XXXXXX", tmp);
    int fd = mkstemp(path);
    if (fd < 0) {
        tool_error("check: cannot make a file in %s: %s", tmp, strerror(errno));
        return EXIT_FAILED;
    }
    close(fd);
    pid_t child = fork();
    if (child == 0) {
        setenv("MOSAIC_CHECK", only, 1);
        setenv("MOSAIC_CHECK_FILE", path, 1);
        execvp(argv[i], argv + i);
        fprintf(stderr, "mosaic: check: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (child > 0 && waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    fflush(stderr);
    size_t found = child > 0 ? summarise(path) : 0;
    remove(path);
    if (child < 0) {
        tool_error("check: cannot start %s: %s", argv[i], strerror(errno));
        return EXIT_FAILED;
    }
    if (found)
        return EXIT_FAILED;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
