#!/usr/bin/env python3
"""Times programs on the CV32E40P RTL (this folder's Verilator build) and on `pulpsim run --bare`.

  compare.py random --rtl DIR [--seed S] [--count N] [--xpulp] [--latency AO]   random programs
  compare.py shrink SEED --rtl DIR [same options as random]                     the blocks that still differ
  compare.py snippet --rtl DIR 'lw a0, 0(s1); addi a0, a3, 1' ...               cycles of each snippet
  compare.py legal --rtl DIR [simd custom1 custom2 op fp fma system csr rvc]    which encodings trap
  compare.py sequences --rtl DIR [--latency AO]                                 tests/timing/sequences.S, case by case

A random program is tests/differential/gen_program.py's (RV32IMFC without Zfh, which CV32E40P v2 lacks),
with more misaligned accesses (FP and post-increment ones too), small divisors, div/sqrt chains, loads
followed by writes, loads to x0 followed by writes to x0 and FP operations writing x0 followed by
instructions naming x0, and with --xpulp Xpulp ALU, MAC, SIMD, post-increment, immediate-branch and
hardware-loop instructions (single and nested loops, bodies drawn from the other kinds), and with --traps
instructions that trap (ecall, ebreak, an illegal CSR write, illegal words, a dynamic rounding mode while
frm is reserved), in loop bodies too, with --counters reads and writes of the performance counters, and with
--csrs reads and writes of the machine-mode CSRs (WARL fields read back, mstatus.FS changes, mret). It reads
mcycle before its register set-up and after its signature stores; both runs must give the same cycles,
the same sum of its traps' mepc + mcause and the same signature words.
"""
import argparse
import concurrent.futures
import copy
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "differential"))
import gen_program as gp  # noqa: E402

# Code at 0x80, where the core boots; a trap (mtvec = 0) stores 0x20000000 to the exit register.
LINKER_SCRIPT = """ENTRY(_start)
SECTIONS {
  . = 0;
  .vectors : { LONG(0x200002b7) LONG(0x0052a223) LONG(0x0000006f) }
  . = 0x80;
  .text : { *(.text .text.*) }
  . = 0x10000;
  .data : { *(.data .data.*) }
}
"""
XPULP_ARCH = "_xcvmem_xcvmac_xcvalu_xcvbi_xcvbitmanip_xcvsimd"


