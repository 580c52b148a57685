/*
 * Devices: clGetDeviceIDs, clGetDeviceInfo, clRetainDevice, clReleaseDevice,
 * clCreateSubDevices, clGetDeviceAndHostTimer, clGetHostTimer,
 * clSetDefaultDeviceCommandQueue.
 *
 * clGetDeviceInfo answers every query of OpenCL 3.0 (and the 1.x/2.x ones
 * still in CL/cl.h) from what the device filled in at start-up
 * (struct _cl_device_id) and from what Mosaic implements today.  Optional
 * features Mosaic does not implement are reported as unsupported, with the
 * values the specification requires for that case (SPIR-V...).
 *
 * Sub-devices (clCreateSubDevices): a sub-device is a subset of its parent's
 * compute units with an executor of its own, made by the device's
 * ops->init_sub_device (core/device.h; on the CPU device the units are CPUs
 * and the executor a worker pool pinned to them).  It copies its parent's
 * description except for its compute units, so programs and kernels built for
 * one run on the other.  Partitioning a device must split it: a partition
 * that would give one sub-device with every unit fails with
 * CL_DEVICE_PARTITION_FAILED, and a device of one compute unit lists no
 * partition type.  Affinity domains come from ops->unit_domain_key (the CPU
 * device reads sysfs): a device lists those that split it in two or more.
 */
#include "api/api.h"
#include "api/command_buffer.h"
#include "api/entry.h"
#include "base/assert.h"
#include "core/device.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MOSAIC_VERSION_STRING
#define MOSAIC_VERSION_STRING "0.0.0"
#endif

#define MAX_LISTED 64 /* extensions / features in one *_WITH_VERSION answer */

/* ---- helpers shared with platform.c / context.c / sampler.c -------------- */

cl_int mosaic_match_devices(cl_platform_id platform, cl_device_type type,
                            cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (type != CL_DEVICE_TYPE_ALL && (type == 0 || (type & ~known)))
        return MOSAIC_ERROR(CL_INVALID_DEVICE_TYPE, "device_type 0x%llx is not valid", (unsigned long long)type);

    cl_uint found = 0;
    for (cl_uint i = 0; i < platform->num_devices; i++) {
        cl_device_id d = platform->devices[i];
        bool match = type == CL_DEVICE_TYPE_ALL || (d->type & type) != 0 ||
                     ((type & CL_DEVICE_TYPE_DEFAULT) && i == 0); /* the first device is the default */
        if (!match)
            continue;
        if (devices && found < num_entries)
            devices[found] = d;
        found++;
    }
    if (num_devices)
        *num_devices = found;
    if (found == 0)
        return MOSAIC_ERROR(CL_DEVICE_NOT_FOUND, "no device of type 0x%llx", (unsigned long long)type);
    return CL_SUCCESS;
}

bool mosaic_device_image_support(cl_device_id device)
{
    return device->image_support; /* the device's describe op says (docs/images.md) */
}

/* Versions of the extensions Mosaic may report; anything else is 1.0.0. */
static const struct { const char *name; cl_version version; } extension_versions[] = {
    { "cl_khr_icd", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0) },
    { "cl_khr_integer_dot_product", CL_MAKE_VERSION(2, 0, 0) },
    /* 1.2.0: a migration with flags 0 is valid (api/usm.c); the headers still say 1.1.0 */
    { "cl_intel_unified_shared_memory", CL_MAKE_VERSION(1, 2, 0) },
    { "cl_khr_command_buffer", CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION }, /* 0.9.8 (api/command_buffer.c) */
    { "cl_khr_command_buffer_mutable_dispatch", CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION }, /* 0.9.5 */
    { "cl_khr_semaphore", CL_KHR_SEMAPHORE_EXTENSION_VERSION },
    { "cl_ext_float_atomics", CL_MAKE_VERSION(1, 0, 0) },
};

/* CL_DEVICE_ILS_WITH_VERSION from the IL_VERSION string ("SPIR-V_1.0 SPIR-V_1.4"):
 * each word "NAME_MAJOR.MINOR" becomes {NAME, MAJOR.MINOR.0}. */
static size_t il_versions(const char *text, cl_name_version *out, size_t max)
{
    size_t n = 0;
    for (const char *p = text ? text : ""; *p && n < max;) {
        size_t len = strcspn(p, " ");
        const char *us = NULL;
        for (const char *q = p; q < p + len; q++)
            us = *q == '_' ? q : us;
        unsigned major = 0, minor = 0;
        if (us && sscanf(us + 1, "%u.%u", &major, &minor) == 2) {
            memset(&out[n], 0, sizeof out[n]);
            size_t name_len = (size_t)(us - p) < CL_NAME_VERSION_MAX_NAME_SIZE - 1 ? (size_t)(us - p)
                                                                                  : CL_NAME_VERSION_MAX_NAME_SIZE - 1;
            memcpy(out[n].name, p, name_len);
            out[n++].version = CL_MAKE_VERSION(major, minor, 0);
        }
        p += len;
        p += strspn(p, " ");
    }
    return n;
}

size_t mosaic_extensions_with_version(const char *extensions, cl_name_version *out, size_t max)
{
    size_t n = 0;
    for (const char *p = extensions ? extensions : ""; *p;) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        size_t len = (size_t)(end - p);
        if (len == 0)
            break;
        if (out && n < max) {
            cl_name_version *e = &out[n];
            memset(e, 0, sizeof *e);
            size_t copy = len < CL_NAME_VERSION_MAX_NAME_SIZE - 1 ? len : CL_NAME_VERSION_MAX_NAME_SIZE - 1;
            memcpy(e->name, p, copy);
            e->version = CL_MAKE_VERSION(1, 0, 0);
            for (size_t k = 0; k < sizeof extension_versions / sizeof extension_versions[0]; k++)
                if (strlen(extension_versions[k].name) == len && memcmp(extension_versions[k].name, p, len) == 0)
                    e->version = extension_versions[k].version;
        }
        n++;
        p = end;
    }
    return n;
}

