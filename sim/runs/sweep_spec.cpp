#include "runs/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "cluster/printable.hpp"
#include "cluster/yaml_document.hpp"
#include "core/core_stats.hpp"
#include "memory/elf_image.hpp"

namespace pulpsim::runs {
namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// A value as it appears in a message: one line, not overly long.
std::string shown(const std::string& text) {
    std::string out = printable(text.substr(0, 60));
    if (text.size() > 60) out += "...";
    return out;
}

const std::vector<std::string> kTopKeys = {"name",    "description", "program", "platform",   "set",
                                           "grid",    "zip",         "exclude", "max_cycles", "regions",
                                           "metrics", "table",       "plots"};
const std::vector<std::string> kTableKeys = {"rows", "columns", "value", "facets"};
const std::vector<std::string> kPlotKeys = {"kind",   "x",      "y",        "value", "series",
                                            "facets", "region", "baseline", "file",  "title"};
const std::vector<std::string> kPlotKinds = {"line", "heatmap", "bars"};

// Reads one file's YAML and remembers where it came from, so that every message names file and line.
class SpecReader {
  public:
    explicit SpecReader(std::string path) : path_(std::move(path)) {}

    [[noreturn]] void fail_at(const YAML::Node& n, const std::string& message) const {
        fail(fmt::format("{}:{}: {}", path_, line_of(n), message));
    }
    [[noreturn]] void fail_at(int line, const std::string& message) const {
        fail(fmt::format("{}:{}: {}", path_, line, message));
    }

    std::string scalar(const YAML::Node& n, const std::string& what) const {
        if (!n.IsScalar()) fail_at(n, fmt::format("{} expects a value, got {}", what, node_kind(n)));
        return n.Scalar();
    }

    // A scalar or a list of scalars.
    std::vector<std::string> scalars(const YAML::Node& n, const std::string& what) const {
        std::vector<std::string> out;
        if (n.IsScalar()) return {n.Scalar()};
        if (!n.IsSequence())
            fail_at(n, fmt::format("{} expects a value or a list, got {}", what, node_kind(n)));
        for (const auto& item : n)
            out.push_back(scalar(item, what));
        if (out.empty()) fail_at(n, fmt::format("{} is an empty list", what));
        return out;
    }

    void check_keys(const YAML::Node& map, const std::vector<std::string>& known,
                    const std::string& where) const {
        std::map<std::string, int> first_line;
        for (const auto& entry : map) {
            const std::string key = scalar(entry.first, where + " key");
            if (std::find(known.begin(), known.end(), key) == known.end())
                fail_at(entry.first, fmt::format("unknown key '{}' in {}{}", shown(key), where,
                                                 unknown_name_hint(key, known)));
            const auto [at, inserted] = first_line.emplace(key, line_of(entry.first));
            if (!inserted)
                fail_at(entry.first, fmt::format("key '{}' given twice (first on line {})", key, at->second));
        }
    }

