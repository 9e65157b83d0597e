// Cycle-count baselines (configs/regress/*.yaml): entries of (program, platform, overrides) with the
// expected figures of each perf region and a tolerance. Comparing a run against them gives one verdict per
// entry and region; updating rewrites only the numbers that changed, in place, so comments, order and
// layout survive and a deliberate change is one line per region in a diff.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runs/design_point.hpp"
#include "runs/results_store.hpp"

namespace pulpsim::runs {

// The cycle limit of an entry's run when neither the file (`max_cycles:`) nor regress --max-cycles sets one.
inline constexpr uint64_t kDefaultMaxCycles = 10'000'000'000ULL;

struct Tolerance {
    double relative = 0;   // fraction of the baseline (0.01 = 1%)
    uint64_t absolute = 0; // cycles
    // A change within either bound is accepted.
    bool accepts(uint64_t baseline, uint64_t now) const;
};

// Where a number stands in the file, so that --update can replace exactly its characters. `in_place`:
// the characters there are the number as read (a quoted one between its quotes); not so behind a tag or
// an anchor, which --update refuses to edit.
struct TextSpan {
    size_t offset = 0, length = 0;
    int line = 0;
    bool in_place = true;
};

struct RegionBaseline {
    std::string name;
    uint64_t cycles = 0;
    std::optional<uint64_t> instret;
    std::optional<double> mac_per_cycle;
    TextSpan cycles_at, instret_at, mac_at, whole_line;
};

struct BaselineEntry {
    std::string name;
    std::string program;
    std::string platform_file; // "" = built-in pulp-open
    std::vector<std::string> overrides;
    Tolerance tolerance;
    std::vector<RegionBaseline> regions;
    int line = 0;
    int regions_line = 0; // line of `regions:`; new regions are inserted after the last region's line
    size_t regions_indent = 0;
    DesignPoint point; // resolved when the file is loaded
};

struct BaselineFile {
    std::string path;
    std::string text;
    std::vector<BaselineEntry> entries;
};

// Reads and checks a baseline file (one-line errors naming file, line and key): at least one entry, each
// with at least one region, counts up to INT64_MAX, no YAML aliases. Programs need not exist: a missing
// program is a `failed` entry when run, not an error of the file.
BaselineFile load_baseline(const std::string& path);
// The same for a file's text at hand (`path` names it in errors).
BaselineFile parse_baseline(const std::string& path, std::string text);

enum class Verdict { Ok, Slower, Faster, New, Missing, Failed };
const char* to_string(Verdict v);

struct RegressRow {
    std::string entry, region;
    Verdict verdict = Verdict::Ok;
    uint64_t baseline = 0, now = 0; // cycles (0 where there is none)
    std::string message;            // the failure's one-line error, or what moved
};

// Compares one entry's run against its baseline: one row per region of either side, or when the run failed,
// one failed row per region of the baseline.
std::vector<RegressRow> compare_entry(const BaselineEntry& entry, const PointResult& result);

// The file's text with every changed, new and missing region brought up to date with `results`
// (keyed by entry name); entries without a result are left as they are. The new text is read back and
// must give those figures: a layout the edits cannot keep (flow-style regions, a byte-order mark, a
// number behind a tag or an anchor) is a one-line error naming the file, and nothing is written.

std::string updated_baseline(const BaselineFile& file, const std::map<std::string, PointResult>& results);

// A new baseline file for the given entries' results (pulpsim regress --init). Throws std::invalid_argument
// naming the program when an entry ran no perf region.
std::string initial_baseline(const std::vector<BaselineEntry>& entries,
                             const std::map<std::string, PointResult>& results,
                             const std::string& platform_file);

} // namespace pulpsim::runs
