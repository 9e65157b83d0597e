// The disassembler against sources that do not share its code:
//  - hand-assembled words, with the encodings built here from the documented field layouts: the hardware
//    loops (CV32E40P manual, kernels/runtime/hwloop.h) and PULP's vectorial FP16 (kernels/runtime/xfvec.h),
//    which llvm does not know, and a few instructions of each other kind;
//  - llvm-mc 19 (when found), on a sweep over every opcode, funct3 and funct7 with varied registers and
//    immediates, every 16-bit compressed word, OP-FP over every rs2, and the CSRs the hart implements;
//  - llvm-objdump 19 (when found), on every instruction of kernel ELFs, with their real addresses.
// llvm prints some instructions as aliases (li, mv, ret, ...): our text must equal either llvm's default
// or its no-aliases text. Numbers are compared by value (llvm prints decimal, we print some in hex), and
// llvm's post-increment syntax "cv.lw a0, (a1), 4" is read as the CV32E40P manual's "cv.lw a0, 4(a1!)".
#include <array>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/decoder.hpp"
#include "core/disassembler.hpp"
#include "memory/elf_image.hpp"

namespace pulpsim {
namespace {

// Field layouts of the RISC-V base formats (unprivileged spec, chapter 2).
constexpr uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return (static_cast<uint32_t>(imm) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
    const auto u = static_cast<uint32_t>(imm);
    return ((u >> 5 & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 31) << 7) | op;
}
constexpr uint32_t r4_type(uint32_t rs3, uint32_t fmt, uint32_t rs2, uint32_t rs1, uint32_t rm, uint32_t rd,
                           uint32_t op) {
    return (rs3 << 27) | (fmt << 25) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | op;
}
// hwloop.h: uimmL[31:20] | rs1/uimmS[19:15] | 100 | funct4[11:8] | L[7] | 0101011.
constexpr uint32_t hwloop(uint32_t funct4, uint32_t l, uint32_t rs1, uint32_t uimm_l) {
    return (uimm_l << 20) | (rs1 << 15) | (4u << 12) | (funct4 << 8) | (l << 7) | 0x2b;
}
// xfvec.h: .insn r 0x33, funct3, funct7, rd, rs1, rs2.
constexpr uint32_t xfvec(uint32_t f3, uint32_t f7, uint32_t rd, uint32_t rs1, uint32_t rs2) {
    return r_type(f7, rs2, rs1, f3, rd, 0x33);
}

enum Reg : uint32_t { zero = 0, ra = 1, sp = 2, t0 = 5, t1 = 6, a0 = 10, a1, a2, a3, a4, a5 };
enum FReg : uint32_t { ft0 = 0, ft1 = 1, fa0 = 10, fa1, fa2, fa3 };

struct Case {
    uint32_t raw;
    uint32_t pc;
    const char* text;
};

void expect_cases(std::initializer_list<Case> cases) {
    for (const Case& c : cases) {
        // "unknown": the decoder rejects the word, printed whole.
        const std::string expected =
            std::string(c.text) == "unknown" ? fmt::format("unknown {:#010x}", c.raw) : c.text;
        EXPECT_EQ(disassemble(c.raw, c.pc), expected) << fmt::format("{:#010x} at {:#x}", c.raw, c.pc);
    }
}

TEST(Disassembler, HardwareLoops) {
    constexpr uint32_t pc = 0x1c000100;
    expect_cases({
        {hwloop(0, 1, 0, 16), pc, "cv.starti 1, 0x1c000140"}, // PC + (uimmL << 2)
        {hwloop(1, 0, a0, 0), pc, "cv.start 0, a0"},
        {hwloop(2, 0, 0, 3), pc, "cv.endi 0, 0x1c00010c"},
        {hwloop(3, 1, t1, 0), pc, "cv.end 1, t1"},
        {hwloop(4, 0, 0, 100), pc, "cv.counti 0, 100"},
        {hwloop(5, 1, a2, 0), pc, "cv.count 1, a2"},
        {hwloop(6, 0, 8, 10), 0, "cv.setupi 0, 10, 0x20"}, // end PC + (uimmS << 2), count uimmL
        {hwloop(6, 1, 31, 4095), pc, "cv.setupi 1, 4095, 0x1c00017c"},
        {hwloop(7, 0, a2, 5), pc, "cv.setup 0, a2, 0x1c000114"}, // end PC + (uimmL << 2), count rs1
        // Reserved: funct4 above 7, a register form with uimmL, an immediate form with rs1.
        {hwloop(8, 0, 0, 0), pc, "unknown"},
        {hwloop(1, 0, a0, 1), pc, "unknown"},
        {hwloop(0, 0, a0, 1), pc, "unknown"},
    });
}

TEST(Disassembler, VectorialFp16) {
    expect_cases({
        {xfvec(2, 0x41, fa0, fa1, fa2), 0, "vfadd.h fa0, fa1, fa2"},
        {xfvec(6, 0x41, fa0, fa1, fa2), 0, "vfadd.r.h fa0, fa1, fa2"},
        {xfvec(2, 0x42, fa0, fa1, fa2), 0, "vfsub.h fa0, fa1, fa2"},
        {xfvec(6, 0x43, fa0, fa1, fa2), 0, "vfmul.r.h fa0, fa1, fa2"},
        {xfvec(2, 0x44, fa0, fa1, fa2), 0, "vfdiv.h fa0, fa1, fa2"},
        {xfvec(2, 0x45, fa0, fa1, fa2), 0, "vfmin.h fa0, fa1, fa2"},
        {xfvec(6, 0x46, fa0, fa1, fa2), 0, "vfmax.r.h fa0, fa1, fa2"},
        {xfvec(2, 0x47, fa0, fa1, 0), 0, "vfsqrt.h fa0, fa1"},
        {xfvec(2, 0x48, fa0, fa1, fa2), 0, "vfmac.h fa0, fa1, fa2"},
        {xfvec(6, 0x49, fa0, fa1, fa2), 0, "vfmre.r.h fa0, fa1, fa2"},
        {xfvec(0, 0x4B, fa0, fa1, fa2), 0, "vfdotpex.s.h fa0, fa1, fa2"},
        {xfvec(4, 0x4B, fa0, fa1, fa2), 0, "vfdotpex.s.r.h fa0, fa1, fa2"},
        {xfvec(2, 0x4D, fa0, fa1, fa2), 0, "vfsgnj.h fa0, fa1, fa2"},
        {xfvec(6, 0x4E, fa0, fa1, fa2), 0, "vfsgnjn.r.h fa0, fa1, fa2"},
        {xfvec(2, 0x4F, fa0, fa1, fa2), 0, "vfsgnjx.h fa0, fa1, fa2"},
        {xfvec(2, 0x50, a0, fa1, fa2), 0, "vfeq.h a0, fa1, fa2"},
        {xfvec(6, 0x51, a0, fa1, fa2), 0, "vfne.r.h a0, fa1, fa2"},
        {xfvec(2, 0x52, a0, fa1, fa2), 0, "vflt.h a0, fa1, fa2"},
        {xfvec(2, 0x53, a0, fa1, fa2), 0, "vfge.h a0, fa1, fa2"},
        {xfvec(2, 0x54, a0, fa1, fa2), 0, "vfle.h a0, fa1, fa2"},
        {xfvec(6, 0x55, a0, fa1, fa2), 0, "vfgt.r.h a0, fa1, fa2"},
        {xfvec(2, 0x4C, a0, fa1, 0), 0, "vfmv.x.h a0, fa1"},
        {xfvec(6, 0x4C, fa0, a1, 0), 0, "vfmv.h.x fa0, a1"},
        {xfvec(2, 0x4C, a0, fa1, 1), 0, "vfclass.h a0, fa1"},
        {xfvec(2, 0x4C, a0, fa1, 2), 0, "vfcvt.x.h a0, fa1"},
        {xfvec(6, 0x4C, a0, fa1, 2), 0, "vfcvt.xu.h a0, fa1"},
        {xfvec(2, 0x4C, fa0, a1, 3), 0, "vfcvt.h.x fa0, a1"},
        {xfvec(6, 0x4C, fa0, a1, 3), 0, "vfcvt.h.xu fa0, a1"},
        {xfvec(2, 0x4C, fa0, fa1, 4), 0, "vfcvt.h.s fa0, fa1"},
        {xfvec(6, 0x4C, fa0, fa1, 4), 0, "vfcvtu.h.s fa0, fa1"},
        {xfvec(0, 0x4C, fa0, fa1, 6), 0, "vfcvt.s.h fa0, fa1"},
        {xfvec(4, 0x4C, fa0, fa1, 6), 0, "vfcvtu.s.h fa0, fa1"},
        {xfvec(2, 0x58, fa0, fa1, fa2), 0, "vfcpka.h.s fa0, fa1, fa2"},
        // Not in this core: FP16alt vectors (format 01), vfsqrt.r, vfclass.r, vfdotp (op5 0x0A).
        {xfvec(1, 0x41, fa0, fa1, fa2), 0, "unknown"},
        {xfvec(6, 0x47, fa0, fa1, 0), 0, "unknown"},
        {xfvec(6, 0x4C, a0, fa1, 1), 0, "unknown"},
        {xfvec(2, 0x4A, fa0, fa1, fa2), 0, "unknown"},
    });
}

TEST(Disassembler, OtherExtensions) {
    expect_cases({
        {i_type(4, a0, 0, a0, 0x13), 0, "addi a0, a0, 4"},
        {i_type(8, sp, 2, a5, 0x03), 0, "lw a5, 8(sp)"},
        {s_type(-4, a5, sp, 2, 0x23), 0, "sw a5, -4(sp)"},
        {i_type(0, ra, 0, zero, 0x67), 0, "ret"},
        {r4_type(fa3, 0, fa2, fa1, 7, fa0, 0x43), 0, "fmadd.s fa0, fa1, fa2, fa3"},
        {r4_type(fa3, 2, fa2, fa1, 1, fa0, 0x4f), 0, "fnmadd.h fa0, fa1, fa2, fa3, rtz"},
        // xcvmem (CV32E40P v2): post-increment load, custom-0 funct3 010; register forms, custom-1 011.
        {i_type(4, a1, 2, a0, 0x0b), 0, "cv.lw a0, 4(a1!)"},
        {r_type(0x02, a2, a1, 3, a0, 0x2b), 0, "cv.lw a0, a2(a1!)"},
        {r_type(0x06, a2, a1, 3, a0, 0x2b), 0, "cv.lw a0, a2(a1)"},
        {s_type(-8, a2, a1, 2, 0x2b), 0, "cv.sw a2, -8(a1!)"},
        {r_type(0x16, a2, a1, 3, a3, 0x2b), 0, "cv.sw a2, a3(a1)"},
        {i_type(0, a1, 3, a0, 0x0b), 0, "cv.elw a0, 0(a1)"},
        // xcvbi: Imm5 in the rs2 field, the branch offset as in a B-type.
        {0xfe0ff78bu, 0x1c000180, "cv.bneimm t6, 0, 0x1c00016e"},
        // Compressed instructions print as what they expand to: c.li, c.mv, c.j.
        {0x4801, 0, "li a6, 0"},
        {0x8e2e, 0, "mv t3, a1"},
        {0xaa69, 0x1c0001ac, "j 0x1c000346"},
        {0x0000, 0, "unknown"},
        {0xffffffffu, 0, "unknown"},
    });
}

TEST(Disassembler, RegisterNames) {
    EXPECT_STREQ(x_register_name(0), "zero");
    EXPECT_STREQ(x_register_name(8), "s0");
    EXPECT_STREQ(x_register_name(31), "t6");
    EXPECT_STREQ(f_register_name(10), "fa0");
    EXPECT_STREQ(f_register_name(31), "ft11");
}

// ---- comparisons with llvm ----

bool known(uint32_t raw) {
    return encodes_instruction(decode(raw, CoreTiming{}));
}

// Numbers by value (32-bit), whitespace collapsed, llvm's post-increment syntax rewritten.
std::string normalise(std::string s) {
    static const std::regex post_increment(R"(\((\w+)\), ([-\w]+)$)");
    s = std::regex_replace(s, post_increment, "$2($1!)");
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        const bool starts_number =
            (std::isdigit(static_cast<unsigned char>(c)) ||
             (c == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) &&
            (i == 0 ||
             !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '.' || s[i - 1] == '_'));
        if (starts_number) {
            size_t end = 0;
            const long long v = std::stoll(s.substr(i), &end, 0);
            out += std::to_string(static_cast<uint32_t>(v));
            i += end;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (!out.empty() && out.back() != ' ') out += ' ';
            ++i;
        } else {
            out += c;
            ++i;
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

std::string run(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return out;
    std::array<char, 1 << 16> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        out.append(buf.data(), n);
    pclose(p);
    return out;
}

#ifdef PULPSIM_LLVM_MC
constexpr const char* kAttrs =
    "+m,+c,+f,+zicsr,+zifencei,+zfh,+xcvmem,+xcvmac,+xcvalu,+xcvbi,+xcvbitmanip,+xcvsimd,+xcvelw";

// llvm-mc's text for each word, empty where it finds no instruction (it names the line of each).
std::vector<std::string> llvm_mc(const std::vector<uint32_t>& words, bool aliases, const std::string& dir) {
    const std::string in = dir + "/words.txt", out = dir + "/out.txt", err = dir + "/err.txt";
    {
        std::ofstream f(in);
        for (uint32_t w : words) {
            const int bytes = (w & 3) == 3 ? 4 : 2;
            f << '[';
            for (int b = 0; b < bytes; ++b)
                f << fmt::format("{}{:#04x}", b ? " " : "", (w >> (8 * b)) & 0xff);
            f << "]\n";
        }
    }
    std::system(fmt::format("{} --disassemble -triple=riscv32 -mattr={} {} {} >{} 2>{}", PULPSIM_LLVM_MC,
                            kAttrs, aliases ? "" : "--riscv-no-aliases", in, out, err)
                    .c_str());
    std::set<size_t> invalid; // 1-based lines
    std::ifstream e(err);
    static const std::regex warning(R"(:(\d+):\d+: warning: invalid instruction encoding)");
    for (std::string line; std::getline(e, line);) {
        std::smatch m;
        if (std::regex_search(line, m, warning)) invalid.insert(std::stoul(m[1]));
    }
    std::vector<std::string> text(words.size());
    std::ifstream o(out);
    std::string line;
    std::getline(o, line); // .text
    for (size_t i = 0; i < words.size(); ++i) {
        if (invalid.count(i + 1)) continue;
        if (!std::getline(o, line)) break;
        text[i] = normalise(line);
    }
    return text;
}

std::vector<uint32_t> sweep_words() {
    std::vector<uint32_t> words;
    std::mt19937 rng(12345);
    // Registers and immediate fields: often 0, 1, 2 and 31, which select aliases and special forms.
    auto field = [&] {
        const uint32_t r = rng() % 8;
        return r < 2 ? 0u : r == 2 ? 1u : r == 3 ? 2u : r == 4 ? 31u : rng() % 32;
    };
    for (uint32_t op = 3; op < 128; op += 4)
        for (uint32_t f3 = 0; f3 < 8; ++f3)
            for (uint32_t f7 = 0; op != 0x73 && f7 < 128; ++f7) // CSR numbers: below
                for (int k = 0; k < 3; ++k)
                    words.push_back(r_type(f7, field(), field(), f3, field(), op));
    for (uint32_t f7 = 0; f7 < 128; ++f7)
        for (uint32_t rs2 = 0; rs2 < 32; ++rs2)
            for (uint32_t rm = 0; rm < 8; ++rm)
                words.push_back(r_type(f7, rs2, field(), rm, field(), 0x53));
    for (uint32_t c = 0; c < 0x10000; ++c)
        if ((c & 3) != 3) words.push_back(c);
    // The CSRs the hart implements, with every access form, x0 and other registers.
    std::vector<uint32_t> csrs = {0x001, 0x002, 0x003, 0x300, 0x301, 0x304, 0x305, 0x320, 0x340,
                                  0x341, 0x342, 0x343, 0x344, 0x7a0, 0x7a1, 0x7a2, 0x7a3, 0x7a4,
                                  0x7a8, 0x7b0, 0x7b1, 0x7b2, 0x7b3, 0xcc0, 0xcc1, 0xcc2, 0xcc4,
                                  0xcc5, 0xcc6, 0xcd0, 0xcd1, 0xf11, 0xf12, 0xf13, 0xf14};
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t base : {0x320u, 0xb00u, 0xb80u, 0xc00u, 0xc80u})
            if (base != 0x320 || i >= 3) csrs.push_back(base + i);
    for (uint32_t csr : csrs)
        for (uint32_t f3 : {1u, 2u, 3u, 5u, 6u, 7u})
            for (uint32_t rd : {0u, 10u})
                for (uint32_t rs1 : {0u, 11u})
                    words.push_back((csr << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x73);
    return words;
}

TEST(Disassembler, AgreesWithLlvmMc) {
    // A folder of this process's own: two builds' tests may run at once.
    const std::string dir = ::testing::TempDir() + fmt::format("/disassembler_llvm_mc.{}", ::getpid());
    std::system(("mkdir -p " + dir).c_str());
    // Words the decoder rejects print as unknown; llvm sees the others.
    std::vector<uint32_t> words;
    size_t rejected = 0;
    for (uint32_t w : sweep_words()) {
        if (known(w)) {
            words.push_back(w);
        } else {
            EXPECT_EQ(disassemble(w, 0), fmt::format("unknown {:#010x}", w));
            ++rejected;
        }
    }
    const auto with_aliases = llvm_mc(words, true, dir);
    const auto without = llvm_mc(words, false, dir);
    std::filesystem::remove_all(dir);
    size_t compared = 0, ours_only = 0, failures = 0;
    std::map<std::string, size_t> ours_only_kinds;
    for (size_t i = 0; i < words.size(); ++i) {
        const uint32_t w = words[i];
        const std::string ours = disassemble(w, 0);
        if (with_aliases[i].empty()) {
            // Only the extensions llvm 19 does not have (hardware loops, vectorial FP16), and fences with
            // reserved fm, rs1 or rd values, which the ISA says to execute as the plain fence they name.
            const bool hwloop = (w & 0x707f) == 0x402b;
            const bool vector_fp16 = (w & 0x7f) == 0x33 && (w >> 30) == 2;
            const bool fence = (w & 0x607f) == 0x000f;
            ++ours_only;
            ++ours_only_kinds[ours.substr(0, ours.find(' '))];
            if (!hwloop && !vector_fp16 && !fence && ++failures <= 40)
                ADD_FAILURE() << fmt::format("{:#010x}: llvm finds no instruction, we print '{}'", w, ours);
            continue;
        }
        ++compared;
        const std::string n = normalise(ours);
        if (n != with_aliases[i] && n != without[i] && ++failures <= 40)
            ADD_FAILURE() << fmt::format("{:#010x}: '{}' vs llvm '{}' / '{}'", w, ours, with_aliases[i],
                                         without[i]);
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_GT(compared, 70000u);
    std::string kinds;
    for (const auto& [k, n] : ours_only_kinds)
        kinds += fmt::format(" {}:{}", k, n);
    std::printf("%zu words the decoder rejects, %zu compared with llvm-mc, %zu that llvm does not know:%s\n",
                rejected, compared, ours_only, kinds.c_str());
}
#endif

#ifdef PULPSIM_LLVM_OBJDUMP
// Every instruction of a kernel ELF, at its address, against llvm-objdump's listing.
void compare_with_objdump(const std::string& elf_path) {
    static const std::regex insn(R"(^\s*([0-9a-f]+):\s+([0-9a-f]{4}|[0-9a-f]{8})\s+\t(.*?)\s*$)");
    auto listing = [&](bool aliases) {
        std::map<uint32_t, std::pair<uint32_t, std::string>> lines; // address -> (word, text)
        std::istringstream in(run(fmt::format("{} -d --no-print-imm-hex {} {}", PULPSIM_LLVM_OBJDUMP,
                                              aliases ? "" : "-M no-aliases", elf_path)));
        for (std::string line; std::getline(in, line);) {
            std::smatch m;
            if (!std::regex_match(line, m, insn)) continue;
            std::string text = m[3];
            if (const size_t sym = text.find(" <"); sym != std::string::npos) text.resize(sym);
            lines[static_cast<uint32_t>(std::stoul(m[1], nullptr, 16))] = {
                static_cast<uint32_t>(std::stoul(m[2], nullptr, 16)), normalise(text)};
        }
        return lines;
    };
    const auto with_aliases = listing(true);
    const auto without = listing(false);
    size_t compared = 0, failures = 0;
    for (const auto& [addr, entry] : with_aliases) {
        const auto& [word, text] = entry;
        const std::string ours = disassemble(word, addr);
        if (!known(word)) { // padding between functions (c.unimp), or data
            EXPECT_EQ(ours, fmt::format("unknown {:#010x}", word));
            continue;
        }
        if (text == "<unknown>") {
            // Words llvm does not decode: hardware loops and vectorial FP16, or data between functions.
            const bool ours_only = (word & 0x707f) == 0x402b || ((word & 0x7f) == 0x33 && (word >> 30) == 2);
            EXPECT_TRUE(!ours_only || ours.rfind("unknown", 0) != 0) << fmt::format("{:#x}: {}", addr, ours);
            continue;
        }
        ++compared;
        const std::string n = normalise(ours);
        if (n != text && n != without.at(addr).second && ++failures <= 20)
            ADD_FAILURE() << fmt::format("{}: {:#x} {:#010x}: '{}' vs llvm '{}' / '{}'", elf_path, addr, word,
                                         ours, text, without.at(addr).second);
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_GT(compared, 1000u) << elf_path;
}

TEST(Disassembler, AgreesWithLlvmObjdumpOnKernels) {
    for (const char* elf : {PULPSIM_KERNEL_ELFS})
        compare_with_objdump(elf);
}
#endif

} // namespace
} // namespace pulpsim
