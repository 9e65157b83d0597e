/* Stores the first word of its signature, then counts in a register for ever: a run that only an interrupt
 * (or --max-cycles) ends, so that it writes no signature. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, begin_signature
    li a1, 1
    sw a1, 0(a0)
1:  addi a1, a1, 1
    j 1b

    .data
    .balign 16
    .globl begin_signature, end_signature
begin_signature:
    .fill 4, 4, 0
end_signature:
