#include "views/source_lines.hpp"

#include <algorithm>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <filesystem>
#include <libelf.h>
#include <unistd.h>
#include <unordered_map>

namespace pulpsim {
namespace {

// Owns the file descriptor and the libdw handle.
class DwarfFile {
  public:
    explicit DwarfFile(const std::string& path) {
        elf_version(EV_CURRENT);
        fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
        if (fd_ >= 0) dwarf_ = dwarf_begin(fd_, DWARF_C_READ);
    }
    ~DwarfFile() {
        if (dwarf_) dwarf_end(dwarf_);
        if (fd_ >= 0) ::close(fd_);
    }
    DwarfFile(const DwarfFile&) = delete;
    DwarfFile& operator=(const DwarfFile&) = delete;
    bool opened() const { return fd_ >= 0; }
    Dwarf* get() const { return dwarf_; }

  private:
    int fd_ = -1;
    Dwarf* dwarf_ = nullptr;
};

} // namespace

SourceLines SourceLines::load(const std::string& path) {
    SourceLines out;
    DwarfFile file(path);
    if (!file.opened()) {
        out.why_empty_ = "cannot open the file";
        return out;
    }
    if (!file.get()) {
        out.why_empty_ = dwarf_errmsg(-1);
        return out;
    }
    std::unordered_map<std::string, uint32_t> file_index;
    Dwarf_CU* cu = nullptr;
    Dwarf_Half version = 0;
    uint8_t unit_type = 0;
    Dwarf_Die cu_die, sub_die;
    while (dwarf_get_units(file.get(), cu, &cu, &version, &unit_type, &cu_die, &sub_die) == 0) {
        Dwarf_Lines* lines = nullptr;
        size_t count = 0;
        if (dwarf_getsrclines(&cu_die, &lines, &count) != 0) continue; // a unit without a line table
        // The file names of one unit are the same pointers row after row: resolve each once.
        std::unordered_map<const char*, uint32_t> unit_files;
        auto file_of = [&](Dwarf_Line* row) -> uint32_t {
            const char* name = dwarf_linesrc(row, nullptr, nullptr);
            if (!name) name = "?";
            auto [it, fresh] = unit_files.try_emplace(name, 0);
            if (fresh) {
                std::string normal = std::filesystem::path(name).lexically_normal().string();
                auto [global, added] =
                    file_index.try_emplace(normal, static_cast<uint32_t>(out.files_.size()));
                if (added) out.files_.push_back(std::move(normal));
                it->second = global->second;
            }
            return it->second;
        };
        // libdw keeps each sequence's rows together, in address order, ending with its end_sequence
        // row: a row covers the addresses up to the next row's.
        for (size_t i = 0; i + 1 < count; ++i) {
            Dwarf_Line* row = dwarf_onesrcline(lines, i);
            Dwarf_Line* next = dwarf_onesrcline(lines, i + 1);
            bool end_sequence = false;
            Dwarf_Addr lo = 0, hi = 0;
            int line = 0;
            if (!row || !next || dwarf_lineendsequence(row, &end_sequence) != 0 || end_sequence ||
                dwarf_lineaddr(row, &lo) != 0 || dwarf_lineaddr(next, &hi) != 0 ||
                dwarf_lineno(row, &line) != 0)
                continue;
            // Code the linker dropped keeps its rows at a placeholder address (0 or all ones).
            if (hi <= lo || hi >= (Dwarf_Addr{1} << 32)) continue;
            out.ranges_.push_back({static_cast<uint32_t>(lo),
                                   static_cast<uint32_t>(hi),
                                   {file_of(row), static_cast<uint32_t>(std::max(line, 0))}});
        }
    }
    std::sort(out.ranges_.begin(), out.ranges_.end(),
              [](const Range& a, const Range& b) { return a.lo != b.lo ? a.lo < b.lo : a.hi > b.hi; });
    // Overlaps come only from dropped code placed at the same placeholder address: keep the first.
    size_t kept = 0;
    for (const Range& r : out.ranges_)
        if (kept == 0 || r.lo >= out.ranges_[kept - 1].hi) out.ranges_[kept++] = r;
    out.ranges_.resize(kept);
    if (out.ranges_.empty()) out.why_empty_ = "no line table";
    return out;
}

std::optional<SourceLines::Location> SourceLines::find(uint32_t addr) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                               [](uint32_t a, const Range& r) { return a < r.lo; });
    if (it == ranges_.begin()) return std::nullopt;
    --it;
    if (addr >= it->hi) return std::nullopt;
    return it->where;
}

} // namespace pulpsim
