#include "cluster/bare_memory_map.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "cluster/platform_config.hpp"
#include "cluster/printable.hpp"
#include "cluster/yaml_document.hpp"

namespace pulpsim {
namespace {

constexpr uint64_t kAddressSpace = uint64_t{1} << 32;

std::string range(uint64_t base, uint64_t size) {
    return fmt::format("[{:#x}, {:#x})", base, base + size);
}

// One region from its two texts; `where` prefixes every error ("--memory 0x0:4MiB", "map.yaml:3").
MemoryRegion region(const std::string& base_text, const std::string& size_text, const std::string& where) {
    const auto base = parse_size(base_text);
    if (!base || *base >= kAddressSpace)
        throw std::runtime_error(
            fmt::format("{}: base '{}' is not an address below 4 GiB", where, printable(base_text)));
    const auto size = parse_size(size_text);
    if (!size || *size == 0)
        throw std::runtime_error(
            fmt::format("{}: size '{}' is not a positive size (bytes, or with a KiB/MiB/GiB suffix)", where,
                        printable(size_text)));
    if (*base + *size > kAddressSpace)
        throw std::runtime_error(
            fmt::format("{}: {} runs past the 4 GiB address space", where, range(*base, *size)));
    return {static_cast<uint32_t>(*base), *size, where};
}

std::vector<MemoryRegion> from_yaml(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("--memory {}: cannot read the file", printable(path)));
    std::stringstream text;
    text << in.rdbuf();
    YAML::Node root;
    try {
        root = load_one_document(text.str());
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(
            fmt::format("{}:{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    auto at = [&](const YAML::Node& n) { return fmt::format("{}:{}", path, n.Mark().line + 1); };
    // yaml-cpp keeps both entries of a key given twice, and [] finds the first.
    auto keys_once = [&](const YAML::Node& map) {
        std::map<std::string, int> first_line;
        for (const auto& kv : map) {
            const std::string key = kv.first.as<std::string>();
            if (const auto [it, fresh] = first_line.emplace(key, kv.first.Mark().line + 1); !fresh)
                throw std::runtime_error(fmt::format("{}: key '{}' given twice (first on line {})",
                                                     at(kv.first), printable(key), it->second));
        }
    };
    if (root.IsMap()) keys_once(root);
    if (!root.IsMap() || !root["memory"] || !root["memory"].IsSequence() || root["memory"].size() == 0)
        throw std::runtime_error(
            fmt::format("{}: expected `memory:` with a list of {{base, size}} regions", path));
    for (const auto& kv : root)
        if (kv.first.as<std::string>() != "memory")
            throw std::runtime_error(fmt::format("{}: unknown key '{}' (only memory)", at(kv.first),
                                                 printable(kv.first.as<std::string>())));
    std::vector<MemoryRegion> out;
    for (const auto& e : root["memory"]) {
        if (!e.IsMap() || !e["base"] || !e["size"] || !e["base"].IsScalar() || !e["size"].IsScalar())
            throw std::runtime_error(fmt::format("{}: a region is {{base: ADDRESS, size: SIZE}}", at(e)));
        keys_once(e);
        for (const auto& kv : e)
            if (const std::string key = kv.first.as<std::string>(); key != "base" && key != "size")
                throw std::runtime_error(
                    fmt::format("{}: unknown key '{}' (base, size)", at(kv.first), printable(key)));
        out.push_back(region(e["base"].as<std::string>(), e["size"].as<std::string>(), at(e)));
    }
    return out;
}

} // namespace

std::vector<MemoryRegion> parse_memory_map(const std::string& spec) {
    std::vector<MemoryRegion> regions;
    if (spec.ends_with(".yaml") || spec.ends_with(".yml")) {
        regions = from_yaml(spec);
    } else {
        std::stringstream list(spec);
        std::string item;
        while (std::getline(list, item, ',')) {
            const std::string where = fmt::format("--memory {}", printable(item));
            const size_t colon = item.find(':');
            if (colon == std::string::npos)
                throw std::runtime_error(fmt::format("{}: a region is BASE:SIZE (e.g. 0x0:4MiB)", where));
            regions.push_back(region(item.substr(0, colon), item.substr(colon + 1), where));
        }
        if (regions.empty() || spec.ends_with(","))
            throw std::runtime_error(
                fmt::format("--memory '{}': expected BASE:SIZE[,BASE:SIZE...]", printable(spec)));
    }
    std::sort(regions.begin(), regions.end(), [](const auto& a, const auto& b) { return a.base < b.base; });
    for (size_t i = 1; i < regions.size(); ++i) {
        const MemoryRegion &prev = regions[i - 1], &next = regions[i];
        if (prev.base + prev.size > next.base)
            throw std::runtime_error(fmt::format("{}: {} overlaps {}", next.where,
                                                 range(next.base, next.size), range(prev.base, prev.size)));
    }
    return regions;
}

} // namespace pulpsim
