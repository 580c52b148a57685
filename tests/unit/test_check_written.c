/* core/check_written.h: checking mode's bits of the bytes of a buffer
 * something wrote (docs/check.md, `uninit`). */
#include "core/check_written.h"

#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_check_written.list"
#include "test.h"

/* The same answers from a buffer's bits (set with atomic or) and a
 * work-group's (alone: plain stores). */
static void set_and_find(bool alone)
{
    enum { SIZE = 150 };
    mosaic_check_written *w = calloc(1, MOSAIC_CHECK_WRITTEN_BYTES(SIZE));
    w->size = SIZE;
    w->alone = alone;
    CHECK(mosaic_check_written_first_unwritten(w, 0, SIZE) == 0);
    mosaic_check_written_set(w, 3, 7); /* bytes 3..9 */
    CHECK(mosaic_check_written_first_unwritten(w, 3, 7) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 2, 4) == 2);
    CHECK(mosaic_check_written_first_unwritten(w, 5, 6) == 10);
    mosaic_check_written_set(w, 60, 10); /* across a word of bits */
    CHECK(mosaic_check_written_first_unwritten(w, 60, 10) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 60, 11) == 70);
    CHECK(mosaic_check_written_first_unwritten(w, 59, 2) == 59);
    CHECK(!mosaic_check_written_all(w));
    mosaic_check_written_set(w, 0, 3);
    mosaic_check_written_set(w, 10, 1000); /* past the end: up to it */
    CHECK(mosaic_check_written_first_unwritten(w, 0, SIZE) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 130, 100) == (size_t)-1);
    CHECK(mosaic_check_written_all(w));
    mosaic_check_written_set(w, SIZE, 4); /* nothing */
    memset((void *)w->words, 0, (SIZE + 63) / 64 * sizeof(uint64_t));
    mosaic_check_written_set(w, 64, 64); /* a whole word of bits */
    CHECK(mosaic_check_written_first_unwritten(w, 64, 64) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 64, 65) == 128);
    CHECK(mosaic_check_written_first_unwritten(w, 63, 2) == 63);
    free(w);
}

TEST(set_and_find) { set_and_find(false); }

TEST(set_and_find_alone) { set_and_find(true); }

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
