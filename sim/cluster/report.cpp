#include "cluster/report.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "cluster/cluster_system.hpp"
#include "cluster/fpu_pool.hpp"
#include "cluster/instruction_cache.hpp"
#include "dma/dma_engine.hpp"
#include "memory/tcdm_interconnect.hpp"

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

using StallArray = std::array<uint64_t, static_cast<size_t>(StallKind::Count)>;

nlohmann::ordered_json stalls_json(const StallArray& s) {
    nlohmann::ordered_json j;
    for (size_t k = 0; k < s.size(); ++k)
        j[stall_name(static_cast<StallKind>(k))] = s[k];
    return j;
}

// The run's MACs: those its outermost perf regions declare (a nested region's are its enclosing one's).
uint64_t declared_macs(const RunView& v) {
    uint64_t macs = 0;
    for (const RegionRecord& r : v.host->regions())
        macs += r.outermost_macs;
    return macs;
}

uint64_t total_instret(const RunView& v) {
    uint64_t n = 0;
    for (const Hart* h : v.harts)
        n += h->stats().instret();
    return n;
}

// What a region did with the DMA, and whether the DMA or the computation set its length.
struct RegionDma {
    double utilisation = 0;           // share of the region's cycles with a transfer in flight
    double bandwidth_utilisation = 0; // bytes moved / bytes the configured bandwidth allows
    double overlap = 0;               // share of the DMA's busy cycles hidden behind computation
    const char* verdict = "no-dma";
};

RegionDma region_dma(const RegionRecord& r, const DmaEngine& dma) {
    RegionDma d;
    const uint64_t bytes = r.dma.bytes_in + r.dma.bytes_out;
    if (bytes == 0 || r.cycles == 0) return d;
    const uint64_t busy = r.dma.busy_cycles, exposed = std::min(r.dma_exposed_cycles, r.cycles);
    const uint64_t per_cycle = dma.config().bandwidth_bits / 8 * (dma.config().full_duplex ? 2 : 1);
    d.utilisation = ratio(busy, r.cycles);
    d.bandwidth_utilisation = ratio(bytes, r.cycles * per_cycle);
    d.overlap = ratio(busy - std::min(busy, exposed), busy);
    // The cores computed for cycles - exposed cycles; the DMA worked for busy cycles. The longer one set
    // the pace.
    d.verdict = busy > r.cycles - exposed ? "dma-bound" : "compute-bound";
    return d;
}

// Sums over the core ports (below first) or the DMA ports of the interconnect.
struct DmaContention {
    uint64_t cores_stalled = 0; // cycles cores waited for a bank the DMA held
    uint64_t dma_stalled = 0;   // word-cycles the DMA waited for a bank a core held
};

DmaContention dma_contention(const TcdmInterconnect& tcdm) {
    DmaContention c;
    const auto& ports = tcdm.counters().ports;
    for (unsigned p = 0; p < ports.size(); ++p) {
        if (p < tcdm.config().first_dma_port)
            c.cores_stalled += ports[p].waited_on_dma;
        else
            c.dma_stalled += ports[p].contention_cycles - ports[p].waited_on_dma;
    }
    return c;
}

// FP operations one cycle can start: one per FPU.
unsigned ideal_macs_per_cycle(const RunView& v) {
    return v.fpus ? v.fpus : static_cast<unsigned>(v.harts.size());
}

} // namespace

RunView run_view(const BareMachine& m) {
    RunView v;
    v.program = m.elf().path();
    v.platform = "bare";
    v.harts = {&m.hart()};
    v.host = &m.host();
    const CoreTiming& t = m.options().timing;
    v.config = {{"fpu.addmul_latency", std::to_string(t.fpu_addmul_latency)},
                {"fpu.other_latency", std::to_string(t.fpu_other_latency)},
                {"fpu.divsqrt_latency", std::to_string(t.fdiv_latency)},
                {"fpu.divsqrt_exact_latency", std::to_string(t.fdiv_exact_latency)}};
    v.cycles = m.hart().cycle();
    v.fpus = 1;
    return v;
}

