// Advances the cores of a cluster in one plain C++ loop (see README.md).
//
// Lockstep (engine.lookahead 1, the default) is exact per-cycle round-robin: in every cycle the cores that
// issue in it run one instruction each, in an order that changes every cycle, and the DMA moves before or
// after them (dma.arbitration; round-robin alternates every cycle in which the DMA moves bytes). Shared
// resources (TCDM banks, FPUs) place each access at its own cycle, first come first served, so that order
// decides every same-cycle conflict.
// The fast loop keeps each awake core in a ring of upcoming cycles (the cycle it issues next), so a cycle
// costs only its issuing cores, and cycles in which no core issues and the DMA is idle are skipped; the
// reference loop (engine.reference_loop) visits every cycle and every core, for checking the fast one.
//
// With lookahead L > 1 time goes forward in steps of L cycles: each awake core runs, in the hart's own tight
// loop, to the end of the step, cores taking turns in an order that changes every step, and the DMA moves
// once per step. A same-cycle conflict then goes to the core that ran first in its step, not to the one
// per-cycle round-robin would pick: an approximation, for fewer switches between cores.
//
// In both, cycles in which no core is awake are skipped, and a lone awake core runs until the next event.
//
// Lockstep runs each core ahead after its turn (Hart::run_ahead_if_private) through the instructions that
// touch nothing shared, up to the next one that may; the shared accesses, the only places where cores meet,
// still take their turns in per-cycle round-robin order. What could tell the difference, a region's host
// call reading other cores' counters or the end of the run, sees each core as of that turn (the hart's
// journal of the instructions it ran ahead).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/event_unit.hpp"
#include "cluster/platform_config.hpp"
#include "core/closed_loop_watch.hpp"
#include "core/hart.hpp"
#include "dma/dma_unit.hpp"
#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {

// "0,3-5,7" for cores 0, 3, 4, 5 and 7 (in ascending order).
std::string core_ranges(const std::vector<unsigned>& cores);

class ClusterEngine : public IssueOrder {
  public:
    // At most 64 cores (the ring keeps a core per bit).
    ClusterEngine(std::vector<Hart*> harts, EventUnit& events, unsigned lookahead, DmaUnit* dma = nullptr,
                  PlatformConfig::Dma::Arbitration arbitration = PlatformConfig::Dma::Arbitration::RoundRobin,
                  bool reference_loop = false);

    // Runs until cycle `target` (or up to lookahead - 1 cycles past it, to finish a step) or the end of the
    // program; returns the cycle reached.
    uint64_t advance(uint64_t target);
    // A core ended the run (exit, error) or every core is asleep with nothing left to wake it.
    bool finished() const { return finished_; }
    // The run ends unfinished at the cycle limit: a core asleep counts its sleep up to it, as it does up to
    // the end of a run that finished.
    void end_at_limit(uint64_t limit);
    // Ends the run with an error when it provably never ends: every awake core jumps to itself, the DMA is
    // idle and no wake-up is due, so nothing can ever change. Checked once per advance (a quantum).
    void stop_if_spinning_forever();
    // The same for awake cores that loop through their registers reading memory nothing writes
    // (ClosedLoopWatch), checked at most every 65,536 cycles.
    void stop_if_looping_forever();
    // The core whose stop ended the run.
    const Hart* stopper() const { return stopper_; }
    uint64_t cycle() const { return now_; }
    // The TCDM whose reservations may drop cycles no core can still ask for (TcdmInterconnect::set_floor).
    void set_tcdm(TcdmInterconnect* tcdm) { tcdm_ = tcdm; }
    // Lockstep's round-robin order within `cycle`, and the cycle whose turns are being taken.
    bool runs_before(unsigned core_a, unsigned core_b, uint64_t cycle) const override;
    uint64_t turn_cycle() const override { return now_; }

  private:
    uint64_t advance_in_steps(uint64_t target);
    uint64_t advance_lockstep(uint64_t target);
    bool check_stopped(Hart& h);
    unsigned first_in_order(uint64_t step) const;
    uint64_t next_wake() const;
    bool dma_goes_first(uint64_t step_end);
    void report_deadlock();
    // Runs the lone awake core `lone` (the DMA idle) until the next event; false when the run ended.
    bool run_lone(Hart& lone, uint64_t target);

    // The lockstep ring: bit i of issuing_[c % kRing] = core i issues next in cycle c, for c in
    // [now_, now_ + kRing); cores further ahead wait in far_, sleeping ones in asleep_.
    static constexpr unsigned kRing = 64;
    void rebuild_ring();
    void place(unsigned core, uint64_t cycle);
    void pull_far();
    std::array<uint64_t, kRing> issuing_{};
    uint64_t occupied_ = 0; // bit s: issuing_[s] != 0
    uint64_t far_ = 0;
    uint64_t asleep_ = 0;

    std::vector<Hart*> harts_;
    EventUnit& events_;
    unsigned lookahead_;
    DmaUnit* dma_;
    TcdmInterconnect* tcdm_ = nullptr;
    PlatformConfig::Dma::Arbitration arbitration_;
    bool reference_loop_;
    uint64_t modulo_magic_ = 0; // for first_in_order's division by the core count
    bool dma_turn_ = false;     // round-robin: whether the DMA went first in the last step it moved bytes
    uint64_t now_ = 0;
    bool finished_ = false;
    const Hart* stopper_ = nullptr;
    ClosedLoopWatch closed_loops_;
};

} // namespace pulpsim
