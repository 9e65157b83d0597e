// pulpsim regress: run the entries of cycle baselines and fail when a region's cycles moved; write JUnit
// and markdown reports, bless deliberate changes (--update), start baselines (--init), keep a history.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <optional>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "cli/cli_common.hpp"
#include "cluster/printable.hpp"
#include "cluster/report.hpp"
#include "runs/baseline.hpp"
#include "runs/point_runner.hpp"
#include "runs/results_store.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace pulpsim::cli {
namespace {

bool failing(runs::Verdict v, bool allow_faster) {
    return v == runs::Verdict::Slower || v == runs::Verdict::Missing || v == runs::Verdict::Failed ||
           (v == runs::Verdict::Faster && !allow_faster);
}

std::string delta_text(const runs::RegressRow& r) {
    if (r.baseline == 0 || r.now == 0) return "";
    const auto d = static_cast<int64_t>(r.now) - static_cast<int64_t>(r.baseline);
    return fmt::format("{:+}", d);
}

std::string percent_text(const runs::RegressRow& r) {
    if (r.baseline == 0 || r.now == 0) return "";
    return fmt::format("{:+.2f}%", 100.0 * (static_cast<double>(r.now) - static_cast<double>(r.baseline)) /
                                       static_cast<double>(r.baseline));
}

std::string xml_escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += static_cast<unsigned char>(c) < 0x20 && c != '\n' ? ' ' : c;
        }
    }
    return out;
}

std::string failure_text(const runs::RegressRow& r) {
    switch (r.verdict) {
    case runs::Verdict::Slower:
    case runs::Verdict::Faster:
        return fmt::format("{} {}: {} cycles, baseline {}, delta {} ({}){}{}", r.entry, r.region, r.now,
                           r.baseline, delta_text(r), percent_text(r), r.message.empty() ? "" : "; ",
                           r.message);
    case runs::Verdict::Missing:
        return fmt::format("{} {}: region missing (baseline {} cycles)", r.entry, r.region, r.baseline);
    case runs::Verdict::Failed: return fmt::format("{}: {}", r.entry, r.message);
    default: return "";
    }
}

// JUnit XML: a region that moved or is missing is a <failure> with the numbers; an entry that did not run
// (no program, a failing program, the cycle limit) is an <error> with its one-line message.
std::string junit(const std::string& suite, const std::vector<runs::RegressRow>& rows, bool allow_faster) {
    size_t failures = 0, errors = 0;
    for (const auto& r : rows) {
        errors += r.verdict == runs::Verdict::Failed ? 1 : 0;
        failures += r.verdict != runs::Verdict::Failed && failing(r.verdict, allow_faster) ? 1 : 0;
    }
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"pulpsim regress\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
                       rows.size(), failures, errors);
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n",
                       xml_escaped(suite), rows.size(), failures, errors);
    for (const auto& r : rows) {
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_escaped(r.entry),
                           xml_escaped(r.region.empty() ? "(run)" : r.region));
        const bool moved = r.verdict == runs::Verdict::Slower || r.verdict == runs::Verdict::Faster;
        if (r.verdict == runs::Verdict::Failed)
            out += fmt::format(">\n      <error message=\"{}\" type=\"failed\">{}</error>\n    </testcase>\n",
                               xml_escaped(failure_text(r)), xml_escaped(r.message));
        else if (failing(r.verdict, allow_faster))
            out += fmt::format(
                ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                xml_escaped(failure_text(r)), runs::to_string(r.verdict),
                xml_escaped(moved ? fmt::format("baseline {} cycles, now {} cycles, delta {} {}{}{}",
                                                r.baseline, r.now, delta_text(r), percent_text(r),
                                                r.message.empty() ? "" : "; ", r.message)
                                  : failure_text(r)));
        else
            out +=
                fmt::format(">\n      <system-out>{} {} cycles (baseline {})</system-out>\n    </testcase>\n",
                            runs::to_string(r.verdict), r.now, r.baseline);
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string markdown(const std::string& suite, const std::vector<runs::RegressRow>& rows, bool allow_faster) {
    std::map<std::string, size_t> counts;
    for (const auto& r : rows)
        ++counts[runs::to_string(r.verdict)];
    size_t failures = 0;
    for (const auto& r : rows)
        failures += failing(r.verdict, allow_faster) ? 1 : 0;
    std::string out = fmt::format("### pulpsim regress `{}`: {}\n\n", suite, failures ? "FAILED" : "passed");
    std::string summary;
    for (const auto& [k, n] : counts)
        summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, k);
    out += fmt::format("{} regions: {}\n\n", rows.size(), summary);
    // A cell's text: a '|' would end the cell, a line break the row.
    const auto cell = [](const std::string& s) {
        std::string out;
        for (char c : s)
            out += c == '|'                 ? std::string("\\|")
                   : c == '\n' || c == '\r' ? std::string(" ")
                                            : std::string(1, c);
        return out;
    };
    const auto count = [](uint64_t v) { return v ? std::to_string(v) : std::string(); }; // none: empty
    auto table = [&](bool changed) {
        std::string t = "| entry | region | baseline | now | delta | delta % | verdict "
                        "|\n|---|---|---:|---:|---:|---:|---|\n";
        for (const auto& r : rows)
            if ((r.verdict != runs::Verdict::Ok) == changed)
                t += fmt::format("| {} | {} | {} | {} | {} | {} | {}{} |\n", cell(r.entry), cell(r.region),
                                 count(r.baseline), count(r.now), delta_text(r), percent_text(r),
                                 runs::to_string(r.verdict), r.message.empty() ? "" : ": " + cell(r.message));
        return t;
    };
    if (counts.size() > 1 || !counts.count("ok")) out += "Changed:\n\n" + table(true) + "\n";
    if (counts.count("ok"))
        out += "<details><summary>Unchanged regions</summary>\n\n" + table(false) + "\n</details>\n";
    return out;
}

