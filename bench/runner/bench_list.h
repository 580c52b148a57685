/*
 * Every benchmark of the runner, in the order it runs them: one row each.
 * The runner includes this file with BENCH() defined to build its table
 * (main.c) and runner.h with BENCH() defined to declare the ops.
 *
 *   BENCH(name, group, bound, ops, variant, what)
 *
 * name     the row's name in the table, the CSV and the chart
 * group    the file its ops are in (bench/runner/<group>.c)
 * bound    MEMORY: its share is of the triad bandwidth; COMPUTE: of the FMA
 *          peak; LATENCY: its time is per operation, no roof
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