/* ---- what the device reports ------------------------------------------------ */

static bool has_feature(cl_device_id d, const char *feature)
{
    for (cl_uint i = 0; i < d->num_opencl_c_features; i++)
        if (d->opencl_c_features[i] && strcmp(d->opencl_c_features[i], feature) == 0)
            return true;
    return false;
}

/* OpenCL C 2.0 has no optional features: a device supports it only with
 * everything 3.0 made optional in it (images aside, which 2.0 left to
 * CL_DEVICE_IMAGE_SUPPORT). */
static bool supports_opencl_c_2_0(cl_device_id d)
{
    static const char *const required[] = {
        "__opencl_c_generic_address_space", "__opencl_c_pipes", "__opencl_c_device_enqueue",
        "__opencl_c_program_scope_global_variables", "__opencl_c_work_group_collective_functions",
        "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!has_feature(d, required[i]))
            return false;
    return !has_feature(d, "__opencl_c_images") || has_feature(d, "__opencl_c_read_write_images");
}

bool mosaic_device_pipe_support(cl_device_id device)
{
    return has_feature(device, "__opencl_c_pipes") && device->pipe_max_packet_size > 0;
}

bool mosaic_device_has_extension(cl_device_id d, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = d->extensions ? d->extensions : ""; *p;) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        if ((size_t)(end - p) == len && memcmp(p, name, len) == 0)
            return true;
        p = end;
    }
    return false;
}

static bool has_extension(cl_device_id d, const char *name)
{
    return mosaic_device_has_extension(d, name);
}

static cl_device_atomic_capabilities atomic_capabilities(cl_device_id d, bool fences)
{
    /* Relaxed order and work-group scope are the mandated minimum; fences
     * also always have acquire-release order and work-item scope (only
     * fences take memory_scope_work_item). */
    cl_device_atomic_capabilities caps = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    if (fences)
        caps |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
    if (has_feature(d, "__opencl_c_atomic_order_acq_rel"))
        caps |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
    if (has_feature(d, "__opencl_c_atomic_order_seq_cst"))
        caps |= CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
    if (has_feature(d, "__opencl_c_atomic_scope_device"))
        caps |= CL_DEVICE_ATOMIC_SCOPE_DEVICE;
    if (has_feature(d, "__opencl_c_atomic_scope_all_devices"))
        caps |= CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    return caps;
}

/* ---- partitioning ---------------------------------------------------------------- */

/* NEXT_PARTITIONABLE looks at the domains in this order. */
static const cl_device_affinity_domain affinity_order[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA,     CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
};
#define NUM_AFFINITY_DOMAINS (sizeof affinity_order / sizeof affinity_order[0])

/* Groups the device's compute units by `domain`: group[i] receives the group
 * of unit i (groups numbered in order of first appearance).  Returns the
 * number of groups, or 0 when sysfs does not place every unit in the domain
 * (or memory runs out). */
static cl_uint affinity_groups(cl_device_id d, cl_device_affinity_domain domain, cl_uint *group)
{
    cl_uint n = d->compute_units, count = 0;
    long *keys = d->ops->unit_domain_key ? malloc((n ? n : 1) * sizeof *keys) : NULL;
    if (!keys)
        return 0;
    for (cl_uint i = 0; i < n; i++) {
        long key = d->ops->unit_domain_key(d, i, domain);
        if (key < 0) {
            count = 0;
            break;
        }
        cl_uint g = 0;
        while (g < count && keys[g] != key)
            g++;
        if (g == count)
            keys[count++] = key;
        if (group)
            group[i] = g;
    }
    free(keys);
    return count;
}

/* CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the domains that split the device in
 * two or more, and NEXT_PARTITIONABLE when there is one. */
/* Can d be split at all: two compute units or more, and a device that runs
 * sub-devices (ops->init_sub_device; the GPU's do not)? */
static bool partitionable(cl_device_id d)
{
    return d->compute_units >= 2 && d->ops->init_sub_device;
}

