// Proves that the awake cores loop forever without touching anything: each has come back to an
// architectural state it had at an earlier check, and since the watch started no core has stored to memory,
// reached a device or the host, or read a performance counter. Memory then never changes again, so each core
// repeats its own loop for ever, and a sleeping core is never woken (its caller makes sure no wake-up is due
// and no DMA is at work). A polling loop on a flag nothing sets is the common case: it would otherwise run to
// the cycle limit. A core going round traps counts too, even one that retires nothing (mtvec pointing at an
// illegal instruction or outside every memory). A loop that counts in a register, or reads time, is never
// proven.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace pulpsim {

class Hart;

class ClosedLoopWatch {
  public:
    // Told at a point where every core has stopped between two instructions, with nothing outside the cores
    // about to act (no wake-up due, the DMA idle). True when the loop is proven: looping() names the cores
    // (their indices in `harts`).
    bool check(std::span<Hart* const> harts, uint64_t cycle);
    // Something outside the cores may act from here on: the proof starts again at the next check.
    void restart() { armed_ = false; }
    const std::vector<unsigned>& looping() const { return looping_; }
    // Whether core `i` (an index in `harts`) of a proven loop took a trap in it.
    bool trapped(unsigned i) const { return start_[i].traps_now != start_[i].traps; }

  private:
    // Checks closer than this are skipped, so that a small synchronisation quantum costs nothing (a check
    // after restart() too).
    static constexpr uint64_t kCheckEvery = 1u << 16;
    struct CoreAtStart {
        // The state to come back to, and the instructions retired and traps taken (through mtvec) when the
        // core had it.
        std::vector<uint32_t> state;
        uint64_t instret = 0;
        uint64_t traps = 0;
        uint64_t traps_now = 0; // as of the latest check
        bool asleep = false;
        bool stopped = false;
        bool returned = false; // it has come back to `state` since
    };
    // What the cores have done that could change what any of them reads.
    static uint64_t effects(std::span<Hart* const> harts);
    void arm(std::span<Hart* const> harts, uint64_t effects);

    bool armed_ = false;
    bool checked_ = false;
    uint64_t last_check_ = 0;
    uint64_t effects_ = 0;
    std::vector<CoreAtStart> start_;
    std::vector<uint32_t> scratch_;
    std::vector<unsigned> looping_;
};

} // namespace pulpsim
