#include "cluster/clock_engine.hpp"

#include <algorithm>

namespace pulpsim {

ClockEngine::ClockEngine(sc_core::sc_module_name name, sc_core::sc_time period, uint64_t quantum,
                         uint64_t max_cycles, AdvanceFn advance, DoneFn done, ProgressFn progress)
    : sc_core::sc_module(name), period_(period), quantum_(std::max<uint64_t>(quantum, 1)),
      max_cycles_(max_cycles), advance_(std::move(advance)), done_(std::move(done)),
      progress_(std::move(progress)) {
    SC_HAS_PROCESS(ClockEngine);
    SC_THREAD(run);
}

void ClockEngine::run() {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto next_progress = start + std::chrono::seconds(2);
    while (!done_()) {
        if (cycles_ >= max_cycles_) {
            hit_max_ = true;
            break;
        }
        const uint64_t target = std::min(cycles_ + quantum_, max_cycles_);
        const uint64_t reached = std::max(advance_(target), cycles_);
        // One synchronisation per quantum: SystemC time follows the models, never the other way round.
        wait(period_ * static_cast<double>(reached - cycles_));
        cycles_ = reached;
        ++syncs_;
        if (progress_ && (syncs_ & 63) == 0 && clock::now() >= next_progress) {
            next_progress = clock::now() + std::chrono::seconds(2);
            progress_(cycles_, std::chrono::duration<double>(clock::now() - start).count());
        }
    }
    host_seconds_ = std::chrono::duration<double>(clock::now() - start).count();
    sc_core::sc_stop();
}

} // namespace pulpsim

// Executables that drive the models without elaborating SystemC (unit tests, benchmarks) still link
// libsystemc, whose own main() refers to sc_main; pulpsim's command line defines the real one.
__attribute__((weak)) int sc_main(int, char*[]) {
    return 1;
}
