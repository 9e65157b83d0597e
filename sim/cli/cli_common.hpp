// What every `pulpsim` verb shares: the user-error type, number parsing, the version, and the verbs
// themselves (one file each: run.cpp, compare.cpp, sweep.cpp, regress.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace pulpsim::cli {

constexpr int kExitUsage = 2;
constexpr const char* kVersion = "0.1.0";

// A user mistake: reported as one line, exit status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A non-negative integer (decimal or 0x-hex, '_' and '\'' allowed as separators); UsageError otherwise.
uint64_t parse_number(const std::string& option, const std::string& text, uint64_t max = UINT64_MAX);

// The running executable's path (/proc/self/exe), for finding files built next to it.
std::string self_executable();

int command_run(const std::vector<std::string>& args);
int command_compare(const std::vector<std::string>& args);
int command_sweep(const std::vector<std::string>& args);
int command_regress(const std::vector<std::string>& args);

} // namespace pulpsim::cli
