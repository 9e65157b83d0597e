// What every `pulpsim` verb shares: the user-error type, number parsing, the version, and the verbs
// themselves (one file each: run.cpp, compare.cpp, sweep.cpp, regress.cpp, autotune.cpp).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

// Defined in a build with AddressSanitizer (GCC or clang).
#if defined(__SANITIZE_ADDRESS__)
#define PULPSIM_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PULPSIM_ADDRESS_SANITIZER 1
#endif
#endif

namespace pulpsim {
class ElfImage;
struct PlatformConfig;
} // namespace pulpsim

namespace pulpsim::cli {

constexpr int kExitUsage = 2;
constexpr const char* kVersion = "0.1.0";

// A user mistake: reported as one line, exit status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A non-negative integer (decimal or 0x-hex, '_' and '\'' allowed as separators); UsageError otherwise.
uint64_t parse_number(const std::string& option, const std::string& text, uint64_t max = UINT64_MAX);
// "1 core", "8 cores": a count and its noun, which takes an "s" (or is `plural`) unless the count is 1.
inline std::string counted(uint64_t n, const std::string& noun, const std::string& plural = "") {
    return std::to_string(n) + " " + (n == 1 ? noun : plural.empty() ? noun + "s" : plural);
}

// A verb's command line, parsed as po::command_line_parser would (`positional` may be null). A negative
// value for an option of unsigned type is a po::error: Boost would wrap "-1" to a huge count.
boost::program_options::parsed_options
parse_command_line(const std::vector<std::string>& args,
                   const boost::program_options::options_description& options,
                   const boost::program_options::positional_options_description* positional = nullptr);

// check_output_path, its error a UsageError naming `option`.
void check_output_option(const std::string& option, const std::string& path);
// Whether two paths name one file: other spellings of a file that may not exist yet, or links to one.
bool names_same_file(const std::string& a, const std::string& b);
// An SQLite database and the files SQLite keeps beside it (its logs), which an output must not replace
// either: (what it is, path) pairs, `what` naming the database as `option`.
std::vector<std::pair<std::string, std::string>> database_files(const std::string& option,
                                                                const std::string& db);
// Before anything runs: outputs (option, path) that would replace an input (what it is, path) or one another.
void check_outputs_apart(const std::vector<std::pair<std::string, std::string>>& outputs,
                         const std::vector<std::pair<std::string, std::string>>& inputs);
// Throws a UsageError naming `option` unless `path` can take a plot: a name ending in .png, .svg or .pdf
// (what the plot scripts draw), in a folder that exists. Checked before anything runs.
void check_plot_path(const std::string& option, const std::string& path);
// Makes the folder `path` goes in (a database, a tuning file), as `mkdir -p` would; a UsageError naming
// `option` when it cannot.
void make_parent_folder(const std::string& option, const std::string& path);

// A cluster program linked for fewer cores than `config` has (its start-up code would stop the extra
// cores with exit code 127): a UsageError naming the program and the relink that fixes it.
void check_program_cores(const std::string& program, const ElfImage& elf, const PlatformConfig& config);
// A comparison program takes a step's shape through these symbols (runs::StepMeasure::symbols): a program
// without them would run its own work and report it as the step's.
void check_comparison_program(const std::string& program, const ElfImage& elf, const std::string& layer,
                              const std::vector<std::pair<std::string, uint32_t>>& symbols);
// The running executable's path (/proc/self/exe), for finding files built next to it.
std::string self_executable();
// A kernel program built with this executable: <build>/bin/pulpsim -> <build>/kernels/<name>.
std::string built_kernel(const std::string& name);
// The TCDM a cluster program leaves free after its stacks (l1_free_bytes() in kernels/runtime/dma.c):
// 0 if the ELF has no cluster runtime.
uint64_t free_tcdm_bytes(const ElfImage& elf, const PlatformConfig& config);

// What the runner's points call in their forked process: `pulpsim run` with the command line's error
// handling. Empty in an AddressSanitizer build, whose points are executed afresh instead: SystemC's
// thread stacks in a forked child make the sanitizer print stack warnings into the point's error line.
std::function<int(const std::vector<std::string>&)> point_run_verb();

// Runs a helper script of the source tree (scripts/*.py) with the Python that imports matplotlib and
// waits for it: its exit status as runs::run_capturing gives it, or -1 when no process could be made. Its
// standard error goes on to ours when it exits with 0 or `passed_status`; otherwise its last line (what a
// Python traceback ends with) goes to `why`, for the caller's one-line error.
int run_python_script(const std::string& script, const std::vector<std::string>& args, std::string& why,
                      int passed_status = 0);

int command_run(const std::vector<std::string>& args);
int command_compare(const std::vector<std::string>& args);
int command_sweep(const std::vector<std::string>& args);
int command_regress(const std::vector<std::string>& args);
int command_autotune(const std::vector<std::string>& args);

} // namespace pulpsim::cli
