/*
 * Control flow that differs between the work-items of a widened row
 * (wfv.c): which branches K.vec can run under lane masks, and the masks.
 *   - guards: a branch outside loops to the block that only returns ("if (i
 *     >= n) return;"): the lanes that stay are the mask of everything after;
 *   - ifs and switches whose ways meet again with no return between, and
 *     no loop but masked ones (below, found first): their blocks run one
 *     after the other, each under the mask of the lanes that reach it (a
 *     masked loop as one step, from the lanes that enter it), and phis
 *     select by the way each lane came;
 *   - loops with one exit, the header's varying branch: round again while
 *     any lane goes on, each lane's carried values kept once it left; such
 *     a loop may hold others (a persistent-threads loop around a work
 *     item's own loop), whose lanes start from those still in it.
 * docs/compiler.md, "Kernels widened whole".
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/util.h"
#include "compiler/vectorize/wfv_internal.h"

/* The lanes that run inst's block: those still in its masked loop, or NULL (all). */
LLVMValueRef wd_lanes_running(widener *w, LLVMValueRef inst)
{
    int b = pmap_get(&w->bidx, LLVMGetInstructionParent(inst)), h = w->loop_of[b];
    if (w->region_mask[b])
        return w->region_mask[b];
    return h < 0 ? w->block_mask[b] : w->go_on[h];
}

/* The end of block b, an if's branch or a block inside it: the lanes
 * taking each way out (within those running b), and on to the next block
 * in K.vec's order. */
bool wd_build_region_branch(widener *w, LLVMValueRef term, int b)
{
    LLVMValueRef running = wd_lanes_running(w, term);
    unsigned ns = LLVMGetNumSuccessors(term);
    if (!(w->edge[b] = calloc(ns, sizeof *w->edge[b])))
        return w->why = "out of memory", false;
    LLVMValueRef *e = w->edge[b];
    if (LLVMIsASwitchInst(term) || LLVMIsConditional(term)) {
        LLVMValueRef c = wd_vector_value(w, LLVMGetOperand(term, 0));
        if (LLVMIsASwitchInst(term)) { /* way k >= 1: case k - 1; way 0, the default: none of them */
            LLVMValueRef any = NULL;
            for (unsigned k = 1; k < ns; k++) {
                e[k] = LLVMBuildICmp(w->b, LLVMIntEQ, c, wd_splat(w, LLVMGetOperand(term, 2 * k)), "");
                any = any ? LLVMBuildOr(w->b, any, e[k], "") : e[k];
            }
            e[0] = any ? LLVMBuildNot(w->b, any, "") : wd_all_lanes(w);
        } else {
            e[0] = c;
            e[1] = LLVMBuildNot(w->b, c, "");
        }
        for (unsigned k = 0; running && k < ns; k++)
            e[k] = LLVMBuildAnd(w->b, running, e[k], "");
    } else {
        e[0] = running ? running : wd_all_lanes(w);
    }
    LLVMBuildBr(w->b, w->blocks[w->next_block[b]]);
    return true;
}

/* The lanes that come from block p to block b (p's edges into b). */
LLVMValueRef wd_edge_into(widener *w, int p, int b)
{
    LLVMValueRef m = NULL;
    for (int k = 0; k < w->g->nsucc[p]; k++) /* (the graph's successors are the terminator's, in order) */
        if (w->g->succ[p][k] == b)
            m = m ? LLVMBuildOr(w->b, m, w->edge[p][k], "") : w->edge[p][k];
    return m;
}

/* Phi p of a block inside an if or where its ways meet: each lane's value
 * from the way it came (the ways are exclusive per lane). */
LLVMValueRef wd_select_by_way(widener *w, LLVMValueRef p)
{
    int b = pmap_get(&w->bidx, LLVMGetInstructionParent(p));
    LLVMValueRef v = NULL;
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++) {
        int from = pmap_get(&w->bidx, LLVMGetIncomingBlock(p, i));
        LLVMValueRef x = wd_vector_value(w, LLVMGetIncomingValue(p, i));
        v = v ? LLVMBuildSelect(w->b, wd_edge_into(w, from, b), x, v, "") : x;
    }
    return v;
}

