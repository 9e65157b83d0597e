// One RV32IMFC + Xpulp hart with CV32E40P timing (see README.md in this folder).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/core_stats.hpp"
#include "core/decoded_insn.hpp"
#include "core/fpu_lane.hpp"
#include "core/trap_loop_watch.hpp"
#include "memory/address_map.hpp"
#include "memory/memory_guards.hpp"
#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {

// Pipeline parameters that differ between CV32E40P configurations and platforms.
struct CoreTiming {
    unsigned fpu_addmul_latency = 0; // FPU_ADDMUL_LAT: extra cycles before an FP add/mul/fma result is usable
    unsigned fpu_other_latency = 0;  // FPU_OTHERS_LAT: comparisons, conversions, classify, moves
    unsigned fdiv_latency = 19;      // fdiv/fsqrt with an inexact result
    unsigned fdiv_exact_latency = 6; // exact, no fraction bits (fp_unit.hpp: divsqrt_cycles)
};

class Hart;

enum class FpuOperation : uint8_t { AddMul, Other, DivSqrt };

// A core's private first level of its instruction cache (its L0), which the core reads itself: a fetch that
// hits there costs no call (InstructionFetchPort::lane).
struct FetchLane {
    const uint32_t* l0_tags = nullptr; // line numbers, by line & l0_index_mask; nullptr: ask the port
    uint32_t l0_index_mask = 0;
    unsigned line_shift = 0;
    uint64_t* fetches = nullptr; // the port's count of this core's line fetches

    bool hits(uint32_t addr) const {
        const uint32_t line = addr >> line_shift;
        return l0_tags[line & l0_index_mask] == line;
    }
};

// An instruction cache in front of the core: asked once per line the core starts fetching from.
class InstructionFetchPort {
  public:
    virtual ~InstructionFetchPort() = default;
    // Cycles `core` waits before it can fetch from the line holding `addr`.
    virtual unsigned fetch_line(unsigned core, uint32_t addr) = 0;
    // fetch_line for a fetch that touches only what `core` owns (a hit in a private level): counted, and
    // true. False: nothing happened, the fetch needs a shared level.
    virtual bool fetch_line_privately(unsigned /*core*/, uint32_t /*addr*/) { return false; }
    // Takes back a fetch counted by fetch_line_privately (Hart::rewind_run_ahead).
    virtual void uncount_private_fetch(unsigned /*core*/) {}
    // `core`'s L0, for fetches that hit it: counted as fetch_line and fetch_line_privately count them. Empty
    // (l0_tags nullptr) when the port has none. Asked whenever the core is given the port.
    virtual FetchLane lane(unsigned /*core*/) { return {}; }
};

// FPUs shared between cores (the cluster's FPU pool): decides when a core's FP operation starts.
class FpuArbiter {
  public:
    virtual ~FpuArbiter() = default;
    // The cycle (>= cycle) at which `core`'s operation starts; div/sqrt operations occupy their unit for
    // `divsqrt_latency` cycles.
    virtual uint64_t issue(unsigned core, uint64_t cycle, FpuOperation op, unsigned divsqrt_latency) = 0;
    // Where `core` may place its add/mul/other operations itself, with the same result as issue(); empty
    // when it may not. Asked again whenever the core is given the arbiter.
    virtual FpuLane lane(unsigned /*core*/) { return {}; }
};

// Services of the platform a hart runs on.
class HostInterface {
  public:
    virtual ~HostInterface() = default;
    // An ecall while no trap handler is installed (mtvec == 0). Returns false for an unknown call.
    virtual bool host_call(Hart& hart) = 0;
    // A store to a watched word (the program's `tohost`).
    virtual void watched_store(Hart& hart, uint32_t addr, uint32_t value) = 0;
};

enum class StopReason { None, Exit, Error };

// A contended memory in front of the fast data window (the TCDM interconnect).
class DataArbiter {
  public:
    virtual ~DataArbiter() = default;
    // The cycle (>= cycle) at which `port`'s access to `addr` is served.
    virtual uint64_t grant(unsigned port, uint32_t addr, uint64_t cycle, bool is_write) = 0;
    // The interconnect grant() asks, for a core to ask it without a call (every TCDM access of a cluster core
    // does); nullptr when grant() does more.
    virtual TcdmInterconnect* plain_interconnect() { return nullptr; }
};

// Thrown inside instruction handlers to abandon the instruction: a trap to take or a run to end.
struct TrapSignal {
    uint32_t cause;
    uint32_t tval;
};

namespace csr {
inline constexpr uint16_t kFflags = 0x001, kFrm = 0x002, kFcsr = 0x003;
inline constexpr uint16_t kMstatus = 0x300, kMisa = 0x301, kMie = 0x304, kMtvec = 0x305;
inline constexpr uint16_t kMcountinhibit = 0x320, kMhpmevent3 = 0x323, kMhpmevent31 = 0x33F;
// The trigger module (one execute-address trigger, writable from debug mode only).
inline constexpr uint16_t kTselect = 0x7A0, kTdata1 = 0x7A1, kTdata2 = 0x7A2, kTdata3 = 0x7A3, kTinfo = 0x7A4,
                          kMcontext = 0x7A8, kScontext = 0x7AA;
inline constexpr uint16_t kMscratch = 0x340, kMepc = 0x341, kMcause = 0x342, kMtval = 0x343, kMip = 0x344;
inline constexpr uint16_t kMcycle = 0xB00, kMinstret = 0xB02, kMhpmcounter3 = 0xB03, kMhpmcounter31 = 0xB1F;
// mcycle, minstret and mhpmcounter3, by mcountinhibit bit: CV32E40P with NUM_MHPMCOUNTERS = 1, as the PULP
// cluster has it. mhpmcounter4-31 and mhpmevent4-31 read 0 and ignore writes.
inline constexpr uint32_t kImplementedCounters = 0b1101;
inline constexpr uint16_t kMcycleh = 0xB80, kMinstreth = 0xB82, kMhpmcounter3h = 0xB83,
                          kMhpmcounter31h = 0xB9F;
inline constexpr uint16_t kCycle = 0xC00, kInstret = 0xC02, kHpmcounter3 = 0xC03, kHpmcounter31 = 0xC1F;
inline constexpr uint16_t kCycleh = 0xC80, kInstreth = 0xC82, kHpmcounter3h = 0xC83, kHpmcounter31h = 0xC9F;
inline constexpr uint16_t kLpstart0 = 0xCC0, kLpend0 = 0xCC1, kLpcount0 = 0xCC2;
inline constexpr uint16_t kLpstart1 = 0xCC4, kLpend1 = 0xCC5, kLpcount1 = 0xCC6;
inline constexpr uint16_t kUhartid = 0xCD0, kPrivlv = 0xCD1;
inline constexpr uint16_t kMvendorid = 0xF11, kMarchid = 0xF12, kMimpid = 0xF13, kMhartid = 0xF14;
} // namespace csr

