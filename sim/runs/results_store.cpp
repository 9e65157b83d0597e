#include "runs/results_store.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <stdexcept>
#include <unistd.h>

#include "runs/sweep_spec.hpp"

namespace pulpsim::runs {
namespace {

// The whole-run figures kept next to each point, from the report's top level and blocks.
const std::vector<std::string> kPointFigures = {"cycles",         "instret",         "macs",
                                                "mac_per_cycle",  "tcdm_accesses",   "tcdm_conflicts",
                                                "fpu_contention", "dma_busy_cycles", "dma_utilisation"};

bool is_text_metric(const std::string& m) {
    return m == "dma_verdict";
}

std::string sql_name(const std::string& identifier) {
    return "\"" + identifier + "\"";
}

// A platform value as a column value: sizes, counts and addresses as integers, the rest as text.
Value platform_value(const std::string& text) {
    if (const auto v = parse_size(text); v && *v <= static_cast<uint64_t>(INT64_MAX))
        return static_cast<int64_t>(*v);
    return text;
}

class Statement {
  public:
    Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
            throw std::runtime_error(fmt::format("{}: {}", path, sqlite3_errmsg(db)));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind(int i, const Value& v) {
        if (std::holds_alternative<std::monostate>(v))
            sqlite3_bind_null(stmt_, i);
        else if (auto n = std::get_if<int64_t>(&v))
            sqlite3_bind_int64(stmt_, i, *n);
        else if (auto d = std::get_if<double>(&v))
            sqlite3_bind_double(stmt_, i, *d);
        else {
            const auto& s = std::get<std::string>(v);
            sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        }
    }
    // SQLITE_ROW or SQLITE_DONE; throws otherwise.
    int step(const std::string& path) {
        const int rc = sqlite3_step(stmt_);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            throw std::runtime_error(fmt::format("{}: {}", path, sqlite3_errmsg(db_)));
        return rc;
    }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    sqlite3_stmt* get() { return stmt_; }

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

Value column_value(sqlite3_stmt* s, int i) {
    switch (sqlite3_column_type(s, i)) {
    case SQLITE_INTEGER: return static_cast<int64_t>(sqlite3_column_int64(s, i));
    case SQLITE_FLOAT: return sqlite3_column_double(s, i);
    case SQLITE_NULL: return std::monostate{};
    default:
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, i)),
                           static_cast<size_t>(sqlite3_column_bytes(s, i)));
    }
}

// A rollback unless committed: a failure half-way through a point leaves nothing of it.
class Transaction {
  public:
    Transaction(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) { run("BEGIN IMMEDIATE"); }
    ~Transaction() {
        if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
        run("COMMIT");
        done_ = true;
    }

  private:
    void run(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            const std::string message = err ? err : "unknown error";
            sqlite3_free(err);
            throw std::runtime_error(fmt::format("{}: {}", path_, message));
        }
    }
    sqlite3* db_;
    std::string path_;
    bool done_ = false;
};

Value json_number(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) return std::monostate{};
    const auto& v = j.at(key);
    if (v.is_number_integer() || v.is_number_unsigned()) return static_cast<int64_t>(v.get<uint64_t>());
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) return v.get<std::string>();
    return std::monostate{};
}

// A database in WAL mode is read through a shared-memory file next to it, which a reader who may not write
// to its folder cannot create, and SQLite then refuses to read it at all. Such a reader reads the file as
// immutable, which is exact when no log holds changes the file lacks: a sweep that ended leaves none, and a
// reader who may not write could not recover a running or killed sweep's log anyway.
// The folder a database's log and shared-memory file go to.
std::string folder_of(const std::string& path) {
    const std::filesystem::path file(path);
    return file.has_parent_path() ? file.parent_path().string() : ".";
}

bool read_as_immutable(const std::string& path) {
    const std::string folder = folder_of(path);
    std::error_code ec;
    const bool log_holds_changes =
        std::filesystem::exists(path + "-wal", ec) && std::filesystem::file_size(path + "-wal", ec) > 0;
    return access(folder.c_str(), W_OK | X_OK) != 0 && !std::filesystem::exists(path + "-shm", ec) &&
           !log_holds_changes;
}

