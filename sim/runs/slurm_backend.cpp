#include "runs/slurm_backend.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

#include "cluster/report.hpp"
#include "runs/child_process.hpp"
#include "runs/point_runner.hpp"

namespace fs = std::filesystem;

namespace pulpsim::runs {
namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Runs a Slurm client command, reading its output and its errors; throws a one-line error if it cannot run.
ChildOutcome slurm_command(const std::vector<std::string>& args) {
    ChildOutcome run = run_capturing(args, Capture::OutputAndErrors);
    if (run.status == 127)
        throw std::runtime_error(
            fmt::format("{}: not found (the Slurm backend needs Slurm's client commands, "
                        "Debian package slurm-client)",
                        args.front()));
    return run;
}

// A word of the job script: single quotes keep every character but the single quote itself.
std::string shell_quoted(const std::string& word) {
    std::string out = "'";
    for (const char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// sbatch expands %A, %a, %j... in --output; %% stands for a percent sign of the folder's name.
std::string sbatch_pattern_literal(const std::string& path) {
    std::string out;
    for (const char c : path)
        out += c == '%' ? std::string("%%") : std::string(1, c);
    return out;
}

nlohmann::json result_json(const std::string& id, const PointResult& r) {
    return {
        {"id", id},         {"ok", r.ok},         {"exit_code", r.exit_code},      {"signalled", r.signalled},
        {"error", r.error}, {"report", r.report}, {"host_seconds", r.host_seconds}};
}

} // namespace

size_t slurm_collect(const SlurmOptions& options, const std::vector<DesignPoint>& points, ResultsStore& store,
                     const std::string& simulator_version) {
    const fs::path results = fs::path(options.dir) / "results";
    std::error_code ec;
    if (!fs::is_directory(results, ec)) return 0;
    std::map<std::string, const DesignPoint*> by_id;
    for (const auto& p : points)
        by_id[p.id] = &p;
    size_t stored = 0;
    for (const auto& entry : fs::directory_iterator(results, ec)) {
        const fs::path file = entry.path();
        if (file.extension() != ".json") continue; // temporaries of a task still writing
        const auto it = by_id.find(file.stem().string());
        if (it == by_id.end()) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(read_text(file));
        } catch (const std::exception& e) {
            throw std::runtime_error(fmt::format("{}: not a result file: {}", file.string(), e.what()));
        }
        PointResult r;
        try {
            r.ok = j.at("ok").get<bool>();
            r.exit_code = j.at("exit_code").get<int>();
            r.signalled = j.at("signalled").get<bool>();
            r.error = j.at("error").get<std::string>();
            r.report = j.at("report").get<std::string>();
            r.host_seconds = j.at("host_seconds").get<double>();
        } catch (const std::exception& e) {
            throw std::runtime_error(fmt::format("{}: not a result file: {}", file.string(), e.what()));
        }
        store.put(*it->second, simulator_version, r);
        fs::remove(file, ec); // only after the store holds it: a kill in between collects it again
        ++stored;
    }
    return stored;
}

std::string slurm_active_job(const SlurmOptions& options) {
    const fs::path job_file = fs::path(options.dir) / "job_id";
    std::error_code ec;
    if (!fs::is_regular_file(job_file, ec)) return "";
    std::string id = read_text(job_file);
    id.erase(id.find_last_not_of(" \n") + 1);
    if (id.empty()) return "";
    // A job Slurm no longer knows is an error to squeue ("Invalid job id specified"): not active. Any other
    // error (the controller down) leaves the job's state unknown, which is not "ended".
    const ChildOutcome listed = slurm_command({"squeue", "-h", "-j", id, "-o", "%i"});
    if (listed.status != 0 && listed.errors.find("Invalid job id") == std::string::npos) {
        const std::string why = listed.last_error_line();
        throw std::runtime_error(
            fmt::format("squeue cannot say whether Slurm job {} still runs (exit status {}){}", id,
                        listed.status, why.empty() ? "" : ": " + why));
    }
    return listed.status == 0 && listed.output.find_first_not_of(" \n") != std::string::npos ? id : "";
}

void slurm_wait(const SlurmOptions& options, const std::string& job) {
    // squeue lists an array job while any of its tasks is pending, running or completing. A short job is
    // seen to end soon; a long one costs the controller a query every 10 s.
    using std::chrono::milliseconds;
    for (milliseconds pause{250}; slurm_active_job(options) == job;
         pause = std::min(pause * 2, milliseconds{10000}))
        std::this_thread::sleep_for(pause);
}

std::string slurm_submit(const SlurmOptions& options, const std::vector<const DesignPoint*>& pending,
                         const std::string& simulator, const std::string& simulator_version,
                         const std::string& label) {
    const fs::path dir = fs::absolute(options.dir);
    for (const char* sub : {"results", "logs"}) {
        std::error_code ec;
        if (fs::create_directories(dir / sub, ec); ec)
            throw std::runtime_error(
                fmt::format("{}: cannot make the Slurm folder: {}", (dir / sub).string(), ec.message()));
    }
    // Each submission has a folder of its own: a later one never rewrites the manifest that an earlier job's
    // pending tasks are still to read.
    const fs::path submissions = dir / "submissions";
    std::error_code ec;
    fs::create_directories(submissions, ec);
    std::string folder_template = (submissions / "XXXXXX").string();
    if (ec || mkdtemp(folder_template.data()) == nullptr)
        throw std::runtime_error(fmt::format("{}: cannot make the submission folder: {}",
                                             submissions.string(), ec ? ec.message() : std::strerror(errno)));
    const fs::path submission = folder_template;
    // sbatch refused it or could not run: no folder stays behind to be taken for a submission.
    struct RemoveUnlessKept {
        fs::path folder;
        bool keep = false;
        ~RemoveUnlessKept() {
            std::error_code ignored;
            if (!keep) fs::remove_all(folder, ignored);
        }
    } guard{submission};
    nlohmann::json manifest;
    manifest["simulator_version"] = simulator_version;
    manifest["results"] = (dir / "results").string();
    const size_t tasks = std::min<size_t>(pending.size(), std::max(1u, options.max_tasks));
    manifest["tasks"] = tasks;
    nlohmann::json list = nlohmann::json::array();
    for (const DesignPoint* p : pending) {
        nlohmann::json symbols = nlohmann::json::array();
        for (const auto& [name, value] : p->symbols)
            symbols.push_back({name, value});
        list.push_back({{"id", p->id},
                        {"program", fs::absolute(p->program).string()},
                        {"program_hash", p->program_hash},
                        {"config", p->config_yaml},
                        {"max_cycles", p->max_cycles},
                        {"symbols", symbols}});
    }
    manifest["points"] = std::move(list);
    write_file_atomically((submission / "manifest.json").string(), manifest.dump() + "\n");

    std::string script = "#!/bin/sh\n# One array task: a slice of the points in manifest.json.\n";
    script += fmt::format("exec {} sweep --worker {} --task \"$SLURM_ARRAY_TASK_ID\" --jobs {}\n",
                          shell_quoted(simulator), shell_quoted(submission.string()), options.cpus_per_task);
    write_file_atomically((submission / "job.sh").string(), script);

    std::vector<std::string> args = {
        "sbatch",
        "--parsable",
        "--job-name=pulpsim-" + label,
        fmt::format("--array=0-{}{}", tasks - 1,
                    options.throttle ? fmt::format("%{}", options.throttle) : ""),
        fmt::format("--cpus-per-task={}", options.cpus_per_task),
        "--output=" + sbatch_pattern_literal((dir / "logs").string()) + "/%A_%a.out",
        "--chdir=" + dir.string()};
    if (!options.partition.empty()) args.push_back("--partition=" + options.partition);
    if (!options.time_limit.empty()) args.push_back("--time=" + options.time_limit);
    args.push_back((submission / "job.sh").string());
    const ChildOutcome run = slurm_command(args);
    const std::string id = run.output.substr(0, run.output.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        const std::string why = run.last_error_line();
        throw std::runtime_error(fmt::format("sbatch did not accept the job (exit status {}){}", run.status,
                                             why.empty() ? "" : ": " + why));
    }
    // Accepted: its warnings are the user's to read.
    std::fwrite(run.errors.data(), 1, run.errors.size(), stderr);
    guard.keep = true;
    // Written at once, not after a wait: a second submission while this job runs is then refused.
    write_file_atomically((dir / "job_id").string(), id + "\n");
    return id;
}

size_t slurm_worker(const std::string& submission, unsigned task, const std::string& simulator,
                    const std::string& simulator_version, unsigned jobs,
                    const std::function<int(const std::vector<std::string>&)>& run_verb) {
    const fs::path manifest_path = fs::path(submission) / "manifest.json";
    nlohmann::json manifest;
    fs::path results;
    try {
        manifest = nlohmann::json::parse(read_text(manifest_path));
        results = manifest.at("results").get<std::string>();
    } catch (const std::exception& e) {
        throw std::runtime_error(
            fmt::format("{}: cannot read the manifest: {}", manifest_path.string(), e.what()));
    }
    const std::string wanted = manifest.at("simulator_version").get<std::string>();
    if (wanted != simulator_version)
        throw std::runtime_error(fmt::format("{}: this simulator is {}, the sweep was submitted with {} "
                                             "(the executable changed since)",
                                             simulator, simulator_version, wanted));
    const size_t tasks = manifest.at("tasks").get<size_t>();
    std::vector<DesignPoint> points;
    const auto& list = manifest.at("points");
    for (size_t i = task; i < list.size(); i += tasks) {
        const std::string id = list[i].at("id").get<std::string>();
        std::error_code ec;
        if (fs::exists(results / (id + ".json"), ec)) continue;
        DesignPoint p;
        p.id = id;
        p.program = list[i].at("program").get<std::string>();
        p.program_hash = list[i].at("program_hash").get<std::string>();
        p.config_yaml = list[i].at("config").get<std::string>();
        p.max_cycles = list[i].at("max_cycles").get<uint64_t>();
        for (const auto& symbol : list[i].value("symbols", nlohmann::json::array()))
            p.symbols.emplace_back(symbol.at(0).get<std::string>(), symbol.at(1).get<uint32_t>());
        points.push_back(std::move(p));
    }
    std::vector<const DesignPoint*> order;
    for (const auto& p : points)
        order.push_back(&p);
    RunnerOptions options;
    options.simulator = simulator;
    options.run_verb = run_verb;
    options.jobs = jobs;
    options.show_progress = false;
    size_t failed = 0;
    run_points(order, options, [&](const DesignPoint& p, const PointResult& r) {
        write_file_atomically((results / (p.id + ".json")).string(), result_json(p.id, r).dump() + "\n");
        failed += r.ok ? 0 : 1;
    });
    return failed;
}

} // namespace pulpsim::runs
