// TcdmInterconnect: one access per bank per cycle, conflicts resolved in presentation order by retrying in
// the following cycles, word interleaving, counters, configuration checks. Expected values follow from
// those rules, worked out next to each test.
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {
namespace {

constexpr uint32_t kBase = 0x1000'0000;

TcdmConfig config(unsigned banks = 16, unsigned ports = 4, uint32_t size = 64 * 1024) {
    return TcdmConfig{.base = kBase, .size = size, .banks = banks, .ports = ports};
}

// The address of word `word` of bank `bank` (banks interleave by word).
uint32_t addr_in_bank(const TcdmInterconnect& tcdm, unsigned bank, unsigned word = 0) {
    return kBase + 4 * (word * tcdm.config().banks + bank);
}

std::string config_error(const TcdmConfig& c) {
    try {
        TcdmInterconnect tcdm(c);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

TEST(TcdmInterconnect, SameBankSameCycleStallsTheSecondRequestOneCycle) {
    TcdmInterconnect tcdm(config());
    const uint32_t bank3 = addr_in_bank(tcdm, 3);
    EXPECT_EQ(tcdm.request(0, bank3, 100, false), 100u);
    // Another word of the same bank: same bank, so it waits.
    EXPECT_EQ(tcdm.request(1, addr_in_bank(tcdm, 3, 7), 100, true), 101u);
    const auto& c = tcdm.counters();
    EXPECT_EQ(c.banks[3].accesses, 2u);
    EXPECT_EQ(c.banks[3].conflict_cycles, 1u);
    EXPECT_EQ(c.ports[0].contention_cycles, 0u);
    EXPECT_EQ(c.ports[1].contention_cycles, 1u);
    EXPECT_EQ(c.conflict_cycles(), 1u);
}

// request_at_once grants only what request() would grant at once: a request past the cycles its bank keeps,
// when no request may still come for the cycles sliding out. Any other request it leaves alone, uncounted,
// for request() to place.
TEST(TcdmInterconnect, RequestAtOnceTakesOnlyACyclePastTheBanksWindow) {
    TcdmInterconnect tcdm(config());
    const uint32_t bank3 = addr_in_bank(tcdm, 3);
    EXPECT_FALSE(tcdm.request_at_once(0, bank3, 100, false)); // requests for cycle 0 on may still come
    tcdm.set_floor(80);
    EXPECT_TRUE(tcdm.request_at_once(0, bank3, 100, false));
    EXPECT_FALSE(tcdm.request_at_once(1, addr_in_bank(tcdm, 3, 5), 100, true)); // the same cycle: taken
    EXPECT_FALSE(tcdm.request_at_once(1, bank3, 90, false));                    // before the latest grant
    const auto& c = tcdm.counters();
    EXPECT_EQ(c.banks[3].accesses, 1u);
    EXPECT_EQ(c.banks[3].writes, 0u);
    EXPECT_EQ(c.ports[1].accesses, 0u);
    // request() still finds cycle 100 taken and cycle 90 free.
    EXPECT_EQ(tcdm.request(1, addr_in_bank(tcdm, 3, 5), 100, true), 101u);
    EXPECT_EQ(tcdm.request(2, bank3, 90, false), 90u);
    EXPECT_TRUE(tcdm.request_at_once(3, bank3, 102, true));
    EXPECT_EQ(c.banks[3].accesses, 4u);
    EXPECT_EQ(c.banks[3].writes, 2u);
    EXPECT_EQ(c.banks[3].conflict_cycles, 1u);
    EXPECT_EQ(c.ports[3].accesses, 1u);
}

TEST(TcdmInterconnect, DifferentBanksSameCycleDoNotStall) {
    TcdmInterconnect tcdm(config());
    EXPECT_EQ(tcdm.request(0, addr_in_bank(tcdm, 0), 5, false), 5u);
    EXPECT_EQ(tcdm.request(1, addr_in_bank(tcdm, 1), 5, false), 5u);
    EXPECT_EQ(tcdm.request(2, addr_in_bank(tcdm, 15, 3), 5, true), 5u);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 0u);
    EXPECT_EQ(tcdm.counters().accesses(), 3u);
}

TEST(TcdmInterconnect, AGrantOccupiesItsCycleOnly) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 2);
    EXPECT_EQ(tcdm.request(0, a, 10, false), 10u);
    EXPECT_EQ(tcdm.request(1, a, 11, false), 11u);
    EXPECT_EQ(tcdm.request(0, a, 12, false), 12u);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 0u);
}

