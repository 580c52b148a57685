/*
 * Pipes through the ICD loader (docs/pipes.md): clCreatePipe and its errors,
 * clGetPipeInfo, clGetMemObjectInfo on a pipe, pipes as kernel arguments,
 * the device queries; in kernels read_pipe/write_pipe with 2 and 4
 * arguments, reservations and their commits (in and out of order), the
 * work-group forms, get_pipe_num_packets/get_pipe_max_packets; a full pipe
 * and an empty one answer negative values; producer and consumer kernels
 * running at the same time on an out-of-order queue and on two queues, with
 * every packet arriving exactly once.
 *
 *   usage: test_pipes [case|--list]   (the cases: test_pipes.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_pipes.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_mem new_buffer(size_t size, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)host,
                              &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static cl_mem new_pipe(cl_uint packet_size, cl_uint max_packets)
{
    cl_int err;
    cl_mem p = clCreatePipe(context, 0, packet_size, max_packets, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return p;
}

static cl_kernel new_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static void set_mem(cl_kernel k, cl_uint index, cl_mem m) { CHECK_ERR(clSetKernelArg(k, index, sizeof m, &m), CL_SUCCESS); }

static void run1d(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL), CL_SUCCESS);
}

static void read_back(cl_mem m, size_t size, void *out)
{
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL), CL_SUCCESS);
}

/* ---- kernels ------------------------------------------------------------------------ */

