// The Slurm backend of the runner: the points a store lacks become one `sbatch --array` job whose tasks
// run slices of them (`pulpsim sweep --worker DIR/submissions/X --task I`, each point its own `pulpsim run`
// as locally) and write each result atomically into DIR/results/; collecting moves those results into the
// store. Each submission keeps its manifest and job script in a folder of its own, which no later
// submission rewrites.
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
    bool wait = false; // block until the job ends (slurm_wait), then collect
};

// Moves every result file in dir/results of a point in `points` into the store; returns how many.
size_t slurm_collect(const SlurmOptions& options, const std::vector<DesignPoint>& points, ResultsStore& store,
                     const std::string& simulator_version);

// The id of the job last submitted from dir if Slurm still lists it, else ""; throws a one-line error if
// squeue cannot tell (the controller does not answer).
std::string slurm_active_job(const SlurmOptions& options);
// Returns once Slurm no longer lists `job` (submitted from options.dir) as pending, running or completing.
void slurm_wait(const SlurmOptions& options, const std::string& job);

// Writes the manifest of `pending` into a new submission folder and submits the array job; returns the job
// id, which it also writes to dir/job_id before returning. Nothing stays behind if sbatch refuses the job.
std::string slurm_submit(const SlurmOptions& options, const std::vector<const DesignPoint*>& pending,
                         const std::string& simulator, const std::string& simulator_version,
                         const std::string& label);

// Inside an array task: runs task `task`'s slice of the manifest in `submission` (results already written
// are skipped, so a requeued task resumes). Returns the number of points that failed.
size_t slurm_worker(const std::string& submission, unsigned task, const std::string& simulator,
                    const std::string& simulator_version, unsigned jobs,
                    const std::function<int(const std::vector<std::string>&)>& run_verb);

} // namespace pulpsim::runs
