#include "core/hart.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <new>
#include <sys/mman.h>
#include <type_traits>
#include <unistd.h>

#include "core/decoder.hpp"
#include "core/fp_unit.hpp"
#include "core/hart_loop.hpp"

namespace pulpsim {

const char* stall_name(StallKind kind) {
    switch (kind) {
    case StallKind::LoadUse: return "load_use";
    case StallKind::JumpRegister: return "jump_register";
    case StallKind::Control: return "control";
    case StallKind::FpuDependency: return "fpu_dependency";
    case StallKind::MultiCycle: return "multi_cycle";
    case StallKind::TcdmContention: return "tcdm_contention";
    case StallKind::FpuContention: return "fpu_contention";
    case StallKind::ICacheMiss: return "icache_miss";
    case StallKind::MemoryLatency: return "memory_latency";
    case StallKind::Sleep: return "sleep";
    case StallKind::DmaWait: return "dma_wait";
    case StallKind::Count: break;
    }
    return "?";
}

Hart::Hart(AddressMap& bus, HostInterface& host, const CoreTiming& timing, uint32_t hartid)
    : bus_(bus), host_(host), timing_(timing), hartid_(hartid) {
    const unsigned extra[2] = {timing.fpu_addmul_latency, timing.fpu_other_latency};
    for (unsigned i = 0; i < 2; ++i) {
        const unsigned latency = 1 + std::min(extra[i], 254u);
        apu_latency_[i] = static_cast<uint8_t>(latency);
        apu_class_[i] = static_cast<uint8_t>(isa::fpu::apu_class(latency));
    }
}

void Hart::reset(uint32_t pc, uint32_t sp) {
    std::fill(std::begin(x_), std::end(x_), 0u);
    std::fill(std::begin(f_), std::end(f_), 0u);
    x_[2] = sp;
    pc_ = pc;
    cycle_ = issue_ = 0;
    fflags_ = frm_ = 0;
    ready_.fill(0);
    pending_ = 0;
    stats_ = CoreStats{};
    apu_busy_until_ = apu_long_until_ = 0;
    ahead_class_needed_ = false;
    observed_ = turn_detour_ = !observers_.empty();
    resume_limit_ = 0;
    apu_port_write_ = last_access_ex_first_ = last_access_ex_end_ = last_post_inc_ex_end_ = 0;
    split_load_until_ = 0;
    apu_port_slot_ = kSinkSlot;
    held_in_ex_until_ = held_in_ex_pc_ = 0;
    held_before_until_ = held_in_ex_from_ = 0;
    dependency_behind_ = dependency_behind_in_type_ = 0;
    last_behind_ = {};
    hwloop_refetch_end_ = 0;
    mret_to_loop_end_ = false;
    id_wait_start_ = id_wait_end_ = id_wait_apu_dep_end_ = 0;
    loops_ = {};
    flush_issue_ = 0;
    flush_next_pc_ = kNoFlushPc;
    hwloop_round_start_[0] = hwloop_round_start_[1] = 0;
    hwloop_wrapped_[0] = hwloop_wrapped_[1] = false;
    hwloop_watch_[0] = hwloop_watch_[1] = 1;
    hwloop_armed_ = false;
    stop_ = StopReason::None;
    asleep_ = false;
    exit_code_ = 0;
    exit_value_ = 0;
    stop_message_.clear();
    // MPP = M, the only privilege level modelled. FS starts Initial where CV32E40P resets it to Off: the
    // loader enables the FPU, so that programs built for qemu-riscv32's user mode run unchanged.
    mstatus_ = 0x1800 | kFsInitial;
    gate_fp_instructions(); // FP instructions cached before the reset pass the FS gate again
    mie_ = mtvec_ = mscratch_ = mepc_ = mcause_ = 0;
    trap_record_ = {};
    mcountinhibit_ = csr::kImplementedCounters; // CV32E40P resets with every counter it has inhibited
    mhpmevent_.fill(0);
    counter_offset_.fill(0);
    counter_frozen_.fill(0);
}

DecodeCache::DecodeCache(size_t slots) : size_(slots) {
    if (slots == 0) return;
    // calloc takes large blocks straight from mmap, already zero, without touching them.
    memory_ = std::calloc(slots * sizeof(DecodedInsn) + alignof(DecodedInsn), 1);
    if (!memory_) throw std::bad_alloc();
    const auto address = reinterpret_cast<uintptr_t>(memory_);
    slots_ =
        reinterpret_cast<DecodedInsn*>((address + alignof(DecodedInsn) - 1) & ~(alignof(DecodedInsn) - 1));
}

DecodeCache::~DecodeCache() {
    std::free(memory_);
}

void DecodeCache::clear() {
    char* const lo = reinterpret_cast<char*>(slots_);
    char* const hi = lo + size_ * sizeof(DecodedInsn);
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    char* const first = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(lo) + page - 1) & ~(page - 1));
    char* const last = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(hi) & ~(page - 1));
    // The whole pages inside the block are the block's alone.
    if (last > first && madvise(first, static_cast<size_t>(last - first), MADV_DONTNEED) == 0) {
        std::memset(lo, 0, static_cast<size_t>(first - lo));
        std::memset(last, 0, static_cast<size_t>(hi - last));
    } else if (lo != nullptr) {
        std::memset(lo, 0, static_cast<size_t>(hi - lo));
    }
}

void Hart::set_code_range(uint32_t lo, uint32_t hi) {
    code_lo_ = lo;
    code_span_ = hi > lo ? hi - lo : 0;
    decode_cache_ = DecodeCache(code_span_ / 2 + 2);
    shared_gated_ = shared_ungated_ = nullptr;
    decode_ = &decode_cache_;
    turn_slot_pc_ = kNoPc;
}

void Hart::share_decode_caches(DecodeCache& gated, DecodeCache& ungated) {
    if (gated.size() != decode_cache_.size() || ungated.size() != decode_cache_.size())
        throw std::invalid_argument("Hart::share_decode_caches: a shared cache covers another code range");
    shared_gated_ = &gated;
    shared_ungated_ = &ungated;
    decode_ = (mstatus_ & kFsMask) == kFsDirty ? shared_ungated_ : shared_gated_;
    turn_slot_pc_ = kNoPc;
}