namespace cause {
inline constexpr uint32_t kInstrMisaligned = 0, kInstrAccessFault = 1, kIllegalInstruction = 2,
                          kBreakpoint = 3;
inline constexpr uint32_t kLoadMisaligned = 4, kLoadAccessFault = 5, kStoreMisaligned = 6,
                          kStoreAccessFault = 7;
inline constexpr uint32_t kEcallM = 11;
// Not architectural: a run-ending condition raised from a handler (message in Hart::stop_message()).
inline constexpr uint32_t kSimulatorStop = 0xffffffffu;
// Not architectural: the instruction must wait for an event; it runs again when the core is woken.
inline constexpr uint32_t kSleep = 0xfffffffeu;
} // namespace cause

// Told of every instruction a hart retires (the profile and trace views). Nothing is observed, and nothing
// costs, while no observer is attached: run() then takes its unobserved loop.
class RetireObserver {
  public:
    virtual ~RetireObserver() = default;
    // `pc` is the retired instruction's address and `insn` its decoded form; the hart's cycle, counters and
    // registers already include it, and its issue_ is the cycle it issued in.
    virtual void retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) = 0;
};

// The order in which an engine that interleaves cores gives them their turns, one instruction each, cycle
// by cycle (the lockstep engine).
class IssueOrder {
  public:
    virtual ~IssueOrder() = default;
    // Whether core a's instruction of `cycle` takes its turn before core b's.
    virtual bool runs_before(unsigned core_a, unsigned core_b, uint64_t cycle) const = 0;
    // The cycle whose turns are being taken.
    virtual uint64_t turn_cycle() const = 0;
};

class Hart {
  public:
    Hart(AddressMap& bus, HostInterface& host, const CoreTiming& timing, uint32_t hartid);
    Hart(const Hart&) = delete; // fetch_lane_ may point into the hart itself
    Hart& operator=(const Hart&) = delete;
    // Several views may observe one hart; each is told of every retired instruction, in the order added.
    void add_retire_observer(RetireObserver* observer) {
        observers_.push_back(observer);
        observed_ = turn_detour_ = true;
    }

    // Architectural reset: pc, sp, and everything else zero (mcountinhibit to its CV32E40P reset value).
    void reset(uint32_t pc, uint32_t sp);
    // Instructions in [lo, hi) are decoded once and cached; elsewhere they are decoded on every fetch.
    void set_code_range(uint32_t lo, uint32_t hi);
    // Decodes into caches shared with the other cores of a cluster (same code range and timing): `gated`
    // while FS is not Dirty, where every FP instruction goes through the FS gate, `ungated` while it is.
    // Cores running the same program then keep one copy of its decoded loops in the host's caches instead of
    // one each, and FS stays each core's own. Both must outlive the hart, and set_code_range come first.
    void share_decode_caches(DecodeCache& gated, DecodeCache& ungated);
    // The memory that takes the fast path for data accesses (the rest goes through the address map).
    void set_fast_ram(Ram* ram);
    // A word whose stores are reported to the host (tohost).
    void watch_word(uint32_t addr) { watch_addr_ = addr & ~3u; }
    // Loads and stores touching a zone of `guards` stop the run with an error (nullptr: no checks).
    void set_memory_guards(const MemoryGuards* guards) { guards_ = guards ? guards : &no_guards(); }

    // Runs until the hart's cycle count reaches `cycle_limit`, the program stops or the core falls asleep.
    void run(uint64_t cycle_limit);
    // Executes one instruction (or takes one trap, or falls asleep): for engines that interleave cores.
    void step();
    // After its turn, a core of the lockstep engine runs ahead, up to `limit`, through the instructions that
    // touch nothing outside it (RV32I arithmetic, branches and jal, fetches that hit its private cache
    // level, FP operations on the core's own FPU and div/sqrt unit), stopping before the next one that may
    // reach a shared block. No other core can tell when those ran, except by reading this core's counters (a
    // region's host call) or by ending the run: for those, the instructions run ahead are journaled
    // (stats_seen_by, rewind_run_ahead).
    inline void run_ahead_if_private(uint64_t limit) { run_ahead_if_private(limit, slot_at(pc_)); }
    // The same, with `next` the slot of pc_.
    inline void run_ahead_if_private(uint64_t limit, const DecodedInsn* next) {
        // An observed core is told of every instruction in its turn.
        if (may_run_ahead(*next) && cycle_ < limit && !observed_) run_ahead(limit, next);
    }
    // A lockstep turn of a core the engine knows is awake and not stopped, inline (core/hart_loop.hpp): it
    // runs until its cycle reaches `turn_end` (one instruction, in the engine's cycle), then, unless it
    // stopped or fell asleep, runs ahead up to `ahead_limit` (run_ahead_if_private). Returns false when it
    // stopped or fell asleep.
    // `handler`: next_turn_handler() as the engine read it a turn earlier; the turn calls it only while it is
    // still the slot's handler.
    inline bool take_turn(uint64_t turn_end, uint64_t ahead_limit, ExecFn handler = nullptr);
    // The handler of the instruction this core's next turn starts with, if it is known without a lookup
    // (nullptr if not).
    ExecFn next_turn_handler() const { return (pc_ == turn_slot_pc_ ? turn_slot_ : &scratch_[1])->exec; }
    // The engine's order of turns, which places run-ahead instructions against another core's turn.
    void set_issue_order(const IssueOrder* order) { issue_order_ = order; }
    // The counters as core `observer`, in its turn, would find them under per-cycle interleaving: without
    // the instructions this core ran ahead past that turn.
    CoreStats stats_seen_by(unsigned observer) const;
    // The run ended in core `stopper`'s turn of cycle `turn`: takes back the instructions run ahead past it
    // (counters, cycle and pc; the registers keep their values, as nothing runs after the end).
    void rewind_run_ahead(unsigned stopper, uint64_t turn);
    bool asleep() const { return asleep_; }
    // What the current sleep counts as (Sleep or DmaWait).
    StallKind sleep_kind() const { return sleep_kind_; }
    // Makes run() return after the current instruction (another core has just been given work).
    void end_quantum() { limit_ = resume_limit_ = 0; }
    // Ends a sleep: the core resumes at `cycle` (not before the cycle it fell asleep in) and replays the
    // instruction that put it to sleep; the time in between counts as sleep.
    void wake(uint64_t cycle);
    // The run ended while this core slept: count the sleep up to `cycle` (the core stays asleep).
    void sleep_until_end(uint64_t cycle) {
        if (asleep_ && cycle > cycle_) add_sleep(cycle - cycle_);
    }
    // Instruction fetch goes through `port`, asked for every new line of 2^line_shift bytes (nullptr: free).
    void set_instruction_fetch(InstructionFetchPort* port, unsigned line_shift) {
        ifetch_ = port;
        fetch_lane_ = port ? port->lane(hartid_) : FetchLane{};
        has_fetch_lane_ = fetch_lane_.l0_tags != nullptr;
        if (!has_fetch_lane_) fetch_lane_ = FetchLane{&kNoL0Tag, 0, 0, &unlaned_fetches_};
        fetch_line_mask_ = port ? ~((1u << line_shift) - 1) : 0;
        current_line_ = port ? 1u : 0u; // 1 is no line address: the first fetch asks the port
    }
    // Accesses that hit the fast window go through `arbiter` as initiator `port` (nullptr: no contention).
    void set_data_arbiter(DataArbiter* arbiter, unsigned port) {
        arbiter_ = arbiter;
        arbiter_port_ = port;
        tcdm_ = arbiter ? arbiter->plain_interconnect() : nullptr;
        update_plain_window();
    }
    bool stopped() const { return stop_ != StopReason::None; }
    StopReason stop_reason() const { return stop_; }
    int exit_code() const { return exit_code_; }
    // The value the program exited with, whole (exit_code() is the host's 8-bit status for it).
    uint32_t exit_value() const { return exit_value_; }
    const std::string& stop_message() const { return stop_message_; }
    // The traps taken through mtvec, and where the last one came from and went (the program may have
    // overwritten mcause, mepc and mtvec since): what a run caught in a trap loop reports.
    struct TrapRecord {
        uint64_t count = 0;
        uint32_t cause = 0;
        uint32_t pc = 0;
        uint32_t handler = 0;
    };
    const TrapRecord& trap_record() const { return trap_record_; }
    // Ends the run as a livelock, exit 3, when a trap repeats the one before with nothing changed
    // (TrapLoopWatch). Only for a core alone with its memories: in a cluster, others may change them.
    void watch_for_trap_loops() { trap_loop_watch_ = std::make_unique<TrapLoopWatch>(bus_); }
    // Every register and CSR whose value can steer what the program does next, and the pc.
    void architectural_state(std::vector<uint32_t>& out) const;
    // Reads whose answer may differ from one run through the same code to the next, other than the
    // devices the address map counts: host calls, watched stores (the host acts on them), counter CSRs.
    uint64_t outside_reads() const { return outside_reads_; }
    // Whether the instruction at pc is a jump, or a branch taken on today's registers, to itself and no
    // hardware loop ends there: the core then repeats it forever, changing nothing but time, unless
    // something outside it (another core, the DMA, an event) acts.
    bool jumps_to_itself() const {
        const DecodedInsn& d = *slot_at(pc_);
        if (!d.exec || d.imm != 0 || (hwloop_armed_ && (pc_ == hwloop_watch_[0] || pc_ == hwloop_watch_[1])))
            return false;
        return d.fast == FastOp::Jal || (d.fast >= FastOp::Beq && d.fast <= FastOp::Bgeu &&
                                         branch_taken(d.fast, x_[d.rs1], x_[d.rs2]));
    }
    // "illegal instruction", "load access fault", ... for an mcause value; "cause N" for any other.
    static std::string trap_cause_name(uint32_t cause);
    // Ends the run from host code (exit host call, tohost write, errors found by the platform).
    void request_stop(StopReason reason, int exit_code, std::string message = {});
    // Ends the run as the program asked, with `value`; `status` is the host exit status it maps to.
    void request_exit(uint32_t value, int status) {
        if (stop_ == StopReason::None) exit_value_ = value;
        request_stop(StopReason::Exit, status);
    }

