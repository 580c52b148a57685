/* core/recycle.h: small blocks kept for reuse (a command's event, NDRange
 * arguments and job).  A block handed out again is zeroed like calloc's,
 * every size from 1 byte to past the largest class works, and blocks
 * allocated on one thread and freed on another (as commands are) keep
 * their contents apart. */
#include "core/recycle.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_recycle.list"
#include "test.h"

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

TEST(blocks_come_back_zeroed)
{
    static const size_t sizes[] = {1, 15, 100, 112, 113, 500, 1000, 2000, 4080, 4081, 10000, 1 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        for (int round = 0; round < 3; round++) {
            unsigned char *p = mosaic_recycled_calloc(n);
            CHECK(p && ((uintptr_t)p & 15) == 0, "%zu bytes: %p", n, (void *)p);
            if (!p)
                return;
            CHECK(all_zero(p, n), "%zu bytes, round %d: not zeroed", n, round);
            memset(p, 0xa5, n); /* dirty it for the next round */
            mosaic_recycle(p);
        }
    }
    mosaic_recycle(NULL);
}

/* Blocks go from a producer thread to a consumer that checks and frees
 * them, as commands go from the enqueuing thread to a worker. */
enum { BLOCKS = 20000, BLOCK_BYTES = 300 };
static unsigned char *volatile handed[BLOCKS];
static int bad_blocks;

static void *consume(void *unused)
{
    for (int i = 0; i < BLOCKS; i++) {
        unsigned char *p;
        while (!(p = __atomic_load_n(&handed[i], __ATOMIC_ACQUIRE)))
            ;
        for (int k = 0; k < BLOCK_BYTES; k++)
            if (p[k] != (unsigned char)i)
                bad_blocks++;
        mosaic_recycle(p);
    }
    return NULL;
}

TEST(threads_share_the_lists)
{
    pthread_t consumer;
    CHECK(pthread_create(&consumer, NULL, consume, NULL) == 0);
    int not_zero = 0;
    for (int i = 0; i < BLOCKS; i++) {
        unsigned char *p = mosaic_recycled_calloc(BLOCK_BYTES);
        if (!p)
            break;
        not_zero += !all_zero(p, BLOCK_BYTES);
        memset(p, i & 0xff, BLOCK_BYTES);
        __atomic_store_n(&handed[i], p, __ATOMIC_RELEASE);
    }
    pthread_join(consumer, NULL);
    CHECK(not_zero == 0, "%d blocks handed out not zeroed", not_zero);
    CHECK(bad_blocks == 0, "%d bytes changed between the threads", bad_blocks);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
