/*
 * Calls between the program's functions at finalize: which are inlined, and
 * what the others are passed.
 *
 * Inlining every function into its kernel before optimising made a call
 * graph that fans out explode (f5 calling f4 four times, and so on, is 4^5
 * copies of f0 to optimise).  So only what must be inlined is:
 *   - builtins (small, bounded, and what vectorised loops are made of),
 *   - kernels called by other kernels,
 *   - a function that (transitively) calls a barrier or a sub-group
 *     function, uses a static __local variable or may wait for another
 *     work-item (spin_loops.c): the kernel must see these, because its
 *     work-group function is cut at barriers and its loops over work-items
 *     are built around them;
 * the program's other functions are optimised bottom up, callees first, and
 * LLVM's inliner inlines them where its cost model says it pays (the usual
 * threshold): small helpers still vanish into the work-item loop, large
 * ones stay calls.  A function left as a call that (transitively) reads the
 * work-item context (__mosaic_get_ctx, __mosaic_get_local_id: get_global_id
 * and the others) gets it as four more parameters, (ctx, lx, ly, lz), that
 * its callers pass on; in the kernel they become K.body's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "base/assert.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/calls.h"
#include "compiler/workgroup/passes.h"
#include "compiler/workgroup/workgroup.h"

#define PROGRAM_ATTR "mosaic-program"

/* ---- the call graph of the defined functions ------------------------------------------- */
/* Everything below walks the functions in the module's order, never in the
 * order of their addresses, so that what it adds to the module (the .ctx
 * copies of mc_pass_context) comes in the same order in every run. */
typedef struct call_graph {
    size_t n;
    LLVMValueRef *fns;    /* in the module's order */
    pmap index;           /* fns[i] -> i */
    size_t *first, *edge; /* callees of fns[i]: edge[first[i] .. first[i+1]) (indices into fns) */
    size_t *post;         /* the functions, callees before their callers (when acyclic) */
} call_graph;

static long graph_index(const call_graph *g, LLVMValueRef f)
{
    return f ? pmap_get(&g->index, f) : -1;
}

static LLVMValueRef direct_callee(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return NULL;
    LLVMValueRef f = LLVMGetCalledValue(inst);
    return f && LLVMIsAFunction(f) ? f : NULL;
}

static void graph_free(call_graph *g)
{
    free(g->fns), free(g->first), free(g->edge), free(g->post);
    pmap_free(&g->index);
    memset(g, 0, sizeof *g);
}

/* Depth-first order of the graph: post-order in g->post; false (with the
 * caller and callee of an edge that closes a cycle) when it has a cycle. */
static bool graph_order(call_graph *g, size_t *cycle_from, size_t *cycle_to)
{
    unsigned char *state = calloc(g->n ? g->n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack = calloc(g->n ? g->n : 1, sizeof *stack), *next = calloc(g->n ? g->n : 1, sizeof *next);
    size_t np = 0;
    bool ok = state && stack && next;
    for (size_t root = 0; ok && root < g->n; root++) {
        if (state[root])
            continue;
        size_t top = 0;
        stack[top++] = root;
        state[root] = 1;
        next[root] = g->first[root];
        while (top && ok) {
            size_t v = stack[top - 1];
            if (next[v] == g->first[v + 1]) {
                state[v] = 2;
                g->post[np++] = v;
                top--;
                continue;
            }
            size_t w = g->edge[next[v]++];
            if (state[w] == 1) {
                *cycle_from = v;
                *cycle_to = w;
                ok = false;
            } else if (!state[w]) {
                state[w] = 1;
                next[w] = g->first[w];
                stack[top++] = w;
            }
        }
    }
    free(state), free(stack), free(next);
    return ok;
}

/* The defined functions and who calls whom (calls of a function with
 * several uses in one caller count once per call). */
static cl_int graph_build(LLVMModuleRef m, call_graph *g, mosaic_strbuf *log)
{
    memset(g, 0, sizeof *g);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        g->n += !LLVMIsDeclaration(f);
    size_t ne = 0;
    g->fns = calloc(g->n + 1, sizeof *g->fns);
    g->first = calloc(g->n + 2, sizeof *g->first);
    g->post = calloc(g->n + 1, sizeof *g->post);
    if (!g->fns || !g->first || !g->post || !pmap_init(&g->index, g->n))
        return graph_free(g), mc_out_of_memory(log);
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            pmap_put(&g->index, f, (int)i);
            g->fns[i++] = f;
        }
    for (int pass = 0; pass < 2; pass++) {
        ne = 0;
        for (i = 0; i < g->n; i++) {
            g->first[i] = ne;
            for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fns[i]); bb; bb = LLVMGetNextBasicBlock(bb))
                for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                    long k = graph_index(g, direct_callee(in));
                    if (k >= 0 && pass)
                        g->edge[ne] = (size_t)k;
                    ne += k >= 0;
                }
        }
        g->first[g->n] = ne;
        if (!pass && !(g->edge = calloc(ne + 1, sizeof *g->edge)))
            return graph_free(g), mc_out_of_memory(log);
    }
    return CL_SUCCESS;
}

