// The cluster's shared floating-point units: which FPU a core's operation goes to, when it starts, and
// when its result is usable.
//
// Models:
// - N pipelined FPUs, each taking one new operation per cycle. Add/sub/mul/fma results are usable
//   1 + addmul_latency cycles after the start (FPU_ADDMUL_LAT), the other operations (compare, convert,
//   classify, sign injection, min/max, moves) 1 + other_latency cycles after (FPU_OTHERS_LAT).
// - A core-to-FPU mapping chosen by name (fpu_mappings()): each core gets a set of candidate FPUs and an
//   operation goes to the candidate free first, the lowest index at a tie. "private" and "static-modulo"
//   give one candidate per core, "dynamic" gives every FPU.
// - Shared, non-pipelined div/sqrt units (default one for the whole cluster) whose latency the core
//   supplies per operation, since it depends on the data (about 19 cycles inexact, 7 exact on CV32E40P).
// - Contention: a cycle an operation waits for its FPU or a div/sqrt unit counts for the core and for
//   the unit it ends up on.
//
// Arbitration: requests are served in the order issue() sees them, each taking the first slot still free
// at or after its cycle. The clock engine presents one cycle's requests in a priority order that rotates
// every cycle, which makes this round-robin. A request may name a cycle earlier than one already granted
// (a core whose instruction waited for an operand issues later than the engine's current cycle); it
// still gets any free slot before that grant, as long as it lies in the history window: for a core with
// one candidate FPU the 64 cycles up to that FPU's latest start, for a core with several the 64 cycles up
// to the latest start on any FPU. Older requests are served as if issued at the start of the window.
// Div/sqrt units keep no history: each request queues behind the last one granted.
//
// Ignores:
// - Operand forwarding and the core's own dependency stalls (the core's scoreboard waits on ready).
// - Write-back port conflicts, both between FPU operations of different latencies finishing in the same
//   cycle and with the integer pipeline.
// - Width: a packed FP16 SIMD operation (vfmac.h, vfdotpex.s.h) counts as one operation, like FP32.
// - The interconnect between cores and FPUs (no extra request/response cycles).
// - Whether a core's FP operation waits for its own earlier ones still in flight: that is the core's
//   dispatcher's rule (sim/core/fp_unit.hpp: apu_wait), applied before the core asks the pool.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/fpu_lane.hpp"

namespace pulpsim {

enum class FpuOpKind : uint8_t {
    AddMul,  // fadd, fsub, fmul, fmadd and friends, and their FP16 SIMD forms: addmul_latency
    Other,   // compares, conversions, classify, sign injection, min/max, moves: other_latency
    DivSqrt, // fdiv, fsqrt: a shared div/sqrt unit, latency given per operation
};

// A named core-to-FPU mapping. The pool asks it once, at construction, for each core's candidate FPUs.
struct FpuMapping {
    std::string_view summary;
    // Empty when `cores` cores and `fpus` FPUs can use this mapping, else why not (one line); nullptr when
    // every configuration can.
    std::string (*reject)(unsigned cores, unsigned fpus);
    // The FPUs `core` may use: bit f set = FPU f. Never empty.
    uint64_t (*candidates)(unsigned core, unsigned cores, unsigned fpus);
};

// Every mapping by name; adding a mapping is adding an entry here (fpu_pool.cpp).
const std::map<std::string, FpuMapping, std::less<>>& fpu_mappings();
// "dynamic, private, static-modulo": for messages.
std::string fpu_mapping_names();

struct FpuPoolConfig {
    unsigned cores = 8;
    unsigned fpus = 8;                     // 1..kMaxFpus
    std::string mapping = "private";       // a key of fpu_mappings()
    unsigned addmul_latency = 0;           // FPU_ADDMUL_LAT
    unsigned other_latency = 0;            // FPU_OTHERS_LAT
    unsigned divsqrt_units = 1;            // 1..kMaxFpus, shared by all cores
    unsigned default_divsqrt_latency = 19; // for issue() calls that give none
};

struct FpuGrant {
    uint64_t start; // cycle the operation enters the unit (>= the requested cycle)
    uint64_t ready; // first cycle a dependent instruction can use the result
    unsigned unit;  // FPU index, or div/sqrt unit index for FpuOpKind::DivSqrt
};

// Counters of one FPU or div/sqrt unit.
struct FpuUnitCounters {
    uint64_t operations = 0;
    // Cycles the unit could not take another operation: for a pipelined FPU the cycles it took one (so
    // equal to operations), for a div/sqrt unit the cycles it worked. busy / cycles is the utilisation.
    uint64_t busy_cycles = 0;
    uint64_t contention_cycles = 0; // cycles operations waited for this unit
};

// Counters of one core's use of the pool.
struct CoreFpuCounters {
    uint64_t fpu_operations = 0; // AddMul and Other
    uint64_t divsqrt_operations = 0;
    uint64_t fpu_contention_cycles = 0;     // waited for an FPU
    uint64_t divsqrt_contention_cycles = 0; // waited for a div/sqrt unit
    uint64_t operations() const { return fpu_operations + divsqrt_operations; }
    uint64_t contention_cycles() const { return fpu_contention_cycles + divsqrt_contention_cycles; }
};

// Told of every operation the pool places (the activity views); nothing is called while none is attached.
class FpuActivityObserver {
  public:
    virtual ~FpuActivityObserver() = default;
    // Pipelined FPU `fpu` takes an operation in `cycle` (busy for that cycle).
    virtual void fpu_started(unsigned fpu, uint64_t cycle) = 0;
    // Div/sqrt unit `unit` works on an operation in [from, to).
    virtual void divsqrt_busy(unsigned unit, uint64_t from, uint64_t to) = 0;
};

class FpuPool {
  public:
    static constexpr unsigned kMaxFpus = 64; // candidate sets are 64-bit masks

