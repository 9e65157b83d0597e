#include "cluster/cluster_engine.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pulpsim {

ClusterEngine::ClusterEngine(std::vector<Hart*> harts, EventUnit& events, unsigned lookahead, DmaUnit* dma,
                             PlatformConfig::Dma::Arbitration arbitration)
    : harts_(std::move(harts)), events_(events), lookahead_(std::max(lookahead, 1u)), dma_(dma),
      arbitration_(arbitration) {}

// A fixed permutation of steps: a rotation by `step % n` would let a loop whose period is a multiple of
// n steps see the same order every time and always lose the same conflicts.
unsigned ClusterEngine::first_in_order(uint64_t step) const {
    const uint64_t mixed = (step + 1) * 0x9E3779B97F4A7C15ull;
    return static_cast<unsigned>((mixed >> 32) % harts_.size());
}

bool ClusterEngine::check_stopped(Hart& h) {
    if (!h.stopped()) return false;
    finished_ = true;
    stopper_ = &h;
    now_ = std::max(now_, h.cycle()); // the run ends when the stopping instruction completes
    for (Hart* other : harts_)
        other->sleep_until_end(now_);
    return true;
}

uint64_t ClusterEngine::next_wake() const {
    return std::min(events_.next_wake(), dma_ ? dma_->next_wake() : UINT64_MAX);
}

bool ClusterEngine::dma_goes_first() {
    switch (arbitration_) {
    case PlatformConfig::Dma::Arbitration::DmaFirst: return true;
    case PlatformConfig::Dma::Arbitration::CoresFirst: return false;
    case PlatformConfig::Dma::Arbitration::RoundRobin: break;
    }
    dma_turn_ = !dma_turn_;
    return dma_turn_;
}

void ClusterEngine::report_deadlock() {
    std::string where;
    for (const Hart* h : harts_)
        where += fmt::format(" core {} at pc {:#010x};", h->hartid(), h->pc());
    harts_[0]->request_stop(StopReason::Error, 3,
                            fmt::format("deadlock at cycle {}: every core is asleep waiting for an "
                                        "event that nothing will send ({})",
                                        now_, where.substr(1, where.size() - 2)));
    finished_ = true;
    stopper_ = harts_[0];
}

uint64_t ClusterEngine::advance(uint64_t target) {
    const unsigned n = static_cast<unsigned>(harts_.size());
    while (!finished_ && now_ < target) {
        // Steps lie on a fixed grid of `lookahead` cycles and are never cut at `target`, so where the
        // caller synchronises (the quantum, or none) cannot change who wins a conflict: the run may
        // end up to lookahead - 1 cycles past `target`.
        const uint64_t step_end = (now_ / lookahead_ + 1) * lookahead_;
        const bool dma_busy = dma_ && dma_->busy();
        const bool dma_first = dma_busy && dma_goes_first();
        if (dma_first) dma_->advance(step_end);
        events_.deliver_wakes(step_end - 1);
        if (dma_) dma_->deliver_wakes(step_end - 1);
        Hart* lone = nullptr;
        unsigned awake = 0;
        uint64_t earliest = now_; // no core asks the TCDM for an earlier cycle from here on
        for (Hart* h : harts_) {
            if (check_stopped(*h)) return now_;
            if (!h->asleep()) {
                ++awake;
                lone = h;
                earliest = std::min(earliest, h->cycle());
            }
        }
        if (tcdm_) tcdm_->set_floor(earliest);
        if (awake == 0) {
            if (dma_busy) {
                // Every core waits: the DMA alone moves time forward, a step at a time.
                if (!dma_first) dma_->advance(step_end);
                now_ = step_end;
                continue;
            }
            if (next_wake() == UINT64_MAX) {
                report_deadlock();
                return now_;
            }
            now_ = std::min(std::max(next_wake(), now_ + 1), target);
            continue;
        }
        if (awake == 1 && !dma_busy) {
            // Nothing can interleave with it until the next wake-up: let it run in its own loop. A core
            // that starts a DMA transfer ends its run there.
            const uint64_t until = std::min(target, std::max(next_wake(), now_ + 1));
            // Its own requests come in time order and nothing else asks before `until`: the banks need not
            // keep what lies before either.
            if (tcdm_) tcdm_->set_floor(until);
            if (lone->cycle() < until) lone->run(until);
            if (check_stopped(*lone)) return now_;
            // A core that fell asleep did so at its own cycle: the next iteration handles the idle time.
            now_ = std::min(std::max(now_ + 1, lone->cycle()), until);
            continue;
        }
        unsigned i = first_in_order(step_end / lookahead_);
        for (unsigned k = 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
            Hart& h = *harts_[i];
            if (h.asleep() || h.cycle() >= step_end) continue;
            h.run(step_end);
            if (check_stopped(h)) return now_;
        }
        // Also when a core started the DMA during this step.
        if (dma_ && !dma_first) dma_->advance(step_end);
        now_ = step_end;
    }
    return now_;
}

} // namespace pulpsim
