// DmaEngine: the cycle formula completion = start + l2_latency + ceil(bytes * 8 / bandwidth) for
// uncontended transfers, duplex budgets, bank stalls, 2-D data movement, queue depth and input checks.
// Expected cycles are worked out from the rules in dma_engine.hpp next to each test.
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "dma/dma_engine.hpp"

namespace pulpsim {
namespace {

constexpr uint32_t kL2 = 0x1c00'0000;
constexpr uint32_t kL1 = 0x1000'0000;
constexpr unsigned kLatency = 15;

struct Platform {
    explicit Platform(DmaConfig c = {}) : tcdm(TcdmConfig{}), dma(init(c), tcdm, memory) {}

    DmaConfig& init(DmaConfig& c) {
        l2 = &memory.add_ram("L2", kL2, 512 * 1024);
        l1 = &memory.add_ram("TCDM", kL1, 64 * 1024);
        return c;
    }
    uint8_t* l2_at(uint32_t addr) { return l2->data() + (addr - kL2); }
    uint8_t* l1_at(uint32_t addr) { return l1->data() + (addr - kL1); }

    AddressMap memory;
    Ram* l2 = nullptr;
    Ram* l1 = nullptr;
    TcdmInterconnect tcdm;
    DmaEngine dma;
};

DmaConfig with_bandwidth(unsigned bits, bool full_duplex = true) {
    DmaConfig c;
    c.bandwidth_bits = bits;
    c.full_duplex = full_duplex;
    return c;
}

DmaTransfer in_1d(uint32_t bytes, uint32_t l2 = kL2, uint32_t l1 = kL1) {
    return DmaTransfer{.direction = DmaDirection::in, .l2_addr = l2, .tcdm_addr = l1, .bytes = bytes};
}

DmaTransfer out_1d(uint32_t bytes, uint32_t l2 = kL2, uint32_t l1 = kL1) {
    return DmaTransfer{.direction = DmaDirection::out, .l2_addr = l2, .tcdm_addr = l1, .bytes = bytes};
}

TEST(DmaEngine, UncontendedCompletionFollowsTheBandwidthFormula) {
    for (uint32_t bytes : {4u, 64u, 1000u, 4096u}) {
        for (unsigned bits : {8u, 32u, 64u, 128u}) {
            Platform p(with_bandwidth(bits));
            const uint64_t start = 100;
            const auto id = p.dma.enqueue(0, in_1d(bytes), start);
            ASSERT_TRUE(id.has_value());
            p.dma.advance(100'000);
            const uint64_t cycles_moving = (uint64_t{bytes} * 8 + bits - 1) / bits;
            EXPECT_EQ(p.dma.completion_cycle(*id), start + kLatency + cycles_moving)
                << bytes << " bytes at " << bits << " bits/cycle";
            EXPECT_TRUE(p.dma.done(*id));
            EXPECT_EQ(p.dma.counters().bytes_in, bytes);
            EXPECT_EQ(p.dma.counters().active_cycles, cycles_moving);
            EXPECT_EQ(p.dma.counters().bank_stall_cycles, 0u);
        }
    }
}

TEST(DmaEngine, DoneOnlyOnceTimeReachesTheCompletion) {
    Platform p(with_bandwidth(64));
    const auto id = p.dma.enqueue(3, in_1d(64), 0); // completes at 0 + 15 + 8 = 23
    EXPECT_EQ(p.dma.next_event(), kLatency);
    p.dma.advance(22);
    EXPECT_FALSE(p.dma.done(*id));
    p.dma.advance(23);
    EXPECT_TRUE(p.dma.done(*id));
    EXPECT_EQ(p.dma.next_event(), 23u); // the completion not yet taken
    const auto completions = p.dma.take_completions(23);
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].id, *id);
    EXPECT_EQ(completions[0].core, 3u);
    EXPECT_EQ(completions[0].cycle, 23u);
    EXPECT_EQ(p.dma.next_event(), DmaEngine::kNever);
    EXPECT_EQ(p.dma.counters().latency_sum, 23u);
    EXPECT_EQ(p.dma.counters().latency_max, 23u);
}

TEST(DmaEngine, TwoDimensionalInGathersStridedL2RowsIntoContiguousTcdm) {
    Platform p(with_bandwidth(32));
    for (uint32_t i = 0; i < 400; ++i)
        p.l2->data()[i] = static_cast<uint8_t>(i * 7 + 1);
    const DmaTransfer t{.direction = DmaDirection::in,
                        .l2_addr = kL2 + 3,
                        .tcdm_addr = kL1 + 0x100,
                        .bytes = 13,
                        .rows = 5,
                        .l2_stride = 40,
                        .tcdm_stride = 0};
    const auto id = p.dma.enqueue(0, t, 0);
    p.dma.advance(1000);
    ASSERT_TRUE(p.dma.done(*id));
    std::vector<uint8_t> expected;
    for (uint32_t r = 0; r < 5; ++r)
        for (uint32_t b = 0; b < 13; ++b)
            expected.push_back(p.l2->data()[3 + r * 40 + b]);
    const std::vector<uint8_t> got(p.l1_at(kL1 + 0x100), p.l1_at(kL1 + 0x100) + 65);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(*p.l1_at(kL1 + 0x100 + 65), 0u); // nothing past the last row
    EXPECT_EQ(p.dma.counters().bytes_in, 65u);
}

TEST(DmaEngine, TwoDimensionalOutScattersStridedTcdmRowsIntoContiguousL2) {
    Platform p(with_bandwidth(64));
    for (uint32_t i = 0; i < 400; ++i)
        p.l1->data()[i] = static_cast<uint8_t>(i * 13 + 5);
    const DmaTransfer t{.direction = DmaDirection::out,
                        .l2_addr = kL2 + 0x1000,
                        .tcdm_addr = kL1 + 2,
                        .bytes = 10,
                        .rows = 7,
                        .l2_stride = 0,
                        .tcdm_stride = 24};
    const auto id = p.dma.enqueue(0, t, 0);
    p.dma.advance(1000);
    ASSERT_TRUE(p.dma.done(*id));
    std::vector<uint8_t> expected;
    for (uint32_t r = 0; r < 7; ++r)
        for (uint32_t b = 0; b < 10; ++b)
            expected.push_back(p.l1->data()[2 + r * 24 + b]);
    const std::vector<uint8_t> got(p.l2_at(kL2 + 0x1000), p.l2_at(kL2 + 0x1000) + 70);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(p.dma.counters().bytes_out, 70u);
}

TEST(DmaEngine, FullDuplexRunsInAndOutAtOnceWithoutSlowingEither) {
    Platform p(with_bandwidth(64, true));
    const auto in = p.dma.enqueue(0, in_1d(256), 0);
    // 8 words apart in the banks: each cycle "in" uses banks 2c, 2c+1 and "out" 2c+8, 2c+9 (mod 16).
    const auto out = p.dma.enqueue(1, out_1d(256, kL2 + 0x1000, kL1 + 0x1020), 0);
    p.dma.advance(1000);
    // Alone: 0 + 15 + 256 * 8 / 64 = 47, each.
    EXPECT_EQ(p.dma.completion_cycle(*in), 47u);
    EXPECT_EQ(p.dma.completion_cycle(*out), 47u);
    EXPECT_EQ(p.dma.counters().bank_stall_cycles, 0u);
    EXPECT_EQ(p.dma.counters().active_cycles, 32u);
}

TEST(DmaEngine, HalfDuplexAlternatesOneBudgetBetweenDirections) {
    {
        Platform alone(with_bandwidth(64, false));
        const auto id = alone.dma.enqueue(0, out_1d(256), 0);
        alone.dma.advance(1000);
        EXPECT_EQ(alone.dma.completion_cycle(*id), 47u);
    }
    Platform p(with_bandwidth(64, false));
    const auto in = p.dma.enqueue(0, in_1d(256), 0);
    const auto out = p.dma.enqueue(1, out_1d(256, kL2 + 0x1000, kL1 + 0x1000), 0);
    p.dma.advance(1000);
    // 32 cycles of data each, interleaved from cycle 15: "in" moves in 15, 17, ..., 77 and "out" in
    // 16, 18, ..., 78.
    EXPECT_EQ(p.dma.completion_cycle(*in), 78u);
    EXPECT_EQ(p.dma.completion_cycle(*out), 79u);
    EXPECT_EQ(p.dma.counters().active_cycles, 64u);
}

TEST(DmaEngine, BankHeldByACoreDelaysTheDmaByTheBlockedCycles) {
    for (unsigned blocked : {1u, 3u, 5u}) {
        Platform p(with_bandwidth(32)); // one word per cycle
        // 64 bytes from cycle 0: word i moves in cycle 15 + i; word 3 (bank 3) in cycle 18, on DMA port
        // 8 + 3 % 4 = 11. A core holds bank 3 in cycles 18 .. 18 + blocked - 1.
        for (unsigned c = 0; c < blocked; ++c)
            ASSERT_EQ(p.tcdm.request(0, kL1 + 4 * 3 + 64, 18 + c, false), 18 + c);
        const auto id = p.dma.enqueue(0, in_1d(64), 0);
        p.dma.advance(1000);
        EXPECT_EQ(p.dma.completion_cycle(*id), 31u + blocked);
        EXPECT_EQ(p.dma.counters().bank_stall_cycles, blocked);
        EXPECT_EQ(p.tcdm.counters().ports[11].contention_cycles, blocked);
        EXPECT_EQ(p.tcdm.counters().ports[8].accesses + p.tcdm.counters().ports[9].accesses +
                      p.tcdm.counters().ports[10].accesses + p.tcdm.counters().ports[11].accesses,
                  16u);
    }
}

// A core loads from bank 0 in every even cycle while the DMA moves 64 words (one per cycle) from cycle 1:
// word i wants bank i % 16 in cycle 16 + i, so words 0, 16, 32, 48 meet the core in cycles 16, 32, 48, 64.
// Who goes first in a cycle decides who waits.
struct SharedBank {
    uint64_t completion;
    uint64_t core_waited;
    uint64_t core_waited_on_dma;
    uint64_t dma_waited;
};

SharedBank share_bank_zero(bool core_first) {
    Platform p(with_bandwidth(32));
    const auto id = p.dma.enqueue(0, in_1d(256), 1);
    for (uint64_t c = 0; c < 200; ++c) {
        if (!core_first) p.dma.advance(c + 1);
        if (c % 2 == 0) (void)p.tcdm.request(0, kL1 + 1024, c, false);
        if (core_first) p.dma.advance(c + 1);
    }
    const auto& ports = p.tcdm.counters().ports;
    return {p.dma.completion_cycle(*id), ports[0].contention_cycles, ports[0].waited_on_dma,
            p.dma.counters().bank_stall_cycles};
}

TEST(DmaEngine, ACoreFirstOnABankDelaysTheDmaOnce) {
    // The core wins cycle 16: word 0 moves in 17 and every later word one cycle late, which puts words
    // 16, 32, 48 on odd cycles, clear of the core.
    const SharedBank r = share_bank_zero(true);
    EXPECT_EQ(r.dma_waited, 1u);
    EXPECT_EQ(r.completion, 1u + 15 + 64 + 1);
    EXPECT_EQ(r.core_waited, 0u);
}

TEST(DmaEngine, TheDmaFirstOnABankDelaysTheCoreEveryTimeTheyMeet) {
    // The DMA keeps its schedule and takes bank 0 in cycles 16, 32, 48, 64: the core waits one cycle each
    // time, and the interconnect attributes all four to the DMA.
    const SharedBank r = share_bank_zero(false);
    EXPECT_EQ(r.dma_waited, 0u);
    EXPECT_EQ(r.completion, 1u + 15 + 64);
    EXPECT_EQ(r.core_waited, 4u);
    EXPECT_EQ(r.core_waited_on_dma, 4u);
}

TEST(DmaEngine, ActivityCountsTheUnionOfTransfersInFlight) {
    Platform p(with_bandwidth(64));
    ASSERT_TRUE(p.dma.enqueue(0, in_1d(800), 0));                           // [0, 15 + 100)
    ASSERT_TRUE(p.dma.enqueue(1, out_1d(80, kL2 + 4096, kL1 + 4096), 50));  // [50, 75): inside the first
    ASSERT_TRUE(p.dma.enqueue(1, out_1d(80, kL2 + 4096, kL1 + 4096), 200)); // [200, 225)
    p.dma.advance(210);
    EXPECT_EQ(p.dma.activity(210).busy_cycles, 115u + 10);
    EXPECT_EQ(p.dma.activity(210).bytes_in, 800u);
    EXPECT_EQ(p.dma.activity(210).bytes_out, 80u); // the second out has not moved a byte yet
    p.dma.advance(1000);
    EXPECT_EQ(p.dma.activity(1000).busy_cycles, 115u + 25);
    EXPECT_EQ(p.dma.activity(1000).bytes_out, 160u);
}

TEST(DmaEngine, FullQueueRefusesACommandUntilOneCompletes) {
    Platform p(with_bandwidth(64));                                        // depth 2
    const auto first = p.dma.enqueue(0, in_1d(256), 0);                    // 0 + 15 + 32 = 47
    const auto second = p.dma.enqueue(0, in_1d(256, kL2, kL1 + 0x400), 0); // 47 + 15 + 32 = 94
    ASSERT_TRUE(first && second);
    EXPECT_FALSE(p.dma.can_enqueue(0, 0));
    EXPECT_FALSE(p.dma.enqueue(0, in_1d(4), 0).has_value());
    EXPECT_TRUE(p.dma.can_enqueue(1, 0)); // queues are per core
    p.dma.advance(47);
    EXPECT_FALSE(p.dma.can_enqueue(0, 46));
    EXPECT_TRUE(p.dma.can_enqueue(0, 47));
    const auto third = p.dma.enqueue(0, in_1d(4), 47);
    ASSERT_TRUE(third.has_value());
    p.dma.advance(1000);
    EXPECT_EQ(p.dma.completion_cycle(*second), 94u);
    EXPECT_EQ(p.dma.completion_cycle(*third), 94u + kLatency + 1);
    EXPECT_EQ(p.dma.counters().transfers_completed, 3u);
}

std::string config_error(unsigned bits) {
    try {
        Platform p(with_bandwidth(bits));
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

std::string enqueue_error(const DmaTransfer& t) {
    Platform p;
    try {
        (void)p.dma.enqueue(0, t, 0);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

TEST(DmaEngine, BadConfigurationAndTransfersAreRejectedNamingTheValue) {
    EXPECT_NE(config_error(0).find("bandwidth 0 "), std::string::npos) << config_error(0);
    EXPECT_NE(config_error(12).find("bandwidth 12 "), std::string::npos) << config_error(12);
    EXPECT_NE(config_error(264).find("264"), std::string::npos);
    EXPECT_EQ(config_error(256), "no error");

    EXPECT_NE(enqueue_error(in_1d(0)).find("0 bytes"), std::string::npos);
    const std::string l2 = enqueue_error(in_1d(32, kL2 + 512 * 1024 - 16));
    EXPECT_NE(l2.find("0x1c07fff0"), std::string::npos) << l2;
    EXPECT_NE(l2.find("L2"), std::string::npos) << l2;
    const std::string l1 = enqueue_error(out_1d(8, kL2, kL1 + 0xfffc));
    EXPECT_NE(l1.find("0x1000fffc"), std::string::npos) << l1;
    EXPECT_NE(l1.find("TCDM"), std::string::npos) << l1;
    DmaTransfer rows = in_1d(8);
    rows.rows = 0;
    EXPECT_NE(enqueue_error(rows).find("0 rows"), std::string::npos);
    DmaTransfer stride = in_1d(8);
    stride.rows = 2;
    stride.l2_stride = 4;
    EXPECT_NE(enqueue_error(stride).find("stride 4"), std::string::npos);
    DmaTransfer huge = in_1d(8);
    huge.rows = 3;
    huge.tcdm_stride = 0xffff'fff0; // a "negative" stride
    EXPECT_NE(enqueue_error(huge).find("TCDM"), std::string::npos);
}

} // namespace
} // namespace pulpsim
