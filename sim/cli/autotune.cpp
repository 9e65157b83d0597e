// pulpsim autotune: the fastest kernel variant for training layer steps on one platform, measured by
// simulation through the many-runs layer (parallel, cached in the results database), written to a tuning
// file.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

#include "cli/cli_common.hpp"
#include "cluster/platform_config.hpp"
#include "cluster/report.hpp"
#include "memory/elf_image.hpp"
#include "runs/design_point.hpp"
#include "runs/point_runner.hpp"
#include "runs/results_store.hpp"
#include "runs/tuner.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace pulpsim::cli {
namespace {

// One simulation of a step: the comparison program running every variant (the step fits the TCDM), or
// the tiled program with one tile and one kernel.
struct Candidate {
    std::optional<runs::Tile> tile;
    std::string kernel;
    runs::DesignPoint point;
    uint64_t estimate = 0; // cycles, tiled candidates only
};

// One layer step to tune and the simulations that measure it.
struct StepCase {
    std::string step;
    std::string what;     // what the step computes, for the table's title
    std::string baseline; // the naive kernel's name
    runs::MatmulShape mm; // when tiled
    uint64_t macs = 0;
    bool tiled = false;
    size_t pairs = 0; // tile x kernel pairs before pruning
    std::vector<Candidate> candidates;
};

// A measured choice, as the table shows it.
struct Measured {
    std::string tile; // "TMxTNxTK", or "-" when the step is not tiled
    std::string kernel;
    uint64_t cycles = 0;
    std::string dma_verdict;
    std::optional<runs::Tile> tile_shape;
    uint64_t estimate = 0;
    size_t order = 0;
};

// The bytes of a NUL-terminated string or a word at `addr` in the ELF's loaded segments.
std::optional<uint32_t> elf_word(const ElfImage& elf, uint32_t addr) {
    for (const auto& seg : elf.segments())
        if (addr >= seg.vaddr && uint64_t{addr} + 4 <= uint64_t{seg.vaddr} + seg.bytes.size()) {
            const uint8_t* p = seg.bytes.data() + (addr - seg.vaddr);
            return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
        }
    return std::nullopt;
}
std::string elf_string(const ElfImage& elf, uint32_t addr) {
    std::string out;
    for (const auto& seg : elf.segments())
        if (addr >= seg.vaddr && addr < uint64_t{seg.vaddr} + seg.bytes.size()) {
            for (size_t i = addr - seg.vaddr; i < seg.bytes.size() && seg.bytes[i] && out.size() < 64; ++i)
                out += static_cast<char>(seg.bytes[i]);
            break;
        }
    return out;
}

// matmul_variants[] (kernels/lib/matmul_fp32.h) as the tiled program holds it, in index order: the table
// is the one source of the kernels' names, numbers and blockings.
std::vector<runs::KernelTraits> family_kernels(const ElfImage& elf) {
    const auto table = elf.symbol("matmul_variants");
    const auto count_at = elf.symbol("tune_variant_count");
    const auto count = count_at ? elf_word(elf, *count_at) : std::nullopt;
    if (!table || !count || *count > 64)
        throw std::runtime_error(fmt::format("{}: no matmul_variants table to tune with", elf.path()));
    std::vector<runs::KernelTraits> kernels;
    constexpr uint32_t kEntryBytes = 24; // name, fn, unroll_rows, unroll_cols, unroll_k, split_cols
    for (uint32_t i = 0; i < *count; ++i) {
        const uint32_t entry = *table + i * kEntryBytes;
        const auto name_at = elf_word(elf, entry);
        runs::KernelTraits k;
        k.name = name_at ? elf_string(elf, *name_at) : std::string();
        const auto u = elf_word(elf, entry + 8), v = elf_word(elf, entry + 12),
                   ku = elf_word(elf, entry + 16), split = elf_word(elf, entry + 20);
        if (k.name.empty() || !u || !v || !ku || !split || *u == 0 || *v == 0 || *ku == 0)
            throw std::runtime_error(
                fmt::format("{}: entry {} of matmul_variants is malformed", elf.path(), i));
        k.unroll_rows = *u;
        k.unroll_cols = *v;
        k.unroll_k = *ku;
        k.split_cols = *split != 0;
        kernels.push_back(std::move(k));
    }
    return kernels;
}

// The kernel names of a table of a comparison program (each entry starting with its name's address):
// empty when the program has no such table.
std::vector<std::string> table_names(const ElfImage& elf, const runs::KernelTable& table) {
    std::vector<std::string> names;
    const auto at = elf.symbol(table.symbol);
    if (!at || table.entry_bytes == 0) return names;
    const uint32_t bytes = elf.symbol_size(*at);
    for (uint32_t offset = 0; offset + table.entry_bytes <= bytes; offset += table.entry_bytes)
        if (const auto name_at = elf_word(elf, *at + offset))
            if (std::string name = elf_string(elf, *name_at); !name.empty()) names.push_back(std::move(name));
    return names;
}

// Tuning entries are keyed by platform name, cores and TCDM size: an entry measured with other settings
// changed by --set would stand for the platform its file names, and a kernel build would take it for that.
void refuse_unnamed_changes(const PlatformConfig& as_named, const PlatformConfig& tuned) {
    if (tuned.platform.name != as_named.platform.name) return;
    // The key's cores and TCDM size, and the FPU count that one FPU per core takes along.
    std::vector<std::string> key_settings{fmt::format("cluster.cores={}", tuned.cluster.cores),
                                          fmt::format("tcdm.size={}", tuned.tcdm.size)};
    if (tuned.fpu.mapping == "private" && as_named.fpu.mapping == "private")
        key_settings.push_back(fmt::format("fpu.count={}", tuned.fpu.count));
    auto refuse = [&](const std::string& setting) {
        throw UsageError(fmt::format(
            "--set {}: tuning entries are keyed by platform name, cores and TCDM size, so this one would "
            "stand "
            "for platform '{}' as {} gives it; name the changed platform (--set platform.name=NAME)",
            setting, tuned.platform.name,
            as_named.platform.name == PlatformConfig{}.platform.name ? "pulpsim's default" : "its file"));
    };
    PlatformConfig same_settings = as_named;
    try {
        apply_overrides(same_settings, key_settings);
    } catch (const std::exception&) {
        refuse("with other settings"); // the named platform cannot even have the key's cores and TCDM size
    }
    const auto before = describe(same_settings), after = describe(tuned);
    for (const auto& [key, value] : after) {
        if (key == "engine.quantum") continue; // where the simulation synchronises, not what it counts
        const auto was =
            std::find_if(before.begin(), before.end(), [&](const auto& kv) { return kv.first == key; });
        if (was == before.end() || was->second != value) refuse(key + "=" + value);
    }
}

double per_cycle(uint64_t num, uint64_t den) {
    return den ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}

} // namespace