/* ---- before inlining: attributes, recursion -------------------------------------------- */
void mc_mark_program_functions(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(c, PROGRAM_ATTR, sizeof PROGRAM_ATTR - 1, "", 0));
}

static bool is_program_function(LLVMValueRef f)
{
    return LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, PROGRAM_ATTR, sizeof PROGRAM_ATTR - 1);
}

static bool in_list(LLVMValueRef f, LLVMValueRef *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == f)
            return true;
    return false;
}

static void remove_fn_attr(LLVMValueRef f, const char *name)
{
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                   LLVMGetEnumAttributeKindForName(name, strlen(name)));
}

static void add_fn_attr(LLVMValueRef f, const char *name)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName(name, strlen(name)), 0));
}

/* f and the calls of it are not convergent: it has no barrier (clang makes
 * every OpenCL function convergent, and a loop with a convergent call is
 * never unswitched). */
static void drop_convergent(LLVMValueRef f)
{
    unsigned convergent = LLVMGetEnumAttributeKindForName("convergent", 10);
    remove_fn_attr(f, "convergent");
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (LLVMIsACallInst(LLVMGetUser(u)))
            LLVMRemoveCallSiteEnumAttribute(LLVMGetUser(u), LLVMAttributeFunctionIndex, convergent);
}

cl_int mc_prepare_calls(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, mosaic_strbuf *log)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        /* clang asks SPIR functions to keep frame pointers; the host needs none */
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "frame-pointer", 13);
        bool kernel = in_list(f, kernels, nk);
        if (!kernel)
            LLVMSetLinkage(f, LLVMInternalLinkage);
        if (mc_is_outlined_builtin(f)) {
            drop_convergent(f); /* the image functions' rare paths: no barrier */
            continue;
        }
        /* -O0 marks (bitcode or SPIR-V compiled elsewhere without optimisation;
         * frontend.c no longer gives them); finalize decides that itself */
        if (LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMGetEnumAttributeKindForName("optnone", 7))) {
            remove_fn_attr(f, "optnone");
            remove_fn_attr(f, "noinline");
        }
        if (kernel || !is_program_function(f)) {
            remove_fn_attr(f, "noinline");
            add_fn_attr(f, "alwaysinline");
        }
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, PROGRAM_ATTR, sizeof PROGRAM_ATTR - 1);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);

    /* OpenCL C has no recursion; the inliner must not meet any */
    call_graph g;
    cl_int r = graph_build(m, &g, log);
    size_t from, to;
    if (r == CL_SUCCESS && !graph_order(&g, &from, &to)) {
        char caller[256], callee[256];
        mc_source_name(LLVMGetValueName(g.fns[from]), caller, sizeof caller);
        mc_source_name(LLVMGetValueName(g.fns[to]), callee, sizeof callee);
        mosaic_strbuf_printf(log, "error: '%s' calls '%s', which calls '%s' again (recursion), which OpenCL C does "
                                  "not allow\n", caller, callee, caller);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    graph_free(&g);
    return r;
}