static const char source[] =
    "typedef struct { char a; int b; } pair;\n"
    "typedef struct { uint v[256]; } big;\n"
    /* 2-argument forms: status per work-item */
    "kernel void write2(global const int *src, write_only pipe int p, global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  status[g] = write_pipe(p, &src[g]);\n"
    "}\n"
    "kernel void read2(read_only pipe int p, global int *dst, global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  status[g] = read_pipe(p, &dst[g]);\n"
    "}\n"
    "kernel void write_pairs(global const pair *src, write_only pipe pair p) { write_pipe(p, &src[get_global_id(0)]); }\n"
    "kernel void read_pairs(read_only pipe pair p, global pair *dst) { read_pipe(p, &dst[get_global_id(0)]); }\n"
    "kernel void write_big(global const big *src, write_only pipe big p, global int *status) {\n"
    "  status[get_global_id(0)] = write_pipe(p, &src[get_global_id(0)]);\n"
    "}\n"
    "kernel void read_big(read_only pipe big p, global big *dst, global int *status) {\n"
    "  status[get_global_id(0)] = read_pipe(p, &dst[get_global_id(0)]);\n"
    "}\n"
    /* counts, from both access qualifiers */
    "kernel void counts_wo(write_only pipe int p, global uint *out) {\n"
    "  out[0] = get_pipe_num_packets(p); out[1] = get_pipe_max_packets(p);\n"
    "}\n"
    "kernel void counts_ro(read_only pipe int p, global uint *out) {\n"
    "  out[0] = get_pipe_num_packets(p); out[1] = get_pipe_max_packets(p);\n"
    "}\n"
    /* reservations of n packets per work-item: work-item g writes g*n+i */
    "kernel void reserve_write(write_only pipe int p, uint n, global int *status) {\n"
    "  int g = get_global_id(0);\n"
    "  reserve_id_t r = reserve_write_pipe(p, n);\n"
    "  if (!is_valid_reserve_id(r)) { status[g] = -1; return; }\n"
    "  int s = 0;\n"
    "  for (uint i = 0; i < n; i++) { int v = g * n + i; s |= write_pipe(p, r, i, &v); }\n"
    "  int v = 0; status[g] = s | (write_pipe(p, r, n, &v) < 0 ? 0 : 2);\n" /* index n is past the reservation */
    "  commit_write_pipe(p, r);\n"
    "}\n"
    "kernel void reserve_read(read_only pipe int p, uint n, global int *dst, global int *status) {\n"
    "  int g = get_global_id(0);\n"
    "  reserve_id_t r = reserve_read_pipe(p, n);\n"
    "  if (!is_valid_reserve_id(r)) { status[g] = -1; return; }\n"
    "  int s = 0;\n"
    "  for (uint i = 0; i < n; i++) s |= read_pipe(p, r, i, &dst[g * n + i]);\n"
    "  status[g] = s;\n"
    "  commit_read_pipe(p, r);\n"
    "}\n"
    /* one work-item: two reservations committed in reverse order; what readers see in between */
    "kernel void out_of_order(write_only pipe int p, global int *out) {\n"
    "  reserve_id_t a = reserve_write_pipe(p, 2), b = reserve_write_pipe(p, 3);\n"
    "  out[0] = is_valid_reserve_id(a) && is_valid_reserve_id(b);\n"
    "  for (int i = 0; i < 3; i++) { int v = 10 + i; write_pipe(p, b, i, &v); }\n"
    "  for (int i = 0; i < 2; i++) { int v = i; write_pipe(p, a, i, &v); }\n"
    "  commit_write_pipe(p, b);\n"
    "  out[1] = get_pipe_num_packets(p);\n"          /* b waits for a: nothing readable */
    "  commit_write_pipe(p, a);\n"
    "  out[2] = get_pipe_num_packets(p);\n"          /* both: 5 */
    "  reserve_id_t c = reserve_write_pipe(p, 100);\n" /* more than is free */
    "  out[3] = is_valid_reserve_id(c);\n"
    "  out[4] = is_valid_reserve_id(CLK_NULL_RESERVE_ID);\n"
    "}\n"
    /* work-group forms: the group reserves get_local_size(0) packets, work-item l takes index l */
    "kernel void wg_write(global const int *src, write_only pipe int p, global int *status) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0);\n"
    "  __local reserve_id_t shared;\n"
    "  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "  if (l == 0) shared = r;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    status[g] = write_pipe(p, shared, l, &src[g]);\n"
    "    work_group_commit_write_pipe(p, r);\n"
    "  } else status[g] = -1;\n"
    "}\n"
    "kernel void wg_read(read_only pipe int p, global int *dst, global int *status) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0);\n"
    "  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    status[g] = read_pipe(p, r, l, &dst[g]);\n"
    "    work_group_commit_read_pipe(p, r);\n"
    "  } else status[g] = -1;\n"
    "}\n"
    /* sub-group forms (OpenCL C 3.0 only: the device has no cl_khr_subgroups):
     * each sub-group reserves get_sub_group_size() packets, work-item l of
     * the sub-group takes index l */
    "#if __OPENCL_C_VERSION__ >= 300\n"
    "kernel void sg_write(global const int *src, write_only pipe int p, global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    status[g] = write_pipe(p, r, get_sub_group_local_id(), &src[g]);\n"
    "    sub_group_commit_write_pipe(p, r);\n"
    "  } else status[g] = -1;\n"
    "}\n"
    "kernel void sg_read(read_only pipe int p, global int *dst, global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    status[g] = read_pipe(p, r, get_sub_group_local_id(), &dst[g]);\n"
    "    sub_group_commit_read_pipe(p, r);\n"
    "  } else status[g] = -1;\n"
    "}\n"
    "#endif\n"
    /* each work-item reserves one packet; the group meets at a barrier, then
     * the work-items commit one by one in reverse order of local id */
    "kernel void reverse_commit(write_only pipe int p, global int *status) {\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  reserve_id_t r = reserve_write_pipe(p, 1);\n"
    "  int v = get_global_id(0);\n"
    "  status[get_global_id(0)] = is_valid_reserve_id(r) ? write_pipe(p, r, 0, &v) : -1;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  for (int i = n - 1; i >= 0; i--) {\n"
    "    if (i == l && is_valid_reserve_id(r)) commit_write_pipe(p, r);\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  }\n"
    "}\n"
    /* concurrency: producers write their packets (retrying while the pipe is
     * full), consumers read until every packet is through (retrying while it
     * is empty); retries are bounded, so a missing partner fails, never hangs */
    "#define PATIENCE (1 << 24)\n"
    "kernel void producer(write_only pipe int p, uint per_item, global int *failed) {\n"
    "  uint g = get_global_id(0);\n"
    "  for (uint i = 0; i < per_item; i++) {\n"
    "    int v = g * per_item + i;\n"
    "    uint tries = 0;\n"
    "    while (write_pipe(p, &v) != 0)\n"
    "      if (++tries == PATIENCE) { atomic_inc(failed); return; }\n"
    "  }\n"
    "}\n"
    "kernel void wg_producer(write_only pipe int p, uint per_item, global int *failed) {\n"
    "  uint g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);\n"
    "  for (uint i = 0; i < per_item; i++) {\n"
    "    int v = (get_group_id(0) * per_item + i) * n + l;\n"
    "    for (uint tries = 0;; ) {\n"
    "      reserve_id_t r = work_group_reserve_write_pipe(p, n);\n"
    "      if (is_valid_reserve_id(r)) { write_pipe(p, r, l, &v); work_group_commit_write_pipe(p, r); break; }\n"
    "      if (++tries == PATIENCE) { if (l == 0) atomic_inc(failed); return; }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "kernel void consumer(read_only pipe int p, uint total, volatile global uint *done, global uint *seen,\n"
    "                     global uint *got) {\n"
    "  uint tries = 0, mine = 0;\n"
    "  while (atomic_add(done, 0) < total && tries < PATIENCE) {\n"
    "    int v;\n"
    "    if (read_pipe(p, &v) == 0) {\n"
    "      if ((uint)v < total) atomic_inc(&seen[v]); else atomic_inc(&seen[total]);\n"
    "      atomic_inc(done); mine++; tries = 0;\n"
    "    } else tries++;\n"
    "  }\n"
    "  got[get_global_id(0)] = mine;\n"
    "}\n"
    /* a reservation-based consumer: a run of k packets comes out in order */
    "kernel void run_consumer(read_only pipe int p, uint k, uint total, volatile global uint *done,\n"
    "                         global uint *seen, global uint *bad_runs) {\n"
    "  uint tries = 0;\n"
    "  while (atomic_add(done, 0) < total && tries < PATIENCE) {\n"
    "    reserve_id_t r = reserve_read_pipe(p, k);\n"
    "    if (!is_valid_reserve_id(r)) { tries++; continue; }\n"
    "    int first; read_pipe(p, r, 0, &first);\n"
    "    for (uint i = 0; i < k; i++) {\n"
    "      int v; read_pipe(p, r, i, &v);\n"
    "      if (v != first + (int)i) atomic_inc(bad_runs);\n"
    "      if ((uint)v < total) atomic_inc(&seen[v]); else atomic_inc(&seen[total]);\n"
    "    }\n"
    "    commit_read_pipe(p, r);\n"
    "    atomic_add(done, k); tries = 0;\n"
    "  }\n"
    "}\n";

static cl_program program;

static cl_program get_program(void)
{
    if (!program)
        program = test_build_program(context, device, source, "-cl-std=CL3.0");
    return program;
}

/* ---- API ------------------------------------------------------------------------------- */

static void CL_CALLBACK count_destructor(cl_mem m, void *data) { ++*(int *)data; }

TEST(device_queries)
{
    cl_bool support = CL_FALSE;
    cl_uint max_args = 0, reservations = 0, packet = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_PIPE_ARGS, sizeof max_args, &max_args, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof reservations, &reservations,
                              NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof packet, &packet, NULL), CL_SUCCESS);
    CHECK(support == CL_TRUE);
    CHECK(max_args >= 16, "CL_DEVICE_MAX_PIPE_ARGS %u", max_args);
    CHECK(reservations >= 1);
    CHECK(packet >= 1024, "CL_DEVICE_PIPE_MAX_PACKET_SIZE %u", packet);
    /* the feature that goes with it, and the generic address space OpenCL requires beside pipes */
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size), CL_SUCCESS);
    cl_name_version *features = malloc(size);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features, NULL), CL_SUCCESS);
    bool pipes = false;
    for (size_t i = 0; i < size / sizeof *features; i++)
        pipes |= !strcmp(features[i].name, "__opencl_c_pipes");
    free(features);
    CHECK(pipes, "__opencl_c_pipes is not in CL_DEVICE_OPENCL_C_FEATURES");
    cl_bool generic = CL_FALSE;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic, &generic, NULL),
              CL_SUCCESS);
    CHECK(generic == CL_TRUE);
}