void Hart::set_fast_ram(Ram* ram) {
    fast_base_ = ram->base();
    fast_data_ = ram->data();
    fast_size_ = ram->size();
    for (unsigned n = 1; n <= 4; ++n)
        fast_last_[n - 1] = ram->size() >= n ? ram->size() - n : 0;
    update_plain_window();
}

const MemoryGuards& Hart::no_guards() {
    static const MemoryGuards none;
    return none;
}

void Hart::update_plain_window() {
    for (unsigned n = 1; n <= 4; ++n)
        plain_span_[n - 1] = !arbiter_ && fast_size_ >= n ? fast_size_ - n + 1 : 0;
}

void Hart::request_stop(StopReason reason, int exit_code, std::string message) {
    if (stop_ != StopReason::None) return;
    stop_ = reason;
    exit_code_ = exit_code;
    stop_message_ = std::move(message);
    limit_ = 0;
}

void Hart::fail(std::string message) {
    request_stop(StopReason::Error, 3, std::move(message));
    throw TrapSignal{cause::kSimulatorStop, 0};
}

// ---------------------------------------------------------------------------------------------------------
// The hot loop.

void Hart::fetch_line_from_port() {
    if (const unsigned wait = ifetch_->fetch_line(hartid_, pc_)) add_stall(StallKind::ICacheMiss, wait);
}

// Out of line: the lockstep engine's loop stays small, and a run ahead covers several instructions.
[[gnu::noinline]] void Hart::run_ahead(uint64_t limit, const DecodedInsn* first) {
    ahead_len_ = 0; // what ran before this core's turn is no longer ahead of anyone's
    limit_ = limit;
    // A jump back from ID to come (decode_after_flush) is decided in execute_one, in a turn.
    for (const DecodedInsn* dp = first; !hwloop_refetch_end_; dp = slot_at(pc_)) {
        bool went_on;
        if (ifetch_)
            went_on = hwloop_armed_ ? run_inline_part<true, true, true>(dp)
                                    : run_inline_part<true, false, true>(dp);
        else
            went_on = hwloop_armed_ ? run_inline_part<false, true, true>(dp)
                                    : run_inline_part<false, false, true>(dp);
        if (!went_on || cycle_ >= limit_) break;
    }
    turn_slot_pc_ = pc_;
    turn_slot_ = slot_at(pc_);
}

void Hart::undo_counters(CoreStats& stats, const RunAheadEntry& e) {
    --stats.by_class_and_size[e.stat_index];
    auto& stalls = stats.stall_cycles;
    stalls[static_cast<size_t>(StallKind::Control)] -= e.control;
    if (e.flags & kAheadBranchTaken) --stats.branches_taken;
    if (e.flags & kAheadPortHold) --stalls[static_cast<size_t>(StallKind::FpuDependency)];
    if (e.flags & kAheadFpu) {
        --stats.fp_writebacks;
        stalls[static_cast<size_t>(StallKind::FpuDependency)] -= e.fpu_wait; // as fpu::issue counted it
    }
    if (e.operand_wait) {
        // As stall_on_operands counted it.
        switch (static_cast<ReadyCause>(e.operand_cause)) {
        case ReadyCause::Load:
            --stats.load_use_hazards;
            stalls[static_cast<size_t>(StallKind::LoadUse)] -= e.operand_wait;
            break;
        case ReadyCause::Fpu: stalls[static_cast<size_t>(StallKind::FpuDependency)] -= e.operand_wait; break;
        default: stalls[static_cast<size_t>(StallKind::MultiCycle)] -= e.operand_wait; break;
        }
    }
}

// Entries from before this core's last turn are never past another core's later turn, so the journal needs
// no clearing at every turn: the walk back stops at them.
CoreStats Hart::stats_seen_by(unsigned observer) const {
    CoreStats stats = stats_;
    if (!issue_order_) return stats;
    const uint64_t turn = issue_order_->turn_cycle();
    for (unsigned k = ahead_len_; k > 0 && runs_after(ahead_[k - 1].start, observer, turn); --k)
        undo_counters(stats, ahead_[k - 1]);
    return stats;
}

void Hart::rewind_run_ahead(unsigned stopper, uint64_t turn) {
    if (!issue_order_) return;
    for (; ahead_len_ > 0 && runs_after(ahead_[ahead_len_ - 1].start, stopper, turn); --ahead_len_) {
        const RunAheadEntry& e = ahead_[ahead_len_ - 1];
        undo_counters(stats_, e);
        if (e.flags & kAheadFetched) ifetch_->uncount_private_fetch(hartid_);
        cycle_ = e.start;
        pc_ = e.pc;
        id_wait_end_ = 0; // the instruction at pc_ waits again when it runs
    }
}

// Out of line, so that what the observed loops need (a copy of each instruction) costs the unobserved loops
// in run() nothing, not even registers.
[[gnu::noinline]] void Hart::run_observed() {
    if (ifetch_)
        run_loop<true, true>();
    else
        run_loop<false, true>();
}

void Hart::run(uint64_t cycle_limit) {
    if (stopped() || asleep_) return;
    ahead_len_ = 0; // everything from here runs in turn
    limit_ = cycle_limit;
    resume_limit_ = 0;
    for (;;) {
        while (cycle_ < limit_) {
            try {
                if (observed_) [[unlikely]] {
                    run_observed();
                } else if (ifetch_) {
                    run_loop<true, false>();
                } else {
                    run_loop<false, false>();
                }
            } catch (const TrapSignal& t) {
                take_trap(t);
            }
        }
        if (resume_limit_ == 0) break;
        limit_ = std::exchange(resume_limit_, 0); // on, through the other loop
    }
}

void Hart::set_ahead_class_needed(bool needed) {
    if (needed == ahead_class_needed_) return;
    ahead_class_needed_ = needed;
    observed_ = needed || !observers_.empty();
    if (!observed_) return;
    // The CSR write deciding it (32-bit) is the executing instruction, and the one ahead of the next.
    executing_stat_ = retired_stat_ = 2 * static_cast<uint8_t>(InsnClass::Csr);
    turn_detour_ = true;
    // Out of the inline loop, which does not record classes; run() goes on in the observed one.
    if (limit_ > cycle_) resume_limit_ = std::exchange(limit_, 0);
}

