#include "cluster/instruction_cache.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <stdexcept>

namespace pulpsim {

InstructionCache::InstructionCache(const InstructionCacheConfig& config) : config_(config) {
    const uint32_t line = 1u << kLineShift;
    if (!std::has_single_bit(config.l0_size) || config.l0_size < line)
        throw std::invalid_argument(fmt::format(
            "icache.l0_size {} is not a power of two of at least {} bytes", config.l0_size, line));
    if (!std::has_single_bit(config.l1_size) || config.l1_size < line * kWays)
        throw std::invalid_argument(fmt::format(
            "icache.l1_size {} is not a power of two of at least {} bytes", config.l1_size, line * kWays));
    l0_.assign(config.cores, L0{std::vector<uint32_t>(config.l0_size / line, kEmpty)});
    l1_sets_ = config.l1_size / line / kWays;
    l1_tags_.assign(static_cast<size_t>(l1_sets_) * kWays, kEmpty);
    counters_.assign(config.cores, {});
}

FetchLane InstructionCache::lane(unsigned core) {
    std::vector<uint32_t>& tags = l0_.at(core).tags;
    return {tags.data(), static_cast<uint32_t>(tags.size() - 1), kLineShift, &counters_[core].fetches};
}

bool InstructionCache::fetch_line_privately(unsigned core, uint32_t addr) {
    const uint32_t line = addr >> kLineShift;
    if (l0_[core].tags[line & (l0_[core].tags.size() - 1)] != line) return false;
    ++counters_[core].fetches;
    return true;
}

unsigned InstructionCache::fetch_line(unsigned core, uint32_t addr) {
    const uint32_t line = addr >> kLineShift;
    InstructionCacheCounters& c = counters_[core];
    ++c.fetches;
    uint32_t& l0_tag = l0_[core].tags[line & (l0_[core].tags.size() - 1)];
    if (l0_tag == line) return 0;
    ++c.l0_misses;
    l0_tag = line;

    unsigned cycles = config_.refill_latency;
    uint32_t* set = &l1_tags_[static_cast<size_t>(line % l1_sets_) * kWays];
    uint32_t* hit = std::find(set, set + kWays, line);
    if (hit == set + kWays) {
        ++c.l1_misses;
        cycles += config_.refill_latency + config_.l2_latency;
        hit = set + kWays - 1; // the least recently used way is replaced
    }
    std::rotate(set, hit, hit + 1); // most recently used first
    set[0] = line;
    c.stall_cycles += cycles;
    return cycles;
}

} // namespace pulpsim
