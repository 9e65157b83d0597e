// ElfImage must reject anything that is not a 32-bit little-endian RISC-V executable with a message that
// names the file and says what it is instead.
#include <cstdio>
#include <filesystem>
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

} // namespace
} // namespace pulpsim
