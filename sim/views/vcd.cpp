#include "views/vcd.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <queue>

#include "views/sort_keeping_order.hpp"

namespace pulpsim {
namespace {

constexpr uint64_t kUnknown = UINT64_MAX; // x

// From `cycle` on, a signal reads `value` (kUnknown: x; for a text signal, the index of its text).
struct Change {
    uint64_t cycle;
    uint64_t value;
};
using Busy = ActivityRecorder::Busy;

enum class Kind { Bit, Vector, Text };

struct Signal {
    std::string scope; // dotted, under the top scope "cluster"
    std::string name;
    Kind kind = Kind::Bit;
    unsigned width = 1;
    uint64_t initial = 0;
    std::vector<Change> changes{};                                   // by cycle
    const std::vector<ActivityRecorder::CoreChange>* core = nullptr; // instead of `changes`
    std::vector<std::string> texts{};                                // Kind::Text: the values by index
    std::string group{};                                             // the GTKWave group that shows it
    const char* gtkw_format = "@28";

    size_t size() const { return core ? core->size() : changes.size(); }
    Change at(size_t i) const { return core ? Change{(*core)[i].cycle, (*core)[i].activity} : changes[i]; }

    std::string path() const {
        std::string p = "cluster." + (scope.empty() ? "" : scope + ".") + name;
        return kind == Kind::Vector ? fmt::format("{}[{}:0]", p, width - 1) : p;
    }
};

// Text values cannot hold white space in a VCD.
std::string vcd_text(std::string s) {
    for (char& c : s)
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
    return s.empty() ? "-" : s;
}

uint32_t text_index(Signal& s, const std::string& text) {
    const std::string t = vcd_text(text);
    for (size_t i = 0; i < s.texts.size(); ++i)
        if (s.texts[i] == t) return static_cast<uint32_t>(i);
    s.texts.push_back(t);
    return static_cast<uint32_t>(s.texts.size() - 1);
}

// A 0/1 signal, 1 in the union of `busy` (sorted by from).
std::vector<Change> union_changes(const std::vector<Busy>& busy) {
    std::vector<Change> out;
    uint64_t from = 0, to = 0;
    bool open = false;
    for (const Busy& b : busy) {
        if (b.to <= b.from) continue;
        if (open && b.from <= to) {
            to = std::max(to, b.to);
            continue;
        }
        if (open) {
            out.push_back({from, 1});
            out.push_back({to, 0});
        }
        from = b.from;
        to = b.to;
        open = true;
    }
    if (open) {
        out.push_back({from, 1});
        out.push_back({to, 0});
    }
    return out;
}

// The running sum of `deltas` (cycle, +/- amount), one change per cycle where it moves.
std::vector<Change> sum_changes(std::vector<std::pair<uint64_t, int64_t>> deltas) {
    sort_keeping_order(deltas, [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Change> out;
    int64_t level = 0;
    for (size_t i = 0; i < deltas.size();) {
        const uint64_t cycle = deltas[i].first;
        for (; i < deltas.size() && deltas[i].first == cycle; ++i)
            level += deltas[i].second;
        if (out.empty() || out.back().value != static_cast<uint64_t>(level))
            out.push_back({cycle, static_cast<uint64_t>(level)});
    }
    return out;
}

// The innermost open perf regions over time, as "outer/inner" ("-" when none).
Signal region_signal(const ActivityRecorder& rec, bool with_changes) {
    Signal s{.scope = "", .name = "region", .kind = Kind::Text, .group = "cores"};
    s.initial = text_index(s, "-");
    struct Boundary {
        uint64_t cycle;
        bool begins;
        size_t run;
    };
    std::vector<Boundary> bounds;
    const auto& runs = rec.regions();
    for (size_t i = 0; with_changes && i < runs.size(); ++i)
        if (runs[i].end > runs[i].begin) {
            bounds.push_back({runs[i].begin, true, i});
            bounds.push_back({runs[i].end, false, i});
        }
    // At one cycle, regions that end go before those that begin.
    sort_keeping_order(bounds, [](const Boundary& a, const Boundary& b) {
        return a.cycle != b.cycle ? a.cycle < b.cycle : (!a.begins && b.begins);
    });
    std::vector<size_t> open;
    for (size_t i = 0; i < bounds.size();) {
        const uint64_t cycle = bounds[i].cycle;
        for (; i < bounds.size() && bounds[i].cycle == cycle; ++i) {
            if (bounds[i].begins)
                open.push_back(bounds[i].run);
            else
                std::erase(open, bounds[i].run);
        }
        std::vector<size_t> by_depth = open;
        sort_keeping_order(by_depth, [&](size_t a, size_t b) { return runs[a].depth < runs[b].depth; });
        std::string label;
        for (size_t r : by_depth)
            label += (label.empty() ? "" : "/") + runs[r].name;
        const uint64_t value = text_index(s, label.empty() ? "-" : label);
        if (s.changes.empty() || s.changes.back().value != value) s.changes.push_back({cycle, value});
    }
    return s;
}

const std::vector<ActivityRecorder::CoreChange> no_changes;
const std::vector<ActivityRecorder::FunctionRun> no_runs;
const std::vector<uint64_t> no_cycles;
const std::vector<Busy> no_busy;
const std::vector<DmaTransferSpan> no_transfers;
const std::vector<ActivityRecorder::Event> no_events;

// The signals of the dump; without `with_changes`, only their names and kinds (for the save file).
std::vector<Signal> build_signals(const ActivityRecorder& rec, bool with_changes) {
    std::vector<Signal> signals;
    signals.push_back(region_signal(rec, with_changes));

    for (const ActivityRecorder::Core& core : rec.cores()) {
        const std::string scope = fmt::format("core{}", core.hartid);
        // Active: not asleep (in a barrier, a dispatch wait or a cv.elw on the DMA), as the thesis' waveform
        // shows.
        Signal active{
            .scope = scope, .name = "active", .kind = Kind::Bit, .initial = kUnknown, .group = "cores"};
        for (const ActivityRecorder::CoreChange& c : with_changes ? core.activity : no_changes) {
            const auto a = static_cast<uint8_t>(c.activity);
            const uint64_t v = a == core_activity::kEnded ? kUnknown : core_activity::asleep(a) ? 0 : 1;
            if (active.changes.empty() || active.changes.back().value != v)
                active.changes.push_back({c.cycle, v});
        }
        signals.push_back(std::move(active));

        Signal state{
            .scope = scope, .name = "state", .kind = Kind::Text, .initial = kUnknown, .group = "cores"};
        for (uint8_t a = 0; a <= core_activity::kLast; ++a)
            text_index(state, core_activity::name(a));
        state.core = &core.activity;
        signals.push_back(std::move(state));

        Signal function{
            .scope = scope, .name = "function", .kind = Kind::Text, .initial = kUnknown, .group = "cores"};
        function.texts = rec.function_names();
        for (std::string& t : function.texts)
            t = vcd_text(t);
        for (const auto& run : with_changes ? core.functions : no_runs)
            function.changes.push_back({run.from, run.function});
        if (with_changes && core.end < rec.end()) function.changes.push_back({core.end, kUnknown});
        signals.push_back(std::move(function));
    }

    for (size_t f = 0; f < rec.fpu_starts().size(); ++f) {
        Signal busy{.scope = fmt::format("fpu{}", f), .name = "busy", .group = "FPUs"};
        std::vector<Busy> cycles;
        for (uint64_t c : with_changes ? rec.fpu_starts()[f] : no_cycles)
            cycles.push_back({c, c + 1});
        busy.changes = union_changes(cycles);
        signals.push_back(std::move(busy));
    }
    for (size_t u = 0; u < rec.divsqrt_busy().size(); ++u) {
        Signal busy{.scope = fmt::format("divsqrt{}", u), .name = "busy", .group = "FPUs"};
        if (with_changes) busy.changes = union_changes(rec.divsqrt_busy()[u]);
        signals.push_back(std::move(busy));
    }

    const unsigned wait_width = std::max(1u, static_cast<unsigned>(std::bit_width(rec.tcdm_ports())));
    for (size_t b = 0; b < rec.bank_waits().size(); ++b) {
        Signal waiting{.scope = fmt::format("tcdm.bank{}", b),
                       .name = "waiting",
                       .kind = Kind::Vector,
                       .width = wait_width,
                       .group = "TCDM banks",
                       .gtkw_format = "@24"};
        std::vector<std::pair<uint64_t, int64_t>> deltas;
        for (const Busy& w : with_changes ? rec.bank_waits()[b] : no_busy) {
            deltas.emplace_back(w.from, 1);
            deltas.emplace_back(w.to, -1);
        }
        waiting.changes = sum_changes(std::move(deltas));
        signals.push_back(std::move(waiting));
    }

    if (rec.has_dma()) {
        std::vector<Busy> channel[2];
        std::vector<std::pair<uint64_t, int64_t>> deltas;
        for (const DmaTransferSpan& t : with_changes ? rec.dma_transfers() : no_transfers) {
            channel[t.transfer.direction == DmaDirection::in ? 0 : 1].push_back({t.started, t.completion});
            const auto bytes = static_cast<int64_t>(uint64_t{t.transfer.bytes} * t.transfer.rows);
            deltas.emplace_back(t.enqueued, bytes);
            deltas.emplace_back(t.completion, -bytes);
        }
        for (int d = 0; d < 2; ++d) {
            Signal busy{.scope = d == 0 ? "dma.in" : "dma.out", .name = "busy", .group = "DMA"};
            std::sort(channel[d].begin(), channel[d].end(),
                      [](const Busy& a, const Busy& b) { return a.from < b.from; });
            busy.changes = union_changes(channel[d]);
            signals.push_back(std::move(busy));
        }
        Signal bytes{.scope = "dma",
                     .name = "bytes_in_flight",
                     .kind = Kind::Vector,
                     .width = 32,
                     .group = "DMA",
                     .gtkw_format = "@24"};
        bytes.changes = sum_changes(std::move(deltas));
        signals.push_back(std::move(bytes));
    }

    if (rec.has_event_unit()) {
        for (auto kind : {ActivityRecorder::EventKind::Dispatch, ActivityRecorder::EventKind::Barrier}) {
            Signal pulse{.scope = "events",
                         .name = kind == ActivityRecorder::EventKind::Dispatch ? "dispatch" : "barrier",
                         .group = "events"};
            std::vector<Busy> cycles;
            for (const auto& e : with_changes ? rec.events() : no_events)
                if (e.kind == kind) cycles.push_back({e.cycle, e.cycle + 1});
            pulse.changes = union_changes(cycles);
            signals.push_back(std::move(pulse));
        }
    }
    return signals;
}

// The changes of a signal inside the shown spans, one at a time: each span opens with the value in effect
// at its start, and every span but the last ends with x, so the cycles left out read as unknown.
class ClippedChanges {
  public:
    ClippedChanges(const Signal& s, const std::vector<CycleWindow>& spans)
        : s_(s), spans_(spans), current_(s.initial) {}
    // The next change to dump; false when there is none.
    bool next(Change& out) {
        for (;;) {
            if (span_ >= spans_.size()) return false;
            const CycleWindow& span = spans_[span_];
            if (!inside_) {
                for (; i_ < s_.size() && s_.at(i_).cycle <= span.from; ++i_)
                    current_ = s_.at(i_).value;
                inside_ = true;
                if (emit(span.from, current_, out)) return true;
                continue;
            }
            if (i_ < s_.size() && s_.at(i_).cycle < span.to) {
                const uint64_t cycle = s_.at(i_).cycle;
                for (; i_ < s_.size() && s_.at(i_).cycle == cycle; ++i_)
                    current_ = s_.at(i_).value;
                if (emit(cycle, current_, out)) return true;
                continue;
            }
            ++span_;
            inside_ = false;
            if (span_ < spans_.size() && emit(span.to, kUnknown, out)) return true;
        }
    }

  private:
    bool emit(uint64_t cycle, uint64_t value, Change& out) {
        if (emitted_ && value == last_) return false;
        emitted_ = true;
        last_ = value;
        out = {cycle, value};
        return true;
    }
    const Signal& s_;
    const std::vector<CycleWindow>& spans_;
    size_t span_ = 0, i_ = 0;
    bool inside_ = false, emitted_ = false;
    uint64_t current_, last_ = 0;
};

std::string identifier(size_t index) {
    std::string id;
    do {
        id += static_cast<char>('!' + index % 94);
        index /= 94;
    } while (index);
    return id;
}

void append_value(std::string& out, const Signal& s, const std::string& id, uint64_t value) {
    switch (s.kind) {
    case Kind::Bit:
        out += value == kUnknown ? 'x' : value ? '1' : '0';
        out += id;
        break;
    case Kind::Vector:
        if (value == kUnknown)
            out += "bx";
        else
            fmt::format_to(std::back_inserter(out), "b{:b}", value);
        out += ' ';
        out += id;
        break;
    case Kind::Text:
        out += 's';
        out += value == kUnknown || value >= s.texts.size() ? std::string("x") : s.texts[value];
        out += ' ';
        out += id;
        break;
    }
    out += '\n';
}

std::string header(const ActivityRecorder& rec, const std::vector<Signal>& signals) {
    std::string h = "$comment\n";
    h += fmt::format("  pulpsim activity of {} on {}: {}.\n",
                     std::filesystem::path(rec.program()).filename().string(), rec.platform(),
                     rec.filter().describe());
    h +=
        "  Time: 1 ns = one cluster cycle. Cycles left out by the filter read x.\n"
        "  region             the innermost open perf regions, outer/inner (- when none)\n"
        "  coreN.active       1 while the core is awake, 0 while it sleeps (sleep, dma_wait)\n"
        "  coreN.state        what the core does in the cycle: running (issues an instruction), a stall "
        "kind\n"
        "                     (load_use jump_register control fpu_dependency multi_cycle tcdm_contention\n"
        "                     fpu_contention icache_miss memory_latency sleep dma_wait), or ended (past its\n"
        "                     last cycle). Between two retirements: the stalls, in this order, then "
        "running.\n"
        "  coreN.function     the function (ELF symbol) of the instruction those cycles belong to\n"
        "  fpuN.busy          the FPU takes an operation in the cycle; divsqrtN.busy: the unit works\n"
        "  tcdm.bankN.waiting requests waiting for the bank in the cycle (their sum over time is the\n"
        "                     report's conflict cycles of the bank)\n"
        "  dma.in.busy, dma.out.busy  a transfer holds the channel (from its start to its last byte)\n"
        "  dma.bytes_in_flight        bytes of transfers pushed and not yet complete\n"
        "  events.dispatch, events.barrier  a team dispatch, a barrier release (one-cycle pulses)\n"
        "$end\n$version pulpsim $end\n$timescale 1ns $end\n$scope module cluster $end\n";
    // Scopes in order of first appearance; signals keep their order inside.
    std::vector<std::string> open;
    for (size_t i = 0; i < signals.size(); ++i) {
        const Signal& s = signals[i];
        std::vector<std::string> want;
        for (size_t at = 0; !s.scope.empty() && at <= s.scope.size();) {
            const size_t dot = std::min(s.scope.find('.', at), s.scope.size());
            want.push_back(s.scope.substr(at, dot - at));
            at = dot + 1;
        }
        size_t common = 0;
        while (common < open.size() && common < want.size() && open[common] == want[common])
            ++common;
        for (size_t k = open.size(); k > common; --k)
            h += "$upscope $end\n";
        for (size_t k = common; k < want.size(); ++k)
            h += fmt::format("$scope module {} $end\n", want[k]);
        open = want;
        const char* type = s.kind == Kind::Text ? "string" : "wire";
        if (s.kind == Kind::Vector)
            h += fmt::format("$var {} {} {} {} [{}:0] $end\n", type, s.width, identifier(i), s.name,
                             s.width - 1);
        else
            h += fmt::format("$var {} 1 {} {} $end\n", type, identifier(i), s.name);
    }
    for (size_t k = open.size(); k > 0; --k)
        h += "$upscope $end\n";
    h += "$upscope $end\n$enddefinitions $end\n";
    return h;
}

std::string gtkw(const std::vector<Signal>& signals, const std::vector<CycleWindow>& spans,
                 const std::string& vcd_path) {
    const std::string dump = std::filesystem::absolute(vcd_path).lexically_normal().string();
    const uint64_t from = spans.empty() ? 0 : spans.front().from;
    const uint64_t to = spans.empty() ? 1 : spans.back().to;
    // GTKWave 3.3 at zoom z shows 2^-z / 200 time units per pixel (measured): fit the shown cycles into the
    // wave pane, about 1150 pixels wide at the size below.
    const double zoom = -std::log2(200.0 * std::max(0.01, static_cast<double>(to - from) / 1150.0));
    std::string g = fmt::format("[*] GTKWave save file written by pulpsim: gtkwave {}.gtkw\n", dump);
    g += fmt::format("[dumpfile] \"{}\"\n[savefile] \"{}.gtkw\"\n[timestart] {}\n", dump, dump, from);
    g += "[size] 1600 1000\n[pos] -1 -1\n";
    g += fmt::format("*{:.6f} -1", zoom);
    for (int i = 0; i < 26; ++i)
        g += " -1";
    g += "\n[treeopen] cluster.\n[sst_width] 220\n[signals_width] 230\n[sst_expanded] 0\n[sst_vpaned_height] "
         "300\n";
    std::vector<std::string> groups;
    for (const Signal& s : signals)
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end()) groups.push_back(s.group);
    for (const std::string& group : groups) {
        g += fmt::format("@800200\n-{}\n", group);
        std::string format;
        for (const Signal& s : signals) {
            if (s.group != group) continue;
            if (format != s.gtkw_format) {
                format = s.gtkw_format;
                g += format + "\n";
            }
            // An alias naming the block: GTKWave shows only the part of a name after its last dot.
            std::string alias = s.scope.empty() ? s.name : s.scope + " " + s.name;
            std::replace(alias.begin(), alias.end(), '.', ' ');
            if (s.name == "active" || s.name == "region") g += "[color] 2\n";
            g += fmt::format("+{{{}}} {}\n", alias, s.path());
        }
        g += fmt::format("@1000200\n-{}\n", group);
    }
    g += "[pattern_trace] 1\n[pattern_trace] 0\n";
    return g;
}

} // namespace

void write_vcd(const ActivityRecorder& rec, std::ostream& os) {
    const std::vector<Signal> signals = build_signals(rec, true);
    const std::vector<CycleWindow> spans = rec.shown();
    std::string out = header(rec, signals);
    auto flush = [&](size_t above) {
        if (out.size() < above) return;
        os.write(out.data(), static_cast<std::streamsize>(out.size()));
        out.clear();
    };
    std::vector<std::string> ids;
    std::vector<ClippedChanges> clipped;
    std::vector<Change> head(signals.size());
    // Every signal's changes are in time order: merge them.
    using Head = std::pair<uint64_t, size_t>; // cycle, signal
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    for (size_t i = 0; i < signals.size(); ++i) {
        ids.push_back(identifier(i));
        clipped.emplace_back(signals[i], spans);
        if (clipped[i].next(head[i])) heads.push({head[i].cycle, i});
    }
    // The first cycle's values are the initial ones ($dumpvars).
    bool started = false, in_dumpvars = false;
    uint64_t now = 0;
    while (!heads.empty()) {
        const auto [cycle, i] = heads.top();
        heads.pop();
        if (!started || cycle != now) {
            if (in_dumpvars) out += "$end\n";
            fmt::format_to(std::back_inserter(out), "#{}\n", cycle);
            in_dumpvars = !started;
            if (in_dumpvars) out += "$dumpvars\n";
            started = true;
            now = cycle;
            flush(1 << 20);
        }
        append_value(out, signals[i], ids[i], head[i].value);
        if (clipped[i].next(head[i])) heads.push({head[i].cycle, i});
    }
    if (in_dumpvars) out += "$end\n";
    if (!spans.empty() && spans.back().to > now)
        fmt::format_to(std::back_inserter(out), "#{}\n", spans.back().to);
    flush(0);
}

std::string gtkw_for_vcd(const ActivityRecorder& rec, const std::string& vcd_path) {
    return gtkw(build_signals(rec, false), rec.shown(), vcd_path);
}

} // namespace pulpsim
