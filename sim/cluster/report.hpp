// The report of a run: a readable table, JSON and CSV. Everything in JSON/CSV is a function of the program
// and the configuration only (no host times), so identical runs give identical files.
#pragma once

#include "cluster/printable.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cluster/bare_system.hpp"

namespace pulpsim {

class ClusterMachine;
class TcdmInterconnect;
class FpuPool;
class InstructionCache;
class DmaEngine;

// What a report is made of, whichever platform ran.
struct RunView {
    std::string program;  // path of the ELF
    std::string platform; // "bare" or the platform's name
    std::vector<const Hart*> harts;
    const HostServices* host = nullptr;
    const TcdmInterconnect* tcdm = nullptr;   // null in bare mode
    const FpuPool* fpu_pool = nullptr;        // null in bare mode
    const InstructionCache* icache = nullptr; // null in bare mode and with a perfect cache
    const DmaEngine* dma = nullptr;           // null in bare mode
    bool private_fpus = false;
    std::vector<std::pair<std::string, std::string>> config;
    uint64_t cycles = 0; // of the whole run
    unsigned fpus = 0;   // FPUs the platform has (for the ideal MAC/cycle); 0: one per core
};

RunView run_view(const BareMachine& machine);
RunView run_view(const ClusterMachine& machine);

nlohmann::ordered_json report_json(const RunView& view, const RunOutcome& outcome);
std::string report_csv(const RunView& view, const RunOutcome& outcome);
void print_report_table(std::ostream& os, const RunView& view, const RunOutcome& outcome);

// Throws a one-line error naming `path` unless it can take a written file: an empty path, a directory, a
// FIFO or a device is refused (a symlink counts as its target). Nothing is created.
void check_output_path(const std::string& path);

// Writes several files all or nothing: every target is checked (check_output_path), each is written to a
// temporary beside it, and only when all are written are they renamed into place (a symlink's target is
// replaced, not the link). On failure no target changes and no temporary is left.
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files);
// The same with each file's contents written to it by a function (for outputs too large to hold whole).
using FileWriter = std::function<void(std::ostream&)>;
void write_files_atomically(const std::vector<std::pair<std::string, FileWriter>>& files);
void write_file_atomically(const std::string& path, const std::string& contents);

// One CSV field: quoted (with doubled quotes) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);

} // namespace pulpsim
