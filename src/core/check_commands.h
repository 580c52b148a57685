/*
 * Checking mode's races between commands (docs/check.md): two commands that
 * use the same bytes of a buffer, one of them writing, running at the same
 * time.  A command that starts while another that uses its bytes is
 * running follows nothing that orders the two: its dependencies are all
 * complete, and the other started before it ended.  (Two commands that
 * merely did not overlap in time are not reported, ordered or not; nor
 * are two kernels, which may order their accesses with atomics, nor
 * pipes.)
 */
#ifndef MOSAIC_CORE_CHECK_COMMANDS_H
#define MOSAIC_CORE_CHECK_COMMANDS_H

#include "core/objects.h"

/* Called by the engine as a command starts (its dependencies complete),
 * under checking: reports each running command it conflicts with, then
 * counts it running. */
void mosaic_check_commands_start(cl_event command);
/* ... and as it completes, before the commands that wait for it start. */
void mosaic_check_commands_end(cl_event command);

#endif
