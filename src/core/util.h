/* Small helpers every API file uses: info queries, error reporting, time. */
#ifndef MOSAIC_UTIL_H
#define MOSAIC_UTIL_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The common tail of every clGet*Info: copy `src_size` bytes of `src` out,
 * CL_INVALID_VALUE if the user's buffer is too small. */
cl_int mosaic_info(size_t value_size, void *value, size_t *value_size_ret,
                   const void *src, size_t src_size);
cl_int mosaic_info_string(size_t value_size, void *value, size_t *value_size_ret, const char *s);
#define MOSAIC_INFO_SCALAR(T, v) \
    do { T mosaic_tmp_ = (T)(v); \
         return mosaic_info(param_value_size, param_value, param_value_size_ret, &mosaic_tmp_, sizeof mosaic_tmp_); } while (0)
#define MOSAIC_INFO_STRING(s) \
    return mosaic_info_string(param_value_size, param_value, param_value_size_ret, (s))
#define MOSAIC_INFO_ARRAY(ptr, count) \
    return mosaic_info(param_value_size, param_value, param_value_size_ret, (ptr), (count) * sizeof *(ptr))

/* MOSAIC_DEBUG=1 prints why a call failed on stderr. */
bool mosaic_debug_enabled(void);
void mosaic_debug(const char *function, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Report an API error (when debugging) and evaluate to the code. */
#define MOSAIC_ERROR(code, ...) (mosaic_debug(__func__, __VA_ARGS__), (code))
/* For functions returning an object: set *errcode_ret if given. */
static inline void mosaic_set_error(cl_int *errcode_ret, cl_int code) { if (errcode_ret) *errcode_ret = code; }

/* Monotonic nanoseconds: the clock of profiling and clGetHostTimer. */
uint64_t mosaic_now_ns(void);

/* Environment settings (all MOSAIC_*). */
long mosaic_env_long(const char *name, long fallback);

/* Allocation that never returns NULL silently: callers map NULL to CL_OUT_OF_HOST_MEMORY. */
void *mosaic_calloc(size_t count, size_t size);
char *mosaic_strdup(const char *s);
/* Grow a dynamic array to hold at least `need` items; false on failure. */
bool mosaic_grow(void **array, size_t *capacity, size_t need, size_t item_size);

#endif