TEST(create_and_query)
{
    cl_int err;
    cl_uint max_packet = 0;
    clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet, &max_packet, NULL);
    cl_pipe_properties props[] = { 0 };

    /* errors, in the specification's words */
    CHECK(clCreatePipe(NULL, 0, 4, 4, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
    CHECK(clCreatePipe(context, CL_MEM_READ_ONLY, 4, 4, NULL, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreatePipe(context, CL_MEM_WRITE_ONLY, 4, 4, NULL, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreatePipe(context, CL_MEM_COPY_HOST_PTR, 4, 4, NULL, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreatePipe(context, CL_MEM_HOST_READ_ONLY, 4, 4, NULL, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreatePipe(context, 0, 4, 4, props, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreatePipe(context, 0, 0, 4, NULL, &err) == NULL && err == CL_INVALID_PIPE_SIZE);
    CHECK(clCreatePipe(context, 0, max_packet + 1, 4, NULL, &err) == NULL && err == CL_INVALID_PIPE_SIZE);
    CHECK(clCreatePipe(context, 0, 4, 0, NULL, &err) == NULL && err == CL_INVALID_PIPE_SIZE);
    CHECK(clCreatePipe(context, 0, max_packet, 0xffffffffu, NULL, &err) == NULL &&
          err == CL_MEM_OBJECT_ALLOCATION_FAILURE, "err %d", err);

    /* every valid flags value */
    const cl_mem_flags ok[] = { 0, CL_MEM_READ_WRITE, CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cl_mem p = clCreatePipe(context, ok[i], 12, 100, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem_flags flags = ~(cl_mem_flags)0;
        CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
        CHECK(flags == ok[i]);
        clReleaseMemObject(p);
    }
    cl_mem quiet = clCreatePipe(context, 0, 4, 1, NULL, NULL); /* errcode_ret may be NULL */
    CHECK(quiet != NULL);
    clReleaseMemObject(quiet);

    cl_mem p = clCreatePipe(context, CL_MEM_HOST_NO_ACCESS, 12, 100, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint u = 0;
    size_t size = 1;
    CHECK_ERR(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof u, &u, &size), CL_SUCCESS);
    CHECK(u == 12 && size == sizeof(cl_uint));
    CHECK_ERR(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof u, &u, NULL), CL_SUCCESS);
    CHECK(u == 100);
    CHECK_ERR(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0);
    CHECK_ERR(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 2, &u, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPipeInfo(p, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL), CL_INVALID_MEM_OBJECT);

    /* what every memory object answers */
    cl_mem_object_type type = 0;
    CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    CHECK(type == CL_MEM_OBJECT_PIPE);
    size_t bytes = 0;
    CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_SIZE, sizeof bytes, &bytes, NULL), CL_SUCCESS);
    CHECK(bytes == 1200, "CL_MEM_SIZE %zu", bytes);
    cl_context c = NULL;
    CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
    CHECK(c == context);
    void *host = (void *)1;
    CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_HOST_PTR, sizeof host, &host, NULL), CL_SUCCESS);
    CHECK(host == NULL);

    /* a pipe is no buffer, and a buffer no pipe */
    cl_mem b = new_buffer(64, NULL);
    CHECK_ERR(clGetPipeInfo(b, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL), CL_INVALID_MEM_OBJECT);
    char bytes64[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, 4, bytes64, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(queue, p, CL_TRUE, 0, 4, bytes64, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(queue, p, b, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cl_buffer_region region = { 0, 4 };
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) == NULL &&
          err == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueMapBuffer(queue, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_MEM_OBJECT);

    /* retain, release and the destructor callback */
    int destroyed = 0;
    CHECK_ERR(clSetMemObjectDestructorCallback(p, count_destructor, &destroyed), CL_SUCCESS);
    CHECK_ERR(clRetainMemObject(p), CL_SUCCESS);
    cl_uint refs = 0;
    CHECK_ERR(clGetMemObjectInfo(p, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    CHECK(refs == 2);
    CHECK_ERR(clReleaseMemObject(p), CL_SUCCESS);
    CHECK(destroyed == 0);
    CHECK_ERR(clReleaseMemObject(p), CL_SUCCESS);
    CHECK(destroyed == 1);
    clReleaseMemObject(b);
}

TEST(kernel_arguments)
{
    cl_program prog = get_program();
    if (!prog)
        return;
    cl_int err;
    cl_kernel k = new_kernel(prog, "write2");
    cl_kernel_arg_type_qualifier q = 0;
    CHECK_ERR(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL), CL_SUCCESS);
    CHECK(q == CL_KERNEL_ARG_TYPE_PIPE, "qualifier 0x%llx", (unsigned long long)q);
    cl_kernel_arg_access_qualifier a = 0;
    CHECK_ERR(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof a, &a, NULL), CL_SUCCESS);
    CHECK(a == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);

    cl_mem p = new_pipe(4, 16), b = new_buffer(64, NULL), none = NULL;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof p, &p), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof b, &b), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof none, &none), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof p, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 1, 4, &p), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof p, &p), CL_INVALID_MEM_OBJECT); /* a pipe for a buffer */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem foreign = clCreatePipe(other, 0, 4, 16, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof foreign, &foreign), CL_INVALID_CONTEXT);
    clReleaseMemObject(foreign);
    clReleaseContext(other);

    /* a kernel with a pipe runs, and holds the pipe while queued: the user may release it at once */
    int src[16], status[16];
    for (int i = 0; i < 16; i++)
        src[i] = i;
    cl_mem s = new_buffer(sizeof src, src), st = new_buffer(sizeof status, NULL);
    set_mem(k, 0, s);
    set_mem(k, 1, p);
    set_mem(k, 2, st);
    run1d(queue, k, 16, 0);
    clReleaseMemObject(p);
    read_back(st, sizeof status, status);
    for (int i = 0; i < 16; i++)
        CHECK(status[i] == 0);
    clReleaseMemObject(s);
    clReleaseMemObject(st);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

