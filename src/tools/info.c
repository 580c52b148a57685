/*
 * mosaic info: the platform and its devices as the OpenCL API reports them
 * (versions, extensions, OpenCL C features), the kernel cache, every setting
 * in force, and the programs and library a build runs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "base/settings.h"
#include "compiler/frontend/fork_server.h"
#include "tool.h"

extern char **environ;

/* ---- OpenCL queries ----------------------------------------------------------------- */

/* The value of a query, malloc'd and NUL-terminated (a string query's
 * text); NULL if the query fails.  *size: its size in bytes. */
static void *platform_value(cl_platform_id p, cl_platform_info what, size_t *size)
{
    size_t n = 0;
    if (clGetPlatformInfo(p, what, 0, NULL, &n) != CL_SUCCESS)
        return NULL;
    char *v = calloc(1, n + 1);
    if (v && clGetPlatformInfo(p, what, n, v, NULL) != CL_SUCCESS) {
        free(v);
        return NULL;
    }
    if (size)
        *size = n;
    return v;
}

static void *device_value(cl_device_id d, cl_device_info what, size_t *size)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS)
        return NULL;
    char *v = calloc(1, n + 1);
    if (v && clGetDeviceInfo(d, what, n, v, NULL) != CL_SUCCESS) {
        free(v);
        return NULL;
    }
    if (size)
        *size = n;
    return v;
}

static uint64_t device_number(cl_device_id d, cl_device_info what, size_t width)
{
    uint64_t v = 0; /* little-endian: a narrower value fills the low bytes */
    clGetDeviceInfo(d, what, width, &v, NULL);
    return v;
}

static void version_text(cl_version v, char text[32])
{
    snprintf(text, 32, "%u.%u.%u", CL_VERSION_MAJOR(v), CL_VERSION_MINOR(v), CL_VERSION_PATCH(v));
}

/* A string query as a value. */
static void query_str(out *o, const char *key, const char *label, char *value)
{
    out_str(o, key, label, value);
    free(value);
}

/* A list of names with versions (extensions, features, ILs, OpenCL C
 * versions): JSON objects; plain lines "name  version". */
static void name_versions(out *o, const char *key, const char *label, cl_name_version *list, size_t bytes)
{
    size_t n = list ? bytes / sizeof *list : 0;
    char heading[80];
    snprintf(heading, sizeof heading, "%s (%zu)", label, n);
    out_list(o, key, heading);
    for (size_t i = 0; i < n; i++) {
        char version[32];
        version_text(list[i].version, version);
        if (o->json) {
            out_object(o, NULL, NULL);
            out_str(o, "name", NULL, list[i].name);
            out_str(o, "version", NULL, version);
            out_end(o);
        } else {
            out_text(o, "%-44s %s", list[i].name, version);
        }
    }
    out_end(o);
    free(list);
}

static void device_type(out *o, cl_device_type type)
{
    static const struct {
        cl_device_type bit;
        const char *name;
    } types[] = {{CL_DEVICE_TYPE_DEFAULT, "DEFAULT"}, {CL_DEVICE_TYPE_CPU, "CPU"}, {CL_DEVICE_TYPE_GPU, "GPU"},
                 {CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR"}, {CL_DEVICE_TYPE_CUSTOM, "CUSTOM"}};
    char text[64] = "";
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (type & types[i].bit)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", *text ? " " : "", types[i].name);
    out_str(o, "type", "Type", text);
}

static void device(out *o, cl_device_id d, unsigned index)
{
    char heading[32];
    snprintf(heading, sizeof heading, "Device %u", index);
    out_object(o, NULL, heading);
    query_str(o, "name", "Name", device_value(d, CL_DEVICE_NAME, NULL));
    device_type(o, (cl_device_type)device_number(d, CL_DEVICE_TYPE, sizeof(cl_device_type)));
    query_str(o, "vendor", "Vendor", device_value(d, CL_DEVICE_VENDOR, NULL));
    char id[16];
    snprintf(id, sizeof id, "0x%x", (unsigned)device_number(d, CL_DEVICE_VENDOR_ID, sizeof(cl_uint)));
    out_str(o, "vendor_id", "Vendor ID", id);
    query_str(o, "version", "Version", device_value(d, CL_DEVICE_VERSION, NULL));
    query_str(o, "driver_version", "Driver version", device_value(d, CL_DRIVER_VERSION, NULL));
    query_str(o, "profile", "Profile", device_value(d, CL_DEVICE_PROFILE, NULL));
    query_str(o, "opencl_c_version", "OpenCL C", device_value(d, CL_DEVICE_OPENCL_C_VERSION, NULL));
    out_uint(o, "compute_units", "Compute units", device_number(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)));
    out_uint(o, "max_clock_mhz", "Max clock (MHz)", device_number(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)));
    out_bytes(o, "global_memory_bytes", "Global memory", device_number(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)));
    out_bytes(o, "max_allocation_bytes", "Largest allocation",
              device_number(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)));
    out_bytes(o, "local_memory_bytes", "Local memory", device_number(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)));
    out_uint(o, "max_work_group_size", "Max work-group size",
             device_number(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)));
    out_uint(o, "max_sub_groups", "Max sub-groups", device_number(d, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)));
    out_bool(o, "image_support", "Images", device_number(d, CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)) != 0);
    size_t bytes = 0;
    cl_name_version *list = device_value(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &bytes);
    name_versions(o, "opencl_c_versions", "OpenCL C versions", list, bytes);
    list = device_value(d, CL_DEVICE_ILS_WITH_VERSION, &bytes);
    name_versions(o, "ils", "Intermediate languages", list, bytes);
    list = device_value(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, &bytes);
    name_versions(o, "extensions", "Extensions", list, bytes);
    list = device_value(d, CL_DEVICE_OPENCL_C_FEATURES, &bytes);
    name_versions(o, "opencl_c_features", "OpenCL C features", list, bytes);
    out_end(o);
}

