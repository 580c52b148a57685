/*
 * The kernel cache's layout on disk, shared by the cache (cache.c) and the
 * `mosaic cache` command (src/tools/cache.c), which counts and clears it
 * without linking the compiler: this header and cache_layout.c, which the
 * command compiles in.  C library only: no LLVM, no Mosaic types.
 *
 *   DIR/xx/<62 hex digits>.<kind>   an entry; xx is the key's first byte
 *   DIR/xx/<entry name>.<pid>.<thread>.tmp
 *                                   an entry being written (renamed into
 *                                   place when complete)
 *   DIR/size                        about how many bytes the entries take;
 *                                   whoever evicts or recounts holds flock
 *                                   on it
 */
#ifndef MOSAIC_COMPILER_CACHE_LAYOUT_H
#define MOSAIC_COMPILER_CACHE_LAYOUT_H

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kinds' file suffixes, in mc_cache_kind's order (cache.h). */
#define MC_CACHE_KIND_SUFFIXES {"obj", "src", "chk", "lnk", "spv", "ptx"}
enum { MC_CACHE_NUM_KINDS = 6 };

/* The folders of entries: DIR/00 to DIR/ff. */
enum { MC_CACHE_NUM_FOLDERS = 256 };

/* The file under flock while the cache is evicted or counted. */
#define MC_CACHE_SIZE_FILE "size"

/* A temporary file this old is a writer that died: whoever sweeps removes it. */
enum { MC_CACHE_STALE_TMP_S = 3600 };

/* Is `name` an entry's file name: 62 hex digits, a dot and a kind's suffix?
 * Its kind's index in *kind when it is. */
static inline bool mc_cache_entry_name(const char *name, int *kind)
{
    static const char *const suffix[MC_CACHE_NUM_KINDS] = MC_CACHE_KIND_SUFFIXES;
    if (strlen(name) != 62 + 4 || name[62] != '.')
        return false;
    for (int i = 0; i < 62; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    for (int k = 0; k < MC_CACHE_NUM_KINDS; k++)
        if (!strcmp(name + 63, suffix[k])) {
            if (kind)
                *kind = k;
            return true;
        }
    return false;
}

/* Is `name` a temporary file of a writer (mc_cache_store)? */
static inline bool mc_cache_tmp_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".tmp");
}

/* Is the directory open as fd the user's and writable by no one else?  The
 * cache uses no other (entries hold code that runs). */
static inline bool mc_cache_private_dir(int fd)
{
    struct stat st;
    return !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* ---- walking the folders (cache_layout.c) ---- */

/* Called for each file of a folder: `folder` the folder open, `index` its
 * number (DIR/%02x), `name` and `st` (not following a link) the file. */
typedef void mc_cache_visit_fn(int folder, unsigned index, const char *name, const struct stat *st, void *arg);

/* Calls fn on every file that is not a directory in the folders DIR/00 to
 * DIR/ff of the cache directory open as root, folder by folder.  A folder
 * that is not private (mc_cache_private_dir) is skipped: false when there
 * was one (Mosaic then uses no cache at all).  fn may remove the file it is
 * given. */
bool mc_cache_each_file(int root, mc_cache_visit_fn *fn, void *arg);

/* Removes the folders DIR/00 to DIR/ff that are private and empty. */
void mc_cache_remove_empty_folders(int root);

#endif