// The URI of a file for sqlite3_open_v2: '?', '#' and '%' in the path are escaped. Every database is opened
// by URI, so that a path SQLite would otherwise take for something else (":memory:", "file:x.db?mode=memory")
// names a file like any other.
std::string file_uri(const std::string& path, bool immutable) {
    std::string uri = "file:";
    for (const char c : std::filesystem::absolute(path).string()) {
        if (c == '?' || c == '#' || c == '%')
            uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            uri += c;
    }
    return immutable ? uri + "?immutable=1" : uri;
}

} // namespace

std::string utc_timestamp() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string to_text(const Value& v) {
    if (std::holds_alternative<std::monostate>(v)) return "";
    if (auto n = std::get_if<int64_t>(&v)) return std::to_string(*n);
    if (auto d = std::get_if<double>(&v)) return fmt::format("{}", *d);
    return std::get<std::string>(v);
}

ResultsStore::ResultsStore(const std::string& path) : path_(path) {
    open(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, false, [this] {
        // WAL: readers (plots, queries) never block the sweep that writes.
        check_layout();
        exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
        create_schema();
    });
}

ResultsStore::ResultsStore(const std::string& path, const ReadOnly& reading) : path_(path) {
    // A WAL database is read through a log and a shared-memory file next to it, which only a connection
    // that may write removes when it is the last to close: a reader that may write opens it so (and writes
    // nothing), or every export and trend would leave the two files behind.
    const bool may_write =
        access(path.c_str(), W_OK) == 0 && access(folder_of(path).c_str(), W_OK | X_OK) == 0;
    open(may_write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, !may_write && read_as_immutable(path),
         [&] {
             if (query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", {reading.table})
                     .rows.empty())
                 throw std::runtime_error(fmt::format("{}: holds no {} yet", path_, reading.holding));
         });
}

void ResultsStore::open(int flags, bool immutable, const std::function<void()>& then) {
    const std::string name = file_uri(path_, immutable);
    if (sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error(fmt::format("{}: cannot open the results database: {}", path_, why));
    }
    sqlite3_busy_timeout(db_, 30000);
    try {
        check_owner();
        then();
    } catch (const std::exception& e) {
        sqlite3_close(db_);
        db_ = nullptr;
        const std::string what = e.what();
        throw std::runtime_error(what.find("not a database") != std::string::npos
                                     ? fmt::format("{}: not a pulpsim results database (not SQLite)", path_)
                                     : what);
    }
}

ResultsStore::~ResultsStore() {
    sqlite3_close(db_);
}

void ResultsStore::exec(const std::string& sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string message = err ? err : "unknown error";
        sqlite3_free(err);
        throw std::runtime_error(fmt::format("{}: {}", path_, message));
    }
}

void ResultsStore::check_owner() const {
    const auto id = query("PRAGMA application_id").rows.at(0).at(0);
    if (std::get<int64_t>(id) == kApplicationId) return;
    std::vector<std::string> tables;
    for (const auto& row :
         query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT "
               "LIKE 'sqlite_%' ORDER BY name")
             .rows)
        tables.push_back(std::get<std::string>(row[0]));
    // Before the stamp, a pulpsim database was known by its points table.
    const bool unstamped_ours =
        !query("SELECT 1 FROM pragma_table_info('points') WHERE name = 'program_hash'").rows.empty();
    if (std::get<int64_t>(id) == 0 && (tables.empty() || unstamped_ours)) return;
    throw std::runtime_error(fmt::format(
        "{}: not a pulpsim results database (another program's SQLite file{}); "
        "it was left untouched",
        path_, tables.empty() ? "" : ", with tables " + fmt::format("{}", fmt::join(tables, ", "))));
}