/* ---- 2-argument forms ------------------------------------------------------------------- */

/* Writes n ints (values base..base+n-1) into p with write2; returns how many went in. */
static int write_ints(cl_mem p, int n, int base, int *status)
{
    cl_kernel k = new_kernel(get_program(), "write2");
    int *src = malloc(n * sizeof *src);
    for (int i = 0; i < n; i++)
        src[i] = base + i;
    cl_mem s = new_buffer(n * sizeof *src, src), st = new_buffer(n * sizeof *status, NULL);
    set_mem(k, 0, s);
    set_mem(k, 1, p);
    set_mem(k, 2, st);
    run1d(queue, k, n, 0);
    read_back(st, n * sizeof *status, status);
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += status[i] == 0;
    clReleaseMemObject(s);
    clReleaseMemObject(st);
    clReleaseKernel(k);
    free(src);
    return ok;
}

/* Reads with n work-items of read2; returns how many got a packet. */
static int read_ints(cl_mem p, int n, int *dst, int *status)
{
    cl_kernel k = new_kernel(get_program(), "read2");
    cl_mem d = new_buffer(n * sizeof *dst, NULL), st = new_buffer(n * sizeof *status, NULL);
    set_mem(k, 0, p);
    set_mem(k, 1, d);
    set_mem(k, 2, st);
    run1d(queue, k, n, 0);
    read_back(d, n * sizeof *dst, dst);
    read_back(st, n * sizeof *status, status);
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += status[i] == 0;
    clReleaseMemObject(d);
    clReleaseMemObject(st);
    clReleaseKernel(k);
    return ok;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The values read (where status is 0) are exactly base..base+n-1, once each. */
static void check_exactly_once(const int *values, const int *status, int count, int base, int n)
{
    char *seen = calloc(n, 1);
    int got = 0;
    for (int i = 0; i < count; i++) {
        if (status[i] != 0)
            continue;
        int v = values[i] - base;
        if (v < 0 || v >= n) {
            TEST_FAIL("value %d was never written", values[i]);
            continue;
        }
        CHECK(!seen[v], "value %d read twice", values[i]);
        seen[v] = 1;
        got++;
    }
    CHECK(got == n, "%d of %d values read", got, n);
    free(seen);
}

TEST(read_write)
{
    if (!get_program())
        return;
    enum { N = 4096 };
    cl_mem p = new_pipe(sizeof(int), N);
    static int status[N], values[N];
    CHECK(write_ints(p, N, 1000, status) == N);
    CHECK(read_ints(p, N, values, status) == N);
    check_exactly_once(values, status, N, 1000, N);
    /* empty now: every read fails, with a negative value */
    CHECK(read_ints(p, 64, values, status) == 0);
    for (int i = 0; i < 64; i++)
        CHECK(status[i] < 0);
    clReleaseMemObject(p);
}

TEST(full_and_empty)
{
    if (!get_program())
        return;
    enum { CAP = 100, N = 1000 };
    cl_mem p = new_pipe(sizeof(int), CAP);
    static int status[N], values[N], wstatus[N];
    /* an empty pipe: negative for everyone */
    CHECK(read_ints(p, N, values, status) == 0);
    for (int i = 0; i < N; i++)
        CHECK(status[i] < 0);
    /* a full pipe: exactly CAP writes go in, the others get a negative value */
    CHECK(write_ints(p, N, 0, wstatus) == CAP);
    for (int i = 0; i < N; i++)
        CHECK(wstatus[i] == 0 || wstatus[i] < 0);
    CHECK(write_ints(p, 10, 5000, status) == 0, "a full pipe took a packet");
    /* reading: exactly the CAP written values, once each */
    CHECK(read_ints(p, N, values, status) == CAP);
    int written[CAP], k = 0, got[CAP], j = 0;
    for (int i = 0; i < N; i++)
        if (wstatus[i] == 0 && k < CAP)
            written[k++] = i;
    for (int i = 0; i < N; i++)
        if (status[i] == 0 && j < CAP)
            got[j++] = values[i];
    CHECK(k == CAP && j == CAP);
    qsort(got, j, sizeof *got, compare_ints);
    for (int i = 0; i < CAP && i < j && i < k; i++)
        CHECK(got[i] == written[i], "read %d, written %d", got[i], written[i]);
    /* the ring wraps: fill and drain it again several times */
    for (int round = 0; round < 5; round++) {
        CHECK(write_ints(p, CAP, round * CAP, wstatus) == CAP);
        CHECK(read_ints(p, CAP, values, status) == CAP);
        check_exactly_once(values, status, CAP, round * CAP, CAP);
    }
    clReleaseMemObject(p);
}

TEST(packet_types)
{
    if (!get_program())
        return;
    typedef struct { cl_char a; cl_int b; } pair;
    enum { N = 257 };
    pair src[N], dst[N];
    for (int i = 0; i < N; i++)
        src[i] = (pair){ (cl_char)(i * 7), i * 1000 + 3 };
    cl_mem p = new_pipe(sizeof(pair), N);
    cl_mem s = new_buffer(sizeof src, src), d = new_buffer(sizeof dst, NULL);
    cl_kernel w = new_kernel(get_program(), "write_pairs"), r = new_kernel(get_program(), "read_pairs");
    set_mem(w, 0, s);
    set_mem(w, 1, p);
    set_mem(r, 0, p);
    set_mem(r, 1, d);
    run1d(queue, w, N, 0);
    run1d(queue, r, N, 0);
    read_back(d, sizeof dst, dst);
    char seen[N] = { 0 };
    for (int i = 0; i < N; i++) {
        int v = (dst[i].b - 3) / 1000;
        if (v < 0 || v >= N || seen[v] || dst[i].a != (cl_char)(v * 7))
            TEST_FAIL("packet %d: {%d, %d}", i, dst[i].a, dst[i].b);
        else
            seen[v] = 1;
    }
    clReleaseMemObject(p);
    clReleaseMemObject(s);
    clReleaseMemObject(d);
    clReleaseKernel(w);
    clReleaseKernel(r);

    /* 1 KiB packets, and a pipe whose packet size is not the kernel's: nothing moves */
    enum { M = 64, WORDS = 256 };
    cl_uint *bsrc = malloc(M * WORDS * 4), *bdst = calloc(M * WORDS, 4);
    for (int i = 0; i < M * WORDS; i++)
        bsrc[i] = (cl_uint)i * 2654435761u;
    int status[M];
    cl_mem bp = new_pipe(WORDS * 4, M), wrong = new_pipe(WORDS * 4 - 4, M);
    cl_mem bs = new_buffer(M * WORDS * 4, bsrc), bd = new_buffer(M * WORDS * 4, NULL), st = new_buffer(sizeof status, NULL);
    cl_kernel bw = new_kernel(get_program(), "write_big"), br = new_kernel(get_program(), "read_big");
    set_mem(bw, 0, bs);
    set_mem(bw, 1, wrong);
    set_mem(bw, 2, st);
    run1d(queue, bw, M, 0);
    read_back(st, sizeof status, status);
    for (int i = 0; i < M; i++)
        CHECK(status[i] < 0, "a %u-byte packet went into a pipe of %u-byte packets", WORDS * 4, WORDS * 4 - 4);
    set_mem(bw, 1, bp);
    run1d(queue, bw, M, 1);
    set_mem(br, 0, bp);
    set_mem(br, 1, bd);
    set_mem(br, 2, st);
    run1d(queue, br, M, 1);
    read_back(bd, M * WORDS * 4, bdst);
    read_back(st, sizeof status, status);
    /* one work-item per group, 1 worker at a time or not: order is any, packets whole */
    char bseen[M] = { 0 };
    for (int i = 0; i < M; i++) {
        CHECK(status[i] == 0);
        cl_uint first = bdst[i * WORDS];
        int which = -1;
        for (int j = 0; j < M; j++)
            if (bsrc[j * WORDS] == first)
                which = j;
        if (which < 0 || bseen[which] || memcmp(&bdst[i * WORDS], &bsrc[which * WORDS], WORDS * 4)) {
            TEST_FAIL("1 KiB packet %d is not one of those written, or came twice", i);
            continue;
        }
        bseen[which] = 1;
    }
    free(bsrc);
    free(bdst);
    clReleaseMemObject(bp);
    clReleaseMemObject(wrong);
    clReleaseMemObject(bs);
    clReleaseMemObject(bd);
    clReleaseMemObject(st);
    clReleaseKernel(bw);
    clReleaseKernel(br);
}

TEST(packet_counts)
{
    if (!get_program())
        return;
    enum { CAP = 300 };
    cl_mem p = new_pipe(sizeof(int), CAP), out = new_buffer(2 * sizeof(cl_uint), NULL);
    cl_kernel wo = new_kernel(get_program(), "counts_wo"), ro = new_kernel(get_program(), "counts_ro");
    set_mem(wo, 0, p);
    set_mem(wo, 1, out);
    set_mem(ro, 0, p);
    set_mem(ro, 1, out);
    static int status[CAP], values[CAP];
    cl_uint c[2];
    const int steps[][2] = { { 0, 0 }, { 120, 0 }, { 0, 50 }, { 230, 0 }, { 0, 300 }, { 17, 0 } };
    int expect = 0;
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        if (steps[s][0])
            CHECK(write_ints(p, steps[s][0], 0, status) == (expect + steps[s][0] > CAP ? CAP - expect : steps[s][0]));
        if (steps[s][1])
            CHECK(read_ints(p, steps[s][1], values, status) == (steps[s][1] > expect + steps[s][0] ? expect + steps[s][0] : steps[s][1]));
        expect += steps[s][0];
        if (expect > CAP)
            expect = CAP;
        expect -= steps[s][1] > expect ? expect : steps[s][1];
        for (int which = 0; which < 2; which++) {
            run1d(queue, which ? ro : wo, 1, 0);
            read_back(out, sizeof c, c);
            CHECK(c[0] == (cl_uint)expect && c[1] == CAP, "step %zu (%s): %u packets of %u, expected %d of %d", s,
                  which ? "read_only" : "write_only", c[0], c[1], expect, CAP);
        }
    }
    clReleaseMemObject(p);
    clReleaseMemObject(out);
    clReleaseKernel(wo);
    clReleaseKernel(ro);
}

