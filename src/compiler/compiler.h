/*
 * The compiler pipeline: OpenCL C source -> LLVM bitcode (clang-16 as a child
 * process) -> linked with the builtin library -> work-group functions -> JIT.
 *
 * This header is the whole contract between the runtime (src/api, src/core,
 * src/devices) and the compiler.  The runtime never touches LLVM directly.
 *
 * Three stages mirror clCompileProgram / clLinkProgram / clBuildProgram:
 *   mosaic_compile_source   source + options          -> "compiled object" bitcode
 *   mosaic_link_bitcode     several compiled objects  -> "library" or "executable" bitcode
 *   mosaic_finalize         executable bitcode        -> kernels you can call
 * Bitcode blobs are what clGetProgramInfo(CL_PROGRAM_BINARIES) hands out and
 * what clCreateProgramWithBinary takes back.
 */
#ifndef MOSAIC_COMPILER_H
#define MOSAIC_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <CL/cl.h>

/* ---- What a work-group sees at run time ------------------------------------
 * One of these is filled by the device for every work-group it runs.  The
 * builtin library (builtins/workitem.cl) reads it through __mosaic_get_ctx(),
 * so its layout is an ABI: change both sides together (test_wg_ctx_layout in
 * tests/compiler checks them). All fields are 64-bit so the OpenCL C mirror
 * (ulong) has the same layout. */
typedef struct mosaic_wg_ctx {
    uint64_t work_dim;
    uint64_t global_offset[3];
    uint64_t global_size[3];
    uint64_t enqueued_local_size[3]; /* the local size the user asked for */
    uint64_t local_size[3];          /* this group's size: smaller in a trailing non-uniform group */
    uint64_t num_groups[3];
    uint64_t group_id[3];
    char *local_mem;                 /* this work-group's __local arena: static locals, then __local args */
    void *device_private;            /* owned by the device (barrier scheduler, printf state) */
    /* Fields below were added after the first layout; new ones go at the end. */
    uint64_t local_mem_size;         /* bytes of local_mem this group uses (static + __local args) */
    /* Where work-items' private memory (their stack variables) can be: two
     * address ranges [private_lo[i], private_hi[i]), empty when lo == hi.
     * to_private() and get_fence() test generic pointers against them (see
     * builtins/address.cl): a generic pointer is local if it lies in
     * [local_mem, local_mem + local_mem_size), private if it lies in one of
     * these ranges, global otherwise.  The CPU device gives [0] = the worker
     * thread's stack (work-group loops keep private variables there) and
     * [1] = its fiber stacks (barrier kernels run as fibers); a device that
     * keeps private variables elsewhere (per-work-item arrays it allocates)
     * must cover that memory with a range. */
    char *private_lo[2];
    char *private_hi[2];
    /* Scratch for work-group and sub-group collective functions
     * (work_group_reduce_add, sub_group_broadcast...): MOSAIC_WG_SCRATCH_SIZE(n)
     * bytes for n = the product of enqueued_local_size, 8-byte aligned, owned
     * by this work-group while it runs, like local_mem. */
    char *wg_scratch;
    /* Nonzero: K.wg may write whole 64-byte lines of global memory with
     * non-temporal stores, which bypass the caches and are weakly ordered
     * (src/compiler/vectorize/nontemporal_stores.c).  A device that sets it runs a store
     * fence (x86 sfence) after the group and before anything says that the
     * group has ended: before another thread may read what it wrote. */
    uint64_t stream_stores;
    /* Checking mode: the launch's windows (mosaic_check_window), 2 per
     * kernel argument, or NULL (compiler/check/windows.c). */
    const struct mosaic_check_window *check_windows;
    /* Checking mode: which bytes of local_mem the group wrote, bit i % 64
     * of word i / 64 for byte i (a set window's stores set their own), or
     * NULL. */
    uint64_t *check_local_written;
} mosaic_wg_ctx;

/* ctx->local_mem must be aligned to this many bytes.  Static __local variables
 * take [0, static_local_mem_size); the device places __local arguments after
 * them, each at an offset that is a multiple of MOSAIC_LOCAL_MEM_ALIGNMENT
 * (generated code may use aligned vector loads on them).  Dimensions at
 * or above work_dim must hold global_size = local_size = enqueued_local_size =
 * num_groups = 1 and global_offset = group_id = 0: the builtins read them
 * without checking work_dim. */
#define MOSAIC_LOCAL_MEM_ALIGNMENT 128

/* A work-group is at most this many work-items in each dimension, and in
 * all (the CPU device reports it).  K.wg's loads of the group's size say so
 * to LLVM (!range), which then knows that a local id fits in an int and
 * that int indices made from it, widened, stay consecutive. */
#define MOSAIC_MAX_LOCAL_SIZE 4096

/* Sub-groups (docs/subgroups.md): work-items of local linear id l form
 * sub-group l / MOSAIC_SUB_GROUP_SIZE (the last one partial when the group's
 * size is not a multiple).  builtins/builtins.h mirrors the value. */
#define MOSAIC_SUB_GROUP_SIZE 8
/* wg_scratch holds 8 bytes per work-item for the work-group collectives,
 * 8 more for the sub-group reductions and scans, then this many bytes per
 * sub-group for broadcasts (one double16; builtins/subgroups.cl). */
