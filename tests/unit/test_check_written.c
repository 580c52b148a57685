/* core/check_written.h: checking mode's bits of the bytes of a buffer
 * something wrote (docs/check.md, `uninit`). */
#include "core/check_written.h"

#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_check_written.list"
#include "test.h"

TEST(set_and_find)
{
    enum { SIZE = 37 };
    mosaic_check_written *w = calloc(1, sizeof *w + (SIZE + 7) / 8);
    w->size = SIZE;
    CHECK(mosaic_check_written_first_unwritten(w, 0, SIZE) == 0);
    mosaic_check_written_set(w, 3, 7); /* bytes 3..9: across a byte of bits */
    CHECK(mosaic_check_written_first_unwritten(w, 3, 7) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 2, 4) == 2);
    CHECK(mosaic_check_written_first_unwritten(w, 5, 6) == 10);
    mosaic_check_written_set(w, 0, 3);
    mosaic_check_written_set(w, 10, 1000); /* past the end: up to it */
    CHECK(mosaic_check_written_first_unwritten(w, 0, SIZE) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 30, 100) == (size_t)-1);
    mosaic_check_written_set(w, SIZE, 4); /* nothing */
    memset((void *)w->bits, 0, (SIZE + 7) / 8);
    mosaic_check_written_set(w, 16, 16); /* whole bytes of bits */
    CHECK(mosaic_check_written_first_unwritten(w, 16, 16) == (size_t)-1);
    CHECK(mosaic_check_written_first_unwritten(w, 16, 17) == 32);
    CHECK(mosaic_check_written_first_unwritten(w, 15, 2) == 15);
    free(w);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