/* ---- reservations ------------------------------------------------------------------------ */

TEST(reservations)
{
    if (!get_program())
        return;
    enum { ITEMS = 200, K = 5, CAP = ITEMS * K };
    cl_mem p = new_pipe(sizeof(int), CAP);
    cl_uint k = K;
    static int status[ITEMS], dst[CAP];
    cl_mem st = new_buffer(sizeof status, NULL), d = new_buffer(sizeof dst, NULL);
    cl_kernel w = new_kernel(get_program(), "reserve_write"), r = new_kernel(get_program(), "reserve_read");
    set_mem(w, 0, p);
    CHECK_ERR(clSetKernelArg(w, 1, sizeof k, &k), CL_SUCCESS);
    set_mem(w, 2, st);
    run1d(queue, w, ITEMS, 0);
    read_back(st, sizeof status, status);
    for (int i = 0; i < ITEMS; i++)
        CHECK(status[i] == 0, "work-item %d: status %d (2: an index past the reservation was accepted)", i, status[i]);
    /* the pipe is full now: one more reservation fails */
    run1d(queue, w, 1, 0);
    read_back(st, sizeof(int), status);
    CHECK(status[0] == -1, "a reservation on a full pipe is valid");

    set_mem(r, 0, p);
    CHECK_ERR(clSetKernelArg(r, 1, sizeof k, &k), CL_SUCCESS);
    set_mem(r, 2, d);
    set_mem(r, 3, st);
    run1d(queue, r, ITEMS, 0);
    read_back(st, sizeof status, status);
    read_back(d, sizeof dst, dst);
    /* every reservation read K consecutive values of one writer's reservation, in order */
    char seen[ITEMS] = { 0 };
    for (int i = 0; i < ITEMS; i++) {
        CHECK(status[i] == 0);
        int first = dst[i * K], w0 = first / K;
        bool ok = first % K == 0 && w0 >= 0 && w0 < ITEMS && !seen[w0];
        for (int j = 1; j < K && ok; j++)
            ok = dst[i * K + j] == first + j;
        CHECK(ok, "reservation %d read %d %d %d %d %d", i, dst[i * K], dst[i * K + 1], dst[i * K + 2],
              dst[i * K + 3], dst[i * K + 4]);
        if (ok)
            seen[w0] = 1;
    }
    /* empty: a read reservation fails */
    run1d(queue, r, 1, 0);
    read_back(st, sizeof(int), status);
    CHECK(status[0] == -1, "a reservation on an empty pipe is valid");

    /* commits out of order: nothing is readable before the earlier reservation commits */
    cl_kernel o = new_kernel(get_program(), "out_of_order");
    int out[5];
    cl_mem ob = new_buffer(sizeof out, NULL), small = new_pipe(sizeof(int), 8);
    set_mem(o, 0, small);
    set_mem(o, 1, ob);
    run1d(queue, o, 1, 0);
    read_back(ob, sizeof out, out);
    CHECK(out[0] == 1 && out[1] == 0 && out[2] == 5 && out[3] == 0 && out[4] == 0,
          "valid %d, after the later commit %d, after both %d, oversized %d, null %d", out[0], out[1], out[2],
          out[3], out[4]);
    /* the packets come out in reservation order: a's 0 1, then b's 10 11 12 */
    int order[5];
    cl_uint five = 5;
    CHECK_ERR(clSetKernelArg(r, 0, sizeof small, &small), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(r, 1, sizeof five, &five), CL_SUCCESS);
    run1d(queue, r, 1, 0);
    read_back(d, sizeof order, order);
    read_back(st, sizeof(int), status);
    CHECK(status[0] == 0 && order[0] == 0 && order[1] == 1 && order[2] == 10 && order[3] == 11 && order[4] == 12,
          "status %d, read %d %d %d %d %d", status[0], order[0], order[1], order[2], order[3], order[4]);
    clReleaseMemObject(ob);
    clReleaseMemObject(small);
    clReleaseKernel(o);
    clReleaseMemObject(p);
    clReleaseMemObject(st);
    clReleaseMemObject(d);
    clReleaseKernel(w);
    clReleaseKernel(r);
}

