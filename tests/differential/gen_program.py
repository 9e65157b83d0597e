#!/usr/bin/env python3
"""Seeded random RV32IMFC + Zfh program generator for the QEMU differential test.

Every program is straight-line code with forward-only control flow, so it always
terminates. It touches memory only inside its own data area, uses only the
write(64) and exit(93) Linux syscalls, and ends by writing a signature (all
integer and FP registers, fcsr, the data area and a log of intermediate results)
to stdout. The same ELF runs
unchanged on qemu-riscv32 and on `pulpsim run --bare`.

Usage as a script:  gen_program.py --seed 42 [--length 250] [-o prog.S]
"""

import argparse
import random
import struct
import sys

# ---------------------------------------------------------------------------
# Memory layout, shared with the runner (which decodes the signature).
# ---------------------------------------------------------------------------
TEXT_ADDR = 0x10000  # at or above QEMU's mmap_min_addr
DATA_ADDR = 0x20000  # the signature starts here

NUM_XREGS = 31  # x1..x31
NUM_FREGS = 32
SIG_HEADER_BYTES = (NUM_XREGS + NUM_FREGS + 1) * 4  # registers + fcsr
DATA_SIZE = 1024  # bytes of data area the generated code may read and write
LOG_SIZE = 1024  # result log right after the data area; see ProgramGenerator.log_result
MEM_BYTES = DATA_SIZE + LOG_SIZE  # memory part of the signature
SIG_BYTES = SIG_HEADER_BYTES + MEM_BYTES
LOG_PROBABILITY = 0.6  # share of blocks whose result is logged
DATA_AREA_ADDR = DATA_ADDR + SIG_HEADER_BYTES
STACK_OFFSET = 512  # sp = data area + STACK_OFFSET, so sp-relative accesses stay inside it

LINKER_SCRIPT = f"""\
ENTRY(_start)
SECTIONS {{
  . = {TEXT_ADDR:#x};
  .text : {{ *(.text .text.*) }}
  . = {DATA_ADDR:#x};
  .data : {{ *(.data .data.*) }}
}}
"""

ASM_FLAGS = ["--target=riscv32-unknown-elf", "-march=rv32imfc_zicsr_zifencei_zfh", "-mabi=ilp32f", "-mno-relax"]

XREG_ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
            "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
            "t5", "t6"]
FREG_ABI = ["ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
            "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
            "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"]

BASE_REG = 9  # s1 holds the data area address for the whole program; never written
SP_REG = 2  # sp points into the data area; only moved by balanced frame blocks
WRITABLE_XREGS = [r for r in range(1, 32) if r not in (SP_REG, BASE_REG)]
CREGS = list(range(8, 16))  # registers encodable in the 3-bit RVC fields
WRITABLE_CREGS = [r for r in CREGS if r != BASE_REG]

INT_MIN = 0x80000000
INTERESTING_INTS = [0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, INT_MIN, 0x7FFFFFFF, 0x80000001, 0x7FFFFFFE,
                    0xFF, 0x80, 0xFFFF, 0x8000, 0xFFFF8000, 0xFFFFFF80, 31, 32, 33, 0x55555555,
                    0xAAAAAAAA, 0x00010000, 0x0000FFFF, 0x12345678, 7, 0xFFFFFFF9]

INTERESTING_FLOATS = [
    0x00000000, 0x80000000,  # +-0
    0x7F800000, 0xFF800000,  # +-inf
    0x7FC00000, 0xFFC00000,  # canonical qNaN, negative qNaN
    0x7F800001, 0xFF800001, 0x7FA00000,  # sNaNs
    0x7FC12345, 0x7F812345,  # NaNs with payload
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000,  # subnormals
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,  # min / max normal
    0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000,  # +-1.0, +-0.5
    0x3FC00000, 0x40200000, 0xC0200000, 0xBFC00000,  # 1.5, 2.5, -2.5, -1.5: rounding ties
    0x3F800001, 0x33800000, 0x34000000, 0x4B000001,  # 1+ulp, 2^-24, 2^-23, 2^23+1
    0x7F000000, 0x7E800000, 0x0C800000,  # 2^127 (overflows when doubled), tiny products
    0x4F000000, 0x4EFFFFFF, 0xCF000000, 0xCF000001,  # around +-2^31 (fcvt.w limits)
    0x4F800000, 0x4F7FFFFF,  # around 2^32 (fcvt.wu limit)
    0x3DCCCCCD, 0x40400000, 0x40490FDB, 0xC0490FDB,  # 0.1, 3.0, +-pi
]

# binary16 values for Zfh; a register holds one NaN-boxed (bits 31:16 all ones) or, to exercise the
# "not boxed reads as the canonical NaN" rule, not.
INTERESTING_HALVES = [
    0x0000, 0x8000, 0x7C00, 0xFC00,  # +-0, +-inf
    0x7E00, 0xFE00, 0x7C01, 0xFD00, 0x7E55,  # quiet, signalling and payload NaNs
    0x0001, 0x8001, 0x03FF, 0x0200,  # subnormals
    0x0400, 0x8400, 0x7BFF, 0xFBFF,  # min / max normal
    0x3C00, 0xBC00, 0x3800, 0x3E00, 0x4100, 0xC100,  # 1, -1, 0.5, 1.5, 2.5, -2.5
    0x3C01, 0x1000, 0x0C00, 0x5C00, 0x3555, 0x4248,  # 1+ulp, 2^-11, 2^-12, 256, 1/3, pi
    0x78E2, 0x7800, 0x77FF, 0x6801,  # 40000, 32768, 32752, 2050
]

