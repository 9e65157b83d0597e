// pulpsim run: one program on one platform, and its report.
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <pthread.h>
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
#include "views/activity.hpp"
#include "views/profile.hpp"
#include "views/source_lines.hpp"
#include "views/timeline.hpp"
#include "views/trace.hpp"
#include "views/vcd.hpp"
#include "views/view_filter.hpp"

namespace po = boost::program_options;

namespace pulpsim::cli {
namespace {

// One warning, saying why, when the views show not one cycle of the run.
void warn_if_nothing_shown(const pulpsim::ViewFilter& filter, const pulpsim::RunView& view, uint64_t end,
                           const std::optional<pulpsim::ActivityRecorder>& activity,
                           const std::optional<pulpsim::Profile>& profile) {
    bool shown = activity && !activity->shown().empty();
    if (!activity && profile)
        for (const auto& f : profile->functions())
            shown = shown || f.total.cycles > 0;
    if (shown) return;
    const pulpsim::ViewFilter regions({}, {}, filter.regions()), window(filter.window());
    const auto& ran = view.host->regions();
    if (filter.regions().empty())
        spdlog::warn("the views show no cycles: the run's {} cycles end before {}", end, filter.describe());
    else if (std::none_of(ran.begin(), ran.end(),
                          [&](const auto& r) { return r.count > 0 && filter.names_region(r.name); })) {
        std::string names;
        for (const std::string& name : filter.regions())
            names += fmt::format("{}'{}'", names.empty() ? "" : ", ", name);
        spdlog::warn("--view-region: region{} {} never ran; the views show no cycles",
                     filter.regions().size() == 1 ? "" : "s", names);
    } else if (!filter.window().whole())
        spdlog::warn("the views show no cycles: {} lie outside {}", regions.describe(), window.describe());
    else
        spdlog::warn("the views show no cycles: {} close in the cycle they open", regions.describe());
}

// No instruction does more than 4 MACs (cv.sdotsp.b and its kin; FP16 dot products do 2), and a core issues
// at most one per cycle: a region declaring more than that per core and cycle declared a wrong MAC count.
void warn_if_macs_impossible(const pulpsim::RunView& view) {
    constexpr uint64_t kMostMacsPerInstruction = 4;
    const uint64_t bound = kMostMacsPerInstruction * view.harts.size();
    for (const auto& r : view.host->regions())
        if (r.count > 0 && r.macs > bound * std::max<uint64_t>(r.cycles, 1))
            spdlog::warn(
                "region '{}' declares {} MACs in {} cycles, more than {} core{} can do at {} MACs per "
                "cycle each: its MAC/cycle is wrong; check the MAC count the program gives it",
                pulpsim::printable(r.name), r.macs, r.cycles, view.harts.size(),
                view.harts.size() == 1 ? "" : "s", kMostMacsPerInstruction);
}

// An exit with status 0 closes the regions a program left open, so that they still count; a missing
// region_end() then moves the region's end to the exit, with whatever ran after the kernel.
void warn_if_regions_left_open(const pulpsim::RunView& view) {
    for (const auto& r : view.host->regions())
        if (r.closed_at_exit > 0)
            spdlog::warn("region '{}' was still open when the program exited: it counts up to the exit (a "
                         "region_end() missing?)",
                         pulpsim::printable(r.name));
}

// A failing exit leaves its regions open; naming the innermost says which step of a long program failed.
void warn_if_failed_in_region(const pulpsim::RunView& view, const pulpsim::RunOutcome& outcome) {
    if (outcome.kind != pulpsim::RunOutcome::Kind::Exit || outcome.exit_value == 0) return;
    const auto open = view.host->open_region_names();
    if (open.empty()) return;
    std::string inside;
    for (auto r = open.rbegin() + 1; r != open.rend(); ++r)
        inside += fmt::format("{}'{}'", inside.empty() ? " (inside " : ", inside ", pulpsim::printable(*r));
    spdlog::warn("the program exited with status {} in region '{}'{}: the region's figures are no result",
                 outcome.exit_value, pulpsim::printable(open.back()), inside.empty() ? "" : inside + ")");
}

// SIGINT, SIGTERM and SIGHUP wait, blocked, while the models run, and are looked for between two slices of
// the run: the trace can then end as it ends after an error, and no report is written. Signals the caller
// set to be ignored stay ignored.
class Interrupts {
  public:
    Interrupts() {
        sigemptyset(&set_);
        for (int s : kSignals) {
            struct sigaction action{};
            if (sigaction(s, nullptr, &action) == 0 && action.sa_handler != SIG_IGN) sigaddset(&set_, s);
        }
        pthread_sigmask(SIG_BLOCK, &set_, &old_);
    }
    ~Interrupts() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    Interrupts(const Interrupts&) = delete;
    Interrupts& operator=(const Interrupts&) = delete;