/* What the collective forms' tests share: writers (kernel `writer`: src,
 * pipe, status) fill a pipe of n packets in groups of `local` and every
 * work-item's status is 0; one more group finds it full and every status is
 * -1; then readers (kernel `reader`: pipe, dst, status) take all n packets
 * into dst and status, read back for the caller. */
typedef struct collective_pipe {
    cl_mem pipe, src, dst, status;
    cl_kernel writer, reader;
    size_t n, local;
} collective_pipe;

static collective_pipe fill_then_read(const char *writer, const char *reader, size_t n, size_t local, int *dst,
                                      int *status)
{
    collective_pipe c = { .n = n, .local = local };
    int *src = malloc(n * sizeof *src);
    for (size_t i = 0; i < n; i++)
        src[i] = (int)i;
    c.pipe = new_pipe(sizeof(int), (cl_uint)n);
    c.src = new_buffer(n * sizeof(int), src);
    c.dst = new_buffer(n * sizeof(int), NULL);
    c.status = new_buffer(n * sizeof(int), NULL);
    free(src);
    c.writer = new_kernel(get_program(), writer);
    c.reader = new_kernel(get_program(), reader);
    set_mem(c.writer, 0, c.src);
    set_mem(c.writer, 1, c.pipe);
    set_mem(c.writer, 2, c.status);
    run1d(queue, c.writer, n, local);
    read_back(c.status, n * sizeof(int), status);
    for (size_t i = 0; i < n; i++)
        CHECK(status[i] == 0, "%s %zu: %d", writer, i, status[i]);
    run1d(queue, c.writer, local, local); /* into a full pipe: the whole reservation fails */
    read_back(c.status, local * sizeof(int), status);
    for (size_t i = 0; i < local; i++)
        CHECK(status[i] == -1, "%s %zu into a full pipe: %d", writer, i, status[i]);
    set_mem(c.reader, 0, c.pipe);
    set_mem(c.reader, 1, c.dst);
    set_mem(c.reader, 2, c.status);
    run1d(queue, c.reader, n, local);
    read_back(c.status, n * sizeof(int), status);
    read_back(c.dst, n * sizeof(int), dst);
    return c;
}

