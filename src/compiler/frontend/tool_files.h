/*
 * The files a tool (clang, the SPIR-V translator and validator) is made of
 * (tool_files.c): what a cache entry made by the tool records, so that an
 * updated tool never reads an old entry.
 */
#ifndef MOSAIC_COMPILER_FRONTEND_TOOL_FILES_H
#define MOSAIC_COMPILER_FRONTEND_TOOL_FILES_H

#include <stddef.h>

#include "base/strbuf.h"

/* Appends the records of the files tool (a path, or a name PATH finds) is
 * made of: its executable and the libraries the dynamic loader gives it,
 * each with its stat identity; how many (0, nothing appended: it cannot be
 * found, nothing may be cached for it). */
size_t mc_tool_files(const char *tool, mosaic_strbuf *records);
/* Reads records at p: where they end when every file is as recorded; NULL
 * when one changed, is gone, or the records are damaged. */
const char *mc_tool_files_unchanged(const char *p, const char *end);

#endif
