// The hart's instruction loop, inline: hart.cpp runs it, and the cluster's lockstep engine inlines it so
// that running one core for one cycle costs no call.
#pragma once

#include <algorithm>
#include <iterator>
#include <type_traits>

#include "core/hart.hpp"

namespace pulpsim {

// The hot path: one instruction. Inlined into run(), where single-core simulation spends its time.
// kFetchModel: an instruction cache is attached (the check costs about 5% when there is none).
// kObserved: RetireObservers are told of the instruction (the views); false compiles it away.
// kChain: return the next instruction's slot; otherwise nullptr (a loop that stops after about one
// instruction, as lockstep's, looks it up itself when it goes on).
template <bool kFetchModel, bool kObserved, bool kChain>
[[gnu::always_inline]] inline const DecodedInsn* Hart::execute_one(const DecodedInsn* dp, ExecFn early) {
    const uint32_t pc = pc_;
    uint64_t cycle = cycle_; // the loop has just compared it: only the slow paths below change it
    if constexpr (kFetchModel && kChain) {
        if ((pc & fetch_line_mask_) != current_line_) [[unlikely]] {
            fetch_new_line();
            cycle = cycle_;
        }
    } else if constexpr (kFetchModel) {
        // Whether this instruction starts a line is a coin toss for the host's branch predictor between
        // other cores' turns: the L0 is probed and a hit counted without a branch on it.
        const uint32_t line = pc & fetch_line_mask_;
        const uint64_t crossed = line != current_line_;
        current_line_ = line;
        const uint64_t hit = fetch_lane_.hits(pc);
        if ((crossed & ~hit) != 0) [[unlikely]] {
            fetch_line_from_port();
            cycle = cycle_;
        } else {
            *fetch_lane_.fetches += crossed;
        }
    }
    if (!dp->exec) [[unlikely]]
        dp = &resolve();
    const DecodedInsn& d = *dp;
    if constexpr (kChain) {
        if (d.src_mask & pending_) [[unlikely]] {
            check_operands(d);
            cycle = cycle_;
        }
    } else {
        // Between other cores' turns whether a source is still pending is a coin toss for the host's branch
        // predictor; the sources' ready cycles are three loads away and rarely stall.
        check_operands_inline(d);
        cycle = cycle_;
    }
    issue_ = cycle;
    next_pc_ = pc + d.len;
    cycle_ = cycle + d.cost;
    pending_ |= d.pend_mask;
    // Observers get a copy: fence.i and self-modifying stores clear the decode-cache slot d refers to.
    [[maybe_unused]] std::conditional_t<kObserved, DecodedInsn, char> seen{};
    if constexpr (kObserved) {
        seen = d;
        executing_stat_ = d.stat_index;
    }
    if constexpr (!kChain) {
        // The empty asm hides that early equals d.exec in the call below, so that the compiler calls through
        // early, the address that was at hand first.
        asm("" : "+r"(early));
        if (early == d.exec) [[likely]]
            early(*this, d);
        else
            d.exec(*this, d);
    } else {
        d.exec(*this, d);
    }
    if (apu_port_write_) [[unlikely]]
        apu_port_contention(d);
    ready_[d.dst] = (issue_ << 2) + d.ready_code;
    x_[0] = 0;
    const uint32_t next = next_pc_;
    pc_ = next;
    ++stats_.by_class_and_size[d.stat_index];
    // Looked up again: the handler may have switched the decode cache (FS, share_decode_caches).
    if constexpr (kChain)
        dp = slot_at(next);
    else
        dp = nullptr;
    if (hwloop_armed_) [[unlikely]]
        if (next == hwloop_watch_[0] || next == hwloop_watch_[1]) {
            hwloop_wrap();
            if constexpr (kChain) dp = slot_at(pc_);
        }
    if constexpr (kObserved) {
        retired_stat_ = seen.stat_index;
        for (RetireObserver* observer : observers_)
            observer->retired(*this, pc, seen);
    }
    return dp;
}

// Unobserved: run_inline(). Observed: execute_one's loop, which hands each instruction to the observers.
template <bool kFetchModel, bool kObserved> [[gnu::always_inline]] inline void Hart::run_loop() {
    if constexpr (!kObserved) {
        run_inline<kFetchModel>();
    } else {
        const DecodedInsn* d = slot_at(pc_);
        while (cycle_ < limit_)
            d = execute_one<kFetchModel, kObserved, true>(d);
    }
}

// execute_one's loop with the common RV32I and FP load/store instructions (DecodedInsn::fast) run inline, the
// rest through their handlers. pc, cycle and limit live in locals: pc_ and cycle_ get them before anything
// out of line runs, which may read them or throw, and limit_ is read again after it. The timing is
// execute_one's, step for step.
template <bool kFetchModel> [[gnu::always_inline]] inline void Hart::run_inline() {
    while (cycle_ < limit_)
        if (apu_port_write_ || hwloop_refetch_end_) [[unlikely]]
            run_through_handlers<kFetchModel>();
        else if (hwloop_armed_)
            run_inline_part<kFetchModel, true>(slot_at(pc_));
        else
            run_inline_part<kFetchModel, false>(slot_at(pc_));
}

// While an FP result is due through the register file's write port (apu_port_write_), every instruction goes
// through its handler and apu_port_contention, as execute_one runs it. So it does while a loop's jump back
// from ID is due (hwloop_refetch_end_): execute_one knows whether the loop's last instruction waited in ID.
template <bool kFetchModel> [[gnu::noinline]] void Hart::run_through_handlers() {
    const DecodedInsn* d = slot_at(pc_);
    while ((apu_port_write_ || hwloop_refetch_end_) && cycle_ < limit_)
        d = execute_one<kFetchModel, false, true>(d);
}

// kLoops: a hardware loop is armed, and the pc after each instruction is compared with the loop ends. Returns
// when that changes: without a loop armed only handlers can arm one, so the inline instructions skip the
// check.
// kAhead: run ahead (run_ahead_if_private): only RV32I arithmetic, branches, jal and the FP operations
// fpu_op_runs_ahead allows, journaled in ahead_; returns false before the first instruction that is none of
// those, needs a shared cache level or finds the journal full (true: the loop state changed or the limit was
// reached).
// `dp` is the slot of pc_ (a lockstep turn has just looked it up).
// Out of line (GCC inlines no function with a computed goto): each call runs many instructions.
template <bool kFetchModel, bool kLoops, bool kAhead> bool Hart::run_inline_part(const DecodedInsn* dp) {
    uint32_t pc = pc_;
    uint64_t cycle = cycle_;
    uint64_t limit = limit_;
    [[maybe_unused]] RunAheadEntry* entry = nullptr;
    bool went_on = true;
    auto sync = [&] {
        pc_ = pc;
        cycle_ = cycle;
    };
    auto step_to = [](const DecodedInsn* slot, unsigned len) {
        static_assert(sizeof(DecodedInsn) % 2 == 0);
        return reinterpret_cast<const DecodedInsn*>(reinterpret_cast<const char*>(slot) +
                                                    len * (sizeof(DecodedInsn) / 2));
    };
    while (cycle < limit) {
        if constexpr (kAhead) {
            // Decided before the fetch and the operand wait, which would move the cycle the instruction
            // takes its turn in.
            const DecodedInsn& next = *dp;
            unsigned straddle;
            if (ahead_len_ == kRunAheadCapacity ||
                (runs_ahead(next.fast) ? next.fast >= FastOp::Beq &&
                                             !straddle_cost(pc + static_cast<uint32_t>(next.imm), straddle)
                                       : next.fast != FastOp::FpuOp || !fpu_op_runs_ahead(next))) {
                went_on = false;
                break;
            }
            entry = &ahead_[ahead_len_];
            *entry = RunAheadEntry{cycle, pc, 0, next.stat_index, 0, 0, 0};
            if (kFetchModel && (pc & fetch_line_mask_) != current_line_) {
                if (!fetch_line_privately(pc)) {
                    went_on = false;
                    break;
                }
                current_line_ = pc & fetch_line_mask_;
                entry->flags = kAheadFetched;
            }
            ++ahead_len_;
        } else if (kFetchModel && (pc & fetch_line_mask_) != current_line_) [[unlikely]] {
            sync();
            fetch_new_line();
            cycle = cycle_;
        }
    decoded:
        const DecodedInsn& d = *dp;
        if (d.src_mask & pending_) [[unlikely]] {
            cycle_ = cycle;
            if constexpr (kAhead) entry->operand_cause = operand_need(d) & 3;
            check_operands(d);
            if constexpr (kAhead) entry->operand_wait = static_cast<uint32_t>(cycle_ - cycle);
            cycle = cycle_;
        }
        const uint32_t rs1 = x_[d.rs1];
        const auto imm = static_cast<uint32_t>(d.imm);
        uint32_t target;
        unsigned penalty;
        // Where each FastOp goes: a computed goto, which unlike a switch needs no range check.
#define PULPSIM_FAST_OP_LABEL(op) &&op_##op,
        static const void* const kOps[] = {PULPSIM_FAST_OPS(PULPSIM_FAST_OP_LABEL)};
#undef PULPSIM_FAST_OP_LABEL
        static_assert(std::size(kOps) == static_cast<size_t>(FastOp::Count));
        goto* kOps[static_cast<uint8_t>(d.fast)];
        // clang-format off
        {
#define PULPSIM_ALU_REG(op)                                                                                  \
    op_##op: x_[d.rd] = int_op(FastOp::op, rs1, x_[d.rs2]); goto in_line;
#define PULPSIM_ALU_IMM(op)                                                                                  \
    op_##op: x_[d.rd] = int_op(FastOp::op, rs1, imm); goto in_line;
            PULPSIM_ALU_REG(Add)
            PULPSIM_ALU_REG(Sub)
            PULPSIM_ALU_REG(Sll)
            PULPSIM_ALU_REG(Slt)
            PULPSIM_ALU_REG(Sltu)
            PULPSIM_ALU_REG(Xor)
            PULPSIM_ALU_REG(Srl)
            PULPSIM_ALU_REG(Sra)
            PULPSIM_ALU_REG(Or)
            PULPSIM_ALU_REG(And)
            PULPSIM_ALU_IMM(Addi)
            PULPSIM_ALU_IMM(Slti)
            PULPSIM_ALU_IMM(Sltiu)
            PULPSIM_ALU_IMM(Xori)
            PULPSIM_ALU_IMM(Ori)
            PULPSIM_ALU_IMM(Andi)
            PULPSIM_ALU_IMM(Slli)
            PULPSIM_ALU_IMM(Srli)
            PULPSIM_ALU_IMM(Srai)
#undef PULPSIM_ALU_REG
#undef PULPSIM_ALU_IMM
        op_Lui: x_[d.rd] = imm; goto in_line;
        op_Auipc: x_[d.rd] = pc + imm; goto in_line;
#define PULPSIM_BRANCH(op)                                                                                   \
    op_##op:                                                                                                 \
        if (!branch_taken(FastOp::op, rs1, x_[d.rs2])) goto in_line;                                         \
        target = pc + imm;                                                                                   \
        if (!straddle_cost(target, penalty)) goto full;                                                      \
        ++stats_.branches_taken;                                                                             \
        if constexpr (kAhead) entry->flags |= kAheadBranchTaken;                                             \
        penalty = branch_refetch(pc + d.len, cycle, penalty);                                                \
        goto jump;
            PULPSIM_BRANCH(Beq)
            PULPSIM_BRANCH(Bne)
            PULPSIM_BRANCH(Blt)
            PULPSIM_BRANCH(Bge)
            PULPSIM_BRANCH(Bltu)
            PULPSIM_BRANCH(Bgeu)
#undef PULPSIM_BRANCH
        op_Jal:
            target = pc + imm;
            if (!straddle_cost(target, penalty)) goto full;
            x_[d.rd] = pc + d.len;
            penalty += !jump_target_prefetched(cycle, d.dst, d.apu_reads_x0);
            goto jump;
#define PULPSIM_LOAD(op, T)                                                                                  \
    op_##op: {                                                                                               \
        T v;                                                                                                 \
        if (!plain_load(rs1 + imm, v)) goto full;                                                            \
        x_[d.rd] = static_cast<uint32_t>(                                                                    \
            static_cast<std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>>(v));                     \
        pending_ |= d.pend_mask;                                                                             \
        goto in_line;                                                                                        \
    }
            PULPSIM_LOAD(Lb, int8_t)
            PULPSIM_LOAD(Lh, int16_t)
            PULPSIM_LOAD(Lw, uint32_t)
            PULPSIM_LOAD(Lbu, uint8_t)
            PULPSIM_LOAD(Lhu, uint16_t)
#undef PULPSIM_LOAD
#define PULPSIM_STORE(op, T)                                                                                 \
    op_##op:                                                                                                 \
        if (!plain_store(rs1 + imm, static_cast<T>(x_[d.rs2]))) goto full;                                   \
        goto in_line;
            PULPSIM_STORE(Sb, uint8_t)
            PULPSIM_STORE(Sh, uint16_t)
            PULPSIM_STORE(Sw, uint32_t)
#undef PULPSIM_STORE
        op_Flw:
            if (!plain_load(rs1 + imm, f_[d.rd])) goto full;
            pending_ |= d.pend_mask;
            goto in_line;
        op_Fsw:
            if (!plain_store(rs1 + imm, f_[d.rs2])) goto full;
            goto in_line;
        op_None:
        op_FpuOp:
            goto full;
        }
        // clang-format on
    in_line:
        // The next instruction in line.
        ready_[d.dst] = (cycle << 2) + d.ready_code;
        x_[0] = 0;
        issue_ = cycle;
        cycle += 1; // decode() keeps instructions of other costs out of the inline path
        if constexpr (kAhead)
            if (apu_port_write_) [[unlikely]]
                cycle = port_contention_ahead(d, cycle, pc + d.len, *entry);
        ++stats_.by_class_and_size[d.stat_index];
        // A branch on the length, not arithmetic: the next slot then does not wait for this one's load.
        if (d.len == 4) {
            pc += 4;
            dp = step_to(dp, 4);
        } else {
            pc += 2;
            dp = step_to(dp, 2);
        }
        if constexpr (kLoops) goto loops;
        continue;
    jump: // taken, with `penalty` refetch cycles
        ready_[d.dst] = (cycle << 2) + d.ready_code;
        x_[0] = 0;
        issue_ = cycle;
        cycle += 1 + penalty;
        stats_.stall_cycles[static_cast<size_t>(StallKind::Control)] += penalty;
        if constexpr (kAhead)
            if (apu_port_write_) [[unlikely]]
                cycle = port_contention_ahead(d, cycle, target, *entry);
        if constexpr (kAhead) entry->control = static_cast<uint8_t>(penalty);
        ++stats_.by_class_and_size[d.stat_index];
        pc = target;
        dp = slot_at(pc);
        if constexpr (kLoops) goto loops;
        continue;
    full: {
        // What execute_one does, from the locals. Running ahead, only an FP operation comes here (checked
        // before it started), and its handler cannot trap.
        if (!kAhead && !d.exec) [[unlikely]] {
            sync();
            dp = &resolve();
            goto decoded;
        }
        const unsigned len = d.len;
        pc_ = pc;
        issue_ = cycle;
        next_pc_ = pc + len;
        cycle_ = cycle + d.cost;
        pending_ |= d.pend_mask;
        [[maybe_unused]] uint64_t waited_before = 0;
        if constexpr (kAhead) waited_before = stats_.stalls(StallKind::FpuDependency);
        const DecodeCache* const cache = decode_;
        d.exec(*this, d);
        if (apu_port_write_) [[unlikely]]
            apu_port_contention(d);
        if constexpr (kAhead) {
            entry->fpu_wait = static_cast<uint32_t>(stats_.stalls(StallKind::FpuDependency) - waited_before);
            entry->flags |= kAheadFpu;
        }
        ready_[d.dst] = (issue_ << 2) + d.ready_code;
        x_[0] = 0;
        const uint32_t next = next_pc_;
        cycle = cycle_;
        limit = limit_;
        ++stats_.by_class_and_size[d.stat_index];
        // The slot in line, unless the handler jumped or switched the decode cache: a branch, so that the
        // next instruction does not wait for the handler's write of next_pc_.
        if (next == pc + len && decode_ == cache) [[likely]]
            dp = len == 4 ? step_to(dp, 4) : step_to(dp, 2);
        else
            dp = slot_at(next);
        pc = next;
        if constexpr (!kAhead)
            if (apu_port_write_) [[unlikely]] {
                // An FP result is now due through the register file's write port: run_inline goes on through
                // the handlers, which check every instruction against it, until it is written.
                if (hwloop_armed_ && (pc == hwloop_watch_[0] || pc == hwloop_watch_[1])) {
                    sync();
                    hwloop_wrap();
                    pc = pc_;
                }
                break;
            }
        goto loops;
    }
    loops:
        if (hwloop_armed_) {
            if (pc == hwloop_watch_[0] || pc == hwloop_watch_[1]) {
                sync();
                hwloop_wrap();
                pc = pc_;
                dp = slot_at(pc);
                if (hwloop_refetch_end_) [[unlikely]]
                    break; // on through execute_one (decode_after_flush)
            }
            if (!kLoops) break;
        } else if (kLoops) {
            break;
        }
    }
    sync();
    return went_on;
}

