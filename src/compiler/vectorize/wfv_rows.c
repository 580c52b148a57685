/*
 * K.row of several rows at once: a row of a group narrower than a machine
 * vector (16 bytes of a 16x16 group of uchar: a quarter of an AVX-512
 * register) leaves most of each vector instruction idle, so `rows` rows of
 * the group are widened together: lane i is work-item (lx0 + i % chunk,
 * ly + i / chunk), chunk the row's length (a power of two; lx0 is 0).
 *
 * The shapes (wfv.c) keep their meaning along each row: a uniform value is
 * the same in every lane of a row, a consecutive one steps by its stride
 * from the first lane of each row.  What depends on ly (by_row: ly itself,
 * the row's y, an address in the row's line of an image) differs between
 * the rows, and is kept as a first lane per row: scalar code once a row.
 * So a load or store consecutive along x is `rows` narrow vector accesses,
 * one from each row's first lane, joined by shuffles, not a gather of every
 * lane.  A branch on a value each row shares is one that differs between
 * the lanes; one whose way holds loops (a tile loaded by a loop over its
 * lines, `for (ty = ly; ty < TH + 4; ty += TH)`, in step: uniform-loop-exits)
 * is a row if: its way runs under the mask of the rows that take it, when
 * any does, its loops as they are.  A load at an address each row shares
 * where some rows may be off (under a guard, in a masked loop or a way) is
 * a gather under the mask: the address may be valid only in the rows that
 * run.
 */
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

/* Vector operations a load or store along the row at least, for several
 * rows at once (wd_rows_lanes). */
#define ROW_ARITHMETIC_PER_ACCESS 2

static LLVMValueRef ly_param(const widener *w) { return LLVMGetParam(w->body, LLVMCountParams(w->body) - 2); }

bool wd_by_row(const widener *w, LLVMValueRef v)
{
    if (w->rows < 2)
        return false;
    if (LLVMIsAArgument(v))
        return v == ly_param(w);
    int k = wd_inst_index(w, v);
    return k >= 0 && w->by_row[k];
}

bool wd_uniform(const widener *w, LLVMValueRef v)
{
    long long st;
    return wd_shape_of(w, v, &st) == UNIFORM && !wd_by_row(w, v);
}

bool wd_find_by_row(widener *w)
{
    if (w->rows < 2)
        return true;
    w->by_row = calloc((size_t)w->n + 1, 1);
    w->row_if_join = malloc(((size_t)w->nall + 1) * sizeof *w->row_if_join);
    w->row_if_of = malloc(((size_t)w->nall + 1) * sizeof *w->row_if_of);
    if (!w->by_row || !w->row_if_join || !w->row_if_of)
        return false;
    for (int b = 0; b < w->nall; b++)
        w->row_if_join[b] = w->row_if_of[b] = -1;
    /* what ly flows into, phis through their back edges too (no control
     * dependence: a phi where ways on such a value meet varies) */
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < w->n; k++)
            for (int i = 0, n = LLVMGetNumOperands(w->insts[k]); i < n && !w->by_row[k]; i++)
                if (wd_by_row(w, LLVMGetOperand(w->insts[k], (unsigned)i)))
                    w->by_row[k] = 1, changed = true;
    }
    return true;
}

bool wd_rows_begin(widener *w)
{
    if (w->rows < 2)
        return true;
    w->row_scalar = calloc((size_t)w->n * w->rows + 1, sizeof *w->row_scalar);
    w->ly_row = malloc(w->rows * sizeof *w->ly_row);
    if (!w->row_scalar || !w->ly_row)
        return false;
    LLVMValueRef ly = LLVMGetParam(w->vec, LLVMCountParams(w->body) - 2);
    for (unsigned r = 0; r < w->rows; r++)
        w->ly_row[r] = r ? LLVMBuildNUWAdd(w->b, ly, LLVMConstInt(LLVMTypeOf(ly), r, 0), "ly.row") : ly;
    return true;
}

LLVMValueRef wd_row_scalar(widener *w, LLVMValueRef v, unsigned r)
{
    if (r == 0 || !wd_by_row(w, v))
        return wd_scalar_of(w, v);
    if (LLVMIsAArgument(v))
        return w->ly_row[r];
    return w->row_scalar[(size_t)wd_inst_index(w, v) * w->rows + r];
}

