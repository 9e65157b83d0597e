#!/usr/bin/env python3
"""`pulpsim run --trace FILE`: one line per retired instruction.

- Cycles: on the hazard sequences of tests/timing/sequences.S, each line comes as many cycles after the one
  before it as the CV32E40P pipeline rules say (the costs timing_test.cpp derives, split per instruction), with
  each stall on the instruction that pays it; and for every case the trace agrees with what the program
  measures itself with mcycle.
- Completeness: each core has as many lines as the report counts instructions, and its stall columns add up
  to the report's (but the sleep after its last instruction).
- Filters (8-core cluster): --trace-cores keeps exactly those cores' lines, --trace-window exactly the lines
  issued inside it, --trace-region exactly the lines the report counts in the region, each as in the full trace.
- Bad input (a bad window, a core that does not exist, an unwritable path, an unknown region, a filter
  without --trace): exit 2, one line, no file. A simulation error keeps what was traced and says why it ended;
  so does SIGINT or SIGTERM mid-run, which writes no report.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, fresh_dir  # noqa: E402
from rv32_elf import JUMP_BACK_4, addi, segment, write_program  # noqa: E402

LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9a-f]{8})\s+(\S+)\s+([0-9a-f]{8}|[0-9a-f]{4})\s+(.*)$")

# Per hazard case of sequences.S (index i stores its cost in results[i]): the instructions between the two
# `csrr mcycle` as (mnemonic, stalls charged to it, cycles from it to the next line). A stall an instruction
# waits before issuing is on its own line (load_use, fpu_dependency); the cycles an instruction takes beyond
# its first are on its line too (multi_cycle of mulh, div and split accesses, control of taken branches and
# jumps). Costs as timing_test.cpp derives them from the CV32E40P manual: load 1 (+1 for a dependent next
# instruction), taken branch 3, jump 2, +1 for a 32-bit target at pc % 4 == 2, jalr +1 after its operand's
# producer, mulh 5, div 3 + leading zeros, fdiv/fsqrt 19 inexact, 6 + ceil(f/2) exact, 3 special, 5 overflow;
# a CSR instruction one cycle after the result of an FP operation with latency 2 or more; a trap 4 (5 for an
# illegal instruction that is not a CSR access), mret 5.
ADDI1 = ("addi", {}, 1)
NESTED_INNER = [("cv.setupi", {}, 1)] + [ADDI1] * 6 + [ADDI1, ADDI1]


def divide(mnemonic, cycles):
    return [(mnemonic, {"multi_cycle": cycles - 1}, cycles)]


def deferred_write(user):
    """fdiv, 3 nops, lw, nop: the result's write waits for the load's response, `user` a cycle for it."""
    head = [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("lw", {}, 1), ("nop", {}, 2)]
    return head + [(user, {"fpu_dependency": 1}, 1)] + [ADDI1] * 10


def loop_with_trap(body, rounds=3):
    """A hardware loop of `rounds` over `body`, whose trapping instruction (it retires nothing: no line)
    enters trap_return, which sets mepc (4) and returns (mret, 5). In `body`, ("trap", {}, entry) stands for
    it, with its entry's cycles (0: an ecall's 4), and a line that ends a round with a refetch has it as
    {"control": 1}, which the last round leaves out."""
    lines = [("cv.setupi", {}, 1)]
    for r in range(rounds):
        for mnemonic, stalls, cycles in body:
            if mnemonic == "trap":
                entry = cycles or 4
                lines[-1] = lines[-1][:2] + (lines[-1][2] + entry,)
                lines += [("csrw", {"control": entry, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)]
            elif r == rounds - 1 and stalls.get("control"):
                lines.append((mnemonic, {}, cycles - 1))
            else:
                lines.append((mnemonic, stalls, cycles))
    return lines


def fp_then_use(mnemonic, latency, user="fadd.s"):
    return [(mnemonic, {}, latency), (user, {"fpu_dependency": latency - 1} if latency > 1 else {}, 1)]


def trapped(entry):
    """A trap `entry` cycles long: the trapping instruction retires nothing, so the opening csrr's next line is
    the handler's first, with the trap's cycles as its control stall; the handler sets mepc (4) and returns
    (mret, 5)."""
    return ("trap", entry, [("csrw", {"control": entry, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)])


CASES = {
    0: [],
    1: [ADDI1],
    2: [("lw", {}, 1), ADDI1],
    3: [("lw", {}, 2), ("addi", {"load_use": 1}, 1)],  # the load's user: 2 cycles after it, load_use:1
    4: [("bnez", {}, 1)],
    5: [("beqz", {"control": 2}, 3)],
    6: [("beqz", {"control": 3}, 4)],
    7: [("j", {"control": 1}, 2)],
    8: [("j", {"control": 2}, 3)],
    9: [("jr", {"control": 1}, 2)],
    10: [("mv", {}, 2), ("jr", {"jump_register": 1, "control": 1}, 2)],  # jr waits in ID, then 2
    11: [("mul", {}, 1)],
    12: [("mulh", {"multi_cycle": 4}, 5)],
    13: [("mulh", {"multi_cycle": 4}, 5), ADDI1],
    14: divide("div", 34), 15: divide("divu", 3), 16: divide("div", 35), 17: divide("div", 32),
    18: [("fadd.s", {}, 1), ("fadd.s", {}, 1)],
    19: [("fmul.s", {}, 1), ("fmadd.s", {}, 1), ("fmadd.s", {}, 1)],
    20: fp_then_use("fdiv.s", 19),
    21: fp_then_use("fdiv.s", 6),
    22: [("fdiv.s", {}, 1), ("addi", {}, 19)],  # the closing csrr waits for the division: 19 + 1
    23: fp_then_use("fdiv.s", 19),  # an independent FP instruction waits for the busy div/sqrt unit
    24: [("flw", {}, 2), ("fadd.s", {"load_use": 1}, 1)],
    25: [("csrr", {}, 1)],
    26: [("lw", {"multi_cycle": 1}, 2)],
    27: fp_then_use("fsqrt.s", 19),
    28: [("cv.setupi", {}, 1)] + [ADDI1] * 30,  # 10 x 3, the loop-back costs nothing
    29: [("cv.setupi", {}, 1), ADDI1, ADDI1, ("lw", {}, 2)]
        + [("addi", {"load_use": 1}, 1), ADDI1, ("lw", {}, 2)] * 2
        + [("addi", {"load_use": 1}, 1), ADDI1, ("lw", {}, 1)],
    30: [("cv.setupi", {}, 1)] + NESTED_INNER * 3,
    31: [("vfmul.h", {}, 1), ("vfmac.h", {}, 1), ("vfmac.h", {}, 1)],
    32: [("fadd.h", {}, 1), ("fadd.h", {}, 1)],
    33: [("vfdotpex.s.h", {}, 1), ("vfdotpex.s.h", {}, 1)],
    34: fp_then_use("fdiv.h", 19),
    35: fp_then_use("vfdiv.h", 19),
    36: fp_then_use("vfdiv.h", 6),
    37: [("vfcpka.h.s", {}, 1), ("vfadd.h", {}, 1)],
    38: [("lw", {"multi_cycle": 1}, 3), ("addi", {"load_use": 1}, 1)],  # split: 2 cycles, its user 1 more
    39: [("lh", {"multi_cycle": 1}, 3), ("addi", {"load_use": 1}, 1)],
    40: [("lhu", {}, 2), ("addi", {"load_use": 1}, 1)],
    41: [("lw", {"multi_cycle": 1}, 2), ADDI1],
    42: [("flw", {"multi_cycle": 1}, 3), ("fadd.s", {"load_use": 1}, 1)],
    43: divide("div", 34), 44: divide("rem", 33), 45: divide("div", 32), 46: divide("div", 17),
    47: divide("divu", 3), 48: divide("div", 33),
    49: fp_then_use("fdiv.s", 7), 50: fp_then_use("fdiv.s", 8), 51: fp_then_use("fdiv.s", 3),
    52: fp_then_use("fsqrt.s", 7), 53: fp_then_use("fsqrt.s", 6), 54: fp_then_use("fdiv.s", 5),
    55: [("fdiv.s", {"multi_cycle": 1}, 8), ("fadd.s", {"fpu_dependency": 6}, 1)],  # held to normalise
    56: [("fdiv.s", {}, 19), ("fdiv.s", {"fpu_dependency": 18}, 19), ("fdiv.s", {"fpu_dependency": 18}, 17),
         ("fadd.s", {"fpu_dependency": 16}, 1)],
    # A CSR instruction waits until one cycle after an FP result of latency 2 or more is ready.
    57: [("fdiv.s", {}, 20), ("csrr", {"fpu_dependency": 19}, 1)],
    58: [("fdiv.s", {}, 7), ("csrr", {"fpu_dependency": 6}, 1)],
    59: [("fdiv.s", {}, 19), ("fdiv.s", {"fpu_dependency": 18}, 20)],
    60: [("fadd.s", {}, 1), ("fmin.s", {}, 1)],
    61: [("fmin.s", {}, 1), ("fadd.s", {}, 1)],
    62: [("fadd.s", {}, 1)] * 4,
    63: [("fadd.s", {}, 1), ("fdiv.s", {}, 20)],
    # Fences: 4 cycles; jalr with rd = rs1 one more; a write of frm flushes like the trap CSRs.
    64: [("fence", {"control": 3}, 4)],
    65: [("fence.i", {"control": 3}, 4)],
    66: [("sw", {}, 1), ("fence", {"control": 3}, 4)],
    67: [("mv", {}, 2), ("jalr", {"jump_register": 2, "control": 1}, 3)],
    68: [("jalr", {"jump_register": 1, "control": 1}, 3)],
    69: [("fsrm", {"multi_cycle": 3}, 4)],
    70: [("frrm", {}, 1)],
    71: [("fsflags", {}, 1)],
    72: fp_then_use("fdiv.s", 18), 73: fp_then_use("fdiv.s", 6), 74: fp_then_use("fdiv.s", 7),
    75: fp_then_use("fdiv.s", 6),
    76: trapped(4), 77: trapped(4), 78: trapped(5), 79: trapped(4),
    80: [("mret", {"control": 4}, 5)],
    81: trapped(5),
    # A div/sqrt result takes the ALU write port in the EX cycle of the instruction issued 5 cycles after it.
    82: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("nop", {"fpu_dependency": 1}, 2)] + [("nop", {}, 1)] * 2,
    83: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("lw", {}, 1), ("nop", {}, 1), ("sw", {}, 1)]
        + [("nop", {}, 1)] * 2,
    84: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("sw", {}, 1)] + [("nop", {}, 1)] * 3,
    85: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("mulh", {"multi_cycle": 4}, 5),
                                                      ("nop", {"fpu_dependency": 1}, 2)],
    # A jump right behind an instruction held in EX has its target fetched: one refetch cycle less.
    86: [("div", {"multi_cycle": 31}, 32), ("j", {}, 1)],
    87: [("mulh", {"multi_cycle": 4}, 5), ("jalr", {}, 1)],
    88: [("lw", {"multi_cycle": 1}, 2), ("j", {}, 1)],
    89: [("lw", {"multi_cycle": 1}, 3), ("jal", {"load_use": 1}, 1)],
    90: [("divu", {"multi_cycle": 33}, 35), ("jr", {"jump_register": 1, "control": 1}, 2)],
    91: [("fdiv.s", {}, 6), ("fadd.s", {"fpu_dependency": 5}, 1), ("j", {}, 1)],
    92: [("div", {"multi_cycle": 31}, 32), ("jr", {}, 1)],
    93: [("lw", {"multi_cycle": 1}, 2), ("j", {"control": 1}, 2), ("add", {}, 1), ("nop", {}, 1)],
    # A CSR instruction after a taken branch holds its target back while an FP result is due.
    94: [("fdiv.s", {}, 1), ("beqz", {"control": 6}, 7), ("nop", {}, 1)],
    95: [("fdiv.s", {}, 1), ("beqz", {"control": 2}, 3), ("nop", {}, 3)],
    96: [("fdiv.s", {}, 1), ("beqz", {"control": 6}, 7)] + [("nop", {}, 1)] * 8,
    # A division by a denormal stays a cycle longer in EX; its result (8) still counts from its first.
    97: [("fdiv.s", {"multi_cycle": 1}, 2)] + [ADDI1] * 5 + [("addi", {"fpu_dependency": 1}, 2)] + [ADDI1] * 4
        + [("fdiv.s", {"multi_cycle": 1}, 9)],
    98: [("fdiv.s", {"multi_cycle": 1}, 2), ("j", {}, 1)] + [ADDI1] * 4 + [("addi", {"fpu_dependency": 1}, 2)]
        + [ADDI1] * 5 + [("fdiv.s", {"multi_cycle": 1}, 9)],
    99: [("fsqrt.s", {}, 1)] + [ADDI1] * 9 + [("addi", {}, 9), ("fsqrt.s", {"fpu_dependency": 8}, 20)],
    # An instruction writing the register an FP result in flight will write waits for it, as a reader.
    100: [("fdiv.s", {}, 7), ("flw", {"fpu_dependency": 6}, 1)] + [ADDI1] * 10,
    101: [("fdiv.s", {}, 1), ("flw", {}, 1)] + [ADDI1] * 4 + [("addi", {"fpu_dependency": 1}, 2)] + [ADDI1] * 5,
    102: [("fadd.s", {}, 1), ("flw", {}, 1)] + [ADDI1] * 10,
    103: [("fmv.x.w", {}, 1), ("li", {}, 1)] + [ADDI1] * 10,
    104: [("fmv.x.w", {}, 1), ("li", {}, 1)] + [ADDI1] * 10,
    # A class-3 write that waits for a load's response returns the result a cycle later to everyone.
    **{i: deferred_write(user) for i, user in ((105, "fadd.s"), (106, "fadd.s"), (107, "fsw"))},
    108: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("nop", {"fpu_dependency": 1}, 2), ("fadd.s", {}, 1)]
    + [ADDI1] * 10,
    # A jalr in EX when that write comes is not held (its refetch takes the write); a jal is.
    109: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [ADDI1, ("jr", {"control": 1}, 2)] + [ADDI1] * 11,
    110: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [ADDI1, ("j", {"control": 1, "fpu_dependency": 1}, 3)]
    + [ADDI1] * 11,
    111: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("jalr", {"control": 1}, 2)] + [ADDI1] * 11,
    # An ALU-port write of a load's destination right behind it waits as a reader would.
    112: [("lw", {}, 2), ("addi", {"load_use": 1}, 1)],
    113: [("lw", {}, 2), ("csrr", {"load_use": 1}, 1)],
    114: [("lw", {}, 2), ("mulh", {"load_use": 1, "multi_cycle": 4}, 5)],
    115: [("lw", {"multi_cycle": 1}, 3), ("addi", {"load_use": 1}, 1)],
    116: [("lw", {}, 1), ("fmv.x.w", {}, 1)],
    117: [("lw", {}, 2), ("jal", {"load_use": 1}, 1)],
    # A class-3 write kept out of a mulh goes into the next instruction's EX: a store is not held.
    118: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("mulh", {"multi_cycle": 4}, 5), ("sw", {}, 1), ("nop", {}, 1)],
    119: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("mulh", {"multi_cycle": 4}, 7),
                                                       ("csrr", {"fpu_dependency": 2}, 1), ("nop", {}, 1)],
    120: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 3 + [("sw", {}, 1), ("mulh", {"multi_cycle": 4}, 5),
                                                       ("nop", {"fpu_dependency": 1}, 2)],
    # A jalr waiting in ID behind the instruction in EX keeps the write out: that one is not held.
    121: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("mv", {}, 2), ("jr", {"jump_register": 1, "control": 1}, 2),
                                                       ("nop", {}, 1)],
    122: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [ADDI1, ("jr", {"control": 1}, 2), ("nop", {}, 1)],
    123: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [ADDI1, ("jr", {"control": 1}, 2), ("fadd.s", {}, 1)],
    # Fences write no register: not held by the write.
    124: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("fence", {"control": 3}, 4), ("nop", {}, 1)],
    125: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 4 + [("fence.i", {"control": 3}, 4), ("nop", {}, 1)],
    # A CSR instruction after a taken branch holds a straddling target back, which then takes two fetches.
    126: [("fdiv.s", {}, 1), ("beqz", {"control": 7}, 8), ADDI1, ("nop", {}, 1)],
    # Jumps linking into a register an FP operation writes: single-cycle results hold nothing.
    127: [("feq.s", {}, 1), ("jal", {"control": 1}, 2), ("nop", {}, 1)],
    128: [("feq.s", {}, 1), ("nop", {}, 1), ("jal", {"control": 1}, 2), ("nop", {}, 1)],
    129: [("feq.s", {}, 1), ("auipc", {}, 1), ("addi", {}, 2), ("jalr", {"jump_register": 1, "control": 1}, 2),
          ("nop", {}, 1)],
    130: [("feq.s", {}, 1), ("jalr", {"control": 1}, 2), ("nop", {}, 1)],
    131: [("feq.s", {}, 1), ("jal", {"control": 2}, 3), ADDI1, ("nop", {}, 1)],
    # After a status CSR, the jump back from a loop's end is a jump from ID: one refetch cycle, on the last
    # instruction's line.
    132: [("cv.setupi", {}, 1)] + [("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4), ("nop", {}, 1),
                                   ("nop", {"control": 1}, 2)] * 2
         + [("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4), ("nop", {}, 1), ("nop", {}, 1)],
    133: [("cv.setupi", {}, 1)] + [("nop", {}, 1), ("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4),
                                   ("nop", {"control": 1}, 2)] * 2
         + [("nop", {}, 1), ("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4), ("nop", {}, 1)],
    134: [("cv.setupi", {}, 1)] + [("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4), ("lw", {}, 2),
                                   ("addi", {"load_use": 1}, 1)] * 3,
    135: [("cv.setupi", {}, 1)] + [("nop", {}, 1), ("nop", {}, 1), ("csrr", {"multi_cycle": 3}, 4),
                                   ("csrr", {"multi_cycle": 3}, 4)] * 3,
    136: [("cv.setupi", {}, 1)] + [("csrr", {"multi_cycle": 3}, 4), ("nop", {}, 1), ("nop", {}, 1),
                                   ("nop", {}, 1)] * 3,
    # The same after an mret; an mret to the loop's end leaves the loop after one round.
    137: loop_with_trap([("nop", {}, 1), ("trap", {}, 0), ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    138: loop_with_trap([("nop", {}, 1), ("nop", {}, 1), ("trap", {}, 0), ("nop", {"control": 1}, 2)]),
    139: loop_with_trap([("trap", {}, 0), ("nop", {}, 1), ("nop", {}, 1), ("nop", {}, 1)]),
    140: loop_with_trap([("nop", {}, 1), ("nop", {}, 1), ("nop", {}, 1), ("trap", {}, 0)], rounds=1),
    # An illegal instruction in DECODE_HWLOOP: the handler 4 cycles after its first cycle in ID (not 5 for one
    # the decoder rejects, no load-use), not before ID lets it go (a CSR access behind fsqrt: 19 + 1), 3
    # after a div ends in EX, 2 after an FP operation the div/sqrt unit held there issues. The cycles it
    # waited in ID are the trap's.
    141: loop_with_trap([("nop", {}, 1), ("trap", {}, 4), ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    142: loop_with_trap([("lw", {}, 1), ("trap", {}, 4), ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    143: loop_with_trap([("fsqrt.s", {}, 1), ("trap", {}, 20), ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    144: loop_with_trap([("div", {"multi_cycle": 33}, 34), ("trap", {}, 3), ("nop", {}, 1),
                         ("nop", {"control": 1}, 2)]),
    145: loop_with_trap([("fdiv.s", {}, 7), ("fadd.s", {"fpu_dependency": 6}, 1), ("trap", {}, 2),
                         ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    # The first round's trap in DECODE (4); later rounds wait for the fsqrt before (18), and so does the
    # closing csrr.
    146: [("cv.setupi", {}, 5), ("csrw", {"control": 4, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)]
         + [("fsqrt.s", {}, 1), ("nop", {}, 1), ("nop", {}, 19),
            ("csrw", {"control": 18, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)] * 2
         + [("fsqrt.s", {}, 1), ("nop", {}, 1), ("nop", {}, 18)],
    147: loop_with_trap([("fsqrt.s", {}, 1), ("nop", {}, 1), ("trap", {}, 19), ("nop", {"control": 1}, 2)]),
    # A loop of count 1 is decoded in DECODE: the CSR access waits in ID for the fsqrt, then traps (4).
    148: [("cv.setupi", {}, 1), ("fsqrt.s", {}, 24),
          ("csrw", {"control": 4, "fpu_dependency": 19, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5),
          ("nop", {}, 1), ("nop", {}, 1)],
    # The div/sqrt result, held back by the mulh, holds the jal behind it a cycle in EX; the jump at its
    # target then needs no refetch (149), unless the first jal paid its own (150).
    149: [("fdiv.s", {}, 1), ("nop", {}, 1), ("li", {}, 1), ("mulhsu", {"multi_cycle": 4}, 5),
          ("j", {"fpu_dependency": 1}, 2), ("j", {}, 1), ("nop", {}, 1)],
    150: [("fdiv.s", {}, 1), ("nop", {}, 1), ("nop", {}, 1), ("nop", {}, 1),
          ("j", {"control": 1, "fpu_dependency": 1}, 3), ("j", {"control": 1}, 2), ("nop", {}, 1)],
    # The rs2 field of a .b insert or extract at index 2 or 3 is x1, which waits for the load to ra.
    151: [("lbu", {}, 2), ("cv.insert.b", {"load_use": 1}, 1)],
    152: [("lbu", {}, 1), ("cv.insert.b", {}, 1)],
    153: [("lw", {}, 2), ("cv.extractu.b", {"load_use": 1}, 1)],
    154: [("fcvt.w.s", {}, 1), ("fence", {"control": 3}, 4)],
    155: [("fcvt.w.s", {}, 1), ("fence", {"control": 3}, 4)],
    156: [("fcvt.w.s", {}, 1), ("fence", {"control": 3}, 4)],
    157: [("fcvt.w.s", {}, 1), ("cv.setupi", {}, 1)] + [ADDI1] * 12,
    158: [("lw", {}, 1), ("fence", {"control": 3}, 4)],
    159: [("lbu", {}, 2), ("cv.shufflei0.sci.b", {"load_use": 1}, 1)],
    160: [("lw", {}, 2), ("cv.shuffle.sci.h", {"load_use": 1}, 1)],
    161: [("lw", {}, 1), ("cv.shuffle.sci.h", {}, 1)],
    162: [("fcvt.w.s", {}, 1), ("cv.insert.b", {}, 1)] + [("nop", {}, 1)] * 4,
    163: [("fcvt.w.s", {}, 1), ("cv.shufflei0.sci.b", {}, 1)] + [("nop", {}, 1)] * 4,
    164: [("fcvt.w.s", {}, 1), ("cv.extractu.b", {}, 1)] + [("nop", {}, 1)] * 4,
    # At FPU latency 0 the rs2 field of a conversion or fclass finds no FP result in flight, and no load holds it.
    **{i: [(first, {}, 1), (second, {}, 1)] + [("nop", {}, 1)] * 3
       for i, first, second in [(165, "fmv.s", "fcvt.s.w"), (166, "fmv.s", "fcvt.s.wu"), (167, "fmv.s", "fcvt.s.wu"),
                                (168, "fmv.s", "fclass.s"), (169, "fmv.s", "fmv.x.w"), (170, "flw", "fcvt.s.w"),
                                (171, "fmv.s", "fcvt.w.s"), (172, "fmv.s", "fcvt.s.h")]},
    # A load to x0 holds what writes x0 through the ALU port (as 112-117), a jump too (its pc set in its first
    # cycle in ID: no refetch), not a reader of x0.
    173: [("lw", {}, 2), ("nop", {"load_use": 1}, 1)],
    174: [("lw", {}, 2), ("mul", {"load_use": 1}, 1)],
    175: [("lw", {}, 2), ("csrw", {"load_use": 1}, 1)],
    176: [("lw", {"multi_cycle": 1}, 3), ("nop", {"load_use": 1}, 1)],
    177: [("lw", {}, 1), ("li", {}, 1)],
    178: [("lw", {}, 2), ("j", {"load_use": 1}, 1)],
    179: [("fle.s", {}, 1), ("lw", {}, 2), ("jal", {"load_use": 1}, 1), ("nop", {}, 1)],
    180: [("fle.s", {}, 1), ("lw", {}, 1), ("j", {"control": 1}, 2), ("nop", {}, 1)],
    # With single-cycle FP results no instruction waits behind an FP operation writing x0.
    181: [("fclass.s", {}, 1), ("lui", {}, 1)] + [("beq", {}, 1)] * 3,
    182: [("fclass.s", {}, 1), ("sw", {}, 1)] + [("beq", {}, 1)] * 3,
    183: [("fclass.s", {}, 1), ("sw", {}, 1)] + [("beq", {}, 1)] * 3,
    184: [("fclass.s", {}, 1), ("bnez", {"control": 2}, 3)] + [("beq", {}, 1)] * 3,
    185: [("fclass.s", {}, 1), ("jal", {"control": 1}, 2)] + [("beq", {}, 1)] * 3,
    186: [("fclass.s", {}, 1), ("cv.mac", {}, 1)] + [("beq", {}, 1)] * 3,
    187: [("fclass.s", {}, 1), ("fcvt.s.w", {}, 1)] + [("beq", {}, 1)] * 3,
    188: [("feq.s", {}, 1), ("fmul.s", {}, 1)] + [("beq", {}, 1)] * 3,
    189: [("feq.s", {}, 1), ("fadd.s", {}, 1)] + [("beq", {}, 1)] * 3,
    190: [("fmv.x.w", {}, 1), ("nop", {}, 1)] + [("beq", {}, 1)] * 3,
    # The jalr in EX a cycle after its wait in ID holds the fdiv's write into its refetch: the csrr waits 1.
    191: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 2 + [("mv", {}, 2), ("jalr", {"jump_register": 1, "control": 1}, 3),
                                                       ("csrr", {"fpu_dependency": 1}, 1)],
    192: [("fdiv.s", {}, 1)] + [("nop", {}, 1)] * 2 + [("mv", {}, 2), ("jr", {"jump_register": 1, "control": 1}, 3),
                                                       ("csrr", {"fpu_dependency": 1}, 1)],
    # After the mret, the last instruction waits in ID behind the mulhu: no refetch at the jump back.
    193: loop_with_trap([("nop", {}, 1), ("trap", {}, 0), ("mulhu", {"multi_cycle": 4}, 5),
                         ("sh", {"multi_cycle": 1}, 2)]),
    194: loop_with_trap([("nop", {}, 1), ("trap", {}, 0), ("mulhu", {"multi_cycle": 4}, 5),
                         ("mulh", {"multi_cycle": 4}, 5)]),
    # At the default latencies the fadd is not held: the decoder-illegal instruction as in 141.
    195: loop_with_trap([("fmin.s", {}, 1), ("fadd.s", {}, 1), ("trap", {}, 4), ("nop", {}, 1),
                         ("nop", {"control": 1}, 2)]),
    # At the default latencies the fmul (latency 1) waits a cycle for the fdiv by zero, the fadd for nothing.
    196: loop_with_trap([("fdiv.s", {}, 1), ("nop", {}, 2), ("fmul.s", {"fpu_dependency": 1}, 1), ("trap", {}, 3),
                         ("nop", {}, 1), ("nop", {"control": 1}, 2)]),
    197: loop_with_trap([("fmin.s", {}, 1), ("nop", {}, 1), ("fadd.s", {}, 1), ("trap", {}, 4), ("nop", {}, 1),
                         ("nop", {"control": 1}, 2)]),
    # The single-cycle fmul's result returns before the illegal instruction's EX cycle: 5 to the handler.
    198: [("fmul.s", {}, 1 + 5), ("csrw", {"control": 5, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)],
    # Single-cycle results: the illegal instructions wait for nothing.
    199: [("fmul.s", {}, 1 + 5), ("csrw", {"control": 5, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)],
    200: [("fcvt.w.s", {}, 1 + 5), ("csrw", {"control": 5, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)],
    # The fadd with frm reserved traps without waiting for the fdiv.
    201: [("fdiv.s", {}, 1 + 5), ("csrw", {"control": 5, "multi_cycle": 3}, 4), ("mret", {"control": 4}, 5)],
    # In DECODE_HWLOOP the fadd's wait for the fsqrt's result ends with decoding: 4 to trap_after_nops, whose
    # 14th nop is held a cycle as the fsqrt's result takes the write port.
    202: [("cv.setupi", {}, 1)] + [
        line
        for r in range(3)
        for line in [("fsqrt.s", {}, 1 + 4), ("nop", {"control": 4}, 1)] + [("nop", {}, 1)] * 12
        + [("nop", {"fpu_dependency": 1}, 2)] + [("nop", {}, 1)] * 2
        + [("csrw", {"multi_cycle": 3}, 4), ("mret", {"control": 4}, 5), ("nop", {}, 1)]
        + [("nop", {"control": 1}, 2) if r < 2 else ("nop", {}, 1)]
    ],
}


def parse(path):
    """The trace's lines as dicts, and its comment lines."""
    lines, comments = [], []
    with open(path) as f:
        for text in f:
            text = text.rstrip("\n")
            if text.startswith("#"):
                comments.append(text)
                continue
            m = LINE.match(text)
            if not m:
                raise ValueError(f"{path}: malformed line: {text!r}")
            parts = re.split(r"\s{2,}", m.group(6).strip())
            line = {"cycle": int(m.group(1)), "core": int(m.group(2)), "pc": int(m.group(3), 16),
                    "where": m.group(4), "raw": m.group(5), "insn": parts[0], "writes": {}, "stalls": {},
                    "text": text}
            for part in parts[1:]:
                if part.startswith("stall "):
                    line["stalls"] = {k: int(v) for k, v in (s.split(":") for s in part.split()[1:])}
                else:
                    line["writes"] = dict(w.split("=") for w in part.split())
            lines.append(line)
    return lines, comments


