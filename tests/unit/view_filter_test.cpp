// The views' filter: cycle windows and core lists as users write them, and regions followed as they open
// and close.
#include <gtest/gtest.h>
#include <stdexcept>

#include "cluster/host_services.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {
namespace {

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
    f.region_entered("outer", hart);
    EXPECT_FALSE(f.shows(0)); // not a named region
    f.region_entered("inner", hart);
    EXPECT_TRUE(f.shows(0));
    f.region_entered("inner", hart); // nested run of the same region
    f.region_left("inner", hart);
    EXPECT_TRUE(f.shows(0));
    f.region_left("inner", hart);
    EXPECT_FALSE(f.shows(0));
    f.region_left("outer", hart);
    f.region_left("inner", hart); // a stray close changes nothing
    f.region_entered("other", hart);
    EXPECT_TRUE(f.shows(0));
}

} // namespace
} // namespace pulpsim
