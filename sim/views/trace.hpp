// An instruction trace of a run (pulpsim run --trace FILE): one line per retired instruction. See README.md.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/core_stats.hpp"
#include "core/hart.hpp"
#include "memory/elf_image.hpp"
#include "views/view_filter.hpp"

namespace pulpsim {

class Trace : public RetireObserver {
  public:
    // `filter` (kept by reference) selects the cores, cycles and regions traced.
    Trace(const ElfImage& elf, const ViewFilter& filter) : elf_(elf), filter_(filter) {}
    ~Trace() override;
    Trace(const Trace&) = delete;
    Trace& operator=(const Trace&) = delete;

    // Throws std::runtime_error, one line, when `path` cannot take a trace: a folder, a missing folder. A
    // device or pipe (/dev/null, a named pipe) is fine: the trace is written as the run goes.
    static void check_path(const std::string& path);
    // Observes `hart` from now on, if the filter selects its core.
    void attach(Hart& hart);
    // Creates the file and writes its header; throws std::runtime_error naming it. Open it last, once
    // everything else about the run has been checked, so that bad input leaves no file behind.
    void open(const std::string& path);
    void retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) override;
    // Writes what is left, then `ending` as a last comment line when it is not empty (why the run
    // stopped), and closes the file. Throws std::runtime_error when the file could not be written.
    void close(const std::string& ending = {});

    uint64_t lines() const { return lines_; }

  private:
    struct CoreState {
        const Hart* hart = nullptr;
        std::array<uint64_t, static_cast<size_t>(StallKind::Count)> last_stalls{};
        std::array<uint32_t, 32> x{}; // the integer registers before the instruction now retiring
    };
    // What does not change from one run of an instruction to the next: pc, function+offset, encoding and
    // instruction, and the spaces that pad the instruction when a column follows.
    struct Text {
        uint32_t raw = 0;
        std::string columns;
        size_t padding = 0;
    };
    const Text& text_of(uint32_t pc, const DecodedInsn& insn);
    void write_line(CoreState& c, uint64_t issue, uint32_t pc, const DecodedInsn& insn);
    void flush();

    const ElfImage& elf_;
    const ViewFilter& filter_;
    std::vector<CoreState> cores_;
    std::vector<size_t> core_of_hartid_;
    std::unordered_map<uint32_t, Text> texts_; // by pc
    std::string path_;
    std::FILE* file_ = nullptr;
    fmt::memory_buffer buffer_;
    bool write_failed_ = false;
    uint64_t lines_ = 0;
};

} // namespace pulpsim
