/*
 * Start-up code: stack, global and thread pointers, .bss, constructors, main(), exit().
 *
 * Only one hart is expected to run it. It writes no CSR (mstatus, mtvec, ...) so the same ELF also
 * runs under qemu-riscv32 user mode; the simulator starts harts with the FPU usable.
 */
    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* gp must be set without relaxation, which would express it relative to itself. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    /* picolibc keeps errno in TLS; with one hart the linked .tdata image is its TLS block (RISC-V
     * TLS variant I: tp points at the start of .tdata). */
    la      tp, __tls_base

    /* Zero .tbss and .bss (word aligned by the linker script). */
    la      t0, __bss_start
    la      t1, __bss_end
    bgeu    t0, t1, 2f
1:  sw      zero, 0(t0)
    addi    t0, t0, 4
    bltu    t0, t1, 1b
2:
    /* C constructors (__attribute__((constructor))), for completeness. */
    la      s0, __init_array_start
    la      s1, __init_array_end
    bgeu    s0, s1, 4f
3:  lw      t0, 0(s0)
    jalr    t0
    addi    s0, s0, 4
    bltu    s0, s1, 3b
4:
    li      a0, 0           /* argc */
    li      a1, 0           /* argv */
    call    main
    tail    exit
    .size _start, . - _start
