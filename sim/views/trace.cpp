#include "views/trace.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/compile.h>
#include <fmt/format.h>
#include <iterator>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster/report.hpp"
#include "core/decoder.hpp"
#include "core/disassembler.hpp"

namespace pulpsim {

namespace {

constexpr size_t kFlushBytes = 1 << 20;
constexpr size_t kDisassemblyWidth = 32;

// Where a load or store accesses memory, from its decoded operands and the registers before it (`x`).
struct Access {
    uint32_t addr = 0;
    unsigned size = 4;
};

Access access_of(const DecodedInsn& d, const std::array<uint32_t, 32>& x) {
    Access a{x[d.rs1] + static_cast<uint32_t>(d.imm), 4};
    if ((d.raw & 3) != 3) return a; // c.lw, c.sw, c.flw, c.fsw and their sp-relative forms
    const unsigned f3 = isa::funct3(d.raw), f7 = isa::funct7(d.raw);
    switch (isa::opcode(d.raw)) {
    case 0x03: // lb lh lw lbu lhu
    case 0x23: // sb sh sw
        a.size = 1u << (f3 & 3);
        break;
    case 0x07: // flh flw
    case 0x27: // fsh fsw
        a.size = f3 == 1 ? 2 : 4;
        break;
    case 0x0b: // CORE-V post-increment loads (the base register), cv.elw (base + offset)
        a.size = f3 == 3 ? 4 : 1u << (f3 & 3);
        if (f3 != 3) a.addr = x[d.rs1];
        break;
    case 0x2b: // CORE-V stores with an immediate (post-increment), register forms: rs2 / rs3 the offset
        if (f3 <= 2) {
            a.size = 1u << f3;
            a.addr = x[d.rs1];
        } else {
            a.size = 1u << (f7 & 3);
            a.addr = x[d.rs1] + ((f7 & 4) ? x[f7 < 0x10 ? d.rs2 : d.rs3] : 0u);
        }
        break;
    default: break;
    }
    return a;
}

bool is_load(const DecodedInsn& d) {
    return d.cls == InsnClass::Load || d.cls == InsnClass::FpLoad;
}
bool is_store(const DecodedInsn& d) {
    return d.cls == InsnClass::Store || d.cls == InsnClass::FpStore;
}

} // namespace

void Trace::check_path(const std::string& path) {
    if (path == "-")
        throw std::runtime_error("--trace -: standard output carries the program's own output; give a file "
                                 "(or /dev/stdout to mix the two)");
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_character_file(st) || std::filesystem::is_fifo(st)) return;
    check_output_path(path);
}

Trace::~Trace() {
    if (file_) std::fclose(file_);
}

void Trace::attach(Hart& hart) {
    if (!filter_.selects_core(hart.hartid())) return;
    CoreState c;
    c.hart = &hart;
    c.last_stalls = hart.stats().stall_cycles;
    for (unsigned r = 0; r < 32; ++r)
        c.x[r] = hart.xreg(r);
    if (core_of_hartid_.size() <= hart.hartid()) core_of_hartid_.resize(hart.hartid() + 1, SIZE_MAX);
    core_of_hartid_[hart.hartid()] = cores_.size();
    cores_.push_back(c);
    hart.add_retire_observer(this);
}

void Trace::open(const std::string& path) {
    // The file standard output already writes to (/dev/stdout redirected to a file): opened again, it would
    // be cut to nothing and written at an offset of its own, over what standard output writes. It shares
    // standard output's offset instead.
    struct stat target{}, out{};
    if (::stat(path.c_str(), &target) == 0 && ::fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) &&
        target.st_dev == out.st_dev && target.st_ino == out.st_ino) {
        std::fflush(stdout);
        const int fd = ::dup(STDOUT_FILENO);
        file_ = fd < 0 ? nullptr : ::fdopen(fd, "w");
        if (!file_ && fd >= 0) ::close(fd);
    } else {
        file_ = std::fopen(path.c_str(), "w");
    }
    if (!file_) throw std::runtime_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    path_ = path;
    fmt::format_to(std::back_inserter(buffer_),
                   "# pulpsim instruction trace of {}\n# {:>8}  {:>4}  {:<8}  {:<28}  {:<8}  {:<{}}  {}\n",
                   elf_.path(), "cycle", "core", "pc", "function", "raw", "instruction", kDisassemblyWidth,
                   "writes  stall cycles charged to it");
}

const Trace::Text& Trace::text_of(uint32_t pc, const DecodedInsn& insn) {
    auto [it, fresh] = texts_.try_emplace(pc);
    Text& t = it->second;
    if (fresh || t.raw != insn.raw) { // a new pc, or code written since
        t.raw = insn.raw;
        std::string where = elf_.describe_address(pc);
        const std::string disassembly = disassemble(insn.raw, pc);
        const std::string raw =
            (insn.raw & 3) == 3 ? fmt::format("{:08x}", insn.raw) : fmt::format("{:04x}", insn.raw);
        t.columns = fmt::format("{:08x}  {:<28}  {:<8}  {}", pc, where.empty() ? std::string(1, '?') : where,
                                raw, disassembly);
        t.padding = kDisassemblyWidth > disassembly.size() ? kDisassemblyWidth - disassembly.size() : 0;
    }
    return t;
}

