/*
 * Why a loop over work-items was not vectorised (MOSAIC_DEBUG=build).
 *
 * LLVM's loop vectoriser says why it leaves a loop alone in optimisation
 * remarks, which reach the context's diagnostic handler once the
 * -pass-remarks-missed / -pass-remarks-analysis options name it.  A remark
 * carries a source location, not a function: every instruction of K.wg gets
 * the location "K.wg:1", in a debug-info subprogram of its own, so the
 * handler can tell which kernel a remark is about and drop those about other
 * functions (K.wi, helpers).  The locations go on a copy of the module,
 * which the optimiser runs on only for its remarks and which is then
 * dropped: the code built, and cached, is the same with MOSAIC_DEBUG or
 * without (the optimiser's remarks about the module itself have no
 * location, and are dropped).
 */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>

#include "base/settings.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/remarks.h"

/* The suffix of K.wg's name, the file name its code is said to come from. */
#define WG_FILE_SUFFIX ".wg"

int mc_vectoriser_remark_options(const char **argv)
{
    if (!mosaic_debugging(MOSAIC_DEBUG_BUILD))
        return 0;
    argv[0] = "-pass-remarks-missed=loop-vectorize";
    argv[1] = "-pass-remarks-analysis=loop-vectorize";
    return 2;
}

/* Gives every instruction of each K.wg of kbs (found in m by name) the
 * location "K.wg:1". */
static void locate_work_group_functions(LLVMModuleRef m, const mc_kernel_build *kbs, size_t nk)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMDIBuilderRef di = LLVMCreateDIBuilder(m);
    LLVMMetadataRef unit_file = LLVMDIBuilderCreateFile(di, "kernels", 7, "", 0);
    LLVMDIBuilderCreateCompileUnit(di, LLVMDWARFSourceLanguageC, unit_file, "mosaic", 6, 1, "", 0, 0, "", 0,
                                   LLVMDWARFEmissionNone, 0, 0, 0, "", 0, "", 0);
    LLVMMetadataRef type = LLVMDIBuilderCreateSubroutineType(di, unit_file, NULL, 0, LLVMDIFlagZero);
    for (size_t k = 0; k < nk; k++) {
        LLVMValueRef wg = kbs[k].wg ? LLVMGetNamedFunction(m, LLVMGetValueName(kbs[k].wg)) : NULL;
        if (!wg || LLVMGetSubprogram(wg))
            continue;
        size_t n; /* "K.wg" */
        const char *file = LLVMGetValueName2(wg, &n);
        LLVMMetadataRef f = LLVMDIBuilderCreateFile(di, file, n, "", 0);
        LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(di, f, file, n, file, n, f, 1, type, 1, 1, 1,
                                                         LLVMDIFlagZero, 1);
        LLVMSetSubprogram(wg, sp);
        LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(c, 1, 0, sp, NULL);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                LLVMInstructionSetDebugLoc(i, loc);
    }
    LLVMDIBuilderFinalize(di);
    LLVMDisposeDIBuilder(di);
    LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), LLVMDebugMetadataVersion(), 0)));
}

/* The diagnostic handler while the copy is optimised: its remarks are
 * printed, and nothing else reaches the build's log (the module's own run
 * reports the same warnings). */
static void remarks_only(LLVMDiagnosticInfoRef info, void *user)
{
    (void)user;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSRemark)
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    mc_print_vectoriser_remark(text);
    LLVMDisposeMessage(text);
}

void mc_vectoriser_remarks(LLVMModuleRef m, mc_run_passes_fn *run_passes, LLVMTargetMachineRef tm, const char *passes,
                           const mc_kernel_build *kbs, size_t nk)
{
    if (!mosaic_debugging(MOSAIC_DEBUG_BUILD))
        return;
    /* invalid IR is not optimised: the build reports it (the pass verify) */
    char *msg = NULL;
    bool invalid = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
    LLVMDisposeMessage(msg);
    LLVMModuleRef copy = invalid ? NULL : LLVMCloneModule(m);
    if (!copy)
        return;
    locate_work_group_functions(copy, kbs, nk);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMDiagnosticHandler handler = LLVMContextGetDiagnosticHandler(c);
    void *handler_context = LLVMContextGetDiagnosticContext(c);
    LLVMContextSetDiagnosticHandler(c, remarks_only, NULL);
    mosaic_strbuf ignored = {0}; /* (the same pipeline on the module itself says what fails) */
    run_passes(copy, tm, passes, &ignored);
    mosaic_strbuf_free(&ignored);
    LLVMContextSetDiagnosticHandler(c, handler, handler_context);
    LLVMDisposeModule(copy);
}

bool mc_print_vectoriser_remark(const char *text)
{
    /* "K.wg:1:0: loop not vectorized: why".  Every pass's remarks reach the
     * handler once any is asked for: only the vectoriser's reasons are kept
     * (the bare "loop not vectorized" that follows each adds nothing). */
    const char *suffix = strstr(text, WG_FILE_SUFFIX ":"), *why = suffix ? strstr(suffix, ": ") : NULL;
    if (!mosaic_debugging(MOSAIC_DEBUG_BUILD) || !why)
        return false;
    why += 2;
    if (strncmp(why, "loop not vectorized: ", 21) &&
        strcmp(why, "the cost-model indicates that vectorization is not beneficial"))
        return false;
    /* a loop the compiler marked itself (rows already vectors, prefetches: group_prefetch.c) */
    if (strstr(why, "or the loop has already been vectorized"))
        return true;
    fprintf(stderr, "mosaic: kernel %.*s: a loop of its work-group function: %s\n", (int)(suffix - text), text, why);
    return true;
}
