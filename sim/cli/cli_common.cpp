#include "cli/cli_common.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace pulpsim::cli {

uint64_t parse_number(const std::string& option, const std::string& text, uint64_t max) {
    std::string digits;
    for (char c : text)
        if (c != '_' && c != '\'') digits += c;
    size_t used = 0;
    uint64_t v = 0;
    try {
        if (!digits.empty() && digits[0] == '-') throw std::invalid_argument("negative");
        v = std::stoull(digits, &used, 0);
    } catch (const std::exception&) {
        used = 0;
    }
    if (digits.empty() || used != digits.size())
        throw UsageError(fmt::format("{}: '{}' is not a non-negative integer", option, text));
    if (v > max) throw UsageError(fmt::format("{}: {} is larger than {}", option, text, max));
    return v;
}

std::string self_executable() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("pulpsim") : self.string();
}

} // namespace pulpsim::cli
