// Which source line each instruction address of a program comes from: the ELF's DWARF line tables,
// read once with elfutils' libdw (see README.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pulpsim {

class SourceLines {
  public:
    struct Location {
        uint32_t file = 0; // index into files()
        uint32_t line = 0; // 0: code of this file the compiler ties to no line (hoisted, merged)
    };

    // Reads the line tables of the ELF at `path`. A file without any (no DWARF, or DWARF without
    // .debug_line) gives an empty table, and so does DWARF that libdw cannot read: the profile that asks
    // for lines is a view, and the run goes on without them (why_empty() says why).
    static SourceLines load(const std::string& path);

    bool empty() const { return ranges_.empty(); }
    const std::string& why_empty() const { return why_empty_; }
    // The line the instruction at `addr` comes from; none for addresses no line table covers.
    std::optional<Location> find(uint32_t addr) const;
    // Source file paths as the DWARF names them, made absolute with the compilation directory and
    // normalised ("a/../b" is "b").
    const std::vector<std::string>& files() const { return files_; }

  private:
    struct Range {
        uint32_t lo = 0, hi = 0; // [lo, hi)
        Location where;
    };
    std::vector<Range> ranges_; // sorted by lo, disjoint
    std::vector<std::string> files_;
    std::string why_empty_;
};

} // namespace pulpsim
