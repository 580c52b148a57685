/*
 * Rows of a group run together by one work-item body (thread coarsening
 * in y), for kernels widened whole.
 *
 * A kernel widened whole runs a row's work-items as the lanes of vectors,
 * one row after another.  A matrix product written one work-item per
 * element (`for (k..) s += a[row * n + k] * b[k * n + col]`) then reads,
 * at each k, a vector of B's row k and one float of A: one load of B per
 * multiply-add, and B's column strip again for every row of C, from L2 or
 * further (the runner's `sgemm_naive`: 31 GFLOP/s on one core of the
 * 2-core EPYC).  The same kernel written by hand to compute eight rows a
 * work-item reads B's vector once for eight multiply-adds: 134 GFLOP/s.
 *
 * So K.rows is K.body for R consecutive rows (ly .. ly + R - 1) at once:
 * every instruction that depends on ly, directly or through its operands,
 * is made R times, each copy reading its own row's operands (row r's ly is
 * ly + r); every other instruction once, its value shared by the R rows.
 * That is what joins B's reads: their address does not depend on the row.
 * Sharing a load is allowed: the rows are different work-items, with no
 * barrier between them, so a store of one row to what another reads is a
 * data race (undefined in OpenCL), and the load sees what it would have
 * seen in each row.  The copies of an instruction follow each other, so
 * the R chains interleave and a row's instructions keep their order.
 *
 * Taken only where the rows go the same way: every branch's condition is
 * shared (the trip counts of the kernel's loops, its bounds checks on x),
 * or its parts that depend on the row are made of the ids, arguments and
 * the group's context (a guard's `row < m`), which K.rows.agree lets K.wg
 * check before it runs R rows at once (where they disagree, the rows run
 * one by one); and for kernels the widener takes (no calls but
 * intrinsics, no private arrays); atomics are left alone.  Worth it only where a loop of the
 * kernel reads, once for all rows, a value that the rows' own values are
 * computed from, and R times the values each row carries round its loops
 * stays within what the registers hold (R = 8, 4 or 2).  K.wg then runs R
 * rows a step while R are left (workgroup.c); a launch picks groups whose
 * rows are a multiple of R (cpu_launch.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

enum {
    MAX_ROWS = 8,
    MAX_DECIDED = 8,  /* branches on the row whose ways K.wg checks the rows agree on */
    MAX_DEPTH = 24,   /* of a decided branch's condition */
    /* values carried round loops by the R rows together, on a target of 32
     * vector registers (16: half): each becomes a vector or two once widened */
    CARRIED_BUDGET = 8,
};

typedef struct coarsening {
    LLVMValueRef body, ly;
    int n;                  /* instructions of body */
    LLVMValueRef *insts;    /* in block order */
    unsigned char *per_row; /* insts[k] depends on the row */
    pmap index;             /* instruction -> k */
    LLVMValueRef decided[MAX_DECIDED]; /* conditions of branches on the row (a guard's `row < m`) */
    unsigned num_decided;
} coarsening;

static bool depends_on_row(const coarsening *c, LLVMValueRef v)
{
    if (v == c->ly)
        return true;
    int k = LLVMIsAInstruction(v) ? pmap_get(&c->index, v) : -1;
    return k >= 0 && c->per_row[k];
}

/* What the rows must each do for themselves whatever their operands: what
 * changes memory other than through a plain store, or reads it otherwise
 * than plainly. */
static bool own_to_each_row(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAlloca: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMVAArg:
        return true;
    case LLVMLoad: case LLVMStore:
        return LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic;
    case LLVMCall:
        return !mc_pure_intrinsic(mc_called_function(i));
    default:
        return false;
    }
}

/* Is v computed from the ids but lx, the kernel's arguments, constants and
 * invariant loads (the group's context) alone, by instructions without
 * effects: a value K.wg can compute for any row before it runs them? */
static bool decidable(const coarsening *c, LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v))
        return !LLVMIsAArgument(v) || v != LLVMGetParam(c->body, LLVMCountParams(c->body) - 3);
    if (depth > MAX_DEPTH)
        return false;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMPHI: case LLVMCall: case LLVMAlloca: case LLVMStore: case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
    case LLVMFence: case LLVMVAArg: case LLVMSDiv: case LLVMUDiv: case LLVMSRem: case LLVMURem:
        return false; /* (a division may trap where the branch kept it from running) */
    case LLVMLoad:
        if (LLVMGetVolatile(v) ||
            !LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "invariant.load", 14)))
            return false;
        break;
    default:
        if (LLVMIsATerminatorInst(v))
            return false;
    }
    for (int o = 0, n = LLVMGetNumOperands(v); o < n; o++)
        if (!decidable(c, LLVMGetOperand(v, (unsigned)o), depth + 1))
            return false;
    return true;
}

