/*
 * The shape every object entry point shares, written once (in the spirit of
 * the Khronos ICD loader, whose entry points one pattern makes, and of Lua's
 * lapi.c, whose entry points check their arguments with one macro):
 *
 *   - a bad handle:   MOSAIC_CHECK_HANDLE(handle, TYPE) returns the type's
 *                     CL_INVALID_* code (MOSAIC_CHECK_HANDLE_RET sets
 *                     *errcode_ret and returns NULL, for clCreate*);
 *   - retain/release: MOSAIC_RETAIN_RELEASE(Name, cl_type, TYPE) defines
 *                     clRetainName and clReleaseName;
 *   - get-info:       check the handle, switch on param_name, answer with
 *                     MOSAIC_INFO_SCALAR / _STRING / _ARRAY (one copy-out,
 *                     mosaic_info) and MOSAIC_INFO_UNKNOWN for the default.
 *
 * Each failure has one message, whatever the type: "<arg> <pointer> is not a
 * valid <type>", "<type> <pointer> was released more often than retained",
 * "param_value_size N is smaller than the M bytes of the answer", "unknown
 * param_name 0x...".  They print with MOSAIC_DEBUG=1, under the entry
 * point's name.
 *
 * The object model itself (tags, counts, destruction) is core's
 * (core/objects.h); this is its face to the application.
 */
#ifndef MOSAIC_API_ENTRY_H
#define MOSAIC_API_ENTRY_H

#include "core/objects.h"
#include "core/util.h"

/* ---- handles ----------------------------------------------------------------- */

/* Reports that `handle` (the argument `arg` of `function`) is not a valid
 * object of `type`, and returns the type's CL_INVALID_* code. */
cl_int mosaic_invalid_handle(const char *function, const char *arg, mosaic_object_type type, const void *handle);

#define MOSAIC_CHECK_HANDLE(handle, TYPE)                                                         \
    do {                                                                                          \
        if (!MOSAIC_IS((handle), TYPE))                                                           \
            return mosaic_invalid_handle(__func__, #handle, MOSAIC_##TYPE, (handle));              \
    } while (0)

#define MOSAIC_CHECK_HANDLE_RET(handle, TYPE, errcode_ret)                                        \
    do {                                                                                          \
        if (!MOSAIC_IS((handle), TYPE)) {                                                         \
            mosaic_set_error((errcode_ret), mosaic_invalid_handle(__func__, #handle, MOSAIC_##TYPE, (handle))); \
            return NULL;                                                                          \
        }                                                                                         \
    } while (0)

/* ---- retain and release ------------------------------------------------------ */

/* clRetainX and clReleaseX of every type: check the handle, then count (an
 * object with no destroy function, the platform or a root device, is not
 * counted).  A release past zero fails with the type's CL_INVALID_* code. */
cl_int mosaic_api_retain(const char *function, mosaic_object_type type, void *handle);
cl_int mosaic_api_release(const char *function, mosaic_object_type type, void *handle);

/* True on a thread inside clReleaseX: a destroy function called there runs
 * on the application's thread, outside any runtime lock, so it may call the
 * application's callbacks directly (elsewhere they go to mosaic_defer). */
bool mosaic_in_user_release(void);

#define MOSAIC_RETAIN_RELEASE(Name, handle_type, TYPE)                                            \
    CL_API_ENTRY cl_int CL_API_CALL clRetain##Name(handle_type handle)                            \
    {                                                                                             \
        return mosaic_api_retain(__func__, MOSAIC_##TYPE, handle);                                \
    }                                                                                             \
    CL_API_ENTRY cl_int CL_API_CALL clRelease##Name(handle_type handle)                           \
    {                                                                                             \
        return mosaic_api_release(__func__, MOSAIC_##TYPE, handle);                               \
    }

/* ---- get-info ---------------------------------------------------------------- */

/* The copy-out of every clGet*Info, for an answer of `size` bytes: with
 * `value` not NULL and `value_size` smaller, CL_INVALID_VALUE; else
 * *value_size_ret (if asked) receives `size`.  mosaic_info copies `src`
 * into `value`; mosaic_info_size only checks and answers the size, for an
 * answer the caller then writes into `value` itself (when not NULL);
 * mosaic_info_string answers a string with its terminating 0 (NULL answers
 * ""); mosaic_info_unknown is CL_INVALID_VALUE for a param_name the function
 * does not know.  Called inside a clGet*Info, they name it in their
 * messages (the functions behind them take that name). */
#define mosaic_info(value_size, value, value_size_ret, src, size) \
    mosaic_info_reply(__func__, (value_size), (value), (value_size_ret), (src), (size))
#define mosaic_info_size(value_size, value, value_size_ret, size) \
    mosaic_info_reply_size(__func__, (value_size), (value), (value_size_ret), (size))
#define mosaic_info_string(value_size, value, value_size_ret, s) \
    mosaic_info_reply_string(__func__, (value_size), (value), (value_size_ret), (s))
#define mosaic_info_unknown(param_name) mosaic_info_reply_unknown(__func__, (cl_uint)(param_name))

cl_int mosaic_info_reply(const char *function, size_t value_size, void *value, size_t *value_size_ret,
                         const void *src, size_t size);
cl_int mosaic_info_reply_size(const char *function, size_t value_size, const void *value, size_t *value_size_ret,
                              size_t size);
cl_int mosaic_info_reply_string(const char *function, size_t value_size, void *value, size_t *value_size_ret,
                                const char *s);
cl_int mosaic_info_reply_unknown(const char *function, cl_uint param_name);

/* The answers inside a clGet*Info (they use its parameter names
 * param_value_size, param_value and param_value_size_ret, and return). */
#define MOSAIC_INFO_SCALAR(T, v) \
    do { T mosaic_tmp_ = (T)(v); \
         return mosaic_info(param_value_size, param_value, param_value_size_ret, &mosaic_tmp_, sizeof mosaic_tmp_); } while (0)
#define MOSAIC_INFO_STRING(s) \
    return mosaic_info_string(param_value_size, param_value, param_value_size_ret, (s))
#define MOSAIC_INFO_ARRAY(ptr, count) \
    return mosaic_info(param_value_size, param_value, param_value_size_ret, (ptr), (count) * sizeof *(ptr))
#define MOSAIC_INFO_UNKNOWN(param_name) return mosaic_info_unknown(param_name)

#endif
