// Platform configuration: the key table, the YAML reader, overrides and the rules between keys.
#include "cluster/platform_config.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <yaml-cpp/yaml.h>

#include "cluster/fpu_pool.hpp"
#include "cluster/printable.hpp"
#include "cluster/yaml_document.hpp"
#include "core/hart.hpp"

namespace pulpsim {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;
constexpr uint64_t kAddressSpace = uint64_t{1} << 32;
constexpr uint64_t kMaxFpuPipelineLatency = 31; // far beyond any FPU_ADDMUL_LAT / FPU_OTHERS_LAT in use

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// A value as it appears in a message: one line, not overly long.
std::string shown(std::string_view text) {
    std::string out;
    for (char c : text.substr(0, 60))
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (text.size() > 60) out += "...";
    return out;
}

std::optional<uint64_t> parse_uint(std::string_view text) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return v;
}

std::string show_size(uint64_t v) {
    if (v != 0 && v % kGiB == 0) return fmt::format("{}GiB", v / kGiB);
    if (v != 0 && v % kMiB == 0) return fmt::format("{}MiB", v / kMiB);
    if (v != 0 && v % kKiB == 0) return fmt::format("{}KiB", v / kKiB);
    return std::to_string(v);
}

// ---- the key table ------------------------------------------------------------------------------------

enum class Kind { Integer, Size, Address };

std::string_view expects_text(Kind kind) {
    switch (kind) {
    case Kind::Integer: return "a whole number (0 or more)";
    case Kind::Size: return "a size (bytes, or with a KiB/MiB suffix)";
    case Kind::Address: return "an address";
    }
    return "";
}

std::string show_value(Kind kind, uint64_t v) {
    switch (kind) {
    case Kind::Integer: return std::to_string(v);
    case Kind::Size: return show_size(v);
    case Kind::Address: return fmt::format("0x{:08X}", v);
    }
    return "";
}

// The limits of one integer key on its own (relations between keys are Rules, below).
struct Range {
    Kind kind;
    uint64_t lo;
    uint64_t hi;
    uint64_t multiple = 1;
    bool pow2 = false;
};

std::optional<std::string> check_range(const Range& r, uint64_t v, std::string_view text) {
    if (v < r.lo || v > r.hi)
        return fmt::format("must be between {} and {}, got {}", show_value(r.kind, r.lo),
                           show_value(r.kind, r.hi), shown(text));
    if (r.pow2 && !std::has_single_bit(v)) return fmt::format("must be a power of two, got {}", shown(text));
    if (v % r.multiple != 0) return fmt::format("must be a multiple of {}, got {}", r.multiple, shown(text));
    return std::nullopt;
}

// Set: the key appears in to_yaml(). Derived: computed from other keys, shown as a comment. Absent: not
// in effect (the other key of an exclusive pair is).
enum class Presence { Set, Derived, Absent };

struct Key {
    std::string name; // section.key
    std::string expects;
    // Parses a YAML scalar, checks it on its own and stores it; returns what is wrong with it otherwise.
    std::function<std::optional<std::string>(PlatformConfig&, const std::string&)> set = {};
    std::function<std::string(const PlatformConfig&)> show = {}; // the value as YAML text
    std::function<Presence(const PlatformConfig&)> presence = [](const PlatformConfig&) {
        return Presence::Set;
    };
    std::string exclusive_with = {}; // a key that may not be given in the same file
};

template <typename Access>
Key integer_key(std::string name, Range range, Access access, void (*after)(PlatformConfig&) = nullptr) {
    Key k{.name = std::move(name), .expects = std::string(expects_text(range.kind))};
    k.set = [range, access, after](PlatformConfig& c, const std::string& text) -> std::optional<std::string> {
        const auto v = range.kind == Kind::Size ? parse_size(text) : parse_uint(text);
        if (!v) return fmt::format("expects {}, got '{}'", expects_text(range.kind), shown(text));
        if (auto err = check_range(range, *v, text)) return err;
        auto& field = access(c);
        field = static_cast<std::remove_cvref_t<decltype(field)>>(*v);
        if (after) after(c);
        return std::nullopt;
    };
    k.show = [range, access](const PlatformConfig& c) { return show_value(range.kind, access(c)); };
    return k;
}

