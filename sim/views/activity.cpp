#include "views/activity.hpp"

#include <algorithm>

#include "cluster/bare_system.hpp"
#include "cluster/cluster_system.hpp"
#include "views/sort_keeping_order.hpp"

namespace pulpsim {
namespace {

constexpr uint64_t kFirstCompaction = 1u << 20; // records

// Whether [from, to) meets one of `spans` (sorted, disjoint).
bool meets(const std::vector<CycleWindow>& spans, uint64_t from, uint64_t to) {
    auto it = std::upper_bound(spans.begin(), spans.end(), from,
                               [](uint64_t c, const CycleWindow& s) { return c < s.to; });
    return it != spans.end() && it->from < to;
}

} // namespace

const char* core_activity::name(uint8_t activity) {
    if (activity == kRunning) return "running";
    if (activity == kEnded) return "ended";
    if (activity == kDmaQueueFull) return "dma_queue_full";
    return stall_name(static_cast<StallKind>(activity - 1));
}

ActivityRecorder::ActivityRecorder(const ElfImage& elf, const ViewFilter& filter)
    : elf_(elf), filter_(filter), program_(elf.path()) {
    const auto [lo, hi] = elf_.code_range();
    // A flat table over the code, as the profile keeps, unless the code is too large for one.
    if (hi > lo && hi - lo <= (1u << 20)) function_by_code_.resize((hi - lo) / 2 + 1);
    if (filter_.filters()) compact_at_ = kFirstCompaction;
}

void ActivityRecorder::observe_hart(Hart& hart) {
    Core core;
    core.hartid = hart.hartid();
    Tracking t;
    t.hart = &hart;
    t.last_cycle = hart.cycle();
    t.last_stalls = hart.stats().stall_cycles;
    t.last_queue_full = hart.stats().dma_queue_full_cycles;
    t.last_fp_ops = hart.stats().count(InsnClass::Fp) + hart.stats().count(InsnClass::FpDivSqrt);
    if (core_of_hartid_.size() <= hart.hartid()) core_of_hartid_.resize(hart.hartid() + 1, SIZE_MAX);
    core_of_hartid_[hart.hartid()] = cores_.size();
    cores_.push_back(std::move(core));
    tracking_.push_back(t);
    hart.add_retire_observer(this);
}

void ActivityRecorder::attach(ClusterMachine& m) {
    platform_ = m.config().platform.name;
    for (const auto& hart : m.harts())
        observe_hart(*hart);
    // Cores run up to an engine step apart and a woken core resumes after the wake latencies: a generous
    // bound on how far before the awake cores a region may still begin.
    region_margin_ = 4 * uint64_t{m.config().engine.lookahead} + 4096;
    // With private FPUs the cores keep their own FPU timing and the pool is never asked: each core's FP
    // instructions are its FPU's operations (as the report counts them).
    private_fpus_ = m.private_fpus();
    fpu_starts_.resize(m.fpu_pool().fpu_count());
    if (!private_fpus_) divsqrt_busy_.resize(m.fpu_pool().divsqrt_unit_count());
    bank_waits_.resize(m.tcdm().config().banks);
    tcdm_ports_ = m.tcdm().config().ports;
    has_dma_ = true;
    has_event_unit_ = true;
    ClusterObservers o;
    o.tcdm = this;
    o.fpus = private_fpus_ ? nullptr : this;
    o.dma = this;
    o.events = this;
    m.observe(o);
    m.host().add_region_listener(this);
}

void ActivityRecorder::attach(BareMachine& m) {
    platform_ = "bare";
    observe_hart(m.hart());
    m.host().add_region_listener(this);
}

uint32_t ActivityRecorder::function_of(uint32_t pc) {
    const uint32_t off = pc - elf_.code_range().first;
    uint32_t* cached = nullptr;
    if (off / 2 < function_by_code_.size()) {
        cached = &function_by_code_[off / 2];
        if (*cached) return *cached - 1;
    } else if (auto it = function_by_pc_.find(pc); it != function_by_pc_.end()) {
        return it->second;
    }
    const auto [name, start] = elf_.symbol_containing(pc);
    uint32_t id = 0;
    if (!name.empty()) {
        auto [it, fresh] =
            function_by_start_.try_emplace(start, static_cast<uint32_t>(function_names_.size()));
        if (fresh) function_names_.push_back(name);
        id = it->second;
    }
    if (cached)
        *cached = id + 1;
    else
        function_by_pc_[pc] = id;
    return id;
}

void ActivityRecorder::set_activity(size_t core, uint8_t activity, uint64_t cycle) {
    Tracking& t = tracking_[core];
    if (activity == t.activity) return;
    t.activity = activity;
    if (beyond_window(cycle)) return;
    cores_[core].activity.push_back({cycle, activity});
    note_record();
}

void ActivityRecorder::account(size_t core, bool retiring, uint32_t pc) {
    Tracking& t = tracking_[core];
    const Hart& h = *t.hart;
    const auto& stalls = h.stats().stall_cycles;
    const uint64_t end = h.cycle();
    uint64_t at = t.last_cycle;
    // Stalls first, in StallKind order, then the instruction's own cycle(s).
    // Of the DmaWait stall, the pushes into a full queue come apart (awake, where a cv.elw sleeps).
    const uint64_t queue_full = h.stats().dma_queue_full_cycles - t.last_queue_full;
    for (size_t k = 0; k < stalls.size(); ++k) {
        uint64_t d = stalls[k] - t.last_stalls[k];
        if (k == static_cast<size_t>(StallKind::DmaWait) && queue_full != 0) {
            set_activity(core, core_activity::kDmaQueueFull, at);
            at += queue_full;
            d -= queue_full;
        }
        if (d == 0) continue;
        set_activity(core, core_activity::of(static_cast<StallKind>(k)), at);
        at += d;
    }
    t.last_stalls = stalls;
    t.last_queue_full += queue_full;
    if (end > at) set_activity(core, core_activity::kRunning, at);
    if (retiring) {
        const uint32_t f = function_of(pc);
        if (f != t.function) {
            t.function = f;
            if (!beyond_window(t.last_cycle)) {
                cores_[core].functions.push_back({t.last_cycle, f});
                note_record();
            }
        }
        if (private_fpus_) {
            const uint64_t fp = h.stats().count(InsnClass::Fp) + h.stats().count(InsnClass::FpDivSqrt);
            if (fp != t.last_fp_ops) fpu_started(cores_[core].hartid % fpu_starts_.size(), h.issue_);
            t.last_fp_ops = fp;
        }
    }
    t.last_cycle = end;
}

void ActivityRecorder::retired(const Hart& hart, uint32_t pc, const DecodedInsn&) {
    account(core_of_hartid_[hart.hartid()], true, pc);
}

void ActivityRecorder::bank_waited(unsigned bank, unsigned, uint64_t wanted, uint64_t granted) {
    if (beyond_window(wanted)) return;
    bank_waits_[bank].push_back({wanted, granted});
    note_record();
}

void ActivityRecorder::fpu_started(unsigned fpu, uint64_t cycle) {
    if (beyond_window(cycle)) return;
    fpu_starts_[fpu].push_back(cycle);
    note_record();
}

void ActivityRecorder::divsqrt_busy(unsigned unit, uint64_t from, uint64_t to) {
    if (beyond_window(from)) return;
    divsqrt_busy_[unit].push_back({from, to});
    note_record();
}

void ActivityRecorder::transfer_completed(const DmaTransferSpan& span) {
    if (!beyond_window(span.enqueued)) dma_transfers_.push_back(span);
}

void ActivityRecorder::dispatched(unsigned core, uint64_t cycle, uint32_t team_mask) {
    if (!beyond_window(cycle)) events_.push_back({cycle, EventKind::Dispatch, core, team_mask});
}

void ActivityRecorder::barrier_released(uint64_t cycle, uint32_t team_mask) {
    if (!beyond_window(cycle)) events_.push_back({cycle, EventKind::Barrier, 0, team_mask});
}

void ActivityRecorder::region_entered(const std::string& name, const Hart& caller, uint64_t macs,
                                      uint64_t cycle) {
    RegionRun r;
    r.name = name;
    r.macs = macs;
    r.begin = cycle;
    r.depth = static_cast<unsigned>(open_regions_.size());
    r.core = caller.hartid();
    open_regions_.push_back(regions_.size());
    regions_.push_back(std::move(r));
}

void ActivityRecorder::region_left(const std::string&, const Hart&, uint64_t cycle) {
    if (open_regions_.empty()) return;
    RegionRun& r = regions_[open_regions_.back()];
    open_regions_.pop_back();
    r.end = std::max(cycle, r.begin);
    r.closed = true;
}

std::vector<CycleWindow> ActivityRecorder::spans_so_far(uint64_t open_end) const {
    std::vector<CycleWindow> runs;
    for (const RegionRun& r : regions_)
        if (filter_.names_region(r.name)) runs.push_back({r.begin, r.closed ? r.end : open_end});
    return filter_.spans(runs, open_end);
}

std::vector<CycleWindow> ActivityRecorder::shown() const {
    return spans_so_far(end_);
}

void ActivityRecorder::compact() {
    // The earliest cycle a region can still begin at: no awake core goes back before its last retirement,
    // and a sleeping one resumes no earlier than the core or DMA that wakes it, give or take an engine step.
    // A window alone never grows: everything outside it can go.
    uint64_t horizon = UINT64_MAX;
    if (!filter_.regions().empty()) {
        for (const Tracking& t : tracking_)
            if (!t.hart->asleep()) horizon = std::min(horizon, t.last_cycle);
        if (horizon == UINT64_MAX)
            for (const Tracking& t : tracking_)
                horizon = std::min(horizon, t.last_cycle);
        horizon = horizon > region_margin_ ? horizon - region_margin_ : 0;
    }
    const std::vector<CycleWindow> spans = spans_so_far(UINT64_MAX);
    auto shows = [&](uint64_t from, uint64_t to) { return to > horizon || meets(spans, from, to); };
    uint64_t kept = 0;
    for (Core& core : cores_) {
        // A change holds until the next one: it stays while that stretch may be shown.
        auto& a = core.activity;
        size_t n = 0;
        for (size_t i = 0; i < a.size(); ++i)
            if (shows(a[i].cycle, i + 1 < a.size() ? a[i + 1].cycle : UINT64_MAX)) a[n++] = a[i];
        a.resize(n);
        auto& f = core.functions;
        n = 0;
        for (size_t i = 0; i < f.size(); ++i)
            if (shows(f[i].from, i + 1 < f.size() ? f[i + 1].from : UINT64_MAX)) f[n++] = f[i];
        f.resize(n);
        kept += a.size() + f.size();
    }
    for (auto& starts : fpu_starts_) {
        std::erase_if(starts, [&](uint64_t c) { return !shows(c, c + 1); });
        kept += starts.size();
    }
    for (auto* lists : {&divsqrt_busy_, &bank_waits_})
        for (auto& busy : *lists) {
            std::erase_if(busy, [&](const Busy& b) { return !shows(b.from, b.to); });
            kept += busy.size();
        }
    std::erase_if(events_, [&](const Event& e) { return !shows(e.cycle, e.cycle + 1); });
    std::erase_if(dma_transfers_, [&](const DmaTransferSpan& t) { return !shows(t.enqueued, t.completion); });
    records_ = kept;
    compact_at_ = std::max(kFirstCompaction, 2 * kept);
}

void ActivityRecorder::finish(uint64_t run_end) {
    end_ = run_end;
    for (size_t i = 0; i < cores_.size(); ++i) {
        account(i, false, 0);
        cores_[i].end = tracking_[i].hart->cycle();
        end_ = std::max(end_, cores_[i].end);
    }
    for (size_t i = 0; i < cores_.size(); ++i)
        if (cores_[i].end < end_) set_activity(i, core_activity::kEnded, cores_[i].end);
    for (size_t index : open_regions_)
        regions_[index].end = std::max(end_, regions_[index].begin);
    open_regions_.clear();
    compact_at_ = UINT64_MAX;
    // Cores place their requests on shared blocks up to a lookahead step apart: order them by time.
    for (auto& starts : fpu_starts_)
        std::sort(starts.begin(), starts.end());
    auto by_from = [](const Busy& a, const Busy& b) { return a.from < b.from; };
    for (auto& busy : divsqrt_busy_)
        std::sort(busy.begin(), busy.end(), by_from);
    for (auto& waits : bank_waits_)
        std::sort(waits.begin(), waits.end(), by_from);
    sort_keeping_order(dma_transfers_, [](const DmaTransferSpan& a, const DmaTransferSpan& b) {
        return a.started < b.started;
    });
    sort_keeping_order(events_, [](const Event& a, const Event& b) { return a.cycle < b.cycle; });
}

} // namespace pulpsim
