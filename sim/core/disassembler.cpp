// The decoder decides what is an instruction (decode() rejecting an encoding makes it "unknown"); this file
// only names what it accepts. Field extraction is the decoder's (decoder.hpp), compressed instructions are
// printed as the 32-bit instructions they expand to, as llvm-objdump does.
#include "core/disassembler.hpp"

#include <fmt/format.h>

#include "core/decoder.hpp"

namespace pulpsim {

namespace {

using namespace isa;

constexpr const char* kXNames[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                     "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                     "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr const char* kFNames[32] = {"ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
                                     "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
                                     "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
                                     "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char* X(unsigned r) {
    return kXNames[r & 31];
}
const char* F(unsigned r) {
    return kFNames[r & 31];
}

std::string hex(uint32_t v) {
    return fmt::format("{:#x}", v);
}

// The CSRs the hart implements, by the names of the privileged and debug specifications (the custom
// hardware-loop and PULP CSRs have no name llvm-objdump knows, so they print as numbers).
std::string csr_name(uint32_t a) {
    switch (a) {
    case csr::kFflags: return "fflags";
    case csr::kFrm: return "frm";
    case csr::kFcsr: return "fcsr";
    case csr::kMstatus: return "mstatus";
    case csr::kMisa: return "misa";
    case csr::kMie: return "mie";
    case csr::kMtvec: return "mtvec";
    case csr::kMcountinhibit: return "mcountinhibit";
    case csr::kMscratch: return "mscratch";
    case csr::kMepc: return "mepc";
    case csr::kMcause: return "mcause";
    case csr::kMtval: return "mtval";
    case csr::kMip: return "mip";
    case csr::kTselect: return "tselect";
    case csr::kTdata1: return "tdata1";
    case csr::kTdata2: return "tdata2";
    case csr::kTdata3: return "tdata3";
    case csr::kMcontext: return "mcontext";
    case 0x7b0: return "dcsr";
    case 0x7b1: return "dpc";
    case 0x7b2: return "dscratch0";
    case 0x7b3: return "dscratch1";
    case csr::kMcycle: return "mcycle";
    case csr::kMinstret: return "minstret";
    case csr::kMcycleh: return "mcycleh";
    case csr::kMinstreth: return "minstreth";
    case csr::kCycle: return "cycle";
    case 0xc01: return "time";
    case csr::kInstret: return "instret";
    case csr::kCycleh: return "cycleh";
    case 0xc81: return "timeh";
    case csr::kInstreth: return "instreth";
    case csr::kMvendorid: return "mvendorid";
    case csr::kMarchid: return "marchid";
    case csr::kMimpid: return "mimpid";
    case csr::kMhartid: return "mhartid";
    default: break;
    }
    using namespace csr;
    if (a >= kMhpmevent3 && a <= kMhpmevent31) return fmt::format("mhpmevent{}", a - kMcountinhibit);
    if (a >= kMhpmcounter3 && a <= kMhpmcounter31) return fmt::format("mhpmcounter{}", a - kMcycle);
    if (a >= kMhpmcounter3h && a <= kMhpmcounter31h) return fmt::format("mhpmcounter{}h", a - kMcycleh);
    if (a >= kHpmcounter3 && a <= kHpmcounter31) return fmt::format("hpmcounter{}", a - kCycle);
    if (a >= kHpmcounter3h && a <= kHpmcounter31h) return fmt::format("hpmcounter{}h", a - kCycleh);
    return hex(a);
}

const char* rounding_suffix(unsigned rm) {
    static constexpr const char* kNames[8] = {", rne", ", rtz", ", rdn", ", rup", ", rmm", "", "", ""};
    return kNames[rm & 7];
}

// ---- RV32I ----

std::string fence_set(unsigned bits) {
    if (bits == 0) return "0";
    std::string s;
    for (unsigned b = 0; b < 4; ++b)
        if (bits & (8u >> b)) s += "iorw"[b];
    return s;
}

std::string op_imm(uint32_t w) {
    const unsigned d = rd(w), s = rs1(w);
    const int32_t imm = imm_i(w);
    switch (funct3(w)) {
    case 0:
        if (d == 0 && s == 0 && imm == 0) return "nop";
        if (s == 0) return fmt::format("li {}, {}", X(d), imm);
        if (imm == 0) return fmt::format("mv {}, {}", X(d), X(s));
        return fmt::format("addi {}, {}, {}", X(d), X(s), imm);
    case 1: return fmt::format("slli {}, {}, {}", X(d), X(s), imm & 31);
    case 2: return fmt::format("slti {}, {}, {}", X(d), X(s), imm);
    case 3:
        if (imm == 1) return fmt::format("seqz {}, {}", X(d), X(s));
        return fmt::format("sltiu {}, {}, {}", X(d), X(s), imm);
    case 4:
        if (imm == -1) return fmt::format("not {}, {}", X(d), X(s));
        return fmt::format("xori {}, {}, {}", X(d), X(s), imm);
    case 5: return fmt::format("{} {}, {}, {}", funct7(w) ? "srai" : "srli", X(d), X(s), imm & 31);
    case 6: return fmt::format("ori {}, {}, {}", X(d), X(s), imm);
    default: return fmt::format("andi {}, {}, {}", X(d), X(s), imm);
    }
}

std::string op_reg(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), f3 = funct3(w);
    if (funct7(w) == 1) {
        static constexpr const char* kM[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
        return fmt::format("{} {}, {}, {}", kM[f3], X(d), X(s1), X(s2));
    }
    if (funct7(w) == 0x20) {
        if (f3 == 0 && s1 == 0) return fmt::format("neg {}, {}", X(d), X(s2));
        return fmt::format("{} {}, {}, {}", f3 == 0 ? "sub" : "sra", X(d), X(s1), X(s2));
    }
    if (f3 == 2 && s2 == 0) return fmt::format("sltz {}, {}", X(d), X(s1));
    if (f3 == 2 && s1 == 0) return fmt::format("sgtz {}, {}", X(d), X(s2));
    if (f3 == 3 && s1 == 0) return fmt::format("snez {}, {}", X(d), X(s2));
    static constexpr const char* kI[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
    return fmt::format("{} {}, {}, {}", kI[f3], X(d), X(s1), X(s2));
}

std::string branch(uint32_t w, uint32_t pc) {
    const unsigned s1 = rs1(w), s2 = rs2(w), f3 = funct3(w);
    const std::string target = hex(pc + static_cast<uint32_t>(imm_b(w)));
    static constexpr const char* kB[8] = {"beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"};
    if (s2 == 0 && f3 <= 1) return fmt::format("{}z {}, {}", kB[f3], X(s1), target);
    // With both registers zero llvm-objdump prints bltz and blez.
    if (f3 == 4 && s2 == 0) return fmt::format("bltz {}, {}", X(s1), target);
    if (f3 == 4 && s1 == 0) return fmt::format("bgtz {}, {}", X(s2), target);
    if (f3 == 5 && s1 == 0) return fmt::format("blez {}, {}", X(s2), target);
    if (f3 == 5 && s2 == 0) return fmt::format("bgez {}, {}", X(s1), target);
    return fmt::format("{} {}, {}, {}", kB[f3], X(s1), X(s2), target);
}

std::string jalr(uint32_t w) {
    const unsigned d = rd(w), s = rs1(w);
    const int32_t imm = imm_i(w);
    if (imm == 0 && d == 0 && s == 1) return "ret";
    if (imm == 0 && d == 0) return fmt::format("jr {}", X(s));
    if (imm == 0 && d == 1) return fmt::format("jalr {}", X(s));
    return fmt::format("jalr {}, {}({})", X(d), imm, X(s));
}

std::string system_insn(uint32_t w) {
    const unsigned d = rd(w), s = rs1(w), f3 = funct3(w);
    const uint32_t a = w >> 20;
    if (f3 == 0) {
        switch (a) {
        case 0x000: return "ecall";
        case 0x001: return "ebreak";
        case 0x302: return "mret";
        default: return "wfi";
        }
    }
    if (w == 0xc0001073u) return "unimp"; // csrrw zero, cycle, zero
    const bool imm = f3 >= 5;
    const std::string src = imm ? std::to_string(s) : X(s);
    const unsigned op = f3 & 3; // 1 write, 2 set, 3 clear
    // The floating-point CSRs' own aliases.
    static constexpr const char* kFp[4] = {nullptr, "flags", "rm", "csr"};
    if (a >= 1 && a <= 3) {
        const std::string name = kFp[a];
        if (op == 2 && !imm && s == 0) return fmt::format("fr{} {}", name, X(d));
        if (op == 1 && !(imm && a == 3)) {
            const char* i = imm ? "i" : "";
            if (d == 0) return fmt::format("fs{}{} {}", name, i, src);
            return fmt::format("fs{}{} {}, {}", name, i, X(d), src);
        }
    }
    if (op == 2 && !imm && s == 0) {
        switch (a) {
        case 0xc00: return fmt::format("rdcycle {}", X(d));
        case 0xc01: return fmt::format("rdtime {}", X(d));
        case 0xc02: return fmt::format("rdinstret {}", X(d));
        case 0xc80: return fmt::format("rdcycleh {}", X(d));
        case 0xc81: return fmt::format("rdtimeh {}", X(d));
        case 0xc82: return fmt::format("rdinstreth {}", X(d));
        default: return fmt::format("csrr {}, {}", X(d), csr_name(a));
        }
    }
    static constexpr const char* kOp[4] = {"", "w", "s", "c"};
    if (d == 0) return fmt::format("csr{}{} {}, {}", kOp[op], imm ? "i" : "", csr_name(a), src);
    return fmt::format("csrr{}{} {}, {}, {}", kOp[op], imm ? "i" : "", X(d), csr_name(a), src);
}

// ---- F and Zfh ----

std::string op_fp(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), f3 = funct3(w), f7 = funct7(w);
    const char* fmt_suffix = (f7 & 3) == 2 ? "h" : "s";
    const char* rm = rounding_suffix(f3);
    switch (f7 >> 2) {
    case 0x00:
    case 0x01:
    case 0x02:
    case 0x03: {
        static constexpr const char* kOps[4] = {"fadd", "fsub", "fmul", "fdiv"};
        return fmt::format("{}.{} {}, {}, {}{}", kOps[f7 >> 2], fmt_suffix, F(d), F(s1), F(s2), rm);
    }
    case 0x0b: return fmt::format("fsqrt.{} {}, {}{}", fmt_suffix, F(d), F(s1), rm);
    case 0x04:
        if (s1 == s2) {
            static constexpr const char* kAlias[3] = {"fmv", "fneg", "fabs"};
            return fmt::format("{}.{} {}, {}", kAlias[f3], fmt_suffix, F(d), F(s1));
        } else {
            static constexpr const char* kOps[3] = {"fsgnj", "fsgnjn", "fsgnjx"};
            return fmt::format("{}.{} {}, {}, {}", kOps[f3], fmt_suffix, F(d), F(s1), F(s2));
        }
    case 0x05: return fmt::format("{}.{} {}, {}, {}", f3 ? "fmax" : "fmin", fmt_suffix, F(d), F(s1), F(s2));
    case 0x08:
        // fcvt.h.s (f7 0x22, source S in rs2) rounds; fcvt.s.h (f7 0x20, source H) is exact, and llvm prints
        // its rm unless it is rne, the value older assemblers put there.
        if ((f7 & 3) == 2) return fmt::format("fcvt.h.s {}, {}{}", F(d), F(s1), rm);
        return fmt::format("fcvt.s.h {}, {}{}", F(d), F(s1), f3 == 0 ? "" : f3 == 7 ? ", dyn" : rm);
    case 0x14: {
        static constexpr const char* kOps[3] = {"fle", "flt", "feq"};
        return fmt::format("{}.{} {}, {}, {}", kOps[f3], fmt_suffix, X(d), F(s1), F(s2));
    }
    case 0x18: return fmt::format("fcvt.{}.{} {}, {}{}", s2 ? "wu" : "w", fmt_suffix, X(d), F(s1), rm);
    case 0x1a: return fmt::format("fcvt.{}.{} {}, {}{}", fmt_suffix, s2 ? "wu" : "w", F(d), X(s1), rm);
    case 0x1c:
        if (f3 == 1) return fmt::format("fclass.{} {}, {}", fmt_suffix, X(d), F(s1));
        return fmt::format("fmv.x.{} {}, {}", (f7 & 3) == 2 ? "h" : "w", X(d), F(s1));
    default: return fmt::format("fmv.{}.x {}, {}", (f7 & 3) == 2 ? "h" : "w", F(d), X(s1));
    }
}

std::string fused(uint32_t w) {
    static constexpr const char* kOps[4] = {"fmadd", "fmsub", "fnmsub", "fnmadd"};
    return fmt::format("{}.{} {}, {}, {}, {}{}", kOps[(opcode(w) >> 2) & 3], ((w >> 25) & 3) == 2 ? "h" : "s",
                       F(rd(w)), F(rs1(w)), F(rs2(w)), F(rs3(w)), rounding_suffix(funct3(w)));
}

// ---- PULP vectorial FP16 (Xfvec): op5 in 29:25, R in 14, result format in 13:12 ----

std::string xfvec(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), op5 = (w >> 25) & 31;
    const bool r = (w >> 14) & 1;
    const char* rep = r ? "r." : "";
    switch (op5) {
    case 0x0b: return fmt::format("vfdotpex.s.{}h {}, {}, {}", rep, F(d), F(s1), F(s2));
    case 0x07: return fmt::format("vfsqrt.h {}, {}", F(d), F(s1));
    case 0x0c:
        switch (s2) {
        case 0:
            return r ? fmt::format("vfmv.h.x {}, {}", F(d), X(s1))
                     : fmt::format("vfmv.x.h {}, {}", X(d), F(s1));
        case 1: return fmt::format("vfclass.h {}, {}", X(d), F(s1));
        case 2: return fmt::format("vfcvt.{}.h {}, {}", r ? "xu" : "x", X(d), F(s1));
        case 3: return fmt::format("vfcvt.h.{} {}, {}", r ? "xu" : "x", F(d), X(s1));
        case 4: return fmt::format("{}.h.s {}, {}", r ? "vfcvtu" : "vfcvt", F(d), F(s1));
        default: return fmt::format("{}.s.h {}, {}", r ? "vfcvtu" : "vfcvt", F(d), F(s1));
        }
    case 0x18: return fmt::format("vfcpka.h.s {}, {}, {}", F(d), F(s1), F(s2));
    default: break;
    }
    static constexpr const char* kOps[32] = {nullptr, "vfadd",  "vfsub",   "vfmul",   "vfdiv", "vfmin",
                                             "vfmax", nullptr,  "vfmac",   "vfmre",   nullptr, nullptr,
                                             nullptr, "vfsgnj", "vfsgnjn", "vfsgnjx", "vfeq",  "vfne",
                                             "vflt",  "vfge",   "vfle",    "vfgt"};
    const bool to_x = op5 >= 0x10; // the comparisons write an integer register
    return fmt::format("{}.{}h {}, {}, {}", kOps[op5], rep, to_x ? X(d) : F(d), F(s1), F(s2));
}

// ---- CORE-V: xcvmem, xcvelw, xcvbi (custom-0 and custom-1 stores) ----

constexpr const char* kSizes[8] = {"b", "h", "w", "", "bu", "hu", "", ""};

std::string custom0(uint32_t w, uint32_t pc) {
    const unsigned f3 = funct3(w);
    if (f3 >= 6) {
        const int32_t imm5 = static_cast<int32_t>(w << 7) >> 27; // bits 24:20
        return fmt::format("cv.{}imm {}, {}, {}", f3 == 6 ? "beq" : "bne", X(rs1(w)), imm5,
                           hex(pc + static_cast<uint32_t>(imm_b(w))));
    }
    if (f3 == 3) return fmt::format("cv.elw {}, {}({})", X(rd(w)), imm_i(w), X(rs1(w)));
    return fmt::format("cv.l{} {}, {}({}!)", kSizes[f3], X(rd(w)), imm_i(w), X(rs1(w)));
}

// ---- custom-1 funct3 011: register forms, selected by funct7 ----

std::string custom1_reg(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), f7 = funct7(w);
    if (f7 < 0x10) { // loads: bit 3 zero-extends, bit 2 register-register (no write-back), bits 1:0 size
        const unsigned size = (f7 & 3) | ((f7 & 8) ? 4 : 0);
        return fmt::format("cv.l{} {}, {}({}{})", kSizes[size], X(d), X(s2), X(s1), (f7 & 4) ? "" : "!");
    }
    if (f7 < 0x18) // stores: rs3 (the rd field) is the offset
        return fmt::format("cv.s{} {}, {}({}{})", kSizes[f7 & 3], X(s2), X(d), X(s1), (f7 & 4) ? "" : "!");
    switch (f7) {
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
    case 0x28:
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33: {
        static constexpr const char* kUnary[] = {"ff1", "fl1", "clb", "cnt"};
        static constexpr const char* kExt[] = {"exths", "exthz", "extbs", "extbz"};
        const char* name = f7 == 0x28 ? "abs" : f7 < 0x28 ? kUnary[f7 - 0x21] : kExt[f7 - 0x30];
        return fmt::format("cv.{} {}, {}", name, X(d), X(s1));
    }
    case 0x38:
    case 0x39: return fmt::format("cv.clip{} {}, {}, {}", f7 == 0x39 ? "u" : "", X(d), X(s1), s2);
    default: break;
    }
    const char* name = nullptr;
    switch (f7) {
    case 0x18: name = "extractr"; break;
    case 0x19: name = "extractur"; break;
    case 0x1a: name = "insertr"; break;
    case 0x1c: name = "bclrr"; break;
    case 0x1d: name = "bsetr"; break;
    case 0x20: name = "ror"; break;
    case 0x29: name = "slet"; break;
    case 0x2a: name = "sletu"; break;
    case 0x2b: name = "min"; break;
    case 0x2c: name = "minu"; break;
    case 0x2d: name = "max"; break;
    case 0x2e: name = "maxu"; break;
    case 0x3a: name = "clipr"; break;
    case 0x3b: name = "clipur"; break;
    case 0x40: name = "addnr"; break;
    case 0x41: name = "addunr"; break;
    case 0x42: name = "addrnr"; break;
    case 0x43: name = "addurnr"; break;
    case 0x44: name = "subnr"; break;
    case 0x45: name = "subunr"; break;
    case 0x46: name = "subrnr"; break;
    case 0x47: name = "suburnr"; break;
    case 0x48: name = "mac"; break;
    default: name = "msu"; break;
    }
    return fmt::format("cv.{} {}, {}, {}", name, X(d), X(s1), X(s2));
}

// ---- XCVhwlp (custom-1 funct3 100): targets are pc + (immediate << 2) ----

std::string hwloop(uint32_t w, uint32_t pc) {
    const unsigned l = (w >> 7) & 1, s = rs1(w);
    const uint32_t uimm_l = w >> 20;
    const std::string target_l = hex(pc + (uimm_l << 2));
    switch ((w >> 8) & 15) {
    case 0: return fmt::format("cv.starti {}, {}", l, target_l);
    case 1: return fmt::format("cv.start {}, {}", l, X(s));
    case 2: return fmt::format("cv.endi {}, {}", l, target_l);
    case 3: return fmt::format("cv.end {}, {}", l, X(s));
    case 4: return fmt::format("cv.counti {}, {}", l, uimm_l);
    case 5: return fmt::format("cv.count {}, {}", l, X(s));
    case 6: return fmt::format("cv.setupi {}, {}, {}", l, uimm_l, hex(pc + (s << 2)));
    default: return fmt::format("cv.setup {}, {}, {}", l, X(s), target_l);
    }
}

// ---- custom-2: bit manipulation with immediates, addN/subN, mulN/macN (f2 = bits 31:30) ----

std::string custom2(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), f3 = funct3(w), f2 = w >> 30;
    const unsigned is3 = (w >> 25) & 31, is2 = s2;
    if (f3 <= 1) {
        static constexpr const char* kOps[2][4] = {{"extract", "extractu", "insert", ""},
                                                   {"bclr", "bset", "", "bitrev"}};
        return fmt::format("cv.{} {}, {}, {}, {}", kOps[f3][f2], X(d), X(s1),
                           f3 == 1 && f2 == 3 ? is3 & 3 : is3, is2);
    }
    static constexpr const char* kOps[8][4] = {
        {},
        {},
        {"addn", "addun", "addrn", "addurn"},
        {"subn", "subun", "subrn", "suburn"},
        {"mulsn", "mulhhsn", "mulsrn", "mulhhsrn"},
        {"mulun", "mulhhun", "mulurn", "mulhhurn"},
        {"macsn", "machhsn", "macsrn", "machhsrn"},
        {"macun", "machhun", "macurn", "machhurn"},
    };
    return fmt::format("cv.{} {}, {}, {}, {}", kOps[f3][f2], X(d), X(s1), X(s2), is3);
}