    uint64_t cycle() const { return cycle_; }
    uint32_t pc() const { return pc_; }
    uint32_t hartid() const { return hartid_; }
    // PULP harts read cluster_id << 5 | core index in mhartid.
    void set_cluster_id(unsigned id) { cluster_id_ = id; }
    const CoreStats& stats() const { return stats_; }
    const CoreTiming& timing() const { return timing_; }
    AddressMap& bus() { return bus_; }

    uint32_t xreg(unsigned i) const { return x_[i]; }
    void set_xreg(unsigned i, uint32_t v) {
        if (i) x_[i] = v;
    }
    uint32_t freg(unsigned i) const { return f_[i]; }
    void set_freg(unsigned i, uint32_t v) { f_[i] = v; }
    uint32_t fcsr() const { return (uint32_t{frm_} << 5) | fflags_; }

    // Reads a CSR as the program would (no side effects, no permission checks); for tests and reports.
    uint32_t peek_csr(uint16_t addr) const;

    // ---- Used by instruction handlers (isa_*.cpp). ----
    uint32_t x_[32]{};
    uint32_t f_[32]{};
    uint32_t pc_ = 0;
    uint32_t next_pc_ = 0;
    uint64_t cycle_ = 0;
    uint64_t issue_ = 0; // cycle at which the current instruction issued
    uint8_t fflags_ = 0;
    uint8_t frm_ = 0;
    std::array<uint64_t, kSlotCount> ready_{}; // ready_entry(): usable-from cycle << 2 | ReadyCause
    // Slots (bits, below kZeroSlot) whose ready_ entry may lie beyond the cycle_ of the next check; every
    // other slot is known to be ready, so an instruction whose sources are all outside it skips the
    // scoreboard. A bit stays set until an instruction reading the slot finds it ready.
    uint64_t pending_ = 0;
    CoreStats stats_;

    template <typename T> T load(uint32_t addr) {
        if (guards_->armed()) [[unlikely]]
            check_guards(addr, sizeof(T), false);
        const uint32_t off = addr - fast_base_;
        if (off <= fast_last_[sizeof(T) - 1]) {
            if (arbiter_) [[unlikely]]
                arbitrate(addr, false);
            T v;
            std::memcpy(&v, fast_data_ + off, sizeof(T));
            return v;
        }
        return static_cast<T>(slow_load(addr, sizeof(T)));
    }
    template <typename T> void store(uint32_t addr, T v) {
        if (guards_->armed()) [[unlikely]]
            check_guards(addr, sizeof(T), true);
        const uint32_t off = addr - fast_base_;
        if (off <= fast_last_[sizeof(T) - 1] && addr - code_lo_ >= code_span_ &&
            (addr & ~3u) != watch_addr_) {
            if (arbiter_) [[unlikely]]
                arbitrate(addr, true);
            std::memcpy(fast_data_ + off, &v, sizeof(T));
            return;
        }
        slow_store(addr, sizeof(T), v);
    }
    // The common accesses, which the inline loop (run_inline_part) runs itself: aligned, inside the fast
    // window, with no arbiter and no guard zone armed, so none of load()'s and store()'s extras (or a split
    // access's cost) applies. False: nothing was done, and the instruction's handler runs instead.
    template <typename T> bool plain_load(uint32_t addr, T& v) const {
        const uint32_t off = addr - fast_base_;
        if (off >= plain_span_[sizeof(T) - 1] || (addr & (sizeof(T) - 1)) || guards_->armed()) return false;
        std::memcpy(&v, fast_data_ + off, sizeof(T));
        return true;
    }
    // load()'s usual case on a cluster core, alone: aligned, inside the fast window (the TCDM), no guard zone
    // armed, no FP result due through the register file's port, and granted in its own cycle. False: nothing
    // was done, and the instruction's full path runs instead.
    template <typename T> bool tcdm_load_at_once(uint32_t addr, T& v) {
        const uint32_t off = addr - fast_base_;
        if (off > fast_last_[sizeof(T) - 1] || (addr & (sizeof(T) - 1)) || !tcdm_ || apu_port_write_ ||
            guards_->armed() || !tcdm_->request_at_once(arbiter_port_, addr, issue_, false))
            return false;
        std::memcpy(&v, fast_data_ + off, sizeof(T));
        return true;
    }
    // The same for stores, which must also miss the decoded code and the watched word.
    template <typename T> bool plain_store(uint32_t addr, T v) {
        const uint32_t off = addr - fast_base_;
        if (off >= plain_span_[sizeof(T) - 1] || (addr & (sizeof(T) - 1)) || addr - code_lo_ < code_span_ ||
            (addr & ~3u) == watch_addr_ || guards_->armed())
            return false;
        std::memcpy(fast_data_ + off, &v, sizeof(T));
        return true;
    }
    // A load or store instruction's access, with the cost of a split access (split_load_cost,
    // misaligned_access_cost).
    template <typename T> T load_insn(uint32_t addr) {
        const unsigned later = split_load_cost(addr, sizeof(T));
        const T v = load<T>(addr);
        if (apu_port_write_) [[unlikely]] { // what apu_port_contention asks; no earlier access concerns it
            last_access_ex_first_ = issue_ + 1;
            last_access_ex_end_ = issue_ + 1 + later;
        }
        if (later) [[unlikely]]
            ++issue_;
        return v;
    }
    template <typename T> void store_insn(uint32_t addr, T v) {
        misaligned_access_cost(addr, sizeof(T));
        store<T>(addr, v);
        if (apu_port_write_) [[unlikely]] {
            last_access_ex_first_ = issue_ + 1;
            last_access_ex_end_ = issue_ + 1 + ((addr & 3) + sizeof(T) > 4);
        }
    }
    // Adds the cycles of the current sleep.
    void add_sleep(uint64_t cycles) {
        if (!sleep_in_elw_) stats_.dma_queue_full_cycles += cycles;
        add_stall(sleep_kind_, cycles);
    }
    // Adds `cycles` to the current instruction, counted as `kind`.
    void add_stall(StallKind kind, uint64_t cycles) {
        cycle_ += cycles;
        stats_.stall_cycles[static_cast<size_t>(kind)] += cycles;
    }
    // The current instruction stays in EX past its first cycle (so far): the next one waits in ID meanwhile.
    // `refused`: by a unit that does not take it (APU_CONT), when a wait there for an FP result is no
    // APU_DEP.
    void held_in_ex(bool refused = false) {
        const bool first = first_hold();
        const uint64_t from = hold_grows_from();
        note_first_hold();
        held_in_ex_until_ = cycle_;
        held_in_ex_pc_ = pc_;
        if (!refused) count_dependency_behind(from, first);
    }
    // Whether the current instruction has not been held in EX yet.
    bool first_hold() const { return held_in_ex_until_ <= issue_; }
    // The APU_DEP cycles of the instruction behind while the current one is held from `from` on; from its
    // first hold, they start in the cycle of the current one's INSTR event.
    void count_dependency_behind(uint64_t from, bool first) {
        const uint64_t cycles = dependency_behind(from, cycle_);
        stats_.apu_dependency_cycles += cycles;
        dependency_behind_ += cycles;
        stats_.apu_dependency_runs_at_entry += cycles != 0 && first;
        if (ahead_class_needed_)
            stats_.apu_dependency_runs_at_entry_by_class[executing_stat_] += cycles != 0 && first;
        last_behind_ = {from, cycles, first};
    }
    // A result the current instruction, held in EX, keeps from the write port until it leaves
    // (defer_apu_result) is still in flight meanwhile: the instruction behind waits for it longer.
    void recount_dependency_behind() {
        if (first_hold()) return; // not held: nothing counted behind it
        const uint64_t cycles = dependency_behind(last_behind_.from, held_in_ex_until_);
        if (cycles <= last_behind_.cycles) return;
        stats_.apu_dependency_cycles += cycles - last_behind_.cycles;
        dependency_behind_ += cycles - last_behind_.cycles;
        const bool new_run = last_behind_.cycles == 0 && last_behind_.first;
        stats_.apu_dependency_runs_at_entry += new_run;
        if (ahead_class_needed_) stats_.apu_dependency_runs_at_entry_by_class[executing_stat_] += new_run;
        last_behind_.cycles = cycles;
    }
    // The first cycle a new hold of the current instruction adds to the wait of the one behind it in ID.
    uint64_t hold_grows_from() const { return held_in_ex_until_ > issue_ ? held_in_ex_until_ : issue_ + 1; }
    // Before the current instruction's first hold overwrites it: the hold of the one before, and the cycle
    // this one entered EX in (hwloop_wrap and illegal_in_hwloop_trap_end ask).
    void note_first_hold() {
        if (!first_hold()) return; // held already
        held_before_until_ = held_in_ex_until_;
        held_in_ex_from_ = issue_;
        dependency_behind_ = dependency_behind_in_type_ = 0;
    }
    // Whether the instruction held in EX last waited in ID before it entered EX: behind one held in EX, or
    // for an operand.
    bool held_one_waited_in_id() const {
        return (held_before_until_ == held_in_ex_from_ && held_in_ex_from_ != 0) ||
               id_wait_end_ == held_in_ex_from_;
    }
    // Whether a jump (jal, jalr) issuing in `issue` found its target fetched: it waited in ID behind an
    // instruction held in EX, or for an FP or a load's result to its link register (apu_stall_o,
    // load_stall_o), and CV32E40P sets the pc for a jump in its first cycle in ID (cv32e40p_controller.sv,
    // jump_in_dec), so one refetch cycle passed during the wait. Not right behind a load held in EX (a split
    // access) that writes the jump's rd: the load stall deasserts the jump (load_stall_o, deassert_we_o).
    // `x0_read`: a jal, which compares x0 through its operand c (apu_reads_x0) and sets the pc while it
    // waits for an FP result to it as well; a jalr waits for one to its rs1 with the pc not set (jr_stall).
    bool jump_target_prefetched(uint64_t issue, uint8_t jump_dst, bool x0_read = false) const {
        if (const DecodedInsn* held = held_just_ahead(issue))
            return !(held->dst == jump_dst &&
                     (held->cls == InsnClass::Load || held->cls == InsnClass::FpLoad));
        return jump_entered_id(issue, jump_dst, x0_read) < issue;
    }
    // The cycle a jump issuing in `issue` entered ID: earlier than `issue` when it waited there for an FP
    // result or a load's result to its link register `jump_dst` (waits_for_load_result), or with `x0_read`
    // for an FP result to x0.
    uint64_t jump_entered_id(uint64_t issue, uint8_t jump_dst, bool x0_read = false) const {
        const bool waited_for_write =
            id_wait_end_ == issue && ((jump_dst < kZeroSlot && ready_cycle(ready_[jump_dst]) == issue) ||
                                      (x0_read && ready_cycle(ready_[fp_result_slot(kX0Slot)]) == issue));
        return waited_for_write ? id_wait_start_ : issue;
    }
    // Whether a jump in `issue` waited in ID behind an instruction held in EX that writes `src`.
    bool jump_waited_for(uint64_t issue, uint8_t src) const {
        const DecodedInsn* held = held_just_ahead(issue);
        return held && held->dst == src;
    }
    // The instruction held in EX that one issuing in `issue` comes right behind, if any.
    const DecodedInsn* held_just_ahead(uint64_t issue) const {
        return issue == held_in_ex_until_ && issue != 0 ? slot_at(held_in_ex_pc_) : nullptr;
    }
    // CV32E40P needs a second bus transaction when an access crosses a word boundary: one more cycle.
    void misaligned_access_cost(uint32_t addr, unsigned size) {
        if ((addr & 3) + size > 4) {
            add_stall(StallKind::MultiCycle, 1);
            held_in_ex();
        }
    }
    // The same for a load, which delivers its data with the second transaction: an instruction using the
    // result waits one cycle more than after an aligned load (cv32e40p_controller.sv: the misaligned stall,
    // then the load-use stall). Returns what to add to issue_ after the access (from which the result's
    // ready cycle counts), so that the bank arbitration keeps the first cycle.
    unsigned split_load_cost(uint32_t addr, unsigned size) {
        const unsigned split = (addr & 3) + size > 4;
        if (split) [[unlikely]] {
            add_stall(StallKind::MultiCycle, 1);
            held_in_ex();
            split_load_until_ = cycle_;
        }
        return split;
    }
    // Taken branch / jump: redirect and pay the refetch penalty (one more for a misaligned 32-bit target).
    void jump_to(uint32_t target, unsigned penalty) {
        next_pc_ = target;
        add_stall(StallKind::Control, penalty + straddle_extra(target));
    }
    // A taken conditional branch to `target`: its refetch cycles, one more for a misaligned 32-bit target.
    void branch_to(uint32_t target) {
        add_stall(StallKind::Control, branch_refetch(next_pc_, issue_, straddle_extra(target)));
        next_pc_ = target;
    }
    // The cycle a jump to `target` pays for a 32-bit instruction there that straddles a word boundary.
    unsigned straddle_extra(uint32_t target) {
        unsigned extra;
        if (!straddle_cost(target, extra)) extra = (fetch_parcel(target) & 3) == 3;
        return extra;
    }
    // A branch is decided in EX, with the instruction after it in ID. A CSR instruction there holds ID while
    // an FP operation is in flight (cv32e40p_id_stage.sv: csr_apu_stall), though it never issues, and a
    // taken branch's target enters ID only after it lets go: one cycle after the CSR instruction could
    // have issued (fpu::csr_wait), and a 32-bit target that straddles a word boundary takes its second
    // fetch after that as well. The refetch cycles of a branch issued in `issue`, to a target whose straddle
    // costs `straddle`.
    unsigned branch_refetch(uint32_t next_pc, uint64_t issue, unsigned straddle) const {
        const unsigned refetch = 2 + straddle;
        if (apu_busy_until_ + 1 + straddle <= issue + refetch) return refetch;
        const uint32_t off = next_pc - fast_base_;
        if (off > fast_last_[1]) return refetch;
        uint16_t parcel;
        std::memcpy(&parcel, fast_data_ + off, 2);
        const bool csr_access = (parcel & 0x7f) == 0x73 && ((parcel >> 12) & 3) != 0; // funct3 not 0 or 4
        return csr_access ? static_cast<unsigned>(apu_busy_until_ + 1 + straddle - issue) : refetch;
    }
    // The prefetcher needs two fetches for a 32-bit instruction that straddles a word boundary: `extra` is
    // the cycle that costs a jump to `target`. False when the parcel at `target` must come from the bus.
    bool straddle_cost(uint32_t target, unsigned& extra) const {
        extra = 0;
        if (!(target & 2)) return true;
        const uint32_t off = target - fast_base_;
        if (off > fast_last_[1]) return false;
        uint16_t parcel;
        std::memcpy(&parcel, fast_data_ + off, 2);
        extra = (parcel & 3) == 3;
        return true;
    }
    // Delays issue of the current instruction until `cycle` while it waits in ID (its operands).
    void wait_in_id(uint64_t cycle, StallKind kind) {
        if (cycle > issue_) {
            add_stall(kind, cycle - issue_);
            if (id_wait_end_ != issue_) { // not after a wait for its operands
                id_wait_start_ = issue_;
                id_wait_kind_ = kind;
                id_wait_apu_dep_end_ = 0;
            }
            id_wait_end_ = issue_ = cycle;
        }
    }
    // Waits in ID for integer register `reg`, read through a field the APU dispatcher does not compare with
    // the FP results in flight: for a load's (or a multi-cycle operation's) result to it, not an FP result.
    void wait_for_non_fp_result(unsigned reg) {
        const uint64_t entry = reg ? ready_[reg] : 0;
        const auto cause = static_cast<ReadyCause>(entry & 3);
        if (cause == ReadyCause::Fpu || ready_cycle(entry) <= issue_) return;
        if (cause == ReadyCause::Load) ++stats_.load_use_hazards;
        wait_in_id(ready_cycle(entry),
                   cause == ReadyCause::Load ? StallKind::LoadUse : StallKind::MultiCycle);
    }
    // The same while it waits in EX (the FPU or div/sqrt unit, a TCDM bank or the bus is busy).
    void delay_issue(uint64_t cycle, StallKind kind) {
        if (cycle > issue_) {
            const bool first = first_hold();
            const uint64_t from = hold_grows_from();
            note_first_hold(); // while issue_ is still the cycle it entered EX in
            add_stall(kind, cycle - issue_);
            issue_ = cycle;
            held_in_ex_until_ = cycle_;
            held_in_ex_pc_ = pc_;
            if (kind != StallKind::FpuContention)
                count_dependency_behind(from, first);
            else
                stats_.apu_contention_runs_at_entry += first;
        }
    }
    // The FP operations in flight, as CV32E40P's APU dispatcher sees them (fp_unit.hpp: apu_wait): the cycle
    // the latest one of latency class 2 or 3 returns its result, and the latest one of class 3.
    uint64_t apu_busy_until_ = 0;
    uint64_t apu_long_until_ = 0;
    // A lockstep turn goes through run() instead of its inline path (take_turn): the hart is observed, or an
    // FP result to x0 may be in flight, which only check_operands waits for (fp_unit.hpp: apu_in_flight).
    bool turn_detour_ = false;
    // The end of the latest instruction held in EX (held_in_ex), and its pc: what a jump right behind it
    // asks (jump_target_prefetched).
    uint64_t held_in_ex_until_ = 0;
    uint32_t held_in_ex_pc_ = 0;
    uint64_t held_before_until_ = 0; // note_first_hold
    uint64_t held_in_ex_from_ = 0;
    // The APU_DEP cycles counted for the instruction behind while the latest one held in EX was
    // (count_dependency_behind), and how many of them a type conflict held it for (fpu::held_for_type):
    // illegal_in_hwloop_trap_end takes them back.
    uint64_t dependency_behind_ = 0;
    uint64_t dependency_behind_in_type_ = 0;
    // The latest count_dependency_behind: its window's start, what it counted, and whether the hold was the
    // instruction's first (recount_dependency_behind).
    struct BehindCount {
        uint64_t from = 0;
        uint64_t cycles = 0;
        bool first = false;
    } last_behind_;
    // The cycles the latest wait of an instruction in ID began and ended (stall_on_operands, wait_in_id), and
    // what it was counted as (the first kind, when it waited twice).
    uint64_t id_wait_start_ = 0;
    uint64_t id_wait_end_ = 0;
    StallKind id_wait_kind_ = StallKind::LoadUse;
    // The end of the latest wait for operands when it waited for an FP result in flight (the APU
    // dispatcher's read or write dependency), else 0: illegal_in_hwloop_trap_end asks.
    uint64_t id_wait_apu_dep_end_ = 0;
    // A class-3 result (latency 3 or more, div/sqrt) is written through the ALU's register-file port
    // (cv32e40p_ex_stage.sv: apu_multicycle), from the cycle it is ready on, as EX cycles count: the cycle
    // it takes the port, 0 once it has. An instruction in EX that writes through the same port in that
    // cycle is held one more (wb_contention); the write waits while EX holds a split or post-increment
    // access or a mulh past its first cycle, or an ALU write meets a load's or store's response
    // (apu_valid). While it is pending every instruction goes through apu_port_contention. A write that waits
    // returns the result that much later, to its readers and to the dispatcher alike, which takes apu_valid
    // as the result's return (defer_apu_result).
    uint64_t apu_port_write_ = 0;
    uint8_t apu_port_slot_ = kSinkSlot; // the scoreboard slot of the result it writes
    uint64_t last_access_ex_first_ = 0; // the first and last EX cycles of the latest load or store
    uint64_t last_access_ex_end_ = 0;
    uint64_t split_load_until_ = 0;     // the cycle the instruction behind the latest split load may issue
    uint64_t last_post_inc_ex_end_ = 0; // the same for the latest one that also writes its base register
    static bool writes_alu_port(InsnClass c) {
        return c == InsnClass::Alu || c == InsnClass::Jump || c == InsnClass::Mul ||
               c == InsnClass::MulHigh || c == InsnClass::Div || c == InsnClass::Csr;
    }
    void apu_port_contention(const DecodedInsn& d);
    // Whether the instruction at next_pc is a jalr that does not read the pending class-3 result: in ID
    // behind an instruction that writes through the ALU port, it keeps that result's write out of EX
    // (cv32e40p_ex_stage.sv: apu_valid, ctrl_transfer_insn_in_dec_i == BRANCH_JALR).
    bool jalr_behind_holds_write(uint32_t next_pc) const;
    // The instruction word at `pc` in RAM (16 bits for a compressed one), read without a bus access.
    bool peek_instruction(uint32_t pc, uint32_t& raw) const;
    // The cycles from `from` to `until` in which the instruction behind the current one waits in ID for an FP
    // result in flight (APU_DEP): the dispatcher compares its registers while the current one is held in EX
    // (cv32e40p_controller.sv: apu_stall_o counts whatever else holds ID).
    uint64_t dependency_behind(uint64_t from, uint64_t until) const;
    // The pending class-3 write, due in `from`, happens in `to` instead.
    void defer_apu_result(uint64_t from, uint64_t to);
    // By FpuOperation AddMul, Other: the latency and its class, from the timing (no work per operation).
    uint8_t apu_latency_[2] = {1, 1};
    uint8_t apu_class_[2] = {1, 1};
    FpuArbiter* fpu_arbiter_ = nullptr; // shared FPUs; nullptr: a private CV32E40P FPU
    FpuLane fpu_lane_;                  // fpu_arbiter_'s lane for this core
    void set_fpu_arbiter(FpuArbiter* arbiter) {
        fpu_arbiter_ = arbiter;
        fpu_lane_ = arbiter ? arbiter->lane(hartid_) : FpuLane{};
    }