Range integer(uint64_t lo, uint64_t hi) {
    return {Kind::Integer, lo, hi};
}
Range address() {
    return {Kind::Address, 0, kAddressSpace - 4, 4};
}

template <typename Access> Key bool_key(std::string name, Access access) {
    Key k{.name = std::move(name), .expects = "true or false"};
    k.set = [access](PlatformConfig& c, const std::string& text) -> std::optional<std::string> {
        static constexpr std::array<std::pair<std::string_view, bool>, 6> words{{{"true", true},
                                                                                 {"True", true},
                                                                                 {"TRUE", true},
                                                                                 {"false", false},
                                                                                 {"False", false},
                                                                                 {"FALSE", false}}};
        for (const auto& [word, value] : words)
            if (text == word) {
                access(c) = value;
                return std::nullopt;
            }
        return fmt::format("expects true or false, got '{}'", shown(text));
    };
    k.show = [access](const PlatformConfig& c) { return std::string(access(c) ? "true" : "false"); };
    return k;
}

template <typename E, size_t N, typename Access>
Key enum_key(std::string name, const std::array<std::pair<std::string_view, E>, N>& names, Access access) {
    std::string list;
    for (const auto& [word, _] : names)
        list += (list.empty() ? "" : ", ") + std::string(word);
    Key k{.name = std::move(name), .expects = "one of " + list};
    k.set = [&names, list, access](PlatformConfig& c, const std::string& text) -> std::optional<std::string> {
        for (const auto& [word, value] : names)
            if (text == word) {
                access(c) = value;
                return std::nullopt;
            }
        return fmt::format("expects one of {}, got '{}'", list, shown(text));
    };
    k.show = [&names, access](const PlatformConfig& c) {
        for (const auto& [word, value] : names)
            if (value == access(c)) return std::string(word);
        return std::string("?");
    };
    return k;
}

Key name_key(std::string name) {
    Key k{.name = std::move(name),
          .expects = "a name (1 to 64 printable characters, no quotes or backslashes)"};
    k.set = [](PlatformConfig& c, const std::string& text) -> std::optional<std::string> {
        if (!valid_platform_name(text))
            return fmt::format(
                "expects a name (1 to 64 printable characters, no quotes or backslashes), got '{}'",
                shown(text));
        c.platform.name = text;
        return std::nullopt;
    };
    k.show = [](const PlatformConfig& c) { return "\"" + c.platform.name + "\""; };
    return k;
}

// The FPU pool's registry decides which mapping names exist.
Key fpu_mapping_key(std::string name) {
    Key k{.name = std::move(name), .expects = "one of " + fpu_mapping_names()};
    k.set = [](PlatformConfig& c, const std::string& text) -> std::optional<std::string> {
        if (!fpu_mappings().contains(text))
            return fmt::format("expects one of {}, got '{}'", fpu_mapping_names(), shown(text));
        c.fpu.mapping = text;
        return std::nullopt;
    };
    k.show = [](const PlatformConfig& c) { return c.fpu.mapping; };
    return k;
}

constexpr std::array<std::pair<std::string_view, PlatformConfig::Dma::Duplex>, 2> kDuplexModes{
    {{"half-duplex", PlatformConfig::Dma::Duplex::Half}, {"full-duplex", PlatformConfig::Dma::Duplex::Full}}};
constexpr std::array<std::pair<std::string_view, PlatformConfig::Dma::Arbitration>, 3> kDmaArbitrations{
    {{"round-robin", PlatformConfig::Dma::Arbitration::RoundRobin},
     {"cores-first", PlatformConfig::Dma::Arbitration::CoresFirst},
     {"dma-first", PlatformConfig::Dma::Arbitration::DmaFirst}}};