/* <0, 1, ... chunk - 1> * stride in every row, of integer type t. */
static LLVMValueRef row_steps(widener *w, LLVMTypeRef t, long long stride)
{
    LLVMValueRef *e = malloc(w->lanes * sizeof *e), v;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < w->lanes; i++)
        e[i] = LLVMConstInt(t, (unsigned long long)(stride * (long long)(i % w->chunk)), 1);
    v = LLVMConstVector(e, w->lanes);
    free(e);
    return v;
}

/* Lanes first .. first + n - 1 of v (in reverse order when `reverse`): a shuffle. */
static LLVMValueRef pick_lanes(widener *w, LLVMValueRef v, unsigned n, unsigned first, bool reverse)
{
    LLVMValueRef *e = malloc(n * sizeof *e), r;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < n; i++)
        e[i] = LLVMConstInt(w->i32, first + (reverse ? n - 1 - i : i), 0);
    r = LLVMBuildShuffleVector(w->b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(e, n), "");
    free(e);
    return r;
}

/* A vector of v's value in each row's first lane (rows of them). */
static LLVMValueRef row_firsts(widener *w, LLVMValueRef v)
{
    LLVMValueRef acc = LLVMGetPoison(LLVMVectorType(LLVMTypeOf(v), w->rows));
    for (unsigned r = 0; r < w->rows; r++)
        acc = LLVMBuildInsertElement(w->b, acc, wd_row_scalar(w, v, r), LLVMConstInt(w->i32, r, 0), "");
    return acc;
}

LLVMValueRef wd_rows_vector(widener *w, LLVMValueRef v, long long stride)
{
    LLVMValueRef all;
    if (!wd_by_row(w, v)) {
        all = wd_splat(w, wd_scalar_of(w, v));
    } else { /* each row's first lane in its chunk of lanes */
        LLVMValueRef *e = malloc(w->lanes * sizeof *e);
        if (!e)
            return NULL;
        for (unsigned i = 0; i < w->lanes; i++)
            e[i] = LLVMConstInt(w->i32, i / w->chunk, 0);
        LLVMValueRef firsts = row_firsts(w, v);
        all = LLVMBuildShuffleVector(w->b, firsts, LLVMGetPoison(LLVMTypeOf(firsts)), LLVMConstVector(e, w->lanes), "");
        free(e);
    }
    if (!stride)
        return all;
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind) {
        LLVMValueRef idx = row_steps(w, w->i64, stride);
        return idx ? LLVMBuildGEP2(w->b, LLVMInt8TypeInContext(w->c), all, &idx, 1, "") : NULL;
    }
    LLVMValueRef steps = row_steps(w, LLVMTypeOf(v), stride);
    return steps ? LLVMBuildAdd(w->b, all, steps, "") : NULL;
}

LLVMValueRef wd_first_lanes(widener *w, LLVMValueRef p)
{
    long long st;
    if (w->rows < 2)
        return wd_scalar_of(w, p);
    if (wd_shape_of(w, p, &st) != VARYING)
        return row_firsts(w, p);
    LLVMValueRef *e = malloc(w->rows * sizeof *e), r;
    if (!e)
        return NULL;
    for (unsigned i = 0; i < w->rows; i++)
        e[i] = LLVMConstInt(w->i32, i * w->chunk, 0);
    LLVMValueRef all = wd_vector_value(w, p);
    r = LLVMBuildShuffleVector(w->b, all, LLVMGetPoison(LLVMTypeOf(all)), LLVMConstVector(e, w->rows), "");
    free(e);
    return r;
}

void wd_copy_rows(widener *w, LLVMValueRef inst, int k)
{
    MOSAIC_ASSERT(w->rows > 1 && w->by_row[k] && w->shape[k] != VARYING);
    LLVMValueRef *row = &w->row_scalar[(size_t)k * w->rows];
    for (unsigned r = 1; r < w->rows; r++) {
        if (LLVMIsAPHINode(inst)) { /* incomings once every block is built (wd_rows_add_incoming) */
            row[r] = LLVMBuildPhi(w->b, LLVMTypeOf(inst), "");
            continue;
        }
        LLVMValueRef c = LLVMInstructionClone(inst);
        for (int i = 0, n = LLVMGetNumOperands(c); i < n; i++) {
            LLVMValueRef o = LLVMGetOperand(c, (unsigned)i);
            if (!LLVMIsAFunction(o) && LLVMGetValueKind(o) != LLVMMetadataAsValueValueKind)
                LLVMSetOperand(c, (unsigned)i, wd_row_scalar(w, o, r));
        }
        LLVMInsertIntoBuilder(w->b, c);
        row[r] = c;
    }
}