int command_autotune(const std::vector<std::string>& args) {
    po::options_description desc(
        "usage: pulpsim autotune --layer linear|pointwise|depthwise|conv2d --step fw|wg|ig|all --shape "
        "SHAPE\n"
        "                        [options]\n\n"
        "Measures every kernel variant of the layer steps (as `pulpsim compare`), in parallel and cached\n"
        "in the results database (a second tune of the same case runs nothing), ranks them and writes the\n"
        "fastest per step to the tuning file. A step whose tensors do not fit the free TCDM is tiled: the\n"
        "K_T tile shapes of largest footprint (double-buffered, with guard zones) are simulated with every\n"
        "kernel that can compute them, DMA included.\n"
        "  linear    --shape IxO (inputs x outputs, batch 1)\n"
        "  pointwise --shape CINxCOUTxHW\n"
        "  depthwise --shape CxHxW (3x3, stride 1, padding 1)\n"
        "  conv2d    --shape CINxCOUTxHxWxKHxKW[xSTRIDExPAD]\n"
        "Only matmul steps (linear, pointwise, FP32) are tiled; the others must fit the TCDM. --tiled\n"
        "tiles them even when they fit, as the tiled layer steps of kernels/lib run them from L2 (their\n"
        "tuning-file entries are what a kernel build takes: see README). --prune simulates only the pairs\n"
        "whose analytical estimate is within MARGIN of the best estimate.\n"
        "\noptions");
    std::string platform_file, layer, step = "all", shape, json_path, program, db = "results/pulpsim.db";
    std::string tuning_path = "results/tuning.yaml", max_cycles = "10000000000", tiled_program, kt = "5";
    uint32_t guard_bytes = 16;
    double prune_margin = -1; // no pruning
    std::vector<std::string> sets;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    unsigned top = 5;
    desc.add_options()("help,h", "show this help")("layer", po::value(&layer)->value_name("LAYER"),
                                                   "linear, pointwise, depthwise or conv2d")(
        "step", po::value(&step)->value_name("STEP"),
        "fw (forward), wg (weight gradient), ig (input gradient) or all (default)")(
        "shape", po::value(&shape)->value_name("SHAPE"),
        "linear: IxO; pointwise: CINxCOUTxHW; depthwise: CxHxW; conv2d: CINxCOUTxHxWxKHxKW[xSTRIDExPAD]")(
        "platform", po::value(&platform_file)->value_name("FILE"), "platform YAML; default: pulp-open")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a platform setting (repeatable)")("jobs,j", po::value(&jobs)->value_name("N"),
                                                    "simulations at once (default: all cores)")(
        "db", po::value(&db)->value_name("FILE"), "results database (default results/pulpsim.db)")(
        "fp16", "the FP16 kernels (linear and pointwise steps that fit the TCDM)")(
        "tuning", po::value(&tuning_path)->value_name("FILE"),
        "tuning file the winners are added to (default results/tuning.yaml)")(
        "top", po::value(&top)->value_name("N"), "variants shown per step (default 5; 0: all)")(
        "json", po::value(&json_path)->value_name("FILE"), "also write every measured variant as JSON")(
        "kt", po::value(&kt)->value_name("K"),
        "tile shapes simulated when the step must be tiled: the K of largest footprint (default 5), or all")(
        "tiled", "tile FP32 matmul steps through the TCDM from L2 even when they fit (kernels/lib's steps)")(
        "prune", po::value(&prune_margin)->implicit_value(0.25)->value_name("MARGIN"),
        "simulate only tile x kernel pairs estimated within MARGIN of the best estimate (default 0.25: "
        "25%)")(
        "guard", po::value(&guard_bytes)->value_name("BYTES"),
        "guard zone after each TCDM tile buffer (default 16; a tile that reads past its buffer fails)")(
        "program", po::value(&program)->value_name("ELF"),
        "the comparison program (default: the layer's kernels/*_compare.elf of the build)")(
        "tiled-program", po::value(&tiled_program)->value_name("ELF"),
        "the tiled step program (default: kernels/tiled_tune.elf of the build)")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "cycle limit per simulation (default 1e10)")("no-progress", "no progress bar");
    po::variables_map vm;
    try {
        po::store(parse_command_line(args, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("autotune: {}", e.what()));
    }
    if (vm.count("help")) {
        std::cout
            << desc
            << "\nexit status: 0; 1 a simulation failed (a kernel gave a wrong result, ...); 2 bad input;\n"
               "130 interrupted (what finished is stored).\n";
        return 0;
    }
    if (layer.empty()) throw UsageError(fmt::format("--layer: missing ({})", runs::kTunableLayers));
    runs::check_layer(layer);
    if (step != "fw" && step != "wg" && step != "ig" && step != "all")
        throw UsageError(fmt::format("--step: '{}' is not fw, wg, ig or all", printable(step)));
    if (shape.empty())
        throw UsageError(fmt::format("--shape: missing (e.g. --shape {})", runs::example_shape(layer)));
    if (jobs == 0) throw UsageError("--jobs: must be at least 1");
    if (vm.count("prune") && !(prune_margin >= 0 && prune_margin <= 100))
        throw UsageError(
            fmt::format("--prune: {} is not a margin from 0 to 100 (0.25: within 25%)", prune_margin));
    const bool force_tiled = vm.count("tiled") > 0;
    if (force_tiled && vm.count("fp16")) throw UsageError("--tiled: the tiled steps are FP32; drop --fp16");
    if (force_tiled && (layer == "depthwise" || layer == "conv2d"))
        throw UsageError(
            fmt::format("--tiled: the tiled steps are linear and pointwise; drop --tiled for {}", layer));
    if (guard_bytes % 4 != 0 || guard_bytes > 4096)
        throw UsageError(fmt::format("--guard: {} is not a multiple of 4 up to 4096", guard_bytes));
    const uint64_t cycle_limit = parse_number("--max-cycles", max_cycles);

    PlatformConfig config;
    if (!platform_file.empty()) config = load_platform(platform_file);
    const PlatformConfig as_named = config;
    apply_overrides(config, sets);
    validate(config);
    refuse_unnamed_changes(as_named, config);
    const bool own_program = vm.count("program") > 0;
    const bool fp16 = vm.count("fp16") > 0;
    if (program.empty()) program = built_kernel(runs::measure_step(layer, "fw", shape, fp16).program);
    if (tiled_program.empty()) tiled_program = built_kernel("tiled_tune.elf");
    for (const std::string& p : {program, tiled_program}) {
        std::error_code ec;
        if (!fs::is_regular_file(p, ec))
            throw UsageError(fmt::format("{}: no such file{}", p, own_program ? "" : " (build the kernels)"));
    }
    const ElfImage compare_elf = ElfImage::load(program);
    check_comparison_program(program, compare_elf, layer,
                             runs::measure_step(layer, "fw", shape, fp16).symbols);
    const ElfImage tiled_elf = ElfImage::load(tiled_program);
    const uint64_t compare_free = free_tcdm_bytes(compare_elf, config);
    const uint64_t tiled_free = free_tcdm_bytes(tiled_elf, config);
    size_t keep_tiles = 5;
    if (kt != "all") {
        keep_tiles = parse_number("--kt", kt, 100000);
        if (keep_tiles == 0) throw UsageError("--kt: must be at least 1, or all");
    } else {
        keep_tiles = 0;
    }
    // The kernels a tuning entry may name: the variants of its layer's comparison program, or for a tiled
    // entry the tiled program's family and matmul_l1; each program is read once, when an entry needs it.
    // A program that is not at hand, or lacks its tables, leaves its entries' kernels unchecked.
    std::map<std::string, std::optional<runs::KernelNames>> kernel_names;
    // An entry measured by a program of the user's (it names the program's file) is checked against this
    // run's program of that name, or not at all; any other against the build's own programs.
    const bool own_tiled_program = vm.count("tiled-program") > 0;
    const runs::KernelLookup known_kernels =
        [&](const std::string& entry_layer, bool tiled,
            const std::string& entry_program) -> const runs::KernelNames* {
        const bool entry_fp16 = entry_layer.ends_with("-fp16");
        const runs::CompareProgram compare = runs::compare_program(
            entry_fp16 ? entry_layer.substr(0, entry_layer.size() - 5) : entry_layer, entry_fp16);
        const bool own = tiled ? own_tiled_program : own_program;
        const std::string& run_program = tiled ? tiled_program : program;
        std::string path = tiled ? built_kernel("tiled_tune.elf") : built_kernel(compare.program);
        if (!entry_program.empty()) {
            if (!own || fs::path(run_program).filename() != entry_program) return nullptr;
            path = run_program;
        }
        const auto [it, inserted] = kernel_names.try_emplace((tiled ? "tiled " : "compare ") + path);
        if (inserted) {
            try {
                runs::KernelNames k;
                k.program = fs::path(path).filename().string();
                const ElfImage elf = ElfImage::load(path);
                if (tiled) {
                    for (const runs::KernelTraits& f : family_kernels(elf))
                        k.names.insert(f.name);
                    k.names.insert("matmul_l1");
                } else {
                    for (const runs::KernelTable& table : compare.tables) {
                        const auto names = table_names(elf, table);
                        if (names.empty()) throw std::runtime_error("no kernel table");
                        k.names.insert(names.begin(), names.end());
                    }
                }
                it->second = std::move(k);
            } catch (const std::exception&) {
            }
        }
        return it->second ? &*it->second : nullptr;
    };
    // The tuning file is checked before anything runs, so a bad one costs no simulation.
    (void)runs::load_tuning(tuning_path, known_kernels);
    make_parent_folder("--tuning", tuning_path);
    check_output_option("--tuning", tuning_path);
    if (vm.count("json")) check_output_option("--json", json_path);
    if (db.empty()) throw UsageError("--db: an empty path");
    std::vector<std::pair<std::string, std::string>> outputs{{"--tuning", tuning_path}};
    if (vm.count("json")) outputs.emplace_back("--json", json_path);
    std::vector<std::pair<std::string, std::string>> inputs = database_files("--db", db);
    inputs.insert(
        inputs.end(),
        {{"--platform", platform_file}, {"the program", program}, {"the tiled program", tiled_program}});
    check_outputs_apart(outputs, inputs);

    const std::string simulator = self_executable();
    const std::string version = runs::simulator_version(kVersion, simulator);
    const std::string config_yaml = to_yaml(config);
    std::vector<runs::KernelTraits> kernels; // the tiled program's family, read once
    runs::KernelTraits l1_kernel;
    l1_kernel.name = "matmul_l1";
    l1_kernel.matmul_l1 = true;
    runs::PipelineCosts costs;
    costs.cores = config.cluster.cores;
    costs.fpus = config.fpu.count;
    costs.dma_bytes_per_cycle = config.dma.bandwidth_bits / 8.0;
    costs.half_duplex = config.dma.duplex == PlatformConfig::Dma::Duplex::Half;
    costs.transfer_latency = config.l2.latency;
    auto make_point = [&](const std::string& elf_path,
                          std::vector<std::pair<std::string, uint32_t>> symbols) {
        runs::DesignPoint point;
        point.program = elf_path;
        point.program_hash = runs::file_hash(elf_path);
        point.config = config;
        point.config_yaml = config_yaml;
        point.max_cycles = cycle_limit;
        point.symbols = std::move(symbols);
        point.id = runs::point_identity(point, version);
        return point;
    };

    std::vector<StepCase> cases;
    for (const std::string s : {"fw", "wg", "ig"}) {
        if (step != "all" && step != s) continue;
        StepCase c;
        c.step = s;
        const runs::StepMeasure measure = runs::measure_step(layer, s, shape, fp16);
        c.what = measure.what;
        c.baseline = measure.baseline;
        c.macs = measure.macs;
        if (measure.tcdm_bytes <= compare_free && !(force_tiled && measure.matmul)) {
            check_program_cores(program, compare_elf, config);
            c.candidates.push_back({std::nullopt, "", make_point(program, measure.symbols)});
        } else if (!measure.matmul) {
            throw UsageError(
                fmt::format("--shape {}: the {} step ({}) needs {} bytes of TCDM but {} are free, and "
                            "only matmul steps are tiled by the tuner (raise tcdm.size)",
                            shape, s, measure.what, measure.tcdm_bytes, compare_free));
        } else {
            // Algorithm 1: the K_T tile shapes of largest footprint x every kernel that can compute them.
            check_program_cores(tiled_program, tiled_elf, config);
            c.tiled = true;
            const runs::TiledCall call = runs::tiled_step_call(layer, s, shape);
            c.mm = call.mm;
            const runs::MatmulLayout layout = call.layout;
            if (layout.a_trans || layout.b_trans)
                c.what = fmt::format("matmul M={} N={} K={}, {} transposed", c.mm.m, c.mm.n, c.mm.k,
                                     layout.a_trans ? "A" : "B");
            const auto m = static_cast<uint32_t>(c.mm.m), n = static_cast<uint32_t>(c.mm.n),
                       k = static_cast<uint32_t>(c.mm.k);
            const std::vector<runs::Tile> tiles =
                runs::enumerate_tiles(c.mm, tiled_free, guard_bytes, keep_tiles);
            if (tiles.empty())
                throw UsageError(fmt::format("--shape {}: the {} step does not fit the TCDM in any tile: {} "
                                             "bytes are free, a 1x1x1 tile "
                                             "set with guard zones needs {} (tcdm.size {})",
                                             shape, s, tiled_free, runs::tile_footprint(1, 1, 1, guard_bytes),
                                             config.tcdm.size));
            if (kernels.empty()) kernels = family_kernels(tiled_elf);
            // A, B and C lie in the tiled program's L2 arena with 4-float guard zones around them.
            const auto arena_at = tiled_elf.symbol("tune_arena_floats");
            const uint64_t arena = arena_at ? elf_word(tiled_elf, *arena_at).value_or(0) : 0;
            if (c.mm.m * c.mm.k + c.mm.k * c.mm.n + c.mm.m * c.mm.n + 16 > arena)
                throw UsageError(
                    fmt::format("--shape {}: the {} step's tensors ({}) exceed the {} floats of L2 the "
                                "tiled program {} holds",
                                shape, s, measure.what, arena, tiled_program));
            for (const runs::Tile& t : tiles) {
                // The family kernels neither accumulate nor transpose: they compute tiles holding all of K.
                const bool family = !layout.a_trans && !layout.b_trans && t.tk == c.mm.k;
                for (uint32_t v = 0; v <= kernels.size(); ++v) {
                    if (v < kernels.size() && !family) continue;
                    const runs::KernelTraits& traits = v < kernels.size() ? kernels[v] : l1_kernel;
                    c.candidates.push_back(
                        {t, traits.name,
                         make_point(tiled_program, {{"tune_m", m},
                                                    {"tune_n", n},
                                                    {"tune_k", k},
                                                    {"tune_a_trans", layout.a_trans ? 1u : 0u},
                                                    {"tune_b_trans", layout.b_trans ? 1u : 0u},
                                                    {"tune_tm", t.tm},
                                                    {"tune_tn", t.tn},
                                                    {"tune_tk", t.tk},
                                                    {"tune_kernel", v},
                                                    {"tune_guard", guard_bytes}}),
                         runs::estimate_tiled_cycles(c.mm, t, traits, costs)});
                }
            }
            c.pairs = c.candidates.size();
            if (prune_margin >= 0) {
                uint64_t best = UINT64_MAX;
                for (const Candidate& cand : c.candidates)
                    best = std::min(best, cand.estimate);
                const double limit = static_cast<double>(best) * (1 + prune_margin);
                std::erase_if(c.candidates, [&](const Candidate& cand) {
                    return static_cast<double>(cand.estimate) > limit;
                });
                std::fprintf(stderr,
                             "autotune %s: pruning keeps %zu of %zu tile x kernel pairs (estimates within "
                             "%g%% of the best)\n",
                             s.c_str(), c.candidates.size(), c.pairs, prune_margin * 100);
            }
        }
        if (c.pairs == 0) c.pairs = c.candidates.size();
        cases.push_back(std::move(c));
    }

    make_parent_folder("--db", db);
    runs::ResultsStore store(db);
    std::vector<std::string> ids;
    for (const auto& c : cases)
        for (const auto& cand : c.candidates)
            ids.push_back(cand.point.id);
    const std::set<std::string> done = store.finished(ids);
    std::vector<const runs::DesignPoint*> pending;
    std::set<std::string> queued;
    for (const auto& c : cases)
        for (const auto& cand : c.candidates)
            if (!done.count(cand.point.id) && queued.insert(cand.point.id).second)
                pending.push_back(&cand.point);
    const unsigned running = std::min<unsigned>(jobs, static_cast<unsigned>(pending.size()));
    if (pending.empty())
        std::fprintf(stderr, "autotune %s %s %s: %s already stored in %s\n", layer.c_str(), step.c_str(),
                     shape.c_str(),
                     ids.size() == 1 ? "its simulation is"
                                     : fmt::format("all {} simulations", ids.size()).c_str(),
                     db.c_str());
    else
        std::fprintf(
            stderr, "autotune %s %s %s: %zu simulation%s, %zu stored in %s, running %zu on %u job%s\n",
            layer.c_str(), step.c_str(), shape.c_str(), ids.size(), ids.size() == 1 ? "" : "s",
            ids.size() - pending.size(), db.c_str(), pending.size(), running, running == 1 ? "" : "s");
    if (!pending.empty()) {
        runs::RunnerOptions options;
        options.simulator = simulator;
        options.run_verb = point_run_verb();
        options.jobs = jobs;
        options.terminal = isatty(STDERR_FILENO) != 0;
        options.show_progress = !vm.count("no-progress");
        options.label = "autotune";
        if (runs::run_points(pending, options, [&](const runs::DesignPoint& p, const runs::PointResult& r) {
                store.put(p, version, r);
            }) == runs::RunnerEnd::Interrupted) {
            std::fprintf(stderr, "autotune: interrupted; finished simulations are stored in %s\n",
                         db.c_str());
            return 130;
        }
    }

    int status = 0;
    std::vector<runs::TuningEntry> winners;
    nlohmann::ordered_json steps_json = nlohmann::ordered_json::array();
    for (const auto& c : cases) {
        std::vector<Measured> measured;
        bool failed = false;
        for (const auto& cand : c.candidates) {
            const auto rows =
                store.query("SELECT status, error, report FROM points WHERE id = ?", {cand.point.id}).rows;
            if (rows.empty() || runs::to_text(rows[0][0]) != "ok") {
                std::fprintf(stderr, "autotune: %s step%s: %s\n", c.step.c_str(),
                             cand.tile ? fmt::format(" tile {}x{}x{} {}", cand.tile->tm, cand.tile->tn,
                                                     cand.tile->tk, cand.kernel)
                                             .c_str()
                                       : "",
                             rows.empty() ? "no result stored" : runs::to_text(rows[0][1]).c_str());
                failed = true;
                continue;
            }
            const auto report = nlohmann::json::parse(runs::to_text(rows[0][2]), nullptr, false);
            if (!report.is_object() || !report.contains("regions")) continue;
            for (const auto& r : report["regions"]) {
                const std::string name = r.value("name", std::string());
                if (cand.tile && name != "step") continue;
                std::string verdict = "-";
                if (r.contains("dma") && r["dma"].contains("verdict"))
                    verdict = r["dma"]["verdict"].get<std::string>();
                measured.push_back(
                    {cand.tile ? fmt::format("{}x{}x{}", cand.tile->tm, cand.tile->tn, cand.tile->tk) : "-",
                     cand.tile ? cand.kernel : name, r.value("cycles", uint64_t{0}), verdict, cand.tile,
                     cand.estimate});
            }
        }
        if (failed) status = 1;
        // Fastest first; equal cycles keep the order of the candidates (clang deprecates stable_sort's
        // buffer).
        for (size_t i = 0; i < measured.size(); ++i)
            measured[i].order = i;
        std::sort(measured.begin(), measured.end(), [](const Measured& a, const Measured& b) {
            return a.cycles != b.cycles ? a.cycles < b.cycles : a.order < b.order;
        });
        if (measured.empty()) continue;
        // Speed-ups are over the naive kernel at its best (on its best tiles), or over matmul_l1 where the
        // naive kernel cannot run (tiles of transposed operands) or was pruned.
        uint64_t naive = 0;
        std::string reference_kernel;
        for (const std::string& reference : {c.baseline, std::string("matmul_l1")})
            for (const auto& r : measured)
                if (naive == 0 && r.kernel == reference) { // sorted: the first is the best
                    naive = r.cycles;
                    reference_kernel = reference;
                }
        std::cout << fmt::format(
            "{} {} {}: {} ({} MACs) on {}, {}, {}: {} measured, speed-up over {}\n", layer, c.step, shape,
            c.what, c.macs, config.platform.name, counted(config.cluster.cores, "core"),
            c.tiled ? fmt::format("tiled through {} bytes of TCDM", tiled_free) : std::string("in the TCDM"),
            measured.size(), reference_kernel.empty() ? "-" : reference_kernel);
        std::cout << fmt::format("{:>4}  {:<14} {:<18} {:>10} {:>8} {:>9}  {}\n", "rank", "tile", "kernel",
                                 "cycles", "MAC/cyc", "speed-up", "DMA");
        bool naive_shown = false; // below the top rows, the naive kernel's best row is shown for reference
        for (size_t i = 0; i < measured.size(); ++i) {
            const auto& r = measured[i];
            const bool naive_row =
                r.cycles == naive && !naive_shown && (r.kernel == c.baseline || r.kernel == "matmul_l1");
            naive_shown = naive_shown || naive_row;
            if (top && i >= top && !naive_row) continue;
            std::cout << fmt::format("{:>4}  {:<14} {:<18} {:>10} {:>8.3f} {:>9.2f}  {}\n", i + 1, r.tile,
                                     r.kernel, r.cycles, per_cycle(c.macs, r.cycles),
                                     per_cycle(naive, r.cycles), r.dma_verdict);
        }
        std::cout << "\n";

        runs::TuningEntry t;
        t.platform = config.platform.name;
        t.cores = config.cluster.cores;
        t.tcdm_size = config.tcdm.size;
        t.layer = fp16 ? layer + "-fp16" : layer; // FP16 tunes of a shape are other entries
        t.step = c.step;
        t.shape = shape;
        t.kernel = measured.front().kernel;
        if (measured.front().tile_shape ? own_tiled_program : own_program)
            t.program = fs::path(measured.front().tile_shape ? tiled_program : program).filename().string();
        if (const auto& tile = measured.front().tile_shape) {
            t.tile = std::vector<unsigned>{tile->tm, tile->tn, tile->tk};
            // What a kernel build needs to recognise the step's tiled_matmul call (kernels/lib).
            const runs::MatmulLayout layout = runs::tiled_step_call(layer, c.step, shape).layout;
            t.matmul = std::vector<uint64_t>{c.mm.m, c.mm.n, c.mm.k};
            t.transposed = std::vector<unsigned>{layout.a_trans ? 1u : 0u, layout.b_trans ? 1u : 0u};
            t.guard_bytes = guard_bytes;
        }
        t.cycles = measured.front().cycles;
        t.mac_per_cycle = per_cycle(c.macs, t.cycles);
        winners.push_back(t);

        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const auto& r : measured)
            rows.push_back({{"tile", r.tile},
                            {"tile_bytes", r.tile_shape ? r.tile_shape->bytes : 0},
                            {"kernel", r.kernel},
                            {"cycles", r.cycles},
                            {"mac_per_cycle", per_cycle(c.macs, r.cycles)},
                            {"speedup", per_cycle(naive, r.cycles)},
                            {"dma", r.dma_verdict},
                            {"estimate", r.estimate}});
        nlohmann::ordered_json step_json = {
            {"step", c.step}, {"what", c.what}, {"macs", c.macs}, {"tiled", c.tiled}};
        if (t.matmul) {
            step_json["matmul"] = *t.matmul;
            step_json["transposed"] = *t.transposed;
        }
        step_json["speedup_over"] = reference_kernel;
        step_json["pairs"] = c.pairs;
        step_json["simulations"] = c.candidates.size();
        step_json["best"] = {{"tile", measured.front().tile}, {"kernel", t.kernel}, {"cycles", t.cycles}};
        step_json["measured"] = std::move(rows);
        steps_json.push_back(std::move(step_json));
    }
    // The tuning file and the JSON are written all or none: a JSON that cannot be written leaves the tuning
    // file as it was.
    std::vector<std::pair<std::string, std::string>> written;
    if (!winners.empty())
        written.emplace_back(tuning_path, runs::tuning_with(tuning_path, winners, known_kernels));
    if (vm.count("json")) {
        nlohmann::ordered_json j;
        j["layer"] = layer;
        j["shape"] = shape;
        j["platform"] = config.platform.name;
        j["cores"] = config.cluster.cores;
        j["tcdm_size"] = config.tcdm.size;
        j["free_tcdm"] = tiled_free; // what the tiled program leaves for its tiles
        j["guard_bytes"] = guard_bytes;
        j["steps"] = std::move(steps_json);
        written.emplace_back(json_path,
                             j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    }
    write_files_atomically(written);
    if (!winners.empty())
        std::fprintf(stderr, "autotune: %zu winner%s written to %s\n", winners.size(),
                     winners.size() == 1 ? "" : "s", tuning_path.c_str());
    return status;
}

} // namespace pulpsim::cli