// ---- xcvsimd (custom-3): funct5 31:27, F 26, bit 25, funct3 the flavour ----

std::string simd(uint32_t w) {
    const unsigned d = rd(w), s1 = rs1(w), s2 = rs2(w), f3 = funct3(w), f5 = w >> 27;
    const bool f = (w >> 26) & 1, b25 = (w >> 25) & 1;
    const unsigned imm6 = b25 | (s2 << 1);
    const int32_t simm6 = static_cast<int32_t>(imm6 << 26) >> 26;
    static constexpr const char* kFlavour[8] = {".h", ".b", "", "", ".sc.h", ".sc.b", ".sci.h", ".sci.b"};
    // The .sci immediate is zero-extended for the unsigned operations and the shifts (as the decoder
    // replicates it), sign-extended otherwise.
    const bool unsigned_imm =
        f ? f5 >= 6 && f5 <= 9 : f5 == 3 || f5 == 5 || (f5 >= 7 && f5 <= 10) || f5 == 16 || f5 == 19;
    auto three = [&](std::string name) {
        if (f3 >= 6)
            return fmt::format("cv.{}{} {}, {}, {}", name, kFlavour[f3], X(d), X(s1),
                               unsigned_imm ? static_cast<int32_t>(imm6) : simm6);
        return fmt::format("cv.{}{} {}, {}, {}", name, kFlavour[f3], X(d), X(s1), X(s2));
    };
    if (f) {
        static constexpr const char* kCmp[10] = {"cmpeq", "cmpne",  "cmpgt",  "cmpge",  "cmplt",
                                                 "cmple", "cmpgtu", "cmpgeu", "cmpltu", "cmpleu"};
        if (f5 < 10) return three(kCmp[f5]);
        static constexpr const char* kDiv[4] = {"", ".div2", ".div4", ".div8"};
        const char* div = kDiv[f3 >> 1];
        switch (f5) {
        case 10: return fmt::format("cv.cplxmul.{}{} {}, {}, {}", b25 ? "i" : "r", div, X(d), X(s1), X(s2));
        case 11: return fmt::format("cv.cplxconj {}, {}", X(d), X(s1));
        case 12: return fmt::format("cv.subrotmj{} {}, {}, {}", div, X(d), X(s1), X(s2));
        case 13: return fmt::format("cv.add{} {}, {}, {}", div, X(d), X(s1), X(s2));
        default: return fmt::format("cv.sub{} {}, {}, {}", div, X(d), X(s1), X(s2));
        }
    }
    static constexpr const char* kAlu[22] = {
        "add", "sub", "avg", "avgu", "min",   "minu",  "max",    "maxu",  "srl",    "sra",     "sll",
        "or",  "xor", "and", "abs",  nullptr, "dotup", "dotusp", "dotsp", "sdotup", "sdotusp", "sdotsp"};
    if (f5 == 14) return fmt::format("cv.abs{} {}, {}", kFlavour[f3], X(d), X(s1));
    if (f5 < 22) return three(kAlu[f5]);
    switch (f5) {
    case 23: {
        static constexpr const char* kOps[6] = {"extract.h",  "extract.b", "extractu.h",
                                                "extractu.b", "insert.h",  "insert.b"};
        return fmt::format("cv.{} {}, {}, {}", kOps[f3], X(d), X(s1), imm6);
    }
    case 24:
        if (f3 == 6) return fmt::format("cv.shuffle.sci.h {}, {}, {}", X(d), X(s1), imm6);
        if (f3 == 7) return fmt::format("cv.shufflei0.sci.b {}, {}, {}", X(d), X(s1), imm6);
        return three("shuffle");
    case 25:
    case 26:
    case 27: return fmt::format("cv.shufflei{}.sci.b {}, {}, {}", f5 - 24, X(d), X(s1), imm6);
    case 28: return three("shuffle2");
    case 30: return fmt::format("cv.pack{} {}, {}, {}", b25 ? ".h" : "", X(d), X(s1), X(s2));
    default: return fmt::format("cv.pack{}.b {}, {}, {}", b25 ? "hi" : "lo", X(d), X(s1), X(s2));
    }
}

