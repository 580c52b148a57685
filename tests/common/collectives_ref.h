/* Work-group collective functions: a test kernel and the host's answers,
 * shared by the compiler tests and the end-to-end tests.
 *
 * collectives_kernels is a program with one kernel per type T (int, uint,
 * long, ulong, float, double; -D ALL for all, -D WITH_T for T), and -D DIM=1,
 * 2 or 3 the work_group_broadcast to use: coll_T(in, out, flags, k): each work-item
 * writes, at its global linear id g, out[10g + 0..9] = reduce add/min/max,
 * scan inclusive add/min/max, scan exclusive add/min/max, broadcast (from the
 * work-item (k % lx, k / 3 % ly, k / 5 % lz) of its group, lx.. its group's
 * sizes, in `dim` dimensions), and flags[2g] = work_group_all(x > -50),
 * flags[2g + 1] = work_group_any(x > 49), where x = in[g].
 * coll_value(g) is the input; collectives_check_T compares. */
#ifndef MOSAIC_TEST_COLLECTIVES_REF_H
#define MOSAIC_TEST_COLLECTIVES_REF_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char collectives_kernels[] =
    "#if DIM == 1\n"
    "#define BCAST(x, k) work_group_broadcast(x, k % get_local_size(0))\n"
    "#elif DIM == 2\n"
    "#define BCAST(x, k) work_group_broadcast(x, k % get_local_size(0), k / 3 % get_local_size(1))\n"
    "#else\n"
    "#define BCAST(x, k) work_group_broadcast(x, k % get_local_size(0), k / 3 % get_local_size(1), k / 5 % get_local_size(2))\n"
    "#endif\n"
    /* -D FIBERS: a private variable aligned to 128 bytes, live across the
     * barriers, keeps the kernel off the compiler's barrier regions */
    "#ifdef FIBERS\n"
    "#define FIBERS_BEGIN int pad[4] __attribute__((aligned(128))); pad[g % 4] = (int)g;\n"
    "#define FIBERS_END if (pad[g % 4] != (int)g) flags[2 * g] = 99;\n"
    "#else\n"
    "#define FIBERS_BEGIN\n"
    "#define FIBERS_END\n"
    "#endif\n"
    "#define K(T)\\\n"
    "kernel void coll_##T(global const T *in, global T *out, global int *flags, uint k) {\\\n"
    "  size_t g = get_global_linear_id();\\\n"
    "  T x = in[g];\\\n"
    "  global T *o = out + 10 * g;\\\n"
    "  FIBERS_BEGIN\\\n"
    "  o[0] = work_group_reduce_add(x);\\\n"
    "  o[1] = work_group_reduce_min(x);\\\n"
    "  o[2] = work_group_reduce_max(x);\\\n"
    "  o[3] = work_group_scan_inclusive_add(x);\\\n"
    "  o[4] = work_group_scan_inclusive_min(x);\\\n"
    "  o[5] = work_group_scan_inclusive_max(x);\\\n"
    "  o[6] = work_group_scan_exclusive_add(x);\\\n"
    "  o[7] = work_group_scan_exclusive_min(x);\\\n"
    "  o[8] = work_group_scan_exclusive_max(x);\\\n"
    "  o[9] = BCAST(x, k);\\\n"
    "  flags[2 * g] = work_group_all(x > (T)-50);\\\n"
    "  flags[2 * g + 1] = work_group_any(x > (T)49);\\\n"
    "  FIBERS_END\\\n"
    "}\n"
    "#if defined(ALL) || defined(WITH_int)\nK(int)\n#endif\n"
    "#if defined(ALL) || defined(WITH_uint)\nK(uint)\n#endif\n"
    "#if defined(ALL) || defined(WITH_long)\nK(long)\n#endif\n"
    "#if defined(ALL) || defined(WITH_ulong)\nK(ulong)\n#endif\n"
    "#if defined(ALL) || defined(WITH_float)\nK(float)\n#endif\n"
    "#if defined(ALL) || defined(WITH_double)\nK(double)\n#endif\n";

/* in[g]: -50..50 for signed types (0..100 unsigned), each group a mix */
static inline int coll_value(size_t g) { return (int)((g * 37 + 11) % 101); }

/* The NDRange: global and local sizes (dimensions past dim are 1). */
typedef struct coll_range {
    unsigned dim;
    size_t global[3], local[3];
} coll_range;