void wd_rows_add_incoming(widener *w, int k, LLVMValueRef v, LLVMBasicBlockRef from)
{
    for (unsigned r = 1; r < w->rows; r++) {
        LLVMValueRef x = wd_row_scalar(w, v, r);
        LLVMAddIncoming(w->row_scalar[(size_t)k * w->rows + r], &x, &from, 1);
    }
}

/* ---- memory a row at a time ------------------------------------------------------------ */

static void copy_tbaa(widener *w, LLVMValueRef from, LLVMValueRef to)
{
    unsigned kind = LLVMGetMDKindIDInContext(w->c, "tbaa", 4);
    LLVMValueRef md = LLVMGetMetadata(from, kind);
    if (md)
        LLVMSetMetadata(to, kind, md);
}

/* n vectors of equal length joined in order (n a power of two). */
static LLVMValueRef joined(widener *w, LLVMValueRef *part, unsigned n)
{
    for (; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++) {
            unsigned len = LLVMGetVectorSize(LLVMTypeOf(part[2 * i]));
            LLVMValueRef *e = malloc(2 * len * sizeof *e);
            if (!e)
                return NULL;
            for (unsigned j = 0; j < 2 * len; j++)
                e[j] = LLVMConstInt(w->i32, j, 0);
            part[i] = LLVMBuildShuffleVector(w->b, part[2 * i], part[2 * i + 1], LLVMConstVector(e, 2 * len), "rows");
            free(e);
        }
    return part[0];
}

LLVMValueRef wd_rows_strided_load(widener *w, LLVMValueRef inst, LLVMValueRef firsts, long long st, LLVMValueRef mask)
{
    unsigned lanes = w->lanes, rows = w->rows;
    LLVMValueRef *part = malloc(rows * sizeof *part), *masks = calloc(rows, sizeof *masks), r = NULL;
    bool ok = part && masks, ways = w->building_ways;
    for (unsigned i = 0; ok && mask && i < rows; i++)
        ok = (masks[i] = pick_lanes(w, mask, w->chunk, i * w->chunk, false)) != NULL;
    /* each row as a K.row of one row would load it (a row's mask is no guard's) */
    w->lanes = w->chunk, w->rows = 1, w->building_ways = true;
    for (unsigned i = 0; ok && i < rows; i++) {
        LLVMValueRef first = LLVMBuildExtractElement(w->b, firsts, LLVMConstInt(w->i32, i, 0), "");
        ok = (part[i] = wd_strided_load(w, inst, first, st, masks[i])) != NULL;
    }
    w->lanes = lanes, w->rows = rows, w->building_ways = ways;
    r = ok ? joined(w, part, rows) : NULL;
    free(part), free(masks);
    return r;
}

bool wd_rows_strided_store(widener *w, LLVMValueRef inst, LLVMValueRef firsts, long long st, LLVMValueRef mask)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), all = wd_vector_value(w, v);
    LLVMTypeRef t = LLVMTypeOf(v), vt = LLVMVectorType(t, w->chunk);
    long long size = (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(w->m), t);
    unsigned align = LLVMGetAlignment(inst);
    MOSAIC_ASSERT(st == size || st == -size);
    for (unsigned i = 0; i < w->rows; i++) {
        /* mirrored (st < 0): the row's lanes reversed, from its last lane's address */
        LLVMValueRef part = pick_lanes(w, all, w->chunk, i * w->chunk, st < 0);
        LLVMValueRef on = mask ? pick_lanes(w, mask, w->chunk, i * w->chunk, st < 0) : NULL;
        if (!part || (mask && !on))
            return false;
        LLVMValueRef at = LLVMBuildExtractElement(w->b, firsts, LLVMConstInt(w->i32, i, 0), "");
        if (st < 0) {
            LLVMValueRef back = LLVMConstInt(w->i64, (unsigned long long)(-(long long)(w->chunk - 1) * size), 1);
            at = LLVMBuildGEP2(w->b, LLVMInt8TypeInContext(w->c), at, &back, 1, "mirrored");
        }
        if (on) {
            LLVMTypeRef types[2] = {vt, LLVMTypeOf(at)};
            LLVMValueRef args[4] = {part, at, LLVMConstInt(w->i32, align, 0), on};
            wd_call_intrinsic(w, "llvm.masked.store", types, 2, args, 4);
        } else {
            LLVMValueRef s = LLVMBuildStore(w->b, part, at);
            LLVMSetAlignment(s, align);
            copy_tbaa(w, inst, s);
        }
    }
    return true;
}