  private:
    std::string path_;
};

bool is_platform_key(const std::string& key) {
    static const std::vector<std::string> keys = platform_keys();
    return std::find(keys.begin(), keys.end(), key) == keys.end() ? false : true;
}

// Values equal as the simulator reads them: sizes by their byte count ("128KiB" == "131072").
bool same_value(const std::string& a, const std::string& b) {
    if (a == b) return true;
    const auto x = parse_size(a), y = parse_size(b);
    return x && y && *x == *y;
}

// The values the sweep gives `key`, a swept key or "program".
const std::vector<std::string>& values_of(const SweepSpec& spec, const std::string& key) {
    if (key == "program") return spec.programs;
    return std::find_if(spec.axes.begin(), spec.axes.end(), [&](const Axis& a) { return a.key == key; })
        ->values;
}

// The one of `taken` (values of `key`) that `value` names, or nullptr: a program by its file, a platform
// value by its meaning (262144 is 256KiB).
const std::string* find_value(const std::vector<std::string>& taken, const std::string& key,
                              const std::string& value) {
    std::error_code ec;
    const auto it = std::find_if(taken.begin(), taken.end(), [&](const std::string& t) {
        return key == "program" ? t == value || std::filesystem::equivalent(t, value, ec)
                                : same_value(t, value);
    });
    return it == taken.end() ? nullptr : &*it;
}

// One spelling per value as same_value() sees it, for sets and maps of values.
std::string value_key(const std::string& v) {
    const auto n = parse_size(v);
    return n ? std::to_string(*n) : v;
}

// A few values of a list, for messages.
std::string some_values(const std::vector<std::string>& values) {
    std::string out;
    for (size_t i = 0; i < values.size() && i < 8; ++i)
        out += (i ? ", " : "") + shown(values[i]);
    return values.size() > 8 ? out + ", ..." : out;
}

// Points are combinations of one value of each dimension: the program list, each grid axis (not in a
// zip group), each zip group. A value of a dimension is a list of (key, value) assignments.
using Assignment = std::vector<std::pair<std::string, std::string>>;

std::vector<std::vector<Assignment>> dimensions(const SweepSpec& spec) {
    std::vector<std::vector<Assignment>> dims;
    {
        std::vector<Assignment> programs;
        for (const auto& p : spec.programs)
            programs.push_back({{"program", p}});
        dims.push_back(std::move(programs));
    }
    auto in_zip = [&](const std::string& key) {
        return std::any_of(spec.zip_groups.begin(), spec.zip_groups.end(),
                           [&](const auto& g) { return std::find(g.begin(), g.end(), key) != g.end(); });
    };
    for (const auto& a : spec.axes)
        if (!in_zip(a.key)) {
            std::vector<Assignment> values;
            for (const auto& v : a.values)
                values.push_back({{a.key, v}});
            dims.push_back(std::move(values));
        }
    for (const auto& group : spec.zip_groups) {
        std::vector<const Axis*> members;
        for (const auto& key : group)
            members.push_back(&*std::find_if(spec.axes.begin(), spec.axes.end(),
                                             [&](const Axis& a) { return a.key == key; }));
        std::vector<Assignment> values(members.front()->values.size());
        for (size_t i = 0; i < values.size(); ++i)
            for (const Axis* m : members)
                values[i].emplace_back(m->key, m->values[i]);
        dims.push_back(std::move(values));
    }
    return dims;
}

// The number of combinations, saturating at UINT64_MAX.
uint64_t combination_count(const std::vector<std::vector<Assignment>>& dims) {
    uint64_t n = 1;
    for (const auto& d : dims)
        n = d.size() != 0 && n > UINT64_MAX / d.size() ? UINT64_MAX : n * d.size();
    return n;
}

// Calls f with every combination in order, the last dimension fastest.
template <class F> void for_each_combination(const std::vector<std::vector<Assignment>>& dims, F&& f) {
    std::vector<size_t> index(dims.size(), 0);
    Assignment assignment;
    while (true) {
        assignment.clear();
        for (size_t d = 0; d < dims.size(); ++d)
            for (const auto& kv : dims[d][index[d]])
                assignment.push_back(kv);
        f(assignment);
        size_t d = dims.size();
        bool carry = true;
        while (carry && d > 0) {
            --d;
            carry = ++index[d] == dims[d].size();
            if (carry) index[d] = 0;
        }
        if (carry) return;
    }
}

bool matches(const Assignment& assignment, const std::map<std::string, std::string>& match) {
    return std::all_of(match.begin(), match.end(), [&](const auto& kv) {
        return std::any_of(assignment.begin(), assignment.end(), [&](const auto& a) {
            return a.first == kv.first && same_value(a.second, kv.second);
        });
    });
}

} // namespace

const std::vector<std::string>& region_metrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m = {"count", "cycles",        "instret",
                                      "macs",  "mac_per_cycle", "fpu_utilisation"};
        for (unsigned k = 0; k < static_cast<unsigned>(StallKind::Count); ++k)
            m.push_back(std::string("stall_") + stall_name(static_cast<StallKind>(k)));
        for (const char* d : {"dma_bytes_in", "dma_bytes_out", "dma_busy_cycles", "dma_exposed_wait_cycles",
                              "dma_utilisation", "dma_bandwidth_utilisation", "dma_overlap", "dma_verdict"})
            m.push_back(d);
        return m;
    }();
    return metrics;
}

