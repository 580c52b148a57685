/* The front end's work directories (work_dir.c). */
#ifndef MOSAIC_COMPILER_FRONTEND_WORK_DIR_H
#define MOSAIC_COMPILER_FRONTEND_WORK_DIR_H

#include <stddef.h>

/* A new private directory TMPDIR/mosaic-<pid>-XXXXXX (TMPDIR from
 * mosaic_settings, else /tmp) in dir, and the descriptor that holds its lock
 * (to close with mc_work_dir_remove); -1 with errno if none can be made.
 * The first call of a process removes the work directories of this user's
 * processes that no longer run (killed mid-build). */
int mc_work_dir_create(char *dir, size_t size);
/* Removes a work directory and everything in it, then closes lock (if not -1). */
void mc_work_dir_remove(const char *dir, int lock);

#endif