RunView run_view(const ClusterMachine& m) {
    RunView v;
    v.program = m.elf().path();
    v.platform = m.config().platform.name;
    for (const auto& h : m.harts())
        v.harts.push_back(h.get());
    v.host = &m.host();
    v.tcdm = &m.tcdm();
    v.fpu_pool = &m.fpu_pool();
    v.icache = m.icache();
    v.dma = &m.dma();
    v.private_fpus = m.private_fpus();
    v.config = describe(m.config());
    v.cycles = m.cycles();
    v.fpus = std::min<unsigned>(m.config().fpu.count, m.config().total_cores());
    return v;
}

nlohmann::ordered_json report_json(const RunView& v, const RunOutcome& out) {
    nlohmann::ordered_json j;
    j["program"] = std::filesystem::path(v.program).filename().string();
    j["platform"] = v.platform;
    j["outcome"] = outcome_name(out.kind);
    // The program's whole value; the process's own exit status keeps only 8 bits of it.
    j["exit_code"] = out.kind == RunOutcome::Kind::Exit ? int64_t{out.exit_value} : int64_t{out.exit_status};
    if (!out.message.empty()) j["message"] = out.message;
    j["cycles"] = v.cycles;
    j["instret"] = total_instret(v);
    j["ipc"] = ratio(total_instret(v), v.cycles);
    const uint64_t run_macs = declared_macs(v);
    j["macs"] = run_macs;
    j["mac_per_cycle"] = ratio(run_macs, v.cycles);
    j["ideal_mac_per_cycle"] = ideal_macs_per_cycle(v);

    nlohmann::ordered_json cores = nlohmann::ordered_json::array();
    for (const Hart* h : v.harts) {
        const CoreStats& st = h->stats();
        nlohmann::ordered_json core;
        core["id"] = h->hartid();
        core["cycles"] = h->cycle();
        core["instret"] = st.instret();
        core["cpi"] = ratio(h->cycle(), st.instret());
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
        counters["mul_div"] =
            st.count(InsnClass::Mul) + st.count(InsnClass::MulHigh) + st.count(InsnClass::Div);
        counters["csr"] = st.count(InsnClass::Csr);
        counters["hwloop_setup"] = st.count(InsnClass::HwLoop);
        // Of the dma_wait stall: pushes into a full DMA command queue (awake, waiting for the load's answer).
        counters["dma_queue_full_cycles"] = st.dma_queue_full_cycles;
        core["counters"] = counters;
        if (v.icache) {
            const InstructionCacheCounters& ic = v.icache->counters(h->hartid());
            core["icache"] = {{"line_fetches", ic.fetches},
                              {"l0_misses", ic.l0_misses},
                              {"l1_misses", ic.l1_misses},
                              {"stall_cycles", ic.stall_cycles}};
        }
        cores.push_back(core);
    }
    j["cores"] = cores;

    nlohmann::ordered_json regions = nlohmann::ordered_json::array();
    for (const RegionRecord& r : v.host->regions()) {
        nlohmann::ordered_json rj;
        rj["name"] = r.name;
        rj["count"] = r.count;
        rj["cycles"] = r.cycles;
        rj["instret"] = r.instret;
        rj["macs"] = r.macs;
        rj["mac_per_cycle"] = ratio(r.macs, r.cycles);
        rj["ideal_mac_per_cycle"] = ideal_macs_per_cycle(v);
        rj["fpu_utilisation"] = ratio(r.macs, r.cycles * ideal_macs_per_cycle(v));
        rj["stalls"] = stalls_json(r.stalls);
        if (v.dma) {
            const RegionDma d = region_dma(r, *v.dma);
            rj["dma"] = {{"bytes_in", r.dma.bytes_in},
                         {"bytes_out", r.dma.bytes_out},
                         {"busy_cycles", r.dma.busy_cycles},
                         {"exposed_wait_cycles", r.dma_exposed_cycles},
                         {"utilisation", d.utilisation},
                         {"bandwidth_utilisation", d.bandwidth_utilisation},
                         {"overlap", d.overlap},
                         {"verdict", d.verdict}};
        }
        regions.push_back(rj);
    }
    j["regions"] = regions;

    if (v.tcdm) {
        nlohmann::ordered_json banks = nlohmann::ordered_json::array();
        const TcdmCounters& c = v.tcdm->counters();
        for (size_t b = 0; b < c.banks.size(); ++b)
            banks.push_back(
                {{"bank", b}, {"accesses", c.banks[b].accesses}, {"conflicts", c.banks[b].conflict_cycles}});
        j["tcdm"] = {{"accesses", c.accesses()}, {"conflicts", c.conflict_cycles()}, {"banks", banks}};
    }
    if (v.dma && v.tcdm) {
        const DmaCounters& c = v.dma->counters();
        const DmaActivity a = v.dma->activity(v.cycles);
        const DmaContention k = dma_contention(*v.tcdm);
        j["dma"] = {{"bandwidth_bits", v.dma->config().bandwidth_bits},
                    {"duplex", v.dma->config().full_duplex ? "full-duplex" : "half-duplex"},
                    {"transfers", c.transfers_completed},
                    {"bytes_in", c.bytes_in},
                    {"bytes_out", c.bytes_out},
                    {"busy_cycles", a.busy_cycles},
                    {"utilisation", ratio(a.busy_cycles, v.cycles)},
                    {"moving_cycles", c.active_cycles},
                    {"bank_stall_cycles", c.bank_stall_cycles},
                    {"stalled_by_cores_cycles", k.dma_stalled},
                    {"stalled_cores_cycles", k.cores_stalled},
                    {"latency_mean", ratio(c.latency_sum, c.transfers_completed)},
                    {"latency_max", c.latency_max}};
    }
    if (v.fpu_pool) {
        const FpuPool& p = *v.fpu_pool;
        nlohmann::ordered_json units = nlohmann::ordered_json::array();
        for (unsigned f = 0; f < p.fpu_count(); ++f) {
            // Private FPUs are the cores' own: their operations are the core's FP instructions.
            const uint64_t ops = v.private_fpus && f < v.harts.size()
                                     ? v.harts[f]->stats().count(InsnClass::Fp) +
                                           v.harts[f]->stats().count(InsnClass::FpDivSqrt)
                                     : p.fpu(f).operations;
            units.push_back({{"fpu", f},
                             {"operations", ops},
                             {"busy_cycles", v.private_fpus ? ops : p.fpu(f).busy_cycles},
                             {"contention_cycles", p.fpu(f).contention_cycles}});
        }
        nlohmann::ordered_json divsqrt = nlohmann::ordered_json::array();
        for (unsigned u = 0; u < p.divsqrt_unit_count(); ++u)
            divsqrt.push_back({{"unit", u},
                               {"operations", p.divsqrt_unit(u).operations},
                               {"busy_cycles", p.divsqrt_unit(u).busy_cycles},
                               {"contention_cycles", p.divsqrt_unit(u).contention_cycles}});
        j["fpus"] = {{"mapping", p.mapping()}, {"units", units}, {"divsqrt_units", divsqrt}};
    }
    nlohmann::ordered_json cfg;
    for (const auto& [key, value] : v.config)
        cfg[key] = value;
    j["config"] = cfg;
    return j;
}

