// What every harness shares: the input as a file (the parsers read paths, as users give them) and the
// promise an error keeps.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace pulpsim::fuzz {

// A finding: printed with what it is about, then abort() so that libFuzzer keeps the input.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "FUZZ FINDING: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

// A file per harness process under the temporary directory, rewritten for every input.
class InputFile {
  public:
    explicit InputFile(const std::string& name) {
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() / ("pulpsim-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        path_ = (dir / name).string();
    }
    // At the harness's normal exit; after a finding (abort) the last input stays where it was.
    ~InputFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
        std::filesystem::remove(std::filesystem::path(path_).parent_path(), ec); // once it is empty
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    const std::string& path() const { return path_; }
    void write(const uint8_t* data, size_t size) const {
        write(std::string_view(reinterpret_cast<const char*>(data), size));
    }
    void write(std::string_view text) const {
        std::ofstream out(path_, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out) fail("cannot write the input file", path_);
    }

  private:
    std::string path_;
};

// An error message must be non-empty and, when the error is about a file, name it.
inline void check_error(std::string_view message, std::string_view must_name = {}) {
    if (message.empty()) fail("empty error message", "");
    if (!must_name.empty() && message.find(must_name) == std::string_view::npos)
        fail("error does not name the file", message);
}

// Where two texts first differ, as "line N: 'before' became 'after'", for findings about rewritten files.
inline std::string first_difference(std::string_view before, std::string_view after) {
    size_t line = 1, start = 0;
    for (size_t i = 0; i < std::min(before.size(), after.size()); ++i) {
        if (before[i] != after[i]) break;
        if (before[i] == '\n') {
            ++line;
            start = i + 1;
        }
    }
    auto line_at = [start](std::string_view text) {
        return std::string(text.substr(start, std::min(text.find('\n', start), text.size()) - start));
    };
    return "line " + std::to_string(line) + ": '" + line_at(before) + "' became '" + line_at(after) + "'";
}

} // namespace pulpsim::fuzz
