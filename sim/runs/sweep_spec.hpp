// A sweep file (configs/sweeps/*.yaml): which programs run on which platform, the fixed and swept
// settings, and how the results are shown. Parsing expands it into design points; every error is a
// std::runtime_error with one line naming the file, the line and the key.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runs/design_point.hpp"

namespace pulpsim::runs {

// One swept key and its values in file order (`program` or a platform key).
struct Axis {
    std::string key;
    std::vector<std::string> values; // YAML scalar text as written
    int line = 0;
};

// `table:` of a sweep file: one markdown table per value of the facet keys.
struct TableSpec {
    std::vector<std::string> rows; // keys whose value combinations make the rows
    std::string columns;           // a key whose values make the columns ("" = one column)
    std::string value = "mac_per_cycle";
    std::vector<std::string> facets; // one table per combination of these keys
    int line = 0;
};

// One entry of `plots:`: drawn by scripts/plot_sweep.py from the results database.
struct PlotSpec {
    std::string kind;                // line | heatmap | bars
    std::string x, y, value, series; // keys or metrics, by kind (see configs/sweeps/README.md)
    std::vector<std::string> facets;
    std::map<std::string, std::string> baseline; // bars: the point speed-ups are relative to
    std::string region;                          // "" = the sweep's first region
    std::string file;                            // file name without extension
    std::string title;
    int line = 0;
};

// More points than this in one sweep file is an error: a typo in a grid (one more key, a long list) would
// otherwise quietly cost minutes of expansion and gigabytes before anything runs.
constexpr uint64_t kMaxSweepPoints = 100'000;

struct SweepSpec {
    std::string path;
    std::string name; // `name:`, or the file name without extension
    std::vector<std::string> programs;
    std::string platform_file;                                // "" = the built-in pulp-open
    std::vector<std::pair<std::string, std::string>> fixed;   // `set:`, in file order
    std::vector<Axis> axes;                                   // grid axes, then zip groups flattened
    std::vector<std::vector<std::string>> zip_groups;         // keys of each zip group
    std::map<std::string, int> key_lines;                     // line of each set:/grid:/zip: key
    std::vector<std::map<std::string, std::string>> excludes; // values spelled as the axis spells them
    std::vector<int> exclude_lines;
    uint64_t max_cycles = 10'000'000'000ULL;
    std::vector<std::string> regions; // empty = all
    int regions_line = 0;
    std::vector<std::string> metrics; // shown and exported columns
    TableSpec table;
    bool has_table = false;
    std::vector<PlotSpec> plots;
};

// Reads and checks a sweep file (the platform file and every program it names must exist). Besides
// each value, it checks that exclude: entries match points, that some point is left, and that every
// table and plot places each key the sweep varies (a key left out would mix points in one line or cell).
SweepSpec load_sweep_spec(const std::string& path);

// Every point of the sweep in order: the grid's cartesian product (first axis slowest) crossed with the
// zip groups, less the excluded points. Each point's configuration is resolved and validated; an
// invalid combination is an error naming the point. Hashes each program once.
std::vector<DesignPoint> expand_points(const SweepSpec& spec, const std::string& simulator_version);

// The metrics a region row carries, in store order (also the names `metrics:` accepts).
const std::vector<std::string>& region_metrics();

} // namespace pulpsim::runs