void Hart::step() {
    if (stopped() || asleep_) return;
    ahead_len_ = 0;
    limit_ = UINT64_MAX;
    try {
        // Through check_operands, as every loop but a lockstep turn's.
        const DecodedInsn* d = slot_at(pc_);
        if (observed_)
            ifetch_ ? execute_one<true, true, true>(d) : execute_one<false, true, true>(d);
        else
            ifetch_ ? execute_one<true, false, true>(d) : execute_one<false, false, true>(d);
    } catch (const TrapSignal& t) {
        take_trap(t);
    }
}

void Hart::wake(uint64_t cycle) {
    if (!asleep_) return;
    asleep_ = false;
    if (cycle > cycle_) add_sleep(cycle - cycle_);
}

void Hart::wait_for_operands(const DecodedInsn& d, uint64_t need) {
    const uint64_t wait = ready_cycle(need) - cycle_;
    id_wait_start_ = cycle_;
    id_wait_end_ = ready_cycle(need);
    id_wait_apu_dep_end_ = static_cast<ReadyCause>(need & 3) == ReadyCause::Fpu ? id_wait_end_ : 0;
    switch (static_cast<ReadyCause>(need & 3)) {
    case ReadyCause::Load:
        ++stats_.load_use_hazards;
        if (split_load_until_ == cycle_ && write_hazard_behind_split_load(d, need)) [[unlikely]]
            ++stats_.uncounted_load_hazards;
        id_wait_kind_ = StallKind::LoadUse;
        break;
    case ReadyCause::Fpu:
        id_wait_kind_ = StallKind::FpuDependency;
        stats_.apu_dependency_cycles += wait;
        // Right behind an instruction that took one cycle in EX: the wait starts in that one's INSTR event.
        if (cycle_ == issue_ + 1 && first_hold()) {
            ++stats_.apu_dependency_runs_at_entry;
            if (ahead_class_needed_) ++stats_.apu_dependency_runs_at_entry_by_class[retired_stat_];
        }
        break;
    default: id_wait_kind_ = StallKind::MultiCycle; break;
    }
    add_stall(id_wait_kind_, wait);
}

void Hart::stall_on_operands(const DecodedInsn& d, uint64_t need) {
    wait_for_operands(d, need);
}

void Hart::check_operands(const DecodedInsn& d) {
    const uint64_t need = operand_need(d);
    if (ready_cycle(need) > cycle_) wait_for_operands(d, need);
    pending_ &= ~d.settle_mask;
    // Slot 0 is not among the sources of an instruction that only compares x0: its bit is cleared here.
    if (d.apu_reads_x0 && ready_cycle(std::max(ready_[kX0Slot], ready_[fp_result_slot(kX0Slot)])) <= cycle_)
        pending_ &= ~(uint64_t{1} << kX0Slot);
}

// ---------------------------------------------------------------------------------------------------------
// Fetch and decode.

uint32_t Hart::fetch_parcel(uint32_t addr) {
    const uint32_t off = addr - fast_base_;
    if (off <= fast_last_[1]) {
        uint16_t v;
        std::memcpy(&v, fast_data_ + off, 2);
        return v;
    }
    // From RAM only: fetching from a device's window must not read its registers.
    uint16_t v;
    try {
        bus_.read_bytes(addr, &v, 2);
    } catch (const BusError&) {
        trap(cause::kInstrAccessFault, addr);
    }
    return v;
}

void Hart::decode_at(DecodedInsn& slot, uint32_t pc) {
    const uint32_t lo = fetch_parcel(pc);
    uint32_t raw = lo;
    if ((lo & 3) == 3) raw |= fetch_parcel(pc + 2) << 16;
    slot = decode(raw, timing_);
    if ((mstatus_ & kFsMask) != kFsDirty && is_fp_class(slot.cls)) [[unlikely]] {
        slot.exec = &Hart::fp_gate;
        slot.fast = FastOp::None; // the loop must call the gate
    }
}

void Hart::fp_gate(Hart& h, const DecodedInsn& d) {
    if ((h.mstatus_ & kFsMask) == 0) h.trap(cause::kIllegalInstruction, d.raw);
    const DecodedInsn own = decode(d.raw, h.timing_);
    own.exec(h, d);
    if (d.cls == InsnClass::FpLoad) {
        // A load writes its register in WB, and FS turns Dirty in the cycle after that write
        // (cv32e40p_cs_registers.sv, fregs_we_i): the CSR instruction right behind it still reads the old FS.
        h.fs_before_load_ = h.mstatus_ & kFsMask;
        h.fs_dirty_seen_from_ = h.issue_ + 2;
    }
    // A store only reads the FP state; anything else writes a register or the flags.
    if (d.cls != InsnClass::FpStore) h.mstatus_ |= kFsDirty;
    if ((h.mstatus_ & kFsMask) == kFsDirty) {
        if (h.shared_ungated_) {
            h.ungate_fp_instructions(); // the gated slot stays gated for the cores that share it
        } else {
            const_cast<DecodedInsn&>(d).exec = own.exec;
            const_cast<DecodedInsn&>(d).fast = own.fast;
        }
    }
}

void Hart::gate_fp_instructions() {
    if (shared_gated_) {
        decode_ = shared_gated_;
        turn_slot_pc_ = kNoPc;
        return;
    }
    for (DecodedInsn& slot : decode_cache_)
        if (slot.exec && is_fp_class(slot.cls)) {
            slot.exec = &Hart::fp_gate;
            slot.fast = FastOp::None;
        }
}

const DecodedInsn& Hart::fetch_slow() {
    if (pc_ & 1) trap(cause::kInstrMisaligned, pc_);
    decode_at(scratch_[0], pc_);
    return scratch_[0];
}

const DecodedInsn& Hart::resolve() {
    const uint32_t off = pc_ - code_lo_;
    if (off >= code_span_) return fetch_slow();
    DecodedInsn& slot = (*decode_)[off >> 1];
    if (!slot.exec) decode_at(slot, pc_);
    return slot;
}

