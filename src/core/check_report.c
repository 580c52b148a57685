/* Checking mode's reports (check_report.h, docs/check.md). */
#define _GNU_SOURCE
#include "core/check_report.h"
#include "base/settings.h"
#include "base/strbuf.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The problems reported: a hash of each one's program, kind, kernel and
 * sites (open addressing; 0 is empty).  Past MOST_KEPT distinct problems,
 * later ones are no longer reported. */
#define MOST_KEPT 4096
static uint64_t seen[2 * MOST_KEPT];
static size_t num_seen;

static const char *kind_name(unsigned kind)
{
#define KIND_NAME(id, name, by_name_only, what)                                                                       \
    if (kind == MOSAIC_CHECK_##id)                                                                                    \
        return name;
    MOSAIC_CHECK_KINDS(KIND_NAME)
#undef KIND_NAME
    return "problem";
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = mix(h, (unsigned char)*s);
    return h;
}

/* A site by its address (a site is a constant of one program's code, and
 * every program's source reaches clang as the same file) and its line. */
static uint64_t hash_site(uint64_t h, const mosaic_check_site *s)
{
    if (!s)
        return mix(h, 1);
    return mix(mix(mix(h, (uint64_t)(uintptr_t)s), s->line), s->column);
}

/* Is this problem new (and now remembered)? */
static bool first_time(const mosaic_check_problem *p)
{
    uint64_t h = mix(hash_text(mix(p->program, p->kind), p->kernel), p->access.how & (MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE));
    h = hash_site(hash_site(h, p->access.site), p->other.site);
    if (p->between_commands)
        h = hash_text(hash_text(h, p->what), p->object);
    h |= 1;
    if (num_seen >= MOST_KEPT)
        return false;
    size_t i = h % (2 * MOST_KEPT);
    while (seen[i]) {
        if (seen[i] == h)
            return false;
        i = (i + 1) % (2 * MOST_KEPT);
    }
    seen[i] = h;
    num_seen++;
    return true;
}

static const char *access_name(uint64_t how)
{
    bool atomic = how & MOSAIC_CHECK_ATOMIC;
    switch (how & (MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE)) {
    case MOSAIC_CHECK_READ: return atomic ? "atomic read" : "read";
    case MOSAIC_CHECK_WRITE: return atomic ? "atomic write" : "write";
    case MOSAIC_CHECK_READ | MOSAIC_CHECK_WRITE: return "atomic read-modify-write";
    default: return "barrier";
    }
}

static const char *scope_name(unsigned scope)
{
    switch (scope) {
    case MOSAIC_CHECK_SCOPE_WORK_ITEM: return "work_item";
    case MOSAIC_CHECK_SCOPE_WORK_GROUP: return "work_group";
    case MOSAIC_CHECK_SCOPE_DEVICE: return "device";
    case MOSAIC_CHECK_SCOPE_SUB_GROUP: return "sub_group";
    default: return "all_svm_devices";
    }
}

/* Line `line` (from 1) of source, its length in *len; NULL if none. */
static const char *source_line(const char *source, unsigned line, int *len)
{
    if (!source || !line)
        return NULL;
    const char *p = source;
    for (unsigned l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p)
            return NULL;
        p++;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    *len = (int)strcspn(p, "\n");
    return p;
}

static void place(mosaic_strbuf *o, const mosaic_check_site *s)
{
    if (!s || !s->line)
        mosaic_strbuf_printf(o, "(no line information: a program built from a binary)");
    else
        mosaic_strbuf_printf(o, "%s:%u:%u", s->file && strcmp(s->file, "<stdin>") ? s->file : "program source",
                             s->line, s->column);
}

static void describe(mosaic_strbuf *o, const char *label, const mosaic_check_access *a, const char *source)
{
    mosaic_strbuf_printf(o, "    %s ", label);
    place(o, a->site);
    mosaic_strbuf_printf(o, ": %s", access_name(a->how));
    if (a->bytes)
        mosaic_strbuf_printf(o, " of %llu bytes", (unsigned long long)a->bytes);
    if (a->how & MOSAIC_CHECK_ATOMIC)
        mosaic_strbuf_printf(o, " (memory_scope_%s)", scope_name(MOSAIC_CHECK_HOW_SCOPE(a->how)));
    if (a->item_known)
        mosaic_strbuf_printf(o, " by work-item (%zu,%zu,%zu) of work-group (%zu,%zu,%zu)", a->item[0], a->item[1],
                             a->item[2], a->group[0], a->group[1], a->group[2]);
    else
        mosaic_strbuf_printf(o, " by work-items of work-group (%zu,%zu,%zu)", a->group[0], a->group[1], a->group[2]);
    int len;
    const char *text = source_line(source, a->site ? a->site->line : 0, &len);
    if (text)
        mosaic_strbuf_printf(o, "\n        %.*s", len, text);
    mosaic_strbuf_printf(o, "\n");
}

static void json_access(mosaic_strbuf *o, const mosaic_check_access *a, const char *source)
{
    const mosaic_check_site *s = a->site;
    mosaic_strbuf_printf(o, "{\"file\":");
    mosaic_strbuf_json_string(o, s && s->file ? s->file : "");
    mosaic_strbuf_printf(o, ",\"line\":%u,\"column\":%u,\"access\":\"%s\",\"bytes\":%llu", s ? s->line : 0,
                         s ? s->column : 0, access_name(a->how), (unsigned long long)a->bytes);
    if (a->how & MOSAIC_CHECK_ATOMIC)
        mosaic_strbuf_printf(o, ",\"scope\":\"%s\"", scope_name(MOSAIC_CHECK_HOW_SCOPE(a->how)));
    mosaic_strbuf_printf(o, ",\"work_group\":[%zu,%zu,%zu]", a->group[0], a->group[1], a->group[2]);
    if (a->item_known)
        mosaic_strbuf_printf(o, ",\"work_item\":[%zu,%zu,%zu]", a->item[0], a->item[1], a->item[2]);
    int len;
    const char *text = source_line(source, s ? s->line : 0, &len);
    if (text) {
        char *copy = strndup(text, (size_t)len);
        mosaic_strbuf_printf(o, ",\"source\":");
        mosaic_strbuf_json_string(o, copy);
        free(copy);
    }
    mosaic_strbuf_printf(o, "}");
}

static void write_json(const mosaic_check_problem *p)
{
    const char *path = mosaic_settings()->check_file;
    if (!path)
        return;
    mosaic_strbuf o = {0};
    mosaic_strbuf_printf(&o, "{\"kind\":\"%s\",\"kernel\":", kind_name(p->kind));
    mosaic_strbuf_json_string(&o, p->kernel);
    mosaic_strbuf_printf(&o, ",\"message\":");
    mosaic_strbuf_json_string(&o, p->what);
    if (!p->between_commands) {
        mosaic_strbuf_printf(&o, ",\"at\":");
        json_access(&o, &p->access, p->source);
    }
    if (!p->between_commands && (p->other.site || p->other.how)) {
        mosaic_strbuf_printf(&o, ",\"other\":");
        json_access(&o, &p->other, p->source);
    }
    if (p->object) {
        mosaic_strbuf_printf(&o, ",\"object\":");
        mosaic_strbuf_json_string(&o, p->object);
        mosaic_strbuf_printf(&o, ",\"offset\":%lld", (long long)p->offset);
    }
    mosaic_strbuf_printf(&o, "}\n");
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0 && !o.oom) {
        ssize_t unused = write(fd, o.data, o.len); /* one write: lines of several processes stay whole */
        (void)unused;
    }
    if (fd >= 0)
        close(fd);
    mosaic_strbuf_free(&o);
}

bool mosaic_check_report(const mosaic_check_problem *p)
{
    pthread_mutex_lock(&lock);
    bool report = first_time(p);
    pthread_mutex_unlock(&lock);
    if (!report)
        return false;
    mosaic_strbuf o = {0};
    if (p->between_commands) {
        mosaic_strbuf_printf(&o, "mosaic check: %s in %s: %s\n", kind_name(p->kind), p->kernel, p->what);
    } else {
        mosaic_strbuf_printf(&o, "mosaic check: %s in kernel %s: %s\n", kind_name(p->kind), p->kernel, p->what);
        describe(&o, "at", &p->access, p->source);
        if (p->other.site || p->other.how)
            describe(&o, "and", &p->other, p->source);
    }
    if (p->object)
        mosaic_strbuf_printf(&o, "    address: byte %lld of %s\n", (long long)p->offset, p->object);
    if (!o.oom) {
        flockfile(stderr);
        fwrite_unlocked(o.data, 1, o.len, stderr);
        funlockfile(stderr);
    }
    mosaic_strbuf_free(&o);
    pthread_mutex_lock(&lock);
    write_json(p);
    pthread_mutex_unlock(&lock);
    return true;
}
