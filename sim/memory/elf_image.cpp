#include "memory/elf_image.hpp"

#include <algorithm>
#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pulpsim {
namespace {

// Owns the file descriptor and libelf handle so every early error path releases both.
class ElfFile {
  public:
    explicit ElfFile(const std::string& path) : path_(path) {
        if (elf_version(EV_CURRENT) == EV_NONE) fail("libelf initialisation failed");
        // Non-blocking, so that a FIFO given as the program is refused instead of waited on.
        fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
        if (fd_ < 0) fail("cannot open file");
        struct stat st{};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) fail_in_constructor("not a regular file");
        elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
        if (!elf_ || elf_kind(elf_) != ELF_K_ELF) fail_in_constructor("not an ELF file");
    }
    ~ElfFile() { release(); }
    ElfFile(const ElfFile&) = delete;
    ElfFile& operator=(const ElfFile&) = delete;

    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error(fmt::format("{}: {}", path_, why));
    }
    Elf* get() const { return elf_; }

  private:
    void release() {
        if (elf_) elf_end(elf_);
        if (fd_ >= 0) ::close(fd_);
        elf_ = nullptr;
        fd_ = -1;
    }
    // A constructor that throws runs no destructor.
    [[noreturn]] void fail_in_constructor(const std::string& why) {
        release();
        fail(why);
    }

    std::string path_;
    int fd_ = -1;
    Elf* elf_ = nullptr;
};

std::string machine_name(unsigned machine) {
    switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "x86";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_RISCV: return "RISC-V";
    default: return fmt::format("machine {}", machine);
    }
}

// A table of `count` entries of `entsize` bytes at `offset` must lie inside the file.
void check_table(const ElfFile& file, const char* what, uint64_t offset, uint64_t count, uint64_t entsize,
                 size_t file_size) {
    if (count == 0) return;
    if (offset + count * entsize > file_size)
        file.fail(
            fmt::format("truncated: {} at offset {} ({} entries of {} bytes) beyond the file's {} bytes",
                        what, offset, count, entsize, file_size));
}

// A section's contents must lie inside the file.
void check_section(const ElfFile& file, const char* what, const GElf_Shdr& sh, size_t file_size) {
    if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > file_size)
        file.fail(fmt::format("truncated: {} at offset {} ({} bytes) beyond the file's {} bytes", what,
                              sh.sh_offset, sh.sh_size, file_size));
}

} // namespace