void Hart::fence_i() {
    ++stats_.fence_i;
    const uint32_t off = pc_ - code_lo_;
    DecodedInsn* const self = off < code_span_ ? &(*decode_)[off >> 1] : nullptr;
    const DecodedInsn kept = self ? *self : DecodedInsn{};
    decode_cache_.clear();
    if (shared_gated_) {
        shared_gated_->clear();
        shared_ungated_->clear();
    }
    if (self) *self = kept;
}

// ---------------------------------------------------------------------------------------------------------
// Memory slow paths.

uint32_t Hart::slow_load(uint32_t addr, unsigned size) {
    unsigned latency = 0;
    uint32_t value = 0;
    try {
        value = bus_.read(addr, size, &latency, hartid_);
    } catch (const BusError&) {
        trap(cause::kLoadAccessFault, addr);
    } catch (const DeviceHole& hole) {
        fail(hole.describe(pc_));
    }
    // The data arrives later, and so does everything that waits for it.
    if (latency) delay_issue(issue_ + latency, StallKind::MemoryLatency);
    return value;
}

void Hart::check_guards(uint32_t addr, unsigned size, bool write) {
    if (const auto* zone = guards_->hit(addr, size))
        fail(fmt::format("pc {:#010x}: {}", pc_, MemoryGuards::describe(*zone, addr, size, write)));
}

