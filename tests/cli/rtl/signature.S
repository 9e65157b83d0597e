/* A program in the style of the RISC-V architectural tests: it stores its results between the symbols
 * begin_signature and end_signature and ends through a memory-mapped exit register (run with
 * --exit-addr 0x20000004 --signature FILE). The last word is left as the data section set it. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, begin_signature
    li a1, 0x12345678
    li a2, 0x11111111
    add a3, a1, a2
    sw a3, 0(a0)
    li a1, 5
    li a2, 7
    sub a3, a1, a2
    sw a3, 4(a0)
    li a1, 0x10001
    mul a3, a1, a1
    sw a3, 8(a0)
    li a1, 1
    slli a3, a1, 31
    sw a3, 12(a0)
    li a1, 0x20000004
    sw zero, 0(a1)
1:  j 1b

    .data
    .balign 16
    .globl begin_signature, end_signature
begin_signature:
    .fill 5, 4, 0xdeadbeef
end_signature:
