// What `pulpsim autotune` and `pulpsim compare` know about layer steps: the matmul a training step maps to,
// the ranking of kernel variants from a run's report, and the tuning file that keeps the winners.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pulpsim::runs {

// C[M][N] = A[M][K] x B[K][N], as PULP-TrainLib maps a Linear or PointWise step onto its matmul kernels.
struct MatmulShape {
    uint64_t m = 0, n = 0, k = 0;
};

// The sizes of a shape like "64x16x125"; a one-line error naming the shape otherwise (zero sizes included).
std::vector<uint64_t> parse_shape(const std::string& shape);
// The same for part of the --shape the user gave, `as_given`, which errors name.
std::vector<uint64_t> parse_shape(const std::string& shape, const std::string& as_given);

// Linear (batch 1): shape IxO. PointWise: shape CINxCOUTxHW. Step fw, wg or ig.
MatmulShape layer_step_matmul(const std::string& layer, const std::string& step, const std::string& shape);

// M x N x K; an error naming the shape when it exceeds the 32-bit MAC count a region declares.
uint64_t matmul_macs(const MatmulShape& mm, const std::string& shape);

// How a comparison program (kernels/apps/*_compare) measures every kernel variant of one layer step in one
// run: the host writes the shape into its symbols, each variant is a perf region, `baseline` is the naive
// one.
struct StepMeasure {
    std::string program; // file name in the build's kernels/ folder
    std::vector<std::pair<std::string, uint32_t>> symbols;
    uint64_t macs = 0;
    uint64_t tcdm_bytes = 0; // the step's tensors, which must fit the free TCDM together
    std::string baseline;
    std::string what;                  // "matmul M=16 N=125 K=64", "depthwise 3x3 C=32 H=16 W=16"
    std::optional<MatmulShape> matmul; // the step is a matmul (and can be tiled)
};
// Layers: linear (IxO), pointwise (CINxCOUTxHW), depthwise (CxHxW: 3x3, stride 1, padding 1), conv2d
// (CINxCOUTxHxWxKHxKW, stride 1 and padding 1, or ...xSTRIDExPAD). Steps: fw, wg, ig. `fp16`: the FP16
// kernels on a linear or pointwise step's matmul. One-line errors for an unknown layer or step and a
// malformed, zero or oversized shape.
StepMeasure measure_step(const std::string& layer, const std::string& step, const std::string& shape,
                         bool fp16 = false);
// The layers measure_step() knows, for messages.
inline constexpr const char* kTunableLayers = "linear, pointwise, depthwise or conv2d";
// measure_step()'s one-line error for a layer it does not know (nothing for one it knows).
void check_layer(const std::string& layer);
// A shape of `layer` to show in a message ("640x16" for a linear layer).
const char* example_shape(const std::string& layer);

// The comparison program of a layer's steps (a file name in the build's kernels/ folder) and the kernel
// tables it measures, one perf region per entry: each entry of `entry_bytes` bytes starts with the address
// of the kernel's name (the *_variant_t structures of kernels/lib, whose headers assert these sizes).
struct KernelTable {
    const char* symbol;
    uint32_t entry_bytes;
};
struct CompareProgram {
    std::string program;
    std::vector<KernelTable> tables;
};
CompareProgram compare_program(const std::string& layer, bool fp16);

// Whether a matmul reads A stored as [K][M] and B stored as [N][K].
struct MatmulLayout {
    bool a_trans = false, b_trans = false;
};
// The tiled_matmul call of a Linear or PointWise step as kernels/lib/train_layers.c makes it: the tuner
// measures and tunes this call, so a kernel build's lookup (kernels/lib/tiled_matmul.h) finds it. It is
// layer_step_matmul() but for Linear IG, which the tiled step computes as dIn[I][1] = W^T[I][O] dOut[O][1]
// (M = I rows to share among the cores) where the comparison program follows PULP-TrainLib's dOut x W.
struct TiledCall {
    MatmulShape mm;
    MatmulLayout layout;
};
TiledCall tiled_step_call(const std::string& layer, const std::string& step, const std::string& shape);

// A tile shape of a tiled step and the TCDM it takes, double-buffered, with its guard zones.
struct Tile {
    unsigned tm = 0, tn = 0, tk = 0;
    uint64_t bytes = 0;
};
// What tiled_matmul (kernels/lib/tiled_matmul.h) allocates: two sets of A, B and C tiles, each buffer
// followed by `guard_bytes`.
uint64_t tile_footprint(unsigned tm, unsigned tn, unsigned tk, uint32_t guard_bytes);
// The tiler of the autotuner (seed 000, Algorithm 1): every tile shape whose footprint fits `budget`, each
// size a balanced split of its dimension (ceil(D / d) for d tiles, so no tile is mostly padding), the
// largest footprints first (ties: fewer pipeline steps), at most `keep` of them (0: all). Empty when not
// even 1x1x1 fits.
std::vector<Tile> enumerate_tiles(const MatmulShape& mm, uint64_t budget, uint32_t guard_bytes, size_t keep);

