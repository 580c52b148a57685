/*
 * The shared control-flow analysis (src/compiler/ir/cfg.h): reverse
 * post-order, dominators, post-dominators, retreating and back edges,
 * natural loops and their nesting, on small functions written as LLVM IR
 * text; and the cache of analyses per function (ir/analyses.h).
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#define TEST_LIST "test_cfg.list"
#include "test.h"
#include "compiler/ir/analyses.h"
#include "compiler/ir/cfg.h"
#include "compiler/ir/uniformity.h"

static LLVMContextRef context;

/* The module of `ir`, whose function is @f; NULL (a failed check) when it does not parse. */
static LLVMModuleRef parse(const char *ir)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "test.ll");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(context, buf, &m, &msg)) {
        TEST_FAIL("%s", msg ? msg : "parse error");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return m;
}

/* Block `name`'s number in g. */
static int B(const mc_cfg *g, const char *name)
{
    for (int b = 0; b < g->n; b++)
        if (!strcmp(LLVMGetBasicBlockName(g->blocks[b]), name))
            return b;
    TEST_FAIL("no block %s", name);
    return 0;
}

/* The graph of @f in m (the test's checks need it). */
static mc_cfg *graph(LLVMModuleRef m)
{
    mc_cfg *g = m ? mc_cfg_new(LLVMGetNamedFunction(m, "f")) : NULL;
    CHECK(g != NULL);
    return g;
}

