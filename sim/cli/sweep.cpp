// pulpsim sweep: run the design points of a sweep file (locally in parallel, or on Slurm), keep them in
// the results database, and show them as tables, exports and plots.
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "cli/cli_common.hpp"
#include "cluster/report.hpp"
#include "runs/point_runner.hpp"
#include "runs/results_store.hpp"
#include "runs/slurm_backend.hpp"
#include "runs/sweep_spec.hpp"
#include "runs/sweep_views.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace pulpsim::cli {
namespace {

constexpr int kExitSomeFailed = 1;
constexpr int kExitInterrupted = 130;

// scripts/plot_sweep.py of the source tree this simulator was built from (PULPSIM_PLOT_SCRIPT overrides).
std::string plot_script() {
    if (const char* env = std::getenv("PULPSIM_PLOT_SCRIPT"); env && *env) return env;
    return PULPSIM_SCRIPTS_DIR "/plot_sweep.py";
}

// The plot script's exit status for a plot it refused: it said why in one line.
constexpr int kPlotRefused = 3;

// Draws the spec's plots from the database with matplotlib (the script prints the files it wrote). False
// when the script refused a plot (its one-line reason is on stderr) and drew the others.
bool draw_plots(const runs::SweepSpec& spec, const std::string& db, const std::string& out_dir) {
    const std::string script = plot_script();
    if (!fs::is_regular_file(script)) throw UsageError(fmt::format("{}: plot script not found", script));
    nlohmann::json plots;
    plots["axes"] = nlohmann::json::array();
    if (spec.programs.size() > 1) plots["axes"].push_back("program");
    for (const auto& a : spec.axes)
        plots["axes"].push_back(a.key);
    plots["regions"] = spec.regions;
    plots["zip_groups"] = spec.zip_groups;
    plots["plots"] = nlohmann::json::array();
    for (const auto& p : spec.plots)
        plots["plots"].push_back({{"kind", p.kind},
                                  {"x", p.x},
                                  {"y", p.y},
                                  {"value", p.value},
                                  {"series", p.series},
                                  {"facets", p.facets},
                                  {"region", p.region},
                                  {"baseline", p.baseline},
                                  {"file", p.file},
                                  {"title", p.title},
                                  {"line", p.line}});
    plots["path"] = spec.path;
    // A plot it refuses is one line of its own; anything else is one line here.
    std::string why;
    const int code = run_python_script(
        script, {"--db", db, "--sweep", spec.name, "--plots", plots.dump(), "--out", out_dir}, why,
        kPlotRefused);
    if (code == kPlotRefused) return false;
    if (code != 0)
        throw std::runtime_error(fmt::format("plots of {} failed ({} {}: {})", spec.name, PULPSIM_PLOT_PYTHON,
                                             script, why.empty() ? "it did not run" : why));
    return true;
}

// A folder the plots can be written to, made now so that a bad --out is refused before anything runs.
void make_plot_folder(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw UsageError(fmt::format("--out {}: cannot make the plot folder: {}", dir,
                                     ec ? ec.message() : "not a folder"));
    if (access(dir.c_str(), W_OK | X_OK) != 0)
        throw UsageError(
            fmt::format("--out {}: cannot write into the plot folder: {}", dir, std::strerror(errno)));
}

// The failed points' lines: each error is shown with the first few points that gave it, as they fail (or,
// for failures stored before, at the end); the end counts the rest. A sweep whose every point fails for one
// reason (a program the platform cannot run) says so in a few lines, not in one per point.
class FailureLines {
  public:
    explicit FailureLines(std::string sweep) : sweep_(std::move(sweep)) {}
    // The line for a failed point, empty once its error was shown for kShown points.
    std::string line(const runs::DesignPoint& p, const std::string& error) {
        listed_.insert(p.id);
        if (++points_with_[error] > kShown) return "";
        std::string where;
        for (const auto& [k, v] : p.axes)
            where += fmt::format("{}{}={}", where.empty() ? "" : " ", k, v);
        return fmt::format("sweep {}: failed point {}: {}", sweep_, where.empty() ? p.program : where, error);
    }
    bool listed(const std::string& id) const { return listed_.count(id) > 0; }
    void print_counts() const {
        for (const auto& [error, n] : points_with_)
            if (n > kShown)
                std::fprintf(stderr, "sweep %s: %zu more failed points: %s\n", sweep_.c_str(), n - kShown,
                             error.c_str());
    }

