#!/usr/bin/env python3
"""Checks the CORE-V hardware-loop macros of kernels/runtime/hwloop.h.

Default mode: assembles a generated .S snippet and compiles a C snippet that use every macro,
links them with ld.lld, disassembles with llvm-objdump and compares each emitted word with a word
encoded here, independently, from the CV32E40P v2 table:

    [31:20] uimmL  [19:15] rs1/uimmS  [14:12] 100  [11:8] funct4  [7] L  [6:0] 0101011

--lint-elf FILE: checks every hardware-loop setup found in FILE against the loop rules (aligned
setup/start/end, body of >= 3 instructions, no compressed instruction, branch or jump in it).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

OPCODE = 0x2B
FUNCT3 = 0b100
FUNCT4 = {
    "starti": 0,
    "start": 1,
    "endi": 2,
    "end": 3,
    "counti": 4,
    "count": 5,
    "setupi": 6,
    "setup": 7,
}
ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1"]
ABI += [f"a{i}" for i in range(8)] + [f"s{i}" for i in range(2, 12)] + ["t3", "t4", "t5", "t6"]


def regnum(name: str) -> int:
    if name == "fp":
        return 8
    if re.fullmatch(r"x\d+", name):
        return int(name[1:])
    return ABI.index(name)


def encode(funct4: int, loop: int, field_19_15: int, field_31_20: int) -> int:
    assert 0 <= funct4 < 16 and loop in (0, 1)
    assert 0 <= field_19_15 < 32 and 0 <= field_31_20 < 4096
    return (
        (field_31_20 << 20) | (field_19_15 << 15) | (FUNCT3 << 12) | (funct4 << 8) | (loop << 7) | OPCODE
    )


def run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(f"command failed: {' '.join(cmd)}\n{res.stdout}{res.stderr}")
        sys.exit(1)
    return res.stdout


def disassemble(objdump: str, elf: str):
    """Returns {address: (hex word text, mnemonic text)} of every instruction."""
    out = run([objdump, "-d", elf])
    insns = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{4}|[0-9a-f]{8})\s+(.*)$", line)
        if m:
            insns[int(m.group(1), 16)] = (m.group(2), m.group(3).strip())
    return insns


def symbols(nm: str, elf: str):
    out = run([nm, elf])
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


def build_snippet():
    """Returns (.S text, list of checks). A check is (label, kind, L, operand, target_label or imm)."""
    lines = [
        '#include "hwloop.h"',
        "    .section .text.init, \"ax\", @progbits",
        "    .globl _start",
        "_start:",
        "    .option push",
        "    .option norvc",
    ]
    checks = []
    n = 0

    def label():
        nonlocal n
        n += 1
        return f"chk{n}"

    def nops(count):
        for _ in range(count):
            lines.append("    addi x0, x0, 0")

    # Label-relative forms, forward distances of 1..1000 words.
    for kind in ("starti", "endi"):
        for loop in (0, 1):
            for dist in (1, 3, 31, 1000):
                lab = label()
                lines += [f"    .globl {lab}", f"    .globl {lab}_t", f"{lab}: cv_{kind} {loop}, {lab}_t"]
                nops(dist - 1)
                lines.append(f"{lab}_t:")
                checks.append((lab, kind, loop, None, f"{lab}_t"))
    # Register forms, all kinds of register names.
    for kind in ("start", "end", "count"):
        for loop in (0, 1):
            for reg in ("zero", "ra", "sp", "a0", "a7", "s11", "t6", "x0", "x17", "x31", "fp"):
                lab = label()
                lines += [f"    .globl {lab}", f"{lab}: cv_{kind} {loop}, {reg}"]
                checks.append((lab, kind, loop, reg, None))
    for loop in (0, 1):
        for count in (0, 1, 100, 2047, 2048, 4095):
            lab = label()
            lines += [f"    .globl {lab}", f"{lab}: cv_counti {loop}, {count}"]
            checks.append((lab, "counti", loop, None, count))
    # Setup forms: count and end together.
    for loop in (0, 1):
        for count, dist in ((1, 4), (16, 5), (4095, 31), (2048, 10)):
            lab = label()
            lines += [f"    .globl {lab}", f"    .globl {lab}_t"]
            lines.append(f"{lab}: cv_setupi {loop}, {count}, {lab}_t")
            nops(dist - 1)
            lines.append(f"{lab}_t:")
            checks.append((lab, "setupi", loop, count, f"{lab}_t"))
        for reg, dist in (("a2", 4), ("t0", 32), ("x31", 1000), ("s0", 4095)):
            lab = label()
            lines += [f"    .globl {lab}", f"    .globl {lab}_t"]
            lines.append(f"{lab}: cv_setup {loop}, {reg}, {lab}_t")
            nops(dist - 1)
            lines.append(f"{lab}_t:")
            checks.append((lab, "setup", loop, reg, f"{lab}_t"))
    lines.append("    .option pop")
    # cv_loop_begin after a compressed instruction: the macro must realign.
    for loop, begin, arg in ((0, "cv_loop_begin", "a3"), (1, "cv_loopi_begin", "7")):
        lab = label()
        lines += [
            "    c.nop",
            f"    {begin} {loop}, {arg}, {lab}_t",
            f"    .globl {lab}_body",
            f"{lab}_body:",
            "    add a0, a0, a1",
            "    add a0, a0, a1",
            "    add a0, a0, a1",
            f"    .globl {lab}_t",
            f"{lab}_t:",
            "    cv_loop_end",
            "    c.nop",
        ]
        kind = "setup" if begin == "cv_loop_begin" else "setupi"
        operand = arg if kind == "setup" else int(arg)
        checks.append((f"{lab}_body-4", kind, loop, operand, f"{lab}_t"))
    lines += ["    li a7, 93", "    ecall", ""]
    return "\n".join(lines), checks


C_SNIPPET = r"""
#include "hwloop.h"
__attribute__((noinline)) int c_loop(int n, int x) {
    register int cnt __asm__("a3") = n;
    __asm__ volatile("c.nop\n\t"
                     HWLOOP_BEGIN(1, "%[n]", 1)
                     ".globl c_body\nc_body:\n\t"
                     "add %[x], %[x], %[x]\n\t"
                     "xori %[x], %[x], 5\n\t"
                     "addi %[x], %[x], 1\n\t"
                     ".globl c_end\nc_end:\n\t"
                     HWLOOP_END(1)
                     "c.nop\n\t"
                     HWLOOPI_BEGIN(0, 12, 2)
                     ".globl c_body2\nc_body2:\n\t"
                     "add %[x], %[x], %[x]\n\t"
                     "add %[x], %[x], %[x]\n\t"
                     "add %[x], %[x], %[x]\n\t"
                     "add %[x], %[x], %[x]\n\t"
                     ".globl c_end2\nc_end2:\n\t"
                     HWLOOP_END(2)
                     : [x] "+r"(x)
                     : [n] "r"(cnt));
    return x;
}
"""


def expected_word(kind, loop, operand, target, addr, syms):
    f4 = FUNCT4[kind]
    if kind in ("starti", "endi"):
        return encode(f4, loop, 0, (syms[target] - addr) >> 2)
    if kind in ("start", "end", "count"):
        return encode(f4, loop, regnum(operand), 0)
    if kind == "counti":
        return encode(f4, loop, 0, target)
    if kind == "setupi":
        return encode(f4, loop, (syms[target] - addr) >> 2, operand)
    if kind == "setup":
        return encode(f4, loop, regnum(operand), (syms[target] - addr) >> 2)
    raise ValueError(kind)


def check_encodings(args) -> int:
    tools = dict(cc=args.cc, ld=args.ld, objdump=args.objdump, nm=args.nm)
    cflags = [
        "--target=riscv32-unknown-elf",
        f"-march={args.march}",
        "-mabi=ilp32f",
        "-O2",
        f"-I{args.include}",
        "-Wall",
        "-Werror",
    ]
    failures = 0
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        src_s = os.path.join(tmp, "snippet.S")
        src_c = os.path.join(tmp, "snippet.c")
        text, checks = build_snippet()
        with open(src_s, "w") as f:
            f.write(text)
        with open(src_c, "w") as f:
            f.write(C_SNIPPET)
        run([tools["cc"], *cflags, "-c", src_s, "-o", src_s + ".o"])
        run([tools["cc"], *cflags, "-c", src_c, "-o", src_c + ".o"])
        elf = os.path.join(tmp, "snippet.elf")
        run([tools["ld"], "-T", args.linker_script, "-o", elf, src_s + ".o", src_c + ".o"])
        insns = disassemble(tools["objdump"], elf)
        syms = symbols(tools["nm"], elf)

        def word_at(addr):
            if addr not in insns:
                return None
            return int(insns[addr][0], 16)

        for lab, kind, loop, operand, target in checks:
            if lab.endswith("-4"):
                addr = syms[lab[:-2]] - 4
            else:
                addr = syms[lab]
            want = expected_word(kind, loop, operand, target, addr, syms)
            got = word_at(addr)
            ok = got == want and addr % 4 == 0
            if not ok:
                failures += 1
                print(f"FAIL {lab}: cv.{kind} L={loop} {operand} {target} at {addr:#x}: "
                      f"got {got if got is None else hex(got)} want {want:#010x}")
        # C form: setups sit right before the bodies, ends right after.
        for body, end, kind, loop, operand in (
            ("c_body", "c_end", "setup", 1, "a3"),
            ("c_body2", "c_end2", "setupi", 0, 12),
        ):
            addr = syms[body] - 4
            want = expected_word(kind, loop, operand, end, addr, syms)
            got = word_at(addr)
            if got != want or addr % 4 or syms[end] % 4:
                failures += 1
                print(f"FAIL C form cv.{kind} at {addr:#x}: got {got if got is None else hex(got)} "
                      f"want {want:#010x}")
            for a in range(syms[body], syms[end], 4):
                if a not in insns or len(insns[a][0]) != 8:
                    failures += 1
                    print(f"FAIL C form: body instruction at {a:#x} is not a 32-bit instruction")
        total = len(checks) + 2
        print(f"hwloop encodings: {total - failures}/{total} setups correct"
              if failures == 0 else f"hwloop encodings: {failures} failures")
    return 1 if failures else 0


def decode_hwloop(word):
    if word & 0x7F != OPCODE or (word >> 12) & 7 != FUNCT3:
        return None
    return {
        "funct4": (word >> 8) & 0xF,
        "L": (word >> 7) & 1,
        "rs1": (word >> 15) & 31,
        "uimmL": word >> 20,
    }


def lint_elf(args) -> int:
    insns = disassemble(args.objdump, args.lint_elf)
    problems = 0
    loops = 0
    for addr, (hexword, _) in sorted(insns.items()):
        if len(hexword) != 8:
            continue
        d = decode_hwloop(int(hexword, 16))
        if d is None or d["funct4"] not in (6, 7):
            continue
        loops += 1
        start = addr + 4
        end = addr + ((d["rs1"] if d["funct4"] == 6 else d["uimmL"]) << 2)
        where = f"cv.setup{'i' if d['funct4'] == 6 else ''} L={d['L']} at {addr:#x}"
        if addr % 4:
            problems += 1
            print(f"{where}: setup not 32-bit aligned")
        if end - start < 12:
            problems += 1
            print(f"{where}: body of {(end - start) // 4} instructions (< 3)")
        for a in range(start, end, 4):
            if a not in insns or len(insns[a][0]) != 8:
                problems += 1
                print(f"{where}: compressed or misaligned instruction at {a:#x}")
                break
            word = int(insns[a][0], 16)
            op, funct3 = word & 0x7F, (word >> 12) & 7
            if op in (0x63, 0x6F, 0x67) or (op == 0x0B and funct3 in (6, 7)):
                problems += 1
                print(f"{where}: branch or jump at {a:#x} inside the body")
            elif op == 0x0F or (op == 0x73 and funct3 == 0):
                problems += 1
                print(f"{where}: fence or ecall/mret/wfi at {a:#x} inside the body")
    print(f"{args.lint_elf}: {loops} hardware loops, {problems} problems")
    if args.min_loops and loops < args.min_loops:
        print(f"expected at least {args.min_loops} hardware loops")
        return 1
    return 1 if problems else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cc", default="clang-19")
    p.add_argument("--ld", default="ld.lld-19")
    p.add_argument("--objdump", default="llvm-objdump-19")
    p.add_argument("--nm", default="llvm-nm-19")
    p.add_argument(
        "--march", default="rv32imfc_zicsr_zifencei_xcvmem_xcvmac_xcvalu_xcvbi_xcvbitmanip_xcvsimd_xcvelw"
    )
    p.add_argument("--include", help="directory holding hwloop.h")
    p.add_argument("--linker-script", help="flat linker script (kernels/runtime/bare.ld)")
    p.add_argument("--workdir", default=None, help="where to place temporary files")
    p.add_argument("--lint-elf", help="check the hardware loops of a linked program instead")
    p.add_argument("--min-loops", type=int, default=0, help="with --lint-elf: fail below this many loops")
    args = p.parse_args()
    if args.lint_elf:
        return lint_elf(args)
    if not args.include or not args.linker_script:
        p.error("--include and --linker-script are required")
    return check_encodings(args)


if __name__ == "__main__":
    sys.exit(main())