/* ---- what must be inlined ---------------------------------------------------------------- */
static bool named(LLVMValueRef f, const char *name)
{
    return f && !strcmp(LLVMGetValueName(f), name);
}

static bool refs_local_var(LLVMValueRef v, int depth)
{
    if (LLVMIsAGlobalVariable(v))
        return LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3;
    if (depth > 16 || !LLVMIsAConstantExpr(v))
        return false;
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
        if (refs_local_var(LLVMGetOperand(v, i), depth + 1))
            return true;
    return false;
}

/* Does f itself do something only a kernel's own code may (see the top)? */
static bool needs_kernel(LLVMValueRef f, bool spin_matters)
{
    if (spin_matters && mc_may_spin(f))
        return true;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef callee = direct_callee(in);
            if (named(callee, "__mosaic_barrier") || named(callee, "__mosaic_sub_group_barrier") ||
                named(callee, "__mosaic_sub_group_active") || named(callee, "__mosaic_get_sub_group_first"))
                return true;
            int n = LLVMGetNumOperands(in);
            for (int i = 0; i < n; i++) {
                LLVMValueRef o = LLVMGetOperand(in, i);
                if (LLVMIsAConstant(o) && refs_local_var(o, 0))
                    return true;
            }
        }
    return false;
}

/* ---- called once, copied many times --------------------------------------------------
 * LLVM's inliner gives a function with one call site (and local linkage) a
 * large bonus: inlining it only moves it.  But when its caller is called
 * from many places, the caller, now large, stays a call from all of them,
 * and the small code around the call is what loses: sha512crypt's
 * compression (called once, from the function adding one byte to the
 * buffer) inlined into that function kept every byte of every update a call
 * (1.6 times PoCL's run time).  So a function called once from a function
 * that runs from several places (counted over the call graph, kernels 1)
 * keeps external linkage while the inliner runs, which takes the bonus
 * away: the usual cost model decides, and mc_end_inlining makes it internal
 * again. */
#define SHARED_ONCE_ATTR "mosaic-called-once-shared"

static size_t saturating_add(size_t a, size_t b) { return a + b < a ? (size_t)-1 : a + b; }

/* copies[i]: how many times fns[i] would be copied were everything inlined. */
static void count_copies(const call_graph *g, LLVMValueRef *kernels, size_t nk, size_t *copies)
{
    for (size_t i = 0; i < g->n; i++)
        copies[i] = in_list(g->fns[i], kernels, nk);
    for (size_t p = g->n; p-- > 0;) { /* callers first */
        size_t i = g->post[p];
        for (size_t e = g->first[i]; e < g->first[i + 1]; e++)
            copies[g->edge[e]] = saturating_add(copies[g->edge[e]], copies[i]);
    }
}

/* Is f's only use one call of it? */
static bool called_once(LLVMValueRef f)
{
    LLVMUseRef u = LLVMGetFirstUse(f);
    return u && !LLVMGetNextUse(u) && direct_callee(LLVMGetUser(u)) == f;
}

static void unshare_once_called(const call_graph *g, const unsigned char *must, const size_t *copies)
{
    for (size_t i = 0; i < g->n; i++) {
        LLVMValueRef f = g->fns[i];
        if (must[i] || mc_is_outlined_builtin(f) || !called_once(f) || LLVMGetLinkage(f) != LLVMInternalLinkage)
            continue;
        long caller = graph_index(g, LLVMGetBasicBlockParent(LLVMGetInstructionParent(LLVMGetUser(LLVMGetFirstUse(f)))));
        if (caller < 0 || copies[caller] < 2)
            continue;
        LLVMSetLinkage(f, LLVMExternalLinkage);
        LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(c, SHARED_ONCE_ATTR, sizeof SHARED_ONCE_ATTR - 1, "", 0));
    }
}

