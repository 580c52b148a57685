/* Atomic functions: OpenCL 1.x atomic_* / atom_* (sections 6.15.12.x of the
 * 1.2 spec and cl_khr_int64_*_atomics) and the OpenCL 2.0 C11-style atomics
 * (OpenCL C 3.0 section 6.15.12).  clang lowers the builtins used here to
 * __atomic_* / __opencl_atomic_* library calls on spir64 (and on the GPU's
 * nvptx64, which builds this file too), which the compiler turns into atomic
 * instructions at finalize (src/compiler/workgroup/atomics.c). */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define SC __ATOMIC_SEQ_CST

/* ---- OpenCL 1.x: plain (volatile) integers in __global or __local memory ---------- */
#define LEGACY(PREFIX, T, AS)                                                                      \
    OVLD T PREFIX##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, SC); }            \
    OVLD T PREFIX##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, SC); }            \
    OVLD T PREFIX##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, SC); }          \
    OVLD T PREFIX##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, SC); }              \
    OVLD T PREFIX##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, SC); }              \
    OVLD T PREFIX##_cmpxchg(volatile AS T *p, T cmp, T v)                                          \
    {                                                                                              \
        __atomic_compare_exchange_n(p, &cmp, v, 0, SC, SC);                                        \
        return cmp;                                                                                \
    }                                                                                              \
    OVLD T PREFIX##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, SC); }            \
    OVLD T PREFIX##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, SC); }            \
    OVLD T PREFIX##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, SC); }            \
    OVLD T PREFIX##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, SC); }              \
    OVLD T PREFIX##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, SC); }
#define LEGACY_AS(AS)                                                                              \
    LEGACY(atomic, int, AS) LEGACY(atomic, uint, AS)                                               \
    LEGACY(atom, int, AS) LEGACY(atom, uint, AS) LEGACY(atom, long, AS) LEGACY(atom, ulong, AS)    \
    OVLD float atomic_xchg(volatile AS float *p, float v)                                          \
    {                                                                                              \
        return as_float(__atomic_exchange_n((volatile AS int *)p, as_int(v), SC));                 \
    }
#ifdef __NVPTX__
/* the GPU: libclc has the 32-bit ones, written for each address space
 * (atom.shared where the object is __local); only the 64-bit ones are Mosaic's */
LEGACY(atom, long, __global) LEGACY(atom, ulong, __global) LEGACY(atom, long, __local) LEGACY(atom, ulong, __local)
#else
LEGACY_AS(__global)
LEGACY_AS(__local)
#endif

/* ---- OpenCL 2.0: _Atomic objects, with orders and scopes ------------------------------ */
#define DEV memory_scope_device
#define SEQ memory_order_seq_cst

/* A: the atomic type, T: its value type, AS: the object's address space */
#define C11_BASIC(A, T, AS)                                                                        \
    OVLD void atomic_init(volatile AS A *p, T v) { __opencl_atomic_init(p, v); }                   \
    OVLD void atomic_store(volatile AS A *p, T v) { __opencl_atomic_store(p, v, SEQ, DEV); }       \
    OVLD void atomic_store_explicit(volatile AS A *p, T v, memory_order o) { __opencl_atomic_store(p, v, o, DEV); } \
    OVLD void atomic_store_explicit(volatile AS A *p, T v, memory_order o, memory_scope s)         \
    {                                                                                              \
        __opencl_atomic_store(p, v, o, s);                                                         \
    }                                                                                              \
    OVLD T atomic_load(volatile AS A *p) { return __opencl_atomic_load(p, SEQ, DEV); }             \
    OVLD T atomic_load_explicit(volatile AS A *p, memory_order o) { return __opencl_atomic_load(p, o, DEV); } \
    OVLD T atomic_load_explicit(volatile AS A *p, memory_order o, memory_scope s)                  \
    {                                                                                              \
        return __opencl_atomic_load(p, o, s);                                                      \
    }                                                                                              \
    OVLD T atomic_exchange(volatile AS A *p, T v) { return __opencl_atomic_exchange(p, v, SEQ, DEV); } \
    OVLD T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o)                         \
    {                                                                                              \
        return __opencl_atomic_exchange(p, v, o, DEV);                                             \
    }                                                                                              \
    OVLD T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o, memory_scope s)         \
    {                                                                                              \
        return __opencl_atomic_exchange(p, v, o, s);                                               \
    }

/* compare-exchange, `expected` in address space EAS */
#define C11_CAS_KIND(A, T, AS, EAS, KIND)                                                          \
    OVLD bool atomic_compare_exchange_##KIND(volatile AS A *p, EAS T *e, T v)                      \
    {                                                                                              \
        return __opencl_atomic_compare_exchange_##KIND(p, e, v, SEQ, SEQ, DEV);                    \
    }                                                                                              \
    OVLD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS T *e, T v, memory_order ok, \
                                                        memory_order fail)                         \
    {                                                                                              \
        return __opencl_atomic_compare_exchange_##KIND(p, e, v, ok, fail, DEV);                    \
    }                                                                                              \
    OVLD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS T *e, T v, memory_order ok, \
                                                        memory_order fail, memory_scope s)         \
    {                                                                                              \
        return __opencl_atomic_compare_exchange_##KIND(p, e, v, ok, fail, s);                      \
    }
#define C11_CAS(A, T, AS, EAS) C11_CAS_KIND(A, T, AS, EAS, strong) C11_CAS_KIND(A, T, AS, EAS, weak)

/* fetch_<op>: M is the operand type (ptrdiff_t for the uintptr_t objects) */
#define C11_FETCH(A, T, M, AS, OP)                                                                 \
    OVLD T atomic_fetch_##OP(volatile AS A *p, M v) { return __opencl_atomic_fetch_##OP(p, v, SEQ, DEV); } \
    OVLD T atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o)                     \
    {                                                                                              \
        return __opencl_atomic_fetch_##OP(p, v, o, DEV);                                           \
    }                                                                                              \
    OVLD T atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o, memory_scope s)     \
    {                                                                                              \
        return __opencl_atomic_fetch_##OP(p, v, o, s);                                             \
    }
#define C11_ARITH(A, T, M, AS) C11_FETCH(A, T, M, AS, add) C11_FETCH(A, T, M, AS, sub)
#define C11_BITS(A, T, M, AS)                                                                      \
    C11_FETCH(A, T, M, AS, or) C11_FETCH(A, T, M, AS, xor) C11_FETCH(A, T, M, AS, and)             \
    C11_FETCH(A, T, M, AS, min) C11_FETCH(A, T, M, AS, max)

/* `expected` in every address space; on the GPU (NVPTX) a private and a
 * generic pointer are one type to the linker, so one definition serves both */
#ifdef __NVPTX__
#define C11_CAS_ALL(A, T, AS) C11_CAS(A, T, AS, __global) C11_CAS(A, T, AS, __local) C11_CAS(A, T, AS, __private)
#else
#define C11_CAS_ALL(A, T, AS)                                                                      \
    C11_CAS(A, T, AS, __global) C11_CAS(A, T, AS, __local) C11_CAS(A, T, AS, __private) C11_CAS(A, T, AS, )
#endif
#define C11_INT(A, T, AS) C11_BASIC(A, T, AS) C11_ARITH(A, T, T, AS) C11_BITS(A, T, T, AS) C11_CAS_ALL(A, T, AS)
#define C11_FLOAT(A, T, AS) C11_BASIC(A, T, AS) C11_CAS_ALL(A, T, AS)

#define C11_FLAG(AS)                                                                               \
    OVLD bool atomic_flag_test_and_set(volatile AS atomic_flag *p)                                 \
    {                                                                                              \
        return __opencl_atomic_exchange(p, 1, SEQ, DEV) != 0;                                      \
    }                                                                                              \
    OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o)        \
    {                                                                                              \
        return __opencl_atomic_exchange(p, 1, o, DEV) != 0;                                        \
    }                                                                                              \
    OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o, memory_scope s) \
    {                                                                                              \
        return __opencl_atomic_exchange(p, 1, o, s) != 0;                                          \
    }                                                                                              \
    OVLD void atomic_flag_clear(volatile AS atomic_flag *p) { __opencl_atomic_store(p, 0, SEQ, DEV); } \
    OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o)               \
    {                                                                                              \
        __opencl_atomic_store(p, 0, o, DEV);                                                       \
    }                                                                                              \
    OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o, memory_scope s) \
    {                                                                                              \
        __opencl_atomic_store(p, 0, o, s);                                                         \
    }

#define C11_AS(AS)                                                                                 \
    C11_INT(atomic_int, int, AS) C11_INT(atomic_uint, uint, AS)                                    \
    C11_INT(atomic_long, long, AS) C11_INT(atomic_ulong, ulong, AS)                                \
    C11_FLOAT(atomic_float, float, AS) C11_FLOAT(atomic_double, double, AS)                        \
    C11_ARITH(atomic_ulong, ulong, long, AS) /* uintptr_t += ptrdiff_t */                          \
    C11_BITS(atomic_ulong, ulong, long, AS) C11_BITS(atomic_long, long, ulong, AS)                 \
    C11_FLAG(AS)
C11_AS(__global)
C11_AS(__local)
C11_AS()
