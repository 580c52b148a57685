/*
 * The context helpers other files use, linked with Mosaic's objects:
 * mosaic_context_has_device (api/context.h), and mosaic_context_notify (core/engine.h)
 * calling the context's pfn_notify on the callback thread with a copy of the
 * message.
 */
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_context_internal.list"
#include "test.h"
#include "api/context.h"
#include "core/engine.h"

static atomic_int notified;
static char message[128];
static void *seen_user_data;
static pthread_t notify_thread;

static void CL_CALLBACK notify(const char *errinfo, const void *private_info, size_t cb, void *user_data)
{
    (void)private_info, (void)cb;
    strncpy(message, errinfo, sizeof message - 1);
    seen_user_data = user_data;
    notify_thread = pthread_self();
    atomic_fetch_add(&notified, 1);
}

static bool wait_for(int count)
{
    for (int i = 0; i < 5000 && atomic_load(&notified) < count; i++) {
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
    }
    return atomic_load(&notified) >= count;
}

/* mosaic_context_has_device and mosaic_context_notify. */
TEST(helpers)
{
    cl_platform_id platform = NULL;
    cl_device_id device = NULL;
    CHECK_ERR(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    int tag = 42;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, notify, &tag, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!ctx)
        return;

    CHECK(mosaic_context_has_device(ctx, device));
    CHECK(!mosaic_context_has_device(ctx, NULL));
    CHECK(!mosaic_context_has_device(ctx, (cl_device_id)platform));
    CHECK(!mosaic_context_has_device(NULL, device));

    char text[] = "something failed";
    mosaic_context_notify(ctx, text);
    memset(text, 'x', sizeof text - 1); /* the message was copied */
    CHECK(wait_for(1));
    CHECK(strcmp(message, "something failed") == 0);
    CHECK(seen_user_data == &tag);
    CHECK(!pthread_equal(notify_thread, pthread_self())); /* on the callback thread */

    mosaic_context_notify(ctx, NULL); /* an empty message */
    CHECK(wait_for(2));
    CHECK(message[0] == '\0');

    /* a context without pfn_notify, and a bad handle: nothing happens */
    cl_context quiet = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    mosaic_context_notify(quiet, "ignored");
    mosaic_context_notify(NULL, "ignored");
    struct timespec pause = { 0, 50000000 };
    nanosleep(&pause, NULL);
    CHECK(atomic_load(&notified) == 2);

    clReleaseContext(quiet);
    clReleaseContext(ctx);
    }

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
