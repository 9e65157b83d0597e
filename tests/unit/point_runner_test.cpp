// The one-line error a failed design point is stored with, taken from the output of its `pulpsim run`.
#include "runs/point_runner.hpp"

#include <gtest/gtest.h>

namespace {

using pulpsim::runs::point_error_line;

TEST(PointErrorLine, TheLastLineWithoutTheSimulatorsPrefix) {
    EXPECT_EQ(point_error_line("first\npulpsim: error: prog.elf: deadlock\n\n"), "prog.elf: deadlock");
    EXPECT_EQ(point_error_line("only line"), "only line");
    EXPECT_EQ(point_error_line(""), "");
    EXPECT_EQ(point_error_line("\n \n\t\n"), "");
}

TEST(PointErrorLine, WarningsAfterTheErrorDoNotHideIt) {
    const std::string err = "error: net_conv2d_fw: the staged input does not fit the TCDM\n"
                            "pulpsim: warning: region 'a' declares 9 MACs in 1 cycles, more than ...\n"
                            "pulpsim: warning: region 'b' was still open when the program exited\n";
    EXPECT_EQ(point_error_line(err), "error: net_conv2d_fw: the staged input does not fit the TCDM");
    // Warnings alone are no error: the caller then looks at the program's standard output.
    EXPECT_EQ(point_error_line("pulpsim: warning: one\npulpsim: warning: two\n"), "");
}

TEST(PointErrorLine, ControlCharactersAreShownEscaped) {
    EXPECT_EQ(point_error_line("bad \x1b[31mred\n"), "bad \\x1b[31mred");
}

} // namespace
