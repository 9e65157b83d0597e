/* Stores a word whose first two bytes are the last of the memory and whose other two lie past its end (run
   with --memory 0x80000000:64KiB). */
    .section .text.init, "ax"
    .globl _start
_start:
    li t0, 0x8000fffe
    sw t0, 0(t0)
    li a7, 93
    ecall
