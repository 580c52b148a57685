/*
 * Walking the kernel cache's folders (cache_layout.h): the eviction of the
 * cache (cache.c) and the `mosaic cache` command (src/tools/cache.c, which
 * compiles this file in) go through the same folders the same way.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/cache/cache_layout.h"

/* DIR/xx of the keys whose first byte is index, its name in hex, opened
 * without following a link; -1 when it is not there. */
static int open_folder(int root, unsigned index, char hex[3])
{
    snprintf(hex, 3, "%02x", index);
    return openat(root, hex, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

bool mc_cache_each_file(int root, mc_cache_visit_fn *fn, void *arg)
{
    bool all_private = true;
    for (unsigned d = 0; d < MC_CACHE_NUM_FOLDERS; d++) {
        char hex[3];
        int fd = open_folder(root, d, hex);
        if (fd < 0)
            continue;
        if (!mc_cache_private_dir(fd)) {
            all_private = false;
            close(fd);
            continue;
        }
        DIR *listing = fdopendir(fd);
        if (!listing) {
            close(fd);
            continue;
        }
        struct dirent *e;
        while ((e = readdir(listing))) {
            struct stat st;
            if (!fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && !S_ISDIR(st.st_mode))
                fn(fd, d, e->d_name, &st, arg);
        }
        closedir(listing); /* and fd with it */
    }
    return all_private;
}

void mc_cache_remove_empty_folders(int root)
{
    for (unsigned d = 0; d < MC_CACHE_NUM_FOLDERS; d++) {
        char hex[3];
        int fd = open_folder(root, d, hex);
        bool ours = fd >= 0 && mc_cache_private_dir(fd);
        if (fd >= 0)
            close(fd);
        if (ours)
            unlinkat(root, hex, AT_REMOVEDIR); /* only if empty */
    }
}