TEST(diamond)
{
    LLVMModuleRef m = parse("define void @f(i1 %c) {\n"
                            "entry:\n  br i1 %c, label %then, label %else\n"
                            "then:\n  br label %join\n"
                            "else:\n  br label %join\n"
                            "join:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int entry = B(g, "entry"), then = B(g, "then"), els = B(g, "else"), join = B(g, "join");
    CHECK(g->n == 4 && g->nreach == 4);
    /* the walk takes `then` first: entry, else, then, join in reverse post-order */
    CHECK(g->rpo[0] == entry && g->rpo[1] == els && g->rpo[2] == then && g->rpo[3] == join);
    CHECK(g->idom[entry] == entry && g->idom[then] == entry && g->idom[els] == entry && g->idom[join] == entry);
    CHECK(g->ipdom[entry] == join && g->ipdom[then] == join && g->ipdom[els] == join && g->ipdom[join] == g->n);
    CHECK(mc_dominates(g, entry, join) && !mc_dominates(g, then, join) && mc_dominates(g, join, join));
    CHECK(mc_post_dominates(g, join, entry) && !mc_post_dominates(g, then, entry));
    CHECK(g->npred[join] == 2 && g->pred[join][0] == then && g->pred[join][1] == els);
    CHECK(g->nretreating == 0 && g->nloops == 0 && mc_cfg_reducible(g));
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

TEST(nested_loops)
{
    LLVMModuleRef m = parse("define void @f(i1 %c) {\n"
                            "entry:\n  br label %outer\n"
                            "outer:\n  br label %inner\n"
                            "inner:\n  br i1 %c, label %inner, label %olatch\n"
                            "olatch:\n  br i1 %c, label %outer, label %exit\n"
                            "exit:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int outer = B(g, "outer"), inner = B(g, "inner"), olatch = B(g, "olatch"), exit = B(g, "exit");
    CHECK(g->nretreating == 2 && g->retreating[0].from == inner && g->retreating[0].to == inner &&
          g->retreating[0].succ == 0 && g->retreating[0].back);
    CHECK(g->retreating[1].from == olatch && g->retreating[1].to == outer && g->retreating[1].back);
    CHECK(g->nloops == 2);
    /* outer first (its header comes first in reverse post-order) */
    const mc_loop *lo = &g->loops[0], *li = &g->loops[1];
    CHECK(lo->header == outer && lo->parent == -1 && lo->depth == 1 && lo->nblocks == 3);
    CHECK(lo->nlatches == 1 && lo->latches[0] == olatch && lo->nexiting == 1 && lo->exiting[0] == olatch);
    CHECK(li->header == inner && li->parent == 0 && li->depth == 2 && li->nblocks == 1);
    CHECK(li->nlatches == 1 && li->latches[0] == inner && li->nexiting == 1 && li->exiting[0] == inner);
    CHECK(g->loop_of[inner] == 1 && g->loop_of[olatch] == 0 && g->loop_of[exit] == -1);
    CHECK(mc_cfg_loop_depth(g, inner) == 2 && mc_cfg_loop_depth(g, outer) == 1 && mc_cfg_loop_depth(g, exit) == 0);
    CHECK(mc_loop_contains(g, 0, inner) && !mc_loop_contains(g, 1, olatch));
    bool in[8];
    CHECK(mc_edge_loop(g, olatch, outer, in) == 3 && in[outer] && in[inner] && in[olatch] && !in[exit]);
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

/* A cycle entered in two places (only goto makes one): a retreating edge
 * that is no back edge, and no natural loop. */
TEST(irreducible)
{
    LLVMModuleRef m = parse("define void @f(i1 %c) {\n"
                            "entry:\n  br i1 %c, label %a, label %b\n"
                            "a:\n  br i1 %c, label %b, label %exit\n"
                            "b:\n  br i1 %c, label %a, label %exit\n"
                            "exit:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int entry = B(g, "entry"), a = B(g, "a"), b = B(g, "b");
    CHECK(g->nretreating == 1 && g->retreating[0].from == b && g->retreating[0].to == a && !g->retreating[0].back);
    CHECK(!mc_cfg_reducible(g) && g->nloops == 0);
    CHECK(g->idom[a] == entry && g->idom[b] == entry);
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

TEST(unreachable)
{
    LLVMModuleRef m = parse("define void @f(i1 %c) {\n"
                            "entry:\n  br label %loop\n"
                            "loop:\n  br i1 %c, label %loop, label %exit\n"
                            "dead:\n  br label %loop\n"
                            "exit:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int loop = B(g, "loop"), dead = B(g, "dead"), exit = B(g, "exit");
    CHECK(g->nreach == 3 && !mc_cfg_reachable(g, dead) && g->rpo_number[dead] == -1 && g->idom[dead] == -1);
    /* every block dominates an unreachable one; it dominates nothing reachable */
    CHECK(mc_dominates(g, exit, dead) && !mc_dominates(g, dead, loop));
    /* its edge is a predecessor, but it is no part of the loop */
    CHECK(g->npred[loop] == 3);
    CHECK(g->nloops == 1 && g->loops[0].header == loop && g->loops[0].nblocks == 1 && g->loop_of[dead] == -1);
    CHECK(g->ipdom[dead] == loop);
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

TEST(endless_loop)
{
    LLVMModuleRef m = parse("define void @f(i1 %c) {\n"
                            "entry:\n  br i1 %c, label %spin, label %exit\n"
                            "spin:\n  br label %spin\n"
                            "exit:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int entry = B(g, "entry"), spin = B(g, "spin"), exit = B(g, "exit");
    /* no way from spin to a `ret`: no post-dominator, and the entry's is the exit's alone */
    CHECK(g->ipdom[spin] == -1 && g->ipdom[entry] == exit && mc_post_dominates(g, spin, spin));
    CHECK(!mc_post_dominates(g, exit, spin));
    CHECK(g->nloops == 1 && g->loops[0].nexiting == 0);
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

/* Two cases of a switch to one header: two retreating edges, one latch. */
TEST(switch_cases)
{
    LLVMModuleRef m = parse("define void @f(i32 %x) {\n"
                            "entry:\n  br label %head\n"
                            "head:\n  switch i32 %x, label %exit [ i32 1, label %head\n i32 2, label %head ]\n"
                            "exit:\n  ret void\n}\n");
    mc_cfg *g = graph(m);
    if (!g)
        return;
    int head = B(g, "head");
    CHECK(g->nsucc[head] == 3 && g->npred[head] == 3);
    CHECK(g->nretreating == 2 && g->retreating[0].succ == 1 && g->retreating[1].succ == 2);
    CHECK(g->nloops == 1 && g->loops[0].nlatches == 1 && g->loops[0].latches[0] == head);
    mc_cfg_free(g);
    LLVMDisposeModule(m);
}

/* uniformity.c on the shared graph: a branch on the local id parts the
 * work-items until its join; a loop's exit on a uniform value does not. */
TEST(uniformity_on_cfg)
{
    LLVMModuleRef m = parse("define void @f(i32 %n, i32 %lid) {\n"
                            "entry:\n  %c = icmp eq i32 %lid, 0\n  br i1 %c, label %one, label %join\n"
                            "one:\n  br label %join\n"
                            "join:\n  %p = phi i32 [ 1, %one ], [ 2, %entry ]\n  br label %loop\n"
                            "loop:\n  %i = phi i32 [ 0, %join ], [ %i1, %latch ]\n  %i1 = add i32 %i, 1\n"
                            "  %d = icmp slt i32 %i1, %n\n  br i1 %d, label %latch, label %spin\n"
                            "latch:\n  br label %loop\n"
                            "spin:\n  %j = phi i32 [ 0, %loop ], [ %j1, %spin ]\n  %j1 = add i32 %j, 1\n"
                            "  %e = icmp slt i32 %j1, %n\n  br i1 %e, label %spin, label %exit\n"
                            "exit:\n  ret void\n}\n");
    if (!m)
        return;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    mc_uniformity *u = mc_uniformity_new(f, 1);
    CHECK(u != NULL);
    if (u) {
        const mc_cfg *g = mc_uniformity_cfg(u);
        CHECK(g && g->n == 7 && g->nloops == 2);
        CHECK(!mc_uniform_control(u, g->blocks[B(g, "one")]) && mc_uniform_control(u, g->blocks[B(g, "join")]));
        CHECK(mc_uniform_loop_exit(u, g->blocks[B(g, "loop")]) && mc_loop_depth(u, g->blocks[B(g, "latch")]) == 1);
        /* a block that branches to itself is a loop of the graph, not one of the uniformity analysis */
        CHECK(!mc_uniform_loop_exit(u, g->blocks[B(g, "spin")]) && mc_loop_depth(u, g->blocks[B(g, "spin")]) == 0);
        for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[B(g, "join")]); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsAPHINode(i))
                CHECK(!mc_uniform_value(u, i)); /* work-items arrive from both sides */
        mc_uniformity_free(u);
    }
    LLVMDisposeModule(m);
}

TEST(cache)
{
    LLVMModuleRef m = parse("define void @f() {\nentry:\n  ret void\n}\n"
                            "define void @g() {\nentry:\n  br label %next\nnext:\n  ret void\n}\n");
    if (!m)
        return;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f"), h = LLVMGetNamedFunction(m, "g");
    mc_analyses *a = mc_analyses_new();
    CHECK(a != NULL);
    CHECK(!mc_analyses_cached(a, f) && !mc_analyses_asked(a));
    const mc_cfg *gf = mc_analyses_cfg(a, f), *gh = mc_analyses_cfg(a, h);
    CHECK(gf && gh && gf->n == 1 && gh->n == 2);
    CHECK(mc_analyses_cfg(a, f) == gf); /* computed once */
    CHECK(mc_analyses_cached(a, f) == MC_ANALYSES_CFG_SHAPE && mc_analyses_asked(a) == MC_ANALYSIS_CFG);
    CHECK(!mc_analyses_asked(a)); /* (asked since the last call) */
    CHECK(!mc_analyses_stale(a));
    /* a pass adds a block to @f: the graph is stale until it says so */
    LLVMBasicBlockRef added = LLVMAppendBasicBlockInContext(context, f, "added");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderAtEnd(b, added);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    CHECK(mc_analyses_stale(a) == f);
    mc_analyses_invalidate(a, f);
    CHECK(!mc_analyses_stale(a) && !mc_analyses_cached(a, f));
    gf = mc_analyses_cfg(a, f);
    CHECK(gf && gf->n == 2 && !mc_cfg_reachable(gf, 1));
    CHECK(mc_analyses_cfg(a, h) == gh); /* @g's stays */
    mc_analyses_invalidate_all(a);
    CHECK(mc_analyses_cfg(a, h) && mc_analyses_cfg(a, h)->n == 2);
    mc_analyses_free(a);
    LLVMDisposeModule(m);
}

/* The uniformity in the cache, on its graph, and what a pass that changed
 * code leaves of them (mc_analyses_keep, as the runner calls it). */
TEST(cache_keeps)
{
    LLVMModuleRef m = parse("define void @f(i32 %lid) {\nentry:\n  %c = icmp eq i32 %lid, 0\n"
                            "  br i1 %c, label %one, label %join\none:\n  br label %join\njoin:\n  ret void\n}\n"
                            "define void @g(i32 %lid) {\nentry:\n  ret void\n}\n");
    if (!m)
        return;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f"), h = LLVMGetNamedFunction(m, "g");
    mc_analyses *a = mc_analyses_new();
    const mc_uniformity *u = a ? mc_analyses_uniformity(a, f, 0) : NULL;
    CHECK(u && mc_analyses_uniformity(a, f, 0) == u && mc_uniformity_cfg(u) == mc_analyses_cfg(a, f));
    if (!u) {
        mc_analyses_free(a);
        LLVMDisposeModule(m);
        return;
    }
    CHECK(!mc_uniform_control(u, LLVMGetNextBasicBlock(LLVMGetFirstBasicBlock(f)))); /* %one: some work-items */
    CHECK(mc_analyses_cached(a, f) == MC_ANALYSES_ALL &&
          mc_analyses_asked(a) == (MC_ANALYSIS_CFG | MC_ANALYSIS_UNIFORMITY));
    CHECK(mc_analyses_uniformity(a, h, 0) != NULL);
    const mc_cfg *gf = mc_analyses_cfg(a, f);
    /* a pass that keeps everything leaves everything; one that keeps the graph, the graph only */
    mc_analyses_keep(a, MC_ANALYSES_ALL, NULL, 0);
    CHECK(mc_analyses_cached(a, f) == MC_ANALYSES_ALL && mc_analyses_cached(a, h) == MC_ANALYSES_ALL);
    mc_analyses_keep(a, MC_ANALYSES_CFG_SHAPE, NULL, 0);
    CHECK(mc_analyses_cached(a, f) == MC_ANALYSES_CFG_SHAPE && mc_analyses_cfg(a, f) == gf);
    /* keeping some of the graph's parts keeps none of it; a function spared keeps all */
    CHECK(mc_analyses_uniformity(a, f, 0) != NULL);
    mc_analyses_keep(a, MC_ANALYSIS_CFG | MC_ANALYSIS_LOOPS, &h, 1);
    CHECK(!mc_analyses_cached(a, f) && mc_analyses_cached(a, h) == MC_ANALYSES_CFG_SHAPE);
    mc_analyses_keep(a, MC_ANALYSES_NONE, NULL, 0);
    CHECK(!mc_analyses_cached(a, h));
    mc_analyses_free(a);
    LLVMDisposeModule(m);
}

int main(int argc, char **argv)
{
    context = LLVMContextCreate();
    test_run(argc, argv);
    LLVMContextDispose(context);
    return test_summary();
}