static cl_device_affinity_domain splitting_domains(cl_device_id d)
{
    cl_device_affinity_domain domains = 0;
    if (!partitionable(d))
        return 0;
    for (size_t i = 0; i < NUM_AFFINITY_DOMAINS; i++)
        if (affinity_groups(d, affinity_order[i], NULL) >= 2)
            domains |= affinity_order[i];
    return domains ? domains | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

/* CL_DEVICE_PARTITION_PROPERTIES: the types that give two sub-devices or more. */
static size_t partition_types(cl_device_id d, cl_device_partition_property types[3])
{
    size_t n = 0;
    if (partitionable(d)) {
        types[n++] = CL_DEVICE_PARTITION_EQUALLY;
        types[n++] = CL_DEVICE_PARTITION_BY_COUNTS;
        if (splitting_domains(d))
            types[n++] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
    }
    return n;
}

/* What a property list asks for: sub-device k gets the parent's units
 * units[first[k]] .. units[first[k + 1] - 1]. */
typedef struct partition {
    cl_uint count;
    cl_uint *first;                        /* count + 1 entries */
    cl_uint *units;
    cl_device_partition_property *type;    /* CL_DEVICE_PARTITION_TYPE of the sub-devices */
    size_t type_len;
} partition;

static void partition_free(partition *p)
{
    free(p->first);
    free(p->units);
    free(p->type);
}

static bool partition_alloc(partition *p, cl_uint count, cl_uint units, const cl_device_partition_property *type,
                            size_t type_len)
{
    p->count = count;
    p->first = calloc(count + 1, sizeof *p->first);
    p->units = calloc(units ? units : 1, sizeof *p->units);
    p->type = malloc(type_len * sizeof *p->type);
    p->type_len = type_len;
    if (!p->first || !p->units || !p->type) {
        partition_free(p);
        memset(p, 0, sizeof *p);
        return false;
    }
    memcpy(p->type, type, type_len * sizeof *type);
    return true;
}

static cl_int plan_equally(cl_device_id d, const cl_device_partition_property *props, partition *p)
{
    cl_uint units = d->compute_units;
    cl_device_partition_property n = props[1];
    if (n == 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY needs a number of compute units");
    if (props[2] != 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "properties name more than one partition scheme");
    if (n < 0 || n > (cl_device_partition_property)units)
        return MOSAIC_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, "%lld compute units per sub-device: the device has %u",
                            (long long)n, units);
    if (n == (cl_device_partition_property)units)
        return MOSAIC_ERROR(CL_DEVICE_PARTITION_FAILED, "%u compute units per sub-device is the whole device", units);
    cl_uint per = (cl_uint)n, count = units / per;
    if (!partition_alloc(p, count, count * per, props, 3))
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a partition");
    for (cl_uint k = 0; k <= count; k++)
        p->first[k] = k * per;
    for (cl_uint i = 0; i < count * per; i++)
        p->units[i] = i;
    return CL_SUCCESS;
}

static cl_int plan_by_counts(cl_device_id d, const cl_device_partition_property *props, partition *p)
{
    cl_uint units = d->compute_units;
    size_t k = 1;
    cl_ulong total = 0;
    for (; props[k] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; k++) {
        if (k > units) /* more sub-devices than CL_DEVICE_PARTITION_MAX_SUB_DEVICES */
            return MOSAIC_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, "more than %u sub-devices requested", units);
        if (props[k] < 0 || props[k] > (cl_device_partition_property)units)
            return MOSAIC_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, "sub-device %zu: %lld compute units of %u",
                                k - 1, (long long)props[k], units);
        total += (cl_ulong)props[k];
    }
    cl_uint count = (cl_uint)(k - 1);
    if (props[k + 1] != 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "properties name more than one partition scheme");
    if (count == 0)
        return MOSAIC_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, "CL_DEVICE_PARTITION_BY_COUNTS lists no sub-device");
    if (total > units)
        return MOSAIC_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, "%llu compute units requested; the device has %u",
                            (unsigned long long)total, units);
    if (count == 1 && total == units)
        return MOSAIC_ERROR(CL_DEVICE_PARTITION_FAILED, "one sub-device with every compute unit is the whole device");
    if (!partition_alloc(p, count, (cl_uint)total, props, k + 2))
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a partition");
    for (cl_uint i = 0; i < count; i++)
        p->first[i + 1] = p->first[i] + (cl_uint)props[i + 1];
    for (cl_uint i = 0; i < total; i++)
        p->units[i] = i;
    return CL_SUCCESS;
}

static cl_int plan_by_affinity(cl_device_id d, const cl_device_partition_property *props, partition *p)
{
    cl_device_affinity_domain domain = (cl_device_affinity_domain)props[1];
    bool next = domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, known = next;
    for (size_t i = 0; i < NUM_AFFINITY_DOMAINS; i++)
        known |= domain == affinity_order[i];
    if (props[1] <= 0 || !known)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "0x%llx is not an affinity domain", (unsigned long long)props[1]);
    if (props[2] != 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "properties name more than one partition scheme");
    cl_uint units = d->compute_units, count = 0;
    cl_uint *group = malloc(units * sizeof *group);
    if (!group)
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a partition");
    for (size_t i = 0; i < NUM_AFFINITY_DOMAINS && count < 2; i++)
        if (next || domain == affinity_order[i]) {
            count = affinity_groups(d, affinity_order[i], group);
            if (count >= 2)
                domain = affinity_order[i];
        }
    if (count < 2) {
        free(group);
        return MOSAIC_ERROR(CL_DEVICE_PARTITION_FAILED, "the device's compute units all share one domain 0x%llx "
                            "(or sysfs does not describe it)", (unsigned long long)domain);
    }
    /* the sub-devices report the domain used, NEXT_PARTITIONABLE or not */
    const cl_device_partition_property type[3] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                   (cl_device_partition_property)domain, 0 };
    if (!partition_alloc(p, count, units, type, 3)) {
        free(group);
        return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a partition");
    }
    cl_uint at = 0;
    for (cl_uint g = 0; g < count; g++) {
        p->first[g] = at;
        for (cl_uint i = 0; i < units; i++)
            if (group[i] == g)
                p->units[at++] = i;
    }
    p->first[count] = at;
    free(group);
    return CL_SUCCESS;
}

/* Checks a property list against the device (every CL_INVALID_VALUE,
 * CL_INVALID_DEVICE_PARTITION_COUNT and CL_DEVICE_PARTITION_FAILED case) and
 * plans the partition. */
static cl_int plan_partition(cl_device_id d, const cl_device_partition_property *props, partition *p)
{
    cl_device_partition_property type = props[0];
    if (type != CL_DEVICE_PARTITION_EQUALLY && type != CL_DEVICE_PARTITION_BY_COUNTS &&
        type != CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "0x%llx is not a partition type", (unsigned long long)type);
    cl_device_partition_property types[3];
    size_t num_types = partition_types(d, types);
    if (num_types == 0)
        return MOSAIC_ERROR(CL_DEVICE_PARTITION_FAILED, "this device (%u compute units) cannot be partitioned",
                            d->compute_units);
    bool listed = false;
    for (size_t i = 0; i < num_types; i++)
        listed |= types[i] == type;
    if (!listed) /* only BY_AFFINITY_DOMAIN can be missing */
        return MOSAIC_ERROR(CL_INVALID_VALUE, "no affinity domain (as sysfs reports them) splits this device");
    switch (type) {
    case CL_DEVICE_PARTITION_EQUALLY:
        return plan_equally(d, props, p);
    case CL_DEVICE_PARTITION_BY_COUNTS:
        return plan_by_counts(d, props, p);
    default:
        return plan_by_affinity(d, props, p);
    }
}

