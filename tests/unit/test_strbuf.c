/* base/strbuf.h: the growable string every layer uses (compiler logs, the
 * CPU device's printf buffer). */
#include "base/strbuf.h"

#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_strbuf.list"
#include "test.h"

TEST(append_and_printf)
{
    mosaic_strbuf s = {0};
    CHECK(s.data == NULL && s.len == 0);
    mosaic_strbuf_append(&s, "abc", 2);
    CHECK(s.len == 2 && !strcmp(s.data, "ab"));
    mosaic_strbuf_puts(&s, "-");
    mosaic_strbuf_printf(&s, "%d:%s", 42, "x");
    CHECK(s.len == 7 && !strcmp(s.data, "ab-42:x"));
    /* growing by printf past the first capacity, and by append */
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = 0;
    mosaic_strbuf_printf(&s, "[%s]", big);
    CHECK(s.len == 7 + 2 + 999 && s.data[7] == '[' && s.data[s.len - 1] == ']' && s.data[s.len] == 0);
    for (int i = 0; i < 10000; i++)
        mosaic_strbuf_append(&s, "0123456789", 10);
    CHECK(s.len == 1008 + 100000 && s.data[s.len] == 0 && !s.oom && s.cap > s.len);
    mosaic_strbuf_free(&s);
    CHECK(s.data == NULL && s.len == 0 && s.cap == 0);
}

TEST(truncate_consume_take)
{
    mosaic_strbuf s = {0};
    mosaic_strbuf_puts(&s, "line 1\nline 2\npartial");
    mosaic_strbuf_consume(&s, 7);
    CHECK(!strcmp(s.data, "line 2\npartial") && s.len == 14);
    mosaic_strbuf_truncate(&s, 6);
    CHECK(!strcmp(s.data, "line 2") && s.len == 6);
    mosaic_strbuf_truncate(&s, 100); /* longer than the text: nothing happens */
    CHECK(s.len == 6);
    mosaic_strbuf_consume(&s, 100); /* more than there is: all of it */
    CHECK(s.len == 0 && s.data[0] == 0);
    mosaic_strbuf_puts(&s, "kept");
    char *t = mosaic_strbuf_take(&s);
    CHECK(t && !strcmp(t, "kept") && s.data == NULL && s.len == 0);
    free(t);
    /* an empty buffer hands over an empty string */
    t = mosaic_strbuf_take(&s);
    CHECK(t && t[0] == 0);
    free(t);
    mosaic_strbuf empty = {0};
    mosaic_strbuf_consume(&empty, 3);
    mosaic_strbuf_truncate(&empty, 0);
    CHECK(empty.data == NULL);
}

/* After a failed allocation the buffer drops what follows, so the text
 * never has a hole in it; free and take clear the flag. */
TEST(oom_is_sticky)
{
    mosaic_strbuf s = {0};
    mosaic_strbuf_puts(&s, "before");
    s.oom = true; /* as if an allocation had failed */
    mosaic_strbuf_puts(&s, " after");
    mosaic_strbuf_printf(&s, "%d", 1);
    CHECK(!strcmp(s.data, "before") && s.len == 6);
    mosaic_strbuf_free(&s);
    CHECK(!s.oom);
    /* a size no allocation can meet */
    mosaic_strbuf_append_slow(&s, "x", (size_t)-1 / 2);
    CHECK(s.oom && s.len == 0);
    mosaic_strbuf_free(&s);
}


/* mosaic_strbuf_json_string: quoted, ", \ and control characters escaped. */
TEST(json_string)
{
    mosaic_strbuf s = {0};
    mosaic_strbuf_json_string(&s, "a\"b\\c\nd\x01");
    CHECK(s.data && !strcmp(s.data, "\"a\\\"b\\\\c\\u000ad\\u0001\""), "%s", s.data ? s.data : "(null)");
    mosaic_strbuf_truncate(&s, 0);
    mosaic_strbuf_json_string(&s, NULL);
    CHECK(!strcmp(s.data, "\"\""));
    mosaic_strbuf_free(&s);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