    [[noreturn]] void trap(uint32_t cause, uint32_t tval) { throw TrapSignal{cause, tval}; }
    // Abandons the current instruction and puts the core to sleep until wake() (cv.elw on an event).
    // The time asleep counts as `kind` (Sleep, or DmaWait for a DMA transfer).
    [[noreturn]] void sleep_until_woken(StallKind kind = StallKind::Sleep) {
        sleep_kind_ = kind;
        sleep_in_elw_ = true;
        throw TrapSignal{cause::kSleep, 0};
    }
    // The same for a load the DMA does not answer while the core's command queue is full: a DmaWait stall,
    // but no cv.elw in EX, so no PIPE_STALL event.
    [[noreturn]] void stall_until_woken_on_full_dma_queue() {
        sleep_kind_ = StallKind::DmaWait;
        sleep_in_elw_ = false;
        throw TrapSignal{cause::kSleep, 0};
    }
    void arbitrate(uint32_t addr, bool is_write) {
        delay_issue(tcdm_ ? tcdm_->request<false>(arbiter_port_, addr, issue_, is_write)
                          : arbiter_->grant(arbiter_port_, addr, issue_, is_write),
                    StallKind::TcdmContention);
    }
    [[noreturn]] void fail(std::string message);
    uint32_t csr_read(uint16_t addr, bool& ok);
    bool csr_write(uint16_t addr, uint32_t value);
    bool csr_cost_is_long(uint16_t addr, bool writes) const;
    // The flush after a status CSR (csr_cost_is_long), as a hardware loop's end feels it.
    void status_csr_flush() {
        if (hwloop_armed_) status_flush_in_loop();
    }
    void do_ecall();
    void do_mret();
    // Empties the decode caches but for the slot of the fence.i at pc_, which the loops still read after its
    // handler (its class, for the statistics and the register file's write port).
    void fence_i();
    // mstatus.FS (bits 14:13, CV32E40P with its FPU): Off makes every FP instruction and FP CSR access
    // illegal (cv32e40p_decoder.sv, fs_off_i); an instruction that writes FP registers or flags makes it
    // Dirty (cv32e40p_cs_registers.sv), which mstatus.SD (bit 31) shows. Kept off the hot path: while FS is
    // not Dirty, decoded FP instructions run through fp_gate, which checks, marks FS Dirty and points its
    // decode-cache slot back to the instruction's own handler.
    static constexpr uint32_t kFsMask = 0x6000, kFsInitial = 0x2000, kFsDirty = 0x6000;
    static bool is_fp_class(InsnClass c) {
        return c == InsnClass::Fp || c == InsnClass::FpDivSqrt || c == InsnClass::FpLoad ||
               c == InsnClass::FpStore;
    }
    static void fp_gate(Hart& h, const DecodedInsn& d);
    // FS left Dirty (or the core was reset): FP instructions go through the gate again.
    void gate_fp_instructions();
    // FS became Dirty: the shared ungated cache, if there is one (without, fp_gate ungates slot by slot).
    void ungate_fp_instructions() {
        if (shared_ungated_) decode_ = shared_ungated_;
        turn_slot_pc_ = kNoPc;
    }

