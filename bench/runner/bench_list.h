/*
 * Every benchmark of the runner, in the order it runs them: one row each.
 * The runner includes this file with BENCH() defined to build its table
 * (main.c) and runner.h with BENCH() defined to declare the ops.
 *
 *   BENCH(name, group, bound, ops, variant, what)
 *
 * name     the row's name in the table, the CSV and the chart
 * group    the file its ops are in (bench/runner/<group>.c)
 * bound    MEMORY: its share is of the triad bandwidth (of its twin's where
 *          its ops say share_of_twin: rows through __local memory and
 *          barriers); COMPUTE: of the FMA peak; LATENCY: its time is per
 *          operation, no roof
 * ops      the bench_ops of the group (runner.h)
 * variant  an int the ops read from b->variant (copy or triad, float or float4...)
 * what     one line for the reader
 *
 * To add a benchmark: write its ops in a group file (or a new file of
 * bench/runner/, listed in bench/CMakeLists.txt) and add its row here.
 */
BENCH(stream_copy, stream, MEMORY, stream_ops, 0, "c[i] = a[i]")
BENCH(stream_scale, stream, MEMORY, stream_ops, 1, "c[i] = s * a[i]")
BENCH(stream_add, stream, MEMORY, stream_ops, 2, "c[i] = a[i] + b[i]")
BENCH(stream_triad, stream, MEMORY, stream_ops, 3, "c[i] = a[i] + s * b[i]")
BENCH(buffer_copy, copy, MEMORY, copy_ops, 0, "clEnqueueCopyBuffer of a large buffer (twin: OpenMP copy; alt: memcpy)")
BENCH(sgemm_naive, sgemm, COMPUTE, sgemm_ops, 0, "C = A B, one work-item per element, no local memory")
BENCH(sgemm_tiled, sgemm, COMPUTE, sgemm_ops, 1, "C = A B, 16x16 __local tiles, two barriers per tile step")
BENCH(sgemm_tiled8, sgemm, COMPUTE, sgemm_ops, 2, "the same with 8x8 tiles")
BENCH(sgemm_regtile, sgemm, COMPUTE, sgemm_ops, 3, "C = A B register-tiled: 4x4 a work-item, 32x32 __local tiles, A's transposed")
BENCH(gemm_direct, gemm, COMPUTE, gemm_ops, 0, "a BLAS library's direct SGEMM: 8x4 a work-item, 64x32 tiles, float4 loads, any size")
BENCH(gemm_direct_s, gemm, COMPUTE, gemm_ops, 2, "the same at the small size")
BENCH(gemm_direct_tn, gemm, COMPUTE, gemm_ops, 6, "the same, small, C = A^T B (A stored transposed)")
BENCH(gemm_direct_nt, gemm, COMPUTE, gemm_ops, 10, "the same, small, C = A B^T (B stored transposed)")
BENCH(gemm_indirect, gemm, COMPUTE, gemm_ops, 1, "a BLAS library's indirect SGEMM: A padded and transposed first, 4x4 a work-item")
BENCH(gemm_indirect_s, gemm, COMPUTE, gemm_ops, 3, "the same at the small size")
BENCH(ml_matmul, ml, COMPUTE, ml_matmul_ops, 0, "an ML compiler's matmul: shapes as constants, 4x4 a work-item in float4, no __local")
BENCH(ml_conv2d, ml, COMPUTE, ml_conv2d_ops, 0, "an ML compiler's 3x3 conv2d, NCHW, 64 channels: 4 channels x 4 pixels a work-item")
BENCH(chain_float, chains, COMPUTE, chains_ops, 1, "per work-item loop of 2048 dependent x = x*x + c on float")
BENCH(chain_float4, chains, COMPUTE, chains_ops, 4, "the same on float4")
BENCH(chain_float16, chains, COMPUTE, chains_ops, 16, "the same on float16")
BENCH(mandelbrot, compute, COMPUTE, mandel_ops, 0, "Mandelbrot, 256 iterations at most, per-pixel while loop")
BENCH(persistent, compute, COMPUTE, mandel_ops, 1, "the same as persistent threads: 64 a compute unit take pixels with atomic_inc")
BENCH(nbody, compute, COMPUTE, nbody_ops, 0, "all-pairs N-body accelerations, float4 positions, rsqrt")
BENCH(math_mix, compute, COMPUTE, math_ops, 0, "sin, exp, log and pow per element")
BENCH(reduce, local, MEMORY, reduce_ops, 0, "work-group tree sum in __local memory, barrier in the loop (seed 000)")
BENCH(reduce_cached, local, MEMORY, reduce_ops, 1, "the same over data that fit in the last-level cache")
BENCH(scan, local, MEMORY, scan_ops, 0, "exclusive scan: work-group scans, block sums, offsets")
BENCH(scan_cached, local, MEMORY, scan_ops, 1, "the same over data that fit in the last-level cache")
BENCH(stencil, local, MEMORY, stencil_ops, 0, "2D 5-point stencil through 18x18 __local tiles")
BENCH(stencil_cached, local, MEMORY, stencil_ops, 1, "the same over data that fit in the last-level cache")
BENCH(histogram, local, MEMORY, histogram_ops, 0, "256-bin histogram: __local atomics, then global atomics")
BENCH(erode7, filters, MEMORY, filter_ops, 0, "byte image: min over 7x7 through a 22x22 __local tile, 16x16 groups")
BENCH(dilate7, filters, MEMORY, filter_ops, 1, "the same with max")
BENCH(median5, filters, MEMORY, filter_ops, 2, "byte image: 5x5 median, a min/max network on a __local tile's window")
BENCH(in_range, filters, MEMORY, filter_ops, 3, "uchar4 image: 255 where 3 channels are in their bounds, else 0")
BENCH(transpose, filters, MEMORY, filter_ops, 4, "byte image transposed through 32x33 __local tiles")
BENCH(split3, filters, MEMORY, filter_ops, 5, "uchar4 image: 3 channels into 3 byte planes")
BENCH(flip, filters, MEMORY, filter_ops, 6, "byte image mirrored left to right")
BENCH(sum_u8, filters, MEMORY, filter_ops, 7, "sum of a byte image: strided sums, a __local tree, the groups' sums on the host")
BENCH(empty_kernel, launch, LATENCY, empty_ops, 0, "latency of one empty kernel: enqueue and wait (twin: empty omp parallel)")
BENCH(enqueue_10k, launch, LATENCY, enqueues_ops, 0, "10,000 small kernels in a row, one wait (twin: omp parallel for)")
BENCH(replay_1k, launch, LATENCY, replay_ops, 0, "1,000 small kernels replayed from a command buffer; note: one by one vs replayed")
