/* devices/cpu/cpu_exec.h: how many work-groups one claim of a launch takes
 * (mosaic_cpu_claim_size).  The workers' claims, taken in turn, cover the
 * launch exactly once; a claim is never empty nor larger than a chunk or
 * than what is left; while many groups are left a claim is a whole chunk,
 * and at the end the claims shrink, but not below an eighth of a chunk. */
#include "devices/cpu/cpu_exec.h"

#include <stddef.h>

#define TEST_LIST "test_claims.list"
#include "test.h"

/* chunk and split as the device picks them for `total` groups */
static void claims_for(size_t total, unsigned workers, size_t *chunk, size_t *split)
{
    cpu_job j = { .total_groups = total };
    mosaic_cpu_set_claims(&j, workers);
    *chunk = j.chunk;
    *split = j.split;
}

TEST(claims_cover_the_launch_once)
{
    static const size_t totals[] = {1, 2, 7, 31, 100, 511, 4096, 65537, 131072, 1000003};
    static const unsigned workers[] = {1, 2, 3, 16, 64};
    for (size_t t = 0; t < sizeof totals / sizeof *totals; t++)
        for (size_t w = 0; w < sizeof workers / sizeof *workers; w++) {
            size_t total = totals[t], chunk, split, next = 0, claims = 0;
            claims_for(total, workers[w], &chunk, &split);
            while (next < total) {
                size_t n = mosaic_cpu_claim_size(total - next, chunk, split);
                CHECK(n >= 1 && n <= chunk && n <= total - next, "%zu groups, %u workers: claim of %zu at %zu",
                      total, workers[w], n, next);
                if (n == 0)
                    break;
                next += n;
                claims++;
            }
            CHECK(next == total, "%zu groups, %u workers: claims end at %zu", total, workers[w], next);
            /* whole chunks, then a tail of at most split x 8 claims (each at
             * least an eighth of a chunk), then the rest */
            CHECK(claims <= total / chunk + split * 8 + 1, "%zu groups, %u workers: %zu claims", total, workers[w],
                  claims);
        }
}

TEST(last_claims_shrink_to_a_floor)
{
    /* the runner's tree sum on 16 workers: 131,072 groups, chunks of 256 */
    size_t chunk, split;
    claims_for(131072, 16, &chunk, &split);
    CHECK(chunk == 256 && split == 64, "chunk %zu, split %zu", chunk, split);
    CHECK(mosaic_cpu_claim_size(131072, chunk, split) == 256, "first claim: a whole chunk");
    CHECK(mosaic_cpu_claim_size(256 * 64, chunk, split) == 256, "a chunk for each of split claims left: a chunk");
    CHECK(mosaic_cpu_claim_size(6400, chunk, split) == 100, "6400 left: a 64th of them");
    CHECK(mosaic_cpu_claim_size(1000, chunk, split) == 32, "1000 left: the floor, an eighth of a chunk");
    CHECK(mosaic_cpu_claim_size(20, chunk, split) == 20, "20 left: all of them, under the floor");
    CHECK(mosaic_cpu_claim_size(1, chunk, split) == 1, "the last group");
    /* small chunks: the floor is one group */
    CHECK(mosaic_cpu_claim_size(5, 4, 64) == 1, "chunk of 4: claims of one at the end");
    CHECK(mosaic_cpu_claim_size(1000, 4, 64) == 4, "chunk of 4, many left: a chunk");
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