SweepSpec load_sweep_spec(const std::string& path) {
    SweepSpec spec;
    spec.path = path;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        fail(fmt::format("{}: cannot read sweep file: {}", path,
                         std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) fail(fmt::format("{}: cannot read sweep file", path));
    YAML::Node root;
    try {
        root = load_one_document(text.str());
    } catch (const YAML::Exception& e) {
        fail(fmt::format("{}:{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    const SpecReader r(path);
    if (!root.IsMap())
        r.fail_at(root, fmt::format("expected a sweep (program:, grid:, ...), got {}", node_kind(root)));
    r.check_keys(root, kTopKeys, "the sweep");

    spec.name = std::filesystem::path(path).stem().string();
    if (root["name"]) spec.name = r.scalar(root["name"], "name");
    // The name is a folder's name too (plots, Slurm): "." and ".." would be the folder above or its own.
    if (spec.name.empty() || spec.name.find_first_not_of(".") == std::string::npos ||
        spec.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
            std::string::npos)
        r.fail_at(root["name"] ? root["name"] : root,
                  root["name"]
                      ? fmt::format("name '{}' must be letters, digits, '.', '_' or '-', not dots alone",
                                    shown(spec.name))
                      : fmt::format("the sweep's name '{}', taken from the file's name, must be letters, "
                                    "digits, '.', '_' or '-', not dots alone (give one with name:)",
                                    shown(spec.name)));

    // Programs: existing RISC-V ELF files. A list makes `program` an axis.
    if (!root["program"]) r.fail_at(root, "missing key 'program' (the ELF to run, or a list of them)");
    const YAML::Node program_node = root["program"];
    spec.programs = r.scalars(program_node, "program");
    for (size_t i = 0; i < spec.programs.size(); ++i) {
        const std::string& p = spec.programs[i];
        const YAML::Node at = program_node.IsSequence() ? program_node[i] : program_node;
        if (!std::filesystem::is_regular_file(p, ec))
            r.fail_at(at,
                      fmt::format("program '{}': {}", shown(p),
                                  std::filesystem::exists(p, ec) ? "not a regular file" : "no such file"));
        try {
            ElfImage::load(p);
        } catch (const std::exception& e) {
            r.fail_at(at, fmt::format("program: {}", e.what()));
        }
        // Two spellings of one file would be one program shown twice.
        for (size_t j = 0; j < i; ++j)
            if (spec.programs[j] == p || std::filesystem::equivalent(spec.programs[j], p, ec))
                r.fail_at(at, fmt::format("program '{}' is listed twice{}", shown(p),
                                          spec.programs[j] == p
                                              ? ""
                                              : fmt::format(" (as '{}')", shown(spec.programs[j]))));
    }

    PlatformConfig base;
    if (root["platform"]) {
        spec.platform_file = r.scalar(root["platform"], "platform");
        try {
            base = load_platform(spec.platform_file);
        } catch (const std::exception& e) {
            r.fail_at(root["platform"], fmt::format("platform: {}", e.what()));
        }
    }

    // Where each setting was given, for messages about the points that use it.
    auto& key_lines = spec.key_lines;
    auto claim_key = [&](const YAML::Node& key_node, const std::string& section) {
        const std::string key = r.scalar(key_node, section + " key");
        if (!is_platform_key(key))
            r.fail_at(key_node, fmt::format("{}: '{}' is not a key of the platform{}", section, shown(key),
                                            platform_key_hint(key)));
        if (auto it = key_lines.find(key); it != key_lines.end())
            r.fail_at(key_node,
                      fmt::format("{}: key '{}' is already given on line {}", section, key, it->second));
        key_lines[key] = line_of(key_node);
        return key;
    };

    if (const YAML::Node set = root["set"]) {
        if (!set.IsMap())
            r.fail_at(set, fmt::format("set expects `key: value` lines, got {}", node_kind(set)));
        for (const auto& entry : set) {
            const std::string key = claim_key(entry.first, "set");
            spec.fixed.emplace_back(key, r.scalar(entry.second, fmt::format("set: key '{}'", key)));
        }
    }
    // A zipped key may repeat a value (its partners tell the points apart); a grid key may not.
    auto read_axis = [&](const YAML::Node& key_node, const YAML::Node& values, const std::string& section,
                         bool unique) {
        Axis axis;
        axis.key = claim_key(key_node, section);
        axis.line = line_of(key_node);
        if (!values.IsSequence())
            r.fail_at(values, fmt::format("{}: key '{}' expects a list of values ([a, b, ...]), got {}{}",
                                          section, axis.key, node_kind(values),
                                          values.IsScalar() ? " (a single value belongs in set:)" : ""));
        if (values.size() == 0)
            r.fail_at(key_node, fmt::format("{}: key '{}' is an empty axis", section, axis.key));
        std::set<std::string> seen;
        for (const auto& v : values) {
            const std::string text = r.scalar(v, fmt::format("{}: key '{}'", section, axis.key));
            if (!seen.insert(value_key(text)).second && unique)
                r.fail_at(v, fmt::format("{}: key '{}' lists the value '{}' twice", section, axis.key,
                                         shown(text)));
            axis.values.push_back(text);
        }
        return axis;
    };
    if (const YAML::Node grid = root["grid"]) {
        if (!grid.IsMap())
            r.fail_at(grid, fmt::format("grid expects `key: [values]` lines, got {}", node_kind(grid)));
        for (const auto& entry : grid)
            spec.axes.push_back(read_axis(entry.first, entry.second, "grid", true));
    }
    if (const YAML::Node zip = root["zip"]) {
        std::vector<YAML::Node> groups;
        if (zip.IsMap())
            groups.push_back(zip);
        else if (zip.IsSequence())
            for (const auto& g : zip)
                groups.push_back(g);
        else
            r.fail_at(zip, fmt::format("zip expects `key: [values]` lines (or a list of such groups), got {}",
                                       node_kind(zip)));
        for (const auto& group : groups) {
            if (!group.IsMap() || group.size() == 0)
                r.fail_at(group,
                          "a zip group expects `key: [values]` lines whose lists have the same length");
            std::vector<std::string> keys;
            size_t length = 0;
            YAML::Node first_values;
            for (const auto& entry : group) {
                Axis axis = read_axis(entry.first, entry.second, "zip", false);
                if (keys.empty()) first_values = entry.second;
                if (!keys.empty() && axis.values.size() != length)
                    r.fail_at(entry.first,
                              fmt::format("zip: key '{}' has {} values but '{}' has {}: keys that "
                                          "vary together need lists of one length",
                                          axis.key, axis.values.size(), keys.front(), length));
                length = axis.values.size();
                keys.push_back(axis.key);
                spec.axes.push_back(std::move(axis));
            }
            // Only a repeated combination is the same point twice.
            const auto members = spec.axes.end() - static_cast<std::ptrdiff_t>(keys.size());
            std::map<std::vector<std::string>, size_t> rows;
            for (size_t i = 0; i < length; ++i) {
                std::vector<std::string> row;
                for (auto a = members; a != spec.axes.end(); ++a)
                    row.push_back(value_key(a->values[i]));
                if (const auto [it, fresh] = rows.emplace(std::move(row), i); !fresh) {
                    std::string values;
                    for (auto a = members; a != spec.axes.end(); ++a)
                        values +=
                            fmt::format("{}{}={}", values.empty() ? "" : ", ", a->key, shown(a->values[i]));
                    r.fail_at(first_values[i],
                              fmt::format("zip: the combination {} is listed twice (entries {} "
                                          "and {})",
                                          values, it->second + 1, i + 1));
                }
            }
            spec.zip_groups.push_back(std::move(keys));
        }
    }

    auto is_axis = [&](const std::string& key) {
        if (key == "program") return spec.programs.size() > 1;
        return std::any_of(spec.axes.begin(), spec.axes.end(), [&](const Axis& a) { return a.key == key; });
    };
    std::vector<std::string> axis_names;
    if (spec.programs.size() > 1) axis_names.push_back("program");
    for (const auto& a : spec.axes)
        axis_names.push_back(a.key);

    if (const YAML::Node ex = root["exclude"]) {
        if (!ex.IsSequence())
            r.fail_at(ex, "exclude expects a list of `{key: value, ...}` points to leave out");
        for (const auto& item : ex) {
            if (!item.IsMap() || item.size() == 0)
                r.fail_at(
                    item,
                    "an exclude entry expects `{key: value, ...}` (the points having all these values)");
            std::map<std::string, std::string> match;
            for (const auto& entry : item) {
                const std::string key = r.scalar(entry.first, "exclude key");
                if (!is_axis(key))
                    r.fail_at(entry.first, fmt::format("exclude: '{}' is not a swept key{}", shown(key),
                                                       unknown_name_hint(key, axis_names)));
                if (match.count(key))
                    r.fail_at(entry.first, fmt::format("exclude: key '{}' given twice", key));
                const std::string value = r.scalar(entry.second, fmt::format("exclude: key '{}'", key));
                // A value the sweep never takes would exclude nothing, silently: a typo ("256KB") or a
                // value dropped from the grid. Keep the axis's spelling so that matching is exact.
                const std::vector<std::string>& taken = values_of(spec, key);
                const std::string* same = find_value(taken, key, value);
                if (!same)
                    r.fail_at(entry.second,
                              fmt::format("exclude: key '{}' never takes the value '{}' in this "
                                          "sweep (it takes {})",
                                          key, shown(value), some_values(taken)));
                match[key] = *same;
            }
            spec.excludes.push_back(std::move(match));
            spec.exclude_lines.push_back(line_of(item));
        }
    }

    // The size of the sweep before anything is expanded or resolved.
    {
        const auto dims = dimensions(spec);
        const uint64_t total = combination_count(dims);
        const YAML::Node where = root["grid"] ? root["grid"] : root["zip"] ? root["zip"] : program_node;
        if (total > kMaxSweepPoints)
            r.fail_at(where,
                      fmt::format("the sweep has {} points (programs x grid x zip), more than the {} "
                                  "one sweep file may have: split it into several files (e.g. one "
                                  "per program or per value of the first grid key)",
                                  total == UINT64_MAX ? std::string("over 2^64") : std::to_string(total),
                                  kMaxSweepPoints));
        std::vector<size_t> hits(spec.excludes.size(), 0);
        uint64_t left = 0;
        for_each_combination(dims, [&](const Assignment& a) {
            bool excluded = false;
            for (size_t i = 0; i < spec.excludes.size(); ++i)
                if (matches(a, spec.excludes[i])) {
                    ++hits[i];
                    excluded = true;
                }
            left += excluded ? 0 : 1;
        });
        for (size_t i = 0; i < hits.size(); ++i)
            if (hits[i] == 0)
                r.fail_at(spec.exclude_lines[i],
                          "exclude: no point of the sweep has all these values (keys of "
                          "one zip group vary together)");
        if (left == 0)
            r.fail_at(spec.exclude_lines.back(),
                      fmt::format("exclude: leaves none of the sweep's {} points to run", total));
    }

    if (const YAML::Node mc = root["max_cycles"]) {
        const auto v = parse_count(r.scalar(mc, "max_cycles"));
        if (!v || *v == 0)
            r.fail_at(mc, fmt::format("max_cycles expects a positive whole number (1000000000, 1e9, 1.5e9), "
                                      "got '{}'",
                                      shown(mc.Scalar())));
        // The results database keeps it as a signed 64-bit integer.
        if (*v > static_cast<uint64_t>(INT64_MAX))
            r.fail_at(mc,
                      fmt::format("max_cycles expects at most {}, got '{}'", INT64_MAX, shown(mc.Scalar())));
        spec.max_cycles = *v;
    }
    if (const YAML::Node regions = root["regions"]) {
        spec.regions = r.scalars(regions, "regions");
        spec.regions_line = line_of(regions);
    }

    const auto& metrics = region_metrics();
    auto check_metric = [&](const YAML::Node& n, const std::string& what) {
        const std::string m = r.scalar(n, what);
        if (std::find(metrics.begin(), metrics.end(), m) == metrics.end())
            r.fail_at(
                n, fmt::format("{}: '{}' is not a metric{}", what, shown(m), unknown_name_hint(m, metrics)));
        return m;
    };
    // Tables and plots may also lay out the perf regions, as if they were one more axis.
    auto check_axis = [&](const YAML::Node& n, const std::string& what) {
        const std::string k = r.scalar(n, what);
        if (k != "region" && !is_axis(k))
            r.fail_at(n, fmt::format("{}: '{}' is not a swept key{}", what, shown(k),
                                     axis_names.empty() ? std::string(" (the sweep has no axes)")
                                                        : unknown_name_hint(k, axis_names)));
        return k;
    };
    auto axis_list = [&](const YAML::Node& n, const std::string& what) {
        std::vector<std::string> out;
        if (n.IsScalar()) return std::vector<std::string>{check_axis(n, what)};
        if (!n.IsSequence()) r.fail_at(n, fmt::format("{} expects a key or a list of keys", what));
        for (const auto& k : n)
            out.push_back(check_axis(k, what));
        return out;
    };

    // A table or plot has one cell or line point per value of the keys it places (roles: x, series, ...);
    // a key the sweep varies that it does not place would put several points in one, silently. A zipped
    // key is placed by its partners when they tell its values apart; the programs by the regions (each
    // program names its own), where two programs sharing a region name are refused when drawn.
    auto check_layout = [&](int line, const std::string& what,
                            const std::vector<std::pair<std::string, std::string>>& roles,
                            const std::string& where_to_put, bool region_placed) {
        for (size_t i = 0; i < roles.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (roles[i].second == roles[j].second)
                    r.fail_at(line, roles[i].first == roles[j].first
                                        ? fmt::format("{}: {}: lists '{}' twice", what, roles[i].first,
                                                      roles[i].second)
                                        : fmt::format("{}: '{}' is both {}: and {}:", what, roles[i].second,
                                                      roles[j].first, roles[i].first));
        auto placed = [&](const std::string& key) {
            return std::any_of(roles.begin(), roles.end(), [&](const auto& kv) { return kv.second == key; });
        };
        auto unplaced = [&](const std::string& key) {
            r.fail_at(line, fmt::format("{}: the swept key '{}' is in none of its {}, which would mix points "
                                        "of different {} values; add it there (or sweep a single value)",
                                        what, key, where_to_put, key));
        };
        if (spec.programs.size() > 1 && !placed("program") && !region_placed) unplaced("program");
        for (const auto& a : spec.axes) {
            if (placed(a.key)) continue;
            const auto group =
                std::find_if(spec.zip_groups.begin(), spec.zip_groups.end(),
                             [&](const auto& g) { return std::find(g.begin(), g.end(), a.key) != g.end(); });
            // The placed keys of its zip group (none for a grid key) must determine its value.
            std::vector<const Axis*> partners;
            if (group != spec.zip_groups.end())
                for (const auto& b : spec.axes)
                    if (b.key != a.key && placed(b.key) &&
                        std::find(group->begin(), group->end(), b.key) != group->end())
                        partners.push_back(&b);
            std::map<std::vector<std::string>, std::string> value_of;
            for (size_t i = 0; i < a.values.size(); ++i) {
                std::vector<std::string> known;
                for (const Axis* b : partners)
                    known.push_back(value_key(b->values[i]));
                const auto [it, fresh] = value_of.emplace(std::move(known), value_key(a.values[i]));
                if (!fresh && it->second != value_key(a.values[i])) unplaced(a.key);
            }
        }
    };

    spec.metrics = {"cycles", "mac_per_cycle", "dma_verdict"};
    if (const YAML::Node m = root["metrics"]) {
        spec.metrics.clear();
        if (m.IsScalar())
            spec.metrics.push_back(check_metric(m, "metrics"));
        else if (m.IsSequence() && m.size() > 0)
            for (const auto& item : m)
                spec.metrics.push_back(check_metric(item, "metrics"));
        else
            r.fail_at(m, "metrics expects a metric or a list of metrics");
    }

    if (const YAML::Node t = root["table"]) {
        if (!t.IsMap()) r.fail_at(t, "table expects rows:, columns:, value: and facets:");
        // metrics: chooses the default table's columns, which a table: replaces.
        if (const YAML::Node m = root["metrics"])
            r.fail_at(m, "metrics: names the columns of the default table, which table: replaces (its value: "
                         "is the metric shown); leave one of them out");
        r.check_keys(t, kTableKeys, "table");
        spec.has_table = true;
        if (t["rows"]) spec.table.rows = axis_list(t["rows"], "table rows");
        if (t["columns"]) spec.table.columns = check_axis(t["columns"], "table columns");
        if (t["value"]) spec.table.value = check_metric(t["value"], "table value");
        if (t["facets"]) spec.table.facets = axis_list(t["facets"], "table facets");
        std::vector<std::pair<std::string, std::string>> roles;
        for (const auto& k : spec.table.rows)
            roles.emplace_back("rows", k);
        if (!spec.table.columns.empty()) roles.emplace_back("columns", spec.table.columns);
        for (const auto& k : spec.table.facets)
            roles.emplace_back("facets", k);
        // Regions not placed become facets (one table per region).
        spec.table.line = line_of(t);
        check_layout(spec.table.line, "table", roles, "rows:, columns: or facets:", true);
    }

    if (const YAML::Node plots = root["plots"]) {
        if (!plots.IsSequence()) r.fail_at(plots, "plots expects a list of plots (- kind: line, ...)");
        std::set<std::string> files;
        for (const auto& p : plots) {
            if (!p.IsMap()) r.fail_at(p, "a plot expects kind:, x:, ... lines");
            r.check_keys(p, kPlotKeys, "a plot");
            PlotSpec plot;
            if (!p["kind"]) r.fail_at(p, "a plot needs kind: line, heatmap or bars");
            plot.kind = r.scalar(p["kind"], "plot kind");
            if (std::find(kPlotKinds.begin(), kPlotKinds.end(), plot.kind) == kPlotKinds.end())
                r.fail_at(p["kind"],
                          fmt::format("plot kind '{}' is not line, heatmap or bars{}", shown(plot.kind),
                                      unknown_name_hint(plot.kind, kPlotKinds, 0)));
            if (!p["x"]) r.fail_at(p, fmt::format("a {} plot needs x: (a swept key)", plot.kind));
            plot.x = check_axis(p["x"], "plot x");
            if (plot.kind == "heatmap") {
                if (!p["y"]) r.fail_at(p, "a heatmap needs y: (a second swept key)");
                plot.y = check_axis(p["y"], "plot y");
                plot.value = p["value"] ? check_metric(p["value"], "plot value") : "mac_per_cycle";
                if (p["series"]) r.fail_at(p["series"], "a heatmap has no series: (its colour is the value)");
            } else {
                if (p["y"])
                    plot.value = check_metric(p["y"], "plot y");
                else if (p["value"])
                    plot.value = check_metric(p["value"], "plot value");
                else
                    plot.value = "mac_per_cycle";
                if (p["series"]) plot.series = check_axis(p["series"], "plot series");
            }
            if (p["facets"]) plot.facets = axis_list(p["facets"], "plot facets");
            if (p["region"]) plot.region = r.scalar(p["region"], "plot region");
            if (const YAML::Node b = p["baseline"]) {
                if (plot.kind != "bars")
                    r.fail_at(b, "baseline: belongs to bars plots (speed-up over a point)");
                if (!b.IsMap()) r.fail_at(b, "baseline expects `{key: value, ...}`");
                for (const auto& entry : b) {
                    const std::string key = check_axis(entry.first, "plot baseline");
                    if (plot.baseline.count(key))
                        r.fail_at(entry.first, fmt::format("baseline: key '{}' given twice", key));
                    plot.baseline[key] = r.scalar(entry.second, "plot baseline value");
                }
            }
            plot.file = p["file"] ? r.scalar(p["file"], "plot file")
                                  : fmt::format("{}-{}{}", spec.name, plot.kind, spec.plots.size() + 1);
            if (plot.file.find('/') != std::string::npos || plot.file.empty())
                r.fail_at(p["file"], "plot file expects a file name without a folder (plots go to --out)");
            // Checked here, not when the plot is drawn after every point ran: a name the filesystem refuses
            // (NUL, longer than a name may be with its ".png" and the ".tmp" of its temporary).
            if (plot.file.find('\0') != std::string::npos || plot.file.size() + 8 > 255)
                r.fail_at(p["file"],
                          fmt::format("plot file '{}': not a usable file name (no NUL, at most 247 bytes, "
                                      "which leaves room for .tmp.png)",
                                      shown(plot.file.substr(0, 40)) + (plot.file.size() > 40 ? "..." : "")));
            if (!files.insert(plot.file).second) r.fail_at(p, fmt::format("two plots write '{}'", plot.file));
            if (p["title"]) plot.title = r.scalar(p["title"], "plot title");
            plot.line = line_of(p);
            const std::string what = fmt::format("plot '{}'", plot.file);
            if (plot.value == "dma_verdict")
                r.fail_at(
                    plot.kind != "heatmap" && p["y"] ? p["y"] : p["value"],
                    fmt::format("{}: dma_verdict is a word (dma-bound, compute-bound), not a number to draw; "
                                "show it in metrics: or a table",
                                what));
            // The baseline must be a point of the sweep, or every bar would be empty.
            for (const auto& [key, value] : plot.baseline) {
                if (key == "region") continue; // known once the points ran
                const std::vector<std::string>& taken = values_of(spec, key);
                if (!find_value(taken, key, value))
                    r.fail_at(p["baseline"],
                              fmt::format("{}: baseline {}: '{}' is not a value of the sweep (it "
                                          "takes {})",
                                          what, key, shown(value), some_values(taken)));
            }
            std::vector<std::pair<std::string, std::string>> roles = {{"x", plot.x}};
            if (!plot.y.empty()) roles.emplace_back("y", plot.y);
            if (!plot.series.empty()) roles.emplace_back("series", plot.series);
            for (const auto& k : plot.facets)
                roles.emplace_back("facets", k);
            const std::string where_to_put =
                plot.kind == "heatmap" ? "x:, y: or facets:" : "x:, series: or facets:";
            const bool region_placed =
                !plot.region.empty() ||
                std::any_of(roles.begin(), roles.end(), [](const auto& kv) { return kv.second == "region"; });
            check_layout(plot.line, what, roles, where_to_put, region_placed);
            spec.plots.push_back(std::move(plot));
        }
    }
    // Every point must resolve: validate the combinations now, before anything runs.
    expand_points(spec, "");
    return spec;
}

std::vector<DesignPoint> expand_points(const SweepSpec& spec, const std::string& simulator_version) {
    PlatformConfig base;
    if (!spec.platform_file.empty()) base = load_platform(spec.platform_file);

    const auto dims = dimensions(spec);

    std::vector<std::string> fixed;
    for (const auto& [k, v] : spec.fixed)
        fixed.push_back(k + "=" + v);

    std::map<std::string, std::string> program_hashes;
    std::vector<DesignPoint> points;
    for_each_combination(dims, [&](const Assignment& assignment) {
        const bool excluded = std::any_of(spec.excludes.begin(), spec.excludes.end(),
                                          [&](const auto& match) { return matches(assignment, match); });
        if (!excluded) {
            DesignPoint point;
            point.program = assignment.front().second;
            point.max_cycles = spec.max_cycles;
            std::vector<std::string> overrides = fixed;
            for (size_t i = 1; i < assignment.size(); ++i)
                overrides.push_back(assignment[i].first + "=" + assignment[i].second);
            if (spec.programs.size() > 1) point.axes.push_back(assignment.front());
            for (size_t i = 1; i < assignment.size(); ++i)
                point.axes.push_back(assignment[i]);
            point.config = base;
            try {
                apply_overrides(point.config, overrides);
            } catch (const std::exception& e) {
                // "--set KEY: what" -> "file:line: key 'KEY': what (point ...)"
                std::string message = e.what();
                std::string key;
                if (message.rfind("--set ", 0) == 0) {
                    const size_t colon = message.find(':');
                    key = message.substr(6, colon - 6);
                    message = message.substr(colon + 2);
                }
                const auto it = spec.key_lines.find(key);
                const int line = it == spec.key_lines.end() ? 1 : it->second;
                std::string where;
                for (const auto& [k, v] : point.axes)
                    where += fmt::format("{}{}={}", where.empty() ? "" : ", ", k, v);
                // Leaving points out or zipping keys helps only a value that some other point of the sweep
                // takes.
                auto valid_elsewhere = [&] {
                    const auto axis = std::find_if(point.axes.begin(), point.axes.end(),
                                                   [&](const auto& a) { return a.first == key; });
                    if (axis == point.axes.end()) return true;
                    bool found = false;
                    for_each_combination(dims, [&](const Assignment& other) {
                        if (found || std::find(other.begin(), other.end(), *axis) == other.end()) return;
                        std::vector<std::string> sets = fixed;
                        for (size_t i = 1; i < other.size(); ++i)
                            sets.push_back(other[i].first + "=" + other[i].second);
                        PlatformConfig config = base;
                        try {
                            apply_overrides(config, sets);
                            found = true;
                        } catch (const std::exception&) {
                        }
                    });
                    return found;
                };
                const std::string hint =
                    point.axes.size() > 1 && message.find("exclude each other") == std::string::npos &&
                            valid_elsewhere()
                        ? "; leave it out with exclude: or vary the keys together with zip:"
                        : "";
                fail(fmt::format("{}:{}: key '{}': {} (point {}{})", spec.path, line, key, message,
                                 where.empty() ? "of set:" : where, hint));
            }
            point.config_yaml = to_yaml(point.config);
            if (!simulator_version.empty()) {
                auto [it, fresh] = program_hashes.emplace(point.program, "");
                if (fresh) it->second = file_hash(point.program);
                point.program_hash = it->second;
                point.id = point_identity(point, simulator_version);
            }
            points.push_back(std::move(point));
        }
    });
    return points;
}

} // namespace pulpsim::runs
