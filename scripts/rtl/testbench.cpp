// A Verilator test bench for cv32e40p_top: one 4 MiB RAM at address 0 that grants every instruction and
// data request at once and answers in the next cycle, a console register and an exit register. It loads a
// raw image at address 0, releases reset (the core boots at 0x80) and runs until the program stores to
// the exit register, then prints `exit VALUE cycles N` and, when asked, the words of a RAM range (the
// program's signature), one per line as 8 hex digits.
//
// Ignores: interrupts and debug requests (tied off), bus errors, any device other than the two registers.
#include "Vcv32e40p_top.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

constexpr uint32_t kRamSize = 4u << 20;
constexpr uint32_t kConsoleAddr = 0x10000000u;
constexpr uint32_t kExitAddr = 0x20000004u;
constexpr uint64_t kMaxCycles = 50'000'000;

uint32_t read_word(const std::vector<uint8_t>& ram, uint32_t addr) {
    addr &= ~3u;
    return ram[addr] | ram[addr + 1] << 8 | ram[addr + 2] << 16 | static_cast<uint32_t>(ram[addr + 3]) << 24;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 4) {
        std::fprintf(stderr, "usage: %s PROGRAM.bin [SIGNATURE_BEGIN SIGNATURE_END]  (hex addresses)\n",
                     argv[0]);
        return 2;
    }
    std::vector<uint8_t> ram(kRamSize, 0);
    FILE* image = std::fopen(argv[1], "rb");
    if (!image) {
        std::perror(argv[1]);
        return 2;
    }
    const size_t loaded = std::fread(ram.data(), 1, kRamSize, image);
    const bool too_large = loaded == kRamSize && std::fgetc(image) != EOF;
    std::fclose(image);
    if (too_large) {
        std::fprintf(stderr, "%s: larger than the 4 MiB RAM\n", argv[1]);
        return 2;
    }
    const bool signature = argc == 4;
    const uint32_t signature_begin = signature ? std::strtoul(argv[2], nullptr, 16) : 0;
    const uint32_t signature_end = signature ? std::strtoul(argv[3], nullptr, 16) : 0;

    auto context = std::make_unique<VerilatedContext>();
    auto core = std::make_unique<Vcv32e40p_top>(context.get());
    core->pulp_clock_en_i = 1;
    core->scan_cg_en_i = 0;
    core->boot_addr_i = 0x80;
    core->mtvec_addr_i = 0;
    core->dm_halt_addr_i = 0x1a110800;
    core->dm_exception_addr_i = 0x1a110808;
    core->hart_id_i = 0;
    core->irq_i = 0;
    core->debug_req_i = 0;
    core->fetch_enable_i = 1;
    core->rst_ni = 0;
    for (int i = 0; i < 5; ++i) {
        core->clk_i = 1;
        core->eval();
        core->clk_i = 0;
        core->eval();
    }
    core->rst_ni = 1;
    core->eval();

    bool instr_response = false, data_response = false;
    uint32_t instr_data = 0, data_data = 0, exit_value = 0;
    uint64_t cycles = 0;
    int status = -1;
    while (status < 0) {
        // Low phase: last cycle's responses, and this cycle's requests granted at once.
        core->clk_i = 0;
        core->instr_rvalid_i = instr_response;
        core->instr_rdata_i = instr_data;
        core->data_rvalid_i = data_response;
        core->data_rdata_i = data_data;
        core->eval();
        core->instr_gnt_i = core->instr_req_o;
        core->data_gnt_i = core->data_req_o;
        core->eval();
        instr_response = data_response = false;
        ++cycles;
        if (core->instr_req_o) {
            const uint32_t addr = core->instr_addr_o;
            if (addr >= kRamSize) {
                std::fprintf(stderr, "error: fetch outside the RAM at 0x%08x (cycle %llu)\n", addr,
                             static_cast<unsigned long long>(cycles));
                status = 3;
                break;
            }
            instr_data = read_word(ram, addr);
            instr_response = true;
        }
        if (core->data_req_o) {
            const uint32_t addr = core->data_addr_o, enables = core->data_be_o, value = core->data_wdata_o;
            const bool write = core->data_we_o;
            data_response = true;
            data_data = 0;
            if (addr < kRamSize) {
                if (write) {
                    for (unsigned byte = 0; byte < 4; ++byte)
                        if (enables & 1u << byte)
                            ram[(addr & ~3u) + byte] = static_cast<uint8_t>(value >> 8 * byte);
                } else {
                    data_data = read_word(ram, addr);
                }
            } else if (write && (addr & ~3u) == kConsoleAddr) {
                std::putchar(static_cast<int>(value & 0xff));
            } else if (write && (addr & ~3u) == kExitAddr) {
                exit_value = value;
                status = 0;
            } else {
                std::fprintf(stderr, "error: data %s outside the RAM at 0x%08x (cycle %llu)\n",
                             write ? "write" : "read", addr, static_cast<unsigned long long>(cycles));
                status = 3;
                break;
            }
        }
        core->clk_i = 1;
        core->eval();
        if (status < 0 && cycles >= kMaxCycles) {
            std::fprintf(stderr, "error: no exit after %llu cycles\n",
                         static_cast<unsigned long long>(cycles));
            status = 4;
        }
    }
    std::fflush(stdout);
    if (status == 0) {
        std::printf("exit %u cycles %llu\n", exit_value, static_cast<unsigned long long>(cycles));
        for (uint32_t addr = signature_begin & ~3u; addr < signature_end; addr += 4)
            std::printf("%08x\n", addr < kRamSize ? read_word(ram, addr) : 0);
    }
    core->final();
    return status;
}
