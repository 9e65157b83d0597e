// A per-function profile of a run (pulpsim run --profile): see README.md.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/core_stats.hpp"
#include "core/hart.hpp"
#include "memory/elf_image.hpp"

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

    explicit Profile(const ElfImage& elf) : elf_(elf) {}
    // Observes `hart` from now on; its counters so far are not part of the profile.
    void attach(Hart& hart);
    void retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) override;

    // After the run: the functions, most cycles first, with the cycles each core spent after its last
    // retired instruction as the last row.
    std::vector<Function> functions() const;
    size_t cores() const { return cores_.size(); }
    void print(std::ostream& os, size_t top = 20) const;
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
    std::map<uint32_t, Counters> by_pc(const CoreState& c) const; // every pc that retired, in order
    static constexpr uint32_t kFlatCodeBytes = 1u << 20;

    const ElfImage& elf_;
    std::vector<CoreState> cores_;
    std::vector<size_t> core_of_hartid_; // hart id -> position in cores_
};

} // namespace pulpsim