void mc_end_inlining(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SHARED_ONCE_ATTR,
                                          sizeof SHARED_ONCE_ATTR - 1)) {
            LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, SHARED_ONCE_ATTR,
                                             sizeof SHARED_ONCE_ATTR - 1);
            LLVMSetLinkage(f, LLVMInternalLinkage);
        }
}

cl_int mc_mark_must_inline(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, bool spin_matters, bool *any_must,
                           bool *any_left, mosaic_strbuf *log)
{
    call_graph g;
    size_t from, to;
    cl_int r = graph_build(m, &g, log);
    if (r != CL_SUCCESS)
        return r;
    unsigned char *must = calloc(g.n + 1, 1);
    if (!must || !graph_order(&g, &from, &to)) {
        graph_free(&g);
        free(must);
        return must ? CL_SUCCESS : mc_out_of_memory(log); /* (acyclic: checked before) */
    }
    *any_must = *any_left = false;
    for (size_t p = 0; p < g.n; p++) { /* callees first */
        size_t i = g.post[p];
        LLVMValueRef f = g.fns[i];
        if (in_list(f, kernels, nk) || mc_is_outlined_builtin(f))
            continue;
        must[i] = needs_kernel(f, spin_matters);
        for (size_t e = g.first[i]; e < g.first[i + 1] && !must[i]; e++)
            must[i] = must[g.edge[e]];
        if (must[i]) {
            *any_must = true;
            remove_fn_attr(f, "noinline");
            add_fn_attr(f, "alwaysinline");
        } else if (LLVMGetFirstUse(f)) {
            drop_convergent(f);
            *any_left = true;
        } else {
            *any_must = true; /* nothing calls it: globaldce must still run */
        }
    }
    size_t *copies = calloc(g.n + 1, sizeof *copies);
    if (copies) { /* (without memory for it, only the inliner's bonus stays) */
        count_copies(&g, kernels, nk, copies);
        unshare_once_called(&g, must, copies);
    }
    free(copies);
    graph_free(&g);
    free(must);
    return CL_SUCCESS;
}

/* ---- kernels that cannot observe their work-groups ----------------------------------- */
/* Builtins whose answers do not depend on how the NDRange is split into
 * work-groups.  Their code reads the group's id and size (get_global_id is
 * group_id * enqueued_local_size + local id + offset), but what it returns
 * is the same for every split, so the walk does not look into them. */
static const char *const split_free_builtins[] = {"get_global_id", "get_global_size", "get_global_offset",
                                                  "get_work_dim", "get_global_linear_id"};

/* What the builtin library reaches a work-group through (builtins/builtins.h):
 * the context (the group's sizes and ids, its __local arena and scratch, the
 * device's state for enqueue), the local ids, barriers and sub-groups. */
static const char *const group_magic[] = {"__mosaic_get_ctx",           "__mosaic_get_local_id",
                                          "__mosaic_get_sub_group_first", "__mosaic_barrier",
                                          "__mosaic_sub_group_barrier",   "__mosaic_sub_group_active"};

static bool named_in(LLVMValueRef f, const char *const *names, size_t n, bool source_name)
{
    char name[64];
    if (source_name)
        mc_source_name(LLVMGetValueName(f), name, sizeof name);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(source_name ? name : LLVMGetValueName(f), names[i]))
            return true;
    return false;
}

static bool is_local_pointer(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 3;
}

/* Does f use __local memory: a parameter, value or operand that points
 * there, or a static __local variable? */
static bool uses_local_memory(LLVMValueRef f)
{
    for (LLVMValueRef p = LLVMGetFirstParam(f); p; p = LLVMGetNextParam(p))
        if (is_local_pointer(LLVMTypeOf(p)))
            return true;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (is_local_pointer(LLVMTypeOf(in)))
                return true;
            int n = LLVMGetNumOperands(in);
            for (int i = 0; i < n; i++) {
                LLVMValueRef o = LLVMGetOperand(in, i);
                if (is_local_pointer(LLVMTypeOf(o)) || (LLVMIsAConstant(o) && refs_local_var(o, 0)))
                    return true;
            }
        }
    return false;
}

