// Hart behaviours that are easiest to check on hand-placed encodings: x0, traps without a handler,
// counter inhibition, the decode cache's reaction to stores into code, the fused multiply-add handlers, the
// handler a lockstep turn is handed.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cluster/host_services.hpp"
#include "core/decoder.hpp"
#include "core/float_ops.hpp"
#include "core/hart.hpp"
#include "core/hart_loop.hpp"

namespace pulpsim {
namespace {

constexpr uint32_t kBase = 0x1000;

struct Machine {
    AddressMap bus;
    HostServices host{true};
    Ram* ram;
    Hart hart;
    explicit Machine(const std::vector<uint32_t>& words)
        : ram(&bus.add_ram("ram", kBase, 0x1000)), hart(bus, host, CoreTiming{}, 0) {
        bus.write_bytes(kBase, words.data(), static_cast<uint32_t>(words.size() * 4));
        hart.reset(kBase, kBase + 0x1000);
        hart.set_fast_ram(ram);
        hart.set_code_range(kBase, kBase + 0x100);
        host.attach(hart);
    }
};

// Encodings (RISC-V unprivileged spec, I-type: imm[31:20] rs1 funct3 rd opcode).
constexpr uint32_t addi(unsigned rd, unsigned rs1, int imm) {
    return (static_cast<uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13;
}
constexpr uint32_t kEcall = 0x00000073;
constexpr uint32_t sw(unsigned rs2, unsigned rs1, int imm) {
    return (static_cast<uint32_t>((imm >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) |
           (static_cast<uint32_t>(imm & 31) << 7) | 0x23;
}

TEST(Hart, WritesToX0AreDiscarded) {
    Machine m({addi(0, 0, 5), addi(1, 0, 0), addi(17, 0, 93), addi(10, 1, 0), kEcall});
    m.hart.run(1000);
    EXPECT_EQ(m.hart.stop_reason(), StopReason::Exit);
    EXPECT_EQ(m.hart.xreg(0), 0u);
    EXPECT_EQ(m.hart.exit_code(), 0);
}

TEST(Hart, ExitCodeComesFromA0) {
    Machine m({addi(10, 0, 42), addi(17, 0, 93), kEcall});
    m.hart.run(1000);
    EXPECT_EQ(m.hart.exit_code(), 42);
}

TEST(Hart, IllegalInstructionWithoutHandlerNamesPcAndEncoding) {
    Machine m({addi(1, 0, 1), 0xffffffffu});
    m.hart.run(1000);
    EXPECT_EQ(m.hart.stop_reason(), StopReason::Error);
    EXPECT_EQ(m.hart.stop_message(), "illegal instruction 0xffffffff at pc 0x00001004");
}

TEST(Hart, LoadOutsideMemoryNamesTheAddress) {
    // lw x1, 0(x0): address 0 is outside the only RAM.
    Machine m({0x00002083u});
    m.hart.run(1000);
    EXPECT_NE(m.hart.stop_message().find("load at address 0x00000000 outside every memory"),
              std::string::npos);
}

TEST(Hart, CountersAreInhibitedAtReset) {
    Machine m({addi(1, 0, 1), addi(1, 1, 1), addi(17, 0, 93), kEcall});
    m.hart.run(1000);
    EXPECT_EQ(m.hart.peek_csr(csr::kMcountinhibit), 0xDu); // mcycle, minstret, mhpmcounter3
    EXPECT_EQ(m.hart.peek_csr(csr::kMcycle), 0u);
    EXPECT_EQ(m.hart.peek_csr(csr::kMinstret), 0u);
    EXPECT_EQ(m.hart.stats().instret(), 4u);
}

constexpr uint32_t lui(unsigned rd, uint32_t upper) {
    return (upper & 0xfffff000u) | (rd << 7) | 0x37;
}
constexpr uint32_t bne(unsigned rs1, unsigned rs2, int off) {
    const auto o = static_cast<uint32_t>(off);
    return (((o >> 12) & 1) << 31) | (((o >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (1u << 12) |
           (((o >> 1) & 0xf) << 8) | (((o >> 11) & 1) << 7) | 0x63;
}
constexpr uint32_t jal(unsigned rd, int off) {
    const auto o = static_cast<uint32_t>(off);
    return (((o >> 20) & 1) << 31) | (((o >> 1) & 0x3ff) << 21) | (((o >> 11) & 1) << 20) | (o & 0xff000) |
           (rd << 7) | 0x6f;
}

TEST(Hart, StoreIntoDecodedCodeTakesEffect) {
    // The instruction at 0x1010 runs once as `addi a0, x0, 1` (and is cached decoded), is then overwritten
    // with `addi a0, x0, 7` and runs again; the exit code shows which one ran the second time.
    const uint32_t patched = addi(10, 0, 7);
    const uint32_t hi = (patched + 0x800) & 0xfffff000u;
    const int lo = static_cast<int>(patched - hi);
    Machine m({lui(6, hi), addi(6, 6, lo), lui(5, kBase), addi(7, 0, 0),
               addi(10, 0, 1), // 0x1010: the patched instruction
               bne(7, 0, 16),  // second pass: go to the exit at 0x1024
               addi(7, 0, 1), sw(6, 5, 0x10), jal(0, -16), addi(17, 0, 93), kEcall});
    m.hart.run(1000);
    EXPECT_EQ(m.hart.stop_reason(), StopReason::Exit) << m.hart.stop_message();
    EXPECT_EQ(m.hart.exit_code(), 7);
}

// RV32F encodings (R4-type and R-type with rm; funct7 0x0c = fdiv.s, 0x10 = fsgnj*.s) and csrrs.
constexpr uint32_t fmadd_s(unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3, unsigned rm) {
    return (rs3 << 27) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | 0x43;
}
constexpr uint32_t fdiv_s(unsigned rd, unsigned rs1, unsigned rs2) {
    return (0x0cu << 25) | (rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x53;
}
constexpr uint32_t fsgnjx_s(unsigned rd, unsigned rs1, unsigned rs2) {
    return (0x10u << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | (rd << 7) | 0x53;
}
constexpr uint32_t csrrs(unsigned rd, uint16_t csr, unsigned rs1) {
    return (uint32_t{csr} << 20) | (rs1 << 15) | (2u << 12) | (rd << 7) | 0x73;
}

// Every turn of the lockstep engine comes after `turn`: whatever a core ran ahead lies past it.
struct TurnBefore final : IssueOrder {
    uint64_t turn = 0;
    bool runs_before(unsigned, unsigned, uint64_t) const override { return true; }
    uint64_t turn_cycle() const override { return turn; }
};

void expect_same_counters(const CoreStats& a, const CoreStats& b) {
    EXPECT_EQ(a.by_class_and_size, b.by_class_and_size);
    EXPECT_EQ(a.stall_cycles, b.stall_cycles);
    EXPECT_EQ(a.fp_writebacks, b.fp_writebacks);
    EXPECT_EQ(a.branches_taken, b.branches_taken);
    EXPECT_EQ(a.load_use_hazards, b.load_use_hazards);
}

// A loop of FP operations whose second pass runs from the loop head at 0x100c: fdiv.s (19 cycles, inexact),
// an fmadd.s that does not use its result but waits for the core's div/sqrt unit, an fsgnjx.s that does.
std::vector<uint32_t> fp_loop(unsigned fmadd_rm) {
    return {lui(5, 0x6000),
            csrrs(0, csr::kMstatus, 5), // FS = Dirty
            addi(7, 0, 2),
            fdiv_s(1, 2, 3), // 0x100c
            fmadd_s(4, 5, 5, 4, fmadd_rm),
            fsgnjx_s(6, 6, 1),
            addi(7, 7, -1),
            bne(7, 0, -16),
            addi(17, 0, 93),
            kEcall};
}
// Running ahead from the head, a core stops at the first instruction after the loop: never run, it is not
// decoded yet.
constexpr uint32_t kLoopHead = kBase + 0xc, kLoopExit = kBase + 0x20;

// Decodes the loop in a first pass and stops at the head of the second.
void run_first_pass(Machine& m) {
    m.hart.set_freg(2, 0x40c00000u); // 6.0
    m.hart.set_freg(3, 0x40e00000u); // 7.0
    m.hart.set_freg(5, 0x3fc00000u); // 1.5
    while (m.hart.pc() != kLoopHead || m.hart.xreg(7) != 1) {
        m.hart.step();
        ASSERT_FALSE(m.hart.stopped()) << m.hart.stop_message();
    }
}

// A core whose FPU is its own runs its FP operations ahead of its turn, and what they added to its counters,
// the wait for the div/sqrt unit included, is taken back for a core whose turn comes first and at the end
// of a run that ends before them.
TEST(HartRunAhead, FpOperationsOnItsOwnFpuRunAheadAndAreTakenBack) {
    Machine m(fp_loop(0));
    run_first_pass(m);
    const CoreStats before = m.hart.stats();
    const uint64_t cycle = m.hart.cycle();
    TurnBefore order;
    order.turn = cycle - 1;
    m.hart.set_issue_order(&order);

    m.hart.run_ahead_if_private(UINT64_MAX);
    ASSERT_EQ(m.hart.pc(), kLoopExit);
    EXPECT_EQ(m.hart.stats().fp_writebacks, before.fp_writebacks + 3);
    EXPECT_GT(m.hart.stats().stalls(StallKind::FpuDependency), before.stalls(StallKind::FpuDependency) + 17)
        << "the fmadd.s did not wait for the div/sqrt unit, nor the fsgnjx.s for the quotient";
    EXPECT_EQ(m.hart.stats().instret(), before.instret() + 5);

    expect_same_counters(m.hart.stats_seen_by(1), before);
    m.hart.rewind_run_ahead(1, order.turn);
    expect_same_counters(m.hart.stats(), before);
    EXPECT_EQ(m.hart.cycle(), cycle);
    EXPECT_EQ(m.hart.pc(), kLoopHead);
}

// A fetch port without an L0 lane (the interface's default) is asked for every line a core enters, on the
// lockstep path as on the chained one, and its waits become instruction-cache stalls.
struct LinesAskedPort : InstructionFetchPort {
    std::vector<uint32_t> lines;
    unsigned fetch_line(unsigned /*core*/, uint32_t addr) override {
        lines.push_back(addr >> 4);
        return 2;
    }
};

// Straight-line code: `adds` times x5 += step, then exit with x5.
std::vector<uint32_t> adding_program(int adds, int step) {
    std::vector<uint32_t> program;
    for (int i = 0; i < adds; ++i)
        program.push_back(addi(5, 5, step));
    for (uint32_t w : {addi(10, 5, 0), addi(17, 0, 93), kEcall})
        program.push_back(w);
    return program;
}

TEST(Hart, LockstepTurnsAskALanelessFetchPortForEveryNewLine) {
    const std::vector<uint32_t> program = adding_program(9, 1);
    std::vector<uint32_t> expected_lines; // 16-byte lines, straight-line code: each line once, in order
    for (uint32_t i = 0; i < program.size(); ++i)
        if (expected_lines.empty() || expected_lines.back() != (kBase + 4 * i) >> 4)
            expected_lines.push_back((kBase + 4 * i) >> 4);

    Machine chained(program), lockstep(program);
    LinesAskedPort chained_port, lockstep_port;
    chained.hart.set_instruction_fetch(&chained_port, 4);
    lockstep.hart.set_instruction_fetch(&lockstep_port, 4);
    chained.hart.run(1000);
    for (int turns = 0; !lockstep.hart.stopped() && turns < 1000; ++turns)
        lockstep.hart.take_turn(lockstep.hart.cycle() + 1, 0); // no run ahead: every instruction a turn

    ASSERT_EQ(lockstep.hart.stop_reason(), StopReason::Exit) << lockstep.hart.stop_message();
    EXPECT_EQ(lockstep.hart.exit_code(), 9);
    EXPECT_EQ(chained_port.lines, expected_lines);
    EXPECT_EQ(lockstep_port.lines, expected_lines);
    EXPECT_EQ(lockstep.hart.stats().stalls(StallKind::ICacheMiss), 2 * expected_lines.size());
    EXPECT_EQ(lockstep.hart.cycle(), chained.hart.cycle());
}

// The lockstep engine hands each turn the handler it read a turn earlier (next_turn_handler). The turn calls
// it only while it is still the slot's handler: one read ahead gives the same run, and a stale one is not
// called.
[[noreturn]] void stale_handler(Hart& /*hart*/, const DecodedInsn& /*d*/) {
    throw std::logic_error("a turn called a handler that is not its slot's");
}

TEST(Hart, LockstepTurnsCallAHandlerReadAheadOnlyWhileItIsTheSlots) {
    const std::vector<uint32_t> program = adding_program(6, 3);
    Machine chained(program), read_ahead(program), stale(program);
    chained.hart.run(1000);
    for (int turns = 0; !read_ahead.hart.stopped() && turns < 1000; ++turns) {
        const ExecFn handler = read_ahead.hart.next_turn_handler();
        read_ahead.hart.take_turn(read_ahead.hart.cycle() + 1, 0, handler);
    }
    for (int turns = 0; !stale.hart.stopped() && turns < 1000; ++turns)
        ASSERT_NO_THROW(stale.hart.take_turn(stale.hart.cycle() + 1, 0, &stale_handler));

    for (Machine* m : {&read_ahead, &stale}) {
        ASSERT_EQ(m->hart.stop_reason(), StopReason::Exit) << m->hart.stop_message();
        EXPECT_EQ(m->hart.exit_code(), 18);
        EXPECT_EQ(m->hart.cycle(), chained.hart.cycle());
        EXPECT_EQ(m->hart.stats().instret(), chained.hart.stats().instret());
    }
}

// An FP operation whose dynamic rounding mode names a reserved frm traps: it waits for its turn.
TEST(HartRunAhead, FpOperationThatWouldTrapWaitsForItsTurn) {
    Machine m(fp_loop(7));
    run_first_pass(m);
    m.hart.frm_ = 5;
    const uint64_t cycle = m.hart.cycle();
    TurnBefore order;
    order.turn = cycle - 1;
    m.hart.set_issue_order(&order);
    m.hart.run_ahead_if_private(UINT64_MAX);
    EXPECT_EQ(m.hart.pc(), kLoopHead + 4) << "ran ahead past the fmadd.s with frm = 5";
    EXPECT_FALSE(m.hart.stopped());
}

} // namespace
} // namespace pulpsim

namespace pulpsim {
namespace {

// fmadd.s, fmsub.s, fnmsub.s and fnmadd.s as the decoder hands them to this host (which may be a handler with
// the host's FMA inline) give the software FMA's result and flags, bit for bit: every static rounding mode
// and the dynamic one, with and without flags already raised, on special and random operands.
TEST(HartFp, FusedMultiplyAddsMatchTheSoftwareFma) {
    Machine m({kEcall});
    Hart& h = m.hart;
    std::vector<uint32_t> values = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x40000000,
                                    0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000, 0x00000001, 0x807fffff,
                                    0x3effffff, 0x00400000, 0x33800000, 0x3f800001, 0x7f800000, 0xff800000,
                                    0x7fc00000, 0x7fa00000, 0x0c000000, 0x1f800000, 0x5f000000};
    std::mt19937 random(15);
    std::vector<std::array<uint32_t, 3>> operands;
    for (uint32_t a : values)
        for (uint32_t b : values)
            for (uint32_t c : values)
                operands.push_back({a, b, c});
    for (int i = 0; i < 20'000; ++i) {
        // Random bits, and values whose exponents lie close enough for the sum to cancel or round.
        const auto next = [&] { return static_cast<uint32_t>(random()); };
        const uint32_t a = next(), b = next();
        const uint32_t near = (a & 0x807fffff) | (((a >> 23 & 0xff) + (b >> 23 & 0xff) - 127) & 0xff) << 23;
        operands.push_back({a, b, i % 2 ? next() : near ^ (next() & 0x807fffff)});
    }
    const std::array<std::pair<unsigned, unsigned>, 7> modes{
        {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {kDynamicRm, 0}, {kDynamicRm, 3}}};
    for (unsigned op = 0; op < 4; ++op) {
        const bool negate_product = op >= 2, negate_addend = op == 1 || op == 3;
        for (const auto& [rm, frm] : modes) {
            const uint32_t raw =
                (3u << 27) | (2u << 20) | (1u << 15) | (rm << 12) | (4u << 7) | (0x43 + 4 * op);
            const DecodedInsn d = decode(raw, CoreTiming{});
            ASSERT_NE(d.exec, nullptr);
            h.frm_ = static_cast<uint8_t>(frm);
            const auto rounding = static_cast<fp::Rounding>(rm == kDynamicRm ? frm : rm);
            for (const uint8_t before : {uint8_t{0}, fp::kInexact, uint8_t{0x1f}})
                for (const auto& [a, b, c] : operands) {
                    h.set_freg(1, a);
                    h.set_freg(2, b);
                    h.set_freg(3, c);
                    h.fflags_ = before;
                    d.exec(h, d);
                    uint8_t flags = before;
                    const uint32_t want =
                        fp::detail::soft_fma32(a ^ (negate_product ? 0x80000000u : 0u), b,
                                               c ^ (negate_addend ? 0x80000000u : 0u), rounding, flags);
                    ASSERT_EQ(h.freg(4), want) << std::hex << "op " << op << " rm " << rm << " frm " << frm
                                               << ": " << a << " * " << b << " + " << c;
                    ASSERT_EQ(h.fflags_, flags) << std::hex << "op " << op << " rm " << rm << " frm " << frm
                                                << ": " << a << " * " << b << " + " << c;
                }
        }
    }
}

// The decode cache starts empty, and clear() empties it again in place: the loop keeps pointers to slots
// across a fence.i. 100 000 slots span whole pages, which clear() hands back rather than writes.
TEST(DecodeCache, StartsEmptyAndClearsInPlace) {
    DecodeCache cache(100'000);
    ASSERT_EQ(cache.size(), 100'000u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(&cache[0]) % alignof(DecodedInsn), 0u);
    for (size_t i : {size_t{0}, size_t{1}, size_t{50'000}, size_t{99'999}})
        EXPECT_EQ(cache[i].exec, nullptr) << i;
    const DecodedInsn* first = &cache[0];
    for (size_t i = 0; i < cache.size(); i += 997) {
        cache[i] = decode(0x00000013, CoreTiming{}); // addi x0, x0, 0
        ASSERT_NE(cache[i].exec, nullptr);
    }
    cache[cache.size() - 1] = decode(0x00000013, CoreTiming{});
    cache.clear();
    EXPECT_EQ(&cache[0], first);
    for (size_t i = 0; i < cache.size(); ++i)
        ASSERT_EQ(cache[i].exec, nullptr) << i;
    EXPECT_EQ(cache.size(), 100'000u);
}

} // namespace
} // namespace pulpsim