LLVMValueRef wd_lanes_entering(widener *w, int h)
{
    int entry = w->loop_entry[h];
    for (int k = 0; k < w->g->nsucc[entry]; k++)
        if (w->g->succ[entry][k] == h)
            return w->edge[entry][k];
    return NULL;
}

/* The end of a masked loop's header: the lanes that go on (still in the
 * loop and their test holds), and round again while any does.  A loop in
 * an if gives its ways their lanes (wd_edge_into): those that entered it
 * leave by its exit. */
bool wd_build_masked_exit(widener *w, LLVMValueRef term, int h)
{
    LLVMBasicBlockRef in = LLVMGetSuccessor(term, 0), out = LLVMGetSuccessor(term, 1);
    LLVMValueRef test = wd_vector_value(w, LLVMGetCondition(term));
    if (!wd_in_masked_loop(w, pmap_get(&w->bidx, in), h)) { /* the loop goes on when the test fails */
        LLVMBasicBlockRef t = in;
        in = out, out = t;
        test = LLVMBuildNot(w->b, test, "");
    }
    w->go_on[h] = LLVMBuildAnd(w->b, w->mask_phi[h], test, "lanes.go_on");
    LLVMTypeRef mt = LLVMTypeOf(w->go_on[h]);
    LLVMValueRef any = wd_call_intrinsic(w, "llvm.vector.reduce.or", &mt, 1, &w->go_on[h], 1);
    LLVMBuildCondBr(w->b, any, w->blocks[pmap_get(&w->bidx, in)], w->blocks[pmap_get(&w->bidx, out)]);
    if (w->loop_entry[h] < 0)
        return true;
    if (!(w->edge[h] = calloc(2, sizeof *w->edge[h])))
        return w->why = "out of memory", false;
    bool stays = LLVMGetSuccessor(term, 0) == in;
    w->edge[h][!stays] = w->go_on[h];
    w->edge[h][stays] = wd_lanes_entering(w, h);
    return true;
}

/* The end of a guard's block g: the lanes that stay go on, and the rest of
 * the kernel runs if any does, else straight to the return. */
void wd_build_guard(widener *w, LLVMValueRef term, int g)
{
    int stay = w->guarded[g];
    LLVMValueRef test = wd_vector_value(w, LLVMGetCondition(term));
    LLVMBasicBlockRef ret = LLVMGetSuccessor(term, 0);
    if (pmap_get(&w->bidx, LLVMGetSuccessor(term, 0)) == stay)
        ret = LLVMGetSuccessor(term, 1);
    else
        test = LLVMBuildNot(w->b, test, "");
    LLVMValueRef m = w->block_mask[g] ? LLVMBuildAnd(w->b, w->block_mask[g], test, "") : test;
    w->block_mask[stay] = m;
    LLVMTypeRef mt = LLVMTypeOf(m);
    LLVMValueRef any = wd_call_intrinsic(w, "llvm.vector.reduce.or", &mt, 1, &m, 1);
    if (w->nguards < WD_MAX_GUARDS) {
        w->guard_mask[w->nguards] = m;
        w->guard_full[w->nguards++] = wd_call_intrinsic(w, "llvm.vector.reduce.and", &mt, 1, &m, 1);
    }
    LLVMBuildCondBr(w->b, any, w->blocks[stay], w->blocks[pmap_get(&w->bidx, ret)]);
}

/* Block b's successors run the lanes b runs (a guard's stay block has its own). */
void wd_pass_lanes_on(widener *w, int b)
{
    for (int k = 0; k < w->g->nsucc[b]; k++) {
        int s = w->g->succ[b][k];
        if (s != w->guarded[b] && w->rpo[s] > w->rpo[b] && wd_rows_pass_lanes(w, b, s))
            w->block_mask[s] = w->block_mask[b];
    }
}

/* Is block b used by branches only (no blockaddress: every use an edge of
 * the graph)? */
static bool only_branched_to(const widener *w, int b)
{
    int uses = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(w->bbs[b])); u; u = LLVMGetNextUse(u))
        uses++;
    return uses == w->g->npred[b];
}

