/* The front end's private work directories, and the ones a killed process
 * left behind.
 *
 * A host process killed mid-build (SIGKILL) cannot remove its work
 * directory, and its clang dies with it (child.c).  So each directory is
 * named after the process that made it, TMPDIR/mosaic-<pid>-XXXXXX, and the
 * first build of every later process removes those of this user whose
 * process no longer exists.  (A pid the system gave again to a live process
 * keeps its directory until that process is gone too.) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/compiler_internal.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void mc_work_dir_remove(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The pid in a work directory's name, or 0 when it is not one. */
static pid_t owner_pid(const char *name)
{
    if (strncmp(name, "mosaic-", 7))
        return 0;
    char *end;
    long pid = strtol(name + 7, &end, 10);
    if (end == name + 7 || pid <= 0 || pid > 0x7fffffff || *end != '-' || strlen(end + 1) != 6)
        return 0;
    return (pid_t)pid;
}

/* Removes this user's work directories in tmp whose process is gone. */
static void sweep(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        pid_t pid = owner_pid(e->d_name);
        struct stat st;
        if (!pid || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
            continue;
        char path[4400];
        if (snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) < (int)sizeof path)
            mc_work_dir_remove(path);
    }
    closedir(d);
}

static pthread_once_t swept = PTHREAD_ONCE_INIT;

static void sweep_once(void)
{
    sweep(mosaic_settings()->tmpdir);
    if (strcmp(mosaic_settings()->tmpdir, "/tmp"))
        sweep("/tmp"); /* the fallback below */
}

int mc_work_dir_create(char *dir, size_t size)
{
    pthread_once(&swept, sweep_once);
    if (snprintf(dir, size, "%s/mosaic-%d-XXXXXX", mosaic_settings()->tmpdir, (int)getpid()) < (int)size &&
        mkdtemp(dir))
        return 0;
    if (snprintf(dir, size, "/tmp/mosaic-%d-XXXXXX", (int)getpid()) < (int)size && mkdtemp(dir))
        return 0;
    return -1;
}
