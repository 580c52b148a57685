/* core/printf_format.h: printf's conversions on packed arguments, and the
 * descriptors that do not fit a conversion refused (on the GPU they come
 * from memory a kernel writes; tests/fuzz/fuzz_printf_format.c feeds it
 * anything). */
#include "core/printf_format.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"

#define TEST_LIST "test_printf_format.list"
#include "test.h"

/* The text of format with nargs arguments of descriptors desc packed in
 * args, or NULL when the formatter refused them. */
static char *formatted(const char *format, const void *args, const uint32_t *desc, uint32_t nargs)
{
    mosaic_strbuf o = {0};
    if (!mosaic_printf_format(&o, format, args, desc, nargs, NULL)) {
        mosaic_strbuf_free(&o);
        return NULL;
    }
    mosaic_strbuf_puts(&o, "");
    return mosaic_strbuf_take(&o);
}

TEST(conversions)
{
    int64_t args[4] = {-42, 0, 0, 0};
    float v[4] = {1.5f, 2, 3, 4};
    memcpy(&args[1], v, sizeof v);
    uint32_t desc[2] = {MOSAIC_PRINTF_DESC(MOSAIC_PRINTF_INT, 4, 1), MOSAIC_PRINTF_DESC(MOSAIC_PRINTF_FLOAT, 4, 4)};
    char *text = formatted("%d|%5x|", args, desc, 1);
    CHECK(text == NULL, "two conversions of one argument: %s", text ? text : "");
    free(text);
    text = formatted("%d|%v4hlf", args, desc, 2);
    CHECK(text && !strcmp(text, "-42|1.500000,2.000000,3.000000,4.000000"), "%s", text ? text : "(refused)");
    free(text);
}

/* A pointer conversion reads 8 bytes: a descriptor of no element (count 0,
 * which packs no bytes) is refused, not read past (a finding of
 * fuzz_printf_format). */
TEST(pointer_of_no_element)
{
    uint32_t desc = MOSAIC_PRINTF_DESC(MOSAIC_PRINTF_POINTER, 8, 0);
    CHECK(mosaic_printf_packed_size(&desc, 1) == 0);
    unsigned char *nothing = malloc(1);
    char *text = formatted("%p\n", nothing, &desc, 1);
    CHECK(text == NULL, "accepted: %s", text ? text : "");
    free(text);
    text = formatted("%s\n", nothing, &desc, 1);
    CHECK(text == NULL, "accepted: %s", text ? text : "");
    free(text);
    free(nothing);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
