// The report of a run: a readable table, JSON and CSV. Everything in JSON/CSV is a function of the program
// and the configuration only (no host times), so identical runs give identical files.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "cluster/bare_system.hpp"

namespace pulpsim {

nlohmann::ordered_json report_json(const BareMachine& machine, const RunOutcome& outcome);
std::string report_csv(const BareMachine& machine, const RunOutcome& outcome);
void print_report_table(std::ostream& os, const BareMachine& machine, const RunOutcome& outcome);

// Writes `contents` to `path` through a temporary file and a rename, so a failed run leaves no partial file.
void write_file_atomically(const std::string& path, const std::string& contents);

} // namespace pulpsim