void Trace::retired(const Hart& hart, uint32_t pc, const DecodedInsn& insn) {
    CoreState& c = cores_[core_of_hartid_[hart.hartid()]];
    uint64_t issue = hart.issue_;
    // A load split over two words counts its result from its second access (Hart::split_load_cost); it
    // issued with the first.
    if (is_load(insn)) [[unlikely]]
        if (const Access a = access_of(insn, c.x); (a.addr & 3) + a.size > 4) --issue;
    if (file_ && filter_.shows(issue)) write_line(c, issue, pc, insn);
    // Kept for every instruction, shown or not: the next line's stalls and store operands need them.
    c.last_stalls = hart.stats().stall_cycles;
    std::memcpy(c.x.data(), hart.x_, sizeof(hart.x_));
}

namespace {

void append(fmt::memory_buffer& b, std::string_view s) {
    b.append(s.data(), s.data() + s.size());
}

// 0x and `digits` hex digits.
void append_hex(fmt::memory_buffer& b, uint32_t value, unsigned digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    append(b, "0x");
    for (int shift = 4 * static_cast<int>(digits) - 4; shift >= 0; shift -= 4)
        b.push_back(kHex[(value >> shift) & 15]);
}

void append_register(fmt::memory_buffer& b, std::string_view name, uint32_t value) {
    append(b, name);
    b.push_back('=');
    append_hex(b, value, 8);
}

} // namespace

void Trace::write_line(CoreState& c, uint64_t issue, uint32_t pc, const DecodedInsn& insn) {
    const Hart& h = *c.hart;
    const Text& t = text_of(pc, insn);
    fmt::format_to(std::back_inserter(buffer_), FMT_COMPILE("{:>10}  {:>4}  "), issue, h.hartid());
    append(buffer_, t.columns);
    bool padded = false, first_write = true;
    auto column = [&] { // the writes and the stalls start after the instruction's width, two spaces apart
        if (padded) return;
        padded = true;
        for (size_t i = 0; i < t.padding + 2; ++i)
            buffer_.push_back(' ');
    };
    auto next_write = [&] {
        column();
        if (!first_write) buffer_.push_back(' ');
        first_write = false;
    };
    // Div/sqrt decodes with no destination slot (its handler scoreboards the result with the latency it
    // finds), but writes its f register now all the same.
    const unsigned dst = insn.cls == InsnClass::FpDivSqrt ? kFpSlot + insn.rd : insn.dst;
    if (dst == kX0Slot) {
        // a write to x0 (a load's or a jump's) changes nothing
    } else if (dst < kFpSlot) {
        next_write();
        append_register(buffer_, x_register_name(dst), h.xreg(dst));
    } else if (dst < kZeroSlot) {
        next_write();
        append_register(buffer_, f_register_name(dst - kFpSlot), h.freg(dst - kFpSlot));
    }
    // Registers written besides the destination: a post-increment base, a host call's result.
    for (unsigned r = 1; r < 32; ++r)
        if (r != dst && h.xreg(r) != c.x[r]) {
            next_write();
            append_register(buffer_, x_register_name(r), h.xreg(r));
        }
    if (is_store(insn)) {
        const Access a = access_of(insn, c.x);
        // The stored register: an f register is not changed by its store, an x register's old value is in
        // c.x.
        const uint32_t value = insn.cls == InsnClass::FpStore ? h.freg(insn.rs2) : c.x[insn.rs2];
        next_write();
        append(buffer_, "mem[");
        append_hex(buffer_, a.addr, 8);
        append(buffer_, "]=");
        append_hex(buffer_, a.size < 4 ? value & ((1u << (8 * a.size)) - 1) : value, 2 * a.size);
    }
    const auto& stalls = h.stats().stall_cycles;
    bool first_stall = true;
    for (size_t k = 0; k < stalls.size(); ++k)
        if (const uint64_t n = stalls[k] - c.last_stalls[k]) {
            column();
            if (first_stall) append(buffer_, first_write ? "stall" : "  stall");
            first_stall = false;
            fmt::format_to(std::back_inserter(buffer_), " {}:{}", stall_name(static_cast<StallKind>(k)), n);
        }
    buffer_.push_back('\n');
    ++lines_;
    if (buffer_.size() >= kFlushBytes) flush();
}

void Trace::flush() {
    if (!file_ || buffer_.size() == 0) return;
    if (!write_failed_ && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
        write_failed_ = true;
    buffer_.clear();
}

void Trace::close(const std::string& ending) {
    if (!file_) return;
    if (!ending.empty()) fmt::format_to(std::back_inserter(buffer_), "# {}\n", ending);
    flush();
    const bool failed = write_failed_ || std::fflush(file_) != 0 || std::ferror(file_);
    const int error = errno;
    std::fclose(file_);
    file_ = nullptr;
    if (failed)
        throw std::runtime_error(fmt::format("{}: cannot write the trace: {}", path_,
                                             error ? std::strerror(error) : "write error"));
}

} // namespace pulpsim
