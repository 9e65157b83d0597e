// pulpsim compare: every kernel variant of one training layer step, ranked by cycles.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cli/cli_common.hpp"
#include "cluster/cluster_system.hpp"
#include "cluster/platform_config.hpp"
#include "cluster/printable.hpp"
#include "cluster/report.hpp"
#include "memory/elf_image.hpp"
#include "runs/tuner.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace pulpsim::cli {

int command_compare(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim compare --layer linear|pointwise|depthwise|conv2d --step fw|wg|ig --shape SHAPE "
        "[options]\n\n"
        "Runs every kernel variant of a training layer step, each checked against the plain loop, and "
        "prints\n"
        "them sorted by cycles, with MAC/cycle and the speed-up over the naive kernel.\n"
        "  linear    --shape IxO (inputs x outputs, batch 1): the 24 FP32 matmul kernels of\n"
        "            kernels/lib/matmul_fp32.h on fw M=O N=1 K=I, wg M=O N=I K=1, ig M=1 N=I K=O "
        "(PULP-TrainLib)\n"
        "  pointwise --shape CINxCOUTxHW: the same on fw M=COUT N=HW K=CIN, wg M=COUT N=CIN K=HW,\n"
        "            ig M=CIN N=HW K=COUT\n"
        "  depthwise --shape CxHxW (3x3, stride 1, padding 1): the DepthWise family of\n"
        "            kernels/lib/depthwise_fp32.h (split over rows or channels, unrolled over outputs)\n"
        "  conv2d    --shape CINxCOUTxHxWxKHxKW[xSTRIDExPAD] (default stride 1, padding 1): im2col and each\n"
        "            of the 24 matmul kernels (the whole step in the region)\n"
        "  --fp16    linear and pointwise steps with the FP16 kernels of kernels/lib/matmul_fp16.h and, for\n"
        "            a vector-matrix product (M = 1), vm_fp16.h\n"
        "The step's tensors must fit together in the free TCDM.\n\noptions");
    std::string platform_file, layer, step, shape, json_path, plot_path, program, max_cycles = "10000000000";
    std::vector<std::string> sets;
    desc.add_options()("help,h", "show this help")("platform", po::value(&platform_file)->value_name("FILE"),
                                                   "platform YAML; default: pulp-open")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a platform setting (repeatable)")("layer", po::value(&layer)->value_name("LAYER"),
                                                    "linear, pointwise, depthwise or conv2d")(
        "step", po::value(&step)->value_name("STEP"),
        "fw (forward), wg (weight gradient), ig (input gradient)")(
        "shape", po::value(&shape)->value_name("SHAPE"),
        "linear: IxO; pointwise: CINxCOUTxHW; depthwise: CxHxW; conv2d: CINxCOUTxHxWxKHxKW[xSTRIDExPAD]")(
        "fp16", "the FP16 kernels (linear and pointwise steps)")(
        "json", po::value(&json_path)->value_name("FILE"), "also write the table as JSON to FILE")(
        "plot", po::value(&plot_path)->value_name("FILE"),
        "also draw the table as a bar plot (MAC/cycle per variant) to FILE (.png, .svg or .pdf)")(
        "program", po::value(&program)->value_name("ELF"),
        "the comparison program (default: the layer's kernels/*_compare.elf of the build)")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "stop with an error after N cycles (default 1e10)");
    po::variables_map vm;
    try {
        po::store(parse_command_line(args, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("compare: {}", e.what()));
    }
    if (vm.count("help")) {
        std::cout << desc
                  << "\nexit status: 0; 1 a kernel gave a wrong result; 2 bad input; 3 simulation error;\n"
                     "4 --max-cycles reached.\n";
        return 0;
    }
    if (layer.empty()) throw UsageError(fmt::format("--layer: missing ({})", runs::kTunableLayers));
    runs::check_layer(layer);
    if (step.empty()) throw UsageError("--step: missing (fw, wg or ig)");
    if (step != "fw" && step != "wg" && step != "ig")
        throw UsageError(fmt::format("--step: '{}' is not fw, wg or ig", printable(step)));
    if (shape.empty())
        throw UsageError(fmt::format("--shape: missing (e.g. --shape {})", runs::example_shape(layer)));
    const runs::StepMeasure measure = runs::measure_step(layer, step, shape, vm.count("fp16") > 0);
    const uint64_t macs = measure.macs;
    const uint64_t cycle_limit = parse_number("--max-cycles", max_cycles);
    if (vm.count("json")) check_output_option("--json", json_path);
    if (vm.count("plot")) check_plot_path("--plot", plot_path);

    pulpsim::PlatformConfig config;
    if (!platform_file.empty()) config = pulpsim::load_platform(platform_file);
    pulpsim::apply_overrides(config, sets);
    pulpsim::validate(config);

    if (program.empty()) program = built_kernel(measure.program);
    if (!std::filesystem::is_regular_file(program))
        throw UsageError(fmt::format("--program {}: no such file{}", program,
                                     vm.count("program") ? "" : " (build the kernels or give --program)"));
    std::vector<std::pair<std::string, std::string>> outputs;
    if (vm.count("json")) outputs.emplace_back("--json", json_path);
    if (vm.count("plot")) outputs.emplace_back("--plot", plot_path);
    check_outputs_apart(outputs, {{"the program", program}, {"--platform", platform_file}});
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(program);
    check_comparison_program(program, elf, layer, measure.symbols);
    check_program_cores(program, elf, config);

    // The program puts the step's tensors back to back in the free TCDM, which starts after its stacks
    // (l1_free_start() in kernels/runtime/dma.c): rejecting a shape here gives a usage error, not a run.
    if (elf.symbol("__cluster_stacks_end")) {
        const uint64_t free_bytes = free_tcdm_bytes(elf, config);
        if (measure.tcdm_bytes > free_bytes)
            throw UsageError(
                fmt::format("--shape {}: the {} step ({}) needs {} bytes of TCDM but {} are free "
                            "(tcdm.size {}; raise it with --set tcdm.size=...)",
                            shape, step, measure.what, measure.tcdm_bytes, free_bytes, config.tcdm.size));
    }

    pulpsim::ClusterOptions options;
    options.max_cycles = cycle_limit;
    options.capture_output = true; // the program's per-kernel lines would interleave with the table
    pulpsim::ClusterMachine machine(elf, config, options);
    for (const auto& [name, value] : measure.symbols)
        machine.write_symbol_word(name, value);
    const pulpsim::RunOutcome outcome = machine.run_to_end();
    if (outcome.kind != pulpsim::RunOutcome::Kind::Exit || outcome.exit_status != 0) {
        std::string why = outcome.message;
        if (why.empty()) {
            // The program's last line says what failed (a mismatch, or that the shape does not fit).
            std::string out = machine.host().captured_stdout();
            while (!out.empty() && out.back() == '\n')
                out.pop_back();
            why = fmt::format("exited with {}: {}", outcome.exit_status, out.substr(out.rfind('\n') + 1));
        }
        spdlog::error("{}", pulpsim::printable(program + ": " + why));
        return outcome.exit_status;
    }

    std::vector<runs::VariantResult> results;
    uint64_t naive_cycles = 0;
    for (const pulpsim::RegionRecord& r : machine.host().regions()) {
        results.push_back({r.name, r.cycles, r.macs});
        if (r.name == measure.baseline) naive_cycles = r.cycles;
    }
    if (results.empty() || naive_cycles == 0)
        throw std::runtime_error(
            fmt::format("{}: the program reported no region '{}'", program, measure.baseline));
    runs::rank(results); // kernels with equal cycles keep the family's order
    const auto per_cycle = [](uint64_t num, uint64_t den) {
        return den ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
    };

    if (!json_path.empty() || !plot_path.empty()) {
        nlohmann::ordered_json j;
        j["program"] = program;
        j["platform"] = config.platform.name;
        j["cores"] = config.cluster.cores;
        j["layer"] = layer;
        j["step"] = step;
        j["shape"] = shape;
        if (measure.matmul) {
            j["m"] = measure.matmul->m;
            j["n"] = measure.matmul->n;
            j["k"] = measure.matmul->k;
        }
        j["what"] = measure.what;
        j["macs"] = macs;
        j["baseline"] = measure.baseline;
        nlohmann::ordered_json variants = nlohmann::ordered_json::array();
        for (const runs::VariantResult& r : results)
            variants.push_back({{"name", r.name},
                                {"cycles", r.cycles},
                                {"mac_per_cycle", per_cycle(macs, r.cycles)},
                                {"speedup", per_cycle(naive_cycles, r.cycles)}});
        j["variants"] = std::move(variants);
        const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (!plot_path.empty()) {
            // The plot script reads the table from a file of its own in the temporary folder: a name derived
            // from the plot's could be one of the user's files.
            const char* tmp = std::getenv("TMPDIR");
            std::string table = std::string(tmp && *tmp ? tmp : "/tmp") + "/pulpsim-compare-XXXXXX.json";
            const int fd = mkstemps(table.data(), 5);
            if (fd < 0)
                throw std::runtime_error(fmt::format("--plot {}: cannot make a temporary file {}: {}",
                                                     plot_path, table, std::strerror(errno)));
            const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
            ::close(fd);
            std::string why = written ? "" : "cannot write its table to " + table;
            const int rc = written ? run_python_script(PULPSIM_SCRIPTS_DIR "/plot_compare.py",
                                                       {"--json", table, "--out", plot_path}, why)
                                   : 1;
            std::error_code ec;
            fs::remove(table, ec);
            if (rc != 0)
                throw std::runtime_error(
                    fmt::format("--plot {}: the plot failed (scripts/plot_compare.py: {})", plot_path,
                                why.empty() ? "it did not run" : why));
        }
        // After the plot, so that a plot that fails leaves no table either.
        if (!json_path.empty()) {
            try {
                pulpsim::write_file_atomically(json_path, text);
            } catch (...) {
                std::error_code ec;
                if (!plot_path.empty()) fs::remove(plot_path, ec);
                throw;
            }
        }
    }

    std::cout << fmt::format("{} {} {}: {} ({} MACs) on {}, {}\n", layer, step, shape, measure.what, macs,
                             config.platform.name, counted(config.cluster.cores, "core"));
    std::cout << fmt::format("{:<18} {:>10} {:>8} {:>9}\n", "variant", "cycles", "MAC/cyc", "speed-up");
    for (const runs::VariantResult& r : results)
        std::cout << fmt::format("{:<18} {:>10} {:>8.3f} {:>9.2f}\n", r.name, r.cycles,
                                 per_cycle(macs, r.cycles), per_cycle(naive_cycles, r.cycles));
    return 0;
}

} // namespace pulpsim::cli