    // Hardware loops (XCVhwlp).
    struct HwLoop {
        uint32_t start = 0, end = 0, count = 0;
    };
    std::array<HwLoop, 2> loops_{};
    void hwloop_set(unsigned l, uint32_t start, uint32_t end, uint32_t count, bool set_start, bool set_end,
                    bool set_count);

  private:
    // Runs the instruction in slot `d` (the slot of pc_); with kChain, returns the slot of the next one.
    // Without kChain, through `early` when that is d's handler (see take_turn).
    template <bool kFetchModel, bool kObserved, bool kChain>
    const DecodedInsn* execute_one(const DecodedInsn* d, ExecFn early = nullptr);
    // The decode-cache slot of `pc`, or an empty one outside the cached range: slots are only looked at
    // through their exec, and an empty one sends execute_one to resolve().
    const DecodedInsn* slot_at(uint32_t pc) const {
        const uint32_t off = pc - code_lo_;
        return off < code_span_ ? &(*decode_)[off >> 1] : &scratch_[1];
    }
    // slot_at(pc_) as the last turn or run ahead left it: the next turn starts from it without the lookup.
    // kNoPc (odd: no pc) after anything that switches decode_.
    static constexpr uint32_t kNoPc = 1;
    uint32_t turn_slot_pc_ = kNoPc;
    const DecodedInsn* turn_slot_ = nullptr;
    // The decoded instruction at pc_, for an empty slot: decodes it into its cache slot, or into scratch_[0]
    // outside the cached range.
    const DecodedInsn& resolve();
    // Waits for d's sources; out of line for the loops that call it only while a source may be pending.
    // It also waits for an FP result in flight to x0 when d compares x0 (apu_reads_x0), which the inline
    // check leaves to it: slot 0's pending bit sends such an instruction here, and take_turn's detour.
    void check_operands(const DecodedInsn& d);
    // The latest ready_ entry among d's sources, as check_operands waits for it.
    uint64_t operand_need(const DecodedInsn& d) const {
        const uint64_t need = std::max({ready_[d.src[0]], ready_[d.src[1]], ready_[d.src[2]]});
        return d.apu_reads_x0 ? std::max(need, ready_[fp_result_slot(kX0Slot)]) : need;
    }
    void check_operands_inline(const DecodedInsn& d) {
        const uint64_t need = std::max({ready_[d.src[0]], ready_[d.src[1]], ready_[d.src[2]]});
        if (ready_cycle(need) > cycle_) [[unlikely]]
            stall_on_operands(d, need);
        // Every source is ready from here on (cycle_ never goes back past an issue).
        pending_ &= ~d.settle_mask;
    }
    template <bool kFetchModel, bool kObserved> void run_loop();
    template <bool kFetchModel> void run_inline();
    template <bool kFetchModel> void run_through_handlers();
    template <bool kFetchModel, bool kLoops, bool kAhead = false> bool run_inline_part(const DecodedInsn* dp);
    // `first`: the slot of pc_.
    void run_ahead(uint64_t limit, const DecodedInsn* first);
    // Whether the instruction in slot `d` (the next one) may start a run ahead.
    // With shared FPUs (a cluster's), only RV32I runs ahead: asking first spares the host's branch predictor
    // the next instruction's kind, which after a turn is a coin toss between an FP operation and a load.
    bool may_run_ahead(const DecodedInsn& d) const {
        if (fpu_arbiter_) return runs_ahead(d.fast);
        return runs_ahead(d.fast) || (d.fast == FastOp::FpuOp && fpu_op_runs_ahead(d));
    }
    // The instructions a core may run ahead: RV32I arithmetic, branches and jal (an empty slot is None).
    static bool runs_ahead(FastOp op) {
        return static_cast<uint8_t>(static_cast<uint8_t>(op) - 1) < static_cast<uint8_t>(FastOp::Jal);
    }
    // Whether an FP operation (FastOp::FpuOp) may run ahead: it goes to the core's own FPU or div/sqrt unit,
    // which no other core can hold, and its rounding mode is valid (it cannot trap).
    bool fpu_op_runs_ahead(const DecodedInsn& d) const {
        return fpu_arbiter_ == nullptr && (d.aux != kDynamicRm || frm_ <= kLastRm);
    }
    // An instruction run ahead, with what it added to the counters.
    struct RunAheadEntry {
        uint64_t start = 0; // the cycle it would have taken its turn in
        uint32_t pc = 0;
        uint32_t operand_wait = 0; // cycles waited for a source, counted by operand_cause
        uint8_t stat_index = 0;
        uint8_t operand_cause = 0; // ReadyCause
        uint8_t control = 0;       // refetch cycles of a taken branch or jump
        uint8_t flags = 0;         // kAheadBranchTaken, kAheadFetched, kAheadFpu, kAheadPortHold
        uint32_t fpu_wait = 0;     // an FP operation: cycles it waited for the core's div/sqrt unit
    };
    static constexpr uint8_t kAheadBranchTaken = 1, kAheadFetched = 2, kAheadFpu = 4, kAheadPortHold = 8;
    // apu_port_contention for an instruction run ahead inline (issue_ set, `cycle` its cycle_), journaled.
    uint64_t port_contention_ahead(const DecodedInsn& d, uint64_t cycle, uint32_t next_pc,
                                   RunAheadEntry& entry);
    static constexpr unsigned kRunAheadCapacity = 64;
    // Whether this core's instruction of cycle `start` takes its turn after core `other`'s of cycle `turn`.
    bool runs_after(uint64_t start, unsigned other, uint64_t turn) const {
        return start > turn || (start == turn && issue_order_->runs_before(other, hartid_, turn));
    }
    static void undo_counters(CoreStats& stats, const RunAheadEntry& e);
    void run_observed();
    std::vector<RetireObserver*> observers_;
    // Whether the hart runs through execute_one's observed path: a view watches it, or mhpmevent3 selects
    // APU_DEP with LD, ST, JUMP, BRANCH or COMP_INSTR but not INSTR, and the counter needs the class of the
    // instruction ahead of each APU_DEP run (ahead_class_needed_). That path records the class of the
    // instruction executing and of the last one retired, which the inline loops do not pay for.
    bool observed_ = false;
    bool ahead_class_needed_ = false;
    uint8_t executing_stat_ = 0, retired_stat_ = 0; // stat_index, as by_class_and_size
    // The loop limit a run() set aside to leave the inline loop for the observed one
    // (set_ahead_class_needed).
    uint64_t resume_limit_ = 0;
    void set_ahead_class_needed(bool needed);
    // The core enters a new line (pc_): a hit in its L0 is counted here, anything else goes to the port.
    void fetch_new_line() {
        current_line_ = pc_ & fetch_line_mask_;
        if (fetch_lane_.hits(pc_)) [[likely]]
            ++*fetch_lane_.fetches;
        else
            fetch_line_from_port();
    }
    void fetch_line_from_port();
    // InstructionFetchPort::fetch_line_privately, with an L0 hit counted here.
    bool fetch_line_privately(uint32_t pc) {
        if (!has_fetch_lane_) return ifetch_->fetch_line_privately(hartid_, pc);
        if (!fetch_lane_.hits(pc)) return false;
        ++*fetch_lane_.fetches;
        return true;
    }
    uint32_t slow_load(uint32_t addr, unsigned size);
    void check_guards(uint32_t addr, unsigned size, bool write);
    void slow_store(uint32_t addr, unsigned size, uint32_t value);
    const DecodedInsn& fetch_slow();
    void decode_at(DecodedInsn& slot, uint32_t pc);
    uint32_t fetch_parcel(uint32_t addr);
    void stall_on_operands(const DecodedInsn& d, uint64_t need);
    // Its body, which check_operands keeps inline (defined and used in hart.cpp only).
    [[gnu::always_inline]] inline void wait_for_operands(const DecodedInsn& d, uint64_t need);
    bool write_hazard_behind_split_load(const DecodedInsn& d, uint64_t need) const;
    void take_trap(const TrapSignal& t);
    void charge_unretired_cycles();
    unsigned trap_entry_cycles(const TrapSignal& t) const;
    void hwloop_wrap();
    void decode_after_flush(uint32_t next);
    bool decoded_in_hwloop_state(uint32_t pc, unsigned first_loop = 0) const;
    uint64_t illegal_in_hwloop_trap_end();
    void status_flush_in_loop();
    void mret_in_loops();
    void hwloop_validate(unsigned l);
    void update_hwloop_watch();
    uint64_t selected_events(uint32_t sel) const;
    uint64_t counter_value(unsigned idx) const;
    void counter_write(unsigned idx, uint64_t value);
    uint64_t counter_source(unsigned idx) const;
    uint64_t own_events(unsigned idx) const;