static void destroy_sub_device(void *self)
{
    cl_device_id d = self;
    cl_device_id parent = d->parent;
    d->ops->release_sub_device(d);
    free(d->partition_type);
    free(d);
    mosaic_release_internal(parent);
}

/* A sub-device of `parent` over units[0..count) of its compute units. */
static cl_device_id new_sub_device(cl_device_id parent, const cl_uint *units, cl_uint count,
                                   const cl_device_partition_property *type, size_t type_len)
{
    cl_device_id d = malloc(sizeof *d);
    cl_device_partition_property *type_copy = malloc(type_len * sizeof *type_copy);
    if (!d || !type_copy) {
        free(d);
        free(type_copy);
        return NULL;
    }
    memcpy(d, parent, sizeof *d); /* the description: name, memory, extensions, compiler target... */
    mosaic_object_init(d, MOSAIC_DEVICE, &mosaic_dispatch, destroy_sub_device);
    d->impl = NULL;
    d->parent = parent;
    memcpy(type_copy, type, type_len * sizeof *type);
    d->partition_type = type_copy;
    /* a UUID of its own: a hash of the parent's and of the units it has */
    unsigned char *key = malloc(CL_UUID_SIZE_KHR + count * sizeof *units);
    if (!key) {
        free(type_copy);
        free(d);
        return NULL;
    }
    memcpy(key, parent->uuid, CL_UUID_SIZE_KHR);
    memcpy(key + CL_UUID_SIZE_KHR, units, count * sizeof *units);
    mosaic_uuid_of(key, CL_UUID_SIZE_KHR + count * sizeof *units, d->uuid);
    free(key);
    d->partition_type_len = type_len;
    if (parent->ops->init_sub_device(d, parent, units, count) != CL_SUCCESS) {
        free(type_copy);
        free(d);
        return NULL;
    }
    mosaic_retain_internal(parent);
    return d;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
               cl_device_id *devices, cl_uint *num_devices)
{
    MOSAIC_CHECK_HANDLE(platform, PLATFORM);
    if (num_entries == 0 && devices)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_entries is 0 but devices is not NULL");
    if (!devices && !num_devices)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "devices and num_devices are both NULL");
    return mosaic_match_devices(platform, device_type, num_entries, devices, num_devices);
}

/* ---- clGetDeviceInfo ----------------------------------------------------------- */

/* An answer: `size` bytes at `data`, which points at the device's
 * description, at a constant, or at `made` for an answer made here. */
typedef struct device_answer {
    const void *data;
    size_t size;
    union {
        unsigned char number[sizeof(cl_ulong)];
        cl_device_partition_property types[3];
        cl_name_version list[MAX_LISTED];
        cl_uchar uuid[CL_UUID_SIZE_KHR];
        cl_device_integer_dot_product_acceleration_properties_khr dot_acceleration;
        char text[64];
        const char *names[MAX_LISTED];
        cl_uint tokens[2 * MAX_LISTED];
        cl_semaphore_type_khr semaphore_type;
    } made;
} device_answer;

/* What a device may lack; an answer about something it lacks is 0. */
typedef bool (*device_has_fn)(cl_device_id d);
static bool has_fp64(cl_device_id d) { return has_extension(d, "cl_khr_fp64"); }
static bool has_fp16(cl_device_id d) { return has_extension(d, "cl_khr_fp16"); }
static bool has_images(cl_device_id d) { return mosaic_device_image_support(d); }
static bool has_pipes(cl_device_id d) { return mosaic_device_pipe_support(d); }
static bool has_device_queues(cl_device_id d) { return d->max_on_device_queues != 0; }
static bool has_cache(cl_device_id d) { return d->global_mem_cache_size != 0; }
static bool has_global_variables(cl_device_id d)
{
    return has_feature(d, "__opencl_c_program_scope_global_variables");
}
/* OpenCL 3.1 made cl_khr_spirv_queries core; a device without IL reports none */
static bool has_spirv_queries(cl_device_id d)
{
    return d->il_version && *d->il_version &&
           (d->version >= CL_MAKE_VERSION(3, 1, 0) || has_extension(d, "cl_khr_spirv_queries"));
}
static bool has_generic_address_space(cl_device_id d) { return has_feature(d, "__opencl_c_generic_address_space"); }
static bool has_collectives(cl_device_id d) { return has_feature(d, "__opencl_c_work_group_collective_functions"); }

/* The answers that are one number (an unsigned integer, a bit field or a
 * handle of `size` bytes): a field of the device's description (struct
 * _cl_device_id, filled by its describe op), or a constant of what Mosaic
 * implements; 0 when `has` is set and the device lacks it. */
typedef struct number_query {
    cl_device_info param;
    size_t size;
    size_t field_size; /* 0: the answer is `constant` */
    size_t field_offset;
    device_has_fn has;
    cl_ulong constant;
} number_query;

#define FIELD_IF(param, T, field, has)                                                                      \
    { param, sizeof(T), sizeof(((struct _cl_device_id *)0)->field), offsetof(struct _cl_device_id, field), has, \
      0 }
#define FIELD(param, T, field) FIELD_IF(param, T, field, NULL)
#define CONSTANT_IF(param, T, value, has) { param, sizeof(T), 0, 0, has, (cl_ulong)(value) }
#define CONSTANT(param, T, value) CONSTANT_IF(param, T, value, NULL)

