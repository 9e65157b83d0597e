#include "core/closed_loop_watch.hpp"

#include <utility>

#include "core/hart.hpp"

namespace pulpsim {

uint64_t ClosedLoopWatch::effects(std::span<Hart* const> harts) {
    uint64_t n = 0;
    for (const Hart* h : harts)
        n += h->stats().count(InsnClass::Store) + h->stats().count(InsnClass::FpStore) + h->outside_reads();
    // The cores of a cluster share one address map: counted once per core, its sum still only grows.
    for (Hart* h : harts)
        n += h->bus().device_accesses();
    return n;
}

void ClosedLoopWatch::arm(std::span<Hart* const> harts, uint64_t effects) {
    armed_ = true;
    effects_ = effects;
    start_.resize(harts.size());
    for (size_t i = 0; i < harts.size(); ++i) {
        const Hart& h = *harts[i];
        CoreAtStart& s = start_[i];
        h.architectural_state(s.state);
        s.instret = h.stats().instret();
        s.traps = s.traps_now = h.trap_record().count;
        s.asleep = h.asleep();
        s.stopped = h.stopped();
        s.returned = false;
    }
}

bool ClosedLoopWatch::check(std::span<Hart* const> harts, uint64_t cycle) {
    if (checked_ && cycle - last_check_ < kCheckEvery) return false;
    checked_ = true;
    last_check_ = cycle;
    const uint64_t now_effects = effects(harts);
    bool same = armed_ && now_effects == effects_ && start_.size() == harts.size();
    for (size_t i = 0; same && i < harts.size(); ++i)
        same = harts[i]->asleep() == start_[i].asleep && harts[i]->stopped() == start_[i].stopped;
    if (!same) {
        arm(harts, now_effects);
        return false;
    }
    bool all = true;
    looping_.clear();
    for (size_t i = 0; i < harts.size(); ++i) {
        const Hart& h = *harts[i];
        CoreAtStart& s = start_[i];
        if (s.asleep || s.stopped) continue;
        // Back at a state it had at an earlier check after going on: retiring instructions, or taking traps
        // alone. A core that is not takes its state now as the one to come back to, so that a start in the
        // middle of a loop's set-up (right after the last store) does not hide the loop for good.
        s.traps_now = h.trap_record().count;
        if (!s.returned && (h.stats().instret() != s.instret || s.traps_now != s.traps)) {
            h.architectural_state(scratch_);
            s.returned = scratch_ == s.state;
            if (!s.returned) {
                std::swap(s.state, scratch_);
                s.instret = h.stats().instret();
                s.traps = s.traps_now;
            }
        }
        all = all && s.returned;
        looping_.push_back(static_cast<unsigned>(i));
    }
    return all && !looping_.empty();
}

} // namespace pulpsim