std::string known(uint32_t w, uint32_t pc) {
    switch (opcode(w)) {
    case 0x37: return fmt::format("lui {}, {}", X(rd(w)), hex(w >> 12));
    case 0x17: return fmt::format("auipc {}, {}", X(rd(w)), hex(w >> 12));
    case 0x6f: {
        const std::string target = hex(pc + static_cast<uint32_t>(imm_j(w)));
        if (rd(w) == 0) return "j " + target;
        if (rd(w) == 1) return "jal " + target;
        return fmt::format("jal {}, {}", X(rd(w)), target);
    }
    case 0x67: return jalr(w);
    case 0x63: return branch(w, pc);
    case 0x03: return fmt::format("l{} {}, {}({})", kSizes[funct3(w)], X(rd(w)), imm_i(w), X(rs1(w)));
    case 0x23: return fmt::format("s{} {}, {}({})", kSizes[funct3(w)], X(rs2(w)), imm_s(w), X(rs1(w)));
    case 0x13: return op_imm(w);
    case 0x33: return (w >> 30) == 2 ? xfvec(w) : op_reg(w);
    case 0x0f: {
        if (funct3(w) == 1) return "fence.i";
        const unsigned pred = (w >> 24) & 15, succ = (w >> 20) & 15, fm = w >> 28;
        if (fm == 8 && pred == 3 && succ == 3) return "fence.tso";
        if (pred == 15 && succ == 15) return "fence";
        return fmt::format("fence {}, {}", fence_set(pred), fence_set(succ));
    }
    case 0x73: return system_insn(w);
    case 0x07:
    case 0x27: {
        const char* size = funct3(w) == 1 ? "h" : "w";
        if (opcode(w) == 0x07) return fmt::format("fl{} {}, {}({})", size, F(rd(w)), imm_i(w), X(rs1(w)));
        return fmt::format("fs{} {}, {}({})", size, F(rs2(w)), imm_s(w), X(rs1(w)));
    }
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f: return fused(w);
    case 0x53: return op_fp(w);
    case 0x0b: return custom0(w, pc);
    case 0x2b:
        switch (funct3(w)) {
        case 3: return custom1_reg(w);
        case 4: return hwloop(w, pc);
        default: return fmt::format("cv.s{} {}, {}({}!)", kSizes[funct3(w)], X(rs2(w)), imm_s(w), X(rs1(w)));
        }
    case 0x5b: return custom2(w);
    default: return simd(w); // 0x7b
    }
}