def mnemonic(line):
    return line["insn"].split()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--timing-elf", required=True, help="timing_sequences.elf (tests/timing/sequences.S)")
    ap.add_argument("--cluster-elf", required=True, help="trace_cluster.elf (tests/cli/trace_cluster.c)")
    ap.add_argument("--illegal-elf", required=True, help="bad_illegal_instruction.elf")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def run(elf, *extra, trace=None, report=None):
        cmd = [args.sim, "run", "-q", *extra]
        if trace:
            cmd += ["--trace", trace]
        if report:
            cmd += ["--report-json", report]
        return subprocess.run(cmd + [elf], capture_output=True, text=True)

    # ---- cycles of the hazard sequences (bare mode) ----
    t, rep = os.path.join(w, "timing.trace"), os.path.join(w, "timing.json")
    r = run(args.timing_elf, "--bare", trace=t, report=rep)
    check(r.returncode == 0, f"the timing sequences run traced ({r.stderr.strip()[:200]})")
    lines, _ = parse(t)
    report = json.load(open(rep))
    check(len(lines) == report["cores"][0]["instret"],
          f"bare: one line per retired instruction ({len(lines)} lines, report {report['cores'][0]['instret']})")
    # Div/sqrt decodes with no destination slot (its handler scoreboards the result): its line shows the write too.
    fp_results = [ln for ln in lines if mnemonic(ln) in ("fdiv.s", "fsqrt.s", "fmadd.s", "fadd.s")]
    unshown = [ln["text"] for ln in fp_results if ln["insn"].split()[1].rstrip(",") not in ln["writes"]]
    check(any(mnemonic(ln) == "fdiv.s" for ln in fp_results) and not unshown,
          f"every FP operation's line shows the register it writes ({len(unshown)} do not: {unshown[:2]})")
    # mcycle counts from the cycle after the csrw that enables it, which takes effect at the end of its own.
    enabled = next((ln["cycle"] + 1 for ln in lines if ln["insn"] == "csrw mcountinhibit, zero"), None)
    mcycle = [ln for ln in lines if re.match(r"csrr t\d, mcycle$", ln["insn"])]
    check(enabled is not None and mcycle and
          all(int(next(iter(ln["writes"].values())), 16) == ln["cycle"] - enabled for ln in mcycle),
          f"every csrr of mcycle reads the cycles from the enabling write to its line ({len(mcycle)} reads)")
    cases, i = {}, 0
    while i < len(lines):
        if lines[i]["insn"] == "csrr t0, mcycle":
            j = next(k for k in range(i + 1, len(lines)) if lines[k]["insn"] == "csrr t1, mcycle")
            store = lines[j + 2]  # csrr t1; sub t1, t1, t0; sw t1, 4*i(s0)
            m = re.match(r"sw t1, (\d+)\(s0\)$", store["insn"])
            if m:
                cases[int(m.group(1)) // 4] = (lines[i:j + 1], int(next(iter(store["writes"].values())), 16))
            i = j + 1
        else:
            i += 1
    check(len(cases) == len(CASES), f"{len(cases)} hazard cases found in the trace ({len(CASES)} expected)")
    measured_agree = all(span[-1]["cycle"] - span[0]["cycle"] == stored for span, stored in cases.values())
    check(measured_agree, "every case: its lines span the cycles the program measured with mcycle")
    for index, expected in sorted(CASES.items()):
        if index not in cases:
            continue
        span = cases[index][0]
        opening = 4  # csrr of mcycle: 4 cycles
        if expected and expected[0] == "trap":
            opening += expected[1]
            expected = expected[2]
        full = [("csrr", {"multi_cycle": 3}, opening)] + expected
        got = [(mnemonic(ln), ln["stalls"], nxt["cycle"] - ln["cycle"]) for ln, nxt in zip(span, span[1:])]
        if not check(got == full, f"case {index}: per-line mnemonics, stalls and cycles to the next line"):
            print("    expected", full)
            print("    traced  ", got)

    # ---- the cluster: completeness and filters ----
    full_path, rep = os.path.join(w, "cluster.trace"), os.path.join(w, "cluster.json")
    plain = os.path.join(w, "plain.json")
    r = run(args.cluster_elf, trace=full_path, report=rep)
    check(r.returncode == 0, f"the cluster program runs traced ({r.stderr.strip()[:200]})")
    run(args.cluster_elf, report=plain)
    report = json.load(open(rep))
    check(report["cores"] == json.load(open(plain))["cores"], "tracing changes no cycle count (every core)")
    full, _ = parse(full_path)
    for i, core in enumerate(report["cores"]):
        mine = [ln for ln in full if ln["core"] == i]
        sums = {k: sum(ln["stalls"].get(k, 0) for ln in mine) for k in core["stalls"]}
        check(len(mine) == core["instret"] and
              all(sums[k] == v for k, v in core["stalls"].items() if k != "sleep") and
              sums["sleep"] <= core["stalls"]["sleep"],
              f"core {i}: {len(mine)} lines for {core['instret']} instructions; stall columns add up to the report")

    def traced(*extra):
        path = os.path.join(w, "filtered.trace")
        r = run(args.cluster_elf, *extra, trace=path)
        return parse(path)[0] if r.returncode == 0 else None

    def same(a, b):
        return a is not None and [x["text"] for x in a] == [x["text"] for x in b]

    only1 = traced("--trace-cores", "1")
    check(only1 is not None and only1 and all(ln["core"] == 1 for ln in only1) and
          same(only1, [ln for ln in full if ln["core"] == 1]),
          "--trace-cores 1: only core 1's lines, as in the full trace")
    some = traced("--trace-cores", "0,3-5")
    check(same(some, [ln for ln in full if ln["core"] in (0, 3, 4, 5)]),
          "--trace-cores 0,3-5: exactly cores 0, 3, 4 and 5")
    cycles = sorted(ln["cycle"] for ln in full)
    lo, hi = cycles[len(cycles) * 2 // 5], cycles[len(cycles) * 3 // 5]
    window = traced("--trace-window", f"{lo}:{hi}")
    check(same(window, [ln for ln in full if lo <= ln["cycle"] < hi]) and window,
          f"--trace-window {lo}:{hi}: exactly the lines issued in [{lo}, {hi})")
    region = traced("--trace-region", "sums")
    sums = next(x for x in report["regions"] if x["name"] == "sums")
    if check(region is not None and len(region) == sums["instret"] and len(region) > 0,
             f"--trace-region sums: as many lines as the report's region instructions ({sums['instret']})"):
        start = next(k for k, ln in enumerate(full) if ln["text"] == region[0]["text"])
        block = full[start:start + len(region)]
        after = full[start + len(region)]
        check(same(region, block) and mnemonic(block[0]) == "ecall" and mnemonic(after) == "ecall" and
              after["core"] == block[0]["core"],
              "the region's lines are the full trace's from region_begin's ecall to the one before region_end's")
    both = traced("--trace-region", "sums", "--trace-cores", "2", "--trace-window", f"{lo}:")
    check(region is not None and same(both, [ln for ln in region if ln["core"] == 2 and ln["cycle"] >= lo]),
          "filters combine: region, core and an open-ended window")

    # A window past the run's end: an empty trace, and one warning saying why, as the views give one.
    beyond = os.path.join(w, "beyond.trace")
    end = report["cycles"]
    r = subprocess.run([args.sim, "run", "-q", "--trace", beyond, "--trace-window", f"{end + 1000}:",
                        args.cluster_elf], capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 0 and parse(beyond)[0] == [] and len(lines) == 1 and
          f"warning: the trace holds no instruction: no core retired one in cycles {end + 1000}.. (to the end) "
          f"(the run took {end} cycles)" in lines[0],
          f"--trace-window past the run's end: an empty trace and one warning saying why ({lines})")

    # ---- bad input: exit 2, one line, no file ----
    out = os.path.join(w, "bad.trace")
    for extra, what in [(["--trace", out, "--trace-window", "10:5"], "a window that ends before it starts"),
                        (["--trace", out, "--trace-window", "x:5"], "a window that is not numbers"),
                        (["--trace", out, "--trace-cores", "9"], "core 9 of 8"),
                        (["--trace", out, "--trace-cores", "1,,2"], "a malformed core list"),
                        (["--trace", out, "--trace-region", "no_such_region"], "an unknown region"),
                        (["--trace", os.path.join(w, "missing", "t.trace")], "a path in a missing folder"),
                        (["--trace", w], "a folder as the path"),
                        (["--trace", "/proc/pulpsim.trace"], "a folder that takes no new file"),
                        (["--trace-cores", "1"], "a filter without --trace")]:
        if os.path.exists(out):
            os.remove(out)
        r = subprocess.run([args.sim, "run", "-q", *extra, args.cluster_elf], capture_output=True, text=True)
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(err) == 1 and not r.stdout and not os.path.exists(out),
              f"{what}: exit 2, one line, no file ({err})")
    r = subprocess.run([args.sim, "run", "-q", "--trace", "/dev/null", args.cluster_elf], capture_output=True)
    check(r.returncode == 0, "--trace /dev/null is accepted")
    # /dev/stdout when standard output is a file: the trace goes in with the rest, nothing written before it or
    # beside it is lost (a second opening would cut the file and write over it at an offset of its own).
    both = os.path.join(w, "stdout.log")
    with open(both, "w") as f:
        f.write("EARLIER\n")
        f.flush()
        r = subprocess.run([args.sim, "run", "--trace", "/dev/stdout", args.cluster_elf], stdout=f,
                           stderr=subprocess.PIPE, text=True)
    text = open(both).read()
    traced = [line for line in text.splitlines() if re.match(r"\s+\d+\s+\d+\s+[0-9a-f]{8}\s", line)]
    plain = subprocess.run([args.sim, "run", args.cluster_elf], capture_output=True, text=True).stdout
    program_lines = [line for line in plain.splitlines() if line and not line.startswith(("==", "core", "region"))][:1]
    check(r.returncode == 0 and text.startswith("EARLIER\n") and "# pulpsim instruction trace of" in text
          and len(traced) > 1000 and "== pulpsim report:" in text and all(l in text for l in program_lines),
          f"--trace /dev/stdout into a file keeps what came before, the program's output, the trace and the report "
          f"({r.returncode}: {len(traced)} trace lines; {text[:80]!r})")

    # ---- a simulation error: what was traced stays, with the reason ----
    t = os.path.join(w, "illegal.trace")
    r = run(args.illegal_elf, "--bare", trace=t)
    lines, comments = parse(t) if os.path.exists(t) else ([], [])
    check(r.returncode == 3 and len(lines) == 1 and lines[0]["insn"] == "li a0, 1" and
          comments and comments[-1].startswith("# the run stopped: illegal instruction"),
          f"an illegal instruction: exit 3, the trace up to it and why it stopped ({comments[-1:] if comments else None})")

    # ---- an interrupt: like an error, the trace ends with why the run stopped; no report is written ----
    base = 0x80000000
    # It counts: a jump to itself alone would stop at once as a livelock.
    loop = write_program(os.path.join(w, "loop.elf"), [segment(base, [addi(10, 10, 1), JUMP_BACK_4], executable=True)],
                         base)
    for sig in (signal.SIGINT, signal.SIGTERM):
        t, rep = os.path.join(w, f"interrupted_{sig.name}.trace"), os.path.join(w, f"interrupted_{sig.name}.json")
        # A caller that ignores SIGINT (a background job of a script) would pass that on: the child takes the default.
        p = subprocess.Popen([args.sim, "run", "--bare", "-q", "--max-cycles", str(10**15), "--trace", t,
                              "--trace-window", ":1000", "--report-json", rep, loop], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        # The trace file is made just before the run starts.
        deadline = time.monotonic() + 30
        while not os.path.exists(t) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        lines, comments = parse(t) if os.path.exists(t) else ([], [])
        stopped = re.match(rf"# the run stopped: interrupted by {sig.name} at cycle (\d+)$", comments[-1]) if comments else None
        err_lines = err.strip().splitlines()
        check(p.returncode == -sig and stopped and lines and int(stopped.group(1)) > lines[-1]["cycle"]
              and not os.path.exists(rep) and len(err_lines) == 1 and f"interrupted by {sig.name}" in err_lines[0],
              f"{sig.name} mid-run: dies of it, {len(lines)} lines traced and a last line saying why "
              f"({comments[-1:]}), no report, one line on stderr ({err_lines})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
