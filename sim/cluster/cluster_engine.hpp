// Advances the cores of a cluster in one plain C++ loop (see README.md). Time goes forward in steps of
// `lookahead` cycles: in each step every awake core runs, in the hart's own tight loop, up to the end of
// the step, visiting cores in an order that changes every step. Shared resources (TCDM banks, FPUs)
// place each access at its own cycle, so a core that runs first in a step wins the same-cycle conflicts of
// that step: with lookahead 1 this is exact cycle-by-cycle round-robin, with larger steps the winner of a
// same-cycle conflict is decided per step instead of per cycle, for much less overhead. Cycles in which no
// core can issue are skipped; a lone awake core runs until the next event.
//
// The DMA, while it has work, advances once per step too: before the cores (dma.arbitration: dma-first),
// after them (cores-first), or alternately (round-robin), which decides who wins a bank both want in the
// same cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/event_unit.hpp"
#include "cluster/platform_config.hpp"
#include "core/hart.hpp"
#include "dma/dma_unit.hpp"
#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {

class ClusterEngine {
  public:
    ClusterEngine(
        std::vector<Hart*> harts, EventUnit& events, unsigned lookahead, DmaUnit* dma = nullptr,
        PlatformConfig::Dma::Arbitration arbitration = PlatformConfig::Dma::Arbitration::RoundRobin);

    // Runs until cycle `target` (or up to lookahead - 1 cycles past it, to finish a step) or the end of the
    // program; returns the cycle reached.
    uint64_t advance(uint64_t target);
    // A core ended the run (exit, error) or every core is asleep with nothing left to wake it.
    bool finished() const { return finished_; }
    // The core whose stop ended the run.
    const Hart* stopper() const { return stopper_; }
    uint64_t cycle() const { return now_; }
    // The TCDM whose reservations may drop cycles no core can still ask for (TcdmInterconnect::set_floor).
    void set_tcdm(TcdmInterconnect* tcdm) { tcdm_ = tcdm; }

  private:
    bool check_stopped(Hart& h);
    unsigned first_in_order(uint64_t step) const;
    uint64_t next_wake() const;
    bool dma_goes_first();
    void report_deadlock();

    std::vector<Hart*> harts_;
    EventUnit& events_;
    unsigned lookahead_;
    DmaUnit* dma_;
    TcdmInterconnect* tcdm_ = nullptr;
    PlatformConfig::Dma::Arbitration arbitration_;
    bool dma_turn_ = false; // round-robin: whether the DMA goes first in its next busy step
    uint64_t now_ = 0;
    bool finished_ = false;
    const Hart* stopper_ = nullptr;
};

} // namespace pulpsim
