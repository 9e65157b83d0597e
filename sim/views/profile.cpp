#include "views/profile.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

namespace pulpsim {

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

void Profile::retired(const Hart& hart, uint32_t pc, const DecodedInsn&) {
    // The cycles since the previous retirement (this instruction's issue, the stalls before it, a sleep it
    // woke from) belong to this instruction.
    CoreState& c = cores_[core_of_hartid_[hart.hartid()]];
    const uint32_t off = pc - elf_.code_range().first;
    if (off / 2 < c.by_code_pc.size())
        c.by_code_pc[off / 2].add(delta(c, true));
    else
        c.by_pc[pc].add(delta(c, true));
}

std::map<uint32_t, Profile::Counters> Profile::by_pc(const CoreState& c) const {
    std::map<uint32_t, Counters> out(c.by_pc.begin(), c.by_pc.end());
    const uint32_t lo = elf_.code_range().first;
    for (size_t i = 0; i < c.by_code_pc.size(); ++i)
        if (c.by_code_pc[i].cycles || c.by_code_pc[i].instructions)
            out[lo + static_cast<uint32_t>(2 * i)].add(c.by_code_pc[i]);
    return out;
}

std::vector<Profile::Function> Profile::functions() const {
    const size_t n = cores_.size();
    std::vector<Function> out;
    std::unordered_map<uint32_t, size_t> index; // function start -> position in out
    Function unknown{"?", 0, std::vector<Counters>(n), {}};
    for (size_t core = 0; core < n; ++core)
        for (const auto& [pc, counters] : by_pc(cores_[core])) {
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
    Function after{"(after the last instruction)", 0, std::vector<Counters>(n), {}};
    for (size_t core = 0; core < n; ++core) {
        CoreState c = cores_[core];
        after.per_core[core] = delta(c, false);
        after.total.add(after.per_core[core]);
    }
    if (after.total.cycles || after.total.instructions) out.push_back(std::move(after));
    return out;
}

void Profile::print(std::ostream& os, size_t top) const {
    const std::vector<Function> fs = functions();
    uint64_t all = 0;
    for (const Function& f : fs)
        all += f.total.cycles;
    os << fmt::format("\nprofile: cycles per function, {} core{}{}\n", cores_.size(),
                      cores_.size() == 1 ? "" : "s",
                      cores_.size() == 1 ? "" : " summed (--profile-json for each core)");
    os << fmt::format("{:<32} {:>12} {:>7} {:>12}", "function", "cycles", "share", "instret");
    for (size_t k = 0; k < static_cast<size_t>(StallKind::Count); ++k)
        os << fmt::format(" {:>9.9}", stall_name(static_cast<StallKind>(k)));
    os << "\n";
    size_t shown = 0;
    for (const Function& f : fs) {
        const bool last_row = f.name == "(after the last instruction)";
        if (top && shown >= top && !last_row) continue;
        ++shown;
        os << fmt::format("{:<32.32} {:>12} {:>6.1f}% {:>12}", f.name, f.total.cycles,
                          all ? 100.0 * static_cast<double>(f.total.cycles) / static_cast<double>(all) : 0.0,
                          f.total.instructions);
        for (uint64_t s : f.total.stalls)
            os << fmt::format(" {:>9}", s);
        os << "\n";
    }
    if (top && fs.size() > shown)
        os << fmt::format("({} more functions in --profile-json)\n", fs.size() - shown);
}

nlohmann::ordered_json Profile::json() const {
    auto counters_json = [](const Counters& c) {
        nlohmann::ordered_json stalls;
        for (size_t k = 0; k < c.stalls.size(); ++k)
            stalls[stall_name(static_cast<StallKind>(k))] = c.stalls[k];
        return nlohmann::ordered_json{{"cycles", c.cycles}, {"instret", c.instructions}, {"stalls", stalls}};
    };
    nlohmann::ordered_json functions = nlohmann::ordered_json::array();
    for (const Function& f : this->functions()) {
        nlohmann::ordered_json j = {{"function", f.name}, {"address", fmt::format("{:#010x}", f.start)}};
        j["total"] = counters_json(f.total);
        nlohmann::ordered_json cores = nlohmann::ordered_json::array();
        for (size_t core = 0; core < f.per_core.size(); ++core) {
            nlohmann::ordered_json c = counters_json(f.per_core[core]);
            c["core"] = cores_[core].hart->hartid();
            cores.push_back(std::move(c));
        }
        j["cores"] = std::move(cores);
        functions.push_back(std::move(j));
    }
    return {{"functions", std::move(functions)}};
}

} // namespace pulpsim
