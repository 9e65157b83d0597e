#include "cluster/cluster_engine.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <stdexcept>

#include "core/hart_loop.hpp"

namespace pulpsim {

ClusterEngine::ClusterEngine(std::vector<Hart*> harts, EventUnit& events, unsigned lookahead, DmaUnit* dma,
                             PlatformConfig::Dma::Arbitration arbitration, bool reference_loop)
    : harts_(std::move(harts)), events_(events), lookahead_(std::max(lookahead, 1u)), dma_(dma),
      arbitration_(arbitration), reference_loop_(reference_loop) {
    if (harts_.empty() || harts_.size() > 64)
        throw std::invalid_argument(fmt::format("cluster engine: {} cores, need 1..64", harts_.size()));
    modulo_magic_ = ~uint64_t{0} / harts_.size() + 1;
    for (Hart* h : harts_)
        h->set_issue_order(this);
}

bool ClusterEngine::runs_before(unsigned core_a, unsigned core_b, uint64_t cycle) const {
    const unsigned n = static_cast<unsigned>(harts_.size());
    const unsigned first = first_in_order(cycle + 1);
    return (core_a + n - first) % n < (core_b + n - first) % n;
}

// A fixed permutation of steps: a rotation by `step % n` would let a loop whose period is a multiple of
// n steps see the same order every time and always lose the same conflicts.
unsigned ClusterEngine::first_in_order(uint64_t step) const {
    const uint64_t mixed = (step + 1) * 0x9E3779B97F4A7C15ull;
    // (mixed >> 32) % n by multiplication (exact for 32-bit dividends): lockstep asks every cycle.
    const uint64_t low = modulo_magic_ * (mixed >> 32);
    return static_cast<unsigned>((static_cast<unsigned __int128>(low) * harts_.size()) >> 64);
}

bool ClusterEngine::check_stopped(Hart& h) {
    if (!h.stopped()) return false;
    finished_ = true;
    stopper_ = &h;
    const uint64_t turn = now_;
    now_ = std::max(now_, h.cycle()); // the run ends when the stopping instruction completes
    for (Hart* other : harts_) {
        if (other != &h) other->rewind_run_ahead(h.hartid(), turn);
        other->sleep_until_end(now_);
    }
    return true;
}

uint64_t ClusterEngine::next_wake() const {
    return std::min(events_.next_wake(), dma_ ? dma_->next_wake() : UINT64_MAX);
}

bool ClusterEngine::dma_goes_first(uint64_t step_end) {
    switch (arbitration_) {
    case PlatformConfig::Dma::Arbitration::DmaFirst: return true;
    case PlatformConfig::Dma::Arbitration::CoresFirst: return false;
    case PlatformConfig::Dma::Arbitration::RoundRobin: break;
    }
    // Turns change with every step in which the DMA moves bytes, not with every step: a channel that loses a
    // bank waits a cycle before its next move, so alternating by cycle would hand it the losing turn every
    // time in lockstep.
    if (dma_->moves_before(step_end)) dma_turn_ = !dma_turn_;
    return dma_turn_;
}

std::string core_ranges(const std::vector<unsigned>& cores) {
    std::string list;
    for (size_t i = 0; i < cores.size();) {
        size_t j = i;
        while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1)
            ++j;
        list += fmt::format("{}{}", list.empty() ? "" : ",",
                            j == i ? fmt::format("{}", cores[i]) : fmt::format("{}-{}", cores[i], cores[j]));
        i = j + 1;
    }
    return list;
}

void ClusterEngine::end_at_limit(uint64_t limit) {
    for (Hart* h : harts_)
        h->sleep_until_end(limit);
}