#define COLLECTIVES_CHECK(T, TMIN, TMAX, SIGNED)                                                   \
    static inline void coll_input_##T(T *in, size_t n)                                             \
    {                                                                                              \
        for (size_t g = 0; g < n; g++)                                                             \
            in[g] = (T)(coll_value(g) - (SIGNED ? 50 : 0));                                        \
    }                                                                                              \
    /* Number of wrong answers (the first few printed with what). */                              \
    static inline int collectives_check_##T(const coll_range *r, const T *in, const T *out,        \
                                            const int *flags, unsigned k, const char *what)        \
    {                                                                                              \
        size_t G[3] = {r->global[0], r->global[1], r->global[2]};                                  \
        size_t L[3] = {r->local[0], r->local[1], r->local[2]};                                     \
        size_t ng[3];                                                                              \
        for (int d = 0; d < 3; d++)                                                                \
            ng[d] = (G[d] + L[d] - 1) / L[d];                                                      \
        int bad = 0;                                                                               \
        size_t *idx = malloc(L[0] * L[1] * L[2] * sizeof *idx);                                    \
        for (size_t gz = 0; gz < ng[2]; gz++)                                                      \
            for (size_t gy = 0; gy < ng[1]; gy++)                                                  \
                for (size_t gx = 0; gx < ng[0]; gx++) {                                            \
                    size_t gid[3] = {gx, gy, gz}, ls[3];                                           \
                    for (int d = 0; d < 3; d++)                                                    \
                        ls[d] = G[d] - gid[d] * L[d] < L[d] ? G[d] - gid[d] * L[d] : L[d];         \
                    /* global linear ids in local linear order */                                  \
                    size_t n = 0;                                                                  \
                    for (size_t z = 0; z < ls[2]; z++)                                             \
                        for (size_t y = 0; y < ls[1]; y++)                                         \
                            for (size_t x = 0; x < ls[0]; x++)                                     \
                                idx[n++] = (gz * L[2] + z) * G[0] * G[1] + (gy * L[1] + y) * G[0] + \
                                           gx * L[0] + x;                                          \
                    size_t b = idx[(k / 5 % ls[2]) * ls[0] * ls[1] + (k / 3 % ls[1]) * ls[0] +    \
                                   k % ls[0]];                                                     \
                    if (r->dim == 1)                                                               \
                        b = idx[k % ls[0]];                                                        \
                    else if (r->dim == 2)                                                          \
                        b = idx[(k / 3 % ls[1]) * ls[0] + k % ls[0]];                              \
                    T sum = 0, mn = TMAX, mx = TMIN;                                               \
                    int all = 1, any = 0;                                                          \
                    for (size_t i = 0; i < n; i++) {                                               \
                        T x = in[idx[i]];                                                          \
                        sum += x, mn = x < mn ? x : mn, mx = x > mx ? x : mx;                      \
                        all &= x > (T)-50, any |= x > (T)49;                                       \
                    }                                                                              \
                    T isum = 0, imn = TMAX, imx = TMIN;                                            \
                    for (size_t i = 0; i < n; i++) {                                               \
                        T x = in[idx[i]];                                                          \
                        T want[10] = {sum, mn, mx, isum + x, x < imn ? x : imn, x > imx ? x : imx, \
                                      isum, imn, imx, in[b]};                                      \
                        const T *o = out + 10 * idx[i];                                            \
                        for (int j = 0; j < 10; j++)                                               \
                            if (o[j] != want[j] && bad++ < 5)                                      \
                                fprintf(stderr, "%s %s: item %zu answer %d: got %g want %g\n",     \
                                        what, #T, idx[i], j, (double)o[j], (double)want[j]);       \
                        if ((flags[2 * idx[i]] != 0) != all || (flags[2 * idx[i] + 1] != 0) != any) \
                            if (bad++ < 5)                                                         \
                                fprintf(stderr, "%s %s: item %zu all/any %d %d, want %d %d\n", what, \
                                        #T, idx[i], flags[2 * idx[i]], flags[2 * idx[i] + 1], all, any); \
                        isum += x, imn = x < imn ? x : imn, imx = x > imx ? x : imx;               \
                    }                                                                              \
                }                                                                                  \
        free(idx);                                                                                 \
        return bad;                                                                                \
    }

COLLECTIVES_CHECK(int, INT_MIN, INT_MAX, 1)
COLLECTIVES_CHECK(uint, 0, UINT_MAX, 0)
COLLECTIVES_CHECK(long, LONG_MIN, LONG_MAX, 1)
COLLECTIVES_CHECK(ulong, 0, ULONG_MAX, 0)
COLLECTIVES_CHECK(float, -INFINITY, INFINITY, 1)
COLLECTIVES_CHECK(double, -INFINITY, INFINITY, 1)

#endif