/* Marks in_loop for every block of every loop: the natural loop (cfg.h) of
 * each retreating edge, back from its source to its header. */
bool wd_find_loops(widener *w)
{
    const mc_cfg *g = w->g;
    bool *in = malloc(((size_t)g->n + 1) * sizeof *in), ok = in != NULL;
    for (int e = 0; ok && e < g->nretreating; e++) {
        ok = mc_edge_loop(g, g->retreating[e].from, g->retreating[e].to, in) >= 0;
        for (int b = 0; ok && b < g->n; b++)
            w->in_loop[b] |= in[b];
    }
    free(in);
    return ok;
}

/* Does the varying branch that ends block g, outside every loop, have a
 * block that only returns as one way ("if (i >= n) return;", or an if
 * around the rest of the kernel)?  The lanes that take the other way run
 * the rest of the kernel, the others are done. */
bool wd_guard(widener *w, int g)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bbs[g]);
    if (w->in_loop[g] || w->region_of[g] >= 0 || w->loop_of[g] >= 0)
        return false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMBasicBlockRef ret = LLVMGetSuccessor(term, k), stay = LLVMGetSuccessor(term, 1 - k);
        if (ret != stay && LLVMIsAReturnInst(LLVMGetFirstInstruction(ret))) {
            w->guarded[g] = pmap_get(&w->bidx, stay);
            return true;
        }
    }
    return false;
}

/* Is block b, between the branch of block a and where its ways meet, the
 * header of a masked loop that K.vec can run there as one step (found
 * before, in the masked loop a is in, or outside all of them as a is;
 * entered by one edge from outside)?  *entry: the block of that edge. */
static bool loop_in_if(const widener *w, int a, int b, int *entry)
{
    if (w->loop_of[b] != b || w->parent_loop[b] != w->loop_of[a])
        return false;
    const mc_cfg *g = w->g;
    int edges = 0;
    for (int k = 0; k < g->npred[b]; k++) {
        int from = g->pred[b][k];
        if (!wd_in_masked_loop(w, from, b))
            edges++, *entry = from;
    }
    return edges == 1;
}

/* The way out of masked loop h (its header's successor outside it). */
static int loop_exit(const widener *w, int h)
{
    int s = w->g->succ[h][0];
    return wd_in_masked_loop(w, s, h) ? w->g->succ[h][1] : s;
}

/* Does the varying branch that ends block a start an if whose ways meet
 * again at one block j (the first after a that every way from a reaches,
 * with no loop or return between but masked loops found before), entered
 * from those ways only?  K.vec runs the blocks between one after the other
 * in reverse post-order, each under the mask of the lanes that reach it
 * (a masked loop between as one step: its lanes start from those that
 * reach it, all of them leave by its exit, which runs next), and the phis
 * where ways meet select per lane.  Marks the blocks; those phis vary, and
 * loads at one address between become gathers under the mask (the address
 * may only be valid on the way that has it). */
