/*
 * Start-up code of cluster programs: every core starts here. Core 0 prepares memory and runs main();
 * the others take their stack in the TCDM and wait in the event unit for work (cluster.c).
 */
    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrw    mcountinhibit, zero     /* counters run, so programs can read mcycle/minstret */
    csrr    t0, mhartid
    andi    t0, t0, 0x1f
    lui     t1, %hi(__cluster_max_cores)    /* linker-defined constants: absolute symbols */
    addi    t1, t1, %lo(__cluster_max_cores)
    bgeu    t0, t1, too_many_cores
    la      sp, __cluster_stacks_end
    lui     t2, %hi(__cluster_stack_size)
    addi    t2, t2, %lo(__cluster_stack_size)
    mul     t3, t0, t2
    sub     sp, sp, t3
    la      tp, __tls_base
    bnez    t0, 9f

    la      t0, __bss_start         /* .tbss and .bss in L2 */
    la      t1, __bss_end
    bgeu    t0, t1, 2f
1:  sw      zero, 0(t0)
    addi    t0, t0, 4
    bltu    t0, t1, 1b
2:  la      t0, __tcdm_bss_start    /* .tcdm_bss */
    la      t1, __tcdm_bss_end
    bgeu    t0, t1, 4f
3:  sw      zero, 0(t0)
    addi    t0, t0, 4
    bltu    t0, t1, 3b
4:  la      s0, __init_array_start
    la      s1, __init_array_end
    bgeu    s0, s1, 6f
5:  lw      t0, 0(s0)
    jalr    t0
    addi    s0, s0, 4
    bltu    s0, s1, 5b
6:  li      a0, 0
    li      a1, 0
    call    main
    tail    exit

9:  tail    __cluster_worker_loop

/* The program was linked for fewer cores than the platform has: say so on stderr, exit code 127. */
too_many_cores:
    bne     t0, t1, 1f              /* the first surplus core reports; the others wait for the end */
    li      a0, 2
    la      a1, too_many_message
    la      a2, too_many_end
    sub     a2, a2, a1
    li      a7, 64
    ecall
    li      a0, 127
    li      a7, 93
    ecall
1:  j       1b
    .size _start, . - _start

    .section .rodata
too_many_message:
    .ascii "this program was linked for fewer cores than the platform has: relink it with "
    .ascii "--defsym=__cluster_max_cores=N or lower cluster.cores\n"
too_many_end:
