#include "runs/tuner.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <yaml-cpp/yaml.h>

#include "cluster/platform_config.hpp"
#include "cluster/printable.hpp"
#include "cluster/report.hpp"
#include "cluster/yaml_document.hpp"

namespace pulpsim::runs {

std::vector<uint64_t> parse_shape(const std::string& shape) {
    return parse_shape(shape, shape);
}

std::vector<uint64_t> parse_shape(const std::string& shape, const std::string& as_given) {
    std::vector<uint64_t> dims;
    size_t start = 0;
    while (true) {
        const size_t x = shape.find('x', start);
        const std::string part = shape.substr(start, x == std::string::npos ? std::string::npos : x - start);
        uint64_t value = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size() || value > 0xffffffffu)
            throw std::runtime_error(
                fmt::format("--shape: '{}' is not a list of sizes like 64x16x125", printable(as_given)));
        dims.push_back(value);
        if (x == std::string::npos) break;
        start = x + 1;
    }
    if (std::find(dims.begin(), dims.end(), 0u) != dims.end())
        throw std::runtime_error(fmt::format("--shape {}: every size must be at least 1", as_given));
    return dims;
}

MatmulShape layer_step_matmul(const std::string& layer, const std::string& step, const std::string& shape) {
    const std::vector<uint64_t> dims = parse_shape(shape);
    const size_t expected = layer == "linear" ? 2 : 3;
    if (dims.size() != expected)
        throw std::runtime_error(fmt::format("--shape {}: a {} layer takes {} (e.g. {})", shape, layer,
                                             layer == "linear" ? "INPUTSxOUTPUTS" : "CINxCOUTxHW",
                                             example_shape(layer)));
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

CompareProgram compare_program(const std::string& layer, bool fp16) {
    if (fp16) return {"fp16_compare.elf", {{"matmul_fp16_variants", 16}, {"vm_kernels", 20}}};
    if (layer == "depthwise") return {"dw_compare.elf", {{"dw3x3_variants", 12}}};
    if (layer == "conv2d") return {"conv_compare.elf", {{"matmul_variants", 24}}};
    return {"matmul_compare.elf", {{"matmul_variants", 24}}};
}

void check_layer(const std::string& layer) {
    if (layer != "linear" && layer != "pointwise" && layer != "depthwise" && layer != "conv2d")
        throw std::runtime_error(fmt::format("--layer: '{}' is not {}", printable(layer), kTunableLayers));
}

const char* example_shape(const std::string& layer) {
    if (layer == "linear") return "640x16";
    if (layer == "depthwise") return "32x16x16";
    if (layer == "conv2d") return "16x16x16x16x3x3";
    return "64x64x16";
}

StepMeasure measure_step(const std::string& layer, const std::string& step, const std::string& shape,
                         bool fp16) {
    check_layer(layer);
    if (step != "fw" && step != "wg" && step != "ig")
        throw std::runtime_error(fmt::format("--step: '{}' is not fw, wg or ig", printable(step)));
    if (fp16 && layer != "linear" && layer != "pointwise")
        throw std::runtime_error(
            fmt::format("--fp16: the FP16 kernels cover linear and pointwise steps, not {}", layer));
    const uint32_t step_code = step == "fw" ? 0u : step == "wg" ? 1u : 2u;
    StepMeasure m;
    if (layer == "conv2d") {
        // Padding may be 0, which parse_shape() refuses as a size.
        const bool no_padding = shape.size() > 2 && shape.compare(shape.size() - 2, 2, "x0") == 0;
        std::vector<uint64_t> d = parse_shape(no_padding ? shape.substr(0, shape.size() - 2) : shape, shape);
        if (no_padding) d.push_back(0);
        if (d.size() != 6 && d.size() != 8)
            throw std::runtime_error(
                fmt::format("--shape {}: a conv2d layer takes CINxCOUTxHxWxKHxKW (stride 1, padding 1) or "
                            "CINxCOUTxHxWxKHxKWxSTRIDExPAD (e.g. {})",
                            shape, example_shape(layer)));
        const uint64_t cin = d[0], cout = d[1], h = d[2], w = d[3], kh = d[4], kw = d[5];
        const uint64_t stride = d.size() == 8 ? d[6] : 1, pad = d.size() == 8 ? d[7] : 1;
        if (h + 2 * pad < kh || w + 2 * pad < kw)
            throw std::runtime_error(fmt::format(
                "--shape {}: a {}x{} kernel does not fit the padded {}x{} input", shape, kh, kw, h, w));
        const uint64_t ho = (h + 2 * pad - kh) / stride + 1, wo = (w + 2 * pad - kw) / stride + 1;
        const uint64_t x = cin * h * w, weights = cout * cin * kh * kw, y = cout * ho * wo,
                       col = cin * kh * kw * ho * wo;
        uint64_t macs = 0;
        if (x > 0xffffffffu || weights > 0xffffffffu || col > 0xffffffffu ||
            __builtin_mul_overflow(weights, ho * wo, &macs) || macs > 0xffffffffu)
            throw std::runtime_error(
                fmt::format("--shape {}: the step's MACs exceed the 32-bit count of a region", shape));
        m.program = compare_program(layer, fp16).program;
        m.symbols = {{"compare_cin", static_cast<uint32_t>(cin)},
                     {"compare_cout", static_cast<uint32_t>(cout)},
                     {"compare_h", static_cast<uint32_t>(h)},
                     {"compare_w", static_cast<uint32_t>(w)},
                     {"compare_kh", static_cast<uint32_t>(kh)},
                     {"compare_kw", static_cast<uint32_t>(kw)},
                     {"compare_stride", static_cast<uint32_t>(stride)},
                     {"compare_pad", static_cast<uint32_t>(pad)},
                     {"compare_step", step_code}};
        m.macs = macs;
        m.tcdm_bytes = 4 * (x + weights + y + col + (step == "ig" ? weights : 0));
        m.baseline = "mm";
        m.what = fmt::format("conv2d {}x{} stride {} padding {}, {}x{}x{} -> {}x{}x{}, im2col + matmul", kh,
                             kw, stride, pad, cin, h, w, cout, ho, wo);
        return m;
    }
    if (layer == "depthwise") {
        const std::vector<uint64_t> d = parse_shape(shape);
        if (d.size() != 3)
            throw std::runtime_error(fmt::format("--shape {}: a depthwise layer takes CxHxW (e.g. {})", shape,
                                                 example_shape(layer)));
        const uint64_t c = d[0], h = d[1], w = d[2];
        uint64_t chw = 0;
        if (__builtin_mul_overflow(c * h, w, &chw) || chw > 0xffffffffu / 9) // c h < 2^64: sizes < 2^32
            throw std::runtime_error(
                fmt::format("--shape {}: 9 C H W MACs exceed the 32-bit count of a region", shape));
        m.program = compare_program(layer, fp16).program;
        m.symbols = {{"compare_c", static_cast<uint32_t>(c)},
                     {"compare_h", static_cast<uint32_t>(h)},
                     {"compare_w", static_cast<uint32_t>(w)},
                     {"compare_step", step_code}};
        m.macs = 9 * chw;
        m.tcdm_bytes = 4 * (2 * chw + 9 * c); // input and output planes, the 9 weights per channel
        m.baseline = "dw";
        m.what = fmt::format("depthwise 3x3 C={} H={} W={}", c, h, w);
        return m;
    }
    const MatmulShape mm = layer_step_matmul(layer, step, shape);
    if (fp16) {
        auto even = [](uint64_t n) { return n + (n & 1); }; // FP16 tensors start on words
        m.program = compare_program(layer, fp16).program;
        m.symbols = {{"compare_m", static_cast<uint32_t>(mm.m)},
                     {"compare_n", static_cast<uint32_t>(mm.n)},
                     {"compare_k", static_cast<uint32_t>(mm.k)}};
        m.macs = matmul_macs(mm, shape);
        m.tcdm_bytes = 2 * (even(mm.m * mm.k) + even(mm.k * mm.n) + even(mm.m * mm.n));
        m.baseline = "mm_fp16";
        m.what = fmt::format("FP16 matmul M={} N={} K={}", mm.m, mm.n, mm.k);
        return m;
    }
    m.program = compare_program(layer, fp16).program;
    m.symbols = {{"compare_m", static_cast<uint32_t>(mm.m)},
                 {"compare_n", static_cast<uint32_t>(mm.n)},
                 {"compare_k", static_cast<uint32_t>(mm.k)}};
    m.macs = matmul_macs(mm, shape);
    m.tcdm_bytes = 4 * (mm.m * mm.k + mm.k * mm.n + mm.m * mm.n);
    m.baseline = "mm";
    m.what = fmt::format("matmul M={} N={} K={}", mm.m, mm.n, mm.k);
    m.matmul = mm;
    return m;
}

TiledCall tiled_step_call(const std::string& layer, const std::string& step, const std::string& shape) {
    TiledCall call{layer_step_matmul(layer, step, shape), {}};
    if (layer == "linear" && step == "ig") {
        call.mm = {call.mm.n, 1, call.mm.k}; // W[O][I] is A^T, dOut[O] is B
        call.layout.a_trans = true;
    } else if (layer == "pointwise" && step == "wg") {
        call.layout.b_trans = true; // in[Cin][HW] is B^T
    } else if (layer == "pointwise" && step == "ig") {
        call.layout.a_trans = true; // W[Cout][Cin] is A^T
    }
    return call;
}

uint64_t tile_footprint(unsigned tm, unsigned tn, unsigned tk, uint32_t guard_bytes) {
    const uint64_t set =
        4 * (uint64_t{tm} * tk + uint64_t{tk} * tn + uint64_t{tm} * tn) + 3 * uint64_t{guard_bytes};
    return 2 * set;
}

namespace {
// Tile sizes of a dimension: ceil(size / d) for every tile count d, largest first.
std::vector<unsigned> balanced_sizes(uint64_t size) {
    std::vector<unsigned> out;
    for (uint64_t d = 1; d <= size; ++d) {
        const auto t = static_cast<unsigned>((size + d - 1) / d);
        if (out.empty() || out.back() != t) out.push_back(t);
        if (t == 1) break;
        // Past sqrt(size) every size appears: jump to the next tile count that changes it.
        d = (size + t - 2) / (t - 1) - 1;
    }
    return out;
}
} // namespace

std::vector<Tile> enumerate_tiles(const MatmulShape& mm, uint64_t budget, uint32_t guard_bytes, size_t keep) {
    std::vector<Tile> tiles;
    const auto ms = balanced_sizes(mm.m), ns = balanced_sizes(mm.n), ks = balanced_sizes(mm.k);
    for (unsigned tk : ks)
        for (unsigned tn : ns)
            for (unsigned tm : ms)
                if (const uint64_t bytes = tile_footprint(tm, tn, tk, guard_bytes); bytes <= budget)
                    tiles.push_back({tm, tn, tk, bytes});
    auto steps = [&](const Tile& t) {
        return ((mm.m + t.tm - 1) / t.tm) * ((mm.n + t.tn - 1) / t.tn) * ((mm.k + t.tk - 1) / t.tk);
    };
    std::sort(tiles.begin(), tiles.end(), [&](const Tile& a, const Tile& b) {
        if (a.bytes != b.bytes) return a.bytes > b.bytes;
        if (steps(a) != steps(b)) return steps(a) < steps(b);
        return std::tie(a.tk, a.tn, a.tm) > std::tie(b.tk, b.tn, b.tm);
    });
    if (keep && tiles.size() > keep) tiles.resize(keep);
    return tiles;
}

namespace {

// Instructions of one core's rect(rows x cols) of C with K = k (rect() in kernels/lib/matmul_fp32.c).
uint64_t family_rect_instructions(uint64_t rows, uint64_t cols, uint64_t k, const KernelTraits& v) {
    if (rows == 0 || cols == 0) return 0;
    constexpr uint64_t kRowLoop = 4; // the loops over strips and blocks
    if (v.unroll_rows == 1 && v.unroll_cols == 1 && v.unroll_k == 1 && k == 1)
        return rows * (kRowLoop + 2 + 5 * cols); // the outer-product form: 5 instructions per output
    if (v.unroll_k == 2)                         // two chains, 9 instructions per pair of k
        return rows * cols * ((k / 2) * 9 + (k & 1 ? 4 : 0) + 14);
    auto block = [k](uint64_t r, uint64_t c) {
        // Per k: r + c loads, r + 1 pointer increments, r x c fmadd.s; around it the hardware loop's
        // set-up, the accumulators' zeroing and stores and the row pointers.
        return k * (2 * r + c + 1 + r * c) + 12 + 2 * r * c + r;
    };
    const uint64_t u = v.unroll_rows, w = v.unroll_cols;
    const uint64_t strips = rows / u, rows_left = rows % u, blocks = cols / w, cols_left = cols % w;
    return strips * (blocks * block(u, w) + cols_left * block(u, 1)) +
           rows_left * (blocks * block(1, w) + cols_left * block(1, 1)) + (strips + rows_left) * kRowLoop;
}

// Cycles of one core's rows of matmul_l1 (strips of 4, 2, 1 rows at about 2, 2.2 and 3 cycles per MAC, as
// the planner of kernels/lib/tiled_matmul.c counts them) with a register-block cost.
uint64_t l1_rows_cycles(uint64_t rows, uint64_t n, uint64_t k) {
    const uint64_t quarter = (rows / 4) * 32 + (rows & 2 ? 18 : 0) + (rows & 1 ? 12 : 0);
    const uint64_t strips = rows / 4 + ((rows >> 1) & 1) + (rows & 1);
    return quarter * n * k / 4 + strips * ((n + 3) / 4) * 48;
}

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

} // namespace

uint64_t estimate_tiled_cycles(const MatmulShape& mm, const Tile& tile, const KernelTraits& kernel,
                               const PipelineCosts& costs) {
    constexpr uint64_t kStepOverhead = 1000; // barriers and DMA set-up per step (tiled_matmul.c)
    const uint64_t cores = std::max(1u, costs.cores), fpus = std::max(1u, costs.fpus);
    const double bytes_per_cycle = costs.dma_bytes_per_cycle > 0 ? costs.dma_bytes_per_cycle : 1;
    auto dma = [&](uint64_t floats) {
        return static_cast<uint64_t>(static_cast<double>(floats * 4) / bytes_per_cycle) +
               costs.transfer_latency;
    };
    auto compute = [&](uint64_t m, uint64_t n, uint64_t k) {
        uint64_t per_core = 0;
        if (kernel.matmul_l1)
            per_core = l1_rows_cycles(ceil_div(m, cores), n, k);
        else if (kernel.split_cols)
            per_core = family_rect_instructions(m, ceil_div(n, cores), k, kernel);
        else
            per_core = family_rect_instructions(ceil_div(m, cores), n, k, kernel);
        // Every MAC is one fmadd.s on one of the shared FPUs.
        return std::max(per_core, ceil_div(m * n * k, fpus)) + kStepOverhead;
    };
    // Tiles along a dimension: full ones, then the remainder.
    auto sizes = [](uint64_t total, uint64_t t) {
        std::vector<std::pair<uint64_t, uint64_t>> out; // (size, count)
        if (total / t) out.push_back({t, total / t});
        if (total % t) out.push_back({total % t, 1});
        return out;
    };
    const auto ms = sizes(mm.m, tile.tm), ns = sizes(mm.n, tile.tn), ks = sizes(mm.k, tile.tk);
    // Every step takes the longer of its compute and the DMA's work meanwhile: the next step's A and B
    // tiles in and, once per output tile, a C tile out (from the same budget when half duplex).
    uint64_t total = dma(uint64_t{tile.tm} * tile.tk) + dma(uint64_t{tile.tk} * tile.tn);
    for (const auto& [m, m_count] : ms)
        for (const auto& [n, n_count] : ns) {
            uint64_t per_output_tile = 0;
            for (const auto& [k, k_count] : ks) {
                const uint64_t in = dma(m * k) + dma(k * n);
                per_output_tile += k_count * std::max(compute(m, n, k), in);
            }
            const uint64_t out = dma(m * n);
            // The C tile leaves while the next output tile computes.
            per_output_tile += costs.half_duplex ? out : out / 8;
            total += m_count * n_count * per_output_tile;
        }
    return total + dma(uint64_t{tile.tm} * tile.tn);
}

uint64_t matmul_macs(const MatmulShape& mm, const std::string& shape) {
    uint64_t mn = 0, macs = 0;
    if (__builtin_mul_overflow(mm.m, mm.n, &mn) || __builtin_mul_overflow(mn, mm.k, &macs) ||
        macs > 0xffffffffu)
        throw std::runtime_error(
            fmt::format("--shape {}: M x N x K = {} x {} x {} MACs exceed the 32-bit count of a region",
                        shape, mm.m, mm.n, mm.k));
    return macs;
}

void rank(std::vector<VariantResult>& variants) {
    std::vector<size_t> order(variants.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return variants[a].cycles != variants[b].cycles ? variants[a].cycles < variants[b].cycles : a < b;
    });
    std::vector<VariantResult> sorted;
    sorted.reserve(order.size());
    for (size_t i : order)
        sorted.push_back(variants[i]);
    variants = std::move(sorted);
}

