/*
 * The on-disk kernel cache: finalized object code and kernel tables (keyed by
 * a BLAKE3 hash of everything that decides them: the executable bitcode, the
 * build options, the CPU, the runtime symbols' names, and the build id of the
 * Mosaic binary itself, so a rebuilt Mosaic never reads an old entry), the
 * front end's results (direct_cache.c), markers of checked binaries
 * (binary.c), the GPU's PTX and kernel tables (object_cache.c).
 *
 * The directory: settings.h (MOSAIC_CACHE_DIR, MOSAIC_CACHE).  Entries hold
 * native code that the JIT runs, so the cache only ever reads what this user
 * wrote:
 *  - the directory and its subdirectories must be the user's and writable by
 *    no one else; otherwise a warning (once) and no cache;
 *  - an entry is opened without following a link or blocking (O_NOFOLLOW |
 *    O_NONBLOCK) and read only if it is a regular file of the user's;
 *  - an entry records its kind and the key it was stored under, and ends
 *    with a BLAKE3 checksum: one found under another key (copied or renamed)
 *    or damaged is a miss.
 * Layout (cache_layout.h, which `mosaic cache` reads too): DIR/xx/<62 hex
 * digits>.<kind>, xx the key's first byte.  An entry is:  "MOSAICE1", kind
 * (u32), 0 (u32), key (32 bytes), payload, checksum.
 *
 * Entries are written to a temporary file and renamed, so concurrent
 * processes never see half an entry.  DIR/size holds about how many bytes
 * the entries take; a store that takes it over MOSAIC_CACHE_MAX_MB removes
 * the least recently used entries (a hit touches its entry), under flock on
 * that file, so one process at a time evicts.  Readers take no lock: an
 * entry unlinked while read stays readable, one gone is a miss.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/blake3.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/cache/cache_layout.h"

/* ---- the build id of the object this code is in ---------------------------------------- */
static uint8_t build_id[64];
static size_t build_id_len;
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t me = (uintptr_t)data;
    int mine = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && me >= start && me < start + ph->p_memsz)
            mine = 1;
    }
    if (!mine)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const char *name = p + sizeof *n;
            const char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
                n->n_descsz <= sizeof build_id && desc + n->n_descsz <= end) {
                memcpy(build_id, desc, n->n_descsz);
                build_id_len = n->n_descsz;
                return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

static void read_build_id(void) { dl_iterate_phdr(find_build_id, (void *)(uintptr_t)&read_build_id); }

void mc_cache_hasher_start(llvm_blake3_hasher *h, const char *tag)
{
    pthread_once(&build_id_once, read_build_id);
    llvm_blake3_hasher_init(h);
    llvm_blake3_hasher_update(h, tag, strlen(tag) + 1);
    uint64_t n = build_id_len;
    llvm_blake3_hasher_update(h, &n, sizeof n);
    llvm_blake3_hasher_update(h, build_id, build_id_len);
}

void mc_cache_key_compute(mc_cache_key *key, const void *bitcode, size_t size, const char *options,
                          const char *cpu, const char *features, const mosaic_compiler_target *target)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic kernel cache 1");
    uint64_t n = size;
    llvm_blake3_hasher_update(&h, &n, sizeof n);
    llvm_blake3_hasher_update(&h, bitcode, size);
    const char *parts[3] = {options ? options : "", cpu ? cpu : "", features ? features : ""};
    for (int i = 0; i < 3; i++)
        llvm_blake3_hasher_update(&h, parts[i], strlen(parts[i]) + 1);
    for (size_t i = 0; target && i < target->num_runtime_symbols; i++) {
        const char *s = target->runtime_symbols[i].name ? target->runtime_symbols[i].name : "";
        llvm_blake3_hasher_update(&h, s, strlen(s) + 1);
    }
    /* an entry exists only for a program within these (finalize.c checks them before building) */
    uint64_t limits[3] = {target ? target->max_global_variable_size : 0, target ? target->max_global_variables_total : 0,
                          target ? target->max_constant_variables : 0};
    llvm_blake3_hasher_update(&h, limits, sizeof limits);
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}

/* ---- the directory, checked ---------------------------------------------------------- */
static pthread_mutex_t dir_lock = PTHREAD_MUTEX_INITIALIZER;
static char *dir_setting; /* the MOSAIC_CACHE_DIR root_fd was opened for */
static int root_fd = -1;  /* the cache directory, or -1 */
static bool refused;      /* it, or a subdirectory, is not safe: no cache */
static bool warned;

/* No cache from now on, and once why; dir_lock held.  root_fd stays open:
 * another thread may be using it (closed, its number could name another
 * file). */
static void refuse(const char *dir, const char *why)
{
    if (!warned)
        fprintf(stderr, "mosaic: warning: not using the kernel cache %s: %s; building without it\n", dir, why);
    warned = true;
    refused = true;
}