#define MOSAIC_SUB_GROUP_SCRATCH 128
#define MOSAIC_WG_SCRATCH_SIZE(n)                                                                  \
    (16 * (size_t)(n) + MOSAIC_SUB_GROUP_SCRATCH * (((size_t)(n) + MOSAIC_SUB_GROUP_SIZE - 1) / MOSAIC_SUB_GROUP_SIZE))

/* args[i] points at the bytes of kernel argument i, laid out as the host set them:
 *   global/constant pointer : a void* (the buffer's data pointer, or NULL)
 *   local pointer           : a uint64_t byte offset into ctx->local_mem
 *   by-value scalar/vector/struct : the value itself (as in clSetKernelArg)
 * A kernel may be called for many work-groups at once from several threads:
 * nothing here is written by the kernel. */
typedef void (*mosaic_wg_fn)(void *const *args, mosaic_wg_ctx *ctx);

/* Runs one work-item.  The fallback for kernels with barriers that have no
 * work-group function (see wg_fn): the device runs each work-item as a fiber
 * and switches fibers when the work-item calls the runtime symbol
 * "__mosaic_barrier"(mosaic_wg_ctx *ctx). */
typedef void (*mosaic_wi_fn)(void *const *args, mosaic_wg_ctx *ctx,
                             uint64_t local_id_x, uint64_t local_id_y, uint64_t local_id_z);

/* ---- Checking mode (MOSAIC_CHECK, docs/check.md) ------------------------------
 * A kernel built with checking on calls, before each access of memory that
 * work-items may share or overrun (compiler/check/instrument.c),
 *   void __mosaic_check_access(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
 *                              const void *address, const void *base, uint64_t bytes, uint64_t how,
 *                              const mosaic_check_site *site)
 * or, in a kernel widened to run a row of work-items as vector lanes
 * (compiler/vectorize/wfv_check.c), once for the row's running lanes,
 *   void __mosaic_check_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t lanes,
 *                           const uint8_t *running, const char *first, int64_t stride,
 *                           const void *const *addresses, const void *base, uint64_t bytes, uint64_t how,
 *                           const mosaic_check_site *site)
 * where lane i is work-item (lx + i, ly, lz), runs when `running` is NULL or
 * running[i] is not 0, and accesses addresses[i], or first + i * stride
 * when `addresses` is NULL;
 * and before each work-group barrier, and each sub-group barrier,
 *   void __mosaic_check_barrier(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
 *                               const mosaic_check_site *site)
 *   void __mosaic_check_sub_group_barrier(the same)
 * or, for a row of work-items (lx + i, ly, lz), i < count, that reach the
 * same barrier one after another (compiler/check/row_versioning.c),
 *   void __mosaic_check_barrier_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
 *                                   uint64_t count, const mosaic_check_site *site)
 * `how` packs what the access does (READ, WRITE, both for an atomic
 * read-modify-write; ATOMIC; an atomic's OpenCL memory scope), the memory
 * it is in, and where its pointer comes from: kernel argument i, a
 * variable or private array whose start is `base` and whose bytes the site
 * gives (FROM_OBJECT), or not known (FROM_UNKNOWN: the device looks the
 * address up).  A site is a constant of the kernel's code: the same
 * pointer always means the same place. */
/* A coordinate of an OWN_SLOT access's slot that a loop steps,
 * `for (i = first + sum(lid[d] * get_local_id(d)); i < bound; i += step)`
 * (bound 0: none known), moving the access by `stride` bytes a step of 1
 * (local_objects.c): `tile[ty][tx]` loaded by `for (ty = ly; ty < 22; ty
 * += 16)` has one for ty (stride 22) and, nested, one for tx.  With split
 * w (not 0) the access moves by `stride` a step of i % w and by
 * `split_stride` a step of i / w instead (`t[i / 8][i % 8 * 4]`). */
typedef struct mosaic_check_slot_loop {
    int64_t stride; /* 0: none */
    int64_t lid[3];
    int64_t first, step, bound;
    int64_t split, split_stride;
} mosaic_check_slot_loop;
#define MOSAIC_CHECK_SLOT_LOOPS 2
#define MOSAIC_CHECK_OWN_ROWS_GUARDED (1ull << 63)

typedef struct mosaic_check_site {
    const char *kernel;
    const char *file;     /* the source file as clang saw it, or NULL (no line tables) */
    uint32_t line, column;
    const char *object;   /* the __local or program-scope variable, or NULL */
    uint64_t object_size; /* FROM_OBJECT: the bytes of the variable or private array */
    /* an access of a __local object whose accesses with LOCAL_OWN_SLOT are
     * each at its start + c + the sum of slot_stride[d] * get_local_id(d)
     * and of the slot_loop coordinates' strides times their values,
     * slot_bytes each (0: none) */
    int64_t slot_stride[3];
    uint64_t slot_bytes;
    /* an access with OWN_ROW: the rows of w each work-item owns, from
     * get_global_id(1) * own_rows on (1: its row get_global_id(1)), with
     * MOSAIC_CHECK_OWN_ROWS_GUARDED where every access through its
     * argument runs only for get_global_id(0) < w (a launch wider than w
     * leaves the rest of its work-items out) */
    uint64_t own_rows;
    /* the slot's coordinates that loops step (stride 0: none) */
    mosaic_check_slot_loop slot_loop[MOSAIC_CHECK_SLOT_LOOPS];
    /* 0, or the bytes of a plane: the object is double-buffered, its
     * accesses between two barriers in two planes that differ (`s[cur ^
     * 1][l]` and `s[cur][l]`), each inside its plane where the group's
     * slots, from 0 up, fit in slot_plane bytes (local_objects.c) */
    int64_t slot_plane;
    /* an access with ARG_OWN_BLOCK: its argument's blocks, the same for
     * every site of that argument (own_blocks.c), else NULL */
    const struct mosaic_check_block *block;
} mosaic_check_site;

