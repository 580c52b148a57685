/* Fiber switch for x86-64 System V: save the callee-saved registers and the
 * floating-point control words on the old stack, switch stacks, restore. */
#if defined(__x86_64__)
    .text
    .globl mosaic_fiber_switch
    .hidden mosaic_fiber_switch
    .type mosaic_fiber_switch, @function
/* void mosaic_fiber_switch(void **save (rdi), void *load (rsi)) */
mosaic_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size mosaic_fiber_switch, .-mosaic_fiber_switch

    .globl mosaic_fiber_trampoline
    .hidden mosaic_fiber_trampoline
    .type mosaic_fiber_trampoline, @function
/* First code a new fiber runs: entry (r13) called with arg (r12). */
mosaic_fiber_trampoline:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size mosaic_fiber_trampoline, .-mosaic_fiber_trampoline
#endif
    .section .note.GNU-stack,"",@progbits