/* Row r's last lane of v. */
static LLVMValueRef row_last_lane(widener *w, LLVMValueRef v, unsigned r)
{
    long long st = 0;
    enum shape s = wd_shape_of(w, v, &st);
    unsigned last = r * w->chunk + w->chunk - 1;
    if (s == VARYING)
        return LLVMBuildExtractElement(w->b, wd_vector_value(w, v), LLVMConstInt(w->i32, last, 0), "");
    LLVMValueRef first = wd_row_scalar(w, v, r);
    if (s == UNIFORM)
        return first;
    long long off = st * (long long)(w->chunk - 1);
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind) {
        LLVMValueRef o = LLVMConstInt(w->i64, (unsigned long long)off, 1);
        return LLVMBuildGEP2(w->b, LLVMInt8TypeInContext(w->c), first, &o, 1, "");
    }
    return LLVMBuildAdd(w->b, first, LLVMConstInt(LLVMTypeOf(v), (unsigned long long)off, 1), "");
}

void wd_rows_store_one_place(widener *w, LLVMValueRef inst, LLVMValueRef mask)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    if (mask) { /* only the rows that run: a scatter (its lanes stored in order) */
        wd_scatter(w, inst, NULL, mask);
        return;
    }
    /* each row's last work-item stores last in its row; at one address, the last row's */
    for (unsigned r = wd_by_row(w, p) ? 0 : w->rows - 1; r < w->rows; r++) {
        LLVMValueRef s = LLVMBuildStore(w->b, row_last_lane(w, v, r), wd_row_scalar(w, p, r));
        LLVMSetAlignment(s, LLVMGetAlignment(inst));
        copy_tbaa(w, inst, s);
    }
}

/* ---- ifs on what each row shares -------------------------------------------------------- */

static bool has_barrier(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (mc_is_barrier_call(i))
            return true;
    return false;
}

/* The blocks from `way` on that do not go through `join` (the way of a
 * row if at a): in[] marked, how many; -1 when the way is not one (a block
 * entered from elsewhere, one that leaves for elsewhere or returns, a
 * barrier, a block of another row if or the way of a guard). */
static int way_blocks(widener *w, int a, int way, int join, unsigned char *in, int *stack)
{
    const mc_cfg *g = w->g;
    int n = 0, sp = 0;
    in[way] = 1, stack[sp++] = way;
    while (sp) {
        int b = stack[--sp];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(w->bbs[b]);
        if (w->rpo[b] <= w->rpo[a] || !(LLVMIsABranchInst(t) || LLVMIsASwitchInst(t)) || has_barrier(w->bbs[b]) ||
            w->row_if_of[b] >= 0 || w->row_if_join[b] >= 0 || w->guarded[b] >= 0)
            return -1;
        n++;
        for (int k = 0; k < g->nsucc[b]; k++) {
            int s = g->succ[b][k];
            if (s != join && !in[s])
                in[s] = 1, stack[sp++] = s;
        }
    }
    for (int b = 0; b < w->nall; b++) /* entered from a and each other only */
        for (int k = 0; in[b] && k < g->npred[b]; k++)
            if (!in[g->pred[b][k]] && !(b == way && g->pred[b][k] == a))
                return -1;
    return n;
}

/* Do the way's lanes all leave it together, from blocks outside its masked
 * loops and ifs whose branches they all take alike (so a value of the
 * join's phis from there is theirs)? */
static bool way_exits(widener *w, int join, const unsigned char *in)
{
    for (int k = 0; k < w->g->npred[join]; k++) {
        int e = w->g->pred[join][k];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(w->bbs[e]);
        if (in[e] && (w->loop_of[e] >= 0 || w->region_of[e] >= 0 || w->next_block[e] >= 0 || !LLVMIsABranchInst(t) ||
                      (LLVMIsConditional(t) && !wd_uniform(w, LLVMGetCondition(t)))))
            return false;
    }
    return true;
}