/* mkdir -p, each new directory private (mode 0700). */
static void make_dirs(const char *path)
{
    char *p = strdup(path);
    for (char *q = p ? p + 1 : NULL; q && *q; q++)
        if (*q == '/') {
            *q = 0;
            mkdir(p, 0700);
            *q = '/';
        }
    if (p)
        mkdir(p, 0700);
    free(p);
}

/* The cache directory, opened and checked once per setting; -1: no cache. */
static int cache_root(void)
{
    const char *dir = mosaic_settings()->cache_dir;
    pthread_once(&build_id_once, read_build_id);
    if (!dir || !build_id_len)
        return -1; /* off; or without a build id, an old entry could come from another Mosaic */
    pthread_mutex_lock(&dir_lock);
    if (!dir_setting || strcmp(dir_setting, dir)) {
        free(dir_setting);
        dir_setting = strdup(dir);
        if (root_fd >= 0)
            close(root_fd); /* a new setting: no other thread builds (mosaic_settings_reload) */
        refused = false;
        make_dirs(dir);
        root_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root_fd < 0) {
            if (!warned)
                fprintf(stderr, "mosaic: warning: not using the kernel cache %s: %s\n", dir, strerror(errno));
            warned = true;
        } else if (!mc_cache_private_dir(root_fd)) {
            refuse(dir, "it is not your directory, or others may write to it");
        }
    }
    int fd = refused ? -1 : root_fd;
    pthread_mutex_unlock(&dir_lock);
    return fd;
}

/* Subdirectory hex (created when `create`) of the cache, checked; -1 if there
 * is none.  One that others may write to ends the cache for this process. */
static int open_subdir(int root, const char *hex, bool create)
{
    int fd = openat(root, hex, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create && (!mkdirat(root, hex, 0700) || errno == EEXIST))
        fd = openat(root, hex, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || mc_cache_private_dir(fd))
        return fd;
    close(fd);
    pthread_mutex_lock(&dir_lock);
    if (root_fd == root)
        refuse(dir_setting, "a subdirectory is not yours, or others may write to it");
    pthread_mutex_unlock(&dir_lock);
    return -1;
}

bool mc_cache_enabled(void) { return cache_root() >= 0; }

/* ---- entries ---------------------------------------------------------------------------- */
#define ENTRY_MAGIC "MOSAICE1"
#define ENTRY_HEADER 48 /* magic, kind, 0, key */
static const char *const kind_suffix[] = MC_CACHE_KIND_SUFFIXES;
_Static_assert(sizeof kind_suffix / sizeof *kind_suffix == MC_CACHE_NUM_KINDS &&
                   MC_CACHE_PTX + 1 == MC_CACHE_NUM_KINDS,
               "one suffix per mc_cache_kind");

static void entry_names(mc_cache_kind kind, const mc_cache_key *key, char hex[3], char name[80])
{
    snprintf(hex, 3, "%02x", key->bytes[0]);
    char *p = name;
    for (int i = 1; i < 32; i++, p += 2)
        snprintf(p, 3, "%02x", key->bytes[i]);
    snprintf(p, 8, ".%s", kind_suffix[kind]);
}

static void entry_header(mc_cache_kind kind, const mc_cache_key *key, uint8_t h[ENTRY_HEADER])
{
    memset(h, 0, ENTRY_HEADER);
    memcpy(h, ENTRY_MAGIC, 8);
    uint32_t k = (uint32_t)kind;
    memcpy(h + 8, &k, 4);
    memcpy(h + 16, key->bytes, 32);
}

bool mc_cache_load(mc_cache_kind kind, const mc_cache_key *key, void **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    int root = cache_root();
    if (root < 0)
        return false;
    char hex[3], name[80];
    entry_names(kind, key, hex, name);
    int dir = open_subdir(root, hex, false);
    if (dir < 0)
        return false;
    /* a FIFO, a device or a link is no entry: never block on it, never follow it */
    int fd = openat(dir, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    close(dir);
    if (fd < 0)
        return false;
    struct stat st;
    uint8_t sum[32];
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) ||
        st.st_size <= ENTRY_HEADER + (off_t)sizeof sum) {
        close(fd);
        return false;
    }
    char *buf = malloc((size_t)st.st_size);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    /* the last 32 bytes are a BLAKE3 hash of the rest: a damaged entry is a miss */
    bool ok = buf && got == (size_t)st.st_size;
    if (ok) {
        llvm_blake3_hasher h;
        llvm_blake3_hasher_init(&h);
        llvm_blake3_hasher_update(&h, buf, got - sizeof sum);
        llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
        ok = !memcmp(sum, buf + got - sizeof sum, sizeof sum);
    }
    /* stored under this key as this kind, or it is another program's */
    uint8_t expect[ENTRY_HEADER];
    entry_header(kind, key, expect);
    ok = ok && !memcmp(buf, expect, ENTRY_HEADER);
    if (ok)
        futimens(fd, NULL); /* recently used: the last to be evicted */
    close(fd);
    if (!ok) {
        free(buf);
        return false;
    }
    memmove(buf, buf + ENTRY_HEADER, got - ENTRY_HEADER - sizeof sum);
    *data = buf;
    *size = got - ENTRY_HEADER - sizeof sum;
    return true;
}

