// The cluster DMA: per-core command queues feeding two channels (L2->TCDM "in", TCDM->L2 "out") that move
// real bytes between the L2 and TCDM Rams and compete with the cores for TCDM banks.
//
// Timing of one transfer on its channel:
// - It starts at max(enqueue cycle, completion of the previous transfer of the same channel).
// - It waits the L2 latency, then moves up to bandwidth/8 bytes per cycle. Each cycle's bytes are split
//   into pieces that stay inside one TCDM word; each piece is one interconnect request on one of the DMA's
//   ports (taken round-robin), asked for that cycle. If any piece of a cycle is granted later (bank busy),
//   the channel issues nothing more until the cycle after the latest grant; the cycles waited are counted
//   as bank stall cycles.
// - It completes in the cycle after its last grant. Uncontended 1-D transfer of N bytes at B bits/cycle:
//       completion = start + l2_latency + ceil(N * 8 / B)
// - Full duplex: each channel has the whole budget every cycle. Half duplex: one budget per cycle, given
//   to one channel; when both can move, they alternate cycle by cycle.
//
// Ignores: the L2 side's bandwidth and conflicts, pipelining of a transfer's latency behind the previous
// one, the port count as a throughput limit (ports only label requests), and 2-D bursts' per-row costs.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "memory/address_map.hpp"
#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {

struct DmaConfig {
    unsigned bandwidth_bits = 64; // per cycle; a multiple of 8 in 8..256
    bool full_duplex = true;      // false: one byte budget per cycle for both directions
    unsigned cores = 8;           // initiators with a command queue
    unsigned queue_depth = 2;     // commands per core not yet complete
    unsigned first_tcdm_port = 8; // the DMA uses interconnect ports [first, first + count)
    unsigned tcdm_port_count = 4;
    unsigned l2_latency = 15; // cycles before a transfer's first byte moves
    uint32_t l2_base = 0x1c00'0000;
    uint32_t l2_size = 512 * 1024;
    uint32_t tcdm_base = 0x1000'0000;
    uint32_t tcdm_size = 64 * 1024;
};

enum class DmaDirection { in, out }; // in: L2 -> TCDM, out: TCDM -> L2

struct DmaTransfer {
    DmaDirection direction = DmaDirection::in;
    uint32_t l2_addr = 0;
    uint32_t tcdm_addr = 0;
    uint32_t bytes = 0;       // per row
    uint32_t rows = 1;        // 1 for a 1-D transfer
    uint32_t l2_stride = 0;   // distance between row starts in L2; 0 = rows are contiguous
    uint32_t tcdm_stride = 0; // same in the TCDM
};

struct DmaCompletion {
    uint32_t id;
    unsigned core;
    uint64_t cycle;
};

// What the DMA had done before a cycle: differences of two give a region's DMA activity.
struct DmaActivity {
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
    uint64_t busy_cycles = 0; // cycles in which at least one transfer was in flight (started, not complete)
};

struct DmaCounters {
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
    uint64_t active_cycles = 0;     // cycles in which at least one byte moved
    uint64_t bank_stall_cycles = 0; // cycles a channel waited for a TCDM bank
    uint64_t transfers_completed = 0;
    uint64_t latency_sum = 0; // completion - enqueue cycle, over completed transfers
    uint64_t latency_max = 0;
};

// One transfer as it happened, for the activity views.
struct DmaTransferSpan {
    uint32_t id;
    unsigned core;
    DmaTransfer transfer;
    uint64_t enqueued;   // the push
    uint64_t started;    // its channel took it (the L2 latency begins)
    uint64_t completion; // first cycle after its last byte
};

// Told of every transfer when it completes (the activity views); nothing is called while none is attached.
class DmaTransferObserver {
  public:
    virtual ~DmaTransferObserver() = default;
    virtual void transfer_completed(const DmaTransferSpan& span) = 0;
};

class DmaEngine {
  public:
    static constexpr uint64_t kNever = UINT64_MAX;

    // Throws std::invalid_argument for a bad configuration or memory ranges not backed by a Ram of `memory`.
    DmaEngine(const DmaConfig& config, TcdmInterconnect& tcdm, AddressMap& memory);