constexpr std::array<std::pair<std::string_view, PlatformConfig::Icache::Model>, 2> kIcacheModels{
    {{"perfect", PlatformConfig::Icache::Model::Perfect},
     {"pulp-open", PlatformConfig::Icache::Model::PulpOpen}}};

// With a banking factor the bank count follows the core count.
void resolve(PlatformConfig& c) {
    if (c.tcdm.banking_factor != 0) c.tcdm.banks = c.tcdm.banking_factor * c.cluster.cores;
}

// Every key of a platform, in the order files and reports list them. Limits are what the models can
// represent, not what is plausible; relations between keys are in rules().
const std::vector<Key>& key_table() {
    static const std::vector<Key> table = [] {
        std::vector<Key> t;
        t.push_back(name_key("platform.name"));
        t.push_back(
            integer_key("cluster.cores", integer(1, 16), [](auto& c) -> auto& { return c.cluster.cores; }));
        t.push_back(
            bool_key("cluster.controller_core", [](auto& c) -> auto& { return c.cluster.controller_core; }));
        t.push_back(integer_key("cluster.id", integer(0, 63), [](auto& c) -> auto& { return c.cluster.id; }));
        t.push_back(integer_key("tcdm.base", address(), [](auto& c) -> auto& { return c.tcdm.base; }));
        t.push_back(integer_key("tcdm.size", {Kind::Size, kKiB, 16 * kMiB},
                                [](auto& c) -> auto& { return c.tcdm.size; }));

        Key banks = integer_key(
            "tcdm.banks", {Kind::Integer, 1, 1024, 1, true}, [](auto& c) -> auto& { return c.tcdm.banks; },
            [](PlatformConfig& c) { c.tcdm.banking_factor = 0; });
        banks.presence = [](const PlatformConfig& c) {
            return c.tcdm.banking_factor != 0 ? Presence::Derived : Presence::Set;
        };
        banks.exclusive_with = "tcdm.banking_factor";
        t.push_back(std::move(banks));
        Key factor = integer_key("tcdm.banking_factor", integer(1, 64),
                                 [](auto& c) -> auto& { return c.tcdm.banking_factor; });
        factor.presence = [](const PlatformConfig& c) {
            return c.tcdm.banking_factor != 0 ? Presence::Set : Presence::Absent;
        };
        factor.exclusive_with = "tcdm.banks";
        t.push_back(std::move(factor));

        t.push_back(integer_key("l2.base", address(), [](auto& c) -> auto& { return c.l2.base; }));
        t.push_back(
            integer_key("l2.size", {Kind::Size, kKiB, kGiB, 4}, [](auto& c) -> auto& { return c.l2.size; }));
        t.push_back(
            integer_key("l2.latency", integer(1, 1000), [](auto& c) -> auto& { return c.l2.latency; }));
        t.push_back(integer_key("fpu.count", integer(1, FpuPool::kMaxFpus),
                                [](auto& c) -> auto& { return c.fpu.count; }));
        t.push_back(fpu_mapping_key("fpu.mapping"));
        t.push_back(integer_key("fpu.addmul_latency", integer(0, kMaxFpuPipelineLatency),
                                [](auto& c) -> auto& { return c.fpu.addmul_latency; }));
        t.push_back(integer_key("fpu.other_latency", integer(0, kMaxFpuPipelineLatency),
                                [](auto& c) -> auto& { return c.fpu.other_latency; }));
        t.push_back(integer_key("fpu.divsqrt_units", integer(1, FpuPool::kMaxFpus),
                                [](auto& c) -> auto& { return c.fpu.divsqrt_units; }));
        t.push_back(integer_key("fpu.divsqrt_latency", integer(1, 200),
                                [](auto& c) -> auto& { return c.fpu.divsqrt_latency; }));
        t.push_back(integer_key("fpu.divsqrt_exact_latency", integer(1, 200),
                                [](auto& c) -> auto& { return c.fpu.divsqrt_exact_latency; }));
        t.push_back(enum_key("icache.model", kIcacheModels, [](auto& c) -> auto& { return c.icache.model; }));
        t.push_back(integer_key("icache.l0_size", {Kind::Size, 16, 64 * kKiB, 1, true},
                                [](auto& c) -> auto& { return c.icache.l0_size; }));
        t.push_back(integer_key("icache.l1_size", {Kind::Size, 64, kMiB, 1, true},
                                [](auto& c) -> auto& { return c.icache.l1_size; }));
        t.push_back(integer_key("icache.refill_latency", integer(0, 100),
                                [](auto& c) -> auto& { return c.icache.refill_latency; }));
        t.push_back(integer_key("event_unit.sleep_latency", integer(0, 1000),
                                [](auto& c) -> auto& { return c.event_unit.sleep_latency; }));
        t.push_back(integer_key("event_unit.wake_latency", integer(0, 1000),
                                [](auto& c) -> auto& { return c.event_unit.wake_latency; }));
        t.push_back(integer_key("dma.bandwidth_bits", {Kind::Integer, 8, 256, 8},
                                [](auto& c) -> auto& { return c.dma.bandwidth_bits; }));
        t.push_back(enum_key("dma.duplex", kDuplexModes, [](auto& c) -> auto& { return c.dma.duplex; }));
        t.push_back(integer_key("dma.queue_depth", integer(1, 64),
                                [](auto& c) -> auto& { return c.dma.queue_depth; }));
        t.push_back(enum_key("dma.arbitration", kDmaArbitrations,
                             [](auto& c) -> auto& { return c.dma.arbitration; }));
        t.push_back(
            integer_key("dma.tcdm_ports", integer(1, 16), [](auto& c) -> auto& { return c.dma.tcdm_ports; }));
        t.push_back(integer_key("engine.quantum", integer(1, 1000000000),
                                [](auto& c) -> auto& { return c.engine.quantum; }));
        t.push_back(integer_key("engine.lookahead", integer(1, 32),
                                [](auto& c) -> auto& { return c.engine.lookahead; }));
        t.push_back(
            bool_key("engine.reference_loop", [](auto& c) -> auto& { return c.engine.reference_loop; }));
        return t;
    }();
    return table;
}

