#include "memory/memory_guards.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace pulpsim {

namespace {
bool overlaps(const MemoryGuards::Zone& z, uint32_t addr, uint64_t end) {
    return z.lo < end && addr < z.hi;
}
} // namespace

void MemoryGuards::add(uint32_t addr, uint32_t len, std::string what) {
    remove(addr, len);
    const auto at = std::lower_bound(zones_.begin(), zones_.end(), addr,
                                     [](const Zone& z, uint32_t a) { return z.lo < a; });
    zones_.insert(at, Zone{addr, uint64_t{addr} + len, std::move(what)});
    armed_ = true;
}

size_t MemoryGuards::remove(uint32_t addr, uint32_t len) {
    const uint64_t end = uint64_t{addr} + len;
    const size_t before = zones_.size();
    std::erase_if(zones_, [&](const Zone& z) { return overlaps(z, addr, end); });
    armed_ = !zones_.empty();
    return before - zones_.size();
}

const MemoryGuards::Zone* MemoryGuards::hit(uint32_t addr, unsigned len) const {
    // The first zone ending after addr is the only one that can overlap (zones are disjoint and sorted).
    const auto it = std::upper_bound(zones_.begin(), zones_.end(), addr,
                                     [](uint32_t a, const Zone& z) { return a < z.hi; });
    if (it != zones_.end() && overlaps(*it, addr, uint64_t{addr} + len)) return &*it;
    return nullptr;
}

std::string MemoryGuards::describe(const Zone& zone, uint32_t addr, unsigned len, bool write) {
    return fmt::format(
        "{} of {} byte{} at {:#010x} is in the guard zone {} [{:#010x}, {:#010x}): the program "
        "accesses memory outside its tensors",
        write ? "store" : "load", len, len == 1 ? "" : "s", addr, zone.what, zone.lo, zone.hi);
}

} // namespace pulpsim
