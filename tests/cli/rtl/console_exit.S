/* A program written for an RTL test bench: it prints through a memory-mapped console register and ends by
 * storing its exit code to a memory-mapped exit register (run with --console-addr 0x10000000
 * --exit-addr 0x20000004). */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, message
    li a1, 0x10000000
1:  lbu a2, 0(a0)
    beqz a2, 2f
    sb a2, 0(a1)
    addi a0, a0, 1
    j 1b
2:  li a1, 0x20000004
    li a2, 5
    sw a2, 0(a1)
3:  j 3b

    .section .rodata
message: .asciz "hello from the test bench\n"
