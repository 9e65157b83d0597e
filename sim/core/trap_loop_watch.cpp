#include "core/trap_loop_watch.hpp"

#include <algorithm>
#include <cstring>

namespace pulpsim {

bool TrapLoopWatch::trap_taken(const std::vector<uint32_t>& state, uint64_t outside_accesses) {
    const bool same = state == last_state_ && outside_accesses == last_outside_;
    last_state_ = state;
    last_outside_ = outside_accesses;
    if (!same) {
        repeats_ = 0;
        copied_ = false;
        return false;
    }
    if (copied_) {
        if (memory_matches_copy()) return true;
        // The registers repeat but the memory moves on: look again, later.
        copied_ = false;
        repeats_ = 0;
        copy_after_ = std::min(copy_after_ * 2, 1u << 30);
        return false;
    }
    if (++repeats_ >= copy_after_) copy_memory();
    return false;
}

bool TrapLoopWatch::memory_matches_copy() const {
    const auto& rams = memory_.rams();
    if (rams.size() != copy_.size()) return false;
    for (size_t i = 0; i < rams.size(); ++i)
        if (copy_[i].size() != rams[i]->size() ||
            std::memcmp(copy_[i].data(), rams[i]->data(), rams[i]->size()))
            return false;
    return true;
}

void TrapLoopWatch::copy_memory() {
    uint64_t total = 0;
    for (const auto& ram : memory_.rams())
        total += ram->size();
    if (total > kMaxCopiedBytes) return;
    copy_.resize(memory_.rams().size());
    for (size_t i = 0; i < copy_.size(); ++i) {
        const Ram& ram = *memory_.rams()[i];
        copy_[i].assign(ram.data(), ram.data() + ram.size());
    }
    copied_ = true;
}

} // namespace pulpsim