/* The pipe is empty: `groups` groups of readers all see the invalid reservation. */
static void check_empty_then_release(collective_pipe *c, size_t groups, int *status)
{
    run1d(queue, c->reader, groups * c->local, c->local);
    read_back(c->status, groups * c->local * sizeof(int), status);
    for (size_t i = 0; i < groups * c->local; i++)
        CHECK(status[i] == -1, "reader %zu from an empty pipe: %d", i, status[i]);
    clReleaseMemObject(c->pipe);
    clReleaseMemObject(c->src);
    clReleaseMemObject(c->dst);
    clReleaseMemObject(c->status);
    clReleaseKernel(c->writer);
    clReleaseKernel(c->reader);
}

TEST(work_group_reservations)
{
    if (!get_program())
        return;
    enum { LOCAL = 64, GROUPS = 40, N = LOCAL * GROUPS };
    static int dst[N], status[N];
    collective_pipe c = fill_then_read("wg_write", "wg_read", N, LOCAL, dst, status);
    /* each reading group got one writing group's packets, in local-id order */
    char seen[GROUPS] = { 0 };
    for (int g = 0; g < GROUPS; g++) {
        int first = dst[g * LOCAL], wg = first / LOCAL;
        bool ok = first % LOCAL == 0 && wg >= 0 && wg < GROUPS && !seen[wg];
        for (int l = 0; l < LOCAL && ok; l++)
            ok = status[g * LOCAL + l] == 0 && dst[g * LOCAL + l] == first + l;
        CHECK(ok, "reading group %d: %d %d ... %d", g, dst[g * LOCAL], dst[g * LOCAL + 1], dst[g * LOCAL + LOCAL - 1]);
        if (ok)
            seen[wg] = 1;
    }
    /* commits in reverse order inside a barrier kernel: nobody waits for an earlier reservation */
    cl_kernel rc = new_kernel(get_program(), "reverse_commit");
    set_mem(rc, 0, c.pipe);
    set_mem(rc, 1, c.status);
    run1d(queue, rc, N, LOCAL);
    read_back(c.status, sizeof status, status);
    for (int i = 0; i < N; i++)
        CHECK(status[i] == 0, "reverse_commit work-item %d: %d", i, status[i]);
    /* groups on several workers reserve interleaved: check that every packet came through once */
    run1d(queue, c.reader, N, LOCAL);
    read_back(c.status, sizeof status, status);
    read_back(c.dst, sizeof dst, dst);
    check_exactly_once(dst, status, N, 0, N);
    clReleaseKernel(rc);
    check_empty_then_release(&c, 2, status);
}

TEST(sub_group_reservations)
{
    if (!get_program())
        return;
    /* groups of 60: seven sub-groups of 8 and one of 4 */
    enum { LOCAL = 60, GROUPS = 20, N = LOCAL * GROUPS };
    static int dst[N], status[N];
    collective_pipe c = fill_then_read("sg_write", "sg_read", N, LOCAL, dst, status);
    check_exactly_once(dst, status, N, 0, N);
    /* a writing sub-group's packets stay together and in order: a reading
     * sub-group of 8 that starts at a multiple of 8 (a whole writing
     * sub-group of 8) reads 8 consecutive values */
    int whole = 0;
    for (int g = 0; g < GROUPS; g++)
        for (int sg = 0; sg < 7; sg++) {
            const int *v = &dst[g * LOCAL + sg * 8];
            if (v[0] % LOCAL % 8 != 0 || v[0] % LOCAL == 56)
                continue;
            bool run = true;
            for (int l = 1; l < 8; l++)
                run &= v[l] == v[0] + l;
            CHECK(run, "group %d sub-group %d read %d %d ... %d", g, sg, v[0], v[1], v[7]);
            whole++;
        }
    CHECK(whole > 0, "no reading sub-group started at a writing sub-group's first packet");
    check_empty_then_release(&c, 1, status);
}