ROUNDING_MODES = ["rne", "rtz", "rdn", "rup", "rmm", "dyn"]
FP_CSRS = ["fflags", "frm", "fcsr"]

# Reach limits (bytes) of the forward control-transfer encodings, with margin.
REACH = {"cb": 240, "b": 4000, "cj": 2000, "far": 1 << 30}

# Instructions the fault injector may swap for a sibling: none of them has a
# compressed form, so the swap keeps the code layout identical.
FAULT_SWAPS = {"mul": "mulhu", "mulh": "mul", "mulhu": "mul", "mulhsu": "mul", "div": "rem",
               "rem": "div", "divu": "remu", "remu": "divu", "sll": "srl", "srl": "sll", "sra": "sll"}


def xr(r):
    return XREG_ABI[r]


def fr(r):
    return FREG_ABI[r]


def s32(v):
    """Unsigned 32-bit value as a signed Python int (what `li` expects)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


class Block:
    """An atomic run of instructions; labels exist only between blocks, so a
    forward branch can skip whole blocks but never land inside one."""

    def __init__(self, lines, reach=None, skip=0, fault_line=None):
        self.lines = lines  # may contain "{T}" for the forward target label
        self.reach = reach  # key into REACH if this block contains a forward transfer
        self.skip = skip  # requested distance (in blocks) to the target
        self.fault_line = fault_line  # index of a line the fault injector may mutate
        self.target = None
        self.logged = False  # a result-log store was appended

    def instructions(self):
        """Mnemonics of the block's instructions (directives and labels dropped)."""
        ops = []
        for line in self.lines:
            words = line.split()
            if words[0].endswith(":"):
                words = words[1:]
            if words and not words[0].startswith("."):
                ops.append(words[0])
        return ops

    def instr_count(self):
        return len(self.instructions())

    def size_bound(self):
        """Upper bound of the encoded size: pseudo-instructions may expand to two."""
        return sum(8 if op in ("li", "la") else 4 for op in self.instructions())


