#include "dma/dma_engine.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

namespace pulpsim {

DmaEngine::DmaEngine(const DmaConfig& config, TcdmInterconnect& tcdm, AddressMap& memory)
    : config_(config), tcdm_(tcdm) {
    const unsigned bw = config_.bandwidth_bits;
    if (bw < 8 || bw > 256 || bw % 8 != 0)
        throw std::invalid_argument(
            fmt::format("DMA bandwidth {} bits/cycle: must be a multiple of 8 in 8..256", bw));
    if (config_.queue_depth == 0) throw std::invalid_argument("DMA queue depth 0: must be at least 1");
    if (config_.cores == 0) throw std::invalid_argument("DMA with 0 cores: must serve at least one");
    if (config_.tcdm_port_count == 0 ||
        config_.first_tcdm_port + config_.tcdm_port_count > tcdm.config().ports)
        throw std::invalid_argument(fmt::format(
            "DMA TCDM ports [{}, {}) outside the interconnect's {} ports", config_.first_tcdm_port,
            config_.first_tcdm_port + config_.tcdm_port_count, tcdm.config().ports));
    l2_ = memory.find_ram(config_.l2_base, config_.l2_size);
    if (!l2_)
        throw std::invalid_argument(fmt::format("DMA L2 range [{:#x}, +{:#x}) is not one RAM region",
                                                config_.l2_base, config_.l2_size));
    tcdm_ram_ = memory.find_ram(config_.tcdm_base, config_.tcdm_size);
    if (!tcdm_ram_ || !tcdm.contains(config_.tcdm_base, config_.tcdm_size))
        throw std::invalid_argument(fmt::format("DMA TCDM range [{:#x}, +{:#x}) is not one RAM region behind "
                                                "the interconnect",
                                                config_.tcdm_base, config_.tcdm_size));
    outstanding_.resize(config_.cores);
}

void DmaEngine::validate(unsigned core, const DmaTransfer& t) const {
    if (core >= config_.cores)
        throw std::invalid_argument(
            fmt::format("DMA command from core {}: only {} cores", core, config_.cores));
    if (t.bytes == 0) throw std::invalid_argument("DMA transfer of 0 bytes");
    if (t.rows == 0) throw std::invalid_argument("DMA 2-D transfer with 0 rows");
    auto check_side = [&](const char* memory, uint32_t addr, uint32_t stride, uint32_t base, uint32_t size) {
        if (stride != 0 && stride < t.bytes)
            throw std::invalid_argument(
                fmt::format("DMA {} stride {} is shorter than the row of {} bytes", memory, stride, t.bytes));
        const uint64_t step = stride ? stride : t.bytes;
        const uint64_t end = uint64_t{addr} + (uint64_t{t.rows} - 1) * step + t.bytes;
        if (addr < base || end > uint64_t{base} + size)
            throw std::invalid_argument(
                fmt::format("DMA {} range [{:#x}, {:#x}) lies outside {} [{:#x}, {:#x})", memory, addr, end,
                            memory, base, uint64_t{base} + size));
    };
    check_side("L2", t.l2_addr, t.l2_stride, config_.l2_base, config_.l2_size);
    check_side("TCDM", t.tcdm_addr, t.tcdm_stride, config_.tcdm_base, config_.tcdm_size);
}

bool DmaEngine::can_enqueue(unsigned core, uint64_t cycle) {
    if (core >= config_.cores)
        throw std::invalid_argument(
            fmt::format("DMA command from core {}: only {} cores", core, config_.cores));
    std::erase_if(outstanding_[core], [&](uint32_t id) { return commands_[id].completion <= cycle; });
    return outstanding_[core].size() < config_.queue_depth;
}

std::optional<uint32_t> DmaEngine::enqueue(unsigned core, const DmaTransfer& transfer, uint64_t cycle) {
    validate(core, transfer);
    if (!can_enqueue(core, cycle)) return std::nullopt;
    const auto id = static_cast<uint32_t>(commands_.size());
    commands_.push_back(Command{.core = core, .transfer = transfer, .enqueued = cycle});
    outstanding_[core].push_back(id);
    Channel& ch = channels_[static_cast<unsigned>(transfer.direction)];
    ch.pending.push_back(id);
    if (!ch.started) start_front(ch);
    return id;
}

void DmaEngine::start_front(Channel& ch) {
    Command& cmd = commands_[ch.pending.front()];
    const uint64_t start = std::max(cmd.enqueued, ch.free_at);
    cmd.started = start;
    ch.ready = std::max(start + config_.l2_latency, now_);
    ch.moved = 0;
    ch.started = true;
}

uint64_t DmaEngine::channel_next(const Channel& ch) const {
    return ch.started ? ch.ready : kNever;
}

void DmaEngine::move(Channel& ch, uint64_t cycle) {
    const uint32_t id = ch.pending.front();
    Command& cmd = commands_[id];
    const DmaTransfer& t = cmd.transfer;
    const bool in = t.direction == DmaDirection::in;
    const uint64_t total = uint64_t{t.bytes} * t.rows;
    const uint64_t l2_step = t.l2_stride ? t.l2_stride : t.bytes;
    const uint64_t tcdm_step = t.tcdm_stride ? t.tcdm_stride : t.bytes;
    uint64_t budget = config_.bandwidth_bits / 8;
    uint64_t latest_grant = cycle;
    while (budget > 0 && ch.moved < total) {
        const uint64_t row = ch.moved / t.bytes;
        const uint64_t offset = ch.moved % t.bytes;
        const auto l2_addr = static_cast<uint32_t>(t.l2_addr + row * l2_step + offset);
        const auto tcdm_addr = static_cast<uint32_t>(t.tcdm_addr + row * tcdm_step + offset);
        // A piece never crosses a TCDM word: each word is one bank access.
        const uint64_t len = std::min({budget, t.bytes - offset, uint64_t{4 - (tcdm_addr & 3u)}});
        const unsigned port = config_.first_tcdm_port + next_port_;
        next_port_ = (next_port_ + 1) % config_.tcdm_port_count;
        latest_grant = std::max(latest_grant, tcdm_.request(port, tcdm_addr, cycle, in));
        uint8_t* l2 = l2_->data() + (l2_addr - l2_->base());
        uint8_t* l1 = tcdm_ram_->data() + (tcdm_addr - tcdm_ram_->base());
        if (in)
            std::memcpy(l1, l2, len);
        else
            std::memcpy(l2, l1, len);
        (in ? counters_.bytes_in : counters_.bytes_out) += len;
        ch.moved += len;
        budget -= len;
    }
    counters_.bank_stall_cycles += latest_grant - cycle;
    ch.ready = latest_grant + 1;
    if (ch.moved < total) return;

    cmd.completion = latest_grant + 1;
    const uint64_t latency = cmd.completion - cmd.enqueued;
    ++counters_.transfers_completed;
    counters_.latency_sum += latency;
    counters_.latency_max = std::max(counters_.latency_max, latency);
    untaken_.push_back(id);
    if (observer_)
        observer_->transfer_completed({id, cmd.core, t, cmd.enqueued, cmd.started, cmd.completion});
    ch.free_at = cmd.completion;
    ch.pending.pop_front();
    ch.started = false;
    if (!ch.pending.empty()) start_front(ch);
}

void DmaEngine::advance(uint64_t until) {
    Channel& in = channels_[0];
    Channel& out = channels_[1];
    for (;;) {
        const uint64_t cycle = std::min(channel_next(in), channel_next(out));
        if (cycle >= until) break;
        const bool in_ready = channel_next(in) == cycle;
        const bool out_ready = channel_next(out) == cycle;
        if (config_.full_duplex) {
            if (in_ready) move(in, cycle);
            if (out_ready) move(out, cycle);
        } else {
            // One budget per cycle: alternate when both could move; the other waits a cycle.
            unsigned served = in_ready ? 0 : 1;
            if (in_ready && out_ready) served = 1 - last_served_;
            last_served_ = served;
            Channel& waiting = channels_[1 - served];
            if (waiting.started && waiting.ready == cycle) waiting.ready = cycle + 1;
            move(channels_[served], cycle);
        }
        ++counters_.active_cycles;
    }
    now_ = std::max(now_, until);
}

uint64_t DmaEngine::next_event() const {
    uint64_t next = std::min(channel_next(channels_[0]), channel_next(channels_[1]));
    for (uint32_t id : untaken_)
        next = std::min(next, commands_[id].completion);
    return next;
}

bool DmaEngine::done(uint32_t id) const {
    return completion_cycle(id) <= now_;
}

uint64_t DmaEngine::completion_cycle(uint32_t id) const {
    if (id >= commands_.size()) throw std::out_of_range(fmt::format("unknown DMA transfer id {}", id));
    return commands_[id].completion;
}

std::vector<DmaCompletion> DmaEngine::take_completions(uint64_t cycle) {
    std::vector<DmaCompletion> result;
    std::erase_if(untaken_, [&](uint32_t id) {
        const Command& c = commands_[id];
        if (c.completion > cycle) return false;
        result.push_back(DmaCompletion{.id = id, .core = c.core, .cycle = c.completion});
        return true;
    });
    std::ranges::sort(result, {}, &DmaCompletion::cycle);
    return result;
}

DmaActivity DmaEngine::activity(uint64_t cycle) const {
    DmaActivity a;
    a.bytes_in = counters_.bytes_in;
    a.bytes_out = counters_.bytes_out;
    // The union of the transfers' [start, completion) before `cycle`. Each channel's intervals are
    // disjoint and in order; the two channels' overlap.
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    for (const Command& c : commands_) {
        const uint64_t end = std::min(c.completion, cycle);
        if (c.started < end) spans.emplace_back(c.started, end);
    }
    std::ranges::sort(spans);
    uint64_t covered_to = 0;
    for (const auto& [from, to] : spans) {
        const uint64_t lo = std::max(from, covered_to);
        if (to > lo) a.busy_cycles += to - lo;
        covered_to = std::max(covered_to, to);
    }
    return a;
}

} // namespace pulpsim