std::string git_commit() {
    for (const char* var : {"GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT"})
        if (const char* v = std::getenv(var); v && *v) return v;
    std::string out;
    if (FILE* p = popen("git rev-parse HEAD 2>/dev/null", "r")) {
        char buf[128];
        while (std::fgets(buf, sizeof buf, p))
            out += buf;
        pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    return out;
}

void create_history(runs::ResultsStore& store) {
    store.query(
        "CREATE TABLE IF NOT EXISTS regress_runs (id INTEGER PRIMARY KEY, started_at TEXT, git_commit TEXT,"
        " baseline TEXT, simulator TEXT, failures INTEGER)");
    store.query(
        "CREATE TABLE IF NOT EXISTS regress_regions (run_id INTEGER REFERENCES regress_runs(id), entry TEXT,"
        " region TEXT, baseline INTEGER, cycles INTEGER, verdict TEXT)");
}

void append_history(runs::ResultsStore& store, const std::string& baseline, const std::string& version,
                    const std::vector<runs::RegressRow>& rows, size_t failures) {
    create_history(store);
    store.query("BEGIN IMMEDIATE");
    try {
        const auto id = store.query(
            "INSERT INTO regress_runs (started_at, git_commit, baseline, simulator, failures)"
            " VALUES (?, ?, ?, ?, ?) RETURNING id",
            {runs::utc_timestamp(), git_commit(), baseline, version, static_cast<int64_t>(failures)});
        for (const auto& r : rows)
            store.query("INSERT INTO regress_regions VALUES (?, ?, ?, ?, ?, ?)",
                        {id.rows.at(0).at(0), r.entry, r.region, static_cast<int64_t>(r.baseline),
                         static_cast<int64_t>(r.now), std::string(runs::to_string(r.verdict))});
        store.query("COMMIT");
    } catch (...) {
        store.query("ROLLBACK");
        throw;
    }
}

int trend(const std::string& history, const std::string& entry, const std::string& region,
          const std::string& plot) {
    if (!fs::is_regular_file(history)) throw UsageError(fmt::format("--history {}: no such file", history));
    const runs::ResultsStore store(history, runs::ResultsStore::ReadOnly{"regress_runs", "recorded runs"});
    // A series is one baseline file's: two files may name the same entries (one per platform, say) and share
    // a history, and their runs interleaved would read as swings.
    const auto q = store.query("SELECT r.id, r.started_at, substr(r.git_commit, 1, 10), g.entry, g.region, "
                               "g.cycles, r.baseline FROM regress_runs r"
                               " JOIN regress_regions g ON g.run_id = r.id WHERE (? = '' OR g.entry = ?) AND "
                               "(? = '' OR g.region = ?)"
                               " AND g.cycles > 0 ORDER BY r.baseline, g.entry, g.region, r.id",
                               {entry, entry, region, region});
    if (q.rows.empty())
        throw UsageError(fmt::format("{}: no recorded runs{}{}", history,
                                     entry.empty() ? "" : " of entry " + entry,
                                     region.empty() ? "" : " region " + region));
    const bool baselines =
        std::ranges::any_of(q.rows, [&](const auto& row) { return row[6] != q.rows[0][6]; });
    size_t width = 8;
    for (const auto& row : q.rows)
        width = std::max(width, printable(runs::to_text(row[6])).size());
    std::cout << fmt::format("{:<5} {:<20} {:<10} {}{:<24} {:<18} {:>12}\n", "run", "date", "commit",
                             baselines ? fmt::format("{:<{}} ", "baseline", width) : "", "entry", "region",
                             "cycles");
    for (const auto& row : q.rows)
        std::cout << fmt::format(
            "{:<5} {:<20} {:<10} {}{:<24} {:<18} {:>12}\n", runs::to_text(row[0]), runs::to_text(row[1]),
            runs::to_text(row[2]),
            baselines ? fmt::format("{:<{}} ", printable(runs::to_text(row[6])), width) : "",
            printable(runs::to_text(row[3])), printable(runs::to_text(row[4])), runs::to_text(row[5]));
    if (!plot.empty()) {
        const std::string script = PULPSIM_SCRIPTS_DIR "/plot_trend.py";
        std::string why;
        const int rc = run_python_script(
            script, {"--history", history, "--entry", entry, "--region", region, "--out", plot}, why);
        if (rc != 0)
            throw std::runtime_error(fmt::format("--plot {}: the plot failed ({}: {})", plot, script,
                                                 why.empty() ? "it did not run" : why));
    }
    return 0;
}

} // namespace

