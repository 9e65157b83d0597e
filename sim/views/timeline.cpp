#include "views/timeline.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "views/sort_keeping_order.hpp"

namespace pulpsim {
namespace {

// Track ids inside the cluster's process: cores from 1, then the DMA channels and the event unit.
constexpr int kPid = 1;
constexpr int kDmaTid = 100;
constexpr int kEventsTid = 200;

std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct Slice {
    uint64_t from, to;
    int level; // nesting rank for slices that start together: outer first
    std::string name;
    const char* category;
    std::string args; // a JSON object, or empty
};

// What the filter keeps, and where slices must be cut so that they nest.
class Cutter {
  public:
    Cutter(std::vector<CycleWindow> spans, std::vector<uint64_t> cuts) : spans_(std::move(spans)) {
        for (const CycleWindow& s : spans_) {
            cuts.push_back(s.from);
            cuts.push_back(s.to);
        }
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        cuts_ = std::move(cuts);
    }
    // The kept pieces of [from, to), cut at every cut inside it.
    template <typename F> void pieces(uint64_t from, uint64_t to, F&& take) const {
        if (to <= from) return;
        uint64_t at = from;
        for (auto it = std::upper_bound(cuts_.begin(), cuts_.end(), from); at < to; ++it) {
            const uint64_t next = it != cuts_.end() && *it < to ? *it : to;
            if (kept(at)) take(at, next);
            at = next;
        }
    }
    bool kept(uint64_t cycle) const {
        auto it = std::upper_bound(spans_.begin(), spans_.end(), cycle,
                                   [](uint64_t c, const CycleWindow& s) { return c < s.to; });
        return it != spans_.end() && it->contains(cycle);
    }
    const std::vector<CycleWindow>& spans() const { return spans_; }

