#include "runs/sweep_views.hpp"

#include "cluster/printable.hpp"
#include "cluster/report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace pulpsim::runs {
namespace {

std::string axis_value(const DesignPoint& p, const std::string& key) {
    if (key == "program") return p.program;
    for (const auto& [k, v] : p.axes)
        if (k == key) return v;
    return "";
}

// An axis value in the JSON export: a whole number or a boolean as such, any other value (a size with its
// unit, a name) as the sweep file writes it.
nlohmann::ordered_json axis_json(const std::string& text) {
    if (text == "true" || text == "false") return text == "true";
    const bool digits = !text.empty() && text.size() <= 18 &&
                        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && (text.size() == 1 || text[0] != '0')) return std::stoll(text);
    return text;
}

std::string metric_text(const std::string& metric, const Value& v) {
    if (auto d = std::get_if<double>(&v)) {
        if (metric == "mac_per_cycle") return fmt::format("{:.3f}", *d);
        return fmt::format("{:.4g}", *d);
    }
    return to_text(v);
}

// Regions to show: the spec's, else every region the stored points report, in report order.
std::vector<std::string> shown_regions(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                                       const SweepResults& results) {
    if (!spec.regions.empty()) return spec.regions;
    std::vector<std::string> out;
    for (const auto& p : points)
        if (auto it = results.points.find(p.id); it != results.points.end())
            for (const auto& r : it->second.region_order)
                if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    return out;
}

std::string md_row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) {
        std::string cell = c;
        // A '|' or a line break inside a cell would break the table; other control characters (a region
        // name's terminal escapes) are shown escaped.
        for (char& ch : cell)
            if (ch == '|' || ch == '\n' || ch == '\r') ch = ch == '|' ? '/' : ' ';
        out.append(" ").append(printable(cell)).append(" |");
    }
    return out + "\n";
}

std::string md_rule(size_t n) {
    std::string out = "|";
    for (size_t i = 0; i < n; ++i)
        out += "---|";
    return out + "\n";
}

std::string cell_text(const SweepResults& results, const DesignPoint& p, const std::string& region,
                      const std::string& metric, bool* dma_bound) {
    const auto it = results.points.find(p.id);
    if (it == results.points.end()) return "-";
    if (it->second.status != "ok") return "failed";
    const auto r = it->second.regions.find(region);
    if (r == it->second.regions.end()) return "no region";
    const auto verdict = r->second.find("dma_verdict");
    if (verdict != r->second.end() && to_text(verdict->second) == "dma-bound") *dma_bound = true;
    const auto m = r->second.find(metric);
    if (m == r->second.end()) return "";
    std::string text = metric_text(metric, m->second);
    if (verdict != r->second.end() && to_text(verdict->second) == "dma-bound") text += "*";
    return text;
}

} // namespace

SweepResults load_sweep_results(const ResultsStore& store, const std::vector<DesignPoint>& points) {
    SweepResults out;
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& p : points)
        ids.push_back(p.id);
    std::string metrics;
    for (const auto& m : region_metrics())
        metrics += fmt::format(", r.\"{}\"", m);
    // One query whatever the number of points: the identities go in as one JSON array.
    const QueryResult q =
        store.query("SELECT p.id AS point_id, p.status, p.error, r.name AS region" + metrics +
                        " FROM points p LEFT JOIN regions r ON r.point_id = p.id"
                        " WHERE p.id IN (SELECT value FROM json_each(?)) ORDER BY p.id, r.rowid",
                    {ids.dump()});
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < q.columns.size(); ++i)
        col[q.columns[i]] = i;
    for (const auto& row : q.rows) {
        auto& p = out.points[to_text(row[col.at("point_id")])];
        p.status = to_text(row[col.at("status")]);
        p.error = to_text(row[col.at("error")]);
        const std::string region = to_text(row[col.at("region")]);
        if (region.empty() || p.regions.count(region)) continue;
        p.region_order.push_back(region);
        auto& metrics = p.regions[region];
        for (const auto& m : region_metrics())
            metrics[m] = row[col.at(m)];
    }
    return out;
}