/* The platforms of the library this command is linked with (Mosaic's
 * one); false if the API answers none. */
static bool platforms(out *o)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    if (err != CL_SUCCESS || !n) {
        tool_error("clGetPlatformIDs found no platform (error %d)", err);
        return false;
    }
    cl_platform_id *ids = calloc(n, sizeof *ids);
    if (!ids || clGetPlatformIDs(n, ids, NULL) != CL_SUCCESS) {
        free(ids);
        return false;
    }
    bool ok = true;
    out_list(o, "platforms", NULL);
    for (cl_uint p = 0; p < n; p++) {
        out_object(o, NULL, "Platform");
        query_str(o, "name", "Name", platform_value(ids[p], CL_PLATFORM_NAME, NULL));
        query_str(o, "vendor", "Vendor", platform_value(ids[p], CL_PLATFORM_VENDOR, NULL));
        query_str(o, "version", "Version", platform_value(ids[p], CL_PLATFORM_VERSION, NULL));
        query_str(o, "profile", "Profile", platform_value(ids[p], CL_PLATFORM_PROFILE, NULL));
        query_str(o, "icd_suffix", "ICD suffix", platform_value(ids[p], CL_PLATFORM_ICD_SUFFIX_KHR, NULL));
        size_t bytes = 0;
        cl_name_version *list = platform_value(ids[p], CL_PLATFORM_EXTENSIONS_WITH_VERSION, &bytes);
        name_versions(o, "extensions", "Extensions", list, bytes);
        cl_uint nd = 0;
        cl_device_id *devices = NULL;
        if (clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS && nd)
            devices = calloc(nd, sizeof *devices);
        if (!devices || clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, nd, devices, NULL) != CL_SUCCESS) {
            tool_error("clGetDeviceIDs found no device");
            ok = false;
            nd = 0;
        }
        out_list(o, "devices", NULL);
        for (cl_uint d = 0; d < nd; d++)
            device(o, devices[d], d);
        out_end(o);
        free(devices);
        out_end(o);
    }
    out_end(o);
    free(ids);
    return ok;
}

/* ---- settings ------------------------------------------------------------------------ */

/* One setting's effective value: a flag, a number or a text (NULL: none). */
typedef struct setting {
    const char *name;
    enum { FLAG, NUMBER, TEXT } kind;
    bool flag;
    unsigned long long number;
    const char *text;
    const char *note; /* plain text: what the value means, or NULL */
} setting;

/* One row a variable of settings.def. */
#define MOSAIC_FLAG(...) +1
#define MOSAIC_NUMBER(...) +1
#define MOSAIC_PATH(...) +1
#define MOSAIC_TRISTATE(...) +1
#define MOSAIC_CATEGORIES(...) +1
#define MOSAIC_INPUT(...) +1
#define MOSAIC_DERIVED(...)
enum { MAX_SETTINGS = 0
#include "base/settings.def"
};

/* A set of categories (bit i: names[i]) as its names ("build,cache") in
 * buf, or "off". */
#define CATEGORY_NAME(id, name, by_name_only, what) name,
static const char *category_names(unsigned set, const char *const *names, size_t n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && len < size; i++)
        if (set & 1u << i)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "", names[i]);
    return len ? buf : "off";
}