static const number_query number_queries[] = {
    /* identity */
    FIELD(CL_DEVICE_TYPE, cl_device_type, type),
    FIELD(CL_DEVICE_VENDOR_ID, cl_uint, vendor_id),
    FIELD(CL_DEVICE_PLATFORM, cl_platform_id, platform),
    FIELD(CL_DEVICE_NUMERIC_VERSION, cl_version, version),
    CONSTANT(CL_DEVICE_AVAILABLE, cl_bool, CL_TRUE),
    CONSTANT(CL_DEVICE_COMPILER_AVAILABLE, cl_bool, CL_TRUE),
    CONSTANT(CL_DEVICE_LINKER_AVAILABLE, cl_bool, CL_TRUE),

    /* execution */
    FIELD(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint, compute_units),
    CONSTANT(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint, 3),
    FIELD(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t, max_work_group_size),
    FIELD(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t, preferred_work_group_size_multiple),
    CONSTANT(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool, CL_TRUE),
    CONSTANT_IF(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool, CL_TRUE, has_collectives),
    FIELD(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool, sub_group_forward_progress),
    FIELD(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint, max_clock_frequency),
    FIELD(CL_DEVICE_ADDRESS_BITS, cl_uint, address_bits),
    FIELD(CL_DEVICE_ENDIAN_LITTLE, cl_bool, endian_little),
    FIELD(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool, error_correction),
    FIELD(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities, execution_capabilities),
    FIELD(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties, queue_on_host_properties),
    FIELD(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t, printf_buffer_size),
    CONSTANT(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool, CL_TRUE),

    /* device-side enqueue: what the device says (0: none) */
    CONSTANT_IF(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities,
                CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT, has_device_queues),
    CONSTANT_IF(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties,
                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, has_device_queues),
    FIELD(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint, queue_on_device_preferred_size),
    FIELD(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint, queue_on_device_max_size),
    FIELD(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint, max_on_device_queues),
    FIELD(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint, max_on_device_events),

    /* pipes: what the device says, all 0 without __opencl_c_pipes */
    CONSTANT_IF(CL_DEVICE_PIPE_SUPPORT, cl_bool, CL_TRUE, has_pipes),
    FIELD_IF(CL_DEVICE_MAX_PIPE_ARGS, cl_uint, max_pipe_args, has_pipes),
    FIELD_IF(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint, pipe_max_active_reservations, has_pipes),
    FIELD_IF(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint, pipe_max_packet_size, has_pipes),

    /* memory */
    FIELD(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong, global_mem_size),
    FIELD(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong, max_mem_alloc_size),
    CONSTANT_IF(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type, CL_READ_WRITE_CACHE, has_cache),
    FIELD(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong, global_mem_cache_size),
    FIELD(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint, global_mem_cacheline_size),
    FIELD(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type, local_mem_type),
    FIELD(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong, local_mem_size),
    FIELD(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong, max_constant_buffer_size),
    FIELD(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint, max_constant_args),
    FIELD(CL_DEVICE_MAX_PARAMETER_SIZE, size_t, max_parameter_size),
    FIELD(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint, mem_base_addr_align_bits),
    CONSTANT(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint, sizeof(cl_long16)), /* the largest built-in type */
    FIELD(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool, host_unified_memory),
    FIELD(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities, svm_capabilities),
    FIELD_IF(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t, max_global_variable_size, has_global_variables),
    FIELD_IF(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t, max_global_variable_size, has_global_variables),
    CONSTANT_IF(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool, CL_TRUE, has_generic_address_space),
    CONSTANT(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint, 0), /* natural alignment */
    CONSTANT(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint, 0),
    CONSTANT(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint, 0),

    /* images and samplers (0 for a device without images) */
    FIELD(CL_DEVICE_IMAGE_SUPPORT, cl_bool, image_support),
    FIELD_IF(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint, max_read_image_args, has_images),
    FIELD_IF(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint, max_write_image_args, has_images),
    FIELD_IF(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint, max_read_write_image_args, has_images),
    FIELD_IF(CL_DEVICE_MAX_SAMPLERS, cl_uint, max_samplers, has_images),
    FIELD_IF(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint, image_pitch_alignment, has_images),
    FIELD_IF(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint, image_base_address_alignment, has_images),
    FIELD_IF(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t, image2d_max_width, has_images),
    FIELD_IF(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t, image2d_max_height, has_images),
    FIELD_IF(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t, image3d_max_width, has_images),
    FIELD_IF(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t, image3d_max_height, has_images),
    FIELD_IF(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t, image3d_max_depth, has_images),
    FIELD_IF(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t, image_max_buffer_size, has_images),
    FIELD_IF(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t, image_max_array_size, has_images),

    /* floating point (0 for double and half without the type) */
    FIELD(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config, single_fp_config),
    FIELD_IF(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config, double_fp_config, has_fp64),
    FIELD_IF(CL_DEVICE_HALF_FP_CONFIG, cl_device_fp_config, half_fp_config, has_fp16),

    /* vector widths (0 for double and half without the type: the specification's rule) */
    FIELD(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint, preferred_vector_width[MOSAIC_VECTOR_CHAR]),
    FIELD(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint, preferred_vector_width[MOSAIC_VECTOR_SHORT]),
    FIELD(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint, preferred_vector_width[MOSAIC_VECTOR_INT]),
    FIELD(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint, preferred_vector_width[MOSAIC_VECTOR_LONG]),
    FIELD(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint, preferred_vector_width[MOSAIC_VECTOR_FLOAT]),
    FIELD_IF(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint, preferred_vector_width[MOSAIC_VECTOR_DOUBLE], has_fp64),
    FIELD_IF(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint, preferred_vector_width[MOSAIC_VECTOR_HALF], has_fp16),
    FIELD(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint, native_vector_width[MOSAIC_VECTOR_CHAR]),
    FIELD(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint, native_vector_width[MOSAIC_VECTOR_SHORT]),
    FIELD(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint, native_vector_width[MOSAIC_VECTOR_INT]),
    FIELD(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint, native_vector_width[MOSAIC_VECTOR_LONG]),
    FIELD(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint, native_vector_width[MOSAIC_VECTOR_FLOAT]),
    FIELD_IF(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint, native_vector_width[MOSAIC_VECTOR_DOUBLE], has_fp64),
    FIELD_IF(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint, native_vector_width[MOSAIC_VECTOR_HALF], has_fp16),

    /* partitioning */
    FIELD(CL_DEVICE_PARENT_DEVICE, cl_device_id, parent),
};