class Generator(gp.ProgramGenerator):
    def __init__(self, seed, length, xpulp, traps=False, counters=False, csrs=False):
        super().__init__(seed, length)
        self.xpulp = xpulp
        self.traps = traps
        kinds = [(f, w) for f, w in self.kinds if "zfh" not in f.__name__]
        kinds += [(self.g_misaligned, 4), (self.g_div_small, 3), (self.g_divsqrt_chain, 3),
                  (self.g_write_after_load, 4), (self.g_x0_write, 3), (self.g_fp_x0_write, 3)]
        kinds += [(self.g_trap, 3)] if traps else []
        kinds += [(self.g_counter, 4)] if counters else []
        kinds += [(self.g_machine_csr, 4)] if csrs else []
        if xpulp:
            kinds += [(self.g_x_alu, 6), (self.g_x_mac, 4), (self.g_x_simd, 6), (self.g_x_mem, 5),
                      (self.g_x_branch, 2), (self.g_x_hwloop, 3)]
            body = [(self.g_alu_rr, 6), (self.g_alu_ri, 5), (self.g_shift_imm, 2), (self.g_lui_auipc, 1),
                    (self.g_li, 2), (self.g_muldiv, 4), (self.g_load, 5), (self.g_store, 4),
                    (self.g_fp_load_store, 4), (self.g_fp_arith, 5), (self.g_fp_sqrt, 1), (self.g_fp_fma, 4),
                    (self.g_fp_sign_minmax, 2), (self.g_fp_compare_class, 3), (self.g_fp_convert, 3),
                    (self.g_fp_move, 3), (self.g_fp_value, 2), (self.g_fp_csr, 2), (self.g_misaligned, 3),
                    (self.g_div_small, 2), (self.g_divsqrt_chain, 2), (self.g_write_after_load, 3),
                    (self.g_x0_write_in_loop, 2), (self.g_fp_x0_write_in_loop, 2),
                    (self.g_x_alu, 4), (self.g_x_mac, 4), (self.g_x_simd, 4), (self.g_x_mem, 4)]
            body += [(self.g_trap, 2)] if traps else []
            body += [(self.g_counter, 2)] if counters else []
            body += [(self.g_machine_csr_in_loop, 2)] if csrs else []
            self.body_funcs = [k for k, _ in body]
            self.body_weights = [w for _, w in body]
        self.kind_funcs = [k for k, _ in kinds]
        self.kind_weights = [w for _, w in kinds]

    def other_than(self, *taken):
        r = self.rd()
        while r in taken:
            r = self.rd()
        return r

    def g_misaligned(self):
        rng, base = self.rng, gp.xr(gp.BASE_REG)
        op = rng.choice(["lw", "lh", "lhu", "sw", "sh", "flw", "fsw"])
        offset = 4 * rng.randrange(200) + (rng.choice([1, 2, 3]) if op.endswith("w") else 3)
        if op.startswith("s") or op == "fsw":
            source = gp.fr(self.fd()) if op == "fsw" else gp.xr(self.rs())
            self.add([f"{op} {source}, {offset}({base})"])
            return
        if op == "flw":
            d = gp.fr(self.fd())
            follow = f"fadd.s {gp.fr(self.fd())}, {d}, {gp.fr(self.fd())}, {self.rm()}"
        else:
            d = gp.xr(self.rd())
            follow = f"add {gp.xr(self.rd())}, {d}, {gp.xr(self.rs())}"
        lines = [f"{op} {d}, {offset}({base})"]
        if rng.random() < 0.6:
            lines.append(follow)
        self.add(lines)

    def g_div_small(self):
        t, d = self.rd(), self.rd()
        value = self.rng.choice([-1, -2, -3, -4, -7, -8, -100, 1, 2, 3, 7, 0x10000, -0x10000, 0x7FFFFFFF, -0x80000000])
        op = self.rng.choice(["div", "divu", "rem", "remu"])
        self.add([f"li {gp.xr(t)}, {value}", f"{op} {gp.xr(d)}, {gp.xr(self.rs())}, {gp.xr(t)}"])

    def g_divsqrt_chain(self):
        source, lines = self.fd(), []
        for _ in range(self.rng.randint(1, 3)):
            d = self.fd()
            if self.rng.random() < 0.5:
                lines.append(f"fdiv.s {gp.fr(d)}, {gp.fr(source)}, {gp.fr(self.fd())}, {self.rm()}")
            else:
                lines.append(f"fsqrt.s {gp.fr(d)}, {gp.fr(source)}, {self.rm()}")
            source = d
        self.add(lines)

    def g_write_after_load(self):
        d, base = self.rd(), gp.xr(gp.BASE_REG)
        follow = self.rng.choice([f"addi {gp.xr(d)}, {gp.xr(self.rs())}, 1", f"csrr {gp.xr(d)}, mscratch",
                                  f"mul {gp.xr(self.rd())}, {gp.xr(d)}, {gp.xr(self.rs())}",
                                  f"sw {gp.xr(d)}, {self.data_offset(4)}({base})"])
        self.add([f"lw {gp.xr(d)}, {self.data_offset(4)}({base})", follow])

    def g_x0_write_in_loop(self):
        self.g_x0_write(jump=False)

    def g_x0_write(self, jump=True):
        # A load to x0, sometimes misaligned or (with Xpulp) post-incrementing, then maybe instructions that
        # write x0 through the ALU port, read x0 or jump; the load stall compares x0 as a write address.
        rng, base = self.rng, gp.xr(gp.BASE_REG)
        op, width = rng.choice(self.LOADS)
        offset = self.data_offset(4) + (rng.choice([0, 0, 1, 2, 3]) if width > 1 else 0)
        lines = [f"{op} zero, {offset}({base})"]
        if self.xpulp and rng.random() < 0.3:
            pointer = self.rd()
            lines = [f"addi {gp.xr(pointer)}, {base}, {rng.randrange(256, 768, 4)}",
                     f"cv.{op} zero, ({gp.xr(pointer)}), {rng.randrange(-64, 64, width)}"]
        a, b = gp.xr(self.rs()), gp.xr(self.rs())
        follow = rng.choice(["nop", f"addi zero, {a}, {rng.randint(-2048, 2047)}", f"add zero, {a}, {b}",
                             f"mul zero, {a}, {b}", f"mulh zero, {a}, {b}", f"lui zero, {rng.randint(0, 0xfffff)}",
                             "csrrs zero, mscratch, zero", f"csrw mscratch, {a}",
                             f"addi {gp.xr(self.rd())}, zero, {rng.randint(-2048, 2047)}",
                             f"{op} zero, {self.data_offset(4)}({base})", None] + (["j 1f\n1:"] if jump else []))
        if follow:
            lines += follow.split("\n")
            if rng.random() < 0.4:
                lines.append(rng.choice(["nop", f"add zero, {a}, {b}", f"sltu zero, {a}, {b}"]))
        self.add(lines)

    def g_fp_x0_write_in_loop(self):
        self.g_fp_x0_write(jump=False)

    def g_fp_x0_write(self, jump=True):
        # An FP operation writing x0, whose address the APU dispatcher compares with every instruction's
        # (register c defaults to x0), then maybe instructions that name x0 or write it.
        rng, base = self.rng, gp.xr(gp.BASE_REG)
        fa, fb = gp.fr(self.fd()), gp.fr(self.fd())
        lines = [rng.choice([f"feq.s zero, {fa}, {fb}", f"flt.s zero, {fa}, {fb}", f"fle.s zero, {fa}, {fb}",
                             f"fclass.s zero, {fa}", f"fcvt.w.s zero, {fa}, {self.rm()}",
                             f"fcvt.wu.s zero, {fa}, {self.rm()}", f"fmv.x.w zero, {fa}"])]
        a, d = gp.xr(self.rs()), gp.xr(self.rd())
        follow = [f"sw zero, {self.data_offset(4)}({base})", f"sw {a}, {self.data_offset(4)}({base})",
                  f"fsw {fb}, {self.data_offset(4)}({base})", f"fcvt.s.w {fb}, zero", f"fmv.w.x {fb}, zero",
                  f"fadd.s {fb}, {fa}, {fb}", f"fmul.s {fb}, {fa}, {fb}", f"addi {d}, zero, 1", "nop",
                  f"add {d}, {a}, zero", f"mul {d}, {a}, {a}", f"lw {d}, {self.data_offset(4)}({base})", None]
        if jump:
            follow += ["beq zero, zero, 1f\n1:", f"bne {a}, zero, 1f\n1:", f"bne {a}, {a}, 1f\n1:", "j 1f\n1:",
                       f"jal {d}, 1f\n1:"]
        if self.xpulp:
            follow += [f"cv.mac {d}, {a}, {a}", f"cv.insert {d}, {a}, 3, 4", f"cv.extract {d}, {a}, 3, 4",
                       f"cv.bclrr {d}, {a}, zero", f"cv.sw zero, ({d}), 4", f"cv.sdotsp.h {d}, {a}, {a}"]
            if jump:
                follow += [f"cv.beqimm zero, 0, 1f\n1:", f"cv.bneimm {a}, 3, 1f\n1:"]
        pick = rng.choice(follow)
        if pick and pick.startswith("cv.sw"):
            pick = f"addi {d}, {base}, {rng.randrange(256, 768, 4)}\n{pick}"
        if pick:
            lines += pick.split("\n")
        self.add(lines)

    def g_trap(self):
        # A 4-byte instruction that traps: the handler (TRAP_HANDLER) returns past it.
        rng = self.rng
        if rng.random() < 0.2:
            # An operation with the dynamic rounding mode while frm holds a reserved one, then frm back.
            saved, fd, fa, fb = gp.xr(self.rd()), gp.fr(self.fd()), gp.fr(self.fd()), gp.fr(self.fd())
            op = rng.choice([f"fadd.s {fd}, {fa}, {fb}, dyn", f"fmul.s {fd}, {fa}, {fb}, dyn",
                             f"fdiv.s {fd}, {fa}, {fb}, dyn", f"fcvt.w.s {gp.xr(self.rd())}, {fa}, dyn"])
            self.add([f"fsrmi {saved}, {rng.randint(5, 7)}", op, f"fsrm {saved}"])
            return
        # The words: all ones, and fadd.s f0, f0, f0 with the reserved rounding mode 5.
        trap = rng.choice(["ecall", "ebreak", "csrw mvendorid, zero", ".word 0xffffffff", ".word 0x00005053"])
        self.add([".option push", ".option norvc", trap, ".option pop"])

    def g_counter(self):
        # mhpmcounter3 counting one event or two (the counter adds 1 in a cycle with either; INSTR with an APU
        # event often, and LD, ST, JUMP, BRANCH or COMP_INSTR with one), the counters read mid-program, minstret
        # and mhpmcounter3 written or inhibited. mcycle keeps counting: the two reads around the body time it.
        rng = self.rng
        k = rng.randrange(10)
        if k < 3:
            r = gp.xr(self.rd())
            events = rng.sample(range(16), 2 if rng.random() < 0.25 else 1)
            if rng.random() < 0.2:
                events = [1, rng.choice([12, 13, 14, 15])]
            elif rng.random() < 0.2:
                events = [rng.choice([5, 6, 7, 8, 10]), rng.choice([12, 13, 14, 15])]
            self.add([f"li {r}, {sum(1 << e for e in events)}", f"csrw mhpmevent3, {r}"])
        elif k == 3:
            self.add([f"csrwi mcountinhibit, {rng.choice([0, 4, 8, 12])}"])
        elif k == 4:
            r = gp.xr(self.rd())
            self.add([f"li {r}, {rng.choice([0, 1, 0x7fffffff, 0xffffffff, rng.getrandbits(32)])}",
                      f"csrw {rng.choice(['minstret', 'mhpmcounter3', 'minstreth', 'mhpmcounter3h'])}, {r}"])
        else:
            counter = rng.choice(["mcycle", "minstret", "mhpmcounter3", "mhpmcounter3", "mhpmcounter3",
                                  "mcycleh", "minstreth", "mhpmcounter3h", "cycle", "instret", "hpmcounter3"])
            self.add([f"csrr {gp.xr(self.rd())}, {counter}"])

    # Machine-mode CSRs that a test suite reads and writes: read-only IDs, WARL fields read back after a write
    # (mstatus, mtvec, mie, the trigger CSRs), plain registers (mscratch, mepc, mcause), and mstatus.FS turned
    # to Initial (the next FP write makes it Dirty again) or, with --traps, Off around an FP instruction.
    # Every status write costs the flush of CV32E40P's long CSR accesses, right after FP operations too. Out of
    # hardware loops, an mret to the next instruction.
    READ_ONLY_CSRS = ["misa", "mhartid", "mvendorid", "marchid", "mimpid", "mip", "mtval", "0x7A4", "0xF15"]
    TRIGGER_CSRS = ["tselect", "tdata1", "tdata2", "tdata3", "mcontext", "scontext", "0x7A8", "0x6A8"]

    def g_machine_csr_in_loop(self):
        self.g_machine_csr(jump=False)

    def g_machine_csr(self, jump=True):
        rng = self.rng
        d = self.rd()
        t = self.other_than(d)
        u = self.other_than(d, t)
        d, t, u = gp.xr(d), gp.xr(t), gp.xr(u)
        fa, fb, base = gp.fr(self.fd()), gp.fr(self.fd()), gp.xr(gp.BASE_REG)
        k = rng.randrange(12)
        value = rng.choice([0, 1, 0xffffffff, rng.getrandbits(32), 1 << rng.randrange(32)])
        if k == 0:
            lines = [f"csrr {d}, {rng.choice(self.READ_ONLY_CSRS)}"]
        elif k == 1:
            csr = rng.choice(["mscratch", "mepc", "mcause"])
            op = rng.choice(["csrrw", "csrrs", "csrrc"])
            lines = [f"li {t}, {value}", f"{op} {d}, {csr}, {t}", f"csrr {u}, {csr}"]
        elif k == 2:
            csr = rng.choice(["mscratch", "mepc", "mcause", "mie"])
            op = rng.choice(["csrrwi", "csrrsi", "csrrci"])
            lines = [f"{op} {d}, {csr}, {rng.randrange(32)}", f"csrr {u}, {csr}"]
        elif k == 3:
            # mie's WARL bits (no interrupt can come: the test bench ties them off).
            lines = [f"li {t}, {value}", f"csrrw {d}, mie, {t}", f"csrr {u}, mie", "csrw mie, zero"]
        elif k == 4:
            # mtvec's mode and base bits, then the handler's base back.
            lines = [f"csrr {t}, mtvec", f"li {u}, {value}", f"csrw mtvec, {u}", f"csrr {d}, mtvec",
                     f"csrw mtvec, {t}"]
        elif k == 5:
            # mstatus's WARL fields (MPP, MPIE, MIE, the others fixed): set or clear, read back, FS left Dirty.
            mask = rng.choice([0x1800, 0x80, 0x8, 0x88, 0x1888, value & ~0x6000])
            op = rng.choice(["csrrs", "csrrc", "csrrw"])
            if op == "csrrw":
                lines = [f"li {t}, {(value & ~0x6000) | 0x6000}", f"csrrw {d}, mstatus, {t}"]
            else:
                lines = [f"li {t}, {mask}", f"{op} {d}, mstatus, {t}"]
            lines += [f"csrr {u}, mstatus", "csrci mstatus, 8"]
        elif k == 6:
            # FS = Initial, maybe an FP instruction (which makes it Dirty) and a read of mstatus (SD).
            lines = [f"li {t}, 0x4000", f"csrc mstatus, {t}"]
            lines += rng.choice([[], [f"fadd.s {fa}, {fa}, {fb}"], [f"flw {fa}, {self.data_offset(4)}({base})"],
                                 [f"fsw {fa}, {self.data_offset(4)}({base})"], [f"fmv.x.w {d}, {fa}"],
                                 [f"csrr {d}, fflags"], [f"fdiv.s {fa}, {fa}, {fb}"]])
            lines += [f"csrr {u}, mstatus", f"li {t}, 0x6000", f"csrs mstatus, {t}"]
        elif k == 7 and self.traps:
            # FS = Off: every FP instruction and FP CSR access is illegal.
            lines = [f"li {t}, 0x6000", f"csrc mstatus, {t}",
                     rng.choice([f"fadd.s {fa}, {fa}, {fb}", f"flw {fa}, {self.data_offset(4)}({base})",
                                 f"fmv.w.x {fa}, {d}", f"csrr {d}, fcsr", f"fsflags {d}, {u}"]),
                     f"csrr {u}, mstatus", f"li {t}, 0x6000", f"csrs mstatus, {t}"]
        elif k == 8:
            csr = rng.choice(self.TRIGGER_CSRS)
            lines = [f"li {t}, {value}", f"csrrw {d}, {csr}, {t}", f"csrr {u}, {csr}"]
        elif k == 9:
            # A status CSR right behind an FP operation (the CSR waits for it) or a load.
            lines = [rng.choice([f"fmul.s {fa}, {fa}, {fb}", f"fdiv.s {fa}, {fa}, {fb}", f"fsqrt.s {fa}, {fb}",
                                 f"lw {t}, {self.data_offset(4)}({base})", f"fcvt.w.s {t}, {fb}"]),
                     rng.choice([f"csrr {d}, mstatus", f"csrrs {d}, mscratch, {t}", f"csrr {d}, mepc",
                                 f"csrr {d}, misa", f"csrw mscratch, {t}", f"csrr {d}, mcause"])]
        elif k == 10 and self.traps:
            # Debug-mode CSRs and ones CV32E40P lacks (user and supervisor CSRs, PMP): illegal in machine mode.
            csr = rng.choice(["0x7B0", "0x7B1", "0x7B2", "0x7B3", "0x306", "0x30A", "0x3A0", "0x3B0", "0x7A5",
                              "0x105", "0x180"])
            lines = [".option push", ".option norvc", f"csrr {d}, {csr}", ".option pop"]
        elif k == 11 and jump:
            # mret outside a handler: to mepc, MIE from MPIE.
            lines = [f"la {t}, 1f", f"csrw mepc, {t}", "mret", "1:", f"csrr {u}, mstatus", "csrci mstatus, 8"]
        else:
            lines = [f"csrr {d}, mstatus", f"csrr {u}, mscratch"]
        # Both values read go to the log: a later block may overwrite them before the signature.
        for register in (d, u):
            lines.append(f"sw {register}, {gp.DATA_SIZE + self.log_slot * 4}({base})")
            self.log_slot = (self.log_slot + 1) % (gp.LOG_SIZE // 4)
        self.add(lines)

    def g_x_alu(self):
        rng = self.rng
        d, a, b = gp.xr(self.rd()), gp.xr(self.rs()), gp.xr(self.rs())
        k = rng.randrange(7)
        if k == 0:
            op = rng.choice(["cv.abs", "cv.cnt", "cv.ff1", "cv.fl1", "cv.clb", "cv.exths", "cv.exthz", "cv.extbs",
                             "cv.extbz"])
            line = f"{op} {d}, {a}"
        elif k == 1:
            op = rng.choice(["cv.min", "cv.minu", "cv.max", "cv.maxu", "cv.ror", "cv.slet", "cv.sletu", "cv.clipr",
                             "cv.clipur", "cv.extractr", "cv.extractur", "cv.insertr", "cv.bclrr", "cv.bsetr",
                             "cv.addNr", "cv.subNr"])
            line = f"{op} {d}, {a}, {b}"
        elif k == 2:
            line = f"{rng.choice(['cv.clip', 'cv.clipu'])} {d}, {a}, {rng.randint(0, 31)}"
        elif k == 3:
            op = rng.choice(["cv.addN", "cv.adduN", "cv.addRN", "cv.adduRN", "cv.subN", "cv.subuN", "cv.subRN",
                             "cv.subuRN"])
            line = f"{op} {d}, {a}, {b}, {rng.randint(0, 31)}"
        elif k == 4:
            op = rng.choice(["cv.extract", "cv.extractu", "cv.insert", "cv.bclr", "cv.bset"])
            line = f"{op} {d}, {a}, {rng.randint(0, 31)}, {rng.randint(0, 31)}"
        else:
            line = f"cv.bitrev {d}, {a}, {rng.randint(0, 2)}, {rng.randint(0, 31)}"
        self.add([line])

    def g_x_mac(self):
        rng = self.rng
        d, a, b = gp.xr(self.rd()), gp.xr(self.rs()), gp.xr(self.rs())
        plain = ["cv.mac", "cv.msu", "cv.muls", "cv.mulhhs", "cv.mulu", "cv.mulhhu"]
        shifted = [f"cv.{m}{h}{s}{r}N" for m in ("mul", "mac") for h in ("", "hh") for s in ("s", "u") for r in ("", "R")]
        op = rng.choice(plain + shifted)
        lines = [f"{op} {d}, {a}, {b}" + ("" if op in plain else f", {rng.randint(0, 31)}")]
        if rng.random() < 0.5:
            lines.append(f"add {gp.xr(self.rd())}, {d}, {gp.xr(self.rs())}")
        self.add(lines)

    def g_x_simd(self):
        rng = self.rng
        d, a, b = gp.xr(self.rd()), gp.xr(self.rs()), gp.xr(self.rs())
        size = rng.choice(["h", "b"])
        k = rng.randrange(6)
        if k < 3:
            op = rng.choice(["add", "sub", "avg", "avgu", "min", "minu", "max", "maxu", "srl", "sra", "sll", "or",
                             "xor", "and", "dotup", "dotusp", "dotsp", "sdotup", "sdotusp", "sdotsp", "cmpeq",
                             "cmpne", "cmpgt", "cmpge", "cmplt", "cmple", "cmpgtu", "cmpgeu", "cmpltu", "cmpleu"])
            line = f"cv.{op}{rng.choice(['', '.sc'])}.{size} {d}, {a}, {b}"
        elif k == 3:
            op = rng.choice(["add", "sub", "avg", "min", "max", "srl", "sra", "sll", "or", "xor", "and", "dotsp",
                             "sdotsp", "cmpeq", "cmplt"])
            imm = rng.randint(0, 7) if op in ("srl", "sra", "sll") else rng.randint(-32, 31)
            line = f"cv.{op}.sci.{size} {d}, {a}, {imm}"
        elif k == 4:
            op = rng.choice(["abs", "extract", "extractu", "insert"])
            line = f"cv.abs.{size} {d}, {a}" if op == "abs" else \
                f"cv.{op}.{size} {d}, {a}, {rng.randint(0, 1 if size == 'h' else 3)}"
        else:
            op = rng.choice(["cv.shuffle.h", "cv.shuffle.b", "cv.shuffle2.h", "cv.shuffle2.b", "cv.pack",
                             "cv.pack.h", "cv.packhi.b", "cv.packlo.b"])
            line = f"{op} {d}, {a}, {b}"
        self.add([line])

    def g_x_mem(self):
        # A pointer into the data area, then a post-increment or register-offset access through it.
        rng = self.rng
        pointer = self.rd()
        d = self.other_than(pointer)
        op, width = rng.choice([("cv.lw", 4), ("cv.lh", 2), ("cv.lhu", 2), ("cv.lb", 1), ("cv.lbu", 1),
                                ("cv.sw", 4), ("cv.sh", 2), ("cv.sb", 1)])
        # Now and then misaligned: a word at +1 to +3, a halfword across a word boundary.
        skew = rng.choice([0, 0, 0, 1, 2, 3] if width == 4 else [0, 0, 0, 3]) if width > 1 else 0
        lines = [f"addi {gp.xr(pointer)}, {gp.xr(gp.BASE_REG)}, {rng.randrange(256, 768, 4) + skew}"]
        step = rng.randrange(-64, 64, width)
        form = rng.randrange(3)
        if form == 0:
            lines.append(f"{op} {gp.xr(d)}, ({gp.xr(pointer)}), {step}")
        else:
            offset = self.other_than(pointer, d)
            access = f"{op} {gp.xr(d)}, ({gp.xr(pointer)}), {gp.xr(offset)}" if form == 1 else \
                f"{op} {gp.xr(d)}, {gp.xr(offset)}({gp.xr(pointer)})"
            lines = [f"li {gp.xr(offset)}, {step}"] + lines + [access]
        if not op.startswith("cv.s") and rng.random() < 0.5:
            lines.append(f"add {gp.xr(self.rd())}, {gp.xr(d)}, {gp.xr(pointer)}")
        self.add(lines)

    def g_x_branch(self):
        op = self.rng.choice(["cv.beqimm", "cv.bneimm"])
        self.add([f"{op} {gp.xr(self.rs())}, {self.rng.randint(-16, 15)}, {{T}}"], reach="b", skip=self.skip())

    def loop_body(self, at_least):
        """Lines of random blocks that a hardware loop may hold: no branch, jump, fence or compressed form
        (the loop macros turn RVC off), at least `at_least` of them."""
        outer, self.blocks = self.blocks, []
        while sum(b.instr_count() for b in self.blocks) < at_least:
            self.rng.choices(self.body_funcs, self.body_weights)[0]()
        lines = [line for b in self.blocks for line in b.lines]
        self.blocks = outer
        return lines

    def loop_begin(self, loop, label, immediate):
        """A loop set-up (kernels/runtime/hwloop.h) with a count of 1 to 5, from an immediate or a register:
        cv.setup(i), or now and then start, end and count one by one (the count last: it arms the loop)."""
        count = self.rng.randint(1, 5)
        r = gp.xr(self.rd())
        if self.rng.random() < 0.25:
            lines = [".balign 4", ".option push", ".option norvc", f"cv_starti {loop}, 5f",
                     f"cv_endi {loop}, {label}"]
            lines += [f"cv_counti {loop}, {count}"] if immediate else [f"li {r}, {count}", f"cv_count {loop}, {r}"]
            return lines + ["5:"]
        if immediate:
            return [f"cv_loopi_begin {loop}, {count}, {label}"]
        return [f"li {r}, {count}", f"cv_loop_begin {loop}, {r}, {label}"]

    def g_x_hwloop(self):
        # The CV32E40P manual's constraints: a body of 3 instructions or more, and an outer loop's end at
        # least 8 bytes past the inner one's. cv.setupi reaches 31 words, so long bodies take cv.setup.
        rng = self.rng
        if rng.random() < 0.75:
            body = self.loop_body(rng.randint(3, 8))
            self.add(self.loop_begin(rng.choice([0, 0, 1]), "1f", rng.random() < 0.5) + body + ["1: cv_loop_end"])
            return
        inner = self.loop_begin(0, "1f", rng.random() < 0.5) + self.loop_body(rng.randint(3, 6)) + ["1: cv_loop_end"]
        outer = self.loop_begin(1, "2f", False)
        self.add(outer + self.loop_body(rng.randint(0, 2)) + inner + self.loop_body(2) + ["2: cv_loop_end"])


# Adds mepc + mcause of every trap to the word before the two mcycle reads, then returns as the CV32E40P
# manual's hardware-loop chapter asks of an ecall or ebreak handler: from a loop's last instruction it
# counts the round itself, to the loop's start or past its end, and otherwise past the 4-byte instruction.
# It saves its registers below the signature. mtvec takes a 256-byte aligned base: .balign would move the
# text's start instead.
TRAP_HANDLER = """
    .option push
    .option norvc
    .skip (256 - ((0x80 + (. - _start)) & 255)) & 255
trap_handler:
    sw t0, -280(s1)
    sw t1, -276(s1)
    sw t2, -272(s1)
    csrr t0, mepc
    csrr t1, mcause
    add t1, t1, t0
    lw t2, -268(s1)
    add t2, t2, t1
    sw t2, -268(s1)
{loops}
3:  addi t0, t0, 4
4:  csrw mepc, t0
    lw t2, -272(s1)
    lw t1, -276(s1)
    lw t0, -280(s1)
    mret
    .option pop
"""
LOOP_ROUND = """    csrr t1, {end}
    addi t1, t1, -4
    bne t0, t1, {next}
    csrr t1, {count}
    beqz t1, {next}
    addi t1, t1, -1
    cv_count {loop}, t1
    beqz t1, 3f
    csrr t0, {start}
    j 4f
"""
HANDLER_LOOPS = (LOOP_ROUND.format(loop=0, start="0xcc0", end="0xcc1", count="0xcc2", next="1f") + "1:\n" +
                 LOOP_ROUND.format(loop=1, start="0xcc4", end="0xcc5", count="0xcc6", next="3f"))


def bare_program(text, xpulp):
    """A generated program, set up for the RTL test bench: FP on, counters on, the trap handler in mtvec,
    the trap sum and mcycle read into the three words before the signature, the exit register in place of
    the exit call."""
    text = text.replace("_start:\n", "_start:\n    li t0, 0x6000\n    csrs mstatus, t0\n"
                        "    csrw mcountinhibit, zero\n    la t0, trap_handler\n    csrw mtvec, t0\n", 1)
    text = text.replace("    la t6, init_table\n", "    csrr t0, mcycle\n    sw t0, -264(s1)\n"
                        "    la t6, init_table\n", 1)
    calls = text.rindex("    li a7, 64")  # the exit sequence; a random block may hold the same li
    after = text.index("\n", text.index("ecall", text.index("    li a7, 93", calls))) + 1
    text = (text[:calls] + "    csrr t0, mcycle\n    sw t0, -260(s1)\n    li t0, 0x20000004\n    sw zero, 0(t0)\n"
            "1:  j 1b\n" + TRAP_HANDLER.format(loops=HANDLER_LOOPS if xpulp else "") + text[after:])
    text = text.replace("signature:\n", "trap_save:\n    .space 12\nbegin_signature:\n    .space 12\nsignature:\n", 1)
    return text.replace("init_table:\n", "end_signature:\ninit_table:\n", 1)


class Runner:
    def __init__(self, args):
        self.args = args
        self.workdir = pathlib.Path(args.workdir or tempfile.mkdtemp(prefix="pulpsim-rtl-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "link.ld").write_text(LINKER_SCRIPT)
        self.rtl = pathlib.Path(args.rtl) / f"cv32e40p_lat{args.latency}"
        if not self.rtl.exists():
            sys.exit(f"compare.py: {self.rtl} does not exist: build it with scripts/rtl/build.sh")

    def build(self, name, text, link="link.ld"):
        source, elf = self.workdir / f"{name}.S", self.workdir / f"{name}.elf"
        source.write_text('#include "hwloop.h"\n' + text)
        arch = "rv32imfc_zicsr_zifencei" + (XPULP_ARCH if self.args.xpulp else "")
        built = subprocess.run(["clang-19", "--target=riscv32-unknown-elf", f"-march={arch}", "-mabi=ilp32f",
                                "-mno-relax", "-nostdlib", "-fuse-ld=lld", "-I", str(ROOT / "kernels" / "runtime"),
                                "-T", str(self.workdir / link), "-o", str(elf), str(source)])
        if built.returncode != 0:  # the assembler has said why, above
            hint = "" if self.args.xpulp else " (Xpulp instructions need --xpulp)"
            sys.exit(f"compare.py: {source} does not assemble{hint}")
        subprocess.run(["llvm-objcopy-19", "-O", "binary", str(elf), str(elf.with_suffix(".bin"))], check=True)
        symbols = subprocess.run(["llvm-nm-19", str(elf)], capture_output=True, text=True, check=True).stdout
        address = {f[2]: f[0] for f in (line.split() for line in symbols.splitlines()) if len(f) == 3}
        return elf, address["begin_signature"], address["end_signature"]

    def run(self, name, text, link="link.ld"):
        """(pulpsim's words, the RTL's words) of the signature, or a string saying what failed."""
        elf, begin, end = self.build(name, text, link)
        signature = elf.with_suffix(".signature")
        command = [self.args.sim, "run", "--bare", "-q", "--memory", "0x0:0x400000", "--exit-addr", "0x20000004",
                   "--signature", str(signature), str(elf)]
        addmul, others = self.args.latency
        if self.args.latency != "00":
            command[2:2] = ["--set", f"fpu.addmul_latency={addmul}", "--set", f"fpu.other_latency={others}"]
        ours = subprocess.run(command, capture_output=True, text=True)
        if ours.returncode != 0:
            return f"pulpsim: exit {ours.returncode}: {ours.stderr.strip()}"
        rtl = subprocess.run([str(self.rtl), str(elf.with_suffix(".bin")), begin, end], capture_output=True,
                             text=True, timeout=900)
        lines = rtl.stdout.splitlines()
        exits = [i for i, line in enumerate(lines) if line.startswith("exit ")]
        if rtl.returncode != 0 or not exits:
            return f"RTL: exit {rtl.returncode}: {rtl.stderr.strip()}"
        return signature.read_text().split(), lines[exits[-1] + 1:]


def cycles(words):
    """The cycles between a random program's two mcycle reads (words 1 and 2; word 0 sums its traps)."""
    return int(words[2], 16) - int(words[1], 16)


def difference(words):
    """None when both runs agree, else what differs: cycles, the trap sum, then the signature's words."""
    if isinstance(words, str):
        return words
    ours, rtl = words
    differing = [i - 3 for i, (a, b) in enumerate(zip(ours, rtl)) if i > 2 and a != b]
    traps = "" if ours[0] == rtl[0] else f"; trap sums: pulpsim {ours[0]}, RTL {rtl[0]}"
    if cycles(ours) == cycles(rtl) and not traps and not differing and len(ours) == len(rtl):
        return None
    return f"cycles: pulpsim {cycles(ours)}, RTL {cycles(rtl)}{traps}; signature words that differ: {differing[:12]}"


def random_programs(runner, args):
    def one(seed):
        generator = Generator(seed, args.length, args.xpulp, args.traps, args.counters, args.csrs)
        text = bare_program(generator.generate(), args.xpulp)
        return seed, difference(runner.run(f"seed{seed}", text))

    failing = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done, (seed, problem) in enumerate(pool.map(one, range(args.seed, args.seed + args.count)), 1):
            if problem:
                failing += 1
                print(f"seed {seed}: {problem}", flush=True)
            if done % 20 == 0:
                print(f"[{done}/{args.count}] {failing} differ", file=sys.stderr, flush=True)
    print(f"{args.count - failing} of {args.count} programs agree (workdir {runner.workdir})")
    return 1 if failing else 0


def shrink(runner, args):
    """Drops blocks of the program while the cycle counts still differ, or, when they agree, while any word of
    the signature does (a counter read, a result): both runs execute the same blocks, so any word they disagree
    on is the model's."""
    generator = Generator(args.seed, args.length, args.xpulp, args.traps, args.counters, args.csrs)
    generator.generate_body()
    after_body = generator.rng.getstate()  # the register and data values come after the body

    def text_of(blocks):
        program = Generator(args.seed, args.length, args.xpulp, args.traps, args.counters, args.csrs)
        program.blocks = [copy.copy(b) for b in blocks]
        program.generate_body = program.resolve_targets
        program.rng.setstate(after_body)
        return bare_program(program.generate(), args.xpulp)

    def run(blocks):
        try:
            words = runner.run(f"shrink{args.seed}", text_of(blocks))
        except subprocess.CalledProcessError:
            return None
        return None if isinstance(words, str) else words

    blocks = list(generator.blocks)
    first = run(blocks)
    if first is None or difference(first) is None:
        print(f"seed {args.seed}: the two runs agree")
        return 0
    by_cycles = cycles(first[0]) != cycles(first[1])

    def still_differs(blocks):
        words = run(blocks)
        if words is None:
            return False
        return cycles(words[0]) != cycles(words[1]) if by_cycles else difference(words) is not None
    chunk = len(blocks) // 2
    while chunk:
        i, dropped = 0, False
        while i < len(blocks):
            trial = blocks[:i] + blocks[i + chunk:]
            if trial and still_differs(trial):
                blocks, dropped = trial, True
            else:
                i += chunk
        if not dropped:
            chunk //= 2
    print(f"seed {args.seed}: {len(blocks)} blocks still differ; initial registers in init_table of "
          f"{runner.workdir / f'shrink{args.seed}.S'}")
    for block in blocks:
        print("    " + "; ".join(block.lines))
    print("    " + difference(runner.run(f"shrink{args.seed}", text_of(blocks))))
    return 1


SNIPPET = """    .text
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0
    csrw mcountinhibit, zero
    la s1, data
    li a0, 3
    li a1, 7
    li a2, -5
    li a3, 0x40400000
    fmv.w.x fa0, a3
    li a3, 0x3f800000
    fmv.w.x fa1, a3
    li a3, 0x40e00000
    fmv.w.x fa2, a3
    fence
    csrr s10, mcycle
{body}
    csrr s11, mcycle
    la t0, begin_signature
    sw s10, 0(t0)
    sw s11, 4(t0)
    li t0, 0x20000004
    sw zero, 0(t0)
1:  j 1b
    .data
    .balign 16
data:
    .word 0x11223344, 0x55667788, 0x40400000, 0x3f800000
    .space 1024
begin_signature:
    .word 0, 0
end_signature:
"""


def snippets(runner, args):
    """Cycles from the mcycle read before each snippet to the one after it (a csrr of mcycle alone: 4 on
    both). Registers at the start: s1 = a 1 KiB data area, a0 = 3, a1 = 7, a2 = -5, fa0 = 3.0, fa1 = 1.0,
    fa2 = 7.0."""
    failing = 0
    for n, snippet in enumerate(args.snippets):
        body = "\n".join("    " + part.strip() for part in snippet.split(";"))
        words = runner.run(f"snippet{n}", SNIPPET.format(body=body))
        if isinstance(words, str):
            print(f"!! {words}   {snippet}")
            failing += 1
            continue
        ours, rtl = (int(w[1], 16) - int(w[0], 16) for w in words)
        failing += ours != rtl
        print(f"{'  ' if ours == rtl else '!!'} pulpsim {ours:>5}  RTL {rtl:>5}   {snippet}")
    return 1 if failing else 0


# The core boots at 0x80 and mtvec keeps bits 31:8: the handler sits at 0x100. Each encoding's signature word
# is 0, or mcause + 1 when it trapped; the handler returns past it.
LEGAL_PROGRAM = """    .text
    .globl _start
    .p2align 7
_start:
    j main
    .org 0x80
handler:
{handler}
main:
    li t0, 0x6000
    csrs mstatus, t0
    la t0, handler
    csrw mtvec, t0
{body}
    li t0, 0x20000004
    sw zero, 0(t0)
1:  j 1b
    .data
begin_signature:
    .space {size}
end_signature:
scratch:
    .space 512
"""
# The 32-bit encodings run with s3 = 0, rd = t2 and rs1 = t1; the handler sets s3 to mcause + 1.
LEGAL_HANDLER_32 = """    csrr s3, mcause
    addi s3, s3, 1
    csrr t6, mepc
    addi t6, t6, 4
    csrw mepc, t6
    mret"""
LEGAL_SETUP_32 = """    la s0, begin_signature
    li t1, 0x01020304
    li t2, 0x05060708
    li s4, 0"""
# The 16-bit encodings: every register reset to the scratch area before each (x8-x15 and sp are the bases of
# the compressed loads and stores, any register may be written), the trap's mcause + 1 at address 0x40
# (reached from x0, which no encoding changes), and the handler returns 2 bytes past the trapping one.
LEGAL_HANDLER_16 = """    csrw mscratch, t6
    csrr t6, mcause
    addi t6, t6, 1
    sw t6, 0x40(zero)
    csrr t6, mepc
    addi t6, t6, 2
    csrw mepc, t6
    csrr t6, mscratch
    mret
reset_registers:
    la sp, scratch + 256
""" + "\n".join(f"    mv x{r}, sp" for r in range(3, 32)) + """
    ret"""
LEGAL_BODY_16 = """    sw zero, 0x40(zero)
    jal ra, reset_registers
    mv ra, sp
    .half {word:#06x}
    lw t6, 0x40(zero)
    lui t5, %hi(begin_signature + {offset})
    sw t6, %lo(begin_signature + {offset})(t5)"""


# An FP16 instruction (Zfh or Xfvec): CV32E40P v2 has none.
FP16_INSTRUCTION = re.compile(r"\bVF[A-Z0-9_]+\(|\b(?:flh|fsh|fcvt\.h\.[a-z]+|f[a-z]+(?:\.[a-z]+)*\.h)\b")


def timing_sequences(runner, args):
    """Runs tests/timing/sequences.S on both and compares every case's cycles. Its FP16 cases are emptied."""
    source = ROOT / "tests" / "timing" / "sequences.S"
    lines, emptied, where = [], [], {}
    # Without its comments (the line count kept), which name FP16 instructions too.
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source.read_text(), flags=re.S)
    for number, line in enumerate(code.splitlines(), 1):
        end = re.search(r"END\((\d+)\)", line)
        if end:
            where[int(end.group(1))] = number
        if FP16_INSTRUCTION.search(line):
            if not (end and line.lstrip().startswith("BEGIN;")):
                sys.exit(f"compare.py: {source}:{number}: an FP16 instruction outside a one-line case")
            emptied.append(int(end.group(1)))
            line = f"    BEGIN; END({end.group(1)})"
        lines.append(line)
    text = "\n".join(lines) + "\n"
    # The run ends with exit status 0 through the test bench's exit address, not tohost's 1.
    for old, new in [("la t6, tohost", "li t6, 0x20000004; li t5, 0"),
                     ("results: .space", "begin_signature:\nresults: .space")]:
        if text.count(old) != 1:
            sys.exit(f"compare.py: {source}: expected one '{old}'")
        text = text.replace(old, new)
    text = re.sub(r"(results: \.space [^\n]*\n)", r"\1end_signature:\n", text)
    # Its trap handler's 256-byte alignment puts _start past 0x80, where the core boots: a jump there first,
    # with the FPU on (mstatus.FS is Off at reset).
    text = ('    .section .boot, "ax"\n    .globl _boot\n_boot:\n    li t0, 0x6000\n    csrs mstatus, t0\n'
            '    j _start\n' + text)
    (runner.workdir / "sequences.ld").write_text(
        LINKER_SCRIPT.replace("ENTRY(_start)", "ENTRY(_boot)").replace(".text :", ".boot : { *(.boot) }\n  .text :"))
    args.xpulp = True
    words = runner.run("sequences", text, "sequences.ld")
    if isinstance(words, str):
        print(f"sequences: {words}")
        return 1
    costs = [[int(w, 16) for w in side] for side in words]
    costs = [[c[0]] + [x - c[0] for x in c[1:]] for c in costs]
    differ = 0
    for index, (ours, rtl) in enumerate(zip(*costs)):
        if index in emptied or ours == rtl:
            continue
        differ += 1
        print(f"!! case {index:3}: pulpsim {ours:4}  RTL {rtl:4}   {source.name}:{where.get(index, '?')}")
    total = len(costs[0]) - len(emptied)
    print(f"{total - differ} of {total} cases agree at FPU latency {args.latency[0]}/{args.latency[1]} "
          f"({len(emptied)} FP16 cases left out: {', '.join(map(str, emptied))}; workdir {runner.workdir})")
    return 1 if differ else 0


def legal_words(family):
    """Every encoding of one opcode family, as far as the RTL has it (no FP16, FP16alt or vectorial FP:
    CV32E40P v2 lacks them): rd = t2 and rs1 = t1, except in the SYSTEM and fence words (rd and rs1 x0 or
    ra), the CSR accesses (rs1 x0 or s4 = 0) and the 16-bit words (every register field)."""
    if family == "rvc":  # quadrants 0-2 without the jumps and branches: c.jal, c.j, c.beqz, c.bnez, c.jr, c.jalr
        jump = lambda w: ((w & 3) == 1 and w >> 13 in (1, 5, 6, 7)) or (
            (w & 3) == 2 and w >> 13 == 4 and (w >> 2) & 31 == 0 and (w >> 7) & 31 != 0)
        return [w for w in range(0x10000) if w & 3 != 3 and not jump(w)]
    rd, rs1 = 7, 6
    fields = lambda f7, rs2, f3, op: (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
    if family == "simd":
        return [fields(f7, rs2, f3, 0x7b) for f7 in range(128) for f3 in range(8) for rs2 in range(32)]
    if family == "custom1":  # funct3 011 past its register-offset loads and stores (funct7 0x00-0x17)
        return [fields(f7, rs2, 3, 0x2b) for f7 in range(0x18, 128) for rs2 in range(32)]
    if family == "custom2":
        return [fields(f7, rs2, f3, 0x5b) for f7 in range(128) for f3 in range(8) for rs2 in range(32)]
    if family == "op":
        return [fields(f7, rs2, f3, 0x33) for f7 in range(128) if f7 >> 5 != 2 for f3 in range(8) for rs2 in range(32)]
    if family == "fp":  # binary32 only, and no conversion from a 16-bit format
        return [fields(f5 << 2, rs2, rm, 0x53) for f5 in range(32) for rm in range(8) for rs2 in range(32)
                if not (f5 == 0x08 and rs2 in (2, 6))]
    if family == "fma":
        return [(rs3 << 27) | fields(fmt, 4, rm, op) for op in (0x43, 0x47, 0x4b, 0x4f) for fmt in (0, 1, 3)
                for rm in range(8) for rs3 in (0, 5)]
    if family == "csr":  # every CSR address, read (csrrs t2, csr, x0) and written as it is (csrrc t2, csr, s4 = 0)
        return [(csr << 20) | (r1 << 15) | (f3 << 12) | (rd << 7) | 0x73 for csr in range(4096)
                for r1, f3 in ((0, 2), (20, 3))]
    # SYSTEM without the returns and wfi, which would not come back here, and fences.
    return [(imm << 20) | (r1 << 15) | (f3 << 12) | (r << 7) | op for op, imms, f3s in (
        (0x73, [i for i in range(0x20) if i != 2] + [0x120], [0]),
        (0x0f, [0, 1, 0xff, 0x33, 0x100, 0x8ff], range(8))) for imm in imms for f3 in f3s for r1 in (0, 1)
            for r in (0, 1)]


def legal(runner, args):
    """Runs each encoding once behind a handler that records whether it trapped, on both; prints those
    where they disagree."""
    known = ["simd", "custom1", "custom2", "op", "fp", "fma", "system", "csr", "rvc"]
    families = args.snippets or known
    unknown = set(families) - set(known)
    if unknown:
        sys.exit(f"compare.py: no encoding family {sorted(unknown)[0]!r}")
    failing = 0
    for family in families:
        words, differ = legal_words(family), 0
        for start in range(0, len(words), 400):
            chunk = words[start:start + 400]
            if family == "rvc":
                handler = LEGAL_HANDLER_16
                body = "\n".join(LEGAL_BODY_16.format(word=w, offset=4 * i) for i, w in enumerate(chunk))
            else:
                handler = LEGAL_HANDLER_32
                body = "\n".join([LEGAL_SETUP_32] + [f"    li s3, 0\n    .word {w:#010x}\n    sw s3, {4 * i}(s0)"
                                                      for i, w in enumerate(chunk)])
            program = LEGAL_PROGRAM.format(handler=handler, body=body, size=4 * len(chunk))
            result = runner.run(f"legal_{family}{start}", program)
            if isinstance(result, str):
                print(f"!! {family} from {chunk[0]:#010x}: {result}")
                differ += len(chunk)
                continue
            name = lambda v: f"traps (mcause {int(v, 16) - 1})" if int(v, 16) else "runs"
            for w, ours, rtl in zip(chunk, *result):
                if ours != rtl:
                    differ += 1
                    print(f"{w:#010x}: pulpsim {name(ours)}, RTL {name(rtl)}")
        print(f"{family}: {len(words) - differ} of {len(words)} encodings agree")
        failing += differ
    return 1 if failing else 0


def latency_pair(text):
    if not re.fullmatch(r"\d\d", text):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not two digits: FPU_ADDMUL_LAT, FPU_OTHERS_LAT (00, 22, 12, ...)")
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["random", "shrink", "snippet", "legal", "sequences"])
    parser.add_argument("snippets", nargs="*", help="shrink: the seed; snippet: instructions separated by ';'; "
                        "legal: the encoding families")
    parser.add_argument("--rtl", required=True, help="the OUT_DIR of scripts/rtl/build.sh")
    parser.add_argument("--sim", default=str(ROOT / "build" / "bin" / "pulpsim"))
    parser.add_argument("--latency", default="00", type=latency_pair,
                        help="FPU_ADDMUL_LAT and FPU_OTHERS_LAT as two digits (a simulator build.sh built), with the "
                        "matching --set for pulpsim")
    parser.add_argument("--xpulp", action="store_true", help="random programs use Xpulp instructions too")
    parser.add_argument("--traps", action="store_true",
                        help="random programs trap too (ecall, ebreak, an illegal CSR write), in loops as well")
    parser.add_argument("--counters", action="store_true",
                        help="random programs set mhpmevent3 and read, write and inhibit the performance counters")
    parser.add_argument("--csrs", action="store_true",
                        help="random programs read and write the machine-mode CSRs (mstatus with its FS field, "
                        "mtvec, mie, mscratch, mepc, mcause, the trigger CSRs, the ID registers)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--length", type=int, default=300, help="instructions in a random body, at least")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--workdir")
    args = parser.parse_intermixed_args()
    runner = Runner(args)
    if args.mode == "shrink":
        if len(args.snippets) != 1 or not re.fullmatch(r"\d+", args.snippets[0]):
            parser.error("shrink takes one seed")
        args.seed = int(args.snippets[0])
        return shrink(runner, args)
    if args.mode == "snippet":
        if not args.snippets:
            parser.error("snippet takes one or more snippets")
        return snippets(runner, args)
    if args.mode == "legal":
        args.xpulp = True
        return legal(runner, args)
    if args.mode == "sequences":
        if args.snippets:
            parser.error("sequences takes options only")
        return timing_sequences(runner, args)
    if args.snippets:
        parser.error("random takes options only")
    return random_programs(runner, args)


if __name__ == "__main__":
    sys.exit(main())