void ClusterEngine::report_deadlock() {
    // Every core sleeps to the end: the report shows them asleep, not idle after their last instruction.
    for (Hart* h : harts_)
        h->sleep_until_end(now_);
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

void ClusterEngine::stop_if_spinning_forever() {
    if (finished_ || (dma_ && dma_->busy()) || next_wake() != UINT64_MAX) return;
    Hart* spinning = nullptr;
    for (Hart* h : harts_) {
        if (h->stopped() || h->asleep()) continue;
        if (!h->jumps_to_itself()) return;
        if (!spinning) spinning = h;
    }
    if (!spinning) return;
    spinning->request_stop(
        StopReason::Error, 3,
        fmt::format("livelock at cycle {}: the instruction at pc {:#010x} jumps to itself, "
                    "with every other core asleep or looping the same way and the DMA idle: "
                    "the program can never go on",
                    now_, spinning->pc()));
    finished_ = true;
    stopper_ = spinning;
}

void ClusterEngine::stop_if_looping_forever() {
    if (finished_) return;
    if ((dma_ && dma_->busy()) || next_wake() != UINT64_MAX) {
        closed_loops_.restart();
        return;
    }
    if (!closed_loops_.check(harts_, now_)) return;
    std::vector<unsigned> cores;
    for (unsigned i : closed_loops_.looping())
        cores.push_back(harts_[i]->hartid());
    const unsigned first = closed_loops_.looping().front();
    Hart* stopper = harts_[first];
    std::string trap_loop;
    if (closed_loops_.trapped(first)) {
        const Hart::TrapRecord& t = stopper->trap_record();
        trap_loop =
            fmt::format("; core {} takes the {} at pc {:#010x} to the handler at {:#010x} over and over",
                        stopper->hartid(), Hart::trap_cause_name(t.cause), t.pc, t.handler);
    }
    stopper->request_stop(
        StopReason::Error, 3,
        fmt::format("livelock at cycle {}: core{} {} loop{} through the same registers again and "
                    "again, reading only memory that no core and no DMA transfer writes, with "
                    "every other core asleep or stopped and the DMA idle: the program can never go on{}",
                    now_, cores.size() == 1 ? "" : "s", core_ranges(cores), cores.size() == 1 ? "s" : "",
                    trap_loop));
    finished_ = true;
    stopper_ = stopper;
}

bool ClusterEngine::run_lone(Hart& lone, uint64_t target) {
    // Nothing can interleave with it until the next wake-up: let it run in its own loop. A core that starts
    // a DMA transfer ends its run there.
    const uint64_t until = std::min(target, std::max(next_wake(), now_ + 1));
    // Its own requests come in time order and nothing else asks before `until`: the banks need not keep
    // what lies before either.
    if (tcdm_) tcdm_->set_floor(until);
    if (lone.cycle() < until) lone.run(until);
    if (check_stopped(lone)) return false;
    // A core that fell asleep did so at its own cycle: the next iteration handles the idle time.
    now_ = std::min(std::max(now_ + 1, lone.cycle()), until);
    return true;
}

uint64_t ClusterEngine::advance(uint64_t target) {
    const uint64_t reached =
        lookahead_ == 1 && !reference_loop_ ? advance_lockstep(target) : advance_in_steps(target);
    stop_if_spinning_forever();
    stop_if_looping_forever();
    return reached;
}

uint64_t ClusterEngine::advance_in_steps(uint64_t target) {
    const unsigned n = static_cast<unsigned>(harts_.size());
    while (!finished_ && now_ < target) {
        // Steps lie on a fixed grid of `lookahead` cycles and are never cut at `target`, so where the
        // caller synchronises (the quantum, or none) cannot change who wins a conflict: the run may
        // end up to lookahead - 1 cycles past `target`.
        const uint64_t step_end = (now_ / lookahead_ + 1) * lookahead_;
        const bool dma_busy = dma_ && dma_->busy();
        const bool dma_first = dma_busy && dma_goes_first(step_end);
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
            if (!run_lone(*lone, target)) return now_;
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

// ---------------------------------------------------------------------------------------------------------
// Lockstep: the same steps as advance_in_steps with lookahead 1, visiting only the cores that issue.

void ClusterEngine::place(unsigned core, uint64_t cycle) {
    const uint64_t bit = uint64_t{1} << core;
    if (cycle - now_ < kRing) {
        const unsigned slot = cycle % kRing;
        issuing_[slot] |= bit;
        occupied_ |= uint64_t{1} << slot;
    } else {
        far_ |= bit;
    }
}

void ClusterEngine::rebuild_ring() {
    issuing_.fill(0);
    occupied_ = far_ = asleep_ = 0;
    for (unsigned i = 0; i < harts_.size(); ++i) {
        const Hart& h = *harts_[i];
        if (h.stopped()) continue;
        if (h.asleep())
            asleep_ |= uint64_t{1} << i;
        else
            place(i, std::max(h.cycle(), now_)); // a core woken for an earlier cycle issues now
    }
}

void ClusterEngine::pull_far() {
    for (uint64_t rest = far_; rest; rest &= rest - 1) {
        const auto i = static_cast<unsigned>(std::countr_zero(rest));
        if (harts_[i]->cycle() - now_ < kRing) {
            far_ &= ~(uint64_t{1} << i);
            place(i, harts_[i]->cycle());
        }
    }
}

uint64_t ClusterEngine::advance_lockstep(uint64_t target) {
    const unsigned n = static_cast<unsigned>(harts_.size());
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    for (Hart* h : harts_)
        if (check_stopped(*h)) return now_;
    rebuild_ring();
    while (!finished_ && now_ < target) {
        const uint64_t c = now_;
        const bool dma_busy = dma_ && dma_->busy();
        const bool dma_first = dma_busy && dma_goes_first(c + 1);
        if (dma_first) dma_->advance(c + 1);
        uint64_t earliest = c; // no core asks the TCDM for an earlier cycle from here on
        if (events_.next_wake() <= c || (dma_ && dma_->next_wake() <= c)) {
            events_.deliver_wakes(c);
            if (dma_) dma_->deliver_wakes(c);
            for (uint64_t rest = asleep_; rest; rest &= rest - 1) {
                const auto i = static_cast<unsigned>(std::countr_zero(rest));
                const Hart& h = *harts_[i];
                if (h.asleep()) continue;
                asleep_ &= ~(uint64_t{1} << i);
                earliest = std::min(earliest, h.cycle());
                place(i, std::max(h.cycle(), c)); // woken for an earlier cycle: it issues now
            }
        }
        if (tcdm_) tcdm_->set_floor(earliest);
        const uint64_t awake = all & ~asleep_;
        if (awake == 0) {
            if (dma_busy) {
                if (!dma_first) dma_->advance(c + 1);
                now_ = c + 1;
                continue;
            }
            if (next_wake() == UINT64_MAX) {
                report_deadlock();
                return now_;
            }
            now_ = std::min(std::max(next_wake(), c + 1), target);
            continue;
        }
        if ((awake & (awake - 1)) == 0 && !dma_busy) { // one core awake (a popcount may be a library call)
            if (!run_lone(*harts_[std::countr_zero(awake)], target)) return now_;
            rebuild_ring();
            continue;
        }
        const unsigned slot = c % kRing;
        const uint64_t issuing = issuing_[slot];
        if (issuing == 0 && !dma_busy) {
            // No core issues in this cycle and the DMA is idle: nothing happens until the next core issues or
            // a wake-up falls due.
            const uint64_t ahead = std::rotr(occupied_, static_cast<int>(slot));
            uint64_t next = ahead ? c + std::countr_zero(ahead) : UINT64_MAX;
            for (uint64_t rest = far_; rest; rest &= rest - 1)
                next = std::min(next, harts_[std::countr_zero(rest)]->cycle());
            now_ = std::min({next, next_wake(), target});
            if (dma_) dma_->advance(now_); // idle: only its clock moves, as in every skipped step
            if (far_) pull_far();
            continue;
        }
        issuing_[slot] = 0;
        occupied_ &= ~(uint64_t{1} << slot);
        // Round-robin from first_in_order: cores first..n-1, then 0..first-1. Rotated right by `first`, the
        // cores below it land above the others (n <= 64): one mask, in order.
        const unsigned first = first_in_order(c + 1);
        // Each turn's handler address is read one turn ahead (Hart::take_turn says why).
        auto core_at = [first](uint64_t rest) {
            return (static_cast<unsigned>(std::countr_zero(rest)) + first) % 64;
        };
        uint64_t order = std::rotr(issuing, static_cast<int>(first));
        unsigned next = order ? core_at(order) : 0;
        ExecFn next_handler = order ? harts_[next]->next_turn_handler() : nullptr;
        while (order) {
            const unsigned i = next;
            const ExecFn handler = next_handler;
            order &= order - 1;
            if (order) {
                next = core_at(order);
                next_handler = harts_[next]->next_turn_handler();
            }
            Hart& h = *harts_[i];
            if (!h.take_turn(c + 1, target, handler)) [[unlikely]] {
                if (check_stopped(h)) return now_;
                asleep_ |= uint64_t{1} << i;
                continue;
            }
            place(i, h.cycle());
        }
        // Also when a core started the DMA in this cycle.
        if (dma_ && !dma_first) dma_->advance(c + 1);
        now_ = c + 1;
        if (far_) pull_far();
    }
    return now_;
}

} // namespace pulpsim