std::vector<VariantResult> ranked_variants(const std::string& report_json) {
    std::vector<VariantResult> out;
    const auto report = nlohmann::json::parse(report_json, nullptr, false);
    if (!report.is_object() || !report.contains("regions")) return out;
    for (const auto& r : report["regions"])
        out.push_back(
            {r.value("name", std::string()), r.value("cycles", uint64_t{0}), r.value("macs", uint64_t{0})});
    rank(out);
    return out;
}

namespace {

[[noreturn]] void tuning_error(const std::string& path, const YAML::Node& at, const std::string& what) {
    throw std::runtime_error(fmt::format("{}:{}: {}", path, at.Mark().line + 1, what));
}

template <typename T> T field(const std::string& path, const YAML::Node& entry, const char* key) {
    const YAML::Node n = entry[key];
    if (!n) tuning_error(path, entry, fmt::format("an entry needs '{}'", key));
    try {
        return n.as<T>();
    } catch (const YAML::Exception&) {
        tuning_error(path, n, fmt::format("'{}' has a value of the wrong type", key));
    }
}

// Every key of `map` is one of `keys` and is given once (YAML would keep one of two silently).
void known_keys(const std::string& path, const YAML::Node& map, const std::vector<std::string>& keys,
                const std::string& where) {
    std::map<std::string, int> first_line;
    for (const auto& kv : map) {
        if (!kv.first.IsScalar())
            tuning_error(path, kv.first, fmt::format("a key of {} is not a name", where));
        const std::string& k = kv.first.Scalar();
        if (std::find(keys.begin(), keys.end(), k) == keys.end())
            tuning_error(path, kv.first,
                         fmt::format("unknown key '{}' in {}{}", printable(k.substr(0, 40)), where,
                                     unknown_name_hint(k, keys)));
        const auto [at, inserted] = first_line.emplace(k, kv.first.Mark().line + 1);
        if (!inserted)
            tuning_error(path, kv.first,
                         fmt::format("key '{}' given twice (first on line {})", k, at->second));
    }
}

// A string as a YAML scalar that reads back as itself, whatever it holds.
std::string yaml_scalar(const std::string& text) {
    YAML::Emitter e;
    e << YAML::DoubleQuoted << text;
    return e.c_str();
}

} // namespace

