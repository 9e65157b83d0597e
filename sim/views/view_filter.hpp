// What a view shows of a run: some cores, a window of cycles, the time inside named perf regions. Shared by
// the views and parsed from their command-line options. The trace asks on-line (shows(cycle)); the waveform
// and the timeline record the whole run and cut it afterwards (spans()).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/host_services.hpp"
#include "memory/elf_image.hpp"

namespace pulpsim {

// Cycles [from, to).
struct CycleWindow {
    uint64_t from = 0;
    uint64_t to = UINT64_MAX;
    bool contains(uint64_t cycle) const { return cycle >= from && cycle < to; }
    bool whole() const { return from == 0 && to == UINT64_MAX; }
    bool operator==(const CycleWindow&) const = default;
    // "FROM:TO", "FROM:" or ":TO" (decimal or 0x-hex cycles, FROM < TO). Throws std::runtime_error, one
    // line naming `option`.
    static CycleWindow parse(const std::string& option, const std::string& text);
};

// Core indices such as "0,3-5", each below `cores`: a flag per core. Throws std::runtime_error naming
// `option` for an empty, malformed or out-of-range list.
std::vector<bool> parse_core_list(const std::string& option, const std::string& text, unsigned cores);

// A program names its regions with string constants (region_begin("matmul", ...)): a name that ends no
// NUL-terminated string of the ELF's loadable segments names no region of it (a typo). Throws
// std::runtime_error naming `option` and the first such name.
void check_region_names(const std::string& option, const std::vector<std::string>& names,
                        const ElfImage& elf);

class ViewFilter : public RegionListener {
  public:
    // `cores` empty: every core; `regions` empty: the whole run.
    ViewFilter(CycleWindow window = {}, std::vector<bool> cores = {}, std::vector<std::string> regions = {})
        : window_(window), cores_(std::move(cores)), regions_(std::move(regions)) {}

    bool selects_core(unsigned core) const {
        return cores_.empty() || (core < cores_.size() && cores_[core]);
    }
    // Follows the perf regions of the run (needed when regions are named).
    void follow_regions(HostServices& host) { host.add_region_listener(this); }
    // Whether what happens at `cycle` is shown: inside the window, and, when regions are named, while one
    // of them is open. A region is open from its region_begin to its region_end call, as the cores run:
    // what the report counts as the region's instructions.
    bool shows(uint64_t cycle) const { return window_.contains(cycle) && (regions_.empty() || open_ > 0); }
    const CycleWindow& window() const { return window_; }
    const std::vector<std::string>& regions() const { return regions_; }
    bool names_region(const std::string& name) const;
    bool filters() const { return !window_.whole() || !regions_.empty(); }
    // How many of the cycles [from, to) it shows, as far as the run has gone: in the window and, when
    // regions are named, in the runs of them closed so far or in the one open now (counted from its start
    // on: a cycle after the end it will have is counted when asked before that end).
    uint64_t shown_cycles(uint64_t from, uint64_t to) const;

    // The cycles to show, in order and disjoint: [0, end) cut to the window and, when regions are named, to
    // their runs (`region_runs`: each run's [from, to) of a named region, in any order, maybe nested).
    std::vector<CycleWindow> spans(const std::vector<CycleWindow>& region_runs, uint64_t end) const;
    // "cycles 100..200 within the runs of region 'x'", "the whole run": for headers.
    std::string describe() const;

    void region_entered(const std::string& name, const Hart&, uint64_t macs, uint64_t cycle) override;
    void region_left(const std::string& name, const Hart&, uint64_t cycle) override;

  private:
    CycleWindow window_;
    std::vector<bool> cores_;
    std::vector<std::string> regions_;
    unsigned open_ = 0;                    // named regions open now (nested runs count each)
    uint64_t open_from_ = 0;               // while open_ > 0: the cycle the outermost open run began
    std::vector<CycleWindow> closed_runs_; // the runs of named regions so far: ordered, disjoint
};

} // namespace pulpsim