    // The signal waiting to be delivered, or 0.
    int pending() const {
        sigset_t waiting;
        if (sigpending(&waiting) != 0) return 0;
        for (int s : kSignals)
            if (sigismember(&set_, s) && sigismember(&waiting, s)) return s;
        return 0;
    }
    // Ends the process by `signal` with its default action, as if it had never been blocked: a shell or the
    // sweep runner sees an interrupted run. Not [[noreturn]]: AddressSanitizer would warn, at such a call,
    // about the stacks SystemC switched; the caller returns 128 + signal should the signal not end it.
    void die_of(int signal) {
        std::fflush(nullptr);
        struct sigaction action{};
        action.sa_handler = SIG_DFL;
        sigemptyset(&action.sa_mask);
        sigaction(signal, &action, nullptr);
        pthread_sigmask(SIG_SETMASK, &old_, nullptr);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signal);
        pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
        std::raise(signal);
    }

  private:
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t set_{}, old_{};
};

std::string signal_name(int signal) {
    switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return fmt::format("signal {}", signal);
    }
}

// Runs the elaborated platform to its end in slices of `slice_cycles` (1 ns each), looking for an
// interrupt between them; returns the signal that interrupted it, or 0.
int run_in_slices(uint64_t slice_cycles, const Interrupts& interrupts) {
    const sc_core::sc_time slice(static_cast<double>(slice_cycles), sc_core::SC_NS);
    while (sc_core::sc_get_status() != sc_core::SC_STOPPED && !sc_core::sc_end_of_simulation_invoked()) {
        sc_core::sc_start(slice);
        if (const int signal = interrupts.pending()) return signal;
    }
    return 0;
}

// The words the RISC-V architectural tests compare, between two symbols their model header defines.
struct SignatureRange {
    uint32_t begin = 0;
    uint32_t bytes = 0;
};

SignatureRange signature_range(const std::string& program, const pulpsim::ElfImage& elf) {
    const auto begin = elf.symbol("begin_signature");
    const auto end = elf.symbol("end_signature");
    if (!begin || !end)
        throw std::runtime_error(fmt::format("{}: --signature needs the symbols begin_signature and "
                                             "end_signature; the program has no {}",
                                             program, begin ? "end_signature" : "begin_signature"));
    if (*end < *begin || (*end - *begin) % 4 != 0 || *begin % 4 != 0)
        throw std::runtime_error(fmt::format("{}: begin_signature {:#010x} and end_signature {:#010x} do not "
                                             "mark whole aligned words",
                                             program, *begin, *end));
    return {*begin, *end - *begin};
}

} // namespace