ElfImage ElfImage::load(const std::string& path) {
    ElfFile file(path);
    Elf* elf = file.get();
    const char* ident = elf_getident(elf, nullptr);
    if (!ident) file.fail("truncated ELF header");
    GElf_Ehdr ehdr;
    if (!gelf_getehdr(elf, &ehdr)) file.fail("truncated ELF header");
    // Before the machine field, which libelf reads in the file's byte order.
    if (ident[EI_DATA] != ELFDATA2LSB)
        file.fail("big-endian ELF, expected a little-endian 32-bit RISC-V ELF");
    const bool is32 = ident[EI_CLASS] == ELFCLASS32;
    if (ehdr.e_machine != EM_RISCV)
        file.fail(fmt::format("{} {}-bit ELF, expected a 32-bit RISC-V ELF", machine_name(ehdr.e_machine),
                              is32 ? 32 : 64));
    if (!is32) file.fail("64-bit RISC-V ELF, expected a 32-bit (RV32) ELF");
    if (ehdr.e_type != ET_EXEC) file.fail("not an executable (ELF type is not EXEC)");

    // RISC-V instructions start on even addresses (IALIGN 16 with the C extension).
    if (ehdr.e_entry & 1)
        file.fail(fmt::format("entry point {:#010x} is odd: no instruction can start there", ehdr.e_entry));

    ElfImage image;
    image.path_ = path;
    image.entry_ = static_cast<uint32_t>(ehdr.e_entry);

    size_t file_size = 0;
    char* raw = elf_rawfile(elf, &file_size);
    if (!raw) file.fail("unreadable file contents");
    // libelf reads a table of another entry size, or one cut off by the file's end, as no table at all: the
    // program would then run without its segments or symbols.
    if (ehdr.e_phnum != 0 && ehdr.e_phentsize != sizeof(Elf32_Phdr))
        file.fail(fmt::format("program header entries of {} bytes (e_phentsize), expected {}",
                              ehdr.e_phentsize, sizeof(Elf32_Phdr)));
    size_t phnum = 0;
    const bool phnum_read = elf_getphdrnum(elf, &phnum) == 0;
    // PN_XNUM stands for a count of at least PN_XNUM, kept in section 0.
    const uint64_t claimed_phnum =
        ehdr.e_phnum == PN_XNUM ? std::max<uint64_t>(phnum_read ? phnum : 0, PN_XNUM) : ehdr.e_phnum;
    check_table(file, "program header table", ehdr.e_phoff, claimed_phnum, sizeof(Elf32_Phdr), file_size);
    if (!phnum_read) file.fail("unreadable program headers");
    if (ehdr.e_shoff != 0) {
        if (ehdr.e_shentsize != sizeof(Elf32_Shdr))
            file.fail(fmt::format("section header entries of {} bytes (e_shentsize), expected {}",
                                  ehdr.e_shentsize, sizeof(Elf32_Shdr)));
        // e_shnum 0 with section headers: the count is in section 0, which must be there to say so.
        check_table(file, "section headers", ehdr.e_shoff, std::max<uint64_t>(ehdr.e_shnum, 1),
                    sizeof(Elf32_Shdr), file_size);
        size_t shnum = 0;
        if (elf_getshdrnum(elf, &shnum) != 0) file.fail("unreadable section headers");
        check_table(file, "section headers", ehdr.e_shoff, shnum, sizeof(Elf32_Shdr), file_size);
    }
    struct Loaded {
        uint64_t lo, hi;
        size_t index; // in the program header table
    };
    std::vector<Loaded> loaded;
    for (size_t i = 0; i < phnum; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, static_cast<int>(i), &ph)) file.fail("unreadable program header");
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (ph.p_filesz > ph.p_memsz) file.fail(fmt::format("segment {} has filesz > memsz", i));
        if (ph.p_offset + ph.p_filesz > file_size)
            file.fail(fmt::format("segment {} extends past end of file", i));
        if (ph.p_vaddr + ph.p_memsz > (uint64_t{1} << 32))
            file.fail(fmt::format("segment {} [{:#x}, {:#x}) runs past the 32-bit address space", i,
                                  ph.p_vaddr, ph.p_vaddr + ph.p_memsz));
        loaded.push_back({ph.p_vaddr, ph.p_vaddr + ph.p_memsz, i});
        ElfSegment seg;
        seg.vaddr = static_cast<uint32_t>(ph.p_vaddr);
        seg.memsz = static_cast<uint32_t>(ph.p_memsz);
        seg.bytes.assign(raw + ph.p_offset, raw + ph.p_offset + ph.p_filesz);
        seg.executable = (ph.p_flags & PF_X) != 0;
        seg.writable = (ph.p_flags & PF_W) != 0;
        image.segments_.push_back(std::move(seg));
    }
    if (image.segments_.empty()) file.fail("no loadable segments");
    // The later segment's bytes would silently replace the earlier one's.
    std::sort(loaded.begin(), loaded.end(), [](const Loaded& a, const Loaded& b) { return a.lo < b.lo; });
    for (size_t k = 1; k < loaded.size(); ++k) {
        const Loaded &a = loaded[k - 1], &b = loaded[k];
        if (b.lo >= a.hi) continue;
        const auto& [first, second] = a.index < b.index ? std::pair(a, b) : std::pair(b, a);
        file.fail(fmt::format("segments {} and {} overlap ([{:#x}, {:#x}) and [{:#x}, {:#x}))", first.index,
                              second.index, first.lo, first.hi, second.lo, second.hi));
    }

    uint64_t code_lo = UINT64_MAX, code_hi = 0;
    Elf_Scn* scn = nullptr;
    while ((scn = elf_nextscn(elf, scn)) != nullptr) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size > 0) {
            code_lo = std::min<uint64_t>(code_lo, sh.sh_addr);
            code_hi = std::max<uint64_t>(code_hi, sh.sh_addr + sh.sh_size);
        }
        if (sh.sh_type != SHT_SYMTAB) continue;
        // Cut off, the symbol table would read as none: every pc would be unnamed.
        check_section(file, "the symbol table", sh, file_size);
        GElf_Shdr names;
        if (Elf_Scn* strings = elf_getscn(elf, sh.sh_link); strings && gelf_getshdr(strings, &names))
            check_section(file, "the symbol names", names, file_size);
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (!data || sh.sh_entsize == 0) continue;
        const size_t count = sh.sh_size / sh.sh_entsize;
        auto in_code = [elf](const GElf_Sym& sym) {
            if (sym.st_shndx >= SHN_LORESERVE) return false; // absolute or common
            GElf_Shdr owner;
            Elf_Scn* section = elf_getscn(elf, sym.st_shndx);
            return section && gelf_getshdr(section, &owner) && (owner.sh_flags & SHF_EXECINSTR);
        };
        for (size_t k = 0; k < count; ++k) {
            GElf_Sym sym;
            if (!gelf_getsym(data, static_cast<int>(k), &sym)) continue;
            const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || !*name || sym.st_shndx == SHN_UNDEF) continue;
            const int type = GELF_ST_TYPE(sym.st_info);
            const auto value = static_cast<uint32_t>(sym.st_value);
            if (type == STT_SECTION || type == STT_FILE) continue;
            if (const auto [it, added] = image.symbols_.emplace(name, value); !added && it->second != value)
                image.ambiguous_symbols_.insert(name);
            if (type == STT_FUNC || type == STT_OBJECT)
                image.symbols_by_addr_[value] = {name, static_cast<uint32_t>(sym.st_size)};
            else if (type == STT_NOTYPE && GELF_ST_BIND(sym.st_info) == STB_GLOBAL && in_code(sym))
                // Assembly often exports an entry point (_start) without .type: it names the code up to the
                // next symbol, unless a function or object starts at the same address.
                image.symbols_by_addr_.try_emplace(value, name, 0u);
        }
    }
    if (code_lo >= code_hi)
        for (const auto& seg : image.segments_)
            if (seg.executable && !seg.bytes.empty()) {
                code_lo = std::min<uint64_t>(code_lo, seg.vaddr);
                code_hi = std::max<uint64_t>(code_hi, uint64_t{seg.vaddr} + seg.bytes.size());
            }
    // Only code that is loaded can run: a section header claiming more (e.g. 4 GiB at 0) must not size the
    // decode cache.
    uint64_t exec_lo = UINT64_MAX, exec_hi = 0;
    for (const auto& seg : image.segments_)
        if (seg.executable) {
            exec_lo = std::min<uint64_t>(exec_lo, seg.vaddr);
            exec_hi = std::max<uint64_t>(exec_hi, uint64_t{seg.vaddr} + seg.memsz);
        }
    if (exec_lo < exec_hi) {
        code_lo = std::max(code_lo, exec_lo);
        code_hi = std::min(code_hi, exec_hi);
    }
    if (code_lo < code_hi)
        image.code_range_ = {static_cast<uint32_t>(code_lo), static_cast<uint32_t>(code_hi)};
    return image;
}