TEST(TcdmInterconnect, WordInterleaving) {
    for (unsigned banks : {1u, 2u, 16u, 32u}) {
        TcdmInterconnect tcdm(config(banks));
        for (unsigned i = 0; i < banks; ++i) {
            EXPECT_EQ(tcdm.bank_of(kBase + 4 * i), i) << banks << " banks";
            // Every byte of a word is in the word's bank.
            EXPECT_EQ(tcdm.bank_of(kBase + 4 * i + 3), i) << banks << " banks";
        }
        EXPECT_EQ(tcdm.bank_of(kBase + 4 * banks), 0u) << banks << " banks";
        EXPECT_EQ(tcdm.bank_of(kBase + 4 * banks + 4), 1u % banks) << banks << " banks";
        EXPECT_EQ(tcdm.bank_of(kBase + 64 * 1024 - 4), banks - 1) << banks << " banks";
    }
    // Consecutive words in one cycle: no conflicts until the stripe wraps to bank 0.
    TcdmInterconnect tcdm(config(16, 17));
    for (unsigned i = 0; i < 16; ++i)
        EXPECT_EQ(tcdm.request(i, kBase + 4 * i, 0, false), 0u);
    EXPECT_EQ(tcdm.request(16, kBase + 4 * 16, 0, false), 1u);
}

TEST(TcdmInterconnect, ContainsChecksTheWholeRange) {
    TcdmInterconnect tcdm(config(16, 4, 0x1000));
    EXPECT_TRUE(tcdm.contains(kBase, 4));
    EXPECT_TRUE(tcdm.contains(kBase + 0xffc, 4));
    EXPECT_FALSE(tcdm.contains(kBase + 0xffe, 4));
    EXPECT_FALSE(tcdm.contains(kBase + 0x1000, 1));
    EXPECT_FALSE(tcdm.contains(kBase - 1, 1));
    EXPECT_FALSE(tcdm.contains(0xffff'fffe, 4)); // must not wrap around
}

TEST(TcdmInterconnect, ThreeRequestsToOneBankAreServedInPresentationOrder) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 9);
    EXPECT_EQ(tcdm.request(2, a, 40, false), 40u);
    EXPECT_EQ(tcdm.request(0, a, 40, false), 41u);
    EXPECT_EQ(tcdm.request(1, a, 40, true), 42u);
    const auto& c = tcdm.counters();
    EXPECT_EQ(c.ports[2].contention_cycles, 0u);
    EXPECT_EQ(c.ports[0].contention_cycles, 1u);
    EXPECT_EQ(c.ports[1].contention_cycles, 2u);
    EXPECT_EQ(c.banks[9].conflict_cycles, 0u + 1u + 2u);
}

TEST(TcdmInterconnect, RetrySkipsCyclesReservedByLaterRequests) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 4);
    // A request for a later cycle arrives first (e.g. the second half of a misaligned access).
    EXPECT_EQ(tcdm.request(3, a, 21, false), 21u);
    EXPECT_EQ(tcdm.request(0, a, 20, false), 20u);
    // Cycle 20 is taken, its retry in 21 is taken too: granted in 22 after two cycles of waiting.
    EXPECT_EQ(tcdm.request(1, a, 20, false), 22u);
    EXPECT_EQ(tcdm.counters().ports[1].contention_cycles, 2u);
    // A hole left before a later reservation is still used.
    EXPECT_EQ(tcdm.request(2, a, 25, false), 25u);
    EXPECT_EQ(tcdm.request(2, a, 23, false), 23u);
    EXPECT_EQ(tcdm.request(0, a, 23, false), 24u);
    EXPECT_EQ(tcdm.request(1, a, 23, false), 26u);
    EXPECT_EQ(tcdm.counters().banks[4].conflict_cycles, 2u + 1u + 3u);
}

// The clock engine's loop reduced to what the interconnect sees: in cycle t, every port whose local time
// is t issues one access to the same bank, visited in an order rotating by one port per cycle; a port
// granted in g does nothing else and is back at g + 1.
struct SaturatedBank {
    std::vector<uint64_t> grants_per_port;
    std::vector<std::vector<uint64_t>> grant_cycles;
};

