/*
 * mosaic bench [--quick] [runner options]: runs the benchmark runner
 * (bench/runner/), which times every benchmark on every OpenCL CPU platform
 * the ICD loader lists, beside C + OpenMP and the machine's roofs.
 *
 * The runner is found from where this command is:
 *  - installed: BINDIR/MOSAIC_LIBEXEC_FROM_BINDIR/mosaic/bench_runner
 *    (CMakeLists.txt works out the relative path from the install dirs);
 *  - in the build folder (build/mosaic): build/bench/bench_runner, run as
 *    `make bench` runs it, with OCL_ICD_VENDORS=build/bench/vendors unless
 *    the caller set it (this build's Mosaic beside the system's platforms).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

#ifndef MOSAIC_LIBEXEC_FROM_BINDIR
#define MOSAIC_LIBEXEC_FROM_BINDIR "../libexec"
#endif

/* The runner's path in path (PATH_MAX); *build_tree when it is the build
 * folder's.  false if there is none. */
static bool find_runner(char *path, bool *build_tree)
{
    char self[PATH_MAX - 64]; /* room for the runner's path below it */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return false;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = 0;
    snprintf(path, PATH_MAX, "%s/%s/mosaic/bench_runner", self, MOSAIC_LIBEXEC_FROM_BINDIR);
    *build_tree = false;
    if (!access(path, X_OK))
        return true;
    snprintf(path, PATH_MAX, "%s/bench/bench_runner", self);
    *build_tree = true;
    return !access(path, X_OK);
}

int bench_command(int argc, char **argv)
{
    char runner[PATH_MAX];
    bool build_tree;
    /* the runner's arguments: its own name, the size, the caller's others */
    char **args = calloc((size_t)argc + 4, sizeof *args);
    int n = 1;
    const char *size = "full";
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            size = "quick";
        } else if (!strcmp(argv[i], "--json")) {
            tool_error("bench has no --json: the runner writes its results as CSV (--csv FILE)");
            free(args);
            return EXIT_USAGE;
        }
    }
    if (!args || !find_runner(runner, &build_tree)) {
        tool_error("the benchmark runner is not installed beside this command "
                   "(looked for BINDIR/%s/mosaic/bench_runner and ./bench/bench_runner)",
                   MOSAIC_LIBEXEC_FROM_BINDIR);
        free(args);
        return EXIT_FAILED;
    }
    args[0] = runner;
    args[n++] = "--size";
    args[n++] = (char *)size;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--quick"))
            args[n++] = argv[i];
    args[n] = NULL;
    if (build_tree && !getenv("OCL_ICD_VENDORS")) {
        char vendors[PATH_MAX + 16];
        snprintf(vendors, sizeof vendors, "%.*s/vendors", (int)(strrchr(runner, '/') - runner), runner);
        setenv("OCL_ICD_VENDORS", vendors, 1);
    }
    fflush(stdout);
    execv(runner, args);
    tool_error("cannot run %s: %s", runner, strerror(errno));
    free(args);
    return EXIT_FAILED;
}
