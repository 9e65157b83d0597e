// pulpsim compare: every FP32 matmul kernel on the matmul of one training layer step, ranked by cycles.
#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "cli/cli_common.hpp"
#include "cluster/cluster_system.hpp"
#include "cluster/platform_config.hpp"
#include "cluster/report.hpp"
#include "memory/elf_image.hpp"

namespace po = boost::program_options;

namespace pulpsim::cli {
namespace {

// C[M][N] = A[M][K] x B[K][N], as PULP-TrainLib maps a layer step onto its matmul kernels.
struct MatmulShape {
    uint64_t m = 0, n = 0, k = 0;
};

// Linear (batch 1): --shape IxO. PointWise: --shape CINxCOUTxHW.
MatmulShape layer_step_matmul(const std::string& layer, const std::string& step, const std::string& shape) {
    std::vector<uint64_t> dims;
    size_t start = 0;
    while (true) {
        const size_t x = shape.find('x', start);
        const std::string part = shape.substr(start, x == std::string::npos ? std::string::npos : x - start);
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError(fmt::format("--shape: '{}' is not a list of sizes like 640x16", shape));
        dims.push_back(parse_number("--shape", part, 0xffffffffu));
        if (x == std::string::npos) break;
        start = x + 1;
    }
    const size_t expected = layer == "linear" ? 2 : 3;
    if (dims.size() != expected)
        throw UsageError(
            fmt::format("--shape {}: a {} layer takes {}", shape, layer,
                        layer == "linear" ? "INPUTSxOUTPUTS (e.g. 640x16)" : "CINxCOUTxHW (e.g. 64x64x16)"));
    if (std::find(dims.begin(), dims.end(), 0u) != dims.end())
        throw UsageError(fmt::format("--shape {}: every size must be at least 1", shape));
    if (layer == "linear") {
        const uint64_t in = dims[0], out = dims[1];
        if (step == "fw") return {out, 1, in}; // out[O] = W[O][I] in[I]
        if (step == "wg") return {out, in, 1}; // dW[O][I] = dOut[O] x in[I]
        return {1, in, out};                   // dIn[1][I] = dOut[1][O] W[O][I], as PULP-TrainLib
    }
    const uint64_t cin = dims[0], cout = dims[1], hw = dims[2];
    if (step == "fw") return {cout, hw, cin}; // out[Cout][HW] = W[Cout][Cin] in[Cin][HW]
    if (step == "wg") return {cout, cin, hw}; // dW[Cout][Cin] = dOut[Cout][HW] in^T[HW][Cin]
    return {cin, hw, cout};                   // dIn[Cin][HW] = W^T[Cin][Cout] dOut[Cout][HW]
}

// The matmul_compare program built next to this executable: <build>/bin/pulpsim -> <build>/kernels/.
std::string default_compare_program() {
    const std::filesystem::path self = self_executable();
    return (self.parent_path().parent_path() / "kernels" / "matmul_compare.elf").string();
}

} // namespace

int command_compare(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim compare --layer linear|pointwise --step fw|wg|ig --shape SHAPE [options]\n\n"
        "Runs every FP32 matmul kernel of kernels/lib/matmul_fp32.h on the matmul a training step maps to\n"
        "(PULP-TrainLib) and prints them sorted by cycles, with MAC/cycle and the speed-up over `mm`.\n"
        "  linear    --shape IxO (inputs x outputs, batch 1): fw M=O N=1 K=I, wg M=O N=I K=1, ig M=1 N=I "
        "K=O\n"
        "  pointwise --shape CINxCOUTxHW: fw M=COUT N=HW K=CIN, wg M=COUT N=CIN K=HW, ig M=CIN N=HW K=COUT\n"
        "A, B and C must fit together in the free TCDM.\n\noptions");
    std::string platform_file, layer, step, shape, json_path, program, max_cycles = "10000000000";
    std::vector<std::string> sets;
    desc.add_options()("help,h", "show this help")("platform", po::value(&platform_file)->value_name("FILE"),
                                                   "platform YAML; default: pulp-open")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a platform setting (repeatable)")("layer", po::value(&layer)->value_name("LAYER"),
                                                    "linear or pointwise")(
        "step", po::value(&step)->value_name("STEP"),
        "fw (forward), wg (weight gradient), ig (input gradient)")(
        "shape", po::value(&shape)->value_name("SHAPE"), "linear: IxO; pointwise: CINxCOUTxHW")(
        "json", po::value(&json_path)->value_name("FILE"), "also write the table as JSON to FILE")(
        "program", po::value(&program)->value_name("ELF"),
        "the comparison program (default: kernels/matmul_compare.elf of the build)")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "stop with an error after N cycles (default 1e10)");
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(desc).run(), vm);
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
    if (layer != "linear" && layer != "pointwise")
        throw UsageError(fmt::format("--layer: '{}' is not linear or pointwise", layer));
    if (step != "fw" && step != "wg" && step != "ig")
        throw UsageError(fmt::format("--step: '{}' is not fw, wg or ig", step));
    if (shape.empty()) throw UsageError("--shape: missing (e.g. --shape 640x16)");
    const MatmulShape mm = layer_step_matmul(layer, step, shape);
    // The program declares each region's MACs in a 32-bit register; the product itself may overflow 64 bits.
    uint64_t mn = 0, macs = 0;
    if (__builtin_mul_overflow(mm.m, mm.n, &mn) || __builtin_mul_overflow(mn, mm.k, &macs) ||
        macs > 0xffffffffu)
        throw UsageError(
            fmt::format("--shape {}: M x N x K = {} x {} x {} MACs exceed the 32-bit count of a region",
                        shape, mm.m, mm.n, mm.k));
    const uint64_t cycle_limit = parse_number("--max-cycles", max_cycles);

    pulpsim::PlatformConfig config;
    if (!platform_file.empty()) config = pulpsim::load_platform(platform_file);
    pulpsim::apply_overrides(config, sets);
    pulpsim::validate(config);

    if (program.empty()) program = default_compare_program();
    if (!std::filesystem::is_regular_file(program))
        throw UsageError(fmt::format("--program {}: no such file{}", program,
                                     vm.count("program") ? "" : " (build the kernels or give --program)"));
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(program);

    // The program puts A, B and C back to back in the free TCDM, which starts after its stacks
    // (l1_free_start() in kernels/runtime/dma.c): rejecting a shape here gives a usage error, not a run.
    if (const auto stacks_end = elf.symbol("__cluster_stacks_end")) {
        const uint64_t free_start = (uint64_t{*stacks_end} + 15) & ~uint64_t{15};
        const uint64_t tcdm_end = uint64_t{config.tcdm.base} + config.tcdm.size;
        const uint64_t free_bytes = tcdm_end > free_start ? tcdm_end - free_start : 0;
        const uint64_t needed = 4 * (mm.m * mm.k + mm.k * mm.n + mm.m * mm.n);
        if (needed > free_bytes)
            throw UsageError(
                fmt::format("--shape {}: A, B and C ({}x{}x{}) need {} bytes of TCDM but {} are free "
                            "(tcdm.size {}; raise it with --set tcdm.size=...)",
                            shape, mm.m, mm.n, mm.k, needed, free_bytes, config.tcdm.size));
    }

    pulpsim::ClusterOptions options;
    options.max_cycles = cycle_limit;
    options.capture_output = true; // the program's per-kernel lines would interleave with the table
    pulpsim::ClusterMachine machine(elf, config, options);
    machine.write_symbol_word("compare_m", static_cast<uint32_t>(mm.m));
    machine.write_symbol_word("compare_n", static_cast<uint32_t>(mm.n));
    machine.write_symbol_word("compare_k", static_cast<uint32_t>(mm.k));
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

    struct VariantResult {
        std::string name;
        uint64_t cycles = 0;
    };
    std::vector<VariantResult> results;
    uint64_t naive_cycles = 0;
    for (const pulpsim::RegionRecord& r : machine.host().regions()) {
        results.push_back({r.name, r.cycles});
        if (r.name == "mm") naive_cycles = r.cycles;
    }
    if (results.empty() || naive_cycles == 0)
        throw std::runtime_error(fmt::format("{}: the program reported no region 'mm'", program));
    // Stable, so that kernels with equal cycles keep the family's order.
    std::stable_sort(results.begin(), results.end(),
                     [](const VariantResult& a, const VariantResult& b) { return a.cycles < b.cycles; });
    const auto per_cycle = [](uint64_t num, uint64_t den) {
        return den ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
    };

    if (!json_path.empty()) {
        nlohmann::ordered_json j;
        j["program"] = program;
        j["platform"] = config.platform.name;
        j["cores"] = config.cluster.cores;
        j["layer"] = layer;
        j["step"] = step;
        j["shape"] = shape;
        j["m"] = mm.m;
        j["n"] = mm.n;
        j["k"] = mm.k;
        j["macs"] = macs;
        nlohmann::ordered_json variants = nlohmann::ordered_json::array();
        for (const VariantResult& r : results)
            variants.push_back({{"name", r.name},
                                {"cycles", r.cycles},
                                {"mac_per_cycle", per_cycle(macs, r.cycles)},
                                {"speedup", per_cycle(naive_cycles, r.cycles)}});
        j["variants"] = std::move(variants);
        pulpsim::write_file_atomically(
            json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    }

    std::cout << fmt::format("{} {} {}: matmul M={} N={} K={} ({} MACs) on {}, {} cores\n", layer, step,
                             shape, mm.m, mm.n, mm.k, macs, config.platform.name, config.cluster.cores);
    std::cout << fmt::format("{:<18} {:>10} {:>8} {:>9}\n", "variant", "cycles", "MAC/cyc", "speed-up");
    for (const VariantResult& r : results)
        std::cout << fmt::format("{:<18} {:>10} {:>8.3f} {:>9.2f}\n", r.name, r.cycles,
                                 per_cycle(macs, r.cycles), per_cycle(naive_cycles, r.cycles));
    return 0;
}

} // namespace pulpsim::cli