/* The blocks of a kernel argument whose every access is at a byte offset
 * sum(factor[t] * x[t]) + c from it, x[t] one of a work-item's coordinates
 * (local id, group id, the global offset) or a step of a loop or of the
 * sites' constants, below `extent` of them (for the coordinates: the
 * launch's), and c one of the sites' constants (base + base_w * w at the
 * least).  A term's factor is bytes, times the integer argument w (its
 * index + 1 `width`) with BY_WIDTH, times the launch's local size in its
 * dimension with BY_LOCAL_SIZE (get_global_id's group id).  Where the
 * launch's sizes make the sum nested (each factor above the sum's reach
 * below it, the widest access's bytes included), a work-item's coordinates
 * tell its bytes, and no two work-items share one (the device's
 * block_holds). */
enum { MOSAIC_CHECK_TERM_LOCAL_ID, MOSAIC_CHECK_TERM_GROUP_ID, MOSAIC_CHECK_TERM_GLOBAL_OFFSET,
       MOSAIC_CHECK_TERM_STEPS };
#define MOSAIC_CHECK_TERM_DIM(flags) ((flags) & 3u)
#define MOSAIC_CHECK_TERM_BY_WIDTH 4u
#define MOSAIC_CHECK_TERM_BY_LOCAL_SIZE 8u
#define MOSAIC_CHECK_TERM_FOLDED 16u /* steps whose reach each access's folded_bytes holds */
typedef struct mosaic_check_block_term {
    int64_t factor;
    int64_t extent; /* STEPS: how many; else 0 (the launch's) */
    uint32_t kind, flags;
} mosaic_check_block_term;
#define MOSAIC_CHECK_BLOCK_TERMS 12
typedef struct mosaic_check_block {
    uint32_t num_terms;
    uint32_t width;      /* w's parameter index + 1, 0: none */
    int64_t base, base_w;
    uint64_t bytes;      /* the widest access */
    /* the most bytes an access reaches from the least constant through its
     * FOLDED steps (constant factors): where those lie below every
     * work-item's coordinate, the block is the other terms with these bytes */
    uint64_t folded_bytes;
    mosaic_check_block_term term[MOSAIC_CHECK_BLOCK_TERMS];
} mosaic_check_block;

#define MOSAIC_CHECK_READ 0x1u
#define MOSAIC_CHECK_WRITE 0x2u
#define MOSAIC_CHECK_ATOMIC 0x4u
#define MOSAIC_CHECK_SCOPE_SHIFT 4       /* 3 bits: OpenCL's memory_scope of an atomic */
#define MOSAIC_CHECK_SCOPE_WORK_ITEM 0u  /* (the values of clang's __OPENCL_MEMORY_SCOPE_*) */
#define MOSAIC_CHECK_SCOPE_WORK_GROUP 1u
#define MOSAIC_CHECK_SCOPE_DEVICE 2u
#define MOSAIC_CHECK_SCOPE_ALL 3u
#define MOSAIC_CHECK_SCOPE_SUB_GROUP 4u
#define MOSAIC_CHECK_SPACE_SHIFT 8       /* 3 bits: */
#define MOSAIC_CHECK_GLOBAL 0u
#define MOSAIC_CHECK_LOCAL 1u
#define MOSAIC_CHECK_CONSTANT 2u
#define MOSAIC_CHECK_PRIVATE 3u
#define MOSAIC_CHECK_GENERIC 4u          /* the device tells local from global by the address */
#define MOSAIC_CHECK_FROM_SHIFT 16       /* 32 bits: the argument's index, or */
#define MOSAIC_CHECK_FROM_OBJECT 0xfffffffeu
#define MOSAIC_CHECK_FROM_UNKNOWN 0xffffffffu
/* a read through kernel argument i (FROM) where nothing in the program
 * writes through that argument, copies it elsewhere, or writes through a
 * pointer of unknown origin (instrument.c): when no other argument of the
 * launch reaches the same bytes, nothing in the launch writes them, so
 * the read cannot race */
#define MOSAIC_CHECK_ARG_READ_ONLY (1ull << 48)
/* an access through kernel argument i (FROM) where every access through it
 * is at the same element, get_global_id(0), of the same type (instrument.c),
 * and nothing in the program writes through a pointer of unknown origin:
 * in a launch of one dimension whose global ids fit an int, where no other
 * argument reaches the same bytes, no two work-items touch the same bytes
 * through it, so the access cannot race.  With OWN_ROW w + 1 (not 0) the
 * element is y * w + get_global_id(0), w the value of integer argument w
 * and y get_global_id(1), or a row of a loop over rows R * get_global_id(1)
 * to R * get_global_id(1) + R - 1 (the site's own_rows R): the same holds
 * in a launch of two dimensions whose global width is at most w and whose
 * indices fit an int */
#define MOSAIC_CHECK_ARG_OWN_ELEMENT (1ull << 49)
/* an access through kernel argument i (FROM) where every access through it
 * is inside a block of the buffer that its work-item alone reaches, where
 * the launch's sizes make its site's `block` nested (own_blocks.c), and
 * nothing in the program writes through a pointer of unknown origin: where
 * that holds and no other argument reaches the same bytes, it cannot race */