/* Why f itself may observe its work-group (`via`: the builtin the program
 * called to get here, NULL in the program's own code), into why; false
 * when it cannot. */
static bool observes_group(LLVMValueRef f, LLVMValueRef via, char *why, size_t size)
{
    char name[64];
    if (LLVMIsDeclaration(f)) {
        if (!named_in(f, group_magic, sizeof group_magic / sizeof *group_magic, false))
            return false;
        mc_source_name(LLVMGetValueName(via ? via : f), name, sizeof name);
        snprintf(why, size, "it calls %s", name);
        return true;
    }
    if (uses_local_memory(f)) {
        snprintf(why, size, "it uses __local memory");
        return true;
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMIsACallInst(in) && !direct_callee(in)) {
                snprintf(why, size, "it makes a call the compiler cannot follow");
                return true;
            }
    return false;
}

bool mc_observes_groups(LLVMValueRef kernel, char *why, size_t size)
{
    MOSAIC_ASSERT(size > 0);
    LLVMModuleRef m = LLVMGetGlobalParent(kernel);
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n++;
    /* a depth-first walk over the functions the kernel reaches: each with
     * the builtin the program called to get there (NULL in its own code) */
    LLVMValueRef *stack = calloc(2 * n + 2, sizeof *stack);
    pmap seen = {0};
    if (!stack || !pmap_init(&seen, n)) {
        free(stack), pmap_free(&seen);
        snprintf(why, size, "out of memory"); /* (it keeps its groups) */
        return true;
    }
    size_t top = 0;
    stack[top++] = kernel, stack[top++] = NULL;
    pmap_put(&seen, kernel, 0);
    bool observes = false;
    while (top && !observes) {
        LLVMValueRef via = stack[--top], f = stack[--top];
        observes = observes_group(f, via, why, size);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !observes; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef callee = direct_callee(in);
                if (!callee || pmap_get(&seen, callee) >= 0)
                    continue;
                bool builtin = !is_program_function(callee) && !LLVMIsDeclaration(callee);
                if (builtin && named_in(callee, split_free_builtins,
                                        sizeof split_free_builtins / sizeof *split_free_builtins, true))
                    continue;
                pmap_put(&seen, callee, 0);
                stack[top++] = callee;
                stack[top++] = via || !builtin ? via : callee;
            }
    }
    free(stack), pmap_free(&seen);
    if (!observes)
        why[0] = 0;
    return observes;
}

/* ---- the work-item context, passed on -------------------------------------------------- */
typedef struct ctx_env {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTypeRef ptr, i64;
    LLVMValueRef get_ctx, get_lid; /* the magic declarations (builtins/builtins.h) */
    unsigned invariant_kind;
} ctx_env;

static LLVMValueRef magic_decl(ctx_env *e, const char *name, LLVMTypeRef ty)
{
    LLVMValueRef f = LLVMGetNamedFunction(e->m, name);
    return f ? f : LLVMAddFunction(e->m, name, ty);
}

static void mark_invariant_loads(ctx_env *e, LLVMValueRef v, int depth)
{
    if (depth > 8)
        return;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            LLVMSetMetadata(user, e->invariant_kind, LLVMMetadataAsValue(e->c, LLVMMDNodeInContext2(e->c, NULL, 0)));
        else if (LLVMIsAGetElementPtrInst(user) || LLVMIsAAddrSpaceCastInst(user) || LLVMIsABitCastInst(user))
            mark_invariant_loads(e, user, depth + 1);
    }
}

/* In function f (not a kernel), the magic calls become f's last four
 * parameters (when it has them) and __mosaic_image(x) becomes x. */
