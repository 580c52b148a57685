/*
 * mosaic cache stats|clear: the kernel cache's directory, counted or
 * emptied (src/compiler/cache/cache.c keeps it; cache_layout.h is the layout).
 *
 * Clearing is safe while other processes use the cache, because of how the
 * cache works:
 *  - readers take no lock, and an entry removed while one reads it stays
 *    readable through its open descriptor; an entry gone is a miss, and the
 *    program is built again;
 *  - writers write a temporary file and rename it into place, so an entry is
 *    whole or absent.  A temporary file is left alone unless it is older
 *    than a writer can be (MC_CACHE_STALE_TMP_S): removing it would only
 *    make a store fail;
 *  - the eviction of the least recently used entries runs under flock on
 *    DIR/size; clearing takes that lock too, so it never races an eviction,
 *    and leaves the file empty, which makes the next store count again;
 *  - a subdirectory is removed only when empty (rmdir); a writer that had it
 *    open meanwhile fails to store (a miss next time), nothing worse.
 * Only entries and temporary files (by name, regular files, not links) are
 * removed: a MOSAIC_CACHE_DIR that names a folder with other files in it
 * keeps them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/assert.h"
#include "base/settings.h"
#include "tool.h"

static const char *const kind_suffix[MC_CACHE_NUM_KINDS] = MC_CACHE_KIND_SUFFIXES;
/* What each kind holds, for a person (docs/compiler.md, "The kernel cache"). */
static const char *const kind_what[MC_CACHE_NUM_KINDS] = {
    "built kernels (object code)", "compiled OpenCL C (front end)", "checked binaries and SPIR-V modules",
    "linked programs", "translated SPIR-V modules", "the GPU's PTX and kernel tables"};

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* The same choice as settings.c makes, with its reason. */
void cache_place_find(cache_place *place)
{
    place->dir = mosaic_settings()->cache_dir;
    const char *off = getenv("MOSAIC_CACHE"), *dir = getenv("MOSAIC_CACHE_DIR");
    if (off && !strcmp(off, "0"))
        place->why = "off: MOSAIC_CACHE=0";
    else if (dir)
        place->why = *dir ? "MOSAIC_CACHE_DIR" : "off: MOSAIC_CACHE_DIR is set and empty";
    else if (env("XDG_CACHE_HOME"))
        place->why = "$XDG_CACHE_HOME/mosaic";
    else if (env("HOME"))
        place->why = "$HOME/.cache/mosaic";
    else
        place->why = "off: neither MOSAIC_CACHE_DIR, XDG_CACHE_HOME nor HOME is set";
}

/* The cache directory, opened as Mosaic opens it, or -1 (count->exists
 * false when it is not there).  count->refused says why Mosaic would not
 * use it, if so. */
static int open_root(const char *dir, cache_count *count)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    count->exists = fd >= 0 || errno != ENOENT;
    if (fd < 0 && count->exists)
        count->refused = strerror(errno);
    else if (fd >= 0 && !mc_cache_private_dir(fd))
        count->refused = "it is not your directory, or others may write to it";
    return fd;
}

/* (mc_cache_visit_fn, cache_layout.h) */
static void count_file(int dir, unsigned index, const char *name, const struct stat *st, void *arg)
{
    (void)dir, (void)index;
    cache_count *c = arg;
    int kind;
    if (S_ISREG(st->st_mode) && mc_cache_entry_name(name, &kind)) {
        c->entries[kind]++;
        c->bytes[kind] += (uint64_t)st->st_size;
        c->total_entries++;
        c->total_bytes += (uint64_t)st->st_size;
    } else if (S_ISREG(st->st_mode) && mc_cache_tmp_name(name)) {
        c->being_written++;
    } else {
        c->others++;
    }
}

void cache_count_dir(const char *dir, cache_count *count)
{
    memset(count, 0, sizeof *count);
    if (!dir)
        return;
    int root = open_root(dir, count);
    if (root < 0)
        return;
    if (!mc_cache_each_file(root, count_file, count) && !count->refused)
        count->refused = "a subdirectory is not yours, or others may write to it";
    close(root);
}

