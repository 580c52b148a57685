/*
 * The machine's layout as Linux reports it in sysfs, for partitioning the CPU
 * device by affinity domain (clCreateSubDevices with
 * CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN):
 *
 *   NUMA node of each CPU   /sys/devices/system/node/nodeN/cpulist
 *   caches of each CPU      /sys/devices/system/cpu/cpuN/cache/indexK/{level,type,shared_cpu_list}
 *
 * Each CPU gets one key per domain: its node number, or for cache level L
 * the lowest CPU of the shared_cpu_list of its level-L data (or unified)
 * cache, so CPUs that share one cache have the same key.  A domain sysfs
 * says nothing about (no node directory, a virtual machine without cache
 * files, no L4) has key -1.  Read once, at the first question.
 */
#define _GNU_SOURCE
#include "devices/cpu/cpu.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NUMA, L1, L2, L3, L4, DOMAINS };

/* Written by a load only: once for the real machine (before anyone reads
 * it), or by a test that replaces it while nothing else runs. */
static long keys[CPU_SETSIZE][DOMAINS];
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static bool read_text(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(out, 1, size - 1, f);
    fclose(f);
    out[n] = '\0';
    while (n && isspace((unsigned char)out[n - 1]))
        out[--n] = '\0';
    return n > 0;
}

/* "0-3,8,10-11" -> set; false if malformed. */
static bool parse_cpu_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s) {
        char *end;
        unsigned long first = strtoul(s, &end, 10), last = first;
        if (end == s)
            return false;
        s = end;
        if (*s == '-') {
            last = strtoul(s + 1, &end, 10);
            if (end == s + 1)
                return false;
            s = end;
        }
        for (unsigned long c = first; c <= last && c < CPU_SETSIZE; c++)
            CPU_SET(c, set);
        if (*s == ',')
            s++;
        else if (*s)
            return false;
    }
    return true;
}

static void load_numa(const char *root)
{
    char path[512];
    snprintf(path, sizeof path, "%s/node", root);
    DIR *dir = opendir(path);
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir))) {
        char *end;
        if (strncmp(e->d_name, "node", 4) != 0 || !isdigit((unsigned char)e->d_name[4]))
            continue;
        long node = strtol(e->d_name + 4, &end, 10);
        if (*end)
            continue;
        char list[4096];
        cpu_set_t set;
        snprintf(path, sizeof path, "%s/node/%s/cpulist", root, e->d_name);
        if (!read_text(path, list, sizeof list) || !parse_cpu_list(list, &set))
            continue;
        for (unsigned c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                keys[c][NUMA] = node;
    }
    closedir(dir);
}

static void load_caches(const char *root, unsigned cpu)
{
    for (int index = 0; index < 32; index++) {
        char path[512], text[4096];
        snprintf(path, sizeof path, "%s/cpu/cpu%u/cache/index%d/type", root, cpu, index);
        if (!read_text(path, text, sizeof text))
            break;
        if (strcmp(text, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "%s/cpu/cpu%u/cache/index%d/level", root, cpu, index);
        if (!read_text(path, text, sizeof text))
            continue;
        int level = atoi(text);
        if (level < 1 || level > 4)
            continue;
        snprintf(path, sizeof path, "%s/cpu/cpu%u/cache/index%d/shared_cpu_list", root, cpu, index);
        cpu_set_t set;
        if (!read_text(path, text, sizeof text) || !parse_cpu_list(text, &set) || !CPU_ISSET(cpu, &set))
            continue;
        for (unsigned c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                keys[cpu][L1 + level - 1] = c;
                break;
            }
    }
}

static void load(const char *root)
{
    for (unsigned c = 0; c < CPU_SETSIZE; c++)
        for (int d = 0; d < DOMAINS; d++)
            keys[c][d] = -1;
    load_numa(root);
    /* every cpuN directory, present or not in this process's affinity mask */
    char path[512];
    snprintf(path, sizeof path, "%s/cpu", root);
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        char *end;
        if (strncmp(e->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)e->d_name[3]))
            continue;
        unsigned long cpu = strtoul(e->d_name + 3, &end, 10);
        if (*end || cpu >= CPU_SETSIZE)
            continue;
        load_caches(root, (unsigned)cpu);
    }
    if (dir)
        closedir(dir);
}

static void load_real(void)
{
    load("/sys/devices/system");
}

void mosaic_cpu_topology_load(const char *root)
{
    pthread_once(&real_once, load_real); /* so that it will not replace this one later */
    load(root);
}

long mosaic_cpu_domain_key(unsigned cpu, cl_device_affinity_domain domain)
{
    int d;
    switch (domain) {
    case CL_DEVICE_AFFINITY_DOMAIN_NUMA: d = NUMA; break;
    case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE: d = L4; break;
    case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE: d = L3; break;
    case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE: d = L2; break;
    case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE: d = L1; break;
    default: return -1;
    }
    if (cpu >= CPU_SETSIZE)
        return -1;
    pthread_once(&real_once, load_real);
    return keys[cpu][d];
}
