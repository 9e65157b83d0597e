#include "cli/cli_common.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cluster/platform_config.hpp"
#include "cluster/printable.hpp"
#include "cluster/report.hpp"
#include "memory/elf_image.hpp"
#include "runs/child_process.hpp"

namespace pulpsim::cli {

uint64_t parse_number(const std::string& option, const std::string& text, uint64_t max) {
    std::string digits;
    for (char c : text)
        if (c != '_' && c != '\'') digits += c;
    size_t used = 0;
    uint64_t v = 0;
    try {
        if (!digits.empty() && digits[0] == '-') throw std::invalid_argument("negative");
        // Hexadecimal with 0x; a leading 0 is decimal, as in the YAML files, not octal.
        const bool hex = digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
        v = std::stoull(digits, &used, hex ? 16 : 10);
    } catch (const std::exception&) {
        used = 0;
    }
    // Or a whole number in scientific notation, as the files take it (--max-cycles 1e9).
    if ((digits.empty() || used != digits.size()) && !digits.empty() && digits[0] != '-')
        if (const auto count = parse_count(digits)) {
            used = digits.size();
            v = *count;
        }
    if (digits.empty() || used != digits.size()) {
        // A whole number too large for 64 bits (1e20, 2^64) is too large, not malformed.
        char* end = nullptr;
        const long double as_real = std::strtold(digits.c_str(), &end);
        if (!digits.empty() && digits[0] != '-' && end == digits.c_str() + digits.size() && as_real > max)
            throw UsageError(fmt::format("{}: {} is larger than {}", option, text, max));
        throw UsageError(fmt::format("{}: '{}' is not a non-negative integer", option, text));
    }
    if (v > max) throw UsageError(fmt::format("{}: {} is larger than {}", option, text, max));
    return v;
}

namespace {

template <typename... T> bool takes_unsigned(const boost::program_options::value_semantic* semantic) {
    return ((dynamic_cast<const boost::program_options::typed_value<T>*>(semantic) != nullptr) || ...);
}

} // namespace

boost::program_options::parsed_options
parse_command_line(const std::vector<std::string>& args,
                   const boost::program_options::options_description& options,
                   const boost::program_options::positional_options_description* positional) {
    namespace po = boost::program_options;
    po::command_line_parser parser(args);
    parser.options(options);
    if (positional != nullptr) parser.positional(*positional);
    po::parsed_options parsed(&options);
    try {
        parsed = parser.run();
    } catch (const po::unknown_option& e) {
        // A misspelt long option: name the one it likely meant.
        const std::string name = e.get_option_name();
        if (!name.starts_with("--")) throw;
        std::vector<std::string> known;
        for (const auto& d : options.options())
            known.push_back(d->long_name());
        const auto best = closest_name(name.substr(2), known);
        if (!best) throw;
        throw po::error(fmt::format("{} (did you mean '--{}'?)", e.what(), *best));
    } catch (const po::too_many_positional_options_error&) {
        if (positional == nullptr) throw;
        // Boost's message does not say which argument is one too many: parse again with a place for the rest.
        po::options_description with_rest;
        with_rest.add(options).add_options()("unexpected-arguments", po::value<std::vector<std::string>>());
        po::positional_options_description rest = *positional;
        rest.add("unexpected-arguments", -1);
        for (const po::option& o :
             po::command_line_parser(args).options(with_rest).positional(rest).run().options)
            if (o.string_key == "unexpected-arguments" && !o.value.empty())
                throw po::error(
                    fmt::format("unexpected argument '{}': this command takes {}", o.value.front(),
                                positional->max_total_count() == 1
                                    ? std::string("one argument")
                                    : fmt::format("{} arguments", positional->max_total_count())));
        throw;
    }
    for (const po::option& o : parsed.options) {
        // Without a positional description Boost would look the token up as an option named "", which
        // every option matches as a prefix: "option is ambiguous".
        if (o.position_key >= 0 && positional == nullptr)
            throw po::error(fmt::format("unexpected argument '{}': this command takes options only",
                                        o.value.empty() ? std::string() : o.value.front()));
        const po::option_description* d = options.find_nothrow(o.string_key, false);
        if (d == nullptr ||
            !takes_unsigned<unsigned, unsigned long, unsigned long long, unsigned short>(d->semantic().get()))
            continue;
        for (const std::string& v : o.value)
            if (v.find_first_not_of(" \t") != std::string::npos && v[v.find_first_not_of(" \t")] == '-')
                throw po::error(fmt::format("--{}: '{}' is negative", o.string_key, v));
    }
    return parsed;
}

void check_output_option(const std::string& option, const std::string& path) {
    if (path.empty()) throw UsageError(fmt::format("{}: an empty path", option));
    try {
        check_output_path(path);
    } catch (const std::exception& e) {
        throw UsageError(fmt::format("{} {}", option, e.what()));
    }
}

bool names_same_file(const std::string& a, const std::string& b) {
    // Made absolute first: weakly_canonical leaves a relative path whose first part does not exist
    // relative ("a"), but resolves one whose first part does ("./a").
    auto resolved = [](const std::string& path, std::error_code& ec) {
        const auto absolute = std::filesystem::absolute(path, ec);
        return ec ? absolute : std::filesystem::weakly_canonical(absolute, ec);
    };
    std::error_code ea, eb, ec;
    const auto ca = resolved(a, ea), cb = resolved(b, eb);
    return (!ea && !eb && ca == cb) || std::filesystem::equivalent(a, b, ec);
}

std::vector<std::pair<std::string, std::string>> database_files(const std::string& option,
                                                                const std::string& db) {
    const std::string log = option + "'s log";
    return {{option, db}, {log, db + "-wal"}, {log, db + "-shm"}, {log, db + "-journal"}};
}

void check_outputs_apart(const std::vector<std::pair<std::string, std::string>>& outputs,
                         const std::vector<std::pair<std::string, std::string>>& inputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const auto& [option, path] = outputs[i];
        for (size_t j = 0; j < i; ++j)
            if (names_same_file(path, outputs[j].second))
                throw UsageError(
                    fmt::format("{} and {} name the same file {}", outputs[j].first, option, path));
        for (const auto& [what, input] : inputs)
            if (!input.empty() && names_same_file(path, input))
                throw UsageError(fmt::format("{} and {} name the same file {}: it would be overwritten",
                                             option, what, path));
    }
}