std::string report_csv(const RunView& v, const RunOutcome& out) {
    std::string csv = "scope,name,cycles,instret,macs,mac_per_cycle";
    for (size_t k = 0; k < static_cast<size_t>(StallKind::Count); ++k)
        csv += fmt::format(",{}", stall_name(static_cast<StallKind>(k)));
    csv += "\n";
    // The run as a whole first, named by its outcome: the rows of a run that failed are no result.
    const uint64_t run_macs = declared_macs(v);
    csv += fmt::format("run,{},{},{},{},{:.6f}\n", outcome_name(out.kind), v.cycles, total_instret(v),
                       run_macs, ratio(run_macs, v.cycles));
    for (const Hart* h : v.harts) {
        csv += fmt::format("core,{},{},{},,", h->hartid(), h->cycle(), h->stats().instret());
        for (auto s : h->stats().stall_cycles)
            csv += fmt::format(",{}", s);
        csv += "\n";
    }
    for (const RegionRecord& r : v.host->regions()) {
        csv += fmt::format("region,{},{},{},{},{:.6f}", csv_field(r.name), r.cycles, r.instret, r.macs,
                           ratio(r.macs, r.cycles));
        for (auto s : r.stalls)
            csv += fmt::format(",{}", s);
        csv += "\n";
    }
    if (v.tcdm) {
        const TcdmCounters& c = v.tcdm->counters();
        for (size_t b = 0; b < c.banks.size(); ++b)
            csv += fmt::format("bank,{},,{},,{}\n", b, c.banks[b].accesses, c.banks[b].conflict_cycles);
    }
    if (v.fpu_pool && !v.private_fpus) {
        const FpuPool& p = *v.fpu_pool;
        for (unsigned f = 0; f < p.fpu_count(); ++f)
            csv += fmt::format("fpu,{},{},{},,{}\n", f, p.fpu(f).busy_cycles, p.fpu(f).operations,
                               p.fpu(f).contention_cycles);
    }
    return csv;
}