bool wd_divergent_region(widener *w, int a)
{
    int *inside = malloc(((size_t)w->nb + 1) * sizeof *inside), *stack = malloc(((size_t)w->nall + 1) * sizeof *stack);
    unsigned char *seen = malloc((size_t)w->nall + 1);
    const mc_cfg *g = w->g;
    int join = -1, n = 0;
    for (int c = w->rpo[a] + 1; inside && stack && seen && c < w->nb && join < 0; c++) {
        int j = pmap_get(&w->bidx, w->order[c]), sp = 0;
        bool ok = true;
        n = 0;
        memset(seen, 0, (size_t)w->nall);
        for (int k = 0; k < g->nsucc[a]; k++) {
            int s = g->succ[a][k];
            if (s != j && !seen[s])
                seen[s] = 1, stack[sp++] = s;
        }
        while (ok && sp) {
            int b = stack[--sp], entry;
            LLVMValueRef t = LLVMGetBasicBlockTerminator(w->bbs[b]);
            bool loop = loop_in_if(w, a, b, &entry);
            /* between a and j in order (no loop but a masked one, no way past j), no return, two ways at most */
            ok = w->rpo[b] > w->rpo[a] && w->rpo[b] < w->rpo[j] && (LLVMIsABranchInst(t) || LLVMIsASwitchInst(t)) &&
                 w->region_of[b] < 0 && (w->loop_of[b] != b || loop) && w->guarded[b] < 0;
            inside[n++] = b;
            for (int k = 0; ok && k < g->nsucc[b]; k++) {
                int s = g->succ[b][k];
                if (loop && s != loop_exit(w, b))
                    continue; /* the loop runs as one step: on by its exit */
                ok = w->rpo[s] > w->rpo[b]; /* forward: no loop between */
                if (s != j && !seen[s])
                    seen[s] = 1, stack[sp++] = s;
            }
        }
        /* the blocks between entered from a and each other only (a loop's
         * header from inside the loop too) */
        for (int i = 0; ok && i < n; i++) {
            int b = inside[i], entry;
            bool loop = loop_in_if(w, a, b, &entry);
            for (int k = 0; ok && k < g->npred[b]; k++) {
                int from = g->pred[b][k];
                ok = from == a || seen[from] || (loop && from != entry);
            }
        }
        if (!ok)
            continue;
        /* j entered from a and the blocks between only */
        for (int k = 0; ok && k < g->npred[j]; k++) {
            int from = g->pred[j][k];
            ok = from == a || seen[from];
        }
        if (ok && w->join_of[j] < 0 && w->region_of[j] < 0)
            join = j;
    }
    bool ok = join >= 0;
    /* no store to one place between (it would happen when no lane goes that way) */
    for (int i = 0; ok && i < n; i++)
        for (LLVMValueRef x = LLVMGetFirstInstruction(w->bbs[inside[i]]); x && ok; x = LLVMGetNextInstruction(x)) {
            long long st;
            ok = !(LLVMIsAStoreInst(x) && wd_shape_of(w, LLVMGetOperand(x, 1), &st) == UNIFORM);
        }
    /* K.vec's order: a, the blocks between by reverse post-order, j */
    for (int i = 1; ok && i < n; i++)
        for (int k = i; k > 0 && w->rpo[inside[k]] < w->rpo[inside[k - 1]]; k--) {
            int t = inside[k];
            inside[k] = inside[k - 1], inside[k - 1] = t;
        }
    /* a loop's exit next after it (its header branches there), and the
     * block that enters it one edge (its mask the lanes that enter) */
    for (int i = 0; ok && i < n; i++) {
        int entry;
        if (!loop_in_if(w, a, inside[i], &entry))
            continue;
        int out = loop_exit(w, inside[i]), edges = 0;
        ok = i + 1 < n ? inside[i + 1] == out : out == join;
        for (int k = 0; k < g->nsucc[entry]; k++)
            edges += g->succ[entry][k] == inside[i];
        ok = ok && edges == 1;
    }
    if (ok) {
        int prev = a;
        for (int i = 0; i < n; i++) {
            int entry;
            if (loop_in_if(w, a, inside[i], &entry)) {
                w->loop_entry[inside[i]] = entry;
                w->next_block[prev] = inside[i];
                prev = inside[i];
                continue; /* its blocks keep their loop's masks and branches */
            }
            w->region_of[inside[i]] = a;
            w->next_block[prev] = inside[i];
            prev = inside[i];
            for (LLVMValueRef x = LLVMGetFirstInstruction(w->bbs[inside[i]]); x; x = LLVMGetNextInstruction(x)) {
                long long st;
                if (LLVMIsAPHINode(x) || (LLVMIsALoadInst(x) && wd_shape_of(w, LLVMGetOperand(x, 0), &st) == UNIFORM))
                    w->shape[wd_inst_index(w, x)] = VARYING;
            }
        }
        w->next_block[prev] = join;
        w->join_of[join] = a;
        for (LLVMValueRef x = LLVMGetFirstInstruction(w->bbs[join]); x && LLVMIsAPHINode(x); x = LLVMGetNextInstruction(x))
            w->shape[wd_inst_index(w, x)] = VARYING;
    }
    free(inside), free(stack), free(seen);
    return ok;
}