  private:
    static constexpr size_t kShown = 3;
    std::string sweep_;
    std::set<std::string> listed_;
    std::map<std::string, size_t> points_with_;
};

} // namespace

int command_sweep(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim sweep SPEC.yaml [options]\n\n"
        "Runs every design point of a sweep file (configs/sweeps/*.yaml: programs x platform settings),\n"
        "one `pulpsim run` process per point, and keeps the results in a SQLite database. Points already\n"
        "stored with the same program bytes, resolved configuration and simulator are not run again, so\n"
        "an interrupted sweep resumes where it stopped. Then prints the sweep's table and draws its "
        "plots.\n\n"
        "options");
    std::string db = "results/pulpsim.db", out_dir, export_format, output, backend = "local";
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    runs::SlurmOptions slurm;
    desc.add_options()("help,h", "show this help")("db", po::value(&db)->value_name("FILE"),
                                                   "results database (default results/pulpsim.db)")(
        "jobs,j", po::value(&jobs)->value_name("N"), "points at once (default: all cores)")(
        "out", po::value(&out_dir)->value_name("DIR"),
        "folder for the plots (default <folder of --db>/<sweep name>)")(
        "no-run", "simulate nothing: show the table and draw the plots from what is stored")(
        "no-plots", "do not draw the plots")("retry-failed", "run the points stored as failed again")(
        "export", po::value(&export_format)->value_name("csv|json"),
        "write the stored results (one row per point and region) instead of the table; simulates nothing")(
        "output,o", po::value(&output)->value_name("FILE"), "where --export writes (default: stdout)")(
        "quiet,q", "no table (the plots' paths are still printed)")(
        "no-progress", "no progress bar or progress lines on stderr")(
        "backend", po::value(&backend)->value_name("local|slurm"), "where the points run (default local)")(
        "partition", po::value(&slurm.partition)->value_name("NAME"),
        "slurm: partition")("time-limit", po::value(&slurm.time_limit)->value_name("TIME"),
                            "slurm: time limit per array task (sbatch --time syntax)")(
        "array-throttle", po::value(&slurm.throttle)->value_name("N"),
        "slurm: at most N array tasks at once")(
        "max-tasks", po::value(&slurm.max_tasks)->value_name("N"),
        "slurm: at most N array tasks; each runs every N-th point (default 1000)")(
        "cpus-per-task", po::value(&slurm.cpus_per_task)->value_name("N"),
        "slurm: CPUs of each task, which runs that many points at once (default 1)")(
        "slurm-dir", po::value(&slurm.dir)->value_name("DIR"),
        "slurm: shared folder for the manifest, results and logs (default <db>.slurm/<sweep name>)")(
        "wait", "slurm: wait for the job to end, then collect its results")(
        "collect", "slurm: only move finished results into the database");
    po::options_description hidden;
    std::string spec_path, worker_dir;
    unsigned task = 0;
    hidden.add_options()("spec", po::value(&spec_path))("worker", po::value(&worker_dir))("task",
                                                                                          po::value(&task));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("spec", 1);
    po::variables_map vm;
    try {
        po::store(parse_command_line(args, all, &pos), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("sweep: {}", e.what()));
    }
    if (vm.count("help")) {
        std::cout
            << desc
            << "\nexit status: 0 every point succeeded; 1 some failed (stored with their error) or are\n"
               "not stored yet (--no-run, a Slurm job not collected); 2 bad input; 130 interrupted (what\n"
               "finished is stored: run again to resume). --export: 0 once written; its rows give each\n"
               "point's status.\n";
        return 0;
    }
    const std::string simulator = self_executable();
    const std::string version = runs::simulator_version(kVersion, simulator);

    if (!worker_dir.empty()) // inside a Slurm array task
        return runs::slurm_worker(worker_dir, task, simulator, version, std::max(1u, jobs), point_run_verb())
                   ? kExitSomeFailed
                   : 0;

    if (spec_path.empty()) throw UsageError("sweep: no sweep file given (usage: pulpsim sweep SPEC.yaml)");
    if (jobs == 0) throw UsageError("--jobs: must be at least 1");
    if (backend != "local" && backend != "slurm")
        throw UsageError(fmt::format("--backend: '{}' is not local or slurm", backend));
    if ((vm.count("export") || !export_format.empty()) && export_format != "csv" && export_format != "json")
        throw UsageError(fmt::format("--export: '{}' is not csv or json", export_format));
    if (vm.count("output") && export_format.empty()) throw UsageError("--output goes with --export");
    // An empty path would not mean the default: SQLite takes "" for a temporary database.
    for (const char* o : {"db", "out", "output", "slurm-dir"})
        if (vm.count(o) && vm[o].as<std::string>().empty())
            throw UsageError(fmt::format("--{}: an empty path", o));
    for (const char* o : {"partition", "time-limit", "array-throttle", "max-tasks", "cpus-per-task",
                          "slurm-dir", "wait", "collect"})
        if (vm.count(o) && backend != "slurm")
            throw UsageError(fmt::format("--{} goes with --backend slurm", o));
    if (vm.count("max-tasks") && slurm.max_tasks == 0) throw UsageError("--max-tasks: must be at least 1");
    if (vm.count("array-throttle") && slurm.throttle == 0)
        throw UsageError("--array-throttle: must be at least 1 (leave it out for no limit)");
    // sbatch --time's forms; checked here so that a typo fails before anything is written or submitted.
    static const std::regex slurm_time(R"(\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2}|UNLIMITED|INFINITE)",
                                       std::regex::icase);
    if (vm.count("time-limit") && !std::regex_match(slurm.time_limit, slurm_time))
        throw UsageError(fmt::format("--time-limit: '{}' is not a Slurm time (minutes, minutes:seconds, "
                                     "hours:minutes:seconds, days-hours, days-hours:minutes or "
                                     "days-hours:minutes:seconds)",
                                     slurm.time_limit));
    if (vm.count("cpus-per-task") && slurm.cpus_per_task == 0)
        throw UsageError("--cpus-per-task: must be at least 1");
    // --export and --no-run only read the database.
    const bool run = export_format.empty() && !vm.count("no-run");
    const std::string reader = export_format.empty() ? "--no-run" : "--export";
    for (const char* o : {"retry-failed", "collect", "wait"})
        if (vm.count(o) && !run)
            throw UsageError(fmt::format("--{} does not go with {}, which simulates nothing", o, reader));
    if (vm.count("out") && !export_format.empty())
        throw UsageError("--out does not go with --export, which draws no plots");

    const runs::SweepSpec spec = runs::load_sweep_spec(spec_path);
    const std::vector<runs::DesignPoint> points = runs::expand_points(spec, version);
    if (out_dir.empty()) out_dir = (fs::path(db).parent_path() / spec.name).string();
    if (slurm.dir.empty()) slurm.dir = db + ".slurm/" + spec.name;
    slurm.wait = vm.count("wait") > 0;
    std::error_code ec;
    // A mistyped --db must not become a new, empty database.
    if (!run && !fs::exists(db, ec))
        throw UsageError(
            fmt::format("--db {}: no such database ({} only reads one; run the sweep first)", db, reader));
    if (!output.empty() && output != "-") {
        std::vector<std::pair<std::string, std::string>> inputs = database_files("the results database", db);
        inputs.emplace_back("the sweep file", spec.path);
        if (!spec.platform_file.empty()) inputs.emplace_back("the platform file", spec.platform_file);
        for (const auto& p : spec.programs)
            inputs.emplace_back("a program of the sweep", p);
        for (const auto& [what, path] : inputs)
            if (names_same_file(output, path))
                throw UsageError(
                    fmt::format("--output {}: is {} ({}); export to another file", output, what, path));
    }
    const bool draws = export_format.empty() && !spec.plots.empty() && !vm.count("no-plots");
    if (draws) make_plot_folder(out_dir);
    // An export only reads: a database the user may not write to will do. A sweep and --no-run record the
    // sweep's points, which the plots read; --no-run reads alone a database that already records them.
    const bool exports = !export_format.empty();
    // SQLite writes its log and shared-memory file next to the database: its folder counts too.
    const std::string db_folder = fs::path(db).has_parent_path() ? fs::path(db).parent_path().string() : ".";
    const int not_writable = run || exports                                ? 0
                             : access(db.c_str(), W_OK) != 0               ? errno
                             : access(db_folder.c_str(), W_OK | X_OK) != 0 ? errno
                                                                           : 0;
    const bool reads_only = exports || not_writable;
    if (!reads_only) make_parent_folder("--db", db);
    runs::ResultsStore store =
        reads_only ? runs::ResultsStore(db, runs::ResultsStore::ReadOnly{}) : runs::ResultsStore(db);
    if (!reads_only) {
        // A sweep is known by its name: another file of the same name takes its place (the points stay
        // stored, and running the first file again puts it back without simulating).
        const auto recorded =
            store.query("SELECT spec_path, spec FROM sweeps WHERE name = ?", {spec.name}).rows;
        if (!recorded.empty()) {
            const std::string before = runs::to_text(recorded[0][0]);
            std::ifstream now_file(spec.path, std::ios::binary);
            const std::string now_text{std::istreambuf_iterator<char>(now_file), {}};
            std::error_code same_error;
            if (before != spec.path && !fs::equivalent(before, spec.path, same_error) &&
                runs::to_text(recorded[0][1]) != now_text)
                std::fprintf(stderr, "sweep %s: replaces the sweep of that name recorded from %s in %s\n",
                             spec.name.c_str(), before.c_str(), db.c_str());
        }
        store.record_sweep(spec, points);
    }
    if (not_writable && !store.records_sweep(spec, points))
        throw UsageError(
            fmt::format("--db {}: cannot write to it ({}), and it does not hold sweep '{}' with the "
                        "points its file gives now (edited since, or another simulator build), "
                        "which --no-run would record for its plots; --export reads it alone",
                        db, std::strerror(not_writable), spec.name));

    int status = 0;
    FailureLines failures(spec.name);
    if (run) {
        std::vector<std::string> ids;
        for (const auto& p : points)
            ids.push_back(p.id);
        // --retry-failed: a stored failure is still to run.
        const auto finished = [&] {
            std::set<std::string> done = store.finished(ids);
            if (vm.count("retry-failed"))
                for (const auto& row : store.query("SELECT id FROM points WHERE status = 'failed'").rows)
                    done.erase(runs::to_text(row[0]));
            return done;
        };
        const std::set<std::string> done = finished();
        // Points are unique by identity: a sweep that names one twice runs it once.
        std::vector<const runs::DesignPoint*> pending;
        std::set<std::string> queued;
        for (const auto& p : points)
            if (!done.count(p.id) && queued.insert(p.id).second) pending.push_back(&p);
        const size_t cached = points.size() - pending.size();

        if (backend == "slurm") {
            const size_t collected = runs::slurm_collect(slurm, points, store, version);
            if (collected) {
                std::fprintf(stderr, "sweep %s: collected %zu results from %s\n", spec.name.c_str(),
                             collected, slurm.dir.c_str());
                const auto now_done = finished();
                std::erase_if(pending, [&](const runs::DesignPoint* p) { return now_done.count(p->id) > 0; });
            }
            if (pending.empty())
                std::fprintf(stderr, "sweep %s: all %zu points already stored in %s\n", spec.name.c_str(),
                             points.size(), db.c_str());
            else if (!vm.count("collect")) {
                if (const std::string job = runs::slurm_active_job(slurm); !job.empty())
                    throw UsageError(
                        fmt::format("sweep {}: Slurm job {} of this sweep is still queued or running; "
                                    "wait for it (then --collect) or scancel it",
                                    spec.name, job));
                std::fprintf(stderr, "sweep %s: %zu points, %zu stored, submitting %zu to Slurm\n",
                             spec.name.c_str(), points.size(), points.size() - pending.size(),
                             pending.size());
                const std::string job = runs::slurm_submit(slurm, pending, simulator, version, spec.name);
                std::fprintf(stderr, "sweep %s: submitted Slurm job %s (results in %s)\n", spec.name.c_str(),
                             job.c_str(), slurm.dir.c_str());
                if (slurm.wait) {
                    runs::slurm_wait(slurm, job);
                    const size_t n = runs::slurm_collect(slurm, points, store, version);
                    std::fprintf(stderr, "sweep %s: collected %zu results\n", spec.name.c_str(), n);
                    // A task that failed as a whole (e.g. the simulator was rebuilt meanwhile) says why in
                    // its log.
                    if (n < pending.size())
                        std::fprintf(stderr, "sweep %s: %zu submitted points sent no result; see %s/logs/\n",
                                     spec.name.c_str(), pending.size() - n, slurm.dir.c_str());
                } else {
                    // The options that find this job's results again, as given.
                    std::string where;
                    if (vm.count("db")) where += " --db " + db;
                    if (vm.count("slurm-dir")) where += " --slurm-dir " + slurm.dir;
                    std::fprintf(
                        stderr, "sweep %s: run `pulpsim sweep %s%s --backend slurm --collect` when it ends\n",
                        spec.name.c_str(), spec.path.c_str(), where.c_str());
                }
            } else if (const std::string job = runs::slurm_active_job(slurm); !job.empty()) {
                std::fprintf(stderr,
                             "sweep %s: %zu points not stored yet: Slurm job %s is still queued or running\n",
                             spec.name.c_str(), pending.size(), job.c_str());
            } else if (!fs::exists(fs::path(slurm.dir) / "job_id")) {
                std::fprintf(stderr,
                             "sweep %s: %zu points not stored: nothing was submitted from %s (run without "
                             "--collect to submit them)\n",
                             spec.name.c_str(), pending.size(), slurm.dir.c_str());
            } else {
                std::fprintf(stderr, "sweep %s: %zu submitted points sent no result; see %s/logs/\n",
                             spec.name.c_str(), pending.size(), slurm.dir.c_str());
            }
        } else if (!pending.empty()) {
            std::fprintf(stderr, "sweep %s: %s, %zu already stored, running %zu on %s\n", spec.name.c_str(),
                         counted(points.size(), "point").c_str(), cached, pending.size(),
                         counted(jobs, "job").c_str());
            runs::RunnerOptions options;
            options.simulator = simulator;
            options.run_verb = point_run_verb();
            options.jobs = jobs;
            options.terminal = isatty(STDERR_FILENO) != 0;
            options.show_progress = !vm.count("no-progress");
            options.label = spec.name;
            options.failure_line = [&](const runs::DesignPoint& p, const runs::PointResult& r) {
                return failures.line(p, r.error);
            };
            const auto end = runs::run_points(
                pending, options,
                [&](const runs::DesignPoint& p, const runs::PointResult& r) { store.put(p, version, r); });
            if (end == runs::RunnerEnd::Interrupted) {
                failures.print_counts();
                std::fprintf(stderr,
                             "sweep %s: interrupted; finished points are stored in %s: run again to resume\n",
                             spec.name.c_str(), db.c_str());
                return kExitInterrupted;
            }
        } else {
            std::fprintf(stderr, "sweep %s: all %zu points already stored in %s\n", spec.name.c_str(),
                         points.size(), db.c_str());
        }
    }

    const runs::SweepResults results = runs::load_sweep_results(store, points);
    size_t stored = 0, failed = 0;
    for (const auto& p : points)
        if (auto it = results.points.find(p.id); it != results.points.end()) {
            ++stored;
            if (it->second.status != "ok") {
                ++failed;
                if (export_format.empty() && !failures.listed(p.id))
                    if (const std::string line = failures.line(p, it->second.error); !line.empty())
                        std::fprintf(stderr, "%s\n", line.c_str());
            }
        }
    if (export_format.empty()) failures.print_counts();
    if (failed || stored < points.size()) status = kExitSomeFailed;
    // Regions are known once points ran: a misspelt one is refused rather than shown as an empty table.
    if (const std::string unknown = runs::unknown_regions(spec, points, results); !unknown.empty())
        throw UsageError(unknown);

    if (!export_format.empty()) {
        const std::string text = runs::export_results(spec, points, results, export_format);
        if (output.empty() || output == "-")
            std::cout << text;
        else
            write_file_atomically(output, text);
        return 0;
    }
    if (!vm.count("quiet")) std::cout << runs::markdown_tables(spec, points, results);
    const bool plots_drawn = !draws || stored == 0 || draw_plots(spec, db, out_dir);
    const std::string how = !run                 ? "run the sweep without --no-run"
                            : backend == "slurm" ? "collect them with --collect once the Slurm job ends"
                                                 : "run the sweep again";
    const std::string not_run = stored < points.size()
                                    ? fmt::format(", {} not run yet ({})", points.size() - stored, how)
                                    : std::string();
    std::fprintf(stderr, "sweep %s: %zu of %s stored, %zu failed%s (%s)\n", spec.name.c_str(), stored,
                 counted(points.size(), "point").c_str(), failed, not_run.c_str(), db.c_str());
    return plots_drawn ? status : kExitUsage;
}

} // namespace pulpsim::cli
