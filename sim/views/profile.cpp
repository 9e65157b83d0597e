#include "views/profile.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>

namespace pulpsim {
namespace {

constexpr const char* kAfterLast = "(after the last instruction)";

double share(uint64_t part, uint64_t all) {
    return all ? 100.0 * static_cast<double>(part) / static_cast<double>(all) : 0.0;
}

std::string counter_header() {
    std::string out = fmt::format(" {:>12} {:>7} {:>12}", "cycles", "share", "instret");
    for (size_t k = 0; k < static_cast<size_t>(StallKind::Count); ++k)
        out += fmt::format(" {:>9.9}", stall_name(static_cast<StallKind>(k)));
    return out;
}

std::string counters_text(const Profile::Counters& c, uint64_t all) {
    std::string out = fmt::format(" {:>12} {:>6.1f}% {:>12}", c.cycles, share(c.cycles, all), c.instructions);
    for (uint64_t s : c.stalls)
        out += fmt::format(" {:>9}", s);
    return out;
}

// A source path as a table shows it: relative to the working directory when under it, and, when longer
// than `width`, its last components after ".../" (the tail of the file name if even that is too long).
std::string shown_path(const std::string& file, size_t width) {
    std::filesystem::path path(file);
    std::error_code ec;
    const std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (!ec && path.is_absolute()) {
        const std::filesystem::path rel = path.lexically_relative(cwd);
        if (!rel.empty() && *rel.begin() != "..") path = rel;
    }
    std::string shown = path.string();
    if (shown.size() <= width) return shown;
    std::string tail = path.filename().string();
    for (auto it = std::prev(path.end()); it != path.begin();) {
        --it;
        const std::string longer = (*it / tail).string();
        if (longer.size() + 4 > width) break;
        tail = longer;
    }
    tail = ".../" + tail;
    return tail.size() <= width ? tail : ".." + shown.substr(shown.size() - (width - 2));
}

std::string shown_line(const std::string& file, uint32_t line, size_t width) {
    if (file == "?") return file;
    const std::string suffix = fmt::format(":{}", line);
    return shown_path(file, width > suffix.size() ? width - suffix.size() : 0) + suffix;
}

} // namespace

void Profile::Counters::add(const Counters& o) {
    cycles += o.cycles;
    instructions += o.instructions;
    for (size_t i = 0; i < stalls.size(); ++i)
        stalls[i] += o.stalls[i];
}

void Profile::attach(Hart& hart) {
    CoreState c;
    c.hart = &hart;
    c.last_cycle = hart.cycle();
    c.last_instret = hart.stats().instret();
    c.last_stalls = hart.stats().stall_cycles;
    // A flat table over the code (a hash look-up per instruction costs several times more), unless the
    // code is too large for one.
    const auto [lo, hi] = elf_.code_range();
    if (hi > lo && hi - lo <= kFlatCodeBytes) c.by_code_pc.resize((hi - lo) / 2 + 1);
    if (core_of_hartid_.size() <= hart.hartid()) core_of_hartid_.resize(hart.hartid() + 1, SIZE_MAX);
    core_of_hartid_[hart.hartid()] = cores_.size();
    cores_.push_back(std::move(c));
    hart.add_retire_observer(this);
}

Profile::Counters Profile::delta(CoreState& c, bool retiring) const {
    const CoreStats& s = c.hart->stats();
    Counters d;
    d.cycles = c.hart->cycle() - c.last_cycle;
    // Summing the instruction counters costs more than the rest: a retirement is one instruction.
    const uint64_t instret = retiring ? c.last_instret + 1 : s.instret();
    d.instructions = instret - c.last_instret;
    for (size_t i = 0; i < d.stalls.size(); ++i)
        d.stalls[i] = s.stall_cycles[i] - c.last_stalls[i];
    c.last_cycle = c.hart->cycle();
    c.last_instret = instret;
    c.last_stalls = s.stall_cycles;
    return d;
}

Profile::Counters Profile::shown_part(const Counters& d, uint64_t from) const {
    const uint64_t shown = filter_->shown_cycles(from, from + d.cycles);
    if (shown == d.cycles) return d;
    Counters part;
    part.instructions = d.instructions;
    if (shown == 0) return part;
    // The stalls first, kind by kind, then the instruction's own cycles: the order the waveform and the
    // timeline draw them in.
    uint64_t at = from;
    for (size_t k = 0; k < d.stalls.size(); ++k) {
        const uint64_t len = std::min(d.stalls[k], from + d.cycles - at);
        part.stalls[k] = filter_->shown_cycles(at, at + len);
        at += len;
    }
    part.cycles = shown;
    return part;
}

void Profile::retired(const Hart& hart, uint32_t pc, const DecodedInsn&) {
    // The cycles since the previous retirement (this instruction's issue, the stalls before it, a sleep it
    // woke from) belong to this instruction.
    CoreState& c = cores_[core_of_hartid_[hart.hartid()]];
    const uint64_t from = c.last_cycle;
    Counters d = delta(c, true);
    if (filter_) {
        // Under a filter the instruction counts where it issued, its cycles where they fall: a sleep from
        // before a region counts from the region's start.
        d = shown_part(d, from);
        if (!filter_->shows(hart.issue_)) d.instructions = 0;
        if (d.cycles == 0 && d.instructions == 0) return;
    }
    const uint32_t off = pc - elf_.code_range().first;
    if (off / 2 < c.by_code_pc.size())
        c.by_code_pc[off / 2].add(d);
    else
        c.by_pc[pc].add(d);
}

Profile::RetiredPcs Profile::retired_pcs() const {
    RetiredPcs out;
    const uint32_t lo = elf_.code_range().first;
    for (const CoreState& c : cores_) {
        // The flat table is in pc order and the other pcs lie outside it.
        auto& pcs = out.emplace_back(c.by_pc.begin(), c.by_pc.end());
        for (size_t i = 0; i < c.by_code_pc.size(); ++i)
            if (c.by_code_pc[i].cycles || c.by_code_pc[i].instructions)
                pcs.emplace_back(lo + static_cast<uint32_t>(2 * i), c.by_code_pc[i]);
        if (!c.by_pc.empty())
            std::sort(pcs.begin(), pcs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    return out;
}

std::vector<Profile::Counters> Profile::after_last_instruction() const {
    std::vector<Counters> out;
    for (const CoreState& c : cores_) {
        // The marks only, not the tables: delta() moves them.
        CoreState marks;
        marks.hart = c.hart;
        marks.last_cycle = c.last_cycle;
        marks.last_instret = c.last_instret;
        marks.last_stalls = c.last_stalls;
        out.push_back(filter_ ? shown_part(delta(marks, false), c.last_cycle) : delta(marks, false));
    }
    return out;
}

std::vector<Profile::Function> Profile::functions(const RetiredPcs& retired) const {
    const size_t n = cores_.size();
    std::vector<Function> out;
    std::unordered_map<uint32_t, size_t> index; // function start -> position in out
    Function unknown{"?", 0, std::vector<Counters>(n), {}};
    for (size_t core = 0; core < n; ++core)
        for (const auto& [pc, counters] : retired[core]) {
            auto [name, start] = elf_.symbol_containing(pc);
            Function* f = &unknown;
            if (!name.empty()) {
                auto [it, fresh] = index.try_emplace(start, out.size());
                if (fresh) out.push_back({name, start, std::vector<Counters>(n), {}});
                f = &out[it->second];
            }
            f->per_core[core].add(counters);
            f->total.add(counters);
        }
    if (unknown.total.cycles || unknown.total.instructions) out.push_back(std::move(unknown));
    std::sort(out.begin(), out.end(), [](const Function& a, const Function& b) {
        return a.total.cycles != b.total.cycles ? a.total.cycles > b.total.cycles : a.start < b.start;
    });
    // What each core did after its last retired instruction: the rest of the run.
    Function after{kAfterLast, 0, after_last_instruction(), {}};
    for (const Counters& c : after.per_core)
        after.total.add(c);
    if (after.total.cycles || after.total.instructions) out.push_back(std::move(after));
    return out;
}

std::vector<Profile::Line> Profile::lines(const RetiredPcs& retired) const {
    const size_t n = cores_.size();
    std::vector<Line> out;
    // (function start, inside a symbol, file index or none, line) -> position in out
    std::map<std::tuple<uint32_t, bool, uint32_t, uint32_t>, size_t> index;
    std::unordered_map<uint32_t, size_t> row_of_pc; // the cores share their code: each pc is resolved once
    for (size_t core = 0; core < n; ++core)
        for (const auto& [pc, counters] : retired[core]) {
            auto [row, unresolved] = row_of_pc.try_emplace(pc, 0);
            if (unresolved) {
                const auto [name, start] = elf_.symbol_containing(pc);
                const std::optional<SourceLines::Location> where =
                    source_lines_ ? source_lines_->find(pc) : std::nullopt;
                const auto key = std::make_tuple(name.empty() ? 0 : start, !name.empty(),
                                                 where ? where->file : UINT32_MAX, where ? where->line : 0);
                auto [it, fresh] = index.try_emplace(key, out.size());
                if (fresh)
                    out.push_back({name.empty() ? "?" : name,
                                   name.empty() ? 0 : start,
                                   where ? source_lines_->files()[where->file] : "?",
                                   where ? where->line : 0,
                                   std::vector<Counters>(n),
                                   {}});
                row->second = it->second;
            }
            out[row->second].per_core[core].add(counters);
            out[row->second].total.add(counters);
        }
    std::sort(out.begin(), out.end(), [](const Line& a, const Line& b) {
        if (a.total.cycles != b.total.cycles) return a.total.cycles > b.total.cycles;
        return std::tie(a.function_start, a.file, a.line) < std::tie(b.function_start, b.file, b.line);
    });
    Line after{kAfterLast, 0, "", 0, after_last_instruction(), {}};
    for (const Counters& c : after.per_core)
        after.total.add(c);
    if (after.total.cycles || after.total.instructions) out.push_back(std::move(after));
    return out;
}

std::string Profile::no_lines_note() const {
    return fmt::format("no DWARF line information in {}", elf_.path());
}

void Profile::print(std::ostream& os, const PrintOptions& options) const {
    const RetiredPcs retired = retired_pcs();
    const std::vector<Function> fs = functions(retired);
    print_functions(os, fs, options.top);
    if (!options.lines && !options.annotate) return;
    if (!source_lines_ || source_lines_->empty())
        os << "\n" << no_lines_note() << "\n";
    else if (options.lines)
        print_lines(os, lines(retired), options.top);
    if (options.annotate) print_annotated(os, fs, retired, options.instruction_text);
}

void Profile::print_functions(std::ostream& os, const std::vector<Function>& fs, size_t top) const {
    uint64_t all = 0;
    for (const Function& f : fs)
        all += f.total.cycles;
    os << fmt::format("\nprofile: cycles per function, {} core{}{}{}\n", cores_.size(),
                      cores_.size() == 1 ? "" : "s",
                      cores_.size() == 1 ? "" : " summed (--profile-json for each core)", shown_note());
    os << fmt::format("{:<32}", "function") << counter_header() << "\n";
    size_t shown = 0;
    for (const Function& f : fs) {
        if (top && shown >= top && f.name != kAfterLast) continue;
        ++shown;
        os << fmt::format("{:<32.32}", f.name);
        os << counters_text(f.total, all) << "\n";
    }
    if (top && fs.size() > shown)
        os << fmt::format("({} more functions in --profile-json)\n", fs.size() - shown);
}

void Profile::print_lines(std::ostream& os, const std::vector<Line>& ls, size_t top) const {
    uint64_t all = 0;
    for (const Line& l : ls)
        all += l.total.cycles;
    os << fmt::format("\nprofile: cycles per source line, {} core{}{}\n", cores_.size(),
                      cores_.size() == 1 ? "" : "s summed", shown_note());
    os << fmt::format("{:<40} {:<24}", "source line", "function") << counter_header() << "\n";
    size_t shown = 0;
    for (const Line& l : ls) {
        if (top && shown >= top && l.function != kAfterLast) continue;
        ++shown;
        if (l.function == kAfterLast)
            os << fmt::format("{:<40} {:<24}", kAfterLast, "");
        else
            os << fmt::format("{:<40} {:<24.24}", shown_line(l.file, l.line, 40), l.function);
        os << counters_text(l.total, all) << "\n";
    }
    if (top && ls.size() > shown) os << fmt::format("({} more lines in --profile-json)\n", ls.size() - shown);
}

void Profile::print_annotated(std::ostream& os, const std::vector<Function>& fs, const RetiredPcs& retired,
                              const InstructionText& text) const {
    auto hottest = std::find_if(fs.begin(), fs.end(), [](const Function& f) {
        return f.name != "?" && f.name != kAfterLast && f.total.instructions > 0;
    });
    if (hottest == fs.end()) return;
    // Every instruction of the function, retired or not: the symbol's extent walked by instruction length
    // (the retired addresses too, should data sit among the instructions).
    std::map<uint32_t, Counters> rows;
    for (const auto& pcs : retired)
        for (const auto& [pc, counters] : pcs) {
            const auto [name, start] = elf_.symbol_containing(pc);
            if (!name.empty() && start == hottest->start) rows[pc].add(counters);
        }
    const uint32_t size = elf_.symbol_size(hottest->start);
    const uint32_t end =
        size ? hottest->start + size : (rows.empty() ? hottest->start : rows.rbegin()->first + 2);
    auto encoding_at = [&](uint32_t pc) -> std::optional<uint32_t> {
        std::array<uint8_t, 4> b{};
        if (!elf_.read(pc, std::span(b).first(2))) return std::nullopt;
        if ((b[0] & 3) != 3) return uint32_t{b[0]} | uint32_t{b[1]} << 8;
        if (!elf_.read(pc, b)) return std::nullopt;
        return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
    };
    for (uint32_t pc = hottest->start; pc < end;) {
        const std::optional<uint32_t> enc = encoding_at(pc);
        if (!enc) break;
        rows.try_emplace(pc);
        pc += (*enc & 3) == 3 ? 4 : 2;
    }
    os << fmt::format("\nprofile: {} instruction by instruction, {} core{}{}\n", hottest->name, cores_.size(),
                      cores_.size() == 1 ? "" : "s summed", shown_note());
    os << fmt::format("{:<10} {:<10}", "address", "encoding");
    if (text) os << fmt::format(" {:<32}", "instruction");
    os << counter_header() << "  source line\n";
    for (const auto& [pc, counters] : rows) {
        const std::optional<uint32_t> enc = encoding_at(pc);
        std::string shown_enc = "?";
        if (enc) shown_enc = (*enc & 3) == 3 ? fmt::format("{:08x}", *enc) : fmt::format("    {:04x}", *enc);
        os << fmt::format("{:08x}   {:<10}", pc, shown_enc);
        if (text) os << fmt::format(" {:<32.32}", enc ? text(pc, *enc) : "");
        const std::optional<SourceLines::Location> where =
            source_lines_ ? source_lines_->find(pc) : std::nullopt;
        os << counters_text(counters, hottest->total.cycles) << "  "
           << (where ? shown_line(source_lines_->files()[where->file], where->line, 60) : std::string("?"))
           << "\n";
    }
}

std::string Profile::shown_note() const {
    return filter_ && filter_->filters() ? fmt::format(", {}", filter_->describe()) : "";
}

nlohmann::ordered_json Profile::json() const {
    auto counters_json = [](const Counters& c) {
        nlohmann::ordered_json stalls;
        for (size_t k = 0; k < c.stalls.size(); ++k)
            stalls[stall_name(static_cast<StallKind>(k))] = c.stalls[k];
        return nlohmann::ordered_json{{"cycles", c.cycles}, {"instret", c.instructions}, {"stalls", stalls}};
    };
    auto cores_json = [&](const std::vector<Counters>& per_core) {
        nlohmann::ordered_json cores = nlohmann::ordered_json::array();
        for (size_t core = 0; core < per_core.size(); ++core) {
            nlohmann::ordered_json c = counters_json(per_core[core]);
            c["core"] = cores_[core].hart->hartid();
            cores.push_back(std::move(c));
        }
        return cores;
    };
    nlohmann::ordered_json functions = nlohmann::ordered_json::array();
    const RetiredPcs retired = retired_pcs();
    for (const Function& f : this->functions(retired)) {
        nlohmann::ordered_json j = {{"function", f.name}, {"address", fmt::format("{:#010x}", f.start)}};
        j["total"] = counters_json(f.total);
        j["cores"] = cores_json(f.per_core);
        functions.push_back(std::move(j));
    }
    nlohmann::ordered_json out = {{"shows", filter_ ? filter_->describe() : "the whole run"},
                                  {"functions", std::move(functions)}};
    if (!source_lines_) return out;
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    if (!source_lines_->empty())
        for (const Line& l : this->lines(retired)) {
            nlohmann::ordered_json j = {{"file", l.file}, {"line", l.line}, {"function", l.function}};
            j["total"] = counters_json(l.total);
            j["cores"] = cores_json(l.per_core);
            lines.push_back(std::move(j));
        }
    out["lines"] = std::move(lines);
    if (source_lines_->empty()) out["lines_note"] = no_lines_note();
    return out;
}

} // namespace pulpsim