// A table of another layout (an older pulpsim's) is refused before anything, even the journal mode, changes
// in the file.
void ResultsStore::check_layout() const {
    const std::vector<std::pair<std::string, std::vector<std::string>>> fixed_columns = {
        {"points",
         {"id", "program", "program_hash", "simulator", "platform", "max_cycles", "config", "status",
          "exit_code", "signalled", "error", "report", "host_seconds", "stored_at"}},
        {"regions", {"point_id", "name"}},
        {"sweeps", {"name", "spec_path", "spec", "points", "updated_at"}},
        {"sweep_points", {"sweep", "ordinal", "point_id"}}};
    for (const auto& [table, cols] : fixed_columns) {
        std::set<std::string> have;
        for (const auto& row : query("SELECT name FROM pragma_table_info(?)", {table}).rows)
            have.insert(std::get<std::string>(row[0]));
        if (have.empty()) continue; // not made yet
        for (const auto& col : cols)
            if (!have.count(col))
                throw std::runtime_error(
                    fmt::format("{}: its {} table has no column '{}' (the layout of another "
                                "pulpsim version): give a new database; it was left untouched",
                                path_, table, col));
    }
}

void ResultsStore::create_schema() {
    Transaction tx(db_, path_);
    exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
    exec("CREATE TABLE IF NOT EXISTS points ("
         " id TEXT PRIMARY KEY, program TEXT NOT NULL, program_hash TEXT NOT NULL, simulator TEXT NOT NULL,"
         " platform TEXT, max_cycles INTEGER, config TEXT NOT NULL,"
         " status TEXT NOT NULL CHECK (status IN ('ok', 'failed')), exit_code INTEGER, signalled INTEGER,"
         " error TEXT, report TEXT, host_seconds REAL, stored_at TEXT)");
    exec("CREATE TABLE IF NOT EXISTS regions ("
         " point_id TEXT NOT NULL REFERENCES points(id) ON DELETE CASCADE, name TEXT NOT NULL,"
         " PRIMARY KEY (point_id, name))");
    exec(
        "CREATE TABLE IF NOT EXISTS sweeps (name TEXT PRIMARY KEY, spec_path TEXT, spec TEXT, points INTEGER,"
        " updated_at TEXT)");
    exec("CREATE TABLE IF NOT EXISTS sweep_points (sweep TEXT NOT NULL, ordinal INTEGER NOT NULL,"
         " point_id TEXT NOT NULL, PRIMARY KEY (sweep, ordinal))");
    exec("CREATE INDEX IF NOT EXISTS sweep_points_by_point ON sweep_points(point_id)");

    // Columns that depend on the simulator (platform keys, metrics) are added when missing, so a database
    // outlives new keys.
    auto existing = [&](const std::string& table) {
        std::set<std::string> cols;
        for (const auto& row : query("SELECT name FROM pragma_table_info(?)", {table}).rows)
            cols.insert(std::get<std::string>(row[0]));
        return cols;
    };
    auto add_columns = [&](const std::string& table,
                           const std::vector<std::pair<std::string, std::string>>& cols) {
        const auto have = existing(table);
        for (const auto& [name, type] : cols)
            if (!have.count(name))
                exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", table, sql_name(name), type));
    };
    std::vector<std::pair<std::string, std::string>> point_cols;
    for (const auto& f : kPointFigures)
        point_cols.emplace_back(f, f == "mac_per_cycle" || f == "dma_utilisation" ? "REAL" : "INTEGER");
    for (const auto& key : platform_keys())
        point_cols.emplace_back(column_of(key), "");
    point_cols.emplace_back("symbols", "TEXT"); // "name=value ..." written into the program (autotune)
    add_columns("points", point_cols);
    std::vector<std::pair<std::string, std::string>> region_cols;
    for (const auto& m : region_metrics())
        region_cols.emplace_back(m, is_text_metric(m) ? "TEXT" : "");
    add_columns("regions", region_cols);
    // The program's path as the sweep names it: byte-identical programs at two paths share one point, whose
    // own `program` is the first path that ran it.
    add_columns("sweep_points", {{"program", "TEXT"}});

    std::string keys, metrics;
    for (const auto& key : platform_keys())
        keys += ", p." + sql_name(column_of(key));
    for (const auto& m : region_metrics())
        metrics += ", r." + sql_name(m);
    exec("DROP VIEW IF EXISTS results");
    exec("CREATE VIEW results AS SELECT s.sweep, s.ordinal, p.id AS point_id,"
         " COALESCE(s.program, p.program) AS program, p.platform" +
         keys + ", p.status, p.exit_code, p.error, r.name AS region" + metrics +
         " FROM sweep_points s JOIN points p ON p.id = s.point_id"
         " LEFT JOIN regions r ON r.point_id = p.id");
    tx.commit();
}

