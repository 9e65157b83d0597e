// What every core and shared block of a run did over time, recorded for the views that show a run as
// waveforms or a timeline (vcd.hpp, timeline.hpp). See README.md.
//
// A core's time is rebuilt from its retirements: the cycles between two retired instructions are the
// stalls of each kind counted meanwhile (in StallKind order) followed by the instruction's own cycle(s),
// so its intervals add up to the report's per-core cycles, instructions and stall figures exactly. Sleep
// and DMA waits are the stall kinds of the instruction that replays after the wake.
//
// The cores of a cluster run up to an engine step apart, so the shared blocks see requests out of time
// order: their records are sorted when the run ends. With a view filter, what it cannot show is dropped
// while the run goes on (see compact()), so that memory follows what is shown, not the run's length.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/event_unit.hpp"
#include "cluster/fpu_pool.hpp"
#include "cluster/host_services.hpp"
#include "core/core_stats.hpp"
#include "core/hart.hpp"
#include "dma/dma_engine.hpp"
#include "memory/elf_image.hpp"
#include "memory/tcdm_interconnect.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {

class ClusterMachine;
class BareMachine;

// What a core does in a cycle: Running (issuing an instruction), one value per stall kind in StallKind's
// order, Ended (past the core's last cycle), or DmaQueueFull: the share of the DmaWait stall a core spends
// on a push into its full DMA command queue, awake and waiting for the load's answer, where DmaWait is
// asleep in a cv.elw.
namespace core_activity {
inline constexpr uint8_t kRunning = 0;
inline constexpr uint8_t kEnded = 1 + static_cast<uint8_t>(StallKind::Count);
inline constexpr uint8_t kDmaQueueFull = kEnded + 1;
inline constexpr uint8_t kLast = kDmaQueueFull;
inline constexpr uint8_t of(StallKind kind) {
    return static_cast<uint8_t>(1 + static_cast<uint8_t>(kind));
}
// Whether the core's clock is gated: asleep in a barrier, a dispatch wait or a cv.elw on the DMA.
inline constexpr bool asleep(uint8_t activity) {
    return activity == of(StallKind::Sleep) || activity == of(StallKind::DmaWait);
}
// "running", the stall kind's report name ("load_use", ..., "sleep", "dma_wait"), "ended", "dma_queue_full".
const char* name(uint8_t activity);
} // namespace core_activity

