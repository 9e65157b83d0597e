// Identities of design points: a file's hash, read in blocks, is the hash of its bytes.
#include "runs/design_point.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

using pulpsim::runs::content_hash;
using pulpsim::runs::file_hash;

std::string temp_file_with(const std::string& bytes) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("pulpsim_file_hash_" + std::to_string(getpid()) + "_" + std::to_string(bytes.size()));
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path.string();
}

TEST(FileHash, EqualsTheHashOfTheWholeContentsAtEverySizeAroundItsReadBlocks) {
    constexpr size_t block = 1 << 20;
    for (size_t size : {size_t{0}, size_t{1}, block - 1, block, block + 1, 3 * block + 17}) {
        std::string bytes(size, '\0');
        for (size_t i = 0; i < size; ++i)
            bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
        const std::string path = temp_file_with(bytes);
        EXPECT_EQ(file_hash(path), content_hash(bytes)) << size << " bytes";
        std::remove(path.c_str());
    }
}

TEST(FileHash, DiffersWhenOneByteOfTheLastBlockDiffers) {
    std::string bytes(2 * (1 << 20) + 5, 'x');
    const std::string a = temp_file_with(bytes);
    const std::string ha = file_hash(a);
    std::remove(a.c_str());
    bytes.back() = 'y';
    const std::string b = temp_file_with(bytes);
    EXPECT_NE(file_hash(b), ha);
    std::remove(b.c_str());
}

TEST(FileHash, AMissingFileIsAnErrorNamingIt) {
    try {
        file_hash("/nonexistent/pulpsim/program.elf");
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/pulpsim/program.elf: cannot read"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
