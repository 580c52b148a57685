/*
 * Checking mode in the compiler (MOSAIC_CHECK, docs/check.md): the calls a
 * kernel built for checking makes (compiler.h, "Checking mode").
 */
#ifndef MOSAIC_COMPILER_CHECK_CHECK_H
#define MOSAIC_COMPILER_CHECK_CHECK_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* Adds the calls of __mosaic_check_access and __mosaic_check_barrier to
 * the program's functions (the builtins inlined into them; kernels: the
 * nk of `kernels`), for the checks in `kinds` (MOSAIC_CHECK_RACES...);
 * *sites: how many calls. */
cl_int mc_instrument_for_checking(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *kernels, size_t nk,
                                  unsigned kinds, unsigned *sites, mosaic_strbuf *log);

/* clang's address spaces for spir64 */
enum { AS_PRIVATE = 0, AS_GLOBAL = 1, AS_CONSTANT = 2, AS_LOCAL = 3, AS_GENERIC = 4 };

/* Where an access's pointer comes from: what its GEPs and casts start at
 * (*constant_offset cleared when an index is not a constant). */
LLVMValueRef mc_pointer_root(LLVMValueRef p, bool *constant_offset);
/* Index v without the integer casts around it (sext, zext, trunc to 32
 * bits or more, and instcombine's shl-then-shr for sext(trunc) and and
 * with 32 or more low bits for zext(trunc)): ids and indices made an int
 * and back, whose values fit. */
LLVMValueRef mc_without_int_casts(LLVMValueRef v);
/* The OpenCL memory scope (MOSAIC_CHECK_SCOPE_*) an atomic instruction was
 * lowered from (atomics.c's !mosaic.scope), else all devices. */
unsigned mc_check_scope_of(LLVMValueRef inst);
/* Does a function of m hold an atomic of work-group or sub-group scope?
 * (Whether it races depends on who shares a work-group with whom.) */
bool mc_check_narrow_atomics(LLVMModuleRef m);
/* A GEP's index i (1 the first) at type *t (its source element type for
 * i 1): a struct's field (1; *bytes its offset), or elements of *bytes
 * each (2); *t becomes what the index reaches.  0: neither (a struct's
 * index that is not a constant, a type with no elements). */
int mc_gep_step(LLVMTargetDataRef td, LLVMValueRef index, int i, LLVMTypeRef *t, int64_t *bytes);
/* The work-group's context (the call of __mosaic_get_ctx) where v is a
 * load of one of its fields, else NULL. */
LLVMValueRef mc_context_root(LLVMValueRef v);
/* llvm.memcpy/memmove (copies) and llvm.memset (fills), by the called
 * function's name. */
bool mc_copies(const char *name);
bool mc_fills(const char *name);

/* counters.c: a loop's counter `for (i = first; ...; i += step)`, a phi
 * of two values, the phi plus a constant step > 0 and another, its first.
 * (A phi whose loop resets it starts again from the same first: its values
 * are still first + step * k, k >= 0.) */
bool mc_counted(LLVMValueRef v, LLVMValueRef *first, int64_t *step);
/* The bound of counter that every run of inst is below, from the test of
 * a two-way branch whose way taken leads alone into a block that holds
 * inst or dominates it (`i < 22` at the head of `for (i = ...; i < 22;
 * ...)`); 0: none found (or no graph). */
struct mc_cfg;
int64_t mc_counter_bound(const struct mc_cfg *g, LLVMValueRef inst, LLVMValueRef counter);

/* own_blocks.c: are all accesses through kernel parameter `param` (a
 * __global pointer) inside its work-item's block (compiler.h,
 * MOSAIC_CHECK_ARG_OWN_BLOCK)?  Then *block describes them. */
bool mc_own_block(LLVMValueRef param, LLVMTargetDataRef td, const struct mc_cfg *cfg, mosaic_check_block *block);
/* Is the access of `bytes` at p by inst, p GEPs of root, always inside
 * root's first `size` bytes: its offset a constant plus loops' counters
 * (`acc[x][y]` in `for (x = 0; x < 4; x++)`), all at least 0, whose bounds
 * keep it inside? */
bool mc_offset_inside(LLVMValueRef p, LLVMValueRef root, LLVMValueRef inst, LLVMTargetDataRef td,
                      const struct mc_cfg *cfg, uint64_t bytes, uint64_t size);

/* local_objects.c: a kernel's __local objects that only it reaches, and
 * what each access of one may be spared (compiler.h: MOSAIC_CHECK_LOCAL_*). */
