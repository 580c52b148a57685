/*
 * The remote protocol's bytes (src/devices/remote/remote_wire.c), without
 * MPI: what one side writes the other reads back, and a message cut short
 * or lying about its sizes is refused, never read past its end.  And
 * without MOSAIC_REMOTE there are no remote devices and MPI is not loaded.
 */
#define TEST_LIST "test_remote_wire.list"
#include "test.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"
#include "devices/remote/protocol.h"
#include "devices/remote/remote.h"

TEST(remote_wire_round_trip)
{
    remote_msg m = {0};
    remote_put_u64(&m, 42);
    remote_put_str(&m, "hello");
    remote_put_str(&m, NULL);
    remote_put_blob(&m, "\0\1\2", 3);
    CHECK(!m.oom);
    remote_reader r = {.p = m.data, .end = m.data + m.size};
    CHECK(remote_get_u64(&r) == 42);
    CHECK(!strcmp(remote_get_str(&r), "hello"));
    CHECK(!strcmp(remote_get_str(&r), ""));
    size_t n = 0;
    const char *blob = remote_get_blob(&r, &n);
    CHECK(blob && n == 3 && blob[2] == 2);
    CHECK(!r.bad && r.p == r.end);
    remote_get_u64(&r); /* past the end */
    CHECK(r.bad);
    free(m.data);
}

TEST(remote_wire_damaged)
{
    remote_msg m = {0};
    remote_put_str(&m, "a string");
    /* every cut short of the whole is refused */
    for (size_t cut = 0; cut < m.size; cut++) {
        remote_reader r = {.p = m.data, .end = m.data + cut};
        const char *s = remote_get_str(&r);
        CHECK(r.bad && !strcmp(s, ""), "a message cut at %zu bytes was read", cut);
    }
    /* a size larger than what follows, and a string without its NUL */
    uint64_t huge = UINT64_MAX;
    memcpy(m.data, &huge, sizeof huge);
    remote_reader r = {.p = m.data, .end = m.data + m.size};
    size_t n = 1;
    CHECK(remote_get_blob(&r, &n) == NULL && n == 0 && r.bad);
    free(m.data);
    remote_msg t = {0};
    remote_put_blob(&t, "abc", 3);
    remote_reader u = {.p = t.data, .end = t.data + t.size};
    CHECK(!strcmp(remote_get_str(&u), "") && u.bad, "a string without its NUL was read");
    free(t.data);
}

TEST(remote_wire_device)
{
    struct _cl_device_id d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "a device");
    d.compute_units = 7;
    d.extensions = "cl_khr_fp64 cl_khr_icd";
    d.il_version = "SPIR-V_1.0";
    d.opencl_c_features[0] = "__opencl_c_fp64";
    d.opencl_c_features[1] = "__opencl_c_images";
    d.num_opencl_c_features = 2;
    d.ops = (const mosaic_device_ops *)&d; /* a pointer of "the server's process" */
    remote_msg m = {0};
    remote_put_device(&m, &d);
    struct _cl_device_id got;
    char *strings = NULL;
    remote_reader r = {.p = m.data, .end = m.data + m.size};
    CHECK(remote_get_device(&r, &got, &strings));
    CHECK(!strcmp(got.name, "a device") && got.compute_units == 7);
    CHECK(!strcmp(got.extensions, d.extensions) && !strcmp(got.il_version, "SPIR-V_1.0"));
    CHECK(got.num_opencl_c_features == 2 && !strcmp(got.opencl_c_features[1], "__opencl_c_images"));
    CHECK(got.ops == NULL, "a pointer of the server's process was kept");
    free(strings);
    /* cut anywhere: refused, nothing kept */
    for (size_t cut = 0; cut < m.size; cut += 7) {
        remote_reader c = {.p = m.data, .end = m.data + cut};
        char *s = NULL;
        CHECK(!remote_get_device(&c, &got, &s) && s == NULL, "a description cut at %zu bytes was taken", cut);
    }
    free(m.data);
}

TEST(remote_wire_kernel)
{
    mosaic_kernel_arg args[2] = {
        {.kind = MOSAIC_ARG_GLOBAL_PTR, .size = 8, .type_name = "float*", .name = "x"},
        {.kind = MOSAIC_ARG_BY_VALUE, .size = 16, .alignment = 16, .type_name = "float4", .name = "v"},
    };
    mosaic_kernel_info k = {.name = "k", .attributes = "", .num_args = 2, .args = args,
                            .reqd_work_group_size = {8, 4, 1}, .static_local_mem_size = 256, .uses_barriers = true};
    remote_msg m = {0};
    remote_put_kernel(&m, &k, 512);
    mosaic_kernel_info got;
    uint64_t limit = 0;
    remote_reader r = {.p = m.data, .end = m.data + m.size};
    CHECK(remote_get_kernel(&r, &got, &limit));
    CHECK(!strcmp(got.name, "k") && got.num_args == 2 && limit == 512);
    CHECK(got.args[1].kind == MOSAIC_ARG_BY_VALUE && got.args[1].size == 16 && !strcmp(got.args[1].type_name, "float4"));
    CHECK(got.reqd_work_group_size[1] == 4 && got.static_local_mem_size == 256 && got.uses_barriers);
    CHECK(got.wg_fn == NULL && got.wi_fn == NULL);
    /* the table an executable is made of (freed with it, strings and all) */
    mosaic_kernel_info *table = malloc(sizeof *table);
    *table = got;
    mosaic_executable *exe = mosaic_executable_of_table(table, 1);
    CHECK(exe && mosaic_executable_num_kernels(exe) == 1 && mosaic_executable_find_kernel(exe, "k"));
    mosaic_executable_free(exe);
    free(m.data);
}

TEST(remote_no_transport_no_devices)
{
    unsetenv("MOSAIC_REMOTE");
    CHECK(mosaic_remote_device_count() == 0);
    CHECK(dlopen("libmpi.so.40", RTLD_NOLOAD | RTLD_LAZY) == NULL, "MPI was loaded without MOSAIC_REMOTE");
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