static void replace_magic(ctx_env *e, LLVMBuilderRef b, LLVMValueRef f, bool has_ctx)
{
    unsigned n = LLVMCountParams(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef in = LLVMGetFirstInstruction(bb), next;
        for (; in; in = next) {
            next = LLVMGetNextInstruction(in);
            LLVMValueRef callee = direct_callee(in), v = NULL;
            if (named(callee, "__mosaic_image")) {
                v = LLVMGetOperand(in, 0);
                mark_invariant_loads(e, in, 0);
            } else if (has_ctx && callee == e->get_ctx) {
                LLVMPositionBuilderBefore(b, in);
                v = LLVMGetParam(f, n - 4);
                if (LLVMTypeOf(v) != LLVMTypeOf(in))
                    v = LLVMBuildAddrSpaceCast(b, v, LLVMTypeOf(in), "");
                mark_invariant_loads(e, in, 0);
            } else if (has_ctx && callee == e->get_lid) {
                LLVMPositionBuilderBefore(b, in);
                LLVMValueRef d = LLVMGetOperand(in, 0);
                if (LLVMIsAConstantInt(d)) {
                    unsigned long long k = LLVMConstIntGetZExtValue(d);
                    v = k < 3 ? LLVMGetParam(f, n - 3 + (unsigned)k) : LLVMConstInt(e->i64, 0, 0);
                } else {
                    v = LLVMConstInt(e->i64, 0, 0);
                    for (int k = 2; k >= 0; k--) {
                        LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstInt(LLVMTypeOf(d), (unsigned)k, 0), "");
                        v = LLVMBuildSelect(b, is, LLVMGetParam(f, n - 3 + (unsigned)k), v, "");
                    }
                }
                if (LLVMTypeOf(v) != LLVMTypeOf(in))
                    v = LLVMBuildIntCast2(b, v, LLVMTypeOf(in), 0, "");
            }
            if (v) {
                LLVMReplaceAllUsesWith(in, v);
                LLVMInstructionEraseFromParent(in);
            }
        }
    }
}

/* The attributes of from at idx onto to: functions, or call sites when calls. */
static void copy_attributes(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx, bool calls)
{
    unsigned n = calls ? LLVMGetCallSiteAttributeCount(from, idx) : LLVMGetAttributeCountAtIndex(from, idx);
    LLVMAttributeRef *a = n ? malloc(n * sizeof *a) : NULL;
    if (!a)
        return;
    if (calls)
        LLVMGetCallSiteAttributes(from, idx, a);
    else
        LLVMGetAttributesAtIndex(from, idx, a);
    for (unsigned i = 0; i < n; i++) {
        if (calls)
            LLVMAddCallSiteAttribute(to, idx, a[i]);
        else
            LLVMAddAttributeAtIndex(to, idx, a[i]);
    }
    free(a);
}

/* f(params...) becomes f.ctx(params..., ctx, lx, ly, lz): f's blocks, moved. */
static LLVMValueRef with_context(ctx_env *e, LLVMValueRef f)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    unsigned n = LLVMCountParamTypes(fty);
    LLVMTypeRef *params = calloc(n + 4, sizeof *params);
    if (!params)
        return NULL;
    LLVMGetParamTypes(fty, params);
    params[n] = e->ptr;
    params[n + 1] = params[n + 2] = params[n + 3] = e->i64;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    char *nname = malloc(len + 5);
    if (!nname) {
        free(params);
        return NULL;
    }
    memcpy(nname, name, len);
    memcpy(nname + len, ".ctx", 5);
    LLVMValueRef nf = LLVMAddFunction(e->m, nname, LLVMFunctionType(LLVMGetReturnType(fty), params, n + 4, 0));
    free(nname);
    free(params);
    LLVMSetLinkage(nf, LLVMInternalLinkage);
    LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(f));
    copy_attributes(f, nf, LLVMAttributeFunctionIndex, false);
    copy_attributes(f, nf, LLVMAttributeReturnIndex, false);
    for (unsigned i = 0; i < n; i++)
        copy_attributes(f, nf, i + 1, false);
    LLVMMetadataRef sp = LLVMGetSubprogram(f);
    if (sp)
        LLVMSetSubprogram(nf, sp); /* f is deleted once its calls are nf's */
    LLVMBasicBlockRef bb;
    while ((bb = LLVMGetFirstBasicBlock(f))) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(nf, bb);
    }
    static const char *const names[4] = {"ctx", "lx", "ly", "lz"};
    for (unsigned i = 0; i < 4; i++)
        LLVMSetValueName2(LLVMGetParam(nf, n + i), names[i], strlen(names[i]));
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef p = LLVMGetParam(f, i), q = LLVMGetParam(nf, i);
        const char *pname = LLVMGetValueName2(p, &len);
        LLVMSetValueName2(q, pname, len);
        LLVMReplaceAllUsesWith(p, q);
    }
    return nf;
}