class ProgramGenerator:
    def __init__(self, seed, length=250):
        self.rng = random.Random(seed)
        self.seed = seed
        self.length = length
        self.blocks = []
        self.pc_labels = 0
        self.log_slot = 0
        # Generators and their relative weights; tuned so that one program of
        # ~250 instructions covers most of the instruction list.
        self.kinds = [
            (self.g_alu_rr, 10), (self.g_alu_ri, 8), (self.g_shift_imm, 4), (self.g_lui_auipc, 3),
            (self.g_li, 4), (self.g_muldiv, 8), (self.g_muldiv_corner, 2), (self.g_load, 6),
            (self.g_store, 5), (self.g_load_store_computed, 3), (self.g_compressed_alu, 8),
            (self.g_compressed_mem, 4), (self.g_sp_frame, 3), (self.g_norvc, 3), (self.g_branch, 6),
            (self.g_jump, 3), (self.g_jalr, 3), (self.g_fence, 1), (self.g_fp_load_store, 5),
            (self.g_fp_arith, 9), (self.g_fp_sqrt, 2), (self.g_fp_fma, 5), (self.g_fp_sign_minmax, 4),
            (self.g_fp_compare_class, 4), (self.g_fp_convert, 6), (self.g_fp_move, 3),
            (self.g_fp_value, 4), (self.g_fp_csr, 5),
            (self.g_zfh_value, 5), (self.g_zfh_load_store, 3), (self.g_zfh_arith, 6), (self.g_zfh_sqrt, 1),
            (self.g_zfh_fma, 3), (self.g_zfh_sign_minmax, 3), (self.g_zfh_compare_class, 3),
            (self.g_zfh_convert, 5), (self.g_zfh_move, 2),
        ]
        self.kind_funcs = [k for k, _ in self.kinds]
        self.kind_weights = [w for _, w in self.kinds]

    # -- random operand helpers ------------------------------------------------
    def rd(self):
        return self.rng.choice(WRITABLE_XREGS)

    def rs(self):
        # Mostly ordinary registers; occasionally x0, sp or the base register.
        if self.rng.random() < 0.08:
            return self.rng.choice([0, SP_REG, BASE_REG])
        return self.rng.choice(WRITABLE_XREGS)

    def crd(self):
        return self.rng.choice(WRITABLE_CREGS)

    def crs(self):
        return self.rng.choice(CREGS)

    def fd(self):
        return self.rng.randrange(32)

    def cfd(self):
        return self.rng.choice(CREGS)

    def rm(self):
        return self.rng.choice(ROUNDING_MODES)

    def imm12(self):
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice([0, 1, -1, 2047, -2048, 2046, -2047, 31, 32, 0x7F, 0x80, 0xFF, -0x80])
        if r < 0.6:
            return self.rng.randint(-32, 31)
        return self.rng.randint(-2048, 2047)

    def int_value(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(INTERESTING_INTS)
        if r < 0.8:
            return self.rng.randint(-100, 100) & 0xFFFFFFFF
        return self.rng.getrandbits(32)

    def float_value(self):
        r = self.rng.random()
        if r < 0.65:
            return self.rng.choice(INTERESTING_FLOATS)
        if r < 0.85:
            # random "normal looking" value in a modest exponent range: makes
            # rounding (inexact) common without always overflowing
            exp = self.rng.randint(100, 154)
            return (self.rng.getrandbits(1) << 31) | (exp << 23) | self.rng.getrandbits(23)
        return self.rng.getrandbits(32)

    def half_register_value(self):
        """A binary16 value as an f register holds it: mostly NaN-boxed."""
        r = self.rng.random()
        if r < 0.6:
            h = self.rng.choice(INTERESTING_HALVES)
        elif r < 0.85:
            # a modest exponent range: rounding is common, overflow is not
            h = (self.rng.getrandbits(1) << 15) | (self.rng.randint(8, 22) << 10) | self.rng.getrandbits(10)
        else:
            h = self.rng.getrandbits(16)
        upper = 0xFFFF if self.rng.random() < 0.9 else self.rng.getrandbits(16)
        return (upper << 16) | h

    def data_offset(self, width, limit=DATA_SIZE):
        return self.rng.randrange(0, limit - width + 1, width)

    def add(self, lines, **kw):
        block = Block(lines, **kw)
        if block.reach is None and self.rng.random() < LOG_PROBABILITY:
            self.log_result(block)
        self.blocks.append(block)

    STORE_OPS = {"sb", "sh", "sw", "fsw", "fsh", "c.sw", "c.swsp", "c.fsw", "c.fswsp"}

    def log_result(self, block):
        """Stores the block's last result into the next slot of the log area.

        Most results are overwritten by later instructions before the final
        register dump; logging them makes a wrong intermediate value visible."""
        last = next((line for line in reversed(block.lines) if not line.startswith(".")), None)
        if last is None:  # only directives, such as a .word
            return
        op, _, operands = last.partition(" ")
        if op in self.STORE_OPS or not operands:
            return
        dest = operands.split(",")[0].strip()
        if dest in FREG_ABI:
            store = "fsw"
        elif dest in XREG_ABI and XREG_ABI.index(dest) in WRITABLE_XREGS:
            store = "sw"
        else:
            return
        offset = DATA_SIZE + self.log_slot * 4
        self.log_slot = (self.log_slot + 1) % (LOG_SIZE // 4)
        block.lines.append(f"{store} {dest}, {offset}({xr(BASE_REG)})")
        block.logged = True

    # -- RV32I -----------------------------------------------------------------
    def g_alu_rr(self):
        op = self.rng.choice(["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"])
        if self.rng.random() < 0.3:
            # rd == rs1 with RVC registers: the assembler emits c.add/c.sub/... where legal
            d = self.crd()
            self.add([f"{op} {xr(d)}, {xr(d)}, {xr(self.crs())}"])
        else:
            line = f"{op} {xr(self.rd())}, {xr(self.rs())}, {xr(self.rs())}"
            self.add([line], fault_line=0 if op in FAULT_SWAPS else None)

    def g_alu_ri(self):
        op = self.rng.choice(["addi", "slti", "sltiu", "xori", "ori", "andi"])
        d = self.rd()
        s = d if self.rng.random() < 0.3 else self.rs()
        self.add([f"{op} {xr(d)}, {xr(s)}, {self.imm12()}"])

    def g_shift_imm(self):
        op = self.rng.choice(["slli", "srli", "srai"])
        self.add([f"{op} {xr(self.rd())}, {xr(self.rs())}, {self.rng.randrange(32)}"])

    def g_lui_auipc(self):
        op = self.rng.choice(["lui", "auipc"])
        imm = self.rng.choice([0, 1, 0x80000, 0xFFFFF, 0x7FFFF, self.rng.getrandbits(20)])
        self.add([f"{op} {xr(self.rd())}, {imm:#x}"])

    def g_li(self):
        self.add([f"li {xr(self.rd())}, {s32(self.int_value())}"])

    # -- M ---------------------------------------------------------------------
    def g_muldiv(self):
        op = self.rng.choice(["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"])
        self.add([f"{op} {xr(self.rd())}, {xr(self.rs())}, {xr(self.rs())}"], fault_line=0)

    def g_muldiv_corner(self):
        # Division by zero and the signed overflow INT_MIN / -1.
        op = self.rng.choice(["div", "divu", "rem", "remu", "mulh", "mulhsu"])
        a, b = self.rng.sample(WRITABLE_XREGS, 2)
        if self.rng.random() < 0.5:
            lines = [f"li {xr(b)}, 0"]
        else:
            lines = [f"li {xr(a)}, {s32(INT_MIN)}", f"li {xr(b)}, -1"]
        lines.append(f"{op} {xr(self.rd())}, {xr(a)}, {xr(b)}")
        self.add(lines)

    # -- loads and stores --------------------------------------------------------
    LOADS = [("lb", 1), ("lbu", 1), ("lh", 2), ("lhu", 2), ("lw", 4)]
    STORES = [("sb", 1), ("sh", 2), ("sw", 4)]

    def g_load(self):
        op, width = self.rng.choice(self.LOADS)
        self.add([f"{op} {xr(self.rd())}, {self.data_offset(width)}({xr(BASE_REG)})"])

    def g_store(self):
        op, width = self.rng.choice(self.STORES)
        self.add([f"{op} {xr(self.rs())}, {self.data_offset(width)}({xr(BASE_REG)})"])

    def g_load_store_computed(self):
        # A base register other than s1, with a negative or positive offset.
        b = self.rd()
        op, width = self.rng.choice(self.LOADS + self.STORES)
        target = self.data_offset(width)
        offset = self.rng.randint(-2048, 2048 - width)
        offset -= offset % width  # keeps the access aligned (s1 and target are)
        base_adj = target - offset
        lines = [f"li {xr(b)}, {base_adj}", f"add {xr(b)}, {xr(b)}, {xr(BASE_REG)}"]
        if op.startswith("l"):
            lines.append(f"{op} {xr(self.rd())}, {offset}({xr(b)})")
        else:
            lines.append(f"{op} {xr(self.rs())}, {offset}({xr(b)})")
        self.add(lines)

    # -- RVC -------------------------------------------------------------------
    def g_compressed_alu(self):
        rng = self.rng
        k = rng.randrange(13)
        if k == 12:
            line = "c.nop"
        elif k == 0:
            line = f"c.li {xr(self.rd())}, {rng.randint(-32, 31)}"
        elif k == 1:
            imm = rng.choice([rng.randint(1, 31), rng.randint(0xFFFE0, 0xFFFFF)])
            line = f"c.lui {xr(self.rd())}, {imm:#x}"
        elif k == 2:
            line = f"c.addi {xr(self.rd())}, {rng.choice([i for i in range(-32, 32) if i])}"
        elif k == 3:
            line = f"c.slli {xr(self.rd())}, {rng.randint(1, 31)}"
        elif k in (4, 5):
            op = rng.choice(["c.srli", "c.srai"])
            line = f"{op} {xr(self.crd())}, {rng.randint(1, 31)}"
        elif k == 6:
            line = f"c.andi {xr(self.crd())}, {rng.randint(-32, 31)}"
        elif k == 7:
            line = f"c.mv {xr(self.rd())}, {xr(rng.choice(WRITABLE_XREGS + [SP_REG, BASE_REG]))}"
        elif k == 8:
            line = f"c.add {xr(self.rd())}, {xr(rng.choice(WRITABLE_XREGS + [SP_REG, BASE_REG]))}"
        elif k in (9, 10):
            op = rng.choice(["c.sub", "c.xor", "c.or", "c.and"])
            line = f"{op} {xr(self.crd())}, {xr(self.crs())}"
        else:
            line = f"c.addi4spn {xr(self.crd())}, sp, {rng.randrange(4, 1024, 4)}"
        self.add([line])

    def g_compressed_mem(self):
        rng = self.rng
        k = rng.randrange(6)
        if k == 0:
            line = f"c.lw {xr(self.crd())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})"
        elif k == 1:
            line = f"c.sw {xr(self.crs())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})"
        elif k == 2:
            line = f"c.flw {fr(self.cfd())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})"
        elif k == 3:
            line = f"c.fsw {fr(self.cfd())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})"
        elif k == 4:
            op = rng.choice(["c.lwsp", "c.swsp"])
            r = self.rd() if op == "c.lwsp" else self.rs()
            line = f"{op} {xr(r)}, {rng.randrange(0, 256, 4)}(sp)"
        else:
            op = rng.choice(["c.flwsp", "c.fswsp"])
            line = f"{op} {fr(self.fd())}, {rng.randrange(0, 256, 4)}(sp)"
        self.add([line])

    def g_sp_frame(self):
        """Move sp, access the frame, move it back (all inside one block)."""
        rng = self.rng
        compressed = rng.random() < 0.7
        if compressed:
            delta = rng.choice([d for d in range(-496, 257, 16) if d])
            lines = [f"c.addi16sp sp, {delta}"]
        else:
            delta = rng.randrange(-508, 253, 4)
            lines = [f"addi sp, sp, {delta}"]
        frame = STACK_OFFSET + delta  # sp's offset inside the data area now
        for _ in range(rng.randint(1, 4)):
            off = rng.randrange(0, min(256, DATA_SIZE - 3 - frame), 4)
            k = rng.randrange(5)
            if k == 0:
                lines.append(f"c.lwsp {xr(self.rd())}, {off}(sp)")
            elif k == 1:
                lines.append(f"c.swsp {xr(self.rs())}, {off}(sp)")
            elif k == 2:
                lines.append(f"c.flwsp {fr(self.fd())}, {off}(sp)")
            elif k == 3:
                lines.append(f"c.fswsp {fr(self.fd())}, {off}(sp)")
            else:
                # address computed from sp, then used as an RVC base register
                r = self.crd()
                imm = rng.randrange(4, 256, 4)
                lines.append(f"c.addi4spn {xr(r)}, sp, {imm}")
                room = DATA_SIZE - 4 - (frame + imm)
                if room >= 0:
                    mem_off = rng.randrange(0, min(128, room + 4), 4)
                    if rng.random() < 0.5:
                        lines.append(f"c.lw {xr(self.crd())}, {mem_off}({xr(r)})")
                    else:
                        lines.append(f"c.sw {xr(self.crs())}, {mem_off}({xr(r)})")
        lines.append(f"c.addi16sp sp, {-delta}" if compressed else f"addi sp, sp, {-delta}")
        self.add(lines)

    def g_norvc(self):
        """Instructions that would be compressed, forced into their 32-bit form."""
        rng = self.rng
        lines = [".option push", ".option norvc"]
        for _ in range(rng.randint(1, 3)):
            d = self.crd()
            k = rng.randrange(7)
            if k == 0:
                op = rng.choice(["add", "sub", "xor", "or", "and"])
                lines.append(f"{op} {xr(d)}, {xr(d)}, {xr(self.crs())}")
            elif k == 1:
                lines.append(f"addi {xr(d)}, {xr(d)}, {rng.choice([i for i in range(-32, 32) if i])}")
            elif k == 2:
                lines.append(f"lw {xr(d)}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})")
            elif k == 3:
                lines.append(f"sw {xr(self.crs())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})")
            elif k == 4:
                lines.append(f"flw {fr(self.cfd())}, {rng.randrange(0, 128, 4)}({xr(BASE_REG)})")
            elif k == 5:
                lines.append(f"lw {xr(self.rd())}, {rng.randrange(0, 256, 4)}(sp)")
            else:
                lines.append(f"srai {xr(d)}, {xr(d)}, {rng.randint(1, 31)}")
        lines.append(".option pop")
        self.add(lines)

    # -- control flow (forward only) ---------------------------------------------
    def skip(self):
        return self.rng.choice([1, 1, 2, 2, 3, 4, 5])

    def g_branch(self):
        rng = self.rng
        k = rng.randrange(10)
        if k < 7:
            op = rng.choice(["beq", "bne", "blt", "bge", "bltu", "bgeu"])
            a = self.rs()
            b = a if rng.random() < 0.1 else self.rs()
            self.add([f"{op} {xr(a)}, {xr(b)}, {{T}}"], reach="b", skip=self.skip())
        elif k < 9:
            op = rng.choice(["c.beqz", "c.bnez"])
            self.add([f"{op} {xr(self.crs())}, {{T}}"], reach="cb", skip=self.skip())
        else:
            op = rng.choice(["beqz", "bnez", "bltz", "bgez"])
            self.add([f"{op} {xr(self.rs())}, {{T}}"], reach="b", skip=self.skip())

    def g_jump(self):
        rng = self.rng
        k = rng.randrange(4)
        if k == 0:
            self.add([f"jal {xr(self.rd())}, {{T}}"], reach="far", skip=self.skip())
        elif k == 1:
            self.add(["j {T}"], reach="far", skip=self.skip())
        elif k == 2:
            self.add(["c.j {T}"], reach="cj", skip=self.skip())
        else:
            self.add(["c.jal {T}"], reach="cj", skip=self.skip())

    def g_jalr(self):
        rng = self.rng
        t = self.rd()
        k = rng.randrange(5)
        if k == 0:
            label = f".Lpc{self.pc_labels}"
            self.pc_labels += 1
            lines = [f"{label}: auipc {xr(t)}, %pcrel_hi({{T}})",
                     f"jalr {xr(self.rd())}, %pcrel_lo({label})({xr(t)})"]
        elif k == 1:
            # jalr clears bit 0 of the computed target; rd may equal rs1
            d = t if rng.random() < 0.3 else self.rd()
            lines = ["la {r}, {{T}}".format(r=xr(t)), f"addi {xr(t)}, {xr(t)}, 1", f"jalr {xr(d)}, -1({xr(t)})"]
        elif k == 2:
            d = t if rng.random() < 0.3 else self.rd()
            lines = ["la {r}, {{T}}".format(r=xr(t)), f"addi {xr(t)}, {xr(t)}, 1", f"jalr {xr(d)}, 0({xr(t)})"]
        elif k == 3:
            lines = ["la {r}, {{T}}".format(r=xr(t)), f"c.jr {xr(t)}"]
        else:
            lines = ["la {r}, {{T}}".format(r=xr(t)), f"c.jalr {xr(t)}"]
        self.add(lines, reach="far", skip=self.skip())

    def g_fence(self):
        self.add([self.rng.choice(["fence", "fence rw, rw", "fence r, w", "fence iorw, iorw", "fence.i"])])

    # -- F -----------------------------------------------------------------------
    def g_fp_load_store(self):
        if self.rng.random() < 0.55:
            self.add([f"flw {fr(self.fd())}, {self.data_offset(4)}({xr(BASE_REG)})"])
        else:
            self.add([f"fsw {fr(self.fd())}, {self.data_offset(4)}({xr(BASE_REG)})"])

    def g_fp_arith(self):
        op = self.rng.choice(["fadd.s", "fsub.s", "fmul.s", "fdiv.s"])
        self.add([f"{op} {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_fp_sqrt(self):
        self.add([f"fsqrt.s {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_fp_fma(self):
        op = self.rng.choice(["fmadd.s", "fmsub.s", "fnmadd.s", "fnmsub.s"])
        self.add([f"{op} {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_fp_sign_minmax(self):
        op = self.rng.choice(["fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s"])
        a = self.fd()
        b = a if self.rng.random() < 0.15 else self.fd()
        self.add([f"{op} {fr(self.fd())}, {fr(a)}, {fr(b)}"])

    def g_fp_compare_class(self):
        op = self.rng.choice(["feq.s", "flt.s", "fle.s", "fclass.s"])
        if op == "fclass.s":
            self.add([f"fclass.s {xr(self.rd())}, {fr(self.fd())}"])
        else:
            a = self.fd()
            b = a if self.rng.random() < 0.15 else self.fd()
            self.add([f"{op} {xr(self.rd())}, {fr(a)}, {fr(b)}"])

    def g_fp_convert(self):
        op = self.rng.choice(["fcvt.w.s", "fcvt.wu.s", "fcvt.s.w", "fcvt.s.wu"])
        if op.startswith("fcvt.w"):
            self.add([f"{op} {xr(self.rd())}, {fr(self.fd())}, {self.rm()}"])
        else:
            self.add([f"{op} {fr(self.fd())}, {xr(self.rs())}, {self.rm()}"])

    def g_fp_move(self):
        if self.rng.random() < 0.5:
            self.add([f"fmv.x.w {xr(self.rd())}, {fr(self.fd())}"])
        else:
            self.add([f"fmv.w.x {fr(self.fd())}, {xr(self.rs())}"])

    def g_fp_value(self):
        # Refresh an FP register with an interesting bit pattern.
        t = self.rd()
        self.add([f"li {xr(t)}, {s32(self.float_value())}", f"fmv.w.x {fr(self.fd())}, {xr(t)}"])

    def g_fp_csr(self):
        """fcsr/frm/fflags accesses. Writes keep frm in 0..4 (5..7 would make
        every dynamic-rounding instruction illegal) and keep fcsr bits 31:8 zero."""
        rng = self.rng
        d = self.rd()
        k = rng.randrange(14)
        t = self.rd()
        if k == 0:
            lines = [f"fsrmi {rng.randint(0, 4)}"]
        elif k == 1:
            lines = [f"fsrmi {xr(d)}, {rng.randint(0, 4)}"]
        elif k == 2:
            lines = [f"li {xr(t)}, {rng.randint(0, 4)}", f"fsrm {xr(d)}, {xr(t)}"]
        elif k == 3:
            lines = [f"fsflagsi {xr(d)}, {rng.randint(0, 31)}"]
        elif k == 4:
            lines = [f"li {xr(t)}, {rng.randint(0, 31)}", f"fsflags {xr(d)}, {xr(t)}"]
        elif k == 5:
            lines = [f"frflags {xr(d)}"]
        elif k == 6:
            lines = [f"frrm {xr(d)}"]
        elif k == 7:
            lines = [f"frcsr {xr(d)}"]
        elif k == 8:
            value = (rng.randint(0, 4) << 5) | rng.randint(0, 31)
            lines = [f"li {xr(t)}, {value}", f"fscsr {xr(d)}, {xr(t)}"]
        elif k == 9:
            # set/clear flag bits through any of the three CSR names
            csr = rng.choice(["fflags", "fcsr"])
            op = rng.choice(["csrrsi", "csrrci"])
            lines = [f"{op} {xr(d)}, {csr}, {rng.randint(0, 31)}"]
        elif k == 10:
            op = rng.choice(["csrrs", "csrrc"])
            csr = rng.choice(["fflags", "fcsr"])
            lines = [f"li {xr(t)}, {rng.randint(0, 31)}", f"{op} {xr(d)}, {csr}, {xr(t)}"]
        elif k == 11:
            # clearing frm bits can only lower it; a low value with bit 0 set stays valid
            lines = [f"csrrci {xr(d)}, frm, {rng.choice([4, 6, 7])}", f"csrrsi {xr(self.rd())}, frm, 1"]
        elif k == 12:
            csr = rng.choice(FP_CSRS)
            lines = [f"csrrs {xr(d)}, {csr}, zero"]  # plain read
        else:
            csr = rng.choice(["fflags", "frm"])
            value = rng.randint(0, 4) if csr == "frm" else rng.randint(0, 31)
            op = rng.choice(["csrrw", "csrrwi"])
            if op == "csrrwi":
                lines = [f"csrrwi {xr(d)}, {csr}, {value}"]
            else:
                lines = [f"li {xr(t)}, {value}", f"csrrw {xr(d)}, {csr}, {xr(t)}"]
        self.add(lines)

    # -- Zfh ---------------------------------------------------------------------
    def g_zfh_value(self):
        # Refresh an FP register with a (usually boxed) binary16 value.
        t = self.rd()
        move = "fmv.w.x" if self.rng.random() < 0.8 else "fmv.h.x"
        self.add([f"li {xr(t)}, {s32(self.half_register_value())}", f"{move} {fr(self.fd())}, {xr(t)}"])

    def g_zfh_load_store(self):
        if self.rng.random() < 0.55:
            self.add([f"flh {fr(self.fd())}, {self.data_offset(2)}({xr(BASE_REG)})"])
        else:
            self.add([f"fsh {fr(self.fd())}, {self.data_offset(2)}({xr(BASE_REG)})"])

    def g_zfh_arith(self):
        op = self.rng.choice(["fadd.h", "fsub.h", "fmul.h", "fdiv.h"])
        self.add([f"{op} {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_zfh_sqrt(self):
        self.add([f"fsqrt.h {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_zfh_fma(self):
        op = self.rng.choice(["fmadd.h", "fmsub.h", "fnmadd.h", "fnmsub.h"])
        self.add([f"{op} {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_zfh_sign_minmax(self):
        op = self.rng.choice(["fsgnj.h", "fsgnjn.h", "fsgnjx.h", "fmin.h", "fmax.h"])
        a = self.fd()
        b = a if self.rng.random() < 0.15 else self.fd()
        self.add([f"{op} {fr(self.fd())}, {fr(a)}, {fr(b)}"])

    def g_zfh_compare_class(self):
        op = self.rng.choice(["feq.h", "flt.h", "fle.h", "fclass.h"])
        if op == "fclass.h":
            self.add([f"fclass.h {xr(self.rd())}, {fr(self.fd())}"])
        else:
            a = self.fd()
            b = a if self.rng.random() < 0.15 else self.fd()
            self.add([f"{op} {xr(self.rd())}, {fr(a)}, {fr(b)}"])

    def g_zfh_convert(self):
        op = self.rng.choice(["fcvt.w.h", "fcvt.wu.h", "fcvt.h.w", "fcvt.h.wu", "fcvt.s.h", "fcvt.h.s"])
        if op.startswith("fcvt.w"):
            self.add([f"{op} {xr(self.rd())}, {fr(self.fd())}, {self.rm()}"])
        elif op.startswith("fcvt.h.w"):
            self.add([f"{op} {fr(self.fd())}, {xr(self.rs())}, {self.rm()}"])
        else:
            self.add([f"{op} {fr(self.fd())}, {fr(self.fd())}, {self.rm()}"])

    def g_zfh_move(self):
        if self.rng.random() < 0.5:
            self.add([f"fmv.x.h {xr(self.rd())}, {fr(self.fd())}"])
        else:
            self.add([f"fmv.h.x {fr(self.fd())}, {xr(self.rs())}"])

    # -- whole program ----------------------------------------------------------
    def generate_body(self):
        count = 0
        while count < self.length:
            gen = self.rng.choices(self.kind_funcs, weights=self.kind_weights)[0]
            gen()
            block = self.blocks[-1]
            count += block.instr_count() - block.logged  # log stores don't count toward the length
        self.resolve_targets()
        return count

    def resolve_targets(self):
        n = len(self.blocks)
        sizes = [b.size_bound() for b in self.blocks]
        for i, block in enumerate(self.blocks):
            if block.reach is None:
                continue
            j = min(i + block.skip, n)  # block n is the epilogue
            while j > i + 1 and sum(sizes[i:j]) > REACH[block.reach]:
                j -= 1
            block.target = j

    def data_words(self):
        words = []
        for _ in range(DATA_SIZE // 4):
            r = self.rng.random()
            if r < 0.4:
                words.append(self.int_value())
            elif r < 0.8:
                words.append(self.float_value())
            else:
                words.append(self.rng.getrandbits(32))
        return words

    def init_values(self):
        ints = [0] * 32
        for r in WRITABLE_XREGS:
            ints[r] = self.int_value()
        floats = [self.float_value() for _ in range(NUM_FREGS)]
        return ints, floats

    def generate(self, fault=False):
        """Returns assembly text. With fault=True, one M/shift instruction is
        swapped for a sibling (same size), to check that mismatches are caught."""
        self.generate_body()
        ints, floats = self.init_values()
        data = self.data_words()
        fault_block = None
        if fault:
            candidates = [i for i, b in enumerate(self.blocks) if b.fault_line is not None]
            if candidates:
                fault_block = self.rng.choice(candidates)

        out = [f"# pulpsim differential test program, seed {self.seed}",
               "    .text", "    .globl _start", "_start:",
               f"    la {xr(BASE_REG)}, data_area",
               f"    addi sp, {xr(BASE_REG)}, {STACK_OFFSET}",
               "    la t6, init_table"]
        for r in WRITABLE_XREGS:
            if r != 31:
                out.append(f"    lw {xr(r)}, {(r - 1) * 4}(t6)")
        for f in range(NUM_FREGS):
            out.append(f"    flw {fr(f)}, {(32 + f) * 4}(t6)")
        out.append(f"    lw t6, {30 * 4}(t6)")

        for i, block in enumerate(self.blocks):
            out.append(f".Lb{i}:")
            target = f".Lb{block.target}" if block.target is not None else None
            for n, line in enumerate(block.lines):
                if target is not None:
                    line = line.replace("{T}", target)
                if i == fault_block and n == block.fault_line:
                    op, rest = line.split(None, 1)
                    line = f"{FAULT_SWAPS[op]} {rest}  # injected fault (was {op})"
                out.append(("    " if not line.startswith(".L") else "") + line)

        out.append(f".Lb{len(self.blocks)}:")
        out.append("    # signature: x1..x31, f0..f31, fcsr, then the data area and the result log")
        for r in range(1, 32):
            out.append(f"    sw {xr(r)}, {(r - 1) * 4 - SIG_HEADER_BYTES}({xr(BASE_REG)})")
        for f in range(NUM_FREGS):
            out.append(f"    fsw {fr(f)}, {(NUM_XREGS + f) * 4 - SIG_HEADER_BYTES}({xr(BASE_REG)})")
        out += ["    frcsr t0", f"    sw t0, -4({xr(BASE_REG)})",
                "    li a7, 64", "    li a0, 1", f"    addi a1, {xr(BASE_REG)}, {-SIG_HEADER_BYTES}",
                f"    li a2, {SIG_BYTES}", "    ecall",
                "    li a7, 93", "    li a0, 0", "    ecall"]

        out += ["", "    .data", "    .balign 4", "signature:", f"    .space {SIG_HEADER_BYTES}", "data_area:"]
        for k in range(0, len(data), 8):
            out.append("    .word " + ", ".join(f"{w:#010x}" for w in data[k:k + 8]))
        out += ["result_log:", f"    .space {LOG_SIZE}"]
        out.append("init_table:")
        out.append("    .word " + ", ".join(f"{w:#010x}" for w in ints[1:]))
        out.append("    .word 0")  # pads x0's missing slot so f0 sits at word 32
        for k in range(0, NUM_FREGS, 8):
            out.append("    .word " + ", ".join(f"{w:#010x}" for w in floats[k:k + 8]))
        return "\n".join(out) + "\n"


def generate(seed, length=250, fault=False):
    return ProgramGenerator(seed, length).generate(fault=fault)


# ---------------------------------------------------------------------------
# Signature decoding, used by the runner to explain mismatches.
# ---------------------------------------------------------------------------
def f32_repr(bits):
    value = struct.unpack("<f", struct.pack("<I", bits))[0]
    return repr(value)


def describe_fcsr(v):
    flags = [name for bit, name in ((4, "NV"), (3, "DZ"), (2, "OF"), (1, "UF"), (0, "NX")) if v >> bit & 1]
    return f"frm={(v >> 5) & 7} flags={'|'.join(flags) or '-'}"


def signature_entries(blob):
    """Yields (name, value, kind) for each 32-bit word of a signature."""
    for idx in range(len(blob) // 4):
        (value,) = struct.unpack_from("<I", blob, idx * 4)
        if idx < NUM_XREGS:
            yield f"x{idx + 1}({XREG_ABI[idx + 1]})", value, "x"
        elif idx < NUM_XREGS + NUM_FREGS:
            f = idx - NUM_XREGS
            yield f"f{f}({FREG_ABI[f]})", value, "f"
        elif idx == NUM_XREGS + NUM_FREGS:
            yield "fcsr", value, "fcsr"
        else:
            off = idx * 4 - SIG_HEADER_BYTES
            area = f"data+{off:#05x}" if off < DATA_SIZE else f"log slot {(off - DATA_SIZE) // 4}"
            yield f"mem[{area}] @{DATA_AREA_ADDR + off:#x}", value, "m"


def format_value(value, kind):
    if kind == "f":
        return f"{value:#010x} ({f32_repr(value)})"
    if kind == "fcsr":
        return f"{value:#010x} ({describe_fcsr(value)})"
    if kind == "x":
        return f"{value:#010x} ({s32(value)})"
    return f"{value:#010x}"


def diff_signatures(expected, actual, limit=16):
    """Human-readable list of the words that differ between two signatures."""
    lines = []
    if len(expected) != len(actual):
        lines.append(f"signature length differs: expected {len(expected)} bytes, got {len(actual)} bytes")
    exp_entries = list(signature_entries(expected))
    act_entries = list(signature_entries(actual))
    diffs = [(e, a) for e, a in zip(exp_entries, act_entries) if e[1] != a[1]]
    for (name, ev, kind), (_, av, _) in diffs[:limit]:
        lines.append(f"{name}: expected {format_value(ev, kind)}, got {format_value(av, kind)}")
    if len(diffs) > limit:
        lines.append(f"... and {len(diffs) - limit} more differing words")
    return lines


def log_slot_sources(asm_text):
    """Maps each result-log slot to (line number, instruction whose result it holds)."""
    sources = {}
    previous = None
    base = f"({xr(BASE_REG)})"
    for number, raw in enumerate(asm_text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith((".", "#")):
            continue
        words = line.replace(",", " ").split()
        if words[0] in ("sw", "fsw") and len(words) == 3 and words[2].endswith(base):
            offset = int(words[2][: -len(base)])
            if offset >= DATA_SIZE and previous is not None:
                sources.setdefault((offset - DATA_SIZE) // 4, previous)
                continue
        previous = (number, line.split("#")[0].strip())
    return sources


def differing_log_slots(expected, actual):
    slots = []
    first = SIG_HEADER_BYTES + DATA_SIZE
    for off in range(first, min(len(expected), len(actual)) - 3, 4):
        if expected[off:off + 4] != actual[off:off + 4]:
            slots.append((off - first) // 4)
    return slots


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--length", type=int, default=250, help="minimum instructions in the random body")
    parser.add_argument("--fault", action="store_true", help="inject one wrong instruction")
    parser.add_argument("-o", "--output", help="output .S file (default: stdout)")
    parser.add_argument("--linker-script", help="also write the linker script to this path")
    args = parser.parse_args()
    text = generate(args.seed, args.length, args.fault)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.linker_script:
        with open(args.linker_script, "w") as f:
            f.write(LINKER_SCRIPT)


if __name__ == "__main__":
    main()
