// pulpsim run: one program on one platform, and its report.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>
#include <systemc>
#include <unistd.h>

#include "cli/cli_common.hpp"
#include "cluster/bare_system.hpp"
#include "cluster/cluster_system.hpp"
#include "cluster/platform_config.hpp"
#include "cluster/report.hpp"
#include "core/disassembler.hpp"
#include "memory/elf_image.hpp"
#include "views/profile.hpp"
#include "views/source_lines.hpp"
#include "views/trace.hpp"
#include "views/view_filter.hpp"

namespace po = boost::program_options;

namespace pulpsim::cli {

int command_run(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim run [--platform FILE | --bare] [options] PROGRAM.elf\n\n"
        "Runs PROGRAM.elf on a cluster platform (default: pulp-open, 8 cores) or, with\n"
        "--bare, on one core with flat memory.\n\noptions");
    std::string platform_file;
    std::vector<std::string> sets, symbols;
    std::string max_cycles = "10000000000", quantum, console, exit_addr, json_path, csv_path, memory_map,
                profile_json, trace_path, trace_cores, trace_window;
    std::vector<std::string> trace_regions;
    std::string log_level = "warn";
    desc.add_options()("help,h", "show this help")(
        "platform", po::value(&platform_file)->value_name("FILE"),
        "platform YAML (configs/platforms/pulp-open.yaml, vega.yaml); default: pulp-open")(
        "bare", "bare mode: one core, flat memory holding the ELF's segments and a stack")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "stop with an error after N cycles (default 1e10)")(
        "report-json", po::value(&json_path)->value_name("FILE"), "write the report as JSON to FILE")(
        "report-csv", po::value(&csv_path)->value_name("FILE"),
        "write the report as CSV to FILE")("profile", "print cycles, instructions and stalls per function")(
        "profile-lines", "--profile, then the same per source line (the ELF's DWARF line tables)")(
        "profile-annotate", "--profile, then the hottest function instruction by instruction")(
        "profile-json", po::value(&profile_json)->value_name("FILE"),
        "write the per-function and per-line profile, per core and summed, as JSON to FILE")(
        "trace", po::value(&trace_path)->value_name("FILE"),
        "write one line per retired instruction to FILE as the run goes: the cycle it issued, core, pc, "
        "function+offset, encoding, instruction, what it wrote, the stall cycles charged to it. FILE is "
        "created once every option has been checked; after a simulation error it holds the lines traced "
        "up to the error")("trace-cores", po::value(&trace_cores)->value_name("LIST"),
                           "trace only these cores, e.g. 0,3-5 (default: all)")(
        "trace-window", po::value(&trace_window)->value_name("FROM:TO"),
        "trace only the instructions issued in cycles FROM <= c < TO (FROM: or :TO leave one end open)")(
        "trace-region", po::value(&trace_regions)->value_name("NAME")->composing(),
        "trace only while the perf region NAME is open (repeatable)")(
        "console-addr", po::value(&console)->value_name("ADDR"),
        "memory-mapped console: a store to ADDR prints its low byte")(
        "exit-addr", po::value(&exit_addr)->value_name("ADDR"),
        "memory-mapped exit: a store to ADDR ends the run")(
        "memory", po::value(&memory_map)->value_name("MAP"),
        "bare mode: RAM regions the program is linked for, BASE:SIZE[,BASE:SIZE...] or a YAML file "
        "(instead of regions around its segments)")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a setting (repeatable): core.fpu_addmul_latency, core.fpu_other_latency, "
        "core.fdiv_latency, "
        "core.fdiv_exact_latency")("symbol", po::value(&symbols)->value_name("NAME=VALUE")->composing(),
                                   "store the 32-bit VALUE at the program's symbol NAME before the run "
                                   "(repeatable; a shape, a tile size, a kernel choice)")(
        "quantum", po::value(&quantum)->value_name("N"),
        "cycles between SystemC synchronisations (default 100000)")(
        "quiet,q", "do not print the report table")("progress",
                                                    "print progress to stderr even when not a terminal")(
        "log-level", po::value(&log_level)->value_name("LEVEL"),
        "trace, debug, info, warn (default), error, off");
    po::options_description hidden;
    std::string program;
    hidden.add_options()("program", po::value(&program));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("program", 1);

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("run: {}", e.what()));
    }
    if (vm.count("help")) {
        std::cout << desc
                  << "\nexit status: the program's exit code; 2 bad input; 3 simulation error (illegal\n"
                     "instruction, access outside memory, ...); 4 --max-cycles reached.\n";
        return 0;
    }
    const auto level = spdlog::level::from_str(log_level);
    if (level == spdlog::level::off && log_level != "off")
        throw UsageError(fmt::format("--log-level: unknown level '{}'", log_level));
    spdlog::set_level(level);
    if (program.empty()) throw UsageError("run: no program given (usage: pulpsim run [--bare] PROGRAM.elf)");
    const bool bare = vm.count("bare") > 0;
    if (bare && !platform_file.empty()) throw UsageError("run: --bare and --platform exclude each other");
    if (bare && !symbols.empty()) throw UsageError("run: --symbol needs a cluster platform, not --bare");
    std::vector<std::pair<std::string, uint32_t>> symbol_values;
    for (const std::string& s : symbols) {
        const size_t eq = s.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError(fmt::format("--symbol {}: expected NAME=VALUE", s));
        symbol_values.emplace_back(s.substr(0, eq),
                                   static_cast<uint32_t>(parse_number("--symbol " + s.substr(0, eq),
                                                                      s.substr(eq + 1), 0xffffffffu)));
    }
    if (!bare && (!console.empty() || !exit_addr.empty() || !memory_map.empty()))
        throw UsageError("run: --console-addr, --exit-addr and --memory belong to bare mode (add --bare)");
    const uint64_t cycle_limit = parse_number("--max-cycles", max_cycles);
    const bool show_progress = vm.count("progress") || isatty(STDERR_FILENO);

    pulpsim::PlatformConfig config;
    if (!platform_file.empty()) config = pulpsim::load_platform(platform_file);
    if (bare)
        for (const auto& s : sets)
            if (s.rfind("fpu.", 0) != 0)
                throw UsageError(fmt::format("--set {}: bare mode takes only the fpu.* timing keys", s));
    pulpsim::apply_overrides(config, sets);
    if (!quantum.empty()) {
        config.engine.quantum = parse_number("--quantum", quantum);
        if (config.engine.quantum == 0) throw UsageError("--quantum: must be at least 1");
    }

    // A report path that cannot take a file is bad input, found before the run rather than after it.
    for (const char* option : {"report-json", "report-csv", "profile-json"})
        if (vm.count(option)) pulpsim::check_output_path(vm[option].as<std::string>());
    const bool tracing = vm.count("trace") > 0;
    if (tracing) pulpsim::Trace::check_path(trace_path);
    if (!tracing)
        for (const char* option : {"trace-cores", "trace-window", "trace-region"})
            if (vm.count(option))
                throw UsageError(fmt::format("--{} filters the trace: it needs --trace FILE", option));
    const pulpsim::CycleWindow window = vm.count("trace-window")
                                            ? pulpsim::CycleWindow::parse("--trace-window", trace_window)
                                            : pulpsim::CycleWindow{};
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(program);
    pulpsim::check_region_names("--trace-region", trace_regions, elf);
    spdlog::info("{}: entry {:#010x}, {} segments", program, elf.entry(), elf.segments().size());

    pulpsim::RunOutcome outcome;
    pulpsim::RunView view;
    // Attached only when asked for: the cores then run their observed loop.
    const bool print_profile =
        vm.count("profile") || vm.count("profile-lines") || vm.count("profile-annotate");
    std::optional<pulpsim::SourceLines> source_lines;
    if (vm.count("profile-lines") || vm.count("profile-annotate") || vm.count("profile-json")) {
        const auto start = std::chrono::steady_clock::now();
        source_lines = pulpsim::SourceLines::load(program);
        if (source_lines->empty())
            spdlog::info("{}: no line tables ({})", program, source_lines->why_empty());
        spdlog::info(
            "{}: line tables read in {:.2f} ms", program,
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::optional<pulpsim::Profile> profile;
    if (print_profile || vm.count("profile-json"))
        profile.emplace(elf, source_lines ? &*source_lines : nullptr);
    std::optional<pulpsim::ViewFilter> trace_filter;
    std::optional<pulpsim::Trace> trace;
    // The cores exist once the platform is built: the filter is made then, the file opened just before the
    // run.
    auto make_trace = [&](unsigned cores, pulpsim::HostServices& host) {
        if (!tracing) return;
        trace_filter.emplace(window,
                             vm.count("trace-cores")
                                 ? pulpsim::parse_core_list("--trace-cores", trace_cores, cores)
                                 : std::vector<bool>{},
                             trace_regions);
        if (!trace_regions.empty()) trace_filter->follow_regions(host);
        trace.emplace(elf, *trace_filter);
    };
    std::unique_ptr<pulpsim::BareSystem> bare_system;
    std::unique_ptr<pulpsim::ClusterSystem> cluster_system;
    if (bare) {
        pulpsim::BareOptions options;
        options.timing = pulpsim::core_timing(config);
        options.max_cycles = cycle_limit;
        options.quantum = config.engine.quantum;
        if (!console.empty())
            options.console_addr =
                static_cast<uint32_t>(parse_number("--console-addr", console, 0xffffffffu));
        if (!exit_addr.empty())
            options.exit_addr = static_cast<uint32_t>(parse_number("--exit-addr", exit_addr, 0xffffffffu));
        options.show_progress = show_progress;
        if (!memory_map.empty()) options.memory_map = pulpsim::parse_memory_map(memory_map);
        bare_system = std::make_unique<pulpsim::BareSystem>("bare", elf, options);
        if (profile) profile->attach(bare_system->machine().hart());
        make_trace(1, bare_system->machine().host());
        if (trace) {
            trace->attach(bare_system->machine().hart());
            trace->open(trace_path);
        }
        sc_core::sc_start();
        outcome = bare_system->outcome();
        view = pulpsim::run_view(bare_system->machine());
    } else {
        pulpsim::ClusterOptions options;
        options.max_cycles = cycle_limit;
        options.show_progress = show_progress;
        cluster_system = std::make_unique<pulpsim::ClusterSystem>("cluster", elf, config, options);
        for (const auto& [name, value] : symbol_values)
            cluster_system->machine().write_symbol_word(name, value);
        if (profile)
            for (const auto& hart : cluster_system->machine().harts())
                profile->attach(*hart);
        make_trace(static_cast<unsigned>(cluster_system->machine().harts().size()),
                   cluster_system->machine().host());
        if (trace) {
            for (const auto& hart : cluster_system->machine().harts())
                trace->attach(*hart);
            trace->open(trace_path);
        }
        sc_core::sc_start();
        outcome = cluster_system->outcome();
        view = pulpsim::run_view(cluster_system->machine());
    }
    if (show_progress && outcome.host_seconds >= 2) std::fprintf(stderr, "\r%60s\r", "");
    std::fflush(stdout);
    if (trace)
        trace->close(outcome.kind == pulpsim::RunOutcome::Kind::Exit
                         ? std::string()
                         : fmt::format("the run stopped: {}", pulpsim::printable(outcome.message)));

    std::vector<std::pair<std::string, std::string>> reports;
    if (vm.count("report-json"))
        reports.emplace_back(json_path,
                             pulpsim::report_json(view, outcome)
                                     .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                 "\n");
    if (vm.count("report-csv")) reports.emplace_back(csv_path, pulpsim::report_csv(view, outcome));
    if (vm.count("profile-json"))
        reports.emplace_back(profile_json,
                             profile->json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                 "\n");
    pulpsim::write_files_atomically(reports);
    if (!vm.count("quiet")) pulpsim::print_report_table(std::cout, view, outcome);
    if (print_profile) {
        pulpsim::Profile::PrintOptions options;
        options.lines = vm.count("profile-lines") > 0;
        options.annotate = vm.count("profile-annotate") > 0;
        options.instruction_text = [](uint32_t pc, uint32_t encoding) {
            return pulpsim::disassemble(encoding, pc);
        };
        profile->print(std::cout, options);
    }
    if (outcome.kind != pulpsim::RunOutcome::Kind::Exit)
        spdlog::error("{}", pulpsim::printable(program + ": " + outcome.message));
    return outcome.exit_status;
}

} // namespace pulpsim::cli
