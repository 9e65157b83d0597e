#include "memory/tcdm_interconnect.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace pulpsim {

namespace {

const TcdmConfig& validated(const TcdmConfig& c) {
    if (!std::has_single_bit(c.banks))
        throw std::invalid_argument(fmt::format("TCDM bank count {} is not a power of two", c.banks));
    const uint64_t stripe = uint64_t{c.banks} * 4; // one word in every bank
    if (c.size == 0 || c.size % stripe != 0)
        throw std::invalid_argument(
            fmt::format("TCDM size {} bytes is not a positive multiple of {} banks x 4 bytes = {}", c.size,
                        c.banks, stripe));
    if (c.base % 4 != 0)
        throw std::invalid_argument(fmt::format("TCDM base address {:#x} is not word-aligned", c.base));
    if (uint64_t{c.base} + c.size > (uint64_t{1} << 32))
        throw std::invalid_argument(
            fmt::format("TCDM at {:#x} with size {:#x} runs past the 4 GiB address space", c.base, c.size));
    if (c.ports == 0) throw std::invalid_argument("TCDM port count 0: it needs at least one initiator port");
    return c;
}

} // namespace

uint64_t TcdmCounters::accesses() const {
    uint64_t n = 0;
    for (const auto& b : banks)
        n += b.accesses;
    return n;
}

uint64_t TcdmCounters::writes() const {
    uint64_t n = 0;
    for (const auto& b : banks)
        n += b.writes;
    return n;
}

uint64_t TcdmCounters::conflict_cycles() const {
    uint64_t n = 0;
    for (const auto& b : banks)
        n += b.conflict_cycles;
    return n;
}

TcdmInterconnect::TcdmInterconnect(const TcdmConfig& config)
    : config_(validated(config)), bank_mask_(config.banks - 1), reservations_(config.banks) {
    counters_.banks.resize(config.banks);
    counters_.ports.resize(config.ports);
}

void TcdmInterconnect::reset_counters() {
    for (auto& b : counters_.banks)
        b = {};
    for (auto& p : counters_.ports)
        p = {};
}

void TcdmInterconnect::reset() {
    for (auto& r : reservations_)
        r = {};
    reset_counters();
}

void TcdmInterconnect::request_too_old(unsigned bank, uint64_t cycle, uint64_t latest_kept) {
    throw std::logic_error(fmt::format("TCDM bank {}: request for cycle {} is more than {} cycles behind the "
                                       "bank's latest grant in cycle {}",
                                       bank, cycle, kHistoryCycles - 1, latest_kept));
}

} // namespace pulpsim
