// Where a run's cycles go, per function, source line and instruction (pulpsim run --profile): README.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/core_stats.hpp"
#include "core/hart.hpp"
#include "memory/elf_image.hpp"
#include "views/source_lines.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {

class Profile : public RetireObserver {
  public:
    struct Counters {
        uint64_t cycles = 0;
        uint64_t instructions = 0;
        std::array<uint64_t, static_cast<size_t>(StallKind::Count)> stalls{};
        void add(const Counters& o);
    };
    // One function's figures, per core (index = position in the attached harts) and summed.
    struct Function {
        std::string name; // "?" for code outside every symbol, "(after the last instruction)"
        uint32_t start = 0;
        std::vector<Counters> per_core;
        Counters total;
    };

    // One source line's figures within one function: a line inlined into several functions is a row in
    // each, so that a function's lines add up to its figures.
    struct Line {
        std::string function; // as in Function
        uint32_t function_start = 0;
        std::string file;  // "?" for code no line table covers; empty for the row after the last instruction
        uint32_t line = 0; // 0 there, and for code the compiler ties to no line of `file`
        std::vector<Counters> per_core;
        Counters total;
    };
    // A disassembler for the annotated listing: the text of the instruction `encoding` at `pc`.
    using InstructionText = std::function<std::string(uint32_t pc, uint32_t encoding)>;
    struct PrintOptions {
        size_t top = 20;                  // rows of the function and line tables (0: every row)
        bool lines = false;               // the top source lines, after the functions
        bool annotate = false;            // the hottest function instruction by instruction, after the lines
        InstructionText instruction_text; // none: the listing shows the raw encodings only
    };

    // `source_lines`: the program's line tables, for the per-line views; null for functions only.
    // `filter`: only the instructions it shows count (issued in its window, while one of its regions is
    // open), and only the cycles it shows (ViewFilter::shown_cycles); null: the whole run.
    explicit Profile(const ElfImage& elf, const SourceLines* source_lines = nullptr,
                     const ViewFilter* filter = nullptr)
        : elf_(elf), source_lines_(source_lines), filter_(filter) {}
    // Observes `hart` from now on; its counters so far are not part of the profile.
    void attach(Hart& hart);
    void retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) override;

    // After the run: the functions, most cycles first, with the cycles each core spent after its last
    // retired instruction as the last row.
    std::vector<Function> functions() const { return functions(retired_pcs()); }
    // After the run, with source lines: the lines, most cycles first, and the same last row as functions().
    std::vector<Line> lines() const { return lines(retired_pcs()); }
    size_t cores() const { return cores_.size(); }
    // A program without line tables gets one note in place of the per-line views.
    void print(std::ostream& os, const PrintOptions& options) const;
    void print(std::ostream& os) const { print(os, PrintOptions{}); }
    // The functions and, with source lines, the lines (an empty list and a note for a program without).
    nlohmann::ordered_json json() const;

  private:
    struct CoreState {
        const Hart* hart = nullptr;
        uint64_t last_cycle = 0;
        uint64_t last_instret = 0;
        std::array<uint64_t, static_cast<size_t>(StallKind::Count)> last_stalls{};
        std::vector<Counters> by_code_pc;             // pc in the ELF's code range: (pc - lo) / 2
        std::unordered_map<uint32_t, Counters> by_pc; // elsewhere
    };
    // Since the last call; `retiring`: one instruction retired meanwhile.
    Counters delta(CoreState& c, bool retiring) const;
    // Of `d`, a core's cycles [from, from + d.cycles), the cycles and stalls the filter shows.
    Counters shown_part(const Counters& d, uint64_t from) const;
    // Per core, every pc that retired, in order: gathered once for all the tables of one print.
    using RetiredPcs = std::vector<std::vector<std::pair<uint32_t, Counters>>>;
    RetiredPcs retired_pcs() const;
    std::vector<Function> functions(const RetiredPcs& retired) const;
    std::vector<Line> lines(const RetiredPcs& retired) const;
    // Per core, what it did after its last retired instruction.
    std::vector<Counters> after_last_instruction() const;
    void print_functions(std::ostream& os, const std::vector<Function>& fs, size_t top) const;
    void print_lines(std::ostream& os, const std::vector<Line>& ls, size_t top) const;
    void print_annotated(std::ostream& os, const std::vector<Function>& fs, const RetiredPcs& retired,
                         const InstructionText& text) const;
    std::string no_lines_note() const;
    // ", cycles 100..200" after a table's title when a filter limits the profile.
    std::string shown_note() const;
    static constexpr uint32_t kFlatCodeBytes = 1u << 20;

    const ElfImage& elf_;
    const SourceLines* source_lines_;
    const ViewFilter* filter_;
    std::vector<CoreState> cores_;
    std::vector<size_t> core_of_hartid_; // hart id -> position in cores_
};

} // namespace pulpsim