typedef struct mc_local_objects mc_local_objects;
typedef struct mc_slot {
    int64_t stride[3];
    uint64_t bytes; /* 0: none */
    mosaic_check_slot_loop loop[MOSAIC_CHECK_SLOT_LOOPS];
    int64_t plane;  /* 0, or the bytes of the planes it must fit in (mosaic_check_site's slot_plane) */
} mc_slot;
/* kernel's objects, or NULL (none, or no memory); found before any call
 * is added to it.  cfg: the kernel's graph (NULL: accesses have no guards). */
struct mc_cfg;
mc_local_objects *mc_find_local_objects(LLVMValueRef kernel, LLVMTargetDataRef td, const struct mc_cfg *cfg);
/* The `how` bits of access `inst` through p (LOCAL_WINDOW, NO_WRITER,
 * OWN_SLOT, ATOMICS_ONLY; 0 when p is not such an object's), and *slot its object's slot
 * (for its site; bytes 0 when none). */
uint64_t mc_local_marks(const mc_local_objects *lo, LLVMValueRef inst, LLVMValueRef p, mc_slot *slot);
void mc_local_objects_free(mc_local_objects *lo);

/* windows.c: the window (compiler.h, mosaic_check_window) an access of
 * `how` may be tested against, its index in ctx->check_windows; -1: none. */
int mc_check_window_of(uint64_t how);
/* ctx->check_windows, loaded at b (NULL where the device gave none); the
 * record of window `window` in it; that record's bounds, loaded at b. */
LLVMValueRef mc_check_windows_load(LLVMBuilderRef b, LLVMValueRef ctx, const char *name);
LLVMValueRef mc_check_window_at(LLVMBuilderRef b, LLVMValueRef windows, int window);
void mc_check_window_bounds(LLVMBuilderRef b, LLVMValueRef w, const char *lo_name, const char *hi_name,
                            LLVMValueRef *lo, LLVMValueRef *hi);
/* Builds, at b, the test of [low, end) against the window of ctx->check_windows
 * for an access of `how` (mc_check_window_of: not -1): b is left in a new
 * block, where the checker is to be called, which must branch to the block
 * returned, where the code goes on (the window holds the bytes: straight
 * there). */
LLVMBasicBlockRef mc_check_window_test(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, LLVMValueRef low,
                                       LLVMValueRef end);
/* Where the window of an access of `how` and `bytes` is shut but its set
 * window open (compiler.h, MOSAIC_CHECK_SET_WINDOW), does it need no call
 * but its bytes' written bits set ('w': a plain store of a __local object
 * at its work-item's own slot), or tested ('r': a plain read at its own
 * slot, or where nothing writes the object)?  0: neither. */
char mc_check_set_window_use(uint64_t how, uint64_t bytes);
/* At b, where mc_check_window_test left it, the same for a row of lanes
 * (compiler/vectorize/wfv_check.c), `bytes` each: [low, end) holds their
 * bytes, span of them from low on where lanes_at is NULL (all lanes
 * running, one after the other); else lanes_at is the vector of the lanes'
 * addresses, running (NULL: all) of the lanes that run.  b is left where
 * the call is to be made, which must branch to join. */
void mc_check_set_window_row_test(LLVMBuilderRef b, LLVMValueRef ctx, uint64_t how, char use, LLVMValueRef low,
                                  LLVMValueRef end, uint64_t span, LLVMValueRef lanes_at, LLVMValueRef running,
                                  uint64_t bytes, LLVMBasicBlockRef join);
/* The pass check-windows: each call of __mosaic_check_access left in m
 * whose access has a window, behind its test; how many. */
unsigned mc_check_windows(LLVMModuleRef m);
/* The block that tests a checker call's set window (compiler.h,
 * MOSAIC_CHECK_SET_WINDOW) before it, where check-windows made one; NULL:
 * none.  Its way on, where the bits are set, goes to the call's own. */
LLVMBasicBlockRef mc_check_set_block_of(LLVMValueRef call);
/* The bytes of the private array a call of __mosaic_check_access is for
 * (its site's object_size), which windows.c tests it against; 0: none. */
uint64_t mc_check_private_array_size(LLVMValueRef call);

/* row_versioning.c, the pass check-row-versioning: each x loop of the nk
 * kernels' K.wg whose checker calls a whole row can do without gets a copy
 * without them; how many. */
struct mc_kernel_build;
unsigned mc_check_row_versioning(struct mc_kernel_build *kbs, size_t nk);

#endif