static bool write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static void account(int root, off_t added);

void mc_cache_store(mc_cache_kind kind, const mc_cache_key *key, const void *data, size_t size)
{
    int root = cache_root();
    if (root < 0)
        return;
    char hex[3], name[80], tmp[160];
    entry_names(kind, key, hex, name);
    int dir = open_subdir(root, hex, true);
    if (dir < 0)
        return;
    snprintf(tmp, sizeof tmp, "%s.%d.%lx.tmp", name, (int)getpid(), (unsigned long)pthread_self());
    int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        close(dir);
        return;
    }
    uint8_t head[ENTRY_HEADER], sum[32];
    entry_header(kind, key, head);
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, head, sizeof head);
    llvm_blake3_hasher_update(&h, data, size);
    llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
    bool ok = write_all(fd, head, sizeof head) && write_all(fd, data, size) && write_all(fd, sum, sizeof sum);
    if (close(fd) || !ok || renameat(dir, tmp, dir, name))
        unlinkat(dir, tmp, 0);
    else
        account(root, (off_t)(sizeof head + size + sizeof sum));
    close(dir);
}

/* ---- the size limit ------------------------------------------------------------------------ */
typedef struct cached_file {
    struct timespec used; /* mtime: written or last hit */
    off_t size;
    uint8_t dir;
    char name[80];
} cached_file;

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const cached_file *)a)->used, *y = &((const cached_file *)b)->used;
    return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1)
                                  : (x->tv_nsec != y->tv_nsec ? (x->tv_nsec < y->tv_nsec ? -1 : 1) : 0);
}

/* What the walk over the folders gathers for sweep. */
typedef struct sweep_list {
    cached_file *files;
    size_t n, cap;
    off_t total;
    time_t now;
} sweep_list;

/* (mc_cache_visit_fn) Counts an entry and lists it for eviction; removes a
 * temporary file an hour old (a writer that died). */
static void sweep_file(int folder, unsigned index, const char *name, const struct stat *st, void *arg)
{
    sweep_list *l = arg;
    if (!S_ISREG(st->st_mode))
        return; /* not ours to count */
    if (mc_cache_tmp_name(name)) {
        if (l->now - st->st_mtime > MC_CACHE_STALE_TMP_S)
            unlinkat(folder, name, 0);
        return;
    }
    if (!mc_cache_entry_name(name, NULL))
        return;
    l->total += st->st_size;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        cached_file *more = realloc(l->files, cap * sizeof *l->files);
        if (!more)
            return; /* counted, but not evicted this time */
        l->files = more;
        l->cap = cap;
    }
    cached_file *f = &l->files[l->n++];
    f->used = st->st_mtim;
    f->size = st->st_size;
    f->dir = (uint8_t)index;
    snprintf(f->name, sizeof f->name, "%s", name);
}

/* Every entry's size, the least recently used removed while the total is
 * over `target` (none when target is 0); what is left in bytes.  Temporary
 * files an hour old are a writer that died: removed. */
static off_t sweep(int root, off_t target)
{
    sweep_list l = {.now = time(NULL)};
    mc_cache_each_file(root, sweep_file, &l); /* (a folder not private is left out) */
    cached_file *files = l.files;
    size_t n = l.n;
    off_t total = l.total;
    if (target && total > target && files) {
        qsort(files, n, sizeof *files, older_first);
        for (size_t i = 0; i < n && total > target; i++) {
            char path[90];
            snprintf(path, sizeof path, "%02x/%s", files[i].dir, files[i].name);
            /* gone already (another process evicted it): no longer counted either way */
            unlinkat(root, path, 0);
            total -= files[i].size;
        }
    }
    free(files);
    return total;
}

/* Adds a new entry's bytes to DIR/size; over the limit, evicts down to 90% of it. */
static void account(int root, off_t added)
{
    unsigned long mb = mosaic_settings()->cache_max_mb;
    off_t limit = mb ? (off_t)mb << 20 : 0;
    int fd = openat(root, MC_CACHE_SIZE_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || flock(fd, LOCK_EX)) {
        close(fd);
        return;
    }
    char text[32] = "";
    ssize_t r = pread(fd, text, sizeof text - 1, 0);
    char *end;
    long long total = r > 0 ? strtoll(text, &end, 10) : -1;
    if (r <= 0 || *end != '\n' || total < 0)
        total = sweep(root, 0); /* not counted yet (or damaged): count */
    else
        total += added;
    if (limit && total > limit)
        total = sweep(root, limit / 10 * 9);
    int len = snprintf(text, sizeof text, "%lld\n", total);
    if (pwrite(fd, text, (size_t)len, 0) == len)
        ftruncate(fd, len);
    close(fd); /* and the lock with it */
}
