// The view filter (--view-window, --view-region) and the observer hooks the views listen on. Expected
// values follow from the definitions: a window is [FROM, TO); the shown spans are the window cut to the
// runs of the region; a TCDM request that waits is reported with the cycle it wanted and the cycle it got,
// one that does not wait is not reported; every FPU operation is reported at its start.
#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>
#include <vector>

#include "cluster/fpu_pool.hpp"
#include "memory/tcdm_interconnect.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {
namespace {

TEST(ViewFilter, ParsesWindowsWithEitherEndLeftOut) {
    EXPECT_EQ(ViewFilter::parse_window("--w", "100:200"), (CycleSpan{100, 200}));
    EXPECT_EQ(ViewFilter::parse_window("--w", "1_000:0x800"), (CycleSpan{1000, 2048}));
    EXPECT_EQ(ViewFilter::parse_window("--w", "5:"), (CycleSpan{5, UINT64_MAX}));
    EXPECT_EQ(ViewFilter::parse_window("--w", ":7"), (CycleSpan{0, 7}));
}

TEST(ViewFilter, RejectsBadWindowsNamingTheOption) {
    for (const char* bad : {"200:100", "3:3", "abc", "10", "1:2:3", "x:5", "5:y", "-1:5"}) {
        try {
            ViewFilter::parse_window("--view-window", bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("--view-window"), std::string::npos) << e.what();
        }
    }
}

TEST(ViewFilter, WithoutFilterTheWholeRunIsShown) {
    const ViewFilter f;
    EXPECT_FALSE(f.filters());
    EXPECT_EQ(f.spans({}, 1000), (std::vector<CycleSpan>{{0, 1000}}));
}

TEST(ViewFilter, AWindowIsCutToTheRun) {
    ViewFilter f;
    f.set_window({400, 5000});
    EXPECT_EQ(f.spans({}, 1000), (std::vector<CycleSpan>{{400, 1000}}));
    f.set_window({2000, 5000});
    EXPECT_TRUE(f.spans({}, 1000).empty());
}

TEST(ViewFilter, RegionRunsMergeWhenNestedOrTouchingAndAreCutToTheWindow) {
    ViewFilter f;
    f.set_region("r");
    const std::vector<CycleSpan> runs = {{500, 600}, {100, 200}, {150, 180}, {200, 250}, {900, 990}};
    EXPECT_EQ(f.spans(runs, 1000), (std::vector<CycleSpan>{{100, 250}, {500, 600}, {900, 990}}));
    f.set_window({170, 950});
    EXPECT_EQ(f.spans(runs, 1000), (std::vector<CycleSpan>{{170, 250}, {500, 600}, {900, 950}}));
}

struct Recorder : BankConflictObserver, FpuActivityObserver {
    std::vector<std::tuple<unsigned, unsigned, uint64_t, uint64_t>> waits;
    std::vector<std::pair<unsigned, uint64_t>> starts;
    std::vector<std::tuple<unsigned, uint64_t, uint64_t>> divsqrt;
    void bank_waited(unsigned bank, unsigned port, uint64_t wanted, uint64_t granted) override {
        waits.emplace_back(bank, port, wanted, granted);
    }
    void fpu_started(unsigned fpu, uint64_t cycle) override { starts.emplace_back(fpu, cycle); }
    void divsqrt_busy(unsigned unit, uint64_t from, uint64_t to) override {
        divsqrt.emplace_back(unit, from, to);
    }
};

TEST(ViewHooks, TheTcdmReportsOnlyRequestsThatWaited) {
    TcdmInterconnect tcdm(TcdmConfig{.base = 0x1000'0000, .size = 64 * 1024, .banks = 16, .ports = 4});
    Recorder r;
    EXPECT_EQ(tcdm.request(0, 0x1000'0000, 10, false), 10u); // before the observer: not reported
    tcdm.set_conflict_observer(&r);
    EXPECT_EQ(tcdm.request(1, 0x1000'0000, 10, false), 11u); // bank 0 is taken in 10
    EXPECT_EQ(tcdm.request(2, 0x1000'0004, 10, false), 10u); // bank 1 is free
    EXPECT_EQ(tcdm.request(3, 0x1000'0040, 10, true), 12u);  // bank 0 again: 10 and 11 are taken
    using W = std::tuple<unsigned, unsigned, uint64_t, uint64_t>;
    EXPECT_EQ(r.waits, (std::vector<W>{{0, 1, 10, 11}, {0, 3, 10, 12}}));
    tcdm.set_conflict_observer(nullptr);
    EXPECT_EQ(tcdm.request(0, 0x1000'0000, 10, false), 13u);
    EXPECT_EQ(r.waits.size(), 2u);
}

TEST(ViewHooks, TheFpuPoolReportsEveryOperationAtItsStart) {
    FpuPoolConfig c;
    c.cores = 2;
    c.fpus = 1;
    c.mapping = "static-modulo";
    FpuPool pool(c);
    Recorder r;
    pool.set_observer(&r);
    EXPECT_EQ(pool.issue(0, 5, FpuOpKind::AddMul).start, 5u);
    EXPECT_EQ(pool.issue(1, 5, FpuOpKind::AddMul).start, 6u); // the one FPU takes one operation a cycle
    EXPECT_EQ(pool.issue(1, 20, FpuOpKind::DivSqrt, 7).start, 20u);
    EXPECT_EQ(pool.issue(0, 21, FpuOpKind::DivSqrt, 7).start, 27u); // one div/sqrt unit, not pipelined
    EXPECT_EQ(r.starts, (std::vector<std::pair<unsigned, uint64_t>>{{0, 5}, {0, 6}}));
    using D = std::tuple<unsigned, uint64_t, uint64_t>;
    EXPECT_EQ(r.divsqrt, (std::vector<D>{{0, 20, 27}, {0, 27, 34}}));
}

} // namespace
} // namespace pulpsim