/* The call `call` of f becomes one of nf, with the caller's context. */
static void retarget_call(ctx_env *e, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef nf)
{
    unsigned n = LLVMGetNumArgOperands(call);
    LLVMValueRef *args = calloc(n + 4, sizeof *args);
    if (!args)
        return;
    for (unsigned i = 0; i < n; i++)
        args[i] = LLVMGetOperand(call, i);
    LLVMPositionBuilderBefore(b, call);
    LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
    LLVMValueRef c = LLVMBuildCall2(b, LLVMGlobalGetValueType(e->get_ctx), e->get_ctx, NULL, 0, "");
    args[n] = LLVMTypeOf(c) == e->ptr ? c : LLVMBuildAddrSpaceCast(b, c, e->ptr, "");
    LLVMTypeRef lid_ty = LLVMGlobalGetValueType(e->get_lid);
    LLVMTypeRef dim_ty;
    LLVMGetParamTypes(lid_ty, &dim_ty);
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef dim = LLVMConstInt(dim_ty, d, 0);
        LLVMValueRef v = LLVMBuildCall2(b, lid_ty, e->get_lid, &dim, 1, "");
        args[n + 1 + d] = LLVMTypeOf(v) == e->i64 ? v : LLVMBuildIntCast2(b, v, e->i64, 0, "");
    }
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(nf), nf, args, n + 4, "");
    LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(call));
    copy_attributes(call, nc, LLVMAttributeFunctionIndex, true);
    copy_attributes(call, nc, LLVMAttributeReturnIndex, true);
    for (unsigned i = 0; i < n; i++)
        copy_attributes(call, nc, i + 1, true);
    LLVMSetCurrentDebugLocation2(b, NULL);
    LLVMReplaceAllUsesWith(call, nc);
    LLVMInstructionEraseFromParent(call);
    free(args);
}

/* Are all of f's uses calls of it? */
static bool only_called(LLVMValueRef f)
{
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (direct_callee(LLVMGetUser(u)) != f)
            return false;
    return true;
}

