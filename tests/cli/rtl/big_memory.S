/* Uses both ends of a 512 MiB .bss and a stack frame at the top of its memory: runs in the automatic
 * layout and in a 2 GiB region reaching the top of the address space (--memory 0x80000000:2GiB), where
 * sp starts at 0xfffffff0. Exit value 0 when every word reads back as written and the .bss read zero. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, big_buffer
    li t1, 512 * 1024 * 1024 - 4
    add t1, t0, t1              /* last word of the buffer */
    lw a0, 0(t0)
    lw a1, 0(t1)
    or a0, a0, a1
    bnez a0, fail               /* .bss must start as zero */
    li a2, 0x13579bdf
    li a3, 0x2468ace0
    sw a2, 0(t0)
    sw a3, 0(t1)
    addi sp, sp, -16
    sw a2, 12(sp)
    lw a4, 0(t0)
    lw a5, 0(t1)
    lw a6, 12(sp)
    addi sp, sp, 16
    bne a4, a2, fail
    bne a5, a3, fail
    bne a6, a2, fail
    li a0, 0
    li a7, 93
    ecall
fail:
    li a0, 1
    li a7, 93
    ecall

    .section .bss.big, "aw", @nobits
    .globl big_buffer
big_buffer:
    .space 512 * 1024 * 1024
