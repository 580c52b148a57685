/* Floating-point atomics of cl_ext_float_atomics: atomic_fetch_add/sub/min/max
 * (and their _explicit forms) on atomic_half, atomic_float and atomic_double,
 * and load, store and exchange on atomic_half (atomic_float and
 * atomic_double have those in atomics.cl), in __global, __local and generic
 * memory.  llvm-spirv-15 turns SPIR-V's OpAtomicFAddEXT, OpAtomicFMinEXT and
 * OpAtomicFMaxEXT into the generic atomic_fetch_*_explicit calls defined here.
 *
 * Each read-modify-write is a compare-exchange loop on the object: clang
 * lowers __opencl_atomic_compare_exchange_weak on a floating-point atomic to
 * an integer compare-exchange of its bits (2, 4 or 8 bytes; compiler/workgroup/
 * atomics.c makes it a cmpxchg instruction), which is also what LLVM makes of
 * an atomicrmw fadd/fmin/fmax on x86.  The exchange that succeeds carries the
 * caller's order and scope; a failed one only reloads the value, relaxed.
 * Min and max follow the extension (and SPIR-V's OpAtomicFMinEXT): a NaN
 * operand leaves the object as it is, a NaN object takes the operand, and
 * -0 and +0 compare equal (either may result). */
#include "builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define DEV memory_scope_device
#define SEQ memory_order_seq_cst

#define FP_ADD(old, v) ((old) + (v))
#define FP_SUB(old, v) ((old) - (v))
#define FP_MIN(old, v) ((v) != (v) ? (old) : (old) != (old) ? (v) : (v) < (old) ? (v) : (old))
#define FP_MAX(old, v) ((v) != (v) ? (old) : (old) != (old) ? (v) : (v) > (old) ? (v) : (old))

/* atomic_fetch_<OP> on A (value type T) in address space AS; NEW(old, v) the value stored */
#define FP_FETCH(A, T, AS, OP, NEW)                                                                \
    OVLD T atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o, memory_scope s)     \
    {                                                                                              \
        T old = __opencl_atomic_load(p, memory_order_relaxed, s);                                  \
        while (!__opencl_atomic_compare_exchange_weak(p, &old, NEW(old, v), o, memory_order_relaxed, s)) \
            ;                                                                                      \
        return old;                                                                                \
    }                                                                                              \
    OVLD T atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o)                     \
    {                                                                                              \
        return atomic_fetch_##OP##_explicit(p, v, o, DEV);                                         \
    }                                                                                              \
    OVLD T atomic_fetch_##OP(volatile AS A *p, T v) { return atomic_fetch_##OP##_explicit(p, v, SEQ, DEV); }

#define FP_RMW(A, T, AS)                                                                           \
    FP_FETCH(A, T, AS, add, FP_ADD) FP_FETCH(A, T, AS, sub, FP_SUB)                                \
    FP_FETCH(A, T, AS, min, FP_MIN) FP_FETCH(A, T, AS, max, FP_MAX)

/* load, store and exchange of atomic_half (the extension's fp16 load_store features) */
#define HALF_BASIC(AS)                                                                             \
    OVLD void atomic_store_explicit(volatile AS atomic_half *p, half v, memory_order o, memory_scope s) \
    {                                                                                              \
        __opencl_atomic_store(p, v, o, s);                                                         \
    }                                                                                              \
    OVLD void atomic_store_explicit(volatile AS atomic_half *p, half v, memory_order o)            \
    {                                                                                              \
        __opencl_atomic_store(p, v, o, DEV);                                                       \
    }                                                                                              \
    OVLD void atomic_store(volatile AS atomic_half *p, half v) { __opencl_atomic_store(p, v, SEQ, DEV); } \
    OVLD half atomic_load_explicit(volatile AS atomic_half *p, memory_order o, memory_scope s)     \
    {                                                                                              \
        return __opencl_atomic_load(p, o, s);                                                      \
    }                                                                                              \
    OVLD half atomic_load_explicit(volatile AS atomic_half *p, memory_order o)                     \
    {                                                                                              \
        return __opencl_atomic_load(p, o, DEV);                                                    \
    }                                                                                              \
    OVLD half atomic_load(volatile AS atomic_half *p) { return __opencl_atomic_load(p, SEQ, DEV); } \
    OVLD half atomic_exchange_explicit(volatile AS atomic_half *p, half v, memory_order o, memory_scope s) \
    {                                                                                              \
        return __opencl_atomic_exchange(p, v, o, s);                                               \
    }                                                                                              \
    OVLD half atomic_exchange_explicit(volatile AS atomic_half *p, half v, memory_order o)         \
    {                                                                                              \
        return __opencl_atomic_exchange(p, v, o, DEV);                                             \
    }                                                                                              \
    OVLD half atomic_exchange(volatile AS atomic_half *p, half v) { return __opencl_atomic_exchange(p, v, SEQ, DEV); }

/* clang 16's declarations (-fdeclare-opencl-builtins) give atomic_store on
 * atomic_half a value of type atomic_half, mangled S_ where half is Dh; the
 * value is a plain half all the same.  The same functions under those names
 * (N: the address space's number in the mangled name). */
#define HALF_STORE_AS_CLANG(AS, N)                                                                 \
    void __mosaic_half_store##N(volatile AS atomic_half *p, half v)                                \
        __asm__("_Z12atomic_storePU3AS" #N "VU7_AtomicDhS_");                                       \
    void __mosaic_half_store##N(volatile AS atomic_half *p, half v) { atomic_store(p, v); }         \
    void __mosaic_half_store_order##N(volatile AS atomic_half *p, half v, memory_order o)          \
        __asm__("_Z21atomic_store_explicitPU3AS" #N "VU7_AtomicDhS_12memory_order");                \
    void __mosaic_half_store_order##N(volatile AS atomic_half *p, half v, memory_order o)          \
    {                                                                                              \
        atomic_store_explicit(p, v, o);                                                            \
    }                                                                                              \
    void __mosaic_half_store_scope##N(volatile AS atomic_half *p, half v, memory_order o, memory_scope s) \
        __asm__("_Z21atomic_store_explicitPU3AS" #N "VU7_AtomicDhS_12memory_order12memory_scope");  \
    void __mosaic_half_store_scope##N(volatile AS atomic_half *p, half v, memory_order o, memory_scope s) \
    {                                                                                              \
        atomic_store_explicit(p, v, o, s);                                                         \
    }

#define FP_AS(AS)                                                                                  \
    HALF_BASIC(AS)                                                                                 \
    FP_RMW(atomic_half, half, AS) FP_RMW(atomic_float, float, AS) FP_RMW(atomic_double, double, AS)
FP_AS(__global)
FP_AS(__local)
FP_AS()
HALF_STORE_AS_CLANG(__global, 1)
HALF_STORE_AS_CLANG(__local, 3)
HALF_STORE_AS_CLANG(, 4)