void check_plot_path(const std::string& option, const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext != ".png" && ext != ".svg" && ext != ".pdf")
        throw UsageError(fmt::format("{} {}: the name must end in .png, .svg or .pdf", option, path));
    check_output_option(option, path);
}

void make_parent_folder(const std::string& option, const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (parent.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec || !std::filesystem::is_directory(parent))
        throw UsageError(fmt::format("{} {}: cannot make its folder {}: {}", option, path, parent.string(),
                                     ec ? ec.message() : "not a folder"));
}

void check_comparison_program(const std::string& program, const ElfImage& elf, const std::string& layer,
                              const std::vector<std::pair<std::string, uint32_t>>& symbols) {
    for (const auto& [name, value] : symbols)
        if (!elf.symbol(name))
            throw UsageError(
                fmt::format("{}: not a comparison program of the {} steps: it has no symbol '{}' "
                            "to take the shape from (kernels/*_compare.elf are)",
                            program, layer, name));
}

void check_program_cores(const std::string& program, const ElfImage& elf, const PlatformConfig& config) {
    const auto max_cores = elf.symbol(kClusterCoresSymbol);
    if (!max_cores || config.total_cores() <= *max_cores) return;
    throw UsageError(
        fmt::format("{}: the program supports at most {} cores; the platform has {} ({}); relink it with "
                    "--defsym=__cluster_max_cores={}",
                    program, *max_cores, config.total_cores(),
                    config.cluster.controller_core
                        ? fmt::format("cluster.cores {} and the controller core", config.cluster.cores)
                        : "cluster.cores",
                    config.total_cores()));
}

std::string self_executable() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("pulpsim") : self.string();
}

std::string built_kernel(const std::string& name) {
    const std::filesystem::path self = self_executable();
    return (self.parent_path().parent_path() / "kernels" / name).string();
}

uint64_t free_tcdm_bytes(const ElfImage& elf, const PlatformConfig& config) {
    const auto stacks_end = elf.symbol("__cluster_stacks_end");
    if (!stacks_end) return 0;
    const uint64_t free_start = (uint64_t{*stacks_end} + 15) & ~uint64_t{15};
    const uint64_t tcdm_end = uint64_t{config.tcdm.base} + config.tcdm.size;
    return tcdm_end > free_start ? tcdm_end - free_start : 0;
}

std::function<int(const std::vector<std::string>&)> point_run_verb() {
#ifdef PULPSIM_ADDRESS_SANITIZER
    return {};
#else
    return [](const std::vector<std::string>& args) {
        try {
            const int code = command_run(args);
            std::cout.flush();
            return code;
        } catch (const std::exception& e) {
            spdlog::error("{}", printable(e.what()));
            return kExitUsage;
        }
    };
#endif
}

int run_python_script(const std::string& script, const std::vector<std::string>& args, std::string& why,
                      int passed_status) {
    std::vector<std::string> argv = {PULPSIM_PLOT_PYTHON, script};
    argv.insert(argv.end(), args.begin(), args.end());
    runs::ChildOutcome run;
    try {
        run = runs::run_capturing(argv, runs::Capture::Errors);
    } catch (const std::exception&) {
        return -1;
    }
    if (run.status == 0 || run.status == passed_status) {
        std::fwrite(run.errors.data(), 1, run.errors.size(), stderr);
        return run.status;
    }
    why = printable(run.last_error_line());
    return run.status;
}

} // namespace pulpsim::cli
