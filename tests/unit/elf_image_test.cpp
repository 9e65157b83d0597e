// ElfImage must reject anything that is not a 32-bit little-endian RISC-V executable with a message that
// names the file and says what it is instead.
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "memory/elf_image.hpp"

namespace pulpsim {
namespace {

std::string load_error(const std::string& path) {
    try {
        ElfImage::load(path);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}

std::string temp_file(const std::string& name, const std::vector<unsigned char>& bytes) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path.string();
}

// A bare ELF header: class (1 = 32-bit, 2 = 64-bit), machine, type EXEC, no program headers.
std::vector<unsigned char> elf_header(unsigned char elf_class, uint16_t machine) {
    const size_t size = elf_class == 2 ? 64 : 52;
    std::vector<unsigned char> h(size, 0);
    h[0] = 0x7f, h[1] = 'E', h[2] = 'L', h[3] = 'F', h[4] = elf_class, h[5] = 1, h[6] = 1;
    h[16] = 2; // ET_EXEC
    h[18] = static_cast<unsigned char>(machine & 0xff);
    h[19] = static_cast<unsigned char>(machine >> 8);
    h[20] = 1;                                                      // EV_CURRENT
    h[elf_class == 2 ? 52 : 40] = static_cast<unsigned char>(size); // e_ehsize
    return h;
}

TEST(ElfImage, MissingFile) {
    EXPECT_NE(load_error("/nonexistent/prog.elf").find("/nonexistent/prog.elf: cannot open file"),
              std::string::npos);
}

TEST(ElfImage, NotAnElf) {
    const auto path = temp_file("pulpsim_not_elf.txt", {'h', 'e', 'l', 'l', 'o', '\n'});
    EXPECT_NE(load_error(path).find("not an ELF file"), std::string::npos);
}

// A sweep validates every program it names: a refused file must give back its descriptor and libelf handle.
TEST(ElfImage, RefusedFilesReleaseTheirDescriptors) {
    const auto path = temp_file("pulpsim_not_elf_again.txt", {'h', 'e', 'l', 'l', 'o', '\n'});
    auto open_descriptors = [] {
        return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                             std::filesystem::directory_iterator{});
    };
    const auto before = open_descriptors();
    for (int i = 0; i < 100; ++i)
        EXPECT_NE(load_error(path).find("not an ELF file"), std::string::npos);
    EXPECT_EQ(open_descriptors(), before);
}

TEST(ElfImage, HostExecutableIsRejectedAsX86) {
    EXPECT_NE(load_error("/proc/self/exe").find("x86-64 64-bit ELF, expected a 32-bit RISC-V ELF"),
              std::string::npos);
}

TEST(ElfImage, Rv64IsRejected) {
    const auto path = temp_file("pulpsim_rv64.elf", elf_header(2, 243));
    EXPECT_NE(load_error(path).find("64-bit RISC-V ELF, expected a 32-bit (RV32) ELF"), std::string::npos);
}

TEST(ElfImage, Rv32WithoutSegmentsIsRejected) {
    const auto path = temp_file("pulpsim_rv32_empty.elf", elf_header(1, 243));
    EXPECT_NE(load_error(path).find("no loadable segments"), std::string::npos);
}

void put16(std::vector<unsigned char>& b, size_t at, uint16_t v) {
    b[at] = static_cast<unsigned char>(v & 0xff);
    b[at + 1] = static_cast<unsigned char>(v >> 8);
}
void put32(std::vector<unsigned char>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + i] = static_cast<unsigned char>(v >> (8 * i));
}

struct Load {
    uint32_t vaddr, memsz;
};

// An RV32 executable with one PT_LOAD per entry of `loads` (4 zero bytes of file contents each), entry at the
// first one.
std::vector<unsigned char> rv32_program(const std::vector<Load>& loads) {
    std::vector<unsigned char> b = elf_header(1, 243);
    const size_t data = 52 + 32 * loads.size();
    put32(b, 24, loads.at(0).vaddr); // e_entry
    put32(b, 28, 52);                // e_phoff
    put16(b, 42, 32);                // e_phentsize
    put16(b, 44, static_cast<uint16_t>(loads.size()));
    b.resize(data + 4 * loads.size(), 0);
    for (size_t i = 0; i < loads.size(); ++i) {
        const size_t at = 52 + 32 * i;
        put32(b, at, 1); // PT_LOAD
        put32(b, at + 4, static_cast<uint32_t>(data + 4 * i));
        put32(b, at + 8, loads[i].vaddr);
        put32(b, at + 12, loads[i].vaddr);
        put32(b, at + 16, 4);
        put32(b, at + 20, loads[i].memsz);
        put32(b, at + 24, 7); // RWX
        put32(b, at + 28, 4);
    }
    return b;
}

TEST(ElfImage, SegmentsSideBySideLoad) {
    const auto path =
        temp_file("pulpsim_side_by_side.elf", rv32_program({{0x80000000, 16}, {0x80000010, 8}}));
    EXPECT_EQ(ElfImage::load(path).segments().size(), 2u);
}

// Memory ranges count, not file contents: the second segment's zero-filled tail reaches the third.
TEST(ElfImage, OverlappingSegmentsAreRejected) {
    const auto path = temp_file("pulpsim_overlap.elf",
                                rv32_program({{0x80000000, 16}, {0x80001000, 0x100}, {0x800010f0, 4}}));
    EXPECT_NE(load_error(path).find("segments 1 and 2 overlap ([0x80001000, 0x80001100) and [0x800010f0, "
                                    "0x800010f4))"),
              std::string::npos)
        << load_error(path);
}

TEST(ElfImage, ProgramHeaderEntrySizeMustBeElf32) {
    auto bytes = rv32_program({{0x80000000, 16}});
    put16(bytes, 42, 7);
    const auto path = temp_file("pulpsim_phentsize.elf", bytes);
    EXPECT_NE(load_error(path).find("program header entries of 7 bytes (e_phentsize), expected 32"),
              std::string::npos)
        << load_error(path);
}

TEST(ElfImage, ProgramHeaderTablePastTheEndIsRejected) {
    auto bytes = rv32_program({{0x80000000, 16}});
    put16(bytes, 44, 0xffff); // PN_XNUM: at least 65535 entries
    const auto path = temp_file("pulpsim_phnum.elf", bytes);
    EXPECT_NE(
        load_error(path).find(fmt::format("truncated: program header table at offset 52 (65535 entries of "
                                          "32 bytes) beyond the file's {} bytes",
                                          bytes.size())),
        std::string::npos)
        << load_error(path);
}

TEST(ElfImage, SectionHeadersPastTheEndAreRejected) {
    auto bytes = rv32_program({{0x80000000, 16}});
    put32(bytes, 32, 0x10000); // e_shoff
    put16(bytes, 46, 40);      // e_shentsize
    put16(bytes, 48, 5);       // e_shnum
    const auto path = temp_file("pulpsim_shoff.elf", bytes);
    EXPECT_NE(load_error(path).find(fmt::format("truncated: section headers at offset 65536 (5 entries of 40 "
                                                "bytes) beyond the file's {} bytes",
                                                bytes.size())),
              std::string::npos)
        << load_error(path);
}

} // namespace
} // namespace pulpsim