void print_report_table(std::ostream& os, const RunView& v, const RunOutcome& out) {
    const uint64_t instret = total_instret(v);
    os << fmt::format("\n== pulpsim report: {} ({}, {} core{}) ==\n", v.program,
                      v.platform == "bare" ? "bare mode" : "platform " + v.platform, v.harts.size(),
                      v.harts.size() == 1 ? "" : "s");
    os << fmt::format("outcome        {} (exit code {})\n", outcome_name(out.kind),
                      out.kind == RunOutcome::Kind::Exit ? int64_t{out.exit_value}
                                                         : int64_t{out.exit_status});
    os << fmt::format("cycles         {}\n", v.cycles);
    os << fmt::format("instructions   {}\n", instret);
    os << fmt::format("IPC            {:.3f}\n", ratio(instret, v.cycles));
    const uint64_t run_macs = declared_macs(v);
    if (run_macs)
        os << fmt::format(
            "MAC/cycle      {:.3f} over the whole run (ideal {}; {} MACs declared by regions)\n",
            ratio(run_macs, v.cycles), ideal_macs_per_cycle(v), run_macs);
    os << fmt::format("host speed     {:.1f} M instr/s ({:.3f} s)\n",
                      out.host_seconds > 0 ? static_cast<double>(instret) / out.host_seconds / 1e6 : 0.0,
                      out.host_seconds);

    os << fmt::format("\n{:<6}{:>12}{:>12}{:>9}", "core", "cycles", "instret", "CPI");
    const size_t kinds = static_cast<size_t>(StallKind::Count);
    for (size_t k = 0; k < kinds; ++k) {
        std::string name = stall_name(static_cast<StallKind>(k));
        os << fmt::format("{:>10}", name.substr(0, 9));
    }
    os << "\n";
    for (const Hart* h : v.harts) {
        const CoreStats& st = h->stats();
        // A space before each figure keeps a wider one (an idle controller's CPI) apart from its neighbour.
        os << fmt::format("{:<6}{:>12}{:>12} {:>8.2f}", h->hartid(), h->cycle(), st.instret(),
                          ratio(h->cycle(), st.instret()));
        for (size_t k = 0; k < kinds; ++k)
            os << fmt::format(" {:>9}", st.stall_cycles[k]);
        os << "\n";
    }
    if (v.harts.size() == 1) {
        const CoreStats& st = v.harts[0]->stats();
        os << fmt::format("\nloads {}  stores {}  branches {} (taken {})  jumps {}  compressed {}\n",
                          st.loads(), st.stores(), st.count(InsnClass::Branch), st.branches_taken,
                          st.count(InsnClass::Jump), st.compressed());
    }
    if (v.tcdm) {
        const TcdmCounters& c = v.tcdm->counters();
        os << fmt::format("\nTCDM: {} accesses, {} conflict cycles ({:.2f}%)", c.accesses(),
                          c.conflict_cycles(), 100.0 * ratio(c.conflict_cycles(), c.accesses()));
        // The DMA's words wait for banks too, mostly behind its own other words: shown apart, as no core
        // waits them.
        uint64_t dma_waits = 0;
        for (size_t p = v.tcdm->config().first_dma_port; p < c.ports.size(); ++p)
            dma_waits += c.ports[p].contention_cycles;
        if (dma_waits > 0)
            os << fmt::format(": cores {}, DMA {}", c.conflict_cycles() - dma_waits, dma_waits);
        os << "\n";
        os << "bank conflicts:";
        for (size_t b = 0; b < c.banks.size(); ++b)
            os << fmt::format(" {}:{}", b, c.banks[b].conflict_cycles);
        os << "\n";
    }
    if (v.fpu_pool) {
        const FpuPool& p = *v.fpu_pool;
        os << fmt::format("\nFPUs ({}): ", p.mapping());
        if (v.private_fpus)
            os << "one per core, no contention possible";
        else
            for (unsigned f = 0; f < p.fpu_count(); ++f)
                os << fmt::format(" {}: {} ops, {} busy, {} contention;", f, p.fpu(f).operations,
                                  p.fpu(f).busy_cycles, p.fpu(f).contention_cycles);
        os << "\n";
    }
    const bool dma_used = v.dma && v.dma->counters().transfers_completed + v.dma->issued() > 0;
    if (dma_used && v.tcdm) {
        const DmaCounters& c = v.dma->counters();
        const DmaActivity a = v.dma->activity(v.cycles);
        const DmaContention k = dma_contention(*v.tcdm);
        os << fmt::format("\nDMA ({} bit/cycle, {}): {} transfers, {} bytes in, {} bytes out; busy {} cycles "
                          "({:.1f}%); latency mean {:.0f}, max {}\n",
                          v.dma->config().bandwidth_bits,
                          v.dma->config().full_duplex ? "full-duplex" : "half-duplex", c.transfers_completed,
                          c.bytes_in, c.bytes_out, a.busy_cycles, 100.0 * ratio(a.busy_cycles, v.cycles),
                          ratio(c.latency_sum, c.transfers_completed), c.latency_max);
        os << fmt::format("DMA and cores: the DMA waited {} cycles for banks ({} word-cycles behind cores); "
                          "cores waited {} cycles behind the DMA\n",
                          c.bank_stall_cycles, k.dma_stalled, k.cores_stalled);
    }
    const auto& regions = v.host->regions();
    if (!regions.empty()) {
        os << fmt::format("\n{:<20}{:>6}{:>14}{:>14}{:>12}{:>10}{:>10}", "region", "runs", "cycles",
                          "instret", "MACs", "MAC/cyc", "FPU util");
        if (dma_used) os << fmt::format("{:>10}{:>10}{:>15}", "DMA busy", "overlap", "bound by");
        os << "\n";
        for (const RegionRecord& r : regions) {
            os << fmt::format("{:<20} {:>5} {:>13} {:>13} {:>11} {:>9.3f} {:>8.1f}%", printable(r.name),
                              r.count, r.cycles, r.instret, r.macs, ratio(r.macs, r.cycles),
                              100.0 * ratio(r.macs, r.cycles * ideal_macs_per_cycle(v)));
            if (dma_used) {
                const RegionDma d = region_dma(r, *v.dma);
                os << fmt::format(" {:>8.1f}% {:>8.1f}% {:>14}", 100.0 * d.utilisation, 100.0 * d.overlap,
                                  d.verdict);
            }
            os << "\n";
        }
    }
    os.flush();
}