#define MOSAIC_CHECK_ARG_OWN_BLOCK (1ull << 63)
#define MOSAIC_CHECK_OWN_ROW_SHIFT 11    /* 5 bits */
#define MOSAIC_CHECK_OWN_ROW_MAX 31u
#define MOSAIC_CHECK_HOW_OWN_ROW(how) ((unsigned)((how) >> MOSAIC_CHECK_OWN_ROW_SHIFT & 31u))
/* an access of a __local variable or __local argument whose every use is
 * in the kernel itself, where nothing else can point (instrument.c): its
 * window's index + 1 (10 bits, 0: none), the same for every access of
 * that object in the kernel */
#define MOSAIC_CHECK_LOCAL_WINDOW_SHIFT 50
#define MOSAIC_CHECK_HOW_LOCAL_WINDOW(how) ((unsigned)((how) >> MOSAIC_CHECK_LOCAL_WINDOW_SHIFT & 0x3ffu))
/* a read of such an object (LOCAL_WINDOW given) where no write of it can
 * run between the same two work-group barriers (local_objects.c's
 * intervals): the read cannot race, whoever else reads */
#define MOSAIC_CHECK_LOCAL_NO_WRITER (1ull << 60)
/* an access of such an object whose neighbours between the same two
 * barriers, this one included, all reach the object at the work-item's own
 * slot (its site's slot_stride and slot_bytes): where the launch's local
 * size makes the slots of a group's work-items apart, it cannot race */
#define MOSAIC_CHECK_LOCAL_OWN_SLOT (1ull << 61)
/* an atomic access of such an object whose neighbours between the same
 * two barriers, this one included, are all atomics of work-group scope or
 * wider (a histogram's increments): it cannot race, nor break a scope;
 * its window is LOCAL_NO_WRITER's */
#define MOSAIC_CHECK_LOCAL_ATOMICS_ONLY (1ull << 62)
/* A plain store with LOCAL_OWN_SLOT (not a read, not an atomic) whose
 * window (LOCAL_WINDOW - 1) is shut may still need no call: where its
 * bytes are inside window LOCAL_WINDOW - 1 + MOSAIC_CHECK_LOCAL_WINDOWS,
 * the object's *set window*, it only sets their bits of
 * ctx->check_local_written itself.  The device opens that window, the
 * object's bytes, once it knows the group's slots apart: such a store is
 * then inside its bounds and cannot race, and all the checker would do is
 * count its bytes written.  Likewise a plain read with LOCAL_OWN_SLOT
 * inside that window, or with LOCAL_NO_WRITER inside the set window of its
 * own (opened whenever the device knows the object), only tests that its
 * bytes' bits are set: an array whose padding nothing writes never opens
 * its window, but its reads of written bytes need no call. */
#define MOSAIC_CHECK_SET_WINDOW(window) ((window) + MOSAIC_CHECK_LOCAL_WINDOWS)
/* Where a kernel may skip its call of the checker: an access, or a widened
 * row of them, through kernel argument i whose `how` has ARG_READ_ONLY,
 * when all its bytes are inside window 3 * i; with ARG_OWN_ELEMENT (and not
 * ARG_READ_ONLY), inside window 3 * i + 1, or with OWN_ROW, or with
 * ARG_OWN_BLOCK, inside window 3 * i + 2; an access of a __local object
 * with LOCAL_NO_WRITER or LOCAL_OWN_SLOT, inside window LOCAL_WINDOW - 1
 * (from 3 * the kernel's arguments on, 2 per object: the second for
 * OWN_SLOT, below that + MOSAIC_CHECK_LOCAL_WINDOWS).  The device makes a
 * window empty (lo == hi) unless such accesses inside it can neither race,
 * nor read bytes nothing wrote, nor need their writes counted.  A __local
 * object's windows are its group's: they may open at a barrier (every byte
 * of the object written by then), so the code loads them after each
 * barrier; the others stay as the group found them (window 3 * i + 2 may
 * open for the launch's groups from then on, at a call that shows that its
 * accesses cannot race). */
#define MOSAIC_CHECK_ARG_WINDOWS 3
#define MOSAIC_CHECK_LOCAL_WINDOWS 32
typedef struct mosaic_check_window {
    const char *lo, *hi;
} mosaic_check_window;
#define MOSAIC_CHECK_HOW_SCOPE(how) ((unsigned)((how) >> MOSAIC_CHECK_SCOPE_SHIFT & 7u))
#define MOSAIC_CHECK_HOW_SPACE(how) ((unsigned)((how) >> MOSAIC_CHECK_SPACE_SHIFT & 7u))
#define MOSAIC_CHECK_HOW_FROM(how) ((uint32_t)((how) >> MOSAIC_CHECK_FROM_SHIFT))

/* OpenCL C printf.  When the device gives the runtime symbol "__mosaic_printf",
 * every printf call becomes a call to it (src/compiler/frontend/printf.c):
 *   int __mosaic_printf(const char *format, const void *args, const uint32_t *desc, uint32_t nargs)
 * args holds the arguments (after the default argument promotions) one after
 * the other, each at an offset that is a multiple of 8 taking its size
 * (elements * element bytes) rounded up to 8; desc[i] describes argument i.
 * It returns 0, or -1 when the format cannot be applied to the arguments. */