std::string markdown_tables(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                            const SweepResults& results) {
    std::string out;
    std::vector<std::string> axes;
    if (spec.programs.size() > 1) axes.push_back("program");
    for (const auto& a : spec.axes)
        axes.push_back(a.key);
    bool any_dma_bound = false;

    if (!spec.has_table) {
        // One row per point and region.
        std::vector<std::string> header = axes;
        header.push_back("region");
        for (const auto& m : spec.metrics)
            header.push_back(m);
        out += md_row(header) + md_rule(header.size());
        const auto regions = shown_regions(spec, points, results);
        for (const auto& p : points) {
            const auto it = results.points.find(p.id);
            std::vector<std::string> base;
            for (const auto& a : axes)
                base.push_back(axis_value(p, a));
            if (it == results.points.end() || it->second.status != "ok") {
                auto row = base;
                row.push_back(it == results.points.end() ? "(not run)" : "(failed)");
                row.push_back(it == results.points.end() ? "" : it->second.error);
                row.resize(header.size());
                out += md_row(row);
                continue;
            }
            for (const auto& region : regions) {
                if (!it->second.regions.count(region)) continue;
                auto row = base;
                row.push_back(region);
                for (const auto& m : spec.metrics) {
                    const Value& v = it->second.regions.at(region).at(m);
                    row.push_back(metric_text(m, v));
                }
                out += md_row(row);
            }
        }
        return out;
    }

    // Cells are (point, region) items; regions are one more key, a facet unless the table places them.
    TableSpec t = spec.table;
    auto uses = [&](const std::string& k) {
        return t.columns == k || std::find(t.rows.begin(), t.rows.end(), k) != t.rows.end() ||
               std::find(t.facets.begin(), t.facets.end(), k) != t.facets.end();
    };
    if (!uses("region")) t.facets.insert(t.facets.begin(), "region");
    struct Item {
        const DesignPoint* point;
        std::string region;
    };
    const auto regions = shown_regions(spec, points, results);
    // A failed or pending point shows in the regions its program's stored points report; in one row "-"
    // when none of them is stored (a region list names the regions of every program).
    std::map<std::string, std::set<std::string>> program_regions;
    for (const auto& p : points)
        if (const auto it = results.points.find(p.id);
            it != results.points.end() && it->second.status == "ok")
            for (const auto& [region, metrics] : it->second.regions)
                program_regions[p.program].insert(region);
    std::vector<Item> items;
    for (const auto& p : points) {
        const auto it = results.points.find(p.id);
        const bool ok = it != results.points.end() && it->second.status == "ok";
        const auto known = program_regions.find(p.program);
        bool shown = false;
        for (const auto& region : regions)
            if (ok ? it->second.regions.count(region) != 0
                   : known != program_regions.end() && known->second.count(region) != 0) {
                items.push_back({&p, region});
                shown = true;
            }
        if (!ok && !shown) items.push_back({&p, "-"});
    }
    auto key_of = [](const Item& item, const std::string& k) {
        return k == "region" ? item.region : axis_value(*item.point, k);
    };
    auto distinct = [&](const std::vector<const Item*>& subset, const std::vector<std::string>& keys) {
        std::vector<std::vector<std::string>> out;
        for (const Item* item : subset) {
            std::vector<std::string> v;
            for (const auto& k : keys)
                v.push_back(key_of(*item, k));
            if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
        }
        return out;
    };
    auto select = [&](const std::vector<const Item*>& from, const std::vector<std::string>& keys,
                      const std::vector<std::string>& values) {
        std::vector<const Item*> out;
        for (const Item* item : from) {
            bool match = true;
            for (size_t i = 0; i < keys.size(); ++i)
                match = match && key_of(*item, keys[i]) == values[i];
            if (match) out.push_back(item);
        }
        return out;
    };
    std::vector<const Item*> all;
    for (const auto& item : items)
        all.push_back(&item);
    const std::vector<std::string> column_keys =
        t.columns.empty() ? std::vector<std::string>{} : std::vector<std::string>{t.columns};
    for (const auto& facet : distinct(all, t.facets)) {
        const auto subset = select(all, t.facets, facet);
        std::string title = t.value;
        for (size_t i = 0; i < t.facets.size(); ++i)
            title += fmt::format(", {} = {}", t.facets[i], facet[i]);
        out.append(out.empty() ? "" : "\n").append(title).append("\n\n");
        const auto columns = distinct(subset, column_keys);
        std::vector<std::string> header = t.rows;
        for (const auto& c : columns)
            header.push_back(t.columns.empty() ? t.value : fmt::format("{}={}", t.columns, c[0]));
        out += md_row(header) + md_rule(header.size());
        for (const auto& rv : distinct(subset, t.rows)) {
            const auto in_row = select(subset, t.rows, rv);
            std::vector<std::string> row = rv;
            for (const auto& c : columns) {
                // Only the programs may differ within a cell (the sweep file's check): their regions tell
                // them apart, so a cell holds one stored point with that region, and two are refused.
                // Failed and pending points may have any region: they show only where nothing else is.
                const auto in_cell = select(in_row, column_keys, c);
                std::vector<const Item*> have, others;
                for (const Item* item : in_cell) {
                    const auto it = results.points.find(item->point->id);
                    (it != results.points.end() && it->second.status == "ok" ? have : others).push_back(item);
                }
                if (have.size() > 1)
                    throw std::runtime_error(fmt::format(
                        "{}:{}: table: programs '{}' and '{}' both have the region '{}', which would share "
                        "one cell; add program to rows:, columns: or facets:",
                        spec.path, t.line, printable(have[0]->point->program),
                        printable(have[1]->point->program), printable(have[0]->region)));
                std::string text;
                for (const Item* item : have.empty() ? others : have) {
                    const std::string one =
                        cell_text(results, *item->point, item->region, t.value, &any_dma_bound);
                    if (text.empty() || one == "failed") text = one;
                }
                row.push_back(text);
            }
            out += md_row(row);
        }
    }
    if (any_dma_bound) out += "\n* = DMA-bound (the DMA was busy longer than the cores computed)\n";
    return out;
}

