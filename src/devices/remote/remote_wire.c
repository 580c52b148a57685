/*
 * Inline bytes of the remote protocol (protocol.h): written by appending,
 * read with bounds checked on every step.
 */
#include "devices/remote/protocol.h"

#include <stdlib.h>
#include <string.h>

void remote_put(remote_msg *m, const void *bytes, size_t n)
{
    if (m->oom)
        return;
    if (m->size + n > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->size + n)
            cap *= 2;
        char *grown = realloc(m->data, cap);
        if (!grown) {
            m->oom = true;
            return;
        }
        m->data = grown;
        m->cap = cap;
    }
    if (n)
        memcpy(m->data + m->size, bytes, n);
    m->size += n;
}

void remote_put_u64(remote_msg *m, uint64_t v)
{
    remote_put(m, &v, sizeof v);
}

void remote_put_str(remote_msg *m, const char *s)
{
    remote_put_blob(m, s ? s : "", s ? strlen(s) + 1 : 1);
}

void remote_put_blob(remote_msg *m, const void *bytes, size_t n)
{
    remote_put_u64(m, n);
    remote_put(m, bytes, n);
}

bool remote_get(remote_reader *r, void *bytes, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(bytes, 0, n);
        return false;
    }
    memcpy(bytes, r->p, n);
    r->p += n;
    return true;
}

uint64_t remote_get_u64(remote_reader *r)
{
    uint64_t v = 0;
    remote_get(r, &v, sizeof v);
    return v;
}

const void *remote_get_blob(remote_reader *r, size_t *n)
{
    uint64_t size = remote_get_u64(r);
    if (r->bad || (uint64_t)(r->end - r->p) < size) {
        r->bad = true;
        *n = 0;
        return NULL;
    }
    const void *at = r->p;
    r->p += size;
    *n = (size_t)size;
    return at;
}

const char *remote_get_str(remote_reader *r)
{
    size_t n = 0;
    const char *s = remote_get_blob(r, &n);
    if (!s || n == 0 || s[n - 1] != '\0') {
        r->bad = true;
        return "";
    }
    return s;
}

/* ---- devices and kernels ---- */

#include "core/objects.h"

void remote_put_device(remote_msg *m, const struct _cl_device_id *device)
{
    remote_put_blob(m, device, sizeof *device);
    remote_put_str(m, device->extensions);
    remote_put_str(m, device->il_version);
    remote_put_str(m, device->compiler_target.triple); /* what the server's SPIR-V front end takes */
    remote_put_u64(m, device->num_opencl_c_features);
    for (cl_uint i = 0; i < device->num_opencl_c_features; i++)
        remote_put_str(m, device->opencl_c_features[i]);
}

bool remote_get_device(remote_reader *r, struct _cl_device_id *device, char **strings)
{
    size_t n = 0;
    const void *raw = remote_get_blob(r, &n);
    *strings = NULL;
    if (!raw || n != sizeof *device)
        return false;
    memcpy(device, raw, sizeof *device);
    const char *extensions = remote_get_str(r), *il = remote_get_str(r), *triple = remote_get_str(r);
    uint64_t features = remote_get_u64(r);
    if (r->bad || features > sizeof device->opencl_c_features / sizeof device->opencl_c_features[0])
        return false;
    const char *names[64];
    size_t total = strlen(extensions) + strlen(il) + strlen(triple) + 3;
    for (uint64_t i = 0; i < features; i++) {
        names[i] = remote_get_str(r);
        total += strlen(names[i]) + 1;
    }
    if (r->bad || !(*strings = malloc(total)))
        return false;
    /* every pointer of the server's process is meaningless here */
    memset(&device->dispatch, 0, sizeof device->dispatch);
    device->platform = NULL;
    device->ops = NULL;
    device->impl = NULL;
    device->mem_domain = NULL;
    device->parent = NULL;
    device->partition_type = NULL;
    device->partition_type_len = 0;
    memset(&device->compiler_target, 0, sizeof device->compiler_target);
    char *p = *strings;
    device->extensions = strcpy(p, extensions);
    p += strlen(p) + 1;
    device->il_version = strcpy(p, il);
    p += strlen(p) + 1;
    strcpy(p, triple);
    device->compiler_target.triple = *triple ? p : NULL; /* (the SPIR-V queries read it) */
    p += strlen(p) + 1;
    device->num_opencl_c_features = (cl_uint)features;
    for (uint64_t i = 0; i < features; i++) {
        device->opencl_c_features[i] = strcpy(p, names[i]);
        p += strlen(p) + 1;
    }
    return true;
}

void remote_put_kernel(remote_msg *m, const struct mosaic_kernel_info *k, uint64_t work_group_limit)
{
    remote_put_str(m, k->name);
    remote_put_str(m, k->attributes);
    remote_put_u64(m, k->num_args);
    for (cl_uint i = 0; i < k->num_args; i++) {
        const mosaic_kernel_arg *a = &k->args[i];
        uint64_t numbers[6] = {a->kind, a->size, a->alignment, a->address_qualifier, a->access_qualifier,
                               a->type_qualifier};
        remote_put(m, numbers, sizeof numbers);
        remote_put_str(m, a->type_name);
        remote_put_str(m, a->name);
    }
    uint64_t numbers[11] = {k->reqd_work_group_size[0], k->reqd_work_group_size[1], k->reqd_work_group_size[2],
                            k->work_group_size_hint[0], k->work_group_size_hint[1], k->work_group_size_hint[2],
                            k->static_local_mem_size, k->private_mem_size, k->uses_barriers, work_group_limit, 0};
    remote_put(m, numbers, sizeof numbers);
}

static char *copy_str(const char *s)
{
    return strdup(s);
}

bool remote_get_kernel(remote_reader *r, struct mosaic_kernel_info *k, uint64_t *work_group_limit)
{
    memset(k, 0, sizeof *k);
    k->name = copy_str(remote_get_str(r));
    k->attributes = copy_str(remote_get_str(r));
    uint64_t n = remote_get_u64(r);
    if (r->bad || n > 1024 || !k->name || !k->attributes)
        return false;
    k->args = calloc(n ? n : 1, sizeof *k->args);
    if (!k->args)
        return false;
    k->num_args = (cl_uint)n;
    for (uint64_t i = 0; i < n; i++) {
        mosaic_kernel_arg *a = &k->args[i];
        uint64_t v[6];
        remote_get(r, v, sizeof v);
        a->kind = (mosaic_arg_kind)v[0];
        a->size = v[1];
        a->alignment = v[2];
        a->address_qualifier = (cl_kernel_arg_address_qualifier)v[3];
        a->access_qualifier = (cl_kernel_arg_access_qualifier)v[4];
        a->type_qualifier = (cl_kernel_arg_type_qualifier)v[5];
        a->type_name = copy_str(remote_get_str(r));
        a->name = copy_str(remote_get_str(r));
        if (r->bad || !a->type_name || !a->name)
            return false;
    }
    uint64_t v[11];
    remote_get(r, v, sizeof v);
    for (int d = 0; d < 3; d++) {
        k->reqd_work_group_size[d] = v[d];
        k->work_group_size_hint[d] = v[3 + d];
    }
    k->static_local_mem_size = v[6];
    k->private_mem_size = v[7];
    k->uses_barriers = v[8] != 0;
    *work_group_limit = v[9];
    return !r->bad;
}