#define MOSAIC_PRINTF_INT 1u     /* integer elements (the format says signed or not) */
#define MOSAIC_PRINTF_FLOAT 2u   /* half, float or double elements */
#define MOSAIC_PRINTF_POINTER 3u /* a pointer (%s, %p) */
#define MOSAIC_PRINTF_DESC(kind, bytes, count) ((kind) | (bytes) << 8 | (count) << 16)
#define MOSAIC_PRINTF_KIND(desc) ((desc)&0xffu)
#define MOSAIC_PRINTF_BYTES(desc) ((desc) >> 8 & 0xffu)
#define MOSAIC_PRINTF_COUNT(desc) ((desc) >> 16 & 0xffu)

/* Images and samplers in kernels (an ABI between the runtime and the
 * builtins, like mosaic_wg_ctx; builtins/builtins.h mirrors it).
 *
 * An image argument is a pointer to a mosaic_image_desc that the runtime
 * fills when the kernel is enqueued (the image's storage address and its
 * layout); builtins/images.cl reads and writes pixels through it.  Pixels
 * are stored row after row, rows slice after slice (or layer after layer),
 * each pixel `pixel_size` bytes in the layout cl_image_format names. */
typedef struct mosaic_image_desc {
    char *data;             /* pixel (0,0,0): of layer 0 for an array image */
    uint64_t width;         /* in pixels */
    uint64_t height;        /* 1 for 1D images (and 1D arrays) */
    uint64_t depth;         /* 1 for everything but 3D images */
    uint64_t array_size;    /* layers of a 1D or 2D array image; 0 otherwise */
    uint64_t row_pitch;     /* bytes from one row to the next */
    uint64_t slice_pitch;   /* bytes from one slice (3D) or layer (arrays) to the next; 0 for 1D and 2D */
    uint32_t image_type;    /* CL_MEM_OBJECT_IMAGE1D ... IMAGE3D */
    uint32_t channel_order; /* cl_image_format.image_channel_order */
    uint32_t channel_data_type; /* cl_image_format.image_channel_data_type */
    uint32_t pixel_size;    /* bytes per pixel */
    uint32_t num_channels;  /* channels stored per pixel (CL_RGBA: 4, CL_INTENSITY: 1, ...) */
    uint32_t reserved[3];   /* 0 */
} mosaic_image_desc;        /* 88 bytes */

/* A sampler argument is this bit set passed as a pointer-sized value (the
 * kernel's `sampler_t`); the encoding is OpenCL C's own CLK_* sampler
 * constants, so samplers declared in kernel source
 * (__translate_sampler_initializer) and cl_sampler objects agree. */
#define MOSAIC_SAMPLER_NORMALIZED_COORDS 0x1u  /* CLK_NORMALIZED_COORDS_TRUE */
#define MOSAIC_SAMPLER_ADDRESS_MASK 0xeu       /* CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2, CLAMP 4, REPEAT 6, MIRRORED_REPEAT 8 */
#define MOSAIC_SAMPLER_FILTER_NEAREST 0x10u    /* CLK_FILTER_NEAREST */
#define MOSAIC_SAMPLER_FILTER_LINEAR 0x20u     /* CLK_FILTER_LINEAR */

typedef enum mosaic_arg_kind {
    MOSAIC_ARG_GLOBAL_PTR,   /* __global T*  : cl_mem or NULL */
    MOSAIC_ARG_CONSTANT_PTR, /* __constant T*: cl_mem or NULL */
    MOSAIC_ARG_LOCAL_PTR,    /* __local T*   : size only */
    MOSAIC_ARG_BY_VALUE,     /* scalar, vector or struct */
    MOSAIC_ARG_SAMPLER,
    MOSAIC_ARG_IMAGE,
    MOSAIC_ARG_PIPE,
} mosaic_arg_kind;

typedef struct mosaic_kernel_arg {
    mosaic_arg_kind kind;
    size_t size;       /* bytes clSetKernelArg must receive (sizeof(cl_mem) for buffers) */
    size_t alignment;  /* of the by-value type */
    cl_kernel_arg_address_qualifier address_qualifier;
    cl_kernel_arg_access_qualifier access_qualifier;
    cl_kernel_arg_type_qualifier type_qualifier;
    char *type_name;   /* e.g. "float4*", "int", "struct S" (kernel_arg_type) */
    char *name;        /* argument name */
} mosaic_kernel_arg;