/* Every variable Mosaic reads, in settings.def's order, made from
 * settings.def (the test mosaic_command_info_lists_every_setting checks
 * the list against it).  A variable that is one input of a derived field
 * shows its value as set, and the field (the cache's directory) as its note. */
static size_t settings_in_force(setting *rows)
{
    const struct mosaic_settings *s = mosaic_settings();
    size_t n = 0;
    /* the one MOSAIC_DERIVED field, which the MOSAIC_INPUT variables decide */
    static char derived[4200];
    snprintf(derived, sizeof derived, "with the others, makes the cache's directory %s",
             s->cache_dir ? s->cache_dir : "none: no cache");
#define MOSAIC_FLAG(NAME, field, summary) rows[n++] = (setting){NAME, FLAG, .flag = s->field};
#define MOSAIC_NUMBER(NAME, field, type, def, min, max, below, summary)                                  \
    rows[n++] = (setting){NAME, NUMBER, .number = (unsigned long long)s->field};
#define MOSAIC_PATH(NAME, field, def, shown, summary)                                                     \
    rows[n++] = (setting){NAME, TEXT, .text = s->field, .note = s->field ? NULL : "none"};
#define MOSAIC_TRISTATE(NAME, field, shown, summary)                                                      \
    rows[n++] = (setting){NAME, TEXT, .text = s->field < 0 ? shown : s->field ? "on" : "off"};
#define MOSAIC_CATEGORIES(NAME, field, list, values, summary)                                             \
    {                                                                                                     \
        static const char *const names[] = {list(CATEGORY_NAME)};                                         \
        static char text[128];                                                                            \
        rows[n++] = (setting){NAME, TEXT,                                                                 \
                              .text = category_names(s->field, names, sizeof names / sizeof names[0],    \
                                                     text, sizeof text)};                                 \
    }
#define MOSAIC_INPUT(NAME, values, shown, summary)                                                        \
    rows[n++] = (setting){NAME, TEXT, .text = getenv(NAME), .note = derived};
#define MOSAIC_DERIVED(field, type, function)
#include "base/settings.def"
    return n;
}

static void settings(out *o)
{
    setting rows[MAX_SETTINGS];
    size_t n = settings_in_force(rows);
    out_list(o, "settings", "Settings (effective value; * set in the environment)");
    for (size_t i = 0; i < n; i++) {
        const setting *r = &rows[i];
        const char *raw = getenv(r->name);
        if (o->json) {
            out_object(o, NULL, NULL);
            out_str(o, "name", NULL, r->name);
            out_str(o, "value", NULL, raw); /* as set, or null */
            if (r->kind == FLAG)
                out_bool(o, "effective", NULL, r->flag);
            else if (r->kind == NUMBER)
                out_uint(o, "effective", NULL, r->number);
            else
                out_str(o, "effective", NULL, r->text);
            out_end(o);
            continue;
        }
        char value[64];
        const char *shown = value;
        if (r->kind == FLAG)
            shown = r->flag ? "on" : "off";
        else if (r->kind == NUMBER)
            snprintf(value, sizeof value, "%llu", r->number);
        else
            shown = r->text ? r->text : "-";
        char as_set[4200] = "";
        /* a value that does not read as written (not a number, out of range) */
        if (raw && r->kind != FLAG && strcmp(raw, shown))
            snprintf(as_set, sizeof as_set, "  [set to \"%s\"]", raw);
        out_text(o, "%c %-24s %s%s%s%s%s", raw ? '*' : ' ', r->name, shown, r->note ? " (" : "",
                 r->note ? r->note : "", r->note ? ")" : "", as_set);
    }
    /* MOSAIC_ variables Mosaic does not read: a misspelt setting does nothing */
    const char *unknown[64];
    int unknown_len[64], nu = 0;
    for (char **e = environ; *e && nu < 64; e++) {
        if (strncmp(*e, "MOSAIC_", 7))
            continue;
        int len = (int)strcspn(*e, "=");
        bool known = (size_t)len == strlen(MC_FORK_SERVER_FD_VARIABLE) && !strncmp(*e, MC_FORK_SERVER_FD_VARIABLE, len);
        for (size_t i = 0; i < n && !known; i++)
            known = strlen(rows[i].name) == (size_t)len && !strncmp(*e, rows[i].name, len);
        if (!known) {
            unknown[nu] = *e;
            unknown_len[nu++] = len;
        }
    }
    for (int i = 0; i < nu; i++)
        out_text(o, "! %.*s is not a Mosaic setting: ignored", unknown_len[i], unknown[i]);
    out_end(o);

    out_list(o, "unknown_variables", NULL);
    for (int i = 0; i < nu && o->json; i++) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", unknown_len[i], unknown[i]);
        out_str(o, NULL, NULL, name);
    }
    out_end(o);
}