SaturatedBank hammer_one_bank(TcdmInterconnect& tcdm, unsigned ports, uint64_t cycles) {
    SaturatedBank result{std::vector<uint64_t>(ports), std::vector<std::vector<uint64_t>>(ports)};
    std::vector<uint64_t> local_time(ports, 0);
    const uint32_t a = addr_in_bank(tcdm, 5);
    for (uint64_t t = 0; t < cycles; ++t)
        for (unsigned i = 0; i < ports; ++i) {
            const unsigned port = static_cast<unsigned>((t + i) % ports);
            if (local_time[port] != t) continue;
            const uint64_t g = tcdm.request(port, a, t, false);
            ++result.grants_per_port[port];
            result.grant_cycles[port].push_back(g);
            local_time[port] = g + 1;
        }
    return result;
}

// In cycle 0 all P ports collide and are served in cycles 0..P-1 (waiting 0, 1, ..., P-1). After that each
// port is back one cycle after its grant, when the P-1 others hold the next P-1 cycles: it waits P-1 and
// is granted P cycles after its previous grant. So port k is granted in k, k+P, k+2P, ... (the bank is
// busy every cycle, round-robin), and G grants cost P(P-1)/2 + (G-P)(P-1) conflict cycles.
void check_round_robin(unsigned ports) {
    constexpr uint64_t kCycles = 1001;
    TcdmInterconnect tcdm(config(16, ports));
    const SaturatedBank run = hammer_one_bank(tcdm, ports, kCycles);

    uint64_t grants = 0;
    for (unsigned p = 0; p < ports; ++p)
        grants += run.grants_per_port[p];
    ASSERT_GE(grants, ports);
    for (unsigned p = 0; p < ports; ++p) {
        EXPECT_LE(run.grants_per_port[p], grants / ports + 1) << "port " << p;
        EXPECT_GE(run.grants_per_port[p] + 1, grants / ports) << "port " << p;
        for (size_t j = 0; j < run.grant_cycles[p].size(); ++j)
            ASSERT_EQ(run.grant_cycles[p][j], p + j * ports) << "port " << p << " grant " << j;
    }
    const uint64_t expected_conflicts = ports * (ports - 1) / 2 + (grants - ports) * (ports - 1);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), expected_conflicts);
    uint64_t contention = 0;
    for (const auto& p : tcdm.counters().ports)
        contention += p.contention_cycles;
    EXPECT_EQ(contention, expected_conflicts);
    EXPECT_EQ(tcdm.counters().banks[5].accesses, grants);
}

TEST(TcdmInterconnect, RoundRobinBetweenTwoSaturatingPorts) {
    check_round_robin(2);
}
TEST(TcdmInterconnect, RoundRobinBetweenFourSaturatingPorts) {
    check_round_robin(4);
}

// Ports that collide in the same cycle every round (a lockstep loop) and are presented in the engine's
// rotating order: the port presented first wins. With two ports and rounds 3 cycles apart, the first port
// alternates between rounds, so each waits one cycle in half of the rounds.
TEST(TcdmInterconnect, PresentationOrderDecidesEachCollision) {
    constexpr unsigned kRounds = 200;
    TcdmInterconnect tcdm(config(16, 2));
    const uint32_t a = addr_in_bank(tcdm, 0);
    std::vector<unsigned> wins(2, 0);
    for (unsigned r = 0; r < kRounds; ++r) {
        const uint64_t t = 3 * r;
        const unsigned first = static_cast<unsigned>(t % 2), second = 1 - first;
        ASSERT_EQ(tcdm.request(first, a, t, false), t);
        ASSERT_EQ(tcdm.request(second, a, t, false), t + 1);
        ++wins[first];
    }
    EXPECT_EQ(wins[0], kRounds / 2);
    EXPECT_EQ(wins[1], kRounds / 2);
    EXPECT_EQ(tcdm.counters().ports[0].contention_cycles, kRounds / 2);
    EXPECT_EQ(tcdm.counters().ports[1].contention_cycles, kRounds / 2);
}

