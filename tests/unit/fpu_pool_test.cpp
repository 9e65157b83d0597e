// Shared FPU pool: mappings, pipelined issue, the shared div/sqrt unit, contention counters, fairness
// under a rotating presentation order, and configuration errors. Expected values follow from the
// definitions in fpu_pool.hpp: one new operation per FPU per cycle, ready = start + 1 + latency for
// pipelined operations, ready = start + latency for div/sqrt.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/fpu_pool.hpp"

namespace pulpsim {
namespace {

FpuPoolConfig config(unsigned cores, unsigned fpus, const std::string& mapping) {
    FpuPoolConfig c;
    c.cores = cores;
    c.fpus = fpus;
    c.mapping = mapping;
    return c;
}

// The message of the std::invalid_argument that building a pool with `c` throws ("" if none).
std::string rejection(const FpuPoolConfig& c) {
    try {
        FpuPool pool(c);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

// A minimal clock engine: every cycle each core whose local time has come presents one add/mul, in a
// priority order that rotates by one every cycle; the core's next operation comes the cycle after the
// previous one started.
void run_back_to_back(FpuPool& pool, const std::vector<unsigned>& cores, uint64_t cycles) {
    std::vector<uint64_t> local_time(cores.size(), 0);
    for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
        for (size_t k = 0; k < cores.size(); ++k) {
            const size_t i = (k + cycle) % cores.size();
            if (local_time[i] != cycle) continue;
            local_time[i] = pool.issue(cores[i], cycle, FpuOpKind::AddMul).start + 1;
        }
    }
}

TEST(FpuPool, PrivateMappingEightCoresInOneCycleDoNotWait) {
    FpuPool pool(config(8, 8, "private"));
    for (unsigned core = 0; core < 8; ++core) {
        const FpuGrant g = pool.issue(core, 100, FpuOpKind::AddMul);
        EXPECT_EQ(g.start, 100u) << "core " << core;
        EXPECT_EQ(g.unit, core);
    }
    for (unsigned i = 0; i < 8; ++i) {
        EXPECT_EQ(pool.core(i).contention_cycles(), 0u);
        EXPECT_EQ(pool.fpu(i).contention_cycles, 0u);
        EXPECT_EQ(pool.fpu(i).operations, 1u);
    }
}

TEST(FpuPool, StaticModuloCoresSharingAnFpuSerialiseByOneCycle) {
    FpuPool pool(config(8, 4, "static-modulo"));
    const FpuGrant first = pool.issue(0, 50, FpuOpKind::AddMul);
    const FpuGrant second = pool.issue(4, 50, FpuOpKind::AddMul);
    EXPECT_EQ(first.start, 50u);
    EXPECT_EQ(first.unit, 0u);
    EXPECT_EQ(second.start, 51u);
    EXPECT_EQ(second.unit, 0u);
    EXPECT_EQ(pool.core(0).fpu_contention_cycles, 0u);
    EXPECT_EQ(pool.core(4).fpu_contention_cycles, 1u);
    EXPECT_EQ(pool.fpu(0).contention_cycles, 1u);
    for (unsigned f = 1; f < 4; ++f)
        EXPECT_EQ(pool.fpu(f).contention_cycles, 0u);
}

TEST(FpuPool, StaticModuloCoresOnDifferentFpusDoNotWait) {
    FpuPool pool(config(8, 4, "static-modulo"));
    const FpuGrant a = pool.issue(0, 50, FpuOpKind::AddMul);
    const FpuGrant b = pool.issue(1, 50, FpuOpKind::AddMul);
    EXPECT_EQ(a.start, 50u);
    EXPECT_EQ(b.start, 50u);
    EXPECT_EQ(a.unit, 0u);
    EXPECT_EQ(b.unit, 1u);
    EXPECT_EQ(pool.core(1).contention_cycles(), 0u);
}

TEST(FpuPool, StaticModuloNinthCoreSharesFpuZero) {
    // VEGA: 9 cores (8 workers + the cluster controller) on 4 FPUs.
    FpuPool pool(config(9, 4, "static-modulo"));
    for (unsigned core = 0; core < 9; ++core)
        EXPECT_EQ(pool.candidate_fpus(core), uint64_t{1} << (core % 4)) << "core " << core;
}

TEST(FpuPool, DynamicFiveCoresOnFourFpusOneWaitsACycle) {
    FpuPool pool(config(8, 4, "dynamic"));
    for (unsigned core = 0; core < 4; ++core) {
        const FpuGrant g = pool.issue(core, 20, FpuOpKind::AddMul);
        EXPECT_EQ(g.start, 20u);
        EXPECT_EQ(g.unit, core); // lowest free index first
    }
    const FpuGrant fifth = pool.issue(4, 20, FpuOpKind::AddMul);
    EXPECT_EQ(fifth.start, 21u);
    EXPECT_EQ(fifth.unit, 0u); // all free again in cycle 21: the lowest index
    EXPECT_EQ(pool.core(4).fpu_contention_cycles, 1u);
    EXPECT_EQ(pool.fpu(0).contention_cycles, 1u);
    // In cycle 21 FPU 0 is taken by the waiting operation, so the next request goes to FPU 1.
    const FpuGrant next = pool.issue(5, 21, FpuOpKind::AddMul);
    EXPECT_EQ(next.start, 21u);
    EXPECT_EQ(next.unit, 1u);
}

TEST(FpuPool, DynamicTwoFpusThirdCoreInTheSameCycleWaits) {
    FpuPool pool(config(8, 2, "dynamic"));
    EXPECT_EQ(pool.issue(0, 7, FpuOpKind::AddMul).start, 7u);
    EXPECT_EQ(pool.issue(1, 7, FpuOpKind::Other).start, 7u);
    const FpuGrant third = pool.issue(2, 7, FpuOpKind::AddMul);
    EXPECT_EQ(third.start, 8u);
    EXPECT_EQ(pool.core(2).fpu_contention_cycles, 1u);
}

TEST(FpuPool, ResultIsReadyOneCyclePlusLatencyAfterStart) {
    FpuPoolConfig c = config(8, 4, "static-modulo");
    c.addmul_latency = 2;
    c.other_latency = 1;
    FpuPool pool(c);
    const FpuGrant add = pool.issue(0, 10, FpuOpKind::AddMul);
    EXPECT_EQ(add.ready, 10u + 1 + 2);
    const FpuGrant waited = pool.issue(4, 10, FpuOpKind::AddMul); // starts at 11
    EXPECT_EQ(waited.ready, 11u + 1 + 2);
    const FpuGrant other = pool.issue(1, 10, FpuOpKind::Other);
    EXPECT_EQ(other.ready, 10u + 1 + 1);

    FpuPool no_latency(config(8, 8, "private"));
    EXPECT_EQ(no_latency.issue(3, 10, FpuOpKind::AddMul).ready, 11u); // 0 = result next cycle
}

TEST(FpuPool, PipelinedFpuAcceptsAnOperationEveryCycle) {
    FpuPoolConfig c = config(8, 4, "static-modulo");
    c.addmul_latency = 3;
    FpuPool pool(c);
    for (uint64_t cycle = 0; cycle < 10; ++cycle)
        EXPECT_EQ(pool.issue(0, cycle, FpuOpKind::AddMul).start, cycle);
    EXPECT_EQ(pool.core(0).contention_cycles(), 0u);
    EXPECT_EQ(pool.fpu(0).operations, 10u);
    EXPECT_EQ(pool.fpu(0).busy_cycles, 10u); // one issue slot per operation, whatever the latency
}

TEST(FpuPool, EarlierCycleRequestedLaterStillGetsItsFreeSlot) {
    // Core 0 issues ahead of the engine (its instruction waited for an operand); core 4's request for an
    // earlier cycle, presented afterwards, must not queue behind it.
    FpuPool pool(config(8, 4, "static-modulo"));
    EXPECT_EQ(pool.issue(0, 13, FpuOpKind::AddMul).start, 13u);
    EXPECT_EQ(pool.issue(4, 11, FpuOpKind::AddMul).start, 11u);
    EXPECT_EQ(pool.issue(4, 13, FpuOpKind::AddMul).start, 14u);
    EXPECT_EQ(pool.core(4).fpu_contention_cycles, 1u);
}

TEST(FpuPool, HistoryWindowCoversTheSixtyFourCyclesUpToTheLatestStart) {
    FpuPool pool(config(8, 4, "static-modulo"));
    pool.issue(0, 100, FpuOpKind::AddMul);                      // window: cycles 37..100
    EXPECT_EQ(pool.issue(4, 37, FpuOpKind::AddMul).start, 37u); // oldest remembered cycle, free
    // Older than the window: served as if requested at its start (37, now taken).
    EXPECT_EQ(pool.issue(4, 30, FpuOpKind::AddMul).start, 38u);
}

TEST(FpuPool, DynamicHistoryWindowFollowsTheLatestStartOnAnyFpu) {
    FpuPool pool(config(8, 2, "dynamic"));
    pool.issue(0, 130, FpuOpKind::AddMul);
    pool.issue(1, 130, FpuOpKind::AddMul); // both FPUs start at 130: the window is 67..130
    const FpuGrant inside = pool.issue(2, 70, FpuOpKind::AddMul);
    EXPECT_EQ(inside.start, 70u);
    EXPECT_EQ(inside.unit, 0u);
    EXPECT_EQ(pool.issue(3, 66, FpuOpKind::AddMul).start, 67u); // older: as if requested at 67
    EXPECT_EQ(pool.issue(4, 130, FpuOpKind::AddMul).start, 131u);
}

TEST(FpuPool, FarApartOperationsStillSerialiseOnTheirFpu) {
    FpuPool pool(config(8, 4, "static-modulo"));
    pool.issue(0, 5, FpuOpKind::AddMul);
    EXPECT_EQ(pool.issue(0, 1'000'000'000'000, FpuOpKind::AddMul).start, 1'000'000'000'000u);
    EXPECT_EQ(pool.issue(4, 1'000'000'000'000, FpuOpKind::AddMul).start, 1'000'000'000'001u);
}

// Every slot granted, checked against a plain set-based model of the same rules: the candidate FPU with
// the earliest start not yet taken wins, the lowest index at a tie.
TEST(FpuPool, MatchesASetBasedModelOnRandomRequests) {
    constexpr unsigned kCores = 9, kFpus = 3;
    FpuPoolConfig c = config(kCores, kFpus, "dynamic");
    c.addmul_latency = 2;
    c.other_latency = 1;
    FpuPool pool(c);
    std::vector<std::set<uint64_t>> starts(kFpus);
    std::vector<uint64_t> waited(kCores, 0);
    std::mt19937 random(12345);
    uint64_t sweep = 0;
    for (int n = 0; n < 20000; ++n) {
        sweep += random() % 2; // two requests per engine cycle on average: busy FPUs, short queues
        const uint64_t cycle = sweep + random() % 12;
        const unsigned core = static_cast<unsigned>(random() % kCores);
        const FpuOpKind kind = random() % 2 ? FpuOpKind::AddMul : FpuOpKind::Other;
        const unsigned latency = kind == FpuOpKind::AddMul ? 2 : 1;

        unsigned best = 0;
        uint64_t best_start = UINT64_MAX;
        for (unsigned f = 0; f < kFpus; ++f) {
            uint64_t s = cycle;
            while (starts[f].count(s))
                ++s;
            if (s < best_start) {
                best = f;
                best_start = s;
            }
        }
        starts[best].insert(best_start);
        waited[core] += best_start - cycle;

        const FpuGrant g = pool.issue(core, cycle, kind);
        ASSERT_EQ(g.start, best_start) << "request " << n;
        ASSERT_EQ(g.unit, best) << "request " << n;
        ASSERT_EQ(g.ready, best_start + 1 + latency);
    }
    for (unsigned f = 0; f < kFpus; ++f) {
        EXPECT_EQ(pool.fpu(f).operations, starts[f].size());
    }
    for (unsigned core = 0; core < kCores; ++core)
        EXPECT_EQ(pool.core(core).fpu_contention_cycles, waited[core]);
}

// A core's lane places its operations as issue() would: random requests of the cores of a static-modulo
// pool, half through their lanes and half through issue(), against a set-based model of the same rules.
TEST(FpuPool, LanesGrantWhatIssueGrantsAndCountTheSame) {
    constexpr unsigned kCores = 9, kFpus = 4;
    FpuPool pool(config(kCores, kFpus, "static-modulo"));
    std::vector<FpuLane> lanes;
    for (unsigned core = 0; core < kCores; ++core) {
        lanes.push_back(pool.lane(core));
        ASSERT_NE(lanes.back().unit, nullptr) << "core " << core;
    }
    std::vector<std::set<uint64_t>> starts(kFpus);
    std::vector<uint64_t> waited(kCores, 0), operations(kCores, 0);
    std::mt19937 random(777);
    uint64_t sweep = 0;
    for (int n = 0; n < 20000; ++n) {
        sweep += random() % 2;
        // Up to 80 cycles late: also requests older than the 64-cycle window, served as if at its start.
        const uint64_t cycle =
            sweep + random() % 12 - (random() % 50 == 0 ? std::min<uint64_t>(sweep, 80) : 0);
        const unsigned core = static_cast<unsigned>(random() % kCores);
        std::set<uint64_t>& taken = starts[core % kFpus];
        const uint64_t newest = taken.empty() ? 0 : *taken.rbegin();
        uint64_t expected = std::max(cycle, newest >= 63 ? newest - 63 : 0);
        while (taken.count(expected))
            ++expected;
        taken.insert(expected);
        waited[core] += expected - cycle;
        ++operations[core];
        const uint64_t start =
            random() % 2 ? lanes[core].grant(cycle) : pool.issue(core, cycle, FpuOpKind::AddMul).start;
        ASSERT_EQ(start, expected) << "request " << n << " of core " << core << " in cycle " << cycle;
    }
    for (unsigned f = 0; f < kFpus; ++f) {
        EXPECT_EQ(pool.fpu(f).operations, starts[f].size());
        EXPECT_EQ(pool.fpu(f).busy_cycles, starts[f].size());
    }
    for (unsigned core = 0; core < kCores; ++core) {
        EXPECT_EQ(pool.core(core).fpu_operations, operations[core]);
        EXPECT_EQ(pool.core(core).fpu_contention_cycles, waited[core]);
    }
}

// The pool must see every operation when a core may choose among FPUs or an observer watches: no lane then.
TEST(FpuPool, NoLaneForCoresThatChooseOrWhileObserved) {
    FpuPool dynamic(config(4, 2, "dynamic"));
    EXPECT_EQ(dynamic.lane(0).unit, nullptr);
    FpuPool shared(config(4, 2, "static-modulo"));
    EXPECT_NE(shared.lane(3).unit, nullptr);
    struct Counting final : FpuActivityObserver {
        int started = 0;
        void fpu_started(unsigned, uint64_t) override { ++started; }
        void divsqrt_busy(unsigned, uint64_t, uint64_t) override {}
    } observer;
    shared.set_observer(&observer);
    EXPECT_EQ(shared.lane(3).unit, nullptr);
    shared.set_observer(nullptr);
    EXPECT_NE(shared.lane(3).unit, nullptr);
    EXPECT_THROW(shared.lane(4), std::invalid_argument);
}

TEST(FpuPool, BackToBackDivisionsShareTheDivSqrtUnit) {
    FpuPool pool(config(8, 8, "private"));
    const FpuGrant first = pool.issue(0, 30, FpuOpKind::DivSqrt, 19);
    EXPECT_EQ(first.start, 30u);
    EXPECT_EQ(first.ready, 30u + 19);
    const FpuGrant second = pool.issue(1, 31, FpuOpKind::DivSqrt, 7);
    EXPECT_EQ(second.start, 30u + 19); // waits until the first's latency has elapsed
    EXPECT_EQ(second.ready, 30u + 19 + 7);
    EXPECT_EQ(pool.core(1).divsqrt_contention_cycles, 30u + 19 - 31);
    EXPECT_EQ(pool.core(1).fpu_contention_cycles, 0u);
    EXPECT_EQ(pool.divsqrt_unit(0).contention_cycles, 30u + 19 - 31);
    EXPECT_EQ(pool.divsqrt_unit(0).busy_cycles, 19u + 7);
    EXPECT_EQ(pool.divsqrt_unit(0).operations, 2u);
    // The pipelined FPUs are separate: an add of a third core is not held up by the divisions.
    EXPECT_EQ(pool.issue(2, 32, FpuOpKind::AddMul).start, 32u);
}

TEST(FpuPool, DivSqrtWithoutLatencyUsesTheConfiguredDefault) {
    FpuPoolConfig c = config(8, 8, "private");
    c.default_divsqrt_latency = 14; // GVSoC's shared div/sqrt unit
    FpuPool pool(c);
    EXPECT_EQ(pool.issue(0, 0, FpuOpKind::DivSqrt).ready, 14u);
    EXPECT_EQ(pool.issue(1, 0, FpuOpKind::DivSqrt).start, 14u);
}

TEST(FpuPool, SecondDivSqrtUnitTakesTheSecondDivision) {
    FpuPoolConfig c = config(8, 8, "private");
    c.divsqrt_units = 2;
    FpuPool pool(c);
    const FpuGrant a = pool.issue(0, 5, FpuOpKind::DivSqrt, 19);
    const FpuGrant b = pool.issue(1, 5, FpuOpKind::DivSqrt, 19);
    const FpuGrant third = pool.issue(2, 6, FpuOpKind::DivSqrt, 7);
    EXPECT_EQ(a.unit, 0u);
    EXPECT_EQ(b.unit, 1u);
    EXPECT_EQ(b.start, 5u);
    EXPECT_EQ(third.start, 5u + 19); // both busy until 24: the lowest index at the tie
    EXPECT_EQ(third.unit, 0u);
}

TEST(FpuPool, StaticModuloTwoCoresOnOneFpuShareItEvenlyUnderRotation) {
    FpuPool pool(config(8, 4, "static-modulo"));
    constexpr uint64_t kCycles = 10001;
    run_back_to_back(pool, {1, 5}, kCycles); // both on FPU 1
    const uint64_t a = pool.core(1).fpu_operations;
    const uint64_t b = pool.core(5).fpu_operations;
    EXPECT_LE(a > b ? a - b : b - a, 1u);
    // The FPU takes an operation in every cycle of the run (the last grant may lie one cycle beyond).
    EXPECT_GE(a + b, kCycles);
    EXPECT_LE(a + b, kCycles + 1);
    EXPECT_EQ(pool.fpu(1).operations, a + b);
    EXPECT_EQ(pool.fpu(0).operations, 0u);
}

TEST(FpuPool, StaticModuloEightCoresOnFourFpusGetHalfAnFpuEach) {
    FpuPool pool(config(8, 4, "static-modulo"));
    constexpr uint64_t kCycles = 4000;
    run_back_to_back(pool, {0, 1, 2, 3, 4, 5, 6, 7}, kCycles);
    for (unsigned core = 0; core < 8; ++core) {
        EXPECT_GE(pool.core(core).fpu_operations, kCycles / 2 - 1) << "core " << core;
        EXPECT_LE(pool.core(core).fpu_operations, kCycles / 2 + 1) << "core " << core;
    }
}

TEST(FpuPool, ResetForgetsOperationsAndCounters) {
    FpuPool pool(config(8, 4, "static-modulo"));
    pool.issue(0, 3, FpuOpKind::AddMul);
    pool.issue(1, 3, FpuOpKind::DivSqrt, 19);
    pool.reset();
    EXPECT_EQ(pool.issue(4, 3, FpuOpKind::AddMul).start, 3u);
    EXPECT_EQ(pool.issue(2, 3, FpuOpKind::DivSqrt, 19).start, 3u);
    EXPECT_EQ(pool.core(0).operations(), 0u);
    EXPECT_EQ(pool.fpu(0).operations, 1u);
}

TEST(FpuPoolRegistry, ListsTheThreeMappings) {
    EXPECT_EQ(fpu_mapping_names(), "dynamic, private, static-modulo");
    for (const auto& [name, mapping] : fpu_mappings())
        EXPECT_FALSE(mapping.summary.empty()) << name;
}

TEST(FpuPoolRegistry, RejectsAnUnknownMappingNamingItAndTheValidOnes) {
    const std::string message = rejection(config(8, 4, "round-robin"));
    ASSERT_FALSE(message.empty());
    EXPECT_NE(message.find("'round-robin'"), std::string::npos) << message;
    for (const char* valid : {"private", "static-modulo", "dynamic"})
        EXPECT_NE(message.find(valid), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(FpuPoolRegistry, RejectsPrivateMappingWithFewerFpusThanCores) {
    const std::string message = rejection(config(9, 4, "private"));
    EXPECT_NE(message.find("private"), std::string::npos) << message;
    EXPECT_NE(message.find("4 FPUs for 9 cores"), std::string::npos) << message;
    EXPECT_NE(message.find("static-modulo"), std::string::npos) << message;
    EXPECT_NE(rejection(config(4, 8, "private")).find("8 FPUs for 4 cores"), std::string::npos);
    EXPECT_EQ(rejection(config(8, 8, "private")), "");
}

TEST(FpuPoolRegistry, RejectsImpossibleConfigurations) {
    EXPECT_NE(rejection(config(8, 0, "dynamic")).find("fpus = 0"), std::string::npos);
    EXPECT_NE(rejection(config(0, 4, "dynamic")).find("cores = 0"), std::string::npos);
    EXPECT_NE(rejection(config(8, 65, "dynamic")).find("fpus = 65"), std::string::npos);
    FpuPoolConfig no_divider = config(8, 4, "static-modulo");
    no_divider.divsqrt_units = 0;
    EXPECT_NE(rejection(no_divider).find("divsqrt_units = 0"), std::string::npos);
    FpuPoolConfig no_default_latency = config(8, 4, "static-modulo");
    no_default_latency.default_divsqrt_latency = 0;
    EXPECT_NE(rejection(no_default_latency).find("default_divsqrt_latency = 0"), std::string::npos);
}

TEST(FpuPoolRegistry, RejectsACoreIndexOutOfRange) {
    FpuPool pool(config(8, 4, "static-modulo"));
    try {
        pool.issue(8, 0, FpuOpKind::AddMul);
        FAIL() << "core 8 of 8 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("core 8"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pool.fpu(0).operations, 0u);
}

} // namespace
} // namespace pulpsim