/* ---- producers and consumers at the same time ----------------------------------------------- */

enum { PRODUCERS = 2, PER_ITEM = 20000, TOTAL = PRODUCERS * PER_ITEM, CONSUMERS = 2, SMALL_CAP = 64 };

/* Producer and consumer kernels on qp and qc (the same out-of-order queue, or
 * two queues), with no event between them: the pipe holds SMALL_CAP packets
 * of TOTAL, so they must run at the same time for everything to go through.
 * `producer`: "producer" or "wg_producer"; `consumer`: "consumer" or
 * "run_consumer" (reservations of 4 packets, checked to come out in order). */
static void concurrent(cl_command_queue qp, cl_command_queue qc, const char *producer, const char *consumer)
{
    cl_program prog = get_program();
    if (!prog)
        return;
    bool wg = !strcmp(producer, "wg_producer"), runs = !strcmp(consumer, "run_consumer");
    cl_mem p = new_pipe(sizeof(int), SMALL_CAP);
    static const cl_uint zero[TOTAL + 1];
    cl_mem failed = new_buffer(sizeof(cl_uint), zero), done = new_buffer(sizeof(cl_uint), zero);
    cl_mem seen = new_buffer(sizeof zero, zero), got = new_buffer(CONSUMERS * sizeof(cl_uint), zero);
    cl_mem bad = new_buffer(sizeof(cl_uint), zero);
    cl_kernel kp = new_kernel(prog, producer), kc = new_kernel(prog, consumer);
    /* wg_producer: groups of 4 work-items, each group writes PER_ITEM reservations of 4 */
    cl_uint per = wg ? PER_ITEM / 4 : PER_ITEM, total = TOTAL, k = 4;
    set_mem(kp, 0, p);
    CHECK_ERR(clSetKernelArg(kp, 1, sizeof per, &per), CL_SUCCESS);
    set_mem(kp, 2, failed);
    set_mem(kc, 0, p);
    cl_uint a = 1;
    if (runs)
        CHECK_ERR(clSetKernelArg(kc, a++, sizeof k, &k), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kc, a++, sizeof total, &total), CL_SUCCESS);
    set_mem(kc, a++, done);
    set_mem(kc, a++, seen);
    set_mem(kc, a++, runs ? bad : got);

    /* consumers first: they wait for the producers, which start after them */
    size_t cg = CONSUMERS, cl1 = 1, pg = wg ? PRODUCERS * 4 : PRODUCERS, pl = wg ? 4 : 1;
    cl_event ev[2];
    CHECK_ERR(clEnqueueNDRangeKernel(qc, kc, 1, NULL, &cg, &cl1, 0, NULL, &ev[0]), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(qp, kp, 1, NULL, &pg, &pl, 0, NULL, &ev[1]), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(2, ev), CL_SUCCESS);
    clReleaseEvent(ev[0]);
    clReleaseEvent(ev[1]);

    cl_uint f = 1, d = 0, b = 1;
    static cl_uint s[TOTAL + 1];
    read_back(failed, sizeof f, &f);
    read_back(done, sizeof d, &d);
    read_back(seen, sizeof s, s);
    read_back(bad, sizeof b, &b);
    CHECK(f == 0, "%u producers gave up on a full pipe", f);
    CHECK(d == TOTAL, "%u of %u packets arrived", d, TOTAL);
    CHECK(s[TOTAL] == 0, "%u packets that were never written arrived", s[TOTAL]);
    cl_uint lost = 0, twice = 0;
    for (int i = 0; i < TOTAL; i++) {
        lost += s[i] == 0;
        twice += s[i] > 1;
    }
    CHECK(lost == 0 && twice == 0, "%u packets lost, %u arrived more than once", lost, twice);
    CHECK(b == 0, "%u packets out of order inside a reservation", b);
    /* and the pipe is empty */
    int v[4], st[4];
    CHECK(read_ints(p, 4, v, st) == 0);
    clReleaseMemObject(p);
    clReleaseMemObject(failed);
    clReleaseMemObject(done);
    clReleaseMemObject(seen);
    clReleaseMemObject(got);
    clReleaseMemObject(bad);
    clReleaseKernel(kp);
    clReleaseKernel(kc);
}

static cl_command_queue out_of_order_queue(void)
{
    cl_int err;
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

TEST(concurrent_out_of_order)
{
    cl_command_queue q = out_of_order_queue();
    concurrent(q, q, "producer", "consumer");
    concurrent(q, q, "wg_producer", "run_consumer");
    clReleaseCommandQueue(q);
}

TEST(concurrent_two_queues)
{
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    concurrent(queue, q2, "producer", "consumer");
    concurrent(queue, q2, "wg_producer", "run_consumer");
    clReleaseCommandQueue(q2);
}

/* OpenCL C 2.0 has pipes as a core feature: the same built-ins compile and run */
TEST(opencl_c_2_0)
{
    cl_program p2 = test_build_program(context, device, source, "-cl-std=CL2.0");
    if (!p2)
        return;
    cl_program saved = program;
    program = p2;
    enum { N = 512 };
    cl_mem p = new_pipe(sizeof(int), N);
    static int status[N], values[N];
    CHECK(write_ints(p, N, 7, status) == N);
    CHECK(read_ints(p, N, values, status) == N);
    check_exactly_once(values, status, N, 7, N);
    clReleaseMemObject(p);
    program = saved;
    clReleaseProgram(p2);
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    test_run(argc, argv);
    if (program)
        clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