    // Throws std::invalid_argument (one line) for an unknown mapping or an impossible configuration.
    explicit FpuPool(const FpuPoolConfig& config);

    // Core `core` presents an operation of `kind` in `cycle`. `divsqrt_latency` is the cycles the div/sqrt
    // unit stays busy and until the result is usable (0: the configured default); other kinds ignore it.
    // Throws std::invalid_argument for a core index out of range.
    FpuGrant issue(unsigned core, uint64_t cycle, FpuOpKind kind, unsigned divsqrt_latency = 0);
    // Core `core`'s way to place add/mul/other operations on its one FPU itself, with the same result and
    // counts as issue(): empty (unit nullptr) while a core has several candidates or an observer is attached.
    // Valid until the pool is destroyed; set_observer() changes what it should be.
    FpuLane lane(unsigned core);

    // Forgets every operation and zeroes the counters.
    void reset();
    // Tells `observer` of every operation placed from now on (nullptr: nobody).
    void set_observer(FpuActivityObserver* observer) { observer_ = observer; }

    unsigned core_count() const { return core_count_; }
    unsigned fpu_count() const { return static_cast<unsigned>(fpus_.size()); }
    unsigned divsqrt_unit_count() const { return static_cast<unsigned>(divsqrt_units_.size()); }
    const std::string& mapping() const { return mapping_; }
    uint64_t candidate_fpus(unsigned core) const { return cores_.at(core).candidates; }

    // A pipelined FPU is busy exactly in the cycles it takes an operation.
    FpuUnitCounters fpu(unsigned index) const {
        const PipelinedUnitSlots& f = fpus_.at(index);
        return {f.operations, f.operations, f.contention_cycles};
    }
    const FpuUnitCounters& divsqrt_unit(unsigned index) const { return divsqrt_units_.at(index).counters; }
    const CoreFpuCounters& core(unsigned index) const { return cores_.at(index).counters; }

  private:
    // A pipelined FPU remembers which of the 64 cycles up to its newest start start an operation.
    using Fpu = PipelinedUnitSlots;
    struct DivSqrtUnit {
        uint64_t free_from = 0; // first cycle it takes a new operation
        FpuUnitCounters counters;
    };
    static constexpr unsigned kSeveralFpus = ~0u;
    struct Core {
        uint64_t candidates = 0;
        unsigned only_fpu = kSeveralFpus; // the one candidate, if there is one: no search
        CoreFpuCounters counters;
    };

    // For cores with several candidates: which FPUs start an operation in each of the last
    // kTrackedCycles cycles up to the newest start (the per-FPU windows, seen by cycle).
    static constexpr uint64_t kTrackedCycles = 64;
    struct CycleSlot {
        uint64_t cycle;
        uint64_t fpus_taken; // bit f: FPU f starts an operation in `cycle`
    };
    uint64_t oldest_tracked_start() const {
        return newest_start_ < kTrackedCycles ? 0 : newest_start_ - (kTrackedCycles - 1);
    }
    std::pair<unsigned, uint64_t> earliest_free(uint64_t candidates, uint64_t cycle) const; // FPU, start
    void track_start(unsigned fpu, uint64_t start);
    FpuGrant issue_divsqrt(Core& core, uint64_t cycle, unsigned latency);
    [[noreturn]] void throw_core_out_of_range(unsigned core) const;
    // Out of line: the call in issue() then costs its hot path fewer registers.
    [[gnu::cold, gnu::noinline]] void tell_started(unsigned fpu, uint64_t cycle) const;

    std::string mapping_;
    unsigned core_count_;
    unsigned latency_[2]; // by FpuOpKind::AddMul, FpuOpKind::Other
    unsigned default_divsqrt_latency_;
    std::vector<Fpu> fpus_;
    std::vector<DivSqrtUnit> divsqrt_units_;
    std::vector<Core> cores_;
    bool some_core_chooses_ = false; // keep fpus_taken_at_
    std::array<CycleSlot, kTrackedCycles> fpus_taken_at_;
    uint64_t newest_start_ = 0;
    FpuActivityObserver* observer_ = nullptr;
};

} // namespace pulpsim