// The slot of the pc after the turn is looked up once, to decide on the run ahead and to start it, and kept
// for the next turn.
// Which handler a turn calls is close to a coin toss for the host's branch predictor (the cores' instructions
// interleave). The engine reads the handler's address a turn ahead (next_turn_handler), and the turn calls
// through it: a mispredicted call then resolves as soon as it issues, not after the chain of loads that finds
// the slot (the hart, its slot, the handler): about 8% of the run time of the tiled PointWise step on VEGA.
[[gnu::always_inline]] inline bool Hart::take_turn(uint64_t turn_end, uint64_t ahead_limit, ExecFn handler) {
    if (turn_detour_) [[unlikely]] {
        run(turn_end);
        // The result to x0 may still be deferred while it waits for the register file's write port.
        turn_detour_ = observed_ || ready_cycle(ready_[fp_result_slot(kX0Slot)]) > cycle_ ||
                       (apu_port_write_ != 0 && apu_port_slot_ == kX0Slot);
        return !stopped() && !asleep_; // a detoured core does not run ahead
    }
    limit_ = turn_end;
    const DecodedInsn* dp = pc_ == turn_slot_pc_ ? turn_slot_ : slot_at(pc_);
    // The engine gives a core its turn in the cycle it issues in (or, woken for an earlier one, later).
    do {
        try {
            if (ifetch_)
                execute_one<true, false, false>(dp, handler);
            else
                execute_one<false, false, false>(dp, handler);
            handler = nullptr;
        } catch (const TrapSignal& t) {
            take_trap(t);
        }
        dp = slot_at(pc_); // after the handler, which may have switched decode_
    } while (cycle_ < limit_);
    if (stopped() || asleep_) [[unlikely]]
        return false;
    turn_slot_pc_ = pc_;
    turn_slot_ = dp;
    run_ahead_if_private(ahead_limit, dp);
    return true;
}

} // namespace pulpsim
