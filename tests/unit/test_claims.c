/* devices/cpu/cpu_exec.h: how a launch's work-groups are claimed.  Each
 * worker claims from its own range (its home) first, then from the others';
 * the workers' claims, in any order, cover the launch exactly once; a worker
 * that claims alone while others have not started gets the same groups at
 * every launch of the same size; a claim is never empty nor larger than a
 * chunk or than what is left of its range; while many groups are left a
 * claim is a whole chunk, and at the end the claims shrink, but not below an
 * eighth of a chunk (mosaic_cpu_claim_size). */
#include "devices/cpu/cpu_exec.h"

#include <stdlib.h>
#include <stddef.h>

#define TEST_LIST "test_claims.list"
#include "test.h"

/* chunk and split as the device picks them for `total` groups */
static void claims_for(size_t total, unsigned workers, size_t *chunk, size_t *split)
{
    cpu_job j = { .total_groups = total };
    mosaic_cpu_set_claims(&j, workers, MOSAIC_CPU_HOMES);
    *chunk = j.chunk;
    *split = j.split;
}

/* Groups (or parts) of j not claimed yet: what its ranges' counters leave. */
static size_t groups_unclaimed(cpu_job *j)
{
    size_t left = 0;
    for (unsigned h = 0; h < j->homes; h++) {
        size_t next = atomic_load_explicit(&j->home[h].next, memory_order_relaxed);
        left += next < j->home[h].end ? j->home[h].end - next : 0;
    }
    return left;
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

/* Workers claiming in a pseudo-random order (some far more often than
 * others, as when some start late) take every group exactly once, each
 * from its home while it has groups. */
TEST(homes_and_stealing_cover_the_launch_once)
{
    static const size_t totals[] = {1, 2, 7, 31, 100, 4096, 65537};
    static const unsigned workers[] = {1, 2, 3, 16, 17, 64};
    unsigned seed = 12345;
    for (size_t t = 0; t < sizeof totals / sizeof *totals; t++)
        for (size_t w = 0; w < sizeof workers / sizeof *workers; w++) {
            size_t total = totals[t];
            cpu_job j = { .total_groups = total };
            mosaic_cpu_set_claims(&j, workers[w], MOSAIC_CPU_HOMES);
            CHECK(j.homes >= 1 && j.homes <= MOSAIC_CPU_HOMES && j.homes <= (total ? total : 1), "%u homes",
                  j.homes);
            CHECK(groups_unclaimed(&j) == total, "%zu groups unclaimed at the start",
                  groups_unclaimed(&j));
            unsigned char *taken = calloc(total, 1);
            size_t got = 0, first = 0;
            for (;;) {
                seed = seed * 1103515245u + 12345u;
                unsigned who = (seed >> 16) % workers[w];
                if (who % 2) /* odd workers claim a quarter as often */
                    who = (seed >> 8) % 4 ? who - 1 : who;
                unsigned home = mosaic_cpu_home_of(&j, who);
                size_t before = atomic_load(&j.home[home].next), n = mosaic_cpu_claim(&j, home, &first);
                if (!n)
                    break;
                if (before < j.home[home].end)
                    CHECK(first == before, "worker %u claims from its home (%zu) first, got %zu", who, before,
                          first);
                for (size_t g = first; g < first + n && g < total; g++) {
                    CHECK(!taken[g], "%zu groups, %u workers: group %zu claimed twice", total, workers[w], g);
                    taken[g] = 1;
                }
                got += n;
            }
            CHECK(got == total && groups_unclaimed(&j) == 0, "%zu groups, %u workers: %zu claimed",
                  total, workers[w], got);
            free(taken);
        }
}

/* A worker gets the same groups at two launches of one size when every
 * worker has claimed its home's first chunk before anyone steals. */
TEST(a_worker_keeps_its_groups_across_launches)
{
    size_t firsts[2][16];
    for (int launch = 0; launch < 2; launch++) {
        cpu_job j = { .total_groups = 16384 };
        mosaic_cpu_set_claims(&j, 16, MOSAIC_CPU_HOMES);
        CHECK(j.homes == 16, "16 workers, 16 homes: %u", j.homes);
        /* in another order at each launch */
        for (unsigned i = 0; i < 16; i++) {
            unsigned who = launch ? 15 - i : i;
            size_t first = 0, n = mosaic_cpu_claim(&j, mosaic_cpu_home_of(&j, who), &first);
            CHECK(n == j.chunk, "worker %u: a chunk of %zu, got %zu", who, j.chunk, n);
            firsts[launch][who] = first;
        }
    }
    for (unsigned i = 0; i < 16; i++)
        CHECK(firsts[0][i] == firsts[1][i] && firsts[0][i] == i * 1024, "worker %u: groups at %zu, then at %zu", i,
              firsts[0][i], firsts[1][i]);
}

TEST(last_claims_shrink_to_a_floor)
{
    /* the runner's tree sum on 16 workers: 131,072 groups, ranges of 8192,
     * chunks of 256 */
    size_t chunk, split;
    claims_for(131072, 16, &chunk, &split);
    CHECK(chunk == 256 && split == 4, "chunk %zu, split %zu", chunk, split);
    CHECK(mosaic_cpu_claim_size(8192, chunk, split) == 256, "first claim: a whole chunk");
    CHECK(mosaic_cpu_claim_size(256 * 4, chunk, split) == 256, "a chunk for each of split claims left: a chunk");
    CHECK(mosaic_cpu_claim_size(400, chunk, split) == 100, "400 left: a quarter of them");
    CHECK(mosaic_cpu_claim_size(100, chunk, split) == 32, "100 left: the floor, an eighth of a chunk");
    CHECK(mosaic_cpu_claim_size(20, chunk, split) == 20, "20 left: all of them, under the floor");
    CHECK(mosaic_cpu_claim_size(1, chunk, split) == 1, "the last group");
    /* small chunks: the floor is one group */
    CHECK(mosaic_cpu_claim_size(5, 4, 4) == 1, "chunk of 4: claims of one at the end");
    CHECK(mosaic_cpu_claim_size(1000, 4, 4) == 4, "chunk of 4, many left: a chunk");
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
