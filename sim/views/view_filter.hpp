// Which cycles a view of a run shows: a window of cycles, the runs of one perf region, or both (pulpsim run
// --view-window FROM:TO, --view-region NAME). Any view that shows a run over time can take one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pulpsim {

class ElfImage;

// The cycles [from, to).
struct CycleSpan {
    uint64_t from = 0;
    uint64_t to = UINT64_MAX;
    bool contains(uint64_t cycle) const { return cycle >= from && cycle < to; }
    bool operator==(const CycleSpan&) const = default;
};

class ViewFilter {
  public:
    // "FROM:TO" in cycles (decimal or 0x-hex, '_' separators allowed); FROM or TO may be left out for the
    // start or the end of the run. Throws std::invalid_argument with a one-line message naming `option`.
    static CycleSpan parse_window(const std::string& option, const std::string& text);

    void set_window(CycleSpan window) { window_ = window; }
    void set_region(std::string name) { region_ = std::move(name); }
    const std::optional<CycleSpan>& window() const { return window_; }
    // Empty: no region filter.
    const std::string& region() const { return region_; }
    bool filters() const { return window_ || !region_.empty(); }

    // The cycles to show, in order and disjoint: [0, end) cut to the window and, when a region is named,
    // to the runs of that region (`region_runs`: each run's [begin, end), in any order, maybe nested).
    std::vector<CycleSpan> spans(const std::vector<CycleSpan>& region_runs, uint64_t end) const;
    // "cycles 100..200 in region 'x'", "the whole run": for headers.
    std::string describe() const;

  private:
    std::optional<CycleSpan> window_;
    std::string region_;
};

// Whether `name` can be a perf region of `elf`: the program names its regions with string constants, so
// the name must appear NUL-terminated in the bytes the ELF loads. False means it certainly cannot.
bool program_may_name_region(const ElfImage& elf, const std::string& name);

} // namespace pulpsim
