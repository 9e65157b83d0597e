// Baseline files of `pulpsim regress`: refused with one line naming the file, or loaded; then --update
// edits the text in place, which must leave an unchanged baseline as it is and give a file that loads back
// with exactly the new counts.
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "fuzz_input.hpp"
#include "runs/baseline.hpp"
#include "runs/results_store.hpp"

namespace {
using pulpsim::runs::BaselineFile;
using pulpsim::runs::PointResult;

bool valid_utf8(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

// A run of every entry whose regions have the baseline's counts plus `delta`.
std::map<std::string, PointResult> results_moved_by(const BaselineFile& file, uint64_t delta) {
    std::map<std::string, PointResult> results;
    for (const auto& entry : file.entries) {
        nlohmann::json regions = nlohmann::json::array();
        for (const auto& region : entry.regions)
            regions.push_back({{"name", region.name},
                               {"cycles", region.cycles + delta},
                               {"instret", region.instret.value_or(0) + delta}});
        PointResult result;
        result.ok = true;
        result.report = nlohmann::json{{"regions", regions}}.dump(-1, ' ', false,
                                                                  nlohmann::json::error_handler_t::replace);
        results[entry.name] = result;
    }
    return results;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const pulpsim::fuzz::InputFile input("baseline.yaml");
    input.write(data, size);
    BaselineFile file;
    try {
        file = pulpsim::runs::load_baseline(input.path());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what(), input.path());
        return 0;
    }
    // Counts that overflow, and names no JSON report can carry (reports replace invalid UTF-8), are not
    // what this checks.
    for (const auto& entry : file.entries)
        for (const auto& region : entry.regions)
            if (region.cycles > (uint64_t{1} << 62) || region.instret.value_or(0) > (uint64_t{1} << 62) ||
                !valid_utf8(region.name))
                return 0;
    for (const auto& results : {std::map<std::string, PointResult>{}, results_moved_by(file, 0)}) {
        const std::string same = pulpsim::runs::updated_baseline(file, results);
        if (same != file.text)
            pulpsim::fuzz::fail("an update with nothing changed rewrote the file",
                                pulpsim::fuzz::first_difference(file.text, same));
    }

    input.write(pulpsim::runs::updated_baseline(file, results_moved_by(file, 7)));
    BaselineFile moved;
    try {
        moved = pulpsim::runs::load_baseline(input.path());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::fail("an updated baseline does not load", e.what());
    }
    if (moved.entries.size() != file.entries.size())
        pulpsim::fuzz::fail("an update lost entries", moved.text);
    for (size_t i = 0; i < file.entries.size(); ++i) {
        const auto& was = file.entries[i].regions;
        const auto& now = moved.entries[i].regions;
        if (was.size() != now.size()) pulpsim::fuzz::fail("an update changed the regions", moved.text);
        for (size_t r = 0; r < was.size(); ++r)
            if (now[r].name != was[r].name || now[r].cycles != was[r].cycles + 7)
                pulpsim::fuzz::fail("an update wrote the wrong count", moved.text);
    }
    return 0;
}