class ActivityRecorder final : public RetireObserver,
                               public BankConflictObserver,
                               public FpuActivityObserver,
                               public DmaTransferObserver,
                               public EventUnitObserver,
                               public RegionListener {
  public:
    // Keeps what `filter` shows (and what is in effect where it starts showing); everything without one.
    ActivityRecorder(const ElfImage& elf, const ViewFilter& filter = {});

    // Observes the machine from now on (before the run).
    void attach(ClusterMachine& machine);
    void attach(BareMachine& machine);
    // After the run: the cycles after each core's last retirement, the regions left open.
    void finish(uint64_t run_end);

    void retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) override;
    void bank_waited(unsigned bank, unsigned port, uint64_t wanted, uint64_t granted) override;
    void fpu_started(unsigned fpu, uint64_t cycle) override;
    void divsqrt_busy(unsigned unit, uint64_t from, uint64_t to) override;
    void transfer_completed(const DmaTransferSpan& span) override;
    void dispatched(unsigned core, uint64_t cycle, uint32_t team_mask) override;
    void barrier_released(uint64_t cycle, uint32_t team_mask) override;
    void region_entered(const std::string& name, const Hart& caller, uint64_t macs, uint64_t cycle) override;
    void region_left(const std::string& name, const Hart& caller, uint64_t cycle) override;

    // ---- What was recorded (complete and sorted after finish()). ----
    // From `cycle` on, the core does `activity` (a core_activity value), until the next change.
    struct CoreChange {
        uint64_t cycle : 56;
        uint64_t activity : 8;
    };
    struct FunctionRun {
        uint64_t from; // lasts until the next run's from, the last one until the core's end
        uint32_t function;
    };
    struct Core {
        uint32_t hartid = 0;
        uint64_t end = 0;                 // the core's cycle count (the report's)
        std::vector<CoreChange> activity; // each differing from the one before
        std::vector<FunctionRun> functions;
    };
    struct RegionRun {
        std::string name;
        uint64_t macs = 0;
        uint64_t begin = 0, end = 0;
        unsigned depth = 0;  // regions open around it
        uint32_t core = 0;   // the core that opened it
        bool closed = false; // false: still open when the run ended (end = the run's end)
    };
    enum class EventKind : uint8_t { Dispatch, Barrier };
    struct Event {
        uint64_t cycle;
        EventKind kind;
        unsigned core; // the dispatching core; for a barrier, none
        uint32_t team_mask;
    };
    struct Busy {
        uint64_t from, to;
    };

    const std::string& program() const { return program_; }
    const std::string& platform() const { return platform_; }
    const std::vector<Core>& cores() const { return cores_; }
    // Function names by id: 0 is "?" (code outside every symbol).
    const std::vector<std::string>& function_names() const { return function_names_; }
    // In the order they began.
    const std::vector<RegionRun>& regions() const { return regions_; }
    // Cycles in which each FPU took an operation, in order (pipelined: one cycle each).
    const std::vector<std::vector<uint64_t>>& fpu_starts() const { return fpu_starts_; }
    const std::vector<std::vector<Busy>>& divsqrt_busy() const { return divsqrt_busy_; }
    // Per bank, the waits of requests for it, [wanted, granted), by wanted.
    const std::vector<std::vector<Busy>>& bank_waits() const { return bank_waits_; }
    unsigned tcdm_ports() const { return tcdm_ports_; }
    bool has_dma() const { return has_dma_; }
    // Completed transfers, by the cycle their channel took them.
    const std::vector<DmaTransferSpan>& dma_transfers() const { return dma_transfers_; }
    const std::vector<Event>& events() const { return events_; }
    bool has_event_unit() const { return has_event_unit_; }
    // Up to the last core's end (or the run's end, when later).
    uint64_t end() const { return end_; }
    const ViewFilter& filter() const { return filter_; }
    // The cycles the filter shows, in order (after finish()).
    std::vector<CycleWindow> shown() const;

  private:
    struct Tracking {
        const Hart* hart = nullptr;
        uint64_t last_cycle = 0;
        std::array<uint64_t, static_cast<size_t>(StallKind::Count)> last_stalls{};
        uint64_t last_queue_full = 0; // CoreStats::dma_queue_full_cycles
        uint8_t activity = 0xff;      // none yet
        uint32_t function = ~0u;      // none yet
        uint64_t last_fp_ops = 0;     // private FPUs: the core's FP instructions so far
    };
    void observe_hart(Hart& hart);
    void account(size_t core, bool retiring, uint32_t pc);
    void set_activity(size_t core, uint8_t activity, uint64_t cycle);
    uint32_t function_of(uint32_t pc);
    // Nothing from `cycle` on is shown: past the window.
    bool beyond_window(uint64_t cycle) const { return cycle >= filter_.window().to; }
    void note_record() {
        if (++records_ >= compact_at_) [[unlikely]]
            compact();
    }
    // Drops what the filter will never show: records lying before the cycle from which a region could
    // still begin (no core can go back before it) and outside every span shown so far.
    void compact();
    std::vector<CycleWindow> spans_so_far(uint64_t open_end) const;

    const ElfImage& elf_;
    ViewFilter filter_;
    std::string program_, platform_;
    std::vector<Core> cores_;
    std::vector<Tracking> tracking_;
    std::vector<size_t> core_of_hartid_;
    bool private_fpus_ = false;
    uint64_t region_margin_ = 0; // how far before the awake cores a woken core may resume

    std::vector<std::string> function_names_{"?"};
    std::unordered_map<uint32_t, uint32_t> function_by_start_;
    std::vector<uint32_t> function_by_code_; // per halfword of the code range: function id + 1, 0 unknown
    std::unordered_map<uint32_t, uint32_t> function_by_pc_; // outside the code range

    std::vector<RegionRun> regions_;
    std::vector<size_t> open_regions_;
    std::vector<std::vector<uint64_t>> fpu_starts_;
    std::vector<std::vector<Busy>> divsqrt_busy_;
    std::vector<std::vector<Busy>> bank_waits_;
    unsigned tcdm_ports_ = 0;
    bool has_dma_ = false;
    std::vector<DmaTransferSpan> dma_transfers_;
    bool has_event_unit_ = false;
    std::vector<Event> events_;
    uint64_t end_ = 0;
    uint64_t records_ = 0;
    uint64_t compact_at_ = UINT64_MAX;
};

} // namespace pulpsim