bool wd_in_masked_loop(const widener *w, int b, int h)
{
    for (int x = w->loop_of[b]; x >= 0; x = w->parent_loop[x])
        if (x == h)
            return true;
    return false;
}

/* May inst be in a masked loop's header, which runs again for the lanes
 * that left (its values must come out the same for them, and it must
 * change nothing)?  No memory accesses but a ticket (wfv.c, widen_ticket)
 * whose value only the loop uses: taken for the lanes that enter each
 * iteration, what it gives the others is never read. */
static bool fits_header(const widener *w, LLVMValueRef inst, const bool *in)
{
    if (LLVMIsAAtomicRMWInst(inst)) {
        for (LLVMUseRef u = LLVMGetFirstUse(inst); u; u = LLVMGetNextUse(u))
            if (!in[pmap_get(&w->bidx, LLVMGetInstructionParent(LLVMGetUser(u)))])
                return false;
        return true;
    }
    return !LLVMIsALoadInst(inst) && !LLVMIsAStoreInst(inst) && !LLVMIsAAtomicCmpXchgInst(inst) &&
           !(LLVMIsACallInst(inst) && !wd_widenable_intrinsic(mc_called_function(inst)));
}

/* Does the varying branch that ends block h leave a loop (h its header, one
 * latch, no other exit, a header that touches no memory), which K.vec runs
 * while any lane is still in it, each lane's carried values kept once it
 * left?  The loop may be inside another masked loop (then its lanes are
 * those of the loop around that reach it), or hold masked loops found
 * before.  Marks its blocks and makes its header's phis varying. */
bool wd_masked_loop(widener *w, int h)
{
    const mc_cfg *g = w->g;
    LLVMBasicBlockRef head = w->bbs[h];
    int around = w->loop_of[h]; /* the masked loop h is in, or -1 */
    if (w->rpo[h] < 0 || around == h || !only_branched_to(w, h))
        return false;
    int latch = -1;
    for (int k = 0; k < g->npred[h]; k++) {
        int from = g->pred[h][k];
        if (w->rpo[from] >= w->rpo[h]) { /* a back edge */
            if (latch >= 0)
                return false;
            latch = from;
        }
    }
    if (latch < 0)
        return false;
    /* the loop's blocks: back from the latch to the header, each entered by branches only */
    bool *in = malloc(((size_t)g->n + 1) * sizeof *in);
    bool ok = in && mc_edge_loop(g, latch, h, in) >= 0;
    for (int b = 0; ok && b < g->n; b++)
        ok = !in[b] || b == h || only_branched_to(w, b);
    /* one exit, the header's; each block in the loop around h or in a
     * masked loop inside h, none in an if of the loop around; a header
     * without memory accesses */
    ok = ok && g->nsucc[h] == 2 && in[g->succ[h][0]] != in[g->succ[h][1]];
    for (int b = 0; ok && b < w->nall; b++) {
        if (!in[b])
            continue;
        int x = w->loop_of[b];
        ok = (x == around || (x >= 0 && x != h && in[x])) && (around < 0 || w->region_of[b] < 0);
        for (int k = 0; ok && b != h && k < g->nsucc[b]; k++)
            ok = in[g->succ[b][k]];
    }
    for (LLVMValueRef i = LLVMGetFirstInstruction(head); ok && i; i = LLVMGetNextInstruction(i))
        ok = fits_header(w, i, in);
    for (int b = 0; ok && b < w->nall; b++) {
        if (!in[b])
            continue;
        if (w->loop_of[b] == b && b != h && w->parent_loop[b] == around)
            w->parent_loop[b] = h; /* a masked loop inside, found before */
        if (w->loop_of[b] == around)
            w->loop_of[b] = h;
    }
    if (ok) {
        w->parent_loop[h] = around;
        w->latch[h] = w->bbs[latch];
        for (LLVMValueRef i = LLVMGetFirstInstruction(head); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
            w->shape[wd_inst_index(w, i)] = VARYING;
    }
    free(in);
    return ok;
}