const Key* find_key(std::string_view name) {
    for (const Key& k : key_table())
        if (k.name == name) return &k;
    return nullptr;
}

std::string_view section_of(std::string_view key) {
    return key.substr(0, key.find('.'));
}

std::vector<std::string> sections() {
    std::vector<std::string> out;
    for (const Key& k : key_table())
        if (out.empty() || out.back() != section_of(k.name)) out.emplace_back(section_of(k.name));
    return out;
}

// ---- suggestions for unknown names --------------------------------------------------------------------

// ---- rules between keys -------------------------------------------------------------------------------

struct Rule {
    // The keys that can fix a violation, the likeliest culprit first: the error points at the first of them
    // that the file or the command line gave.
    std::vector<std::string_view> keys;
    std::function<std::optional<std::string>(const PlatformConfig&)> check;
};

// Inclusive bounds, so that a range ending at 4 GiB still prints as 32-bit addresses.
std::string range_text(uint64_t base, uint64_t size) {
    return fmt::format("[0x{:08X}, 0x{:08X}]", base, base + size - 1);
}

const std::vector<Rule>& rules() {
    static const std::vector<Rule> table = {
        {{"tcdm.banking_factor", "cluster.cores", "tcdm.banks"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             const auto& t = c.tcdm;
             if (t.banking_factor != 0 && t.banks != t.banking_factor * c.cluster.cores)
                 return fmt::format("tcdm.banks {} is not tcdm.banking_factor {} x cluster.cores {}", t.banks,
                                    t.banking_factor, c.cluster.cores);
             if (std::has_single_bit(t.banks) && t.banks <= 1024) return std::nullopt;
             if (t.banking_factor == 0)
                 return fmt::format("tcdm.banks {} is not a power of two up to 1024", t.banks);
             return fmt::format("tcdm.banking_factor {} x {} cores = {} banks, not a power of two up to 1024",
                                t.banking_factor, c.cluster.cores, t.banks);
         }},
        {{"tcdm.size", "tcdm.banks", "tcdm.banking_factor", "cluster.cores"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             const uint64_t stripe = uint64_t{c.tcdm.banks} * 4;
             if (c.tcdm.size % stripe == 0) return std::nullopt;
             return fmt::format("tcdm.size {} is not a multiple of {} banks x 4 bytes = {} bytes",
                                show_size(c.tcdm.size), c.tcdm.banks, stripe);
         }},
        {{"tcdm.base", "tcdm.size"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             if (uint64_t{c.tcdm.base} + c.tcdm.size <= kAddressSpace) return std::nullopt;
             return fmt::format("the TCDM {} ends beyond the 32-bit address space",
                                range_text(c.tcdm.base, c.tcdm.size));
         }},
        {{"l2.base", "l2.size"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             if (uint64_t{c.l2.base} + c.l2.size <= kAddressSpace) return std::nullopt;
             return fmt::format("the L2 {} ends beyond the 32-bit address space",
                                range_text(c.l2.base, c.l2.size));
         }},
        {{"l2.base", "tcdm.base", "l2.size", "tcdm.size"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             const uint64_t t0 = c.tcdm.base, t1 = t0 + c.tcdm.size, l0 = c.l2.base, l1 = l0 + c.l2.size;
             if (t1 <= l0 || l1 <= t0) return std::nullopt;
             return fmt::format("the TCDM {} and the L2 {} overlap", range_text(t0, c.tcdm.size),
                                range_text(l0, c.l2.size));
         }},
        {{"tcdm.size", "tcdm.base", "l2.size", "l2.base"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             const uint64_t p0 = kClusterPeripheralsBase, p1 = kClusterPeripheralsEnd;
             for (const auto& [what, base, size] :
                  {std::tuple{"TCDM", uint64_t{c.tcdm.base}, uint64_t{c.tcdm.size}},
                   std::tuple{"L2", uint64_t{c.l2.base}, uint64_t{c.l2.size}}})
                 if (base < p1 && p0 < base + size)
                     return fmt::format(
                         "the {} {} overlaps the cluster peripherals {} (event unit, DMA registers)", what,
                         range_text(base, size), range_text(p0, p1 - p0));
             return std::nullopt;
         }},
        {{"fpu.count", "fpu.mapping", "cluster.cores", "cluster.controller_core"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             // The mapping itself knows which core and FPU counts it can serve.
             const auto mapping = fpu_mappings().find(c.fpu.mapping);
             if (mapping == fpu_mappings().end())
                 return fmt::format("fpu.mapping '{}' is not one of {}", c.fpu.mapping, fpu_mapping_names());
             const std::string why = mapping->second.reject
                                         ? mapping->second.reject(c.total_cores(), c.fpu.count)
                                         : std::string();
             if (why.empty()) return std::nullopt;
             // A core count changed alone is the common case (a sweep over cores): say what goes with it.
             const std::string fix =
                 c.fpu.mapping == "private"
                     ? fmt::format("; fpu.count {} gives each core its own", c.total_cores())
                     : std::string();
             return fmt::format("{} (fpu.count {}, cluster.cores {}{}){}", why, c.fpu.count, c.cluster.cores,
                                c.cluster.controller_core ? " + the controller core" : "", fix);
         }},
        {{"fpu.divsqrt_exact_latency", "fpu.divsqrt_latency"},
         [](const PlatformConfig& c) -> std::optional<std::string> {
             if (c.fpu.divsqrt_exact_latency <= c.fpu.divsqrt_latency) return std::nullopt;
             return fmt::format(
                 "fpu.divsqrt_exact_latency {} exceeds fpu.divsqrt_latency {} (an exact result "
                 "ends the iteration early, never late)",
                 c.fpu.divsqrt_exact_latency, c.fpu.divsqrt_latency);
         }},
    };
    return table;
}

