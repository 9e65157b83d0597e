// Hart behaviours that are easiest to check on hand-placed encodings: x0, traps without a handler,
// counter inhibition, the decode cache's reaction to stores into code.
#include <gtest/gtest.h>

#include "cluster/host_services.hpp"
#include "core/decoder.hpp"
#include "core/hart.hpp"

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
    EXPECT_EQ(m.hart.peek_csr(csr::kMcountinhibit), 0xFFFFFFFDu);
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

} // namespace
} // namespace pulpsim

namespace pulpsim {
namespace {

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
