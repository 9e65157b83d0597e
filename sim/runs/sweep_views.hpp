// What a user reads of a sweep: markdown tables and CSV/JSON exports, made from the results store (so a
// half-finished sweep shows what it has, and nothing here simulates).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runs/results_store.hpp"
#include "runs/sweep_spec.hpp"

namespace pulpsim::runs {

// The stored figures of a sweep's points, by point identity and region.
struct SweepResults {
    struct Point {
        std::string status; // ok | failed
        std::string error;
        std::vector<std::string> region_order;                       // as the report lists them
        std::map<std::string, std::map<std::string, Value>> regions; // region -> metric -> value
    };
    std::map<std::string, Point> points;
};

// By identity, whichever sweep recorded them: an export reads the database alone and records nothing, so
// the points the database records under the sweep's name may be those of an earlier version of its file.
SweepResults load_sweep_results(const ResultsStore& store, const std::vector<DesignPoint>& points);

// The sweep's table(s) as markdown: `table:` of the spec, or one row per point and region.
std::string markdown_tables(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                            const SweepResults& results);

// The regions the sweep file names (regions:, a plot's region:) that no stored point reports, as one
// line naming them and the regions the points have; "" when every one is known, or while a program of the
// sweep has no point that succeeded yet (its regions are unknown).
std::string unknown_regions(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                            const SweepResults& results);

// One row per point and region (a point not stored yet is one `pending` row): CSV or JSON text.
std::string export_results(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                           const SweepResults& results, const std::string& format);

} // namespace pulpsim::runs