  private:
    std::vector<CycleWindow> spans_;
    std::vector<uint64_t> cuts_;
};

// Region runs made to nest in time (a run cannot outlast the one it was opened in), outermost first.
struct NestedRun {
    const ActivityRecorder::RegionRun* run;
    uint64_t begin, end;
    int level;
};
std::vector<NestedRun> nested_regions(const ActivityRecorder& rec) {
    std::vector<NestedRun> runs;
    for (const auto& r : rec.regions())
        if (r.end > r.begin) runs.push_back({&r, r.begin, r.end, 0});
    sort_keeping_order(runs, [](const NestedRun& a, const NestedRun& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<uint64_t> open_ends;
    for (NestedRun& r : runs) {
        while (!open_ends.empty() && open_ends.back() <= r.begin)
            open_ends.pop_back();
        if (!open_ends.empty()) r.end = std::min(r.end, open_ends.back());
        r.level = static_cast<int>(open_ends.size());
        open_ends.push_back(r.end);
    }
    return runs;
}

// Sorted so that a slice comes after the slices it lies in; a slice that would overlap the one around it
// without lying inside it is cut to fit (trace viewers accept only strictly nested slices on a track).
void nest(std::vector<Slice>& slices) {
    sort_keeping_order(slices, [](const Slice& a, const Slice& b) {
        if (a.from != b.from) return a.from < b.from;
        if (a.to != b.to) return a.to > b.to;
        return a.level < b.level;
    });
    std::vector<uint64_t> ends;
    std::vector<Slice> out;
    out.reserve(slices.size());
    for (Slice& s : slices) {
        while (!ends.empty() && ends.back() <= s.from)
            ends.pop_back();
        if (!ends.empty()) s.to = std::min(s.to, ends.back());
        if (s.to <= s.from) continue;
        ends.push_back(s.to);
        out.push_back(std::move(s));
    }
    slices = std::move(out);
}

void append_slices(std::string& out, int tid, const std::vector<Slice>& slices) {
    for (const Slice& s : slices) {
        fmt::format_to(
            std::back_inserter(out),
            ",\n{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":{},\"cat\":\"{}\"", kPid,
            tid, s.from, s.to - s.from, quoted(s.name), s.category);
        if (!s.args.empty()) fmt::format_to(std::back_inserter(out), ",\"args\":{}", s.args);
        out += '}';
    }
}

void append_metadata(std::string& out, const char* what, int tid, const std::string& name, int sort_index) {
    fmt::format_to(
        std::back_inserter(out),
        ",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"ts\":0,\"name\":\"{}\",\"args\":{{\"name\":{}}}}}", kPid,
        tid, what, quoted(name));
    if (sort_index >= 0)
        fmt::format_to(
            std::back_inserter(out),
            ",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"ts\":0,\"name\":\"{}_sort_index\",\"args\":{{\"sort_"
            "index\":{}}}}}",
            kPid, tid, std::string_view(what).substr(0, std::string_view(what).find('_')), sort_index);
}

void append_counter(std::string& out, int tid, uint64_t ts, const std::string& name,
                    const std::string& series, double value) {
    fmt::format_to(std::back_inserter(out),
                   ",\n{{\"ph\":\"C\",\"pid\":{},\"tid\":{},\"ts\":{},\"name\":{},\"args\":{{{}:{}}}}}", kPid,
                   tid, ts, quoted(name), quoted(series), value);
}

} // namespace

void write_timeline(const ActivityRecorder& rec, std::ostream& os) {
    const std::vector<NestedRun> regions = nested_regions(rec);
    std::vector<uint64_t> cuts;
    for (const NestedRun& r : regions) {
        cuts.push_back(r.begin);
        cuts.push_back(r.end);
    }
    const Cutter cutter(rec.shown(), std::move(cuts));
    std::string out;
    auto flush = [&](size_t above) {
        if (out.size() < above) return;
        os.write(out.data(), static_cast<std::streamsize>(out.size()));
        out.clear();
    };

    // No displayTimeUnit: chrome://tracing only displays with it, but Perfetto reads it as the unit of ts.
    out = "{\"otherData\":{";
    fmt::format_to(
        std::back_inserter(out),
        "\"program\":{},\"platform\":{},\"time_unit\":\"1 us of ts = 1 cluster cycle\",\"shown\":{}}},\n",
        quoted(std::filesystem::path(rec.program()).filename().string()), quoted(rec.platform()),
        quoted(rec.filter().describe()));
    out += "\"traceEvents\":[\n";
    fmt::format_to(
        std::back_inserter(out),
        "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"ts\":0,\"name\":\"process_name\",\"args\":{{\"name\":{}}}}}",
        kPid, quoted(fmt::format("cluster ({})", rec.platform())));

    // The regions, as every core sees them: the cycles they count are the cluster's.
    std::vector<Slice> region_slices;
    for (const NestedRun& r : regions) {
        const uint64_t cycles = r.run->end - r.run->begin;
        const std::string args = fmt::format(
            "{{\"cycles\":{},\"macs\":{},\"mac_per_cycle\":{},\"opened_by_core\":{}{}}}", cycles, r.run->macs,
            cycles ? static_cast<double>(r.run->macs) / static_cast<double>(cycles) : 0.0, r.run->core,
            r.run->closed ? "" : ",\"open_at_the_end\":true");
        cutter.pieces(r.begin, r.end, [&](uint64_t from, uint64_t to) {
            region_slices.push_back({from, to, r.level, r.run->name, "region", args});
        });
    }

    for (const ActivityRecorder::Core& core : rec.cores()) {
        const int tid = 1 + static_cast<int>(core.hartid);
        append_metadata(out, "thread_name", tid, fmt::format("core {}", core.hartid),
                        static_cast<int>(core.hartid));
        std::vector<Slice> slices = region_slices;
        const auto& fns = core.functions;
        for (size_t i = 0; i < fns.size(); ++i) {
            const uint64_t to = i + 1 < fns.size() ? fns[i + 1].from : core.end;
            const std::string& name = rec.function_names()[fns[i].function];
            cutter.pieces(fns[i].from, to, [&](uint64_t a, uint64_t b) {
                slices.push_back({a, b, 1000, name, "function", {}});
            });
        }
        const auto& act = core.activity;
        for (size_t i = 0; i < act.size(); ++i) {
            const auto a = static_cast<uint8_t>(act[i].activity);
            if (!core_activity::asleep(a) && a != core_activity::kDmaQueueFull) continue;
            const uint64_t to = i + 1 < act.size() ? act[i + 1].cycle : core.end;
            cutter.pieces(act[i].cycle, to, [&](uint64_t from, uint64_t b) {
                slices.push_back({from, b, 2000, core_activity::name(a), "wait", {}});
            });
        }
        nest(slices);
        append_slices(out, tid, slices);
        flush(1 << 20);
    }

    if (rec.has_dma()) {
        for (int d = 0; d < 2; ++d) {
            const int tid = kDmaTid + d;
            append_metadata(out, "thread_name", tid, d == 0 ? "DMA in (L2 to TCDM)" : "DMA out (TCDM to L2)",
                            static_cast<int>(rec.cores().size()) + d);
            std::vector<Slice> slices;
            for (const DmaTransferSpan& t : rec.dma_transfers()) {
                if ((t.transfer.direction == DmaDirection::in) != (d == 0)) continue;
                const uint64_t bytes = uint64_t{t.transfer.bytes} * t.transfer.rows;
                const std::string args = fmt::format("{{\"id\":{},\"core\":{},\"bytes\":{},\"rows\":{},\"l2_"
                                                     "addr\":\"{:#010x}\",\"tcdm_addr\":\"{:#010x}\","
                                                     "\"pushed\":{},\"queued_cycles\":{},\"latency\":{}}}",
                                                     t.id, t.core, bytes, t.transfer.rows, t.transfer.l2_addr,
                                                     t.transfer.tcdm_addr, t.enqueued, t.started - t.enqueued,
                                                     t.completion - t.enqueued);
                cutter.pieces(t.started, t.completion, [&](uint64_t a, uint64_t b) {
                    slices.push_back({a, b, 0, fmt::format("{} B", bytes), "dma", args});
                });
            }
            nest(slices);
            append_slices(out, tid, slices);
        }
        // Bytes pushed and not yet complete.
        std::vector<std::pair<uint64_t, int64_t>> deltas;
        for (const DmaTransferSpan& t : rec.dma_transfers()) {
            const auto bytes = static_cast<int64_t>(uint64_t{t.transfer.bytes} * t.transfer.rows);
            deltas.emplace_back(t.enqueued, bytes);
            deltas.emplace_back(t.completion, -bytes);
        }
        sort_keeping_order(deltas, [](const auto& a, const auto& b) { return a.first < b.first; });
        int64_t level = 0;
        for (size_t i = 0; i < deltas.size();) {
            const uint64_t cycle = deltas[i].first;
            for (; i < deltas.size() && deltas[i].first == cycle; ++i)
                level += deltas[i].second;
            if (cutter.kept(cycle))
                append_counter(out, kDmaTid, cycle, "DMA", "bytes_in_flight", static_cast<double>(level));
        }
    }

    if (rec.has_event_unit()) {
        append_metadata(out, "thread_name", kEventsTid, "event unit",
                        static_cast<int>(rec.cores().size()) + 2);
        for (const auto& e : rec.events()) {
            if (!cutter.kept(e.cycle)) continue;
            const bool dispatch = e.kind == ActivityRecorder::EventKind::Dispatch;
            fmt::format_to(
                std::back_inserter(out),
                ",\n{{\"ph\":\"i\",\"s\":\"t\",\"pid\":{},\"tid\":{},\"ts\":{},\"name\":\"{}\",\"cat\":"
                "\"event\",\"args\":{{\"team_mask\":\"{:#x}\"{}}}}}",
                kPid, kEventsTid, e.cycle, dispatch ? "dispatch" : "barrier", e.team_mask,
                dispatch ? fmt::format(",\"core\":{}", e.core) : std::string());
        }
    }

    // MAC/cycle of each run of a region that declares MACs, from its start to its end (then 0).
    for (const NestedRun& r : regions) {
        if (r.run->macs == 0) continue;
        const double value =
            static_cast<double>(r.run->macs) / static_cast<double>(r.run->end - r.run->begin);
        const int tid = 1 + static_cast<int>(r.run->core);
        for (const CycleWindow& s : cutter.spans()) {
            const uint64_t from = std::max(s.from, r.begin), to = std::min(s.to, r.end);
            if (from >= to) continue;
            append_counter(out, tid, from, "MAC/cycle", r.run->name, value);
            append_counter(out, tid, to, "MAC/cycle", r.run->name, 0.0);
        }
    }
    out += "\n]}\n";
    flush(0);
}

} // namespace pulpsim