bool wd_row_if(widener *w, int a)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bbs[a]);
    long long st;
    if (w->rows < 2 || !LLVMIsABranchInst(term) || !LLVMIsConditional(term) ||
        wd_shape_of(w, LLVMGetCondition(term), &st) != UNIFORM || w->loop_of[a] >= 0 || w->region_of[a] >= 0 ||
        w->row_if_of[a] >= 0 || w->guarded[a] >= 0)
        return false;
    unsigned char *in = malloc((size_t)w->nall + 1);
    int *stack = malloc(((size_t)w->nall + 1) * sizeof *stack);
    bool ok = false;
    for (unsigned k = 0; in && stack && k < 2 && !ok; k++) { /* either way may be the one that skips */
        int join = pmap_get(&w->bidx, LLVMGetSuccessor(term, k));
        int way = pmap_get(&w->bidx, LLVMGetSuccessor(term, 1 - k));
        if (join == way || w->rpo[join] <= w->rpo[a] || w->join_of[join] >= 0 || w->region_of[join] >= 0)
            continue;
        memset(in, 0, (size_t)w->nall);
        if (way_blocks(w, a, way, join, in, stack) < 0 || !way_exits(w, join, in))
            continue;
        for (int b = 0; b < w->nall; b++)
            if (in[b])
                w->row_if_of[b] = a;
        w->row_if_join[a] = join;
        /* its phis: each lane's value from the way it came (wd_rows_join_incoming) */
        for (LLVMValueRef x = LLVMGetFirstInstruction(w->bbs[join]); x && LLVMIsAPHINode(x);
             x = LLVMGetNextInstruction(x))
            w->shape[wd_inst_index(w, x)] = VARYING;
        ok = true;
    }
    free(in), free(stack);
    return ok;
}

bool wd_build_row_if(widener *w, LLVMValueRef term, int a)
{
    int join = w->row_if_join[a];
    unsigned to_join = pmap_get(&w->bidx, LLVMGetSuccessor(term, 0)) == join ? 0 : 1;
    int way = pmap_get(&w->bidx, LLVMGetSuccessor(term, 1 - to_join));
    LLVMValueRef test = wd_vector_value(w, LLVMGetCondition(term)), running = w->block_mask[a];
    if (to_join == 0)
        test = LLVMBuildNot(w->b, test, "");
    LLVMValueRef on = running ? LLVMBuildAnd(w->b, running, test, "") : test;
    w->block_mask[way] = on;
    /* the lanes that take the way (for the join's phis) */
    if (!(w->edge[a] = calloc(1, sizeof *w->edge[a])))
        return w->why = "out of memory", false;
    w->edge[a][0] = on;
    LLVMTypeRef mt = LLVMTypeOf(on);
    LLVMValueRef any = wd_call_intrinsic(w, "llvm.vector.reduce.or", &mt, 1, &on, 1);
    LLVMBuildCondBr(w->b, any, w->blocks[way], w->blocks[join]);
    return true;
}

LLVMValueRef wd_rows_join_incoming(widener *w, LLVMValueRef p, int from, LLVMValueRef v)
{
    int a = w->row_if_of ? w->row_if_of[from] : -1;
    int join = pmap_get(&w->bidx, LLVMGetInstructionParent(p));
    if (a < 0 || w->row_if_join[a] != join)
        return v; /* from the if's branch (no lane took the way), or no row if's join */
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++)
        if (pmap_get(&w->bidx, LLVMGetIncomingBlock(p, i)) == a)
            return LLVMBuildSelect(w->b, w->edge[a][0], v, wd_vector_value(w, LLVMGetIncomingValue(p, i)), "");
    return v; /* (the join is entered from the branch: always there) */
}

bool wd_rows_pass_lanes(const widener *w, int b, int s)
{
    if (!w->row_if_join)
        return true;
    if (w->row_if_join[b] >= 0 && s != w->row_if_join[b])
        return false; /* the way: its rows' mask (wd_build_row_if) */
    int a = w->row_if_of[b];
    return a < 0 || s != w->row_if_join[a]; /* the join: the lanes before the if */
}