// Compressed hints (writes to x0, shifts by 0), which llvm-objdump names in their compressed form; empty for
// any other compressed instruction.
std::string compressed_hint(uint32_t c) {
    const unsigned quadrant = c & 3, f3 = c >> 13, r = (c >> 7) & 31, rs2_field = (c >> 2) & 31;
    const unsigned shamt = ((c >> 7) & 32) | rs2_field;
    const int32_t imm6 = static_cast<int32_t>(shamt << 26) >> 26;
    if (quadrant == 1 && f3 == 0 && r == 0 && imm6 != 0) return fmt::format("c.nop {}", imm6);
    if (quadrant == 1 && f3 == 0 && r != 0 && imm6 == 0) return fmt::format("c.addi {}, 0", X(r));
    if (quadrant == 1 && f3 == 2 && r == 0) return fmt::format("c.li zero, {}", imm6);
    if (quadrant == 1 && f3 == 3 && r == 0) return fmt::format("c.lui zero, {}", imm6);
    if (quadrant == 1 && f3 == 4 && ((c >> 10) & 3) < 2 && shamt == 0)
        return fmt::format("c.sr{}i64 {}", (c >> 10) & 1 ? "a" : "l", X(8 + ((c >> 7) & 7)));
    if (quadrant == 2 && f3 == 0 && shamt == 0) return fmt::format("c.slli64 {}", X(r));
    if (quadrant == 2 && f3 == 0 && r == 0) return fmt::format("c.slli zero, {}", shamt);
    if (quadrant == 2 && f3 == 4 && r == 0 && rs2_field != 0)
        return fmt::format("c.{} zero, {}", (c >> 12) & 1 ? "add" : "mv", X(rs2_field));
    return {};
}

} // namespace

const char* x_register_name(unsigned r) {
    return X(r);
}
const char* f_register_name(unsigned r) {
    return F(r);
}

std::string disassemble(uint32_t raw, uint32_t pc) {
    const bool compressed = (raw & 3) != 3;
    if (compressed) raw &= 0xffff;
    if (!encodes_instruction(decode(raw, CoreTiming{}))) return fmt::format("unknown {:#010x}", raw);
    if (!compressed) return known(raw, pc);
    if (std::string hint = compressed_hint(raw); !hint.empty()) return hint;
    const uint32_t w = expand_compressed(static_cast<uint16_t>(raw));
    // c.mv expands to add rd, zero, rs2, which llvm-objdump shows as the mv it was written as.
    if ((w & 0xfe0ff07fu) == 0x33 && rd(w) != 0) return fmt::format("mv {}, {}", X(rd(w)), X(rs2(w)));
    return known(w, pc);
}

} // namespace pulpsim