/* Unsigned integers (and handles) of 1, 2, 4 or 8 bytes, as a cast between
 * them would convert. */
static cl_ulong load_unsigned(const void *p, size_t size)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (size) {
    case 1: memcpy(&u8, p, 1); return u8;
    case 2: memcpy(&u16, p, 2); return u16;
    case 4: memcpy(&u32, p, 4); return u32;
    default: MOSAIC_ASSERT(size == 8); memcpy(&u64, p, 8); return u64;
    }
}

static void store_unsigned(void *p, size_t size, cl_ulong value)
{
    uint8_t u8 = (uint8_t)value;
    uint16_t u16 = (uint16_t)value;
    uint32_t u32 = (uint32_t)value;
    switch (size) {
    case 1: memcpy(p, &u8, 1); break;
    case 2: memcpy(p, &u16, 2); break;
    case 4: memcpy(p, &u32, 4); break;
    default: MOSAIC_ASSERT(size == 8); memcpy(p, &value, 8); break;
    }
}

static void answer_number(device_answer *a, size_t size, cl_ulong value)
{
    store_unsigned(a->made.number, size, value);
    a->data = a->made.number;
    a->size = size;
}

/* A number of the table; false when param is not one. */
static bool table_answer(cl_device_id d, cl_device_info param, device_answer *a)
{
    for (size_t i = 0; i < sizeof number_queries / sizeof number_queries[0]; i++) {
        const number_query *q = &number_queries[i];
        if (q->param != param)
            continue;
        cl_ulong value = q->field_size ? load_unsigned((const char *)d + q->field_offset, q->field_size) : q->constant;
        answer_number(a, q->size, q->has && !q->has(d) ? 0 : value);
        return true;
    }
    return false;
}

static void answer_string(device_answer *a, const char *s)
{
    a->data = s ? s : "";
    a->size = strlen(a->data) + 1;
}

static void answer_list(device_answer *a, const void *list, size_t count, size_t each)
{
    a->data = list;
    a->size = count * each;
}

/* cl_ext_float_atomics: what one type (fp16, fp32, fp64) supports, read from
 * the OpenCL C features that name it.  Load, store and exchange of
 * atomic_float and atomic_double are OpenCL C 2.0's own (`core`: true when the
 * device has the type's atomics at all), of atomic_half the extension's. */
static cl_device_fp_atomic_capabilities_ext fp_atomic_capabilities(cl_device_id d, const char *type, bool core)
{
    static const struct {
        const char *operation;
        cl_device_fp_atomic_capabilities_ext global, local;
    } operations[] = {
        {"atomic_load_store", CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT},
        {"atomic_add", CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT},
        {"atomic_min_max", CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT},
    };
    cl_device_fp_atomic_capabilities_ext caps =
        core ? CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT : 0;
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++) {
        char name[CL_NAME_VERSION_MAX_NAME_SIZE];
        snprintf(name, sizeof name, "__opencl_c_ext_%s_global_%s", type, operations[i].operation);
        if (has_feature(d, name))
            caps |= operations[i].global;
        snprintf(name, sizeof name, "__opencl_c_ext_%s_local_%s", type, operations[i].operation);
        if (has_feature(d, name))
            caps |= operations[i].local;
    }
    return caps;
}

/* The answers of the extensions' queries; false when param is none of them
 * or the device lacks the extension that defines it. */
static bool extension_answer(cl_device_id d, cl_device_info param, device_answer *a)
{
    switch (param) {
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR: /* api/command_buffer.h */
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
        if (!has_extension(d, "cl_khr_command_buffer"))
            return false;
        answer_number(a, sizeof(cl_bitfield),
                      param == CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
                          ? MOSAIC_COMMAND_BUFFER_CAPABILITIES |
                                (d->max_on_device_queues ? MOSAIC_COMMAND_BUFFER_DEVICE_ENQUEUE : 0)
                      : param == CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR
                          ? MOSAIC_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES
                          : MOSAIC_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES);
        return true;
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
        if (!has_extension(d, "cl_khr_command_buffer_mutable_dispatch"))
            return false;
        answer_number(a, sizeof(cl_mutable_dispatch_fields_khr), MOSAIC_MUTABLE_DISPATCH_CAPABILITIES);
        return true;
    case CL_DEVICE_UUID_KHR:
    case CL_DRIVER_UUID_KHR:
    case CL_DEVICE_LUID_VALID_KHR:
    case CL_DEVICE_LUID_KHR:
    case CL_DEVICE_NODE_MASK_KHR:
        if (!has_extension(d, "cl_khr_device_uuid"))
            return false;
        if (param == CL_DEVICE_UUID_KHR) {
            answer_list(a, d->uuid, CL_UUID_SIZE_KHR, 1);
        } else if (param == CL_DRIVER_UUID_KHR) { /* the same for one version of Mosaic */
            static const char driver[] = "Mosaic " MOSAIC_VERSION_STRING;
            mosaic_uuid_of(driver, sizeof driver - 1, a->made.uuid);
            answer_list(a, a->made.uuid, CL_UUID_SIZE_KHR, 1);
        } else if (param == CL_DEVICE_LUID_KHR) { /* LUIDs are Windows' (CL_DEVICE_LUID_VALID_KHR is false) */
            memset(a->made.uuid, 0, CL_LUID_SIZE_KHR);
            answer_list(a, a->made.uuid, CL_LUID_SIZE_KHR, 1);
        } else {
            answer_number(a, param == CL_DEVICE_LUID_VALID_KHR ? sizeof(cl_bool) : sizeof(cl_uint), 0);
        }
        return true;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
        if (!has_extension(d, "cl_khr_integer_dot_product"))
            return false;
        if (param == CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR) {
            answer_number(a, sizeof(cl_device_integer_dot_product_capabilities_khr),
                          (has_feature(d, "__opencl_c_integer_dot_product_input_4x8bit")
                               ? CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR : 0) |
                              (has_feature(d, "__opencl_c_integer_dot_product_input_4x8bit_packed")
                                   ? CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR : 0));
        } else { /* none faster than the same arithmetic written out (builtins/dot_product.cl) */
            memset(&a->made.dot_acceleration, 0, sizeof a->made.dot_acceleration);
            answer_list(a, &a->made.dot_acceleration, 1, sizeof a->made.dot_acceleration);
        }
        return true;
    case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR: /* a scope per feature the device lists */
        if (!has_extension(d, "cl_khr_kernel_clock"))
            return false;
        answer_number(a, sizeof(cl_device_kernel_clock_capabilities_khr),
                      (has_feature(d, "__opencl_c_kernel_clock_scope_device") ? CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR : 0) |
                          (has_feature(d, "__opencl_c_kernel_clock_scope_work_group")
                               ? CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR : 0) |
                          (has_feature(d, "__opencl_c_kernel_clock_scope_sub_group")
                               ? CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR : 0));
        return true;
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
        if (!has_extension(d, "cl_intel_unified_shared_memory"))
            return false;
        answer_number(a, sizeof(cl_device_unified_shared_memory_capabilities_intel),
                      mosaic_usm_capabilities(d, param));
        return true;
    case CL_DEVICE_SEMAPHORE_TYPES_KHR:
        if (!has_extension(d, "cl_khr_semaphore"))
            return false;
        a->made.semaphore_type = CL_SEMAPHORE_TYPE_BINARY_KHR;
        answer_list(a, &a->made.semaphore_type, 1, sizeof a->made.semaphore_type);
        return true;
    case CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR:
    case CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR: /* none: semaphores stay inside Mosaic */
        if (!has_extension(d, "cl_khr_semaphore"))
            return false;
        answer_list(a, a->made.number, 0, sizeof(cl_external_semaphore_handle_type_khr));
        return true;
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
        if (!has_extension(d, "cl_ext_float_atomics"))
            return false;
        answer_number(a, sizeof(cl_device_fp_atomic_capabilities_ext),
                      param == CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT ? fp_atomic_capabilities(d, "fp32", true)
                      : param == CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT
                          ? fp_atomic_capabilities(d, "fp64", has_feature(d, "__opencl_c_fp64") &&
                                                                  has_extension(d, "cl_khr_int64_base_atomics"))
                          : fp_atomic_capabilities(d, "fp16", false));
        return true;
    default:
        return false;
    }
}