typedef struct mosaic_kernel_info {
    char *name;
    char *attributes;            /* CL_KERNEL_ATTRIBUTES text, e.g. "reqd_work_group_size(16,16,1)" */
    cl_uint num_args;
    mosaic_kernel_arg *args;
    size_t reqd_work_group_size[3];   /* all 0 when not given */
    size_t work_group_size_hint[3];   /* all 0 when not given */
    size_t static_local_mem_size;     /* bytes of __local variables declared in the kernel */
    size_t private_mem_size;          /* a work-item's private variables: the allocas of K.wi and of
                                         its deepest chain of calls (CL_KERNEL_PRIVATE_MEM_SIZE; what a
                                         fiber's stack holds beyond the calls into the C library) */
    size_t wg_stack_size;             /* the same of K.wg (and K.fused): the stack its frame takes, its
                                         per-work-item storage counted at the most of it that goes on
                                         the stack (0 without K.wg) */
    size_t item_state_size;           /* bytes per work-item K.wg keeps between its regions (values and
                                         private arrays that live across a barrier or a cut); 0: none */
    bool uses_barriers;               /* a work-group barrier is reachable */
    unsigned vectorised_loops;        /* loops over work-items in wg_fn that run as vectors of
                                         work-items (0: one work-item at a time) */
    unsigned widened_lanes;           /* K.wg runs this many work-items of a row at once, K.body
                                         widened whole (src/compiler/vectorize/wfv.c); 0: not widened */
    unsigned widened_rows;            /* and that many rows at once where the group has them
                                         (row_coarsening.c); 1: one */
    bool keeps_item_state;            /* K.wg runs in regions (barriers, or cuts at the kernel's
                                         loops) and keeps per-work-item values between them: its
                                         memory grows with the group */
    bool regroupable;                 /* the kernel cannot observe how an NDRange is split into
                                         work-groups (it reads only global ids and sizes: no local
                                         ids, group ids or sizes, __local memory, barriers, sub-group
                                         or work-group functions, device-side enqueue), and reads no
                                         memory a loop could wait on or take tickets from (atomics,
                                         volatile loads, pipes: a persistent-threads kernel sizes its
                                         groups to the compute units): a device may run a launch in
                                         groups of its own choosing, the global ids unchanged */
    uint64_t counter_args;            /* bit i: argument i (of the first 64) is a __global buffer the
                                         kernel only adds to, with atomic adds or subtracts of 32-bit
                                         integers (64-bit: also in counter_args_wide) whose old values
                                         it never reads: a device may add into a private copy and fold
                                         the copies in at the end (src/compiler/workgroup/counter_args.c) */
    uint64_t counter_args_wide;
    mosaic_wg_fn wg_fn;               /* runs a whole work-group, barriers included (regions.c);
                                         NULL only when a barrier kernel must run as fibers */
    mosaic_wi_fn wi_fn;               /* runs one work-item; always set */
    /* Only in a build for one local size (mosaic_executable_wg_for_size):
     * runs fused_groups whole work-groups of one column at once (group ids
     * (x, y + i, z) for i < fused_groups), given their contexts one after
     * another in memory, each with its own arena (local_mem and wg_scratch),
     * the arenas equally spaced (src/compiler/workgroup/coarsening.c); NULL and 0
     * when the kernel gains nothing from it or it cannot. */
    mosaic_wg_fn fused_fn;
    unsigned fused_groups;            /* at most MOSAIC_MAX_FUSED_GROUPS */
} mosaic_kernel_info;

#define MOSAIC_MAX_FUSED_GROUPS 4

/* What the device tells the compiler about itself. */
typedef struct mosaic_compiler_target {
    const char *triple;          /* clang's -target for the front end; NULL: spir64-unknown-unknown (the CPU's) */
    const char *clang_features;  /* e.g. "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,..." */
    const char *cpu_name;        /* LLVM CPU name for code generation; NULL = host */
    const char *cpu_features;    /* LLVM feature string; NULL = host */
    /* runtime functions generated code may call, resolved by name in the JIT */
    const struct mosaic_runtime_symbol { const char *name; void *address; } *runtime_symbols;
    size_t num_runtime_symbols;
    /* What a program's variables of program scope (and static ones in
     * functions) may take, as the device reports it; 0: no limit.  A build
     * whose variables exceed one fails with CL_BUILD_PROGRAM_FAILURE, before
     * any code is made of it (mosaic_finalize):
     *   max_global_variable_size   each __global variable (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)
     *   max_global_variables_total all __global variables together
     *   max_constant_variables     all __constant variables together (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) */
    size_t max_global_variable_size, max_global_variables_total, max_constant_variables;
} mosaic_compiler_target;

/* Does the device give generated code the runtime symbol `name` (a
 * feature it runs, such as checking mode's "__mosaic_check_access")?
 * (ir/util.c) */
bool mosaic_target_has_symbol(const mosaic_compiler_target *target, const char *name);

typedef struct mosaic_header { const char *include_name; const char *source; } mosaic_header;

/* A bitcode blob with what kind of program binary it is. Owned: free with mosaic_bitcode_free. */
typedef struct mosaic_bitcode {
    cl_program_binary_type type; /* COMPILED_OBJECT, LIBRARY or EXECUTABLE */
    void *data;
    size_t size;
} mosaic_bitcode;

/* An executable: JIT'd code for every kernel in the program. */
typedef struct mosaic_executable mosaic_executable;

/* Every function returns CL_SUCCESS or the OpenCL error clBuildProgram /
 * clCompileProgram / clLinkProgram must return (CL_BUILD_PROGRAM_FAILURE,
 * CL_COMPILE_PROGRAM_FAILURE, CL_LINK_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS,
 * CL_INVALID_COMPILER_OPTIONS, CL_INVALID_LINKER_OPTIONS, CL_INVALID_BINARY,
 * CL_OUT_OF_HOST_MEMORY).  *log always receives a malloc'd, NUL-terminated
 * log (possibly empty) that the caller frees; diagnostics name the user's
 * source lines.  All functions are safe to call from several threads at once. */
cl_int mosaic_compile_source(const mosaic_compiler_target *target,
                             const char *source, const char *options,
                             size_t num_headers, const mosaic_header *headers,
                             mosaic_bitcode *out, char **log);

