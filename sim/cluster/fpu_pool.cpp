// Shared FPUs and div/sqrt units of a cluster (see fpu_pool.hpp for what is modelled).
#include "cluster/fpu_pool.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

namespace pulpsim {
namespace {

uint64_t all_fpus(unsigned fpus) {
    return fpus >= 64 ? ~uint64_t{0} : (uint64_t{1} << fpus) - 1;
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
    if (config.divsqrt_units == 0 || config.divsqrt_units > kMaxFpus)
        config_error(fmt::format("divsqrt_units = {}, need 1..{}", config.divsqrt_units, kMaxFpus));
    if (config.default_divsqrt_latency == 0) config_error("default_divsqrt_latency = 0, need at least 1");

    latency_[static_cast<unsigned>(FpuOpKind::AddMul)] = config.addmul_latency;
    latency_[static_cast<unsigned>(FpuOpKind::Other)] = config.other_latency;
    default_divsqrt_latency_ = config.default_divsqrt_latency;
    fpus_.resize(config.fpus);
    divsqrt_units_.resize(config.divsqrt_units);
    cores_.resize(config.cores);
    core_count_ = config.cores;
    for (unsigned i = 0; i < config.cores; ++i) {
        const uint64_t candidates = mapping.candidates(i, config.cores, config.fpus) & all_fpus(config.fpus);
        if (candidates == 0)
            config_error(
                fmt::format("mapping '{}' gives core {} no FPU out of {}", config.mapping, i, config.fpus));
        cores_[i].candidates = candidates;
        cores_[i].only_fpu = std::has_single_bit(candidates)
                                 ? static_cast<unsigned>(std::countr_zero(candidates))
                                 : kSeveralFpus;
        some_core_chooses_ |= cores_[i].only_fpu == kSeveralFpus;
    }
    reset();
}

void FpuPool::reset() {
    for (Fpu& fpu : fpus_)
        fpu = Fpu{};
    for (DivSqrtUnit& unit : divsqrt_units_)
        unit = DivSqrtUnit{};
    for (Core& core : cores_)
        core.counters = CoreFpuCounters{};
    for (uint64_t c = 0; c < kTrackedCycles; ++c)
        fpus_taken_at_[c] = {c, 0};
    newest_start_ = 0;
}

FpuLane FpuPool::lane(unsigned core_index) {
    if (core_index >= core_count_) [[unlikely]]
        throw_core_out_of_range(core_index);
    Core& core = cores_[core_index];
    if (some_core_chooses_ || observer_ != nullptr) return {};
    return {&fpus_[core.only_fpu], &core.counters.fpu_operations, &core.counters.fpu_contention_cycles};
}

FpuGrant FpuPool::issue(unsigned core_index, uint64_t cycle, FpuOpKind kind, unsigned divsqrt_latency) {
    if (core_index >= core_count_) [[unlikely]]
        throw_core_out_of_range(core_index);
    Core& core = cores_[core_index];
    if (kind == FpuOpKind::DivSqrt) [[unlikely]]
        return issue_divsqrt(core, cycle, divsqrt_latency ? divsqrt_latency : default_divsqrt_latency_);

    unsigned best = core.only_fpu;
    uint64_t best_start;
    if (best != kSeveralFpus)
        best_start = fpus_[best].first_free(cycle);
    else
        std::tie(best, best_start) = earliest_free(core.candidates, cycle);

    Fpu& fpu = fpus_[best];
    fpu.take(best_start);
    if (some_core_chooses_) track_start(best, best_start);
    const uint64_t waited = best_start - cycle;
    fpu.contention_cycles += waited;
    core.counters.fpu_contention_cycles += waited;
    ++core.counters.fpu_operations;
    if (observer_ != nullptr) [[unlikely]]
        tell_started(best, best_start);
    return {best_start, best_start + 1 + latency_[static_cast<unsigned>(kind)], best};
}

// The first cycle with a candidate free, and there the lowest index. Searching cycle by cycle costs one
// step per cycle waited, whatever the number of candidates.
std::pair<unsigned, uint64_t> FpuPool::earliest_free(uint64_t candidates, uint64_t cycle) const {
    for (uint64_t start = std::max(cycle, oldest_tracked_start());; ++start) {
        const CycleSlot& slot = fpus_taken_at_[start % kTrackedCycles];
        const uint64_t free = candidates & ~(slot.cycle == start ? slot.fpus_taken : 0);
        if (free != 0) return {static_cast<unsigned>(std::countr_zero(free)), start};
    }
}

void FpuPool::track_start(unsigned fpu, uint64_t start) {
    if (start < oldest_tracked_start()) return; // the table no longer covers it: nobody looks there
    newest_start_ = std::max(newest_start_, start);
    CycleSlot& slot = fpus_taken_at_[start % kTrackedCycles];
    if (slot.cycle != start) slot = {start, 0};
    slot.fpus_taken |= uint64_t{1} << fpu;
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
    if (observer_) [[unlikely]]
        observer_->divsqrt_busy(best, start, start + latency);
    return {start, start + latency, best};
}

void FpuPool::tell_started(unsigned fpu, uint64_t cycle) const {
    observer_->fpu_started(fpu, cycle);
}

void FpuPool::throw_core_out_of_range(unsigned core) const {
    throw std::invalid_argument(fmt::format("FPU pool (mapping '{}'): core {} is out of range 0..{}",
                                            mapping_, core, core_count_ - 1));
}

} // namespace pulpsim