/* Is every row-dependent part of condition v decidable, the rest shared
 * (`row >= m || col >= n`: the first part decided, the second the same in
 * every row)?  Adds the decidable parts to c->decided, each made of what
 * depends on the row; false when one is not, or there are too many.  Where
 * the rows agree on each part, they agree on v: what joins the parts (and,
 * or, compares, selects) has no effect and reads nothing else. */
static bool decide(coarsening *c, LLVMValueRef v, int depth)
{
    if (!depends_on_row(c, v))
        return true; /* the same in every row */
    if (decidable(c, v, 0)) {
        for (unsigned d = 0; d < c->num_decided; d++)
            if (c->decided[d] == v)
                return true;
        if (c->num_decided == MAX_DECIDED)
            return false;
        c->decided[c->num_decided++] = v;
        return true;
    }
    if (depth > MAX_DEPTH || !mc_computes_only(v) || LLVMIsAPHINode(v) || LLVMIsALoadInst(v) || LLVMIsACallInst(v))
        return false;
    for (int o = 0, n = LLVMGetNumOperands(v); o < n; o++)
        if (!decide(c, LLVMGetOperand(v, (unsigned)o), depth + 1))
            return false;
    return true;
}

/* Fills c and finds what depends on the row; the rows K.rows may run, or 0
 * and *why. */
static unsigned analyse(coarsening *c, mc_analyses *an, unsigned vector_registers, unsigned *carried_out,
                        const char **why)
{
    unsigned np = LLVMCountParams(c->body);
    const mc_cfg *g = mc_analyses_cfg(an, c->body);
    if (!g)
        return *why = "out of memory", 0;
    c->ly = LLVMGetParam(c->body, np - 2);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            c->n++;
    c->insts = malloc(((size_t)c->n + 1) * sizeof *c->insts);
    c->per_row = calloc((size_t)c->n + 1, 1);
    if (!c->insts || !c->per_row || !pmap_init(&c->index, (size_t)c->n + 1))
        return *why = "out of memory", 0;
    int k = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetInstructionOpcode(i) == LLVMAtomicRMW || LLVMGetInstructionOpcode(i) == LLVMAtomicCmpXchg)
                return *why = "atomics", 0;
            c->insts[k] = i;
            c->per_row[k] = own_to_each_row(i);
            pmap_put(&c->index, i, k++);
        }
    /* what ly flows into, phis through their back edges too */
    for (bool changed = true; changed;) {
        changed = false;
        for (k = 0; k < c->n; k++)
            for (int o = 0, n = LLVMGetNumOperands(c->insts[k]); o < n && !c->per_row[k]; o++)
                if (depends_on_row(c, LLVMGetOperand(c->insts[k], (unsigned)o)))
                    c->per_row[k] = 1, changed = true;
    }
    bool any_row = false, joined = false;
    unsigned carried = 0;
    for (k = 0; k < c->n; k++) {
        LLVMValueRef i = c->insts[k];
        any_row |= c->per_row[k];
        if ((LLVMIsABranchInst(i) && LLVMIsConditional(i)) || LLVMIsASwitchInst(i) || LLVMIsAIndirectBrInst(i)) {
            /* a branch on the row: K.rows takes row 0's way, where K.wg saw the rows agree */
            if (c->per_row[k] && (LLVMIsAIndirectBrInst(i) || !decide(c, LLVMGetOperand(i, 0), 0)))
                return *why = "rows that may take different ways, on values other than the ids and arguments", 0;
            continue;
        }
        bool looped = (LLVMIsAPHINode(i) && c->per_row[k]) || (LLVMIsALoadInst(i) && !c->per_row[k]);
        if (!looped || g->loop_of[pmap_get(&g->index, LLVMGetInstructionParent(i))] < 0)
            continue;
        if (LLVMIsAPHINode(i)) {
            carried++;
            continue;
        }
        /* a load in a loop once for all rows: does a row's own value use it? */
        for (LLVMUseRef u = LLVMGetFirstUse(i); u && !joined; u = LLVMGetNextUse(u))
            joined = depends_on_row(c, LLVMGetUser(u));
    }
    if (!any_row)
        return *why = "no value that depends on the row", 0;
    if (!joined)
        return *why = "no load in a loop that the rows share", 0;
    unsigned budget = vector_registers >= 32 ? CARRIED_BUDGET : CARRIED_BUDGET / 2, rows = 0;
    for (unsigned r = MAX_ROWS; r >= 2 && !rows; r /= 2)
        if (carried * r <= budget)
            rows = r;
    if (!rows)
        *why = "its rows carry too many values round their loops";
    *carried_out = carried;
    return rows;
}