void Hart::slow_store(uint32_t addr, unsigned size, uint32_t value) {
    unsigned latency = 0;
    try {
        bus_.write(addr, size, value, &latency, hartid_);
    } catch (const BusError&) {
        trap(cause::kStoreAccessFault, addr);
    } catch (const DeviceHole& hole) {
        fail(hole.describe(pc_));
    }
    if (latency) delay_issue(issue_ + latency, StallKind::MemoryLatency);
    // Self-modifying code: forget the decoded forms of the parcels the store touched.
    for (uint32_t a = (addr & ~1u) - 2; a < addr + size; a += 2) {
        const uint32_t off = a - code_lo_;
        if (off >= code_span_) continue;
        decode_cache_[off >> 1] = DecodedInsn{};
        if (shared_gated_) (*shared_gated_)[off >> 1] = (*shared_ungated_)[off >> 1] = DecodedInsn{};
    }
    if ((addr & ~3u) == watch_addr_) {
        uint32_t word = 0;
        bus_.read_bytes(watch_addr_, &word, 4);
        ++outside_reads_;
        host_.watched_store(*this, watch_addr_, word);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Traps and host calls.

void Hart::do_ecall() {
    if (mtvec_ == 0) {
        ++outside_reads_;
        if (!host_.host_call(*this))
            fail(fmt::format("unsupported host call a7={} (ecall at pc {:#010x})", x_[17], pc_));
        return;
    }
    trap(cause::kEcallM, 0);
}

void Hart::do_mret() {
    const uint32_t mpie = (mstatus_ >> 7) & 1;
    mstatus_ = (mstatus_ & ~0x8u) | (mpie << 3) | 0x80u;
    // cv32e40p_controller.sv: DECODE, FLUSH_EX, FLUSH_WB, then XRET_JUMP sets the pc; two cycles to fetch.
    jump_to(mepc_, 4);
    if (hwloop_armed_) mret_in_loops();
}

// From the trapping instruction's issue to the handler's first instruction, as CV32E40P's controller takes
// them (cv32e40p_controller.sv): DECODE, FLUSH_EX (until EX is valid), FLUSH_WB, which sets the pc, and two
// cycles to fetch: 4. An illegal instruction goes to EX with its enables cleared (deassert_we), a bubble that
// never becomes valid, so FLUSH_EX waits for the next one (cv32e40p_id_stage.sv fills an empty EX with
// alu_en): 5, unless an FP result returns in that cycle, which makes EX valid (cv32e40p_ex_stage.sv:
// ex_valid_o, apu_valid). A CSR instruction that is illegal keeps csr_access, so it takes 4 like ecall and
// ebreak.
// CV32E40P without a PMP raises no load or store access fault, so those keep the 3 of a taken jump.
unsigned Hart::trap_entry_cycles(const TrapSignal& t) const {
    switch (t.cause) {
    case cause::kEcallM:
    case cause::kBreakpoint: return 4;
    case cause::kIllegalInstruction: {
        const uint32_t raw = t.tval; // the instruction word, for an illegal instruction
        const uint32_t funct3 = (raw >> 12) & 7;
        const bool csr_access = (raw & 0x7f) == 0x73 && funct3 != 0 && funct3 != 4;
        return csr_access || apu_busy_until_ == issue_ + 1 ? 4 : 5;
    }
    default: return 3;
    }
}

void Hart::defer_apu_result(uint64_t from, uint64_t to) {
    if (to <= from || apu_port_slot_ >= kZeroSlot) return;
    uint64_t& entry = ready_[apu_port_slot_];
    // Unless a later instruction has written the register since.
    if (entry == ready_entry(from, ReadyCause::Fpu)) entry = ready_entry(to, ReadyCause::Fpu);
    uint64_t& fp_result = ready_[fp_result_slot(apu_port_slot_)];
    if (fp_result == ready_entry(from, ReadyCause::Fpu)) fp_result = ready_entry(to, ReadyCause::Fpu);
    pending_ |= uint64_t{1} << apu_port_slot_;
    if (apu_busy_until_ == from) apu_busy_until_ = to;
    if (apu_long_until_ == from) apu_long_until_ = to;
    recount_dependency_behind();
}

void Hart::apu_port_contention(const DecodedInsn& d) {
    const InsnClass c = d.cls;
    const uint64_t due = apu_port_write_;
    uint64_t write = due;
    // This instruction's EX cycles, first..last (a split load issues, as the model counts, at its second).
    const bool access = last_access_ex_end_ > issue_;
    const uint64_t first = access ? last_access_ex_first_ : issue_ + 1;
    if (write < first) {
        apu_port_write_ = 0; // written while EX was empty or held an earlier instruction
        return;
    }
    const uint64_t last = c == InsnClass::Div || c == InsnClass::MulHigh ? cycle_
                          : access                                       ? last_access_ex_end_
                                                                         : first;
    if (write > last) return;
    if (access) {
        // A split access, or one writing its base register through the ALU port, keeps the write out of EX.
        const bool keeps_out = last > first || last_post_inc_ex_end_ >= first;
        apu_port_write_ = keeps_out ? last + 1 : 0;
        if (keeps_out) defer_apu_result(due, last + 1);
        return;
    }
    // Fences are jumps and ALU instructions to the model, but write no register (cv32e40p_decoder.sv).
    const bool fence = (d.raw & 0x7f) == 0x0f;
    if (!writes_alu_port(c) || fence) {
        apu_port_write_ = 0;
        return;
    }
    // The response of the access just before arrives in this instruction's first EX cycle.
    if (write == first && last_access_ex_end_ + 1 == first) ++write;
    if (c == InsnClass::MulHigh && write > first) {
        // Past its first EX cycle a mulh keeps the write out (mulh_active) until it leaves: the write goes
        // into the next instruction's first EX cycle.
        apu_port_write_ = last + 1;
        defer_apu_result(due, last + 1);
        return;
    }
    defer_apu_result(due, write);
    if (write > last) {
        apu_port_write_ = write;
        return;
    }
    if (c != InsnClass::Jump && jalr_behind_holds_write(next_pc_)) {
        // A jalr in ID behind it holds the write back as well (apu_valid) until this instruction leaves EX:
        // the write goes into the next cycle, where EX holds that jalr (below) or, while the jalr waits for
        // this instruction's result, nothing.
        apu_port_write_ = last + 1;
        defer_apu_result(due, last + 1);
        return;
    }
    apu_port_write_ = 0;
    const bool jalr = c == InsnClass::Jump && d.fast != FastOp::Jal;
    // The result takes the port from the instruction in EX (wb_contention, the APU_WB event), which loses a
    // cycle only if it would have left EX in it.
    if (!(jalr && write == last)) {
        ++stats_.apu_writeback_cycles;
        stats_.apu_writeback_runs_at_entry[d.stat_index] += write == first;
    }
    if (write != last) return; // not ready before: no cycle lost
    if (jalr) {
        // While its target is fetched, a jalr in EX still shows as a jalr in ID, which holds the write back
        // (cv32e40p_ex_stage.sv: apu_valid): the write goes into that refetch cycle and the jalr goes on.
        defer_apu_result(due, write + 1);
        return;
    }
    add_stall(StallKind::FpuDependency, 1);
    // A jal whose target was fetched while it waited in ID has that target in ID behind it now: a jump there
    // sets the pc as it waits (jump_target_prefetched). Otherwise the target comes after it anyway.
    if (c != InsnClass::Jump ||
        jump_target_prefetched(issue_, d.dst, d.fast == FastOp::Jal && d.apu_reads_x0))
        held_in_ex();
}

// The controller compares the register an instruction writes with a load's only while the load is not split
// (cv32e40p_controller.sv: load_stall_o, !data_misaligned_i): behind a split load, an instruction that only
// writes its register waits in ID for the split first, so its load stall does not begin in a cycle after ID
// was valid, and the LD_STALL event (id_valid_q) misses it.
// Asked only right behind one (split_load_until_).
bool Hart::write_hazard_behind_split_load(const DecodedInsn& d, uint64_t need) const {
    const DecodedInsn* load = held_just_ahead(cycle_);
    if (!load || ready_[load->dst] != need) return false;
    const uint8_t slot = load->dst;
    return d.waits_as_writer && (d.dst == slot || slot == kX0Slot);
}

uint64_t Hart::dependency_behind(uint64_t from, uint64_t until) const {
    if (apu_busy_until_ <= from || until <= from) return 0; // no FP result in flight past `from`
    const DecodedInsn* next = slot_at(next_pc_);
    DecodedInsn decoded;
    if (!next->exec) {
        uint32_t raw = 0;
        if (!peek_instruction(next_pc_, raw)) return 0;
        decoded = decode(raw, timing_);
        next = &decoded;
    }
    uint64_t end = from;
    const auto wait_for = [&](uint64_t entry) {
        if (static_cast<ReadyCause>(entry & 3) == ReadyCause::Fpu)
            end = std::max(end, std::min(until, ready_cycle(entry)));
    };
    for (const uint8_t slot : next->src)
        wait_for(ready_[slot]);
    if (next->apu_reads_x0) wait_for(ready_[fp_result_slot(kX0Slot)]); // as operand_need compares it
    return end - from;
}

bool Hart::peek_instruction(uint32_t pc, uint32_t& raw) const {
    if (!bus_.find_ram(pc, 2)) return false;
    bus_.read_bytes(pc, &raw, 2);
    if ((raw & 3) != 3) return true;
    if (!bus_.find_ram(pc + 2, 2)) return false;
    bus_.read_bytes(pc, &raw, 4);
    return true;
}

bool Hart::jalr_behind_holds_write(uint32_t next_pc) const {
    uint32_t raw = 0;
    if (!peek_instruction(next_pc, raw)) return false;
    const bool jalr = (raw & 3) == 3 ? (raw & 0x7f) == 0x67
                                     // c.jr, c.jalr: funct4 100x, rs1 not zero, rs2 zero
                                     : (raw & 0xe07f) == 0x8002 && ((raw >> 7) & 0x1f) != 0;
    // Not when the jalr reads the result itself (cv32e40p_id_stage.sv: apu_read_dep_for_jalr_o).
    return jalr && decode(raw, timing_).src[0] != apu_port_slot_;
}

uint64_t Hart::port_contention_ahead(const DecodedInsn& d, uint64_t cycle, uint32_t next_pc,
                                     RunAheadEntry& entry) {
    cycle_ = cycle;
    next_pc_ = next_pc;
    const uint64_t held_before = stats_.stalls(StallKind::FpuDependency);
    apu_port_contention(d);
    if (stats_.stalls(StallKind::FpuDependency) != held_before) entry.flags |= kAheadPortHold;
    return cycle_;
}

void Hart::charge_unretired_cycles() {
    // The instruction the run ended in retires nothing: its cycles are a trap's, as they are when a handler
    // takes the trap, so that cycles == instret + stalls holds for a run that fails too.
    const uint64_t accounted = stats_.instret() + stats_.total_stalls();
    if (cycle_ > accounted)
        stats_.stall_cycles[static_cast<size_t>(StallKind::Control)] += cycle_ - accounted;
}

void Hart::take_trap(const TrapSignal& t) {
    if (t.cause == cause::kSimulatorStop || stopped()) {
        charge_unretired_cycles();
        return;
    }
    if (t.cause == cause::kSleep) {
        // Nothing of the instruction is kept: it runs again, whole, after wake().
        cycle_ = issue_;
        asleep_ = true;
        limit_ = cycle_;
        return;
    }
    if (mtvec_ == 0) {
        switch (t.cause) {
        case cause::kIllegalInstruction:
            request_stop(StopReason::Error, 3,
                         fmt::format("illegal instruction {:#010x} at pc {:#010x}", t.tval, pc_));
            break;
        case cause::kBreakpoint:
            request_stop(StopReason::Error, 3,
                         fmt::format("ebreak at pc {:#010x} with no trap handler", pc_));
            break;
        case cause::kLoadAccessFault:
        case cause::kStoreAccessFault:
            // An access that starts in a memory and runs past its end is no access outside every memory.
            request_stop(StopReason::Error, 3,
                         fmt::format("{} at address {:#010x} {} (pc {:#010x}; memory: {})",
                                     t.cause == cause::kLoadAccessFault ? "load" : "store", t.tval,
                                     bus_.find_ram(t.tval) ? "runs past the end of the memory it starts in"
                                                           : "outside every memory",
                                     pc_, bus_.describe()));
            break;
        case cause::kInstrAccessFault:
            request_stop(StopReason::Error, 3,
                         fmt::format("instruction fetch at {:#010x} outside every memory", t.tval));
            break;
        case cause::kInstrMisaligned:
            request_stop(StopReason::Error, 3,
                         fmt::format("misaligned instruction address {:#010x}", t.tval));
            break;
        default:
            request_stop(
                StopReason::Error, 3,
                fmt::format("unhandled trap cause {} at pc {:#010x} (tval {:#010x})", t.cause, pc_, t.tval));
        }
        charge_unretired_cycles();
        return;
    }
    const bool illegal_in_hwloop_state =
        t.cause == cause::kIllegalInstruction && hwloop_armed_ && decoded_in_hwloop_state(pc_);
    mepc_ = pc_;
    mcause_ = t.cause; // mtval stays 0: CV32E40P does not implement it
    const uint32_t mie = (mstatus_ >> 3) & 1;
    mstatus_ = (mstatus_ & ~0x88u) | (mie << 7) | 0x1800u;
    if (t.cause == cause::kInstrAccessFault) {
        // A fetch fault comes before its instruction issues, so issue_ is the previous one's: going back to
        // it would let a handler that itself cannot be fetched trap forever without time passing.
        cycle_ = std::max(cycle_, issue_ + 1);
        add_stall(StallKind::Control, 2);
    } else if (illegal_in_hwloop_state) [[unlikely]] {
        const uint64_t end = illegal_in_hwloop_trap_end();
        add_stall(StallKind::Control, end - cycle_);
    } else {
        // The trapping instruction retires nothing: its cycles, from its issue, are the trap's.
        cycle_ = issue_;
        add_stall(StallKind::Control, trap_entry_cycles(t));
    }
    pc_ = mtvec_ & ~3u;
    hwloop_refetch_end_ = 0; // the handler is entered with a jump; its way back is not modelled
    trap_record_ = {trap_record_.count + 1, t.cause, mepc_, pc_};
    if (trap_loop_watch_) check_trap_loop();
}

void Hart::architectural_state(std::vector<uint32_t>& out) const {
    out.assign(std::begin(x_), std::end(x_));
    out.insert(out.end(), std::begin(f_), std::end(f_));
    out.insert(out.end(), {pc_, mstatus_, mie_, mtvec_, mscratch_, mepc_, mcause_, fcsr()});
    for (const HwLoop& loop : loops_)
        out.insert(out.end(), {loop.start, loop.end, loop.count});
    // The performance counters are left out: a loop that reads none cannot tell them apart.
}

void Hart::check_trap_loop() {
    architectural_state(trap_state_);
    if (!trap_loop_watch_->trap_taken(trap_state_, outside_reads_ + bus_.device_accesses())) return;
    request_stop(StopReason::Error, 3,
                 fmt::format("livelock at cycle {}: the {} at pc {:#010x} goes to the handler at {:#010x}, "
                             "which comes back to it with every register and memory byte as before: the "
                             "program can never go on",
                             cycle_, trap_cause_name(mcause_), mepc_, pc_));
}

std::string Hart::trap_cause_name(uint32_t cause) {
    switch (cause) {
    case cause::kInstrMisaligned: return "instruction address misaligned";
    case cause::kInstrAccessFault: return "instruction access fault";
    case cause::kIllegalInstruction: return "illegal instruction";
    case cause::kBreakpoint: return "breakpoint";
    case cause::kLoadMisaligned: return "load address misaligned";
    case cause::kLoadAccessFault: return "load access fault";
    case cause::kStoreMisaligned: return "store address misaligned";
    case cause::kStoreAccessFault: return "store access fault";
    case cause::kEcallM: return "ecall from machine mode";
    default: return fmt::format("cause {}", cause);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Hardware loops.

// CV32E40P v2 checks none of its hardware-loop constraints (no exception, undefined behaviour), and its
// manual asks a simulator to stop with an error: the run ends here, trap handler or not.
void Hart::hwloop_set(unsigned l, uint32_t start, uint32_t end, uint32_t count, bool set_start, bool set_end,
                      bool set_count) {
    HwLoop& lp = loops_[l];
    if ((set_start || set_end) && !set_count && lp.count != 0)
        fail(fmt::format("hardware loop {} [{:#010x}, {:#010x}) changed its {} at pc {:#010x} while it still "
                         "counts {} (start and end must not change while the count is not 0; a trap on the "
                         "body's last instruction leaves it counting unless the handler counts the round)",
                         l, lp.start, lp.end, set_start ? "start" : "end", pc_, lp.count));
    if (set_start) lp.start = start;
    if (set_end) lp.end = end;
    if (set_count) lp.count = count;
    hwloop_round_start_[l] = issue_;
    hwloop_wrapped_[l] = false;
    if (lp.count != 0) hwloop_validate(l);
    update_hwloop_watch();
}

void Hart::hwloop_validate(unsigned l) {
    const HwLoop& lp = loops_[l];
    if (validated_[l] == std::make_pair(lp.start, lp.end)) return;
    auto bad = [&](const std::string& why) {
        fail(fmt::format("hardware loop {} [{:#010x}, {:#010x}) set up at pc {:#010x}: {}", l, lp.start,
                         lp.end, pc_, why));
    };
    if ((lp.start & 3) || (lp.end & 3)) bad("start and end must be 32-bit aligned");
    if (lp.end <= lp.start) bad("end must be after start");
    if (lp.end - lp.start < 12) bad("the body must hold at least 3 instructions");
    if (lp.end - lp.start > (1u << 20)) bad("the body is implausibly large");
    for (uint32_t a = lp.start; a < lp.end; a += 4) {
        const uint32_t parcel = fetch_parcel(a);
        if ((parcel & 3) != 3)
            bad(fmt::format("compressed instruction at {:#010x} inside the body (not allowed)", a));
        const uint32_t opcode = parcel & 0x7f;
        const uint32_t funct3 = (parcel >> 12) & 7;
        if (opcode == 0x63 || opcode == 0x6f || opcode == 0x67 || (opcode == 0x0b && funct3 >= 6))
            bad(fmt::format("branch or jump at {:#010x} inside the body (not allowed)", a));
    }
    validated_[l] = {lp.start, lp.end};
}

// After a flush (a status CSR, an mret) the controller decodes the next instruction in its DECODE state, not
// DECODE_HWLOOP (cv32e40p_controller.sv). From there, on the last two instructions of a loop body that goes
// round again, it no longer has the prefetcher fetch the loop's start after the last instruction
// (hwlp_jump_o): it jumps there from ID when the last one is decoded (PC_HWLOOP), a refetch cycle unless that
// instruction waits in ID. `next`: the instruction decoded after the flush.
void Hart::decode_after_flush(uint32_t next) {
    flush_issue_ = issue_;
    flush_next_pc_ = next;
    hwloop_refetch_end_ = 0;
    for (unsigned l = 0; l < 2; ++l) {
        const HwLoop& lp = loops_[l];
        if (lp.count > 1 && next >= lp.start && next < lp.end && next + 8 >= lp.end) {
            hwloop_refetch_end_ = lp.end;
            // The loop after the handler stops at the next instruction (hwloop_wrap) and goes on through
            // execute_one, unless a loop's end stops it there already.
            if (next != hwloop_watch_[0] && next != hwloop_watch_[1]) hwloop_watch_[l] = next;
            return;
        }
    }
}

// Whether the controller decodes the instruction at `pc` in DECODE_HWLOOP rather than DECODE
// (cv32e40p_controller.sv). It goes to DECODE_HWLOOP after decoding, in DECODE, an instruction of a loop body
// that goes round again (is_hwlp_body: count > 1), unless that is the body's second-to-last instruction; it
// goes back to DECODE at a flush, or in DECODE_HWLOOP at the second-to-last instruction of a loop's last
// round, outside every other such body. The stretch of decoding that led to `pc` began at the latest flush
// in this round of the innermost loop holding it, else at the loop's start: in DECODE_HWLOOP after a jump
// back, in the state the instruction before it left on the first round (the outer loop's, for an inner
// loop's first round; DECODE outside every loop).
bool Hart::decoded_in_hwloop_state(uint32_t pc, unsigned first_loop) const {
    const auto in_body = [this](unsigned l, uint32_t at) {
        return loops_[l].count != 0 && at >= loops_[l].start && at + 4 <= loops_[l].end;
    };
    const auto goes_round_again = [this](uint32_t at) {
        for (const HwLoop& lp : loops_)
            if (lp.count > 1 && at >= lp.start && at + 4 <= lp.end) return true;
        return false;
    };
    for (unsigned l = first_loop; l < 2; ++l) {
        if (!in_body(l, pc)) continue;
        const HwLoop& lp = loops_[l];
        uint32_t from = lp.start;
        bool hwloop_state;
        if (flush_issue_ >= hwloop_round_start_[l] && flush_next_pc_ >= lp.start && flush_next_pc_ <= pc) {
            from = flush_next_pc_;
            hwloop_state = false;
        } else if (hwloop_wrapped_[l]) {
            hwloop_state = true;
        } else {
            hwloop_state = l == 0 && decoded_in_hwloop_state(lp.start, 1);
        }
        for (uint32_t at = from; at < pc; at += 4) {
            if (!hwloop_state) {
                hwloop_state = goes_round_again(at) && at + 8 != loops_[0].end && at + 8 != loops_[1].end;
                continue;
            }
            for (unsigned y : {1u, 0u}) // loop 0's test comes last and decides
                if (at + 8 == loops_[y].end && loops_[y].count <= 1) hwloop_state = goes_round_again(at);
        }
        return hwloop_state;
    }
    return false;
}

// The cycle the handler's first instruction issues after an illegal instruction decoded in DECODE_HWLOOP.
// There the controller does not wait for the instruction to be able to leave ID (cv32e40p_controller.sv): it
// halts ID at once and goes to FLUSH_EX, which waits for EX to be valid, then FLUSH_WB, DECODE and the
// handler: 4 cycles from the illegal instruction's first cycle in ID, not from the end of its waits there
// (its operands, a CSR access behind an FP operation). EX is valid in the cycle the instruction ahead of it
// ends there: the cycle the illegal one could issue in behind a div or a mulh, the cycle before that behind
// an FP operation the FPU or the div/sqrt unit held (the result that frees the unit makes EX valid); 3 cycles
// follow. But the handler's first instruction enters ID only once the stage lets the illegal one go: not
// before the cycle after its waits, unless it waited for an FP result in flight only. The dispatcher drops
// that wait as soon as the controller stops decoding (cv32e40p_apu_disp.sv: read_dep_o and write_dep_o are
// gated by is_decoding_i), so it holds nothing once the flush begins.
uint64_t Hart::illegal_in_hwloop_trap_end() {
    const bool waited_in_id = id_wait_end_ == issue_;
    const uint64_t first_in_id = waited_in_id ? id_wait_start_ : issue_;
    uint64_t end = first_in_id + 4;
    bool first_cycle_counted = false; // as APU_DEP, behind the instruction held just ahead
    if (const DecodedInsn* held = held_just_ahead(first_in_id)) {
        // The result that frees a held FP operation makes EX valid, unless it came in the illegal
        // instruction's first cycle in ID, before FLUSH_EX: then the operation itself does, in the cycle it
        // starts when single-cycle, else in the next, when the bubble behind it fills EX (the illegal
        // instruction never enters EX here).
        const bool fp = held->cls == InsnClass::Fp || held->cls == InsnClass::FpDivSqrt;
        const bool freed_before_flush = fp && held_in_ex_until_ - held_in_ex_from_ == 2; // 1 + 1
        const bool single_cycle = held->cls == InsnClass::Fp && held->latency == 1;
        end = freed_before_flush ? first_in_id + 3 + (single_cycle ? 0 : 1) : first_in_id - (fp ? 1 : 0) + 3;
        // Its wait in ID for an FP result in flight meanwhile is APU_DEP in its first cycle there only: the
        // flush stops decoding (cv32e40p_apu_disp.sv: read_dep_o), and a type conflict holding the one ahead
        // is APU_TYPE again from then on.
        if (dependency_behind_ > 1) {
            const uint64_t after_first = dependency_behind_ - 1;
            stats_.apu_dependency_cycles -= after_first;
            stats_.apu_type_cycles += std::min(after_first, dependency_behind_in_type_);
        }
        first_cycle_counted = dependency_behind_ != 0;
    }
    const bool dependency_dropped = waited_in_id && id_wait_apu_dep_end_ == issue_;
    end = std::max(end, (dependency_dropped ? first_in_id : issue_) + 1);
    if (dependency_dropped) {
        // APU_DEP counts the one cycle the controller decoded it in, once, and not when the result it waits
        // for is that of the FP operation held in EX just ahead: the dispatcher does not see that one's
        // request as a dependency while it holds it (cv32e40p_apu_disp.sv: read_dep_req needs valid_req; one
        // it refuses counts as contention instead).
        const DecodedInsn* held = held_just_ahead(first_in_id);
        bool on_held = false;
        if (held && (held->cls == InsnClass::Fp || held->cls == InsnClass::FpDivSqrt)) {
            // A div/sqrt result is written outside the scoreboard's dst (fpu::divsqrt_end).
            const uint8_t result = held->cls == InsnClass::FpDivSqrt ? isa::fslot(held->rd) : held->dst;
            const DecodedInsn& illegal = *slot_at(pc_);
            on_held = result == kX0Slot && illegal.apu_reads_x0; // x0 is read from kZeroSlot
            for (const uint8_t src : illegal.src)
                on_held |= src == result || (result < kZeroSlot && src == fp_result_slot(result));
        }
        stats_.apu_dependency_cycles -= issue_ - first_in_id - (on_held || first_cycle_counted ? 0 : 1);
    }
    if (waited_in_id) // the waits, which now overlap the trap
        stats_.stall_cycles[static_cast<size_t>(id_wait_kind_)] -= issue_ - first_in_id;
    cycle_ = first_in_id;
    return end;
}

// A status CSR as the last instruction of a body jumps back with its own flush.
void Hart::status_flush_in_loop() {
    uint32_t next = pc_ + 4; // no compressed instruction in a loop body
    for (const HwLoop& lp : loops_)
        if (lp.count > 1 && next == lp.end) next = lp.start;
    decode_after_flush(next);
}

// An mret sets the pc itself (XRET_JUMP): one to a loop's end, after a trap on the body's last instruction,
// leaves the loop as it is, without a jump back, since the controller counts a loop round when its last
// instruction is decoded (hwlp_dec_cnt_o), and a trapping one is not.
void Hart::mret_in_loops() {
    mret_to_loop_end_ = next_pc_ == hwloop_watch_[0] || next_pc_ == hwloop_watch_[1];
    decode_after_flush(next_pc_);
}

void Hart::update_hwloop_watch() {
    for (unsigned l = 0; l < 2; ++l)
        hwloop_watch_[l] = loops_[l].count ? loops_[l].end : 1u;
    hwloop_armed_ = loops_[0].count != 0 || loops_[1].count != 0;
}

void Hart::hwloop_wrap() {
    // Loop 0 is the inner loop and wins when both end on the same instruction.
    const unsigned l = pc_ == hwloop_watch_[0] ? 0 : 1;
    HwLoop& lp = loops_[l];
    if (pc_ != lp.end) { // decode_after_flush's stop on the way: the loop's own end again
        hwloop_watch_[l] = lp.end;
        return;
    }
    if (mret_to_loop_end_) {
        mret_to_loop_end_ = false;
        return;
    }
    const bool refetch = lp.end == hwloop_refetch_end_;
    if (refetch) hwloop_refetch_end_ = 0;
    if (--lp.count != 0) {
        // A jump from ID: the pc is set in the last instruction's first cycle there, so a wait there hides
        // the refetch. One held in EX itself (a split access, a mulh, a div) has overwritten the hold it
        // waited behind: note_first_hold kept it.
        const bool waited_in_id = id_wait_end_ == issue_ || held_just_ahead(issue_) ||
                                  (held_in_ex_until_ > issue_ && held_one_waited_in_id());
        if (refetch && !waited_in_id) add_stall(StallKind::Control, 1);
        pc_ = lp.start;
        hwloop_round_start_[l] = issue_;
        hwloop_wrapped_[l] = true;
    } else {
        hwloop_watch_[l] = 1;
        hwloop_armed_ = loops_[0].count != 0 || loops_[1].count != 0;
    }
}

} // namespace pulpsim
