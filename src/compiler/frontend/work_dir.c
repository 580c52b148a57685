/* The front end's private work directories, and the ones a killed process
 * left behind.
 *
 * A host process killed mid-build (SIGKILL) cannot remove its work
 * directory, and its clang dies with it (child.c).  So each directory,
 * TMPDIR/mosaic-<pid>-XXXXXX, holds a file `lock` that the process making it
 * keeps locked (flock) while it builds, and the first build of every later
 * process removes the directories of this user whose lock it can take: the
 * kernel released it when their process died, whatever pid namespace that
 * process was in.  A directory without the file (its process died between
 * mkdtemp and the lock) goes when no process has the pid in its name and it
 * is older than LOCKLESS_AGE_S: a process of another pid namespace sharing
 * TMPDIR (no process here has its pid) may be between the two, and removing
 * its new directory then failed its build ("cannot create a temporary
 * directory: No such file or directory", seen in the CTS's test_vectors
 * while other programs built beside it). */
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
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/settings.h"
#include "compiler/frontend/work_dir.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void mc_work_dir_remove(const char *dir, int lock)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (lock >= 0)
        close(lock); /* after: no other process removes it meanwhile */
}

enum { LOCKLESS_AGE_S = 600 };

/* Is the work directory at dir (this user's, st its status) one whose process is gone? */
static bool abandoned(int dir, const char *name, pid_t pid, const struct stat *st)
{
    char path[300];
    snprintf(path, sizeof path, "%s/lock", name);
    int fd = openat(dir, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT && kill(pid, 0) != 0 && errno == ESRCH &&
               time(NULL) - st->st_mtime > LOCKLESS_AGE_S;
    bool gone = !flock(fd, LOCK_EX | LOCK_NB);
    close(fd); /* and the lock with it */
    return gone;
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
        if (!pid || pid == getpid())
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid() || !abandoned(dirfd(d), e->d_name, pid, &st))
            continue;
        char path[4400];
        if (snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) < (int)sizeof path)
            mc_work_dir_remove(path, -1);
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

/* dir/lock, created and locked: its descriptor, or -1.  It is locked
 * under another name and then renamed: a sweep that found `lock` between
 * its creation and its locking took the lock itself and removed the new
 * directory ("cannot create a temporary directory: No such file or
 * directory" at its include/, test builds_beside_fork beside other
 * processes' first builds). */
static int lock_dir(const char *dir)
{
    char path[4200], locked_path[4200];
    snprintf(path, sizeof path, "%s/lock.new", dir);
    snprintf(locked_path, sizeof locked_path, "%s/lock", dir);
    int fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 && (flock(fd, LOCK_EX) || rename(path, locked_path))) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        int err = errno;
        mc_work_dir_remove(dir, -1);
        errno = err;
    }
    return fd;
}

int mc_work_dir_create(char *dir, size_t size)
{
    pthread_once(&swept, sweep_once);
    if (snprintf(dir, size, "%s/mosaic-%d-XXXXXX", mosaic_settings()->tmpdir, (int)getpid()) < (int)size &&
        mkdtemp(dir))
        return lock_dir(dir);
    if (snprintf(dir, size, "/tmp/mosaic-%d-XXXXXX", (int)getpid()) < (int)size && mkdtemp(dir))
        return lock_dir(dir);
    return -1;
}
