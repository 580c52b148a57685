/* devices/cpu/cpu_half.c: the half conversions the CPU device gives kernels
 * under libgcc's names (the code generator calls them for double -> half, and
 * for float <-> half on CPUs without F16C), against the host compiler's own
 * _Float16 conversions (GCC and clang round to nearest even): every half, and
 * floats and doubles around every half and halfway point. */
#include "devices/cpu/cpu_runtime.h"

#include <math.h>
#include <string.h>

#define TEST_LIST "test_cpu_half.list"
#include "test.h"

static uint16_t bits(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}
static _Float16 half(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return h;
}
static bool same(uint16_t a, uint16_t b) /* or both NaN */
{
    return a == b || ((a & 0x7c00) == 0x7c00 && (a & 0x3ff) && (b & 0x7c00) == 0x7c00 && (b & 0x3ff));
}

TEST(extend_every_half)
{
    int bad = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        volatile _Float16 h = half((uint16_t)b);
        float want = (float)h, got = mosaic_cpu_extendhfsf2(h);
        double gotd = mosaic_cpu_extendhfdf2(h);
        bool ok = isnan(want) ? isnan(got) && isnan(gotd) : memcmp(&got, &want, 4) == 0 && gotd == (double)want;
        if (!ok && bad++ < 4)
            TEST_FAIL("0x%04x: %a, %a, not %a", b, got, gotd, want);
    }
    CHECK(bad == 0);
}

TEST(truncate_near_every_half)
{
    int bad = 0;
    for (uint32_t b = 0; b < 0x7c00; b++) {
        double v = (double)half((uint16_t)b), next = (double)half((uint16_t)(b + 1));
        double mid = b + 1 < 0x7c00 ? (v + next) / 2 : 65520.0;
        double ds[] = {v, mid, nextafter(mid, 0), nextafter(mid, INFINITY), nextafter(v, INFINITY), mid + 0x1p-40 * v};
        for (int s = 0; s < 2; s++)
            for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
                double d = s ? -ds[k] : ds[k];
                volatile double vd = d;
                volatile float vf = (float)d;
                uint16_t want_d = bits((_Float16)vd), want_f = bits((_Float16)vf);
                uint16_t got_d = bits(mosaic_cpu_truncdfhf2(d)), got_f = bits(mosaic_cpu_truncsfhf2(vf));
                if ((!same(got_d, want_d) || !same(got_f, want_f)) && bad++ < 4)
                    TEST_FAIL("%a: 0x%04x (want 0x%04x), as float %a: 0x%04x (want 0x%04x)", d, got_d, want_d,
                              (double)vf, got_f, want_f);
            }
    }
    double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -1e300, 1e-300, 65519.999, 65520.0, 0x1p-25,
                         0x1.0000000001p-25, 0x1p-26};
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
        volatile double vd = specials[k];
        uint16_t want = bits((_Float16)vd), got = bits(mosaic_cpu_truncdfhf2(vd));
        CHECK(same(got, want), "%a: 0x%04x, not 0x%04x", specials[k], got, want);
    }
    CHECK(bad == 0);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