std::vector<TuningEntry> load_tuning(const std::string& path, const KernelLookup& kernels) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return {};
    if (!std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error(fmt::format("{}: the tuning file is not a regular file", path));
    YAML::Node root;
    try {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) throw std::runtime_error(fmt::format("{}: cannot read the tuning file", path));
        root = load_one_document(text.str());
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(fmt::format("{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.msg));
    }
    std::vector<TuningEntry> out;
    if (root.IsNull()) return out;
    if (!root.IsMap() || !root["tunings"] || !root["tunings"].IsSequence())
        tuning_error(path, root, "expected `tunings:` with a list of entries");
    // The file is rewritten whole on every tune: what it would not read back is refused, not dropped.
    known_keys(path, root, {"tunings"}, "the tuning file");
    std::map<std::tuple<std::string, unsigned, uint64_t, std::string, std::string, std::string>, int> lines;
    for (const auto& e : root["tunings"]) {
        if (!e.IsMap()) tuning_error(path, e, "an entry is a map (platform, cores, tcdm_size, layer, ...)");
        known_keys(path, e,
                   {"platform", "cores", "tcdm_size", "layer", "step", "shape", "kernel", "program", "tile",
                    "matmul", "transposed", "guard", "cycles", "mac_per_cycle"},
                   "an entry");
        TuningEntry t;
        t.platform = field<std::string>(path, e, "platform");
        if (!valid_platform_name(t.platform))
            tuning_error(
                path, e["platform"],
                fmt::format("platform: '{}' is not a platform name (1 to 64 printable characters, no "
                            "quotes or backslashes)",
                            printable(t.platform)));
        t.cores = field<unsigned>(path, e, "cores");
        if (t.cores == 0) tuning_error(path, e["cores"], "cores: must be at least 1");
        t.tcdm_size = field<uint64_t>(path, e, "tcdm_size");
        t.layer = field<std::string>(path, e, "layer");
        t.step = field<std::string>(path, e, "step");
        t.shape = field<std::string>(path, e, "shape");
        t.kernel = field<std::string>(path, e, "kernel");
        if (e["program"]) {
            t.program = field<std::string>(path, e, "program");
            if (t.program->empty() || t.program->find('/') != std::string::npos)
                tuning_error(path, e["program"],
                             "program: the file name of the program that measured the entry");
        }
        // The layers, steps and shapes autotune's options take; FP16 tunes are "<layer>-fp16".
        const bool fp16 = t.layer.ends_with("-fp16");
        const std::string layer = fp16 ? t.layer.substr(0, t.layer.size() - 5) : t.layer;
        const bool matmul_layer = layer == "linear" || layer == "pointwise";
        if (!(matmul_layer || (!fp16 && (layer == "depthwise" || layer == "conv2d"))))
            tuning_error(path, e["layer"],
                         fmt::format("layer: '{}' is not {}, or linear-fp16 or pointwise-fp16",
                                     printable(t.layer), kTunableLayers));
        if (t.step != "fw" && t.step != "wg" && t.step != "ig")
            tuning_error(path, e["step"], fmt::format("step: '{}' is not fw, wg or ig", printable(t.step)));
        try {
            (void)measure_step(layer, t.step, t.shape, fp16);
        } catch (const std::exception& ex) {
            const std::string why = ex.what();
            tuning_error(path, e["shape"],
                         why.starts_with("--shape") ? why.substr(2) : fmt::format("shape: {}", why));
        }
        if (e["tile"]) t.tile = field<std::vector<unsigned>>(path, e, "tile");
        if (e["matmul"]) t.matmul = field<std::vector<uint64_t>>(path, e, "matmul");
        if (e["transposed"]) t.transposed = field<std::vector<unsigned>>(path, e, "transposed");
        if (e["guard"]) t.guard_bytes = field<uint32_t>(path, e, "guard");
        if ((t.tile && t.tile->size() != 3) || (t.matmul && t.matmul->size() != 3) ||
            (t.transposed && t.transposed->size() != 2))
            tuning_error(path, e, "tile and matmul take 3 sizes, transposed 2 flags");
        if ((t.tile && std::ranges::count(*t.tile, 0u)) || (t.matmul && std::ranges::count(*t.matmul, 0u)) ||
            (t.transposed && std::ranges::any_of(*t.transposed, [](unsigned f) { return f > 1; })))
            tuning_error(path, e, "tile and matmul sizes must be at least 1, transposed flags 0 or 1");
        if (t.tile && (fp16 || !matmul_layer))
            tuning_error(path, e["tile"], fmt::format("tile: {} steps are not tiled", t.layer));
        if (t.guard_bytes && (*t.guard_bytes % 4 != 0 || *t.guard_bytes > 4096))
            tuning_error(path, e["guard"],
                         fmt::format("guard: {} is not a multiple of 4 up to 4096", *t.guard_bytes));
        // A tile is measured in the TCDM of its entry: one that cannot fit there was never measured.
        if (t.tile)
            if (const uint64_t bytes =
                    tile_footprint((*t.tile)[0], (*t.tile)[1], (*t.tile)[2], t.guard_bytes.value_or(0));
                bytes > t.tcdm_size)
                tuning_error(
                    path, e["tile"],
                    fmt::format("tile: [{}, {}, {}] takes {} bytes of TCDM, double-buffered, more than the "
                                "entry's tcdm_size {}",
                                (*t.tile)[0], (*t.tile)[1], (*t.tile)[2], bytes, t.tcdm_size));
        if (kernels)
            if (const KernelNames* known = kernels(t.layer, t.tile.has_value(), t.program.value_or(""));
                known && !known->names.count(t.kernel))
                tuning_error(
                    path, e["kernel"],
                    fmt::format("kernel: '{}' is not a kernel of {}", printable(t.kernel), known->program));
        t.cycles = field<uint64_t>(path, e, "cycles");
        t.mac_per_cycle = field<double>(path, e, "mac_per_cycle");
        if (!(t.mac_per_cycle >= 0 && std::isfinite(t.mac_per_cycle)))
            tuning_error(path, e["mac_per_cycle"], "mac_per_cycle: expects a non-negative number");
        // Two entries of one key: a rewrite would keep one of them.
        const auto [first, inserted] = lines.emplace(
            std::tuple(t.platform, t.cores, t.tcdm_size, t.layer, t.step, t.shape), e.Mark().line + 1);
        if (!inserted)
            tuning_error(
                path, e,
                fmt::format("{} {} {} on {} ({} cores, tcdm_size {}) is tuned twice (first on line {})",
                            t.layer, t.step, t.shape, printable(t.platform), t.cores, t.tcdm_size,
                            first->second));
        out.push_back(std::move(t));
    }
    return out;
}

std::string tuning_with(const std::string& path, const std::vector<TuningEntry>& entries,
                        const KernelLookup& kernels) {
    std::vector<TuningEntry> all = load_tuning(path, kernels);
    for (const TuningEntry& e : entries) {
        auto it = std::find_if(all.begin(), all.end(), [&](const TuningEntry& o) { return o.same_key(e); });
        if (it != all.end())
            *it = e;
        else
            all.push_back(e);
    }
    std::ostringstream out;
    out << "# The fastest kernel (and tile) per platform, layer step and shape, as measured by pulpsim "
           "autotune.\n"
           "# Kernel builds take their choices from here (kernels/lib/README.md, \"Tuned choices\").\n"
           "tunings:\n";
    for (const TuningEntry& e : all) {
        out << fmt::format(
            "  - {{platform: {}, cores: {}, tcdm_size: {}, layer: {}, step: {}, shape: {}, kernel: {}",
            yaml_scalar(e.platform), e.cores, e.tcdm_size, e.layer, e.step, e.shape, yaml_scalar(e.kernel));
        if (e.program) out << fmt::format(", program: {}", yaml_scalar(*e.program));
        if (e.tile) out << fmt::format(", tile: [{}]", fmt::join(*e.tile, ", "));
        if (e.matmul) out << fmt::format(", matmul: [{}]", fmt::join(*e.matmul, ", "));
        if (e.transposed) out << fmt::format(", transposed: [{}]", fmt::join(*e.transposed, ", "));
        if (e.guard_bytes) out << fmt::format(", guard: {}", *e.guard_bytes);
        out << fmt::format(", cycles: {}, mac_per_cycle: {:.4f}}}\n", e.cycles, e.mac_per_cycle);
    }
    return out.str();
}

} // namespace pulpsim::runs