    AddressMap& bus_;
    HostInterface& host_;
    CoreTiming timing_;
    uint32_t hartid_; // the core's index in its cluster
    uint32_t cluster_id_ = 0;

    uint64_t limit_ = 0;
    StopReason stop_ = StopReason::None;
    int exit_code_ = 0;
    uint32_t exit_value_ = 0;
    std::string stop_message_;

    // Fast data window: off <= fast_last_[size-1] means [addr, addr+size) is inside it.
    uint32_t fast_base_ = 0;
    uint8_t* fast_data_ = nullptr;
    std::array<uint32_t, 4> fast_last_{0, 0, 0, 0};
    // off < plain_span_[size-1]: inside the window where accesses need no arbitration (empty with an
    // arbiter).
    std::array<uint32_t, 4> plain_span_{0, 0, 0, 0};
    uint32_t fast_size_ = 0;
    void update_plain_window();
    uint32_t watch_addr_ = 1;                   // odd: never matches a word address
    static const MemoryGuards& no_guards();     // never armed: guards_ when there are none
    const MemoryGuards* guards_ = &no_guards(); // never null
    InstructionFetchPort* ifetch_ = nullptr;
    uint32_t fetch_line_mask_ = 0; // 0 with no instruction cache: every pc maps to line 0 == current_line_
    uint32_t current_line_ = 0;
    // Without an L0 from the port, a lane that never hits (no even pc is line ~0 at shift 0), so that the
    // lockstep path can probe it unconditionally; its count goes nowhere.
    static constexpr uint32_t kNoL0Tag = ~0u;
    FetchLane fetch_lane_{&kNoL0Tag, 0, 0, &unlaned_fetches_};
    bool has_fetch_lane_ = false;
    uint64_t unlaned_fetches_ = 0;
    DataArbiter* arbiter_ = nullptr;
    TcdmInterconnect* tcdm_ = nullptr; // arbiter_->plain_interconnect()
    unsigned arbiter_port_ = 0;
    bool asleep_ = false;
    StallKind sleep_kind_ = StallKind::Sleep;
    bool sleep_in_elw_ = true; // false: stalled on a full DMA command queue