// `where(key)` says where a key was given ("file.yaml:7", "--set fpu.count"), or nothing if it was not.
void check_rules(const PlatformConfig& c,
                 const std::function<std::optional<std::string>(std::string_view)>& where,
                 const std::string& fallback) {
    for (const Rule& rule : rules()) {
        const auto message = rule.check(c);
        if (!message) continue;
        std::string location = fallback;
        for (std::string_view key : rule.keys)
            if (auto w = where(key)) {
                location = *w;
                break;
            }
        fail(location.empty() ? *message : location + ": " + *message);
    }
}

// ---- reading values -----------------------------------------------------------------------------------

// `subject` starts the message: "file.yaml:3: key 'cluster.cores'" or "--set cluster.cores:".
void set_value(PlatformConfig& c, const Key& key, const YAML::Node& value, const std::string& subject) {
    if (!value.IsScalar()) fail(fmt::format("{} expects {}, got {}", subject, key.expects, node_kind(value)));
    if (auto error = key.set(c, value.Scalar())) fail(subject + " " + *error);
}

// The name of a platform file that does not give one: its file name without extension.
std::string name_from_path(const std::string& path) {
    std::string name = std::filesystem::path(path).stem().string().substr(0, 64);
    for (char& ch : name)
        if (!valid_platform_name(std::string(1, ch))) ch = '_';
    return name.empty() ? "custom" : name;
}