int command_regress(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim regress BASELINE.yaml [options]\n"
        "       pulpsim regress --init OUT.yaml [--platform FILE] [--set KEY=VALUE]... PROGRAM.elf...\n"
        "       pulpsim regress --trend --history DB [--entry NAME] [--region NAME] [--plot FILE.png]\n\n"
        "Runs every entry of a cycle baseline (in parallel, one process each) and prints one row per entry "
        "and\n"
        "region: baseline, now, delta, verdict (ok, slower, faster = a stale baseline, new, missing, "
        "failed).\n\n"
        "options");
    std::vector<std::string> positional, sets;
    std::string junit_path, markdown_path, history, init_out, platform_file, entry, region, plot, max_cycles;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    desc.add_options()("help,h", "show this help")("jobs,j", po::value(&jobs)->value_name("N"),
                                                   "entries at once (default: all cores)")(
        "allow-faster",
        "a region faster than its baseline passes (it fails by default: the baseline is stale)")(
        "junit", po::value(&junit_path)->value_name("FILE"), "write a JUnit XML report")(
        "markdown", po::value(&markdown_path)->value_name("FILE"), "write a markdown summary")(
        "update",
        "rewrite the changed numbers in the baseline file (bless a deliberate change); exit status 1 if an "
        "entry failed (its numbers stay)")("init", po::value(&init_out)->value_name("OUT.yaml"),
                                           "write a first baseline for the given programs")(
        "platform", po::value(&platform_file)->value_name("FILE"), "--init: the platform of the entries")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "--init: overrides of the entries; otherwise settings added to every entry, whose counts must still "
        "match (e.g. engine.reference_loop=true)")(
        "history", po::value(&history)->value_name("DB"),
        "append this run to a SQLite history (or read it: --trend)")(
        "trend", "print (and with --plot draw) a region's cycles over the recorded runs")(
        "entry", po::value(&entry)->value_name("NAME"), "--trend: only this entry")(
        "region", po::value(&region)->value_name("NAME"),
        "--trend: only this region")("plot", po::value(&plot)->value_name("FILE"),
                                     "--trend: draw the trend into FILE (.png, .svg or .pdf)")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "stop each entry after N cycles, as failed (default: the file's max_cycles:, else 1e10)")(
        "quiet,q", "print only regions that are not ok");
    po::options_description hidden;
    hidden.add_options()("input", po::value(&positional)->composing());
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("input", -1);
    po::variables_map vm;
    try {
        po::store(parse_command_line(args, all, &pos), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("regress: {}", e.what()));
    }
    if (vm.count("help")) {
        std::cout << desc
                  << "\nexit status: 0 every region within tolerance; 1 a region slower, missing, failed, or "
                     "faster\n"
                     "(unless --allow-faster); with --update 0, or 1 if an entry failed; 2 bad input; 130\n"
                     "interrupted.\n";
        return 0;
    }
    // An option of another mode would be ignored: refuse it.
    const bool trend_mode = vm.count("trend") > 0, init_mode = vm.count("init") > 0;
    const auto refuse = [&](std::initializer_list<const char*> options, const std::string& why) {
        for (const char* o : options)
            if (vm.count(o)) throw UsageError(fmt::format("regress: --{} {}", o, why));
    };
    if (!trend_mode) refuse({"entry", "region", "plot"}, "needs --trend");
    if (!init_mode) refuse({"platform"}, "needs --init (a baseline file names the platforms of its entries)");
    if (trend_mode) {
        refuse({"init", "update", "junit", "markdown", "set", "jobs", "allow-faster", "quiet", "max-cycles"},
               "does not go with --trend");
        if (!positional.empty())
            throw UsageError(fmt::format("regress --trend: reads the history, not '{}'", positional[0]));
        if (history.empty()) throw UsageError("--trend needs --history DB");
        if (vm.count("plot")) {
            check_plot_path("--plot", plot);
            check_outputs_apart({{"--plot", plot}}, database_files("--history", history));
        }
        return trend(history, entry, region, plot);
    }
    if (init_mode)
        refuse({"update", "junit", "markdown", "history", "allow-faster", "quiet"},
               "does not go with --init");
    if (jobs == 0) throw UsageError("--jobs: must be at least 1");
    // Found before the entries run, not after.
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const auto& [option, path] :
         {std::pair{"junit", junit_path}, std::pair{"markdown", markdown_path}, std::pair{"init", init_out}})
        if (vm.count(option)) {
            check_output_option(fmt::format("--{}", option), path);
            outputs.emplace_back(fmt::format("--{}", option), path);
        }
    if (vm.count("history") && history.empty()) throw UsageError("--history: an empty path");
    std::optional<uint64_t> cycle_limit;
    if (vm.count("max-cycles")) {
        cycle_limit = parse_number("--max-cycles", max_cycles);
        if (*cycle_limit == 0) throw UsageError("--max-cycles: must be at least 1");
    }
    const std::string simulator = self_executable();
    const std::string version = runs::simulator_version(kVersion, simulator);
    const bool allow_faster = vm.count("allow-faster") > 0;

    runs::BaselineFile file;
    if (!init_out.empty()) {
        if (positional.empty()) throw UsageError("--init: give the programs to baseline");
        PlatformConfig config;
        if (!platform_file.empty()) config = load_platform(platform_file);
        apply_overrides(config, sets);
        std::set<std::string> names;
        for (const auto& program : positional) {
            runs::BaselineEntry e;
            e.name = fs::path(program).stem().string();
            for (int i = 2; !names.insert(e.name).second; ++i)
                e.name = fmt::format("{}_{}", fs::path(program).stem().string(), i);
            e.program = program;
            e.overrides = sets;
            e.point.program = program;
            e.point.config = config;
            e.point.config_yaml = to_yaml(config);
            e.point.max_cycles = runs::kDefaultMaxCycles;
            file.entries.push_back(std::move(e));
        }
    } else {
        if (positional.size() != 1)
            throw UsageError("regress: give one baseline file (usage: pulpsim regress FILE)");
        file = runs::load_baseline(positional[0]);
        if (!sets.empty()) {
            // Numbers measured under other settings are not a baseline: never bless them.
            if (vm.count("update")) throw UsageError("regress: --update and --set exclude each other");
            for (auto& e : file.entries) {
                apply_overrides(e.point.config, sets);
                e.point.config_yaml = to_yaml(e.point.config);
            }
        }
    }

    if (cycle_limit)
        for (auto& e : file.entries)
            e.point.max_cycles = *cycle_limit;
    // No report may replace what the run reads: the baseline file, its entries' programs and platforms.
    std::vector<std::pair<std::string, std::string>> inputs{{"--platform", platform_file}};
    if (!history.empty()) {
        const auto files = database_files("--history", history);
        inputs.insert(inputs.end(), files.begin(), files.end());
    }
    if (!init_mode) inputs.emplace_back("the baseline file", positional[0]);
    for (const auto& e : file.entries) {
        inputs.emplace_back(fmt::format("the program of entry {}", e.name), e.program);
        inputs.emplace_back(fmt::format("the platform of entry {}", e.name), e.platform_file);
    }
    check_outputs_apart(outputs, inputs);
    // A baseline holds choices of its own (tolerances, comments, entries left out): --init never replaces
    // one.
    std::error_code exists_error;
    if (init_mode && fs::symlink_status(init_out, exists_error).type() != fs::file_type::not_found)
        throw UsageError(fmt::format("--init: {} exists: --init starts a baseline; bring one up to date with "
                                     "`pulpsim regress {} --update`",
                                     init_out, init_out));
    // The history is opened (its folder made, as for a sweep's database) before the entries run, so that
    // one it cannot open is an error at once. One this run creates is removed again unless the run is
    // appended to it: an interrupted or failed run leaves no empty database behind.
    const bool new_history =
        !history.empty() && fs::symlink_status(history, exists_error).type() == fs::file_type::not_found;
    struct RemovedUnlessKept {
        std::vector<std::string> files;
        bool keep = false;
        ~RemovedUnlessKept() {
            std::error_code ignored;
            if (!keep)
                for (const auto& f : files)
                    fs::remove(f, ignored);
        }
    } created_history;
    if (new_history)
        for (const auto& [what, file] : database_files("--history", history))
            created_history.files.push_back(file);
    std::optional<runs::ResultsStore> history_store; // closed before created_history removes its files
    if (!history.empty()) {
        make_parent_folder("--history", history);
        history_store.emplace(history);
    }

    // Run every entry whose program can be read; the others are failed entries.
    std::map<std::string, runs::PointResult> results;
    std::vector<const runs::DesignPoint*> order;
    std::map<const runs::DesignPoint*, std::string> entry_of;
    for (auto& e : file.entries) {
        try {
            e.point.program_hash = runs::file_hash(e.program);
            e.point.id = runs::point_identity(e.point, version);
            order.push_back(&e.point);
            entry_of[&e.point] = e.name;
        } catch (const std::exception& ex) {
            runs::PointResult r;
            r.exit_code = kExitUsage;
            r.error = fmt::format("program {}: no such file or not readable", e.program);
            results[e.name] = r;
        }
    }
    runs::RunnerOptions options;
    options.simulator = simulator;
    options.run_verb = point_run_verb();
    options.jobs = jobs;
    options.terminal = isatty(STDERR_FILENO) != 0;
    options.show_progress = options.terminal;
    options.label = "regress";
    if (runs::run_points(order, options, [&](const runs::DesignPoint& p, const runs::PointResult& r) {
            results[entry_of.at(&p)] = r;
        }) == runs::RunnerEnd::Interrupted) {
        std::fprintf(stderr, "regress: interrupted; %s\n",
                     init_mode ? "no baseline was written"
                               : "no report, update or history entry was written");
        return 130;
    }

    if (!init_out.empty()) {
        for (const auto& e : file.entries)
            if (!results.at(e.name).ok)
                throw UsageError(fmt::format("--init: {}: {}", e.program, results.at(e.name).error));
        write_file_atomically(init_out, runs::initial_baseline(file.entries, results, platform_file));
        std::fprintf(stderr, "regress: wrote %s (%s)\n", init_out.c_str(),
                     counted(file.entries.size(), "entry", "entries").c_str());
        return 0;
    }

    std::vector<runs::RegressRow> rows;
    for (const auto& e : file.entries)
        for (auto& r : runs::compare_entry(e, results.at(e.name)))
            rows.push_back(std::move(r));
    size_t failures = 0;
    for (const auto& r : rows)
        failures += failing(r.verdict, allow_faster) ? 1 : 0;

    const auto shown = [&](const runs::RegressRow& r) {
        return !vm.count("quiet") || r.verdict != runs::Verdict::Ok;
    };
    if (std::any_of(rows.begin(), rows.end(), shown))
        std::cout << fmt::format("{:<28} {:<20} {:>12} {:>12} {:>10} {:>9}  {}\n", "entry", "region",
                                 "baseline", "now", "delta", "delta%", "verdict");
    for (const auto& r : rows) {
        if (!shown(r)) continue;
        // Names and messages come from the programs and the file: shown escaped, never as terminal codes.
        std::cout << fmt::format("{:<28} {:<20} {:>12} {:>12} {:>10} {:>9}  {}{}\n", printable(r.entry),
                                 printable(r.region), r.baseline ? std::to_string(r.baseline) : "",
                                 r.now ? std::to_string(r.now) : "", delta_text(r), percent_text(r),
                                 runs::to_string(r.verdict),
                                 r.message.empty() ? "" : ": " + printable(r.message));
    }
    std::cout << fmt::format("{}: {} of {}, {} failing\n", file.path, counted(rows.size(), "region"),
                             counted(file.entries.size(), "entry", "entries"), failures);
    // The reports and the updated baseline are written all or none: a full disk or a baseline --update cannot
    // rewrite leaves none of them behind.
    std::vector<std::pair<std::string, std::string>> written;
    if (!junit_path.empty()) written.emplace_back(junit_path, junit(file.path, rows, allow_faster));
    if (!markdown_path.empty()) written.emplace_back(markdown_path, markdown(file.path, rows, allow_faster));
    const bool update = vm.count("update") > 0;
    const std::string updated = update ? runs::updated_baseline(file, results) : file.text;
    if (updated != file.text) written.emplace_back(file.path, updated);
    write_files_atomically(written);
    if (history_store) {
        append_history(*history_store, file.path, version, rows, failures);
        created_history.keep = true;
    }
    if (update) {
        if (updated != file.text) std::fprintf(stderr, "regress: updated %s\n", file.path.c_str());
        // A failed entry has no numbers to bless: the others are updated, the run still fails.
        std::vector<std::string> failed;
        for (const auto& e : file.entries)
            if (!results.at(e.name).ok) failed.push_back(e.name);
        if (!failed.empty()) {
            std::fprintf(stderr, "regress: %zu failed entries not updated: %s\n", failed.size(),
                         fmt::format("{}", fmt::join(failed, ", ")).c_str());
            return 1;
        }
        return 0;
    }
    return failures ? 1 : 0;
}

} // namespace pulpsim::cli