QueryResult ResultsStore::query(const std::string& sql, const std::vector<Value>& binds) const {
    Statement st(db_, sql, path_);
    for (size_t i = 0; i < binds.size(); ++i)
        st.bind(static_cast<int>(i + 1), binds[i]);
    QueryResult out;
    const int n = sqlite3_column_count(st.get());
    for (int i = 0; i < n; ++i)
        out.columns.emplace_back(sqlite3_column_name(st.get(), i));
    while (st.step(path_) == SQLITE_ROW) {
        std::vector<Value> row;
        for (int i = 0; i < n; ++i)
            row.push_back(column_value(st.get(), i));
        out.rows.push_back(std::move(row));
    }
    return out;
}

std::set<std::string> ResultsStore::finished(const std::vector<std::string>& ids) const {
    std::set<std::string> out;
    Statement st(db_, "SELECT signalled FROM points WHERE id = ?", path_);
    for (const auto& id : ids) {
        st.bind(1, id);
        if (st.step(path_) == SQLITE_ROW && sqlite3_column_int(st.get(), 0) == 0) out.insert(id);
        st.reset();
    }
    return out;
}

void ResultsStore::put(const DesignPoint& point, const std::string& simulator_version,
                       const PointResult& result) {
    nlohmann::json report;
    if (!result.report.empty()) {
        try {
            report = nlohmann::json::parse(result.report);
        } catch (const std::exception&) {
            report = nlohmann::json();
        }
    }
    std::vector<std::pair<std::string, Value>> cols = {
        {"id", point.id},
        {"program", point.program},
        {"program_hash", point.program_hash},
        {"simulator", simulator_version},
        {"platform", point.config.platform.name},
        {"max_cycles", static_cast<int64_t>(point.max_cycles)},
        {"config", point.config_yaml},
        {"status", result.ok ? "ok" : "failed"},
        {"exit_code", static_cast<int64_t>(result.exit_code)},
        {"signalled", static_cast<int64_t>(result.signalled ? 1 : 0)},
        {"error", result.ok ? Value{} : Value{result.error}},
        {"report", result.report.empty() ? Value{} : Value{result.report}},
        {"host_seconds", result.host_seconds},
        {"stored_at", utc_timestamp()},
    };
    if (!point.symbols.empty()) {
        std::string symbols;
        for (const auto& [name, value] : point.symbols)
            symbols += fmt::format("{}{}={}", symbols.empty() ? "" : " ", name, value);
        cols.emplace_back("symbols", symbols);
    }
    if (report.is_object()) {
        cols.emplace_back("cycles", json_number(report, "cycles"));
        cols.emplace_back("instret", json_number(report, "instret"));
        cols.emplace_back("macs", json_number(report, "macs"));
        cols.emplace_back("mac_per_cycle", json_number(report, "mac_per_cycle"));
        if (report.contains("tcdm")) {
            cols.emplace_back("tcdm_accesses", json_number(report["tcdm"], "accesses"));
            cols.emplace_back("tcdm_conflicts", json_number(report["tcdm"], "conflicts"));
        }
        if (report.contains("fpus") && report["fpus"].contains("units")) {
            int64_t contention = 0;
            for (const auto& u : report["fpus"]["units"])
                contention += u.value("contention_cycles", int64_t{0});
            cols.emplace_back("fpu_contention", contention);
        }
        if (report.contains("dma")) {
            cols.emplace_back("dma_busy_cycles", json_number(report["dma"], "busy_cycles"));
            cols.emplace_back("dma_utilisation", json_number(report["dma"], "utilisation"));
        }
    }
    for (const auto& [key, value] : describe(point.config))
        cols.emplace_back(column_of(key), platform_value(value));

    std::string names, marks;
    for (size_t i = 0; i < cols.size(); ++i) {
        names += (i ? ", " : "") + sql_name(cols[i].first);
        marks += i ? ", ?" : "?";
    }
    Transaction tx(db_, path_);
    {
        Statement del(db_, "DELETE FROM regions WHERE point_id = ?", path_);
        del.bind(1, point.id);
        del.step(path_);
        Statement ins(db_, fmt::format("INSERT OR REPLACE INTO points ({}) VALUES ({})", names, marks),
                      path_);
        for (size_t i = 0; i < cols.size(); ++i)
            ins.bind(static_cast<int>(i + 1), cols[i].second);
        ins.step(path_);
    }
    if (report.is_object() && report.contains("regions")) {
        std::string rnames = "point_id, name", rmarks = "?, ?";
        for (const auto& m : region_metrics()) {
            rnames += ", " + sql_name(m);
            rmarks += ", ?";
        }
        Statement ins(db_, fmt::format("INSERT OR REPLACE INTO regions ({}) VALUES ({})", rnames, rmarks),
                      path_);
        for (const auto& r : report["regions"]) {
            int i = 1;
            ins.bind(i++, point.id);
            ins.bind(i++, r.value("name", std::string()));
            const nlohmann::json none = nlohmann::json::object();
            const auto& stalls = r.contains("stalls") ? r["stalls"] : none;
            const auto& dma = r.contains("dma") ? r["dma"] : none;
            for (const auto& m : region_metrics()) {
                Value v;
                if (m.rfind("stall_", 0) == 0)
                    v = json_number(stalls, m.c_str() + 6);
                else if (m.rfind("dma_", 0) == 0)
                    v = json_number(dma, m.c_str() + 4);
                else
                    v = json_number(r, m.c_str());
                ins.bind(i++, v);
            }
            ins.step(path_);
            ins.reset();
        }
    }
    tx.commit();
}