bool wd_rows_mask_loads(widener *w)
{
    if (w->rows < 2)
        return false;
    bool any_guard = false, changed = false;
    for (int b = 0; b < w->nall; b++)
        any_guard |= w->guarded[b] >= 0;
    for (int k = 0; k < w->n; k++) {
        int b = pmap_get(&w->bidx, LLVMGetInstructionParent(w->insts[k]));
        if (LLVMIsALoadInst(w->insts[k]) && w->by_row[k] && w->shape[k] == UNIFORM &&
            (any_guard || w->loop_of[b] >= 0 || w->region_of[b] >= 0 || w->row_if_of[b] >= 0))
            w->shape[k] = VARYING, changed = true;
    }
    return changed;
}

/* Does inst vary in the shapes and where the row's clamps leave it alone
 * too (wfv_clamps.c: not only the addresses of a gather's other way)? */
static bool varies(const widener *w, int k)
{
    return w->shape[k] == VARYING && (!w->ushape || w->ushape[k] == VARYING);
}

/* Is k a load or store a row at a time: at an address consecutive along
 * the row (where the clamps leave it alone) whose lanes are next to each
 * other, or some elements apart (not a gather)? */
static bool row_access(const widener *w, int k)
{
    LLVMValueRef i = w->insts[k];
    bool store = LLVMIsAStoreInst(i);
    if (!LLVMIsALoadInst(i) && !store)
        return false;
    LLVMValueRef p = LLVMGetOperand(i, store ? 1 : 0);
    LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
    long long st = 0, size = (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(w->m), t);
    int a = wd_inst_index(w, p);
    if (wd_shape_of(w, p, &st) != CONSECUTIVE && !(a >= 0 && w->ushape && w->ushape[a] == CONSECUTIVE))
        return false;
    if (wd_shape_of(w, p, &st) != CONSECUTIVE)
        st = w->ustride[a];
    return store ? st == size || st == -size : wd_vector_load_stride(st, size);
}

/* How often k runs, roughly: twice a loop around it (3 at most; a tile's
 * loads in step go round twice or three times, a window's loop more). */
static unsigned weight(const widener *w, int k)
{
    int l = w->g->loop_of[pmap_get(&w->bidx, LLVMGetInstructionParent(w->insts[k]))];
    int depth = l < 0 ? 0 : w->g->loops[l].depth;
    return 1u << (depth < 3 ? depth : 3);
}

/* Is k arithmetic on vectors (not an address, a cast or a phi)? */
static bool vector_arithmetic(const widener *w, int k)
{
    LLVMValueRef i = w->insts[k];
    if (!varies(w, k) || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind)
        return false;
    return LLVMIsABinaryOperator(i) || LLVMIsACmpInst(i) || LLVMIsASelectInst(i) ||
           LLVMGetInstructionOpcode(i) == LLVMFNeg ||
           (LLVMIsACallInst(i) && wd_widenable_intrinsic(mc_called_function(i)));
}

bool wd_rows_lanes(widener *w, unsigned vector_bits)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(w->m);
    unsigned bits = 0, r = 1, arithmetic = 0, accesses = 0;
    for (int k = 0; k < w->n; k++) {
        LLVMTypeRef t = LLVMTypeOf(w->insts[k]);
        LLVMTypeKind kind = LLVMGetTypeKind(t);
        arithmetic += vector_arithmetic(w, k) * weight(w, k);
        accesses += row_access(w, k) * weight(w, k);
        if (!varies(w, k) || kind == LLVMVoidTypeKind || kind == LLVMPointerTypeKind ||
            (kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1))
            continue;
        unsigned b = (unsigned)LLVMABISizeOfType(td, t) * 8;
        bits = b > bits ? b : bits;
    }
    while (bits && r * 2 <= w->rows && w->row * r * 2 * bits <= vector_bits)
        r *= 2;
    if (r < 2)
        return w->why = "a row fills a machine vector of its widest varying value", false;
    /* each access a row at a time costs a shuffle a row more than one row's
     * (the rows of a tile are not next to each other), which the wider
     * arithmetic must win back (a loop's weighted by its trips): a median
     * network's 336 minima and maxima on 25 loads do, a 7x7 maximum's 49 on
     * 49 loads do not (the runner's
     * dilate7 on one Zen 4 core, where a 64-byte operation costs two of 16
     * bytes: 7-10 -> 11-14 ms) */
    if (arithmetic < ROW_ARITHMETIC_PER_ACCESS * accesses)
        return w->why = "its loads and stores along the row outweigh its arithmetic", false;
    w->rows = r, w->chunk = w->row, w->lanes = w->row * r;
    return true;
}
