/*
 * The work-group context is an ABI between two languages: the runtime fills
 * mosaic_wg_ctx (src/compiler/compiler.h, C, x86-64) and the builtins read
 * their mirror __mosaic_wg_ctx (builtins/builtins.h, OpenCL C, spir64).  This
 * test (and the image descriptor, mosaic_image_desc / __mosaic_image_desc)
 * compiles builtins.h the way the builtins are compiled (spir64, OpenCL
 * C 3.0) with a _Static_assert for the size and for each field's offset and
 * size as the C compiler sees them here: a field added, moved or resized on
 * one side only fails the build of that source, naming the field.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_wg_ctx_layout.list"
#include "test.h"
#include "compiler_host.h"

#define FIELDS(X)                                                                                      \
    X(work_dim) X(global_offset) X(global_size) X(enqueued_local_size) X(local_size) X(num_groups)    \
    X(group_id) X(local_mem) X(device_private) X(local_mem_size) X(private_lo) X(private_hi) X(wg_scratch) \
    X(stream_stores) X(check_windows)

/* The same for the image descriptor (mosaic_image_desc / __mosaic_image_desc). */
#define IMAGE_FIELDS(X)                                                                                \
    X(data) X(width) X(height) X(depth) X(array_size) X(row_pitch) X(slice_pitch) X(image_type)       \
    X(channel_order) X(channel_data_type) X(pixel_size) X(num_channels) X(reserved)

static cl_int compile(const char *source, char **log)
{
    mosaic_bitcode bc = {0};
    cl_int r = mosaic_compile_source(&test_target, source, "-cl-std=CL3.0 -I " MOSAIC_BUILTINS_DIR, 0, NULL, &bc, log);
    mosaic_bitcode_free(&bc);
    return r;
}

TEST(wg_ctx_layout)
{
    char source[8192];
    size_t n = 0;
    n += snprintf(source + n, sizeof source - n,
                  "#include \"builtins.h\"\n"
                  "#define FIELD(f) ((const __mosaic_wg_ctx *)0)->f\n"
                  "_Static_assert(sizeof(__mosaic_wg_ctx) == %zu, \"sizeof(__mosaic_wg_ctx) differs from the C side\");\n",
                  sizeof(mosaic_wg_ctx));
#define ASSERT_FIELD(f)                                                                                 \
    n += snprintf(source + n, sizeof source - n,                                                       \
                  "_Static_assert(__builtin_offsetof(__mosaic_wg_ctx, " #f ") == %zu, \"offsetof(" #f  \
                  ") differs from the C side\");\n"                                                    \
                  "_Static_assert(sizeof(FIELD(" #f ")) == %zu, \"sizeof(" #f ") differs from the C side\");\n", \
                  offsetof(mosaic_wg_ctx, f), sizeof(((mosaic_wg_ctx *)0)->f));
    FIELDS(ASSERT_FIELD)
    n += snprintf(source + n, sizeof source - n,
                  "#define IFIELD(f) ((const __mosaic_image_desc *)0)->f\n"
                  "_Static_assert(sizeof(__mosaic_image_desc) == %zu, \"sizeof(__mosaic_image_desc) differs from the C side\");\n",
                  sizeof(mosaic_image_desc));
#define ASSERT_IMAGE_FIELD(f)                                                                           \
    n += snprintf(source + n, sizeof source - n,                                                       \
                  "_Static_assert(__builtin_offsetof(__mosaic_image_desc, " #f ") == %zu, \"offsetof(image " #f \
                  ") differs from the C side\");\n"                                                    \
                  "_Static_assert(sizeof(IFIELD(" #f ")) == %zu, \"sizeof(image " #f ") differs from the C side\");\n", \
                  offsetof(mosaic_image_desc, f), sizeof(((mosaic_image_desc *)0)->f));
    IMAGE_FIELDS(ASSERT_IMAGE_FIELD)
    n += snprintf(source + n, sizeof source - n, "kernel void k(global ulong *out) { *out = 0; }\n");
    CHECK(n < sizeof source, "the source is too long");

    char *log = NULL;
    cl_int r = compile(source, &log);
    CHECK(r == CL_SUCCESS, "the OpenCL C view of the work-group context differs from the C one:\n%s", log);
    free(log);

    /* the check can fail: a wrong offset is a build error naming the field */
    char wrong[256];
    snprintf(wrong, sizeof wrong,
             "#include \"builtins.h\"\n"
             "_Static_assert(__builtin_offsetof(__mosaic_wg_ctx, local_mem) == %zu, \"offsetof(local_mem)\");\n",
             offsetof(mosaic_wg_ctx, local_mem) + 8);
    log = NULL;
    r = compile(wrong, &log);
    CHECK(r == CL_COMPILE_PROGRAM_FAILURE && log && strstr(log, "offsetof(local_mem)"),
          "a wrong offset was not reported (%d):\n%s", r, log ? log : "");
    free(log);

    /* ... and so does a wrong one in the image descriptor */
    snprintf(wrong, sizeof wrong,
             "#include \"builtins.h\"\n"
             "_Static_assert(__builtin_offsetof(__mosaic_image_desc, pixel_size) == %zu, \"offsetof(pixel_size)\");\n",
             offsetof(mosaic_image_desc, pixel_size) + 4);
    log = NULL;
    r = compile(wrong, &log);
    CHECK(r == CL_COMPILE_PROGRAM_FAILURE && log && strstr(log, "offsetof(pixel_size)"),
          "a wrong image descriptor offset was not reported (%d):\n%s", r, log ? log : "");
    free(log);

    printf("wg_ctx_layout: %zu bytes, %d fields; image descriptor: %zu bytes, %d fields\n", sizeof(mosaic_wg_ctx),
#define COUNT(f) +1
           0 FIELDS(COUNT), sizeof(mosaic_image_desc), 0 IMAGE_FIELDS(COUNT));
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