/* ---- what a build runs ------------------------------------------------------------------ */

/* `program` as Mosaic runs it (a name is looked up in PATH, as execvp does),
 * in found (PATH_MAX); false if there is no such executable. */
static bool find_program(const char *program, char *found)
{
    if (strchr(program, '/')) {
        snprintf(found, PATH_MAX, "%s", program);
        return !access(found, X_OK);
    }
    const char *dirs = getenv("PATH");
    for (const char *d = dirs ? dirs : "/bin:/usr/bin";; d++) {
        size_t n = strcspn(d, ":");
        snprintf(found, PATH_MAX, "%.*s%s%s", (int)n, d, n ? "/" : "", program);
        struct stat st;
        if (!stat(found, &st) && S_ISREG(st.st_mode) && !access(found, X_OK))
            return true;
        d += n;
        if (!*d)
            return false;
    }
}

static void tool_row(out *o, const char *name, const char *setting, const char *path, const char *needed_for)
{
    char found[PATH_MAX];
    bool ok = find_program(path, found);
    if (o->json) {
        out_object(o, NULL, NULL);
        out_str(o, "name", NULL, name);
        out_str(o, "setting", NULL, setting);
        out_str(o, "path", NULL, path);
        out_bool(o, "found", NULL, ok);
        out_str(o, "needed_for", NULL, needed_for);
        out_end(o);
    } else if (ok) {
        out_text(o, "%-26s %s", name, found);
    } else {
        out_text(o, "%-26s %s  MISSING: %s fail (or set %s)", name, path, needed_for, setting);
    }
}

/* The library this command runs: the file that defines clGetPlatformIDs. */
static const char *library_path(void)
{
    Dl_info info;
    void *symbol = dlsym(RTLD_DEFAULT, "clGetPlatformIDs");
    return symbol && dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : NULL;
}

static void programs(out *o)
{
    const struct mosaic_settings *s = mosaic_settings();
    out_list(o, "programs", "Programs a build runs");
    tool_row(o, "clang", "MOSAIC_CLANG", s->clang, "OpenCL C builds");
    tool_row(o, "opt", "MOSAIC_OPT", s->opt, "program binaries (clCreateProgramWithBinary)");
    tool_row(o, "llvm-spirv", "MOSAIC_LLVM_SPIRV", s->llvm_spirv, "SPIR-V programs (clCreateProgramWithIL)");
    tool_row(o, "spirv-val", "MOSAIC_SPIRV_VAL", s->spirv_val, "SPIR-V programs (clCreateProgramWithIL)");
    out_end(o);
}

int info_command(bool json)
{
    out o = {.json = json};
    out_object(&o, NULL, NULL);

    const char *library = library_path();
    char real[PATH_MAX], server[PATH_MAX + 64] = "";
    out_object(&o, "mosaic", "Mosaic");
    out_str(&o, "version", "Version", MOSAIC_VERSION_STRING);
    out_str(&o, "library", "Library", library && realpath(library, real) ? real : library);
    /* where libmosaic looks for it (compiler/frontend/fork_server.c, preload_path) */
    const char *slash = library ? strrchr(library, '/') : NULL;
    if (slash)
        snprintf(server, sizeof server, "%.*s/%s", (int)(slash - library), library, MC_FORK_SERVER_LIBRARY);
    bool have_server = *server && !access(server, R_OK);
    if (o.json)
        out_str(&o, "fork_server_library", NULL, have_server && realpath(server, real) ? real : NULL);
    else if (have_server)
        out_str(&o, NULL, "Fork server library", realpath(server, real) ? real : server);
    else
        out_plain(&o, "Fork server library", "missing beside the library: each build starts clang afresh (slower)");
    out_end(&o);
    out_text(&o, "%s", "");

    bool ok = platforms(&o);
    out_text(&o, "%s", "");

    cache_place place;
    cache_count count;
    cache_place_find(&place);
    cache_count_dir(place.dir, &count);
    out_object(&o, "cache", "Kernel cache");
    cache_report(&o, &place, &count);
    out_end(&o);
    out_text(&o, "%s", "");
    settings(&o);
    out_text(&o, "%s", "");
    programs(&o);
    out_end(&o);
    out_finish(&o);
    return ok ? EXIT_OK : EXIT_FAILED;
}
