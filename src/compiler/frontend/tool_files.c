/*
 * What a tool of the compiler is made of, for the cache: the SPIR-V
 * translator and validator (spirv.c) are child processes whose answers are
 * kept (spirv_cache.c), and an answer is only good for the same tool.
 *
 * A tool is its executable (PATH searched as the child is started) and the
 * shared libraries the dynamic loader gives it (`ld.so --list`, run once per
 * tool and process: llvm-spirv-15's translation is in libLLVMSPIRVLib.so.15
 * and libLLVM-15.so.1, which Debian upgrades apart from it).  Each file is
 * recorded with what stat(2) says of it (device, inode, size, modification
 * time): a package upgrade installs new files (new inodes), and an edit in
 * place changes the time or the size.  The records are taken before the
 * tool runs, so a file replaced while it ran does not match later.  A tool
 * that is no dynamic executable (a script) is its own file only.
 *
 * As with clang in the front end's cache, the setting naming the tool is
 * not part of the key: a lookup compares the files recorded with the files
 * as they are now, so a hit needs no tool at all (MOSAIC_LLVM_SPIRV set to a
 * program that fails still builds what the cache has).
 *
 * Records: u32 n; n x { u32 length, path, u64 device, inode, size,
 * modification seconds, nanoseconds }.
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/frontend/child.h"
#include "compiler/frontend/tool_files.h"

#define IDENTITY_BYTES 40 /* device, inode, size, seconds, nanoseconds */

static void identity_of(const struct stat *st, uint8_t out[IDENTITY_BYTES])
{
    uint64_t v[5] = {(uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size,
                     (uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec};
    memcpy(out, v, sizeof v);
}

/* The tool as the child's start finds it: a name without '/' in PATH. */
static char *find_tool(const char *tool)
{
    if (strchr(tool, '/'))
        return realpath(tool, NULL);
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin";
    for (const char *d = dirs;; d++) {
        size_t n = strcspn(d, ":");
        char *candidate = NULL;
        struct stat st;
        if (asprintf(&candidate, "%.*s%s%s", (int)n, d, n ? "/" : "", tool) < 0)
            return NULL;
        if (!stat(candidate, &st) && S_ISREG(st.st_mode) && !access(candidate, X_OK)) {
            char *real = realpath(candidate, NULL);
            free(candidate);
            return real;
        }
        free(candidate);
        d += n;
        if (!*d)
            return NULL;
    }
}

/* ---- the dynamic loader's list ---------------------------------------------------------- */
static int find_interpreter(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_INTERP) {
            *(const char **)data = (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            return 1;
        }
    return 1; /* the first object is the program: no interpreter, a static program */
}

/* The libraries `ld.so --list path` names, as absolute paths, one per line
 * into files (nothing when it cannot say: not a dynamic executable). */
static void list_libraries(const char *path, mosaic_strbuf *files)
{
    const char *interp = NULL;
    dl_iterate_phdr(find_interpreter, &interp);
    if (!interp || interp[0] != '/')
        return;
    const char *argv[] = {interp, "--list", path, NULL};
    mc_child c = {.stdin_fd = -1, .timeout_ms = 30000, .max_memory = (uint64_t)1 << 30};
    mosaic_strbuf out = {0};
    mc_run_child(argv, &c, &out);
    if ((c.end == MC_CHILD_EXITED && c.code == 0) || c.end == MC_CHILD_UNKNOWN) {
        /* "\tname => /path (0x...)" or "\t/path (0x...)"; the vDSO has no path */
        for (const char *p = out.data ? out.data : ""; *p;) {
            size_t n = strcspn(p, "\n");
            const char *arrow = memmem(p, n, "=> ", 3);
            const char *start = arrow ? arrow + 3 : p + strspn(p, " \t");
            const char *end = memmem(start, (size_t)(p + n - start), " (", 2);
            if (*start == '/' && end) {
                mosaic_strbuf_append(files, start, (size_t)(end - start));
                mosaic_strbuf_append(files, "\n", 1);
            }
            p += n + (p[n] == '\n');
        }
    }
    mosaic_strbuf_free(&out);
}

/* ---- the files of each tool, once per process ------------------------------------------ */
typedef struct known_tool {
    char *name;  /* the setting */
    char *files; /* its files, one absolute path a line; NULL: not found */
} known_tool;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;
static known_tool known[4];
static size_t num_known;

/* The tool's file names ("path\n" each, the executable first; malloc'd), or NULL. */
static char *tool_file_names(const char *tool)
{
    pthread_mutex_lock(&known_lock);
    for (size_t i = 0; i < num_known; i++)
        if (!strcmp(known[i].name, tool)) {
            char *copy = known[i].files ? strdup(known[i].files) : NULL;
            pthread_mutex_unlock(&known_lock);
            return copy;
        }
    pthread_mutex_unlock(&known_lock);
    /* (two threads may both list a new tool: the same answer) */
    char *path = find_tool(tool);
    mosaic_strbuf files = {0};
    if (path) {
        mosaic_strbuf_printf(&files, "%s\n", path);
        list_libraries(path, &files);
    }
    free(path);
    char *names = files.oom ? NULL : mosaic_strbuf_take(&files);
    mosaic_strbuf_free(&files);
    pthread_mutex_lock(&known_lock);
    if (names && num_known < sizeof known / sizeof known[0]) {
        char *name = strdup(tool), *copy = strdup(names);
        if (name && copy)
            known[num_known++] = (known_tool){name, copy};
        else
            free(name), free(copy);
    }
    pthread_mutex_unlock(&known_lock);
    return names;
}

static void put_u32(mosaic_strbuf *s, uint32_t v) { mosaic_strbuf_append(s, (const char *)&v, 4); }

size_t mc_tool_files(const char *tool, mosaic_strbuf *records)
{
    char *names = tool ? tool_file_names(tool) : NULL;
    size_t n = 0;
    mosaic_strbuf body = {0};
    for (char *p = names, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = 0;
        struct stat st;
        uint8_t id[IDENTITY_BYTES];
        if (stat(p, &st) || !S_ISREG(st.st_mode)) {
            n = 0; /* a file gone meanwhile: no identity to record */
            break;
        }
        identity_of(&st, id);
        put_u32(&body, (uint32_t)(nl - p));
        mosaic_strbuf_append(&body, p, (size_t)(nl - p));
        mosaic_strbuf_append(&body, (const char *)id, sizeof id);
        n++;
    }
    free(names);
    if (n && !body.oom) {
        put_u32(records, (uint32_t)n);
        mosaic_strbuf_append(records, body.data, body.len);
    } else {
        n = 0;
    }
    mosaic_strbuf_free(&body);
    return n;
}

const char *mc_tool_files_unchanged(const char *p, const char *end)
{
    uint32_t n, len;
    if (end - p < 4)
        return NULL;
    memcpy(&n, p, 4);
    p += 4;
    if (!n)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        char path[4096];
        if (end - p < 4)
            return NULL;
        memcpy(&len, p, 4);
        p += 4;
        if (!len || len >= sizeof path || (size_t)(end - p) < (size_t)len + IDENTITY_BYTES)
            return NULL;
        memcpy(path, p, len);
        path[len] = 0;
        p += len;
        struct stat st;
        uint8_t now[IDENTITY_BYTES];
        if (stat(path, &st) || !S_ISREG(st.st_mode))
            return NULL;
        identity_of(&st, now);
        if (memcmp(now, p, IDENTITY_BYTES))
            return NULL;
        p += IDENTITY_BYTES;
    }
    return p;
}