    const DmaConfig& config() const { return config_; }
    uint64_t now() const { return now_; }

    // Whether `core` has a free queue slot in `cycle` (commands complete by then do not hold one).
    bool can_enqueue(unsigned core, uint64_t cycle);
    // The completion cycle of `core`'s oldest outstanding command (when a full queue frees a slot), or
    // kNever while not yet known.
    uint64_t queue_slot_free(unsigned core) const {
        const auto& q = outstanding_.at(core);
        return q.empty() ? 0 : commands_[q.front()].completion;
    }
    // Queues a command; returns its id, or nothing when the core's queue is full (the core stalls and
    // retries). Throws std::invalid_argument for an invalid transfer or core.
    std::optional<uint32_t> enqueue(unsigned core, const DmaTransfer& transfer, uint64_t cycle);

    // Processes every cycle before `until`.
    void advance(uint64_t until);
    // The earliest cycle in which the DMA has work or a completion not yet taken; kNever when idle.
    uint64_t next_event() const;
    // The earliest cycle in which a channel moves bytes; kNever when none has a transfer under way.
    uint64_t next_move() const {
        const uint64_t in = channels_[0].started ? channels_[0].ready : kNever;
        const uint64_t out = channels_[1].started ? channels_[1].ready : kNever;
        return in < out ? in : out;
    }
    // next_event() == kNever, cheaply.
    bool idle() const { return !channels_[0].started && !channels_[1].started && untaken_.empty(); }
    // advance(until) of an idle DMA: only its clock moves.
    void advance_idle(uint64_t until) { now_ = now_ > until ? now_ : until; }

    // Whether transfer `id` has completed by now().
    bool done(uint32_t id) const;
    // Its completion cycle, or kNever while not yet known.
    uint64_t completion_cycle(uint32_t id) const;
    // Completions up to `cycle` not yet taken, in completion order (for waking waiting cores).
    std::vector<DmaCompletion> take_completions(uint64_t cycle);
    // Whether take_completions(cycle) would return any: the cheap check for every cycle.
    bool completions_due(uint64_t cycle) const {
        for (uint32_t id : untaken_)
            if (commands_[id].completion <= cycle) return true;
        return false;
    }

    const DmaCounters& counters() const { return counters_; }
    // Activity in the cycles before `cycle`; exact once advance(cycle) has run.
    DmaActivity activity(uint64_t cycle) const;
    // Commands accepted so far; ids are 0 .. issued() - 1.
    uint32_t issued() const { return static_cast<uint32_t>(commands_.size()); }
    unsigned core_of(uint32_t id) const { return commands_.at(id).core; }
    // Tells `observer` of every transfer completed from now on (nullptr: nobody).
    void set_observer(DmaTransferObserver* observer) { observer_ = observer; }

  private:
    struct Command {
        unsigned core;
        DmaTransfer transfer;
        uint64_t enqueued;
        uint64_t started = kNever; // when the channel took it (its L2 latency begins)
        uint64_t completion = kNever;
    };
    struct Channel {
        std::deque<uint32_t> pending; // command ids in arrival order, the front one active once started
        bool started = false;
        uint64_t ready = 0;   // next cycle the active command may move bytes
        uint64_t free_at = 0; // completion of the previous command
        uint64_t moved = 0;   // bytes of the active command already moved
    };

    void validate(unsigned core, const DmaTransfer& t) const;
    void start_front(Channel& ch);
    // Moves one cycle's budget of the channel's active command in `cycle`.
    void move(Channel& ch, uint64_t cycle);
    uint64_t channel_next(const Channel& ch) const;

    DmaConfig config_;
    TcdmInterconnect& tcdm_;
    Ram* l2_;
    Ram* tcdm_ram_;
    std::vector<Command> commands_;
    std::vector<std::deque<uint32_t>> outstanding_; // per core
    std::vector<uint32_t> untaken_;                 // completed, not yet returned by take_completions
    std::array<Channel, 2> channels_;               // indexed by DmaDirection
    unsigned next_port_ = 0;
    unsigned last_served_ = 1; // half duplex: the channel that moved last
    uint64_t now_ = 0;
    DmaCounters counters_;
    DmaTransferObserver* observer_ = nullptr;
};

} // namespace pulpsim
