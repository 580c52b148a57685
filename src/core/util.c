#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP */
#include "core/util.h"
#include "core/device.h"
#include "base/settings.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { SPIN_YIELD_NS = 1000 }; /* how long a spin runs before it lets another thread on its CPU run */

bool mosaic_debug_enabled(void)
{
    return mosaic_debugging(MOSAIC_DEBUG_API);
}

void mosaic_debug(const char *function, const char *format, ...)
{
    if (!mosaic_debug_enabled())
        return;
    char message[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    fprintf(stderr, "mosaic: %s: %s\n", function, message);
}

uint64_t mosaic_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t mosaic_now_resolution_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1;
    uint64_t ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
    return ns ? ns : 1;
}

bool mosaic_spin_until(bool (*done)(const void *arg), const void *arg)
{
    return mosaic_spin_until_for(done, arg, (uint64_t)mosaic_settings()->spin_us * 1000u);
}

bool mosaic_spin_until_for(bool (*done)(const void *arg), const void *arg, uint64_t limit)
{
    if (!limit)
        return done(arg);
    uint64_t now = mosaic_now_ns(), end = now + limit, yield_at = now + SPIN_YIELD_NS;
    for (unsigned i = 1;; i++) {
        if (done(arg))
            return true;
        if (i % 64 == 0) {
            now = mosaic_now_ns();
            if (now >= end)
                return false;
            if (now >= yield_at) {
                /* Another thread runnable here (the worker this host
                 * thread waits for, placed on its CPU by the scheduler)
                 * runs now; alone, the call returns at once. */
                sched_yield();
                yield_at = mosaic_now_ns() + SPIN_YIELD_NS;
            }
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ volatile("yield");
#endif
    }
}

void mosaic_mutex_init_spinning(pthread_mutex_t *m)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(m, &attr);
    pthread_mutexattr_destroy(&attr);
}

void *mosaic_calloc(size_t count, size_t size)
{
    return calloc(count ? count : 1, size ? size : 1);
}

char *mosaic_strdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

void mosaic_filter_words(const char *from, bool (*keep)(const char *word, size_t len, void *arg), void *arg,
                         char *out, size_t size)
{
    size_t used = 0;
    for (const char *p = from ? from : ""; *p;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len && used + len + 2 <= size && keep(p, len, arg)) {
            if (used)
                out[used++] = ' ';
            memcpy(out + used, p, len);
            used += len;
        }
        p += len;
    }
    if (size)
        out[used] = '\0';
}

bool mosaic_grow(void **array, size_t *capacity, size_t need, size_t item_size)
{
    if (need <= *capacity)
        return true;
    size_t cap = *capacity ? *capacity * 2 : 8;
    while (cap < need)
        cap *= 2;
    void *p = realloc(*array, cap * item_size);
    if (!p)
        return false;
    *array = p;
    *capacity = cap;
    return true;
}

/* Is the page of address a mapped?  mincore fails with ENOMEM for a range
 * that is not, and for addresses beyond the process's address space. */
static bool page_mapped(uintptr_t a)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char resident;
    return mincore((void *)(a & ~(page - 1)), 1, &resident) == 0;
}

bool mosaic_host_range_mapped(const void *p, size_t size)
{
    uintptr_t first = (uintptr_t)p;
    if (size == 0)
        return true;
    if (size - 1 > UINTPTR_MAX - first)
        return false;
    return page_mapped(first) && page_mapped(first + (size - 1));
}

void mosaic_uuid_of(const void *bytes, size_t size, unsigned char uuid[16])
{
    /* two 64-bit FNV-1a hashes, of the bytes forwards and backwards from
     * different starting values, make the 128 bits */
    uint64_t h[2] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
    const unsigned char *p = bytes;
    for (size_t i = 0; i < size; i++) {
        h[0] = (h[0] ^ p[i]) * 0x100000001b3ull;
        h[1] = (h[1] ^ p[size - 1 - i]) * 0x100000001b3ull;
    }
    memcpy(uuid, h, 16);
    uuid[6] = (unsigned char)((uuid[6] & 0x0f) | 0x80); /* version 8 */
    uuid[8] = (unsigned char)((uuid[8] & 0x3f) | 0x80); /* the RFC's variant */
}

/* Appends `word` to the string in buf, after `separator` unless buf is empty. */
static void append_word(char *buf, size_t size, const char *separator, const char *prefix, const char *word)
{
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s%s", used ? separator : "", prefix, word);
}

void mosaic_device_set_extensions(cl_device_id device, const char *const *runtime, size_t num_runtime,
                                  const char *const *language, size_t num_language, const char *const *features,
                                  size_t num_features, char *ext_buf, size_t ext_size, char *clang_buf,
                                  size_t clang_size)
{
    ext_buf[0] = '\0';
    for (size_t i = 0; i < num_runtime; i++)
        append_word(ext_buf, ext_size, " ", "", runtime[i]);
    for (size_t i = 0; i < num_language; i++)
        append_word(ext_buf, ext_size, " ", "", language[i]);
    device->extensions = ext_buf;

    device->num_opencl_c_features = 0;
    size_t room = sizeof device->opencl_c_features / sizeof device->opencl_c_features[0];
    for (size_t i = 0; i < num_features && i < room; i++)
        device->opencl_c_features[device->num_opencl_c_features++] = features[i];

    /* "-cl-ext=-all,+ext,...,+feature,...": a cc1 option in clang 16 (the
     * driver ignores it for spir64: the front end passes it after -Xclang) */
    snprintf(clang_buf, clang_size, "-cl-ext=-all");
    for (size_t i = 0; i < num_language; i++)
        append_word(clang_buf, clang_size, ",", "+", language[i]);
    for (size_t i = 0; i < num_features; i++)
        append_word(clang_buf, clang_size, ",", "+", features[i]);
    /* clang 16 defines the header-only features' macros for spir64 alone:
     * any other target (the GPU's nvptx64) needs them on the command line
     * (an identical definition on spir64 is no redefinition) */
    static const char *const header_only[] = {
        "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices", "__opencl_c_read_write_images",
    };
    for (size_t i = 0; i < num_features; i++)
        for (size_t h = 0; h < sizeof header_only / sizeof header_only[0]; h++)
            if (!strcmp(features[i], header_only[h])) {
                size_t at = strlen(clang_buf);
                snprintf(clang_buf + at, clang_size - at, " -D%s=1", features[i]);
            }
    /* __OPENCL_VERSION__ is the device's OpenCL version (CL_DEVICE_VERSION):
     * the platform defines it, clang does not (test_basic
     * kernel_preprocessor_macros) */
    size_t used = strlen(clang_buf);
    snprintf(clang_buf + used, clang_size - used, " -D__OPENCL_VERSION__=%u%u0", CL_VERSION_MAJOR(device->version),
             CL_VERSION_MINOR(device->version));
    device->compiler_target.clang_features = clang_buf;
}
