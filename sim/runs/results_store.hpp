// The results store: one SQLite file that keeps every design point ever run (keyed by its identity), its
// whole report and one row per perf region, plus which points make up each sweep. Each point is written
// in one transaction, so a run killed at any moment leaves only whole points behind.
//
// Tables (see README.md for queries):
//   points        id, program, platform, one column per platform key (tcdm_size, ...), status, error,
//                 whole-run figures and the JSON report
//   regions       point_id, name, count, cycles, instret, macs, mac_per_cycle, stall_*, dma_*
//   sweeps        name, spec file and text, when it last ran
//   sweep_points  sweep, ordinal, point_id
//   results       (view) sweep_points x points x regions, the table most queries want
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "runs/design_point.hpp"

struct sqlite3;

namespace pulpsim::runs {

struct SweepSpec;

// What running a point gave.
struct PointResult {
    bool ok = false;
    int exit_code = 0;      // the simulator's exit status; 128 + n when killed by signal n
    bool signalled = false; // killed by a signal: not a property of the point, run again next time
    std::string error;      // one line, empty when ok
    std::string report;     // the JSON report as the simulator wrote it (may be empty on failure)
    double host_seconds = 0;
};

using Value = std::variant<std::monostate, int64_t, double, std::string>;
struct QueryResult {
    std::vector<std::string> columns;
    std::vector<std::vector<Value>> rows;
};
std::string to_text(const Value& v);
// The current time as ISO 8601 UTC ("2026-01-31T12:00:00Z"), as the store records it.
std::string utc_timestamp();

class ResultsStore {
  public:
    // PRAGMA application_id of the databases pulpsim makes ("PLPS").
    static constexpr int64_t kApplicationId = 0x504C5053;

    // Opens (creating if needed) the database; a one-line error naming the file if it cannot.
    explicit ResultsStore(const std::string& path);
    // Opens an existing database only to read it (an export, a trend): a file the user may not write to
    // will do. It must hold `table`; the schema is not brought up to date.
    struct ReadOnly {
        std::string table = "points";
        std::string holding = "results"; // what the error says the file lacks
    };
    ResultsStore(const std::string& path, const ReadOnly& reading);
    ~ResultsStore();
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;

    const std::string& path() const { return path_; }

    // The identities among `ids` whose result is stored and final (a point killed by a signal is not).
    std::set<std::string> finished(const std::vector<std::string>& ids) const;
    // Stores one point and its regions atomically, replacing an earlier result of the same identity.
    void put(const DesignPoint& point, const std::string& simulator_version, const PointResult& result);
    // Records which points make up the sweep (in order), replacing its previous list.
    void record_sweep(const SweepSpec& spec, const std::vector<DesignPoint>& points);
    // Whether the sweep's recorded points are `points`, in order (what record_sweep would leave).
    bool records_sweep(const SweepSpec& spec, const std::vector<DesignPoint>& points) const;

    QueryResult query(const std::string& sql, const std::vector<Value>& binds = {}) const;

  private:
    // Opens path_ with the sqlite3_open_v2 `flags` (as an immutable file if asked), checks its owner, then
    // runs `then`; on any error the database is closed again and the error names the file.
    void open(int flags, bool immutable, const std::function<void()>& then);
    void exec(const std::string& sql) const;
    // Throws for a SQLite file another program made: nothing of it may change.
    void check_owner() const;
    void check_layout() const;
    void create_schema();

    std::string path_;
    sqlite3* db_ = nullptr;
};

} // namespace pulpsim::runs
