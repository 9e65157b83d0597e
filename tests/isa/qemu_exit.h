/* The test macros, plus a build variant for cross-checking a program's expected values on qemu-riscv32
 * (Linux user mode).
 *
 * Normally this is just test_macros.h. Built with -DQEMU_EXIT, TEST_END ends the program with the Linux
 * exit system call instead of writing `tohost`, which user-mode QEMU does not understand: exit status 0
 * when every case passed, else the number of the failing case (keep case numbers below 256). The data
 * sections also start on their own page so that QEMU can map the code page read+execute and the data
 * read+write. Only the parts of a program that QEMU user mode can run belong in such a build; put
 * simulator-only code (machine-mode CSRs, self-modifying code) under #ifndef QEMU_EXIT.
 *
 *   clang-19 --target=riscv32-unknown-elf -march=rv32imfc_zicsr_zifencei -mabi=ilp32f -nostdlib \
 *       -I tests/isa -T tests/isa/link.ld -fuse-ld=lld -DQEMU_EXIT rv32i.S -o rv32i.qemu.elf
 *   qemu-riscv32 rv32i.qemu.elf; echo $?
 */
#ifndef PULPSIM_QEMU_EXIT_H
#define PULPSIM_QEMU_EXIT_H

#include "test_macros.h"

#ifdef QEMU_EXIT
#undef TEST_BEGIN
#define TEST_BEGIN                                                                                           \
    .section .tohost, "aw";                                                                                  \
    .balign 4096;                                                                                            \
    .globl tohost;                                                                                           \
    tohost:                                                                                                  \
    .word 0, 0;                                                                                              \
    .section .text.init, "ax";                                                                               \
    .globl _start;                                                                                           \
    _start:                                                                                                  \
    la sp, test_stack_top;                                                                                   \
    li TESTNUM, 0;

#undef TEST_END
#define TEST_END                                                                                             \
    pass:                                                                                                    \
    li a0, 0;                                                                                                \
    li a7, 93;                                                                                               \
    ecall;                                                                                                   \
    fail:                                                                                                    \
    mv a0, TESTNUM;                                                                                          \
    li a7, 93;                                                                                               \
    ecall;                                                                                                   \
    .section .bss;                                                                                           \
    .balign 16;                                                                                              \
    .space 4096;                                                                                             \
    test_stack_top:
#endif

#endif