TEST(TcdmInterconnect, ReservationsSurviveAnIdleGapAndTheWindowSlide) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 1);
    EXPECT_EQ(tcdm.request(0, a, 3, false), 3u);
    // Far ahead (the engine's time moved on): the history window jumps; nothing old is taken there.
    const uint64_t far = 10'000'000'000ull;
    tcdm.set_floor(far);
    EXPECT_EQ(tcdm.request(0, a, far, false), far);
    EXPECT_EQ(tcdm.request(1, a, far, false), far + 1);
    // A request 63 cycles after a kept grant, then one back at that grant: still seen as taken.
    EXPECT_EQ(tcdm.request(2, a, far + 64, false), far + 64);
    EXPECT_EQ(tcdm.request(3, a, far + 1, false), far + 2);
    // Slide the window one cycle at a time; the grants behind it stay taken.
    for (uint64_t c = far + 65; c < far + 200; ++c)
        ASSERT_EQ(tcdm.request(0, a, c, false), c);
    EXPECT_EQ(tcdm.request(1, a, far + 199 - 63, false), far + 200);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 1u + 1u + 64u);
}

// After a lone core's run the floor may fall back below the bank's oldest kept cycle: nothing kept is lost.
TEST(TcdmInterconnect, AFloorBelowTheKeptCyclesKeepsThem) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 2);
    tcdm.set_floor(1000);
    EXPECT_EQ(tcdm.request(0, a, 1000, false), 1000u); // the window now starts at 937
    tcdm.set_floor(900);
    EXPECT_EQ(tcdm.request(1, a, 1100, false), 1100u); // too far for one word above a floor of 900: wider
    EXPECT_EQ(tcdm.request(2, a, 1000, false), 1001u); // 1000 is still taken
    EXPECT_EQ(tcdm.request(3, a, 1100, false), 1101u);
}

TEST(TcdmInterconnect, RequestBeforeTheFloorThrows) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 6);
    tcdm.set_floor(1000);
    EXPECT_EQ(tcdm.request(0, a, 1000, false), 1000u);
    EXPECT_EQ(tcdm.request(1, a, 1000 - 63, false), 1000u - 63); // oldest cycle kept
    try {
        (void)tcdm.request(1, a, 1000 - 64, false);
        FAIL() << "no error";
    } catch (const std::logic_error& e) {
        EXPECT_NE(
            std::string(e.what()).find("TCDM bank 6: request for cycle 936, before the oldest cycle kept"),
            std::string::npos)
            << e.what();
    }
    // Other banks keep their own history.
    EXPECT_EQ(tcdm.request(1, addr_in_bank(tcdm, 7), 0, false), 0u);
}

// A core far ahead of the others (a long stall before its access) must not make the bank forget the cycles
// the others, still at the floor, ask for: the history grows past 64 cycles, then shrinks as the floor moves.
TEST(TcdmInterconnect, HistoryGrowsWhileGrantsRunFarAheadOfTheFloor) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 3);
    tcdm.set_floor(10);
    EXPECT_EQ(tcdm.request(0, a, 10, false), 10u);
    EXPECT_EQ(tcdm.request(1, a, 1000, false), 1000u); // 990 cycles ahead of the floor
    EXPECT_EQ(tcdm.request(2, a, 10, false), 11u);     // cycle 10 is still known to be taken
    EXPECT_EQ(tcdm.request(3, a, 1000, true), 1001u);  // and so is 1000
    EXPECT_EQ(tcdm.request(0, a, 500, false), 500u);
    EXPECT_EQ(tcdm.request(1, a, 500, false), 501u);
    tcdm.set_floor(900);
    EXPECT_EQ(tcdm.request(2, a, 999, false), 999u);
    EXPECT_EQ(tcdm.request(3, a, 999, false), 1002u); // 999, 1000 and 1001 taken
    EXPECT_EQ(tcdm.request(0, a, 5000, false), 5000u);
    tcdm.set_floor(5000);
    EXPECT_EQ(tcdm.request(1, a, 5000, false), 5001u);
    // The floor far past everything kept: the history starts afresh there, and millions of cycles later
    // requests are still answered.
    tcdm.set_floor(50'000'000);
    EXPECT_EQ(tcdm.request(2, a, 50'000'000, false), 50'000'000u);
    EXPECT_EQ(tcdm.request(3, a, 50'000'000, false), 50'000'001u);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 1u + 1u + 1u + 3u + 1u + 1u);
}

