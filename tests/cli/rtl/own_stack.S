/* A program written for an RTL test bench with a 4 MiB RAM at 0: its crt0 sets sp to the top of that RAM,
 * calls a function that pushes and pops a frame there, prints through the memory-mapped console and ends
 * through the memory-mapped exit register (run with --memory 0x0:0x400000 --console-addr 0x10000000
 * --exit-addr 0x20000004). Exit value 0 when the values read back from the stack are the ones written. */
    .section .text.init, "ax"
    .globl _start
_start:
    li sp, 0x00400000
    li a0, 0x1234
    li a1, 0x5678
    call swap_through_stack
    li t0, 0x5678
    bne a0, t0, fail
    li t0, 0x1234
    bne a1, t0, fail
    la a0, message
    li a1, 0x10000000
1:  lbu a2, 0(a0)
    beqz a2, 2f
    sb a2, 0(a1)
    addi a0, a0, 1
    j 1b
2:  li a1, 0x20000004
    sw zero, 0(a1)
3:  j 3b
fail:
    li a1, 0x20000004
    li a2, 1
    sw a2, 0(a1)
4:  j 4b

/* Swaps a0 and a1 through a stack frame at the top of the RAM. */
swap_through_stack:
    addi sp, sp, -16
    sw a0, 12(sp)
    sw a1, 8(sp)
    sw ra, 4(sp)
    lw a1, 12(sp)
    lw a0, 8(sp)
    lw ra, 4(sp)
    addi sp, sp, 16
    ret

    .section .rodata
message: .asciz "stack at the top of a 4 MiB RAM at 0: OK\n"