/* The answers made from the description: strings, lists, and numbers
 * computed from several fields; false when param is none of them. */
static bool made_answer(cl_device_id d, cl_device_info param, device_answer *a)
{
    /* OpenCL C 2.0 only with its features, 3.1 only on a 3.1 device */
    static const cl_version opencl_c_versions[] = {
        CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
        CL_MAKE_VERSION(2, 0, 0), CL_MAKE_VERSION(3, 0, 0), CL_MAKE_VERSION(3, 1, 0),
    };
    cl_name_version *list = a->made.list;
    const mosaic_compiler_target *target = &d->compiler_target;
    size_t n = 0;
    switch (param) {
    case CL_DEVICE_NAME: answer_string(a, d->name); return true;
    case CL_DEVICE_VENDOR: answer_string(a, d->vendor); return true;
    case CL_DRIVER_VERSION: answer_string(a, MOSAIC_VERSION_STRING); return true;
    case CL_DEVICE_PROFILE: answer_string(a, "FULL_PROFILE"); return true;
    case CL_DEVICE_VERSION:
        snprintf(a->made.text, sizeof a->made.text, "OpenCL %u.%u Mosaic", CL_VERSION_MAJOR(d->version),
                 CL_VERSION_MINOR(d->version));
        answer_string(a, a->made.text);
        return true;
    case CL_DEVICE_OPENCL_C_VERSION: /* for a 3.0 device: the highest OpenCL C version below 3.0 */
        answer_string(a, supports_opencl_c_2_0(d) ? "OpenCL C 2.0 " : "OpenCL C 1.2 ");
        return true;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        for (size_t i = 0; i < sizeof opencl_c_versions / sizeof opencl_c_versions[0]; i++) {
            cl_version v = opencl_c_versions[i];
            if ((v == CL_MAKE_VERSION(2, 0, 0) && !supports_opencl_c_2_0(d)) || v > d->version)
                continue;
            memset(&list[n], 0, sizeof list[n]);
            strcpy(list[n].name, "OpenCL C");
            list[n++].version = v;
        }
        answer_list(a, list, n, sizeof *list);
        return true;
    /* OpenCL 3.1, or cl_khr_spirv_queries: what the SPIR-V front end takes */
    case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS:
    case CL_DEVICE_SPIRV_EXTENSIONS:
        if (!has_spirv_queries(d))
            return false;
        n = param == CL_DEVICE_SPIRV_EXTENSIONS ? mosaic_spirv_extensions(target, a->made.names, MAX_LISTED)
                                                : mosaic_spirv_extended_instruction_sets(target, a->made.names, MAX_LISTED);
        answer_list(a, a->made.names, n < MAX_LISTED ? n : MAX_LISTED, sizeof *a->made.names);
        return true;
    case CL_DEVICE_SPIRV_CAPABILITIES:
        if (!has_spirv_queries(d))
            return false;
        n = mosaic_spirv_capabilities(target, a->made.tokens, 2 * MAX_LISTED);
        answer_list(a, a->made.tokens, n < 2 * MAX_LISTED ? n : 2 * MAX_LISTED, sizeof *a->made.tokens);
        return true;
    case CL_DEVICE_OPENCL_C_FEATURES:
        for (cl_uint i = 0; i < d->num_opencl_c_features && n < MAX_LISTED; i++) {
            if (!d->opencl_c_features[i])
                continue;
            memset(&list[n], 0, sizeof list[n]);
            strncpy(list[n].name, d->opencl_c_features[i], CL_NAME_VERSION_MAX_NAME_SIZE - 1);
            list[n++].version = CL_MAKE_VERSION(3, 0, 0);
        }
        answer_list(a, list, n, sizeof *list);
        return true;
    case CL_DEVICE_EXTENSIONS: answer_string(a, d->extensions); return true;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        n = mosaic_extensions_with_version(d->extensions, list, MAX_LISTED);
        answer_list(a, list, n < MAX_LISTED ? n : MAX_LISTED, sizeof *list);
        return true;
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: /* Mosaic has not passed the conformance tests (yet) */
        answer_string(a, "v0000-01-01-00");
        return true;
    case CL_DEVICE_BUILT_IN_KERNELS: answer_string(a, ""); return true;
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: answer_list(a, list, 0, sizeof *list); return true;
    case CL_DEVICE_ILS_WITH_VERSION:
        answer_list(a, list, il_versions(d->il_version, list, MAX_LISTED), sizeof *list);
        return true;
    case CL_DEVICE_IL_VERSION: answer_string(a, d->il_version); return true;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: answer_list(a, d->max_work_item_sizes, 3, sizeof(size_t)); return true;
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        answer_number(a, sizeof(cl_uint),
                      d->sub_group_size ? (d->max_work_group_size + d->sub_group_size - 1) / d->sub_group_size : 0);
        return true;
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: /* profiling's clock (core/util.h) */
        answer_number(a, sizeof(size_t), mosaic_now_resolution_ns());
        return true;
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        answer_number(a, sizeof(cl_device_atomic_capabilities),
                      atomic_capabilities(d, param == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES));
        return true;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: /* one per compute unit; none when the device cannot be split */
        answer_number(a, sizeof(cl_uint), partitionable(d) ? d->compute_units : 0);
        return true;
    case CL_DEVICE_PARTITION_PROPERTIES: /* "cannot be partitioned": a list holding only 0 */
        n = partition_types(d, a->made.types);
        if (n == 0)
            a->made.types[n++] = 0;
        answer_list(a, a->made.types, n, sizeof(cl_device_partition_property));
        return true;
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        answer_number(a, sizeof(cl_device_affinity_domain), splitting_domains(d));
        return true;
    case CL_DEVICE_PARTITION_TYPE: /* a root device: a list holding only 0 */
        if (d->parent)
            answer_list(a, d->partition_type, d->partition_type_len, sizeof(cl_device_partition_property));
        else
            answer_number(a, sizeof(cl_device_partition_property), 0);
        return true;
    case CL_DEVICE_REFERENCE_COUNT: /* always 1 for a root device */
        answer_number(a, sizeof(cl_uint), mosaic_refcount(d));
        return true;
    default:
        return false;
    }
}