TEST(TcdmInterconnect, CountersSplitByBankPortAndDirection) {
    TcdmInterconnect tcdm(config(4, 3));
    (void)tcdm.request(0, addr_in_bank(tcdm, 1), 0, true);
    (void)tcdm.request(1, addr_in_bank(tcdm, 1), 0, false);
    (void)tcdm.request(2, addr_in_bank(tcdm, 2), 0, true);
    (void)tcdm.request(2, addr_in_bank(tcdm, 2), 1, true);
    const auto& c = tcdm.counters();
    ASSERT_EQ(c.banks.size(), 4u);
    ASSERT_EQ(c.ports.size(), 3u);
    EXPECT_EQ(c.banks[1].accesses, 2u);
    EXPECT_EQ(c.banks[1].writes, 1u);
    EXPECT_EQ(c.banks[2].accesses, 2u);
    EXPECT_EQ(c.banks[2].writes, 2u);
    EXPECT_EQ(c.banks[0].accesses + c.banks[3].accesses, 0u);
    EXPECT_EQ(c.ports[2].accesses, 2u);
    EXPECT_EQ(c.ports[2].writes, 2u);
    EXPECT_EQ(c.ports[1].writes, 0u);
    EXPECT_EQ(c.accesses(), 4u);
    EXPECT_EQ(c.writes(), 3u);
    EXPECT_EQ(c.conflict_cycles(), 1u);
}

TEST(TcdmInterconnect, ResetCountersKeepsReservationsResetForgetsThem) {
    TcdmInterconnect tcdm(config());
    const uint32_t a = addr_in_bank(tcdm, 0);
    EXPECT_EQ(tcdm.request(0, a, 7, false), 7u);
    tcdm.reset_counters();
    EXPECT_EQ(tcdm.counters().accesses(), 0u);
    EXPECT_EQ(tcdm.request(1, a, 7, false), 8u);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 1u);
    tcdm.reset();
    EXPECT_EQ(tcdm.counters().accesses(), 0u);
    EXPECT_EQ(tcdm.request(1, a, 7, false), 7u);
    EXPECT_EQ(tcdm.counters().conflict_cycles(), 0u);
}

TEST(TcdmInterconnect, BadConfigurationsAreRejectedNamingTheValue) {
    EXPECT_EQ(config_error(config(12)), "TCDM bank count 12 is not a power of two");
    EXPECT_EQ(config_error(config(0)), "TCDM bank count 0 is not a power of two");
    EXPECT_EQ(config_error(config(16, 4, 1000)),
              "TCDM size 1000 bytes is not a positive multiple of 16 banks x 4 bytes = 64");
    // A multiple of the bank count and of 4, but not of banks x 4.
    EXPECT_EQ(config_error(config(16, 4, 32)),
              "TCDM size 32 bytes is not a positive multiple of 16 banks x 4 bytes = 64");
    EXPECT_EQ(config_error(config(16, 4, 0)),
              "TCDM size 0 bytes is not a positive multiple of 16 banks x 4 bytes = 64");
    EXPECT_EQ(config_error(config(16, 0)), "TCDM port count 0: it needs at least one initiator port");
    EXPECT_EQ(config_error(TcdmConfig{.base = kBase + 2, .size = 1024, .banks = 16, .ports = 1}),
              "TCDM base address 0x10000002 is not word-aligned");
    EXPECT_EQ(config_error(TcdmConfig{.base = 0xffff'f000, .size = 0x2000, .banks = 16, .ports = 1}),
              "TCDM at 0xfffff000 with size 0x2000 runs past the 4 GiB address space");
    EXPECT_EQ(config_error(TcdmConfig{.base = 0xffff'f000, .size = 0x1000, .banks = 16, .ports = 1}),
              "no error");
    EXPECT_EQ(config_error(config(16, 4, 64)), "no error");
}

TEST(TcdmInterconnect, WaitsAreAttributedToTheDmaWhenItsPortHeldTheBank) {
    TcdmConfig c = config(16, 3);
    c.first_dma_port = 2; // ports 0, 1: cores; port 2: the DMA
    TcdmInterconnect tcdm(c);
    EXPECT_EQ(tcdm.request(0, kBase, 10, false), 10u); // a core takes bank 0 in cycle 10
    EXPECT_EQ(tcdm.request(2, kBase, 10, true), 11u);  // the DMA waits one cycle behind the core
    EXPECT_EQ(tcdm.request(1, kBase, 10, false), 12u); // the other core waits behind both
    const auto& ports = tcdm.counters().ports;
    EXPECT_EQ(ports[2].contention_cycles, 1u);
    EXPECT_EQ(ports[2].waited_on_dma, 0u);
    EXPECT_EQ(ports[1].contention_cycles, 2u);
    EXPECT_EQ(ports[1].waited_on_dma, 1u); // cycle 11 was the DMA's
}

} // namespace
} // namespace pulpsim
