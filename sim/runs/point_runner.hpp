// Runs design points as separate `pulpsim run` processes (SystemC elaborates once per process, and a
// crash stays inside its point), several at a time, and hands back each point's result as it finishes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runs/design_point.hpp"
#include "runs/results_store.hpp"

namespace pulpsim::runs {

// Done / total, failed, elapsed and ETA: a redrawn bar on a terminal, otherwise a plain line now and then.
class Progress {
  public:
    Progress(std::string label, size_t total, bool terminal);
    void update(size_t done, size_t failed);
    // A line of its own on stderr, above the bar.
    void note(const std::string& line);
    void finish();

  private:
    void draw(bool final_line);

    std::string label_;
    size_t total_;
    bool terminal_;
    size_t done_ = 0, failed_ = 0;
    double start_ = 0, last_line_ = 0;
    bool drawn_ = false;
};

struct RunnerOptions {
    std::string simulator; // the pulpsim executable the points run with
    // When set, each point's process is a fork of this one that calls `run_verb` with the arguments of
    // `pulpsim run` (and exits with its status) instead of executing `simulator`: the same isolation, without
    // paying the simulator's process start-up (dynamic linking, SystemC's static initialisation) per point.
    std::function<int(const std::vector<std::string>&)> run_verb;
    unsigned jobs = 1; // points at once
    bool show_progress = true;
    bool terminal = false; // progress as a redrawn bar
    std::string label = "sweep";
    // The line to print, as it happens, for a point that failed (empty: none).
    std::function<std::string(const DesignPoint&, const PointResult&)> failure_line;
};

// What a failed point's error says, from one of its outputs: the last non-empty line that is not one of the
// simulator's warnings (a program's own error comes before the warnings of the run's end), without the
// simulator's "pulpsim: error: " prefix, made printable; empty if there is none.
std::string point_error_line(const std::string& output);

enum class RunnerEnd { Finished, Interrupted };

// Runs every point; `on_result` is called in the calling thread as each one ends. SIGINT, SIGTERM or
// SIGHUP stops the run: running points are killed and not reported, and the function returns
// Interrupted (the caller keeps what it already stored).
RunnerEnd run_points(const std::vector<const DesignPoint*>& points, const RunnerOptions& options,
                     const std::function<void(const DesignPoint&, const PointResult&)>& on_result);

} // namespace pulpsim::runs
