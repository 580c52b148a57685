/*
 * Small blocks kept for reuse: a command's event, its NDRange arguments and
 * its job are allocated on the thread that enqueues and freed on the worker
 * that completes it.  With malloc, both threads then take the same arena
 * lock at the same moments, and a sleeping waiter costs a futex wake-up on
 * each side of every launch.  Blocks freed here go on a short list per size
 * class (a spinning lock held for a few instructions) and the next
 * allocation of that class takes one back.
 */
#ifndef MOSAIC_RECYCLE_H
#define MOSAIC_RECYCLE_H

#include <stddef.h>

/* Zeroed memory of `size` bytes (16-byte aligned), or NULL. */
void *mosaic_recycled_calloc(size_t size);
/* Frees a block of mosaic_recycled_calloc (NULL: nothing). */
void mosaic_recycle(void *block);

#endif
