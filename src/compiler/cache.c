/*
 * The on-disk kernel cache: finalized object code and kernel tables, keyed by
 * a BLAKE3 hash of everything that decides them (the executable bitcode, the
 * build options, the CPU, the runtime symbols' names, and the build id of the
 * Mosaic binary itself, so a rebuilt Mosaic never reads an old entry).
 *
 * The directory: settings.h (MOSAIC_CACHE_DIR, MOSAIC_CACHE).
 *
 * Entries are written to a temporary file and renamed, so concurrent
 * processes never see half an entry.  Nothing is ever evicted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/blake3.h>

#include "compiler/compiler_internal.h"

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

/* ---- where entries live ------------------------------------------------------------------ */
/* Is there a cache?  Then its directory is in buf. */
static bool cache_dir(char *buf, size_t size)
{
    const char *dir = mosaic_settings()->cache_dir;
    if (!dir)
        return false; /* off */
    pthread_once(&build_id_once, read_build_id);
    if (!build_id_len)
        return false; /* without a build id, an old entry could come from another Mosaic */
    return snprintf(buf, size, "%s", dir) < (int)size;
}

/* Is there a cache?  Then the entry's file and directory are in buf and dir. */
static bool entry_path(const mc_cache_key *key, char *buf, size_t size, char *dir, size_t dsize)
{
    char base[4096];
    if (!cache_dir(base, sizeof base))
        return false;
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", key->bytes[i]);
    if (snprintf(dir, dsize, "%s/%.2s", base, hex) >= (int)dsize)
        return false;
    return snprintf(buf, size, "%s/%s.obj", dir, hex + 2) < (int)size;
}

bool mc_cache_enabled(void)
{
    char dir[4096];
    return cache_dir(dir, sizeof dir);
}

void mc_cache_key_compute(mc_cache_key *key, const void *bitcode, size_t size, const char *options,
                          const char *cpu, const char *features, const mosaic_compiler_target *target)
{
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    static const char tag[] = "mosaic kernel cache 1";
    llvm_blake3_hasher_update(&h, tag, sizeof tag);
    pthread_once(&build_id_once, read_build_id);
    llvm_blake3_hasher_update(&h, build_id, build_id_len);
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
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}

bool mc_cache_load(const mc_cache_key *key, void **data, size_t *size)
{
    char path[4300], dir[4200];
    *data = NULL;
    *size = 0;
    if (!entry_path(key, path, sizeof path, dir, sizeof dir))
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) || st.st_size <= 0) {
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
    close(fd);
    /* the last 32 bytes are a BLAKE3 hash of the rest: a damaged entry is a miss */
    uint8_t sum[32];
    if (!buf || got != (size_t)st.st_size || got <= sizeof sum) {
        free(buf);
        return false;
    }
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, buf, got - sizeof sum);
    llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
    if (memcmp(sum, buf + got - sizeof sum, sizeof sum)) {
        free(buf);
        return false;
    }
    *data = buf;
    *size = got - sizeof sum;
    return true;
}

void mc_cache_store(const mc_cache_key *key, const void *data, size_t size)
{
    char path[4300], dir[4200], tmp[4400];
    if (!entry_path(key, path, sizeof path, dir, sizeof dir))
        return;
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0700);
            *p = '/';
        }
    mkdir(dir, 0700);
    snprintf(tmp, sizeof tmp, "%s.%d.%lx.tmp", path, (int)getpid(), (unsigned long)pthread_self());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    uint8_t sum[32];
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, data, size);
    llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
    size_t left = 0;
    for (int part = 0; part < 2; part++) {
        const char *p = part ? (const char *)sum : data;
        left = part ? sizeof sum : size;
        while (left) {
            ssize_t w = write(fd, p, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            p += w;
            left -= (size_t)w;
        }
        if (left)
            break;
    }
    if (close(fd) || left || rename(tmp, path))
        unlink(tmp);
}