namespace {

// The file a write to `path` ends in: the target of a symlink (its own path otherwise).
std::filesystem::path write_target(const std::string& path) {
    std::error_code ec;
    std::filesystem::path p(path);
    for (int hops = 0; hops < 40 && std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec));
         ++hops) {
        const auto next = std::filesystem::read_symlink(p, ec);
        if (ec) break;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return p;
}

} // namespace

void check_output_path(const std::string& path) {
    if (path.empty()) throw std::runtime_error("an output file was given as an empty path");
    if (path == "-")
        throw std::runtime_error("-: cannot write: these files are written whole, not to standard output");
    std::error_code ec;
    const auto target = write_target(path);
    auto st = std::filesystem::status(target, ec);
    // A link the kernel resolves (/dev/stdout to a pipe) names no path write_target can follow.
    if (!std::filesystem::exists(st)) st = std::filesystem::status(path, ec);
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
        throw std::runtime_error(
            fmt::format("{}: cannot write: {}", path,
                        std::filesystem::is_directory(st) ? "is a directory" : "not a regular file"));
    // A file its owner made read-only is not replaced behind their back.
    if (std::filesystem::exists(st) && access(target.c_str(), W_OK) != 0)
        throw std::runtime_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    if (!std::filesystem::is_directory(dir, ec))
        throw std::runtime_error(fmt::format("{}: cannot write: no folder {}", path, dir.string()));
    // The file is written beside its target and renamed into place: the folder must take new files.
    if (access(dir.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(
            fmt::format("{}: cannot write into {}: {}", path, dir.string(), std::strerror(errno)));
}

void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<std::pair<std::string, FileWriter>> writers;
    for (const auto& [path, contents] : files)
        writers.emplace_back(path, [&contents = contents](std::ostream& os) { os << contents; });
    write_files_atomically(writers);
}

void write_files_atomically(const std::vector<std::pair<std::string, FileWriter>>& files) {
    for (const auto& [path, writer] : files)
        check_output_path(path);
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged; // temporary, target
    std::error_code ec;
    auto discard = [&] {
        for (const auto& [tmp, target] : staged)
            std::filesystem::remove(tmp, ec);
    };
    for (const auto& [path, writer] : files) {
        const auto target = write_target(path);
        auto tmp = target;
        tmp += fmt::format(".tmp{}", static_cast<long>(getpid()));
        staged.emplace_back(tmp, target);
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f.is_open()) {
            const std::string why = std::strerror(errno);
            discard();
            throw std::runtime_error(fmt::format("{}: cannot write: {}", path, why));
        }
        try {
            writer(f);
        } catch (...) {
            f.close();
            discard();
            throw;
        }
        if (!f.flush()) {
            const std::string why = errno ? std::strerror(errno) : "a write failed";
            f.close();
            discard();
            throw std::runtime_error(fmt::format("{}: cannot write: {}", path, why));
        }
    }
    for (size_t i = 0; i < staged.size(); ++i) {
        // A file replaced keeps its permissions.
        const auto kept = std::filesystem::status(staged[i].second, ec);
        if (!ec && std::filesystem::exists(kept))
            std::filesystem::permissions(staged[i].first, kept.permissions(), ec);
        std::filesystem::rename(staged[i].first, staged[i].second, ec);
        if (ec) {
            const std::string why = ec.message(); // before discard() reuses ec
            discard();
            throw std::runtime_error(fmt::format("{}: cannot write: {}", files[i].first, why));
        }
    }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
    write_files_atomically({{path, contents}});
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace pulpsim
