#include "runs/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include "cluster/printable.hpp"
#include "cluster/yaml_document.hpp"

namespace pulpsim::runs {
namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// Parses and checks one YAML file, naming file and line in every message.
class Reader {
  public:
    Reader(std::string path, const std::string& text) : path_(std::move(path)), text_(text) {}
    [[noreturn]] void fail_at(const YAML::Node& n, const std::string& m) const {
        fail(fmt::format("{}:{}: {}", path_, line_of(n), m));
    }
    std::string scalar(const YAML::Node& n, const std::string& what) const {
        if (!n.IsScalar()) fail_at(n, what + " expects a value");
        return n.Scalar();
    }
    // Counts go into the history as signed 64-bit integers and into signed deltas.
    uint64_t count(const YAML::Node& n, const std::string& what) const {
        const std::string s = scalar(n, what);
        const auto v = parse_size(s);
        if (!v) fail_at(n, fmt::format("{} expects a non-negative integer, got '{}'", what, s.substr(0, 40)));
        if (*v > static_cast<uint64_t>(INT64_MAX))
            fail_at(n, fmt::format("{} expects at most {}, got {}", what, INT64_MAX, s.substr(0, 40)));
        return *v;
    }
    uint64_t positive(const YAML::Node& n, const std::string& what) const {
        const uint64_t v = count(n, what);
        if (v == 0) fail_at(n, fmt::format("{} expects a positive integer, got 0", what));
        return v;
    }
    double real(const YAML::Node& n, const std::string& what) const {
        const std::string s = scalar(n, what);
        try {
            size_t used = 0;
            const double v = std::stod(s, &used);
            if (used == s.size() && v >= 0 && std::isfinite(v)) return v;
        } catch (const std::exception&) {
        }
        fail_at(n, fmt::format("{} expects a non-negative number, got '{}'", what, s.substr(0, 40)));
    }
    void known_keys(const YAML::Node& map, const std::vector<std::string>& keys,
                    const std::string& where) const {
        for (const auto& kv : map) {
            const std::string k = scalar(kv.first, where + " key");
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                fail_at(kv.first, fmt::format("unknown key '{}' in {}{}", k.substr(0, 40), where,
                                              unknown_name_hint(k, keys)));
        }
    }
    // A fraction: 5 written for 5% would let a region run six times as long and still pass.
    double fraction(const YAML::Node& n, const std::string& what) const {
        const double v = real(n, what);
        if (v > 1)
            fail_at(n, fmt::format("{} is a fraction of the baseline (0.05 = 5%), at most 1; {} would pass a "
                                   "region {} times as long",
                                   what, scalar(n, what), v + 1));
        return v;
    }
    Tolerance tolerance(const YAML::Node& n, Tolerance base) const {
        if (n.IsScalar()) {
            base.relative = fraction(n, "tolerance");
            base.absolute = 0;
            return base;
        }
        if (!n.IsMap())
            fail_at(n, "tolerance expects a fraction (0.01 = 1%) or {relative: R, absolute: CYCLES}");
        known_keys(n, {"relative", "absolute"}, "tolerance");
        if (n["relative"]) base.relative = fraction(n["relative"], "tolerance relative");
        if (n["absolute"]) base.absolute = count(n["absolute"], "tolerance absolute");
        return base;
    }
    // YAML keeps one of two equal keys and drops the other silently; a baseline must say each thing once,
    // or --update would edit a number the check does not read.
    void no_repeated_keys(const YAML::Node& n) const {
        if (n.IsSequence())
            for (const auto& item : n)
                no_repeated_keys(item);
        if (!n.IsMap()) return;
        std::map<std::string, int> first_line;
        for (const auto& kv : n) {
            if (kv.first.IsScalar()) {
                const auto [at, inserted] = first_line.emplace(kv.first.Scalar(), line_of(kv.first));
                if (!inserted)
                    fail_at(kv.first, fmt::format("key '{}' given twice (first on line {})",
                                                  kv.first.Scalar().substr(0, 40), at->second));
            }
            no_repeated_keys(kv.second);
        }
    }
    TextSpan span(const YAML::Node& n) const {
        // The reader counts positions after a byte-order mark.
        const size_t bom = text_.starts_with("\xEF\xBB\xBF") ? 3 : 0;
        TextSpan at{static_cast<size_t>(n.Mark().pos) + bom, n.Scalar().size(), line_of(n)};
        const auto holds = [&](size_t pos) { return text_.compare(pos, at.length, n.Scalar()) == 0; };
        if (holds(at.offset)) return at;
        if (at.offset < text_.size() && (text_[at.offset] == '\'' || text_[at.offset] == '"') &&
            holds(at.offset + 1)) {
            ++at.offset;
            return at;
        }
        at.in_place = false;
        return at;
    }

