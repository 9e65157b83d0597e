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

uint64_t TcdmInterconnect::BankReservations::reserve_wide(uint64_t cycle, bool dma, uint64_t floor,
                                                          uint64_t& waited_on_dma) {
    floor = std::min(floor, cycle); // a lone core's requests come in time order, at or after its own
    if (!more) more = std::make_unique<std::vector<uint64_t>>();
    std::vector<uint64_t>& words_after = *more;
    auto words = [&] { return 1 + words_after.size() / 2; };
    auto taken_word = [&](size_t w) -> uint64_t& { return w == 0 ? taken : words_after[2 * (w - 1)]; };
    auto dma_word = [&](size_t w) -> uint64_t& { return w == 0 ? by_dma : words_after[2 * (w - 1) + 1]; };
    // Words wholly before the floor are never asked for again: drop them (back to one word if possible).
    auto drop_before_floor = [&] {
        if (floor <= start) return; // a lone core's run may have moved the start past today's floor
        const uint64_t drop = (floor - start) / 64;
        if (drop == 0) return;
        if (drop >= words()) { // all of it: start afresh at the floor
            taken = by_dma = 0;
            words_after.clear();
            start = floor;
            return;
        }
        taken = taken_word(drop);
        by_dma = dma_word(drop);
        words_after.erase(words_after.begin(), words_after.begin() + static_cast<std::ptrdiff_t>(2 * drop));
        start += 64 * drop;
    };
    drop_before_floor();

    const uint64_t offset = cycle - start;
    uint64_t slot = offset;
    while (slot / 64 < words()) {
        const uint64_t free = ~taken_word(slot / 64) & (~uint64_t{0} << (slot % 64));
        if (free) {
            slot = slot / 64 * 64 + std::countr_zero(free);
            break;
        }
        slot = (slot / 64 + 1) * 64;
    }
    if (slot != offset) // the waited cycles are [offset, slot), all taken
        for (uint64_t c = offset; c < slot; ++c)
            waited_on_dma += c / 64 < words() && (dma_word(c / 64) >> (c % 64) & 1);
    const uint64_t granted = start + slot;
    // The engine keeps its cores within a few hundred cycles of each other; this many is a lost floor.
    constexpr uint64_t kMaxWords = uint64_t{1} << 16;
    if (slot / 64 >= kMaxWords)
        throw std::logic_error(fmt::format("TCDM: a grant in cycle {} lies more than {} cycles ahead of the "
                                           "oldest cycle a request may still ask for ({})",
                                           granted, 64 * kMaxWords, start));
    while (slot / 64 >= words()) {
        words_after.push_back(0);
        words_after.push_back(0);
    }
    taken_word(slot / 64) |= uint64_t{1} << (slot % 64);
    dma_word(slot / 64) |= uint64_t{dma} << (slot % 64);
    if (words_after.empty()) more.reset(); // back to one word
    return granted;
}

void TcdmInterconnect::request_too_old(unsigned bank, uint64_t cycle, uint64_t oldest_kept) {
    throw std::logic_error(
        fmt::format("TCDM bank {}: request for cycle {}, before the oldest cycle kept ({}): "
                    "the engine asked for a cycle it had passed",
                    bank, cycle, oldest_kept));
}

} // namespace pulpsim
