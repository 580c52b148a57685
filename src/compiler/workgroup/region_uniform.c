/*
 * Uniformity applied to K.wg's regions (uniformity.c is the divergence
 * analysis: a uniform value is the same for every work-item of the group):
 * which live values are uniform (work-item 0's copy stands for all), which
 * regions run once for the group instead of in work-item loops ("scalar
 * regions": the control of a uniform loop that implicit_barriers.c cut), and in masked
 * mode the order in which the states of divergent cuts run.
 */
#include <stdint.h>
#include <stdlib.h>

#include "compiler/workgroup/regions_internal.h"

/* Can instruction k of a region run once for the whole group? */
static bool runs_once(region_fn *rf, int k)
{
    LLVMValueRef i = rf->ins.insts[k];
    if (rf->ins.kind[k] != K_NORMAL)
        return true; /* skipped, or computed in K.wg's entry */
    if (!mc_uniform_control(rf->unif.ua, rf->cut.bbs[rf->ins.iblock[k]]))
        return false;
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMRet:
    case LLVMUnreachable:
        return true;
    case LLVMBr:
        return !LLVMIsConditional(i) || mc_uniform_value(rf->unif.ua, LLVMGetCondition(i));
    case LLVMSwitch:
        return mc_uniform_value(rf->unif.ua, LLVMGetOperand(i, 0));
    default:
        return mc_group_once(rf->unif.ua, i);
    }
}

/* Might some work-item of a region that loops over them read uniform value
 * k from its own storage (rg_def_reaches)?  Then every work-item's copy must be
 * written, which a region run once does not do. */
static bool read_per_item(region_fn *rf, int k)
{
    int li = rf->live.live_index[k], def = rf->ins.iblock[k];
    for (int r = 0; r < rf->cut.nreg; r++) {
        if (rf->unif.scalar_reg[r] || !rf->cut.inreg[r][def])
            continue;
        for (int b = 0; b < rf->cut.nb; b++)
            if (rf->cut.inreg[r][b] && rg_reached_without_def(rf, li, r, b) && rg_def_reaches(rf, li, r, b))
                return true;
    }
    return false;
}

/* Masked mode: which region to run next when the work-items wait at several
 * cuts: a state that no other waiting one leads to before it is led back to
 * it (so the work-items still in a loop finish it before those that left it
 * go on), the deeper loop first where they lead to each other.  Any order is
 * correct (work-items are independent between barriers); this one lets them
 * meet again soonest.  No uniform reads or regions run once in this mode:
 * work-item 0 may be ahead of the others. */
static cl_int find_schedule(region_fn *rf)
{
    uint64_t *reach = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *reach);
    int *key = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *key);
    rf->unif.prio = rf_calloc(rf, (size_t)rf->cut.nreg, sizeof *rf->unif.prio);
    if (rf->oom) {
        free(reach), free(key);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (int r = 0; r < rf->cut.nreg; r++) /* the states region r leads to */
        for (int x = 0; x < rf->cut.nb; x++)
            if (rf->cut.inreg[r][x] && rf->cut.bar_of_block[x])
                reach[r] |= 1ull << rf->cut.bar_of_block[x];
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < rf->cut.nreg; r++)
            for (int t = 1; t < rf->cut.nreg; t++)
                if ((reach[r] >> t & 1) && (reach[r] | reach[t]) != reach[r])
                    reach[r] |= reach[t], changed = true;
    }
    for (int st = 1; st < rf->cut.nreg; st++) {
        if (!rf->cut.bar_div[st])
            continue;
        int before = 0; /* states that lead to st but not back */
        for (int t = 1; t < rf->cut.nreg; t++)
            before += t != st && (reach[t] >> st & 1) && !(reach[st] >> t & 1);
        key[st] = before * 64 - mc_loop_depth(rf->unif.ua, rf->cut.bbs[rf->cut.bar_block[st]]);
        int i = rf->unif.nprio++;
        while (i > 0 && key[rf->unif.prio[i - 1]] > key[st]) {
            rf->unif.prio[i] = rf->unif.prio[i - 1];
            i--;
        }
        rf->unif.prio[i] = st;
    }
    free(reach), free(key);
    return rf_status(rf);
}

/* Which values are uniform (uniformity.c), and which regions run once for
 * the group: those whose every instruction can (the control of a uniform
 * loop, implicit_barriers.c).  Not in sub-group mode. */
cl_int rg_find_scalar_regions(region_fn *rf)
{
    rf->unif.uniform_def = rf_calloc(rf, (size_t)rf->ins.ni, 1);
    rf->unif.all_slots = rf_calloc(rf, (size_t)rf->ins.ni, 1);
    rf->unif.scalar_reg = rf_calloc(rf, (size_t)rf->cut.nreg, 1);
    if (rf->cut.masked && !rf->cut.sg_mode && rf->cut.nreg <= 63)
        return find_schedule(rf);
    if (rf->cut.masked)
        return give_up(rf, "internal error: divergent cuts in sub-group mode or beyond 63 regions");
    if (rf->oom || rf->cut.sg_mode)
        return rf_status(rf);
    for (int k = 0; k < rf->ins.ni; k++)
        rf->unif.uniform_def[k] = rf->ins.kind[k] == K_NORMAL && mc_uniform_value(rf->unif.ua, rf->ins.insts[k]) &&
                                  mc_uniform_control(rf->unif.ua, rf->cut.bbs[rf->ins.iblock[k]]);
    for (int r = 0; r < rf->cut.nreg; r++) {
        bool once = r == 0 || rf->cut.reach[rf->cut.bar_block[r]];
        for (int k = 0; k < rf->ins.ni && once; k++)
            if (rf->cut.inreg[r][rf->ins.iblock[k]])
                once = runs_once(rf, k);
        rf->unif.scalar_reg[r] = once;
    }
    for (bool changed = true; changed && !rf->oom;) {
        changed = false;
        for (int k = 0; k < rf->ins.ni; k++)
            if (rf->live.demote[k] && rf->unif.uniform_def[k] && !rf->unif.all_slots[k] && read_per_item(rf, k))
                rf->unif.all_slots[k] = 1, changed = true;
        for (int r = 0; r < rf->cut.nreg; r++)
            for (int k = 0; k < rf->ins.ni && rf->unif.scalar_reg[r]; k++)
                if (rf->unif.all_slots[k] && rf->cut.inreg[r][rf->ins.iblock[k]])
                    rf->unif.scalar_reg[r] = 0, changed = true;
    }
    return rf_status(rf);
}