  private:
    std::string path_;
    const std::string& text_;
};

// The first alias (*name) of a YAML document, found from the parser's events: no tree is built, so
// aliases of aliases are not expanded.
class FirstAlias : public YAML::EventHandler {
  public:
    std::optional<YAML::Mark> at;
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        if (!at) at = mark;
    }
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

// Offset of the start of a line (1-based) and of the line after it.
std::pair<size_t, size_t> line_bounds(const std::string& text, int line) {
    size_t start = 0;
    for (int l = 1; l < line && start != std::string::npos; ++l) {
        start = text.find('\n', start);
        if (start != std::string::npos) ++start;
    }
    if (start == std::string::npos) return {text.size(), text.size()};
    const size_t end = text.find('\n', start);
    return {start, end == std::string::npos ? text.size() : end + 1};
}

struct RegionFigures {
    uint64_t cycles = 0, instret = 0;
    double mac_per_cycle = 0;
};

// The regions of a report in report order.
std::vector<std::pair<std::string, RegionFigures>> report_regions(const PointResult& result) {
    std::vector<std::pair<std::string, RegionFigures>> out;
    try {
        const auto j = nlohmann::json::parse(result.report);
        for (const auto& r : j.at("regions"))
            out.emplace_back(r.at("name").get<std::string>(),
                             RegionFigures{r.at("cycles").get<uint64_t>(), r.at("instret").get<uint64_t>(),
                                           r.value("mac_per_cycle", 0.0)});
    } catch (const std::exception&) {
    }
    return out;
}

// A name or a path as YAML reads it back: plain where it can be, quoted where a ':', '#' or the like would
// change its meaning.
std::string yaml_text(const std::string& text) {
    YAML::Emitter out;
    out << text;
    return out.c_str();
}

std::string region_line(const std::string& indent, const std::string& name, const RegionFigures& f) {
    return fmt::format("{}{}: {{cycles: {}, instret: {}}}\n", indent, yaml_text(name), f.cycles, f.instret);
}

} // namespace

bool Tolerance::accepts(uint64_t baseline, uint64_t now) const {
    const uint64_t diff = baseline > now ? baseline - now : now - baseline;
    return diff <= absolute || static_cast<double>(diff) <= relative * static_cast<double>(baseline);
}

const char* to_string(Verdict v) {
    switch (v) {
    case Verdict::Ok: return "ok";
    case Verdict::Slower: return "slower";
    case Verdict::Faster: return "faster";
    case Verdict::New: return "new";
    case Verdict::Missing: return "missing";
    case Verdict::Failed: return "failed";
    }
    return "?";
}

