/* Fibers: work-items of a kernel with barriers run as cooperative fibers on
 * one worker thread; a barrier switches to the next work-item. */
#ifndef MOSAIC_FIBER_H
#define MOSAIC_FIBER_H

/* Saves the current stack pointer in *save and continues on `load`. */
void mosaic_fiber_switch(void **save, void *load);

/* Prepares a stack so that switching to the returned pointer calls
 * entry(arg) on it.  `entry` must never return. */
void *mosaic_fiber_prepare(void *stack_top, void (*entry)(void *), void *arg);

#endif