/* ---- SPIR-V programs (spirv.c, docs/spirv.md) -------------------------------------
 * clCreateProgramWithIL takes SPIR-V 1.0 to 1.MOSAIC_SPIRV_MAX_MINOR, what
 * Debian's translator, llvm-spirv-15, reads; what it aborts on (OpPtrEqual,
 * OpPtrDiff, OpCopyLogical, OpDecorateString, OpCopyMemory...) is rewritten
 * first (frontend/spirv_lower.c).  A specialization constant of a module:
 * its SpecId, its size in bytes (1 for a boolean) and the value the
 * application set (little-endian bytes of `size`), if it set one. */
#define MOSAIC_SPIRV_MAX_MINOR 4
typedef struct mosaic_spec_constant {
    uint32_t id;
    uint32_t size;
    bool set;
    uint64_t value;
} mosaic_spec_constant;

/* Checks that il is a SPIR-V module Mosaic can build (its header, then
 * spirv-val in a child process) and lists its specialization constants
 * (*specs malloc'd, NULL when none): CL_SUCCESS, or CL_INVALID_VALUE with
 * why in *log (when log is not NULL; the caller frees it). */
cl_int mosaic_spirv_check(const void *il, size_t size, mosaic_spec_constant **specs, size_t *num_specs, char **log);

/* What the target takes in SPIR-V (OpenCL 3.1's CL_DEVICE_SPIRV_CAPABILITIES,
 * _EXTENSIONS and _EXTENDED_INSTRUCTION_SETS; frontend/spirv_support.c):
 * the count, the first max written to out (out may be NULL); the names are
 * static strings.  mosaic_compile_spirv refuses a module that declares
 * anything else. */
size_t mosaic_spirv_capabilities(const mosaic_compiler_target *target, uint32_t *out, size_t max);
size_t mosaic_spirv_extensions(const mosaic_compiler_target *target, const char **out, size_t max);
size_t mosaic_spirv_extended_instruction_sets(const mosaic_compiler_target *target, const char **out, size_t max);

/* SPIR-V (checked by mosaic_spirv_check) -> a COMPILED_OBJECT blob, like
 * mosaic_compile_source: the specialization constants set are applied, then
 * llvm-spirv-15 translates the module to bitcode (CL_COMPILE_PROGRAM_FAILURE
 * when it cannot). */
cl_int mosaic_compile_spirv(const mosaic_compiler_target *target, const void *il, size_t size, const char *options,
                            size_t num_specs, const mosaic_spec_constant *specs, mosaic_bitcode *out, char **log);

/* create_library: -create-library given, produce a LIBRARY, else an EXECUTABLE binary */
cl_int mosaic_link_bitcode(const mosaic_compiler_target *target,
                           size_t count, const mosaic_bitcode *inputs,
                           const char *options, bool create_library,
                           mosaic_bitcode *out, char **log);

/* Checks that a blob handed to clCreateProgramWithBinary is one of ours,
 * undamaged (its checksum) and readable without harm (bitcode parsed and
 * verified in a child process first), and, with a target, built for that
 * target's architecture: CL_SUCCESS, or CL_INVALID_BINARY (or
 * CL_OUT_OF_HOST_MEMORY) and why in *log (when log is not NULL; the caller
 * frees it). */
cl_int mosaic_bitcode_validate(const mosaic_compiler_target *target, const void *data, size_t size,
                               cl_program_binary_type *type, char **log);

cl_int mosaic_finalize(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                       const char *options, mosaic_executable **out, char **log);

size_t mosaic_executable_num_kernels(const mosaic_executable *exe);
const mosaic_kernel_info *mosaic_executable_kernel(const mosaic_executable *exe, size_t index);
const mosaic_kernel_info *mosaic_executable_find_kernel(const mosaic_executable *exe, const char *name);
/* Device-side enqueue: the kernel clang made of a block passed to
 * enqueue_kernel (or get_kernel_*) is not one of the program's kernels
 * above; where the code passes its address it passes a handle, this small
 * integer, which this function turns into the kernel (NULL if it is none). */
#define MOSAIC_BLOCK_HANDLE(i) ((uint64_t)(i) + 1)
const mosaic_kernel_info *mosaic_executable_block_kernel(const mosaic_executable *exe, uint64_t handle);
size_t mosaic_executable_global_variables_size(const mosaic_executable *exe);
/* Kernel `kernel` (one of exe's) built again for work-groups of exactly
 * local_size: the group's size is a constant in that K.wg, so its loops
 * over work-items, and loops counted with get_local_size, have constant
 * trip counts.  Only for kernels with barriers run as regions, in programs
 * without program-scope variables or block kernels, with at most 64 KiB of
 * private memory whose work-items keep at most 2 MiB a group between
 * regions, at most 4 sizes a kernel.  The build starts at the `after`-th
 * request for the size (0: never), on a thread of its own, or on the
 * calling thread when `wait` (which also waits for a build of the size
 * begun before), and stays with exe (and in the kernel cache).
 * Before it ends, and when it failed: NULL (run kernel->wg_fn); releasing
 * exe meanwhile does not wait for it.  What it returns may run only groups whose local size and enqueued local
 * size are both local_size: `whole` one group, `fused` (when not NULL)
 * fused_groups groups of one column (mosaic_kernel_info's fused_fn).
 * Until the build is ready (and unless it failed), `pending` names it:
 * mosaic_sized_wg_whole then gives its `whole` as soon as it is ready, so a
 * long launch takes it for the groups it has not begun, and
 * mosaic_sized_wg_hurry starts it before the `after`-th request (the
 * executable, which a launch holds through its kernel, keeps it).
 * Thread-safe. */
