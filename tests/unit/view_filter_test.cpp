// The views' filter (cycle windows, core lists, regions followed as they open and close, the spans the
// waveform and the timeline show) and the observer hooks the views listen on. Expected values follow from the
// definitions: a window is [FROM, TO); the shown spans are the window cut to the runs of the named regions; a
// TCDM request that waits is reported with the cycle it wanted and the cycle it got, one that does not wait
// is not reported; every FPU operation is reported at its start.
#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>
#include <vector>

#include "cluster/fpu_pool.hpp"
#include "cluster/host_services.hpp"
#include "memory/tcdm_interconnect.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {
namespace {

TEST(ViewFilter, WithoutFilterTheWholeRunIsShown) {
    const ViewFilter f;
    EXPECT_FALSE(f.filters());
    EXPECT_EQ(f.spans({}, 1000), (std::vector<CycleWindow>{{0, 1000}}));
}

TEST(ViewFilter, AWindowIsCutToTheRun) {
    EXPECT_EQ(ViewFilter({400, 5000}).spans({}, 1000), (std::vector<CycleWindow>{{400, 1000}}));
    EXPECT_TRUE(ViewFilter({2000, 5000}).spans({}, 1000).empty());
}

TEST(ViewFilter, RegionRunsMergeWhenNestedOrTouchingAndAreCutToTheWindow) {
    const ViewFilter f({}, {}, {"r"});
    const std::vector<CycleWindow> runs = {{500, 600}, {100, 200}, {150, 180}, {200, 250}, {900, 990}};
    EXPECT_EQ(f.spans(runs, 1000), (std::vector<CycleWindow>{{100, 250}, {500, 600}, {900, 990}}));
    EXPECT_EQ(ViewFilter({170, 950}, {}, {"r"}).spans(runs, 1000),
              (std::vector<CycleWindow>{{170, 250}, {500, 600}, {900, 950}}));
}

TEST(ViewFilter, SaysWhatItShows) {
    EXPECT_EQ(ViewFilter().describe(), "the whole run");
    EXPECT_EQ(ViewFilter({100, 200}).describe(), "cycles 100..200");
    EXPECT_EQ(ViewFilter({100}, {}, {"a"}).describe(),
              "cycles 100.. (to the end) within the runs of region 'a'");
    EXPECT_EQ(ViewFilter({}, {}, {"a", "b"}).describe(), "the runs of regions 'a', 'b'");
    EXPECT_TRUE(ViewFilter({}, {}, {"a"}).filters());
    EXPECT_TRUE(ViewFilter({0, 5}).filters());
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

std::string window_error(const std::string& text) {
    try {
        CycleWindow::parse("--w", text);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}

TEST(ViewFilter, CycleWindows) {
    const CycleWindow w = CycleWindow::parse("--w", "100:0x200");
    EXPECT_EQ(w.from, 100u);
    EXPECT_EQ(w.to, 512u);
    EXPECT_FALSE(w.contains(99));
    EXPECT_TRUE(w.contains(100));
    EXPECT_TRUE(w.contains(511));
    EXPECT_FALSE(w.contains(512)); // TO is not in the window
    EXPECT_EQ(CycleWindow::parse("--w", "7:").to, UINT64_MAX);
    EXPECT_EQ(CycleWindow::parse("--w", ":7").from, 0u);
    EXPECT_EQ(window_error("10:5"),
              "--w: '10:5' is an empty window (TO must be after FROM; cycles FROM <= c < TO)");
    EXPECT_EQ(window_error("5:5"),
              "--w: '5:5' is an empty window (TO must be after FROM; cycles FROM <= c < TO)");
    EXPECT_EQ(window_error("10"), "--w: '10' is not a window FROM:TO of cycles");
    EXPECT_EQ(window_error("1:2:3"), "--w: '1:2:3' is not a window FROM:TO of cycles");
    EXPECT_EQ(window_error(":"), "--w: ':' gives neither FROM nor TO");
    EXPECT_EQ(window_error("-1:5"), "--w: '-1' is not a cycle count (in '-1:5')");
    EXPECT_EQ(window_error("1e3:5"), "--w: '1e3' is not a cycle count (in '1e3:5')");
    EXPECT_EQ(window_error(" 1:5"), "--w: ' 1' is not a cycle count (in ' 1:5')");
    EXPECT_EQ(window_error("0:99999999999999999999"),
              "--w: '99999999999999999999' is not a cycle count (in '0:99999999999999999999')");
}

TEST(ViewFilter, CoreLists) {
    EXPECT_EQ(parse_core_list("--c", "0,3-5", 8), (std::vector<bool>{1, 0, 0, 1, 1, 1, 0, 0}));
    EXPECT_EQ(parse_core_list("--c", "7", 8), (std::vector<bool>{0, 0, 0, 0, 0, 0, 0, 1}));
    EXPECT_EQ(parse_core_list("--c", "2-2,1", 3), (std::vector<bool>{0, 1, 1}));
    auto error = [](const std::string& text, unsigned cores) {
        try {
            parse_core_list("--c", text, cores);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error("9", 8), "--c: '9': core 9 does not exist (8 cores: 0 to 7)");
    EXPECT_EQ(error("0-8", 8), "--c: '0-8': core 8 does not exist (8 cores: 0 to 7)");
    EXPECT_EQ(error("1", 1), "--c: '1': core 1 does not exist (1 core: 0 to 0)");
    EXPECT_EQ(error("5-3", 8), "--c: '5-3': the range 5-3 is empty");
    EXPECT_EQ(error("", 8), "--c: '': no core given (a list such as 0,3-5)");
    EXPECT_EQ(error("1,", 8), "--c: '1,': '' is not a core or a range of cores such as 3-5");
    EXPECT_EQ(error("a", 8), "--c: 'a': 'a' is not a core or a range of cores such as 3-5");
    EXPECT_EQ(error("1-", 8), "--c: '1-': '1-' is not a core or a range of cores such as 3-5");
}

TEST(ViewFilter, FollowsNamedRegions) {
    ViewFilter everywhere(CycleWindow::parse("--w", "10:20"));
    EXPECT_TRUE(everywhere.shows(10));
    EXPECT_FALSE(everywhere.shows(20));
    EXPECT_TRUE(everywhere.selects_core(5)); // no core list: every core

    ViewFilter f({}, {false, true}, {"inner", "other"});
    EXPECT_FALSE(f.selects_core(0));
    EXPECT_TRUE(f.selects_core(1));
    EXPECT_FALSE(f.selects_core(2));
    AddressMap bus;
    HostServices host(true);
    const Hart hart(bus, host, CoreTiming{}, 0); // the core whose host call opens or closes a region
    EXPECT_FALSE(f.shows(0));                    // no region open yet
    f.region_entered("outer", hart, 0, 0);
    EXPECT_FALSE(f.shows(0)); // not a named region
    f.region_entered("inner", hart, 0, 0);
    EXPECT_TRUE(f.shows(0));
    f.region_entered("inner", hart, 0, 0); // nested run of the same region
    f.region_left("inner", hart, 0);
    EXPECT_TRUE(f.shows(0));
    f.region_left("inner", hart, 0);
    EXPECT_FALSE(f.shows(0));
    f.region_left("outer", hart, 0);
    f.region_left("inner", hart, 0); // a stray close changes nothing
    f.region_entered("other", hart, 0, 0);
    EXPECT_TRUE(f.shows(0));
}

// What the profile asks as the run goes: the cycles of [from, to) in the window and in the runs of the named
// regions closed so far, or in the one open now from its start on.
TEST(ViewFilter, CountsTheCyclesItShowsAsTheRunGoes) {
    EXPECT_EQ(ViewFilter().shown_cycles(5, 50), 45u);
    const ViewFilter window({100, 200});
    EXPECT_EQ(window.shown_cycles(0, 1000), 100u);
    EXPECT_EQ(window.shown_cycles(150, 160), 10u);
    EXPECT_EQ(window.shown_cycles(190, 250), 10u);
    EXPECT_EQ(window.shown_cycles(200, 300), 0u);

    ViewFilter f({0, 1000}, {}, {"r"});
    AddressMap bus;
    HostServices host(true);
    const Hart hart(bus, host, CoreTiming{}, 0);
    EXPECT_EQ(f.shown_cycles(0, 2000), 0u); // no run yet
    f.region_entered("r", hart, 0, 100);
    EXPECT_EQ(f.shown_cycles(50, 130), 30u);    // a sleep from before the run: from its start
    EXPECT_EQ(f.shown_cycles(120, 5000), 880u); // open: to the window's end
    f.region_entered("r", hart, 0, 110);        // nested: one run
    f.region_left("r", hart, 150);
    EXPECT_EQ(f.shown_cycles(0, 2000), 900u);
    f.region_left("r", hart, 200);
    EXPECT_EQ(f.shown_cycles(0, 2000), 100u); // [100, 200)
    f.region_entered("other", hart, 0, 300);  // not a named region
    f.region_left("other", hart, 400);
    f.region_entered("r", hart, 0, 500);
    f.region_left("r", hart, 600);
    f.region_entered("r", hart, 0,
                     195); // closed out of order (cores an engine step apart): merged with [100, 200)
    f.region_left("r", hart, 250);
    EXPECT_EQ(f.shown_cycles(0, 2000), 250u); // [100, 250) and [500, 600)
    EXPECT_EQ(f.shown_cycles(240, 510), 20u);
    EXPECT_EQ(f.shown_cycles(250, 500), 0u);
    f.region_entered("r", hart, 0, 900);
    EXPECT_EQ(f.shown_cycles(550, 5000), 150u); // 50 of [500, 600) and the open run to the window's end
}

} // namespace
} // namespace pulpsim
