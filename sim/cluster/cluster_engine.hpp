// Advances the cores of a cluster cycle by cycle in one plain C++ loop (see README.md): within a cycle
// every awake core whose time has come executes one instruction, visiting cores in an order that changes
// every cycle so that shared resources (TCDM banks, FPUs) see round-robin arbitration. Cycles in which no
// core can issue are skipped; a lone awake core runs in the hart's own tight loop until the next event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/event_unit.hpp"
#include "core/hart.hpp"

namespace pulpsim {

class ClusterEngine {
  public:
    ClusterEngine(std::vector<Hart*> harts, EventUnit& events);

    // Runs until cycle `target` or the end of the program; returns the cycle reached.
    uint64_t advance(uint64_t target);
    // A core ended the run (exit, error) or every core is asleep with nothing left to wake it.
    bool finished() const { return finished_; }
    // The core whose stop ended the run.
    const Hart* stopper() const { return stopper_; }
    uint64_t cycle() const { return now_; }

  private:
    bool check_stopped(Hart& h);
    unsigned first_in_order(uint64_t cycle) const;

    std::vector<Hart*> harts_;
    EventUnit& events_;
    uint64_t now_ = 0;
    bool finished_ = false;
    const Hart* stopper_ = nullptr;
};

} // namespace pulpsim