std::string unknown_regions(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                            const SweepResults& results) {
    std::vector<std::string> have;
    std::set<std::string> programs, programs_run;
    size_t ok = 0;
    for (const auto& p : points) {
        programs.insert(p.program);
        if (auto it = results.points.find(p.id); it != results.points.end() && it->second.status == "ok") {
            ++ok;
            programs_run.insert(p.program);
            for (const auto& r : it->second.region_order)
                if (std::find(have.begin(), have.end(), r) == have.end()) have.push_back(r);
        }
    }
    // A program none of whose points ran yet may have the region: a half-run sweep is no proof.
    if (ok == 0 || programs_run.size() < programs.size()) return "";
    struct Named {
        std::string region, where;
        int line;
    };
    std::vector<Named> named;
    for (const auto& r : spec.regions)
        named.push_back({r, "regions", spec.regions_line});
    for (const auto& plot : spec.plots)
        if (!plot.region.empty())
            named.push_back({plot.region, fmt::format("plot '{}'", plot.file), plot.line});
    for (const auto& [region, where, line] : named)
        if (std::find(have.begin(), have.end(), region) == have.end()) {
            std::string listed;
            for (size_t i = 0; i < have.size() && i < 12; ++i)
                listed += (i ? ", " : "") + printable(have[i]);
            if (have.size() > 12) listed += ", ...";
            return fmt::format("{}:{}: {}: region '{}' is in none of the {} stored points (they have: {}); "
                               "they stay stored: fix the name and run again, nothing is simulated twice",
                               spec.path, line, where, printable(region), ok,
                               have.empty() ? "no regions" : listed);
        }
    return "";
}

std::string export_results(const SweepSpec& spec, const std::vector<DesignPoint>& points,
                           const SweepResults& results, const std::string& format) {
    std::vector<std::string> axes;
    axes.push_back("program");
    for (const auto& a : spec.axes)
        axes.push_back(a.key);
    const auto& metrics = region_metrics();
    std::set<std::string> wanted(spec.regions.begin(), spec.regions.end());

    struct Row {
        size_t ordinal;
        const DesignPoint* point;
        std::string status, error, region;
        const std::map<std::string, Value>* metrics;
    };
    std::vector<Row> rows;
    for (size_t i = 0; i < points.size(); ++i) {
        const auto it = results.points.find(points[i].id);
        if (it == results.points.end()) {
            rows.push_back({i, &points[i], "pending", "", "", nullptr});
            continue;
        }
        bool any = false;
        for (const auto& region : it->second.region_order)
            if (wanted.empty() || wanted.count(region)) {
                rows.push_back({i, &points[i], it->second.status, it->second.error, region,
                                &it->second.regions.at(region)});
                any = true;
            }
        if (!any) rows.push_back({i, &points[i], it->second.status, it->second.error, "", nullptr});
    }

    if (format == "json") {
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const Row& r : rows) {
            nlohmann::ordered_json j;
            j["sweep"] = spec.name;
            j["ordinal"] = r.ordinal;
            j["point_id"] = r.point->id;
            for (const auto& a : axes)
                j[a] = axis_json(axis_value(*r.point, a));
            j["status"] = r.status;
            j["error"] = r.error;
            j["region"] = r.region;
            for (const auto& m : metrics) {
                const Value v = r.metrics ? r.metrics->at(m) : Value{};
                if (auto n = std::get_if<int64_t>(&v))
                    j[m] = *n;
                else if (auto d = std::get_if<double>(&v))
                    j[m] = *d;
                else if (auto s = std::get_if<std::string>(&v))
                    j[m] = *s;
                else
                    j[m] = nullptr;
            }
            arr.push_back(std::move(j));
        }
        return arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    std::string out = "sweep,ordinal,point_id";
    for (const auto& a : axes)
        out.append(",").append(csv_field(a));
    out += ",status,error,region";
    for (const auto& m : metrics)
        out.append(",").append(m);
    out += "\n";
    for (const Row& r : rows) {
        out += fmt::format("{},{},{}", csv_field(spec.name), r.ordinal, r.point->id);
        for (const auto& a : axes)
            out.append(",").append(csv_field(axis_value(*r.point, a)));
        out += fmt::format(",{},{},{}", r.status, csv_field(r.error), csv_field(r.region));
        for (const auto& m : metrics)
            out.append(",").append(csv_field(r.metrics ? to_text(r.metrics->at(m)) : ""));
        out += "\n";
    }
    return out;
}

} // namespace pulpsim::runs