/* Every query of OpenCL 3.0 (and the 1.x/2.x ones still in CL/cl.h) is
 * answered from the device's description: a number of the table above, or
 * an answer made from several fields. */
CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(device, DEVICE);
    device_answer answer;
    if (!table_answer(device, param_name, &answer) && !made_answer(device, param_name, &answer) &&
        !extension_answer(device, param_name, &answer))
        MOSAIC_INFO_UNKNOWN(param_name);
    return mosaic_info(param_value_size, param_value, param_value_size_ret, answer.data, answer.size);
}

/* Root devices have no destroy function, so retain and release only check
 * the handle (core/objects.h); a device made with a destroy function (a
 * sub-device) is counted like any other object. */
MOSAIC_RETAIN_RELEASE(Device, cl_device_id, DEVICE)

CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                   cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    MOSAIC_CHECK_HANDLE(in_device, DEVICE);
    if (!properties)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "properties is NULL");
    partition p = { 0 };
    cl_int err = plan_partition(in_device, properties, &p);
    if (err != CL_SUCCESS)
        return err;
    if (out_devices && num_devices < p.count) {
        partition_free(&p);
        return MOSAIC_ERROR(CL_INVALID_VALUE, "the partition makes %u sub-devices; out_devices has room for %u",
                            p.count, num_devices);
    }
    if (out_devices) {
        for (cl_uint k = 0; k < p.count; k++) {
            out_devices[k] = new_sub_device(in_device, p.units + p.first[k], p.first[k + 1] - p.first[k], p.type,
                                            p.type_len);
            if (!out_devices[k]) {
                while (k > 0)
                    mosaic_release(out_devices[--k]);
                partition_free(&p);
                return MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a sub-device");
            }
        }
    }
    if (num_devices_ret)
        *num_devices_ret = p.count;
    partition_free(&p);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp)
{
    MOSAIC_CHECK_HANDLE(device, DEVICE);
    if (!device_timestamp || !host_timestamp)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "device_timestamp or host_timestamp is NULL");
    /* The device and the host share one clock: mosaic_now_ns(), the clock of
     * profiling too. */
    cl_ulong now = mosaic_now_ns();
    *device_timestamp = now;
    *host_timestamp = now;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    MOSAIC_CHECK_HANDLE(device, DEVICE);
    if (!host_timestamp)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "host_timestamp is NULL");
    *host_timestamp = mosaic_now_ns();
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue)
{
    MOSAIC_CHECK_HANDLE(context, CONTEXT);
    bool in_context = false;
    for (cl_uint i = 0; MOSAIC_IS(device, DEVICE) && i < context->num_devices; i++)
        in_context |= context->devices[i] == device;
    if (!in_context)
        return MOSAIC_ERROR(CL_INVALID_DEVICE, "%p is not a device of the context", (void *)device);
    if (!device->max_on_device_queues)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the device has no device queues");
    if (!MOSAIC_IS(command_queue, QUEUE) || !(command_queue->properties & CL_QUEUE_ON_DEVICE) ||
        command_queue->device != device || command_queue->context != context)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "%p is not a device queue of this device and context",
                            (void *)command_queue);
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            atomic_store(&context->default_device_queues[i], command_queue);
    return CL_SUCCESS;
}
