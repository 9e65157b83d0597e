// The Slurm backend of the runner: the points a store lacks become one `sbatch --array` job whose tasks
// run slices of them (`pulpsim sweep --worker DIR --task I`, each point its own `pulpsim run` as locally)
// and write each result atomically into DIR/results/; collecting moves those results into the store.
// DIR must be visible to the submitting host and the compute nodes (a shared filesystem); the scheduling
// is Slurm's own (sbatch, squeue), nothing here stands in for it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runs/design_point.hpp"
#include "runs/results_store.hpp"

namespace pulpsim::runs {

struct SlurmOptions {
    std::string dir;           // shared folder for the manifest, the results and the job logs
    std::string partition;     // "" = the cluster's default
    std::string time_limit;    // per array task, in sbatch's --time syntax; "" = the partition's default
    unsigned throttle = 0;     // at most this many tasks at once (sbatch --array=...%N); 0 = no limit
    unsigned max_tasks = 1000; // array size cap; each task runs every max_tasks-th point
    unsigned cpus_per_task = 1;
    bool wait = false; // block until the job ends, then collect
};

// Moves every result file in dir/results of a point in `points` into the store; returns how many.
size_t slurm_collect(const SlurmOptions& options, const std::vector<DesignPoint>& points, ResultsStore& store,
                     const std::string& simulator_version);

// The id of the job last submitted from dir if Slurm still lists it, else "".
std::string slurm_active_job(const SlurmOptions& options);

// Writes the manifest of `pending` and submits the array job; returns the job id.
std::string slurm_submit(const SlurmOptions& options, const std::vector<const DesignPoint*>& pending,
                         const std::string& simulator, const std::string& simulator_version,
                         const std::string& label);

// Inside an array task: runs task `task`'s slice of the manifest in dir (results already written are
// skipped, so a requeued task resumes). Returns the number of points that failed.
size_t slurm_worker(const std::string& dir, unsigned task, const std::string& simulator,
                    const std::string& simulator_version, unsigned jobs,
                    const std::function<int(const std::vector<std::string>&)>& run_verb);

} // namespace pulpsim::runs