void ResultsStore::record_sweep(const SweepSpec& spec, const std::vector<DesignPoint>& points) {
    std::string text;
    if (FILE* f = std::fopen(spec.path.c_str(), "rb")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        std::fclose(f);
    }
    Transaction tx(db_, path_);
    {
        Statement up(db_,
                     "INSERT OR REPLACE INTO sweeps (name, spec_path, spec, points, updated_at) VALUES (?, "
                     "?, ?, ?, ?)",
                     path_);
        up.bind(1, spec.name);
        up.bind(2, spec.path);
        up.bind(3, text);
        up.bind(4, static_cast<int64_t>(points.size()));
        up.bind(5, utc_timestamp());
        up.step(path_);
        Statement del(db_, "DELETE FROM sweep_points WHERE sweep = ?", path_);
        del.bind(1, spec.name);
        del.step(path_);
        Statement ins(db_, "INSERT INTO sweep_points (sweep, ordinal, point_id, program) VALUES (?, ?, ?, ?)",
                      path_);
        for (size_t i = 0; i < points.size(); ++i) {
            ins.bind(1, spec.name);
            ins.bind(2, static_cast<int64_t>(i));
            ins.bind(3, points[i].id);
            ins.bind(4, points[i].program);
            ins.step(path_);
            ins.reset();
        }
    }
    tx.commit();
}

bool ResultsStore::records_sweep(const SweepSpec& spec, const std::vector<DesignPoint>& points) const {
    if (query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sweep_points'").rows.empty())
        return false;
    const auto recorded =
        query("SELECT point_id FROM sweep_points WHERE sweep = ? ORDER BY ordinal", {spec.name}).rows;
    if (recorded.size() != points.size()) return false;
    for (size_t i = 0; i < points.size(); ++i)
        if (to_text(recorded[i].at(0)) != points[i].id) return false;
    return true;
}

} // namespace pulpsim::runs
