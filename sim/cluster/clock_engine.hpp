// The one SystemC process that advances a platform's cycle-level models (see README.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <systemc>

namespace pulpsim {

class ClockEngine : public sc_core::sc_module {
  public:
    // Runs the models until `target` cycles (or until they stop) and returns the cycle they reached.
    using AdvanceFn = std::function<uint64_t(uint64_t target)>;
    using DoneFn = std::function<bool()>;
    // Called about every two host seconds with the cycles reached so far.
    using ProgressFn = std::function<void(uint64_t cycles, double host_seconds)>;

    ClockEngine(sc_core::sc_module_name name, sc_core::sc_time period, uint64_t quantum, uint64_t max_cycles,
                AdvanceFn advance, DoneFn done, ProgressFn progress = {});

    uint64_t cycles() const { return cycles_; }
    bool hit_max_cycles() const { return hit_max_; }
    double host_seconds() const { return host_seconds_; }
    uint64_t syncs() const { return syncs_; }

  private:
    void run();

    sc_core::sc_time period_;
    uint64_t quantum_;
    uint64_t max_cycles_;
    AdvanceFn advance_;
    DoneFn done_;
    ProgressFn progress_;
    uint64_t cycles_ = 0;
    uint64_t syncs_ = 0;
    bool hit_max_ = false;
    double host_seconds_ = 0;
};

} // namespace pulpsim