/* The new function's parameter (params) for body's parameter v. */
static LLVMValueRef param_copy(const coarsening *c, LLVMValueRef *params, LLVMValueRef v)
{
    for (unsigned p = 0; p < LLVMCountParams(c->body); p++)
        if (LLVMGetParam(c->body, p) == v)
            return params[p];
    return v;
}

/* The copy for row r of what v is in body (r = 0 for shared values). */
static LLVMValueRef copy_of(const coarsening *c, LLVMValueRef *copies, unsigned rows, LLVMValueRef *params,
                            LLVMValueRef *row_ly, unsigned r, LLVMValueRef v)
{
    if (v == c->ly)
        return row_ly[r];
    if (LLVMIsAArgument(v))
        return param_copy(c, params, v);
    int k = LLVMIsAInstruction(v) ? pmap_get(&c->index, v) : -1;
    if (k < 0)
        return v;
    return copies[(size_t)k * rows + (c->per_row[k] && !LLVMIsATerminatorInst(v) ? r : 0)];
}

/* The copy of v (decidable) for the row ly + r in K.rows.agree, made at b. */
static LLVMValueRef clone_for_row(const coarsening *c, LLVMBuilderRef b, LLVMValueRef *params, LLVMValueRef ly,
                                  LLVMValueRef *made, LLVMValueRef v)
{
    if (v == c->ly)
        return ly;
    if (LLVMIsAArgument(v))
        return param_copy(c, params, v);
    int k = LLVMIsAInstruction(v) ? pmap_get(&c->index, v) : -1;
    if (k < 0)
        return v;
    if (made[k])
        return made[k];
    LLVMValueRef x = LLVMInstructionClone(v);
    for (int o = 0, n = LLVMGetNumOperands(x); o < n; o++)
        LLVMSetOperand(x, (unsigned)o, clone_for_row(c, b, params, ly, made, LLVMGetOperand(v, (unsigned)o)));
    LLVMInsertIntoBuilder(b, x);
    return made[k] = x;
}

/* K.rows.agree(K.body's parameters): do the rows ly .. ly + rows - 1 take
 * the same way at each branch on the row (c->decided)?  NULL when memory
 * ran out. */
static LLVMValueRef build_agree(LLVMModuleRef m, const coarsening *c, unsigned rows)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned np = LLVMCountParams(c->body);
    LLVMTypeRef *types = malloc((np + 1) * sizeof *types);
    LLVMValueRef *params = malloc((np + 1) * sizeof *params);
    if (!types || !params) {
        free(types), free(params);
        return NULL;
    }
    LLVMGetParamTypes(LLVMGlobalGetValueType(c->body), types);
    char name[256];
    snprintf(name, sizeof name, "%s.rows.agree", LLVMGetValueName(c->body));
    LLVMValueRef f = LLVMAddFunction(m, name, LLVMFunctionType(LLVMInt1TypeInContext(ctx), types, np, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    for (unsigned p = 0; p < np; p++)
        params[p] = LLVMGetParam(f, p);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef agree = LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0), first[MAX_DECIDED];
    bool ok = true;
    for (unsigned r = 0; r < rows && ok; r++) {
        LLVMValueRef *made = calloc((size_t)c->n + 1, sizeof *made); /* row r's copies, by instruction */
        if (!made) {
            ok = false;
            break;
        }
        LLVMValueRef ly = r ? LLVMBuildNUWAdd(b, params[np - 2], LLVMConstInt(types[np - 2], r, 0), "ly.row")
                            : params[np - 2];
        for (unsigned d = 0; d < c->num_decided; d++) {
            LLVMValueRef v = clone_for_row(c, b, params, ly, made, c->decided[d]);
            if (!r)
                first[d] = v;
            else
                agree = LLVMBuildAnd(b, agree, LLVMBuildICmp(b, LLVMIntEQ, v, first[d], ""), "rows.agree");
        }
        free(made);
    }
    LLVMBuildRet(b, agree);
    LLVMDisposeBuilder(b);
    free(types), free(params);
    if (!ok || LLVMVerifyFunction(f, LLVMReturnStatusAction)) {
        LLVMDeleteFunction(f);
        return NULL;
    }
    return f;
}

/* What build's copies for row r map body's values and blocks to. */
typedef struct row_map {
    const coarsening *c;
    LLVMValueRef *copies;
    unsigned rows;
    LLVMValueRef *params, *row_ly;
    LLVMBasicBlockRef *blocks;
    const pmap *bidx;
    unsigned r;
} row_map;

static LLVMValueRef row_counterpart(const void *arg, LLVMValueRef v)
{
    const row_map *m = arg;
    if (LLVMValueIsBasicBlock(v))
        return LLVMBasicBlockAsValue(m->blocks[pmap_get(m->bidx, LLVMValueAsBasicBlock(v))]);
    return copy_of(m->c, m->copies, m->rows, m->params, m->row_ly, m->r, v);
}