std::string read_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        fail(fmt::format("{}: cannot read platform file: is a directory", path));
    // A FIFO would block the read and a device such as /dev/zero never end it.
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        fail(fmt::format("{}: cannot read platform file: not a regular file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(fmt::format("{}: cannot read platform file: {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Returns the key it set.
std::string apply_one(PlatformConfig& c, const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) fail(fmt::format("--set '{}': expected KEY=VALUE", shown(assignment)));
    std::string name = assignment.substr(0, eq);
    name.erase(name.find_last_not_of(' ') + 1);
    name.erase(0, name.find_first_not_of(' '));
    const std::string value = assignment.substr(eq + 1);
    const Key* key = find_key(name);
    if (!key)
        fail(fmt::format("--set {}: unknown key '{}'{}", shown(name), shown(name), platform_key_hint(name)));
    YAML::Node node;
    try {
        node = load_one_document(value);
    } catch (const YAML::Exception& e) {
        fail(fmt::format("--set {}: malformed value '{}': {}", name, shown(value), e.msg));
    }
    set_value(c, *key, node, fmt::format("--set {}:", name));
    resolve(c);
    return name;
}

} // namespace

bool valid_platform_name(std::string_view s) {
    return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
        return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
    });
}

std::optional<uint64_t> parse_size(std::string_view text) {
    // No bare "B" suffix: it would make hex sizes such as 0x1B ambiguous.
    static constexpr std::array<std::pair<std::string_view, uint64_t>, 3> units{
        {{"KiB", kKiB}, {"MiB", kMiB}, {"GiB", kGiB}}};
    uint64_t scale = 1;
    for (const auto& [suffix, factor] : units)
        if (text.ends_with(suffix)) {
            scale = factor;
            text.remove_suffix(suffix.size());
            while (!text.empty() && text.back() == ' ')
                text.remove_suffix(1);
            break;
        }
    const auto v = parse_uint(text);
    if (!v || *v > UINT64_MAX / scale) return std::nullopt;
    return *v * scale;
}

