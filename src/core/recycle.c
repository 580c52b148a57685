/* Blocks kept for reuse (recycle.h).  Each block has a 16-byte header that
 * names its size class; larger blocks, and every block in builds with
 * AddressSanitizer (reuse would hide a use after free), go to malloc. */
#include "core/recycle.h"
#include "core/util.h"
#include "base/assert.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define RECYCLING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECYCLING 0
#endif
#endif
#ifndef RECYCLING
#define RECYCLING 1
#endif

enum {
    HEADER = 16,
    SMALLEST_CLASS = 7, /* 128 bytes */
    CLASSES = 6,        /* ... 4096 bytes */
    KEPT_PER_CLASS = 64,
    FROM_MALLOC = 0xff,
};

typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct size_class {
    pthread_mutex_t lock;
    free_block *head;
    unsigned count;
} size_class;

static size_class classes[CLASSES];
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

/* fork(): the lists are consistent in the child only if no thread was
 * changing one; the locks are held across it. */
static void before_fork(void)
{
    for (int c = 0; c < CLASSES; c++)
        pthread_mutex_lock(&classes[c].lock);
}

static void after_fork(void)
{
    for (int c = CLASSES - 1; c >= 0; c--)
        pthread_mutex_unlock(&classes[c].lock);
}

static void init_classes(void)
{
    for (int c = 0; c < CLASSES; c++)
        mosaic_mutex_init_spinning(&classes[c].lock);
    pthread_atfork(before_fork, after_fork, after_fork);
}

/* The class whose blocks hold `bytes` (header included), or -1. */
static int class_of(size_t bytes)
{
    for (int c = 0; c < CLASSES; c++)
        if (bytes <= (size_t)1 << (SMALLEST_CLASS + c))
            return c;
    return -1;
}

void *mosaic_recycled_calloc(size_t size)
{
    int c = RECYCLING ? class_of(size + HEADER) : -1;
    unsigned char *block = NULL;
    if (c >= 0) {
        pthread_once(&classes_once, init_classes);
        size_class *sc = &classes[c];
        pthread_mutex_lock(&sc->lock);
        free_block *f = sc->head;
        if (f) {
            sc->head = f->next;
            sc->count--;
        }
        pthread_mutex_unlock(&sc->lock);
        size_t bytes = (size_t)1 << (SMALLEST_CLASS + c);
        if (f)
            memset(f, 0, bytes);
        block = f ? (unsigned char *)f : calloc(1, bytes);
    } else {
        block = calloc(1, size + HEADER);
    }
    if (!block)
        return NULL;
    block[0] = c >= 0 ? (unsigned char)c : FROM_MALLOC;
    return block + HEADER;
}

void mosaic_recycle(void *p)
{
    if (!p)
        return;
    unsigned char *block = (unsigned char *)p - HEADER;
    int c = block[0];
    if (c == FROM_MALLOC) {
        free(block);
        return;
    }
    MOSAIC_ASSERT(c < CLASSES);
    size_class *sc = &classes[c];
    pthread_mutex_lock(&sc->lock);
    bool kept = sc->count < KEPT_PER_CLASS;
    if (kept) {
        free_block *f = (free_block *)block;
        f->next = sc->head;
        sc->head = f;
        sc->count++;
    }
    pthread_mutex_unlock(&sc->lock);
    if (!kept)
        free(block);
}