/* K.rows: body for `rows` rows from ly; NULL when memory ran out. */
static LLVMValueRef build(LLVMModuleRef m, coarsening *c, unsigned rows)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    char name[256];
    snprintf(name, sizeof name, "%s.rows", LLVMGetValueName(c->body));
    LLVMValueRef f = LLVMAddFunction(m, name, LLVMGlobalGetValueType(c->body));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    mc_copy_function_attributes(c->body, f); /* alwaysinline, the parameters' noalias... */
    unsigned np = LLVMCountParams(c->body), nb = LLVMCountBasicBlocks(c->body);
    LLVMValueRef *params = malloc((np + 1) * sizeof *params);
    LLVMValueRef *copies = calloc((size_t)c->n * rows + 1, sizeof *copies);
    LLVMBasicBlockRef *blocks = malloc((nb + 1) * sizeof *blocks);
    pmap bidx = {0};
    if (!params || !copies || !blocks || !pmap_init(&bidx, nb + 1)) {
        free(params), free(copies), free(blocks);
        LLVMDeleteFunction(f);
        return NULL;
    }
    for (unsigned p = 0; p < np; p++) {
        params[p] = LLVMGetParam(f, p);
        size_t len;
        const char *pn = LLVMGetValueName2(LLVMGetParam(c->body, p), &len);
        LLVMSetValueName2(params[p], pn, len);
    }
    int b = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        blocks[b] = LLVMAppendBasicBlockInContext(ctx, f, "");
        pmap_put(&bidx, bb, b++);
    }
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(ctx);
    LLVMValueRef row_ly[MAX_ROWS];
    LLVMPositionBuilderAtEnd(bld, blocks[0]);
    row_ly[0] = params[np - 2];
    for (unsigned r = 1; r < rows; r++)
        row_ly[r] = LLVMBuildNUWAdd(bld, params[np - 2], LLVMConstInt(LLVMTypeOf(row_ly[0]), r, 0), "ly.row");
    int k = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMPositionBuilderAtEnd(bld, blocks[pmap_get(&bidx, bb)]);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i), k++) {
            /* (a branch on the row: row 0's way, K.wg saw the rows agree) */
            unsigned copies_of_i = c->per_row[k] && !LLVMIsATerminatorInst(i) ? rows : 1;
            for (unsigned r = 0; r < copies_of_i; r++) {
                LLVMValueRef x = LLVMIsAPHINode(i) ? LLVMBuildPhi(bld, LLVMTypeOf(i), "") : LLVMInstructionClone(i);
                if (!LLVMIsAPHINode(i))
                    LLVMInsertIntoBuilder(bld, x);
                copies[(size_t)k * rows + r] = x;
            }
        }
    }
    /* operands, incoming values and successors once every copy is made (a
     * block may use what one later in the layout defines) */
    row_map map = {c, copies, rows, params, row_ly, blocks, &bidx, 0};
    for (k = 0; k < c->n; k++)
        for (map.r = 0; map.r < (c->per_row[k] && !LLVMIsATerminatorInst(c->insts[k]) ? rows : 1); map.r++)
            mc_remap_copy(c->insts[k], copies[(size_t)k * rows + map.r], row_counterpart, &map);
    LLVMDisposeBuilder(bld);
    free(params), free(copies), free(blocks);
    pmap_free(&bidx);
    if (LLVMVerifyFunction(f, LLVMReturnStatusAction)) {
        LLVMDeleteFunction(f);
        return NULL;
    }
    return f;
}

LLVMValueRef mc_coarsen_rows(LLVMModuleRef m, LLVMValueRef body, mc_analyses *an, unsigned vector_registers,
                             unsigned *rows, unsigned *vectors, LLVMValueRef *agree, const char **why)
{
    *agree = NULL;
    coarsening c = {.body = body};
    unsigned carried = 0;
    *rows = analyse(&c, an, vector_registers, &carried, why);
    /* the widener's vectors (512 bits) a value: the rows' carried values
     * fill about half the registers (16 of AVX-512's 32; with 16 registers,
     * taken as AVX2's, 8 of 256 bits) */
    unsigned fill = vector_registers >= 32 ? 16 : 4, chains = (carried ? carried : 1) * (*rows ? *rows : 1);
    *vectors = fill / chains ? fill / chains : 1;
    LLVMValueRef f = *rows ? build(m, &c, *rows) : NULL;
    if (f && c.num_decided && !(*agree = build_agree(m, &c, *rows))) {
        LLVMDeleteFunction(f);
        f = NULL;
    }
    if (*rows && !f)
        *why = "out of memory, or an internal error";
    free(c.insts);
    free(c.per_row);
    pmap_free(&c.index);
    if (!f)
        *rows = 0;
    return f;
}