// Written out exactly: no rounding through a double.
std::optional<uint64_t> parse_count(const std::string& text) {
    if (const auto v = parse_size(text)) return v;
    const size_t e = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, e);
    const std::string exponent = e == std::string::npos ? "0" : text.substr(e + 1);
    const size_t dot = mantissa.find('.');
    std::string digits = mantissa.substr(0, dot);
    const std::string fraction = dot == std::string::npos ? "" : mantissa.substr(dot + 1);
    const std::string_view exp_digits =
        !exponent.empty() && exponent[0] == '+' ? std::string_view(exponent).substr(1) : exponent;
    auto all_digits = [](std::string_view t) {
        return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (digits.empty() || !all_digits(digits) || !all_digits(fraction) || exp_digits.empty() ||
        exp_digits.size() > 4 || !all_digits(exp_digits))
        return std::nullopt;
    digits += fraction;
    long shift = std::stol(std::string(exp_digits)) - static_cast<long>(fraction.size());
    while (shift < 0 && digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++shift;
    }
    if (shift < 0) return std::nullopt; // a fraction of a cycle
    uint64_t v = 0;
    for (char c : digits) {
        if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    for (long i = 0; i < shift && v != 0; ++i) {
        if (v > UINT64_MAX / 10) return std::nullopt;
        v *= 10;
    }
    return v;
}

PlatformConfig load_platform(const std::string& path) {
    const std::string text = read_file(path);
    YAML::Node root;
    try {
        root = load_one_document(text);
    } catch (const YAML::Exception& e) {
        fail(fmt::format("{}:{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
    }

    PlatformConfig config;
    config.platform.name = name_from_path(path);
    std::map<std::string, int, std::less<>> key_lines, section_lines;
    if (root.IsNull())
        fail(fmt::format("{}: holds no settings (without --platform the default is pulp-open)", path));
    if (!root.IsMap())
        fail(fmt::format("{}:{}: expected sections (cluster:, tcdm:, ...) at the top level, got {}", path,
                         line_of(root), node_kind(root)));
    const auto known_sections = sections();
    for (const auto& section : root) {
        const int line = line_of(section.first);
        if (!section.first.IsScalar())
            fail(fmt::format("{}:{}: a section name must be a plain word, got {}", path, line,
                             node_kind(section.first)));
        const std::string name = section.first.Scalar();
        if (std::find(known_sections.begin(), known_sections.end(), name) == known_sections.end()) {
            const auto best = closest_name(name, known_sections);
            fail(fmt::format("{}:{}: unknown section '{}'{}", path, line, shown(name),
                             best ? fmt::format(" (did you mean '{}'?)", *best)
                                  : fmt::format(" (known sections: {})", fmt::join(known_sections, ", "))));
        }
        if (auto [it, fresh] = section_lines.emplace(name, line); !fresh)
            fail(fmt::format("{}:{}: section '{}' given twice (first on line {})", path, line, name,
                             it->second));
        if (section.second.IsNull()) continue;
        if (!section.second.IsMap())
            fail(fmt::format("{}:{}: section '{}' expects `key: value` lines, got {}", path, line, name,
                             node_kind(section.second)));
        for (const auto& entry : section.second) {
            const int key_line = line_of(entry.first);
            if (!entry.first.IsScalar())
                fail(fmt::format("{}:{}: a key in section '{}' must be a plain word, got {}", path, key_line,
                                 name, node_kind(entry.first)));
            const std::string dotted = name + "." + entry.first.Scalar();
            const Key* key = find_key(dotted);
            if (!key)
                fail(fmt::format("{}:{}: unknown key '{}'{}", path, key_line, shown(dotted),
                                 platform_key_hint(dotted)));
            if (auto [it, fresh] = key_lines.emplace(dotted, key_line); !fresh)
                fail(fmt::format("{}:{}: key '{}' given twice (first on line {})", path, key_line, dotted,
                                 it->second));
            if (auto other = key_lines.find(key->exclusive_with); other != key_lines.end())
                fail(fmt::format("{}:{}: key '{}' and key '{}' (line {}) exclude each other: give one", path,
                                 key_line, dotted, other->first, other->second));
            set_value(config, *key, entry.second, fmt::format("{}:{}: key '{}'", path, key_line, dotted));
        }
    }
    resolve(config);
    check_rules(
        config,
        [&](std::string_view key) -> std::optional<std::string> {
            const auto it = key_lines.find(key);
            if (it == key_lines.end()) return std::nullopt;
            return fmt::format("{}:{}", path, it->second);
        },
        path);
    return config;
}

void apply_overrides(PlatformConfig& config, const std::vector<std::string>& assignments) {
    PlatformConfig next = config;
    std::vector<std::string> given;
    for (const auto& assignment : assignments) {
        const std::string key = apply_one(next, assignment);
        // As in a platform file, a key given twice is an error: the later value would win without a word.
        if (std::find(given.begin(), given.end(), key) != given.end())
            fail(fmt::format("--set {}: given twice: give it once", key));
        given.push_back(key);
        // As in a platform file: one setting may not be given two ways at once (the later would win).
        const std::string& other = find_key(given.back())->exclusive_with;
        if (!other.empty() && std::find(given.begin(), given.end(), other) != given.end())
            fail(fmt::format("--set {}: '{}' is given too, and the two exclude each other: give one",
                             given.back(), other));
    }
    check_rules(
        next,
        [&](std::string_view key) -> std::optional<std::string> {
            if (std::find(given.begin(), given.end(), key) == given.end()) return std::nullopt;
            return fmt::format("--set {}", key);
        },
        "--set");
    config = std::move(next);
}

void apply_override(PlatformConfig& config, const std::string& assignment) {
    apply_overrides(config, {assignment});
}

void validate(const PlatformConfig& config) {
    check_rules(config, [](std::string_view) { return std::nullopt; }, "");
}

std::vector<std::pair<std::string, std::string>> describe(const PlatformConfig& config) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Key& k : key_table())
        if (k.presence(config) != Presence::Absent) out.emplace_back(k.name, k.show(config));
    return out;
}

std::string to_yaml(const PlatformConfig& config) {
    std::string out =
        "# pulpsim platform (every key in effect; see configs/platforms/ for what each models)\n";
    std::string_view section;
    for (const Key& k : key_table()) {
        const Presence presence = k.presence(config);
        if (presence == Presence::Absent) continue;
        const std::string_view name = k.name;
        if (section_of(name) != section) {
            section = section_of(name);
            out += fmt::format("{}:\n", section);
        }
        const std::string_view leaf = name.substr(section.size() + 1);
        out += presence == Presence::Derived ? fmt::format("  # {}: {} (derived)\n", leaf, k.show(config))
                                             : fmt::format("  {}: {}\n", leaf, k.show(config));
    }
    return out;
}

std::string platform_key_hint(std::string_view key) {
    // Names the command line used before platform files existed.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> renamed{{
        {"core.fpu_addmul_latency", "fpu.addmul_latency"},
        {"core.fpu_other_latency", "fpu.other_latency"},
        {"core.fdiv_latency", "fpu.divsqrt_latency"},
        {"core.fdiv_exact_latency", "fpu.divsqrt_exact_latency"},
    }};
    for (const auto& [old_name, new_name] : renamed)
        if (key == old_name) return fmt::format(" (did you mean '{}'?)", new_name);
    if (auto best = closest_name(key, platform_keys())) return fmt::format(" (did you mean '{}'?)", *best);
    std::string list;
    for (const Key& k : key_table())
        if (section_of(k.name) == section_of(key)) list += (list.empty() ? "" : ", ") + k.name;
    if (!list.empty()) return fmt::format(" (known keys: {})", list);
    return fmt::format(" (known sections: {})", fmt::join(sections(), ", "));
}

std::vector<std::string> platform_keys() {
    std::vector<std::string> out;
    for (const Key& k : key_table())
        out.push_back(k.name);
    return out;
}

CoreTiming core_timing(const PlatformConfig& config) {
    CoreTiming t;
    t.fpu_addmul_latency = config.fpu.addmul_latency;
    t.fpu_other_latency = config.fpu.other_latency;
    t.fdiv_latency = config.fpu.divsqrt_latency;
    t.fdiv_exact_latency = config.fpu.divsqrt_exact_latency;
    return t;
}

std::string_view to_string(PlatformConfig::Dma::Duplex duplex) {
    for (const auto& [word, value] : kDuplexModes)
        if (value == duplex) return word;
    return "?";
}

std::string_view to_string(PlatformConfig::Dma::Arbitration arbitration) {
    for (const auto& [word, value] : kDmaArbitrations)
        if (value == arbitration) return word;
    return "?";
}

std::string_view to_string(PlatformConfig::Icache::Model model) {
    for (const auto& [word, value] : kIcacheModels)
        if (value == model) return word;
    return "?";
}

} // namespace pulpsim