    uint32_t code_lo_ = 0;
    uint32_t code_span_ = 0;
    // Two slots more than the range needs, never filled: stepping from the last instruction of the range to
    // its successor lands on an empty slot. decode_ is the one in use: decode_cache_, or one of the shared
    // ones (share_decode_caches). A handler may switch it, so the loops look the next slot up after one.
    DecodeCache decode_cache_;
    DecodeCache* shared_gated_ = nullptr;
    DecodeCache* shared_ungated_ = nullptr;
    DecodeCache* decode_ = &decode_cache_;
    // [0] holds instructions decoded outside the cached range; [1] and [2] stay empty for the same reason.
    std::array<DecodedInsn, 3> scratch_{};

    uint32_t hwloop_watch_[2] = {1, 1}; // loop end addresses while active, an odd value otherwise
    // The end of the loop whose jump back a flush (a status CSR, an mret) has made a jump from ID
    // (decode_after_flush), 0 if none. While set, every instruction goes through execute_one, which knows
    // whether the body's last instruction waited in ID, and no core runs ahead.
    uint32_t hwloop_refetch_end_ = 0;
    bool mret_to_loop_end_ = false; // an mret has just set the pc to a loop's end (mret_in_loops)
    // Where the controller's state comes from (decoded_in_hwloop_state): the issue of the latest flush while
    // a loop was active and the pc decoded after it; the issue that began each loop's current round (its
    // set-up, or the jump back) and whether that was a jump back.
    static constexpr uint32_t kNoFlushPc = ~0u; // above every pc
    uint64_t flush_issue_ = 0;
    uint32_t flush_next_pc_ = kNoFlushPc;
    uint64_t hwloop_round_start_[2] = {0, 0};
    bool hwloop_wrapped_[2] = {false, false};
    bool hwloop_armed_ = false; // some loop is active: only then is the pc compared
    std::pair<uint32_t, uint32_t> validated_[2] = {{1, 1}, {1, 1}};

    // CSR state
    uint32_t mstatus_ = 0, mie_ = 0, mtvec_ = 0, mscratch_ = 0, mepc_ = 0, mcause_ = 0;
    // The FS an FP load found, which a CSR read issued before fs_dirty_seen_from_ still sees (fp_gate).
    uint32_t fs_before_load_ = 0;
    uint64_t fs_dirty_seen_from_ = 0;
    uint32_t mcountinhibit_ = 0;
    TrapRecord trap_record_;
    std::array<uint32_t, 32> mhpmevent_{};
    // Counter i (0 = mcycle, 2 = minstret, 3..31 = mhpmcounter) reads source - offset, or its frozen
    // value while inhibited.
    std::array<uint64_t, 32> counter_offset_{};
    std::array<uint64_t, 32> counter_frozen_{};

    // The run-ahead journal, last: the instruction loop's members stay together.
    std::array<RunAheadEntry, kRunAheadCapacity> ahead_{};
    unsigned ahead_len_ = 0; // entries of its latest run ahead (older ones precede its last turn)
    const IssueOrder* issue_order_ = nullptr;

    uint64_t outside_reads_ = 0; // outside_reads()
    std::unique_ptr<TrapLoopWatch> trap_loop_watch_;
    std::vector<uint32_t> trap_state_; // architectural_state's last answer, kept for its storage
    void check_trap_loop();

    friend class HartTestAccess;
};

} // namespace pulpsim
