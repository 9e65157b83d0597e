#include "cluster/report.hpp"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

namespace pulpsim {
namespace {

const char* outcome_name(RunOutcome::Kind k) {
    switch (k) {
    case RunOutcome::Kind::Exit: return "exit";
    case RunOutcome::Kind::Error: return "error";
    case RunOutcome::Kind::MaxCycles: return "max_cycles";
    }
    return "?";
}

double ratio(uint64_t a, uint64_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

nlohmann::ordered_json stalls_json(const std::array<uint64_t, static_cast<size_t>(StallKind::Count)>& s) {
    nlohmann::ordered_json j;
    for (size_t k = 0; k < s.size(); ++k)
        j[stall_name(static_cast<StallKind>(k))] = s[k];
    return j;
}

} // namespace

nlohmann::ordered_json report_json(const BareMachine& sys, const RunOutcome& out) {
    const Hart& h = sys.hart();
    const CoreStats& st = h.stats();
    nlohmann::ordered_json j;
    j["program"] = std::filesystem::path(sys.elf().path()).filename().string();
    j["platform"] = "bare";
    j["outcome"] = outcome_name(out.kind);
    j["exit_code"] = out.exit_status;
    if (!out.message.empty()) j["message"] = out.message;
    j["cycles"] = h.cycle();
    j["instret"] = st.instret;
    j["ipc"] = ratio(st.instret, h.cycle());

    nlohmann::ordered_json core;
    core["id"] = h.hartid();
    core["cycles"] = h.cycle();
    core["instret"] = st.instret;
    core["cpi"] = ratio(h.cycle(), st.instret);
    core["stalls"] = stalls_json(st.stall_cycles);
    nlohmann::ordered_json counters;
    counters["loads"] = st.loads();
    counters["stores"] = st.stores();
    counters["branches"] = st.count(InsnClass::Branch);
    counters["branches_taken"] = st.branches_taken;
    counters["jumps"] = st.count(InsnClass::Jump);
    counters["compressed"] = st.compressed();
    counters["load_use_hazards"] = st.load_use_hazards;
    counters["jump_register_hazards"] = st.jump_register_hazards;
    counters["fp_instructions"] = st.count(InsnClass::Fp) + st.count(InsnClass::FpDivSqrt);
    counters["mul_div"] = st.count(InsnClass::Mul) + st.count(InsnClass::MulHigh) + st.count(InsnClass::Div);
    counters["csr"] = st.count(InsnClass::Csr);
    counters["hwloop_setup"] = st.count(InsnClass::HwLoop);
    core["counters"] = counters;
    j["cores"] = nlohmann::ordered_json::array({core});

    nlohmann::ordered_json regions = nlohmann::ordered_json::array();
    for (const RegionRecord& r : sys.host().regions()) {
        nlohmann::ordered_json rj;
        rj["name"] = r.name;
        rj["count"] = r.count;
        rj["cycles"] = r.cycles;
        rj["instret"] = r.instret;
        rj["macs"] = r.macs;
        rj["mac_per_cycle"] = ratio(r.macs, r.cycles);
        rj["stalls"] = stalls_json(r.stalls);
        regions.push_back(rj);
    }
    j["regions"] = regions;

    const CoreTiming& t = sys.options().timing;
    nlohmann::ordered_json cfg;
    cfg["core.fpu_addmul_latency"] = t.fpu_addmul_latency;
    cfg["core.fpu_other_latency"] = t.fpu_other_latency;
    cfg["core.fdiv_latency"] = t.fdiv_latency;
    cfg["core.fdiv_exact_latency"] = t.fdiv_exact_latency;
    j["config"] = cfg;
    return j;
}

std::string report_csv(const BareMachine& sys, const RunOutcome&) {
    const Hart& h = sys.hart();
    const CoreStats& st = h.stats();
    std::string csv = "scope,name,cycles,instret,macs,mac_per_cycle";
    for (size_t k = 0; k < st.stall_cycles.size(); ++k)
        csv += fmt::format(",{}", stall_name(static_cast<StallKind>(k)));
    csv += "\n";
    csv += fmt::format("run,total,{},{},,", h.cycle(), st.instret);
    for (auto v : st.stall_cycles)
        csv += fmt::format(",{}", v);
    csv += "\n";
    for (const RegionRecord& r : sys.host().regions()) {
        csv += fmt::format("region,{},{},{},{},{:.6f}", r.name, r.cycles, r.instret, r.macs,
                           ratio(r.macs, r.cycles));
        for (auto v : r.stalls)
            csv += fmt::format(",{}", v);
        csv += "\n";
    }
    return csv;
}

void print_report_table(std::ostream& os, const BareMachine& sys, const RunOutcome& out) {
    const Hart& h = sys.hart();
    const CoreStats& st = h.stats();
    os << fmt::format("\n== pulpsim report: {} (bare mode, 1 core) ==\n", sys.elf().path());
    os << fmt::format("outcome        {} (exit code {})\n", outcome_name(out.kind), out.exit_status);
    os << fmt::format("cycles         {}\n", h.cycle());
    os << fmt::format("instructions   {}\n", st.instret);
    os << fmt::format("CPI            {:.3f}\n", ratio(h.cycle(), st.instret));
    os << fmt::format("host speed     {:.1f} M instr/s ({:.3f} s)\n",
                      out.host_seconds > 0 ? static_cast<double>(st.instret) / out.host_seconds / 1e6 : 0.0,
                      out.host_seconds);
    os << "\nstall cycles\n";
    for (size_t k = 0; k < st.stall_cycles.size(); ++k)
        os << fmt::format("  {:<16}{:>14}  {:5.1f}%\n", stall_name(static_cast<StallKind>(k)),
                          st.stall_cycles[k], 100.0 * ratio(st.stall_cycles[k], h.cycle()));
    os << fmt::format("\nloads {}  stores {}  branches {} (taken {})  jumps {}  compressed {}\n", st.loads(),
                      st.stores(), st.count(InsnClass::Branch), st.branches_taken, st.count(InsnClass::Jump),
                      st.compressed());
    const auto& regions = sys.host().regions();
    if (!regions.empty()) {
        os << fmt::format("\n{:<20}{:>6}{:>14}{:>14}{:>12}{:>10}\n", "region", "runs", "cycles", "instret",
                          "MACs", "MAC/cyc");
        for (const RegionRecord& r : regions)
            os << fmt::format("{:<20}{:>6}{:>14}{:>14}{:>12}{:>10.3f}\n", r.name, r.count, r.cycles,
                              r.instret, r.macs, ratio(r.macs, r.cycles));
    }
    os.flush();
}

void write_file_atomically(const std::string& path, const std::string& contents) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) throw std::runtime_error(fmt::format("{}: cannot open for writing", path));
        f << contents;
        if (!f.flush()) throw std::runtime_error(fmt::format("{}: write failed", path));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error(fmt::format("{}: cannot write: {}", path, ec.message()));
    }
}

} // namespace pulpsim
