/* The `mosaic` command: its arguments, and which command runs (tool.h;
 * docs/mosaic-command.md is its manual). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

static const char usage_text[] =
    "usage: mosaic [--json] COMMAND\n"
    "  info                 the platform, its devices (versions, extensions, OpenCL C\n"
    "                       features), the kernel cache, every setting in force and the\n"
    "                       programs a build runs\n"
    "  cache stats          where the kernel cache is, its entries and size\n"
    "  cache clear          removes the cache's entries (safe while programs use it)\n"
    "  check [--only KINDS] [--] PROGRAM [ARGS...]\n"
    "                       runs an OpenCL program with checking mode on (data races,\n"
    "                       divergent barriers, out-of-bounds and uninitialised reads,\n"
    "                       atomics' scopes) and sums up what was found; KINDS: some of\n"
    "                       races,barriers,bounds,uninit,scopes (default: all)\n"
    "  bench [--quick] [OPTIONS]\n"
    "                       runs the benchmark runner: full sizes, or --quick ones; OPTIONS\n"
    "                       are the runner's (mosaic bench --help lists them)\n"
    "  --json               info and cache: JSON for scripts instead of text\n"
    "  --help, --version\n"
    "Exit status: 0 done, 1 failed, 2 bad usage (bench: the runner's, 1 if a result was wrong;\n"
    "check: 1 if a problem was found, else the program's).\n"
    "The manual: docs/mosaic-command.md (installed in share/doc/mosaic/docs).\n";

void tool_error(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fputs("mosaic: ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int bad_usage(const char *format, const char *what)
{
    fputs("mosaic: ", stderr);
    fprintf(stderr, format, what);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    bool json = false;
    const char *command = NULL, *action = NULL;
    int i = 1;
    for (; i < argc && !command; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--version")) {
            printf("mosaic %s\n", MOSAIC_VERSION_STRING);
            return EXIT_OK;
        } else if (argv[i][0] == '-') {
            return bad_usage("unknown option %s", argv[i]);
        } else {
            command = argv[i];
        }
    }
    if (!command)
        return bad_usage("%s", "no command");

    if (!strcmp(command, "check")) {
        if (json)
            return bad_usage("%s", "check has no --json: MOSAIC_CHECK_FILE gives the library's JSON lines");
        return check_command(argc - i, argv + i);
    }
    if (!strcmp(command, "bench")) {
        if (json)
            return bad_usage("%s", "bench has no --json: the runner writes its results as CSV (--csv FILE)");
        return bench_command(argc - i, argv + i);
    }
    if (strcmp(command, "info") && strcmp(command, "cache"))
        return bad_usage("unknown command %s", command);

    /* info and cache take --json, --help and (cache) one action */
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else if (!strcmp(command, "cache") && !action && argv[i][0] != '-')
            action = argv[i];
        else
            return bad_usage("unexpected argument %s", argv[i]);
    }
    if (!strcmp(command, "info"))
        return info_command(json);
    if (!action)
        return bad_usage("%s", "cache needs stats or clear");
    if (strcmp(action, "stats") && strcmp(action, "clear"))
        return bad_usage("cache stats or cache clear, not cache %s", action);
    return cache_command(action, json);
}