int command_run(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim run [--platform FILE | --bare] [options] PROGRAM.elf\n\n"
        "Runs PROGRAM.elf on a cluster platform (default: pulp-open, 8 cores) or, with\n"
        "--bare, on one core with flat memory.\n\noptions");
    std::string platform_file;
    std::vector<std::string> sets, symbols;
    std::string max_cycles = "10000000000", quantum, console, exit_addr, json_path, csv_path, memory_map,
                profile_json, vcd_path, timeline_path, view_window, trace_path, trace_cores, trace_window,
                signature_path;
    std::vector<std::string> trace_regions, view_regions;
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
        "created once every option has been checked; after a simulation error or an interrupt (SIGINT, "
        "SIGTERM, SIGHUP) it holds the lines traced up to it and a last '# the run stopped: ...' line")(
        "trace-cores", po::value(&trace_cores)->value_name("LIST"),
        "trace only these cores, e.g. 0,3-5 (default: all)")(
        "trace-window", po::value(&trace_window)->value_name("FROM:TO"),
        "trace only the instructions issued in cycles FROM <= c < TO (FROM: or :TO leave one end open)")(
        "trace-region", po::value(&trace_regions)->value_name("NAME")->composing(),
        "trace only while the perf region NAME is open (repeatable)")(
        "vcd", po::value(&vcd_path)->value_name("FILE"),
        "write what every core, FPU, TCDM bank, DMA channel and the event unit did in each cycle as a VCD to "
        "FILE, and a GTKWave save file showing it grouped to FILE.gtkw (gtkwave FILE.gtkw)")(
        "timeline", po::value(&timeline_path)->value_name("FILE"),
        "write a timeline of the run (per core: perf regions, functions, sleeps; DMA transfers; MAC/cycle) "
        "as "
        "Chrome trace-event JSON to FILE, for ui.perfetto.dev or chrome://tracing (1 us = 1 cycle)")(
        "view-window", po::value(&view_window)->value_name("FROM:TO"),
        "--vcd, --timeline and --profile show only cycles FROM to TO (either may be left out)")(
        "view-region", po::value(&view_regions)->value_name("NAME")->composing(),
        "--vcd, --timeline and --profile show only the runs of perf region NAME (repeatable)")(
        "console-addr", po::value(&console)->value_name("ADDR"),
        "memory-mapped console: a store to ADDR prints its low byte")(
        "exit-addr", po::value(&exit_addr)->value_name("ADDR"),
        "memory-mapped exit: a store to ADDR ends the run")(
        "signature", po::value(&signature_path)->value_name("FILE"),
        "bare mode: after the run, write the memory from the program's begin_signature to its "
        "end_signature symbol to FILE, one 32-bit word per line as 8 hex digits (the signature of the "
        "RISC-V architectural tests); only when the program exits (a run that ends otherwise removes FILE)")(
        "memory", po::value(&memory_map)->value_name("MAP"),
        "bare mode: RAM regions the program is linked for, BASE:SIZE[,BASE:SIZE...] or a YAML file "
        "(instead of regions around its segments)")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a platform setting (repeatable): any key of a platform file as SECTION.KEY, such as "
        "tcdm.size=128KiB, dma.bandwidth_bits=32, event_unit.wake_latency=2; bare mode takes only the FPU "
        "timing keys fpu.addmul_latency=1, fpu.other_latency=1, fpu.divsqrt_latency=15, "
        "fpu.divsqrt_exact_latency=4")("symbol", po::value(&symbols)->value_name("NAME=VALUE")->composing(),
                                       "store the 32-bit VALUE at the program's symbol NAME before the run "
                                       "(repeatable; a shape, a tile size, a kernel choice)")(
        "quantum", po::value(&quantum)->value_name("N"),
        "cycles between SystemC synchronisations (default 100000)")(
        "quiet,q", "do not print the report table")("progress",
                                                    "print progress to stderr even when not a terminal")(
        "log-level", po::value(&log_level)->value_name("LEVEL"),
        "trace, debug, info, warn (default), error, off (as error: a failing run's one-line error always "
        "shows)");
    po::options_description hidden;
    std::string program;
    hidden.add_options()("program", po::value(&program));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("program", 1);

    po::variables_map vm;
    try {
        po::store(parse_command_line(args, all, &pos), vm);
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
    // A run that fails says why in one line at any level: off quiets the rest, as error does.
    spdlog::set_level(std::min(level, spdlog::level::err));
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
    // Tested by presence: an empty value is bad input, not an option left out.
    if (!bare) {
        std::vector<std::string> bare_only;
        for (const char* o : {"console-addr", "exit-addr", "memory", "signature"})
            if (vm.count(o)) bare_only.push_back(fmt::format("--{}", o));
        if (!bare_only.empty())
            throw UsageError(fmt::format("run: {} belong{} to bare mode (add --bare)",
                                         fmt::join(bare_only, " and "), bare_only.size() == 1 ? "s" : ""));
    }
    const uint64_t cycle_limit = parse_number("--max-cycles", max_cycles);
    const bool show_progress = vm.count("progress") || isatty(STDERR_FILENO);

    pulpsim::PlatformConfig config;
    if (!platform_file.empty()) config = pulpsim::load_platform(platform_file);
    auto key_of = [](const std::string& s) {
        std::string key = s.substr(0, s.find('='));
        std::erase_if(key, [](unsigned char c) { return std::isspace(c); });
        return key;
    };
    // One core with its own FPU: the pool's size and mapping, and every cluster key, would be ignored.
    static constexpr std::array kBareKeys{"fpu.addmul_latency", "fpu.other_latency", "fpu.divsqrt_latency",
                                          "fpu.divsqrt_exact_latency"};
    if (bare)
        for (const auto& s : sets)
            if (std::find(kBareKeys.begin(), kBareKeys.end(), key_of(s)) == kBareKeys.end())
                throw UsageError(fmt::format("--set {}: bare mode takes only the FPU timing keys {}", s,
                                             fmt::join(kBareKeys, ", ")));
    pulpsim::apply_overrides(config, sets);
    auto sets_quantum = [&](const std::string& s) { return key_of(s) == "engine.quantum"; };
    if (!quantum.empty() && std::any_of(sets.begin(), sets.end(), sets_quantum))
        throw UsageError("run: --quantum and --set engine.quantum give one setting twice: give one");
    if (!quantum.empty()) {
        config.engine.quantum =
            parse_number("--quantum", quantum, 1'000'000'000); // as engine.quantum takes it
        if (config.engine.quantum == 0) throw UsageError("--quantum: must be at least 1");
    }

    // A report path that cannot take a file is bad input, found before the run rather than after it.
    std::vector<std::pair<std::string, std::string>> outputs; // option, path
    std::vector<std::pair<std::string, std::string>> inputs{{"the program", program}};
    if (!platform_file.empty()) inputs.emplace_back("--platform", platform_file);
    if (vm.count("memory")) inputs.emplace_back("--memory", memory_map); // a file or BASE:SIZE text
    for (const char* option :
         {"report-json", "report-csv", "profile-json", "vcd", "timeline", "trace", "signature"})
        if (vm.count(option)) outputs.emplace_back(option, vm[option].as<std::string>());
    if (vm.count("vcd")) outputs.emplace_back("vcd", vcd_path + ".gtkw");
    for (auto& [option, path] : outputs) {
        option = "--" + option;
        if (path.empty()) throw UsageError(fmt::format("{}: an empty path", option));
        if (option == "--trace")
            pulpsim::Trace::check_path(path);
        else
            pulpsim::check_output_path(path);
    }
    check_outputs_apart(outputs, inputs);
    const bool tracing = vm.count("trace") > 0;
    if (!tracing)
        for (const char* option : {"trace-cores", "trace-window", "trace-region"})
            if (vm.count(option))
                throw UsageError(fmt::format("--{} filters the trace: it needs --trace FILE", option));
    const pulpsim::CycleWindow window = vm.count("trace-window")
                                            ? pulpsim::CycleWindow::parse("--trace-window", trace_window)
                                            : pulpsim::CycleWindow{};
    const bool views = vm.count("vcd") || vm.count("timeline");
    const bool profiling = vm.count("profile") || vm.count("profile-lines") || vm.count("profile-annotate") ||
                           vm.count("profile-json");
    if ((vm.count("view-window") || vm.count("view-region")) && !views && !profiling)
        throw UsageError(
            "--view-window and --view-region limit --vcd, --timeline and --profile: give one of them");
    const pulpsim::ViewFilter view_filter(vm.count("view-window")
                                              ? pulpsim::CycleWindow::parse("--view-window", view_window)
                                              : pulpsim::CycleWindow{},
                                          {}, view_regions);
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(program);
    pulpsim::check_region_names("--trace-region", trace_regions, elf);
    pulpsim::check_region_names("--view-region", view_regions, elf);
    const SignatureRange signature = vm.count("signature") ? signature_range(program, elf) : SignatureRange{};
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
    // The profile asks its filter as the run goes, so the filter follows the regions itself.
    pulpsim::ViewFilter profile_filter = view_filter;
    std::optional<pulpsim::Profile> profile;
    if (profiling)
        profile.emplace(elf, source_lines ? &*source_lines : nullptr,
                        view_filter.filters() ? &profile_filter : nullptr);
    std::optional<pulpsim::ActivityRecorder> activity;
    if (views) activity.emplace(elf, view_filter);
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
    Interrupts interrupts;
    // Slices short enough to answer an interrupt promptly, long enough to cost nothing.
    const uint64_t slice = std::max<uint64_t>(config.engine.quantum, 1u << 16);
    int interrupted = 0;
    uint64_t interrupted_at = 0;
    std::unique_ptr<pulpsim::BareSystem> bare_system;
    std::unique_ptr<pulpsim::ClusterSystem> cluster_system;
    if (bare) {
        pulpsim::BareOptions options;
        options.timing = pulpsim::core_timing(config);
        options.max_cycles = cycle_limit;
        options.quantum = config.engine.quantum;
        if (vm.count("console-addr"))
            options.console_addr =
                static_cast<uint32_t>(parse_number("--console-addr", console, 0xffffffffu));
        if (vm.count("exit-addr"))
            options.exit_addr = static_cast<uint32_t>(parse_number("--exit-addr", exit_addr, 0xffffffffu));
        options.show_progress = show_progress;
        if (vm.count("memory")) options.memory_map = pulpsim::parse_memory_map(memory_map);
        bare_system = std::make_unique<pulpsim::BareSystem>("bare", elf, options);
        if (vm.count("signature") &&
            !bare_system->machine().memory().find_ram(signature.begin, std::max(signature.bytes, 1u)))
            throw std::runtime_error(fmt::format("{}: the signature [{:#010x}, {:#010x}) lies outside every "
                                                 "memory",
                                                 program, signature.begin,
                                                 uint64_t{signature.begin} + signature.bytes));
        if (profile) profile->attach(bare_system->machine().hart());
        if (profile && !view_regions.empty()) profile_filter.follow_regions(bare_system->machine().host());
        if (activity) activity->attach(bare_system->machine());
        make_trace(1, bare_system->machine().host());
        if (trace) {
            trace->attach(bare_system->machine().hart());
            trace->open(trace_path);
        }
        interrupted = run_in_slices(slice, interrupts);
        interrupted_at = bare_system->machine().hart().cycle();
        outcome = bare_system->outcome();
        // A cluster program stops at its first access to the cluster's peripherals: say why.
        if (outcome.kind == pulpsim::RunOutcome::Kind::Error && elf.symbol(pulpsim::kClusterCoresSymbol))
            outcome.message += "; the program links the cluster runtime (symbol __cluster_max_cores): run it "
                               "without --bare";
        view = pulpsim::run_view(bare_system->machine());
    } else {
        // The runtime's start-up code stops with exit code 127 on a core numbered past the stacks it was
        // linked for: found here, it is bad input named before the run.
        check_program_cores(program, elf, config);
        pulpsim::ClusterOptions options;
        options.max_cycles = cycle_limit;
        options.show_progress = show_progress;
        cluster_system = std::make_unique<pulpsim::ClusterSystem>("cluster", elf, config, options);
        for (const auto& [name, value] : symbol_values)
            cluster_system->machine().write_symbol_word(name, value);
        if (profile)
            for (const auto& hart : cluster_system->machine().harts())
                profile->attach(*hart);
        if (profile && !view_regions.empty()) profile_filter.follow_regions(cluster_system->machine().host());
        if (activity) activity->attach(cluster_system->machine());
        make_trace(static_cast<unsigned>(cluster_system->machine().harts().size()),
                   cluster_system->machine().host());
        if (trace) {
            for (const auto& hart : cluster_system->machine().harts())
                trace->attach(*hart);
            trace->open(trace_path);
        }
        interrupted = run_in_slices(slice, interrupts);
        interrupted_at = cluster_system->machine().cycles();
        outcome = cluster_system->outcome();
        view = pulpsim::run_view(cluster_system->machine());
    }
    if (show_progress && (interrupted || outcome.host_seconds >= 2)) std::fprintf(stderr, "\r%60s\r", "");
    std::fflush(stdout);
    if (interrupted) {
        // Like an error: the trace holds the lines up to the stop and says why; a report of half a run is
        // not written.
        const std::string why =
            fmt::format("interrupted by {} at cycle {}", signal_name(interrupted), interrupted_at);
        if (trace) {
            try {
                trace->close("the run stopped: " + why);
            } catch (const std::exception& e) {
                spdlog::error("{}", pulpsim::printable(e.what()));
            }
        }
        if (vm.count("signature")) {
            std::error_code ec;
            std::filesystem::remove(signature_path, ec); // as after any run that does not exit
        }
        spdlog::error("{}", pulpsim::printable(fmt::format("{}: {}; no report written", program, why)));
        interrupts.die_of(interrupted);
        return 128 + interrupted;
    }
    if (trace)
        trace->close(outcome.kind == pulpsim::RunOutcome::Kind::Exit
                         ? std::string()
                         : fmt::format("the run stopped: {}", pulpsim::printable(outcome.message)));
    // As for the views: an empty trace says why rather than leaving the user to wonder.
    if (trace && trace->lines() == 0)
        spdlog::warn("the trace holds no instruction: no core{} retired one in {} (the run took {} cycles)",
                     vm.count("trace-cores") ? " of --trace-cores " + trace_cores : std::string(),
                     trace_filter->describe(), outcome.cycles);

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
    // A signature stands for a run that finished: harnesses compare the file, not the exit status. One left
    // by an earlier run would stand for this one, so it goes.
    if (vm.count("signature") && outcome.kind != pulpsim::RunOutcome::Kind::Exit) {
        std::error_code ec;
        std::filesystem::remove(signature_path, ec);
    } else if (vm.count("signature")) {
        std::vector<uint8_t> bytes(signature.bytes);
        bare_system->machine().memory().read_bytes(signature.begin, bytes.data(), signature.bytes);
        std::string lines;
        for (size_t i = 0; i < bytes.size(); i += 4)
            lines += fmt::format("{:08x}\n", bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                                                 uint32_t{bytes[i + 3]} << 24);
        reports.emplace_back(signature_path, std::move(lines));
    }
    std::vector<std::pair<std::string, pulpsim::FileWriter>> files;
    for (const auto& [path, contents] : reports)
        files.emplace_back(path, [&contents = contents](std::ostream& os) { os << contents; });
    if (activity) activity->finish(outcome.cycles);
    if (view_filter.filters()) warn_if_nothing_shown(view_filter, view, outcome.cycles, activity, profile);
    warn_if_macs_impossible(view);
    warn_if_regions_left_open(view);
    warn_if_failed_in_region(view, outcome);
    if (activity) {
        if (vm.count("vcd")) {
            files.emplace_back(vcd_path, [&](std::ostream& os) { pulpsim::write_vcd(*activity, os); });
            files.emplace_back(vcd_path + ".gtkw",
                               [&](std::ostream& os) { os << pulpsim::gtkw_for_vcd(*activity, vcd_path); });
        }
        if (vm.count("timeline"))
            files.emplace_back(timeline_path,
                               [&](std::ostream& os) { pulpsim::write_timeline(*activity, os); });
    }
    pulpsim::write_files_atomically(files);
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