std::optional<uint32_t> ElfImage::symbol(const std::string& name) const {
    auto it = symbols_.find(name);
    if (it == symbols_.end()) return std::nullopt;
    return it->second;
}

std::pair<std::string, uint32_t> ElfImage::symbol_containing(uint32_t addr) const {
    auto it = symbols_by_addr_.upper_bound(addr);
    if (it == symbols_by_addr_.begin()) return {};
    --it;
    const auto& [name, size] = it->second;
    if (size != 0 && addr - it->first >= size) return {};
    return {name, it->first};
}

uint32_t ElfImage::symbol_size(uint32_t start) const {
    auto it = symbols_by_addr_.find(start);
    return it == symbols_by_addr_.end() ? 0 : it->second.second;
}

bool ElfImage::read(uint32_t addr, std::span<uint8_t> out) const {
    for (const ElfSegment& seg : segments_)
        if (addr >= seg.vaddr && uint64_t{addr} - seg.vaddr + out.size() <= seg.bytes.size()) {
            std::copy_n(seg.bytes.begin() + (addr - seg.vaddr), out.size(), out.begin());
            return true;
        }
    return false;
}

std::string ElfImage::describe_address(uint32_t addr) const {
    auto it = symbols_by_addr_.upper_bound(addr);
    if (it == symbols_by_addr_.begin()) return {};
    --it;
    const auto& [name, size] = it->second;
    const uint32_t off = addr - it->first;
    if (size != 0 && off >= size) return {};
    return off == 0 ? name : fmt::format("{}+{:#x}", name, off);
}

} // namespace pulpsim
