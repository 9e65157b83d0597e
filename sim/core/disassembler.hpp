// Instruction text for traces and messages: every encoding the decoder executes, printed as llvm-objdump
// prints it (see README.md in this folder for the conventions).
#pragma once

#include <cstdint>
#include <string>

namespace pulpsim {

// The text of the instruction `raw` (a 32-bit encoding, or a compressed one in its low 16 bits) at `pc`:
// ABI register names, llvm-objdump's aliases (li, mv, ret, j, beqz, csrr, fmv.s, ...), immediates in
// decimal, branch, jump and hardware-loop targets as absolute addresses. Encodings the decoder rejects
// give "unknown 0x........".
std::string disassemble(uint32_t raw, uint32_t pc);

// ABI names: zero, ra, sp, ..., t6 and ft0, ..., ft11.
const char* x_register_name(unsigned r);
const char* f_register_name(unsigned r);

} // namespace pulpsim