void cache_report(out *o, const cache_place *place, const cache_count *count)
{
    out_str(o, "directory", "Directory", place->dir);
    out_str(o, "chosen_by", place->dir ? "Chosen by" : "Why none", place->why);
    const char *state = !place->dir ? "off" : count->refused ? "refused" : count->exists ? "on" : "not created yet";
    out_str(o, "state", "State", state);
    if (o->json || count->refused)
        out_str(o, "refused_because", "Refused because", count->refused);
    if (!place->dir && !o->json)
        return; /* nothing to count */
    unsigned long mb = mosaic_settings()->cache_max_mb;
    out_uint(o, "entries", "Entries", count->total_entries);
    out_bytes(o, "bytes", "Size", count->total_bytes);
    if (o->json)
        out_uint(o, "limit_bytes", NULL, (uint64_t)mb << 20);
    else if (mb)
        out_plain(o, "Limit", "%lu MiB (MOSAIC_CACHE_MAX_MB; the least recently used entries go beyond it)", mb);
    else
        out_plain(o, "Limit", "none (MOSAIC_CACHE_MAX_MB=0)");
    out_list(o, "kinds", "By kind");
    for (int k = 0; k < MC_CACHE_NUM_KINDS; k++) {
        if (o->json) {
            out_object(o, NULL, NULL);
            out_str(o, "kind", NULL, kind_suffix[k]);
            out_str(o, "holds", NULL, kind_what[k]);
            out_uint(o, "entries", NULL, count->entries[k]);
            out_uint(o, "bytes", NULL, count->bytes[k]);
            out_end(o);
        } else {
            out_text(o, ".%-4s %-38s %8llu entries %12llu bytes", kind_suffix[k], kind_what[k],
                     (unsigned long long)count->entries[k], (unsigned long long)count->bytes[k]);
        }
    }
    out_end(o);
    out_uint(o, "files_being_written", "Files being written", count->being_written);
    out_uint(o, "other_files", "Other files (left alone)", count->others);
}

/* ---- clear ---------------------------------------------------------------------------- */
typedef struct cleared {
    uint64_t entries, bytes, left_writing, left_others;
    time_t now;
} cleared;

/* (mc_cache_visit_fn) */
static void clear_file(int dir, unsigned index, const char *name, const struct stat *st, void *arg)
{
    (void)index;
    cleared *c = arg;
    if (S_ISREG(st->st_mode) && mc_cache_entry_name(name, NULL)) {
        /* gone already: another process evicted it */
        if (!unlinkat(dir, name, 0) || errno == ENOENT) {
            c->entries++;
            c->bytes += (uint64_t)st->st_size;
        } else {
            c->left_others++;
        }
    } else if (S_ISREG(st->st_mode) && mc_cache_tmp_name(name)) {
        if (c->now - st->st_mtime <= MC_CACHE_STALE_TMP_S || (unlinkat(dir, name, 0) && errno != ENOENT))
            c->left_writing++;
    } else {
        c->left_others++;
    }
}

static int clear(const cache_place *place, bool json)
{
    out o = {.json = json};
    if (!place->dir) {
        out_object(&o, NULL, json ? NULL : "Kernel cache");
        out_str(&o, "directory", "Directory", NULL);
        out_str(&o, "why_none", "Why none", place->why);
        out_uint(&o, "removed_entries", "Removed entries", 0);
        out_end(&o);
        out_finish(&o);
        return EXIT_OK;
    }
    cache_count count = {0};
    int root = open_root(place->dir, &count);
    if (root >= 0 && count.refused)
        close(root);
    if (count.refused) {
        tool_error("not clearing %s: %s", place->dir, count.refused);
        return EXIT_FAILED;
    }
    cleared c = {.now = time(NULL)};
    if (root >= 0) {
        /* the evictors' lock: no sweep runs while the entries go */
        int size = openat(root, MC_CACHE_SIZE_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
        struct stat st;
        if (size < 0 || fstat(size, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
            flock(size, LOCK_EX)) {
            tool_error("not clearing %s: cannot lock %s/%s: %s", place->dir, place->dir, MC_CACHE_SIZE_FILE,
                       size < 0 ? strerror(errno) : "not a file of yours");
            if (size >= 0)
                close(size);
            close(root);
            return EXIT_FAILED;
        }
        bool all_private = mc_cache_each_file(root, clear_file, &c);
        mc_cache_remove_empty_folders(root);
        /* empty: "not counted yet", the next store counts what is there */
        if (ftruncate(size, 0))
            tool_error("warning: cannot reset %s/%s: %s", place->dir, MC_CACHE_SIZE_FILE, strerror(errno));
        close(size); /* and the lock with it */
        close(root);
        if (!all_private)
            tool_error("warning: %s: a subdirectory is not yours, or others may write to it: left alone", place->dir);
    }
    out_object(&o, NULL, json ? NULL : "Kernel cache");
    out_str(&o, "directory", "Directory", place->dir);
    out_uint(&o, "removed_entries", "Removed entries", c.entries);
    out_bytes(&o, "removed_bytes", "Removed", c.bytes);
    out_uint(&o, "files_being_written", "Left: being written", c.left_writing);
    out_uint(&o, "other_files", "Left: not Mosaic's", c.left_others);
    out_end(&o);
    out_finish(&o);
    return EXIT_OK;
}

int cache_command(const char *action, bool json)
{
    cache_place place;
    cache_place_find(&place);
    if (!strcmp(action, "clear"))
        return clear(&place, json);
    MOSAIC_ASSERT(!strcmp(action, "stats"));
    cache_count count;
    cache_count_dir(place.dir, &count);
    out o = {.json = json};
    out_object(&o, NULL, json ? NULL : "Kernel cache");
    cache_report(&o, &place, &count);
    out_end(&o);
    out_finish(&o);
    return EXIT_OK; /* a cache Mosaic refuses is reported (State), not a failure of the command */
}