cl_int mc_pass_context(LLVMModuleRef m, LLVMValueRef *kernels, size_t nk, mosaic_strbuf *log)
{
    ctx_env e = {.m = m, .c = LLVMGetModuleContext(m)};
    e.ptr = LLVMPointerTypeInContext(e.c, 0);
    e.i64 = LLVMInt64TypeInContext(e.c);
    e.invariant_kind = LLVMGetMDKindIDInContext(e.c, "invariant.load", 14);
    e.get_ctx = LLVMGetNamedFunction(m, "__mosaic_get_ctx");
    e.get_lid = LLVMGetNamedFunction(m, "__mosaic_get_local_id");
    call_graph g;
    size_t from, to;
    cl_int r = graph_build(m, &g, log);
    if (r != CL_SUCCESS)
        return r;
    unsigned char *needs = calloc(g.n + 1, 1);
    LLVMValueRef *nf = calloc(g.n + 1, sizeof *nf);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(e.c);
    if (!needs || !nf || !graph_order(&g, &from, &to)) {
        r = needs && nf ? CL_SUCCESS : mc_out_of_memory(log);
        goto done;
    }
    /* who needs the context: callees first */
    bool any = false;
    for (size_t p = 0; p < g.n; p++) {
        size_t i = g.post[p];
        LLVMValueRef f = g.fns[i];
        if (in_list(f, kernels, nk))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !needs[i]; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !needs[i]; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef callee = direct_callee(in);
                needs[i] = callee && (callee == e.get_ctx || callee == e.get_lid);
            }
        for (size_t k = g.first[i]; k < g.first[i + 1] && !needs[i]; k++)
            needs[i] = needs[g.edge[k]];
        /* a function whose address is taken keeps its type (and, should it
         * run, fails to link: __mosaic_get_ctx is never defined) */
        needs[i] = needs[i] && only_called(f);
        any |= needs[i];
    }
    if (any) {
        LLVMTypeRef i32 = LLVMInt32TypeInContext(e.c);
        e.get_ctx = magic_decl(&e, "__mosaic_get_ctx", LLVMFunctionType(e.ptr, NULL, 0, 0));
        e.get_lid = magic_decl(&e, "__mosaic_get_local_id", LLVMFunctionType(e.i64, &i32, 1, 0));
    }
    for (size_t i = 0; i < g.n; i++)
        if (needs[i] && !(nf[i] = with_context(&e, g.fns[i]))) {
            r = mc_out_of_memory(log);
            goto done;
        }
    for (size_t i = 0; i < g.n; i++) {
        if (!needs[i])
            continue;
        LLVMUseRef u;
        while ((u = LLVMGetFirstUse(g.fns[i])))
            retarget_call(&e, b, LLVMGetUser(u), nf[i]);
        LLVMDeleteFunction(g.fns[i]);
        g.fns[i] = nf[i];
    }
    for (size_t i = 0; i < g.n; i++)
        if (!in_list(g.fns[i], kernels, nk))
            replace_magic(&e, b, g.fns[i], needs[i]);
done:
    LLVMDisposeBuilder(b);
    free(needs);
    free(nf);
    graph_free(&g);
    return r;
}

/* ---- after optimisation ------------------------------------------------------------------- */
static size_t own_private_size(LLVMValueRef f, LLVMTargetDataRef td)
{
    size_t total = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsAAllocaInst(i)) {
                LLVMValueRef count = LLVMGetOperand(i, 0);
                size_t size = (size_t)LLVMABISizeOfType(td, LLVMGetAllocatedType(i));
                total += LLVMIsAConstantInt(count) ? size * (size_t)LLVMConstIntGetZExtValue(count)
                                                   : MC_STORAGE_ON_STACK;
            }
    return total;
}

void mc_private_sizes(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *fns, size_t n, size_t *sizes)
{
    call_graph g;
    size_t from, to;
    size_t *deep = NULL;
    mosaic_strbuf ignored = {0};
    bool ok = graph_build(m, &g, &ignored) == CL_SUCCESS && (deep = calloc(g.n + 1, sizeof *deep)) &&
              graph_order(&g, &from, &to);
    mosaic_strbuf_free(&ignored);
    for (size_t p = 0; ok && p < g.n; p++) { /* callees first: own + the deepest callee */
        size_t i = g.post[p], most = 0;
        for (size_t k = g.first[i]; k < g.first[i + 1]; k++)
            most = deep[g.edge[k]] > most ? deep[g.edge[k]] : most;
        deep[i] = own_private_size(g.fns[i], td) + most;
    }
    for (size_t k = 0; k < n; k++) {
        long i = ok && fns[k] ? graph_index(&g, fns[k]) : -1;
        sizes[k] = i >= 0 ? deep[i] : fns[k] ? own_private_size(fns[k], td) : 0;
    }
    free(deep);
    graph_free(&g);
}
