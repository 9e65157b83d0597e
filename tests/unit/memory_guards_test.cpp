#include "memory/memory_guards.hpp"

#include <gtest/gtest.h>

namespace pulpsim {
namespace {

TEST(MemoryGuards, HitsOnlyAccessesOverlappingAZone) {
    MemoryGuards g;
    EXPECT_FALSE(g.armed());
    g.add(0x1000, 16, "after A");
    g.add(0x2000, 4, "after B");
    EXPECT_TRUE(g.armed());
    EXPECT_EQ(g.hit(0x0ffc, 4), nullptr); // ends where the zone starts
    ASSERT_NE(g.hit(0x0ffe, 4), nullptr); // straddles its start
    EXPECT_EQ(g.hit(0x0ffe, 4)->what, "after A");
    EXPECT_NE(g.hit(0x100f, 1), nullptr);
    EXPECT_EQ(g.hit(0x1010, 4), nullptr);
    EXPECT_EQ(g.hit(0x1ffc, 4), nullptr);
    ASSERT_NE(g.hit(0x2003, 1), nullptr);
    EXPECT_EQ(g.hit(0x2003, 1)->what, "after B");
    EXPECT_EQ(g.hit(0x2004, 2), nullptr);
}

TEST(MemoryGuards, OverlappingAddReplacesAndRemoveDisarms) {
    MemoryGuards g;
    g.add(0x1000, 16, "old");
    g.add(0x1008, 16, "new");
    ASSERT_EQ(g.zones().size(), 1u);
    EXPECT_EQ(g.hit(0x1000, 4), nullptr);
    EXPECT_EQ(g.hit(0x1014, 4)->what, "new");
    EXPECT_EQ(g.remove(0x0, 0x1009), 1u);
    EXPECT_FALSE(g.armed());
    EXPECT_EQ(g.hit(0x1010, 4), nullptr);
}

TEST(MemoryGuards, ZoneAtTheTopOfTheAddressSpace) {
    MemoryGuards g;
    g.add(0xfffffff0u, 16, "top");
    EXPECT_NE(g.hit(0xfffffffcu, 4), nullptr);
    EXPECT_EQ(g.hit(0xffffffecu, 4), nullptr);
}

TEST(MemoryGuards, DescribeNamesAccessAndZone) {
    const MemoryGuards::Zone z{0x10000364, 0x10000384, "after A"};
    EXPECT_EQ(
        MemoryGuards::describe(z, 0x10000364, 4, false),
        "load of 4 bytes at 0x10000364 is in the guard zone after A [0x10000364, 0x10000384): the program "
        "accesses memory outside its tensors");
    EXPECT_EQ(MemoryGuards::describe(z, 0x10000370, 1, true).substr(0, 23), "store of 1 byte at 0x10");
}

} // namespace
} // namespace pulpsim