BaselineFile load_baseline(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        fail(fmt::format("{}: cannot read baseline file: {}", path,
                         std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return parse_baseline(path, s.str());
}

BaselineFile parse_baseline(const std::string& path, std::string text) {
    BaselineFile file;
    file.path = path;
    file.text = std::move(text);
    YAML::Node root;
    FirstAlias alias;
    try {
        root = load_one_document(file.text);
        std::istringstream in(file.text);
        YAML::Parser parser(in);
        parser.HandleNextDocument(alias);
    } catch (const YAML::Exception& e) {
        fail(fmt::format("{}:{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    // An alias shares one node between places: walking it would expand it (exponentially for aliases of
    // aliases), and --update, which edits a number where it is written, would change every place at once.
    if (alias.at)
        fail(fmt::format("{}:{}: a YAML alias (*name) in a baseline: write the value out where it is used",
                         path, alias.at->line + 1));
    const Reader r(path, file.text);
    if (!root.IsMap()) r.fail_at(root, "expected `entries:` (and optionally `platform:`, `tolerance:`)");
    r.no_repeated_keys(root);
    r.known_keys(root, {"platform", "tolerance", "max_cycles", "entries"}, "the baseline file");
    std::string platform;
    if (root["platform"]) platform = r.scalar(root["platform"], "platform");
    Tolerance tolerance;
    if (root["tolerance"]) tolerance = r.tolerance(root["tolerance"], tolerance);
    uint64_t max_cycles = kDefaultMaxCycles;
    if (root["max_cycles"]) max_cycles = r.positive(root["max_cycles"], "max_cycles");
    const YAML::Node entries = root["entries"];
    if (!entries || !entries.IsSequence())
        r.fail_at(entries ? entries : root, "entries expects a list (- name: ...)");
    // A gate that checks nothing would pass whatever the programs do.
    if (entries.size() == 0) r.fail_at(entries, "entries is empty: a baseline checks at least one entry");
    std::set<std::string> names;
    std::map<std::string, PlatformConfig> platforms;
    for (const auto& e : entries) {
        if (!e.IsMap()) r.fail_at(e, "an entry expects name:, program:, regions: ...");
        r.known_keys(e, {"name", "program", "platform", "set", "tolerance", "max_cycles", "regions"},
                     "an entry");
        BaselineEntry entry;
        entry.line = line_of(e);
        if (!e["name"]) r.fail_at(e, "an entry needs a name:");
        entry.name = r.scalar(e["name"], "name");
        if (!names.insert(entry.name).second)
            r.fail_at(e["name"], fmt::format("entry '{}' given twice", entry.name));
        if (!e["program"]) r.fail_at(e, fmt::format("entry '{}' needs a program:", entry.name));
        entry.program = r.scalar(e["program"], "program");
        entry.platform_file = e["platform"] ? r.scalar(e["platform"], "platform") : platform;
        entry.tolerance = e["tolerance"] ? r.tolerance(e["tolerance"], tolerance) : tolerance;
        if (const YAML::Node set = e["set"]) {
            if (!set.IsMap()) r.fail_at(set, "set expects `key: value` pairs");
            for (const auto& kv : set)
                entry.overrides.push_back(r.scalar(kv.first, "set key") + "=" +
                                          r.scalar(kv.second, "set value"));
        }
        // Resolve the platform now: a bad key or value is an error of this file.
        PlatformConfig config;
        if (!entry.platform_file.empty()) {
            auto it = platforms.find(entry.platform_file);
            if (it == platforms.end()) {
                try {
                    it = platforms.emplace(entry.platform_file, load_platform(entry.platform_file)).first;
                } catch (const std::exception& ex) {
                    r.fail_at(e["platform"] ? e["platform"] : root["platform"],
                              fmt::format("platform: {}", ex.what()));
                }
            }
            config = it->second;
        }
        try {
            apply_overrides(config, entry.overrides);
        } catch (const std::exception& ex) {
            r.fail_at(e["set"], fmt::format("entry '{}': {}", entry.name, ex.what()));
        }
        entry.point.program = entry.program;
        entry.point.config = config;
        entry.point.config_yaml = to_yaml(config);
        entry.point.max_cycles = e["max_cycles"] ? r.positive(e["max_cycles"], "max_cycles") : max_cycles;

        const YAML::Node regions = e["regions"];
        if (!regions || !regions.IsMap())
            r.fail_at(regions ? regions : e,
                      fmt::format("entry '{}' needs regions: (name: cycles, ...)", entry.name));
        if (regions.size() == 0)
            r.fail_at(regions,
                      fmt::format("entry '{}' has no regions: an entry checks at least one", entry.name));
        entry.regions_line = line_of(regions);
        for (const auto& kv : regions) {
            RegionBaseline rb;
            rb.name = r.scalar(kv.first, "region name");
            rb.whole_line = {0, 0, line_of(kv.first)};
            entry.regions_indent = static_cast<size_t>(kv.first.Mark().column);
            const YAML::Node v = kv.second;
            if (v.IsScalar()) {
                // A region takes at least a cycle: 0 is no baseline to compare with.
                rb.cycles = r.positive(v, fmt::format("region '{}'", rb.name));
                rb.cycles_at = r.span(v);
            } else if (v.IsMap()) {
                r.known_keys(v, {"cycles", "instret", "mac_per_cycle"}, fmt::format("region '{}'", rb.name));
                if (!v["cycles"]) r.fail_at(v, fmt::format("region '{}' needs cycles:", rb.name));
                rb.cycles = r.positive(v["cycles"], "cycles");
                rb.cycles_at = r.span(v["cycles"]);
                if (v["instret"]) {
                    rb.instret = r.count(v["instret"], "instret");
                    rb.instret_at = r.span(v["instret"]);
                }
                if (v["mac_per_cycle"]) {
                    rb.mac_per_cycle = r.real(v["mac_per_cycle"], "mac_per_cycle");
                    rb.mac_at = r.span(v["mac_per_cycle"]);
                }
            } else {
                r.fail_at(v, fmt::format("region '{}' expects cycles or {{cycles: N, instret: N}}", rb.name));
            }
            entry.regions.push_back(std::move(rb));
        }
        file.entries.push_back(std::move(entry));
    }
    return file;
}

std::vector<RegressRow> compare_entry(const BaselineEntry& entry, const PointResult& result) {
    std::vector<RegressRow> rows;
    if (!result.ok) {
        // One failed row per region the baseline expects, so that a report counts the same regions whether
        // the entry ran or not (CI dashboards compare test counts from run to run).
        for (const auto& b : entry.regions)
            rows.push_back({entry.name, b.name, Verdict::Failed, b.cycles, 0, result.error});
        return rows;
    }
    const auto now = report_regions(result);
    for (const auto& b : entry.regions) {
        const auto it =
            std::find_if(now.begin(), now.end(), [&](const auto& r) { return r.first == b.name; });
        if (it == now.end()) {
            rows.push_back(
                {entry.name, b.name, Verdict::Missing, b.cycles, 0, "the program no longer reports it"});
            continue;
        }
        const RegionFigures& f = it->second;
        RegressRow row{entry.name, b.name, Verdict::Ok, b.cycles, f.cycles, ""};
        if (!entry.tolerance.accepts(b.cycles, f.cycles))
            row.verdict = f.cycles > b.cycles ? Verdict::Slower : Verdict::Faster;
        else if (b.instret && !entry.tolerance.accepts(*b.instret, f.instret)) {
            row.verdict = f.instret > *b.instret ? Verdict::Slower : Verdict::Faster;
            row.message = fmt::format("instret {} -> {}", *b.instret, f.instret);
        } else if (b.mac_per_cycle && std::abs(f.mac_per_cycle - *b.mac_per_cycle) >
                                          5e-4 + entry.tolerance.relative * *b.mac_per_cycle) {
            row.verdict = f.mac_per_cycle < *b.mac_per_cycle ? Verdict::Slower : Verdict::Faster;
            row.message = fmt::format("MAC/cycle {:.3f} -> {:.3f}", *b.mac_per_cycle, f.mac_per_cycle);
        }
        rows.push_back(std::move(row));
    }
    for (const auto& [name, f] : now)
        if (std::none_of(entry.regions.begin(), entry.regions.end(),
                         [&](const auto& b) { return b.name == name; }))
            rows.push_back({entry.name, name, Verdict::New, 0, f.cycles, "not in the baseline"});
    return rows;
}

namespace {

// The edited text read back must give each updated entry the run's regions and cycles and leave the others
// as they were: edits by line and column cannot keep every YAML layout.
void check_updated(const BaselineFile& file, const std::string& text,
                   const std::map<std::string, PointResult>& results) {
    const auto refuse = [&](const std::string& why) {
        fail(fmt::format(
            "{}: --update cannot rewrite this file in place ({}); it is unchanged: write its regions "
            "one per line (name: cycles, or name: {{cycles: N, instret: N}})",
            file.path, why));
    };
    BaselineFile now;
    try {
        now = parse_baseline(file.path, text);
    } catch (const std::exception&) {
        refuse("the edited text would not read back");
    }
    if (now.entries.size() != file.entries.size()) refuse("the entries would change");
    for (size_t i = 0; i < now.entries.size(); ++i) {
        const BaselineEntry &before = file.entries[i], &after = now.entries[i];
        const auto res = results.find(before.name);
        std::vector<std::pair<std::string, uint64_t>> want, got;
        if (res == results.end() || !res->second.ok) {
            for (const auto& b : before.regions)
                want.emplace_back(b.name, b.cycles);
        } else {
            for (const auto& [name, f] : report_regions(res->second))
                want.emplace_back(name, f.cycles);
        }
        for (const auto& b : after.regions)
            got.emplace_back(b.name, b.cycles);
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        if (after.name != before.name || want != got)
            refuse(fmt::format("entry '{}' would not read back with its new regions", before.name));
    }
}

} // namespace

std::string updated_baseline(const BaselineFile& file, const std::map<std::string, PointResult>& results) {
    struct Edit {
        size_t offset, length;
        std::string text;
    };
    std::vector<Edit> edits;
    for (const auto& entry : file.entries) {
        const auto res = results.find(entry.name);
        if (res == results.end() || !res->second.ok) continue;
        const auto now = report_regions(res->second);
        for (const auto& b : entry.regions) {
            const auto it =
                std::find_if(now.begin(), now.end(), [&](const auto& r) { return r.first == b.name; });
            if (it == now.end()) { // gone from the program: drop its line
                const auto [start, end] = line_bounds(file.text, b.whole_line.line);
                edits.push_back({start, end - start, ""});
                continue;
            }
            const RegionFigures& f = it->second;
            const auto edit = [&](const TextSpan& at, std::string number) {
                if (!at.in_place)
                    fail(fmt::format(
                        "{}:{}: --update edits numbers where they are written; this one has a tag or "
                        "an anchor before it: write the number alone (the file is unchanged)",
                        file.path, at.line));
                edits.push_back({at.offset, at.length, std::move(number)});
            };
            if (f.cycles != b.cycles) edit(b.cycles_at, std::to_string(f.cycles));
            if (b.instret && f.instret != *b.instret) edit(b.instret_at, std::to_string(f.instret));
            if (b.mac_per_cycle &&
                fmt::format("{:.3f}", f.mac_per_cycle) != fmt::format("{:.3f}", *b.mac_per_cycle))
                edit(b.mac_at, fmt::format("{:.3f}", f.mac_per_cycle));
        }
        // New regions go after the entry's last region line, indented like it.
        std::string added;
        for (const auto& [name, f] : now)
            if (std::none_of(entry.regions.begin(), entry.regions.end(),
                             [&](const auto& b) { return b.name == name; }))
                added += region_line(std::string(entry.regions_indent, ' '), name, f);
        if (!added.empty() && !entry.regions.empty()) {
            const auto [start, end] = line_bounds(file.text, entry.regions.back().whole_line.line);
            (void)start;
            edits.push_back({end, 0, added});
        }
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.offset > b.offset; });
    std::string text = file.text;
    for (const auto& e : edits)
        text.replace(e.offset, e.length, e.text);
    check_updated(file, text, results);
    return text;
}

std::string initial_baseline(const std::vector<BaselineEntry>& entries,
                             const std::map<std::string, PointResult>& results,
                             const std::string& platform_file) {
    std::string out =
        "# Cycle baselines for `pulpsim regress`: a region whose cycles move beyond the tolerance fails the\n"
        "# check. Bless a deliberate change with `pulpsim regress THIS_FILE --update` and commit the diff.\n";
    if (!platform_file.empty()) out += fmt::format("platform: {}\n", yaml_text(platform_file));
    out += "tolerance: 0 # exact: the simulator is deterministic\nentries:\n";
    for (const auto& e : entries) {
        out += fmt::format("  - name: {}\n    program: {}\n", yaml_text(e.name), yaml_text(e.program));
        if (!e.overrides.empty()) {
            out += "    set:\n";
            for (const auto& o : e.overrides) {
                const size_t eq = o.find('=');
                out += fmt::format("      {}: {}\n", yaml_text(o.substr(0, eq)), yaml_text(o.substr(eq + 1)));
            }
        }
        const auto regions = report_regions(results.at(e.name));
        // load_baseline refuses an entry that checks nothing: never write one.
        if (regions.empty())
            throw std::invalid_argument(fmt::format(
                "--init: {}: the program ran no perf region (region_begin/region_end): an entry needs one",
                e.program));
        out += "    regions:\n";
        for (const auto& [name, f] : regions)
            out += region_line("      ", name, f);
    }
    return out;
}

} // namespace pulpsim::runs