// A kernel the tiled step can run, as the estimate sees it: a matmul_variants[] entry of
// kernels/lib/matmul_fp32.h (U x V register blocks, K unrolled by unroll_k, split over rows or columns of
// C), or matmul_l1 (kernels/lib/matmul_l1.h), the pipeline's own kernel for any tile.
struct KernelTraits {
    std::string name;
    unsigned unroll_rows = 1, unroll_cols = 1, unroll_k = 1;
    bool split_cols = false;
    bool matmul_l1 = false;
};
// What the estimate needs of the platform.
struct PipelineCosts {
    unsigned cores = 8;
    unsigned fpus = 8;
    double dma_bytes_per_cycle = 8; // per direction
    bool half_duplex = false;
    unsigned transfer_latency = 15; // cycles before a DMA transfer's first byte (l2.latency)
};
// An analytical estimate of the cycles of a tiled step (the pruning of `pulpsim autotune --prune`): each
// core's instructions for its share of every tile, counted from the kernel's loop body (R + V loads, R + 1
// pointer increments and R x V fmadd.s per k for an R x V block, plus the block's set-up and stores) at
// one instruction per cycle, no faster than the shared FPUs allow, plus a fixed cost per pipeline step;
// the DMA's time for the tiles' bytes at the platform's bandwidth; and the double-buffered pipeline over
// both. It ignores bank conflicts and stalls, which is what the simulations that follow measure.
uint64_t estimate_tiled_cycles(const MatmulShape& mm, const Tile& tile, const KernelTraits& kernel,
                               const PipelineCosts& costs);

// One kernel variant's region in a run.
struct VariantResult {
    std::string name;
    uint64_t cycles = 0;
    uint64_t macs = 0;
};
// The regions of a JSON report, fastest first; variants with equal cycles keep the report's order.
std::vector<VariantResult> ranked_variants(const std::string& report_json);
// Sorts fastest first, keeping the given order between equal cycles.
void rank(std::vector<VariantResult>& variants);

// A tuning file (YAML) keeps the fastest choice per platform, layer step and shape:
//   tunings:
//     - {platform: pulp-open, cores: 8, tcdm_size: 65536, layer: pointwise, step: fw, shape: 64x16x125,
//        kernel: mm_unroll_2x4, cycles: 12345, mac_per_cycle: 3.21}
// When the step was tiled through the TCDM, `tile: [TM, TN, TK]`, and for kernel builds the matmul of the
// step's tiled_matmul call, `matmul: [M, N, K]`, `transposed: [A, B]` (A stored [K][M], B [N][K]) and the
// `guard` bytes the tiles were measured with.
struct TuningEntry {
    std::string platform;
    unsigned cores = 0;
    uint64_t tcdm_size = 0;
    std::string layer, step, shape;
    std::string kernel;
    // The file name of the program that measured it, when that was not the build's own (autotune --program,
    // --tiled-program): its kernel is one of that program's.
    std::optional<std::string> program;
    std::optional<std::vector<unsigned>> tile;
    std::optional<std::vector<uint64_t>> matmul;
    std::optional<std::vector<unsigned>> transposed;
    std::optional<uint32_t> guard_bytes;
    uint64_t cycles = 0;
    double mac_per_cycle = 0;
    bool same_key(const TuningEntry& o) const {
        return platform == o.platform && cores == o.cores && tcdm_size == o.tcdm_size && layer == o.layer &&
               step == o.step && shape == o.shape;
    }
};
// The kernels a tuning entry may name, as the program that measures them declares them: for a layer as a
// tuning file spells it ("linear", "linear-fp16", ...), whether the entry is tiled, and the entry's program
// (empty: the build's own). Null: not checked (the program is not at hand, or is not one whose kernels can be
// read).
struct KernelNames {
    std::string program; // for messages
    std::set<std::string> names;
};
using KernelLookup =
    std::function<const KernelNames*(const std::string& layer, bool tiled, const std::string& program)>;

// Reads and checks a tuning file; a missing file is an empty one. Keys, layers, steps and shapes follow the
// rules of autotune's options, and no two entries share a key (same_key). One-line errors naming file, line
// and key.
std::vector<TuningEntry> load_tuning(const std::string& path, const KernelLookup& kernels = {});
// The file's text with the entries added (replacing those with the same key), for the caller to write with
// its other outputs, all or none.
std::string tuning_with(const std::string& path, const std::vector<TuningEntry>& entries,
                        const KernelLookup& kernels = {});

} // namespace pulpsim::runs
