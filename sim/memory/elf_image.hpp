// A validated RV32 executable: loadable segments, entry point and symbol table.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace pulpsim {

struct ElfSegment {
    uint32_t vaddr = 0;
    uint32_t memsz = 0;
    std::vector<uint8_t> bytes; // file contents; the rest up to memsz is zero
    bool executable = false;
    bool writable = false;
};

class ElfImage {
  public:
    // Reads and validates `path`; throws std::runtime_error with a one-line message naming the file.
    static ElfImage load(const std::string& path);

    const std::string& path() const { return path_; }
    uint32_t entry() const { return entry_; }
    const std::vector<ElfSegment>& segments() const { return segments_; }
    std::optional<uint32_t> symbol(const std::string& name) const;
    // Whether the name stands for more than one address (a static of that name in two files, say).
    bool symbol_ambiguous(const std::string& name) const { return ambiguous_symbols_.contains(name); }
    // Where the instructions are: the executable sections, or the file-backed part of the executable
    // segments when the file has no section headers. Empty (lo == hi) if there is no code.
    std::pair<uint32_t, uint32_t> code_range() const { return code_range_; }
    // The name of the function or object containing `addr`, for messages ("main+0x1c").
    std::string describe_address(uint32_t addr) const;
    // The symbol containing `addr` and its start address; an empty name when none does.
    std::pair<std::string, uint32_t> symbol_containing(uint32_t addr) const;
    // The size the symbol table gives the function or object starting at `start` (0: none or unknown).
    uint32_t symbol_size(uint32_t start) const;
    // The file contents loaded at [addr, addr + out.size()), if one segment holds them all.
    bool read(uint32_t addr, std::span<uint8_t> out) const;

  private:
    std::string path_;
    uint32_t entry_ = 0;
    std::vector<ElfSegment> segments_;
    std::pair<uint32_t, uint32_t> code_range_{0, 0};
    std::map<std::string, uint32_t> symbols_;
    std::set<std::string> ambiguous_symbols_;
    std::map<uint32_t, std::pair<std::string, uint32_t>> symbols_by_addr_; // addr -> (name, size)
};

} // namespace pulpsim
