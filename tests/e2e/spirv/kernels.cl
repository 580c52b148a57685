/* Kernels of test_spirv.c, compiled at build time by clang-15 for spir64 and
 * turned into SPIR-V by llvm-spirv-15 (tests/e2e/CMakeLists.txt). */

/* math through the OpenCL.std extended instructions */
kernel void math(global const float *a, global float *out, float s)
{
    size_t i = get_global_id(0);
    out[i] = fma(a[i], s, 1.0f) + sqrt(fabs(a[i])) + sin(a[i]) * cos(a[i]) + fmax(a[i], 0.5f) +
             (float)clamp((int)a[i], -2, 2);
}

/* a work-group sum in local memory with barriers */
kernel void group_sum(global const int *in, global int *out, local int *scratch)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t step = n / 2; step > 0; step /= 2) {
        if (l < step)
            scratch[l] += scratch[l + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

/* a static __local array too */
kernel void reverse_in_group(global int *data)
{
    local int tile[64];
    size_t l = get_local_id(0), n = get_local_size(0);
    tile[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = tile[n - 1 - l];
}

/* OpenCL 1.x and C11-style atomics */
kernel void atomics(global int *counters, global atomic_int *c11)
{
    atomic_inc(&counters[0]);
    atomic_add(&counters[1], (int)get_global_id(0));
    atomic_max(&counters[2], (int)get_global_id(0));
    atomic_fetch_add_explicit(c11, 2, memory_order_relaxed, memory_scope_device);
}

kernel void say(global int *x)
{
    printf("spirv printf %d %.2f %s %v4d\n", x[0], 1.5f, "ok", (int4)(1, 2, 3, 4));
}

/* DontInline: the translator puts noinline on the call too */
__attribute__((noinline)) int helper(int x)
{
    return x * 3 + 1;
}

kernel void use_helper(global int *a)
{
    a[get_global_id(0)] = helper(a[get_global_id(0)]);
}

/* A struct by value: llvm-spirv passes it as a pointer to Function memory
 * decorated FuncParamAttr ByVal (test_spirv's struct_by_value). */
typedef struct {
    int a;
    float b;
    long c;
    char d;
    float4 v;
} by_value_t;

kernel void by_value(global float *out, by_value_t s, int k)
{
    size_t i = get_global_id(0);
    out[i] = (float)s.a + s.b + (float)s.c + (float)s.d + s.v.x + s.v.w + (float)(k * (int)i);
}
