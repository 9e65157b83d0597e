// SourceLines on files without line tables: an empty table that says why, so the run goes on without
// the per-line views (programs with DWARF are checked end to end in tests/cli/profile_test.py).
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "views/source_lines.hpp"

namespace pulpsim {
namespace {

TEST(SourceLines, MissingFileIsEmpty) {
    const SourceLines lines = SourceLines::load("/nonexistent/prog.elf");
    EXPECT_TRUE(lines.empty());
    EXPECT_EQ(lines.why_empty(), "cannot open the file");
    EXPECT_FALSE(lines.find(0x1c000000).has_value());
}

TEST(SourceLines, FileWithoutDwarfIsEmpty) {
    const auto path = std::filesystem::temp_directory_path() / "pulpsim_source_lines_not_elf.txt";
    std::ofstream(path) << "hello\n";
    const SourceLines lines = SourceLines::load(path.string());
    EXPECT_TRUE(lines.empty());
    EXPECT_FALSE(lines.why_empty().empty());
    EXPECT_TRUE(lines.files().empty());
    EXPECT_FALSE(lines.find(0).has_value());
}

} // namespace
} // namespace pulpsim