typedef struct mosaic_sized_wg {
    mosaic_wg_fn whole;
    mosaic_wg_fn fused;
    unsigned fused_groups;
    const void *pending;
} mosaic_sized_wg;
/* s->whole, or the whole of the build s->pending once it is ready; NULL
 * until then. */
mosaic_wg_fn mosaic_sized_wg_whole(const mosaic_sized_wg *s);
/* Starts the build s->pending names now, on a thread of its own, if it has
 * not started: for a launch that finds the general K.wg slow. */
void mosaic_sized_wg_hurry(const mosaic_sized_wg *s, const char *kernel_name);
mosaic_sized_wg mosaic_executable_wg_for_size(mosaic_executable *exe, const mosaic_kernel_info *kernel,
                                              const size_t local_size[3], unsigned after, bool wait);
void mosaic_executable_free(mosaic_executable *exe);
void mosaic_bitcode_free(mosaic_bitcode *bc);
/* An executable whose code is elsewhere (a remote device's: its server
 * holds it), made of its kernels' table alone, which it takes: each
 * entry's strings and arguments malloc'd, freed with it (wg_fn, wi_fn NULL). */
mosaic_executable *mosaic_executable_of_table(mosaic_kernel_info *kernels, size_t num_kernels);

/* ---- The GPU (NVIDIA, PTX; src/compiler/gpu/ptx.c, docs/compiler.md) ---------
 * Its programs are compiled and linked as the CPU's, for target->triple
 * "nvptx64-unknown-nvidiacl"; their built-ins are libclc's, linked in here,
 * and Mosaic's own work-item functions (builtins/nvptx/workitem.cl), which
 * read what the GPU's registers cannot say from this struct.
 *
 * What the GPU's own work-item functions read, per launch: the device writes it into the module's
 * global MOSAIC_GPU_LAUNCH_SYMBOL (cuModuleGetGlobal + a copy on the launch's stream) before each launch.
 * A launch runs blocks of exactly local_size work-items (a partial last group is its own launch, so its
 * block is smaller); get_group_id(d) = group_base[d] + ctaid.d.  The global is in the PTX only where a
 * kernel reads it (none: the device writes nothing).  Dimensions at or above work_dim must hold sizes
 * and num_groups 1, offsets and group_base 0, as mosaic_wg_ctx's.  The builtins' OpenCL C mirror
 * (builtins/nvptx/workitem.cl) keeps this layout: 128 bytes. */
#define MOSAIC_GPU_LAUNCH_SYMBOL "__mosaic_launch"
typedef struct mosaic_gpu_launch {
    uint64_t global_offset[3];
    uint64_t global_size[3];
    uint64_t enqueued_local_size[3];
    uint64_t num_groups[3];
    uint64_t group_base[3];
    uint32_t work_dim;
    uint32_t reserved;
} mosaic_gpu_launch;

/* OpenCL C's printf on the GPU: __mosaic_printf (builtins/nvptx/printf.cl) appends a record to the buffer
 * at `data` (capacity bytes), reserving its bytes by adding them to `used` atomically; a record that does
 * not fit is not written (that printf returns -1), though `used` grows.  The device finds the module's
 * global MOSAIC_GPU_PRINTF_SYMBOL (present where a kernel calls printf), points it at a buffer, and after
 * each launch formats the records below min(used, capacity) and sets `used` to 0.  A record, 8-aligned:
 * the format's address (uint64), nargs (uint32), the record's bytes (uint32), desc[nargs] (uint32 each,
 * then padding to 8), then the arguments as the compiler packed them.  The mirror in printf.cl keeps
 * this layout: 16 bytes. */
#define MOSAIC_GPU_PRINTF_SYMBOL "__mosaic_printf_area"
typedef struct mosaic_gpu_printf_area {
    uint64_t data;
    uint32_t capacity;
    uint32_t used;
} mosaic_gpu_printf_area;

/* An executable for the GPU: the kernels' table (mosaic_executable_kernel etc. answer as for the CPU) and
 * their PTX for compute capability `sm` ("sm_90"); the device loads it with the driver's JIT. Same errors
 * as mosaic_finalize (and CL_COMPILER_NOT_AVAILABLE where Mosaic was built without libclc's NVPTX
 * library).  The table's wg_fn and wi_fn are NULL (the kernels are the PTX's entries of the same names),
 * a __local argument is a 32-bit byte offset into the block's dynamic shared memory in the PTX (the
 * launch gives the total), and mosaic_executable_wg_for_size has nothing for it. */
cl_int mosaic_finalize_ptx(const mosaic_compiler_target *target, const mosaic_bitcode *executable,
                           const char *options, const char *sm, mosaic_executable **out, char **log);
/* The PTX text of an executable mosaic_finalize_ptx made (NUL-terminated; *size without the NUL), NULL for
 * a CPU one. */
const char *mosaic_executable_ptx(const mosaic_executable *exe, size_t *size);
/* What a device keeps with an executable (the GPU's module, loaded from the PTX): release(data) runs
 * when the executable is freed.  Attach once, before the executable is shared; attached gives data back
 * (NULL: none). */
void mosaic_executable_attach(mosaic_executable *exe, void *data, void (*release)(void *data));
void *mosaic_executable_attached(const mosaic_executable *exe);

#endif
