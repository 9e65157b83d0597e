// Shared FPUs and div/sqrt units of a cluster (see fpu_pool.hpp for what is modelled).
#include "cluster/fpu_pool.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include <fmt/format.h>

namespace pulpsim {
namespace {

uint64_t all_fpus(unsigned fpus) { return fpus >= 64 ? ~uint64_t{0} : (uint64_t{1} << fpus) - 1; }

// std::popcount is a library call on baseline x86-64; this is a handful of inline instructions.
unsigned bit_count(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return static_cast<unsigned>((x * 0x0101010101010101u) >> 56);
}

[[noreturn]] void config_error(const std::string& what) {
    throw std::invalid_argument(fmt::format("FPU pool: {} (valid mappings: {})", what, fpu_mapping_names()));
}

} // namespace

const std::map<std::string, FpuMapping, std::less<>>& fpu_mappings() {
    static const std::map<std::string, FpuMapping, std::less<>> mappings = {
        {"private",
         {"one FPU per core (core i uses FPU i); needs as many FPUs as cores",
          [](unsigned cores, unsigned fpus) -> std::string {
              if (fpus == cores) return {};
              return fmt::format("mapping 'private' needs one FPU per core, got {} FPUs for {} cores", fpus,
                                 cores);
          },
          [](unsigned core, unsigned, unsigned) { return uint64_t{1} << core; }}},
        {"static-modulo",
         {"core i uses FPU i mod n (GVSoC pulp-open, VEGA)", nullptr,
          [](unsigned core, unsigned, unsigned fpus) { return uint64_t{1} << (core % fpus); }}},
        {"dynamic",
         {"any FPU: the first free in that cycle, lowest index first", nullptr,
          [](unsigned, unsigned, unsigned fpus) { return all_fpus(fpus); }}},
    };
    return mappings;
}

std::string fpu_mapping_names() {
    std::string names;
    for (const auto& [name, mapping] : fpu_mappings())
        names += (names.empty() ? "" : ", ") + name;
    return names;
}

FpuPool::FpuPool(const FpuPoolConfig& config) : mapping_(config.mapping) {
    if (config.cores == 0) config_error("cores = 0, need at least 1");
    if (config.fpus == 0 || config.fpus > kMaxFpus)
        config_error(fmt::format("fpus = {}, need 1..{}", config.fpus, kMaxFpus));
    const auto found = fpu_mappings().find(config.mapping);
    if (found == fpu_mappings().end()) config_error(fmt::format("unknown mapping '{}'", config.mapping));
    const FpuMapping& mapping = found->second;
    if (mapping.reject) {
        if (std::string why = mapping.reject(config.cores, config.fpus); !why.empty()) config_error(why);
    }
    if (config.addmul_latency > kMaxPipelineLatency)
        config_error(fmt::format("addmul_latency = {}, need 0..{}", config.addmul_latency, kMaxPipelineLatency));
    if (config.other_latency > kMaxPipelineLatency)
        config_error(fmt::format("other_latency = {}, need 0..{}", config.other_latency, kMaxPipelineLatency));
    if (config.divsqrt_units == 0 || config.divsqrt_units > kMaxFpus)
        config_error(fmt::format("divsqrt_units = {}, need 1..{}", config.divsqrt_units, kMaxFpus));
    if (config.default_divsqrt_latency == 0) config_error("default_divsqrt_latency = 0, need at least 1");

    latency_[static_cast<unsigned>(FpuOpKind::AddMul)] = config.addmul_latency;
    latency_[static_cast<unsigned>(FpuOpKind::Other)] = config.other_latency;
    default_divsqrt_latency_ = config.default_divsqrt_latency;
    fpus_.resize(config.fpus);
    divsqrt_units_.resize(config.divsqrt_units);
    cores_.resize(config.cores);
    for (unsigned i = 0; i < config.cores; ++i) {
        const uint64_t candidates = mapping.candidates(i, config.cores, config.fpus) & all_fpus(config.fpus);
        if (candidates == 0)
            config_error(fmt::format("mapping '{}' gives core {} no FPU out of {}", config.mapping, i, config.fpus));
        cores_[i].candidates = candidates;
    }
}

void FpuPool::reset() {
    for (Fpu& fpu : fpus_)
        fpu = Fpu{};
    for (DivSqrtUnit& unit : divsqrt_units_)
        unit = DivSqrtUnit{};
    for (Core& core : cores_)
        core.counters = CoreFpuCounters{};
}

// x >> n, or 0 when n >= 64, without a branch: n follows the request stream, so a branch would often
// mispredict, and issue() runs for every FP instruction.
inline uint64_t shift_right_or_zero(uint64_t x, uint64_t n) { return (x >> (n & 63)) & (uint64_t{0} - (n < 64)); }

inline uint64_t FpuPool::Fpu::first_free(uint64_t cycle) const {
    const uint64_t from = std::max(cycle, window_base);
    // Bits shifted in from above the window read 0: nothing is granted beyond it.
    return from + static_cast<unsigned>(std::countr_one(shift_right_or_zero(starts, from - window_base)));
}

inline void FpuPool::Fpu::take(uint64_t start, unsigned latency) {
    const uint64_t last = start + latency; // last cycle the operation is inside the pipeline
    const uint64_t span = last - window_base;
    const uint64_t slide = span > 63 ? span - 63 : 0; // keep `last` in the window
    starts = shift_right_or_zero(starts, slide);
    occupied = shift_right_or_zero(occupied, slide);
    window_base += slide;
    const unsigned bit = static_cast<unsigned>(start - window_base);
    starts |= uint64_t{1} << bit;
    const uint64_t inside = ((uint64_t{2} << latency) - 1) << bit;
    counters.busy_cycles += bit_count(inside & ~occupied);
    occupied |= inside;
    ++counters.operations;
}

FpuGrant FpuPool::issue(unsigned core_index, uint64_t cycle, FpuOpKind kind, unsigned divsqrt_latency) {
    if (core_index >= cores_.size()) [[unlikely]]
        throw_core_out_of_range(core_index);
    Core& core = cores_[core_index];
    if (kind == FpuOpKind::DivSqrt) [[unlikely]]
        return issue_divsqrt(core, cycle, divsqrt_latency ? divsqrt_latency : default_divsqrt_latency_);

    // The candidate free first wins; stop early at one free in the requested cycle (lowest index first).
    uint64_t candidates = core.candidates;
    unsigned best = static_cast<unsigned>(std::countr_zero(candidates));
    uint64_t best_start = fpus_[best].first_free(cycle);
    candidates &= candidates - 1;
    while (candidates != 0 && best_start != cycle) {
        const unsigned f = static_cast<unsigned>(std::countr_zero(candidates));
        const uint64_t start = fpus_[f].first_free(cycle);
        if (start < best_start) {
            best = f;
            best_start = start;
        }
        candidates &= candidates - 1;
    }

    const unsigned latency = latency_[static_cast<unsigned>(kind)];
    Fpu& fpu = fpus_[best];
    fpu.take(best_start, latency);
    const uint64_t waited = best_start - cycle;
    fpu.counters.contention_cycles += waited;
    core.counters.fpu_contention_cycles += waited;
    ++core.counters.fpu_operations;
    return {best_start, best_start + 1 + latency, best};
}

FpuGrant FpuPool::issue_divsqrt(Core& core, uint64_t cycle, unsigned latency) {
    unsigned best = 0;
    for (unsigned u = 1; u < divsqrt_units_.size() && divsqrt_units_[best].free_from > cycle; ++u)
        if (divsqrt_units_[u].free_from < divsqrt_units_[best].free_from) best = u;
    DivSqrtUnit& unit = divsqrt_units_[best];
    const uint64_t start = std::max(cycle, unit.free_from);
    unit.free_from = start + latency; // not pipelined: busy until the result is out
    const uint64_t waited = start - cycle;
    ++unit.counters.operations;
    unit.counters.busy_cycles += latency;
    unit.counters.contention_cycles += waited;
    ++core.counters.divsqrt_operations;
    core.counters.divsqrt_contention_cycles += waited;
    return {start, start + latency, best};
}

void FpuPool::throw_core_out_of_range(unsigned core) const {
    throw std::invalid_argument(fmt::format("FPU pool (mapping '{}'): core {} is out of range 0..{}", mapping_,
                                            core, cores_.size() - 1));
}

} // namespace pulpsim
