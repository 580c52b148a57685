/* vloadn and vstoren of one element type in one address space (OpenCL C
 * 3.0 section 6.15.11), as macros: builtins/vload.cl writes them for every
 * type, builtins/nvptx/half_vectors.cl for half on the GPU, where libclc's
 * NVPTX library has every other type's.  UNALIGNED(T, _) first declares the
 * vector types of T the loads and stores go through. */
#ifndef MOSAIC_VLOAD_H
#define MOSAIC_VLOAD_H

/* Vectors aligned only to their element: vloadn needs no more than that. */
#define UNALIGNED(T, _)                                                                             \
    typedef T __u_##T##2 __attribute__((ext_vector_type(2), aligned(sizeof(T))));                  \
    typedef T __u_##T##4 __attribute__((ext_vector_type(4), aligned(sizeof(T))));                  \
    typedef T __u_##T##8 __attribute__((ext_vector_type(8), aligned(sizeof(T))));                  \
    typedef T __u_##T##16 __attribute__((ext_vector_type(16), aligned(sizeof(T))));

#define VLOAD_N(T, AS, N)                                                                          \
    OVLD T##N vload##N(size_t i, const AS T *p) { return *(const AS __u_##T##N *)(p + i * N); }    \
    OVLD void vstore##N(T##N v, size_t i, AS T *p) { *(AS __u_##T##N *)(p + i * N) = v; }
#define VLOAD_3(T, AS)                                                                             \
    OVLD T##3 vload3(size_t i, const AS T *p)                                                      \
    {                                                                                              \
        const AS T *q = p + i * 3;                                                                 \
        return (T##3)(q[0], q[1], q[2]);                                                           \
    }                                                                                              \
    OVLD void vstore3(T##3 v, size_t i, AS T *p)                                                   \
    {                                                                                              \
        AS T *q = p + i * 3;                                                                       \
        q[0] = v.s0;                                                                               \
        q[1] = v.s1;                                                                               \
        q[2] = v.s2;                                                                               \
    }
#define VLOAD(T, AS) VLOAD_N(T, AS, 2) VLOAD_3(T, AS) VLOAD_N(T, AS, 4) VLOAD_N(T, AS, 8) VLOAD_N(T, AS, 16)
/* vstore has no __constant variant: a store through it would not compile */
#define VLOAD_ONLY_N(T, AS, N)                                                                     \
    OVLD T##N vload##N(size_t i, const AS T *p) { return *(const AS __u_##T##N *)(p + i * N); }
#define VLOAD_CONSTANT(T, AS)                                                                      \
    VLOAD_ONLY_N(T, AS, 2) VLOAD_ONLY_N(T, AS, 4) VLOAD_ONLY_N(T, AS, 8) VLOAD_ONLY_N(T, AS, 16)   \
    OVLD T##3 vload3(size_t i, const AS T *p)                                                      \
    {                                                                                              \
        const AS T *q = p + i * 3;                                                                 \
        return (T##3)(q[0], q[1], q[2]);                                                           \
    }

#endif
